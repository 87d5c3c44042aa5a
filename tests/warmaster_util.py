"""Helpers for the Warmaster tests: hand-built tables written to disk and
loaded by the engine, turn and plan files, house layers."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import yaml

from warcouncil.kernel.engine import Engine

EXAMPLES = Path(__file__).resolve().parents[1] / "warcouncil" / "examples" / "warmaster"
RIDGEWAY = EXAMPLES / "ridgeway.yaml"
PLAN = EXAMPLES / "logs" / "plan.yaml"
TURN = EXAMPLES / "logs" / "turn.yaml"

_n = itertools.count()


def unit(id, side, at, type="infantry", **kw) -> dict:
    return {"id": id, "side": side, "type": type, "at": list(at), **kw}


def char(id, side, role, command, at, **kw) -> dict:
    return {"id": id, "side": side, "role": role, "command": command, "at": list(at), **kw}


def write(tmp: Path, data, stem="f", suffix=".yaml") -> Path:
    p = Path(tmp) / f"{stem}{next(_n)}{suffix}"
    p.write_text(data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def scenario(tmp, units, characters=(), terrain=(), width=200, depth=120, to_move="red", **extra) -> Path:
    data = {"system": "warmaster", "board": {"grid": "table", "width": width, "depth": depth},
            "to_move": to_move, "units": list(units), "characters": list(characters),
            "terrain": list(terrain), **extra}
    return write(tmp, data, "scenario")


def engine(tmp, *a, rules=(), **kw):
    return Engine.load(str(scenario(tmp, *a, **kw)), [str(r) for r in rules])


def house(tmp, text: str) -> Path:
    return write(tmp, text, "house", ".wc")


def turn(tmp, **entries) -> Path:
    return write(tmp, dict(entries), "turn")


def plan(tmp, steps) -> Path:
    return write(tmp, {"plan": list(steps)}, "plan")


def ahead(at, facing, d):
    """The point ``d`` cm ahead of ``at`` for a facing (degrees clockwise from north)."""
    r = math.radians(facing)
    return (at[0] + d * math.sin(r), at[1] + d * math.cos(r))


def right(at, facing, d):
    """The point ``d`` cm to the right of ``at`` as a piece facing ``facing`` sees it."""
    r = math.radians(facing)
    return (at[0] + d * math.cos(r), at[1] - d * math.sin(r))


def keeping(monkeypatch) -> None:
    """Each answer's caches kept (``eng.kept``, its ``AnswerCaches``) for the
    test to read: the engine drops them when the answer is done."""
    from warcouncil.systems.warmaster.engine import WarmasterEngine

    answer = WarmasterEngine._answer

    def keep(self, verb, **options):
        try:
            return answer(self, verb, **options)
        finally:  # (a copy of each field: the engine empties them when the answer is given)
            c = self.cache
            self.kept = type(c)(**{name: getattr(c, name).copy() for name in c.__slots__})
    monkeypatch.setattr(WarmasterEngine, "_answer", keep)


def checked(sc, t, *rules) -> tuple[int, dict]:
    """``warcouncil check SC T --json`` with house ``rules``: (its exit code,
    0 or 1 as the answer says, and the answer)."""
    import json

    from conftest import run_cli

    code, out, err = run_cli("check", sc, t, "--json", *[x for r in rules for x in ("--rules", r)])
    assert code in (0, 1), err
    data = json.loads(out)
    assert data["legal"] == (code == 0)
    return code, data
