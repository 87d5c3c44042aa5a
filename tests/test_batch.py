"""`warcouncil batch JOBS.jsonl`: every line's answer is the verb's own
`--json` answer, in input order, whatever the number of workers; a bad line
gets its own error record and the others are still answered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import AKRAGAS, run_cli
from warcouncil import batch, cli

DATA = Path(__file__).resolve().parent / "data" / "cli"
HOUSE = Path(cli.__file__).resolve().parent / "examples" / "house" / "light-cavalry-5.wc"

# (job, the same query on the command line)
QUERIES = [
    ({"verb": "orders", "args": {"card": "Order Two Units Left", "count": True}},
     ["orders", AKRAGAS, "--card", "Order Two Units Left", "--count", "--json"]),
    ({"verb": "orders", "args": {"card": "Line Command", "side": "carthaginian", "limit": 3}},
     ["orders", AKRAGAS, "--card", "Line Command", "--side", "carthaginian", "--limit", "3", "--json"]),
    ({"verb": "moves", "args": {"card": "Order Three Units Center", "order": ["s4", "s5"]}},
     ["moves", AKRAGAS, "--card", "Order Three Units Center", "--order", "s4", "--order", "s5", "--json"]),
    ({"verb": "moves", "args": {"card": "Order Three Units Center", "order": "s1"}},
     ["moves", AKRAGAS, "--card", "Order Three Units Center", "--order", "s1", "--json"]),  # illegal: exit 1
    ({"verb": "orders", "args": {"card": "Order Two Units Left", "count": True, "rules": [str(HOUSE)]}},
     ["orders", AKRAGAS, "--card", "Order Two Units Left", "--count", "--rules", HOUSE, "--json"]),
    ({"verb": "moves", "args": {"card": "Order Light Troops", "order": ["s1"], "rules": str(HOUSE)}},
     ["moves", AKRAGAS, "--card", "Order Light Troops", "--order", "s1", "--rules", HOUSE, "--json"]),
    ({"turn": str(DATA / "legal_turn.yaml")}, ["check", AKRAGAS, DATA / "legal_turn.yaml", "--json"]),
    ({"verb": "check", "args": {"turn": str(DATA / "illegal_turn.yaml")}},
     ["check", AKRAGAS, DATA / "illegal_turn.yaml", "--json"]),
    ({"verb": "cards"}, ["cards", AKRAGAS, "--json"]),
]


def job(j: dict, **extra) -> str:
    j = dict(j)
    if j.get("verb") != "lint":
        j.setdefault("scenario", str(AKRAGAS))
    j.update(extra)
    return json.dumps(j)


def records(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


def expected(argv) -> dict:
    code, out, _ = run_cli(*argv)
    return {"exit": code, "answer": json.loads(out)}


@pytest.fixture(scope="module")
def answers():
    return [expected(argv) for _, argv in QUERIES]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_answers_are_the_verbs_in_input_order(tmp_path, answers, workers):
    jobs = tmp_path / "jobs.jsonl"
    lines = [job(q, id=i) for i, (q, _) in enumerate(QUERIES)] * 2  # more lines than chunks in flight
    jobs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", workers)
    assert code == 0
    got = records(out)
    assert [r["line"] for r in got] == list(range(1, len(lines) + 1))
    for r, i in zip(got, list(range(len(QUERIES))) * 2):
        assert r == {"line": r["line"], "id": i, **answers[i]}
    assert {r["exit"] for r in got} == {0, 1}  # a "no" is an answer, not an error


BAD = [
    ("not json", "not JSON"),
    ("[1, 2]", "a job is a JSON object"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "ordres"}), "unknown verb 'ordres'"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "batch"}), "unknown verb 'batch'"),
    (json.dumps({"verb": "lsp"}), "unknown verb 'lsp'"),  # a session with an editor, no query
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "colour": 1}), "unknown key 'colour'"),
    (json.dumps({"verb": "orders", "args": {"card": "Line Command"}}), "needs the scenario"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": {"card": "Line Command", "cuont": True}}),
     "has no option 'cuont'"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": {"card": ["a", "b"]}}), "takes one value"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": {"card": "Line Command", "count": "yes"}}),
     "is true or false"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": "Line Command"}), "\"args\" is a JSON object"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": {"card": "Lime Command"}}), "unknown card"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "orders", "args": {"card": "Line Command", "limit": -1}}),
     "Invalid value for '--limit'"),
    (json.dumps({"scenario": "no-such-file.yaml", "verb": "cards"}), "no-such-file.yaml"),
    (json.dumps({"scenario": str(DATA / "malformed_scenario.yaml"), "verb": "cards"}), "malformed_scenario.yaml:"),
    (json.dumps({"scenario": str(AKRAGAS), "turn": str(DATA / "malformed_turn.yaml")}), "malformed_turn.yaml:"),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "check"}), "needs \"turn\""),
    (json.dumps({"scenario": str(AKRAGAS), "verb": "lint", "args": {"paths": ["x"]}}), "takes no scenario"),
]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bad_line_gets_its_own_record(tmp_path, answers, workers):
    good = job(QUERIES[0][0])
    lines = []
    for bad, _ in BAD:
        lines += [good, bad]
    lines.append(good)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", workers)
    assert code == 0
    got = records(out)
    assert len(got) == len(lines)
    for i, r in enumerate(got):
        assert r["line"] == i + 1
        if i % 2 == 0:
            assert r == {"line": i + 1, **answers[0]}
        else:
            bad, message = BAD[i // 2]
            assert set(r) == {"line", "error", "exit"}, bad
            assert r["exit"] == 2, bad
            assert message in r["error"], (bad, r["error"])


def test_blank_lines_bad_bytes_and_long_lines(tmp_path, answers, monkeypatch):
    monkeypatch.setattr(batch, "BATCH_LINE_LIMIT", 1000)
    good = job(QUERIES[0][0]).encode()
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_bytes(b"\n".join([good, b"", b"   ", b'{"verb": "\xff"}', b"[" * 5000, good]) + b"\n")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert code == 0
    got = records(out)
    assert [r["line"] for r in got] == [1, 4, 5, 6]  # blank lines give nothing, but count
    assert got[0] == {"line": 1, **answers[0]} and got[3] == {"line": 6, **answers[0]}
    assert got[1]["exit"] == 2 and "not UTF-8" in got[1]["error"]
    assert got[2]["exit"] == 2 and "longer than 1000 bytes" in got[2]["error"]


def test_an_inline_turn(tmp_path):
    import yaml

    turn = yaml.safe_load((DATA / "illegal_turn.yaml").read_text(encoding="utf-8"))
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(job({"turn": turn}) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs)
    (r,) = records(out)
    want = expected(["check", AKRAGAS, DATA / "illegal_turn.yaml", "--json"])
    assert r["exit"] == want["exit"] == 1
    assert r["answer"]["violations"] and r["answer"] == want["answer"]


def test_a_bug_is_exit_3_and_the_batch_goes_on(tmp_path, monkeypatch, answers):
    def broken(*a, **k):
        raise KeyError("boom")

    monkeypatch.setattr("warcouncil.kernel.turn.load_turn", broken)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(job(QUERIES[6][0]) + "\n" + job(QUERIES[0][0]) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    got = records(out)
    assert got[0]["exit"] == 3 and "internal error" in got[0]["error"] and "boom" in got[0]["error"]
    assert got[1] == {"line": 2, **answers[0]}


def test_the_jobs_file_itself(tmp_path):
    code, _, err = run_cli("batch", tmp_path / "missing.jsonl")
    assert code == 2 and "cannot read jobs file" in err
    code, _, err = run_cli("batch", tmp_path)
    assert code == 2 and "not a regular file" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert run_cli("batch", empty) == (0, "", "")


def test_standard_input(answers):
    from click.testing import CliRunner

    result = CliRunner().invoke(cli.main, ["batch", "-"], input=job(QUERIES[0][0]) + "\n")
    assert result.exit_code == 0
    assert records(result.stdout) == [{"line": 1, **answers[0]}]


def test_jobs_share_a_pack_read_once_per_rule_files(tmp_path, monkeypatch):
    from warcouncil.kernel import engine

    calls = []
    real = engine.load_pack

    def counting(target, layers=(), **kw):
        calls.append((str(target), tuple(str(x) for x in layers)))
        return real(target, layers, **kw)

    monkeypatch.setattr(engine, "load_pack", counting)
    monkeypatch.setattr(batch, "_PACK_MEMO", {})
    house = tmp_path / "house.wc"
    house.write_text((DATA / "center_one.wc").read_text(encoding="utf-8"), encoding="utf-8")
    q = {"verb": "orders", "args": {"card": "Order Three Units Center", "count": True}}
    qh = {"verb": "orders", "args": {"card": "Order Three Units Center", "count": True, "rules": [str(house)]}}
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join([job(q), job(q), job(qh), job(qh)]) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert code == 0 and len(calls) == 2  # once without the house rules, once with them
    assert engine.load_pack is counting  # put back after the batch
    first = records(out)
    house.write_text("# no house rule\n", encoding="utf-8")  # the house rules change: the pack is read again
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert len(calls) == 3
    again = records(out)
    assert [r["answer"]["count"] for r in first] == [26, 26, 6, 6]
    assert [r["answer"]["count"] for r in again] == [26, 26, 26, 26]


def test_ray_missing_is_a_clear_exit_2(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(job(QUERIES[0][0]) + "\n", encoding="utf-8")
    code, out, err = run_cli("batch", jobs, "--ray", "127.0.0.1:1")
    assert code == 2 and out == ""
    assert "--ray needs Ray" in err and "warcouncil[ray]" in err


def test_on_a_local_ray_cluster(tmp_path, answers):
    """A Ray cluster started here (2 CPUs); the batch joins it by address
    from another process, as on a real cluster."""
    ray = pytest.importorskip("ray")
    jobs = tmp_path / "jobs.jsonl"
    lines = [job(q, id=i) for i, (q, _) in enumerate(QUERIES)] + ["not json"]
    jobs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    info = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        address = info.address_info["gcs_address"]
        done = subprocess.run([sys.executable, "-m", "warcouncil.cli", "batch", str(jobs), "--ray", address],
                              capture_output=True, text=True, timeout=600)
    finally:
        ray.shutdown()
    assert done.returncode == 0, done.stderr[-2000:]
    got = records(done.stdout)
    assert [r["line"] for r in got] == list(range(1, len(lines) + 1))
    for i, r in enumerate(got[:-1]):
        assert r == {"line": i + 1, "id": i, **answers[i]}
    assert got[-1]["exit"] == 2 and "not JSON" in got[-1]["error"]


def test_a_line_that_kills_its_worker(tmp_path, answers, monkeypatch):
    """A worker that dies (here: os._exit on one job) loses no other line:
    that line gets an error record (exit 3), every other line its answer."""
    import os

    real = batch._batch_invoke

    def deadly(verb, argv):
        if any("Crash" in a for a in argv):
            os._exit(9)
        return real(verb, argv)

    monkeypatch.setattr(batch, "_batch_invoke", deadly)  # forked workers inherit it
    crash = {"verb": "orders", "args": {"card": "Crash Now", "count": True}}
    lines = [job(QUERIES[0][0])] * 5 + [job(crash)] + [job(QUERIES[0][0])] * 9
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "2")
    assert code == 0
    got = records(out)
    assert [r["line"] for r in got] == list(range(1, 16))
    for r in got:
        if r["line"] == 6:
            assert r["exit"] == 3 and "stopped" in r["error"]
        else:
            assert r == {"line": r["line"], **answers[0]}


def test_a_chunk_sent_to_a_pool_already_broken_is_sent_again(tmp_path, answers, monkeypatch):
    """A worker may die between two chunks being sent: the pool then refuses
    the next chunk at once (``submit`` raises BrokenProcessPool). That chunk
    is sent again like the chunks in flight, never an internal error (it
    was one, now and then, in test_a_line_that_kills_its_worker). Here the
    refusal is made to happen on the second chunk sent, every time."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    real, sent = ProcessPoolExecutor.submit, []

    def refuse_second(self, *args, **kwargs):
        sent.append(1)
        if len(sent) == 2:
            raise BrokenProcessPool("a worker died (made up by the test)")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", refuse_second)
    monkeypatch.setattr(batch, "_VERBS", [cli.main, "warcouncil.cli"])  # as `run` sets them
    lines = [(n, job(QUERIES[0][0])) for n in range(1, 41)]
    # (the pool of a system without os.fork; where there is one, _BatchForks: below)
    out = "\n".join(batch._batch_stream(batch._batch_chunks(lines, 2), batch._BatchPool(2, os.getcwd())))
    assert records(out) == [{"line": n, **answers[0]} for n in range(1, 41)]
    assert len(sent) > 6  # the refused chunk sent again, a line at a time


