"""What a define reads, from the read classes its pack declares.

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


class PackReads:
    """The read classes of a pack's expressions (``of``) and defines (``define``).

    ``attr``: what reading an attribute reads (a class, ``""`` for nothing
    that changes in one answer, None for unknown reach): attributes are
    the family's Python fields, not declared in the pack."""

    def __init__(self, pack, attr: Callable[[str], str | None]):
        self.pack, self.attr = pack, attr
        self._defines: dict = {}

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
