"""House rules: the three worked examples in warcouncil/examples/house/,
layering order (``--rules``, a scenario's ``rules:``), ``diff``, the layering
conflicts ``lint`` reports, and the source ``check`` names for a house rule.

Expected answers are worked out by hand from the rules (the pack's text and
the board's geometry, with a hex distance written here, not the engine's),
never copied from the engine's output. Every board is the standard CCA board
(13 x 9 hexes, odd-r offset: even rows cols 0..12, odd rows cols 0..11). Side
``red`` plays from the south edge, so its sections are the map's: with
``x2 = 2*col + row % 2``, left is x2 <= 8, center 8 <= x2 <= 16, right
x2 >= 16; a hex with x2 == 8 or x2 == 16 lies on a dotted line (both
sections). Only even rows have such hexes: cols 4 and 8.
"""

from __future__ import annotations

import json
import re
import shutil
from itertools import combinations
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import scenario_dict
from warcouncil.cli import main
from warcouncil.dsl import ast as A
from warcouncil.dsl.pack import PACKS_DIR, load_pack
from warcouncil.kernel.engine import Engine

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "warcouncil" / "examples" / "house"
DETACH = HOUSE / "detach-any-card.wc"
CAV5 = HOUSE / "light-cavalry-5.wc"
CENTER = HOUSE / "center-dotted-extra.wc"

CORE_ORDERING = str(PACKS_DIR / "core" / "10-ordering.wc")
CORE_MOVEMENT = str(PACKS_DIR / "core" / "40-movement.wc")
CORE_BATTLE = str(PACKS_DIR / "core" / "50-battle.wc")
SEED000 = "000_21ed775e0976da39.txt"
SEED002 = "002_15dc29c0405a71dd.txt"

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


# ------------------------------------------------------------------ helpers


def cells() -> set[tuple[int, int]]:
    """The 113 hexes of the CCA board."""
    return {(c, r) for r in range(9) for c in range(13 if r % 2 == 0 else 12)}


def hex_distance(a, b) -> int:
    """Odd-r offset -> axial (q = col - row // 2, r = row) -> cube distance."""
    aq, ar = a[0] - a[1] // 2, a[1]
    bq, br = b[0] - b[1] // 2, b[1]
    dq, dr = aq - bq, ar - br
    return max(abs(dq), abs(dr), abs(dq + dr))


def x2(cell) -> int:
    return 2 * cell[0] + cell[1] % 2


def within(start, lo: int, hi: int) -> set[tuple[int, int]]:
    return {c for c in cells() if lo <= hex_distance(start, c) <= hi}


def subsets(items, up_to: int) -> set[tuple[str, ...]]:
    return {tuple(sorted(c)) for k in range(up_to + 1) for c in combinations(items, k)}


def order_sets(eng: Engine, card: str, **kw) -> set[tuple[str, ...]]:
    g = eng.ground(card, **kw)
    out = [tuple(sorted(p.id for p in s)) for s in eng.order_sets(g)]
    assert len(out) == len(set(out)) == eng.count(g)
    return set(out)


def write_scenario(directory: Path, units, leaders=(), *, rules=None, name="scenario.yaml", **kw) -> Path:
    data = scenario_dict(units, leaders, **kw)
    if rules is not None:
        data["rules"] = list(rules)
    p = Path(directory) / name
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def write(directory: Path, name: str, text: str) -> str:
    p = Path(directory) / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return str(p)


class Run:
    def __init__(self, result):
        self.code = result.exit_code
        self.stdout = _ANSI.sub("", result.stdout)
        self.stderr = _ANSI.sub("", result.stderr)

    def json(self):
        assert self.stdout.endswith("\n") and self.stdout.count("\n") == 1, self.stdout
        return json.loads(self.stdout)


def run(*args) -> Run:
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result)


def diff_json(*args) -> dict:
    r = run("diff", *args, "--json")
    assert r.code == 0, (r.stdout, r.stderr)
    return r.json()


def why(change) -> set[tuple]:
    """A change's `because` as {(rule, file, pieces)}."""
    return {(b["rule"], b["file"], tuple(b["pieces"])) for b in change["because"]}


# ============================================================ the shipped files


@pytest.mark.parametrize("path", [DETACH, CAV5, CENTER], ids=lambda p: p.name)
def test_worked_example_starts_with_a_comment_and_lints_clean(path: Path) -> None:
    text = path.read_text("utf-8")
    assert text.startswith("# House rule"), text[:40]
    r = run("lint", path, "--over", "cca", "--json")
    assert r.code == 0 and r.json() == {"errors": []}


def test_the_three_examples_layer_together_cleanly() -> None:
    r = run("lint", DETACH, CAV5, CENTER, "--over", "cca")
    assert r.code == 0, r.stderr
    assert r.stdout.startswith("clean: ")


def test_light_cavalry_5_keeps_every_other_attribute_of_00_pack() -> None:
    base = dict(load_pack("cca").units["light_cavalry"].attrs)
    house = dict(load_pack("cca", [CAV5]).units["light_cavalry"].attrs)
    # 00-pack.wc: { kind = mounted; class = light; move = 4; battle_move = 4; ranged = true; range = 2; blocks = 3 }
    assert base == {"kind": "mounted", "class": "light", "move": 4, "battle_move": 4, "ranged": True,
                    "range": 2, "blocks": 3}
    assert house == {**base, "move": 5, "battle_move": 5}
    # light bow cavalry is a type of its own: untouched
    assert load_pack("cca", [CAV5]).units["light_bow_cavalry"] == load_pack("cca").units["light_bow_cavalry"]


# ============================================ (a) leaders may detach on any card
#
# r1 heavy infantry at (6,6) with leader L attached; r2 heavy infantry at
# (7,6), adjacent to r1; r3 heavy infantry at (10,6), not adjacent to either.
# x2: (6,6) 12 center, (7,6) 14 center, (10,6) 20 right.

DETACH_UNITS = [("r1", "red", "heavy_infantry", [6, 6]), ("r2", "red", "heavy_infantry", [7, 6]),
                ("r3", "red", "heavy_infantry", [10, 6])]
DETACH_LEADERS = [("L", "red", [6, 6])]

# Leadership Any Section: "up to 1 + 3 pieces where chain_link(it), led by
# leader" (a connected group touching a leader's hex: only L's hex (6,6)),
# or "instead: up to 1 units".
#   before: L is attached and the card has no helmet, and it is a Leadership
#   card, so L may not be in `ordered` (cca.detach-only-with-helmet,
#   cca.no-detach-on-leadership). Group sets from {r1, r2, r3}: {}, {r1},
#   {r1, r2} ({r2} and {r3} do not touch (6,6); r3 links to nothing); the
#   `instead` alternative adds {r2}, {r3}.
#   after: L may be ordered (he detaches). Groups touching (6,6) that
#   contain L: {L}, {L, r1}, {L, r2} (L's hex is next to r2's), {L, r1, r2}.
LEADERSHIP_BEFORE = {(), ("r1",), ("r2",), ("r3",), ("r1", "r2")}
LEADERSHIP_NEW = {("L",), ("L", "r1"), ("L", "r2"), ("L", "r1", "r2")}


