"""``check`` judges a per-move rule part by part (``check._holds``: the
guards, bounds and conditions of the piece read from the memos the move
search fills, clean hex parts once per class of hexes); the verdict must be
the rule body's own, on every move. Checked on Akragas with house rules of
the shapes the shipped pack lacks, one of which hands the move whole to a
definition that reads its length (then only the body can say)."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_reach_property import walks as reach_walks
from conftest import scratch_dir
from warcouncil.solver.check import _holds, _judges, _reads_path
from warcouncil.solver.decompose import applies, move_rules
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx
from warcouncil.kernel.state import MoveView, Positions

TMP = scratch_dir("warcouncil-check-parts-")
HOUSE = TMP / "shapes.wc"
HOUSE.write_text('''
rule house.long-moves-end-on-hills
    require forall m in {x in moves where x.piece.role == unit}: m.length >= 3 implies terrain_at(m.to) == hill
    message "{m}: a long move ends on a hill"

rule house.no-entering-ordered-units
    require forall m in moves: forall h in m.path: not (unit_on(h) != none and unit_on(h) in ordered)
    message "{m} enters an ordered unit's hex"

rule house.keep-off-the-edge
    require forall m in moves: forall h in m.through: on_board(h) and not (unit_on(h) != none and unit_on(h).side != m.piece.side)
    message "{m} passes the edge or an enemy"

define house.short
    short(x) := x.length <= 3

rule house.short-moves
    require forall m in {x in moves where x.piece.role == unit}: short(m)
    message "{m}: too long"
''', encoding="utf-8")

CARDS = ["Order Three Units Left", "Order Light Troops", "Line Command", "Double Time"]


def walks(board, start, depth):
    """Every walk of 1..depth hexes (revisits allowed), and a step off the board."""
    yield from reach_walks(board, start, depth)
    yield ((start[0], -1),)  # off the board


@pytest.mark.parametrize("card", CARDS)
def test_parts_judge_as_the_body(card):
    eng = Engine.load("akragas", [str(HOUSE)])
    plan = eng.plan
    rules = move_rules(plan)
    assert {mr.rule.id for mr in rules} >= {"house.short-moves", "house.keep-off-the-edge"}
    by_id = {mr.rule.id: mr for mr in rules}
    assert _judges(plan, by_id["house.short-moves"]) is None  # the move handed whole: the body judges
    assert _judges(plan, by_id["house.keep-off-the-edge"]) is not None
    assert _reads_path(plan, by_id["house.keep-off-the-edge"]) and _reads_path(plan, by_id["house.short-moves"])
    assert not _reads_path(plan, by_id["cca.move.unit-allowance"])
    judged = differ = 0
    for side in ("syracusan", "carthaginian"):
        g = eng.ground(card, side=side)
        initial = Positions.initial(g.setting)
        own = [p for p in g.setting.views if p.side == side][:8]
        ordered = frozenset(own[:3])
        for index, p in enumerate(own):
            ctx = Ctx(g, g.alts[0] if g.alts else None, ordered, None, None, initial.without(p), ())
            for w in walks(g.setting.board, p.at, 3):
                m = MoveView(p, p.at, w, index)
                for mr in rules:
                    if not applies(mr, ctx, m):
                        continue
                    want = bool(mr.rule.test(ctx, {mr.var: m}))
                    # twice: the second reads what the first kept
                    for _ in range(2):
                        got = _holds(mr, _judges(plan, mr), ctx, m)
                        assert got is want, (card, p.id, w, mr.rule.id)
                    judged += 1
                    differ += not want
    assert judged > 1000 and differ > 100  # moves both kept and broken


def test_derived_positions_as_made_afresh():
    """``Positions.derive`` works out the occupants from its parent's; they
    must be those made afresh from where the pieces stand, also when two
    pieces of one role meet on a hex (a turn that breaks the rules) and
    after they part again."""
    import random

    eng = Engine.load("akragas")
    g = eng.ground("Order Three Units Left", side="syracusan")
    views = list(g.setting.views)
    cells = sorted({p.at for p in views}) + [(0, 0), (6, 4), (12, 8)]
    rnd = random.Random(15)
    crowded = 0
    for _ in range(300):
        pos = Positions.initial(g.setting)
        for _ in range(8):
            movers = rnd.sample(views, rnd.choice((1, 1, 2)))
            changes = {p: (None if rnd.random() < 0.05 else rnd.choice(cells)) for p in movers}
            pos = pos.derive(changes)
            fresh = Positions(dict(pos.where), roles=pos.roles)
            assert pos.on == fresh.on
            assert pos.crowded == fresh.crowded
            crowded += fresh.crowded
    assert crowded > 50


SHORT = TMP / "short.wc"
SHORT.write_text('''
define house.short
    short(x) := x.length <= 1

rule house.short-moves
    require forall m in {x in moves where x.piece.role == unit}: short(m)
    message "{m}: too long"
''', encoding="utf-8")


def test_a_move_handed_whole_to_a_definition():
    """A per-move rule that hands the move whole to a definition reading its
    length (``short(m)``) limits the move search as it limits ``check``: the
    light cavalry s1 (4 hexes on its own) goes one hex, and a two-hex move
    given by its end or its path is illegal. (Before, the search took
    ``short(m)`` for a fact of the piece, judged once with no length.)"""
    eng = Engine.load("akragas", [str(SHORT)])
    g = eng.ground("Order Light Troops", side="syracusan")
    s1 = g.setting.by_id["s1"]
    legal, dests = eng.destinations(g, ["s1"])
    assert legal
    board = g.setting.board
    assert set(dests["s1"]) == {c for c in board.neighbours[s1.at] if c not in {p.at for p in g.setting.views}}
    base = "card: Order Light Troops\nside: syracusan\norders: [s1]\nmoves:\n  - {piece: s1, %s}\n"
    from warcouncil.kernel.turn import load_turn

    for i, (move, ok) in enumerate([("to: [1, 6]", True), ("to: [1, 5]", False), ("path: [[1, 6], [1, 5]]", False)]):
        path = TMP / f"short-turn{i}.yaml"
        path.write_text(base % move, encoding="utf-8")
        v = eng.check_turn(load_turn(str(path), eng.scenario.board))
        assert v.legal is ok, move
        assert ok or [x.rule for x in v.violations] == ["house.short-moves"]
