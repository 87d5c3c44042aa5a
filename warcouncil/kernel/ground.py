"""What rules are evaluated on: the pieces and board of a scenario.

``PieceView`` a piece as the rule language sees it.
``Record``    a small read-only record (a side, a move, a battle) for rules.
``Setting``   the board and the pieces, seen from the side to move.
``Ctx``       what one evaluation sees: a decision (``g``: a game system's
              grounding of it, with its ``setting``, ``compiler`` and
              ``memo``), one of its alternatives, the pieces chosen (and, for
              a whole turn, the moves and battles).
"""

from __future__ import annotations

import re

from typing import Any, Callable, Iterable

from ..dsl.pack import Pack
from ..errors import WarcouncilError
from .caches import SettingCaches
from .graph import connected

class PieceView:
    """A piece as the rule language sees it (identity-hashed)."""

    __slots__ = ("id", "side", "role", "type", "at", "rank", "attrs", "piece", "slot")
    memoizable = True  # (a define's memo may key on it; read with getattr)
    _FIELDS = frozenset(("id", "side", "role", "type", "at", "rank"))

    def __init__(self, piece, role: str, attrs: dict, rank: int, slot: int = 0):
        self.piece = piece
        self.slot = slot  # the index of its role (``Setting.slot``)
        self.id = piece.id
        self.side = piece.side
        self.role = role
        self.type = piece.type
        self.at = tuple(piece.at)
        self.rank = rank
        self.attrs = attrs

    def get_attr(self, name):
        if name in self._FIELDS:
            return getattr(self, name)
        return self.attrs.get(name)

    def __repr__(self) -> str:
        return self.id

    def __lt__(self, other):
        return self.rank < other.rank


