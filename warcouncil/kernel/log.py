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
``judgement_key``   a judgement about an entry appended to a log, by both;
``DefinesKey``      a value some of the pack's defines work out about an
                    entry appended to a log (a target, an attempt's dice),
                    by what those defines read of the entry and the history.

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
from .reads import IDENTITY

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


class DefinesKey:
    """What a value that the pack's defines ``names`` work out about an
    entry appended to a log is a function of, by what they read
    (``PackReads``): the key under which one answer keeps it
    (``AnswerCaches.values``). Each define takes the entry first and may
    take a second argument, one of ``others(entry)`` (e.g. the entry's
    pieces); ``own``: the part of the entry's outcome being worked out
    (left out); ``also``: what else of the entry the value reads (e.g.
    ``fixed`` when the family walks the entry's pieces itself).

    ``key(log, e, cache)``: (``tag``, the log's side, ``e`` by
    ``entry_key``, the history as the defines read it: the values of the
    history builtins they call on their own parameters
    (``PackReads.history_calls``: ``nth(o, u)``) when every define reading
    the history reads it so, else ``history_number``; None when none reads
    it). No key (None: not shared) when a define reads something of
    unknown reach or the entry as itself. ``placeable``: every define that
    measures (reads ``table``) reads no history and nothing as itself, so
    the value may be kept by the places it read too (``key(..., placed=True)``,
    the entry without its tables, for ``AnswerCaches.by_places``)."""

    def __init__(self, tag: str, names, pack, reads, compiler, own: str = "", also: frozenset = frozenset(),
                 others=None) -> None:
        self.tag, self.own, self.others = tag, own, others
        self.of_e: frozenset | None = None  # (None: no key)
        self.placeable = True
        of_e, history, calls = set(also), set(), []
        for name in [n for n in names if n in pack.defines]:
            d = pack.defines[name]
            whole = reads.define(name)
            each = [reads.of_var(d.body, p) for p in d.params]
            if whole is None or None in each or (each and IDENTITY in each[0]):
                return
            of_e |= each[0] if each else set()
            for r in each[1:]:  # (a piece of the entry: it stands on the entry's table)
                of_e |= {"fixed"} | ({"table"} if r & {"table", IDENTITY} else set())
            if "history" in whole:
                history |= whole
            self.placeable = self.placeable and ("table" not in whole or (
                "history" not in whole and not any(IDENTITY in r for r in each)))
            got = reads.history_calls(name)
            if calls is not None and (got is None or len(d.params) not in (1, 2)):
                calls = None
            elif calls is not None and got:
                calls.append((tuple(d.params), [compiler.compile(n) for n in got]))
        self.of_e, self.history, self.calls = frozenset(of_e), frozenset(history), calls
        self.placed = self.of_e - {"table"}

    def key(self, log: TurnLog, e: Any, cache: Any, placed: bool = False) -> tuple | None:
        """The key of the value about ``e`` appended to ``log`` (``cache``:
        the answer's ``AnswerCaches``, its memo of defines and its numbered
        histories), or None."""
        if self.of_e is None:
            return None
        return ((self.tag, placed), log.side, entry_key(e, self.placed if placed else self.of_e, self.own),
                self._history(log, e, cache) if self.history else None)

    def _history(self, log: TurnLog, e: Any, cache: Any):
        if self.calls is None:
            return history_number(log, self.history, cache.histories)
        ctx = LogCtx(log, None, cache.defines)
        out = []
        for params, fns in self.calls:
            envs = [{params[0]: e}] if len(params) == 1 else [{params[0]: e, params[1]: u} for u in self.others(e)]
            out.extend(f(ctx, env) for env in envs for f in fns)
        return ("calls", tuple(out))


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


__all__ = ["TurnLog", "LogCtx", "FIXED_PARTS", "DefinesKey", "entry_key", "history_number", "judgement_key",
           "cached_property"]
