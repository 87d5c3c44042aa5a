"""Square grid with facing (systems.grid.facing) and what a board kind cannot answer
(world.board): exact squares on hand-built boards, properties, and the CLI's
exit 2 on a measured table."""

from __future__ import annotations

import json

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from warcouncil.cli import main
from warcouncil.errors import Location, WarcouncilError
from warcouncil.world.board import (
    Board,
    BoardCannotAnswer,
    TableBoard,
    board_from_mapping,
    grid_cells,
)
from warcouncil.systems.cc.boards import standard_board as standard_cca_board
from warcouncil.systems.grid.facing import (
    FACINGS,
    REGIONS,
    Footprint,
    about_face,
    check_facing,
    turn_left,
    turn_right,
    turned,
)

SQ = Board("sq", "square", 8, 6, grid_cells("square", 8, 6))  # cols 0..7, rows 0..5 (row 0 north)
TABLE = board_from_mapping({"grid": "table", "width": 120, "depth": 80}, Location("t.yaml"))
NO_CELLS = "a measured table has no cells"


# ------------------------------------------------------------ facings


def test_turns() -> None:
    assert [turn_right(f) for f in FACINGS] == ["east", "south", "west", "north"]
    assert [turn_left(f) for f in FACINGS] == ["west", "north", "east", "south"]
    assert [about_face(f) for f in FACINGS] == ["south", "west", "north", "east"]
    assert turned("north", -3) == "east"


@pytest.mark.parametrize("bad", ["nrth", "North", "up", 0, None])
def test_bad_facing_is_bad_input(bad) -> None:
    with pytest.raises(WarcouncilError) as info:
        check_facing(bad)
    assert "unknown facing" in str(info.value) and "north, east, south, west" in str(info.value)
    with pytest.raises(WarcouncilError):
        Footprint((1, 1), bad)


def test_nearly_right_facing_gets_a_hint() -> None:
    with pytest.raises(WarcouncilError) as info:
        check_facing("nrth")
    assert "did you mean north" in str(info.value)


@pytest.mark.parametrize("width, depth, at", [(0, 1, (1, 1)), (2, -1, (1, 1)), (2, 1, (1.5, 1)), (2, 1, "a1")])
def test_bad_footprint(width, depth, at) -> None:
    with pytest.raises(WarcouncilError):
        Footprint(at, "north", width, depth)


# ------------------------------------------------------------ exact squares, two squares wide, one deep


# at (3, 2); rows grow to the south. (occupied, front, rear, left flank, right flank)
EXACT = {
    "north": ({(3, 2), (4, 2)}, {(3, 1), (4, 1)}, {(3, 3), (4, 3)}, {(2, 2)}, {(5, 2)}),
    "east": ({(3, 2), (3, 3)}, {(4, 2), (4, 3)}, {(2, 2), (2, 3)}, {(3, 1)}, {(3, 4)}),
    "south": ({(3, 2), (2, 2)}, {(3, 3), (2, 3)}, {(3, 1), (2, 1)}, {(4, 2)}, {(1, 2)}),
    "west": ({(3, 2), (3, 1)}, {(2, 2), (2, 1)}, {(4, 2), (4, 1)}, {(3, 3)}, {(3, 0)}),
}


@pytest.mark.parametrize("facing", FACINGS)
def test_exact_squares(facing: str) -> None:
    fp = Footprint((3, 2), facing)
    occupied, front, rear, left, right = EXACT[facing]
    assert set(fp.squares) == occupied and fp.squares[0] == (3, 2)  # at: the left front square
    assert set(fp.front()) == front
    assert set(fp.rear()) == rear
    assert set(fp.behind()) == rear  # "directly behind": the squares immediately behind
    assert set(fp.left_flank()) == left and set(fp.right_flank()) == right
    assert set(fp.flanks()) == left | right
    for sq in front:
        assert fp.region(sq) == "front" and fp.to_front(sq, 1) and not fp.to_flank(sq) and not fp.to_rear(sq)
    for sq in rear:
        assert fp.region(sq) == "rear" and fp.to_rear(sq, 1) and not fp.to_front(sq)
    for sq in left:
        assert fp.region(sq) == "left" and fp.to_flank(sq, 1)
    for sq in right:
        assert fp.region(sq) == "right" and fp.to_flank(sq, 1)


