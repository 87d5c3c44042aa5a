"""Square-grid ancients: `check` moves what the dice move. After a combat
or shooting result, the pushed back units move square by square (with what
the sheet says they do on meeting a unit, impassable terrain or the table's
edge), the forced Discipline Tests and their outcome are applied, the
victor follows up, and each side's Setback and Disaster Cards are kept
along the sequence; later activations are judged on the new positions.
Exact positions on hand-built boards; each define of
``rules/grid-ancients/55-aftermath.wc`` has a case that changes when it is
replaced by a house rule."""

from __future__ import annotations

import pytest

from gridkit import ALESIA, engine, house, scenario, unit
from warcouncil.errors import WarcouncilError

# A red attacker `a` (north) fights a blue defender `d` (south) in front of
# it: a covers (2,3),(3,3); d covers (2,2),(3,2). Rows grow to the south, so
# d is pushed back to the north (row - 1) and a follows up to the north.
A = dict(combat=6)


def board(tmp_path, *extra, d=None, a=None, terrain=(), **kw):
    units = [unit("a", "red", (2, 3), "north", **{**A, **(a or {})}),
             unit("d", "blue", (3, 2), "south", **(d or {}))] + list(extra)
    return scenario(tmp_path, units, terrain=terrain, **kw)


def fight(dice=(4, 3, 3), **more):
    """a's Combat Activation on d (3 dice, 6 against 3 is double: a chooses)."""
    return {"unit": "a", "option": "combat", "target": "d", "dice": list(dice), "defence": [5], **more}


def run(path, entries, rules=(), side=None):
    data = {"activations": entries}
    if side:
        data["side"] = side
    vs, log = engine(path, rules).check(data)
    return [v.rule for v in vs], log


def pos(log, i=-1):
    return log[i].get("positions", {})


def at(log, uid, i=-1):
    p = pos(log, i)[uid]
    return p if p == "removed" else (tuple(p["at"]), p["facing"], p["disordered"])


def cards(log, side, i=-1):
    c = log[i]["cards"][side]
    return c["setback"], c["disaster"]


# ---------------------------------------------------------------- push back

def test_a_push_back_and_the_follow_up_move_both_units(tmp_path):
    broken, log = run(board(tmp_path), [fight(push_back={"d": 3}, follow_up=3)])
    assert broken == []
    assert log[0]["result"] == "push_back"
    assert at(log, "d") == ((3, 1), "south", False)  # formed infantry, a 3: one square
    assert at(log, "a") == ((2, 2), "north", False)  # the follow up, a 3: one square
    assert cards(log, "blue") == (1, 0) and cards(log, "red") == (0, 0)


def test_push_back_distances_by_the_table(tmp_path):
    # formed infantry: 1 no movement, 2-4 one square, 5-6 two
    _, log = run(board(tmp_path, name="f1"), [fight(push_back={"d": 1})])
    assert "d" not in pos(log) and "d does not move back (a 1)" in log[0]["events"]
    for die, row in ((4, 1), (5, 0)):
        _, log = run(board(tmp_path, name=f"f{die}"), [fight(push_back={"d": die})])
        assert at(log, "d") == ((3, row), "south", False), die
    # cavalry: 1, 2 or 3 squares (the board has 6 rows: put d further south)
    for die, row in ((1, 3), (3, 2), (6, 1)):
        sc = scenario(tmp_path, [unit("a", "red", (2, 5), "north", **A),
                                 unit("d", "blue", (3, 4), "south", type="cavalry", manoeuvre=3)], name=f"c{die}")
        _, log = run(sc, [fight(push_back={"d": die})])
        assert at(log, "d") == ((3, row), "south", False), die


def test_later_activations_are_judged_on_the_new_positions(tmp_path):
    sc = board(tmp_path)
    # before: a second combat by a is legal (d is in front of it)
    assert run(sc, [fight(), {"unit": "a", "option": "combat"}])[0] == []
    # after d is pushed back two squares and a declines the follow up (2D6 8 >= 7): no enemy in front
    broken, log = run(sc, [fight(push_back={"d": 5}, stay=[5, 3]), {"unit": "a", "option": "combat"}])
    assert broken == ["ga.combat-needs-enemy-in-front"]
    assert "a does not follow up (5+3)" in log[0]["events"]


def test_a_formed_friend_makes_way_then_both_halt(tmp_path):
    f = unit("f", "blue", (3, 1), "south")
    broken, log = run(board(tmp_path, f), [fight(dice=(4, 4), push_back={"d": 5})])
    assert broken == []
    assert at(log, "f") == ((3, 0), "south", False) and at(log, "d") == ((3, 1), "south", False)
    assert "f moves one square to make way for d" in log[0]["events"]


def test_an_enemy_or_impassable_terrain_halts_and_disorders_then_routs(tmp_path):
    e = unit("e", "red", (2, 1), "north")
    _, log = run(board(tmp_path, e), [fight(push_back={"d": 4})])
    assert at(log, "d") == ((3, 2), "south", True) and cards(log, "blue") == (2, 0)
    _, log = run(board(tmp_path, terrain=[((2, 1), "river")], name="r"), [fight(push_back={"d": 4})])
    assert at(log, "d") == ((3, 2), "south", True)
    # a Large Bladders unit swims: the river does not stop it
    _, log = run(board(tmp_path, terrain=[((2, 1), "river")], d={"characteristics": ["large_bladders"]}, name="lb"),
                 [fight(push_back={"d": 4})])
    assert at(log, "d") == ((3, 1), "south", False)
    # already Disordered: it Routs (removed, a Disaster Card for a formed unit)
    _, log = run(board(tmp_path, e, d={"disordered": True}, name="dis"), [fight(push_back={"d": 4})])
    assert at(log, "d") == "removed" and cards(log, "blue") == (1, 1)


def test_pushed_off_the_table(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (2, 1), "north", **A), unit("d", "blue", (3, 0), "south")])
    broken, log = run(sc, [fight(push_back={"d": 4}), {"unit": "a", "option": "combat"}])
    assert at(log, "d", 0) == "removed" and cards(log, "blue", 0) == (1, 1)  # the push's Setback, the Disaster
    assert broken == ["ga.combat-needs-enemy-in-front"]
    # with the General attached: one more Disaster Card
    sc = scenario(tmp_path, [unit("a", "red", (2, 1), "north", **A), unit("d", "blue", (3, 0), "south")],
                  generals=[{"id": "gen", "side": "blue", "attached_to": "d", "generalship": 1}], name="g")
    assert cards(run(sc, [fight(push_back={"d": 4})])[1], "blue") == (1, 2)
    # a Skirmisher: a Setback Card, and none for being pushed back
    sc = scenario(tmp_path, [unit("a", "red", (2, 1), "north", **A),
                             unit("d", "blue", (3, 0), "south", type="infantry_skirmishers")], name="s")
    _, log = run(sc, [fight(dice=(4, 4, 4), push_back={"d": 1})])
    assert at(log, "d") == "removed" and cards(log, "blue") == (1, 0)


def test_a_pushed_skirmisher_moves_through_friends(tmp_path):
    f = unit("f", "blue", (3, 1), "south")
    _, log = run(board(tmp_path, f, d={"type": "infantry_skirmishers"}), [fight(dice=(4, 4), push_back={"d": 3})])
    assert at(log, "d") == ((3, 0), "south", False) and "f" not in pos(log)


