"""Warmaster: game knowledge the pack declares and a house rule changes
(issue 27: the Python left is geometry, file formats and the builtins'
meanings). Each test reads one declaration through every place that uses
it, with the pack as shipped and with a house rule."""

from __future__ import annotations

import json
import math

import pytest

import warcouncil
from conftest import run_cli
from warcouncil import CHANCE
from warmaster_util import RIDGEWAY, char, checked, house, scenario, turn, unit

# a 200 x 120 table; the General in the middle, far from every unit
UNITS = [unit("a", "red", (20, 20)), unit("x", "blue", (180, 110), facing=180)]
CHARS = [char("gen", "red", "general", 9, (100, 60))]
FAST = "change unit character { pace = 80 }\n"


@pytest.fixture
def board(tmp_path):
    return scenario(tmp_path, UNITS, CHARS)


def _character_moves(board, rules=()):
    state = warcouncil.load_game(str(board), [str(r) for r in rules]).new_state()
    return [a["to"] for a in state.legal_actions() if a["kind"] == "character_move"]


def test_a_characters_move_is_the_packs_unit_character(board, tmp_path):
    # the pack: `unit character { pace = 60; flying = false }` ("Each character
    # gets a single move of up to 60 cm"); the game lists no farther destination
    tos = _character_moves(board)
    assert max(math.dist(to, (100, 60)) for to in tos) == 60
    assert [160, 60] in tos and [170, 60] not in tos
    # a house rule's pace is the generator's reach
    tos = _character_moves(board, [house(tmp_path, FAST)])
    assert max(math.dist(to, (100, 60)) for to in tos) == 80
    assert [170, 60] in tos and [180, 60] in tos and [190, 60] not in tos


def test_check_judges_a_characters_move_by_the_declared_pace(board, tmp_path):
    t = turn(tmp_path, characters=[{"piece": "gen", "to": [170, 60]}])
    code, data = checked(board, t)
    assert code == 1
    assert data["violations"] == [{
        "rule": "wm.character-60cm", "pieces": ["gen"], "message": "move of gen: a character moves up to 60 cm",
        "source": "003_b2940e83eb367b4b.txt",
        "quote": "Characters move once in the Characters sub-phase and can move up to 60cm.",
        "measurements": ["gen moves 70 cm"]}]
    code, data = checked(board, t, house(tmp_path, FAST))
    assert (code, data["violations"]) == (0, [])


def test_a_unit_may_not_take_the_characters_type(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (20, 20), type="character")], CHARS)
    code, out, err = run_cli("orders", sc)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == f"{sc}:10:9: 'character' is the characters' type, not a unit's"


HOME_BACK_20 = "replace define wm.home-back-reach\n    home_back_reach(d) := d * 20\n"


def _home_back_destinations(rules=()):
    state = warcouncil.load_game("ridgeway", [str(r) for r in rules]).new_state(resolution=10)
    state.apply({"kind": "home_back", "unit": "r5", "toward": "wiz"})
    assert state.current_player() == CHANCE
    state.apply({"kind": "dice", "roll": 1})
    return [a["to"] for a in state.legal_actions()]


def test_a_home_backs_reach_is_the_packs_define(tmp_path):
    # the pack: home_back_reach(d) := d * 10 ("up to 1D6 × 10cm"); r5 at 105,70
    # rolls 1 and flies toward the wizard at 75,28: 10 cm, so the game lists
    # the grid's points 10 cm away and the point 10 cm straight toward him
    assert _home_back_destinations() == [[[105, 60]], [[95, 70]], [[99.188, 61.863]]]
    h = house(tmp_path, HOME_BACK_20)
    assert _home_back_destinations([h]) == [[[105, 60]], [[95, 70]], [[95, 60]], [[105, 50]], [[85, 70]],
                                            [[93.376, 53.726]]]
    # check reads the same define: 14.1 cm on a 1 is too far, but not with the house rule
    t = turn(tmp_path, home_back=[{"unit": "r5", "toward": "wiz", "roll": 1, "to": [95, 60]}])
    code, data = checked(str(RIDGEWAY), t)
    assert code == 1
    assert [(v["rule"], v["measurements"]) for v in data["violations"]] == [
        ("wm.home-back-how", ["r5 moves 14.142136 cm"])]
    assert checked(str(RIDGEWAY), t, h) == (0, {"legal": True, "violations": [], "orders": []})