def test_order_is_as_the_unit_sees_it() -> None:
    fp = Footprint((3, 2), "south")  # its left is the east
    assert fp.front() == ((3, 3), (2, 3))  # left to right as it sees them
    assert fp.front(2) == ((3, 3), (2, 3), (3, 4), (2, 4))  # nearest rank first
    assert fp.rear(2) == ((3, 1), (2, 1), (3, 0), (2, 0))
    assert fp.left_flank(2) == ((4, 2), (5, 2))


def test_deeper_unit() -> None:
    fp = Footprint((3, 2), "north", width=2, depth=2)
    assert fp.squares == ((3, 2), (4, 2), (3, 3), (4, 3))
    assert fp.front() == ((3, 1), (4, 1))
    assert fp.behind() == ((3, 4), (4, 4))
    assert fp.left_flank() == ((2, 2), (2, 3)) and fp.right_flank() == ((5, 2), (5, 3))
    assert fp.about_faced() == Footprint((4, 3), "south", 2, 2)


def test_corners_are_neither_front_nor_flank_nor_rear() -> None:
    fp = Footprint((3, 2), "north")
    assert fp.region((2, 1)) == "front_left" and fp.region((5, 1)) == "front_right"
    assert fp.region((2, 3)) == "rear_left" and fp.region((5, 3)) == "rear_right"
    for sq in [(2, 1), (5, 1), (2, 3), (5, 3)]:
        assert not (fp.to_front(sq) or fp.to_flank(sq) or fp.to_rear(sq))
    assert fp.gap((2, 1)) == 0


def test_another_unit_to_the_front_flank_rear() -> None:
    me = Footprint((3, 4), "north")
    ahead = Footprint((4, 2), "south")  # occupies (4, 2), (3, 2): two ranks ahead
    assert me.relation(ahead) == {"front"}
    assert me.to_front(ahead) and me.to_front(ahead, reach=2) and not me.to_front(ahead, reach=1)
    half = Footprint((4, 3), "north")  # (4, 3), (5, 3): one square in front, one at the corner
    assert me.relation(half) == {"front", "front_right"} and me.to_front(half, 1)
    beside = Footprint((5, 4), "east")  # (5, 4), (5, 5): beside the right end, and behind it
    assert me.relation(beside) == {"right", "rear_right"} and me.to_flank(beside, 1)
    assert not me.to_rear(beside)
    behind = Footprint((3, 5), "north")
    assert me.relation(behind) == {"rear"} and me.to_rear(behind, 1)
    assert behind.to_front(me, 1)  # and me is immediately to its front


@pytest.mark.parametrize("facing, at, front, left, right, behind", [
    # at the north-west corner of the 8 x 6 board, keeping only squares on it
    ("north", (0, 0), (), (), ((2, 0),), ((0, 1), (1, 1))),
    ("west", (0, 1), (), ((0, 2),), (), ((1, 1), (1, 0))),
    # the south-east corner
    ("south", (7, 5), (), (), ((5, 5),), ((7, 4), (6, 4))),
    ("east", (7, 4), (), ((7, 3),), (), ((6, 4), (6, 5))),
])
def test_board_edges(facing, at, front, left, right, behind) -> None:
    fp = Footprint(at, facing)
    assert fp.fits(SQ) and fp.place(SQ) is fp
    assert fp.front(board=SQ) == front
    assert fp.left_flank(board=SQ) == left and fp.right_flank(board=SQ) == right
    assert fp.behind(SQ) == behind
    assert len(fp.front()) == 2  # without a board, the squares off it too


