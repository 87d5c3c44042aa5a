"""Unit and leader movement (seed 002), terrain (reference §6) and the cards
that change movement (reference §3.5, §7), through ``Engine.destinations``
and ``Engine.check_turn``.

Every expected answer is worked out by hand from the rule texts and the odd-r
hex geometry of reference §1.1:

    neighbours of [c, r], even r: [c-1,r] [c+1,r] [c-1,r-1] [c,r-1] [c-1,r+1] [c,r+1]
    neighbours of [c, r], odd r:  [c-1,r] [c+1,r] [c,r-1] [c+1,r-1] [c,r+1] [c+1,r+1]

The only computed expectations are "every hex within n of a centre" on an
open board (``disc``), from the reference's distance formula.

Red plays from the south edge (its left = map West); blue is north.
"""

from __future__ import annotations

import pytest
from conftest import dist, on_board


# --------------------------------------------------------------------------- helpers


def disc(centre, n, lo=1) -> set:
    """Every on-board hex at distance lo..n from centre."""
    return {(c, r) for r in range(9) for c in range(13)
            if on_board((c, r)) and lo <= dist(centre, (c, r)) <= n}


def cells(*xs) -> set:
    return {tuple(x) for x in xs}


def dests(eng, card, ids, **kw):
    """{piece: {hex: battle flag (None for leaders)}} and the legality of the order set."""
    g = eng.ground(card, **kw)
    legal, out = eng.destinations(g, list(ids))
    for d in out.values():  # in reading order (row by row)
        assert list(d) == sorted(d, key=lambda c: (c[1], c[0]))
    return legal, out


def only(eng, card, pid, **kw) -> dict:
    legal, res = dests(eng, card, [pid], **kw)
    assert legal
    assert set(res) == {pid}
    return res[pid]


def flags(hexes, battle) -> dict:
    return {tuple(h): battle for h in hexes}


def check(eng, turn, data):
    return sorted((v.rule, v.pieces) for v in eng.check_turn(turn(data, eng)).violations)


# --------------------------------------------------------------------------- unit types

# (move, battle_move, kind) of every unit type, from seed 002:
#   "Light infantry units (...) may move one or two hexes and battle."
#   "Auxilia infantry units may move one hex and battle, or move two hexes and not battle."
#   "Light war machine units may move one hex but may not battle when they move."
#   "Medium infantry units may move one hex and battle."
#   "Warrior infantry units may move one hex and battle, or move two hexes and battle if
#    moving adjacent to an enemy unit or adjacent to an enemy leader"
#   "Heavy infantry units may move one hex and battle."
#   "Heavy War machine units may move one hex but may not battle when they move."
#   "Light cavalry and light bow cavalry units may move one, two, three, or four hexes and battle."
#   "Light chariot units may move one, two or three hexes and battle."
#   "Medium cavalry units may move one, two or three hexes and battle."
#   "Camel units may move one, two or three hexes and battle."
#   "Heavy cavalry units may move one or two hexes and battle."
#   "Elephant units may move one or two hexes and battle."
#   "Heavy chariot units may move one or two hexes and battle."
# For warriors battle_move is 2: the two-hex move is allowed only to end next
# to an enemy, and then the warrior battles ("move two hexes and battle").
TYPES = {
    "light_infantry": (2, 2, "foot"),
    "light_bow_infantry": (2, 2, "foot"),
    "light_sling_infantry": (2, 2, "foot"),
    "auxilia": (2, 1, "foot"),
    "light_war_machine": (1, 0, "foot"),
    "medium_infantry": (1, 1, "foot"),
    "warrior": (2, 2, "foot"),
    "heavy_infantry": (1, 1, "foot"),
    "heavy_war_machine": (1, 0, "foot"),
    "light_cavalry": (4, 4, "mounted"),
    "light_bow_cavalry": (4, 4, "mounted"),
    "light_chariot": (3, 3, "mounted"),
    "medium_cavalry": (3, 3, "mounted"),
    "camel": (3, 3, "mounted"),
    "heavy_cavalry": (2, 2, "mounted"),
    "elephant": (2, 2, "mounted"),
    "heavy_chariot": (2, 2, "mounted"),
}
WAR_MACHINES = {"light_war_machine", "heavy_war_machine"}
# reference §6 forest: only these may battle on the turn they enter a forest
FOREST_FIGHTERS = {"light_infantry", "light_bow_infantry", "light_sling_infantry", "auxilia", "warrior"}


def test_types_table_is_the_pack(pack):
    assert set(pack.units) == set(TYPES)
    assert len(TYPES) == 17


