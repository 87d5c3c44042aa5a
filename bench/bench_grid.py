#!/usr/bin/env python
"""Benchmark: square-grid ancients against a hand-written baseline.

    python bench/bench_grid.py            # a few seconds

On a 24-unit battle (12 units a side, two lines each, open ground) this
times, in one process,

  (a) warcouncil: ``eng.legal_activations()`` for every unit of both sides,
      and ``eng.odds({"test": "combat", ...})`` for every pair of enemy units
      in contact, front to front;
  (b) a hand-written baseline of the same semantics (this file, knowing the
      sheet: Immobile, Ranged Attack and a target two squares ahead, Reform
      only when Disordered, Combat with an enemy in a front square; the
      Combat Rating with support, Warband support and halving; the dice,
      the chooser, the outcome table and the Defence die),

asserts that both give the same answers, and prints the ratio (a) / (b).
Timing: ``time.perf_counter``, best of 5 runs, the garbage collector off.
"""

from __future__ import annotations

import atexit
import gc
import shutil
import sys
import tempfile
import time
from fractions import Fraction
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gridkit import engine, scenario, unit  # noqa: E402

OPTIONS = ("move", "combat", "charge", "shoot", "reform")


def board():
    units = []
    for i in range(12):
        chars = ["drilled"] if i % 3 == 0 else ["ranged_attack"] if i % 3 == 1 else []
        if i == 5:
            chars = ["immobile"]
        units.append(unit(f"r{i:02}", "red", (2 * (i % 6), 6 + i // 6), "north", combat=3 + i % 2, ranged=2,
                          characteristics=chars, disordered=i % 4 == 3))
        units.append(unit(f"b{i:02}", "blue", (2 * (i % 6) + 1, 5 - i // 6), "south", combat=3,
                          characteristics=["warband"]))
    folder = tempfile.mkdtemp(prefix="wc-grid-")
    atexit.register(shutil.rmtree, folder, True)  # the files live as long as the run
    return scenario(Path(folder), units, width=12, depth=10)


# ---------------------------------------------------------------- the baseline

AHEAD = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
RIGHT = {"north": (1, 0), "east": (0, 1), "south": (-1, 0), "west": (0, -1)}


def squares(u):
    (c, r), (rc, rr) = u["at"], RIGHT[u["facing"]]
    return {(c, r), (c + rc, r + rr)}


def front(u):
    ac, ar = AHEAD[u["facing"]]
    return {(c + ac, r + ar) for c, r in squares(u)}


def rear(u):
    ac, ar = AHEAD[u["facing"]]
    return {(c - ac, r - ar) for c, r in squares(u)}


def flanks(u):
    (c, r), (rc, rr) = u["at"], RIGHT[u["facing"]]
    return {(c - rc, r - rr), (c + 2 * rc, r + 2 * rr)}


def gap(a, b):
    return min(abs(x[0] - y[0]) + abs(x[1] - y[1]) for x in squares(a) for y in squares(b))


def zoc(u):
    return front(u)  # every unit here is formed


def baseline_activations(units, side):
    out = {}
    enemies = [e for e in units if e["side"] != side]
    for u in units:
        if u["side"] != side:
            continue
        ch = set(u.get("characteristics", ()))
        ok = set()
        if "immobile" not in ch:
            ok |= {"move", "charge"}
        if any(front(u) & squares(e) for e in enemies):
            ok.add("combat")
        if "ranged_attack" in ch and any(gap(u, e) <= 2 and any(_ahead(u, q) for q in squares(e)) for e in enemies):
            ok.add("shoot")
        if u.get("disordered"):
            ok.add("reform")
        out[u["id"]] = ok
    return out


def _ahead(u, q):
    (c, r), (ac, ar), (rc, rr) = u["at"], AHEAD[u["facing"]], RIGHT[u["facing"]]
    dc, dr = q[0] - c, q[1] - r
    return 0 <= dc * rc + dr * rr < 2 and dc * ac + dr * ar > 0


def baseline_cr(u, foe, units, attacking):
    def in_zoc(f):
        return any(squares(f) & zoc(e) for e in units if e["side"] != f["side"])
    friends = [f for f in units if f["side"] == u["side"] and f is not u]
    cr = u["combat"] + sum(1 for f in friends if gap(f, u) == 1 and not in_zoc(f))
    if "warband" in u.get("characteristics", ()) and any(
            "warband" in f.get("characteristics", ()) and squares(f) == rear(u) and f["facing"] == u["facing"]
            and not in_zoc(f) for f in friends):
        cr += 1
    if squares(foe) & (flanks(u) | rear(u)) and not squares(foe) & front(u):
        cr //= 2
    if u.get("disordered"):
        cr //= 2
    return cr


RESULT = {1: "repulsed", 2: "grind", 3: "stand", 4: "push_back", 5: "advance", 6: "crunch"}


def baseline_combat(att, dfn, units):
    a, d = baseline_cr(att, dfn, units, True), baseline_cr(dfn, att, units, False)
    n = 1 if a == d else 3 if max(a, d) >= 2 * min(a, d) else 2
    out: dict = {}
    for roll in product(range(1, 7), repeat=n):
        face = max(roll) if a >= d else min(roll)
        p = Fraction(1, 6 ** n)
        out["cancelled"] = out.get("cancelled", 0) + p / 6
        out[RESULT[face]] = out.get(RESULT[face], 0) + p * 5 / 6
    return out


# ---------------------------------------------------------------- timing

def best(fn, runs=5):
    times = []
    for _ in range(runs):
        gc.disable()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        gc.enable()
    return min(times)


def main() -> int:
    import yaml

    path = board()
    raw = yaml.safe_load(path.read_text())["units"]
    for u in raw:
        u["at"] = tuple(u["at"])
    eng = engine(path)
    s = eng.setting()
    pairs = [(a["id"], b["id"]) for a in raw for b in raw
             if a["side"] != b["side"] and front(a) & squares(b) and front(b) & squares(a)]
    by_id = {u["id"]: u for u in raw}

    def ours():
        got = {}
        for side in ("red", "blue"):
            for uid, opts in eng.legal_activations(side).items():
                got[uid] = {o for o, vs in opts.items() if not vs}
        odds = {p: eng.odds({"test": "combat", "attacker": p[0], "defender": p[1]})[0] for p in pairs}
        return got, odds

    def theirs():
        got = {}
        for side in ("red", "blue"):
            got.update(baseline_activations(raw, side))
        odds = {p: baseline_combat(by_id[p[0]], by_id[p[1]], raw) for p in pairs}
        return got, odds

    a, b = ours(), theirs()
    assert a[0] == b[0], "activations differ"
    for p in pairs:
        assert {k: v for k, v in a[1][p].items()} == {k: v for k, v in b[1][p].items() if v}, p
    t_ours, t_base = best(ours), best(theirs)
    print("| query | warcouncil (ms) | baseline (ms) | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| 24 units' activations + combat odds of {len(pairs)} pairs | {t_ours * 1e3:.1f} | "
          f"{t_base * 1e3:.1f} | {t_ours / t_base:.1f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
