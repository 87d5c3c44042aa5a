"""The measured table: footprints, distances, contact and terrain, in
centimetres, with shapely (game-independent; a pack names the rules).

Coordinates: ``x`` grows to the east, ``y`` to the north (``y`` from the
south edge, ``shared/spec/interface.md`` "Warmaster"). A facing is in
degrees clockwise from north (0 north, 90 east).

Footprints (:class:`Footprint`): a stand is a ``STAND_WIDTH`` x
``STAND_DEPTH`` = 4 cm x 2 cm base (interface.md: "Every stand is a 4 cm x
2 cm base"). A unit of N stands in ``line`` stands side by side (4N wide, 2
deep); in ``column`` one behind the other (4 wide, 2N deep); either way
centred on ``at`` and turned by its facing (:func:`unit_footprint`). A
character is one stand (interface.md: "Characters are one stand each"); the
reference marks no other size, so :func:`character_footprint` takes the
base size as parameters defaulting to a stand.

Distances are edge to edge: the shortest distance between two footprints
(shapely's ``distance``), which is also the distance to the nearest stand.

Tolerances, and why
-------------------
Floating point makes a distance that is 20 cm on the table come out as
19.999999999999996 or 20.000000000000004, and two rotated bases placed flush
as 3e-15 apart (or overlapping by as much). So:

* :data:`MEASURE_DECIMALS` = 6: every distance is rounded to 1e-6 cm
  (:func:`measured`) before it is compared with a threshold or divided into
  steps. Thresholds and steps are compared in whole 1e-6 cm units (integers),
  so ``within(…, 20)`` and ``full_steps(…, 20)`` are exact: 19.9 gives 0 full
  steps, 20.0 gives 1, 39.9 gives 1, and a computed 19.999999999 gives 1 (it
  *is* 20 cm). 1e-6 cm is ten thousand times finer than anyone measures a
  table and some million times coarser than the arithmetic noise.
* :data:`EPSILON` = 0.01 cm (0.1 mm): two footprints are in contact
  (:func:`touching`) when their distance is at most this. Not shapely's
  ``touches``: that asks for boundaries meeting with interiors disjoint, and
  is False for most rotated rectangles placed flush (their computed edges
  miss each other by 1e-15 cm, one way or the other). 0.1 mm is far below a
  gap a player could see, and lets a scenario give the position of a rotated
  unit placed flush against another with three decimals.
* :data:`AREA_EPSILON` = 1e-6 cm²: an overlap of less area than this (the
  sliver two flush rotated edges can make) is no overlap, for
  :func:`overlapping` and :func:`in_area`.

Every answer is deterministic: the same inputs give the same floats, and
ties (:func:`nearest`) keep the candidates' given order.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

import shapely
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.validation import explain_validity

from warcouncil.errors import Location, WarcouncilError, closest

from ...world.board import Board

#: A stand's base: 4 cm wide, 2 cm deep (interface.md, "Warmaster").
STAND_WIDTH = 4.0
STAND_DEPTH = 2.0
#: A character is one stand (interface.md); the size is a parameter of
#: :func:`character_footprint`, by default a stand's.
CHARACTER_WIDTH = STAND_WIDTH
CHARACTER_DEPTH = STAND_DEPTH

#: Distances are rounded to this many decimals of a cm before any threshold.
MEASURE_DECIMALS = 6
_UNITS = 10**MEASURE_DECIMALS  # whole units of 1e-6 cm
#: Contact tolerance (cm): footprints at most this far apart touch.
EPSILON = 0.01
#: Overlaps of smaller area (cm²) than this are arithmetic noise.
AREA_EPSILON = 1e-6

FORMATIONS = ("line", "column")
#: How much of a footprint must lie in an area for "within" the area:
#: ``any`` (some part of it, more than touching the edge) or ``all`` (all of
#: it). The reference (shared/reference/warmaster.md §6, "the unit is in
#: dense terrain") does not say: UNCERTAIN. ``any`` is the default; a pack
#: should make its choice a default define.
IN_AREA_MODES = ("any", "all")
IN_AREA_DEFAULT = "any"

Point2 = tuple[float, float]


# -- measuring ----------------------------------------------------------------


def _units(d: float) -> int:
    """``d`` cm in whole 1e-6 cm units (rounded half to even)."""
    if not math.isfinite(d):
        raise WarcouncilError(f"a distance must be a finite number of cm, not {d!r}")
    return round(d * _UNITS)


def measured(d: float) -> float:
    """``d`` rounded to :data:`MEASURE_DECIMALS` decimals (cm)."""
    return _units(d) / _UNITS


def at_most(d: float, limit: float) -> bool:
    """Is the distance ``d`` at most ``limit`` once both are rounded
    (exactly, in whole 1e-6 cm)?"""
    return _units(d) <= _units(limit)


def full_steps(d: float, step: float = 20.0) -> int:
    """How many full ``step``s the distance ``d`` holds: ⌊d / step⌋ of the
    rounded distance, in integers (0 to 19.9 cm: 0; 20 to 39.9: 1; …)."""
    s = _units(step)
    if s <= 0:
        raise WarcouncilError(f"a step must be a positive distance, not {step!r}")
    if d < 0:
        raise WarcouncilError(f"a distance cannot be negative: {d!r}")
    return _units(d) // s


# -- footprints ------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Footprint:
    """Something on the table: its ``stands`` (one polygon each, front to
    back or left to right), their union ``shape``, where it stands (``at``,
    its centre) and its ``facing`` (degrees clockwise from north)."""

    at: Point2
    facing: float
    stands: tuple[Polygon, ...]
    shape: Polygon

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(min x, min y, max x, max y)``, rounded like a distance."""
        return tuple(measured(v) for v in self.shape.bounds)  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"Footprint(at={self.at}, facing={self.facing}, stands={len(self.stands)})"


