"""Square-grid ancients: every sentence of the sheet that a rule or define
cites has a test that fails when that rule is dropped. Rules are removed in
tests/test_grid_check.py, the aftermath's defines and the defaults replaced
in tests/test_grid_aftermath.py and tests/test_grid_defaults.py; the
tables, modifiers and tests of the other files are replaced here by a
neutral body (a constant, or the rule without its clause) on a hand-built
case whose answer — exact odds, legal activations or a checked sequence —
then changes. `test_every_cited_sentence_has_a_removal_test` keeps the
whole list honest: a sentence whose citing rules and defines are none of
them replaced or removed anywhere fails it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import test_grid_aftermath
import test_grid_check
import test_grid_defaults
from gridkit import assert_replacing_changes, check_answer, legal_answer, odds_answer, unit
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
    "ga.reversal": ("reversal(a) := false", _check(_fight(), [FIGHT])),
    "ga.reversal-two-failures": ("rof_two_failures(a) := false",
                                 _check(_alone(), [{"unit": "a", "option": "move", "roll": 1}] * 2)),
    "ga.reversal-manoeuvre": ("rof_manoeuvre(a) := false",
                              _check(_alone(), [{"unit": "a", "option": "move", "roll": 5,
                                                 "steps": [{"do": "drift_left", "test": 1}]}])),
    "ga.reversal-charge": ("rof_charge(a) := false", _check(_alone(), [{"unit": "a", "option": "charge", "roll": 4}])),
    "ga.reversal-combat": ("rof_combat(a) := false", _check(_fight(), [FIGHT])),
    "ga.reversal-ammunition": ("rof_ammunition(a) := false",
                               _check(_shooter(), [{"unit": "s", "option": "shoot", "target": "t", "dice": [1, 1],
                                                    "defence": [5]}])),
    "ga.reversal-homunculus": ("rof_homunculus(a) := false", _check(_fight(), [{"homunculus_est": {"points": 1}}])),
    # -- movement and manoeuvres
    "ga.charge-attack-points": ("charge_bonus(o, ap) := 0",
                                odds_answer(_alone(), {"test": "movement", "unit": "a", "attack_points": 1})),
    "ga.manoeuvre-test": ("manoeuvre_meets(n, m, mr) := false", odds_answer(_alone(), {"test": "manoeuvre", **UNIT})),
    "ga.manoeuvre-naturals": ("manoeuvre_passes(n, m, mr) := manoeuvre_meets(n, m, mr)",
                              odds_answer(_alone(manoeuvre=6), {"test": "manoeuvre", **UNIT, "manoeuvre": "about_face"})),
    "ga.step-passed": ("step_passed(u, s) := true",
                       _check(_alone(), [{"unit": "a", "option": "move", "roll": 6,
                                          "steps": [{"do": "drift_left", "test": 1}, "forward"]}])),
    "ga.skirmish-pass-through": ("may_pass(u, p) := false",
                                 _check([unit("a", "red", (2, 3), "north", type="infantry_skirmishers"),
                                         unit("f", "red", (2, 2), "north", characteristics=["drilled"]),
                                         unit("e", "blue", (6, 0), "south")],
                                        [{"unit": "a", "option": "move", "roll": 4, "steps": ["forward", "forward"]}])),
    "ga.cavalry-rules": ("mounted(u) := false",
                         odds_answer([unit("a", "red", (2, 2), "north", type="cavalry", manoeuvre=3)],
                               {"test": "manoeuvre", **UNIT, "rough": True})),
    "ga.skirmisher": ("skirmisher(u) := false",
                      odds_answer(_alone(type="infantry_skirmishers"), {"test": "push_back", **UNIT})),
    "ga.fear-zone": ("enters_fear(u, s) := false",
                     _check(_fear(), [{"unit": "a", "option": "move", "roll": 3, "steps": ["forward"]}])),
    "ga.fear-passed": ("fear_passed(u, s) := true",
                       _check(_fear(), [{"unit": "a", "option": "move", "roll": 3,
                                         "steps": [{"do": "forward", "fear": [1, 2]}]}])),
    "ga.can-shoot-at": ("can_shoot_at(u, e) := false", legal_answer(_shooter(), "s", "shoot")),
    # -- combat
    "ga.combat-rating": ("combat_rating(u, foe, attacking, charging) := 1", odds_answer(_fight(), COMBAT)),
    "ga.cr-rough": ("base_cr(u) := rating(u, combat)", odds_answer(_fight(), COMBAT, terrain=[((2, 3), "rough")])),
    "ga.combat-dice": ("combat_dice(a, d) := 1", odds_answer(_fight(), COMBAT)),
    "ga.higher-chooses": ("attacker_chooses(a, d) := false", odds_answer(_fight(), COMBAT)),
    "ga.defence-die": ("defence_dice(def, r) := 0", odds_answer(_fight(), COMBAT)),
    "ga.combat-results": ("combat_result(face, att, def) := stand", odds_answer(_fight(), COMBAT)),
    "ga.cr-elephant-line": ("elephant_line_bonus(u) := 0",
                            odds_answer(_fight(a={"attachments": ["elephant_line"]}), COMBAT)),
    "ga.cr-ferocious-charge": ("ferocious(u, charging) := 0",
                               odds_answer(_fight(a={"characteristics": ["ferocious_charge"]}), CHARGE)),
    "ga.cr-phalanx": ("phalanx_bonus(u, foe) := 0",
                      odds_answer(_fight(a={"type": "cavalry"}, d={"characteristics": ["phalanx"]}), COMBAT)),
    "ga.phalanx-grind": ("phalanx_grind(att, def, otherwise) := otherwise",
                         odds_answer(_fight(a={"characteristics": ["phalanx"]}), COMBAT)),
    "ga.phalanx-flank": ("phalanx_disordered(u, foe, attacking) := false",
                         odds_answer([unit("a", "red", (1, 2), "east", combat=4),
                                unit("d", "blue", (3, 2), "south", combat=4, characteristics=["phalanx"])], COMBAT)),
    "ga.reserve-bonus": ("reserve_bonus(u, used) := 0",
                         odds_answer(_fight(a={"attachments": ["small_cavalry_reserve"]}), {**COMBAT, "reserve": True})),
    "ga.devotio": ("devotio_bonus(u, used, charging) := 0",
                   odds_answer(_fight(a={"characteristics": ["legion"], "attachments": ["devotio"]}),
                         {**CHARGE, "devotio": True})),
    "ga.cr-warband-behind": ("warband_support(u) := 0",
                             odds_answer(_fight(a={"characteristics": ["warband"]})
                                   + [unit("w", "red", (2, 4), "north", characteristics=["warband"])], COMBAT)),
    # -- shooting
    "ga.shooting-dice": ("shooting_dice(a, d) := 1", odds_answer(_shooter(), SHOOT)),
    "ga.shooting-results": ("shooting_result(v, s, t) := no_effect", odds_answer(_shooter(), SHOOT)),
    "ga.target-rating": ("target_cr(t, s) := 1", odds_answer(_shooter(), SHOOT)),
    "ga.shooting-lower": ("shooting_penalty(a, d) := 0", odds_answer(_shooter(ranged=2, combat=4), SHOOT)),
    # one die, 2 against 3: a 2 less one is Short of Ammunition, which a Defence roll of 1 cancels (not the face)
    "ga.ammunition-cancel": ("cancelling_face(r, face) := face",
                             _check(_shooter(ranged=2), [{"unit": "s", "option": "shoot", "target": "t", "dice": [2],
                                                          "defence": [1]}])),
    "ga.telling-skirmishers": ("telling(t) := telling_shots",
                               odds_answer(_shooter(t={"type": "infantry_skirmishers"}), SHOOT)),
    "ga.plentiful-missiles": ("ammunition(s) := short_of_ammunition",
                              odds_answer(_shooter(s={"characteristics": ["ranged_attack", "plentiful_missiles"]}), SHOOT)),
    # -- tests and their outcome tables
    "ga.discipline-test": ("discipline_result(d1, d2, bonus, dr) := pass", odds_answer(_alone(), {"test": "discipline", **UNIT})),
    "ga.critical-failure": ("critical_double(d1, d2) := false", odds_answer(_alone(), {"test": "discipline", **UNIT})),
    "ga.light-chariot-discipline": ("discipline_bonus(u) := 0",
                                    odds_answer(_alone(attachments=["light_chariot_line"]), {"test": "discipline", **UNIT})),
    "ga.reform-modifier": ("reform_bonus(u) := 0",
                           odds_answer([unit("a", "red", (2, 3), "north", disordered=True),
                                  unit("e", "blue", (3, 2), "south")], {"test": "reform", **UNIT})),
    "ga.failed-outcome": ("failed_outcome(t) := disordered", odds_answer(_alone(), {"test": "failed_discipline", **UNIT})),
    "ga.failed-cause-fear": ("fear_mod(c) := 0",
                             odds_answer(_alone(), {"test": "failed_discipline", **UNIT, "cause": "cause_fear"})),
    "ga.failed-skirmisher": ("skirmisher_mod(u, c) := 0",
                             odds_answer(_alone(type="infantry_skirmishers"),
                                   {"test": "failed_discipline", **UNIT, "cause": "shooting"})),
    "ga.failed-reserve": ("reserve_mod(r) := 0",
                          odds_answer(_alone(), {"test": "failed_discipline", **UNIT, "reserve": True})),
    "ga.immobile-destroyed": ("immobile_outcome(u, r) := r",
                              odds_answer(_alone(characteristics=["immobile"]), {"test": "failed_discipline", **UNIT})),
    "ga.push-back-table": ("distance_rolled(u, r) := 1", odds_answer(_alone(), {"test": "push_back", **UNIT})),
    "ga.stubborn": ("stubborn_holds(r) := false", odds_answer(_alone(), {"test": "stubborn"})),
    "ga.follow-up-decline": ("stays_put(t, dr) := false", odds_answer(_alone(), {"test": "follow_up_decline", **UNIT})),
    "ga.warband-follow-up": ("must_follow(u) := false",
                             odds_answer(_alone(characteristics=["warband"]), {"test": "follow_up_decline", **UNIT})),
    "ga.rear-guard": ("no_follow_up(foe) := false",
                      odds_answer([unit("a", "red", (2, 3), "north"),
                             unit("e", "blue", (6, 0), "south", characteristics=["rear_guard"])],
                            {"test": "follow_up_decline", **UNIT, "against": "e"})),
    "ga.cover-retreat": ("cover_stops(r) := false", odds_answer(_alone(), {"test": "cover_retreat"})),
    "ga.praetorian-loss": ("cohort_removed(r) := false", odds_answer(_alone(), {"test": "praetorian_cohort"})),
    "ga.lines-outcome": ("line_removed(k, r) := false", odds_answer(_alone(), {"test": "lines"})),
    "ga.lost-eagles": ("eagle_result(e, t) := no_effect",
                       odds_answer(_alone(), {"test": "lost_eagles", "event": "routed_from_combat"})),
    "ga.risk-to-generals": ("general_hit(e, t) := false", odds_answer(_alone(), {"test": "risk_to_general", "event": "rout"})),
    "ga.general-fate": ("general_fate(r) := killed", odds_answer(_alone(), {"test": "risk_to_general", "event": "rout"})),
    "ga.off-table-return": ("returns(r) := false", odds_answer(_alone(), {"test": "off_table_return", **UNIT})),
}


@pytest.mark.parametrize("define", sorted(CASES))
def test_replacing_each_define_changes_the_answer(tmp_path, define):
    assert_replacing_changes(tmp_path, define, *CASES[define])


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
