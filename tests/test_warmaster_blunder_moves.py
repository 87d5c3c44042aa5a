"""Warmaster: a blunder's move judged by the blunder table (reference §5.3;
the original Warmaster table, the engine's default `wm.default.blunder-table`
while the WMR one is UNCERTAIN). A turn log gives the table's D6 as
`blunder:` on the order, and the move as its `to:`."""

from __future__ import annotations

import pytest

from conftest import run_cli
from test_warmaster_check import broken, check
from warmaster_util import char, house, scenario, turn, unit

MOVE, ROLL_ONLY, NOT_GIVEN = "wm.blunder-move", "wm.blunder-roll-only", "wm.failed-order-not-given"
# infantry u (pace 20, half pace 10; footprint y 39..41) 13 cm from the enemy e (y 54..56)
CHARS = [char("h", "red", "hero", 8, (50, 20))]


def _board(tmp_path, enemy_y=55):
    return scenario(tmp_path, [unit("u", "red", (50, 40)), unit("e", "blue", (50, enemy_y), facing=180)], CHARS)


def _blunder(tmp_path, d6, to=None, roll=12, enemy_y=55, *rules):
    order = {"by": "h", "units": ["u"], "roll": roll, **({"blunder": d6} if d6 is not None else {}),
             **({"to": [list(to)]} if to else {})}
    return check(_board(tmp_path, enemy_y), turn(tmp_path, orders=[order]), *rules)


@pytest.mark.parametrize("d6, to, legal", [
    (1, None, True), (1, (50, 35), False),                     # 1: the penalty; nothing moves
    (2, (50, 30), True), (3, (50, 38), False), (2, None, False),  # 2-3: end a full pace (20) from the enemy
    (4, (50, 45), True), (5, (50, 50), True), (4, (50, 52), False),  # 4-5: up to half pace (10)
    (6, (50, 52), True), (6, (50, 30), False), (6, None, True),   # 6: toward the nearest enemy
])
def test_each_row_of_the_table(tmp_path, d6, to, legal):
    data = _blunder(tmp_path, d6, to)
    assert (MOVE not in broken(data)) is legal, data
    assert broken(data) <= {MOVE}


def test_halt_when_no_enemy_is_seen_within_a_full_pace(tmp_path):
    assert broken(_blunder(tmp_path, 2, None, enemy_y=100)) == set()
    assert broken(_blunder(tmp_path, 2, (50, 30), enemy_y=100)) == {MOVE}


def test_a_table_roll_only_for_a_blunder(tmp_path):
    # a hero's 5 is no blunder: no table roll, and a failed roll without one moves nothing
    assert ROLL_ONLY in broken(_blunder(tmp_path, 3, None, roll=9))
    assert broken(_blunder(tmp_path, None, (50, 45))) == {NOT_GIVEN}
    # and without the rule a table roll on a roll that is no blunder goes unnoticed
    assert ROLL_ONLY not in broken(_blunder(tmp_path, 3, None, 9, 55, house(tmp_path, f"remove rule {ROLL_ONLY}\n")))


def test_removing_the_rule_or_replacing_the_table(tmp_path):
    assert MOVE in broken(_blunder(tmp_path, 1, (50, 35)))
    assert MOVE not in broken(_blunder(tmp_path, 1, (50, 35), 12, 55, house(tmp_path, f"remove rule {MOVE}\n")))
    table = house(tmp_path, "replace define wm.default.blunder-table\n    blunder_move_ok(o, u) := moved_cm(o, u) <= 5\n")
    assert MOVE not in broken(_blunder(tmp_path, 1, (50, 35), 12, 55, table))
    assert MOVE in broken(_blunder(tmp_path, 4, (50, 48), 12, 55, table))


def test_the_table_roll_is_a_d6(tmp_path):
    order = {"by": "h", "units": ["u"], "roll": 12, "blunder": 7}
    code, _, err = run_cli("check", str(_board(tmp_path)), str(turn(tmp_path, orders=[order])))
    assert code == 2 and "blunder" in err
