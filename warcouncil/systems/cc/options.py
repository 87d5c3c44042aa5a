"""The command-line options of the Commands & Colors verbs: how the card is
played. The command line reads them at every start (it adds each to the
verbs named, ``kernel.system.Option``), so this module imports nothing of
the family: a scenario of another family given one is refused with
``refused``."""

from __future__ import annotations

from ...kernel.system import Option

#: the verbs a card is played for
CARD_VERBS = ("orders", "moves", "turns", "diff")
REFUSED = "{option} is for card-driven systems; {system} has no cards"


def _command_bounds() -> tuple[int, int]:
    """A side's command: in the range of a scenario's ``command``
    (``kernel.scenario.SIDE_FIELDS``, read when the option is given)."""
    from ...kernel.scenario import SIDE_FIELDS

    bounds = SIDE_FIELDS["command"].schema
    return bounds["minimum"], bounds["maximum"]


OPTIONS = (
    Option("--card", CARD_VERBS, "The card played, for card-driven systems (printed name; case, spaces and "
                                 "hyphens ignored).",
           metavar="CARD", complete="card", refused=REFUSED, needed_by=("orders", "moves", "turns"),
           needs="the card played", needs_hint="list the deck with: warcouncil cards {scenario}"),
    Option("--roll", CARD_VERBS, "Dice rolled, for cards that roll: 'light,helmet,flag' or 'light=2,helmet=1'.",
           refused=REFUSED),
    Option("--copies", CARD_VERBS, "The card a Counter Attack copies.", metavar="CARD", complete="card",
           refused=REFUSED),
    # (also read by the kernel's set engine: a side's command points)
    Option("--command", CARD_VERBS, "The side's Command (hand size, in the range of a scenario's `command`) "
                                    "when the card is played, if it differs from the scenario.",
           bounds=_command_bounds, refused=REFUSED, kernel=True),
    Option("--engine", ("orders",), "fast: the structural enumerator; csp: plain python-constraint search "
                                    "(reference, slow).",
           dest="engine_kind", choices=("fast", "csp"), default="fast", refused=REFUSED),
)
