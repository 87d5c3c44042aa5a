"""Warmaster: what the engine keeps between judgements changes no answer.

`odds` and `orders` share, within one answer, the footprints and distances
(by piece and pose), one table per set of poses, the memo of the defines
that read the table only through their arguments, and work an attempt's
target out only when it is read (table.py, engine.py). Here each answer is
compared with the one given with all of that undone."""

from __future__ import annotations

import pytest

from warcouncil.kernel.caches import AnswerCaches
from warcouncil.systems.warmaster import engine as E
from warcouncil.systems.warmaster.table import Table
from warmaster_util import char, engine, house, keeping, plan, unit

WOOD = {"type": "wood", "polygon": [[85, 35], [115, 35], [115, 55], [85, 55]], "dense": True}
UNITS = [unit("r0", "red", (30, 30)), unit("r1", "red", (42, 30)), unit("r2", "red", (54, 30), lost=1),
         unit("r3", "red", (100, 30)), unit("rf", "red", (70, 12), type="flying", stands=2),
         unit("b0", "blue", (40, 62), facing=180), unit("b1", "blue", (100, 70), facing=180)]
CHARS = [char("gen", "red", "general", 9, (50, 10)), char("h", "red", "hero", 8, (95, 20)),
         char("wiz", "red", "wizard", 7, (65, 22))]
STEPS = [{"by": "wiz", "units": ["rf"], "to": [[70, 20]]}, {"by": "wiz", "units": ["rf"]},
         {"by": "h", "units": ["r3"], "to": [[100, 40]]}, {"by": "h", "units": ["r3"], "to": [[100, 48]]},
         {"by": "gen", "units": ["r0", "r1"]}, {"by": "gen", "units": ["r2"], "to": [[54, 44]]},
         {"by": "gen", "units": ["r2"]}]


class _Forgetful(dict):
    """A field of ``AnswerCaches`` that keeps nothing: every look-up misses."""

    def __setitem__(self, key, value) -> None:
        pass


def _unshared(monkeypatch):
    """Undo the sharing: a fresh memo per judgement, a new table per move
    (footprints and distances per table), every target worked out at once,
    no verdict, target, dice or what an order is (``orders``) kept, by the
    places read or by what was read (``placed``), for another judgement."""
    class Fresh(E.Ctx):
        __slots__ = ()

        def __init__(self, log, trace=None, static=None, fresh=False):
            super().__init__(log, trace, None, fresh)

    def moved(self, moves):
        return Table(self.scenario, self.unit_attrs, {**self.poses, **moves}, None)

    def forgetful():
        return AnswerCaches(defines=_Forgetful(), verdicts=_Forgetful(), values=_Forgetful(), placed=_Forgetful(),
                            orders=_Forgetful())
    attempt = E.WarmasterEngine.attempt
    monkeypatch.setattr(E, "Ctx", Fresh)
    monkeypatch.setattr(E, "AnswerCaches", forgetful)  # (each answer's caches: no judgement shared)
    monkeypatch.setattr(Table, "moved", moved)
    monkeypatch.setattr(E.WarmasterEngine, "attempt",
                        lambda self, log, step, roll, moves, lazy=False: attempt(self, log, step, roll, moves, False))


@pytest.fixture
def board(tmp_path):
    return engine(tmp_path, UNITS, CHARS, terrain=[WOOD])


def test_odds_are_those_of_judging_each_step_afresh(board, tmp_path, monkeypatch):
    path = str(plan(tmp_path, STEPS))
    shared = board.answer("odds", path=path)
    again = board.answer("odds", path=path)
    _unshared(monkeypatch)
    fresh = board.answer("odds", path=path)
    assert shared.exit_code == fresh.exit_code == 0
    assert shared.data == again.data == fresh.data
    assert len([k for k, v in fresh.data["successes"].items() if v != "0"]) == len(STEPS) + 1


def test_orders_are_those_of_judging_each_option_afresh(board, monkeypatch):
    ask = dict(side=None, after=None, limit=None, count_only=False)
    shared = board.answer("orders", **ask)
    _unshared(monkeypatch)
    fresh = board.answer("orders", **ask)
    assert shared.data == fresh.data and shared.data["count"] > 0