def test_detach_leadership_any_section(build) -> None:
    before = build(DETACH_UNITS, DETACH_LEADERS)
    after = build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH])
    assert order_sets(before, "Leadership Any Section") == LEADERSHIP_BEFORE
    assert order_sets(after, "Leadership Any Section") == LEADERSHIP_BEFORE | LEADERSHIP_NEW


def test_detach_inspired_center_leadership(build) -> None:
    # the same group, cap 1 + 4; L stands in the center, so he commands
    before = build(DETACH_UNITS, DETACH_LEADERS)
    after = build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH])
    assert order_sets(before, "Inspired Center Leadership") == LEADERSHIP_BEFORE
    assert order_sets(after, "Inspired Center Leadership") == LEADERSHIP_BEFORE | LEADERSHIP_NEW


def test_detach_inspired_left_leadership_has_no_leader_to_command(build) -> None:
    # no leader in the left section: the group alternative orders nothing,
    # `instead` orders one unit of your choice; L cannot be ordered either way
    expected = {(), ("r1",), ("r2",), ("r3",)}
    assert order_sets(build(DETACH_UNITS, DETACH_LEADERS), "Inspired Left Leadership") == expected
    assert order_sets(build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH]), "Inspired Left Leadership") == expected


@pytest.mark.parametrize("card,expected", [
    # troop cards order *units* (Order Heavy Troops: up to Command = 3 heavy
    # units): a leader is never admitted, so detaching cannot become possible
    ("Order Heavy Troops", subsets(["r1", "r2", "r3"], 3)),
    # no medium unit: the fallback "1 unit of your choice" (a unit)
    ("Order Medium Troops", {(), ("r1",), ("r2",), ("r3",)}),
    # a section card already lets L detach (helmet): center pieces r1, r2, L
    ("Order Two Units Center", subsets(["L", "r1", "r2"], 2)),
])
def test_detach_unchanged_where_the_card_cannot_order_a_leader_or_already_could(build, card, expected) -> None:
    assert order_sets(build(DETACH_UNITS, DETACH_LEADERS), card) == expected
    assert order_sets(build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH]), card) == expected


def test_detach_turn_legal_only_with_the_house_rule(build, turn) -> None:
    t = {"card": "Leadership Any Section", "orders": ["L", "r2"],
         "moves": [{"piece": "L", "to": [6, 4]}, {"piece": "r2", "to": [7, 5]}]}
    before = build(DETACH_UNITS, DETACH_LEADERS)
    v = before.check_turn(turn(t, before))
    assert not v.legal
    assert {(x.rule, tuple(x.pieces), x.origin) for x in v.violations} == {
        ("cca.detach-only-with-helmet", ("L",), CORE_ORDERING),
        ("cca.no-detach-on-leadership", ("L",), CORE_ORDERING),
    }
    after = build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH])
    assert after.check_turn(turn(t, after)).legal


def test_detach_diff_json(tmp_path) -> None:
    scen = write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS)
    d = diff_json(scen, "--card", "Leadership Any Section", "--rules", DETACH)
    assert d["card"] == "Leadership Any Section" and d["side"] == "red"
    assert d["rules"] == [str(DETACH)]
    sets = d["order_sets"]
    assert (sets["before"], sets["after"]) == (5, 9)
    # in order of size, then ids
    assert [(c["units"], c["leaders"]) for c in sets["legal_now"]] == [
        ([], ["L"]), (["r1"], ["L"]), (["r2"], ["L"]), (["r1", "r2"], ["L"])]
    for c in sets["legal_now"]:
        assert why(c) == {("cca.detach-only-with-helmet", CORE_ORDERING, ("L",)),
                          ("cca.no-detach-on-leadership", CORE_ORDERING, ("L",))}
        sources = {b["rule"]: b["source"] for b in c["because"]}
        assert sources == {"cca.detach-only-with-helmet": SEED000, "cca.no-detach-on-leadership": SEED002}
    assert sets["illegal_now"] == []
    # L alone now has moves: a lone leader moves 1-3 hexes, through friendly
    # units, and may end on a friendly unit (r2); nothing else changes
    assert set(d["moves"]) == {"L"}
    m = d["moves"]["L"]
    assert m["illegal_now"] == [] and m["battle_changed"] == []
    expected = sorted(within((6, 6), 1, 3), key=lambda c: (c[1], c[0]))
    assert [c["to"] for c in m["legal_now"]] == [list(c) for c in expected]
    assert len(expected) == 32  # 36 hexes within 3, less the 4 of row 9 (off the board)
    assert all(c["because"] == [] and "battle" not in c for c in m["legal_now"])


# ============================================ (b) light cavalry may move 5
#
# A light cavalry unit alone at (6,4) in the middle of an empty board,
# ordered by Order Two Units Center (x2 = 12: center). Its destinations are
# every hex at distance 1..allowance (nothing blocks, nothing stops it), and
# it may battle after any of them (battle_move == move).

CAV_AT = (6, 4)


def destinations(eng: Engine, card: str, ids) -> dict:
    g = eng.ground(card)
    legal, dests = eng.destinations(g, list(ids))
    assert legal
    return dests


def test_light_cavalry_destinations_within_5_instead_of_4(build) -> None:
    units = [("lc", "red", "light_cavalry", list(CAV_AT))]
    before = destinations(build(units), "Order Two Units Center", ["lc"])["lc"]
    after = destinations(build(units, rules=[CAV5]), "Order Two Units Center", ["lc"])["lc"]
    assert before == dict.fromkeys(within(CAV_AT, 1, 4), True)
    assert after == dict.fromkeys(within(CAV_AT, 1, 5), True)
    # 6 + 12 + 18 + 24 = 60 within 4; ring 5 has 30 hexes, 6 of them in row -1
    # and 6 in row 9, off the board: 18 new destinations
    assert len(before) == 60 and len(after) == 78


def test_light_bow_cavalry_still_moves_4(build) -> None:
    units = [("lbc", "red", "light_bow_cavalry", list(CAV_AT))]
    after = destinations(build(units, rules=[CAV5]), "Order Two Units Center", ["lbc"])["lbc"]
    assert after == dict.fromkeys(within(CAV_AT, 1, 4), True)


