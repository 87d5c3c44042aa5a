"""The Commands & Colors: Medieval pack (rules/ccm) on the `ccm` board.

1. Every sentence of seed 001 (CCM "Order Units and Leaders") has a test
   that shows the exact answer with the pack intact and with the rule that
   implements the sentence removed (``remove rule ID``) or neutralised
   (``replace define ID ...``) by a house-rule file, and asserts both.
2. Troop cards, detaching (section cards, the Leaders card, Cry Havoc with a
   given roll) and no detaching (Leadership and troop cards): the exact list
   of legal order sets on small hand-built boards.
3. The shipped illustrative scenario loads and answers.
4. The CCA pack is unchanged by the CCM work (the core's new seed 001
   citations, the `ccm` board, the CCM split of the surplus rule).

Every expected answer is worked out by hand from the rule texts (seed 001,
reference ccm.md, cca.md where CCM follows CCA), never copied from engine
output. Sets are listed with `upto(pool, k)` (every subset of at most k) and
products of such lists, which is how the cards' words read.

Geometry (`ccm` board: 13 x 11 hexes, odd-r, row 0 = north, row 10 = south;
sections by the CCA closed form x2 = 2*col + row%2):
  odd rows:  West cols 0-3, Center 4-7, East 8-11 (no dotted hex)
  even rows: West cols 0-4, Center 4-8, East 8-12 (cols 4 and 8 dotted)
  red is the south side (left = West, right = East); blue the north side.
  Neighbours of [c, r], odd r:  [c-1,r] [c+1,r] [c,r-1] [c+1,r-1] [c,r+1] [c+1,r+1]
                        even r: [c-1,r] [c+1,r] [c-1,r-1] [c,r-1] [c-1,r+1] [c,r+1]
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import scenario_dict

from warcouncil.dsl.lint import coverage, lint
from warcouncil.dsl.pack import SOURCES_DIR, load_pack
from warcouncil.errors import WarcouncilError
from warcouncil.kernel.system import named_board
from warcouncil.systems.cc.csp import csp_order_sets
from warcouncil.kernel.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "warcouncil" / "examples" / "ccm" / "practice_field.yaml"
CCM_PACK = ROOT / "warcouncil" / "rules" / "ccm"
SEED001 = "001_0f2dda49424cf9a8.txt"

# --------------------------------------------------------------------------- helpers


def ccm_dict(units=(), leaders=(), **kw) -> dict:
    return scenario_dict(units, leaders, system="ccm", **kw)


@pytest.fixture
def ccm(files):
    """``ccm(units, leaders, rules=[...], red_command=...)`` -> Engine on the ccm board."""

    def build(units=(), leaders=(), *, rules=(), **kw):
        return files.engine(ccm_dict(units, leaders, **kw), rules=rules)

    return build


def as_json(eng, ids) -> dict:
    leaders = {ldr.id for ldr in eng.scenario.leaders}
    ids = list(ids)
    return {"units": sorted(i for i in ids if i not in leaders), "leaders": sorted(i for i in ids if i in leaders)}


def canon(eng, sets) -> list[dict]:
    """Expected sets in the JSON contract's order: by size, then by ids."""
    out = [as_json(eng, s) for s in sets]
    assert len({(tuple(s["units"]), tuple(s["leaders"])) for s in out}) == len(out), "duplicate expected set"
    return sorted(out, key=lambda s: (len(s["units"]) + len(s["leaders"]),
                                      [(0, u) for u in s["units"]] + [(1, x) for x in s["leaders"]]))


def upto(pool, k) -> list[tuple]:
    """Every subset of ``pool`` with at most ``k`` members (the empty one too)."""
    return [c for n in range(min(k, len(pool)) + 1) for c in itertools.combinations(pool, n)]


def product(*lists) -> list[tuple]:
    """Every union of one set from each list."""
    return [tuple(itertools.chain.from_iterable(p)) for p in itertools.product(*lists)]


def orders(eng, card, **kw) -> list[dict]:
    """The engine's order sets as JSON dicts; count() must agree, and so must
    the python-constraint reference solver."""
    g = eng.ground(card, **kw)
    sets = [eng.order_set_json(g, s) for s in eng.order_sets(g)]
    assert eng.count(g) == len(sets)
    assert [eng.order_set_json(g, s) for s in csp_order_sets(g, eng.plan)] == sets
    return sets


def expect(eng, card, expected, **kw) -> None:
    assert orders(eng, card, **kw) == canon(eng, expected)


def violations(verdict) -> list[tuple[str, list[str]]]:
    return sorted((v.rule, v.pieces) for v in verdict.violations)


def check_turn(files, eng, data):
    return eng.check_turn(files.turn(data, eng))


# --------------------------------------------------------------------------- board S
# Red (south; left = West, right = East):
#   a1 heavy_infantry      [2,9]  odd row col 2  -> left          (leader la attached)
#   a6 warrior             [3,7]  odd row col 3  -> left
#   a2 light_bow_infantry  [4,8]  even row col 4 -> left + center (dotted)
#   a3 medium_infantry     [6,9]  odd row col 6  -> center
#   a5 light_cavalry       [10,9] odd row col 10 -> right
#   lb lone leader         [11,8] even row col 11-> right
# Blue: e1 heavy_infantry [6,1] with leader le; e2 auxilia [4,6] (next to a6:
# [3,7] odd row touches [3,6] and [4,6]).
# [2,9]'s neighbours: [1,9] [3,9] [2,8] [3,8] [2,10] [3,10]: a1 touches no
# other red unit; a2 [4,8] touches [3,7] (a6).
S_UNITS = [
    ("a1", "red", "heavy_infantry", [2, 9]),
    ("a6", "red", "warrior", [3, 7]),
    ("a2", "red", "light_bow_infantry", [4, 8]),
    ("a3", "red", "medium_infantry", [6, 9]),
    ("a5", "red", "light_cavalry", [10, 9]),
    ("e1", "blue", "heavy_infantry", [6, 1]),
    ("e2", "blue", "auxilia", [4, 6]),
]
S_LEADERS = [("la", "red", [2, 9]), ("lb", "red", [11, 8]), ("le", "blue", [6, 1])]
S_LEFT = ["a1", "a2", "a6", "la"]
S_CENTER = ["a2", "a3"]
S_RIGHT = ["a5", "lb"]
S_ALL = ["a1", "a2", "a3", "a5", "a6", "la", "lb"]


