"""The command-line options of the Warmaster verbs (read by the command line
at every start: this module imports nothing of the family;
``kernel.system.Option``)."""

from __future__ import annotations

from ...kernel.system import Option

OPTIONS = (
    Option("--after", ("orders",), "For systems whose orders follow a log (Warmaster): the orders next after "
                                   "this partial turn.",
           metavar="TURN", path=True,
           refused="{option} is for systems whose orders follow a turn log (e.g. Warmaster)"),
)