# --------------------------------------------------------------------------- board A: pieces and the edge
#
# The mover s at [2,7] (West = red's left), near the south edge (row 8).
#   fu  friendly heavy infantry [3,7]  (east neighbour: no entering, no passing)
#   ll  lone friendly leader    [2,6]  (north-west neighbour: may enter, must stop)
#   el  enemy leader            [1,7]  (west neighbour: no entering, no passing)
#   eu  enemy heavy infantry    [3,5]  (two hexes north: no entering, no passing)
#
# Fewest steps to each hex (worked out neighbour by neighbour):
#   1: [2,6](ll) [3,6] [2,8] [3,8]                 ([1,7] el, [3,7] fu blocked)
#   2: from [3,6]: [2,5] [4,6]  ([3,5] eu);  from [2,8]: [1,8];  from [3,8]: [4,8]
#      not [1,5] (only via ll's hex), not [0,7] and [1,6] (only via el / ll),
#      not [4,7] (only via fu)
#   3: from [2,5]: [1,5] [2,4] [3,4];  from [4,6]: [4,5] [5,6] [4,7];
#      from [1,8]: [0,7] [0,8];  from [4,8]: [5,8]
#   4: from [1,5]: [0,5] [1,4] [1,6];  from [2,4]: [1,3] [2,3];  from [3,4]: [3,3] [4,4];
#      from [4,5]: [5,4];  from [5,6]: [5,5] [6,6] [5,7];  from [0,7]: [0,6];
#      from [5,8]: [6,8]
A_STEPS = {
    1: cells([2, 6], [3, 6], [2, 8], [3, 8]),
    2: cells([2, 5], [4, 6], [1, 8], [4, 8]),
    3: cells([1, 5], [2, 4], [3, 4], [4, 5], [5, 6], [4, 7], [0, 7], [0, 8], [5, 8]),
    4: cells([0, 5], [1, 4], [1, 6], [1, 3], [2, 3], [3, 3], [4, 4], [5, 4], [5, 5], [6, 6], [5, 7],
             [0, 6], [6, 8]),
}
# two-hex ends next to an enemy unit or leader: [2,5] and [4,6] touch eu [3,5],
# [1,8] touches el [1,7]; [4,8] touches neither
A_WARRIOR_TWO = cells([2, 5], [4, 6], [1, 8])


def board_a(board, utype):
    return board([("s", "red", utype, [2, 7]), ("fu", "red", "heavy_infantry", [3, 7]),
                  ("eu", "blue", "heavy_infantry", [3, 5])],
                 [("ll", "red", [2, 6]), ("el", "blue", [1, 7])])


def test_board_a_geometry():
    # the hand-made table agrees with the distance formula where nothing blocks
    assert all(dist((2, 7), h) == 1 for h in A_STEPS[1])
    assert all(dist((2, 7), h) == 2 for h in A_STEPS[2])
    # the blocked or shadowed hexes within two
    assert disc((2, 7), 2) - A_STEPS[1] - A_STEPS[2] == cells([1, 7], [3, 7], [3, 5], [1, 5], [0, 7], [1, 6], [4, 7])


@pytest.mark.parametrize("utype", sorted(TYPES))
def test_unit_destinations_pieces_and_edge(board, utype):
    move, battle_move, _ = TYPES[utype]
    eng = board_a(board, utype)
    expected = {}
    for k in range(1, move + 1):
        for h in A_STEPS[k]:
            if utype == "warrior" and k == 2 and h not in A_WARRIOR_TWO:
                continue
            expected[h] = k <= battle_move
    assert only(eng, "Order Two Units Left", "s") == expected


# --------------------------------------------------------------------------- board B: terrain
#
# The mover at [6,4] (Center); its six neighbours each hold one terrain:
#   [5,4] forest   [7,4] broken ground   [5,3] marsh
#   [6,3] river    [5,5] ford            [6,5] hill
# Forest, marsh and ford stop everyone, the river lets no one in, broken
# ground stops mounted units (and lone leaders), the hill changes nothing.
#
# foot: 1: the five neighbours but the river
#       2: through the broken ground [7,4]: [7,3] [8,4] [7,5];
#          through the hill [6,5]: [7,5] [6,6] [7,6]
# mounted (and lone leaders): only the hill lets them on:
#       2: [7,5] [6,6] [7,6]
#       3: from [7,5]: [8,4] [8,5] [8,6];  from [6,6]: [5,6] [5,7] [6,7];  from [7,6]: [7,7]
#       4: from [8,4]: [7,3] [8,3] [9,4];  from [8,5]: [9,5] [9,6];  from [8,6]: [8,7];
#          from [5,6]: [4,5] [4,6] [4,7];  from [5,7]: [5,8] [6,8];  from [6,7]: [7,8];
#          from [7,7]: [8,8]
B_TERRAIN = {(5, 4): "forest", (7, 4): "broken_ground", (5, 3): "marsh", (6, 3): "river",
             (5, 5): "ford", (6, 5): "hill"}
B_ONE = cells([5, 3], [5, 4], [7, 4], [5, 5], [6, 5])
B_FOOT = {1: B_ONE, 2: cells([7, 3], [8, 4], [7, 5], [6, 6], [7, 6])}
B_MOUNTED = {
    1: B_ONE,
    2: cells([7, 5], [6, 6], [7, 6]),
    3: cells([8, 4], [8, 5], [8, 6], [5, 6], [5, 7], [6, 7], [7, 7]),
    4: cells([7, 3], [8, 3], [9, 4], [9, 5], [9, 6], [8, 7], [4, 5], [4, 6], [4, 7], [5, 8], [6, 8],
             [7, 8], [8, 8]),
}


