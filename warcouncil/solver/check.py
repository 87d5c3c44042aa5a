"""Check a proposed order set or turn: every violated rule, with its pieces.

A card may have several alternatives (its text, a fallback); a proposal is
legal if one of them admits it. When none does, the violations reported are
those of the alternative the proposal comes closest to (fewest violations).
"""

from __future__ import annotations

import importlib
import itertools
from collections import Counter
from dataclasses import dataclass, field
from functools import partial

from ..dsl import ast as A
from ..dsl.template import render as render_template
from ..kernel.ground import Ctx, PieceView, Record
from .plan import Plan, PlannedRule
from ..kernel.state import BattleView, MoveView, Positions, TurnView, attrs
from ..kernel.system import System


def _late(module: str, name: str):
    """``module.name``, imported when first called, then kept (the module is
    not imported with this one; an import statement run on every call would
    cost a microsecond)."""
    fn = None

    def call(*args, **options):
        nonlocal fn
        if fn is None:
            fn = getattr(importlib.import_module(module, __package__), name)
        return fn(*args, **options)

    return call


_move_rules = _late(".decompose", "move_rules")
_reach = _late(".search", "reach")


@dataclass
class Violation:
    rule: str
    pieces: list[str]
    message: str
    source: str
    quote: str
    origin: str = ""  # the rule file the rule came from

    @classmethod
    def rendered_later(cls, rule: str, pieces: list[str], make_message, source: str, quote: str,
                       origin: str = "") -> Violation:
        """A violation whose message is rendered when it is first read
        (``make_message()``, once): the same text, made only if asked for
        (a caller that wants only the verdict never renders it)."""
        v = cls.__new__(cls)
        v.__dict__.update(rule=rule, pieces=pieces, source=source, quote=quote, origin=origin,
                          _make_message=make_message)
        return v

    def __getattr__(self, name: str):
        # only called for an attribute not set: the message of ``rendered_later``, rendered now
        if name == "message":
            make = self.__dict__.pop("_make_message", None)
            if make is not None:
                text = self.__dict__["message"] = make()
                return text
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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


def _message(r: PlannedRule, pieces: tuple[str, ...], binding: dict | None) -> str:
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


def violations_of(g, plan: Plan, alt, ctx: Ctx, rules, per_move=(), known=None) -> list[Violation]:
    """Every violation of ``rules``. Per-move rules are judged move by move,
    each against the board as it stood (``per_move``: (move, ctx) pairs).
    ``known``: move -> {id of a per-move rule: broken} for verdicts already
    judged on that very move in a context that differs from its pair's only
    in what the rule does not read (``play_turn``: a witness's, judged
    before the turn was whole): taken as they are, not judged again."""
    by_rule, n_domains = _by_rule(plan)
    out: list[Violation] = []
    domains: dict = {}  # id -> (a domain, sorted): one the rules share (``ordered``, ``battles``) sorted once
    # each move with the verdicts already judged on it (or None), and whether
    # each condition of the rules' domains applies to it (None: not judged yet)
    moves = [(m, c, known.get(m) if known else None, [None] * n_domains) for m, c in per_move]
    for r in rules:
        if r.kind == "true":
            continue
        hit = by_rule.get(id(r))
        if hit is not None and hit[0].rule is r:
            mr, parts, dk = hit
            dc, cv = mr.domain_cond, mr.cond_var  # (decompose.applies, inlined)
            key = id(mr)
            for m, mctx, verdicts, applying in moves:
                broken = verdicts.get(key) if verdicts is not None else None
                if broken is None:
                    if dk is not None:
                        a = applying[dk]
                        if a is None:
                            a = applying[dk] = bool(dc(mctx, {cv: m}))
                        if not a:
                            continue
                    broken = not _holds(mr, parts, mctx, m)
                if broken:
                    pieces = _ids([m])
                    out.append(Violation.rendered_later(r.id, pieces, partial(_message, r, tuple(pieces), {r.var: m}),
                                                        r.source, r.quote_for(_piece_of(m)), r.origin))
            continue
        if r.var is not None:
            # a forall rule: one violation per failing element
            failing = []
            test, var, env = r.test, r.var, {}
            xs = r.domain(ctx, {})
            hit = domains.get(id(xs))
            if hit is not None and hit[0] is xs:
                elements = hit[1]
            else:
                elements = _sorted_domain(g, r, xs)
                domains[id(xs)] = (xs, elements)
            for x in elements:
                env[var] = x  # (one dict for the elements: a closure never keeps the env it is given)
                if not test(ctx, env):
                    failing.append(x)
            for x in failing:
                pieces = _ids([x])
                out.append(Violation.rendered_later(r.id, pieces, partial(_message, r, tuple(pieces), {r.var: x}),
                                                    r.source, r.quote_for(_piece_of(x)), r.origin))
            continue
        if r.full(ctx, {}):
            continue
        pieces = _ids(_explain(r, alt, ctx))
        out.append(Violation.rendered_later(r.id, pieces, partial(_message, r, tuple(pieces), None),
                                            r.source, r.quote, r.origin))
    return out


