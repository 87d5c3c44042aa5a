"""Compile rule-language expressions into Python closures.

Nothing here calls ``eval``/``exec`` or python-constraint's string parser:
each AST node becomes a small closure ``f(ctx, env)`` where ``ctx`` is the
evaluation context (the grounded world plus the order set or turn being
judged) and ``env`` maps bound variable names to values.

The compiler also answers two static questions the planner needs:
``is_dynamic(expr)`` (does the value depend on the decision: the order set,
the moves?) and a light constant folding (``true``/``false`` propagate through
``and``/``or``/``implies``/quantifiers, so a rule made vacuous by a house rule
costs nothing).
"""

from __future__ import annotations

import operator
from typing import Any, Callable

from ..dsl import ast as A
from ..dsl.pack import Pack
from ..dsl.static import written_out_size
from ..errors import WarcouncilError
from .builtins import KERNEL_MEANINGS, Meanings, with_roles
from .system import System
from .caches import PackCaches

#: the kernel's meaning of ``ordered`` (``Compiler.ordered_member``)
_KERNEL_ORDERED = KERNEL_MEANINGS.constants["ordered"]

Closure = Callable[[Any, dict], Any]

# The builtins' declarations (name, arity, types, what each reads) are the
# pack's vocabulary (``pack.vocabulary``: ``dsl.builtins.KERNEL`` and the
# pack's `builtin` statements); their meanings are a ``builtins.Meanings``
# given to the ``Compiler``. The analyses below read the vocabulary's views.


class MoveUse:
    """See ``Compiler.move_use``."""

    __slots__ = ("clean", "local", "piece_attrs", "move_attrs", "context", "setting", "occupants")

    def __init__(self, clean: bool, piece_attrs, move_attrs):
        self.clean = clean
        self.local = True  # reads the hex only through what stands there and its terrain
        self.piece_attrs = piece_attrs
        self.move_attrs = move_attrs
        self.context = False  # reads the decision's fixed context (C&C: the card played or its roll)
        self.setting = False  # reads the scenario (its pieces, the board) beyond the hex's terrain
        self.occupants = False  # reads what stands on the hex

    @property
    def pack_fact(self) -> bool:
        """Clean, and fixed by the rule pack alone once the card, the hex's
        terrain and the attributes read are known: the same on every board."""
        return self.clean and not self.setting and not self.occupants


_CMP = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
_MISSING = object()
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}
# The operators take what their signatures declare (``dsl.static.OPERATORS``)
# and nothing else: numbers (not truth values), `-` two sets too, and an
# ordering two texts too.
# Type checking refuses the rest before evaluation; these guards keep a value
# it could not type (a define's parameter) from reaching one of Python's own
# meanings: "ab" * 10**14, `x in "text"`, the order of pieces.
_NUMBERS = frozenset({int, float})
_SETS = frozenset({frozenset, set})


class EvalError(WarcouncilError):
    pass


