"""Every verb is answered through the scenario's System (issue 28): the
engine gives the whole answer (``Engine.answer(verb, **options)`` →
``Answer``), the command line only parses, asks and prints. Commands &
Colors' ``orders`` (``--engine csp`` too), ``moves``, ``turns`` and ``diff``
are its engine's (``systems/cc/answers.py``); the kernel's set engine
answers ``orders`` itself."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from warcouncil.cli import main
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.system import System

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the tiny game's System: tinygrid/system.py

CENTER = "Order Three Units Center"
HOUSE = str(HERE.parent / "warcouncil" / "examples" / "house" / "center-dotted-extra.wc")


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_commands_and_colors_answers_its_listing_verbs_itself() -> None:
    assert System.for_pack("cca").answers_itself == {"orders", "moves", "turns", "diff"}


def test_orders_answered_by_the_engine_is_what_the_command_line_prints() -> None:
    eng = Engine.load("akragas")
    a = eng.answer("orders", card=CENTER, limit=2, as_json=True)
    assert (a.exit_code, a.text, a.lines) == (0, "", None)
    assert a.data == json.loads(cli("orders", "akragas", "--card", CENTER, "--limit", "2", "--json").output)
    assert a.data["count"] == 26 and a.data["limited"] is True and len(a.data["order_sets"]) == 2
    text = eng.answer("orders", card=CENTER, limit=2)
    assert text.data is None and list(text.lines) == [
        f"[bold]{CENTER}[/] — syracusan (Command 6, south edge)",
        "  [dim](no orders)[/]",
        "  heavy infantry s4 at 5,7",
        "[bold]26[/] legal order sets (showing 2)",
    ]
    count = eng.answer("orders", card=CENTER, count_only=True)
    assert (count.data, count.text, count.plain) == ({"card": CENTER, "side": "syracusan", "count": 26}, "26", True)
    csp = eng.answer("orders", card="Order Two Units Left", engine_kind="csp", count_only=True)
    assert csp.data["count"] == eng.answer("orders", card="Order Two Units Left", count_only=True).data["count"]


def test_moves_turns_and_diff_answered_by_the_engine() -> None:
    eng = Engine.load("akragas")
    m = eng.answer("moves", card="Order Two Units Left", orders=["s1", "s4"], as_json=True)
    assert m.exit_code == 1 and m.data["legal"] is False  # s4 is not on the left
    assert m.data == json.loads(cli("moves", "akragas", "--card", "Order Two Units Left", "--order", "s1",
                                    "--order", "s4", "--json").output)
    t = eng.answer("turns", card="Order Two Units Left", limit=2, as_json=True)
    assert t.data["limited"] is True and len(t.data["positions"]) == 2
    d = eng.answer("diff", rules=[HOUSE], card=CENTER, as_json=True)
    assert (d.data["order_sets"]["before"], d.data["order_sets"]["after"]) == (26, 26)
    assert list(eng.answer("diff", rules=[HOUSE], card=CENTER).lines)[-1] == "no change for this card"


def test_a_set_engine_answers_orders_itself() -> None:
    import tinygrid.system  # noqa: F401 - the tiny game's System, registered by being imported

    eng = Engine.load(HERE / "tinygrid" / "skirmish.yaml")
    a = eng.answer("orders", limit=2, as_json=True)
    assert a.data == {"side": "red", "count": None, "limited": True, "count_at_least": 3,
                      "order_sets": [{"pieces": ["c1"]}, {"pieces": ["c1", "i1"]}]}
    assert a.data == json.loads(cli("orders", HERE / "tinygrid" / "skirmish.yaml", "--limit", "2", "--json").output)
    assert eng.answer("orders", count_only=True).text == "10"


def test_check_of_a_turn_file_is_the_kernels_answer(tmp_path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text(f"card: {CENTER}\norders: [s4, s5]\nmoves:\n  - {{piece: s4, to: [5, 6]}}\n", encoding="utf-8")
    eng = Engine.load("akragas")
    a = eng.answer("check", path=str(turn))
    assert (a.data, a.exit_code, list(a.lines)) == ({"legal": True, "violations": []}, 0, ["[green]legal[/]"])
    turn.write_text(f"card: {CENTER}\norders: [s4, s5]\nmoves:\n  - {{piece: s4, to: [4, 5]}}\n", encoding="utf-8")
    a = eng.answer("check", path=str(turn))
    assert a.exit_code == 1 and [v["rule"] for v in a.data["violations"]] == ["cca.move.unit-allowance"]
    assert list(a.lines)[0] == "[red bold]illegal[/]: 1 violation"