def test_a_worker_killed_between_chunks(answers, monkeypatch):
    """A forked worker killed while it waits for its next chunk: the chunk
    sent to it is run again, a line at a time, in a new worker; the other
    worker goes on, and every line has its answer."""
    import signal

    monkeypatch.setattr(batch, "_VERBS", [cli.main, "warcouncil.cli"])  # as `run` sets them
    runner = batch._BatchForks(2, os.getcwd())
    victim = runner.workers[0][0]
    os.kill(victim, signal.SIGKILL)
    os.waitpid(victim, 0)
    lines = [(n, job(QUERIES[0][0])) for n in range(1, 41)]
    out = "\n".join(batch._batch_stream(batch._batch_chunks(lines, 2), runner))
    assert records(out) == [{"line": n, **answers[0]} for n in range(1, 41)]
    assert runner.workers == []  # all waited for


def test_a_worker_that_dies_in_the_middle_of_a_chunk(tmp_path, answers, monkeypatch):
    """The first worker to start its second chunk dies then (once in the
    whole batch): that chunk's lines are run again alone and answered."""
    real = batch._batch_pool_chunk
    mark = tmp_path / "died"
    seen: list = []

    def once(chunk, cwd):
        seen.append(1)
        if len(seen) == 2:
            try:
                os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                os._exit(9)
        return real(chunk, cwd)

    monkeypatch.setattr(batch, "_batch_pool_chunk", once)  # forked workers inherit it
    lines = [job(QUERIES[0][0])] * 40
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "2")
    assert code == 0 and mark.exists()
    assert records(out) == [{"line": n, **answers[0]} for n in range(1, 41)]


