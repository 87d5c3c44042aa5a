"""Issue 11's five points found by checking hand-derived cases against the
seeds and the reference. Each point: an exact hand-built board whose answer
the fix changes, and the same board with the rule (or define) removed or
neutralised by a house layer, to show the rule is what gives the answer.

Hex geometry (the cca/ccm boards, odd rows shifted right): the neighbours
of an even-row hex (c, r) are (c±1, r), (c-1, r±1), (c, r±1); of an odd-row
hex (c±1, r), (c, r±1), (c+1, r±1). From [6,6]: [5,5] and [6,5] north;
[5,4] is two steps away only through [5,5]; [6,4] through [5,5] or [6,5];
[7,4] through [6,5] or [7,5].

Sides (conftest): red to move, on the south edge.
"""

from __future__ import annotations

import pytest

from test_rules import covers
from conftest import dist, on_board
from warcouncil.systems.cc.turns import end_positions

C = (6, 6)
SEC = "Order Three Units Center"
OLT = "Order Light Troops"


def disc(centre, n) -> set:
    return {(c, r) for r in range(9) for c in range(13) if on_board((c, r)) and 1 <= dist(centre, (c, r)) <= n}


def dests(eng, card, pid) -> set:
    g = eng.ground(card)
    legal, out = eng.destinations(g, [pid])
    assert legal
    return set(out[pid])


def check(eng, turn, data) -> list:
    return sorted((v.rule, v.pieces) for v in eng.check_turn(turn(data, eng)).violations)


@pytest.fixture
def build_t(files):
    """``build_t(units, leaders, terrain={hex: type}, rules=[...], system=...)``."""
    from conftest import scenario_dict

    def make(units=(), leaders=(), terrain=None, rules=(), system="cca"):
        data = scenario_dict(units, leaders, system=system)
        if terrain:
            data["terrain"] = [{"at": list(c), "type": t} for c, t in terrain.items()]
        return files.engine(data, rules=rules)

    return make


# --------------------------------------------------------------------------- 1. lone leader
# Seed 002: "A unit may move onto a hex with a friendly leader if the leader
# is alone in the hex. However, it must stop in that hex". Rivers on [5,5]
# and [7,5] leave [6,5] the only way north: [6,4] and [7,4] are reached only
# through it, [5,4] not at all in two.

RIVERS = {(5, 5): "river", (7, 5): "river"}
NORTH = disc(C, 2) - {(5, 5), (7, 5), (5, 4)}


@pytest.mark.parametrize("system", ["cca", "ccm"])
def test_light_foot_passes_a_friendly_unit_with_its_leader(build_t, turn, system):
    # Order Light Troops: light foot may pass through a friendly unit; the
    # leader attached to it is not alone, so the unit need not stop there.
    lf = "light_bow_infantry"
    eng = build_t([("u", "red", lf, list(C)), ("f", "red", "heavy_infantry", [6, 5])], [("fl", "red", [6, 5])],
                  terrain=RIVERS, system=system)
    assert dests(eng, OLT, "u") == NORTH - {(6, 5)}
    data = {"card": OLT, "orders": ["u"], "moves": [{"piece": "u", "path": [[6, 5], [6, 4]]}]}
    assert check(eng, turn, data) == []
    data["moves"] = [{"piece": "u", "to": [7, 4]}]
    assert check(eng, turn, data) == []


@pytest.mark.parametrize("system", ["cca", "ccm"])
def test_a_lone_leader_still_stops_the_unit(build_t, house, turn, system):
    units = [("u", "red", "light_bow_infantry", list(C))]
    leaders = [("ll", "red", [6, 5])]
    eng = build_t(units, leaders, terrain=RIVERS, system=system)
    # onto the lone leader's hex, but not beyond it
    assert dests(eng, OLT, "u") == NORTH - {(6, 4), (7, 4)}
    data = {"card": OLT, "orders": ["u"], "moves": [{"piece": "u", "path": [[6, 5], [6, 4]]}]}
    assert check(eng, turn, data) == [(f"{system}.move.stop-on-leader", ["u"])]
    # the rule removed: he no longer stops it
    removed = build_t(units, leaders, terrain=RIVERS, system=system,
                      rules=[house(f"remove rule {system}.move.stop-on-leader\n")])
    assert dests(removed, OLT, "u") == NORTH
    assert check(removed, turn, data) == []


# --------------------------------------------------------------------------- 2. one leader per hex
# hi at [6,6] with its attached leader L; a lone friendly leader l2 on [6,5].
# "Only one leader may occupy a hex": hi, carrying L, may not end on [6,5].

