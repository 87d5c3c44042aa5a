"""warcouncil as an OpenSpiel game (``warcouncil/openspiel.py``, the optional
extra ``warcouncil[openspiel]``): OpenSpiel's own random simulations and one
``MCTSBot`` step on every shipped scenario whose system has a game, and the
returns a user's ``objective`` define gives (0 without one)."""

from __future__ import annotations

import os
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'warcouncil[openspiel]'")

import numpy as np  # noqa: E402  (OpenSpiel's own dependency)
from open_spiel.python.algorithms import mcts  # noqa: E402

import warcouncil  # noqa: E402
import warcouncil.openspiel  # noqa: E402, F401  (registers the game)
from warcouncil.errors import WarcouncilError  # noqa: E402
from warcouncil.kernel.engine import Engine  # noqa: E402
from warcouncil.kernel.scenario import shipped_scenarios  # noqa: E402
from warcouncil.kernel.system import System  # noqa: E402

EXAMPLES = Path(warcouncil.__file__).parent / "examples"
#: Warmaster's move generator in the simulations, in cm (coarse: quick)
COARSE = 40.0


def _with_a_game() -> list[tuple[str, str]]:
    """(shipped name, file) of every shipped scenario whose system has a game."""
    out = []
    for name, file in sorted(shipped_scenarios().items()):
        if "/" in name:
            continue
        system = yaml.safe_load(Path(str(file)).read_text(encoding="utf-8"))["system"]
        if System.for_pack(system).game is not None:
            out.append((name, str(file)))
    return out


SCENARIOS = _with_a_game()


def _params(scenario: str, **more) -> dict:
    """The game's parameters: ``scenario``, a coarse Warmaster generator."""
    params = {"scenario": scenario, **more}
    if "resolution" in warcouncil.load_game(scenario).turn_class.options:
        params.setdefault("resolution", COARSE)
    return params


def _rules(tmp_path: Path, text: str, name: str = "house.wc") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _index(state, action: dict) -> int:
    """The index of the listed action having ``action``'s fields."""
    hits = [i for i, a in enumerate(state.state.legal_actions()) if all(a.get(k) == v for k, v in action.items())]
    assert len(hits) == 1, (action, hits)
    return hits[0]


def test_the_shipped_scenarios_with_a_game():
    grid = ["alesia"] if System.for_pack("grid-ancients").game is not None else []  # (once its game lands)
    assert [n for n, _ in SCENARIOS] == sorted(["akragas", "practice_field", "ridgeway"] + grid)


# ------------------------------------------------------------ OpenSpiel's own tools


#: an objective every family's scenarios answer: ten per own unit, one per enemy unit
COUNT = """define house.objective
    from house "ten per own unit, one per enemy unit"
    objective(s) := 10 * count(units) + count(enemy_units)
"""


@pytest.mark.parametrize("name,file", SCENARIOS)
def test_openspiels_random_simulations(name, file, tmp_path):
    house = _rules(tmp_path, COUNT)
    game = pyspiel.load_game("warcouncil", _params(name, rules=house))
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    sides = game.sides
    sc = game.game.engine.scenario
    assert game.num_players() == len(sc.sides) and sides[0] == sc.to_move and set(sides) == set(sc.sides)
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)
    # one more, seeded: its returns are the objective on the scenario after, read from its file
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(actions[rng.randint(len(actions))])
    path = tmp_path / "after.yaml"
    path.write_text(yaml.safe_dump(state.state.scenario_after()), encoding="utf-8")
    after = Engine.load(str(path), [house])
    assert state.returns() == [after.side_value("objective", side) for side in sides]


@pytest.mark.parametrize("name,file", SCENARIOS)
def test_one_mcts_step(name, file):
    game = pyspiel.load_game("warcouncil", _params(file))  # (a scenario given by its path)
    rng = np.random.RandomState(7)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])
    before = state.history()
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=4, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    action = bot.step(state)
    assert state.history() == before  # the bot searched clones
    assert action in state.legal_actions()
    text = state.action_to_string(state.current_player(), action)
    assert text == state.state.legal_actions()[action]["text"]
    state.apply_action(action)
    assert state.history() == before + [action]


# ------------------------------------------------------------ the states


def test_actions_are_indices_of_the_listed_actions_and_chance_keeps_fractions():
    game = pyspiel.load_game("warcouncil", {"scenario": "ridgeway", "resolution": COARSE})
    state = game.new_initial_state()
    assert state.current_player() == 0 and game.sides == ["red", "blue"]
    listed = state.state.legal_actions()
    assert state.legal_actions() == list(range(len(listed)))
    assert [state.action_to_string(0, i) for i in range(len(listed))] == [a["text"] for a in listed]
    state.apply_action(_index(state, {"kind": "attempt", "by": "hero", "units": ["r2"]}))
    assert state.is_chance_node()
    exact = state.exact_chance_outcomes()
    assert exact == [(i, p) for i, (_, p) in enumerate(state.state.chance_outcomes())]
    assert sum(p for _, p in exact) == 1 and exact[0][1] == Fraction(1, 36)
    assert state.chance_outcomes() == [(i, float(p)) for i, p in exact]
    clone = state.clone()
    clone.apply_action(0)
    assert not clone.is_chance_node() or clone.history() != state.history()
    assert state.is_chance_node() and len(state.history()) == 1
    with pytest.raises(WarcouncilError, match="^no action 99 at this node: it has 11$"):
        state.apply_action(99)