@pytest.fixture
def board_s(ccm):
    def build(rules=(), **kw):
        return ccm(S_UNITS, S_LEADERS, rules=rules, **kw)

    return build


# =========================================================================== 1. seed 001, sentence by sentence

SENTENCE_TESTS: dict[str, str] = {}


def sentence(text):
    """Register the seed 001 sentence a test covers (see the meta-test)."""

    def deco(fn):
        SENTENCE_TESTS[text] = fn.__name__
        return fn

    return deco


@sentence("After playing a Command card, announce which eligible units or Leaders are ordered.")
def test_s01_only_eligible_pieces(board_s, house):
    # Order Two Units Right: red's right holds a5 and lb.
    expect(board_s(), "Order Two Units Right", upto(S_RIGHT, 2))
    # Without ccm.order-eligible any own piece takes one of the two orders.
    eng = board_s([house("remove rule ccm.order-eligible\n")])
    expect(eng, "Order Two Units Right", upto(S_ALL, 2))


@sentence("Only those units or Leaders chosen to receive an order from the card played may move, battle, or take a special action.")
def test_s02_only_ordered_pieces_move(board_s, house, files):
    turn = {"card": "Order Two Units Left", "orders": ["a1"], "moves": [{"piece": "a6", "to": [3, 6]}]}
    v = check_turn(files, board_s(), turn)
    assert not v.legal and violations(v) == [("ccm.only-ordered-act", ["a6"])]
    v = check_turn(files, board_s([house("remove rule ccm.only-ordered-act\n")]), turn)
    assert v.legal and violations(v) == []


@sentence("Only those units or Leaders chosen to receive an order from the card played may move, battle, or take a special action.")
def test_s02_only_ordered_pieces_battle(board_s, house, files):
    # a6 [3,7] is next to the enemy auxilia e2 [4,6], but a6 has no order.
    turn = {"card": "Order Two Units Left", "orders": ["a1"], "battles": [{"piece": "a6", "target": "e2"}]}
    v = check_turn(files, board_s(), turn)
    assert not v.legal and violations(v) == [("ccm.only-ordered-battle", ["a6"])]
    v = check_turn(files, board_s([house("remove rule ccm.only-ordered-battle\n")]), turn)
    assert v.legal


@sentence("Units or Leaders on a hex with a dotted line running through it may be ordered from either flank or center Section.")
def test_s03_dotted_line(board_s, house):
    eng = board_s()
    expect(eng, "Order Two Units Center", upto(S_CENTER, 2))  # a2 from the center
    expect(eng, "Order Two Units Left", upto(S_LEFT, 2))  # ... and from the left
    eng = board_s([house("replace define ccm.dotted-line in_section(p, s) := s in sections_of(p) and not dotted(p)\n")])
    expect(eng, "Order Two Units Center", upto(["a3"], 2))
    expect(eng, "Order Two Units Left", upto(["a1", "a6", "la"], 2))


@sentence("If a Section Command card allows you to issue more orders in a given Section of the battlefield than a player currently has units or Leaders in that Section, those additional orders are lost.")
def test_s04_section_orders_lost(board_s, house):
    # Out Flanked: 2 orders in the left, 2 in the right; a right order may not
    # order a third left piece.
    expect(board_s(), "Out Flanked", product(upto(S_LEFT, 2), upto(S_RIGHT, 2)))
    eng = board_s([house("remove rule ccm.section-orders-lost\n")])
    expect(eng, "Out Flanked", upto(S_LEFT + S_RIGHT, 4))


@sentence("If a Tactic Command card allows a player to issue more orders than units a player currently has, those additional orders are lost.")
def test_s05_tactic_orders_lost(ccm, house):
    # Cry Havoc, command 2, rolled light + light: two orders for light units;
    # red has one (l1). The second is lost: it may not order m1.
    units = [("l1", "red", "light_bow_infantry", [2, 9]), ("m1", "red", "medium_infantry", [6, 9])]
    eng = ccm(units, red_command=2)
    expect(eng, "Cry Havoc", [(), ("l1",)], roll="light,light")
    eng = ccm(units, red_command=2, rules=[house("remove rule ccm.tactic-orders-lost\n")])
    expect(eng, "Cry Havoc", upto(["l1", "m1"], 2), roll="light,light")
    # the section rule does not cover tactic cards, nor this one section cards
    assert "ccm.section-orders-lost" in eng.pack.rules


@sentence("A player may only give one order to each ordered unit or Leader during the course of a single game turn.")
def test_s06_one_order_per_piece(board_s, house):
    eng = board_s()
    g = eng.ground("Order Two Units Left")
    v = eng.check_orders(g, ["a1", "a1"])
    assert not v.legal and violations(v) == [("ccm.one-order-per-piece", ["a1"])]
    assert v.violations[0].source == SEED001
    assert v.violations[0].quote == "A player may only give one order to each ordered unit or Leader during the course of a single game turn."
    eng = board_s([house("remove rule ccm.one-order-per-piece\n")])
    assert eng.check_orders(eng.ground("Order Two Units Left"), ["a1", "a1"]).legal


