"""The Warmaster system: what the kernel needs to know about it."""

from __future__ import annotations

from ...kernel.system import Lazy, System
from .builtins import WM
from .engine import WarmasterEngine
from .scenario import RECORDS, read_scenario


class Warmaster(System):
    """Warmaster Revolution's Command phase (pack ``warmaster``, seed 003).
    A player's decision is a sequence of order rolls: a character, a unit
    or a brigade, 2D6 against Command minus penalties, on a table measured
    in centimetres. The engine answers whole verbs itself."""

    name = "warmaster"
    title = "Warmaster"
    packs = ("warmaster",)
    boards = frozenset({"table"})
    decision = "a sequence of dice-rolled orders, each from one character to a unit or brigade"
    phases = ("initiative", "home_back", "orders", "characters")
    verbs = frozenset({"orders", "odds", "check", "plan"})
    answers_itself = frozenset({"orders", "odds", "check", "plan"})
    engine = WarmasterEngine
    meanings = WM
    read_scenario = staticmethod(read_scenario)
    records = RECORDS
    game = Lazy(".game:WarmasterTurn")
