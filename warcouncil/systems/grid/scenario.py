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
squares wide and one deep (``systems.grid.facing.Footprint``). Beyond the
contract's keys a unit may say ``off_table: true``, and a side
``homunculus_cancelled: true`` (its once-per-battle cancel is spent).
Unit types, characteristics, attachments and terrain are checked against
the pack when the engine is made (they are the pack's words).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import Location, WarcouncilError, closest
from ...world.board import board_from_mapping
from .facing import FACINGS, Footprint
from ...world.schema import (MAX_COMMAND, MAX_PIECES, NAME, TITLE, Field, Record, choice_field, flag_field,
                                id_problem, int_field, is_int, list_field)

POOLS = ("attack", "movement", "defence", "strategy", "generalship")

# ---------------------------------------------------------------- the tables
#
# Every field of a grid-ancients scenario, its type and its range, declared
# once (the kernel's ``Record``/``Field`` tables): the reader checks a file
# against them (each problem at the value's place) and ``GridAncients.records``
# publishes the same tables as JSON Schemas for editors and the contract.

#: bounds far above any real battle (ratings are single figures on the sheet)
MAX_RATING = 20
MAX_BREAK_POINT = 1000
MAX_BOARD = 100
MAX_LIST = 32  # characteristics or attachments of one unit


SQUARE = Field("a square [col, row] of two whole numbers",
               lambda v: isinstance(v, list) and len(v) == 2 and all(is_int(x) for x in v),
               {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2})
RATING = int_field(0, MAX_RATING, "a whole number")
NAMES = list_field(NAME, 0, MAX_LIST)
BOOL = flag_field()
PATH = Field("a pack's name or folder", lambda v: id_problem(v, 4096) is None, {"type": "string", "minLength": 1})

POOL_ENTRY = Record("command_points", {k: int_field(0, MAX_COMMAND, "a whole number") for k in POOLS})
SIDE_ENTRY = Record("side", {
    "command_points": POOL_ENTRY,
    "fatigued": BOOL,
    "break_point": int_field(1, MAX_BREAK_POINT, "a whole number"),
    "edge": choice_field(FACINGS),
    "homunculus_cancelled": BOOL,
})
SIDES = Field("a mapping of the two sides' names to their command points, fatigue and break point",
              lambda v: isinstance(v, dict) and len(v) == 2,
              {"type": "object", "minProperties": 2, "maxProperties": 2,
               "additionalProperties": SIDE_ENTRY.schema})
BOARD_ENTRY = Record("board", {
    "grid": choice_field(("square",)),
    "width": int_field(1, MAX_BOARD, "a whole number"),
    "depth": int_field(1, MAX_BOARD, "a whole number"),
    "name": TITLE,
}, required=("grid", "width", "depth"))
UNIT_ENTRY = Record("unit", {
    "id": NAME, "side": NAME, "type": NAME, "at": SQUARE, "facing": choice_field(FACINGS),
    "combat": RATING, "ranged": RATING, "manoeuvre": RATING, "discipline": RATING,
    "disordered": BOOL, "characteristics": NAMES, "attachments": NAMES, "off_table": BOOL,
}, required=("id", "side", "type", "at", "facing", "combat", "manoeuvre", "discipline"), label="id")
GENERAL_ENTRY = Record("general", {
    "id": NAME, "side": NAME, "attached_to": NAME, "generalship": int_field(0, MAX_COMMAND, "a whole number"),
}, required=("id", "side"), label="id")
TERRAIN_ENTRY = Record("terrain", {"at": SQUARE, "type": NAME}, required=("at", "type"), noun="terrain")
SCENARIO_ENTRY = Record("the scenario", {
    "system": PATH, "name": TITLE, "board": BOARD_ENTRY, "sides": SIDES, "to_move": NAME,
    "units": list_field(UNIT_ENTRY, 1, MAX_PIECES), "generals": list_field(GENERAL_ENTRY, 0, MAX_PIECES),
    "terrain": list_field(TERRAIN_ENTRY, 0, MAX_BOARD * MAX_BOARD), "rules": list_field(PATH, 0, MAX_LIST),
}, required=("system", "board", "sides", "to_move", "units"))


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


# ---------------------------------------------------------------- the reader

def _at(d, key, default):
    return getattr(d, "value_where", {}).get(key, getattr(d, "where", default))


def _item(seq, i, default):
    w = getattr(seq, "item_where", None)
    return w[i] if w and i < len(w) else default


def _side_of(m, loc, what: str, sides) -> str:
    side = m["side"]
    if side not in sides:
        near = closest(str(side), sides)
        raise WarcouncilError(f"{what}: unknown side {side!r}", _at(m, "side", loc),
                              hint=f"did you mean {' or '.join(near)}?" if near else "sides: " + ", ".join(sides))
    return side


def read_scenario(data, file: str) -> GridScenario:
    """The scenario's data (a ``YDict`` with places) as a ``GridScenario``:
    checked against the tables, then what the tables cannot say (sides
    named, ids unique, units on the board and not on each other)."""
    top = getattr(data, "where", Location(file, 1, 1))
    if data is None:
        raise WarcouncilError("empty scenario file", Location(file, 1, 1))
    SCENARIO_ENTRY.read(data, top)
    board_data = data["board"]
    board = board_from_mapping(board_data, _at(data, "board", top))

    sides_data = data["sides"]
    sides = {}
    for name, s in sides_data.items():
        loc = _at(sides_data, name, top)
        why = id_problem(name)
        if why is not None:
            raise WarcouncilError(f"a side name must be {why}, not {name!r}",
                                  getattr(sides_data, "key_where", {}).get(name, loc))
        what = f"side {name!r}"
        SIDE_ENTRY.read(s, loc, what)
        cp = s.get("command_points", {})
        sides[name] = GridSide(name, {k: cp.get(k, 0) for k in POOLS}, s.get("fatigued", False),
                               s.get("break_point"), s.get("edge"), s.get("homunculus_cancelled", False), loc)

    to_move = data["to_move"]
    if to_move not in sides:
        near = closest(str(to_move), sides)
        raise WarcouncilError(f"to_move names no side: {to_move!r}", _at(data, "to_move", top),
                              hint=f"did you mean {' or '.join(near)}?" if near else "sides: " + ", ".join(sides))

    units_data = data["units"]
    units: list[GridUnit] = []
    seen: dict[str, GridUnit] = {}
    taken: dict[tuple, str] = {}
    for i, u in enumerate(units_data):
        loc = _item(units_data, i, top)
        uid = u["id"]
        what = f"unit {uid}"
        side = _side_of(u, loc, what, sides)
        if uid in seen:
            raise WarcouncilError(f"two units have the id {uid!r}", _at(u, "id", loc))
        at = tuple(u["at"])
        off = u.get("off_table", False)
        unit = GridUnit(
            uid, side, u["type"], at, u["facing"],
            combat=u["combat"], ranged=u.get("ranged", 0), manoeuvre=u["manoeuvre"], discipline=u["discipline"],
            disordered=u.get("disordered", False), characteristics=tuple(u.get("characteristics", ())),
            attachments=tuple(u.get("attachments", ())), off_table=off, where=loc,
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
    gdata = data.get("generals", [])
    for i, g in enumerate(gdata):
        loc = _item(gdata, i, top)
        gid = g["id"]
        what = f"general {gid}"
        side = _side_of(g, loc, what, sides)
        host = g.get("attached_to")
        if host is not None:
            if host not in seen:
                near = closest(str(host), seen)
                raise WarcouncilError(f"{what}: attached_to names no unit: {host!r}", _at(g, "attached_to", loc),
                                      hint=f"did you mean {' or '.join(near)}?" if near else None)
            if seen[host].side != side:
                raise WarcouncilError(f"{what} is attached to unit {host} of another side", _at(g, "attached_to", loc))
        generals.append(GridGeneral(gid, side, host, g.get("generalship", 0), loc))

    terrain: list[GridTerrain] = []
    tdata = data.get("terrain", [])
    for i, t in enumerate(tdata):
        loc = _item(tdata, i, top)
        at = tuple(t["at"])
        if at not in board.cells:
            raise WarcouncilError(f"terrain at {list(at)} is off the board ({board.extent()})", _at(t, "at", loc))
        terrain.append(GridTerrain(at, t["type"], _at(t, "type", loc)))

    from pathlib import Path

    base = Path(file).parent
    rules = tuple(str(base / r) if not Path(r).is_absolute() else r for r in data.get("rules", ()))
    name = data.get("name") or Path(file).stem
    return GridScenario(str(name), file, str(data["system"]), board, sides, to_move, units, generals, terrain,
                        rules, where=top)