def test_light_cavalry_may_move_5_and_battle(build, turn) -> None:
    # lc at (6,8) moves 5 hexes to (6,3), next to the blue unit at (6,2)
    # (distance 6 from the start), and battles it
    assert hex_distance((6, 8), (6, 3)) == 5 and hex_distance((6, 3), (6, 2)) == 1
    units = [("lc", "red", "light_cavalry", [6, 8]), ("b1", "blue", "heavy_infantry", [6, 2])]
    t = {"card": "Order Two Units Center", "orders": ["lc"], "moves": [{"piece": "lc", "to": [6, 3]}],
         "battles": [{"piece": "lc", "target": "b1"}]}
    before = build(units)
    v = before.check_turn(turn(t, before))
    assert {(x.rule, tuple(x.pieces), x.origin) for x in v.violations} == {
        ("cca.move.unit-allowance", ("lc",), CORE_MOVEMENT),  # 5 > move 4
        ("cca.battle.after-move", ("lc",), CORE_BATTLE),      # 5 > battle_move 4
    }
    after = build(units, rules=[CAV5])
    assert after.check_turn(turn(t, after)).legal


def test_light_cavalry_diff_json(tmp_path) -> None:
    scen = write_scenario(tmp_path, [("lc", "red", "light_cavalry", list(CAV_AT))])
    d = diff_json(scen, "--card", "Order Two Units Center", "--rules", CAV5)
    assert d["order_sets"] == {"before": 2, "after": 2, "legal_now": [], "illegal_now": []}
    assert set(d["moves"]) == {"lc"}
    m = d["moves"]["lc"]
    assert m["illegal_now"] == [] and m["battle_changed"] == []
    ring5 = sorted(within(CAV_AT, 5, 5), key=lambda c: (c[1], c[0]))
    assert [c["to"] for c in m["legal_now"]] == [list(c) for c in ring5]
    for c in m["legal_now"]:
        assert c["battle"] is True
        assert why(c) == {("cca.move.unit-allowance", CORE_MOVEMENT, ("lc",))}
        assert c["because"][0]["message"] == "lc moves farther than it may"


# ============================== (c) Order Three Units Center + a dotted-line unit
#
# Center pieces: a (6,6) x2 12, b (6,4) x2 12, c (7,5) x2 15, a lone leader
# L (8,4) x2 16 (on the right dotted line: a leader, so not the extra
# order), and the unit d on a dotted line (x2 8 or 16, so also in the
# center). e (2,6) x2 4 is in the left section only.
#   before: up to 3 of the 5 center pieces {a, b, c, d, L}: 1+5+10+10 = 26.
#   after: the same, plus 4 pieces when d takes the extra order and three
#   of {a, b, c, L} the center's: 4 sets. {a, b, c, L} stays illegal (none
#   of them is a unit on a dotted line); e is never ordered.

CENTER_BASE = [("a", "red", "heavy_infantry", [6, 6]), ("b", "red", "heavy_infantry", [6, 4]),
               ("c", "red", "heavy_infantry", [7, 5]), ("e", "red", "heavy_infantry", [2, 6])]
CENTER_LEADERS = [("L", "red", [8, 4])]
DOTTED = {"left-dotted-line": (4, 6), "right-dotted-line": (8, 6)}


def center_units(d_at):
    return CENTER_BASE + [("d", "red", "heavy_infantry", list(d_at))]


def test_center_board_geometry_is_as_claimed() -> None:
    assert [x2(c) for c in [(6, 6), (6, 4), (7, 5), (8, 4), (2, 6), (4, 6), (8, 6)]] == [12, 12, 15, 16, 4, 8, 16]


@pytest.mark.parametrize("d_at", DOTTED.values(), ids=DOTTED.keys())
def test_center_dotted_extra_order_sets(build, d_at) -> None:
    before = subsets(["a", "b", "c", "d", "L"], 3)
    assert len(before) == 26
    new = {tuple(sorted(three + ("d",))) for three in combinations(["a", "b", "c", "L"], 3)}
    assert new == {("a", "b", "c", "d"), ("L", "a", "b", "d"), ("L", "a", "c", "d"), ("L", "b", "c", "d")}
    assert order_sets(build(center_units(d_at), CENTER_LEADERS), "Order Three Units Center") == before
    after = order_sets(build(center_units(d_at), CENTER_LEADERS, rules=[CENTER]), "Order Three Units Center")
    assert after == before | new
    assert ("L", "a", "b", "c") not in after  # 4 pieces only with a unit on a dotted line
    assert not any("e" in s for s in after)


def test_center_dotted_extra_without_a_dotted_unit_changes_nothing(build) -> None:
    units = CENTER_BASE  # no d
    expected = subsets(["a", "b", "c", "L"], 3)
    assert order_sets(build(units, CENTER_LEADERS), "Order Three Units Center") == expected
    assert order_sets(build(units, CENTER_LEADERS, rules=[CENTER]), "Order Three Units Center") == expected


def test_center_dotted_extra_card_keeps_its_deck_data(tmp_path) -> None:
    scen = write_scenario(tmp_path, center_units((4, 6)), CENTER_LEADERS)
    cards = {c["name"]: c for c in run("cards", scen, "--rules", CENTER, "--json").json()["cards"]}
    assert cards["Order Three Units Center"] == {
        "name": "Order Three Units Center", "copies": 4, "category": "section", "helmet": True,
        "orders": "orders: up to 3 pieces where in_section(it, center); up to 1 units where dotted(it)"}


def test_center_dotted_extra_diff_json(tmp_path) -> None:
    scen = write_scenario(tmp_path, center_units((4, 6)), CENTER_LEADERS)
    d = diff_json(scen, "--card", "Order Three Units Center", "--rules", CENTER)
    sets = d["order_sets"]
    assert (sets["before"], sets["after"]) == (26, 30)
    assert [(c["units"], c["leaders"]) for c in sets["legal_now"]] == [
        (["a", "b", "d"], ["L"]), (["a", "c", "d"], ["L"]), (["b", "c", "d"], ["L"]), (["a", "b", "c", "d"], [])]
    for c in sets["legal_now"]:
        ids = tuple(sorted(c["units"] + c["leaders"]))
        # before: 4 pieces on a card of 3 orders in one section
        assert why(c) == {("cca.card-capacity", CORE_ORDERING, ids), ("cca.surplus-orders-lost", CORE_ORDERING, ids)}
    assert sets["illegal_now"] == []
    assert d["moves"] == {}  # every piece alone moves as before


def test_center_dotted_extra_on_akragas_carthaginians() -> None:
    # Carthaginian center (north edge, sections mirrored: the center is the
    # same hexes): c4 (4,1) x2 9, c5 (6,1) 13, c6 (7,1) 15, c10 (4,2) 8 dotted,
    # c11 (8,2) 16 dotted, and Himilco (with c4). c7 (8,1) x2 17 is a flank.
    # Before: up to 3 of those 6: 1+6+15+20 = 42. After: + the 4-sets with
    # c10 or c11: 15 - 1 ({c4, c5, c6, himilco}) = 14.
    d = diff_json("akragas", "--card", "Order Three Units Center", "--side", "carthaginian", "--rules", CENTER)
    sets = d["order_sets"]
    assert (sets["before"], sets["after"]) == (42, 56)
    six = ["c4", "c5", "c6", "c10", "c11", "himilco"]
    expected = {tuple(sorted(s)) for s in combinations(six, 4) if {"c10", "c11"} & set(s)}
    assert {tuple(sorted(c["units"] + c["leaders"])) for c in sets["legal_now"]} == expected
    assert sets["illegal_now"] == []


