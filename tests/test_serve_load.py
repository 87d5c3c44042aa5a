"""The referee service under load, on the loopback against a real server
(tests/serve_util.py): many clients at once get each their own answer,
with the latencies printed and the memory of the server and its workers
flat from round to round; a slow request holds up none of the quick ones
and is stopped at the time bound; the memory bound and the queue bound."""

from __future__ import annotations

import asyncio
import json
import statistics
import time

import pytest
from click.testing import CliRunner

from serve_util import ROOT, children, open_sockets, pss, rss, server  # noqa: I001 - skips this module without the serve extra

import httpx  # noqa: E402

from warcouncil import cli  # noqa: E402

DATA = ROOT / "tests" / "data" / "cli"

#: the turns checked: (scenario, turn file); their answers tell them apart (quick ones: the machine
#: the tests run on may be small and busy)
TURNS = [
    ("akragas", DATA / "legal_turn.yaml"),
    ("akragas", DATA / "illegal_turn.yaml"),
    ("akragas", ROOT / "tests" / "data" / "check" / "illegal_light_troops.yaml"),
]


def dense_board(per_row: int) -> dict:
    """Two solid rows of ``per_row`` red foot on a board one hex wider (tests/test_count_connected.py's
    dense board, issue 15): its Line Command count by the reference engine (`--engine csp`) is slow."""
    from conftest import scenario_dict
    from test_count_connected import rows_of_foot

    data = scenario_dict(rows_of_foot(per_row, 2), [("lx", "blue", [0, 0])])
    data["board"] = {"grid": "hex", "width": per_row + 1, "depth": 9}
    return data


SLOW = {"scenario": dense_board(10), "card": "Line Command", "engine": "csp", "count": True}


@pytest.fixture(scope="module")
def expected(tmp_path_factory, request):
    """Each turn's answer at the command line."""
    folder = tmp_path_factory.mktemp("cli")
    out = []
    mp = pytest.MonkeyPatch()
    try:
        mp.chdir(folder)
        for scenario, turn in TURNS:
            (folder / "turn.yaml").write_bytes(turn.read_bytes())
            r = CliRunner().invoke(cli.main, ["check", scenario, "turn.yaml", "--json"], prog_name="warcouncil")
            assert r.exit_code in (0, 1), r.output
            out.append(r.stdout)
    finally:
        mp.undo()
    assert len(set(out)) == len(TURNS)
    return out


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with server(tmp_path_factory.mktemp("server"), "--workers", "2", "--queue", "64", "--timeout", "5") as (url, proc):
        yield url, proc


async def _round(url: str, clients: int, requests: int, expected: list[str]) -> list[float]:
    """``requests`` checks from ``clients`` clients at once (each its own connection, its requests one
    after another): every answer the one of its own turn. The latencies, in seconds."""
    bodies = [json.dumps({"scenario": s, "turn": t.read_text(encoding="utf-8")}) for s, t in TURNS]
    latencies: list[float] = []
    wrong: list = []

    async def client(k: int) -> None:
        async with httpx.AsyncClient(base_url=url, timeout=120) as c:
            for j in range(k, requests, clients):
                i = j % len(TURNS)
                start = time.perf_counter()
                r = await c.post("/api/check", content=bodies[i], headers={"content-type": "application/json"})
                latencies.append(time.perf_counter() - start)
                if r.status_code != 200 or r.text != expected[i]:
                    wrong.append((j, r.status_code, r.text[:200]))

    await asyncio.gather(*(client(k) for k in range(clients)))
    assert wrong == []
    assert len(latencies) == requests
    return latencies


