"""The runner of ``warcouncil batch JOBS.jsonl`` (the verb: cli.py's
``batch``, which imports this module only when it runs): many queries,
answered in parallel, one JSON record per input line, in input order
(issue 15). A job is run as the verb itself would run it (``--json``
added: click re-invoked with the job's arguments), in a worker process
(forked, over pipes; a process pool where there is no ``os.fork``; or on a
Ray cluster); a line that cannot be run gets its own error record and the
batch goes on. Jobs on the same rule files share one loaded pack, keyed by
the files' bytes (read again only when their stat changes)."""

from __future__ import annotations

import io
import itertools
import json
import os
import sys
from pathlib import Path

import click

from .errors import WarcouncilError

BATCH_LINE_LIMIT = 1024 * 1024  # bytes in one line of a jobs file
BATCH_CHUNK = 8  # lines sent to a worker at a time (fewer near the end: `_batch_chunks`)
_BATCH_KEYS = {"scenario", "verb", "args", "turn", "id"}
#: the verbs that are no job: they run the others (a batch, a service)
NOT_JOBS = frozenset({"batch", "serve", "lsp"})
_PACK_MEMO: dict = {}
_PACK_MEMO_SIZE = 16
# What a job's verb prints, caught: the same two buffers for every job, emptied after each. (A new
# buffer per job was kept by click, with the job's whole answer, for as long as the process ran:
# click.echo caches the stream it writes to in a WeakKeyDictionary whose value is that stream.)
_BATCH_STREAMS = (io.StringIO(), io.StringIO())


#: the verbs jobs run (the command line's click group) and the name of the
#: module that defines them, as ``run`` was given them: a worker forked from
#: the batch's process has them; one that was not (Ray's, a pool's where
#: there is no ``os.fork``) is sent the name and imports it (``_worker_chunk``)
_VERBS: list = [None, None]


def run(verbs: click.Group, module: str, jobs_file: str, workers: int | None, ray_address: str | None) -> None:
    """The ``batch`` verb: the records of JOBS_FILE's lines printed, a few
    lines at a time, each job run by the verb of ``verbs`` it names
    (``module``: where they are defined, by name)."""
    _VERBS[:] = [verbs, module]
    lines = _batch_lines(jobs_file)
    first = next(lines, None)  # an unreadable jobs file is bad input before anything runs
    if first is None:
        return
    lines = itertools.chain([first], lines)
    from .kernel.progress import progress, wanted

    # a bar on a terminal's stderr while the records go to a file or a pipe
    total = _count_lines(jobs_file) if wanted(streams=True) else None
    with progress("batch", total, streams=True) as step:
        done = 0
        for block in _batch_run(lines, workers, ray_address):
            click.echo(block)  # the records of a few lines, one a line
            done += block.count("\n") + 1
            step(done, None, f"batch: {done}{f'/{total}' if total else ''} lines answered")


def _count_lines(path: str) -> int | None:
    """The jobs of a jobs file (its non-blank lines), for the progress bar's
    estimate; None for standard input (read once)."""
    if path == "-":
        return None
    try:
        with open(path, "rb") as f:
            return sum(1 for raw in f if raw.strip())
    except OSError:
        return None


def _verbs() -> click.Group:
    return _VERBS[0]


def _worker_chunk(chunk, cwd: str, module: str) -> str:
    """``_batch_pool_chunk`` in a pool's worker, which imports the verbs'
    module by name if it was not forked from a process that has them."""
    _import_verbs(module)
    return _batch_pool_chunk(chunk, cwd)


def _ray_chunk(chunk, cwd: str, module: str) -> str:
    """``_batch_chunk`` in a Ray worker, the verbs' module imported by name."""
    _import_verbs(module)
    return _batch_chunk(chunk, cwd)


def _import_verbs(module: str) -> None:
    if _VERBS[0] is None:
        import importlib

        _VERBS[:] = [importlib.import_module(module).main, module]


