"""The game interface's kernel half (``kernel/game.py``) on a toy turn: one
side chooses a number of coins, the coins are tossed (a chance node), the
turn ends. Undo, clone, serialising and the nodes are the kernel's alone."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

import pytest

import warcouncil
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.game import (CHANCE, TERMINAL, TERMINAL_NODE, Game, IllegalAction, Turn, chance,
                                    decision)


class Coins(Turn):
    options = ("most",)

    def start(self):
        return ()  # the actions so far

    def node(self, position):
        if not position:
            return decision("red", [{"kind": "coins", "n": n, "text": f"toss {n}"}
                                    for n in range(1, self.chosen.get("most", 2) + 1)])
        if len(position) == 1:
            n = position[0]["n"]
            return chance([({"kind": "dice", "heads": h, "text": f"{h} heads"}, Fraction(_choose(n, h), 2 ** n))
                           for h in range(n + 1)])
        return TERMINAL_NODE

    def play(self, position, action):
        if action["kind"] == "coins" and not 1 <= action.get("n", 0) <= self.chosen.get("most", 2):
            raise IllegalAction(f"cannot toss {action.get('n')}", [{"rule": "toy.coins"}])
        return position + (action,)

    def worded(self, position, action):
        return {**action, "text": action.get("text") or f"toss {action['n']}"}

    def log(self, position):
        return {"coins": position[0]["n"] if position else None,
                "heads": position[1]["heads"] if len(position) > 1 else None}

    def scenario_after(self, position):
        return {"heads": self.log(position)["heads"]}


def _choose(n, k):
    from math import comb
    return comb(n, k)


def game():
    engine = SimpleNamespace(system=SimpleNamespace(game=Coins, title="Toy", name="toy"))
    return Game(engine, "toy")


def test_a_turn_played_through_its_nodes():
    state = game().new_state()
    assert state.current_player() == "red"
    assert [a["n"] for a in state.legal_actions()] == [1, 2]
    state.apply({"kind": "coins", "n": 2})
    assert state.history() == [{"kind": "coins", "n": 2, "text": "toss 2"}]
    assert state.current_player() == CHANCE
    assert [(a["heads"], p) for a, p in state.chance_outcomes()] == [
        (0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4))]
    state.apply({"kind": "dice", "heads": 1})
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.log() == {"coins": 2, "heads": 1}
    assert state.scenario_after() == {"heads": 1}
    with pytest.raises(IllegalAction, match="the turn is over"):
        state.apply({"kind": "coins", "n": 1})


def test_an_illegal_action_carries_its_violations_and_changes_nothing():
    state = game().new_state()
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "coins", "n": 3})
    assert isinstance(e.value, ValueError) and e.value.violations == [{"rule": "toy.coins"}]
    assert state.to_json() == before
    state.apply({"kind": "coins", "n": 1})
    with pytest.raises(IllegalAction, match="no outcome"):
        state.apply({"kind": "dice", "heads": 2})
    with pytest.raises(IllegalAction, match="a dict with a 'kind'"):
        state.apply("heads")


def test_undo_clone_and_json():
    g = game()
    state = g.new_state(most=3)
    state.apply({"kind": "coins", "n": 3})
    saved = state.to_json()
    assert saved == {"scenario": "toy", "rules": [], "options": {"most": 3},
                     "actions": [{"kind": "coins", "n": 3, "text": "toss 3"}]}
    copy = state.clone()
    state.apply({"kind": "dice", "heads": 3})
    assert copy.current_player() == CHANCE and copy.to_json() == saved
    state.undo()
    assert state.to_json() == saved
    again = g.state_from_json(saved)
    assert again.to_json() == saved and again.current_player() == CHANCE
    state.undo()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        state.undo()


def test_unknown_options_and_systems_without_a_game():
    with pytest.raises(WarcouncilError, match="no option 'card'"):
        game().new_state(card="x")
    engine = SimpleNamespace(system=SimpleNamespace(game=None, title="Toy", name="toy"))
    with pytest.raises(WarcouncilError, match="has no game interface"):
        Game(engine, "toy")


def test_the_package_exports_the_interface():
    assert warcouncil.CHANCE == CHANCE and warcouncil.TERMINAL == TERMINAL
    assert warcouncil.IllegalAction is IllegalAction
    assert callable(warcouncil.load_game)
