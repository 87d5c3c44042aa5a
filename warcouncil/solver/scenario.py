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
from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from warcouncil.errors import Location, WarcouncilError, bounded, closest
from warcouncil.records import record
from warcouncil.textfile import YAML_LIMIT, read_text as _read_bounded
from warcouncil.solver.ydoc import (  # noqa: F401 - re-exported
    MAX_YAML_DEPTH, MAX_YAML_NODES, MAX_YAML_TEXT, YDict, YList)
from warcouncil.solver.ydoc import load as _ydoc_load
from warcouncil.solver.board import (
    Board,
    Cell,
    PLAIN_VIEWS,
    board_from_mapping,
    parse_cell,
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
    from .yamlread import parse  # PyYAML: only for a document that is not in the cache

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
# The schema: every field of a scenario file, its type and its range
#
# One table per kind of entry (the scenario, a side, a piece, a terrain
# tile). A field is checked by its ``Field``; the messages name the field,
# what it must be and the value found, at the value's place. The same table
# gives the JSON Schema the contract publishes for editors (``json_schema``).

#: Bounds on what a scenario may say: far above any real battle, far below
#: what would hurt.
MAX_ID_LENGTH = 64
MAX_NAME_LENGTH = 200  # a scenario's or a board's name: a title ("Akragas (406 BC) – the Carthaginian attack, ...")
MAX_COMMAND = 100  # a side's command (C&C: cards held; 6 at most in the games)
MAX_BLOCKS = 10  # a piece's blocks (C&C: at most 4; the pack's unit type bounds it further)
MAX_PIECES = 1000


@record
class Field:
    """One field of an entry: what it must be, in words (for messages), a
    test of a value, and its JSON Schema. A list field may check ``each``
    item (a ``Field``, ``Record`` or ``AnyOf``) at the item's own place;
    ``default``: its value when a ``Record`` entry does not give it."""

    what: str
    ok: Any  # value -> bool
    schema: dict
    each: Any = None
    default: Any = None

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        """``value`` (of ``whose`` field ``key``, at ``where``), or bad input there."""
        if not self.ok(value):
            choices = self.schema.get("enum")
            raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {_describe(value)}", where,
                                  hint=_hint(value, choices) if choices and isinstance(value, str) else None)
        if self.each is not None and isinstance(value, list):
            for i, item in enumerate(value):
                self.each.check(item, _item_at(value, i, where), whose, f"{key}[{i + 1}]")
        elif self.each is not None and isinstance(value, dict):  # a mapping of names to one kind of value
            for k, item in value.items():
                self.each.check(item, getattr(value, "value_where", {}).get(k, where), whose, f"{key}: {k}")
        return value


@record
class AnyOf:
    """A field that may take one of several forms (``Field``/``Record``):
    a value is checked by the first form whose ``ok`` takes it."""

    forms: tuple
    default: Any = None

    @property
    def what(self) -> str:
        return " or ".join(f.what for f in self.forms)

    def ok(self, value: Any) -> bool:
        return any(f.ok(value) for f in self.forms)

    @property
    def schema(self) -> dict:
        return {"anyOf": [f.schema for f in self.forms]}

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        for f in self.forms:
            if f.ok(value):
                return f.check(value, where, whose, key)
        raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {_describe(value)}", where)


class _Inner(str):
    """The name of an entry that is not the whole file (``Record.name_of``)."""


@record
class ByKey:
    """A mapping that may be one of several ``Record``s, told apart by the
    key it has (a turn file's activation has ``unit``, an exchange has
    ``exchange``): checked by the first whose key it has."""

    what: str
    forms: dict  # key -> Record
    default: Any = None

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict) and any(k in value for k in self.forms)

    def form(self, value: Any) -> "Record":
        """The record of ``value`` (one ``ok`` takes)."""
        return next(r for k, r in self.forms.items() if k in value)

    @property
    def schema(self) -> dict:
        return {"anyOf": [r.schema for r in self.forms.values()]}

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        if not self.ok(value):
            raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {_describe(value)}", where)
        return self.form(value).check(value, where, whose, key)


