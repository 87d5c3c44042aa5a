"""Warmaster `odds`: the exact distribution of successful orders of a plan,
against the reference's tables (§10), icepool, and a brute-force walk over
every 2D6 total of every step."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import icepool
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import run_cli
from warmaster_util import PLAN, RIDGEWAY, char, plan, scenario, unit

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}
TWO_D6 = icepool.d6 + icepool.d6


def p_le(n: int) -> Fraction:
    """P(2D6 <= n), by icepool."""
    return (TWO_D6 <= n).probability(True) if 2 <= n <= 12 else Fraction(int(n >= 12))


def odds(sc, steps, tmp_path):
    code, out, err = run_cli("odds", sc, plan(tmp_path, steps), "--json")
    assert code in (0, 1), err
    return code, json.loads(out)


# ---------------------------------------------------------------- reference §10.1

TABLE_10_1 = {2: 1, 3: 3, 4: 6, 5: 10, 6: 15, 7: 21, 8: 26, 9: 30, 10: 33, 11: 35, 12: 36}


@pytest.mark.parametrize("n", range(2, 13))
def test_one_order_is_the_table_of_10_1(tmp_path, n):
    sc = scenario(tmp_path, [unit("u", "red", (50, 30))], [char("g", "red", "general", n, (50, 20))])
    code, data = odds(sc, [{"by": "g", "units": ["u"]}], tmp_path)
    assert code == 0
    assert Fraction(data["all"]) == Fraction(TABLE_10_1[n], 36) == p_le(n)
    assert data["successes"] == {"0": str(1 - Fraction(TABLE_10_1[n], 36)) if n < 12 else "0",
                                 "1": data["all"]}


def test_a_heros_12_is_a_blunder_a_generals_is_not(tmp_path):
    sc = scenario(tmp_path, [unit("u", "red", (50, 30)), unit("v", "red", (150, 30))],
                  [char("g", "red", "general", 12, (150, 20)), char("h", "red", "hero", 12, (50, 20))])
    _, hero = odds(sc, [{"by": "h", "units": ["u"]}], tmp_path)
    _, gen = odds(sc, [{"by": "g", "units": ["v"]}], tmp_path)
    assert hero["all"] == "35/36" and gen["all"] == "1"


# ---------------------------------------------------------------- reference §10.2

TABLE_10_2 = {10: (0.9167, 0.7639, 0.5517), 9: (0.8333, 0.6019, 0.3511), 8: (0.7222, 0.4213, 0.1755),
              7: (0.5833, 0.2431, 0.0675), 6: (0.4167, 0.1157, 0.0193), 5: (0.2778, 0.0463, 0.0039)}


@pytest.mark.parametrize("c", sorted(TABLE_10_2))
def test_chains_of_three_orders_are_the_table_of_10_2(tmp_path, c):
    sc = scenario(tmp_path, [unit("u", "red", (50, 30))], [char("g", "red", "general", c, (50, 20))])
    code, data = odds(sc, [{"by": "g", "units": ["u"]}] * 3, tmp_path)
    assert code == 0
    s = {int(k): Fraction(v) for k, v in data["successes"].items()}
    at_least = [sum(p for k, p in s.items() if k >= i) for i in (1, 2, 3)]
    exact = [p_le(c), p_le(c) * p_le(c - 1), p_le(c) * p_le(c - 1) * p_le(c - 2)]
    assert at_least == exact
    assert [round(float(x), 4) for x in at_least] == list(TABLE_10_2[c])
    assert data["units"]["u"] == {str(k): str(v) for k, v in s.items()}
    assert Fraction(data["expected"]) == sum(at_least)


def test_the_shipped_plan(tmp_path):
    """wiz -> r6 (7), hero -> r1 (7), hero -> r1 again (moved 7 cm nearer
    b1, still within 20: enemy -1, successive -1: 6), gen -> r2+r3 (25 cm:
    -1, b1 within 20 of r3: -1: 7)."""
    code, out, _ = run_cli("odds", RIDGEWAY, PLAN, "--json")
    assert code == 0
    data = json.loads(out)
    p7, p6 = p_le(7), p_le(6)
    assert Fraction(data["all"]) == p7 * p7 * p6 * p7
    assert data["units"]["r1"] == {"0": str(1 - p7), "1": str(p7 * (1 - p6)), "2": str(p7 * p6)}
    assert sum(Fraction(v) for v in data["successes"].values()) == 1


def test_penalties_are_judged_where_the_unit_will_stand(tmp_path):
    """The first order takes u within 20 cm of the enemy: the second order
    has the enemy penalty as well as the successive one."""
    sc = scenario(tmp_path, [unit("u", "red", (50, 30)), unit("e", "blue", (50, 70), facing=180)],
                  [char("g", "red", "general", 9, (50, 20))])
    code, data = odds(sc, [{"by": "g", "units": ["u"], "to": [[50, 45]]}, {"by": "g", "units": ["u"]}], tmp_path)
    assert code == 0
    assert Fraction(data["all"]) == p_le(9) * p_le(9 - 1 - 1)
    code, data = odds(sc, [{"by": "g", "units": ["u"]}, {"by": "g", "units": ["u"]}], tmp_path)
    assert Fraction(data["all"]) == p_le(9) * p_le(9 - 1)


def test_the_generals_failure_makes_the_order_of_characters_matter(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (50, 30)), unit("b", "red", (80, 30))],
                  [char("g", "red", "general", 8, (50, 20)), char("h", "red", "hero", 8, (80, 20))])
    first = [{"by": "g", "units": ["a"]}, {"by": "h", "units": ["b"]}]
    _, gen_first = odds(sc, first, tmp_path)
    _, gen_last = odds(sc, first[::-1], tmp_path)
    p = p_le(8)
    assert Fraction(gen_first["all"]) == Fraction(gen_last["all"]) == p * p
    assert Fraction(gen_first["expected"]) == p + p * p  # the hero orders only if the General succeeded
    assert Fraction(gen_last["expected"]) == 2 * p


@pytest.mark.parametrize("steps,rule", [
    ([{"by": "g", "units": ["a"]}] * 4, "wm.three-orders"),
    ([{"by": "w", "units": ["a"]}], "wm.command-range"),
    ([{"by": "g", "units": ["a"]}, {"by": "h", "units": ["a"]}], "wm.one-character-per-unit"),
    ([{"by": "g", "units": ["a"]}, {"by": "g", "units": ["b"]}, {"by": "g", "units": ["a"]}], "wm.finish-unit"),
    ([{"by": "g", "units": ["a"]}, {"by": "h", "units": ["b"]}, {"by": "g", "units": ["c"]}], "wm.finish-character"),
])
def test_an_illegal_plan_exits_1_naming_its_rule(tmp_path, steps, rule):
    sc = scenario(tmp_path, [unit("a", "red", (50, 30)), unit("b", "red", (80, 30)), unit("c", "red", (110, 30))],
                  [char("g", "red", "general", 9, (50, 20)), char("h", "red", "hero", 8, (80, 20)),
                   char("w", "red", "wizard", 7, (150, 100))])
    code, data = odds(sc, steps, tmp_path)
    assert code == 1 and data["legal"] is False
    assert rule in {v["rule"] for v in data["violations"]}


def test_a_plan_gives_no_rolls(tmp_path):
    sc = scenario(tmp_path, [unit("u", "red", (50, 30))], [char("g", "red", "general", 9, (50, 20))])
    p = plan(tmp_path, [{"by": "g", "units": ["u"], "roll": 4}])
    code, _, err = run_cli("odds", sc, p)
    assert code == 2 and "gives no rolls" in err and f"{p}:" in err


# ---------------------------------------------------------------- brute force

UNITS = [("a", 0), ("b", 1), ("c", 2), ("d", 0)]  # id, stands lost
CHARS = [("g", "general", 9), ("h", "hero", 8), ("w", "wizard", 7)]


def brute_force(steps, command, lost):
    """Every 2D6 total of every step (11^k, weighted by its ways), the stop
    rules written out by hand: a step is attempted unless its character,
    its unit or the General failed before; it succeeds on a total <= its
    target (Command - casualties - orders to the unit before it), and a
    Hero's or Wizard's 12 fails."""
    dist: dict[int, Fraction] = {}
    for totals in itertools.product(range(2, 13), repeat=len(steps)):
        w = Fraction(1)
        failed_c, failed_u, general_failed, n, given = set(), set(), False, 0, {}
        for (by, u), t in zip(steps, totals):
            w *= Fraction(WAYS[t], 36)
            if by in failed_c or u in failed_u or general_failed:
                continue  # not attempted: its dice are rolled for nothing
            target = command[by] - lost[u] - given.get(u, 0)
            ok = t <= target and not (t == 12 and by != "g")
            if ok:
                n += 1
                given[u] = given.get(u, 0) + 1
            else:
                failed_c.add(by)
                failed_u.add(u)
                general_failed = general_failed or by == "g"
        dist[n] = dist.get(n, Fraction(0)) + w
    return dist


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


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plans())
def test_odds_equal_brute_force(tmp_path, steps):
    # every unit close to every character, no enemy, no terrain: only the
    # casualties and the successive orders make penalties
    spots = [(50, 45), (66, 45), (50, 25), (66, 25)]
    units = [unit(u, "red", at, lost=k) for (u, k), at in zip(UNITS, spots)]
    chars = [char(c, "red", role, cmd, at) for (c, role, cmd), at in zip(CHARS, [(40, 35), (76, 35), (58, 35)])]
    sc = scenario(tmp_path, units, chars, width=120, depth=80)
    code, data = odds(sc, [{"by": c, "units": [u]} for c, u in steps], tmp_path)
    assert code == 0, data
    want = brute_force(steps, {c: cmd for c, _, cmd in CHARS}, dict(UNITS))
    got = {int(k): Fraction(v) for k, v in data["successes"].items() if Fraction(v)}
    assert sum(want.values()) == 1
    assert got == {k: v for k, v in want.items() if v}
    assert Fraction(data["all"]) == want.get(len(steps), 0)
