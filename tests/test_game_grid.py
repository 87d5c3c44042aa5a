"""The grid game's turn for the game interface (systems/grid/game.py): a
phase of activations, each rolled die by die at chance nodes, judged by the
engine that `check` uses."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from conftest import playouts
from gridkit import scenario, unit

from warcouncil.errors import WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.game import CHANCE, IllegalAction, load_game
from warcouncil.systems.grid.game import waiting_rules

EXAMPLES = Path(__file__).resolve().parents[1] / "warcouncil" / "examples" / "grid-ancients"
SCENARIOS = sorted(EXAMPLES.glob("*.yaml"))
SHIPPED_TURN = yaml.safe_load((EXAMPLES / "alesia" / "turn.yaml").read_text())


@pytest.fixture(scope="module")
def game():
    return load_game("alesia")


def die(n):
    return {"kind": "dice", "face": n}


def play(state, actions):
    for a in actions:
        state.apply(die(a) if isinstance(a, int) else a)


def legal(game, turn: dict) -> list:
    out, _ = game.engine.check(json.loads(json.dumps(turn)))
    return [v.rule for v in out]


WHO = {"r1": "formed infantry r1 at 4,5", "r2": "formed infantry r2 at 6,5", "r3": "infantry skirmishers r3 at 2,5",
       "r4": "cavalry r4 at 8,6", "r5": "formed infantry r5 at 4,6", "g1": "formed infantry g1 at 5,4",
       "g2": "formed infantry g2 at 5,3", "g3": "formed infantry g3 at 8,3", "g4": "cavalry g4 at 11,2",
       "g5": "infantry skirmishers g5 at 3,3"}


def test_the_first_node_of_alesia(game):
    state = game.new_state()
    assert state.current_player() == "romans"
    shorts = [(a["kind"], a.get("unit"), a.get("option"), a.get("target")) for a in state.legal_actions()]

    def charges(u):
        return [("activate", u, "charge", f"g{i}") for i in range(1, 6)]

    assert shorts == [
        ("activate", "r1", "move", None), ("activate", "r1", "combat", "g1"), *charges("r1"),
        ("activate", "r2", "move", None), *charges("r2"), ("activate", "r2", "reform", None),
        ("activate", "r3", "move", None), *charges("r3"), ("activate", "r3", "shoot", "g5"),
        ("activate", "r4", "move", None), *charges("r4"),
        ("activate", "r5", "move", None), *charges("r5"), ("end", None, None, None)]
    assert state.legal_actions()[1] == {"kind": "activate", "unit": "r1", "option": "combat", "target": "g1",
                                        "text": f"{WHO['r1']} attacks {WHO['g1']}"}
    assert [a["text"] for a in state.legal_actions()][-4:] == [
        f"{WHO['r5']} charges {WHO['g3']}", f"{WHO['r5']} charges {WHO['g4']}", f"{WHO['r5']} charges {WHO['g5']}",
        "end the phase"]
    # the Gauls' warband g2, behind g1, cannot move the full distance every roll may give: no Move for it;
    # g1 and g3 may Move, whatever they roll: an enemy in front ends their move (ga.default.warband-blocked)
    gauls = game.new_state(side="gauls").legal_actions()
    assert [a["unit"] for a in gauls if a.get("option") == "move"] == ["g1", "g3", "g4", "g5"]
    assert len(gauls) == 37


def test_every_listed_action_of_the_first_node_is_accepted(game):
    state = game.new_state()
    for a in state.legal_actions():
        other = state.clone()
        other.apply(a)
        assert other.history()[-1] == a


def test_the_shipped_turn_played_through_its_nodes(game, tmp_path):
    state = game.new_state()
    play(state, [{"kind": "exchange", "exchange": {"movement": 2, "defence": 1}, "get": "attack"},
                 {"kind": "activate", "unit": "r1", "option": "combat", "target": "g1",
                  "spend": [{"pool": "generalship", "as": "attack", "use": "reroll_combat"}]}])
    words = []
    for face in (6, 2, 3, 5, 4, 5, 4):
        assert state.current_player() == CHANCE
        outcomes = state.chance_outcomes()
        assert [p for _, p in outcomes] == [Fraction(1, 6)] * 6
        words.append(outcomes[face - 1][0]["text"])
        state.apply(die(face))
    assert words == ["r1's Combat dice (1 of 2): 6", "r1's Combat dice (2 of 2): 2", "g1's Defence dice: 3",
                     "g1's Push Back die: 5", "g1's Discipline Test (1 of 2): 4", "g1's Discipline Test (2 of 2): 5",
                     "r1's Follow Up die: 4"]
    play(state, [{"kind": "activate", "unit": "r5", "option": "move"}, 4])
    assert [a["text"] for a in state.legal_actions()] == [
        "r5 forward", "r5 turn left", "r5 turn right", "r5 drift left", "r5 drift right", "r5 about face",
        "r5 halts"]  # (no oblique: r2 and the rough ground's neighbour r3 stand in the way)
    play(state, [{"kind": "step", "do": "drift_right"}, 1, 5])
    assert state.legal_actions() == [{"kind": "halt", "text": "r5 halts"}]  # (the 2 Movement Points are spent)
    play(state, [{"kind": "halt"}, {"kind": "activate", "unit": "r2", "option": "reform"}, 2, 1, 5, 5])
    # a failed Reform Test: Reversal of Fortune, the phase can only end
    assert state.legal_actions() == [{"kind": "end", "text": "end the phase"}]
    state.apply({"kind": "end"})
    assert state.is_terminal()
    assert state.log() == SHIPPED_TURN
    assert [a["text"] for a in state.history()[:2]] == [
        "exchange 2 movement, 1 defence for one attack",
        f"{WHO['r1']} attacks {WHO['g1']}, spending 1 generalship for reroll_combat"]
    after = state.scenario_after()
    units = {u["id"]: u for u in after["units"]}
    assert after["to_move"] == "gauls"
    assert (units["r1"]["at"], units["g1"]["at"], units["g2"]["at"], units["r5"]["at"]) == (
        [4, 4], [5, 2], [5, 1], [5, 6])
    assert units["r2"]["disordered"] is True and units["g1"]["disordered"] is False
    assert after["sides"]["romans"]["command_points"] == {"attack": 3, "movement": 0, "defence": 0, "strategy": 1,
                                                          "generalship": 1}
    path = tmp_path / "next.yaml"
    path.write_text(yaml.safe_dump(after))
    nxt = Engine.load(str(path), [])
    assert nxt.scenario.to_move == "gauls"
    assert {u.id: u.at for u in nxt.scenario.units}["g1"] == (5, 2)


def test_next_scenario_from_a_turn_file_as_loaded(game):
    """`check --write-next` hands next_scenario a turn file's plain data."""
    after = game.new_state().turn.next_scenario(yaml.safe_load((EXAMPLES / "alesia" / "turn.yaml").read_text()))
    assert [u["id"] for u in after["units"]] == ["r1", "r5", "r2", "r3", "r4", "r6", "g1", "g2", "g3", "g5", "g4"]
    assert {u["id"]: u["facing"] for u in after["units"]}["r5"] == "north"


