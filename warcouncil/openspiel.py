"""warcouncil's turns as an OpenSpiel game (the optional extra ``warcouncil[openspiel]``).

    import pyspiel
    import warcouncil.openspiel                 # registers the game "warcouncil"
    game = pyspiel.load_game("warcouncil", {"scenario": "ridgeway", "rules": "house.wc",
                                            "resolution": 40.0})
    state = game.new_initial_state()            # the states of warcouncil.kernel.game, wrapped

One OpenSpiel game is one turn (C&C), Command phase (Warmaster) or phase
(grid) of a scenario: sequential, explicitly stochastic (dice are chance
nodes), general-sum, terminal rewards. Its parameters:

* ``scenario``: a shipped scenario's name or a scenario file's path;
* ``rules``: house rule files, separated by ``os.pathsep`` (``:`` on POSIX,
  ``;`` on Windows, as in ``PATH``); empty: none;
* ``card`` (C&C: the card played; empty: any card of the hand or deck) and
  ``resolution`` (Warmaster's move generator, in cm; 0: its default): the
  family's ``new_state`` options, given to the families that take them;
* ``max_actions``: ``num_distinct_actions`` and ``max_chance_outcomes``.

Players are the scenario's sides, numbered 0.. from the side to move, then
in the scenario's order (``WarcouncilGame.sides``). At a node, action ``i``
is the ``i``-th of ``legal_actions()`` (chance: of ``chance_outcomes()``,
with its probability as a float; ``WarcouncilState.exact_chance_outcomes``
keeps the Fractions); a node with more than ``max_actions`` of them is
refused (a ``WarcouncilError`` naming the bound). ``action_to_string`` is
the action's ``"text"``; ``WarcouncilState.state`` is the warcouncil state.

Returns: a user's ``define NAME objective(side) := ...`` in a house rule
file, a number (true/false: 1/0) for each side, read on the scenario after
the turn (``scenario_after()``, loaded with the game's rules) seen from that
side (``Engine.side_value``); 0 for every side without such a define.
"""

from __future__ import annotations

import os
from fractions import Fraction

import pyspiel

from .errors import WarcouncilError
from .kernel.engine import Engine
from .kernel.game import CHANCE, TERMINAL, load_game

#: the name of the define that gives the returns
OBJECTIVE = "objective"

_DEFAULTS = {"scenario": "akragas", "rules": "", "card": "", "resolution": 0.0, "max_actions": 10000}
#: a bound on a turn's length (OpenSpiel's ``max_game_length``)
MAX_GAME_LENGTH = 10000
#: a bound on an objective's value (OpenSpiel's utilities)
MAX_UTILITY = 1e9

_GAME_TYPE = pyspiel.GameType(
    short_name="warcouncil",
    long_name="warcouncil: one turn of a command-driven tabletop wargame",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=16,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS)


def rule_files(text: str) -> list[str]:
    """The house rule files of the ``rules`` parameter (``os.pathsep``-separated)."""
    return [f for f in text.split(os.pathsep) if f.strip()]


class WarcouncilGame(pyspiel.Game):
    """A scenario with its rules, as an OpenSpiel game."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.rules = rule_files(str(params["rules"]))
        self.game = load_game(str(params["scenario"]), self.rules)
        options = {}
        wanted = {"card": params["card"] or None, "resolution": params["resolution"] or None}
        for name in self.game.turn_class.options:
            if wanted.get(name) is not None:
                options[name] = wanted[name]
        self.options = options
        self.max_actions = int(params["max_actions"])
        sc = self.game.engine.scenario
        #: the sides by player id: the side to move first, then the others in the scenario's order
        self.sides = [sc.to_move] + [s for s in sc.sides if s != sc.to_move]
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=self.max_actions,
            max_chance_outcomes=self.max_actions,
            num_players=len(self.sides),
            min_utility=-MAX_UTILITY,
            max_utility=MAX_UTILITY,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH), params)

    def new_initial_state(self):
        return WarcouncilState(self, _Held(self, self.game.new_state(**self.options)))

    def objective(self, state) -> list[float]:
        """Each side's ``objective`` on the scenario after ``state`` (a
        warcouncil state), by player id; 0s without the define."""
        define = self.game.engine.pack.defines.get(OBJECTIVE)
        if define is None:
            return [0.0] * len(self.sides)
        file = getattr(self.game.engine.scenario, "path", None) or "<scenario after the turn>"
        after = Engine.load_data(state.scenario_after(), file, self.rules)
        out = []
        for side in self.sides:
            v = after.side_value(OBJECTIVE, side)
            if not isinstance(v, (int, float, Fraction)):
                raise WarcouncilError(f"{OBJECTIVE}({side}) is {v!r}, not a number", define.loc)
            out.append(float(v))
        return out


class _Held:
    """The game and the warcouncil state a ``WarcouncilState`` wraps:
    OpenSpiel clones a Python state by ``copy.deepcopy``, which this turns
    into ``clone()`` (the positions shared, the game and engine not copied)."""

    def __init__(self, game: WarcouncilGame, state) -> None:
        self.game = game
        self.state = state

    def __deepcopy__(self, memo) -> "_Held":
        return _Held(self.game, self.state.clone())


class WarcouncilState(pyspiel.State):
    """A warcouncil state as an OpenSpiel state."""

    def __init__(self, game: WarcouncilGame, held: _Held):
        super().__init__(game)
        self._held = held
        self._returns: list[float] | None = None

    @property
    def state(self):
        """The warcouncil state (``warcouncil.kernel.game.State``)."""
        return self._held.state

    def _game(self) -> WarcouncilGame:
        return self._held.game

    def current_player(self):
        player = self.state.current_player()
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return self._game().sides.index(player)

    def _bounded(self, items: list) -> list:
        bound = self._game().max_actions
        if len(items) > bound:
            raise WarcouncilError(f"this node has {len(items)} actions, more than max_actions={bound}",
                                  hint="load the game with a larger max_actions")
        return items

    def _legal_actions(self, player):
        return list(range(len(self._bounded(self.state.legal_actions()))))

    def chance_outcomes(self):
        return [(i, float(p)) for i, p in self.exact_chance_outcomes()]

    def exact_chance_outcomes(self) -> list[tuple[int, Fraction]]:
        """The chance outcomes by index, with their exact probabilities."""
        return [(i, p) for i, (_, p) in enumerate(self._bounded(self.state.chance_outcomes()))]

    def warcouncil_action(self, action: int) -> dict:
        """The warcouncil action of index ``action`` at this node."""
        if self.state.is_chance_node():
            listed = [a for a, _ in self.state.chance_outcomes()]
        else:
            listed = self.state.legal_actions()
        if not 0 <= action < len(listed):
            raise WarcouncilError(f"no action {action} at this node: it has {len(listed)}")
        return listed[action]

    def _apply_action(self, action):
        self.state.apply(self.warcouncil_action(action))
        self._returns = None

    def _action_to_string(self, player, action):
        return self.warcouncil_action(action).get("text") or str(action)

    def is_terminal(self):
        return self.state.is_terminal()

    def returns(self):
        if not self.state.is_terminal():
            return [0.0] * len(self._game().sides)
        if self._returns is None:
            self._returns = self._game().objective(self.state)
        return list(self._returns)

    def __str__(self):
        return str(self.state)


pyspiel.register_game(_GAME_TYPE, WarcouncilGame)
