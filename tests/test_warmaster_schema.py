"""Warmaster's files through the kernel's tables (issue 12 point 1, issue
13): every field of a scenario, turn log, plan and file of wanted orders is
checked by its declared ``Field`` as the file is read — a value of the wrong
type or out of range exits 2 at its own line and column — and the same
tables publish the JSON Schemas, which accept the shipped files."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import run_cli
from warcouncil.kernel import scenario as S
from warcouncil.world.schema import file_schema
from warcouncil.kernel import turn as TU
from warcouncil.systems.warmaster.scenario import MAX_CM, RECORDS
from warcouncil.systems.warmaster.system import Warmaster
from warmaster_util import EXAMPLES, PLAN, RIDGEWAY, TURN

WANTS = EXAMPLES / "logs" / "wants.yaml"

BASE = """\
system: warmaster
name: test
board: {grid: table, width: 120, depth: 80}
sides: [red, blue]
to_move: red
units:
  - {id: r1, side: red, type: infantry, at: [30, 35], facing: 0, formation: line, stands: 3, lost: 0, confused: false}
  - {id: b1, side: blue, type: infantry, at: [30, 60], facing: 180}
characters:
  - {id: gen, side: red, role: general, command: 9, at: [60, 10], mounted: false, facing: 0}
  - {id: hero, side: red, role: hero, command: 8, at: [40, 25]}
terrain:
  - {type: wood, polygon: [[70, 36], [92, 36], [92, 50]], dense: true, impassable: false}
rules: []
"""


def place(text: str, fragment: str) -> tuple[int, int]:
    for i, line in enumerate(text.splitlines()):
        if fragment in line:
            return i + 1, line.index(fragment) + 1
    raise AssertionError(fragment)


def bad_file(tmp_path: Path, verb: str, text: str, base: str, old: str, new: str, fragment: str) -> tuple[str, str]:
    """Write ``base`` with ``old`` replaced by ``new``; run ``verb``; the
    stderr and the expected ``file:line:column`` of ``fragment``."""
    assert old in base, old
    changed = base.replace(old, new, 1)
    p = tmp_path / "f.yaml"
    p.write_text(changed, encoding="utf-8")
    if verb == "scenario":
        code, out, err = run_cli("orders", p)
    else:
        sc = tmp_path / "s.yaml"
        sc.write_text(BASE, encoding="utf-8")
        code, out, err = run_cli(verb, sc, p)
    assert code == 2, (out, err)
    assert "Traceback" not in err
    first, _ = place(changed, new.splitlines()[0] or new)  # the fragment, on the changed line or after it
    lines = changed.splitlines()
    line, col = place("\n".join(lines[first - 1:]), fragment)
    return err, f"{p}:{line + first - 1}:{col}:"


SCENARIO_CASES = [
    # (replace, with, the message's words, the text the error points at)
    ("width: 120", "width: '120'", "board: width must be a length in cm above 0, at most 10000, not '120'", "'120'"),
    ("depth: 80", "depth: -80", "depth must be a length in cm above 0", "-80"),
    ("grid: table", "grid: hex", "board: grid must be one of table, not 'hex'", "hex"),
    ("at: [30, 35]", "at: [30, x]", "unit r1: at must be a position [x, y] in cm", "[30, x]"),
    ("at: [30, 35]", "at: [30, 35, 1]", "unit r1: at must be a position", "[30, 35, 1]"),
    ("at: [30, 35]", f"at: [30, {MAX_CM + 1}]", "unit r1: at must be a position", "[30, "),
    ("at: [30, 35]", "at: [30, .nan]", "unit r1: at must be a position", "[30, .nan]"),
    ("facing: 0, formation", "facing: north, formation", "unit r1: facing must be an angle in degrees", "north"),
    ("formation: line", "formation: wedge", "unit r1: formation must be one of line, column, not 'wedge'", "wedge"),
    ("stands: 3", "stands: 0", "unit r1: stands must be a whole number from 1 to 100, not 0", "0, lost"),
    ("stands: 3", "stands: 2.5", "unit r1: stands must be a whole number", "2.5"),
    ("lost: 0", "lost: true", "unit r1: lost must be a whole number from 0 to 100, not True", "true"),
    ("confused: false", "confused: 1", "unit r1: confused must be true or false, not 1", "1}"),
    ("{id: r1,", "{id: ' r1',", "id must be a non-empty string without spaces", "' r1'"),
    ("side: red, type: infantry, at: [30, 35]", "side: [red], type: infantry, at: [30, 35]",
     "unit r1: side must be a non-empty string", "[red]"),
    ("type: infantry, at: [30, 35]", "type: 7, at: [30, 35]", "unit r1: type must be a non-empty string", "7, at"),
    ("role: general", "role: king", "character gen: role must be one of general, hero, wizard, not 'king'", "king"),
    ("command: 9", "command: 13", "character gen: command must be a whole number from 0 to 12, not 13", "13"),
    ("mounted: false", "mounted: 'no'", "character gen: mounted must be true or false", "'no'"),
    ("[92, 50]]", "[92, 50], 7]", "terrain wood: polygon[4] must be a position", "7]"),
    ("polygon: [[70, 36], [92, 36], [92, 50]]", "polygon: [[70, 36], [92, 36]]",
     "terrain wood: polygon must be a list of 3 to 1000 corners", "[[70, 36], [92, 36]]"),
    ("dense: true", "dense: yes please", "terrain wood: dense must be true or false", "yes please"),
    ("impassable: false", "impassable: 0", "terrain wood: impassable must be true or false", "0}"),
    ("sides: [red, blue]", "sides: red", "the scenario: sides must be a list of side names or a mapping", "red"),
    ("to_move: red", "to_move: [red]", "the scenario: to_move must be a non-empty string", "[red]"),
    ("name: test", "name: {a: 1}", "the scenario: name must be a non-empty string", "{a: 1}"),
    ("rules: []", "rules: 5", "the scenario: rules must be a rule file's path", "5"),
    ("terrain:\n  - {type: wood, polygon: [[70, 36], [92, 36], [92, 50]], dense: true, impassable: false}\n",
     "terrain: 3\n", "the scenario: terrain must be a list of 0 to 1000 items", "3"),
    ("units:\n", "units: 7\nunused:\n", "unknown key 'unused' in the scenario", "unused"),
    ("  - {id: hero,", "  - 7\n  - {id: hero,", "the scenario: characters[2] must be a character (a mapping), not 7", "7"),
    ("mounted: false, facing: 0}", "mounted: false, facing: 0, colour: red}",
     "unknown key 'colour' in character gen", "colour"),
]


@pytest.mark.parametrize("case", SCENARIO_CASES, ids=[f"{c[0]}->{c[1]}" for c in SCENARIO_CASES])
def test_a_scenario_field_of_the_wrong_type_or_range(tmp_path, case):
    old, new, says, at = case
    err, where = bad_file(tmp_path, "scenario", "", BASE, old, new, at)
    assert says in err
    assert where in err, err


TURN_BASE = """\
initiative:
  - {unit: r1, action: charge, to: [30, 50]}
