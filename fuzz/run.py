"""A fuzz campaign against the warcouncil command line (issue 12, point 5).

    python fuzz/run.py                      # 100,000 cases, seed 0
    python fuzz/run.py --cases 20000 --seed 7 --subprocess-every 25 --timeout 60
    python fuzz/run.py --replay fuzz/found/case-123.json

Each case is a generated rule file (grammar-aware, ``fuzz/gen.py``), a
scenario and a turn file (structure-aware YAML: the shipped Akragas with
values of every shape put in, keys dropped, anchors and aliases, deep
brackets, byte-level cuts) and an argument list over them. Cases run in this
process (fast) through ``warcouncil.cli.main`` with ``WARCOUNCIL_DEBUG=1`` so
an internal error is a traceback here; every ``--subprocess-every``-th case
also runs as its own process, where a signal (a crash of a C library) or a
hang shows. The verdict on a case is its exit code: 0, 1 and 2 are answers;
3 (an internal error), an exception, a signal or a time-out is a finding,
saved under ``fuzz/found/`` with its files and arguments to replay.

At the end: cases tried, the histogram of exit codes and findings, the time.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import io
import json
import os
import random
import signal
import resource
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from fuzz import gen  # noqa: E402


class Hang(BaseException):
    """A case over its time (raised by the alarm; no `except Exception` stops it)."""


def _alarm(signum, frame):
    raise Hang()


def write_case(c: dict, folder: Path) -> list[str]:
    """Write the case's files into ``folder``; its argument list with their paths."""
    paths = {"RULES": folder / "house.wc", "SCENARIO": folder / "scenario.yaml", "TURN": folder / "turn.yaml",
             "MISSING": folder / "missing.yaml", "SVG": folder / "out.svg"}
    paths["RULES"].write_text(c["rules"], encoding="utf-8", errors="surrogatepass")
    scen = c["scenario"]
    if scen is None:
        import warcouncil

        scen = (Path(warcouncil.__file__).parent / "examples" / "cca" / "akragas.yaml").read_text(encoding="utf-8")
    paths["SCENARIO"].write_text(scen, encoding="utf-8", errors="surrogatepass")
    paths["TURN"].write_text(c["turn"], encoding="utf-8", errors="surrogatepass")
    return [str(paths.get(a, a)) for a in c["argv"]]


def run_in_process(args: list[str], timeout: float) -> tuple[str, str]:
    """(outcome, detail): outcome "0".."3" (exit codes), "exception" or "hang"."""
    from warcouncil.cli import main

    out, err = io.StringIO(), io.StringIO()
    # the budget is CPU time, not the wall clock: on a loaded machine a case
    # may wait long for a core without working long (a hang works)
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, timeout)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main.main(args, prog_name="warcouncil", standalone_mode=True)
                code = 0
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except Hang:
        return "hang", f"over {timeout} CPU seconds in process"
    except RecursionError:
        return "exception", traceback.format_exc(limit=8)
    except Exception:
        return "exception", traceback.format_exc()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return str(code), err.getvalue()[-2000:]


WALL_FACTOR = 10  # a subprocess's wall-clock limit, in CPU budgets


def run_in_subprocess(args: list[str], timeout: float) -> tuple[str, str] | None:
    """As ``run_in_process``, in a process of its own; None for arguments no
    process can be given (a NUL byte)."""
    if any("\x00" in a for a in args):
        return None
    env = dict(os.environ, WARCOUNCIL_DEBUG="")

    def cpu_budget() -> None:  # in the child: SIGXCPU past `timeout` CPU seconds
        seconds = max(1, int(timeout))
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    try:  # the wall clock only catches a process that waits forever
        p = subprocess.run([sys.executable, "-m", "warcouncil.cli", *args], capture_output=True,
                           timeout=WALL_FACTOR * timeout, env=env, stdin=subprocess.DEVNULL, preexec_fn=cpu_budget)
    except subprocess.TimeoutExpired:
        return "hang", f"over {WALL_FACTOR * timeout} s (wall clock) in a subprocess"
    if p.returncode == -signal.SIGXCPU:
        return "hang", f"over {timeout} CPU seconds in a subprocess"
    if p.returncode < 0:
        return f"signal {-p.returncode}", p.stderr.decode("utf-8", "replace")[-2000:]
    return str(p.returncode), p.stderr.decode("utf-8", "replace")[-2000:]


FINDINGS = ("3", "exception", "hang")


def is_finding(outcome: str) -> bool:
    return outcome in FINDINGS or outcome.startswith("signal") or outcome not in ("0", "1", "2")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=100_000, help="cases to run (default 100,000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0, help="CPU seconds per case before it is a hang")
    ap.add_argument("--subprocess-every", type=int, default=50,
                    help="also run every N-th case as a process of its own (signals, hangs); 0: never")
    ap.add_argument("--only-subprocess", action="store_true", help="run every case as a process of its own")
    ap.add_argument("--found", default=str(HERE / "found"), help="where findings are saved")
    ap.add_argument("--replay", default=None, help="run one saved case and print its outcome")
    ap.add_argument("--report-every", type=int, default=1000)
    opts = ap.parse_args(argv)
    os.environ["WARCOUNCIL_DEBUG"] = "1"  # an internal error is a traceback here, not an exit 3
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))

    if opts.replay:
        c = json.loads(Path(opts.replay).read_text(encoding="utf-8"))
        with tempfile.TemporaryDirectory() as tmp:
            args = write_case(c, Path(tmp))
            print("warcouncil", " ".join(args))
            for how, run in (("in process", run_in_process), ("subprocess", run_in_subprocess)):
                outcome, detail = run(args, opts.timeout) or ("skipped", "a NUL byte in the arguments")
                print(f"{how}: {outcome}\n{detail}")
        return 0

    rng = random.Random(opts.seed)
    hist: collections.Counter = collections.Counter()
    findings = 0
    found = Path(opts.found)
    start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(opts.cases):
            c = gen.case(rng)
            args = write_case(c, folder)
            results = []
            if not opts.only_subprocess:
                results.append(run_in_process(args, opts.timeout))
            if opts.only_subprocess or (opts.subprocess_every and i % opts.subprocess_every == 0):
                results.append(run_in_subprocess(args, opts.timeout))
            for outcome, detail in filter(None, results):
                hist[outcome] += 1
                if is_finding(outcome):
                    findings += 1
                    found.mkdir(parents=True, exist_ok=True)
                    saved = dict(c, outcome=outcome, detail=detail, seed=opts.seed, index=i)
                    (found / f"case-{opts.seed}-{i}.json").write_text(json.dumps(saved, ensure_ascii=False, indent=1),
                                                                      encoding="utf-8")
                    first = detail.strip().splitlines()[-1:] if detail.strip() else [""]
                    print(f"finding #{findings} (case {i}): {outcome}: {first[0][:200]}", flush=True)
            if opts.report_every and (i + 1) % opts.report_every == 0:
                print(f"{i + 1} cases, {time.time() - start:.0f} s: {dict(sorted(hist.items()))}", flush=True)
    took = time.time() - start
    print(f"\ncases tried: {opts.cases:,} (seed {opts.seed}) in {took:.0f} s")
    print("outcomes (exit codes; in-process and subprocess runs):")
    for k, n in sorted(hist.items()):
        print(f"  {k:>10}: {n:,}")
    print(f"findings (exit 3, exceptions, signals, hangs): {findings}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