# ================================================== diff: the file responsible


def test_diff_names_the_house_file_of_a_new_rule(tmp_path) -> None:
    # a house rule that forbids something: the sets it makes illegal name it,
    # and its file (an uncited rule: the file is also its source)
    rule = write(tmp_path, "no-lone-leader-orders.wc",
                 "# House rule: leaders take no order of their own.\n"
                 "rule house.no-leader-orders\n"
                 "    require forall p in ordered: p.role == unit\n"
                 '    message "{p} is a leader: leaders take no order of their own"\n')
    scen = write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS)
    d = diff_json(scen, "--card", "Order Two Units Center", "--rules", rule)
    sets = d["order_sets"]
    # before: up to 2 of r1, r2, L (7 sets); after: without L (4 sets)
    assert (sets["before"], sets["after"]) == (7, 4)
    assert sets["legal_now"] == []
    assert [(c["units"], c["leaders"]) for c in sets["illegal_now"]] == [
        ([], ["L"]), (["r1"], ["L"]), (["r2"], ["L"])]
    for c in sets["illegal_now"]:
        assert c["because"] == [{"rule": "house.no-leader-orders", "pieces": ["L"],
                                 "message": "L is a leader: leaders take no order of their own",
                                 "source": rule, "quote": "", "file": rule}]
    # L can no longer be ordered alone: all his moves go
    assert set(d["moves"]) == {"L"}
    assert len(d["moves"]["L"]["illegal_now"]) == 32


def test_diff_without_rules_is_bad_input(tmp_path) -> None:
    r = run("diff", write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS), "--card", "Leadership Any Section")
    assert r.code == 2 and r.stdout == ""
    assert "diff needs house rules" in r.stderr


# ============================================================ order of layers

# Re-adds the Leadership ban that detach-any-card.wc removes, for one card
# only: it must come after detach-any-card.wc (which removes the old rule).
LAS_BAN = ("# House rule: no detaching on Leadership Any Section (the Inspired cards allow it).\n"
           "rule cca.no-detach-on-leadership\n"
           '    require forall l in ordered: attached(l) implies card.name != "Leadership Any Section"\n'
           '    message "{l} may not detach on Leadership Any Section"\n')


def test_rules_repeatable_applies_in_order(tmp_path) -> None:
    ban = write(tmp_path, "las-ban.wc", LAS_BAN)
    scen = write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS)

    def sets(card, *rules):
        args = ["orders", scen, "--card", card, "--json"]
        for r in rules:
            args += ["--rules", r]
        r = run(*args)
        assert r.code == 0, r.stderr
        return {tuple(sorted(s["units"] + s["leaders"])) for s in r.json()["order_sets"]}

    assert sets("Leadership Any Section", DETACH, ban) == LEADERSHIP_BEFORE
    assert sets("Inspired Center Leadership", DETACH, ban) == LEADERSHIP_BEFORE | LEADERSHIP_NEW
    # the other way round, the ban is a second cca.no-detach-on-leadership
    r = run("orders", scen, "--card", "Leadership Any Section", "--rules", ban, "--rules", DETACH)
    assert r.code == 2 and r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{ban}:2:1: rule cca.no-detach-on-leadership is already defined in ")
    assert Path(first.rsplit(" in ", 1)[1]).resolve() == Path(CORE_ORDERING).resolve()
    assert "hint: write `replace rule` to change it in a house rule" in r.stderr


def test_the_rule_a_later_layer_re_adds_names_that_layer(tmp_path, turn, build) -> None:
    ban = write(tmp_path, "las-ban.wc", LAS_BAN)
    eng = build(DETACH_UNITS, DETACH_LEADERS, rules=[DETACH, ban])
    v = eng.check_turn(turn({"card": "Leadership Any Section", "orders": ["L"]}, eng))
    assert [(x.rule, x.pieces, x.message, x.source, x.quote) for x in v.violations] == [
        ("cca.no-detach-on-leadership", ["L"], "L may not detach on Leadership Any Section", ban, "")]


def test_scenario_rules_key_applies_its_files(tmp_path) -> None:
    (tmp_path / "house").mkdir()
    shutil.copy(DETACH, tmp_path / "house" / "detach-any-card.wc")
    scen = write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS, rules=["house/detach-any-card.wc"])
    eng = Engine.load(scen)
    assert eng.scenario.rules == (str(tmp_path / "house" / "detach-any-card.wc"),)
    assert order_sets(eng, "Leadership Any Section") == LEADERSHIP_BEFORE | LEADERSHIP_NEW
    r = run("orders", scen, "--card", "Leadership Any Section", "--count")
    assert (r.code, r.stdout) == (0, "9\n")
    # the scenario's rules come first, then --rules
    ban = write(tmp_path, "las-ban.wc", LAS_BAN)
    r = run("orders", scen, "--card", "Leadership Any Section", "--count", "--rules", ban)
    assert (r.code, r.stdout) == (0, "5\n")
    # diff compares the scenario as it is (with its rules) against it plus --rules
    d = diff_json(scen, "--card", "Leadership Any Section", "--rules", ban)
    assert (d["order_sets"]["before"], d["order_sets"]["after"]) == (9, 5)
    assert {tuple(sorted(c["units"] + c["leaders"])) for c in d["order_sets"]["illegal_now"]} == LEADERSHIP_NEW
    for c in d["order_sets"]["illegal_now"]:
        assert why(c) == {("cca.no-detach-on-leadership", ban, ("L",))}


def test_scenario_rules_entry_that_does_not_exist(tmp_path) -> None:
    scen = write_scenario(tmp_path, DETACH_UNITS, DETACH_LEADERS, rules=["house/nope.wc"])
    r = run("orders", scen, "--card", "Leadership Any Section", "--count")
    assert r.code == 2 and r.stdout == ""
    assert "rule file 'house/nope.wc' not found" in r.stderr


# ============================================================ lint conflicts


def lint_errors(*paths) -> list[tuple]:
    r = run("lint", *paths, "--over", "cca", "--json")
    assert r.code == 1, r.stdout
    return [(e["file"], e["line"], e["column"], e["message"], e["hint"]) for e in r.json()["errors"]]


