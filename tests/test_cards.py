"""Every card of the CCA deck on hand-built boards, Akragas counts, and a
property test comparing the structural enumerator with the python-constraint
reference solver.

Every expected answer below is worked out by hand from the ordering rules
(seed 000, reference cca.md §1.2, §3, §5), never copied from engine output.

Geometry used throughout (odd-r, [col, row], row 0 = north):

* sections by x2 = 2*col + row%2: West x2<=8, Center 8<=x2<=16, East x2>=16;
  even rows: West cols 0-4, Center 4-8, East 8-12 (cols 4 and 8 dotted);
  odd rows: West cols 0-3, Center 4-7, East 8-11 (no dotted hex);
* south side (``red``): left = West, right = East;
  north side (``blue``): left = East, right = West;
* neighbours of [c, r]: even r: [c±1,r] [c-1,r-1] [c,r-1] [c-1,r+1] [c,r+1];
  odd r: [c±1,r] [c,r-1] [c+1,r-1] [c,r+1] [c+1,r+1].
  So along one row, [c,r] and [c+1,r] are adjacent and [c,r], [c+2,r] are not.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warcouncil.errors import WarcouncilError
from warcouncil.systems.cc.csp import csp_order_sets
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import natural_id

# --------------------------------------------------------------------------- helpers

CARDS_TESTED: set[str] = set()


def covers(*cards):
    """Register the card(s) a test covers (see test_every_card_is_covered)."""
    CARDS_TESTED.update(cards)

    def deco(fn):
        return fn

    return deco


def leader_ids(eng) -> set[str]:
    return {ldr.id for ldr in eng.scenario.leaders}


def as_json(eng, ids) -> dict:
    ids = list(ids)
    leaders = leader_ids(eng)
    return {"units": sorted((i for i in ids if i not in leaders), key=natural_id),
            "leaders": sorted((i for i in ids if i in leaders), key=natural_id)}


def canon(eng, sets) -> list[dict]:
    """Expected sets (iterables of ids) in the JSON contract's order: by size,
    then by ids (units by id, then leaders by id)."""
    out = [as_json(eng, s) for s in sets]
    assert len({(tuple(s["units"]), tuple(s["leaders"])) for s in out}) == len(out), "duplicate expected set"
    return sorted(out, key=lambda s: (len(s["units"]) + len(s["leaders"]),
                                      [(0, natural_id(u)) for u in s["units"]]
                                      + [(1, natural_id(ldr)) for ldr in s["leaders"]]))


def upto(pool, k) -> list[tuple]:
    """Every subset of ``pool`` with at most ``k`` members (the empty one too)."""
    return [c for n in range(min(k, len(pool)) + 1) for c in itertools.combinations(pool, n)]


def orders(eng, card, **kw) -> list[dict]:
    """The engine's order sets as JSON dicts; also checks count() agrees."""
    g = eng.ground(card, **kw)
    sets = [eng.order_set_json(g, s) for s in eng.order_sets(g)]
    assert eng.count(g) == len(sets)
    return sets


def count(eng, card, **kw) -> int:
    return eng.count(eng.ground(card, **kw))


def assert_orders(eng, card, expected_sets, **kw) -> None:
    assert orders(eng, card, **kw) == canon(eng, expected_sets)


def sum_comb(n, k) -> int:
    return sum(math.comb(n, i) for i in range(k + 1))


# --------------------------------------------------------------------------- boards

# Board A (section cards). red = south: left West, right East.
#   a1 [2,7]  odd row col 2  -> West            -> left         (leader la attached)
#   a2 [4,6]  even row col 4 -> West+Center     -> left, center (dotted)
#   a3 [6,7]  odd row col 6  -> Center          -> center
#   a4 [8,8]  even row col 8 -> Center+East     -> center, right (dotted)
#   a5 [10,7] odd row col 10 -> East            -> right
#   a6 [3,5]  odd row col 3  -> West            -> left
#   lb [11,6] even row col 11-> East            -> right (lone leader)
# Blue (enemy) pieces are never ordered by red, even when in red's sections.
A_UNITS = [
    ("a1", "red", "heavy_infantry", [2, 7]),
    ("a2", "red", "light_infantry", [4, 6]),
    ("a3", "red", "medium_infantry", [6, 7]),
    ("a4", "red", "auxilia", [8, 8]),
    ("a5", "red", "light_cavalry", [10, 7]),
    ("a6", "red", "warrior", [3, 5]),
    ("e1", "blue", "heavy_infantry", [6, 1]),
    ("e2", "blue", "auxilia", [1, 3]),
]
A_LEADERS = [("la", "red", [2, 7]), ("lb", "red", [11, 6]), ("le", "blue", [6, 1])]
A_LEFT = ["a1", "a2", "a6", "la"]
A_CENTER = ["a2", "a3", "a4"]
A_RIGHT = ["a4", "a5", "lb"]


@pytest.fixture
def board_a(build):
    return build(A_UNITS, A_LEADERS)


# Board N: the north side (blue) orders; its left is the map's East.
#   b1 [1,1]  West              -> blue right
#   b2 [10,2] East              -> blue left   (leader lb1 attached)
#   b3 [8,0]  Center+East dotted-> blue center, left
#   b4 [4,2]  West+Center dotted-> blue right, center
#   b5 [6,3]  Center            -> blue center
#   lb2 [0,0] West              -> blue right (lone leader)
N_UNITS = [
    ("b1", "blue", "heavy_infantry", [1, 1]),
    ("b2", "blue", "light_cavalry", [10, 2]),
    ("b3", "blue", "auxilia", [8, 0]),
    ("b4", "blue", "medium_infantry", [4, 2]),
    ("b5", "blue", "warrior", [6, 3]),
    ("r1", "red", "heavy_infantry", [1, 7]),
    ("r2", "red", "heavy_infantry", [10, 7]),
]
N_LEADERS = [("lb1", "blue", [10, 2]), ("lb2", "blue", [0, 0]), ("lr", "red", [1, 7])]


@pytest.fixture
def board_n(build):
    return build(N_UNITS, N_LEADERS, to_move="blue")


# --------------------------------------------------------------------------- section cards