@pytest.mark.parametrize("utype", sorted(TYPES))
def test_unit_destinations_terrain(board, utype):
    move, battle_move, kind = TYPES[utype]
    eng = board([("s", "red", utype, [6, 4])], terrain=B_TERRAIN)
    if utype in WAR_MACHINES:
        # may not enter broken ground or marsh; never battle after moving
        expected = flags([[5, 4], [5, 5], [6, 5]], False)
    else:
        steps = B_FOOT if kind == "foot" else B_MOUNTED
        expected = {}
        for k in range(1, move + 1):
            if utype == "warrior" and k == 2:
                continue  # no enemy anywhere: no two-hex charge
            for h in steps[k]:
                battle = k <= battle_move
                if h == (5, 4) and utype not in FOREST_FIGHTERS:
                    battle = False  # forest: only light foot, auxilia and warriors battle on entering
                if h == (7, 4) and kind == "mounted":
                    battle = False  # broken ground: mounted may not battle on entering
                expected[h] = battle
    assert only(eng, "Order Two Units Center", "s") == expected


@pytest.mark.parametrize("utype", ["light_infantry", "heavy_infantry", "light_cavalry", "heavy_cavalry"])
def test_marsh_only_one_hex_out(board, utype):
    # reference §6: "leaving a marsh: only 1 hex that turn whatever the allowance"
    eng = board([("s", "red", utype, [6, 4])], terrain={(6, 4): "marsh"})
    assert only(eng, "Order Two Units Center", "s") == flags(disc((6, 4), 1), True)


def test_hill_changes_nothing(board):
    eng = board([("s", "red", "light_cavalry", [6, 4])], terrain={h: "hill" for h in disc((6, 4), 2)})
    assert only(eng, "Order Two Units Center", "s") == flags(disc((6, 4), 4), True)


def test_leaving_a_forest_is_free(board):
    # the forest stops units entering it, not units leaving it
    eng = board([("s", "red", "light_infantry", [6, 4])], terrain={(6, 4): "forest"})
    assert only(eng, "Order Two Units Center", "s") == flags(disc((6, 4), 2), True)


# --------------------------------------------------------------------------- leaders

# Board C: lone leader L at [2,7].
#   fu  friendly heavy infantry [3,7]   (he may pass, and end there: he attaches)
#   l2  friendly lone leader    [2,6]   (he may pass, never end there)
#   eu  enemy heavy infantry    [2,5]   (never enter, never pass)
#   el  enemy leader            [3,5]   (never enter, never pass)
# 1: [1,7] [3,7] [3,6] [2,8] [3,8]        ([2,6] l2: passable, not an end)
# 2: from [1,7]: [0,7] [1,6] [1,8];  through fu [3,7]: [4,7] [4,6] [4,8];
#    through l2 [2,6]: [1,5]          ([2,5] eu, [3,5] el)
# 3: from [1,6]: [0,6] [0,5];  from [1,8]: [0,8];  from [4,7]: [5,7] [5,6] [5,8];
#    from [4,6]: [4,5];  from [1,5]: [1,4] [2,4]
# [3,4] and [4,4] are three hexes away only through eu / el: not reachable.
C_LEADER = cells([1, 7], [3, 7], [3, 6], [2, 8], [3, 8],
                 [0, 7], [1, 6], [1, 8], [4, 7], [4, 6], [4, 8], [1, 5],
                 [0, 6], [0, 5], [0, 8], [5, 7], [5, 6], [5, 8], [4, 5], [1, 4], [2, 4])


def test_lone_leader_destinations(board):
    eng = board([("fu", "red", "heavy_infantry", [3, 7]), ("eu", "blue", "heavy_infantry", [2, 5])],
                [("L", "red", [2, 7]), ("l2", "red", [2, 6]), ("el", "blue", [3, 5])])
    got = only(eng, "Order Two Units Left", "L")
    assert got == flags(C_LEADER, None)  # leaders carry no battle flag
    assert disc((2, 7), 3) - C_LEADER == cells([2, 6], [2, 5], [3, 5], [3, 4], [4, 4])


def test_lone_leader_terrain(board):
    # seed 002 / reference §5-§6: lone leaders stop on forest and broken
    # ground (and marsh, ford); the river stops everyone: on board B he goes
    # where a 3-hex mounted unit goes
    eng = board([], [("L", "red", [6, 4])], terrain=B_TERRAIN)
    expected = B_MOUNTED[1] | B_MOUNTED[2] | B_MOUNTED[3]
    assert only(eng, "Order Two Units Center", "L") == flags(expected, None)


def test_detaching_leader_and_his_unit(board):
    eng = board([("u", "red", "heavy_infantry", [6, 6])], [("la", "red", [6, 6])])
    # la detaches: he moves alone, 1-3 hexes, from his unit's hex
    assert only(eng, "Order Two Units Center", "la") == flags(disc((6, 6), 3), None)
    # u ordered: its attached leader goes along and is not listed on his own
    legal, res = dests(eng, "Order Two Units Center", ["u"])
    assert legal and res == {"u": flags(disc((6, 6), 1), True)}
    legal, res = dests(eng, "Order Two Units Center", ["u", "la"])
    assert legal and res == {"u": flags(disc((6, 6), 1), True), "la": flags(disc((6, 6), 3), None)}


