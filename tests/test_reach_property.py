"""The move generator against the rules themselves, on random boards.

``movement.reach`` is fast because it does not judge walks one by one: it
splits the per-move rules into hex, end and bound parts, keeps static parts
as per-setting cell sets, evaluates the parts that read a hex only through
what stands there once per class of hexes, and caches the clean ones by the
attributes of the moving piece (``Compiler.move_use``: ``local``, ``clean``).
Here every walk of up to four hexes from the mover is judged by the per-move
rules' own formulas, compiled afresh from the pack (no decomposition, no
cache), and the legal (end hex, length) pairs must be exactly what ``reach``
finds, for random pieces, terrain, cards and movers (units and lone leaders).
The same check runs in positions other than the one before the turn (after
a first move, with it in ``earlier``; with a piece lifted off), where the
generator derives its hex sets from the parent position's and judges what
reads the moment per search.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from warcouncil.dsl import ast as A
from warcouncil.dsl.pack import load_pack
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.ground import Ctx
from warcouncil.kernel.scenario import load_scenario
from warcouncil.solver.search import reach
from warcouncil.kernel.state import MoveView, Positions

from conftest import scenario_dict, scratch_dir

TMP = scratch_dir("warcouncil-reach-")
# House rules with the shapes the shipped pack lacks: an end part that fails
# on plain hexes (clean, reads the length), hex parts that read the order
# set (local, not clean; one fails on plain hexes) and one that reads the
# hexes around (not local).
HOUSE = TMP / "shapes.wc"
HOUSE.write_text('''
rule house.long-moves-end-on-hills
    require forall m in {x in moves where x.piece.role == unit}: m.length >= 2 implies terrain_at(m.to) == hill
    message "{m}: a long move ends on a hill"

rule house.no-entering-ordered-units
    require forall m in moves: forall h in m.path: not (unit_on(h) != none and unit_on(h) in ordered)
    message "{m} enters an ordered unit's hex"

rule house.ordered-leaders-step-on-pieces
    require forall m in {x in moves where x.piece.role == leader}: forall h in m.path: unit_on(h) != none or leader_on(h) != none or not (m.piece in ordered)
    message "{m}: an ordered leader steps only onto pieces"

rule house.keep-off-elephants
    require forall m in {x in moves where x.piece.kind != mounted}: forall h in m.path: not (exists e in enemy_units: e.type == elephant and adjacent(h, e))
    message "{m} comes next to an enemy elephant"
''', encoding="utf-8")
PACKS = {"cca": load_pack("cca"), "cca+house": load_pack("cca", [str(HOUSE)])}
PACK = PACKS["cca"]
CENTRE = (6, 4)
AROUND = sorted({(c, r) for r in range(1, 8) for c in range(3, 10)} - {CENTRE})
UNIT_TYPES = sorted(PACK.units)
TERRAIN = ["forest", "hill", "broken_ground", "marsh", "river", "ford"]
CARDS = ["Order Two Units Center", "Order Light Troops", "Double Time", "Mounted Charge", "Line Command",
         "Move-Fire-Move"]
DEPTH = 4  # no allowance in the pack exceeds four hexes


def walks(board, start, depth):
    """Every walk (hexes entered, revisits allowed) of 1..depth steps."""
    level = [()]
    for _ in range(depth):
        nxt = []
        for w in level:
            here = w[-1] if w else start
            for n in board.neighbours[here]:
                nxt.append(w + (n,))
        yield from nxt
        level = nxt


def naive_ends(eng, g, piece, ordered, state=None, earlier=(), index=0):
    """{(end hex, length)} of the walks that every per-move rule allows,
    judged by the rules' formulas compiled from the pack's AST.

    ``state`` (a ``Positions``; None: where the pieces stand before the
    turn) and ``earlier`` (the moves made before) are the moment of the
    move, ``index`` its index. Only where the pieces stand is taken from
    ``state``: the position the rules see is built afresh from it (no
    parent, no memo), with the moving piece lifted off, as in ``reach``."""
    from warcouncil.kernel.evaluate import Compiler

    c = Compiler(eng.pack)  # a fresh compiler: no memo, no analysis shared with the engine
    rules = []
    for r in eng.plan.turn_rules:
        body = r.decl.body
        if not (isinstance(body, A.Quant) and body.kind == "forall"):
            continue
        dom = body.domain
        if isinstance(dom, A.Name) and dom.id == "moves":
            cond = None
        elif isinstance(dom, A.SetComp) and isinstance(dom.domain, A.Name) and dom.domain.id == "moves":
            cond = (c.compile(dom.cond), dom.var) if dom.cond is not None else None
        else:
            continue
        rules.append((cond, c.compile(body.body), body.var))
    where = {p: p.at for p in g.setting.views} if state is None else dict(state.where)
    start = where[piece]
    state = Positions(where).without(piece)
    ctx = Ctx(g, g.alts[0] if g.alts else None, ordered, None, None, state, tuple(earlier))
    out = set()
    for w in walks(g.setting.board, start, DEPTH):
        m = MoveView(piece, start, w, index)
        if all((cond is not None and not cond[0](ctx, {cond[1]: m})) or test(ctx, {var: m})
               for cond, test, var in rules):
            out.add((w[-1], len(w)))
    return out


@st.composite
def boards(draw):
    cells = draw(st.lists(st.sampled_from(AROUND), unique=True, min_size=0, max_size=14))
    units, leaders, terrain = [], [], {}
    for i, cell in enumerate(cells):
        what = draw(st.sampled_from(["own unit", "enemy unit", "own leader", "enemy leader", "terrain"]))
        side = "red" if what.startswith("own") else "blue"
        if what.endswith("unit"):
            units.append((f"u{i}", side, draw(st.sampled_from(UNIT_TYPES)), list(cell)))
        elif what.endswith("leader"):
            leaders.append((f"l{i}", side, list(cell)))
        else:
            terrain[cell] = draw(st.sampled_from(TERRAIN))
    mover = draw(st.sampled_from(UNIT_TYPES + ["leader"]))
    if mover == "leader":
        leaders.append(("mover", "red", list(CENTRE)))
    else:
        units.append(("mover", "red", mover, list(CENTRE)))
    if draw(st.booleans()):
        terrain[CENTRE] = draw(st.sampled_from(["forest", "hill", "broken_ground", "marsh", "ford"]))
    return units, leaders, terrain, draw(st.sampled_from(CARDS)), draw(st.sampled_from(sorted(PACKS)))


_count = iter(range(10**9))


def engine(units, leaders, terrain, pack):
    data = scenario_dict(units, leaders)
    data["terrain"] = [{"at": list(c), "type": t} for c, t in terrain.items()]
    p = TMP / f"scenario{next(_count)}.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return Engine(load_scenario(str(p)), PACKS[pack])


def ends_of(ctx, eng, piece, index=0):
    return {(cell, k) for cell, ks in reach(ctx, eng.plan, piece, index).ends.items() for k in ks}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
# a light foot unit passes its friend u1 on Order Light Troops; the cavalry
# searched after it on the same grounding may not, and the enemies beside u1
# leave it no way round as short
@example(([("mover", "red", "light_infantry", [6, 4]), ("u1", "red", "heavy_infantry", [7, 4]),
           ("u2", "red", "light_cavalry", [8, 4]), ("e1", "blue", "heavy_infantry", [7, 3]),
           ("e2", "blue", "heavy_infantry", [7, 5])], [], {}, "Order Light Troops", "cca"))
# ordered leaders of the house rules step only onto pieces
@example(([("u1", "red", "heavy_infantry", [5, 4]), ("u2", "blue", "heavy_infantry", [7, 4])],
          [("mover", "red", [6, 4]), ("l3", "red", [6, 5])], {}, "Order Two Units Center", "cca+house"))
def test_reach_is_what_the_rules_allow(case):
    units, leaders, terrain, card, pack = case
    eng = engine(units, leaders, terrain, pack)
    g = eng.ground(card)
    s = g.setting
    # the mover and up to three more own pieces, searched one after the other
    # on the same grounding (so on warm caches), each against the rules; then
    # each again, as a repeated query (a plain search then reads its prepared
    # masks straight from the position's memo: ``movement._PlainFast``)
    movers = [s.by_id["mover"]] + [p for p in s.items if p.id != "mover"][:3]
    for piece in movers + movers:
        ctx = Ctx(g, g.alts[0] if g.alts else None, frozenset(movers))
        assert ends_of(ctx, eng, piece) == naive_ends(eng, g, piece, frozenset(movers)), piece.id


def _pick(seq, i):
    return seq[i % len(seq)]


# choices of the test below: the first mover, its end, its length, which
# three other own pieces are searched, the piece lifted off, and which
# position is searched first (so on caches warmed by the other)
CHOICES = st.tuples(*[st.integers(0, 255)] * 5, st.booleans())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), CHOICES)
# a leader moves onto a friendly unit first (end 21: (6, 5)): that unit is
# joined and may not move (``earlier``)
@example(([("u1", "red", "heavy_infantry", [6, 5]), ("u2", "red", "light_cavalry", [7, 5])],
          [("mover", "red", [6, 4])], {}, "Order Two Units Center", "cca"), (2, 21, 0, 0, 0, False))
# a unit moves onto a lone leader's hex first (end 20: (6, 5)): the leader
# is joined and may not move alone
@example(([("mover", "red", "heavy_cavalry", [6, 4]), ("u1", "blue", "heavy_infantry", [6, 1])],
          [("l1", "red", [6, 5])], {}, "Mounted Charge", "cca"), (0, 20, 0, 0, 1, True))
def test_reach_after_a_first_move_is_what_the_rules_allow(case, choices):
    """``reach`` in a position other than the one before the turn: the
    generator then derives its per-position hex sets (``CleanCells``) from
    the parent position's, re-judging only the changed hexes, and judges
    the conditions that read the moment (the moves made before, where the
    pieces stand) per search instead of once (``at_start`` False). Both
    positions here are derived ones, as in ``turns.py``: after a first move
    (``moved``, with that move in ``earlier``, the next move's index 1, as
    ``_Turns.move_ok``), and with one piece lifted off (``derive``, no
    earlier moves, as ``_Turns.superset``); each search must find what the
    rules' own formulas allow in that same moment."""
    units, leaders, terrain, card, pack = case
    i_first, i_end, i_len, i_rest, i_lift, after_first = choices
    eng = engine(units, leaders, terrain, pack)
    g = eng.ground(card)
    s = g.setting
    alt = g.alts[0] if g.alts else None
    own = list(s.items)
    first = _pick(own, i_first)
    rest = [p for p in own if p is not first]
    if rest:
        k = i_rest % len(rest)
        rest = (rest[k:] + rest[:k])[:3]
    ordered = frozenset([first] + rest)
    base = Positions.initial(s)

    def after_a_move(i_end):
        ends = reach(Ctx(g, alt, ordered), eng.plan, first).ends
        if not ends:
            return
        end = _pick(sorted(ends), i_end)
        k = _pick(ends[end], i_len)
        state = base.moved(first, end)
        assert state.parent is base and state.where[first] == end
        earlier = (MoveView(first, first.at, None, 0, to=end, length=k),)
        ctx = Ctx(g, alt, ordered, None, None, state, earlier)
        for p in rest:
            assert ends_of(ctx, eng, p, 1) == naive_ends(eng, g, p, ordered, state, earlier, 1), \
                (p.id, "after", first.id, end, k)

    def one_lifted():
        lifted = _pick(s.views, i_lift)
        state = base.derive({lifted: None})
        assert state.parent is base and state.where[lifted] is None
        ctx = Ctx(g, alt, ordered, None, None, state, ())
        for p in [first] + rest:
            if p is not lifted:
                assert ends_of(ctx, eng, p) == naive_ends(eng, g, p, ordered, state), (p.id, "without", lifted.id)

    # the first mover to two of its ends (the next one too, in order), one
    # after the other: what a search fixes for one moment must not be reused
    # in another (the searches after each share the pieces, starts and index)
    if after_first:
        after_a_move(i_end)
        one_lifted()
    else:
        one_lifted()
        after_a_move(i_end)
    after_a_move(i_end + 1)


