"""Turn files: the keys are the game system's (``System.turn_keys``), each
read by its kind, at its place; ``check`` plays the move and battle lists in
the system's order (``System.turn_phases``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warcouncil.errors import WarcouncilError
from warcouncil.kernel.system import System
from warcouncil.kernel.turn import MAX_COUNT, Turn, load_turn
from warcouncil.systems.cc.system import CommandsAndColors

TURN = "card: Order Three Units Center\norders: [s4, s5]\n"


def bad(tmp_path: Path, text: str, system=CommandsAndColors) -> WarcouncilError:
    p = tmp_path / "t.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_turn(str(p), system=system)
    assert e.value.location.file == str(p)
    return e.value


@pytest.mark.parametrize("extra, says, line, column", [
    ("command: 2361183241434822606848", f"`command` is a whole number from 0 to {MAX_COUNT}, not 2361183241434822606848", 3, 10),
    ("command: -1", "`command` is a whole number from 0 to", 3, 10),
    ("command: 1.5", "`command` is a whole number from 0 to", 3, 10),
    ("battles: true", "`battles` is a list of {piece: ID, target: ID}, not True", 3, 10),
    ("battles: [{piece: s4, target: c1, dice: 3}]", "unknown key 'dice' in a battle", 3, 35),
    ("roll: {a: [1]}", "`roll` is a mapping of die faces to counts", 3, 7),
    ("orders2: []", "unknown key 'orders2' in turn file", 3, 1),
    ("side: 7", "`side` is a side's name, not 7", 3, 7),
])
def test_a_field_of_the_wrong_kind(tmp_path: Path, extra: str, says: str, line: int, column: int) -> None:
    e = bad(tmp_path, TURN + extra + "\n")
    assert says in e.message
    assert (e.location.line, e.location.column) == (line, column)


def test_the_required_keys_are_the_systems(tmp_path: Path) -> None:
    e = bad(tmp_path, "orders: [s4]\n")
    assert e.message == "the turn file needs `card: NAME`"
    e = bad(tmp_path, "card: [Order]\norders: [s4]\n")
    assert e.message == "`card` is the name of the card played, not a list"


def test_a_system_without_cards_or_second_moves(tmp_path: Path) -> None:
    """The kernel's turn keys: orders, moves, battles, command, side."""
    assert set(System.turn_keys) == {"orders", "moves", "battles", "command", "side"}
    assert System.turn_phases == ("moves", "battles") and System.turn_required == ()
    e = bad(tmp_path, "orders: [a1]\nsecond_moves: []\n", System)
    assert e.message == "unknown key 'second_moves' in turn file" and e.location.line == 2
    e = bad(tmp_path, "card: Go\norders: [a1]\n", System)
    assert e.message == "this game system has no cards: drop `card:` from the turn file"
    p = tmp_path / "ok.yaml"
    p.write_text("orders: [a1]\nmoves: [{piece: a1, to: [1, 1]}]\ncommand: 2\n", encoding="utf-8")
    t = load_turn(str(p), system=System)
    assert (t.orders, t.command, t.battles, t.card) == (["a1"], 2, [], None)
    assert [(m.piece, m.to) for m in t.moves] == [("a1", (1, 1))]


def test_cc_turn_keys_and_phases() -> None:
    assert list(CommandsAndColors.turn_keys) == ["card", "orders", "moves", "battles", "command", "side",
                                                "second_moves", "roll", "copies"]
    assert CommandsAndColors.turn_phases == ("moves", "battles", "second_moves")
    assert CommandsAndColors.turn_required == ("card",)


def test_a_turn_made_in_code_reads_missing_keys_as_none() -> None:
    t = Turn(card="Go", orders=["s4"])
    assert t.card == "Go" and t.orders == ["s4"] and t.second_moves is None and len(t.orders_where) == 1


def test_the_json_schema_of_a_turn_file() -> None:
    import json

    from warcouncil.kernel.turn import KINDS, SCHEMAS, json_schema

    assert set(SCHEMAS) == set(KINDS)
    cc = json_schema(CommandsAndColors)
    json.dumps(cc)
    assert cc["required"] == ["card"] and list(cc["properties"]) == list(CommandsAndColors.turn_keys)
    assert cc["properties"]["command"]["maximum"] == MAX_COUNT
    kernel = json_schema()
    assert kernel["required"] == [] and set(kernel["properties"]) == set(System.turn_keys)


def test_the_json_schema_accepts_the_shipped_turns_and_refuses_bad_ones() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    from warcouncil.kernel.turn import json_schema

    schema = json_schema(CommandsAndColors)
    jsonschema.validate(yaml.safe_load(TURN + "moves: [{piece: s4, to: [3, 5]}]\nroll: [a, b]\n"), schema)
    for bad in ("command: 2361183241434822606848", "battles: true", "side: {a: 1}", "copies: [a]"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(yaml.safe_load(TURN + bad + "\n"), schema)
