"""The tables of the grid-ancients system's own files: the turn file that
``check`` reads (a sequence of activations and other entries) and the test
file that ``odds`` reads (one roll and its situation).

Each field's type and range is declared once, as the kernel's ``Record`` and
``Field`` tables (``kernel.scenario``): the engine checks a file against
them before reading anything (each problem exits 2 at the value's place),
and ``GridAncients.records`` publishes the same tables as JSON Schemas.
What the tables cannot say (a unit's id names a unit of the scenario, a
command point's use is one the pack knows) is checked where it is read.
"""

from __future__ import annotations

from ...world.schema import (MAX_COMMAND, NAME, AnyOf, ByKey, Field, Record, choice_field, int_field, is_int,
                                list_field)
from .scenario import BOOL, POOLS

OPTIONS = ("move", "combat", "charge", "shoot", "reform")
MANOEUVRES = ("forward", "oblique_left", "oblique_right", "turn_left", "turn_right", "drift_left", "drift_right",
              "about_face")
#: the sheet's names of the manoeuvres ("Oblique Advance", "Forward Turn 90°", "Drifting", "About Face 180°"):
#: an `odds` test may name a manoeuvre either way (a test is not a step, so no direction is needed)
SHEET_MANOEUVRES = ("oblique_advance", "forward_turn", "drifting", "about_face")
#: the attachments that are lines: each rolls to stay after combat (the roll lines); a rout loses them all
LINES = ("skirmish_line", "reserve_line", "light_chariot_line", "elephant_line")
MAX_ENTRIES = 200  # entries of one turn file
MAX_STEPS = 32  # steps of one move
MAX_POINTS = 1000  # points on revealed cards
MAX_LOSS_DICE = 5 * MAX_COMMAND  # one die per point of the five pools
MAX_MODIFIER = 20


def _face(v) -> bool:
    return is_int(v) and 1 <= v <= 6


FACE = Field("a die face 1-6", _face, {"type": "integer", "minimum": 1, "maximum": 6})


def dice(lo: int, hi: int) -> Field:
    """``lo`` to ``hi`` die faces: a list, or one face on its own. A list's
    faces are each checked at their own place (a bad face is named there)."""
    what = f"{lo}{'' if lo == hi else f' to {hi}'} die faces 1-6"
    return Field(what, lambda v: (lo <= 1 <= hi and _face(v)) or (isinstance(v, list) and lo <= len(v) <= hi),
                 {"anyOf": ([FACE.schema] if lo <= 1 <= hi else [])
                  + [{"type": "array", "items": FACE.schema, "minItems": lo, "maxItems": hi}]}, each=FACE)


def faces(v) -> tuple:
    """A ``dice`` field's value as a tuple of faces."""
    return (v,) if isinstance(v, int) else tuple(v)


def by_unit(f: Field) -> Field:
    """A mapping of units' ids to a value of field ``f`` (each unit's die)."""
    return Field(f"a mapping of units to {f.what}", lambda v: isinstance(v, dict) and len(v) <= 8
                 and all(isinstance(k, str) for k in v),
                 {"type": "object", "maxProperties": 8, "additionalProperties": f.schema}, each=f)


POOL = choice_field(POOLS)
POINTS = int_field(1, MAX_COMMAND, "a whole number")

# ---------------------------------------------------------------- the turn file (check)

STEP_ENTRY = Record("step", {"do": choice_field(MANOEUVRES), "test": dice(1, 4), "fear": dice(2, 2)},
                    required=("do",), noun="step")
STEP = AnyOf((choice_field(MANOEUVRES), STEP_ENTRY))
SPEND_ENTRY = Record("spending", {"pool": POOL, "use": NAME, "points": POINTS, "as": POOL},
                     required=("pool", "use"), noun="spending")
#: what a result moves: each unit's die (systems/grid/aftermath.py)
AFTERMATH_FIELDS = {
    "push_back": by_unit(FACE), "stubborn": by_unit(FACE), "stand_fast": list_field(NAME, 0, 2),
    "discipline": by_unit(dice(2, 2)), "outcome": by_unit(dice(2, 2)), "rout": by_unit(FACE),
    "eagles": by_unit(dice(2, 2)), "general": by_unit(dice(2, 2)), "wound": by_unit(FACE),
    # the General's side's 1D6 per Command Point, pool by pool in the order attack, movement, defence,
    # strategy, generalship (systems/grid/aftermath.py, Aftermath.point_losses)
    "points_lost": by_unit(list_field(FACE, 0, MAX_LOSS_DICE)),
    # the points on the revealed cards of a killed General's army (its immediate “Homunculus Est!”)
    "homunculus": by_unit(int_field(0, MAX_POINTS, "a whole number")),
}
#: a Shooting Activation during a move (Nomadic Cavalry): after how many steps, its dice, what it moves
SHOT_ENTRY = Record("a shot during the move", {
    "after": int_field(0, MAX_STEPS, "a whole number"), "target": NAME, "dice": dice(1, 3), "defence": dice(0, 4),
    "choose": FACE, **AFTERMATH_FIELDS}, required=("after", "target", "dice"))
