"""Moves: judged one at a time on the board as it stands; generated from the rules.

A move record (``MoveView``) has ``piece``, ``start``, ``path`` (the hexes
entered, in order), ``through`` (the path but its last hex), ``to`` and
``length``. A *per-move rule* is a rule over the moves::

    rule ... require forall m in moves: BODY
    rule ... require forall m in {x in moves where GUARD(x.piece)}: BODY

and each of its moves is judged against ``Positions`` — where every piece
stands at that moment (``unit_on``, ``leader_on``, ``position``), with the
moves made so far (``earlier``).

To *generate* legal destinations, the planner decomposes BODY into parts the
search can use (``decompose``):

* ``forall h in m.path: ψ(h)``     every hex entered must satisfy ψ;
* ``forall h in m.through: φ(h)``  every hex passed through (not the last);
* ``m.length <= E``                a bound on the search depth;
* anything about ``m.to``/``m.length`` only: judged at each candidate end;
* anything about neither (the piece, the moment): judged once per search;
* ``G implies C`` with G about the piece only: C applies when G holds;
* anything else: judged on whole paths (the search then enumerates paths).

The search walks states (hex, steps) over the board's precomputed
adjacency: a hex is entered only if every ψ holds, left only if every φ
holds, and is a destination if every end condition holds for that length.
No path finder is hand-coded for any game: the rules say what blocks, what
stops and how far.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..dsl import ast as A
from .evaluate import referenced_names
from .ground import Ctx, PieceView


class Positions:
    """Where each piece stands at one moment of a turn (never changed once made)."""

    __slots__ = ("where", "unit_on", "leader_on", "_occupied")

    def __init__(self, where: dict, unit_on: dict | None = None, leader_on: dict | None = None):
        self.where = where
        self._occupied = None
        if unit_on is not None and leader_on is not None:
            self.unit_on, self.leader_on = unit_on, leader_on
            return
        self.unit_on = {}
        self.leader_on = {}
        for p, c in where.items():
            if c is None:
                continue
            (self.unit_on if p.role == "unit" else self.leader_on)[c] = p

    @classmethod
    def initial(cls, setting) -> "Positions":
        """Where the pieces stand before the turn (one object per setting)."""
        hit = setting.memo.get("positions")
        if hit is None:
            hit = setting.memo["positions"] = cls({p: p.at for p in setting.views})
        return hit

    @property
    def occupied(self) -> frozenset:
        """The hexes with a unit or a leader on them."""
        o = self._occupied
        if o is None:
            o = self._occupied = frozenset(self.unit_on).union(self.leader_on)
        return o

    def without(self, piece) -> "Positions":
        """The board with ``piece`` lifted off (while it moves)."""
        w = dict(self.where)
        at = w.get(piece)
        w[piece] = None
        unit_on, leader_on = self.unit_on, self.leader_on
        if at is not None:
            if piece.role == "unit" and unit_on.get(at) is piece:
                unit_on = dict(unit_on)
                del unit_on[at]
            elif piece.role != "unit" and leader_on.get(at) is piece:
                leader_on = dict(leader_on)
                del leader_on[at]
            else:
                return Positions(w)
        return Positions(w, unit_on, leader_on)

    def moved(self, piece, to) -> "Positions":
        w = dict(self.where)
        w[piece] = tuple(to)
        return Positions(w)


class MoveView:
    """One move of one piece, as rules see it."""

    memoizable = False  # made afresh for every candidate: not worth caching on
    __slots__ = ("piece", "start", "path", "to", "length", "index", "given_path", "phase", "fact_key")
    _RULE_ATTRS = frozenset(__slots__) - {"fact_key"}

    def __init__(self, piece: PieceView, start, path, index: int = 0, to=None, length=None, given_path=True,
                 phase: int = 1):
        self.phase = phase
        self.piece = piece
        self.start = tuple(start)
        self.path = tuple(tuple(c) for c in path) if path is not None else None
        self.to = tuple(to) if to is not None else (self.path[-1] if self.path else self.start)
        self.length = length if length is not None else (len(self.path) if self.path is not None else None)
        self.index = index
        self.given_path = given_path
        self.fact_key = None  # see _fact_key

    @property
    def through(self):
        return self.path[:-1] if self.path else ()

    def get_attr(self, name):
        if name == "through":
            return self.through
        return getattr(self, name, None) if name in self._RULE_ATTRS else None

    def __repr__(self):
        return self.piece.id


class BattleView:
    memoizable = False
    __slots__ = ("piece", "target", "index")

    def __init__(self, piece, target, index=0):
        self.piece, self.target, self.index = piece, target, index

    def get_attr(self, name):
        return getattr(self, name, None) if name in self.__slots__ else None

    def __repr__(self):
        return self.piece.id


class TurnView:
    """The moves and battles of a turn, for rules."""

    def __init__(self, moves=(), battles=()):
        self.moves = tuple(moves)
        self.battles = tuple(battles)

    def get_attr(self, name):
        return getattr(self, name, None)


# ------------------------------------------------------------------ planning


def _refs_attr(e, var: str, names: set[str]) -> bool:
    for n in A.walk(e):
        if isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.id == var and n.name in names:
            return True
    return False


_PATHY = {"path", "through"}
# builtins about the whole turn (not the moment of a move): never guards
_WHOLE_TURN = {"moves", "battles", "moved", "final", "last_move", "moved_length", "battles_of"}
_ENDY = {"to", "length", "path", "through"}


@dataclass
class Part:
    kind: str  # enter | pass | end | bound | filter
    guard: Callable | None  # closure over {var: move}: the part applies when true
    test: Callable  # enter/pass: env {var, hvar}; end/filter/bound: env {var}
    hvar: str | None = None
    bound_expr: Callable | None = None  # for bound: the E of m.length <= E
    ast: A.Expr | None = None  # the part's formula (for static analysis)
    reads_length: bool = True  # end parts: does it read m.length?
    static: bool | None = None  # enter/pass: depends only on the hex and the piece
    waiver: Callable | None = None  # enter/pass: when true (before the move), the hex test is off


@dataclass
class MoveRule:
    rule: object  # PlannedRule
    var: str
    domain_cond: Callable | None  # closure over {cond_var: move}
    cond_var: str | None
    parts: list[Part] = field(default_factory=list)


def decompose(compiler, body: A.Expr, var: str) -> list[Part]:
    items = list(body.items) if isinstance(body, A.And) else [body]
    parts = []
    for item in items:
        guard = None
        inner = item
        if isinstance(item, A.Implies):
            # (G and C1) implies C2 == G implies (C1 implies C2): pull out the
            # conjuncts about the piece and its start (known before the search)
            lefts = list(item.left.items) if isinstance(item.left, A.And) else [item.left]
            gs = [x for x in lefts if not _refs_attr(x, var, _ENDY) and not (referenced_names(x) & _WHOLE_TURN)]
            rest = [x for x in lefts if x not in gs]
            if gs:
                g_expr = gs[0] if len(gs) == 1 else A.And(tuple(gs))
                guard = _before_move(compiler, g_expr, var, compiler.compile(g_expr))
                if not rest:
                    inner = item.right
                else:
                    r_left = rest[0] if len(rest) == 1 else A.And(tuple(rest))
                    inner = A.Implies(r_left, item.right)
        sub = list(inner.items) if isinstance(inner, A.And) else [inner]
        for c in sub:
            parts.append(_classify(compiler, c, var, guard))
    return parts


def _classify(compiler, c: A.Expr, var: str, guard) -> Part:
    if isinstance(c, A.Quant) and c.kind == "forall" and isinstance(c.domain, A.Attr) \
            and isinstance(c.domain.obj, A.Name) and c.domain.obj.id == var \
            and c.domain.name in ("path", "through") and not _refs_attr(c.body, var, _ENDY):
        kind = "enter" if c.domain.name == "path" else "pass"
        body, waiver = c.body, None
        if isinstance(body, A.Or):
            # `forall h in P: A(h) or B` with B free of h: B, judged once before
            # the move, waives the hex test A (light foot passing friends)
            free = [x for x in body.items if c.var not in referenced_names(x)]
            rest = [x for x in body.items if c.var in referenced_names(x)]
            if free and rest:
                w = free[0] if len(free) == 1 else A.Or(tuple(free), body.loc)
                waiver = _before_move(compiler, w, var, compiler.compile(w))
                body = rest[0] if len(rest) == 1 else A.Or(tuple(rest), body.loc)
        return Part(kind, guard, compiler.compile(body), c.var, ast=body, waiver=waiver)
    if isinstance(c, A.Compare) and c.op in ("<=", "<") and isinstance(c.left, A.Attr) \
            and isinstance(c.left.obj, A.Name) and c.left.obj.id == var and c.left.name == "length" \
            and not _refs_attr(c.right, var, _ENDY) and not compiler.is_turn(c.right):
        bound = _before_move(compiler, c.right, var, compiler.compile(c.right))
        if c.op == "<":
            b0 = bound
            bound = lambda ctx, env: b0(ctx, env) - 1  # noqa: E731
        return Part("bound", guard, compiler.compile(c), None, bound)
    if not _refs_attr(c, var, _PATHY):
        if not _refs_attr(c, var, {"to", "length"}):
            # about the piece and the moment only
            return Part("piece", guard, _before_move(compiler, c, var, compiler.compile(c)))
        return Part("end", guard, compiler.compile(c), ast=c,
                    reads_length="length" in compiler.move_use(c, var).move_attrs)
    return Part("filter", guard, compiler.compile(c))


def move_rules(plan) -> list[MoveRule]:
    """The per-move rules of a plan, decomposed (cached on the plan)."""
    cached = getattr(plan, "_move_rules", None)
    if cached is not None:
        return cached
    out = []
    c = plan.compiler
    for r in plan.turn_rules:
        body = r.body
        if not (isinstance(body, A.Quant) and body.kind == "forall"):
            continue
        dom = body.domain
        if isinstance(dom, A.Name) and dom.id == "moves":
            mr = MoveRule(r, body.var, None, None)
        elif isinstance(dom, A.SetComp) and isinstance(dom.domain, A.Name) and dom.domain.id == "moves" \
                and not _refs_attr(dom.cond, dom.var, _ENDY | {"start"}):
            mr = MoveRule(r, body.var, c.compile(dom.cond) if dom.cond is not None else None, dom.var)
        else:
            continue
        if mr.domain_cond is not None:
            mr.domain_cond = _before_move(c, dom.cond, dom.var, mr.domain_cond)
        mr.parts = decompose(c, body.body, body.var)
        out.append(mr)
    plan._move_rules = out
    return out


def _before_move(compiler, ast: A.Expr, var: str, f):
    """A condition known before the move is made (it reads the move's piece,
    start, phase and index, never where it goes). When it reads nothing
    else that changes during a turn, its value is a fact of the pack (when
    it reads only the card and the piece's attributes: Line Command's one
    hex, an allowance), of the setting, or, if it reads the card and the
    board, of the grounding: worked out once per such key."""
    use = compiler.move_use(ast, var)
    if use.pack_fact and "to" not in use.move_attrs and "path" not in use.move_attrs:
        # fixed by the pack: by the card and the attributes read, on every board
        tag = ("before-move", id(ast))
        reads = _fact_reads(compiler)
        reads[0].update(use.piece_attrs)
        reads[1].update(use.move_attrs)
        memo = compiler.pack_memo

        def fact(ctx, env, ast=ast):  # (the default keeps the node, so its id, alive)
            m = env[var]
            key = (tag, m.fact_key or _fact_key(compiler, ctx, m))
            v = memo.get(key, _MISSING)
            if v is _MISSING:
                v = memo[key] = f(ctx, env)
            return v
        return fact
    if compiler.board_static(ast, (var,)):
        memo_of = _setting_memo
    elif compiler.card_static(ast, (var,)):
        memo_of = _grounding_memo
    else:
        return f
    tag = ("before-move", id(ast))

    def cond(ctx, env, ast=ast):  # (the default keeps the node, so its id, alive)
        m = env[var]
        memo = memo_of(ctx)
        key = (tag, m.piece, m.start, m.phase, m.index)
        v = memo.get(key, _MISSING)
        if v is _MISSING:
            v = memo[key] = f(ctx, env)
        return v
    return cond


_MISSING = object()


def _fact_reads(compiler) -> tuple[set, set]:
    """The attributes of the piece and of the move that any pack-fact
    condition reads (gathered while the move rules are planned)."""
    reads = getattr(compiler, "_fact_reads", None)
    if reads is None:
        reads = compiler._fact_reads = (set(), set())
    return reads


def _fact_key(compiler, ctx, m) -> tuple:
    """The card and the attributes every pack-fact condition may read of a
    move: one key per move, shared by those conditions."""
    reads = compiler._fact_reads
    names = getattr(compiler, "_fact_names", None)
    if names is None or names[0] != (len(reads[0]), len(reads[1])):
        names = compiler._fact_names = ((len(reads[0]), len(reads[1])), tuple(sorted(reads[0])),
                                        tuple(sorted(reads[1])))
    key = m.fact_key = (compiler.card_key(ctx.g), _attrs(m.piece, names[1]), _attrs(m, names[2]))
    return key


def _setting_memo(ctx):
    return ctx.g.setting.memo


def _grounding_memo(ctx):
    return ctx.g.memo


def applies(mr: MoveRule, ctx: Ctx, m: MoveView) -> bool:
    if mr.domain_cond is None:
        return True
    return bool(mr.domain_cond(ctx, {mr.cond_var: m}))


# ------------------------------------------------------------------ search

MAX_DEPTH = 12


@dataclass
class Reach:
    """Legal ends of one piece's move: {cell: sorted legal lengths}."""

    piece: PieceView
    ends: dict
    exact: bool  # every part was usable by the search (no path filters)
    levels: list = field(default_factory=list)  # levels[k]: the hexes reached in k steps (levels[0]: the start)
    passable: Callable | None = None  # may the piece pass through a hex?
    neighbours: dict = field(default_factory=dict)

    def path_to(self, cell, steps):
        """A path of ``steps`` hexes the search found to ``cell``."""
        path = [cell]
        c = cell
        for k in range(steps - 1, 0, -1):
            level, nb = self.levels[k], self.neighbours[c]
            c = next(p for p in nb if p in level and self.passable(p))
            path.append(c)
        return tuple(reversed(path))


