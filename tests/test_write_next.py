"""``check SCENARIO TURN --write-next NEXT.yaml``: the scenario after a legal
turn (the game interface's ``Turn.next_scenario``), for email play."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from test_cli import run

TURN = """\
card: Order Three Units Center
orders: [s4, s11, daphnaeus]
moves:
  - {piece: daphnaeus, to: [6, 5]}
  - {piece: s11, to: [6, 4]}
  - {piece: s4, path: [[5, 6]]}
battles:
  - {piece: s11, target: c5}
"""


def _at(scenario: dict, pid: str):
    for key in ("units", "leaders"):
        for entry in scenario.get(key) or ():
            if entry["id"] == pid:
                return entry["at"]
    raise KeyError(pid)


def test_a_legal_cc_turn_writes_the_next_scenario(tmp_path) -> None:
    turn, nxt = tmp_path / "turn.yaml", tmp_path / "next.yaml"
    turn.write_text(TURN)
    r = run("check", "akragas", turn, "--write-next", nxt)
    assert (r.code, r.stdout.strip()) == (0, "legal")
    after = yaml.safe_load(nxt.read_text())
    assert after["to_move"] == "carthaginian"
    assert (_at(after, "daphnaeus"), _at(after, "s11"), _at(after, "s4")) == ([6, 5], [6, 4], [5, 6])
    # it is a scenario: the other side's turn is asked of it
    r = run("orders", nxt, "--card", "Order Two Units Left", "--count")
    assert r.code == 0 and r.stdout.split()[0].isdigit()
    # the carthaginians are to move: the syracusan turn is not theirs to play
    r = run("check", nxt, turn, "--json")
    assert r.code == 1
    assert sorted((v["rule"], v["pieces"]) for v in r.json()["violations"]) == [
        ("cca.order-eligible", ["daphnaeus"]), ("cca.order-eligible", ["s11"]), ("cca.order-eligible", ["s4"])]


def test_an_illegal_turn_writes_nothing(tmp_path) -> None:
    turn, nxt = tmp_path / "turn.yaml", tmp_path / "next.yaml"
    turn.write_text(TURN.replace("{piece: s4, path: [[5, 6]]}", "{piece: s4, to: [5, 3]}"))  # 3 hexes
    r = run("check", "akragas", turn, "--write-next", nxt)
    assert r.code == 1 and not nxt.exists()


def test_an_unwritable_next_file_is_bad_input(tmp_path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text(TURN)
    r = run("check", "akragas", turn, "--write-next", tmp_path / "no" / "such" / "next.yaml")
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == "cannot write the next scenario: No such file or directory"


EXAMPLES = Path(__file__).resolve().parents[1] / "warcouncil" / "examples"


@pytest.mark.parametrize("scenario, turn", [
    ("ridgeway", EXAMPLES / "warmaster" / "logs" / "turn.yaml"),
    ("alesia", EXAMPLES / "grid-ancients" / "alesia" / "turn.yaml"),
])
def test_each_family_writes_the_scenario_its_game_gives(tmp_path, scenario, turn) -> None:
    """The file is the game interface's scenario after that turn, and loads."""
    import warcouncil
    from warcouncil.kernel.scenario import plain, read_yaml_file

    nxt = tmp_path / "next.yaml"
    r = run("check", scenario, turn, "--write-next", nxt)
    assert r.code == 0
    game = warcouncil.load_game(scenario)
    assert yaml.safe_load(nxt.read_text()) == game.new_state().turn.next_scenario(plain(read_yaml_file(turn)))
    following = warcouncil.load_game(str(nxt)).new_state()
    assert following.current_player() not in (warcouncil.TERMINAL, warcouncil.CHANCE)
    assert following.current_player() != game.new_state().current_player()  # the other side moves next
