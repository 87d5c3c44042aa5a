"""Square-grid ancients: every sentence of the sheet that a rule or define
cites has a test that fails when that rule is dropped. Rules are removed in
tests/test_grid_check.py, the aftermath's defines and the defaults replaced
in tests/test_grid_aftermath.py and tests/test_grid_defaults.py; the
tables, modifiers and tests of the other files are replaced here by a
neutral body (a constant, or the rule without its clause) on a hand-built
case whose answer — exact odds, legal activations or a checked sequence —
is pinned before and after (`gridkit.assert_replacing_gives`: a wrong value
in a define, not only the neutral one, fails). `test_every_cited_sentence_has_a_removal_test` keeps the
whole list honest: a sentence whose citing rules and defines are none of
them replaced or removed anywhere fails it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import test_grid_aftermath
import test_grid_check
import test_grid_defaults
from gridkit import assert_replacing_gives, check_answer, legal_answer, odds_answer, unit
from warcouncil.dsl.lint import coverage
from warcouncil.dsl.pack import load_pack


def _check(units, entries, **kw):
    """The rules broken, and each entry's Reversal of Fortune and positions."""
    return check_answer(units, entries, log=True, **kw)


def _fight(a=None, d=None):
    """a (north) attacks d (south) in front of it, 4 against 3."""
    return [unit("a", "red", (2, 3), "north", combat=4, **(a or {})),
            unit("d", "blue", (3, 2), "south", combat=3, **(d or {}))]


def _shooter(ranged=4, combat=3, s=None, t=None):
    return [unit("s", "red", (2, 4), "north", ranged=ranged, **{"characteristics": ["ranged_attack"], **(s or {})}),
            unit("t", "blue", (3, 2), "south", combat=combat, **(t or {}))]


def _alone(**kw):
    """a, and an enemy far away."""
    return [unit("a", "red", (2, 3), "north", **kw), unit("e", "blue", (6, 0), "south")]


def _fear(**kw):
    """a comes up to e, a Cause Fear unit: its first step forward enters e's zone of control."""
    return [unit("a", "red", (2, 4), "north"),
            unit("e", "blue", (3, 2), "south", characteristics=["cause_fear"], **kw)]


COMBAT = {"test": "combat", "attacker": "a", "defender": "d"}
CHARGE = {**COMBAT, "charge": True}
SHOOT = {"test": "shooting", "shooter": "s", "target": "t"}
UNIT = {"unit": "a"}
FIGHT = {"unit": "a", "option": "combat", "target": "d", "dice": [1, 1], "defence": [5]}

