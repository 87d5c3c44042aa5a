"""Square-grid ancients: the Command Point losses after a General is hit
(Risk to Generals), played in `check`. "Roll 1D6 per Command Point: on 1-3
(killed) / 1-2 (seriously wounded) / 1 (lightly wounded) the Command Point
is removed": the dice come from the turn file (``points_lost: {UNIT:
[faces]}``, one face per point at risk, pool by pool in the order attack,
movement, defence, strategy, generalship), each face read through the
pack's ``point_lost(fate, r)``, and the side's pools are reduced so later
spending in the same sequence is judged against what is left."""

from __future__ import annotations

import pytest

from gridkit import house, scenario, unit, engine
from warcouncil.errors import WarcouncilError

RED = {"command_points": {"attack": 2, "movement": 2, "defence": 1, "strategy": 1, "generalship": 2},
       "break_point": 10}
NO_REVERSAL = ('replace define ga.default.reversal-ends-activations\n'
               '    from house "A house rule for the tests."\n    reversal_ends_activations := false\n')
#: a re-roll of a failed movement roll, paid with a Movement Point
SPEND = {"unit": "a", "option": "move", "roll": [1, 4],
         "spend": [{"pool": "movement", "use": "reroll_movement"}]}


def sc(tmp_path, name="w"):
    """Red's `a` (north, with its General caesar) faces blue's `d` (south)."""
    units = [unit("a", "red", (2, 3), "north", combat=6), unit("d", "blue", (3, 2), "south")]
    return scenario(tmp_path, units, red=RED, name=name,
                    generals=[{"id": "caesar", "side": "red", "attached_to": "a", "generalship": 2}])


def repulse(wound=1, **more):
    """a is repulsed: pushed back one square, its General hit on a 2, then ``wound`` (1: killed)."""
    if wound == 1:
        more.setdefault("homunculus", {"a": 0})
    return {"unit": "a", "option": "combat", "target": "d", "dice": [1, 1, 1], "defence": [5],
            "push_back": {"a": 3}, "discipline": {"a": [5, 5]}, "general": {"a": [1, 1]}, "wound": {"a": wound},
            **more}


def run(path, entries, rules=()):
    vs, log = engine(path, rules).check({"activations": entries})
    return sorted(v.rule for v in vs), log


