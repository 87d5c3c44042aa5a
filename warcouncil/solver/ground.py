"""Grounding: a pack's rules and a card, made concrete on one scenario.

``Setting``   the board and the pieces, seen from the side to move.
``Grounding`` a Setting plus the card played (resolved: copied, mirrored,
              with its roll), its alternatives grounded into quotas with
              the exact pieces each admits, and the pack's rules classified
              by the planner (see ``plan.py``).
``Ctx``       what one evaluation sees: a Grounding, one alternative, the
              order set (and, for a whole turn, the moves and battles).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

from ..dsl import ast as A
from ..dsl.pack import Pack
from ..errors import WarcouncilError
from .caches import SettingCaches
from .graph import connected, hall_excess, hall_table
from .scenario import Scenario

INF = None  # an unbounded quota


class PieceView:
    """A unit or leader as the rule language sees it (identity-hashed)."""

    __slots__ = ("id", "side", "role", "type", "at", "rank", "attrs", "piece")

    def __init__(self, piece, role: str, attrs: dict, rank: int):
        self.piece = piece
        self.id = piece.id
        self.side = piece.side
        self.role = role
        self.type = piece.type
        self.at = tuple(piece.at)
        self.rank = rank
        self.attrs = attrs

    def get_attr(self, name):
        if name in ("id", "side", "role", "type", "at", "rank"):
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

    def __init__(self, pack: Pack, scenario: Scenario, side: str | None = None, hand_size: int | None = None,
                 system=None):
        self.pack = pack
        self.system = system  # the game system (solver/system.py), for what it adds to pieces
        self.scenario = scenario
        self.board = scenario.board
        self.side = side or scenario.to_move
        if self.side not in scenario.sides:
            raise WarcouncilError(f"unknown side {self.side!r}", hint="sides: " + ", ".join(scenario.sides))
        side_obj = scenario.sides[self.side]
        self.edge = side_obj.edge
        self.hand_size = hand_size if hand_size is not None else side_obj.command
        self.side_view = Record(name=self.side, edge=self.edge, command=self.hand_size)
        views: list[PieceView] = []
        own_units = sorted((u for u in scenario.units if u.side == self.side), key=lambda p: p.id)
        own_leaders = sorted((l for l in scenario.leaders if l.side == self.side), key=lambda p: p.id)
        others_u = sorted((u for u in scenario.units if u.side != self.side), key=lambda p: p.id)
        others_l = sorted((l for l in scenario.leaders if l.side != self.side), key=lambda p: p.id)
        rank = 0
        for group in (own_units, own_leaders, others_u, others_l):
            for p in group:  # the role its scenario list gives it (scenario.ROLE_OF_LIST)
                views.append(PieceView(p, p.kind, self._attrs(p, p.kind), rank))
                rank += 1
        self.views = views
        self.by_id = {v.id: v for v in views}
        self.own_units = frozenset(v for v in views if v.side == self.side and v.role == "unit")
        self.own_leaders = frozenset(v for v in views if v.side == self.side and v.role == "leader")
        self.own_pieces = self.own_units | self.own_leaders
        self.enemy_units = frozenset(v for v in views if v.side != self.side and v.role == "unit")
        self.enemy_leaders = frozenset(v for v in views if v.side != self.side and v.role == "leader")
        self.all_units = self.own_units | self.enemy_units
        self.all_leaders = self.own_leaders | self.enemy_leaders
        # ordered item list: own units then own leaders, each by id
        self.items: tuple[PieceView, ...] = tuple(sorted(self.own_pieces, key=lambda v: v.rank))
        # own pieces come first in rank order, so items[i].rank == i and a
        # set of own pieces is also a bit mask (bit i: items[i])
        self.own_mask = (1 << len(self.items)) - 1
        self.unit_mask = sum(1 << v.rank for v in self.own_units)
        self.leader_mask = self.own_mask & ~self.unit_mask
        self.pool_masks = {"units": self.unit_mask, "leaders": self.leader_mask, "pieces": self.own_mask}
        self._adj_masks: list[int] | None = None
        self._mask_tables: list[list[tuple]] | None = None  # see pieces_of
        self._key_reader: Callable | None = None  # see key_reader
        self._key_bits: list[int] | None = None  # see key_bits
        self.unit_at = {v.at: v for v in self.all_units}
        self.leader_at = {v.at: v for v in self.all_leaders}
        self._sections: dict = {}
        self.memo: dict = {}  # setting-static define calls (see Compiler.static_defines)
        self.caches = SettingCaches()  # the named facts of the setting (caches.py)
        self.terrain = {tuple(t.at): t.type for t in scenario.terrain}

    def _attrs(self, piece, role: str) -> dict:
        """A piece's attributes as the rules read them: its unit type's
        (``unit NAME { ... }``), then whatever the game system adds from the
        scenario (``System.piece_attributes``)."""
        attrs: dict[str, Any] = {}
        if role == "unit":
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
        return tuple(x) if x is not None else None

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


class GroundQuota:
    """One quota of a grounded alternative: its cap and the pieces it admits."""

    __slots__ = ("cap", "all", "what", "admitted", "loc", "mask")

    def __init__(self, cap: int | None, all: bool, what: str, admitted: frozenset, loc: Any = None, mask: int = 0):
        self.cap = cap  # None: unbounded
        self.all = all
        self.what = what
        self.admitted = admitted
        self.loc = loc
        self.mask = mask  # `admitted` as a mask over the setting's own pieces

    def __repr__(self) -> str:
        return f"GroundQuota(cap={self.cap}, all={self.all}, what={self.what!r}, admitted={sorted(self.admitted)})"


class GroundAlt:
    """One alternative of the played card, grounded on a setting."""

    __slots__ = ("setting", "index", "decl", "quotas", "group", "anchor_cells", "capacity", "admitted_mask",
                 "anchor_mask", "_admitted", "shared", "_hall")

    def __init__(self, setting: Setting, index: int, decl: A.Alternative, quotas: list[GroundQuota],
                 group: str | None, capacity: int | None, admitted_mask: int,
                 anchor_cells: frozenset = frozenset(), anchor_mask: int = 0):
        self.setting = setting
        self.index = index
        self.decl = decl
        self.quotas = quotas
        self.group = group  # None | linked | led
        self.anchor_cells = anchor_cells  # for led: the commanding leaders' hexes
        self.capacity = capacity
        self.admitted_mask = admitted_mask  # `admitted` as a mask over the setting's own pieces
        self.anchor_mask = anchor_mask  # the own pieces on the anchor cells
        self._admitted: frozenset | None = None
        self._hall: tuple | None = None  # see hall
        self.shared = False  # grounded once per side (``Grounding._ground_alt``)

    @property
    def admitted(self) -> frozenset:
        """The pieces some quota admits, and those on a commanding leader's
        hex (built on demand: the enumerator works on ``admitted_mask``)."""
        a = self._admitted
        if a is None:
            quotas = self.quotas
            if len(quotas) == 1 and quotas[0].mask == self.admitted_mask:
                a = quotas[0].admitted
            else:
                a = frozenset(self.setting.pieces_of(self.admitted_mask))
            self._admitted = a
        return a

    @property
    def hall(self) -> tuple:
        """The conditions of Hall's theorem over the quotas (``graph.hall_table``), made once."""
        h = self._hall
        if h is None:
            quotas = self.quotas
            h = self._hall = hall_table([q.mask for q in quotas], [q.cap for q in quotas], self.admitted_mask)
        return h

    def assign_problem(self, pieces) -> list:
        """Pieces (admitted by some quota) that cannot all be charged to the
        quotas without overspending one: [] if they can. Hall's theorem over
        the (few) quotas (``graph.hall_excess``)."""
        s = self.setting
        bad = hall_excess(self.hall, self.admitted_mask, s.mask_of(pieces))
        if not bad:
            return []
        n = len(s.items)
        return [p for p in pieces if p.rank < n and bad >> p.rank & 1]


