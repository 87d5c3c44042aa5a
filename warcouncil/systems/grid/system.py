"""The square-grid ancients system ("Homunculus Est!", seed 004)."""

from __future__ import annotations

from ...kernel.system import Lazy, System
from .builtins import GRID
from .engine import GridEngine
from .files import TEST, TURN_ENTRY
from .scenario import SCENARIO_ENTRY, read_scenario


class GridAncients(System):
    name = "grid"
    title = "Square-grid ancients"
    packs = ("grid-ancients", "grid_ancients")
    boards = frozenset({"square"})
    decision = "activations: one unit at a time, Move, Combat, Charge, Shoot or Reform, with dice and command points"
    phases = ("activations",)
    verbs = frozenset({"activations", "odds", "check"})
    answers_itself = frozenset({"activations", "odds", "check"})
    engine = GridEngine
    game = Lazy(".game:GridTurn")
    meanings = GRID
    read_scenario = staticmethod(read_scenario)
    records = {"scenario": SCENARIO_ENTRY, "turn": TURN_ENTRY, "test": TEST}
    pack_names = frozenset({"unit", "terrain", "characteristic", "attachment"})  # (engine.py: _validate)
