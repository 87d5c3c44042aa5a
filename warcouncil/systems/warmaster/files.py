"""Warmaster's files beside the scenario, read: a plan (``odds``), the
wanted orders (``plan``) and a turn log (``check``, ``orders --after``).

Each file is checked against its record first (scenario.py: ``PLAN``,
``WANTS``, ``TURN``, every field at its place); here its piece ids are
checked against the scenario (known, of the kind the field names, named
once in an order) and an order becomes a ``Step``. The engine plays a turn
log's entries on the table (``WarmasterEngine.log_of``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import Location, WarcouncilError, closest
from ...kernel.scenario import read_yaml_file
from ...world.ydoc import YDict
from .scenario import PLAN, TURN, WANT, WANTS, Pose, pose_of


@dataclass(frozen=True)
class Step:
    """One order of a plan or a turn log, as the file gives it."""

    by: str
    units: tuple[str, ...]
    to: tuple[Pose | None, ...] | None
    roll: int | None
    where: Location | None
    blunder: int | None = None  # a turn log's order: the blunder table's D6 (reference §5.3)


def read_file(path: str, record) -> YDict:
    """A file of ``record``'s shape, every field checked at its place."""
    data = read_yaml_file(path)
    top = Location(path, 1, 1)
    if data is None:
        raise WarcouncilError(f"empty file: expected {record.what}", top)
    return record.check(data, top)


def piece_id(by_id: dict, v: Any, where: Location | None, kind: str | None = None) -> str:
    """``v``, the id of a piece of the scenario (``by_id``), of ``kind``
    (``unit``, ``character``, None: either)."""
    if v not in by_id:
        near = closest(str(v), by_id)
        raise WarcouncilError(f"unknown piece id {v!r}", where, hint=f"did you mean {near[0]!r}?" if near else None)
    p = by_id[v]
    if kind == "character" and p.is_unit:
        raise WarcouncilError(f"{v} is a unit, not a character", where)
    if kind == "unit" and not p.is_unit:
        raise WarcouncilError(f"{v} is a character, not a unit", where)
    return v


def piece_ids(by_id: dict, m: YDict, key: str, where: Location, kind: str | None) -> tuple[str, ...]:
    """The piece ids under ``key`` (one id, or a list; checked by the
    file's table): each known, of ``kind``, named once."""
    raw, w = m[key], m.value_where.get(key, where)
    items = [(raw, w)] if isinstance(raw, str) else [
        (u, raw.item_where[i] if i < len(raw.item_where) else w) for i, u in enumerate(raw)]
    out: list[str] = []
    for u, loc in items:
        pid = piece_id(by_id, u, loc, kind)
        if pid in out:
            raise WarcouncilError(f"{pid} is named twice in one order", loc)
        out.append(pid)
    return tuple(out)


def read_step(by_id: dict, m: YDict, where: Location, need_roll: bool, poses: dict[str, Pose]) -> Step:
    """An order (a plan's step, a turn log's order; ``need_roll``: the
    log's, which gives its roll), its destinations' facing and formation
    by default the units' in ``poses``."""
    by = piece_id(by_id, m["by"], m.value_where.get("by", where), "character")
    units = piece_ids(by_id, m, "units", where, None)
    to = None
    if "to" in m:
        tw = m.value_where.get("to", where)
        tv = m["to"]
        if len(tv) == 2 and not isinstance(tv[0], (list, dict)) and tv[0] is not None:
            tv = [tv]  # one unit: `to: [x, y]`
        if len(tv) != len(units):
            raise WarcouncilError(f"`to` gives one position per unit of the order ({len(units)})", tw)
        to = tuple(None if v is None else pose_of(v, poses[u]) for u, v in zip(units, tv))
    if need_roll and "roll" not in m:
        raise WarcouncilError("an order of a turn log needs its `roll` (the 2D6 total)", where)
    return Step(by, units, to, m.get("roll"), where, m.get("blunder"))


def read_plan(by_id: dict, path: str, poses: dict[str, Pose]) -> list[Step]:
    """A plan file's steps (``odds``), the pieces standing in ``poses``."""
    items = read_file(path, PLAN)["plan"]
    return [read_step(by_id, m, items.item_where[i], False, poses) for i, m in enumerate(items)]


def read_wants(by_id: dict, path: str) -> tuple[list, str, Location]:
    """A wants file (``plan``): per wanted order (its units, how many
    times, the characters that may give it or None: any), the objective
    and the file's place."""
    data = read_file(path, WANTS)
    items = data["want"]
    out = []
    for i, m in enumerate(items):
        where = items.item_where[i]
        units = piece_ids(by_id, m, "units", where, "unit")
        cands = None if m.get("by") is None else piece_ids(by_id, m, "by", where, "character")
        out.append((units, WANT.get(m, "times"), cands and list(cands)))
    return out, WANTS.get(data, "objective"), data.where


def turn_entries(path: str) -> list[tuple[str, YDict, Location]]:
    """A turn log's entries: (sub-phase key, the entry, its place), in
    file order of the keys and list order within each."""
    data = read_file(path, TURN)
    return [(key, m, items.item_where[i]) for key, items in data.items() for i, m in enumerate(items or ())]


__all__ = ["Step", "piece_id", "read_file", "read_plan", "read_step", "read_wants", "turn_entries"]
