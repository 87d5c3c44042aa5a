"""The fuzz campaign's generators, run briefly in the suite (issue 12, point
5): grammar-aware rule files, structure-aware scenario and turn files and
argument lists, for Commands & Colors and for Warmaster's and the
square-grid game's own files (``fuzz/gen.py``, driven by hypothesis's ``st.randoms()`` so
a failure shrinks), through the command line in process. Every case ends
with exit 0, 1 or 2 — never an exception (``WARCOUNCIL_DEBUG`` makes an
internal error raise here), never a RecursionError. ``fuzz/run.py`` runs the
same generators at length (100,000 cases by default) and in subprocesses.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz import gen  # noqa: E402
from fuzz.run import is_finding, write_case  # noqa: E402

FAST = settings(max_examples=8, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])
FEW = settings(FAST, max_examples=12)


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    monkeypatch.setenv("WARCOUNCIL_DEBUG", "1")  # an internal error raises instead of exit 3


def verdict(*args) -> int:
    code, _, _ = run_cli(*args)
    assert code in (0, 1, 2), args
    return code


@FAST
@given(st.randoms(use_true_random=False))
def test_rule_files_lint_and_load(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("rules") / "house.wc"
    f.write_text(gen.rule_file(rng), encoding="utf-8", errors="surrogatepass")
    verdict("lint", f, "--over", "cca")
    verdict("orders", "akragas", "--card", "Order Two Units Left", "--rules", f, "--count")


@FEW
@given(st.randoms(use_true_random=False))
def test_scenario_files(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("scenario") / "scenario.yaml"
    f.write_text(gen.scenario_yaml(rng), encoding="utf-8", errors="surrogatepass")
    verdict("orders", f, "--card", "Order Three Units Center", "--limit", "3")


@FEW
@given(st.randoms(use_true_random=False))
def test_turn_files(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("turn") / "turn.yaml"
    f.write_text(gen.turn_yaml(rng), encoding="utf-8", errors="surrogatepass")
    verdict("check", "akragas", f)


@FEW
@given(st.randoms(use_true_random=False))
def test_argument_lists(tmp_path_factory, rng) -> None:
    folder = tmp_path_factory.mktemp("case")
    args = write_case(gen.case(rng), folder)
    verdict(*args)


@FEW
@given(st.randoms(use_true_random=False), st.sampled_from(["ridgeway", "alesia"]))
def test_the_other_systems_files(tmp_path_factory, rng, example) -> None:
    # Warmaster's and the square-grid game's own scenario, log, plan, wants,
    # activation and test files, perturbed, with the verbs they answer
    folder = tmp_path_factory.mktemp("system")
    args = write_case(gen.system_case(rng, example), folder)
    verdict(*args)


def test_findings_are_what_is_not_an_answer() -> None:
    assert [o for o in ("0", "1", "2", "3", "exception", "hang", "signal 11") if is_finding(o)] == \
        ["3", "exception", "hang", "signal 11"]


def test_a_hang_is_counted_in_cpu_seconds_not_on_the_wall_clock(monkeypatch) -> None:
    # on a loaded machine a case may wait long for a core: the budget is the
    # case's own CPU time (a wall-clock alarm reported loaded cases as hangs)
    import time

    from fuzz import run

    def busy(*args, **kwargs):
        t = time.process_time()
        while time.process_time() - t < 1.0:
            pass

    def idle(*args, **kwargs):
        time.sleep(0.3)

    from warcouncil.cli import main
    monkeypatch.setattr(main, "main", busy)
    assert run.run_in_process(["x"], 0.05) == ("hang", "over 0.05 CPU seconds in process")
    monkeypatch.setattr(main, "main", idle)
    assert run.run_in_process(["x"], 0.05) == ("0", "")
