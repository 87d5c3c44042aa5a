"""The referee service's workers: a bounded pool of processes forked from
the server (``batch.fork_worker``: the batch's workers, over the same
pipes), each running one request at a time (``work.handle``) while the
server's event loop waits for its answer without blocking.

Bounds: at most ``size`` requests run at once, at most ``queue`` more wait
for a worker (then ``Busy``: 503); a request that runs longer than
``timeout`` seconds has its worker killed (``TimedOut``: 504); a worker
may use ``memory`` bytes of address space more than it had when it
started (``RLIMIT_AS``: past it the request fails with ``MemoryError``,
503). A worker that was killed or died is replaced by a new one; so is one
that ran ``recycle`` requests (what a long-lived process keeps is bounded).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from collections import deque

from .. import batch


class Busy(Exception):
    """Every worker busy and the queue full."""


class TimedOut(Exception):
    """The request ran past the time allowed; its worker was killed."""


class Died(Exception):
    """The worker running the request ended without answering."""


class Worker:
    __slots__ = ("pid", "task_fd", "result_fd", "runs")

    def __init__(self, pid: int, task_fd: int, result_fd: int) -> None:
        self.pid, self.task_fd, self.result_fd, self.runs = pid, task_fd, result_fd, 0


class Pool:
    def __init__(self, group, size: int, queue: int, timeout: float, memory: int, recycle: int = 500) -> None:
        self.group = group  # the command line's verbs (click's group), which the workers run
        self.size, self.queue, self.timeout, self.memory, self.recycle = size, queue, timeout, memory, recycle
        self.workers: list[Worker] = []
        self.idle: list[Worker] = []
        self.waiting: deque[asyncio.Future] = deque()

    # ------------------------------------------------------------ the processes
    def start(self) -> None:
        from .work import prepare

        prepare()  # what every worker shares, loaded once here (copy on write)
        for _ in range(self.size):
            self.idle.append(self._fork())

    def _fork(self) -> Worker:
        from .work import serve

        memory, group = self.memory, self.group
        others = [fd for w in self.workers for fd in (w.task_fd, w.result_fd)]
        pid, task_fd, result_fd = batch.fork_worker(lambda t, r: serve(t, r, group, memory), others)
        os.set_blocking(result_fd, False)
        os.set_blocking(task_fd, False)
        w = Worker(pid, task_fd, result_fd)
        self.workers.append(w)
        return w

    def _end(self, w: Worker, kill: bool) -> None:
        """A worker ended (killed first when ``kill``), its pipes closed, waited for."""
        if kill:
            with contextlib.suppress(OSError):
                os.kill(w.pid, signal.SIGKILL)
        for fd in (w.task_fd, w.result_fd):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.waitpid(w.pid, 0)
        self.workers.remove(w)

    def close(self) -> None:
        """Every worker ended: its task pipe closed (it exits), then waited for."""
        for w in list(self.workers):
            self._end(w, kill=w not in self.idle)
        self.idle = []

    def pids(self) -> list[int]:
        return [w.pid for w in self.workers]

    # ------------------------------------------------------------ a request
    async def run(self, task: dict) -> dict:
        """``task`` run by a worker: its answer (``work.handle``'s)."""
        w = await self._acquire()
        keep = False
        try:
            answer = json.loads(await asyncio.wait_for(self._exchange(w, json.dumps(task).encode()), self.timeout))
            keep = not answer.get("end")
            return answer
        except asyncio.TimeoutError:
            raise TimedOut from None
        finally:
            self._release(w, keep)

    async def _acquire(self) -> Worker:
        if self.idle and not self.waiting:
            return self.idle.pop()
        if len(self.waiting) >= self.queue:
            raise Busy
        fut = asyncio.get_running_loop().create_future()
        self.waiting.append(fut)
        try:
            return await fut
        except asyncio.CancelledError:  # the client left while waiting: the worker (if given) goes on
            if fut.done() and not fut.cancelled():
                self._release(fut.result(), True)
            raise
        finally:
            with contextlib.suppress(ValueError):
                self.waiting.remove(fut)

    def _release(self, w: Worker, keep: bool) -> None:
        """``w`` done with its request: given to the next waiting one, or
        idle; replaced first when it is not to be kept (killed, dead, worn)."""
        w.runs += 1
        if not keep or w.runs >= self.recycle:
            self._end(w, kill=True)
            w = self._fork()
        while self.waiting:
            fut = self.waiting.popleft()
            if not fut.done():
                fut.set_result(w)
                return
        self.idle.append(w)

    @staticmethod
    async def _send(loop, fd: int, data: bytes) -> None:
        """``data`` written to a worker's task pipe without blocking the loop:
        at once if the pipe has room (a request is mostly a few KiB), else as
        the worker reads it (a request of up to a MiB fills the pipe)."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(fd, view):]
                continue
            except BlockingIOError:
                pass
            except OSError as e:  # (EPIPE) it ended since its last request
                raise Died(e.strerror or str(e)) from None
            room = loop.create_future()
            loop.add_writer(fd, lambda: room.done() or room.set_result(None))
            try:
                await room
            finally:
                loop.remove_writer(fd)

    async def _exchange(self, w: Worker, data: bytes) -> bytes:
        loop = asyncio.get_running_loop()
        await self._send(loop, w.task_fd, len(data).to_bytes(8, "little") + data)
        got = loop.create_future()
        buf = bytearray()

        def readable() -> None:
            try:
                data = os.read(w.result_fd, 1 << 16)
            except BlockingIOError:
                return
            except OSError as e:
                data = b""
                if not got.done():
                    got.set_exception(Died(str(e)))
            if not data:
                loop.remove_reader(w.result_fd)
                if not got.done():
                    got.set_exception(Died("the worker process ended"))
                return
            buf.extend(data)
            if len(buf) >= 8 and len(buf) - 8 >= int.from_bytes(buf[:8], "little"):
                loop.remove_reader(w.result_fd)
                if not got.done():
                    got.set_result(bytes(buf[8:]))

        loop.add_reader(w.result_fd, readable)
        try:
            return await got
        finally:
            loop.remove_reader(w.result_fd)