def test_a_pushed_formed_unit_and_a_friendly_skirmisher(tmp_path):
    s = unit("s", "blue", (3, 1), "south", type="infantry_skirmishers")
    # two squares: it passes fully through the skirmisher
    _, log = run(board(tmp_path, s), [fight(dice=(4, 4), push_back={"d": 5})])
    assert at(log, "d") == ((3, 0), "south", False) and "s" not in pos(log)
    # one square: the skirmisher moves one square to make room
    _, log = run(board(tmp_path, s, name="b"), [fight(dice=(4, 4), push_back={"d": 3})])
    assert at(log, "d") == ((3, 1), "south", False) and at(log, "s") == ((3, 0), "south", False)


def test_a_warband_supported_by_a_warband_moves_back_with_it(tmp_path):
    _, log = run(ALESIA, [{"unit": "r1", "option": "combat", "target": "g1", "dice": [6, 2], "defence": [3],
                           "push_back": {"g1": 5}, "discipline": {"g1": [4, 5]}, "follow_up": 4}])
    assert log[0]["result"] == "crunch"
    assert at(log, "g1") == ((5, 2), "south", False) and at(log, "g2") == ((5, 1), "south", False)
    assert at(log, "r1") == ((4, 4), "north", False)  # follows up one square
    assert cards(log, "gauls") == (1, 0)


def test_stubborn_and_a_defence_point_stand(tmp_path):
    _, log = run(board(tmp_path, d={"characteristics": ["stubborn"]}),
                 [fight(dice=(6, 3, 3), push_back={"d": 4}, stubborn={"d": 5})])
    assert log[0]["result"] == "crunch" and "d" not in pos(log)
    assert cards(log, "blue") == (0, 0) and "unresolved" not in log[0]  # no card, no Discipline Test
    _, log = run(board(tmp_path, d={"characteristics": ["stubborn"]}, name="s4"),
                 [fight(dice=(6, 3, 3), push_back={"d": 4}, stubborn={"d": 4}, discipline={"d": [4, 4]})])
    assert at(log, "d") == ((3, 1), "south", False) and cards(log, "blue") == (1, 0)
    # a Defence Point: it stands, but the Setback Card is still collected
    broken, log = run(board(tmp_path, name="sf"), [fight(push_back={"d": 4}, stand_fast=["d"], follow_up=4)])
    assert broken == [] and "d" not in pos(log) and cards(log, "blue") == (1, 0)
    assert "d stands (a Defence Point)" in log[0]["events"]
    poor = {"command_points": {"attack": 1}, "break_point": 10}
    broken, _ = run(board(tmp_path, blue=poor, name="poor"), [fight(push_back={"d": 4}, stand_fast=["d"])])
    assert broken == ["ga.enough-points"]


def test_immobile_units_are_not_pushed_back(tmp_path):
    _, log = run(board(tmp_path, d={"characteristics": ["immobile"]}), [fight(push_back={"d": 5})])
    assert "d" not in pos(log) and "d cannot be Pushed Back" in log[0]["events"]


# ---------------------------------------------------------------- discipline tests and their outcome

@pytest.mark.parametrize("outcome, disordered, expect, blue_cards", [
    ([5, 5], False, ((3, 1), "south", True), (2, 0)),   # 10: Disordered, a Setback Card
    ([3, 3], False, ((2, 1), "north", True), (2, 0)),   # 6: Retiring, faces away from the enemy
    ([1, 2], False, "removed", (1, 1)),                 # 3: Rout, a Disaster Card
    ([5, 5], True, "removed", (1, 1)),                  # Disordered again: Rout
])
def test_the_failed_discipline_outcome(tmp_path, outcome, disordered, expect, blue_cards):
    sc = board(tmp_path, d={"disordered": disordered})
    # crunch (6): pushed back one square (a 3), Discipline Test 1+2 against 7: failed
    _, log = run(sc, [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]}, outcome={"d": outcome},
                            follow_up=1)])
    assert at(log, "d") == expect
    assert cards(log, "blue") == blue_cards


def test_a_critical_failure_and_a_natural_twelve(tmp_path):
    # a double that fails by 5 (2 against 7): -5 on the outcome; 9 - 5 = 4: Rout
    _, log = run(board(tmp_path), [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 1]},
                                         outcome={"d": [4, 5]})])
    assert at(log, "d") == "removed" and "d Failed Discipline Outcome 4+5-5: rout" in log[0]["events"]
    # a natural 12 passes and removes the Setback Card just collected
    _, log = run(board(tmp_path, name="twelve"), [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [6, 6]})])
    assert cards(log, "blue") == (0, 0)


def test_a_rout_through_a_friends_zone_of_control(tmp_path):
    # d routs north (away from a); friend f, facing east, has its zone of control on d's path
    f = unit("f", "blue", (1, 1), "east")
    _, log = run(board(tmp_path, f), [fight(dice=(6, 3), push_back={"d": 1}, discipline={"d": [1, 2]},
                                            outcome={"d": [1, 1]}, rout={"d": 3})])
    assert at(log, "d") == "removed"
    assert "d routs 1 square through the zone of control of f: each must make a Discipline Test" in log[0]["events"]


def test_a_legion_routing_tests_for_its_eagle_and_loses_its_lines(tmp_path):
    d = {"characteristics": ["legion"], "attachments": ["skirmish_line"]}
    _, log = run(board(tmp_path, d=d), [fight(dice=(6, 3), push_back={"d": 1}, discipline={"d": [1, 2]},
                                              outcome={"d": [1, 1]}, rout={"d": 3})])
    assert "d (a Roman Legion) makes a Lost Eagles Test" in log[0]["events"]
    assert "d loses its attached skirmish_line" in log[0]["events"]


# ---------------------------------------------------------------- follow up

def _another(tmp_path, name):
    """Cavalry a follows up d (half in front of it), and meets x, another enemy, on its way."""
    return scenario(tmp_path, [unit("a", "red", (2, 3), "north", type="cavalry", **A),
                               unit("d", "blue", (4, 2), "south"), unit("x", "blue", (2, 1), "south")], name=name)


def test_follow_up_rules(tmp_path):
    # declining: 2D6 below the Discipline Rating: it must follow up
    _, log = run(board(tmp_path), [fight(push_back={"d": 3}, stay=[1, 2], follow_up=2)])
    assert at(log, "a") == ((2, 2), "north", False)
    # a Warband must follow up whatever it rolls
    _, log = run(board(tmp_path, a={"characteristics": ["warband"]}, name="w"),
                 [fight(push_back={"d": 3}, stay=[6, 6], follow_up=2)])
    assert at(log, "a") == ((2, 2), "north", False)
    # a Rear-Guard cancels the follow up
    _, log = run(board(tmp_path, d={"characteristics": ["rear_guard"]}, name="rg"),
                 [fight(push_back={"d": 3}, follow_up=6)])
    assert "a" not in pos(log)
    # infantry stops with an enemy in its frontal squares: two squares rolled, one taken
    _, log = run(board(tmp_path, name="st"), [fight(push_back={"d": 3}, follow_up=6)])
    assert at(log, "a") == ((2, 2), "north", False) and "a follows up 1 square" in log[0]["events"]
    # cavalry meeting another enemy may instead make an Oblique Advance for one Follow Up point: 3 squares
    # rolled; forward, oblique right past x, then d (the unit it follows) is in front: it stops there
    _, log = run(_another(tmp_path, "cav"), [fight(push_back={"d": 5}, follow_up=6, follow_oblique="right")])
    assert at(log, "d") == ((4, 0), "south", False)
    assert at(log, "a") == ((3, 1), "north", False)
    assert "a makes an Oblique Advance" in log[0]["events"] and "a follows up 2 squares" in log[0]["events"]
    # the unit it follows is no "other enemy" (ga.default.another-enemy): cavalry half behind d stops at it;
    # reading "another" as any enemy, it makes its Oblique Advance round d
    half = scenario(tmp_path, [unit("a", "red", (2, 3), "north", type="cavalry", **A),
                               unit("d", "blue", (4, 2), "south")], name="half")  # d half in front of a
    fol = [fight(push_back={"d": 3}, follow_up=6, follow_oblique="left")]
    _, log = run(half, fol)
    assert at(log, "d") == ((4, 1), "south", False)
    assert at(log, "a") == ((2, 2), "north", False) and "a follows up 1 square" in log[0]["events"]
    h = house(tmp_path, 'replace define ga.default.another-enemy\n    from house "A house rule for the tests."\n'
                        '    follow_meets(a, foe) := enemy_in_front(a)\n')
    _, log = run(half, fol, [h])
    assert at(log, "a") == ((1, 0), "north", False)  # forward, oblique left, forward
    assert "a makes an Oblique Advance" in log[0]["events"] and "a follows up 3 squares" in log[0]["events"]
    # the defender did not move (a 1 for formed infantry): no follow up
    _, log = run(board(tmp_path, name="no"), [fight(push_back={"d": 1}, follow_up=6)])
    assert "a" not in pos(log)


