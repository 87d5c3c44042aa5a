"""The builtins of the rule language, declared once: name, parameter and
result types, what the value reads, and a line of documentation.

This module is pure data at the language level (it imports nothing from the
kernel). Every builtin's *meaning* is a Python function registered under the
same name elsewhere: the kernel's in ``warcouncil.kernel.builtins``, a game
family's next to its system (``warcouncil.systems.cc.builtins``).

``KERNEL`` declares the game-independent builtins. A pack declares its game
family's with the ``builtin`` statement::

    builtin sections_of(cell) -> set[symbol] reads setting "the sections a cell belongs to"
    builtin hand_size -> int reads setting "the side's command: cards in hand"

and ``pack.vocabulary`` is ``KERNEL`` extended by those declarations. Lint,
the compiler and the move analysis read only a ``Vocabulary``.
"""

from __future__ import annotations

import re
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

from ..errors import Location, WarcouncilError
from ..records import record

# ------------------------------------------------------------------ types
#
# A type is a string: a base type, ``set[BASE]`` (any collection the
# language iterates, counts or tests with ``in``: sets, and the turn's
# sequences of moves), and a trailing ``?`` for "or none".

BASE_TYPES = frozenset({
    "any",     # anything (no static check)
    "bool",
    "int",
    "number",  # an int or a real (centimetres on a measured table)
    "symbol",  # a declared name: a section, a class, a terrain, a role ...
    "str",
    "piece",   # a unit or a leader (any role)
    "cell",    # anything with a place: a cell, a piece, a move record (its `to`)
    "move",    # a move record (piece, to, path, start, ...)
    "battle",  # a battle record (piece, target, ...)
    "context",  # the decision's fixed context record (C&C: the card played: name, effects, ...)
    "side",    # the side to move (name, edge, ...)
})
_TYPE = re.compile(r"^(?:set\[(?P<elem>[a-z_]+)\]|(?P<base>[a-z_]+))(?P<maybe>\?)?$")

# Older spellings a rule file may still write (rule files are users' data:
# extend, never break): a base type and a READS level were once named after
# the Commands & Colors card. Each is read as the name it stands for.
TYPE_ALIASES = {"card": "context"}
READS_ALIASES = {"card": "context"}


def canonical_type(t: str) -> str:
    """``t`` with an old base type spelling (``TYPE_ALIASES``) replaced:
    ``card`` -> ``context``, ``set[card]`` -> ``set[context]``, ``card?``
    -> ``context?``; anything else unchanged."""
    m = _TYPE.match(t)
    if m is None:
        return t
    base = m.group("elem") or m.group("base")
    new = TYPE_ALIASES.get(base)
    if new is None:
        return t
    return (f"set[{new}]" if m.group("elem") else new) + (m.group("maybe") or "")


def type_error(t: str) -> str | None:
    """Why ``t`` is not a type of the vocabulary (None: it is one; an old
    spelling of ``TYPE_ALIASES`` is one)."""
    m = _TYPE.match(t)
    if m is None:
        return f"{t!r} is not a type: write NAME, set[NAME] or NAME?"
    base = m.group("elem") or m.group("base")
    if base not in BASE_TYPES and base not in TYPE_ALIASES:
        return f"unknown type {base!r} (types: {', '.join(sorted(BASE_TYPES))})"
    return None


# ------------------------------------------------------------------ reads
#
# What a builtin's value depends on, from least to most. Each level also
# may read everything before it.

READS = (
    "pure",         # nothing of the scenario: constants and arithmetic
    "setting",      # the board and the pieces, seen from the side to move
    "context",      # the decision's fixed context (C&C: the card played and its roll)
    "alternative",  # the context's alternative being judged (C&C: a card's quotas, its orders)
    "decision",     # the decision itself (C&C: the order set)
    "moment",       # the position at a moment of the turn: the earlier moves
    "turn",         # the whole turn: every move and battle
)
_RANK = {r: i for i, r in enumerate(READS)}

