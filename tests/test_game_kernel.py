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


# ---------------------------------------------------------------- a turn declared in a pack (StepTurn)
from warcouncil.dsl.parser import parse_text  # noqa: E402
from warcouncil.kernel.game import StepTurn  # noqa: E402

TOY_TURN = """turn toy.turn
    step pick: decide pick "choose how many coins"
    step toss: chance toss
    step spend: repeat spend, save "spend or save coins"
    step brag: repeat brag
    step vote: decide vote
    step cheer: repeat cheer
"""


class Steps(StepTurn):
    """A toy turn over TOY_TURN: a position is (step index or None, the kinds played)."""

    kinds = frozenset({"pick", "toss", "spend", "save", "brag", "vote", "cheer"})

    def start(self):
        return (0, ())

    def at(self, position):
        return position[0]

    def mover(self, position):
        return "red"

    def applies(self, position, step):
        return step.name != "brag" or "save" not in position[1]  # (saving passes over the bragging)

    def step_actions(self, position, kinds):
        return [{"kind": k, "text": k} for k in kinds]

    def step_outcomes(self, position, kind):
        return [({"kind": "toss", "heads": h, "text": f"{h} heads"}, Fraction(1, 2)) for h in (0, 1)]

    def play(self, position, action):
        kind = action["kind"]
        if kind == "end":
            if not self.ends_at(position[0]):
                raise IllegalAction("not yet")
            return (None, position[1] + (kind,))
        at = self.enter(position[0], kind, position)
        return (self.settle((at, position[1] + (kind,)), at), position[1] + (kind,))

    def log(self, position):
        return {"played": list(position[1])}


def _stepped():
    pack = SimpleNamespace(turn=parse_text(TOY_TURN, "toy.wc").statements[0], name="toy",
                           source_of=lambda decl: ("toy.wc", ""))
    engine = SimpleNamespace(system=SimpleNamespace(game=Steps, title="Toy", name="toy"), pack=pack)
    return Game(engine, "toy").new_state()


def _kinds(state):
    return [a["kind"] for a in state.legal_actions()]


def test_the_kernel_walks_a_declared_turn():
    state = _stepped()
    assert _kinds(state) == ["pick"]
    state.apply({"kind": "pick"})
    assert state.current_player() == CHANCE and [p for _, p in state.chance_outcomes()] == [Fraction(1, 2)] * 2
    state.apply({"kind": "toss", "heads": 1})
    # a repeat step opens the next ones up to the first decide step; no end before it
    assert _kinds(state) == ["spend", "save", "brag", "vote"]
    state.apply({"kind": "spend"})
    state.apply({"kind": "spend"})
    assert _kinds(state) == ["spend", "save", "brag", "vote"]
    state.apply({"kind": "brag"})  # closes spending
    assert _kinds(state) == ["brag", "vote"]
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "spend"})
    assert e.value.message == "toy.turn: no spend now: the spend step is over"
    assert e.value.violations == [{"rule": "toy.turn", "pieces": [], "message": "the spend step is over",
                                   "source": "toy.wc", "quote": ""}]
    state.apply({"kind": "vote"})
    assert _kinds(state) == ["cheer", "end"]  # every step left repeats: the turn may end
    state.apply({"kind": "end"})
    assert state.is_terminal() and state.log() == {"played": ["pick", "toss", "spend", "spend", "brag", "vote", "end"]}


def test_a_step_not_yet_open_and_a_step_passed_over():
    state = _stepped()
    with pytest.raises(IllegalAction, match="^toy.turn: no vote now: the pick step comes first: choose how many coins$"):
        state.apply({"kind": "vote"})
    state.apply({"kind": "pick"})
    state.apply({"kind": "toss", "heads": 0})
    state.apply({"kind": "save"})
    assert _kinds(state) == ["spend", "save", "vote"]  # (saving passes over the bragging)
    with pytest.raises(IllegalAction, match="^toy.turn: no brag now: the brag step does not apply$"):
        state.apply({"kind": "brag"})
    state.apply({"kind": "vote"})
    assert _kinds(state) == ["cheer", "end"]
    with pytest.raises(IllegalAction, match="turn has no action of kind 'dance'"):
        state.apply({"kind": "dance"})
    with pytest.raises(IllegalAction, match="^toy.turn: no pick now: the pick step is over$"):
        state.apply({"kind": "pick"})