@pytest.mark.parametrize("action, rules, message", [
    ({"kind": "activate", "unit": "r6", "option": "move"}, ["ga.immobile"],
     "r6 is Immobile: it cannot be given a Movement or Charge activation"),
    ({"kind": "activate", "unit": "r1", "option": "shoot", "target": "g1"}, ["ga.shoot-needs-ranged-attack"],
     "r1 has no Ranged Attack: it cannot shoot"),
    ({"kind": "activate", "unit": "r1", "option": "reform"}, ["ga.reform-only-disordered"],
     "r1 is not Disordered: there is nothing to Reform"),
])
def test_an_illegal_activation_is_refused_with_its_rule(game, action, rules, message):
    state = game.new_state()
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert [v["rule"] for v in e.value.violations] == rules
    assert e.value.message == message
    assert e.value.violations[0]["quote"]
    assert state.to_json() == before


def test_a_step_into_a_forest_is_refused_and_changes_nothing(game):
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r4", "option": "move"}, 6])
    assert [a["do"] for a in state.legal_actions() if a["kind"] == "step"] == [
        "drift_left", "drift_right", "about_face"]
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "step", "do": "forward"})
    assert [v["rule"] for v in e.value.violations] == ["ga.cavalry-no-forest"]
    assert state.to_json() == before


@pytest.mark.parametrize("action, message", [
    ({"kind": "fly"}, "the grid game has no action 'fly' (activate, step, halt, reroll, keep, choose, "
                      "stand_fast, give_ground, exchange, reallocate, homunculus_est, bring_back, end; "
                      "dice at a chance node)"),
    ({"kind": "activate", "unit": "zz", "option": "move"}, "unknown unit 'zz'"),
    ({"kind": "activate", "unit": "r1", "option": "dance"},
     "option must be one of move, combat, charge, shoot, reform, not 'dance'"),
    ({"kind": "halt"}, "no move is under way to halt"),
    ({"kind": "bring_back", "bring_back": "r1"},
     "a bring_back action gives 'unit': the unit off the table; its test follows"),
])
def test_a_malformed_action_is_refused_without_violations(game, action, message):
    state = game.new_state()
    with pytest.raises(IllegalAction) as e:
        state.apply(action)
    assert (e.value.message, e.value.violations) == (message, [])


def test_a_failed_movement_roll_ends_the_move(game):
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r4", "option": "move"}, 1])
    assert state.log()["activations"] == [{"unit": "r4", "option": "move", "roll": 1}]
    assert state.legal_actions()[0]["text"] == f"{WHO['r1']} moves"


# ---------------------------------------------------------------- the chance tree against `odds`

def _tree(state, paths, key, p=Fraction(1), out=None):
    """The distribution of ``key(state)`` over the chance nodes met while
    the roll due is one of ``paths`` (its first key)."""
    out = {} if out is None else out
    due = _open(state)[1] if state._positions[-1].open is not None else None  # (no listing asked at a leaf)
    if due is not None and due.path[0] in paths:
        for a, q in state.chance_outcomes():
            s = state.clone()
            s.apply(a)
            _tree(s, paths, key, p * q, out)
    else:
        k = key(state)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def _open(state):
    """The open activation as the engine judges it: (the sequence, the next roll)."""
    return state.turn._due(state._positions[-1])


