"""The Warmaster scenario shape (shared/spec/interface.md, "Warmaster"):

    system: warmaster
    board: {grid: table, width: 120, depth: 80}      # cm
    sides: [red, blue]          # optional (a list, or a mapping of names)
    to_move: red
    units:      [{id, side, type, at: [x, y], facing: DEG, formation: line|column, stands: 3, lost: 0}]
    characters: [{id, side, role: general|hero|wizard, command: N, at: [x, y], mounted: false}]
    terrain:    [{type, polygon: [[x, y], ...], dense: bool, impassable: bool}]

Every problem is a ``WarcouncilError`` at its ``file:line:column``.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import shapely

from ...errors import Location, WarcouncilError, closest
from . import measure as T
from ...kernel.scenario import value_loc
from ...world.schema import (
    MAX_PIECES, NAME, TITLE, NULL, AnyOf, Field, Record, choice_field, flag_field, id_problem, int_field,
    list_field, number_field,
)
from ...world.ydoc import YDict

ROLES = ("general", "hero", "wizard")
#: a character's unit type: the pack's `unit character { ... }` gives its move
CHARACTER_TYPE = "character"
FORMATIONS = T.FORMATIONS

# ---------------------------------------------------------------------------
# The file shapes: every field of a Warmaster scenario, turn log, plan and
# file of wanted orders, its type and its range, in one declared place (the
# kernel's ``Record``/``Field`` tables). A file is checked against its table
# as it is read (bad input: exit 2 at the field's place); the same tables
# give the JSON Schemas (``Warmaster.records``, ``scenario.json_schema``).

#: the largest coordinate or length, in cm (a table is a few metres)
MAX_CM = 10_000
#: a unit's stands, and its stands lost
MAX_STANDS = 100
#: a character's Command (the games: 7 to 10; 12 or more always succeeds)
MAX_COMMAND = 12


def _coord(v: Any) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
            and -MAX_CM <= v <= MAX_CM)


POINT = Field(f"a position [x, y] in cm (each from {-MAX_CM} to {MAX_CM})",
              lambda v: isinstance(v, list) and len(v) == 2 and all(_coord(x) for x in v),
              {"type": "array", "items": {"type": "number", "minimum": -MAX_CM, "maximum": MAX_CM},
               "minItems": 2, "maxItems": 2})
FACING = number_field(-360, 360, "an angle in degrees clockwise from north", default=0)
FORMATION = choice_field(FORMATIONS, default="line")
LENGTH = number_field(0, MAX_CM, "a length in cm", above=True)
ID_OR_IDS = AnyOf((NAME, list_field(NAME, 1, MAX_PIECES, "a list of piece ids")))

UNIT = Record("a unit", {
    "id": NAME, "side": NAME, "type": NAME, "at": POINT, "facing": FACING, "formation": FORMATION,
    "stands": int_field(1, MAX_STANDS, default=3), "lost": int_field(0, MAX_STANDS, default=0),
    "confused": flag_field(False),
}, required=("id", "side", "type", "at"), noun="unit", label="id")
CHARACTER = Record("a character", {
    "id": NAME, "side": NAME, "role": choice_field(ROLES), "command": int_field(0, MAX_COMMAND),
    "at": POINT, "mounted": flag_field(False), "facing": FACING,
}, required=("id", "side", "role", "command", "at"), noun="character", label="id")
TERRAIN = Record("a terrain piece", {
    "type": NAME, "polygon": list_field(POINT, 3, 1000, "a list of 3 to 1000 corners [x, y]"),
    "dense": flag_field(False), "impassable": flag_field(False),
}, required=("type", "polygon"), noun="terrain", label="type")
BOARD = Record("a measured table", {
    "grid": choice_field(("table",)), "width": LENGTH, "depth": LENGTH, "name": TITLE,
}, required=("grid", "width", "depth"), noun="board")
SIDES = AnyOf((list_field(NAME, 1, 16, "a list of side names"),
               Field("a mapping of side names", lambda v: isinstance(v, dict) and 1 <= len(v) <= 16
                     and all(id_problem(k) is None for k in v),
                     {"type": "object", "minProperties": 1, "maxProperties": 16})))
RULE_FILE = Field("a rule file's path", lambda v: isinstance(v, str) and bool(v.strip()) and "\x00" not in v,
                  {"type": "string", "minLength": 1})
SCENARIO = Record("a Warmaster scenario", {
    "system": NAME, "name": TITLE, "board": BOARD, "sides": SIDES, "to_move": NAME,
    "units": list_field(UNIT, 1, MAX_PIECES), "characters": list_field(CHARACTER, 0, MAX_PIECES, nullable=True),
    "terrain": list_field(TERRAIN, 0, MAX_PIECES, nullable=True),
    "rules": AnyOf((RULE_FILE, list_field(RULE_FILE, 0, 100), NULL)),
}, required=("system", "board", "to_move", "units"), noun="the scenario")

# where a piece is to stand after a move: a position, or a pose
POSE = Record("a pose", {"at": POINT, "facing": FACING, "formation": FORMATION}, noun="a pose")
DESTINATION = AnyOf((POINT, POSE))
#: an order's ``to``: one destination per unit (nothing: it stays), or one position for one unit; as
#: many as ``units`` may name (how many units a brigade holds is a rule's question, wm.brigade)
TO = AnyOf((POINT, list_field(AnyOf((POINT, POSE, NULL)), 1, MAX_PIECES, "a list of one destination per unit")))
ORDER = Record("an order", {
    "by": NAME, "units": ID_OR_IDS, "to": TO, "roll": int_field(2, 12, "a 2D6 total"),
    "blunder": int_field(1, 6, "the blunder table's D6"),
}, required=("by", "units"), noun="order")
PLAN_STEP = Record("an order", {"by": NAME, "units": ID_OR_IDS, "to": TO},
                   required=("by", "units"), noun="plan step",
                   refused={"roll": "a plan gives no rolls: its odds are what is asked"})
INITIATIVE = Record("an initiative move", {
    "unit": NAME, "action": choice_field(("charge", "evade")), "to": DESTINATION,
}, required=("unit", "action", "to"), noun="initiative move")
HOME_BACK = Record("a home back", {
    "unit": NAME, "toward": NAME, "roll": int_field(1, 6, "a D6 roll"), "to": DESTINATION,
}, required=("unit", "toward", "roll"), noun="home back")
CHARACTER_MOVE = Record("a character's move", {"piece": NAME, "to": DESTINATION},
                        required=("piece", "to"), noun="character move")
TURN = Record("a Warmaster turn log", {
    "initiative": list_field(INITIATIVE, 0, MAX_PIECES, nullable=True),
    "home_back": list_field(HOME_BACK, 0, MAX_PIECES, nullable=True),
    "orders": list_field(ORDER, 0, MAX_PIECES, nullable=True),
    "characters": list_field(CHARACTER_MOVE, 0, MAX_PIECES, nullable=True),
}, noun="the turn log")
PLAN = Record("a Warmaster plan", {"plan": list_field(PLAN_STEP, 0, MAX_PIECES)},
              required=("plan",), noun="the plan")
WANT = Record("a wanted order", {
    "units": ID_OR_IDS, "times": int_field(1, 3, default=1),
    "by": AnyOf((NAME, list_field(NAME, 1, MAX_PIECES, "a list of characters"))),
}, required=("units",), noun="wanted order")
WANTS = Record("a file of wanted orders", {
    "want": list_field(WANT, 1, MAX_PIECES), "objective": choice_field(("all", "expected"), default="all"),
}, required=("want",), noun="the wanted orders")
#: the files Warmaster reads, by kind (``System.records``)
RECORDS = {"scenario": SCENARIO, "turn": TURN, "plan": PLAN, "wants": WANTS}


@dataclass(frozen=True)
class Pose:
    """Where a piece stands: its centre (cm), facing (degrees clockwise
    from north) and formation."""

    at: tuple[float, float]
    facing: float = 0.0
    formation: str = "line"

    def __hash__(self) -> int:  # (the fields' hash, kept: a table's poses are hashed at every move)
        h = self.__dict__.get("_hash")
        if h is None:
            h = hash((self.at, self.facing, self.formation))
            object.__setattr__(self, "_hash", h)
        return h


@dataclass(frozen=True, eq=False)
class Piece:
    """A unit or a character of the scenario. ``role`` is ``unit`` or the
    character's role; ``places`` the file places of its keys."""

    id: str
    side: str
    role: str
    type: str
    pose: Pose
    stands: int = 1
    lost: int = 0
    command: int | None = None
    mounted: bool = False
    where: Location | None = None
    confused: bool = False
    places: dict = field(default_factory=dict)

    @property
    def is_unit(self) -> bool:
        return self.role == "unit"


