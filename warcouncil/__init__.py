"""warcouncil: a rules engine for command-driven tabletop wargames."""

__version__ = "0.1.0"