# Finer read classes, written ``LEVEL.CLASS`` (``reads turn.history``): what
# of its level a builtin reads, for the caches of an answer (the kernel's
# ``kernel/reads.py`` derives each define's from the builtins its body calls).
# A builtin declared with a level alone reads something of unknown reach.
READ_CLASSES = {
    "setting.table": "the pieces' places on the table (measured)",
    "setting.fixed": "what never changes in one answer (a piece's own data)",
    "turn.table": "the table a log entry stands on, and after it",
    "turn.history": "the other entries of the log (which were made, in which order)",
    "turn.outcome": "a log entry's dice and result (its roll, its target, whether it moved)",
    "turn.fixed": "what never changes in one answer (the side to move; what an entry is)",
    "turn.fixed.kind": "what a log entry is: its kind (sub-phase)",
    "turn.fixed.by": "what a log entry is: who gives the order",
    "turn.fixed.units": "what a log entry is: the units it orders or moves",
    "turn.fixed.action": "what a log entry is: its action (charge, evade)",
    "turn.fixed.toward": "what a log entry is: the character a move flies toward",
}

# What a cell-local builtin reads of the cell it is given (see ``Builtin.cell``).
CELL_READS = ("occupants", "terrain", "board")


@record
class Builtin:
    """One builtin constant or function of the rule language."""

    name: str
    params: tuple[str, ...] | None  # parameter types; None: a constant (written without a call)
    returns: str
    reads: str  # one of READS (``LEVEL.CLASS`` as declared: its level; ``detail`` the rest)
    doc: str = ""
    # a cell-local function reads its one cell argument only through what
    # stands on it ("occupants"), its terrain ("terrain") or whether the
    # board has it ("board"); None: not cell-local
    cell: str | None = None
    origin: str = "kernel"  # "kernel", or the pack that declares it
    loc: Location | None = None  # where a pack declares it
    detail: str | None = None  # the finer read class after the level (READ_CLASSES), e.g. "history"

    def __post_init__(self):
        # old spellings (READS_ALIASES, TYPE_ALIASES) read as the names they stand for
        if self.reads in READS_ALIASES:
            object.__setattr__(self, "reads", READS_ALIASES[self.reads])
        if self.params is not None and any(canonical_type(t) != t for t in self.params):
            object.__setattr__(self, "params", tuple(canonical_type(t) for t in self.params))
        if canonical_type(self.returns) != self.returns:
            object.__setattr__(self, "returns", canonical_type(self.returns))
        problems = []
        if "." in self.reads:
            if self.reads not in READ_CLASSES:
                problems.append(f"unknown read class {self.reads!r} (one of {', '.join(READ_CLASSES)})")
            level, detail = self.reads.split(".", 1)
            object.__setattr__(self, "reads", level)
            object.__setattr__(self, "detail", detail)
        if self.reads not in _RANK:
            problems.append(f"unknown reads {self.reads!r} (one of {', '.join(READS)})")
        for t in (self.params or ()) + (self.returns,):
            why = type_error(t)
            if why:
                problems.append(why)
        if self.cell is not None and (self.cell not in CELL_READS or self.params is None or len(self.params) != 1):
            problems.append(f"cell-local builtin {self.name} must take one cell and read one of {CELL_READS}")
        if problems:
            raise WarcouncilError(f"builtin {self.name}: " + "; ".join(problems), self.loc)

    @property
    def arity(self) -> int | None:
        return None if self.params is None else len(self.params)

    @property
    def is_constant(self) -> bool:
        return self.params is None

    def signature(self) -> str:
        args = "" if self.params is None else "(" + ", ".join(self.params) + ")"
        return f"{self.name}{args} -> {self.returns}"


def _b(name, params, returns, reads, doc, cell=None) -> Builtin:
    return Builtin(name, None if params is None else tuple(params), returns, reads, doc, cell)