def test_lint_two_layers_replacing_the_same_id(tmp_path) -> None:
    a = write(tmp_path, "a.wc", "# A: detach on any card\nreplace define cca.detach-with-helmet\n"
                                "    may_detach := true\n")
    b = write(tmp_path, "b.wc", "# B: detach on section cards only\n\nreplace define cca.detach-with-helmet\n"
                                "    may_detach := card.category == section\n")
    assert lint_errors(a, b) == [(b, 3, 1, f"cca.detach-with-helmet is replaced by two layers: {a} and {b}",
                                  "keep one replacement, or merge the two house-rule files")]
    # with the shipped example and a second replacement of its card
    c = write(tmp_path, "c.wc", 'replace card "Order Three Units Center" {\n    copies = 4  category = section  helmet = true\n'
                                "    orders: up to 4 pieces where in_section(it, center)\n}\n")
    assert lint_errors(CENTER, c) == [(c, 1, 1, f"Order Three Units Center is replaced by two layers: {CENTER} and {c}",
                                       "keep one replacement, or merge the two house-rule files")]
    # and at run time it is bad input, at the same place
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--rules", CENTER, "--rules", c)
    assert r.code == 2 and r.stderr.startswith(f"{c}:1:1: Order Three Units Center is replaced by two layers")


def test_lint_replacing_what_does_not_exist(tmp_path) -> None:
    f = write(tmp_path, "f.wc",
              "# typos\n"
              "replace rule cca.no-detach-on-leadershp\n    require true\n"
              "replace define cca.detach-with-helmt\n    may_detach := true\n"
              'replace card "Order Three Unit Center" {\n    orders: nothing\n}\n'
              "replace unit light_cavalery { kind = mounted; class = light; move = 5; battle_move = 5 }\n")
    assert lint_errors(f) == [
        (f, 2, 1, "replace rule cca.no-detach-on-leadershp: there is no such rule to replace",
         "did you mean cca.no-detach-on-leadership?"),
        (f, 4, 1, "replace define cca.detach-with-helmt: there is no such define to replace",
         "did you mean cca.detach-with-helmet?"),
        (f, 6, 1, "replace card Order Three Unit Center: there is no such card to replace",
         "did you mean Order Three Units Center?"),
        (f, 9, 1, "replace unit light_cavalery: there is no such unit to replace", "did you mean light_cavalry?"),
    ]


def test_a_new_card_named_as_another_to_card_or_empty(tmp_path) -> None:
    # issue 26: which card `--card` finds (case, spaces, hyphens ignored) must not depend on spelling
    f = write(tmp_path, "f.wc", "# cards --card cannot tell apart\n"
                                'card "order three units-center" {\n    copies = 1  category = section  helmet = true\n'
                                "    orders: up to 1 pieces where in_section(it, left)\n}\n"
                                'card "" {\n    copies = 1  category = section\n    orders: nothing\n}\n'
                                'card " - " {\n    copies = 1  category = section\n    orders: nothing\n}\n')
    cards = PACKS_DIR / "cca" / "20-cards.wc"
    said = (f"card 'order three units-center' has the name of card 'Order Three Units Center' (defined in {cards}) "
            "to --card, which ignores case, spaces and hyphens")
    hint = 'write `replace card "Order Three Units Center"` to change that card, or give this one a name of its own'
    empty = "a card's name must not be empty (--card ignores case, spaces and hyphens)"
    assert lint_errors(f) == [(f, 2, 1, said, hint), (f, 6, 1, f"card '': {empty}", None),
                              (f, 10, 1, f"card ' - ': {empty}", None)]
    # loading them is bad input, at the first
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--rules", f)
    assert (r.code, r.stdout) == (2, "") and r.stderr.startswith(f"{f}:2:1: {said}\n"), r.stderr


def test_lint_removing_what_does_not_exist(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "# typos\nremove rule cca.no-detach-on-leadershp\n"
                                "remove define cca.detach-with-helmt\nremove card \"Order Five Units Center\"\n")
    assert lint_errors(f) == [
        (f, 2, 1, "remove rule cca.no-detach-on-leadershp: no such rule", "did you mean cca.no-detach-on-leadership?"),
        (f, 3, 1, "remove define cca.detach-with-helmt: no such define", "did you mean cca.detach-with-helmet?"),
        (f, 4, 1, "remove card Order Five Units Center: no such card", "did you mean Order Four Units Center?"),
    ]


def test_lint_removing_a_define_still_used(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "# leaders may detach on any card (wrongly: the define is still used)\n"
                                "remove rule cca.no-detach-on-leadership\nremove define cca.detach-with-helmet\n")
    assert lint_errors(f) == [
        (f, 3, 1, "remove define cca.detach-with-helmet: may_detach is still used by cca.detach-only-with-helmet",
         "replace it instead (`replace define cca.detach-with-helmet may_detach(...) := ...`), or change those too")]
    # removing its only user too is clean
    g = write(tmp_path, "g.wc", "remove rule cca.detach-only-with-helmet\nremove define cca.detach-with-helmet\n")
    assert run("lint", g, "--over", "cca").code == 0


def test_lint_name_defined_only_in_a_later_layer(tmp_path) -> None:
    use = write(tmp_path, "use.wc", "# uses a define the next file adds\n"
                                    "rule house.units-only\n"
                                    "    require forall p in ordered: unit_only(p)\n"
                                    '    message "{p} is not a unit"\n')
    define = write(tmp_path, "define.wc", "define house.unit-only\n    unit_only(p) := p.role == unit\n")
    assert lint_errors(use, define) == [
        (use, 3, 34, f"unit_only is used here but defined only in a later layer ({define})",
         "give the house-rule files in an order where each uses only what comes before")]
    r = run("lint", define, use, "--over", "cca")
    assert r.code == 0, r.stderr


def test_lint_id_defined_twice(tmp_path) -> None:
    f = write(tmp_path, "f.wc",
              "rule house.a\n    require true\n"
              "rule house.a\n    require false\n"
              "define house.b\n    f(x) := x\n"
              "define house.b\n    g(x) := x\n"
              "define house.c\n    f(y) := y\n")
    assert lint_errors(f) == [
        (f, 3, 1, f"rule house.a is already defined in {f}", "write `replace rule` to change it in a house rule"),
        (f, 7, 1, f"define house.b is already defined in {f}", "write `replace define` to change it in a house rule"),
        (f, 9, 1, "f is already defined by house.b", None),
    ]
    # across two layers
    g = write(tmp_path, "g.wc", "\nrule house.a\n    require true\n")
    h = write(tmp_path, "h.wc", "rule house.a\n    require false\n")
    assert lint_errors(g, h) == [
        (h, 1, 1, f"rule house.a is already defined in {g}", "write `replace rule` to change it in a house rule")]


def test_lint_text_output_names_file_line_column(tmp_path) -> None:
    a = write(tmp_path, "a.wc", "replace define cca.detach-with-helmet\n    may_detach := true\n")
    r = run("lint", a, DETACH, "--over", "cca")
    assert r.code == 1 and r.stdout == ""
    assert r.stderr == (
        f"{DETACH}:18:1: cca.detach-with-helmet is replaced by two layers: {a} and {DETACH}\n"
        "    replace define cca.detach-with-helmet\n"
        "    ^\n"
        "hint: keep one replacement, or merge the two house-rule files\n")


