"""The grid game's activation as a declared frame (`turn ga.activation for
activate`, rules/grid-ancients/60-activations.wc): one procedure walks its
steps in the pack's order for `check` (the dice from the turn file) and for
the game interface (the dice it still needs, offered as chance nodes), so a
house rule that drops or reorders a step changes both alike."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from warcouncil.cli import main
from warcouncil.dsl.pack import load_pack
from warcouncil.dsl.parser import parse_text
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.game import CHANCE, TurnSteps, frame_steps, load_game

STEPS = {
    "movement": "chance roll",
    "manoeuvres": "repeat steps, with, shot",
    "attack": "chance dice, choose, reserve, devotio",
    "defence": "chance defence",
    "aftermath": "repeat push_back, stubborn, stand_fast, discipline, outcome, rout, eagles, general, wound, "
                 "points_lost, homunculus, follow_up, stay, follow_oblique, devotio, reserve",
    "reform": "chance test, outcome, rout, eagles, general, wound, points_lost, homunculus",
    "attachments": "chance devotio, reserve, cohort",
}
CARDS = {"romans": {"setback": 0, "disaster": 0}, "gauls": {"setback": 0, "disaster": 0}}


def frame(tmp_path, names, more=""):
    """A house rule giving the activation's frame with the steps ``names``, in that order."""
    path = tmp_path / "frame.wc"
    path.write_text("replace turn ga.activation for activate\n    from house \"our club's frame\"\n"
                    + "".join(f"    step {n}: {STEPS[n]}\n" for n in names) + more, encoding="utf-8")
    return str(path)


def without(step):
    return [n for n in STEPS if n != step]


def check(game, entry):
    out, log = game.engine.check({"activations": [entry]})
    return [v.rule for v in out], log


def chances(state, actions):
    """Play ``actions`` (a die's face, or an action), the chance nodes' words met on the way."""
    words = []
    for a in actions:
        if isinstance(a, int):
            assert state.current_player() == CHANCE
            words.append(state.chance_outcomes()[0][0]["text"].rsplit(":", 1)[0])
            state.apply({"kind": "dice", "face": a})
        else:
            state.apply(a)
    return words


def node(state):
    """What the state asks now: the next die's words, or the first of the side's actions."""
    if state.current_player() == CHANCE:
        return "die: " + state.chance_outcomes()[0][0]["text"].rsplit(":", 1)[0]
    return f"{state.current_player()}: " + state.legal_actions()[0]["text"]


NEXT = "romans: formed infantry r1 at 4,5 moves"  # (the first activation listed: the last one is over)
R1_G1 = {"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"}


def test_the_pack_declares_the_frame_of_an_activation():
    pack = load_pack("grid-ancients")
    decl = pack.frames["activate"]
    assert decl.id == "ga.activation" and decl.frame == "activate"
    assert [(s.name, s.mode + " " + ", ".join(s.kinds)) for s in decl.steps] == list(STEPS.items())
    assert pack.source_of(decl)[1] == "Roll 1D6. Add any Modifiers. Check Movement table results."
    assert pack.turn.id == "ga.turn"  # (the phase's turn is another declaration)


def test_without_the_movement_step_a_move_rolls_no_die(tmp_path):
    # a house rule: no movement die, every unit has 2 Movement Points
    rules = frame(tmp_path, without("movement"),
                  "\nreplace define ga.movement-allowance\n    from house \"two squares\"\n"
                  "    allowance(u, o, n, ap) := 2\n")
    entry = {"unit": "r3", "option": "move", "steps": [{"do": "forward", "test": 6}]}
    game = load_game("alesia")
    with pytest.raises(WarcouncilError) as e:
        check(game, entry)
    assert e.value.message == "a move activation needs its movement die: `roll: N`"
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r3", "option": "move"})
    assert node(state) == "die: r3's Movement die"
    house = load_game("alesia", [rules])
    assert check(house, entry) == ([], [{
        "index": 0, "entry": "move", "legal": True, "unit": "r3",
        "positions": {"r3": {"at": [2, 4], "facing": "north", "disordered": False}}, "cards": CARDS,
        "reversal": False}])
    state = house.new_state()
    state.apply({"kind": "activate", "unit": "r3", "option": "move"})
    assert node(state) == "romans: r3 forward"


