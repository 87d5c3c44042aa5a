"""The destinations lane's quick path (``CardEngine.destinations`` for one
piece): once the lane has answered a piece alone on a card (its search a
``search.PlainFast``), the card's lane keeps, by id, the piece, its search
and its battle flags when they are kept per card (``_quick_entry``); the
next queries of that piece alone judge the order set's legality, take
``PlainFast.ends_before`` and the flags of the ends, and write the answer,
with nothing else looked up. Each test compares the quick path's answers
with the general search's (the first query after the setting's memo is
emptied); a house rule whose flags read the order set keeps no entry.
"""

from __future__ import annotations

import pytest
from conftest import scenario_dict
from test_dest_lane import BATTLE_ALONE, TWO_FOOT

import warcouncil.systems.cc.engine as cc_engine
from warcouncil.systems.cc.engine import CardEngine

LANE = cc_engine._LANE


@pytest.fixture
def entries(monkeypatch):
    """The ids ``_quick_entry`` is called for (the queries that did not take the quick path)."""
    calls = []
    real = CardEngine._quick_entry

    def counted(self, lane, setting, p, fast, flag_of):
        calls.append(p.id)
        return real(self, lane, setting, p, fast, flag_of)

    monkeypatch.setattr(CardEngine, "_quick_entry", counted)
    return calls


def general_then_quick(eng, card, pid, side=None):
    """(the general search's answer, later answers: the lane's on a fresh
    grounding, then the quick path's on it, on another fresh grounding, and
    on a grounding whose enumerator is made)."""
    eng.setting(side).memo.clear()
    first = eng.destinations(eng.ground(card, side=side), [pid])
    g = eng.ground(card, side=side)
    later = [eng.destinations(g, [pid]), eng.destinations(g, [pid]),
             eng.destinations(eng.ground(card, side=side), [pid])]
    g2 = eng.ground(card, side=side)
    eng.enumerator(g2)
    later.append(eng.destinations(g2, [pid]))
    return first, later


def same(a, b):
    """Equal answers, the hexes in the same order."""
    return a == b and [list(d) for d in a[1].values()] == [list(d) for d in b[1].values()]


@pytest.mark.parametrize("side", ["carthaginian", "syracusan"])
def test_quick_path_agrees_with_the_general_search_on_akragas(akragas, entries, side):
    eng = akragas
    pieces = eng.setting(side).items
    cards = [n for n, c in eng.pack.cards.items() if c.get("roll") is None and c.get("copy") is None]
    quick = 0
    for card in cards:
        for p in pieces:
            del entries[:]
            first, later = general_then_quick(eng, card, p.id, side)
            for answer in later:
                assert same(answer, first), (card, p.id)
            g = eng.ground(card, side=side)
            lane = eng.setting(side).memo.get(("dest-lane", eng.plan.compiler.fixed_key(g)))
            if lane is not None and p.id in lane[3]:
                # made by the second query, then taken by every later one
                # (a card the setting does not keep: a fresh grounding
                # finds its lane through the general path, which makes the
                # entry again)
                kept = card in eng.setting(side).memo.get(cc_engine._KEPT, {})
                assert entries == [p.id] * (1 if kept else 3), (card, p.id, entries)
                quick += 1
    assert quick > len(cards) * len(pieces) // 2, quick


TERRAIN = {(5, 4): "forest", (7, 4): "broken_ground", (5, 3): "marsh", (6, 3): "river",
           (5, 5): "ford", (6, 5): "hill"}


@pytest.mark.parametrize("utype", ["light_infantry", "auxilia", "heavy_infantry", "light_cavalry",
                                   "medium_cavalry", "heavy_chariot", "elephant"])
def test_quick_path_on_terrain_with_a_leader_on_the_hex(board, entries, utype):
    """Some ends may battle and some not (the terrain, the length): the
    quick path's flags are those of the general search."""
    eng = board([("s", "red", utype, [6, 4]), ("f", "red", "heavy_infantry", [7, 5]),
                 ("e", "blue", "medium_infantry", [4, 6])], [("el", "blue", [8, 6]), ("ll", "red", [6, 4])],
                terrain=TERRAIN)
    mixed = 0
    for card in ("Order Two Units Center", "Order Mounted Troops", "Line Command", "Order Heavy Troops"):
        for pid in ("s", "ll", "f"):
            first, later = general_then_quick(eng, card, pid)
            assert all(same(a, first) for a in later), (card, pid)
            d = first[1][pid]
            mixed += len(set(d.values())) > 1
    # answers where some ends may battle and some not (so the quick path's
    # partial flags were compared), on every board but the light infantry's
    assert mixed >= 3 or utype == "light_infantry", mixed