# ============================================================ check: sources


def test_check_names_the_house_file_as_the_source_of_a_house_rule(tmp_path) -> None:
    rule = write(tmp_path, "two-orders.wc",
                 "# House rule: whatever the card, at most two pieces take an order.\n"
                 "rule house.two-orders-at-most\n"
                 "    require count(ordered) <= 2\n"
                 '    message "at most two orders ({pieces})"\n')
    scen = write_scenario(tmp_path, center_units((4, 6)), CENTER_LEADERS)
    turn = write(tmp_path, "turn.yaml", "card: Order Three Units Center\norders: [a, b, c]\n")
    assert run("check", scen, turn, "--json").json() == {"legal": True, "violations": []}
    r = run("check", scen, turn, "--rules", rule, "--json")
    assert r.code == 1
    assert r.json() == {"legal": False, "violations": [
        {"rule": "house.two-orders-at-most", "pieces": ["a", "b", "c"], "message": "at most two orders (a, b, c)",
         "source": rule, "quote": ""}]}
    r = run("check", scen, turn, "--rules", rule)
    assert r.code == 1
    assert r.stdout == ("illegal: 1 violation\n"
                        "  house.two-orders-at-most [heavy infantry a at 6,6, heavy infantry b at 6,4, "
                        "heavy infantry c at 7,5] at most two orders (a, b, c)\n"
                        f"    {rule}\n")


def test_check_a_replaced_cited_rule_names_the_file_and_keeps_the_quote(tmp_path) -> None:
    quote = "You may not give more than one order to each unit or leader."
    rule = write(tmp_path, "one-order.wc",
                 "replace rule cca.one-order-per-piece\n"
                 f'    from seed000 "{quote}"\n'
                 "    require forall p in pieces: orders(p) <= 1\n"
                 '    message "{p}: one order each (house wording)"\n')
    scen = write_scenario(tmp_path, center_units((4, 6)), CENTER_LEADERS)
    turn = write(tmp_path, "turn.yaml", "card: Order Three Units Center\norders: [a, a]\n")
    v = run("check", scen, turn, "--rules", rule, "--json").json()["violations"]
    assert {"rule": "cca.one-order-per-piece", "pieces": ["a"], "message": "a: one order each (house wording)",
            "source": rule, "quote": quote} in v
    # without the house file: the seed document is the source
    v = run("check", scen, turn, "--json").json()["violations"]
    assert {"rule": "cca.one-order-per-piece", "pieces": ["a"], "message": "a is ordered more than once",
            "source": SEED000, "quote": quote} in v


def test_check_under_the_center_example(tmp_path) -> None:
    scen = write_scenario(tmp_path, center_units((4, 6)), CENTER_LEADERS)
    ok = write(tmp_path, "ok.yaml", "card: Order Three Units Center\norders: [a, b, c, d]\n")
    bad = write(tmp_path, "bad.yaml", "card: Order Three Units Center\norders: [a, b, c, L]\n")
    assert run("check", scen, ok, "--rules", CENTER, "--json").json()["legal"] is True
    v = run("check", scen, bad, "--rules", CENTER, "--json").json()
    assert v["legal"] is False
    # 4 orders in all (3 + 1), so the capacity holds; but the extra order is
    # for a unit on a dotted line, and none of a, b, c, L is one
    assert [x["rule"] for x in v["violations"]] == ["cca.surplus-orders-lost"]


# ============================================================ engine bugs
# These tests state what the documented behaviour requires; they fail on the
# engine as it stands (see the report / docs/house-rules.md, "Known issues").


def test_diff_blames_only_the_rule_that_forbade_a_long_move() -> None:
    """s1 (light cavalry, Akragas (1,7)) reaches (4,3) in 5 hexes with the
    house rule, by a path clear of friendly units ((2,6) (2,5) (3,4) (3,3)
    (4,3)). Before, only the allowance forbids it. The engine judges a
    `to`-only move that has no legal path by one witness path, and for moves
    longer than 4 hexes tries only the straight line, which crosses s10 at
    (3,6): it also blames cca.move.no-friendly-unit."""
    d = diff_json("akragas", "--card", "Order Two Units Left", "--order", "s1", "--rules", CAV5)
    by_cell = {tuple(c["to"]): c for c in d["moves"]["s1"]["legal_now"]}
    assert why(by_cell[(4, 3)]) == {("cca.move.unit-allowance", CORE_MOVEMENT, ("s1",))}


def test_removing_a_used_define_is_reported_at_the_remove(tmp_path) -> None:
    """At run time, `remove define` of a define still in use should be bad
    input at the `remove` (as lint reports it), not an unknown name in a
    shipped rule file the player never touched."""
    f = write(tmp_path, "f.wc", "# wrong: attached(l) is used everywhere\nremove define cca.attached\n")
    r = run("orders", "akragas", "--card", "Order Three Units Center", "--rules", f)
    assert r.code == 2
    assert r.stderr.startswith(f"{f}:2:1: remove define cca.attached: attached is still used by "), r.stderr


# ---- checks every verb makes before it uses house rules --------------------


def _run(args):
    from click.testing import CliRunner

    from warcouncil.cli import main

    return CliRunner().invoke(main, args)


def test_partial_unit_replacement_is_rejected_at_the_replace(tmp_path):
    f = tmp_path / "lc.wc"
    f.write_text("replace unit light_cavalry { move = 5 }\n")
    r = _run(["orders", "akragas", "--card", "Order Light Troops", "--count", "--rules", str(f)])
    assert r.exit_code == 2
    assert f"{f}:1:1: replace unit light_cavalry leaves out kind, class, battle_move, ranged, range, blocks" in r.output


def test_define_replacement_keeps_its_parameters(tmp_path):
    f = tmp_path / "ic.wc"
    f.write_text("replace define cca.default.inspired-any-unit\n    inspired_choice(u) := true\n")
    r = _run(["orders", "akragas", "--card", "Inspired Left Leadership", "--count", "--rules", str(f)])
    assert r.exit_code == 2
    assert f"{f}:1:1: replace define cca.default.inspired-any-unit: inspired_choice takes 2 argument(s), not 1" in r.output


def test_layer_order_is_checked_at_run_time(tmp_path):
    use, define = tmp_path / "use.wc", tmp_path / "define.wc"
    use.write_text("rule house.brave\n    require forall p in ordered: brave(p)\n")
    define.write_text("define house.brave-def\n    brave(p) := true\n")
    wrong = _run(["orders", "akragas", "--card", "Order Two Units Left", "--count",
                  "--rules", str(use), "--rules", str(define)])
    assert wrong.exit_code == 2
    assert f"{use}:2:34: brave is used here but defined only in a later layer" in wrong.output
    right = _run(["orders", "akragas", "--card", "Order Two Units Left", "--count",
                  "--rules", str(define), "--rules", str(use)])
    assert right.exit_code == 0 and right.output.strip() == "11"