def _number(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise WarcouncilError(f"{what} must be a finite number, not {v!r}")
    return float(v)


def _point(at: Any, what: str = "a position") -> Point2:
    try:
        x, y = at
    except (TypeError, ValueError):
        raise WarcouncilError(f"{what} must be a pair [x, y] in cm, not {at!r}") from None
    return (_number(x, f"{what}'s x"), _number(y, f"{what}'s y"))


def _turn(facing: float) -> tuple[float, float]:
    """cos and sin of turning ``facing`` degrees clockwise, exactly as
    ``shapely.affinity.rotate`` computes them (degrees to radians as
    ``angle * pi / 180``, values under 2.5e-16 made 0)."""
    angle = -facing * math.pi / 180.0
    c, s = math.cos(angle), math.sin(angle)
    return (0.0 if abs(c) < 2.5e-16 else c), (0.0 if abs(s) < 2.5e-16 else s)


def _placed_boxes(boxes: Sequence[tuple[float, float, float, float]], at: Point2, facing: float) -> list:
    """The boxes ``(min x, min y, max x, max y)`` drawn around (0, 0), turned
    and moved as ``shapely.affinity`` turns (about (0, 0), anticlockwise for
    positive angles, hence the minus) and moves ``shapely.box(*b)``: the same
    corners in the same order, by the same float operations (``rotate``
    then ``translate``, each ``a*x + b*y + offset``), so the same floats,
    made as polygons by one ``shapely.polygons`` call instead of two affine
    transforms a polygon (a tenth of the time)."""
    tx, ty = at
    turn = facing % 360
    c, s = _turn(facing) if turn else (1.0, 0.0)
    rings = []
    for x0, y0, x1, y1 in boxes:
        ring = []
        for x, y in ((x1, y0), (x1, y1), (x0, y1), (x0, y0), (x1, y0)):
            if turn:
                x, y = c * x + -s * y + 0.0, s * x + c * y + 0.0
            ring.append((1.0 * x + 0.0 * y + tx, 0.0 * x + 1.0 * y + ty))
        rings.append(ring)
    return list(shapely.polygons(rings))


def _footprint(at: Any, facing: Any, boxes: Sequence[tuple[float, float, float, float]],
               whole: tuple[float, float, float, float]) -> Footprint:
    p = _point(at, "a footprint's at")
    f = _number(facing, "a facing (degrees clockwise from north)")
    *stands, shape = _placed_boxes([*boxes, whole], p, f)
    return Footprint(p, f, tuple(stands), shape)


def unit_footprint(at: Any, facing: Any = 0.0, stands: int = 3, formation: str = "line",
                   stand_width: float = STAND_WIDTH, stand_depth: float = STAND_DEPTH) -> Footprint:
    """A unit of ``stands`` stands in ``line`` (side by side, left to right
    as it sees them) or ``column`` (one behind the other, front first),
    centred on ``at`` and facing ``facing`` degrees clockwise from north."""
    if isinstance(stands, bool) or not isinstance(stands, int) or stands < 1:
        raise WarcouncilError(f"a unit needs a whole number of stands ≥ 1, not {stands!r}")
    if formation not in FORMATIONS:
        near = closest(str(formation), FORMATIONS)
        raise WarcouncilError(f"unknown formation {formation!r}; expected {' or '.join(FORMATIONS)}",
                              hint=f"did you mean {' or '.join(near)}?" if near else None)
    w, d, n = _number(stand_width, "a stand's width"), _number(stand_depth, "a stand's depth"), stands
    if w <= 0 or d <= 0:
        raise WarcouncilError("a stand's width and depth must be positive")
    if formation == "line":
        left = -w * n / 2
        boxes = [(left + w * i, -d / 2, left + w * (i + 1), d / 2) for i in range(n)]
        whole = (left, -d / 2, -left, d / 2)
    else:
        front = d * n / 2
        boxes = [(-w / 2, front - d * (i + 1), w / 2, front - d * i) for i in range(n)]
        whole = (-w / 2, -front, w / 2, front)
    return _footprint(at, facing, boxes, whole)


def character_footprint(at: Any, facing: Any = 0.0, width: float = CHARACTER_WIDTH,
                        depth: float = CHARACTER_DEPTH) -> Footprint:
    """A character: one base, by default a stand's size, centred on ``at``."""
    return unit_footprint(at, facing, 1, "line", width, depth)


Shape = Union[Footprint, BaseGeometry, Point2]


def _geometry(x: Shape) -> BaseGeometry:
    if isinstance(x, Footprint):
        return x.shape
    if isinstance(x, Area):
        return x.polygon
    if isinstance(x, BaseGeometry):
        return x
    return Point(_point(x))


def raw_distance(a: Shape, b: Shape) -> float:
    """shapely's edge-to-edge distance, unrounded (0 when they meet or
    overlap). Compare with :func:`distance`, not this."""
    return float(_geometry(a).distance(_geometry(b)))


def distance(a: Shape, b: Shape) -> float:
    """The edge-to-edge distance between two footprints (or a footprint and
    a point or polygon), rounded to :data:`MEASURE_DECIMALS` decimals."""
    return measured(raw_distance(a, b))


def within(a: Shape, b: Shape, limit: float) -> bool:
    """"Within ``limit`` cm": the rounded edge-to-edge distance ≤ ``limit``."""
    return at_most(raw_distance(a, b), limit)


def touching(a: Shape, b: Shape, epsilon: float = EPSILON) -> bool:
    """In contact: edge-to-edge distance ≤ ``epsilon`` (:data:`EPSILON`).
    Overlapping footprints touch too (see :func:`overlapping`)."""
    return raw_distance(a, b) <= epsilon


def overlapping(a: Shape, b: Shape) -> bool:
    """Do they share more than :data:`AREA_EPSILON` cm² of area?"""
    return _geometry(a).intersection(_geometry(b)).area > AREA_EPSILON


def nearest(a: Shape, candidates: Mapping[str, Shape] | Iterable[tuple[str, Shape]]
            ) -> tuple[float | None, tuple[str, ...]]:
    """The rounded distance from ``a`` to the nearest of ``candidates`` (ids
    to footprints) and every id at that distance, in the given order
    (``(None, ())`` when there are none). Ties are left to the caller."""
    items = candidates.items() if isinstance(candidates, Mapping) else candidates
    best: int | None = None
    ids: list[str] = []
    for cid, shape in items:
        u = _units(raw_distance(a, shape))
        if best is None or u < best:
            best, ids = u, [cid]
        elif u == best:
            ids.append(cid)
    return (None if best is None else best / _UNITS), tuple(ids)


def on_table(fp: Shape, board: Board) -> bool:
    """Does ``fp`` lie wholly on the measured table ``board`` (to within
    :data:`AREA_EPSILON` cm² of area)?"""
    board.require("footprints", "a footprint on a measured table")
    table = shapely.box(0.0, 0.0, float(board.width), float(board.depth))
    return _geometry(fp).difference(table).area <= AREA_EPSILON


def first_contact(shape_at: Callable[[float, float], Shape], start: Point2, toward: Point2, other: Shape,
                  reach: float, away: bool = False) -> Point2 | None:
    """The offset along the straight line from ``start`` toward ``toward``
    at which a footprint (``shape_at(x, y)``: standing at ``(x, y)``) first
    touches ``other``, to the thousandth of a cm, the last that does not
    overlap it; ``reach`` along the line if it touches no sooner (None when
    it touches already, or the two points are one); ``away``: ``reach``
    straight away from ``toward``."""
    (x0, y0), (x1, y1) = start, toward
    length = math.hypot(x1 - x0, y1 - y0)
    if length == 0:
        return None
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    if away:
        return (math.trunc(-ux * reach * 1000) / 1000, math.trunc(-uy * reach * 1000) / 1000)

    def gap(d: float) -> float:
        return raw_distance(shape_at(x0 + ux * d, y0 + uy * d), other)

    if gap(0) <= EPSILON:
        return None
    lo, hi = 0.0, min(length, reach + 1)  # apart at lo
    if gap(min(hi, reach)) > 0:  # (no contact within reach: as far as it goes)
        return (math.trunc(ux * reach * 1000) / 1000, math.trunc(uy * reach * 1000) / 1000)
    while hi - lo > 1e-4:
        mid = (lo + hi) / 2
        if gap(mid) > 0:
            lo = mid
        else:
            hi = mid
    # (rounded to the mm's thousandth, the last that does not overlap)
    for back in range(0, 50):
        d = lo - back * 1e-3
        o = (round(ux * d, 3), round(uy * d, 3))
        fp = shape_at(x0 + o[0], y0 + o[1])
        if not overlapping(fp, other) and touching(fp, other):
            return o if math.hypot(*o) <= reach else None
    return None  # pragma: no cover - (a contact always rounds within a few steps)


# -- terrain -------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Area:
    """A piece of terrain on the table: a polygon (cm) with its ``type``
    (e.g. ``wood``) and whether it is ``dense`` or ``impassable``."""

    type: str
    polygon: Polygon
    dense: bool = False
    impassable: bool = False

    def __repr__(self) -> str:
        return f"Area({self.type!r}, dense={self.dense}, impassable={self.impassable})"


def area(type: str, points: Any, dense: bool = False, impassable: bool = False,
         where: Location | None = None) -> Area:
    """A terrain area from its corners ``[[x, y], ...]`` (at least three; a
    simple polygon with some area, else a ``WarcouncilError``)."""
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence) or len(points) < 3:
        raise WarcouncilError(f"terrain {type!r} needs a polygon of at least three [x, y] corners", where)
    corners = [_point(p, f"a corner of terrain {type!r}") for p in points]
    poly = Polygon(corners)
    if not poly.is_valid:
        raise WarcouncilError(f"terrain {type!r}: not a simple polygon ({explain_validity(poly)})", where)
    if poly.area <= AREA_EPSILON:
        raise WarcouncilError(f"terrain {type!r}: its polygon has no area", where)
    return Area(str(type), poly, bool(dense), bool(impassable))