CASES = {
    # -- Reversal of Fortune
    "ga.reversal": ("reversal(a) := false", _check(_fight(), [FIGHT]),
                    ([], [(True, None)]),
                    ([], [(False, None)])),
    "ga.reversal-two-failures": ("rof_two_failures(a) := false",
                                 _check(_alone(), [{"unit": "a", "option": "move", "roll": 1}] * 2),
                                 ([], [(False, None), (True, None)]),
                                 ([], [(False, None), (False, None)])),
    "ga.reversal-manoeuvre": ("rof_manoeuvre(a) := false",
                              _check(_alone(), [{"unit": "a", "option": "move", "roll": 5,
                                                 "steps": [{"do": "drift_left", "test": 1}]}]),
                              ([], [(True, None)]),
                              ([], [(False, None)])),
    "ga.reversal-charge": ("rof_charge(a) := false", _check(_alone(), [{"unit": "a", "option": "charge", "roll": 4}]),
                           ([], [(True, None)]),
                           ([], [(False, None)])),
    "ga.reversal-combat": ("rof_combat(a) := false", _check(_fight(), [FIGHT]),
                           ([], [(True, None)]),
                           ([], [(False, None)])),
    "ga.reversal-ammunition": ("rof_ammunition(a) := false",
                               _check(_shooter(), [{"unit": "s", "option": "shoot", "target": "t", "dice": [1, 1],
                                                    "defence": [5]}]),
                               ([], [(True, None)]),
                               ([], [(False, None)])),
    "ga.reversal-homunculus": ("rof_homunculus(a) := false", _check(_fight(), [{"homunculus_est": {"points": 1}}]),
                               ([], [(True, None)]),
                               ([], [(False, None)])),
    # -- movement and manoeuvres
    "ga.charge-attack-points": ("charge_bonus(o, ap) := 0",
                                odds_answer(_alone(), {"test": "movement", "unit": "a", "attack_points": 1}),
                                ({"failed": "1/6", "1": "1/6", "2": "1/3", "3": "1/3"}, {}),
                                ({"failed": "1/6", "1": "1/3", "2": "1/3", "3": "1/6"}, {})),
    "ga.manoeuvre-test": ("manoeuvre_meets(n, m, mr) := false", odds_answer(_alone(), {"test": "manoeuvre", **UNIT}),
                          ({"pass": "1/2", "fail": "1/2"}, {"modifier": 0, "rerolls": 0}),
                          ({"pass": "1/6", "fail": "5/6"}, {"modifier": 0, "rerolls": 0})),
    "ga.manoeuvre-naturals": ("manoeuvre_passes(n, m, mr) := manoeuvre_meets(n, m, mr)",
                              odds_answer(_alone(manoeuvre=6), {"test": "manoeuvre", **UNIT, "manoeuvre": "about_face"}),
                              ({"pass": "1/6", "fail": "5/6"}, {"modifier": -1, "rerolls": 0}),
                              ({"fail": "1"}, {"modifier": -1, "rerolls": 0})),
    "ga.step-passed": ("step_passed(u, s) := true",
                       _check(_alone(), [{"unit": "a", "option": "move", "roll": 6,
                                          "steps": [{"do": "drift_left", "test": 1}, "forward"]}]),
                       (["ga.failed-manoeuvre-stops"],
                        [(True, {"a": {"at": [2, 2], "facing": "north", "disordered": False}})]),
                       ([], [(False, {"a": {"at": [1, 2], "facing": "north", "disordered": False}})])),
    "ga.skirmish-pass-through": ("may_pass(u, p) := false",
                                 _check([unit("a", "red", (2, 3), "north", type="infantry_skirmishers"),
                                         unit("f", "red", (2, 2), "north", characteristics=["drilled"]),
                                         unit("e", "blue", (6, 0), "south")],
                                        [{"unit": "a", "option": "move", "roll": 4, "steps": ["forward", "forward"]}]),
                                 ([], [(False, {"a": {"at": [2, 1], "facing": "north", "disordered": False}})]),
                                 (["ga.no-moving-through"],
                                  [(False, {"a": {"at": [2, 1], "facing": "north", "disordered": False}})])),
    "ga.cavalry-rules": ("mounted(u) := false",
                         odds_answer([unit("a", "red", (2, 2), "north", type="cavalry", manoeuvre=3)],
                               {"test": "manoeuvre", **UNIT, "rough": True}),
                         ({"pass": "1/3", "fail": "2/3"}, {"modifier": -2, "rerolls": 0}),
                         ({"pass": "1/2", "fail": "1/2"}, {"modifier": -1, "rerolls": 0})),
    "ga.skirmisher": ("skirmisher(u) := false",
                      odds_answer(_alone(type="infantry_skirmishers"), {"test": "push_back", **UNIT}),
                      ({"1": "1/6", "2": "1/2", "3": "1/3"}, {}),
                      ({"0": "1/6", "1": "1/2", "2": "1/3"}, {})),
    "ga.fear-zone": ("enters_fear(u, s) := false",
                     _check(_fear(), [{"unit": "a", "option": "move", "roll": 3, "steps": ["forward"]}]),
                     (["ga.cause-fear-test"],
                      [(False, {"a": {"at": [2, 3], "facing": "north", "disordered": False}})]),
                     ([], [(False, {"a": {"at": [2, 3], "facing": "north", "disordered": False}})])),
    "ga.fear-passed": ("fear_passed(u, s) := true",
                       _check(_fear(), [{"unit": "a", "option": "move", "roll": 3,
                                         "steps": [{"do": "forward", "fear": [1, 2]}]}]),
                       (["ga.cause-fear-test"], [(False, None)]),
                       ([], [(False, {"a": {"at": [2, 3], "facing": "north", "disordered": False}})])),
    "ga.can-shoot-at": ("can_shoot_at(u, e) := false", legal_answer(_shooter(), "s", "shoot"),
                        [],
                        ["ga.shoot-needs-target"]),
    # -- combat
    "ga.combat-rating": ("combat_rating(u, foe, attacking, charging) := 1", odds_answer(_fight(), COMBAT),
                         ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                           "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                          {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                         ({"cancelled": "1/6", "advance": "5/36", "crunch": "5/36", "grind": "5/36",
                           "push_back": "5/36", "repulsed": "5/36", "stand": "5/36"},
                          {"attacker_rating": 1, "defender_rating": 1, "dice": 1, "chooser": "attacker"})),
    "ga.cr-rough": ("base_cr(u) := rating(u, combat)", odds_answer(_fight(), COMBAT, terrain=[((2, 3), "rough")]),
                    ({"cancelled": "1/6", "advance": "5/72", "crunch": "5/216", "grind": "5/24",
                      "push_back": "25/216", "repulsed": "55/216", "stand": "35/216"},
                     {"attacker_rating": 2, "defender_rating": 3, "dice": 2, "chooser": "defender"}),
                    ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                      "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                     {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.combat-dice": ("combat_dice(a, d) := 1", odds_answer(_fight(), COMBAT),
                       ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                         "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                        {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                       ({"cancelled": "1/6", "advance": "5/36", "crunch": "5/36", "grind": "5/36",
                         "push_back": "5/36", "repulsed": "5/36", "stand": "5/36"},
                        {"attacker_rating": 4, "defender_rating": 3, "dice": 1, "chooser": "attacker"})),
    "ga.higher-chooses": ("attacker_chooses(a, d) := false", odds_answer(_fight(), COMBAT),
                          ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                            "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                           {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                          ({"cancelled": "1/6", "advance": "5/72", "crunch": "5/216", "grind": "5/24",
                            "push_back": "25/216", "repulsed": "55/216", "stand": "35/216"},
                           {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "defender"})),
    "ga.defence-die": ("defence_dice(def, r) := 0", odds_answer(_fight(), COMBAT),
                       ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                         "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                        {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                       ({"advance": "1/4", "crunch": "11/36", "grind": "1/12", "push_back": "7/36",
                         "repulsed": "1/36", "stand": "5/36"},
                        {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.combat-results": ("combat_result(face, att, def) := stand", odds_answer(_fight(), COMBAT),
                          ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                            "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                           {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                          ({"cancelled": "1/6", "stand": "5/6"},
                           {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.cr-elephant-line": ("elephant_line_bonus(u) := 0",
                            odds_answer(_fight(a={"attachments": ["elephant_line"]}), COMBAT),
                            ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                              "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                             {"attacker_rating": 6, "defender_rating": 3, "dice": 3, "chooser": "attacker"}),
                            ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                              "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                             {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.cr-ferocious-charge": ("ferocious(u, charging) := 0",
                               odds_answer(_fight(a={"characteristics": ["ferocious_charge"]}), CHARGE),
                               ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                                 "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                                {"attacker_rating": 5, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                               ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                                 "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                                {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    # cavalry a (4) attacks the Phalanx d (3 + 2 = 5) in its front: two dice, d (the higher) chooses the lowest
    # face, P(min = k) = (13 - 2k)/36, kept 5/6 (one Defence die): repulsed 55/216 ... crunch 5/216; without the
    # bonus 4 against 3, a chooses the highest: the same the other way round (by hand; +1 would give one die)
    "ga.cr-phalanx": ("phalanx_bonus(u, foe) := 0",
                      odds_answer(_fight(a={"type": "cavalry"}, d={"characteristics": ["phalanx"]}), COMBAT),
                      ({"cancelled": "1/6", "advance": "5/72", "crunch": "5/216", "grind": "5/24",
                        "push_back": "25/216", "repulsed": "55/216", "stand": "35/216"},
                       {"attacker_rating": 4, "defender_rating": 5, "dice": 2, "chooser": "defender"}),
                      ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                        "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                       {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    # d faces north; a stands on its rear squares, facing it: "Combat with enemy on Flank or Rear 1/2": 4 against
    # 2 is double, three dice, a takes the highest, P(max = k) = (k^3 - (k-1)^3)/216 = 1, 7, 19, 37, 61, 91 in
    # 216, kept 5/6; not halved, 4 against 4: one die, 5/36 each (by hand)
    "ga.cr-flank": ("flank_half(u, foe) := false",
                    odds_answer([unit("a", "red", (3, 3), "north", combat=4), unit("d", "blue", (3, 2), "north", combat=4)],
                                COMBAT),
                    ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                      "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                     {"attacker_rating": 4, "defender_rating": 2, "dice": 3, "chooser": "attacker"}),
                    ({"cancelled": "1/6", "advance": "5/36", "crunch": "5/36", "grind": "5/36", "push_back": "5/36",
                      "repulsed": "5/36", "stand": "5/36"},
                     {"attacker_rating": 4, "defender_rating": 4, "dice": 1, "chooser": "attacker"})),
    "ga.phalanx-grind": ("phalanx_grind(att, def, otherwise) := otherwise",
                         odds_answer(_fight(a={"characteristics": ["phalanx"]}), COMBAT),
                         ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "push_back": "5/18",
                           "repulsed": "5/216", "stand": "5/72"},
                          {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                         ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                           "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                          {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.phalanx-flank": ("phalanx_disordered(u, foe, attacking) := false",
                         odds_answer([unit("a", "red", (1, 2), "east", combat=4),
                                unit("d", "blue", (3, 2), "south", combat=4, characteristics=["phalanx"])], COMBAT),
                         ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                           "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                          {"attacker_rating": 4, "defender_rating": 1, "dice": 3, "chooser": "attacker"}),
                         ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                           "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                          {"attacker_rating": 4, "defender_rating": 2, "dice": 3, "chooser": "attacker"})),
    "ga.reserve-bonus": ("reserve_bonus(u, used) := 0",
                         odds_answer(_fight(a={"attachments": ["small_cavalry_reserve"]}), {**COMBAT, "reserve": True}),
                         ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                           "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                          {"attacker_rating": 5, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                         ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                           "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                          {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.devotio": ("devotio_bonus(u, used, charging) := 0",
                   odds_answer(_fight(a={"characteristics": ["legion"], "attachments": ["devotio"]}),
                         {**CHARGE, "devotio": True}),
                   ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                     "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                    {"attacker_rating": 6, "defender_rating": 3, "dice": 3, "chooser": "attacker"}),
                   ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                     "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                    {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.cr-warband-behind": ("warband_support(u) := 0",
                             odds_answer(_fight(a={"characteristics": ["warband"]})
                                   + [unit("w", "red", (2, 4), "north", characteristics=["warband"])], COMBAT),
                             ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                               "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                              {"attacker_rating": 6, "defender_rating": 3, "dice": 3, "chooser": "attacker"}),
                             ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                               "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                              {"attacker_rating": 5, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    # -- shooting
    "ga.shooting-dice": ("shooting_dice(a, d) := 1", odds_answer(_shooter(), SHOOT),
                         ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                           "short_of_ammunition": "5/216", "telling_shots": "5/24", "withering_shooting": "55/216"},
                          {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1}),
                         ({"cancelled": "1/6", "no_effect": "5/18", "push_back": "5/36",
                           "short_of_ammunition": "5/36", "telling_shots": "5/36", "withering_shooting": "5/36"},
                          {"shooter_rating": 4, "target_rating": 3, "dice": 1, "penalty": 0, "defence_dice": 1})),
    "ga.shooting-results": ("shooting_result(v, s, t) := no_effect", odds_answer(_shooter(), SHOOT),
                            ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                              "short_of_ammunition": "5/216", "telling_shots": "5/24",
                              "withering_shooting": "55/216"},
                             {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1}),
                            ({"cancelled": "1/6", "no_effect": "5/6"},
                             {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1})),
    "ga.target-rating": ("target_cr(t, s) := 1", odds_answer(_shooter(), SHOOT),
                         ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                           "short_of_ammunition": "5/216", "telling_shots": "5/24", "withering_shooting": "55/216"},
                          {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1}),
                         ({"cancelled": "1/6", "no_effect": "65/648", "push_back": "185/1296",
                           "short_of_ammunition": "5/1296", "telling_shots": "305/1296",
                           "withering_shooting": "455/1296"},
                          {"shooter_rating": 4, "target_rating": 1, "dice": 3, "penalty": 0, "defence_dice": 1})),
    "ga.shooting-lower": ("shooting_penalty(a, d) := 0", odds_answer(_shooter(ranged=2, combat=4), SHOOT),
                          ({"cancelled": "1/6", "no_effect": "5/9", "push_back": "5/36",
                            "short_of_ammunition": "5/36"},
                           {"shooter_rating": 2, "target_rating": 4, "dice": 1, "penalty": 2, "defence_dice": 1}),
                          ({"cancelled": "1/6", "no_effect": "5/18", "push_back": "5/36",
                            "short_of_ammunition": "5/36", "telling_shots": "5/36", "withering_shooting": "5/36"},
                           {"shooter_rating": 2, "target_rating": 4, "dice": 1, "penalty": 0, "defence_dice": 1})),
    # one die, 2 against 3: a 2 less one is Short of Ammunition, which a Defence roll of 1 cancels (not the face)
    "ga.ammunition-cancel": ("cancelling_face(r, face) := face",
                             _check(_shooter(ranged=2), [{"unit": "s", "option": "shoot", "target": "t", "dice": [2],
                                                          "defence": [1]}]),
                             ([], [(False, None)]),
                             ([], [(True, None)])),
    "ga.telling-skirmishers": ("telling(t) := telling_shots",
                               odds_answer(_shooter(t={"type": "infantry_skirmishers"}), SHOOT),
                               ({"cancelled": "1/6", "no_effect": "25/72", "push_back": "5/24",
                                 "short_of_ammunition": "5/216", "withering_shooting": "55/216"},
                                {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1}),
                               ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                                 "short_of_ammunition": "5/216", "telling_shots": "5/24",
                                 "withering_shooting": "55/216"},
                                {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1})),
    "ga.plentiful-missiles": ("ammunition(s) := short_of_ammunition",
                              odds_answer(_shooter(s={"characteristics": ["ranged_attack", "plentiful_missiles"]}), SHOOT),
                              ({"cancelled": "1/6", "no_effect": "5/24", "push_back": "35/216",
                                "telling_shots": "5/24", "withering_shooting": "55/216"},
                               {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1}),
                              ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                                "short_of_ammunition": "5/216", "telling_shots": "5/24",
                                "withering_shooting": "55/216"},
                               {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0, "defence_dice": 1})),
    # -- tests and their outcome tables
    "ga.discipline-test": ("discipline_result(d1, d2, bonus, dr) := pass", odds_answer(_alone(), {"test": "discipline", **UNIT}),
                           ({"pass": "7/12", "fail": "1/3", "critical": "1/12"},
                            {"modifier": 0, "removes_setback": "1/36"}),
                           ({"pass": "1"}, {"modifier": 0, "removes_setback": "1/36"})),
    "ga.critical-failure": ("critical_double(d1, d2) := false", odds_answer(_alone(), {"test": "discipline", **UNIT}),
                            ({"pass": "7/12", "fail": "1/3", "critical": "1/12"},
                             {"modifier": 0, "removes_setback": "1/36"}),
                            ({"pass": "7/12", "fail": "5/12"}, {"modifier": 0, "removes_setback": "1/36"})),
    "ga.light-chariot-discipline": ("discipline_bonus(u) := 0",
                                    odds_answer(_alone(attachments=["light_chariot_line"]), {"test": "discipline", **UNIT}),
                                    ({"pass": "13/18", "fail": "2/9", "critical": "1/18"},
                                     {"modifier": 1, "removes_setback": "1/36"}),
                                    ({"pass": "7/12", "fail": "1/3", "critical": "1/12"},
                                     {"modifier": 0, "removes_setback": "1/36"})),
    "ga.reform-modifier": ("reform_bonus(u) := 0",
                           odds_answer([unit("a", "red", (2, 3), "north", disordered=True),
                                  unit("e", "blue", (3, 2), "south")], {"test": "reform", **UNIT}),
                           ({"pass": "5/12", "fail": "1/2", "critical": "1/12"}, {"modifier": -1}),
                           ({"pass": "7/12", "fail": "1/3", "critical": "1/12"}, {"modifier": 0})),
    "ga.failed-outcome": ("failed_outcome(t) := disordered", odds_answer(_alone(), {"test": "failed_discipline", **UNIT}),
                          ({"disordered": "7/12", "retiring": "1/4", "rout": "1/6"}, {"modifier": 0}),
                          ({"disordered": "1"}, {"modifier": 0})),
    "ga.failed-cause-fear": ("fear_mod(c) := 0",
                             odds_answer(_alone(), {"test": "failed_discipline", **UNIT, "cause": "cause_fear"}),
                             ({"disordered": "5/18", "retiring": "11/36", "rout": "5/12"}, {"modifier": -2}),
                             ({"disordered": "7/12", "retiring": "1/4", "rout": "1/6"}, {"modifier": 0})),
    "ga.failed-skirmisher": ("skirmisher_mod(u, c) := 0",
                             odds_answer(_alone(type="infantry_skirmishers"),
                                   {"test": "failed_discipline", **UNIT, "cause": "shooting"}),
                             ({"disordered": "5/18", "retiring": "11/36", "rout": "5/12"}, {"modifier": -2}),
                             ({"disordered": "7/12", "retiring": "1/4", "rout": "1/6"}, {"modifier": 0})),
    "ga.failed-reserve": ("reserve_mod(r) := 0",
                          odds_answer(_alone(), {"test": "failed_discipline", **UNIT, "reserve": True}),
                          ({"disordered": "5/18", "retiring": "11/36", "rout": "5/12"}, {"modifier": -2}),
                          ({"disordered": "7/12", "retiring": "1/4", "rout": "1/6"}, {"modifier": 0})),
    "ga.immobile-destroyed": ("immobile_outcome(u, r) := r",
                              odds_answer(_alone(characteristics=["immobile"]), {"test": "failed_discipline", **UNIT}),
                              ({"destroyed": "5/12", "disordered": "7/12"}, {"modifier": 0}),
                              ({"disordered": "7/12", "retiring": "1/4", "rout": "1/6"}, {"modifier": 0})),
    "ga.push-back-table": ("distance_rolled(u, r) := 1", odds_answer(_alone(), {"test": "push_back", **UNIT}),
                           ({"0": "1/6", "1": "1/2", "2": "1/3"}, {}),
                           ({"1": "1"}, {})),
    "ga.stubborn": ("stubborn_holds(r) := false", odds_answer(_alone(), {"test": "stubborn"}),
                    ({"pushed_back": "2/3", "stays": "1/3"}, {}),
                    ({"pushed_back": "1"}, {})),
    "ga.follow-up-decline": ("stays_put(t, dr) := false", odds_answer(_alone(), {"test": "follow_up_decline", **UNIT}),
                             ({"follows": "5/12", "stays": "7/12"}, {}),
                             ({"follows": "1"}, {})),
    "ga.warband-follow-up": ("must_follow(u) := false",
                             odds_answer(_alone(characteristics=["warband"]), {"test": "follow_up_decline", **UNIT}),
                             ({"follows": "1"}, {}),
                             ({"follows": "5/12", "stays": "7/12"}, {})),
    "ga.rear-guard": ("no_follow_up(foe) := false",
                      odds_answer([unit("a", "red", (2, 3), "north"),
                             unit("e", "blue", (6, 0), "south", characteristics=["rear_guard"])],
                            {"test": "follow_up_decline", **UNIT, "against": "e"}),
                      ({"stays": "1"}, {}),
                      ({"follows": "5/12", "stays": "7/12"}, {})),
    "ga.cover-retreat": ("cover_stops(r) := false", odds_answer(_alone(), {"test": "cover_retreat"}),
                         ({"follows": "1/6", "stopped": "5/6"}, {}),
                         ({"follows": "1"}, {})),
    "ga.praetorian-loss": ("cohort_removed(r) := false", odds_answer(_alone(), {"test": "praetorian_cohort"}),
                           ({"removed": "1/2", "stays": "1/2"}, {}),
                           ({"stays": "1"}, {})),
    "ga.lines-outcome": ("line_removed(k, r) := false", odds_answer(_alone(), {"test": "lines"}),
                         ({"removed": "2/3", "stays": "1/3"}, {}),
                         ({"stays": "1"}, {})),
    "ga.lost-eagles": ("eagle_result(e, t) := no_effect",
                       odds_answer(_alone(), {"test": "lost_eagles", "event": "routed_from_combat"}),
                       ({"centurion_casualties": "11/36", "eagle_lost": "5/12", "no_effect": "5/18"}, {}),
                       ({"no_effect": "1"}, {})),
    "ga.risk-to-generals": ("general_hit(e, t) := false", odds_answer(_alone(), {"test": "risk_to_general", "event": "rout"}),
                            ({"killed": "5/54", "lightly_wounded": "5/54", "seriously_wounded": "5/54",
                              "unharmed": "13/18"},
                             {}),
                            ({"unharmed": "1"}, {})),
    "ga.general-fate": ("general_fate(r) := killed", odds_answer(_alone(), {"test": "risk_to_general", "event": "rout"}),
                        ({"killed": "5/54", "lightly_wounded": "5/54", "seriously_wounded": "5/54",
                          "unharmed": "13/18"},
                         {}),
                        ({"killed": "5/18", "unharmed": "13/18"}, {})),
    "ga.off-table-return": ("returns(r) := false", odds_answer(_alone(), {"test": "off_table_return", **UNIT}),
                            ({"remains": "5/12", "returns": "7/12"}, {}),
                            ({"remains": "1"}, {})),
}


