"""Generators and check agree: every order `orders` offers, rolled (with a
success and a move of up to its pace, all its units by the same step, or
with a failure), gives a log that `check` finds legal — unless the move
takes a unit into terrain its troop type may not enter (reference §9, worked
out here on its own), or ends it on top of another unit, which `check`
rejects by that rule (those rules) alone; and what it does not offer,
appended, is illegal."""

from __future__ import annotations

import math
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from test_warmaster_check import CHARS, TERRAIN, UNITS
from warcouncil.kernel.engine import Engine
from warmaster_util import RIDGEWAY, scenario

PACE = {"infantry": 20, "cavalry": 30, "chariots": 30, "artillery": 10, "monsters": 20, "flying": 100}
#: reference §9: the terrain types each troop type may enter (None: any)
OPEN = {"infantry": None, "flying": None, "cavalry": {"hill", "bridge", "ford", "low_obstacle"},
        "monsters": {"hill", "bridge", "ford", "low_obstacle"}, "chariots": {"hill", "bridge"},
        "artillery": {"hill", "bridge"}}


def _enters_closed_terrain(eng, log, units, to) -> bool:
    """Does a unit's move (the hull of its footprint where it stands and
    where it ends) sweep terrain it did not stand in and may not enter?"""
    import shapely

    from warcouncil.systems.warmaster import measure as T
    from warcouncil.systems.warmaster.scenario import Pose, footprint

    by_id = {p.id: p for p in eng.scenario.pieces}
    for u, xy in zip(units, to):
        pose = log.table.poses[u]
        start = footprint(by_id[u], pose).shape
        end = footprint(by_id[u], Pose(tuple(xy), pose.facing, pose.formation)).shape
        swept = shapely.union_all([start, end]).convex_hull
        allowed = OPEN[by_id[u].type]
        for ar in eng.scenario.terrain:
            if T.in_area(swept, ar, "any") and not T.in_area(start, ar, "any") and \
                    (ar.impassable or (allowed is not None and ar.type not in allowed)):
                return True
    return False


def _ends_on_a_unit(eng, log, units, to) -> bool:
    """Does a unit's move end it overlapping (more than touching) a unit
    the order does not move (the order's own units move alike)?"""
    from warcouncil.systems.warmaster import measure as T
    from warcouncil.systems.warmaster.scenario import Pose, footprint

    poses = log.table.poses
    others = [footprint(p, poses[p.id]) for p in eng.scenario.units if p.id not in units]
    by_id = {p.id: p for p in eng.scenario.pieces}
    for u, xy in zip(units, to):
        end = footprint(by_id[u], Pose(tuple(xy), poses[u].facing, poses[u].formation))
        if any(T.overlapping(end, f) for f in others):
            return True
    return False


def _write(path: Path, orders) -> str:
    path.write_text(yaml.safe_dump({"orders": orders}, sort_keys=False), encoding="utf-8")
    return str(path)


def _walk(eng, data, tmp_path):
    sc = eng.scenario
    types = {u.id: u.type for u in sc.units}
    orders: list[dict] = []
    path = Path(tmp_path) / "log.yaml"
    for n in range(data.draw(st.integers(1, 6), label="steps")):
        after = _write(path, orders) if orders else None
        ans = eng.answer("orders", side=None, after=after, limit=None, count_only=False)
        assert ans.exit_code == 0
        opts = ans.data["options"]
        if not opts:
            break
        o = data.draw(st.sampled_from(opts), label="option")
        entry = {"by": o["character"], "units": o["units"]}
        top = min(o["target"], 12)
        if top >= 2 and data.draw(st.booleans(), label="succeeds"):
            entry["roll"] = data.draw(st.integers(2, min(top, 11)), label="roll")
            step = min(PACE[types[u]] for u in o["units"])
            d = data.draw(st.floats(0, step), label="distance")
            a = data.draw(st.floats(0, 2 * math.pi), label="angle")
            dx, dy = d * math.cos(a) * 0.999, d * math.sin(a) * 0.999
            log = eng.read_log(_write(path, orders)) if orders else eng.start()
            entry["to"] = [[log.table.poses[u].at[0] + dx, log.table.poses[u].at[1] + dy] for u in o["units"]]
            closed = _enters_closed_terrain(eng, log, o["units"], entry["to"])
            onto = _ends_on_a_unit(eng, log, o["units"], entry["to"])
            if closed or onto:
                verdict = eng.answer("check", path=_write(path, orders + [entry]))
                want = {"wm.unit-terrain"} if closed else set()
                assert {v["rule"] for v in verdict.data["violations"]} == want | ({"wm.no-overlap"} if onto else set()), \
                    verdict.text
                del entry["to"]  # (given, the unit stays)
        else:
            entry["roll"] = data.draw(st.integers(max(top + 1, 2), 12), label="roll") if top < 12 else 12
            if top >= 12 and o["character"] == "gen":
                break  # a General's 12 never fails
        orders.append(entry)
        verdict = eng.answer("check", path=_write(path, orders))
        assert verdict.exit_code == 0, (orders, verdict.text)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_offered_orders_pass_check_on_ridgeway(tmp_path, data):
    _walk(Engine.load(str(RIDGEWAY)), data, tmp_path)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_offered_orders_pass_check_on_a_crowded_board(tmp_path, data):
    _walk(Engine.load(str(scenario(tmp_path, UNITS, CHARS, TERRAIN))), data, tmp_path)


def test_what_is_not_offered_is_illegal(tmp_path):
    """Every character with every unit or touching group of the side: it
    is offered exactly when the log with it appended passes check."""
    eng = Engine.load(str(RIDGEWAY))
    offered = {(o["character"], tuple(o["units"]))
               for o in eng.answer("orders", side=None, after=None, limit=None, count_only=False).data["options"]}
    from warcouncil.systems.warmaster.engine import brigades

    groups = brigades(eng.start().table, [u.id for u in eng.scenario.units if u.side == "red"])
    path = Path(tmp_path) / "one.yaml"
    for c in ("gen", "hero", "wiz"):
        for g in groups:
            legal = eng.answer("check", path=_write(path, [{"by": c, "units": list(g), "roll": 12}])).exit_code == 0
            assert legal == ((c, g) in offered), (c, g)