@covers("Order Two Units Left")
def test_order_two_units_left_full_list(board_a):
    # left: a1 (with la attached), a2 (dotted W+C), a6, and la detaching (helmet).
    expected = [
        {"units": [], "leaders": []},
        {"units": ["a1"], "leaders": []},
        {"units": ["a2"], "leaders": []},
        {"units": ["a6"], "leaders": []},
        {"units": [], "leaders": ["la"]},
        {"units": ["a1", "a2"], "leaders": []},
        {"units": ["a1", "a6"], "leaders": []},
        {"units": ["a1"], "leaders": ["la"]},  # la detaches (1 order), a1 ordered with the other
        {"units": ["a2", "a6"], "leaders": []},
        {"units": ["a2"], "leaders": ["la"]},
        {"units": ["a6"], "leaders": ["la"]},
    ]
    assert orders(board_a, "Order Two Units Left") == expected
    assert len(expected) == sum_comb(4, 2) == 11


@covers(*(f"Order {n} Units {s}" for n in ("Two", "Three", "Four") for s in ("Left", "Center", "Right")))
@pytest.mark.parametrize(
    "card, pool, cap",
    [
        ("Order Two Units Left", A_LEFT, 2),
        ("Order Three Units Left", A_LEFT, 3),
        ("Order Four Units Left", A_LEFT, 4),
        ("Order Two Units Center", A_CENTER, 2),
        ("Order Three Units Center", A_CENTER, 3),
        ("Order Four Units Center", A_CENTER, 4),
        ("Order Two Units Right", A_RIGHT, 2),
        ("Order Three Units Right", A_RIGHT, 3),
        ("Order Four Units Right", A_RIGHT, 4),
    ],
)
def test_order_n_units_south(board_a, card, pool, cap):
    assert_orders(board_a, card, upto(pool, cap))


def test_order_n_units_south_counts(board_a):
    assert count(board_a, "Order Two Units Left") == 1 + 4 + 6  # C(4,0..2)
    assert count(board_a, "Order Three Units Left") == 1 + 4 + 6 + 4
    assert count(board_a, "Order Four Units Left") == 2**4
    assert count(board_a, "Order Two Units Center") == 1 + 3 + 3
    assert count(board_a, "Order Four Units Center") == 2**3  # surplus orders lost
    assert count(board_a, "Order Two Units Right") == 1 + 3 + 3


@pytest.mark.parametrize(
    "card, pool",
    [
        # north: left = map East: b2 (lb1 attached, may detach), b3 (dotted C+E), lb1
        ("Order Two Units Left", ["b2", "b3", "lb1"]),
        # right = map West: b1, b4 (dotted W+C), lb2 (lone)
        ("Order Two Units Right", ["b1", "b4", "lb2"]),
        ("Order Two Units Center", ["b3", "b4", "b5"]),
        ("Order Three Units Left", ["b2", "b3", "lb1"]),
        ("Order Four Units Right", ["b1", "b4", "lb2"]),
    ],
)
def test_section_cards_north_side_mirrored(board_n, card, pool):
    cap = {"Two": 2, "Three": 3, "Four": 4}[card.split()[1]]
    assert_orders(board_n, card, upto(pool, cap))
    # the same answer when the side is named explicitly on a red-to-move board
    assert orders(board_n, card, side="blue") == canon(board_n, upto(pool, cap))


def test_section_cards_side_param(build):
    eng = build(N_UNITS, N_LEADERS, to_move="red")
    # red (south): left = West: r1 with lr attached; right = East: r2
    assert_orders(eng, "Order Two Units Left", upto(["r1", "lr"], 2))
    assert_orders(eng, "Order Two Units Right", [(), ("r2",)])
    assert_orders(eng, "Order Two Units Left", upto(["b2", "b3", "lb1"], 2), side="blue")


@covers("Out Flanked")
def test_out_flanked(board_a):
    # up to 2 of the left pool AND up to 2 of the right pool; a3 (center only)
    # never; a2 (W+C) only in the left slot; a4 (C+E) only in the right slot.
    expected = [l + r for l in upto(A_LEFT, 2) for r in upto(A_RIGHT, 2)]
    assert_orders(board_a, "Out Flanked", expected)
    assert len(expected) == sum_comb(4, 2) * sum_comb(3, 2) == 11 * 7


def test_out_flanked_north(board_n):
    left, right = ["b2", "b3", "lb1"], ["b1", "b4", "lb2"]
    assert_orders(board_n, "Out Flanked", [l + r for l in upto(left, 2) for r in upto(right, 2)])


def test_out_flanked_surplus_orders_lost(build):
    # three pieces in the left flank, nothing on the right: the right's two
    # orders are lost, so at most 2 of the 3.
    eng = build([("p1", "red", "auxilia", [0, 7]), ("p2", "red", "auxilia", [1, 7]),
                 ("p3", "red", "auxilia", [2, 7]), ("p4", "red", "auxilia", [6, 7])])
    assert_orders(eng, "Out Flanked", upto(["p1", "p2", "p3"], 2))


@covers("Coordinated Attack")
def test_coordinated_attack_dotted_fill_either_slot(build):
    # three pieces on dotted W+C hexes (even rows, col 4): each can fill the
    # left or the center slot, but a piece takes one order: any 2, never 3.
    eng = build([("c1", "red", "light_infantry", [4, 6]), ("c2", "red", "auxilia", [4, 4]),
                 ("c3", "red", "warrior", [4, 2])])
    expected = [
        (), ("c1",), ("c2",), ("c3",), ("c1", "c2"), ("c1", "c3"), ("c2", "c3"),
    ]
    assert_orders(eng, "Coordinated Attack", expected)


