"""Confused units (reference §3, §4, W11): `confused: true` on a unit of the
scenario; a confused unit neither uses initiative nor takes orders, and a
confused flyer may home back but not then be ordered. Each rule with a
removal test (drop it with a house layer: the answer changes)."""

from __future__ import annotations

import json

from conftest import run_cli
from warmaster_util import char, house, plan, scenario, turn, unit

UNITS = [unit("c", "red", (50, 40), confused=True), unit("d", "red", (62, 40)),
         unit("f", "red", (150, 100), type="flying", confused=True),
         unit("x", "blue", (50, 55), facing=180)]
CHARS = [char("gen", "red", "general", 9, (60, 20)), char("wiz", "red", "wizard", 7, (150, 60))]


def check(tmp_path, rules=(), **entries):
    sc = scenario(tmp_path, UNITS, CHARS)
    args = ["check", sc, turn(tmp_path, **entries), "--json"] + [x for r in rules for x in ("--rules", r)]
    code, out, err = run_cli(*args)
    assert code in (0, 1), err
    return {v["rule"] for v in json.loads(out)["violations"]}


def test_a_confused_unit_cannot_use_initiative(tmp_path):
    charge = dict(initiative=[{"unit": "c", "action": "charge", "to": [50, 53]}])
    assert check(tmp_path, **charge) == {"wm.confused-no-initiative"}
    assert check(tmp_path, [house(tmp_path, "remove rule wm.confused-no-initiative\n")], **charge) == set()


def test_a_confused_unit_cannot_be_ordered(tmp_path):
    order = dict(orders=[{"by": "gen", "units": ["c"], "roll": 3, "to": [[50, 45]]}])
    assert check(tmp_path, **order) == {"wm.confused-no-orders"}
    assert check(tmp_path, [house(tmp_path, "remove rule wm.confused-no-orders\n")], **order) == set()
    # ... nor brigaded with a unit that is not
    brigade = dict(orders=[{"by": "gen", "units": ["c", "d"], "roll": 3}])
    assert check(tmp_path, **brigade) == {"wm.confused-no-orders"}


def test_a_confused_flyer_homes_back_but_is_not_then_ordered(tmp_path):
    home = {"unit": "f", "toward": "wiz", "roll": 3, "to": [150, 75]}
    assert check(tmp_path, home_back=[home]) == set()
    order = {"by": "wiz", "units": ["f"], "roll": 3}
    assert check(tmp_path, home_back=[home], orders=[order]) == {"wm.confused-no-orders"}


def test_orders_and_odds_leave_confused_units_out(tmp_path):
    sc = scenario(tmp_path, UNITS, CHARS)
    code, out, _ = run_cli("orders", sc, "--json")
    offered = {tuple(o["units"]) for o in json.loads(out)["options"]}
    assert ("d",) in offered and not any("c" in g or "f" in g for g in offered)
    h = house(tmp_path, "remove rule wm.confused-no-orders\n")
    code, out, _ = run_cli("orders", sc, "--json", "--rules", h)
    offered = {tuple(o["units"]) for o in json.loads(out)["options"]}
    assert ("c",) in offered and ("c", "d") in offered
    code, out, _ = run_cli("odds", sc, plan(tmp_path, [{"by": "gen", "units": ["c"]}]), "--json")
    assert code == 1 and [v["rule"] for v in json.loads(out)["violations"]] == ["wm.confused-no-orders"]


def test_confused_is_false_unless_given(tmp_path):
    sc = scenario(tmp_path, [dict(UNITS[0], confused=False), *UNITS[1:]], CHARS)
    code, out, _ = run_cli("orders", sc, "--json")
    assert ("c",) in {tuple(o["units"]) for o in json.loads(out)["options"]}
