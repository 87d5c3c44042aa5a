"""What the kernel keeps across queries, named in one place.

Across queries nothing kept holds a query's answer: only facts fixed by the pack
(``PackCaches``, one per ``Compiler``: a plan has one compiler) or by the
pack, the board and the side (``SettingCaches``, one per ``Setting``).
Within one answer, an engine keeps its judgements in an ``AnswerCaches``,
dropped when the answer is given; a walk over the answer's branches drops
sooner what no branch still to walk can read (``mark``, ``forget``).
Each field says who fills it and what its key is; a module reads and
writes only its own fields.

Still in the shared dicts (``Setting.memo``, ``Grounding.memo`` (systems/cc/grounding.py),
``Compiler.pack_memo``), keyed by tuples: the values of definitions called
with fixed arguments (``evaluate``), the conditions known before a move
(``decompose.before_move``: per pack, setting or grounding as they read),
and, because the tests read them there, the move profiles
(``("move-profile", card key, piece, start, phase, index, at start)``) and
the enumerators' alternatives (``("alt-plan", card key, id(alt))``) in
``Setting.memo``, and the residual conditions (``("residual", expr,
var)``): in ``pack_memo`` when made of the pack's expressions and plain
values, in ``Setting.memo`` when they hold a setting's objects (a piece:
``c8 in ordered``), with their closures (``SettingCaches.compiled``), so
that a long run of settings on one pack (a batch) leaves the pack's memos
as they were.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True, eq=False)
class SettingCaches:
    """Facts of one setting (pack, scenario, side), kept across queries."""

    # state.Positions.initial: where the pieces stand before the turn
    positions: Any = None
    # cells: the hexes with terrain (special hexes of a CleanCells)
    terrain_cells: frozenset | None = None
    # profile.Prep: (id(part), piece, start, phase) -> the hexes a static part allows (a mask)
    static_cells: dict = field(default_factory=dict)
    # cells.end_flags: (tag, card key) -> flag_of(piece), for clean end conditions
    end_flags: dict = field(default_factory=dict)
    # systems.cc.grounding.Grounding._ground_alt: (id(alternative), index) -> a GroundAlt that reads only the board
    ground_alts: dict = field(default_factory=dict)
    # systems.cc.grounding.Grounding._filter: (id(condition), pool) -> (pieces, mask) a board-only quota condition admits
    admitted: dict = field(default_factory=dict)
    # systems.cc.grounding.Grounding._anchors: id(anchor) -> (hexes, mask) of the leaders who may command a led group
    anchors: dict = field(default_factory=dict)
    # enumerate: id(RuleSummary) -> the pieces a static charged() leaves free (a mask)
    free: dict = field(default_factory=dict)
    # enumerate._table: (kind, rule id) -> the own pieces passing a unary rule (a mask)
    unary: dict = field(default_factory=dict)
    # partial._value: id(value) -> (value, its one A.Value node), for a value that is not plain
    values: dict = field(default_factory=dict)
    # partial.residual_cond: the setting's residual closures that read neither the move nor the moment
    light_residuals: set = field(default_factory=set)
    # partial._compile_apart: what Compiler.compile and Compiler.board_static keep of the nodes of
    # the setting's residual conditions (id(node) -> (node, closure); (id(node), bound) -> (node, bool))
    compiled: dict = field(default_factory=dict)
    board_static: dict = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class PackCaches:
    """Facts of one pack (one ``Compiler``, one ``Plan``), kept across settings."""

    # decompose.move_rules: the plan's per-move rules, decomposed
    move_rules: list | None = None
    # enumerate.summary: skipped rule ids -> RuleSummary
    rule_summaries: dict = field(default_factory=dict)
    # decompose: the piece's and the move's attributes any pack-fact condition reads
    fact_reads: tuple = field(default_factory=lambda: (set(), set()))
    # decompose._fact_key: ((sizes of fact_reads), piece names, move names), sorted
    fact_names: tuple | None = None
    # partial._value: (type, value) -> the one A.Value node of a plain value (bool, int, str, None)
    values: dict = field(default_factory=dict)
    # partial.residual_cond: the pack's residual closures that read neither the move nor the moment
    light_residuals: set = field(default_factory=set)
    # profile.intern_search: (depth, part ids by kind) -> Search
    searches: dict = field(default_factory=dict)
    # profile.PartGroup.key: (parts, attributes read, card) -> a small int
    clean_keys: dict = field(default_factory=dict)


@dataclass(slots=True, eq=False)
class AnswerCaches:
    """What one answer keeps between its judgements, and nothing longer: an
    engine makes one when an answer (or a node of the game interface)
    begins and drops it after (Warmaster's engine; none is process-wide).
    A judgement is kept by what it reads (``kernel/reads.py``: the read
    classes its pack declares) — the same key, the same value — so that the
    branches of a plan agreeing on that share it. The fields, each with its
    key:"""

    # the tables of the answer: the poses that are not the start's -> the one Table of that set of poses
    tables: dict = field(default_factory=dict)
    # (piece id, pose) -> its footprint; (id(footprint), id(footprint)) -> their distance, unrounded
    footprints: dict = field(default_factory=dict)
    distances: dict = field(default_factory=dict)
    # (id(footprint), id(footprint)) -> do they overlap; -> the terrain a move between them sweeps
    overlaps: dict = field(default_factory=dict)
    swept: dict = field(default_factory=dict)
    # the compiler's memo of the defines that read the table only through their
    # arguments (``ctx.g.setting.memo``): (define, arguments) -> value
    defines: dict = field(default_factory=dict)
    # (rule id or group, side, what its reads key the entry and history by) -> does it hold
    verdicts: dict = field(default_factory=dict)
    # (define(s), side, what they read of their arguments and the history) -> value
    # (a target, the dice of an attempt)
    values: dict = field(default_factory=dict)
    # a judgement kept by the places it read (``by_places``): key ->
    # [(table, places read, contacts asked, value)]; (key, table) -> (places, contacts, value)
    placed: dict = field(default_factory=dict)
    # (side, character, units) -> what every attempt of that order is
    orders: dict = field(default_factory=dict)
    # an entry's kind -> the rule groups that may judge it, in the order asked (``LogRules.breaks``:
    # the group that last broke first)
    groups: dict = field(default_factory=dict)
    # (reads, number of the history before, an entry's key) -> the number of the history after
    # (numbered by their count, never dropped by ``forget``: a number given twice would make two histories one)
    histories: dict = field(default_factory=dict)
    # while a judgement is kept by the places it reads: a stack, the top the pieces
    # whose places it read (``reading``) and the contacts it asked (``touches``)
    reading: list = field(default_factory=list)
    touches: list = field(default_factory=list)

    def close(self) -> None:
        """The answer is given: empty every field, and each table's own
        (``close()``: its pieces, which refer to it), so that what the
        answer made is freed by its counts now rather than by the collector
        walking it during the next answer."""
        for t in self.tables.values():
            t.close()
        for name in self.__slots__:
            getattr(self, name).clear()

    def recorded(self, work: Callable[[], Any]) -> tuple:
        """``work()``'s value, and what it read of the tables of this answer
        (``reading``: the pieces whose places it read; ``touches``: the
        contacts it asked, ``(x, y, touching)``), which a recording around
        this one reads too. The family's pieces and contact builtins add to
        the top of the stacks while they are not empty."""
        reading, touches = self.reading, self.touches
        reading.append(set())
        touches.append([])
        try:
            v = work()
        finally:
            got, met = reading.pop(), touches.pop()
            if reading:  # (an outer recording reads them too)
                reading[-1] |= got
                touches[-1].extend(met)
        return v, got, met

    def by_places(self, key: Any, cur: Any, work: Callable[[], Any], contact: Callable[[Any, Any], bool]) -> Any:
        """``work()``'s value, kept under ``key`` with what it read of the
        table ``cur`` (``recorded`` by ``cur.cache``): the places of the
        pieces it read, and which pairs of pieces touch where it only asked
        that; given again on a table where those pieces stand in those places
        and those pairs touch or not alike (``contact(x, y)``, unrecorded).
        A table gives ``poses`` (piece id -> its place) and ``at(id)`` (the
        piece as it stands there: ``id``, ``table``). A value that read a
        piece of another table is not kept. What is read here is read by any
        judgement recording around this one, too."""
        shared = self.placed
        reading = cur.cache.reading  # (where the pieces of ``cur`` record their reading)
        here = shared.get((key, cur))  # (asked on this table before)
        if here is not None:
            places, touches, v = here
            if reading:  # (an outer recording reads them too)
                _reread(cur, places, touches)
            return v
        cands = shared.get(key)
        if cands is None:
            cands = shared[key] = []
        poses = cur.poses
        at = cur.at
        for table, places, touches, v in cands:
            if table is not cur:
                for pid, pose in places:
                    now = poses[pid]
                    if now is not pose and now != pose:
                        break
                else:
                    for x, px, y, py, t in touches:
                        nx, ny = poses[x], poses[y]
                        if (nx is px or nx == px) and (ny is py or ny == py):
                            continue  # (neither moved: the same contact)
                        if contact(at(x), at(y)) is not t:
                            break
                    else:
                        table = cur
            if table is cur:
                if reading:  # (an outer recording reads them too)
                    _reread(cur, places, touches)
                shared[(key, cur)] = (places, touches, v)
                return v
        v, got, met = cur.cache.recorded(work)
        if all(a.table is cur for a in got) and all(x.table is cur and y.table is cur for x, y, _ in met):
            places = tuple((a.id, poses[a.id]) for a in got)
            touches = tuple(dict.fromkeys((x.id, poses[x.id], y.id, poses[y.id], t) for x, y, t in met))
            cands.append((cur, places, touches, v))
            shared[(key, cur)] = (places, touches, v)
        return v

    def mark(self) -> tuple[int, ...]:
        """How much each field holds now: what ``forget`` goes back to."""
        return tuple(len(getattr(self, name)) for name in _KEPT)

    def since(self, mark: tuple[int, ...], name: str) -> list:
        """The values field ``name`` was given since ``mark``, newest first."""
        d = getattr(self, name)
        return list(itertools.islice(reversed(d.values()), len(d) - mark[_KEPT.index(name)]))

    def forget(self, mark: tuple[int, ...], dead: Callable[[Any], bool]) -> int:
        """Drop what was kept since ``mark`` that can never be read again:
        every entry whose value ``dead`` says is dead, or whose key holds
        a dead object (``dead`` asked of each part of the key, inside its
        tuples, last part first, and frozensets); a dropped table is closed. The rest
        stays, in the order it was kept. A walk over the branches of an
        answer calls it when it leaves branches whose objects (a table, its
        pieces) no later branch meets: what it keeps is then bounded by the
        branches it stands in, not by those it walked. Returns how many
        entries were dropped."""
        dropped = 0
        for name, n in zip(_KEPT, mark):
            d = getattr(self, name)
            if len(d) <= n:
                continue
            newer = []
            while len(d) > n:
                newer.append(d.popitem())
            for k, v in reversed(newer):
                if dead(v) or _holds(k, dead):
                    dropped += 1
                    if name == "tables":
                        v.close()
                else:
                    d[k] = v
        return dropped


def _reread(cur: Any, places: tuple, touches: tuple) -> None:
    """A kept judgement's reading, recorded for the judgement around it."""
    at = cur.at
    cur.cache.reading[-1].update(at(pid) for pid, _ in places)
    cur.cache.touches[-1].extend((at(x), at(y), t) for x, _, y, _, t in touches)


#: the fields ``forget`` looks through: those keyed by what a judgement read
_KEPT = ("tables", "defines", "verdicts", "values", "placed", "orders")


def _holds(key: Any, dead: Callable[[Any], bool]) -> bool:
    """Does ``key`` hold an object ``dead`` says is dead (inside its tuples
    and frozensets)? A tuple is looked through from its end, where a key
    made of what a judgement read holds the table it read."""
    t = type(key)
    if t is tuple or t is frozenset:
        for x in (reversed(key) if t is tuple else key):
            if _holds(x, dead):
                return True
        return False
    return dead(key)
