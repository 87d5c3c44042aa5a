"""A turn's log: its entries appended one by one, and the keys of judgements about it.

A family whose decision is a sequence of entries (Warmaster's Command phase:
initiative moves, order attempts, character moves) judges its rules over a
``TurnLog``: the entries so far, in order, each appended by ``plus``, which
makes a new log whose ``parent`` is the one it extends. The kernel works
along that chain: a history loop is judged from a summary carried along it
(``kernel/loops.py``), and a judgement is kept by what it reads as the
pack's read classes say (``kernel/reads.py``), here keyed:

``entry_key``       an entry as far as a judgement reading ``reads`` sees it:
                    what the entry is (its ``turn.fixed`` parts, or only those
                    read), its outcome, the tables it stands on;
``history_number``  a log's entries by ``entry_key``, as one number of the answer;
``judgement_key``   a judgement about an entry appended to a log, by both.

What a family's entry gives (its Python class, the family's meaning):

* ``kind`` (its sub-phase), ``place`` (its position in the whole log) and
  ``index`` (its position among the entries of its kind, where a domain of
  entries of one kind reads it, ``kernel/loops.py``);
* ``what()``: what the entry is, one value per part of ``FIXED_PARTS`` in
  that order (kept in the entry's ``__dict__`` as ``_what``, and its parts by
  the classes read as ``_parts``, a dict: a family may set both when it
  makes the entry, shared by the entries that are the same; a copy of the
  entry with another outcome keeps them);
* ``outcome(own)``: its dice and result, ``own`` the one being worked out
  (left out of the key);
* ``tables()``: what stands for the tables it reads (before and after it).

``LogCtx`` is what the compiled rules see while a log is judged.
"""

from __future__ import annotations

from typing import Any

from ..dsl.builtins import READ_CLASSES

#: what an entry is, part by part (``turn.fixed.kind``, ``turn.fixed.by`` ...:
#: the language's read classes): the order of ``what()``'s values
FIXED_PARTS = tuple(c.split(".", 1)[1] for c in READ_CLASSES if c.startswith("turn.fixed."))
_PARTS = frozenset(FIXED_PARTS)


class cached_property:  # noqa: N801 (as functools', without its lock: a log is never shared between threads)
    """A value worked out on first reading and kept in the instance's
    ``__dict__`` (read from there afterwards, the descriptor not asked)."""

    def __init__(self, fn):
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.fn(obj)
        return v


class TurnLog:
    """A turn so far: ``entries`` in order, of ``side``'s turn; ``parent``,
    the log this one extends by its last entry (made by ``plus``), and
    ``sigs``, what the kernel and the family keep of this log (summaries,
    numbers, counts: a log's entries never change). A subclass holds the
    family's setting beside them, ``table`` (Warmaster: the table after the
    last entry, by which ``AnswerCaches.by_places`` keeps a verdict), and
    makes its logs: ``plus`` (the log with one entry more, its ``parent``
    this one) and ``but``. The kernel reads a log as made by ``plus`` when
    its parent holds one entry fewer; any other (a log given whole) it
    reads as written."""

    entries: list
    side: str
    parent: "TurnLog | None"
    sigs: dict

    def __init__(self, entries: list, side: str = "", parent: "TurnLog | None" = None) -> None:
        self.entries, self.side, self.parent, self.sigs = entries, side, parent, {}

    @cached_property
    def whole(self) -> tuple:
        return tuple(self.entries)

    @cached_property
    def _kinds(self) -> dict[str, tuple]:
        out: dict[str, list] = {}
        for e in self.entries:
            out.setdefault(e.kind, []).append(e)
        return {k: tuple(v) for k, v in out.items()}

    def of(self, kind: str) -> tuple:
        """The entries of one kind, in order (worked out once per log)."""
        return self._kinds.get(kind, ())

    def but(self, entries: list) -> "TurnLog":
        """A log of ``entries`` in this one's setting (no parent: the log
        before the last entry of a log given whole)."""
        return TurnLog(entries, self.side)