def test_unresolved_events_move_nothing(tmp_path):
    _, log = run(board(tmp_path), [fight(dice=(6, 3, 3))])
    assert log[0]["unresolved"] == [
        "the push back of d needs its 1D6: `push_back: {d: N}`",
        "d must make a Discipline Test: give its 2D6 as `discipline: {d: [A, B]}`"]
    assert "positions" not in log[0]


# ---------------------------------------------------------------- shooting

def _shooting(tmp_path, target_type="formed_infantry", name="sh"):
    s = unit("s", "red", (2, 4), "north", ranged=4, characteristics=["ranged_attack"])
    t = unit("t", "blue", (3, 2), "south", type=target_type)
    return scenario(tmp_path, [s, t], name=name)


def test_shooting_pushes_back_one_square(tmp_path):
    shot = {"unit": "s", "option": "shoot", "target": "t", "defence": [1]}
    _, log = run(_shooting(tmp_path), [{**shot, "dice": [4, 2]}])
    assert log[0]["result"] == "push_back" and at(log, "t") == ((3, 1), "south", False)
    assert cards(log, "blue") == (1, 0)
    # Withering Shooting on a skirmisher: the push back table, directly away from the shooter, no card
    _, log = run(_shooting(tmp_path, "infantry_skirmishers", "sk"),
                 [{**shot, "dice": [6, 2], "push_back": {"t": 3}, "discipline": {"t": [4, 4]}}])
    assert log[0]["result"] == "withering_shooting"
    assert at(log, "t") == ((3, 0), "south", False) and cards(log, "blue") == (0, 0)


# ---------------------------------------------------------------- reform and the army

def test_a_failed_reform_retiring_moves_one_square_away(tmp_path):
    r = unit("r", "red", (2, 3), "north", disordered=True)
    behind = unit("b", "red", (2, 4), "north")
    foe = unit("e", "blue", (3, 2), "south")
    sc = scenario(tmp_path, [r, behind, foe])
    _, log = run(sc, [{"unit": "r", "option": "reform", "test": [1, 2], "outcome": {"r": [3, 3]}}])
    assert at(log, "r") == ((3, 4), "south", True)  # about face, then one square south
    assert at(log, "b") == ((2, 5), "north", False)  # the friend behind makes space
    assert cards(log, "red") == (1, 0) and log[0]["reversal"] is True


def test_a_fatigued_army_after_homunculus_est(tmp_path):
    """Points at least half the break point: all the revealed army's units
    become Fatigued (-2 on the Failed Discipline table) for the rest of the
    sequence (a house rule lets the sequence go on after the Reversal)."""
    h = house(tmp_path, 'replace define ga.default.reversal-ends-activations\n'
                        '    from house "A house rule for the tests."\n    reversal_ends_activations := false\n')
    seq = [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]}, outcome={"d": [3, 4]})]
    assert at(run(board(tmp_path), seq, [h])[1], "d") == ((3, 1), "south", True)  # 7: Disordered
    _, log = run(board(tmp_path, name="tired"), [{"homunculus_est": {"points": 5}}] + seq, [h])
    assert log[0]["verdict"] == "fatigued"
    assert at(log, "d") == ((2, 1), "north", True)  # 7 - 2 = 5: Retiring


# ---------------------------------------------------------------- each define, replaced

NEUTRAL = {
    "ga.aftermath-order": "aftermath_step(k) := if k == follow_up then none else 1",
    "ga.attacker-pushed": "attacker_pushed(r) := false",
    "ga.defender-pushed": "defender_pushed(r) := false",
    "ga.attacker-tests": "attacker_tests(r) := false",
    "ga.defender-tests": "defender_tests(r) := false",
    "ga.shot-distance": "shot_rolls(r, t) := false",
    "ga.push-setback": "push_setback(r, u) := false",
    "ga.combat-follow-up": "follows_up(r) := false",
    "ga.push-terrain": "push_blocked_by(u, t) := false",
    "ga.push-contact": "push_contact(u, o) := halt",
    "ga.push-make-way-halts": "make_way_halts := false",
    "ga.push-halted": "halted_becomes(u) := disordered",
    "ga.warband-pushed-together": "pushed_together(u, f) := false",
    "ga.pushed-off-table": "off_table_disasters(u) := 0",
    "ga.pushed-off-table-setback": "off_table_setbacks(u) := 0",
    "ga.stand-fast": "stand_fast_setback := false",
    "ga.follow-up-stops": "follow_stops(u) := true",
    "ga.outcome-effects": "outcome_effect(test, r, e) := 0",
    "ga.rout-cards": "rout_card(u) := setback",
    "ga.rout-friends-test": "rout_tests(u, f, squares) := false",
    "ga.lost-eagles-due": "eagles_test(u, r) := false",
    "ga.discipline-natural-twelve": "twelve_removes(d1, d2, result) := false",
    "ga.failure-consults-outcome": "consults_outcome(res) := false",
    "ga.scythed-disorders": "scythed_disorders(a) := false",
    "ga.scythed-destroyed": "pushed_destroyed(u) := false",
    "ga.pursuit-off-table": "pursues_off_table(u) := false",
    "ga.brave": "brave_reroll(u) := false",
    "ga.heroic": "heroic_reroll(u) := false",
    "ga.attachment-hosts": "may_attach(u, x) := true",
    "ga.attachment-refusal": "attach_refusal(u, x) := none",
    "ga.eagle-cards": "eagle_card(r) := none",
    "ga.centurion-casualties": "casualty_dr(r) := 0",
    "ga.eagles-once": "eagle_counts(r, before) := true",
    "ga.nomadic-ammunition": "shot_stops_move(r) := false",
    "ga.devotio-discipline": "devotio_dr(choice) := 0",
    "ga.devotio-setback": "devotio_setback(choice) := false",
    "ga.devotio-lost": "devotio_lost(a) := false",
    "ga.reserve-attachment": "reserve_attachment(u) := none",
    "ga.attachment-used-up": "used_up(x) := stays",
    "ga.immobile-not-disordered": "can_disorder(u) := true",
    "ga.general-removed": "general_removed(f) := false",
    "ga.generalship-lost": "generalship_lost(f, points) := 0",
    "ga.general-card": "general_card(f) := setback",
    "ga.general-extra-setbacks": "general_extra_setbacks(f, start) := 0",
    "ga.general-killed-homunculus": "general_calls_homunculus(f) := false",
}


