"""Square-grid ancients: the dice of its tests are the pack's `roll`
declarations (rules/grid-ancients/50-tests.wc, kernel/rolls.py). `odds`
gives a declared roll's exact law, its parameters the test file's values;
`check` reads the same roll on the dice a turn file gives; so a house rule
that gives a test new dice (`replace roll`) changes both alike."""

from __future__ import annotations

import json
from fractions import Fraction as F

import pytest

from conftest import run_cli
from gridkit import engine, house, scenario, unit, write
from test_grid_aftermath import _general, _wounded, board, fight, run
from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import load_pack
from warcouncil.errors import WarcouncilError

#: the tests whose law is a declared roll (Manoeuvre, Discipline and Reform:
#: one try, the engine counts the re-rolls; the others: the chooser's pick
#: among attack dice, a call with no dice, and the losses over a side's
#: points, one declared die each)
DECLARED = {"manoeuvre", "discipline", "reform", "movement", "push_back", "follow_up", "follow_up_decline", "failed_discipline", "failed_reform",
            "lines", "stubborn", "praetorian_cohort", "cover_retreat", "lost_eagles", "risk_to_general",
            "off_table_return"}


def _odds(eng, **test):
    return eng.odds(test)


def _house(tmp_path, roll: str, body: str, name: str = "house"):
    """A house rule replacing the roll ``roll`` by one whose text is ``body``."""
    return house(tmp_path, f'replace roll {roll}\n    from house "A house rule for the tests."\n    {body}\n', name=name)


def _alone(tmp_path, name="alone"):
    """A scenario of two units far apart: a at 2,3 (red), e at 6,0 (blue)."""
    return scenario(tmp_path, [unit("a", "red", (2, 3), "north"), unit("e", "blue", (6, 0), "south")], name=name)


def test_the_pack_declares_the_tests_rolls():
    pack = load_pack("grid-ancients")
    assert {r.name for r in pack.rolls.values()} == DECLARED | {"command_point_losses"}
    risk = pack.roll("risk_to_general")
    assert (risk.id, risk.params, risk.dice) == ("ga.roll.risk-to-general", ("event",), ("d1", "d2", "wound"))
    assert [c.quote for c in risk.citations] == ["Roll 2D6 and compare result to event.",
                                                 "If General is injured, roll 1D6 and determine outcome."]


