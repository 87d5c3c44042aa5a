"""The warmaster pack: lint-clean, every sentence of seed 003 cited, every
UNCERTAIN default its own define listed in the pack header, and the system
found by its entry point."""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from pathlib import Path

from conftest import run_cli
from warcouncil.dsl.lint import coverage, lint
from warcouncil.dsl.pack import PACKS_DIR, load_pack

PACK = PACKS_DIR / "warmaster"


def test_the_pack_is_clean():
    pack, problems = lint([str(PACK)])
    assert problems == [] and pack is not None
    code, out, _ = run_cli("lint", PACK)
    assert code == 0 and "clean" in out


def test_every_sentence_of_seed_003_is_cited():
    sentences = coverage(load_pack("warmaster"))
    assert len(sentences) == 20
    assert [s.text for s in sentences if not s.cited_by] == []
    code, out, _ = run_cli("lint", PACK, "--coverage")
    assert code == 0 and "20/20 sentences cited" in out


def test_every_uncertain_default_is_listed_in_the_header():
    pack = load_pack("warmaster")
    defaults = {i for i in pack.define_ids if i.startswith("wm.default.")}
    rules = {i for i in pack.rules if i.startswith("wm.default.")}  # (issue 27: wm.default.on-table)
    header = (PACK / "00-pack.wc").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#\s+(wm\.default\.[a-z0-9.-]+)", header, re.M))
    assert defaults | rules == listed and len(defaults) == 12 and rules == {"wm.default.on-table"}
    text = (PACK / "30-defaults.wc").read_text(encoding="utf-8")
    assert set(re.findall(r"^define (wm\.default\.[a-z0-9.-]+)", text, re.M)) == defaults
    assert set(re.findall(r"^rule (wm\.default\.[a-z0-9.-]+)", text, re.M)) == rules


def test_the_system_is_an_entry_point():
    (ep,) = entry_points(group="warcouncil.systems", name="warmaster")
    from warcouncil.systems.warmaster import Warmaster

    assert ep.load() is Warmaster
    assert Warmaster.answers_itself == Warmaster.verbs == {"orders", "odds", "check", "plan"}
    assert Path(Warmaster.engine.__module__.replace(".", "/")).name == "engine"


def test_the_readme_commands_run():
    """Every command of the README's Warmaster section answers (exit 0)."""
    import shlex

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Warmaster", 1)[1].split("\n## ", 1)[0]
    commands = [line.split("#")[0].split() for line in section.splitlines() if line.startswith("    warcouncil ")]
    assert len(commands) == 6
    root = Path(__file__).resolve().parents[1]
    for cmd in commands:
        args = [str(root / a) if a.startswith("warcouncil/") else a for a in cmd[1:]]
        code, _, err = run_cli(*args)
        assert code == 0, (shlex.join(cmd), err)