def _general(tmp_path, name):
    blue = {"command_points": {"attack": 1, "movement": 1, "defence": 1, "strategy": 1, "generalship": 2},
            "break_point": 10}
    return board(tmp_path, blue=blue, name=name,
                 generals=[{"id": "gen", "side": "blue", "attached_to": "d", "generalship": 2}])


def _wounded(wound):
    """d pushed back, fails its test, Disordered (10): its General hit (3 against Disordered), then ``wound``."""
    return [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]}, outcome={"d": [5, 5]},
                  general={"d": [1, 2]}, wound={"d": wound})]


def _odds(path, test):
    def answer(rules):
        return engine(path, rules).odds(test)
    return answer


def _loads(path):
    def answer(rules):
        try:
            engine(path, rules)
            return "loads"
        except WarcouncilError as e:
            return e.message
    return answer


def _nomads(tmp_path, name="nomads", chars=("nomadic_cavalry", "ranged_attack")):
    n = unit("n", "red", (2, 4), "north", type="light_cavalry", ranged=4, manoeuvre=3, characteristics=list(chars))
    return scenario(tmp_path, [n, unit("t", "blue", (3, 1), "south")], name=name)


def _ride(after=1, steps=("forward", "forward", "forward"), **shot):
    """n moves (a 6: 4 Movement Points) and shoots at t after ``after`` steps."""
    return {"unit": "n", "option": "move", "roll": 6, "steps": list(steps),
            "shot": {"after": after, "target": "t", "defence": [5], **shot}}


LEGION = {"characteristics": ["legion"]}
DEVOTIO = {"characteristics": ["legion"], "attachments": ["devotio"]}


def charge(dice=(3, 3, 3), **more):
    """a's Charge on d, already in contact (a 4: the charge's movement roll)."""
    return {"unit": "a", "option": "charge", "roll": 4, "target": "d", "dice": list(dice), "defence": [5], **more}
# d, a Legion, fails its test and retires from combat (Centurion Casualties on a 3), then is fought again,
# routs (it is Disordered) and rolls a 7: Centurion Casualties again, but only once per battle
EAGLES = [fight(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [3, 3]}, eagles={"d": [1, 2]}),
          fight(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [5, 5]},
                eagles={"d": [3, 4]})]


def _cases(tmp_path):
    e = unit("e", "red", (2, 1), "north")
    f = unit("f", "blue", (3, 1), "south")
    fr = unit("fr", "blue", (1, 1), "east")
    off = scenario(tmp_path, [unit("a", "red", (2, 1), "north", **A), unit("d", "blue", (3, 0), "south")], name="off")
    offs = scenario(tmp_path, [unit("a", "red", (2, 1), "north", **A),
                               unit("d", "blue", (3, 0), "south", type="infantry_skirmishers")], name="offs")
    fail = dict(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]})
    rout = dict(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [1, 1]}, rout={"d": 3})
    return {
        "ga.aftermath-order": (board(tmp_path, name="ao"), [fight(push_back={"d": 3}, follow_up=3)]),
        "ga.attacker-pushed": (board(tmp_path, name="ap"), [fight(dice=(1, 1, 1), push_back={"a": 3})]),
        "ga.defender-pushed": (board(tmp_path, name="dp"), [fight(push_back={"d": 3})]),
        "ga.attacker-tests": (board(tmp_path, name="at"), [fight(dice=(1, 1, 1), push_back={"a": 3}, discipline={"a": [1, 2]},
                                                                 outcome={"a": [5, 5]})]),
        "ga.defender-tests": (board(tmp_path, name="dt"), [fight(**fail, outcome={"d": [5, 5]})]),
        "ga.shot-distance": (_shooting(tmp_path, "infantry_skirmishers", "sd"),
                             [{"unit": "s", "option": "shoot", "target": "t", "defence": [1], "dice": [6, 2],
                               "push_back": {"t": 3}, "discipline": {"t": [4, 4]}}]),
        "ga.push-setback": (board(tmp_path, name="ps"), [fight(push_back={"d": 3})]),
        "ga.combat-follow-up": (board(tmp_path, name="cf"), [fight(push_back={"d": 3}, follow_up=3)]),
        "ga.push-terrain": (board(tmp_path, terrain=[((2, 1), "river")], name="pt"), [fight(push_back={"d": 4})]),
        "ga.push-contact": (board(tmp_path, f, name="pc"), [fight(dice=(4, 4), push_back={"d": 5})]),
        "ga.push-make-way-halts": (board(tmp_path, f, name="mw"), [fight(dice=(4, 4), push_back={"d": 5})]),
        "ga.push-halted": (board(tmp_path, e, d={"disordered": True}, name="ph"), [fight(push_back={"d": 4})]),
        "ga.warband-pushed-together": (ALESIA, [{"unit": "r1", "option": "combat", "target": "g1", "dice": [6, 2],
                                                 "defence": [3], "push_back": {"g1": 5}}]),
        "ga.pushed-off-table": (off, [fight(push_back={"d": 4})]),
        "ga.pushed-off-table-setback": (offs, [fight(dice=(4, 4, 4), push_back={"d": 1})]),
        "ga.stand-fast": (board(tmp_path, name="sf"), [fight(push_back={"d": 4}, stand_fast=["d"])]),
        "ga.follow-up-stops": (_another(tmp_path, "fs"), [fight(push_back={"d": 5}, follow_up=6, follow_oblique="right")]),
        "ga.outcome-effects": (board(tmp_path, name="oe"), [fight(**fail, outcome={"d": [3, 3]})]),
        "ga.rout-cards": (board(tmp_path, name="rc"), [fight(**rout)]),
        "ga.rout-friends-test": (board(tmp_path, fr, name="rf"), [fight(**{**rout, "dice": (6, 3)})]),
        "ga.lost-eagles-due": (board(tmp_path, d={"characteristics": ["legion"]}, name="le"), [fight(**rout)]),
        "ga.discipline-natural-twelve": (board(tmp_path, name="nt"),
                                         [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [6, 6]})]),
        "ga.failure-consults-outcome": (board(tmp_path, name="co"), [fight(**fail, outcome={"d": [5, 5]})]),
        "ga.scythed-disorders": (board(tmp_path, a={"type": "scythed_chariots"}, name="sc"),
                                 [fight(dice=(6, 6), push_back={"d": 3}, discipline={"d": [5, 5]})]),
        "ga.scythed-destroyed": (board(tmp_path, a={"type": "scythed_chariots"}, name="sd2"),
                                 [fight(dice=(1, 1), push_back={"a": 3}, discipline={"a": [5, 5]})]),
        "ga.pursuit-off-table": (scenario(tmp_path, [unit("a", "red", (2, 1), "north", type="cavalry", **A),
                                                     unit("d", "blue", (3, 0), "south")], name="pu"),
                                 [fight(push_back={"d": 4}, follow_up=6)]),
        "ga.brave": _odds(board(tmp_path, d={"characteristics": ["brave"]}, name="br"),
                          {"test": "discipline", "unit": "d", "brave": True}),
        "ga.heroic": _odds(board(tmp_path, d={"characteristics": ["heroic"], "disordered": True}, name="he"),
                           {"test": "reform", "unit": "d", "heroic": True}),
        "ga.eagle-cards": (board(tmp_path, d=LEGION, name="ec"), EAGLES[:1]),
        "ga.centurion-casualties": (board(tmp_path, d=LEGION, name="cc"), EAGLES[:1]),
        "ga.eagles-once": (board(tmp_path, d=LEGION, name="eo"), EAGLES),
        "ga.nomadic-ammunition": (_nomads(tmp_path, "na"), [_ride(dice=[1, 1])]),
        "ga.devotio-discipline": (board(tmp_path, a=DEVOTIO, name="dd"),
                                  [charge(devotio="discipline", dice=(6, 3, 3), push_back={"d": 3},
                                          discipline={"d": [4, 4]}, outcome={"d": [5, 5]})]),
        "ga.devotio-setback": (board(tmp_path, a=DEVOTIO, name="ds"), [charge(devotio="setback")]),
        "ga.devotio-lost": (scenario(tmp_path, [unit("a", "red", (2, 4), "north", **A, **DEVOTIO),
                                                unit("d", "blue", (6, 0), "south")], name="dl"),
                            [{"unit": "a", "option": "charge", "roll": 4}]),
        "ga.reserve-attachment": (board(tmp_path, a={"attachments": ["small_cavalry_reserve"]}, name="ru"),
                                  [fight(reserve="combat", dice=(3, 3, 3))]),
        "ga.attachment-used-up": (board(tmp_path, a={"attachments": ["small_cavalry_reserve"]}, name="uu"),
                                  [fight(reserve="combat", dice=(3, 3, 3))]),
        "ga.immobile-not-disordered": (board(tmp_path, d={"characteristics": ["immobile"]}, name="im"),
                                       [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]},
                                              outcome={"d": [5, 5]})]),
        "ga.general-removed": (_general(tmp_path, "gr"), _wounded(1)),
        "ga.generalship-lost": (_general(tmp_path, "gl"), _wounded(5)),
        "ga.general-card": (_general(tmp_path, "gc"), _wounded(1)),
        "ga.general-extra-setbacks": (_general(tmp_path, "ge"), _wounded(3)),
        "ga.general-killed-homunculus": (_general(tmp_path, "gk"), _wounded(1)),
        "ga.attachment-hosts": _loads(board(tmp_path, d={"attachments": ["praetorian_cohort"]}, name="ah")),
        "ga.attachment-refusal": _loads(board(tmp_path, d={"attachments": ["praetorian_cohort"]}, name="ar")),
    }


