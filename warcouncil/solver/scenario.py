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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.resolver import Resolver
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warcouncil.errors import Location, WarcouncilError, bounded, closest
from warcouncil.textfile import YAML_LIMIT, read_text as _read_bounded
from warcouncil.solver.board import (
    Board,
    Cell,
    PLAIN_VIEWS,
    board_from_mapping,
    parse_cell,
)

FACINGS = ("north", "east", "south", "west")


# ---------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Side:
    name: str
    edge: str  # one of the edges its system allows (``System.edges``)
    command: int  # the side's command (C&C: cards held)


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class Terrain:
    at: Cell
    type: str
    where: Location = field(compare=False)


@dataclass(frozen=True)
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


class YDict(dict):
    """A YAML mapping that remembers where it, its keys and its values were."""

    where: Location
    key_where: dict[Any, Location]
    value_where: dict[Any, Location]


class YList(list):
    """A YAML sequence that remembers where it and its items were."""

    where: Location
    item_where: list[Location]


# Bounds on a YAML document, checked while it is composed -- before anything
# is built from it. A scenario nests about 5 deep and has a few hundred
# nodes; the bounds are far above that and far below what would hurt.
MAX_YAML_DEPTH = 64
# Nodes counted with every alias expanded (an alias counts as a copy of what
# it names), so an alias bomb ("billion laughs") stops at this many.
MAX_YAML_NODES = 100_000

try:  # libyaml's parser for the events when available (much faster)
    from yaml.cyaml import CParser

    class _Events(CParser):
        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)

except ImportError:  # pragma: no cover - PyYAML without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Events(Reader, Scanner, Parser):  # type: ignore[no-redef]
        def __init__(self, text: str) -> None:
            Reader.__init__(self, text)
            Scanner.__init__(self)
            Parser.__init__(self)


class _TooBig(Exception):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message, self.mark = message, mark


class _BoundedLoader(Composer, _Events, Resolver):
    """Events from the parser, composed into nodes by PyYAML's Python
    composer (never libyaml's, which recurses on the C stack and crashes on
    25,000 nested brackets) under a bound on depth and expanded size."""

    def __init__(self, text: str) -> None:
        _Events.__init__(self, text)
        Composer.__init__(self)
        Resolver.__init__(self)
        self.depth = 0
        self.expanded = 0
        self.sizes: dict[int, int] = {}

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None:
                size = self.sizes.get(id(node))
                if size is None:
                    raise _TooBig("recursive YAML alias", event.start_mark)
                self._count(size, event.start_mark)
            return Composer.compose_node(self, parent, index)
        self.depth += 1
        if self.depth > MAX_YAML_DEPTH:
            raise _TooBig(f"YAML nested too deeply (more than {MAX_YAML_DEPTH} levels)",
                          self.peek_event().start_mark)
        try:
            before = self.expanded
            node = Composer.compose_node(self, parent, index)
            self._count(1, node.start_mark)
            self.sizes[id(node)] = self.expanded - before
            return node
        finally:
            self.depth -= 1

    def _count(self, n: int, mark: Any) -> None:
        self.expanded += n
        if self.expanded > MAX_YAML_NODES:
            raise _TooBig(
                f"YAML too large: more than {MAX_YAML_NODES:,} values (counting each alias "
                "as a copy of what it names)", mark)


_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _mark_loc(file: str, mark: Any) -> Location:
    if mark is None:
        return Location(file)
    return Location(file, mark.line + 1, mark.column + 1)


