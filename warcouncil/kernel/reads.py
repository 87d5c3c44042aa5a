"""What a define reads, from the read classes its pack declares.

``PackReads.of`` what an expression reads as a whole; ``of_var`` what it
reads of one of its variables (a parameter: what a cache keys that
argument by), ``IDENTITY`` when it uses the value as itself.

A pack's ``builtin`` statement may name a finer read class than its level
(``reads turn.history``, ``reads setting.table``: ``dsl.builtins.READ_CLASSES``);
the class after the level (``history``, ``table``, ``fixed.by``, ...) is
what the builtin's value depends on. This module derives, for an
expression or a define, the union of the classes of the builtins it calls
(through the defines it calls), which is what an answer's caches key a
judgement by (``caches.AnswerCaches``). ``fixed`` classes (what never changes
in one answer) and ``pure`` builtins add nothing to that union; a builtin
declared with a level alone (no class, not pure) reads something of
unknown reach: the union is then None, and nothing it reads is cached.
"""

from __future__ import annotations

from typing import Callable

from ..dsl import ast as A


#: what ``PackReads.of_var`` adds for a value used as itself (compared, looked
#: up in a collection): the object, not what it is (a log entry; a piece on its table)
IDENTITY = "identity"


def plain_type(returns: str) -> bool:
    """Does a builtin of this declared type give plain data (ids, numbers,
    symbols), never a piece or an entry, whose identity could matter?"""
    return "piece" not in returns and "any" not in returns