home_back:
  - {unit: r5, toward: wiz, roll: 3, to: [100, 60]}
orders:
  - {by: hero, units: [r2], roll: 6, to: [[42, 40]]}
characters:
  - {piece: hero, to: {at: [40, 40], facing: 90}}
"""
TURN_CASES = [
    ("action: charge", "action: dance", "initiative move 1: action must be one of charge, evade", "dance"),
    ("to: [30, 50]", "to: 30", "initiative move 1: to must be a position [x, y] in cm (each from -10000 to 10000) or a pose, not 30", "30}"),
    ("roll: 3", "roll: 7", "home back 1: roll must be a D6 roll from 1 to 6, not 7", "7"),
    ("toward: wiz", "toward: [wiz]", "home back 1: toward must be a non-empty string", "[wiz]"),
    ("roll: 6", "roll: 1", "order 1: roll must be a 2D6 total from 2 to 12, not 1", "1, to"),
    ("units: [r2]", "units: [r2, 5]", "order 1: units[2] must be a non-empty string", "5]"),
    ("units: [r2]", "units: []", "order 1: units must be a non-empty string without spaces at its ends or control "
     "characters or a list of piece ids", "[]"),
    ("by: hero", "by: 3", "order 1: by must be a non-empty string", "3"),
    ("to: [[42, 40]]", "to: [[42, 40], true]", "order 1: to[2] must be a position", "true"),
    ("facing: 90", "facing: east", "facing must be an angle in degrees", "east"),
    ("piece: hero", "piece: {id: hero}", "character move 1: piece must be a non-empty string", "{id: hero}"),
    ("characters:\n  - {piece: hero, to: {at: [40, 40], facing: 90}}\n", "characters: yes\n",
     "the turn log: characters must be a list", "yes"),
    ("initiative:\n", "moves: []\ninitiative:\n", "unknown key 'moves' in the turn log", "moves"),
]


@pytest.mark.parametrize("case", TURN_CASES, ids=[f"{c[0]}->{c[1]}" for c in TURN_CASES])
def test_a_turn_log_field_of_the_wrong_type_or_range(tmp_path, case):
    old, new, says, at = case
    err, where = bad_file(tmp_path, "check", "", TURN_BASE, old, new, at)
    assert says in err
    assert where in err, err


PLAN_BASE = "plan:\n  - {by: gen, units: [r1], to: [[30, 40]]}\n"
WANTS_BASE = "want:\n  - {units: [r1], times: 2, by: [gen]}\nobjective: all\n"
OTHER_CASES = [
    ("odds", PLAN_BASE, "to: [[30, 40]]", "to: [[30, 40]], roll: 5", "plan step 1: a plan gives no rolls", "roll"),
    ("odds", PLAN_BASE, "by: gen", "by: [gen]", "plan step 1: by must be a non-empty string", "[gen]"),
    ("odds", PLAN_BASE, PLAN_BASE, "plan: 3\n", "the plan: plan must be a list", "3"),
    ("plan", WANTS_BASE, "times: 2", "times: 4", "wanted order 1: times must be a whole number from 1 to 3, not 4", "4"),
    ("plan", WANTS_BASE, "by: [gen]", "by: 9", "wanted order 1: by must be a non-empty string", "9"),
    ("plan", WANTS_BASE, "objective: all", "objective: most", "objective must be one of all, expected", "most"),
]


@pytest.mark.parametrize("case", OTHER_CASES, ids=[f"{c[0]}:{c[2]}->{c[3]}" for c in OTHER_CASES])
def test_a_plan_or_wants_field_of_the_wrong_type_or_range(tmp_path, case):
    verb, base, old, new, says, at = case
    err, where = bad_file(tmp_path, verb, "", base, old, new, at)
    assert says in err
    assert where in err, err


def test_the_base_files_are_fine(tmp_path):
    """The cases above change one field of files that are good as they are."""
    sc = tmp_path / "s.yaml"
    sc.write_text(BASE, encoding="utf-8")
    assert run_cli("orders", sc)[0] == 0
    for verb, text in (("odds", PLAN_BASE), ("plan", WANTS_BASE)):
        p = tmp_path / "f.yaml"
        p.write_text(text, encoding="utf-8")
        code, out, err = run_cli(verb, sc, p)
        assert code == 0, err
    p = tmp_path / "t.yaml"
    p.write_text(TURN_BASE, encoding="utf-8")
    code, out, err = run_cli("check", RIDGEWAY, p)
    assert code in (0, 1), err  # read (its legality is not the point here)


# ---------------------------------------------------------------- JSON Schemas


def _schemas():
    return {"scenario": S.json_schema(Warmaster), "turn": TU.json_schema(Warmaster),
            "plan": file_schema(RECORDS["plan"], "plan"), "wants": file_schema(RECORDS["wants"], "wants")}


def test_the_json_schemas_come_from_the_same_tables():
    import json

    schemas = _schemas()
    json.dumps(schemas)  # plain JSON
    sc = schemas["scenario"]
    assert sc["title"] == "warcouncil scenario (Warmaster)"
    unit = sc["properties"]["units"]["items"]
    assert unit["required"] == ["id", "side", "type", "at"]
    assert set(unit["properties"]) == {"id", "side", "type", "at", "facing", "formation", "stands", "lost", "confused"}
    assert unit["properties"]["formation"] == {"enum": ["line", "column"]}
    assert sc["properties"]["characters"]["items"]["properties"]["command"] == {
        "type": "integer", "minimum": 0, "maximum": 12}
    order = schemas["turn"]["properties"]["orders"]["items"]
    assert order["properties"]["roll"] == {"type": "integer", "minimum": 2, "maximum": 12}
    # a system without files of its own keeps the kernel's schemas
    assert "leaders" not in S.json_schema()["properties"] and "card" not in TU.json_schema()["properties"]


@pytest.mark.parametrize("kind, path", [("scenario", RIDGEWAY), ("turn", TURN), ("plan", PLAN), ("wants", WANTS)])
def test_the_json_schemas_accept_the_shipped_files(kind, path):
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(yaml.safe_load(Path(path).read_text()), _schemas()[kind])


@pytest.mark.parametrize("kind, path, mutate", [
    ("scenario", RIDGEWAY, lambda d: d["units"][0].update(stands=0)),
    ("scenario", RIDGEWAY, lambda d: d["characters"][0].update(command="9")),
    ("scenario", RIDGEWAY, lambda d: d["terrain"][0].update(dense="yes")),
    ("turn", TURN, lambda d: d["orders"][0].update(roll=13)),
    ("turn", TURN, lambda d: d["home_back"][0].update(roll=0)),
    ("plan", PLAN, lambda d: d["plan"][0].update(roll=5)),
    ("wants", WANTS, lambda d: d["want"][0].update(times=4)),
])
def test_the_json_schemas_refuse_what_the_reader_refuses(tmp_path, kind, path, mutate):
    jsonschema = pytest.importorskip("jsonschema")
    data = yaml.safe_load(Path(path).read_text())
    mutate(data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _schemas()[kind])
    # ... and so does the reader, exit 2
    p = tmp_path / "f.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    verb = {"scenario": None, "turn": "check", "plan": "odds", "wants": "plan"}[kind]
    code, _, err = run_cli("orders", p) if verb is None else run_cli(verb, RIDGEWAY, p)
    assert code == 2 and f"{p}:" in err, err
