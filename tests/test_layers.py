"""The layering is a checked contract (import-linter, configured in
pyproject.toml): the language (warcouncil.dsl) imports nothing above it; the
world (warcouncil.world: the board's geometry, YAML reading, the schema
framework) no game system, the kernel's registry included; the kernel
(warcouncil.kernel: the language runtime, the registry, the scenario and turn
files, the engine and the game interface) nothing of the planner
(warcouncil.solver) above it; neither of them any game system
(warcouncil.systems); nothing below imports the command line; no import
circles inside a package."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_hold(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0



def test_every_game_system_is_held_independent_of_the_others() -> None:
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    independent = next(c for c in contracts if c["type"] == "independence")
    systems = sorted(f"warcouncil.systems.{p.name}" for p in (ROOT / "warcouncil" / "systems").iterdir()
                     if (p / "__init__.py").exists())
    assert sorted(independent["modules"]) == systems


def test_the_command_line_reaches_every_game_system_only_through_the_kernel() -> None:
    """The command line (the batch runner, the referee service) imports no system's module:
    a verb is answered by the engine of the System the scenario names,
    found in the kernel's registry (issue 28)."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    forbidden = next(c for c in contracts if c["type"] == "forbidden" and "warcouncil.cli" in c["source_modules"])
    systems = sorted(f"warcouncil.systems.{p.name}" for p in (ROOT / "warcouncil" / "systems").iterdir()
                     if (p / "__init__.py").exists())
    assert sorted(forbidden["source_modules"]) == ["warcouncil.__main__", "warcouncil.batch", "warcouncil.cli",
                                                   "warcouncil.serve"]
    assert sorted(forbidden["forbidden_modules"]) == systems
    assert "allow_indirect_imports" not in forbidden  # the registry is found at run time, never imported


def test_the_layers_are_the_packages_in_order() -> None:
    """The layers, top to bottom, as docs/design.md §2 draws them: the
    planner above the kernel (it plans, searches and checks with the
    kernel's compiled rules; the kernel's engine plans nothing), the world
    below it (the kernel reads scenario files with the registry's systems)."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers")["layers"]
    order = ["warcouncil.systems", "warcouncil.solver", "warcouncil.kernel", "warcouncil.world", "warcouncil.dsl"]
    assert [layer for layer in layers if layer in order] == order
    # each module in one package: none left behind under its old name
    names = {pkg: {f.stem for f in (ROOT / "warcouncil" / pkg).glob("*.py")} - {"__init__"}
             for pkg in ("kernel", "solver", "world")}
    assert names["solver"] & (names["kernel"] | names["world"]) == set()
    assert names["solver"] >= {"plan", "decompose", "partial", "profile", "cells", "search", "check", "decide"}
