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
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.resolver import Resolver
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from warcouncil.errors import Location, WarcouncilError, closest
from warcouncil.textfile import YAML_LIMIT, read_text as _read_bounded
from warcouncil.solver.board import (
    EDGES,
    Board,
    Cell,
    board_from_mapping,
    named_board,
    parse_cell,
)

FACINGS = ("north", "east", "south", "west")


# ---------------------------------------------------------------------------
# Data


@dataclass(frozen=True)
class Side:
    name: str
    edge: str  # "north", "south" (or "east"/"west" for future systems)
    command: int  # Command cards held


@dataclass(frozen=True)
class Piece:
    """A unit or a leader on the board."""

    id: str
    side: str
    kind: str  # "unit" or "leader"
    type: str | None  # unit type id; None for leaders
    at: Cell
    blocks: int | None
    where: Location = field(compare=False)  # where the piece is defined
    facing: str | None = None  # square-grid systems only


@dataclass(frozen=True)
class Terrain:
    at: Cell
    type: str
    where: Location = field(compare=False)


@dataclass(frozen=True)
class Scenario:
    name: str
    path: str | None
    system: str
    board: Board
    sides: dict[str, Side]
    to_move: str
    units: tuple[Piece, ...]
    leaders: tuple[Piece, ...]
    terrain: tuple[Terrain, ...]
    # house-rule files/folders named by the scenario (key `rules:`), resolved
    # relative to the scenario file
    rules: tuple[str, ...] = ()

    _by_id: dict[str, Piece] = field(init=False, repr=False, compare=False)
    _unit_at: dict[Cell, Piece] = field(init=False, repr=False, compare=False)
    _leader_at: dict[Cell, Piece] = field(init=False, repr=False, compare=False)
    _terrain_at: dict[Cell, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", dict(self.sides))
        object.__setattr__(self, "_by_id", {p.id: p for p in (*self.units, *self.leaders)})
        object.__setattr__(self, "_unit_at", {p.at: p for p in self.units})
        object.__setattr__(self, "_leader_at", {p.at: p for p in self.leaders})
        object.__setattr__(self, "_terrain_at", {t.at: t.type for t in self.terrain})

    def __hash__(self) -> int:
        return hash(
            (self.name, self.system, self.board, tuple(sorted(self.sides.items())),
             self.to_move, self.units, self.leaders, self.terrain, self.rules)
        )

    # -- look-ups ---------------------------------------------------------

    def piece(self, id: str) -> Piece:
        """The unit or leader with this id; unknown ids are bad input."""
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

    def units_of(self, side: str) -> tuple[Piece, ...]:
        self._side(side)
        return tuple(p for p in self.units if p.side == side)

    def leaders_of(self, side: str) -> tuple[Piece, ...]:
        self._side(side)
        return tuple(p for p in self.leaders if p.side == side)

    def unit_at(self, cell: Cell) -> Piece | None:
        return self._unit_at.get(cell)

    def leader_at(self, cell: Cell) -> Piece | None:
        return self._leader_at.get(cell)

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


_TOP_REQUIRED = ("system", "board", "sides", "to_move", "units")
_TOP_OPTIONAL = ("name", "leaders", "terrain", "rules")
_SIDE_KEYS = ("edge", "command")
# The scenario's piece lists and the role (declared by the pack: `roles`)
# each gives its pieces. The engine refuses a list whose role the pack lacks.
ROLE_OF_LIST = {"units": "unit", "leaders": "leader"}

_UNIT_KEYS = ("id", "side", "type", "at", "blocks", "facing")
_LEADER_KEYS = ("id", "side", "at")
_TERRAIN_KEYS = ("at", "type")


def _hint(name: Any, known: Iterable[str]) -> str | None:
    near = closest(str(name), list(known))
    return f"did you mean {' or '.join(near)}?" if near else None


def _vloc(m: YDict, key: str) -> Location:
    return m.value_where.get(key, m.where)


def _iloc(seq: YList, i: int) -> Location:
    return seq.item_where[i] if i < len(seq.item_where) else seq.where


def _is_pos_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


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
                    f"unknown key {k!r} in {what}; expected {', '.join(allowed)}",
                    m.key_where[k],
                    hint=_hint(k, allowed),
                )
        for k in required:
            if k not in m:
                raise WarcouncilError(f"{what} is missing {k!r}", m.where)

    def string(self, m: YDict, key: str, what: str) -> str:
        v = m[key]
        if not isinstance(v, str) or not v.strip():
            raise WarcouncilError(f"{what} {key} must be a non-empty string, not {_describe(v)}", _vloc(m, key))
        return v

    # -- the scenario -----------------------------------------------------

    def scenario(self, data: Any) -> Scenario:
        if data is None:
            raise WarcouncilError("empty scenario file", self.top)
        top = self.mapping(data, _where_or(data, self.top), "a scenario")
        self.keys(top, _TOP_REQUIRED, _TOP_OPTIONAL, "the scenario")

        name = self.string(top, "name", "scenario") if "name" in top else Path(self.file).stem
        system = self.string(top, "system", "scenario")
        sides = self.sides(top)
        board = self.board(top)

        to_move = top["to_move"]
        if not isinstance(to_move, str) or to_move not in sides:
            raise WarcouncilError(
                f"to_move must name a side ({', '.join(sides)}), not {_describe(to_move)}",
                _vloc(top, "to_move"),
                hint=_hint(to_move, sides),
            )

        ids: dict[str, Location] = {}
        units = self.pieces(top, "units", ROLE_OF_LIST["units"], sides, board, ids)
        leaders = self.pieces(top, "leaders", ROLE_OF_LIST["leaders"], sides, board, ids) if "leaders" in top else ()
        self.check_leaders(units, leaders)
        terrain = self.terrain(top, board) if "terrain" in top else ()
        rules = self.rules(top) if "rules" in top else ()

        return Scenario(
            name=name,
            path=self.file,
            system=system,
            board=board,
            sides=sides,
            to_move=to_move,
            units=units,
            leaders=leaders,
            terrain=terrain,
            rules=rules,
        )

    def sides(self, top: YDict) -> dict[str, Side]:
        raw = self.mapping(top["sides"], _vloc(top, "sides"), "sides")
        if len(raw) != 2:
            raise WarcouncilError(f"a scenario needs exactly two sides, not {len(raw)}", raw.where)
        sides: dict[str, Side] = {}
        edges: dict[str, str] = {}
        for sname, spec in raw.items():
            kloc = raw.key_where[sname]
            if not isinstance(sname, str) or not sname.strip():
                raise WarcouncilError(f"a side name must be a string, not {_describe(sname)}", kloc)
            m = self.mapping(spec, raw.value_where[sname], f"side {sname!r}")
            self.keys(m, _SIDE_KEYS, (), f"side {sname!r}")
            edge = m["edge"]
            if edge not in EDGES:
                raise WarcouncilError(
                    f"side {sname!r}: edge must be one of {', '.join(EDGES)}, not {_describe(edge)}",
                    _vloc(m, "edge"),
                    hint=_hint(edge, EDGES),
                )
            if edge in edges:
                raise WarcouncilError(
                    f"sides {edges[edge]!r} and {sname!r} both have the {edge} edge", _vloc(m, "edge")
                )
            edges[edge] = sname
            command = m["command"]
            if not _is_pos_int(command):
                raise WarcouncilError(
                    f"side {sname!r}: command must be a positive whole number of cards, "
                    f"not {_describe(command)}",
                    _vloc(m, "command"),
                )
            sides[sname] = Side(sname, edge, command)
        return sides

    def board(self, top: YDict) -> Board:
        raw = top["board"]
        loc = _vloc(top, "board")
        if isinstance(raw, str):
            return named_board(raw, loc)
        if isinstance(raw, YDict):
            return board_from_mapping(raw, loc)
        raise WarcouncilError(f"board must be a board name or a mapping, not {_describe(raw)}", loc)

    def pieces(
        self,
        top: YDict,
        key: str,
        kind: str,
        sides: dict[str, Side],
        board: Board,
        ids: dict[str, Location],
    ) -> tuple[Piece, ...]:
        raw = top[key]
        if raw is None:  # `leaders:` with nothing under it
            return ()
        seq = self.listing(raw, _vloc(top, key), key)
        keys = _UNIT_KEYS if kind == "unit" else _LEADER_KEYS
        required = ("id", "side", "type", "at") if kind == "unit" else _LEADER_KEYS
        optional = tuple(k for k in keys if k not in required)
        occupied: dict[Cell, Piece] = {}
        out: list[Piece] = []
        for i, item in enumerate(seq):
            m = self.mapping(item, _iloc(seq, i), f"each entry of {key}")
            label = m.get("id")
            label = label if isinstance(label, (str, int)) and not isinstance(label, bool) else f"#{i + 1}"
            self.keys(m, required, optional, f"{kind} {label}")

            pid = m["id"]
            if isinstance(pid, int) and not isinstance(pid, bool):
                pid = str(pid)
            if not isinstance(pid, str) or not pid.strip():
                raise WarcouncilError(f"{kind} id must be a string, not {_describe(pid)}", _vloc(m, "id"))
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

            utype = self.string(m, "type", f"{kind} {pid}") if kind == "unit" else None
            at = parse_cell(m["at"], board, _vloc(m, "at"), what=f"{kind} {pid} position")

            blocks = m.get("blocks")
            if blocks is not None and not _is_pos_int(blocks):
                raise WarcouncilError(
                    f"{kind} {pid}: blocks must be a positive whole number, not {_describe(blocks)}",
                    _vloc(m, "blocks"),
                )
            facing = m.get("facing")
            if facing is not None and facing not in FACINGS:
                raise WarcouncilError(
                    f"{kind} {pid}: facing must be one of {', '.join(FACINGS)}, not {_describe(facing)}",
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

    def check_leaders(self, units: tuple[Piece, ...], leaders: tuple[Piece, ...]) -> None:
        unit_at = {u.at: u for u in units}
        for ldr in leaders:
            u = unit_at.get(ldr.at)
            if u is not None and u.side != ldr.side:
                raise WarcouncilError(
                    f"leader {ldr.id} ({ldr.side}) stands on enemy unit {u.id} ({u.side})"
                    f" at [{ldr.at[0]}, {ldr.at[1]}]",
                    ldr.where,
                )

    def terrain(self, top: YDict, board: Board) -> tuple[Terrain, ...]:
        raw = top["terrain"]
        if raw is None:
            return ()
        seq = self.listing(raw, _vloc(top, "terrain"), "terrain")
        seen: dict[Cell, Terrain] = {}
        for i, item in enumerate(seq):
            m = self.mapping(item, _iloc(seq, i), "each terrain entry")
            self.keys(m, _TERRAIN_KEYS, (), f"terrain #{i + 1}")
            ttype = self.string(m, "type", "terrain")
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
            if not isinstance(value, str) or not value.strip():
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
