"""Scenario loading and validation; every bad input is a located WarcouncilError."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warcouncil.errors import WarcouncilError
from warcouncil.kernel.scenario import Piece, Scenario, load_scenario, shipped_scenarios

BASE = """\
name: Test
system: cca
board: cca
sides:
  syracusan: {edge: south, command: 6}
  carthaginian: {edge: north, command: 5}
to_move: syracusan
units:
  - {id: s1, side: syracusan, type: heavy_infantry, at: [3, 7]}
  - {id: c1, side: carthaginian, type: auxilia, at: [4, 1], blocks: 3}
leaders:
  - {id: dionysius, side: syracusan, at: [3, 7]}
terrain:
  - {at: [5, 4], type: forest}
"""


def write(tmp_path: Path, text: str, name: str = "scen.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(text: str, fragment: str, nth: int = 1) -> int:
    """1-based line of the nth line containing ``fragment``."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if fragment in line]
    return hits[nth - 1]


def error_of(path: Path) -> WarcouncilError:
    with pytest.raises(WarcouncilError) as info:
        load_scenario(str(path))
    return info.value


# -- good input --------------------------------------------------------------


def test_base_loads(tmp_path: Path) -> None:
    path = write(tmp_path, BASE)
    s = load_scenario(str(path))
    assert s.name == "Test" and s.system == "cca" and s.board.name == "cca"
    assert s.sides["syracusan"].edge == "south" and s.sides["carthaginian"].command == 5
    assert s.to_move == "syracusan" and s.opponent("syracusan") == "carthaginian"
    assert s.piece("c1").blocks == 3 and s.piece("s1").blocks is None
    assert s.piece("dionysius").kind == "leader" and s.piece("dionysius").type is None
    assert s.piece("s1").where.line == line_of(BASE, "id: s1")
    assert s.terrain[0].type == "forest" and s.terrain_at((5, 4)) == "forest"
    assert s.piece_at((3, 7), "unit").id == "s1" and s.piece_at((3, 7), "leader").id == "dionysius"
    assert s.path == str(path) and s.rules == ()


def test_akragas() -> None:
    s = load_scenario("akragas")
    assert s.name == "Akragas 406 BC" and s.system == "cca"
    assert s.board.name == "cca" and len(s.board.cells) == 113
    assert s.sides["carthaginian"].edge == "north" and s.sides["carthaginian"].command == 5
    assert s.sides["syracusan"].edge == "south" and s.sides["syracusan"].command == 6
    assert s.to_move == "syracusan"
    assert [u.id for u in s.pieces_of("carthaginian", "unit")] == [f"c{i}" for i in range(1, 13)]
    assert [u.id for u in s.pieces_of("syracusan", "unit")] == [f"s{i}" for i in range(1, 13)]
    c10 = s.piece("c10")
    assert c10.at == (4, 2) and c10.type == "light_bow_infantry"
    assert s.board.sections_of(c10.at, "north") == {"right", "center"}
    assert s.board.sections_of(s.piece("c11").at, "north") == {"center", "left"}
    assert s.board.sections_of(s.piece("c1").at, "north") == {"right"}
    assert s.board.sections_of(s.piece("s1").at, "south") == {"left"}
    assert s.piece("s9").type == "medium_cavalry" and s.piece("c12").type == "heavy_chariot"
    # leaders: each on a friendly unit, in the section the play report gives
    sections = {"hannibal_mago": "left", "himilco": "center", "daphnaeus": "center", "dionysius": "right"}
    assert {ldr.id for ldr in s.leaders} == set(sections)
    for ldr in s.leaders:
        unit = s.piece_at(ldr.at, "unit")
        assert unit is not None and unit.side == ldr.side
        assert sections[ldr.id] in s.board.sections_of(ldr.at, s.edge_of(ldr.side))


def test_load_by_name_and_path_agree() -> None:
    by_name = load_scenario("akragas")
    assert "akragas" in shipped_scenarios() and "cca/akragas" in shipped_scenarios()
    assert load_scenario(by_name.path) == by_name
    assert load_scenario("cca/akragas") == by_name


def test_variants() -> None:
    s = load_scenario("akragas")
    t = s.with_to_move("carthaginian").with_command("syracusan", 4)
    assert t.to_move == "carthaginian" and t.sides["syracusan"].command == 4
    assert s.to_move == "syracusan" and s.sides["syracusan"].command == 6
    assert t.piece("c10") == s.piece("c10")
    assert isinstance(hash(s), int)
    with pytest.raises(WarcouncilError) as info:
        s.piece("c13")
    assert "c13" in str(info.value)
    with pytest.raises(WarcouncilError):
        s.opponent("romans")


def test_optional_parts_and_rules(tmp_path: Path) -> None:
    (tmp_path / "house.wc").write_text("# house rules\n")
    text = BASE.replace("name: Test\n", "rules: [house.wc]\n")
    s = load_scenario(str(write(tmp_path, text, "battle.yaml")))
    assert s.name == "battle"  # defaults to the file stem
    assert s.rules == (str(tmp_path / "house.wc"),)
    minimal = "\n".join(line for line in BASE.splitlines()[:10])
    s = load_scenario(str(write(tmp_path, minimal + "\n", "min.yaml")))
    assert s.leaders == () and s.terrain == ()


