"""A card grounded again (``CardEngine.ground``'s kept path): a card named
by its printed name, with no roll and no copy, whose alternatives are all
facts of the setting (``Grounding`` keeps them), is grounded the next times
by ``Grounding.kept`` from what the setting's memo keeps, without looking
the card up again; its first memo carries the destinations lane once a
query has made it. Every such grounding is a new object with its own memo
and alternatives list, and answers as the grounding made in full; a card of
another shape (a roll, a copy, an alternative under ``when``, an order count
read from the setting) takes the full path every time.
"""

from __future__ import annotations

import warcouncil.systems.cc.engine as cc_engine
from warcouncil.systems.cc.grounding import Grounding

KEPT = cc_engine._KEPT
LANE = cc_engine._LANE
SIDES = ("carthaginian", "syracusan")


def full(eng, name, side):
    """The grounding made in full (the declaration itself: never the kept path)."""
    return eng.ground(eng.pack.cards[name], side=side)


def facts(g):
    return [(a.index, a.capacity, a.group, [(q.cap, q.all, q.admitted) for q in a.quotas]) for a in g.alts]


def test_kept_groundings_answer_as_the_full_ones(akragas):
    eng = akragas
    kept_cards = set()
    for side in SIDES:
        s = eng.setting(side)
        s.memo.clear()
        own = [p.id for p in s.items]
        for name, card in eng.pack.cards.items():
            if card.get("roll") is not None or card.get("copy") is not None:
                continue
            first = eng.ground(name, side=side)
            again = eng.ground(name, side=side)
            ref = full(eng, name, side)
            assert again is not first and again.alts is not first.alts
            assert facts(again) == facts(ref)
            assert again.memo is not first.memo and again.card is card and again.played == name
            assert again.setting is s and again.roll is None and again.enumerator is None
            shared = all(a.shared for a in ref.alts) and all(a.when is None for a in card.alternatives)
            assert (name in s.memo.get(KEPT, {})) is shared, name
            if shared:
                kept_cards.add(name)
                assert again.alts == ref.alts  # the very alternatives the setting keeps
            assert [sorted(p.id for p in x) for x in eng.order_sets(again)] == \
                [sorted(p.id for p in x) for x in eng.order_sets(ref)], name
            assert eng.count(again) == eng.count(ref)
            for pid in own[:6]:
                assert eng.destinations(eng.ground(name, side=side), [pid]) == eng.destinations(ref, [pid])
            assert repr(again.card_view) == repr(ref.card_view)  # (a Record compares by identity)
    # the section cards (and the like) are kept; "Order Light Troops" (up
    # to command, a fallback under `when`) is not
    assert {f"Order {n} Units {s}" for n in ("Two", "Three", "Four") for s in ("Left", "Center", "Right")} \
        <= kept_cards
    assert "Order Light Troops" not in kept_cards


def test_a_kept_grounding_has_its_own_memo(akragas):
    eng = akragas
    card = "Order Two Units Center"
    s = eng.setting("syracusan")
    s.memo.clear()
    g1 = eng.ground(card, side="syracusan")
    assert card in s.memo[KEPT]
    g2 = eng.ground(card, side="syracusan")
    assert LANE not in g2.memo  # no lane yet
    eng.destinations(g2, ["s4"])
    g2.memo["scribble"] = 1
    g2.alts.append(None)
    g3 = eng.ground(card, side="syracusan")
    assert "scribble" not in g3.memo and None not in g3.alts and g3.alts == g1.alts
    assert g3.memo[LANE] is g2.memo[LANE]  # the lane the first query made
    assert eng.destinations(g3, ["s4"]) == (True, {"s4": {(5, 6): True, (4, 7): True, (5, 8): True,
                                                          (6, 8): True}})
    # the setting's memo emptied: the next grounding is made in full again
    s.memo.clear()
    g4 = eng.ground(card, side="syracusan")
    assert LANE not in g4.memo and card in s.memo[KEPT]
    assert eng.destinations(g4, ["s4"]) == eng.destinations(g3, ["s4"])


def test_other_sides_commands_and_shapes_take_the_full_path(akragas, monkeypatch):
    eng = akragas
    calls = []
    real = Grounding.kept.__func__

    def counted(cls, *a):
        calls.append(a[4])
        return real(cls, *a)

    monkeypatch.setattr(Grounding, "kept", classmethod(counted))
    eng.setting("syracusan").memo.clear()
    eng.setting("syracusan", 2).memo.clear()
    card = "Order Two Units Center"
    eng.ground(card, side="syracusan")
    eng.ground(card, side="syracusan")
    assert calls == [card]
    eng.ground(card, side="syracusan", command=2)  # another setting: grounded in full there first
    assert calls == [card]
    eng.ground(card, side="syracusan", command=2)
    assert calls == [card, card]
    eng.ground(card.lower(), side="syracusan")  # not its printed name: resolve_card, in full
    eng.ground(eng.pack.cards[card], side="syracusan")
    assert calls == [card, card]
    light = "Order Light Troops"
    for _ in range(2):
        eng.ground(light, side="syracusan")
    for _ in range(2):
        eng.ground("Rally", side="syracusan", roll={"helmet": 1})  # a roll
        eng.ground("Counter Attack", side="syracusan", copies=card)  # a copy
    assert calls == [card, card]
    memo = eng.setting("syracusan").memo
    assert list(memo[KEPT]) == [card]


def test_house_card_of_another_shape_is_grounded_in_full(build, house, monkeypatch):
    """A house card whose second alternative stands under `when` (a fact
    of the card on the board, not of the setting alone as the kept path
    needs): never kept, and its answers follow the rule."""
    rules = [house('replace card "Order Two Units Center" {\n    copies = 4  category = section  helmet = true\n'
                   "    orders: up to 1 pieces where in_section(it, center)\n"
                   "    otherwise when count({u in units where in_section(u, left)}) > 0: "
                   "up to 1 pieces where in_section(it, left)\n}\n")]
    eng = build([("a", "red", "heavy_infantry", [6, 4]), ("b", "red", "heavy_infantry", [1, 4]),
                 ("e", "blue", "heavy_infantry", [6, 0])], rules=rules)
    calls = []
    monkeypatch.setattr(Grounding, "kept", classmethod(lambda cls, *a: calls.append(a) or None))
    card = "Order Two Units Center"
    for _ in range(3):
        g = eng.ground(card)
        assert [a.index for a in g.alts] == [0, 1]
        assert eng.destinations(g, ["a"])[0] and eng.destinations(g, ["b"])[0]
        assert not eng.destinations(g, ["a", "b"])[0]
    assert calls == [] and card not in eng.setting(None).memo.get(KEPT, {})
