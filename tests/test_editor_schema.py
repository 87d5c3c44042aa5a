"""`warcouncil schema SYSTEM KIND` (issue 30): a JSON Schema (draft 2020-12)
of each kind of file a system reads, with the pack's names as enums; every
shipped example validates, and mutated files are refused by the schema and
by the loader, on the same line."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from warcouncil.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "warcouncil" / "examples"
AKRAGAS = EXAMPLES / "cca" / "akragas.yaml"
PRACTICE = EXAMPLES / "ccm" / "practice_field.yaml"
RIDGEWAY = EXAMPLES / "warmaster" / "ridgeway.yaml"
ALESIA = EXAMPLES / "grid-ancients" / "alesia.yaml"
CC_TURN = """card: Order Three Units Center
orders: [s4, s11, daphnaeus]
moves:
  - {piece: daphnaeus, to: [6, 5]}
  - {piece: s11, to: [6, 4]}
  - {piece: s4, path: [[5, 6]]}
battles:
  - {piece: s11, target: c5}
"""

#: (system, kind) -> its shipped examples
SHIPPED = {
    ("cca", "scenario"): [AKRAGAS],
    ("cca", "turn"): [],  # (written here: CC_TURN, the README's)
    ("ccm", "scenario"): [PRACTICE],
    ("ccm", "turn"): [],
    ("warmaster", "scenario"): [RIDGEWAY],
    ("warmaster", "turn"): [EXAMPLES / "warmaster" / "logs" / "turn.yaml"],
    ("warmaster", "plan"): [EXAMPLES / "warmaster" / "logs" / "plan.yaml"],
    ("warmaster", "wants"): [EXAMPLES / "warmaster" / "logs" / "wants.yaml"],
    ("grid-ancients", "scenario"): [ALESIA],
    ("grid-ancients", "turn"): [EXAMPLES / "grid-ancients" / "alesia" / f for f in ("turn.yaml", "illegal-turn.yaml")],
    ("grid-ancients", "test"): [EXAMPLES / "grid-ancients" / "alesia" / "combat.yaml"],
}

_SCHEMAS: dict = {}


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="warcouncil")


def schema_of(system: str, kind: str) -> dict:
    if (system, kind) not in _SCHEMAS:
        r = run("schema", system, kind)
        assert (r.exit_code, r.stderr) == (0, ""), r.output
        _SCHEMAS[system, kind] = json.loads(r.stdout)
    return _SCHEMAS[system, kind]


@pytest.mark.parametrize("system, kind", list(SHIPPED), ids=[f"{s}-{k}" for s, k in SHIPPED])
def test_each_schema_is_draft_2020_12_and_every_shipped_example_validates(system, kind):
    schema = schema_of(system, kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    files = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in SHIPPED[system, kind]]
    if kind == "turn" and system in ("cca", "ccm"):
        files.append(yaml.safe_load(CC_TURN))
    assert files
    for data in files:
        assert list(jsonschema.Draft202012Validator(schema).iter_errors(data)) == []


def test_the_kinds_each_system_has():
    assert run("schema", "cca", "plan").exit_code == 2
    r = run("schema", "warmaster", "test", "--json")
    assert (r.exit_code, json.loads(r.stdout)) == (2, {"error": {
        "message": "Warmaster has no 'test' file", "file": None, "line": None, "column": None,
        "hint": "kinds: scenario, turn, plan, wants"}})
    r = run("schema", "cca", "scenari")
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", "Commands & Colors has no 'scenari' file\n"
                                                 "hint: did you mean 'scenario'? kinds: scenario, turn\n")


def test_the_pack_s_names_are_enums():
    from warcouncil.dsl.pack import load_pack

    cca = load_pack("cca")
    sc = schema_of("cca", "scenario")["properties"]
    assert sc["units"]["items"]["properties"]["type"] == {"enum": list(cca.units)}
    assert sc["sides"]["additionalProperties"]["properties"]["hand"]["items"]["anyOf"][0] == {"enum": list(cca.cards)}
    turn = schema_of("cca", "turn")["properties"]
    assert turn["card"]["anyOf"][0] == {"enum": list(cca.cards)}
    assert turn["card"]["description"] == "the name of the card played"
    grid = load_pack("grid-ancients")
    sc = schema_of("grid-ancients", "scenario")["properties"]
    assert sc["terrain"]["items"]["properties"]["type"] == {"enum": list(grid.terrains)}
    assert sc["units"]["items"]["properties"]["characteristics"]["items"] == {
        "enum": list(grid.values["characteristic"])}
    assert sc["units"]["items"]["properties"]["attachments"]["items"] == {"enum": list(grid.values["attachment"])}


# ------------------------------------------------------------------ mutations


def _line_of(text: str, path) -> int:
    """The line (1-based) of the value at ``path`` in the YAML ``text``."""
    node = yaml.compose(text)
    for key in path:
        if isinstance(node, yaml.MappingNode):
            node = next(v for k, v in node.value if k.value == key)
        else:
            node = node.value[key]
    return node.start_mark.line + 1


def _loader(system: str, kind: str, path: Path) -> list:
    """The command that loads a ``kind`` file of ``system``."""
    return {
        ("cca", "scenario"): ["cards", path], ("ccm", "scenario"): ["cards", path],
        ("cca", "turn"): ["check", AKRAGAS, path],
        ("warmaster", "scenario"): ["orders", path, "--count"],
        ("warmaster", "turn"): ["check", RIDGEWAY, path],
        ("warmaster", "plan"): ["odds", RIDGEWAY, path],
        ("warmaster", "wants"): ["plan", RIDGEWAY, path],
        ("grid-ancients", "scenario"): ["activations", path],
        ("grid-ancients", "turn"): ["check", ALESIA, path],
        ("grid-ancients", "test"): ["odds", ALESIA, path],
    }[system, kind]


def _source(system: str, kind: str) -> str:
    if (system, kind) == ("cca", "turn"):
        return CC_TURN
    return SHIPPED[system, kind][0].read_text(encoding="utf-8")


# (system, kind, text replaced, by what): each makes one bad name or value
MUTATIONS = [
    ("cca", "scenario", "type: heavy_infantry, at: [3, 1]", "type: heavy_infantri, at: [3, 1]"),  # unit type
    ("cca", "scenario", "type: auxilia, at: [2, 1]", "type: auxiliary, at: [2, 1]"),
    ("cca", "scenario", "type: light_cavalry, at: [10, 1]", "type: light_cavalry, at: [10, 1], facing: up"),  # facing
    ("cca", "scenario", "{edge: north, command: 5}", "{edge: north, command: 5, hand: [Line Comand]}"),  # card
    ("cca", "scenario", "{edge: south, command: 6}", "{edge: east, command: 6}"),  # edge
    ("cca", "scenario", "{id: himilco, side: carthaginian,", "{id: himilco, side: carthaginian, type: general,"),
    ("ccm", "scenario", "type: super_heavy_cavalry, at: [10, 9]", "type: super_heavy_cav, at: [10, 9]"),
    ("ccm", "scenario", "type: warrior, at: [3, 1]", "type: warriors, at: [3, 1]"),
    ("ccm", "scenario", "{edge: south, command: 5}", "{edge: south, command: 5, hand: [Mounted Charg]}"),
    ("cca", "turn", "card: Order Three Units Center", "card: Order Three Units Centre"),  # card name
    ("cca", "turn", "card: Order Three Units Center", "card: Line Comand"),
    ("cca", "turn", "card: Order Three Units Center", "card: Order Five Units Centre"),
    ("warmaster", "scenario", "type: infantry, at: [30, 52]", "type: infantri, at: [30, 52]"),  # unit type
    ("warmaster", "scenario", "type: cavalry, at: [85, 66]", "type: knights, at: [85, 66]"),
    ("warmaster", "scenario", "role: hero", "role: champion"),  # role
    ("warmaster", "scenario", "formation: column", "formation: wedge"),  # formation
    ("warmaster", "scenario", "facing: 180}", "facing: 400}"),  # facing
    ("warmaster", "wants", "objective: all", "objective: most"),
    ("grid-ancients", "scenario", "type: formed_infantry, at: [4, 5]", "type: formed_infantri, at: [4, 5]"),
    ("grid-ancients", "scenario", "type: cavalry, at: [8, 6]", "type: horse, at: [8, 6]"),
    ("grid-ancients", "scenario", "{at: [2, 4], type: rough}", "{at: [2, 4], type: swamp}"),  # terrain
    ("grid-ancients", "scenario", "characteristics: [warband]}", "characteristics: [warbands]}"),  # characteristic
    ("grid-ancients", "scenario", "attachments: [praetorian_cohort]", "attachments: [praetorian]"),  # attachment
    ("grid-ancients", "scenario", "facing: north, combat: 3", "facing: up, combat: 3"),  # facing
    ("grid-ancients", "turn", "do: drift_right", "do: drift_up"),  # manoeuvre
    ("grid-ancients", "test", "test: combat", "test: combats"),
]


@pytest.mark.parametrize("system, kind, old, new", MUTATIONS, ids=[f"{m[0]}-{m[1]}-{m[3]}" for m in MUTATIONS])
def test_a_mutated_file_is_refused_by_the_schema_and_the_loader_on_one_line(tmp_path, system, kind, old, new):
    text = _source(system, kind)
    assert text.count(old) >= 1
    bad = text.replace(old, new, 1)
    errors = list(jsonschema.Draft202012Validator(schema_of(system, kind)).iter_errors(yaml.safe_load(bad)))
    assert errors, "the schema takes it"
    best = jsonschema.exceptions.best_match(errors)
    f = tmp_path / f"bad-{kind}.yaml"
    f.write_text(bad, encoding="utf-8")
    r = run(*_loader(system, kind, f), "--json")
    assert r.exit_code == 2, r.stdout
    e = json.loads(r.stdout)["error"]
    assert r.stderr.startswith(f"{e['file']}:{e['line']}:"), r.stderr  # the same message on stderr
    assert e["file"] == str(f)
    assert e["line"] == _line_of(bad, best.absolute_path) == text[:text.index(old)].count("\n") + 1


def test_a_card_s_name_is_matched_as_the_loader_matches_it(tmp_path):
    """Case, spaces, hyphens and apostrophes are ignored in a card's name:
    by the schema as by the loader."""
    schema = schema_of("cca", "turn")
    for name in ("order-three-units center", "ORDER THREE UNITS CENTER", "Order Three Units Center"):
        text = CC_TURN.replace("Order Three Units Center", name)
        assert list(jsonschema.Draft202012Validator(schema).iter_errors(yaml.safe_load(text))) == []
        f = tmp_path / "turn.yaml"
        f.write_text(text, encoding="utf-8")
        assert run("check", AKRAGAS, f).exit_code == 0


def _generated() -> list[tuple[str, str, str, int, int]]:
    """(system, kind, source text, offset, line): each unit's type in each
    shipped scenario, and each card's name (C&C: the turn's card for cca,
    a hand's for ccm), where an ``x`` is put after it."""
    from warcouncil.dsl.pack import load_pack

    out = []
    for system, path in (("cca", AKRAGAS), ("ccm", PRACTICE), ("warmaster", RIDGEWAY), ("grid-ancients", ALESIA)):
        text = path.read_text(encoding="utf-8")
        units = next(v for k, v in yaml.compose(text).value if k.value == "units")
        for unit in units.value:
            node = next(v for k, v in unit.value if k.value == "type")
            out.append((system, "scenario", text, node.end_mark.index, node.start_mark.line + 1))
    at = CC_TURN.index("Order Three Units Center")
    for name in load_pack("cca").cards:
        text = CC_TURN.replace("Order Three Units Center", json.dumps(name), 1)
        out.append(("cca", "turn", text, at + len(json.dumps(name)) - 1, 1))
    practice = PRACTICE.read_text(encoding="utf-8")
    side = "{edge: south, command: 5}"
    for name in load_pack("ccm").cards:
        text = practice.replace(side, f"{{edge: south, command: 5, hand: [{json.dumps(name)}]}}", 1)
        at = text.index(side[:-1]) + len(side) - 1 + len(", hand: [") + len(json.dumps(name)) - 1
        out.append(("ccm", "scenario", text, at, text[:at].count("\n") + 1))
    return out


