"""The move search: every (hex, length) a move of one piece may end on.

The search walks the hexes reached in k steps, k = 1, 2, ...: a hex is
entered only if every ψ holds, left only if every φ holds, and is a
destination if every end condition holds for that length (the parts:
``decompose.py``). What the rules fix before a move is partially evaluated
once per piece, start and card (``profile.Profile``); hexes are bit masks
(``Board.mask``, ``Board.dilate``); the hexes where the parts that read a
hex only through what stands there hold are a mask per position of the
pieces (``cells.CleanCells``). No path finder is hand-coded for any game:
the rules say what blocks, what stops and how far. (docs/design.md §5.3)
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .cells import CleanCells, EndCells, HexSet, end_judge, hex_judge
from ..kernel.ground import Ctx, PieceView
from .profile import PartGroup, Prep, Profile, Search
from ..kernel.state import MoveView, Positions


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
    move (which parts apply, how far: ``Profile``) is worked out once per
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
    key = _profile_key(compiler.fixed_key(g), piece, start, phase, index, at_start)
    prof = setting.memo.get(key)
    fast = prof.fast if prof is not None else None
    if fast is not None:
        r = fast.run(ctx, base, piece, start, board, first_only)
        if r is not None:
            return r
    mv = Mover(ctx, base, piece, start, index, phase)
    if prof is None:
        prof = setting.memo[key] = Profile(mv.mctx, plan, mv.probe, at_start)
    search = prof.search(mv)
    if search is None:
        return Reach(piece, board, [], True)  # this piece may not move at all now
    depth = search.depth
    if depth < 1:
        return Reach(piece, board, [], not search.filters, [mv.bit])
    prep = prof.preps.get(search)
    if prep is None:
        prep = prof.preps[search] = Prep(search, mv.mctx, mv.probe, compiler)
    if search.plain:
        if prof.fast is None and not search.filters and (prof.only_test is not None or not prof.residual):
            prof.fast = PlainFast(search, prep, prof.only_test, mv.bit, prof.only_member)  # the next searches go straight to it
        return _plain_search(piece, board, search, prep, mv, first_only)
    mctx = mv.mctx
    may_enter = HexSet(search.enter, prep.enter, prep.enter_key, mv, compiler)
    may_pass = HexSet(search.passing, prep.passing, prep.pass_key, mv, compiler)
    end_cells = EndCells(search.ends, prep.end_key, mv, compiler)

    lazy_enter = may_enter if may_enter.lazy else None
    lazy_pass = may_pass if may_pass.lazy else None
    levels, end_masks, anywhere = _walk(board, depth, mv.bit, first_only and search.first_ok,
                                        -1 if may_enter.ok is None else may_enter.ok,
                                        -1 if may_pass.ok is None else may_pass.ok,
                                        -1, lazy_enter, lazy_pass, end_cells)
    r = Reach(piece, board, end_masks, not search.filters, levels, may_pass, anywhere)
    return _filtered(r, search, mctx, piece, start, index, phase)


def _profile_key(fixed, piece, start, phase, index, at_start) -> tuple:
    """The key of a piece's ``Profile`` in the setting's memo."""
    return ("move-profile", fixed, piece, start, phase, index, at_start)


def plain_fast_before(setting, fixed, piece) -> "PlainFast | None":
    """The ``PlainFast`` of ``piece``'s move from its hex before the turn
    (the first move of the turn, phase 1), on the decision whose
    ``Compiler.fixed_key`` is ``fixed``, once ``reach`` has made one; else
    None."""
    prof = setting.memo.get(_profile_key(fixed, piece, piece.at, 1, 0, True))
    return prof.fast if prof is not None else None


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

    group: "PartGroup"
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
    """``reach`` when every part is static or clean (``Search.plain``): the
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


