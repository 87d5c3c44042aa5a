"""Warmaster `orders`: every order that may be attempted next, with its
target, each penalty and the exact P(success), on hand-built tables whose
distances sit on the thresholds (19.9 / 20.0 / 39.9 cm, rotated units)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import shapely
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import run_cli
from warcouncil.systems.warmaster import measure as T
from warmaster_util import RIDGEWAY, TURN, ahead, char, engine, right, scenario, turn, unit, write


def options(eng, after=None):
    ans = eng.answer("orders", side=None, after=after, limit=None, count_only=False)
    assert ans.exit_code == 0, ans.text
    return ans.data["options"]


def option(eng, character, units, after=None):
    hits = [o for o in options(eng, after) if o["character"] == character and o["units"] == list(units)]
    return hits[0] if hits else None


def ways(n):
    """P(2D6 <= n) from the reference's formula (§10.1), independently."""
    if n < 2:
        return Fraction(0)
    if n >= 12:
        return Fraction(1)
    w = n * (n - 1) // 2 if n <= 7 else 36 - (13 - n) * (12 - n) // 2
    return Fraction(w, 36)


# ---------------------------------------------------------------- the shipped example


def test_ridgeway_options_by_hand():
    code, out, _ = run_cli("orders", RIDGEWAY, "--json")
    assert code == 0
    data = json.loads(out)
    got = {(o["character"], tuple(o["units"])): o for o in data["options"]}
    # gen (58..62 x 9..11) to r6 (56..64 x 17..19): 6 cm, no penalty: 2D6 <= 9
    assert got[("gen", ("r6",))]["target"] == 9 and got[("gen", ("r6",))]["p"] == "5/6"
    # hero to r1: 8.2 cm (0), b1 15 cm away (-1): 7
    assert got[("hero", ("r1",))]["penalties"] == {"distance": 0, "successive": 0, "enemy": 1, "dense": 0,
                                                   "casualties": 0}
    # gen to r4: 32.3 cm (-1), in the wood (-1), one stand lost (-1): 6 -> 15/36
    assert got[("gen", ("r4",))]["target"] == 6 and got[("gen", ("r4",))]["p"] == "5/12"
    # the Wizard reaches r3 (13.9 cm), r4 and r6 only; the flyer r5 is 20+ cm from everyone
    assert sorted(u for c, u in got if c == "wiz") == [("r3",), ("r4",), ("r6",)]
    assert not any("r5" in u for _, u in got)
    # brigades of touching units: r1+r2, r2+r3, r1+r2+r3 (r1 and r3 do not touch)
    assert sorted(u for c, u in got if c == "gen" and len(u) > 1) == [("r1", "r2"), ("r1", "r2", "r3"), ("r2", "r3")]
    assert data["count"] == 8 + 8 + 3
    for o in data["options"]:
        assert Fraction(o["p"]) == ways(o["target"])