@sentence("A Leader in the same hex as a friendly unit is considered attached to the unit.")
def test_s07_attached(board_s, house):
    # Inspired Left Leadership: la (left) commands; a1 in his hex touches no
    # other red piece, so the chain is a1 alone; la, attached, may not take
    # an order of his own on a Leadership card. Or: one unit of your choice.
    one_unit = [(), ("a1",), ("a2",), ("a3",), ("a5",), ("a6",)]
    expect(board_s(), "Inspired Left Leadership", one_unit)
    # If la were not attached he would be a lone leader in the chain.
    eng = board_s([house("replace define ccm.attached attached(l) := false\n")])
    expect(eng, "Inspired Left Leadership", one_unit + [("la",), ("a1", "la")])


@sentence("If the unit is ordered to move, the attached Leader must move with the unit, to the same hex as the unit, unless the Leader is ordered to detach.")
def test_s08_attached_leader_moves_with_unit(board_s, house, files):
    # (issue 11, interface.md "Attached leaders in a turn file": unlisted, la
    # goes along; listed as staying on [2,9], he is left behind)
    turn = {"card": "Order Two Units Left", "orders": ["a1"], "moves": [{"piece": "a1", "to": [2, 8]}]}
    assert check_turn(files, board_s(), turn).legal
    turn["moves"].append({"piece": "la", "to": [2, 9]})
    v = check_turn(files, board_s(), turn)
    assert not v.legal and violations(v) == [("ccm.attached-moves-with-unit", ["la"])]
    assert check_turn(files, board_s([house("remove rule ccm.attached-moves-with-unit\n")]), turn).legal


@sentence("If the unit is ordered to move, the attached Leader must move with the unit, to the same hex as the unit, unless the Leader is ordered to detach.")
def test_s08_attached_leader_to_the_same_hex(board_s, house, files):
    turn = {"card": "Order Two Units Left", "orders": ["a1"],
            "moves": [{"piece": "a1", "to": [2, 8]}, {"piece": "la", "to": [1, 8]}]}
    v = check_turn(files, board_s(), turn)
    assert not v.legal and violations(v) == [("ccm.attached-same-hex", ["la"])]
    assert check_turn(files, board_s([house("remove rule ccm.attached-same-hex\n")]), turn).legal
    # unless he is ordered to detach (his own order, before the unit moves)
    detach = {"card": "Order Two Units Left", "orders": ["a1", "la"],
              "moves": [{"piece": "la", "to": [1, 8]}, {"piece": "a1", "to": [2, 8]}]}
    assert check_turn(files, board_s(), detach).legal


@sentence("Note: It only costs one order for a unit and the attached Leader to move and/or battle together.")
def test_s09_attached_leader_costs_nothing(board_s, house, files):
    turn = {"card": "Order Two Units Left", "orders": ["a1"],
            "moves": [{"piece": "a1", "to": [2, 8]}, {"piece": "la", "to": [2, 8]}]}
    assert check_turn(files, board_s(), turn).legal
    eng = board_s([house("replace define ccm.attached-costs-nothing accompanies(l) := false\n")])
    v = check_turn(files, eng, turn)
    assert not v.legal and violations(v) == [("ccm.only-ordered-act", ["la"])]


@sentence("When any Section Command card is played, a Leader in the same hex as a unit may be ordered to detach from the unit and move.")
def test_s10_detach_on_section_cards(board_s, house):
    expect(board_s(), "Order Two Units Left", upto(S_LEFT, 2))  # la may detach
    eng = board_s([house("replace define ccm.detach-section-cards detach_section := false\n")])
    expect(eng, "Order Two Units Left", upto(["a1", "a2", "a6"], 2))
    # the other helmet cards are not affected
    expect(eng, "Leaders", product([(), ("a1",), ("la",)], [(), ("lb",)]))


@sentence("It costs one order for the attached Leader to detach from the unit and move separately.")
def test_s11_detach_costs_an_order(board_s, house):
    expect(board_s(), "Order Two Units Left", upto(S_LEFT, 2))
    eng = board_s([house("replace define ccm.detach-costs-one-order charged(p) := not attached(p)\n")])
    expect(eng, "Order Two Units Left", product(upto(["a1", "a2", "a6"], 2), [(), ("la",)]))


@sentence("When a “Leaders” Command card is played, a Leader in the same hex as a unit may be ordered to detach from the unit and move.")
def test_s12_detach_on_leaders_card(board_s, house):
    # Leaders: any leaders (la detaching, lb), and a1 while la stays with it.
    expect(board_s(), "Leaders", product([(), ("a1",), ("la",)], [(), ("lb",)]))
    eng = board_s([house("replace define ccm.detach-leaders-card detach_leaders := false\n")])
    expect(eng, "Leaders", product([(), ("a1",)], [(), ("lb",)]))
    expect(eng, "Order Two Units Left", upto(S_LEFT, 2))  # section cards still detach


@sentence("When a “Cry Havoc” Command card is played, a Leader in the same hex as a unit may be ordered to detach from the unit and move.")
def test_s13_detach_on_cry_havoc(board_s, house):
    # command 2, rolled helmet + flag: one order, any unit or leader.
    expect(board_s(red_command=2), "Cry Havoc", upto(S_ALL, 1), roll="helmet,flag")
    eng = board_s([house("replace define ccm.detach-cry-havoc detach_cry_havoc := false\n")], red_command=2)
    expect(eng, "Cry Havoc", upto(["a1", "a2", "a3", "a5", "a6", "lb"], 1), roll="helmet,flag")


