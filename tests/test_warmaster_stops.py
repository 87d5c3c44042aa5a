"""Warmaster: history loops of the stop rules' shape are judged from a
summary carried along the log (kernel/loops.py); any other shape as written.
Either way the odds are the brute force's, and a house rule that replaces
a stop rule changes them, whichever way it is judged."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warcouncil.dsl import ast as A
from warcouncil.systems.warmaster import engine as E
from warcouncil.kernel import loops
from warcouncil.kernel.engine import Engine
from warmaster_util import char, house, plan, scenario, unit

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}
UNITS = [("a", 0), ("b", 1), ("c", 2), ("d", 0)]  # id, stands lost
CHARS = [("g", "general", 9), ("h", "hero", 8), ("w", "wizard", 7)]
SPOTS = [(50, 45), (66, 45), (50, 25), (66, 25)]

#: the stop rule "a failed character gives no further order", replaced so
#: that a Wizard's failure stops only the unit (his other units may still
#: be ordered): once in the shape judged incrementally, once in a shape
#: that is not (a loop over every attempt, not over ``before(o)``)
WIZARD_GOES_ON = {
    "incremental": "replace rule wm.failure-stops-character\n"
                   "    require forall o in attempts: not (exists p in before(o): issuer(p).id == issuer(o).id\n"
                   "        and issuer(p).role != wizard and not succeeds(p))\n",
    "kernel": "replace rule wm.failure-stops-character\n"
              "    require forall o in attempts: not (exists p in attempts: p.index < o.index\n"
              "        and issuer(p).id == issuer(o).id and issuer(p).role != wizard and not succeeds(p))\n",
}


def brute_force(steps, wizard_goes_on=False):
    """Every 2D6 total of every step, the stop rules written out by hand
    (as tests/test_warmaster_odds.py), the Wizard's failure stopping only
    the unit when ``wizard_goes_on``."""
    command = {c: cmd for c, _, cmd in CHARS}
    lost = dict(UNITS)
    dist: dict[int, Fraction] = {}
    for totals in itertools.product(range(2, 13), repeat=len(steps)):
        w = Fraction(1)
        failed_c, failed_u, general_failed, n, given_ = set(), set(), False, 0, {}
        for (by, u), t in zip(steps, totals):
            w *= Fraction(WAYS[t], 36)
            if by in failed_c or u in failed_u or general_failed:
                continue
            target = command[by] - lost[u] - given_.get(u, 0)
            if t <= target and not (t == 12 and by != "g"):
                n += 1
                given_[u] = given_.get(u, 0) + 1
            else:
                if not (wizard_goes_on and by == "w"):
                    failed_c.add(by)
                failed_u.add(u)
                general_failed = general_failed or by == "g"
        dist[n] = dist.get(n, Fraction(0)) + w
    return {k: v for k, v in dist.items() if v}


def _scenario(tmp_path):
    units = [unit(u, "red", at, lost=k) for (u, k), at in zip(UNITS, SPOTS)]
    chars = [char(c, "red", role, cmd, at) for (c, role, cmd), at in zip(CHARS, [(40, 35), (76, 35), (58, 35)])]
    return scenario(tmp_path, units, chars, width=120, depth=80)


def _odds(tmp_path, steps, rules=()):
    eng = Engine.load(str(_scenario(tmp_path)), [str(r) for r in rules])
    ans = eng.answer("odds", path=str(plan(tmp_path, [{"by": c, "units": [u]} for c, u in steps])))
    assert ans.exit_code == 0, ans.text
    return eng, {int(k): Fraction(v) for k, v in ans.data["successes"].items() if Fraction(v)}, ans.data


def _kernel_only(monkeypatch):
    monkeypatch.setattr(loops, "analyse", lambda *a, **kw: None)


def _loops_of(eng, rule_id):
    """The history loops of a rule's body that ``loops.analyse`` takes."""
    body = eng.compiler.fold(eng.pack.rules[rule_id].body)
    return [n for n in A.walk(body) if isinstance(n, A.Quant) and eng.loops.shape(n) is not None]


def test_the_stop_rules_are_of_the_incremental_shape(tmp_path):
    eng = Engine.load(str(_scenario(tmp_path)))
    for rid in ("wm.failure-stops-character", "wm.failure-stops-unit", "wm.general-failure-stops-all",
                "wm.one-character-per-unit", "wm.finish-unit", "wm.finish-character", "wm.initiative-or-orders",
                "wm.initiative-once", "wm.home-back-once", "wm.character-move-once",
                "wm.sub-phases"):  # (its inner loop: an ordering, stage(…(a)) <= stage(…(b)))
        assert len(_loops_of(eng, rid)) == 1, rid
    assert len(eng.loops.taken) == 11


