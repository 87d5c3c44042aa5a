"""Every rule and define of the CCA pack matters: each test shows the answer
with the pack intact and with the rule removed (``remove rule ID``) or the
define neutralised (``replace define ID ...``) in a house-rule file, and
asserts both exactly. A final meta-test checks that every rule and define id
of the pack has such a test.

Expected answers are worked out by hand from the rule texts (seed 000,
reference cca.md), never copied from engine output.

Hexes used (red = south side: left = West, right = East):
  [0,7] [1,7] [2,7] [3,7]  odd row, cols 0-3: West (left)
  [5,7] [6,7]              odd row, Center
  [4,6]                    even row col 4: dotted, West + Center
  [10,7]                   East (right)
  [2,6] is adjacent to [1,7] and [2,7] but not to [3,7].
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from warcouncil.dsl.pack import SOURCES_DIR

COVERED: set[str] = set()


def covers(*ids):
    """Register the rule/define ids a test removes or neutralises."""
    COVERED.update(ids)

    def deco(fn):
        return fn

    return deco


# --------------------------------------------------------------------------- helpers


def as_json(eng, ids) -> dict:
    leaders = {ldr.id for ldr in eng.scenario.leaders}
    ids = list(ids)
    return {"units": sorted(i for i in ids if i not in leaders), "leaders": sorted(i for i in ids if i in leaders)}


def canon(eng, sets) -> list[dict]:
    out = [as_json(eng, s) for s in sets]
    return sorted(out, key=lambda s: (len(s["units"]) + len(s["leaders"]),
                                      [(0, u) for u in s["units"]] + [(1, x) for x in s["leaders"]]))


def upto(pool, k):
    return [c for n in range(min(k, len(pool)) + 1) for c in itertools.combinations(pool, n)]


def orders(eng, card, **kw) -> list[dict]:
    g = eng.ground(card, **kw)
    sets = [eng.order_set_json(g, s) for s in eng.order_sets(g)]
    assert eng.count(g) == len(sets)
    return sets


def expect(eng, card, expected, **kw) -> None:
    assert orders(eng, card, **kw) == canon(eng, expected)


def violations(verdict) -> list[tuple[str, list[str]]]:
    return sorted((v.rule, v.pieces) for v in verdict.violations)


def variants(build, house, units, leaders=(), texts=(), **kw):
    """Engines for the same board: pack intact, then one per house-rule text."""
    out = [build(units, leaders, **kw)]
    for t in texts:
        out.append(build(units, leaders, rules=[house(t)], **kw))
    return out


# --------------------------------------------------------------------------- boards

LEFT3 = [
    ("u1", "red", "heavy_infantry", [1, 7]),
    ("u2", "red", "light_infantry", [2, 7]),
    ("u3", "red", "auxilia", [3, 7]),
]
ENEMY = [("e1", "blue", "heavy_infantry", [2, 6])]  # next to u1 and u2, not u3


# --------------------------------------------------------------------------- who may be ordered


@covers("cca.order-eligible")
def test_order_eligible(build, house):
    units = LEFT3[:2] + [("u5", "red", "medium_infantry", [6, 7])]
    pack, removed = variants(build, house, units, texts=["remove rule cca.order-eligible\n"])
    # pack: only the left-section units u1, u2
    expect(pack, "Order Two Units Left", upto(["u1", "u2"], 2))
    # removed: the center unit u5 may take one of the two orders (the card's
    # capacity still limits the number: card-capacity)
    expect(removed, "Order Two Units Left", upto(["u1", "u2", "u5"], 2))


@covers("cca.dotted-line")
def test_dotted_line(build, house):
    units = [("u4", "red", "auxilia", [4, 6]), ("u5", "red", "medium_infantry", [6, 7])]
    pack, neutral = variants(build, house, units, texts=[
        "replace define cca.dotted-line in_section(p, s) := s in sections_of(p) and count(sections_of(p)) == 1\n"])
    expect(pack, "Order Two Units Center", upto(["u4", "u5"], 2))
    expect(pack, "Order Two Units Left", upto(["u4"], 2))
    # only pieces in exactly one section: u4 on the dotted line is in neither
    expect(neutral, "Order Two Units Center", [(), ("u5",)])
    expect(neutral, "Order Two Units Left", [()])


# --------------------------------------------------------------------------- how many orders


@covers("cca.one-order-per-piece")
def test_one_order_per_piece(build, house):
    pack, removed = variants(build, house, LEFT3, texts=["remove rule cca.one-order-per-piece\n"])
    g = pack.ground("Order Two Units Left")
    v = pack.check_orders(g, ["u1", "u1"])
    assert not v.legal
    assert violations(v) == [("cca.one-order-per-piece", ["u1"])]
    g = removed.ground("Order Two Units Left")
    v = removed.check_orders(g, ["u1", "u1"])
    assert v.legal and v.violations == []
    # enumerating *sets* is the same either way
    assert orders(pack, "Order Two Units Left") == orders(removed, "Order Two Units Left")


@covers("cca.card-capacity")
def test_card_capacity(build, house):
    # card-capacity is implied by surplus-orders-lost (charged pieces must be
    # assignable to the quotas) plus order-eligible: test it with
    # surplus-orders-lost removed, where it alone limits the number of orders.
    pack, ctx, both = variants(build, house, LEFT3, texts=[
        "remove rule cca.surplus-orders-lost\n",
        "remove rule cca.surplus-orders-lost\nremove rule cca.card-capacity\n",
    ])
    expect(pack, "Order Two Units Left", upto(["u1", "u2", "u3"], 2))
    expect(ctx, "Order Two Units Left", upto(["u1", "u2", "u3"], 2))
    g = ctx.ground("Order Two Units Left")
    assert violations(ctx.check_orders(g, ["u1", "u2", "u3"])) == [("cca.card-capacity", ["u1", "u2", "u3"])]
    expect(both, "Order Two Units Left", upto(["u1", "u2", "u3"], 3))


def test_card_capacity_matters_without_order_eligible(build, house):
    # the other combination: with order-eligible removed, capacity still caps
    # the out-of-section piece (surplus-orders-lost only charges admitted pieces).
    units = LEFT3[:2] + [("u5", "red", "medium_infantry", [6, 7])]
    a, b = variants(build, house, units, texts=[
        "remove rule cca.order-eligible\n",
        "remove rule cca.order-eligible\nremove rule cca.card-capacity\n",
    ])[1:]
    expect(a, "Order Two Units Left", upto(["u1", "u2", "u5"], 2))
    # u1, u2: at most 2 (their quota); u5 unlimited by anything now
    expect(b, "Order Two Units Left", upto(["u1", "u2", "u5"], 2) + [("u1", "u2", "u5")])


@covers("cca.surplus-orders-lost")
def test_surplus_orders_lost(build, house):
    # Out Flanked, three pieces in the left flank, none in the right
    pack, removed = variants(build, house, LEFT3, texts=["remove rule cca.surplus-orders-lost\n"])
    expect(pack, "Out Flanked", upto(["u1", "u2", "u3"], 2))  # the right's 2 orders are lost
    # removed: only the card's total (4) limits: all three may go
    expect(removed, "Out Flanked", upto(["u1", "u2", "u3"], 3))


@covers("cca.all-means-all")
def test_all_means_all(build, house):
    pack, removed = variants(build, house, LEFT3 + ENEMY, texts=["remove rule cca.all-means-all\n"])
    expect(pack, "Clash of Shields", [("u1", "u2")])
    expect(removed, "Clash of Shields", upto(["u1", "u2"], 2))


@covers("cca.linked-group")
def test_linked_group(build, house):
    units = [LEFT3[0], LEFT3[2]]  # u1 [1,7] and u3 [3,7]: not adjacent
    pack, removed = variants(build, house, units, texts=["remove rule cca.linked-group\n"])
    expect(pack, "Double Time", [(), ("u1",), ("u3",)])
    expect(removed, "Double Time", [(), ("u1",), ("u3",), ("u1", "u3")])
    expect(pack, "Line Command", [(), ("u1",), ("u3",)])
    expect(removed, "Line Command", [(), ("u1",), ("u3",), ("u1", "u3")])


@covers("cca.leadership-chain")
def test_leadership_chain(build, house):
    units = [("u2", "red", "light_infantry", [2, 7]), ("u9", "red", "light_cavalry", [10, 7])]
    leaders = [("ll", "red", [1, 7])]  # lone, next to u2
    pack, removed = variants(build, house, units, leaders, texts=["remove rule cca.leadership-chain\n"])
    # chains from ll's hex: {ll}, {ll, u2}; or one unit of your choice
    expect(pack, "Leadership Any Section", [(), ("u2",), ("u9",), ("ll",), ("u2", "ll")])
    # removed: any 4 (1 + 3) of the pieces, linked or not
    expect(removed, "Leadership Any Section", upto(["u2", "u9", "ll"], 4))


# --------------------------------------------------------------------------- attached leaders

ATTACHED = [("la", "red", [1, 7])]  # with u1


@covers("cca.attached")
def test_attached(build, house):
    units = LEFT3[:2]
    pack, neutral = variants(build, house, units, ATTACHED, texts=["replace define cca.attached attached(l) := false\n"])
    # la is attached to u1: he may not detach on a Leadership card
    expect(pack, "Leadership Any Section", [(), ("u1",), ("u2",), ("u1", "u2")])
    # not attached: la may be ordered, chains from [1,7] (u1 or la), size <= 4
    expect(neutral, "Leadership Any Section",
           [(), ("u1",), ("u2",), ("la",), ("u1", "u2"), ("u2", "la"), ("u1", "la"), ("u1", "u2", "la")])


@covers("cca.detach-only-with-helmet")
def test_detach_only_with_helmet(build, house):
    # The pack's only non-helmet cards that admit leaders are the Leadership
    # cards, where no-detach-on-leadership already forbids detaching. So test
    # it where it matters: with a house rule letting the fallback order a
    # leader (Order Light Troops has no helmet; there are no light units).
    units = [("u1", "red", "heavy_infantry", [1, 7])]
    leaders = ATTACHED + [("lb", "red", [9, 6])]
    fb = "replace define cca.default.fallback-unit-only fallback_piece(p) := true\n"
    pack, ctx, both = variants(build, house, units, leaders, texts=[
        fb, fb + "remove rule cca.detach-only-with-helmet\n"])
    expect(pack, "Order Light Troops", [(), ("u1",)])
    expect(ctx, "Order Light Troops", [(), ("u1",), ("lb",)])  # la may not detach
    expect(both, "Order Light Troops", [(), ("u1",), ("la",), ("lb",)])
    g = ctx.ground("Order Light Troops")
    assert violations(ctx.check_orders(g, ["la"])) == [("cca.detach-only-with-helmet", ["la"])]


@covers("cca.no-detach-on-leadership")
def test_no_detach_on_leadership(build, house):
    # Leadership cards carry no helmet, so detach-only-with-helmet also forbids
    # detaching there: remove it too to see this rule alone.
    units = LEFT3[:2]
    pack, ctx, both = variants(build, house, units, ATTACHED, texts=[
        "remove rule cca.detach-only-with-helmet\n",
        "remove rule cca.detach-only-with-helmet\nremove rule cca.no-detach-on-leadership\n",
    ])
    without_la = [(), ("u1",), ("u2",), ("u1", "u2")]
    expect(pack, "Leadership Any Section", without_la)
    expect(ctx, "Leadership Any Section", without_la)
    g = ctx.ground("Leadership Any Section")
    assert violations(ctx.check_orders(g, ["la"])) == [("cca.no-detach-on-leadership", ["la"])]
    expect(both, "Leadership Any Section",
           without_la + [("la",), ("u2", "la"), ("u1", "la"), ("u1", "u2", "la")])


@covers("cca.detach-with-helmet")
def test_detach_with_helmet(build, house):
    pack, neutral = variants(build, house, LEFT3[:1], ATTACHED,
                             texts=["replace define cca.detach-with-helmet may_detach := false\n"])
    # a section card has the helmet: la may detach (1 order), u1 ordered too
    expect(pack, "Order Two Units Left", upto(["u1", "la"], 2))
    expect(neutral, "Order Two Units Left", [(), ("u1",)])


@covers("cca.detach-costs-one-order")
def test_detach_costs_one_order(build, house):
    pack, neutral = variants(build, house, LEFT3, ATTACHED,
                             texts=["replace define cca.detach-costs-one-order charged(p) := not attached(p)\n"])
    # detaching la costs one of the two orders: 1 + 4 + 6 = 11
    expect(pack, "Order Two Units Left", upto(["u1", "u2", "u3", "la"], 2))
    # a free detach: any <= 2 of the units, with or without la: 7 * 2 = 14
    expected = [s + extra for s in upto(["u1", "u2", "u3"], 2) for extra in ((), ("la",))]
    assert len(expected) == 14
    expect(neutral, "Order Two Units Left", expected)


@covers("cca.remaining-orders", "cca.detached-unit-orderable")
def test_remaining_orders_and_detached_unit_orderable(build, house):
    # cca.remaining-orders lets the unit a leader left be ordered too; the rule
    # cca.detached-unit-orderable only bites when that define is false, so it
    # is tested in that context (its removal restores the pack's answer).
    no_left_unit = "replace define cca.remaining-orders may_order_left_unit := false\n"
    pack, neutral, both = variants(build, house, LEFT3[:1], ATTACHED, texts=[
        no_left_unit, no_left_unit + "remove rule cca.detached-unit-orderable\n"])
    expect(pack, "Order Two Units Left", [(), ("u1",), ("la",), ("u1", "la")])
    expect(neutral, "Order Two Units Left", [(), ("u1",), ("la",)])
    g = neutral.ground("Order Two Units Left")
    assert violations(neutral.check_orders(g, ["u1", "la"])) == [("cca.detached-unit-orderable", ["la"])]
    expect(both, "Order Two Units Left", [(), ("u1",), ("la",), ("u1", "la")])


# --------------------------------------------------------------------------- Command


@covers("cca.command")
def test_command(build, house):
    units = [("h1", "red", "heavy_infantry", [1, 7]), ("h2", "red", "heavy_cavalry", [5, 7]),
             ("h3", "red", "elephant", [9, 7])]
    pack, neutral = variants(build, house, units, red_command=2,
                             texts=["replace define cca.command command := 1\n"])
    expect(pack, "Order Heavy Troops", upto(["h1", "h2", "h3"], 2))  # Command = 2 cards
    expect(pack, "Order Heavy Troops", upto(["h1", "h2", "h3"], 3), command=3)  # hand size changed
    expect(neutral, "Order Heavy Troops", upto(["h1", "h2", "h3"], 1))
    expect(neutral, "Order Heavy Troops", upto(["h1", "h2", "h3"], 1), command=3)


# --------------------------------------------------------------------------- card words


@covers("cca.engaged")
def test_engaged(build, house):
    pack, neutral = variants(build, house, LEFT3 + ENEMY, texts=["replace define cca.engaged engaged(u) := true\n"])
    expect(pack, "Clash of Shields", [("u1", "u2")])
    expect(neutral, "Clash of Shields", [("u1", "u2", "u3")])


@covers("cca.fallback-only-with-none")
def test_fallback_only_with_none(build, house):
    units = [("u1", "red", "heavy_infantry", [1, 7]), ("u2", "red", "light_infantry", [2, 7])]
    pack, neutral = variants(build, house, units, red_command=2,
                             texts=["replace define cca.fallback-only-with-none may_fall_back(n) := true\n"])
    expect(pack, "Order Light Troops", [(), ("u2",)])  # one light unit: no fallback
    expect(neutral, "Order Light Troops", [(), ("u1",), ("u2",)])


@covers("cca.rallyable")
def test_rallyable(build, house):
    units = [("u1", "red", "heavy_infantry", [1, 7]),  # full strength, with la
             ("u2", "red", "light_infantry", [6, 7], 2)]  # under strength, far from any leader
    pack, neutral = variants(build, house, units, ATTACHED, red_command=2,
                             texts=["replace define cca.rallyable rallyable(u) := true\n"])
    expect(pack, "Rally", [()], roll="helmet,light")
    # light slot: u2; helmet slot: u1 or u2
    expect(neutral, "Rally", [(), ("u1",), ("u2",), ("u1", "u2")], roll="helmet,light")


@covers("cca.default.inspired-any-unit")
def test_inspired_any_unit(build, house):
    units = [("u1", "red", "heavy_infantry", [1, 7]), ("u6", "red", "light_cavalry", [10, 7])]
    pack, neutral = variants(build, house, units, texts=[
        "replace define cca.default.inspired-any-unit inspired_choice(u, s) := in_section(u, s)\n"])
    # no leaders: only the "one unit of your choice" option
    expect(pack, "Inspired Left Leadership", [(), ("u1",), ("u6",)])
    expect(neutral, "Inspired Left Leadership", [(), ("u1",)])


@covers("cca.default.lone-leaders-link")
def test_lone_leaders_link(build, house):
    # path on row 7: i1 (la attached, West) - i2 - i3 - lb (lone, [4,7] Center) - i5; i6 far
    units = [("i1", "red", "heavy_infantry", [1, 7]), ("i2", "red", "light_infantry", [2, 7]),
             ("i3", "red", "medium_infantry", [3, 7]), ("i5", "red", "auxilia", [5, 7]),
             ("i6", "red", "light_cavalry", [10, 7])]
    leaders = [("la", "red", [1, 7]), ("lb", "red", [4, 7])]
    pack, neutral = variants(build, house, units, leaders, texts=[
        "replace define cca.default.lone-leaders-link chain_link(p) := p.role == unit\n"])
    singles = [("i1",), ("i2",), ("i3",), ("i5",), ("i6",)]
    chains = [("i1", "i2"), ("i1", "i2", "i3")]
    expect(pack, "Inspired Left Leadership",
           [()] + singles + chains + [("i1", "i2", "i3", "lb"), ("i1", "i2", "i3", "lb", "i5")])
    expect(neutral, "Inspired Left Leadership", [()] + singles + chains)


@covers("cca.default.fallback-unit-only")
def test_fallback_unit_only(build, house):
    units = [("u1", "red", "heavy_infantry", [1, 7])]
    leaders = ATTACHED + [("lb", "red", [9, 6])]
    pack, neutral = variants(build, house, units, leaders, texts=[
        "replace define cca.default.fallback-unit-only fallback_piece(p) := true\n"])
    expect(pack, "Order Light Troops", [(), ("u1",)])
    expect(neutral, "Order Light Troops", [(), ("u1",), ("lb",)])  # la: attached, no helmet


# --------------------------------------------------------------------------- whole turns


def turn_board(build, house, texts=()):
    return variants(build, house, LEFT3 + ENEMY, ATTACHED, texts=texts)


def check(eng, turn, data):
    return violations(eng.check_turn(turn(data, eng)))


T_CARD = "Order Two Units Left"


def test_turn_legal_with_pack(build, house, turn):
    (pack,) = turn_board(build, house)
    # u1 ordered; la goes along at no cost, to the same hex; u1 battles
    data = {"card": T_CARD, "orders": ["u1"],
            "moves": [{"piece": "u1", "to": [1, 6]}, {"piece": "la", "to": [1, 6]}],
            "battles": [{"piece": "u1", "target": "e1"}]}
    assert check(pack, turn, data) == []


@covers("cca.only-ordered-act")
def test_only_ordered_act(build, house, turn):
    pack, removed = turn_board(build, house, ["remove rule cca.only-ordered-act\n"])
    data = {"card": T_CARD, "orders": ["u1"], "moves": [{"piece": "u2", "to": [3, 6]}]}
    assert check(pack, turn, data) == [("cca.only-ordered-act", ["u2"])]
    assert check(removed, turn, data) == []


@covers("cca.only-ordered-battle")
def test_only_ordered_battle(build, house, turn):
    pack, removed = turn_board(build, house, ["remove rule cca.only-ordered-battle\n"])
    data = {"card": T_CARD, "orders": ["u1"], "battles": [{"piece": "u2", "target": "e1"}]}
    assert check(pack, turn, data) == [("cca.only-ordered-battle", ["u2"])]
    assert check(removed, turn, data) == []


@covers("cca.attached-moves-with-unit")
def test_attached_moves_with_unit(build, house, turn):
    pack, removed = turn_board(build, house, ["remove rule cca.attached-moves-with-unit\n"])
    # u1 is ordered and stays; la (attached, not detached) moves away alone
    data = {"card": T_CARD, "orders": ["u1"], "moves": [{"piece": "la", "to": [0, 6]}]}
    assert check(pack, turn, data) == [("cca.attached-moves-with-unit", ["la"])]
    assert check(removed, turn, data) == []


def test_attached_leader_left_behind(build, house, turn):
    # Seed 000: "If the unit is ordered to move, the attached leader must move
    # with the unit." u1 is ordered and moves; la (attached, no order of his
    # own, so he goes along) is not moved: per the turn format he "stays where
    # he is", i.e. the unit left its attached leader behind. That breaks the
    # sentence cca.attached-moves-with-unit cites.
    (pack,) = turn_board(build, house)
    data = {"card": T_CARD, "orders": ["u1"], "moves": [{"piece": "u1", "to": [1, 6]}]}
    assert check(pack, turn, data) == [("cca.attached-moves-with-unit", ["la"])]


@covers("cca.attached-same-hex")
def test_attached_same_hex(build, house, turn):
    pack, removed = turn_board(build, house, ["remove rule cca.attached-same-hex\n"])
    data = {"card": T_CARD, "orders": ["u1"],
            "moves": [{"piece": "u1", "to": [1, 6]}, {"piece": "la", "to": [0, 6]}]}
    assert check(pack, turn, data) == [("cca.attached-same-hex", ["la"])]
    assert check(removed, turn, data) == []


GO_ALONG = {"card": T_CARD, "orders": ["u1"],
            "moves": [{"piece": "u1", "to": [1, 6]}, {"piece": "la", "to": [1, 6]}]}


@covers("cca.host")
def test_host(build, house, turn):
    pack, neutral = turn_board(build, house, ["replace define cca.host host(l) := none\n"])
    assert check(pack, turn, GO_ALONG) == []
    # without a host, la does not accompany u1: he moves without an order
    assert check(neutral, turn, GO_ALONG) == [("cca.only-ordered-act", ["la"])]


@covers("cca.attached-costs-nothing")
def test_attached_costs_nothing(build, house, turn):
    pack, neutral = turn_board(build, house, ["replace define cca.attached-costs-nothing accompanies(l) := false\n"])
    assert check(pack, turn, GO_ALONG) == []
    # without it, la moves alone: he needs his own order, and (moving after his
    # unit) may no longer detach from it
    assert check(neutral, turn, GO_ALONG) == [("cca.leader.detach-before-unit-moves", ["la"]),
                                              ("cca.only-ordered-act", ["la"])]


@covers("cca.acting")
def test_acting(build, house, turn):
    pack, neutral = turn_board(build, house, ["replace define cca.acting is_ordered(p) := true\n"])
    data = {"card": T_CARD, "orders": ["u1"], "moves": [{"piece": "u2", "to": [3, 6]}],
            "battles": [{"piece": "u3", "target": "e1"}]}
    assert check(pack, turn, data) == [("cca.only-ordered-act", ["u2"]), ("cca.only-ordered-battle", ["u3"])]
    assert check(neutral, turn, data) == []


@covers("cca.detached-unit-not-ordered")
def test_detached_unit_not_ordered(build, house, turn):
    pack, neutral = turn_board(build, house, [
        "replace define cca.detached-unit-not-ordered "
        "ordered_by_detach(u) := exists l in ordered: attached(l) and host(l) == u\n"])
    # la detaches (his own order); u1, which he left, is not thereby ordered
    data = {"card": T_CARD, "orders": ["la"],
            "moves": [{"piece": "la", "to": [0, 6]}, {"piece": "u1", "to": [1, 6]}]}
    assert check(pack, turn, data) == [("cca.only-ordered-act", ["u1"])]
    assert check(neutral, turn, data) == []


# --------------------------------------------------------------------------- explanations


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*", "")).strip()


def test_check_orders_names_every_violated_rule(build):
    # Out Flanked: three left pieces (quota 2), two center-only pieces, l1 twice.
    units = [("l1", "red", "auxilia", [0, 7]), ("l2", "red", "auxilia", [1, 7]),
             ("l3", "red", "auxilia", [2, 7]), ("c1", "red", "auxilia", [6, 7]),
             ("c2", "red", "auxilia", [5, 7])]
    eng = build(units)
    g = eng.ground("Out Flanked")
    v = eng.check_orders(g, ["l1", "l1", "l2", "l3", "c1", "c2"])
    assert not v.legal
    assert violations(v) == [
        ("cca.card-capacity", ["c1", "c2", "l1", "l2", "l3"]),  # 5 pieces, the card gives 4 orders
        ("cca.one-order-per-piece", ["l1"]),
        ("cca.order-eligible", ["c1"]),  # center only: not in a flank
        ("cca.order-eligible", ["c2"]),
        ("cca.surplus-orders-lost", ["l1", "l2", "l3"]),  # 3 in the left, 2 orders there
    ]
    seed = "000_21ed775e0976da39.txt"
    want = {
        "cca.order-eligible": (seed, "After playing a Command card, announce which eligible units or leaders you choose to order."),
        "cca.one-order-per-piece": (seed, "You may not give more than one order to each unit or leader."),
        "cca.card-capacity": ("cca.md", "Each Order N Units card lets the player order up to N units and/or leaders standing in the named section."),
        "cca.surplus-orders-lost": (seed, "If the Command card allows you to issue more orders in a given section of the battlefield than you have units or leaders in that section, those additional orders are lost."),
    }
    for x in v.violations:
        assert (x.source, x.quote) == want[x.rule]
        assert Path(x.origin).name == "10-ordering.wc"
        assert x.message
        # the quote is really in the cited document
        assert _norm(x.quote) in _norm((SOURCES_DIR / x.source).read_text("utf-8"))
    assert {x.rule for x in v.violations} == set(want)


def test_house_rule_violation_names_the_house_file(build, house):
    path = house("replace rule cca.one-order-per-piece require forall p in pieces: orders(p) <= 1\n")
    eng = build(LEFT3, rules=[path])
    g = eng.ground("Order Two Units Left")
    (x,) = eng.check_orders(g, ["u1", "u1"]).violations
    assert x.rule == "cca.one-order-per-piece" and x.pieces == ["u1"]
    assert x.source == str(path) and x.origin == str(path)


# --------------------------------------------------------------------------- meta


def test_every_rule_and_define_is_tested(build):
    eng = build(LEFT3)
    ids = set(eng.pack.rules) | set(eng.pack.define_ids)
    assert COVERED == ids, f"untested: {sorted(ids - COVERED)}; unknown: {sorted(COVERED - ids)}"
