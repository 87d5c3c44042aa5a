"""Whole-process start-up: warcouncil's command line against a bare Python
interpreter (and against Node running auto-cca, when Node and a checkout
are there).

    python bench/bench_startup.py                    # 15 rounds
    python bench/bench_startup.py --rounds 31
    python bench/bench_startup.py --compare /work/main   # also that checkout's warcouncil, same run
    python bench/bench_startup.py --auto-cca /tmp/auto-cca
    python bench/bench_startup.py --json rows.json

A script, not a test: it prints a Markdown table (seconds, medians of
rounds; ratios to the bare interpreter of the same run). Every round runs
each command once, in turn, so load from other processes falls on all rows
alike; compare ratios, not seconds.

Rows:

* ``python -c pass``: the interpreter alone (with ``site``);
* ``import warcouncil.cli``: the command line's imports;
* ``moves``: ``warcouncil moves akragas.yaml --card "Order Three Units
  Center" --order s1 --json`` with the cache of parsed rule files warm
  (the usual case: one parse per edit of a rule file);
* ``moves, no cache``: the same with ``WARCOUNCIL_CACHE=off`` (every rule
  file parsed: the first run after an edit);
* with ``--compare DIR``: the two ``moves`` rows run from DIR's sources
  (``PYTHONPATH=DIR``), e.g. the main branch before a change;
* ``node -e ""`` and ``node auto-cca round``: Node alone, and Node importing
  auto-cca, making the Akragas game and playing the first valid command
  until the side to move changes (one player's turn), when ``node`` is on
  the PATH and an auto-cca checkout is given (``--auto-cca DIR``, or
  ``$AUTO_CCA_DIR``; github.com/xpmatteo/auto-cca; its HEAD 034a741 is a
  work in progress whose ``validCommands`` throws: check out 05b2304).

Byte code: the environment this was written in sets
``PYTHONDONTWRITEBYTECODE=1``, so every Python process would compile
warcouncil's sources again (~0.1 s). An installed package has its ``.pyc``
files (pip writes them); the script therefore unsets the variable, points
``PYTHONPYCACHEPREFIX`` at a temporary folder and runs every command once
before timing. ``--as-is`` keeps the environment as it is. The cache of
parsed rule files goes to a temporary folder too (``WARCOUNCIL_CACHE_DIR``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "warcouncil" / "examples" / "cca" / "akragas.yaml"
MOVES = ["moves", str(SCENARIO), "--card", "Order Three Units Center", "--order", "s1", "--json"]

NODE_ROUND = """
import makeGame from "{src}/model/game.js";
import {{ AkragasScenario }} from "{src}/model/scenarios.js";
const game = makeGame(new AkragasScenario());
const side = game.currentSide;
let n = 0;
while (game.currentSide === side && n < 1000 && !game.isTerminal()) {{
    game.executeCommand(game.validCommands()[0]);
    n++;
}}
console.log(n);
"""


def rows(args, work: Path) -> list[tuple[str, list[str], dict]]:
    py = sys.executable
    env = dict(os.environ)
    if not args.as_is:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(work / "pyc")
    env["WARCOUNCIL_CACHE_DIR"] = str(work / "cache")
    env.pop("WARCOUNCIL_CACHE", None)
    off = dict(env, WARCOUNCIL_CACHE="off")
    out = [
        ("python -c pass", [py, "-c", "pass"], env),
        ("import warcouncil.cli", [py, "-c", "import warcouncil.cli"], env),
        ("moves", [py, "-m", "warcouncil.cli", *MOVES], env),
        ("moves, no cache", [py, "-m", "warcouncil.cli", *MOVES], off),
    ]
    if args.compare:
        other = str(Path(args.compare).resolve())
        cenv = dict(env, PYTHONPATH=other, WARCOUNCIL_CACHE_DIR=str(work / "cache-compare"))
        out += [
            (f"moves ({args.compare})", [py, "-m", "warcouncil.cli", *MOVES], cenv),
            (f"moves, no cache ({args.compare})", [py, "-m", "warcouncil.cli", *MOVES],
             dict(cenv, WARCOUNCIL_CACHE="off")),
        ]
    node = shutil.which("node")
    cca = args.auto_cca or os.environ.get("AUTO_CCA_DIR")
    if node is None:
        print("no node on the PATH: the Node rows are skipped", file=sys.stderr)
    elif not cca or not (Path(cca) / "src" / "model" / "game.js").is_file():
        print("no auto-cca checkout (--auto-cca DIR or $AUTO_CCA_DIR): the auto-cca row is skipped",
              file=sys.stderr)
        out.append(('node -e ""', [node, "-e", ""], env))
    else:
        script = work / "round.mjs"
        script.write_text(NODE_ROUND.format(src=(Path(cca).resolve() / "src").as_uri()), encoding="utf-8")
        out.append(('node -e ""', [node, "-e", ""], env))
        out.append(("node auto-cca round", [node, str(script)], env))
    return out


def run(cmd, env, cwd) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    import resource

    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # `moves` exits 1 when the order set is illegal (s1 is not in the center)
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return t, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--compare", metavar="DIR", help="also time the warcouncil of this checkout (PYTHONPATH=DIR)")
    ap.add_argument("--auto-cca", metavar="DIR", help="an auto-cca checkout, for the Node row")
    ap.add_argument("--as-is", action="store_true", help="keep PYTHONDONTWRITEBYTECODE and the .pyc location")
    ap.add_argument("--json", metavar="FILE", help="also write the rows (seconds) to FILE")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="wc-startup-") as tmp:
        work = Path(tmp)
        table = rows(args, work)
        for name, cmd, env in table:  # warm: byte code compiled, the rule cache filled, the page cache hot
            run(cmd, env, work)
            run(cmd, env, work)
        times: dict[str, list[float]] = {name: [] for name, _, _ in table}
        cpu: dict[str, list[float]] = {name: [] for name, _, _ in table}
        load = [os.getloadavg()[0]]
        for r in range(args.rounds):
            order = table if r % 2 == 0 else table[::-1]  # alternate, so no row always follows another
            for name, cmd, env in order:
                t, c = run(cmd, env, work)
                times[name].append(t)
                cpu[name].append(c)
            print(f"round {r + 1}/{args.rounds}", file=sys.stderr)
        load.append(os.getloadavg()[0])
    med = {k: statistics.median(v) for k, v in times.items()}
    mcpu = {k: statistics.median(v) for k, v in cpu.items()}
    bare, bare_cpu = med["python -c pass"], mcpu["python -c pass"]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {args.rounds} rounds "
          f"(medians; load average {load[0]:.2f} at the start, {load[1]:.2f} at the end)\n")
    print("| command | median s | min s | × bare python | CPU s | CPU × bare python |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, v in times.items():
        print(f"| {name} | {med[name]:.3f} | {min(v):.3f} | {med[name] / bare:.1f} "
              f"| {mcpu[name]:.3f} | {mcpu[name] / bare_cpu:.1f} |")
    print("\n(CPU: the process's user + system time, which waiting for a loaded machine's cores does not"
          "\ninflate as it does the wall time; the ratio of CPU times is the steadier one under load.)")
    if "node auto-cca round" in med:
        print(f"\nwarcouncil `moves` / Node auto-cca round: {med['moves'] / med['node auto-cca round']:.2f}"
              f" (CPU: {mcpu['moves'] / mcpu['node auto-cca round']:.2f})")
    if args.json:
        Path(args.json).write_text(json.dumps({"rounds": args.rounds, "times": times, "cpu": cpu}, indent=1),
                                   encoding="utf-8")


if __name__ == "__main__":
    main()
