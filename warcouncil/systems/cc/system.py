"""The Commands & Colors system: what the kernel needs to know about it."""

from __future__ import annotations

from ...solver.system import System
from .builtins import CC
from .engine import CardEngine


class CommandsAndColors(System):
    """Commands & Colors: Ancients and Medieval (packs ``cca``, ``ccm`` on the
    shared ``core``). A player's decision is the set of pieces a card
    orders; a turn is ordering, then moves one piece at a time, battles,
    and (Move-Fire-Move) second moves."""

    name = "cc"
    title = "Commands & Colors"
    packs = ("cca", "ccm", "core")
    boards = frozenset({"hex"})
    decision = "the set of units and leaders a command card orders"
    phases = ("order", "move", "battle", "second move")
    verbs = frozenset({"orders", "moves", "turns", "check", "cards", "diff"})
    card_driven = True
    hooks = {
        # may a unit still battle after this move? (moves' `battle` flag)
        "may_battle": "may_battle",
        # does this leader go along with his unit's move (turns)?
        "accompanies": "accompanies",
        # the unit a leader is attached to
        "host": "host",
    }
    engine = CardEngine
    meanings = CC
    # the card's structure, which the quota enumerator turns into generators
    structural = {"assignable": "assignable", "capacity": "capacity", "filled": "filled",
                  "linked_ok": "linked", "led_ok": "led"}

    @classmethod
    def piece_attributes(cls, piece, role: str, attrs: dict) -> None:
        """Blocks: a unit's type gives its full strength (``max_blocks``); the
        scenario may say it has lost some (``blocks``). A leader is one block."""
        if role == "unit":
            attrs["max_blocks"] = attrs.get("blocks")
            if getattr(piece, "blocks", None) is not None:
                attrs["blocks"] = piece.blocks
        else:
            attrs["max_blocks"] = attrs["blocks"] = 1

    @classmethod
    def carried(cls, state, piece, start, listed) -> list:
        """An attached leader goes along with his unit: the leaders of its
        side standing in its hex, given no move of their own in the turn
        (interface.md, "Attached leaders in a turn file")."""
        if piece.role != "unit" or start is None:
            return []
        return [p for p, c in state.where.items()
                if c == start and p is not piece and p.role != "unit" and p.side == piece.side and p not in listed]
