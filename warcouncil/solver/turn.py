"""Turn files (YAML) for ``check``: the card, the orders, the moves, the battles."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Location, WarcouncilError, bounded
from ..textfile import YAML_LIMIT, read_text
from .scenario import YDict, YList, parse_yaml

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


@dataclass
class Turn:
    card: str | None  # the card played (card-driven systems only)
    orders: list[str]
    orders_where: list[Location]
    moves: list[TurnMove] = field(default_factory=list)
    battles: list[TurnBattle] = field(default_factory=list)
    second_moves: list[TurnMove] = field(default_factory=list)  # after the battles (Move-Fire-Move)
    roll: str | None = None
    copies: str | None = None
    command: int | None = None
    side: str | None = None
    path: str | None = None


_KEYS = ("card", "orders", "moves", "battles", "second_moves", "roll", "copies", "command", "side")


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


def load_turn(path: str, board=None, card_driven: bool = True) -> Turn:
    """A turn file. ``card_driven``: the scenario's system decides with cards,
    so the turn names the card played (``card:``); a system without cards
    refuses one."""
    text = read_text(path, YAML_LIMIT, "turn file")
    lines = text.splitlines()
    try:
        return _build(parse_yaml(text, path), path, board, card_driven)
    except WarcouncilError as e:
        loc = e.location
        if e.source_line is None and loc and loc.file == path and loc.line and loc.line <= len(lines):
            e.source_line = lines[loc.line - 1]
        raise


def _build(data, path: str, board, card_driven: bool = True) -> Turn:
    if not isinstance(data, YDict):
        raise WarcouncilError("a turn file is a mapping with card, orders, moves, battles", Location(path, 1, 1))
    for k in data:
        if k not in _KEYS:
            raise WarcouncilError(f"unknown key {k!r} in turn file", data.key_where.get(k, data.where),
                                  hint="keys: " + ", ".join(_KEYS))
    if not card_driven:
        if "card" in data:
            raise WarcouncilError("this game system has no cards: drop `card:` from the turn file",
                                  data.key_where.get("card", data.where))
    elif "card" not in data or not isinstance(data["card"], str):
        raise WarcouncilError("the turn file needs `card: NAME`", _where(data, "card"))
    orders_raw = data.get("orders", [])
    if orders_raw is None:
        orders_raw = YList()
    if not isinstance(orders_raw, list):
        raise WarcouncilError("`orders` is a list of piece ids", _where(data, "orders"))
    orders, owhere = [], []
    for i, o in enumerate(orders_raw):
        w = orders_raw.item_where[i] if isinstance(orders_raw, YList) and i < len(orders_raw.item_where) else _where(data, "orders")
        if not isinstance(o, str):
            raise WarcouncilError(f"a piece id is a string, got {bounded(repr(o), 60)}", w)
        orders.append(o)
        owhere.append(w)
    moves = _moves(data, "moves", board)
    second_moves = _moves(data, "second_moves", board)
    battles = []
    raw_battles = data.get("battles")
    if raw_battles is None:
        raw_battles = YList()
        raw_battles.item_where = []
    if not isinstance(raw_battles, YList):
        raise WarcouncilError(f"`battles` is a list of {{piece: ID, target: ID}}, not {_shown(raw_battles)}",
                              _where(data, "battles"))
    for i, b in enumerate(raw_battles):
        w = raw_battles.item_where[i] if i < len(raw_battles.item_where) else _where(data, "battles")
        if not isinstance(b, YDict) or "piece" not in b or "target" not in b:
            raise WarcouncilError("a battle is {piece: ID, target: ID}", w)
        for k in ("piece", "target"):
            if not _is_id(b[k]):
                raise WarcouncilError(f"a battle's {k} is a piece id, not {_shown(b[k])}", _where(b, k))
        battles.append(TurnBattle(str(b["piece"]), str(b["target"]), w))
    command = data.get("command")
    if command is not None and (not isinstance(command, int) or isinstance(command, bool) or command < 0):
        raise WarcouncilError("`command` is a whole number", _where(data, "command"))
    for key, what in (("side", "a side's name"), ("copies", "the name of the card copied")):
        v = data.get(key)
        if v is not None and (not isinstance(v, str) or not v.strip()):
            raise WarcouncilError(f"`{key}` is {what}, not {_shown(v)}", _where(data, key))
    roll = data.get("roll")
    if isinstance(roll, list):
        if not all(_is_scalar(r) for r in roll):
            raise WarcouncilError("`roll` is a list of die faces", _where(data, "roll"))
        roll = ",".join(str(r) for r in roll)
    elif isinstance(roll, dict):
        if not all(_is_scalar(k) and _is_scalar(v) for k, v in roll.items()):
            raise WarcouncilError("`roll` is a mapping of die faces to counts", _where(data, "roll"))
        roll = ",".join(f"{k}={v}" for k, v in roll.items())
    elif roll is not None:
        roll = str(roll)
    return Turn(
        card=data.get("card"), orders=orders, orders_where=owhere, moves=moves, battles=battles,
        roll=roll, copies=data.get("copies"), command=command, side=data.get("side"), path=path,
        second_moves=second_moves,
    )


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