def test_leader_boxed_by_enemies(board):
    # enemy leader el at [6,5] and enemy unit eu at [5,5], the leader L at [6,6].
    # No hex of row 5 north of him is open in one step, so nothing in rows
    # 3-4 is two steps away: [5,4] and [7,4] are three away round the
    # enemies (by [4,5] and [7,5]); [6,4] and row 3's [4,3] [5,3] [6,3] [7,3]
    # would need four.
    eng = board([("eu", "blue", "heavy_infantry", [5, 5])], [("L", "red", [6, 6]), ("el", "blue", [6, 5])])
    got = only(eng, "Order Two Units Center", "L")
    assert got == flags(disc((6, 6), 3) - cells([6, 5], [5, 5], [6, 4], [4, 3], [5, 3], [6, 3], [7, 3]), None)


# --------------------------------------------------------------------------- cards

C = (6, 6)  # an open Center hex


@pytest.mark.parametrize("utype,expected", [
    # reference §3.5 Double Time: foot may move 2 hexes and still close combat;
    # war machines excepted; light foot gain no movement, auxilia the battle
    ("heavy_infantry", "disc2"), ("medium_infantry", "disc2"), ("auxilia", "disc2"),
    ("light_infantry", "disc2"), ("light_war_machine", "ring1-nobattle"), ("heavy_war_machine", "ring1-nobattle"),
])
def test_double_time(board, utype, expected):
    eng = board([("s", "red", utype, list(C))])
    got = only(eng, "Double Time", "s")
    if expected == "disc2":
        assert got == flags(disc(C, 2), True)
    else:
        assert got == flags(disc(C, 1), False)


def test_double_time_warriors_three_hexes_to_close_combat(board):
    # enemy at [6,3]; the warrior at [6,6] moves 1 anywhere, 2 or 3 only to
    # end next to it: its neighbours [5,3] [7,3] [6,2] [7,2] [6,4] [7,4] are
    # at 3, 3, 4, 4, 2, 2 from [6,6]
    eng = board([("w", "red", "warrior", list(C)), ("x", "blue", "heavy_infantry", [6, 3])])
    assert only(eng, "Double Time", "w") == flags(disc(C, 1) | cells([6, 4], [7, 4], [5, 3], [7, 3]), True)
    # on a section card: two hexes at most
    assert set(only(eng, "Order Two Units Center", "w")) == disc(C, 1) | cells([6, 4], [7, 4])


@pytest.mark.parametrize("utype", ["light_infantry", "auxilia", "heavy_infantry", "warrior"])
def test_line_command_one_hex(board, utype):
    eng = board([("s", "red", utype, list(C))])
    assert only(eng, "Line Command", "s") == flags(disc(C, 1), True)


@pytest.mark.parametrize("utype,n", [
    # reference §3.5 Mounted Charge: heavy cavalry may move 3 hexes and still
    # battle (cca.default.mounted-charge-heavy-cavalry: heavy cavalry only)
    ("heavy_cavalry", 3), ("elephant", 2), ("heavy_chariot", 2), ("medium_cavalry", 3), ("light_cavalry", 4),
])
def test_mounted_charge(board, utype, n):
    eng = board([("s", "red", utype, list(C))])
    assert only(eng, "Mounted Charge", "s") == flags(disc(C, n), True)


# A friendly heavy infantry at [6,5], north-east of C. Within two hexes of C
# only [7,4] needs it as a stepping stone ([7,4]'s neighbours that touch C:
# [6,5] alone); [6,4] and [7,5] are also reached by [5,5] and [7,6].
BLOCK = (6, 5)


@pytest.mark.parametrize("card", ["Order Light Troops", "Move-Fire-Move"])
@pytest.mark.parametrize("utype", ["light_infantry", "light_bow_infantry", "light_sling_infantry", "auxilia"])
def test_light_foot_pass_through_friends(board, card, utype):
    eng = board([("s", "red", utype, list(C)), ("f", "red", "heavy_infantry", list(BLOCK))])
    got = only(eng, card, "s")
    # through the friend to [7,4], never ending on it
    assert set(got) == disc(C, 2) - {BLOCK}
    battle_move = TYPES[utype][1]
    assert got == {h: dist(C, h) <= battle_move for h in disc(C, 2) - {BLOCK}}


@pytest.mark.parametrize("card", ["Order Two Units Center", "Line Command", "Double Time"])
def test_light_foot_blocked_by_friends_on_other_cards(board, card):
    eng = board([("s", "red", "light_infantry", list(C)), ("f", "red", "heavy_infantry", list(BLOCK))])
    expected = disc(C, 1 if card == "Line Command" else 2) - {BLOCK, (7, 4)}
    assert set(only(eng, card, "s")) == expected


def test_light_foot_pass_friends_not_enemies(board):
    # Order Light Troops: enemy units and leaders still block
    eng = board([("s", "red", "light_infantry", list(C)), ("x", "blue", "heavy_infantry", list(BLOCK))])
    assert set(only(eng, "Order Light Troops", "s")) == disc(C, 2) - {BLOCK, (7, 4)}
    eng = board([("s", "red", "light_infantry", list(C))], [("xl", "blue", list(BLOCK))])
    assert set(only(eng, "Order Light Troops", "s")) == disc(C, 2) - {BLOCK, (7, 4)}