def reach(ctx: Ctx, plan, piece: PieceView, index: int = 0, phase: int = 1, first_only: bool = False) -> Reach:
    """Every (cell, length) that a move of ``piece`` may end on, in ``ctx``'s
    state (the piece is lifted off the board while it moves).

    The search works on sets of hexes: the hexes the piece may enter and
    pass through are worked out once (within reach of its allowance), then
    each step is a union of neighbour sets. With ``first_only`` the answer
    need only say *which* hexes: when no end condition reads the move's
    length and no rule judges whole paths, the first arrival at a hex
    decides it, and each hex is expanded once."""
    setting = ctx.g.setting
    board = setting.board
    base = ctx.state if ctx.state is not None else Positions.initial(setting)
    start = base.where.get(piece) if ctx.state is not None else piece.at
    state = base.without(piece)
    mctx = Ctx(ctx.g, ctx.alt, ctx.ordered, ctx.orders, ctx.turn, state, ctx.earlier)
    probe = MoveView(piece, start, (), index, to=start, length=0, phase=phase)
    enter, passing, ends, filters, bounds = [], [], [], [], []
    for mr in move_rules(plan):
        dc = mr.domain_cond
        if dc is not None and not dc(mctx, {mr.cond_var: probe}):
            continue
        env = {mr.var: probe}
        for part in mr.parts:
            if part.guard is not None and not part.guard(mctx, env):
                continue
            kind = part.kind
            if part.waiver is not None and part.waiver(mctx, env):
                continue
            if kind == "enter":
                enter.append((part, mr.var))
            elif kind == "pass":
                passing.append((part, mr.var))
            elif kind == "bound":
                # the search never goes deeper than the smallest bound
                bounds.append(part.bound_expr(mctx, env))
            elif kind == "piece":
                if not part.test(mctx, env):
                    return Reach(piece, {}, True)  # this piece may not move at all now
            elif kind == "end":
                ends.append((part, mr.var))
            else:
                filters.append((part, mr.var))
    depth = min([b for b in bounds if isinstance(b, int)] + [MAX_DEPTH])
    compiler = plan.compiler
    if depth < 1:
        return Reach(piece, {}, not filters, [{start}])
    ball = board.ball(start, depth)
    special = state.occupied | _terrain_cells(setting)  # the hexes that are not plain (empty, clear)
    may_enter = HexTest(compiler, setting, ball, special, enter, mctx, probe)
    may_pass = HexTest(compiler, setting, ball, special, passing, mctx, probe)
    end_cells = _end_cells(compiler, setting, special, ends, mctx, piece, start, index, phase)

    nbs = board.neighbour_sets
    first = first_only and not filters and not any(p.reads_length for p, _ in ends)
    levels: list = [{start}]
    seen = {start}
    result: dict = {}
    frontier = {start}
    for steps in range(1, depth + 1):
        src = frontier if steps == 1 else may_pass.filter(frontier)
        if not src:
            break
        nxt = may_enter.filter(set().union(*[nbs[c] for c in src]))
        if first:
            nxt -= seen
            seen |= nxt
        if not nxt:
            break
        levels.append(nxt)
        for n in end_cells(nxt, steps):
            if n in result:
                result[n].append(steps)
            else:
                result[n] = [steps]
        frontier = nxt
    r = Reach(piece, result, not filters, levels, may_pass, board.neighbours)
    if filters:
        # rules over whole paths: keep only ends with a path that satisfies them
        kept = {}
        for n, lengths in result.items():
            ok = [k for k in lengths if _some_path_passes(mctx, r, n, k, filters, piece, start, index, phase)]
            if ok:
                kept[n] = ok
        r.ends = kept
    return r


