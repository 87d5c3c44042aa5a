"""Warmaster (seed 003): the Command phase on a measured table.

``system.py`` the ``Warmaster`` System; ``scenario.py`` its scenario shape;
``table.py`` the table as it stands at a moment of the phase, and the log;
``builtins.py`` the meanings of the builtins the pack declares;
``engine.py`` the answers to ``orders``, ``odds`` and ``check``;
``options.py`` its command-line options (read at every start: the package
imports nothing until its System is asked for).
"""

__all__ = ["Warmaster"]


def __getattr__(name: str):
    if name == "Warmaster":
        from .system import Warmaster

        return Warmaster
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
