"""A violation's message is rendered when it is first read (a caller that
wants only the verdict never renders it), and it is the text rendered
at once would be: the rule's template with the pieces it binds."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from warcouncil.solver import check
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.turn import load_turn

TURN = Path(__file__).parent / "data" / "check" / "illegal_light_troops.yaml"


def test_messages_are_rendered_when_read(monkeypatch):
    path = TURN
    eng = Engine.load("akragas")
    turn = load_turn(str(path), eng.scenario.board)
    rendered = []
    real = check._message

    def counting(*a):
        rendered.append(a[0].id)
        return real(*a)

    monkeypatch.setattr(check, "_message", counting)
    v = eng.check_turn(turn)
    assert not v.legal
    assert [x.rule for x in v.violations] == ["cca.move.unit-allowance", "cca.battle.after-move", "cca.battle.in-reach"]
    assert rendered == []  # the verdict alone renders nothing
    assert [x.message for x in v.violations] == [
        "s2 moves farther than it may", "s7 may not battle after the move it made", "s7 cannot reach its target"]
    assert rendered == [x.rule for x in v.violations]
    assert [x.message for x in v.violations] and len(rendered) == 3  # read again: rendered once each
    first = v.violations[0]
    assert dataclasses.asdict(first)["message"] == first.message
    assert first == check.Violation(first.rule, ["s2"], "s2 moves farther than it may", first.source, first.quote,
                                    first.origin)
    assert v.as_json()["violations"][2]["message"] == "s7 cannot reach its target"
