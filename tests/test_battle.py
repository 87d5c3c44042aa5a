"""Battle declarations in whole turns (50-battle.wc): who may battle whom
after the move it made, close combat and ranged fire, and the cards that
change them (reference §3.5, §4, §8; seed 002).

Expected answers are worked out by hand. Distances use reference §1.1
(axial q = col - floor(row/2), cube distance); the hexes used:

    [6,6] q3 r6     [4,6] q1 r6 (2 west)   [9,6] q6 r6 (3 east)   [6,2] q5 r2 (4)
    [10,6] q7 r6 (4 east)   [6,5] q4 r5 (1)   [5,7] q2 r7 (1)     [7,6] (1)

Red (south) plays; blue is north.
"""

from __future__ import annotations

import pytest
from conftest import dist


def check(eng, turn, data):
    return sorted((v.rule, v.pieces) for v in eng.check_turn(turn(data, eng)).violations)


def test_distances_used():
    s = (6, 6)
    assert [dist(s, t) for t in [(4, 6), (9, 6), (6, 2), (10, 6), (6, 5), (5, 7), (7, 6)]] == [2, 3, 4, 4, 1, 1, 1]


# --------------------------------------------------------------------------- close combat and who battles

SEC = "Order Two Units Center"


def melee_board(board):
    # h1 and h2 (heavy infantry) both next to the enemy x [6,5]; y [4,6] two away from h1
    return board([("h1", "red", "heavy_infantry", [6, 6]), ("h2", "red", "heavy_infantry", [7, 6]),
                  ("x", "blue", "heavy_infantry", [6, 5]), ("y", "blue", "heavy_infantry", [4, 6])],
                 [("L", "red", [5, 5])])


def test_close_combat(board, turn):
    eng = melee_board(board)
    assert check(eng, turn, {"card": SEC, "orders": ["h1"], "battles": [{"piece": "h1", "target": "x"}]}) == []
    # both ordered, both battle x
    assert check(eng, turn, {"card": SEC, "orders": ["h1", "h2"],
                             "battles": [{"piece": "h1", "target": "x"}, {"piece": "h2", "target": "x"}]}) == []


