"""Square-grid ancients: one validation layer per file kind (issue 12, point
1). The scenario, the turn file (`check`) and the test file (`odds`) are
read through the kernel's tables (``world.schema.Record``/``Field``),
declared once in ``systems/grid/scenario.py`` and ``systems/grid/files.py``:
a field of the wrong type or out of range exits 2 at its value's place, and
the JSON Schema made from the same tables accepts the shipped files and
rejects what the reader rejects."""

from __future__ import annotations

import json
import re

import pytest
import yaml

from conftest import run_cli
from gridkit import ALESIA
from warcouncil.kernel import scenario as kernel_scenario, turn as kernel_turn
from warcouncil.world.schema import file_schema
from warcouncil.systems.grid import files
from warcouncil.systems.grid.scenario import (GENERAL_ENTRY, SCENARIO_ENTRY, SIDE_ENTRY, TERRAIN_ENTRY, UNIT_ENTRY)
from warcouncil.systems.grid.system import GridAncients

jsonschema = pytest.importorskip("jsonschema")

EXAMPLES = ALESIA.parent / "alesia"


def _load(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_kernel_publishes_the_grid_schemas():
    sc = kernel_scenario.json_schema(GridAncients)
    tu = kernel_turn.json_schema(GridAncients)
    json.dumps(sc), json.dumps(tu), json.dumps(file_schema(files.TEST, "test"))
    assert sc["title"] == "warcouncil scenario (Square-grid ancients)"
    assert sc["required"] == ["system", "board", "sides", "to_move", "units"]
    unit = sc["properties"]["units"]["items"]
    assert unit == UNIT_ENTRY.schema
    assert unit["properties"]["facing"] == {"enum": ["north", "east", "south", "west"]}
    assert unit["properties"]["combat"] == {"type": "integer", "minimum": 0, "maximum": 20}
    assert tu["required"] == ["activations"] and set(tu["properties"]) == {"side", "activations"}
    # the kernel's own schema is unchanged for the systems that use its reader
    assert "units" in kernel_scenario.json_schema()["properties"]
    assert kernel_scenario.json_schema()["title"] == "warcouncil scenario (kernel defaults)"


def test_the_schemas_accept_the_shipped_files():
    jsonschema.validate(_load(ALESIA), kernel_scenario.json_schema(GridAncients))
    for name in ("turn.yaml", "illegal-turn.yaml"):
        jsonschema.validate(_load(EXAMPLES / name), kernel_turn.json_schema(GridAncients))
    jsonschema.validate(_load(EXAMPLES / "combat.yaml"), file_schema(files.TEST, "test"))


def _place(text, fragment, nth=1):
    """(line, column) of the ``nth`` ``fragment`` in ``text``, 1-based."""
    pos = -1
    for _ in range(nth):
        pos = text.index(fragment, pos + 1)
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _exit_2_at(tmp_path, verb, text, fragment, says, *, scenario=None, nth=1):
    p = tmp_path / "f.yaml"
    p.write_text(text, encoding="utf-8")
    args = [verb, p] if scenario is None else [verb, scenario, p]
    code, _, err = run_cli(*args)
    assert code == 2, err
    assert says in err, err
    line, col = _place(text, fragment, nth)
    assert f"{p}:{line}:{col}:" in err, err
    assert "Traceback" not in err


def _one_change_refused(tmp_path, verb, shipped, old, new, at, says, schema, **kw):
    """``old`` changed to ``new`` in a shipped file: the verb exits 2 at the
    new text's place, and the schema made from the same tables rejects it too."""
    text = shipped.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    bad = text.replace(old, new)
    _exit_2_at(tmp_path, verb, bad, at, says, nth=bad[:bad.index(new)].count(at) + 1, **kw)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(bad), schema)