def test_coordinated_attack_board_a(board_a):
    # slots L, C, R (1 each). Left-only X = {a1, a6, la}; a2: L or C; a3: C;
    # a4: C or R; right-only Y = {a5, lb}. Count by (x from X, y from Y), T ⊆ {a2,a3,a4}:
    #   x=0,y=0: all 8 T match (a2->L, a3->C, a4->R)               -> 8
    #   x=1,y=0: L taken; T in {∅,a2,a3,a4,a2a4,a3a4}               -> 6 * 3 = 18
    #   x=0,y=1: R taken; T in {∅,a2,a3,a4,a2a3,a2a4}               -> 6 * 2 = 12
    #   x=1,y=1: only C left: |T| <= 1                              -> 4 * 3 * 2 = 24
    g = board_a.ground("Coordinated Attack")
    sets = orders(board_a, "Coordinated Attack")
    assert len(sets) == 8 + 18 + 12 + 24 == 62
    assert as_json(board_a, ["a2", "a3", "a4"]) in sets
    assert as_json(board_a, ["a1", "a3", "a4"]) in sets
    assert as_json(board_a, ["a1", "a3", "a5"]) in sets
    assert as_json(board_a, ["a2", "a3"]) in sets
    assert as_json(board_a, ["a6", "a4", "lb"]) in sets  # a4 takes the center slot
    assert as_json(board_a, ["a1", "a2", "a3"]) not in sets  # a2 and a3 both need C
    assert as_json(board_a, ["a3", "a4", "a5"]) not in sets  # a3 and a4 both need C
    assert as_json(board_a, ["a1", "la"]) not in sets  # two left-only pieces
    assert not board_a.check_orders(g, ["a1", "a2", "a3"]).legal


# --------------------------------------------------------------------------- troop cards

# Board T, red Command 2.
T_UNITS = [
    ("t1", "red", "light_infantry", [1, 7]),
    ("t2", "red", "auxilia", [2, 7]),
    ("t3", "red", "light_cavalry", [10, 7]),
    ("t4", "red", "light_war_machine", [5, 8]),
    ("t5", "red", "light_chariot", [6, 8]),
    ("m1", "red", "medium_infantry", [3, 7]),
    ("m2", "red", "warrior", [4, 7]),
    ("m3", "red", "medium_cavalry", [8, 7]),
    ("m4", "red", "camel", [9, 7]),
    ("h1", "red", "heavy_infantry", [5, 7]),
    ("h2", "red", "heavy_war_machine", [6, 7]),
    ("h3", "red", "heavy_cavalry", [7, 7]),
    ("h4", "red", "elephant", [11, 7]),
    ("h5", "red", "heavy_chariot", [0, 7]),
    ("x1", "blue", "light_infantry", [5, 1]),
    ("x2", "blue", "medium_infantry", [6, 1]),
]
T_LEADERS = [("lt", "red", [1, 7]), ("lm", "red", [6, 5])]
LIGHT = ["t1", "t2", "t3", "t4", "t5"]
MEDIUM = ["m1", "m2", "m3", "m4"]
HEAVY = ["h1", "h2", "h3", "h4", "h5"]
MOUNTED = ["t3", "t5", "m3", "m4", "h3", "h4", "h5"]


@pytest.fixture
def board_t(build):
    return build(T_UNITS, T_LEADERS, red_command=2)


@covers("Order Light Troops")
def test_order_light_troops(board_t):
    # light: light infantry, auxilia, light cavalry, light war machine, light
    # chariot; up to Command (2); units only: no leader (lt, lm) on his own.
    assert_orders(board_t, "Order Light Troops", upto(LIGHT, 2))
    assert count(board_t, "Order Light Troops") == sum_comb(5, 2) == 16
    # Command override: 3 orders
    assert_orders(board_t, "Order Light Troops", upto(LIGHT, 3), command=3)
    assert count(board_t, "Order Light Troops", command=3) == sum_comb(5, 3) == 26


@covers("Order Medium Troops")
def test_order_medium_troops(board_t):
    # medium: medium infantry, warrior, medium cavalry, camel
    assert_orders(board_t, "Order Medium Troops", upto(MEDIUM, 2))
    assert_orders(board_t, "Order Medium Troops", upto(MEDIUM, 4), command=6)


@covers("Order Heavy Troops")
def test_order_heavy_troops(board_t):
    # heavy: heavy infantry, heavy war machine, heavy cavalry, elephant, heavy chariot
    assert_orders(board_t, "Order Heavy Troops", upto(HEAVY, 2))
    assert count(board_t, "Order Heavy Troops", command=4) == sum_comb(5, 4) == 31


@covers("Order Mounted Troops")
def test_order_mounted_troops(board_t):
    # mounted units and/or leaders (helmet: lt may detach from t1), up to 2
    pool = MOUNTED + ["lt", "lm"]
    assert_orders(board_t, "Order Mounted Troops", upto(pool, 2))
    assert count(board_t, "Order Mounted Troops") == sum_comb(9, 2) == 46
    sets = orders(board_t, "Order Mounted Troops")
    assert as_json(board_t, ["t1"]) not in sets  # foot, even with its leader
    assert as_json(board_t, ["lt"]) in sets


@covers("Mounted Charge")
def test_mounted_charge(board_t):
    # up to Command mounted units; no leaders
    assert_orders(board_t, "Mounted Charge", upto(MOUNTED, 2))
    assert count(board_t, "Mounted Charge") == sum_comb(7, 2) == 29


@covers("Move-Fire-Move")
def test_move_fire_move(board_t):
    assert_orders(board_t, "Move-Fire-Move", upto(LIGHT, 2))
    assert_orders(board_t, "Move-Fire-Move", upto(LIGHT, 1), command=1)


@covers("Darken the Sky")
def test_darken_the_sky_all_ranged(board_t):
    # ranged: light infantry, auxilia, light cavalry, light and heavy war
    # machines; not the light chariot; exactly one set, all of them.
    assert_orders(board_t, "Darken the Sky", [("t1", "t2", "t3", "t4", "h2")])


# Board F: red has heavy foot f1 (leader lf attached), heavy cavalry f2, lone leader lg.
# No light, medium, or ranged units; foot (f1) and mounted (f2) both present.
F_UNITS = [
    ("f1", "red", "heavy_infantry", [1, 7]),
    ("f2", "red", "heavy_cavalry", [2, 7]),
    ("e1", "blue", "light_infantry", [6, 1]),
    ("e2", "blue", "medium_cavalry", [7, 1]),
]
F_LEADERS = [("lf", "red", [1, 7]), ("lg", "red", [6, 5])]


@pytest.fixture
def board_f(build):
    return build(F_UNITS, F_LEADERS, red_command=2)