GENERATED = _generated()


def test_a_hundred_mutations():
    assert len(MUTATIONS) + len(GENERATED) >= 100


@pytest.mark.parametrize("system, kind, text, at, line", GENERATED,
                         ids=[f"{g[0]}-{g[1]}-{i}" for i, g in enumerate(GENERATED)])
def test_every_name_mutated_is_refused_by_the_schema_and_the_loader(tmp_path, system, kind, text, at, line):
    """Every unit type and card name of the shipped files, with an `x` after
    it: refused by the schema and by the loader, on its line."""
    bad = text[:at] + "x" + text[at:]
    errors = list(jsonschema.Draft202012Validator(schema_of(system, kind)).iter_errors(yaml.safe_load(bad)))
    assert errors, "the schema takes it"
    f = tmp_path / f"bad-{kind}.yaml"
    f.write_text(bad, encoding="utf-8")
    r = run(*_loader(system, kind, f), "--json")
    assert r.exit_code == 2, r.stdout
    e = json.loads(r.stdout)["error"]
    assert r.stderr.startswith(f"{e['file']}:{e['line']}:"), r.stderr  # the same message on stderr
    assert (e["file"], e["line"]) == (str(f), line)
    assert _line_of(bad, jsonschema.exceptions.best_match(errors).absolute_path) == line