def _odds(game, test):
    dist, _ = game.engine.odds(test)
    return dist


def test_the_movement_die_is_the_odds_of_the_movement_roll(game):
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r4", "option": "move"})
    got = _tree(state, ("roll",),
                lambda s: (_open(s)[0].log[-1]["movement_points"]))
    assert {str(k): v for k, v in got.items()} == _odds(game, {"test": "movement", "unit": "r4"})
    assert got == {"failed": Fraction(1, 6), 2: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 6)}  # (+2 cavalry)


def test_the_reform_dice_are_the_odds_of_the_reform_test(game):
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r2", "option": "reform"})

    def result(s):
        log = s.log()["activations"]
        entry = json.loads(s._positions[-1].open) if s._positions[-1].open else log[-1]
        seq = game.engine.sequence({"side": "romans", "activations": [entry]})
        return seq.log[-1]["test"]

    got = _tree(state, ("test",), result)
    assert got == _odds(game, {"test": "reform", "unit": "r2"})
    assert sum(got.values()) == 1


def test_the_combat_dice_are_the_odds_of_the_combat(game):
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"})
    got = _tree(state, ("dice", "defence"),
                lambda s: _open(s)[0].log[-1]["result"])
    assert got == _odds(game, {"test": "combat", "attacker": "r1", "defender": "g1"})


def test_the_shooting_dice_are_the_odds_of_the_shot(game):
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r3", "option": "shoot", "target": "g5"})
    got = _tree(state, ("dice", "defence"),
                lambda s: _open(s)[0].log[-1]["result"])
    assert got == _odds(game, {"test": "shooting", "shooter": "r3", "target": "g5"})


def test_a_manoeuvre_test_with_its_drilled_reroll_is_the_odds_of_the_test(game):
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r5", "option": "move"}, 4, {"kind": "step", "do": "drift_right"}])

    def passed(s):  # a passed test: the move goes on; a failed one ends it (Reversal of Fortune)
        return "pass" if s._positions[-1].open is not None else "fail"

    got = _tree(state, ("steps",), passed)
    assert got == _odds(game, {"test": "manoeuvre", "unit": "r5", "manoeuvre": "drift_right"})
    assert got == {"pass": Fraction(3, 4), "fail": Fraction(1, 4)}  # (a 4+ to pass, once re-rolled)


# ---------------------------------------------------------------- random playouts

def _check_state(game, state, rng, tmp_path):
    assert legal(game, state.log()) == []
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1 and len(outcomes) == 6


def _playout(game, seed, tmp_path, sides=("romans", "gauls"), seen=None, **options):
    """A seeded random playout, every state judged (``seen``: the kinds of
    the actions played, and each die's words, are added to it; ``options``:
    ``new_state``'s)."""
    rng = random.Random(seed)
    state = game.new_state(side=rng.choice(list(sides)), **options)
    steps = 0
    while not state.is_terminal() and steps < 40:
        _check_state(game, state, rng, tmp_path)
        if state.current_player() == CHANCE:
            action = rng.choice(state.chance_outcomes())[0]
        else:
            actions = state.legal_actions()
            assert actions, state.log()
            ends = [a for a in actions if a["kind"] == "end"]
            # an option first, then one of its actions (else the many Charge targets crowd out the rest)
            groups: dict = {}
            for a in actions:
                groups.setdefault((a["kind"], a.get("option")), []).append(a)
            group = rng.choice(sorted(k for k in groups if k[0] != "end") or [("end", None)])
            action = ends[0] if ends and rng.random() < 0.3 else rng.choice(groups[group])
        before = state.to_json()
        state.apply(action)
        if seen is not None:
            seen.add(f"activate {action['unit']} {action['option']}" if action["kind"] == "activate" else
                     action["kind"] if action["kind"] != "dice" else state.history()[-1]["text"].rsplit(":", 1)[0])
        if rng.random() < 0.2:  # undo restores the state exactly
            state.undo()
            assert state.to_json() == before
            state.apply(action)
        steps += 1
    _check_state(game, state, rng, tmp_path)
    # a clone is independent
    other = state.clone()
    if not other.is_terminal():
        other.apply(rng.choice(other.chance_outcomes())[0] if other.current_player() == CHANCE
                    else other.legal_actions()[-1])
        assert other.to_json() != state.to_json()
    # the JSON round trip
    again = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json() == state.to_json() and again.log() == state.log()
    # the scenario after it loads, its pieces where the log put them
    path = tmp_path / f"next{seed}.yaml"
    path.write_text(yaml.safe_dump(state.scenario_after()))
    nxt = Engine.load(str(path), [])
    seq = game.engine.sequence(state.log(), partial=False)
    where = {uid: (st.at, st.facing, st.disordered) for uid, st in seq.s.states.items() if not st.gone}
    assert {u.id: (u.at, u.facing, u.disordered) for u in nxt.scenario.units} == where
    if seed % 4 == 0:  # the next phase starts from it: the other side to move
        following = load_game(str(path)).new_state()
        assert following.current_player() == nxt.scenario.to_move != state.log()["side"]
        assert following.legal_actions()[-1] == {"kind": "end", "text": "end the phase"}
    return len(state.log()["activations"])


