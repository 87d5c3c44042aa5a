"""Warmaster: no two units on one place (issue 26). A scenario whose units'
footprints overlap is bad input (exit 2, naming both units, at the second
one's `at`, as C&C and the grid refuse two units on one place); a move that
ends a unit or a character overlapping a unit breaks wm.no-overlap (exit 1).
Units placed flush only touch: that is no overlap."""

from __future__ import annotations

import json

from conftest import run_cli
from test_warmaster_check import CHARS, TERRAIN, UNITS, O, broken, check
from warmaster_util import EXAMPLES, RIDGEWAY, TURN, house, scenario, turn, write

STACKED = """\
system: warmaster
board: {grid: table, width: 120, depth: 80}
to_move: red
units:
  - {id: a, side: red, type: infantry, at: [30, 35]}
  - {id: b, side: red, type: infantry, at: [42, 35]}
  - {id: c, side: blue, type: infantry, at: [33, 36]}
characters:
  - {id: gen, side: red, role: general, command: 9, at: [60, 10]}
"""


def test_overlapping_units_in_a_scenario_are_refused(tmp_path):
    # a (24..36 x 34..36) and b (36..48) touch, flush: no overlap; c
    # (27..39 x 35..37) overlaps a first (and b): refused at c's `at` (line 7, column 45)
    sc = write(tmp_path, STACKED, "scenario")
    code, out, err = run_cli("orders", sc)
    assert code == 2 and out == ""
    assert err.splitlines()[0] == f"{sc}:7:45: units a and c overlap (a at line 5)"


def test_units_placed_flush_are_no_overlap(tmp_path):
    # c flush against a's front edge (y 36): it loads; a touches an enemy (it
    # has charged), b touches a (supporting it): both engaged, no order (seed 003, "Charge")
    sc = write(tmp_path, STACKED.replace("[33, 36]", "[30, 37]"), "scenario")
    code, out, _ = run_cli("orders", sc, "--count")
    assert (code, out) == (0, "0\n")


def test_thirty_stacked_units_are_refused_at_once(tmp_path):
    """The issue's case: 30 units on one point made `orders` grow as C(30, 4)."""
    units = [{"id": f"u{i}", "side": "red", "type": "infantry", "at": [60, 40]} for i in range(30)]
    sc = scenario(tmp_path, units, [{"id": "gen", "side": "red", "role": "general", "command": 9,
                                     "at": [60, 10]}], width=120, depth=80)
    code, _, err = run_cli("orders", sc)
    assert code == 2 and "units u0 and u1 overlap (u0 at line " in err
    code, out, _ = run_cli("orders", sc, "--json")  # one JSON document (issue 30)
    assert code == 2 and "units u0 and u1 overlap (u0 at line " in json.loads(out)["error"]["message"]


def test_the_shipped_examples_load():
    for sc in EXAMPLES.glob("*.yaml"):
        code, _, err = run_cli("orders", sc, "--count")
        assert code == 0, err
    code, out, _ = run_cli("check", RIDGEWAY, TURN, "--json")
    assert code == 0 and json.loads(out)["legal"] is True


# ---------------------------------------------------------------- moves (wm.no-overlap)


def test_an_order_that_ends_on_another_unit_is_illegal(tmp_path):
    """gen orders e (92..104 x 39..41) 1 cm west: onto d (80..92); 2 cm
    north instead it overlaps nothing."""
    board = scenario(tmp_path, UNITS, CHARS, TERRAIN)
    data = check(board, turn(tmp_path, orders=[O("gen", "e", 2, [[97, 40]])]))
    assert [(v["rule"], v["pieces"], v.get("measurements")) for v in data["violations"]] == [
        ("wm.no-overlap", ["e", "gen"], ["e overlaps d"])]
    assert check(board, turn(tmp_path, orders=[O("gen", "e", 2, [[98, 42]])]))["violations"] == []
    # the rule is the pack's: removed, the move onto d is legal
    gone = check(board, turn(tmp_path, orders=[O("gen", "e", 2, [[97, 40]])]),
                 house(tmp_path, "remove rule wm.no-overlap\n"))
    assert gone["legal"] is True


def test_a_character_that_ends_on_a_unit_is_illegal(tmp_path):
    """The hero (58..62 x 29..31) moves onto b (56..68 x 39..41), a friendly
    unit (reference §8: characters pass through friendly units, they do not
    stop on them); flush behind b it is legal; onto x1, an enemy, illegal."""
    board = scenario(tmp_path, UNITS, CHARS, TERRAIN)
    on_b = check(board, turn(tmp_path, characters=[{"piece": "hero", "to": [60, 40]}]))
    assert [(v["rule"], v["pieces"]) for v in on_b["violations"]] == [("wm.no-overlap", ["hero"])]
    assert check(board, turn(tmp_path, characters=[{"piece": "hero", "to": [60, 38]}]))["legal"] is True
    on_x1 = check(board, turn(tmp_path, characters=[{"piece": "hero", "to": [50, 55]}]))
    assert broken(on_x1) == {"wm.no-overlap"}


def test_an_initiative_charge_ends_in_contact_not_on_top(tmp_path):
    """a (44..56 x 39..41) charges x1 (44..56 x 54..56): to [50, 53] it
    touches x1 (legal); to [50, 54] it stands half on it."""
    board = scenario(tmp_path, UNITS, CHARS, TERRAIN)
    ok = check(board, turn(tmp_path, initiative=[{"unit": "a", "action": "charge", "to": [50, 53]}]))
    assert ok["legal"] is True
    on = check(board, turn(tmp_path, initiative=[{"unit": "a", "action": "charge", "to": [50, 54]}]))
    assert broken(on) == {"wm.no-overlap"}
