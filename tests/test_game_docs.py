"""The README's game interface: ``docs/playout.py`` plays a random turn of
each family with a game, and the turn file it prints is legal to ``check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_cli import run

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("scenario, args", [
    ("akragas", ["--card", "Order Three Units Center"]),
    ("akragas", ["--seed", "4"]),
    ("practice_field", ["--seed", "1"]),
    ("ridgeway", ["--seed", "3"]),
    ("alesia", ["--seed", "2"]),
])
def test_a_playout_ends_in_a_legal_turn(tmp_path, scenario, args) -> None:
    p = subprocess.run([sys.executable, str(ROOT / "docs" / "playout.py"), scenario, *args],
                       capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) >= 2 and all(lines[:-1])  # each action's words, then the turn file
    turn = tmp_path / "turn.yaml"
    turn.write_text(lines[-1])  # JSON is YAML
    json.loads(lines[-1])
    r = run("check", scenario, turn)
    assert r.code == 0 and r.stdout.split(":")[0].strip() == "legal"  # (the grid adds "2 entries")
