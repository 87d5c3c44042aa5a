"""Warmaster (seed 003): the Command phase on a measured table.

``system.py`` the ``Warmaster`` System; ``scenario.py`` its scenario shape;
``table.py`` the table as it stands at a moment of the phase, and the log;
``builtins.py`` the meanings of the builtins the pack declares;
``engine.py`` the answers to ``orders``, ``odds`` and ``check``.
"""

from .system import Warmaster

__all__ = ["Warmaster"]
