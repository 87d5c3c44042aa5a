"""Square-grid ancients: what an outcome changes is the pack's data. The
engine knows the effects (`at_risk`, `flees`, `loses_lines`, `setback`,
`lost_eagles`, `disorder`, `face_about`, `retire`, `removed`:
``aftermath.EFFECTS``, each its own meaning once), and the pack's `outcome_effect(test, r, e)`
(`ga.outcome-effects`, rules/grid-ancients/55-aftermath.wc) says how many
times outcome r of a test (discipline, reform, halted) takes each. So a
house rule that gives an outcome another effect, or takes one away, changes
what `check` reports: one case per effect."""

from __future__ import annotations

from gridkit import house, scenario, unit
from test_grid_aftermath import _general, at, board, cards, fight, run
from warcouncil.dsl.pack import load_pack
from warcouncil.systems.grid.aftermath import EFFECTS

#: d, pushed back one square (a 3), fails its Discipline Test (1+2 against 7)
FAIL = dict(dice=(6, 3, 3), push_back={"d": 3}, discipline={"d": [1, 2]})
DISORDERED = [fight(**FAIL, outcome={"d": [5, 5]})]  # 10: Disordered
RETIRING = [fight(**{**FAIL, "push_back": {"d": 1}}, outcome={"d": [3, 3]})]  # 6: Retiring, not pushed (a 1)


def _change(tmp_path, when: str, value: str):
    """A house rule giving `outcome_effect` the value ``value`` when ``when``."""
    return [house(tmp_path, f"change define ga.outcome-effects\n    from house \"A house rule for the tests.\"\n"
                            f"    when {when} := {value}\n")]


def test_the_effects_are_the_packs_values():
    pack = load_pack("grid-ancients")
    assert tuple(pack.values["outcome_effect"]) == EFFECTS
    assert pack.hooks["outcome_effect"].params == ("test", "r", "e")


def test_a_house_rule_that_routs_every_failed_unit(tmp_path):
    sc = board(tmp_path)
    assert at(run(sc, DISORDERED)[1], "d") == ((3, 1), "south", True)
    h = house(tmp_path, 'replace define ga.outcome-effects\n    from house "A house rule for the tests."\n'
                        '    outcome_effect(test, r, e) := if e == removed then 1 else 0\n')
    _, log = run(sc, DISORDERED, [h])
    assert at(log, "d") == "removed" and "d routs: removed from play" in log[0]["events"]
    assert cards(log, "blue") == (1, 1)  # the push's Setback Card, the rout's Disaster Card


def test_removed(tmp_path):
    _, log = run(board(tmp_path), DISORDERED, _change(tmp_path, "r == disordered and e == removed", "1"))
    assert at(log, "d") == "removed" and "d routs: removed from play" in log[0]["events"]
    assert cards(log, "blue") == (2, 1)  # the push's and the outcome's Setback Cards, the rout's Disaster Card


#: d fails, routs (3) and rolls a 3 on its Rout die (one square, formed infantry)
ROUT = [fight(dice=(6, 3), push_back={"d": 1}, discipline={"d": [1, 2]}, outcome={"d": [1, 1]}, rout={"d": 3})]


def test_flees(tmp_path):
    f = unit("f", "blue", (1, 1), "east")  # its zone of control on d's way back
    fled = "d routs 1 square through the zone of control of f: each must make a Discipline Test"
    assert fled in run(board(tmp_path, f), ROUT)[1][0]["events"]
    _, log = run(board(tmp_path, f, name="f2"), ROUT, _change(tmp_path, "e == flees", "0"))
    assert fled not in log[0]["events"] and at(log, "d") == "removed"


def test_loses_lines(tmp_path):
    lines = {"attachments": ["skirmish_line"]}
    assert "d loses its attached skirmish_line" in run(board(tmp_path, d=lines), ROUT)[1][0]["events"]
    _, log = run(board(tmp_path, d=lines, name="l2"), ROUT, _change(tmp_path, "e == loses_lines", "0"))
    assert "d loses its attached skirmish_line" not in log[0]["events"] and at(log, "d") == "removed"