@pytest.mark.parametrize("scenario", [p.stem for p in SCENARIOS])
@pytest.mark.parametrize("chunk", range(8))
def test_random_playouts(scenario, chunk, tmp_path):
    game = load_game(scenario)
    entries = [_playout(game, 100 * chunk + seed, tmp_path) for seed in range(playouts(5))]  # (WARCOUNCIL_PLAYOUTS, <= 20)
    assert sum(entries) > 0


def test_a_charge_fights_only_the_target_it_reached(game):
    # a failed Charge (a natural 1) fights no one: the activation ends with its die
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r1", "option": "charge", "target": "g1"}, 1])
    assert state.log()["activations"] == [{"unit": "r1", "option": "charge", "target": "g1", "roll": 1}]
    assert state.current_player() == "romans"
    # g1 is to r1's front: once the move ends, the combat dice are due
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r1", "option": "charge", "target": "g1"}, 6, {"kind": "halt"}])
    assert state.current_player() == CHANCE
    assert state.chance_outcomes()[0][0]["text"] == "r1's Combat dice (1 of 2): 1"
    # g3 is far off: the Charge ends without combat dice
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r1", "option": "charge", "target": "g3"}, 6, {"kind": "halt"}])
    assert state.log()["activations"] == [{"unit": "r1", "option": "charge", "target": "g3", "roll": 6}]
    assert state.current_player() == "romans"


def test_a_failed_test_that_forbids_its_step_stops_the_unit_before_it(game):
    """r2 steps forward into the Cause Fear warband g3's zone of control and
    fails its Discipline Test: it stops outside (`check` accepts no step
    into the zone without a passed test), and its move is over."""
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r2", "option": "move"}, 6, {"kind": "step", "do": "forward"}])
    assert [a["text"] for a, _ in state.chance_outcomes()][:1] == [
        "r2's Discipline Test to enter a feared zone (1 of 2): 1"]
    play(state, [1, 1])
    assert state.log()["activations"] == [{"unit": "r2", "option": "move", "roll": 6, "steps": []}]
    assert state.current_player() == "romans"
    # passed (6 + 6), the step is made and the move goes on
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r2", "option": "move"}, 6, {"kind": "step", "do": "forward"}, 6, 6])
    assert state.current_player() == "romans" and state.legal_actions()[-1]["kind"] == "halt"
    state.apply({"kind": "halt"})
    assert state.log()["activations"] == [{"unit": "r2", "option": "move", "roll": 6,
                                           "steps": [{"do": "forward", "fear": [6, 6]}]}]


def test_the_side_option_and_an_unknown_option(game):
    assert game.new_state(side="gauls").current_player() == "gauls"
    assert game.new_state(side="gauls").log() == {"side": "gauls", "activations": []}
    with pytest.raises(WarcouncilError, match="takes no option 'card'"):
        game.new_state(card="x")
    with pytest.raises(WarcouncilError, match="unknown side 'huns'"):
        game.new_state(side="huns")


def test_homunculus_est_is_a_decision_without_dice(game):
    state = game.new_state()
    state.apply({"kind": "homunculus_est", "points": 5})
    assert state.history()[-1]["text"] == "“Homunculus Est!” with 5 points"
    assert state.log()["activations"] == [{"homunculus_est": {"points": 5}}]
    # not broken: a Reversal of Fortune, and only once in a phase
    assert state.legal_actions() == [{"kind": "end", "text": "end the phase"}]
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "homunculus_est", "points": 20})
    assert [v["rule"] for v in e.value.violations] == ["ga.homunculus-once-per-phase", "ga.reversal-ends-activations"]


def test_a_reserve_used_rolls_the_praetorian_cohort_die(game):
    state = game.new_state()
    state.apply({"kind": "activate", "unit": "r1", "option": "combat", "target": "g1", "reserve": "combat"})
    words = []
    while state.current_player() == CHANCE:
        words.append(state.chance_outcomes()[0][0]["text"])
        state.apply(die(3))
    assert words == ["r1's Combat dice (1 of 2): 1", "r1's Combat dice (2 of 2): 1", "g1's Defence dice: 1",
                     "r1's Praetorian Cohort die: 1"]
    assert state.log()["activations"] == [{"unit": "r1", "option": "combat", "target": "g1", "reserve": "combat",
                                           "dice": [3, 3], "defence": [3], "cohort": 3}]
    assert legal(game, state.log()) == []


def _faces(entry, path):
    """The faces a turn file's ``entry`` gives for the roll at ``path``."""
    v = entry
    for k in path:
        v = v[k]
    return [v] if isinstance(v, int) else list(v)


def replay(state, entry):
    """``entry`` (a turn file's activation, no steps) played through the game's nodes: the
    decision, then each die the engine asks for, read from the entry."""
    state.apply({"kind": "activate", **{k: entry[k] for k in ("unit", "option", "target") if k in entry}})
    asked = []
    while state.current_player() == CHANCE:
        due = _open(state)[1]
        asked.append(due.path)
        for face in _faces(entry, due.path):
            state.apply(die(face))
    return asked