def test_past_a_decide_step_the_decide_step_comes_first():
    state = _stepped()
    for a in ({"kind": "pick"}, {"kind": "toss", "heads": 1}, {"kind": "spend"}):
        state.apply(a)
    with pytest.raises(IllegalAction, match="^toy.turn: no cheer now: the vote step comes first: vote$"):
        state.apply({"kind": "cheer"})
    with pytest.raises(IllegalAction, match="^not yet$"):
        state.apply({"kind": "end"})


# ---------------------------------------------------------------- a step under way (StepTurn.under_way) and roll
from warcouncil.kernel.game import TWO_D6, roll  # noqa: E402


def test_roll_is_one_die_or_the_total_of_two():
    one = roll("face", lambda f: f"die: {f}")
    assert one.player == CHANCE and one.outcomes == tuple(
        ({"kind": "dice", "face": f, "text": f"die: {f}"}, Fraction(1, 6)) for f in range(1, 7))
    two = roll("roll", str, dice=2)
    assert [(a["roll"], a["text"], p) for a, p in two.outcomes] == [
        (t, str(t), Fraction(w, 36)) for t, w in zip(range(2, 13), (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1))]
    assert TWO_D6 == {t: w for t, w in zip(range(2, 13), (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1))}


class Owing(Steps):
    """TOY_TURN where a spend is a step under way: its D6 (a chance node),
    then blue keeps or gives it, before it enters the log with both. A
    position is (step, the kinds played, the spend under way or None)."""

    asked: list = []  # what the kernel asked of the step under way, in order

    def start(self):
        return (0, (), None)

    def under_way(self, position):
        self.asked.append("under_way")
        owed = position[2]
        return None if owed is None else CHANCE if owed == () else "blue"

    def under_way_node(self, position):
        self.asked.append("under_way_node")
        owed = position[2]
        if owed is None:
            return None
        return roll("face", lambda f: f"spend die: {f}") if owed == () else decision(
            "blue", [{"kind": k, "text": f"{k} {owed[0]}"} for k in ("keep", "give")])

    def play(self, position, action):
        at, played, owed = position
        if owed == ():
            return (at, played, (action["face"],))
        if owed is not None:
            return (at, played + (f"spend {owed[0]} {action['kind']}",), None)
        after = super().play((at, played), action)
        return (after[0], played, ()) if action["kind"] == "spend" else (*after, None)


def test_a_step_under_way_asks_its_dice_then_its_choices_before_the_steps():
    pack = SimpleNamespace(turn=parse_text(TOY_TURN, "toy.wc").statements[0], name="toy",
                           source_of=lambda decl: ("toy.wc", ""))
    engine = SimpleNamespace(system=SimpleNamespace(game=Owing, title="Toy", name="toy"), pack=pack)
    state = Game(engine, "toy").new_state()
    for a in ({"kind": "pick"}, {"kind": "toss", "heads": 1}):
        state.apply(a)
    Owing.asked.clear()
    state.apply({"kind": "spend"})
    assert Owing.asked == ["under_way"]  # (apply asks only who acts: no node is listed)
    assert state.current_player() == CHANCE
    assert [(a["text"], p) for a, p in state.chance_outcomes()] == [(f"spend die: {f}", Fraction(1, 6))
                                                                     for f in range(1, 7)]
    state.apply({"kind": "dice", "face": 4})
    assert state.current_player() == "blue" and [a["text"] for a in state.legal_actions()] == ["keep 4", "give 4"]
    state.apply({"kind": "give"})
    assert state.current_player() == "red" and _kinds(state) == ["spend", "save", "brag", "vote"]
    assert state.log() == {"played": ["pick", "toss", "spend 4 give"]}
    state.undo()
    assert state.current_player() == "blue"