def test_light_cavalry_does_not_pass_friends_on_order_light_troops(board, turn):
    eng = board([("s", "red", "light_cavalry", list(C)), ("f", "red", "heavy_infantry", list(BLOCK))])
    data = {"card": "Order Light Troops", "orders": ["s"], "moves": [{"piece": "s", "path": [[6, 5], [7, 4]]}]}
    assert check(eng, turn, data) == [("cca.move.no-friendly-unit", ["s"])]
    # the same path for light infantry is legal
    eng = board([("s", "red", "light_infantry", list(C)), ("f", "red", "heavy_infantry", list(BLOCK))])
    assert check(eng, turn, data) == []


def test_clash_of_shields_and_darken_the_sky_no_movement(board):
    eng = board([("s", "red", "light_infantry", list(C)), ("x", "blue", "heavy_infantry", [6, 5])])
    assert only(eng, "Clash of Shields", "s") == {}
    eng = board([("s", "red", "light_bow_infantry", list(C))])
    assert only(eng, "Darken the Sky", "s") == {}


# --------------------------------------------------------------------------- turns

SEC = "Order Three Units Center"


def play_note_board(board):
    # the seed 002 PLAY NOTE: heavy infantry hi with its attached leader L
    # at [6,7], heavy cavalry hc at [5,7], all in the Center; enemies x [5,4], y [6,5]
    return board([("hi", "red", "heavy_infantry", [6, 7]), ("hc", "red", "heavy_cavalry", [5, 7]),
                  ("x", "blue", "heavy_infantry", [5, 4]), ("y", "blue", "heavy_infantry", [6, 5])],
                 [("L", "red", [6, 7])])


def test_play_note(board, turn):
    eng = play_note_board(board)
    data = {
        "card": SEC,
        "orders": ["hi", "L", "hc"],  # L's detaching costs one of the three orders
        "moves": [
            # "The heavy cavalry unit is moved first and moves adjacent to an enemy unit."
            {"piece": "hc", "path": [[5, 6], [5, 5]]},  # [5,5] touches x [5,4]
            # "The attached leader moves second, detaches from the heavy infantry
            #  unit, and moves onto the hex with the heavy cavalry unit"
            {"piece": "L", "path": [[6, 6], [5, 5]]},
            # "The heavy infantry unit moves third."
            {"piece": "hi", "to": [6, 6]},  # touches y [6,5]
        ],
        # "The ordered heavy cavalry unit and attached leader may now battle.
        #  The ordered heavy infantry unit could battle if adjacent to an enemy unit."
        "battles": [{"piece": "hc", "target": "x"}, {"piece": "hi", "target": "y"}],
    }
    assert check(eng, turn, data) == []
    # the same with the leader's move given by its destination only
    data["moves"][1] = {"piece": "L", "to": [5, 5]}
    assert check(eng, turn, data) == []


def test_play_note_heavy_infantry_second(board, turn):
    # "Had the heavy Infantry unit moved second, the attached leader would
    #  have been required to move with it and could not detach after moving."
    eng = play_note_board(board)
    data = {"card": SEC, "orders": ["hi", "L", "hc"],
            "moves": [{"piece": "hc", "path": [[5, 6], [5, 5]]}, {"piece": "hi", "to": [6, 6]},
                      {"piece": "L", "to": [5, 5]}],
            "battles": [{"piece": "hc", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.leader.detach-before-unit-moves", ["L"])]


def test_play_note_joined_unit_may_not_move(board, turn):
    # "Once a moving leader attaches to a new unit, the new unit may not move
    #  if ordered, but the unit (and its attached leader) may Battle in place."
    eng = play_note_board(board)
    data = {"card": SEC, "orders": ["hi", "L", "hc"],
            "moves": [{"piece": "L", "to": [5, 7]}, {"piece": "hc", "path": [[5, 6], [5, 5]]}],
            "battles": [{"piece": "hc", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.move.joined-unit-stops", ["hc"])]
    # battling in place (hc at [5,7] touches no enemy, so: hi and hc stay,
    # L joins hc, nothing moves after): legal
    data = {"card": SEC, "orders": ["hi", "L", "hc"], "moves": [{"piece": "L", "to": [5, 7]}]}
    assert check(eng, turn, data) == []


def test_joined_unit_battles_in_place(board, turn):
    # hc already next to x: L joins it, hc battles without moving
    eng = board([("hc", "red", "heavy_cavalry", [5, 5]), ("x", "blue", "heavy_infantry", [5, 4])],
                [("L", "red", [6, 7])])
    data = {"card": SEC, "orders": ["L", "hc"], "moves": [{"piece": "L", "to": [5, 5]}],
            "battles": [{"piece": "hc", "target": "x"}]}
    assert check(eng, turn, data) == []


def test_attached_leader_goes_along_to_the_same_hex(board, turn):
    eng = play_note_board(board)
    base = {"card": SEC, "orders": ["hi"]}
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}],
                             "battles": [{"piece": "hi", "target": "y"}]}) == []
    # (issue 11, interface.md "Attached leaders in a turn file": an unlisted
    # attached leader goes along implicitly; one listed as staying is left behind)
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}]}) == []
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 7]}]}) == [
        ("cca.attached-moves-with-unit", ["L"])]
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [7, 6]}]}) == [
        ("cca.attached-same-hex", ["L"])]


