"""Commands & Colors (Ancients, Medieval): the card-driven hex game family.

The package imports nothing until its System is asked for: the command
line reads ``options.py`` (the family's options) at every start."""

__all__ = ["CommandsAndColors"]


def __getattr__(name: str):
    if name == "CommandsAndColors":
        from .system import CommandsAndColors

        return CommandsAndColors
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