def test_every_aftermath_define_has_a_case(tmp_path):
    from warcouncil.dsl.pack import load_pack

    pack = load_pack("grid-ancients")
    mine = {d.id for d in pack.defines.values() if d.loc.file.endswith("55-aftermath.wc")}
    assert mine == set(NEUTRAL)
    assert set(_cases(tmp_path)) == set(NEUTRAL)


@pytest.mark.parametrize("define", sorted(NEUTRAL))
def test_replacing_each_aftermath_define_changes_the_answer(tmp_path, define):
    case = _cases(tmp_path)[define]
    answer = case if callable(case) else (lambda rules: run(case[0], case[1], rules)[1])
    before = answer(())
    h = house(tmp_path, f"replace define {define}\n    from house \"A house rule for the tests.\"\n"
                        f"    {NEUTRAL[define]}\n")
    assert before != answer([h])


# ---------------------------------------------------------------- more of the sheet, in check

def test_scythed_chariots_disorder_the_pushed_and_are_destroyed_when_pushed(tmp_path):
    _, log = run(board(tmp_path, a={"type": "scythed_chariots"}),
                 [fight(dice=(6, 6), push_back={"d": 3}, discipline={"d": [5, 5]})])
    assert at(log, "d") == ((3, 1), "south", True)
    _, log = run(board(tmp_path, a={"type": "scythed_chariots"}, name="x"),
                 [fight(dice=(1, 1), push_back={"a": 3}, discipline={"a": [5, 5]})])
    assert log[0]["result"] == "repulsed"
    assert at(log, "a") == "removed" and cards(log, "red") == (1, 0)  # a single Setback Card, no test
    assert not any("Discipline Test" in e for e in log[0]["events"])


def test_a_battle_trained_defender_holds_on_a_grind(tmp_path):
    """Grind: both are pushed back and test; a Battle Trained defender holds
    and the attacker takes it all (the result becomes Repulsed)."""
    grind = fight(dice=(2, 2, 2), push_back={"a": 3, "d": 3}, discipline={"a": [5, 5], "d": [5, 5]})
    _, log = run(board(tmp_path), [grind])
    assert log[0]["result"] == "grind"
    assert at(log, "a") == ((2, 4), "north", False) and at(log, "d") == ((3, 1), "south", False)
    assert cards(log, "red") == (1, 0) and cards(log, "blue") == (1, 0)
    _, log = run(board(tmp_path, d={"characteristics": ["battle_trained"]}, name="bt"), [grind])
    assert log[0]["result"] == "repulsed"
    assert at(log, "a") == ((2, 4), "north", False) and "d" not in pos(log)
    assert cards(log, "red") == (1, 0) and cards(log, "blue") == (0, 0)
    h = house(tmp_path, 'replace define ga.battle-trained-grind\n    from house "A house rule for the tests."\n'
                        '    battle_trained_grind(att, def) := grind\n')
    _, log = run(board(tmp_path, d={"characteristics": ["battle_trained"]}, name="bt2"), [grind], [h])
    assert log[0]["result"] == "grind" and at(log, "d") == ((3, 1), "south", False)


def test_pursuit_off_the_table_and_bringing_the_unit_back(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (2, 1), "north", type="cavalry", **A),
                             unit("d", "blue", (3, 0), "south", type="infantry_skirmishers")])
    # d is pushed off the table (a Setback Card: a skirmisher); a pursues off it: no card
    _, log = run(sc, [fight(dice=(4, 4, 4), push_back={"d": 1}, follow_up=6)])
    assert at(log, "d") == "removed" and cards(log, "red") == (0, 0)
    assert "a pursues off the table: temporarily removed (no card)" in log[0]["events"]
    h = house(tmp_path, 'replace define ga.default.reversal-ends-activations\n'
                        '    from house "A house rule for the tests."\n    reversal_ends_activations := false\n')
    # later: a Discipline Test to bring it back; a failure is a Reversal of Fortune, a pass returns it
    seq = [fight(dice=(4, 4, 4), push_back={"d": 1}, follow_up=6), {"bring_back": "a", "test": [1, 2]},
           {"bring_back": "a", "test": [4, 4]}]
    broken, log = run(sc, seq, [h])
    assert broken == [] and [e["reversal"] for e in log] == [False, True, False]
    assert log[2]["positions"] == {"a": {"at": [2, 0], "facing": "north", "disordered": False}}  # where it left
    # a unit pushed off the table cannot return
    edge = scenario(tmp_path, [unit("a", "red", (2, 5), "north", **A), unit("d", "blue", (3, 4), "south")],
                    name="gone")
    broken, log = run(edge, [fight(dice=(1, 1, 1), push_back={"a": 5}, discipline={"a": [5, 5]}),
                             {"bring_back": "a", "test": [6, 6]}], [h])
    assert at(log, "a", 0) == "removed" and broken == ["ga.bring-back-off-table"]


