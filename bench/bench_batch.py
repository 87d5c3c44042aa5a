"""`warcouncil batch`: one worker against two (and a local Ray), whole
processes, on the same jobs file.

    python bench/bench_batch.py                 # 5 rounds, 369 jobs
    python bench/bench_batch.py --rounds 9 --repeat 2
    python bench/bench_batch.py --ray           # also --ray local (needs warcouncil[ray])
    python bench/bench_batch.py --jobs-file my.jsonl

A script, not a test: it prints a Markdown table (seconds, medians of
rounds; each round runs every row once, in turn, order alternating) and
the speed-up of each row over one worker. It stops if the rows' answers
differ. The target of issue 15 is >= 1.8x with 2 workers on the 2-core
machine: that needs the machine otherwise idle (compare the load average
printed with the result). On Linux it also counts, for every run, the CPU
the rest of the machine used meanwhile (/proc/stat less the run's own), and
prints a second table over the quiet rounds only: those in which that was
under a tenth of a core during each row's run.

The jobs (Akragas, both sides): every card of the deck `orders --count`;
for each unit that the card can order, `moves` of that unit alone; and the
two turn files of tests/data/cli. With 2 workers the batch process reads
the first jobs' rule pack before it forks the workers, which share it (a
worker keeps a pack's plan for all its jobs and compiles the rules its jobs
use); the batch's own start (interpreter, imports, the pack: ~0.1 s of
CPU) is in every row, the workers' (the forks, their pipes) only in the
rows with workers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUIET = 0.1  # a quiet round: the rest of the machine used less than this much of a core during each run
SCENARIO = ROOT / "warcouncil" / "examples" / "cca" / "akragas.yaml"
TURNS = [ROOT / "tests" / "data" / "cli" / "legal_turn.yaml", ROOT / "tests" / "data" / "cli" / "illegal_turn.yaml"]


def make_jobs(repeat: int) -> list[dict]:
    sys.path.insert(0, str(ROOT))
    from warcouncil.kernel.engine import Engine

    eng = Engine.load(SCENARIO)
    jobs = []
    for side in eng.scenario.sides:
        for card, decl in eng.pack.cards.items():
            if decl.get("roll") is not None or decl.get("copy") is not None:
                continue
            jobs.append({"verb": "orders", "args": {"card": card, "side": side, "count": True}})
            g = eng.ground(card, side=side)
            seen = set()
            for s in eng.order_sets(g, 40):
                for pid in eng.order_set_json(g, s)["units"]:
                    if pid not in seen:
                        seen.add(pid)
                        jobs.append({"verb": "moves", "args": {"card": card, "side": side, "order": [pid]}})
    jobs += [{"turn": str(t)} for t in TURNS]
    for j in jobs:
        j["scenario"] = str(SCENARIO)
    return jobs * repeat


# Runs `warcouncil batch` and, as it exits, writes the CPU seconds of the batch process itself (its
# own start, reading the jobs, sending them, printing the answers: what no worker does) to stderr.
WRAP = """
import resource, sys
from warcouncil.cli import main
try:
    main(sys.argv[1:], prog_name="warcouncil")
finally:
    r = resource.getrusage(resource.RUSAGE_SELF)
    sys.stderr.write("\\nbatch-process-cpu %f\\n" % (r.ru_utime + r.ru_stime))
"""


def machine_busy() -> float | None:
    """CPU seconds the whole machine has been busy (Linux /proc/stat: all but idle and iowait)."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            v = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(v) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")