def test_count_and_limit():
    code, out, _ = run_cli("orders", RIDGEWAY, "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 19
    code, out, _ = run_cli("orders", RIDGEWAY, "--limit", "2", "--json")
    assert len(json.loads(out)["options"]) == 2


def test_after_a_partial_log(tmp_path):
    t = turn(tmp_path, orders=[{"by": "hero", "units": ["r2"], "roll": 6, "to": [[42, 40]]}])
    code, out, _ = run_cli("orders", RIDGEWAY, "--after", t, "--json")
    assert code == 0
    got = {(o["character"], tuple(o["units"])): o for o in json.loads(out)["options"]}
    # the hero's second order to r2: successive -1; nobody else may order r2
    assert got[("hero", ("r2",))]["penalties"]["successive"] == 1 and got[("hero", ("r2",))]["target"] == 6
    assert ("gen", ("r2",)) not in got and ("gen", ("r1", "r2")) not in got
    # a whole turn ends with the Characters sub-phase: no order after it
    code, out, _ = run_cli("orders", RIDGEWAY, "--after", TURN, "--json")
    assert code == 0 and json.loads(out)["options"] == []


def test_after_an_illegal_log_says_so(tmp_path):
    # bad input for `orders` (exit 2), at the order (test_warmaster_bounds.py)
    t = turn(tmp_path, orders=[{"by": "hero", "units": ["r2"], "roll": 11, "to": [[42, 40]]}])
    code, out, err = run_cli("orders", RIDGEWAY, "--after", t)
    assert code == 2 and out == "" and err.splitlines()[0].endswith("(wm.failed-order-not-given)")
    code, out, err = run_cli("orders", RIDGEWAY, "--after", t, "--json")  # one JSON document (issue 30)
    assert code == 2 and err.splitlines()[0].endswith("(wm.failed-order-not-given)")
    assert json.loads(out)["error"]["message"].endswith("(wm.failed-order-not-given)")


# ---------------------------------------------------------------- thresholds

HERO = (100.0, 10.0)  # a 4 x 2 base: its top edge at y = 11


@pytest.mark.parametrize("facing,half_depth", [(0, 1.0), (90, 6.0), (180, 1.0), (270, 6.0)])
@pytest.mark.parametrize("gap,steps", [(19.9, 0), (20.0, 1), (39.9, 1), (40.0, 2), (59.999999, 2)])
def test_per_full_20cm(tmp_path, facing, half_depth, gap, steps):
    """A line of three stands (12 x 2) straight ahead of the Hero, turned by
    `facing`: the distance penalty is ⌊d / 20⌋ of the rounded distance."""
    u = unit("u", "red", (HERO[0], HERO[1] + 1 + gap + half_depth), facing=facing)
    eng = engine(tmp_path, [u, unit("x", "blue", (10, 110))], [char("hero", "red", "hero", 10, HERO)])
    o = option(eng, "hero", ["u"])
    assert o["penalties"]["distance"] == steps
    assert o["target"] == 10 - steps and Fraction(o["p"]) == ways(10 - steps)


def test_rotation_noise_is_rounded_away(tmp_path):
    """Turned 90 degrees, a unit 20 cm away measures 19.999999999999996 (or
    20.000000000000004) in floating point; rounded it is 20: one full step."""
    fp = T.unit_footprint((HERO[0], HERO[1] + 1 + 20 + 6), 90, 3, "line")
    hero = T.character_footprint(HERO)
    assert T.distance(fp, hero) == 20.0
    assert T.full_steps(T.raw_distance(fp, hero), 20) == 1


@pytest.mark.parametrize("gap,penalty", [(19.999999, 1), (20.0, 1), (20.000002, 0)])
def test_enemy_within_20cm(tmp_path, gap, penalty):
    u = unit("u", "red", (100, 60))
    e = unit("e", "blue", (100, 60 + 2 + gap), facing=180)  # edge to edge: gap
    eng = engine(tmp_path, [u, e], [char("gen", "red", "general", 9, (100, 55))])
    assert option(eng, "gen", ["u"])["penalties"]["enemy"] == penalty


@pytest.mark.parametrize("edge,penalty", [(61.0, 0), (60.0, 1), (58.0, 1)])
def test_within_dense_terrain(tmp_path, edge, penalty):
    """The unit stands from y = 59 to 61; a wood from y = edge northwards only
    touches it (61: no penalty), holds part of it (60) or all of it (58)."""
    wood = {"type": "wood", "polygon": [[80, edge], [120, edge], [120, 90], [80, 90]], "dense": True}
    u = unit("u", "red", (100, 60))
    eng = engine(tmp_path, [u], [char("gen", "red", "general", 9, (100, 55))], [wood])
    assert option(eng, "gen", ["u"])["penalties"]["dense"] == penalty


def test_open_wood_is_no_penalty(tmp_path):
    wood = {"type": "orchard", "polygon": [[80, 50], [120, 50], [120, 90], [80, 90]], "dense": False}
    eng = engine(tmp_path, [unit("u", "red", (100, 60))], [char("gen", "red", "general", 9, (100, 45))], [wood])
    assert option(eng, "gen", ["u"])["penalties"]["dense"] == 0


def test_casualties(tmp_path):
    eng = engine(tmp_path, [unit("u", "red", (100, 60), lost=2, stands=1)],
                 [char("gen", "red", "general", 9, (100, 55))])
    o = option(eng, "gen", ["u"])
    assert o["penalties"]["casualties"] == 2 and o["target"] == 7 and o["p"] == "7/12"


# ---------------------------------------------------------------- ranges


@pytest.mark.parametrize("role,reach", [("hero", 60), ("wizard", 20)])
@pytest.mark.parametrize("extra,offered", [(0.0, True), (0.000002, False)])
def test_command_range(tmp_path, role, reach, extra, offered):
    u = unit("u", "red", (100, 11 + reach + extra + 1))
    eng = engine(tmp_path, [u], [char("c", "red", role, 8, HERO)])
    assert (option(eng, "c", ["u"]) is not None) is offered


def test_general_orders_anywhere(tmp_path):
    eng = engine(tmp_path, [unit("u", "red", (190, 110))], [char("g", "red", "general", 10, (5, 5))])
    o = option(eng, "g", ["u"])
    assert o is not None and o["penalties"]["distance"] == int(T.distance(
        T.unit_footprint((190, 110)), T.character_footprint((5, 5))) // 20)


@pytest.mark.parametrize("gap,offered", [(20.0, True), (20.5, False)])
def test_flyers_only_from_within_20cm(tmp_path, gap, offered):
    f = unit("f", "red", (100, 11 + gap + 1), type="flying")
    eng = engine(tmp_path, [f], [char("g", "red", "general", 9, HERO)])
    assert (option(eng, "g", ["f"]) is not None) is offered


# ---------------------------------------------------------------- brigades


@pytest.mark.parametrize("facing", [2, 9, 14, 30, 20])
def test_rotated_units_flush_are_brigaded(tmp_path, facing):
    """Two lines turned `facing` degrees, side by side: for 2, 9, 14 and 20
    degrees shapely's `touches` says no (their computed edges miss each
    other by 1e-15 cm); contact as distance <= 0.01 cm says yes, and the
    brigade is offered. 0.05 cm apart, it is not."""
    a = (100.0, 60.0)
    b = right(a, facing, 12.0)
    fa, fb = T.unit_footprint(a, facing), T.unit_footprint(b, facing)
    assert T.touching(fa, fb)
    if facing != 30:
        assert not shapely.touches(fa.shape, fb.shape)
    gen = char("g", "red", "general", 9, (100, 40))
    eng = engine(tmp_path, [unit("a", "red", a, facing=facing), unit("b", "red", b, facing=facing)], [gen])
    assert option(eng, "g", ["a", "b"]) is not None
    apart = right(a, facing, 12.05)
    eng = engine(tmp_path, [unit("a", "red", a, facing=facing), unit("b", "red", apart, facing=facing)], [gen])
    assert option(eng, "g", ["a", "b"]) is None


def test_brigades_of_up_to_four(tmp_path):
    units = [unit(f"u{i}", "red", (40 + 12 * i, 60)) for i in range(5)]
    eng = engine(tmp_path, units, [char("g", "red", "general", 9, (70, 40))])
    sizes = sorted(len(o["units"]) for o in options(eng))
    assert sizes.count(1) == 5 and sizes.count(2) == 4 and sizes.count(3) == 3 and sizes.count(4) == 2
    assert 5 not in sizes


def test_brigade_penalty_is_the_worst_unit(tmp_path):
    a = unit("a", "red", (100, 60), lost=1)
    b = unit("b", "red", (112, 60))
    enemy = unit("e", "blue", (112, 75), facing=180)  # 13 cm from b, 13.x from a? a is 12 cm left
    eng = engine(tmp_path, [a, b, enemy], [char("g", "red", "general", 9, (100, 40))])
    o = option(eng, "g", ["a", "b"])
    assert o["penalties"]["casualties"] == 1 and o["penalties"]["enemy"] == 1


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("mutate,where,what", [
    (lambda d: d["units"][0].update(type="elephant"), "type", "unknown unit type"),
    (lambda d: d["units"][0].update(formation="wedge"), "formation", "unit u: formation must be one of line, column, not 'wedge'"),
    (lambda d: d["units"][0].update(at=[500, 10]), "at", "does not stand wholly on the"),
    (lambda d: d["units"][0].update(colour="red"), "colour", "unknown key"),
    (lambda d: d["characters"][0].update(role="king"), "role", "character g: role must be one of general, hero, wizard, not 'king'"),
    (lambda d: d["characters"][0].update(command="nine"), "command", "character g: command must be a whole number from 0 to 12, not 'nine'"),
    (lambda d: d.update(to_move="green"), "to_move", "unknown side"),
    (lambda d: d.update(to_move=["red"]), "to_move", "the scenario: to_move must be a non-empty string"),
])
def test_bad_scenarios_exit_2_with_the_place(tmp_path, mutate, where, what):
    data = {"system": "warmaster", "board": {"grid": "table", "width": 120, "depth": 80}, "to_move": "red",
            "units": [{"id": "u", "side": "red", "type": "infantry", "at": [50, 50]}],
            "characters": [{"id": "g", "side": "red", "role": "general", "command": 9, "at": [50, 30]}]}
    mutate(data)
    text = "\n".join([
        "system: warmaster", "board: {grid: table, width: 120, depth: 80}", f"to_move: {data['to_move']}",
        "units:", *[f"  - {json.dumps(u)}" for u in data["units"]],
        "characters:", *[f"  - {json.dumps(c)}" for c in data["characters"]], ""])
    sc = write(tmp_path, text)
    code, _, err = run_cli("orders", sc)
    assert code == 2 and what in err and f"{sc}:" in err
    line = next(i for i, s in enumerate(text.splitlines(), 1) if f'"{where}"' in s or s.startswith(where))
    assert f"{sc}:{line}:" in err


@pytest.mark.parametrize("entry,what", [
    ({"orders": [{"by": "nobody", "units": ["r1"], "roll": 5}]}, "unknown piece id 'nobody'"),
    ({"orders": [{"by": "gen", "units": ["r1"], "roll": 13}]}, "order 1: roll must be a 2D6 total from 2 to 12, not 13"),
    ({"orders": [{"by": "gen", "units": ["r1"]}]}, "needs its `roll`"),
    ({"orders": [{"by": "gen", "units": ["r1", "r2"], "roll": 5, "to": [[1, 2]]}]}, "one position per unit"),
    ({"initiative": [{"unit": "r1", "action": "dance", "to": [30, 40]}]}, "initiative move 1: action must be one of charge, evade, not 'dance'"),
    ({"characters": [{"piece": "r1", "to": [30, 40]}]}, "is a unit, not a character"),
    ({"moves": []}, "unknown key 'moves'"),
    ({"orders": [{"by": "r1", "units": ["r2"], "roll": 5}]}, "r1 is a unit, not a character"),
])
def test_bad_turns_exit_2_with_the_place(tmp_path, entry, what):
    t = turn(tmp_path, **entry)
    code, _, err = run_cli("check", RIDGEWAY, t)
    assert code == 2 and what in err and f"{t}:" in err


def test_cards_make_no_sense_for_warmaster():
    code, _, err = run_cli("cards", RIDGEWAY)
    assert code == 2 and "makes no sense" in err


# a value of any shape in any place of a turn or a scenario: an answer or bad input, never a crash
_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200) | st.floats(allow_nan=True) | st.text(max_size=5)
    | st.sampled_from(["r1", "gen", "charge", "wiz", "b1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(
        ["by", "units", "roll", "to", "unit", "action", "toward", "piece", "at", "facing"]), inner, max_size=3),
    max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["initiative", "home_back", "orders", "characters"]), _VALUES)
