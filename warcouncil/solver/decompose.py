"""Per-move rules, decomposed into the parts a move search can use.

A *per-move rule* is a rule over the turn's moves::

    rule ... require forall m in moves: BODY
    rule ... require forall m in {x in moves where GUARD(x.piece)}: BODY

``decompose`` splits BODY into parts (``Part``):

* ``forall h in m.path: ψ(h)``     every hex entered must satisfy ψ;
* ``forall h in m.through: φ(h)``  every hex passed through (not the last);
* ``m.length <= E``                a bound on the search depth;
* anything about ``m.to``/``m.length`` only: judged at each candidate end;
* anything about neither (the piece, the moment): judged once per search;
* ``G implies C`` with G about the piece only: C applies when G holds;
* anything else: judged on whole paths (the search then enumerates paths).

A condition known before the move (``before_move``) is memoized per pack,
setting or grounding when it reads nothing that changes during a turn.
(docs/design.md §5.3)
"""

from __future__ import annotations

from dataclasses import field
from typing import Callable

from ..dsl import ast as A
from ..records import record
from ..kernel.evaluate import referenced_names
from ..kernel.ground import Ctx
from ..kernel.state import MoveView, attrs


def _refs_attr(e, var: str, names: set[str]) -> bool:
    for n in A.walk(e):
        if isinstance(n, A.Attr) and isinstance(n.obj, A.Name) and n.obj.id == var and n.name in names:
            return True
    return False


def _reads_move(compiler, e, var: str, names: set[str]) -> bool:
    """Does ``e`` read one of these attributes of the move ``var``, written
    out (``m.to``) or in a definition it hands the move to (``short(m)``
    with ``short(x) := x.length <= 1``: ``Compiler.move_use``)?"""
    return _refs_attr(e, var, names) or bool(names.intersection(compiler.move_use(e, var).move_attrs))


_PATHY = {"path", "through"}
# builtins about the whole turn (not the moment of a move): never guards
_WHOLE_TURN = {"moves", "battles", "moved", "final", "last_move", "moved_length", "battles_of"}
_ENDY = {"to", "length", "path", "through"}


@record(frozen=False)
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


@record(frozen=False)
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
            gs = [x for x in lefts if not _reads_move(compiler, x, var, _ENDY) and not (referenced_names(x) & _WHOLE_TURN)]
            rest = [x for x in lefts if x not in gs]
            if gs:
                g_expr = gs[0] if len(gs) == 1 else A.And(tuple(gs))
                guard = before_move(compiler, g_expr, var, compiler.compile(g_expr))
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
            and c.domain.name in ("path", "through") and not _reads_move(compiler, c.body, var, _ENDY):
        kind = "enter" if c.domain.name == "path" else "pass"
        body, waiver = c.body, None
        if isinstance(body, A.Or):
            # `forall h in P: A(h) or B` with B free of h: B, judged once before
            # the move, waives the hex test A (light foot passing friends)
            free = [x for x in body.items if c.var not in referenced_names(x)]
            rest = [x for x in body.items if c.var in referenced_names(x)]
            if free and rest:
                w = free[0] if len(free) == 1 else A.Or(tuple(free), body.loc)
                waiver = before_move(compiler, w, var, compiler.compile(w))
                body = rest[0] if len(rest) == 1 else A.Or(tuple(rest), body.loc)
        return Part(kind, guard, compiler.compile(body), c.var, ast=body, waiver=waiver)
    if isinstance(c, A.Compare) and c.op in ("<=", "<") and isinstance(c.left, A.Attr) \
            and isinstance(c.left.obj, A.Name) and c.left.obj.id == var and c.left.name == "length" \
            and not _reads_move(compiler, c.right, var, _ENDY) and not compiler.is_turn(c.right):
        bound = before_move(compiler, c.right, var, compiler.compile(c.right))
        if c.op == "<":
            b0 = bound

            def bound(ctx, env):
                return b0(ctx, env) - 1
            bound.static = b0.static
        return Part("bound", guard, compiler.compile(c), None, bound)
    if not _reads_move(compiler, c, var, _PATHY):
        if not _reads_move(compiler, c, var, {"to", "length"}):
            # about the piece and the moment only
            return Part("piece", guard, before_move(compiler, c, var, compiler.compile(c)))
        return Part("end", guard, compiler.compile(c), ast=c,
                    reads_length="length" in compiler.move_use(c, var).move_attrs)
    return Part("filter", guard, compiler.compile(c))


