"""Square-grid ancients: the README's grid section and the design notes'
contract paragraph (docs/design.md §5.5) name every key of the turn file
and every roll of the test file the system reads
(systems/grid/files.py), and every example they show runs and gives what
their text says. (docs/design.md's `$` session runs in
tests/test_doc_examples.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from gridkit import ALESIA, engine
from warcouncil.systems.grid import files

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECTION = README[README.index("## Square-grid ancients"):README.index("\n## ", README.index("## Square-grid ancients") + 3)]
DESIGN = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
NOTES = DESIGN[DESIGN.index("**The grid's files (extending"):DESIGN.index("| Concept | Seed 004 | Language |")]

TURN_RECORDS = (files.TURN_ENTRY, files.ACTIVATION_ENTRY, files.STEP_ENTRY, files.SPEND_ENTRY, files.SHOT_ENTRY,
                files.EXCHANGE_ENTRY, files.REALLOCATE_ENTRY, files.HOMUNCULUS_ENTRY, files.BRING_BACK_ENTRY)
TURN_KEYS = sorted({k for r in TURN_RECORDS for k in r.fields})
TEST_KEYS = sorted({k for r in files.TEST_ENTRIES.values() for k in r.fields} - {"test"})


def _named(text: str, key: str) -> bool:
    """``key`` appears as a key (``key:``) or in code (`` `key` ``)."""
    return bool(re.search(rf"(?<![\w.]){re.escape(key)}:|`{re.escape(key)}[`:]", text))


@pytest.mark.parametrize("where, text", [("README", SECTION), ("design notes", NOTES)])
def test_every_turn_key_and_roll_is_documented(where, text):
    assert [k for k in TURN_KEYS if not _named(text, k)] == [], where
    assert [k for k in TEST_KEYS if not _named(text, k)] == [], where
    assert [t for t in files.TEST_NAMES if f"`{t}`" not in text and f"test: {t}" not in text] == [], where
    for key in ("points_lost", "homunculus", "general", "wound"):  # the keys of Risk to Generals' aftermath
        assert f"{key}: {{" in text, (where, key)


def _indented_after(marker: str) -> str:
    """The indented block that follows ``marker`` in the README's grid section, dedented."""
    at = SECTION.index(marker)
    m = re.search(r"\n\n((?:(?: {4}.*)?\n)+?)\n(?! )", SECTION[at:])
    return "\n".join(line[4:] for line in m.group(1).splitlines())


def _check(data):
    vs, log = engine(ALESIA).check(data)
    return [v.rule for v in vs], log


def test_the_readme_turn_file_is_legal_and_says_what_it_does():
    data = yaml.safe_load(_indented_after("The turn file `check` reads is a sequence"))
    broken, log = _check(data)
    assert broken == [] and len(log) == 6
    assert [e["entry"] for e in log] == ["move", "combat", "reform", "exchange", "reallocate", "homunculus_est"]
    assert log[0]["movement_points"] == 2  # the 1 re-rolled (a Movement Point): a 4
    assert log[1]["result"] == "crunch" and log[2]["test"] == "pass"
    assert log[3]["pools"] == {"attack": 0, "movement": 2, "defence": 0, "strategy": 1, "generalship": 2}
    assert log[4]["pools"] == {"attack": 2, "movement": 0, "defence": 0, "strategy": 0, "generalship": 2}
    assert log[5]["cancelled"] is True


def test_the_readme_aftermath_example_does_what_its_text_says():
    entries = yaml.safe_load(_indented_after("result sets off, each by unit:"))
    broken, log = _check({"activations": entries})
    assert broken == []
    e = log[0]
    assert e["result"] == "crunch"
    assert "g2 (a supporting Warband) moves back with g1" in e["events"]
    assert "g1 is Pushed Back 2 squares" in e["events"] and "r1 follows up 1 square" in e["events"]
    assert e["positions"] == {"g1": {"at": [5, 2], "facing": "south", "disordered": True},
                              "g2": {"at": [5, 1], "facing": "south", "disordered": False},
                              "r1": {"at": [4, 4], "facing": "north", "disordered": False}}
    assert e["cards"]["gauls"] == {"setback": 2, "disaster": 0}


def test_the_readme_general_example_does_what_its_text_says():
    entries = yaml.safe_load(_indented_after("Risk to Generals takes four more keys"))
    broken, log = _check({"activations": entries})
    assert broken == []
    e = log[0]
    assert e["result"] == "repulsed" and "r5 moves one square to make way for r1" in e["events"]
    assert "caesar is killed (1+1, then 1)" in e["events"]
    assert "romans loses 2 Generalship Points" in e["events"]
    assert e["cards"]["romans"] == {"setback": 1, "disaster": 1}
    assert any(x.endswith("5 points against its Break Point 12: not broken") for x in e["events"])
    assert "romans loses 3 Command Points (attack 1, movement 1, defence 1)" in e["events"]
    assert e["pools"]["romans"] == {"attack": 1, "movement": 1, "defence": 0, "strategy": 1, "generalship": 0}


def _test_files():
    flat = re.sub(r"\s+", " ", SECTION)
    return [yaml.safe_load(m) for m in re.findall(r"\{test: [^{}]*\}", flat)]


def test_the_readme_test_files_run():
    found = _test_files()
    assert [d["test"] for d in found] == ["movement", "manoeuvre", "discipline", "reform", "combat", "shooting"]
    for d in found:
        dist, _ = engine(ALESIA).odds(d)
        assert sum(dist.values()) == 1, d
