"""Helpers for the square-grid ancients tests (tests/test_grid_*.py): small
hand-built scenarios, house layers and turn files written to disk."""

from __future__ import annotations

from pathlib import Path

import yaml

from warcouncil.kernel.engine import Engine

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


# Answers of a hand-built case, as functions of (tmp_path, house rule files):
# what the removal and default tests compare with and without a house rule.


def odds_answer(units, test, **kw):
    """The exact odds of ``test`` on the case: each outcome's probability as
    the contract writes it ("n/d"), and the roll's facts (ratings, dice, ...)."""
    def answer(tmp_path, rules):
        dist, extra = engine(scenario(tmp_path, units, **kw), rules).odds(test)
        return {k: str(p) for k, p in dist.items()}, extra
    return answer


def legal_answer(units, uid, option, **kw):
    """The rules that make ``option`` illegal for ``uid`` on the case."""
    def answer(tmp_path, rules):
        return [v.rule for v in engine(scenario(tmp_path, units, **kw), rules).legal_activations()[uid][option]]
    return answer


def check_answer(units, entries, *, log=False, **kw):
    """The rules a checked activation sequence breaks (with ``log``: and each
    entry's Reversal of Fortune and positions)."""
    def answer(tmp_path, rules):
        vs, entries_log = engine(scenario(tmp_path, units, **kw), rules).check({"activations": entries})
        rules_broken = [v.rule for v in vs]
        if not log:
            return rules_broken
        return rules_broken, [(e["reversal"], e.get("positions")) for e in entries_log]
    return answer


def assert_replacing_gives(tmp_path, define: str, body: str, answer, before, after) -> None:
    """``answer`` is exactly ``before`` with the pack as it is, and exactly
    ``after`` with a house rule replacing ``define`` by ``body`` (and the two
    differ): a wrong value in the define, not only its removal, is caught."""
    h = house(tmp_path, f'replace define {define}\n    from house "A house rule for the tests."\n    {body}\n')
    assert before != after, define
    assert (answer(tmp_path, ()), answer(tmp_path, [h])) == (before, after)