def test_one_table_per_set_of_poses(board):
    t = board.start().table
    pose = t.poses["r0"]
    there = t.moved({"r0": E.Pose((30, 40), pose.facing, pose.formation)})
    assert there is not t and there.at("r0") is not t.at("r0")
    assert t.moved({}) is t and there.moved({"r0": pose}) is t
    assert there.moved({"r0": E.Pose((30, 40), pose.facing, pose.formation)}) is there


def test_a_stopped_step_works_no_target_out(board, tmp_path, monkeypatch):
    """After the General fails, the later steps are stopped: judged by the
    stop rules, which read no target of theirs."""
    worked = []
    target = E.WarmasterEngine.target
    monkeypatch.setattr(E.WarmasterEngine, "target",
                        lambda self, log, e, *key: worked.append(e) or target(self, log, e, *key))
    steps = [{"by": "gen", "units": ["r0"]}, {"by": "h", "units": ["r3"]}]
    board.distribution(board.read_plan(str(plan(tmp_path, steps))))
    assert len(worked) == 2  # the General's order, and the hero's after its success only


def test_plan_is_that_of_judging_each_sequencing_afresh(board, tmp_path, monkeypatch):
    """`plan` shares verdicts, targets and dice between sequencings too."""
    from warmaster_util import write

    wants = write(tmp_path, {"want": [{"units": ["r3"], "times": 2}, {"units": ["r0", "r1"]}, {"units": ["rf"]}]})
    keeping(monkeypatch)
    shared = board.answer("plan", path=str(wants))
    assert shared.exit_code == 0 and board.kept.verdicts and board.kept.values  # (something was shared)
    _unshared(monkeypatch)
    fresh = board.answer("plan", path=str(wants))
    assert shared.data == fresh.data


def test_shared_judgements_are_keyed_by_what_they_read(board):
    """The reach of the judgements, read from the pack: the stop rules read
    the history and its dice; the command range the table alone; a target
    the table and the history (the successive-order penalty)."""
    reads = {r.id: r.reads for r in board.rules}
    assert reads["wm.failure-stops-character"] == {"history", "outcome"}
    assert reads["wm.command-range"] == {"table"}
    assert reads["wm.own-units"] == frozenset()
    d = board.pack.defines

    def of(name, param):
        return board.reads.of_var(d[name].body, param)
    # what each define reads of each argument: the dice, who orders and the roll and target
    assert of("succeeds", "o") == {"outcome", "fixed.by"}
    # the enemy penalty: nothing of the order, the unit's table; the distance: who orders, where
    assert of("penalty_enemy", "o") == frozenset() and of("penalty_enemy", "u") == {"table"}
    assert of("penalty_distance", "o") == {"fixed.by", "table"} and of("penalty_distance", "u") == {"table"}
    assert of("penalty_successive", "o") == {"history"}


def test_a_stopped_step_works_no_target_out_when_shared(board, tmp_path, monkeypatch):
    worked = []
    target = E.WarmasterEngine._target
    monkeypatch.setattr(E.WarmasterEngine, "_target", lambda self, log, e: worked.append(e) or target(self, log, e))
    steps = [{"by": "gen", "units": ["r0"]}, {"by": "h", "units": ["r3"]}]
    board._sharing = True
    board.distribution(board.read_plan(str(plan(tmp_path, steps))))
    assert len(worked) == 2


def test_a_judgement_reading_what_is_not_declared_is_never_shared(board):
    """The language refuses unknown attributes (lint); were one read (an
    entry's Python field, `o.roll`, rather than the builtin `rolled_2d6`),
    its reach is unknown and the judgement is never shared."""
    from warcouncil.dsl import ast as A

    o = A.Name("o")
    assert board.reads.of([A.Attr(o, "roll")]) is None
    assert board.reads.of([A.Call("rolled_2d6", (o,))]) == {"outcome"}
    assert board.reads.of([A.Attr(o, "at")]) == {"table"}
    assert board.reads.of([A.Attr(o, "pace"), A.Attr(o, "side")]) == frozenset()