def test_the_reversal_of_a_failed_bring_back_is_its_sentence(tmp_path):
    sc = scenario(tmp_path, [unit("o", "red", (2, 1), "north", off_table=True), unit("d", "blue", (3, 4), "south")])
    assert run(sc, [{"bring_back": "o", "test": [1, 2]}])[1][0]["reversal"] is True
    h = house(tmp_path, 'replace define ga.reversal-bring-back\n    from house "A house rule for the tests."\n'
                        '    rof_bring_back(a) := false\n')
    assert run(sc, [{"bring_back": "o", "test": [1, 2]}], [h])[1][0]["reversal"] is False


def test_an_attachment_on_a_unit_that_may_not_have_it_exits_2(tmp_path):
    from conftest import run_cli

    p = board(tmp_path, d={"attachments": ["praetorian_cohort"]})
    code, _, err = run_cli("activations", p)
    assert code == 2 and "unit d: a praetorian_cohort cannot be attached to it (a formed_infantry, not a Legion)" in err
    p = board(tmp_path, d={"attachments": ["small_cavalry_reserve"], "type": "infantry_skirmishers"}, name="r")
    assert run_cli("activations", p)[0] == 2
    p = board(tmp_path, d={"attachments": ["praetorian_cohort"], "characteristics": ["legion"]}, name="ok")
    assert run_cli("activations", p)[0] == 0


def test_lost_eagles_and_centurion_casualties(tmp_path):
    _, log = run(board(tmp_path, d=LEGION), EAGLES)
    first, second = log
    assert "d Lost Eagles Test (retiring_from_combat) 1+2: centurion_casualties" in first["events"]
    assert first["positions"]["d"] == {"at": [2, 2], "facing": "north", "disordered": True, "discipline": 8}
    assert cards(log, "blue", 0) == (3, 0)  # pushed back (held: a 1), retiring, the casualties
    assert "d: centurion_casualties, but only once per battle: no effect" in second["events"]
    assert second["positions"]["d"] == "removed" and cards(log, "blue") == (4, 1)  # + the push, the rout
    # an Eagle lost: a Disaster Card
    _, log = run(board(tmp_path, d=LEGION, name="eagle"),
                 [fight(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [3, 3]},
                        eagles={"d": [1, 1]})])
    assert cards(log, "blue") == (2, 1)
    # not from combat: a failed reform's retiring (Centurion Casualties on 3 only; from combat on 3-4)
    legion = [unit("r", "red", (2, 3), "north", disordered=True, characteristics=["legion"]),
              unit("e", "blue", (3, 2), "south")]
    _, log = run(scenario(tmp_path, legion, name="ref"), [{"unit": "r", "option": "reform", "test": [1, 2],
                                                            "outcome": {"r": [3, 3]}, "eagles": {"r": [2, 2]}}])
    assert "r Lost Eagles Test (retiring_not_from_combat) 2+2: no_effect" in log[0]["events"]


def test_nomadic_cavalry_shoot_during_their_move(tmp_path):
    sc = _nomads(tmp_path)
    # one square, shoot (4 against 3: two dice, a Push Back): t goes back a square, then two more squares
    broken, log = run(sc, [_ride(dice=[4, 2])])
    assert broken == [] and log[0]["shot"] == {"target": "t", "after": 1, "ratings": [4, 3], "result": "push_back"}
    assert at(log, "t") == ((3, 0), "south", False) and cards(log, "blue") == (1, 0)
    assert log[0]["movement_points"] == 4
    # without the push back the third square is t's: the later steps are judged on the new positions
    broken, _ = run(sc, [_ride(dice=[3, 2])])
    assert "ga.no-moving-through" in broken
    # Short of Ammunition: the movement stops there (one square made), and a Reversal of Fortune
    broken, log = run(sc, [_ride(dice=[1, 1])])
    assert log[0]["shot"]["result"] == "short_of_ammunition" and log[0]["reversal"] is True
    # once each turn; and only Nomadic Cavalry
    broken, _ = run(sc, [_ride(dice=[3, 2], steps=["forward"]), _ride(dice=[3, 2], steps=[], after=0)])
    assert broken == ["ga.nomadic-shoots-mid-move"]
    broken, _ = run(_nomads(tmp_path, "plain", ("ranged_attack",)), [_ride(dice=[3, 2], steps=["forward"])])
    assert broken == ["ga.nomadic-shoots-mid-move"]
    # the shot is judged as a shoot: without Ranged Attack it breaks that rule too
    broken, _ = run(_nomads(tmp_path, "bare", ("nomadic_cavalry",)), [_ride(dice=[3, 2], steps=["forward"])])
    assert broken == ["ga.shoot-needs-ranged-attack"]


def test_a_step_before_a_mid_move_shot_is_judged_on_the_board_before_it(tmp_path):
    """Each step of a Nomadic Cavalry move is judged on the board as it was
    when the step was made: the steps before the shot on the board before
    it, the shot and the steps after it on the board the shot left."""
    # n starts in t's zone of control (t's front squares), rides one square south out of it, then shoots
    # back at t (4 against 3: a Push Back), which goes back a square: its zone of control moves with it
    n = unit("n", "red", (3, 2), "south", type="light_cavalry", ranged=4, manoeuvre=3,
             characteristics=["nomadic_cavalry", "ranged_attack"])
    sc = scenario(tmp_path, [n, unit("t", "blue", (3, 1), "south")], name="zoc")
    ride = {"unit": "n", "option": "move", "roll": 6, "steps": ["forward"],
            "shot": {"after": 1, "target": "t", "dice": [4, 2], "defence": [5]}}
    broken, log = run(sc, [ride])
    assert log[0]["shot"]["result"] == "push_back" and at(log, "t") == ((3, 0), "south", False)
    # leaving the zone it was in when it left: a Manoeuvre Test was due (on the later board it never was in one)
    assert broken == ["ga.manoeuvre-test-taken", "ga.leave-zoc-needs-pass"]
    broken, _ = run(sc, [{**ride, "steps": [{"do": "forward", "test": [5]}]}])
    assert broken == []
    # the other way: a step legal only on the board before the shot. n, cavalry, is beside the Elephants e and
    # rides along them; the shot then pushes e back a square: on that later board the step would have come
    # up beside e from two squares away (a Discipline Test due), but when it was made n was already beside e
    n = unit("n", "red", (4, 1), "north", type="light_cavalry", ranged=4, manoeuvre=3,
             characteristics=["nomadic_cavalry", "ranged_attack", "parthian_shot"])
    sc = scenario(tmp_path, [n, unit("e", "blue", (3, 1), "south", type="elephants")], name="elephants")
    ride = {"unit": "n", "option": "move", "roll": 6, "steps": ["forward"],
            "shot": {"after": 1, "target": "e", "dice": [4, 2], "defence": [5]}}
    broken, log = run(sc, [ride])
    assert log[0]["shot"]["result"] == "push_back" and at(log, "e") == ((3, 0), "south", False)
    assert broken == []
    # the same step after the shot is judged on the later board: it comes up beside e, now at row 0, from two
    # squares away, and needs a passed Discipline Test
    after = {**ride, "shot": {**ride["shot"], "after": 0, "dice": [4, 2, 2]}}  # (4 against 1: three dice)
    broken, _ = run(sc, [after])
    assert broken == ["ga.cause-fear-test"]
    broken, _ = run(sc, [{**after, "steps": [{"do": "forward", "fear": [6, 6]}]}])
    assert broken == []


