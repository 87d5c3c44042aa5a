"""solver/collector.py: the collector held back while an answer makes many
objects, and put back as it was, whatever happens in the block."""

from __future__ import annotations

import gc
import threading

import pytest

from warcouncil.solver.collector import collecting_every


@pytest.fixture
def threshold():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_held_in_the_block_and_put_back(threshold):
    with collecting_every(20_000):
        assert gc.get_threshold() == (20_000, 10, 10)
        with collecting_every(50_000):  # (nested: the outer block's setting stands)
            assert gc.get_threshold() == (20_000, 10, 10)
        assert gc.get_threshold() == (20_000, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)


def test_put_back_after_an_error(threshold):
    with pytest.raises(ValueError):
        with collecting_every(20_000):
            raise ValueError("a bad file")
    assert gc.get_threshold() == (700, 10, 10)


def test_never_more_often_than_before_and_never_switched_on(threshold):
    gc.set_threshold(100_000, 10, 10)
    with collecting_every(20_000):
        assert gc.get_threshold() == (100_000, 10, 10)
    gc.set_threshold(0, 10, 10)  # (threshold 0: no automatic collection)
    with collecting_every(20_000):
        assert gc.get_threshold() == (0, 10, 10)
    assert gc.get_threshold() == (0, 10, 10)


def test_threads_put_it_back_when_the_last_leaves(threshold):
    inside, leave = threading.Barrier(3), threading.Event()

    def answer():
        with collecting_every(20_000):
            inside.wait()
            leave.wait()
    threads = [threading.Thread(target=answer) for _ in range(2)]
    for t in threads:
        t.start()
    inside.wait()
    assert gc.get_threshold() == (20_000, 10, 10)
    leave.set()
    for t in threads:
        t.join()
    assert gc.get_threshold() == (700, 10, 10)


def test_a_warmaster_odds_answer_holds_it_and_puts_it_back(tmp_path, monkeypatch, threshold):
    from warcouncil.systems.warmaster import engine as E
    from warmaster_util import PLAN, RIDGEWAY
    from warcouncil.solver.engine import Engine

    seen = []
    distribution = E.WarmasterEngine.distribution

    def watched(self, *a, **kw):
        seen.append(gc.get_threshold()[0])
        return distribution(self, *a, **kw)
    monkeypatch.setattr(E.WarmasterEngine, "distribution", watched)
    eng = Engine.load(str(RIDGEWAY))
    ans = eng.answer("odds", path=str(PLAN))
    assert ans.exit_code == 0 and seen == [E.ANSWER_GC_YOUNG]
    assert gc.get_threshold() == (700, 10, 10)
    eng.answer("orders", side=None, after=None, limit=None, count_only=True)  # (not held: few objects)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("verb, file", [("orders", None), ("odds", "PLAN"), ("check", "TURN"), ("plan", "wants")])
def test_a_warmaster_answer_leaves_nothing_for_the_collector(verb, file):
    """An answer's tables, entries, memos and closures are freed when it is
    done, by their counts: none is in a reference cycle (a piece and its
    table, an attempt and its pending target, a memo and itself, the
    distribution's recursion), which only the collector frees, walking all
    they hold."""
    import warmaster_util as W
    from warcouncil.solver.engine import Engine

    options = {} if file is None else {"path": str(getattr(W, file, W.EXAMPLES / "logs" / f"{file}.yaml"))}
    eng = Engine.load(str(W.RIDGEWAY))
    assert eng.answer(verb, **options).exit_code == 0  # (what is made once, before)
    gc.collect()
    gc.disable()
    try:
        ans = eng.answer(verb, **options)
        left = gc.collect()
    finally:
        gc.enable()
    assert ans.exit_code == 0 and left == 0