def _terrain_cells(setting) -> frozenset:
    hit = setting.memo.get("terrain-cells")
    if hit is None:
        hit = setting.memo["terrain-cells"] = frozenset(setting.terrain)
    return hit


def cell_class(setting, state):
    """The key of a hex's class within one search: what stands there and
    its terrain (see ``MoveUse.local``; every searched hex is on the
    board)."""
    unit_on, leader_on, terrain = state.unit_on, state.leader_on, setting.terrain
    return lambda c: (unit_on.get(c), leader_on.get(c), terrain.get(c))


def _attrs(obj, names: tuple) -> tuple:
    return tuple([obj.get_attr(n) for n in names])


def cached_judge(compiler, setting, ctx, tag, use, probe, judge, end: bool):
    """``(judge'(c, k), same_on_plain)``: ``judge(c, k)`` (a part of a move of
    ``probe.piece`` with the hex c, k steps) cached as far as ``use``
    (``Compiler.move_use``) allows:

    * clean: by (the hex's class, the attributes of the piece and the move it
      reads) in the setting, the grounding if it reads the card, or the pack
      if it reads only the card, the terrain and those attributes; the
      searches of other pieces reuse it, as a hand-written generator keeps
      per-side sets of enemy hexes;
    * local: by the hex's class, within this search;
    * otherwise: judged hex by hex.

    Clean and local parts are the same on every plain hex (empty, clear).
    For an end part (``end``) the hex is the move's end and k counts only
    if the part reads the length; for a hex part k is not used."""
    reads_length = end and "length" in use.move_attrs
    key_of = cell_class(setting, ctx.state)
    if use.clean:
        fixed = tuple(a for a in use.move_attrs if not end or a not in ("length", "to"))
        head = (tag, _attrs(probe.piece, use.piece_attrs), _attrs(probe, fixed))
        if use.pack_fact:
            memo, key_of = compiler.pack_memo, setting.terrain.get
            head = head + (compiler.card_key(ctx.g) if use.card else None,)
        else:
            memo = ctx.g.memo if use.card else setting.memo

        def clean(c, k):
            key = (head, key_of(c), k if reads_length else None)
            v = memo.get(key)
            if v is None:
                v = memo[key] = judge(c, k)
            return v
        return clean, True
    if use.local:
        by_class: dict = {}

        def local(c, k):
            key = (key_of(c), k if reads_length else None)
            v = by_class.get(key)
            if v is None:
                v = by_class[key] = judge(c, k)
            return v
        return local, True
    return judge, False