# a wrong-typed or out-of-range value for a field of each kind of entry
SCENARIO_CASES = [
    # (old, new, the place, the message)
    ("combat: 4, manoeuvre: 4,\n     discipline: 6, characteristics: [drilled, battle_trained",
     "combat: 4.5, manoeuvre: 4,\n     discipline: 6, characteristics: [drilled, battle_trained",
     "4.5", "unit r1: combat must be a whole number from 0 to 20, not 4.5"),
    ("discipline: 6, disordered: true", "discipline: 6, disordered: 'yes'", "'yes'",
     "unit r2: disordered must be true or false, not 'yes'"),
    ("characteristics: [immobile, ranged_attack]", "characteristics: immobile", "immobile",
     "unit r6: characteristics must be a list of 0 to 32 items"),
    ("characteristics: [immobile, ranged_attack]", "characteristics: [immobile, 7]", "7]",
     "unit r6: characteristics[2] must be a non-empty string"),
    ("at: [8, 6]", "at: [8]", "[8]", "unit r4: at must be a square [col, row] of two whole numbers, not a list"),
    ("{attack: 2, movement: 2, defence: 1, strategy: 1, generalship: 2}",
     "{attack: 2, movement: two, defence: 1, strategy: 1, generalship: 2}", "two",
     "side 'romans': command_points: movement must be a whole number from 0 to 100, not 'two'"),
    ("break_point: 12", "break_point: 0", "0\n", "side 'romans': break_point must be a whole number from 1 to 1000"),
    ("fatigued: false\n    break_point: 14", "fatigued: 1\n    break_point: 14", "1\n",
     "side 'gauls': fatigued must be true or false, not 1"),
    ("attached_to: r1, generalship: 2}", "attached_to: r1, generalship: -2}", "-2", "general caesar: generalship must be a whole number from 0 to 100"),
    ("{at: [8, 5], type: forest}", "{at: [8, 5], type: [forest]}", "[forest]",
     "terrain 3: type must be a non-empty string"),
    ("board: {grid: square, width: 12, depth: 8}", "board: {grid: square, width: 12, depth: 1000}", "1000",
     "board: depth must be a whole number from 1 to 100, not 1000"),
    ("to_move: romans", "to_move: [romans]", "[romans]", "the scenario: to_move must be a non-empty string"),
    ("  - {id: r5,", "  - {id: r5, colour: red,", "colour", "unknown key 'colour' in unit r5; expected id, side"),
]


@pytest.mark.parametrize("old, new, at, says", SCENARIO_CASES, ids=[c[3][:40] for c in SCENARIO_CASES])
def test_a_scenario_field_of_the_wrong_type_exits_2_at_its_place(tmp_path, old, new, at, says):
    _one_change_refused(tmp_path, "activations", ALESIA, old, new, at, says, kernel_scenario.json_schema(GridAncients))


TURN = EXAMPLES / "turn.yaml"
TURN_CASES = [
    ("  - unit: r1\n    option: combat", "  - unit: r1\n    option: fight", "fight",
     "activation 2: option must be one of move, combat, charge, shoot, reform, not 'fight'"),
    ("dice: [6, 2]", "dice: [6, 2, 5, 5]", "[6, 2, 5, 5]", "activation 2: dice must be 1 to 3 die faces 1-6"),
    ("defence: [3]", "defence: [0]", "0]", "activation 2: defence[1] must be a die face 1-6, not 0"),
    ("{pool: generalship, as: attack, use: reroll_combat}", "{pool: generalship, as: 3, use: reroll_combat}", "3,",
     "activation 2: spending 1: as must be one of attack, movement, defence, strategy, generalship, not 3"),
    ("test: [1, 5]", "test: [1, 5, 6, 6, 6]", "[1, 5, 6, 6, 6]",
     "activation 3: step 1: test must be 1 to 4 die faces 1-6"),
    ("roll: 4", "roll: four", "four", "activation 3: roll must be 1 to 3 die faces 1-6, not 'four'"),
    ("test: [2, 1]", "test: [2]", "[2]", "activation 4: test must be 2 die faces 1-6, not a list"),
    ("exchange: {movement: 2, defence: 1}", "exchange: {movement: 2, defence: 1.5}", "1.5",
     "exchange 1: exchange: defence must be a whole number from 1 to 100, not 1.5"),
    ("get: attack", "get: gold", "gold", "exchange 1: get must be one of attack"),
    ("side: romans", "side: {romans: 1}", "{romans: 1}", "the turn file: side must be a non-empty string"),
    ("activations:", "actions: []\nactivations:", "actions", "unknown key 'actions' in the turn file"),
]


