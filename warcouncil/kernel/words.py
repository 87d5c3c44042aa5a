"""Pieces in a wargamer's words, as the text answers of the command line
and the game interface's action texts name them (``--json`` keeps the
ids): a piece's kind, its id and where it stands, "heavy infantry s4 at
5,7". A family writes its places (a hex, a square, a point in
centimetres) and says which of its pieces' fields are meant; the wording
is the same for every family (``systems/*/words.py`` use it).
"""

from __future__ import annotations

from collections.abc import Callable


def piece_kind(p) -> str | None:
    """What a piece is called by: a unit its type, another piece (or a
    unit of no type) its role ("leader", "general")."""
    return p.type if p.role == "unit" and p.type else p.role


def piece_named(kind: str | None, pid, place: str | None = None) -> str:
    """A piece of kind ``kind`` (an underscore read as a space; none: its
    id alone) by its id, and where it stands (``place``, as the family
    writes it) when given: "heavy infantry s4 at 5,7"."""
    name = f"{kind.replace('_', ' ')} {pid}" if kind else str(pid)
    return name if place is None else f"{name} at {place}"


def listed(by_id: dict, ids, words: Callable) -> str:
    """Pieces by id (``by_id``: id -> a family's piece), each as ``words``
    gives it, one after the other; an id not there stays as it is."""
    return ", ".join(words(by_id[i]) if i in by_id else str(i) for i in ids)