def _hex_part(compiler, setting, ctx, probe, part: Part, var: str):
    """(test(c), same_on_plain): one dynamic hex part in one search (see
    ``cached_judge``)."""
    test, hvar = part.test, part.hvar

    def judge(c, k=None):
        return bool(test(ctx, {var: probe, hvar: c}))
    if part.ast is None:
        return judge, False
    use = compiler.move_use(part.ast, var, hvar)
    cached, same = cached_judge(compiler, setting, ctx, ("hex-part", id(part)), use, probe, judge, end=False)
    return (lambda c: cached(c, None)), same


class HexTest:
    """May the moving piece enter (or pass through) a hex, in one search?

    Parts about the hex and the piece alone are per-setting cell sets; the
    parts that read the hex only through what stands there and its terrain
    (see ``_hex_part``) are evaluated once for all the plain hexes (empty,
    clear) and, lazily, for the other hexes the search touches; any other
    part, hex by hex, lazily too."""

    def __init__(self, compiler, setting, universe, special, parts, ctx, probe):
        cell_sets, dynamic = _split_static(compiler, setting, ctx, probe, parts)
        cand = universe
        for ok in cell_sets:
            cand = cand & ok
        tests = [_hex_part(compiler, setting, ctx, probe, part, var) for part, var in dynamic]
        self.short = [t for t, same in tests if same]
        self.other = [t for t, same in tests if not same]
        if self.short:
            self.spec = cand & special
            plain = cand - self.spec
            self.plain = plain if plain and all(t(next(iter(plain))) for t in self.short) else frozenset()
        else:
            self.spec, self.plain = frozenset(), cand
        self.cache: dict = {}

    def __call__(self, c) -> bool:
        v = self.cache.get(c)
        if v is None:
            if c in self.plain:
                v = True
            elif c in self.spec:
                v = all(t(c) for t in self.short)
            else:
                v = False
            if v and self.other:
                v = all(t(c) for t in self.other)
            self.cache[c] = v
        return v

    def filter(self, cells) -> set:
        """The hexes of ``cells`` that pass."""
        if not self.other:
            out = cells & self.plain
            spec = cells & self.spec
            if spec:
                out = set(out)
                out.update(c for c in spec if self(c))
            return out
        return {c for c in cells if self(c)}


