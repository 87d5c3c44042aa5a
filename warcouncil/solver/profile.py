"""Before a move: what the per-move rules fix for one piece, from one hex,
on one card (``Profile``), and the searches it picks (``Search``, interned
per pack; its parts grouped by how the search judges them, ``PartGroup``;
prepared per piece and start, ``Prep``). (docs/design.md §5.3, "Profiles")
"""

from __future__ import annotations

from .decompose import move_rules
from ..kernel.ground import Ctx
from .partial import is_light, partial, residual_cond
from ..kernel.state import MoveView, attrs

MAX_DEPTH = 12


class Profile:
    """What the per-move rules fix before one piece moves from one hex on one
    card: which rules and parts apply, how far it may go, whether it may move
    at all. Every condition that reads only the card, the setting, the
    piece and its start (``before_move``: ``static``) is judged once, here;
    the others (the order set, the moves made before) remain as a short
    residual judged at each search, whose answers pick the ``Search``.

    Like the hand-written generator's table of allowances per unit type,
    this is a fact of the pack and the setting; which hexes the piece may
    enter depends on where the pieces stand and is worked out per search."""

    __slots__ = ("blocked", "fixed", "residual", "searches", "preps", "compiler", "light", "only_test", "fast",
                 "only_member")

    def __init__(self, mctx: Ctx, plan, probe: MoveView, at_start: bool):
        self.compiler = plan.compiler
        self.blocked = False
        self.fast = None  # a search.PlainFast, set by reach once its one plain search is prepared
        self.searches: dict = {}
        self.preps: dict = {}
        fixed = []  # (kind, payload): payload (part, var), or the bound's value
        residual = []  # (gates, kind, payload, var): gates ((cond, var, wanted), ...)
        compiler = self.compiler
        setting = mctx.g.setting
        members: dict = {}  # a residual closure -> (v,) when it is `v in ordered` (Compiler.ordered_member)

        def known(f, env):
            """f's value if the profile fixes it, else (what remains of it, its variable)."""
            if f.static or (at_start and f.moment):
                return bool(f(mctx, env))
            rest = partial(compiler, f.ast, frozenset((f.var,)), mctx, env, at_start)
            if isinstance(rest, bool):
                return rest
            out = residual_cond(compiler, rest, f.var, setting)
            member = compiler.ordered_member(rest)
            if member is not None:
                members[out[0]] = member
            return out

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
        self.light = all(all(is_light(compiler, setting, f) for f, v, w in gates)
                         and (kind != "bound" or not callable(payload))
                         and (kind != "piece" or payload is None or is_light(compiler, setting, payload[0]))
                         for gates, kind, payload, var in residual)
        # the common remainder: one ungated test of the piece ("c8 in ordered"),
        # light: it alone decides between no move and the fixed search
        self.only_test = None
        # (v,) when that one test is `v in ordered`: a caller holding the
        # order set answers it by membership (search.PlainFast.ends_before)
        self.only_member = None
        if self.light and len(residual) == 1:
            gates, kind, payload, var = residual[0]
            if not gates and kind == "piece" and payload is not None:
                self.only_test = (payload[0], {payload[1]: None})
                self.only_member = members.get(payload[0])

    def search(self, mv) -> "Search | None":
        """The search for this move now (``mv``: a ``search.Mover``; None: the
        piece may not move)."""
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

    def _extra(self, mv) -> tuple | None:
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


def _intern_search(compiler, items) -> "Search":
    bounds = [x for k, x in items if k == "bound"]
    depth = min([b for b in bounds if isinstance(b, int)] + [MAX_DEPTH])
    by = {k: tuple(x for kk, x in items if kk == k) for k in ("enter", "pass", "end", "filter")}
    key = (depth,) + tuple(tuple(id(p) for p, _ in by[k]) for k in ("enter", "pass", "end", "filter"))
    memo = compiler.caches.searches
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = Search(compiler, depth, by["enter"], by["pass"], by["end"], by["filter"])
    return hit


class PartGroup:
    """Some parts of one kind, by how the search judges them: ``static``
    (the hex and the piece alone: a cell set per piece and start), ``clean``
    (``Compiler.move_use``: a set per position of the pieces, ``CleanCells``),
    ``lazy`` (hex by hex, as the search touches them)."""

    __slots__ = ("kind", "static", "clean", "clean_tests", "lazy", "tag", "piece_names", "move_names", "context",
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
        self.context = any(u.context for u in uses)
        self.reads_length = end and any("length" in u.move_attrs for u in uses)

    def key(self, g, compiler, probe) -> int | None:
        """The key of this group's ``CleanCells`` for ``probe``'s piece (a
        small int standing for the parts, the attributes they read and the
        decision's context if they read it: C&C's card)."""
        if not self.clean:
            return None
        key = (self.tag, attrs(probe.piece, self.piece_names), attrs(probe, self.move_names),
               compiler.fixed_key(g) if self.context else None)
        ids = compiler.caches.clean_keys
        hit = ids.get(key)
        if hit is None:
            hit = ids[key] = len(ids)
        return hit


class Search:
    """What one search uses: how far, and the parts that judge entering,
    passing through and ending on a hex (interned per pack: the pieces of
    one kind on one card share it)."""

    def __init__(self, compiler, depth, enter, passing, ends, filters):
        self.depth = depth
        self.enter, self.passing = PartGroup(compiler, "enter", enter), PartGroup(compiler, "pass", passing)
        self.ends = PartGroup(compiler, "end", ends)
        self.filters = filters
        self.first_ok = not filters and not any(p.reads_length for p, _ in ends)
        # every part static or clean, no end part reading the length: see _plain_search
        self.plain = not (self.enter.lazy or self.passing.lazy or self.ends.lazy or self.ends.reads_length)


class Prep:
    """One search of one piece from one hex on one card, prepared: the hexes
    within its allowance that the static parts allow (bit masks), and the
    keys of its clean parts' ``CleanCells``."""

    __slots__ = ("enter", "passing", "enter_key", "pass_key", "end_key")

    def __init__(self, search: Search, mctx: Ctx, probe: MoveView, compiler):
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
    memo = setting.caches.static_cells
    for part, var in parts:
        key = (id(part), probe.piece, probe.start, probe.phase)
        ok = memo.get(key)
        if ok is None:
            ok = memo[key] = board.mask(
                c for c in board.cells if part.test(ctx, {var: probe, part.hvar: c}))
        out.append(ok)
    return out