def _by_rule(plan: Plan) -> tuple[dict, int]:
    """({id of a planned rule: (its per-move rule (``decompose.MoveRule``),
    its parts as ``_holds`` judges them, the index of its domain's
    condition or None)}, how many conditions), made once per plan (a
    caller checks that the entry's rule is the one it holds).

    Rules whose domains have the same condition (``{x in moves where
    x.piece.role == unit}``: the same formula and variable, wherever it is
    written) share one index: whether it applies to a move is judged once
    for them all."""
    rules = _move_rules(plan)
    hit = plan.compiler.pack_memo.get(("check-by-rule",))
    if hit is None or hit[0] is not rules:
        index: dict = {}
        table = {}
        for mr in rules:
            dk = None
            if mr.domain_cond is not None:
                try:
                    dk = index.setdefault((mr.cond_var, mr.rule.body.domain.cond), len(index))
                except TypeError:  # (a formula that cannot be hashed: its own index)
                    dk = index[id(mr)] = len(index)
            table[id(mr.rule)] = (mr, _judges(plan, mr), dk)
        hit = plan.compiler.pack_memo[("check-by-rule",)] = (rules, (table, len(index)))
    return hit[1]


class _HexMemo:
    """How ``_holds`` judges one clean hex part of a per-move rule
    (``Compiler.move_use``: it reads the hex only through what stands there,
    its terrain and the board, and otherwise only the piece's and the move's
    attributes, the setting and the card): its value on a hex is kept in the
    setting's memo by what stands there, the terrain (and the hex itself
    when the part reads the board's shape), the attributes read and the
    card, as ``cells.CleanCells`` keeps it for the search."""

    __slots__ = ("piece_attrs", "move_attrs", "context", "by_hex")

    def __init__(self, use):
        self.piece_attrs, self.move_attrs = use.piece_attrs, use.move_attrs
        self.context, self.by_hex = use.context, use.setting


def _judges(plan: Plan, mr):
    """The parts of a per-move rule as ``_holds`` judges them, made once per
    plan: for each part (``decompose.Part``) a tuple of what ``_holds`` reads
    of it: (for a hex part the move's attribute it goes through, ``path`` or
    ``through``, else None; its guard; its test; its hex variable; its
    waiver; for a bound fixed before the move its bound, else None; a
    ``_HexMemo`` or None). None: the rule is judged by its body."""
    memo = plan.compiler.pack_memo
    key = ("check-parts", mr.rule.id)
    hit = memo.get(key)
    if hit is not None and hit[0] is mr:
        return hit[1]
    if not _attrs_only(mr.rule.body.body, mr.var):
        memo[key] = (mr, None)  # judged by the body's closure
        return None
    out = []
    for part in mr.parts:
        hm = None
        if part.kind in ("enter", "pass") and part.ast is not None:
            use = plan.compiler.move_use(part.ast, mr.var, part.hvar)
            if use.clean:
                hm = _HexMemo(use)
        hexes = {"enter": "path", "pass": "through"}.get(part.kind)
        bound = part.bound_expr if part.kind == "bound" and getattr(part.bound_expr, "static", False) else None
        out.append((hexes, part.guard, part.test, part.hvar, part.waiver, bound, hm))
    memo[key] = (mr, out)
    return out


