"""Turn files (YAML) for ``check``: the keys a game system gives a turn
(``System.turn_keys``: the orders, the moves, the battles, and for Commands
& Colors the card, the second moves, the roll ...), each read and checked by
its kind (``KINDS``)."""

from __future__ import annotations

from contextlib import contextmanager

from dataclasses import dataclass

from ..errors import Location, WarcouncilError, bounded
from ..textfile import YAML_LIMIT, read_text
from ..world.ydoc import YDict, YList
from .scenario import parse_yaml

Cell = tuple[int, int]


@dataclass(frozen=True)
class TurnMove:
    piece: str
    to: Cell
    path: tuple[Cell, ...]
    where: Location


@dataclass(frozen=True)
class TurnBattle:
    piece: str
    target: str
    where: Location


class Turn:
    """A turn file: its values by key (the keys are the game system's,
    ``System.turn_keys``; e.g. ``turn.orders``, ``turn.moves``, and for
    Commands & Colors ``turn.card``). A key the file does not give reads as
    None (a list key read from a file: the empty list)."""

    def __init__(self, path: str | None = None, orders_where: list[Location] | None = None,
                 places: dict[str, Location] | None = None, **values):
        self.path = path
        self.orders_where = list(orders_where or [Location()] * len(values.get("orders") or ()))
        #: where each key's value stands in the file (``place_of``)
        self.places = dict(places or {})
        self.values = values

    def place_of(self, key: str) -> Location | None:
        """Where the value of ``key`` stands in the turn file (None: typed input)."""
        return self.places.get(key)

    @contextmanager
    def at(self, key: str):
        """Bad input raised inside without a place of its own (an unknown
        card or side, met while the turn is judged) is placed at ``key``'s value."""
        try:
            yield
        except WarcouncilError as e:
            if e.location is None:
                e.location = self.place_of(key)
            raise

    def __getattr__(self, name: str):
        values = self.__dict__.get("values")
        if values is None or name.startswith("__"):
            raise AttributeError(name)
        return values.get(name)

    def __repr__(self) -> str:
        return f"Turn({self.values!r})"


#: What each kind of turn-file key holds, in words (for messages): the
#: kinds a system's ``turn_keys`` give their keys.
KINDS = ("name", "ids", "moves", "battles", "count", "faces")
#: the largest number a ``count`` key may hold
MAX_COUNT = 100


def _where(m, key):
    return m.value_where.get(key, m.where) if isinstance(m, YDict) else Location()


