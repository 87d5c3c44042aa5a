"""Each game family adds its own command-line options (issue 28): declared
in its ``options.py`` (``kernel.system.Option``), read by the command line
through the entry points without importing a system, refused on a
scenario of a system that does not read them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli, verb_script
from warcouncil import cli
from warcouncil.kernel import system as S

HERE = Path(__file__).resolve().parent
TINY = HERE / "tinygrid" / "skirmish.yaml"


def test_the_shipped_families_declare_their_options() -> None:
    got = [(family, o.flag, o.name, o.verbs) for family, o in S.family_options()]
    card = ("orders", "moves", "turns", "diff")
    assert got == [("warcouncil.systems.cc", "--card", "card", card),
                   ("warcouncil.systems.cc", "--roll", "roll", card),
                   ("warcouncil.systems.cc", "--copies", "copies", card),
                   ("warcouncil.systems.cc", "--command", "command", card),
                   ("warcouncil.systems.cc", "--engine", "engine_kind", ("orders",)),
                   ("warcouncil.systems.warmaster", "--after", "after", ("orders",))]


def test_each_verb_has_the_options_the_families_give_it() -> None:
    def options(verb):
        return [p.opts[0] for p in cli.main.get_command(None, verb).params if p.opts[0].startswith("--")]

    assert options("orders") == ["--count", "--limit", "--side", "--svg", "--card", "--roll", "--copies",
                                 "--command", "--engine", "--after", "--rules", "--json"]
    assert options("moves") == ["--order", "--side", "--svg", "--card", "--roll", "--copies", "--command",
                                "--rules", "--json"]
    assert options("check") == ["--write-next", "--rules", "--json"]
    assert options("lint") == ["--over", "--coverage", "--allow-documents", "--json"]


_LOADED = verb_script("sorted(m for m in sys.modules if m.startswith('warcouncil.systems'))")


@pytest.mark.parametrize("args", [["orders", "x.yaml", "--rolll", "1"], ["moves", "x.yaml", "--card"]])
def test_the_options_are_read_without_importing_a_system(args, tmp_path) -> None:
    """The verb's options, its families' among them, are parsed (here: to a
    usage error) with no system imported; only each family's options."""
    done = subprocess.run([sys.executable, "-c", _LOADED, *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert done.stderr.splitlines()[-1] == str(["warcouncil.systems", "warcouncil.systems.cc",
                                                "warcouncil.systems.cc.options", "warcouncil.systems.grid",
                                                "warcouncil.systems.warmaster",
                                                "warcouncil.systems.warmaster.options"])


def test_an_option_another_family_reads_is_refused_with_its_message() -> None:
    assert run_cli("orders", "akragas", "--card", "Line Command", "--after", "x.yaml") == (
        2, "", "--after is for systems whose orders follow a turn log (e.g. Warmaster)\n")
    code, out, err = run_cli("orders", "ridgeway", "--copies", "Line Command", "--json")
    assert (code, json.loads(out)["error"]["message"]) == (
        2, "--copies is for card-driven systems; Warmaster has no cards")


@pytest.fixture
def colour(monkeypatch):
    """A family (Tiny Grid's package, ``tests/tinygrid``) declaring an option
    of its own, ``orders --colour``, as a plug-in's ``options.py`` would;
    the verb made again with it, and as it was afterwards."""
    sys.path.insert(0, str(HERE))
    try:
        import tinygrid.system  # noqa: F401 - the tiny game's System
    finally:
        sys.path.remove(str(HERE))
    shipped = S.family_options()
    extra = S.Option("--colour", ("orders",), "The colour of the activated units.", metavar="COLOUR",
                     refused="{option} is for Tiny Grid scenarios ({system} has no colours)")
    largest = S.Option("--largest", ("orders",), "Only the largest sets.", is_flag=True,
                       refused="{option} is for Tiny Grid scenarios")
    monkeypatch.setattr(S, "family_options", lambda: [*shipped, ("tinygrid", extra), ("tinygrid", largest)])
    cmd = cli.main.commands["orders"]
    kept, families = list(cmd.params), getattr(cmd, "families", None)
    cmd.params = [p for p in cmd.params if not any(p.name == o.name for _, o in shipped)]
    cmd.families = None
    yield extra
    cmd.params, cmd.families = kept, families


def test_a_family_adds_an_option(colour) -> None:
    code, out, _ = run_cli("orders", "--help")
    assert code == 0 and "--colour COLOUR" in out and "The colour of the activated units." in out
    assert run_cli("orders", TINY, "--count", "--colour", "red") == (0, "10\n", "")  # Tiny Grid reads it
    assert run_cli("orders", "akragas", "--card", "Line Command", "--colour", "red") == (
        2, "", "--colour is for Tiny Grid scenarios (Commands & Colors has no colours)\n")
    assert run_cli("orders", TINY, "--count", "--largest") == (0, "10\n", "")  # a flag
    assert run_cli("orders", "akragas", "--card", "Line Command", "--largest") == (
        2, "", "--largest is for Tiny Grid scenarios\n")
    assert run_cli("orders", "akragas", "--card", "Line Command", "--count") == (0, "41\n", "")  # left out: no matter


def test_the_command_line_declares_no_familys_option() -> None:
    """cli.py declares the options every verb shares; a family's are its
    own (lint-imports forbids the command line any system's module)."""
    src = (Path(cli.__file__)).read_text(encoding="utf-8")
    for _, o in S.family_options():
        assert f'"{o.flag}"' not in src, o.flag


def test_a_familys_option_naming_a_file_is_checked_as_one() -> None:
    code, out, err = run_cli("orders", "ridgeway", "--after", "a\x00b")
    assert (code, out) == (2, "")
    assert err.endswith("Error: Invalid value for '--after': 'a\\x00b' is no file or shipped name: "
                        "it holds a NUL character\n")


def test_import_linter_keeps_every_familys_options_from_its_system() -> None:
    """lint-imports (tests/test_layers.py) forbids each shipped options
    module its family's System and engine: reading them stays cheap."""
    import tomllib

    root = HERE.parent
    contracts = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    kept = next(c for c in contracts if c["name"] == "a family's options import not its System")
    shipped = sorted(f"warcouncil.systems.{p.parent.name}.options"
                     for p in (root / "warcouncil" / "systems").glob("*/options.py"))
    assert sorted(kept["source_modules"]) == shipped
    assert {f"{m.rpartition('.')[0]}.{part}" for m in shipped for part in ("system", "engine")} \
        == set(kept["forbidden_modules"])
