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
