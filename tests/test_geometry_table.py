"""The measured table (systems.warmaster.measure): footprints of 4 x 2 cm stands in line
and column at any facing, edge-to-edge distances rounded before thresholds,
contact within EPSILON (not shapely's ``touches``), terrain areas, nearest."""

from __future__ import annotations

import math

import pytest
import shapely
from hypothesis import given
from hypothesis import strategies as st

from warcouncil.errors import Location, WarcouncilError
from warcouncil.systems.warmaster import measure as T
from warcouncil.world.board import Board, BoardCannotAnswer, board_from_mapping, grid_cells

TABLE = board_from_mapping({"grid": "table", "width": 120, "depth": 80}, Location("t.yaml"))


def ahead(th: float) -> tuple[float, float]:
    """One cm ahead for a facing ``th`` degrees clockwise from north (y north)."""
    r = math.radians(th)
    return (math.sin(r), math.cos(r))


def right(th: float) -> tuple[float, float]:
    r = math.radians(th)
    return (math.cos(r), -math.sin(r))


def moved(at, direction, d):
    return (at[0] + d * direction[0], at[1] + d * direction[1])


A_AT = (50.0, 40.0)


# ------------------------------------------------------------ footprints


def test_line_and_column_bounds() -> None:
    assert T.unit_footprint(A_AT, 0, 3, "line").bounds == (44.0, 39.0, 56.0, 41.0)  # 12 wide, 2 deep
    assert T.unit_footprint(A_AT, 0, 3, "column").bounds == (48.0, 37.0, 52.0, 43.0)  # 4 wide, 6 deep
    assert T.unit_footprint(A_AT, 90, 3, "line").bounds == (49.0, 34.0, 51.0, 46.0)  # faces east
    assert T.unit_footprint(A_AT, 90, 3, "column").bounds == (47.0, 38.0, 53.0, 42.0)
    assert T.unit_footprint(A_AT, 180, 4, "line").bounds == (42.0, 39.0, 58.0, 41.0)
    assert T.unit_footprint(A_AT, 0, 2, "line").shape.area == pytest.approx(16.0)
    assert T.character_footprint(A_AT).bounds == (48.0, 39.0, 52.0, 41.0)  # one stand
    assert T.character_footprint(A_AT, 0, width=2, depth=2).bounds == (49.0, 39.0, 51.0, 41.0)


def test_stands_in_order() -> None:
    line = T.unit_footprint(A_AT, 0, 3, "line")  # left to right as it sees them: west to east
    assert [s.bounds for s in line.stands] == [(44, 39, 48, 41), (48, 39, 52, 41), (52, 39, 56, 41)]
    back = T.unit_footprint(A_AT, 180, 3, "line")  # facing south, its left is the east
    assert [s.bounds[0] for s in back.stands] == [52, 48, 44]
    column = T.unit_footprint(A_AT, 0, 3, "column")  # front (north) first
    assert [s.bounds[1] for s in column.stands] == [41, 39, 37]


@given(st.floats(0, 360), st.integers(1, 6), st.sampled_from(T.FORMATIONS))
def test_footprint_area_and_stands(facing: float, n: int, formation: str) -> None:
    fp = T.unit_footprint(A_AT, facing, n, formation)
    assert fp.shape.area == pytest.approx(8.0 * n)
    assert len(fp.stands) == n
    assert T.distance(fp, A_AT) == 0.0  # centred on at
    for a, b in zip(fp.stands, fp.stands[1:]):  # neighbouring stands touch, never overlap
        assert T.touching(a, b) and not T.overlapping(a, b)


@given(st.floats(-720, 720), st.floats(-200, 200), st.floats(-200, 200), st.integers(1, 6),
       st.sampled_from(T.FORMATIONS))
def test_footprints_are_shapelys_rotate_and_translate_to_the_bit(facing, x, y, n, formation) -> None:
    """The corners are computed directly, by the float operations
    ``shapely.affinity`` would do: every coordinate is the same float as
    turning and moving ``shapely.box`` with it."""
    from shapely import affinity

    def placed(box):
        turned = affinity.rotate(box, -facing, origin=(0.0, 0.0)) if facing % 360 else box
        return list(affinity.translate(turned, x, y).exterior.coords)

    local = T.unit_footprint((0.0, 0.0), 0, n, formation)  # unturned at (0, 0): the boxes themselves
    fp = T.unit_footprint((x, y), facing, n, formation)
    for got, box in zip((*fp.stands, fp.shape), (*local.stands, local.shape)):
        assert list(got.exterior.coords) == placed(shapely.box(*box.bounds))


