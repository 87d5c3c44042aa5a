"""Check a proposed order set or turn: every violated rule, with its pieces.

A card may have several alternatives (its text, a fallback); a proposal is
legal if one of them admits it. When none does, the violations reported are
those of the alternative the proposal comes closest to (fewest violations).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field

from ..dsl.template import render as render_template
from .ground import Ctx, PieceView, Record
from .plan import Plan, PlannedRule
from .system import System


@dataclass
class Violation:
    rule: str
    pieces: list[str]
    message: str
    source: str
    quote: str
    origin: str = ""  # the rule file the rule came from

    def as_json(self) -> dict:
        return {
            "rule": self.rule,
            "pieces": self.pieces,
            "message": self.message,
            "source": self.source,
            "quote": self.quote,
        }


@dataclass
class Verdict:
    legal: bool
    violations: list[Violation] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"legal": self.legal, "violations": [v.as_json() for v in self.violations]}


def _piece_of(x):
    if isinstance(x, PieceView):
        return x
    get = getattr(x, "get_attr", None)
    p = get("piece") if get else None
    return p if isinstance(p, PieceView) else None


def _ids(xs) -> list[str]:
    out = [p.id for p in map(_piece_of, xs) if p is not None]
    return sorted(set(out))


def _message(r: PlannedRule, pieces: list[str], binding: dict | None) -> str:
    tmpl = r.decl.message
    if tmpl:
        values = {}
        for k, v in (binding or {}).items():
            p = _piece_of(v)
            values[k] = p.id if p is not None else str(v)
        values.setdefault("pieces", ", ".join(pieces))
        # rendered by warcouncil, never str.format: rule text is data
        return render_template(tmpl, values)
    who = ", ".join(pieces) if pieces else "the order set"
    return f"{who}: breaks {r.id}"


def violations_of(g, plan: Plan, alt, ctx: Ctx, rules, per_move=()) -> list[Violation]:
    """Every violation of ``rules``. Per-move rules are judged move by move,
    each against the board as it stood (``per_move``: (move, ctx) pairs)."""
    from .decompose import applies, move_rules

    by_rule = {mr.rule.id: mr for mr in move_rules(plan)}
    out: list[Violation] = []
    for r in rules:
        if r.kind == "true":
            continue
        mr = by_rule.get(r.id)
        if mr is not None:
            for m, mctx in per_move:
                if applies(mr, mctx, m) and not r.test(mctx, {r.var: m}):
                    pieces = _ids([m])
                    out.append(Violation(r.id, pieces, _message(r, pieces, {r.var: m}), r.source, r.quote, r.origin))
            continue
        if r.var is not None:
            # a forall rule: one violation per failing element
            failing = []
            for x in _sorted(r.domain(ctx, {})):
                if not r.test(ctx, {r.var: x}):
                    failing.append(x)
            for x in failing:
                pieces = _ids([x])
                out.append(Violation(r.id, pieces, _message(r, pieces, {r.var: x}), r.source, r.quote, r.origin))
            continue
        if r.full(ctx, {}):
            continue
        pieces = _ids(_explain(r, alt, ctx))
        out.append(Violation(r.id, pieces, _message(r, pieces, None), r.source, r.quote, r.origin))
    return out


def play_turn(g, plan: Plan, base: Ctx, turn):
    """Make the turn's moves one at a time. Returns the TurnView, the Ctx for
    rules about the whole turn, and (move, ctx-at-that-moment) pairs.

    The move and battle lists come in the order of the game system's
    ``turn_phases`` (C&C: first moves, then battles, judged on the board as
    the first moves left it, then second moves for Move-Fire-Move). A move given only by its
    destination gets a witness path: a legal one if there is one, otherwise
    the one that breaks the fewest rules.

    A piece the game system says a moving piece carries
    (``System.carried``; C&C: a leader standing in a unit's hex and given no
    move of his own, interface.md "Attached leaders in a turn file") goes
    along: its move, along the mover's path, is in the turn (``moves``,
    ``moved``, ``final``) but not judged on its own: the per-move rules
    judge the move that carries it."""
    from .state import BattleView, MoveView, Positions, TurnView

    state = Positions.initial(g.setting)
    done: list = []
    pairs = []
    battle_state = None
    system = g.setting.system or System
    # the turn's move lists (phase 1, 2, ...) and battle lists, in the
    # system's order (C&C: moves, battles, second moves)
    raw_moves, raw_battles, phase = [], [], 0
    for key in system.turn_phases:
        kind = system.turn_keys[key][0]
        given = getattr(turn, key, None) or ()
        if kind == "moves":
            phase += 1
            raw_moves += [(phase, m, raw_battles != []) for m in given]
        else:
            raw_battles.append(given)
    listed = {raw.get_attr("piece") for _, raw, _ in raw_moves}
    for i, (phase, raw, after_battles) in enumerate(raw_moves):
        if after_battles and battle_state is None:
            battle_state = state
        piece = raw.get_attr("piece")
        start = state.where.get(piece)
        ctx_i = Ctx(g, base.alt, base.ordered, base.orders, None, state.without(piece), tuple(done))
        path = raw.get_attr("path")
        to = tuple(raw.get_attr("to"))
        if path:
            m = MoveView(piece, start, path, i, phase=phase)
        elif to == start:
            continue  # listed as staying: no move (a piece that would be carried so listed stays behind)
        else:
            m = _witness(g, plan, ctx_i, piece, start, to, i, state, phase)
        pairs.append((m, ctx_i))
        done.append(m)
        carried = system.carried(state, piece, start, listed) if system is not None and m.to != start else ()
        state = state.moved(piece, m.to)
        for q in carried:
            done.append(MoveView(q, start, m.path, i, phase=phase))
            state = state.moved(q, m.to)
    if battle_state is None:
        battle_state = state
    battles = tuple(BattleView(b.get_attr("piece"), b.get_attr("target"), i)
                    for i, b in enumerate(b for given in raw_battles for b in given))
    tv = TurnView(done, battles)
    # each move is judged at its moment, knowing the whole turn (e.g. its battles)
    pairs = [(m, Ctx(g, c.alt, c.ordered, c.orders, tv, c.state, c.earlier)) for m, c in pairs]
    whole = Ctx(g, base.alt, base.ordered, base.orders, tv, battle_state, tuple(done))
    return tv, whole, pairs


def _witness(g, plan, ctx_i, piece, start, to, index, state, phase=1):
    from .decompose import applies, move_rules
    from .search import geometric_path, reach
    from .state import MoveView

    st_ctx = Ctx(g, ctx_i.alt, ctx_i.ordered, ctx_i.orders, None, state, ctx_i.earlier)
    r = reach(st_ctx, plan, piece, index, phase, first_only=True)
    if to in r.ends:
        k = min(r.ends[to])
        return MoveView(piece, start, r.path_to(to, k), index, phase=phase)
    # illegal: among short paths to `to`, the one breaking the fewest rules
    board = g.setting.board
    geo = geometric_path(board, start, to)
    candidates = [geo]
    if len(geo) <= 7 and board.contains(to):
        candidates = list(itertools.islice(_paths(board, start, to, len(geo) + 1), 20000)) or [geo]
    rules = move_rules(plan)

    def cost(path, limit):
        # rules broken, counting stops at `limit` (that path cannot win)
        m = MoveView(piece, start, path, index, phase=phase)
        n = 0
        for mr in rules:
            if applies(mr, ctx_i, m) and not mr.rule.test(ctx_i, {mr.var: m}):
                n += 1
                if n >= limit:
                    break
        return n

    # shortest first (stable: the same winner as min over (cost, length))
    best, best_key = None, None
    for path in sorted(candidates, key=len):
        if best_key is not None and best_key[0] == 0:
            break  # nothing beats a path that breaks no rule
        c = cost(path, best_key[0] if best_key is not None else len(rules) + 1)
        key = (c, len(path))
        if best_key is None or key < best_key:
            best, best_key = path, key
    return MoveView(piece, start, best, index, phase=phase)


def _paths(board, start, to, limit):
    """Simple paths from start to `to` of at most `limit` hexes entered
    (only steps that can still reach `to` in time are taken)."""
    nb = board.neighbours
    dist = board.distance

    def rec(c, path, seen):
        if c == to and path:
            yield tuple(path)
            return
        if len(path) >= limit:
            return
        for n in nb[c]:
            if n not in seen and len(path) + 1 + dist(n, to) <= limit:
                seen.add(n)
                path.append(n)
                yield from rec(n, path, seen)
                path.pop()
                seen.discard(n)

    yield from rec(tuple(start), [], {tuple(start)})


def _explain(r: PlannedRule, alt, ctx: Ctx):
    ordered = ctx.ordered
    if r.kind == "assignable" and alt is not None:
        charged = [p for p in ordered if r.charged is None or r.charged(ctx, p)]
        return alt.assign_problem(charged) or ordered
    if r.kind == "capacity" and r.charged is not None:
        return [p for p in ordered if r.charged(ctx, p)]
    if r.kind == "filled" and alt is not None:
        missing = set()
        for q in alt.quotas:
            if q.all:
                missing |= q.admitted - ordered
        return missing
    return ordered


def _sorted(xs):
    try:
        return sorted(xs, key=lambda v: getattr(v, "rank", 0) if not isinstance(v, Record) else 0)
    except TypeError:
        return list(xs)


def check(g, plan: Plan, orders: list[PieceView], turn=None) -> Verdict:
    """Judge an order set (and, with ``turn``, its moves and battles)."""
    counts = Counter(orders)
    ordered = frozenset(counts)
    rules = plan.order_rules + (plan.turn_rules if turn is not None else [])
    alts = g.alts or [None]
    best: list[Violation] | None = None
    for alt in alts:
        ctx = Ctx(g, alt, ordered, counts)
        pairs = ()
        if turn is not None:
            _, ctx, pairs = play_turn(g, plan, ctx, turn)
        vs = violations_of(g, plan, alt, ctx, rules, pairs)
        if not vs and alt is not None:
            return Verdict(True, [])
        if best is None or len(vs) < len(best):
            best = vs
    return Verdict(not best, best or [])
