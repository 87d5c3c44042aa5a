"""Warmaster: the keys under which one answer keeps what it worked out
(session 8). Each must name the same thing for the same value only: a
history loop's part about an entry whatever the variable it is written
with, a table by the poses that are not the start's, a unit's count of
orders on a log, and a log's history as a number. The odds they give are
checked against brute force and judging afresh in test_warmaster_stops.py
and test_warmaster_memo.py; here, the keys themselves."""

from __future__ import annotations

from warcouncil.dsl import ast as A
from warcouncil.kernel import loops
from warcouncil.kernel.log import entry_key, history_number
from warcouncil.kernel.log import LogCtx as Ctx
from warcouncil.systems.warmaster.builtins import WM
from warcouncil.systems.warmaster.engine import Step
from warcouncil.systems.warmaster.scenario import Pose
from warmaster_util import char, engine, unit

UNITS = [unit("a", "red", (50, 45)), unit("b", "red", (66, 45)), unit("c", "red", (50, 25))]
CHARS = [char("g", "red", "general", 9, (40, 35)), char("h", "red", "hero", 8, (76, 35))]


def _issuer_id(var: str) -> A.Expr:
    return A.Attr(A.Call("issuer", (A.Name(var),)), "id")


def test_a_part_has_one_key_whatever_its_variable():
    assert loops._canonical(_issuer_id("p"), ("p",)) == loops._canonical(_issuer_id("o"), ("o",))
    assert loops._canonical(_issuer_id("p"), ("p",)) != loops._canonical(A.Call("given_ids", (A.Name("p"),)), ("p",))
    # a name that is not the entry's stays as written (a global, another variable)
    assert loops._canonical(_issuer_id("q"), ("p",)) != loops._canonical(_issuer_id("o"), ("o",))


def test_a_part_binding_the_entrys_name_again_keeps_its_own_key():
    # exists p in given_ids(p): ... -- renaming the inner p would change what it means
    inner = A.Quant("exists", "p", A.Call("given_ids", (A.Name("p"),)), A.Compare("==", A.Name("p"), A.Str("a")))
    assert loops._canonical(inner, ("p",)) == (inner, ("p",))


def test_a_table_is_one_object_per_set_of_poses(tmp_path):
    eng = engine(tmp_path, UNITS, CHARS)
    start = eng.start().table
    here, there = Pose((50, 60)), Pose((66, 60))
    ab = start.moved({"a": here}).moved({"b": there})
    ba = start.moved({"b": there}).moved({"a": here})
    assert ab is ba and ab.key == frozenset({("a", here), ("b", there)})
    assert ab.moved({"a": start.poses["a"]}) is start.moved({"b": there})  # back where it started
    assert ab.moved({"a": start.poses["a"], "b": start.poses["b"]}) is start
    assert start.moved({"a": here}) is start.moved({"a": Pose((50, 60))})  # an equal pose, another object
    assert ab.poses["a"] == here and ab.poses["c"] == start.poses["c"]


def test_a_units_count_of_orders_is_the_logs(tmp_path):
    """``nth(o, u)`` (the pack's builtin): 1 + the attempts before ``o``
    that gave unit ``u`` an order."""
    eng = engine(tmp_path, UNITS, CHARS)
    eng._sharing = False
    nth = WM.functions["nth"]
    log = eng.start()
    counts = []
    for by, units in [("g", ("a",)), ("g", ("a", "b")), ("h", ("c",)), ("g", ("b",))]:
        e, after = eng.attempt(log, Step(by, units, None, None, None), 2, False)
        log = log.plus(e, after)
        nxt, _ = eng.attempt(log, Step("g", ("a", "b", "c"), None, None, None), None, False)
        counts.append({u.id: nth(Ctx(log), None, (nxt, u)) - 1 for u in nxt.units})
    assert counts[-1] == {"a": 2, "b": 2, "c": 1}
    assert counts[0] == {"a": 1, "b": 0, "c": 0}
    # a log not built entry by entry counts the same
    from warcouncil.systems.warmaster.table import Log
    whole = Log(list(log.entries), log.table, log.side)
    assert {u.id: nth(Ctx(whole), None, (nxt, u)) - 1 for u in nxt.units} == counts[-1]


def test_a_logs_history_is_one_number_for_alike_logs(tmp_path):
    eng = engine(tmp_path, UNITS, CHARS)
    reads = frozenset({"history"})

    def log_of(steps, roll):
        log = eng.start()
        for by, units in steps:
            e, after = eng.attempt(log, Step(by, units, None, None, None), roll, False)
            log = log.plus(e, after)
        return log
    one, two = log_of([("g", ("a",)), ("h", ("c",))], 2), log_of([("g", ("a",)), ("h", ("c",))], 12)
    other = log_of([("h", ("c",)), ("g", ("a",))], 2)

    def number(log):
        return history_number(log, reads, eng.cache.histories)
    assert number(one) == number(two)  # (the history read, not the rolls)
    assert number(one) != number(other)
    assert number(one.parent) != number(one)
    from warcouncil.systems.warmaster.table import Log
    assert number(Log(list(one.entries), one.table, one.side)) == number(one)


