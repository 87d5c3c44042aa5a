"""The Tiny Grid system: a square-grid game whose decision is the set of
units a side activates (no cards). It plugs into the kernel as any game
family does, by subclassing ``System``; its engine is the kernel's card-free
``SetEngine``."""

from __future__ import annotations

from warcouncil.solver.decide import SetEngine
from warcouncil.kernel.system import Lazy, System


class TinyGrid(System):
    name = "tinygrid"
    title = "Tiny Grid"
    packs = ("tinygrid",)
    boards = frozenset({"square"})
    decision = "the set of units a side activates"
    phases = ("activate", "move")
    verbs = frozenset({"orders", "check"})
    engine = SetEngine
    game = Lazy(".game:Activation")  # the game interface (optional; imported when a turn is played)