@pytest.mark.parametrize(
    "card, expected",
    [
        # no unit of the kind: the card as written gives only the empty set,
        # the fallback any ONE unit (not a leader). Enemy units don't count.
        ("Order Light Troops", [(), ("f1",), ("f2",)]),
        ("Order Medium Troops", [(), ("f1",), ("f2",)]),
        ("Move-Fire-Move", [(), ("f1",), ("f2",)]),
        ("Darken the Sky", [(), ("f1",), ("f2",)]),
        # units of the kind exist: no fallback
        ("Order Heavy Troops", [(), ("f1",), ("f2",), ("f1", "f2")]),
        ("Mounted Charge", [(), ("f2",)]),
        ("Double Time", [(), ("f1",)]),
        ("Line Command", [(), ("f1",)]),
        # mounted units and/or leaders: f2, lf (detaching), lg; f1 never
        ("Order Mounted Troops", upto(["f2", "lf", "lg"], 2)),
    ],
)
def test_fallback_board_f(board_f, card, expected):
    assert_orders(board_f, card, expected)


# Board H: h1 medium foot (leader lh attached), h2 light foot, lone leader lh2. No mounted, no heavy.
H_UNITS = [("h1", "red", "medium_infantry", [3, 7]), ("h2", "red", "light_infantry", [7, 7])]
H_LEADERS = [("lh", "red", [3, 7]), ("lh2", "red", [9, 5])]


@pytest.mark.parametrize(
    "card, expected",
    [
        ("Order Heavy Troops", [(), ("h1",), ("h2",)]),  # fallback
        ("Order Medium Troops", [(), ("h1",)]),  # one medium: no fallback
        ("Order Light Troops", [(), ("h2",)]),
        ("Mounted Charge", [(), ("h1",), ("h2",)]),  # fallback
        # leaders up to Command (2) by the card itself, plus the fallback's one unit
        ("Order Mounted Troops", [(), ("lh",), ("lh2",), ("lh", "lh2"), ("h1",), ("h2",)]),
        ("Darken the Sky", [("h2",)]),  # h2 is ranged: exactly {h2}, no fallback
    ],
)
def test_fallback_board_h(build, card, expected):
    eng = build(H_UNITS, H_LEADERS, red_command=2)
    assert_orders(eng, card, expected)


# --------------------------------------------------------------------------- linked groups

# Board D: foot d1..d5 in a row on row 7 (cols 1..5, each adjacent to the
# next only), [6,7] holds a mounted unit (or a lone leader), d6 at [7,7] is
# adjacent to [6,7] only. Mounted units and leaders are not links.
def board_d(build, linker):
    units = [
        ("d1", "red", "heavy_infantry", [1, 7]),
        ("d2", "red", "auxilia", [2, 7]),
        ("d3", "red", "light_war_machine", [3, 7]),
        ("d4", "red", "warrior", [4, 7]),
        ("d5", "red", "medium_infantry", [5, 7]),
        ("d6", "red", "light_infantry", [7, 7]),
        ("e1", "blue", "light_infantry", [6, 6]),  # enemy adjacent to d5 and [6,7]: not a link either
    ]
    leaders = [("ld", "red", [1, 7])]
    if linker == "mounted":
        units.append(("c1", "red", "medium_cavalry", [6, 7]))
    else:
        leaders.append(("lz", "red", [6, 7]))
    return build(units, leaders)


PATH = ["d1", "d2", "d3", "d4", "d5"]


def intervals(path, maxlen):
    return [tuple(path[i:j]) for i in range(len(path)) for j in range(i + 1, len(path) + 1) if j - i <= maxlen]


@covers("Double Time")
@pytest.mark.parametrize("linker", ["mounted", "leader"])
def test_double_time(build, linker):
    eng = board_d(build, linker)
    # connected sets of a 5-path of size <= 4: 5+4+3+2 = 14; plus {d6}, plus {}
    expected = [()] + intervals(PATH, 4) + [("d6",)]
    assert len(expected) == 16
    assert_orders(eng, "Double Time", expected)


@covers("Line Command")
@pytest.mark.parametrize("linker", ["mounted", "leader"])
def test_line_command(build, linker):
    eng = board_d(build, linker)
    # every interval of the 5-path (15), {d6}, {}
    expected = [()] + intervals(PATH, 5) + [("d6",)]
    assert len(expected) == 17
    assert_orders(eng, "Line Command", expected)


@pytest.mark.parametrize("card", ["Double Time", "Line Command"])
def test_linked_cards_fallback_without_foot(build, card):
    eng = build([("g1", "red", "medium_cavalry", [1, 7]), ("g2", "red", "elephant", [5, 7])],
                [("lg", "red", [3, 3])])
    assert_orders(eng, card, [(), ("g1",), ("g2",)])


# --------------------------------------------------------------------------- leadership cards

# Board I (red): a path along row 7:
#   i1 [1,7] (leader la attached; West = left) - i2 [2,7] - i3 [3,7]
#   - lb [4,7] (lone leader; odd row col 4 = Center only) - i5 [5,7]
#   i6 [10,7] (East = right), isolated.
# Blue: leader lbx lone at [10,1] (East = blue's left) next to blue unit bx [11,1].
I_UNITS = [
    ("i1", "red", "heavy_infantry", [1, 7]),
    ("i2", "red", "light_infantry", [2, 7]),
    ("i3", "red", "medium_infantry", [3, 7]),
    ("i5", "red", "auxilia", [5, 7]),
    ("i6", "red", "light_cavalry", [10, 7]),
    ("bx", "blue", "warrior", [11, 1]),
]
I_LEADERS = [("la", "red", [1, 7]), ("lb", "red", [4, 7]), ("lbx", "blue", [10, 1])]
I_SINGLES = [("i1",), ("i2",), ("i3",), ("i5",), ("i6",)]  # "one unit of your choice"
INSPIRED_LEFT = [()] + I_SINGLES + [
    # chains from la's hex (i1; la himself may not detach), lone leader lb as a link
    ("i1", "i2"), ("i1", "i2", "i3"), ("i1", "i2", "i3", "lb"), ("i1", "i2", "i3", "lb", "i5"),
]
INSPIRED_CENTER = [()] + I_SINGLES + [
    # every interval of the path containing lb (position 4): left end 1..4, right end 4..5
    ("lb",), ("lb", "i5"), ("i3", "lb"), ("i3", "lb", "i5"), ("i2", "i3", "lb"),
    ("i2", "i3", "lb", "i5"), ("i1", "i2", "i3", "lb"), ("i1", "i2", "i3", "lb", "i5"),
]
INSPIRED_RIGHT = [()] + I_SINGLES  # no red leader in the East
LEADERSHIP_ANY = [()] + I_SINGLES + [
    # leader's hex + up to 3 (size <= 4); chains from i1's hex or from lb
    ("lb",), ("i1", "i2"), ("i1", "i2", "i3"), ("i1", "i2", "i3", "lb"),
    ("i3", "lb"), ("lb", "i5"), ("i2", "i3", "lb"), ("i3", "lb", "i5"), ("i2", "i3", "lb", "i5"),
]