def test_footprint_off_the_board() -> None:
    fp = Footprint((7, 3), "north")  # (8, 3) is off the 8-wide board
    assert not fp.fits(SQ)
    with pytest.raises(WarcouncilError) as info:
        fp.place(SQ, Location("s.yaml", 3, 4), "unit r1")
    assert "[8, 3] off the board" in str(info.value) and "s.yaml:3:4" in str(info.value)


@pytest.mark.parametrize("board", [standard_cca_board(), TABLE], ids=["hex", "table"])
def test_facing_needs_a_square_grid(board: Board) -> None:
    fp = Footprint((1, 1), "north")
    for call in (lambda: fp.front(board=board), lambda: fp.flanks(board=board), lambda: fp.fits(board)):
        with pytest.raises(BoardCannotAnswer) as info:
            call()
        assert "square" in str(info.value)


# ------------------------------------------------------------ properties

facings = st.sampled_from(FACINGS)
squares = st.tuples(st.integers(-20, 20), st.integers(-20, 20))
footprints = st.builds(Footprint, squares, facings, st.integers(1, 4), st.integers(1, 3))


@given(footprints, st.integers(1, 3))
def test_about_face_swaps_front_and_rear(fp: Footprint, reach: int) -> None:
    back = fp.about_faced()
    assert set(back.squares) == set(fp.squares)
    assert set(fp.front(reach)) == set(back.rear(reach))
    assert set(fp.rear(reach)) == set(back.front(reach))
    assert set(fp.left_flank(reach)) == set(back.right_flank(reach))
    assert back.about_faced() == fp


@given(facings)
def test_four_quarter_turns_are_the_identity(facing: str) -> None:
    f = facing
    for _ in range(4):
        f = turn_right(f)
    assert f == facing
    assert turn_left(turn_right(facing)) == facing
    assert about_face(about_face(facing)) == facing == turned(facing, 4) == turned(facing, -8)


@given(footprints, st.integers(1, 3))
def test_own_squares_never_around_itself(fp: Footprint, reach: int) -> None:
    own = set(fp.squares)
    assert len(own) == fp.width * fp.depth
    around = [fp.front(reach), fp.rear(reach), fp.left_flank(reach), fp.right_flank(reach)]
    for squares_ in around:
        assert not own & set(squares_)
        assert len(set(squares_)) == len(squares_)
    assert sum(map(len, around)) == len(set().union(*map(set, around)))  # pairwise disjoint
    assert all(fp.region(s) == "occupied" for s in own)


@given(footprints, squares)
def test_regions_agree_with_the_squares(fp: Footprint, sq) -> None:
    region = fp.region(sq)
    assert region in REGIONS
    assert fp.square(*fp.local(sq)) == sq
    if region == "front":
        assert sq in fp.front(fp.gap(sq))
    elif region == "rear":
        assert sq in fp.rear(fp.gap(sq))
    elif region in ("left", "right"):
        assert sq in (fp.left_flank if region == "left" else fp.right_flank)(fp.gap(sq))


def _rot(sq):
    """A quarter turn of the whole board, clockwise (north becomes east)."""
    c, r = sq
    return (-r, c)


@given(footprints)
def test_turning_the_board_turns_the_answers(fp: Footprint) -> None:
    turned_fp = Footprint(_rot(fp.at), turn_right(fp.facing), fp.width, fp.depth)
    assert turned_fp.squares == tuple(map(_rot, fp.squares))
    assert turned_fp.front(2) == tuple(map(_rot, fp.front(2)))
    assert turned_fp.behind() == tuple(map(_rot, fp.behind()))
    assert turned_fp.left_flank() == tuple(map(_rot, fp.left_flank()))


# ------------------------------------------------------------ a table cannot answer cell queries


