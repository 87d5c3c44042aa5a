"""Parsed rule files, cached as data under the user's cache directory.

Reading a pack parses about ten rule files (a tenth of a second, more than
everything else a short query does). The syntax tree of each file is kept as
JSON in ``<cache>/warcouncil/rules-v<FORMAT>/<key>.json``, where ``key`` is the
SHA-256 of the file's text and of the code that turns text into a tree (the
grammar, the parser, the AST classes and this codec): an edited rule file,
a changed grammar or a new warcouncil version is a new key, so a stale entry
is never read.

An entry is data only. It is read with ``json.loads`` and turned back into
tree nodes by name: the only constructors it can reach are the dataclasses
of ``dsl.ast`` (and ``errors.Location``), called with strings, numbers,
booleans, None and tuples. No pickle, nothing imported or evaluated from
the file. An entry carries the SHA-256 of its own body and of the rule text
it stands for; a corrupt entry (cut short, edited, not JSON, an unknown
node, wrong fields) is ignored and written again from the parse.

Where: ``$WARCOUNCIL_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/warcouncil``
(``~/.cache/warcouncil``; ``~/Library/Caches/warcouncil`` on macOS,
``%LOCALAPPDATA%\\warcouncil`` on Windows). ``WARCOUNCIL_CACHE=off`` turns
the cache off. A cache that cannot be written (read-only home, full disk)
only costs the parse. An entry is read as input files are
(``textfile.read_bytes``: a regular file, up to a size) and written only
up to that size (``entry_limit``: a multiple of the text it stands for);
anything else there (a FIFO, a link to a device, a file too large) is a miss.

Syntax errors are never cached: a file that does not parse is parsed (and
reported) every time.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

from ..errors import Location, WarcouncilError
from ..textfile import KIB, RULES_LIMIT, read_bytes, read_text
from . import ast as A

try:  # CPython's own SHA-256: the same digests as hashlib's, without loading OpenSSL (~2.5 ms at start-up)
    from _sha2 import sha256
except ImportError:  # pragma: no cover - before Python 3.12
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - another Python
        from hashlib import sha256

FORMAT = 2  # 1: a node and a location each a JSON object (read through object_hook)
_HERE = Path(__file__).resolve().parent
#: the files whose text decides what tree a rule text gives
_CODE = ("warcouncil.lark", "parser.py", "ast.py", "packcache.py")


def cache_dir(kind: str = "rules", fmt: int = FORMAT) -> Path | None:
    """The folder of cached rule trees (or of another ``kind`` of entry,
    e.g. ``yaml`` for ``world/ydoc.py``), or None when the cache is off."""
    if os.environ.get("WARCOUNCIL_CACHE", "").lower() in ("off", "0", "no", "false"):
        return None
    base = os.environ.get("WARCOUNCIL_CACHE_DIR")
    if base:
        root = Path(base)
    elif sys.platform == "win32":
        root = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "warcouncil"
    elif sys.platform == "darwin":
        root = Path.home() / "Library" / "Caches" / "warcouncil"
    else:
        root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "warcouncil"
    return root / f"{kind}-v{fmt}"


def files_stamp(label: str, files) -> bytes:
    """SHA-256 over ``label`` and the bytes of the code files a cache's
    entries depend on (a file that cannot be read: entries never shared)."""
    h = sha256(label.encode())
    for f in files:
        try:
            h.update(Path(f).read_bytes())
        except OSError:  # pragma: no cover - a packaging without sources: never share entries
            h.update(os.urandom(16))
    return h.digest()


@lru_cache(maxsize=1)
def code_stamp() -> bytes:
    """SHA-256 over the grammar, the parser, the AST and this codec."""
    return files_stamp(f"warcouncil rule trees {FORMAT}", [_HERE / name for name in _CODE])


#: an entry is at most ENTRY_FACTOR times the bytes of the text it stands
#: for, plus ENTRY_SLACK (the shipped rule files' entries are under twice
#: their text, scenarios' under four times; a document made large by its
#: YAML aliases is not cached)
ENTRY_FACTOR = 16
ENTRY_SLACK = 4 * KIB


def entry_limit(text: str) -> int:
    """The most bytes an entry for ``text`` may have, written or read."""
    return ENTRY_FACTOR * len(text.encode("utf-8", "surrogatepass")) + ENTRY_SLACK


#: the limit of an entry for the largest rule file (``load_entry``'s default)
ENTRY_LIMIT = ENTRY_FACTOR * RULES_LIMIT + ENTRY_SLACK


def entry_key(text: str) -> str:
    return sha256(code_stamp() + text.encode("utf-8", "surrogatepass")).hexdigest()


def parse_file(path: str | Path, text: str | None = None) -> A.RuleFile:
    """``parser.parse_file`` through the cache: the same tree, with every
    location naming ``path``. ``text``: the file's text as an editor holds
    it, not yet saved (``warcouncil lsp``), read in place of the file's,
    with the same bound, and parsed without the cache (a text per
    keystroke would each leave an entry)."""
    p = Path(path)
    if text is not None:
        if (size := len(text.encode("utf-8", "surrogatepass"))) > RULES_LIMIT:
            raise WarcouncilError(f"rule file is too large: {size:,} bytes, the limit is "
                                  f"{RULES_LIMIT // (1024 * KIB)} MiB", Location(str(p)))
        return _parse(text, str(p))
    text = read_text(p, RULES_LIMIT, "rule file")
    where = cache_dir()
    if where is None:
        return _parse(text, str(p))
    key = entry_key(text)
    entry = where / f"{key}.json"
    limit = entry_limit(text)
    rf = load_entry(entry, key, str(p), limit=limit)
    if rf is None:
        rf = _parse(text, str(p))
        store_entry(entry, key, rf, limit=limit)
    return rf


def _parse(text: str, path: str) -> A.RuleFile:
    from .parser import parse_text  # only on a miss: the parser is not imported otherwise

    return parse_text(text, path)


# ------------------------------------------------------------------ the codec
#
# An entry's tree is the JSON list [FORMAT, [class names], [statements]]. A
# value is one of:
#
# * str, int, float, bool or None: itself;
# * a tuple: [0, item, ...];
# * a node: [k, line, column, field, ...] -- k (1, 2, ...) numbers its class
#   in the entry's list of class names, the fields follow in the class's
#   order, ``loc`` left out: its line and column come first (a location in
#   another file: [-k, file, line, column, field, ...]); a class with no
#   ``loc`` field is [k, field, ...];
# * a location anywhere else (``message_loc``, ``effect_locs``): a node of
#   the class named "Location", [k, line, column] or [-k, file, line, column].
#
# Lists tagged by their first number, no JSON objects: ``json.loads`` does
# the parsing, then one pass in Python makes the nodes (format 1 used an
# object per node and one per location, each through ``object_hook``:
# about 40% slower to read back, 40% larger).

LOCATION = "Location"


def _node_classes() -> dict[str, type]:
    out = {}
    for name, cls in vars(A).items():
        if (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == A.__name__
                and cls is not A.Value and cls is not A.RuleFile):
            out[name] = cls
    return out


_CLASSES = _node_classes()
_FIELDS = {name: tuple(f.name for f in dataclasses.fields(cls)) for name, cls in _CLASSES.items()}
#: the fields an entry gives for each class: all but ``loc``, which is written first, as line and column
_STORED = {name: tuple(f for f in fs if f != "loc") for name, fs in _FIELDS.items()}
_ATOMS = (str, int, float, bool, type(None))


class BadEntry(ValueError):
    """A cache entry that is not what this codec writes."""


def encode(rf: A.RuleFile) -> list:
    path = rf.path
    codes: dict[str, int] = {}

    def code(name: str) -> int:
        k = codes.get(name)
        if k is None:
            k = codes[name] = len(codes) + 1
        return k

    def at(k: int, loc: Location) -> list:
        if type(loc) is not Location:
            raise TypeError(f"cannot cache a location that is a {type(loc).__name__}")
        if loc.file == path:
            return [k, loc.line, loc.column]
        return [-k, loc.file, loc.line, loc.column]

    def enc(x):
        if isinstance(x, _ATOMS):
            return x
        if isinstance(x, tuple):
            return [0, *[enc(v) for v in x]]
        if type(x) is Location:
            return at(code(LOCATION), x)
        name = type(x).__name__
        if _CLASSES.get(name) is not type(x):
            raise TypeError(f"cannot cache a {type(x).__name__}")
        k = code(name)
        head = at(k, x.loc) if len(_STORED[name]) != len(_FIELDS[name]) else [k]
        return head + [enc(getattr(x, f)) for f in _STORED[name]]

    statements = [enc(st) for st in rf.statements]
    return [FORMAT, list(codes), statements]


def _no_objects(d):
    raise BadEntry("a JSON object in a rule tree")


def decode(data, path: str) -> A.RuleFile:
    """The tree of an entry's data; ``BadEntry`` if it is not one.

    A node is made as its dataclass's ``__init__`` would make it from all
    its fields given in order (the instance's ``__dict__`` filled, no
    ``__init__`` call: a frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``, which was most of the decoding time);
    the entry must give exactly the class's fields. Equal locations of a
    file are one ``Location`` object (it is immutable)."""
    top = json.loads(data, object_hook=_no_objects) if isinstance(data, str) else data
    if (type(top) is not list or len(top) != 3 or top[0] != FORMAT or type(top[1]) is not list
            or type(top[2]) is not list):
        raise BadEntry("not a rule-file entry")
    # the entry's classes, by number: (class, its stored fields, has a loc) -- only dsl.ast's nodes
    table: list = [None]
    for name in top[1]:
        if name == LOCATION:
            table.append(None)
        elif type(name) is str and name in _CLASSES:
            table.append((_CLASSES[name], _STORED[name], len(_STORED[name]) != len(_FIELDS[name])))
        else:
            raise BadEntry(f"not a node class: {str(name)[:40]}")
    size = len(table)
    new, locs = object.__new__, {}

    def here(line, column) -> Location:  # a location in the file, one object for one place
        key = (line, column)
        loc = locs.get(key)
        if loc is None:
            if not ((line is None or type(line) is int) and (column is None or type(column) is int)):
                raise BadEntry("not a place")
            loc = locs[key] = new(Location)  # as Location(path, line, column) makes it
            loc.__dict__.update(file=path, line=line, column=column)
        return loc

    def dec(v: list):
        k = v[0]
        if k == 0:
            return tuple([dec(a) if type(a) is list else a for a in v[1:]])
        if type(k) is not int or not 0 < k < size:
            return elsewhere(v)
        spec = table[k]
        if spec is None:  # a location
            if len(v) != 3:
                raise BadEntry("not a place")
            return here(v[1], v[2])
        cls, names, has_loc = spec
        node = new(cls)
        d = node.__dict__
        if has_loc:
            if len(v) != len(names) + 3:
                raise BadEntry(f"not a {cls.__name__}: {str(v)[:80]}")
            key = (v[1], v[2])
            loc = locs.get(key)
            d["loc"] = loc if loc is not None else here(v[1], v[2])
            i = 3
        else:
            if len(v) != len(names) + 1:
                raise BadEntry(f"not a {cls.__name__}: {str(v)[:80]}")
            i = 1
        for name in names:  # (a loop here, not a comprehension: one call less a node)
            a = v[i]
            d[name] = dec(a) if type(a) is list else a
            i += 1
        return node

    def elsewhere(v: list):
        """A node or a location in another file: [-k, file, line, column, ...]."""
        k = v[0]
        if type(k) is not int or not -size < k < 0 or len(v) < 4 or not (v[1] is None or type(v[1]) is str):
            raise BadEntry(f"not a value: {str(v)[:80]}")
        spec = table[-k]
        line, column = v[2], v[3]
        if not ((line is None or type(line) is int) and (column is None or type(column) is int)):
            raise BadEntry("not a place")
        loc = Location(v[1], line, column)
        if spec is None:
            if len(v) != 4:
                raise BadEntry("not a place")
            return loc
        cls, names, has_loc = spec
        if not has_loc or len(v) != len(names) + 4:
            raise BadEntry(f"not a {cls.__name__}: {str(v)[:80]}")
        node = new(cls)
        node.__dict__["loc"] = loc
        node.__dict__.update(zip(names, [dec(a) if type(a) is list else a for a in v[4:]]))
        return node

    try:
        statements = tuple([dec(st) if type(st) is list else _not_a_statement(st) for st in top[2]])
    except (IndexError, TypeError) as e:  # an empty list, a field of the wrong shape
        raise BadEntry(f"not a rule tree: {type(e).__name__}") from None
    return A.RuleFile(path, statements)


def _not_a_statement(v):
    raise BadEntry(f"not a statement: {str(v)[:80]}")


# ------------------------------------------------------------------ entries on disk
#
# <sha256 of the body> "\n" <body>; the body is {"key": ...} in JSON, "\n", then the
# tree (the codec's JSON above; another kind of entry's for ``world/ydoc.py``).


def load_entry(entry: Path, key: str, path: str, decode=decode, limit: int = ENTRY_LIMIT):
    """The tree in ``entry`` if it is a sound entry for ``key``, else None
    (``decode(text, path)``: this codec's, or another kind of entry's).
    Read as an input file is (a regular file of at most ``limit`` bytes):
    anything else is a miss, never a wait or a read without end."""
    try:
        raw = read_bytes(entry, limit, "cache entry")
    except WarcouncilError:
        return None
    try:
        digest, _, body = raw.partition(b"\n")
        if sha256(body).hexdigest().encode() != digest:
            return None
        head, sep, tree = body.partition(b"\n")
        if not sep or json.loads(head) != {"key": key}:
            return None
        return decode(tree.decode("utf-8"), path)
    except (ValueError, TypeError, UnicodeDecodeError, RecursionError):
        return None


def store_entry(entry: Path, key: str, rf, encode=encode, limit: int = ENTRY_LIMIT) -> bool:
    """Write ``rf`` as the entry for ``key`` (atomically: a reader sees the
    old entry, none, or the whole new one). False if it could not be
    written, or would be more than ``limit`` bytes (then nothing is)."""
    try:
        tree = json.dumps(encode(rf), ensure_ascii=True, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return False  # pragma: no cover - a tree this codec does not know: just not cached
    body = json.dumps({"key": key}).encode() + b"\n" + tree.encode("ascii")
    raw = sha256(body).hexdigest().encode() + b"\n" + body
    if len(raw) > limit:
        return False
    try:
        import tempfile  # only when writing

        entry.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(raw)
            os.replace(tmp, entry)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError:
        return False
    return True