ACTIVATION_ENTRY = Record("activation", {
    "unit": NAME, "option": choice_field(OPTIONS), "roll": dice(1, 3), "steps": list_field(STEP, 0, MAX_STEPS),
    "target": NAME, "dice": dice(1, 3), "choose": FACE, "defence": dice(0, 4), "test": dice(2, 2),
    "spend": list_field(SPEND_ENTRY, 0, 16), "with": NAME,
    "shot": SHOT_ENTRY,
    "devotio": choice_field(("combat", "discipline", "setback")), "reserve": choice_field(("combat", "discipline")),
    "cohort": FACE,
    **AFTERMATH_FIELDS, "follow_up": FACE, "stay": dice(2, 2), "follow_oblique": choice_field(("left", "right")),
}, noun="activation", required=("unit", "option"))
EXCHANGE_ENTRY = Record("exchange", {
    "exchange": Record("the points given", {k: POINTS for k in POOLS}), "get": POOL,
}, noun="exchange", required=("exchange", "get"))
REALLOCATE_ENTRY = Record("re-allocation", {
    "reallocate": Record("the pools after it", {k: int_field(0, MAX_COMMAND, "a whole number") for k in POOLS}),
}, noun="re-allocation", required=("reallocate",))
HOMUNCULUS_ENTRY = Record("call", {
    "homunculus_est": Record("“Homunculus Est!”", {
        "points": int_field(0, MAX_POINTS, "a whole number"), "cancel": POOL}, required=("points",)),
}, required=("homunculus_est",), noun="call")
BRING_BACK_ENTRY = Record("bring back", {"bring_back": NAME, "test": dice(2, 2)}, required=("bring_back", "test"),
                          noun="bring back")
#: an entry of the sequence, by the key that says which kind it is
ENTRIES = {"unit": ACTIVATION_ENTRY, "exchange": EXCHANGE_ENTRY, "reallocate": REALLOCATE_ENTRY,
           "homunculus_est": HOMUNCULUS_ENTRY, "bring_back": BRING_BACK_ENTRY}
ENTRY = ByKey("an activation ({unit, option, ...}) or an exchange, reallocate, homunculus_est or bring_back entry",
              ENTRIES)
TURN_ENTRY = Record("the turn file", {"side": NAME, "activations": list_field(ENTRY, 0, MAX_ENTRIES)},
                   required=("activations",))


# ---------------------------------------------------------------- the test file (odds)

_FIELDS = {
    "side": NAME, "unit": NAME, "attacker": NAME, "defender": NAME, "shooter": NAME, "target": NAME,
    "against": NAME,
    "attack_points": int_field(0, MAX_COMMAND, "a whole number"), "charge": BOOL, "reroll": BOOL,
    "manoeuvre": choice_field(MANOEUVRES + SHEET_MANOEUVRES[:-1]), "rough": BOOL, "movement_point": BOOL,
    "modifier": int_field(-MAX_MODIFIER, MAX_MODIFIER, "a whole number"), "brave": BOOL, "defence_point": BOOL,
    "heroic": BOOL, "squares": int_field(0, 10, "a whole number"),
    "defence_points": int_field(0, MAX_COMMAND, "a whole number"), "reserve": BOOL, "devotio": BOOL,
    "stubborn": BOOL, "critical_by": int_field(0, MAX_MODIFIER, "a whole number"),
    "cause": choice_field(("combat", "shooting", "cause_fear", "cause_fear_line", "other")),
    "line": choice_field(LINES),
    "fate": choice_field(("killed", "seriously_wounded", "lightly_wounded")),
    "points": int_field(0, MAX_POINTS, "a whole number"),
}
_EAGLE_EVENTS = choice_field(("routed_from_combat", "routed_not_from_combat", "retiring_from_combat",
                              "retiring_not_from_combat"))
_GENERAL_EVENTS = choice_field(("push_back", "disordered", "retiring", "rout"))

# each roll: its required keys, then its optional ones
_TESTS = {
    "movement": (("unit",), ("attack_points", "charge", "reroll")),
    "manoeuvre": (("unit",), ("manoeuvre", "rough", "movement_point")),
    "discipline": (("unit",), ("modifier", "brave", "defence_point")),
    "reform": (("unit",), ("modifier", "heroic")),
    "combat": (("attacker", "defender"), ("squares", "charge", "defence_points", "reserve", "devotio")),
    "shooting": (("shooter", "target"), ("defence_points",)),
    "push_back": (("unit",), ("stubborn",)),
    "follow_up": (("unit",), ()),
    "follow_up_decline": (("unit",), ("against",)),
    "failed_discipline": (("unit",), ("critical_by", "cause", "reserve")),
    "failed_reform": (("unit",), ("critical_by",)),
    "lines": ((), ("line",)),
    "stubborn": ((), ()),
    "praetorian_cohort": ((), ()),
    "cover_retreat": ((), ()),
    "lost_eagles": (("event",), ()),
    "risk_to_general": (("event",), ()),
    "homunculus_est": (("points",), ()),
    "command_point_losses": (("fate", "points"), ()),
    "off_table_return": (("unit",), ()),
}


def _test_entry(name: str, required, optional) -> Record:
    fields = {"test": Field(f"the name {name}", lambda v, n=name: v == n, {"const": name}), "side": NAME}
    for k in required + optional:
        fields[k] = (_EAGLE_EVENTS if name == "lost_eagles" else _GENERAL_EVENTS) if k == "event" else _FIELDS[k]
    return Record(f"a {name} test", fields, required=("test",) + required)


TEST_ENTRIES = {name: _test_entry(name, req, opt) for name, (req, opt) in _TESTS.items()}
TEST_NAMES = tuple(TEST_ENTRIES)


TEST = AnyOf(tuple(TEST_ENTRIES.values()))
