"""The turn declared in a pack (``turn ID ... step NAME: MODE KIND ...``)
and walked by the kernel (``kernel/game.py``: ``StepTurn``): the shipped
C&C turn's steps, the language's checks of a turn, and house rules that
give the turn anew — the game offers and refuses exactly by the new steps,
and ``check`` agrees with it."""

from __future__ import annotations

import json

import pytest
import yaml
from click.testing import CliRunner

import warcouncil
from conftest import scenario_dict
from warcouncil.cli import main
from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import load_pack
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.game import IllegalAction

MFM = "Move-Fire-Move"
STEPS = [("card", "decide", ("card",)), ("dice", "chance", ("dice",)), ("orders", "decide", ("order_set",)),
         ("moves", "repeat", ("move",)), ("battles", "repeat", ("battle",)), ("second", "repeat", ("second_move",))]


def _steps(turn):
    return [(s.name, s.mode, s.kinds) for s in turn.steps]


@pytest.mark.parametrize("name", ["cca", "ccm"])
def test_the_core_declares_the_cc_turn_each_game_takes_it_under_its_id(name):
    pack = load_pack(name)
    assert pack.turn.id == f"{name}.turn"
    assert _steps(pack.turn) == STEPS
    source, quote = pack.source_of(pack.turn)
    assert (source, quote) == ("cca.md", "**Play one Command card** face up.")


def _mfm(tmp_path, rules=()):
    """li (light infantry) at [6,6] fires at t three hexes off after a move."""
    data = scenario_dict([("li", "red", "light_infantry", [6, 6]), ("t", "blue", "heavy_infantry", [6, 3])])
    p = tmp_path / "mfm.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return warcouncil.load_game(str(p), rules=[str(r) for r in rules]), p


NO_SECOND = """replace turn cca.turn
    from house "Our club plays Move-Fire-Move without the second move."
    step card: decide card
    step dice: chance dice
    step orders: decide order_set
    step moves: repeat move
    step battles: repeat battle
"""

ONE_MOVE = NO_SECOND.replace("step moves: repeat move", "step moves: decide move \"one piece moves\"")


def _to_battles(state):
    state.apply({"kind": "order_set", "units": ["li"], "leaders": []})
    state.apply({"kind": "move", "piece": "li", "to": [6, 5]})
    state.apply({"kind": "battle", "piece": "li", "target": "t"})


def test_the_shipped_turn_offers_second_moves_after_the_battles(tmp_path):
    game, _ = _mfm(tmp_path)
    state = game.new_state(card=MFM)
    _to_battles(state)
    # (the list main gave before the turn was declared: li's second moves from [6,5])
    assert [(a["kind"], a.get("to")) for a in state.legal_actions()] == [("second_move", c) for c in (
        [5, 3], [7, 3], [5, 4], [6, 4], [7, 4], [8, 4], [4, 5], [5, 5], [7, 5], [8, 5], [5, 6], [6, 6], [7, 6],
        [8, 6], [5, 7], [6, 7], [7, 7])] + [("end", None)]
    # the first battle closed the moving: a move now is refused by the turn, citing it
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "piece": "li", "to": [6, 6]})
    assert e.value.message == "cca.turn: no move now: the moves step is over"
    assert e.value.violations == [{"rule": "cca.turn", "pieces": [], "message": "the moves step is over",
                                   "source": "cca.md", "quote": "**Play one Command card** face up."}]


