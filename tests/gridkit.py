"""Helpers for the square-grid ancients tests (tests/test_grid_*.py): small
hand-built scenarios, house layers and turn files written to disk."""

from __future__ import annotations

from pathlib import Path

import yaml

from warcouncil.solver.engine import Engine

ALESIA = Path(__file__).resolve().parent.parent / "warcouncil" / "examples" / "grid-ancients" / "alesia.yaml"


def unit(uid, side, at, facing, type="formed_infantry", combat=3, manoeuvre=4, discipline=7, **kw) -> dict:
    d = {"id": uid, "side": side, "type": type, "at": list(at), "facing": facing, "combat": combat,
         "manoeuvre": manoeuvre, "discipline": discipline}
    d.update(kw)
    return d


def scenario(tmp_path: Path, units, *, terrain=(), generals=(), width=8, depth=6, to_move="red",
             red=None, blue=None, name="sc") -> Path:
    data = {
        "system": "grid-ancients",
        "board": {"grid": "square", "width": width, "depth": depth},
        "sides": {
            "red": red or {"command_points": {"attack": 2, "movement": 2, "defence": 1, "strategy": 1,
                                              "generalship": 1}, "fatigued": False, "break_point": 10},
            "blue": blue or {"command_points": {"attack": 2, "movement": 2, "defence": 1, "strategy": 1,
                                                "generalship": 1}, "fatigued": False, "break_point": 10},
        },
        "to_move": to_move,
        "units": list(units),
        "generals": list(generals),
        "terrain": [{"at": list(at), "type": t} for at, t in terrain],
    }
    p = tmp_path / f"{name}.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def engine(path, rules=()):
    return Engine.load(str(path), [str(r) for r in rules])


def house(tmp_path: Path, body: str, name="house") -> Path:
    """A house layer citing its own one-line document."""
    (tmp_path / f"{name}.txt").write_text("A house rule for the tests.\n", encoding="utf-8")
    p = tmp_path / f"{name}.wc"
    p.write_text(f'document {name} "{name}.txt"\n\n' + body, encoding="utf-8")
    return p


def write(tmp_path: Path, name: str, data) -> Path:
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p