def test_how_the_cca_move_rules_use_their_hex():
    """What the analysis finds in the shipped pack's per-move rules: the
    parts the generator may judge once per class of hexes (clean: cached by
    the piece's attributes read; local only: within one search; a pack
    fact: by card, terrain and attributes, on every board)."""
    from warcouncil.solver.decompose import move_rules
    from warcouncil.solver.plan import plan_for

    plan = plan_for(PACK)
    c = plan.compiler
    found = {}
    for mr in move_rules(plan):
        for p in mr.parts:
            if p.kind in ("enter", "pass"):
                use = c.move_use(p.ast, mr.var, p.hvar)
            elif p.kind == "end":
                use = c.move_use(p.ast, mr.var)
            else:
                continue
            found[(mr.rule.id, p.kind)] = (use.clean, use.local, use.piece_attrs, "length" in use.move_attrs, use.context,
                                           use.pack_fact)
    assert found == {
        ("cca.move.on-board", "enter"): (True, True, (), False, False, False),
        ("cca.move.no-enemy", "enter"): (True, True, ("side",), False, False, False),
        # "or passes_friends(m.piece)" is a waiver judged before the move
        ("cca.move.no-friendly-unit", "pass"): (True, True, ("side",), False, False, False),
        ("cca.move.one-unit-per-hex", "end"): (True, True, (), False, False, False),
        ("cca.move.stop-on-leader", "pass"): (True, True, ("side",), False, False, False),
        # next to an enemy: the hexes around the end, not only the end
        ("cca.move.warrior-charge", "end"): (False, False, ("side",), True, False, False),
        ("cca.leader.no-enemy", "enter"): (True, True, ("side",), False, False, False),
        ("cca.leader.one-per-hex", "end"): (True, True, (), False, False, False),
        # where the leader's unit stands now: not the end hex's occupants
        ("cca.leader.detach-before-unit-moves", "end"): (False, False, ("at", "side"), False, False, False),
        ("cca.terrain.impassable", "enter"): (True, True, (), False, False, True),
        ("cca.terrain.forest-stops", "pass"): (True, True, (), False, False, True),
        ("cca.terrain.broken-ground-stops", "pass"): (True, True, (), False, False, True),
        ("cca.terrain.marsh-stops", "pass"): (True, True, (), False, False, True),
        ("cca.terrain.ford-stops", "pass"): (True, True, (), False, False, True),
        ("cca.terrain.war-machines", "enter"): (True, True, (), False, False, True),
    }
    battle = c.move_use(A.Call("may_battle", (A.Name("m"),)), "m")
    assert (battle.clean, battle.piece_attrs, battle.move_attrs, battle.context, battle.pack_fact) == (
        True, ("battle_move", "kind", "type"), ("length", "phase"), True, True)


