"""Blunders (reference §5.3): an order roll of 12 by a Hero or a Wizard is a
blunder — a failed order that `check` names as a blunder, and whose chance
`orders` and `odds` give; a General's 12 is no blunder unless the
UNCERTAIN default `wm.default.generals-twelve` is replaced. Removal tests:
without `wm.blunder`, a 12 is just a roll."""

from __future__ import annotations

import json
from fractions import Fraction

from conftest import run_cli
from warmaster_util import char, house, plan, scenario, turn, unit

UNITS = [unit("a", "red", (50, 40)), unit("b", "red", (80, 40))]
CHARS = [char("gen", "red", "general", 9, (60, 30)), char("hero", "red", "hero", 8, (50, 30)),
         char("wiz", "red", "wizard", 7, (80, 30)), char("ace", "red", "hero", 12, (65, 30))]
NO_BLUNDERS = "replace define wm.blunder\n    blunder(o) := false\n"
GENERALS_BLUNDER = "replace define wm.default.generals-twelve\n    generals_blunder := true\n"


def ask(tmp_path, verb, *args, rules=()):
    sc = scenario(tmp_path, UNITS, CHARS)
    extra = [x for r in rules for x in ("--rules", house(tmp_path, r))]
    code, out, err = run_cli(verb, sc, *args, "--json", *extra)
    assert code in (0, 1), err
    return json.loads(out)


def test_check_names_a_heros_twelve_a_blunder(tmp_path):
    t = turn(tmp_path, orders=[{"by": "hero", "units": ["a"], "roll": 12}, {"by": "wiz", "units": ["b"], "roll": 11},
                               {"by": "gen", "units": ["b"], "roll": 12}])
    data = ask(tmp_path, "check", t)
    assert [(o["by"], o["given"], o["blunder"]) for o in data["orders"]] == [
        ("hero", False, True), ("wiz", False, False), ("gen", False, False)]
    data = ask(tmp_path, "check", t, rules=[GENERALS_BLUNDER])
    assert [o["blunder"] for o in data["orders"]] == [True, False, True]
    data = ask(tmp_path, "check", t, rules=[NO_BLUNDERS])
    assert [o["blunder"] for o in data["orders"]] == [False, False, False]


def test_the_text_says_blunder(tmp_path):
    sc = scenario(tmp_path, UNITS, CHARS)
    code, out, _ = run_cli("check", sc, turn(tmp_path, orders=[{"by": "hero", "units": ["a"], "roll": 12}]))
    assert code == 0 and "roll 12, target 8: not given (a blunder)" in out


def test_orders_give_the_chance_of_a_blunder(tmp_path):
    opts = {(o["character"], tuple(o["units"])): o for o in ask(tmp_path, "orders")["options"]}
    assert opts[("hero", ("a",))]["blunder"] == "1/36" and opts[("wiz", ("b",))]["blunder"] == "1/36"
    assert opts[("gen", ("a",))]["blunder"] == "0"
    # Command 12 would always succeed, but a Hero's 12 is a blunder: 35/36
    assert opts[("ace", ("a",))]["p"] == "35/36" and opts[("ace", ("a",))]["blunder"] == "1/36"
    opts = {(o["character"], tuple(o["units"])): o for o in ask(tmp_path, "orders", rules=[NO_BLUNDERS])["options"]}
    assert opts[("ace", ("a",))]["p"] == "1" and opts[("ace", ("a",))]["blunder"] == "0"
    opts = {(o["character"], tuple(o["units"])): o for o in ask(tmp_path, "orders", rules=[GENERALS_BLUNDER])["options"]}
    assert opts[("gen", ("a",))]["blunder"] == "1/36"


def test_odds_give_each_steps_blunder_and_the_expected_number(tmp_path):
    p = plan(tmp_path, [{"by": "hero", "units": ["a"]}, {"by": "hero", "units": ["a"]},
                        {"by": "gen", "units": ["b"]}])
    data = ask(tmp_path, "odds", p)
    # hero: target 8 (26/36), then 7 (21/36); the General's 9 (30/36), never stopped by the hero
    p1 = Fraction(26, 36)
    assert [s["attempted"] for s in data["steps"]] == ["1", str(p1), "1"]
    assert [s["given"] for s in data["steps"]] == [str(p1), str(p1 * Fraction(21, 36)), "5/6"]
    assert [s["blunder"] for s in data["steps"]] == ["1/36", str(p1 / 36), "0"]
    assert Fraction(data["blunders"]) == Fraction(1, 36) + p1 / 36
    none = ask(tmp_path, "odds", p, rules=[NO_BLUNDERS])
    assert none["blunders"] == "0" and none["all"] == data["all"]  # (a 12 fails a target of 8 anyway)


def test_blunder_odds_equal_brute_force(tmp_path):
    """Every 2D6 pair of each attempted roll enumerated: P(step k blunders)."""
    p = plan(tmp_path, [{"by": "wiz", "units": ["b"]}, {"by": "wiz", "units": ["b"]}, {"by": "wiz", "units": ["b"]}])
    data = ask(tmp_path, "odds", p)
    pairs = [a + b for a in range(1, 7) for b in range(1, 7)]
    got = [Fraction(0)] * 3

    def walk(k, prob):
        if k == 3:
            return
        target = 7 - k  # the Wizard's 7, -1 per successive order
        for roll in pairs:
            q = prob / 36
            if roll == 12:
                got[k] += q
            elif roll <= target:
                walk(k + 1, q)
    walk(0, Fraction(1))
    assert [Fraction(s["blunder"]) for s in data["steps"]] == got