def test_a_target_is_kept_by_the_places_it_read(board, monkeypatch):
    """A target read again on a table where only a piece it never read has
    moved is given again (not worked out); where an enemy it measured has
    moved, it is worked out anew, and equals the one worked out afresh."""
    worked = []
    target = E.WarmasterEngine._target
    monkeypatch.setattr(E.WarmasterEngine, "_target", lambda self, log, e: worked.append(e) or target(self, log, e))
    board.cache, board._sharing = AnswerCaches(), True  # (as in `odds`)
    log = board.start()
    step = E.Step("h", ("r3",), None, None, None)
    first, _ = board.attempt(log, step, None, False)
    assert len(worked) == 1 and first.penalties["enemy"] == 0

    def on(moves):
        t = log.table
        return E.Log([], t.moved({k: E.Pose(v, t.poses[k].facing, t.poses[k].formation) for k, v in moves.items()}),
                     log.side)
    # r0 is far from r3, h and every enemy: not read by r3's target
    again, _ = board.attempt(on({"r0": (20, 40)}), step, None, False)
    assert len(worked) == 1 and (again.target, again.penalties) == (first.target, first.penalties)
    # b1 comes within 20 cm of r3: read (the enemy penalty), so worked out anew
    near, _ = board.attempt(on({"b1": (100, 45)}), step, None, False)
    assert len(worked) == 2 and near.penalties["enemy"] == 1 and near.target == first.target - 1
    board.cache.values.clear()  # (no target kept: worked out afresh, on the same tables)
    board.cache.placed.clear()
    fresh, _ = board.attempt(on({"b1": (100, 45)}), step, None, False)
    assert (fresh.target, fresh.penalties) == (near.target, near.penalties)


# ---------------------------------------------------------------- kept by contacts, by history values


def test_a_judgement_asking_only_contacts_is_given_again_where_they_are_alike(tmp_path):
    """A judgement that reads two pieces only through ``touching`` is kept
    by whether they touch: given again where a piece moved without
    changing that, judged again where it did."""
    from warcouncil.systems.warmaster.builtins import touching_of, touching_quiet

    eng = engine(tmp_path, [unit("a", "red", (50, 40)), unit("b", "red", (62, 40)), unit("c", "red", (90, 40))],
                 [char("gen", "red", "general", 9, (50, 20))])
    eng.answer("orders", side=None, after=None, limit=None, count_only=False)  # (a fresh answer's memos)
    t = eng.start().table
    runs = []

    def work(table):
        def judge():
            runs.append(table)
            return touching_of(table.at("a"), table.at("b"))
        return judge

    def pose(x, y):
        p = t.poses["a"]
        return E.Pose((x, y), p.facing, p.formation)
    key = ("test", "contact")
    assert eng.cache.by_places(key, t, work(t), touching_quiet) is True and len(runs) == 1
    lower = t.moved({"a": pose(50, 41)})  # a a cm lower: still touching b
    assert touching_of(lower.at("a"), lower.at("b"))
    assert eng.cache.by_places(key, lower, work(lower), touching_quiet) is True and len(runs) == 1  # given again: the contact is alike
    apart = t.moved({"c": pose(90, 60)})  # c moved, a and b did not: given again
    assert eng.cache.by_places(key, apart, work(apart), touching_quiet) is True and len(runs) == 1
    away = t.moved({"b": pose(62, 60)})  # b moved away: no longer touching, judged again
    assert eng.cache.by_places(key, away, work(away), touching_quiet) is False and runs == [t, away]
    other = t.moved({"b": pose(62, 70)})  # b elsewhere, still apart: given again by the contact alone
    assert eng.cache.by_places(key, other, work(other), touching_quiet) is False and len(runs) == 2


@pytest.mark.parametrize("successive", [None, "penalty_successive(o, u) := count({p in attempts where "
                                              "p.index < o.index and u.id in given_ids(p)})"])
def test_a_target_reading_the_history_otherwise_is_kept_by_the_whole_history(tmp_path, monkeypatch, successive):
    """The successive-orders penalty reads the history through ``nth(o, u)``:
    a target is kept by that value. Written over ``attempts`` instead, it is
    kept by the whole history; the odds are the same either way, and those
    of judging each step afresh."""
    rules = [house(tmp_path, f"replace define wm.penalty.successive\n    {successive}\n")] if successive else []
    board = engine(tmp_path, UNITS, CHARS, terrain=[WOOD], rules=rules)
    assert (board.reads.history_calls("penalty_successive") is None) == bool(successive)
    path = str(plan(tmp_path, STEPS))
    shared = board.answer("odds", path=path)
    _unshared(monkeypatch)
    fresh = board.answer("odds", path=path)
    assert shared.exit_code == 0 and shared.data == fresh.data
    default = engine(tmp_path, UNITS, CHARS, terrain=[WOOD]).answer("odds", path=path)
    assert shared.data == default.data


