"""Answers in a wargamer's words (issue 30): the text answers name pieces as
players do — "heavy infantry s4 at 5,7" — where they printed bare ids; the
JSON answers keep the ids. Exact text on the shipped examples, one family
after another."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from warcouncil.dsl.pack import PACKS_DIR

EXAMPLES = PACKS_DIR.parent / "examples"
DATA = Path(__file__).parent / "data"
CENTER3 = "Order Three Units Center"


def lines(*args) -> tuple[int, list[str]]:
    code, out, _ = run_cli(*args)
    return code, out.splitlines()


# ------------------------------------------------------------ Commands & Colors


def test_orders_name_each_piece_with_its_type_and_hex_one_set_a_line() -> None:
    code, out = lines("orders", "akragas", "--card", "Order Four Units Center")
    assert code == 0
    assert out[-3:] == [
        "  heavy infantry s4 at 5,7, heavy infantry s6 at 7,7, light bow infantry s11 at 6,6, leader daphnaeus at 6,7",
        "  heavy infantry s5 at 6,7, heavy infantry s6 at 7,7, light bow infantry s11 at 6,6, leader daphnaeus at 6,7",
        "31 legal order sets",
    ]
    doc = json.loads(run_cli("orders", "akragas", "--card", "Order Four Units Center", "--json")[1])
    assert doc["order_sets"][-1] == {"units": ["s5", "s6", "s11"], "leaders": ["daphnaeus"]}


def test_moves_name_the_pieces_and_the_violation() -> None:
    code, out = lines("moves", "akragas", "--card", CENTER3, "--order", "s4", "--order", "s5", "--order", "daphnaeus")
    assert code == 0
    assert out[1:3] == ["  heavy infantry s4 at 5,7 (4): 5,6 4,7 5,8 6,8", "  heavy infantry s5 at 6,7 (3): 7,6 6,8 7,8"]
    assert out[3].startswith("  leader daphnaeus at 6,7 (27): 5,4 6,4 ")
    code, out = lines("moves", "akragas", "--card", "Order Two Units Left", "--order", "s9")
    assert (code, out) == (1, [
        "Order Two Units Left — syracusan (Command 6, south edge)",
        "the order set itself is illegal",
        "  cca.order-eligible [medium cavalry s9 at 10,7] s9 cannot be ordered by this card",
        "  medium cavalry s9 at 10,7 (14): 10,4 11,4 12,4 9,5 10,5 11,5 11,6 12,6 11,7 8,8 9,8 10,8 11,8 12,8",
    ])
    doc = json.loads(run_cli("moves", "akragas", "--card", "Order Two Units Left", "--order", "s9", "--json")[1])
    assert list(doc["moves"]) == ["s9"] and doc["violations"][0]["pieces"] == ["s9"]


def test_turns_say_each_move_as_the_game_interface_does() -> None:
    code, out = lines("turns", "akragas", "--card", "Order Two Units Center", "--limit", "6")
    assert (code, out) == (0, [
        "Order Two Units Center — syracusan (Command 6, south edge)",
        "  (nothing moves)",
        "  heavy infantry s4 at 5,7 to 4,7",
        "  heavy infantry s4 at 5,7 to 5,6",
        "  heavy infantry s4 at 5,7 to 5,8",
        "  heavy infantry s4 at 5,7 to 6,8",
        "  heavy infantry s5 at 6,7 to 6,8, leader daphnaeus at 6,7 to 6,8",
        "more than 6 end positions (showing the first 6; --count gives the number)",
    ])


def test_check_lists_the_pieces_of_each_violation_in_words() -> None:
    code, out = lines("check", "akragas", DATA / "cli" / "illegal_turn.yaml")
    assert (code, out) == (1, [
        "illegal: 2 violations",
        "  cca.order-eligible [medium cavalry s9 at 10,7] s9 cannot be ordered by this card",
        "    CCA rulebook — Order Units and Leaders: “After playing a Command card, announce which eligible units "
        "or leaders you choose to order.”",
        "  cca.one-order-per-piece [light cavalry s1 at 1,7] s1 is ordered more than once",
        "    CCA rulebook — Order Units and Leaders: “You may not give more than one order to each unit or leader.”",
    ])
    doc = json.loads(run_cli("check", "akragas", DATA / "cli" / "illegal_turn.yaml", "--json")[1])
    assert [v["pieces"] for v in doc["violations"]] == [["s9"], ["s1"]]


def test_a_unit_moving_too_far_quotes_the_sentence_of_its_own_type() -> None:
    """Issue 30: moving two hexes cited "The example above shows the
    movement rates of foot units."; the rule now quotes the seed's sentence
    naming the moving unit's type, in the text and in JSON."""
    code, out = lines("check", "akragas", DATA / "check" / "illegal_light_troops.yaml")
    assert code == 1
    assert out[1:3] == [
        "  cca.move.unit-allowance [auxilia s2 at 2,7] s2 moves farther than it may",
        "    CCA rulebook — Unit Movement: “Auxilia infantry units may move one hex and battle, or move two hexes "
        "and not battle.”",
    ]
    doc = json.loads(run_cli("check", "akragas", DATA / "check" / "illegal_light_troops.yaml", "--json")[1])
    assert doc["violations"][0] == {
        "rule": "cca.move.unit-allowance", "pieces": ["s2"], "message": "s2 moves farther than it may",
        "source": "002_15dc29c0405a71dd.txt",
        "quote": "Auxilia infantry units may move one hex and battle, or move two hexes and not battle."}


