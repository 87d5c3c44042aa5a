"""Boards: cells, neighbours, distance and sections (cca.md §1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warcouncil.errors import Location, WarcouncilError
from warcouncil.world.board import (
    Board,
    board_from_mapping,
    grid_cells,
)
from warcouncil.kernel.system import named_board
from warcouncil.systems.cc.boards import BOARDS, VIEWS
from warcouncil.systems.cc.boards import standard_board as standard_cca_board


@pytest.fixture(scope="module")
def cca() -> Board:
    return standard_cca_board()


def test_cells(cca: Board) -> None:
    assert len(cca.cells) == 113
    assert cca.grid == "hex" and (cca.width, cca.depth) == (13, 9)
    assert cca.contains((12, 0)) and cca.contains((12, 8))
    assert not cca.contains((12, 1))  # odd rows have cols 0..11
    assert not cca.contains((0, 9)) and not cca.contains((-1, 0)) and not cca.contains((0, -1))
    assert cca.contains([3, 7])  # a list works too
    assert not cca.contains("xy") and not cca.contains(None)


def test_sections(cca: Board) -> None:
    assert set(cca.sections) == {"left", "center", "right"}
    for name in ("left", "center", "right"):
        assert len(cca.sections[name]) == 41
        assert cca.section_cells(name) == cca.sections[name]
    dotted = {c for c in cca.cells if cca.dotted(c)}
    assert dotted == {(col, row) for col in (4, 8) for row in (0, 2, 4, 6, 8)}
    assert all(len(cca.sections_of(c)) == 2 for c in dotted)
    assert all(len(cca.sections_of(c)) == 1 for c in cca.cells - dotted)
    # odd rows: cols 0-3 | 4-7 | 8-11, no shared hex
    assert cca.sections_of((3, 1)) == {"left"}
    assert cca.sections_of((4, 1)) == {"center"}
    assert cca.sections_of((7, 3)) == {"center"}
    assert cca.sections_of((8, 3)) == {"right"}
    assert cca.sections_of((4, 0)) == {"left", "center"}
    assert cca.sections_of((8, 8)) == {"center", "right"}


def test_sections_seen_from_north(cca: Board) -> None:
    assert cca.sections_of((1, 1), "south") == {"left"}
    assert cca.sections_of((1, 1), "north") == {"right"}
    assert cca.sections_of((10, 2), "north") == {"left"}
    assert cca.sections_of((4, 2), "north") == {"right", "center"}
    assert cca.sections_of((6, 4), "north") == {"center"}
    assert cca.section_cells("left", "north") == cca.section_cells("right", "south")
    assert cca.section_cells("center", "north") == cca.section_cells("center", "south")
    assert cca.sections_of((99, 99)) == frozenset()
    with pytest.raises(ValueError):
        cca.sections_of((1, 1), "east")
    with pytest.raises(ValueError):
        cca.section_cells("left", "up")


def test_unknown_section(cca: Board) -> None:
    with pytest.raises(WarcouncilError) as info:
        cca.section_cells("centre")
    assert "centre" in str(info.value) and info.value.hint and "center" in info.value.hint


@pytest.mark.parametrize(
    "cell, expected",
    [
        ((5, 4), {(4, 4), (6, 4), (4, 3), (5, 3), (4, 5), (5, 5)}),  # even row
        ((5, 3), {(4, 3), (6, 3), (5, 2), (6, 2), (5, 4), (6, 4)}),  # odd row
        ((0, 0), {(1, 0), (0, 1)}),  # NW corner
        ((12, 8), {(11, 8), (11, 7)}),  # SE corner
        ((12, 4), {(11, 4), (11, 3), (11, 5)}),  # east end of an even row
        ((0, 4), {(1, 4), (0, 3), (0, 5)}),  # west end of an even row
        ((0, 1), {(1, 1), (0, 0), (1, 0), (0, 2), (1, 2)}),  # west end of an odd row
        ((11, 1), {(10, 1), (11, 0), (12, 0), (11, 2), (12, 2)}),  # east end of an odd row
        ((6, 0), {(5, 0), (7, 0), (5, 1), (6, 1)}),  # north edge
    ],
)
def test_neighbours(cca: Board, cell, expected) -> None:
    assert set(cca.neighbours[cell]) == expected
    assert all(cca.adjacent(cell, n) and cca.adjacent(n, cell) for n in expected)


def test_neighbours_consistent(cca: Board) -> None:
    for a in cca.cells:
        assert not cca.adjacent(a, a)
        for b in cca.neighbours[a]:
            assert a in cca.neighbours[b]
        for b in cca.cells:
            assert (cca.distance(a, b) == 1) == cca.adjacent(a, b)
            assert cca.distance(a, b) == cca.distance(b, a)


@pytest.mark.parametrize(
    "a, b, d",
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (12, 0), 12),
        ((0, 0), (0, 8), 8),
        ((12, 0), (0, 8), 16),
        ((0, 0), (12, 8), 16),
        ((5, 4), (6, 3), 2),
        ((5, 3), (6, 4), 1),
        ((3, 7), (3, 1), 6),
        ((6, 7), (4, 1), 6),
    ],
)
def test_distance(cca: Board, a, b, d) -> None:
    assert cca.distance(a, b) == d


def test_named_board() -> None:
    assert "cca" in BOARDS
    assert named_board("cca") is named_board("cca")
    assert named_board("cca") == standard_cca_board()
    assert hash(named_board("cca")) == hash(standard_cca_board())
    with pytest.raises(WarcouncilError) as info:
        named_board("ccaa", Location("x.yaml", 3, 8))
    assert "x.yaml:3:8" in str(info.value) and "cca" in (info.value.hint or "")


def test_square_board_from_mapping() -> None:
    b = board_from_mapping(
        {"grid": "square", "cols": 4, "rows": 3, "sections": {"left": [[0, 0], [0, 1]]}},
        Location("s.yaml", 2, 1), VIEWS,  # seen as a Commands & Colors side sees it
    )
    assert len(b.cells) == 12
    assert set(b.neighbours[(0, 0)]) == {(1, 0), (0, 1)}
    assert set(b.neighbours[(1, 1)]) == {(1, 0), (2, 1), (1, 2), (0, 1)}  # orthogonal only
    assert not b.adjacent((1, 1), (2, 2))
    assert b.distance((0, 0), (3, 2)) == 5  # Manhattan
    assert b.sections_of((0, 1)) == {"left"} and b.sections_of((0, 1), "north") == {"right"}


def test_hex_board_from_mapping() -> None:
    b = board_from_mapping({"grid": "hex", "width": 5, "depth": 3}, Location("h.yaml"))
    assert len(b.cells) == 5 + 4 + 5
    assert b.sections == {}
    assert set(b.neighbours[(0, 1)]) == {(1, 1), (0, 0), (1, 0), (0, 2), (1, 2)}


def test_table_board() -> None:
    b = board_from_mapping({"grid": "table", "width": 180, "depth": 120.5}, Location("t.yaml"))
    assert b.contains((0, 0)) and b.contains((179.5, 120.5)) and not b.contains((181, 3))
    assert b.measure((0, 0), (30, 40)) == 50.0
    with pytest.raises(ValueError):
        b.distance((0, 0), (1, 1))


@pytest.mark.parametrize(
    "data, fragment",
    [
        ({"grid": "hex", "width": 3, "depth": 3, "sections": {"a": [[2, 1]]}}, "[2, 1] is off the board"),
        ({"grid": "hexx", "width": 3, "depth": 3}, "unknown grid"),
        ({"grid": "hex", "width": 0, "depth": 3}, "width"),
        ({"grid": "hex", "width": 3}, "depth"),
        ({"grid": "hex", "width": 3, "cols": 3, "depth": 3}, "not both"),
        ({"grid": "square", "width": 3, "depth": 3, "size": 3}, "unknown board key"),
        ({"grid": "square", "width": 3, "depth": 3, "sections": {"a": [[1, "x"]]}}, "whole numbers"),
        ({"grid": "square", "width": 10**9, "depth": 3}, "too large"),
        ({"grid": "table", "width": 100, "depth": 50, "sections": {}}, "no sections"),
        ({"width": 3, "depth": 3}, "needs a grid"),
    ],
)
def test_bad_board_mapping(data, fragment) -> None:
    with pytest.raises(WarcouncilError) as info:
        board_from_mapping(data, Location("b.yaml", 4, 8))
    assert fragment in str(info.value)
    assert "b.yaml:4:8" in str(info.value)


# ------------------------------------------------------------ bit masks


def _boards():
    # the standard board, a square grid and small odd shapes (a board need
    # not be a rectangle: a hole makes the adjacency offsets irregular)
    yield standard_cca_board()
    yield Board("sq", "square", 8, 6, grid_cells("square", 8, 6))
    yield Board("hex5", "hex", 5, 4, grid_cells("hex", 5, 4))
    yield Board("holed", "hex", 7, 5, grid_cells("hex", 7, 5) - {(3, 2), (2, 1)})


@pytest.mark.parametrize("board", list(_boards()), ids=lambda b: b.name)
def test_cells_are_numbered_in_reading_order(board: Board) -> None:
    assert list(board.cell_at) == sorted(board.cells, key=lambda c: (c[1], c[0]))
    assert all(board.cell_at[i] == c for c, i in board.index.items())
    assert board.cells_in(board.mask(board.cells)) == list(board.cell_at)
    assert board.cells_in(0) == []


@pytest.mark.parametrize("board", list(_boards()), ids=lambda b: b.name)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_masks_agree_with_the_neighbour_table(board: Board, data) -> None:
    cells = data.draw(st.lists(st.sampled_from(sorted(board.cells)), unique=True, max_size=12))
    m = board.mask(cells)
    # read back sorted, whatever order they were given in
    assert board.cells_in(m) == sorted(cells, key=lambda c: (c[1], c[0]))
    # dilate: exactly the cells next to some cell of the set (one cell: its neighbours)
    want = {n for c in cells for n in board.neighbours[c]}
    assert set(board.cells_in(board.dilate(m))) == want
    assert board.dilate(m).bit_count() == len(want)
    # ball_mask: the cells within a radius, as Board.ball
    if cells:
        assert set(board.cells_in(board.ball_mask(cells[0], 2))) == set(board.ball(cells[0], 2))


def test_the_hex_board_adjacency_is_six_shifts(cca: Board) -> None:
    # rows of 13 and 12 hexes alternate: the six neighbours of every hex sit
    # at the same six index offsets (the odd-r layout), so a set's neighbours
    # are six masked shifts
    assert [d for d, _ in cca._shifts] == [-13, -12, -1, 1, 12, 13]
