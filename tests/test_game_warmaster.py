"""Warmaster's Command phase through the game interface (systems/warmaster/
game.py): hand-checked nodes and a scripted turn on ridgeway, refusals with
their rule, blunders and home backs, and seeded random playouts on every
shipped Warmaster scenario, each state judged by `check` as the command
line judges it."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

import warcouncil
from conftest import playouts, run_cli
from warcouncil import CHANCE
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.game import IllegalAction
from warcouncil.kernel.scenario import read_yaml_file
from warcouncil.systems.warmaster.scenario import read_scenario

EXAMPLES = Path(warcouncil.__file__).parent / "examples" / "warmaster"
SCENARIOS = sorted(EXAMPLES.glob("*.yaml"))
SHIPPED_TURN = yaml.safe_load((EXAMPLES / "logs" / "turn.yaml").read_text())
#: the grid of the random playouts, in cm (coarse: quick)
COARSE = 40


def write(tmp_path: Path, data, stem: str) -> Path:
    """``data`` in a YAML file (written as JSON, which YAML reads: quicker)."""
    p = tmp_path / f"{stem}.yaml"
    p.write_text(json.dumps(data), encoding="utf-8")
    return p


def judged(engine, tmp_path: Path, log: dict) -> dict:
    """`check`'s answer to ``log`` (the engine's, as the command line asks it)."""
    return engine.answer("check", path=str(write(tmp_path, log, "log"))).data


def dice(state, roll: int) -> dict:
    return next(a for a, _ in state.chance_outcomes() if a["roll"] == roll)


# ---------------------------------------------------------------- the first node
def test_the_first_node_of_ridgeway():
    state = warcouncil.load_game("ridgeway").new_state()
    assert state.current_player() == "red" and not state.is_terminal()
    acts = state.legal_actions()
    kinds = [a["kind"] for a in acts]
    # the kinds in the sub-phases' order, then `end`, last
    assert kinds == sorted(kinds, key=["initiative", "home_back", "attempt", "character_move", "end"].index)
    assert {k: kinds.count(k) for k in set(kinds)} == {
        "initiative": 37, "home_back": 3, "attempt": 19, "character_move": 192, "end": 1}
    assert [(a["unit"], a["to"]) for a in acts if a["kind"] == "initiative" and a["action"] == "charge"] == [
        ("r1", [30, 50]), ("r2", [31.412, 50]), ("r3", [32.824, 50]), ("r5", [95, 68])]
    assert [(a["unit"], a["toward"]) for a in acts if a["kind"] == "home_back"] == [
        ("r5", "gen"), ("r5", "hero"), ("r5", "wiz")]
    assert acts[0] == {"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50],
                       "text": "r1 charges to 30,50 on initiative"}
    assert acts[-1] == {"kind": "end", "text": "end the Command phase"}


def test_the_attempts_are_the_orders_that_may_be_attempted():
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    code, out, _ = run_cli("orders", "ridgeway", "--json")
    assert code == 0
    options = json.loads(out)["options"]
    got = [a for a in state.legal_actions() if a["kind"] == "attempt"]
    assert [(a["by"], a["units"]) for a in got] == [(o["character"], o["units"]) for o in options]
    assert got[0]["text"] == "gen orders r1 (target 7, p 7/12)"


def test_the_resolution_bounds_the_generator():
    counts = {}
    for res in (10, 20, 40):
        acts = warcouncil.load_game("ridgeway").new_state(resolution=res).legal_actions()
        counts[res] = sum(a["kind"] == "character_move" for a in acts)
    # at 40 cm: each character's 8 points at most 60 cm away, less those off the table (gen, hero: 3
    # each; wiz: 3), in the lake (gen to 20,10) or on a unit (hero to 80,65 on b2)
    assert counts == {10: 192, 20: 48, 40: 11}
    with pytest.raises(WarcouncilError, match="resolution must be a positive number"):
        warcouncil.load_game("ridgeway").new_state(resolution=0)
    with pytest.raises(WarcouncilError, match="no option 'card'"):
        warcouncil.load_game("ridgeway").new_state(card="x")


def test_every_listed_action_of_the_first_node_is_accepted():
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    for a in state.legal_actions():
        copy = state.clone()
        copy.apply(a)
        assert copy.history() == [a]


# ---------------------------------------------------------------- a scripted turn
def test_the_shipped_turn_played_through_its_nodes(tmp_path):
    game = warcouncil.load_game("ridgeway")
    state = game.new_state(resolution=COARSE)
    script = [
        {"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50]},
        {"kind": "home_back", "unit": "r5", "toward": "wiz"}, {"kind": "dice", "roll": 3},
        {"kind": "move", "to": [[100, 60]]},
        {"kind": "attempt", "by": "hero", "units": ["r2"]}, {"kind": "dice", "roll": 6},
        {"kind": "move", "to": [[42, 40]]},
        {"kind": "attempt", "by": "hero", "units": ["r2"]}, {"kind": "dice", "roll": 9},
        {"kind": "attempt", "by": "wiz", "units": ["r6"]}, {"kind": "dice", "roll": 5},
        {"kind": "move", "to": [[60, 25]]},
        {"kind": "attempt", "by": "gen", "units": ["r3"]}, {"kind": "dice", "roll": 4},
        {"kind": "move", "to": [[54, 45]]},
        {"kind": "character_move", "piece": "hero", "to": [40, 38]},
    ]
    for a in script:
        state.apply(a)
    assert state.current_player() == "red"
    state.apply({"kind": "end"})
    assert state.is_terminal()
    assert state.log() == SHIPPED_TURN
    assert [a["text"] for a in state.history()] == [
        "r1 charges to 30,50 on initiative", "r5 homes back toward wiz", "home back D6: 3", "to 100,60",
        "hero orders r2", "rolled 6: the order is given", "r2 to 42,40",
        "hero orders r2", "rolled 9: the order fails",
        "wiz orders r6", "rolled 5: the order is given", "r6 to 60,25",
        "gen orders r3", "rolled 4: the order is given", "r3 to 54,45", "hero to 40,38", "end the Command phase"]
    code, out, _ = run_cli("check", "ridgeway", write(tmp_path, state.log(), "turn"), "--json")
    assert code == 0 and json.loads(out)["legal"] is True
    after = state.scenario_after()
    assert after["to_move"] == "blue"
    assert {u["id"]: (u["at"], u["facing"], u["formation"]) for u in after["units"]} == {
        "r1": ([30, 50], 0, "line"), "r2": ([42, 40], 0, "line"), "r3": ([54, 45], 0, "line"),
        "r4": ([80, 42], 0, "line"), "r5": ([100, 60], 0, "line"), "r6": ([60, 25], 0, "line"),
        "b1": ([30, 52], 180, "line"), "b2": ([85, 66], 180, "line"), "b3": ([10, 70], 180, "column")}
    assert {c["id"]: c["at"] for c in after["characters"]} == {
        "gen": [60, 10], "hero": [40, 38], "wiz": [75, 28], "bgen": [60, 75]}
    # the next turn: blue's, from the written scenario
    nxt = write(tmp_path, after, "next")
    assert warcouncil.load_game(str(nxt)).new_state(resolution=COARSE).current_player() == "blue"
    # next_scenario reads a turn file's data as YAML loads it
    assert state.turn.next_scenario(SHIPPED_TURN) == after


def test_a_log_ends_at_each_sub_phase(tmp_path):
    game = warcouncil.load_game("ridgeway")
    engine = Engine.load("ridgeway")
    steps = {"initiative": [{"kind": "initiative", "unit": "r1", "action": "evade", "to": [30, 25]}],
             "home_back": [{"kind": "home_back", "unit": "r5", "toward": "gen"}, {"kind": "dice", "roll": 6},
                           {"kind": "move", "to": [[90, 30]]}],
             "orders": [{"kind": "attempt", "by": "gen", "units": ["r6"]}, {"kind": "dice", "roll": 11}],
             "characters": [{"kind": "character_move", "piece": "wiz", "to": [75, 40]}]}
    for last in steps:
        state = game.new_state(resolution=COARSE)
        for a in steps[last]:
            state.apply(a)
        state.apply({"kind": "end"})
        assert list(state.log()) == [last] and judged(engine, tmp_path, state.log())["legal"] is True


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("script, action, rules", [
    ([], {"kind": "initiative", "unit": "r4", "action": "charge", "to": [80, 50]},
     ["wm.initiative-closest", "wm.initiative-at-start"]),
    ([], {"kind": "character_move", "piece": "hero", "to": [105, 25]}, ["wm.character-60cm"]),
    ([{"kind": "attempt", "by": "gen", "units": ["r1"]}, {"kind": "dice", "roll": 8}],
     {"kind": "attempt", "by": "hero", "units": ["r2"]}, ["wm.general-failure-stops-all"]),
    ([{"kind": "attempt", "by": "gen", "units": ["r1"]}, {"kind": "dice", "roll": 2}],
     {"kind": "move", "to": [[30, 70]]}, ["wm.one-move-per-order"]),
    ([{"kind": "character_move", "piece": "hero", "to": [40, 30]}],
     {"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50]}, ["wm.sub-phases"]),
    ([], {"kind": "home_back", "unit": "r1", "toward": "gen"}, ["wm.home-back-who", "wm.home-back-how"]),
])
def test_an_illegal_action_is_refused_with_its_rules(script, action, rules):
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    for a in script:
        state.apply(a)
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert [v["rule"] for v in e.value.violations] == rules
    assert set(e.value.violations[0]) >= {"rule", "pieces", "message", "source", "quote"}
    assert state.to_json() == before


def test_a_refusal_carries_the_violations_check_gives(tmp_path):
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    action = {"kind": "character_move", "piece": "hero", "to": [105, 25]}
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    code, out, _ = run_cli("check", "ridgeway", write(tmp_path, {"characters": [{"piece": "hero", "to": [105, 25]}]},
                                                       "turn"), "--json")
    assert code == 1 and e.value.violations == json.loads(out)["violations"]
    assert str(e.value) == "hero to 105,25: " + e.value.violations[0]["message"]


@pytest.mark.parametrize("script, action, message", [
    ([], {"kind": "battle"}, "unknown action kind 'battle' for Warmaster"),
    ([], {"kind": "character_move", "piece": "nobody", "to": [1, 1]}, "unknown piece id 'nobody'"),
    ([], {"kind": "attempt", "by": "hero"}, "an attempt gives 'by'"),
    ([{"kind": "attempt", "by": "gen", "units": ["r1"]}, {"kind": "dice", "roll": 2}], {"kind": "end"},
     "a end action is not taken here"),
    ([{"kind": "attempt", "by": "gen", "units": ["r1"]}], {"kind": "dice", "roll": 13}, "no outcome"),
])
def test_a_malformed_action_is_refused_without_violations(script, action, message):
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    for a in script:
        state.apply(a)
    with pytest.raises(IllegalAction, match=message) as e:
        state.apply(action)
    assert e.value.violations == []


# ---------------------------------------------------------------- dice
def test_an_order_roll_and_a_blunder(tmp_path):
    engine = Engine.load("ridgeway")
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    state.apply({"kind": "attempt", "by": "hero", "units": ["r1"]})
    assert state.current_player() == CHANCE and state.log() == {}
    outs = state.chance_outcomes()
    assert [(a["roll"], p) for a, p in outs] == [(t, Fraction(6 - abs(t - 7), 36)) for t in range(2, 13)]
    assert [a["text"] for a, _ in outs][5:] == [
        "rolled 7: the order is given", "rolled 8: the order fails", "rolled 9: the order fails",
        "rolled 10: the order fails", "rolled 11: the order fails", "rolled 12: a blunder"]
    state.apply(dice(state, 12))
    assert state.log() == {"orders": [{"by": "hero", "units": ["r1"], "roll": 12}]}
    assert [(a["text"], p) for a, p in state.chance_outcomes()] == [
        (f"blunder table D6: {d}", Fraction(1, 6)) for d in range(1, 7)]
    state.apply(dice(state, 1))
    # a 1: the penalty, nothing moves
    assert state.legal_actions() == [{"kind": "move", "to": None, "text": "r1 stays"}]
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "to": [[30, 30]]})
    assert [v["rule"] for v in e.value.violations] == ["wm.blunder-move"]
    state.apply({"kind": "move", "to": None})
    assert state.log() == {"orders": [{"by": "hero", "units": ["r1"], "roll": 12, "blunder": 1}]}
    assert judged(engine, tmp_path, state.log())["legal"] is True
    # the hero's failure stops him: no attempt of his is offered
    assert {a["by"] for a in state.legal_actions() if a["kind"] == "attempt"} == {"gen", "wiz"}


def test_a_blunder_moves_by_the_table(tmp_path):
    engine = Engine.load("ridgeway")
    state = warcouncil.load_game("ridgeway").new_state(resolution=5)
    for a in ({"kind": "attempt", "by": "hero", "units": ["r1"]}, {"kind": "dice", "roll": 12},
              {"kind": "dice", "roll": 4}):
        state.apply(a)
    # 4: up to half pace (10 cm), no charging
    tos = [a["to"] for a in state.legal_actions()]
    assert tos[0] is None and len(tos) > 1
    for to in tos[1:]:
        (x, y), = to
        assert (x - 30) ** 2 + (y - 35) ** 2 <= 10 ** 2
    state.apply(state.legal_actions()[1])
    assert state.log()["orders"][0]["blunder"] == 4
    assert judged(engine, tmp_path, state.log())["legal"] is True


def test_a_home_back(tmp_path):
    engine = Engine.load("ridgeway")
    state = warcouncil.load_game("ridgeway").new_state(resolution=10)
    state.apply({"kind": "home_back", "unit": "r5", "toward": "wiz"})
    assert state.current_player() == CHANCE and state.log() == {}
    state.apply(dice(state, 1))
    acts = state.legal_actions()
    # up to 10 cm, closer to the wizard at 75,28: the grid's points toward him
    # (and 10 cm straight toward him)
    assert [a["to"] for a in acts] == [[[105, 60]], [[95, 70]], [[99.188, 61.863]]]
    assert acts[0]["text"] == "to 105,60"
    state.apply({"kind": "move", "to": [95, 70]})  # (one destination: a position will do)
    assert state.log() == {"home_back": [{"unit": "r5", "toward": "wiz", "roll": 1, "to": [95, 70]}]}
    assert judged(engine, tmp_path, state.log())["legal"] is True


# ---------------------------------------------------------------- random playouts
def _pick(rnd: random.Random, state) -> dict:
    if state.current_player() == CHANCE:
        outs = state.chance_outcomes()
        return rnd.choices([a for a, _ in outs], [p for _, p in outs])[0]
    acts = state.legal_actions()
    assert acts, state.history()
    kinds = sorted({a["kind"] for a in acts})
    kind = rnd.choice(kinds)
    if kind == "end":  # (an end now and then: the phases after it are reached too)
        kind = rnd.choice(kinds)
    return rnd.choice([a for a in acts if a["kind"] == kind])


def _roll_node(state, engine, tmp_path):
    """At an order roll: P(given) is the `p` of `orders --after` the log."""
    attempt = state.history()[-1]
    opts = engine.answer("orders", after=str(write(tmp_path, state.log(), "after"))).data["options"]
    p = next(Fraction(o["p"]) for o in opts if o["character"] == attempt["by"] and o["units"] == attempt["units"])
    given = Fraction(0)
    for a, q in state.chance_outcomes():
        copy = state.clone()
        copy.apply(a)
        if judged(engine, tmp_path, copy.log())["orders"][-1]["given"]:
            given += q
    assert given == p


def _moved(scenario, log: dict) -> dict:
    """Where ``log`` leaves each piece, worked out from the log by hand."""
    at = {p.id: list(p.pose.at) for p in scenario.pieces}
    for m in log.get("initiative", []) + log.get("home_back", []):
        if "to" in m:
            at[m["unit"]] = list(m["to"])
    for m in log.get("orders", []):
        for u, to in zip(m["units"], m.get("to") or ()):
            at[u] = list(to)
    for m in log.get("characters", []):
        at[m["piece"]] = list(m["to"])
    return at


SEEDS = 28


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
@pytest.mark.parametrize("chunk", range(4))
def test_random_playouts(path, chunk, tmp_path):
    game = warcouncil.load_game(str(path))
    engine = Engine.load(str(path))
    seen: set = set()
    seeds = playouts(SEEDS)  # (WARCOUNCIL_PLAYOUTS times as many)
    for seed in range(chunk * seeds, (chunk + 1) * seeds):
        rnd = random.Random(seed)
        state = game.new_state(resolution=COARSE)
        while not state.is_terminal():
            assert judged(engine, tmp_path, state.log())["legal"] is True, state.history()
            before = state.to_json()
            if state.is_chance_node():
                assert sum(p for _, p in state.chance_outcomes()) == 1
                if state.history()[-1]["kind"] == "attempt" and seed % 2 == 0:
                    _roll_node(state, engine, tmp_path)
            else:
                for a in rnd.sample(state.legal_actions(), min(2, len(state.legal_actions()))):
                    copy = state.clone()
                    copy.apply(a)  # (every listed action is accepted)
                    assert state.to_json() == before  # (a clone is independent)
            action = _pick(rnd, state)
            seen.add(action["kind"] if action["kind"] != "dice" else f"dice:{action['text'].split(':')[-1].strip()}")
            copy = state.clone()
            state.apply(action)
            after = state.to_json()
            assert copy.to_json() == before
            state.undo()
            assert state.to_json() == before
            state.apply(action)
            assert state.to_json() == after
        log = state.log()
        assert judged(engine, tmp_path, log)["legal"] is True
        again = game.state_from_json(json.loads(json.dumps(state.to_json())))
        assert again.to_json() == state.to_json() and again.log() == log and again.is_terminal()
        nxt = read_scenario(read_yaml_file(write(tmp_path, state.scenario_after(), "next")), "next.yaml")
        moved = _moved(engine.scenario, log)
        assert {p.id: list(p.pose.at) for p in nxt.pieces} == moved
        assert {p.id: p.pose.facing for p in nxt.pieces} == {p.id: p.pose.facing for p in engine.scenario.pieces}
        assert nxt.to_move != engine.scenario.to_move
    # failed rolls and successes, and every kind of decision, are reached
    assert {"initiative", "home_back", "attempt", "character_move", "end", "move", "dice:the order is given",
            "dice:the order fails"} <= seen, seen


def test_applying_asks_only_who_is_to_act(monkeypatch):
    """``State.apply`` asks the turn who acts (``Turn.player``), not the
    decision's whole list: replaying a history lists no action."""
    from warcouncil.systems.warmaster.game import WarmasterTurn

    game = warcouncil.load_game("ridgeway")
    state = game.new_state(resolution=COARSE)
    for a in ({"kind": "initiative", "unit": "r1", "action": "charge", "to": [30, 50]},
              {"kind": "character_move", "piece": "hero", "to": [40, 38]}):
        state.apply(a)
    listed = []
    real = WarmasterTurn.step_actions
    monkeypatch.setattr(WarmasterTurn, "step_actions", lambda self, p, k: listed.append(p) or real(self, p, k))
    again = game.state_from_json(state.to_json())
    assert listed == [] and again.to_json() == state.to_json()
    assert again.current_player() == "red" and len(listed) == 1