def test_at_risk(tmp_path):
    # not pushed (a 1), Disordered: its General is at risk on the outcome only
    seq = [fight(**{**FAIL, "push_back": {"d": 1}}, outcome={"d": [5, 5]})]
    assert run(_general(tmp_path, "g"), seq)[1][0]["unresolved"] == [
        "gen is at risk (d: disordered): give the 2D6 as `general: {d: [A, B]}`"]
    _, log = run(_general(tmp_path, "g2"), seq, _change(tmp_path, "e == at_risk", "0"))
    assert "unresolved" not in log[0] and at(log, "d") == ((3, 2), "south", True)


def test_setback(tmp_path):
    assert cards(run(board(tmp_path), DISORDERED)[1], "blue") == (2, 0)
    _, log = run(board(tmp_path, name="s2"), DISORDERED, _change(tmp_path, "e == setback", "2"))
    assert cards(log, "blue") == (3, 0) and "blue collects 2 setback cards (d disordered)" in log[0]["events"]


def test_lost_eagles(tmp_path):
    legion = {"characteristics": ["legion"]}
    assert "d (a Roman Legion) makes a Lost Eagles Test" not in run(board(tmp_path, d=legion), DISORDERED)[1][0]["events"]
    _, log = run(board(tmp_path, d=legion, name="l2"), DISORDERED,
                 _change(tmp_path, "r == disordered and e == lost_eagles", "1"))
    assert "d (a Roman Legion) makes a Lost Eagles Test" in log[0]["events"]
    assert log[0]["unresolved"][0] == "d makes a Lost Eagles Test: give its 2D6 as `eagles: {d: [A, B]}`"


def test_disorder(tmp_path):
    _, log = run(board(tmp_path), DISORDERED, _change(tmp_path, "e == disorder", "0"))
    assert at(log, "d") == ((3, 1), "south", False) and cards(log, "blue") == (2, 0)


def test_face_about(tmp_path):
    _, log = run(board(tmp_path), DISORDERED, _change(tmp_path, "r == disordered and e == face_about", "1"))
    assert at(log, "d") == ((2, 1), "north", True) and "d faces away from the enemy" in log[0]["events"]


def test_retire(tmp_path):
    assert at(run(board(tmp_path), RETIRING)[1], "d") == ((2, 2), "north", True)  # faces about, stays
    _, log = run(board(tmp_path, name="r2"), RETIRING, _change(tmp_path, "test == discipline and e == retire", "2"))
    assert at(log, "d") == ((2, 0), "north", True) and "d moves 2 squares" in log[0]["events"]


def test_a_failed_reform_disordered_changes_nothing_but_a_house_rule_may(tmp_path):
    """The Failed Reform Outcome Disordered changes nothing (the unit stays
    Disordered, no card); a house rule gives it a Setback Card."""
    units = [unit("r", "red", (2, 3), "north", disordered=True), unit("e", "blue", (3, 2), "south")]
    seq = [{"unit": "r", "option": "reform", "test": [1, 2], "outcome": {"r": [5, 5]}}]
    _, log = run(scenario(tmp_path, units), seq)
    assert cards(log, "red") == (0, 0) and at(log, "r") == ((2, 3), "north", True)
    _, log = run(scenario(tmp_path, units, name="h"), seq,
                 _change(tmp_path, "test == reform and r == disordered and e == setback", "1"))
    assert cards(log, "red") == (1, 0)


def test_a_phalanx_pushed_back_into_rough_ground_is_the_packs(tmp_path):
    """A Phalanx Pushed Back (or following up) into rough ground becomes
    Disordered as the pack's `phalanx_disorders` says, the define a move's
    steps read (ga.phalanx-rough): a house rule replacing it changes both."""
    sc = board(tmp_path, d={"characteristics": ["phalanx"]}, terrain=[((2, 1), "rough")])
    _, log = run(sc, [fight(push_back={"d": 3})])
    assert at(log, "d") == ((3, 1), "south", True)
    assert "d (Phalanx) moves into rough ground: Disordered" in log[0]["events"]
    h = house(tmp_path, 'replace define ga.phalanx-rough\n    from house "A house rule for the tests."\n'
                        '    phalanx_disorders(u, s) := false\n')
    _, log = run(sc, [fight(push_back={"d": 3})], [h])
    assert at(log, "d") == ((3, 1), "south", False)
