"""The collector held back while an answer makes many objects that live as
long as it does.

Python collects its youngest generation every 700 new container objects.
An answer that makes thousands of them and keeps them to its end (a
Warmaster plan's branches: their logs, entries, tables and the judgements
kept by key) has them walked again at each of those collections, and the
survivors then walked in the older generations: ~2.3 ms of a 25 ms `odds`
answer, in 8 young and one middle collection an answer (bench/HISTORY.md,
"Ninth session"). Inside ``collecting_every(n)`` the youngest generation is
collected every ``n`` new objects instead (never more often than it was);
the threshold is put back when the outermost such block ends, whatever the
threads or errors. Cycles are still freed, later. As cli.py does for a
batch's jobs (``BATCH_GC_YOUNG``) and warcouncil/__init__.py while the
command line starts.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_HELD: list = []  # while held: [blocks open, the threshold from before]


@contextmanager
def collecting_every(young: int) -> Iterator[None]:
    """The youngest generation collected every ``young`` new objects (or as
    before, if that is rarer or the collector is off) while in the block."""
    with _LOCK:
        if not _HELD:
            before = gc.get_threshold()
            _HELD[:] = [0, before]
            if 0 < before[0] < young:
                gc.set_threshold(young, *before[1:])
        _HELD[0] += 1
    try:
        yield
    finally:
        with _LOCK:
            _HELD[0] -= 1
            if not _HELD[0]:
                gc.set_threshold(*_HELD[1])
                _HELD.clear()
