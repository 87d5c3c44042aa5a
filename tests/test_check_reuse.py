"""A move a turn gives by its end hex that no legal path reaches gets a
witness path, ranked by the per-move rules it breaks, judged at the moment
of the move before the turn is whole (``check._witness``). ``check`` takes
those verdicts for the chosen path instead of judging the rules again on
the turn's board (``play_turn``'s ``known``), but only for the rules that
read nothing of the whole turn (``check._turn_free``, from what each rule
reads): a rule that reads the turn's battles or moves, in its body, its
domain or a definition it hands the move to, may judge the witness
differently once the turn is whole, and is judged again.

The verdicts (rule ids, pieces, messages, sources, quotes, order) must be
those of the same check judging every rule again (``check._REUSE`` off),
on many illegal moves, with house rules of those shapes."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from conftest import scratch_dir
from test_check_parts import HOUSE as SHAPES
from warcouncil.solver import check
from warcouncil.solver.decompose import move_rules
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Record
from warcouncil.kernel.turn import load_turn

TMP = scratch_dir("warcouncil-check-reuse-")
TURN_HOUSE = TMP / "turn-reading.wc"
TURN_HOUSE.write_text('''
rule house.three-battles-short-moves
    require forall m in {x in moves where x.piece.role == unit}: count(battles) >= 3 implies m.length <= 2
    message "{m}: no long move in a turn of three battles"

rule house.battlers-move-one
    require forall m in {x in moves where count(battles_of(x.piece)) > 0}: m.length <= 1
    message "{m} battles after moving more than one hex"

define house.crowded-turn
    crowded(x) := x.length >= 2 and count(moves) >= 6

rule house.no-long-moves-in-crowded-turns
    require forall m in moves: not crowded(m)
    message "{m}: a long move in a turn of six moves"
''', encoding="utf-8")

TURN_READING = {"house.three-battles-short-moves", "house.battlers-move-one", "house.no-long-moves-in-crowded-turns"}

# bench_moves.py's illegal Light Troops turn: s2 (auxilia, 2 hexes) is given
# an end 3 hexes away (a witness), s7 fires after moving 2
ILLEGAL = Path(__file__).parent / "data" / "check" / "illegal_light_troops.yaml"


def _shown(v) -> list:
    return [(x.rule, x.pieces, x.message, x.source, x.quote, x.origin) for x in v.violations]


def _verdicts(eng, turn, monkeypatch):
    """(with reuse, without), each as the full list of what a violation says."""
    monkeypatch.setattr(check, "_REUSE", True)
    with_reuse = eng.check_turn(turn)
    monkeypatch.setattr(check, "_REUSE", False)
    without = eng.check_turn(turn)
    monkeypatch.setattr(check, "_REUSE", True)
    return with_reuse, without


def _known(eng, turn) -> dict:
    """``play_turn``'s verdicts taken from the witnesses: {piece id: {rule id: broken}}."""
    g = eng.ground(turn.card, side=turn.side)
    orders = eng.pieces(g, turn.orders, turn.orders_where)
    moves = tuple(Record(piece=eng.pieces(g, [m.piece], [m.where])[0], to=m.to, path=m.path) for m in turn.moves)
    battles = tuple(Record(piece=eng.pieces(g, [b.piece], [b.where])[0], target=eng.pieces(g, [b.target], [b.where])[0])
                    for b in turn.battles or ())
    known: dict = {}
    ordered = frozenset(orders)
    ctx = check.Ctx(g, g.alts[0] if g.alts else None, ordered, {p: 1 for p in ordered})
    check.play_turn(g, eng.plan, ctx, Record(moves=moves, battles=battles, second_moves=()), known)
    by_id = {id(mr): mr.rule.id for mr in move_rules(eng.plan)}
    return {m.piece.id: {by_id[k]: v for k, v in verdicts.items()} for m, verdicts in known.items()}


def test_the_witness_verdicts_are_taken_and_the_answer_is_the_same(monkeypatch):
    path = ILLEGAL
    eng = Engine.load("akragas")
    turn = load_turn(str(path), eng.scenario.board)
    known = _known(eng, turn)
    # s2's witness: every per-move rule judged on it, all but one reading nothing of the whole turn
    assert set(known) == {"s2"}
    assert known["s2"]["cca.move.unit-allowance"] is True
    assert sum(known["s2"].values()) == 1
    assert len(known["s2"]) >= 20
    with_reuse, without = _verdicts(eng, turn, monkeypatch)
    assert _shown(with_reuse) == _shown(without)
    assert [x.rule for x in with_reuse.violations] == [
        "cca.move.unit-allowance", "cca.battle.after-move", "cca.battle.in-reach"]


def test_rules_that_read_the_whole_turn_are_judged_again(monkeypatch):
    """The house rules hold on s2's witness before the turn is whole (no
    battles, no moves yet) and break once it is: taken from the witness,
    they would be missing."""
    path = ILLEGAL
    eng = Engine.load("akragas", [str(TURN_HOUSE)])
    by_id = {mr.rule.id: mr for mr in move_rules(eng.plan)}
    # (the pack's own read at most the moment: `earlier`, `moved_before`, where the pieces stand)
    assert {i for i, mr in by_id.items() if not check._turn_free(eng.plan, mr)} == TURN_READING
    turn = load_turn(str(path), eng.scenario.board)
    known = _known(eng, turn)
    assert not TURN_READING & set(known["s2"])
    with_reuse, without = _verdicts(eng, turn, monkeypatch)
    assert _shown(with_reuse) == _shown(without)
    got = [(x.rule, x.pieces) for x in with_reuse.violations]
    assert ("house.three-battles-short-moves", ["s2"]) in got
    assert ("house.battlers-move-one", ["s7"]) in got  # (s7's move is legal: found by the search, no witness)
    assert ("house.no-long-moves-in-crowded-turns", ["s2"]) in got


