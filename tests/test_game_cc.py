"""The Commands & Colors game interface (``systems/cc/game.py``): a turn as
card, roll, order set, moves, battles, end — every action judged by
``check``. Hand-checked answers on the shipped scenarios, a warrior's
compulsory charge, a side's ``hand``, and seeded random playouts of chained
turns on every shipped cca/ccm scenario."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import warcouncil
from warcouncil import CHANCE
from conftest import playouts
from warcouncil.cli import main
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.game import IllegalAction
from warcouncil.kernel.scenario import json_schema
from warcouncil.kernel.turn import load_turn, turn_from_data
from warcouncil.systems.cc import CommandsAndColors

EXAMPLES = Path(warcouncil.__file__).parent / "examples"
SHIPPED = sorted(p for pack in ("cca", "ccm") for p in (EXAMPLES / pack).glob("*.yaml"))
AKRAGAS = str(EXAMPLES / "cca" / "akragas.yaml")
PRACTICE = str(EXAMPLES / "ccm" / "practice_field.yaml")


def _kinds(actions):
    return [a["kind"] for a in actions]


def _cli(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    return r


def _variant(tmp_path, source, name, *subs):
    text = Path(source).read_text(encoding="utf-8")
    for old, new in subs:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------ the nodes


def test_the_first_node_offers_every_card_of_the_deck():
    game = warcouncil.load_game("akragas")
    state = game.new_state()
    assert state.current_player() == "syracusan"
    actions = state.legal_actions()
    deck = list(game.engine.pack.cards)
    assert len(deck) == 29 and len(actions) == 28 + 27  # Counter Attack: once per card it may copy
    assert actions[:2] == [{"kind": "card", "card": "Order Two Units Left", "text": "card: Order Two Units Left"},
                           {"kind": "card", "card": "Order Two Units Center", "text": "card: Order Two Units Center"}]
    copies = [a["copies"] for a in actions if a["card"] == "Counter Attack"]
    assert copies == [c for c in deck if c not in ("Counter Attack", "First Strike")]
    assert actions[20] == {"kind": "card", "card": "Counter Attack", "copies": "Order Two Units Left",
                           "text": "card: Counter Attack, copying Order Two Units Left"}
    # card= naming a card that copies: its node offers the copies only
    fixed = game.new_state(card="counter attack")
    assert fixed.legal_actions() == actions[20:47]
    fixed.apply(actions[20 + copies.index("I Am Spartacus")])
    assert fixed.current_player() == CHANCE and len(fixed.chance_outcomes()) == 210


def test_the_order_sets_are_those_orders_lists_in_its_order():
    state = warcouncil.load_game("akragas").new_state(card="order three units center")
    actions = state.legal_actions()
    listed = _cli("orders", "akragas", "--card", "Order Three Units Center", "--json")
    sets = json.loads(listed.stdout)["order_sets"]
    assert len(actions) == 26 and [{"units": a["units"], "leaders": a["leaders"]} for a in actions] == sets
    assert actions[-1]["text"] == "order s6, s11 and leader daphnaeus" and actions[0]["text"] == "order nothing"
    assert set(_kinds(actions)) == {"order_set"}


def test_a_roll_is_a_chance_node_with_the_probabilities_orders_gives():
    state = warcouncil.load_game("akragas").new_state(card="I Am Spartacus")
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    listed = json.loads(_cli("orders", "akragas", "--card", "I Am Spartacus", "--count", "--json").stdout)
    assert [(a["roll"], str(p)) for a, p in outcomes] == [(r["roll"], r["probability"]) for r in listed["rolls"]]
    assert len(outcomes) == 210 and sum(p for _, p in outcomes) == 1
    assert outcomes[0] == ({"kind": "dice", "roll": {"light": 6, "medium": 0, "heavy": 0, "helmet": 0},
                            "text": "roll: light×6"}, Fraction(1, 46656))
    roll = {"light": 1, "medium": 0, "heavy": 2, "helmet": 0}
    state.apply({"kind": "dice", "roll": roll})
    assert len(state.legal_actions()) == next(r["count"] for r in listed["rolls"] if r["roll"] == roll)
    assert state.log() == {"card": "I Am Spartacus", "roll": roll}


def test_moves_are_judged_on_the_board_the_earlier_moves_left():
    eng = Engine.load("akragas")
    state = warcouncil.load_game("akragas").new_state(card="Order Three Units Center")
    state.apply({"kind": "order_set", "units": ["s4", "s11"], "leaders": ["daphnaeus"]})
    first = state.legal_actions()
    # before any move: the `moves` verb's destinations (each piece as if it moved first)
    g = eng.ground("Order Three Units Center")
    _, dests = eng.destinations(g, ["s4", "s11", "daphnaeus"])
    assert [(a["piece"], tuple(a["to"])) for a in first if a["kind"] == "move"] == [
        (pid, c) for pid in ("s4", "s11", "daphnaeus") for c in dests[pid]]
    assert _kinds(first) == ["move"] * 43 + ["end"]
    assert first[0]["text"] == "heavy infantry s4 at 5,7 to 5,6"
    state.apply({"kind": "move", "piece": "s4", "to": [5, 6]})
    after = [(a["piece"], a["to"]) for a in state.legal_actions() if a["kind"] == "move"]
    assert ("s11", [5, 6]) in [(a["piece"], a["to"]) for a in first[:-1]] and ("s11", [5, 6]) not in after
    assert {p for p, _ in after} == {"s11", "daphnaeus"}


def test_an_illegal_move_is_refused_with_its_rule_and_changes_nothing():
    state = warcouncil.load_game("akragas").new_state(card="Order Three Units Center")
    state.apply({"kind": "order_set", "units": ["s4", "s11"], "leaders": ["daphnaeus"]})
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "piece": "s4", "to": [6, 3]})
    assert [v["rule"] for v in e.value.violations] == ["cca.move.unit-allowance"]
    assert e.value.violations[0]["pieces"] == ["s4"]
    assert state.to_json() == before
    with pytest.raises(IllegalAction, match="no card now|the card is already played"):
        state.apply({"kind": "card", "card": "Rally"})
    with pytest.raises(IllegalAction, match="^no dice are rolled now$"):
        state.apply({"kind": "dice", "roll": {"light": 1}})
    with pytest.raises(IllegalAction, match="^the order set is given once, after the card$"):
        state.apply({"kind": "order_set", "units": ["s4"], "leaders": []})
    with pytest.raises(IllegalAction, match="has no action of kind 'charge'"):
        state.apply({"kind": "charge"})
    with pytest.raises(IllegalAction, match="unknown piece id 'zz'"):
        state.apply({"kind": "battle", "piece": "zz", "target": "c5"})
    assert state.to_json() == before


def test_a_scripted_turn_its_log_its_words_and_the_next_scenario(tmp_path):
    game = warcouncil.load_game("akragas")
    state = game.new_state(card="Order Three Units Center")
    for action in ({"kind": "order_set", "units": ["s4", "s11"], "leaders": ["daphnaeus"]},
                   {"kind": "move", "piece": "daphnaeus", "to": [6, 5]},
                   {"kind": "move", "piece": "s11", "to": [6, 4]},
                   {"kind": "move", "piece": "s4", "path": [[5, 6]]},
                   {"kind": "battle", "piece": "s11", "target": "c5"}):
        state.apply(action)
    assert _kinds(state.legal_actions())[-1] == "end" and "move" not in _kinds(state.legal_actions())
    state.apply({"kind": "end"})
    assert state.is_terminal()
    assert state.log() == {
        "card": "Order Three Units Center", "orders": ["s4", "s11", "daphnaeus"],
        "moves": [{"piece": "daphnaeus", "to": [6, 5]}, {"piece": "s11", "to": [6, 4]},
                  {"piece": "s4", "to": [5, 6], "path": [[5, 6]]}],
        "battles": [{"piece": "s11", "target": "c5"}], "second_moves": []}
    assert [a["text"] for a in state.history()] == [
        "order s4, s11 and leader daphnaeus", "leader daphnaeus at 6,7 to 6,5",
        "light bow infantry s11 at 6,6 to 6,4", "heavy infantry s4 at 5,7 to 5,6", "s11 battles c5",
        "end the turn"]
    nxt = state.scenario_after()
    # from a turn file's plain data, as YAML loads it (check --write-next)
    assert state.turn.next_scenario(yaml.safe_load(yaml.safe_dump(state.log()))) == nxt
    assert nxt["to_move"] == "carthaginian"
    at = {u["id"]: u["at"] for u in nxt["units"] + nxt["leaders"]}
    assert (at["s4"], at["s11"], at["daphnaeus"], at["s5"], at["c5"]) == ([5, 6], [6, 4], [6, 5], [6, 7], [6, 1])
    path = tmp_path / "next.yaml"
    path.write_text(yaml.safe_dump(nxt), encoding="utf-8")
    assert warcouncil.load_game(str(path)).new_state().current_player() == "carthaginian"


def test_an_attached_leader_goes_along_with_his_unit():
    game = warcouncil.load_game("akragas")
    state = game.new_state(card="Order Two Units Center")
    state.apply({"kind": "order_set", "units": ["s5"], "leaders": []})
    assert {a.get("piece") for a in state.legal_actions()} == {"s5", None}  # daphnaeus has no order
    state.apply({"kind": "move", "piece": "s5", "to": [7, 6]})
    assert _kinds(state.legal_actions()) == ["end"]
    state.apply({"kind": "end"})
    assert state.log()["moves"] == [{"piece": "s5", "to": [7, 6]}]
    at = {p["id"]: p["at"] for p in state.scenario_after()["leaders"]}
    assert at["daphnaeus"] == [7, 6] and at["dionysius"] == [10, 7]


def test_a_warriors_charge_owes_its_battle(tmp_path):
    charge = _variant(tmp_path, PRACTICE, "charge.yaml", ("to_move: crown", "to_move: barons"),
                      ("id: b1, side: barons, type: warrior, at: [3, 1]", "id: b1, side: barons, type: warrior, at: [3, 5]"))
    moves = json.loads(_cli("moves", charge, "--card", "Order Two Units Right", "--order", "b1", "--json").stdout)
    must = [e["to"] for e in moves["moves"]["b1"] if e.get("must_battle")]
    assert must == [[2, 7], [3, 7], [4, 7]]
    state = warcouncil.load_game(charge).new_state(card="Order Two Units Right")
    state.apply({"kind": "order_set", "units": ["b1"], "leaders": []})
    offered = [a["to"] for a in state.legal_actions() if a["kind"] == "move"]
    assert offered == [e["to"] for e in moves["moves"]["b1"]]
    state.apply({"kind": "move", "piece": "b1", "to": [3, 7]})
    # the charge's battle is owed: no end until it is declared
    assert state.legal_actions() == [{"kind": "battle", "piece": "b1", "target": "c6", "text": "b1 battles c6"}]
    for action in ({"kind": "end"}, {"kind": "second_move", "piece": "b1", "to": [3, 6]}):
        with pytest.raises(IllegalAction) as e:
            state.apply(action)
        assert [v["rule"] for v in e.value.violations] == ["ccm.battle.warrior-compulsory"]
    state.apply({"kind": "battle", "piece": "b1", "target": "c6"})
    state.apply({"kind": "end"})
    eng = state.game.engine
    assert eng.check_turn(turn_from_data(state.log(), eng.scenario.board, eng.system)).legal


def test_a_charge_whose_battle_cannot_be_honoured_is_not_offered(tmp_path):
    # b1 two hexes from c6 behind it, a house rule forbidding every battle: the
    # two-hex moves are legal only with a battle, and none is legal
    house = tmp_path / "no-battles.wc"
    house.write_text('rule house.no-battles\n    from house "No battles."\n'
                     '    require forall b in battles: false\n    message "{b}: no battles"\n', encoding="utf-8")
    charge = _variant(tmp_path, PRACTICE, "charge.yaml", ("to_move: crown", "to_move: barons"),
                      ("id: b1, side: barons, type: warrior, at: [3, 1]", "id: b1, side: barons, type: warrior, at: [3, 5]"))
    state = warcouncil.load_game(charge, rules=[str(house)]).new_state(card="Order Two Units Right")
    state.apply({"kind": "order_set", "units": ["b1"], "leaders": []})
    assert [a["to"] for a in state.legal_actions() if a["kind"] == "move"] == [
        [3, 4], [4, 4], [2, 5], [4, 5], [3, 6], [4, 6]]
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "piece": "b1", "to": [3, 7]})
    assert [v["rule"] for v in e.value.violations] == ["ccm.battle.warrior-compulsory"]


# ------------------------------------------------------------------ a side's hand


def test_a_hand_limits_the_cards_and_leaves_it_with_the_card_played(tmp_path):
    hand = _variant(tmp_path, AKRAGAS, "hand.yaml", (
        "syracusan: {edge: south, command: 6}",
        "syracusan: {edge: south, command: 6, hand: [Line Command, counter attack, Line Command, rally]}"))
    game = warcouncil.load_game(hand)
    state = game.new_state()
    actions = state.legal_actions()
    assert [a["card"] for a in actions] == ["Line Command"] + ["Counter Attack"] * 27 + ["Rally"]
    with pytest.raises(IllegalAction, match="Out Flanked is not in the hand of syracusan"):
        state.apply({"kind": "card", "card": "Out Flanked"})
    state.apply({"kind": "card", "card": "line command"})
    assert state.history()[-1]["text"] == "card: Line Command"
    state.apply({"kind": "order_set", "units": [], "leaders": []})
    state.apply({"kind": "end"})
    nxt = state.scenario_after()
    assert nxt["sides"]["syracusan"]["hand"] == ["counter attack", "Line Command", "rally"]
    assert nxt["to_move"] == "carthaginian"
    with pytest.raises(WarcouncilError, match="Out Flanked is not in the hand of syracusan"):
        game.new_state(card="Out Flanked")


def test_an_unknown_card_in_a_hand_is_bad_input_at_its_place(tmp_path):
    bad = _variant(tmp_path, AKRAGAS, "bad.yaml", (
        "syracusan: {edge: south, command: 6}", "syracusan: {edge: south, command: 6, hand: [Rally, Lyne Command]}"))
    r = _cli("orders", bad, "--card", "Rally", "--count")
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert r.stderr.splitlines()[0] == (f"{bad}:9:54: side 'syracusan': unknown card 'Lyne Command' in its hand "
                                        "(Commands & Colors: Ancients)")
    assert "did you mean 'Line Command'?" in r.stderr
    bad2 = _variant(tmp_path, AKRAGAS, "bad2.yaml", (
        "syracusan: {edge: south, command: 6}", "syracusan: {edge: south, command: 6, hand: Rally}"))
    r = _cli("orders", bad2, "--card", "Rally", "--count")
    assert r.exit_code == 2
    assert r.stderr.splitlines()[0] == f"{bad2}:9:46: side 'syracusan': hand must be a list of card names, not 'Rally'"


def test_the_last_card_of_a_hand_played(tmp_path):
    one = _variant(tmp_path, AKRAGAS, "one.yaml", (
        "syracusan: {edge: south, command: 6}", "syracusan: {edge: south, command: 6, hand: [First Strike]}"))
    state = warcouncil.load_game(one).new_state()
    for action in state.legal_actions() + [{"kind": "order_set", "units": [], "leaders": []}, {"kind": "end"}]:
        state.apply(action)
    nxt = state.scenario_after()
    assert nxt["sides"]["syracusan"]["hand"] == []
    nxt["to_move"] = "syracusan"
    path = tmp_path / "next.yaml"
    path.write_text(yaml.safe_dump(nxt), encoding="utf-8")
    with pytest.raises(WarcouncilError, match=r"^syracusan holds no card: add the card it drew to its hand$"):
        warcouncil.load_game(str(path)).new_state()


def test_the_scenario_schema_gives_the_hand():
    side = json_schema(CommandsAndColors)["properties"]["sides"]["additionalProperties"]
    assert side["properties"]["hand"]["type"] == "array" and "hand" not in side["required"]


# ------------------------------------------------------------------ random playouts


def _check_file(eng, log, tmp_path):
    """``log`` judged as `warcouncil check` judges a turn file."""
    path = tmp_path / "turn.yaml"
    path.write_text(yaml.safe_dump(log), encoding="utf-8")
    return eng.check_turn(load_turn(str(path), eng.scenario.board, contextual=True))


def _pick(state, rng):
    actions = state.legal_actions()
    assert actions, state.log()
    if actions[0]["kind"] == "card":  # each card alike (Counter Attack is listed once per copy)
        card = rng.choice(sorted({a["card"] for a in actions}))
        actions = [a for a in actions if a["card"] == card]
    battles = [a for a in actions if a["kind"] == "battle"]
    return battles if battles and rng.random() < 0.5 else actions  # (battles half the time they may be)


def _playout(game, rng, tmp_path, stats, script=(), **options):
    """A random playout (``script``: its first actions), checking the
    properties at every step."""
    eng = game.engine
    script = list(script)
    state = game.new_state(**options)
    while not state.is_terminal():
        before = state.to_json()
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == 1
            card = state.log()["card"]
            decl, _ = eng.resolve_card(card, state.log().get("copies"))
            assert [(a["roll"], p) for a, p in outcomes] == [(c, p) for c, p in eng.roll_table(decl, eng.scenario.to_move)]
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            actions = state.legal_actions()
            # the listed actions are taken (a sample of 6 where there are more)
            for a in (rng.sample(actions, 6) if len(actions) > 6 else actions):
                trial = state.clone()
                trial.apply(a)
                assert state.to_json() == before  # the clone is independent
            action = script.pop(0) if script else rng.choice(_pick(state, rng))
        state.apply(action)
        stats[action["kind"]] = stats.get(action["kind"], 0) + 1
        back = state.clone()
        back.undo()
        assert back.to_json() == before and state.to_json()["actions"] == before["actions"] + [state.history()[-1]]
        position = state._positions[-1]
        if position.stage not in ("card", "dice", "orders"):
            log = state.log()
            log["battles"] = log["battles"] + [{"piece": p, "target": t} for p, t in position.owed]
            verdict = eng.check_turn(turn_from_data(log, eng.scenario.board, eng.system))
            assert verdict.legal, (log, [v.rule for v in verdict.violations])
            stats["owed"] = stats.get("owed", 0) + bool(position.owed)
    assert _check_file(eng, state.log(), tmp_path).legal
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and again.log() == state.log() and again.is_terminal()
    return state


def _where_moved(scenario, log):
    at = {p.id: list(p.at) for p in scenario.all_pieces}
    for m in log["moves"] + log["second_moves"]:
        for p in scenario.all_pieces:  # an attached leader given no move goes along
            if (p.role == "leader" and list(p.at) == at[m["piece"]] and p.side == scenario.piece(m["piece"]).side
                    and m["piece"] != p.id and not any(x["piece"] == p.id for x in log["moves"] + log["second_moves"])
                    and scenario.piece(m["piece"]).role == "unit"):
                at[p.id] = m["to"]
        at[m["piece"]] = m["to"]
    return at


CHARGE = (("to_move: crown", "to_move: barons"),  # a warrior two hexes from the crown's line
          ("id: b1, side: barons, type: warrior, at: [3, 1]", "id: b1, side: barons, type: warrior, at: [3, 5]"))


@pytest.mark.parametrize("scenario", [*SHIPPED, "charge"], ids=lambda p: getattr(p, "stem", p))
def test_random_playouts_of_chained_turns(scenario, tmp_path):
    """Seeded random playouts (6, times ``WARCOUNCIL_PLAYOUTS``), each of 6 turns in a row (each turn starting
    from the scenario the one before left), on every shipped scenario and on
    the practice field with a warrior in reach of a charge."""
    stats: dict = {}
    played = 0
    seeds = playouts(6)
    for seed in range(seeds):
        rng = random.Random(seed)
        current = _variant(tmp_path, PRACTICE, "charge.yaml", *CHARGE) if scenario == "charge" else str(scenario)
        for turn in range(6):
            game = warcouncil.load_game(current)
            if scenario == "charge" and turn == 0:  # the warrior ordered: he may charge
                state = _playout(game, rng, tmp_path, stats, [{"kind": "order_set", "units": ["b1"], "leaders": []}],
                                 card="Order Two Units Right")
            else:
                state = _playout(game, rng, tmp_path, stats)
            played += 1
            nxt = state.scenario_after()
            current = str(tmp_path / f"next-{seed}-{turn}.yaml")
            Path(current).write_text(yaml.safe_dump(nxt, sort_keys=False), encoding="utf-8")
            loaded = Engine.load(current).scenario
            assert loaded.to_move != game.engine.scenario.to_move
            assert {p.id: list(p.at) for p in loaded.all_pieces} == _where_moved(game.engine.scenario, state.log())
    assert played == 6 * seeds
    # the playouts reach every kind of action (and a charge's owed battle)
    assert {"card", "order_set", "move", "end", "dice"} <= set(stats), stats
    if getattr(scenario, "stem", None) != "practice_field":  # (its armies start too far apart to meet in six random turns)
        assert "battle" in stats, stats
    if scenario == "charge":
        assert stats["owed"] > 0, stats


def test_a_turn_given_as_data_is_read_as_a_turn_file_is():
    eng = Engine.load("akragas")
    t = turn_from_data({"card": "Rally", "roll": {"light": 1, "helmet": 0}, "orders": ["s1"],
                        "moves": [{"piece": "s1", "to": [2, 6]}]}, eng.scenario.board, eng.system)
    assert (t.card, t.roll, t.orders, [(m.piece, m.to) for m in t.moves]) == (
        "Rally", "light=1,helmet=0", ["s1"], [("s1", (2, 6))])
    with pytest.raises(WarcouncilError) as e:
        turn_from_data({"card": "Rally", "moves": [{"piece": "s1"}]}, eng.scenario.board, eng.system)
    assert str(e.value).splitlines()[0] == (
        "<turn>: a move is {piece: ID, to: [col, row]} or {piece: ID, path: [[col, row], ...]}")
