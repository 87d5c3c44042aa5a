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


def test_each_sequencing_walked_in_the_trie_is_its_walk_alone(tmp_path, monkeypatch):
    """`plan` walks the sequencings together, as the kernel's trie of their
    common beginnings, merging alike branches (kernel/chance.py): on the
    bench's table (6 wanted orders, 120 legal sequencings, merged from three
    steps before the end), each sequencing's distribution of successful
    orders is that of `odds`' walk of it alone, and a beginning they share
    is judged once: fewer order attempts judged than the walks one by one."""
    import importlib.util
    from pathlib import Path

    from warcouncil.systems.warmaster import engine as E

    spec = importlib.util.spec_from_file_location(
        "bench_warmaster", Path(__file__).resolve().parents[1] / "bench" / "bench_warmaster.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    sc, _, _, _, _, _, wanted, _ = bench.build(tmp_path)
    eng = Engine.load(str(sc))
    judged = []
    breaks = E.WarmasterEngine.breaks
    monkeypatch.setattr(E.WarmasterEngine, "breaks", lambda self, log, at: judged.append(at) or breaks(self, log, at))
    eng.afresh(True)
    ranked = eng._sequencings(*eng.read_wants(str(wanted))[:2], [["wiz", "gen"], ["h1", "gen"], ["h2", "gen"],
                                                                 ["gen"]], None)
    together = len(judged)
    assert len(ranked) == 120
    for _, steps, walked in ranked:
        eng.afresh(True)
        assert eng.plan_violations(list(steps)) == []
        dist, _ = eng.distribution(list(steps))
        assert walked.counters[0] == dist
    alone = len(judged) - together
    # (2 143 against 3 224: the trie's 369 beginnings judged for legality
    # once, not 720 steps; 1 774 attempts on the branches, not 2 504)
    assert together < 0.7 * alone
