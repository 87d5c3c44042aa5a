"""A move given only by its end hex that no legal path reaches gets as its
witness the path that breaks the fewest rules: among the first 20000
simple paths to the end of at most one hex more than a shortest path (or
the geometric path, when the end is far or off the board), sorted by
length, the first with the fewest broken per-move rules.

``check._witness`` makes the candidates length by length, lazily, and
stops as soon as no candidate left can beat the best; the reference here
makes them all and counts every rule by its body. They must pick the same
path, for every piece of a side and every end hex within five steps, with
house rules of the shapes the pack lacks (a path rule, a rule on whole
moves)."""

from __future__ import annotations

import random

import pytest

from test_check_parts import HOUSE
from warcouncil.solver.check import _candidate_groups, _paths, _witness
from warcouncil.solver.decompose import applies, move_rules
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx
from warcouncil.solver.search import geometric_path, reach
from warcouncil.kernel.state import MoveView, Positions


def reference_witness(g, plan, ctx, piece, start, to, index):
    board = g.setting.board
    geo = geometric_path(board, start, to)
    candidates = [geo]
    if len(geo) <= 7 and board.contains(to):
        candidates = _paths(board, start, to, len(geo) + 1, 20000) or [geo]

    def broken(path):
        m = MoveView(piece, start, path, index)
        return sum(1 for mr in move_rules(plan)
                   if applies(mr, ctx, m) and not mr.rule.test(ctx, {mr.var: m}))

    return min(sorted(candidates, key=len), key=lambda p: (broken(p), len(p)))  # (min: the first of the least)


@pytest.mark.parametrize("card,side,layers", [
    ("Order Light Troops", "syracusan", []),
    ("Order Three Units Left", "carthaginian", [str(HOUSE)]),
    ("Line Command", "syracusan", [str(HOUSE)]),
])
def test_the_witness_of_an_illegal_end_is_the_exhaustive_searchs(card, side, layers):
    eng = Engine.load("akragas", layers)
    plan = eng.plan
    g = eng.ground(card, side=side)
    board = g.setting.board
    initial = Positions.initial(g.setting)
    own = [p for p in g.setting.views if p.side == side][:10]
    ordered = frozenset(own[:6])
    rnd = random.Random(15)
    compared = lengths = 0
    for index, p in enumerate(own):
        ctx = Ctx(g, g.alts[0] if g.alts else None, ordered, None, None, initial.without(p), ())
        r = reach(Ctx(g, ctx.alt, ordered, None, None, initial, ()), plan, p, index, 1, first_only=True)
        ends = sorted(c for c in board.ball(p.at, 5) if c != p.at and c not in r.ends)
        for to in rnd.sample(ends, min(12, len(ends))) + [(p.at[0], -1)]:  # and an end off the board
            got = _witness(g, plan, ctx, p, p.at, to, index, initial)
            want = reference_witness(g, plan, ctx, p, p.at, to, index)
            assert got.path == want, (card, p.id, to)
            compared += 1
            lengths += len(want) > board.distance(p.at, to)
    assert compared > 100 and lengths > 0  # (some witnesses take the longer way round)


def test_candidates_length_by_length_are_the_sorted_paths():
    """The lazy candidates are ``_paths`` sorted by length, in the same
    order, for every pair of hexes within five steps of a few starts."""
    eng = Engine.load("akragas")
    board = eng.scenario.board
    rnd = random.Random(7)
    starts = rnd.sample(sorted(board.cells), 12)
    checked = 0
    for start in starts:
        for to in sorted(board.ball(start, 5)):
            if to == start:
                continue
            got = [list(group) for group in _candidate_groups(board, start, to)]
            geo = geometric_path(board, start, to)
            want = sorted(_paths(board, start, to, len(geo) + 1, 20000) or [geo], key=len)
            assert [p for group in got for p in group] == want, (start, to)
            assert all(len({len(p) for p in group}) == 1 for group in got)
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("card,side", [("Order Light Troops", "syracusan"), ("Line Command", "syracusan"),
                                       ("Order Three Units Left", "carthaginian")])
def test_the_witness_of_a_legal_end_is_the_searchs_shortest_path(card, side):
    """A legal end's witness is the search's path of the least length to it
    (``min(r.ends[to])``: read from the masks by length), for every piece of
    the side and every end the search finds."""
    eng = Engine.load("akragas", [str(HOUSE)])
    plan = eng.plan
    g = eng.ground(card, side=side)
    initial = Positions.initial(g.setting)
    own = [p for p in g.setting.views if p.side == side]
    ordered = frozenset(own[:6])
    checked = 0
    for index, p in enumerate(own):
        ctx = Ctx(g, g.alts[0] if g.alts else None, ordered, None, None, initial.without(p), ())
        r = reach(Ctx(g, ctx.alt, ordered, None, None, initial, ()), plan, p, index, 1, first_only=True)
        for to, lengths in sorted(r.ends.items()):
            if to == p.at:
                continue
            got = _witness(g, plan, ctx, p, p.at, to, index, initial)
            assert got.path == r.path_to(to, min(lengths)), (card, p.id, to)
            checked += 1
    assert checked > 20
