"""Square-grid ancients: which activations each unit may take (the
`activations` verb), exactly, on the shipped example and on hand-built
boards; and the first steps of a move with the tests they need."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from gridkit import ALESIA, engine, house, scenario, unit


def legal(eng, side=None):
    return {uid: {o for o, vs in opts.items() if not vs} for uid, opts in eng.legal_activations(side).items()}


def why(eng, uid, option, side=None):
    return [v.rule for v in eng.legal_activations(side)[uid][option]]


def test_the_example_romans():
    eng = engine(ALESIA)
    assert legal(eng) == {
        "r1": {"move", "combat", "charge"},          # g1 is to its front
        "r2": {"move", "charge", "reform"},          # Disordered
        "r3": {"move", "charge", "shoot"},           # javelins: g5 two squares ahead
        "r4": {"move", "charge"},
        "r5": {"move", "charge"},
        "r6": set(),                                 # Immobile, nothing to shoot at
    }
    assert why(eng, "r6", "move") == ["ga.immobile"] == why(eng, "r6", "charge")
    assert why(eng, "r6", "shoot") == ["ga.shoot-needs-target"]
    assert why(eng, "r1", "shoot") == ["ga.shoot-needs-ranged-attack"]
    assert why(eng, "r1", "reform") == ["ga.reform-only-disordered"]
    assert why(eng, "r5", "combat") == ["ga.combat-needs-enemy-in-front"]


def test_the_example_gauls():
    assert legal(engine(ALESIA), "gauls") == {
        "g1": {"move", "combat", "charge"}, "g2": {"move", "charge"}, "g3": {"move", "charge"},
        "g4": {"move", "charge"}, "g5": {"move", "charge", "shoot"}}


def test_first_steps_of_the_example():
    eng = engine(ALESIA)
    s = eng.setting()
    steps = lambda uid: {k: (v["tests"] if v["legal"] else [x["rule"] for x in v["violations"]])
                         for k, v in eng.first_steps(s, s.by_id[uid]).items()}
    r1 = steps("r1")
    assert {k for k, v in r1.items() if v == ["manoeuvre"]} == {"about_face"}  # leaving g1's zone of control
    assert r1["forward"] == ["ga.no-moving-through"]
    r2 = steps("r2")
    assert r2["forward"] == ["discipline"]               # into the Cause Fear unit's zone of control
    assert r2["turn_left"] == ["manoeuvre"]
    r3 = steps("r3")
    assert r3["forward"] == ["manoeuvre"]                # forward into rough ground is a manoeuvre
    assert r3["drift_right"] == ["ga.no-moving-through"]  # may pass through the Drilled r1, not stop on it
    r4 = steps("r4")
    assert "ga.cavalry-no-forest" in r4["forward"] and "ga.cavalry-no-forest" in r4["turn_left"]
    assert {k for k, v in r4.items() if v == ["manoeuvre"]} == {"drift_left", "drift_right", "about_face"}


def test_the_cli_answers_json():
    code, out, _ = run_cli("activations", ALESIA, "--json")
    data = json.loads(out)
    assert code == 0 and data["side"] == "romans"
    assert data["units"]["r6"]["move"]["legal"] is False
    v = data["units"]["r6"]["move"]["violations"][0]
    assert v["rule"] == "ga.immobile" and v["pieces"] == ["r6"]
    assert v["source"] == "004_e70d793f6d64ff40.txt"
    assert v["quote"] == "An Immobile Unit cannot be given a Movement or Charge Activation."
    assert data["units"]["r1"]["combat"] == {"legal": True}


# each activation rule, dropped by a house layer: the answer changes
@pytest.mark.parametrize("rule, uid, option", [
    ("ga.immobile", "r6", "move"),
    ("ga.shoot-needs-ranged-attack", "r1", "shoot"),
    ("ga.shoot-needs-target", "r6", "shoot"),
    ("ga.reform-only-disordered", "r1", "reform"),
    ("ga.combat-needs-enemy-in-front", "r5", "combat"),
])
def test_removing_an_activation_rule(tmp_path, rule, uid, option):
    assert option not in legal(engine(ALESIA))[uid]
    h = house(tmp_path, f"remove rule {rule}\n")
    assert option in legal(engine(ALESIA, [h]))[uid]


def test_replacing_a_default_changes_the_answer(tmp_path):
    h = house(tmp_path, 'replace define ga.default.reform-only-disordered\n'
                        '    from house "A house rule for the tests."\n    reform_needs_disorder := false\n'
                        'replace define ga.default.shooting-range\n'
                        '    from house "A house rule for the tests."\n    shooting_range(u) := 6\n')
    got = legal(engine(ALESIA, [h]))
    assert "reform" in got["r1"] and "shoot" in got["r6"]   # g4 is five squares ahead of r6


def test_off_table_units_and_parthian_shot(tmp_path):
    units = [unit("off", "red", (0, 4), "north", off_table=True),
             unit("p", "red", (3, 3), "north", type="light_cavalry", ranged=2, characteristics=["ranged_attack", "parthian_shot"]),
             unit("n", "red", (6, 3), "north", type="light_cavalry", ranged=2, characteristics=["ranged_attack", "nomadic_cavalry"]),
             unit("f", "red", (0, 1), "north", ranged=2, characteristics=["ranged_attack"]),
             unit("e1", "blue", (4, 5), "south"), unit("e2", "blue", (7, 5), "south")]
    eng = engine(scenario(tmp_path, units, depth=6))
    got = legal(eng)
    assert got["off"] == set() and why(eng, "off", "move") == ["ga.on-table"]
    assert "shoot" in got["p"]          # any direction: e1 behind it
    assert "shoot" in got["n"]          # forwards or backwards: e2 behind it
    assert "shoot" not in got["f"]