def test_only_ordered_units_battle(board, turn):
    eng = melee_board(board)
    data = {"card": SEC, "orders": ["h1"], "battles": [{"piece": "h2", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.only-ordered-battle", ["h2"])]


def test_close_combat_needs_an_adjacent_enemy(board, turn):
    eng = melee_board(board)
    # y is two hexes away and heavy infantry has no missiles
    data = {"card": SEC, "orders": ["h1"], "battles": [{"piece": "h1", "target": "y"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["h1"])]
    # after moving next to y (one hex, to [5,6]): legal
    data["moves"] = [{"piece": "h1", "to": [5, 6]}]
    assert check(eng, turn, data) == []


def test_battle_an_enemy_and_only_units_battle(board, turn):
    eng = melee_board(board)
    # a friendly target
    data = {"card": SEC, "orders": ["h1"], "battles": [{"piece": "h1", "target": "h2"}]}
    assert check(eng, turn, data) == [("cca.battle.enemy-target", ["h1"])]
    # a lone leader does not battle
    data = {"card": SEC, "orders": ["L"], "battles": [{"piece": "L", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.battle.enemy-target", ["L"])]


def test_one_battle_per_unit(board, turn):
    eng = board([("h", "red", "heavy_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5]),
                 ("z", "blue", "heavy_infantry", [5, 5])])
    data = {"card": SEC, "orders": ["h"], "battles": [{"piece": "h", "target": "x"}, {"piece": "h", "target": "z"}]}
    assert check(eng, turn, data) == [("cca.battle.once", ["h"])]


# --------------------------------------------------------------------------- ranged fire

OLT = "Order Light Troops"

# reference §4 ranges: light infantry 2, light bow / light sling infantry 3,
# auxilia 2, light cavalry 2, light bow cavalry 3
RANGES = {"light_infantry": 2, "light_bow_infantry": 3, "light_sling_infantry": 3, "auxilia": 2,
          "light_cavalry": 2, "light_bow_cavalry": 3}


def range_board(board, utype):
    # targets west at 2, east at 3 and 4, and north at 4; every line of
    # sight is open (nothing stands between)
    return board([("s", "red", utype, [6, 6]), ("t2", "blue", "heavy_infantry", [4, 6]),
                  ("t3", "blue", "heavy_infantry", [9, 6]), ("t4", "blue", "heavy_infantry", [6, 2])])


@pytest.mark.parametrize("utype", sorted(RANGES))
def test_ranged_fire_range(board, turn, utype):
    eng = range_board(board, utype)
    r = RANGES[utype]
    for target, d in (("t2", 2), ("t3", 3), ("t4", 4)):
        data = {"card": OLT, "orders": ["s"], "battles": [{"piece": "s", "target": target}]}
        assert check(eng, turn, data) == ([] if d <= r else [("cca.battle.in-reach", ["s"])]), target


@pytest.mark.parametrize("utype", ["light_infantry", "light_bow_infantry", "light_cavalry"])
def test_no_fire_when_adjacent_to_an_enemy(board, turn, utype):
    # an enemy at [5,7] touches the firer: it may not fire (it may close combat)
    eng = board([("s", "red", utype, [6, 6]), ("t2", "blue", "heavy_infantry", [4, 6]),
                 ("a", "blue", "light_infantry", [5, 7])])
    data = {"card": OLT, "orders": ["s"], "battles": [{"piece": "s", "target": "t2"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]
    data["battles"] = [{"piece": "s", "target": "a"}]
    assert check(eng, turn, data) == []


def test_fire_after_moving_away_from_an_enemy(board, turn):
    # battles are judged on the board after the moves: li at [6,6] next to
    # x [6,5] steps back to [6,7] (two from x) and fires at it
    eng = board([("li", "red", "light_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5])])
    data = {"card": OLT, "orders": ["li"], "moves": [{"piece": "li", "to": [6, 7]}],
            "battles": [{"piece": "li", "target": "x"}]}
    assert check(eng, turn, data) == []
    # moving next to it and firing: close combat only (which a light infantry may do)
    data = {"card": OLT, "orders": ["li"], "moves": [{"piece": "li", "to": [7, 6]}],
            "battles": [{"piece": "li", "target": "x"}]}
    assert check(eng, turn, data) == []


def test_ranged_fire_after_moving(board, turn):
    # light infantry may move and fire: one hex east to [7,6], t3 [9,6] is
    # two away; two hexes north-east to [7,4] (q5 r4), t3 (q6 r6) is three away
    eng = range_board(board, "light_infantry")
    data = {"card": OLT, "orders": ["s"], "moves": [{"piece": "s", "to": [7, 6]}],
            "battles": [{"piece": "s", "target": "t3"}]}
    assert check(eng, turn, data) == []
    data["moves"] = [{"piece": "s", "path": [[6, 5], [7, 4]]}]
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]


def test_war_machines_do_not_fire(board, turn):
    # the pack gives war machines no range (header of 00-pack.wc): no ranged fire
    eng = range_board(board, "heavy_war_machine")
    data = {"card": "Order Heavy Troops", "orders": ["s"], "battles": [{"piece": "s", "target": "t2"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]


def test_war_machine_may_not_battle_after_moving(board, turn):
    # "Heavy War machine units may move one hex but may not battle when they move."
    eng = board([("m", "red", "heavy_war_machine", [6, 6]), ("x", "blue", "heavy_infantry", [6, 4])])
    data = {"card": "Order Heavy Troops", "orders": ["m"], "moves": [{"piece": "m", "to": [6, 5]}],
            "battles": [{"piece": "m", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.battle.after-move", ["m"])]


def test_line_of_sight_blocked_by_a_unit(board, turn):
    # Reference §8 (quoted by cca.ranged-fire): "target 2+ hexes away, within
    # range and line of sight"; "Line of sight: blocked by any unit or
    # leader, or blocking terrain, in an intermediate hex". The light bow
    # infantry at [6,6] fires along row 6 at t3 [9,6]; the friendly f on
    # [7,6] stands on the line's middle: no line of sight.
    eng = board([("s", "red", "light_bow_infantry", [6, 6]), ("f", "red", "heavy_infantry", [7, 6]),
                 ("t3", "blue", "heavy_infantry", [9, 6])])
    data = {"card": OLT, "orders": ["s"], "battles": [{"piece": "s", "target": "t3"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]


# --------------------------------------------------------------------------- after the move


def test_auxilia_battle_after_one_hex_not_two(board, turn):
    # "Auxilia infantry units may move one hex and battle, or move two hexes and not battle."
    eng = board([("ax", "red", "auxilia", [6, 6]), ("x", "blue", "heavy_infantry", [6, 3])])
    one = {"card": OLT, "orders": ["ax"], "moves": [{"piece": "ax", "to": [6, 5]}],
           "battles": [{"piece": "ax", "target": "x"}]}  # [6,5] two from x: ranged fire
    assert check(eng, turn, one) == []
    two = {"card": OLT, "orders": ["ax"], "moves": [{"piece": "ax", "path": [[6, 5], [6, 4]]}],
           "battles": [{"piece": "ax", "target": "x"}]}  # [6,4] next to x: close combat
    assert check(eng, turn, two) == [("cca.battle.after-move", ["ax"])]
    # Double Time gives auxilia the battle after two hexes (close combat only: no fire)
    two["card"] = "Double Time"
    assert check(eng, turn, two) == []


def test_terrain_forbids_battle_after_entering(board, turn):
    # forest: heavy infantry may not battle on entering, light infantry may;
    # broken ground: mounted may not battle on entering, foot may
    eng = board([("h", "red", "heavy_infantry", [6, 6]), ("l", "red", "light_infantry", [5, 6]),
                 ("c", "red", "heavy_cavalry", [7, 6]), ("x", "blue", "heavy_infantry", [6, 4]),
                 ("z", "blue", "heavy_infantry", [8, 4])],
                terrain={(6, 5): "forest", (5, 5): "forest", (7, 5): "broken_ground"})
    card = "Order Four Units Center"
    assert check(eng, turn, {"card": card, "orders": ["h"], "moves": [{"piece": "h", "to": [6, 5]}],
                             "battles": [{"piece": "h", "target": "x"}]}) == [("cca.battle.after-move", ["h"])]
    assert check(eng, turn, {"card": card, "orders": ["l"], "moves": [{"piece": "l", "to": [5, 5]}],
                             "battles": [{"piece": "l", "target": "x"}]}) == []
    assert check(eng, turn, {"card": card, "orders": ["c"], "moves": [{"piece": "c", "to": [7, 5]}],
                             "battles": [{"piece": "c", "target": "z"}]}) == [("cca.battle.after-move", ["c"])]


# --------------------------------------------------------------------------- warriors


def warrior_board(board):
    # the warrior w at [6,6]; the enemy x at [6,3]: [6,4] (two from w) touches it
    return board([("w", "red", "warrior", [6, 6]), ("x", "blue", "heavy_infantry", [6, 3])])


def test_warrior_one_hex(board, turn):
    eng = warrior_board(board)
    assert check(eng, turn, {"card": SEC, "orders": ["w"], "moves": [{"piece": "w", "to": [6, 5]}]}) == []


def test_warrior_charge_must_close_combat(board, turn):
    # "this Close Combat is compulsory after a two-hex 'charge'"
    eng = warrior_board(board)
    data = {"card": SEC, "orders": ["w"], "moves": [{"piece": "w", "to": [6, 4]}]}
    assert check(eng, turn, data) == [("cca.battle.warrior-compulsory", ["w"])]


def test_warrior_charge_then_close_combat(board, turn):
    # Seed 002: "Warrior infantry units may move one hex and battle, or move
    # two hexes and battle if moving adjacent to an enemy unit"; "the warrior
    # unit may only move two hexes if it battles after moving". The charge
    # [6,6] -> [6,4], next to x, then close combat with x: legal.
    eng = warrior_board(board)
    data = {"card": SEC, "orders": ["w"], "moves": [{"piece": "w", "to": [6, 4]}],
            "battles": [{"piece": "w", "target": "x"}]}
    assert check(eng, turn, data) == []


def test_moves_flags_the_charge_must_battle(board, turn):
    # issue 26: `moves` listed the charge's hexes as plain destinations, but
    # check rejects them without a close combat. w [6,6] reaches [5,5] [6,5]
    # [5,6] [7,6] [5,7] [6,7] in one hex, and in two only [6,4] and [7,4]
    # (the hexes two away that touch x [6,3]; [5,4] does not): those must battle.
    import json

    from conftest import run_cli

    eng = warrior_board(board)
    path = eng.scenario.path
    code, text, _ = run_cli("moves", path, "--card", SEC, "--order", "w", "--json")
    assert code == 0
    assert json.loads(text)["moves"] == {"w": [
        {"to": [6, 4], "battle": True, "must_battle": True}, {"to": [7, 4], "battle": True, "must_battle": True},
        {"to": [5, 5], "battle": True}, {"to": [6, 5], "battle": True}, {"to": [5, 6], "battle": True},
        {"to": [7, 6], "battle": True}, {"to": [5, 7], "battle": True}, {"to": [6, 7], "battle": True}]}
    code, text, _ = run_cli("moves", path, "--card", SEC, "--order", "w")
    assert text.splitlines()[1] == "  warrior w at 6,6 (8): 6,4(must battle) 7,4(must battle) 5,5 6,5 5,6 7,6 5,7 6,7"
    # each flagged hex: legal with a close combat, illegal without
    for to in ([6, 4], [7, 4]):
        data = {"card": SEC, "orders": ["w"], "moves": [{"piece": "w", "to": to}]}
        assert check(eng, turn, data) == [("cca.battle.warrior-compulsory", ["w"])]
        data["battles"] = [{"piece": "w", "target": "x"}]
        assert check(eng, turn, data) == []


def test_warrior_double_time(board, turn):
    # Double Time: warriors may move 2 or 3 hexes but then must close combat.
    # [7,3] is three from [6,6] and touches x [6,3].
    eng = warrior_board(board)
    data = {"card": "Double Time", "orders": ["w"], "moves": [{"piece": "w", "to": [7, 3]}]}
    assert check(eng, turn, data) == [("cca.battle.warrior-compulsory", ["w"])]
    data["battles"] = [{"piece": "w", "target": "x"}]
    assert check(eng, turn, data) == []
    data["moves"] = [{"piece": "w", "to": [6, 4]}]
    assert check(eng, turn, data) == []


# --------------------------------------------------------------------------- cards


def test_darken_the_sky_two_shots(board, turn):
    eng = board([("b", "red", "light_bow_infantry", [6, 6]), ("h", "red", "heavy_infantry", [2, 6]),
                 ("t2", "blue", "heavy_infantry", [4, 6]), ("t3", "blue", "heavy_infantry", [9, 6]),
                 ("a", "blue", "heavy_infantry", [6, 4])])
    card = "Darken the Sky"
    shot = lambda t: {"piece": "b", "target": t}  # noqa: E731
    assert check(eng, turn, {"card": card, "orders": ["b"], "battles": [shot("t2"), shot("t3")]}) == []
    assert check(eng, turn, {"card": card, "orders": ["b"], "battles": [shot("t2"), shot("t2")]}) == []
    assert check(eng, turn, {"card": card, "orders": ["b"], "battles": [shot("t2"), shot("t3"), shot("a")]}) == [
        ("cca.battle.once", ["b"])]
    # two shots on an ordinary card: one too many
    assert check(eng, turn, {"card": OLT, "orders": ["b"], "battles": [shot("t2"), shot("t3")]}) == [
        ("cca.battle.once", ["b"])]


def test_darken_the_sky_fire_only(board, turn):
    eng = board([("b", "red", "light_bow_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5])])
    data = {"card": "Darken the Sky", "orders": ["b"], "battles": [{"piece": "b", "target": "x"}]}
    assert check(eng, turn, data) == [("cca.battle.darken-fire-only", ["b"])]


@pytest.mark.parametrize("card,utype", [("Double Time", "light_infantry"), ("Mounted Charge", "light_cavalry"),
                                        ("Mounted Charge", "light_bow_cavalry")])
def test_no_ranged_fire_on_cards(board, turn, card, utype):
    eng = range_board(board, utype)
    data = {"card": card, "orders": ["s"], "battles": [{"piece": "s", "target": "t2"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]
    # close combat is allowed: move next to t2 (to [5,6]) and attack
    data["moves"] = [{"piece": "s", "to": [5, 6]}]
    assert check(eng, turn, data) == []


def test_no_ranged_fire_on_clash_of_shields(board, turn):
    # Clash of Shields orders units next to an enemy, which could not fire
    # anyway; they close combat (+2 dice) without moving
    eng = board([("s", "red", "light_infantry", [6, 6]), ("a", "blue", "heavy_infantry", [5, 7]),
                 ("t2", "blue", "heavy_infantry", [4, 6])])
    data = {"card": "Clash of Shields", "orders": ["s"], "battles": [{"piece": "s", "target": "t2"}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["s"])]
    data["battles"] = [{"piece": "s", "target": "a"}]
    assert check(eng, turn, data) == []


MFM = "Move-Fire-Move"


def mfm_board(board, extra_units=(), leaders=()):
    # li at [6,6]; the target t at [6,3] is three away; from [6,5] (q4 r5) it is two
    return board([("li", "red", "light_infantry", [6, 6]), ("t", "blue", "heavy_infantry", [6, 3])] + list(extra_units),
                 leaders)


def test_move_fire_move(board, turn):
    eng = mfm_board(board)
    data = {"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "to": [6, 5]}],
            "battles": [{"piece": "li", "target": "t"}], "second_moves": [{"piece": "li", "to": [6, 6]}]}
    assert check(eng, turn, data) == []
    # no second move: fine too
    del data["second_moves"]
    assert check(eng, turn, data) == []


def test_move_fire_move_battles_judged_before_second_moves(board, turn):
    # first move to [7,6] (q4 r6: three from t), fire, second move to [6,5]
    # (two from t): the fire is judged from [7,6], out of range
    eng = mfm_board(board)
    data = {"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "to": [7, 6]}],
            "battles": [{"piece": "li", "target": "t"}], "second_moves": [{"piece": "li", "to": [6, 5]}]}
    assert check(eng, turn, data) == [("cca.battle.in-reach", ["li"])]


def test_move_fire_move_no_close_combat(board, turn):
    eng = mfm_board(board)
    data = {"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "path": [[6, 5], [6, 4]]}],
            "battles": [{"piece": "li", "target": "t"}]}  # [6,4] touches t
    assert check(eng, turn, data) == [("cca.battle.mfm-no-close-combat", ["li"])]


def test_move_fire_move_light_foot_pass_friends_in_both_moves(board, turn):
    eng = mfm_board(board, [("f", "red", "heavy_infantry", [6, 5])])
    data = {"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "path": [[6, 5], [6, 4]]}],
            "second_moves": [{"piece": "li", "path": [[6, 5], [6, 6]]}]}
    assert check(eng, turn, data) == []


def test_move_fire_move_fire_then_move(board, turn):
    # Reference §3.5: "all first moves, then all ranged fire, then optional
    # second moves". li does not move first, fires from [6,6] at a target
    # two away, then makes its (optional) second move. Legal.
    eng = board([("li", "red", "light_infantry", [6, 6]), ("t2", "blue", "heavy_infantry", [4, 6])])
    data = {"card": MFM, "orders": ["li"], "battles": [{"piece": "li", "target": "t2"}],
            "second_moves": [{"piece": "li", "to": [6, 7]}]}
    assert check(eng, turn, data) == []


def test_move_fire_move_one_second_move(board, turn):
    # Seed 002: "A unit may only be ordered to move once per turn."
    # Move-Fire-Move adds one optional second move after the fire
    # (reference §3.5), not any number: a third move breaks cca.move.once.
    eng = mfm_board(board)
    data = {"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "to": [6, 5]}],
            "second_moves": [{"piece": "li", "to": [6, 6]}, {"piece": "li", "to": [6, 7]}]}
    assert check(eng, turn, data) == [("cca.move.once", ["li"])]


def test_move_fire_move_with_attached_leader(board, turn):
    # An attached leader goes along with his ordered unit in every move it
    # makes (seed 000: "If the unit is ordered to move, the attached leader
    # must move with the unit."), so on Move-Fire-Move he goes along in the
    # second move too. Expected: legal.
    eng = mfm_board(board, leaders=[("L", "red", [6, 6])])
    data = {"card": MFM, "orders": ["li"],
            "moves": [{"piece": "li", "to": [6, 5]}, {"piece": "L", "to": [6, 5]}],
            "battles": [{"piece": "li", "target": "t"}],
            "second_moves": [{"piece": "li", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}]}
    assert check(eng, turn, data) == []
