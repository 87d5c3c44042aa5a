"""Bad input under --json (issue 30): one JSON document on stdout,
{"error": {"message", "file", "line", "column", "hint"}}, exit 2, and the
same one message on stderr as without --json (the contract's)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from warcouncil.cli import main


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], prog_name="warcouncil")


def error(message, file=None, line=None, column=None, hint=None):
    return {"error": {"message": message, "file": file, "line": line, "column": column, "hint": hint}}


@pytest.fixture
def bad_files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("system: cca\nname: x\n  bad: [\n", encoding="utf-8")
    (tmp_path / "house.wc").write_text("rule r1 {\n  when nonsense ((\n}\n", encoding="utf-8")
    return tmp_path


CASES = [
    # (arguments, the JSON document under --json, stderr without --json)
    (["orders", "akragas", "--card", "Nope"],
     error("unknown card 'Nope' for Commands & Colors: Ancients", hint="run `warcouncil cards` to list them"),
     "unknown card 'Nope' for Commands & Colors: Ancients\nhint: run `warcouncil cards` to list them\n"),
    (["orders", "bad.yaml", "--card", "x"],
     error("malformed YAML: mapping values are not allowed in this context", "bad.yaml", 3, 6),
     "bad.yaml:3:6: malformed YAML: mapping values are not allowed in this context\n      bad: [\n         ^\n"),
    (["orders", "akragas", "--card", "Line Command", "--rules", "house.wc"],
     error("unexpected 'r1'", "house.wc", 1, 6, "expected a rule id like cca.some-rule"),
     "house.wc:1:6: unexpected 'r1'\n    rule r1 {\n         ^\nhint: expected a rule id like cca.some-rule\n"),
    (["lint", "nofile.wc"],
     error("no rule pack or rule file 'nofile.wc'", "nofile.wc",
           hint="shipped packs: cca, ccm, core, grid-ancients, warmaster"),
     "nofile.wc: no rule pack or rule file 'nofile.wc'\nhint: shipped packs: cca, ccm, core, grid-ancients, warmaster\n"),
    # usage errors: click's own text without --json
    (["orders", "akragas", "--bogus"],
     error("No such option '--bogus'.",
           hint="usage: warcouncil orders [OPTIONS] SCENARIO (more: warcouncil orders --help)"),
     "Usage: warcouncil orders [OPTIONS] SCENARIO\nTry 'warcouncil orders --help' for help.\n\n"
     "Error: No such option '--bogus'.\n"),
    (["orders", "akragas", "--limit", "x"],
     error("Invalid value for '--limit': 'x' is not a valid integer range.",
           hint="usage: warcouncil orders [OPTIONS] SCENARIO (more: warcouncil orders --help)"),
     "Usage: warcouncil orders [OPTIONS] SCENARIO\nTry 'warcouncil orders --help' for help.\n\n"
     "Error: Invalid value for '--limit': 'x' is not a valid integer range.\n"),
    (["ordrs", "akragas"],
     error("No such command 'ordrs'. (Did you mean one of: 'cards', 'odds', 'orders'?)",
           hint="usage: warcouncil [OPTIONS] COMMAND [ARGS]... (more: warcouncil --help)"),
     "Usage: warcouncil [OPTIONS] COMMAND [ARGS]...\nTry 'warcouncil --help' for help.\n\n"
     "Error: No such command 'ordrs'. (Did you mean one of: 'cards', 'odds', 'orders'?)\n"),
    (["--bogus", "orders"],  # the group's own options: parsed before any verb
     error("No such option '--bogus'.",
           hint="usage: warcouncil [OPTIONS] COMMAND [ARGS]... (more: warcouncil --help)"),
     "Usage: warcouncil [OPTIONS] COMMAND [ARGS]...\nTry 'warcouncil --help' for help.\n\n"
     "Error: No such option '--bogus'.\n"),
]


@pytest.mark.parametrize("args, document, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_under_json_is_one_json_document(bad_files, args, document, message):
    r = run(*args, "--json")
    assert (r.exit_code, r.stderr) == (2, message)
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    assert json.loads(r.stdout) == document


@pytest.mark.parametrize("args, document, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_without_json_is_unchanged(bad_files, args, document, message):
    r = run(*args)
    assert (r.exit_code, r.stdout, r.stderr) == (2, "", message)


def test_json_after_double_dash_is_a_name(bad_files):
    """After `--` every argument is a name: `--json` there asks for nothing."""
    r = run("lint", "--", "--json")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == "--json: no rule pack or rule file '--json'\n" \
        "hint: shipped packs: cca, ccm, core, grid-ancients, warmaster\n"


def test_a_verb_without_json_asked_for_json(bad_files):
    """`batch` has no --json: asking for it is a usage error, in JSON."""
    r = run("batch", "jobs.jsonl", "--json")
    assert r.exit_code == 2 and r.stderr.endswith("Error: No such option '--json'. Did you mean '--jobs'?\n")
    assert json.loads(r.stdout) == error(
        "No such option '--json'. Did you mean '--jobs'?",
        hint="usage: warcouncil batch [OPTIONS] JOBS.jsonl (more: warcouncil batch --help)")
