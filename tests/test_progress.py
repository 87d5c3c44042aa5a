"""Progress on every long query (issue 30): `orders --count`, `turns`,
`plan` and `batch` draw rich's progress bar on standard error when it is a
terminal (solver/progress.py), never under --json nor into a pipe; the
answer on standard output is the same bytes either way."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import AKRAGAS, run_cli
from warcouncil.kernel import progress as P

ROOT = Path(__file__).resolve().parent.parent
WARMASTER = ROOT / "warcouncil" / "examples" / "warmaster"

# the command line as the program runs it, the bar drawn from the start of
# a step (DELAY 0: the queries here are quick)
_RUN = (
    "import sys\n"
    "import warcouncil.kernel.progress as P\n"
    "P.DELAY = 0\n"
    "from warcouncil.cli import main\n"
    "main(sys.argv[1:], prog_name='warcouncil')\n"
)


def _run(args, stderr_tty: bool, cwd=None):
    """(exit code, stdout, stderr) of the command line in a process of its
    own, stdout a pipe, stderr a pseudo-terminal or a pipe."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    cmd = [sys.executable, "-c", _RUN, *map(str, args)]
    if not stderr_tty:
        done = subprocess.run(cmd, capture_output=True, cwd=cwd, env=env, timeout=300)
        return done.returncode, done.stdout, done.stderr
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL, cwd=cwd,
                                env=env)
        os.close(slave)
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the other end closed (EIO)
                break
            if not chunk:
                break
            err += chunk
        out = proc.stdout.read()
        proc.wait(timeout=300)
    finally:
        os.close(master)
    return proc.returncode, out, err


def _jobs(tmp_path) -> Path:
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("".join(json.dumps({"scenario": "akragas", "verb": "orders", "args": {"card": c, "count": True}})
                            + "\n" for c in ("Order Two Units Left", "Line Command", "Order Light Troops")),
                    encoding="utf-8")
    return jobs


QUERIES = {
    # verb: (its arguments, what its bar says)
    "turns": (["turns", AKRAGAS, "--card", "Order Two Units Left", "--count"], b"order sets, "),
    "turns-listing": (["turns", AKRAGAS, "--card", "Order Two Units Left", "--limit", "300"], b"end positions"),
    "orders": (["orders", AKRAGAS, "--card", "I Am Spartacus", "--command", "2", "--count"], b"order sets of roll"),
    "plan": (["plan", WARMASTER / "ridgeway.yaml", WARMASTER / "logs" / "wants.yaml"], b"sequencings tried"),
    "batch": (["batch", "JOBS", "--jobs", "1"], b"lines answered"),
}


@pytest.mark.parametrize("query", sorted(QUERIES))
def test_the_bar_is_drawn_on_a_terminal_and_the_answer_is_the_same(query, tmp_path) -> None:
    args, says = QUERIES[query]
    args = [str(_jobs(tmp_path)) if a == "JOBS" else a for a in args]
    code, out, err = _run(args, stderr_tty=False)
    assert (code, err) == (0, b"")  # a pipe: no bar
    tty_code, tty_out, tty_err = _run(args, stderr_tty=True)
    assert (tty_code, tty_out) == (code, out)  # the same bytes on stdout
    assert says in tty_err and b"%" in tty_err  # the bar, on the terminal
    assert b"\x1b[" in tty_err  # drawn (and wiped: it is transient) with the terminal's codes


@pytest.mark.parametrize("query", ["turns", "orders", "plan"])
def test_no_bar_under_json_even_on_a_terminal(query) -> None:
    args, _ = QUERIES[query]
    code, out, err = _run([*args, "--json"], stderr_tty=False)
    assert (code, err) == (0, b"")
    tty = _run([*args, "--json"], stderr_tty=True)
    assert tty == (code, out, b"")
    json.loads(out)


def test_a_listing_to_a_terminal_draws_no_bar(monkeypatch) -> None:
    """A listing printed as it is made shows its own progress on a terminal:
    a bar beside it only when standard output goes elsewhere."""
    monkeypatch.setattr(P, "stderr_is_terminal", lambda: True)
    with P.shown():
        monkeypatch.setattr(P, "stdout_is_terminal", lambda: True)
        assert P.wanted() and not P.wanted(streams=True)
        monkeypatch.setattr(P, "stdout_is_terminal", lambda: False)
        assert P.wanted() and P.wanted(streams=True)
    assert not P.wanted()  # outside the command line: nothing, unless asked
    with P.shown(False):
        assert not P.wanted()


def test_a_quick_step_draws_nothing(monkeypatch, capsys) -> None:
    """Within ``DELAY`` seconds of its start, a step draws no bar."""
    monkeypatch.setattr(P, "stderr_is_terminal", lambda: True)
    clock = iter([0.0, 0.1, 0.2, 0.3, 0.4])
    monkeypatch.setattr(P.time, "monotonic", lambda: next(clock))
    with P.shown(), P.progress("quick", 10) as step:
        step(1)  # 0.1 s after the start
        step(2)  # 0.2 s
        assert step.__self__.progress is None
    assert capsys.readouterr().err == ""


def test_a_batch_job_draws_no_bar_of_its_own(tmp_path, monkeypatch) -> None:
    """The jobs of a batch run inside the batch's process (or a process
    forked from it): their verbs draw nothing, whatever the batch does."""
    seen = []
    real = P.wanted

    def spy(streams=False):
        seen.append((sys._getframe(1).f_code.co_name, real(streams)))
        return seen[-1][1]

    monkeypatch.setattr(P, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(P, "wanted", spy)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"scenario": "akragas", "verb": "turns",
                                "args": {"card": "Order Two Units Left", "count": True}}) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert code == 0
    assert json.loads(out) == {"line": 1, "exit": 0, "answer": {"card": "Order Two Units Left",
                                                                 "side": "syracusan", "count": 1024}}
    assert ("count_end_positions", False) in seen and ("count_end_positions", True) not in seen


def test_a_count_reports_as_it_goes(akragas) -> None:
    """`orders --count` of a card whose order sets are counted one by one
    (the second of its two alternatives) tells the progress helper so."""
    g = akragas.ground("Leadership Any Section")
    calls = []
    assert akragas.count(g, lambda *a: calls.append(a)) == 30 == akragas.count(g)
    assert calls[-1] == (2, 2, "alternative 2/2: 30 order sets counted")
    assert [c[0] for c in calls] == sorted(c[0] for c in calls) and len(calls) > 2