def test_table_board_is_a_table_board() -> None:
    assert isinstance(TABLE, TableBoard) and not isinstance(SQ, TableBoard)
    assert TABLE.can("measure") and TABLE.can("footprints") and not TABLE.can("cells")
    assert SQ.can("facing") and not SQ.can("line") and standard_cca_board().can("line")


@pytest.mark.parametrize("name, call", [
    ("mask", lambda b: b.mask([(1, 1)])),
    ("mask", lambda b: b.mask([])),
    ("dilate", lambda b: b.dilate(0)),
    ("dilate", lambda b: b.dilate(1)),
    ("cells_in", lambda b: b.cells_in(0)),
    ("ball", lambda b: b.ball((1, 1), 2)),
    ("ball_mask", lambda b: b.ball_mask((1, 1), 2)),
    ("adjacent", lambda b: b.adjacent((1, 1), (1, 2))),
    ("neighbours", lambda b: b.neighbours[(1, 1)]),
    ("neighbours", lambda b: b.neighbours.get((1, 1), ())),
    ("neighbour_sets", lambda b: list(b.neighbour_sets)),
    ("index", lambda b: b.index[(1, 1)]),
    ("cell_at", lambda b: list(b.cell_at)),
    ("nb_masks", lambda b: b.nb_masks[0]),
])
def test_table_cell_operations_raise(name, call) -> None:
    with pytest.raises(WarcouncilError) as info:
        call(TABLE)
    assert NO_CELLS in str(info.value) and f"Board.{name}" in str(info.value)
    assert "measured positions" in str(info.value)


def test_table_step_distance_and_line_raise() -> None:
    with pytest.raises(BoardCannotAnswer, match="no step distance"):
        TABLE.distance((0, 0), (1, 1))
    with pytest.raises(BoardCannotAnswer, match="no cells"):
        TABLE.line((0, 0), (1, 1))
    with pytest.raises(BoardCannotAnswer, match="hex boards only"):
        SQ.line((0, 0), (1, 1))
    with pytest.raises(BoardCannotAnswer, match="no cells: moves works"):
        TABLE.require("cells", "moves")
    SQ.require("cells", "moves")  # a grid has cells
    assert TABLE.measure((0, 0), (30, 40)) == 50.0  # what a table does answer


TABLE_SCENARIO = """\
name: a CCA pack on a measured table
system: cca
board: {grid: table, width: 120, depth: 80}
sides:
  carthaginian: {edge: north, command: 5}
  syracusan: {edge: south, command: 6}
to_move: syracusan
units:
  - {id: c1, side: carthaginian, type: medium_infantry, at: [30, 70]}
  - {id: s1, side: syracusan, type: heavy_infantry, at: [30, 10]}
  - {id: s2, side: syracusan, type: heavy_infantry, at: [60.5, 10]}
"""


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_moves_on_a_table_exits_2_saying_so(tmp_path: Path, json_flag) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TABLE_SCENARIO)
    result = CliRunner().invoke(main, ["moves", str(path), "--card", "Order Heavy Troops", "--order", "s1", *json_flag])
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    # not {"s1": []}: nothing, or under --json the error's own document (issue 30)
    assert result.stdout == "" if not json_flag else set(json.loads(result.stdout)) == {"error"}
    assert "a measured table has no cells: moves" in result.stderr
    assert "measured positions" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("json_flag", [[], ["--json"], ["--count"]])
def test_turns_on_a_table_exits_2_before_any_answer(tmp_path: Path, json_flag) -> None:
    path = tmp_path / "table.yaml"
    path.write_text(TABLE_SCENARIO)
    result = CliRunner().invoke(main, ["turns", str(path), "--card", "Order Heavy Troops", *json_flag])
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    # nothing before the error, not even the card's header (under --json: the error's document alone)
    assert result.stdout == "" if "--json" not in json_flag else set(json.loads(result.stdout)) == {"error"}
    assert "a measured table has no cells: turns" in result.stderr
