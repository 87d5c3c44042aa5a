"""Boards: the grid, its cells, adjacency, distance and sections.

Three kinds of board are supported:

* ``hex``: pointy-topped hexes in "odd-r" offset coordinates ``[col, row]``
  (``shared/reference/cca.md`` §1.1). Row 0 is the north edge. Even rows hold
  ``width`` hexes (cols ``0..width-1``); odd rows hold ``width - 1`` hexes
  (cols ``0..width-2``) and sit half a hex to the east.
* ``square``: ``width`` x ``depth`` squares ``[col, row]``. Adjacency is the
  orthogonal 4-neighbourhood and ``distance`` is the Manhattan distance (the
  number of orthogonal steps between two squares).
* ``table``: a measured table ``width`` x ``depth`` centimetres; positions are
  points ``(x, y)`` (floats allowed). There are no cells, no adjacency and no
  sections; use :meth:`Board.measure` for point distances and
  :mod:`warcouncil.systems.warmaster.measure` for footprints, contact and terrain.

What a board kind can answer is explicit (:data:`CAPABILITIES`,
:meth:`Board.can`, :meth:`Board.require`). A query a kind cannot answer
raises :class:`BoardCannotAnswer` (a ``WarcouncilError``: the CLI exits 2 with
its message); it never answers empty. A table board is built as
:class:`TableBoard`, whose cell operations (``mask``, ``dilate``,
``cells_in``, ``ball``, ``ball_mask``, ``adjacent``, ``distance``, ``line``)
and cell tables (``neighbours``, ``neighbour_sets``, ``index``, ``cell_at``,
``nb_masks``) raise, so the hex and square boards' hot paths carry no check.
Facing on square grids (front, flank, rear squares) is in
:mod:`warcouncil.systems.grid.facing`.

Sections (named sets of cells) are stored as the board gives them (the
scenario's board mapping: seen from the south edge). How a side at another
edge names them is the game system's (``System.section_views``, handed to the
board as ``views``; Commands & Colors: the north side sees "left" and "right"
swapped); :meth:`Board.sections_of` and :meth:`Board.section_cells` take the
viewer's edge. Named boards (``board: cca``) are the game systems'
(``System.named_boards``, ``system.named_board``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NoReturn

from warcouncil.errors import Location, WarcouncilError, closest

Cell = tuple[int, int]
"""``(col, row)`` on hex and square grids; ``(x, y)`` in cm (floats allowed) on tables."""

GRIDS = ("hex", "square", "table")
#: Edges a side may own (a game system may allow fewer: ``System.edges``).
EDGES = ("north", "south", "east", "west")
#: How section names change when the board is seen from each edge, unless
#: the game system says otherwise (``System.section_views``): as stored.
PLAIN_VIEWS: Mapping[str, Mapping[str, str]] = MappingProxyType({e: MappingProxyType({}) for e in EDGES})
#: Grid boards larger than this (either way) are refused as input errors.
MAX_GRID_SIZE = 200
CELLS_MEMO = 4096  # the most masks Board.cells_of (and dilate_of) keeps

_EMPTY: frozenset[str] = frozenset()

#: What each kind of board can answer. ``cells``: the board is made of cells
#: (bit masks, neighbours, balls, searches from cell to cell); ``steps``: a
#: whole-number step distance between cells; ``line``: the cells a straight
#: line crosses (hex line of sight); ``facing``: front, flank and rear squares
#: (``systems.grid.facing``); ``sections``: named sections; ``measure``: a distance
#: between two positions (cm on a table, steps on a grid); ``footprints``:
#: bases in cm, contact and terrain polygons (``systems.warmaster.measure``).
CAPABILITIES: Mapping[str, frozenset[str]] = MappingProxyType({
    "hex": frozenset({"cells", "steps", "line", "sections", "measure"}),
    "square": frozenset({"cells", "steps", "facing", "sections", "measure"}),
    "table": frozenset({"measure", "footprints"}),
})

#: Why a kind of board lacks a capability (``{query}`` is what was asked).
_CANNOT: dict[tuple[str, str], str] = {
    ("table", "cells"): "a measured table has no cells: {query} works on hexes or squares; "
                        "moves on a table need measured positions (cm), not hexes",
    ("table", "steps"): "a measured table has no step distance: {query} needs hexes or squares; "
                        "measure in cm (Board.measure, systems.warmaster.measure)",
    ("table", "line"): "a measured table has no cells for {query} to cross",
    ("table", "facing"): "a measured table has no squares: {query} needs a square grid "
                         "(facing on a table is a footprint's angle, systems.warmaster.measure)",
    ("table", "sections"): "a measured table has no sections: {query} needs a hex or square grid",
    ("hex", "facing"): "{query} needs a square grid: a hex board has no square facing",
    ("square", "line"): "{query} is defined for hex boards only, not for a square grid",
    ("hex", "footprints"): "{query} needs a measured table (grid: table), not a hex board",
    ("square", "footprints"): "{query} needs a measured table (grid: table), not a square grid",
}


class BoardCannotAnswer(WarcouncilError, ValueError):
    """A query this kind of board cannot answer (e.g. a cell search on a
    measured table). It is a ``WarcouncilError``, so the CLI prints the
    message and exits 2 instead of answering empty; it is also a
    ``ValueError`` as the board's earlier "not on this kind of board"
    errors were."""


def cannot_answer(grid: str, capability: str, query: str) -> BoardCannotAnswer:
    """The error for ``query`` needing ``capability`` on a ``grid`` board."""
    text = _CANNOT.get((grid, capability), "{query} needs a board with " + capability + f", not a {grid} board")
    return BoardCannotAnswer(text.format(query=query))


def _hex_neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six odd-r neighbours of ``cell``, on or off the board."""
    c, r = cell
    if r % 2 == 0:
        return ((c - 1, r), (c + 1, r), (c - 1, r - 1), (c, r - 1), (c - 1, r + 1), (c, r + 1))
    return ((c - 1, r), (c + 1, r), (c, r - 1), (c + 1, r - 1), (c, r + 1), (c + 1, r + 1))


