"""`turns --count` in bounded memory (issue 15, point 3): distinct end
positions counted as short keys, sorted runs on disk past a bound; the
same numbers as listing them."""

from __future__ import annotations

import random

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