def entry_key(e: Any, reads: frozenset, own: str = "") -> tuple:
    """Entry ``e`` as far as a judgement reading ``reads`` sees it
    (``own``: the part of its outcome being worked out, left out)."""
    d = e.__dict__
    sig = d.get("_what")  # (what the entry is: the same in its copies with another outcome)
    if sig is None:
        sig = d["_what"] = e.what()
    if "fixed" not in reads and not reads.isdisjoint(_PARTS):
        # (a judgement reading only some of what the entry is: those parts;
        # kept with the entry's, shared by its copies: the same parts)
        parts = d.get("_parts")
        if parts is None:
            parts = d["_parts"] = {}
        hit = parts.get(reads)
        if hit is None:
            hit = parts[reads] = ("parts",) + tuple(v if p in reads else None for p, v in zip(FIXED_PARTS, sig))
        sig = hit
    if "outcome" in reads:
        sig += e.outcome(own)
    if "table" in reads:
        sig += e.tables()
    return sig


def history_number(log: TurnLog | None, reads: frozenset, known: dict) -> int:
    """Every entry of ``log`` by ``entry_key``, as one number (kept on the
    log; ``known``: the answer's numbers, ``AnswerCaches.histories``): the
    same number for logs whose entries are alike entry by entry, made from
    the parent's number and the last entry's key (a key holds a number, not
    the history)."""
    if log is None or not log.entries:
        return 0
    hit = log.sigs.get(reads)
    if hit is None:
        parent = log.parent
        if parent is not None and len(parent.entries) == len(log.entries) - 1:  # (made by ``plus``)
            head = history_number(parent, reads, known)
        else:
            head = 0
            for x in log.entries[:-1]:
                head = _numbered(known, (reads, head, entry_key(x, reads)))
        hit = log.sigs[reads] = _numbered(known, (reads, head, entry_key(log.entries[-1], reads)))
    return hit


def _numbered(known: dict, k: tuple) -> int:
    """The number of the history ``k``: (reads, the number before, an entry's key)."""
    n = known.get(k)
    if n is None:
        n = known[k] = len(known) + 1
    return n


def judgement_key(what: Any, reads: frozenset, e: Any, before: TurnLog, known: dict, own: str = "") -> tuple:
    """The key of judgement ``what`` reading ``reads``, about entry ``e``
    appended to ``before``."""
    return (what, before.side, entry_key(e, reads, own),
            history_number(before, reads, known) if "history" in reads else None)


class _Memo:
    """A judgement's memo (``memo``) and its setting's (``setting.memo``):
    shared (``static``), or its own."""

    __slots__ = ("memo", "setting")

    def __init__(self, memo: dict | None = None, shared: dict | None = None):
        self.memo: dict = {} if memo is None else memo
        self.setting = self if shared is None else _Memo(shared)


class LogCtx:
    """What the compiled rules see while a log is judged: the log
    (``log``), where measurements are written down (``trace``), and the
    memos the compiler's closures keep: ``g.memo`` fresh for each
    judgement; ``g.setting.memo`` (the defines that read the setting only
    through their arguments, by those arguments) fresh too, or ``static``
    (``AnswerCaches.defines``), shared by the judgements of one answer. A
    judgement that writes measurements down (``trace``) or records what it
    reads (``fresh``) gets its own, so that nothing it reads is skipped
    (``kernel/loops.py`` then judges a history loop as written)."""

    __slots__ = ("log", "trace", "g", "fresh")

    def __init__(self, log: TurnLog, trace: list | None = None, static: dict | None = None, fresh: bool = False):
        self.log, self.trace, self.fresh = log, trace, fresh
        self.g = _Memo(None, static if trace is None and not fresh else None)


__all__ = ["TurnLog", "LogCtx", "FIXED_PARTS", "entry_key", "history_number", "judgement_key", "cached_property"]