def test_losses_after_a_killed_general_give_the_exact_pools(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    # Generalship is gone with the General; 6 points at risk: attack 4 5, movement 1 3, defence 2, strategy 6
    _, log = run(sc(tmp_path), [repulse(points_lost={"a": [4, 5, 1, 3, 2, 6]})], [h])
    assert "red loses 3 Command Points (movement 2, defence 1)" in log[0]["events"]
    assert log[0]["pools"] == {"red": {"attack": 2, "movement": 0, "defence": 0, "strategy": 1, "generalship": 0}}
    assert "unresolved" not in log[0]


def test_a_lightly_wounded_general_rolls_for_the_generalship_left(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    # one Generalship Point removed first; then 7 dice, only a 1 removes a point
    _, log = run(sc(tmp_path), [repulse(5, points_lost={"a": [1, 2, 2, 6, 3, 1, 1]})], [h])
    assert "caesar is lightly wounded (1+1, then 5)" in log[0]["events"]
    assert log[0]["pools"] == {"red": {"attack": 1, "movement": 2, "defence": 1, "strategy": 0, "generalship": 0}}


def test_a_later_spending_is_refused_for_the_points_lost(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    kept = repulse(points_lost={"a": [4, 5, 4, 5, 4, 4]})
    lost = repulse(points_lost={"a": [4, 5, 1, 3, 4, 4]})
    assert run(sc(tmp_path), [kept, SPEND], [h])[0] == []
    broken, log = run(sc(tmp_path, "l"), [lost, SPEND], [h])
    assert broken == ["ga.enough-points"]
    assert log[0]["pools"]["red"]["movement"] == 0


def test_replacing_point_lost_changes_the_answer(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    lost = repulse(points_lost={"a": [4, 5, 1, 3, 4, 4]})
    only_ones = house(tmp_path, 'replace define ga.command-point-losses\n'
                                '    from ones "A house rule for the tests."\n'
                                '    point_lost(fate, r) := r <= 1\n', name="ones")
    broken, log = run(sc(tmp_path), [lost, SPEND], [h, only_ones])
    assert broken == []
    assert log[0]["pools"]["red"] == {"attack": 2, "movement": 1, "defence": 1, "strategy": 1, "generalship": 0}


def test_replacing_the_pools_at_risk_changes_the_answer(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    no_movement = house(tmp_path, 'replace define ga.default.points-at-risk\n'
                                  '    from nomove "A house rule for the tests."\n'
                                  '    point_at_risk(k) := k != movement\n', name="nomove")
    # 4 points at risk now (attack 2, defence 1, strategy 1)
    broken, log = run(sc(tmp_path), [repulse(points_lost={"a": [1, 1, 1, 1]}), SPEND], [h, no_movement])
    assert broken == []
    assert log[0]["pools"]["red"] == {"attack": 0, "movement": 2, "defence": 0, "strategy": 0, "generalship": 0}


def test_without_the_dice_the_losses_are_unresolved_and_nothing_is_removed(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    bare = repulse()
    del bare["homunculus"]
    broken, log = run(sc(tmp_path), [bare, SPEND], [h])
    assert broken == []
    assert "pools" not in log[0]
    assert log[0]["unresolved"] == [
        "the immediate “Homunculus Est!” on red's army needs the points on its revealed cards: "
        "`homunculus: {a: N}`",
        "red rolls 1D6 per Command Point for its losses (6: attack 2, movement 2, defence 1, strategy 1): give them "
        "as `points_lost: {a: [...]}` (`odds`: command_point_losses, fate killed)"]


def test_the_wrong_number_of_dice_is_an_error_at_its_place(tmp_path):
    with pytest.raises(WarcouncilError, match="gives 5 dice, but red rolls one per Command Point at risk: 6"):
        run(sc(tmp_path), [repulse(points_lost={"a": [4, 5, 1, 3, 2]})])


# ---------------------------------------------------------------- the killed General's immediate Homunculus Est!

MOVE = {"unit": "a", "option": "move", "roll": [2]}  # a natural 2: a failure only for a Fatigued army


@pytest.mark.parametrize("points, verdict", [(4, "not broken"), (5, "fatigued"), (10, "broken")])
def test_the_immediate_homunculus_est_is_played(tmp_path, points, verdict):
    h = house(tmp_path, NO_REVERSAL)
    kill = repulse(points_lost={"a": [4, 4, 4, 4, 4, 4]}, homunculus={"a": points})
    broken, log = run(sc(tmp_path), [kill, MOVE], [h])
    assert (f"an immediate “Homunculus Est!” on red's army (no removal of cards if it is not broken): "
            f"{points} points against its Break Point 10: {verdict}") in log[0]["events"]
    assert set(broken) == ({"ga.battle-lost"} if verdict == "broken" else set())
    assert (log[1]["movement_points"] == "failed") == (verdict == "fatigued")


def test_replacing_the_verdict_changes_the_immediate_call(tmp_path):
    h = house(tmp_path, NO_REVERSAL)
    never = house(tmp_path, 'replace define ga.homunculus-verdict\n'
                            '    from never "A house rule for the tests."\n'
                            '    homunculus_verdict(points, bp) := not_broken\n', name="never")
    kill = repulse(points_lost={"a": [4, 4, 4, 4, 4, 4]}, homunculus={"a": 10})
    assert set(run(sc(tmp_path), [kill, MOVE], [h])[0]) == {"ga.battle-lost"}
    assert run(sc(tmp_path), [kill, MOVE], [h, never])[0] == []