def test_centurion_casualties_raise_the_discipline_rating_in_the_next_scenario(tmp_path):
    """A Legion d fails its Discipline Test and retires: Centurion Casualties (a 1 + 2), its Discipline
    Rating 7 becomes 8 for good (tests/test_grid_aftermath.py, EAGLES)."""
    path = scenario(tmp_path, [unit("a", "red", (2, 3), "north", combat=6),
                               unit("d", "blue", (3, 2), "south", characteristics=["legion"])])
    entry = {"unit": "a", "option": "combat", "target": "d", "dice": [6, 3, 3], "defence": [5],
             "push_back": {"d": 1}, "discipline": {"d": [1, 2]}, "outcome": {"d": [3, 3]}, "eagles": {"d": [1, 2]}}
    game = load_game(path)
    state = game.new_state()
    assert replay(state, entry) == [("dice",), ("defence",), ("push_back", "d"), ("discipline", "d"),
                                    ("outcome", "d"), ("eagles", "d")]
    assert state.log()["activations"] == [entry]
    after = {u["id"]: u for u in state.scenario_after()["units"]}
    assert after["d"]["discipline"] == 8 and after["d"]["disordered"] is True and after["d"]["at"] == [2, 2]


def test_the_pieces_of_a_step_a_halt_and_a_die(game):
    """A step, a halt and a die name no unit of their own: they concern the
    open activation's unit (issue 27); an end concerns none."""
    state = game.new_state()
    activate = {"kind": "activate", "unit": "r5", "option": "move"}
    assert state.pieces_of(activate) == ["r5"] and state.pieces_of({"kind": "end"}) == []
    state.apply(activate)
    assert [state.pieces_of(a) for a, _ in state.chance_outcomes()] == [["r5"]] * 6
    state.apply(die(4))
    acts = state.legal_actions()
    assert [a["kind"] for a in acts] == ["step"] * 3 + ["halt"]
    assert [state.pieces_of(a) for a in acts] == [["r5"]] * 4
    play(state, [{"kind": "halt"}])
    assert [state.pieces_of(a) for a in state.legal_actions()][-1] == []


# ---------------------------------------------------------------- bringing a unit back (issue 27)

#: o left the table at 3,0; a and the enemy x on it
OFF = [unit("o", "red", (3, 0), "south", off_table=True), unit("a", "red", (6, 2), "south"),
       unit("x", "blue", (3, 5), "north")]
BRING = {"kind": "bring_back", "unit": "o"}


def test_a_bring_back_and_its_discipline_test(tmp_path):
    game = load_game(str(scenario(tmp_path, OFF, width=8, depth=8)))
    state = game.new_state()
    acts = state.legal_actions()
    assert [(a["kind"], a.get("unit"), a.get("option")) for a in acts] == [
        ("activate", "a", "move"), ("activate", "a", "charge"), ("bring_back", "o", None), ("end", None, None)]
    assert acts[2] == {**BRING, "text": "bring o back to the table (a Discipline Test)"}
    state.apply(BRING)
    assert state.current_player() == CHANCE and state.log()["activations"] == []
    assert [(a["text"], p) for a, p in state.chance_outcomes()] == [
        (f"o's Discipline Test to return (1 of 2): {f}", Fraction(1, 6)) for f in range(1, 7)]
    assert state.pieces_of(die(1)) == ["o"]
    failed = state.clone()
    play(state, [6, 6])  # passed: o is back where it left the table, and may act
    assert state.log()["activations"] == [{"bring_back": "o", "test": [6, 6]}] and legal(game, state.log()) == []
    assert ("activate", "o", "move") in [(a["kind"], a.get("unit"), a.get("option")) for a in state.legal_actions()]
    o = next(u for u in state.scenario_after()["units"] if u["id"] == "o")
    assert (o["at"], "off_table" in o) == ([3, 0], False)
    # failed (3 + 2): a Reversal of Fortune, the phase can only end, o stays off the table
    play(failed, [3, 2])
    assert failed.log()["activations"] == [{"bring_back": "o", "test": [3, 2]}] and legal(game, failed.log()) == []
    assert failed.legal_actions() == [{"kind": "end", "text": "end the phase"}]
    assert next(u for u in failed.scenario_after()["units"] if u["id"] == "o")["off_table"] is True
    # undo and the JSON round trip
    before = failed.to_json()
    failed.undo()
    failed.apply(die(2))
    assert failed.to_json() == before
    assert game.state_from_json(json.loads(json.dumps(before))).log() == failed.log()


def test_a_bring_back_is_judged_by_the_rules(tmp_path):
    game = load_game(str(scenario(tmp_path, OFF, width=8, depth=8)))
    state = game.new_state()
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "bring_back", "unit": "a"})  # on the table
    assert [v["rule"] for v in e.value.violations] == ["ga.bring-back-off-table"]
    # after a Reversal of Fortune (a failed bring back) no other attempt: `check` says so too
    play(state, [BRING, 3, 2])
    with pytest.raises(IllegalAction) as e:
        state.apply(BRING)
    assert [v["rule"] for v in e.value.violations] == ["ga.reversal-ends-activations"]
    assert legal(game, {"side": "red", "activations": [{"bring_back": "o", "test": [3, 2]},
                                                       {"bring_back": "o", "test": [6, 6]}]}) == [
        "ga.reversal-ends-activations"]