def _reads_path(plan: Plan, mr) -> bool:
    """Does the per-move rule's verdict on a move depend on its path beyond
    its length and end (``m.path``, ``m.through``, or the move handed on whole)?"""
    memo = plan.compiler.pack_memo
    key = ("check-reads-path", mr.rule.id)
    hit = memo.get(key)
    if hit is not None and hit[0] is mr:
        return hit[1]
    body = mr.rule.body.body
    v = not _attrs_only(body, mr.var) or any(
        isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.id == mr.var and n.name in ("path", "through")
        for n in A.walk(body))
    memo[key] = (mr, v)
    return v


def _turn_free(plan: Plan, mr) -> bool:
    """Does the per-move rule's verdict on a move (whether it applies, and
    whether it holds) read nothing of the whole turn (the builtins declared
    ``reads turn``: the turn's moves and battles, ``moved``, ``final`` ...),
    in its body, its domain's condition, or the definitions they call? Then
    it is the same whether the turn is known or not (``play_turn`` judges a
    witness before the turn is whole: a ``Ctx`` without it, the same
    otherwise). Worked out from what the rule reads (``Compiler.dynamic_reads``)."""
    memo = plan.compiler.pack_memo
    key = ("check-turn-free", mr.rule.id)
    hit = memo.get(key)
    if hit is not None and hit[0] is mr:
        return hit[1]
    c = plan.compiler
    whole_turn = c.vocabulary.whole_turn
    q = mr.rule.body  # forall VAR in DOMAIN: BODY (``move_rules``)
    reads = set(c.dynamic_reads(q.body, frozenset((q.var,))))
    if mr.cond_var is not None:
        reads |= c.dynamic_reads(q.domain.cond, frozenset((mr.cond_var,)))
    v = not (reads & whole_turn)
    memo[key] = (mr, v)
    return v


def _attrs_only(body, var: str) -> bool:
    """Does ``body`` read the move ``var`` only through attributes written
    out (``m.to``, ``m.piece``), never handing the move itself to a
    definition or a builtin? Then what ``decompose`` sorts by the attributes
    written (a part about the piece, fixed before the move) is exactly that."""
    inside = {id(n.obj) for n in A.walk(body) if isinstance(n, A.Attr)}
    return all(id(n) in inside for n in A.walk(body) if isinstance(n, A.Name) and n.id == var)


def _holds(mr, parts, ctx: Ctx, m) -> bool:
    """Does move ``m`` keep the per-move rule ``mr`` (its domain applying)?
    The rule's body judged part by part (``decompose``: the body is the
    conjunction of its parts), so that what the parts fix before a move (a
    guard, a bound, a condition of the piece) is read from the memos the
    move search fills, and a clean hex part is judged once per class of
    hexes (``_HexMemo``). The same truth value as the body's closure."""
    var = mr.var
    env = {var: m}
    if parts is None:
        return bool(mr.rule.test(ctx, env))
    for hexes_of, guard, test, hvar, waiver, bound, hm in parts:
        if guard is not None and not guard(ctx, env):
            continue
        if hexes_of is not None:  # a hex part: ``forall h in m.path`` (or ``m.through``)
            hexes = m.get_attr(hexes_of)
            if not hexes:
                continue
            if hm is not None and ctx.state is not None:
                g = ctx.g
                setting = g.setting
                memo, on, terrain = setting.memo, ctx.state.on, setting.terrain
                pa, ma = hm.piece_attrs, hm.move_attrs
                head = (hm, attrs(m.piece, pa) if pa else (), attrs(m, ma) if ma else (),
                        g.compiler.fixed_key(g) if hm.context else None)
                by_hex = hm.by_hex
                inner = None
                for h in hexes:
                    k = (head, on.get(h), terrain.get(h), h if by_hex else None)
                    v = memo.get(k)
                    if v is None:
                        if inner is None:
                            inner = dict(env)
                        inner[hvar] = h
                        v = memo[k] = bool(test(ctx, inner))
                    if not v:
                        break
                else:
                    continue
            else:
                inner = dict(env)
                for h in hexes:
                    inner[hvar] = h
                    if not test(ctx, inner):
                        break
                else:
                    continue
            # a hex fails: the rule holds only if the waiver does (``forall h in P: A(h) or B``)
            if waiver is not None and waiver(ctx, env):
                continue
            return False
        if bound is not None:  # ``m.length <= E``, E fixed before the move
            try:
                b = bound(ctx, env)
            except TypeError:  # (`m.length < E`, E not a number: the comparison says what)
                b = None
            a = m.length
            if type(a) is int and type(b) is int:
                if a <= b:
                    continue
                return False
            # (anything but two whole numbers: the comparison itself, with its errors)
        if not test(ctx, env):
            return False
    return True


