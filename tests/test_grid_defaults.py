"""Square-grid ancients: the points the reference leaves open. Each is its
own `ga.default.*` define (rules/grid-ancients/90-defaults.wc), listed in
the pack header; for each, a hand-built case whose answer (odds, legal
activations or a checked sequence) is exactly one value with the default
and exactly another when a house rule replaces it."""

from __future__ import annotations

import re

import pytest

from gridkit import assert_replacing_gives, check_answer, engine, house, legal_answer, odds_answer, scenario, unit
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


FEAR = [unit("a", "red", (2, 4), "north"), unit("e", "blue", (4, 2), "south", characteristics=["cause_fear"])]


def _first_steps(tmp_path, rules):
    """The first steps `activations` gives a (next to a Cause Fear enemy), with the tests each needs."""
    return engine(scenario(tmp_path, FEAR), rules).activations().data["units"]["a"]["move"]["steps"]


# each default: (its replacement, the case whose answer it changes)
CASES = {
    "ga.default.zoc": ("zoc(u) := {c in rear_squares(u) where formed(u)}",  # a is in e's front: -1 to Reform
                       odds_answer([unit("a", "red", (2, 3), "north", disordered=True), unit("e", "blue", (3, 2), "south")],
                             {"test": "reform", "unit": "a"}),
                       ({"pass": "5/12", "fail": "1/2", "critical": "1/12"}, {"modifier": -1}),
                       ({"pass": "7/12", "fail": "1/3", "critical": "1/12"}, {"modifier": 0})),
    "ga.default.forward-cost": ("forward_cost(u) := 2",
                                check_answer(_drift(), [{"unit": "a", "option": "move", "roll": 4,
                                                   "steps": ["forward", "forward"]}]),
                                [],
                                ["ga.movement-allowance"]),
    "ga.default.every-manoeuvre-tested": ("manoeuvre_step(u, s) := false",
                                          check_answer(_drift(), [{"unit": "a", "option": "move", "roll": 5,
                                                             "steps": ["drift_left"]}]),
                                          ["ga.manoeuvre-test-taken"],
                                          []),
    "ga.default.cavalry-rough": ("cavalry_rough_mod(u, rough) := if rough and mounted(u) then -1 else 0",
                                 odds_answer([unit("c", "red", (2, 2), "north", type="cavalry", manoeuvre=3)],
                                       {"test": "manoeuvre", "unit": "c", "rough": True}),
                                 ({"pass": "1/3", "fail": "2/3"}, {"modifier": -2, "rerolls": 0}),
                                 ({"pass": "1/2", "fail": "1/2"}, {"modifier": -1, "rerolls": 0})),
    "ga.default.forest-rough": ("rough_ground(t) := t == rough",
                                odds_answer([unit("a", "red", (2, 2), "north")], {"test": "manoeuvre", "unit": "a"},
                                      terrain=[((2, 2), "forest")]),
                                ({"pass": "1/3", "fail": "2/3"}, {"modifier": -1, "rerolls": 0}),
                                ({"pass": "1/2", "fail": "1/2"}, {"modifier": 0, "rerolls": 0})),
    "ga.default.in-rough": ("in_rough(u) := false",
                            odds_answer([unit("a", "red", (2, 2), "north")], {"test": "manoeuvre", "unit": "a"},
                                  terrain=[((3, 2), "rough")]),
                            ({"pass": "1/3", "fail": "2/3"}, {"modifier": -1, "rerolls": 0}),
                            ({"pass": "1/2", "fail": "1/2"}, {"modifier": 0, "rerolls": 0})),
    "ga.default.halving": ("halve(x, c) := x", odds_answer(_fight(disordered=True), COMBAT),
                           ({"cancelled": "1/6", "advance": "305/1296", "crunch": "455/1296", "grind": "35/1296",
                             "push_back": "185/1296", "repulsed": "5/1296", "stand": "95/1296"},
                            {"attacker_rating": 4, "defender_rating": 1, "dice": 3, "chooser": "attacker"}),
                           ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                             "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                            {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.default.chooser": ("preference(r) := if r == repulsed then 6 else 1", odds_answer(_fight(), COMBAT),
                           ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                             "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                            {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                           ({"cancelled": "1/6", "advance": "35/216", "crunch": "5/24", "grind": "5/216",
                             "push_back": "25/216", "repulsed": "55/216", "stand": "5/72"},
                            {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.default.shooting-preference": ("shooting_preference(r) := if r == no_effect then 6 else 1",
                                       odds_answer(_shooter(), SHOOT),
                                       ({"cancelled": "1/6", "no_effect": "5/27", "push_back": "35/216",
                                         "short_of_ammunition": "5/216", "telling_shots": "5/24",
                                         "withering_shooting": "55/216"},
                                        {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0,
                                         "defence_dice": 1}),
                                       ({"cancelled": "1/6", "no_effect": "25/54", "push_back": "5/72",
                                         "short_of_ammunition": "5/216", "telling_shots": "25/216",
                                         "withering_shooting": "35/216"},
                                        {"shooter_rating": 4, "target_rating": 3, "dice": 2, "penalty": 0,
                                         "defence_dice": 1})),
    "ga.default.shooting-range": ("shooting_range(u) := 1",
                                  legal_answer(_shooter(), "s", "shoot"),
                                  [],
                                  ["ga.shoot-needs-target"]),
    "ga.default.shooting-below-one": ("below_one := short_of_ammunition", odds_answer(_shooter(ranged=2, combat=4), SHOOT),
                                      ({"cancelled": "1/6", "no_effect": "5/9", "push_back": "5/36",
                                        "short_of_ammunition": "5/36"},
                                       {"shooter_rating": 2, "target_rating": 4, "dice": 1, "penalty": 2,
                                        "defence_dice": 1}),
                                      ({"cancelled": "1/6", "no_effect": "5/18", "push_back": "5/36",
                                        "short_of_ammunition": "5/12"},
                                       {"shooter_rating": 2, "target_rating": 4, "dice": 1, "penalty": 2,
                                        "defence_dice": 1})),
    "ga.default.reversal-ends-activations": ("reversal_ends_activations := false",
                                             check_answer(_fight(), [{"unit": "a", "option": "combat", "target": "d",
                                                                "dice": [1, 1], "defence": [5]},
                                                               {"unit": "a", "option": "combat"}]),
                                             ["ga.reversal-ends-activations"],
                                             []),
    # a drilled skirmisher (light chariots) fails a test in the open, then one entering rough: the Drilled
    # re-roll first leaves the Skirmisher one for the rough (legal); the Skirmisher one first leaves only the
    # Drilled one, which the rough does not allow
    "ga.default.reroll-order": ("free_reroll_rank(k) := if k == skirmishers then 1 else 2",
                                check_answer([unit("s", "red", (5, 3), "north", type="light_chariots",
                                                   characteristics=["drilled"])],
                                             [{"unit": "s", "option": "move", "roll": 6,
                                               "steps": [{"do": "drift_right", "test": [1, 6]},
                                                         {"do": "forward", "test": [1, 6]}]}],
                                             terrain=[((6, 2), "rough"), ((7, 2), "rough")]),
                                [],
                                ["ga.manoeuvre-rerolls"]),
    # a's oblique step to the right leaves no zone but enters the Cause Fear unit's: both tests, in the pack's order
    "ga.default.step-test-order": ("step_test_rank(k) := if k == discipline then 1 else 2",
                                   lambda tmp_path, rules: _first_steps(tmp_path, rules)["oblique_right"],
                                   {"legal": True, "cost": 2, "tests": ["manoeuvre", "discipline"]},
                                   {"legal": True, "cost": 2, "tests": ["discipline", "manoeuvre"]}),
    "ga.default.movement-reroll": ("reroll_movement_when(r) := false",
                                   odds_answer(_fight(), {"test": "movement", "unit": "a", "reroll": True}),
                                   ({"failed": "1/36", "1": "7/18", "2": "7/18", "3": "7/36"}, {}),
                                   ({"failed": "1/6", "1": "1/3", "2": "1/3", "3": "1/6"}, {})),
    "ga.default.reform-only-disordered": ("reform_needs_disorder := false", legal_answer(_fight(), "a", "reform"),
                                          ["ga.reform-only-disordered"],
                                          []),
    "ga.default.combat-to-front": ("combat_needs_front := false",
                                   legal_answer([unit("a", "red", (2, 3), "north"), unit("e", "blue", (4, 3), "north")],
                                          "a", "combat"),
                                   ["ga.combat-needs-enemy-in-front"],
                                   []),
    "ga.default.warband-closer": ("warband_already_close(u) := false",
                                  check_answer([unit("w", "red", (2, 3), "north", characteristics=["warband"]),
                                          unit("e", "blue", (4, 3), "north")],
                                         [{"unit": "w", "option": "move", "roll": 2, "steps": ["forward"]}]),
                                  [],
                                  ["ga.warband-towards-enemy"]),
    # w rolls 3 Movement Points and meets e after two squares forward (issue 27)
    "ga.default.warband-blocked": ("warband_blocked(a) := false",
                                   check_answer([unit("w", "red", (2, 4), "north", characteristics=["warband"]),
                                                 unit("e", "blue", (3, 1), "south")],
                                                [{"unit": "w", "option": "move", "roll": 6,
                                                  "steps": ["forward", "forward"]}]),
                                   [],
                                   ["ga.warband-full-distance"]),
    "ga.default.support": ("supporters(u) := {f in friends_of(u) where false}",
                           odds_answer(_fight() + [unit("f", "red", (4, 3), "north")], COMBAT),
                           ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                             "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                            {"attacker_rating": 5, "defender_rating": 3, "dice": 2, "chooser": "attacker"}),
                           ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                             "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                            {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
    "ga.default.cover": ("in_cover(u) := false", odds_answer(_shooter(), SHOOT, terrain=[((3, 2), "forest")]),
                         ({"cancelled": "11/36", "no_effect": "325/3888", "push_back": "925/7776",
                           "short_of_ammunition": "25/7776", "telling_shots": "1525/7776",
                           "withering_shooting": "2275/7776"},
                          {"shooter_rating": 4, "target_rating": 2, "dice": 3, "penalty": 0, "defence_dice": 2}),
                         ({"cancelled": "1/6", "no_effect": "65/648", "push_back": "185/1296",
                           "short_of_ammunition": "5/1296", "telling_shots": "305/1296",
                           "withering_shooting": "455/1296"},
                          {"shooter_rating": 4, "target_rating": 2, "dice": 3, "penalty": 0, "defence_dice": 1})),
    "ga.default.obstacle": ("across_obstacle(u, foe) := false",
                            odds_answer(_fight(), COMBAT, terrain=[((3, 2), "linear_obstacle")]),
                            ({"cancelled": "1/6", "advance": "5/72", "crunch": "5/216", "grind": "5/24",
                              "push_back": "25/216", "repulsed": "55/216", "stand": "35/216"},
                             {"attacker_rating": 2, "defender_rating": 3, "dice": 2, "chooser": "defender"}),
                            ({"cancelled": "1/6", "advance": "5/24", "crunch": "55/216", "grind": "5/72",
                              "push_back": "35/216", "repulsed": "5/216", "stand": "25/216"},
                             {"attacker_rating": 4, "defender_rating": 3, "dice": 2, "chooser": "attacker"})),
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
    assert_replacing_gives(tmp_path, define, *CASES[define])


def test_movement_points_re_roll_after_the_free_re_rolls_as_the_pack_orders(tmp_path):
    """ga.default.reroll-order also ranks the Movement Point spent for a
    re-roll (``movement_point``): after the free ones. A Drilled unit with
    one such point fails a test in the open, then one entering rough: the
    Drilled re-roll first leaves the point for the rough (legal); a house
    rule spending the point first leaves only the Drilled re-roll, which the
    rough does not allow."""
    assert_replacing_gives(
        tmp_path, "ga.default.reroll-order",
        "free_reroll_rank(k) := if k == movement_point then 1 else if k == drilled then 2 else 3",
        check_answer([unit("s", "red", (5, 3), "north", characteristics=["drilled"])],
                     [{"unit": "s", "option": "move", "roll": 6,
                       "spend": [{"pool": "movement", "use": "reroll_manoeuvre"}],
                       "steps": [{"do": "drift_right", "test": [1, 6]}, {"do": "forward", "test": [1, 6]}]}],
                     terrain=[((6, 2), "rough"), ((7, 2), "rough")]),
        [],
        ["ga.manoeuvre-rerolls"])


def test_the_step_test_taken_first_is_the_packs(tmp_path):
    """ga.default.step-test-order: a step that needs a Manoeuvre Test and a
    Discipline Test to enter a feared zone is rolled for in the pack's order,
    and nothing more is due after a failed test: the game asks the dice in
    this order (``sequence().due``); the `activations` text lists them so."""
    step = {"unit": "a", "option": "move", "roll": 6, "steps": ["oblique_right"]}
    h = house(tmp_path, 'replace define ga.default.step-test-order\n    from house "A house rule for the tests."\n'
                        "    step_test_rank(k) := if k == discipline then 1 else 2\n")
    sc = scenario(tmp_path, FEAR)

    def due(rules, steps):
        seq = engine(sc, rules).sequence({"activations": [{**step, "steps": steps}]})
        return [d.path for d in seq.due], seq.stopped_at

    test, fear = ("steps", 0, "test"), ("steps", 0, "fear")
    assert due((), ["oblique_right"]) == ([test], None)
    assert due((), [{"do": "oblique_right", "test": 6}]) == ([fear], None)
    assert due((), [{"do": "oblique_right", "test": 1}]) == ([], 0)  # failed: no fear test
    assert due([h], ["oblique_right"]) == ([fear], None)
    assert due([h], [{"do": "oblique_right", "fear": [6, 6]}]) == ([test], None)
    assert due([h], [{"do": "oblique_right", "fear": [1, 2]}]) == ([], 0)  # failed: no Manoeuvre Test
    text = engine(sc, [h]).activations().text
    assert "first steps: forward (discipline test), oblique_left (manoeuvre test), " \
           "oblique_right (discipline, manoeuvre test)," in text


def test_a_step_test_ranked_none_is_bad_input(tmp_path):
    """Only the aftermath's steps may be left out (ranked none): a step's
    tests and the re-rolls are an order only, the rules still ask for each."""
    from warcouncil.errors import WarcouncilError

    h = house(tmp_path, 'replace define ga.default.step-test-order\n    from house "A house rule for the tests."\n'
                        "    step_test_rank(k) := if k == discipline then none else 1\n")
    with pytest.raises(WarcouncilError) as e:
        _first_steps(tmp_path, [h])
    assert e.value.message == "step_test_rank(discipline) is none: a rank is a number (lower first)"


def test_the_game_rolls_a_steps_tests_in_the_packs_order(tmp_path):
    """The game asks the dice `sequence().due` names: with the pack's order
    the Manoeuvre Test of a's oblique step first, with a house rule taking
    the fear test first the Discipline Test's 2D6."""
    from warcouncil.kernel.game import CHANCE, load_game

    h = house(tmp_path, 'replace define ga.default.step-test-order\n    from house "A house rule for the tests."\n'
                        "    step_test_rank(k) := if k == discipline then 1 else 2\n")
    sc = scenario(tmp_path, FEAR)
    texts = []
    for rules in ((), [h]):
        state = load_game(str(sc), rules).new_state()
        state.apply({"kind": "activate", "unit": "a", "option": "move"})
        state.apply(next(a for a, _ in state.chance_outcomes() if a["text"].endswith(": 6")))
        state.apply({"kind": "step", "do": "oblique_right"})
        assert state.current_player() == CHANCE
        texts.append(state.chance_outcomes()[0][0]["text"])
    assert texts == ["a's Manoeuvre Test (oblique_right): 1", "a's Discipline Test to enter a feared zone (1 of 2): 1"]