@pytest.fixture
def board_i(build):
    return build(I_UNITS, I_LEADERS)


@covers("Inspired Left Leadership")
def test_inspired_left(board_i):
    assert len(INSPIRED_LEFT) == 10
    assert_orders(board_i, "Inspired Left Leadership", INSPIRED_LEFT)
    g = board_i.ground("Inspired Left Leadership")
    assert not board_i.check_orders(g, ["la"]).legal  # no detaching on Leadership
    assert not board_i.check_orders(g, ["i1", "i3"]).legal  # not linked


@covers("Inspired Center Leadership")
def test_inspired_center(board_i):
    assert len(INSPIRED_CENTER) == 14
    assert_orders(board_i, "Inspired Center Leadership", INSPIRED_CENTER)


@covers("Inspired Right Leadership")
def test_inspired_right(board_i):
    assert_orders(board_i, "Inspired Right Leadership", INSPIRED_RIGHT)


@covers("Leadership Any Section")
def test_leadership_any_section(board_i):
    assert len(LEADERSHIP_ANY) == 15
    assert_orders(board_i, "Leadership Any Section", LEADERSHIP_ANY)


def test_leaders_on_dotted_lines(build):
    # red lone leader ld at [8,6] (even row col 8: Center + East = red center
    # and right) next to red w1 at [9,6] (East). Blue lone leader lx at [4,2]
    # (West + Center = blue right and center) next to blue x1 at [3,2] (West).
    eng = build([("w1", "red", "auxilia", [9, 6]), ("x1", "blue", "auxilia", [3, 2])],
                [("ld", "red", [8, 6]), ("lx", "blue", [4, 2])])
    led = [(), ("w1",), ("ld",), ("w1", "ld")]
    assert_orders(eng, "Inspired Right Leadership", led)
    assert_orders(eng, "Inspired Center Leadership", led)
    assert_orders(eng, "Inspired Left Leadership", [(), ("w1",)])
    assert_orders(eng, "Order Two Units Center", [(), ("ld",)])
    assert_orders(eng, "Order Two Units Right", led)
    assert_orders(eng, "Order Two Units Left", [()])
    led = [(), ("x1",), ("lx",), ("x1", "lx")]
    assert_orders(eng, "Inspired Right Leadership", led, side="blue")
    assert_orders(eng, "Inspired Center Leadership", led, side="blue")
    assert_orders(eng, "Inspired Left Leadership", [(), ("x1",)], side="blue")
    assert_orders(eng, "Order Two Units Center", [(), ("lx",)], side="blue")
    assert_orders(eng, "Out Flanked", led, side="blue")


def test_inspired_north_side(board_i):
    # blue: left = East, where lbx stands (lone, next to bx)
    assert_orders(board_i, "Inspired Left Leadership", [(), ("bx",), ("lbx",), ("bx", "lbx")], side="blue")
    assert_orders(board_i, "Inspired Right Leadership", [(), ("bx",)], side="blue")


# --------------------------------------------------------------------------- tactic cards

# Board K (Clash of Shields).
#   k1 [5,5] (leader lk attached) next to blue e1 [5,4]      -> engaged
#   k4 [6,5] next to blue e2 [7,4]                            -> engaged
#   k2 [2,7] far                                              -> not
#   k3 [9,5] next to the blue leader el [9,4] only            -> not (a leader is not a unit)
#   red lone leader lq [4,4] next to e1 (leaders are never ordered by it)
#   blue e4 [3,3] next to red leader lq only; blue e3 [3,1] far.
K_UNITS = [
    ("k1", "red", "heavy_infantry", [5, 5]),
    ("k2", "red", "light_infantry", [2, 7]),
    ("k3", "red", "auxilia", [9, 5]),
    ("k4", "red", "medium_infantry", [6, 5]),
    ("e1", "blue", "heavy_infantry", [5, 4]),
    ("e2", "blue", "warrior", [7, 4]),
    ("e3", "blue", "light_cavalry", [3, 1]),
    ("e4", "blue", "auxilia", [3, 3]),
]
K_LEADERS = [("lk", "red", [5, 5]), ("lq", "red", [4, 4]), ("el", "blue", [9, 4])]


@covers("Clash of Shields")
def test_clash_of_shields(build):
    eng = build(K_UNITS, K_LEADERS)
    assert_orders(eng, "Clash of Shields", [("k1", "k4")])
    # north side: e1 touches k1, e2 touches k4; e4 touches only a leader
    assert_orders(eng, "Clash of Shields", [("e1", "e2")], side="blue")
    g = eng.ground("Clash of Shields")
    assert not eng.check_orders(g, ["k1"]).legal  # all means all


def test_clash_of_shields_no_contact(board_a):
    assert_orders(board_a, "Clash of Shields", [()])


@covers("First Strike")
def test_first_strike(board_a, board_n):
    assert_orders(board_a, "First Strike", [()])
    assert_orders(board_n, "First Strike", [()])
    g = board_a.ground("First Strike")
    assert not board_a.check_orders(g, ["a1"]).legal


# Board S (I Am Spartacus), red Command 3.
S_UNITS = [
    ("s1", "red", "light_infantry", [1, 7]),
    ("s2", "red", "light_cavalry", [2, 7]),
    ("s3", "red", "warrior", [3, 7]),
    ("s4", "red", "elephant", [5, 7]),
    ("y1", "blue", "heavy_infantry", [5, 1]),
]
S_LEADERS = [("ls", "red", [3, 7]), ("lt", "red", [8, 5])]
S_ALL = ["s1", "s2", "s3", "s4", "ls", "lt"]


