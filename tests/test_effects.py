"""Card effects are not a stub: every effect the C&C packs declare is read by
a rule, and a house rule that takes the effect off its card (`replace card`
with the same card text minus that one effect) changes that rule's answer.

Each test states the answer with the shipped card and the answer without the
effect, both worked out by hand from the rule that reads the effect (odd-r
hex geometry as in test_movement.py: red plays from the south edge). The
replacement card is the shipped declaration written back as text
(`unparse`), so nothing else about the card changes.
"""

from __future__ import annotations

from itertools import product

import pytest

from warcouncil.dsl import unparse
from warcouncil.dsl.pack import load_pack
from conftest import dist, on_board


def disc(centre, n) -> set:
    return {(c, r) for r in range(9) for c in range(13) if on_board((c, r)) and 1 <= dist(centre, (c, r)) <= n}


def card_text(pack: str, name: str, without: str) -> str:
    """``replace card NAME { … }``: the shipped card without one effect."""
    card = load_pack(pack).cards[name]
    assert without in card.effects, (name, card.effects)
    def shown(v):  # a field's value as a card writes it
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, tuple):
            return ", ".join(f'"{x}"' for x in v)
        return str(v) if not hasattr(v, "loc") else unparse.expr(v)

    lines = ["  ".join(f"{f.name} = {shown(f.value)}" for f in card.fields if f.value not in (None, ()))]
    rest = [e for e in card.effects if e != without]
    if rest:
        lines.append("effect " + ", ".join(rest))
    lines += [unparse.alternative(a) for a in card.alternatives]
    body = "\n".join("    " + x for x in lines)
    return f'replace card "{name}" {{\n{body}\n}}\n'


@pytest.fixture
def without(house):
    """``without(card, effect, pack="cca")``: a house-rule file taking the effect off the card."""
    return lambda card, effect, pack="cca": house(card_text(pack, card, effect))


def only(eng, card, pid, **kw) -> dict:
    legal, res = eng.destinations(eng.ground(card, **kw), [pid])
    assert legal and set(res) == {pid}
    return res[pid]


def check(eng, turn, data):
    return sorted((v.rule, v.pieces) for v in eng.check_turn(turn(data, eng)).violations)


def order_sets(eng, card, **kw) -> set:
    g = eng.ground(card, **kw)
    return {tuple(sorted(p.id for p in s)) for s in eng.order_sets(g)}


C = (6, 6)  # an open Center hex


def test_every_declared_effect_is_carried_and_tested_here():
    tested = {"double_time", "mounted_charge", "one_hex_move", "close_in_place", "fire_in_place", "fire_twice",
              "no_ranged_fire", "light_foot_through", "move_after_fire", "ranged_only",
              "leaders_detach", "havoc_detach", "leaders_with_units"}
    cca, ccm = load_pack("cca"), load_pack("ccm")
    assert set(cca.effects) | set(ccm.effects) == tested
    for pack in (cca, ccm):
        carried = {e for c in pack.cards.values() for e in c.effects}
        assert carried == set(pack.effects)  # every declared effect is on some card


# ------------------------------------------------------------------ movement


def test_double_time(build, without):
    # Double Time: foot move 2 hexes and still battle; without it, heavy infantry moves 1
    units = [("s", "red", "heavy_infantry", list(C))]
    assert only(build(units), "Double Time", "s") == {h: True for h in disc(C, 2)}
    eng = build(units, rules=[without("Double Time", "double_time")])
    assert only(eng, "Double Time", "s") == {h: True for h in disc(C, 1)}


def test_double_time_under_counter_attack(build):
    # Counter Attack has the effects of the card it copies
    eng = build([("s", "red", "heavy_infantry", list(C))])
    assert only(eng, "Counter Attack", "s", copies="Double Time") == {h: True for h in disc(C, 2)}
    assert only(eng, "Counter Attack", "s", copies="Line Command") == {h: True for h in disc(C, 1)}