class Compiler:
    """Compiles the expressions of one pack. A builtin's meaning is looked up
    once, when a name or call is compiled, in ``meanings`` (the kernel's and
    the C&C family's by default); every builtin the pack's vocabulary
    declares must have one."""

    def __init__(self, pack: Pack, meanings: Meanings | None = None):
        self.pack = pack
        self.vocabulary = vocab = pack.vocabulary
        # the given meanings (else the pack's system's) and those of the pools of the pack's roles
        self.meanings = with_roles(meanings if meanings is not None else System.meanings_for(pack), pack.roles)
        self.meanings.check_pack(pack)
        # the vocabulary's views the analyses read
        self._dynamic = vocab.dynamic
        self._turn = vocab.turn
        self._setting = vocab.setting_static
        self._context_base = vocab.context_static
        self._pure = vocab.pure
        self.symbols = pack.symbols()
        # the names some body binds as a variable (``Pack.variables``): in a piece of a body, such a
        # name may be that variable, whatever else it names, so no piece reading it is static
        self._variables = frozenset(pack.variables())
        self._define_cache: dict[str, Closure] = {}
        self._compiled: dict[int, tuple[A.Expr, Closure]] = {}
        self._board_static: dict = {}
        self._static_defines: set[str] | None = None
        self._dynamic_defines: set[str] | None = None
        self._turn_defines: set[str] | None = None
        self._only_defines: dict[frozenset, set[str]] = {}  # see only_reads
        self._context_static_defines: set[str] | None = None
        # values fixed by the pack alone (see MoveUse.pack_fact), by card and
        # attributes; _kept keeps what a key names by its id alive (fixed_key)
        self.pack_memo: dict = {}
        self.caches = PackCaches()  # the named facts of the pack (caches.py)
        self._kept: dict = {}
        self._dynamic_reads: dict = {}  # see dynamic_reads
        self._define_steps: dict[str, int] = {}  # each define's body's steps (_loop)

    # ------------------------------------------------------------ analysis
    def _fixpoint(self, seeds: set[str]) -> set[str]:
        out: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name, d in self.pack.defines.items():
                if name in out:
                    continue
                refs = _referenced(d.body)
                if refs & seeds or refs & out:
                    out.add(name)
                    changed = True
        return out

    def dynamic_defines(self) -> set[str]:
        if self._dynamic_defines is None:
            self._dynamic_defines = self._fixpoint(self._dynamic)
        return self._dynamic_defines

    def dynamic_reads(self, expr: A.Expr, bound: frozenset = frozenset()) -> frozenset:
        """The dynamic builtins (``vocabulary.dynamic``) an expression reads, looking
        inside the definitions it calls."""
        memo = self._dynamic_reads

        def of_define(name: str) -> frozenset:
            hit = memo.get(name)
            if hit is None:
                memo[name] = frozenset()  # (a recursive definition adds nothing new)
                d = self.pack.defines[name]
                memo[name] = hit = reads(_referenced(d.body) - set(d.params))
            return hit

        def reads(refs: set) -> frozenset:
            out = set(refs & self._dynamic)
            for r in refs & self.dynamic_defines():
                out |= of_define(r)
            return frozenset(out)
        return reads(_referenced(expr) - set(bound))

    def turn_defines(self) -> set[str]:
        if self._turn_defines is None:
            self._turn_defines = self._fixpoint(self._turn)
        return self._turn_defines

    def _closed(self, base: set[str], start: frozenset = frozenset()) -> set[str]:
        """The defines (with ``start``) whose free names and calls all lie in
        ``base`` or among themselves: the largest such set, by fixpoint."""
        ok: set[str] = set(start)
        changed = True
        while changed:
            changed = False
            for name, d in self.pack.defines.items():
                if name not in ok and _referenced(d.body) - set(d.params) <= base | ok:
                    ok.add(name)
                    changed = True
        return ok

    def static_defines(self) -> set[str]:
        """Defines whose value depends only on the setting and their arguments."""
        if self._static_defines is None:
            self._static_defines = self._closed(self._setting | self.symbols)
        return self._static_defines

    def context_static_defines(self) -> set[str]:
        """Defines whose value depends only on the setting, the decision's
        fixed context (C&C: the card played and its roll) and their
        arguments: memoized per grounding."""
        if self._context_static_defines is None:
            base = self._context_base | self.symbols
            static = self.static_defines()
            self._context_static_defines = self._closed(base, frozenset(static)) - static
        return self._context_static_defines

    def only_reads(self, expr: A.Expr, names: frozenset) -> bool:
        """A closed expression that depends only on the builtins ``names``
        (and the pack's symbols and the defines built from them alone): for
        C&C, ``{"card"}``, the card played by its declaration and the name
        it is played as (``card.helmet``), not the board, the roll, the
        alternative or the decision."""
        ok = self._only_defines.get(names)
        if ok is None:
            base = set(names) | self.symbols
            ok = self._only_defines[names] = (base | self._closed(base)) - self._variables
        return _referenced(expr) <= ok

    def ordered_member(self, expr: A.Expr):
        """``(v,)`` when ``expr`` is ``v in ordered`` with ``v`` a value the
        solver worked out (``A.Value``: a residual of partial evaluation,
        ``solver.partial``) and ``ordered`` the kernel's builtin (the pieces
        the decision orders: no definition of the pack's and no other
        meaning stands for it): a caller that holds the order set answers it
        by membership, without a context. Otherwise None."""
        if not (expr.__class__ is A.Compare and expr.op == "in" and expr.left.__class__ is A.Value
                and expr.right.__class__ is A.Name and expr.right.id == "ordered"):
            return None
        d = self.pack.defines.get("ordered")
        if d is not None and not d.params:
            return None
        if self.meanings.constants.get("ordered") is not _KERNEL_ORDERED:
            return None
        return (expr.left.value,)

    def board_static(self, expr: A.Expr, bound: tuple = ()) -> bool:
        """Depends only on the setting (board, pieces, side) and the bound
        variables: not on the decision's context (C&C: the card, the roll), its
        alternative or the decision."""
        key = (id(expr), tuple(bound))
        hit = self._board_static.get(key)
        if hit is not None and hit[0] is expr:
            return hit[1]
        refs = _referenced(expr) - set(bound)
        ok = (self._setting | self.symbols | self.static_defines()) - self._variables  # (see _variables)
        v = all(r in ok for r in refs)
        self._board_static[key] = (expr, v)
        return v

    def context_static(self, expr: A.Expr, bound: tuple = ()) -> bool:
        """Depends only on the setting, the decision's fixed context (C&C: the
        card played and its roll) and the bound variables: not on the decision."""
        key = ("context", id(expr), tuple(bound))
        hit = self._board_static.get(key)
        if hit is not None and hit[0] is expr:
            return hit[1]
        refs = _referenced(expr) - set(bound)
        ok = self._context_base | self.symbols | self.static_defines() | self.context_static_defines()
        ok -= self._variables
        v = all(r in ok for r in refs)
        self._board_static[key] = (expr, v)
        return v

    def move_use(self, expr: A.Expr, mvar: str, hvar: str | None = None) -> "MoveUse":
        """How a part of a per-move rule uses its move ``mvar`` (and, for a
        hex part, its hex ``hvar``; otherwise the hex is ``mvar.to``), looking
        inside the definitions the move, its piece or the hex are handed to.

        ``local``: it reads its hex only through what stands there and its
        terrain (``unit_on``, ``leader_on``, ``terrain_at``, ``on_board`` of
        the hex): within one search (one piece, one moment), every empty hex
        of one terrain gives the same answer, so the move generator judges it
        once per class of hexes.

        ``piece_attrs``/``move_attrs``: the attributes of the moving piece and
        of the move it reads. ``clean``: local, and besides those it reads
        only the hex's occupants and terrain and what the decision's context
        (C&C: the card) and the setting fix (never another hex's occupants, the earlier moves or the
        order set): then
        its value is fixed by the hex's class and those attributes, whichever
        piece moves, from wherever: a fact of the setting, or of the
        grounding when it reads the context (``context``)."""
        key = ("use", id(expr), mvar, hvar)
        hit = self._board_static.get(key)
        if hit is not None and hit[0] is expr:
            return hit[1]
        use = MoveUse(True, set(), set())
        roles = {mvar: "move"} | ({hvar: "cell"} if hvar else {})
        self._use(expr, roles, use, set(), end=hvar is None)
        use.piece_attrs, use.move_attrs = tuple(sorted(use.piece_attrs)), tuple(sorted(use.move_attrs))
        self._board_static[key] = (expr, use)
        return use

    def _use(self, e, roles: dict, use: "MoveUse", visiting: set, end: bool) -> None:
        """Walk ``e``; ``roles`` names the variables that stand for the move,
        its piece or the hex (``end``: the hex is the move's end)."""
        vocab = self.vocabulary
        ok_refs = self._context_base | self.symbols
        context_reads, setting_reads = vocab.context, self._setting - self._pure
        defines = self.pack.defines

        def role_of(x):
            if isinstance(x, A.Name):
                return roles.get(x.id)
            if isinstance(x, A.Attr) and isinstance(x.obj, A.Name) and roles.get(x.obj.id) == "move":
                if x.name == "piece":
                    return "piece"
                if x.name == "to" and end:
                    return "cell"
            return None

        def rec(x, bound):
            if x is None or isinstance(x, (A.Num, A.Str, A.Const)):
                return
            r = role_of(x)
            if r is not None:
                use.clean = False  # the move, its piece or the hex used as a whole
                if r == "cell" or (r == "move" and end):
                    use.local = False  # (the whole move could reveal its end)
                if r == "move":
                    use.move_attrs.update(("start", "phase", "index", "length", "to", "path"))
                return
            if isinstance(x, A.Name):
                if x.id in bound:
                    return
                if x.id in context_reads:
                    use.context = True
                if x.id in setting_reads:
                    use.setting = True
                if x.id in ok_refs:
                    return
                if x.id in defines and not defines[x.id].params:
                    self._use_define(x.id, (), use, visiting, end)
                else:
                    use.clean = False  # ordered, earlier, moves, ...
                return
            if isinstance(x, A.Attr):
                r = role_of(x.obj)
                if r == "move":
                    use.move_attrs.add(x.name)
                    if x.name in ("path", "through"):
                        use.clean = False
                        use.local = use.local and not end
                elif r == "piece":
                    use.piece_attrs.add(x.name)
                else:
                    rec(x.obj, bound)
                return
            if isinstance(x, A.Call):
                if x.func in vocab.cell_local and len(x.args) == 1 and role_of(x.args[0]) == "cell":
                    reads = vocab[x.func].cell
                    if reads == "occupants":
                        use.occupants = True
                    elif reads == "board":
                        use.setting = True  # the board's shape
                    return  # ("terrain": the hex's class)
                if x.func in setting_reads:
                    use.setting = True
                if x.func in defines:
                    handed = {}
                    for p, a in zip(defines[x.func].params, x.args):
                        r = role_of(a)
                        if r is not None:
                            handed[p] = r
                        else:
                            rec(a, bound)
                    self._use_define(x.func, tuple(sorted(handed.items())), use, visiting, end)
                    return
                if x.func in context_reads:
                    use.context = True
                if x.func not in ok_refs:
                    use.clean = False  # unit_on(elsewhere), position, moved_before, ...
                for a in x.args:
                    rec(a, bound)
                return
            if isinstance(x, (A.Quant, A.SetComp, A.The)) and x.var in roles:
                use.clean = use.local = False  # shadowing: not worth the subtlety
                return
            for c, b in A.scoped(x, bound):
                rec(c, b)

        rec(e, frozenset())

    def _use_define(self, name: str, handed: tuple, use: "MoveUse", visiting: set, end: bool) -> None:
        """A definition's body, its parameters standing for what was handed to them."""
        key = (name, handed)
        if key in visiting:
            return  # recursion: judged by the outer call
        visiting.add(key)
        self._use(self.pack.defines[name].body, dict(handed), use, visiting, end)
        visiting.discard(key)

    def fixed_key(self, g):
        """What a decision fixes before it is made, as a key of
        ``pack_memo``: the grounding's own ``fixed_key()`` (for a card: the
        declaration by identity, the name it is played as and its roll; for a
        decision with no card: none), kept in the grounding once made. The
        objects it names by identity are kept alive here, so an id in a key
        is never reused while the pack's memo holds it."""
        key = g.memo.get("fixed-key")
        if key is None:
            key, alive = g.fixed_key()
            if alive is not None:
                self._kept.setdefault(id(alive), alive)
            g.memo["fixed-key"] = key
        return key

    def is_dynamic(self, expr: A.Expr, bound: frozenset = frozenset()) -> bool:
        refs = _referenced(expr) - bound
        return bool(refs & self._dynamic or refs & self.dynamic_defines())

    def is_turn(self, expr: A.Expr) -> bool:
        refs = _referenced(expr)
        return bool(refs & self._turn or refs & self.turn_defines())

    # ------------------------------------------------------------ folding
    def fold(self, e: A.Expr) -> A.Expr:
        """Propagate constant truth values (and inline constant defines)."""

        def step(n):
            if isinstance(n, A.Name) and n.id in self.pack.defines and n.id not in self._variables:
                d = self.pack.defines[n.id]
                if not d.params and isinstance(d.body, A.Const):
                    return A.Const(d.body.value, n.loc)
            if isinstance(n, A.Not) and isinstance(n.operand, A.Const):
                return A.Const(not n.operand.value, n.loc)
            if isinstance(n, (A.And, A.Or)):
                # `and`: true items drop out, a false one decides; `or` the reverse
                unit = isinstance(n, A.And)
                items = [i for i in n.items if not _is(i, unit)]
                if any(_is(i, not unit) for i in items):
                    return A.Const(not unit, n.loc)
                if not items:
                    return A.Const(unit, n.loc)
                return items[0] if len(items) == 1 else type(n)(tuple(items), n.loc)
            if isinstance(n, A.Implies):
                if _is(n.right, True) or _is(n.left, False):
                    return A.Const(True, n.loc)
                if _is(n.left, True):
                    return n.right
            if isinstance(n, A.Quant) and isinstance(n.body, A.Const):
                if n.kind == "forall" and n.body.value is True:
                    return A.Const(True, n.loc)
                if n.kind == "exists" and n.body.value is False:
                    return A.Const(False, n.loc)
            return n

        return A.transform(e, step)

    # ------------------------------------------------------------ compile
    def compile(self, e: A.Expr) -> Closure:
        """The closure of an expression (compiled once per AST node)."""
        hit = self._compiled.get(id(e))
        if hit is not None and hit[0] is e:
            return hit[1]
        f = getattr(self, "_c_" + type(e).__name__)(e)
        if self._hoistable(e):
            f = _hoisted(e, f)
        self._compiled[id(e)] = (e, f)  # keeps e alive, so its id stays unique
        return f

    def stand_in(self, e: A.Expr, how: Callable[[Closure], Closure]) -> None:
        """From now on ``compile(e)`` gives ``how(f)``, ``f`` the closure
        of ``e``: a judgement of the same value standing in for the
        language's (``kernel/loops.py``: a history loop from its summary)."""
        self._compiled[id(e)] = (e, how(self.compile(e)))

    def _hoistable(self, e: A.Expr) -> bool:
        """A closed expression about the board alone (no free variable, no
        card, no decision): its value is computed once per setting."""
        if not isinstance(e, (A.Call, A.SetComp, A.Quant, A.The)):
            return False
        return self.board_static(e)

    def _c_Num(self, e):
        v = e.value
        return lambda ctx, env: v

    def _c_Str(self, e):
        v = e.value
        return lambda ctx, env: v

    def _c_Const(self, e):
        v = e.value
        return lambda ctx, env: v

    _c_Value = _c_Const  # a value the solver worked out (``ast.Value``)

    def _c_Name(self, e):
        name = e.id
        # a bound variable always wins over a definition or builtin of the same name
        if name in self.pack.defines and not self.pack.defines[name].params:
            body = self.define_closure(name)
            key = (name, ())  # (the key _memoized gives a call with no arguments)
            if name in self.static_defines() or name in self.context_static_defines():
                # fixed on one board (or for one context, C&C: one card): worked out once there
                per_setting = name in self.static_defines()

                def fixed_define(ctx, env):
                    if name in env:
                        return env[name]
                    memo = ctx.g.setting.memo if per_setting else ctx.g.memo
                    v = memo.get(key, _MISSING)
                    if v is _MISSING:
                        v = memo[key] = body(ctx, {})
                    return v
                return fixed_define

            def define(ctx, env):
                if name in env:
                    return env[name]
                return body(ctx, {})
            return define
        if name in self.vocabulary.constants:
            fn = self.meanings.constants[name]

            def builtin(ctx, env):
                if name in env:
                    return env[name]
                return fn(ctx, ctx.g.setting)
            return builtin
        if name in self.symbols:  # a declared value names itself
            return lambda ctx, env: env.get(name, name)

        def var(ctx, env):
            try:
                return env[name]
            except KeyError:
                raise EvalError(f"unknown name {name!r}", e.loc) from None
        return var

    def _c_Attr(self, e):
        obj = self.compile(e.obj)
        name = e.name
        if isinstance(e.obj, A.Name):
            # every kind of name is a bound variable first (see _c_Name): look
            # in env without calling the name's closure
            vname = e.obj.id

            def attr_of_name(ctx, env):
                o = env.get(vname, _MISSING)
                if o is _MISSING:
                    o = obj(ctx, env)
                if o is None:
                    return None
                try:
                    return o.get_attr(name)
                except AttributeError:
                    return getattr(o, name, None)
            return attr_of_name

        def attr(ctx, env):
            o = obj(ctx, env)
            if o is None:
                return None
            try:
                return o.get_attr(name)
            except AttributeError:
                return getattr(o, name, None)
        return attr

    def _c_Call(self, e):
        args = [self.compile(a) for a in e.args]
        name = e.func
        if name in self.pack.defines:
            d = self.pack.defines[name]
            body = self.define_closure(name)
            params = d.params
            if len(params) != len(args):
                raise EvalError(f"{name} takes {len(params)} argument(s), got {len(args)}", e.loc)
            if params and name in self.static_defines():
                # the same arguments give the same value on one board: memoized per setting
                return _memoized(name, body, params, args, True)
            if params and name in self.context_static_defines():
                # ... and for one context (C&C: one card): memoized per grounding
                return _memoized(name, body, params, args, False)
            if len(params) == 1:
                p0, a0 = params[0], args[0]
                return lambda ctx, env: body(ctx, {p0: a0(ctx, env)})
            if len(params) == 2:
                (p0, p1), (a0, a1) = params, args
                return lambda ctx, env: body(ctx, {p0: a0(ctx, env), p1: a1(ctx, env)})
            return lambda ctx, env: body(ctx, {p: a(ctx, env) for p, a in zip(params, args)})
        if name == "count" and len(args) == 1:
            a0 = args[0]

            def count(ctx, env):
                v = a0(ctx, env)
                try:
                    return len(v)
                except TypeError:
                    raise EvalError(f"count of {_short(v)}: not a collection", e.loc) from None
            return count
        if name == "turn_step" and len(args) == 1:  # (the pack's turn, bound now: it reads nothing else)
            places = {st.name: i for i, st in enumerate(self.pack.turn.steps, 1)} if self.pack.turn else {}
            a0 = args[0]
            return lambda ctx, env: places.get(a0(ctx, env), 0)
        if name in self.vocabulary.functions:
            fn = self.meanings.functions[name]  # (check_pack: every declared builtin has one)
            if len(args) == 1:
                a0 = args[0]
                return lambda ctx, env: fn(ctx, ctx.g.setting, (a0(ctx, env),))
            if len(args) == 2:
                a0, a1 = args
                return lambda ctx, env: fn(ctx, ctx.g.setting, (a0(ctx, env), a1(ctx, env)))
            return lambda ctx, env: fn(ctx, ctx.g.setting, tuple(a(ctx, env) for a in args))
        raise EvalError(f"unknown function {name!r}", e.loc)

    def _c_BinOp(self, e):
        f = _ARITH[e.op]
        left, right = self.compile(e.left), self.compile(e.right)
        sets = e.op == "-"

        def binop(ctx, env):
            a, b = left(ctx, env), right(ctx, env)
            if not (a.__class__ in _NUMBERS and b.__class__ in _NUMBERS
                    or sets and a.__class__ in _SETS and b.__class__ in _SETS):
                raise EvalError(f"cannot compute {_short(a)} {e.op} {_short(b)}: arithmetic is on numbers only",
                                e.loc)
            try:
                return f(a, b)
            except ZeroDivisionError:
                raise EvalError(f"cannot compute {a!r} {e.op} {b!r}", e.loc) from None
        return binop

    def _c_Neg(self, e):
        x = self.compile(e.operand)

        def neg(ctx, env):
            v = x(ctx, env)
            if v.__class__ not in _NUMBERS:
                raise EvalError(f"cannot negate {_short(v)}: not a number", e.loc)
            return -v
        return neg

    def _c_Compare(self, e):
        left, right = self.compile(e.left), self.compile(e.right)
        if e.op == "in":
            loc = e.loc
            if isinstance(e.left, (A.Const, A.Value)):  # `x in ordered`, x fixed (a residual: movement._partial)
                v = e.left.value
                return lambda ctx, env: contains(right(ctx, env), v, loc)
            return lambda ctx, env: contains(right(ctx, env), left(ctx, env), loc)
        if e.op == "notin":
            loc = e.loc
            return lambda ctx, env: not contains(right(ctx, env), left(ctx, env), loc)
        f = _CMP[e.op]
        if e.op in ("==", "!=") and isinstance(e.right, A.Const) and e.right.value is None:
            if e.op == "==":
                return lambda ctx, env: left(ctx, env) is None
            return lambda ctx, env: left(ctx, env) is not None
        if e.op in ("==", "!="):
            r = e.right
            if isinstance(r, (A.Const, A.Num, A.Str, A.Value)):
                v = r.value
                if e.op == "==":
                    return lambda ctx, env: left(ctx, env) == v
                return lambda ctx, env: left(ctx, env) != v
            if isinstance(r, A.Name) and self._symbol_only(r.id):
                # a declared value (``unit``, ``foot``), unless a variable of that name is bound
                rn = r.id
                if e.op == "==":
                    return lambda ctx, env: left(ctx, env) == env.get(rn, rn)
                return lambda ctx, env: left(ctx, env) != env.get(rn, rn)
            return lambda ctx, env: f(left(ctx, env), right(ctx, env))

        def cmp(ctx, env):
            a, b = left(ctx, env), right(ctx, env)
            if a is None or b is None:
                return False
            if not (a.__class__ in _NUMBERS and b.__class__ in _NUMBERS or a.__class__ is str is b.__class__):
                raise EvalError(f"cannot compare {_short(a)} {e.op} {_short(b)}: only numbers, and texts with "
                                "texts, are ordered", e.loc)
            return f(a, b)
        return cmp

    def _symbol_only(self, name: str) -> bool:
        """A name that _c_Name compiles as a declared value (no define or builtin of that name)."""
        return name in self.symbols and not (name in self.pack.defines and not self.pack.defines[name].params) \
            and name not in self.vocabulary.constants

    def _c_Not(self, e):
        x = self.compile(e.operand)
        return lambda ctx, env: not x(ctx, env)

    def _c_And(self, e):
        items = [self.compile(i) for i in e.items]
        if len(items) == 2:
            a, b = items
            return lambda ctx, env: bool(a(ctx, env)) and bool(b(ctx, env))
        if len(items) == 3:
            a, b, c = items
            return lambda ctx, env: bool(a(ctx, env)) and bool(b(ctx, env)) and bool(c(ctx, env))

        def all_of(ctx, env):
            for f in items:
                if not f(ctx, env):
                    return False
            return True
        return all_of

    def _c_Or(self, e):
        items = [self.compile(i) for i in e.items]
        if len(items) == 2:
            a, b = items
            return lambda ctx, env: bool(a(ctx, env)) or bool(b(ctx, env))
        if len(items) == 3:
            a, b, c = items
            return lambda ctx, env: bool(a(ctx, env)) or bool(b(ctx, env)) or bool(c(ctx, env))

        def any_of(ctx, env):
            for f in items:
                if f(ctx, env):
                    return True
            return False
        return any_of

    def _c_Implies(self, e):
        a, b = self.compile(e.left), self.compile(e.right)
        return lambda ctx, env: (not a(ctx, env)) or bool(b(ctx, env))

    def _c_IfElse(self, e):
        c, t, o = self.compile(e.cond), self.compile(e.then), self.compile(e.other)
        return lambda ctx, env: t(ctx, env) if c(ctx, env) else o(ctx, env)

    # Loops (forall, exists, a set {x in S where ...}, `the`) are the only
    # evaluation whose cost the static checks cannot bound (dsl/static.py
    # bounds everything else: no recursion, expressions of bounded size and
    # depth). Each loop charges, before it runs, its domain's size times its
    # body's steps against a step budget shared by the loops running inside
    # one another, renewed when an outermost loop starts: one counter update
    # per loop, nothing per element. A body's steps are its parts with the
    # defines it calls written out (a define's call does its whole body), a
    # builtin function's call ``BUILTIN_STEPS`` (it does more than a part:
    # `distance`, `line`), so that a step costs about the same whatever the
    # body does.
    def _loop(self, e, body_expr):
        """(the domain's closure, the body's steps)."""
        steps = 1
        if body_expr is not None:
            steps = written_out_size(body_expr, (e.var,), self.pack.defines, self._define_steps, self._steps)
        return self.compile(e.domain), max(1, steps)

    def _steps(self, n) -> int:
        if n.__class__ is A.Call and n.func not in self.pack.defines:
            return BUILTIN_STEPS
        return 1

    def _c_Quant(self, e):
        (dom, w), body, var = self._loop(e, e.body), self.compile(e.body), e.var
        pack = self.pack
        if e.kind == "forall":
            def forall(ctx, env):
                d = dom(ctx, env)
                if d is None:
                    return True
                m = _meter
                d = _charge(m, d, w, e, pack)
                m[0] += 1
                try:
                    inner = dict(env)
                    for x in d:
                        inner[var] = x
                        if not body(ctx, inner):
                            return False
                    return True
                finally:
                    m[0] -= 1
            return forall

        def exists(ctx, env):
            d = dom(ctx, env)
            if d is None:
                return False
            m = _meter
            d = _charge(m, d, w, e, pack)
            m[0] += 1
            try:
                inner = dict(env)
                for x in d:
                    inner[var] = x
                    if body(ctx, inner):
                        return True
                return False
            finally:
                m[0] -= 1
        return exists

    def _c_SetComp(self, e):
        (dom, w), var = self._loop(e, e.cond), e.var
        cond = self.compile(e.cond) if e.cond is not None else None
        pack = self.pack

        def setcomp(ctx, env):
            d = dom(ctx, env)
            if d is None:
                return frozenset()
            m = _meter
            d = _charge(m, d, w, e, pack)
            if cond is None:
                try:
                    return frozenset(d)
                except TypeError:
                    raise EvalError(f"cannot make a set of {_short(d)}: its elements are not values", e.loc) from None
            m[0] += 1
            try:
                inner = dict(env)
                out = []
                for x in d:
                    inner[var] = x
                    if cond(ctx, inner):
                        out.append(x)
                return frozenset(out)
            finally:
                m[0] -= 1
        return setcomp

    def _c_The(self, e):
        (dom, w), var, cond = self._loop(e, e.cond), e.var, self.compile(e.cond)
        pack = self.pack

        def the(ctx, env):
            d = dom(ctx, env)
            if d is None:
                return None
            m = _meter
            d = _charge(m, d, w, e, pack)
            m[0] += 1
            try:
                inner = dict(env)
                for x in _sorted(d):
                    inner[var] = x
                    if cond(ctx, inner):
                        return x
                return None
            finally:
                m[0] -= 1
        return the

    def call_of(self, name: str, var: str) -> tuple[A.Call, Closure]:
        """The call ``name(var)`` of a define and its closure, made once per
        pack (in ``pack_memo``): a system's engine asks the pack's hook
        defines this way (``may_battle(m)``, ``accompanies(l)``), and a call
        made and compiled afresh for every scenario would leave one more
        entry in the pack's compiler each time (a batch's every job)."""
        key = ("call-of", name, var)
        hit = self.pack_memo.get(key)
        if hit is None:
            call = A.Call(name, (A.Name(var),))
            hit = self.pack_memo[key] = (call, self.compile(call))
        return hit

    def define_closure(self, name: str) -> Closure:
        """The compiled body of a define (compiled once, lazily; recursion-safe)."""
        if name in self._define_cache:
            return self._define_cache[name]
        holder: list[Closure] = []

        def late(ctx, env):
            return holder[0](ctx, env)

        self._define_cache[name] = late
        body = self.compile(self.fold(self.pack.defines[name].body))
        holder.append(body)
        self._define_cache[name] = body
        return body


