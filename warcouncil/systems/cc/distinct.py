"""Counting distinct keys in bounded memory (``turns --count``).

The same end position can be reached from many order sets, so counting
distinct positions needs to remember which were seen: a set of 11 million
positions held 5 GB. ``DistinctCounter`` keeps at most ``max_in_memory``
keys (bytes) in a set; when it is full it writes them, sorted, to a
temporary file (a "run") and starts again; the count is then the number of
distinct keys in the merge of the sorted runs (``heapq.merge``), read a
record at a time. Memory is one set of ``max_in_memory`` keys and one
record per run, whatever the count; the disk holds each distinct key about
once per run it falls in. Runs are deleted when the count is taken (or on
``close``).
"""

from __future__ import annotations

import heapq
import struct
import tempfile
from typing import BinaryIO, Iterator

MAX_IN_MEMORY = 500_000  # keys: ~35-50 MB for the short keys of end positions
_LEN = struct.Struct(">I")


class DistinctCounter:
    def __init__(self, max_in_memory: int = MAX_IN_MEMORY, tmpdir: str | None = None):
        self.max_in_memory = max(1, max_in_memory)
        self.tmpdir = tmpdir
        self.seen: set[bytes] = set()
        self.runs: list[BinaryIO] = []
        self.added = 0

    def add(self, key: bytes) -> None:
        self.added += 1
        seen = self.seen
        seen.add(key)
        if len(seen) >= self.max_in_memory:
            self._spill()

    def _spill(self) -> None:
        f = tempfile.TemporaryFile(prefix="warcouncil-distinct-", dir=self.tmpdir)  # deleted when closed
        pack = _LEN.pack
        buf = bytearray()
        for key in sorted(self.seen):
            buf += pack(len(key))
            buf += key
            if len(buf) > 1 << 20:
                f.write(buf)
                buf.clear()
        f.write(buf)
        f.seek(0)
        self.runs.append(f)
        self.seen = set()

    def count(self) -> int:
        """The number of distinct keys added (the runs are used up)."""
        if not self.runs:
            return len(self.seen)
        if self.seen:
            self._spill()
        n = 0
        last = None
        try:
            for key in heapq.merge(*(_records(f) for f in self.runs)):
                if key != last:
                    n += 1
                    last = key
        finally:
            self.close()
        return n

    def close(self) -> None:
        for f in self.runs:
            f.close()
        self.runs = []
        self.seen = set()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _records(f: BinaryIO) -> Iterator[bytes]:
    read = f.read
    size = _LEN.size
    unpack = _LEN.unpack
    while True:
        head = read(size)
        if len(head) < size:
            return
        (n,) = unpack(head)
        yield read(n)


def position_key(end: dict) -> bytes:
    """An end position ({piece: (col, row)}) as a short canonical key."""
    flat = []
    for p, c in sorted(end.items(), key=lambda kv: kv[0].rank):
        flat += (p.rank, c[0], c[1])
    return struct.pack(f">{len(flat)}H", *flat)
