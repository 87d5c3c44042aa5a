"""Game systems: one small :class:`~warcouncil.solver.system.System` per game family.

Each subpackage declares its family's decision model, turn phases, board
kinds, verbs and hooks, and holds the little Python its rules cannot say
(``cc``: Counter Attack's mirror, the battle dice, the card engine). The
kernel (``warcouncil.solver``) never imports this package: systems are found
through the ``warcouncil.systems`` entry points (``pyproject.toml``).

``BUILT_IN`` repeats those entry points (``tests/test_system_places.py``
holds them equal) so that a process that imported this package finds a
shipped system without scanning every installed distribution's metadata.
"""

from ..solver.system import register_places

BUILT_IN = {
    "cca": "warcouncil.systems.cc:CommandsAndColors",
    "ccm": "warcouncil.systems.cc:CommandsAndColors",
    "warmaster": "warcouncil.systems.warmaster.system:Warmaster",
    "grid-ancients": "warcouncil.systems.grid.system:GridAncients",
    "grid_ancients": "warcouncil.systems.grid.system:GridAncients",
}
register_places(BUILT_IN)
