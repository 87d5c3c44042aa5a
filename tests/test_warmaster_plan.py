"""Warmaster `plan` (`warcouncil plan SCENARIO WANTS`): the sequencing and choice of characters for wanted orders that
maximises P(all) or the expected number of successes, checked against
trying every sequencing through `odds`."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from warcouncil.kernel.engine import Engine
from warmaster_util import char, plan, scenario, unit, write


def board(tmp_path):
    # a: close to the General only; b: close to both; the hero is 8, the General 9
    return scenario(tmp_path, [unit("a", "red", (30, 40), lost=1), unit("b", "red", (80, 40)),
                               unit("x", "blue", (80, 58), facing=180)],
                    [char("gen", "red", "general", 9, (30, 30)), char("hero", "red", "hero", 8, (80, 30))])


def wants(tmp_path, items, objective="all"):
    return write(tmp_path, {"want": items, "objective": objective})


def every_sequencing(eng, tmp_path, items):
    """(P(all), expected, steps) of every legal plan, by `odds` on each."""
    out = []
    chars = ["gen", "hero"]
    for assign in itertools.product(chars, repeat=len(items)):
        for order in itertools.permutations(range(len(items))):
            steps = [{"by": assign[i], "units": items[i]["units"]} for i in order for _ in range(items[i]["times"])]
            ans = eng.answer("odds", path=str(plan(tmp_path, steps)))
            if ans.exit_code == 0:
                out.append((Fraction(ans.data["all"]), Fraction(ans.data["expected"]), steps))
    return out


@pytest.mark.parametrize("objective", ["all", "expected"])
def test_plan_is_the_best_of_every_sequencing(tmp_path, objective):
    items = [{"units": ["a"], "times": 2}, {"units": ["b"], "times": 1}]
    eng = Engine.load(str(board(tmp_path)))
    ans = eng.answer("plan", path=str(wants(tmp_path, items, objective)))
    assert ans.exit_code == 0
    every = every_sequencing(eng, tmp_path, items)
    key = (lambda t: (t[0], t[1])) if objective == "all" else (lambda t: (t[1], t[0]))
    best = max(every, key=key)
    got = ans.data["best"]
    assert (Fraction(got["all"]), Fraction(got["expected"])) == (best[0], best[1])
    assert ans.data["sequencings"] == len(every)
    runner = max((t for t in every if key(t) != key(best)), key=key)
    assert (Fraction(ans.data["runner_up"]["all"]), Fraction(ans.data["runner_up"]["expected"])) == runner[:2]


def test_the_general_orders_last_for_the_expected_number(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (50, 30)), unit("b", "red", (80, 30))],
                  [char("g", "red", "general", 8, (50, 20)), char("h", "red", "hero", 8, (80, 20))])
    eng = Engine.load(str(sc))
    ans = eng.answer("plan", path=str(wants(tmp_path, [{"units": ["a"], "by": "g"}, {"units": ["b"], "by": "h"}],
                                              "expected")))
    assert [s["by"] for s in ans.data["best"]["plan"]] == ["h", "g"]
    assert [s["by"] for s in ans.data["runner_up"]["plan"]] == ["g", "h"]


def test_wanted_orders_no_character_may_give(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (150, 100))], [char("w", "red", "wizard", 7, (10, 10))])
    eng = Engine.load(str(sc))
    ans = eng.answer("plan", path=str(wants(tmp_path, [{"units": ["a"]}])))
    assert ans.exit_code == 1 and ans.data["legal"] is False


def test_plan_on_the_command_line(tmp_path):
    import json

    from conftest import run_cli

    sc = scenario(tmp_path, [unit("a", "red", (50, 30)), unit("b", "red", (80, 30))],
                  [char("g", "red", "general", 8, (50, 20)), char("h", "red", "hero", 8, (80, 20))])
    w = wants(tmp_path, [{"units": ["a"], "by": "g"}, {"units": ["b"], "by": "h"}], "expected")
    code, out, _ = run_cli("plan", sc, w, "--json")
    assert code == 0 and [s["by"] for s in json.loads(out)["best"]["plan"]] == ["h", "g"]
    code, _, err = run_cli("plan", "akragas", w)
    assert code == 2 and "makes no sense" in err
