"""Warmaster pieces and places in a wargamer's words: the family's one
wording, used by the game interface's action texts (``game.py``: actions,
rolls and moves, pieces by id) and by the text answers of the command line
(``engine.py``: ``orders``, ``check``, ``odds``, ``plan``). ``--json``
keeps the ids.

    infantry r1 at 30,50       a unit: its type, its id, where it stands (cm)
    general gen at 60,10       a character: its role, its id, where it stands
"""

from __future__ import annotations

from typing import Any

from ...kernel.words import listed, piece_kind, piece_named


def num(v: float) -> Any:
    """A measure as players write it: whole centimetres without a point,
    else to the millimetre's tenth (3 decimals at most)."""
    v = round(float(v), 3)
    return int(v) if v.is_integer() else v


def xy_words(p) -> str:
    """A place (``[x, y]``, or a dict with its ``at``): ``30,50``."""
    if isinstance(p, dict):
        p = p.get("at", "?")
    return ",".join(str(num(c)) if isinstance(c, (int, float)) else str(c) for c in p)


def piece_words(p) -> str:
    """A piece of the scenario (``scenario.Piece``) where the scenario puts
    it: "infantry r1 at 30,50", "wizard wiz at 60,30"."""
    return piece_named(piece_kind(p), p.id, xy_words(p.pose.at))


def pieces_words(by_id: dict, ids) -> str:
    """Pieces by id (``by_id``: the scenario's), in words, one after the
    other; an id the scenario has not stays as it is (``kernel.words.listed``)."""
    return listed(by_id, ids, piece_words)


def order_words(by_id: dict, by: str, units) -> str:
    """An order: the character giving it and the units (a brigade's
    several): "hero hero at 40,20 → infantry r1 at 30,50, infantry r2 at 42,50"."""
    return f"{pieces_words(by_id, [by])} → {pieces_words(by_id, units)}"


def action_words(kind: str, m: dict) -> str:
    """An action of the game interface (game.py) of ``kind``, its fields
    ``m``: "r1 charges to 30,50 on initiative", "gen orders r1+r2"."""
    if kind == "initiative":
        verb = "charges" if m.get("action") == "charge" else "evades"
        return f"{m.get('unit')} {verb} to {xy_words(m.get('to', ()))} on initiative"
    if kind == "home_back":
        return f"{m.get('unit')} homes back toward {m.get('toward')}"
    if kind == "character_move":
        return f"{m.get('piece')} to {xy_words(m.get('to', ()))}"
    if kind == "attempt":
        units = m.get("units")
        return f"{m.get('by')} orders {'+'.join([units] if isinstance(units, str) else units)}"
    return kind


def roll_words(t: int, given: bool, blunder: bool) -> str:
    """An order's 2D6 total ``t``, and what it does."""
    return f"rolled {t}: " + ("the order is given" if given else "a blunder" if blunder else "the order fails")


def move_words(to, units=None) -> str:
    """Where a move puts ``units`` (``to``: one destination each; None:
    they stay), or one piece (no ``units``: ``to``'s first)."""
    if to is None:
        units = units or ()
        return f"{'+'.join(units)} stay{'s' if len(units) == 1 else ''}"
    if units is None:
        return f"to {xy_words(to[0])}"
    return ", ".join(f"{u} to {xy_words(d)}" for u, d in zip(units, to))
