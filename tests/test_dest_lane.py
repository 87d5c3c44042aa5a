"""The destinations lane (``CardEngine.destinations``): after the first
query of a piece on a card, whose search ``reach`` works out in full (its
``Profile``, and a ``search.PlainFast`` when the search is plain), the next
queries of that piece on that card take ``PlainFast.ends_before`` (the masks
of the position before the turn kept per piece, a one-hex move one
neighbour mask, the test ``v in ordered`` answered by membership).

Each test compares the lane with the general search on the same question:
the first query after the setting's memo is emptied is the general search
(no profile, no lane), the later ones (a fresh grounding, and again on the
same grounding) the lane. A house rule of a shape the pack lacks must still
be obeyed: the lane answers a test of another shape by judging it, and
takes no part when the search is not plain (the expected answers below are
worked out from the house rule and the board by hand).
"""

from __future__ import annotations

import pytest

import warcouncil.systems.cc.engine as cc_engine
from warcouncil.solver.search import plain_fast_before


@pytest.fixture
def reach_calls(monkeypatch):
    """A list that gets one entry per call of the general search from ``destinations``."""
    calls = []
    real = cc_engine.reach

    def counted(ctx, plan, piece, *a, **kw):
        calls.append(piece.id)
        return real(ctx, plan, piece, *a, **kw)

    monkeypatch.setattr(cc_engine, "reach", counted)
    return calls


def general_then_lane(eng, card, ids, side=None, **kw):
    """(the general search's answer, the answers of two later queries: a
    fresh grounding, then the same grounding again)."""
    eng.setting(side).memo.clear()  # no profile, no lane: the general search
    first = eng.destinations(eng.ground(card, side=side, **kw), list(ids))
    g = eng.ground(card, side=side, **kw)
    second = eng.destinations(g, list(ids))
    third = eng.destinations(g, list(ids))
    return first, [second, third]


def plain_cards(eng):
    """The cards that need neither a roll nor a copied card."""
    return [name for name, c in eng.pack.cards.items() if c.get("roll") is None and c.get("copy") is None]


# ------------------------------------------------------------------ Akragas


@pytest.mark.parametrize("side", ["carthaginian", "syracusan"])
def test_lane_agrees_with_the_general_search_on_akragas(akragas, reach_calls, side):
    eng = akragas
    own = [p.id for p in eng.setting(side).items]
    cards = plain_cards(eng)
    assert len(cards) > 20
    general = later = 0  # general searches: in the first queries, in the later ones
    for card in cards:
        g = eng.ground(card, side=side)
        sets = [[pid] for pid in own]
        big = list(eng.order_sets(g))
        if big:
            sets.append([p.id for p in big[-1]])
        for ids in sets:
            del reach_calls[:]
            eng.setting(side).memo.clear()
            first = eng.destinations(eng.ground(card, side=side), ids)
            general += len(reach_calls)
            del reach_calls[:]
            g = eng.ground(card, side=side)
            for answer in (eng.destinations(g, ids), eng.destinations(g, ids)):
                assert answer == first, (card, ids)
                assert [list(d) for d in answer[1].values()] == [list(d) for d in first[1].values()]  # the order
            later += len(reach_calls)
    # most later queries took the lane (no general search)
    # most later queries (two per first one) took the lane: no general search
    assert general > 400 and later < general / 2, (general, later)


def test_a_one_hex_mover_takes_the_lane(akragas, reach_calls):
    eng = akragas
    first, later = general_then_lane(eng, "Order Two Units Center", ["s4"], "syracusan")
    assert reach_calls == ["s4"]  # the later queries: no general search
    assert first == later[0] == later[1] == (True, {"s4": {(5, 6): True, (4, 7): True, (5, 8): True, (6, 8): True}})
    g = eng.ground("Order Two Units Center", side="syracusan")
    fast = plain_fast_before(g.setting, eng.plan.compiler.fixed_key(g), g.setting.by_id["s4"])
    assert fast is not None and fast.depth == 1 and fast.member == (g.setting.by_id["s4"],)