def _shown(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return bounded(repr(value), 60)


def _is_scalar(value) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _is_id(value) -> bool:
    return isinstance(value, (str, int)) and not isinstance(value, bool)


def _cell(value, where: Location, board) -> Cell:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise WarcouncilError(f"a hex is [col, row], got {bounded(repr(value), 60)}", where)
    cell = (value[0], value[1])
    if board is not None and not board.contains(cell):
        raise WarcouncilError(f"hex {list(cell)} is off the board", where)
    return cell


def load_turn(path: str, board=None, contextual: bool = True, system=None) -> Turn:
    """A turn file, with the keys of ``system`` (``System.turn_keys``, each
    checked by its kind; those in ``System.turn_required`` must be given).
    Without a system: those of the systems whose decision has a fixed
    context (``System.context``, ``contextual``) known so far, or the
    kernel's. A system without a context refuses another system's context
    key (C&C's ``card:``) with a word on why."""
    text = read_text(path, YAML_LIMIT, "turn file")
    lines = text.splitlines()
    keys, required = _keys_of(system, contextual)
    try:
        return _build(parse_yaml(text, path), path, board, keys, required,
                      contextual if system is None else system.context is not None)
    except WarcouncilError as e:
        loc = e.location
        if e.source_line is None and loc and loc.file == path and loc.line and loc.line <= len(lines):
            e.source_line = lines[loc.line - 1]
        raise


def turn_from_data(data, board=None, system=None, source: str = "<turn>") -> Turn:
    """A turn given as plain data (a dict, as ``load_turn`` would read it from
    a file; the game interface's ``log()``), read and checked as ``load_turn``
    reads a file; problems are placed at ``source``."""
    keys, required = _keys_of(system, True)
    return _build(located(data, Location(source)), source, board, keys, required,
                  True if system is None else system.context is not None)


def located(value, where: Location):
    """Plain data as the YAML reader gives it (``YDict``/``YList``), every place ``where``."""
    if isinstance(value, dict):
        m = YDict((k, located(v, where)) for k, v in value.items())
        m.where, m.key_where, m.value_where = where, dict.fromkeys(m, where), dict.fromkeys(m, where)
        return m
    if isinstance(value, (list, tuple)):
        seq = YList(located(v, where) for v in value)
        seq.where, seq.item_where = where, [where] * len(seq)
        return seq
    return value


def _keys_of(system, contextual: bool) -> tuple[dict, tuple]:
    from .system import System

    if system is not None:
        return dict(system.turn_keys), tuple(system.turn_required)
    keys, required = dict(System.turn_keys), ()
    if contextual:
        for s in System.known():
            if s.context is not None:
                keys.update(s.turn_keys)
                required += tuple(k for k in s.turn_required if k not in required)
    return keys, required


def _context_keys() -> set:
    """The turn-file keys that fix another system's decision (``System.context``),
    every system loaded: asked only to explain a key that is not this system's."""
    from .system import _all_systems

    return {s.context for s in _all_systems() if s.context is not None}


def _build(data, path: str, board, keys: dict, required: tuple, contextual: bool) -> Turn:
    if not isinstance(data, YDict):
        raise WarcouncilError("a turn file is a mapping with " + ", ".join(keys), Location(path, 1, 1))
    for k in data:
        if k not in keys:
            if not contextual and isinstance(k, str) and k in _context_keys():
                raise WarcouncilError(f"this game system has no {k}s: drop `{k}:` from the turn file",
                                      data.key_where.get(k, data.where))
            raise WarcouncilError(f"unknown key {_shown(k)} in turn file", data.key_where.get(k, data.where),
                                  hint="keys: " + ", ".join(keys))
    for k in required:
        if k not in data or data[k] is None:
            kind, _ = keys[k]
            raise WarcouncilError(f"the turn file needs `{k}: {_FORM[kind]}`", _where(data, k))
    values: dict = {}
    orders_where: list[Location] = []
    places = {k: _where(data, k) for k in keys if k in data}
    for key, (kind, what) in keys.items():
        if kind == "ids":
            values[key], where = _ids(data, key, what)
            if key == "orders":
                orders_where = where
        elif kind == "moves":
            values[key] = _moves(data, key, board)
        elif kind == "battles":
            values[key] = _battles(data, key)
        elif kind == "count":
            values[key] = _count(data, key, what)
        elif kind == "faces":
            values[key] = _faces(data, key)
        else:  # a name
            values[key] = _name(data, key, what)
    return Turn(path=path, orders_where=orders_where, places=places, **values)


_CELL = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
_ID = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
#: The JSON Schema of a value of each kind.
SCHEMAS = {
    "name": {"type": "string", "minLength": 1},
    "ids": {"type": ["array", "null"], "items": {"type": "string"}},
    "moves": {"type": ["array", "null"], "items": {
        "type": "object", "additionalProperties": False, "required": ["piece"],
        "properties": {"piece": _ID, "to": _CELL, "path": {"type": "array", "items": _CELL, "minItems": 1}},
        "anyOf": [{"required": ["to"]}, {"required": ["path"]}]}},
    "battles": {"type": ["array", "null"], "items": {
        "type": "object", "additionalProperties": False, "required": ["piece", "target"],
        "properties": {"piece": _ID, "target": _ID}}},
    "count": {"type": "integer", "minimum": 0, "maximum": MAX_COUNT},
    "faces": {"anyOf": [{"type": ["string", "integer"]},
                        {"type": "array", "items": {"type": ["string", "integer"]}},
                        {"type": "object", "additionalProperties": {"type": ["string", "integer"]}}]},
}


def json_schema(system=None) -> dict:
    """The JSON Schema of a turn file of ``system`` (the kernel's keys
    without one), made from its ``turn_keys`` and the kinds above."""
    from .system import System

    system = system or System
    own = system.records.get("turn")
    if own is not None:  # a system reading its own turn files
        from ..world.schema import file_schema

        return file_schema(own, f"warcouncil turn file ({system.title or system.name})")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"warcouncil turn file ({system.title or 'kernel defaults'})",
        "type": "object", "additionalProperties": False,
        "required": list(system.turn_required),
        "properties": {k: {**SCHEMAS[kind], "description": what} for k, (kind, what) in system.turn_keys.items()},
    }


# the form of a value of each kind, for "the turn file needs `KEY: FORM`"
_FORM = {"name": "NAME", "ids": "[ID, ...]", "moves": "[{piece: ID, to: [col, row]}, ...]",
         "battles": "[{piece: ID, target: ID}, ...]", "count": "N", "faces": "[FACE, ...]"}


