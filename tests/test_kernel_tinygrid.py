"""The kernel on a pack that is not Commands & Colors: Tiny Grid
(``tests/tinygrid/``), a square-grid game whose decision is the set of units
a side activates, with no card. Enumerate, check with citations, house-rule
layering, lint — and no C&C code loaded.

The board (``tests/tinygrid/skirmish.yaml``, 5 x 4 squares, red to move with
2 command points)::

    row 0   b2  .   .   b1  .
    row 1   .   .   .   i3  .        i3 is next to b1: engaged
    row 2   .   c2  .   .   .
    row 3   i1  .   i2  a1  c1       a1 is artillery: immobile

Red may activate any of c1, c2, i1, i2, at most 2 of them, at most one
cavalry (c1, c2): the empty set, 4 singletons and 5 pairs ({c1, c2} is out).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
TINY = HERE / "tinygrid"
PACK = TINY / "pack"
HOUSE = TINY / "house"
SCENARIO = TINY / "skirmish.yaml"

sys.path.insert(0, str(HERE))  # the tiny game's System: tinygrid/system.py

from tinygrid.system import TinyGrid  # noqa: E402

from warcouncil.dsl.lint import lint  # noqa: E402
from warcouncil.solver.check import Verdict  # noqa: E402
from warcouncil.solver.decide import Decision, SetEngine, build_problem  # noqa: E402
from warcouncil.kernel.engine import Engine  # noqa: E402
from warcouncil.kernel.system import System  # noqa: E402

RULES_TXT = "rules.txt"
HOUSE_WC = str(HOUSE / "10-house.wc")

Q_COMMAND = "A side may activate at most as many units as it has command points."
Q_IMMOBILE = "Artillery is immobile and may never be activated."
Q_ENGAGED = "An engaged unit may not be activated."
Q_CAVALRY = "No more than one cavalry unit may be activated in the same turn."
Q_ONLY = "Only activated units may move."
Q_MOVE = "An activated unit may move up to its movement allowance in squares."
Q_MIXING = "Infantry and cavalry may never be activated in the same turn."

LEGAL = {
    (),
    ("c1",), ("c2",), ("i1",), ("i2",),
    ("c1", "i1"), ("c1", "i2"), ("c2", "i1"), ("c2", "i2"), ("i1", "i2"),
}


def ids(sets) -> set[tuple[str, ...]]:
    return {tuple(p.id for p in s) for s in sets}


def vs(verdict: Verdict) -> list[tuple]:
    return [(v.rule, v.pieces, v.source, v.quote) for v in verdict.violations]


@pytest.fixture(scope="module")
def eng() -> SetEngine:
    return Engine.load(SCENARIO)


@pytest.fixture(scope="module")
def house() -> SetEngine:
    return Engine.load(SCENARIO, [HOUSE])


# --------------------------------------------------------------------------- the system


def test_the_pack_is_played_by_the_tiny_grid_system(eng) -> None:
    assert System.for_pack("tinygrid") is TinyGrid
    assert eng.system is TinyGrid and type(eng) is SetEngine
    assert TinyGrid.context is None and TinyGrid.answers("orders") and not TinyGrid.answers("moves")
    # compiled with the kernel's builtin meanings alone
    assert set(eng.plan.compiler.meanings.names()) == set(eng.pack.vocabulary)
    d = eng.decision()
    assert isinstance(d, Decision) and d.fixed_key() == ((None, None, None), None) and d.alts == []


# --------------------------------------------------------------------------- enumerate


def test_every_legal_activation_set(eng) -> None:
    sets = eng.all_decisions()
    assert ids(sets) == LEGAL and len(sets) == len(LEGAL) == 10
    assert eng.count() == 10
    # smallest first, then in piece order
    assert [tuple(p.id for p in s) for s in sets] == [
        (), ("c1",), ("c2",), ("i1",), ("i2",),
        ("c1", "i1"), ("c1", "i2"), ("c2", "i1"), ("c2", "i2"), ("i1", "i2")]


def test_enumeration_streams_and_stops_at_the_limit(eng) -> None:
    it = eng.decisions(limit=3)
    first = next(it)
    rest = list(it)
    got = [first] + rest
    assert len(got) == 3 and ids(got) <= LEGAL and len(ids(got)) == 3
    assert list(eng.decisions(limit=0)) == []


def test_every_rule_is_one_constraint_object_calling_its_closure(eng) -> None:
    problem = build_problem(eng.decision())
    by_rule: dict[str, int] = {}
    for c, _vars in problem._constraints:
        assert not isinstance(c, str) and callable(c)
        by_rule[c.rule_id] = by_rule.get(c.rule_id, 0) + 1
    # unary rules: one per own piece (6); the others: one over all pieces
    assert by_rule == {"tg.command-points": 1, "tg.immobile": 6, "tg.engaged": 6, "tg.one-cavalry": 1}


def test_the_side_and_its_command_points(eng) -> None:
    # with 3 command points, any 3 of the four free units but not both cavalry
    three = ids(eng.decisions(command=3))
    assert three == LEGAL | {("c1", "i1", "i2"), ("c2", "i1", "i2")}
    # blue: b1 is next to i3 (engaged); b2 alone
    assert ids(eng.decisions(side="blue")) == {(), ("b2",)}


# --------------------------------------------------------------------------- check


def test_a_legal_set_is_legal(eng) -> None:
    for s in LEGAL:
        assert eng.check(list(s)) == Verdict(True, [])


def test_an_illegal_set_names_every_broken_rule_with_its_source_and_quote(eng) -> None:
    v = eng.check(["a1", "i3", "c1", "c2"])
    assert not v.legal
    assert vs(v) == [
        ("tg.command-points", ["a1", "c1", "c2", "i3"], RULES_TXT, Q_COMMAND),
        ("tg.immobile", ["a1"], RULES_TXT, Q_IMMOBILE),
        ("tg.engaged", ["i3"], RULES_TXT, Q_ENGAGED),
        ("tg.one-cavalry", ["a1", "c1", "c2", "i3"], RULES_TXT, Q_CAVALRY),
    ]
    assert [x.message for x in v.violations][1:3] == [
        "a1 is immobile and may not be activated", "i3 is engaged and may not be activated"]
    assert all(x.origin == str(PACK / "10-activation.wc") for x in v.violations)
    # every quote is a sentence of the tiny rulebook
    text = (PACK / RULES_TXT).read_text("utf-8")
    assert all(x.quote in text for x in v.violations)


def test_check_agrees_with_the_enumeration(eng) -> None:
    import itertools

    own = [p.id for p in eng.decision().items]
    for n in range(len(own) + 1):
        for s in itertools.combinations(own, n):
            assert eng.check(list(s)).legal == (s in LEGAL), s


def test_a_turn_judged_by_the_move_rules(eng) -> None:
    ok = eng.check(["i1", "c1"], moves=[("i1", (0, 2)), ("c1", (4, 1))])
    assert ok == Verdict(True, [])
    bad = eng.check(["i1"], moves=[("i1", (0, 1)), ("c2", (1, 1))])
    assert vs(bad) == [
        ("tg.only-activated-move", ["c2"], RULES_TXT, Q_ONLY),
        ("tg.movement", ["i1"], RULES_TXT, Q_MOVE),
    ]


def test_an_unknown_piece_is_bad_input(eng) -> None:
    from warcouncil.errors import WarcouncilError

    with pytest.raises(WarcouncilError, match=r"unknown piece id 'i4'.*|unknown piece id 'i4'"):
        eng.check(["i4"])


# --------------------------------------------------------------------------- house rules


def test_a_house_layer_changes_the_answer_exactly(house) -> None:
    # one more activation (replace define), any number of cavalry (remove
    # rule), never infantry with cavalry (a new rule)
    assert ids(house.all_decisions()) == {
        (), ("c1",), ("c2",), ("i1",), ("i2",), ("c1", "c2"), ("i1", "i2")}
    assert house.count() == 7
    assert "tg.one-cavalry" not in house.pack.rules


def test_house_violations_name_the_house_file(house) -> None:
    v = house.check(["c1", "c2", "i1", "i2"])
    assert vs(v) == [
        ("tg.command-points", ["c1", "c2", "i1", "i2"], RULES_TXT, Q_COMMAND),
        ("house.no-mixing", ["c1", "c2", "i1", "i2"], HOUSE_WC, Q_MIXING),
    ]
    # three units: over the pack's 2 command points, within the house's 3
    assert vs(house.check(["c1", "c2", "i1"])) == [("house.no-mixing", ["c1", "c2", "i1"], HOUSE_WC, Q_MIXING)]
    assert house.check(["c1", "c2"]).legal


def test_each_house_statement_matters(tmp_path) -> None:
    """Each of the three statements of the house layer, alone."""
    text = (HOUSE / "10-house.wc").read_text("utf-8")
    shutil.copy(HOUSE / "house.txt", tmp_path / "house.txt")
    head, rest = text.split("replace define", 1)
    define = "replace define" + rest.split("remove rule", 1)[0]
    remove = "remove rule tg.one-cavalry\n"
    new = "rule house.no-mixing" + rest.split("rule house.no-mixing", 1)[1]
    doc = 'document house "house.txt"\n'

    def answer(body: str) -> set:
        f = tmp_path / "layer.wc"
        f.write_text(doc + body, "utf-8")
        return ids(Engine.load(SCENARIO, [f]).all_decisions())

    assert answer(define) == LEGAL | {("c1", "i1", "i2"), ("c2", "i1", "i2")}
    assert answer(remove) == LEGAL | {("c1", "c2")}
    assert answer(new) == {(), ("c1",), ("c2",), ("i1",), ("i2",), ("i1", "i2")}


# --------------------------------------------------------------------------- lint


def test_the_pack_and_the_house_layer_lint_clean() -> None:
    pack, problems = lint([str(PACK)])
    assert problems == [] and pack.name == "tinygrid"
    _, problems = lint([str(HOUSE)], base=str(PACK))
    assert problems == []


def test_a_typo_in_the_pack_is_reported_at_its_place(tmp_path) -> None:
    copy = tmp_path / "pack"
    shutil.copytree(PACK, copy)
    f = copy / "10-activation.wc"
    lines = f.read_text("utf-8").splitlines(keepends=True)
    (n,) = [i for i, line in enumerate(lines) if "exists e in enemy_units" in line]
    lines[n] = lines[n].replace("enemy_units", "enemy_unitz")
    f.write_text("".join(lines), "utf-8")
    _, problems = lint([str(copy)])
    assert len(problems) == 1
    (p,) = problems
    col = lines[n].index("enemy_unitz") + 1
    assert (p.location.file, p.location.line, p.location.column) == (str(f), n + 1, col)
    assert str(p).startswith(f"{f}:{n + 1}:{col}: ") and "enemy_unitz" in str(p)
    assert "enemy_units" in (p.hint or "")


def test_a_misquoted_citation_is_reported(tmp_path) -> None:
    copy = tmp_path / "pack"
    shutil.copytree(PACK, copy)
    f = copy / "10-activation.wc"
    f.write_text(f.read_text("utf-8").replace("An engaged unit may not", "An engaged unit may never"), "utf-8")
    _, problems = lint([str(copy)])
    assert [p.message for p in problems] == ["tg.engaged: the quote is not in rules.txt"]


# --------------------------------------------------------------------------- the game interface


def test_a_turn_activates_a_legal_set_then_ends(tmp_path) -> None:
    """``tinygrid/game.py``: one decision (the legal sets, as the engine
    lists them), then the turn is over; an illegal set is refused with its
    violations and changes nothing; ``check --write-next`` gives the board
    with blue to move."""
    from warcouncil.kernel.game import TERMINAL, IllegalAction, load_game

    state = load_game(SCENARIO).new_state()
    assert state.current_player() == "red"
    acts = state.legal_actions()
    assert [tuple(a["units"]) for a in acts] == [tuple(p.id for p in s) for s in Engine.load(SCENARIO).all_decisions()]
    assert {tuple(a["units"]) for a in acts} == LEGAL and acts[5]["text"] == "activate c1, i1"
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "activate", "units": ["c1", "c2"]})
    assert [(v["rule"], v["pieces"], v["quote"]) for v in e.value.violations] == [
        ("tg.one-cavalry", ["c1", "c2"], Q_CAVALRY)]
    with pytest.raises(IllegalAction, match="unknown piece id 'zz'"):
        state.apply({"kind": "activate", "units": ["zz"]})
    assert state.history() == []
    state.apply({"kind": "activate", "units": ["c1", "i1"]})
    assert state.current_player() == TERMINAL and state.log() == {"orders": ["c1", "i1"]}
    after = state.scenario_after()
    assert after["to_move"] == "blue" and after["units"][0] == {"id": "a1", "side": "red", "type": "artillery",
                                                                 "at": [3, 3]}
    turn = tmp_path / "turn.yaml"
    turn.write_text("orders: [c1, i1]\n", encoding="utf-8")
    nxt = tmp_path / "next.yaml"
    r = cli("check", SCENARIO, turn, "--write-next", nxt)
    assert r.exit_code == 0, r.output
    import yaml
    assert yaml.safe_load(nxt.read_text(encoding="utf-8"))["to_move"] == "blue"


# --------------------------------------------------------------------------- no C&C code


_END_TO_END = r"""
import json, sys
sys.path.insert(0, TESTS)
from tinygrid.system import TinyGrid
from warcouncil.kernel.engine import Engine