def test_a_house_turn_without_second_moves_is_played_and_checked_so(tmp_path):
    house = tmp_path / "no-second.wc"
    house.write_text(NO_SECOND, encoding="utf-8")
    game, scenario = _mfm(tmp_path, [house])
    state = game.new_state(card=MFM)
    _to_battles(state)
    assert state.legal_actions() == [{"kind": "end", "text": "end the turn"}]
    with pytest.raises(IllegalAction, match="has no action of kind 'second_move'"):
        state.apply({"kind": "second_move", "piece": "li", "to": [6, 6]})
    # check agrees: a turn file with a second move breaks the house turn, quoted
    turn = tmp_path / "turn.yaml"
    turn.write_text(yaml.safe_dump({"card": MFM, "orders": ["li"], "moves": [{"piece": "li", "to": [6, 5]}],
                                    "battles": [{"piece": "li", "target": "t"}],
                                    "second_moves": [{"piece": "li", "to": [6, 6]}]}), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(scenario), str(turn), "--rules", str(house), "--json"])
    assert r.exit_code == 1, r.output
    assert json.loads(r.output)["violations"] == [{
        "rule": "cca.turn", "pieces": ["li"], "message": "the turn has no step of second moves (second_moves: li)",
        "source": str(house), "quote": "Our club plays Move-Fire-Move without the second move."}]
    # without the house rule the same turn is legal
    r = CliRunner().invoke(main, ["check", str(scenario), str(turn), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["legal"] is True


def test_a_house_turn_with_one_move_closes_the_moving_after_it(tmp_path):
    house = tmp_path / "one-move.wc"
    house.write_text(ONE_MOVE, encoding="utf-8")
    data = scenario_dict([("li", "red", "light_infantry", [6, 6]), ("l2", "red", "light_infantry", [8, 6]),
                          ("t", "blue", "heavy_infantry", [6, 3])])
    scenario = tmp_path / "two.yaml"
    scenario.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    state = warcouncil.load_game(str(scenario), rules=[str(house)]).new_state(card=MFM)
    state.apply({"kind": "order_set", "units": ["li", "l2"], "leaders": []})
    state.apply({"kind": "move", "piece": "li", "to": [6, 5]})
    assert {a["kind"] for a in state.legal_actions()} == {"battle", "end"}
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "piece": "l2", "to": [8, 5]})
    assert e.value.message == "cca.turn: no move now: the moves step is over"
    # check: two moves break the house turn's one-move step
    turn = tmp_path / "turn.yaml"
    turn.write_text(yaml.safe_dump({"card": MFM, "orders": ["li", "l2"], "moves": [
        {"piece": "li", "to": [6, 5]}, {"piece": "l2", "to": [8, 5]}]}), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", str(scenario), str(turn), "--rules", str(house), "--json"])
    assert r.exit_code == 1, r.output
    assert [(v["rule"], v["pieces"], v["message"]) for v in json.loads(r.output)["violations"]] == [
        ("cca.turn", ["li", "l2"], "the moves step takes one action: one piece moves (moves: li, l2)")]


@pytest.mark.parametrize("text, message", [
    ("turn house.t\n    step a: decide card\n    step a: repeat move\n", "turn house.t: step a is named twice"),
    ("turn house.t\n    step a: decide card\n    step b: repeat card\n",
     "turn house.t: actions of kind card are in step a already"),
    ("turn house.t\n    step a: repeat move\n    step b: chance dice\n",
     "turn house.t: chance step b follows repeat step a"),
    ("turn house.t\n    step a: repeat end\n", "turn house.t: actions of kind end are in step the end already"),
])
def test_the_language_refuses_a_malformed_turn_at_its_place(tmp_path, text, message):
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "00-pack.wc").write_text('pack p "P"\n' + text, encoding="utf-8")
    _, problems = lint([str(pack)])
    assert [p.message for p in problems] == [message]
    assert problems[0].location.line in (3, 4)