def test_a_long_running_process_keeps_only_the_plans_in_use(tmp_path) -> None:
    # a batch worker (or the fuzz campaign) loads pack after pack: the plan
    # cache held every plan ever made (about 2 MB each) until the process
    # ended; it now holds a plan only while an engine does
    import gc

    from conftest import run_cli
    from warcouncil.solver import plan

    gc.collect()
    before = len(plan._PLANS)  # (plans other tests' engines still hold, e.g. the batch's bounded memo)
    for i in range(12):
        f = tmp_path / f"h{i}.wc"
        f.write_text(f"rule house.r{i}\n    require count(ordered) <= {i + 5}\n", encoding="utf-8")
        code, out, _ = run_cli("orders", "akragas", "--card", "Order Three Units Center", "--rules", f, "--count")
        assert (code, out) == (0, "26\n")
    gc.collect()
    assert len(plan._PLANS) <= before + 1


def test_jobs_share_the_packs_plan(tmp_path, monkeypatch):
    # the plan (the rules as compiled) is kept with the shared pack: made
    # once for all the jobs, not again whenever the collector freed it
    import gc

    from warcouncil.solver import plan

    made = []
    real = plan.Plan.__init__

    def counting(self, pack):
        made.append(pack)
        real(self, pack)

    monkeypatch.setattr(plan.Plan, "__init__", counting)
    monkeypatch.setattr(batch, "_PACK_MEMO", {})
    real_load = batch._batch_one

    def collecting(n, text):  # the collector runs between the jobs
        gc.collect()
        return real_load(n, text)

    monkeypatch.setattr(batch, "_batch_one", collecting)
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join(job(q) for q, _ in QUERIES[:4] + QUERIES[6:8]) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert code == 0 and len(records(out)) == 6
    assert len(made) == 1


