"""Warmaster `odds` for a plan of H Heroes, each ordering its own unit once.

    python bench/bench_heroes.py                 # H = 8, 12, 16, 20
    python bench/bench_heroes.py --heroes 8 12   # only these
    python bench/bench_heroes.py --write DIR     # also write each scenario and plan to DIR
    python bench/bench_heroes.py --stand         # the plan without `to` (no unit moves)

Issue 27 item 3. The table: H red infantry units in a line, 30 cm apart,
each with its own Hero (command 8) 10 cm behind it, a red General far
behind, and one blue unit and General at the far edge (out of every
penalty's reach). The plan: each Hero in turn orders its own unit 5 cm
forward. The Heroes are independent (a Hero's failure stops only him), so
the number of successful orders follows a Poisson-binomial distribution;
an engine that walks every branch of successes and failures walks 2^H.

The script builds the scenario and the plan, runs `odds` in-process (the engine
loaded once, as bench_warmaster.py does; each answer starts afresh) and prints, per H, the CPU seconds of
the best of ``--repeat`` queries and P(all).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import yaml

SPACING = 30  # cm between neighbouring units (and their Heroes)


def scenario(heroes: int) -> dict:
    """The table of ``heroes`` Heroes, each behind its own unit."""
    width = SPACING * heroes + 20
    units = [{"id": f"u{i}", "side": "red", "type": "infantry", "at": [20 + SPACING * i, 40]}
             for i in range(heroes)]
    units.append({"id": "b1", "side": "blue", "type": "infantry", "at": [20, 150], "facing": 180})
    characters = [{"id": f"h{i}", "side": "red", "role": "hero", "command": 8, "at": [20 + SPACING * i, 30]}
                  for i in range(heroes)]
    characters += [{"id": "gen", "side": "red", "role": "general", "command": 9, "at": [20, 10]},
                   {"id": "bgen", "side": "blue", "role": "general", "command": 9, "at": [40, 155]}]
    return {"name": f"heroes{heroes}", "system": "warmaster",
            "board": {"grid": "table", "width": width, "depth": 160},
            "sides": ["red", "blue"], "to_move": "red", "units": units, "characters": characters}


def plan(heroes: int, stand: bool = False) -> dict:
    """Each Hero orders its own unit once, 5 cm forward (``stand``: no
    ``to``, each unit judged where it stands)."""
    return {"plan": [{"by": f"h{i}", "units": [f"u{i}"]} if stand else
                     {"by": f"h{i}", "units": [f"u{i}"], "to": [[20 + SPACING * i, 45]]}
                     for i in range(heroes)]}


def write(heroes: int, folder: Path, stand: bool = False) -> tuple[Path, Path]:
    s, p = folder / f"heroes{heroes}.yaml", folder / f"heroes{heroes}-plan{'-stand' if stand else ''}.yaml"
    s.write_text(yaml.safe_dump(scenario(heroes), sort_keys=False))
    p.write_text(yaml.safe_dump(plan(heroes, stand), sort_keys=False))
    return s, p


def engine(scenario_path: Path):
    from warcouncil.kernel.engine import Engine  # noqa: PLC0415
    return Engine.load(str(scenario_path))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--heroes", type=int, nargs="+", default=[8, 12, 16, 20])
    ap.add_argument("--repeat", type=int, default=1, help="queries timed per H (the best is kept)")
    ap.add_argument("--stand", action="store_true", help="the plan without `to`: no unit moves")
    ap.add_argument("--write", metavar="DIR", help="also keep the scenarios and plans in DIR")
    args = ap.parse_args(argv)
    folder = Path(args.write or tempfile.mkdtemp(prefix="bench-heroes-"))
    folder.mkdir(parents=True, exist_ok=True)
    print("| Heroes | CPU s (best) | P(all) |")
    print("|---:|---:|---|")
    for h in args.heroes:
        s, p = write(h, folder, args.stand)
        eng, best, answer = engine(s), None, None
        for _ in range(args.repeat):
            t0 = time.process_time()
            answer = eng.answer("odds", path=str(p))
            t = time.process_time() - t0
            best = t if best is None else min(best, t)
        assert answer.exit_code == 0, answer.text
        print(f"| {h} | {best:.3f} | {answer.data['all']} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