def test_without_the_manoeuvres_step_a_move_makes_no_steps(tmp_path):
    game, house = load_game("alesia"), load_game("alesia", [frame(tmp_path, without("manoeuvres"))])
    entry = {"unit": "r3", "option": "move", "roll": 4}
    assert check(game, {**entry, "steps": [{"do": "forward", "test": 6}]})[1][0]["positions"] == {
        "r3": {"at": [2, 4], "facing": "north", "disordered": False}}
    with pytest.raises(WarcouncilError) as e:
        check(house, {**entry, "steps": ["forward"]})
    assert e.value.message == "`steps`: no step of the activation's frame ga.activation reads it"
    assert check(house, entry) == ([], [{"index": 0, "entry": "move", "legal": True, "unit": "r3", "cards": CARDS,
                                         "movement_points": 2, "reversal": False}])
    for g, after in ((game, "romans: r3 forward"), (house, NEXT)):
        state = g.new_state()
        assert chances(state, [{"kind": "activate", "unit": "r3", "option": "move"}, 4]) == ["r3's Movement die"]
        assert node(state) == after


def test_without_the_attack_step_a_combat_rolls_no_dice(tmp_path):
    game, house = load_game("alesia"), load_game("alesia", [frame(tmp_path, without("attack"))])
    assert check(game, {"unit": "r1", "option": "combat", "target": "g1", "dice": [5, 5], "defence": [1]})[1][0][
        "result"] == "advance"
    with pytest.raises(WarcouncilError) as e:
        check(house, {"unit": "r1", "option": "combat", "target": "g1", "dice": [5, 5]})
    assert e.value.message == "`dice`: no step of the activation's frame ga.activation reads it"
    assert check(house, {"unit": "r1", "option": "combat", "target": "g1"}) == (
        [], [{"index": 0, "entry": "combat", "legal": True, "unit": "r1", "cards": CARDS, "reversal": False}])
    state = game.new_state()
    state.apply(R1_G1)
    assert node(state) == "die: r1's Combat dice (1 of 2)"
    state = house.new_state()
    state.apply(R1_G1)
    assert node(state) == NEXT


def test_without_the_defence_step_no_defence_die_cancels(tmp_path):
    game, house = load_game("alesia"), load_game("alesia", [frame(tmp_path, without("defence"))])
    entry = {"unit": "r1", "option": "combat", "target": "g1", "dice": [3, 3]}
    assert check(game, {**entry, "defence": [3]})[1][0]["result"] == "cancelled"
    with pytest.raises(WarcouncilError) as e:
        check(house, {**entry, "defence": [3]})
    assert e.value.message == "`defence`: no step of the activation's frame ga.activation reads it"
    assert check(house, entry) == ([], [{"index": 0, "entry": "combat", "legal": True, "unit": "r1",
                                         "ratings": [7, 5], "result": "stand", "cards": CARDS, "reversal": False}])
    state = game.new_state()
    assert chances(state, [R1_G1, 3, 3]) == ["r1's Combat dice (1 of 2)", "r1's Combat dice (2 of 2)"]
    assert node(state) == "die: g1's Defence dice"
    state = house.new_state()
    chances(state, [R1_G1, 3, 3])
    assert node(state) == NEXT


def test_without_the_aftermath_step_a_result_moves_nothing(tmp_path):
    game, house = load_game("alesia"), load_game("alesia", [frame(tmp_path, without("aftermath"))])
    entry = {"unit": "r1", "option": "combat", "target": "g1", "dice": [5, 5], "defence": [1]}
    assert check(game, {**entry, "push_back": {"g1": 3}, "discipline": {"g1": [6, 6]}})[1][0]["events"] == [
        "gauls collects 1 setback card (g1 Pushed Back)", "g2 (a supporting Warband) moves back with g1",
        "g1 is Pushed Back 1 square", "g1 Discipline Test 6+6: pass",
        "gauls removes one unseen setback card (a natural 12)"]
    with pytest.raises(WarcouncilError) as e:
        check(house, {**entry, "push_back": {"g1": 3}})
    assert e.value.message == "`push_back`: no step of the activation's frame ga.activation reads it"
    assert check(house, entry) == ([], [{"index": 0, "entry": "combat", "legal": True, "unit": "r1",
                                         "ratings": [7, 5], "result": "advance", "cards": CARDS, "reversal": False}])
    state = game.new_state()
    chances(state, [R1_G1, 5, 5, 1])
    assert node(state) == "die: g1's Push Back die"
    state = house.new_state()
    chances(state, [R1_G1, 5, 5, 1])
    assert node(state) == NEXT


