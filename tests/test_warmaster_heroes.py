"""Warmaster `odds` for a plan of independent Heroes (issue 27 item 3, the
case of bench/bench_heroes.py): H Heroes, each ordering its own unit once.
A Hero's failure stops only him, so the number of successful orders follows
a Poisson-binomial distribution, worked out here independently of the
engine as a product of generating polynomials, each Hero's P(success) by
icepool. A guard for any merging of the branches of ``odds``: the answer
must stay exactly this."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import icepool
import pytest
import yaml

from warcouncil.kernel.engine import Engine

_spec = importlib.util.spec_from_file_location(
    "bench_heroes", Path(__file__).resolve().parents[1] / "bench" / "bench_heroes.py")
bench_heroes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_heroes)


def poisson_binomial(ps: list[Fraction]) -> list[Fraction]:
    """The distribution of the number of successes of independent trials:
    the coefficients of the product of (1 - p + p x)."""
    poly = [Fraction(1)]
    for p in ps:
        poly = [(poly[k] if k < len(poly) else 0) * (1 - p) + (poly[k - 1] * p if k else 0)
                for k in range(len(poly) + 1)]
    return poly


def show(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


@pytest.mark.parametrize("stand", [False, True], ids=["moving", "standing"])
def test_six_heroes_are_a_poisson_binomial(tmp_path, stand):
    h = 6
    sc, pl = bench_heroes.write(h, tmp_path, stand)
    ans = Engine.load(str(sc)).answer("odds", path=str(pl))
    assert ans.exit_code == 0
    # each Hero (command 8) is within 20 cm of his unit and no enemy is near:
    # target 8, no penalty; a 12 is a blunder and fails anyway
    p = (icepool.d6 + icepool.d6 <= 8).probability(True)
    assert p == Fraction(13, 18)
    dist = poisson_binomial([p] * h)
    assert ans.data["successes"] == {str(k): show(q) for k, q in enumerate(dist)}
    assert ans.data["all"] == show(p ** h) == "4826809/34012224"
    assert ans.data["expected"] == show(h * p) == "13/3"
    assert ans.data["units"] == {f"u{i}": {"0": "5/18", "1": "13/18"} for i in range(h)}
    assert [s["attempted"] for s in ans.data["steps"]] == ["1"] * h
    assert [s["given"] for s in ans.data["steps"]] == ["13/18"] * h
    assert ans.data["blunders"] == show(h * Fraction(1, 36)) == "1/6"


def _answers(tmp_path, monkeypatch, h: int, stand: bool):
    """The odds of the H-Heroes plan with branches merged, and without (no
    transposition: every branch of successes and failures walked)."""
    sc, pl = bench_heroes.write(h, tmp_path, stand is True)
    if stand == "mixed":  # (every other Hero's unit moves)
        steps = bench_heroes.plan(h)["plan"]
        for st in steps[1::2]:
            del st["to"]
        pl.write_text(yaml.safe_dump({"plan": steps}, sort_keys=False))
    merged = Engine.load(str(sc)).answer("odds", path=str(pl)).data
    from warcouncil.systems.warmaster import engine as E
    real = E.Alike.__init__

    def merging_none(self, *args) -> None:  # (the kernel's Alike merging no branch)
        real(self, *args)
        self.history = None
    monkeypatch.setattr(E.Alike, "__init__", merging_none)
    walked = Engine.load(str(sc)).answer("odds", path=str(pl)).data
    return merged, walked


@pytest.mark.parametrize("stand", [False, True, "mixed"], ids=["moving", "standing", "mixed"])
def test_six_heroes_merged_equal_every_branch_walked(tmp_path, monkeypatch, stand):
    merged, walked = _answers(tmp_path, monkeypatch, 6, stand)
    assert merged == walked
    assert merged["all"] == "4826809/34012224"


def test_standing_heroes_merge_into_one_branch_per_step(tmp_path, monkeypatch):
    """Twelve Heroes ordering their own unit where it stands: whichever
    of them failed, the remaining steps judge the same (a Hero's failure
    stops only him), so every step is judged once, not 2^i times, but the
    last two, judged on the 2 and 4 branches after the last merge (merging
    there would save less than it costs): 16, after the 12 of the plan's
    legality (every roll succeeding); 4 107 in all without merging."""
    from warcouncil.systems.warmaster import engine as E
    judged = []
    breaks = E.WarmasterEngine.breaks
    monkeypatch.setattr(E.WarmasterEngine, "breaks", lambda self, log, at: judged.append(at) or breaks(self, log, at))
    sc, pl = bench_heroes.write(12, tmp_path, True)
    ans = Engine.load(str(sc)).answer("odds", path=str(pl))
    assert len(judged) == 12 + 16
    assert ans.data["all"] == show(Fraction(13, 18) ** 12)


def test_twenty_heroes_answer_exactly(tmp_path):
    """The issue's case: 20 Heroes (about 2 minutes when every one of the
    2^20 branches was walked), exactly the Poisson-binomial distribution."""
    sc, pl = bench_heroes.write(20, tmp_path, True)
    ans = Engine.load(str(sc)).answer("odds", path=str(pl))
    p = (icepool.d6 + icepool.d6 <= 8).probability(True)
    dist = poisson_binomial([p] * 20)
    assert ans.data["successes"] == {str(k): show(q) for k, q in enumerate(dist)}
    assert ans.data["all"] == "19004963774880799438801/12748236216396078174437376"
    assert ans.data["expected"] == show(20 * p)
    assert ans.data["units"] == {f"u{i}": {"0": "5/18", "1": "13/18"} for i in range(20)}


def test_the_walk_of_moving_heroes_keeps_what_its_depth_can_reuse(tmp_path, monkeypatch):
    """Moving Heroes: each success moves a unit where it stands on no other
    branch, so the 2^H branches stand on 2^H tables. What the walk keeps of
    a branch's tables is dropped when it leaves the branches where that
    unit moved (``_left_for_good``, ``AnswerCaches.forget``): at any success
    of the walk the answer's caches hold the start, the H tables of the
    plan's check (every roll succeeding) and those of the branch it stands
    in, 2H - 1 at the most (not 2^H), and H + 1 when done. What is kept per
    table is bounded by the steps still judged on it: the entries of the
    fields keyed by what a judgement read grow as a quadratic of H (third
    differences 0), not as 2^H."""
    from warcouncil.systems.warmaster import engine as E
    fields = ("tables", "defines", "verdicts", "values", "placed", "orders", "histories")
    peak = [0, 0, 0]
    rolled, distribution = E.WarmasterEngine.rolled, E.WarmasterEngine.distribution

    def spy(self, *args, **kw):
        c = self.cache
        peak[0] = max(peak[0], len(c.tables))
        peak[1] = max(peak[1], sum(len(getattr(c, f)) for f in fields))
        return rolled(self, *args, **kw)

    def walked(self, *args, **kw):
        out = distribution(self, *args, **kw)
        peak[2] = len(self.cache.tables)
        return out
    monkeypatch.setattr(E.WarmasterEngine, "rolled", spy)
    monkeypatch.setattr(E.WarmasterEngine, "distribution", walked)
    got = []
    for h in range(2, 9):
        peak[:] = [0, 0, 0]
        sc, pl = bench_heroes.write(h, tmp_path, False)
        ans = Engine.load(str(sc)).answer("odds", path=str(pl))
        assert ans.data["all"] == show(Fraction(13, 18) ** h)
        got.append(tuple(peak))
    assert [t for t, _, _ in got] == [2 * h - 1 for h in range(2, 9)]
    assert [d for _, _, d in got] == [h + 1 for h in range(2, 9)]
    entries = [n for _, n, _ in got]
    d1 = [b - a for a, b in zip(entries, entries[1:])]
    d2 = [b - a for a, b in zip(d1, d1[1:])]
    assert [b - a for a, b in zip(d2, d2[1:])] == [0, 0, 0, 0]
    assert d2[0] > 0 and entries[-1] < 40 * 8 ** 2  # (500 at 8 Heroes; 2^8 branches would keep thousands)

def test_what_the_walk_drops_changes_no_answer(tmp_path, monkeypatch):
    """A plan mixing steps whose successes stand on tables no other branch
    meets (dropped when left) with steps whose do not: a unit ordered again
    later, or to the place an earlier order gave it. The same answer with
    nothing dropped."""
    from warcouncil.systems.warmaster import engine as E
    sc, _ = bench_heroes.write(4, tmp_path, False)
    steps = [("h0", "u0", [20, 45]), ("h0", "u0", [20, 50]), ("h1", "u1", [50, 45]),
             ("h1", "u1", [50, 45]), ("h2", "u2", [80, 45]), ("h3", "u3", [110, 45])]
    pl = tmp_path / "plan.yaml"
    pl.write_text(yaml.safe_dump({"plan": [{"by": b, "units": [u], "to": [to]} for b, u, to in steps]}))
    eng = Engine.load(str(sc))
    assert eng._left_for_good(eng.read_plan(str(pl))) == [False, True, False, False, True, True]
    dropped = []
    forget = E.AnswerCaches.forget
    monkeypatch.setattr(E.AnswerCaches, "forget", lambda self, *a: dropped.append(forget(self, *a)) or dropped[-1])
    ans = eng.answer("odds", path=str(pl))
    assert ans.exit_code == 0 and len(dropped) > 0 and all(n > 0 for n in dropped)
    monkeypatch.setattr(E.WarmasterEngine, "_left_for_good", lambda self, steps: [False] * len(steps))
    kept = Engine.load(str(sc)).answer("odds", path=str(pl))
    assert ans.data == kept.data and ans.text == kept.text
    assert ans.data["all"] != "0"