def _end_part(compiler, setting, ctx, part: Part, var: str, piece, start, index, phase):
    """(test(c, k), same_on_plain): one end part in one search (see
    ``cached_judge``)."""
    test = part.test

    def judge(c, k):
        return bool(test(ctx, {var: MoveView(piece, start, None, index, to=c, length=k, phase=phase)}))
    if part.ast is None:
        return judge, False
    probe = MoveView(piece, start, (), index, to=start, length=0, phase=phase)
    return cached_judge(compiler, setting, ctx, ("end-part", id(part)), compiler.move_use(part.ast, var), probe,
                        judge, end=True)


def _end_cells(compiler, setting, special, parts, ctx, piece, start, index, phase):
    """``ends(cells, k)``: the hexes of ``cells`` a move of ``piece`` may end
    on after k steps (the parts that allow it, once for all plain hexes)."""
    if not parts:
        return lambda cells, k: cells
    tests = [_end_part(compiler, setting, ctx, part, var, piece, start, index, phase) for part, var in parts]
    short = [t for t, same in tests if same]
    other = [t for t, same in tests if not same]

    def ends(cells, k):
        if short:
            spec = cells & special
            plain = cells - spec
            out = set(plain) if plain and all(t(next(iter(plain)), k) for t in short) else set()
            out.update(c for c in spec if all(t(c, k) for t in short))
            cells = out
        if other:
            cells = [c for c in cells if all(t(c, k) for t in other)]
        return cells
    return ends


