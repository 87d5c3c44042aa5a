"""The cache of parsed rule files (``dsl/packcache.py``): the same trees as
the parser, locations included; keyed by the text and the code; data only
(JSON); a stale or corrupt entry ignored and written again."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from warcouncil.dsl import packcache as C
from warcouncil.dsl import parser as P
from warcouncil.dsl.pack import PACKS_DIR, load_pack
from warcouncil.errors import Location, WarcouncilError

SHIPPED = sorted(PACKS_DIR.glob("*/*.wc"))


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("WARCOUNCIL_CACHE_DIR", str(d))
    monkeypatch.delenv("WARCOUNCIL_CACHE", raising=False)
    return d / f"rules-v{C.FORMAT}"


@pytest.fixture
def parses(monkeypatch) -> list:
    """The paths the real parser was asked to parse (cache misses)."""
    seen = []
    real = C._parse

    def counting(text, path):
        seen.append(path)
        return real(text, path)

    monkeypatch.setattr(C, "_parse", counting)
    return seen


def deep(x):
    """Every field, those left out of == (locations) included."""
    if dataclasses.is_dataclass(x):
        return (type(x).__name__,) + tuple(deep(getattr(x, f.name)) for f in dataclasses.fields(x))
    if isinstance(x, tuple):
        return tuple(deep(v) for v in x)
    return (type(x).__name__, x)


def rule_file(tmp_path, text="rule x.y require 1 + 2.5 > 3 message \"m\"\n", name="r.wc") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_cached_tree_is_the_parsed_tree(path, cache, parses):
    parsed = P.parse_file(path)
    first = C.parse_file(path)  # miss: parsed and written
    second = C.parse_file(path)  # hit: read back
    assert parses == [str(path)]
    assert deep(first) == deep(parsed)
    assert deep(second) == deep(parsed)
    assert second == parsed


def test_a_pack_loads_from_the_cache(cache, parses):
    a = load_pack("cca")
    n = len(parses)
    assert n == len(a.files) > 5
    b = load_pack("cca")
    assert len(parses) == n  # nothing parsed again
    assert b.rules == a.rules and b.cards == a.cards and b.defines == a.defines
    assert deep(tuple(b.rules.values())) == deep(tuple(a.rules.values()))


def test_the_entry_is_json_data(cache, tmp_path):
    C.parse_file(rule_file(tmp_path))
    (entry,) = cache.glob("*.json")
    digest, body = entry.read_bytes().split(b"\n", 1)
    assert hashlib.sha256(body).hexdigest().encode() == digest
    head, tree = body.split(b"\n", 1)
    assert json.loads(head) == {"key": entry.stem}
    fmt, classes, statements = json.loads(tree)
    assert fmt == C.FORMAT == 2
    assert classes[statements[0][0] - 1] == "RuleDecl"
    assert statements[0][1:3] == [1, 1]  # its line and column
    assert set(classes) <= set(C._CLASSES) | {"Location"}
    assert b"{" not in tree  # lists and atoms only


def test_the_format_by_hand():
    """The codec's format (packcache.py, "the codec"), written out: nodes,
    tuples, locations in the file and elsewhere."""
    A = C.A
    tree = [2, ["RuleDecl", "Citation", "Compare", "Num", "Name", "Location"], [  # numbered as first met
        [1, 4, 1, "r.x", [0, [-2, "other.wc", 9, 2, "book", "a quote"]],
         [3, 4, 15, ">=", [4, 4, 15, 1], [5, 4, 20, "y"]], "msg", False, [6, 4, 30]],
    ]]
    rf = C.decode(json.dumps(tree), "f.wc")
    (st,) = rf.statements
    assert st == A.RuleDecl("r.x", (A.Citation("book", "a quote"),),
                            A.Compare(">=", A.Num(1), A.Name("y")), "msg", False)
    assert st.loc == Location("f.wc", 4, 1) and st.message_loc == Location("f.wc", 4, 30)
    assert st.citations[0].loc == Location("other.wc", 9, 2)
    assert st.body.left.loc is st.body.loc  # one object for one place
    assert C.encode(rf) == tree


def test_an_edited_file_is_parsed_again(cache, parses, tmp_path):
    p = rule_file(tmp_path)
    assert C.parse_file(p).statements[0].message == "m"
    p.write_text('rule x.y require 1 + 2.5 > 3 message "changed"\n', encoding="utf-8")
    assert C.parse_file(p).statements[0].message == "changed"
    assert parses == [str(p), str(p)]
    assert len(list(cache.glob("*.json"))) == 2


def test_new_parser_code_is_a_new_key(cache, parses, tmp_path, monkeypatch):
    p = rule_file(tmp_path)
    C.parse_file(p)
    monkeypatch.setattr(C, "code_stamp", lambda: b"another grammar")
    C.parse_file(p)
    assert parses == [str(p), str(p)]


def test_locations_name_the_file_read(cache, tmp_path):
    a = rule_file(tmp_path, name="a.wc")
    b = rule_file(tmp_path, name="b.wc")  # the same text: the same entry
    C.parse_file(a)
    rb = C.parse_file(b)
    assert len(list(cache.glob("*.json"))) == 1
    assert rb.path == str(b)
    assert rb.statements[0].loc == Location(str(b), 1, 1)
    assert deep(rb) == deep(P.parse_file(b))


def _forge(entry: Path, tree: bytes, key: str | None = None):
    """An entry with a sound checksum and key around ``tree``."""
    body = json.dumps({"key": key or entry.stem}).encode() + b"\n" + tree
    entry.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def _damaged(entry: Path) -> list:
    raw = entry.read_bytes()
    digest, body = raw.split(b"\n", 1)
    tree = body.split(b"\n", 1)[1]

    def edit(change):
        t = json.loads(tree)
        change(t)
        return lambda: _forge(entry, json.dumps(t).encode())

    rule = json.loads(tree)[2][0]
    assert json.loads(tree)[1][rule[0] - 1] == "RuleDecl" and len(rule) == 9

    def put(i, v):
        return edit(lambda t: t[2][0].__setitem__(i, v))

    return [
        ("cut short", lambda: entry.write_bytes(raw[: len(raw) // 2])),
        ("empty", lambda: entry.write_bytes(b"")),
        ("one byte changed", lambda: entry.write_bytes(raw[:-5] + bytes([raw[-5] ^ 1]) + raw[-4:])),
        ("not json", lambda: _forge(entry, b"\x80\x81 not json")),
        ("a pickle", lambda: _forge(entry, b"\x80\x04\x95\x00")),
        ("another key", lambda: _forge(entry, tree, key="0" * 64)),
        ("a class that is not a node", edit(lambda t: t[1].__setitem__(rule[0] - 1, "Value"))),
        ("a name that is no class", edit(lambda t: t[1].__setitem__(rule[0] - 1, "__import__"))),
        ("a class not named", edit(lambda t: t[1].clear())),
        ("a number that is no class", put(0, 99)),
        ("a number that is no number", put(0, "1")),
        ("too few fields", edit(lambda t: t[2].__setitem__(0, rule[:5]))),
        ("too many fields", edit(lambda t: t[2][0].append(1))),
        ("a bad location", put(1, "1")),
        ("a location in no file", put(0, -rule[0])),
        ("an empty list", put(5, [])),
        ("a JSON object", put(5, {"n": "Name", "a": ["x"]})),
        ("a statement that is no list", edit(lambda t: t[2].append("rule"))),
        ("another format", edit(lambda t: t.__setitem__(0, 1))),
        ("the format 1 shape", lambda: _forge(entry, b'{"format": 1, "statements": []}')),
        ("no format", lambda: _forge(entry, b'{"statements": []}')),
        ("a list", lambda: _forge(entry, b"[]")),
    ]


def test_a_corrupt_entry_is_ignored_and_rebuilt(cache, parses, tmp_path):
    p = rule_file(tmp_path)
    expected = deep(C.parse_file(p))
    (entry,) = cache.glob("*.json")
    sound = entry.read_bytes()
    for what, damage in _damaged(entry):
        damage()
        n = len(parses)
        assert deep(C.parse_file(p)) == expected, what
        assert len(parses) == n + 1, what  # the damaged entry was not used
        assert entry.read_bytes() == sound, what  # ... and was written again
        C.parse_file(p)
        assert len(parses) == n + 1, what  # the rebuilt entry is used


class Hung(Exception):
    """Still waiting (not an ``OSError``, which a reader may take for a miss)."""


@contextmanager
def within(seconds: float):
    """Fail (``Hung``) instead of waiting longer than ``seconds``."""
    def late(*_):
        raise Hung(f"still waiting after {seconds} s")

    old = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def odd_entries(entry: Path, tree: bytes, forge) -> list:
    """What else may stand where an entry is (issue 26): each is a miss.
    ``forge(tree)`` writes a sound entry (checksum, key) around ``tree``."""
    def fifo():
        entry.unlink()
        os.mkfifo(entry)

    def link_to_zero():
        entry.unlink()
        entry.symlink_to("/dev/zero")

    # a sound entry, but more than its text allows (JSON ignores the trailing spaces)
    return [("a FIFO", fifo), ("too large", lambda: forge(tree + b" " * (1 << 20))),
            ("corrupt", lambda: entry.write_bytes(b"\x00" * 100)), ("a link to /dev/zero", link_to_zero)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_anything_odd_in_an_entry_s_place_is_a_miss(cache, parses, tmp_path):
    p = rule_file(tmp_path)
    expected = deep(C.parse_file(p))
    (entry,) = cache.glob("*.json")
    sound = entry.read_bytes()
    tree = sound.split(b"\n", 2)[2]
    for what, odd in odd_entries(entry, tree, lambda t: _forge(entry, t)):
        odd()
        n = len(parses)
        with within(10):
            assert deep(C.parse_file(p)) == expected, what
        assert len(parses) == n + 1, what  # a miss: parsed again ...
        assert entry.is_file() and not entry.is_symlink() and entry.read_bytes() == sound, what  # ... and written


def test_an_entry_is_written_only_up_to_its_limit(tmp_path):
    A = C.A
    rf = A.RuleFile("f.wc", (A.RemoveDecl("rule", "a.b", Location("f.wc", 1, 1)),))
    assert C.store_entry(tmp_path / "e.json", "k", rf, limit=100) is False
    assert not (tmp_path / "e.json").exists()
    assert C.store_entry(tmp_path / "e.json", "k", rf, limit=1000) is True
    size = (tmp_path / "e.json").stat().st_size
    assert C.load_entry(tmp_path / "e.json", "k", "f.wc", limit=size) is not None
    assert C.load_entry(tmp_path / "e.json", "k", "f.wc", limit=size - 1) is None
    assert C.entry_limit("abc") == 16 * 3 + 4096


def test_decode_builds_only_ast_nodes():
    for names in (["WarcouncilError"], ["Path"], ["Value"], ["RuleFile"], ["__builtins__"], [1], [None]):
        with pytest.raises(C.BadEntry):
            C.decode(json.dumps([C.FORMAT, names, [[1, "x"]]]), "f")
    with pytest.raises(C.BadEntry):
        C.decode('[2, [], [{"x": 1}]]', "f")
    rf = C.decode('[2, ["RemoveDecl"], [[1, 2, 3, "rule", "a.b"]]]', "f.wc")
    assert deep(rf.statements[0]) == deep(__import__("warcouncil.dsl.ast", fromlist=["x"]).RemoveDecl(
        "rule", "a.b", Location("f.wc", 2, 3)))


def test_a_tree_the_codec_cannot_hold_is_not_written(tmp_path):
    A = C.A
    for st in (A.RemoveDecl("rule", "a.b", None),  # a location that is none
               A.RemoveDecl("rule", ["a", "b"], Location("f.wc", 1, 1)),  # a list, not a tuple
               A.RemoveDecl("rule", A.Value(1), Location("f.wc", 1, 1))):  # a node never parsed
        assert C.store_entry(tmp_path / "e.json", "k", A.RuleFile("f.wc", (st,))) is False
    assert not (tmp_path / "e.json").exists()


def test_a_syntax_error_is_not_cached(cache, tmp_path):
    p = rule_file(tmp_path, "rule x.y require (\n")
    for _ in range(2):
        with pytest.raises(WarcouncilError) as e:
            C.parse_file(p)
        assert e.value.location.line == 1
    assert not list(cache.glob("*.json"))


def test_off(cache, parses, tmp_path, monkeypatch):
    monkeypatch.setenv("WARCOUNCIL_CACHE", "off")
    p = rule_file(tmp_path)
    C.parse_file(p)
    C.parse_file(p)
    assert len(parses) == 2
    assert not cache.exists()


def test_an_unwritable_cache_only_costs_the_parse(tmp_path, monkeypatch, parses):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("WARCOUNCIL_CACHE_DIR", str(blocker))
    p = rule_file(tmp_path)
    assert deep(C.parse_file(p)) == deep(P.parse_file(p))
    assert len(parses) == 1


def test_where(monkeypatch, tmp_path):
    monkeypatch.delenv("WARCOUNCIL_CACHE_DIR", raising=False)
    monkeypatch.delenv("WARCOUNCIL_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if C.sys.platform not in ("win32", "darwin"):
        assert C.cache_dir() == tmp_path / "warcouncil" / f"rules-v{C.FORMAT}"
    monkeypatch.setenv("WARCOUNCIL_CACHE_DIR", str(tmp_path / "x"))
    assert C.cache_dir() == tmp_path / "x" / f"rules-v{C.FORMAT}"


def test_the_stamp_covers_the_parsers_code():
    assert set(C._CODE) >= {"warcouncil.lark", "parser.py", "ast.py", "packcache.py"}
    for name in C._CODE:
        assert (C._HERE / name).is_file()


def test_change_statements_round_trip(cache, parses, tmp_path):
    """`change unit` (each attribute's place too) and `change define` (with
    its `when` and citations) read back from the cache as parsed."""
    path = rule_file(tmp_path, "change unit light_cavalry { move = 5; battle_move = 5 }\n"
                               "change define cca.detach-with-helmet from seed000 \"q\"\n"
                               "    when card.category == section := false\n", name="house.wc")
    parsed = P.parse_file(path)
    assert [type(s).__name__ for s in parsed.statements] == ["ChangeUnit", "ChangeDefine"]
    assert parsed.statements[0].attr_locs[1].column == 39
    first, second = C.parse_file(path), C.parse_file(path)
    assert parses == [str(path)]
    assert deep(first) == deep(second) == deep(parsed)