def play_turn(g, plan: Plan, base: Ctx, turn, known=None):
    """Make the turn's moves one at a time. Returns the TurnView, the Ctx for
    rules about the whole turn, and (move, ctx-at-that-moment) pairs.

    The move and battle lists come in the order of the game system's
    ``turn_phases`` (C&C: first moves, then battles, judged on the board as
    the first moves left it, then second moves for Move-Fire-Move). A move given only by its
    destination gets a witness path: a legal one if there is one, otherwise
    the one that breaks the fewest rules.

    A move listed to the hex the piece stands on is no move (the piece
    stays), unless the piece is listed more than once in the phase: then it
    is a move of no hexes, judged like any other (a piece moves once),
    except where the game system lets that listing repeat
    (``System.may_repeat``; C&C: an attached leader listed to his unit's hex).

    A piece the game system says a moving piece carries
    (``System.carried``; C&C: a leader standing in a unit's hex and given no
    move of his own, interface.md "Attached leaders in a turn file") goes
    along: its move, along the mover's path, is in the turn (``moves``,
    ``moved``, ``final``) but not judged on its own: the per-move rules
    judge the move that carries it.

    ``known``, if given, is filled with the verdicts the witnesses judged
    that stand for the turn's moves (move -> {id of a per-move rule:
    broken}: ``_witness``), for ``violations_of``."""
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
    times = Counter((phase, raw.get_attr("piece")) for phase, raw, _ in raw_moves)
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
        elif to == start and (times[phase, piece] == 1 or system.may_repeat(state, piece, start)):
            continue  # listed as staying: no move (a piece that would be carried so listed stays behind)
        elif to == start:  # listed again in the phase: a move (of no hexes), judged ("moves twice")
            m = MoveView(piece, start, (), i, phase=phase)
        else:
            judged = {} if known is not None else None
            m = _witness(g, plan, ctx_i, piece, start, to, i, state, phase, judged)
            if judged:
                known[m] = judged
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