@pytest.mark.parametrize("old, new, at, says", TURN_CASES, ids=[c[3][:40] for c in TURN_CASES])
def test_a_turn_field_of_the_wrong_type_exits_2_at_its_place(tmp_path, old, new, at, says):
    _one_change_refused(tmp_path, "check", TURN, old, new, at, says, kernel_turn.json_schema(GridAncients),
                        scenario=ALESIA)


TEST_CASES = [
    ("test: combat\nattacker: r1\ndefender: g1\nsquares: 2.5\n", "2.5",
     "the combat test: squares must be a whole number from 0 to 10, not 2.5"),
    ("test: combat\nattacker: r1\ndefender: g1\nreserve: 'no'\n", "'no'",
     "the combat test: reserve must be true or false, not 'no'"),
    ("test: lines\nline: fence\n", "fence", "the lines test: line must be one of skirmish_line"),
    ("test: lost_eagles\nevent: rout\n", "rout", "the lost_eagles test: event must be one of routed_from_combat"),
    ("test: risk_to_general\nevent: routed_from_combat\n", "routed_from_combat",
     "the risk_to_general test: event must be one of push_back, disordered, retiring, rout"),
    ("test: discipline\nunit: r1\nmodifier: -99\n", "-99", "the discipline test: modifier must be a whole number from -20 to 20"),
    ("test: lines\nunit: r1\n", "unit", "unknown key 'unit' in the lines test; expected test, side, line"),
    ("test: command_point_losses\nfate: killed\n", "test", "the command_point_losses test is missing 'points'"),
]


@pytest.mark.parametrize("text, at, says", TEST_CASES, ids=[c[2][:40] for c in TEST_CASES])
def test_an_odds_field_of_the_wrong_type_exits_2_at_its_place(tmp_path, text, at, says):
    _exit_2_at(tmp_path, "odds", text, at, says, scenario=ALESIA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), file_schema(files.TEST, "test"))


@pytest.mark.parametrize("entry, base", [
    (UNIT_ENTRY, {"id": "x", "side": "red", "type": "formed_infantry", "at": [0, 0], "facing": "north",
                  "combat": 3, "manoeuvre": 4, "discipline": 7}),
    (SIDE_ENTRY, {}), (GENERAL_ENTRY, {"id": "g", "side": "red"}), (TERRAIN_ENTRY, {"at": [0, 0], "type": "rough"}),
    (files.ACTIVATION_ENTRY, {"unit": "a", "option": "move"}), (files.STEP_ENTRY, {"do": "forward"}),
    (files.SPEND_ENTRY, {"pool": "attack", "use": "charge_bonus"}),
])
def test_every_field_of_a_table_refuses_a_value_of_the_wrong_shape(entry, base):
    """Each field, given a mapping in place of its value (or a string in
    place of a mapping): the reader and
    the schema (the same table) both refuse it, naming the field."""
    from warcouncil.errors import WarcouncilError

    entry.read(base, None)
    jsonschema.validate(base, entry.schema)
    for key, f in entry.fields.items():
        wrong = {"a": 1} if not f.ok({"a": 1}) else "x"  # (a string where a mapping belongs)
        bad = {**base, key: wrong}
        with pytest.raises(WarcouncilError, match=re.escape(f"{key} must be")):
            entry.read(bad, None)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, entry.schema)
    assert SCENARIO_ENTRY.required == ("system", "board", "sides", "to_move", "units")