SHIPPED = [[("h", "b"), ("h", "b"), ("w", "c"), ("w", "d"), ("g", "a")],
           [("g", "c"), ("g", "d"), ("h", "a"), ("h", "a"), ("h", "b")],
           [("w", "a"), ("w", "b"), ("w", "b"), ("h", "c")]]


@pytest.mark.parametrize("steps", SHIPPED)
def test_incremental_odds_are_the_kernels_and_the_brute_forces(tmp_path, monkeypatch, steps):
    _, got, data = _odds(tmp_path, steps)
    assert got == brute_force(steps)
    _kernel_only(monkeypatch)
    _, again, kernel = _odds(tmp_path, steps)
    assert data == kernel


@pytest.mark.parametrize("steps", SHIPPED)
def test_a_stop_rule_asked_through_its_summary_gives_its_bodys_verdict(tmp_path, steps):
    """``breaks`` asks the stop rules' history loops for their
    verdict directly (``LogRule.quick``: the loop's ``judge``, negated or
    not), not their bodies: at every judgement it is the body's."""
    eng = Engine.load(str(_scenario(tmp_path)))
    quick = {r.id for r in eng.rules if r.quick is not None}
    assert quick == {"wm.failure-stops-character", "wm.failure-stops-unit", "wm.general-failure-stops-all",
                     "wm.one-character-per-unit"}
    asked = []
    for r in eng.rules:
        if r.quick is None:
            continue
        judge, negated = r.quick

        def checked(ctx, at, log, before, r=r, judge=judge, negated=negated):
            v = judge(ctx, at, log, before)
            if v is not None:
                asked.append(r.id)
                assert (v if negated else not v) == (not r.body(ctx, {r.var: at})), r.id
            return v
        object.__setattr__(r, "quick", (checked, negated))
    ans = eng.answer("odds", path=str(plan(tmp_path, [{"by": c, "units": [u]} for c, u in steps])))
    assert ans.exit_code == 0
    assert {int(k): Fraction(v) for k, v in ans.data["successes"].items() if Fraction(v)} == brute_force(steps)
    assert set(asked) == quick


@pytest.mark.parametrize("how", ["incremental", "kernel"])
def test_a_replaced_stop_rule_changes_the_odds_either_way(tmp_path, how):
    steps = [("w", "a"), ("w", "b"), ("h", "c"), ("h", "d")]
    h = house(tmp_path, WIZARD_GOES_ON[how])
    eng, got, _ = _odds(tmp_path, steps, [h])
    assert got == brute_force(steps, wizard_goes_on=True)
    assert got != brute_force(steps)
    # the replaced rule's loop is taken by kernel/loops.py or judged as written, by its shape alone
    assert len(_loops_of(eng, "wm.failure-stops-character")) == (how == "incremental")
    assert len(eng.loops.taken) == 10 + (how == "incremental")


@st.composite
def plans(draw):
    """A legal plan: each character (in some order) orders distinct units,
    each 1 to 3 times in a row; at most 4 steps."""
    order = draw(st.permutations([c for c, _, _ in CHARS]))
    free = [u for u, _ in UNITS]
    steps: list[tuple[str, str]] = []
    for c in order:
        for _ in range(draw(st.integers(0, 2))):
            if not free or len(steps) >= 4:
                break
            u = free.pop(draw(st.integers(0, len(free) - 1)))
            steps += [(c, u)] * min(draw(st.integers(1, 3)), 4 - len(steps))
    return steps


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plans(), st.sampled_from(sorted(WIZARD_GOES_ON)))
def test_replaced_stop_rules_give_the_brute_force_odds(tmp_path, steps, how):
    _, got, _ = _odds(tmp_path, steps, [house(tmp_path, WIZARD_GOES_ON[how])])
    assert got == brute_force(steps, wizard_goes_on=True)


def test_a_log_not_built_entry_by_entry_is_judged_by_the_kernel(tmp_path):
    """The summary is used only for the last entry of a log made by
    ``Log.plus``: an entry judged inside a log given whole (its history not
    a chain of logs) gets the kernel's loop, with the same verdict."""
    eng = Engine.load(str(_scenario(tmp_path)))
    log = eng.start()
    st_ = E.Step("h", ("a",), None, None, None)
    e, _ = eng.attempt(log, st_, 12, False)  # a Hero's 12: failed
    log = log.plus(e)
    e2, _ = eng.attempt(log, E.Step("h", ("b",), None, None, None), 2, False)
    chained = log.plus(e2)
    whole = E.Log(list(chained.entries), chained.table, chained.side)
    rule = next(r for r in eng.rules if r.id == "wm.failure-stops-character")
    for lg in (chained, whole):
        ctx = E.Ctx(lg, None, eng.cache.defines)
        assert rule.body(ctx, {rule.var: e2}) is False  # the hero failed before
    assert any(k[0] == "incremental" for k in log.sigs if isinstance(k, tuple))
    assert not whole.sigs


