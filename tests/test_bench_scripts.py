"""The benchmark scripts still run against today's code.

They are speed goals, not tests, and nothing else runs them: after the card
grammar changed, two of them failed at their first card and no test said so.
Each runs here in its shortest form (a card or two, a handful of Heroes) and
must print its answer rows, whose exact figures are the equality checks the
scripts assert themselves (a wrong answer is an AssertionError there). No
time is asserted: speed is the scripts' business (bench/README.md)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"

RUNS = [
    (["bench_orders.py", "--quick", "--no-csp", "--only", "Two Units Left"],
     "| akragas | syracusan | Order Two Units Left | 11 |"),
    (["bench_moves.py", "--quick", "--no-count", "--only", "Two Units Left"],
     "Geometric mean of a/b over 2 rows"),
    (["bench_warmaster.py", "--quick"], "| plan (6 wanted orders, 4 wants) | 120 |"),
    (["bench_heroes.py", "--heroes", "2"], "| 2 | "),
    (["bench_grid.py"], "| 24 units' activations + combat odds of 12 pairs |"),
]


@pytest.mark.parametrize("argv, expected", RUNS, ids=[r[0][0] for r in RUNS])
def test_a_benchmark_runs_and_prints_its_rows(argv, expected, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), WARCOUNCIL_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, str(BENCH / argv[0]), *argv[1:]], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert expected in r.stdout
    if argv[0] == "bench_heroes.py":  # P(all) = (13/18)^2, exactly
        assert "| 169/324 |" in r.stdout


def test_the_batch_benchmark_makes_its_jobs():
    spec = importlib.util.spec_from_file_location("bench_batch", BENCH / "bench_batch.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    jobs = module.make_jobs(1)
    assert len(jobs) == 369
    assert {j.get("verb", "check") for j in jobs} >= {"orders", "check"}
