"""The scenario schema (issue 12, loading): every field's type and range is
checked when the file is read, at the field's place, so that nothing past
the loader meets a value of the wrong shape; the piece lists and the edges
are the game system's (``System.piece_lists``, ``System.edges``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from warcouncil.cli import main
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.world.schema import MAX_BLOCKS, MAX_COMMAND, MAX_ID_LENGTH, MAX_NAME_LENGTH
from warcouncil.kernel.scenario import json_schema, load_scenario
from warcouncil.kernel.system import System

BASE = """\
name: Test
system: cca
board: cca
sides:
  syracusan: {edge: south, command: 6}
  carthaginian: {edge: north, command: 5}
to_move: syracusan
units:
  - {id: s1, side: syracusan, type: heavy_infantry, at: [3, 7]}
  - {id: c1, side: carthaginian, type: auxilia, at: [4, 1], blocks: 3}
leaders:
  - {id: dionysius, side: syracusan, at: [3, 7]}
"""


def load(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "s.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def place(text: str, fragment: str) -> tuple[int, int]:
    """The line and column (1-based) of the first ``fragment`` in ``text``."""
    for i, line in enumerate(text.splitlines()):
        if fragment in line:
            return i + 1, line.index(fragment) + 1
    raise AssertionError(fragment)


def error(tmp_path: Path, old: str, new: str) -> tuple[WarcouncilError, str]:
    assert old in BASE
    text = BASE.replace(old, new, 1)
    p = load(tmp_path, text)
    with pytest.raises(WarcouncilError) as e:
        Engine.load(p)  # the loader, then what needs the pack (a type's blocks)
    loc = e.value.location
    assert loc is not None and loc.file == str(p), str(e.value)
    return e.value, text


CASES = [
    # (name, replace, with, message, the text where the error points (its first on a line))
    ("edge west: C&C is played from north or south", "edge: south", "edge: west",
     "side 'syracusan': edge must be one of north, south, not 'west' "
     "(Commands & Colors plays across the board from north or south)", "west"),
    ("edge of a wrong type", "edge: south", "edge: [south]", "edge must be one of north, south, not a list", "[south]"),
    ("command 2^71", "command: 6", "command: 2361183241434822606848",
     f"side 'syracusan': command must be a positive whole number from 1 to {MAX_COMMAND}, "
     "not 2361183241434822606848", "2361183241434822606848"),
    ("command a float", "command: 6", "command: 6.5", "command must be a positive whole number", "6.5"),
    ("command true", "command: 6", "command: true", "command must be a positive whole number", "true"),
    ("blocks 99", "blocks: 3", "blocks: 99",
     f"unit c1: blocks must be a positive whole number from 1 to {MAX_BLOCKS}, not 99", "99"),
    ("blocks above the type's", "blocks: 3", "blocks: 5",
     "unit c1: blocks must be at most 4, the full strength of a auxilia, not 5", "{id: c1"),
    ("id with a leading space", "{id: s1,", "{id: ' s1',",
     "unit id must be a string without spaces at its ends, not ' s1'", "' s1'"),
    ("id with a newline", "{id: s1,", "{id: \"s\\n1\",",
     "unit id must be a string without control characters (newlines, tabs), not 's\\n1'", "\"s"),
    ("id too long", "{id: s1,", "{id: " + "s" * (MAX_ID_LENGTH + 1) + ",",
     f"unit id must be a string of at most {MAX_ID_LENGTH} characters", "sss"),
    ("id a mapping", "{id: s1,", "{id: {a: 1},", "unit id must be a string, not a mapping", "{a: 1}"),
    ("leader id with a tab", "{id: dionysius,", "{id: \"dio\\tnysius\",",
     "leader id must be a string without control characters", "\"dio"),
    ("side name with a space at its end", "  carthaginian: {", "  'carthaginian ': {",
     "a side name must be a string without spaces at its ends, not 'carthaginian '", "'carthaginian '"),
    ("type with spaces", "type: heavy_infantry", "type: ' heavy_infantry'",
     "unit s1 type must be a string without spaces at its ends", "' heavy"),
    ("name with a newline", "name: Test", "name: \"Te\\nst\"",
     "scenario name must be a string without control characters", "\"Te"),
    ("a leader with a type (C&C's leaders have none)", "{id: dionysius, side: syracusan,",
     "{id: dionysius, type: hero, side: syracusan,", "unknown key 'type' in leader dionysius", "type: hero"),
    ("facing of a wrong value", "blocks: 3}", "blocks: 3, facing: up}", "facing must be one of north, east", "up}"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_field_out_of_type_or_range(tmp_path: Path, case) -> None:
    _, old, new, message, at = case
    err, text = error(tmp_path, old, new)
    assert message in err.message
    assert (err.location.line, err.location.column) == place(text, at), err.message


def test_the_command_line_says_so_and_exits_2(tmp_path: Path) -> None:
    p = load(tmp_path, BASE.replace("edge: south", "edge: west"))
    r = CliRunner().invoke(main, ["orders", str(p), "--card", "Order Three Units Center"])
    assert r.exit_code == 2, r.output
    assert f"{p}:5:21" in r.output and "edge must be one of north, south" in r.output
    assert "Traceback" not in r.output


def test_the_bounds_themselves_are_fine(tmp_path: Path) -> None:
    p = load(tmp_path, BASE.replace("command: 6", f"command: {MAX_COMMAND}").replace("blocks: 3", "blocks: 4")
             .replace("{id: s1,", "{id: " + "s" * MAX_ID_LENGTH + ","))
    eng = Engine.load(p)
    assert eng.scenario.sides["syracusan"].command == MAX_COMMAND
    assert eng.scenario.piece("c1").blocks == 4
    # an integer id is still an id
    s = load_scenario(str(load(tmp_path, BASE.replace("{id: s1,", "{id: 7,"))))
    assert s.piece("7").side == "syracusan"


def test_the_kernel_defaults_allow_every_edge_and_one_list(tmp_path: Path) -> None:
    """A scenario of a pack no system plays is read with the kernel's
    defaults: one list, ``units``, and any of the four edges."""
    assert set(System.piece_lists) == {"units"} and System.piece_lists["units"].role == "unit"
    assert System.edges == ("north", "south", "east", "west")
    pack = tmp_path / "mine"
    pack.mkdir()
    (pack / "00.wc").write_text('pack mine "Mine"\nroles unit\nunit inf { move = 1 }\n', encoding="utf-8")
    text = ("system: mine\nboard: {grid: square, width: 4, depth: 4}\n"
            "sides:\n  a: {edge: west, command: 2}\n  b: {edge: east, command: 2}\n"
            "to_move: a\nunits:\n  - {id: x, side: a, type: inf, at: [0, 0]}\n")
    s = load_scenario(str(load(tmp_path, text)))
    assert s.edge_of("a") == "west" and dict(s.lists) == {"units": "unit"} and s.units[0].id == "x"
    with pytest.raises(WarcouncilError, match="unknown key 'leaders' in the scenario"):
        load_scenario(str(load(tmp_path, text + "leaders: []\n")))


def test_the_json_schema_is_made_from_the_same_tables() -> None:
    from warcouncil.systems.cc.system import CommandsAndColors

    schema = json_schema(CommandsAndColors)
    json.dumps(schema)  # plain JSON
    sides = schema["properties"]["sides"]["additionalProperties"]["properties"]
    assert sides["edge"] == {"enum": ["north", "south"]}
    assert sides["command"] == {"type": "integer", "minimum": 1, "maximum": MAX_COMMAND}
    unit = schema["properties"]["units"]["items"]
    assert unit["required"] == ["id", "side", "type", "at"]
    assert unit["properties"]["blocks"]["maximum"] == MAX_BLOCKS
    leader = schema["properties"]["leaders"]["items"]
    assert leader["required"] == ["id", "side", "at"] and set(leader["properties"]) == {"id", "side", "at"}
    assert "leaders" not in json_schema()["properties"]
    assert set(json_schema()["required"]) == {"system", "board", "sides", "to_move", "units"}


def test_the_json_schema_accepts_the_shipped_scenario() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    import yaml

    from warcouncil.kernel.scenario import shipped_scenarios
    from warcouncil.systems.cc.system import CommandsAndColors

    data = yaml.safe_load(Path(str(shipped_scenarios()["akragas"])).read_text())
    jsonschema.validate(data, json_schema(CommandsAndColors))
    data["sides"]["syracusan"]["command"] = 2 ** 71
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, json_schema(CommandsAndColors))


def test_an_edge_the_board_has_no_view_from(tmp_path: Path) -> None:
    """A game on the C&C battlefield (its sections seen from north or south
    only) with a side on the west edge: refused at the edge, not a crash
    when the sections are first asked for."""
    pack = tmp_path / "mine"
    pack.mkdir()
    (pack / "00.wc").write_text('pack mine "Mine"\nroles unit\nunit inf { move = 1 }\n', encoding="utf-8")
    text = ("system: mine\nboard: cca\n"
            "sides:\n  a: {edge: west, command: 2}\n  b: {edge: east, command: 2}\n"
            "to_move: a\nunits:\n  - {id: x, side: a, type: inf, at: [0, 0]}\n")
    p = load(tmp_path, text)
    with pytest.raises(WarcouncilError) as e:
        load_scenario(str(p))
    assert e.value.message == "side 'a': board 'cca' has no view of its sections from the west edge (edges: south, north)"
    assert (e.value.location.line, e.value.location.column) == place(text, "west")
    # a board of its own, with sections, is seen as stored from every edge
    own = text.replace("board: cca", "board: {grid: square, width: 4, depth: 4, sections: {left: [[0, 0]]}}")
    s = load_scenario(str(load(tmp_path, own)))
    assert s.board.sections_of((0, 0), "west") == {"left"} == s.board.sections_of((0, 0), "north")


EXAMPLES = Path(__file__).resolve().parent.parent / "warcouncil" / "examples"
TITLE = "Akragas (406 BC) – the Carthaginian attack, historical set-up"


@pytest.mark.parametrize("example, line, says", [
    ("cca/akragas.yaml", "name: Akragas 406 BC", "scenario name must be a string of at most 200 characters"),
    ("grid-ancients/alesia.yaml", "name: alesia", "the scenario: name must be a non-empty string of at most 200 "
                                                  "characters without spaces at its ends or control characters"),
    ("warmaster/ridgeway.yaml", "name: ridgeway", "the scenario: name must be a non-empty string of at most 200 "
                                                  "characters without spaces at its ends or control characters"),
    ("grid-ancients/alesia.yaml", "board: {grid: square, width: 12, depth: 8",
     "board: name must be a non-empty string of at most 200 characters without spaces at its ends or control "
     "characters"),
    ("warmaster/ridgeway.yaml", "board: {grid: table, width: 120, depth: 80",
     "board: name must be a non-empty string of at most 200 characters without spaces at its ends or control "
     "characters"),
])
def test_names_are_titles_of_up_to_200_characters(tmp_path: Path, example: str, line: str, says: str) -> None:
    # issue 26: a scenario's (or a board's) name is a title, longer than an id's 64 characters
    assert (MAX_ID_LENGTH, MAX_NAME_LENGTH) == (64, 200)
    text = (EXAMPLES / example).read_text(encoding="utf-8")
    assert line in text
    board = line.startswith("board")

    def named(title: str) -> Path:
        new = f"{line}, name: '{title}'" if board else f"name: '{title}'"
        return load(tmp_path, text.replace(line, new, 1))

    for title in (TITLE, "x" * MAX_NAME_LENGTH):
        eng = Engine.load(named(title))
        if not board:
            assert eng.scenario.name == title
        elif example.startswith("grid"):
            assert eng.scenario.board.name == title
    long = "x" * (MAX_NAME_LENGTH + 1)
    p = named(long)
    with pytest.raises(WarcouncilError) as e:
        Engine.load(p)
    assert str(e.value.message).startswith(f"{says}, not '{long[:20]}"), e.value.message
    at = place(p.read_text(encoding="utf-8"), "'" + long)
    assert (e.value.location.file, e.value.location.line, e.value.location.column) == (str(p), *at)


def test_ids_stay_at_64_characters_and_the_schema_says_so(tmp_path: Path) -> None:
    err, _ = error(tmp_path, "{id: s1,", "{id: " + "s" * 65 + ",")
    assert "unit id must be a string of at most 64 characters" in err.message
    schema = json_schema()
    assert schema["properties"]["name"]["maxLength"] == MAX_NAME_LENGTH
    assert schema["properties"]["system"]["maxLength"] == MAX_ID_LENGTH
