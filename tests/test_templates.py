"""Rule message templates (issue 12, point 3): rendered by warcouncil from the
rule's bound names only, never by ``str.format`` on rule text; output bounded;
lint and load reject fields that are no plain bound name, at file:line:column."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from warcouncil.dsl.lint import lint
from warcouncil.dsl.parser import parse_text
from warcouncil.dsl.template import MESSAGE_LIMIT, VALUE_LIMIT, fields, problems, render
from warcouncil.errors import Location
from warcouncil.solver.check import _message

QUOTE = "You may not give more than one order to each unit or leader."
TURN = "card: Order Three Units Center\norders: [s4, s4]\n"


run = run_cli


def rule_file(tmp_path: Path, message: str) -> Path:
    f = tmp_path / "house.wc"
    f.write_text("rule house.r\n"
                 f'    from seed000 "{QUOTE}"\n'
                 "    require forall p in ordered: orders(p) <= 1\n"
                 f'    message "{message}"\n', encoding="utf-8")
    return f


# -- rendering --------------------------------------------------------------------


def test_names_are_replaced() -> None:
    assert render("{p} is ordered twice ({pieces})", {"p": "s4", "pieces": "s4, s5"}) == "s4 is ordered twice (s4, s5)"


def test_double_braces_are_literal_braces() -> None:
    assert render("{{p}} is {p}", {"p": "s4"}) == "{p} is s4"


@pytest.mark.parametrize("template", [
    "{p.__class__.__mro__}",
    "{p.__init__.__globals__}",
    "{p[0]}",
    "{p!r}",
    "{p:>100000000}",
    "{0}",
    "{}",
    "{q}",
    "{p",
    "p}",
])
def test_anything_else_is_printed_as_written(template: str) -> None:
    assert render(template, {"p": "s4", "pieces": "s4"}) == template


def test_attacks_mixed_with_names() -> None:
    out = render("{p}: {p.__class__} {p:>100000000}", {"p": "s4"})
    assert out == "s4: {p.__class__} {p:>100000000}"


def test_output_is_bounded() -> None:
    assert len(render("{p}" * 10_000, {"p": "s4"})) <= MESSAGE_LIMIT
    assert len(render("x" * 100_000, {})) <= MESSAGE_LIMIT
    one = render("{p}", {"p": "y" * 100_000})
    assert len(one) <= VALUE_LIMIT and one.endswith("…")


@given(st.text(alphabet="{}p.:!>0[]_ xq", max_size=60))
def test_render_never_fails_and_never_grows_past_the_limit(template: str) -> None:
    out = render(template, {"p": "s4", "pieces": "s4, s5"})
    assert len(out) <= MESSAGE_LIMIT
    assert "__" not in out or "__" in template  # nothing of Python's own


def test_the_checker_renders_with_the_engine() -> None:
    # a PieceView-less binding renders str(value); the template is data
    r = SimpleNamespace(decl=SimpleNamespace(message="{p} {p.__class__.__mro__} {p:>100000000}"), id="x.r")
    assert _message(r, ["s4"], {"p": "s4"}) == "s4 {p.__class__.__mro__} {p:>100000000}"
    r = SimpleNamespace(decl=SimpleNamespace(message="at most two ({pieces})"), id="x.r")
    assert _message(r, ["a", "b"], None) == "at most two (a, b)"


# -- checking templates -------------------------------------------------------------


def test_problems_name_each_bad_field() -> None:
    got = [(f.text, why) for f, why in problems("{p} {p.x} {p:>9} {p!r} {} {q}", {"p", "pieces"})]
    assert got == [("p.x", "an attribute or index walk"), ("p:>9", "a conversion or format spec"),
                   ("p!r", "a conversion or format spec"), ("", "an empty field"), ("q", "not a name the rule binds")]
    assert [f.offset for f in fields("ab{p}c{q}")] == [2, 6]


def test_the_parser_keeps_the_message_place() -> None:
    rf = parse_text('rule x.r\n    require true\n    message "{pieces}"\n', "m.wc")
    assert rf.statements[0].message_loc == Location("m.wc", 3, 13)


@pytest.mark.parametrize("field, why", [
    ("{p.__class__.__mro__}", "an attribute or index walk"),
    ("{p:>100000000}", "a conversion or format spec"),
    ("{pieces!r}", "a conversion or format spec"),
])
def test_lint_reports_a_bad_field_at_its_column(tmp_path: Path, field: str, why: str) -> None:
    f = rule_file(tmp_path, "{p} broke it: " + field)
    _, found = lint([f], base="cca")
    assert len(found) == 1, [str(p) for p in found]
    p = found[0]
    line = f.read_text("utf-8").splitlines()[3]
    assert p.location == Location(str(f), 4, line.index(field) + 1)
    assert p.message.startswith(f"message of house.r: {field} is {why}")
    assert p.hint == "use {p} or {pieces}"


def test_lint_passes_a_good_template(tmp_path: Path) -> None:
    f = rule_file(tmp_path, "{p} is ordered twice ({pieces}); {{literal}}")
    assert lint([f], base="cca")[1] == []


@pytest.mark.parametrize("field", ["{p.__class__.__mro__}", "{p:>100000000}", "{p.nosuch}"])
def test_check_refuses_a_house_rule_with_a_bad_field(tmp_path: Path, field: str) -> None:
    f = rule_file(tmp_path, "{p} " + field)
    turn = tmp_path / "turn.yaml"
    turn.write_text(TURN, encoding="utf-8")
    code, out, err = run("check", "akragas", turn, "--rules", f)
    assert code == 2, (code, out, err)
    assert out == "" and "Traceback" not in err and "internal error" not in err
    assert err.startswith(f"{f}:4:")
    assert "mro" not in err.replace(field, "")  # Python's internals are never printed
    assert len(err) < 2000


def test_check_renders_a_good_template(tmp_path: Path) -> None:
    f = rule_file(tmp_path, "{p} twice; {{not a field}}")
    turn = tmp_path / "turn.yaml"
    turn.write_text(TURN, encoding="utf-8")
    code, out, err = run("check", "akragas", turn, "--rules", f, "--json")
    assert code == 1, err
    assert '"message": "s4 twice; {not a field}"' in out