eng = Engine.load(SCENARIO)
sets = sorted(tuple(p.id for p in s) for s in eng.decisions())
verdict = eng.check(["a1", "i3", "c1", "c2"])
turn = eng.check(["i1"], moves=[("i1", (0, 1))])
house = Engine.load(SCENARIO, [HOUSE])
hsets = sorted(tuple(p.id for p in s) for s in house.decisions())
hverdict = house.check(["c1", "i1"])
print(json.dumps({
    "engine": type(eng).__module__ + "." + type(eng).__name__,
    "sets": len(sets), "rules": [v.rule for v in verdict.violations],
    "turn": [v.rule for v in turn.violations],
    "house_sets": len(hsets), "house_rules": [(v.rule, v.source) for v in hverdict.violations],
    "modules": sorted(m for m in sys.modules if m.startswith("warcouncil")),
}))
"""


def test_no_commands_and_colors_code_is_loaded() -> None:
    prelude = f"TESTS = {str(HERE)!r}\nSCENARIO = {str(SCENARIO)!r}\nHOUSE = {str(HOUSE)!r}\n"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-c", prelude + _END_TO_END], capture_output=True, text=True,
                       cwd=str(HERE.parent), env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["engine"] == "warcouncil.solver.decide.SetEngine"
    assert got["sets"] == 10
    assert got["rules"] == ["tg.command-points", "tg.immobile", "tg.engaged", "tg.one-cavalry"]
    assert got["turn"] == ["tg.movement"]
    assert got["house_sets"] == 7
    assert got["house_rules"] == [["house.no-mixing", HOUSE_WC]]
    mods = got["modules"]
    assert "warcouncil.solver.decide" in mods and "warcouncil.solver.plan" in mods
    assert [m for m in mods if m == "warcouncil.systems" or m.startswith("warcouncil.systems.")] == []
    assert [m for m in mods if "cc_builtins" in m or m.endswith(".cc") or ".cc." in m] == []


# --------------------------------------------------------------------------- the command line


def cli(*args: str):
    from click.testing import CliRunner

    from warcouncil.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def test_orders_without_a_card_on_the_command_line() -> None:
    r = cli("orders", SCENARIO, "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["side"] == "red" and got["count"] == 10
    assert {tuple(s["pieces"]) for s in got["order_sets"]} == LEGAL
    r = cli("orders", SCENARIO, "--count")
    assert (r.exit_code, r.output) == (0, "10\n")
    r = cli("orders", SCENARIO, "--rules", HOUSE, "--count")
    assert (r.exit_code, r.output) == (0, "7\n")
    # --limit bounds the work: the total is not counted (no closed form here), only that there are more
    r = cli("orders", SCENARIO, "--json", "--limit", "2")
    got = json.loads(r.output)
    assert got["count"] is None and got["count_at_least"] == 3 and got["limited"] is True
    assert len(got["order_sets"]) == 2
    r = cli("orders", SCENARIO, "--json", "--limit", "10")  # exactly all: the total is known, nothing more
    got = json.loads(r.output)
    assert (got["count"], got["limited"], len(got["order_sets"])) == (10, False, 10)
    r = cli("orders", SCENARIO, "--limit", "2")
    assert r.exit_code == 0 and r.output.splitlines()[-1] == "more than 2 legal sets (showing the first 2; --count gives the number)"


def test_the_command_line_refuses_what_the_system_does_not_answer() -> None:
    r = cli("orders", SCENARIO, "--card", "Order Two Units Left")
    assert r.exit_code == 2 and "--card is for card-driven systems; Tiny Grid has no cards" in r.output
    r = cli("cards", SCENARIO)
    assert r.exit_code == 2 and "`cards` makes no sense for Tiny Grid scenarios" in r.output


def test_check_on_the_command_line_without_a_card(tmp_path) -> None:
    legal = tmp_path / "legal.yaml"
    legal.write_text("orders: [i1, c2]\n", encoding="utf-8")
    r = cli("check", SCENARIO, legal, "--json")
    assert (r.exit_code, json.loads(r.output)) == (0, {"legal": True, "violations": []})
    bad = tmp_path / "bad.yaml"
    bad.write_text("orders: [a1, c1, c2]\n", encoding="utf-8")
    r = cli("check", SCENARIO, bad, "--json")
    assert r.exit_code == 1
    got = {(v["rule"], tuple(v["pieces"]), v["source"]) for v in json.loads(r.output)["violations"]}
    assert got == {("tg.command-points", ("a1", "c1", "c2"), "rules.txt"),
                   ("tg.immobile", ("a1",), "rules.txt"),
                   ("tg.one-cavalry", ("a1", "c1", "c2"), "rules.txt")}
    carded = tmp_path / "carded.yaml"
    carded.write_text("card: Order Two Units Left\norders: [i1]\n", encoding="utf-8")
    r = cli("check", SCENARIO, carded)
    assert r.exit_code == 2 and "this game system has no cards: drop `card:` from the turn file" in r.output


def test_moves_is_refused_as_a_verb_the_system_does_not_answer() -> None:
    r = cli("moves", SCENARIO, "--order", "i1")
    assert r.exit_code == 2 and "`moves` makes no sense for Tiny Grid scenarios" in r.output
    r = cli("moves", SCENARIO)
    assert r.exit_code == 2 and "`moves` makes no sense for Tiny Grid scenarios" in r.output
