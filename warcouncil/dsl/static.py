"""What would fail at run time, found before: recursion among defines, rules
too large to evaluate once their defines are written out, and type errors.

``define_problems(pack)``
    * a define that calls itself, directly (``may_detach := may_detach``) or
      through others (``a := b``, ``b := a``): the language has no recursion
      (a rule is a finite formula over the board), so evaluating it would
      never end. Reported at the call that closes the circle.
    * a rule, define or card whose expression, with every define it calls
      written out, has more than ``MAX_EXPANSION`` parts or nests more than
      ``MAX_DEPTH`` deep (defines calling defines: ``f27 := f26 + f25`` ...
      is fib(27) without recursion), or that calls defines more than
      ``MAX_CALLS`` deep (``c400 := c399`` ... ``c1 := c0``: shallow written
      out, but each call is one more when evaluated). Reported at the
      statement that first goes over, not at every user of it.

``type_problems(pack)``
    A static type check of every expression against the builtins' declared
    types (``pack.vocabulary``: ``count(set[any]) -> int`` ...), the
    attributes' (``vocabulary.attributes``: the kernel's, ``card.name`` is a
    ``str``, and the pack's typed ``fields``, ``card.helmet`` a ``bool``) and the
    unit types' attribute values (``move = 2``). It reports only what cannot
    work whatever the board: ``count(p)`` of a piece, ``-card.name``,
    ``forall x in 3``, a string compared with a number by ``<``, and a unit
    type whose attribute is text (``move = "x"``) where a rule uses that
    attribute as a number. Unknown types (a define's parameters, ``any``)
    are never an error.

Both return ``LintError``s with file:line:column; lint reports them, and a
pack with house rules is refused at load (``lint.check_layers``).
"""

from __future__ import annotations

from ..errors import Location
from . import ast as A

#: parts of one rule, define or card expression with its defines written out
MAX_EXPANSION = 20_000
#: nesting of one expression with its defines written out (each define call
#: adds its body's depth): what evaluation may stack up
MAX_DEPTH = 128
#: define calls inside one another (``c2 := c1``, ``c1 := c0``: 2): each is
#: a call of its own when evaluated, however shallow the bodies written out
MAX_CALLS = 128


def _err(msg: str, loc: Location, hint: str | None = None):
    from .pack import LintError, line_at

    return LintError(msg, loc, hint, line_at(loc))


def _show(e: A.Expr, width: int = 50) -> str:
    from .unparse import expr

    try:
        s = expr(e)
    except Exception:  # pragma: no cover - a node unparse does not know
        s = type(e).__name__
    return s if len(s) <= width else s[: width - 1] + "…"


# ------------------------------------------------------------------ defines


def _calls(e: A.Expr, params, defines) -> list[tuple[str, A.Expr, int]]:
    """(define called, the calling node, its depth in ``e``) for every call of
    a define in ``e`` (a bare name that a parameter or quantifier binds is no
    call). Iterative."""
    out = []
    stack = [(e, frozenset(params), 0)]
    while stack:
        n, bound, depth = stack.pop()
        if n is None:
            continue
        if isinstance(n, A.Name):
            if n.id not in bound and n.id in defines:
                out.append((n.id, n, depth))
            continue
        if isinstance(n, A.Call) and n.func in defines:
            out.append((n.func, n, depth))
        for c, b in A.scoped(n, bound):
            stack.append((c, b, depth + 1))
    out.sort(key=lambda c: (c[1].loc.line or 0, c[1].loc.column or 0))  # in the order written
    return out


def written_out_size(e: A.Expr, params, defines, memo: dict, weight=lambda n: 1) -> int:
    """The parts of ``e`` with the defines it calls written out (what
    evaluating it may do), each part counted ``weight(part)``; ``memo``
    keeps each define's (a recursive define, refused before, adds nothing)."""
    size = sum(weight(n) for n in A.walk(e))
    for callee, _, _ in _calls(e, params, defines):
        if callee not in memo:
            memo[callee] = 0  # (while it is measured)
            d = defines[callee]
            memo[callee] = written_out_size(d.body, d.params, defines, memo, weight)
        size += memo[callee]
    return size


