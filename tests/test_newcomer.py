"""What a new user trips on (issue 12, last list) and `--limit` bounding the
work (point 4): each with its exit code and message."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_cli
from warcouncil.kernel.ground import natural_id

HOUSE = Path(__file__).resolve().parents[1] / "warcouncil" / "examples" / "house" / "detach-any-card.wc"


# -- --limit bounds the work ---------------------------------------------------------


def test_limit_with_a_closed_form_count_prints_the_total() -> None:
    code, out, err = run_cli("orders", "akragas", "--card", "Out Flanked", "--limit", "5")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 1 + 5 + 1 and lines[-1] == "176 legal order sets (showing 5)"


def test_limit_without_a_cheap_count_does_not_count(monkeypatch) -> None:
    from warcouncil.systems.cc.engine import CardEngine

    def no_count(self, g):  # the whole enumeration must not run for the footer
        raise AssertionError("counted")
    monkeypatch.setattr(CardEngine, "count", no_count)
    code, out, err = run_cli("orders", "akragas", "--card", "Leadership Any Section", "--limit", "3")
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "more than 3 legal order sets (showing the first 3; --count gives the number)"
    code, out, _ = run_cli("orders", "akragas", "--card", "Leadership Any Section", "--limit", "3", "--json")
    doc = json.loads(out)
    assert (doc["count"], doc["count_at_least"], doc["limited"], len(doc["order_sets"])) == (None, 4, True, 3)
    # a connected group (Line Command) is counted without being made (issue 15): a cheap total
    code, out, _ = run_cli("orders", "akragas", "--card", "Line Command", "--limit", "3")
    assert (code, out.splitlines()[-1]) == (0, "41 legal order sets (showing 3)")


def test_limit_at_or_over_the_number_of_sets_gives_the_exact_count() -> None:
    for limit in ("41", "100"):
        code, out, _ = run_cli("orders", "akragas", "--card", "Line Command", "--limit", limit, "--json")
        doc = json.loads(out)
        assert (code, doc["count"], doc["limited"], len(doc["order_sets"])) == (0, 41, False, 41)
        assert "count_at_least" not in doc
    code, out, _ = run_cli("orders", "akragas", "--card", "Line Command", "--limit", "40")
    assert out.splitlines()[-1] == "41 legal order sets (showing 40)"  # counted without being made
    code, out, _ = run_cli("orders", "akragas", "--card", "Leadership Any Section", "--limit", "29")
    assert out.splitlines()[-1].startswith("more than 29 legal order sets")
    code, out, _ = run_cli("orders", "akragas", "--card", "Leadership Any Section", "--limit", "30")
    assert out.splitlines()[-1] == "30 legal order sets"
    assert run_cli("orders", "akragas", "--card", "Line Command", "--count")[1] == "41\n"


def test_turns_limit_makes_one_more_and_counts_none() -> None:
    code, out, err = run_cli("turns", "akragas", "--card", "Out Flanked", "--limit", "4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 1 + 4 + 1
    assert lines[-1] == "more than 4 end positions (showing the first 4; --count gives the number)"
    doc = json.loads(run_cli("turns", "akragas", "--card", "Out Flanked", "--limit", "4", "--json")[1])
    assert len(doc["positions"]) == 4 and doc["limited"] is True


# -- a closed pipe -----------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ["orders", "akragas", "--card", "Out Flanked"],
    ["orders", "akragas", "--card", "Out Flanked", "--json"],
    ["turns", "akragas", "--card", "Order Two Units Left"],
    ["cards", "akragas"],
])
def test_a_closed_pipe_exits_quietly_with_0(args) -> None:
    p = subprocess.Popen([sys.executable, "-m", "warcouncil.cli", *args], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdout.read(20)  # like `| head -c 20`
    p.stdout.close()
    assert p.wait(timeout=120) == 0
    assert p.stderr.read() == b""


# -- lint -------------------------------------------------------------------------------


def test_lint_of_a_missing_file_is_bad_input(tmp_path: Path) -> None:
    code, out, err = run_cli("lint", tmp_path / "nosuch.wc")
    assert (code, out) == (2, "")
    assert err.startswith(f"{tmp_path / 'nosuch.wc'}: no rule pack or rule file")
    assert run_cli("lint", HOUSE, "--over", "nosuchpack")[0] == 2


def test_a_house_file_linted_alone_gets_the_over_hint() -> None:
    code, out, err = run_cli("lint", HOUSE)
    assert code == 1
    assert "replace define cca.detach-with-helmet: there is no such define to replace" in err
    assert err.rstrip().splitlines()[-1] == (f"hint: house-rule files are checked over the pack they change: "
                                             f"warcouncil lint {HOUSE} --over cca")
    doc = json.loads(run_cli("lint", HOUSE, "--json")[1])
    assert doc["hint"].endswith(f"--over cca")
    assert run_cli("lint", HOUSE, "--over", "cca")[0] == 0


def test_a_pack_linted_alone_gets_no_hint() -> None:
    code, out, err = run_cli("lint", "cca")
    assert code == 0 and err == "" and out.startswith("clean: ")


# -- arguments and help ------------------------------------------------------------------


@pytest.mark.parametrize("side", ["", " "])
def test_an_empty_side_is_refused(side: str) -> None:
    code, out, err = run_cli("orders", "akragas", "--card", "Out Flanked", "--side", side)
    assert (code, out) == (2, "")
    assert "Invalid value for '--side': give a side's name" in err


def test_help_says_what_scenario_may_be() -> None:
    from warcouncil.kernel.scenario import shipped_scenarios

    names = {n for n in shipped_scenarios() if "/" not in n}  # (also known by folder/name)
    assert {"akragas", "practice_field", "ridgeway", "alesia"} <= names
    for verb in ("orders", "moves", "turns", "check", "cards", "diff", "odds", "plan", "activations"):
        code, out, _ = run_cli(verb, "--help")
        assert code == 0
        assert "SCENARIO is a scenario shipped with warcouncil, by name (akragas," in " ".join(out.split())
        assert all(f"{n}" in out for n in names), (verb, names)  # every shipped scenario is named
    out = run_cli("--help")[1]
    assert "SCENARIO is a scenario shipped with warcouncil, by name" in " ".join(out.split())
    assert all(n in out for n in names)


def test_help_names_the_scenarios_shipped_in_the_examples(monkeypatch) -> None:
    """The names come from the package's examples (``shipped_scenarios``,
    the same place that resolves a shipped name), each after the title of
    its folder's system: a scenario added there is named, none is listed in
    cli.py."""
    import warcouncil.kernel.scenario as scenario

    shipped = scenario.shipped_scenarios()
    said = ("by name (akragas, practice_field: Commands & Colors; alesia: Square-grid ancients; "
            "ridgeway: Warmaster)")
    assert said in " ".join(run_cli("orders", "--help")[1].split())
    assert said in " ".join(run_cli("--help")[1].split())
    more = {**shipped, "zama": shipped["akragas"], "cca/zama": shipped["akragas"]}
    monkeypatch.setattr(scenario, "shipped_scenarios", lambda: more)
    said = ("by name (akragas, practice_field, zama: Commands & Colors; alesia: Square-grid ancients; "
            "ridgeway: Warmaster)")
    for args in (["orders", "--help"], ["check", "--help"], ["--help"]):
        code, out, _ = run_cli(*args)
        assert code == 0 and said in " ".join(out.split()), args


def test_check_help_describes_the_turn_file() -> None:
    out = run_cli("check", "--help")[1]
    for line in ("card: Order Three Units Center", "orders: [s4, s5, daphnaeus]", "- {piece: s4, path: [[5, 6]]}",
                 "- {piece: s4, target: c5}"):
        assert line in out
    assert "Optional keys: roll" in out


def test_an_impossible_file_name_is_bad_input() -> None:
    code, out, err = run_cli("lint", "x", "--over", "9" * 5000)
    assert (code, out) == (2, "") and "the name is too long for a file" in err
    code, _, err = run_cli("check", "akragas", "a\x00b")
    assert code == 2 and "it holds a NUL character" in err


# -- what players read -----------------------------------------------------------------


def test_natural_order_of_ids() -> None:
    assert sorted(["s1", "s10", "s11", "s12", "s2"], key=natural_id) == ["s1", "s2", "s10", "s11", "s12"]
    code, out, _ = run_cli("orders", "akragas", "--card", "Order Three Units Center", "--limit", "6")
    assert out.splitlines()[2:7] == ["  heavy infantry s4 at 5,7", "  heavy infantry s5 at 6,7",
                                     "  heavy infantry s6 at 7,7", "  light bow infantry s11 at 6,6",
                                     "  leader daphnaeus at 6,7"]
    doc = json.loads(run_cli("orders", "akragas", "--card", "Order Three Units Center", "--json")[1])
    assert {"units": ["s4", "s11"], "leaders": []} in doc["order_sets"]


def test_check_shows_the_document_title_and_json_keeps_the_file(tmp_path: Path) -> None:
    turn = tmp_path / "turn.yaml"
    turn.write_text("card: Leadership Any Section\norders: [daphnaeus, s4]\nmoves:\n"
                    "  - {piece: daphnaeus, to: [5, 5]}\n  - {piece: s4, to: [5, 6]}\n", encoding="utf-8")
    code, out, _ = run_cli("check", "akragas", turn)
    assert code == 1
    assert "    CCA rulebook — Unit Movement: “Note that a leader may not detach from a unit when a " in out
    assert "002_15dc29c0405a71dd.txt" not in out
    doc = json.loads(run_cli("check", "akragas", turn, "--json")[1])
    assert {v["source"] for v in doc["violations"]} == {"000_21ed775e0976da39.txt", "002_15dc29c0405a71dd.txt"}


def test_cards_print_what_each_orders_in_words() -> None:
    code, out, _ = run_cli("cards", "akragas")
    assert code == 0
    assert "and/or" in out and "own Left" in out  # (the table folds the text over lines)
    assert "in_section" not in out
    code, out, _ = run_cli("cards", "akragas", "--rules-text")
    at = out.splitlines().index("Order Two Units Left  3 copies, section, helmet")
    assert out.splitlines()[at + 1: at + 3] == ["  up to 2 units and/or leaders in own Left section",
                                                "  orders: up to 2 pieces where in_section(it, left)"]
    doc = json.loads(run_cli("cards", "akragas", "--json")[1])
    first = doc["cards"][0]
    assert set(first) == {"name", "copies", "category", "helmet", "orders"}
    assert first["orders"] == "orders: up to 2 pieces where in_section(it, left)"
    assert doc["text"]["Order Two Units Left"] == "up to 2 units and/or leaders in own Left section"


def test_command_is_bounded() -> None:
    code, out, err = run_cli("orders", "akragas", "--card", "I Am Spartacus", "--command", "99999")
    assert (code, out) == (2, "")
    assert "Invalid value for '--command': 99999 is not in the range 1<=x<=100" in err  # a scenario's range


def test_diff_without_a_card_is_bad_input() -> None:
    # found by fuzz/run.py (seed 2, case 7026): an AttributeError, exit 3
    code, out, err = run_cli("diff", "practice_field", "--order", "s10", "--rules", HOUSE)
    assert (code, out) == (2, "")
    assert err.startswith("`diff` needs the card played: give it with --card CARD")
    code, out, err = run_cli("diff", "practice_field", "--order", "s10", "--rules", HOUSE, "--json")  # issue 30
    assert code == 2 and err.startswith("`diff` needs the card played: give it with --card CARD")
    assert json.loads(out)["error"]["message"] == "`diff` needs the card played: give it with --card CARD"


def test_every_shipped_document_has_a_title() -> None:
    # a wargamer reads "Homunculus Est! — quick-reference sheet", not 004_e70d793f6d64ff40.txt
    from warcouncil.dsl.pack import PACKS_DIR, load_pack

    for folder in sorted(p for p in PACKS_DIR.iterdir() if p.is_dir() and any(p.glob("*.wc"))):
        pack = load_pack(folder)
        untitled = [d.alias for d in pack.documents.values() if not d.title]
        assert untitled == [], folder.name


def test_warmaster_and_grid_text_answers_show_document_titles(tmp_path: Path) -> None:
    from warcouncil.dsl.pack import PACKS_DIR

    examples = PACKS_DIR.parent / "examples"
    code, out, _ = run_cli("check", "alesia", examples / "grid-ancients" / "alesia" / "illegal-turn.yaml")
    assert code == 1
    assert ("[ga.immobile] — Homunculus Est! — quick-reference sheet: \"An Immobile Unit cannot be given a "
            "Movement or Charge Activation.\"") in out
    assert "004_e70d793f6d64ff40.txt" not in out
    code, out, _ = run_cli("activations", "alesia")
    assert "— Homunculus Est! — quick-reference sheet: " in out and ".txt" not in out
    log = tmp_path / "log.yaml"
    log.write_text("orders:\n  - {by: wiz, units: r1, roll: 5}\n", encoding="utf-8")
    code, out, _ = run_cli("check", "ridgeway", log)
    assert code == 1
    assert "    Warmaster — reference facts: “A Hero orders units within 60 cm, a Wizard units within 20 cm.”" in out
    doc = json.loads(run_cli("check", "ridgeway", log, "--json")[1])
    assert {v["source"] for v in doc["violations"]} == {"warmaster.md"}