class _Builder:
    """Builds plain values (YDict / YList / scalars) from a composed node tree."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.scalars = SafeConstructor()
        self.memo: dict[int, Any] = {}
        self.active: set[int] = set()

    def build(self, node: Node) -> Any:
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        loc = _mark_loc(self.file, node.start_mark)
        if key in self.active:
            raise WarcouncilError("recursive YAML alias", loc)
        if isinstance(node, ScalarNode):
            if node.tag == _MERGE_TAG:
                raise WarcouncilError("YAML merge keys (<<) are not supported", loc)
            try:
                value = self.scalars.construct_object(node)
            except Exception as e:  # any constructor failure is bad input
                raise WarcouncilError(f"bad YAML value {node.value!r}: {_yaml_problem(e)}", loc) from None
            self.memo[key] = value
            return value
        self.active.add(key)
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ_TAG:
                    raise WarcouncilError(f"unsupported YAML tag {node.tag!r}", loc)
                seq = YList(self.build(child) for child in node.value)
                seq.where = loc
                seq.item_where = [_mark_loc(self.file, c.start_mark) for c in node.value]
                result: Any = seq
            elif isinstance(node, MappingNode):
                if node.tag != _MAP_TAG:
                    raise WarcouncilError(f"unsupported YAML tag {node.tag!r}", loc)
                m = YDict()
                m.where, m.key_where, m.value_where = loc, {}, {}
                for knode, vnode in node.value:
                    kloc = _mark_loc(self.file, knode.start_mark)
                    if not isinstance(knode, ScalarNode):
                        raise WarcouncilError("a mapping key must be a plain value", kloc)
                    k = self.build(knode)
                    if k in m:
                        raise WarcouncilError(
                            f"duplicate key {k!r} (first at line {m.key_where[k].line})", kloc
                        )
                    m[k] = self.build(vnode)
                    m.key_where[k] = kloc
                    m.value_where[k] = _mark_loc(self.file, vnode.start_mark)
                result = m
            else:  # pragma: no cover - the composer makes no other nodes
                raise WarcouncilError("unexpected YAML node", loc)
        finally:
            self.active.discard(key)
        self.memo[key] = result
        return result


def _yaml_problem(e: BaseException) -> str:
    problem = getattr(e, "problem", None)
    if problem:
        context = getattr(e, "context", None)
        return f"{problem} ({context})" if context else str(problem)
    return str(e) or type(e).__name__


def parse_yaml(text: str, file: str) -> Any:
    """Parse one YAML document into YDict / YList / scalars carrying locations.

    ``None`` for an empty document. Malformed YAML is a ``WarcouncilError``
    at the line and column PyYAML reports; so is a document nested deeper
    than ``MAX_YAML_DEPTH`` or holding more than ``MAX_YAML_NODES`` values
    with its aliases expanded, refused while it is composed.
    """
    if len(text) > YAML_LIMIT:  # text that came from elsewhere than read_text
        raise WarcouncilError(f"YAML too large: {len(text):,} characters, the limit is {YAML_LIMIT:,}",
                              Location(file))
    loader = _BoundedLoader(text)
    try:
        node = loader.get_single_node()
    except _TooBig as e:
        raise WarcouncilError(e.message, _mark_loc(file, e.mark)) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        problem = _yaml_problem(e)
        cm = e.context_mark
        if cm is not None and e.problem_mark is not None and cm.line != e.problem_mark.line:
            problem += f", started at line {cm.line + 1}"
        raise WarcouncilError(f"malformed YAML: {problem}", _mark_loc(file, mark)) from None
    except yaml.reader.ReaderError as e:
        before = text[: e.position]
        loc = Location(file, before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
        raise WarcouncilError(
            f"malformed YAML: unacceptable character #x{e.character:04x}: {e.reason}", loc
        ) from None
    except yaml.YAMLError as e:
        raise WarcouncilError(f"malformed YAML: {_yaml_problem(e)}", Location(file)) from None
    except RecursionError:
        raise WarcouncilError("malformed YAML: nested too deeply", Location(file)) from None
    finally:
        loader.dispose()
    if node is None:
        return None
    try:
        return _Builder(file).build(node)
    except RecursionError:
        raise WarcouncilError("YAML nested too deeply", Location(file)) from None


def read_text(path: str | os.PathLike[str]) -> str:
    """A YAML file's text (UTF-8): a regular file of at most ``YAML_LIMIT``
    bytes; anything else is bad input."""
    return _read_bounded(path, YAML_LIMIT, "file")


def read_yaml_file(path: str | os.PathLike[str]) -> Any:
    """Read and parse a YAML file into values carrying their locations."""
    return parse_yaml(read_text(path), os.fspath(path))


# ---------------------------------------------------------------------------
# Shipped scenarios


def shipped_scenarios() -> dict[str, Traversable]:
    """Scenarios shipped in ``warcouncil/examples/<system>/<name>.yaml``.

    Keyed by stem (``akragas``) and by ``<system>/<stem>``; on a stem clash
    the first system in alphabetical order wins the bare name.
    """
    found: dict[str, Traversable] = {}
    root = resources.files("warcouncil") / "examples"
    if not root.is_dir():
        return found
    for sysdir in sorted(root.iterdir(), key=lambda t: t.name):
        if not sysdir.is_dir():
            continue
        for f in sorted(sysdir.iterdir(), key=lambda t: t.name):
            if f.is_file() and f.name.endswith(".yaml"):
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
    if p.exists():  # a folder or a device: the reader says what it is
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
    text = _read_bounded(file, YAML_LIMIT, "scenario file")
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

    if path and not (PACKS_DIR / system).is_dir():
        near = Path(path).parent / system
        if near.exists():
            return str(near)
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
MAX_COMMAND = 100  # a side's command (C&C: cards held; 6 at most in the games)
MAX_BLOCKS = 10  # a piece's blocks (C&C: at most 4; the pack's unit type bounds it further)
MAX_PIECES = 1000


@dataclass(frozen=True)
class Field:
    """One field of an entry: what it must be, in words (for messages), a
    test of a value, and its JSON Schema; ``inner``: for a list or a
    mapping, what each item or the mapping is (a ``Field`` or an ``Entry``),
    checked by ``Entry.read`` at its own place."""

    what: str
    ok: Any  # value -> bool
    schema: dict
    inner: Any = None


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int_field(lo: int, hi: int, what: str) -> Field:
    return Field(f"{what} from {lo} to {hi}", lambda v: _is_int(v) and lo <= v <= hi,
                 {"type": "integer", "minimum": lo, "maximum": hi})


def _choice_field(choices: tuple[str, ...]) -> Field:
    return Field(f"one of {', '.join(choices)}", lambda v: isinstance(v, str) and v in choices,
                 {"enum": list(choices)})


int_field = _int_field
choice_field = _choice_field
BOOL = Field("true or false", lambda v: isinstance(v, bool), {"type": "boolean"})


def list_field(item: "Field | Entry", lo: int = 0, hi: int = MAX_PIECES) -> Field:
    """A list of ``lo`` to ``hi`` items, each an ``item`` (a field or an entry)."""
    what = item.what if isinstance(item, Field) else f"{item.what} mappings"
    return Field(f"a list of {lo} to {hi} items, each {what}",
                 lambda v: isinstance(v, list) and lo <= len(v) <= hi,
                 {"type": "array", "minItems": lo, "maxItems": hi, "items": item.schema
                  if isinstance(item, Field) else item.json_schema()}, item)


def mapping_field(entry: "Entry") -> Field:
    """A mapping read by its own table ``entry``."""
    return Field(f"a mapping ({entry.what})", lambda v: isinstance(v, dict), entry.json_schema(), entry)


@dataclass(frozen=True)
class Entry:
    """A kind of mapping in a file: its fields, each a ``Field``, and the
    ones it must have. ``read`` checks a mapping against the table (unknown
    and missing keys, each field's type and range, inner lists and mappings
    at their own places); ``json_schema`` is the same table for editors."""

    what: str
    fields: Mapping[str, Field]
    required: tuple[str, ...] = ()
    named_by: str | None = None  # the key that names an item in messages (``unit r1``), if any

    def json_schema(self) -> dict:
        return {"type": "object", "additionalProperties": False, "required": list(self.required),
                "properties": {k: f.schema for k, f in self.fields.items()}}

    def read(self, value: Any, where: Location | None, label: str | None = None) -> Any:
        """``value`` checked by the table (``label``: how messages name it,
        e.g. ``unit r1``); returns ``value``."""
        label = label or self.what
        if not isinstance(value, dict):
            raise WarcouncilError(f"{label} must be a mapping, not {_describe(value)}", where)
        where = _where_or(value, where)
        for k in value:
            if k not in self.fields:
                raise WarcouncilError(f"unknown key {_describe(k)} in {label}; expected {', '.join(self.fields)}",
                                      getattr(value, "key_where", {}).get(k, where), hint=_hint(k, self.fields))
        for k in self.required:
            if k not in value:
                raise WarcouncilError(f"{label} is missing {k!r}", where)
        for k, v in value.items():
            _check(self.fields[k], v, getattr(value, "value_where", {}).get(k, where), f"{label}: {k}")
        return value


def _check(f: Field, v: Any, where: Location | None, what: str) -> None:
    if not f.ok(v):
        choices = f.schema.get("enum")
        raise WarcouncilError(f"{what} must be {f.what}, not {_describe(v)}", where,
                              hint=_hint(v, choices) if choices and isinstance(v, str) else None)
    inner = f.inner  # a mapping is read by an inner entry; a list's items by the inner field or entry
    if isinstance(inner, Entry) and isinstance(v, dict):
        inner.read(v, where, what)
    elif isinstance(inner, Field) and isinstance(v, dict):  # a mapping of names to values of one field
        for k, x in v.items():
            _check(inner, x, getattr(v, "value_where", {}).get(k, where), f"{what}: {k}")
    elif inner is not None and isinstance(v, list):
        for i, item in enumerate(v):
            at = v.item_where[i] if isinstance(v, YList) and i < len(v.item_where) else where
            if not isinstance(inner, Entry) or not isinstance(item, dict):
                _check(inner, item, at, f"{what} #{i + 1}") if isinstance(inner, Field) else \
                    inner.read(item, at, f"{what} #{i + 1}")
                continue
            name = item.get(inner.named_by) if inner.named_by and isinstance(item, dict) else None
            label = (f"{inner.what} {name}" if isinstance(name, str) and id_problem(name) is None
                     else f"{what} #{i + 1}")
            inner.read(item, at, label)


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
CELL_SCHEMA = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}

#: a side: ``{edge, command}`` (the edges: the system's, ``System.edges``)
SIDE_FIELDS: dict[str, Field] = {
    "edge": Field("an edge", lambda v: isinstance(v, str), {"enum": ["north", "south", "east", "west"]}),
    "command": _int_field(1, MAX_COMMAND, "a positive whole number"),
}
#: a piece, in any list (which keys a list has: ``System.piece_lists``)
PIECE_FIELDS: dict[str, Field] = {
    "id": Field("a piece id: " + NAME.what, lambda v: id_problem(v) is None,
                {"anyOf": [ID_SCHEMA, {"type": "integer", "minimum": 0}]}),
    "side": Field("a side's name", lambda v: isinstance(v, str), {"type": "string"}),
    "type": NAME,
    "at": Field("a position", lambda v: True, CELL_SCHEMA),
    "blocks": _int_field(1, MAX_BLOCKS, "a positive whole number"),
    "facing": _choice_field(FACINGS),
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
    own = getattr(system, "scenario_schema", None)
    if own is not None:  # a system that reads its own scenario shape publishes its tables
        return own()
    lists = system.piece_lists
    props: dict[str, Any] = {
        "name": NAME.schema, "system": NAME.schema,
        "board": {"anyOf": [{"type": "string"}, {"type": "object"}]},
        "sides": {"type": "object", "minProperties": 2, "maxProperties": 2,
                  "additionalProperties": {
                      "type": "object", "additionalProperties": False, "required": list(SIDE_FIELDS),
                      "properties": {**{k: f.schema for k, f in SIDE_FIELDS.items()},
                                     "edge": {"enum": list(system.edges)}}}},
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

        name = self.name(top, "name", "scenario") if "name" in top else Path(self.file).stem
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
            self.keys(m, tuple(SIDE_FIELDS), (), f"side {sname!r}")
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
            sides[sname] = Side(sname, edge, command)
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
            if _is_int(pid) and pid >= 0:
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
            if not resolved.exists():
                raise WarcouncilError(f"rule file {value!r} not found (looked for {resolved})", where)
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