def test_declared_laws(tmp_path):
    eng = engine(_alone(tmp_path))
    # hit on 2-5 (10 ways in 36) after a rout, then 1-2 killed, 3-4 seriously, 5-6 lightly wounded
    assert _odds(eng, test="risk_to_general", event="rout") == (
        {"killed": F(10, 108), "lightly_wounded": F(10, 108), "seriously_wounded": F(10, 108),
         "unharmed": F(26, 36)}, {})
    assert _odds(eng, test="lines") == ({"removed": F(2, 3), "stays": F(1, 3)}, {})  # (the default line: 1-4)
    assert _odds(eng, test="lines", line="elephant_line") == ({"removed": F(1, 3), "stays": F(2, 3)}, {})
    # a formed infantry unit: 1 stays, 2-4 one square, 5-6 two; Stubborn: stays on 5-6 first
    assert _odds(eng, test="push_back", unit="a") == ({"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}, {})
    assert _odds(eng, test="command_point_losses", fate="killed", points=2) == (
        {"0": F(1, 4), "1": F(1, 2), "2": F(1, 4)}, {"per_point": "1/2"})


#: house rules replacing a roll (``_house``): its id, its new text
LINES_2D6 = ("ga.roll.lines",
             "lines(line = skirmish_line) dice d1, d2 := if line_removed(line, d1 + d2 - 6) then removed else stays")
EAGLES_HARSH = ("ga.roll.lost-eagles", "lost_eagles(event) dice d1, d2 := eagle_result(event, d1 + d2 - 1)")
#: a General is killed on a double 1, else unharmed: the wound die never matters
RISK_DOUBLE_ONE = ("ga.roll.risk-to-general",
                   "risk_to_general(event) dice d1, d2, wound := if d1 + d2 == 2 then killed else unharmed")


def test_lines_on_2d6(tmp_path):
    sc = _alone(tmp_path)
    eng = engine(sc, [_house(tmp_path, *LINES_2D6)])
    # removed when 2D6 - 6 <= 4: a total of 10 or less, 33 ways in 36
    assert _odds(eng, test="lines") == ({"removed": F(33, 36), "stays": F(3, 36)}, {})


def test_a_replaced_roll_changes_odds_and_check_alike(tmp_path):
    """The harsher Lost Eagles roll (1 off the total): a Routed Legion's 7
    (4+3) loses its Eagle, where the shipped roll (2-6 Eagle lost, 7-8
    Centurion Casualties) gives Centurion Casualties: `odds` and `check`
    both say so."""
    sc = _alone(tmp_path)
    h = _house(tmp_path, *EAGLES_HARSH)
    assert _odds(engine(sc), test="lost_eagles", event="routed_from_combat")[0] == {
        "centurion_casualties": F(11, 36), "eagle_lost": F(15, 36), "no_effect": F(10, 36)}
    assert _odds(engine(sc, [h]), test="lost_eagles", event="routed_from_combat")[0] == {
        "centurion_casualties": F(9, 36), "eagle_lost": F(21, 36), "no_effect": F(6, 36)}
    sc2 = board(tmp_path, d={"characteristics": ["legion"]}, name="seven")
    entry = fight(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [1, 1]},
                  rout={"d": 1}, eagles={"d": [4, 3]})
    events = [e for e in run(sc2, [entry])[1][0]["events"] if "Lost Eagles Test (" in e]
    assert events == ["d Lost Eagles Test (routed_from_combat) 4+3: centurion_casualties"]
    events = [e for e in run(sc2, [entry], [h])[1][0]["events"] if "Lost Eagles Test (" in e]
    assert events == ["d Lost Eagles Test (routed_from_combat) 4+3: eagle_lost"]


def test_a_roll_whose_first_dice_decide_it_asks_no_more(tmp_path):
    """Risk to Generals with the wound die no longer mattering: `check`
    asks no wound die (the roll is decided by the 2D6), `odds` agrees."""
    h = _house(tmp_path, *RISK_DOUBLE_ONE)
    entry = dict(_wounded(1)[0])
    del entry["wound"]
    _, log = run(_general(tmp_path, "shipped"), [entry])
    assert "gen is injured: give the 1D6 as `wound: {d: N}`" in log[0]["unresolved"]
    _, log = run(_general(tmp_path, "house"), [entry], [h])
    assert "gen is unharmed (1+2 against disordered)" in log[0]["events"]
    assert not any("wound" in u for u in log[0]["unresolved"])  # (its follow up still wants a die)
    entry["general"] = {"d": [1, 1]}
    _, log = run(_general(tmp_path, "killed"), [entry], [h])
    assert "gen is killed (1+1)" in log[0]["events"]
    sc = _alone(tmp_path)
    assert _odds(engine(sc, [h]), test="risk_to_general", event="disordered")[0] == {
        "killed": F(1, 36), "unharmed": F(35, 36)}


def test_a_stubborn_house_roll_changes_check(tmp_path):
    """The Stubborn die read through the pack's roll: a house rule where a
    Stubborn unit holds on anything but a 1 keeps d in place on a 2."""
    h = _house(tmp_path, "ga.roll.stubborn", "stubborn dice d := if d >= 2 then stays else pushed_back")
    sc = board(tmp_path, d={"characteristics": ["stubborn"]}, name="stub")
    entry = fight(dice=(6, 3, 3), stubborn={"d": 2}, push_back={"d": 3}, discipline={"d": [6, 6]})
    shipped = run(sc, [entry])[1][0]["events"]
    held = run(sc, [entry], [h])[1][0]["events"]
    assert "d is Stubborn and holds (2)" not in shipped
    assert "d is Stubborn and holds (2)" in held
    sc2 = _alone(tmp_path, name="o")
    assert _odds(engine(sc2, [h]), test="stubborn")[0] == {"pushed_back": F(1, 6), "stays": F(5, 6)}


# ---- what a house-rule author is told --------------------------------------

def test_replacing_a_roll_that_does_not_exist(tmp_path):
    h = _house(tmp_path, "ga.roll.line", "lines(line) dice d := stays")
    _, problems = lint([str(h)], base="grid-ancients")
    assert [(p.message, p.location.line, p.location.column, p.hint) for p in problems] == [
        ("replace roll ga.roll.line: there is no such roll to replace", 3, 1, "did you mean ga.roll.lines?")]
    with pytest.raises(WarcouncilError) as e:
        engine(scenario(tmp_path, [unit("a", "red", (2, 3), "north")]), [h])
    assert (e.value.message, e.value.location.line, e.value.location.column) == (
        "replace roll ga.roll.line: there is no such roll to replace", 3, 1)


def test_the_command_line_says_so_at_the_place(tmp_path):
    """Lint exits 1, a verb exits 2, each with the problem at its place and
    no traceback; with the roll replaced, `odds` answers by it."""
    h = _house(tmp_path, "ga.roll.line", "lines(line) dice d := stays")
    test = write(tmp_path, "lines.yaml", {"test": "lines"})
    head = f"{h}:3:1: replace roll ga.roll.line: there is no such roll to replace"
    code, out, err = run_cli("lint", "--over", "grid-ancients", h)
    assert (code, (out + err).split("\n")[0]) == (1, head)
    code, out, err = run_cli("odds", "alesia", test, "--rules", h)
    assert (code, out, err.split("\n")[0]) == (2, "", head)
    assert "Traceback" not in err
    code, out, _ = run_cli("odds", "alesia", test, "--rules", _house(tmp_path, *LINES_2D6, name="twod6"), "--json")
    assert (code, json.loads(out)["outcomes"]) == (0, {"removed": "11/12", "stays": "1/12"})


def test_a_roll_declared_again_and_one_renamed(tmp_path):
    h = house(tmp_path, 'roll ga.roll.lines\n    from house "A house rule for the tests."\n'
                        '    lines(line) dice d := stays\n')
    _, problems = lint([str(h)], base="grid-ancients")
    assert [(p.message.split(" is already")[0], p.location.line, p.hint) for p in problems] == [
        ("roll ga.roll.lines", 3, "write `replace roll` to change it in a house rule")]
    h = _house(tmp_path, "ga.roll.lines", "lines dice d := stays", name="renamed")
    _, problems = lint([str(h)], base="grid-ancients")
    assert [(p.message, p.location.line) for p in problems] == [
        ("replace roll ga.roll.lines: the engine asks it as lines(line), not lines()", 3)]


def test_removing_a_table_a_roll_reads_is_refused(tmp_path):
    h = house(tmp_path, "remove define ga.lines-outcome\n")
    _, problems = lint([str(h)], base="grid-ancients")
    assert [(p.message, p.location.line, p.location.column) for p in problems] == [
        ("remove define ga.lines-outcome: line_removed is still used by ga.roll.lines", 3, 1)]


def test_a_roll_body_names_are_checked(tmp_path):
    h = _house(tmp_path, "ga.roll.lines", "lines(line) dice d := if line_removd(line, d) then removed else stays")
    _, problems = lint([str(h)], base="grid-ancients")
    assert [(p.message, p.location.line, p.location.column, p.hint) for p in problems] == [
        ("unknown function 'line_removd'", 5, 30, "did you mean 'line_removed'?")]


# ---- the dice of a move and of Bring Back: check reads the rolls odds reads --

#: a natural 1 on the movement die counts as a 2 (no failed activation)
MOVEMENT_NO_ONE = ("ga.roll.movement", "movement(unit, attack_points = 0, charge = false, reroll = false) dice d1, d2 := "
                   "movement_gives(unit, charged(charge, attack_points), if d1 == 1 then 2 else d1, attack_points)")


def test_a_house_movement_roll_changes_odds_and_check_alike(tmp_path):
    """The movement die read through the roll `movement` (one try of it, on
    the turn file's die): a 1 no longer fails, in `odds` and in `check`."""
    sc, h = _alone(tmp_path), _house(tmp_path, *MOVEMENT_NO_ONE, "movement")
    assert _odds(engine(sc), test="movement", unit="a") == (
        {"failed": F(1, 6), "1": F(1, 3), "2": F(1, 3), "3": F(1, 6)}, {})
    assert _odds(engine(sc, [h]), test="movement", unit="a") == ({"1": F(1, 2), "2": F(1, 3), "3": F(1, 6)}, {})
    entry = {"unit": "a", "option": "move", "roll": 1}
    assert run(sc, [entry])[1][0]["movement_points"] == "failed"
    assert run(sc, [entry], [h])[1][0]["movement_points"] == 1


def test_a_house_movement_roll_changes_the_games_re_roll_offer(tmp_path):
    """A house roll where a Movement Point may re-roll any movement die (its
    `reroll` reads the second die whatever the first gave): `odds` with a
    re-roll is then the law of one die, and the game offers the re-roll of
    a 5, which the shipped roll (a failed roll only) does not."""
    from warcouncil import load_game
    from warcouncil.kernel.game import CHANCE

    h = _house(tmp_path, "ga.roll.movement",
               "movement(unit, attack_points = 0, charge = false, reroll = false) dice d1, d2 := "
               "movement_gives(unit, charged(charge, attack_points), if reroll then d2 else d1, attack_points)", "any")
    sc = _alone(tmp_path)
    assert _odds(engine(sc), test="movement", unit="a", reroll=True)[0] == {
        "failed": F(1, 36), "1": F(7, 18), "2": F(7, 18), "3": F(7, 36)}
    assert _odds(engine(sc, [h]), test="movement", unit="a", reroll=True)[0] == {
        "failed": F(1, 6), "1": F(1, 3), "2": F(1, 3), "3": F(1, 6)}
    offers = []
    for rules in ((), (h,)):
        state = load_game("alesia", list(rules)).new_state(choices=True)
        state.apply({"kind": "activate", "unit": "r4", "option": "move"})
        assert state.current_player() == CHANCE
        state.apply({"kind": "dice", "face": 5})
        offers.append(sorted({a["kind"] for a in state.legal_actions()}))
    assert offers == [["halt", "step"], ["keep", "reroll"]]


def test_a_house_manoeuvre_roll_changes_odds_and_check_alike(tmp_path):
    """Each step's Manoeuvre Test read through the roll `manoeuvre` (its
    kind and ground the step's): passing on 3 or more, a drift on a 3
    passes and the move goes on."""
    sc = _alone(tmp_path)
    h = _house(tmp_path, "ga.roll.manoeuvre",
               "manoeuvre(unit, kind = forward, rough = false) dice d := if d >= 3 then pass else fail", "manoeuvre")
    test = {"test": "manoeuvre", "unit": "a", "manoeuvre": "drift_left"}
    assert _odds(engine(sc), **test) == ({"pass": F(1, 2), "fail": F(1, 2)}, {"modifier": 0, "rerolls": 0})
    assert _odds(engine(sc, [h]), **test) == ({"pass": F(2, 3), "fail": F(1, 3)}, {"modifier": 0, "rerolls": 0})
    entry = {"unit": "a", "option": "move", "roll": 6, "steps": [{"do": "drift_left", "test": 3}, "forward"]}
    broken, log = run(sc, [entry])
    assert (broken, log[0]["positions"], log[0]["reversal"]) == (
        ["ga.failed-manoeuvre-stops"], {"a": {"at": [2, 2], "facing": "north", "disordered": False}}, True)
    broken, log = run(sc, [entry], [h])
    assert (broken, log[0]["positions"], log[0]["reversal"]) == (
        [], {"a": {"at": [1, 2], "facing": "north", "disordered": False}}, False)


def test_a_house_discipline_roll_changes_the_feared_zone_test_as_odds(tmp_path):
    """The Discipline Test to enter a Cause Fear unit's zone read through
    the roll `discipline`: passing on 4 or more, a 1+3 enters it."""
    sc = scenario(tmp_path, [unit("a", "red", (2, 4), "north"),
                             unit("e", "blue", (3, 2), "south", characteristics=["cause_fear"])])
    h = _house(tmp_path, "ga.roll.discipline",
               "discipline(unit, modifier = 0, dr_plus = 0) dice d1, d2 := if d1 + d2 >= 4 then pass else fail", "fear")
    assert _odds(engine(sc), test="discipline", unit="a")[0] == {"pass": F(7, 12), "fail": F(1, 3), "critical": F(1, 12)}
    assert _odds(engine(sc, [h]), test="discipline", unit="a")[0] == {"pass": F(11, 12), "fail": F(1, 12)}
    entry = {"unit": "a", "option": "move", "roll": 3, "steps": [{"do": "forward", "fear": [1, 3]}]}
    broken, log = run(sc, [entry])
    assert (broken, "positions" in log[0]) == (["ga.cause-fear-test"], False)
    broken, log = run(sc, [entry], [h])
    assert (broken, log[0]["positions"]) == ([], {"a": {"at": [2, 3], "facing": "north", "disordered": False}})


def test_a_house_return_roll_changes_odds_and_check_alike(tmp_path):
    """Bring Back read through the roll `off_table_return`: returning on a
    total of 5 or more, a 2+3 brings the unit back, and is no Reversal of
    Fortune (the pack's `returned`, the roll's answer)."""
    sc = scenario(tmp_path, [unit("o", "red", (2, 1), "north", off_table=True), unit("d", "blue", (3, 4), "south")])
    h = _house(tmp_path, "ga.roll.off-table-return",
               'off_table_return(unit) dice d1, d2 := if d1 + d2 >= 5 then "returns" else remains', "back")
    assert _odds(engine(sc), test="off_table_return", unit="o") == ({"remains": F(5, 12), "returns": F(7, 12)}, {})
    assert _odds(engine(sc, [h]), test="off_table_return", unit="o") == ({"remains": F(1, 6), "returns": F(5, 6)}, {})
    entry = {"bring_back": "o", "test": [2, 3]}
    _, log = run(sc, [entry])
    assert (log[0]["test"], "positions" in log[0], log[0]["reversal"]) == ("fail", False, True)
    _, log = run(sc, [entry], [h])
    assert (log[0]["test"], log[0]["positions"], log[0]["reversal"]) == (
        "fail", {"o": {"at": [2, 1], "facing": "north", "disordered": False}}, False)


def test_a_house_roll_that_reads_a_die_the_turn_file_does_not_give(tmp_path):
    """The turn file gives one movement die per try: a house roll that
    reads the second die without a re-roll is bad input at the roll."""
    h = _house(tmp_path, "ga.roll.movement", "movement(unit, attack_points = 0, charge = false, reroll = false) "
               "dice d1, d2 := movement_gives(unit, charged(charge, attack_points), d2, attack_points)", "second")
    with pytest.raises(WarcouncilError) as e:
        run(_alone(tmp_path), [{"unit": "a", "option": "move", "roll": 4}], [h])
    assert (e.value.message, e.value.location.line) == (
        "roll ga.roll.movement rolls 2 dice (d1, d2), but a turn file gives 1 for a try of it", 3)


def test_a_house_push_back_roll_changes_odds_and_check_alike(tmp_path):
    """The Push Back die read through the roll `push_back` (its Stubborn
    die read before it, by the roll `stubborn`): every push back two
    squares, a 1 no longer leaves d where it stands."""
    h = _house(tmp_path, "ga.roll.push-back",
               "push_back(unit, stubborn = true) dice distance, hold := if not pushable(unit) then 0 "
               "else if stubborn and stubborn_unit_holds(unit, hold) then stays else 2", "push")
    sc = _alone(tmp_path)
    assert _odds(engine(sc), test="push_back", unit="a") == ({"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}, {})
    assert _odds(engine(sc, [h]), test="push_back", unit="a") == ({"2": F(1)}, {})
    sc2 = board(tmp_path, name="push")
    entry = fight(dice=(6, 3, 3), push_back={"d": 1}, discipline={"d": [6, 6]})
    _, log = run(sc2, [entry])
    assert (log[0]["events"][1], "positions" in log[0]) == ("d does not move back (a 1)", False)
    _, log = run(sc2, [entry], [h])
    assert (log[0]["events"][1], log[0]["positions"]) == (
        "d is Pushed Back 2 squares", {"d": {"at": [3, 0], "facing": "south", "disordered": False}})


def test_a_roll_that_runs_out_of_steps_is_named(tmp_path, monkeypatch):
    """The evaluation budget's message names the roll whose body ran out of
    steps, not the statement written before it."""
    from warcouncil.kernel import evaluate

    monkeypatch.setattr(evaluate, "STEP_BUDGET", 100)
    h = _house(tmp_path, "ga.roll.lines", "lines(line) dice d := if (forall a in pieces: forall b in pieces: "
                                          "forall c in pieces: a != b or c == c) then stays else removed", "loops")
    test = write(tmp_path, "lines.yaml", {"test": "lines"})
    code, out, err = run_cli("odds", "alesia", test, "--rules", h)
    assert (code, out) == (2, "")
    assert err.startswith(f"{h}:5:51: "), err
    assert "evaluation stopped: roll ga.roll.lines takes more than 100 steps" in err
