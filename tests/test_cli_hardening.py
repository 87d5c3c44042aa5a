"""The command line's hardening of issue 26: `batch --jobs` bounded and
never more workers than lines, an answer that cannot be written (exit 4),
`moves --svg` on a board it cannot draw, an inline turn's messages naming
its job line, card-only options refused where nothing reads them, and
`--command` in the range of a scenario's `command`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import AKRAGAS, run_cli
from warcouncil import cli

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "cli"
RIDGEWAY = HERE.parent / "warcouncil" / "examples" / "warmaster" / "ridgeway.yaml"
TINY = HERE / "tinygrid" / "skirmish.yaml"
CARDS = json.dumps({"scenario": str(AKRAGAS), "verb": "cards"})


def _records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


# ------------------------------------------------------------------ batch --jobs


def test_jobs_is_bounded_by_four_per_core(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(CARDS + "\n", encoding="utf-8")
    top = 4 * (os.cpu_count() or 1)
    assert cli.BATCH_JOBS_MAX == top
    code, out, err = run_cli("batch", jobs, "--jobs", top + 1)
    assert (code, out) == (2, "")
    assert f"Invalid value for '--jobs': {top + 1} is not in the range 1<=x<={top}" in err


def _count_forks(monkeypatch) -> list:
    forks = []
    real = os.fork

    def fork():
        forks.append(1)
        return real()

    monkeypatch.setattr(os, "fork", fork)
    return forks


@pytest.mark.parametrize(("lines", "workers", "forks"), [(1, 4, 0), (2, 4, 2), (3, 2, 2)])
def test_never_more_workers_than_lines(tmp_path, monkeypatch, lines, workers, forks):
    if not hasattr(os, "fork"):  # pragma: no cover
        pytest.skip("workers are forked only where the system can fork")
    forked = _count_forks(monkeypatch)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text((CARDS + "\n") * lines, encoding="utf-8")
    code, out, err = run_cli("batch", jobs, "--jobs", workers)
    assert (code, err) == (0, "")
    got = _records(out)
    assert [r["line"] for r in got] == list(range(1, lines + 1)) and {r["exit"] for r in got} == {0}
    assert len(forked) == forks  # one line: answered here, no worker at all


def test_no_worker_can_be_started_is_one_message_exit_2(tmp_path, monkeypatch):
    if not hasattr(os, "fork"):  # pragma: no cover
        pytest.skip("workers are forked only where the system can fork")
    forked = _count_forks(monkeypatch)
    real_pipe, pipes, opened = os.pipe, [], []

    def pipe():  # the second worker's second pipe: out of file descriptors
        pipes.append(1)
        if len(pipes) == 4:
            raise OSError(24, "Too many open files")
        fds = real_pipe()
        opened.extend(fds)
        return fds

    monkeypatch.setattr(os, "pipe", pipe)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text((CARDS + "\n") * 3, encoding="utf-8")
    code, out, err = run_cli("batch", jobs, "--jobs", 2)
    assert (code, out) == (2, "")
    assert err == "cannot start 2 worker processes: Too many open files\nhint: run fewer with --jobs N\n"
    assert len(forked) == 1  # the first worker was started, and ended: its pipes and the new one closed
    for fd in opened:
        with pytest.raises(OSError):
            os.fstat(fd)


# ------------------------------------------------------------------ an answer that cannot be written


def _warcouncil(*args, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    env.pop("WARCOUNCIL_DEBUG", None)
    return subprocess.run([sys.executable, "-m", "warcouncil", *map(str, args)], capture_output=False,
                          stderr=subprocess.PIPE, text=True, env=env, timeout=300, **kwargs)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("args", [
    ["cards", "akragas"],  # rich's table
    ["cards", "akragas", "--json"],  # click.echo
    ["orders", "akragas", "--card", "Line Command", "--count"],
])
def test_a_full_standard_output_is_exit_4(args):
    with open("/dev/full", "w") as full:
        r = _warcouncil(*args, stdout=full)
    assert (r.returncode, r.stderr) == (4, "cannot write the answer to standard output: No space left on device\n")


def test_a_closed_standard_output_is_exit_4():
    r = _warcouncil("cards", "akragas", stdout=subprocess.DEVNULL, preexec_fn=lambda: os.close(1))
    assert (r.returncode, r.stderr) == (4, "cannot write the answer: standard output is closed\n")


def test_a_closed_pipe_still_ends_quietly_with_exit_0():
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    r = subprocess.run(f"{sys.executable} -m warcouncil orders akragas --card 'Line Command' | head -1",
                       shell=True, capture_output=True, text=True, env=env, timeout=300,
                       executable="/bin/bash")
    assert (r.stdout, r.stderr) == ("Line Command — syracusan (Command 6, south edge)\n", "")


def test_a_bugs_oserror_is_still_an_internal_error(monkeypatch):
    # an OSError raised by the engine, not by a write to standard output: a bug (exit 3)
    from warcouncil.kernel.engine import Engine

    def broken(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.delenv("WARCOUNCIL_DEBUG", raising=False)
    monkeypatch.setattr(Engine, "load", broken)
    code, out, err = run_cli("cards", "akragas")
    assert (code, out) == (3, "")
    assert err.startswith("internal error (a bug in warcouncil): OSError(28, 'No space left on device')")


# ------------------------------------------------------------------ moves --svg on a square board

SQUARE = """\
name: a CCA pack on a square board
system: cca
board: {grid: square, width: 6, depth: 5, sections: {center: [[1, 4], [2, 4], [3, 4]]}}
sides:
  carthaginian: {edge: north, command: 5}
  syracusan: {edge: south, command: 6}