# ============================================ change: one attribute, one define
#
# `change unit NAME { k = v }` sets only the attributes given; `change define
# ID [when COND] := EXPR` gives a define a new body, its name and parameters
# kept (with `when`: the new body where COND holds, the old one elsewhere).
# Each must give exactly the answers of the full `replace` it stands for.

CAV5_REPLACE = ("# the full replacement light-cavalry-5.wc used to spell out\n"
                "replace unit light_cavalry { kind = mounted; class = light; move = 5; battle_move = 5; "
                "ranged = true; range = 2; blocks = 3 }\n")


def test_light_cavalry_5_is_a_change_of_two_attributes() -> None:
    body = [ln for ln in CAV5.read_text("utf-8").splitlines() if ln and not ln.startswith("#")]
    assert body == ["change unit light_cavalry { move = 5; battle_move = 5 }"]


def test_change_unit_answers_as_the_full_replace(tmp_path) -> None:
    full = write(tmp_path, "full.wc", CAV5_REPLACE)
    assert load_pack("cca", [CAV5]).units["light_cavalry"].attrs == load_pack("cca", [full]).units["light_cavalry"].attrs
    for rules, n in (((), 26), ((CAV5,), 34), ((full,), 34)):
        extra = [a for f in rules for a in ("--rules", f)]
        r = run("moves", "akragas", "--card", "Order Two Units Left", "--order", "s1", "--json", *extra)
        assert r.code == 0 and len(r.json()["moves"]["s1"]) == n, (rules, r.stdout)
    same = [run("moves", "akragas", "--card", "Order Two Units Left", "--order", "s1", "--json", "--rules", f).stdout
            for f in (CAV5, full)]
    assert same[0] == same[1]
    # the order sets do not change (how far, not who): 11 either way
    for f in (CAV5, full):
        assert run("orders", "akragas", "--card", "Order Two Units Left", "--count", "--rules", f).stdout == "11\n"


def test_change_unit_errors_at_their_place(tmp_path) -> None:
    f = write(tmp_path, "f.wc",
              "# typos\n"
              "change unit light_cavalary { move = 5 }\n"
              "change unit light_cavalry { move = 5; mvoe = 3 }\n"
              "change unit heavy_cavalry {\n    move = fast\n}\n"
              "change unit camel { }\n")
    assert lint_errors(f) == [
        (f, 2, 1, "change unit light_cavalary: there is no such unit to change", "did you mean light_cavalry?"),
        (f, 3, 39, "change unit light_cavalry: mvoe is not an attribute of a unit type", "did you mean move?"),
        (f, 5, 5, "change unit heavy_cavalry: move is a number, not 'fast'", "as in heavy_cavalry: move = 2"),
        (f, 7, 1, "change unit camel changes nothing", "give the attributes to change: change unit camel { move = 5 }"),
    ]
    # at run time: bad input (exit 2) at the first one, the pack unchanged by the rest
    r = run("orders", "akragas", "--card", "Order Two Units Left", "--count", "--rules", f)
    assert r.code == 2 and r.stdout == ""
    assert r.stderr.startswith(f"{f}:2:1: change unit light_cavalary: there is no such unit to change\n"), r.stderr
    g = write(tmp_path, "g.wc", "change unit light_cavalry { move = 5; chariots = true }\n")
    r = run("orders", "akragas", "--card", "Order Two Units Left", "--count", "--rules", g)
    assert r.code == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"{g}:1:39: change unit light_cavalry: chariots is not an attribute of a unit type\n")
    assert "hint: did you mean chariot?" in r.stderr


def test_change_unit_sets_an_attribute_the_type_lacks_if_another_type_has_it(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "change unit light_cavalry { chariot = true }\n")
    attrs = dict(load_pack("cca", [f]).units["light_cavalry"].attrs)
    assert attrs == {"kind": "mounted", "class": "light", "move": 4, "battle_move": 4, "ranged": True, "range": 2,
                     "blocks": 3, "chariot": True}


def test_lint_two_layers_changing_the_same_attribute(tmp_path) -> None:
    """As two `replace`s of one id: an error at the second, naming both files.
    Two layers changing different attributes of one unit type do not clash."""
    a = write(tmp_path, "a.wc", "change unit light_cavalry { move = 5 }\n")
    b = write(tmp_path, "b.wc", "# B\nchange unit light_cavalry { battle_move = 5; move = 6 }\n")
    hint = "keep one change, or merge the two house-rule files"
    assert lint_errors(a, b) == [(b, 2, 46, f"light_cavalry.move is changed by two layers: {a} and {b}", hint)]
    r = run("orders", "akragas", "--card", "Order Two Units Left", "--count", "--rules", a, "--rules", b)
    assert r.code == 2 and r.stderr.startswith(f"{b}:2:46: light_cavalry.move is changed by two layers")
    # different attributes: both apply
    c = write(tmp_path, "c.wc", "change unit light_cavalry { battle_move = 5 }\n")
    assert run("lint", a, c, "--over", "cca").code == 0
    assert dict(load_pack("cca", [a, c]).units["light_cavalry"].attrs)["battle_move"] == 5
    assert dict(load_pack("cca", [a, c]).units["light_cavalry"].attrs)["move"] == 5
    # one file may change an attribute twice: the last one wins
    d = write(tmp_path, "d.wc", "change unit light_cavalry { move = 6 }\nchange unit light_cavalry { move = 5 }\n")
    assert dict(load_pack("cca", [d]).units["light_cavalry"].attrs)["move"] == 5
    # a `replace unit` sets every attribute: it clashes with another layer's change, either way round
    full = write(tmp_path, "full.wc", CAV5_REPLACE)
    assert lint_errors(full, a) == [(a, 1, 29, f"light_cavalry.move is changed by two layers: {full} and {a}", hint)]
    assert lint_errors(a, full) == [(full, 2, 1, f"light_cavalry.move is replaced by two layers: {a} and {full}",
                                     "keep one replacement, or merge the two house-rule files")]


def test_replace_unit_hint_names_change_unit(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "replace unit light_cavalry { move = 5 }\n")
    assert lint_errors(f) == [(f, 1, 1, "replace unit light_cavalry leaves out kind, class, battle_move, ranged, range, "
                                        "blocks", "a replacement is the whole unit type: list every attribute, or "
                                                  "write `change unit light_cavalry { ... }` to set only some")]


LEADERSHIP, CENTER3 = "Leadership Any Section", "Order Three Units Center"


def order_set_lines(card: str, *rules) -> list[str]:
    r = run("orders", "akragas", "--card", card, *[a for f in rules for a in ("--rules", f)])
    assert r.code == 0, r.stderr
    return r.stdout.splitlines()


