"""Warmaster: the keys under which one answer keeps what it worked out
(session 8). Each must name the same thing for the same value only: a
history loop's part about an entry whatever the variable it is written
with, a table by the poses that are not the start's, a unit's count of
orders on a log, and a log's history as a number. The odds they give are
checked against brute force and judging afresh in test_warmaster_stops.py
and test_warmaster_memo.py; here, the keys themselves."""

from __future__ import annotations

from warcouncil.dsl import ast as A
from warcouncil.systems.warmaster import stops
from warcouncil.systems.warmaster.builtins import _given
from warcouncil.systems.warmaster.engine import Step
from warcouncil.systems.warmaster.scenario import Pose
from warmaster_util import char, engine, unit

UNITS = [unit("a", "red", (50, 45)), unit("b", "red", (66, 45)), unit("c", "red", (50, 25))]
CHARS = [char("g", "red", "general", 9, (40, 35)), char("h", "red", "hero", 8, (76, 35))]


def _issuer_id(var: str) -> A.Expr:
    return A.Attr(A.Call("issuer", (A.Name(var),)), "id")


def test_a_part_has_one_key_whatever_its_variable():
    assert stops._canonical(_issuer_id("p"), ("p",)) == stops._canonical(_issuer_id("o"), ("o",))
    assert stops._canonical(_issuer_id("p"), ("p",)) != stops._canonical(A.Call("given_ids", (A.Name("p"),)), ("p",))
    # a name that is not the entry's stays as written (a global, another variable)
    assert stops._canonical(_issuer_id("q"), ("p",)) != stops._canonical(_issuer_id("o"), ("o",))


def test_a_part_binding_the_entrys_name_again_keeps_its_own_key():
    # exists p in given_ids(p): ... -- renaming the inner p would change what it means
    inner = A.Quant("exists", "p", A.Call("given_ids", (A.Name("p"),)), A.Compare("==", A.Name("p"), A.Str("a")))
    assert stops._canonical(inner, ("p",)) == (inner, ("p",))


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
    eng = engine(tmp_path, UNITS, CHARS)
    eng._sharing = False
    log = eng.start()
    counts = []
    for by, units in [("g", ("a",)), ("g", ("a", "b")), ("h", ("c",)), ("g", ("b",))]:
        e, after = eng.attempt(log, Step(by, units, None, None, None), 2, False)
        log = log.plus(e, after)
        counts.append({u: _given(log, u) for u in "abc"})
    assert counts[-1] == {"a": (2, 3), "b": (2, 3), "c": (1, 3)}
    assert counts[0] == {"a": (1, 0), "b": (0, 0), "c": (0, 0)}
    # a log not built entry by entry counts the same
    from warcouncil.systems.warmaster.table import Log
    whole = Log(list(log.entries), log.table, log.side)
    assert {u: _given(whole, u) for u in "abc"} == counts[-1]


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
    assert eng._lsig(one, reads) == eng._lsig(two, reads)  # (the history read, not the rolls)
    assert eng._lsig(one, reads) != eng._lsig(other, reads)
    assert eng._lsig(one.parent, reads) != eng._lsig(one, reads)
    from warcouncil.systems.warmaster.table import Log
    assert eng._lsig(Log(list(one.entries), one.table, one.side), reads) == eng._lsig(one, reads)
