"""The planner, for games whose decision is a set of orders and then moves
(Commands & Colors' cards, ``decide.SetEngine``): the rules classified
(``plan``), move rules cut into parts, the move search, the turn checker,
and the python-constraint reference (docs/design.md §2)."""