to_move: syracusan
units:
  - {id: c1, side: carthaginian, type: medium_infantry, at: [3, 0]}
  - {id: s1, side: syracusan, type: heavy_infantry, at: [2, 4]}
"""


def test_moves_svg_on_a_square_board_is_refused_before_the_answer(tmp_path, monkeypatch):
    path = tmp_path / "square.yaml"
    path.write_text(SQUARE, encoding="utf-8")
    args = ["moves", path, "--card", "Order Heavy Troops", "--order", "s1"]
    code, out, _ = run_cli(*args, "--json")
    assert code == 0 and json.loads(out)["moves"] == {"s1": [{"to": [2, 3], "battle": True},
                                                             {"to": [1, 4], "battle": True},
                                                             {"to": [3, 4], "battle": True}]}

    from warcouncil.systems.cc.engine import CardEngine

    def not_asked(*a, **k):  # pragma: no cover - the point: never reached
        raise AssertionError("the destinations were computed")

    monkeypatch.setattr(CardEngine, "destinations", not_asked)
    svg = tmp_path / "board.svg"
    code, out, err = run_cli(*args, "--svg", svg)
    assert (code, out) == (2, "")
    assert err == "--svg draws hex boards only, and this scenario's board is a square grid: leave out --svg\n"
    assert not svg.exists()


# ------------------------------------------------------------------ batch: an inline turn's messages


def test_an_inline_turns_error_names_its_line(tmp_path):
    turn = {"card": "Line Command", "orders": ["s4"], "bogus": 1}
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(CARDS + "\n" + json.dumps({"scenario": str(AKRAGAS), "turn": turn}) + "\n", encoding="utf-8")
    runs = [run_cli("batch", jobs, "--jobs", 1) for _ in range(2)]
    assert runs[0] == runs[1]  # the same every time
    code, out, _ = runs[0]
    assert code == 0
    assert _records(out)[1] == {"line": 2, "exit": 2, "error": (
        "<line 2: turn>:1:44: unknown key 'bogus' in turn file\n"
        "    {\"card\": \"Line Command\", \"orders\": [\"s4\"], \"bogus\": 1}\n"
        "                                               ^\n"
        "hint: keys: orders, moves, battles, command, side, card, second_moves, roll, copies")}


def test_an_inline_turn_refused_with_its_job_leaves_no_file(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # where the scratch files are made
    line = {"scenario": str(AKRAGAS), "turn": {"card": "Line Command", "orders": ["s4"]}, "args": {"colour": 1}}
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps(line) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", 1)
    assert code == 0 and _records(out)[0]["error"].startswith("`check` has no option 'colour'")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jobs.jsonl"]


# ------------------------------------------------------------------ card-only options


@pytest.mark.parametrize("option", [["--roll", "light"], ["--copies", "Line Command"], ["--command", "3"],
                                    ["--engine", "csp"], ["--engine", "fast"]])
def test_card_only_options_are_refused_on_warmaster(option):
    code, out, err = run_cli("orders", RIDGEWAY, *option)
    assert (code, out) == (2, "")
    assert err == f"{option[0]} is for card-driven systems; Warmaster has no cards\n"
    code, out, err = run_cli("orders", RIDGEWAY, "--count", *option, "--json")  # one JSON document (issue 30)
    assert (code, json.loads(out), err) == (2, {"error": {
        "message": f"{option[0]} is for card-driven systems; Warmaster has no cards",
        "file": None, "line": None, "column": None, "hint": None}}, f"{option[0]} is for card-driven systems; Warmaster has no cards\n")


def test_card_only_options_in_a_batch_job(tmp_path):
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"scenario": str(RIDGEWAY), "verb": "orders", "args": {"roll": "light"}}) + "\n",
                    encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", 1)
    assert code == 0
    assert _records(out) == [{"line": 1, "error": "--roll is for card-driven systems; Warmaster has no cards",
                              "exit": 2}]


def test_a_system_without_cards_reads_command_only():
    sys.path.insert(0, str(HERE))  # the tiny game's System: tinygrid/system.py
    try:
        import tinygrid.system  # noqa: F401
    finally:
        sys.path.remove(str(HERE))
    assert run_cli("orders", TINY, "--count") == (0, "10\n", "")
    assert run_cli("orders", TINY, "--count", "--command", "1") == (0, "5\n", "")  # its engine reads it
    for option in (["--roll", "x"], ["--copies", "x"], ["--engine", "csp"]):
        assert run_cli("orders", TINY, "--count", *option) == (
            2, "", f"{option[0]} is for card-driven systems; Tiny Grid has no cards\n")


# ------------------------------------------------------------------ --command: a scenario's range


def test_command_is_in_the_range_of_a_scenarios_command():
    from warcouncil.world.schema import MAX_COMMAND
    from warcouncil.kernel.scenario import SIDE_FIELDS

    assert SIDE_FIELDS["command"].schema == {"type": "integer", "minimum": 1, "maximum": MAX_COMMAND}
    for bad in (0, MAX_COMMAND + 1):
        code, out, err = run_cli("orders", "akragas", "--card", "Line Command", "--command", bad)
        assert (code, out) == (2, "")
        assert f"Invalid value for '--command': {bad} is not in the range 1<=x<={MAX_COMMAND}." in err
    assert run_cli("orders", "akragas", "--card", "Order Two Units Left", "--count", "--command", MAX_COMMAND) == \
        (0, "11\n", "")
    # a card rolling that many dice asks for the roll instead of listing every one
    code, out, err = run_cli("orders", "akragas", "--card", "I Am Spartacus", "--command", MAX_COMMAND)
    assert (code, out) == (2, "")
    assert err == f"I Am Spartacus rolls {MAX_COMMAND} dice here: every roll is answered for at most 12 dice\n" \
                  "hint: give the roll with --roll\n"
