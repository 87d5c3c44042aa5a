"""Square-grid ancients: the scenario shape and the geometry the rules read
(footprints, facing, front/flank/rear, directly behind, zones of control),
on hand-built boards with exact sets."""

from __future__ import annotations

import re

import pytest

from conftest import run_cli
from gridkit import ALESIA, engine, house, scenario, unit
from warcouncil.kernel.system import System


def _eng(tmp_path, units, **kw):
    return engine(scenario(tmp_path, units, **kw))


def test_the_system_is_found_by_its_pack():
    eng = engine(ALESIA)
    assert type(eng).__name__ == "GridEngine"
    assert eng.system is System.for_pack("grid-ancients")
    assert eng.system.boards == frozenset({"square"})
    assert eng.system.verbs == frozenset({"activations", "odds", "check"}) == eng.system.answers_itself


@pytest.mark.parametrize("facing, squares, front, rear, flanks", [
    ("north", {(3, 3), (4, 3)}, {(3, 2), (4, 2)}, {(3, 4), (4, 4)}, {(2, 3), (5, 3)}),
    ("south", {(3, 3), (2, 3)}, {(3, 4), (2, 4)}, {(3, 2), (2, 2)}, {(1, 3), (4, 3)}),
    ("east", {(3, 3), (3, 4)}, {(4, 3), (4, 4)}, {(2, 3), (2, 4)}, {(3, 2), (3, 5)}),
    ("west", {(3, 3), (3, 2)}, {(2, 3), (2, 2)}, {(4, 3), (4, 2)}, {(3, 1), (3, 4)}),
])
def test_footprint_and_the_squares_around_it(tmp_path, facing, squares, front, rear, flanks):
    eng = _eng(tmp_path, [unit("a", "red", (3, 3), facing)])
    s = eng.setting()
    a = s.by_id["a"]
    from warcouncil.systems.grid.builtins import GRID
    f = GRID.functions
    assert f["footprint"](None, s, (a,)) == squares
    assert f["front_squares"](None, s, (a,)) == front
    assert f["rear_squares"](None, s, (a,)) == rear
    assert f["flank_squares"](None, s, (a,)) == flanks


def test_zone_of_control_is_the_squares_in_front_of_a_formed_unit(tmp_path):
    eng = _eng(tmp_path, [unit("a", "red", (3, 3), "north"),
                          unit("sk", "red", (0, 3), "north", type="infantry_skirmishers")])
    s = eng.setting()
    assert eng.call(s, "zoc", s.by_id["a"]) == {(3, 2), (4, 2)}
    assert eng.call(s, "zoc", s.by_id["sk"]) == frozenset()  # skirmishers are not formed


def test_a_house_rule_replaces_the_zone_of_control(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (3, 3), "north")])
    h = house(tmp_path, 'replace define ga.default.zoc\n    from house "A house rule for the tests."\n'
                        '    zoc(u) := {c in rear_squares(u) where true}\n')
    eng = engine(sc, [h])
    assert eng.call(eng.setting(), "zoc", eng.setting().by_id["a"]) == {(3, 4), (4, 4)}


def test_in_enemy_zoc_counts_each_enemy(tmp_path):
    # a (red, north) at (3,3)-(4,3); two blue units face it from the north and from the east
    eng = _eng(tmp_path, [unit("a", "red", (3, 3), "north"),
                          unit("b", "blue", (4, 2), "south"),      # (4,2),(3,2): its front is (4,3),(3,3)
                          unit("c", "blue", (5, 4), "north"),      # (5,4),(6,4): front (5,3),(6,3): not a's
                          unit("d", "blue", (5, 2), "east")])      # (5,2),(5,3): front (6,2),(6,3)
    s = eng.setting()
    a = s.by_id["a"]
    assert eng.call(s, "enemy_zocs", a) == 1
    assert eng.call(s, "in_enemy_zoc", a) is True
    assert eng.call(s, "enemy_in_front", a) is True
    assert eng.call(s, "in_enemy_zoc", s.by_id["c"]) is False


def test_front_flank_rear_and_directly_behind(tmp_path):
    eng = _eng(tmp_path, [unit("a", "red", (3, 3), "north"),
                          unit("back", "red", (3, 4), "north"),
                          unit("askew", "red", (4, 5), "north"),
                          unit("turned", "red", (1, 4), "south"),
                          unit("f", "blue", (3, 2), "south"),
                          unit("side", "blue", (5, 3), "west")])
    s = eng.setting()
    v = s.by_id
    from warcouncil.systems.grid.builtins import GRID
    fn = GRID.functions
    assert fn["directly_behind"](None, s, (v["back"], v["a"])) is True
    assert fn["directly_behind"](None, s, (v["a"], v["back"])) is False
    assert fn["directly_behind"](None, s, (v["askew"], v["back"])) is False   # one file off
    assert fn["seen_from"](None, s, (v["a"], v["f"])) == "front"
    assert fn["seen_from"](None, s, (v["a"], v["side"])) == "flank"
    assert fn["seen_from"](None, s, (v["a"], v["back"])) == "rear"
    assert fn["seen_from"](None, s, (v["a"], v["askew"])) is None
    assert fn["touching"](None, s, (v["a"], v["back"])) is True
    assert fn["gap"](None, s, (v["a"], v["askew"])) == 2


