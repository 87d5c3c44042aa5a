"""History loops judged incrementally along a turn's log.

Many rules ask about the earlier entries of a log (``kernel/log.py``,
``TurnLog``), as a loop ``exists p in before(o): C(p, o)`` (or ``forall``),
e.g. Warmaster's "a failed character stops": ``not (exists p in before(o):
issuer(p).id == issuer(o).id and not succeeds(p))``. Judged as written, every
branch of a plan walks its history again. This module recognises the *shape*
of such a loop (never a rule's id) and judges it from a summary of the
history carried along the log, one entry at a time:

* the loop's domain is a call ``d(o)`` of a builtin whose meaning a family
  marks with ``prefix(kind)``: for the last entry ``o`` of a log built entry
  by entry, the entries before ``o`` (of that kind; ``None``: of every kind);
* its condition (the body of ``exists``; the negated body of ``forall``)
  splits into conjuncts, each

  - about ``p`` alone, reading no history (a filter on the earlier entry:
    worked out once, when that entry is appended);
  - about ``o`` alone (worked out at the check);
  - a join of the two: ``A(p) == B(o)``, ``A(p) != B(o)``, ``A(x) in B(y)``,
    an ordering ``A(p) <= B(o)`` (``<``, ``>``, ``>=``; negated as a whole)
    or ``exists u in A(x): u in B(y)`` (``x``, ``y`` the two sides), where
    a define called with ``p`` and ``o`` (``shares(p, o)``) is read through
    its body.

The summary of a log is, for each earlier entry of the domain that passes
the filters, the values its join sides take (kept on the log, ``sigs``,
made from its parent's by adding the last entry). The loop is then: is
there a summarised entry whose values meet ``o``'s by every join.

Anything else (another shape, a variable of an outer loop, a log that is not
built entry by entry, an error while working out a part, a judgement that
writes down what it measures or records what it reads) is judged by the
closure it replaces, the kernel's: the answer is always the kernel's answer.
Errors too: every part is worked out for every entry (no short cut), and
any error hands the loop back to the kernel, which raises it or not as it
would have.

``HistoryLoops`` puts this under a pack's rules: ``install`` on a rule's
body makes the compiler judge its loops of the shape so (``Compiler.stand_in``).

What a part reads of an entry that is only what the entry is, plain data
(``turn.fixed`` read classes alone), may be kept for every entry alike: a
family sets ``_alike`` on its entries, one dict shared by the entries that
are the same (Warmaster: the attempts of one order).
"""

from __future__ import annotations

import operator as _operator
from dataclasses import dataclass
from typing import Any, Callable

from ..dsl import ast as A
from .evaluate import contains  # ``item in container`` as the kernel's ``in``

_UNKNOWN = object()  # a summary that cannot be made (an error): the kernel judges
UNSUMMARISED = _UNKNOWN


def prefix(kind: str | None) -> Callable:
    """Mark a builtin's meaning (a function of one entry) as a domain of
    history loops: its value for the last entry ``o`` of a log built entry
    by entry is the log's entries before ``o`` of ``kind`` (None: of every
    kind), in order. A family's builtins use it: ``@WM.function("before")
    @prefix("orders")``."""
    def mark(fn: Callable) -> Callable:
        fn.prefix_kind = kind
        return fn
    return mark


def prefix_kind(compiler, name: str) -> tuple[bool, str | None]:
    """(is builtin ``name`` a domain of history loops, the kind of its entries)."""
    fn = compiler.meanings.functions.get(name)
    return (fn is not None and hasattr(fn, "prefix_kind")), getattr(fn, "prefix_kind", None)


@dataclass(frozen=True)
class Side:
    """A part of the condition about one side: its closure, the names
    under which the side's entry is bound for it (a define's parameters),
    ``key``: the same number for the same expression (wherever it is
    written, about whichever variable: ``succeeds(p)`` in several rules,
    ``issuer(p).id`` and ``issuer(o).id``) and ``what``: does it read only
    what the entry is (kind, character, units: the same in every copy of
    the entry with another outcome and, when it is plain data, in every
    entry alike, ``_alike``)."""

    fn: Callable
    names: tuple[str, ...]
    key: int
    what: bool




_NONE = object()


@dataclass(frozen=True)
class Shape:
    exists: bool
    ovar: str
    kind: str | None  # the entries the domain holds (``prefix``)
    pfilters: tuple  # (Side, negated)
    ofilters: tuple  # (Side, negated)
    joins: tuple  # (op, p-side index in the summary, Side of o)
    pvalues: tuple  # the Sides of p whose values the summary keeps