def _square_neighbours(cell: Cell) -> tuple[Cell, ...]:
    c, r = cell
    return ((c, r - 1), (c + 1, r), (c, r + 1), (c - 1, r))


def hex_distance(a: Cell, b: Cell) -> int:
    """Hex distance between two odd-r cells (via axial/cube coordinates)."""
    ac, ar = a
    bc, br = b
    dq = (ac - (ar // 2)) - (bc - (br // 2))
    dr = ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def _cube_round(x: float, z: float) -> tuple[int, int]:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


def hex_line(a: Cell, b: Cell) -> tuple[tuple[Cell, ...], ...]:
    """The hexes a straight line from the centre of ``a`` to the centre of
    ``b`` passes through, ends excluded, in order. Where the line runs
    exactly along the edge between two hexes, that step holds both of them.
    (Cube-coordinate interpolation, nudged both ways to find edge cases.)"""
    (ac, ar), (bc, br) = a, b
    aq, bq = ac - (ar // 2), bc - (br // 2)
    n = hex_distance(a, b)
    steps = []
    eps = 1e-6
    for i in range(1, n):
        t = i / n
        x = aq + (bq - aq) * t
        z = ar + (br - ar) * t
        found = []
        for dx, dz in ((eps, 2 * eps), (-eps, -2 * eps)):
            q, r = _cube_round(x + dx, z + dz)
            c = (q + (r // 2), r)
            if c not in found:
                found.append(c)
        steps.append(tuple(found))
    return tuple(steps)


def grid_cells(grid: str, width: int, depth: int) -> frozenset[Cell]:
    """Every cell of a ``grid`` board of the given size (empty for tables)."""
    if grid == "hex":
        return frozenset(
            (c, r) for r in range(depth) for c in range(width if r % 2 == 0 else width - 1)
        )
    if grid == "square":
        return frozenset((c, r) for r in range(depth) for c in range(width))
    return frozenset()


@dataclass(frozen=True)
class Board:
    """An immutable board. Construct it directly or via the factories below.

    ``neighbours`` (cell -> on-board neighbours) and the per-edge section
    tables are computed once at construction.
    """

    name: str
    grid: str  # "hex", "square" or "table"
    width: int | float  # cols (hex, square) or cm (table)
    depth: int | float  # rows (hex, square) or cm (table)
    cells: frozenset[Cell] = field(repr=False)
    sections: Mapping[str, frozenset[Cell]] = field(default_factory=dict, repr=False)
    #: edge -> how a side on that edge renames the sections (absent: as
    #: stored); the edges a side may see them from
    views: Mapping[str, Mapping[str, str]] = field(default_factory=lambda: PLAIN_VIEWS, repr=False, compare=False)

    neighbours: dict[Cell, tuple[Cell, ...]] = field(
        init=False, repr=False, compare=False
    )
    _sections_by_edge: dict[str, dict[Cell, frozenset[str]]] = field(
        init=False, repr=False, compare=False
    )
    _section_cells_by_edge: dict[str, dict[str, frozenset[Cell]]] = field(
        init=False, repr=False, compare=False
    )
    _dotted: frozenset[Cell] = field(init=False, repr=False, compare=False)
    neighbour_sets: dict[Cell, frozenset[Cell]] = field(init=False, repr=False, compare=False)
    _balls: dict = field(init=False, repr=False, compare=False)
    # cells as bits of an int (see ``mask``): bit i is ``cell_at[i]``, in
    # reading order (row by row, then column)
    cell_at: tuple[Cell, ...] = field(init=False, repr=False, compare=False)
    index: dict[Cell, int] = field(init=False, repr=False, compare=False)
    _shifts: tuple = field(init=False, repr=False, compare=False)
    _shifts_down_up: tuple = field(init=False, repr=False, compare=False)
    _six: tuple | None = field(init=False, repr=False, compare=False)  # see dilate
    _byte_cells: tuple = field(init=False, repr=False, compare=False)
    _cells_memo: dict = field(init=False, repr=False, compare=False)  # see cells_of
    _dilate_memo: dict = field(init=False, repr=False, compare=False)  # see dilate_of
    _keyed_memo: dict = field(init=False, repr=False, compare=False)  # see cells_keyed
    nb_masks: tuple = field(init=False, repr=False, compare=False)  # nb_masks[i]: cell i's neighbours, a mask

    def __new__(cls, *args: Any, **kwargs: Any) -> Board:
        # A table board is a TableBoard (its cell operations raise); the
        # grid is the second field, given by position or by name.
        grid = kwargs["grid"] if "grid" in kwargs else (args[1] if len(args) > 1 else None)
        if cls is Board and grid == "table":
            cls = TableBoard
        elif cls is TableBoard and grid != "table":
            cls = Board
        return object.__new__(cls)

    def __post_init__(self) -> None:
        if self.grid not in GRIDS:
            raise ValueError(f"unknown grid {self.grid!r}; expected one of {', '.join(GRIDS)}")
        cells = frozenset(self.cells)
        sections = {str(k): frozenset(v) for k, v in self.sections.items()}
        for name, members in sections.items():
            stray = members - cells
            if stray:
                raise ValueError(f"section {name!r} has cells off the board: {sorted(stray)[:5]}")
        object.__setattr__(self, "cells", cells)
        object.__setattr__(self, "sections", MappingProxyType(sections))

        step = {"hex": _hex_neighbours, "square": _square_neighbours}.get(self.grid)
        neighbours: dict[Cell, tuple[Cell, ...]] = {}
        if step is not None:
            for cell in cells:
                neighbours[cell] = tuple(n for n in step(cell) if n in cells)
        object.__setattr__(self, "neighbours", neighbours)
        object.__setattr__(self, "neighbour_sets", {c: frozenset(ns) for c, ns in neighbours.items()})
        object.__setattr__(self, "_balls", {})
        order = tuple(sorted(cells, key=lambda c: (c[1], c[0]))) if self.grid != "table" else ()
        index = {c: i for i, c in enumerate(order)}
        object.__setattr__(self, "cell_at", order)
        object.__setattr__(self, "index", index)
        # adjacency as shifts: every neighbour pair (c, n) has n's bit at c's
        # plus some offset d; for each offset, the cells that have such a
        # neighbour. Then the neighbours of a set of cells are a few shifts.
        by_offset: dict[int, int] = {}
        for c, ns in neighbours.items():
            for n in ns:
                d = index[n] - index[c]
                by_offset[d] = by_offset.get(d, 0) | (1 << index[c])
        object.__setattr__(self, "_shifts", tuple(sorted(by_offset.items())))
        # (down, right) shifts for ``dilate``: (n, source cells) moved n bits down, then up
        object.__setattr__(self, "_shifts_down_up", (tuple((-d, src) for d, src in self._shifts if d < 0),
                                                     tuple((d, src) for d, src in self._shifts if d > 0)))
        # three shifts each way (a hex board): ``dilate`` writes them out
        down, up = self._shifts_down_up
        object.__setattr__(self, "_six", tuple(x for pair in down + up for x in pair)
                           if len(down) == 3 and len(up) == 3 else None)
        object.__setattr__(self, "nb_masks", tuple(self.mask(neighbours.get(c, ())) for c in order))
        object.__setattr__(self, "_byte_cells", None)  # made when first read (``cells_in``)
        object.__setattr__(self, "_cells_memo", {})
        object.__setattr__(self, "_dilate_memo", {})
        object.__setattr__(self, "_keyed_memo", {})

        by_edge: dict[str, dict[Cell, frozenset[str]]] = {}
        cells_by_edge: dict[str, dict[str, frozenset[Cell]]] = {}
        for edge, renames in self.views.items():
            seen = {renames.get(n, n): members for n, members in sections.items()}
            cells_by_edge[edge] = seen
            names_of: dict[Cell, set[str]] = {}
            for n, members in seen.items():
                for cell in members:
                    names_of.setdefault(cell, set()).add(n)
            by_edge[edge] = {cell: frozenset(ns) for cell, ns in names_of.items()}
        object.__setattr__(self, "_sections_by_edge", by_edge)
        object.__setattr__(self, "_section_cells_by_edge", cells_by_edge)
        object.__setattr__(
            self, "_dotted", frozenset(c for c in cells if sum(c in m for m in sections.values()) >= 2)
        )

    def __hash__(self) -> int:
        return hash((self.name, self.grid, self.width, self.depth, self.cells))

    # -- what this board can answer ---------------------------------------

    def can(self, capability: str) -> bool:
        """Can this kind of board answer queries needing ``capability``
        (see :data:`CAPABILITIES`)?"""
        return capability in CAPABILITIES[self.grid]

    def require(self, capability: str, query: str) -> None:
        """Raise :class:`BoardCannotAnswer` (exit 2 in the CLI) unless this
        kind of board has ``capability``; ``query`` names what was asked
        (e.g. ``"moves"``) for the message."""
        if capability not in CAPABILITIES[self.grid]:
            raise cannot_answer(self.grid, capability, query)

    # -- geometry ---------------------------------------------------------

    def contains(self, cell: Any) -> bool:
        """Is ``cell`` on the board? (Any sequence of two numbers is accepted.)"""
        if self.grid == "table":
            try:
                x, y = cell
                return 0 <= x <= self.width and 0 <= y <= self.depth
            except (TypeError, ValueError):
                return False
        try:
            return cell in self.cells
        except TypeError:  # unhashable, e.g. a list
            try:
                return tuple(cell) in self.cells
            except TypeError:
                return False

    def ball(self, cell: Cell, radius: int) -> frozenset[Cell]:
        """The cells at most ``radius`` steps from ``cell`` along the board's
        adjacency (computed once per cell and radius)."""
        key = (cell, radius)
        hit = self._balls.get(key)
        if hit is None:
            seen = {cell}
            frontier = [cell]
            nb = self.neighbours
            for _ in range(radius):
                nxt = []
                for c in frontier:
                    for n in nb.get(c, ()):
                        if n not in seen:
                            seen.add(n)
                            nxt.append(n)
                frontier = nxt
            hit = self._balls[key] = frozenset(seen)
        return hit

    # -- cells as bit masks ----------------------------------------------

    def mask(self, cells) -> int:
        """The bit mask of some cells of the board (bit ``index[c]``)."""
        index = self.index
        m = 0
        for c in cells:
            m |= 1 << index[c]
        return m

    def _make_byte_cells(self) -> tuple:
        """``_byte_cells``: for byte i and value b, the cells of b's bits,
        in reading order (b's lowest bit first, then the cells of the rest)."""
        order = self.cell_at
        tables = []
        for i in range((len(order) + 7) // 8):
            t: list = [()] * 256
            for b in range(1, 256):
                low = b & -b
                k = 8 * i + low.bit_length() - 1
                t[b] = ((order[k],) + t[b ^ low]) if k < len(order) else t[b ^ low]
            tables.append(tuple(t))
        tables = tuple(tables)
        object.__setattr__(self, "_byte_cells", tables)
        return tables

    def cells_in(self, m: int) -> list[Cell]:
        """The cells of a bit mask, in reading order (read a byte at a time:
        ``_byte_cells[i][b]`` are the cells of byte value b at byte i)."""
        tables = self._byte_cells
        if tables is None:
            tables = self._make_byte_cells()
        out: list = []
        if not m:
            return out
        # only the bytes from the lowest set bit's to the highest's
        i = ((m & -m).bit_length() - 1) >> 3
        for b in (m >> (i << 3)).to_bytes(((m.bit_length() + 7) >> 3) - i, "little"):
            if b:
                out += tables[i][b]
            i += 1
        return out

    def cells_of(self, m: int) -> tuple:
        """``cells_in(m)`` as a tuple, looked up by the mask once it has
        been read (the board's geometry only: which cells a mask's bits
        are; at most CELLS_MEMO masks kept, then emptied)."""
        memo = self._cells_memo
        t = memo.get(m)
        if t is None:
            if len(memo) >= CELLS_MEMO:
                memo.clear()
            t = memo[m] = tuple(self.cells_in(m))
        return t

    def cells_keyed(self, m: int) -> dict:
        """``cells_in(m)`` as the keys of a dict, in reading order, each
        True, looked up by the mask as ``cells_of`` (the memo's own dict:
        copy it, never change it). A dict made from it (``copy``,
        ``dict.fromkeys``, ``update``) takes the cells' hashes from it
        instead of hashing each cell again. (Its memo, ``_keyed_memo``, is
        read directly by C&C destinations' quick path, a frame less.)"""
        memo = self._keyed_memo
        d = memo.get(m)
        if d is None:
            if len(memo) >= CELLS_MEMO:
                memo.clear()
            d = memo[m] = dict.fromkeys(self.cells_in(m), True)
        return d

    def dilate_of(self, m: int) -> int:
        """``dilate(m)``, looked up by the mask once worked out (the
        board's geometry only; at most CELLS_MEMO masks kept, then
        emptied): for a search that grows the same few frontiers again
        and again (``search.PlainFast.ends_before``; C&C destinations' quick
        path reads its memo, ``_dilate_memo``, in place)."""
        memo = self._dilate_memo
        d = memo.get(m)
        if d is None:
            if len(memo) >= CELLS_MEMO:
                memo.clear()
            d = memo[m] = self.dilate(m)
        return d

    def dilate(self, m: int) -> int:
        """The cells next to some cell of mask ``m`` (as a mask)."""
        if not m & (m - 1):  # one cell (or none): its neighbours
            return self.nb_masks[m.bit_length() - 1] if m else 0
        six = self._six
        if six is not None:
            n0, s0, n1, s1, n2, s2, u0, t0, u1, t1, u2, t2 = six
            return (m & s0) >> n0 | (m & s1) >> n1 | (m & s2) >> n2 | (m & t0) << u0 | (m & t1) << u1 | (m & t2) << u2
        out = 0
        down, up = self._shifts_down_up
        for n, src in down:
            out |= (m & src) >> n
        for n, src in up:
            out |= (m & src) << n
        return out

    def ball_mask(self, cell: Cell, radius: int) -> int:
        """``ball`` as a bit mask (computed once per cell and radius)."""
        key = ("mask", cell, radius)
        hit = self._balls.get(key)
        if hit is None:
            hit = self._balls[key] = self.mask(self.ball(cell, radius))
        return hit

    def adjacent(self, a: Cell, b: Cell) -> bool:
        """Are ``a`` and ``b`` neighbouring cells of this board?"""
        return b in self.neighbours.get(a, ())

    def distance(self, a: Cell, b: Cell) -> int:
        """Steps from ``a`` to ``b``: hex distance, or Manhattan on squares.

        Pure arithmetic: the cells need not be on the board. Tables have no
        step distance (:class:`BoardCannotAnswer`); use :meth:`measure`.
        """
        if self.grid == "hex":
            return hex_distance(a, b)
        return abs(a[0] - b[0]) + abs(a[1] - b[1])  # square (a table's is TableBoard.distance)

    def line(self, a: Cell, b: Cell) -> tuple[tuple[Cell, ...], ...]:
        """The hexes between ``a`` and ``b`` on a straight line (see hex_line).
        Hex boards only: elsewhere :class:`BoardCannotAnswer`."""
        if self.grid != "hex":
            raise cannot_answer(self.grid, "line", "Board.line")
        return hex_line(tuple(a), tuple(b))

    def measure(self, a: tuple[float, float], b: tuple[float, float]) -> float:
        """Straight-line distance in cm on a table; the step distance on grids."""
        if self.grid == "table":
            return math.hypot(a[0] - b[0], a[1] - b[1])
        return float(self.distance(a, b))  # type: ignore[arg-type]

    def extent(self) -> str:
        """A short human description of the board's coordinates (for messages)."""
        if self.grid == "hex":
            return (
                f"rows 0..{self.depth - 1}; even rows cols 0..{self.width - 1}, "
                f"odd rows cols 0..{self.width - 2}"
            )
        if self.grid == "square":
            return f"cols 0..{self.width - 1}, rows 0..{self.depth - 1}"
        return f"x 0..{self.width} cm, y 0..{self.depth} cm"

    # -- sections ---------------------------------------------------------

    @property
    def section_names(self) -> frozenset[str]:
        """Section names as stored (seen from the south edge)."""
        return frozenset(self.sections)

    def _view(self, edge: str, table: str) -> dict:
        try:
            return getattr(self, table)[edge]
        except KeyError:
            raise ValueError(
                f"no section view from edge {edge!r}; supported: "
                f"{', '.join(self.views)}"
            ) from None

    def sections_of(self, cell: Cell, edge: str = "south") -> frozenset[str]:
        """The sections ``cell`` is in, as seen by a side whose own edge is ``edge``.

        ``edge`` is one of the board's ``views`` (how a side there renames
        the sections: as stored by default; Commands & Colors' north side
        sees left and right swapped); other edges raise ``ValueError``.
        Off-board or section-less cells give the empty set.
        """
        return self._view(edge, "_sections_by_edge").get(cell, _EMPTY)

    def dotted(self, cell: Cell) -> bool:
        """Is ``cell`` on a dotted line, i.e. in two or more sections?"""
        return cell in self._dotted

    def section_cells(self, name: str, edge: str = "south") -> frozenset[Cell]:
        """The cells of section ``name`` as seen from ``edge``.

        An unknown section name is bad input: ``WarcouncilError`` with hints.
        """
        view = self._view(edge, "_section_cells_by_edge")
        try:
            return view[name]
        except (KeyError, TypeError):
            near = closest(str(name), view)
            raise WarcouncilError(
                f"unknown section {name!r} on board {self.name!r}; "
                f"sections: {', '.join(sorted(view)) or '(none)'}",
                hint=f"did you mean {' or '.join(near)}?" if near else None,
            ) from None


class _NoCells:
    """Stands for a cell table (``neighbours``, ``index``, ``cell_at``, …) on
    a measured table: any use raises :class:`BoardCannotAnswer`, so a cell
    search started on a table stops with a message instead of finding
    nothing (an empty dict would answer ``{}``, a missing key would be an
    internal ``KeyError``)."""

    __slots__ = ("_query",)

    def __init__(self, query: str) -> None:
        self._query = query

    def _fail(self, *_: Any, **__: Any) -> NoReturn:
        raise cannot_answer("table", "cells", self._query)

    __getitem__ = __iter__ = __len__ = __contains__ = __bool__ = _fail
    get = keys = values = items = _fail

    def __repr__(self) -> str:
        return f"<no cells: {self._query}>"


_TABLE_CELL_TABLES = ("neighbours", "neighbour_sets", "index", "cell_at", "nb_masks")


class TableBoard(Board):
    """A measured table (``grid: table``). ``Board(grid="table", …)`` builds
    one. Every cell operation raises :class:`BoardCannotAnswer` naming the
    operation: a table has positions in cm and footprints
    (:mod:`warcouncil.systems.warmaster.measure`), not cells. Only ``contains``,
    ``measure``, ``extent`` and the (empty) section views answer."""

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in _TABLE_CELL_TABLES:
            object.__setattr__(self, name, _NoCells(f"Board.{name}"))

    def _no_cells(self, query: str) -> NoReturn:
        raise cannot_answer("table", "cells", query)

    def ball(self, cell: Cell, radius: int) -> frozenset[Cell]:
        self._no_cells("Board.ball")

    def ball_mask(self, cell: Cell, radius: int) -> int:
        self._no_cells("Board.ball_mask")

    def mask(self, cells) -> int:
        self._no_cells("Board.mask")

    def cells_in(self, m: int) -> list[Cell]:
        self._no_cells("Board.cells_in")

    def dilate(self, m: int) -> int:
        self._no_cells("Board.dilate")

    def adjacent(self, a: Cell, b: Cell) -> bool:
        self._no_cells("Board.adjacent")

    def distance(self, a: Cell, b: Cell) -> int:
        raise cannot_answer("table", "steps", "Board.distance")

    def line(self, a: Cell, b: Cell) -> tuple[tuple[Cell, ...], ...]:
        raise cannot_answer("table", "line", "Board.line")


# -- boards given in a scenario ----------------------------------------------


def _where(obj: Any, default: Location) -> Location:
    """The source location a loaded YAML value carries, if any."""
    loc = getattr(obj, "where", None)
    return loc if isinstance(loc, Location) else default


def _value_where(mapping: Any, key: str, default: Location) -> Location:
    locs = getattr(mapping, "value_where", None)
    if isinstance(locs, Mapping) and isinstance(locs.get(key), Location):
        return locs[key]
    return default


def _key_where(mapping: Any, key: Any, default: Location) -> Location:
    locs = getattr(mapping, "key_where", None)
    if isinstance(locs, Mapping) and isinstance(locs.get(key), Location):
        return locs[key]
    return default


def _item_where(seq: Any, index: int, default: Location) -> Location:
    locs = getattr(seq, "item_where", None)
    if isinstance(locs, list) and index < len(locs):
        return locs[index]
    return default


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


_BOARD_KEYS = ("name", "grid", "width", "depth", "cols", "rows", "sections")


def board_from_mapping(data: Mapping[str, Any], where: Location,
                       views: Mapping[str, Mapping[str, str]] = PLAIN_VIEWS) -> Board:
    """A board described in a scenario: ``grid``, size and (grids) ``sections``.

    Size is ``width``/``depth`` (``cols``/``rows`` also accepted). Hex boards
    use the odd-r layout (odd rows one cell shorter). ``sections`` maps a
    name (seen from the south) to a list of ``[col, row]`` cells, each of
    which must be on the board. Errors name the offending place: the
    mapping may carry locations (``where``, ``key_where``, ``value_where``,
    ``item_where``) as the scenario loader's values do; else ``where`` is used.
    """
    if not isinstance(data, Mapping):
        raise WarcouncilError("a board must be a name or a mapping", where)
    where = _where(data, where)
    for key in data:
        if key not in _BOARD_KEYS:
            near = closest(str(key), _BOARD_KEYS)
            raise WarcouncilError(
                f"unknown board key {key!r}; expected {', '.join(_BOARD_KEYS)}",
                _key_where(data, key, where),
                hint=f"did you mean {' or '.join(near)}?" if near else None,
            )

    name = data.get("name", "custom")
    if not isinstance(name, str):
        raise WarcouncilError("board name must be a string", _value_where(data, "name", where))

    grid = data.get("grid")
    if grid is None:
        raise WarcouncilError(f"board needs a grid: {', '.join(GRIDS)}", where)
    if grid not in GRIDS:
        near = closest(str(grid), GRIDS)
        raise WarcouncilError(
            f"unknown grid {grid!r}; expected {', '.join(GRIDS)}",
            _value_where(data, "grid", where),
            hint=f"did you mean {' or '.join(near)}?" if near else None,
        )

    size: dict[str, int | float] = {}
    for key, alias in (("width", "cols"), ("depth", "rows")):
        if key in data and alias in data:
            raise WarcouncilError(
                f"give the board's {key} or {alias}, not both", _key_where(data, alias, where)
            )
        k = key if key in data else alias
        if k not in data:
            raise WarcouncilError(f"board needs a {key} ({alias})", where)
        v = data[k]
        loc = _value_where(data, k, where)
        if grid == "table":
            if not _is_number(v) or v <= 0:
                raise WarcouncilError(f"table {key} must be a positive number of cm, not {v!r}", loc)
        else:
            if not _is_int(v) or v < 1:
                raise WarcouncilError(f"board {key} must be a positive whole number, not {v!r}", loc)
            if v > MAX_GRID_SIZE:
                raise WarcouncilError(f"board {key} {v} is too large (at most {MAX_GRID_SIZE})", loc)
        size[key] = v
    width, depth = size["width"], size["depth"]
    if grid == "hex" and width < 2:
        raise WarcouncilError("a hex board must be at least 2 hexes wide", where)

    cells = grid_cells(grid, int(width), int(depth)) if grid != "table" else frozenset()
    probe = Board(name=name, grid=grid, width=width, depth=depth, cells=cells)

    sections: dict[str, frozenset[Cell]] = {}
    raw = data.get("sections")
    if raw is not None:
        sloc = _value_where(data, "sections", where)
        if grid == "table":
            raise WarcouncilError("a measured table has no sections", sloc)
        if not isinstance(raw, Mapping):
            raise WarcouncilError("sections must map a section name to a list of cells", sloc)
        for sname, members in raw.items():
            kloc = _key_where(raw, sname, sloc)
            if not isinstance(sname, str):
                raise WarcouncilError(f"section name must be a string, not {sname!r}", kloc)
            mloc = _value_where(raw, sname, kloc)
            if not isinstance(members, list):
                raise WarcouncilError(f"section {sname!r} must be a list of [col, row] cells", mloc)
            got: set[Cell] = set()
            for i, item in enumerate(members):
                iloc = _where(item, _item_where(members, i, mloc))
                got.add(parse_cell(item, probe, iloc, what=f"cell of section {sname!r}"))
            sections[sname] = frozenset(got)

    return Board(name=name, grid=grid, width=width, depth=depth, cells=cells, sections=sections, views=views)


def parse_cell(value: Any, board: Board, where: Location, what: str = "position") -> Cell:
    """Validate ``value`` as a position on ``board`` and return it as a tuple.

    Grids want ``[col, row]`` whole numbers; tables ``[x, y]`` numbers in cm.
    Off-board positions are bad input naming the hex/point and the place.
    """
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or len(value) != 2:
        form = "[x, y] in cm" if board.grid == "table" else "[col, row]"
        raise WarcouncilError(f"{what} must be a pair {form}, not {value!r}", where)
    a, b = value
    if board.grid == "table":
        if not (_is_number(a) and _is_number(b)):
            raise WarcouncilError(f"{what} must be two numbers (cm), not {list(value)!r}", where)
    elif not (_is_int(a) and _is_int(b)):
        raise WarcouncilError(f"{what} must be two whole numbers [col, row], not {list(value)!r}", where)
    cell = (a, b)
    if not board.contains(cell):
        kind = {"hex": "hex", "square": "square"}.get(board.grid, "point")
        raise WarcouncilError(
            f"{what}: {kind} [{a}, {b}] is off the board {board.name!r} ({board.extent()})",
            where,
        )
    return cell
