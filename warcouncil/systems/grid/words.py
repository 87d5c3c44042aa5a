"""Square-grid ancients units in a wargamer's words: the family's one
wording, used by the game interface's action texts (``game.py``) and by
the text answers of the command line (``engine.py``: ``activations``,
``check``). ``--json`` keeps the ids.

    formed infantry r1 at 4,5      a unit: its type, its id, its left front square
"""

from __future__ import annotations


def unit_words(uid: str, kind: str | None, at) -> str:
    """A unit of type ``kind`` standing ``at`` ([col, row]): "formed
    infantry r1 at 4,5"."""
    name = f"{kind.replace('_', ' ')} {uid}" if kind else str(uid)
    return f"{name} at {at[0]},{at[1]}" if at is not None else name


def units_words(by_id: dict, ids) -> str:
    """Units by id (``by_id``: id -> a piece view, with its ``type`` and
    ``at``), in words, one after the other; an id not there stays as it is."""
    return ", ".join(unit_words(i, by_id[i].type, by_id[i].at) if i in by_id else str(i) for i in ids)
