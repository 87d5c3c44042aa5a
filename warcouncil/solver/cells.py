"""Hexes as bit masks: where a group of parts holds, per position of the
pieces (``CleanCells``) and per search (``HexSet``, ``EndCells``), and
conditions on a move's end as masks (``EndFlag``, ``end_flags``: may a
piece battle after a move ending there). Clean parts are judged once per
class of hexes (what stands there, the terrain); lazy parts hex by hex
(``local_judge``). (docs/design.md §5.3, "Hexes as bit masks")
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .decompose import Part
from ..kernel.ground import Ctx
from ..kernel.state import MoveView, Positions, attrs

if TYPE_CHECKING:
    from .profile import PartGroup

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
        there, if known: ``Mover.cls``)"""
        if key is None:
            key = (pos.on.get(c), self.terrain.get(c))
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


def hex_judge(ctx: Ctx, probe: MoveView, parts):
    """The judge of hex parts for ``CleanCells``: judge(c, pos)."""
    def judge(c, pos):
        cx = _state_ctx(ctx, pos)
        return all(bool(part.test(cx, {var: probe, part.hvar: c})) for part, var in parts)
    return judge


def end_judge(ctx: Ctx, probe: MoveView, tests, k):
    """The judge of conditions on a move ending on a hex after k steps
    (``tests``: (closure, the move's variable)), for ``CleanCells``:
    judge(c, pos)."""
    piece, start, index, phase = probe.piece, probe.start, probe.index, probe.phase

    def judge(c, pos):
        cx = _state_ctx(ctx, pos)
        env_m = MoveView(piece, start, None, index, to=c, length=k, phase=phase)
        return all(bool(test(cx, {var: env_m})) for test, var in tests)
    return judge


class HexSet:
    """The hexes a moving piece may enter (or pass through) in one search
    (``mv``: a ``search.Mover``), as a bit mask: the static parts' cells
    within its allowance, the clean parts' cells of the position, and the
    lazy parts judged on the hexes the search touches."""

    __slots__ = ("ok", "lazy", "cache", "board")

    def __init__(self, group: PartGroup, cells, key, mv, compiler):
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


class EndCells:
    """``ends(cells, k)``: the hexes of ``cells`` (a bit mask) a move may end
    on after k steps (``mv``: a ``search.Mover``)."""

    __slots__ = ("group", "key", "mv", "ctx", "fixed", "by_k", "lazy")

    def __init__(self, group: PartGroup, key, mv, compiler):
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
    caches = setting.caches
    hit = caches.terrain_cells
    if hit is None:
        hit = caches.terrain_cells = frozenset(setting.terrain)
    return hit


class EndFlag:
    """Does a condition on a move of one piece from its hex before the turn
    (such as ``may_battle``) hold for a move that ends on a hex after k
    steps, judged on the board before the turn? (``end_flags``)"""

    __slots__ = ("by_k", "reads_length", "cells_of", "judge", "board", "fixed")

    def __init__(self, board, cells_of=None, reads_length=False, judge=None):
        self.by_k: dict = {}
        # the hexes where it holds whatever the length, once worked out (a
        # mask; None: not yet, or it reads the length or is judged per hex)
        self.fixed: int | None = None
        self.board, self.cells_of, self.reads_length, self.judge = board, cells_of, reads_length, judge

    def mask(self, r) -> int:
        """The hexes where it holds for a move of some legal length there
        (of the ends of ``r``, a ``search.Reach``)."""
        return self.mask_ends(r.anywhere, r.end_masks)

    def mask_ends(self, anywhere: int, end_masks) -> int:
        """``mask`` of the ends ``anywhere`` (a mask), ``end_masks[k]``
        those of a move of k steps."""
        if self.judge is None and not self.reads_length:  # one set of hexes, whatever the length
            cells = self.by_k.get(None)
            if cells is None:
                cells = self.by_k[None] = self.fixed = self.cells_of(None)
            return anywhere & cells
        out = 0
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
    fixed = compiler.fixed_key(ctx.g)  # the decision's context (C&C: the card)
    if use.clean:
        hit = setting.caches.end_flags.get((tag, fixed))
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
    read = tuple(a for a in use.move_attrs if a not in ("length", "to"))

    def flag_of(piece):
        hit = flags.get(piece)
        if hit is None:
            probe = MoveView(piece, piece.at, (), 0, to=piece.at, length=0)
            head = (tag, attrs(piece, use.piece_attrs), attrs(probe, read), fixed if use.context else None)

            def cells_of(k):
                return CleanCells.of(base, head + (k,), setting, lambda: end_judge(ctx, probe, [(test, var)], k)).cells
            hit = flags[piece] = EndFlag(setting.board, cells_of, "length" in use.move_attrs)
        return hit
    setting.caches.end_flags[(tag, fixed)] = flag_of
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
    on = state.on
    by_class: dict = {}

    def local(c, k):
        key = (on.get(c), terrain.get(c), k if reads_length else None)
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
