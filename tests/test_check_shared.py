"""Per-move rules whose domains have the same condition (``{x in moves
where x.piece.role == unit}``, the same formula and variable) share one
judgement of it per move (``check._by_rule``'s index, in
``violations_of`` and ``_witness``). The per-move violations must be those
of judging every rule alone by its body: with house rules whose domains
are the pack's formula under another variable, another formula on the same
variable, and the pack's formula again."""

from __future__ import annotations

import random

import pytest

from conftest import scratch_dir
from warcouncil.solver import check
from warcouncil.solver.decompose import applies, move_rules
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx, Record

TMP = scratch_dir("warcouncil-check-shared-")
HOUSE = TMP / "domains.wc"
HOUSE.write_text('''
rule house.units-short
    require forall m in {y in moves where y.piece.role == unit}: m.length <= 1
    message "{m}: units move one hex"

rule house.leaders-short
    require forall m in {x in moves where x.piece.role == leader}: m.length <= 1
    message "{m}: leaders move one hex"

rule house.foot-off-hills
    require forall m in {x in moves where x.piece.kind == foot}: terrain_at(m.to) != hill
    message "{m}: foot may not end on a hill"

rule house.units-again
    require forall m in {x in moves where x.piece.role == unit}: m.length <= 2
    message "{m}: units move two hexes"
''', encoding="utf-8")


def _reference(plan, pairs) -> list:
    """Every per-move rule judged alone, by its body, in the rules' order."""
    out = []
    for mr in move_rules(plan):
        for m, c in pairs:
            if applies(mr, c, m) and not mr.rule.test(c, {mr.var: m}):
                out.append((mr.rule.id, [m.piece.id]))
    return out


def test_equal_conditions_share_an_index():
    eng = Engine.load("akragas", [str(HOUSE)])
    table, n = check._by_rule(eng.plan)
    dk = {mr.rule.id: table[id(mr.rule)][2] for mr in move_rules(eng.plan)}
    assert dk["house.units-again"] == dk["cca.move.unit-allowance"] == dk["cca.move.no-enemy"]
    assert dk["house.units-short"] not in (dk["cca.move.unit-allowance"], None)  # (y, not x)
    assert len({dk["house.leaders-short"], dk["house.foot-off-hills"], dk["cca.move.unit-allowance"]}) == 3
    assert dk["cca.move.on-board"] is None  # (forall m in moves)
    assert n == len({v for v in dk.values() if v is not None})


@pytest.mark.parametrize("card,side", [
    ("Order Light Troops", "syracusan"),
    ("Order Three Units Left", "carthaginian"),
    ("Line Command", "syracusan"),
])
def test_per_move_violations_are_each_rules_own(card, side):
    """Turns of three moves (pieces and leaders, legal and not, some given
    by a path): ``violations_of``'s per-move violations against each rule
    judged alone."""
    eng = Engine.load("akragas", [str(HOUSE)])
    plan = eng.plan
    g = eng.ground(card, side=side)
    board = g.setting.board
    own = sorted((p for p in g.setting.views if p.side == side), key=lambda p: p.id)
    ids = {mr.rule.id for mr in move_rules(plan)}
    rnd = random.Random(21)
    compared = found = 0
    for _ in range(40):
        chosen = rnd.sample(own, 3)
        moves = []
        for p in chosen:
            ends = sorted(c for c in board.ball(p.at, 3) if c != p.at)
            to = rnd.choice(ends)
            path = ()
            if rnd.random() < 0.3:  # a path given: a straight walk there
                path = tuple(check._candidate_groups(board, p.at, to)[0])[0] \
                    if board.contains(to) else ()
            moves.append(Record(piece=p, to=to, path=path))
        ordered = frozenset(chosen)
        base = Ctx(g, g.alts[0] if g.alts else None, ordered, {p: 1 for p in ordered})
        _, ctx, pairs = check.play_turn(g, plan, base, Record(moves=tuple(moves), battles=(), second_moves=()))
        got = [(v.rule, v.pieces) for v in check.violations_of(g, plan, base.alt, ctx, plan.turn_rules, pairs)
               if v.rule in ids]
        assert got == _reference(plan, pairs)
        compared += 1
        found += len(got)
    assert compared == 40 and found > 40
