"""A batch's jobs share one pack and its plan: what a job works out about
its own scenario (its pieces folded into the conditions left to each move
search) is kept with the job's setting, never in the plan's compiler, so a
long run of jobs over one pack leaves the compiler's memos as they were."""

from __future__ import annotations

import json

from conftest import AKRAGAS, run_cli
from warcouncil import batch
from warcouncil.dsl import ast as A
from warcouncil.dsl.unparse import expr
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx
from warcouncil.kernel.scenario import load_scenario
from warcouncil.solver.search import reach

from test_batch import DATA


def entries(compiler) -> dict[str, int]:
    """The size of every memo the compiler keeps: its own dicts and sets
    and each of its named caches (``PackCaches``)."""
    out = {name: len(v) for name, v in vars(compiler).items() if isinstance(v, (dict, set))}
    for name in compiler.caches.__slots__:
        v = getattr(compiler.caches, name)
        if isinstance(v, (dict, set, list, tuple)):
            out["caches." + name] = len(v) if not isinstance(v, tuple) else sum(len(x) for x in v)
    return out


# Akragas: moves of single units and of leaders with their units on several
# cards and both sides (their profiles leave "c8 in ordered" and the like),
# order sets counted, whole turns checked and end positions counted.
JOBS = [
    {"verb": "moves", "args": {"card": "Order Two Units Left", "side": "carthaginian", "order": ["c8"]}},
    {"verb": "moves", "args": {"card": "Order Two Units Left", "side": "carthaginian",
                               "order": ["c12", "hannibal_mago"]}},
    {"verb": "moves", "args": {"card": "Order Three Units Center", "order": ["s4", "s5"]}},
    {"verb": "moves", "args": {"card": "Order Light Troops", "order": ["s1"]}},
    {"verb": "moves", "args": {"card": "Line Command", "side": "carthaginian", "order": ["c3", "c4"]}},
    {"verb": "orders", "args": {"card": "Order Two Units Left", "count": True}},
    {"verb": "orders", "args": {"card": "Line Command", "side": "carthaginian", "count": True}},
    {"turn": str(DATA / "legal_turn.yaml")},
    {"turn": str(DATA / "illegal_turn.yaml")},
    {"verb": "turns", "args": {"card": "Order Two Units Left", "count": True}},
]


def test_a_long_batch_leaves_the_plans_memos_as_they_were(tmp_path, monkeypatch):
    monkeypatch.setattr(batch, "_PACK_MEMO", {})
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("".join(json.dumps({"scenario": str(AKRAGAS), **j}) + "\n" for j in JOBS * 3),
                    encoding="utf-8")
    sizes, answers = [], []
    for _ in range(3):  # N jobs, 2N, 3N (the pack and its plan kept between the batches, as within one)
        code, out, _ = run_cli("batch", jobs, "--jobs", "1")
        assert code == 0
        (pack, plan), = batch._PACK_MEMO.values()
        sizes.append(entries(plan.compiler))
        answers.append([json.loads(line) for line in out.splitlines()])
    assert sizes[1] == sizes[0] and sizes[2] == sizes[0]
    assert answers[1] == answers[0] == answers[2]
    got = answers[0]
    assert len(got) == 3 * len(JOBS) and all("error" not in r for r in got)
    assert [r["exit"] for r in got[:len(JOBS)]] == [0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    assert got[len(JOBS):2 * len(JOBS)] != got[:len(JOBS)]  # (the line numbers differ)
    assert [{k: v for k, v in r.items() if k != "line"} for r in got[len(JOBS):2 * len(JOBS)]] == \
        [{k: v for k, v in r.items() if k != "line"} for r in got[:len(JOBS)]]


def _residuals(memo) -> dict[str, object]:
    """The residual conditions a memo holds, as text -> the expression."""
    return {expr(k[1]): k[1] for k in memo if isinstance(k, tuple) and k and k[0] == "residual"}


def _values(e) -> list:
    return [n.value for n in A.walk(e) if isinstance(n, A.Value)]


def test_a_settings_residual_conditions_are_kept_with_the_setting():
    """Two settings of Akragas on one plan: the condition left to c8's
    search ("is c8 ordered?", c8 a piece of the setting) is kept in each
    setting's own memo, with c8 of that setting, and the plan's compiler
    holds no value of either setting; the searches find the same hexes."""
    first = Engine.load(AKRAGAS)
    second = Engine(load_scenario(str(AKRAGAS)), first.pack)
    assert second.plan is first.plan
    compiler = first.plan.compiler
    ends, views = [], set()
    for eng in (first, second):
        g = eng.ground("Order Two Units Left", side="carthaginian")
        s = g.setting
        views |= set(s.views)
        c8, hm = s.by_id["c8"], s.by_id["hannibal_mago"]
        ends.append(sorted(reach(Ctx(g, g.alts[0], frozenset([c8])), eng.plan, c8).ends))
        reach(Ctx(g, g.alts[0], frozenset([c8, hm])), eng.plan, hm)
        own = _residuals(s.memo)
        assert "c8 in ordered" in own
        assert _values(own["c8 in ordered"]) == [c8]
        assert all(v in s.views for e in own.values() for v in _values(e) if not isinstance(v, (bool, int, str)))
    pack_wide = _residuals(compiler.pack_memo)
    assert not any(v in views for e in pack_wide.values() for v in _values(e))
    assert all(type(k[1]) in (bool, int, str, type(None)) for k in compiler.caches.values)
    assert ends[0] == ends[1] and len(ends[0]) > 0