def test_diff_names_the_pieces() -> None:
    code, out = lines("diff", "akragas", "--card", "Order Two Units Left", "--order", "s1", "--limit", "2",
                      "--rules", EXAMPLES / "house" / "light-cavalry-5.wc")
    assert code == 0
    assert [line.split("  cca.")[0] for line in out[2:]] == [
        "  light cavalry s1 at 1,7 +0,2", "  light cavalry s1 at 1,7 +1,2"]


# ------------------------------------------------------------ Warmaster


def test_warmaster_orders_odds_plan_and_check_in_words() -> None:
    code, out = lines("orders", "ridgeway", "--limit", "1")
    assert out[1] == "  general gen at 60,10 → infantry r1 at 30,35: target 7 (distance -1, enemy -1), p = 7/12"
    code, out = lines("check", "ridgeway", EXAMPLES / "warmaster" / "logs" / "turn.yaml")
    assert (code, out) == (0, [
        "legal",
        "orders:",
        "  order 1 (hero hero at 40,25 → infantry r2 at 42,35): roll 6, target 7 [enemy -1 (b1 is 15 cm from r2)]: "
        "given",
        "  order 2 (hero hero at 40,25 → infantry r2 at 42,35): roll 9, target 6 [successive -1, enemy -1 (b1 is "
        "10 cm from r2)]: not given",
        "  order 3 (wizard wiz at 75,28 → artillery r6 at 60,18): roll 5, target 7: given",
        "  order 4 (general gen at 60,10 → cavalry r3 at 54,35): roll 4, target 7 [distance -1 (gen is 23 cm from "
        "r3), enemy -1 (b1 is 19.209373 cm from r3)]: given",
    ])
    code, out = lines("odds", "ridgeway", EXAMPLES / "warmaster" / "logs" / "plan.yaml")
    assert out[6:] == [
        "  artillery r6 at 60,18: 0: 5/12, 1: 7/12",
        "  infantry r1 at 30,35: 0: 5/12, 1: 49/144, 2: 35/144",
        "  infantry r2 at 42,35: 0: 5/12, 1: 7/12",
        "  cavalry r3 at 54,35: 0: 5/12, 1: 7/12",
        "  step 1 (wizard wiz at 75,28 → artillery r6 at 60,18): attempted 1, given 7/12, blunder 1/36",
        "  step 2 (hero hero at 40,25 → infantry r1 at 30,35): attempted 1, given 7/12, blunder 1/36",
        "  step 3 (hero hero at 40,25 → infantry r1 at 30,35): attempted 7/12, given 35/144, blunder 7/432",
        "  step 4 (general gen at 60,10 → infantry r2 at 42,35, cavalry r3 at 54,35): attempted 1, given 7/12, "
        "blunder 0",
    ]
    code, out = lines("plan", "ridgeway", EXAMPLES / "warmaster" / "logs" / "wants.yaml")
    assert out[1:4] == ["  1. hero hero at 40,25 → infantry r1 at 30,35, infantry r2 at 42,35, cavalry r3 at 54,35",
                        "  2. general gen at 60,10 → artillery r6 at 60,18",
                        "  3. general gen at 60,10 → infantry r4 at 80,42"]