def test_a_second_turn_and_a_replacement_of_no_turn_are_refused(tmp_path):
    house = tmp_path / "h.wc"
    house.write_text("turn house.turn\n    step a: decide card\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_pack("cca", [str(house)])
    assert e.value.message == f"turn house.turn: the pack's turn is already cca.turn ({_core()})"
    house.write_text("replace turn ccm.turn\n    step a: decide card\n", encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        load_pack("cca", [str(house)])
    assert e.value.message == "replace turn ccm.turn: there is no such turn to replace"
    assert (e.value.location.line, e.value.location.column) == (1, 1)


def _core():
    from warcouncil.dsl.pack import pack_files

    return next(str(f) for f in pack_files("core") if f.name == "00-core.wc")


def test_a_step_of_a_kind_the_family_does_not_play_is_an_error_at_its_place(tmp_path):
    house = tmp_path / "h.wc"
    house.write_text(NO_SECOND.replace("step battles: repeat battle", "step battles: repeat charge"), encoding="utf-8")
    game, _ = _mfm(tmp_path, [house])
    with pytest.raises(WarcouncilError) as e:
        game.new_state(card=MFM)
    assert e.value.message == ("turn cca.turn: step battles: the Commands & Colors game has no action "
                               "of kind charge")
    assert (e.value.location.file, e.value.location.line) == (str(house), 7)


# ---------------------------------------------------------------- Warmaster's sub-phases


def test_warmaster_declares_its_four_sub_phases_as_its_turn():
    pack = load_pack("warmaster")
    assert pack.turn.id == "wm.turn"
    assert _steps(pack.turn) == [("initiative", "repeat", ("initiative",)), ("home_back", "repeat", ("home_back",)),
                                 ("orders", "repeat", ("attempt",)), ("characters", "repeat", ("character_move",))]


def _kinds(state):
    return sorted({a["kind"] for a in state.legal_actions()})


HERO = {"kind": "character_move", "piece": "hero", "to": [40, 38]}
ORDER = [{"kind": "attempt", "by": "gen", "units": ["r3"]}, {"kind": "dice", "roll": 4}, {"kind": "move", "to": [[54, 45]]}]


def test_a_warmaster_character_move_closes_the_other_sub_phases():
    state = warcouncil.load_game("ridgeway").new_state(resolution=40)
    assert _kinds(state) == ["attempt", "character_move", "end", "home_back", "initiative"]
    state.apply(HERO)
    assert _kinds(state) == ["character_move", "end"]
    with pytest.raises(IllegalAction) as e:
        state.apply(ORDER[0])
    assert [v["rule"] for v in e.value.violations] == ["wm.sub-phases"]  # (check judges it first)


CHARACTERS_FIRST = """replace turn wm.turn
    from house "In our club characters move before the orders."
    step initiative: repeat initiative
    step home_back: repeat home_back
    step characters: repeat character_move
    step orders: repeat attempt
"""


def test_a_house_rule_moves_the_characters_before_the_orders(tmp_path):
    house = tmp_path / "characters-first.wc"
    house.write_text(CHARACTERS_FIRST, encoding="utf-8")
    state = warcouncil.load_game("ridgeway", rules=[str(house)]).new_state(resolution=40)
    state.apply(HERO)
    assert _kinds(state) == ["attempt", "character_move", "end"]
    for a in ORDER:
        state.apply(a)
    assert _kinds(state) == ["attempt", "end"]
    with pytest.raises(IllegalAction) as e:  # (the house order: orders close the characters' sub-phase)
        state.apply({"kind": "character_move", "piece": "hero", "to": [40, 30]})
    assert [v["rule"] for v in e.value.violations] == ["wm.sub-phases", "wm.character-move-once"]
    state.apply({"kind": "end"})
    log = state.log()
    assert log == {"characters": [{"piece": "hero", "to": [40, 38]}],
                   "orders": [{"by": "gen", "units": ["r3"], "roll": 4, "to": [[54, 45]]}]}
    turn = tmp_path / "turn.yaml"
    turn.write_text(yaml.safe_dump(log), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "ridgeway", str(turn), "--rules", str(house), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["legal"] is True, r.output
    r = CliRunner().invoke(main, ["check", "ridgeway", str(turn), "--json"])  # (the book's order: not so)
    assert r.exit_code == 1 and [v["rule"] for v in json.loads(r.output)["violations"]] == ["wm.sub-phases"]


def test_the_sub_phase_rule_reads_the_turn(tmp_path):
    # wm.sub-phases reads each entry's step from the pack's turn (turn_step):
    # the house turn alone reorders check too, and a sub-phase it drops is
    # refused by the game and by check (wm.sub-phase-in-turn)
    house = tmp_path / "characters-first.wc"
    house.write_text(CHARACTERS_FIRST, encoding="utf-8")
    state = warcouncil.load_game("ridgeway", rules=[str(house)]).new_state(resolution=40)
    for a in ORDER:
        state.apply(a)
    with pytest.raises(IllegalAction) as e:
        state.apply(HERO)
    assert e.value.message == "hero to 40,38: move of hero comes after an entry of a later sub-phase"
    assert [v["rule"] for v in e.value.violations] == ["wm.sub-phases"]
    no_home = tmp_path / "no-home-back.wc"
    no_home.write_text(CHARACTERS_FIRST.replace("    step home_back: repeat home_back\n", ""), encoding="utf-8")
    state = warcouncil.load_game("ridgeway", rules=[str(no_home)]).new_state(resolution=40)
    assert "home_back" not in _kinds(state)
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "home_back", "unit": "r5", "toward": "wiz"})
    assert e.value.violations[0]["rule"] == "wm.sub-phase-in-turn"
    turn = tmp_path / "turn.yaml"
    turn.write_text(yaml.safe_dump({"home_back": [{"unit": "r5", "toward": "wiz", "roll": 3, "to": [100, 60]}]}),
                    encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "ridgeway", str(turn), "--json"])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["check", "ridgeway", str(turn), "--rules", str(no_home), "--json"])
    assert r.exit_code == 1 and [(v["rule"], v["message"]) for v in json.loads(r.output)["violations"]] == [
        ("wm.sub-phase-in-turn", "home back of r5: the Command phase has no such sub-phase (the pack's turn)")]