@pytest.mark.parametrize("kwargs, fragment", [
    ({"stands": 0}, "stands"),
    ({"formation": "colum"}, "did you mean column"),
    ({"facing": "north"}, "facing"),
    ({"facing": math.nan}, "facing"),
    ({"at": (1, "x")}, "y must be a finite number"),
    ({"at": 5}, "pair [x, y]"),
])
def test_bad_footprints(kwargs, fragment) -> None:
    args = {"at": A_AT, **kwargs}
    with pytest.raises(WarcouncilError) as info:
        T.unit_footprint(**args)
    assert fragment in str(info.value)


# ------------------------------------------------------------ contact: distance <= EPSILON, not shapely's touches

# Two line units at the same facing, placed flush: side by side (centres one
# unit width apart along its right) and one behind the other (one depth apart
# along its front). On the table they touch; shapely's `touches` is exact on
# the computed corners, which miss each other by ~1e-15 cm, so it says False
# in the cases marked. That is why `touching` is distance <= EPSILON.
FLUSH = [
    # (facing, side by side?, what shapely's touches says)
    (30, False, False),
    (60, True, False),
    (60, False, False),
    (17.3, True, False),
    (45, True, True),
    (30, True, True),
]


@pytest.mark.parametrize("facing, beside, shapely_touches", FLUSH)
def test_rotated_flush_units_touch(facing, beside, shapely_touches) -> None:
    a = T.unit_footprint(A_AT, facing, 3, "line")
    at = moved(A_AT, right(facing), 12.0) if beside else moved(A_AT, ahead(facing), 2.0)
    b = T.unit_footprint(at, facing, 3, "line")
    assert T.touching(a, b) and T.touching(b, a)
    assert not T.overlapping(a, b)
    assert T.distance(a, b) == 0.0
    assert a.shape.touches(b.shape) is shapely_touches  # shapely's predicate: unreliable here


@given(st.floats(0, 360), st.booleans(), st.integers(1, 4))
def test_flush_at_any_facing_touches(facing: float, beside: bool, n: int) -> None:
    a = T.unit_footprint(A_AT, facing, n, "line")
    at = moved(A_AT, right(facing), 4.0 * n) if beside else moved(A_AT, ahead(facing), 2.0)
    assert T.touching(a, T.unit_footprint(at, facing, n, "line"))


def test_contact_tolerance() -> None:
    a = T.unit_footprint(A_AT, 30, 3, "line")
    near = T.unit_footprint(moved(A_AT, ahead(30), 2.0 + T.EPSILON / 2), 30, 3, "line")
    far = T.unit_footprint(moved(A_AT, ahead(30), 2.0 + 2 * T.EPSILON), 30, 3, "line")
    into = T.unit_footprint(moved(A_AT, ahead(30), 1.5), 30, 3, "line")
    assert T.touching(a, near) and not T.touching(a, far)
    assert T.touching(a, into) and T.overlapping(a, into) and not T.overlapping(a, near)


# ------------------------------------------------------------ thresholds: rounded first


@pytest.mark.parametrize("facing", [0, 30, 45, 60, 17.3, 123.4, 200, 333])
@pytest.mark.parametrize("beside", [False, True])
@pytest.mark.parametrize("gap, within_20, steps", [(19.9, True, 0), (20.0, True, 1), (39.9, False, 1), (40.0, False, 2)])
def test_distances_at_the_thresholds(facing, beside, gap, within_20, steps) -> None:
    a = T.unit_footprint(A_AT, facing, 3, "line")
    at = moved(A_AT, right(facing), 12.0 + gap) if beside else moved(A_AT, ahead(facing), 2.0 + gap)
    b = T.unit_footprint(at, facing, 3, "line")
    assert T.distance(a, b) == gap
    assert T.within(a, b, 20) is within_20
    assert T.within(a, b, gap) and not T.within(a, b, gap - 1e-5)
    assert T.full_steps(T.raw_distance(a, b), 20) == steps
    assert T.full_steps(T.distance(a, b), 20) == steps