def test_a_wizard_out_of_range_quotes_the_wizard_range(tmp_path: Path) -> None:
    """Issue 30: a Wizard out of range cited "the General may order any unit
    on the table"."""
    log = tmp_path / "log.yaml"
    log.write_text("orders:\n  - {by: wiz, units: r1, roll: 5}\n", encoding="utf-8")
    code, out = lines("check", "ridgeway", log)
    assert (code, out[:4]) == (1, [
        "illegal: 1 violation",
        "  wm.command-range [infantry r1 at 30,35, wizard wiz at 75,28] order 1 (wiz → r1): a unit out of the "
        "character's command range",
        "    Warmaster — reference facts: “A Hero orders units within 60 cm, a Wizard units within 20 cm.”",
        "    measured: wiz is 37.336309 cm from r1",
    ])
    v = json.loads(run_cli("check", "ridgeway", log, "--json")[1])["violations"][0]
    assert (v["pieces"], v["quote"]) == (["r1", "wiz"], "A Hero orders units within 60 cm, a Wizard units within 20 cm.")


# ------------------------------------------------------------ square-grid ancients


def test_grid_activations_check_and_odds_in_words() -> None:
    code, out = lines("activations", "alesia")
    assert [line for line in out if line.startswith("  ") and not line.startswith("    ")] == [
        "  formed infantry r1 at 4,5: move, combat, charge",
        "  formed infantry r2 at 6,5: move, charge, reform",
        "  infantry skirmishers r3 at 2,5: move, charge, shoot",
        "  cavalry r4 at 8,6: move, charge",
        "  formed infantry r5 at 4,6: move, charge",
        "  formed infantry r6 at 10,7: none",
    ]
    code, out = lines("check", "alesia", EXAMPLES / "grid-ancients" / "alesia" / "turn.yaml")
    assert (code, out[0], out[1], out[-1]) == (
        0, "legal: 4 entries",
        "  formed infantry r1 at 4,5 combat: crunch: gauls collects 1 setback card (g1 Pushed Back)",
        "  formed infantry r2 at 6,5 reform: r2 Failed Reform Outcome 5+5+0: disordered")
    code, out = lines("check", "alesia", EXAMPLES / "grid-ancients" / "alesia" / "illegal-turn.yaml")
    assert code == 1
    assert [line.split(": ")[0] for line in out[1:6]] == [
        "  formed infantry r6 at 10,7", "  formed infantry r1 at 4,5", "  cavalry r4 at 8,6",
        "  formed infantry r5 at 4,6",
        "  an exchange gives three points for one point of a different kind [ga.three-for-one] — Homunculus Est! — "
        "quick-reference sheet"]  # (a violation of no piece names none)
    code, out = lines("odds", "alesia", EXAMPLES / "grid-ancients" / "alesia" / "combat.yaml")
    assert out[:2] == ["combat of attacker formed infantry r1 at 4,5, defender formed infantry g1 at 5,4:",
                       "  cancelled: 1/6"]
    doc = json.loads(run_cli("activations", "alesia", "--json")[1])
    assert list(doc["units"]) == ["r1", "r2", "r3", "r4", "r5", "r6"]