class Vocabulary(Mapping):
    """An immutable mapping name -> Builtin, with the views the analyses
    read (each a frozenset or a read-only mapping, made once)."""

    def __init__(self, builtins: Iterable[Builtin] = (), attributes: Mapping[str, str] | None = None):
        table: dict[str, Builtin] = {}
        for b in builtins:
            if b.name in table:
                raise WarcouncilError(f"builtin {b.name} is declared twice", b.loc)
            table[b.name] = b
        self._table = MappingProxyType(table)
        self.attributes: Mapping[str, str] = MappingProxyType(dict(attributes or {}))  # name -> type

    # The views, each made when first read (issue 15: a pack's vocabulary
    # is made again for each file of builtin declarations while the pack
    # loads, and most of those are never asked for a view).

    def _names(self, pred) -> frozenset:
        return frozenset(b.name for b in self._table.values() if pred(b))

    @cached_property
    def constants(self) -> frozenset:
        return self._names(lambda b: b.params is None)

    @cached_property
    def functions(self) -> Mapping[str, int]:
        return MappingProxyType({b.name: len(b.params) for b in self._table.values() if b.params is not None})

    @cached_property
    def pure(self) -> frozenset:
        return self._names(lambda b: b.reads == "pure")

    @cached_property
    def setting_static(self) -> frozenset:
        """Fixed by the scenario and the side to move alone: memoized per setting."""
        return self._names(lambda b: _RANK[b.reads] <= _RANK["setting"])

    @cached_property
    def context_static(self) -> frozenset:
        """... and by the decision's fixed context (C&C: the card played and
        its roll): memoized per grounding."""
        return self._names(lambda b: _RANK[b.reads] <= _RANK["context"])

    @cached_property
    def context(self) -> frozenset:
        return self._names(lambda b: b.reads == "context")

    @cached_property
    def dynamic(self) -> frozenset:
        """Depends on the decision: the order set, or the moves and battles."""
        return self._names(lambda b: _RANK[b.reads] >= _RANK["decision"])

    @cached_property
    def turn(self) -> frozenset:
        """Only meaningful for a turn (moves, battles)."""
        return self._names(lambda b: _RANK[b.reads] >= _RANK["moment"])

    @cached_property
    def moment(self) -> frozenset:
        return self._names(lambda b: b.reads == "moment")

    @cached_property
    def whole_turn(self) -> frozenset:
        return self._names(lambda b: b.reads == "turn")

    @cached_property
    def cell_local(self) -> frozenset:
        return self._names(lambda b: b.cell is not None)

    # Mapping
    def __getitem__(self, name: str) -> Builtin:
        return self._table[name]

    def __iter__(self):
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)

    def __repr__(self) -> str:
        return f"Vocabulary({len(self)} builtins)"

    def extend(self, builtins: Iterable[Builtin], attributes: Mapping[str, str] | None = None) -> "Vocabulary":
        """This vocabulary and more builtins (none may be declared already)."""
        more = list(builtins)
        for b in more:
            if b.name in self._table:
                old = self._table[b.name]
                raise WarcouncilError(f"builtin {b.name} is already declared by {old.origin}", b.loc)
        return Vocabulary(list(self._table.values()) + more, {**self.attributes, **(attributes or {})})

    def __or__(self, other: "Vocabulary") -> "Vocabulary":
        return self.extend(other.values(), other.attributes)


# ------------------------------------------------------------------ the kernel
#
# Game-independent: pieces and their places, the board's geometry, the
# decision's ordered pieces, the moves and battles of a turn, arithmetic.
# The kernel names no role: a pack declares its roles (`roles unit, leader`)
# and each role ROLE gets its pools (``role_builtins``).


