"""The table at a moment of the Command phase, and the phase's log.

``Table``  where every piece stands (a ``Pose`` per id) — immutable; a move
           gives a new table. Footprints by ``systems.warmaster.measure`` (shapely).
``At``     a piece as it stands on one table: what the rules' builtins
           measure. Identity is the object's own (the same piece at two
           moments is two ``At``s unless every piece stands as it did;
           compare ``.id``).
``Entry``  one line of the log: an initiative move, a home back, an order
           attempt or a character's move, with the pieces where they stood.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import Location
from . import measure as T
from ...kernel.caches import AnswerCaches
from ...kernel.log import TurnLog, cached_property
from .scenario import Piece, Pose, WarmasterScenario, footprint


class Table:
    """Every piece's pose on one table; footprints made once per pose.
    Tables moved from one another are one object per set of poses, so a
    piece is one ``At`` wherever the same table recurs."""

    def __init__(self, scenario: WarmasterScenario, unit_attrs: dict, poses: dict[str, Pose] | None = None,
                 cache: AnswerCaches | None = None, _start: dict | None = None, _key: frozenset | None = None):
        self.scenario = scenario
        self.unit_attrs = unit_attrs  # unit type -> {pace, flying, ...} from the pack
        self.by_id = scenario.by_id
        #: every piece's pose at the scenario's start (shared by the tables moved from one another)
        self.start = {p.id: p.pose for p in scenario.pieces} if _start is None else _start
        self.poses = dict(poses) if poses is not None else dict(self.start)
        self._fp: dict[str, T.Footprint] = {}
        self._at: dict[str, At] = {}
        #: lists of pieces worked out once per table (``listed``: ``units``, builtins.py)
        self.lists: dict = {}
        #: the answer's caches: its tables, footprints and measurements by piece
        #: and pose, shared by every table moved from this one (a piece in one
        #: pose measures the same on any table; builtins.py)
        self.cache = AnswerCaches() if cache is None else cache
        #: the key of this table in ``cache.tables`` (``moved``): the poses that are
        #: not the start's (the set of poses, without those every table shares)
        self.key = frozenset((pid, pose) for pid, pose in self.poses.items() if pose != self.start.get(pid)) \
            if _key is None else _key
        self.cache.tables.setdefault(self.key, self)

    def moved(self, moves: dict[str, Pose]) -> "Table":
        """The table after ``moves``: one table per set of poses (the
        branches of a plan that put every piece in the same place share it,
        its pieces and what was measured on it)."""
        if not moves:
            return self.cache.tables.get(self.key, self)
        old, start = self.poses, self.start
        # (this table's key with the moved pieces' poses replaced: a few poses, not every piece's)
        key = self.key.difference([(pid, old[pid]) for pid in moves if pid in old]) \
            .union([(pid, pose) for pid, pose in moves.items() if pose != start.get(pid)])
        t = self.cache.tables.get(key)
        if t is None:
            t = Table(self.scenario, self.unit_attrs, {**old, **moves}, self.cache, start, key)
            t._fp = {k: v for k, v in self._fp.items() if k not in moves}
        return t

    def footprint(self, pid: str) -> T.Footprint:
        fp = self._fp.get(pid)
        if fp is None:
            key = (pid, self.poses[pid])
            fps = self.cache.footprints
            fp = fps.get(key)
            if fp is None:
                fp = fps[key] = footprint(self.by_id[pid], self.poses[pid])
            self._fp[pid] = fp
        return fp

    def at(self, pid: str) -> "At":
        a = self._at.get(pid)
        if a is None:
            a = self._at[pid] = At(self.by_id[pid], self)
        return a

    def listed(self, key: Any, make) -> tuple:
        """The pieces ``make()`` lists, worked out once per table (``lists``, under ``key``)."""
        got = self.lists.get(key)
        if got is None:
            got = self.lists[key] = make()
        return got

    def units(self) -> tuple["At", ...]:
        return self.listed("units", lambda: tuple(self.at(p.id) for p in self.scenario.units))

    def characters(self) -> tuple["At", ...]:
        return self.listed("characters", lambda: tuple(self.at(p.id) for p in self.scenario.characters))

    def close(self) -> None:
        """Its answer is given (``AnswerCaches.close``): forget its pieces,
        lists and footprints (worked out again if it is asked)."""
        self._at, self.lists, self._fp = {}, {}, {}


class At:
    """A piece as it stands on ``table``: the rules read its attributes
    (``id side role type command at``, and its type's as the pack declares
    them: ``pace flying``, a character's type being ``character``) and the
    builtins measure its footprint."""

    __slots__ = ("piece", "table", "rank", "id")

    def __init__(self, piece: Piece, table: Table):
        self.piece, self.table = piece, table
        self.rank = 0
        self.id: str = piece.id

    @property
    def fp(self) -> T.Footprint:
        reading = self.table.cache.reading  # (a judgement kept by the places it reads: this one read)
        if reading:
            reading[-1].add(self)
        return self.table.footprint(self.piece.id)

    @property
    def pose(self) -> Pose:
        reading = self.table.cache.reading
        if reading:
            reading[-1].add(self)
        return self.table.poses[self.piece.id]

    def get_attr(self, name: str) -> Any:
        p = self.piece
        if name in ("id", "side", "role", "type", "command"):
            return getattr(p, name)
        if name == "at":
            return self.pose.at
        attrs = self.table.unit_attrs.get(p.type)
        if attrs is not None and name in attrs:
            return attrs[name]
        raise AttributeError(name)

    def __repr__(self) -> str:
        return self.piece.id

    __str__ = __repr__


@dataclass(eq=False)
class Entry:
    """One line of the Command phase log. ``kind`` is its sub-phase;
    ``place`` its position in the whole log; ``index`` (order attempts) its
    position among the attempts. Pieces stand where they stood before the
    entry (``before``) and after it (``after``)."""

    kind: str
    place: int
    where: Location | None = None
    index: int = 0
    by: At | None = None  # the character giving an order
    units: tuple[At, ...] = ()  # the unit(s) ordered, or the piece moved, before the entry
    after: tuple[At, ...] = ()  # the same pieces after the entry
    roll: int | None = None  # 2D6 (orders) or D6 (home back)
    moves: bool = False
    action: str | None = None
    toward: At | None = None
    blunder_d6: int | None = None  # orders: the blunder table's D6, when the log gives it
    target: int | None = None  # orders: command value minus penalties
    penalties: dict = field(default_factory=dict)
    #: orders: what works ``(target, penalties)`` out when first read (``worked``)
    pending: Any = field(default=None, repr=False)
    # (set on an attempt by the engine, copied with it by ``but``: ``_alike``, the
    # plain values a history loop read of any attempt of the same step, kernel/loops.py)

    @cached_property
    def ids(self) -> frozenset[str]:
        return frozenset(u.id for u in self.units)

    def with_roll(self, roll: int) -> "Entry":
        """The same entry with another roll (a copy: its units, hence its ids, are the same)."""
        return self.but(roll=roll)

    def but(self, **changes) -> "Entry":
        """A copy with ``changes`` (``dataclasses.replace`` without its
        cost: what the copy keeps of the original is what it is — kind,
        character, units — so its cached ids and signature stay true;
        ``units`` is never changed)."""
        e = Entry.__new__(Entry)
        d = self.__dict__.copy()
        d.update(changes)
        e.__dict__ = d
        return e

    def worked(self) -> "Entry":
        """The entry with its target and penalties worked out (an order
        attempt of ``odds`` works them out only when a rule or the dice
        read them)."""
        if self.pending is not None:
            self.target, self.penalties = self.pending()
            self.pending = None
        return self

    def what(self) -> tuple:
        """What the entry is (``kernel.log.FIXED_PARTS``: its kind, who
        orders, its units, its action, the character it flies toward)."""
        return (self.kind, self.by.id if self.by is not None else None, tuple(u.id for u in self.units),
                self.action, self.toward.id if self.toward is not None else None)

    def outcome(self, own: str = "") -> tuple:
        """Its roll, whether it moves and (an attempt) its target, or what
        the target is worked out from (``own``: the one left out)."""
        return (None if own == "roll" else self.roll, self.moves,
                None if self.kind != "orders" or own == "target" else
                self.target if self.pending is None else self.pending.key())

    def tables(self) -> tuple:
        """The tables it stands on, before it and after it."""
        return self.units[0].table if self.units else None, self.after[0].table if self.after else None

    def unrolled(self) -> bool:
        """Is it an order attempt before its roll (no roll, no move)?"""
        return self.roll is None and not self.moves

    def stands_on(self, t: Table) -> bool:
        """Does it hold every piece as it stands on table ``t``, before the
        entry and after it (an order that moves nothing, on ``t``)?"""
        return all(a.table is t for a in self.units) and all(a.table is t for a in self.after) \
            and (self.by is None or self.by.table is t) and (self.toward is None or self.toward.table is t)

    def get_attr(self, name: str) -> Any:
        if name == "index":
            return self.index
        if name == "phase":
            return self.kind
        raise AttributeError(name)

    def pieces(self) -> list[str]:
        out = [self.by.id] if self.by is not None else []
        return out + [u.id for u in self.units]

    def __str__(self) -> str:
        units = "+".join(u.id for u in self.units)
        if self.kind == "orders":
            return f"order {self.index + 1} ({self.by.id} → {units})"
        if self.kind == "initiative":
            return f"initiative {self.action or 'move'} of {units}"
        if self.kind == "home_back":
            return f"home back of {units}"
        return f"move of {units}"

    __repr__ = __str__


@dataclass
class Log(TurnLog):
    """The Command phase so far (of ``side``, the side to move): every
    entry, in order, and the table after it (``kernel.log.TurnLog``)."""

    entries: list[Entry]
    table: Table
    side: str = ""
    #: the log this one extends by its last entry (``plus``), and what is
    #: kept of it (the kernel's summaries and numbers)
    parent: "Log | None" = field(default=None, repr=False)
    sigs: dict = field(default_factory=dict, repr=False)

    @cached_property
    def attempts(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.kind == "orders")

    def of(self, kind: str) -> tuple[Entry, ...]:
        """The entries of one sub-phase, in order (worked out once per log:
        a log's entries are never changed, ``plus`` makes a new log)."""
        if kind == "orders":
            return self.attempts
        return self._kinds.get(kind, ())

    def but(self, entries: list[Entry]) -> "Log":
        return Log(entries, self.table, self.side)

    def plus(self, e: Entry, table: Table | None = None) -> "Log":
        log = Log.__new__(Log)  # (the dataclass's __init__ without its cost: every field set here)
        d = {"entries": self.entries + [e], "table": table if table is not None else self.table,
             "side": self.side, "parent": self, "sigs": {}}
        attempts = self.__dict__.get("attempts")
        if attempts is not None:  # (its attempts: this log's, and ``e`` if it is one)
            d["attempts"] = attempts + (e,) if e.kind == "orders" else attempts
        log.__dict__ = d
        return log