def test_ordered_detaching_leader_must_go_along_once_his_unit_moved(board, turn):
    # Seed 002: "A leader that is ordered does not have to move (unless
    # attached to an ordered unit that is moved)." L has an order of his own
    # and hi moves first: L may no longer detach, and must go with hi.
    # Leaving him behind on [6,7] is illegal. (issue 11: not listing his move
    # no longer leaves him behind: he goes along implicitly, which is legal;
    # listing him as staying on [6,7] leaves him behind.)
    eng = play_note_board(board)
    data = {"card": SEC, "orders": ["hi", "L"], "moves": [{"piece": "hi", "to": [6, 6]}]}
    assert check(eng, turn, data) == []
    data["moves"].append({"piece": "L", "to": [6, 7]})
    assert check(eng, turn, data) == [("cca.attached-moves-with-unit", ["L"])]


def test_ordered_leader_moving_with_his_unit_is_not_detaching(board, turn):
    # Seed 002 PLAY NOTE: "Had the heavy Infantry unit moved second, the
    # attached leader would have been required to move with it". Going with
    # his unit to its hex is what he must do, not a detachment.
    eng = play_note_board(board)
    data = {"card": SEC, "orders": ["hi", "L"],
            "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}]}
    assert check(eng, turn, data) == []


def test_unordered_piece_moves(board, turn):
    eng = play_note_board(board)
    # hc is ordered, hi is not: hi may not move (and L, attached to an
    # unordered unit, is not ordered either: he stays)
    data = {"card": SEC, "orders": ["hc"], "moves": [{"piece": "hi", "to": [6, 6]}]}
    assert check(eng, turn, data) == [("cca.only-ordered-act", ["hi"])]
    data = {"card": SEC, "orders": ["hi"], "moves": [{"piece": "hc", "to": [5, 6]}]}
    assert check(eng, turn, data) == [("cca.only-ordered-act", ["hc"])]


def test_moving_twice(board, turn):
    eng = board([("u", "red", "light_infantry", list(C))], [("L", "red", [8, 6])])
    data = {"card": SEC, "orders": ["u", "L"],
            "moves": [{"piece": "u", "to": [6, 5]}, {"piece": "L", "to": [8, 5]},
                      {"piece": "u", "to": [6, 4]}, {"piece": "L", "to": [8, 4]}]}
    assert check(eng, turn, data) == [("cca.leader.once", ["L"]), ("cca.move.once", ["u"])]


def messages(eng, turn, data):
    return [(v.rule, v.pieces, v.message) for v in eng.check_turn(turn(data, eng)).violations]


def test_the_same_move_listed_twice(board, turn):
    # issue 26: `u to X` listed twice is two moves, the second of no hexes
    # from X, and "A unit may only be ordered to move once per turn"; so is
    # a piece listed twice as staying put. (Judged legal since b0ea76d made
    # a listed move to the piece's own hex no move; before it, "u moves twice".)
    eng = board([("u", "red", "light_infantry", list(C))], [("L", "red", [8, 6])])
    twice = {"card": SEC, "orders": ["u"], "moves": [{"piece": "u", "to": [6, 5]}, {"piece": "u", "to": [6, 5]}]}
    assert messages(eng, turn, twice) == [("cca.move.once", ["u"], "u moves twice")]
    staying = {"card": SEC, "orders": ["u"], "moves": [{"piece": "u", "to": list(C)}, {"piece": "u", "to": list(C)}]}
    assert messages(eng, turn, staying) == [("cca.move.once", ["u"], "u moves twice")]
    # listed once as staying: no move, legal as before
    assert messages(eng, turn, {**staying, "moves": staying["moves"][:1]}) == []
    # a lone leader, the same
    alone = {"card": SEC, "orders": ["L"], "moves": [{"piece": "L", "to": [8, 5]}, {"piece": "L", "to": [8, 5]}]}
    assert messages(eng, turn, alone) == [("cca.leader.once", ["L"], "L moves twice")]


def test_attached_leader_listed_again_to_his_units_hex(board, turn):
    # Only an attached leader's listed move to his unit's hex may repeat
    # (interface.md, "Attached leaders in a turn file": listing it is
    # accepted): hi moves to [6,6], L is listed there twice.
    eng = play_note_board(board)
    data = {"card": SEC, "orders": ["hi"],
            "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}],
            "battles": [{"piece": "hi", "target": "y"}]}
    assert check(eng, turn, data) == []
    # a leader listed again to a hex with no unit of his is not: hi moves
    # away first, L listed twice as staying on [6,7] moves twice (and is left behind)
    data["moves"] = [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 7]}, {"piece": "L", "to": [6, 7]}]
    assert messages(eng, turn, data) == [("cca.attached-moves-with-unit", ["L"],
                                          "L is attached to an ordered unit: he moves when it moves, and only then"),
                                         ("cca.leader.once", ["L"], "L moves twice")]