def test_history_calls_are_read_only_on_the_defines_own_parameters(board, tmp_path):
    """``PackReads.history_calls``: a define reading the history only through
    ``nth(o, u)`` on its parameters is kept by that value; one that reads
    it through a define of no parameter, a history constant or a call on
    another value is not (None: kept by the whole history)."""
    from warcouncil.kernel.engine import Engine

    assert len(board.reads.history_calls("penalty_successive")) == 1
    assert board.reads.history_calls("penalty_casualties") == ()
    for text in ("define t.so-far\n    so_far := count(attempts)\n\n"
                 "replace define wm.penalty.successive\n    penalty_successive(o, u) := so_far\n",
                 "replace define wm.penalty.successive\n    penalty_successive(o, u) := count(attempts) - 1\n",
                 "replace define wm.penalty.successive\n    penalty_successive(o, u) := nth(previous(o), u)\n"):
        eng = Engine.load(str(board.scenario.path), [str(house(tmp_path, text))])
        assert eng.reads.history_calls("penalty_successive") is None, text


LAKE = {"type": "lake", "polygon": [[20, 50], [60, 50], [60, 70], [20, 70]], "impassable": True}


@pytest.mark.parametrize("unmoved_first", [True, False])
def test_a_move_is_not_judged_as_the_same_order_unmoved_where_it_ends(tmp_path, unmoved_first):
    """A measuring rule's verdict kept by the places it read (``by_places``) is
    kept for an order that moves nothing; the same order (character, unit)
    moving there from elsewhere reads the table it left too: judged as
    afresh, whichever of the two is judged first in one answer."""
    eng = engine(tmp_path, [unit("r0", "red", (40, 30)), unit("b0", "blue", (150, 100), facing=180)],
                 [char("gen", "red", "general", 9, (40, 10))], terrain=[LAKE])
    eng.cache = AnswerCaches()  # (one answer's caches, shared: `odds`)
    eng._sharing = True
    log0 = eng.start()
    pose = log0.table.poses["r0"]
    beyond = E.Pose((40, 80), pose.facing, pose.formation)  # (50 cm on, across the lake)
    first, there = eng.attempt(log0, E.Step("gen", ("r0",), (beyond,), None, None), 2, True)
    log1 = log0.plus(first, there)
    still, _ = eng.attempt(log1, E.Step("gen", ("r0",), None, None, None), 2, False)
    moved, after = eng.attempt(log0, E.Step("gen", ("r0",), (beyond,), None, None), 2, True)
    assert after is there
    now = log0.plus(moved, after)
    judged = {}
    for name, log, e in ([("still", log1.plus(still), still), ("moved", now, moved)] if unmoved_first
                         else [("moved", now, moved), ("still", log1.plus(still), still)]):
        judged[name] = (eng.breaks(log, e), sorted(v["rule"] for v in eng.violations(log, e)))
    assert judged["still"] == (False, [])
    assert judged["moved"] == (True, ["wm.one-move-per-order", "wm.unit-terrain"])


def test_an_answer_keeps_its_caches_for_itself_alone(board, tmp_path, monkeypatch):
    """One ``AnswerCaches`` per answer (issue 27 item 4): made when it
    begins, emptied and dropped when it is given; the collector left as
    Python sets it (no threshold changed while the answer runs)."""
    import gc

    seen = []
    distribution = E.WarmasterEngine.distribution

    def watched(self, *a, **kw):
        seen.append((self.cache, gc.get_threshold()))
        return distribution(self, *a, **kw)
    monkeypatch.setattr(E.WarmasterEngine, "distribution", watched)
    path = str(plan(tmp_path, STEPS))
    before = gc.get_threshold()
    first = board.answer("odds", path=path)
    second = board.answer("odds", path=path)
    assert first.data == second.data and len(seen) == 2
    (c1, t1), (c2, t2) = seen
    assert c1 is not c2 and t1 == t2 == before
    assert not any(getattr(c1, name) for name in c1.__slots__)  # (emptied when the answer was given)
    assert board.cache is not c2 and not any(getattr(board.cache, name) for name in board.cache.__slots__)