@record
class Record:
    """One kind of entry of a file (a mapping): its fields, by key, in one
    declared place; which must be given; ``noun`` names an entry in
    messages, with the value of its ``label`` field (``unit r1``).
    ``check`` reads an entry, every field by its ``Field`` at its place;
    ``schema`` is its JSON Schema. A system reading files of its own shape
    declares one ``Record`` per kind of entry (``System.records``)."""

    what: str  # in words, "a unit"
    fields: dict
    required: tuple[str, ...] = ()
    noun: str = ""
    label: str | None = None
    default: Any = None
    #: keys refused with a word on why (e.g. the rolls of a plan)
    refused: dict = dataclasses.field(default_factory=dict)

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict)

    @property
    def schema(self) -> dict:
        return {"type": "object", "additionalProperties": False, "required": list(self.required),
                "properties": {k: f.schema for k, f in self.fields.items()}}

    def name_of(self, m: Any, key: str | None = None, whose: str = "") -> str:
        """How messages name entry ``m`` (``key``: where it is, e.g. ``units[3]``;
        ``whose``: the entry it is in, named when that is not the file itself:
        ``side 'romans': command_points``)."""
        v = m.get(self.label) if self.label and isinstance(m, dict) else None
        if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v).strip():
            return bounded(f"{self.noun or self.what} {v}", 60)
        if key and self.noun and key.endswith("]") and "[" in key:  # the n-th of its list
            key = f"{self.noun} {key[key.rindex('[') + 1:-1]}"
        if key and isinstance(whose, _Inner):
            return f"{whose}: {key}"
        return key or self.noun or self.what

    def check(self, value: Any, where: Location, whose: str = "", key: str | None = None) -> YDict:
        if not isinstance(value, dict):
            if key:
                raise WarcouncilError(f"{whose + ': ' if whose else ''}{key} must be {self.what} (a mapping), "
                                      f"not {_describe(value)}", where)
            raise WarcouncilError(f"{self.what} must be a mapping, not {_describe(value)}", where)
        me = self.name_of(value, key, whose)
        if key is not None:  # an entry inside the file: what is inside it names it
            me = _Inner(me)
        allowed = tuple(self.fields)
        here = getattr(value, "where", None) or where
        keys_at, values_at = getattr(value, "key_where", {}), getattr(value, "value_where", {})
        for k in value:
            if k in self.refused:
                raise WarcouncilError(f"{me}: {self.refused[k]}", keys_at.get(k, here))
            if k not in self.fields:
                raise WarcouncilError(f"unknown key {_describe(k)} in {me}; expected {', '.join(allowed)}",
                                      keys_at.get(k, here), hint=_hint(k, allowed))
        for k in self.required:
            if k not in value:
                raise WarcouncilError(f"{me} is missing {k!r}", here)
        for k, v in value.items():
            self.fields[k].check(v, values_at.get(k, here), me, k)
        return value

    def read(self, value: Any, where: Location, label: str | None = None) -> YDict:
        """A whole mapping of a file (``label``: how messages name it, else
        the record's own words), checked as ``check`` does."""
        return self.check(value, where, "", label)

    def get(self, m: YDict, key: str) -> Any:
        """``m[key]``, or the field's default when ``m`` does not give it."""
        return m[key] if key in m else self.fields[key].default

    def where(self, m: YDict, key: str) -> Location:
        """The place of ``m``'s ``key`` (its value's; the entry's when absent)."""
        return m.value_where.get(key, m.where)


def _item_at(seq: Any, i: int, default: Location) -> Location:
    items = getattr(seq, "item_where", None)
    return items[i] if items is not None and i < len(items) else default


def file_schema(record: Record, title: str) -> dict:
    """The JSON Schema of a whole file whose top is ``record``."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **record.schema}


def number_field(lo: float, hi: float, what: str = "a number", above: bool = False,
                 default: Any = None) -> Field:
    """A finite number from ``lo`` (or above it, ``above``) to ``hi``."""
    import math

    def ok(v: Any) -> bool:
        return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and (v > lo if above else v >= lo) and v <= hi)
    words = f"{what} above {lo:g}, at most {hi:g}" if above else f"{what} from {lo:g} to {hi:g}"
    low = {"exclusiveMinimum": lo} if above else {"minimum": lo}
    return Field(words, ok, {"type": "number", **low, "maximum": hi}, default=default)


def int_field(lo: int, hi: int, what: str = "a whole number", default: Any = None) -> Field:
    """A whole number from ``lo`` to ``hi`` (no booleans, no floats)."""
    return Field(f"{what} from {lo} to {hi}", lambda v: is_int(v) and lo <= v <= hi,
                 {"type": "integer", "minimum": lo, "maximum": hi}, default=default)


def choice_field(choices: tuple[str, ...], default: Any = None) -> Field:
    """One of ``choices``."""
    return Field(f"one of {', '.join(choices)}", lambda v: isinstance(v, str) and v in choices,
                 {"enum": list(choices)}, default=default)


def flag_field(default: bool = False) -> Field:
    """``true`` or ``false``."""
    return Field("true or false", lambda v: isinstance(v, bool), {"type": "boolean"}, default=default)


def list_field(each: Any, lo: int = 0, hi: int = MAX_PIECES, what: str | None = None,
               default: Any = None, nullable: bool = False) -> Field:
    """A list of ``lo`` to ``hi`` items, each checked by ``each`` at its
    place (``nullable``: or nothing, read as the empty list)."""
    def ok(v: Any) -> bool:
        return (nullable and v is None) or (isinstance(v, list) and lo <= len(v) <= hi)
    words = what or f"a list of {lo} to {hi} items ({each.what} each)"
    schema: dict = {"type": ["array", "null"] if nullable else "array", "items": each.schema,
                    "minItems": lo, "maxItems": hi}
    return Field(words, ok, schema, each=each, default=default)


NULL = Field("nothing", lambda v: v is None, {"type": "null"})


def is_int(v: Any) -> bool:
    """A whole number (a bool is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def id_problem(v: Any, longest: int = MAX_ID_LENGTH) -> str | None:
    """Why ``v`` is not a good id or name (None: it is one): a non-empty
    string of at most ``MAX_ID_LENGTH`` characters, without spaces at its
    ends and without control characters (newlines, tabs, ...)."""
    if not isinstance(v, str):
        return "a string"
    if not v.strip():
        return "a non-empty string"
    if v != v.strip():
        return "a string without spaces at its ends"
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in v):
        return "a string without control characters (newlines, tabs)"
    if len(v) > longest:
        return f"a string of at most {longest} characters"
    return None