class _Analysis:
    def __init__(self, compile_, pack, globals_: frozenset, reads: Callable[[A.Expr], Any], keys: dict):
        self.compile, self.pack, self.globals = compile_, pack, globals_
        self.reads, self.keys = reads, keys
        self.pf: list = []
        self.of: list = []
        self.joins: list = []
        self.pv: list = []

    def role_of(self, e: A.Expr, roles: dict) -> set | None:
        """The roles (p, o) ``e`` mentions; None if it mentions a variable
        that is neither (an outer loop's) or hides a global name."""
        free = A.free_names(e)
        out = set()
        for n in free:
            if n in roles:
                out.add(roles[n])
            elif n not in self.globals:
                return None
        return out

    def reads_history(self, e: A.Expr) -> bool:
        r = self.reads(e)
        return r is None or "history" in r

    def side(self, e: A.Expr, roles: dict, role: str) -> Side:
        names = tuple(n for n, r in roles.items() if r == role)
        try:
            key = self.keys.setdefault(_canonical(e, names), len(self.keys))
        except TypeError:  # (a node that cannot be hashed: its own number)
            key = self.keys.setdefault((id(e), names), len(self.keys))
        r = self.reads(e)
        return Side(self.compile(e), names, key, r == frozenset())

    def conj(self, e: A.Expr, roles: dict, neg: bool, depth: int = 0) -> bool:
        """Add ``e`` (negated when ``neg``) as conjuncts; False: not of the shape."""
        if depth > 20:
            return False
        if isinstance(e, A.Not):
            return self.conj(e.operand, roles, not neg, depth + 1)
        if isinstance(e, A.And) and not neg:
            return all(self.conj(i, roles, False, depth + 1) for i in e.items)
        if isinstance(e, A.Or) and neg:
            return all(self.conj(i, roles, True, depth + 1) for i in e.items)
        if isinstance(e, A.Implies) and neg:
            return self.conj(e.left, roles, False, depth + 1) and self.conj(e.right, roles, True, depth + 1)
        which = self.role_of(e, roles)
        if which is None:
            return False
        if which <= {"o"}:
            self.of.append((self.side(e, roles, "o"), neg))
            return True
        if which == {"p"}:
            if self.reads_history(e):
                return False
            self.pf.append((self.side(e, roles, "p"), neg))
            return True
        return self.join(e, roles, neg, depth)

    def pvalue(self, e: A.Expr, roles: dict) -> int | None:
        if self.reads_history(e):
            return None
        self.pv.append(self.side(e, roles, "p"))
        return len(self.pv) - 1

    def one_side(self, e: A.Expr, roles: dict) -> str | None:
        w = self.role_of(e, roles)
        return next(iter(w)) if w is not None and len(w) == 1 else None

    def join(self, e: A.Expr, roles: dict, neg: bool, depth: int) -> bool:
        if isinstance(e, A.Compare) and (e.op in ("==", "!=", "in") or e.op in _ORDER):
            lr, rr = self.one_side(e.left, roles), self.one_side(e.right, roles)
            if {lr, rr} != {"p", "o"}:
                return False
            pe, oe = (e.left, e.right) if lr == "p" else (e.right, e.left)
            i = self.pvalue(pe, roles)
            if i is None:
                return False
            if e.op == "in":
                if neg:
                    return False
                op = "p_in_o" if lr == "p" else "o_in_p"
            elif e.op in _ORDER:
                # A(p) <= B(o) (or <, >, >=), as the kernel compares: false when
                # either side is none; negated as a whole, never by turning the
                # operator (not (none <= 3) is true, none > 3 false)
                op = ("not " if neg else "") + (e.op if lr == "p" else _FLIPPED[e.op])  # (as ``A(p) op B(o)``)
            else:
                op = "==" if (e.op == "==") != neg else "!="
            self.joins.append((op, i, self.side(oe, roles, "o")))
            return True
        if isinstance(e, A.Quant) and e.kind == "exists" and not neg and e.var not in roles \
                and e.var not in self.globals and isinstance(e.body, A.Compare) and e.body.op == "in" \
                and isinstance(e.body.left, A.Name) and e.body.left.id == e.var:
            # exists u in A(x): u in B(y) -- the two collections meet
            dr, sr = self.one_side(e.domain, roles), self.one_side(e.body.right, roles)
            if {dr, sr} != {"p", "o"} or e.var in A.free_names(e.body.right):
                return False
            pe, oe = (e.domain, e.body.right) if dr == "p" else (e.body.right, e.domain)
            i = self.pvalue(pe, roles)
            if i is None:
                return False
            self.joins.append(("meet_p" if dr == "p" else "meet_o", i, self.side(oe, roles, "o")))
            return True
        if isinstance(e, A.Call) and e.func in self.pack.defines:
            d = self.pack.defines[e.func]
            if len(d.params) != len(e.args):
                return False
            inner = {}
            for prm, a in zip(d.params, e.args):
                if not (isinstance(a, A.Name) and a.id in roles):
                    return False
                inner[prm] = roles[a.id]
            if any(prm in self.globals for prm in inner):
                return False
            return self.conj(d.body, inner, neg, depth + 1)
        return False