def test_a_devotio_on_a_legions_first_charge(tmp_path):
    sc = board(tmp_path, a=DEVOTIO)
    # +2 Combat Rating: 8 against 3
    broken, log = run(sc, [charge(devotio="combat", dice=(4, 3, 3), push_back={"d": 3})])
    assert broken == [] and log[0]["ratings"] == [8, 3]
    assert "a uses its Devotio (combat): removed from play" in log[0]["events"]
    # +2 to the enemy's Discipline Rating in this activation: 3 + 5 fails against 9
    _, log = run(sc, [charge(devotio="discipline", dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [3, 5]},
                             outcome={"d": [5, 5]})])
    assert "d Discipline Test 3+5: fail" in log[0]["events"] and at(log, "d") == ((3, 1), "south", True)
    # an immediate Setback Card on the opponent
    _, log = run(sc, [charge(devotio="setback")])
    assert cards(log, "blue") == (1, 0)
    # once: the Devotio is gone after use, and only on the first charge
    broken, _ = run(sc, [charge(devotio="setback"), charge(devotio="setback")])
    assert broken == ["ga.devotio-use"]
    broken, _ = run(sc, [charge(), charge(devotio="setback")])
    assert broken == ["ga.devotio-use"]
    # only on a charge
    broken, _ = run(sc, [fight(devotio="setback", dice=(3, 3, 3))])
    assert broken == ["ga.devotio-use"]


def test_a_charge_that_makes_no_contact_loses_the_devotio(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (2, 4), "north", **A, **DEVOTIO), unit("d", "blue", (6, 0), "south")])
    _, log = run(sc, [{"unit": "a", "option": "charge", "roll": 4}])
    assert "a's Charge made no contact: its Devotio is lost" in log[0]["events"] and log[0]["reversal"] is True


def test_a_small_cavalry_reserve_and_a_praetorian_cohort_used(tmp_path):
    sc = board(tmp_path, a={"attachments": ["small_cavalry_reserve"]})
    broken, log = run(sc, [fight(reserve="combat", dice=(3, 3, 3))])
    assert broken == [] and log[0]["ratings"] == [7, 3]
    assert "a uses its Small Cavalry Reserve: removed from play" in log[0]["events"]
    broken, _ = run(sc, [fight(reserve="combat", dice=(3, 3, 3)), fight(reserve="combat", dice=(3, 3, 3))])
    assert broken == ["ga.reserve-use"]
    # the reserve's other use: -2 on the enemy's Failed Discipline roll (7 - 2 = 5: Retiring)
    _, log = run(sc, [fight(reserve="discipline", dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]},
                            outcome={"d": [3, 4]})])
    assert "d Failed Discipline Outcome 3+4-2: retiring" in log[0]["events"]
    # a Praetorian Cohort: removed on 1-3 after use, stays on 4-6
    legion = board(tmp_path, a={"characteristics": ["legion"], "attachments": ["praetorian_cohort"]}, name="pc")
    _, log = run(legion, [fight(reserve="combat", dice=(3, 3, 3), cohort=3), fight(reserve="combat", dice=(3, 3, 3))])
    assert "a's Praetorian Cohort is removed (3)" in log[0]["events"]
    broken, log = run(legion, [fight(reserve="combat", dice=(3, 3, 3), cohort=4), fight(reserve="combat", dice=(3, 3, 3),
                                                                                   cohort=6)])
    assert broken == [] and "a's Praetorian Cohort stays (4)" in log[0]["events"]


def test_an_immobile_unit_is_neither_pushed_back_nor_disordered(tmp_path):
    _, log = run(board(tmp_path, d={"characteristics": ["immobile"]}),
                 [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]}, outcome={"d": [5, 5]})])
    assert at(log, "d") == ((3, 2), "south", False) and "d cannot be Pushed Back" in log[0]["events"]
    assert "d Failed Discipline Outcome 5+5+0: disordered" in log[0]["events"]
    assert cards(log, "blue") == (1, 0)  # the outcome's Setback Card; none for a push that did not happen


def test_a_unit_pushed_one_square_then_halted_is_followed_up(tmp_path):
    # d goes back one square, then meets the enemy e behind it: halts there, Disordered; a follows up
    e = unit("e", "red", (2, 0), "north")
    _, log = run(board(tmp_path, e), [fight(push_back={"d": 5}, follow_up=3)])
    assert at(log, "d") == ((3, 1), "south", True)
    assert at(log, "a") == ((2, 2), "north", False)


@pytest.mark.parametrize("wound, fate, lost, blue_cards", [
    (1, "killed", 2, (2, 1)),               # all Generalship Points, a Disaster Card
    (3, "seriously wounded", 2, (5, 0)),    # all points, a Setback Card and one per starting point (2)
    (5, "lightly wounded", 1, (3, 0)),      # one point, a Setback Card
])
def test_risk_to_generals(tmp_path, wound, fate, lost, blue_cards):
    _, log = run(_general(tmp_path, f"g{wound}"), _wounded(wound))
    events = log[0]["events"]
    assert f"gen is {fate} (1+2, then {wound})" in events
    assert f"blue loses {lost} Generalship Point{'s' if lost != 1 else ''}" in events
    assert cards(log, "blue") == blue_cards  # (2 before: the push back's and the Disordered outcome's)
    assert (wound == 1) == any("an immediate “Homunculus Est!” on blue's army" in e for e in events)
    # the worst event counts: Disordered is hit on 2-3, a Push Back only on 2
    _, log = run(_general(tmp_path, f"p{wound}"), [fight(push_back={"d": 3}, general={"d": [1, 2]})])
    assert "gen is unharmed (1+2 against push_back)" in log[0]["events"]


def test_a_killed_general_no_longer_gives_generalship(tmp_path):
    h = house(tmp_path, 'replace define ga.default.reversal-ends-activations\n'
                        '    from house "A house rule for the tests."\n    reversal_ends_activations := false\n')
    red = {"command_points": {"attack": 1, "movement": 1, "defence": 1, "strategy": 1, "generalship": 2},
           "break_point": 10}
    sc = board(tmp_path, red=red, generals=[{"id": "caesar", "side": "red", "attached_to": "a", "generalship": 2}])
    spend = {"unit": "a", "option": "move", "roll": [1, 4],
             "spend": [{"pool": "generalship", "as": "movement", "use": "reroll_movement"}]}
    assert run(sc, [spend], [h])[0] == []
    # repulsed: a is pushed back (one square), its General hit on a 2 and killed (a 1)
    repulse = fight(dice=(1, 1, 1), push_back={"a": 3}, discipline={"a": [5, 5]}, general={"a": [1, 1]}, wound={"a": 1})
    broken, log = run(sc, [repulse, spend], [h])
    assert "caesar is killed (1+1, then 1)" in log[0]["events"]
    assert sorted(broken) == ["ga.enough-points", "ga.generalship-own-unit"]


# ---------------------------------------------------------------- the open choices, each a default define

def _replace(tmp_path, define, body, name):
    return house(tmp_path, f'replace define {define}\n    from house "A house rule for the tests."\n    {body}\n', name)


def test_directly_away_from_the_shooter_a_tie_is_the_packs(tmp_path):
    """Withering Shooting moves a Skirmisher directly away from the shooter;
    from s (to its south-west, as far on each axis) both north and east are
    directly away. ga.default.away-tie: backwards if that is one of them,
    else sideways, never forwards: t faces north, so east."""
    s = unit("s", "red", (2, 3), "east", ranged=4, characteristics=["ranged_attack", "parthian_shot"])
    t = unit("t", "blue", (3, 2), "north", type="infantry_skirmishers")
    sc = scenario(tmp_path, [s, t], name="tie")
    shot = [{"unit": "s", "option": "shoot", "target": "t", "defence": [1], "dice": [6, 2], "push_back": {"t": 3},
             "discipline": {"t": [4, 4]}}]
    broken, log = run(sc, shot)
    assert broken == [] and at(log, "t") == ((5, 2), "north", False)  # a 3: two squares east
    h = _replace(tmp_path, "ga.default.away-tie", "away_rank(u, d) := if d == north then 1 else 0", "north")
    assert at(run(sc, shot, [h])[1], "t") == ((3, 0), "north", False)
    # t facing west has east behind it: east again; facing south, north behind it: north
    for at_, facing, where in (((3, 3), "west", (5, 3)), ((4, 2), "south", (4, 0))):
        t = unit("t", "blue", at_, facing, type="infantry_skirmishers")
        assert at(run(scenario(tmp_path, [s, t], name=facing), shot)[1], "t") == (where, facing, False)