def role_builtins(role: str) -> tuple[Builtin, ...]:
    """The pools of one role a pack declares (``roles ROLE``), named after
    it: ``ROLEs`` (the side's own), ``enemy_ROLEs``, ``all_ROLEs``,
    ``ROLE_at(cell)`` (at the start of the turn) and ``ROLE_on(cell)`` (at
    this moment of the turn). For ``roles unit, leader``: ``units``,
    ``leaders``, ``enemy_units``, ..., ``leader_on``."""
    many = role + "s"
    origin = f"roles {role}"
    return (
        Builtin(many, None, "set[piece]", "setting", f"the side's own {many}", origin=origin),
        Builtin("enemy_" + many, None, "set[piece]", "setting", f"the other side's {many}", origin=origin),
        Builtin("all_" + many, None, "set[piece]", "setting", f"every {role} on the board", origin=origin),
        Builtin(role + "_at", ("cell",), "piece?", "setting",
                f"the {role} on a cell at the start of the turn, or none", origin=origin),
        Builtin(role + "_on", ("cell",), "piece?", "moment",
                f"the {role} on a cell at this moment of the turn, or none", cell="occupants", origin=origin),
    )


# The attributes every game's records have, by type. A game family's own
# (C&C's `blocks`, a card's `helmet` ...) are its pack's typed `fields`
# (`fields helmet: bool`), added to ``pack.vocabulary.attributes``.
KERNEL_ATTRIBUTES = {
    # pieces
    "id": "str", "side": "str", "at": "cell", "role": "symbol", "type": "symbol",
    # the decision's context (C&C: the card played)
    "name": "str",
    # the side to move
    "edge": "symbol", "command": "int",
    # move and battle records
    "piece": "piece", "to": "cell", "path": "set[cell]", "target": "piece?", "start": "cell",
    "through": "set[cell]", "length": "int", "index": "int", "phase": "int?",
}

KERNEL = Vocabulary((
    # arithmetic and collections
    _b("count", ["set[any]"], "int", "pure", "the number of elements of a collection"),
    _b("turn_step", ["symbol"], "int", "pure",
       "the place (1, 2, ...) of the step so named in the pack's turn, 0 for none: a rule judging the turn's "
       "order reads it, so that a house rule's `replace turn` changes the game and the rule alike"),
    _b("min", ["number?", "number?"], "number?", "pure", "the smaller of two values (none is ignored)"),
    _b("max", ["number?", "number?"], "number?", "pure", "the larger of two values (none is ignored)"),
    _b("abs", ["number"], "number", "pure", "the absolute value"),
    # the setting: pieces, sides and the board
    _b("pieces", None, "set[piece]", "setting", "the side's own pieces"),
    _b("side", None, "side", "setting", "the side to move (name, edge, command)"),
    _b("adjacent", ["cell", "cell"], "bool", "setting", "are two cells neighbours (hex or square board)"),
    _b("distance", ["cell", "cell"], "number?", "setting",
       "cells between two places (hexes; Manhattan on squares; centimetres on a table)"),
    _b("line", ["cell", "cell"], "set[cell]", "setting", "the cells a straight line between two hexes crosses"),
    _b("terrain_at", ["cell"], "symbol?", "setting", "the terrain of a cell, or none", cell="terrain"),
    _b("on_board", ["cell"], "bool", "setting", "is the cell on the board", cell="board"),
    # the decision
    _b("ordered", None, "set[piece]", "decision", "the pieces the decision orders"),
    _b("orders", ["piece"], "int", "decision", "how many orders a piece received"),
    # a moment of the turn
    _b("earlier", None, "set[move]", "moment", "the moves made before this moment"),
    _b("moved_before", ["piece"], "bool", "moment", "has the piece moved before this moment"),
    _b("position", ["piece"], "cell?", "moment", "where a piece stands at this moment"),
    # the whole turn
    _b("moves", None, "set[move]", "turn", "the turn's moves, in order"),
    _b("battles", None, "set[battle]", "turn", "the turn's battles, in order"),
    _b("moved", ["piece"], "bool", "turn", "has the piece moved this turn"),
    _b("final", ["piece"], "cell?", "turn", "a piece's last destination this turn, else its cell"),
    _b("last_move", ["piece"], "move?", "turn", "a piece's last move this turn, or none"),
    _b("moved_length", ["piece"], "int", "turn", "the cells a piece moved this turn, all moves together"),
    _b("battles_of", ["piece"], "set[battle]", "turn", "the battles a piece fought this turn"),
), KERNEL_ATTRIBUTES)