@covers("I Am Spartacus")
def test_i_am_spartacus(build):
    eng = build(S_UNITS, S_LEADERS)
    # light + helmet (+ flag): one light unit, plus one piece of any kind (the
    # helmet may detach ls): size 2 needs at least one of s1/s2.
    two = [p for p in itertools.combinations(S_ALL, 2) if {"s1", "s2"} & set(p)]
    expected = [()] + [(p,) for p in S_ALL] + two
    assert len(expected) == 1 + 6 + (math.comb(6, 2) - math.comb(4, 2)) == 16
    assert_orders(eng, "I Am Spartacus", expected, roll="light,helmet,flag")
    # medium + heavy + swords: s3 (warrior) and s4 (elephant), no leaders
    assert_orders(eng, "I Am Spartacus", [(), ("s3",), ("s4",), ("s3", "s4")], roll="medium,heavy,swords")
    # three helmets: any 3 pieces
    assert_orders(eng, "I Am Spartacus", upto(S_ALL, 3), roll="helmet,helmet,helmet")
    # counts form: light=2, heavy=1
    assert_orders(eng, "I Am Spartacus", upto(["s1", "s2", "s4"], 3), roll="light=2,heavy=1")
    assert_orders(eng, "I Am Spartacus", [()], roll="flag,swords,flag")
    # Command override: one die
    assert_orders(eng, "I Am Spartacus", upto(S_ALL, 1), roll="helmet", command=1)


def test_i_am_spartacus_needs_a_roll_of_command_dice(build):
    eng = build(S_UNITS, S_LEADERS)
    with pytest.raises(WarcouncilError):
        eng.ground("I Am Spartacus")
    with pytest.raises(WarcouncilError):
        eng.ground("I Am Spartacus", roll="light,helmet")  # 2 dice, Command is 3


# Board R (Rally), red Command 3. Leaders: lr lone at [5,5]; lq attached to r8.
# Neighbours of [5,5]: [4,5] [6,5] [5,4] [6,4] [5,6] [6,6].
R_UNITS = [
    ("r1", "red", "light_infantry", [5, 6], 2),  # light, under strength, next to lr   -> yes
    ("r2", "red", "heavy_infantry", [4, 5], 3),  # heavy, next to lr                   -> yes
    ("r3", "red", "medium_infantry", [6, 5]),  # full strength                         -> no
    ("r4", "red", "elephant", [5, 4], 1),  # elephant                                   -> no
    ("r5", "red", "light_chariot", [6, 4], 1),  # chariot                               -> no
    ("r6", "red", "medium_cavalry", [9, 1], 1),  # not near a friendly leader           -> no
    ("r7", "red", "medium_cavalry", [6, 6], 2),  # medium, next to lr                   -> yes
    ("r8", "red", "auxilia", [1, 7], 3),  # light, in lq's hex                           -> yes
    ("r9", "red", "heavy_infantry", [10, 5], 1),  # next to the ENEMY leader only       -> no
    ("z1", "blue", "light_infantry", [5, 1]),
]
R_LEADERS = [("lr", "red", [5, 5]), ("lq", "red", [1, 7]), ("le", "blue", [10, 4])]


@covers("Rally")
def test_rally(build):
    eng = build(R_UNITS, R_LEADERS)
    # rallyable: r1 (light), r8 (light), r2 (heavy), r7 (medium)
    assert_orders(eng, "Rally", upto(["r1", "r2", "r8"], 3), roll="light,light,heavy")
    # medium slot: r7 only; helmet slot: any rallyable; {r1,r2} would need two helmets
    assert_orders(eng, "Rally", [(), ("r1",), ("r2",), ("r7",), ("r8",), ("r1", "r7"), ("r2", "r7"), ("r7", "r8")],
                  roll="helmet,medium,flag")
    assert_orders(eng, "Rally", [(), ("r1",), ("r8",)], roll="light,flag,flag")
    # nothing useful rolled, but there are leaders: no fallback
    assert_orders(eng, "Rally", [()], roll="flag,flag,swords")
    assert_orders(eng, "Rally", upto(["r1", "r2", "r7", "r8"], 3), roll="helmet,helmet,helmet")


def test_rally_without_leaders_falls_back(build):
    eng = build([("n1", "red", "heavy_infantry", [1, 7], 1), ("n2", "red", "light_infantry", [5, 7], 1)],
                [("lx", "blue", [1, 6])])  # an enemy leader does not count
    assert_orders(eng, "Rally", [(), ("n1",), ("n2",)], roll="light,heavy,helmet")


@covers("Counter Attack")
def test_counter_attack_mirrors(board_a):
    # the counter-attacker's Right is the copied card's Left
    assert_orders(board_a, "Counter Attack", upto(A_RIGHT, 2), copies="Order Two Units Left")
    assert_orders(board_a, "Counter Attack", upto(A_LEFT, 3), copies="Order Three Units Right")
    assert_orders(board_a, "Counter Attack", upto(A_CENTER, 4), copies="Order Four Units Center")
    assert count(board_a, "Counter Attack", copies="Out Flanked") == 11 * 7
    assert count(board_a, "Counter Attack", copies="Coordinated Attack") == 62
    assert_orders(board_a, "Counter Attack", [()], copies="Clash of Shields")


def test_counter_attack_north(board_n):
    # blue copies Order Two Units Left: blue's Right = map West
    assert_orders(board_n, "Counter Attack", upto(["b1", "b4", "lb2"], 2), copies="Order Two Units Left")


def test_counter_attack_leadership_and_troops(board_i, board_t, build):
    assert_orders(board_i, "Counter Attack", INSPIRED_RIGHT, copies="Inspired Left Leadership")
    assert_orders(board_i, "Counter Attack", INSPIRED_LEFT, copies="Inspired Right Leadership")
    assert_orders(board_i, "Counter Attack", INSPIRED_CENTER, copies="Inspired Center Leadership")
    assert_orders(board_t, "Counter Attack", upto(LIGHT, 2), copies="Order Light Troops")
    eng = build(S_UNITS, S_LEADERS)
    assert_orders(eng, "Counter Attack", [(), ("s3",), ("s4",), ("s3", "s4")], copies="I Am Spartacus",
                  roll="medium,heavy,swords")