#: the name a side's entry goes by in its key (``_canonical``): no name of the language
_SELF = "·entry"


def _canonical(e: A.Expr, names: tuple) -> tuple:
    """The key of side ``e`` about the entry bound to ``names``: ``e`` with
    those names renamed to one, so that the same expression about another
    variable (``issuer(p).id``, ``issuer(o).id``) has the same key and an
    entry's value is worked out once for both. As written when a loop or set
    inside it binds one of those names (a renaming could change what it means)."""
    if any(isinstance(n, (A.Quant, A.SetComp, A.The)) and n.var in names for n in A.walk(e)):
        return (e, names)
    # (``A.transform`` makes a new node only where a name is renamed)
    return (A.transform(e, lambda n: A.Name(_SELF, n.loc) if isinstance(n, A.Name) and n.id in names else n), ())


def analyse(q: A.Quant, compiler, globals_: frozenset, reads, keys: dict | None = None) -> Shape | None:
    """The incremental shape of loop ``q``, or None. ``compiler``: the
    pack's (``kernel.evaluate.Compiler``); ``globals_``: the names that are
    not variables (defines, constants, symbols); ``reads(e)``: what ``e``
    reads beyond what its variables' entries are (``PackReads.of``: a
    subset of the read classes; None: unknown); a part about ``p`` that
    reads the history cannot be worked out once per entry. ``keys``: the
    numbers given to the parts so far (``Side.key``), shared by the loops
    of one pack."""
    dom, pack = q.domain, compiler.pack
    if not (isinstance(dom, A.Call) and dom.func not in pack.defines
            and len(dom.args) == 1 and isinstance(dom.args[0], A.Name)):
        return None
    is_prefix, kind = prefix_kind(compiler, dom.func)
    ovar, pvar = dom.args[0].id, q.var
    if not is_prefix or ovar == pvar or ovar in globals_ or pvar in globals_:
        return None
    a = _Analysis(compiler.compile, pack, globals_, reads, {} if keys is None else keys)
    if not a.conj(q.body, {pvar: "p", ovar: "o"}, q.kind == "forall"):
        return None
    return Shape(q.kind == "exists", ovar, kind, tuple(a.pf), tuple(a.of), tuple(a.joins), tuple(a.pv))


def _meet(a: Any, b: Any) -> bool:
    """exists u in A: u in B (None for A: no u)."""
    if a is None:
        return False
    for u in a:
        if contains(b, u):
            return True
    return False


def _ordered(op: Callable) -> Callable:
    """The kernel's ordering comparison (``evaluate._c_Compare``): false when
    either value is none (a TypeError is the kernel's to report: the loop
    hands back to it)."""
    return lambda pv, ov: pv is not None and ov is not None and op(pv, ov)


_ORDER = {"<": _operator.lt, "<=": _operator.le, ">": _operator.gt, ">=": _operator.ge}
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}  # (B(o) < A(p) is A(p) > B(o))

#: how a kept value ``pv`` of an earlier entry meets ``ov``, ``o``'s, by each join
_MEETS = {"==": lambda pv, ov: pv == ov, "!=": lambda pv, ov: pv != ov,
          "p_in_o": lambda pv, ov: contains(ov, pv), "o_in_p": lambda pv, ov: contains(pv, ov),
          "meet_p": _meet, "meet_o": lambda pv, ov: _meet(ov, pv),  # exists u in P: u in O; in O: u in P
          **{op: _ordered(f) for op, f in _ORDER.items()},
          **{"not " + op: (lambda m: lambda pv, ov: not m(pv, ov))(_ordered(f)) for op, f in _ORDER.items()}}