def test_random_playouts_bring_a_unit_back(tmp_path):
    game = load_game(str(scenario(tmp_path, OFF, width=8, depth=8)))
    seen: set = set()
    for seed in range(6):
        _playout(game, seed, tmp_path, sides=("red",), seen=seen)
    assert {"bring_back", "o's Discipline Test to return (2 of 2)"} <= seen, seen


# ---------------------------------------------------------------- Warbands (issue 27)

def test_a_warband_moves_until_an_enemy_is_in_front(game, tmp_path):
    """g3 rolls 2 Movement Points; one square forward brings an enemy in
    front of it: it halts there (ga.default.warband-blocked). Before, a
    Warband that could meet an enemy short of its full distance had no legal
    move for such a roll, so the game offered g1 and g3 no Move at all."""
    state = game.new_state(side="gauls")
    play(state, [{"kind": "activate", "unit": "g3", "option": "move"}, 4])
    assert [a["text"] for a in state.legal_actions()] == ["g3 forward"]
    play(state, [{"kind": "step", "do": "forward"}])
    assert state.legal_actions() == [{"kind": "halt", "text": "g3 halts"}]
    play(state, [{"kind": "halt"}])
    assert state.log()["activations"] == [{"unit": "g3", "option": "move", "roll": 4, "steps": ["forward"]}]
    assert legal(game, state.log()) == []


def test_random_playouts_move_the_warbands(game, tmp_path):
    seen: set = set()
    for seed in range(708, 712):
        _playout(game, seed, tmp_path, sides=("gauls",), seen=seen)
    assert {"activate g1 move", "g1's Movement die"} <= seen, seen


# ---------------------------------------------------------------- the chooser's pick (issue 27)

def test_the_chooser_picks_among_the_attack_dice_when_asked(game):
    """With ``choices=True``, once the attack dice are rolled the chooser
    picks the result (the entry's `choose`); by default the pack's
    preference picks, and no such node is met."""
    state = game.new_state(choices=True)
    play(state, [{"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"}, 6, 2])
    # r1 (4) against g1 (3): the attacker picks
    assert state.current_player() == "romans"
    assert state.legal_actions() == [{"kind": "choose", "face": 6, "text": "romans picks the 6: crunch"},
                                     {"kind": "choose", "face": 2, "text": "romans picks the 2: grind"}]
    assert state.pieces_of(state.legal_actions()[1]) == ["r1"]
    with pytest.raises(IllegalAction, match="^pick one of the dice's results: face 6, 2$"):
        state.apply({"kind": "choose", "face": 3})
    state.apply({"kind": "choose", "face": 2})
    assert state.current_player() == CHANCE and state.chance_outcomes()[0][0]["text"] == "g1's Defence dice: 1"
    play(state, [3])
    # grind pushes both back: each gives ground (its side might spend a Defence Point to stand fast)
    gave = []
    while state.current_player() == CHANCE or state.legal_actions()[0]["kind"] == "stand_fast":
        if state.current_player() == CHANCE:
            state.apply(die(3))
        else:
            gave.append((state.current_player(), state.legal_actions()[1]["unit"]))
            state.apply(state.legal_actions()[1])
    assert gave == [("romans", "r1"), ("gauls", "g1")]
    (entry,) = state.log()["activations"]
    assert (entry["dice"], entry["choose"], entry["defence"]) == ([6, 2], 2, [3])
    assert legal(game, state.log()) == []
    # the defender picks when its rating is higher: g1 (3) against r1 (4), in the Gauls' phase
    gauls = game.new_state(side="gauls", choices=True)
    play(gauls, [{"kind": "activate", "unit": "g1", "option": "combat", "target": "r1"}, 1, 5])
    assert gauls.current_player() == "romans"
    assert [a["text"] for a in gauls.legal_actions()] == ["romans picks the 5: advance", "romans picks the 1: repulsed"]
    before = gauls.to_json()
    gauls.apply({"kind": "choose", "face": 1})
    assert gauls.log()["activations"] == [] and gauls.current_player() == CHANCE
    gauls.undo()
    assert gauls.to_json() == before
    assert game.state_from_json(json.loads(json.dumps(before))).legal_actions() == gauls.legal_actions()
    # no pick is due elsewhere, and none by default
    with pytest.raises(IllegalAction, match="^no pick among the dice is due here$"):
        game.new_state(choices=True).apply({"kind": "choose", "face": 6})
    plain = game.new_state()
    play(plain, [{"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"}, 6, 2])
    assert plain.current_player() == CHANCE


def test_random_playouts_with_the_choosers_picks(game, tmp_path):
    seen: set = set()
    for seed in range(906, 910):
        _playout(game, seed, tmp_path, seen=seen, choices=True)
    assert "choose" in seen, seen


# ---------------------------------------------------------------- a movement roll re-rolled (issue 27)

