"""YAML documents as values that remember where they came from, and a cache
of them.

``YDict`` / ``YList`` are what ``scenario.parse_yaml`` gives (built by
``world/yamlread.py`` with PyYAML). A document that parsed is also kept
as JSON data in ``<cache>/warcouncil/yaml-v<FORMAT>/<key>.json`` (the cache
of ``dsl/packcache.py``: same folder, same switch ``WARCOUNCIL_CACHE=off``,
same entry format with its own SHA-256), keyed by the SHA-256 of the text
and of the code that reads it (this module, ``yamlread.py`` and PyYAML's
version, resolver and constructor): a process that finds its scenario there
imports no PyYAML at all (issue 15: ~15 ms of a short command's start-up).

An entry is data only: mappings, lists, strings, numbers, booleans, None and
[line, column] pairs, read with ``json.loads``; nothing in it is imported,
evaluated or unpickled. Only documents made of those are cached (a date,
bytes, a NaN or a value shared through a YAML alias is parsed every time);
a document that does not parse is never cached (its error is the parser's,
every time), nor is one whose entry would be larger than its text allows
(``packcache.entry_limit``: e.g. a long string named by many aliases). A
stale or corrupt entry, or anything else in its place (a FIFO, a link to a
device, a file too large), is a miss: parsed, and written again.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..dsl.packcache import BadEntry, cache_dir, entry_limit, files_stamp, load_entry, sha256, store_entry
from ..errors import Location
from ..textfile import YAML_LIMIT

FORMAT = 1

class YDict(dict):
    """A YAML mapping that remembers where it, its keys and its values were."""

    where: Location
    key_where: dict[Any, Location]
    value_where: dict[Any, Location]


class YList(list):
    """A YAML sequence that remembers where it and its items were."""

    where: Location
    item_where: list[Location]


# Bounds on a YAML document, checked while it is composed -- before anything
# is built from it. A scenario nests about 5 deep and has a few hundred
# nodes; the bounds are far above that and far below what would hurt.
MAX_YAML_DEPTH = 64
# Nodes counted with every alias expanded (an alias counts as a copy of what
# it names), so an alias bomb ("billion laughs") stops at this many.
MAX_YAML_NODES = 100_000
# The bytes (UTF-8) of the document's keys and values, counted the same way:
# a few aliases of one long string are few values but much text (5,000
# aliases of a 60 KB string: 300 MB). A file without aliases holds at most
# its own size (``textfile.YAML_LIMIT``, 1 MiB); aliases may take it to four.
MAX_YAML_TEXT = 4 * YAML_LIMIT



def load(text: str, file: str, parse) -> Any:
    """The values of a YAML document, through the cache: ``parse(text, file)``
    (``scenario.parse_yaml`` gives ``yamlread.parse``, imported only then)
    when it is not there."""
    where = cache_dir("yaml", FORMAT)
    if where is None:
        return parse(text, file)
    key = sha256(_code_stamp() + text.encode("utf-8", "surrogatepass")).hexdigest()
    entry = where / f"{key}.json"
    limit = entry_limit(text)  # never more than the text's own size allows
    hit = load_entry(entry, key, file, decode=_decode, limit=limit)
    if hit is not None:
        return hit[0]
    value = parse(text, file)
    try:
        data = {"format": FORMAT, "doc": _encode(value, file, set())}
    except _Uncacheable:
        return value
    store_entry(entry, key, data, encode=lambda d: d, limit=limit)
    return value


@lru_cache(maxsize=1)
def _code_stamp() -> bytes:
    """SHA-256 over the code a cached document depends on."""
    import importlib.util
    from pathlib import Path

    here = Path(__file__).resolve().parent
    files = [here / "ydoc.py", here / "yamlread.py"]
    spec = importlib.util.find_spec("yaml")
    if spec is not None and spec.origin:
        pkg = Path(spec.origin).parent  # __init__.py holds __version__
        files += [pkg / "__init__.py", pkg / "resolver.py", pkg / "constructor.py"]
    return files_stamp(f"warcouncil yaml documents {FORMAT}", files)


class _Uncacheable(Exception):
    """A document with a value the entry format does not hold."""


_PLAIN = (str, int, bool, type(None))


def _pos(loc: Location, file: str) -> list:
    if loc.file != file:
        raise _Uncacheable
    return [loc.line, loc.column]


def _encode(v: Any, file: str, seen: set) -> Any:
    t = type(v)
    if t in _PLAIN or (t is float and v == v):
        return v
    if t is YDict or t is YList:
        if id(v) in seen:  # shared through an alias: rebuilt as one object only by the parser
            raise _Uncacheable
        seen.add(id(v))
        if t is YDict:
            return {"d": [[_encode(k, file, seen), _encode(x, file, seen), _pos(v.key_where[k], file),
                           _pos(v.value_where[k], file)] for k, x in v.items()],
                    "w": _pos(v.where, file)}
        return {"s": [_encode(x, file, seen) for x in v], "w": _pos(v.where, file),
                "i": [_pos(w, file) for w in v.item_where]}
    raise _Uncacheable


def _decode(text: str, file: str) -> tuple:
    """(the document,) from an entry's data; ``BadEntry`` if it is not one."""
    try:
        top = json.loads(text)
        if type(top) is not dict or set(top) != {"format", "doc"} or top["format"] != FORMAT:
            raise BadEntry("not a YAML entry")
        return (_dec(top["doc"], file, {}),)
    except BadEntry:
        raise
    except Exception as e:  # any other shape: not an entry this module writes
        raise BadEntry(f"not a YAML entry: {type(e).__name__}") from None


def _loc(p, file: str, locs: dict) -> Location:
    line, column = p
    if not (line is None or type(line) is int) or not (column is None or type(column) is int):
        raise BadEntry("not a place")
    loc = locs.get((line, column))
    if loc is None:
        loc = locs[(line, column)] = Location(file, line, column)
    return loc


def _dec(v: Any, file: str, locs: dict) -> Any:
    t = type(v)
    if t in _PLAIN or t is float:
        return v
    if t is dict and set(v) == {"d", "w"}:
        m = YDict()
        m.where, m.key_where, m.value_where = _loc(v["w"], file, locs), {}, {}
        for k, x, kw, vw in v["d"]:
            if type(k) not in _PLAIN and type(k) is not float:
                raise BadEntry("not a key")
            m[k] = _dec(x, file, locs)
            m.key_where[k] = _loc(kw, file, locs)
            m.value_where[k] = _loc(vw, file, locs)
        return m
    if t is dict and set(v) == {"s", "w", "i"}:
        seq = YList(_dec(x, file, locs) for x in v["s"])
        seq.where = _loc(v["w"], file, locs)
        seq.item_where = [_loc(w, file, locs) for w in v["i"]]
        if len(seq.item_where) != len(seq):
            raise BadEntry("not a list")
        return seq
    raise BadEntry("not a YAML value")