class Loud(Coins):
    def worded(self, position, action):
        return {**action, "text": "LOUD"}


def test_apply_words_only_an_action_given_without_words():
    engine = SimpleNamespace(system=SimpleNamespace(game=Loud, title="Toy", name="toy"))
    state = Game(engine, "toy").new_state()
    for given, kept in (({}, "LOUD"), ({"text": ""}, "LOUD"), ({"text": "mine"}, "mine")):
        state.apply({"kind": "coins", "n": 1, **given})
        assert state.history() == [{"kind": "coins", "n": 1, "text": kept}]
        state.undo()


def test_a_step_turn_decides_by_its_side_unless_the_family_says():
    pack = SimpleNamespace(turn=parse_text(TOY_TURN, "toy.wc").statements[0], name="toy",
                           source_of=lambda decl: ("toy.wc", ""))
    engine = SimpleNamespace(system=SimpleNamespace(game=Steps, title="Toy", name="toy"), pack=pack)

    class Sided(Steps):
        side = "green"
        mover = StepTurn.mover

    engine.system.game = Sided
    state = Game(engine, "toy").new_state()
    assert state.current_player() == "green" and state.turn.player(state.turn.start()) == "green"


def test_scenario_data_hands_the_turn_to_the_next_side(tmp_path):
    from warcouncil.kernel.game import scenario_data

    path = tmp_path / "s.yaml"
    path.write_text("name: s\nrules: house.wc\nsides: {red: {}, blue: {}, green: {}}\nto_move: red\n")
    sc = SimpleNamespace(path=str(path), sides={"red": {}, "blue": {}, "green": {}}, rules=("/abs/house.wc",))
    assert scenario_data(sc, "red") == {"name": "s", "rules": ["/abs/house.wc"],
                                        "sides": {"red": {}, "blue": {}, "green": {}}, "to_move": "blue"}
    assert scenario_data(sc, "green")["to_move"] == "red"
    alone = SimpleNamespace(path=str(path), sides={"red": {}}, rules=())
    assert scenario_data(alone, "red")["to_move"] == "red" and scenario_data(alone, "red")["rules"] == "house.wc"


# ---------------------------------------------------------------- what the families' turns share
class Walk(Turn):
    """A toy turn on a line of cells: red steps a piece to a free cell,
    swaps two, shoves one or calls one over; a position is where the
    pieces are, ((id, cell), ...)."""

    def start(self):
        return (("a", 0), ("b", 3), ("c", 9))

    def node(self, position):
        return decision("red", [
            {"kind": "step", "piece": "a", "to": 1, "text": "a to 1"},
            {"kind": "step", "piece": "a", "to": 2, "text": "a to 2, quickly"},
            {"kind": "step", "piece": "a", "to": 2, "text": "a to 2, slowly"},
            {"kind": "step", "piece": "b", "to": 2, "text": "b to 2"},
            {"kind": "shove", "piece": "a", "target": "b", "text": "a shoves b"},
            {"kind": "shove", "piece": "b", "target": "c"},  # (no words: its kind)
            {"kind": "swap", "pieces": ["a", "b"], "text": "a and b swap"},
            {"kind": "call", "piece": "b", "text": "b calls c over"},  # (moves c, yet concerns b alone)
            {"kind": "end", "text": "end"}])

    def moved_to(self, position, action):
        at = dict(position)
        if action["kind"] == "step":
            return [(action["piece"], action["to"])]
        if action["kind"] == "swap":
            a, b = action["pieces"]
            return [(a, at[b]), (b, at[a])]
        return [("c", 8)] if action["kind"] == "call" else []

    def play(self, position, action):
        if action["to"] in dict(position).values():
            raise IllegalAction(f"cell {action['to']} is taken")
        return tuple((p, action["to"] if p == action["piece"] else c) for p, c in position)