def test_change_define_answers_as_the_replace(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "change define cca.detach-with-helmet := true\nremove rule cca.no-detach-on-leadership\n")
    assert run("lint", f, "--over", "cca").code == 0
    # detach-any-card.wc (its `replace define`): 30 order sets before, 62 after
    assert run("orders", "akragas", "--card", LEADERSHIP, "--count", "--rules", f).stdout == "62\n"
    assert order_set_lines(LEADERSHIP, f) == order_set_lines(LEADERSHIP, DETACH)
    pack = load_pack("cca", [f])
    d = pack.defines["may_detach"]
    assert (d.id, d.params, d.body, pack.origin[d.id]) == ("cca.detach-with-helmet", (), A.Const(True), f)
    # the define keeps its citations (the change gives none); its source is the house file
    assert d.citations == load_pack("cca").defines["may_detach"].citations
    assert pack.source_of(d)[0] == f


def test_change_define_when_is_an_exception_to_the_old_body(tmp_path) -> None:
    """`when`: the new body in that case, the old one otherwise; the same
    answers as the `replace` that writes the `if` out."""
    exc = write(tmp_path, "exc.wc", "# no detaching on section cards\n"
                                    "change define cca.detach-with-helmet when card.category == section := false\n")
    full = write(tmp_path, "full.wc", "replace define cca.detach-with-helmet\n"
                                      "    may_detach := if card.category == section then false else card.helmet\n")
    assert load_pack("cca", [exc]).defines["may_detach"].body == load_pack("cca", [full]).defines["may_detach"].body
    # Order Three Units Center (a section card): its sets with a detached leader go
    before, after = order_set_lines(CENTER3), order_set_lines(CENTER3, exc)
    # the center's s4 s5 s6 s11 and Daphnaeus (attached): the sets of up to 3 orders
    # in which Daphnaeus takes his own go, alone or with 1 or 2 of the 4 units: 1 + 4 + 6
    assert after == order_set_lines(CENTER3, full)
    assert (before[-1], after[-1]) == ("26 legal order sets", "15 legal order sets")
    gone = [s for s in before[:-1] if s not in after]
    assert len(gone) == 11 and all(s.endswith("leader daphnaeus at 6,7") for s in gone)
    # Order Mounted Troops (the helmet, not a section card): unchanged
    assert order_set_lines("Order Mounted Troops", exc) == order_set_lines("Order Mounted Troops")


def test_change_define_keeps_its_parameters(tmp_path) -> None:
    """The body may read the define's parameters (inspired_choice(u, s))."""
    f = write(tmp_path, "f.wc", "change define cca.default.inspired-any-unit := u.kind == mounted\n")
    assert run("lint", f, "--over", "cca").code == 0
    assert load_pack("cca", [f]).defines["inspired_choice"].params == ("u", "s")


def test_change_define_errors_at_their_place(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "# typo\nchange define cca.detach-with-helmt := true\n"
                                "change define cca.detach-with-helmet when card.helmt := true\n")
    assert lint_errors(f) == [
        (f, 2, 1, "change define cca.detach-with-helmt: there is no such define to change",
         "did you mean cca.detach-with-helmet?"),
        (f, 3, 43, "unknown attribute 'helmt'", "did you mean 'helmet'?"),
    ]
    r = run("orders", "akragas", "--card", LEADERSHIP, "--count", "--rules", f)
    assert r.code == 2 and r.stderr.startswith(f"{f}:2:1: change define cca.detach-with-helmt: there is no such")
    # two layers changing one define: as two replacements, at the second
    a = write(tmp_path, "a.wc", "change define cca.detach-with-helmet := true\n")
    b = write(tmp_path, "b.wc", "\nchange define cca.detach-with-helmet when card.category == leadership := false\n")
    assert lint_errors(a, b) == [(b, 2, 1, f"cca.detach-with-helmet is changed by two layers: {a} and {b}",
                                  "keep one change, or merge the two house-rule files")]
    assert lint_errors(DETACH, a) == [(a, 1, 1, f"cca.detach-with-helmet is changed by two layers: {DETACH} and {a}",
                                       "keep one change, or merge the two house-rule files")]
    # a removed define cannot be changed
    c = write(tmp_path, "c.wc", "remove define cca.detach-with-helmet\nchange define cca.detach-with-helmet := true\n")
    assert lint_errors(c)[-1][:4] == (c, 2, 1, "change define cca.detach-with-helmet: there is no such define to change")


def test_a_rule_reading_a_changed_define_keeps_its_source(tmp_path) -> None:
    """As with `replace define`: the pack's rule that reads the define keeps
    its citation as its source; the house file is named by `diff`'s header."""
    exc = write(tmp_path, "exc.wc", "change define cca.detach-with-helmet when card.category == section := false\n")
    full = write(tmp_path, "full.wc", "replace define cca.detach-with-helmet\n"
                                      "    may_detach := if card.category == section then false else card.helmet\n")
    turn = write(tmp_path, "t.yaml", "card: Order Three Units Center\norders: [daphnaeus]\n"
                                     "moves:\n  - {piece: daphnaeus, to: [5, 5]}\n")
    assert run("check", "akragas", turn).stdout == "legal\n"
    got = run("check", "akragas", turn, "--rules", exc, "--json")
    assert got.code == 1 and got.stdout == run("check", "akragas", turn, "--rules", full, "--json").stdout
    [v] = got.json()["violations"]
    assert (v["rule"], v["pieces"], v["source"]) == ("cca.detach-only-with-helmet", ["daphnaeus"], SEED000)


def test_a_changed_define_uses_only_what_earlier_layers_define(tmp_path) -> None:
    one = write(tmp_path, "one.wc", "change define cca.detach-with-helmet when house_ok := true\n")
    two = write(tmp_path, "two.wc", "define house.ok house_ok := card.category == section\n")
    assert lint_errors(one, two) == [(one, 1, 43, "house_ok is used here but defined only in a later layer "
                                      f"({two})", "give the house-rule files in an order where each uses only what "
                                                  "comes before")]
    assert run("lint", two, one, "--over", "cca").code == 0


def test_exceptions_in_one_file_stack_the_later_first(tmp_path) -> None:
    f = write(tmp_path, "f.wc", "change define cca.detach-with-helmet when card.category == section := false\n"
                                "change define cca.detach-with-helmet when card.category == leadership := true\n")
    section, leadership = (A.Compare("==", A.Attr(A.Name("card"), "category"), A.Name(c))
                           for c in ("section", "leadership"))
    helmet = A.Attr(A.Name("card"), "helmet")
    assert load_pack("cca", [f]).defines["may_detach"].body == A.IfElse(
        leadership, A.Const(True), A.IfElse(section, A.Const(False), helmet))
    assert run("lint", f, "--over", "cca").code == 0
