"""Hostile input to the loaders (issue 12, point 1): every file gets a verdict
in bounded time and memory -- exit 2, one clear message, no traceback.

Devices, FIFOs, folders, missing and oversized files; non-UTF-8 text; YAML
nested 25,000 deep (which crashed libyaml's composer) and alias bombs
("billion laughs"); a rule file's `document` naming a device; a megabyte-long
line in an error message.
"""

from __future__ import annotations

import os
import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli
from warcouncil.errors import EXCERPT_WIDTH, Location, WarcouncilError
from warcouncil.world.ydoc import MAX_YAML_DEPTH, MAX_YAML_NODES, MAX_YAML_TEXT
from warcouncil.kernel.scenario import load_scenario, parse_yaml
from warcouncil.kernel.turn import load_turn
from warcouncil.textfile import YAML_LIMIT, read_bytes, read_text

TURN = "card: Order Three Units Center\norders: [s4, s5]\n"
QUOTE = "You may not give more than one order to each unit or leader."


run = run_cli


def bad_input(*args) -> str:
    """Exit 2, nothing on stdout, one short message on stderr, no traceback."""
    code, out, err = run(*args)
    assert code == 2, (code, out, err[:2000])
    assert out == ""
    assert err.strip()
    assert "Traceback" not in err and "internal error" not in err
    assert len(err) < 3000, len(err)
    return err


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def turn(tmp_path: Path) -> Path:
    return write(tmp_path / "turn.yaml", TURN)


def test_the_plain_turn_is_fine(turn: Path) -> None:
    code, out, err = run("check", "akragas", turn)
    assert code in (0, 1) and out, err