@dataclass(frozen=True, eq=False)
class WarmasterScenario:
    name: str
    path: str
    system: str
    sides: dict
    to_move: str
    rules: tuple[str, ...]
    width: float
    depth: float
    units: tuple[Piece, ...]
    characters: tuple[Piece, ...]
    terrain: tuple[T.Area, ...]
    leaders: tuple = ()  # (no pieces under `leaders:`)

    @property
    def pieces(self) -> tuple[Piece, ...]:
        return self.units + self.characters

    @cached_property
    def by_id(self) -> dict[str, Piece]:
        """The pieces by id (made once: every table, plan and log reads it)."""
        return {p.id: p for p in self.pieces}


def read_scenario(data: Any, file: str) -> WarmasterScenario:
    """The scenario in ``data`` (a ``YDict`` with places), read from
    ``file``: every field checked by its table (``SCENARIO``), then what
    ties fields together (sides, ids, the pieces on the table)."""
    top = Location(file, 1, 1)
    if data is None:
        raise WarcouncilError("empty scenario file", top)
    data = SCENARIO.check(data, top)
    board = data["board"]
    width, depth = float(board["width"]), float(board["depth"])

    pieces: dict[str, Piece] = {}
    units = [_unit(m, pieces) for m in data["units"]]
    chars = [_character(m, pieces) for m in data.get("characters") or ()]

    seen_sides = list(dict.fromkeys(p.side for p in units + chars))
    sides_v = data.get("sides")
    sides = {str(s): None for s in (seen_sides if sides_v is None else sides_v)}
    for p in units + chars:
        if p.side not in sides:
            near = closest(p.side, sides)
            raise WarcouncilError(f"unknown side {p.side!r}", p.places.get("side", p.where),
                                  hint=f"did you mean {near[0]!r}?" if near else "sides: " + ", ".join(sides))
    to_move = data["to_move"]
    if to_move not in sides:
        near = closest(str(to_move), sides)
        raise WarcouncilError(f"unknown side {to_move!r} to move", value_loc(data, "to_move"),
                              hint=f"did you mean {near[0]!r}?" if near else "sides: " + ", ".join(sides))

    terrain = tuple(T.area(m["type"], [tuple(float(x) for x in c) for c in m["polygon"]],
                           TERRAIN.get(m, "dense"), TERRAIN.get(m, "impassable"), where=value_loc(m, "polygon"))
                    for m in data.get("terrain") or ())

    rules = data.get("rules") or ()
    if isinstance(rules, str):
        rules = (rules,)
    base = Path(file).parent
    rules = tuple(str(base / r) if not os.path.isabs(r) else r for r in rules)
    name = data.get("name") or Path(file).stem
    sc = WarmasterScenario(str(name), file, str(data["system"]), sides, str(to_move), rules, width, depth,
                           tuple(units), tuple(chars), terrain)
    for p in sc.pieces:
        if not T.on_table(footprint(p, p.pose), _Board(width, depth)):
            raise WarcouncilError(f"{p.id} does not stand wholly on the {width:g} x {depth:g} cm table",
                                  p.places.get("at", p.where))
    _no_overlap(sc.units)
    return sc