@pytest.mark.parametrize("define", sorted(CASES))
def test_replacing_each_define_changes_the_answer(tmp_path, define):
    assert_replacing_gives(tmp_path, define, *CASES[define])


def _replaced_or_removed() -> set[str]:
    """Every rule and define some grid test removes or replaces."""
    found = (set(CASES) | set(test_grid_aftermath.NEUTRAL) | set(test_grid_defaults.CASES)
             | set(test_grid_check.ALL))
    for f in Path(__file__).parent.glob("test_grid*.py"):
        text = f.read_text(encoding="utf-8")
        found |= set(re.findall(r"(?:replace define|remove rule) ([\w.-]+)", text))
        found |= set(re.findall(r'_replace\(tmp_path, "([\w.-]+)"', text))
    return found


def test_every_cited_sentence_has_a_removal_test():
    """Each sentence a rule or define cites is cited by one that some test
    removes or replaces (a unit or terrain declaration's citation counts
    only beside a rule's or define's)."""
    pack = load_pack("grid-ancients")
    judged = set(pack.rules) | {d.id for d in pack.defines.values()}
    tested = _replaced_or_removed()
    missing = [(s.line, s.text) for s in coverage(pack)
               if s.cited_by and not any(c in tested for c in s.cited_by if c in judged)]
    assert missing == []
