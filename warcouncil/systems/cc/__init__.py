"""Commands & Colors (Ancients, Medieval): the card-driven hex game family."""

from .system import CommandsAndColors

__all__ = ["CommandsAndColors"]