def passing_board(board):
    # heavy cavalry u at [6,6]; a friendly unit f [6,5], an enemy unit x [5,5],
    # a lone friendly leader lf [7,6]. Two hexes from [6,6], [7,4] touches
    # only [6,5] among u's neighbours, [8,6] only [7,6], [5,4] only [5,5].
    return board([("u", "red", "heavy_cavalry", list(C)), ("f", "red", "heavy_infantry", [6, 5]),
                  ("x", "blue", "heavy_infantry", [5, 5])], [("lf", "red", [7, 6])])


def test_passing_through_units(board, turn):
    eng = passing_board(board)
    data = {"card": SEC, "orders": ["u"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "path": [[6, 5], [7, 4]]}]}) == [
        ("cca.move.no-friendly-unit", ["u"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "path": [[7, 6], [8, 6]]}]}) == [
        ("cca.move.stop-on-leader", ["u"])]
    # given by destination only: no legal path, the witness is the path
    # breaking the fewest rules
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [7, 4]}]}) == [
        ("cca.move.no-friendly-unit", ["u"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [8, 6]}]}) == [
        ("cca.move.stop-on-leader", ["u"])]
    # onto the lone friendly leader: legal, it stops there (and he attaches)
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [7, 6]}]}) == []
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [4, 6]}]}) == []  # by [5,6]
    assert set(only(eng, SEC, "u")) == disc(C, 2) - cells([6, 5], [5, 5], [7, 4], [8, 6], [5, 4], [6, 4], [7, 5])


def test_passing_through_an_enemy_unit_is_one_violation(board, turn):
    # Seed 002: "you may not move onto or through a hex occupied by an enemy
    # unit, an enemy leader, or a friendly unit." Passing the enemy x breaks
    # cca.move.no-enemy; it passes no friendly unit, so
    # cca.move.no-friendly-unit ("moves through a friendly unit") should not
    # be reported.
    eng = passing_board(board)
    data = {"card": SEC, "orders": ["u"], "moves": [{"piece": "u", "path": [[5, 5], [5, 4]]}]}
    assert check(eng, turn, data) == [("cca.move.no-enemy", ["u"])]


def test_ending_on_pieces(board, turn):
    eng = board([("u", "red", "heavy_infantry", list(C)), ("f", "red", "heavy_infantry", [6, 5]),
                 ("x", "blue", "heavy_infantry", [5, 5])],
                [("L", "red", [8, 6]), ("l2", "red", [8, 5]), ("xl", "blue", [7, 6])])
    data = {"card": SEC, "orders": ["u", "L"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [6, 5]}]}) == [
        ("cca.move.one-unit-per-hex", ["u"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [5, 5]}]}) == [
        ("cca.move.no-enemy", ["u"]), ("cca.move.one-unit-per-hex", ["u"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "u", "to": [7, 6]}]}) == [("cca.move.no-enemy", ["u"])]
    # the leader: onto a friendly leader, onto an enemy leader
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "to": [8, 5]}]}) == [
        ("cca.leader.one-per-hex", ["L"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "path": [[7, 6]]}]}) == [
        ("cca.leader.no-enemy", ["L"]), ("cca.leader.one-per-hex", ["L"])]
    # through a friendly leader and a friendly unit: legal for a leader
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "path": [[8, 5], [7, 5], [6, 5]]}]}) == []


def test_unit_with_leader_onto_a_lone_leader(board, turn):
    # "A unit may move onto a hex with a friendly leader if the leader is
    # alone in the hex" -- but its own attached leader would then share the
    # hex with him: "Only one leader may occupy a hex".
    eng = board([("hi", "red", "heavy_infantry", list(C))], [("L", "red", list(C)), ("l2", "red", [6, 5])])
    data = {"card": SEC, "orders": ["hi"], "moves": [{"piece": "hi", "to": [6, 5]}, {"piece": "L", "to": [6, 5]}]}
    # (issue 11: the unit's move, which carries L, breaks it too)
    assert check(eng, turn, data) == [("cca.leader.one-per-hex", ["L"]), ("cca.leader.one-per-hex", ["hi"])]
    # without a leader of its own, the unit may join l2
    eng = board([("hi", "red", "heavy_infantry", list(C))], [("l2", "red", [6, 5])])
    data = {"card": SEC, "orders": ["hi"], "moves": [{"piece": "hi", "to": [6, 5]}]}
    assert check(eng, turn, data) == []


def test_leader_moves(board, turn):
    eng = board([], [("L", "red", [6, 6])], terrain={(6, 4): "forest"})
    data = {"card": SEC, "orders": ["L"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "to": [6, 2]}]}) == [
        ("cca.leader.allowance", ["L"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "path": [[6, 5], [6, 4], [6, 3]]}]}) == [
        ("cca.terrain.forest-stops", ["L"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "L", "to": [6, 3]}]}) == []  # round the forest


