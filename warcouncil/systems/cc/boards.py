"""The Commands & Colors battlefields and how a side sees their sections.

``board: cca`` and ``board: ccm`` in a scenario name these boards
(``CommandsAndColors.named_boards``). A board's sections are stored as seen
from the south edge; left and right are each side's own, so the north side
sees them swapped (interface.md, "Boards"; ``VIEWS``).
"""

from __future__ import annotations

from types import MappingProxyType

from ...world.board import Board, grid_cells

#: How a side at each edge names the sections: the south side as stored, the
#: north side with left and right swapped (the game is played across the
#: board from north and south only).
VIEWS = MappingProxyType({
    "south": MappingProxyType({}),
    "north": MappingProxyType({"left": "right", "right": "left"}),
})


def standard_board(depth: int = 9, name: str = "cca") -> Board:
    """The Commands & Colors battlefield: 13 hexes wide (113 hexes at the
    standard depth of 9), three sections.

    Sections by the closed form of cca.md §1.2 with ``x2 = 2*col + row%2``:
    left (west) ``x2 <= 8``, center ``8 <= x2 <= 16``, right (east)
    ``x2 >= 16``. The hexes with ``x2`` 8 or 16 lie on a dotted line.
    """
    cells = grid_cells("hex", 13, depth)
    x2 = {cell: 2 * cell[0] + cell[1] % 2 for cell in cells}
    sections = {
        "left": frozenset(c for c, x in x2.items() if x <= 8),
        "center": frozenset(c for c, x in x2.items() if 8 <= x <= 16),
        "right": frozenset(c for c, x in x2.items() if x >= 16),
    }
    return Board(name=name, grid="hex", width=13, depth=depth, cells=cells, sections=sections, views=VIEWS)


BOARDS = {
    "cca": standard_board,
    # Commands & Colors: Medieval (shared/reference/ccm.md §1): the battlefield
    # made deeper, 13 x 11 hexes (138), odd-r. Where its dotted lines fall is
    # UNCERTAIN: the CCA closed form is reused (even-row cols 4 and 8).
    "ccm": lambda: standard_board(depth=11, name="ccm"),
}