def test_a_slow_request_holds_up_no_quick_one(served, expected) -> None:
    """The dense board's Line Command count by the reference engine runs past the time bound (5 s):
    while it runs, quick checks are answered at their usual pace by the other worker; then it is
    stopped, 504 with one message, its worker replaced, and the service answers on."""
    url, proc = served
    workers = set(children(proc.pid))
    assert len(workers) == 2
    body = {"scenario": TURNS[0][0], "turn": TURNS[0][1].read_text(encoding="utf-8")}

    async def run():
        async with httpx.AsyncClient(base_url=url, timeout=120) as c:
            slow = asyncio.create_task(c.post("/api/orders", json=SLOW))
            await asyncio.sleep(0.5)  # it has its worker
            quick = []
            for _ in range(10):
                start = time.perf_counter()
                r = await c.post("/api/check", json=body)
                quick.append((time.perf_counter() - start, r.status_code, r.text))
            done_first = not slow.done()
            return quick, done_first, await slow

    start = time.perf_counter()
    quick, done_first, slow = asyncio.run(run())
    took = time.perf_counter() - start
    print(f"\nquick checks beside a slow request: {', '.join(f'{t * 1000:.0f}' for t, _, _ in quick)} ms; "
          f"the slow one stopped after {took:.1f} s")
    assert done_first  # every quick one answered while the slow one still ran
    assert all(status == 200 and text == expected[0] for _, status, text in quick)
    assert max(t for t, _, _ in quick) < 4.0
    assert slow.status_code == 504
    assert slow.json() == {"error": {"message": "the request took longer than the service gives one request (5 s)",
                                     "file": None, "line": None, "column": None,
                                     "hint": "ask for less (e.g. --limit, --count), or run it at the command line"}}
    after = set(children(proc.pid))
    assert len(after) == 2 and len(after - workers) == 1  # the slow one's worker killed, another in its place
    # forked while the server listened and had clients: it holds none of their sockets (a connection the
    # server closes is closed)
    assert [fd for p in after for fd in open_sockets(p)] == []
    r = httpx.post(url + "/api/check", json=body, timeout=60)
    assert (r.status_code, r.text) == (200, expected[0])


def test_many_clients_at_once(served, expected) -> None:
    """200 checks from 50 clients, five rounds: no error, each answer its own request's, the memory of
    the server and its workers flat (the first round warms the workers: rules compiled). Memory is
    their PSS, each page a worker shares with the server counted once (their RSS, printed beside it,
    counts it in each)."""
    url, proc = served
    memory = []
    for n in range(5):
        start = time.perf_counter()
        latencies = sorted(asyncio.run(_round(url, 50, 200, expected)))
        took = time.perf_counter() - start
        pids = [proc.pid, *children(proc.pid)]
        memory.append(sum(pss(p) for p in pids))
        resident = sum(rss(p) for p in pids)
        p50 = statistics.median(latencies)
        p99 = latencies[int(len(latencies) * 0.99) - 1]
        print(f"\nround {n + 1}: 200 checks from 50 clients in {took:.2f} s; latency p50 {p50 * 1000:.0f} ms, "
              f"p99 {p99 * 1000:.0f} ms; the server and its {len(pids) - 1} workers: PSS {memory[-1] / 2**20:.1f} MiB, "
              f"RSS {resident / 2**20:.1f} MiB")
    # flat: after the first round, no round adds more than 5% (a worker replaced after its 500th request
    # starts afresh: memory may fall, not grow)
    assert max(memory[1:]) <= memory[1] * 1.05, [round(m / 2**20, 1) for m in memory]


def test_the_memory_and_queue_bounds(tmp_path, expected) -> None:
    """One worker, one place in the queue, 100 MiB a request: a request that needs more memory is 503
    (its worker replaced); with the worker busy and the queue full, 503 at once; the one that waited is
    answered."""
    body = {"scenario": TURNS[0][0], "turn": TURNS[0][1].read_text(encoding="utf-8")}
    big = {"scenario": dense_board(16), "card": "Line Command", "limit": 200_000}  # ~190 MB at the command line
    with server(tmp_path, "--workers", "1", "--queue", "1", "--timeout", "5", "--memory", "100") as (url, proc):
        r = httpx.post(url + "/api/orders", json=big, timeout=60)
        assert (r.status_code, r.json()) == (503, {"error": {
            "message": "the request needs more memory than the service gives one request",
            "file": None, "line": None, "column": None,
            "hint": "ask for less (e.g. --limit, --count), or run it at the command line"}})
        r = httpx.post(url + "/api/orders", json={**big, "limit": 10}, timeout=60)
        assert r.status_code == 200 and len(r.json()["order_sets"]) == 10

        async def run():
            async with httpx.AsyncClient(base_url=url, timeout=60) as c:
                slow = asyncio.create_task(c.post("/api/orders", json=SLOW))
                await asyncio.sleep(0.5)
                waiting = asyncio.create_task(c.post("/api/check", json=body))
                await asyncio.sleep(0.3)
                refused = await c.post("/api/check", json=body)
                return refused, await slow, await waiting

        refused, slow, waited = asyncio.run(run())
        assert (refused.status_code, refused.json()) == (503, {"error": {
            "message": "the service is busy: every worker is working and the queue is full",
            "file": None, "line": None, "column": None, "hint": "try again in a moment"}})
        assert slow.status_code == 504
        assert (waited.status_code, waited.text) == (200, expected[0])
