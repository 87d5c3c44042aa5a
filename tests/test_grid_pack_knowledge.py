"""Square-grid ancients: game knowledge the engine asks the pack for, one
hook each (rules/grid-ancients/05-hooks.wc), so that a house rule changes
what `check` and `odds` answer alike: which units are Stubborn
(`stubborn_unit`, its die the roll `stubborn`), which free re-rolls of a
failed Manoeuvre Test a unit has (`free_reroll`, over the pack's `values
reroll`), the words refusing an attachment when a scenario loads
(`attach_refusal`), and what becomes of an attachment used
(`reserve_attachment`, `used_up`)."""

from __future__ import annotations

from fractions import Fraction as F

from conftest import run_cli
from gridkit import engine, house, scenario, unit
from test_grid_aftermath import at, board, fight, run

#: a house rule: Warbands are Stubborn too
STUBBORN_WARBANDS = ('replace define ga.stubborn-units\n    from house "A house rule for the tests."\n'
                     '    stubborn_unit(u) := has(u, stubborn) or has(u, warband)\n')


def _holds_only_with(sc, h, die: int) -> None:
    """d on ``sc``, crunched (6 against 3) and pushed back (a 4), its
    Stubborn die showing ``die``: the shipped pack moves it one square and
    reports no hold; with the house rules ``h`` it holds where it stands."""
    entry = fight(dice=(6, 3, 3), push_back={"d": 4}, stubborn={"d": die}, discipline={"d": [4, 4]})
    _, log = run(sc, [entry])
    assert at(log, "d") == ((3, 1), "south", False) and f"d is Stubborn and holds ({die})" not in log[0]["events"]
    _, log = run(sc, [entry], h)
    assert f"d is Stubborn and holds ({die})" in log[0]["events"] and "d" not in log[0].get("positions", {})


