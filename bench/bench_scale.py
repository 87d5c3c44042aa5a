"""Counting at scale: time and peak memory of whole `warcouncil` processes
on dense boards (issue 15, point 3).

    python bench/bench_scale.py                       # every row, this checkout
    python bench/bench_scale.py --only line           # rows whose name contains the text
    python bench/bench_scale.py --compare /work/main --timeout 120   # also that checkout, killed after 120 s
    python bench/bench_scale.py --json rows.json

A script, not a test: it prints a Markdown table. Each row is one process
(`python -m warcouncil.cli ...`); its peak memory is the process's maximum
resident set (``os.wait4``'s ``ru_maxrss``); a process still running after
``--timeout`` seconds is killed and reported so. ``--compare DIR`` runs the
same commands from DIR's sources (``PYTHONPATH=DIR``), e.g. the tree before
a change; ``--mem-limit GB`` (default 8) caps each process's address space,
so that a run that would take the machine's memory fails instead.

The boards (written to a temporary folder; ``--keep DIR`` keeps them):

* ``line N``: a hex board 2N/2+1 hexes wide, each side N foot units (heavy,
  medium and light infantry, auxilia, warriors in turn) in two solid rows
  along its edge; ``orders --card "Line Command" --count`` for the side
  to move. Every connected group of the rows is an order set: 14.9 million
  at 32 a side.
* ``ccm command 8``: the CCM board, the crown's five southern rows full
  (24 pieces in the center section); ``orders --card "Order Units Equal to
  Command Center" --command 8 --count`` (issue 26: a sum of binomials, the
  closed form once the Leaders card's rule is folded away for this card).
* ``mounted``: the shipped Akragas, ``turns --card "Order Mounted Troops"
  --side carthaginian --count`` (issue 26: 4.3 million positions).
* ``turns N``: a hex board 2N+1 hexes wide, sections in thirds of the
  width; each side N units (light and medium infantry, auxilia, medium and
  light cavalry in turn) in one row a hex apart, two rows in from its edge;
  ``turns --card "Order Three Units Center" --count``: the distinct end
  positions of every legal order set and its moves. (The issue measured
  "a 3-unit card, 80 units a side" on a board it does not describe; this
  is a board of that size and card, with room to move.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

TYPES = ["heavy_infantry", "medium_infantry", "light_infantry", "auxilia", "warrior"]

ROWS = [
    ("line 16", "line", 16), ("line 32", "line", 32), ("line 36", "line", 36), ("line 64", "line", 64),
    ("line 150", "line", 150),
    ("turns 10", "turns", 10), ("turns 20", "turns", 20), ("turns 40", "turns", 40), ("turns 80", "turns", 80),
    ("ccm command 8", "ccm", 8), ("mounted", "mounted", 0),
]


def dense(n: int, sections: bool) -> dict:
    """Each side n foot units in two solid rows along its own edge."""
    per_row = (n + 1) // 2
    width = per_row + 1
    units = []
    for side, rows, prefix in (("red", (8, 7), "r"), ("blue", (0, 1), "b")):
        k = 0
        for r in rows:
            for c in range(per_row):
                if k < n:
                    units.append({"id": f"{prefix}{k + 1}", "side": side, "type": TYPES[k % len(TYPES)], "at": [c, r]})
                    k += 1
    board = {"grid": "hex", "width": width, "depth": 9}
    if sections:
        third = width / 3
        cells = [(c, r) for r in range(9) for c in range(width if r % 2 == 0 else width - 1)]
        board["sections"] = {
            "left": [[c, r] for c, r in cells if c + (0.5 if r % 2 else 0) < third],
            "center": [[c, r] for c, r in cells if third <= c + (0.5 if r % 2 else 0) < 2 * third],
            "right": [[c, r] for c, r in cells if c + (0.5 if r % 2 else 0) >= 2 * third],
        }
    return {"system": "cca", "board": board,
            "sides": {"red": {"edge": "south", "command": 5}, "blue": {"edge": "north", "command": 5}},
            "to_move": "red", "units": units, "leaders": []}


def spread(n: int) -> dict:
    """Each side n units in one row, a hex apart, two rows in from its edge
    (foot and horse in turn): room to move, so a 3-unit card has many end
    positions. Sections in thirds of the width."""
    width = 2 * n + 1
    kinds = ["light_infantry", "medium_cavalry", "auxilia", "light_cavalry", "medium_infantry"]
    units = []
    for side, row, prefix in (("red", 6, "r"), ("blue", 2, "b")):
        for k in range(n):
            units.append({"id": f"{prefix}{k + 1}", "side": side, "type": kinds[k % len(kinds)], "at": [2 * k, row]})
    data = dense(0, True)
    cells = [(c, r) for r in range(9) for c in range(width if r % 2 == 0 else width - 1)]
    third = width / 3
    data["board"] = {"grid": "hex", "width": width, "depth": 9, "sections": {
        "left": [[c, r] for c, r in cells if c + (0.5 if r % 2 else 0) < third],
        "center": [[c, r] for c, r in cells if third <= c + (0.5 if r % 2 else 0) < 2 * third],
        "right": [[c, r] for c, r in cells if c + (0.5 if r % 2 else 0) >= 2 * third]}}
    data["units"] = units
    return data


def ccm_field() -> dict:
    """The CCM board with the crown's five southern rows full of units (24
    in the center section) and one leader attached in the center."""
    kinds = ["heavy_infantry", "medium_infantry", "light_bow_infantry", "auxilia", "medium_cavalry"]
    units = []
    for r in range(6, 11):
        for c in range(13 if r % 2 == 0 else 12):
            k = len(units) + 1
            units.append({"id": f"c{k}", "side": "crown", "type": kinds[k % 5], "at": [c, r]})
    units.append({"id": "b1", "side": "barons", "type": "warrior", "at": [3, 1]})
    return {"system": "ccm", "board": "ccm",
            "sides": {"crown": {"edge": "south", "command": 5}, "barons": {"edge": "north", "command": 4}},
            "to_move": "crown", "units": units, "leaders": [{"id": "king", "side": "crown", "at": [6, 9]}]}


def command(kind: str, path: Path, n: int = 0) -> list[str]:
    if kind == "line":
        return ["orders", str(path), "--card", "Line Command", "--count"]
    if kind == "ccm":
        return ["orders", str(path), "--card", "Order Units Equal to Command Center", "--command", str(n), "--count"]
    if kind == "mounted":
        return ["turns", "akragas", "--card", "Order Mounted Troops", "--side", "carthaginian", "--count"]
    return ["turns", str(path), "--card", "Order Three Units Center", "--count"]


def run(argv, env, timeout: float, mem_gb: float, cwd: str | None = None) -> dict:
    def limit():  # in the child: a run that would take the machine's memory fails instead
        cap = int(mem_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    t0 = time.perf_counter()
    # cwd: not a checkout (`python -m` puts the current folder first on the path, before PYTHONPATH)
    p = subprocess.Popen([sys.executable, "-m", "warcouncil.cli", *argv], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=limit, cwd=cwd or tempfile.gettempdir())
    killed = False
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - t0 > timeout:
            p.kill()  # this script's own child, by its id
            pid, status, usage = os.wait4(p.pid, 0)
            killed = True
            break
        time.sleep(0.02)
    seconds = time.perf_counter() - t0
    out = p.stdout.read().decode().strip()
    err = p.stderr.read().decode().strip()
    code = os.waitstatus_to_exitcode(status)
    return {"seconds": seconds, "peak_mb": usage.ru_maxrss / 1024, "killed": killed, "exit": code,
            "answer": out if code == 0 else None, "error": None if code == 0 or killed else err[-300:]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", help="rows whose name contains this text")
    ap.add_argument("--compare", metavar="DIR", help="also run from this checkout's sources")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--mem-limit", type=float, default=8, metavar="GB")
    ap.add_argument("--keep", metavar="DIR", help="write the boards here and keep them")
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()
    rows = [r for r in ROWS if not args.only or args.only in r[0]]
    tmp = tempfile.TemporaryDirectory(prefix="wc-scale-")
    where = Path(args.keep) if args.keep else Path(tmp.name)
    where.mkdir(parents=True, exist_ok=True)
    # byte code as an installed package has it: each tree's compiled once, before timing, even where
    # the environment sets PYTHONDONTWRITEBYTECODE (else every process compiles the sources again)
    env = dict(os.environ, WARCOUNCIL_CACHE_DIR=str(Path(tmp.name) / "cache"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    trees = [("this tree", env)]
    if args.compare:
        trees.append((args.compare, dict(env, PYTHONPATH=str(Path(args.compare).resolve()),
                                         WARCOUNCIL_CACHE_DIR=str(Path(tmp.name) / "cache-compare"))))
    for _, tenv in trees:
        where_is = "import os, warcouncil; print(os.path.dirname(warcouncil.__file__))"
        package = subprocess.run([sys.executable, "-c", where_is], env=tenv, capture_output=True, text=True,
                                 check=True, cwd=tmp.name).stdout.strip()
        subprocess.run([sys.executable, "-m", "compileall", "-q", package], env=tenv, check=True,
                       stdout=subprocess.DEVNULL)
    results = []
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} "
          f"at the start\n")
    print("| row | tree | answer | seconds | peak MB |")
    print("|---|---|---:|---:|---:|")
    for name, kind, n in rows:
        path = where / f"{kind}{n}.yaml"
        board = {"line": lambda: dense(n, False), "turns": lambda: spread(n), "ccm": ccm_field,
                 "mounted": lambda: None}[kind]()
        if board is not None:  # (mounted: the shipped Akragas)
            path.write_text(yaml.safe_dump(board, sort_keys=False), encoding="utf-8")
        for tree, tenv in trees:
            r = run(command(kind, path, n), tenv, args.timeout, args.mem_limit)
            r.update(row=name, tree=tree)
            results.append(r)
            answer = r["answer"] if r["answer"] is not None else (
                f"killed at {args.timeout:.0f} s" if r["killed"] else f"exit {r['exit']}")
            print(f"| {name} | {tree} | {answer} | {r['seconds']:.2f} | {r['peak_mb']:.0f} |", flush=True)
            if r["error"]:
                print(f"  {r['error']}", file=sys.stderr)
    if args.compare:
        for name, _, _ in rows:
            a = [r for r in results if r["row"] == name]
            if len(a) == 2 and a[0]["answer"] is not None and a[1]["answer"] is not None and a[0]["answer"] != a[1]["answer"]:
                raise SystemExit(f"{name}: the trees' answers differ: {a[0]['answer']} != {a[1]['answer']}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1), encoding="utf-8")
    tmp.cleanup()


if __name__ == "__main__":
    main()