@sentence("NOTE: A helmet symbol is on the top left corner of these cards to remind players that a Leader can detach.")
def test_s14_helmet_cards(board_s, house):
    eng = board_s()
    helmets = sorted(c.name for c in eng.pack.cards.values() if c.get("helmet"))
    sections = sorted(c.name for c in eng.pack.cards.values() if c.get("category") == "section")
    assert helmets == sorted(sections + ["Cry Havoc", "Leaders"])
    eng = board_s([house("replace define ccm.detach-with-helmet may_detach := false\n")])
    expect(eng, "Order Two Units Left", upto(["a1", "a2", "a6"], 2))
    expect(eng, "Leaders", product([(), ("a1",)], [(), ("lb",)]))
    # a card printed without the helmet lets no leader detach
    eng = board_s([house('replace card "Order Two Units Left" {\n    copies = 3  category = section\n'
                         "    orders: up to 2 pieces where in_section(it, left)\n}\n")])
    expect(eng, "Order Two Units Left", upto(["a1", "a2", "a6"], 2))


@sentence("A player’s command is equal to the maximum number of Command cards that player is allowed to hold as noted in the war council section of the scenario being played.")
def test_s16_command_is_hand_size(board_s, house):
    light = ["a2", "a5"]  # red's light units
    expect(board_s(red_command=3), "Order Light Troops", upto(light, 3))
    expect(board_s(red_command=1), "Order Light Troops", upto(light, 1))
    eng = board_s([house("replace define ccm.command command := 1\n")], red_command=3)
    expect(eng, "Order Light Troops", upto(light, 1))


@sentence("Order “Units Equal to Command”, “Left”, “Center”, “Right”, Command cards allow a player to order a number of units equal to your side’s command.")
def test_s17_units_equal_to_command(board_s, house):
    expect(board_s(red_command=3), "Order Units Equal to Command Left", upto(S_LEFT, 3))
    expect(board_s(red_command=4), "Order Units Equal to Command Left", upto(S_LEFT, 4))
    expect(board_s(red_command=3), "Order Units Equal to Command Center", upto(S_CENTER, 3))
    expect(board_s(red_command=3), "Order Units Equal to Command Right", upto(S_RIGHT, 3))
    eng = board_s([house("replace define ccm.units-equal-to-command units_equal_to_command := 2\n")], red_command=3)
    expect(eng, "Order Units Equal to Command Left", upto(S_LEFT, 2))


@sentence("Troop cards allow a player to order a specific unit type of troops (Light, Medium, Heavy) to move and/or battle equal to your side’s command.")
def test_s18_troop_cards_equal_to_command(board_s, house):
    medium = ["a3", "a6"]  # medium infantry, warrior
    expect(board_s(red_command=3), "Order Medium Troops", upto(medium, 3))
    expect(board_s(red_command=1), "Order Medium Troops", upto(medium, 1))
    eng = board_s([house("replace define ccm.troop-orders troop_orders := 1\n")], red_command=3)
    expect(eng, "Order Medium Troops", upto(medium, 1))


@sentence("The “Cry Havoc” and “Rally” Command cards allow a player to roll dice equal to his side’s command.")
def test_s19_dice_equal_to_command(board_s, house):
    eng = board_s(red_command=3)
    for card in ("Cry Havoc", "Rally"):
        assert eng.dice_count(eng.pack.card(card)) == 3
    eng.ground("Cry Havoc", roll="light,light,light")
    assert board_s(red_command=5).dice_count(eng.pack.card("Cry Havoc")) == 5
    eng = board_s([house("replace define ccm.dice-equal-to-command havoc_dice := 1\n")], red_command=3)
    for card in ("Cry Havoc", "Rally"):
        assert eng.dice_count(eng.pack.card(card)) == 1
    with pytest.raises(WarcouncilError, match="rolls 1"):
        eng.ground("Cry Havoc", roll="light,light,light")


def test_every_seed_001_sentence_has_a_test():
    """Every sentence lint's coverage finds in seed 001 is cited by the ccm
    pack, and a test above is registered for it (a fragment split off at a
    closing quote counts as its whole sentence)."""
    _, problems = lint([CCM_PACK])
    assert problems == []
    pack = load_pack(CCM_PACK)
    found = [s for s in coverage(pack) if s.document == SEED001]
    assert found and all(s.cited_by for s in found)
    norm = lambda t: " ".join(t.replace("’", "'").replace("“", '"').replace("”", '"').split())  # noqa: E731
    registered = [norm(t) for t in SENTENCE_TESTS]
    for s in found:
        assert any(norm(s.text) in t for t in registered), s.text
    seed = norm((SOURCES_DIR / SEED001).read_text("utf-8"))
    for t in SENTENCE_TESTS:
        assert norm(t) in seed, t


# =========================================================================== 2. cards on hand-built boards

# Board T (troop cards). Red, command 2:
#   l1 light_bow_infantry [2,9] left (leader lA attached)
#   l2 light_cavalry      [10,9] right
#   l3 auxilia            [6,9] center
#   m1 medium_infantry    [7,9] center
#   m2 medium_cavalry     [1,7] left
#   h1 heavy_cavalry      [5,9] center
#   h2 super_heavy_cavalry[9,9] right
#   lB lone leader        [8,10] center + right (dotted)
T_UNITS = [
    ("l1", "red", "light_bow_infantry", [2, 9]),
    ("l2", "red", "light_cavalry", [10, 9]),
    ("l3", "red", "auxilia", [6, 9]),
    ("m1", "red", "medium_infantry", [7, 9]),
    ("m2", "red", "medium_cavalry", [1, 7]),
    ("h1", "red", "heavy_cavalry", [5, 9]),
    ("h2", "red", "super_heavy_cavalry", [9, 9]),
    ("e1", "blue", "light_bow_infantry", [6, 1]),
]
T_LEADERS = [("lA", "red", [2, 9]), ("lB", "red", [8, 10])]