def test_next_scenario_from_a_turn_files_data(tmp_path):
    """``next_scenario`` reads a turn as YAML loads it (one id for `units`,
    one position for `to`), leaves the pieces the turn left alone, and
    hands the move to the other side."""
    turn = yaml.safe_load("orders:\n  - {by: gen, units: r6, roll: 3, to: [60, 20]}\n"
                          "characters:\n  - {piece: wiz, to: [75, 40]}\n")
    engine = Engine.load("ridgeway")
    after = engine.system.game(engine).next_scenario(turn)  # (as `check --write-next` asks it)
    assert [u["at"] for u in after["units"] if u["id"] == "r6"] == [[60, 20]]
    assert [c["at"] for c in after["characters"] if c["id"] == "wiz"] == [[75, 40]]
    assert after["to_move"] == "blue" and after["name"] == "ridgeway" and after["sides"] == ["red", "blue"]
    again = read_scenario(read_yaml_file(write(tmp_path, after, "next")), "next.yaml")
    assert {p.id: p.pose.at for p in again.pieces} == {
        **{p.id: p.pose.at for p in Engine.load("ridgeway").scenario.pieces}, "r6": (60.0, 20.0), "wiz": (75.0, 40.0)}


def test_an_order_by_a_unit_or_to_the_enemy_is_refused():
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    with pytest.raises(IllegalAction, match="r1 is a unit, not a character"):
        state.apply({"kind": "attempt", "by": "r1", "units": ["r2"]})
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "attempt", "by": "gen", "units": ["b1"]})
    assert [v["rule"] for v in e.value.violations] == ["wm.own-units"]


