"""What the command line prints: a user's own text as written (rich's
emoji codes such as ``:x:`` are not read in it: the consoles are made with
``emoji=False``), and bad input met while a turn is judged at its place."""

from __future__ import annotations

from test_cli import run


def test_emoji_codes_in_a_rule_file_are_printed_as_written(tmp_path) -> None:
    path = tmp_path / "emo.wc"
    path.write_text('rule a.b "x :x: y" {\n}\n')
    r = run("lint", path)
    assert r.code == 1
    assert r.stderr.splitlines()[:2] == [
        f"{path}:1:10: unexpected '\"x :x: y\"'",
        '    rule a.b "x :x: y" {',
    ]


def test_an_unknown_card_in_a_turn_file_is_named_at_its_place(tmp_path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text("orders: []\ncard: Order Thre Units\n")
    r = run("check", "akragas", turn)
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == f"{turn}:2:7: unknown card 'Order Thre Units' for Commands & Colors: Ancients"


def test_an_unknown_side_in_a_turn_file_is_named_at_its_place(tmp_path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text("card: Order Three Units Center\nside: card\norders: []\n")
    r = run("check", "akragas", turn)
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == f"{turn}:2:7: unknown side 'card'"