def test_without_the_reform_step_a_reform_takes_no_test(tmp_path):
    game, house = load_game("alesia"), load_game("alesia", [frame(tmp_path, without("reform"))])
    assert check(game, {"unit": "r2", "option": "reform", "test": [6, 6]})[1][0]["test"] == "pass"
    with pytest.raises(WarcouncilError) as e:
        check(house, {"unit": "r2", "option": "reform", "test": [6, 6]})
    assert e.value.message == "`test`: no step of the activation's frame ga.activation reads it"
    assert check(house, {"unit": "r2", "option": "reform"}) == (
        [], [{"index": 0, "entry": "reform", "legal": True, "unit": "r2", "cards": CARDS, "reversal": False}])
    for g, after in ((game, "die: r2's Reform Test (1 of 2)"), (house, NEXT)):
        state = g.new_state()
        state.apply({"kind": "activate", "unit": "r2", "option": "reform"})
        assert node(state) == after


def test_the_attachments_step_dropped_or_moved(tmp_path):
    entry = {"unit": "r1", "option": "combat", "target": "g1", "reserve": "combat", "dice": [5, 5], "defence": [1]}
    game = load_game("alesia")
    assert check(game, {**entry, "cohort": 3})[1][0]["events"] == ["r1's Praetorian Cohort is removed (3)"]
    play = [{**R1_G1, "reserve": "combat"}, 5, 5, 1, 1, 1, 1, 1, 1, 1]
    assert chances(game.new_state(), play) == [
        "r1's Combat dice (1 of 2)", "r1's Combat dice (2 of 2)", "g1's Defence dice", "g1's Push Back die",
        "g1's Discipline Test (1 of 2)", "g1's Discipline Test (2 of 2)", "g1's Failed Discipline Outcome (1 of 2)",
        "g1's Failed Discipline Outcome (2 of 2)", "g1's Rout die"]
    dropped = load_game("alesia", [frame(tmp_path, without("attachments"))])
    with pytest.raises(WarcouncilError) as e:
        check(dropped, {**entry, "cohort": 3})
    assert e.value.message == "`cohort`: no step of the activation's frame ga.activation reads it"
    assert "events" not in check(dropped, entry)[1][0]
    state = dropped.new_state()
    chances(state, play)
    assert node(state) == NEXT  # (no Praetorian Cohort die after the Rout die)
    # moved before the Defence dice: the Cohort's die comes right after the attack dice
    moved = load_game("alesia", [frame(tmp_path, ["movement", "manoeuvres", "attack", "attachments", "defence",
                                                  "aftermath", "reform"])])
    assert chances(moved.new_state(), play[:4]) == [
        "r1's Combat dice (1 of 2)", "r1's Combat dice (2 of 2)", "r1's Praetorian Cohort die"]