def test_troop_cards_order_their_class_anywhere(ccm):
    eng = ccm(T_UNITS, T_LEADERS, red_command=2)
    # up to command (2) units of the class, in any section, no leaders
    expect(eng, "Order Light Troops", upto(["l1", "l2", "l3"], 2))
    expect(eng, "Order Medium Troops", upto(["m1", "m2"], 2))
    expect(eng, "Order Heavy Troops", upto(["h1", "h2"], 2))
    eng = ccm(T_UNITS, T_LEADERS, red_command=3)
    expect(eng, "Order Light Troops", upto(["l1", "l2", "l3"], 3))


def test_troop_cards_no_detaching_no_lone_leaders(ccm):
    eng = ccm(T_UNITS, T_LEADERS, red_command=2)
    g = eng.ground("Order Light Troops")
    v = eng.check_orders(g, ["lA"])  # lA is attached to l1: no helmet on troop cards
    assert not v.legal and violations(v) == [("ccm.detach-only-with-helmet", ["lA"])]
    v = eng.check_orders(g, ["lB"])  # a lone leader is no light unit
    assert not v.legal and violations(v) == [("ccm.order-eligible", ["lB"])]
    v = eng.check_orders(g, ["l1", "l2", "l3"])  # three orders from a card giving two
    assert not v.legal and [r for r, _ in violations(v)] == ["ccm.card-capacity", "ccm.section-orders-lost"]


def test_troop_card_with_a_helmet_detaches(ccm, house):
    # ccm.md leaves it open whether troop cards carry the helmet: printed with
    # one (a house rule), lA may detach from his light unit; lB stays out.
    rule = house('replace card "Order Light Troops" {\n    copies = 2  category = troop  helmet = true\n'
                 "    orders: up to troop_orders pieces where it.class == light or troop_leader(it, light)\n}\n")
    eng = ccm(T_UNITS, T_LEADERS, red_command=2, rules=[rule])
    expect(eng, "Order Light Troops", upto(["l1", "l2", "l3", "lA"], 2))
    eng = ccm(T_UNITS, T_LEADERS, red_command=2,
              rules=[rule, house("replace define ccm.default.troop-detach troop_detach := false\n")])
    expect(eng, "Order Light Troops", upto(["l1", "l2", "l3"], 2))


def test_troop_card_fallback_only_with_none_of_the_class(ccm):
    # No medium unit: Order Medium Troops orders 1 unit of your choice (not a leader).
    units = [u for u in T_UNITS if u[0] not in ("m1", "m2")]
    eng = ccm(units, T_LEADERS, red_command=2)
    expect(eng, "Order Medium Troops", upto(["h1", "h2", "l1", "l2", "l3"], 1))
    # One medium unit left: the card orders it, the fallback is gone.
    units = [u for u in T_UNITS if u[0] != "m2"]
    eng = ccm(units, T_LEADERS, red_command=2)
    expect(eng, "Order Medium Troops", upto(["m1"], 2))
    # No light unit at all: Order Light Troops falls back too.
    units = [u for u in T_UNITS if u[0] not in ("l1", "l2", "l3")]
    eng = ccm(units, [("lB", "red", [8, 10])], red_command=2)
    expect(eng, "Order Light Troops", upto(["h1", "h2", "m1", "m2"], 1))


# Board D (detaching). Red, all in the left (West):
#   d1 heavy_infantry [2,9] with leader ld attached
#   d2 warrior        [3,9]  (next to [2,9])
#   lf lone leader    [0,8]  (even row col 0, West)
D_UNITS = [("d1", "red", "heavy_infantry", [2, 9]), ("d2", "red", "warrior", [3, 9]),
           ("e1", "blue", "medium_cavalry", [6, 1])]
D_LEADERS = [("ld", "red", [2, 9]), ("lf", "red", [0, 8])]


def test_section_card_detaches(ccm):
    eng = ccm(D_UNITS, D_LEADERS)
    # Order Two Units Left: two orders among d1, d2, ld (detaching), lf.
    expect(eng, "Order Two Units Left", [
        (),
        ("d1",), ("d2",), ("ld",), ("lf",),
        ("d1", "d2"), ("d1", "ld"), ("d1", "lf"), ("d2", "ld"), ("d2", "lf"), ("ld", "lf"),
    ])
    # d1 and its leader ld detaching cost two orders: d1, d2, ld is three.
    v = eng.check_orders(eng.ground("Order Two Units Left"), ["d1", "d2", "ld"])
    assert not v.legal and [r for r, _ in violations(v)] == ["ccm.card-capacity", "ccm.section-orders-lost"]
    # Nothing of red's is in the right: nothing to order.
    expect(eng, "Order Two Units Right", [()])


def test_leaders_card(ccm):
    eng = ccm(D_UNITS, D_LEADERS)
    # any leaders (ld detaching, lf), and d1 while ld stays with it; never d2.
    expect(eng, "Leaders", [
        (), ("d1",), ("ld",), ("lf",), ("d1", "lf"), ("ld", "lf"),
    ])
    g = eng.ground("Leaders")
    v = eng.check_orders(g, ["d1", "ld"])
    assert not v.legal and violations(v) == [("ccm.leaders-card-units", ["ld"])]
    v = eng.check_orders(g, ["d2"])
    assert not v.legal and violations(v) == [("ccm.order-eligible", ["d2"])]