def _split_static(compiler, setting, ctx, probe, parts):
    """Split hex parts into cell sets (for parts that depend only on the hex
    and the moving piece, never on where the pieces stand at this moment:
    terrain, the board's edge) and parts to evaluate per hex. The cell sets
    are facts of the setting, worked out once per piece."""
    sets, rest = [], []
    for part, var in parts:
        if part.static is None:
            part.static = part.ast is not None and compiler.board_static(part.ast, (var, part.hvar)) \
                and not compiler.is_dynamic(part.ast)
        if not part.static:
            rest.append((part, var))
            continue
        key = ("cells", id(part), probe.piece, probe.start, probe.phase)
        ok = setting.memo.get(key)
        if ok is None:
            ok = setting.memo[key] = frozenset(
                c for c in setting.board.cells if part.test(ctx, {var: probe, part.hvar: c}))
        sets.append(ok)
    return sets, rest


def _some_path_passes(ctx, r: Reach, cell, steps, filters, piece, start, index, phase) -> bool:
    path = r.path_to(cell, steps)
    m = MoveView(piece, start, path, index, phase=phase)
    return all(p.test(ctx, {var: m}) for p, var in filters)


def geometric_path(board, start, to):
    """A shortest path between two hexes, ignoring everything on the board."""
    if not board.contains(tuple(to)):
        return (tuple(to),)
    prev = {tuple(start): None}
    queue = [tuple(start)]
    for c in queue:
        if c == tuple(to):
            break
        for n in board.neighbours[c]:
            if n not in prev:
                prev[n] = c
                queue.append(n)
    path = []
    c = tuple(to)
    while c is not None and c != tuple(start):
        path.append(c)
        c = prev.get(c)
    return tuple(reversed(path))