def move_rules(plan) -> list[MoveRule]:
    """The per-move rules of a plan, decomposed (made once per plan)."""
    caches = plan.compiler.caches
    cached = caches.move_rules
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
                and not _reads_move(c, dom.cond, dom.var, _ENDY | {"start"}):
            mr = MoveRule(r, body.var, c.compile(dom.cond) if dom.cond is not None else None, dom.var)
        else:
            continue
        if mr.domain_cond is not None:
            mr.domain_cond = before_move(c, dom.cond, dom.var, mr.domain_cond)
        mr.parts = decompose(c, body.body, body.var)
        out.append(mr)
    caches.move_rules = out
    return out


def before_move(compiler, ast: A.Expr, var: str, f):
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
        reads = compiler.caches.fact_reads
        reads[0].update(use.piece_attrs)
        reads[1].update(use.move_attrs)
        pack_memo = compiler.pack_memo

        def pack_fact(ctx, env, ast=ast):  # (the default keeps the node, so its id, alive)
            m = env[var]
            key = (tag, m.fact_key or _fact_key(compiler, ctx, m))
            v = pack_memo.get(key, _MISSING)
            if v is _MISSING:
                v = pack_memo[key] = f(ctx, env)
            return v
        pack_fact.static = True
        return pack_fact
    if compiler.board_static(ast, (var,)):
        per_setting = True
    elif compiler.context_static(ast, (var,)):
        per_setting = False
    else:
        def dynamic(ctx, env):
            return f(ctx, env)
        # ``static``: fixed by the card, the piece and its start; ``moment``:
        # besides those, it reads only the moment of the turn (the moves made
        # before, where the pieces stand), so it is fixed too when the piece
        # moves first, from the position before the turn
        dynamic.static, dynamic.raw, dynamic.ast, dynamic.var = False, f, ast, var
        dynamic.moment = compiler.dynamic_reads(ast, frozenset((var,))) <= compiler.vocabulary.moment
        return dynamic

    def cond(ctx, env, ast=ast):  # (the default keeps the node, so its id, alive)
        m = env[var]
        key = (tag, m.piece, m.start, m.phase, m.index)
        memo = ctx.g.setting.memo if per_setting else ctx.g.memo
        v = memo.get(key, _MISSING)
        if v is _MISSING:
            v = memo[key] = f(ctx, env)
        return v
    cond.static = True
    return cond


_MISSING = object()


def _fact_key(compiler, ctx, m) -> tuple:
    """The card and the attributes every pack-fact condition may read of a
    move: one key per move, shared by those conditions. (The attributes
    read are gathered while the move rules are planned: ``fact_reads``.)"""
    caches = compiler.caches
    reads = caches.fact_reads
    names = caches.fact_names
    if names is None or names[0] != (len(reads[0]), len(reads[1])):
        names = caches.fact_names = ((len(reads[0]), len(reads[1])), tuple(sorted(reads[0])),
                                        tuple(sorted(reads[1])))
    key = m.fact_key = (compiler.fixed_key(ctx.g), attrs(m.piece, names[1]), attrs(m, names[2]))
    return key


def applies(mr: MoveRule, ctx: Ctx, m: MoveView) -> bool:
    if mr.domain_cond is None:
        return True
    return bool(mr.domain_cond(ctx, {mr.cond_var: m}))
