"""The fuzz campaign's generators, run briefly in the suite (issue 12, point
5): grammar-aware rule files, structure-aware scenario and turn files and
argument lists, for Commands & Colors and for Warmaster's and the
square-grid game's own files (``fuzz/gen.py``, driven by hypothesis's ``st.randoms()`` so
a failure shrinks), through the command line in process. Every case ends
with an answer (exit 0 or 1: on stdout, and nothing on stderr; `--json`: one
JSON document; lint's errors: on stderr) or bad input (exit 2: nothing on
stdout, one message on stderr; `--json`: one JSON error document on stdout,
nothing on stderr) — never an exception (``WARCOUNCIL_DEBUG``
makes an internal error raise here), never a RecursionError. The cases
differ from run to run (hypothesis's own seed; a failure prints the
``@reproduce_failure`` that replays it, and the example database keeps it).
``fuzz/run.py`` runs the same generators at length (100,000 cases by default)
and in subprocesses.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz import gen  # noqa: E402
from fuzz.run import is_finding, write_case  # noqa: E402

FAST = settings(max_examples=8, deadline=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])
FEW = settings(FAST, max_examples=12)


@pytest.fixture(autouse=True)
def _debug(monkeypatch):
    monkeypatch.setenv("WARCOUNCIL_DEBUG", "1")  # an internal error raises instead of exit 3


def verdict(*args) -> tuple[int, str]:
    """The case's exit code and stdout, checked for what that code says."""
    code, out, err = run_cli(*args)
    words = [str(a) for a in args]
    as_json = "--json" in words[:words.index("--")] if "--" in words else "--json" in words
    if code == 2 and as_json:  # bad input under --json: its JSON document (issue 30), the message on stderr
        assert (bool(err.strip()), "Traceback" in err) == (True, False), (words, out, err)
        assert (set(json.loads(out)), out.count("\n")) == ({"error"}, 1), (words, out, err)
    elif code == 2:  # bad input: one message, and no answer
        assert (out, bool(err.strip()), "Traceback" in err) == ("", True, False), (words, out, err)
    elif code == 1 and words[0] == "lint" and "--json" not in words:  # lint errors, each with its place
        assert (out, bool(err.strip())) == ("", True), (words, out, err)
    else:  # an answer ("no" is one: exit 1), and nothing on stderr but lint's warnings
        if words[0] == "lint" and "--json" not in words:
            err = "".join(part for part in re.split(r"(?m)^(?=\S)", err)
                          if ": warning: " not in part and not part.startswith("hint: "))  # a warning's hint
        assert (code in (0, 1), bool(out.strip()), err) == (True, True, ""), (words, code, out, err)
        if "--json" in words and not {"-h", "--help", "--version"} & set(words):
            json.loads(out)
    return code, out


@FAST
@given(st.randoms(use_true_random=False))
def test_rule_files_lint_and_load(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("rules") / "house.wc"
    f.write_text(gen.rule_file(rng), encoding="utf-8", errors="surrogatepass")
    code, out = verdict("lint", f, "--over", "cca")
    assert code != 0 or out.startswith("clean: "), out
    code, out = verdict("orders", "akragas", "--card", "Order Two Units Left", "--rules", f, "--count")
    assert code == 2 or (code, out.strip().isdigit()) == (0, True), out


@FEW
@given(st.randoms(use_true_random=False))
def test_scenario_files(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("scenario") / "scenario.yaml"
    f.write_text(gen.scenario_yaml(rng), encoding="utf-8", errors="surrogatepass")
    code, out = verdict("orders", f, "--card", "Order Three Units Center", "--limit", "3")
    assert code == 2 or (code, out.startswith("Order Three Units Center — ")) == (0, True), out


@FEW
@given(st.randoms(use_true_random=False))
def test_turn_files(tmp_path_factory, rng) -> None:
    f = tmp_path_factory.mktemp("turn") / "turn.yaml"
    f.write_text(gen.turn_yaml(rng), encoding="utf-8", errors="surrogatepass")
    code, out = verdict("check", "akragas", f)
    assert code == 2 or out.split(":")[0].strip() == ["legal", "illegal"][code], out


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