def test_cry_havoc_with_a_roll(ccm):
    # Red, command 3: k1 light [2,9]; k2 medium [6,9] with leader lk; k3 heavy
    # [10,9]; lone leader lm [8,10].
    units = [("k1", "red", "light_bow_infantry", [2, 9]), ("k2", "red", "medium_infantry", [6, 9]),
             ("k3", "red", "heavy_infantry", [10, 9]), ("e1", "blue", "warrior", [6, 1])]
    leaders = [("lk", "red", [6, 9]), ("lm", "red", [8, 10])]
    eng = ccm(units, leaders, red_command=3)
    # light + helmet + flag: one order for the light unit, one for any unit
    # or leader (lk may detach): a pair must hold k1.
    expect(eng, "Cry Havoc", [
        (), ("k1",), ("k2",), ("k3",), ("lk",), ("lm",),
        ("k1", "k2"), ("k1", "k3"), ("k1", "lk"), ("k1", "lm"),
    ], roll="light,helmet,flag")
    # helmet + helmet + medium: k2 by the medium symbol (or a helmet), two
    # helmets for any of k1, k3, lk, lm.
    expect(eng, "Cry Havoc", product([(), ("k2",)], upto(["k1", "k3", "lk", "lm"], 2)),
           roll="helmet,helmet,medium")
    # nothing but flags and swords: nothing ordered
    expect(eng, "Cry Havoc", [()], roll="flag,swords,swords")
    # the roll must have command dice
    with pytest.raises(WarcouncilError):
        eng.ground("Cry Havoc", roll="light,helmet")


def test_no_detaching_on_leadership_cards(ccm):
    # Red: n1 [2,9] with leader ln (left); n2 [3,9] next to it; lone leader
    # lo [4,9] next to n2 (odd row col 4: center), not next to [2,9].
    units = [("n1", "red", "heavy_infantry", [2, 9]), ("n2", "red", "medium_infantry", [3, 9]),
             ("e1", "blue", "heavy_cavalry", [6, 1])]
    leaders = [("ln", "red", [2, 9]), ("lo", "red", [4, 9])]
    eng = ccm(units, leaders)
    # Inspired Left Leadership: ln commands (chain from his hex: n1, n2, lo
    # as a link) -- ln himself never takes an order; or one unit.
    expect(eng, "Inspired Left Leadership", [
        (), ("n1",), ("n2",), ("n1", "n2"), ("n1", "n2", "lo"),
    ])
    v = eng.check_orders(eng.ground("Inspired Left Leadership"), ["n1", "ln"])
    assert not v.legal
    assert ("ccm.no-detach-on-leadership", ["ln"]) in violations(v)
    # Leadership Any Section: ln or lo commands (lo is in his own hex).
    expect(eng, "Leadership Any Section", [
        (), ("n1",), ("n2",), ("lo",), ("n1", "n2"), ("n2", "lo"), ("n1", "n2", "lo"),
    ])
    # Inspired Center Leadership: lo commands; the chain lo, n2, n1.
    expect(eng, "Inspired Center Leadership", [
        (), ("n1",), ("n2",), ("lo",), ("n2", "lo"), ("n1", "n2", "lo"),
    ])


# --------------------------------------------------------------------------- issue 26: the mutants that survived
# (each test fails with its define so mutated: stated in the report)


def ccm_disc(centre, n) -> set:
    """Every hex of the ccm board (rows 0-10; 13 hexes on even rows, 12 on odd) at distance 1..n."""
    from conftest import dist

    return {(c, r) for r in range(11) for c in range(13 if r % 2 == 0 else 12) if 1 <= dist(centre, (c, r)) <= n}


def test_mounted_charge_heavy_and_super_heavy_cavalry_move_three(ccm, files):
    # ccm.md, Inspired Mounted Charge: "Heavy and Super Heavy cavalry may move
    # **3** hexes" (ccm.default.mounted-charge-heavy-cavalry); their move is 2
    # otherwise. h1 heavy [3,5] and h2 super heavy [8,5], open board, the
    # foe far north: on Mounted Charge each reaches every hex within 3 (and
    # may battle from each: battle_limit is the charge's 3); on a section card
    # within 2. [8,2] is three from h2 ([8,5]: q 6; [8,2]: q 7; dq 1, dr -3).
    units = [("h1", "red", "heavy_cavalry", [3, 5]), ("h2", "red", "super_heavy_cavalry", [8, 5]),
             ("e1", "blue", "light_bow_infantry", [0, 0])]
    eng = ccm(units, red_command=3)
    g = eng.ground("Mounted Charge")
    legal, d = eng.destinations(g, ["h1", "h2"])
    assert legal
    assert d["h1"] == dict.fromkeys(sorted(ccm_disc((3, 5), 3), key=lambda c: (c[1], c[0])), True)
    assert d["h2"] == dict.fromkeys(sorted(ccm_disc((8, 5), 3), key=lambda c: (c[1], c[0])), True)
    assert len(d["h2"]) == 36  # 3 * 3 * 4 hexes within 3 of a hex away from the edges
    legal, d = eng.destinations(eng.ground("Order Heavy Troops"), ["h1", "h2"])
    assert set(d["h1"]) == ccm_disc((3, 5), 2) and set(d["h2"]) == ccm_disc((8, 5), 2)
    turn = {"card": "Mounted Charge", "orders": ["h2"], "moves": [{"piece": "h2", "to": [8, 2]}]}
    assert violations(check_turn(files, eng, turn)) == []
    turn["card"] = "Order Heavy Troops"
    assert violations(check_turn(files, eng, turn)) == [("ccm.move.unit-allowance", ["h2"])]


