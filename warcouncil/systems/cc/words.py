"""Commands & Colors pieces and actions in a wargamer's words: the family's
one wording, used by the game interface's action texts (``game.py``) and by
the text answers of the command line (``answers.py``, ``check`` through
``CardEngine.pieces_words``). ``--json`` keeps the ids.

    heavy infantry s4 at 5,7           a unit: its type, its id, its hex
    leader daphnaeus at 6,7            another piece: its role, its id, its hex
    heavy infantry s4 at 5,7 to 5,6    a move
"""

from __future__ import annotations

from ...kernel.words import listed, piece_kind, piece_named


def hex_words(c) -> str:
    """A hex as players write it: ``5,7``."""
    return f"{c[0]},{c[1]}"


def piece_words(p, at=None) -> str:
    """A piece (a ``PieceView``) where it stands: ``at``, else where the
    scenario puts it: "heavy infantry s4 at 5,7"."""
    return piece_named(piece_kind(p), p.id, hex_words(p.at if at is None else at))


def pieces_words(by_id: dict, ids) -> str:
    """Pieces by id (``by_id``: id -> ``PieceView``), in words, one after
    the other; an id not on the board stays as it is (``kernel.words.listed``)."""
    return listed(by_id, ids, piece_words)


def move_words(kind: str, p, at, to) -> str:
    """A move: "heavy infantry s4 at 5,7 to 5,6" (a Move-Fire-Move second
    move says so)."""
    return ("second move: " if kind == "second_move" else "") + f"{piece_words(p, at)} to {hex_words(to)}"


def orders_words(units, leaders) -> str:
    """An order set's action text (ids): "order s6, s11 and leader daphnaeus"."""
    names = list(units) + [f"leader {x}" for x in leaders]
    if not names:
        return "order nothing"
    return "order " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def roll_words(counts: dict) -> str:
    """A roll of the battle dice: "roll: light×2, helmet×1"."""
    shown = ", ".join(f"{f}×{c}" for f, c in counts.items() if c)
    return "roll: " + (shown or "no ordering symbol")