def _walk():
    engine = SimpleNamespace(system=SimpleNamespace(game=Walk, title="Toy", name="toy"))
    return Game(engine, "toy").new_state().turn


def test_the_legal_marks_of_a_selected_piece():
    turn = _walk()
    start = turn.start()
    to, targets = turn.legal_marks(start, "a")
    assert list(to.items()) == [(1, ["a to 1"]), (2, ["a to 2, quickly", "a to 2, slowly"]), (3, ["a and b swap"])]
    assert targets == {"b": ["a shoves b"]}
    assert turn.legal_marks(start, "b") == ({2: ["b to 2"], 0: ["a and b swap"]}, {"c": ["shove"]})
    # (the call moves c, but an action counts only for the pieces it concerns: b)
    assert turn.legal_marks(start, "c") == ({}, {})
    assert turn.legal_marks(start, None) == ({}, {})  # (no piece selected)
    only = decision("red", [{"kind": "step", "piece": "a", "to": 5, "text": "a to 5"}])
    assert turn.legal_marks(start, "a", only) == ({5: ["a to 5"]}, {})
    assert Turn.moved_to(turn, start, {"kind": "step", "piece": "a", "to": 1}) == []  # (by default none)


def test_tried_is_the_position_after_an_action_or_none():
    turn = _walk()
    start = turn.start()
    assert turn.tried(start, {"kind": "step", "piece": "a", "to": 1}) == (("a", 1), ("b", 3), ("c", 9))
    assert turn.tried(start, {"kind": "step", "piece": "a", "to": 3}) is None  # (b is there)
    assert turn.tried(start, {"kind": "step", "piece": "b", "to": 3}) is None


def test_pieces_of_reads_the_character_giving_an_order_or_moving():
    turn = _walk()
    assert turn.pieces_of({"kind": "attempt", "by": "gen", "units": ["r1", "r2"]}) == ["r1", "r2", "gen"]
    assert turn.pieces_of({"kind": "x", "unit": "u", "character": "hero", "by": "gen"}) == ["u", "gen", "hero"]
    assert turn.pieces_of({"kind": "x", "piece": "gen", "character": "gen"}) == ["gen"]  # (named once)
    assert turn.pieces_of({"kind": "x", "by": 7, "pieces": ["p", 3]}) == ["p"]


class Purse(Owing):
    """Owing, where the spend under way moves the purse."""

    def under_way_pieces(self, position):
        return [] if position[2] is None else ["purse"]


def test_an_action_naming_no_piece_concerns_the_pieces_of_the_step_under_way():
    pack = SimpleNamespace(turn=parse_text(TOY_TURN, "toy.wc").statements[0], name="toy",
                           source_of=lambda decl: ("toy.wc", ""))
    engine = SimpleNamespace(system=SimpleNamespace(game=Purse, title="Toy", name="toy"), pack=pack)
    state = Game(engine, "toy").new_state()
    assert state.pieces_of({"kind": "pick"}) == [] and state.pieces_of({"kind": "pick", "unit": "u"}) == ["u"]
    for a in ({"kind": "pick"}, {"kind": "toss", "heads": 1}, {"kind": "spend"}):
        state.apply(a)
    assert [state.pieces_of(a) for a, _ in state.chance_outcomes()] == [["purse"]] * 6
    state.apply({"kind": "dice", "face": 4})
    assert [state.pieces_of(a) for a in state.legal_actions()] == [["purse"], ["purse"]]
    assert state.pieces_of({"kind": "give", "unit": "beggar"}) == ["beggar"]  # (it names its own)
    state.apply({"kind": "give"})
    assert [state.pieces_of(a) for a in state.legal_actions()] == [[]] * 4  # (no step under way)
    assert StepTurn.under_way_pieces(state.turn, state.turn.start()) == []  # (by default none)