def test_unrounded_distances_misjudge_thresholds() -> None:
    # Two line units side by side with a 20 cm gap, at several facings: as
    # computed, the gap is not always 20.0 (at 60 degrees it comes out as
    # 19.999999999999993), and the naive floor(d / 20) then says 0.
    pairs = [(T.unit_footprint(A_AT, th, 3, "line"), T.unit_footprint(moved(A_AT, right(th), 32.0), th, 3, "line"))
             for th in (30, 45, 60, 200, 333)]
    raws = [T.raw_distance(a, b) for a, b in pairs]
    assert any(r != 20.0 for r in raws)  # floating point noise, one way or the other
    assert any(math.floor(r / 20) == 0 for r in raws)  # the naive ⌊d/20⌋ gets 0 for some
    assert all(T.full_steps(r, 20) == 1 for r in raws)  # rounded first: 1 full 20 cm
    assert all(T.within(a, b, 20) and T.distance(a, b) == 20.0 for a, b in pairs)


def test_full_steps_and_rounding() -> None:
    assert [T.full_steps(d) for d in (0, 19.9, 20.0, 39.9, 40.0, 59.999, 60)] == [0, 0, 1, 1, 2, 2, 3]
    assert T.full_steps(19.999999999999993) == 1  # computed 20 cm
    assert T.full_steps(19.9999999999) == 1  # 1e-10 short: rounds to 20.000000
    assert T.full_steps(19.9999994) == 0  # 6e-7 short: 19.999999, a real shortfall at 1e-6 cm
    assert T.measured(19.9999999999) == 20.0 and T.measured(19.9999994) == 19.999999
    assert T.at_most(20.000000000003, 20) and not T.at_most(20.000001, 20)
    assert T.full_steps(61.0, 30) == 2
    with pytest.raises(WarcouncilError):
        T.full_steps(5, 0)
    with pytest.raises(WarcouncilError):
        T.full_steps(-1)
    with pytest.raises(WarcouncilError):
        T.full_steps(math.inf)


def test_computed_just_short_of_20_is_within_and_one_full_step() -> None:
    a = T.unit_footprint((50.0, 40.0), 0, 3, "line")  # north edge at y = 41
    b = T.unit_footprint((50.0, 41.0 + 1.0 + 20.0 - 1e-10), 0, 3, "line")
    raw = T.raw_distance(a, b)
    assert 19.9999999 < raw < 20.0 and math.floor(raw / 20) == 0
    assert T.within(a, b, 20) and T.full_steps(raw, 20) == 1 and T.distance(a, b) == 20.0


# ------------------------------------------------------------ terrain

WOOD = T.area("wood", [[20, 20], [40, 20], [40, 40], [20, 40]], dense=True)
RIVER = T.area("river", [[0, 60], [120, 60], [120, 64], [0, 64]], impassable=True)
HILL = T.area("hill", [[60, 0], [80, 0], [70, 15]])


@pytest.mark.parametrize("at, facing, formation, any_, all_", [
    ((30, 30), 0, "line", True, True),  # wholly inside
    ((30, 30), 45, "line", True, True),  # turned, still inside
    ((30, 30), 0, "column", True, True),
    ((40, 30), 0, "line", True, False),  # half in
    ((30, 40.5), 0, "line", True, False),  # a quarter of its depth in
    ((46, 30), 0, "line", False, False),  # flush against the edge: touching, not inside
    ((47, 30), 0, "line", False, False),  # outside
    ((30, 30), 90, "line", True, True),
])
def test_unit_in_a_wood(at, facing, formation, any_, all_) -> None:
    fp = T.unit_footprint(at, facing, 3, formation)
    assert T.in_area(fp, WOOD, "any") is any_
    assert T.in_area(fp, WOOD, "all") is all_
    assert T.in_area(fp, WOOD) is any_  # the default: UNCERTAIN in the reference, a parameter
    assert T.in_dense_terrain(fp, [HILL, WOOD], "all") is all_
    assert not T.in_dense_terrain(fp, [HILL], "any")