def test_detaching_after_the_unit_moved(board, turn):
    eng = board([("u", "red", "heavy_infantry", list(C))], [("la", "red", list(C))])
    data = {"card": SEC, "orders": ["u", "la"],
            "moves": [{"piece": "u", "to": [6, 5]}, {"piece": "la", "to": [8, 6]}]}
    assert check(eng, turn, data) == [("cca.leader.detach-before-unit-moves", ["la"])]
    data["moves"].reverse()  # detach first, then the unit moves: legal
    assert check(eng, turn, data) == []


def test_leader_joined_by_a_unit_stays(board, turn):
    # seed 002: "The lone leader becomes attached to the unit."
    eng = board([("u", "red", "heavy_infantry", list(C))], [("L", "red", [6, 5])])
    data = {"card": SEC, "orders": ["u", "L"],
            "moves": [{"piece": "u", "to": [6, 5]}, {"piece": "L", "to": [6, 3]}]}
    assert check(eng, turn, data) == [("cca.leader.not-after-unit-joined", ["L"])]


def test_moves_judged_at_their_moment(board, turn):
    # u2 may move onto [6,5] once u1 has left it, and not before
    eng = board([("u1", "red", "heavy_infantry", [6, 5]), ("u2", "red", "heavy_infantry", list(C))])
    data = {"card": SEC, "orders": ["u1", "u2"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "u1", "to": [6, 4]}, {"piece": "u2", "to": [6, 5]}]}) == []
    assert check(eng, turn, {**data, "moves": [{"piece": "u2", "to": [6, 5]}, {"piece": "u1", "to": [6, 4]}]}) == [
        ("cca.move.one-unit-per-hex", ["u2"])]


def test_terrain_in_turns(board, turn):
    eng = board([("m", "red", "light_war_machine", [6, 6]), ("c", "red", "medium_cavalry", [2, 6]),
                 ("i", "red", "medium_infantry", [10, 6])],
                terrain={(6, 5): "broken_ground", (5, 5): "marsh", (2, 5): "broken_ground", (10, 5): "river"})
    data = {"card": "Order Four Units Center", "orders": ["m"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "m", "to": [6, 5]}]}) == [("cca.terrain.war-machines", ["m"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "m", "to": [5, 5]}]}) == [("cca.terrain.war-machines", ["m"])]
    data = {"card": "Order Mounted Troops", "orders": ["c"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "c", "path": [[2, 5], [2, 4]]}]}) == [
        ("cca.terrain.broken-ground-stops", ["c"])]
    data = {"card": "Order Two Units Right", "orders": ["i"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "i", "to": [10, 5]}]}) == [("cca.terrain.impassable", ["i"])]


def test_marsh_and_ford_in_turns(board, turn):
    eng = board([("c", "red", "light_cavalry", [6, 6]), ("d", "red", "light_cavalry", [6, 3])],
                terrain={(6, 5): "marsh", (7, 6): "ford", (6, 3): "marsh"})
    data = {"card": "Order Light Troops", "orders": ["c", "d"]}
    assert check(eng, turn, {**data, "moves": [{"piece": "c", "path": [[6, 5], [6, 4]]}]}) == [
        ("cca.terrain.marsh-stops", ["c"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "c", "path": [[7, 6], [8, 6]]}]}) == [
        ("cca.terrain.ford-stops", ["c"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "d", "to": [6, 1]}]}) == [
        ("cca.terrain.marsh-leaving", ["d"])]
    assert check(eng, turn, {**data, "moves": [{"piece": "d", "to": [6, 2]}]}) == []


def test_card_movement_in_turns(board, turn):
    eng = board([("h", "red", "heavy_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5])])
    assert check(eng, turn, {"card": "Clash of Shields", "orders": ["h"], "moves": [{"piece": "h", "to": [7, 6]}]}) == [
        ("cca.card.clash-no-move", ["h"])]
    eng = board([("h", "red", "heavy_infantry", [6, 6]), ("l", "red", "light_infantry", [2, 6])])
    assert check(eng, turn, {"card": "Darken the Sky", "orders": ["l"], "moves": [{"piece": "l", "to": [2, 5]}]}) == [
        ("cca.card.darken-no-move", ["l"])]
    assert check(eng, turn, {"card": "Line Command", "orders": ["l"], "moves": [{"piece": "l", "to": [2, 4]}]}) == [
        ("cca.card.line-command-one-hex", ["l"])]
    assert check(eng, turn, {"card": "Double Time", "orders": ["h"], "moves": [{"piece": "h", "to": [6, 4]}]}) == []
    assert check(eng, turn, {"card": "Double Time", "orders": ["h"], "moves": [{"piece": "h", "to": [6, 3]}]}) == [
        ("cca.move.unit-allowance", ["h"])]


def test_warrior_charge_turns(board, turn):
    eng = board([("w", "red", "warrior", list(C)), ("x", "blue", "heavy_infantry", [6, 3])])
    data = {"card": SEC, "orders": ["w"]}
    # two hexes, not next to an enemy: illegal (and the charge's close combat is missing)
    assert check(eng, turn, {**data, "moves": [{"piece": "w", "to": [5, 4]}]}) == [
        ("cca.battle.warrior-compulsory", ["w"]), ("cca.move.warrior-charge", ["w"])]
    # one hex, no battle: legal
    assert check(eng, turn, {**data, "moves": [{"piece": "w", "to": [6, 5]}]}) == []
