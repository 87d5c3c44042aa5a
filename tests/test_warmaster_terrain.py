"""Warmaster: units' moves against terrain (reference §9, "Movement at a
Glance": "infantry may enter any terrain. Cavalry and monsters are limited
to hills, bridges, shallow fordable rivers and low obstacles. Chariots,
artillery and most machines are limited to hills and bridges.")."""

from __future__ import annotations

import pytest

from test_warmaster_check import O, broken, check
from warmaster_util import char, house, scenario, turn, unit

# Terrain pieces in a row, each 20 x 10 cm (y 57..67), 4 cm north of the
# units standing at y = 52 (footprints y 51..53): a unit moving 8 cm north
# (within every troop type's pace) ends inside the piece in front of it.
KINDS = ["wood", "hill", "ford", "low_obstacle", "bridge", "marsh", "lake"]
TERRAIN = [{"type": k, "polygon": [[10 + 30 * i, 57], [30 + 30 * i, 57], [30 + 30 * i, 67], [10 + 30 * i, 67]],
            **({"dense": True} if k == "wood" else {}), **({"impassable": True} if k == "lake" else {})}
           for i, k in enumerate(KINDS)]
TYPES = ["infantry", "cavalry", "monsters", "chariots", "artillery", "flying"]
RULE = "wm.unit-terrain"


def _into(tmp_path, type_, kind, *rules, start_in=False):
    """One unit of ``type_`` ordered 12 cm north into the ``kind`` piece
    (``start_in``: it stands inside it already and moves within it)."""
    x = 20 + 30 * KINDS.index(kind)
    y = 60 if start_in else 52
    # (a flyer is ordered only from within 20 cm: the General stands by the unit)
    sc = scenario(tmp_path, [unit("u", "red", (x, y), type=type_, stands=1 if start_in else 3),
                             unit("far", "blue", (230, 110), facing=180)],
                  [char("gen", "red", "general", 9, (x, y - 10))], TERRAIN, width=240)
    return check(sc, turn(tmp_path, orders=[O("gen", "u", 2, [[x, y + (4 if start_in else 8)]])]), *rules)


#: reference §9: which troop type may enter which terrain (a lake is impassable to all)
OPEN = {"infantry": set(KINDS) - {"lake"}, "flying": set(KINDS) - {"lake"},
        "cavalry": {"hill", "ford", "low_obstacle", "bridge"}, "monsters": {"hill", "ford", "low_obstacle", "bridge"},
        "chariots": {"hill", "bridge"}, "artillery": {"hill", "bridge"}}


@pytest.mark.parametrize("type_", TYPES)
@pytest.mark.parametrize("kind", KINDS)
def test_each_troop_type_enters_only_its_terrain(tmp_path, type_, kind):
    data = _into(tmp_path, type_, kind)
    assert (RULE in broken(data)) == (kind not in OPEN[type_]), data
    # the move breaks no other rule (pace, range, ...): the terrain alone decides
    assert broken(data) <= {RULE}


def test_the_violation_cites_the_reference(tmp_path):
    v = next(v for v in _into(tmp_path, "cavalry", "wood")["violations"] if v["rule"] == RULE)
    assert v["pieces"] == ["gen", "u"] and "may not enter" in v["message"]
    assert "Cavalry and monsters are limited to hills, bridges" in v["quote"]


def test_a_unit_already_in_terrain_may_move_within_it(tmp_path):
    assert RULE not in broken(_into(tmp_path, "cavalry", "wood", start_in=True))


def test_removing_the_rule_lets_cavalry_into_a_wood(tmp_path):
    assert RULE in broken(_into(tmp_path, "cavalry", "wood"))
    data = _into(tmp_path, "cavalry", "wood", house(tmp_path, f"remove rule {RULE}\n"))
    assert data["legal"] and RULE not in broken(data)


@pytest.mark.parametrize("did, body, type_, kind", [
    ("wm.terrain.cavalry-monsters", "cavalry_may_enter(k) := true", "cavalry", "wood"),
    ("wm.terrain.chariots-artillery", "chariots_may_enter(k) := k == hill or k == bridge or k == ford",
     "artillery", "ford"),
    ("wm.terrain.infantry", "infantry_may_enter(k) := k != ford", "infantry", "ford"),
    ("wm.default.flyers-terrain", "flyers_may_enter(k) := k == hill", "flying", "wood"),
])
def test_each_troop_types_terrain_is_its_own_define(tmp_path, did, body, type_, kind):
    before = RULE in broken(_into(tmp_path, type_, kind))
    after = RULE in broken(_into(tmp_path, type_, kind, house(tmp_path, f"replace define {did}\n    {body}\n")))
    assert before != after