def test_chunks_keep_the_order_and_get_smaller_at_the_end():
    items = [(i, str(i)) for i in range(1, 101)]
    chunks = list(batch._batch_chunks(iter(items), 2, 8))
    assert [x for c in chunks for x in c] == items
    sizes = [len(c) for c in chunks]
    assert sizes[0] == 8 and sizes[-1] == 1 and sizes == sorted(sizes, reverse=True)
    assert sizes.count(8) >= 8
    assert [len(c) for c in batch._batch_chunks(iter(items[:3]), 2, 8)] == [1, 1, 1]
    assert list(batch._batch_chunks(iter([]), 2, 8)) == []


def test_a_long_batch_keeps_no_jobs_output(tmp_path):
    # each job's verb printed into a new buffer, and click kept every one of
    # them (its stream cache is a WeakKeyDictionary whose value is the
    # stream itself), each holding the job's whole answer, for as long as
    # the process ran; the jobs now share two buffers
    import gc
    import io

    def buffers_after(n: int) -> int:
        jobs = tmp_path / f"jobs{n}.jsonl"
        jobs.write_text("\n".join([job(QUERIES[0][0])] * n) + "\n", encoding="utf-8")
        code, out, _ = run_cli("batch", jobs, "--jobs", "1")
        assert code == 0 and len(records(out)) == n
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is io.StringIO)

    base = buffers_after(2)
    assert buffers_after(30) <= base


