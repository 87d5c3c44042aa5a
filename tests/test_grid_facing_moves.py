"""Square grid with facing (systems.grid.facing): a footprint moved on the
board and the ways directly away from another, the geometry a push back, a
rout, a retirement and a follow up count their squares with
(systems/grid/aftermath.py). Exact squares."""

from __future__ import annotations

import pytest

from warcouncil.systems.grid.facing import AHEAD, FACINGS, Footprint, about_face


def test_a_step_ahead_for_each_facing():
    assert [AHEAD[f] for f in FACINGS] == [(0, -1), (1, 0), (0, 1), (-1, 0)]  # rows grow to the south
    # one square ahead of a unit's left front square, whatever its facing
    for f in FACINGS:
        fp = Footprint((3, 3), f)
        assert fp.square(0, 1) == (3 + AHEAD[f][0], 3 + AHEAD[f][1])
        assert fp.square(0, -1) == (3 + AHEAD[about_face(f)][0], 3 + AHEAD[about_face(f)][1])


def test_shifted_keeps_the_facing():
    fp = Footprint((2, 3), "south")  # (2,3) (1,3)
    assert fp.shifted(AHEAD["north"]) == Footprint((2, 2), "south")
    assert fp.shifted(AHEAD["east"], 3).squares == ((5, 3), (4, 3))
    assert fp.shifted((0, 0), 5) == fp


@pytest.mark.parametrize("other, me, ways", [
    (Footprint((2, 3), "north"), Footprint((3, 2), "south"), ["north"]),  # half a file aside, a rank ahead
    (Footprint((2, 3), "north"), Footprint((2, 5), "north"), ["south"]),
    (Footprint((0, 0), "north"), Footprint((4, 1), "north"), ["east"]),
    (Footprint((0, 0), "north"), Footprint((1, 1), "north"), ["east", "south"]),  # as far on each: both
    (Footprint((3, 0), "north"), Footprint((2, 1), "north"), ["west", "south"]),
    (Footprint((2, 2), "north"), Footprint((3, 2), "south"), list(FACINGS)),  # centres meet: any way
])
def test_the_ways_directly_away(other, me, ways):
    assert me.ways_away(other) == ways


@pytest.mark.parametrize("kind, squares, facing", [
    ("forward", ((2, 2), (3, 2)), "north"),
    ("oblique_left", ((1, 2), (2, 2)), "north"),
    ("oblique_right", ((3, 2), (4, 2)), "north"),
    ("drift_left", ((1, 3), (2, 3)), "north"),
    ("drift_right", ((3, 3), (4, 3)), "north"),
    ("turn_left", ((2, 3), (2, 2)), "west"),  # pivots on its left end, onto the square ahead of it
    ("turn_right", ((3, 2), (3, 3)), "east"),  # pivots on its right end
    ("about_face", ((3, 3), (2, 3)), "south"),  # the same squares
])
def test_one_step_in_the_units_frame(kind, squares, facing):
    """A unit at 2,3 facing north (2,3 3,3) after one step of each kind."""
    after = Footprint((2, 3), "north").stepped(kind)
    assert (after.squares, after.facing) == (squares, facing)


def test_moved_in_its_own_frame():
    fp = Footprint((2, 3), "south")  # (2,3) (1,3): its right is west, ahead is south
    assert fp.moved(0, -1) == Footprint((2, 2), "south")
    assert fp.moved(1, 2) == Footprint((1, 5), "south")
    with pytest.raises(ValueError):
        fp.stepped("wheel")
