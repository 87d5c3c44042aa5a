"""`turns --count` in bounded memory (issue 15, point 3): distinct end
positions counted as short keys, sorted runs on disk past a bound; the
same numbers as listing them."""

from __future__ import annotations

import json
import random
import re

import pytest

from conftest import AKRAGAS, run_cli
from warcouncil.systems.cc import distinct as D
from warcouncil.systems.cc.turns import count_end_positions, end_positions


@pytest.mark.parametrize("cap", [1, 2, 7, 100, 10_000])
def test_distinct_counter_is_len_of_a_set(cap, tmp_path):
    rng = random.Random(cap)
    keys = [bytes(rng.randrange(4) for _ in range(rng.randrange(4))) for _ in range(3000)]
    with D.DistinctCounter(cap, tmpdir=str(tmp_path)) as c:
        for k in keys:
            c.add(k)
        spilled = len(c.runs)
        assert c.count() == len(set(keys))
    assert (spilled > 0) == (cap < len(set(keys)))
    assert not list(tmp_path.iterdir())  # runs are anonymous temporary files, gone when closed


def test_empty_counter():
    assert D.DistinctCounter(3).count() == 0


def test_position_keys(akragas):
    g = akragas.ground("Order Two Units Left")
    ends = list(end_positions(akragas, g))
    keys = [D.position_key(e) for e in ends]
    assert len(set(keys)) == len(ends)  # distinct positions, distinct keys
    e = max(ends, key=len)
    assert D.position_key(dict(reversed(list(e.items())))) == D.position_key(e)


@pytest.mark.parametrize("card", ["Order Two Units Left", "Order Three Units Center", "Order Heavy Troops",
                                  "Line Command"])
@pytest.mark.parametrize("side", ["syracusan", "carthaginian"])
def test_count_is_the_listings(akragas, card, side):
    g = akragas.ground(card, side=side)
    listed = sum(1 for _ in end_positions(akragas, g))
    assert count_end_positions(akragas, g, progress=False, max_in_memory=50) == listed
    assert count_end_positions(akragas, g, progress=False) == listed


def test_cli_count():
    code, out, _ = run_cli("turns", AKRAGAS, "--card", "Order Two Units Left", "--count")
    assert code == 0
    code, listing, _ = run_cli("turns", AKRAGAS, "--card", "Order Two Units Left", "--json")
    import json

    assert int(out) == len(json.loads(listing)["positions"]) > 100
    code, out, _ = run_cli("turns", AKRAGAS, "--card", "Order Two Units Left", "--count", "--limit", "7")
    assert int(out) == 7


def test_progress_on_stderr(akragas, capsys, monkeypatch):
    import time

    clock = iter(range(0, 10**6, 3))
    monkeypatch.setattr(time, "monotonic", lambda: next(clock))
    g = akragas.ground("Order Two Units Left")
    n = count_end_positions(akragas, g, progress=True, max_in_memory=100)
    err = capsys.readouterr().err
    assert "order sets" in err and "positions found" in err and "runs on disk" in err
    assert n == sum(1 for _ in end_positions(akragas, g))


def test_progress_advances_within_an_order_set(akragas):
    """``on_progress`` is told the work done as the search goes, within an
    order set (not only between sets), up to the whole estimate."""
    g = akragas.ground("Order Two Units Left")
    calls = []
    n = count_end_positions(akragas, g, on_progress=lambda done, total, text: calls.append((done, total, text)))
    assert n == 1024
    dones = [c[0] for c in calls]
    assert dones == sorted(dones) and dones[-1] == calls[-1][1] == calls[0][1]
    assert calls[-1][2] == "11/11 order sets, 1184 positions found (0 runs on disk)"
    by_set: dict = {}
    for done, _, text in calls:
        by_set.setdefault(text.split(" ")[0], []).append(done)
    assert len(by_set) == 11
    # the two-unit sets: many steps each, each further than the one before
    assert max(len(set(v)) for v in by_set.values()) > 10


def test_progress_bar_shows_an_estimate(akragas, capsys):
    g = akragas.ground("Order Two Units Left")
    count_end_positions(akragas, g, progress=True)
    err = capsys.readouterr().err
    assert "11/11 order sets" in err and "100%" in err
    assert re.search(r"\d+:\d\d:\d\d", err)  # rich's time remaining


def test_no_progress_when_stderr_is_no_terminal():
    """In a pipe (the tests' stderr) nothing is written to stderr."""
    code, out, err = run_cli("turns", AKRAGAS, "--card", "Order Two Units Left", "--count")
    assert (code, out, err) == (0, "1024\n", "")


def test_no_progress_with_json_even_on_a_terminal(monkeypatch):
    from warcouncil.kernel import progress

    monkeypatch.setattr(progress, "stderr_is_terminal", lambda: True)
    code, out, err = run_cli("turns", AKRAGAS, "--card", "Order Two Units Left", "--count", "--json")
    assert (code, err) == (0, "")
    assert json.loads(out) == {"card": "Order Two Units Left", "side": "syracusan", "count": 1024}


def test_positions_stream_the_largest_group(akragas, monkeypatch):
    """What grew with the positions of `turns --count` (issue 26): every
    group's answers were listed before being multiplied out. The largest
    group is streamed now; only the others are listed."""
    from warcouncil.systems.cc import turns as T

    g = akragas.ground("Order Mounted Troops", side="carthaginian")
    enum = akragas.enumerator(g)
    s = next(s for s in enum.order_sets() if {p.id for p in s} == {"c8", "c9", "c12", "hannibal_mago"})
    solver = T._Turns(akragas, g, s, next(a.alt for a in enum.alts if a.legal(s)))
    drawn: dict = {}
    solve = T._Turns._solve

    def counted(self, grp, *args, **kw):
        key = tuple(p.id for p in grp)
        drawn[key] = 0
        for x in solve(self, grp, *args, **kw):
            drawn[key] += 1
            yield x
    monkeypatch.setattr(T._Turns, "_solve", counted)
    it = solver.positions()
    next(it)
    assert drawn == {("c9",): 12, ("c8", "c12", "hannibal_mago"): 1}
    assert 1 + sum(1 for _ in it) == 12852 * 12
    assert drawn == {("c9",): 12, ("c8", "c12", "hannibal_mago"): 12852}
