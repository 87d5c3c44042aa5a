"""Warmaster: a move ends on the table (issue 27). No sentence of seed 003
speaks of leaving the table, and a log that moved a piece off it made a
next scenario that does not load; the pack's default reading
`wm.default.on-table` (30-defaults.wc, a rule a house rule may remove)
says every move ends with each piece it moves wholly on the table. The
game interface lists only destinations on the table and refuses one off
it with the rule."""

from __future__ import annotations

import pytest

import warcouncil
from conftest import run_cli
from warcouncil.kernel.game import IllegalAction
from warmaster_util import char, checked, house, scenario, turn, unit

RULE = "wm.default.on-table"
QUOTE = "Command range: the General may order any unit on the table."
REMOVED = f"remove rule {RULE}\n"

# a 120 x 80 table; a (12 x 2, x 4..16) 4 cm from the west edge, the enemy
# x 10 cm north of b (at the south edge), the flyer f far from every character
UNITS = [unit("a", "red", (10, 40)), unit("b", "red", (60, 3)), unit("x", "blue", (60, 15), facing=180),
         unit("f", "red", (110, 70), type="flying", stands=1)]
CHARS = [char("gen", "red", "general", 9, (30, 20)), char("hero", "red", "hero", 8, (114, 40))]


@pytest.fixture
def board(tmp_path):
    return scenario(tmp_path, UNITS, CHARS, width=120, depth=80)


check = checked


OFF = {
    "order": ({"orders": [{"by": "gen", "units": ["a"], "roll": 2, "to": [[-2, 40]]}]},
              ["a", "gen"], "order 1 (gen → a): a move ends with a piece off the table",
              ["a is not wholly on the 120 x 80 cm table"]),
    "evade": ({"initiative": [{"unit": "b", "action": "evade", "to": [60, -5]}]},
              ["b"], "initiative evade of b: a move ends with a piece off the table",
              ["b is not wholly on the 120 x 80 cm table"]),
    "home back": ({"home_back": [{"unit": "f", "toward": "hero", "roll": 6, "to": [125, 60]}]},
                  ["f"], "home back of f: a move ends with a piece off the table",
                  ["f is not wholly on the 120 x 80 cm table"]),
    "character": ({"characters": [{"piece": "gen", "to": [30, 79.5]}]},
                  ["gen"], "move of gen: a move ends with a piece off the table",
                  ["gen is not wholly on the 120 x 80 cm table"]),
}


@pytest.mark.parametrize("case", OFF, ids=list(OFF))
def test_a_move_off_the_table_is_illegal(board, tmp_path, case):
    log, pieces, message, measured = OFF[case]
    code, data = check(board, turn(tmp_path, **log))
    assert code == 1
    assert data["violations"] == [{"rule": RULE, "pieces": pieces, "message": message, "source": "warmaster.md",
                                   "quote": QUOTE, "measurements": measured}]
    # the rule is a default reading: removed by a house file, the move is legal
    code, data = check(board, turn(tmp_path, **log), house(tmp_path, REMOVED))
    assert (code, data["violations"]) == (0, [])


def test_the_rule_and_its_quote_in_words(board, tmp_path):
    t = turn(tmp_path, orders=[{"by": "gen", "units": ["a"], "roll": 2, "to": [[-2, 40]]}])
    code, out, _ = run_cli("check", board, t)
    assert code == 1
    assert out.splitlines()[:4] == [
        "illegal: 1 violation",
        f"  {RULE} [infantry a at 10,40, general gen at 30,20] order 1 (gen → a): "
        "a move ends with a piece off the table",
        f"    Warmaster — reference facts: “{QUOTE}”",
        "    measured: a is not wholly on the 120 x 80 cm table"]


def test_flush_with_the_edge_is_on_the_table(board, tmp_path):
    # a (x 0..12) touches the west edge; gen's base (y 78..80 at 79) the south edge
    code, data = check(board, turn(tmp_path, orders=[{"by": "gen", "units": ["a"], "roll": 2, "to": [[6, 40]]}],
                                   characters=[{"piece": "gen", "to": [30, 79]}]))
    assert (code, data["violations"]) == (0, [])


def _at_the_move(board, rules=()):
    state = warcouncil.load_game(str(board), rules).new_state(resolution=5)
    state.apply({"kind": "attempt", "by": "gen", "units": ["a"]})
    state.apply({"kind": "dice", "roll": 2})
    return state


def test_the_game_lists_only_destinations_on_the_table(board):
    state = _at_the_move(board)
    tos = [a["to"] for a in state.legal_actions()]
    assert tos[0] is None
    # a (12 cm wide, at x 10) may go no further west than x 6: of the 5 cm
    # grid within its 20 cm, every point west of it is left out, every other listed
    grid = {(10 + 5 * i, 40 + 5 * j) for i in range(-4, 5) for j in range(-4, 5) if (i or j) and i * i + j * j <= 16}
    listed = {tuple(to[0]) for to in tos[1:]}
    assert listed & grid == {(x, y) for x, y in grid if x >= 10}
    assert min(x for x, _ in listed) == 10 and (-2, 40) not in listed


def test_the_game_refuses_a_destination_off_the_table(board, tmp_path):
    state = _at_the_move(board)
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.apply({"kind": "move", "to": [[-2, 40]]})
    assert [(v["rule"], v["quote"]) for v in e.value.violations] == [(RULE, QUOTE)]
    assert str(e.value) == "the move of a: order 1 (gen → a): a move ends with a piece off the table"
    assert state.to_json() == before
    # without the rule, the same destination is taken and the log is legal for `check` with the house file
    h = house(tmp_path, REMOVED)
    state = _at_the_move(board, [str(h)])
    state.apply({"kind": "move", "to": [[-2, 40]]})
    assert state.log() == {"orders": [{"by": "gen", "units": ["a"], "roll": 2, "to": [[-2, 40]]}]}
    code, _ = check(board, turn(tmp_path, **state.log()), h)
    assert code == 0