def _witness(g, plan, ctx_i, piece, start, to, index, state, phase=1, judged=None):
    """The move of ``piece`` from ``start`` to ``to`` a turn gives by its
    end: a legal path if there is one, otherwise the one breaking the
    fewest per-move rules (judged in ``ctx_i``: the moment of the move,
    without the whole turn). ``judged``, if given, is filled with the
    verdicts judged on the very move returned that cannot differ once the
    turn is whole ({id of a per-move rule: broken}, only rules that read
    nothing of the whole turn: ``_turn_free``), for ``violations_of``."""
    st_ctx = Ctx(g, ctx_i.alt, ctx_i.ordered, ctx_i.orders, None, state, ctx_i.earlier)
    r = _reach(st_ctx, plan, piece, index, phase, first_only=True)
    board = g.setting.board
    at = board.index.get(to)
    if at is not None:
        # the least length a move to `to` may have (``min(r.ends[to])``, read from the masks
        # by length without listing every end)
        bit = 1 << at
        for k, mask in enumerate(r.end_masks):
            if mask & bit:
                return MoveView(piece, start, r.path_to(to, k), index, phase=phase)
    # illegal: among short paths to `to`, the one breaking the fewest rules
    groups = _candidate_groups(board, start, to)
    # the rules that read the path (not only its length, its end, the
    # piece...) are judged on every candidate; the others once per length.
    # Each (rule, its parts, whether its verdict stands once the turn is whole)
    # (and the index of its domain's condition: ``_by_rule``)
    rules = _move_rules(plan)
    table, n_domains = _by_rule(plan)
    hit = plan.compiler.pack_memo.get(("check-witness-rules",))
    if hit is None or hit[0] is not rules:
        items = [(mr, parts, _turn_free(plan, mr), dk) for mr, parts, dk in (table[id(mr.rule)] for mr in rules)]
        hit = plan.compiler.pack_memo[("check-witness-rules",)] = (
            rules, [it for it in items if _reads_path(plan, it[0])], [it for it in items if not _reads_path(plan, it[0])])
    by_path, by_length = hit[1], hit[2]
    broken_by_length: dict = {}
    judged_at: dict = {}  # length -> (the path the rules of by_length were judged on, {id(mr): broken})
    # whether a rule applies to the move is the same on every candidate: a
    # per-move rule's domain never reads where the move goes (``move_rules``)
    # (and rules with the same condition share its verdict: ``_by_rule``)
    applying = [None] * n_domains
    order = by_length  # the rules a shorter length broke first: they likely break again
    keep = judged is not None
    last = None  # (the move cost() made last, its by_path verdicts)

    def breaks(item, m):
        mr, parts, _, dk = item
        if dk is not None:
            a = applying[dk]
            if a is None:
                a = applying[dk] = bool(mr.domain_cond(ctx_i, {mr.cond_var: m}))  # (decompose.applies)
            if not a:
                return False
        return not _holds(mr, parts, ctx_i, m)

    def cost(path, limit):
        # rules broken, counting stops at `limit` (that path cannot win; the
        # order the rules are counted in does not matter)
        nonlocal order, last
        last = None
        n = broken_by_length.get(len(path))
        if n is not None and n >= limit:
            return limit
        m = MoveView(piece, start, path, index, phase=phase)
        if n is None:
            # counted up to `limit` only: the limits that follow are no higher
            n = 0
            broke = []
            seen = {} if keep else None
            for item in order:
                b = breaks(item, m)
                if keep and item[2]:
                    seen[id(item[0])] = b
                if b:
                    broke.append(item)
                    n += 1
                    if n >= limit:
                        break
            broken_by_length[len(path)] = n
            if keep:
                judged_at[len(path)] = (path, seen)
            if broke:
                first = {id(item) for item in broke}
                order = broke + [item for item in order if id(item) not in first]
        if n >= limit:
            return limit
        own = {} if keep else None
        last = (m, own)
        for item in by_path:
            b = breaks(item, m)
            if keep and item[2]:
                own[id(item[0])] = b
            if b:
                n += 1
                if n >= limit:
                    break
        return n

    def chosen(path, made):
        if made is None:
            return MoveView(piece, start, path, index, phase=phase)
        m, own = made
        if keep:
            at = judged_at.get(len(path))
            if at is not None and at[0] is path:  # (judged on this very path)
                judged.update(at[1])
            judged.update(own)
        return m

    # shortest first (stable: the same winner as min over (cost, length));
    # once a path's length breaks as many rules as the best path, no other
    # path of that length can win: they are not made
    best, best_key, best_made = None, None, None
    for length_paths in groups:
        for path in length_paths:
            c = cost(path, best_key[0] if best_key is not None else len(rules) + 1)
            key = (c, len(path))
            if best_key is None or key < best_key:
                best, best_key, best_made = path, key, last
            if best_key[0] == 0:
                return chosen(best, best_made)  # nothing beats a path that breaks no rule
            if broken_by_length[len(path)] >= best_key[0]:
                break  # (counted up to the best at most: then at least as many)
    return chosen(best, best_made)


_PATHS_MOST = 20000  # candidate paths of an illegal move given by its end
_DEGREE = {"hex": 6, "square": 4}  # most neighbours of a cell (``Board.neighbours``)


def _candidate_groups(board, start, to):
    """The candidate paths of a move from ``start`` to ``to`` that breaks a
    rule, in runs of one length, shortest first: the first ``_PATHS_MOST``
    simple paths of at most one hex more than a shortest path
    (``_paths``), or the geometric path alone when ``to`` is far or off the
    board, sorted by length (stably). Made lazily, length by length, when
    the paths are too few to reach ``_PATHS_MOST`` (so the first that many
    are all of them): ``_witness`` mostly needs only the first length and
    the first path of the next."""
    from .search import geometric_path  # (once per illegal move given by its end)

    start, to = tuple(start), tuple(to)
    degree = _DEGREE.get(board.grid)
    if degree is not None and start != to and board.contains(to) and start in board.neighbours:
        d = board.distance(start, to)  # a lower bound of the steps (a hex or a square a step)
        limit = d + 1
        # the simple paths of at most `limit` steps from `start`, whatever their end, are at most
        # degree * (degree - 1) ** (i - 1) of each length i
        if d <= 7 and sum(degree * (degree - 1) ** (i - 1) for i in range(1, limit + 1)) < _PATHS_MOST:
            to_go: dict = {}  # hex -> its distance to `to` (shared)
            first = _exact_paths(board, start, to, d, to_go)
            head = next(first, None)
            if head is not None:  # a shortest path is d steps: what geometric_path's breadth first search finds
                return [itertools.chain([head], first), _exact_paths(board, start, to, limit, to_go)]
    geo = geometric_path(board, start, to)
    candidates = [geo]
    if len(geo) <= 7 and board.contains(to):
        candidates = _paths(board, start, to, len(geo) + 1, _PATHS_MOST) or [geo]
    return [list(g) for _, g in itertools.groupby(sorted(candidates, key=len), key=len)]