@pytest.mark.parametrize("judge", ["incremental", "kernel"])
def test_orders_after_an_initiative_move_leave_that_unit_out(tmp_path, monkeypatch, judge):
    """`orders --after` a log with an initiative move: the loop of
    wm.initiative-or-orders (over ``entries_before(o)``, a join by ``in``)
    is judged at each candidate order from the log's summary, or by the
    kernel: the unit that moved is offered no order either way, and is when
    the rule is removed."""
    from test_warmaster_check import CHARS as C, TERRAIN, UNITS as U
    from warmaster_util import turn

    if judge == "kernel":
        _kernel_only(monkeypatch)
    sc = scenario(tmp_path, U, C, TERRAIN)
    log = turn(tmp_path, initiative=[{"unit": "a", "action": "evade", "to": [50, 30]}])

    def offered(*rules):
        eng = Engine.load(str(sc), [str(r) for r in rules])
        ans = eng.answer("orders", side=None, after=str(log), limit=None, count_only=False)
        assert ans.exit_code == 0, ans.text
        return {(o["character"], tuple(o["units"])) for o in ans.data["options"]}, eng
    got, eng = offered()
    assert len(eng.loops.taken) == (11 if judge == "incremental" else 0)
    assert got and not any("a" in units for _, units in got)
    freed, _ = offered(house(tmp_path, "remove rule wm.initiative-or-orders\n"))
    assert freed - got and all("a" in units for _, units in freed - got)


#: house rules joining an earlier attempt to the one judged by an ordering:
#: rolls that never go down, and one that compares a value that is none (no
#: blunder D6 was rolled), which the kernel judges false either way round, so
#: that its negation (a ``forall``) is not the turned operator's
ORDERINGS = {
    "rolls-up": "rule house.rolls-up\n    require forall o in attempts: forall p in before(o): rolled_2d6(p) <= rolled_2d6(o)\n",
    "rolls-down": "rule house.rolls-down\n    require forall o in attempts: forall p in before(o): rolled_2d6(o) < rolled_2d6(p)\n",
    "none-le": "rule house.none-le\n    require forall o in attempts: forall p in before(o): blunder_d6(p) <= rolled_2d6(o)\n",
    "none-gt": "rule house.none-gt\n    require forall o in attempts: not (exists p in before(o): blunder_d6(p) > rolled_2d6(o))\n",
}


@pytest.mark.parametrize("rolls, broken", [
    ((3, 5, 5), {"rolls-down": [2, 3], "none-le": [2, 3], "rolls-up": []}),
    ((5, 3, 4), {"rolls-up": [2, 3], "rolls-down": [3], "none-le": [2, 3]}),
])
def test_orderings_with_an_earlier_entry_are_judged_incrementally_as_the_kernel(tmp_path, monkeypatch, rolls,
                                                                                   broken):
    """An ordering between an earlier attempt and the one judged (``A(p) <=
    B(o)``) is of the incremental shape; its verdicts are the kernel's,
    order by order, also where a value is none (``none <= 3`` and ``none >
    3`` are both false: a negated ordering is not the other operator)."""
    from warmaster_util import turn

    log = turn(tmp_path, orders=[{"by": "g", "units": [u], "roll": r} for u, r in zip("abc", rolls)])
    rules = []
    for name, text in ORDERINGS.items():
        rules.append(tmp_path / f"{name}.wc")
        rules[-1].write_text(text)

    def judged():
        eng = Engine.load(str(_scenario(tmp_path)), [str(r) for r in rules])
        ans = eng.answer("check", path=str(log))
        got = {}
        for v in ans.data["violations"]:
            if v["rule"].startswith("house."):
                unit = next(u for u in v["pieces"] if u != "g")
                got.setdefault(v["rule"][len("house."):], []).append(1 + "abc".index(unit))
        return eng, {k: sorted(set(v)) for k, v in got.items()}
    eng, got = judged()
    for name in ORDERINGS:
        rule = "house." + name
        assert len(_loops_of(eng, rule)) == 1, rule
    assert got == {k: v for k, v in {**broken, "none-gt": []}.items() if v}
    _kernel_only(monkeypatch)
    assert judged()[1] == got
