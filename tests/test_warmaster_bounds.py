"""Warmaster `orders --limit`, `orders --after` and brigade sizes (issue 26):
`--limit N` judges N + 1 orders and no more, and answers as C&C does
(`count: null`, `count_at_least`, `limited`); a log given with `--after`
that breaks a rule is bad input (exit 2, its first violation at its place);
a brigade order of five units is a rule question (wm.brigade, exit 1)."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from test_warmaster_check import CHARS, TERRAIN, UNITS, O, check
from warcouncil.systems.warmaster.engine import WarmasterEngine
from warmaster_util import RIDGEWAY, scenario, turn

# ridgeway's 19 options, in order: gen → r1, r2, r3, r4, r6, r1+r2, r2+r3,
# r1+r2+r3; hero → the same eight; wiz → r3, r4, r6 (test_warmaster_orders)


def _counting(monkeypatch, name):
    calls = []
    real = getattr(WarmasterEngine, name)

    def counted(self, *a, **kw):
        calls.append(a)
        return real(self, *a, **kw)
    monkeypatch.setattr(WarmasterEngine, name, counted)
    return calls


def test_limit_bounds_the_work(monkeypatch):
    """--limit 2: gen → r1, r2 are made, gen → r3 (legal) says there are
    more: three attempts judged, two options' dice weighed, of 27 and 19."""
    attempts, dice = _counting(monkeypatch, "attempt"), _counting(monkeypatch, "dice")
    code, out, _ = run_cli("orders", RIDGEWAY, "--limit", "2", "--json")
    assert code == 0 and (len(attempts), len(dice)) == (3, 2)
    del attempts[:], dice[:]
    run_cli("orders", RIDGEWAY, "--json")
    assert (len(attempts), len(dice)) == (3 * 9, 19)  # 3 characters x 9 units or brigades


def test_limit_answers_as_cc_does():
    code, out, _ = run_cli("orders", RIDGEWAY, "--limit", "2", "--json")
    data = json.loads(out)
    assert code == 0
    assert (data["count"], data["count_at_least"], data["limited"]) == (None, 3, True)
    assert [(o["character"], o["units"]) for o in data["options"]] == [("gen", ["r1"]), ("gen", ["r2"])]
    # as many as there are, or more: the exact count, not limited
    for n in ("19", "30"):
        data = json.loads(run_cli("orders", RIDGEWAY, "--limit", n, "--json")[1])
        assert (data["count"], data["limited"], len(data["options"])) == (19, False, 19)
        assert "count_at_least" not in data
    data = json.loads(run_cli("orders", RIDGEWAY, "--limit", "0", "--json")[1])
    assert data == {"side": "red", "count": None, "limited": True, "count_at_least": 1, "options": []}
    # no --limit: no `limited` key, as before
    assert set(json.loads(run_cli("orders", RIDGEWAY, "--json")[1])) == {"side", "count", "options"}


def test_limit_text_footer():
    code, out, _ = run_cli("orders", RIDGEWAY, "--limit", "2")
    assert code == 0
    assert out.splitlines() == [
        "the first 2 orders that may be attempted next (red):",
        "  general gen at 60,10 → infantry r1 at 30,35: target 7 (distance -1, enemy -1), p = 7/12",
        "  general gen at 60,10 → infantry r2 at 42,35: target 7 (distance -1, enemy -1), p = 7/12",
        "more than 2 orders (showing the first 2; --count gives the number)",
    ]
    assert run_cli("orders", RIDGEWAY, "--limit", "19")[1].splitlines()[0] == \
        "19 orders may be attempted next (red):"


# ---------------------------------------------------------------- --after an illegal log


def test_after_an_illegal_log_is_bad_input(tmp_path):
    """The second order (line 3) fails its roll (11 > 6) yet moves r2: exit 2
    at that order, naming its rule; nothing on stdout."""
    t = tmp_path / "after.yaml"
    t.write_text("orders:\n  - {by: hero, units: [r2], roll: 6, to: [[42, 40]]}\n"
                 "  - {by: hero, units: [r2], roll: 11, to: [[42, 45]]}\n", encoding="utf-8")
    code, out, err = run_cli("orders", RIDGEWAY, "--after", t)
    assert (code, out) == (2, "")
    assert err.splitlines()[0] == (
        f"{t}:3:5: the log given with --after is illegal: order 2 (hero → r2): the roll failed, so the order "
        "was not given and the unit may not move (wm.failed-order-not-given)")
    code, out, err = run_cli("orders", RIDGEWAY, "--after", t, "--json")  # the same, one JSON document (issue 30)
    e = json.loads(out)["error"]
    assert (code, err.split(": the log")[0], e["file"], e["line"], e["column"]) == (2, f"{t}:3:5", str(t), 3, 5)
    assert e["message"] == ("the log given with --after is illegal: order 2 (hero → r2): the roll failed, so the "
                            "order was not given and the unit may not move (wm.failed-order-not-given)")


def test_after_names_the_first_violation_in_log_order(tmp_path):
    """Two violations: order 1 (line 2) ends r1 on r2 (wm.no-overlap, late
    in the pack), order 2 (line 3) is a failed roll that moves: the first
    in the log is named, whatever the rules' order."""
    t = tmp_path / "after.yaml"
    t.write_text("orders:\n  - {by: gen, units: [r1], roll: 2, to: [[36, 35]]}\n"
                 "  - {by: hero, units: [r6], roll: 12, to: [[60, 20]]}\n", encoding="utf-8")
    code, _, err = run_cli("orders", RIDGEWAY, "--after", t)
    assert code == 2
    assert err.splitlines()[0] == (
        f"{t}:2:5: the log given with --after is illegal: order 1 (gen → r1): a move ends with a piece "
        "overlapping another unit (wm.no-overlap)")


# ---------------------------------------------------------------- brigades of five


@pytest.fixture
def board(tmp_path):
    return scenario(tmp_path, UNITS, CHARS, TERRAIN)


def test_a_brigade_of_five_is_a_rule_question(board, tmp_path):
    """a..e: five units touching in a row; one order, five destinations
    (each where it stands): exit 1, wm.brigade alone (seed 003: up to four)."""
    to = [[50 + 12 * i, 40] for i in range(5)]
    data = check(board, turn(tmp_path, orders=[O("gen", ["a", "b", "c", "d", "e"], 2, to)]))
    assert [(v["rule"], v["pieces"]) for v in data["violations"]] == [
        ("wm.brigade", ["a", "b", "c", "d", "e", "gen"])]
    # four of them: legal
    assert check(board, turn(tmp_path, orders=[O("gen", ["a", "b", "c", "d"], 2, to[:4])]))["legal"] is True
