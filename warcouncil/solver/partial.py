"""The partial evaluator: a condition with what is already known worked out.

Beside the compiler (``evaluate.py``): given the values of some names (a
move's piece and start, the card, the setting) it rewrites an expression
into what remains, every subterm they fix a value (``A.Value``) and the
definitions called with fixed arguments unfolded. The move search uses it
to leave a few small closures per search (``Profile`` in ``profile.py``).
(docs/design.md §5.3)
"""

from __future__ import annotations

from ..dsl import ast as A
from ..errors import WarcouncilError
from .evaluate import referenced_names
from .ground import Ctx


class _Opaque(Exception):
    """The partial evaluator cannot rewrite this condition safely."""


def partial(compiler, e: A.Expr, names: frozenset, mctx: Ctx, env: dict, at_start: bool):
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
    memo = compiler.caches.values
    hit = memo.get(id(v))
    if hit is None or hit[0] is not v:
        hit = memo[id(v)] = (v, A.Value(v))
    return hit[1]


def _pe(compiler, e, names, mctx, env, subst, at_start, depth):
    """``partial`` of e, where ``env`` gives the values of ``names`` and
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


def residual_cond(compiler, e: A.Expr, var: str) -> tuple:
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
        if var not in referenced_names(e) and not compiler.dynamic_reads(e) & compiler.vocabulary.moment:
            # reads neither the move nor the moment: judged in the caller's context
            compiler.caches.light_residuals.add(hit[0])
    return hit


def _fixed(compiler, e: A.Expr, names: frozenset, at_start: bool) -> bool:
    """Is ``e``'s value fixed by the profile (the card, the setting, the
    names bound, and at the start of the turn the moment)?"""
    reads = compiler.dynamic_reads(e, names)
    return not reads or (at_start and reads <= compiler.vocabulary.moment)
