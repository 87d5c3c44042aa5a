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
from typing import Any

from ...errors import Location, WarcouncilError, closest
from ...solver import table as T
from ...solver.scenario import YDict, YList

ROLES = ("general", "hero", "wizard")
FORMATIONS = T.FORMATIONS
_TOP = ("system", "name", "board", "sides", "to_move", "units", "characters", "terrain", "rules")
_UNIT = ("id", "side", "type", "at", "facing", "formation", "stands", "lost")
_CHAR = ("id", "side", "role", "command", "at", "mounted", "facing")
_TERRAIN = ("type", "polygon", "dense", "impassable")


@dataclass(frozen=True)
class Pose:
    """Where a piece stands: its centre (cm), facing (degrees clockwise
    from north) and formation."""

    at: tuple[float, float]
    facing: float = 0.0
    formation: str = "line"


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


def _loc(m: YDict, key: str) -> Location:
    return m.value_where.get(key, m.where) if isinstance(m, YDict) else None


def _items(seq: Any, what: str, where: Location) -> list[tuple[Any, Location]]:
    if seq is None:
        return []
    if not isinstance(seq, YList):
        raise WarcouncilError(f"`{what}` must be a list", where)
    return [(v, seq.item_where[i] if i < len(seq.item_where) else seq.where) for i, v in enumerate(seq)]


def _mapping(v: Any, what: str, where: Location) -> YDict:
    if not isinstance(v, YDict):
        raise WarcouncilError(f"{what} must be a mapping", where)
    return v


def _keys(m: YDict, allowed: tuple[str, ...], what: str) -> None:
    for k in m:
        if k not in allowed:
            near = closest(str(k), allowed)
            raise WarcouncilError(f"unknown key {k!r} in {what}", m.key_where.get(k, m.where),
                                  hint=(f"did you mean {near[0]!r}? " if near else "") + "keys: " + ", ".join(allowed))


def _need(m: YDict, key: str, what: str) -> Any:
    if key not in m:
        raise WarcouncilError(f"{what} needs `{key}`", m.where)
    return m[key]