def _batch_lines(path: str):
    """(line number, text or an error record) for each non-blank line."""
    if path == "-":
        stream = sys.stdin.buffer
    else:
        import stat

        try:
            st = os.stat(path)
        except OSError as e:
            raise WarcouncilError(f"cannot read jobs file {path}: {e.strerror or e}") from None
        if not stat.S_ISREG(st.st_mode):
            raise WarcouncilError(f"jobs file {path} is not a regular file")
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    try:
        n = 0
        while True:
            raw = stream.readline(BATCH_LINE_LIMIT + 1)
            if not raw:
                return
            n += 1
            if len(raw) > BATCH_LINE_LIMIT and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                    raw = stream.readline(BATCH_LINE_LIMIT)
                yield n, {"line": n, "error": f"line longer than {BATCH_LINE_LIMIT} bytes", "exit": 2}
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                yield n, {"line": n, "error": f"not UTF-8: {e.reason} at byte {e.start}", "exit": 2}
                continue
            if text.strip():
                yield n, text
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _batch_chunks(lines, width: int = 1, size: int = BATCH_CHUNK):
    """The lines in chunks of ``size``, read a few chunks ahead; once the
    end of the input is read, the lines left go in smaller chunks (about an
    eighth of them each, one line at the last), so that the workers run
    out of work together rather than one waiting on another's last chunk."""
    from collections import deque

    ahead: deque = deque()
    lines = iter(lines)
    ended = False
    while True:
        while not ended and len(ahead) < 2 * width * size:
            item = next(lines, None)
            if item is None:
                ended = True
            else:
                ahead.append(item)
        if not ahead:
            return
        n = size if not ended else max(1, min(size, len(ahead) // (4 * width)))
        yield [ahead.popleft() for _ in range(min(n, len(ahead)))]


def _batch_run(lines, workers: int | None, ray_address: str | None):
    """The records of every line, in input order: in this process (one
    worker), in a pool of processes, or on a Ray cluster; at most a few
    chunks per worker in flight, so a batch of any length runs in bounded
    memory."""
    cwd = os.getcwd()
    if ray_address is not None:
        runner = _batch_ray(ray_address, cwd)
        yield from _batch_stream(_batch_chunks(lines, runner.width), runner)
        return
    width = workers or os.cpu_count() or 1
    lines = iter(lines)
    head = list(itertools.islice(lines, width))  # never more workers than lines
    width = min(width, len(head))
    lines = itertools.chain(head, lines)
    if width <= 1:
        with _BatchGC():
            for chunk in _batch_chunks(lines):
                yield _batch_pool_chunk(chunk, cwd)
        return
    chunks = _batch_chunks(lines, width)
    first = next(chunks)
    chunks = itertools.chain([first], chunks)
    with _BatchGC():
        _batch_warm(first, cwd)
        # the workers, forked, start with the collector as set here
        runner = (_BatchForks if hasattr(os, "fork") else _BatchPool)(width, cwd)
        yield from _batch_stream(chunks, runner)


def _batch_stream(chunks, runner):
    from collections import deque

    pending: deque = deque()  # (chunk, handle), in input order
    try:
        for chunk in chunks:
            pending.append((chunk, runner.submit(chunk)))
            if len(pending) >= 4 * runner.width:
                yield runner.result(pending)
        while pending:
            yield runner.result(pending)
    finally:
        runner.close()


BATCH_GC_YOUNG = 5_000  # new objects between two collections of the youngest generation (Python: 700)


class _BatchGC:
    """The collector while a batch runs here and in its workers (forked:
    they start with this setting). A job makes thousands of objects that
    live as long as it does: collected every 700 new objects, they were
    walked several times each and, moved to the oldest generation, made
    its walks longer as the batch went on. The youngest generation is now
    collected every ``BATCH_GC_YOUNG`` new objects (a job's cycles are still
    freed, ~1 MB later; 20 000 took ~5 MB more at the peak and was no
    faster on the clock: bench/HISTORY.md, "Seventh session — batch"), and
    what a process's first chunk leaves (the pack, its plan, the rules
    compiled) is frozen out of
    the walks (``_batch_pool_chunk``). The threshold is put back when the batch ends;
    what was frozen stays frozen: the process normally ends with the batch,
    and the interpreter's last collections as it exits then leave it alone
    (callgrind, 369 jobs, 2 workers: the batch process's exit took 51 M
    instructions with the heap unfrozen, 13 M frozen)."""

    def __enter__(self):
        import gc

        self.threshold = gc.get_threshold()
        gc.set_threshold(max(BATCH_GC_YOUNG, self.threshold[0]), *self.threshold[1:])
        _BATCH_FROZEN.clear()
        return self

    def __exit__(self, *exc):
        import gc

        gc.set_threshold(*self.threshold)
        _BATCH_FROZEN.clear()
        return False


_BATCH_FROZEN: list = []  # the process whose first chunk's objects are frozen


def _batch_pool_chunk(chunk, cwd: str) -> str:
    """``_batch_chunk`` in this process or a worker of the pool; after the
    first chunk a process runs, what it kept (the pack, its plan, the rules
    its jobs compiled) is left out of the collector's walks."""
    out = _batch_chunk(chunk, cwd)
    if _BATCH_FROZEN != [os.getpid()]:
        import gc

        gc.freeze()
        _BATCH_FROZEN[:] = [os.getpid()]
    return out


def _batch_warm(chunk, cwd: str) -> None:
    """Before the workers are forked: the packs of the first jobs read and
    planned here, once, so that every worker starts with them (copy on
    write) instead of each reading and planning its own; then the collector
    told to leave what is there alone (``gc.freeze``), so that it does not
    touch, and so copy, the shared pages in every worker. The rules are not
    compiled here: each worker compiles the ones its jobs ask for, in
    parallel, where compiling all of them here was serial work that the
    jobs mostly did not need (bench_batch.py: the batch process's own CPU
    0.22 -> 0.19 s; the speed-up itself moved within the benchmark's noise).
    Only a head start: whatever fails here is left for the job itself to
    report."""
    import gc

    from .kernel.engine import Engine

    if os.getcwd() != cwd:  # pragma: no cover - the batch runs where it was started
        return
    seen = set()
    with _BatchSharedPacks():
        for _, item in chunk:
            try:
                job = json.loads(item)
                rules = job.get("args", {}).get("rules", [])
                key = (job["scenario"], tuple([rules] if isinstance(rules, str) else rules))
                if key in seen or not isinstance(key[0], str) or not all(isinstance(r, str) for r in key[1]):
                    continue
                seen.add(key)
                Engine.load(*key)
            except Exception:  # noqa: BLE001 - bad input or a bug: the job's own record says which
                continue
    gc.freeze()


def _batch_died(chunk, why: str) -> str:
    return "\n".join(_batch_json({"line": n, "error": f"the worker running this line stopped: {why}", "exit": 3})
                     for n, _ in chunk)


class _BatchPool:
    """Worker processes on this machine, by multiprocessing (where there is
    no ``os.fork``; elsewhere ``_BatchForks``). A worker that dies (killed, out of
    memory, a crash below Python) takes the pool and the chunks in flight
    with it: the pool is made again, the chunk waited for is run again a
    line at a time (the line that kills its worker again gets an error
    record, exit 3) and the other chunks are sent again."""

    def __init__(self, width: int, cwd: str):
        from .kernel import engine  # noqa: F401 - imported once here: forked workers start with it

        self.width, self.cwd = width, cwd
        self._new()

    def _new(self):
        from concurrent.futures import ProcessPoolExecutor

        self.pool = ProcessPoolExecutor(max_workers=self.width)

    def submit(self, chunk):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self.pool.submit(_worker_chunk, chunk, self.cwd, _VERBS[1])
        except BrokenProcessPool as e:
            # a worker died since the last chunk was sent: this chunk is sent
            # again, with the others in flight, when ``result`` reaches it
            # (or the chunk before it) and makes the pool anew
            lost: Future = Future()
            lost.set_exception(e)
            return lost

    def result(self, pending) -> str:
        from concurrent.futures.process import BrokenProcessPool

        chunk, fut = pending.popleft()
        try:
            return fut.result()
        except BrokenProcessPool:
            pass
        self.close()
        self._new()
        rest = [c for c, _ in pending]
        pending.clear()
        out = []
        for item in chunk:  # alone, one at a time: only the line that kills a worker fails
            try:
                out.append(self.submit([item]).result())
            except BrokenProcessPool as e:
                out.append(_batch_died([item], str(e) or "a worker process ended abruptly"))
                self.close()
                self._new()
        pending.extend((c, self.submit(c)) for c in rest)
        return "\n".join(out)

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class _BatchForks:
    """Worker processes forked from this one (POSIX), each given one chunk
    at a time through a pipe and answering through another: what
    ``_BatchPool`` does, without multiprocessing (its imports, ~20-30 ms,
    were in the batch process's serial start, and its threads' work and
    teardown in the batch process's CPU besides). Messages are an 8-byte
    length and JSON (a chunk) or UTF-8 (its records). A worker that dies
    (killed, out of memory, a crash below Python: its pipe ends) loses only
    its own chunk: that chunk is run again a line at a time, in new
    workers, and the line that kills its worker again gets an error record
    (exit 3); the other workers go on."""

    def __init__(self, width: int, cwd: str):
        from collections import deque

        from .kernel import engine  # noqa: F401 - imported once here: forked workers start with it

        self.width, self.cwd = width, cwd
        self.workers: list = []  # [pid, task fd, result fd, the job it runs or None, bytes read]
        self.queue: deque = deque()  # jobs not yet sent: [chunk, records or None, alone]
        try:
            for _ in range(width):
                self.workers.append(self._fork())
        except OSError as e:  # out of processes, file descriptors, memory: the ones started are ended
            self.close()
            raise WarcouncilError(f"cannot start {width} worker processes: {e.strerror or e}",
                                  hint="run fewer with --jobs N") from None

    def _fork(self) -> list:
        others = [fd for w in self.workers for fd in w[1:3]]  # the other workers' pipes: theirs to end
        pid, task_w, res_r = fork_worker(lambda task_r, res_w: _batch_serve(task_r, res_w, self.cwd), others)
        return [pid, task_w, res_r, None, bytearray()]

    def submit(self, chunk):
        job = [chunk, None, False]
        self.queue.append(job)
        self._send()
        return job

    def _send(self) -> None:
        """Idle workers given the next jobs (one each: a worker reads its
        whole chunk before it writes anything, so neither side waits on
        the other's full pipe)."""
        while self.queue:
            w = next((w for w in self.workers if w[3] is None), None)
            if w is None:
                return
            job = w[3] = self.queue.popleft()
            data = json.dumps(job[0]).encode()
            try:
                _write_all(w[1], len(data).to_bytes(8, "little") + data)
            except OSError:  # (EPIPE) it died since its last chunk
                self._died(w)

    def result(self, pending) -> str:
        import select

        chunk, job = pending.popleft()
        while job[1] is None:
            self._send()
            busy = {w[2]: w for w in self.workers if w[3] is not None}  # (the job is in one, or waits for one)
            ready, _, _ = select.select(list(busy), [], [])
            for fd in ready:
                w = busy[fd]
                data = os.read(fd, 1 << 16)
                if not data:
                    self._died(w)
                    continue
                buf = w[4]
                buf += data
                if len(buf) >= 8 and len(buf) - 8 >= int.from_bytes(buf[:8], "little"):
                    done, w[3] = w[3], None
                    done[1] = buf[8:].decode()
                    del buf[:]
                    self._finish(done)
        return job[1]

    def _finish(self, job) -> None:
        parent = job[2]
        if isinstance(parent, list):  # one line of a chunk run again alone: [chunk's job, records, lines' jobs]
            parent[1][next(i for i, x in enumerate(parent[2]) if x is job)] = job[1]
            if all(r is not None for r in parent[1]):
                parent[0][1] = "\n".join(parent[1])

    def _died(self, w) -> None:
        """A worker ended: its job run again a line at a time (a line alone
        that kills its worker: an error record), a new worker in its place."""
        import contextlib

        for fd in w[1:3]:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.waitpid(w[0], 0)
        job = w[3]
        self.workers.remove(w)  # (before the fork: its fds' numbers may be the new pipes')
        self.workers.append(self._fork())
        if job is None:
            return
        if job[2] is not False:  # already alone
            job[1] = _batch_died(job[0], "a worker process ended abruptly")
            self._finish(job)
            return
        singles = [[[item], None, None] for item in job[0]]
        group = [job, [None] * len(singles), singles]
        for one in singles:
            one[2] = group
        self.queue.extendleft(reversed(singles))

    def close(self) -> None:
        import contextlib

        for w in self.workers:
            with contextlib.suppress(OSError):
                os.close(w[1])  # the worker reads the end and exits
        for w in self.workers:
            with contextlib.suppress(OSError):
                os.close(w[2])
            if w[3] is not None:  # stopped early (an error here): not waited for
                with contextlib.suppress(OSError):
                    os.kill(w[0], 15)
            with contextlib.suppress(OSError):
                os.waitpid(w[0], 0)
        self.workers = []


def fork_worker(work, close=()) -> tuple[int, int, int]:
    """A worker process forked from this one, talking over two pipes: (its
    pid, the fd its tasks are written to, the fd its answers are read
    from). The worker closes the fds ``close`` (what it must not hold) and
    runs ``work(task_fd, result_fd)``; when that returns it exits 0, when it
    raises 1. A message either way is an 8-byte length and its bytes
    (``_write_all``, ``_read_message``). The batch's workers are these, and
    so are the referee service's (warcouncil/serve/pool.py)."""
    sys.stdout.flush()
    sys.stderr.flush()
    fds: list[int] = []
    try:
        fds += os.pipe()
        fds += os.pipe()
        pid = os.fork()
    except OSError:
        for fd in fds:
            os.close(fd)
        raise
    task_r, task_w, res_r, res_w = fds
    if pid == 0:  # pragma: no cover - the worker (its lines are counted in the batch's tests' answers)
        code = 1
        try:
            os.close(task_w)
            os.close(res_r)
            for fd in close:
                os.close(fd)
            work(task_r, res_w)
            code = 0
        finally:
            os._exit(code)
    os.close(task_r)
    os.close(res_w)
    return pid, task_w, res_r


def _read_message(stream) -> bytes | None:
    """One message (an 8-byte length and its bytes) from a binary stream, or None at its end."""
    head = stream.read(8)
    if len(head) < 8:
        return None
    return stream.read(int.from_bytes(head, "little"))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _batch_serve(task_fd: int, result_fd: int, cwd: str) -> None:
    """A forked worker: chunks read from ``task_fd`` until it ends, each
    chunk's records written to ``result_fd``."""
    with os.fdopen(task_fd, "rb") as tasks:
        while (message := _read_message(tasks)) is not None:
            chunk = [tuple(item) for item in json.loads(message)]
            out = _batch_pool_chunk(chunk, cwd).encode()
            _write_all(result_fd, len(out).to_bytes(8, "little") + out)


def _batch_ray(address: str, cwd: str):
    """A runner (width, submit, result, close) on a Ray cluster."""
    try:
        import ray
    except ImportError:
        raise WarcouncilError("--ray needs Ray, an optional extra", hint="pip install 'warcouncil[ray]'") from None
    try:
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
                 log_to_driver=False, logging_level="ERROR")
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise WarcouncilError(f"cannot reach the Ray cluster at {address}: {e}") from None
    remote = ray.remote(_ray_chunk)  # this module's, by its name: what Ray's workers import

    class Runner:
        width = max(1, int(ray.cluster_resources().get("CPU", 1)))

        @staticmethod
        def submit(chunk):
            return remote.remote(chunk, cwd, _VERBS[1])

        @staticmethod
        def result(pending):
            chunk, ref = pending.popleft()
            try:
                return ray.get(ref)
            except ray.exceptions.RayError as e:  # a worker or node lost (Ray has retried the task)
                return _batch_died(chunk, type(e).__name__)

        @staticmethod
        def close():
            pass

    return Runner


def _batch_chunk(chunk, cwd: str) -> str:
    """Run a few lines (in a worker): their records, in order, as JSON
    lines joined into one text (made here, in parallel: the process that
    prints them only writes it)."""
    if os.getcwd() != cwd:
        os.chdir(cwd)  # paths in jobs are relative to where the batch was started
    out = []
    with _BatchSharedPacks():
        for n, item in chunk:
            out.append(_batch_json(item) if isinstance(item, dict) else _batch_one(n, item))
    return "\n".join(out)


class _BatchSharedPacks:
    """While a worker runs jobs, jobs on the same rule files share one
    loaded pack and its plan (the rules as compiled, kept with the pack):
    ``Engine.load`` reads the pack through a memo keyed by the pack, its
    house-rule layers and the bytes of their files. Every job still reads
    its scenario and grounds its query afresh."""

    def __enter__(self):
        from .kernel import engine

        self._module, self._real = engine, engine.load_pack
        if getattr(self._real, "_batch_memo", False):
            self._module = None  # already shared (a nested call)
            return self

        def load(target, layers=(), *, strict=True):
            key = _batch_pack_key(target, layers, strict)
            hit = _PACK_MEMO.get(key) if key is not None else None
            if hit is not None:
                return hit[0]
            pack = self._real(target, layers, strict=strict)
            if key is not None:
                from .solver.plan import plan_for

                while len(_PACK_MEMO) >= _PACK_MEMO_SIZE:
                    _PACK_MEMO.pop(next(iter(_PACK_MEMO)))
                # the pack's plan kept with it (``plan_for`` holds a plan only while
                # something else does): its rules compiled once, not once per job
                # (what a job keeps of its own scenario is kept with its setting, not the plan's
                # compiler: the plan's memos stay as they are however many jobs read it;
                # test_batch_memo.py)
                _PACK_MEMO[key] = (pack, plan_for(pack))
            return pack

        load._batch_memo = True
        engine.load_pack = load
        return self

    def __exit__(self, *exc):
        if self._module is not None:
            self._module.load_pack = self._real
        return False


def _batch_pack_key(target, layers, strict):
    """What a loaded pack depends on: the files of the pack and of each
    layer, by content. None (no sharing) if a file cannot be read."""
    parts = []
    try:
        for t in [target, *layers]:
            files = [Path(f) for f in t] if isinstance(t, list) else _batch_pack_files(t)
            parts.append(tuple(_batch_file_key(f) for f in files))
    except (OSError, WarcouncilError):
        return None
    return (tuple(parts), strict)


_FILE_KEYS: dict = {}  # (file or pack as named, the folder it is named from) -> (stat, key or files)
_FILE_KEYS_SIZE = 1024


def _batch_stat(path) -> tuple | None:
    try:
        return _stat_key(os.stat(path))
    except (OSError, ValueError):
        return None


def _stat_key(st) -> tuple:
    """What of a file's stat says its bytes are unchanged: mode, device, inode, size, times in ns."""
    return (st.st_mode, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _batch_pack_files(target) -> list[Path]:
    """``pack_files(target)``, looked up again only when what it reads
    changes: the stat of ``target`` and of the shipped pack of that name
    (a folder's times change when a file is added, removed or renamed)."""
    from .dsl.pack import PACKS_DIR, pack_files

    name = ("pack", str(target), os.getcwd())
    seen = (_batch_stat(target), _batch_stat(PACKS_DIR / str(target)))
    hit = _FILE_KEYS.get(name)
    if hit is not None and hit[0] == seen:
        return hit[1]
    files = pack_files(target)
    _batch_keep(name, seen, files)
    return files


def _batch_keep(name, seen, value) -> None:
    if len(_FILE_KEYS) >= _FILE_KEYS_SIZE:
        _FILE_KEYS.pop(next(iter(_FILE_KEYS)))
    _FILE_KEYS[name] = (seen, value)


def _batch_file_key(f: Path) -> tuple[str, str]:
    """A rule file by content: (its path resolved, the SHA-256 of its bytes).
    Read and hashed again only when the file's stat changes (device, inode,
    size, modification and change times in ns), not for every job: a job
    took ~1 ms to resolve and hash the six files of the C&C pack."""
    import hashlib

    name = ("file", str(f), None if f.is_absolute() else os.getcwd())
    hit = _FILE_KEYS.get(name)
    if hit is not None and hit[0] == _batch_stat(f):
        return hit[1]
    with open(f, "rb") as stream:
        st = os.fstat(stream.fileno())  # the stat of the bytes read, should the file change meanwhile
        key = (str(f.resolve()), hashlib.sha256(stream.read()).hexdigest())
    _batch_keep(name, _stat_key(st), key)
    return key


def forget(folder: str) -> None:
    """Drop what the memos keep of the files in ``folder`` and of names
    looked up from it: a folder the referee service made for one request
    (warcouncil/serve/work.py), never asked for again."""
    real = os.path.realpath(folder)
    inside = real + os.sep
    for key in [k for k in _FILE_KEYS if k[2] == folder or k[1].startswith((inside, folder + os.sep))]:
        del _FILE_KEYS[key]
    for key in [k for k in _PACK_MEMO if any(path.startswith(inside) for part in k[0] for path, _ in part)]:
        del _PACK_MEMO[key]


def _batch_json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def _batch_one(n: int, text: str) -> str:
    """One line's record, a JSON line."""
    try:
        job = json.loads(text)
    except ValueError as e:
        return _batch_json({"line": n, "error": f"not JSON: {e}", "exit": 2})
    except RecursionError:
        return _batch_json({"line": n, "error": "not JSON: nested too deeply", "exit": 2})
    record = {"line": n}
    if isinstance(job, dict) and "id" in job:
        record["id"] = job["id"]
    try:
        verb, argv, inline = _batch_argv(job, n)
    except WarcouncilError as e:
        return _batch_json({**record, "error": str(e), "exit": 2})
    try:
        code, answer, error = _batch_invoke(verb, argv)
    finally:
        if inline is not None:
            inline.remove()
    if error is not None:
        return _batch_json({**record, "error": inline.named(error) if inline is not None else error, "exit": code})
    if isinstance(answer, _VerbJson):  # the verb's own JSON line, spliced in as it is
        return _batch_json({**record, "exit": code})[:-1] + ', "answer": ' + answer + "}"
    return _batch_json({**record, "exit": code, "answer": answer})


class _VerbJson(str):
    """A verb's answer as the one line of JSON it printed (cli.py's ``_json``)."""


#: the verbs that answer no query: the runner itself, the language server (a session with an editor)


def _batch_argv(job, n: int):
    """(verb, the verb's arguments, its inline turn or None) for a job; bad
    input raises."""
    if not isinstance(job, dict):
        raise WarcouncilError("a job is a JSON object: {\"scenario\": ..., \"verb\": ..., \"args\": {...}}")
    unknown = sorted(set(job) - _BATCH_KEYS)
    if unknown:
        raise WarcouncilError(f"unknown key {unknown[0]!r} in a job", hint="a job has: " + ", ".join(sorted(_BATCH_KEYS)))
    verb = job.get("verb", "check" if "turn" in job else None)
    if not isinstance(verb, str):
        raise WarcouncilError("a job names its verb: \"verb\": \"orders\" (or gives a \"turn\" to check)")
    cmd = _verbs().commands.get(verb)
    if cmd is None or verb in NOT_JOBS:
        from .errors import closest

        verbs = sorted(v for v in _verbs().commands if v not in NOT_JOBS)
        hint = closest(verb, verbs)
        raise WarcouncilError(f"unknown verb {verb!r}", hint=f"did you mean {hint[0]!r}?" if hint else
                              "verbs: " + ", ".join(verbs))
    args = job.get("args", {})
    if not isinstance(args, dict):
        raise WarcouncilError("\"args\" is a JSON object of the verb's options, e.g. {\"card\": \"Line Command\"}")
    args = dict(args)
    if "turn" in job:
        if "turn" in args:
            raise WarcouncilError("the turn is given twice (\"turn\" and \"args\": {\"turn\"})")
        args["turn"] = job["turn"]
    cmd = _verbs().get_command(None, verb)  # with the options the game families add to it (cli._family_options)
    written = None  # an inline turn and its place among the arguments
    options: list[str] = []
    positional: list[str] = []
    by_name = {}
    for p in cmd.params:
        if isinstance(p, click.Option):
            for o in p.opts:
                by_name[o.lstrip("-")] = p
                by_name[o.lstrip("-").replace("-", "_")] = p
            by_name[p.name] = p
    for p in cmd.params:
        if not isinstance(p, click.Argument):
            continue
        if p.name == "scenario":
            value = job.get("scenario")
            if not isinstance(value, str):
                raise WarcouncilError(f"`{verb}` needs the scenario: \"scenario\": \"FILE\"")
        else:
            names = [p.name] + ([p.metavar.lower()] if p.metavar else [])
            given = [k for k in names if k in args]
            if not given:
                if p.required:
                    raise WarcouncilError(f"`{verb}` needs \"{p.name}\" in \"args\"")
                continue
            value = args.pop(given[0])
            if p.name == "turn" and isinstance(value, dict):  # a turn written inline: its file made last,
                written, value = (value, len(positional)), ""  # once nothing else can be refused
        if p.nargs == -1:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise WarcouncilError(f"\"{p.name}\" is a list of strings")
            positional += value
        elif isinstance(value, str):
            positional.append(value)
        else:
            raise WarcouncilError(f"\"{p.name}\" is a string (a file name)")
    if "scenario" in job and not any(isinstance(p, click.Argument) and p.name == "scenario" for p in cmd.params):
        raise WarcouncilError(f"`{verb}` takes no scenario")
    for key, value in args.items():
        p = by_name.get(key)
        if p is None:
            opts = sorted({q.opts[0].lstrip("-") for q in by_name.values() if q.name != "as_json"})
            raise WarcouncilError(f"`{verb}` has no option {key!r}", hint="its options: " + ", ".join(opts))
        if p.name == "as_json":
            continue  # always JSON
        opt = p.opts[0]
        if p.is_flag:
            if not isinstance(value, bool):
                raise WarcouncilError(f"{key!r} is true or false")
            if value:
                options.append(opt)
        elif value is None:
            continue
        elif p.multiple:
            for v in value if isinstance(value, list) else [value]:
                if not isinstance(v, (str, int)) or isinstance(v, bool):
                    raise WarcouncilError(f"{key!r} takes strings")
                options.append(f"{opt}={v}")
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            options.append(f"{opt}={value}")
        else:
            raise WarcouncilError(f"{key!r} takes one value (a string or a number)")
    if any(p.name == "as_json" for p in cmd.params):
        options.append("--json")
    inline = None
    if written is not None:
        inline = _InlineTurn(written[0], n)
        positional[written[1]] = inline.path
    return verb, options + ["--"] + positional, inline


class _InlineTurn:
    """A turn given inline, written as the file ``check`` reads (JSON is
    YAML, on one line) under a scratch name; its messages name the job's line
    instead (``<line 3: turn>:1:44: ...``), so that a batch's output is the
    same every time."""

    def __init__(self, turn: dict, n: int):
        import tempfile

        fd, self.path = tempfile.mkstemp(prefix=f"warcouncil-line{n}-", suffix=".turn.yaml")
        self.name = f"<line {n}: turn>"
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(turn, f)

    def named(self, message: str) -> str:
        return message.replace(self.path, self.name)

    def remove(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _batch_invoke(verb: str, argv: list[str]):
    """Run one verb as the command line would: (exit code, the JSON answer,
    None) or (exit code, None, the message)."""
    import contextlib

    from .kernel.progress import shown

    cmd = _verbs().get_command(None, verb)
    buf, err = _BATCH_STREAMS
    code = 0
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err), shown(False):  # (no job's bar)
            with cmd.make_context(verb, argv) as ctx:
                cmd.invoke(ctx)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.exceptions.Exit as e:
        code = e.exit_code
    except WarcouncilError as e:
        return 2, None, str(e)
    except click.ClickException as e:
        return 2, None, e.format_message()
    except RecursionError:
        return 2, None, "input nested too deeply"
    except Exception as e:  # a bug, not bad input
        if os.environ.get("WARCOUNCIL_DEBUG"):
            raise
        return 3, None, f"internal error (a bug in warcouncil): {e!r}"
    finally:
        text = buf.getvalue().strip()
        for stream in _BATCH_STREAMS:  # emptied for the next job
            stream.seek(0)
            stream.truncate()
    if not text:
        return code, None, None
    if text[0] == "{" and "\n" not in text:  # one JSON document, as cli.py's ``_json`` writes it
        return code, _VerbJson(text), None
    try:
        return code, json.loads(text), None
    except ValueError:
        return code, text, None
