"""The command line contract (shared/spec/interface.md): verbs, exit codes, JSON."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from warcouncil.cli import main
from warcouncil.kernel.ground import natural_id

DATA = Path(__file__).parent / "data" / "cli"
RULES = Path(__file__).resolve().parents[1] / "warcouncil" / "rules"
SEED000 = "000_21ed775e0976da39.txt"
ONE_ORDER = "You may not give more than one order to each unit or leader."
ELIGIBLE = "After playing a Command card, announce which eligible units or leaders you choose to order."

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Run:
    def __init__(self, result):
        self.result = result
        self.code = result.exit_code
        self.stdout = _ANSI.sub("", result.stdout)
        self.stderr = _ANSI.sub("", result.stderr)

    def json(self):
        """stdout is exactly one JSON document (and nothing else)."""
        assert self.stdout.endswith("\n") and self.stdout.count("\n") == 1, self.stdout
        return json.loads(self.stdout)


def run(*args: str) -> Run:
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    r = Run(result)
    r.as_json = "--json" in args
    return r


def bad_input(r: Run) -> str:
    """Exit 2, nothing on stdout, one message on stderr, no traceback; under
    --json, the same message on stderr and one JSON document on stdout
    (issue 30), its message returned as stderr would show it."""
    assert r.code == 2, (r.code, r.stdout, r.stderr)
    if getattr(r, "as_json", False):
        e = r.json()["error"]
        assert set(e) == {"message", "file", "line", "column", "hint"}
        place = ":".join(str(v) for v in (e["file"], e["line"], e["column"]) if v is not None)
        assert r.stderr.splitlines()[0] == (f"{place}: " if place else "") + e["message"].splitlines()[0]
        assert "Traceback" not in r.stderr
        return (f"{place}: " if place else "") + e["message"] + (f"\nhint: {e['hint']}" if e["hint"] else "")
    assert r.stdout == ""
    assert r.stderr.strip()
    assert "Traceback" not in r.stderr
    assert "internal error" not in r.stderr
    return r.stderr


def data(name: str) -> str:
    return str(DATA / name)


# ------------------------------------------------------------------ orders


UNIT, LEADER = 0, 1


def canonical(sets):
    """Sort order sets by size, then canonical piece order (units by id, then leaders by id)."""
    def key(s):
        return len(s["units"]) + len(s["leaders"]), ([(UNIT, natural_id(u)) for u in s["units"]]
                                                     + [(LEADER, natural_id(l)) for l in s["leaders"]])
    return sorted(sets, key=key)


def all_subsets(units: list[str], leaders: list[str], up_to: int):
    # ids in natural order (s4 before s11), as the contract's "sorted by ids" reads for a wargamer
    pieces = [(UNIT, u) for u in sorted(units, key=natural_id)] + [(LEADER, l) for l in sorted(leaders, key=natural_id)]
    out = []
    for k in range(up_to + 1):
        for combo in itertools.combinations(pieces, k):
            out.append({"units": [i for kind, i in combo if kind == UNIT],
                        "leaders": [i for kind, i in combo if kind == LEADER]})
    return out


def test_orders_json_exact() -> None:
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--json")
    assert r.code == 0 and r.stderr == ""
    doc = r.json()
    assert set(doc) == {"card", "side", "count", "order_sets"}
    assert doc["card"] == "Order Three Units Center"
    assert doc["side"] == "syracusan"
    assert doc["count"] == 26
    sets = doc["order_sets"]
    assert len(sets) == 26
    assert sets[:3] == [{"units": [], "leaders": []}, {"units": ["s4"], "leaders": []}, {"units": ["s5"], "leaders": []}]
    # every set of at most 3 of the center's pieces (daphnaeus detaching from s5 counts one)
    assert sets == all_subsets(["s4", "s5", "s6", "s11"], ["daphnaeus"], 3)
    assert sets == canonical(sets)
    for s in sets:
        assert set(s) == {"units", "leaders"}
        assert s["units"] == sorted(s["units"], key=natural_id) and s["leaders"] == sorted(s["leaders"], key=natural_id)
    assert len({json.dumps(s) for s in sets}) == 26


def test_orders_count() -> None:
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--count")
    assert r.code == 0 and r.stdout == "26\n"
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--count", "--json")
    assert r.code == 0
    assert r.json() == {"card": "Order Three Units Center", "side": "syracusan", "count": 26}


@pytest.mark.parametrize("name", [
    "order-three-units center", "ORDER THREE UNITS CENTER", "orderthreeunitscenter", "Order-Three-Units-Center",
    "  order three  units center ",
])
def test_card_name_matching_ignores_case_spaces_hyphens(name: str) -> None:
    r = run("orders", "akragas", "--card", name, "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["card"] == "Order Three Units Center" and doc["count"] == 26


def test_orders_limit() -> None:
    r = run("orders", "akragas", "--card", "order-three-units center", "--limit", "3", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["order_sets"] == [{"units": [], "leaders": []}, {"units": ["s4"], "leaders": []},
                                 {"units": ["s5"], "leaders": []}]
    # a section card's count is a closed form: printed without enumerating
    assert doc["count"] == 26 and doc["limited"] is True
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--limit", "26", "--json")
    assert len(r.json()["order_sets"]) == 26 and r.json()["limited"] is False


def test_orders_limit_zero() -> None:
    """--limit accepts 0 (IntRange min=0): it must give no sets at all."""
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--limit", "0", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["order_sets"] == []
    assert doc["count"] == 26 and doc["limited"] is True


def test_orders_side() -> None:
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--side", "carthaginian", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["side"] == "carthaginian"
    # the Carthaginian center: c4 (with himilco), c5, c6, c10, c11
    assert doc["order_sets"] == all_subsets(["c4", "c5", "c6", "c10", "c11"], ["himilco"], 3)
    assert doc["count"] == 42


def test_orders_unknown_side() -> None:
    err = bad_input(run("orders", "akragas", "--card", "Order Three Units Center", "--side", "carthagnian"))
    assert "carthagnian" in err and "did you mean 'carthaginian'?" in err


def test_orders_text_output() -> None:
    r = run("orders", "akragas", "--card", "Order Three Units Center")
    assert r.code == 0
    assert r.stdout.splitlines()[-1] == "26 legal order sets"
    assert "\n  heavy infantry s4 at 5,7, light bow infantry s11 at 6,6\n" in r.stdout


def test_unknown_card() -> None:
    for extra in ([], ["--json"]):
        r = run("orders", "akragas", "--card", "Order Thre Units Centr", *extra)
        err = bad_input(r)
        assert "unknown card 'Order Thre Units Centr'" in err
        assert "did you mean 'Order Three Units Center'" in err


def test_unknown_scenario() -> None:
    err = bad_input(run("orders", "akragaz", "--card", "Order Three Units Center", "--json"))
    assert "akragaz" in err and "akragas" in err


def test_malformed_scenario_yaml() -> None:
    path = data("malformed_scenario.yaml")
    err = bad_input(run("orders", path, "--card", "Order Three Units Center"))
    assert re.match(re.escape(path) + r":\d+:\d+: malformed YAML", err), err


def test_scenario_with_unknown_unit_type() -> None:
    path = data("bad_unit_type.yaml")
    err = bad_input(run("orders", path, "--card", "Order Three Units Center", "--json"))
    assert re.match(re.escape(path) + r":9:\d+: unknown unit type 'heavy_infantri'", err), err
    assert "did you mean 'heavy_infantry'?" in err


def test_scenario_hex_off_the_board() -> None:
    path = data("off_board.yaml")
    err = bad_input(run("orders", path, "--card", "Order Three Units Center"))
    assert re.match(re.escape(path) + r":10:\d+: ", err), err
    assert "[4, 12]" in err and "off the board" in err


def test_rules_file_with_a_syntax_error() -> None:
    path = data("bad_syntax.wc")
    err = bad_input(run("orders", "akragas", "--card", "Order Three Units Center", "--rules", path, "--json"))
    assert err.startswith(f"{path}:4:33: unexpected 'orders'"), err
    assert "hint: expected ':'" in err


def test_rules_missing_file() -> None:
    err = bad_input(run("orders", "akragas", "--card", "Order Three Units Center", "--rules", data("nope.wc")))
    assert "nope.wc" in err


def test_house_rule_changes_the_answer() -> None:
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--rules", data("center_one.wc"), "--json")
    assert r.code == 0
    assert r.json()["order_sets"] == all_subsets(["s4", "s5", "s6", "s11"], ["daphnaeus"], 1)


# ------------------------------------------------------------------ dice


def test_roll_for_i_am_spartacus() -> None:
    r = run("orders", "akragas", "--card", "I Am Spartacus", "--roll", "heavy,flag,flag,flag,swords,swords", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["card"] == "I Am Spartacus" and doc["count"] == 5
    assert doc["order_sets"] == [{"units": u, "leaders": []} for u in ([], ["s3"], ["s4"], ["s5"], ["s6"])]
    # a helmet orders any one unit or one leader
    r = run("orders", "akragas", "--card", "i am spartacus", "--roll", "helmet=1", "--json")
    doc = r.json()
    assert doc["count"] == 15
    assert doc["order_sets"][-2:] == [{"units": [], "leaders": ["daphnaeus"]}, {"units": [], "leaders": ["dionysius"]}]
    assert doc["order_sets"] == canonical(doc["order_sets"])


def test_roll_with_a_bad_face() -> None:
    err = bad_input(run("orders", "akragas", "--card", "I Am Spartacus", "--roll", "lite,light,helmet,flag,swords,medium"))
    assert "'lite'" in err and "did you mean 'light'?" in err


def test_roll_with_the_wrong_number_of_dice() -> None:
    err = bad_input(run("orders", "akragas", "--card", "I Am Spartacus", "--roll", "light,light", "--json"))
    assert "2" in err and "6" in err


def test_roll_on_a_card_that_does_not_roll() -> None:
    bad_input(run("orders", "akragas", "--card", "Order Three Units Center", "--roll", "light"))


def test_every_roll_of_i_am_spartacus() -> None:
    r = run("orders", "akragas", "--card", "I Am Spartacus", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["card"] == "I Am Spartacus" and doc["side"] == "syracusan" and doc["dice"] == 6
    rolls = doc["rolls"]
    # outcomes that differ for this card: counts of light/medium/heavy/helmet (the rest order nothing)
    assert len(rolls) == 210
    assert sum(Fraction(x["probability"]) for x in rolls) == 1
    for x in rolls:
        assert set(x["roll"]) == {"light", "medium", "heavy", "helmet"}
        assert sum(x["roll"].values()) <= 6
        assert x["count"] == len(x["order_sets"])
        assert x["p"] == pytest.approx(float(Fraction(x["probability"])))
    first = rolls[0]
    assert first["roll"] == {"light": 6, "medium": 0, "heavy": 0, "helmet": 0}
    assert Fraction(first["probability"]) == Fraction(1, 6 ** 6)
    nothing = [x for x in rolls if not any(x["roll"].values())]
    assert len(nothing) == 1 and Fraction(nothing[0]["probability"]) == Fraction(2, 6) ** 6
    assert nothing[0]["order_sets"] == [{"units": [], "leaders": []}]


def test_every_roll_count_only() -> None:
    r = run("orders", "akragas", "--card", "I Am Spartacus", "--count", "--json")
    rolls = r.json()["rolls"]
    assert len(rolls) == 210 and all("order_sets" not in x for x in rolls)
    assert sum(Fraction(x["probability"]) for x in rolls) == 1


# ------------------------------------------------------------ Counter Attack


def test_counter_attack_needs_copies() -> None:
    err = bad_input(run("orders", "akragas", "--card", "Counter Attack", "--json"))
    assert "--copies" in err


@pytest.mark.parametrize("side", ["syracusan", "carthaginian"])
def test_counter_attack_is_mirrored(side: str) -> None:
    ca = run("orders", "akragas", "--card", "Counter Attack", "--copies", "Order Two Units Left", "--side", side, "--json")
    right = run("orders", "akragas", "--card", "Order Two Units Right", "--side", side, "--json")
    assert ca.code == 0 and right.code == 0
    a, b = ca.json(), right.json()
    assert a["card"] == "Counter Attack"
    assert a["order_sets"] == b["order_sets"] and a["count"] == b["count"]
    left = run("orders", "akragas", "--card", "Order Two Units Left", "--side", side, "--json").json()
    assert left["order_sets"] != a["order_sets"]


def test_counter_attack_cannot_copy_first_strike() -> None:
    bad_input(run("orders", "akragas", "--card", "Counter Attack", "--copies", "First Strike"))


def test_copies_on_a_card_that_does_not_copy() -> None:
    bad_input(run("orders", "akragas", "--card", "Order Two Units Left", "--copies", "Order Two Units Right"))


# ------------------------------------------------------------------ cards


def test_cards_json() -> None:
    r = run("cards", "akragas", "--json")
    assert r.code == 0
    doc = r.json()
    assert doc["system"] == "cca"
    cards = doc["cards"]
    assert len(cards) == 29
    assert sum(c["copies"] for c in cards) == 60
    names = [c["name"] for c in cards]
    assert len(set(names)) == 29
    assert {"Order Three Units Center", "Order Mounted Troops", "I Am Spartacus", "Counter Attack"} <= set(names)
    for c in cards:
        assert set(c) == {"name", "copies", "category", "helmet", "orders"}
    by = {c["name"]: c for c in cards}
    assert by["Order Three Units Center"]["copies"] == 4 and by["Order Three Units Center"]["helmet"] is True
    assert by["Order Three Units Center"]["category"] == "section"
    assert {c["category"] for c in cards} == {"section", "troop", "leadership", "tactic"}


def test_cards_text() -> None:
    r = run("cards", "akragas")
    assert r.code == 0 and "60 cards, 29 kinds" in r.stdout


# ------------------------------------------------------------------- lint


def test_lint_shipped_pack_is_clean() -> None:
    r = run("lint", str(RULES / "cca"))
    assert r.code == 0, r.stderr
    assert r.stderr == ""
    assert "clean" in r.stdout
    r = run("lint", str(RULES / "cca"), "--json")
    assert r.code == 0 and r.json() == {"errors": []}


def test_lint_lists_every_error() -> None:
    path = data("two_errors.wc")
    r = run("lint", "--over", "cca", path)
    assert r.code == 1
    assert "Traceback" not in r.stderr
    assert f"{path}:4:25: unknown name 'ordred'" in r.stderr
    assert "did you mean 'ordered'?" in r.stderr
    assert f"{path}:7:5: house.b: the quote is not in {SEED000}" in r.stderr
    assert r.stderr.index(":4:25:") < r.stderr.index(":7:5:")


def test_lint_json_lists_every_error() -> None:
    path = data("two_errors.wc")
    r = run("lint", "--over", "cca", path, "--json")
    assert r.code == 1
    errors = r.json()["errors"]
    assert [(e["file"], e["line"], e["column"], e["message"]) for e in errors] == [
        (path, 4, 25, "unknown name 'ordred'"),
        (path, 7, 5, f"house.b: the quote is not in {SEED000}"),
    ]
    assert errors[0]["hint"] == "did you mean 'ordered'?"


def test_lint_syntax_error_is_its_answer() -> None:
    path = data("bad_syntax.wc")
    r = run("lint", "--over", "cca", path)
    assert r.code == 1
    assert r.stderr.startswith(f"{path}:4:33: unexpected 'orders'")


def test_lint_coverage_json() -> None:
    r = run("lint", "cca", "--coverage", "--json")
    assert r.code == 0
    cov = [s for s in r.json()["coverage"] if s["document"] == SEED000]
    assert len(cov) == 16 and all(s["cited_by"] for s in cov)


# ------------------------------------------------------------------- check


def test_check_legal_turn() -> None:
    r = run("check", "akragas", data("legal_turn.yaml"))
    assert r.code == 0, (r.stdout, r.stderr)
    assert r.stdout.strip() == "legal"
    r = run("check", "akragas", data("legal_turn.yaml"), "--json")
    assert r.code == 0
    assert r.json() == {"legal": True, "violations": []}


def test_check_illegal_turn() -> None:
    r = run("check", "akragas", data("illegal_turn.yaml"), "--json")
    assert r.code == 1
    doc = r.json()
    assert doc["legal"] is False
    by_rule = {v["rule"]: v for v in doc["violations"]}
    assert set(by_rule) == {"cca.one-order-per-piece", "cca.order-eligible"}
    twice = by_rule["cca.one-order-per-piece"]
    assert twice["pieces"] == ["s1"]
    assert twice["source"] == SEED000 and twice["quote"] == ONE_ORDER
    assert "s1" in twice["message"]
    outside = by_rule["cca.order-eligible"]
    assert outside["pieces"] == ["s9"]
    assert outside["source"] == SEED000 and outside["quote"] == ELIGIBLE
    for v in doc["violations"]:
        assert set(v) == {"rule", "pieces", "message", "source", "quote"}


def test_check_illegal_turn_text() -> None:
    r = run("check", "akragas", data("illegal_turn.yaml"))
    assert r.code == 1
    assert r.stdout.startswith("illegal: 2 violations")
    assert "cca.one-order-per-piece" in r.stdout and "cca.order-eligible" in r.stdout
    assert ONE_ORDER in r.stdout


def test_check_malformed_turn_file() -> None:
    path = data("malformed_turn.yaml")
    err = bad_input(run("check", "akragas", path, "--json"))
    assert re.match(re.escape(path) + r":\d+:\d+: malformed YAML", err), err


def test_check_unknown_piece_in_turn() -> None:
    path = data("unknown_piece_turn.yaml")
    err = bad_input(run("check", "akragas", path))
    assert err.startswith(f"{path}:2:14: unknown piece id 's99'"), err
    assert "did you mean 's9'?" in err


def test_check_missing_turn_file() -> None:
    err = bad_input(run("check", "akragas", data("no_such_turn.yaml")))
    assert "no_such_turn.yaml" in err


# --------------------------------------------------------- the installed script


def _script() -> str:
    exe = Path(sys.executable).parent / "warcouncil"
    if not exe.exists():  # pragma: no cover
        pytest.skip("the warcouncil console script is not installed next to this Python")
    return str(exe)


def test_console_script() -> None:
    p = subprocess.run([_script(), "orders", "akragas", "--card", "Order Three Units Center", "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["count"] == 26 and len(doc["order_sets"]) == 26
    p = subprocess.run([_script(), "orders", "akragas", "--card", "No Such Card"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    assert "unknown card" in p.stderr and "Traceback" not in p.stderr


def test_moves_json_contract() -> None:
    # interface.md: {"moves": {id: [{"to": [col, row], "battle": bool}, ...]}},
    # the piece's own hex not listed, leaders without "battle"
    r = run("moves", "akragas", "--card", "Order Two Units Center", "--order", "s6", "--order", "daphnaeus", "--json")
    assert r.code == 0, r.stderr
    obj = r.json()
    assert obj["legal"] is True and obj["card"] == "Order Two Units Center" and obj["side"] == "syracusan"
    # s6 (heavy infantry, [7,7]) moves one hex; [6,7] (s5) and [8,7] (s7) are friendly units
    assert obj["moves"]["s6"] == [{"to": [7, 6], "battle": True}, {"to": [8, 6], "battle": True},
                                  {"to": [7, 8], "battle": True}, {"to": [8, 8], "battle": True}]
    lead = obj["moves"]["daphnaeus"]
    assert lead and all(list(d) == ["to"] for d in lead)
    cells = [tuple(d["to"]) for d in lead]
    assert cells == sorted(set(cells), key=lambda c: (c[1], c[0]))  # reading order, once each
    assert (6, 7) not in cells


def test_python_dash_m_is_the_same_command_line(tmp_path) -> None:
    """``python -m warcouncil`` answers as the ``warcouncil`` script does:
    the same JSON, and bad input still exit 2 with one message, no traceback."""
    args = ["orders", "akragas", "--card", "Order Three Units Center", "--count", "--json"]
    done = subprocess.run([sys.executable, "-m", "warcouncil", *args], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == json.loads(CliRunner().invoke(main, args).output)
    bad = subprocess.run([sys.executable, "-m", "warcouncil", "check", "akragas", str(tmp_path / "none.yaml")],
                         capture_output=True, text=True, cwd=tmp_path)
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr and "none.yaml" in bad.stderr