def _carrier(build_t, system="cca", rules=()):
    return build_t([("hi", "red", "heavy_infantry", list(C))], [("L", "red", list(C)), ("l2", "red", [6, 5])],
                   system=system, rules=rules)


@pytest.mark.parametrize("system", ["cca", "ccm"])
def test_a_unit_carrying_a_leader_may_not_end_on_another_leader(build_t, house, turn, system):
    eng = _carrier(build_t, system)
    assert dests(eng, SEC, "hi") == disc(C, 1) - {(6, 5)}
    ends = {frozenset((p.id, c) for p, c in e.items()) for e in end_positions(eng, eng.ground(SEC))}
    assert frozenset({("hi", (6, 5)), ("L", (6, 5))}) not in ends
    assert frozenset({("hi", (5, 5)), ("L", (5, 5))}) in ends
    # L detaches first (his own order) and goes elsewhere: then hi may join l2
    assert frozenset({("hi", (6, 5)), ("L", (7, 6))}) in ends
    # the turn, with L's move left implicit: the unit's move is the one judged
    data = {"card": SEC, "orders": ["hi"], "moves": [{"piece": "hi", "to": [6, 5]}]}
    assert check(eng, turn, data) == [(f"{system}.leader.one-per-hex", ["hi"])]
    # without the rule, every generator lists it
    removed = _carrier(build_t, system, rules=[house(f"remove rule {system}.leader.one-per-hex\n")])
    assert dests(removed, SEC, "hi") == disc(C, 1)
    assert check(removed, turn, data) == []


def test_a_unit_without_a_leader_may_join_a_lone_leader(build_t):
    eng = build_t([("hi", "red", "heavy_infantry", list(C))], [("l2", "red", [6, 5])])
    assert dests(eng, SEC, "hi") == disc(C, 1)


# --------------------------------------------------------------------------- 3. hills
# Reference §6: "hills block LOS except along the same connected hill (IMPL)".
# s (light bow infantry, range 3) on [6,6] shoots along row 6 at e on [9,6]:
# the line's intermediate hexes are [7,6] and [8,6].

HILL_ROW = {(6, 6): "hill", (7, 6): "hill", (8, 6): "hill", (9, 6): "hill"}
SHOOTER = [("s", "red", "light_bow_infantry", list(C)), ("e", "blue", "heavy_infantry", [9, 6])]
SHOT = {"card": SEC, "orders": ["s"], "battles": [{"piece": "s", "target": "e"}]}
NO_SHOT = [("cca.battle.in-reach", ["s"])]


@covers("cca.hill-sight")
def test_hills_block_sight_except_along_the_same_hill(build_t, house, turn):
    # along one hill, shooter and target on it: the hill does not block
    assert check(build_t(SHOOTER, terrain=HILL_ROW), turn, SHOT) == []
    # the target off the hill: the line is not along the hill, [7,6] [8,6] block
    assert check(build_t(SHOOTER, terrain={h: t for h, t in HILL_ROW.items() if h != (9, 6)}), turn, SHOT) == NO_SHOT
    # the shooter off the hill
    assert check(build_t(SHOOTER, terrain={h: t for h, t in HILL_ROW.items() if h != C}), turn, SHOT) == NO_SHOT
    # one hill hex between two hills that do not touch it along the line: [8,6] is plain
    assert check(build_t(SHOOTER, terrain={h: t for h, t in HILL_ROW.items() if h != (8, 6)}), turn, SHOT) == NO_SHOT
    # a unit standing on the hill still blocks
    assert check(build_t(SHOOTER + [("f", "red", "heavy_infantry", [7, 6])], terrain=HILL_ROW), turn, SHOT) == NO_SHOT
    # the define neutralised: any hill between blocks, as before the fix
    neutral = build_t(SHOOTER, terrain=HILL_ROW,
                      rules=[house("replace define cca.hill-sight clear_along(h, a, b) := false\n")])
    assert check(neutral, turn, SHOT) == NO_SHOT


# --------------------------------------------------------------------------- 4. attached leaders in turn files
# interface.md, "Attached leaders in a turn file (C&C)". The seed 002 PLAY
# NOTE board: hi with its attached leader L on [6,7], hc on [5,7]; enemies
# x [5,4] and y [6,5].

def _play_note(build_t, rules=(), leaders=()):
    return build_t([("hi", "red", "heavy_infantry", [6, 7]), ("hc", "red", "heavy_cavalry", [5, 7]),
                    ("x", "blue", "heavy_infantry", [5, 4]), ("y", "blue", "heavy_infantry", [6, 5])],
                   [("L", "red", [6, 7]), *leaders], rules=rules)