class PackReads:
    """The read classes of a pack's expressions (``of``) and defines (``define``).

    ``attr``: what reading an attribute reads (a class, ``""`` for nothing
    that changes in one answer, None for unknown reach): attributes are
    the family's Python fields, not declared in the pack."""

    def __init__(self, pack, attr: Callable[[str], str | None], symbols=frozenset()):
        self.pack, self.attr, self.symbols = pack, attr, symbols
        self._defines: dict = {}
        self._vars: dict = {}  # (define, parameter) -> ``of_var``
        self._history_calls: dict = {}  # define -> ``history_calls``

    def builtin(self, name: str) -> str | None:
        """The class a builtin reads (``history``, ``table``, ``fixed.by``...); ``""`` for a pure
        builtin; None for one of unknown reach."""
        b = self.pack.vocabulary[name]
        if b.detail is not None:
            return b.detail
        return "" if b.reads == "pure" else None

    def define(self, name: str) -> frozenset | None:
        """What define ``name`` reads (its body, through the defines it calls)."""
        hit = self._defines.get(name, False)
        if hit is False:
            hit = self._defines[name] = self.of([self.pack.defines[name].body])
        return hit

    def of(self, exprs) -> frozenset | None:
        """What expressions read, through the defines they call: the
        classes that change in one answer (not ``fixed``), or None when
        they read something of unknown reach."""
        vocab, defines = self.pack.vocabulary, self.pack.defines
        out: set[str] = set()
        seen: set[str] = set()
        todo = list(exprs)
        while todo:
            e = todo.pop()
            names = set()
            for n in A.walk(e):
                if isinstance(n, A.Attr):
                    c = self.attr(n.name)
                    if c is None:
                        return None
                    if c:
                        out.add(c)
                elif isinstance(n, A.Call):
                    names.add(n.func)
                elif isinstance(n, A.Name) and (n.id in defines or n.id in vocab.constants):
                    names.add(n.id)  # (any other name: a variable or a value)
            for name in names:
                if name in defines:
                    if name not in seen:
                        seen.add(name)
                        todo.append(defines[name].body)
                    continue
                if name not in vocab:
                    continue  # a variable, a value
                c = self.builtin(name)
                if c is None:
                    return None
                if c and not c.startswith("fixed"):
                    out.add(c)
        return frozenset(out)

    def of_var(self, e: A.Expr, var: str) -> frozenset | None:
        """What expression ``e`` reads of the value of its free variable
        ``var`` (through the defines it calls, and the loop variables
        drawn from it): a subset of ``fixed`` (what an entry is; a
        piece's own data; ``fixed.by``... a part of what an entry is),
        ``outcome``, ``table``,
        ``history``, and ``identity`` (the value used as itself); None
        when it reads it through a builtin of unknown reach."""
        vocab, defines = self.pack.vocabulary, self.pack.defines
        tainted, plain = {var}, set()
        binders = [n for n in A.walk(e) if isinstance(n, (A.Quant, A.SetComp, A.The))]
        grown = True
        while grown:
            grown = False
            for b in binders:
                if b.var not in tainted and A.referenced(b.domain) & tainted:
                    tainted.add(b.var)
                    grown = True
                    d = b.domain
                    if isinstance(d, A.Call) and d.func not in defines and d.func in vocab \
                            and plain_type(vocab[d.func].returns):
                        plain.add(b.var)  # (an id drawn from `given_ids(o)` is just an id)

        def mentions(x) -> bool:
            return x is not None and bool(A.referenced(x) & tainted)

        def plain_value(x) -> bool:
            return (isinstance(x, A.Name) and x.id in plain) or self.plain(x)

        out: set[str] = set()
        for n in A.walk(e):
            if isinstance(n, A.Attr) and mentions(n.obj):
                c = self.attr(n.name)
                if c is None:
                    return None
                if c:
                    out.add(c)
                elif isinstance(n.obj, A.Name) and n.obj.id == var:
                    # (a field of the value itself: what it is; a field of a piece
                    # drawn from it: the piece's own, read where it was drawn)
                    out.add("fixed")
            elif isinstance(n, A.Call) and any(mentions(a) for a in n.args):
                d = defines.get(n.func)
                if d is not None:
                    if len(d.params) != len(n.args):
                        return None
                    for p, a in zip(d.params, n.args):
                        if mentions(a):
                            key = (n.func, p)
                            if key not in self._vars:
                                self._vars[key] = self.of_var(d.body, p)
                            sub = self._vars[key]
                            if sub is None:
                                return None
                            # (a plain value handed over is only what it is: what was
                            # read to work it out is the argument's own reads)
                            out |= sub - {IDENTITY} if plain_value(a) else sub
                elif n.func not in vocab:
                    return None
                else:
                    c = self.builtin(n.func)
                    if c is None:
                        return None
                    if c:
                        out.add(c)
            elif isinstance(n, A.Compare):
                for side in (n.left, n.right):
                    if mentions(side) and not plain_value(side):
                        out.add(IDENTITY)
        return frozenset(out)

    def history_calls(self, name: str) -> tuple | None:
        """The calls of history builtins (``reads turn.history``) define
        ``name`` makes, when it reads the history only through them, each
        called on its own parameters (``nth(o, u)``): its value is then a
        function of theirs and of what it reads beside (a cache may key it
        by those values); () when it reads no history; None when it reads it
        otherwise (a history constant, an attribute of the history, a define
        that reads it, a call on another value)."""
        hit = self._history_calls.get(name, False)
        if hit is not False:
            return hit
        vocab, defines = self.pack.vocabulary, self.pack.defines
        d = defines[name]
        params = set(d.params)
        out: list = []
        ok = True
        for n in A.walk(d.body):
            if isinstance(n, (A.Quant, A.SetComp, A.The)) and n.var in params:
                ok = False  # (a parameter hidden by a loop's variable)
            elif isinstance(n, A.Call) and n.func in defines:
                r = self.define(n.func)
                if r is None or "history" in r:
                    ok = False
            elif isinstance(n, A.Call) and n.func in vocab and self.builtin(n.func) == "history":
                if all(isinstance(a, A.Name) and a.id in params for a in n.args):
                    out.append(n)
                else:
                    ok = False
            elif isinstance(n, A.Name) and n.id not in params and (
                    (n.id in vocab and self.builtin(n.id) == "history") or n.id in defines):
                r = self.define(n.id) if n.id in defines else None
                if r is None or "history" in r:  # (a history constant, or a define of no parameter reading it)
                    ok = False
            elif isinstance(n, A.Attr) and self.attr(n.name) == "history":
                ok = False
        hit = self._history_calls[name] = tuple(out) if ok else None
        return hit

    def plain(self, x: A.Expr | None, seen: frozenset = frozenset()) -> bool:
        """Is ``x``'s value plain data (a number, a truth value, an id, a
        symbol), never a piece or an entry whatever its variables hold?"""
        defines, vocab = self.pack.defines, self.pack.vocabulary
        if isinstance(x, (A.Num, A.Str, A.Const, A.Attr, A.BinOp, A.Neg, A.Compare, A.Not, A.And, A.Or,
                          A.Implies, A.Quant)):
            return True  # (a field of a piece or entry is data; the rest compute numbers or truth)
        if isinstance(x, A.IfElse):
            return self.plain(x.then, seen) and self.plain(x.other, seen)
        name = x.func if isinstance(x, A.Call) else x.id if isinstance(x, A.Name) else None
        if name is None:
            return False
        d = defines.get(name)
        if d is not None:
            if isinstance(x, A.Name) and d.params:
                return False
            return name not in seen and self.plain(d.body, seen | {name})
        if name in vocab:
            return plain_type(vocab[name].returns)
        return isinstance(x, A.Name) and name in self.symbols
