"""The meanings of the Commands & Colors family's builtins.

They are declared in the rule language by the core pack
(``rules/core/00-core.wc``, ``builtin ...`` statements) and mean, here,
what only a command-card game has: sections of the board seen from a side's
edge, the card played and its roll, the quotas of the card's alternative.
The system hands them to the compiler with the kernel's
(``CommandsAndColors.meanings``).
"""

from __future__ import annotations

from ...kernel.builtins import Meanings
from ...kernel.ground import Setting
from .grounding import GroundAlt

CC = Meanings("the C&C family (systems/cc/builtins.py)")

# ---------------------------------------------------------------- the setting
CC.constant("hand_size", lambda ctx, s: s.hand_size)
CC.function("sections_of", lambda ctx, s, a: s.sections_of(a[0]))
CC.function("dotted", lambda ctx, s, a: len(s.sections_of(a[0])) > 1)

# ---------------------------------------------------------------- the card and its roll
CC.constant("card", lambda ctx, s: ctx.g.card_view)
CC.function("rolled", lambda ctx, s, a: ctx.g.roll.get(a[0], 0) if ctx.g.roll else 0)

# ---------------------------------------------------------------- the alternative
CC.constant("capacity",
            lambda ctx, s: ctx.alt.capacity if ctx.alt and ctx.alt.capacity is not None else 10**9)
CC.function("admitted", lambda ctx, s, a: ctx.alt is not None and a[0] in ctx.alt.admitted)

# ---------------------------------------------------------------- the decision
CC.function("assignable", lambda ctx, s, a: ctx.alt is None or not ctx.alt.assign_problem(a[0]))
CC.function("linked_ok", lambda ctx, s, a: ctx.alt is None or ctx.alt.group != "linked" or s.connected(a[0]))
CC.function("led_ok", lambda ctx, s, a: ctx.alt is None or led_ok(ctx.alt, s, a[0]))


@CC.function("filled")
def _filled(ctx, s, args):
    if ctx.alt is None:
        return True
    return all(q.admitted <= args[0] for q in ctx.alt.quotas if q.all)


def led_ok(alt: GroundAlt, setting: Setting, pieces) -> bool:
    """A led group touches the cell of a commanding leader and is connected."""
    if alt.group != "led" or not pieces:
        return True
    if not any(p.at in alt.anchor_cells for p in pieces):
        return False
    return setting.connected(pieces)
