"""A real ``warcouncil serve`` process for the service's tests
(tests/test_serve_api.py, tests/test_serve_load.py): started on a free port
of the loopback, waited for, stopped."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

for _module in ("fastapi", "uvicorn", "httpx"):
    pytest.importorskip(_module, reason=f"the referee service's tests need {_module} "
                                        "(the optional extra serve: pip install -e '.[serve]')")

import httpx  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(cwd, *options: str, wait: float = 90.0, env: dict | None = None):
    """``warcouncil serve`` started in ``cwd`` with ``options`` (and the
    environment variables ``env``): its base URL and process, while it runs."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    log = open(Path(cwd) / "server.log", "w+", encoding="utf-8")  # (a pipe nobody reads could fill and stop it)
    proc = subprocess.Popen([sys.executable, "-m", "warcouncil", "serve", "--port", str(port), *options],
                            cwd=cwd, env=env, stdout=log, stderr=log, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + wait
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise AssertionError(f"warcouncil serve ended: {log.read()}")
            try:
                if httpx.get(url + "/api/scenarios", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("warcouncil serve did not answer in time")
            time.sleep(0.2)
        yield url, proc
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        log.close()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (its workers)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def open_sockets(pid: int) -> list[str]:
    """The sockets a process holds open."""
    out = []
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:"):
            out.append(f"{fd.name} -> {target}")
    return out


def rss(pid: int) -> int:
    """A process's resident memory, in bytes (pages shared with others counted whole)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def pss(pid: int) -> int:
    """A process's share of the memory it uses, in bytes: its resident pages, each page shared with
    other processes (a worker's with the server it was forked from) counted as its share
    (/proc/PID/smaps_rollup's Pss)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0