class Ctx:
    """What a rule sees when it is evaluated."""

    __slots__ = ("g", "alt", "ordered", "orders", "turn", "state", "earlier")

    def __init__(self, g: "Grounding", alt: GroundAlt | None, ordered=frozenset(), orders=None, turn=None,
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

_POOLS = {
    "units": lambda s: s.own_units,
    "leaders": lambda s: s.own_leaders,
    "pieces": lambda s: s.own_pieces,
}


class Grounding:
    """A pack + scenario + side + card, ready to enumerate or check."""

    def __init__(
        self,
        pack: Pack,
        compiler,
        setting: Setting,
        card: A.CardDecl,
        *,
        played_as: str | None = None,
        roll: dict | None = None,
        ground_alternatives: bool = True,
    ):
        self.pack = pack
        self.compiler = compiler
        self.setting = setting
        self.card = card
        self.roll = roll
        self.enumerator = None  # built on demand by Engine.enumerator
        self.memo: dict = {}  # card-level define calls (see Compiler.card_static_defines)
        self.played = played_as or card.name
        self._card_view: Record | None = None
        self._base: Ctx | None = None
        self.alts: list[GroundAlt] = []
        if not ground_alternatives:  # only the card's own facts (its dice, say) are wanted
            return
        for i, alt in enumerate(card.alternatives):
            if alt.when is not None and not self.compiler.compile(alt.when)(self.base(), {}):
                continue
            self.alts.append(self._ground_alt(i, alt))

    @property
    def card_view(self) -> Record:
        """The card as the rules see it (``card.helmet``), made when first read."""
        v = self._card_view
        if v is None:
            c = self.card
            # the card's declared effects (Counter Attack: those of the card it copies, as ``name``)
            v = self._card_view = Record(name=c.name, played=self.played, category=c.category, helmet=c.helmet,
                                         effects=frozenset(c.effects))
        return v

    def base(self) -> Ctx:
        """The context of the card's own expressions (no alternative, no
        decision), made when one is first evaluated."""
        ctx = self._base
        if ctx is None:
            ctx = self._base = Ctx(self, None)
        return ctx

    def _ground_alt(self, index: int, alt: A.Alternative) -> GroundAlt:
        """One alternative on the setting. When it reads only the board (its
        quotas' conditions and anchor about the board alone, literal
        numbers of orders) it is a fact of the setting, like the admitted
        sets of ``_filter``, grounded once per side."""
        s = self.setting
        key = (id(alt), index)
        hit = s.caches.ground_alts.get(key)
        if hit is not None and hit.decl is alt:
            return hit
        out = self._ground_alt_now(index, alt)
        c = self.compiler
        quotas_static = all((q.where is None or c.board_static(q.where, ("it",)))
                            and (isinstance(q.amount, str) or q.amount.__class__ is A.Num) for q in alt.quotas)
        anchor = alt.group.anchor if out.group == "led" else None
        if quotas_static and (anchor is None or c.board_static(anchor, ("it",))):
            out.shared = True
            s.caches.ground_alts[key] = out
        return out

    def _ground_alt_now(self, index: int, alt: A.Alternative) -> GroundAlt:
        s = self.setting
        c = self.compiler
        quotas = []
        mask = 0  # what some quota admits
        capacity: int | None = 0  # the quotas' orders; None: unbounded
        for q in alt.quotas:
            if q.where is not None:
                admitted, qmask = self._filter(q.where, q.what)
            else:
                admitted, qmask = _POOLS[q.what](s), s.pool_masks[q.what]
            amount = q.amount
            is_all = False
            if isinstance(amount, str):  # "all" | "any"
                cap, is_all = None, amount == "all"
            else:
                v = amount.value if amount.__class__ is A.Num else c.compile(amount)(self.base(), {})
                if v.__class__ is not int:
                    raise WarcouncilError(f"the number of orders must be a whole number, got {v!r}", q.loc)
                cap = max(v, 0)
            quotas.append(GroundQuota(cap, is_all, q.what, admitted, q.loc, qmask))
            mask |= qmask
            if capacity is not None:
                capacity = None if cap is None else capacity + cap
        group = alt.group.kind if alt.group else None
        if group == "led":
            anchor_cells, anchor_mask = self._anchors(alt.group.anchor)
            mask |= anchor_mask  # the commanding leader's own hex is always part of his command
            return GroundAlt(s, index, alt, quotas, group, capacity, mask, anchor_cells, anchor_mask)
        return GroundAlt(s, index, alt, quotas, group, capacity, mask)

    def _filter(self, where: A.Expr, what: str) -> tuple[frozenset, int]:
        """The pieces of the pool a quota's condition admits, and their mask.
        A condition about the board alone (``in_section(it, left)``) is a
        fact of the setting, worked out once per side; any other is
        evaluated now."""
        s = self.setting
        key = (id(where), what)
        memo = s.caches.admitted
        hit = memo.get(key)
        if hit is not None:
            return hit
        c = self.compiler
        f = c.compile(where)
        base = self.base()
        admitted = frozenset(p for p in _POOLS[what](s) if f(base, {"it": p}))
        out = (admitted, s.mask_of(admitted))
        if c.board_static(where, ("it",)):
            memo[key] = out
        return out

    def _anchors(self, anchor: A.Expr | None) -> tuple[frozenset, int]:
        """The hexes of the leaders who may command a led group (every own
        leader's, or those ``anchor`` admits) and the own pieces on them, as
        a mask. An anchor about the board alone is worked out once per side."""
        s = self.setting
        key = id(anchor)
        hit = s.caches.anchors.get(key)
        if hit is not None:
            return hit
        c = self.compiler
        f = c.compile(anchor) if anchor is not None else None
        base = self.base()
        cells = frozenset(l.at for l in s.own_leaders if f is None or f(base, {"it": l}))
        out = (cells, s.mask_of(p for p in s.items if p.at in cells))
        if anchor is None or c.board_static(anchor, ("it",)):
            s.caches.anchors[key] = out
        return out

    # convenience
    def ids(self, pieces) -> tuple[list[str], list[str]]:
        ps = sorted(pieces, key=lambda p: p.rank)
        return [p.id for p in ps if p.role == "unit"], [p.id for p in ps if p.role == "leader"]