def test_counter_attack_cannot_copy_first_strike(board_a):
    with pytest.raises(WarcouncilError):
        board_a.ground("Counter Attack", copies="First Strike")
    with pytest.raises(WarcouncilError):
        board_a.ground("Counter Attack")  # nothing to copy


# --------------------------------------------------------------------------- Akragas

# Syracusan (south, Command 6; left = West):
#   left:   S1 [1,7], S2 [2,7], S3 [3,7], S10 [3,6]                        -> 4 pieces
#   center: S4 [5,7], S5 [6,7] (+daphnaeus attached), S6 [7,7], S11 [6,6]  -> 4 units + 1 leader = 5
#   right:  S7 [8,7], S8 [9,7], S9 [10,7] (+dionysius attached), S12 [10,6] -> 5
#   heavy: S3..S6 (4); medium: S9 (1); mounted: S1 light cav, S9 medium cav (2)
# Carthaginian (north, Command 5; left = East):
#   left:   C7 [8,1], C8 [10,1], C11 [8,2] (dotted C+E), C12 [10,2] (+hannibal_mago) -> 5
#   center: C4 [4,1] (+himilco), C5 [6,1], C6 [7,1], C10 [4,2] (dotted), C11 [8,2] (dotted) -> 6
#   right:  C1 [1,1], C2 [2,1], C3 [3,1], C9 [2,2], C10 [4,2] (dotted W+C)     -> 5
#   heavy: C3, C9, C12 (3); medium: C1, C4 (2); mounted: C8, C9, C12 (3)
# No unit of either side is adjacent to an enemy (rows 1-2 vs rows 6-7).
AKRAGAS = {
    "syracusan": {
        "Order Two Units Left": sum_comb(4, 2),  # 11
        "Order Three Units Left": sum_comb(4, 3),  # 15
        "Order Four Units Left": sum_comb(4, 4),  # 16
        "Order Two Units Center": sum_comb(5, 2),  # 16
        "Order Three Units Center": sum_comb(5, 3),  # 26
        "Order Four Units Center": sum_comb(5, 4),  # 31
        "Order Two Units Right": sum_comb(5, 2),  # 16
        "Order Three Units Right": sum_comb(5, 3),  # 26
        "Order Four Units Right": sum_comb(5, 4),  # 31
        "Out Flanked": sum_comb(4, 2) * sum_comb(5, 2),  # 11 * 16
        "Order Heavy Troops": sum_comb(4, 6),  # all 2**4 subsets, Command 6
        "Order Medium Troops": sum_comb(1, 6),  # 2
        "Mounted Charge": sum_comb(2, 6),  # 4
        "Clash of Shields": 1,  # the empty set
        "First Strike": 1,
    },
    "carthaginian": {
        "Order Two Units Left": sum_comb(5, 2),  # 16
        "Order Three Units Left": sum_comb(5, 3),  # 26
        "Order Four Units Left": sum_comb(5, 4),  # 31
        "Order Two Units Center": sum_comb(6, 2),  # 22
        "Order Three Units Center": sum_comb(6, 3),  # 42
        "Order Four Units Center": sum_comb(6, 4),  # 57
        "Order Two Units Right": sum_comb(5, 2),  # 16
        "Order Three Units Right": sum_comb(5, 3),  # 26
        "Order Four Units Right": sum_comb(5, 4),  # 31
        "Out Flanked": sum_comb(5, 2) * sum_comb(5, 2),  # 16 * 16 (C11 only in the left slot, C10 only in the right)
        "Order Heavy Troops": sum_comb(3, 5),  # 8, Command 5
        "Order Medium Troops": sum_comb(2, 5),  # 4
        "Mounted Charge": sum_comb(3, 5),  # 8
        "Clash of Shields": 1,
        "First Strike": 1,
    },
}


@pytest.mark.parametrize("side, card", [(s, c) for s in AKRAGAS for c in AKRAGAS[s]])
def test_akragas_counts(akragas, side, card):
    g = akragas.ground(card, side=side)
    assert akragas.count(g) == AKRAGAS[side][card]
    assert sum(1 for _ in akragas.order_sets(g)) == AKRAGAS[side][card]


def test_a_card_grounded_again_gives_the_same_sets(build):
    """An alternative that reads only the board is grounded once per side,
    and its enumerator's pruned pieces and generator are kept with it
    (``AltPlan``): every card grounded again on the same engine, after the
    others, gives exactly the sets of its first grounding, and so does a
    rolled card with another roll in between."""
    eng = Engine.load("akragas")
    first = {}
    for rnd in range(2):
        for side in AKRAGAS:
            for card in AKRAGAS[side]:
                g = eng.ground(card, side=side)
                sets = [eng.order_set_json(g, s) for s in eng.order_sets(g)]
                assert len(sets) == AKRAGAS[side][card]
                if rnd:
                    assert sets == first[side, card], (side, card)
                first[side, card] = sets
    assert any(k[0] == "alt-plan" for k in eng.setting("syracusan").memo if isinstance(k, tuple))
    spartacus = build(S_UNITS, S_LEADERS)
    for roll, expected in [("medium,heavy,swords", [(), ("s3",), ("s4",), ("s3", "s4")]),
                           ("helmet,helmet,helmet", upto(S_ALL, 3)),
                           ("medium,heavy,swords", [(), ("s3",), ("s4",), ("s3", "s4")])]:
        assert_orders(spartacus, "I Am Spartacus", expected, roll=roll)

def test_akragas_some_members(akragas):
    g = akragas.ground("Order Two Units Left", side="carthaginian")
    sets = [akragas.order_set_json(g, s) for s in akragas.order_sets(g)]
    assert {"units": ["c7", "c11"], "leaders": []} in sets
    assert {"units": ["c12"], "leaders": ["hannibal_mago"]} in sets
    assert {"units": [], "leaders": ["himilco"]} not in sets  # himilco is in the center
    g = akragas.ground("Clash of Shields")
    assert [akragas.order_set_json(g, s) for s in akragas.order_sets(g)] == [{"units": [], "leaders": []}]


# --------------------------------------------------------------------------- every card