#: a house rule of the outcome group that reads the target of the attempt
#: judged, and two stop rules removed, so that a unit is ordered again after
#: its order failed: there it did not move, its target is lower and the rule
#: stops it; where it moved it is ordered (no one verdict for both)
LOW_TARGET = ("rule house.no-low-target\n    require forall o in attempts: target_number(o) >= 7\n"
              "remove rule wm.failure-stops-unit\nremove rule wm.failure-stops-character\n")


def _odds_both_ways(tmp_path, monkeypatch, rules, steps, units=UNITS):
    """``odds`` of ``steps`` (character, unit, move) with its judgements
    shared between branches and with every rule judged afresh on each."""
    from warcouncil.systems.warmaster import engine as E
    from warmaster_util import plan

    path = plan(tmp_path, [{"by": c, "units": [u], **({"to": [m]} if m else {})} for c, u, m in steps])
    out = []
    for sharing in (True, False):
        if not sharing:
            monkeypatch.setattr(E.WarmasterEngine, "_share_verbs", ())
        eng = engine(tmp_path, units, CHARS, rules=rules)
        ans = eng.answer("odds", path=str(path))
        assert ans.exit_code == 0, ans.text
        out.append((eng, ans.data))
    return out


def test_the_outcome_rules_of_an_attempt_before_its_roll_judge_as_afresh(tmp_path, monkeypatch):
    """The pack's rules about an attempt's outcome, judged before its roll
    (which they read it has none of) where judgements are shared: the
    answer of judging each afresh."""
    steps = [("h", "b", None), ("h", "b", None), ("h", "b", None), ("g", "a", None), ("g", "c", None)]
    (_, shared), (_, fresh) = _odds_both_ways(tmp_path, monkeypatch, [], steps)
    assert shared == fresh


def test_an_outcome_rule_reading_the_target_is_judged_by_its_target(tmp_path, monkeypatch):
    from warmaster_util import house

    # b 23 cm from the Hero (-1); its first order brings it within 20 cm
    units = [unit("a", "red", (50, 45)), unit("b", "red", (76, 60)), unit("c", "red", (50, 25))]
    steps = [("h", "b", [76, 45]), ("h", "b", None), ("g", "a", None)]
    (_, shared), (_, fresh) = _odds_both_ways(tmp_path, monkeypatch, [house(tmp_path, LOW_TARGET)], steps, units)
    assert shared == fresh
    # the second order to b: target 8 - 1 (successive) where b moved, 8 - 1 - 1 (distance)
    # where the first failed: attempted only where the first was given (2D6 <= 7: 21/36)
    assert [st["attempted"] for st in shared["steps"]] == ["1", "7/12", "1"]


def test_what_an_attempt_is_kept_for_its_order_is_what_it_is(tmp_path, monkeypatch):
    """`odds` keeps what an attempt is (``_what``, and its parts by what a
    judgement reads) once for every attempt of the same order: it is what
    ``entry_key`` works out of the entry itself."""
    from warcouncil.systems.warmaster import engine as E
    from warcouncil.systems.warmaster.table import Entry
    from warmaster_util import plan

    seen = []
    attempt = E.WarmasterEngine.attempt

    def checked(self, *a, **kw):
        e, t = attempt(self, *a, **kw)
        bare = Entry.__new__(Entry)
        bare.__dict__ = {k: v for k, v in e.__dict__.items() if k not in ("_what", "_parts")}
        for reads in (frozenset({"fixed"}), frozenset({"fixed.by"}), frozenset({"fixed.units", "outcome"})):
            assert entry_key(e, reads) == entry_key(bare, reads)
        seen.append((e.by.id, tuple(u.id for u in e.units), e.__dict__.get("_what")))
        return e, t
    monkeypatch.setattr(E.WarmasterEngine, "attempt", checked)
    eng = engine(tmp_path, UNITS, CHARS)
    steps = [{"by": "h", "units": ["b"]}, {"by": "h", "units": ["b"]}, {"by": "g", "units": ["a"]}]
    assert eng.answer("odds", path=str(plan(tmp_path, steps))).exit_code == 0
    assert {w for *_, w in seen} == {("orders", "h", ("b",), None, None), ("orders", "g", ("a",), None, None)}