# -- not regular files ------------------------------------------------------------


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_as_turn_file(device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    err = bad_input("check", "akragas", device)
    assert err.startswith(f"{device}: cannot read turn file: it is a device, not a regular file")


def test_a_device_as_scenario() -> None:
    err = bad_input("check", "/dev/zero", "/dev/null")
    assert err.startswith("/dev/zero: cannot read scenario file: it is a device")


def test_a_folder_as_turn_file_and_scenario(tmp_path: Path, turn: Path) -> None:
    assert "it is a folder" in bad_input("check", "akragas", tmp_path)
    assert "it is a folder" in bad_input("check", tmp_path, turn)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_never_waits_for_a_writer(tmp_path: Path, turn: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "a pipe (FIFO)" in bad_input("check", "akragas", fifo)
    assert "a pipe (FIFO)" in bad_input("check", fifo, turn)


def test_a_missing_file(tmp_path: Path) -> None:
    err = bad_input("check", "akragas", tmp_path / "nope.yaml")
    assert "cannot read turn file: No such file" in err


def test_a_file_over_the_limit_says_its_size_and_the_limit(tmp_path: Path, turn: Path) -> None:
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:  # sparse: nothing is written but the size
        f.truncate(YAML_LIMIT + 1)
    err = bad_input("check", "akragas", big)
    assert f"turn file is too large: {YAML_LIMIT + 1:,} bytes, the limit is 1 MiB" in err
    err = bad_input("check", big, turn)
    assert "scenario file is too large" in err and "1 MiB" in err


def test_a_file_larger_than_it_says_is_read_only_to_the_limit() -> None:
    # /proc files report size 0: the reader stops at the limit all the same
    if not os.path.exists("/proc/self/status"):
        pytest.skip("no /proc")
    with pytest.raises(WarcouncilError) as info:
        read_bytes("/proc/self/status", 10, "status file")
    assert "status file is too large: more than 10 bytes" in info.value.message
    assert read_text("/proc/self/status", 1 << 20).startswith("Name:")


# -- text that is not UTF-8 -----------------------------------------------------


def test_a_turn_file_that_is_not_utf8(tmp_path: Path) -> None:
    bad = write(tmp_path / "latin.yaml", b"card: Order Three Units Center\norders: [s\xe9]\n")
    err = bad_input("check", "akragas", bad)
    assert err.startswith(f"{bad}:2:11: turn file is not UTF-8 text: byte 0xe9 at offset 41")


def test_a_rule_file_that_is_not_utf8(tmp_path: Path, turn: Path) -> None:
    bad = write(tmp_path / "latin.wc", b"rule house.r\n    require true\n    message \"\xe9\"\n")
    err = bad_input("check", "akragas", turn, "--rules", bad)
    assert f"{bad}:3:14: rule file is not UTF-8 text: byte 0xe9 at offset 43" in err
    code, out, err = run("lint", bad, "--over", "cca")
    assert (code, out) == (1, "")  # a lint error, with its place
    assert err.startswith(f"{bad}:3:14: rule file is not UTF-8 text: byte 0xe9 at offset 43")


# -- YAML that would crash or explode -------------------------------------------


@pytest.mark.parametrize(("opening", "column"), [("[", 65), ("{a: ", 254), ("- ", 129)])
def test_deep_nesting_is_refused(tmp_path: Path, turn: Path, opening: str, column: int) -> None:
    # at the 65th level, whatever libyaml is installed (PyYAML 6.0.4's stops at 1000 levels of its
    # own while it looks ahead: such a text is read again by PyYAML's parser, yamlread._LIBYAML_NESTING)
    deep = write(tmp_path / "deep.yaml", opening * 25_000 + "x\n")
    err = bad_input("check", "akragas", deep)
    assert err.startswith(f"{deep}:1:{column}: YAML nested too deeply (more than {MAX_YAML_DEPTH} levels)")
    err = bad_input("check", deep, turn)
    assert "nested too deeply" in err


def _bomb(levels: int = 9) -> list[str]:
    """Anchors a0 .. a<levels>, each a list of nine aliases of the one before."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return lines


def test_billion_laughs_in_a_turn_file(tmp_path: Path) -> None:
    # the bomb's anchors inside the fields the issue names: orders, to
    anchors = ['card: Order Three Units Center', 'orders: &a0 [s4, s4, s4, s4, s4, s4, s4, s4, s4]']
    for i in range(1, 10):
        anchors.append(f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    anchors.append("moves: [{piece: s4, to: *a9}]")
    bomb = write(tmp_path / "bomb.yaml", "\n".join(anchors) + "\n")
    err = bad_input("check", "akragas", bomb)
    assert f"YAML too large: more than {MAX_YAML_NODES:,} values" in err


def test_billion_laughs_in_a_scenario(tmp_path: Path, turn: Path) -> None:
    text = "\n".join(_bomb()) + "\nsystem: cca\nboard: cca\nto_move: *a9\nsides: {}\nunits: [{id: x, at: *a9}]\n"
    bomb = write(tmp_path / "bomb.yaml", text)
    assert "YAML too large" in bad_input("check", bomb, turn)


def test_a_few_aliases_are_fine() -> None:
    data = parse_yaml("a: &x [1, 2]\nb: *x\nc: *x\n", "f")
    assert data == {"a": [1, 2], "b": [1, 2], "c": [1, 2]}


def test_aliases_of_a_long_string_are_bounded_by_their_text(tmp_path: Path) -> None:
    # issue 26: 5,000 aliases of one 60 KB string (an 80 KB file) are 5,002
    # values but 300 MB of text; refused at the alias that passes the bound
    lines = ["card: Order Three Units Center", "note: &s " + "x" * 60_000, "orders: [" + ", ".join(["*s"] * 5000) + "]"]
    bomb = write(tmp_path / "bomb.yaml", "\n".join(lines) + "\n")
    before = len("card" "Order Three Units Center" "note") + 60_000 + len("orders")
    n = (MAX_YAML_TEXT - before) // 60_000 + 1  # the alias that passes it
    assert before + (n - 1) * 60_000 <= MAX_YAML_TEXT < before + n * 60_000
    err = bad_input("check", "akragas", bomb)
    assert err.startswith(f"{bomb}:3:{len('orders: [') + 1 + (n - 1) * len('*s, ')}: YAML too large: more than 4 MiB "
                          "of text in its keys and values (counting each alias as a copy of what it names)\n")


def test_the_text_bound_holds_at_the_edge_in_bytes() -> None:
    # keys and values with aliases expanded, in UTF-8 bytes: 2 + 42,799 * 98 == 4 MiB
    assert MAX_YAML_TEXT == 4 * YAML_LIMIT == 2 + 42_799 * 98
    s = "é" * 21_399 + "x"  # 42,799 bytes in 21,400 characters
    doc = "a: &s " + s + "\n{}: [" + ", ".join(["*s"] * 97) + "]\n"
    assert parse_yaml(doc.format("b"), "f")["b"] == [s] * 97
    with pytest.raises(WarcouncilError, match="more than 4 MiB of text") as e:
        parse_yaml(doc.format("bb"), "f")
    assert (e.value.location.line, e.value.location.column) == (2, len("bb: [") + 1 + 96 * len("*s, "))


def test_a_recursive_alias(tmp_path: Path) -> None:
    loop = write(tmp_path / "loop.yaml", "card: x\norders: &o [*o]\n")
    assert "recursive YAML alias" in bad_input("check", "akragas", loop)


def test_the_limits_hold_at_the_edge() -> None:
    ok = "[" * MAX_YAML_DEPTH + "]" * MAX_YAML_DEPTH
    assert parse_yaml(ok, "f") is not None
    with pytest.raises(WarcouncilError):
        parse_yaml("[" + ok + "]", "f")


# -- turn-file fields of the wrong type (exit 3 before) ------------------------------


@pytest.mark.parametrize("field, says", [
    ("battles: true", "`battles` is a list"),
    ("battles: xy", "`battles` is a list"),
    ("battles: [{piece: [1], target: c1}]", "a battle's piece is a piece id"),
    ("side: {a: 1}", "`side` is a side's name, not a mapping"),
    ("side: []", "`side` is a side's name, not a list"),
    ("copies: 1.5", "`copies` is the name of the card copied, not 1.5"),
    ("copies: [a, b]", "`copies` is the name of the card copied, not a list"),
    ("roll: [[1]]", "`roll` is a list of die faces"),
])
def test_turn_fields_of_the_wrong_type(tmp_path: Path, field: str, says: str) -> None:
    f = write(tmp_path / "t.yaml", TURN + field + "\n")
    assert says in bad_input("check", "akragas", f)


def test_a_roll_that_is_a_number_is_not_an_internal_error(tmp_path: Path) -> None:
    f = write(tmp_path / "t.yaml", TURN + "roll: 5\n")
    bad_input("check", "akragas", f)


# -- rule files and the documents they cite ---------------------------------------


def test_a_rule_file_citing_a_device(tmp_path: Path) -> None:
    rule = write(tmp_path / "z.wc", 'document z "/dev/zero"\n'
                                    "rule house.z\n"
                                    f'    from z "{QUOTE}"\n'
                                    "    require true\n")
    code, out, err = run("lint", rule, "--over", "cca", "--allow-documents", "/dev")  # (issue 26: outside its folder)
    assert code == 1, (code, err)
    assert "cannot read document '/dev/zero'" in err and "it is a device" in err
    assert "Traceback" not in err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_among_the_rule_files(tmp_path: Path, turn: Path) -> None:
    house = tmp_path / "house"
    house.mkdir()
    os.mkfifo(house / "pipe.wc")
    assert "cannot read rule file: it is a pipe (FIFO)" in bad_input("check", "akragas", turn, "--rules", house)


# -- bounded messages -------------------------------------------------------------


def test_a_huge_line_is_quoted_as_a_short_excerpt(tmp_path: Path) -> None:
    text = "card: Order Three Units Center\norders: [s4, " + "x" * 900_000 + ", [1]]\n"
    assert len(text) < YAML_LIMIT
    f = write(tmp_path / "long.yaml", text)
    err = bad_input("check", "akragas", f)
    assert "a piece id is a string" in err
    quoted = [ln for ln in err.splitlines() if ln.startswith("    ")]
    assert quoted and all(len(ln) <= EXCERPT_WIDTH + 4 for ln in quoted), quoted
    assert "…" in quoted[0]
    assert quoted[1].rstrip().endswith("^")


def test_the_caret_stays_under_the_column_of_an_excerpt() -> None:
    line = "x" * 5000 + "@" + "y" * 5000
    text = str(WarcouncilError("here", Location("f", 1, 5001), source_line=line))
    _, quoted, caret = text.splitlines()
    assert quoted[caret.index("^")] == "@"
    assert len(quoted) <= EXCERPT_WIDTH + 4


# -- fuzz: structure-aware YAML with anchors and aliases ---------------------------

_ANCHORS = ["a", "b", "c"]
_WORDS = ["card", "orders", "moves", "battles", "piece", "to", "path", "s4", "s5", "c1", "system", "units",
          "Order Three Units Center", "cca", "at", "id", "side", "1", "-3", "7", "true", "null", "~", "[]", "{}"]


def _scalar():
    return st.sampled_from(_WORDS) | st.text(string.ascii_letters + string.digits + " -_:#&*!|>'\"%@`", max_size=6)


def _node(depth: int):
    alias = st.sampled_from(_ANCHORS).map(lambda a: f"*{a}")
    leaf = _scalar() | alias
    if depth <= 0:
        return leaf

    def anchored(child):
        return st.tuples(st.sampled_from(["", "&a ", "&b ", "&c "]), child).map(lambda t: t[0] + t[1])

    inner = _node(depth - 1)
    flow_list = st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]")
    flow_map = st.lists(st.tuples(_scalar(), inner), max_size=4).map(
        lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}")
    deep = st.integers(1, 200).map(lambda n: "[" * n + "]" * n)
    return leaf | anchored(flow_list) | anchored(flow_map) | deep


_DOCS = st.lists(st.tuples(st.sampled_from(_WORDS + _ANCHORS), _node(3)), min_size=1, max_size=6).map(
    lambda kv: "".join(f"{k}: {v}\n" for k, v in kv))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_DOCS | st.text(max_size=120))
def test_fuzz_the_loaders_raise_only_warcouncil_errors(tmp_path_factory, text: str) -> None:
    d = tmp_path_factory.mktemp("yaml", numbered=True)
    f = write(d / "f.yaml", text)
    for load in (lambda: parse_yaml(text, "f"), lambda: load_scenario(str(f)), lambda: load_turn(str(f))):
        try:
            load()
        except WarcouncilError as e:
            assert str(e)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_DOCS, with_card=st.booleans())
def test_fuzz_check_never_exits_3(tmp_path_factory, text: str, with_card: bool) -> None:
    d = tmp_path_factory.mktemp("cli", numbered=True)
    if with_card:  # past the first check, into the fields
        text = "card: Order Three Units Center\n" + text.replace("card:", "cards:")
    f = write(d / "turn.yaml", text)
    code, out, err = run("check", "akragas", f)
    if code == 2:  # bad input: one message naming the turn file, no traceback
        assert (out, err.startswith(f"{f}:")) == ("", True), err
        assert "Traceback" not in err and "internal error" not in err
    else:  # an answer: "legal" (exit 0), "illegal" with its violations (exit 1)
        assert (code, err, out.split(":")[0].strip()) in ((0, "", "legal"), (1, "", "illegal")), (code, out, err)


# Fuzz seed 13, case 36201: a scenario's `system:` 300 characters long made
# the search for a pack folder of that name raise OSError (exit 3); a rules
# entry or a scenario name too long for the file system did the same.

LONG = "a" * 300


def test_names_too_long_for_the_file_system_are_bad_input(tmp_path):
    import yaml

    from warcouncil.errors import WarcouncilError
    from warcouncil.kernel.scenario import load_scenario

    from warcouncil.kernel.scenario import shipped_scenarios

    data = yaml.safe_load(shipped_scenarios()["akragas"].read_text(encoding="utf-8"))
    for key, value in (("system", LONG), ("rules", [LONG + ".wc"]), ("rules", [f"x/{LONG}/y.wc"])):
        f = tmp_path / "long.yaml"
        f.write_text(yaml.safe_dump({**data, key: value}), encoding="utf-8")
        with pytest.raises(WarcouncilError) as e:
            load_scenario(str(f))
        assert len(str(e.value)) < 1200, key
    with pytest.raises(WarcouncilError):
        load_scenario(LONG)