def test_board_mapping_in_scenario(tmp_path: Path) -> None:
    text = BASE.replace(
        "board: cca\n",
        "board:\n  grid: hex\n  width: 13\n  depth: 9\n  sections:\n    left: [[0, 0], [3, 7]]\n",
    )
    s = load_scenario(str(write(tmp_path, text)))
    assert s.board.sections_of((3, 7)) == {"left"}
    bad = text.replace("[3, 7]]", "[12, 7]]")
    err = error_of(write(tmp_path, bad, "bad.yaml"))
    assert f"bad.yaml:{line_of(bad, '[12, 7]]')}:" in str(err) and "[12, 7]" in str(err)


# -- bad input ---------------------------------------------------------------


BAD_CASES = [
    # (name, replace this, with this, fragment on the expected line, message fragment)
    ("unknown side", "side: carthaginian, type: auxilia", "side: romans, type: auxilia", "romans", "unknown side"),
    ("hex off board", "at: [4, 1]", "at: [12, 1]", "[12, 1]", "[12, 1] is off the board"),
    ("duplicate id", "{id: c1,", "{id: s1,", "auxilia", "duplicate id 's1'"),
    ("two units on a hex", "at: [4, 1]", "at: [3, 7]", "auxilia", "both on [3, 7]"),
    ("missing key", "type: auxilia, ", "", "id: c1", "missing 'type'"),
    ("unknown top-level key", "to_move: syracusan\n", "to_move: syracusan\nvictory: 5\n", "victory", "unknown key 'victory'"),
    ("bad command", "command: 5", "command: 0", "command: 0", "command must be a positive"),
    ("bad edge", "edge: north", "edge: top", "edge: top", "edge must be one of"),
    ("to_move", "to_move: syracusan", "to_move: greeks", "to_move", "to_move must name a side"),
    ("unknown board", "board: cca", "board: ccm_board", "board:", "unknown board"),
    ("bad blocks", "blocks: 3", "blocks: -1", "blocks", "blocks must be"),
    ("leader on enemy", "{id: dionysius, side: syracusan, at: [3, 7]}", "{id: dionysius, side: syracusan, at: [4, 1]}", "dionysius", "enemy unit"),
    ("terrain off board", "at: [5, 4]", "at: [5, 9]", "forest", "[5, 9] is off the board"),
    ("bad hex form", "at: [3, 7]}", "at: 37}", "id: s1", "[col, row]"),
    ("three sides", "to_move:", "  romans: {edge: east, command: 4}\nto_move:", "syracusan: {", "exactly two sides"),
    ("duplicate key", "system: cca\n", "system: cca\nsystem: ccm\n", "system: ccm", "duplicate key"),
    ("unknown unit key", "blocks: 3", "blokcs: 3", "blokcs", "unknown key 'blokcs'"),
    ("rules file missing", "name: Test\n", "name: Test\nrules: [nope.wc]\n", "rules:", "not found"),
]


@pytest.mark.parametrize("case", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_input(tmp_path: Path, case) -> None:
    _, old, new, at_fragment, message = case
    assert old in BASE
    text = BASE.replace(old, new, 1)
    path = write(tmp_path, text, "broken.yaml")
    err = error_of(path)
    assert f"{path}:{line_of(text, at_fragment)}:" in str(err), str(err)
    assert message in str(err), str(err)


def test_malformed_yaml(tmp_path: Path) -> None:
    text = BASE.replace("  - {id: c1,", "  - {id: c1,, [", 1)
    err = error_of(write(tmp_path, text, "broken.yaml"))
    assert "broken.yaml:" in str(err) and "malformed YAML" in str(err)
    assert err.location.line in (line_of(text, "{id: c1"), line_of(text, "{id: c1") + 1)

    text = BASE.replace("to_move: syracusan", "to_move: [syracusan", 1)
    err = error_of(write(tmp_path, text, "broken2.yaml"))
    assert "broken2.yaml:" in str(err) and "malformed YAML" in str(err)

    text = "system: cca\n  board: cca\n"
    err = error_of(write(tmp_path, text, "broken3.yaml"))
    assert "broken3.yaml:2:" in str(err)


def test_error_shows_source_line(tmp_path: Path) -> None:
    text = BASE.replace("at: [4, 1]", "at: [12, 1]")
    err = error_of(write(tmp_path, text))
    assert err.source_line is not None and "[12, 1]" in err.source_line
    assert "^" in str(err)


def test_not_a_mapping_and_empty(tmp_path: Path) -> None:
    assert "empty" in str(error_of(write(tmp_path, "", "e.yaml")))
    err = error_of(write(tmp_path, "- a\n- b\n", "l.yaml"))
    assert "l.yaml:1:1" in str(err) and "mapping" in str(err)


def test_unknown_scenario_name() -> None:
    with pytest.raises(WarcouncilError) as info:
        load_scenario("akragsa")
    assert "akragsa" in str(info.value) and "akragas" in (info.value.hint or "")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(WarcouncilError) as info:
        load_scenario(str(path))
    assert "nowhere.yaml" in str(info.value)
    with pytest.raises(WarcouncilError):
        load_scenario(str(tmp_path))  # a folder


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"system: cca\nname: \xe9t\xe9\n")
    with pytest.raises(WarcouncilError) as info:
        load_scenario(str(path))
    assert "latin.yaml:2" in str(info.value)


