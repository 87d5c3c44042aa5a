"""Scenario files: load, validate and represent a battle set-up.

The format is the outside contract's (``shared/spec/interface.md``). YAML is
read with PyYAML's composer so that every mapping, list and scalar keeps the
line and column it came from; every validation error names
``file:line:column``. Unit type names are *not* checked here (the rule pack
does that later, using ``Piece.where``).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from warcouncil.errors import Location, WarcouncilError, bounded, closest
from warcouncil.records import record
from warcouncil.textfile import YAML_LIMIT, read_text as _read_bounded
from warcouncil.world.ydoc import YDict, YList
from warcouncil.world.ydoc import load as _ydoc_load
from warcouncil.world.board import (
    Board,
    Cell,
    PLAIN_VIEWS,
    board_from_mapping,
    parse_cell,
)
from warcouncil.world.schema import (
    CELL_SCHEMA, ID_SCHEMA, MAX_BLOCKS, MAX_COMMAND, MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_PIECES, NAME, TITLE,
    Field, choice_field, describe, did_you_mean, file_schema, id_problem, int_field, is_int,
)

if TYPE_CHECKING:  # pragma: no cover
    from importlib.resources.abc import Traversable

FACINGS = ("north", "east", "south", "west")


# ---------------------------------------------------------------------------
# Data


@record
class Side:
    name: str
    edge: str  # one of the edges its system allows (``System.edges``)
    command: int  # the side's command (C&C: cards held)
    #: the side's keys its game system adds (``System.side_fields``), as
    #: given (a list as a tuple): ((key, value), ...)
    more: tuple = ()
    #: where each of them is: key -> (the value's place, its items' places)
    more_where: dict = field(default_factory=dict, compare=False, repr=False)

    def get(self, key: str, default: Any = None) -> Any:
        """The value of a key the system adds, or ``default``."""
        return dict(self.more).get(key, default)


@record
class Piece:
    """A piece on the board, from one of the scenario's piece lists."""

    id: str
    side: str
    kind: str  # its role (``System.piece_lists``: the role of its list)
    type: str | None  # unit type id; None for a list without types
    at: Cell
    blocks: int | None
    where: Location = field(compare=False)  # where the piece is defined
    facing: str | None = None  # square-grid systems only

    @property
    def role(self) -> str:
        return self.kind


@record
class Terrain:
    at: Cell
    type: str
    where: Location = field(compare=False)