class Record:
    """A small read-only record (card, side, move, battle) for rules."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def get_attr(self, name):
        return self.__dict__.get(name)

    def __repr__(self):
        return f"Record({self.__dict__})"


class Setting:
    """The pieces and board of a scenario from the point of view of one side."""

    def __init__(self, pack: Pack, scenario, side: str | None = None, hand_size: int | None = None,
                 system=None):
        self.pack = pack  # (scenario: a scenario.Scenario)
        self.system = system  # the game system (kernel/system.py), for what it adds to pieces
        self.scenario = scenario
        self.board = scenario.board
        self.side = side or scenario.to_move
        if self.side not in scenario.sides:
            raise WarcouncilError(f"unknown side {self.side!r}", hint="sides: " + ", ".join(scenario.sides))
        side_obj = scenario.sides[self.side]
        self.edge = side_obj.edge
        self.hand_size = hand_size if hand_size is not None else side_obj.command
        self.side_view = Record(name=self.side, edge=self.edge, command=self.hand_size)
        # the roles of the scenario's pieces (those it has), in the order of
        # its piece lists: own pieces role by role, then the other side's,
        # each by id
        self.roles: tuple[str, ...] = tuple(r for r, ps in scenario.pieces.items() if ps)
        #: role -> its index in a position's occupants (``state.Positions.on``)
        self.slot: dict[str, int] = {r: i for i, r in enumerate(self.roles)}
        views: list[PieceView] = []
        # ids in natural order (s2 before s10): ranks order every set and listing
        rank = 0
        for own in (True, False):
            for role in self.roles:
                for p in sorted((p for p in scenario.pieces[role] if (p.side == self.side) is own),
                                key=natural_key):
                    views.append(PieceView(p, role, self._attrs(p, role), rank, self.slot[role]))
                    rank += 1
        self.views = views
        self.by_id = {v.id: v for v in views}
        #: the pools by role: the side's own, the other side's, all
        self.own_of: dict[str, frozenset] = {
            r: frozenset(v for v in views if v.side == self.side and v.role == r) for r in self.roles}
        self.enemy_of: dict[str, frozenset] = {
            r: frozenset(v for v in views if v.side != self.side and v.role == r) for r in self.roles}
        self.all_of: dict[str, frozenset] = {r: self.own_of[r] | self.enemy_of[r] for r in self.roles}
        #: role -> cell -> the piece of that role there at the start
        self.at_of: dict[str, dict] = {r: {v.at: v for v in self.all_of[r]} for r in self.roles}
        self.own_pieces = frozenset(v for v in views if v.side == self.side)
        # ordered item list: own pieces role by role, each by id
        self.items: tuple[PieceView, ...] = tuple(sorted(self.own_pieces, key=lambda v: v.rank))
        # own pieces come first in rank order, so items[i].rank == i and a
        # set of own pieces is also a bit mask (bit i: items[i])
        self.own_mask = (1 << len(self.items)) - 1
        #: the masks of the pools a decision draws on: each piece list's own
        #: pieces by the list's key, and ``pieces``
        self.pool_masks = {key: self.mask_of(self.own_of.get(role, ())) for key, role in scenario.lists.items()}
        self.pool_masks["pieces"] = self.own_mask
        self._adj_masks: list[int] | None = None
        self._mask_tables: list[list[tuple]] | None = None  # see pieces_of
        self._key_reader: Callable | None = None  # see key_reader
        self._key_bits: list[int] | None = None  # see key_bits
        self._sections: dict = {}
        self.memo: dict = {}  # setting-static define calls (see Compiler.static_defines)
        self.caches = SettingCaches()  # the named facts of the setting (caches.py)
        self.terrain = {tuple(t.at): t.type for t in scenario.terrain}

    def _attrs(self, piece, role: str) -> dict:
        """A piece's attributes as the rules read them: its unit type's
        (``unit NAME { ... }``), then whatever the game system adds from the
        scenario (``System.piece_attributes``)."""
        attrs: dict[str, Any] = {}
        if piece.type is not None:
            decl = self.pack.units.get(piece.type)
            if decl is None:
                from ..errors import closest

                hint = closest(piece.type or "", self.pack.units)
                raise WarcouncilError(
                    f"unknown unit type {piece.type!r} for {self.pack.title or self.pack.name}",
                    getattr(piece, "where", None),
                    hint=f"did you mean {hint[0]!r}?" if hint else None,
                )
            attrs.update(decl.attrs)
        if self.system is not None:
            self.system.piece_attributes(piece, role, attrs)
        return attrs

    def mask_of(self, pieces) -> int:
        """The bit mask of a collection of own pieces (others are ignored)."""
        m = 0
        n = len(self.items)
        for p in pieces:
            r = p.rank
            if r < n:
                m |= 1 << r
        return m

    def pieces_of(self, mask: int) -> tuple[PieceView, ...]:
        """The own pieces of a bit mask, in rank order: a table look-up per
        byte of the mask."""
        tables = self._mask_tables
        if tables is None:
            tables = self._mask_tables = self._byte_tables(False)
        out: tuple = ()
        for t in tables:
            out += t[mask & 255]
            mask >>= 8
            if not mask:
                break
        return out

    @property
    def key_bits(self) -> list[int]:
        """The order key of each own piece (by rank): its bit in a mask whose
        bits run the other way, the first piece highest. Among sets of one
        size, the greater key is the set first in piece order (the first
        piece where two sets differ is the highest bit where their keys do),
        so sorting keys in descending order sorts sets."""
        bits = self._key_bits
        if bits is None:
            top = 8 * self._nbytes() - 1
            bits = self._key_bits = [1 << (top - r) for r in range(len(self.items))]
        return bits

    def key_reader(self) -> Callable[[int], tuple[PieceView, ...]]:
        """A function: order key (see ``key_bits``) -> its own pieces, in
        rank order. One table look-up per byte of the key, written out for
        keys of up to three bytes (up to 24 own pieces); made once per side."""
        read = self._key_reader
        if read is None:
            tables = self._byte_tables(True)
            if len(tables) == 1:
                (t0,) = tables
                read = t0.__getitem__
            elif len(tables) == 2:
                t0, t1 = tables
                read = lambda key: t0[key >> 8] + t1[key & 255]  # noqa: E731
            elif len(tables) == 3:
                t0, t1, t2 = tables
                read = lambda key: t0[key >> 16] + t1[key >> 8 & 255] + t2[key & 255]  # noqa: E731
            else:
                shifts = [8 * j for j in reversed(range(len(tables)))]

                def read(key):
                    out: tuple = ()
                    for t, shift in zip(tables, shifts):
                        out += t[key >> shift & 255]
                    return out
            self._key_reader = read
        return read

    def _nbytes(self) -> int:
        return (len(self.items) + 7) // 8

    def _byte_tables(self, key: bool) -> list[list[tuple]]:
        """For pieces 8j to 8j+7 (the j-th byte of a mask, or with ``key``
        of an order key, counting from the top) and each of the byte's 256
        values: the pieces it stands for (made once per side)."""
        items = self.items
        tables = []
        for j in range(self._nbytes()):
            chunk = items[8 * j:8 * j + 8]
            tables.append([tuple(p for i, p in enumerate(chunk) if x >> (7 - i if key else i) & 1)
                           for x in range(256)])
        return tables

    def adj_masks(self) -> list[int]:
        """For each own piece (by rank): the own pieces in its hex or next
        to it, as a mask (precomputed once per side, like the neighbours)."""
        adj = self._adj_masks
        if adj is None:
            by_cell: dict = {}
            for v in self.items:
                by_cell[v.at] = by_cell.get(v.at, 0) | 1 << v.rank
            nb = self.board.neighbours
            adj = []
            for v in self.items:
                m = by_cell[v.at] & ~(1 << v.rank)
                for c in nb.get(v.at, ()):
                    m |= by_cell.get(c, 0)
                adj.append(m)
            self._adj_masks = adj
        return adj

    def cell_of(self, x):
        if isinstance(x, PieceView):
            return x.at
        if isinstance(x, Record):
            return x.get_attr("to")
        if x is None or isinstance(x, tuple):
            return x
        if isinstance(x, (str, frozenset, set)) or not hasattr(x, "__iter__"):
            # a rule gave a number, a name or a set where a place is read (a
            # define's parameters are not typed, so lint cannot always see it)
            raise WarcouncilError(f"a rule reads the place of {_shown(x)}, which has none: "
                                  "give it a piece, a cell or a move")
        return tuple(x)

    def sections_of(self, x) -> frozenset:
        cell = self.cell_of(x)
        s = self._sections.get(cell)
        if s is None:
            s = self._sections[cell] = frozenset(self.board.sections_of(cell, self.edge))
        return s

    def adjacent(self, a, b) -> bool:
        ca, cb = self.cell_of(a), self.cell_of(b)
        if ca is None or cb is None:
            return False
        if self.board.grid == "table":
            raise WarcouncilError("adjacent() needs a hex or square board; on a measured table use distance()")
        return self.board.adjacent(ca, cb)

    def connected(self, pieces: Iterable[PieceView]) -> bool:
        """Are the pieces' hexes one group of adjacent (or shared) hexes?"""
        return connected({p.at for p in pieces}, self.board.neighbours)