def test_yaml_tricks(tmp_path: Path) -> None:
    for i, text in enumerate(
        [
            "a: &x [*x]\n",  # recursive alias
            "a: !!python/object:os.system {}\n",
            "a: !!int nope\n",
            "<<: {system: cca}\n",
            "? [a, b]\n: 1\n",
            "[" * 5000 + "]" * 5000 + "\n",
            "a: !!set {x}\n",
            "system: cca\n---\nsystem: ccm\n",
        ]
    ):
        err = error_of(write(tmp_path, text, f"trick{i}.yaml"))
        assert f"trick{i}.yaml" in str(err)


# -- fuzzing -----------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzz_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dump(data) -> str:
    return yaml.dump(data, Dumper=_DUMPER)


def _load_only_warcouncil_errors(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    try:
        result = load_scenario(str(path))
    except WarcouncilError as e:
        assert str(e)
        assert str(path) in str(e)
    else:
        assert isinstance(result, Scenario)


KEYS = ["system", "board", "sides", "to_move", "units", "leaders", "terrain", "rules", "name",
        "id", "side", "type", "at", "blocks", "edge", "command", "grid", "width", "depth",
        "sections", "syracusan", "carthaginian", "north", "south", "facing"]
SCALARS = (
    st.none() | st.booleans() | st.integers(-3, 14) | st.integers() | st.floats()
    | st.sampled_from(KEYS + ["cca", "hex", "square", "table", "left", "auxilia", "s1"])
    | st.text(string.printable, max_size=8)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=5), inner, max_size=5),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=200))
def test_fuzz_random_text(fuzz_dir: Path, text: str) -> None:
    _load_only_warcouncil_errors(fuzz_dir / "text.yaml", text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=8))
def test_fuzz_random_mappings(fuzz_dir: Path, data: dict) -> None:
    _load_only_warcouncil_errors(fuzz_dir / "map.yaml", _dump(data))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


_AKRAGAS = yaml.safe_load(Path(shipped_scenarios()["akragas"]).read_text())
_AKRAGAS_PATHS = [p for p in _paths(_AKRAGAS) if p]


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(where=st.sampled_from(_AKRAGAS_PATHS), value=VALUES, drop=st.booleans())
def test_fuzz_mutated_akragas(fuzz_dir: Path, where: tuple, value, drop: bool) -> None:
    import copy

    data = copy.deepcopy(_AKRAGAS)
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    if drop:
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    _load_only_warcouncil_errors(fuzz_dir / "mutant.yaml", _dump(data))


def test_piece_is_hashable_and_location_ignored() -> None:
    s = load_scenario("akragas")
    p = s.piece("s1")
    assert isinstance(p, Piece) and hash(p) == hash(p)
    assert {p} == {Piece(p.id, p.side, p.kind, p.type, p.at, p.blocks, where=None)}  # type: ignore[arg-type]


def test_a_shipped_scenario_names_its_system_and_turn_files_may_sit_beside_it(tmp_path, monkeypatch) -> None:
    """Issue 28: a family's turn files had to live in a folder of their own
    (``examples/<family>/<scenario>/``), for every YAML file directly in
    ``examples/<family>/`` was taken for a scenario. A scenario is the one
    that names its ``system:``; a family without examples is no failure."""
    import warcouncil.kernel.scenario as scenario

    toy = tmp_path / "toy"
    (toy / "skirmish").mkdir(parents=True)
    (tmp_path / "empty").mkdir()
    (toy / "skirmish.yaml").write_text("# a toy\nname: skirmish\nsystem: toy\nboard: {}\n", encoding="utf-8")
    (toy / "turn.yaml").write_text("orders: [a1]\n", encoding="utf-8")
    (toy / "illegal-turn.yaml").write_text("# system: not a key here\norders: [a1, a2]\n", encoding="utf-8")
    (toy / "skirmish" / "turn.yaml").write_text("orders: [a1]\n", encoding="utf-8")
    monkeypatch.setattr(scenario, "EXAMPLES_DIR", tmp_path)
    assert shipped_scenarios() == {"skirmish": toy / "skirmish.yaml", "toy/skirmish": toy / "skirmish.yaml"}
    with pytest.raises(WarcouncilError, match=r"^unknown scenario 'turn': no such file, and no shipped scenario "
                                              r"of that name \(shipped: skirmish\)$"):
        load_scenario("turn")