# ------------------------------------------------------------------ hand-built boards

# Terrain around [6,4] (as tests/test_movement.py's board B), a friendly
# leader on the mover's own hex (the own-hex correction of the masks), a
# friendly unit, an enemy unit and an enemy leader close by.
TERRAIN = {(5, 4): "forest", (7, 4): "broken_ground", (5, 3): "marsh", (6, 3): "river",
           (5, 5): "ford", (6, 5): "hill"}
TYPES = ["light_infantry", "auxilia", "warrior", "heavy_infantry", "heavy_war_machine", "light_cavalry",
         "medium_cavalry", "heavy_chariot", "elephant"]


@pytest.mark.parametrize("utype", TYPES)
@pytest.mark.parametrize("leader_on_hex", [False, True])
def test_lane_agrees_on_a_hand_built_board(board, reach_calls, utype, leader_on_hex):
    leaders = [("el", "blue", [8, 6])] + ([("ll", "red", [6, 4])] if leader_on_hex else [])
    eng = board([("s", "red", utype, [6, 4]), ("f", "red", "heavy_infantry", [7, 5]),
                 ("e", "blue", "medium_infantry", [4, 6])], leaders, terrain=TERRAIN)
    cards = ["Order Two Units Center", "Order Light Troops", "Order Mounted Troops", "Line Command",
             "Order Heavy Troops"]
    for card in cards:
        for ids in (["s"], ["s", "f"]) + ((["ll"], ["s", "ll"]) if leader_on_hex else ()):
            del reach_calls[:]
            first, later = general_then_lane(eng, card, ids)
            assert later == [first, first], (card, ids)
    # the lane was taken: the one-piece query of the mover on the first card
    # (a warrior's end condition reads the move's length: no plain search)
    del reach_calls[:]
    general_then_lane(eng, "Order Two Units Center", ["s"])
    assert reach_calls == ["s"] * (3 if utype == "warrior" else 1)


# ------------------------------------------------------------------ house rules the pack lacks

# two heavy foot of red in the centre and one of blue ahead of them (the house-rule tests' board)
TWO_FOOT = [("a", "red", "heavy_infantry", [6, 4]), ("b", "red", "heavy_infantry", [8, 4]),
            ("e", "blue", "heavy_infantry", [6, 0])]
# may battle after moving only when ordered alone: battle flags that read the order set
BATTLE_ALONE = ("replace define cca.may-battle\n"
                "    may_battle(m) := m.length <= battle_limit(m.piece) and terrain_lets_battle(m) "
                "and not second_move(m) and count(ordered) == 1\n")
HI_S4 = {(5, 6): True, (4, 7): True, (5, 8): True, (6, 8): True}


def test_house_rule_of_another_test_shape_is_judged(build, house, reach_calls):
    """A unit may move only if it is ordered with another piece: the
    profile's one test is then no `v in ordered`, and the lane judges it."""
    rules = [house("replace define cca.acting\n"
                   "    is_ordered(p) := (p in ordered or accompanies(p) or ordered_by_detach(p) "
                   "or ordered_by_join(p)) and count(ordered) >= 2\n")]
    eng = build(TWO_FOOT, rules=rules)
    card = "Order Two Units Center"
    alone = (True, {"a": {}})
    both_a = {(5, 3): True, (6, 3): True, (5, 4): True, (7, 4): True, (5, 5): True, (6, 5): True}
    both_b = {(7, 3): True, (8, 3): True, (7, 4): True, (9, 4): True, (7, 5): True, (8, 5): True}
    for ids, want in ((["a"], alone), (["a", "b"], (True, {"a": both_a, "b": both_b})), (["a"], alone)):
        first, later = general_then_lane(eng, card, ids)
        assert first == want, ids
        assert later == [want, want], ids
    # the second query of one piece after the pair's lane is made: still judged
    g = eng.ground(card)
    assert eng.destinations(g, ["a", "b"]) == (True, {"a": both_a, "b": both_b})
    assert eng.destinations(g, ["a"]) == alone
    s = eng.setting(None)
    fast = plain_fast_before(s, eng.plan.compiler.fixed_key(g), s.by_id["a"])
    assert fast is not None and fast.member is None and fast.test is not None