def _env_of(names: tuple):
    """The environment a side's closure is called with, for entry ``x``."""
    if len(names) == 1:
        n0 = names[0]
        return lambda x: {n0: x}
    return lambda x: {n: x for n in names}


def _of_entry(side: Side) -> Callable:
    """``side(ctx, x)`` as a plain closure (the loop's hot path: no method
    look-up; a value that reads what the entry is alone kept for every
    entry alike, ``_shared``)."""
    fn, key, env = side.fn, side.key, _env_of(side.names)
    if not side.what:
        return lambda ctx, x: fn(ctx, env(x))
    return lambda ctx, x: _shared(x.__dict__.get("_alike"), key, fn, ctx, env, x)


def _shared(alike: dict | None, key: int, fn: Callable, ctx, env: Callable, x) -> Any:
    """The value of a side for entry ``x``, ``fn(ctx, env(x))``: read from
    ``alike`` (the plain values kept for every entry alike: ``_alike``)
    when it holds it, else worked out and, when
    plain, kept there."""
    if alike is not None:
        v = alike.get(key, _NONE)
        if v is not _NONE:
            return v
    v = fn(ctx, env(x))
    if alike is not None and _plain(v):
        alike[key] = v
    return v


_SCALARS = (str, int, bool, float, type(None))


def _plain(v: Any) -> bool:
    """Is ``v`` plain data (an id, a number, a truth value, a set of ids),
    the same for every entry alike (``_alike``), never
    a piece or an entry, whose identity is its table's or branch's?"""
    t = type(v)
    if t in _SCALARS:
        return True
    return t in (frozenset, tuple) and all(type(u) in _SCALARS for u in v)


def _of_last(side: Side) -> Callable:
    """The value of ``side`` for the last entry of a log, kept on the log
    (a value that reads what the entry is alone: on the entry)."""
    if side.what:
        get = _of_entry(side)
        return lambda ctx, log: get(ctx, log.entries[-1])
    fn, k, env = side.fn, ("side", side.key), _env_of(side.names)

    def last(ctx, log):
        sigs = log.sigs
        v = sigs.get(k, _NONE)
        if v is _NONE:
            v = sigs[k] = fn(ctx, env(log.entries[-1]))
        return v
    return last


def incremental(shape: Shape, tag: Any, f: Callable) -> Callable:
    """The closure of a loop of ``shape`` (``f``: the one it stands in for)."""
    exists, ovar, kind = shape.exists, shape.ovar, shape.kind
    joins = shape.joins
    # (the sides as plain closures: the same values as ``Side.__call__`` and ``of_last``)
    pfilters = tuple((_of_last(side), neg) for side, neg in shape.pfilters)
    pvalues = tuple(_of_last(side) for side in shape.pvalues)
    ofilters = tuple((_of_entry(side), neg) for side, neg in shape.ofilters)
    ofs = tuple(_of_entry(side) for _, _, side in joins)
    empty = (False, ())
    meets = tuple((_MEETS[op], i) for op, i, _ in joins)
    in_place = ("in place", kind)  # (kept on a log: is its last entry in place for ``before``)

    def summary(log, ctx):
        s = log.sigs.get(tag)
        if s is not None:
            return s
        ents = log.entries
        if not ents:
            s = empty
        else:
            parent = log.parent
            if parent is None or len(parent.entries) != len(ents) - 1:
                # (a log given whole: its prefixes made, each keeping its summary;
                # what a part reads of an entry is on the entry, not the log)
                parent = log.but(ents[:-1])
            base = parent.sigs.get(tag)
            if base is None:
                base = summary(parent, ctx)
            s = _UNKNOWN if base is _UNKNOWN else _add(base, ctx, log)
        log.sigs[tag] = s
        return s

    def _add(base, ctx, log):
        """``base`` with the last entry of ``log``: if it is of the domain,
        its values when it passes the filters (every part worked out, no
        short cut: an error is found whatever the order)."""
        if kind is not None and log.entries[-1].kind != kind:
            return base
        try:
            ok = True
            for get, neg in pfilters:
                if bool(get(ctx, log)) == neg:
                    ok = False
            vals = tuple([get(ctx, log) for get in pvalues])
        except Exception:
            return _UNKNOWN
        if not ok:
            return base if base[0] else (True, base[1])
        return True, base[1] + (vals,)

    def placed(log, o):
        """Is ``o`` (the last entry of ``log``) where the domain of its
        entries before it is the log before it?"""
        before = log.parent
        if kind is not None:
            # (the entries of its kind up to ``o``'s index, each in place)
            earlier = before.of(kind)
            return o.kind == kind and o.index == len(earlier) and not (earlier and earlier[-1].index != o.index - 1)
        return o.place == len(before.entries)

    def loop(ctx, env):
        if ctx.trace is not None or ctx.fresh:
            return f(ctx, env)
        o = env.get(ovar)
        log = ctx.log
        ents = log.entries
        if o is None or not ents or ents[-1] is not o:
            return f(ctx, env)
        before = log.parent
        if before is None or len(before.entries) != len(ents) - 1:
            return f(ctx, env)
        v = judge(ctx, o, log, before)
        return f(ctx, env) if v is None else v

    def judge(ctx, o, log, before):
        """The loop's value for ``o``, the last entry of ``log``, appended
        to ``before`` (its parent), judged untraced and not afresh (what
        ``loop`` checks first; ``judge`` alone: a family's engine, which
        knows it, ``HistoryLoops.judge_of``): None when the summary cannot tell."""
        sigs = log.sigs
        ok = sigs.get(in_place)
        if ok is None:
            ok = sigs[in_place] = placed(log, o)
        if not ok:
            return None
        s = before.sigs.get(tag)
        if s is None:
            s = summary(before, ctx)
        if s is _UNKNOWN:
            return None
        nonempty, kept = s
        if not nonempty:  # (an empty domain: the kernel reads nothing)
            return not exists
        try:
            ok = True
            for get, neg in ofilters:
                if bool(get(ctx, o)) == neg:
                    ok = False
            ovals = [get(ctx, o) for get in ofs]
            found = False
            if ok:  # (is there a kept entry whose values meet o's by every join)
                for vals in kept:
                    for (meet, i), ov in zip(meets, ovals):
                        if not meet(vals[i], ov):
                            break
                    else:
                        found = True
                        break
        except Exception:
            return None
        return found if exists else not found

    judge.shape, judge.summary = shape, summary  # (what a walk merging branches asks of it)
    loop.judge, loop.ovar = judge, ovar
    return loop