def test_flags_whatever_the_length_take_the_kept_mask(make_engine, house, entries):
    """A house ``may_battle`` that does not read the move's length: the
    flags are one mask per piece (``EndFlag.fixed``) on the quick path."""
    rules = [house("replace define cca.may-battle\n"
                   "    may_battle(m) := terrain_at(m.to) != forest and not second_move(m)\n")]
    data = scenario_dict([("a", "red", "light_cavalry", [6, 4]), ("e", "blue", "heavy_infantry", [6, 0])])
    data["terrain"] = [{"at": list(c), "type": t} for c, t in TERRAIN.items()]
    eng = make_engine(data, rules=rules)
    card = "Order Two Units Center"
    first, later = general_then_quick(eng, card, "a")
    assert all(same(a, first) for a in later)
    d = first[1]["a"]
    assert len(d) > 20 and [c for c, b in d.items() if not b] == [(5, 4)]  # the forest
    lane = eng.ground(card).memo[LANE]
    assert lane[3]["a"][5].fixed is not None  # (the entry's flag: _quick_entry)


def test_flags_that_read_the_order_set_keep_no_entry(build, house, entries):
    rules = [house(BATTLE_ALONE)]
    eng = build(TWO_FOOT, rules=rules)
    card = "Order Two Units Center"
    first, later = general_then_quick(eng, card, "a")
    assert all(same(a, first) for a in later) and all(first[1]["a"].values())
    assert eng.ground(card).memo[LANE][3] == {}
    g = eng.ground(card)
    assert not any(eng.destinations(g, ["a", "b"])[1]["a"].values())
    assert all(eng.destinations(g, ["a"])[1]["a"].values())


def test_illegal_alone_and_unknown_ids(akragas):
    """The quick path judges the order set every time: a piece outside the
    card's section is illegal alone; an unknown id is still reported."""
    from warcouncil.errors import WarcouncilError

    eng = akragas
    card = "Order Two Units Left"
    side = "syracusan"
    eng.setting(side).memo.clear()
    g = eng.ground(card, side=side)
    answers = [eng.destinations(g, ["s4"]) for _ in range(3)]
    assert [a[0] for a in answers] == [False] * 3 and answers[0] == answers[1] == answers[2]
    with pytest.raises(WarcouncilError):
        eng.destinations(g, ["nobody"])


def test_board_memos_agree_and_stay_bounded(akragas, monkeypatch):
    """``Board.cells_of``, ``cells_keyed`` and ``dilate_of`` (the quick
    path's look-ups of the board's geometry) answer as ``cells_in`` and
    ``dilate``, and keep at most CELLS_MEMO masks."""
    import random

    import warcouncil.world.board as board_mod

    b = akragas.scenario.board
    monkeypatch.setattr(board_mod, "CELLS_MEMO", 50)
    rng = random.Random(7)
    n = len(b.cell_at)
    for _ in range(3):
        for i in range(120):
            m = rng.getrandbits(n) & rng.getrandbits(n) if i % 3 else 1 << rng.randrange(n)
            assert b.cells_of(m) == tuple(b.cells_in(m))
            assert list(b.cells_keyed(m).items()) == [(c, True) for c in b.cells_in(m)]
            assert b.dilate_of(m) == b.dilate(m)
            assert len(b._cells_memo) <= 50 and len(b._dilate_memo) <= 50 and len(b._keyed_memo) <= 50
    assert b.cells_of(0) == () and b.cells_keyed(0) == {} and b.dilate_of(0) == 0


@pytest.mark.parametrize("side", ["carthaginian", "syracusan"])
def test_quick_legality_is_the_plans(akragas, side):
    """The quick path judges one piece's order set with AltPlan.legal's
    checks written out on the lane's facts (``_checks_one``): for every
    card whose plans the lane keeps and every piece of the side, on the
    quick path, the answer's legality is ``AltPlan.legal`` of the piece
    alone: pieces in and out of the card's sections, every piece under a
    card of no orders (First Strike: a cap of 0), quotas of several Hall
    conditions (Out Flanked, Coordinated Attack)."""
    eng = akragas
    eng.setting(side).memo.clear()
    seen = {}
    for card, c in eng.pack.cards.items():
        if c.get("roll") is not None or c.get("copy") is not None:
            continue
        for p in eng.setting(side).items:
            for _ in range(2):  # the first query makes the lane and its entry
                eng.destinations(eng.ground(card, side=side), [p.id])
            g = eng.ground(card, side=side)
            lane = g.memo.get(LANE)
            if lane is None or lane[2] is None or p.id not in lane[3]:
                continue
            want = any(a.legal((p,)) for a in eng.enumerator(eng.ground(card, side=side)).alts)
            assert eng.destinations(g, [p.id])[0] is want, (card, p.id)
            seen.setdefault(card, set()).add(want)
    assert seen["First Strike"] == {False} and seen["Coordinated Attack"] == {True}
    for n in ("Two", "Three", "Four"):
        for s in ("Left", "Center", "Right"):
            assert seen[f"Order {n} Units {s}"] == {True, False}
    assert seen["Out Flanked"] == {True, False}