def natural_id(ident: str) -> tuple:
    """An id as a natural sort key: digits compare as numbers (s2 < s10),
    the rest as text; the id itself breaks ties (s02, s2)."""
    parts = re.split(r"(\d+)", ident)
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in parts if p), ident


def natural_key(piece) -> tuple:
    """A piece by its id in natural order (``natural_id``)."""
    return natural_id(piece.id)


class Ctx:
    """What a rule sees when it is evaluated."""

    __slots__ = ("g", "alt", "ordered", "orders", "turn", "state", "earlier")

    def __init__(self, g, alt=None, ordered=frozenset(), orders=None, turn=None,
                 state=None, earlier=()):
        self.g = g
        self.alt = alt
        self.ordered = ordered
        self.orders = orders
        self.turn = turn
        self.state = state  # Positions at this moment of the turn (None: the start)
        self.earlier = earlier  # the moves made before this moment

    def builtin(self, name: str):
        """The value of a builtin constant (its meaning, from the compiler's registry)."""
        try:
            fn = self.g.compiler.meanings.constants[name]
        except KeyError:
            raise WarcouncilError(f"unknown builtin {name!r}") from None
        return fn(self, self.g.setting)

    def call(self, name: str, args: tuple):
        """The value of a builtin function (its meaning, from the compiler's registry)."""
        try:
            fn = self.g.compiler.meanings.functions[name]
        except KeyError:
            raise WarcouncilError(f"unknown function {name!r}") from None
        return fn(self, self.g.setting, args)


# The meanings of the builtins are in builtins.py (the kernel's) and
# systems/cc/builtins.py (the C&C family's); their declarations in dsl/builtins.py
# and the packs' `builtin` statements.


def _shown(x) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:39] + "…"