def test_house_battle_flag_that_reads_the_order_set(build, house):
    """May battle after moving only when ordered alone: the flags read the
    order set, so they are worked out per query, never kept per card."""
    rules = [house(BATTLE_ALONE)]
    eng = build(TWO_FOOT, rules=rules)
    card = "Order Two Units Center"
    hexes = [(5, 3), (6, 3), (5, 4), (7, 4), (5, 5), (6, 5)]
    for _ in range(2):
        for ids, flag in ((["a"], True), (["a", "b"], False), (["a"], True)):
            first, later = general_then_lane(eng, card, ids)
            assert first[1]["a"] == dict.fromkeys(hexes, flag), ids
            assert later == [first, first]
    # one order set after another on the card's lane (no memo emptied)
    g = eng.ground(card)
    for ids, flag in ((["a"], True), (["a", "b"], False), (["a"], True), (["b", "a"], False)):
        for gg in (g, eng.ground(card)):
            assert eng.destinations(gg, ids)[1]["a"] == dict.fromkeys(hexes, flag), ids


def test_house_rule_that_gates_the_allowance_takes_the_general_search(build, house, reach_calls):
    """Light cavalry ordered alone moves one hex: the profile's residual is
    gated (no plain search of one test), the lane stays empty, and every
    query is the general search."""
    rules = [house("rule house.alone-one-hex\n"
                   "    from house \"A house rule for the tests.\"\n"
                   "    require forall m in moves: count(ordered) == 1 implies m.length <= 1\n"
                   "    message \"{m}: a piece ordered alone moves one hex\"\n")]
    eng = build([("a", "red", "light_cavalry", [6, 4]), ("b", "red", "heavy_infantry", [8, 6]),
                 ("e", "blue", "heavy_infantry", [6, 0])], rules=rules)
    card = "Order Two Units Center"
    one = {(5, 3): True, (6, 3): True, (5, 4): True, (7, 4): True, (5, 5): True, (6, 5): True}
    for _ in range(2):
        del reach_calls[:]
        first, later = general_then_lane(eng, card, ["a"])
        assert first == (True, {"a": one})
        assert later == [first, first]
        assert reach_calls == ["a", "a", "a"]
        first, later = general_then_lane(eng, card, ["a", "b"])
        assert len(first[1]["a"]) > 20  # four hexes when not alone
        assert later == [first, first]


def test_house_order_rule_judged_on_every_grounding(build, house):
    """An order rule the enumerator judges as a closure (not one of the
    structural kinds): the lane keeps no plans for the card, and every
    query, on a fresh grounding or not, judges the order set."""
    rules = [house("rule house.no-unit-beside-a-friend\n"
                   "    from house \"A house rule for the tests.\"\n"
                   "    require forall p in ordered: not (exists q in ordered: q != p and adjacent(p, q))\n"
                   "    message \"{p} is ordered beside a friend\"\n")]
    eng = build([("a", "red", "heavy_infantry", [6, 4]), ("b", "red", "heavy_infantry", [7, 4]),
                 ("c", "red", "heavy_infantry", [8, 6]), ("e", "blue", "heavy_infantry", [6, 0])], rules=rules)
    card = "Order Two Units Center"
    assert all(a.closure_rules for a in eng.enumerator(eng.ground(card)).alts)
    for _ in range(2):
        for ids, legal in ((["a"], True), (["a", "b"], False), (["a", "c"], True), (["b", "a"], False)):
            first, later = general_then_lane(eng, card, ids)
            assert first[0] is legal and [x[0] for x in later] == [legal, legal], ids
            assert later == [first, first]
            assert eng.destinations(eng.ground(card), ids)[0] is legal
    g = eng.ground(card)
    assert eng.destinations(g, ["a", "b"])[0] is False
    assert eng.destinations(eng.ground(card), ["a", "c"])[0] is True
    assert eng.destinations(eng.ground(card), ["a", "b"])[0] is False
