"""The layering is a checked contract (import-linter, configured in
pyproject.toml): the language (warcouncil.dsl) imports nothing of the kernel
(warcouncil.solver), the kernel nothing of the game systems
(warcouncil.systems), and nothing below imports the command line; no
import circles inside a layer."""

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