def test_rally_only_units_below_strength(ccm):
    # ccm.rallyable: "restore one block to a damaged unit of that class in or
    # next to a friendly Leader's hex": blocks < full strength. Lone leader L
    # at [5,9]; its neighbours [4,9] [6,9] [5,8] [6,8] [5,10] [6,10].
    #   r1 light bow [4,9], 2 of 4 blocks, next to L   -> rallyable
    #   r2 light bow [6,9], 4 of 4 (full), next to L   -> not (nothing to regain)
    #   r3 auxilia   [1,9], 3 of 4, four hexes from L  -> not
    #   r4 medium    [5,8], 3 of 4, next to L          -> rallyable
    units = [("r1", "red", "light_bow_infantry", [4, 9], 2), ("r2", "red", "light_bow_infantry", [6, 9], 4),
             ("r3", "red", "auxilia", [1, 9], 3), ("r4", "red", "medium_infantry", [5, 8], 3),
             ("e1", "blue", "heavy_infantry", [6, 1])]
    eng = ccm(units, [("L", "red", [5, 9])], red_command=3)
    # two light symbols: r1 (the only rallyable light unit); one medium: r4
    expect(eng, "Rally", product([(), ("r1",)], [(), ("r4",)]), roll="light,light,medium")
    # three helmets: any rallyable unit, up to three
    expect(eng, "Rally", upto(["r1", "r4"], 3), roll="helmet,helmet,helmet")
    # a unit at full strength next to a leader is not ordered, by any symbol
    v = eng.check_orders(eng.ground("Rally", roll="light,light,helmet"), ["r2"])
    assert not v.legal and violations(v) == [("ccm.order-eligible", ["r2"])]


def test_leaders_block_line_of_sight(ccm, files):
    # ccm.blocks-sight: "blocked by any unit or leader ... in an intermediate
    # hex". s light bow infantry (range 3) at [3,8] fires at t [6,8], three
    # hexes along row 8: the hexes between are [4,8] and [5,8].
    units = [("s", "red", "light_bow_infantry", [3, 8]), ("t", "blue", "heavy_infantry", [6, 8])]
    fire = {"card": "Order Light Troops", "orders": ["s"], "battles": [{"piece": "s", "target": "t"}]}
    # nothing between: in range and sight
    assert violations(check_turn(files, ccm(units), fire)) == []
    # a lone leader between, friendly or enemy: blocked
    for side in ("red", "blue"):
        eng = ccm(units, [("L", side, [5, 8])])
        assert violations(check_turn(files, eng, fire)) == [("ccm.battle.in-reach", ["s"])], side
    # and a unit between (the rule's other half): blocked
    eng = ccm(units + [("u", "red", "medium_infantry", [4, 8])])
    assert violations(check_turn(files, eng, fire)) == [("ccm.battle.in-reach", ["s"])]


def test_troop_leader_only_with_a_unit_of_the_class(ccm, house):
    # ccm.troop-leader: a troop card may order a leader (with a helmet: his
    # own order, detaching) only when his unit is of the card's class. On
    # board T lA is attached to l1, a light unit: printed with a helmet, Order
    # Medium Troops orders m1, m2 (command 2) and never lA; Order Light
    # Troops may order lA.
    rule = house('replace card "Order Medium Troops" {\n    copies = 3  category = troop  helmet = true\n'
                 "    orders: up to troop_orders pieces where it.class == medium or troop_leader(it, medium)\n}\n")
    eng = ccm(T_UNITS, T_LEADERS, red_command=2, rules=[rule])
    expect(eng, "Order Medium Troops", upto(["m1", "m2"], 2))
    v = eng.check_orders(eng.ground("Order Medium Troops"), ["lA"])
    assert not v.legal and violations(v) == [("ccm.order-eligible", ["lA"])]
    # lA on l1's light card, with the same helmet: he may be ordered
    rule = house('replace card "Order Light Troops" {\n    copies = 2  category = troop  helmet = true\n'
                 "    orders: up to troop_orders pieces where it.class == light or troop_leader(it, light)\n}\n")
    eng = ccm(T_UNITS, T_LEADERS, red_command=2, rules=[rule])
    assert eng.check_orders(eng.ground("Order Light Troops"), ["lA"]).legal


def test_reaction_cards_order_nothing(board_s):
    eng = board_s()
    for card in ("First Strike", "Ambush"):
        expect(eng, card, [()])
    with pytest.raises(WarcouncilError):
        eng.ground("Counter Attack", copies="Ambush")


def test_counter_attack_mirrors(board_s):
    eng = board_s()
    # red counter-attacks an Order Two Units Left: red's own right.
    expect(eng, "Counter Attack", upto(S_RIGHT, 2), copies="Order Two Units Left")


def test_csp_agrees_on_every_card(board_s, ccm):
    """The structural enumerator and the python-constraint reference give
    the same sets for every card of the deck (orders() compares them)."""
    engines = [board_s(), ccm(T_UNITS, T_LEADERS), ccm(D_UNITS, D_LEADERS)]
    for eng in engines:
        for name, card in eng.pack.cards.items():
            kw = {}
            if card.get("roll") is not None:
                kw["roll"] = "light,medium,helmet"
            if card.get("copy") is not None:
                kw["copies"] = "Out Flanked"
            orders(eng, name, **kw)


UNIT_TYPES = ["light_bow_infantry", "auxilia", "medium_infantry", "warrior", "heavy_infantry", "light_cavalry",
              "light_bow_cavalry", "medium_cavalry", "heavy_cavalry", "super_heavy_cavalry"]