def test_hostile_turns_never_crash(tmp_path, key, value):
    t = write(tmp_path, yaml.safe_dump({key: value}))
    code, out, err = run_cli("check", RIDGEWAY, t)
    if code == 2:  # bad input: one message, naming the file
        assert (out, err.startswith(f"{t}:")) == ("", True), err
    else:  # an answer, "legal" (exit 0) or "illegal" (exit 1), and nothing on stderr
        assert (err, out.splitlines()[0].split(":")[0]) == ("", ["legal", "illegal"][code]), (code, out, err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["id", "side", "type", "at", "facing", "formation", "stands", "lost"]), _VALUES)
def test_hostile_scenarios_never_crash(tmp_path, key, value):
    data = {"system": "warmaster", "board": {"grid": "table", "width": 120, "depth": 80}, "to_move": "red",
            "units": [{"id": "u", "side": "red", "type": "infantry", "at": [50, 50], key: value}]}
    path = write(tmp_path, yaml.safe_dump(data))
    code, out, err = run_cli("orders", path)
    if code == 2:  # bad input: one message, naming the file
        assert (out, err.startswith(f"{path}:")) == ("", True), err
    else:  # no character: no order
        assert (code, out, err) == (0, "0 orders may be attempted next (red):\n", ""), (code, out, err)


def test_the_other_side_and_no_cards():
    code, out, _ = run_cli("orders", RIDGEWAY, "--side", "blue", "--json")
    data = json.loads(out)
    assert code == 0 and data["side"] == "blue"
    assert {o["character"] for o in data["options"]} == {"bgen"}
    assert {u for o in data["options"] for u in o["units"]} == {"b1", "b2", "b3"}
    code, _, err = run_cli("orders", RIDGEWAY, "--side", "green")
    assert code == 2 and "unknown side 'green'" in err
    code, _, err = run_cli("orders", RIDGEWAY, "--card", "Order Three Units Center")
    assert code == 2 and "--card is for card-driven systems" in err