def o_plain(shape: Shape, ctx, o) -> bool:
    """Does every part of ``shape`` about ``o`` read only what ``o`` is
    and give plain data for it (``_plain``)? Then it gives the same for
    every entry alike, wherever and whenever it is made (a walk merging
    branches asks the loop about a later step with such an entry made now)."""
    sides = [side for side, _ in shape.ofilters] + [side for _, _, side in shape.joins]
    return all(side.what and _plain(_of_entry(side)(ctx, o)) for side in sides)


class HistoryLoops:
    """The history loops of one pack's rules judged incrementally: the
    pack's ``compiler`` and ``reads`` (``PackReads``). ``install(body)``
    makes the compiler judge every loop of ``body`` of the shape from its
    summary (the kernel's closure standing in where the summary cannot
    tell); ``taken`` holds them (by node id)."""

    def __init__(self, compiler, reads) -> None:
        pack = compiler.pack
        self.compiler, self.reads = compiler, reads
        #: the names that are no variable
        self.globals = frozenset(set(pack.defines) | set(pack.vocabulary.constants) | set(compiler.symbols))
        self.keys: dict = {}  # (``Side.key``)
        self.taken: set[int] = set()

    def shape(self, q: A.Quant) -> Shape | None:
        """``analyse`` for this pack."""
        return analyse(q, self.compiler, self.globals, lambda e: self.reads.of([e]), self.keys)

    def install(self, body: A.Expr) -> None:
        for n in A.walk(body):
            if isinstance(n, A.Quant) and id(n) not in self.taken:
                shape = self.shape(n)
                if shape is not None:
                    self.taken.add(id(n))
                    self.compiler.stand_in(n, lambda f, n=n, shape=shape: incremental(shape, ("incremental", id(n)), f))

    def judge_of(self, body: A.Expr, var: str) -> tuple | None:
        """(``judge``, negated) when ``body`` (about ``var``) is a loop
        installed over ``var``'s past, or its negation: ``judge(ctx, o,
        log, before)`` asks its summary directly (None: it cannot tell)."""
        negated = isinstance(body, A.Not)
        q = body.operand if negated else body
        if not isinstance(q, A.Quant) or id(q) not in self.taken:
            return None
        loop = self.compiler.compile(q)
        if getattr(loop, "ovar", None) != var:
            return None
        return loop.judge, negated


__all__ = ["Shape", "HistoryLoops", "UNSUMMARISED", "analyse", "incremental", "o_plain", "prefix"]
