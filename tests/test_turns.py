"""Whole-turn end positions: the constraint model against brute force.

`end_positions` decides sequencing by dynamic programming over the set of
pieces already moved and solves independent groups separately. Here every
order set is played out by brute force — every order of the moves, every
destination legal at that moment, staying put included — and the distinct
end positions must be exactly the same.
"""

from __future__ import annotations

import itertools

import pytest
import yaml

from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx
from warcouncil.solver.search import reach
from warcouncil.kernel.state import MoveView, Positions
from warcouncil.systems.cc.turns import _Turns, end_positions


def _engine(tmp_path, units, leaders=(), terrain=(), command=4):
    data = {
        "system": "cca", "board": "cca",
        "sides": {"red": {"edge": "south", "command": command}, "blue": {"edge": "north", "command": 4}},
        "to_move": "red",
        "units": [{"id": i, "side": s, "type": t, "at": list(a)} for i, s, t, a in units],
        "leaders": [{"id": i, "side": s, "at": list(a)} for i, s, a in leaders],
        "terrain": [{"at": list(a), "type": t} for a, t in terrain],
    }
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data))
    return Engine.load(str(path))


def brute_force(eng, g):
    seen = set()
    enum = eng.enumerator(g)
    for s in enum.order_sets():
        alt = next(a.alt for a in enum.alts if a.legal(s))
        followers = _Turns(eng, g, s, alt).followers
        for order in itertools.permutations(sorted(s, key=lambda p: p.rank)):
            _play(eng, g, alt, frozenset(s), list(order), Positions.initial(g.setting), [], {}, followers, seen)
    return seen


def _play(eng, g, alt, ordered, todo, state, earlier, ends, followers, seen):
    if not todo:
        seen.add(frozenset((p.id, c) for p, c in ends.items()))
        return
    p, rest = todo[0], todo[1:]
    # p stays put
    _play(eng, g, alt, ordered, rest, state, earlier, ends, followers, seen)
    ctx = Ctx(g, alt, ordered, None, None, state, tuple(earlier))
    for cell in reach(ctx, eng.plan, p, len(earlier)).ends:
        if cell == state.where[p]:
            continue
        st = state.moved(p, cell)
        new_ends = dict(ends)
        new_ends[p] = cell
        for l in followers.get(p, ()):
            st = st.moved(l, cell)
            new_ends[l] = cell
        m = MoveView(p, state.where[p], None, len(earlier), to=cell, length=1)
        _play(eng, g, alt, ordered, rest, st, earlier + [m], new_ends, followers, seen)


def fast(eng, g):
    return {frozenset((p.id, c) for p, c in e.items()) for e in end_positions(eng, g)}


BOARDS = {
    # three units packed together: moves open and close each other's paths
    "packed": dict(units=[("a", "red", "heavy_infantry", (5, 7)), ("b", "red", "light_infantry", (6, 7)),
                          ("c", "red", "medium_cavalry", (5, 8)), ("e", "blue", "warrior", (5, 5))]),
    # a lone leader a unit may stop on, and an attached leader who can detach
    "leaders": dict(units=[("a", "red", "auxilia", (5, 7)), ("b", "red", "heavy_cavalry", (7, 7)),
                           ("e", "blue", "medium_infantry", (6, 5))],
                    leaders=[("la", "red", (5, 7)), ("lb", "red", (6, 6))]),
    # terrain in the way
    "terrain": dict(units=[("a", "red", "light_cavalry", (5, 7)), ("b", "red", "warrior", (6, 7))],
                    terrain=[((5, 6), "forest"), ((6, 6), "broken_ground"), ((7, 6), "river")]),
}


@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("card", ["Order Two Units Center", "Order Three Units Center"])
def test_end_positions_equal_brute_force(tmp_path, board, card):
    eng = _engine(tmp_path, **BOARDS[board])
    g = eng.ground(card)
    expected = brute_force(eng, g)
    got = fast(eng, g)
    assert got == expected
    assert len(got) == sum(1 for _ in end_positions(eng, g))  # no position twice


def test_far_apart_units_multiply(tmp_path):
    # two units whose reach cannot touch: the positions are the product
    eng = _engine(tmp_path, units=[("a", "red", "heavy_infantry", (1, 7)), ("b", "red", "heavy_infantry", (11, 7))])
    g = eng.ground("Order Heavy Troops")
    da = eng.destinations(g, ["a"])[1]["a"]
    db = eng.destinations(g, ["b"])[1]["b"]
    assert len(fast(eng, g)) == (len(da) + 1) * (len(db) + 1)
    assert fast(eng, g) == brute_force(eng, g)


def test_no_movement_cards_have_one_end_position(tmp_path):
    eng = _engine(tmp_path, units=[("a", "red", "light_infantry", (5, 7)), ("e", "blue", "warrior", (5, 6))])
    for card in ("Clash of Shields", "Darken the Sky", "First Strike"):
        g = eng.ground(card)
        assert fast(eng, g) == {frozenset()}