def test_a_failed_movement_roll_re_rolled_with_a_command_point(game):
    state = game.new_state(choices=True)
    play(state, [{"kind": "activate", "unit": "r4", "option": "move"}, 1])
    # a failed roll: a Movement Point may re-roll it (r4 has no General: no Generalship Point for it)
    assert state.legal_actions() == [
        {"kind": "reroll", "pool": "movement", "text": "r4 re-rolls its movement die, spending a movement point"},
        {"kind": "keep", "text": "r4 keeps its movement roll"}]
    assert [state.pieces_of(a) for a in state.legal_actions()] == [["r4"], ["r4"]]
    kept = state.clone()
    kept.apply({"kind": "keep"})
    assert kept.log()["activations"] == [{"unit": "r4", "option": "move", "roll": 1}]
    state.apply({"kind": "reroll", "pool": "movement"})
    assert [(a["text"], p) for a, p in state.chance_outcomes()] == [
        (f"r4's Movement die, re-rolled: {f}", Fraction(1, 6)) for f in range(1, 7)]
    play(state, [5, {"kind": "halt"}])
    assert state.log()["activations"] == [{"unit": "r4", "option": "move", "roll": [1, 5],
                                           "spend": [{"pool": "movement", "use": "reroll_movement"}]}]
    assert legal(game, state.log()) == []
    assert state.scenario_after()["sides"]["romans"]["command_points"]["movement"] == 1
    # r1 has Caesar: a Generalship Point may pay for it too
    r1 = game.new_state(choices=True)
    play(r1, [{"kind": "activate", "unit": "r1", "option": "move"}, 1])
    assert [(a["kind"], a.get("pool"), a.get("as")) for a in r1.legal_actions()] == [
        ("reroll", "movement", None), ("reroll", "generalship", "movement"), ("keep", None, None)]
    with pytest.raises(IllegalAction, match="^no movement roll may be re-rolled here$"):
        game.new_state(choices=True).apply({"kind": "keep"})
    # by default the failed roll ends the move, as `check` reads it
    plain = game.new_state()
    play(plain, [{"kind": "activate", "unit": "r4", "option": "move"}, 1])
    assert plain.log()["activations"] == [{"unit": "r4", "option": "move", "roll": 1}]


def test_the_movement_die_re_rolled_is_the_odds_of_the_movement_roll_with_a_reroll(game):
    """Re-rolling whenever the side may: the chance tree of the movement
    roll is `odds` of it with `reroll: true`."""
    def tree(state, p=Fraction(1), out=None):
        out = {} if out is None else out
        if state.current_player() == CHANCE and _open(state)[1].path[0] == "roll":
            for a, q in state.chance_outcomes():
                s = state.clone()
                s.apply(a)
                tree(s, p * q, out)
        elif any(a["kind"] == "reroll" for a in state.legal_actions()):
            s = state.clone()
            s.apply({"kind": "reroll", "pool": "movement"})
            tree(s, p, out)
        else:
            k = str(_open(state)[0].log[-1]["movement_points"]) if state._positions[-1].open else "failed"
            out[k] = out.get(k, Fraction(0)) + p
        return out

    state = game.new_state(choices=True)
    state.apply({"kind": "activate", "unit": "r4", "option": "move"})
    got = tree(state)
    assert got == _odds(game, {"test": "movement", "unit": "r4", "reroll": True})
    assert got == {"failed": Fraction(1, 36), "2": Fraction(7, 18), "3": Fraction(7, 18), "4": Fraction(7, 36)}


def test_random_playouts_re_roll_a_movement_die(game, tmp_path):
    seen: set = set()
    for seed in (906, 915):
        _playout(game, seed, tmp_path, seen=seen, choices=True)
    assert {"reroll", "r1's Movement die, re-rolled", "r4's Movement die, re-rolled"} <= seen, seen


# ---------------------------------------------------------------- the Rout die (issue 27)

def test_a_rout_rolls_its_die(game):
    """g1, Pushed Back and failing its Discipline Test with an outcome of
    1 + 1, routs: its Rout die (how far it routs, and whose zone of control
    it crosses) is rolled, then r1's Follow Up."""
    state = game.new_state()
    play(state, [{"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"}, 6, 2, 3, 3, 3, 3, 1, 1])
    assert state.current_player() == CHANCE
    assert [(a["text"], p) for a, p in state.chance_outcomes()] == [
        (f"g1's Rout die: {f}", Fraction(1, 6)) for f in range(1, 7)]
    assert state.pieces_of(die(4)) == ["r1"]
    play(state, [4, 1])
    (entry,) = state.log()["activations"]
    assert (entry["outcome"], entry["rout"], entry["follow_up"]) == ({"g1": [1, 1]}, {"g1": 4}, 1)
    assert legal(game, state.log()) == []
    events = game.engine.check(state.log())[1][-1]["events"]
    assert "g1 routs: removed from play" in events
    assert "g1" not in {u["id"] for u in state.scenario_after()["units"]}


# ---------------------------------------------------------------- standing fast (issue 27)

