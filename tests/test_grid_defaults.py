"""Square-grid ancients: the points the reference leaves open. Each is its
own `ga.default.*` define (rules/grid-ancients/90-defaults.wc), listed in
the pack header; for each, a hand-built case whose answer (odds, legal
activations or a checked sequence) changes when a house rule replaces it."""

from __future__ import annotations

import re

import pytest

from gridkit import assert_replacing_changes, check_answer, legal_answer, odds_answer, unit
from warcouncil.dsl.pack import PACKS_DIR, load_pack


def _defaults() -> set[str]:
    return {d.id for d in load_pack("grid-ancients").defines.values() if d.id.startswith("ga.default.")}


def test_every_default_is_listed_in_the_pack_header():
    header = (PACKS_DIR / "grid-ancients" / "00-pack.wc").read_text(encoding="utf-8")
    listed = set(re.findall(r"^#\s+(ga\.default\.[\w-]+)", header, re.M))
    assert listed == _defaults()


def _fight(**d):
    """a (north) attacks d (south) in front of it."""
    return [unit("a", "red", (2, 3), "north", combat=4), unit("d", "blue", (3, 2), "south", combat=3, **d)]


COMBAT = {"test": "combat", "attacker": "a", "defender": "d"}
SHOOT = {"test": "shooting", "shooter": "s", "target": "t"}


def _shooter(ranged=4, combat=3):
    return [unit("s", "red", (2, 4), "north", ranged=ranged, characteristics=["ranged_attack"]),
            unit("t", "blue", (3, 2), "south", combat=combat)]


def _drift():
    return [unit("a", "red", (2, 3), "north"), unit("e", "blue", (6, 0), "south")]


# each default: (its replacement, the case whose answer it changes)
CASES = {
    "ga.default.zoc": ("zoc(u) := {c in rear_squares(u) where formed(u)}",  # a is in e's front: -1 to Reform
                       odds_answer([unit("a", "red", (2, 3), "north", disordered=True), unit("e", "blue", (3, 2), "south")],
                             {"test": "reform", "unit": "a"})),
    "ga.default.forward-cost": ("forward_cost(u) := 2",
                                check_answer(_drift(), [{"unit": "a", "option": "move", "roll": 4,
                                                   "steps": ["forward", "forward"]}])),
    "ga.default.every-manoeuvre-tested": ("manoeuvre_step(u, s) := false",
                                          check_answer(_drift(), [{"unit": "a", "option": "move", "roll": 5,
                                                             "steps": ["drift_left"]}])),
    "ga.default.cavalry-rough": ("cavalry_rough_mod(u, rough) := if rough and mounted(u) then -1 else 0",
                                 odds_answer([unit("c", "red", (2, 2), "north", type="cavalry", manoeuvre=3)],
                                       {"test": "manoeuvre", "unit": "c", "rough": True})),
    "ga.default.forest-rough": ("rough_ground(t) := t == rough",
                                odds_answer([unit("a", "red", (2, 2), "north")], {"test": "manoeuvre", "unit": "a"},
                                      terrain=[((2, 2), "forest")])),
    "ga.default.in-rough": ("in_rough(u) := false",
                            odds_answer([unit("a", "red", (2, 2), "north")], {"test": "manoeuvre", "unit": "a"},
                                  terrain=[((3, 2), "rough")])),
    "ga.default.halving": ("halve(x, c) := x", odds_answer(_fight(disordered=True), COMBAT)),
    "ga.default.chooser": ("preference(r) := if r == repulsed then 6 else 1", odds_answer(_fight(), COMBAT)),
    "ga.default.shooting-preference": ("shooting_preference(r) := if r == no_effect then 6 else 1",
                                       odds_answer(_shooter(), SHOOT)),
    "ga.default.shooting-range": ("shooting_range(u) := 1",
                                  legal_answer(_shooter(), "s", "shoot")),
    "ga.default.shooting-below-one": ("below_one := short_of_ammunition", odds_answer(_shooter(ranged=2, combat=4), SHOOT)),
    "ga.default.reversal-ends-activations": ("reversal_ends_activations := false",
                                             check_answer(_fight(), [{"unit": "a", "option": "combat", "target": "d",
                                                                "dice": [1, 1], "defence": [5]},
                                                               {"unit": "a", "option": "combat"}])),
    "ga.default.movement-reroll": ("reroll_movement_when(r) := false",
                                   odds_answer(_fight(), {"test": "movement", "unit": "a", "reroll": True})),
    "ga.default.reform-only-disordered": ("reform_needs_disorder := false", legal_answer(_fight(), "a", "reform")),
    "ga.default.combat-to-front": ("combat_needs_front := false",
                                   legal_answer([unit("a", "red", (2, 3), "north"), unit("e", "blue", (4, 3), "north")],
                                          "a", "combat")),
    "ga.default.warband-closer": ("warband_already_close(u) := false",
                                  check_answer([unit("w", "red", (2, 3), "north", characteristics=["warband"]),
                                          unit("e", "blue", (4, 3), "north")],
                                         [{"unit": "w", "option": "move", "roll": 2, "steps": ["forward"]}])),
    "ga.default.support": ("supporters(u) := {f in friends_of(u) where false}",
                           odds_answer(_fight() + [unit("f", "red", (4, 3), "north")], COMBAT)),
    "ga.default.cover": ("in_cover(u) := false", odds_answer(_shooter(), SHOOT, terrain=[((3, 2), "forest")])),
    "ga.default.obstacle": ("across_obstacle(u, foe) := false",
                            odds_answer(_fight(), COMBAT, terrain=[((3, 2), "linear_obstacle")])),
}


def test_every_default_has_a_case():
    """The defines the aftermath asks (away-tie, victor, another-enemy,
    contact-first, worst-risk, moved-back-with) are replaced in tests/test_grid_aftermath.py,
    the pools at risk in tests/test_grid_wound.py; every other default here."""
    aftermath = {"ga.default.away-tie", "ga.default.victor", "ga.default.another-enemy",
                 "ga.default.contact-first", "ga.default.worst-risk", "ga.default.moved-back-with",
                 "ga.default.points-at-risk"}
    assert set(CASES) | aftermath == _defaults() and not set(CASES) & aftermath


@pytest.mark.parametrize("define", sorted(CASES))
def test_replacing_each_default_changes_the_answer(tmp_path, define):
    assert_replacing_changes(tmp_path, define, *CASES[define])