def test_rule_files_are_hashed_again_only_when_they_change(tmp_path, monkeypatch):
    # the key of a job's pack (its files by content) was read and hashed
    # anew for every job; now a file is hashed again only when its stat
    # changes, and a pack's folder listed again only when the folder does
    import hashlib
    import os

    hashed = []
    real = hashlib.sha256

    def counting(data=b""):
        hashed.append(data)
        return real(data)

    monkeypatch.setattr(hashlib, "sha256", counting)
    monkeypatch.setattr(batch, "_FILE_KEYS", {})
    pack = tmp_path / "pack"
    pack.mkdir()
    a = pack / "a.wc"
    a.write_text("rule r1\n", encoding="utf-8")
    house = tmp_path / "house.wc"
    house.write_text("rule h1\n", encoding="utf-8")
    first = batch._batch_pack_key(str(pack), [str(house)], True)
    assert len(hashed) == 2
    assert batch._batch_pack_key(str(pack), [str(house)], True) == first and len(hashed) == 2
    house.write_text("rule h2\n", encoding="utf-8")  # the same size: the times tell
    st = house.stat()
    os.utime(house, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    second = batch._batch_pack_key(str(pack), [str(house)], True)
    assert second != first and len(hashed) == 3
    (pack / "b.wc").write_text("rule r2\n", encoding="utf-8")  # a file added to the pack's folder
    st = pack.stat()
    os.utime(pack, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    third = batch._batch_pack_key(str(pack), [str(house)], True)
    assert len(third[0][0]) == 2 and third[0][1] == second[0][1]
    house.unlink()
    assert batch._batch_pack_key(str(pack), [str(house)], True) is None


def test_the_collector_while_a_batch_runs_here(tmp_path, monkeypatch):
    # one worker runs the jobs in this process: during the batch the
    # youngest generation is collected less often and, after the first
    # chunk, what it left (the pack, its plan, the rules compiled) is frozen
    # out of the collector's walks, as the workers of a pool have it; the
    # threshold put back when the batch ends
    import gc

    seen = []
    real = batch._batch_chunk

    def watching(chunk, cwd):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))
        return real(chunk, cwd)

    monkeypatch.setattr(batch, "_batch_chunk", watching)
    before = (gc.get_threshold(), gc.get_freeze_count())
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text("\n".join([job(QUERIES[0][0])] * (2 * batch.BATCH_CHUNK + 1)) + "\n", encoding="utf-8")
    code, out, _ = run_cli("batch", jobs, "--jobs", "1")
    assert code == 0 and [r["line"] for r in records(out)] == list(range(1, 2 * batch.BATCH_CHUNK + 2))
    assert len(seen) >= 2
    assert all(t == max(batch.BATCH_GC_YOUNG, before[0][0]) for t, _ in seen)
    assert seen[1][1] > seen[0][1] == before[1]
    assert gc.get_threshold() == before[0]


def test_a_worker_not_forked_imports_the_verbs_by_name(tmp_path, answers):
    """A worker that was not forked from the batch's process (Ray's, a pool's
    where there is no os.fork) is sent the name of the verbs' module
    (``warcouncil.cli``, also when the batch runs as ``python -m
    warcouncil.cli``) and imports it: the same record."""
    code = ("import json, sys\n"
            "from warcouncil import batch\n"
            "print(batch._worker_chunk([(1, sys.argv[1])], sys.argv[2], 'warcouncil.cli'))\n"
            "print(sorted(m for m in sys.modules if m in ('warcouncil.cli', '__main__')))\n")
    done = subprocess.run([sys.executable, "-c", code, job(QUERIES[0][0]), os.getcwd()],
                          capture_output=True, text=True, timeout=120)
    record, modules = done.stdout.splitlines()
    assert json.loads(record) == {"line": 1, **answers[0]}
    assert modules == "['__main__', 'warcouncil.cli']"