def run(cmd, env, cwd) -> tuple[float, bytes, float, float, float | None]:
    """(wall seconds, stdout, CPU seconds of the batch and its workers, of the batch process alone,
    the cores the rest of the machine used meanwhile)."""
    import resource

    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    b0 = machine_busy()
    t0 = time.perf_counter()
    # not from a checkout's folder: `python -m` would import the warcouncil found there first
    done = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    t = time.perf_counter() - t0
    b1 = machine_busy()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    own = float(done.stderr.decode().rsplit("batch-process-cpu ", 1)[1].split()[0])
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    others = None if b0 is None or b1 is None else max(0.0, (b1 - b0) - cpu) / t
    return t, done.stdout, cpu, own, others


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=1, help="the job list this many times over")
    ap.add_argument("--ray", action="store_true", help="also run with --ray local")
    ap.add_argument("--jobs-file", help="time this jobs file instead")
    ap.add_argument("--json", metavar="FILE", help="also write the rows (seconds) to FILE")
    ap.add_argument("--compare", metavar="DIR", help="also run the warcouncil of this checkout (PYTHONPATH=DIR)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="wc-batch-") as tmp:
        work = Path(tmp)
        if args.jobs_file:
            jobs_path = Path(args.jobs_file).resolve()
            n = sum(1 for line in jobs_path.read_text(encoding="utf-8").splitlines() if line.strip())
        else:
            jobs = make_jobs(args.repeat)
            jobs_path = work / "jobs.jsonl"
            jobs_path.write_text("".join(json.dumps(j) + "\n" for j in jobs), encoding="utf-8")
            n = len(jobs)
        (work / "cache").mkdir()
        env = dict(os.environ, WARCOUNCIL_CACHE_DIR=str(work / "cache"), PYTHONPYCACHEPREFIX=str(work / "pyc"))
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # byte code as an installed package has it (bench_startup.py)
        # the jobs' own relative paths are relative to the current folder; the generated jobs' are absolute,
        # and they run from a temporary folder (`python -m` imports a checkout in the current folder first)
        cwd = os.getcwd() if args.jobs_file else str(work)
        base = [sys.executable, "-c", WRAP, "batch", str(jobs_path)]
        rows = {"1 worker": (base + ["--jobs", "1"], env), "2 workers": (base + ["--jobs", "2"], env)}
        if args.ray:
            rows["ray local"] = (base + ["--ray", "local"], env)
        if args.compare:
            other = dict(env, PYTHONPATH=str(Path(args.compare).resolve()))
            rows[f"1 worker ({args.compare})"] = (base + ["--jobs", "1"], other)
            rows[f"2 workers ({args.compare})"] = (base + ["--jobs", "2"], other)
        answers = {}
        for name, (cmd, e) in rows.items():  # warm: byte code, the rule cache; and the answers to compare
            answers[name] = run(cmd, e, cwd)[1]
        first = next(iter(answers.values()))
        for name, out in answers.items():
            if out != first:
                raise SystemExit(f"{name}: the answers differ from one worker's")
        times: dict[str, list[float]] = {name: [] for name in rows}
        cpu: dict[str, list[float]] = {name: [] for name in rows}
        own: dict[str, list[float]] = {name: [] for name in rows}
        others: dict[str, list[float | None]] = {name: [] for name in rows}
        items = list(rows.items())
        load = [os.getloadavg()[0]]
        for r in range(args.rounds):
            for name, (cmd, e) in items if r % 2 == 0 else items[::-1]:
                t, _, c, o, x = run(cmd, e, cwd)
                times[name].append(t)
                cpu[name].append(c)
                own[name].append(o)
                others[name].append(x)
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
        load.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    mcpu = {k: statistics.median(v) for k, v in cpu.items()}
    mown = {k: statistics.median(v) for k, v in own.items()}
    one = med["1 worker"]
    print(f"{n} jobs; Python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.rounds} rounds "
          f"(medians; load average {load[0]:.2f} at the start, {load[1]:.2f} at the end)\n")
    print("| run | median s | min s | ms per job | speed-up over 1 worker (medians) | CPU s, all | CPU s, "
          "batch process | on 2 idle cores (model) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, v in times.items():
        model = "-"
        if name.startswith("2 workers"):
            # the batch process's own CPU as serial time, the workers' CPU shared by the two cores
            single = mcpu[name.replace("2 workers", "1 worker")]
            model = f"{single / (mown[name] + (mcpu[name] - mown[name]) / 2):.2f}×"
        ref = med[name.replace("2 workers", "1 worker")] if name.startswith("2 workers") else one
        print(f"| {name} | {med[name]:.2f} | {min(v):.2f} | {1000 * med[name] / n:.1f} | {ref / med[name]:.2f}× "
              f"| {mcpu[name]:.2f} | {mown[name]:.2f} | {model} |")
    print("\nWall times need the machine to itself: with other processes running, the scheduler's share of a"
          "\nsession (Linux autogroups) or of a process moves the speed-up either way. The CPU seconds are"
          "\nsteadier: the model takes one worker's CPU seconds over the batch process's own (its start,"
          "\nreading, sending and printing: serial) plus half the workers' (two cores), the speed-up two"
          "\nidle cores would give if the work divides evenly.")
    # the rounds in which, during every row's run, the rest of the machine used less than QUIET of a core
    quiet = [r for r in range(args.rounds)
             if all(others[k][r] is not None and others[k][r] < QUIET for k in times)]
    print(f"\nQuiet rounds (the rest of the machine under {QUIET} of a core during each run): "
          f"{len(quiet)} of {args.rounds}.")
    if quiet:
        qmed = {k: statistics.median(v[r] for r in quiet) for k, v in times.items()}
        print("\n| run (quiet rounds) | median s | speed-up over 1 worker (medians) | median of the rounds' speed-ups |")
        print("|---|---:|---:|---:|")
        for name, v in times.items():
            ref = name.replace("2 workers", "1 worker") if name.startswith("2 workers") else "1 worker"
            paired = statistics.median(times[ref][r] / v[r] for r in quiet)
            print(f"| {name} | {qmed[name]:.2f} | {qmed[ref] / qmed[name]:.2f}× | {paired:.2f}× |")
    if args.json:
        Path(args.json).write_text(json.dumps({"jobs": n, "times": times, "cpu": cpu, "own": own,
                                               "others": others}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