def test_a_unit_pushed_back_may_stand_fast_when_asked(game):
    """With ``choices=True``, before g1's Push Back die the Gauls decide:
    stand fast with their Defence Point (the entry's `stand_fast`), or give
    ground and roll it; by default it gives ground."""
    def crunched(**options):
        state = game.new_state(**options)
        play(state, [{"kind": "activate", "unit": "r1", "option": "combat", "target": "g1"}, 6, 2])
        if options:
            state.apply({"kind": "choose", "face": 6})
        play(state, [3])
        return state

    state = crunched(choices=True)
    assert state.current_player() == "gauls"
    assert state.legal_actions() == [
        {"kind": "stand_fast", "unit": "g1", "text": "g1 stands fast, spending a Defence Point"},
        {"kind": "give_ground", "unit": "g1", "text": "g1 gives ground (its Push Back die)"}]
    with pytest.raises(IllegalAction, match="^g1 is the unit that may stand fast here$"):
        state.apply({"kind": "stand_fast", "unit": "r1"})
    gave = state.clone()
    state.apply({"kind": "stand_fast", "unit": "g1"})
    assert state.chance_outcomes()[0][0]["text"] == "g1's Discipline Test (1 of 2): 1"
    play(state, [4, 4])
    (entry,) = state.log()["activations"]
    assert (entry["stand_fast"], entry["discipline"], "push_back" in entry) == (["g1"], {"g1": [4, 4]}, False)
    assert legal(game, state.log()) == []
    assert state.scenario_after()["sides"]["gauls"]["command_points"]["defence"] == 0
    gave.apply({"kind": "give_ground", "unit": "g1"})
    assert gave.current_player() == CHANCE and gave.chance_outcomes()[0][0]["text"] == "g1's Push Back die: 1"
    assert game.state_from_json(json.loads(json.dumps(gave.to_json()))).to_json() == gave.to_json()
    # by default: the Push Back die at once
    assert crunched().chance_outcomes()[0][0]["text"] == "g1's Push Back die: 1"
    with pytest.raises(IllegalAction, match="^no unit may stand fast here$"):
        game.new_state(choices=True).apply({"kind": "give_ground", "unit": "g1"})


def test_random_playouts_stand_fast(game, tmp_path):
    seen: set = set()
    for seed in (912, 923):
        _playout(game, seed, tmp_path, seen=seen, choices=True)
    assert {"stand_fast", "give_ground"} <= seen, seen


# ---------------------------------------------------------------- rules that wait for the finished activation

HOUSE_ZOC = """remove rule ga.leave-zoc-needs-pass

rule house.leave-zoc
    from sheet "A unit leaving an enemy ZOC must pass Manoeuvre Test."
    require activation.finished implies (forall s in activation.steps: leaves_zoc(activation.unit, s) implies step_passed(activation.unit, s))
    message "{pieces} leaves an enemy zone of control without passing its Manoeuvre Test"

define house.whole
    from sheet "Roll 1D6. Add any Modifiers."
    whole(a) := a.finished

rule house.tested
    from sheet "Roll 1D6. Add any Modifiers."
    require whole(activation) implies (forall s in activation.steps: needs_test(activation.unit, s) implies s.test != none)
"""


def test_the_rules_that_read_activation_finished_wait_for_it(game):
    """The rules that judge a finished activation say so in the pack (they
    read ``activation.finished``, in their text or through a define) and the
    game holds them while the activation is open: no list of rule ids."""
    assert waiting_rules(game.engine.pack) == {"ga.manoeuvre-test-taken", "ga.leave-zoc-needs-pass",
                                               "ga.cause-fear-test", "ga.warband-full-distance"}


def test_a_house_rule_that_reads_activation_finished_waits_too(tmp_path):
    """lc steps out of z's zone of control (its second drift): under a
    house rule's own rule in place of ga.leave-zoc-needs-pass the step is
    offered and its test rolled, as under the pack's, and a failed test
    stops lc before the step (the rule, judged once the move is over, would
    refuse it). A rule the game did not know to wait for refused the step
    before its test was rolled."""
    path = scenario(tmp_path, [unit("lc", "red", (2, 4), "north", type="light_cavalry", manoeuvre=3),
                               unit("z", "blue", (3, 3), "south")])
    (tmp_path / "house.wc").write_text(HOUSE_ZOC)
    logs = []
    for rules in ([], [str(tmp_path / "house.wc")]):
        game = load_game(str(path), rules)
        state = game.new_state()
        play(state, [{"kind": "activate", "unit": "lc", "option": "move"}, 6, {"kind": "step", "do": "drift_left"}, 6])
        assert [a["text"] for a in state.legal_actions()] == [
            "lc oblique left", "lc turn left", "lc drift left", "lc drift right", "lc about face", "lc halts"]
        state.apply({"kind": "step", "do": "drift_left"})
        assert [a["text"] for a, _ in state.chance_outcomes()][0] == "lc's Manoeuvre Test (drift_left): 1"
        play(state, [1])
        assert state.current_player() == "red" and legal(game, state.log()) == []
        logs.append(state.log())
    assert waiting_rules(game.engine.pack) == {"ga.manoeuvre-test-taken", "ga.cause-fear-test",
                                               "ga.warband-full-distance", "house.leave-zoc", "house.tested"}
    assert logs[0] == logs[1] == {"side": "red", "activations": [
        {"unit": "lc", "option": "move", "roll": 6, "steps": [{"do": "drift_left", "test": [6]}]}]}
