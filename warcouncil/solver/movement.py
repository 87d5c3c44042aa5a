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

The search walks the hexes reached in k steps, k = 1, 2, ...: a hex is
entered only if every ψ holds, left only if every φ holds, and is a
destination if every end condition holds for that length. What the rules
fix before a move is partially evaluated once per piece, start and card
(``_Profile``); hexes are bit masks (``Board.mask``, ``Board.dilate``); the
hexes where the parts that read a hex only through what stands there hold
are a mask per position of the pieces (``CleanCells``). No path finder is
hand-coded for any game: the rules say what blocks, what stops and how
far. (docs/design.md §5.3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..dsl import ast as A
from ..errors import WarcouncilError
from .evaluate import referenced_names
from .ground import Ctx, PieceView


class Positions:
    """Where each piece stands at one moment of a turn (never changed once made).

    A position made from another (``without``, ``moved``, ``derive``) keeps
    it as ``parent`` with the hexes whose occupants differ (``changed``):
    the move generator's per-position hex sets (``CleanCells``) are then
    worked out from the parent's by judging those hexes again."""

    __slots__ = ("where", "unit_on", "leader_on", "_occupied", "parent", "changed", "memo")

    def __init__(self, where: dict, unit_on: dict | None = None, leader_on: dict | None = None,
                 parent: "Positions | None" = None, changed: tuple = ()):
        self.where = where
        self._occupied = None
        self.parent, self.changed = parent, changed
        self.memo = None
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
                return Positions(w, parent=self, changed=(at,))
            return Positions(w, unit_on, leader_on, self, (at,))
        return Positions(w, unit_on, leader_on, self, ())

    def moved(self, piece, to) -> "Positions":
        return self.derive({piece: tuple(to)})

    def derive(self, changes: dict) -> "Positions":
        """This position with the pieces of ``changes`` at new hexes (None: off the board)."""
        w = dict(self.where)
        changed = set()
        for p, c in changes.items():
            old = w.get(p)
            if old != c:
                changed.update(x for x in (old, c) if x is not None)
            w[p] = c
        return Positions(w, parent=self, changed=tuple(changed))


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

            def bound(ctx, env):
                return b0(ctx, env) - 1
            bound.static = b0.static
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
    tag = ("before-move", id(ast))
    if use.pack_fact and "to" not in use.move_attrs and "path" not in use.move_attrs:
        # fixed by the pack: by the card and the attributes read, on every board
        reads = _fact_reads(compiler)
        reads[0].update(use.piece_attrs)
        reads[1].update(use.move_attrs)
        pack_memo = compiler.pack_memo
        return _memoized(f, ast, lambda ctx: pack_memo,
                         lambda ctx, m: (tag, m.fact_key or _fact_key(compiler, ctx, m)), var)
    if compiler.board_static(ast, (var,)):
        memo_of = _setting_memo
    elif compiler.card_static(ast, (var,)):
        memo_of = _grounding_memo
    else:
        def dynamic(ctx, env):
            return f(ctx, env)
        # ``static``: fixed by the card, the piece and its start; ``moment``:
        # besides those, it reads only the moment of the turn (the moves made
        # before, where the pieces stand), so it is fixed too when the piece
        # moves first, from the position before the turn
        dynamic.static, dynamic.raw, dynamic.ast, dynamic.var = False, f, ast, var
        dynamic.moment = compiler.dynamic_reads(ast, frozenset((var,))) <= MOMENT_BUILTINS
        return dynamic
    return _memoized(f, ast, memo_of, lambda ctx, m: (tag, m.piece, m.start, m.phase, m.index), var)


def _memoized(f, ast, memo_of, key_of, var: str):
    """f, its value kept in ``memo_of(ctx)`` under ``key_of(ctx, move)``."""
    def cond(ctx, env, ast=ast):  # (the default keeps the node, so its id, alive)
        memo = memo_of(ctx)
        key = key_of(ctx, env[var])
        v = memo.get(key, _MISSING)
        if v is _MISSING:
            v = memo[key] = f(ctx, env)
        return v
    cond.static = True
    return cond


_MISSING = object()
# what a condition known before a move may read of the moment it is made
MOMENT_BUILTINS = frozenset({"earlier", "moved_before", "unit_on", "leader_on", "position"})


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


class Reach:
    """Legal ends of one piece's move. ``end_masks[k]``: the hexes (a bit
    mask, ``Board.mask``) where a move of k steps may end; ``ends``: the same
    as {cell: sorted legal lengths}."""

    __slots__ = ("piece", "board", "end_masks", "exact", "levels", "passable", "_ends", "anywhere")

    def __init__(self, piece: PieceView, board, end_masks: list, exact: bool, levels: list = (),
                 passable: Callable | None = None, anywhere: int | None = None):
        self.piece, self.board, self.end_masks, self.exact = piece, board, end_masks, exact
        # the hexes where a move of some length may end (a mask)
        self.anywhere = _union(end_masks) if anywhere is None else anywhere
        self.levels = levels  # levels[k]: the hexes reached in k steps (a mask; levels[0]: the start)
        self.passable = passable  # may the piece pass through a hex? (a predicate, or a mask; None: any)
        self._ends = None

    @property
    def ends(self) -> dict:
        """{cell: sorted legal lengths}."""
        d = self._ends
        if d is None:
            d = {}
            cells_in = self.board.cells_in
            for k, m in enumerate(self.end_masks):
                for c in cells_in(m):
                    if c in d:
                        d[c].append(k)
                    else:
                        d[c] = [k]
            self._ends = d
        return d

    def keep(self, ends: dict) -> None:
        """Keep only these ends ({cell: lengths})."""
        masks = [0] * len(self.end_masks)
        index = self.board.index
        for c, ks in ends.items():
            for k in ks:
                masks[k] |= 1 << index[c]
        self.end_masks, self._ends, self.anywhere = masks, dict(ends), _union(masks)

    def path_to(self, cell, steps):
        """A path of ``steps`` hexes the search found to ``cell``."""
        path = [cell]
        c = cell
        index, neighbours = self.board.index, self.board.neighbours
        passable = self.passable
        if passable is None or isinstance(passable, int):  # every hex / the hexes of a mask
            mask = -1 if passable is None else passable
            passable = lambda p: mask >> index[p] & 1  # noqa: E731
        for k in range(steps - 1, 0, -1):
            level = self.levels[k]
            c = next(p for p in neighbours[c] if level >> index[p] & 1 and passable(p))
            path.append(c)
        return tuple(reversed(path))


def _union(masks) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def reach(ctx: Ctx, plan, piece: PieceView, index: int = 0, phase: int = 1, first_only: bool = False) -> Reach:
    """Every (cell, length) that a move of ``piece`` may end on, in ``ctx``'s
    state (the piece is lifted off the board while it moves).

    The search works on bit masks of hexes. What the rules fix before the
    move (which parts apply, how far: ``_Profile``) is worked out once per
    piece, start and card; the hexes every clean part allows are a mask per
    position of the pieces (``CleanCells``), shared by every piece that
    reads the same attributes; the other parts are judged lazily on the
    hexes the search touches. Each step is then ``Board.dilate`` of the
    frontier intersected with the hexes that may be entered. With
    ``first_only`` the answer need only say *which* hexes: when no end
    condition reads the move's length and no rule judges whole paths, the
    first arrival at a hex decides it, and each hex is expanded once."""
    g = ctx.g
    setting = g.setting
    board = setting.board
    compiler = plan.compiler
    initial = Positions.initial(setting)
    if ctx.state is None:
        base, start, at_start = initial, piece.at, not ctx.earlier
    else:
        base, at_start = ctx.state, not ctx.earlier and ctx.state is initial
        start = base.where.get(piece)
    if start not in board.index:
        return Reach(piece, board, [], True)  # not on the board: no move
    key = ("move-profile", compiler.card_key(g), piece, start, phase, index, at_start)
    prof = setting.memo.get(key)
    fast = prof.fast if prof is not None else None
    if fast is not None:
        r = fast.run(ctx, base, piece, start, board, first_only)
        if r is not None:
            return r
    mv = _Move(ctx, base, piece, start, index, phase)
    if prof is None:
        prof = setting.memo[key] = _Profile(mv.mctx, plan, mv.probe, at_start)
    search = prof.search(mv)
    if search is None:
        return Reach(piece, board, [], True)  # this piece may not move at all now
    depth = search.depth
    if depth < 1:
        return Reach(piece, board, [], not search.filters, [mv.bit])
    prep = prof.preps.get(search)
    if prep is None:
        prep = prof.preps[search] = _Prep(search, mv.mctx, mv.probe, compiler)
    if search.plain:
        if prof.fast is None and not search.filters and (prof.only_test is not None or not prof.residual):
            prof.fast = _PlainFast(search, prep, prof.only_test, mv.bit)  # the next searches go straight to it
        return _plain_search(piece, board, search, prep, mv, first_only)
    mctx = mv.mctx
    may_enter = _HexSet(search.enter, prep.enter, prep.enter_key, mv, compiler)
    may_pass = _HexSet(search.passing, prep.passing, prep.pass_key, mv, compiler)
    end_cells = _EndCells(search.ends, prep.end_key, mv, compiler)

    lazy_enter = may_enter if may_enter.lazy else None
    lazy_pass = may_pass if may_pass.lazy else None
    levels, end_masks, anywhere = _walk(board, depth, mv.bit, first_only and search.first_ok,
                                        -1 if may_enter.ok is None else may_enter.ok,
                                        -1 if may_pass.ok is None else may_pass.ok,
                                        -1, lazy_enter, lazy_pass, end_cells)
    r = Reach(piece, board, end_masks, not search.filters, levels, may_pass, anywhere)
    return _filtered(r, search, mctx, piece, start, index, phase)


def _walk(board, depth, start_bit, first, enter, passing, ending, lazy_enter=None, lazy_pass=None, lazy_end=None):
    """(levels, end_masks, anywhere) of a search: ``levels[k]`` the hexes reached in k
    steps, ``end_masks[k]`` those of them a move of k steps may end on. Each
    step is ``dilate(frontier & passing) & enter`` (the first, from one hex:
    its neighbours); the ``lazy_*`` tests (if any) then judge the hexes
    left; ``anywhere``: the union of the end masks. ``first``: each hex is
    reached once (at its first arrival)."""
    nxt = board.nb_masks[start_bit.bit_length() - 1] & enter
    if lazy_enter is not None:
        nxt = lazy_enter.filter(nxt)
    if not nxt:
        return [start_bit], [0], 0
    levels = [start_bit, nxt]
    anywhere = nxt & ending if lazy_end is None else lazy_end(nxt & ending, 1)
    end_masks = [0, anywhere]
    if depth < 2:
        return levels, end_masks, anywhere
    dilate = board.dilate
    frontier, seen = nxt, start_bit | nxt
    for steps in range(2, depth + 1):
        src = frontier & passing
        if lazy_pass is not None:
            src = lazy_pass.filter(src)
        if not src:
            break
        nxt = dilate(src) & enter
        if lazy_enter is not None:
            nxt = lazy_enter.filter(nxt)
        if first:
            nxt &= ~seen
            seen |= nxt
        if not nxt:
            break
        levels.append(nxt)
        e = nxt & ending if lazy_end is None else lazy_end(nxt & ending, steps)
        end_masks.append(e)
        anywhere |= e
        frontier = nxt
    return levels, end_masks, anywhere


class _Mask(NamedTuple):
    """One mask of a plain search (``_plain_masks``)."""

    group: "_Group"
    key: int | None  # its ``CleanCells`` key (None: no clean parts)
    cells: int | None  # the static parts' mask (None: every hex)
    own: bool  # corrected at the piece's own hex?


def _plain_masks(search, prep) -> tuple:
    """The three masks of a plain search, (enter, pass, end), None for no
    pass mask. A move is back on its own hex after 2 steps at the soonest,
    so passes it after 3; a move of one hex passes nothing."""
    depth = search.depth
    return (_Mask(search.enter, prep.enter_key, prep.enter, depth > 1),
            _Mask(search.passing, prep.pass_key, prep.passing, depth > 2) if depth > 1 else None,
            _Mask(search.ends, prep.end_key, None, depth > 1))


def _plain_search(piece, board, search, prep, mv, first_only) -> Reach:
    """``reach`` when every part is static or clean (``_Search.plain``): the
    hexes that may be entered, passed and ended on are masks, worked out
    once, and each step is ``Board.dilate`` and an ``&``."""
    enter, passing, ending = [None if m is None else mv.allowed(m.group, m.key, m.cells, own=m.own)
                              for m in _plain_masks(search, prep)]
    levels, end_masks, anywhere = _walk(board, search.depth, mv.bit, first_only and search.first_ok, enter,
                                        -1 if passing is None else passing, -1 if ending is None else ending)
    r = Reach(piece, board, end_masks, not search.filters, levels, passing, anywhere)
    if not search.filters:
        return r
    return _filtered(r, search, mv.mctx, piece, mv.start, mv.index, mv.phase)


class _PlainFast:
    """``_plain_search`` of one profile whose search is fixed (no residual,
    or only its one test of the piece: ``_Profile.only_test``), with the
    masks read straight from the position's memo: no ``_Move`` is made.
    ``run`` answers None when something must first be worked out (a mask
    not yet in the memo, the class of the piece's own hex not yet judged);
    ``reach`` then takes the general path, which works it out."""

    __slots__ = ("test", "depth", "first_ok", "bit", "static", "clean")

    def __init__(self, search: _Search, prep: _Prep, test, bit: int):
        self.test = test
        self.depth = search.depth
        self.first_ok = search.first_ok
        self.bit = bit  # the start's (a profile is one piece's, from one hex)
        # the static masks (enter, pass, end; -1: every hex) and, for the
        # masks with clean parts, (slot, CleanCells key, static mask, correct
        # at the own hex?): ``_plain_masks``
        self.static, clean = [], []
        for i, m in enumerate(_plain_masks(search, prep)):
            static = -1 if m is None or m.cells is None else m.cells
            self.static.append(static)
            if m is not None and m.key is not None:
                clean.append((i, m.key, static, m.own and bool(static & bit)))
        self.clean = tuple(clean)

    def run(self, ctx, base, piece, start, board, first_only) -> "Reach | None":
        test = self.test
        if test is not None and not test[0](ctx, test[1]):
            return Reach(piece, board, [], True)  # the piece may not move now
        memo = base.memo
        if memo is None:
            return None
        bit = self.bit
        cls = None
        masks = self.static.copy()
        for i, key, static, fix in self.clean:
            cc = memo.get(key)
            if cc is None:
                return None
            ok = static & cc.cells
            if fix:
                if cls is None:
                    cls = _own_class(base, piece, start, ctx.g.setting.terrain)
                ok = _own_corrected(ok, cc, bit, cls)
                if ok is None:
                    return None
            masks[i] = ok
        enter, passing, ending = masks
        levels, end_masks, anywhere = _walk(board, self.depth, bit, first_only and self.first_ok,
                                            enter, passing, ending)
        return Reach(piece, board, end_masks, True, levels, None if passing == -1 else passing, anywhere)


def _own_class(base, piece, start, terrain) -> tuple:
    """The class of the piece's own hex once the piece is lifted (``CleanCells.value``)."""
    u, ld = base.unit_on.get(start), base.leader_on.get(start)
    return (None if u is piece else u, None if ld is piece else ld, terrain.get(start))


def _own_corrected(ok: int, cc: "CleanCells", bit: int, cls: tuple) -> "int | None":
    """``ok`` (a mask narrowed by ``cc``) corrected at the piece's own hex
    ``bit`` by what ``cc`` says of its class ``cls`` once the piece is
    lifted; None: that class is not judged yet."""
    v = cc.by_class.get(cls)
    if v is None:
        return None
    if v is not bool(cc.cells & bit):
        return ok | bit if v else ok & ~bit
    return ok


class _Move:
    """The move being searched: its context (the piece lifted off the
    board) and its probe (a ``MoveView`` with no path yet), made only when
    something reads them."""

    __slots__ = ("ctx", "base", "piece", "start", "index", "phase", "_mctx", "_probe", "bit", "_cls")

    def __init__(self, ctx, base, piece, start, index, phase):
        self.ctx, self.base, self.piece, self.start, self.index, self.phase = ctx, base, piece, start, index, phase
        self._mctx = self._probe = self._cls = None
        self.bit = 1 << ctx.g.setting.board.index[start]  # the piece's own hex

    @property
    def cls(self) -> tuple:
        """The class of the piece's own hex once the piece is lifted (``CleanCells.value``)."""
        c = self._cls
        if c is None:
            c = self._cls = _own_class(self.base, self.piece, self.start, self.ctx.g.setting.terrain)
        return c

    @property
    def mctx(self) -> Ctx:
        m = self._mctx
        if m is None:
            c = self.ctx
            m = self._mctx = Ctx(c.g, c.alt, c.ordered, c.orders, c.turn, self.base.without(self.piece), c.earlier)
        return m

    @property
    def probe(self) -> MoveView:
        p = self._probe
        if p is None:
            p = self._probe = MoveView(self.piece, self.start, (), self.index, to=self.start, length=0,
                                       phase=self.phase)
        return p

    def allowed(self, group: "_Group", key, cells, k=None, own=True):
        """``cells`` (a mask; None: every hex) narrowed to the hexes where the
        clean parts of ``group`` hold (its ``CleanCells`` in the position
        before the piece was lifted, judged, if they must be worked out,
        with this move), corrected at the piece's own hex as it is now
        (unless ``own`` is false: the search cannot reach that hex).
        ``k``: the length, for end parts that read it."""
        if key is None:
            return cells
        if k is not None:
            key = (key, k)
        memo = self.base.memo
        cc = memo.get(key) if memo is not None else None
        if cc is None:  # worked out now, judged with this move
            if group.kind == "end":
                make = lambda: _end_judge(self.mctx, self.probe, group.clean_tests, k)  # noqa: E731
            else:
                make = lambda: _hex_judge(self.mctx, self.probe, group.clean)  # noqa: E731
            cc = CleanCells.of(self.base, key, self.ctx.g.setting, make)
        ok = cc.cells if cells is None else cells & cc.cells
        if not own or cells is not None and not cells & self.bit:
            return ok  # the piece's own hex is out anyway
        fixed = _own_corrected(ok, cc, self.bit, self.cls)
        if fixed is None:  # the class of the own hex judged now
            cc.value(self.start, self.mctx.state, self.cls)
            fixed = _own_corrected(ok, cc, self.bit, self.cls)
        return fixed


def _filtered(r: Reach, search, mctx, piece, start, index, phase) -> Reach:
    if search.filters:
        # rules over whole paths: keep only ends with a path that satisfies them
        kept = {}
        for n, lengths in r.ends.items():
            ok = [k for k in lengths if _some_path_passes(mctx, r, n, k, search.filters, piece, start, index, phase)]
            if ok:
                kept[n] = ok
        r.keep(kept)
    return r


# ---------------------------------------------------- before the move: profiles


class _Opaque(Exception):
    """The partial evaluator cannot rewrite this condition safely."""


def _partial(compiler, e: A.Expr, names: frozenset, mctx: Ctx, env: dict, at_start: bool):
    """A condition known before the move with what the profile fixes worked
    out (partial evaluation): True, False, or the expression that remains,
    where every part the profile fixes is a value (``A.Value``) and the
    definitions it calls with fixed arguments are unfolded. ``moving_alone(m)``
    is false for a unit, whoever is ordered; for a leader attached to a unit
    it leaves only ``not (c8 in ordered and not hannibal in ordered)``."""
    try:
        r = _pe(compiler, e, names, mctx, env, {}, at_start, 0)
    except _Opaque:
        return e
    return bool(r.value) if isinstance(r, A.Value) else r


def _value(compiler, v) -> A.Value:
    """The one ``A.Value`` node of a value (so that equal remainders are equal)."""
    memo = compiler.pack_memo.setdefault("values", {})
    hit = memo.get(id(v))
    if hit is None or hit[0] is not v:
        hit = memo[id(v)] = (v, A.Value(v))
    return hit[1]


def _pe(compiler, e, names, mctx, env, subst, at_start, depth):
    """``_partial`` of e, where ``env`` gives the values of ``names`` and
    ``subst`` what they stand for in the remainder (inside an unfolded
    definition, its parameters)."""
    if e is None or isinstance(e, A.Value):
        return e
    if _fixed(compiler, e, names, at_start):
        try:
            return _value(compiler, compiler.compile(e)(mctx, env))
        except WarcouncilError:
            pass  # (judged out of its order): left as it is
    if isinstance(e, (A.And, A.Or)):
        decisive = isinstance(e, A.Or)
        rest = []
        for x in e.items:
            r = _pe(compiler, x, names, mctx, env, subst, at_start, depth)
            if isinstance(r, A.Value):
                if bool(r.value) is decisive:
                    return _value(compiler, decisive)
                continue
            rest.append(r)
        if not rest:
            return _value(compiler, not decisive)
        return rest[0] if len(rest) == 1 else type(e)(tuple(rest), e.loc)
    if isinstance(e, A.Not):
        r = _pe(compiler, e.operand, names, mctx, env, subst, at_start, depth)
        return _value(compiler, not r.value) if isinstance(r, A.Value) else A.Not(r, e.loc)
    if isinstance(e, A.IfElse):
        c = _pe(compiler, e.cond, names, mctx, env, subst, at_start, depth)
        if isinstance(c, A.Value):
            return _pe(compiler, e.then if c.value else e.other, names, mctx, env, subst, at_start, depth)
    if isinstance(e, A.Quant) and e.kind in ("exists", "forall") and _fixed(compiler, e.domain, names, at_start):
        # over a domain the profile fixes and finds empty (the moves made
        # before, when the piece moves first)
        try:
            if not compiler.compile(e.domain)(mctx, env):
                return _value(compiler, e.kind == "forall")
        except WarcouncilError:
            pass
    if isinstance(e, A.Call) and depth < 8:
        # a definition handed arguments the profile fixes (the move, its
        # piece, ...): unfolded, its parameters bound
        d = compiler.pack.defines.get(e.func)
        if d is not None and d.params and len(d.params) == len(e.args) \
                and all(_fixed(compiler, a, names, at_start) for a in e.args):
            penv, psubst = {}, {}
            for p, a in zip(d.params, e.args):
                if isinstance(a, A.Name) and a.id in names:
                    penv[p], psubst[p] = env[a.id], subst.get(a.id, a)
                else:
                    try:
                        penv[p] = compiler.compile(a)(mctx, env)
                    except WarcouncilError:
                        raise _Opaque() from None
                    psubst[p] = _value(compiler, penv[p])
            return _pe(compiler, d.body, frozenset(d.params), mctx, penv, psubst, at_start, depth + 1)
    if isinstance(e, A.Name):
        return subst.get(e.id, e)
    if isinstance(e, (A.Quant, A.SetComp, A.The)):
        # the domain worked out; below the binder, only the names replaced
        dom = _pe(compiler, e.domain, names, mctx, env, subst, at_start, depth)
        return _below_binder(e, dom, subst)
    kids = A.children(e)
    if not kids:
        return e
    return A.with_children(e, [_pe(compiler, k, names, mctx, env, subst, at_start, depth) for k in kids])


def _substitute(e, subst: dict):
    """e with the free names of ``subst`` replaced."""
    if e is None or not subst:
        return e
    if isinstance(e, A.Name):
        return subst.get(e.id, e)
    if isinstance(e, (A.Quant, A.SetComp, A.The)):
        return _below_binder(e, _substitute(e.domain, subst), subst)
    kids = A.children(e)
    return A.with_children(e, [_substitute(k, subst) for k in kids]) if kids else e


def _below_binder(e, domain, subst: dict):
    """The binder e with its domain replaced by ``domain`` and the free names
    of ``subst`` replaced below it (its own variable is not free there)."""
    inner = {k: v for k, v in subst.items() if k != e.var}
    if any(isinstance(n, A.Name) and n.id == e.var for v in inner.values() for n in A.walk(v)):
        raise _Opaque()  # a name would be captured
    return A.with_children(e, [domain] + [_substitute(k, inner) for k in A.children(e)[1:]])


_MOVE = "·move"  # the move's name in a residual condition (not a name of the language)


def _residual_cond(compiler, e: A.Expr, var: str) -> tuple:
    """(closure, variable) of what remains of a condition: one closure per
    distinct remainder, the move renamed, so that equal remainders of
    different rules (``moving_alone(x)``, ``moving_alone(m)``) are judged
    once per search."""
    if not any(isinstance(n, (A.Quant, A.SetComp, A.The)) and n.var == var for n in A.walk(e)):
        e = A.transform(e, lambda n: A.Name(_MOVE, n.loc) if isinstance(n, A.Name) and n.id == var else n)
        var = _MOVE
    key = ("residual", e, var)
    hit = compiler.pack_memo.get(key)
    if hit is None:
        hit = compiler.pack_memo[key] = (compiler.compile(e), var)
        if var not in referenced_names(e) and not compiler.dynamic_reads(e) & MOMENT_BUILTINS:
            # reads neither the move nor the moment: judged in the caller's context
            compiler.pack_memo.setdefault("light-residuals", set()).add(hit[0])
    return hit


def _fixed(compiler, e: A.Expr, names: frozenset, at_start: bool) -> bool:
    """Is ``e``'s value fixed by the profile (the card, the setting, the
    names bound, and at the start of the turn the moment)?"""
    reads = compiler.dynamic_reads(e, names)
    return not reads or (at_start and reads <= MOMENT_BUILTINS)


class _Profile:
    """What the per-move rules fix before one piece moves from one hex on one
    card: which rules and parts apply, how far it may go, whether it may move
    at all. Every condition that reads only the card, the setting, the
    piece and its start (``_before_move``: ``static``) is judged once, here;
    the others (the order set, the moves made before) remain as a short
    residual judged at each search, whose answers pick the ``_Search``.

    Like the hand-written generator's table of allowances per unit type,
    this is a fact of the pack and the setting; which hexes the piece may
    enter depends on where the pieces stand and is worked out per search."""

    __slots__ = ("blocked", "fixed", "residual", "searches", "preps", "compiler", "light", "only_test", "fast")

    def __init__(self, mctx: Ctx, plan, probe: MoveView, at_start: bool):
        self.compiler = plan.compiler
        self.blocked = False
        self.fast: _PlainFast | None = None  # set by reach once its one plain search is prepared
        self.searches: dict = {}
        self.preps: dict = {}
        fixed = []  # (kind, payload): payload (part, var), or the bound's value
        residual = []  # (gates, kind, payload, var): gates ((cond, var, wanted), ...)
        compiler = self.compiler

        def known(f, env):
            """f's value if the profile fixes it, else (what remains of it, its variable)."""
            if f.static or (at_start and f.moment):
                return bool(f(mctx, env))
            rest = _partial(compiler, f.ast, frozenset((f.var,)), mctx, env, at_start)
            if isinstance(rest, bool):
                return rest
            return _residual_cond(compiler, rest, f.var)

        def gate(f, env, wanted):
            """The part applies only if f is ``wanted``: None if the profile
            knows it is, False if it knows it is not, else the gate to judge
            per search."""
            v = known(f, env)
            if isinstance(v, bool):
                return None if v is wanted else False
            return v + (wanted,)

        for mr in move_rules(plan):
            gates = ()
            dc = mr.domain_cond
            if dc is not None:
                gt = gate(dc, {mr.cond_var: probe}, True)
                if gt is False:
                    continue
                if gt is not None:
                    gates = (gt,)
            env = {mr.var: probe}
            for part in mr.parts:
                pg = gates
                for f, wanted in ((part.guard, True), (part.waiver, False)):  # applies if guard, unless waiver
                    gt = None if f is None else gate(f, env, wanted)
                    if gt is False:
                        break
                    if gt is not None:
                        pg = pg + (gt,)
                else:
                    gt = None
                if gt is False:
                    continue
                kind = part.kind
                if kind == "bound":
                    f = part.bound_expr
                    if f.static or (at_start and getattr(f, "moment", False)):
                        payload, dynamic = f(mctx, env), False
                    else:
                        payload, dynamic = getattr(f, "raw", f), True
                elif kind == "piece":
                    v = known(part.test, env)
                    if v is True:
                        continue
                    if v is False:
                        payload, dynamic = None, False  # never: the piece may not move
                    else:
                        payload, dynamic = v, True
                else:
                    payload, dynamic = (part, mr.var), False
                if pg or dynamic:
                    residual.append((pg, kind, payload, mr.var))
                elif kind == "piece":
                    self.blocked = True
                else:
                    fixed.append((kind, payload))
        self.fixed = fixed
        self.residual = residual
        light = compiler.pack_memo.get("light-residuals", {})
        self.light = all(all(f in light for f, v, w in gates)
                         and (kind != "bound" or not callable(payload))
                         and (kind != "piece" or payload is None or payload[0] in light)
                         for gates, kind, payload, var in residual)
        # the common remainder: one ungated test of the piece ("c8 in ordered"),
        # light: it alone decides between no move and the fixed search
        self.only_test = None
        if self.light and len(residual) == 1:
            gates, kind, payload, var = residual[0]
            if not gates and kind == "piece" and payload is not None:
                self.only_test = (payload[0], {payload[1]: None})

    def search(self, mv: "_Move") -> "_Search | None":
        """The search for this move now (None: the piece may not move)."""
        if self.blocked:
            return None
        if self.only_test is not None:
            f, env = self.only_test
            if not f(mv.ctx, env):
                return None
            key = ()
        else:
            key = self._extra(mv)
            if key is None:
                return None
        hit = self.searches.get(key)
        if hit is None:
            parts = {id(p[0]): p for g, k, p, v in self.residual if k not in ("bound", "piece")}
            hit = self.searches[key] = _intern_search(
                self.compiler, self.fixed + [(k, x if k == "bound" else parts[x]) for k, x in key])
        return hit

    def _extra(self, mv: "_Move") -> tuple | None:
        """The residual judged for this move: the parts and bounds it adds
        to the fixed ones, as a key ((kind, part id or bound), ...); None:
        the piece may not move."""
        if not self.residual:
            return ()
        if self.light:  # the remainders read neither the move nor the moment
            mctx, probe = mv.ctx, None
        else:
            mctx, probe = mv.mctx, mv.probe
        vals: dict = {}
        extra = []
        for gates, kind, payload, var in self.residual:
            ok = True
            for f, v, wanted in gates:
                x = vals.get(f)
                if x is None:
                    x = vals[f] = bool(f(mctx, {v: probe}))
                if x is not wanted:
                    ok = False
                    break
            if not ok:
                continue
            if kind == "piece":
                if payload is None:
                    return None
                f, v = payload
                x = vals.get(f)
                if x is None:
                    x = vals[f] = bool(f(mctx, {v: probe}))
                if not x:
                    return None
            elif kind == "bound":
                extra.append(("bound", payload(mctx, {var: probe}) if callable(payload) else payload))
            else:
                extra.append((kind, id(payload[0])))
        return tuple(extra)


def _intern_search(compiler, items) -> "_Search":
    bounds = [x for k, x in items if k == "bound"]
    depth = min([b for b in bounds if isinstance(b, int)] + [MAX_DEPTH])
    by = {k: tuple(x for kk, x in items if kk == k) for k in ("enter", "pass", "end", "filter")}
    key = ("search", depth) + tuple(tuple(id(p) for p, _ in by[k]) for k in ("enter", "pass", "end", "filter"))
    memo = compiler.pack_memo
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _Search(compiler, depth, by["enter"], by["pass"], by["end"], by["filter"])
    return hit


class _Group:
    """Some parts of one kind, by how the search judges them: ``static``
    (the hex and the piece alone: a cell set per piece and start), ``clean``
    (``Compiler.move_use``: a set per position of the pieces, ``CleanCells``),
    ``lazy`` (hex by hex, as the search touches them)."""

    __slots__ = ("kind", "static", "clean", "clean_tests", "lazy", "tag", "piece_names", "move_names", "card",
                 "reads_length")

    def __init__(self, compiler, kind: str, parts: tuple):
        self.kind = kind
        end = kind == "end"
        self.static, self.clean, self.lazy = [], [], []
        for pv in parts:
            part, var = pv
            if not end:
                if part.static is None:
                    part.static = part.ast is not None and compiler.board_static(part.ast, (var, part.hvar)) \
                        and not compiler.is_dynamic(part.ast)
                if part.static:
                    self.static.append(pv)
                    continue
            use = None if part.ast is None else compiler.move_use(part.ast, var, None if end else part.hvar)
            (self.clean if use is not None and use.clean else self.lazy).append(pv)
        self.clean_tests = [(p.test, v) for p, v in self.clean]
        uses = [compiler.move_use(p.ast, v, None if end else p.hvar) for p, v in self.clean]
        self.tag = (kind,) + tuple(id(p) for p, _ in self.clean)
        self.piece_names = tuple(sorted({a for u in uses for a in u.piece_attrs}))
        self.move_names = tuple(sorted({a for u in uses for a in u.move_attrs
                                        if not end or a not in ("length", "to")}))
        self.card = any(u.card for u in uses)
        self.reads_length = end and any("length" in u.move_attrs for u in uses)

    def key(self, g, compiler, probe) -> int | None:
        """The key of this group's ``CleanCells`` for ``probe``'s piece (a
        small int standing for the parts, the attributes they read and the
        card if they read it)."""
        if not self.clean:
            return None
        key = (self.tag, _attrs(probe.piece, self.piece_names), _attrs(probe, self.move_names),
               compiler.card_key(g) if self.card else None)
        ids = compiler.pack_memo.setdefault("clean-keys", {})
        hit = ids.get(key)
        if hit is None:
            hit = ids[key] = len(ids)
        return hit


class _Search:
    """What one search uses: how far, and the parts that judge entering,
    passing through and ending on a hex (interned per pack: the pieces of
    one kind on one card share it)."""

    def __init__(self, compiler, depth, enter, passing, ends, filters):
        self.depth = depth
        self.enter, self.passing = _Group(compiler, "enter", enter), _Group(compiler, "pass", passing)
        self.ends = _Group(compiler, "end", ends)
        self.filters = filters
        self.first_ok = not filters and not any(p.reads_length for p, _ in ends)
        # every part static or clean, no end part reading the length: see _plain_search
        self.plain = not (self.enter.lazy or self.passing.lazy or self.ends.lazy or self.ends.reads_length)


class _Prep:
    """One search of one piece from one hex on one card, prepared: the hexes
    within its allowance that the static parts allow (bit masks), and the
    keys of its clean parts' ``CleanCells``."""

    __slots__ = ("enter", "passing", "enter_key", "pass_key", "end_key")

    def __init__(self, search: _Search, mctx: Ctx, probe: MoveView, compiler):
        setting = mctx.g.setting
        enter = setting.board.ball_mask(probe.start, search.depth)
        for ok in _static_masks(setting, mctx, probe, search.enter.static):
            enter &= ok
        self.enter = enter
        passing = None
        for ok in _static_masks(setting, mctx, probe, search.passing.static):
            passing = ok if passing is None else passing & ok
        self.passing = passing
        g = mctx.g
        self.enter_key = search.enter.key(g, compiler, probe)
        self.pass_key = search.passing.key(g, compiler, probe)
        self.end_key = search.ends.key(g, compiler, probe)


def _static_masks(setting, ctx, probe, parts):
    """The cells each static part allows (the hex and the moving piece
    alone: terrain, the board's edge, the piece's sections), as bit masks:
    facts of the setting, worked out once per piece and start."""
    out = []
    board = setting.board
    for part, var in parts:
        key = ("cells", id(part), probe.piece, probe.start, probe.phase)
        ok = setting.memo.get(key)
        if ok is None:
            ok = setting.memo[key] = board.mask(
                c for c in board.cells if part.test(ctx, {var: probe, part.hvar: c}))
        out.append(ok)
    return out


# ---------------------------------------------------- hexes: clean cell sets


class CleanCells:
    """The hexes of the board where every part of a group of clean parts
    holds (``Compiler.move_use``: they read the hex only through what stands
    there and its terrain, and otherwise only the moving piece's attributes,
    the card and the setting), in one position of the pieces, for the
    pieces with the attributes of the key.

    A fact of the position (per side, like the hand-written generator's sets
    of enemy and friendly hexes): worked out once for the position before
    the turn, and for a later position from its parent's, judging again only
    the hexes whose occupants changed. Hexes are judged once per class
    (what stands there, the terrain): all plain hexes (empty, clear) share
    one answer. ``cells``: a bit mask (``Board.mask``)."""

    __slots__ = ("cells", "by_class", "judge", "terrain")

    def __init__(self, cells: int, by_class, judge, terrain):
        self.cells, self.by_class, self.judge, self.terrain = cells, by_class, judge, terrain

    def value(self, c, pos, key=None) -> bool:
        """Do the parts hold on hex c in position ``pos``? (``key``: c's class
        there, if known: ``_Move.cls``)"""
        if key is None:
            key = (pos.unit_on.get(c), pos.leader_on.get(c), self.terrain.get(c))
        v = self.by_class.get(key)
        if v is None:
            v = self.by_class[key] = self.judge(c, pos)
        return v

    @classmethod
    def of(cls, pos: Positions, key, setting, make_judge) -> "CleanCells":
        """The ``CleanCells`` of ``key`` in ``pos`` (``make_judge()``: the
        judge of a hex, asked for only if they must be worked out)."""
        memo = pos.memo
        if memo is None:
            memo = pos.memo = {}
        hit = memo.get(key)
        if hit is not None:
            return hit
        index = setting.board.index
        if pos.parent is not None:
            par = cls.of(pos.parent, key, setting, make_judge)
            cells = par.cells
            for c in pos.changed:
                bit = 1 << index[c]
                cells = cells | bit if par.value(c, pos) else cells & ~bit
            hit = cls(cells, par.by_class, par.judge, par.terrain)
        else:
            board = setting.board
            hit = cls(0, {}, make_judge(), setting.terrain)
            special = pos.occupied | _terrain_cells(setting)
            plain = next((c for c in board.cell_at if c not in special), None)
            everything = (1 << len(board.cell_at)) - 1
            cells = everything & ~board.mask(special) if plain is not None and hit.value(plain, pos) else 0
            for c in special:
                if hit.value(c, pos):
                    cells |= 1 << index[c]
            hit.cells = cells
        memo[key] = hit
        return hit


def _state_ctx(ctx: Ctx, pos: Positions) -> Ctx:
    return Ctx(ctx.g, ctx.alt, ctx.ordered, ctx.orders, ctx.turn, pos, ctx.earlier)


def _hex_judge(ctx: Ctx, probe: MoveView, parts):
    """The judge of hex parts for ``CleanCells``: judge(c, pos)."""
    def judge(c, pos):
        cx = _state_ctx(ctx, pos)
        return all(bool(part.test(cx, {var: probe, part.hvar: c})) for part, var in parts)
    return judge


def _end_judge(ctx: Ctx, probe: MoveView, tests, k):
    """The judge of conditions on a move ending on a hex after k steps
    (``tests``: (closure, the move's variable)), for ``CleanCells``:
    judge(c, pos)."""
    piece, start, index, phase = probe.piece, probe.start, probe.index, probe.phase

    def judge(c, pos):
        cx = _state_ctx(ctx, pos)
        env_m = MoveView(piece, start, None, index, to=c, length=k, phase=phase)
        return all(bool(test(cx, {var: env_m})) for test, var in tests)
    return judge


class _HexSet:
    """The hexes a moving piece may enter (or pass through) in one search,
    as a bit mask: the static parts' cells within its allowance, the clean
    parts' cells of the position, and the lazy parts judged on the hexes
    the search touches."""

    __slots__ = ("ok", "lazy", "cache", "board")

    def __init__(self, group: _Group, cells, key, mv: "_Move", compiler):
        ctx, probe = mv.mctx, mv.probe
        setting = ctx.g.setting
        self.board = setting.board
        self.ok = mv.allowed(group, key, cells)  # None: every hex
        self.lazy = [_hex_part(compiler, setting, ctx, probe, part, var) for part, var in group.lazy] \
            if group.lazy else ()
        self.cache: dict = {}

    def __call__(self, c) -> bool:
        if self.ok is not None and not self.ok >> self.board.index[c] & 1:
            return False
        if not self.lazy:
            return True
        v = self.cache.get(c)
        if v is None:
            v = self.cache[c] = all(t(c) for t in self.lazy)
        return v

    def filter(self, cells: int) -> int:
        """The hexes of ``cells`` that pass."""
        if self.ok is not None:
            cells &= self.ok
        if self.lazy and cells:
            index = self.board.index
            for c in self.board.cells_in(cells):
                if not self(c):
                    cells &= ~(1 << index[c])
        return cells


class _EndCells:
    """``ends(cells, k)``: the hexes of ``cells`` (a bit mask) a move may end
    on after k steps."""

    __slots__ = ("group", "key", "mv", "ctx", "fixed", "by_k", "lazy")

    def __init__(self, group: _Group, key, mv: "_Move", compiler):
        ctx = mv.mctx
        self.group, self.key, self.mv, self.ctx = group, key, mv, ctx
        self.fixed = None if not group.clean or group.reads_length else self._cells(None)
        self.by_k: dict = {}
        self.lazy = [_end_part(compiler, ctx.g.setting, ctx, part, var, mv.probe) for part, var in group.lazy] \
            if group.lazy else ()

    def _cells(self, k) -> int:
        return self.mv.allowed(self.group, self.key, None, k)

    def __call__(self, cells: int, k) -> int:
        g = self.group
        if g.clean:
            if g.reads_length:
                ok = self.by_k.get(k)
                if ok is None:
                    ok = self.by_k[k] = self._cells(k)
            else:
                ok = self.fixed
            cells &= ok
        if self.lazy and cells:
            board = self.ctx.g.setting.board
            index = board.index
            for c in board.cells_in(cells):
                if not all(t(c, k) for t in self.lazy):
                    cells &= ~(1 << index[c])
        return cells


def _terrain_cells(setting) -> frozenset:
    hit = setting.memo.get("terrain-cells")
    if hit is None:
        hit = setting.memo["terrain-cells"] = frozenset(setting.terrain)
    return hit


def _attrs(obj, names: tuple) -> tuple:
    return tuple([obj.get_attr(n) for n in names])


class EndFlag:
    """Does a condition on a move of one piece from its hex before the turn
    (such as ``may_battle``) hold for a move that ends on a hex after k
    steps, judged on the board before the turn? (``end_flags``)"""

    __slots__ = ("by_k", "reads_length", "cells_of", "judge", "board")

    def __init__(self, board, cells_of=None, reads_length=False, judge=None):
        self.by_k: dict = {}
        self.board, self.cells_of, self.reads_length, self.judge = board, cells_of, reads_length, judge

    def mask(self, r: Reach) -> int:
        """The hexes where it holds for a move of some legal length there
        (of the ends of ``r``)."""
        if self.judge is None and not self.reads_length:  # one set of hexes, whatever the length
            cells = self.by_k.get(None)
            if cells is None:
                cells = self.by_k[None] = self.cells_of(None)
            return r.anywhere & cells
        out = 0
        end_masks = r.end_masks
        if self.judge is not None:
            index = self.board.index
            for k, m in enumerate(end_masks):
                for c in self.board.cells_in(m & ~out):
                    if self.judge(c, k):
                        out |= 1 << index[c]
            return out
        by_k = self.by_k
        for k, m in enumerate(end_masks):
            if m:
                cells = by_k.get(k)
                if cells is None:
                    cells = by_k[k] = self.cells_of(k)
                out |= m & cells
        return out


def end_flags(ctx: Ctx, compiler, tag, test, use, var: str = "m"):
    """``flag_of(piece)``: an ``EndFlag`` for ``test`` (a condition on a move
    ``var`` of the piece from its hex before the turn). When ``use``
    (``Compiler.move_use``) says it is clean, a ``CleanCells`` mask per
    length of the position before the turn, shared by the pieces with the
    same attributes, and ``flag_of`` (with its flags per piece) is kept per
    card in the setting (a clean test never reads the order set, so the
    context it is first made with serves every query); otherwise judged
    per hex, once per class of hexes if it is local. The piece's own hex is
    not judged as an end (it is never a destination)."""
    setting = ctx.g.setting
    card = compiler.card_key(ctx.g)
    if use.clean:
        hit = setting.memo.get(("end-flags", tag, card))
        if hit is not None:
            return hit
    base = Positions.initial(setting)
    if not use.clean:
        def lazy(piece):
            def judge(c, k):
                return bool(test(ctx, {var: MoveView(piece, piece.at, None, 0, to=c, length=k)}))
            return EndFlag(setting.board, judge=local_judge(setting, _state_ctx(ctx, base), use, judge, end=True))
        return lazy
    flags: dict = {}  # piece -> EndFlag
    fixed = tuple(a for a in use.move_attrs if a not in ("length", "to"))

    def flag_of(piece):
        hit = flags.get(piece)
        if hit is None:
            probe = MoveView(piece, piece.at, (), 0, to=piece.at, length=0)
            head = (tag, _attrs(piece, use.piece_attrs), _attrs(probe, fixed), card if use.card else None)

            def cells_of(k):
                return CleanCells.of(base, head + (k,), setting, lambda: _end_judge(ctx, probe, [(test, var)], k)).cells
            hit = flags[piece] = EndFlag(setting.board, cells_of, "length" in use.move_attrs)
        return hit
    setting.memo[("end-flags", tag, card)] = flag_of
    return flag_of


# ---------------------------------------------------- hexes: lazy parts


def local_judge(setting, ctx, use, judge, end: bool):
    """``judge'(c, k)``: ``judge(c, k)`` (a part of a move with the hex c,
    k steps), cached by the hex's class within this search
    when ``use`` (``Compiler.move_use``) says it is ``local``; otherwise
    judged hex by hex. (Clean parts are ``CleanCells``.) For an end part
    (``end``) k counts only if the part reads the length."""
    if not use.local:
        return judge
    reads_length = end and "length" in use.move_attrs
    state, terrain = ctx.state, setting.terrain
    unit_on, leader_on = state.unit_on, state.leader_on
    by_class: dict = {}

    def local(c, k):
        key = (unit_on.get(c), leader_on.get(c), terrain.get(c), k if reads_length else None)
        v = by_class.get(key)
        if v is None:
            v = by_class[key] = judge(c, k)
        return v
    return local


def _hex_part(compiler, setting, ctx, probe, part: Part, var: str):
    """test(c): one lazy hex part in one search (see ``local_judge``)."""
    test, hvar = part.test, part.hvar

    def judge(c, k=None):
        return bool(test(ctx, {var: probe, hvar: c}))
    if part.ast is None:
        return judge
    cached = local_judge(setting, ctx, compiler.move_use(part.ast, var, hvar), judge, end=False)
    return lambda c: cached(c, None)


def _end_part(compiler, setting, ctx, part: Part, var: str, probe):
    """test(c, k): one lazy end part in one search (see ``local_judge``)."""
    test = part.test
    piece, start, index, phase = probe.piece, probe.start, probe.index, probe.phase

    def judge(c, k):
        return bool(test(ctx, {var: MoveView(piece, start, None, index, to=c, length=k, phase=phase)}))
    if part.ast is None:
        return judge
    return local_judge(setting, ctx, compiler.move_use(part.ast, var), judge, end=True)


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