# ---------------------------------------------------------------- the grid game's phase


def test_the_grid_phase_is_one_step_of_its_entries():
    pack = load_pack("grid-ancients")
    assert pack.turn.id == "ga.turn"
    assert _steps(pack.turn) == [("activations", "repeat",
                                  ("activate", "bring_back", "exchange", "reallocate", "homunculus_est"))]


CALL_FIRST = """replace turn ga.turn
    from house "We call Homunculus Est! before anything else in the phase, or not at all."
    step call: repeat homunculus_est "call “Homunculus Est!” first"
    step activations: repeat activate, bring_back, exchange, reallocate
"""

EXCHANGE = {"kind": "exchange", "exchange": {"movement": 2, "defence": 1}, "get": "attack"}
CALL = {"kind": "homunculus_est", "points": 5}


def _grid_check(tmp_path, entries, rules=()):
    turn = tmp_path / "turn.yaml"
    turn.write_text(yaml.safe_dump({"activations": entries}), encoding="utf-8")
    r = CliRunner().invoke(main, ["check", "alesia", str(turn), "--json", *[a for h in rules for a in ("--rules", h)]])
    return r.exit_code, json.loads(r.output)["violations"]


def test_a_house_turn_calls_homunculus_est_first_in_the_game_and_in_check(tmp_path):
    house = tmp_path / "call-first.wc"
    house.write_text(CALL_FIRST, encoding="utf-8")
    late = [{"exchange": {"movement": 2, "defence": 1}, "get": "attack"}, {"homunculus_est": {"points": 5}}]
    assert _grid_check(tmp_path, late) == (0, [])  # the book: any order
    code, vs = _grid_check(tmp_path, late, [str(house)])
    assert code == 1 and vs == [{"rule": "ga.turn", "pieces": [], "message": "entry 2, homunculus est: the call step is over",
                                 "source": str(house),
                                 "quote": "We call Homunculus Est! before anything else in the phase, or not at all."}]
    # called first: the house turn adds nothing to what the book's rules say
    assert _grid_check(tmp_path, late[::-1], [str(house)]) == _grid_check(tmp_path, late[::-1])
    state = warcouncil.load_game("alesia", rules=[str(house)]).new_state()
    state.apply(EXCHANGE)
    with pytest.raises(IllegalAction) as e:
        state.apply(CALL)
    assert [v["rule"] for v in e.value.violations] == ["ga.turn"]
    book = warcouncil.load_game("alesia").new_state()
    book.apply(EXCHANGE)
    book.apply(CALL)
    assert book.log()["activations"][-1] == {"homunculus_est": {"points": 5}}


def test_lint_names_a_step_of_a_kind_the_family_does_not_play(tmp_path):
    house = tmp_path / "h.wc"
    text = NO_SECOND.replace("step battles: repeat battle", "step battles: repeat charge")
    house.write_text("\n".join(line for line in text.splitlines() if "from house" not in line), encoding="utf-8")
    r = CliRunner().invoke(main, ["lint", str(house), "--over", "cca", "--json"])
    assert r.exit_code == 1, r.output
    assert json.loads(r.output)["errors"] == [{
        "file": str(house), "line": 6, "column": 5,
        "message": "turn cca.turn: step battles: the Commands & Colors game has no action of kind charge",
        "hint": "its kinds: battle, card, dice, move, order_set, second_move"}]