def test_taking_every_witness_verdict_would_be_wrong(monkeypatch):
    """The test above can fail: with every rule taken for turn-free, the
    house rules' verdicts on s2 come from the witness, and are wrong."""
    path = ILLEGAL
    eng = Engine.load("akragas", [str(TURN_HOUSE)])
    turn = load_turn(str(path), eng.scenario.board)
    memo = eng.plan.compiler.pack_memo
    saved = memo.pop(("check-witness-rules",), None)
    monkeypatch.setattr(check, "_turn_free", lambda plan, mr: True)
    try:
        wrong, right = _verdicts(eng, turn, monkeypatch)
    finally:
        memo.pop(("check-witness-rules",), None)
        if saved is not None:
            memo[("check-witness-rules",)] = saved
    missing = {(r, tuple(p)) for r, p, *_ in _shown(right)} - {(r, tuple(p)) for r, p, *_ in _shown(wrong)}
    assert missing == {
        ("house.three-battles-short-moves", ("s2",)), ("house.no-long-moves-in-crowded-turns", ("s2",))}


@pytest.mark.parametrize("card,side,layers", [
    ("Order Light Troops", "syracusan", [str(TURN_HOUSE)]),
    ("Order Three Units Left", "carthaginian", [str(SHAPES), str(TURN_HOUSE)]),
    ("Line Command", "syracusan", [str(SHAPES)]),
])
def test_many_illegal_ends_judged_as_without_reuse(card, side, layers, tmp_path, monkeypatch):
    """Turns of two moves and two battles, the second move to an end no
    legal path reaches (a witness, sometimes the longer way round), for
    every piece of the side: the verdicts with and without reuse."""
    eng = Engine.load("akragas", layers)
    g = eng.ground(card, side=side)
    board = g.setting.board
    own = sorted((p for p in g.setting.views if p.side == side and p.role == "unit"), key=lambda p: p.id)
    enemy = sorted((p for p in g.setting.views if p.side != side and p.role == "unit"), key=lambda p: p.id)
    rnd = random.Random(15)
    compared = reused = broken = turn_read = 0
    for i, p in enumerate(own):
        other = own[(i + 1) % len(own)]
        _, dests = eng.destinations(g, [p.id, other.id])
        there = sorted(dests.get(other.id, {})) or [other.at]
        ends = sorted(c for c in board.ball(p.at, 4) if c != p.at and c not in dests.get(p.id, {})
                      and not any(q.at == c for q in g.setting.views))
        for to in rnd.sample(ends, min(3, len(ends))):
            text = (f"card: {card}\nside: {side}\norders: [{other.id}, {p.id}]\nmoves:\n"
                    f"  - {{piece: {other.id}, to: {list(rnd.choice(there))}}}\n"
                    f"  - {{piece: {p.id}, to: {list(to)}}}\n"
                    f"battles:\n  - {{piece: {p.id}, target: {enemy[0].id}}}\n"
                    f"  - {{piece: {other.id}, target: {enemy[1].id}}}\n")
            path = tmp_path / f"turn-{p.id}-{to[0]}-{to[1]}.yaml"
            path.write_text(text, encoding="utf-8")
            turn = load_turn(str(path), board)
            with_reuse, without = _verdicts(eng, turn, monkeypatch)
            assert _shown(with_reuse) == _shown(without), (card, p.id, to)
            assert with_reuse.as_json() == without.as_json()
            compared += 1
            reused += bool(_known(eng, turn))
            broken += len(with_reuse.violations)
            turn_read += sum(x.rule in TURN_READING for x in with_reuse.violations)
    assert compared > 20 and reused > 10 and broken > compared
    assert (turn_read > 0) == (str(TURN_HOUSE) in layers)


def _carried_by_scan(state, piece, start, listed):
    # the definition: every piece standing on the hex, in the order of ``where``
    if piece.role != "unit" or start is None:
        return []
    return [p for p, c in state.where.items()
            if c == start and p is not piece and p.role != "unit" and p.side == piece.side and p not in listed]


def test_carried_leaders_read_from_what_stands_on_the_hex():
    """``carried`` reads the hex's occupants (``Positions.on``) instead of
    scanning every piece: the same pieces, in the same order, on the
    positions a turn goes through, crowded ones too (two pieces of one role
    on a hex, then ``on`` shows one: the scan is used)."""
    from warcouncil.kernel.state import Positions
    from warcouncil.systems.cc.system import CommandsAndColors

    eng = Engine.load("akragas")
    g = eng.ground("Line Command", side="syracusan")
    views = sorted(g.setting.views, key=lambda p: p.id)
    leaders = [p for p in views if p.role != "unit"]
    cells = sorted(g.setting.board.cells)
    rnd = random.Random(3)
    initial = Positions.initial(g.setting)
    seen = crowded = 0
    for step in range(200):
        state = initial
        for _ in range(rnd.randint(1, 3)):
            p = rnd.choice(views)
            # mostly onto a leader's hex, where carrying happens
            to = rnd.choice(leaders).at if rnd.random() < 0.5 else rnd.choice(cells)
            state = state.moved(p, to)
        crowded += state.crowded
        for q in views:
            start = state.where.get(q)
            for listed in (frozenset(), frozenset(leaders), frozenset(leaders[::2])):
                want = _carried_by_scan(state, q, start, listed)
                assert CommandsAndColors.carried(state, q, start, listed) == want
                seen += bool(want) and not state.crowded
    assert seen > 50 and 0 < crowded < 150
