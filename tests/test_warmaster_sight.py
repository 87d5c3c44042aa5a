"""Line of sight through dense terrain for "the closest visible enemy unit"
(seed 003 Initiative 1; the engine default `wm.default.sight-through-dense`),
and the snapshot at the start of the Command phase (reference §3, §11.5:
whether a unit may use initiative is judged on the positions then, while
each initiative move can open or block another unit's sight). Each with a
removal test."""

from __future__ import annotations

import json

from conftest import run_cli
from warmaster_util import char, house, scenario, turn, unit

GEN = [char("gen", "red", "general", 9, (50, 10))]
# u's footprint: x 44..56, y 39..41. x1 14 cm north behind a wood (the line
# runs 5 cm through it), x2 16 cm east in the open.
U, X1, X2 = unit("u", "red", (50, 40)), unit("x1", "blue", (50, 56), facing=180), unit("x2", "blue", (78, 40))
WOOD = {"type": "wood", "polygon": [[40, 45], [60, 45], [60, 50], [40, 50]], "dense": True}
ON_X1 = {"unit": "u", "action": "charge", "to": [50, 54]}
ON_X2 = {"unit": "u", "action": "charge", "to": [66, 40]}
SEE_ALL = "replace define wm.default.sight-through-dense\n    dense_sight := 1000\n"


def broken(sc, t, *rules) -> set[str]:
    args = ["check", sc, t, "--json"] + [x for r in rules for x in ("--rules", r)]
    code, out, err = run_cli(*args)
    assert code in (0, 1), err
    return {v["rule"] for v in json.loads(out)["violations"]}


def test_dense_terrain_hides_the_closer_enemy(tmp_path):
    sc = scenario(tmp_path, [U, X1, X2], GEN, [WOOD])
    assert broken(sc, turn(tmp_path, initiative=[ON_X2])) == set()
    assert broken(sc, turn(tmp_path, initiative=[ON_X1])) == {"wm.initiative-closest"}
    # the default replaced (sight through any wood): x1 is the closest visible enemy
    h = house(tmp_path, SEE_ALL)
    assert broken(sc, turn(tmp_path, initiative=[ON_X2]), h) == {"wm.initiative-closest"}
    assert broken(sc, turn(tmp_path, initiative=[ON_X1]), h) == set()
    # ... as without the wood, or with a wood that is not dense
    for terrain in ([], [dict(WOOD, dense=False)]):
        open_sc = scenario(tmp_path, [U, X1, X2], GEN, terrain)
        assert broken(open_sc, turn(tmp_path, initiative=[ON_X2])) == {"wm.initiative-closest"}


def test_a_unit_at_the_woods_edge_sees_out(tmp_path):
    """Up to 2 cm of the line within dense terrain: still seen."""
    edge = dict(WOOD, polygon=[[40, 54], [60, 54], [60, 60], [40, 60]])  # x1 stands in it, 1 cm from its edge
    sc = scenario(tmp_path, [U, X1, X2], GEN, [edge])
    assert broken(sc, turn(tmp_path, initiative=[ON_X1])) == set()
    deep = dict(WOOD, polygon=[[40, 44], [60, 44], [60, 60], [40, 60]])  # 11 cm of the line in the wood
    sc = scenario(tmp_path, [U, X1, X2], GEN, [deep])
    assert broken(sc, turn(tmp_path, initiative=[ON_X1])) == {"wm.initiative-closest"}


# The snapshot: a's footprint x 44..56, y 46..48 stands across b's line to x
# (b: y 39..41; x: y 55..57). a evades out of the way; b then sees x 14 cm
# off — but at the start of the phase b saw no enemy within 20 cm.
SNAP = [unit("b", "red", (50, 40)), unit("a", "red", (50, 47)), unit("x", "blue", (50, 56), facing=180)]
A_EVADES = {"unit": "a", "action": "evade", "to": [65, 40]}
B_CHARGES = {"unit": "b", "action": "charge", "to": [50, 54]}


def test_initiative_is_judged_on_the_positions_at_the_start(tmp_path):
    sc = scenario(tmp_path, SNAP, GEN)
    assert broken(sc, turn(tmp_path, initiative=[A_EVADES])) == set()
    t = turn(tmp_path, initiative=[A_EVADES, B_CHARGES])
    assert broken(sc, t) == {"wm.initiative-at-start"}
    assert broken(sc, t, house(tmp_path, "remove rule wm.initiative-at-start\n")) == set()


def test_the_target_is_judged_as_the_table_stands(tmp_path):
    """Which enemy is closest is judged when the unit moves: an earlier
    initiative move may have opened or blocked the line (reference §3)."""
    units = SNAP + [unit("y", "blue", (30, 56), facing=180)]  # b's footprint to y: 14.x cm, seen at the start
    sc = scenario(tmp_path, units, GEN)
    on_y = {"unit": "b", "action": "charge", "to": [36, 54]}
    assert broken(sc, turn(tmp_path, initiative=[on_y])) == set()
    # once a is out of the way, x (14 cm) is closer than y: charging y is no longer the closest
    assert broken(sc, turn(tmp_path, initiative=[A_EVADES, on_y])) == {"wm.initiative-closest"}


# The 20 cm of the snapshot itself (reference §3: "a visible enemy unit is
# within 20 cm at the start of the Command phase"). u: x 44..56, y 39..41;
# e1 22 cm north (y 63..65), seen; e2 15 cm east (x 71..83), hidden behind
# f, a column (x 61.5..65.5, y 37..43) 5.5 cm from u and from e2. f evades
# e2 (its closest, 5.5 cm; e1 is 20.7 cm off) 15 cm south, out of the line;
# u then charges e2, now its closest visible enemy (15 < 22 cm): a charge
# wm.initiative-closest allows. At the start u's closest visible enemy was
# e1, 22 cm off: more than 20, so u may not use initiative; at 25 cm it could.
BAND = [unit("u", "red", (50, 40)), unit("f", "red", (63.5, 40), formation="column"),
        unit("e1", "blue", (50, 64), facing=180), unit("e2", "blue", (77, 40))]
F_EVADES = {"unit": "f", "action": "evade", "to": [63.5, 25]}
U_CHARGES = {"unit": "u", "action": "charge", "to": [65, 40]}


def test_the_start_distance_is_20_cm(tmp_path):
    sc = scenario(tmp_path, BAND, GEN)
    assert broken(sc, turn(tmp_path, initiative=[F_EVADES])) == set()
    code, out, _ = run_cli("check", sc, turn(tmp_path, initiative=[F_EVADES, U_CHARGES]), "--json")
    assert code == 1
    assert [(v["rule"], v["pieces"], v["message"], v["measurements"]) for v in json.loads(out)["violations"]] == [
        ("wm.initiative-at-start", ["u"], "initiative charge of u: no visible enemy unit was within 20 cm of the "
         "unit at the start of the Command phase",
         ["the closest visible enemy of u is e1, 22 cm away", "u is 22 cm from e1"])]
    # only that distance decides: at 25 cm the same phase is legal
    at_25 = house(tmp_path, "replace define wm.initiative-eligible\n"
                  "    may_use_initiative(u) := closest_visible_enemy(at_start(u), dense_sight) != none\n"
                  "        and measured_gap(at_start(u), closest_visible_enemy(at_start(u), dense_sight)) <= 25\n")
    assert broken(sc, turn(tmp_path, initiative=[F_EVADES, U_CHARGES]), at_25) == set()
