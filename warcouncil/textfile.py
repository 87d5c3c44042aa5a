"""Reading a user's text file with a bound: regular files only, up to a size.

Every file warcouncil reads on a user's behalf (scenarios, turn files, rule
files, the documents rule files cite) comes through :func:`read_text`, so
that ``/dev/zero``, a FIFO, a folder or a 10 GB file is a clear
``WarcouncilError`` (exit 2) rather than a read that never ends. The file is
never read past its limit, whatever ``stat`` said about its size (a file may
grow while it is read, and ``/proc`` files report size 0).

This module sits at the bottom of the layers, beside ``warcouncil.errors``:
the language (``dsl``) and the kernel (``kernel``, ``world``) both use it.
"""

from __future__ import annotations

import os
import stat

from .errors import Location, WarcouncilError

KIB = 1024
MIB = 1024 * KIB

# A scenario or turn file is a few kilobytes (the shipped ones are under
# 3 KiB); 1 MiB leaves room for big hand-written boards and stays far below
# what the YAML loader could turn into gigabytes.
YAML_LIMIT = 1 * MIB
# A rule file: the shipped packs' largest is ~40 KiB.
RULES_LIMIT = 1 * MIB
# A document a rule file cites (a rulebook chapter in Markdown/text): the
# shipped sources are each under 100 KiB; a whole rulebook fits in 8 MiB.
DOCUMENT_LIMIT = 8 * MIB


def _size(n: int) -> str:
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= KIB and n % KIB == 0:
        return f"{n // KIB} KiB"
    return f"{n:,} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """At most ``limit`` bytes of a regular file; anything else is bad input.

    ``what`` names the file in messages ("scenario file", "rule file").
    """
    file = os.fspath(path)
    loc = Location(file)
    try:
        st = os.stat(file)
    except OSError as e:
        raise WarcouncilError(f"cannot read {what}: {e.strerror or e}", loc) from None
    except ValueError as e:  # an embedded NUL in the path
        raise WarcouncilError(f"cannot read {what}: {e}", loc) from None
    if not stat.S_ISREG(st.st_mode):
        raise WarcouncilError(f"cannot read {what}: it is {_kind(st.st_mode)}, not a regular file", loc)
    if st.st_size > limit:
        raise WarcouncilError(
            f"{what} is too large: {st.st_size:,} bytes, the limit is {_size(limit)}", loc
        )
    try:
        # O_NONBLOCK: if the path was swapped for a FIFO after the stat,
        # opening it must not wait for a writer.
        fd = os.open(file, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise WarcouncilError(f"cannot read {what}: {e.strerror or e}", loc) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise WarcouncilError(f"cannot read {what}: not a regular file", loc)
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(limit + 1 - got, 1 * MIB))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
    except OSError as e:
        raise WarcouncilError(f"cannot read {what}: {e.strerror or e}", loc) from None
    finally:
        os.close(fd)
    if got > limit:
        raise WarcouncilError(f"{what} is too large: more than {_size(limit)}, the limit", loc)
    return b"".join(chunks)


def decode(data: bytes, file: str, what: str = "file") -> str:
    """UTF-8 text (a leading byte-order mark dropped); other bytes are bad
    input, reported with the line and the byte offset."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = e.start
        line = data[:start].count(b"\n") + 1
        col = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise WarcouncilError(
            f"{what} is not UTF-8 text: byte 0x{data[start]:02x} at offset {start} cannot be decoded",
            Location(file, line, col),
            hint="save the file as UTF-8",
        ) from None


def read_text(path: str | os.PathLike[str], limit: int, what: str = "file") -> str:
    """A regular file's UTF-8 text, at most ``limit`` bytes of it."""
    file = os.fspath(path)
    return decode(read_bytes(file, limit, what), file, what)