def test_a_node_beyond_max_actions_is_refused():
    game = pyspiel.load_game("warcouncil", {"scenario": "akragas", "max_actions": 50})
    assert game.num_distinct_actions() == 50
    with pytest.raises(WarcouncilError) as e:
        game.new_initial_state().legal_actions()
    assert e.value.message == "this node has 55 actions, more than max_actions=50"
    assert e.value.hint == "load the game with a larger max_actions"


def test_family_options_and_bad_parameters():
    game = pyspiel.load_game("warcouncil", {"scenario": "akragas", "card": "Order Three Units Center"})
    assert game.game.turn_class.options == ("card",) and game.options == {"card": "Order Three Units Center"}
    assert game.new_initial_state().state.log() == {"card": "Order Three Units Center"}
    # a family's option given to a family without it is not passed on
    assert pyspiel.load_game("warcouncil", {"scenario": "akragas", "resolution": 5.0}).options == {}
    with pytest.raises(WarcouncilError, match="unknown scenario 'nowhere'"):
        pyspiel.load_game("warcouncil", {"scenario": "nowhere"})


# ------------------------------------------------------------ the returns

#: the side's units within 3 hexes of an enemy unit
NEAR = """define house.objective
    from house "the side's units within 3 hexes of an enemy unit"
    objective(s) := count({u in units where exists e in enemy_units: distance(u.at, e.at) <= 3})
"""


def _scripted_cc_turn(game):
    state = game.new_initial_state()
    for action in ({"kind": "order_set", "units": ["s4", "s11"], "leaders": ["daphnaeus"]},
                   {"kind": "move", "piece": "daphnaeus", "to": [6, 5]},
                   {"kind": "move", "piece": "s11", "to": [6, 4]},
                   {"kind": "move", "piece": "s4", "to": [5, 6]},
                   {"kind": "battle", "piece": "s11", "target": "c5"},
                   {"kind": "end"}):
        assert not state.is_terminal() and state.returns() == [0.0, 0.0]
        state.apply_action(_index(state, action))
    assert state.is_terminal()
    return state


def test_returns_are_the_objective_after_the_turn(tmp_path):
    house = _rules(tmp_path, NEAR)
    game = pyspiel.load_game("warcouncil", {"scenario": "akragas", "rules": house,
                                            "card": "Order Three Units Center"})
    assert game.sides == ["syracusan", "carthaginian"]
    before = Engine.load("akragas", [house])
    assert [before.side_value("objective", s) for s in game.sides] == [0, 0]
    state = _scripted_cc_turn(game)
    # s11 moved from 6,6 to 6,4: 3 hexes from c4, c5, c6, c10 and c11 (4 or more before);
    # s4 at 5,6 is 4 hexes from c10, its nearest; no other unit moved
    assert state.returns() == [1.0, 5.0]
    assert state.player_return(1) == 5.0
    # the same as the scenario after the turn, written and loaded as a file, answers
    path = tmp_path / "next.yaml"
    path.write_text(yaml.safe_dump(state.state.scenario_after()), encoding="utf-8")
    after = Engine.load(str(path), [house])
    assert [after.side_value("objective", s) for s in game.sides] == [1, 5]


def test_returns_are_0_without_an_objective():
    state = _scripted_cc_turn(pyspiel.load_game("warcouncil", {"scenario": "akragas",
                                                               "card": "Order Three Units Center"}))
    assert state.returns() == [0.0, 0.0]


def test_several_rule_files_and_an_objective_per_side(tmp_path):
    each = _rules(tmp_path, 'define house.objective objective(s) := if s.name == "syracusan" then 7 else -3\n')
    cavalry = str(EXAMPLES / "house" / "light-cavalry-5.wc")
    game = pyspiel.load_game("warcouncil", {"scenario": "akragas", "rules": os.pathsep.join([cavalry, each]),
                                            "card": "Order Three Units Center"})
    assert game.rules == [cavalry, each]
    assert game.game.engine.pack.units["light_cavalry"].attrs  # (the cavalry rule is loaded)
    assert _scripted_cc_turn(game).returns() == [7.0, -3.0]


def test_warmaster_returns_read_the_table_after_the_command_phase(tmp_path):
    house = _rules(tmp_path, """define house.objective
    from house "ten per own unit in contact with an enemy unit, one per own unit"
    objective(s) := 10 * count({u in units where exists e in enemy_units: touching(u, e)}) + count(units)
""")
    game = pyspiel.load_game("warcouncil", {"scenario": "ridgeway", "rules": house, "resolution": COARSE})
    state = game.game.new_state(resolution=COARSE)
    before = game.objective(state)
    for a in ({"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50]}, {"kind": "end"}):
        state.apply(a)
    # red's 6 units and blue's 3; r1 charged b1 (at 30,52) and touches it
    assert before == [6.0, 3.0]
    assert game.objective(state) == [16.0, 13.0]


@pytest.mark.parametrize("body,message", [
    ("objective(s, t) := 1", "objective must take 1 argument (a side), not 2"),
    ("objective(s) := s.name", "objective(syracusan) is 'syracusan', not a number"),
])
def test_a_bad_objective_is_bad_input(tmp_path, body, message):
    house = _rules(tmp_path, f"define house.objective {body}\n")
    game = pyspiel.load_game("warcouncil", {"scenario": "akragas", "rules": house,
                                            "card": "Order Three Units Center"})
    with pytest.raises(WarcouncilError) as e:
        _scripted_cc_turn(game).returns()
    assert e.value.message == message and e.value.location.file == house