ID_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH, "pattern": r"^\S(.*\S)?$"}
NAME = Field("a non-empty string without spaces at its ends or control characters",
             lambda v: id_problem(v) is None, ID_SCHEMA)
#: a title (a scenario's or a board's name): as an id, but up to MAX_NAME_LENGTH characters
TITLE = Field(f"a non-empty string of at most {MAX_NAME_LENGTH} characters without spaces at its ends or "
              "control characters", lambda v: id_problem(v, MAX_NAME_LENGTH) is None,
              dict(ID_SCHEMA, maxLength=MAX_NAME_LENGTH))
CELL_SCHEMA = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}

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


def _hint(name: Any, known: Iterable[str]) -> str | None:
    near = closest(str(name), list(known))
    return f"did you mean {' or '.join(near)}?" if near else None


def _vloc(m: YDict, key: str) -> Location:
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
            raise WarcouncilError(f"{what} must be a mapping, not {_describe(value)}", where)
        return value

    def listing(self, value: Any, where: Location, what: str) -> YList:
        if not isinstance(value, YList):
            raise WarcouncilError(f"{what} must be a list, not {_describe(value)}", where)
        return value

    def keys(self, m: YDict, required: tuple[str, ...], optional: tuple[str, ...], what: str) -> None:
        allowed = required + optional
        for k in m:
            if k not in allowed:
                raise WarcouncilError(
                    f"unknown key {_describe(k)} in {what}; expected {', '.join(allowed)}",
                    m.key_where[k],
                    hint=_hint(k, allowed),
                )
        for k in required:
            if k not in m:
                raise WarcouncilError(f"{what} is missing {k!r}", m.where)

    def field(self, m: YDict, key: str, f: Field, what: str) -> Any:
        """``m[key]`` checked by its field ``f`` (``what``: whose field, for the message)."""
        v = m[key]
        if not f.ok(v):
            raise WarcouncilError(f"{what}: {key} must be {f.what}, not {_describe(v)}", _vloc(m, key))
        return v

    def name(self, m: YDict, key: str, what: str, longest: int = MAX_ID_LENGTH) -> str:
        v = m[key]
        why = id_problem(v, longest)
        if why is not None:
            raise WarcouncilError(f"{what} {key} must be {why}, not {_describe(v)}", _vloc(m, key))
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
                f"to_move must name a side ({', '.join(sides)}), not {_describe(to_move)}",
                _vloc(top, "to_move"),
                hint=_hint(to_move, sides),
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
        raw = self.mapping(top["sides"], _vloc(top, "sides"), "sides")
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
                raise WarcouncilError(f"a side name must be {why}, not {_describe(sname)}", kloc)
            m = self.mapping(spec, raw.value_where[sname], f"side {sname!r}")
            self.keys(m, tuple(SIDE_FIELDS), tuple(system.side_fields), f"side {sname!r}")
            edge = m["edge"]
            if edge not in allowed:
                more = ("" if not isinstance(edge, str) or edge not in SIDE_FIELDS["edge"].schema["enum"]
                        else f" ({system.title or 'this game'} plays across the board from "
                             f"{' or '.join(allowed)})")
                raise WarcouncilError(
                    f"side {sname!r}: edge must be one of {', '.join(allowed)}, not {_describe(edge)}" + more,
                    _vloc(m, "edge"),
                    hint=_hint(edge, allowed),
                )
            if edge in edges:
                raise WarcouncilError(
                    f"sides {edges[edge]!r} and {sname!r} both have the {edge} edge", _vloc(m, "edge")
                )
            edges[edge] = sname
            self.edge_where[sname] = _vloc(m, "edge")
            command = self.field(m, "command", SIDE_FIELDS["command"], f"side {sname!r}")
            more, more_where = [], {}
            for k, f in system.side_fields.items():  # the system's own keys (C&C: the hand)
                if k in m:
                    v = f.check(m[k], _vloc(m, k), f"side {sname!r}", k)
                    more.append((k, tuple(v) if isinstance(v, list) else v))
                    more_where[k] = (_vloc(m, k), tuple(getattr(v, "item_where", ())))
            sides[sname] = Side(sname, edge, command, tuple(more), more_where)
        return sides

    def board(self, top: YDict, system) -> Board:
        raw = top["board"]
        loc = _vloc(top, "board")
        from .system import named_board

        if isinstance(raw, str):
            return named_board(raw, loc, system)
        if isinstance(raw, YDict):
            return board_from_mapping(raw, loc, system.section_views or PLAIN_VIEWS)
        raise WarcouncilError(f"board must be a board name or a mapping, not {_describe(raw)}", loc)

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
        seq = self.listing(raw, _vloc(top, key), key)
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
                raise WarcouncilError(f"{kind} id must be {why}, not {_describe(pid)}", _vloc(m, "id"))
            if pid in ids:
                raise WarcouncilError(
                    f"duplicate id {pid!r} (already used at line {ids[pid].line})", _vloc(m, "id")
                )
            ids[pid] = _vloc(m, "id")

            side = m["side"]
            if not isinstance(side, str) or side not in sides:
                raise WarcouncilError(
                    f"{kind} {pid}: unknown side {_describe(side)}; sides: {', '.join(sides)}",
                    _vloc(m, "side"),
                    hint=_hint(side, sides),
                )

            utype = self.name(m, "type", f"{kind} {pid}") if "type" in m else None
            at = parse_cell(m["at"], board, _vloc(m, "at"), what=f"{kind} {pid} position")
            blocks = (self.field(m, "blocks", PIECE_FIELDS["blocks"], f"{kind} {pid}")
                      if m.get("blocks") is not None else None)
            facing = m.get("facing")
            if facing is not None:
                f = PIECE_FIELDS["facing"]
                if not f.ok(facing):
                    raise WarcouncilError(
                        f"{kind} {pid}: facing must be {f.what}, not {_describe(facing)}",
                        _vloc(m, "facing"),
                        hint=_hint(facing, FACINGS),
                    )

            piece = Piece(pid, side, kind, utype, at, blocks, m.where, facing)
            if at in occupied:
                other = occupied[at]
                raise WarcouncilError(
                    f"{kind}s {other.id} and {pid} are both on [{at[0]}, {at[1]}]"
                    f" ({other.id} at line {other.where.line})",
                    _vloc(m, "at"),
                )
            occupied[at] = piece
            out.append(piece)
        return tuple(out)

    def terrain(self, top: YDict, board: Board) -> tuple[Terrain, ...]:
        raw = top["terrain"]
        if raw is None:
            return ()
        seq = self.listing(raw, _vloc(top, "terrain"), "terrain")
        seen: dict[Cell, Terrain] = {}
        for i, item in enumerate(seq):
            m = self.mapping(item, _iloc(seq, i), "each terrain entry")
            self.keys(m, tuple(TERRAIN_FIELDS), (), f"terrain #{i + 1}")
            ttype = self.name(m, "type", "terrain")
            at = parse_cell(m["at"], board, _vloc(m, "at"), what=f"terrain {ttype} position")
            if at in seen:
                raise WarcouncilError(
                    f"two terrain tiles on [{at[0]}, {at[1]}] "
                    f"({seen[at].type} at line {seen[at].where.line} and {ttype})",
                    _vloc(m, "at"),
                )
            seen[at] = Terrain(at, ttype, m.where)
        return tuple(seen.values())

    def rules(self, top: YDict) -> tuple[str, ...]:
        raw = top["rules"]
        loc = _vloc(top, "rules")
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
                raise WarcouncilError(f"a rules entry must be a file path, not {_describe(value)}", where)
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


def _describe(value: Any) -> str:
    if isinstance(value, YDict):
        return "a mapping"
    if isinstance(value, YList):
        return "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