def test_who_follows_up_is_the_packs(tmp_path):
    """ga.default.victor: the attacker follows up a result that pushes the
    defender back (follows_up); after a Repulsed nobody does. A house rule
    making the Repulsed defender the victor has it follow the attacker up."""
    repulsed = [fight(dice=(1, 1, 1), push_back={"a": 3}, follow_up=3)]
    _, log = run(board(tmp_path), repulsed)
    assert at(log, "a") == ((2, 4), "north", False) and "d" not in pos(log)
    h = _replace(tmp_path, "ga.default.victor",
                 "victor(r) := if r == repulsed then defender else if follows_up(r) then attacker else none", "v")
    _, log = run(board(tmp_path, name="v"), repulsed, [h])
    assert at(log, "a") == ((2, 4), "north", False) and at(log, "d") == ((3, 3), "south", False)
    assert "d follows up 1 square" in log[0]["events"]
    # a defender pushed back is followed by the attacker, whatever the ids
    _, log = run(board(tmp_path, name="pb"), [fight(push_back={"d": 3}, follow_up=3)], [h])
    assert at(log, "a") == ((2, 2), "north", False)


def test_a_push_back_meeting_two_units_at_once(tmp_path):
    """d, pushed back, meets its friend f and the enemy x at once:
    ga.default.contact-first takes the enemy's halt first (it is Disordered),
    whatever the units are called; a friend makes way only when it alone is
    in the way."""
    f = unit("f", "blue", (4, 1), "south")  # (4,1),(3,1)
    x = unit("x", "red", (1, 1), "north")   # (1,1),(2,1)
    sc = board(tmp_path, f, x)
    broken, log = run(sc, [fight(dice=(4, 3), push_back={"d": 3})])
    assert "d contacts x" in log[0]["events"] and at(log, "d") == ((3, 2), "south", True)
    h = _replace(tmp_path, "ga.default.contact-first", "contact_rank(c) := if c == make_way then 3 else 1", "mw")
    _, log = run(board(tmp_path, f, x, name="mw"), [fight(dice=(4, 3), push_back={"d": 3})], [h])
    assert "d is stopped by f, which cannot make way" in log[0]["events"]
    assert at(log, "d") == ((3, 2), "south", False)


def test_a_general_is_at_risk_once_on_the_worst_event(tmp_path):
    """d is Pushed Back and Disordered: ga.default.worst-risk tests its
    General once, against Disordered (hit on 2-3); a house rule ranking the
    Push Back worst tests it against that (hit on 2 only)."""
    _, log = run(_general(tmp_path, "worst"), _wounded(5))
    assert "gen is lightly wounded (1+2, then 5)" in log[0]["events"]
    h = _replace(tmp_path, "ga.default.worst-risk", "risk_rank(e) := if e == push_back then 4 else 1", "risk")
    _, log = run(_general(tmp_path, "risk"), _wounded(5), [h])
    assert "gen is unharmed (1+2 against push_back)" in log[0]["events"]


def test_a_warband_moving_back_with_the_one_it_supports(tmp_path):
    """g2, the Warband behind g1, moves back with it: ga.default.moved-back-with
    reads that it is not itself Pushed Back, so Vercingetorix, with g2, is
    not at risk; a house rule reading it as Pushed Back tests him."""
    entry = [{"unit": "r1", "option": "combat", "target": "g1", "dice": [6, 2], "defence": [3], "push_back": {"g1": 5},
              "discipline": {"g1": [4, 5]}, "general": {"g2": [1, 1]}, "wound": {"g2": 5}}]
    broken, log = run(ALESIA, entry)
    assert broken == [] and "g2 (a supporting Warband) moves back with g1" in log[0]["events"]
    assert not any("vercingetorix" in e for e in log[0]["events"])
    h = _replace(tmp_path, "ga.default.moved-back-with", "moved_back_at_risk := true", "with")
    _, log = run(ALESIA, entry, [h])
    assert "vercingetorix is lightly wounded (1+1, then 5)" in log[0]["events"]


def test_the_aftermath_walks_the_packs_steps_in_the_packs_order(tmp_path):
    """ga.aftermath-order: push backs, the Scythed Chariots' disorder, the
    Discipline Tests, the follow up, Risk to Generals. With the pack's order
    d (crunch) is pushed back one square, fails its test and routs: a Setback
    Card for the push back, a Disaster Card for the rout. A house rule that
    tests before the push backs has d rout where it stands: it is gone before
    its push back, so no Setback Card; one that drops the follow up leaves
    the victor where it fought."""
    routs = [fight(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]}, outcome={"d": [1, 2]})]
    _, log = run(board(tmp_path, name="o1"), routs)
    assert log[0]["events"] == ["blue collects 1 setback card (d Pushed Back)", "d is Pushed Back 1 square",
                                "d Discipline Test 1+2: fail", "d Failed Discipline Outcome 1+2+0: rout",
                                "blue collects 1 disaster card (d rout)", "d routs: removed from play"]
    assert cards(log, "blue") == (1, 1)
    first = _replace(tmp_path, "ga.aftermath-order",
                     "aftermath_step(k) := if k == discipline_tests then 0 else if k == risk_to_generals then 9 else 1",
                     "tests_first")
    _, log = run(board(tmp_path, name="o2"), routs, [first])
    assert log[0]["events"] == ["d Discipline Test 1+2: fail", "d Failed Discipline Outcome 1+2+0: rout",
                                "blue collects 1 disaster card (d rout)", "d routs: removed from play"]
    assert cards(log, "blue") == (0, 1) and pos(log)["d"] == "removed"
    follows = [fight(push_back={"d": 3}, follow_up=3)]
    _, log = run(board(tmp_path, name="o3"), follows)
    assert at(log, "a") == ((2, 2), "north", False) and log[0]["events"][-1] == "a follows up 1 square"
    no_follow = _replace(tmp_path, "ga.aftermath-order",
                         "aftermath_step(k) := if k == follow_up then none else 1", "no_follow")
    _, log = run(board(tmp_path, name="o4"), follows, [no_follow])
    assert "a" not in pos(log) and at(log, "d") == ((3, 1), "south", False)
    assert log[0]["events"] == ["blue collects 1 setback card (d Pushed Back)", "d is Pushed Back 1 square"]


def test_a_rank_that_is_no_number_is_bad_input_at_its_define(tmp_path):
    h = _replace(tmp_path, "ga.aftermath-order", "aftermath_step(k) := follow_up", "symbol_rank")
    with pytest.raises(WarcouncilError) as e:
        run(board(tmp_path, name="o5"), [fight(push_back={"d": 3}, follow_up=3)], [h])
    assert e.value.message == "aftermath_step(push_backs) is follow_up: a rank is a number (lower first) or none"
    assert (e.value.location.file, e.value.location.line) == (str(h), 3)  # its `replace define`
