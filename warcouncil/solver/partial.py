"""The partial evaluator: a condition with what is already known worked out.

Beside the compiler (``evaluate.py``): given the values of some names (a
move's piece and start, the card, the setting) it rewrites an expression
into what remains, every subterm they fix a value (``A.Value``) and the
definitions called with fixed arguments unfolded. The move search uses it
to leave a few small closures per search (``Profile`` in ``profile.py``).
(docs/design.md §5.3)
"""

from __future__ import annotations

from collections import ChainMap

from ..dsl import ast as A
from ..errors import WarcouncilError
from ..kernel.evaluate import referenced_names
from ..kernel.ground import Ctx


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


#: the values equal by value, the same in every setting: their ``A.Value``
#: nodes are kept pack-wide, one per value (``(type, value)``: ``True`` is
#: not ``1``); any other value (a piece, a set of pieces, a cell, a record)
#: may be an object of one setting and is kept in that setting's caches
_PLAIN = frozenset((bool, int, str, type(None)))


def _value(compiler, mctx, v) -> A.Value:
    """The one ``A.Value`` node of a value (so that equal remainders are
    equal): pack-wide for a plain value, else the setting's (a key made of a
    setting's objects never repeats in another setting: kept pack-wide, it
    would only grow with every setting, a batch's every job)."""
    if type(v) in _PLAIN:
        memo = compiler.caches.values
        key = (type(v), v)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = A.Value(v)
        return hit
    memo = mctx.g.setting.caches.values
    hit = memo.get(id(v))
    if hit is None or hit[0] is not v:
        hit = memo[id(v)] = (v, A.Value(v))
    return hit[1]


def _of_setting(e: A.Expr) -> bool:
    """Does the remainder hold a value that is not plain (``_value``: one
    that may belong to one setting)?"""
    return any(n.__class__ is A.Value and type(n.value) not in _PLAIN for n in A.walk(e))


def _pe(compiler, e, names, mctx, env, subst, at_start, depth):
    """``partial`` of e, where ``env`` gives the values of ``names`` and
    ``subst`` what they stand for in the remainder (inside an unfolded
    definition, its parameters)."""
    if e is None or isinstance(e, A.Value):
        return e
    if _fixed(compiler, e, names, at_start):
        try:
            return _value(compiler, mctx, compiler.compile(e)(mctx, env))
        except WarcouncilError:
            pass  # (judged out of its order): left as it is
    if isinstance(e, (A.And, A.Or)):
        decisive = isinstance(e, A.Or)
        rest = []
        for x in e.items:
            r = _pe(compiler, x, names, mctx, env, subst, at_start, depth)
            if isinstance(r, A.Value):
                if bool(r.value) is decisive:
                    return _value(compiler, mctx, decisive)
                continue
            rest.append(r)
        if not rest:
            return _value(compiler, mctx, not decisive)
        return rest[0] if len(rest) == 1 else type(e)(tuple(rest), e.loc)
    if isinstance(e, A.Not):
        r = _pe(compiler, e.operand, names, mctx, env, subst, at_start, depth)
        return _value(compiler, mctx, not r.value) if isinstance(r, A.Value) else A.Not(r, e.loc)
    if isinstance(e, A.IfElse):
        c = _pe(compiler, e.cond, names, mctx, env, subst, at_start, depth)
        if isinstance(c, A.Value):
            return _pe(compiler, e.then if c.value else e.other, names, mctx, env, subst, at_start, depth)
    if isinstance(e, A.Quant) and e.kind in ("exists", "forall") and _fixed(compiler, e.domain, names, at_start):
        # over a domain the profile fixes and finds empty (the moves made
        # before, when the piece moves first)
        try:
            if not compiler.compile(e.domain)(mctx, env):
                return _value(compiler, mctx, e.kind == "forall")
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
                    psubst[p] = _value(compiler, mctx, penv[p])
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


def residual_cond(compiler, e: A.Expr, var: str, setting) -> tuple:
    """(closure, variable) of what remains of a condition: one closure per
    distinct remainder, the move renamed, so that equal remainders of
    different rules (``moving_alone(x)``, ``moving_alone(m)``) are judged
    once per search. A remainder made only of the pack's expressions and
    plain values is kept in the pack's memo (the same in every setting); one
    that holds a setting's objects (``c8 in ordered``, ``c8`` a piece of
    the setting's) in the setting's memo, its closures too
    (``_compile_apart``): its key never repeats in another setting."""
    if not any(isinstance(n, (A.Quant, A.SetComp, A.The)) and n.var == var for n in A.walk(e)):
        e = A.transform(e, lambda n: A.Name(_MOVE, n.loc) if isinstance(n, A.Name) and n.id == var else n)
        var = _MOVE
    key = ("residual", e, var)
    own = _of_setting(e)
    memo = setting.memo if own else compiler.pack_memo
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = (_compile_apart(compiler, e, setting) if own else compiler.compile(e), var)
        if var not in referenced_names(e) and not compiler.dynamic_reads(e) & compiler.vocabulary.moment:
            # reads neither the move nor the moment: judged in the caller's context
            (setting.caches if own else compiler.caches).light_residuals.add(hit[0])
    return hit


def is_light(compiler, setting, f) -> bool:
    """Is the residual closure ``f`` one that reads neither the move nor the
    moment (``residual_cond``)?"""
    return f in compiler.caches.light_residuals or f in setting.caches.light_residuals


def _compile_apart(compiler, e: A.Expr, setting):
    """``compiler.compile(e)`` with the closures and analyses of the nodes
    it compiles first kept in the setting's caches, not the compiler's
    (which key them by the node, kept alive with them: a remainder's nodes
    are made anew for every setting). What the pack's own nodes already
    have is read from the compiler as ever."""
    caches = setting.caches
    saved = compiler._compiled, compiler._board_static
    compiler._compiled = ChainMap(caches.compiled, saved[0])
    compiler._board_static = ChainMap(caches.board_static, saved[1])
    try:
        return compiler.compile(e)
    finally:
        compiler._compiled, compiler._board_static = saved


def _fixed(compiler, e: A.Expr, names: frozenset, at_start: bool) -> bool:
    """Is ``e``'s value fixed by the profile (the card, the setting, the
    names bound, and at the start of the turn the moment)?"""
    reads = compiler.dynamic_reads(e, names)
    return not reads or (at_start and reads <= compiler.vocabulary.moment)
