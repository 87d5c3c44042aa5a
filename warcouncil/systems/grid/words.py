"""Square-grid ancients units in a wargamer's words: the family's one
wording, used by the game interface's action texts (``game.py``) and by
the text answers of the command line (``engine.py``: ``activations``,
``check``). ``--json`` keeps the ids.

    formed infantry r1 at 4,5      a unit: its type, its id, its left front square
"""

from __future__ import annotations

from ...kernel.words import listed, piece_named


def unit_words(uid: str, kind: str | None, at) -> str:
    """A unit of type ``kind`` standing ``at`` ([col, row]): "formed
    infantry r1 at 4,5"."""
    return piece_named(kind, uid, f"{at[0]},{at[1]}" if at is not None else None)


def units_words(by_id: dict, ids) -> str:
    """Units by id (``by_id``: id -> a piece view, with its ``type`` and
    ``at``), in words, one after the other (``kernel.words.listed``)."""
    return listed(by_id, ids, lambda v: unit_words(v.id, v.type, v.at))