# ---------------------------------------------------------------- the pieces of an action
def test_the_pieces_of_the_step_under_way():
    """A destination (`move`) and a die name no piece of their own: they
    concern the pieces the step under way moves (issue 27)."""
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    first = state.legal_actions()
    assert [state.pieces_of(a) for a in first if a["kind"] != "character_move"][:1] == [["r1"]]
    assert state.pieces_of(first[-1]) == []  # (the end)
    attempt = {"kind": "attempt", "by": "gen", "units": ["r1", "r2"]}
    assert state.pieces_of(attempt) == ["r1", "r2", "gen"]
    state.apply(attempt)
    assert [state.pieces_of(a) for a, _ in state.chance_outcomes()] == [["r1", "r2"]] * 11
    state.apply(dice(state, 2))
    moves = state.legal_actions()
    assert len(moves) > 1 and {a["kind"] for a in moves} == {"move"}
    assert [state.pieces_of(a) for a in moves] == [["r1", "r2"]] * len(moves)
    # a blunder's table die and its destinations: the hero's order
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    state.apply({"kind": "attempt", "by": "hero", "units": ["r1"]})
    state.apply(dice(state, 12))
    assert [state.pieces_of(a) for a, _ in state.chance_outcomes()] == [["r1"]] * 6
    state.apply(dice(state, 4))
    assert {tuple(state.pieces_of(a)) for a in state.legal_actions()} == {("r1",)}
    # a home back's D6 and destinations: the flyer's
    state = warcouncil.load_game("ridgeway").new_state(resolution=COARSE)
    state.apply({"kind": "home_back", "unit": "r5", "toward": "wiz"})
    assert [state.pieces_of(a) for a, _ in state.chance_outcomes()] == [["r5"]] * 6
    state.apply(dice(state, 3))
    moves = state.legal_actions()
    assert len(moves) > 1 and [state.pieces_of(a) for a in moves] == [["r5"]] * len(moves)