def test_a_house_rule_that_makes_warbands_stubborn_changes_check_and_odds(tmp_path):
    """d, a Warband, crunched (6 against 3) and pushed back: the shipped pack
    moves it one square (a 4) and reads no Stubborn die; with Warbands
    Stubborn, its 5 holds it (no card, no Discipline Test), and `odds` of
    its push back gives the hold (5-6) a third."""
    sc = board(tmp_path, d={"characteristics": ["warband"]})
    h = [house(tmp_path, STUBBORN_WARBANDS)]
    _holds_only_with(sc, h, 5)
    assert engine(sc).odds({"test": "push_back", "unit": "d"})[0] == {"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}
    assert engine(sc, h).odds({"test": "push_back", "unit": "d"})[0] == {
        "0": F(1, 9), "1": F(1, 3), "2": F(2, 9), "stays": F(1, 3)}


#: a house rule: a Stubborn unit holds on anything but a 1
STUBBORN_ON_2 = ('replace roll ga.roll.stubborn\n    from house "A house rule for the tests."\n'
                 '    stubborn dice d := if d >= 2 then stays else pushed_back\n')


def test_the_stubborn_die_is_one_roll_for_check_and_odds(tmp_path):
    """The Stubborn die is the pack's roll `stubborn` wherever it is read:
    with a house rule holding on a 2, `check` keeps d (Stubborn, crunched)
    in place on a 2, and `odds` of d's push back holds five times in six,
    the push back die's law (1: 0, 2-4: 1, 5-6: 2) taking the rest; a test
    file's `stubborn: false` reads the push back die alone."""
    sc = board(tmp_path, d={"characteristics": ["stubborn"]})
    h = [house(tmp_path, STUBBORN_ON_2)]
    _holds_only_with(sc, h, 2)
    assert engine(sc).odds({"test": "push_back", "unit": "d"}) == (
        {"0": F(1, 9), "1": F(1, 3), "2": F(2, 9), "stays": F(1, 3)}, {})
    assert engine(sc, h).odds({"test": "push_back", "unit": "d"}) == (
        {"0": F(1, 36), "1": F(1, 12), "2": F(1, 18), "stays": F(5, 6)}, {})
    assert engine(sc, h).odds({"test": "push_back", "unit": "d", "stubborn": False}) == (
        {"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}, {})


#: a house rule: a third free re-roll, a Battle Trained unit's (once per turn, as the others)
VETERANS = ('values reroll: drilled, skirmishers, veteran, movement_point\n'
            'replace define ga.free-rerolls\n    from house "A house rule for the tests."\n'
            '    free_reroll(k, u, s) := if k == veteran then has(u, battle_trained)\n'
            '        else if k == drilled then drilled_reroll(u, s.rough) else k == skirmishers and skirmisher_reroll(u)\n')


def test_a_house_rule_that_gives_a_new_free_reroll(tmp_path):
    """v, Battle Trained, fails a drift (a 1) and re-rolls it (a 6) with no
    Movement Point: the shipped pack refuses the re-roll, the house rule's
    `veteran` re-roll allows it once per turn; `odds` of its Manoeuvre Test
    (4+) counts the re-roll."""
    sc = scenario(tmp_path, [unit("v", "red", (2, 3), "north", characteristics=["battle_trained"])])
    h = [house(tmp_path, VETERANS)]
    step, back = {"do": "drift_right", "test": [1, 6]}, {"do": "drift_left", "test": [1, 6]}
    one = [{"unit": "v", "option": "move", "roll": 4, "steps": [step]}]
    two = [*one, {"unit": "v", "option": "move", "roll": 4, "steps": [back]}]
    assert [v.rule for v in engine(sc).check({"activations": one})[0]] == ["ga.manoeuvre-rerolls"]
    assert [v.rule for v in engine(sc, h).check({"activations": one})[0]] == []
    assert [v.rule for v in engine(sc, h).check({"activations": two})[0]] == ["ga.manoeuvre-rerolls"]
    assert engine(sc).odds({"test": "manoeuvre", "unit": "v"}) == ({"fail": F(1, 2), "pass": F(1, 2)},
                                                                  {"modifier": 0, "rerolls": 0})
    assert engine(sc, h).odds({"test": "manoeuvre", "unit": "v"}) == ({"fail": F(1, 4), "pass": F(3, 4)},
                                                                     {"modifier": 0, "rerolls": 1})


def test_a_house_rule_gives_the_words_refusing_an_attachment(tmp_path):
    """A Praetorian Cohort on a unit that is no Legion: the pack's words say
    why (`ga.attachment-refusal`), a house rule's are said instead; an
    attachment refused with no words (none) names only the unit's type."""
    p = board(tmp_path, d={"attachments": ["praetorian_cohort"]})
    said = "unit d: a praetorian_cohort cannot be attached to it (a formed_infantry"
    code, _, err = run_cli("activations", p)
    assert code == 2 and f"{said}, not a Legion)" in err
    h = house(tmp_path, 'replace define ga.attachment-refusal\n    from house "A house rule for the tests."\n'
                        '    attach_refusal(u, x) := if x == praetorian_cohort then "it has no Eagle" else none\n')
    code, _, err = run_cli("activations", p, "--rules", h)
    assert code == 2 and f"{said}, it has no Eagle)" in err
    p = board(tmp_path, d={"attachments": ["devotio"]}, name="devotio")
    code, _, err = run_cli("activations", p, "--rules", h)
    assert code == 2 and "unit d: a devotio cannot be attached to it (a formed_infantry)\n" in err


#: a house rule: a Praetorian Cohort goes at once, a Devotio stays, a Small
#: Cavalry Reserve rolls as the Cohort does (a roll of its name: gone on 1-3)
USED_UP = ('replace define ga.attachment-used-up\n    from house "A house rule for the tests."\n'
           '    used_up(x) := if x == praetorian_cohort then removed else if x == small_cavalry_reserve then rolled '
           'else stays\n'
           'roll house.roll.reserve\n    from house "A house rule for the tests."\n'
           '    small_cavalry_reserve dice d := if d <= 3 then removed else stays\n')


def test_a_house_rule_says_what_becomes_of_an_attachment_used(tmp_path):
    """What an attachment used becomes is the pack's `used_up`: with the
    house rule, a's Praetorian Cohort is removed at once (no die asked, a
    second use refused), its Small Cavalry Reserve is rolled for on the
    `cohort:` die, and its Devotio stays after use (no longer removed)."""
    h = [house(tmp_path, USED_UP)]
    legion = board(tmp_path, a={"characteristics": ["legion"], "attachments": ["praetorian_cohort"]}, name="pc")
    twice = [fight(reserve="combat", dice=(3, 3, 3)), fight(reserve="combat", dice=(3, 3, 3))]
    broken, log = run(legion, twice[:1])
    assert (broken, log[0]["unresolved"]) == ([], ["a's Praetorian Cohort was used: give its 1D6 as `cohort: N`"])
    broken, log = run(legion, twice, h)
    assert broken == ["ga.reserve-use"] and log[0]["events"][-1] == "a uses its Praetorian Cohort: removed from play"
    assert "unresolved" not in log[0]
    scr = board(tmp_path, a={"attachments": ["small_cavalry_reserve"]}, name="scr")
    _, log = run(scr, [fight(reserve="combat", dice=(3, 3, 3), cohort=2)], h)
    assert log[0]["events"][-1] == "a's Small Cavalry Reserve is removed (2)"
    broken, log = run(scr, [fight(reserve="combat", dice=(3, 3, 3), cohort=5), twice[1]], h)
    assert broken == [] and log[0]["events"][-1] == "a's Small Cavalry Reserve stays (5)"
    devotio = board(tmp_path, a={"characteristics": ["legion"], "attachments": ["devotio"]}, name="dv")
    entry = {"unit": "a", "option": "charge", "roll": 4, "target": "d", "dice": [3, 3, 3], "defence": [5],
             "devotio": "setback"}
    _, log = run(devotio, [entry])
    assert log[0]["events"] == ["blue collects 1 setback card (a's Devotio)",
                                "a uses its Devotio (setback): removed from play"]
    _, log = run(devotio, [entry], h)
    assert log[0]["events"] == ["blue collects 1 setback card (a's Devotio)"]