def test_flush_rotated_unit_is_not_in_a_rotated_wood() -> None:
    # a wood drawn as the footprint of a 3-stand line at 30 degrees, and a unit flush in front of it
    wood_fp = T.unit_footprint(A_AT, 30, 3, "line")
    wood = T.area("wood", list(wood_fp.shape.exterior.coords)[:-1], dense=True)
    flush = T.unit_footprint(moved(A_AT, ahead(30), 2.0), 30, 3, "line")
    assert not T.in_area(flush, wood, "any") and T.touching(flush, wood)
    assert T.in_area(wood_fp, wood, "all")  # the same shape is wholly inside


def test_impassable_in_the_way() -> None:
    assert T.impassable_in_the_way(T.unit_footprint((30, 62), 0), [WOOD, RIVER]) == (RIVER,)
    assert T.impassable_in_the_way(T.unit_footprint((30, 58), 0), [WOOD, RIVER]) == ()  # touching its bank


@pytest.mark.parametrize("points, fragment", [
    ([[0, 0], [10, 10], [10, 0], [0, 10]], "not a simple polygon"),  # a bow tie
    ([[0, 0], [10, 10]], "at least three"),
    ("abc", "at least three"),
    ([[0, 0], [10, 0], [20, 0]], "wood"),  # no area
    ([[0, 0], [10, 0], [5, "x"]], "finite number"),
])
def test_bad_areas(points, fragment) -> None:
    with pytest.raises(WarcouncilError) as info:
        T.area("wood", points, dense=True, where=Location("w.yaml", 2))
    assert fragment in str(info.value)


def test_bad_mode() -> None:
    with pytest.raises(WarcouncilError, match="unknown mode"):
        T.in_area(T.unit_footprint(A_AT), WOOD, "most")


# ------------------------------------------------------------ nearest and the table


def test_nearest_of_several() -> None:
    me = T.unit_footprint((50, 40), 0, 3, "line")  # y 39..41, x 44..56
    others = {
        "far": T.unit_footprint((50, 80), 0, 3, "line"),  # 38 cm north
        "east": T.unit_footprint((80, 40), 90, 3, "line"),  # x 79..81: 23 cm east
        "turned": T.unit_footprint((50, 60), 45, 2, "column"),
        "south": T.unit_footprint((50, 20), 180, 3, "column"),  # y 17..23: 16 cm south
    }
    dist, ids = T.nearest(me, others)
    assert ids == ("south",) and dist == 16.0
    assert T.distance(me, others["east"]) == 23.0
    tie = {"a": T.unit_footprint((50, 61), 0), "b": T.unit_footprint((50, 19), 180), "c": others["far"]}
    assert T.nearest(me, tie) == (19.0, ("a", "b"))  # ties keep the given order
    assert T.nearest(me, [("b", tie["b"]), ("a", tie["a"])]) == (19.0, ("b", "a"))
    assert T.nearest(me, {}) == (None, ())


def test_distance_to_a_character_and_a_point() -> None:
    gen = T.character_footprint((50, 70))  # y 69..71
    unit = T.unit_footprint((50, 40), 0, 3, "column")  # y 37..43
    assert T.distance(gen, unit) == 26.0 and T.full_steps(T.distance(gen, unit)) == 1
    assert T.distance(unit, (50, 50)) == 7.0
    assert T.within(gen, unit, 26) and not T.within(gen, unit, 25.999)


def test_on_the_table() -> None:
    assert T.on_table(T.unit_footprint((6, 1), 0, 3), TABLE)
    assert not T.on_table(T.unit_footprint((5, 1), 0, 3), TABLE)
    assert not T.on_table(T.unit_footprint((6, 1), 30, 3), TABLE)
    square = Board("sq", "square", 4, 4, grid_cells("square", 4, 4))
    with pytest.raises(BoardCannotAnswer, match="needs a measured table"):
        T.on_table(T.unit_footprint((6, 1)), square)


def test_deterministic() -> None:
    a = [T.raw_distance(T.unit_footprint(A_AT, 33.3, 3), T.unit_footprint((71.2, 55.5), 271.1, 2, "column"))
         for _ in range(3)]
    assert a[0] == a[1] == a[2]