@record
class Scenario:
    """A battle set-up. Its pieces are kept by role (``pieces``), in the
    order of its system's piece lists (``lists``: list key -> role); a list
    key is also an attribute (``scenario.units``, and for Commands & Colors
    ``scenario.leaders``)."""

    name: str
    path: str | None
    system: str
    board: Board
    sides: dict[str, Side]
    to_move: str
    pieces: Mapping[str, tuple[Piece, ...]]  # role -> pieces, in the file's order
    lists: Mapping[str, str]  # list key -> role (the system's piece lists)
    terrain: tuple[Terrain, ...]
    # house-rule files/folders named by the scenario (key `rules:`), resolved
    # relative to the scenario file
    rules: tuple[str, ...] = ()

    _by_id: dict[str, Piece] = field(init=False, repr=False, compare=False)
    _at: dict[str, dict[Cell, Piece]] = field(init=False, repr=False, compare=False)
    _terrain_at: dict[Cell, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", dict(self.sides))
        object.__setattr__(self, "pieces", MappingProxyType(dict(self.pieces)))
        object.__setattr__(self, "lists", MappingProxyType(dict(self.lists)))
        object.__setattr__(self, "_by_id", {p.id: p for ps in self.pieces.values() for p in ps})
        object.__setattr__(self, "_at", {r: {p.at: p for p in ps} for r, ps in self.pieces.items()})
        object.__setattr__(self, "_terrain_at", {t.at: t.type for t in self.terrain})

    def __getattr__(self, name: str):
        # a piece list by its key (``units``, ``leaders``, ...)
        lists = self.__dict__.get("lists")
        if lists is not None and name in lists:
            return self.__dict__["pieces"].get(lists[name], ())
        raise AttributeError(name)

    def __hash__(self) -> int:
        return hash(
            (self.name, self.system, self.board, tuple(sorted(self.sides.items())),
             self.to_move, tuple(self.pieces.items()), self.terrain, self.rules)
        )

    # -- look-ups ---------------------------------------------------------

    @property
    def all_pieces(self) -> tuple[Piece, ...]:
        """Every piece, role by role."""
        return tuple(p for ps in self.pieces.values() for p in ps)

    def piece(self, id: str) -> Piece:
        """The piece with this id; unknown ids are bad input."""
        try:
            return self._by_id[id]
        except (KeyError, TypeError):
            near = closest(str(id), self._by_id)
            raise WarcouncilError(
                f"unknown piece {id!r} in scenario {self.name!r}",
                hint=f"did you mean {' or '.join(near)}?" if near else None,
            ) from None

    def _side(self, side: str) -> Side:
        try:
            return self.sides[side]
        except (KeyError, TypeError):
            near = closest(str(side), self.sides)
            raise WarcouncilError(
                f"unknown side {side!r}; sides: {', '.join(self.sides)}",
                hint=f"did you mean {' or '.join(near)}?" if near else None,
            ) from None

    def opponent(self, side: str) -> str:
        """The other side's name."""
        self._side(side)
        return next(s for s in self.sides if s != side)

    def pieces_of(self, side: str, role: str) -> tuple[Piece, ...]:
        """The pieces of one role of one side."""
        self._side(side)
        return tuple(p for p in self.pieces.get(role, ()) if p.side == side)

    def piece_at(self, cell: Cell, role: str) -> Piece | None:
        """The piece of ``role`` on ``cell``, or None."""
        at = self._at.get(role)
        return at.get(cell) if at is not None else None

    def terrain_at(self, cell: Cell) -> str | None:
        return self._terrain_at.get(cell)

    def edge_of(self, side: str) -> str:
        return self._side(side).edge

    # -- variants ---------------------------------------------------------

    def with_to_move(self, side: str) -> Scenario:
        self._side(side)
        return dataclasses.replace(self, to_move=side)

    def with_command(self, side: str, n: int) -> Scenario:
        old = self._side(side)
        return dataclasses.replace(self, sides={**self.sides, side: dataclasses.replace(old, command=n)})


# ---------------------------------------------------------------------------
# YAML with locations


# YDict, YList and the bounds are in ydoc.py, the reading itself in yamlread.py
# (PyYAML imported only when a document is not in the cache).


def parse_yaml(text: str, file: str) -> Any:
    """Parse one YAML document into YDict / YList / scalars carrying locations.

    ``None`` for an empty document. Malformed YAML is a ``WarcouncilError``
    at the line and column PyYAML reports; so is a document nested deeper
    than ``MAX_YAML_DEPTH`` or holding more than ``MAX_YAML_NODES`` values
    or ``MAX_YAML_TEXT`` bytes of text with its aliases expanded, refused
    while it is composed.
    """
    if len(text) > YAML_LIMIT:  # text that came from elsewhere than read_text
        raise WarcouncilError(f"YAML too large: {len(text):,} characters, the limit is {YAML_LIMIT:,}",
                              Location(file))
    return _ydoc_load(text, file, _parse_yaml)


def _parse_yaml(text: str, file: str) -> Any:
    from ..world.yamlread import parse  # PyYAML: only for a document that is not in the cache

    return parse(text, file)


def read_text(path: str | os.PathLike[str]) -> str:
    """A YAML file's text (UTF-8): a regular file of at most ``YAML_LIMIT``
    bytes; anything else is bad input."""
    return _read_bounded(path, YAML_LIMIT, "file")


def read_yaml_file(path: str | os.PathLike[str]) -> Any:
    """Read and parse a YAML file into values carrying their locations."""
    return parse_yaml(read_text(path), os.fspath(path))


def plain(value: Any) -> Any:
    """YAML data as plain dicts, lists and scalars, without places: a copy
    to change and write out again (the scenario after a turn)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# ---------------------------------------------------------------------------
# Shipped scenarios


#: the package's own examples (importlib.resources costs ~5 ms)
EXAMPLES_DIR = Path(__file__).parent.parent / "examples"

#: a scenario file names its ``system:`` at the top level; a turn file never does
_NAMES_A_SYSTEM = re.compile(r"""^["']?system["']?[ \t]*:""", re.M)


def shipped_scenarios() -> dict[str, Traversable]:
    """Scenarios shipped in ``warcouncil/examples/<system>/<name>.yaml``:
    each YAML file directly in a system's folder that names its ``system:``
    at the top level. Anything else there (turn files, logs: beside the
    scenarios or in folders of their own) is no scenario.

    Keyed by stem (``akragas``) and by ``<system>/<stem>``; on a stem clash
    the first system in alphabetical order wins the bare name.
    """
    found: dict[str, Traversable] = {}
    root = EXAMPLES_DIR
    if not root.is_dir():
        return found
    for sysdir in sorted(root.iterdir(), key=lambda t: t.name):
        if not sysdir.is_dir():
            continue
        for f in sorted(sysdir.iterdir(), key=lambda t: t.name):
            if f.is_file() and f.name.endswith(".yaml") and _NAMES_A_SYSTEM.search(
                    f.read_text(encoding="utf-8", errors="replace")):
                stem = f.name[: -len(".yaml")]
                found.setdefault(stem, f)
                found[f"{sysdir.name}/{stem}"] = f
    return found


# ---------------------------------------------------------------------------
# Loading and validation


def load_scenario(path_or_name: str | os.PathLike[str], own_reader=None) -> Scenario:
    """Load a scenario file, or a shipped scenario by name (``akragas``).

    ``own_reader(data)``: for the file's data, the reader of a game system
    that reads its own scenario shape, or ``None`` for the reader here
    (``Engine.load`` passes the one that asks the ``system:``'s System).

    Every problem is a ``WarcouncilError`` naming ``file:line:column``.
    """
    arg = os.fspath(path_or_name)
    p = Path(arg)
    try:
        there = p.exists()
    except (OSError, ValueError) as e:  # e.g. a name too long for the file system
        raise WarcouncilError(f"cannot read file: {getattr(e, 'strerror', None) or e}", Location(bounded(arg))) from None
    if there:  # a folder or a device: the reader says what it is
        return _load_file(arg, own_reader)
    shipped = shipped_scenarios()
    if arg in shipped:
        return _load_file(str(shipped[arg]), own_reader)
    if os.sep in arg or "/" in arg or p.suffix.lower() in (".yaml", ".yml"):
        raise WarcouncilError("cannot read file: no such file", Location(arg))
    near = closest(arg, [k for k in shipped if ("/" in k) == ("/" in arg)])
    raise WarcouncilError(
        f"unknown scenario {arg!r}: no such file, and no shipped scenario of that name "
        f"(shipped: {', '.join(sorted(k for k in shipped if '/' not in k)) or 'none'})",
        hint=f"did you mean {' or '.join(near)}?" if near else None,
    )


def _load_file(file: str, own_reader=None) -> Scenario:
    return scenario_from_text(_read_bounded(file, YAML_LIMIT, "scenario file"), file, own_reader)


def scenario_from_text(text: str, file: str, own_reader=None) -> Scenario:
    """The scenario a scenario file holding ``text`` would give, read as if
    it were the file ``file`` (its places, and the folder its relative
    paths are taken from): e.g. a position ``scenario_after()`` gave."""
    lines = text.splitlines()
    try:
        data = parse_yaml(text, file)
        own = own_reader(data) if own_reader is not None else None
        if own is not None:  # the system reads its own scenario shape
            return own(data, file)
        return _Validator(file).scenario(data)
    except WarcouncilError as e:
        loc = e.location
        if e.source_line is None and loc and loc.file == file and loc.line and loc.line <= len(lines):
            e.source_line = lines[loc.line - 1]
        raise
    except RecursionError:
        raise WarcouncilError("scenario nested too deeply", Location(file)) from None


def pack_target(system: str, path: str | None) -> str:
    """The rule pack a scenario plays: a shipped pack's name, else a pack
    folder or file, relative to the scenario file when it is there."""
    from ..dsl.pack import PACKS_DIR

    try:  # (a name no file system takes, e.g. too long, is no folder: the caller says what it is)
        if path and not (PACKS_DIR / system).is_dir():
            near = Path(path).parent / system
            if near.exists():
                return str(near)
    except (OSError, ValueError):
        pass
    return system


# ---------------------------------------------------------------------------
# The scenario's tables: every field of a scenario file, its type and its
# range, one table per kind of entry (a side, a piece, a terrain tile), made
# of the schema framework (``world/schema.py``). The same tables give the
# JSON Schema the contract publishes for editors (``json_schema``).

#: a side: ``{edge, command}`` (the edges: the system's, ``System.edges``)
SIDE_FIELDS: dict[str, Field] = {
    "edge": Field("an edge", lambda v: isinstance(v, str), {"enum": ["north", "south", "east", "west"]}),
    "command": int_field(1, MAX_COMMAND, "a positive whole number"),
}
#: a piece, in any list (which keys a list has: ``System.piece_lists``)
PIECE_FIELDS: dict[str, Field] = {
    "id": Field("a piece id: " + NAME.what, lambda v: id_problem(v) is None,
                {"anyOf": [ID_SCHEMA, {"type": "integer", "minimum": 0}]}),
    "side": Field("a side's name", lambda v: isinstance(v, str), {"type": "string"}),
    "type": NAME,
    "at": Field("a position", lambda v: True, CELL_SCHEMA),
    "blocks": int_field(1, MAX_BLOCKS, "a positive whole number"),
    "facing": choice_field(FACINGS),
}
TERRAIN_FIELDS: dict[str, Field] = {
    "at": PIECE_FIELDS["at"],
    "type": NAME,
}
_TOP_REQUIRED = ("system", "board", "sides", "to_move")
_TOP_OPTIONAL = ("name", "terrain", "rules")


def json_schema(system=None) -> dict:
    """The JSON Schema of a scenario file of ``system`` (a ``System``
    subclass; the kernel's defaults without one), made from the tables
    above: for editors, and the contract."""
    from .system import System

    system = system or System
    own = system.records.get("scenario")
    if own is not None:  # a system reading its own scenario shape
        return file_schema(own, f"warcouncil scenario ({system.title or system.name})")
    lists = system.piece_lists
    props: dict[str, Any] = {
        "name": TITLE.schema, "system": NAME.schema,
        "board": {"anyOf": [{"type": "string"}, {"type": "object"}]},
        "sides": {"type": "object", "minProperties": 2, "maxProperties": 2,
                  "additionalProperties": {
                      "type": "object", "additionalProperties": False, "required": list(SIDE_FIELDS),
                      "properties": {**{k: f.schema for k, f in SIDE_FIELDS.items()},
                                     "edge": {"enum": list(system.edges)},
                                     **{k: f.schema for k, f in system.side_fields.items()}}}},
        "to_move": {"type": "string"},
        "terrain": {"type": ["array", "null"], "items": {
            "type": "object", "additionalProperties": False, "required": list(TERRAIN_FIELDS),
            "properties": {k: f.schema for k, f in TERRAIN_FIELDS.items()}}},
        "rules": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
    }
    for key, spec in lists.items():
        keys = spec.required + spec.optional
        props[key] = {"type": ["array", "null"], "maxItems": MAX_PIECES, "items": {
            "type": "object", "additionalProperties": False, "required": list(spec.required),
            "properties": {k: PIECE_FIELDS[k].schema for k in keys}}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"warcouncil scenario ({system.title or 'kernel defaults'})",
        "type": "object", "additionalProperties": False,
        "required": list(_TOP_REQUIRED) + [k for k, spec in lists.items() if spec.needed],
        "properties": props,
    }


def value_loc(m: YDict, key: str) -> Location:
    """Where the value of ``key`` is written in a YAML mapping (the mapping's place if not)."""
    return m.value_where.get(key, m.where)


def _iloc(seq: YList, i: int) -> Location:
    return seq.item_where[i] if i < len(seq.item_where) else seq.where


class _Validator:
    def __init__(self, file: str) -> None:
        self.file = file
        self.top = Location(file, 1, 1)

    # -- generic shapes ---------------------------------------------------

    def mapping(self, value: Any, where: Location, what: str) -> YDict:
        if not isinstance(value, YDict):
            raise WarcouncilError(f"{what} must be a mapping, not {describe(value)}", where)
        return value

    def listing(self, value: Any, where: Location, what: str) -> YList:
        if not isinstance(value, YList):
            raise WarcouncilError(f"{what} must be a list, not {describe(value)}", where)
        return value

    def keys(self, m: YDict, required: tuple[str, ...], optional: tuple[str, ...], what: str) -> None:
        allowed = required + optional
        for k in m:
            if k not in allowed:
                raise WarcouncilError(
                    f"unknown key {describe(k)} in {what}; expected {', '.join(allowed)}",
                    m.key_where[k],
                    hint=did_you_mean(k, allowed),
                )
        for k in required:
            if k not in m:
                raise WarcouncilError(f"{what} is missing {k!r}", m.where)

    def field(self, m: YDict, key: str, f: Field, what: str) -> Any:
        """``m[key]`` checked by its field ``f`` (``what``: whose field, for the message)."""
        v = m[key]
        if not f.ok(v):
            raise WarcouncilError(f"{what}: {key} must be {f.what}, not {describe(v)}", value_loc(m, key))
        return v

    def name(self, m: YDict, key: str, what: str, longest: int = MAX_ID_LENGTH) -> str:
        v = m[key]
        why = id_problem(v, longest)
        if why is not None:
            raise WarcouncilError(f"{what} {key} must be {why}, not {describe(v)}", value_loc(m, key))
        return v

    # -- the scenario -----------------------------------------------------

    def scenario(self, data: Any) -> Scenario:
        from .system import System

        if data is None:
            raise WarcouncilError("empty scenario file", self.top)
        top = self.mapping(data, _where_or(data, self.top), "a scenario")
        system_name = top.get("system")
        target = pack_target(system_name, self.file) if id_problem(system_name, 4096) is None else None
        self.system = system = System.for_scenario(system_name, target)
        lists = system.piece_lists
        self.keys(top, _TOP_REQUIRED + tuple(k for k, spec in lists.items() if spec.needed),
                  _TOP_OPTIONAL + tuple(k for k, spec in lists.items() if not spec.needed), "the scenario")

        name = self.name(top, "name", "scenario", MAX_NAME_LENGTH) if "name" in top else Path(self.file).stem
        system_id = self.name(top, "system", "scenario", 4096)  # a pack's name, or its folder
        sides = self.sides(top, system)
        board = self.board(top, system)
        for sname, side in sides.items():  # the board's sections are seen from each side's edge
            if board.sections and side.edge not in board.views:
                raise WarcouncilError(
                    f"side {sname!r}: board {board.name!r} has no view of its sections from the "
                    f"{side.edge} edge (edges: {', '.join(board.views)})", self.edge_where[sname])

        to_move = top["to_move"]
        if not isinstance(to_move, str) or to_move not in sides:
            raise WarcouncilError(
                f"to_move must name a side ({', '.join(sides)}), not {describe(to_move)}",
                value_loc(top, "to_move"),
                hint=did_you_mean(to_move, sides),
            )

        ids: dict[str, Location] = {}
        pieces: dict[str, tuple[Piece, ...]] = {}
        for key, spec in lists.items():
            got = self.pieces(top, key, spec, sides, board, ids) if key in top else ()
            pieces[spec.role] = pieces.get(spec.role, ()) + got
        terrain = self.terrain(top, board) if "terrain" in top else ()
        rules = self.rules(top) if "rules" in top else ()

        scenario = Scenario(
            name=name,
            path=self.file,
            system=system_id,
            board=board,
            sides=sides,
            to_move=to_move,
            pieces=pieces,
            lists={k: spec.role for k, spec in lists.items()},
            terrain=terrain,
            rules=rules,
        )
        system.check_scenario(scenario)
        return scenario

    def sides(self, top: YDict, system) -> dict[str, Side]:
        raw = self.mapping(top["sides"], value_loc(top, "sides"), "sides")
        if len(raw) != 2:
            raise WarcouncilError(f"a scenario needs exactly two sides, not {len(raw)}", raw.where)
        sides: dict[str, Side] = {}
        edges: dict[str, str] = {}
        self.edge_where: dict[str, Location] = {}
        allowed = system.edges
        for sname, spec in raw.items():
            kloc = raw.key_where[sname]
            why = id_problem(sname)
            if why is not None:
                raise WarcouncilError(f"a side name must be {why}, not {describe(sname)}", kloc)
            m = self.mapping(spec, raw.value_where[sname], f"side {sname!r}")
            self.keys(m, tuple(SIDE_FIELDS), tuple(system.side_fields), f"side {sname!r}")
            edge = m["edge"]
            if edge not in allowed:
                more = ("" if not isinstance(edge, str) or edge not in SIDE_FIELDS["edge"].schema["enum"]
                        else f" ({system.title or 'this game'} plays across the board from "
                             f"{' or '.join(allowed)})")
                raise WarcouncilError(
                    f"side {sname!r}: edge must be one of {', '.join(allowed)}, not {describe(edge)}" + more,
                    value_loc(m, "edge"),
                    hint=did_you_mean(edge, allowed),
                )
            if edge in edges:
                raise WarcouncilError(
                    f"sides {edges[edge]!r} and {sname!r} both have the {edge} edge", value_loc(m, "edge")
                )
            edges[edge] = sname
            self.edge_where[sname] = value_loc(m, "edge")
            command = self.field(m, "command", SIDE_FIELDS["command"], f"side {sname!r}")
            more, more_where = [], {}
            for k, f in system.side_fields.items():  # the system's own keys (C&C: the hand)
                if k in m:
                    v = f.check(m[k], value_loc(m, k), f"side {sname!r}", k)
                    more.append((k, tuple(v) if isinstance(v, list) else v))
                    more_where[k] = (value_loc(m, k), tuple(getattr(v, "item_where", ())))
            sides[sname] = Side(sname, edge, command, tuple(more), more_where)
        return sides

    def board(self, top: YDict, system) -> Board:
        raw = top["board"]
        loc = value_loc(top, "board")
        from .system import named_board

        if isinstance(raw, str):
            return named_board(raw, loc, system)
        if isinstance(raw, YDict):
            return board_from_mapping(raw, loc, system.section_views or PLAIN_VIEWS)
        raise WarcouncilError(f"board must be a board name or a mapping, not {describe(raw)}", loc)

    def pieces(
        self,
        top: YDict,
        key: str,
        spec,
        sides: dict[str, Side],
        board: Board,
        ids: dict[str, Location],
    ) -> tuple[Piece, ...]:
        raw = top[key]
        if raw is None:  # `leaders:` with nothing under it
            return ()
        seq = self.listing(raw, value_loc(top, key), key)
        if len(seq) > MAX_PIECES:
            raise WarcouncilError(f"{key}: more than {MAX_PIECES} pieces", seq.where)
        kind = spec.role
        occupied: dict[Cell, Piece] = {}
        out: list[Piece] = []
        for i, item in enumerate(seq):
            m = self.mapping(item, _iloc(seq, i), f"each entry of {key}")
            label = m.get("id")
            label = label if isinstance(label, (str, int)) and not isinstance(label, bool) else f"#{i + 1}"
            label = bounded(str(label).strip() or f"#{i + 1}", 40)
            self.keys(m, spec.required, spec.optional, f"{kind} {label}")

            pid = m["id"]
            if is_int(pid) and pid >= 0:
                pid = str(pid)
            why = id_problem(pid)
            if why is not None:
                raise WarcouncilError(f"{kind} id must be {why}, not {describe(pid)}", value_loc(m, "id"))
            if pid in ids:
                raise WarcouncilError(
                    f"duplicate id {pid!r} (already used at line {ids[pid].line})", value_loc(m, "id")
                )
            ids[pid] = value_loc(m, "id")

            side = m["side"]
            if not isinstance(side, str) or side not in sides:
                raise WarcouncilError(
                    f"{kind} {pid}: unknown side {describe(side)}; sides: {', '.join(sides)}",
                    value_loc(m, "side"),
                    hint=did_you_mean(side, sides),
                )

            utype = self.name(m, "type", f"{kind} {pid}") if "type" in m else None
            at = parse_cell(m["at"], board, value_loc(m, "at"), what=f"{kind} {pid} position")
            blocks = (self.field(m, "blocks", PIECE_FIELDS["blocks"], f"{kind} {pid}")
                      if m.get("blocks") is not None else None)
            facing = m.get("facing")
            if facing is not None:
                f = PIECE_FIELDS["facing"]
                if not f.ok(facing):
                    raise WarcouncilError(
                        f"{kind} {pid}: facing must be {f.what}, not {describe(facing)}",
                        value_loc(m, "facing"),
                        hint=did_you_mean(facing, FACINGS),
                    )

            piece = Piece(pid, side, kind, utype, at, blocks, m.where, facing)
            if at in occupied:
                other = occupied[at]
                raise WarcouncilError(
                    f"{kind}s {other.id} and {pid} are both on [{at[0]}, {at[1]}]"
                    f" ({other.id} at line {other.where.line})",
                    value_loc(m, "at"),
                )
            occupied[at] = piece
            out.append(piece)
        return tuple(out)

    def terrain(self, top: YDict, board: Board) -> tuple[Terrain, ...]:
        raw = top["terrain"]
        if raw is None:
            return ()
        seq = self.listing(raw, value_loc(top, "terrain"), "terrain")
        seen: dict[Cell, Terrain] = {}
        for i, item in enumerate(seq):
            m = self.mapping(item, _iloc(seq, i), "each terrain entry")
            self.keys(m, tuple(TERRAIN_FIELDS), (), f"terrain #{i + 1}")
            ttype = self.name(m, "type", "terrain")
            at = parse_cell(m["at"], board, value_loc(m, "at"), what=f"terrain {ttype} position")
            if at in seen:
                raise WarcouncilError(
                    f"two terrain tiles on [{at[0]}, {at[1]}] "
                    f"({seen[at].type} at line {seen[at].where.line} and {ttype})",
                    value_loc(m, "at"),
                )
            seen[at] = Terrain(at, ttype, m.where)
        return tuple(seen.values())

    def rules(self, top: YDict) -> tuple[str, ...]:
        raw = top["rules"]
        loc = value_loc(top, "rules")
        if raw is None:
            return ()
        if isinstance(raw, str):
            entries: list[tuple[Any, Location]] = [(raw, loc)]
        else:
            seq = self.listing(raw, loc, "rules")
            entries = [(v, _iloc(seq, i)) for i, v in enumerate(seq)]
        base = Path(self.file).parent
        out: list[str] = []
        for value, where in entries:
            if not isinstance(value, str) or not value.strip() or "\x00" in value:
                raise WarcouncilError(f"a rules entry must be a file path, not {describe(value)}", where)
            resolved = base / value
            try:
                found = resolved.exists()
            except (OSError, ValueError) as e:  # e.g. a name too long for the file system
                raise WarcouncilError(f"rule file {bounded(value)!r} cannot be opened: "
                                      f"{getattr(e, 'strerror', None) or e}", where) from None
            if not found:
                raise WarcouncilError(f"rule file {bounded(value)!r} not found (looked for {bounded(str(resolved))})", where)
            out.append(str(resolved))
        return tuple(out)


def _where_or(value: Any, default: Location) -> Location:
    loc = getattr(value, "where", None)
    return loc if isinstance(loc, Location) else default