def test_every_card_is_covered(akragas):
    assert set(akragas.pack.cards) == CARDS_TESTED
    assert len(akragas.pack.cards) == 29


# --------------------------------------------------------------------------- property

UNIT_TYPES = [
    "light_infantry", "light_bow_infantry", "light_sling_infantry", "auxilia", "light_war_machine",
    "medium_infantry", "warrior", "heavy_infantry", "heavy_war_machine", "light_cavalry",
    "light_bow_cavalry", "light_chariot", "medium_cavalry", "camel", "heavy_cavalry", "elephant",
    "heavy_chariot",
]
# a window of the board around both dotted lines, so that pieces meet
WINDOW = [(c, r) for r in range(3, 9) for c in range(1, 11) if c <= (12 if r % 2 == 0 else 11)]
DETERMINISTIC = [
    "Order Two Units Left", "Order Two Units Center", "Order Two Units Right",
    "Order Three Units Left", "Order Three Units Center", "Order Three Units Right",
    "Order Four Units Left", "Order Four Units Center", "Order Four Units Right",
    "Out Flanked", "Coordinated Attack", "Order Light Troops", "Order Medium Troops",
    "Order Heavy Troops", "Order Mounted Troops", "Inspired Left Leadership",
    "Inspired Center Leadership", "Inspired Right Leadership", "Leadership Any Section",
    "Clash of Shields", "Darken the Sky", "Double Time", "First Strike", "Line Command",
    "Mounted Charge", "Move-Fire-Move",
]


@st.composite
def random_boards(draw):
    n_own = draw(st.integers(0, 6))
    n_enemy = draw(st.integers(0, 4))
    cells = draw(st.lists(st.sampled_from(WINDOW), min_size=n_own + n_enemy,
                          max_size=n_own + n_enemy, unique=True))
    units = []
    for i, cell in enumerate(cells):
        side = "red" if i < n_own else "blue"
        units.append((f"{side[0]}{i}", side, draw(st.sampled_from(UNIT_TYPES)), list(cell)))
    own_cells = cells[:n_own]
    enemy_cells = set(cells[n_own:])
    leaders = []
    used = set()
    for j in range(draw(st.integers(0, 8 - n_own if n_own < 6 else 2))):
        if own_cells and draw(st.booleans()):
            cell = draw(st.sampled_from(own_cells))  # attached
        else:
            cell = draw(st.sampled_from(WINDOW))
        if cell in used or cell in enemy_cells:
            continue
        used.add(cell)
        leaders.append((f"l{j}", "red", list(cell)))
    if draw(st.booleans()):
        free = [c for c in WINDOW if c not in used and tuple(c) not in set(map(tuple, cells))]
        if free:
            leaders.append(("m0", "blue", list(draw(st.sampled_from(free)))))
    return units, leaders


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=random_boards(), command=st.integers(1, 6), card=st.sampled_from(DETERMINISTIC),
       north=st.booleans())
def test_enumerator_matches_csp(session_files, board, command, card, north):
    units, leaders = board
    if north:  # the same board, played by the north side
        swap = {"red": "blue", "blue": "red"}
        units = [(u[0], swap[u[1]], u[2], u[3]) for u in units]
        leaders = [(l[0], swap[l[1]], l[2]) for l in leaders]
    eng = session_files.build(units, leaders, red_command=command, blue_command=command,
                              to_move="blue" if north else "red")
    g = eng.ground(card)
    fast = [tuple(p.id for p in s) for s in eng.order_sets(g)]
    ref = [tuple(p.id for p in s) for s in csp_order_sets(g, eng.plan)]
    assert fast == ref
    assert eng.count(g) == len(fast)


# --------------------------------------------------------------------------- --engine csp --limit (issue 26)


def _counting_solutions(monkeypatch) -> list:
    """Count the solutions python-constraint is asked for."""
    import constraint

    drawn = [0]
    orig = constraint.Problem.getSolutionIter

    def it(self):
        for sol in orig(self):
            drawn[0] += 1
            yield sol
    monkeypatch.setattr(constraint.Problem, "getSolutionIter", it)
    return drawn


def test_csp_limit_bounds_the_search(monkeypatch):
    """`--engine csp --limit N` asks python-constraint for N + 1 sets, not
    every one, and keeps the --limit contract (count null, count_at_least,
    limited)."""
    import json

    from conftest import run_cli

    args = ("orders", "akragas", "--card", "Order Three Units Center", "--engine", "csp", "--json")
    every = json.loads(run_cli(*args)[1])["order_sets"]
    assert len(every) == 26
    drawn = _counting_solutions(monkeypatch)
    code, out, err = run_cli(*args, "--limit", "3")
    doc = json.loads(out)
    assert (code, err) == (0, "")
    assert drawn[0] == 4  # one alternative: each solution a new set
    assert {k: doc[k] for k in ("count", "limited", "count_at_least")} == \
        {"count": None, "limited": True, "count_at_least": 4}
    assert len(doc["order_sets"]) == 3 and all(s in every for s in doc["order_sets"])
    assert doc["order_sets"] == sorted(doc["order_sets"], key=every.index)  # in the contract's order


def test_csp_limit_bounds_every_roll(monkeypatch):
    """I Am Spartacus with no --roll lists every roll: each roll's search
    stops at its fourth set too (825 solutions for 210 rolls, where the
    whole search is millions)."""
    import json

    from conftest import run_cli

    drawn = _counting_solutions(monkeypatch)
    code, out, _ = run_cli("orders", "akragas", "--card", "I Am Spartacus", "--engine", "csp", "--limit", "3",
                           "--json")
    rolls = json.loads(out)["rolls"]
    assert code == 0 and len(rolls) == 210
    assert drawn[0] == 825 <= 4 * len(rolls)
    assert all(len(r["order_sets"]) == min(3, r["count"]) for r in rolls)
    assert all(r["limited"] == (r["count"] > 3) for r in rolls)


def test_csp_order_sets_limit(akragas):
    g = akragas.ground("Line Command")
    every = csp_order_sets(g, akragas.plan)
    some = csp_order_sets(g, akragas.plan, 5)
    assert len(some) == 5 and set(some) <= set(every)
    assert csp_order_sets(g, akragas.plan, 0) == []
    assert csp_order_sets(g, akragas.plan, 10**6) == every