@pytest.mark.parametrize("seed", range(6))
def test_csp_agrees_on_random_boards(ccm, seed):
    """Random small set-ups in the south half of the ccm board: the
    enumerator and the reference solver agree card by card."""
    import random

    rnd = random.Random(seed)
    cells = [(c, r) for r in range(6, 11) for c in range(13 if r % 2 == 0 else 12)]
    spots = rnd.sample(cells, 8)
    units = [(f"u{i}", "red", rnd.choice(UNIT_TYPES), list(spots[i])) for i in range(6)]
    units += [("x1", "blue", rnd.choice(UNIT_TYPES), list(spots[6])), ("x2", "blue", "warrior", [6, 1])]
    leaders = [("g1", "red", list(spots[0])), ("g2", "red", list(spots[7]))]
    eng = ccm(units, leaders, red_command=rnd.choice([2, 3, 4]))
    n = eng.scenario.sides["red"].command
    faces = ["light", "medium", "heavy", "helmet", "flag", "swords"]
    for name in ("Order Three Units Center", "Out Flanked", "Coordinated Attack", "Order Light Troops",
                 "Order Heavy Troops", "Leadership Any Section", "Inspired Left Leadership", "Leaders",
                 "Line Command", "Double Time", "Mounted Charge", "Clash of Shields", "Cry Havoc"):
        kw = {"roll": ",".join(rnd.choice(faces) for _ in range(n))} if name == "Cry Havoc" else {}
        orders(eng, name, **kw)


# A premise the grounded card decides is folded (issue 26): the Leaders
# card's rule ccm.leaders-card-units reads `leaders_with_units in
# card.effects`, false for every other card, so on "Order Units Equal to
# Command Center" it holds whatever is ordered and the count is the closed
# form (a sum of binomials), not an enumeration of every set.
E_UNITS = [("u1", "red", "heavy_infantry", [4, 9]), ("u2", "red", "warrior", [5, 9]),
           ("u3", "red", "medium_infantry", [6, 9]), ("u4", "red", "auxilia", [7, 9]),
           ("u5", "red", "medium_cavalry", [5, 10]), ("u6", "red", "heavy_cavalry", [6, 10]),
           ("w1", "red", "light_cavalry", [1, 9]), ("x1", "blue", "warrior", [6, 1])]
E_LEADERS = [("g1", "red", [5, 9]), ("g2", "red", [6, 8])]  # g1 attached to u2; g2 alone
E_CENTER = ["u1", "u2", "u3", "u4", "u5", "u6", "g1", "g2"]


@pytest.mark.parametrize("command", [1, 2, 3, 5, 8])
def test_equal_to_command_count_is_closed_form(ccm, command):
    from math import comb

    eng = ccm(E_UNITS, E_LEADERS, red_command=command)
    card = "Order Units Equal to Command Center"
    g = eng.ground(card)
    closed = eng.count_cheap(g)  # None when the count needs an enumeration
    assert closed == sum(comb(8, k) for k in range(command + 1))
    # brute force: the hand-made list, the enumerator and the reference
    # solver (every rule evaluated whole) give the same sets
    expect(eng, card, upto(E_CENTER, command))


def test_leaders_card_premise_still_holds(ccm):
    """On the Leaders card itself the premise is true: g1 detaching from
    u2 leaves u2 unordered (the rule is kept, not folded away)."""
    eng = ccm(E_UNITS, E_LEADERS, red_command=3)
    g = eng.ground("Leaders")
    sets = [tuple(sorted(p.id for p in s)) for s in eng.order_sets(g)]
    assert ("g1", "u2") not in sets and ("g1",) in sets and ("u2",) in sets


# =========================================================================== 3. the example scenario


def test_example_loads_and_answers():
    eng = Engine.load(EXAMPLE)
    assert eng.scenario.board.name == "ccm" and eng.pack.name == "ccm"
    # crown's light units: c1, c2, c6, c9; command 5 orders them all.
    expect(eng, "Order Light Troops", upto(["c1", "c2", "c6", "c9"], 5))
    # crown's center: c3, c4 (king attached, may detach), c5, c6 and c10 on
    # the dotted lines, the lone constable: 7 pieces, up to 3.
    g = eng.ground("Order Three Units Center")
    assert eng.count(g) == len(upto(["c3", "c4", "c5", "c6", "c10", "king", "constable"], 3))
    # the same file by its shipped name
    assert Engine.load("practice_field").count(Engine.load("practice_field").ground("Order Light Troops")) == 16


def test_example_cli():
    r = subprocess.run([sys.executable, "-m", "warcouncil.cli", "orders", str(EXAMPLE),
                        "--card", "Order Light Troops", "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["card"] == "Order Light Troops" and out["side"] == "crown" and out["count"] == 16


def test_ccm_board():
    b = named_board("ccm")
    assert (b.width, b.depth, len(b.cells)) == (13, 11, 6 * 13 + 5 * 12)
    dotted = sorted(c for c in b.cells if b.dotted(c))
    assert dotted == sorted((c, r) for r in range(0, 11, 2) for c in (4, 8))
    assert b.sections_of((3, 10)) == {"left"} and b.sections_of((4, 10)) == {"left", "center"}
    assert b.sections_of((3, 9), "north") == {"right"} and b.sections_of((8, 9), "north") == {"left"}
    assert [len(b.section_cells(s)) for s in ("left", "center", "right")] == [6 * 5 + 5 * 4] * 3


# =========================================================================== 4. CCA unchanged


def test_cca_pack_unchanged(akragas):
    pack = akragas.pack
    assert "cca.surplus-orders-lost" in pack.rules
    assert not {"cca.section-orders-lost", "cca.tactic-orders-lost"} & set(pack.rules)
    # the core's new seed 001 citations do not change CCA's sources
    g = akragas.ground("Order Three Units Center")
    v = akragas.check_orders(g, ["s4", "s4"])
    assert [(x.rule, x.source) for x in v.violations] == [("cca.one-order-per-piece", "000_21ed775e0976da39.txt")]
    # Syracusan center: s4, s5 (daphnaeus attached), s6, s11, daphnaeus: up to 3
    assert akragas.count(g) == len(upto(["s4", "s5", "s6", "s11", "daphnaeus"], 3))
    assert named_board("cca").depth == 9 and len(named_board("cca").cells) == 113
