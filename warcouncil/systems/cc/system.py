"""The Commands & Colors system: what the kernel needs to know about it."""

from __future__ import annotations

from ...errors import WarcouncilError
from ...world.schema import NAME, list_field
from ...kernel.system import Lazy, PieceList, System
from .boards import BOARDS, VIEWS
from .builtins import CC
from .engine import ANSWERED, CardEngine


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
    # units, then leaders (a leader: no type, one block)
    piece_lists = {"units": PieceList("unit", optional=("blocks", "facing"), needed=True),
                   "leaders": PieceList("leader", required=("id", "side", "at"), optional=())}
    # a side may give the cards it holds (the game interface plays one of them)
    side_fields = {"hand": list_field(NAME, 0, 100, "a list of card names")}
    # sections are seen from a side's own edge: the board is played across
    # from north to south
    edges = ("north", "south")
    section_views = VIEWS  # the north side sees left and right swapped
    named_boards = BOARDS  # the standard battlefields: cca, ccm
    phases = ("order", "move", "battle", "second move")
    verbs = frozenset({"orders", "moves", "turns", "check", "cards", "diff"})
    answers_itself = ANSWERED  # (``check`` and ``cards``: the kernel's)
    # a turn: the card played (and what it copies, its roll), the orders,
    # the moves, the battles, and Move-Fire-Move's second moves
    turn_keys = {
        "card": ("name", "the name of the card played"),
        **System.turn_keys,
        "second_moves": ("moves", "a list of moves"),
        "roll": ("faces", "the die faces rolled"),
        "copies": ("name", "the name of the card copied"),
    }
    turn_required = ("card",)
    turn_phases = ("moves", "battles", "second_moves")
    context = "card"  # --card CARD and the turn file's `card:` fix a decision
    pack_names = frozenset({"unit", "card"})  # names its files look up in the pack (`warcouncil schema`)
    hooks = {
        # may a unit still battle after this move? (moves' `battle` flag)
        "may_battle": "may_battle",
        # must it battle after this move (moves' `must_battle` flag)?
        "must_battle": "must_battle",
        # does this leader go along with his unit's move (turns)?
        "accompanies": "accompanies",
        # the unit a leader is attached to
        "host": "host",
    }
    engine = CardEngine
    game = Lazy(".game:CardTurn")  # the turn as decisions and chance events (the game interface)
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
    def check_scenario(cls, scenario) -> None:
        """A leader stands alone or on a friendly unit, never on an enemy unit."""
        for ldr in scenario.pieces.get("leader", ()):
            u = scenario.piece_at(ldr.at, "unit")
            if u is not None and u.side != ldr.side:
                raise WarcouncilError(
                    f"leader {ldr.id} ({ldr.side}) stands on enemy unit {u.id} ({u.side})"
                    f" at [{ldr.at[0]}, {ldr.at[1]}]",
                    ldr.where,
                )

    @classmethod
    def check_setup(cls, scenario, pack) -> None:
        """A unit's blocks are at most its type's full strength; a side's
        ``hand`` holds cards of the pack (by printed name; case, spaces and
        hyphens ignored)."""
        for side in scenario.sides.values():
            for i, name in enumerate(side.get("hand") or ()):
                try:
                    pack.card(name)
                except WarcouncilError as e:
                    where, items = side.more_where.get("hand", (None, ()))
                    raise WarcouncilError(f"side {side.name!r}: unknown card {name!r} in its hand "
                                          f"({pack.title or pack.name})",
                                          items[i] if i < len(items) else where, hint=e.hint) from None
        for u in scenario.pieces.get("unit", ()):
            decl = pack.units.get(u.type)
            full = dict(decl.attrs).get("blocks") if decl is not None else None
            if u.blocks is not None and isinstance(full, int) and u.blocks > full:
                raise WarcouncilError(
                    f"unit {u.id}: blocks must be at most {full}, the full strength of a {u.type}, "
                    f"not {u.blocks}", u.where)

    @classmethod
    def may_repeat(cls, state, piece, at) -> bool:
        """An attached leader's listed move to his unit's hex may repeat
        (interface.md, "Attached leaders in a turn file": listing it is
        accepted): a leader standing with a unit of his side."""
        return piece.role == "leader" and any(
            c == at and q.role == "unit" and q.side == piece.side for q, c in state.where.items())

    @classmethod
    def carried(cls, state, piece, start, listed) -> list:
        """An attached leader goes along with his unit: the leaders of its
        side standing in its hex, given no move of their own in the turn
        (interface.md, "Attached leaders in a turn file")."""
        if piece.role != "unit" or start is None:
            return []
        if not state.crowded:
            # what stands on the hex (``Positions.on``: exactly the pieces there, unless two of
            # one role share it); more than one: in the order of ``where``, as below
            out = [p for p in state.on.get(start, ())
                   if p is not None and p is not piece and p.role != "unit" and p.side == piece.side
                   and p not in listed]
            if len(out) <= 1:
                return out
        return [p for p, c in state.where.items()
                if c == start and p is not piece and p.role != "unit" and p.side == piece.side and p not in listed]