def _exact_paths(board, start, to, length, to_go):
    """The simple paths from ``start`` to ``to`` of exactly ``length`` hexes
    entered, in the order ``_paths`` lists them (depth first, neighbours in
    the board's order; a path ends at ``to``), made one at a time.
    ``to_go``: hex -> its distance to ``to``, filled as needed."""
    nb = board.neighbours
    dist = board.distance
    path: list = []
    seen = {start}
    stack = [iter(nb[start])]
    while stack:
        for n in stack[-1]:
            if n in seen:
                continue
            d = to_go.get(n)
            if d is None:
                d = to_go[n] = dist(n, to)
            k = len(path) + 1
            if k + d > length:
                continue
            if n == to:
                if k == length:
                    yield (*path, n)
                continue
            path.append(n)
            seen.add(n)
            stack.append(iter(nb[n]))
            break
        else:
            stack.pop()
            if path:
                seen.discard(path.pop())


def _paths(board, start, to, limit, most):
    """The first ``most`` simple paths from start to `to` of at most `limit`
    hexes entered, depth first (only steps that can still reach `to` in
    time are taken)."""
    nb = board.neighbours
    dist = board.distance
    to_go: dict = {}  # hex -> its distance to `to`
    out: list = []
    path: list = []
    seen = {tuple(start)}

    def rec(c):
        if c == to and path:
            out.append(tuple(path))
            return len(out) >= most
        if len(path) >= limit:
            return False
        for n in nb[c]:
            d = to_go.get(n)
            if d is None:
                d = to_go[n] = dist(n, to)
            if n not in seen and len(path) + 1 + d <= limit:
                seen.add(n)
                path.append(n)
                full = rec(n)
                path.pop()
                seen.discard(n)
                if full:
                    return True
        return False

    rec(tuple(start))
    return out


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


def _sorted_domain(g, r: PlannedRule, xs):
    """``_sorted(xs)``; a domain the setting keeps (the same object on
    every query, such as a side's pieces) is sorted once per rule."""
    memo = g.setting.memo
    key = ("check-sorted-domain", r.id)
    hit = memo.get(key)
    if hit is not None and hit[0] is xs:
        return hit[1]
    out = _sorted(xs)
    if isinstance(xs, frozenset) and len(out) > 8:
        memo[key] = (xs, out)  # (one entry per rule: a domain made afresh replaces it)
    return out


def _sorted(xs):
    try:
        return sorted(xs, key=lambda v: getattr(v, "rank", 0) if not isinstance(v, Record) else 0)
    except TypeError:
        return list(xs)


#: take the verdicts a witness judged (``play_turn``'s ``known``) instead of
#: judging them again; off only to compare (tests/test_check_reuse.py)
_REUSE = True


def check(g, plan: Plan, orders: list[PieceView], turn=None) -> Verdict:
    """Judge an order set (and, with ``turn``, its moves and battles)."""
    counts = Counter(orders)
    ordered = frozenset(counts)
    rules = plan.order_rules + (plan.turn_rules if turn is not None else [])
    alts = g.alts or [None]
    best: list[Violation] | None = None
    for alt in alts:
        ctx = Ctx(g, alt, ordered, counts)
        pairs, known = (), {}
        if turn is not None:
            _, ctx, pairs = play_turn(g, plan, ctx, turn, known if _REUSE else None)
        vs = violations_of(g, plan, alt, ctx, rules, pairs, known)
        if not vs and alt is not None:
            return Verdict(True, [])
        if best is None or len(vs) < len(best):
            best = vs
    return Verdict(not best, best or [])