class PlainFast:
    """``_plain_search`` of one profile whose search is fixed (no residual,
    or only its one test of the piece: ``Profile.only_test``), with the
    masks read straight from the position's memo: no ``Mover`` is made.
    ``run`` answers None when something must first be worked out (a mask
    not yet in the memo, the class of the piece's own hex not yet judged);
    ``reach`` then takes the general path, which works it out."""

    __slots__ = ("test", "depth", "first_ok", "bit", "static", "clean", "member", "before")

    def __init__(self, search: Search, prep: Prep, test, bit: int, member: tuple | None = None):
        self.test = test
        self.member = member  # (v,): the test is `v in ordered` (Profile.only_member)
        self.before = None  # see _masks_before
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
        masks = self._clean_masks(base, piece, start, ctx.g.setting.terrain)
        if masks is None:
            return None
        bit = self.bit
        enter, passing, ending = masks
        levels, end_masks, anywhere = _walk(board, self.depth, bit, first_only and self.first_ok,
                                            enter, passing, ending)
        return Reach(piece, board, end_masks, True, levels, None if passing == -1 else passing, anywhere)

    def ends_before(self, setting, piece, ordered, g, alt) -> "tuple | None":
        """``run`` for a move of ``piece`` from its hex on the board before
        the turn (no move made yet: ``Positions.initial``), the order set
        being ``ordered`` (a collection of pieces): ``(ends, end_masks)``, the hexes the move may end
        on (its own hex left out) and ``end_masks`` as ``Reach`` has them;
        None when something must first be worked out (``reach`` then takes
        the general path). A test ``v in ordered`` is answered by membership;
        another test is judged in ``Ctx(g, alt, frozenset(ordered))``. A move of one
        hex is one neighbour mask: no walk."""
        test = self.test
        if test is not None:
            member = self.member
            if not (member[0] in ordered if member is not None else test[0](Ctx(g, alt, frozenset(ordered)), test[1])):
                return 0, ()
        base = setting.caches.positions
        before = self.before
        if before is None or before[0] is not base:  # the masks in that position, worked out once
            before = self._masks_before(setting, base, piece)
            if before is None:
                return None
        _, enter, passing, ending = before
        board = setting.board
        bit = self.bit
        # _walk, written out for what destinations reads (no levels)
        frontier = board.nb_masks[bit.bit_length() - 1] & enter
        anywhere = frontier & ending
        end_masks = [0, anywhere]
        if self.depth == 1:  # its neighbours (never its own hex)
            return anywhere, end_masks
        dilate = board.dilate_of  # (the same few frontiers, query after query)
        for _ in range(self.depth - 1):
            src = frontier & passing
            if not src:
                break
            frontier = dilate(src) & enter
            if not frontier:
                break
            e = frontier & ending
            end_masks.append(e)
            anywhere |= e
        return anywhere & ~bit, end_masks

    def _masks_before(self, setting, base, piece) -> "tuple | None":
        """(base, enter, pass, end): ``run``'s masks in the position before
        the turn ``base``, kept (a position never changes, nor do the
        ``CleanCells`` in its memo); None: not all worked out yet."""
        masks = self._clean_masks(base, piece, piece.at, setting.terrain) if base is not None else None
        if masks is None:
            return None
        self.before = out = (base, *masks)
        return out

    def _clean_masks(self, base, piece, start, terrain) -> "list | None":
        """The (enter, pass, end) masks in the position ``base``: each clean
        part's cells from the ``CleanCells`` its memo keeps, the piece's own
        hex corrected; None: not all worked out yet (or no memo)."""
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
                    cls = _own_class(base, piece, start, terrain)
                ok = _own_corrected(ok, cc, bit, cls)
                if ok is None:
                    return None
            masks[i] = ok
        return masks


def _own_class(base, piece, start, terrain) -> tuple:
    """The class of the piece's own hex once the piece is lifted (``CleanCells.value``)."""
    occ = base.on.get(start)
    if occ is not None:
        occ = tuple(None if p is piece else p for p in occ)
        if occ.count(None) == len(occ):
            occ = None
    return (occ, terrain.get(start))


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


class Mover:
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

    def allowed(self, group: "PartGroup", key, cells, k=None, own=True):
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
                make = lambda: end_judge(self.mctx, self.probe, group.clean_tests, k)  # noqa: E731
            else:
                make = lambda: hex_judge(self.mctx, self.probe, group.clean)  # noqa: E731
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