def test_the_example_reads():
    eng = engine(ALESIA)
    sc = eng.scenario
    assert sc.board.width == 12 and sc.board.depth == 8
    assert {u.id for u in sc.units} == {"r1", "r2", "r3", "r4", "r5", "r6", "g1", "g2", "g3", "g4", "g5"}
    s = eng.setting()
    assert eng.call(s, "in_enemy_zoc", s.by_id["r1"]) is True
    assert eng.call(s, "enemy_in_front", s.by_id["r1"]) is True
    from warcouncil.systems.grid.builtins import GRID
    assert GRID.functions["directly_behind"](None, s, (s.by_id["g2"], s.by_id["g1"])) is True


@pytest.mark.parametrize("edit, message, line", [
    (lambda t: t.replace("facing: north, combat: 4, manoeuvre: 4,\n     discipline: 6, characteristics: [drilled, battle_trained",
                         "facing: up, combat: 4, manoeuvre: 4,\n     discipline: 6, characteristics: [drilled, battle_trained"),
     "unit r1: facing must be one of north, east, south, west, not 'up'", None),
    (lambda t: t.replace("type: cavalry, at: [8, 6]", "type: cavalery, at: [8, 6]"), "unknown unit type 'cavalery'", None),
    (lambda t: t.replace("characteristics: [immobile, ranged_attack]", "characteristics: [imobile, ranged_attack]"),
     "unknown characteristic 'imobile'", None),
    (lambda t: t.replace("at: [10, 7], facing: north", "at: [11, 7], facing: north"), "off the board", None),
    (lambda t: t.replace("type: forest}", "type: jungle}", 1), "unknown terrain 'jungle'", None),
    (lambda t: t.replace("at: [4, 6], facing: north", "at: [5, 5], facing: north"), "both stand on", None),
    (lambda t: t.replace("combat: 3, manoeuvre: 3, discipline: 7}", "combat: three, manoeuvre: 3, discipline: 7}", 1),
     "unit r4: combat must be a whole number from 0 to 20, not 'three'", None),
])
def test_bad_scenarios_exit_2_with_their_place(tmp_path, edit, message, line):
    text = ALESIA.read_text(encoding="utf-8")
    bad = edit(text)
    assert bad != text
    p = tmp_path / "bad.yaml"
    p.write_text(bad, encoding="utf-8")
    code, out, err = run_cli("activations", p)
    assert code == 2, err
    assert message in err
    assert re.search(rf"{re.escape(str(p))}:\d+:\d+", err) and "Traceback" not in err


def test_the_svg_shows_units_facings_and_zones_of_control():
    import xml.dom.minidom

    from warcouncil.systems.grid.svg import grid_svg

    eng = engine(ALESIA)
    doc = xml.dom.minidom.parseString(grid_svg(eng))
    units = {g.getAttribute("id") for g in doc.getElementsByTagName("g")}
    assert units == {u.id for u in eng.scenario.units}
    zoc = [r for r in doc.getElementsByTagName("rect") if r.getAttribute("class") == "zoc"]
    s = eng.setting()
    assert len(zoc) == sum(len(eng.call(s, "zoc", v)) for v in s.all_units) == 18


from hypothesis import given, settings, strategies as st  # noqa: E402

from warcouncil.errors import WarcouncilError  # noqa: E402

_weird = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.text(max_size=4),
                   st.lists(st.integers(-1, 12), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["board", "sides", "to_move", "units", "generals", "terrain", "unit", "side", "general"]),
       st.sampled_from(["id", "side", "type", "at", "facing", "combat", "characteristics", "attached_to",
                        "command_points", "break_point", "grid", "width", "fatigued", "off_table"]),
       _weird)
def test_a_damaged_scenario_is_read_or_refused_with_a_place(where, key, value):
    import copy

    import yaml

    from warcouncil.systems.grid.scenario import read_scenario
    if not _ALESIA_DATA:
        _ALESIA_DATA.update(yaml.safe_load(ALESIA.read_text(encoding="utf-8")))
    data = copy.deepcopy(_ALESIA_DATA)
    if where == "unit":
        data["units"][0][key] = value
    elif where == "side":
        data["sides"]["romans"][key] = value
    elif where == "general":
        data["generals"][0][key] = value
    elif where == "board":
        data["board"][key] = value
    else:
        data[where] = value
    try:
        read_scenario(data, "fuzz.yaml")
    except WarcouncilError:
        pass


_ALESIA_DATA: dict = {}


def test_activations_draws_the_board_on_the_command_line(tmp_path):
    from conftest import run_cli
    from warcouncil.kernel.engine import Engine
    from warcouncil.systems.grid.svg import grid_svg

    out = tmp_path / "a.svg"
    code, _, _ = run_cli("activations", "alesia", "--svg", out)
    assert code == 0 and out.read_text(encoding="utf-8") == grid_svg(Engine.load("alesia"))
    code, _, err = run_cli("activations", "alesia", "--svg", tmp_path / "no" / "such" / "a.svg")
    assert code == 2 and "cannot write the drawing" in err