def _size_depth(e: A.Expr) -> tuple[int, int]:
    size = depth = 0
    stack = [(e, 1)]
    while stack:
        n, d = stack.pop()
        if n is None:
            continue
        size += 1
        depth = max(depth, d)
        stack.extend((c, d + 1) for c in A.children(n))
    return size, depth


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components with a cycle (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on, stack, out = set(), [], []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            succ = graph.get(v, [])
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1 or v in graph.get(v, []):
                    out.append(comp)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def define_problems(pack) -> list:
    defines = pack.defines
    calls = {name: _calls(d.body, d.params, defines) for name, d in defines.items()}
    graph = {name: list(dict.fromkeys(c for c, _, _ in cs)) for name, cs in calls.items()}
    out = []
    recursive: set[str] = set()
    for comp in _cycles(graph):
        members = set(comp)
        recursive |= members
        first = min(comp, key=lambda n: (defines[n].loc.file or "", defines[n].loc.line or 0))
        # a shortest way back to `first` inside the component (breadth first)
        prev: dict[str, tuple[str, A.Expr]] = {}
        frontier, found = [first], None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for callee, node, _ in calls[v]:
                    if callee not in members:
                        continue
                    if callee == first:
                        found = (v, node)
                        break
                    if callee not in prev:
                        prev[callee] = (v, node)
                        nxt.append(callee)
                if found:
                    break
            frontier = nxt
        last, node = found
        path = [first]
        v = last
        while v != first:
            path.append(v)
            v = prev[v][0]
        path = [first] + list(reversed(path[1:])) + [first]
        # the call that leaves `first`: the first step of the way
        leave = node if len(path) == 2 else prev[path[1]][1]
        chain = " → ".join(path)
        out.append(_err(f"define {defines[first].id} is recursive: {chain} (a define may not call itself, "
                        "directly or through others)", leave.loc,
                        "write the rule without recursion: a rule is a finite formula over the board"))
    # sizes and depths with the defines written out, and define calls inside
    # one another, callees first
    size: dict[str, int] = {}
    depth: dict[str, int] = {}
    calls_in: dict[str, int] = {}
    over: set[str] = set()
    cap = MAX_EXPANSION + 1

    def measure(e, params) -> tuple[int, int, int, set]:
        s, d = _size_depth(e)
        n = 0
        culprits = set()
        for callee, _, at in _calls(e, params, defines):
            if callee in recursive:
                continue
            s = min(cap, s + size[callee])
            d = max(d, at + depth[callee])
            n = max(n, 1 + calls_in[callee])
            if callee in over:
                culprits.add(callee)
        return s, d, n, culprits

    def too_big(s, dp, n) -> bool:
        return s > MAX_EXPANSION or dp > MAX_DEPTH or n > MAX_CALLS

    order = _topological({n: [c for c in g if c not in recursive] for n, g in graph.items() if n not in recursive})
    for name in order:
        d = defines[name]
        s, dp, n, culprits = measure(d.body, d.params)
        size[name], depth[name], calls_in[name] = s, min(dp, 10 * MAX_DEPTH), min(n, 10 * MAX_CALLS)
        if too_big(s, dp, n):
            over.add(name)
            if not culprits:
                out.append(_too_big(d, s, dp, n))
    for st in [*pack.rules.values(), *pack.cards.values(), *pack.rolls.values()]:
        for e, params in A.statement_exprs(st):
            s, dp, n, culprits = measure(e, params)
            if too_big(s, dp, n) and not culprits:
                out.append(_too_big(st, s, dp, n))
                break
    return out


def _too_big(st, s: int, dp: int, n: int):
    what = A.statement_name(st)
    if s > MAX_EXPANSION:
        msg = (f"{what} is too large to evaluate: with the defines it calls written out it has more than "
               f"{MAX_EXPANSION:,} parts")
    elif dp > MAX_DEPTH:
        msg = (f"{what} is nested too deeply: with the defines it calls written out it nests {dp} levels "
               f"(at most {MAX_DEPTH})")
    else:
        msg = (f"{what} calls defines too deeply: {n} define calls inside one another "
               f"(at most {MAX_CALLS})")
    hint = ("a define that uses another several times multiplies its size: compute shared parts once, "
            "in a define of their own" if s > MAX_EXPANSION else "fewer defines calling one another in a chain")
    return _err(msg, st.loc, hint)


def _topological(graph: dict[str, list[str]]) -> list[str]:
    """Names with every callee before its callers (the graph has no cycle)."""
    out, done = [], set()
    for root in graph:
        if root in done:
            continue
        work = [(root, iter(graph[root]))]
        done.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in done and w in graph:
                    done.add(w)
                    work.append((w, iter(graph[w])))
                    break
            else:
                work.pop()
                out.append(v)
    return out


# ------------------------------------------------------------------ types

_NUM = frozenset({"int", "number"})
_TEXT = frozenset({"str", "symbol"})
_RECORD = frozenset({"piece", "cell", "move", "battle", "context", "side"})


def _kind(t: str) -> str:
    """any, num, bool, text, set, record or none (a type that may be none
    is judged by what it is when it is something)."""
    core = t[:-1] if t.endswith("?") else t
    if core.startswith("set["):
        return "set"
    if core in _NUM:
        return "num"
    if core == "bool":
        return "bool"
    if core in _TEXT:
        return "text"
    if core in _RECORD:
        return "record"
    if core == "none":
        return "none"
    return "any"


#: the kernel's builtins that ignore a none argument (``min(u.range, 4)``):
#: their value is none only when every argument may be
_NONE_IGNORED = frozenset({"min", "max"})


def _numeric_operator(n) -> bool:
    """An operator whose every signature takes numbers (``OPERATORS``)."""
    op = "neg" if isinstance(n, A.Neg) else n.op
    return all(k == "num" for sig in OPERATORS[op] for k in sig)


def _maybe_none(t: str) -> bool:
    return t == "none" or t.endswith("?")


def _elem(t: str) -> str:
    core = t[:-1] if t.endswith("?") else t
    return core[4:-1] if core.startswith("set[") else "any"


def _join(a: str, b: str) -> str:
    if a == b:
        return a
    if a == "none":
        return b if b.endswith("?") or b == "any" else b + "?"
    if b == "none":
        return _join(b, a)
    if a.rstrip("?") == b.rstrip("?"):
        return a.rstrip("?") + "?"
    if _kind(a) == _kind(b) == "num":
        return "number"
    return "any"


def _value_type(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "number"
    if isinstance(v, str):
        return "str"
    return "any"


class _Types:
    def __init__(self, pack):
        self.pack = pack
        self.vocab = pack.vocabulary
        self.attrs = dict(self.vocab.attributes)  # the kernel's and the pack's typed `fields`
        self.symbols = pack.symbols()
        self.defines = pack.defines
        self.returns: dict[str, str] = {}
        # a define's parameters: the type each must have, inferred from the
        # builtins and defines its body passes it to ("any": no demand)
        self.param_types: dict[str, tuple[str, ...]] = {}
        self.param_whys: dict[str, tuple[str, ...]] = {}
        self.out: list = []
        # unit attributes: name -> {unit name: value type}
        self.unit_attrs: dict[str, dict[str, str]] = {}
        for u in pack.units.values():
            for k, v in u.attrs:
                self.unit_attrs.setdefault(k, {})[u.name] = _value_type(v)
        self.numeric_uses: dict[str, A.Expr] = {}  # unit attribute -> first place used as a number

    def error(self, msg: str, loc: Location, hint: str | None = None) -> None:
        self.out.append(_err(msg, loc, hint))

    def run(self) -> list:
        graph = {n: [c for c, _, _ in _calls(d.body, d.params, self.defines)] for n, d in self.defines.items()}
        cyclic = {n for comp in _cycles(graph) for n in comp}
        order = _topological({n: g for n, g in graph.items() if n not in cyclic})
        for name in order:  # callees first
            self.infer_params(name, self.defines[name])
        for name in order:
            d = self.defines[name]
            self.returns[name] = self.type(d.body, {p: "any" for p in d.params})
        for name in cyclic:
            self.returns[name] = "any"
            d = self.defines[name]
            self.type(d.body, {p: "any" for p in d.params})
        for st in [*self.pack.rules.values(), *self.pack.cards.values(), *self.pack.rolls.values()]:
            for e, env in A.statement_exprs(st):
                self.type(e, env)
        for card in self.pack.cards.values():  # how many dice, how many orders: numbers
            counts = [(self.pack.card_field_words(f.name), f.value) for f in card.fields
                      if isinstance(f.value, A.Expr) and self.pack.card_fields[f.name][0].rstrip("?") == "expr[int]"] + [
                ("orders of a quota", q.amount) for alt in card.alternatives for q in alt.quotas
                if isinstance(q.amount, A.Expr)]
            for what, e in counts:
                t = self.type(e, {})
                if _kind(t) not in ("num", "any"):
                    self.error(f"card {card.name!r}: the {what} must be a number, but {_show(e)} is "
                               f"{_article(t)}", e.loc or card.loc)
        self.unit_values()
        return self.out

    def unit_values(self) -> None:
        for attr, use in self.numeric_uses.items():
            for unit, t in self.unit_attrs.get(attr, {}).items():
                if _kind(t) == "text":
                    decl = self.pack.units[unit]
                    value = decl.attr(attr)
                    self.error(f"unit {unit}: {attr} = {value!r} is text, but {use.loc} uses {attr} as a number "
                               f"({_show(use)})", _attr_loc(decl, attr), f"give {attr} a number")

    def _demands(self, func: str, arity: int) -> tuple[str, ...] | None:
        """The types a function's arguments must have (None: unknown)."""
        if func in self.defines:
            return self.param_types.get(func)
        b = self.vocab.get(func)
        if b is None or b.params is None or len(b.params) != arity:
            return None
        return b.params

    def infer_params(self, name: str, d) -> None:
        """What each parameter of ``d`` must be: the type a builtin or define
        demands where the body passes the parameter itself as an argument, a
        number where it is an operand of an operator that takes only numbers
        (``x * 2``, ``-x``, ``x < 3``). Demands of different kinds, or none, leave it ``any``."""
        want: dict[str, dict[str, str]] = {p: {} for p in d.params}  # param -> {type: why}
        stack = [(d.body, frozenset())]
        while stack:
            n, bound = stack.pop()
            if n is None:
                continue
            if isinstance(n, A.Call):
                demands = self._demands(n.func, len(n.args))
                for a, t in zip(n.args, demands or ()):
                    if isinstance(a, A.Name) and a.id in want and a.id not in bound and _kind(t) != "any":
                        want[a.id].setdefault(t, f"{name} passes {a.id} to {n.func}")
            elif isinstance(n, (A.BinOp, A.Neg, A.Compare)) and _numeric_operator(n):
                for a in ((n.operand,) if isinstance(n, A.Neg) else (n.left, n.right)):
                    if isinstance(a, A.Name) and a.id in want and a.id not in bound:
                        want[a.id].setdefault("number", f"{name} computes {_show(n, 30)}")
            elif (isinstance(n, A.Compare) and n.op in ("in", "notin") and isinstance(n.left, A.Name)
                  and n.left.id in want and n.left.id not in bound):
                t = self._silent_type(n.right, {v: "any" for v in (*d.params, *bound)})
                if _kind(t) == "set" and _kind(_elem(t)) != "any":
                    want[n.left.id].setdefault(_elem(t), f"{name} looks for {n.left.id} in {_show(n.right, 30)}")
            stack.extend(A.scoped(n, bound))
        types, whys = [], []
        for p in d.params:
            kinds = {_kind(t) for t in want[p]}
            if len(kinds) == 1:
                t, why = min(want[p].items())
                types.append(t)
                whys.append(why)
            else:
                types.append("any")
                whys.append("")
        self.param_types[name] = tuple(types)
        self.param_whys[name] = tuple(whys)

    def _silent_type(self, e, env: dict) -> str:
        """The type of ``e`` in ``env``, reporting nothing."""
        out, self.out = self.out, []
        uses = dict(self.numeric_uses)
        try:
            return self.type(e, env)
        finally:
            self.out, self.numeric_uses = out, uses

    def _check_args(self, func: str, params, e, args, hint: str, whys=None) -> None:
        for i, (p, a, t) in enumerate(zip(params, e.args, args), 1):
            pk, ak = _kind(p), _kind(t)
            if pk == "num":
                self._numeric_use(a)
            if pk == "any" or ak in ("any", "none") or pk == ak:
                continue
            if pk in ("set", "num", "bool", "text", "record"):
                why = f" ({whys[i - 1]})" if whys and whys[i - 1] else ""
                self.error(f"{func} takes {_article(p)} as its {_ordinal(i)} argument{why}, but {_show(a)} is "
                           f"{_article(t)}", a.loc or e.loc, hint)

    # -- the type of an expression (reporting what cannot work)
    def type(self, e, env: dict) -> str:
        if e is None:
            return "any"
        m = getattr(self, "_t_" + type(e).__name__, None)
        return m(e, env) if m is not None else "any"

    def _t_Num(self, e, env):
        return "int" if isinstance(e.value, int) else "number"

    def _t_Str(self, e, env):
        return "str"

    def _t_Const(self, e, env):
        return "none" if e.value is None else "bool"

    def _t_Value(self, e, env):
        return "any"

    def _t_Name(self, e, env):
        n = e.id
        if n in env:
            return env[n]
        d = self.defines.get(n)
        if d is not None and not d.params:
            return self.returns.get(n, "any")
        if n in self.vocab.constants:
            return self.vocab[n].returns
        if n in self.symbols:
            return "symbol"
        return "any"

    def _t_Attr(self, e, env):
        t = self.type(e.obj, env)
        k = _kind(t)
        if e.name in self.attrs:
            return self.attrs[e.name]
        if k in ("any", "record") and e.name in self.unit_attrs:
            # a unit type that does not give the attribute gives none
            values = self.unit_attrs[e.name]
            kinds = set(values.values())
            t = kinds.pop() if len(kinds) == 1 else "any"
            return t + "?" if t != "any" and len(values) < len(self.pack.units) else t
        return "any"

    def _numeric_use(self, e) -> None:
        """``e`` is used as a number: a unit attribute read there must be one."""
        if isinstance(e, A.Attr) and e.name in self.unit_attrs and e.name not in self.attrs:
            self.numeric_uses.setdefault(e.name, e)

    def _t_Call(self, e, env):
        args = [self.type(a, env) for a in e.args]
        d = self.defines.get(e.func)
        if d is not None:
            params = self.param_types.get(e.func)
            if params is not None and len(params) == len(args):
                sig = f"{e.func}({', '.join(f'{n}: {t}' for n, t in zip(d.params, params))})"
                self._check_args(e.func, params, e, args, f"the define is {sig}", self.param_whys[e.func])
            return self.returns.get(e.func, "any")
        b = self.vocab.get(e.func)
        if b is None or b.params is None or len(b.params) != len(args):
            return "any"  # (unknown functions and arities: the resolver's)
        self._check_args(e.func, b.params, e, args, f"{b.signature()}")
        if e.func in _NONE_IGNORED and b.origin == "kernel" and not all(_maybe_none(t) for t in args):
            return b.returns.rstrip("?")
        return b.returns

    def _t_BinOp(self, e, env):
        lt, rt = self.type(e.left, env), self.type(e.right, env)
        for side, t in ((e.left, lt), (e.right, rt)):
            if _kind(t) in ("any", "num"):
                self._numeric_use(side)
        what = f"cannot compute {_show(e.left)} {e.op} {_show(e.right)}"
        out = self._operator(e.op, (e.left, e.right), (lt, rt), e.loc, what,
                             f"{_article(lt)} {e.op} {_article(rt)}")
        if out == "num":
            return "int" if lt == rt == "int" else "number"
        return lt if out == "set" and _kind(lt) == "set" else "any"

    def _t_Neg(self, e, env):
        t = self.type(e.operand, env)
        self._numeric_use(e.operand)
        out = self._operator("neg", (e.operand,), (t,), e.loc, f"cannot negate {_show(e.operand)}",
                             f"it is {_article(t)}, not a number")
        return (t if _kind(t) == "num" else "number") if out == "num" else "any"

    def _t_Compare(self, e, env):
        lt, rt = self.type(e.left, env), self.type(e.right, env)
        if e.op in ("in", "notin"):
            self._operator(e.op, (e.left, e.right), (lt, rt), e.right.loc or e.loc, f"{_show(e.right)} is "
                           f"{_article(rt)}, not a collection", "`in` needs a set")
            return "bool"
        if e.op in ORDERING:
            for side, t in ((e.left, lt), (e.right, rt)):
                if _kind(t) == "any":
                    self._numeric_use(side)
        self._operator(e.op, (e.left, e.right), (lt, rt), e.loc, f"cannot compare {_show(e.left)} {e.op} "
                       f"{_show(e.right)}", f"{_article(lt)} with {_article(rt)}")
        return "bool"

    def _operator(self, op: str, operands: tuple, types: tuple, loc, what: str, why: str) -> str:
        """The kind of the value of operator ``op`` on ``operands`` of
        ``types`` (``OPERATORS``; "any" when it depends on an operand of
        unknown type). When no signature of ``op`` takes them, a type error
        ``what: why`` at ``loc`` is reported and "any" given back."""
        out = _signature(op, types)
        if out is None:
            self.error(f"{what}: {why}", loc, _OPERATOR_HINT.get(op))
            return "any"
        if out is _MAYBE_NONE:
            i = next(i for i, t in enumerate(types) if _maybe_none(t) and _kind(t) != "any")
            self.error(f"{what}: {_show(operands[i])} may be none, and arithmetic is on numbers only", loc,
                       _none_hint(operands[i]))
            return "any"
        return out

    def _logic(self, e, env):
        for c in A.children(e):
            self.type(c, env)
        return "bool"

    _t_Not = _t_And = _t_Or = _t_Implies = _logic

    def _t_IfElse(self, e, env):
        self.type(e.cond, env)
        return _join(self.type(e.then, env), self.type(e.other, env))

    def _domain(self, e, env) -> str:
        t = self.type(e.domain, env)
        k = _kind(t)
        if k in ("num", "bool", "text", "record") and t not in ("cell", "cell?"):
            self.error(f"{_show(e.domain)} is {_article(t)}, not a collection to go through", e.domain.loc or e.loc)
            return "any"
        return _elem(t) if k == "set" else "any"

    def _t_Quant(self, e, env):
        elem = self._domain(e, env)
        self.type(e.body, {**env, e.var: elem})
        return "bool"

    def _t_SetComp(self, e, env):
        elem = self._domain(e, env)
        self.type(e.cond, {**env, e.var: elem})
        return f"set[{elem}]"

    def _t_The(self, e, env):
        elem = self._domain(e, env)
        self.type(e.cond, {**env, e.var: elem})
        return elem if elem == "any" or elem.endswith("?") else elem + "?"


def _attr_loc(decl, attr: str) -> Location:
    """The place of ``attr =`` in a unit declaration's first line, else the declaration's."""
    import re

    from .pack import line_at

    loc, line = decl.loc, line_at(decl.loc)
    if line is not None and loc.column:
        m = re.compile(r"\b" + re.escape(attr) + r"\s*=").search(line, loc.column - 1)
        if m:
            return Location(loc.file, loc.line, m.start() + 1)
    return loc


# ------------------------------------------------------------------ operators
#
# Each operator takes the kinds of operands declared here and nothing else.
# A meaning Python gives its operators beyond these is no part of the rule
# language: string repetition and concatenation ("ab" * 9), substring search
# (x in "text"), the order of pieces (u < v), arithmetic and order on truth
# values, equality of a truth value with a number (true == 1), a number
# ordered with a text. A value that
# may be none (T?: `u.range` where some unit type has no range, a define that
# can give none) is no operand of arithmetic; ordering comparisons and `in`
# are false on none and `==` compares anything with none (design.md 3.3).
# The evaluator holds to the same signatures (kernel/evaluate.py).

ORDERING = ("<", "<=", ">", ">=")
#: operator -> {operand kinds: value kind} ("*": any kind)
OPERATORS: dict[str, dict[tuple, str]] = {
    "+": {("num", "num"): "num"},
    "-": {("num", "num"): "num", ("set", "set"): "set"},
    "*": {("num", "num"): "num"},
    "/": {("num", "num"): "num"},  # floor division
    "neg": {("num",): "num"},  # unary minus
    # ordering: two numbers, or two texts in the order of their characters (ids: `u.id <= v.id`)
    **{op: {("num", "num"): "bool", ("text", "text"): "bool"} for op in ORDERING},
    # membership: anything in a collection (a cell may be one: a step of a `line`)
    **{op: {("*", "set"): "bool", ("*", "cell"): "bool"} for op in ("in", "notin")},
    # equality: two values of one kind
    **{op: {(k, k): "bool" for k in ("num", "bool", "text", "set", "record")} for op in ("==", "!=")},
}
_NONE_OK = frozenset({"<", "<=", ">", ">=", "in", "notin", "==", "!="})  # false (or plain) on none
_OPERATOR_HINT = {
    **{op: "arithmetic is on numbers only" for op in ("+", "*", "/", "neg")},
    "-": "arithmetic is on numbers only (and `-` of two collections: their difference)",
    **{op: "only numbers, and texts with texts, are ordered" for op in ORDERING},
}


_MAYBE_NONE = "may be none"


def _signature(op: str, types: tuple) -> str | None:
    """The kind of ``op``'s value on operands of ``types`` ("any" when it
    depends on an operand of unknown type), when a signature of ``op`` takes
    them; ``_MAYBE_NONE`` for arithmetic on a value that may be none; None
    when no signature of ``op`` takes them."""
    kinds = tuple(_kind(t) for t in types)
    if op in _NONE_OK and "none" in kinds[: 1 if op in ("in", "notin") else 2]:  # (nothing is in none)
        return "bool"
    fits = {out for sig, out in OPERATORS[op].items()
            if all(s == "*" or k == "any" or k == s or (s == "cell" and t.rstrip("?") == "cell")
                   for s, k, t in zip(sig, kinds, types))}
    if not fits:
        # (an operand of unknown type is never an error: the evaluator's guard meets it)
        return "any" if "any" in kinds else None
    if op not in _NONE_OK and any(_maybe_none(t) and k != "any" for t, k in zip(types, kinds)):
        return _MAYBE_NONE
    return fits.pop() if len(fits) == 1 else "any"


def _none_hint(e) -> str:
    if isinstance(e, A.Attr):
        return (f"a piece whose type gives no {e.name} has none: give it a number with "
                f"max({_show(e, 30)}, 0) (min and max pass over none)")
    return "give it a number first: max(x, 0) is x, or 0 when x is none (min and max pass over none)"


def _article(t: str) -> str:
    core = t[:-1] if t.endswith("?") else t
    words = {"int": "a whole number", "number": "a number", "bool": "a truth value", "str": "a string",
             "symbol": "a name", "piece": "a piece", "cell": "a cell", "move": "a move", "battle": "a battle",
             "context": "a context record", "side": "a side", "none": "none", "any": "a value"}
    if core.startswith("set["):
        return "a collection"
    word = words.get(core, core)
    return word + (" (or none)" if t.endswith("?") and core != "none" else "")


def _ordinal(i: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(i, f"#{i}")


def type_problems(pack) -> list:
    return _Types(pack).run()


def static_problems(pack) -> list:
    """Recursion, size and type problems of a pack's expressions."""
    return define_problems(pack) + type_problems(pack)
