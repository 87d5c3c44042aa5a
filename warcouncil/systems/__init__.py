"""Game systems: one small :class:`~warcouncil.kernel.system.System` per game family.

Each subpackage declares its family's decision model, turn phases, board
kinds, verbs and hooks, and holds the little Python its rules cannot say
(``cc``: Counter Attack's mirror, the battle dice, the card engine). The
kernel (``warcouncil.kernel``, the planner ``warcouncil.solver``) never imports this package: systems are found
through the ``warcouncil.systems`` entry points (``pyproject.toml``), the one
list of the systems shipped with warcouncil (and of a plug-in's).
"""
