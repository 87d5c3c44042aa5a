"""The square-grid ancients system ("Homunculus Est!", seed 004)."""

from __future__ import annotations

from ...solver.system import System
from .builtins import GRID
from .engine import GridEngine
from .scenario import read_scenario


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
    meanings = GRID
    read_scenario = staticmethod(read_scenario)
