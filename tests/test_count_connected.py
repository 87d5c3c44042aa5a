"""Counting connected groups without making them (issue 15, point 3): the
dynamic programme ``enumerate.count_connected`` against a brute force
written here, closed forms, and the enumerator's own sets on boards."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warcouncil.systems.cc import enumerate as E


def brute(items: int, adj, limit: int, forced: int) -> int:
    """Every subset, checked for connectivity by a walk: no warcouncil code."""
    nodes = [i for i in range(len(adj)) if items >> i & 1]
    n = 0
    for k in range(1, min(limit, len(nodes)) + 1):
        for sub in itertools.combinations(nodes, k):
            m = sum(1 << i for i in sub)
            if forced & ~m:
                continue
            seen, todo = {sub[0]}, [sub[0]]
            while todo:
                v = todo.pop()
                for w in sub:
                    if w not in seen and adj[v] >> w & 1:
                        seen.add(w)
                        todo.append(w)
            n += len(seen) == k
    return n


@st.composite
def graphs(draw):
    n = draw(st.integers(0, 9))
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), unique=True)) if pairs else []
    adj = [0] * n
    for a, b in edges:
        adj[a] |= 1 << b
        adj[b] |= 1 << a
    items = draw(st.integers(0, (1 << n) - 1)) if n else 0
    forced = items & draw(st.integers(0, (1 << n) - 1)) if n and draw(st.booleans()) else 0
    limit = draw(st.integers(0, n + 1))
    return items, adj, limit, forced


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_counts_every_connected_set(g):
    items, adj, limit, forced = g
    assert E.count_connected(items, adj, limit, forced) == brute(items, adj, limit, forced)


def path(n):
    return [(1 << (i - 1) if i else 0) | (1 << (i + 1) if i + 1 < n else 0) for i in range(n)]


def test_closed_forms():
    for n in range(1, 12):
        full = (1 << n) - 1
        assert E.count_connected(full, path(n), n) == n * (n + 1) // 2
        for k in range(n + 1):
            assert E.count_connected(full, path(n), k) == sum(n - s + 1 for s in range(1, k + 1))
        cycle = [(1 << (i - 1) % n) | (1 << (i + 1) % n) for i in range(n)] if n > 2 else path(n)
        if n > 2:
            assert E.count_connected(full, cycle, n) == n * (n - 1) + 1
        complete = [full & ~(1 << i) for i in range(n)]
        assert E.count_connected(full, complete, n) == 2 ** n - 1
    # a long path: far beyond what could be listed, counted exactly
    assert E.count_connected((1 << 400) - 1, path(400), 400) == 400 * 401 // 2


def test_too_wide_a_graph_is_left_to_the_enumerator(monkeypatch):
    n = 6
    complete = [((1 << n) - 1) & ~(1 << i) for i in range(n)]
    monkeypatch.setattr(E, "MAX_FRONTIER", 2)
    assert E.count_connected((1 << n) - 1, complete, n) is None
    assert E.count_connected((1 << n) - 1, path(n), n) == 21  # a path stays narrow


def rows_of_foot(per_row: int, rows: int = 2) -> list:
    """Red foot units filling ``rows`` rows of ``per_row`` hexes from the south edge."""
    types = ["heavy_infantry", "medium_infantry", "light_infantry", "auxilia", "warrior"]
    units, k = [], 0
    for r in range(rows):
        for c in range(per_row):
            units.append((f"f{k}", "red", types[k % len(types)], [c, 8 - r]))
            k += 1
    return units


def counted_by_programme(eng, g) -> bool:
    return all(a.count_fast() is not None for a in eng.enumerator(g).alts[:1]) and \
        eng.enumerator(g).alts[0].mode in ("linked", "led")


@pytest.mark.parametrize("per_row,rows", [(1, 1), (3, 1), (6, 1), (2, 2), (4, 2), (6, 2), (3, 3)])
@pytest.mark.parametrize("card", ["Line Command", "Double Time"])
def test_dense_rows_count_is_the_enumerators(build, per_row, rows, card):
    eng = build(rows_of_foot(per_row, rows), [("lx", "blue", [0, 0])])
    g = eng.ground(card)
    assert counted_by_programme(eng, g)
    sets = list(eng.order_sets(g))
    assert len(set(sets)) == len(sets)
    assert eng.count(g) == len(sets)


def test_a_row_of_six_is_every_interval_and_none(build):
    eng = build(rows_of_foot(6, 1), [("lx", "blue", [0, 0])])
    assert eng.count(eng.ground("Line Command")) == 6 * 7 // 2 + 1


@pytest.mark.parametrize("side", ["syracusan", "carthaginian"])
def test_akragas_linked_and_led_cards(akragas, side):
    seen = set()
    for card, decl in akragas.pack.cards.items():
        if decl.get("roll") is not None or decl.get("copy") is not None:
            continue
        g = akragas.ground(card, side=side)
        alts = akragas.enumerator(g).alts
        if alts and alts[0].mode in ("linked", "led"):
            seen.add(alts[0].mode)
            assert counted_by_programme(akragas, g), card
            assert akragas.count(g) == len(list(akragas.order_sets(g))), card
    assert seen == {"linked", "led"}


def test_with_leaders_and_the_programme_off(build, monkeypatch):
    """Leaders in the rows (a led group; pieces sharing a hex): the
    programme and the enumerator agree, and so does the enumerator alone."""
    units = rows_of_foot(4, 2)
    leaders = [("la", "red", [1, 8]), ("lb", "red", [3, 7]), ("lx", "blue", [0, 0])]
    eng = build(units, leaders)
    orig = E.MAX_FRONTIER
    for card in ("Line Command", "Double Time", "Leadership Any Section", "Inspired Left Leadership"):
        g = eng.ground(card)
        n = eng.count(g)
        assert n == len(list(eng.order_sets(g))), card
        monkeypatch.setattr(E, "MAX_FRONTIER", -1)
        assert eng.count(eng.ground(card)) == n, card
        monkeypatch.setattr(E, "MAX_FRONTIER", orig)


@pytest.mark.parametrize("card", ["Line Command", "Double Time", "Inspired Center Leadership",
                                  "Leadership Any Section"])
@pytest.mark.parametrize("side", ["syracusan", "carthaginian"])
def test_a_limited_listing_is_the_first_sets(akragas, card, side):
    g = akragas.ground(card, side=side)
    full = list(akragas.order_sets(g))
    for limit in (0, 1, 2, 5, 13, len(full) - 1, len(full), len(full) + 4):
        assert list(akragas.order_sets(g, limit)) == full[:max(limit, 0)], limit


def dense_board(make_engine, per_row: int):
    """Red: two solid rows of ``per_row`` foot on a board one hex wider."""
    from conftest import scenario_dict

    data = scenario_dict(rows_of_foot(per_row, 2), [("lx", "blue", [0, 0])])
    data["board"] = {"grid": "hex", "width": per_row + 1, "depth": 9}
    return make_engine(data)


def test_the_dense_board_of_issue_15(make_engine, monkeypatch):
    """32 foot a side in two solid rows: 14 930 318 Line Command sets (the
    enumerator made them all: 100 s, 3.9 GB), counted by the programme, and
    the first of them listed without making the rest."""
    eng = dense_board(make_engine, 16)
    g = eng.ground("Line Command")
    assert eng.count(g) == 14_930_318  # as the enumerator of main made them (609 s, 3.96 GB; the empty set is one)
    monkeypatch.setattr(E.AltPlan, "_connected_masks", lambda self: pytest.fail("made every set"))
    first = list(eng.order_sets(g, 40))
    assert len(first) == 40 and first[0] == ()
    assert [len(s) for s in first] == sorted(len(s) for s in first)
    assert all(len(s) == 1 for s in first[1:33]) and len(first[33]) == 2


@pytest.mark.parametrize("per_row", [3, 5, 7])
def test_dense_limited_listing_and_count(make_engine, per_row):
    eng = dense_board(make_engine, per_row)
    g = eng.ground("Line Command")
    full = list(eng.order_sets(g))
    assert eng.count(g) == len(full)
    for limit in (1, 7, len(full) // 2, len(full)):
        assert list(eng.order_sets(g, limit)) == full[:limit]
