"""What the command line prints of a user's own text is that text: rich's
emoji codes (``:x:``) are not read in it (the consoles are made with
``emoji=False``)."""

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