def in_area(fp: Shape, where: Area | Polygon, mode: str = IN_AREA_DEFAULT) -> bool:
    """Is ``fp`` within the area? ``mode`` (:data:`IN_AREA_MODES`): ``any``
    = some of it lies inside (an overlap of more than :data:`AREA_EPSILON`
    cm²; touching the edge is not inside); ``all`` = all of it lies inside
    (what lies outside is at most :data:`AREA_EPSILON` cm²). Which one a
    rule means is the pack's choice (UNCERTAIN for "in dense terrain")."""
    if mode not in IN_AREA_MODES:
        raise WarcouncilError(f"unknown mode {mode!r} for within an area; expected {' or '.join(IN_AREA_MODES)}")
    g, poly = _geometry(fp), _geometry(where)
    if mode == "any":
        return g.intersection(poly).area > AREA_EPSILON
    return g.difference(poly).area <= AREA_EPSILON


def in_dense_terrain(fp: Shape, areas: Iterable[Area], mode: str = IN_AREA_DEFAULT) -> bool:
    """Is ``fp`` within some dense area (``in_area`` with ``mode``)?"""
    return any(a.dense and in_area(fp, a, mode) for a in areas)


def impassable_in_the_way(fp: Shape, areas: Iterable[Area]) -> tuple[Area, ...]:
    """The impassable areas ``fp`` overlaps (more than touching)."""
    return tuple(a for a in areas if a.impassable and in_area(fp, a, "any"))
