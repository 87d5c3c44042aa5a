"""The square-grid ancients scenario (``system: grid-ancients``), read with
places: every problem is a ``WarcouncilError`` at ``file:line:column``.

    system: grid-ancients
    board: {grid: square, width: 12, depth: 8}
    sides:
      romans: {command_points: {attack: 2, movement: 2, defence: 1, strategy: 1, generalship: 2},
               fatigued: false, break_point: 12}
    to_move: romans
    units:
      - {id: r1, side: romans, type: formed_infantry, at: [4, 6], facing: north,
         combat: 4, ranged: 0, manoeuvre: 4, discipline: 7, disordered: false,
         characteristics: [drilled, battle_trained], attachments: [praetorian_cohort]}
    generals: [{id: caesar, side: romans, attached_to: r1, generalship: 2}]
    terrain: [{at: [5, 3], type: rough}]

``at`` is a unit's left front square as the unit sees it; a unit is two
squares wide and one deep (``solver.facing.Footprint``). Beyond the
contract's keys a unit may say ``off_table: true``, and a side
``homunculus_cancelled: true`` (its once-per-battle cancel is spent).
Unit types, characteristics, attachments and terrain are checked against
the pack when the engine is made (they are the pack's words).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import Location, WarcouncilError, closest
from ...solver.board import board_from_mapping
from ...solver.facing import Footprint, check_facing

POOLS = ("attack", "movement", "defence", "strategy", "generalship")

_TOP = ("system", "board", "sides", "to_move", "units", "name", "generals", "terrain", "rules")
_SIDE = ("command_points", "fatigued", "break_point", "edge", "homunculus_cancelled")
_UNIT = ("id", "side", "type", "at", "facing", "combat", "ranged", "manoeuvre", "discipline", "disordered",
         "characteristics", "attachments", "off_table")
_GENERAL = ("id", "side", "attached_to", "generalship")
_TERRAIN = ("at", "type")


@dataclass
class GridSide:
    name: str
    command_points: dict
    fatigued: bool
    break_point: int | None
    edge: str | None
    homunculus_cancelled: bool
    where: Location | None = None
    # the kernel's Setting reads these two (unused by this system)
    command: int = 0


@dataclass
class GridUnit:
    id: str
    side: str
    type: str
    at: tuple
    facing: str
    combat: int
    ranged: int
    manoeuvre: int
    discipline: int
    disordered: bool
    characteristics: tuple
    attachments: tuple
    off_table: bool
    where: Location | None = None
    places: dict = field(default_factory=dict)  # key -> Location of its value
    kind: str = "unit"

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.at, self.facing)


@dataclass
class GridGeneral:
    id: str
    side: str
    attached_to: str | None
    generalship: int
    where: Location | None = None


@dataclass
class GridTerrain:
    at: tuple
    type: str
    where: Location | None = None


@dataclass
class GridScenario:
    name: str
    path: str
    system: str
    board: object
    sides: dict
    to_move: str
    units: list
    generals: list
    terrain: list
    rules: tuple = ()
    leaders: tuple = ()
    where: Location | None = None


# ---------------------------------------------------------------- helpers

def _at(d, key, default):
    try:
        return d.value_where.get(key, d.where)
    except AttributeError:
        return default


def _keys(d, allowed, what, where):
    if not isinstance(d, dict):
        raise WarcouncilError(f"{what} must be a mapping", where)
    for k in d:
        if k not in allowed:
            near = closest(str(k), allowed)
            loc = getattr(d, "key_where", {}).get(k, getattr(d, "where", where))
            raise WarcouncilError(f"unknown {what} key {k!r}; expected {', '.join(allowed)}", loc,
                                  hint=f"did you mean {' or '.join(near)}?" if near else None)


def _id_and_side(m, loc, noun: str, sides) -> tuple[str, str, str]:
    """A piece's id (a name) and side (one of ``sides``), and how messages
    name it (``unit r1``)."""
    pid = _need(m, "id", f"a {noun}")
    if not isinstance(pid, str) or not pid:
        raise WarcouncilError(f"a {noun}'s id must be a name", _at(m, "id", loc))
    what = f"{noun} {pid}"
    side = _need(m, "side", what)
    if not isinstance(side, str) or side not in sides:
        near = closest(str(side), sides)
        raise WarcouncilError(f"{what}: unknown side {side!r}", _at(m, "side", loc),
                              hint=f"did you mean {' or '.join(near)}?" if near else "sides: " + ", ".join(sides))
    return pid, side, what


def _need(d, key, what):
    if key not in d:
        raise WarcouncilError(f"{what} needs `{key}`", getattr(d, "where", None))
    return d[key]


def _int(d, key, what, default=None, minimum=0):
    if key not in d:
        if default is None:
            raise WarcouncilError(f"{what} needs `{key}`", getattr(d, "where", None))
        return default
    v = d[key]
    if not isinstance(v, int) or isinstance(v, bool) or v < minimum:
        raise WarcouncilError(f"{what}: `{key}` must be a whole number ≥ {minimum}, not {v!r}", _at(d, key, None))
    return v


def _bool(d, key, what):
    v = d.get(key, False)
    if not isinstance(v, bool):
        raise WarcouncilError(f"{what}: `{key}` must be true or false, not {v!r}", _at(d, key, None))
    return v


def _square(v, loc, what):
    if (not isinstance(v, list) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise WarcouncilError(f"{what} must be a square [col, row], not {v!r}", loc)
    return (v[0], v[1])


def _names(d, key, what):
    v = d.get(key, [])
    if v is None:
        return ()
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise WarcouncilError(f"{what}: `{key}` must be a list of names", _at(d, key, None))
    return tuple(v)


# ---------------------------------------------------------------- the reader

def read_scenario(data, file: str) -> GridScenario:
    """The scenario's data (a ``YDict`` with places) as a ``GridScenario``."""
    top = getattr(data, "where", Location(file))
    _keys(data, _TOP, "scenario", top)
    system = _need(data, "system", "the scenario")
    board_data = _need(data, "board", "the scenario")
    board = board_from_mapping(board_data, _at(data, "board", top))
    if board.grid != "square":
        raise WarcouncilError(f"square-grid ancients is played on a square grid, not {board.grid!r}",
                              _at(board_data, "grid", top))

    sides_data = _need(data, "sides", "the scenario")
    if not isinstance(sides_data, dict) or not sides_data:
        raise WarcouncilError("`sides` must map each side's name to its command points", _at(data, "sides", top))
    sides = {}
    for name, s in sides_data.items():
        loc = sides_data.value_where.get(name) if hasattr(sides_data, "value_where") else top
        what = f"side {name!r}"
        _keys(s if s is not None else {}, _SIDE, what, loc)
        s = s or {}
        cp = s.get("command_points", {}) or {}
        _keys(cp, POOLS, f"{what} command_points", _at(s, "command_points", loc))
        pools = {k: _int(cp, k, f"{what} command_points", default=0) for k in POOLS}
        bp = s.get("break_point")
        if bp is not None and (not isinstance(bp, int) or isinstance(bp, bool) or bp < 1):
            raise WarcouncilError(f"{what}: `break_point` must be a whole number ≥ 1", _at(s, "break_point", loc))
        sides[str(name)] = GridSide(str(name), pools, _bool(s, "fatigued", what), bp, s.get("edge"),
                                    _bool(s, "homunculus_cancelled", what), loc)

    to_move = _need(data, "to_move", "the scenario")
    if not isinstance(to_move, str) or to_move not in sides:
        near = closest(str(to_move), sides)
        raise WarcouncilError(f"to_move names no side: {to_move!r}", _at(data, "to_move", top),
                              hint=f"did you mean {' or '.join(near)}?" if near else "sides: " + ", ".join(sides))

    units_data = _need(data, "units", "the scenario")
    if not isinstance(units_data, list):
        raise WarcouncilError("`units` must be a list", _at(data, "units", top))
    units: list[GridUnit] = []
    seen: dict[str, GridUnit] = {}
    taken: dict[tuple, str] = {}
    for i, u in enumerate(units_data):
        loc = units_data.item_where[i] if hasattr(units_data, "item_where") else top
        _keys(u, _UNIT, "unit", loc)
        uid, side, what = _id_and_side(u, loc, "unit", sides)
        if uid in seen:
            raise WarcouncilError(f"two units have the id {uid!r}", _at(u, "id", loc))
        utype = _need(u, "type", what)
        if not isinstance(utype, str):
            raise WarcouncilError(f"{what}: `type` must be a name", _at(u, "type", loc))
        at = _square(_need(u, "at", what), _at(u, "at", loc), f"{what}: `at`")
        facing = check_facing(_need(u, "facing", what), _at(u, "facing", loc))
        off = _bool(u, "off_table", what)
        unit = GridUnit(
            uid, side, utype, at, facing,
            combat=_int(u, "combat", what), ranged=_int(u, "ranged", what, default=0),
            manoeuvre=_int(u, "manoeuvre", what), discipline=_int(u, "discipline", what),
            disordered=_bool(u, "disordered", what),
            characteristics=_names(u, "characteristics", what), attachments=_names(u, "attachments", what),
            off_table=off, where=loc,
            places={k: _at(u, k, loc) for k in u},
        )
        if not off:
            unit.footprint.place(board, _at(u, "at", loc), what)
            for sq in unit.footprint.squares:
                if sq in taken:
                    raise WarcouncilError(f"{what} and unit {taken[sq]} both stand on {list(sq)}", _at(u, "at", loc))
                taken[sq] = uid
        seen[uid] = unit
        units.append(unit)

    generals: list[GridGeneral] = []
    gdata = data.get("generals", []) or []
    if not isinstance(gdata, list):
        raise WarcouncilError("`generals` must be a list", _at(data, "generals", top))
    for i, g in enumerate(gdata):
        loc = gdata.item_where[i] if hasattr(gdata, "item_where") else top
        _keys(g, _GENERAL, "general", loc)
        gid, side, what = _id_and_side(g, loc, "general", sides)
        host = g.get("attached_to")
        if host is not None:
            if not isinstance(host, str) or host not in seen:
                near = closest(str(host), seen)
                raise WarcouncilError(f"{what}: attached_to names no unit: {host!r}", _at(g, "attached_to", loc),
                                      hint=f"did you mean {' or '.join(near)}?" if near else None)
            if seen[host].side != side:
                raise WarcouncilError(f"{what} is attached to unit {host} of another side", _at(g, "attached_to", loc))
        generals.append(GridGeneral(gid, side, host, _int(g, "generalship", what, default=0), loc))

    terrain: list[GridTerrain] = []
    tdata = data.get("terrain", []) or []
    if not isinstance(tdata, list):
        raise WarcouncilError("`terrain` must be a list", _at(data, "terrain", top))
    for i, t in enumerate(tdata):
        loc = tdata.item_where[i] if hasattr(tdata, "item_where") else top
        _keys(t, _TERRAIN, "terrain", loc)
        at = _square(_need(t, "at", "terrain"), _at(t, "at", loc), "terrain `at`")
        if at not in board.cells:
            raise WarcouncilError(f"terrain at {list(at)} is off the board ({board.extent()})", _at(t, "at", loc))
        ttype = _need(t, "type", "terrain")
        if not isinstance(ttype, str):
            raise WarcouncilError("terrain `type` must be a name", _at(t, "type", loc))
        terrain.append(GridTerrain(at, ttype, _at(t, "type", loc)))

    rules = data.get("rules", []) or []
    if not isinstance(rules, list) or not all(isinstance(r, str) for r in rules):
        raise WarcouncilError("`rules` must be a list of rule files", _at(data, "rules", top))
    from pathlib import Path

    base = Path(file).parent
    rules = tuple(str(base / r) if not Path(r).is_absolute() else r for r in rules)
    name = data.get("name") or Path(file).stem
    return GridScenario(str(name), file, str(system), board, sides, to_move, units, generals, terrain, rules,
                        where=top)