def test_attached_leader_in_a_turn_file(build_t, house, turn):
    eng = _play_note(build_t)
    base = {"card": SEC, "orders": ["hi"], "battles": [{"piece": "hi", "target": "y"}]}
    # not listed: he goes along
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}]}) == []
    # listed, to his unit's hex: accepted too
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 6]}]}) == []
    # listed elsewhere
    assert check(eng, turn, {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [7, 6]}]}) == [
        ("cca.attached-same-hex", ["L"])]
    # left behind (listed as staying on [6,7])
    behind = {**base, "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "L", "to": [6, 7]}]}
    assert check(eng, turn, behind) == [("cca.attached-moves-with-unit", ["L"])]
    # ... and left behind listed before his unit moves (a zero move is no detaching)
    early = {**base, "moves": [{"piece": "L", "to": [6, 7]}, {"piece": "hi", "to": [6, 6]}]}
    assert check(eng, turn, early) == [("cca.attached-moves-with-unit", ["L"])]
    # the rule removed: leaving him behind is no longer a violation
    removed = _play_note(build_t, rules=[house("remove rule cca.attached-moves-with-unit\n")])
    assert check(removed, turn, behind) == []


def test_the_implicit_leader_is_on_the_board(build_t, turn):
    # L goes along to [6,6] unlisted; the lone leader l3 [7,7] may not then
    # end there ("Only one leader may occupy a hex"), but may before hi moves
    eng = _play_note(build_t, leaders=[("l3", "red", [7, 7])])
    data = {"card": SEC, "orders": ["hi", "l3"],
            "moves": [{"piece": "hi", "to": [6, 6]}, {"piece": "l3", "to": [6, 6]}]}
    assert check(eng, turn, data) == [("cca.leader.one-per-hex", ["l3"])]
    data["moves"][1] = {"piece": "l3", "to": [7, 6]}
    assert check(eng, turn, data) == []


def test_an_ordered_attached_leader_goes_along_too(build_t, turn):
    # L has an order of his own but does not detach before hi moves: he
    # goes with it (seed 002), and need not be listed
    eng = _play_note(build_t)
    data = {"card": SEC, "orders": ["hi", "L"], "moves": [{"piece": "hi", "to": [6, 6]}]}
    assert check(eng, turn, data) == []


# --------------------------------------------------------------------------- 5. war machines
# Reference §4: "the heavy war machine is also missile-capable". m on [6,6].

WM_RANGE = ("replace unit heavy_war_machine { kind = foot; class = heavy; move = 1; battle_move = 0; "
            "ranged = true; range = 3; blocks = 2 }\n")
HEAVY = "Order Heavy Troops"


@covers("cca.default.war-machine-may-close-combat", "cca.battle.war-machines")
def test_war_machine_may_close_combat(build_t, house, turn):
    units = [("m", "red", "heavy_war_machine", list(C)), ("x", "blue", "heavy_infantry", [6, 5])]
    data = {"card": HEAVY, "orders": ["m"], "battles": [{"piece": "m", "target": "x"}]}
    assert check(build_t(units), turn, data) == []
    no = "replace define cca.default.war-machine-may-close-combat war_machine_may_close_combat(p) := false\n"
    assert check(build_t(units, rules=[house(no)]), turn, data) == [("cca.battle.war-machines", ["m"])]
    # the rule removed: the define no longer matters
    gone = build_t(units, rules=[house(no + "remove rule cca.battle.war-machines\n")])
    assert check(gone, turn, data) == []


@covers("cca.default.war-machine-may-fire")
def test_war_machine_may_fire(build_t, house, turn):
    units = [("m", "red", "heavy_war_machine", list(C)), ("t", "blue", "heavy_infantry", [6, 3])]
    data = {"card": HEAVY, "orders": ["m"], "battles": [{"piece": "m", "target": "t"}]}
    # the pack gives no range: no shot
    assert check(build_t(units), turn, data) == [("cca.battle.in-reach", ["m"])]
    # a range given by a house rule: it fires, by the default
    assert check(build_t(units, rules=[house(WM_RANGE)]), turn, data) == []
    no = "replace define cca.default.war-machine-may-fire war_machine_may_fire(p) := false\n"
    assert check(build_t(units, rules=[house(WM_RANGE + no)]), turn, data) == [("cca.battle.war-machines", ["m"])]
    gone = build_t(units, rules=[house(WM_RANGE + no + "remove rule cca.battle.war-machines\n")])
    assert check(gone, turn, data) == []