_MISS = object()  # (a memo's look-up that found nothing: values may be None or False)


def _memoized(name: str, body: Closure, params: tuple, args: list, per_setting: bool) -> Closure:
    """A define call whose value is cached by its arguments in the setting's
    memo (``per_setting``) or the grounding's.
    Arguments that are not worth caching (moves, made afresh each time) or
    cannot be hashed are evaluated directly."""
    if len(params) == 1:
        (p0,), (a0,) = params, args

        def memo1(ctx, env):
            v0 = a0(ctx, env)
            if not getattr(v0, "memoizable", True):
                return body(ctx, {p0: v0})
            cache = ctx.g.setting.memo if per_setting else ctx.g.memo
            key = (name, v0)
            try:
                v = cache.get(key, _MISS)  # (a miss is no KeyError raised: fresh memos miss often)
            except TypeError:  # an unhashable argument
                return body(ctx, {p0: v0})
            if v is _MISS:
                v = cache[key] = body(ctx, {p0: v0})
            return v
        return memo1

    if len(params) == 2:
        (p0, p1), (a0, a1) = params, args

        def memo2(ctx, env):
            v0, v1 = a0(ctx, env), a1(ctx, env)
            if not (getattr(v0, "memoizable", True) and getattr(v1, "memoizable", True)):
                return body(ctx, {p0: v0, p1: v1})
            cache = ctx.g.setting.memo if per_setting else ctx.g.memo
            key = (name, (v0, v1))
            try:
                v = cache.get(key, _MISS)
            except TypeError:  # unhashable arguments
                return body(ctx, {p0: v0, p1: v1})
            if v is _MISS:
                v = cache[key] = body(ctx, {p0: v0, p1: v1})
            return v
        return memo2

    def memo(ctx, env):
        values = tuple([a(ctx, env) for a in args])
        bound = dict(zip(params, values))
        if not all([getattr(v, "memoizable", True) for v in values]):
            return body(ctx, bound)
        cache = ctx.g.setting.memo if per_setting else ctx.g.memo
        try:
            v = cache.get((name, values), _MISS)
        except TypeError:  # unhashable arguments
            return body(ctx, bound)
        if v is _MISS:
            v = cache[(name, values)] = body(ctx, bound)
        return v
    return memo