def _no_overlap(units: tuple[Piece, ...]) -> None:
    """No two units' footprints overlap (more than ``T.AREA_EPSILON``;
    units placed flush touch): the first unit, in file order, that overlaps
    an earlier one is refused at its ``at``, naming both (as C&C and the
    grid refuse two units on one place)."""
    shapes = [footprint(u, u.pose).shape for u in units]
    tree = shapely.STRtree(shapes)
    for i, u in enumerate(units):
        for j in sorted(int(j) for j in tree.query(shapes[i]) if j < i):
            if T.overlapping(shapes[j], shapes[i]):
                other = units[j]
                line = f" ({other.id} at line {other.where.line})" if other.where and other.where.line else ""
                raise WarcouncilError(f"units {other.id} and {u.id} overlap{line}", u.places.get("at", u.where))


def footprint(p: Piece, pose: Pose) -> T.Footprint:
    """A piece's footprint in ``pose``: a unit's stands, a character's one."""
    if p.is_unit:
        return T.unit_footprint(pose.at, pose.facing, p.stands, pose.formation)
    return T.character_footprint(pose.at, pose.facing)


class _Board:
    """Enough of a board for ``table.on_table``."""

    def __init__(self, width: float, depth: float):
        self.width, self.depth = width, depth

    def require(self, *a) -> None:
        pass


def _id(m: YDict, pieces: dict) -> str:
    pid = m["id"]
    if pid in pieces:
        raise WarcouncilError(f"duplicate piece id {pid!r}", value_loc(m, "id"))
    return pid


def _places(m: YDict) -> dict:
    return {k: value_loc(m, k) for k in m}


def _point(v: Any) -> tuple[float, float]:
    return (float(v[0]), float(v[1]))


def pose_of(v: Any, current: Pose) -> Pose:
    """A destination (checked by ``DESTINATION``): a position, keeping the
    piece's facing and formation, or a pose."""
    if isinstance(v, dict):
        return Pose(_point(v.get("at", list(current.at))), float(v.get("facing", current.facing)),
                    v.get("formation", current.formation))
    return Pose(_point(v), current.facing, current.formation)


def _unit(m: YDict, pieces: dict) -> Piece:
    pid = _id(m, pieces)
    if m["type"] == CHARACTER_TYPE:
        raise WarcouncilError(f"{CHARACTER_TYPE!r} is the characters' type, not a unit's", value_loc(m, "type"))
    g = UNIT.get
    p = Piece(pid, m["side"], "unit", m["type"], Pose(_point(m["at"]), float(g(m, "facing")), g(m, "formation")),
              g(m, "stands"), g(m, "lost"), where=m.where, places=_places(m), confused=g(m, "confused"))
    pieces[pid] = p
    return p


def _character(m: YDict, pieces: dict) -> Piece:
    pid = _id(m, pieces)
    g = CHARACTER.get
    p = Piece(pid, m["side"], m["role"], CHARACTER_TYPE, Pose(_point(m["at"]), float(g(m, "facing")), "line"), 1, 0,
              m["command"], g(m, "mounted"), m.where, _places(m))
    pieces[pid] = p
    return p