def _name(data, key: str, what: str) -> str | None:
    v = data.get(key)
    if v is not None and (not isinstance(v, str) or not v.strip()):
        raise WarcouncilError(f"`{key}` is {what}, not {_shown(v)}", _where(data, key))
    return v


def _count(data, key: str, what: str) -> int | None:
    v = data.get(key)
    if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= MAX_COUNT):
        raise WarcouncilError(f"`{key}` is {what} from 0 to {MAX_COUNT}, not {_shown(v)}", _where(data, key))
    return v


def _ids(data, key: str, what: str) -> tuple[list[str], list[Location]]:
    raw = data.get(key, [])
    if raw is None:
        raw = YList()
    if not isinstance(raw, list):
        raise WarcouncilError(f"`{key}` is {what}, not {_shown(raw)}", _where(data, key))
    out, where = [], []
    for i, o in enumerate(raw):
        w = raw.item_where[i] if isinstance(raw, YList) and i < len(raw.item_where) else _where(data, key)
        if not isinstance(o, str):
            raise WarcouncilError(f"a piece id is a string, got {bounded(repr(o), 60)}", w)
        out.append(o)
        where.append(w)
    return out, where


def _battles(data, key: str) -> list[TurnBattle]:
    raw = data.get(key)
    if raw is None:
        raw = YList()
        raw.item_where = []
    if not isinstance(raw, YList):
        raise WarcouncilError(f"`{key}` is a list of {{piece: ID, target: ID}}, not {_shown(raw)}",
                              _where(data, key))
    battles = []
    for i, b in enumerate(raw):
        w = raw.item_where[i] if i < len(raw.item_where) else _where(data, key)
        if not isinstance(b, YDict) or "piece" not in b or "target" not in b:
            raise WarcouncilError("a battle is {piece: ID, target: ID}", w)
        bad = [k for k in b if k not in ("piece", "target")]
        if bad:
            raise WarcouncilError(f"unknown key {_shown(bad[0])} in a battle", b.key_where.get(bad[0], w))
        for k in ("piece", "target"):
            if not _is_id(b[k]):
                raise WarcouncilError(f"a battle's {k} is a piece id, not {_shown(b[k])}", _where(b, k))
        battles.append(TurnBattle(str(b["piece"]), str(b["target"]), w))
    return battles


def _faces(data, key: str) -> str | None:
    """Die faces: a list of faces, a mapping of faces to counts, or one
    face; kept as text (``face,face`` or ``face=n,...``) for the system to read."""
    roll = data.get(key)
    if isinstance(roll, list):
        if not all(_is_scalar(r) for r in roll):
            raise WarcouncilError(f"`{key}` is a list of die faces", _where(data, key))
        return ",".join(str(r) for r in roll)
    if isinstance(roll, dict):
        if not all(_is_scalar(k) and _is_scalar(v) for k, v in roll.items()):
            raise WarcouncilError(f"`{key}` is a mapping of die faces to counts", _where(data, key))
        return ",".join(f"{k}={v}" for k, v in roll.items())
    if roll is not None and not _is_scalar(roll):
        raise WarcouncilError(f"`{key}` is a list of die faces, not {_shown(roll)}", _where(data, key))
    return None if roll is None else str(roll)


def _moves(data, key: str, board) -> list[TurnMove]:
    raw = data.get(key) or []
    if not isinstance(raw, list):
        raise WarcouncilError(f"`{key}` is a list of moves", _where(data, key))
    moves = []
    for i, m in enumerate(raw):
        w = raw.item_where[i] if isinstance(raw, YList) and i < len(raw.item_where) else _where(data, key)
        if not isinstance(m, YDict) or "piece" not in m or ("to" not in m and "path" not in m):
            raise WarcouncilError("a move is {piece: ID, to: [col, row]} or {piece: ID, path: [[col, row], ...]}", w)
        bad = [k for k in m if k not in ("piece", "to", "path")]
        if bad:
            raise WarcouncilError(f"unknown key {bad[0]!r} in a move", m.key_where.get(bad[0], w))
        path_cells: tuple[Cell, ...] = ()
        if "path" in m:
            if not isinstance(m["path"], list) or not m["path"]:
                raise WarcouncilError("`path` is a non-empty list of hexes", _where(m, "path"))
            path_cells = tuple(_cell(c, _where(m, "path"), board) for c in m["path"])
        to = _cell(m["to"], _where(m, "to"), board) if "to" in m else path_cells[-1]
        if path_cells and path_cells[-1] != to:
            raise WarcouncilError("`to` is not the last hex of `path`", _where(m, "to"))
        moves.append(TurnMove(str(m["piece"]), to, path_cells, w))
    return moves