def _hoisted(e: A.Expr, f: Closure) -> Closure:
    key = ("hoisted", id(e))

    def hoisted(ctx, env):
        memo = ctx.g.setting.memo
        v = memo.get(key, _MISS)
        if v is _MISS:
            v = memo[key] = f(ctx, env)
        return v
    return hoisted


def _is(e, value) -> bool:
    return isinstance(e, A.Const) and e.value is value


def contains(container, item, loc=None) -> bool:
    """The rule language's ``item in container`` (public: a system judging a
    rule's join the kernel's way uses it): false on none; a container that is no
    collection (a string's substring search is no meaning of `in`) is an error."""
    if container is None:
        return False
    if container.__class__ is str:
        raise EvalError(f"cannot look for {_short(item)} in {_short(container)}: `in` looks in a collection", loc)
    try:
        return item in container
    except TypeError:
        if hasattr(container, "__iter__"):
            return False  # (an item that cannot be hashed is in no set)
        raise EvalError(f"cannot look for {_short(item)} in {_short(container)}: not a collection", loc) from None


#: steps an outermost loop may take with the loops inside it (a step: one
#: part of a loop's body for one element, see Compiler._loop). Far above
#: what a rulebook needs (the shipped packs' queries in their tests stay
#: under 3,000 per loop); a rule over it stops with exit 2 naming the rule, after a few
#: seconds at most: six loops inside one another over akragas's units, 8
#: million steps, take 1 s (`distance(a, f) >= 0`) to 3 s (`count(line(a,
#: f)) >= 0`; a step of 10 to 350 ns).
STEP_BUDGET = 8_000_000
#: the steps of a call of a builtin function (see Compiler._loop)
BUILTIN_STEPS = 10
_meter = [0, STEP_BUDGET]  # [loops running now, steps left]


def _charge(m: list, d, weight: int, e: A.Expr, pack):
    """Charge a loop over ``d`` against the budget (renewed when no loop is
    running); the domain back, as a sized collection."""
    try:
        n = len(d)
    except TypeError:
        try:
            d = tuple(d)
        except TypeError:
            raise EvalError(f"cannot go through {_short(d)}: not a collection", e.loc) from None
        n = len(d)
    left = (m[1] if m[0] else STEP_BUDGET) - n * weight
    if left < 0:
        from ..dsl.pack import line_at

        m[1] = 0
        raise EvalError(f"evaluation stopped: {pack.statement_at(e.loc)} takes more than {STEP_BUDGET:,} steps "
                        "in one loop and the loops inside it", e.loc, source_line=line_at(e.loc),
                        hint="loops over loops multiply: go through fewer collections inside one another")
    m[1] = left
    return d


def _short(v, width: int = 60) -> str:
    s = repr(v)
    return s if len(s) <= width else s[: width - 1] + "…"


def _sorted(values):
    try:
        return sorted(values, key=lambda v: getattr(v, "rank", 0))
    except TypeError:
        return list(values)


_referenced = A.referenced  # free names and called functions of an expression
referenced_names = _referenced