def _remainders(eng, g, piece, at_start=True):
    """What the profile of ``piece``'s move leaves to each search, as text:
    [(kind, what, [gates])] (``movement._Profile``)."""
    from warcouncil.dsl.unparse import expr

    c = eng.plan.compiler
    # (a remainder holding a piece of the setting's is kept in the setting's memo, the others in the pack's)
    back = {v[0]: k[1] for memo in (c.pack_memo, g.setting.memo) for k, v in memo.items()
            if isinstance(k, tuple) and k[0] == "residual"}
    prof = next(v for k, v in g.setting.memo.items()
                if isinstance(k, tuple) and k[0] == "move-profile" and k[2] is piece and k[-1] is at_start)
    out = []
    for gates, kind, payload, var in prof.residual:
        what = expr(back[payload[0]]) if kind == "piece" else payload if kind == "bound" else \
            f"{payload[0].kind}: {expr(payload[0].ast)}"
        out.append((kind, what, [("" if wanted else "not ") + expr(back[f]) for f, v, wanted in gates]))
    return prof, out


def test_what_a_move_profile_leaves_to_each_search(akragas):
    """The conditions known before a move are partially evaluated once per
    piece, start and card: what the card, the board and the piece fix is
    worked out, and so is what reads only the moment when the piece moves
    first. On Akragas (Order Two Units Left, Carthaginians), a unit's search
    asks only whether it is ordered; hannibal_mago, attached to c12, whether
    he is ordered or goes with c12, and whether he moves alone (his
    allowance of 3 and broken ground's stop apply only then)."""
    eng = akragas
    g = eng.ground("Order Two Units Left", side="carthaginian")
    s = g.setting
    c8, c12, hm = (s.by_id[i] for i in ("c8", "c12", "hannibal_mago"))
    ctx = Ctx(g, g.alts[0], frozenset([c8, hm]))
    for p in (c8, c12, hm):
        reach(ctx, eng.plan, p)
    prof, rest = _remainders(eng, g, c8)
    assert rest == [("piece", "c8 in ordered", [])] and prof.light and not prof.blocked
    assert _remainders(eng, g, c12)[1] == [("piece", "c12 in ordered", [])]
    alone = "not (c12 in ordered and not hannibal_mago in ordered)"
    assert _remainders(eng, g, hm)[1] == [
        ("piece", "hannibal_mago in ordered or c12 in ordered and not hannibal_mago in ordered", []),
        ("bound", 3, [alone]),
        ("pass", "pass: terrain_at(h) != broken_ground", [alone]),
    ]
    # after a first move the moment is no longer fixed: "once per turn" and
    # "a unit a leader just joined moves no further" are judged per search
    first = MoveView(hm, hm.at, None, 0, to=(9, 1), length=1)
    later = Ctx(g, g.alts[0], frozenset([c8, hm]), None, None, Positions.initial(s).moved(hm, (9, 1)), (first,))
    reach(later, eng.plan, c8, 1)
    prof, rest = _remainders(eng, g, c8, at_start=False)
    assert rest == [
        ("piece", "c8 in ordered", []),
        ("piece", "not (exists e in earlier: e.piece == ·move.piece and e.phase == ·move.phase)", []),
        # (issue 11) a unit carrying a leader may not end on another leader:
        # whether one stands in c8's hex now is a fact of the moment
        ("end", "end: leader_on(m.to) == none", ["leader_on((10, 1)) != none"]),
        ("piece", "not (exists e in earlier: moving_alone(e) and e.to == ·move.start)", []),
    ]
    assert not prof.light