def test_the_picture_draws_the_packs_command_ranges(tmp_path):
    # the pack's `command_reach` (wm.drawn-range: hero_reach, wizard_reach)
    # is the range drawn around a Hero and a Wizard, so a house rule's range
    # is the one the board shows; the General's range (the table) is not drawn
    import xml.etree.ElementTree as ET

    from warcouncil.kernel.engine import Engine
    from warcouncil.systems.warmaster.svg import table_svg

    def ranges(rules=()):
        root = ET.fromstring(table_svg(Engine.load("ridgeway", [str(r) for r in rules])))
        drawn = sorted(t.text for t in root.iter("{http://www.w3.org/2000/svg}title") if "command range" in t.text)
        legend = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if (t.text or "").startswith("command")]
        return drawn, legend

    assert ranges() == (["hero: command range 60 cm", "wiz: command range 20 cm"],
                        ["command range (Hero 60 cm, Wizard 20 cm)"])
    wide = house(tmp_path, "replace define wm.default.hero-range\n    from house \"Heroes shout.\"\n"
                           "    hero_reach := 80\n")
    assert ranges([wide]) == (["hero: command range 80 cm", "wiz: command range 20 cm"],
                              ["command range (Hero 80 cm, Wizard 20 cm)"])
    none = house(tmp_path, "replace define wm.drawn-range\n    from house \"No ranges drawn.\"\n"
                           "    command_reach(c) := none\n")
    assert ranges([none]) == ([], [])


STEP_25 = "replace define wm.penalty.distance-step\n    from house \"Long shouts.\"\n    distance_step := 25\n"


def test_the_distance_penalty_and_the_generals_bands_are_the_packs_step(board, tmp_path):
    # the pack: distance_step := 20 ("Per full 20cm distance"), read by
    # penalty_distance and drawn by the picture as the General's bands; the
    # General is 81.4 cm from unit a: -4 by the pack, -3 by a 25 cm step
    import xml.etree.ElementTree as ET

    from warcouncil.kernel.engine import Engine
    from warcouncil.systems.warmaster.svg import table_svg

    def answer(rules=()):
        code, out, err = run_cli("orders", board, "--json", *[a for r in rules for a in ("--rules", r)])
        assert (code, err) == (0, "")
        [option] = json.loads(out)["options"]
        root = ET.fromstring(table_svg(Engine.load(str(board), [str(r) for r in rules])))
        bands = [t.text for p in root.iter() if p.get("class") == "band" for t in p]
        labels = [t.text for t in root.iter() if t.get("class") == "band-label"]
        legend = [t.text for t in root.iter() if t.text and "from the General" in t.text]
        return option["target"], option["penalties"]["distance"], bands, labels, legend

    # (the table is 120 cm deep: the third band's label would lie off it)
    assert answer() == (5, 4, ["20 cm from gen", "40 cm from gen", "60 cm from gen"], ["20 cm (-1)", "40 cm (-2)"],
                        ["20, 40, 60 cm from the General (-1, -2, -3 to orders)"])
    assert answer([house(tmp_path, STEP_25)]) == (
        6, 3, ["25 cm from gen", "50 cm from gen", "75 cm from gen"], ["25 cm (-1)", "50 cm (-2)"],
        ["25, 50, 75 cm from the General (-1, -2, -3 to orders)"])


def test_a_unit_types_attributes_are_fixed_by_the_packs_declarations(board):
    # what a judgement reads of a piece's unit type (``pace``, ``flying``, the
    # pack declares them for every type) never changes in one answer: the
    # engine knows it from the pack's `unit` declarations, not from a list of
    # its own; where a piece stands and an entry's index are the turn's
    from warcouncil.kernel.engine import Engine

    eng = Engine.load(str(board))
    assert [eng._attr_reads(a) for a in ("pace", "flying", "side", "at", "index", "drilled")] == [
        "", "", "", "table", "history", None]
