"""Square-grid ancients: `check` of a sequence of activations with their
dice and command-point spending. Each rule has a sequence that breaks it
(and it alone) on the shipped example or a hand-built board; dropping the
rule by a house layer makes that sequence legal. A property test: every
activation `activations` calls legal passes `check`."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from conftest import run_cli
from gridkit import ALESIA, engine, house, scenario, unit, write
from warcouncil.errors import WarcouncilError


def rules_broken(eng, entries, side=None):
    data = {"activations": entries}
    if side:
        data["side"] = side
    vs, log = eng.check(data)
    return [v.rule for v in vs], log


def _board(tmp_path):
    units = [unit("a", "red", (0, 2), "north"), unit("off", "red", (4, 5), "north", off_table=True),
             unit("lc", "red", (2, 4), "north", type="light_cavalry", manoeuvre=3),
             unit("z", "blue", (3, 3), "south"),
             unit("c", "red", (4, 3), "north", type="cavalry", manoeuvre=3)]
    red = {"command_points": {"attack": 1, "movement": 1, "defence": 1, "strategy": 1, "generalship": 1},
           "break_point": 8}
    blue = {"command_points": {"strategy": 2}, "break_point": 8, "homunculus_cancelled": True}
    return scenario(tmp_path, units + [unit("e", "blue", (7, 0), "south")],
                    terrain=[((4, 1), "river"), ((5, 1), "river")], red=red, blue=blue)


ALESIA_CASES = {
    "ga.immobile": [{"unit": "r6", "option": "move", "roll": 4}],
    "ga.shoot-needs-ranged-attack": [{"unit": "r1", "option": "shoot"}],
    "ga.shoot-needs-target": [{"unit": "r6", "option": "shoot"}],
    "ga.reform-only-disordered": [{"unit": "r1", "option": "reform", "test": [6, 6]}],
    "ga.combat-needs-enemy-in-front": [{"unit": "r5", "option": "combat"}],
    "ga.cavalry-no-forest": [{"unit": "r4", "option": "move", "roll": 6, "steps": [{"do": "forward", "test": 6}]}],
    "ga.no-moving-through": [{"unit": "r5", "option": "move", "roll": 3, "steps": ["forward"]}],
    "ga.movement-allowance": [{"unit": "r5", "option": "move", "roll": 2, "steps": [{"do": "drift_right", "test": 6}]}],
    "ga.manoeuvre-test-taken": [{"unit": "r5", "option": "move", "roll": 6, "steps": ["drift_right"]}],
    "ga.failed-manoeuvre-stops": [{"unit": "r4", "option": "move", "roll": 6,
                                   "steps": [{"do": "drift_left", "test": 1}, {"do": "drift_left", "test": 6}]}],
    "ga.manoeuvre-rerolls": [{"unit": "r5", "option": "move", "roll": 6,
                              "steps": [{"do": "drift_right", "test": [1, 1, 6]}]}],
    "ga.movement-reroll": [{"unit": "r5", "option": "move", "roll": [1, 4]}],
    "ga.cause-fear-test": [{"unit": "r2", "option": "move", "roll": 3, "steps": ["forward"]}],
    "ga.point-use": [{"unit": "r1", "option": "combat", "target": "g1", "dice": [3, 3],
                      "spend": [{"pool": "defence", "use": "reroll_combat"}]}],
    "ga.enough-points": [{"unit": "r5", "option": "charge", "roll": 3,
                          "spend": [{"pool": "attack", "use": "charge_bonus", "points": 3}]}],
    "ga.generalship-own-unit": [{"unit": "r5", "option": "charge", "roll": 3,
                                 "spend": [{"pool": "generalship", "as": "attack", "use": "charge_bonus"}]}],
    "ga.three-for-one": [{"exchange": {"movement": 2}, "get": "attack"}],
    "ga.reallocation-cap": [{"reallocate": {"attack": 5, "movement": 0, "defence": 0, "strategy": 0}}],
    "ga.reallocation-keeps-total": [{"reallocate": {"attack": 4}}],
    "ga.homunculus-once-per-phase": [{"homunculus_est": {"points": 3, "cancel": "strategy"}},
                                     {"homunculus_est": {"points": 20}}],
    # the Gauls (break point 14) reveal 20 points: their army is broken, the battle is lost
    "ga.battle-lost": [{"homunculus_est": {"points": 20}}, {"unit": "r1", "option": "combat"}],
    "ga.devotio-use": [{"unit": "r1", "option": "charge", "roll": 3, "devotio": "setback"}],
    "ga.reserve-use": [{"unit": "r1", "option": "combat", "target": "g1", "dice": [3, 3], "defence": [5],
                        "reserve": "discipline"}],
    # a shot during the move: Nomadic Cavalry only
    "ga.nomadic-shoots-mid-move": [{"unit": "r3", "option": "move", "roll": 3,
                                    "shot": {"after": 0, "target": "g5", "dice": [3], "defence": [5]}}],
    "ga.combined": [{"unit": "r1", "option": "move", "roll": 4, "with": "r3"}],
    "ga.combined-room": [{"unit": "r1", "option": "move", "roll": 6, "with": "r5",
                          "steps": [{"do": "about_face", "test": 6}]}],
    "ga.reversal-ends-activations": [{"unit": "r2", "option": "reform", "test": [1, 2]},
                                     {"unit": "r1", "option": "combat"}],
}

GAUL_CASES = {
    # (g3 stays where it is, no enemy in front; one square forward, which brings an enemy in front of it, is
    # as far as it can go: ga.default.warband-blocked)
    "ga.warband-full-distance": [{"unit": "g3", "option": "move", "roll": 4, "steps": []}],
    "ga.warband-towards-enemy": [{"unit": "g3", "option": "move", "roll": 4,
                                  "steps": [{"do": "about_face", "test": 6}]}],
}

BOARD_CASES = {
    "ga.on-table": [{"unit": "off", "option": "move", "roll": 3}],
    "ga.stay-on-board": [{"unit": "a", "option": "move", "roll": 6, "steps": [{"do": "drift_left", "test": 6}]}],
    "ga.impassable-river": [{"unit": "c", "option": "move", "roll": 6, "steps": ["forward", {"do": "forward", "test": 6}]}],
    "ga.cancel-once": [{"homunculus_est": {"points": 2, "cancel": "strategy"}}],
    "ga.bring-back-off-table": [{"bring_back": "a", "test": [6, 6]}],
    # two squares of zone of control: the second drift leaves it, on a failed test
    "ga.leave-zoc-needs-pass": [{"unit": "lc", "option": "move", "roll": 6,
                                 "steps": [{"do": "drift_left", "test": 6}, {"do": "drift_left", "test": 1}]}],
}


def _case(tmp_path, rule):
    if rule in ALESIA_CASES:
        return ALESIA, ALESIA_CASES[rule], None
    if rule in GAUL_CASES:
        return ALESIA, GAUL_CASES[rule], "gauls"
    return _board(tmp_path), BOARD_CASES[rule], None


ALL = sorted({**ALESIA_CASES, **GAUL_CASES, **BOARD_CASES})


def test_every_rule_of_the_pack_has_a_case():
    assert set(ALL) == set(engine(ALESIA).pack.rules)


@pytest.mark.parametrize("rule", ALL)
def test_each_rule_rejects_its_case_and_removing_it_makes_it_legal(tmp_path, rule):
    sc, entries, side = _case(tmp_path, rule)
    broken, _ = rules_broken(engine(sc), entries, side)
    assert broken == [rule]
    h = house(tmp_path, f"remove rule {rule}\n")
    assert rules_broken(engine(sc, [h]), entries, side)[0] == []


def test_a_legal_sequence_with_points_and_reversal(tmp_path):
    entries = [
        {"exchange": {"movement": 2, "defence": 1}, "get": "attack"},          # attack 3, movement 0, defence 0
        {"unit": "r1", "option": "combat", "target": "g1", "dice": [6, 2], "defence": [3],
         "spend": [{"pool": "generalship", "as": "attack", "use": "reroll_combat"}]},
        {"unit": "r5", "option": "move", "roll": 4, "steps": [{"do": "drift_right", "test": [1, 5]}]},
        {"reallocate": {"attack": 2, "defence": 1, "movement": 1, "generalship": 0}},
        {"unit": "r2", "option": "reform", "test": [2, 1]},                    # fails: Reversal of Fortune
    ]
    broken, log = rules_broken(engine(ALESIA), entries)
    assert broken == []
    assert [e.get("unit", e["entry"]) for e in log] == ["exchange", "r1", "r5", "reallocate", "r2"]
    assert log[1]["result"] == "crunch" and log[1]["ratings"] == [7, 5]
    assert log[2]["movement_points"] == 2
    assert [e["reversal"] for e in log] == [False, False, False, False, True]


def test_reversal_triggers(tmp_path):
    eng = engine(ALESIA)
    # two failed movement activations by the same unit
    two = [{"unit": "r5", "option": "move", "roll": 1}, {"unit": "r5", "option": "move", "roll": 1}]
    assert [e["reversal"] for e in rules_broken(eng, two)[1]] == [False, True]
    # a failed manoeuvre test
    assert rules_broken(eng, [{"unit": "r5", "option": "move", "roll": 6,
                               "steps": [{"do": "drift_right", "test": [1, 1]}]}])[1][0]["reversal"]
    # a charge with no enemy to the front after it
    assert rules_broken(eng, [{"unit": "r5", "option": "charge", "roll": 3}])[1][0]["reversal"]
    assert not rules_broken(eng, [{"unit": "r1", "option": "charge", "roll": 3}])[1][0]["reversal"]
    # repulsed, unless the defence die cancels it
    assert rules_broken(eng, [{"unit": "r1", "option": "combat", "target": "g1", "dice": [1, 1], "defence": [3]}])[1][0]["reversal"]
    assert not rules_broken(eng, [{"unit": "r1", "option": "combat", "target": "g1", "dice": [1, 1], "defence": [1]}])[1][0]["reversal"]
    # short of ammunition
    assert rules_broken(eng, [{"unit": "r3", "option": "shoot", "target": "g5", "dice": [1], "defence": [4]}])[1][0]["reversal"]
    # a failed Homunculus Est! call, unless cancelled
    assert rules_broken(eng, [{"homunculus_est": {"points": 3}}])[1][0]["reversal"]
    assert not rules_broken(eng, [{"homunculus_est": {"points": 3, "cancel": "strategy"}}])[1][0]["reversal"]
    h = house(tmp_path, 'replace define ga.default.reversal-ends-activations\n'
                        '    from house "A house rule for the tests."\n    reversal_ends_activations := false\n')
    after = ALESIA_CASES["ga.reversal-ends-activations"]
    assert rules_broken(engine(ALESIA, [h]), after)[0] == []


def test_removing_a_reversal_trigger(tmp_path):
    h = house(tmp_path, 'replace define ga.reversal-reform\n    from house "A house rule for the tests."\n'
                        '    rof_reform(a) := false\n')
    assert rules_broken(engine(ALESIA, [h]), ALESIA_CASES["ga.reversal-ends-activations"])[0] == []


def test_the_cli_check(tmp_path):
    t = write(tmp_path, "turn.yaml", {"activations": ALESIA_CASES["ga.immobile"]})
    code, out, _ = run_cli("check", ALESIA, t, "--json")
    data = json.loads(out)
    assert code == 1 and data["legal"] is False
    assert data["violations"] == [{
        "rule": "ga.immobile", "pieces": ["r6"],
        "message": "r6 is Immobile: it cannot be given a Movement or Charge activation",
        "source": "004_e70d793f6d64ff40.txt",
        "quote": "An Immobile Unit cannot be given a Movement or Charge Activation."}]
    t2 = write(tmp_path, "ok.yaml", {"activations": [{"unit": "r1", "option": "combat"}]})
    assert run_cli("check", ALESIA, t2)[0] == 0


@pytest.mark.parametrize("turn, message", [
    ({"activations": [{"unit": "zz", "option": "move", "roll": 3}]}, "unknown unit 'zz'"),
    ({"activations": [{"unit": "r1", "option": "dance"}]}, "activation 1: option must be one of move, combat, charge, shoot, reform, not 'dance'"),
    ({"activations": [{"unit": "r1", "option": "move"}]}, "needs its movement die"),
    ({"activations": [{"unit": "r1", "option": "move", "roll": 7}]}, "activation 1: roll must be 1 to 3 die faces 1-6, not 7"),
    ({"activations": [{"unit": "g1", "option": "combat"}]}, "not of the side activating"),
    ({"activations": [{"unit": "r5", "option": "move", "roll": 3, "steps": ["jump"]}]}, "activation 1: steps[1] must be one of forward"),
    ({"actions": []}, "unknown key 'actions' in the turn file; expected side, activations"),
])
def test_bad_turns_exit_2_with_their_place(tmp_path, turn, message):
    t = write(tmp_path, "turn.yaml", turn)
    code, _, err = run_cli("check", ALESIA, t)
    assert code == 2 and message in err and f"{t}:" in err, err


# ---------------------------------------------------------------- generators and check agree

TYPES = ["formed_infantry", "light_infantry", "infantry_skirmishers", "cavalry", "light_cavalry"]
CHARS = ["warband", "drilled", "immobile", "ranged_attack", "cause_fear", "parthian_shot"]


@st.composite
def boards(draw):
    n = draw(st.integers(2, 6))
    units = []
    for i in range(n):
        side = "red" if i % 2 == 0 else "blue"
        facing = draw(st.sampled_from(["north", "east", "south", "west"]))
        at = (draw(st.integers(0, 7)), draw(st.integers(0, 5)))
        chars = draw(st.lists(st.sampled_from(CHARS), unique=True, max_size=2))
        units.append(unit(f"u{i}", side, at, facing, type=draw(st.sampled_from(TYPES)),
                          combat=draw(st.integers(1, 5)), ranged=2, manoeuvre=draw(st.integers(2, 5)),
                          disordered=draw(st.booleans()), characteristics=chars))
    terrain = draw(st.lists(st.tuples(st.tuples(st.integers(0, 7), st.integers(0, 5)),
                                      st.sampled_from(["rough", "forest", "river", "hill"])),
                            max_size=5, unique_by=lambda t: t[0]))
    return units, terrain


def _activation_for(eng, s, uid, option):
    if option in ("move", "charge"):
        return {"unit": uid, "option": option, "roll": 6}
    if option == "reform":
        return {"unit": uid, "option": option, "test": [6, 6]}
    return {"unit": uid, "option": option}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_every_activation_called_legal_passes_check(board):
    units, terrain = board
    with tempfile.TemporaryDirectory() as d:
        try:
            sc = scenario(Path(d), units, terrain=terrain)
            eng = engine(sc)
        except WarcouncilError:
            assume(False)
        s = eng.setting()
        for uid, opts in eng.legal_activations().items():
            warband = s.has(s.by_id[uid], "warband")
            for option, vs in opts.items():
                if vs or (warband and option == "move"):  # a warband's move is judged with its dice and path
                    continue
                broken, _ = rules_broken(eng, [_activation_for(eng, s, uid, option)])
                assert broken == [], (uid, option, broken)
            if opts["move"] or warband:
                continue
            for kind, step in eng.first_steps(s, s.by_id[uid]).items():
                if not step["legal"]:
                    continue
                entry = {"unit": uid, "option": "move", "roll": 6, "steps": [{"do": kind, "test": 6}]}
                if "discipline" in step["tests"]:
                    entry["steps"][0]["fear"] = [6, 6]
                if "manoeuvre" not in step["tests"]:
                    del entry["steps"][0]["test"]
                broken, _ = rules_broken(eng, [entry])
                assert broken == [], (uid, kind, broken)


SHIPPED = ALESIA.parent / "alesia"


def test_the_shipped_turns():
    eng = engine(ALESIA)
    import yaml
    vs, log = eng.check(yaml.safe_load((SHIPPED / "turn.yaml").read_text(encoding="utf-8")))
    assert vs == [] and log[-1]["reversal"] is True
    vs, _ = eng.check(yaml.safe_load((SHIPPED / "illegal-turn.yaml").read_text(encoding="utf-8")))
    assert [(v.rule, v.pieces) for v in vs] == [
        ("ga.immobile", ["r6"]), ("ga.shoot-needs-ranged-attack", ["r1"]), ("ga.cavalry-no-forest", ["r4"]),
        ("ga.generalship-own-unit", ["r5"]), ("ga.three-for-one", []), ("ga.reversal-ends-activations", ["r3"])]
    code, out, _ = run_cli("odds", "alesia", SHIPPED / "combat.yaml", "--json")
    assert code == 0 and json.loads(out)["outcomes"]["cancelled"] == "1/6"


def test_combined_moves_and_a_phalanx_in_rough(tmp_path):
    units = [unit("a", "red", (2, 3), "north"), unit("b", "red", (2, 4), "north"),
             unit("c", "red", (5, 3), "north", type="cavalry"), unit("d", "red", (5, 4), "north", type="light_cavalry"),
             unit("p", "red", (0, 1), "north", characteristics=["phalanx"]), unit("e", "blue", (6, 0), "south")]
    eng = engine(scenario(tmp_path, units, terrain=[((0, 0), "rough")], depth=6))
    move = lambda lead, foll, steps: rules_broken(eng, [{"unit": lead, "option": "move", "roll": 6, "with": foll,
                                                         "steps": steps}])[0]
    assert move("a", "b", ["forward", "forward"]) == []
    assert move("a", "b", [{"do": "turn_right", "test": 6}]) == []
    assert move("c", "d", ["forward"]) == []                      # two cavalry units move together ...
    assert move("c", "d", [{"do": "drift_left", "test": 6}]) == ["ga.combined"]   # ... but manoeuvre only if the same type
    assert move("b", "a", []) == ["ga.combined"]         # the rear unit leads nothing
    _, log = rules_broken(eng, [{"unit": "p", "option": "move", "roll": 6, "steps": [{"do": "forward", "test": 6}]},
                                {"unit": "p", "option": "combat"}])
    vs, _ = eng.check({"activations": [{"unit": "p", "option": "move", "roll": 6, "steps": [{"do": "forward", "test": 6}]},
                                        {"unit": "p", "option": "reform", "test": [6, 6]}]})
    assert vs == []                                               # it became Disordered: it may reform
    h = house(tmp_path, 'replace define ga.phalanx-rough\n    from house "A house rule for the tests."\n'
                        '    phalanx_disorders(u, s) := false\n')
    vs, _ = engine(eng.scenario.path, [h]).check({"activations": [
        {"unit": "p", "option": "move", "roll": 6, "steps": [{"do": "forward", "test": 6}]},
        {"unit": "p", "option": "reform", "test": [6, 6]}]})
    assert [v.rule for v in vs] == ["ga.reform-only-disordered"]


def test_a_frenzied_unit_fights_again_unless_repulsed_or_grind(tmp_path):
    units = [unit("f", "red", (2, 3), "north", characteristics=["frenzied"]), unit("e", "blue", (3, 2), "south")]
    eng = engine(scenario(tmp_path, units))
    _, log = rules_broken(eng, [{"unit": "f", "option": "combat", "target": "e", "dice": [4], "defence": [1]}])
    assert log[0].get("fights_again") is True and log[0]["reversal"] is False
    _, log = rules_broken(eng, [{"unit": "f", "option": "combat", "target": "e", "dice": [2], "defence": [1]}])
    assert "fights_again" not in log[0] and log[0]["reversal"] is True


def test_drilled_and_skirmisher_rerolls_are_once_per_turn(tmp_path):
    units = [unit("d", "red", (2, 3), "north", characteristics=["drilled"]),
             unit("s", "red", (5, 3), "north", type="light_chariots", characteristics=["drilled"])]
    eng = engine(scenario(tmp_path, units))
    step = {"do": "drift_right", "test": [1, 6]}
    back = {"do": "drift_left", "test": [1, 6]}
    assert rules_broken(eng, [{"unit": "d", "option": "move", "roll": 4, "steps": [step]},
                              {"unit": "d", "option": "move", "roll": 4, "steps": [back]}])[0] == ["ga.manoeuvre-rerolls"]
    assert rules_broken(eng, [{"unit": "d", "option": "move", "roll": 4, "steps": [step]},
                              {"unit": "d", "option": "move", "roll": 4, "steps": [back],
                               "spend": [{"pool": "movement", "use": "reroll_manoeuvre"}]}])[0] == []
    # a drilled skirmisher has both: two re-rolls in a turn
    assert rules_broken(eng, [{"unit": "s", "option": "move", "roll": 6, "steps": [step, back]}])[0] == []
    assert rules_broken(eng, [{"unit": "s", "option": "move", "roll": 6,
                               "steps": [step, {"do": "drift_left", "test": [1, 1, 6]}]}])[0] == [
        "ga.manoeuvre-rerolls"]


# ---------------------------------------------------------------- random input never crashes

entry_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 8), st.sampled_from(
    ["r1", "r2", "r5", "g1", "zz", "move", "combat", "charge", "shoot", "reform", "forward", "about_face",
     "attack", "movement", "strategy", "generalship", "charge_bonus", "reroll_movement"]),
    st.lists(st.integers(0, 7), max_size=4))
entries = st.dictionaries(st.sampled_from(["unit", "option", "roll", "steps", "target", "dice", "defence", "test",
                                           "spend", "with", "exchange", "get", "reallocate", "homunculus_est"]),
                          entry_values, max_size=5)


_ENGINE: list = []


def _alesia():
    if not _ENGINE:
        _ENGINE.append(engine(ALESIA))
    return _ENGINE[0]


@settings(max_examples=150, deadline=None)
@given(st.lists(entries, max_size=4))
def test_any_turn_is_an_answer_or_bad_input(seq):
    eng = _alesia()
    try:
        vs, log = eng.check({"activations": seq})
    except WarcouncilError:
        return
    assert all(v.rule.startswith("ga.") and v.quote for v in vs)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["movement", "manoeuvre", "discipline", "reform", "combat", "shooting", "push_back",
                        "follow_up", "failed_discipline", "failed_reform"]),
       st.sampled_from(["r1", "r2", "r3", "r4", "r5", "r6"]), st.sampled_from(["g1", "g2", "g3", "g4", "g5"]),
       st.integers(0, 3))
def test_every_distribution_sums_to_one(test, own, enemy, n):
    eng = _alesia()
    data = {"test": test}
    if test == "combat":
        data.update(attacker=own, defender=enemy, defence_points=n % 2)
    elif test == "shooting":
        data.update(shooter=own, target=enemy)
    else:
        data["unit"] = own
        if test == "movement":
            data["attack_points"] = n
        if test in ("failed_discipline", "failed_reform"):
            data["critical_by"] = n
    dist, _ = eng.odds(data)
    assert sum(dist.values()) == 1 and all(p > 0 for p in dist.values())


odds_values = st.one_of(st.none(), st.booleans(), st.integers(-2, 8), st.lists(st.integers(0, 3), max_size=2),
                        st.sampled_from(["r1", "g1", "zz", "about_face", "combat", "killed", "rout", "skirmish_line",
                                         "routed_from_combat", "gauls"]))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["movement", "manoeuvre", "discipline", "reform", "combat", "shooting", "push_back",
                        "follow_up", "follow_up_decline", "failed_discipline", "failed_reform", "lines", "stubborn",
                        "lost_eagles", "risk_to_general", "homunculus_est", "command_point_losses",
                        "off_table_return", "nonsense"]),
       st.dictionaries(st.sampled_from(["unit", "attacker", "defender", "shooter", "target", "side", "points",
                                        "manoeuvre", "rough", "attack_points", "reroll", "event", "fate", "line",
                                        "critical_by", "cause", "against", "squares", "brave"]),
                       odds_values, max_size=4))
def test_any_test_file_is_an_answer_or_bad_input(test, rest):
    eng = _alesia()
    try:
        dist, _ = eng.odds({"test": test, **rest})
    except WarcouncilError:
        return
    assert sum(dist.values()) == 1


# the issue's "How we will know": `check` rejects each of these, naming its rule (with its source and quote)
ISSUE_REJECTIONS = {
    "an Immobile unit moving": ("ga.immobile", "An Immobile Unit cannot be given a Movement or Charge Activation."),
    "a unit without Ranged Attack shooting": (
        "ga.shoot-needs-ranged-attack", "A Ranged Attack Unit may use missiles to carry out a Ranged Combat Activation."),
    "a Reform by an undisordered unit": ("ga.reform-only-disordered", "Disordered unit rolls 2D6. Add any Modifiers."),
    "a cavalry unit entering forest": ("ga.cavalry-no-forest", "It cannot enter Forests."),
    "leaving a zone of control without a passed Manoeuvre test": (
        "ga.leave-zoc-needs-pass", "A unit leaving an enemy ZOC must pass Manoeuvre Test."),
    "Generalship points spent on a unit the General is not with": ("ga.generalship-own-unit", "Convert into one Attack, Defence or Movement Point for a unit"),
    "an exchange at a rate other than three for one": (
        "ga.three-for-one", "Any three Points can be exchanged for one different Point at any time."),
    "an activation after a Reversal of Fortune": ("ga.reversal-ends-activations", None),
}


@pytest.mark.parametrize("what", sorted(ISSUE_REJECTIONS))
def test_the_issues_rejections_name_their_rule_source_and_quote(tmp_path, what):
    rule, quote = ISSUE_REJECTIONS[what]
    sc, entries, side = _case(tmp_path, rule)
    t = write(tmp_path, "turn.yaml", {"activations": entries, **({"side": side} if side else {})})
    code, out, _ = run_cli("check", sc, t, "--json")
    assert code == 1
    vs = json.loads(out)["violations"]
    assert [v["rule"] for v in vs] == [rule]
    if quote is not None:  # (the Reversal's default cites the reference, not the sheet)
        assert vs[0]["quote"] == quote and vs[0]["source"].endswith("004_e70d793f6d64ff40.txt")
    code, text, _ = run_cli("check", sc, t)
    assert f"[{rule}]" in text and vs[0]["quote"] in text


def test_the_number_of_attack_dice_is_the_number_the_ratings_give(tmp_path):
    """"Equal Combat Ratings: Attacker rolls one dice." (and shooting's "Shooter
    rolls one dice"): the pack's combat_dice / shooting_dice give the number
    of attack dice; a turn giving another number is bad input (exit 2 at the
    `dice` value's place), as a side's point-loss dice are (the count is set
    by the board, not chosen), whether it is a Combat, a Shooting Activation
    or a shot during a move."""
    units = [unit("a", "red", (2, 3), "north", combat=3), unit("d", "blue", (3, 2), "south", combat=3),
             unit("s", "red", (6, 4), "north", combat=3, ranged=3, characteristics=["ranged_attack"]),
             unit("t", "blue", (7, 2), "south", combat=3),
             unit("n", "red", (2, 8), "north", type="light_cavalry", ranged=3, manoeuvre=3,
                  characteristics=["nomadic_cavalry", "ranged_attack"]),
             unit("u", "blue", (3, 5), "south", combat=3)]
    sc = scenario(tmp_path, units, width=10, depth=10)
    eng = engine(sc)
    fight = {"unit": "a", "option": "combat", "target": "d", "defence": [5]}
    shoot = {"unit": "s", "option": "shoot", "target": "t", "defence": [5]}
    ride = {"unit": "n", "option": "move", "roll": 3, "steps": ["forward"],
            "shot": {"after": 1, "target": "u", "defence": [5]}}
    # 3 against 3: one die each
    assert rules_broken(eng, [{**fight, "dice": [4]}])[0] == []
    assert rules_broken(eng, [{**shoot, "dice": [4]}])[0] == []
    assert rules_broken(eng, [{**ride, "shot": {**ride["shot"], "dice": [4]}}])[0] == []
    bad = {"a": ({**fight, "dice": [4, 6]}, "`dice` gives 2 dice, but a's Combat Rating 3 against d's 3 rolls 1"),
           "a3": ({**fight, "dice": [4, 6, 6]}, "`dice` gives 3 dice, but a's Combat Rating 3 against d's 3 rolls 1"),
           "s": ({**shoot, "dice": [4, 6]},
                 "`dice` gives 2 dice, but s's Ranged Combat Rating 3 against t's Combat Rating 3 rolls 1"),
           "n": ({**ride, "shot": {**ride["shot"], "dice": [4, 6]}},
                 "`dice` gives 2 dice, but n's Ranged Combat Rating 3 against u's Combat Rating 3 rolls 1")}
    for name, (entry, message) in bad.items():
        with pytest.raises(WarcouncilError) as e:
            eng.check({"activations": [entry]})
        assert (name, e.value.message) == (name, message)
    # the number due is the pack's: a house rule giving two dice at equal ratings wants two
    h = house(tmp_path, 'replace define ga.combat-dice\n    from house "A house rule for the tests."\n'
                        '    combat_dice(a, d) := 2\n')
    assert rules_broken(engine(sc, [h]), [{**fight, "dice": [4, 6]}])[0] == []
    with pytest.raises(WarcouncilError) as e:
        engine(sc, [h]).check({"activations": [{**fight, "dice": [4]}]})
    assert e.value.message == "`dice` gives 1 die, but a's Combat Rating 3 against d's 3 rolls 2"
    # on the command line: exit 2, the place of the dice (the first entry's `dice:` is on line 5, column 9)
    turn = tmp_path / "turn.yaml"
    turn.write_text("activations:\n- unit: a\n  option: combat\n  target: d\n  dice: [4, 6]\n  defence: [5]\n",
                    encoding="utf-8")
    code, out, err = run_cli("check", sc, turn)
    assert (code, out) == (2, "") and err.startswith(f"{turn}:5:9: `dice` gives 2 dice, but a's Combat Rating 3 "
                                                     "against d's 3 rolls 1"), err


def test_every_change_a_turn_makes_is_reported_under_positions(tmp_path):
    """`positions` names every unit the entry changed, where it now stands:
    a passed Reform (no longer Disordered), a Phalanx Disordered by moving
    into rough ground, a plain move and the unit moving with it."""
    units = [unit("a", "red", (2, 3), "north", disordered=True),
             unit("p", "red", (5, 4), "north", characteristics=["phalanx"]),
             unit("f", "red", (2, 4), "north"), unit("e", "blue", (7, 0), "south")]
    eng = engine(scenario(tmp_path, units, terrain=[((5, 3), "rough"), ((6, 3), "rough")]))
    # Reform: 6+5 = 11 against Discipline 7 (no enemy zone of control, no General): passed
    _, log = rules_broken(eng, [{"unit": "a", "option": "reform", "test": [6, 5]}])
    assert (log[0]["test"], log[0]["positions"]) == ("pass", {"a": {"at": [2, 3], "facing": "north",
                                                                     "disordered": False}})
    # the Phalanx steps forward into rough ground (a Manoeuvre Test there: 6): Disordered
    _, log = rules_broken(eng, [{"unit": "p", "option": "move", "roll": 6, "steps": [{"do": "forward", "test": 6}]}])
    assert log[0]["positions"] == {"p": {"at": [5, 3], "facing": "north", "disordered": True}}
    # a combined move: a one square forward, f placed directly behind it
    _, log = rules_broken(eng, [{"unit": "a", "option": "move", "roll": 6, "steps": ["forward"], "with": "f"}])
    assert log[0]["positions"] == {"a": {"at": [2, 2], "facing": "north", "disordered": True},
                                   "f": {"at": [2, 3], "facing": "north", "disordered": False}}
    # a failed movement roll changes nothing: no positions
    _, log = rules_broken(eng, [{"unit": "a", "option": "move", "roll": 1}])
    assert "positions" not in log[0]


@pytest.mark.parametrize("value, place, message", [
    ("dice: [4, 7]", "5:13", "activation 1: dice[2] must be a die face 1-6, not 7"),
    ("dice: 7", "5:9", "activation 1: dice must be 1 to 3 die faces 1-6, not 7"),
    ("defence: [5, 0]", "5:16", "activation 1: defence[2] must be a die face 1-6, not 0"),
    ("discipline: {g1: [2, 9]}", "5:24", "activation 1: discipline: g1[2] must be a die face 1-6, not 9"),
    ("steps: [{do: forward, test: [7]}]", "5:32", "activation 1: step 1: test[1] must be a die face 1-6, not 7"),
])
def test_a_bad_die_face_is_named_at_its_place(tmp_path, value, place, message):
    """A face out of 1-6 in a list of dice is named, at its own place."""
    t = tmp_path / "turn.yaml"
    t.write_text(f"activations:\n- unit: r1\n  option: combat\n  target: g1\n  {value}\n", encoding="utf-8")
    code, out, err = run_cli("check", ALESIA, t)
    assert (code, out, err.splitlines()[0]) == (2, "", f"{t}:{place}: {message}")