def test_a_frame_is_declared_once_and_replaced_by_its_id(tmp_path):
    house = tmp_path / "h.wc"
    house.write_text("turn house.frame for activate\n    step movement: chance roll\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_pack("grid-ancients", [str(house)])
    assert e.value.message.startswith("turn house.frame: the pack's frame of activate is already ga.activation (")
    house.write_text("replace turn house.frame for activate\n    step movement: chance roll\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_pack("grid-ancients", [str(house)])
    assert e.value.message == "replace turn house.frame: there is no such frame of activate to replace"


def test_a_step_the_procedure_has_not_or_a_field_it_does_not_read_is_an_error_at_its_place(tmp_path):
    rules = frame(tmp_path, ["movement"], "    step charge: chance roll\n")
    with pytest.raises(WarcouncilError) as e:
        load_game("alesia", [rules])
    assert e.value.message == ("turn ga.activation: the Square-grid ancients game has no step charge in the frame "
                               "of activate")
    assert (e.value.location.line, e.value.hint) == (4, "its steps: " + ", ".join(STEPS))
    (tmp_path / "frame.wc").write_text("replace turn ga.activation for activate\n    from house \"x\"\n"
                                       "    step movement: chance roll, dice\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_game("alesia", [str(tmp_path / "frame.wc")])
    assert (e.value.message, e.value.location.line) == ("turn ga.activation: step movement reads no field dice", 3)


def test_a_frame_is_walked_in_its_order_until_a_step_stops_it():
    decl = parse_text("turn toy.frame for act\n    step a: chance x\n    step b: repeat y\n"
                      "    step c: chance z\n").statements[0]
    walked = []

    def step(name, stop=False):
        return lambda state: walked.append((name, state)) or stop

    frame = TurnSteps(decl)
    assert frame.walk({"a": step("a"), "b": step("b"), "c": step("c")}, 7) is None
    assert walked == [("a", 7), ("b", 7), ("c", 7)]
    walked.clear()
    assert frame.walk({"a": step("a"), "b": step("b", stop=True), "c": step("c")}, 8) == "b"
    assert walked == [("a", 8), ("b", 8)]


def test_a_field_no_step_of_the_frame_reads_is_bad_input_at_its_place():
    decl = parse_text("turn toy.frame for act\n    step a: chance x\n    step c: chance z\n").statements[0]
    frame, procedures = TurnSteps(decl), {"a": ("x",), "b": ("y",), "c": ("z", "w")}
    places = {"y": "at y", "w": "at w"}
    frame.check_read({"x": 1, "z": 2, "other": 3}, procedures, places.get)  # (a field no procedure reads: not its say)
    for entry, field in (({"x": 1, "y": 2}, "y"), ({"w": 1, "y": 2}, "w")):
        with pytest.raises(WarcouncilError) as e:
            frame.check_read(entry, procedures, places.get, "toy action")
        assert (e.value.message, e.value.location, e.value.hint) == (
            f"`{field}`: no step of the toy action's frame toy.frame reads it", f"at {field}",
            "its steps: a (x), c (z)")


def test_lint_names_a_frame_step_the_procedure_has_not(tmp_path):
    house = tmp_path / "h.wc"
    house.write_text("replace turn ga.activation for activate\n    step movement: chance roll\n"
                     "    step shooting: chance dice\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", str(house), "--over", "grid-ancients", "--json"])
    assert r.exit_code == 1, r.output
    assert json.loads(r.output)["errors"] == [{
        "file": str(house), "line": 3, "column": 5,
        "message": "turn ga.activation: the Square-grid ancients game has no step shooting in the frame of activate",
        "hint": "its steps: " + ", ".join(STEPS)}]


def test_frame_steps_checks_a_frame_against_the_procedure_it_is_given(tmp_path):
    pack = tmp_path / "toy"
    pack.mkdir()
    (pack / "00-pack.wc").write_text('pack toy "Toy"\nturn toy.frame for act\n    step a: chance x\n'
                                     '    step b: repeat y, z\n', encoding="utf-8")
    toy = load_pack(str(pack))
    steps = frame_steps(toy, "act", {"a": ("x",), "b": ("y", "z"), "c": ()}, "Toy")
    assert [s.name for s in steps.steps] == ["a", "b"] and steps.decl.id == "toy.frame"
    with pytest.raises(WarcouncilError) as e:
        frame_steps(toy, "act", {"a": ("x",), "b": ("y",)}, "Toy")
    assert (e.value.message, e.value.location.line, e.value.hint) == (
        "turn toy.frame: step b reads no field z", 4, "it reads: y")
    with pytest.raises(WarcouncilError) as e:
        frame_steps(toy, "move", {"a": ()}, "Toy")
    assert (e.value.message, e.value.hint) == ("the toy pack declares no frame of move (`turn ID for move step ...`)",
                                               "its steps: a")