def test_mounted_charge(build, without):
    # heavy cavalry: 3 hexes on Mounted Charge, else its 2
    units = [("s", "red", "heavy_cavalry", list(C))]
    assert only(build(units), "Mounted Charge", "s") == {h: True for h in disc(C, 3)}
    eng = build(units, rules=[without("Mounted Charge", "mounted_charge")])
    assert only(eng, "Mounted Charge", "s") == {h: True for h in disc(C, 2)}


def test_one_hex_move(build, without):
    # Line Command: at most one hex; light infantry otherwise moves two and battles
    units = [("s", "red", "light_infantry", list(C))]
    assert only(build(units), "Line Command", "s") == {h: True for h in disc(C, 1)}
    eng = build(units, rules=[without("Line Command", "one_hex_move")])
    assert only(eng, "Line Command", "s") == {h: True for h in disc(C, 2)}


def test_close_in_place(build, turn, without):
    # Clash of Shields: no move before the close combat
    units = [("h", "red", "heavy_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5])]
    data = {"card": "Clash of Shields", "orders": ["h"], "moves": [{"piece": "h", "to": [7, 6]}]}
    assert check(build(units), turn, data) == [("cca.card.clash-no-move", ["h"])]
    assert check(build(units, rules=[without("Clash of Shields", "close_in_place")]), turn, data) == []


def test_fire_in_place(build, turn, without):
    # Darken the Sky: no movement (cca.card.darken-no-move), fire only (cca.battle.darken-fire-only)
    off = without("Darken the Sky", "fire_in_place")
    units = [("h", "red", "heavy_infantry", [6, 6]), ("l", "red", "light_infantry", [2, 6])]
    data = {"card": "Darken the Sky", "orders": ["l"], "moves": [{"piece": "l", "to": [2, 5]}]}
    assert check(build(units), turn, data) == [("cca.card.darken-no-move", ["l"])]
    assert check(build(units, rules=[off]), turn, data) == []
    units = [("b", "red", "light_bow_infantry", [6, 6]), ("x", "blue", "heavy_infantry", [6, 5])]
    data = {"card": "Darken the Sky", "orders": ["b"], "battles": [{"piece": "b", "target": "x"}]}
    assert check(build(units), turn, data) == [("cca.battle.darken-fire-only", ["b"])]
    assert check(build(units, rules=[off]), turn, data) == []


def test_light_foot_through(build, without):
    # Order Light Troops: light foot pass a friendly unit; [7,4] is reached only through [6,5]
    units = [("s", "red", "light_infantry", list(C)), ("f", "red", "heavy_infantry", [6, 5])]
    assert set(only(build(units), "Order Light Troops", "s")) == disc(C, 2) - {(6, 5)}
    eng = build(units, rules=[without("Order Light Troops", "light_foot_through")])
    assert set(only(eng, "Order Light Troops", "s")) == disc(C, 2) - {(6, 5), (7, 4)}


def test_move_after_fire(build, turn, without):
    # Move-Fire-Move: a second move after the fire; without it, a second move is a unit's second move
    units = [("li", "red", "light_infantry", [6, 6]), ("t", "blue", "heavy_infantry", [6, 3])]
    data = {"card": "Move-Fire-Move", "orders": ["li"], "moves": [{"piece": "li", "to": [6, 5]}],
            "battles": [{"piece": "li", "target": "t"}], "second_moves": [{"piece": "li", "to": [6, 6]}]}
    assert check(build(units), turn, data) == []
    eng = build(units, rules=[without("Move-Fire-Move", "move_after_fire")])
    assert check(eng, turn, data) == [("cca.move.once", ["li"])]


def test_ranged_only(build, turn, without):
    # Move-Fire-Move: no close combat; [6,4] touches t
    units = [("li", "red", "light_infantry", [6, 6]), ("t", "blue", "heavy_infantry", [6, 3])]
    data = {"card": "Move-Fire-Move", "orders": ["li"], "moves": [{"piece": "li", "path": [[6, 5], [6, 4]]}],
            "battles": [{"piece": "li", "target": "t"}]}
    assert check(build(units), turn, data) == [("cca.battle.mfm-no-close-combat", ["li"])]
    assert check(build(units, rules=[without("Move-Fire-Move", "ranged_only")]), turn, data) == []


# -------------------------------------------------------------------- battle


def test_fire_twice(build, turn, without):
    # Darken the Sky: each unit may fire twice (cca.battle.once allows 2)
    units = [("b", "red", "light_bow_infantry", [6, 6]), ("t2", "blue", "heavy_infantry", [4, 6]),
             ("t3", "blue", "heavy_infantry", [9, 6])]
    data = {"card": "Darken the Sky", "orders": ["b"],
            "battles": [{"piece": "b", "target": "t2"}, {"piece": "b", "target": "t3"}]}
    assert check(build(units), turn, data) == []
    eng = build(units, rules=[without("Darken the Sky", "fire_twice")])
    assert check(eng, turn, data) == [("cca.battle.once", ["b"])]


def test_no_ranged_fire(build, turn, without):
    # Double Time: no ranged combat; light infantry fires 2 hexes on another card
    units = [("s", "red", "light_infantry", [6, 6]), ("t2", "blue", "heavy_infantry", [4, 6])]
    data = {"card": "Double Time", "orders": ["s"], "battles": [{"piece": "s", "target": "t2"}]}
    assert check(build(units), turn, data) == [("cca.battle.in-reach", ["s"])]
    assert check(build(units, rules=[without("Double Time", "no_ranged_fire")]), turn, data) == []


# ----------------------------------------------------------------------- CCM
# Board: red's a1 (heavy infantry) at [2,8] with leader la attached, lb alone
# at [10,8]; blue e1 far north. The Leaders card orders any leaders and the
# units a leader stays with.

CCM_UNITS = [("a1", "red", "heavy_infantry", [2, 8]), ("a2", "red", "light_bow_infantry", [6, 8]),
             ("e1", "blue", "heavy_infantry", [6, 1])]
CCM_LEADERS = [("la", "red", [2, 8]), ("lb", "red", [10, 8]), ("le", "blue", [6, 1])]


def ccm(build, rules=(), **kw):
    return build(CCM_UNITS, CCM_LEADERS, rules=rules, system="ccm", **kw)


def unions(*choices) -> set:
    return {tuple(sorted(sum(p, ()))) for p in product(*choices)}


def test_leaders_detach(build, without):
    # with it, la may detach (ordered without a1); without it la goes only with a1
    assert order_sets(ccm(build), "Leaders") == unions([(), ("a1",), ("la",)], [(), ("lb",)])
    eng = ccm(build, [without("Leaders", "leaders_detach", "ccm")])
    assert order_sets(eng, "Leaders") == unions([(), ("a1",)], [(), ("lb",)])


def test_leaders_with_units(build, without):
    # ccm.leaders-card-units: a1 is ordered only if la stays with it, so not both
    eng = ccm(build, [without("Leaders", "leaders_with_units", "ccm")])
    assert order_sets(eng, "Leaders") == unions([(), ("a1",), ("la",), ("a1", "la")], [(), ("lb",)])


def test_havoc_detach(build, without):
    # command 2, rolled helmet + flag: one order, any unit or leader (la detaching too)
    pieces = ["a1", "a2", "la", "lb"]
    one = {()} | {(p,) for p in pieces}
    assert order_sets(ccm(build, red_command=2), "Cry Havoc", roll="helmet,flag") == one
    eng = ccm(build, [without("Cry Havoc", "havoc_detach", "ccm")], red_command=2)
    assert order_sets(eng, "Cry Havoc", roll="helmet,flag") == one - {("la",)}