def number(v: Any, what: str, where: Location, positive: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise WarcouncilError(f"{what} must be a number, not {v!r}", where)
    if positive and v <= 0:
        raise WarcouncilError(f"{what} must be positive, not {v!r}", where)
    return float(v)


def whole(v: Any, what: str, where: Location, low: int = 0, high: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or v < low or (high is not None and v > high):
        rng = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise WarcouncilError(f"{what} must be a whole number {rng}, not {v!r}", where)
    return v


def point(v: Any, what: str, where: Location) -> tuple[float, float]:
    if not isinstance(v, (list, tuple)) or len(v) != 2:
        raise WarcouncilError(f"{what} must be a pair [x, y] in cm, not {v!r}", where)
    return (number(v[0], f"{what}'s x", where), number(v[1], f"{what}'s y", where))


def flag(v: Any, what: str, where: Location) -> bool:
    if not isinstance(v, bool):
        raise WarcouncilError(f"{what} must be true or false, not {v!r}", where)
    return v


def formation(v: Any, where: Location) -> str:
    if v not in FORMATIONS:
        near = closest(str(v), FORMATIONS)
        raise WarcouncilError(f"unknown formation {v!r}; expected line or column", where,
                              hint=f"did you mean {near[0]!r}?" if near else None)
    return v


def read_scenario(data: Any, file: str) -> WarmasterScenario:
    """The scenario in ``data`` (a ``YDict`` with places), read from ``file``."""
    top = Location(file, 1, 1)
    data = _mapping(data, "a Warmaster scenario", top)
    _keys(data, _TOP, "the scenario")
    system = _need(data, "system", "the scenario")
    board = _mapping(_need(data, "board", "the scenario"), "`board`", _loc(data, "board"))
    _keys(board, ("grid", "width", "depth", "name"), "`board`")
    if board.get("grid") != "table":
        raise WarcouncilError("a Warmaster board is a measured table: `grid: table`", _loc(board, "grid"))
    width = number(_need(board, "width", "`board`"), "the table's width", _loc(board, "width"), positive=True)
    depth = number(_need(board, "depth", "`board`"), "the table's depth", _loc(board, "depth"), positive=True)

    pieces: dict[str, Piece] = {}
    units, chars = [], []
    for item, where in _items(data.get("units"), "units", _loc(data, "units")):
        units.append(_unit(_mapping(item, "a unit", where), where, pieces))
    for item, where in _items(data.get("characters"), "characters", _loc(data, "characters")):
        chars.append(_character(_mapping(item, "a character", where), where, pieces))
    if not units:
        raise WarcouncilError("a Warmaster scenario needs `units`", data.where)

    seen_sides = list(dict.fromkeys(p.side for p in units + chars))
    sides_v = data.get("sides")
    if sides_v is None:
        sides = {s: None for s in seen_sides}
    elif isinstance(sides_v, YDict):
        sides = {str(k): None for k in sides_v}
    elif isinstance(sides_v, YList) and all(isinstance(s, str) for s in sides_v):
        sides = {s: None for s in sides_v}
    else:
        raise WarcouncilError("`sides` must be a list of side names or a mapping", _loc(data, "sides"))
    for p in units + chars:
        if p.side not in sides:
            near = closest(p.side, sides)
            raise WarcouncilError(f"unknown side {p.side!r}", p.places.get("side", p.where),
                                  hint=f"did you mean {near[0]!r}?" if near else "sides: " + ", ".join(sides))
    to_move = _need(data, "to_move", "the scenario")
    if not isinstance(to_move, str):
        raise WarcouncilError("`to_move` is the name of a side", _loc(data, "to_move"))
    if to_move not in sides:
        near = closest(str(to_move), sides)
        raise WarcouncilError(f"unknown side {to_move!r} to move", _loc(data, "to_move"),
                              hint=f"did you mean {near[0]!r}?" if near else "sides: " + ", ".join(sides))

    terrain = []
    for item, where in _items(data.get("terrain"), "terrain", _loc(data, "terrain")):
        m = _mapping(item, "a terrain piece", where)
        _keys(m, _TERRAIN, "a terrain piece")
        kind = _need(m, "type", "a terrain piece")
        if not isinstance(kind, str):
            raise WarcouncilError("a terrain type is a name", _loc(m, "type"))
        poly = _need(m, "polygon", f"terrain {kind!r}")
        pts = [point(p, f"a corner of terrain {kind!r}", _loc(m, "polygon")) for p in
               (poly if isinstance(poly, list) else [poly])]
        terrain.append(T.area(kind, pts, flag(m.get("dense", False), "`dense`", _loc(m, "dense")),
                              flag(m.get("impassable", False), "`impassable`", _loc(m, "impassable")),
                              where=_loc(m, "polygon")))

    rules = data.get("rules", ())
    if isinstance(rules, str):
        rules = (rules,)
    if not isinstance(rules, (list, tuple)) or not all(isinstance(r, str) for r in rules):
        raise WarcouncilError("`rules` must be a list of rule files", _loc(data, "rules"))
    base = Path(file).parent
    rules = tuple(str(base / r) if not os.path.isabs(r) else r for r in rules)
    name = data.get("name") or Path(file).stem
    sc = WarmasterScenario(str(name), file, str(system), sides, str(to_move), rules, width, depth,
                           tuple(units), tuple(chars), tuple(terrain))
    for p in sc.pieces:
        if not T.on_table(footprint(p, p.pose), _Board(width, depth)):
            raise WarcouncilError(f"{p.id} does not stand wholly on the {width:g} x {depth:g} cm table",
                                  p.places.get("at", p.where))
    return sc


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


def _id(m: YDict, pieces: dict, what: str) -> str:
    pid = _need(m, "id", what)
    if not isinstance(pid, str) or not pid:
        raise WarcouncilError(f"{what}'s id must be a name", _loc(m, "id"))
    if pid in pieces:
        raise WarcouncilError(f"duplicate piece id {pid!r}", _loc(m, "id"))
    return pid


def _side(m: YDict, what: str) -> str:
    s = _need(m, "side", what)
    if not isinstance(s, str):
        raise WarcouncilError("a side is a name", _loc(m, "side"))
    return s


def _places(m: YDict) -> dict:
    return {k: _loc(m, k) for k in m}


def _unit(m: YDict, where: Location, pieces: dict) -> Piece:
    _keys(m, _UNIT, "a unit")
    pid = _id(m, pieces, "a unit")
    kind = _need(m, "type", f"unit {pid}")
    if not isinstance(kind, str):
        raise WarcouncilError("a unit type is a name", _loc(m, "type"))
    at = point(_need(m, "at", f"unit {pid}"), f"{pid}'s position", _loc(m, "at"))
    facing = number(m.get("facing", 0), f"{pid}'s facing (degrees clockwise from north)", _loc(m, "facing"))
    form = formation(m.get("formation", "line"), _loc(m, "formation"))
    stands = whole(m.get("stands", 3), f"{pid}'s stands", _loc(m, "stands"), low=1, high=100)
    lost = whole(m.get("lost", 0), f"{pid}'s lost stands", _loc(m, "lost"), low=0, high=100)
    p = Piece(pid, _side(m, f"unit {pid}"), "unit", kind, Pose(at, facing, form), stands, lost,
              where=where, places=_places(m))
    pieces[pid] = p
    return p


def _character(m: YDict, where: Location, pieces: dict) -> Piece:
    _keys(m, _CHAR, "a character")
    pid = _id(m, pieces, "a character")
    role = _need(m, "role", f"character {pid}")
    if role not in ROLES:
        near = closest(str(role), ROLES)
        raise WarcouncilError(f"unknown character role {role!r}; expected general, hero or wizard",
                              _loc(m, "role"), hint=f"did you mean {near[0]!r}?" if near else None)
    command = whole(_need(m, "command", f"character {pid}"), f"{pid}'s Command", _loc(m, "command"), 0, 12)
    at = point(_need(m, "at", f"character {pid}"), f"{pid}'s position", _loc(m, "at"))
    facing = number(m.get("facing", 0), f"{pid}'s facing", _loc(m, "facing"))
    mounted = flag(m.get("mounted", False), "`mounted`", _loc(m, "mounted"))
    p = Piece(pid, _side(m, f"character {pid}"), role, "character", Pose(at, facing, "line"), 1, 0,
              command, mounted, where, _places(m))
    pieces[pid] = p
    return p
