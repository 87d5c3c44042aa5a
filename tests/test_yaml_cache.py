"""The cache of YAML documents (``world/ydoc.py``): the same values and
places as the parser, data only, a stale or corrupt entry ignored and
written again, and a process that finds its scenario there imports no
PyYAML."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from test_packcache import odd_entries, within
from warcouncil.dsl.packcache import entry_limit
from warcouncil.errors import WarcouncilError
from warcouncil.world import ydoc
from warcouncil.kernel.scenario import load_scenario, parse_yaml
from warcouncil.world.yamlread import parse as really_parse

ROOT = Path(__file__).resolve().parent.parent
AKRAGAS = ROOT / "warcouncil" / "examples" / "cca" / "akragas.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("WARCOUNCIL_CACHE_DIR", str(d))
    monkeypatch.delenv("WARCOUNCIL_CACHE", raising=False)
    return d / f"yaml-v{ydoc.FORMAT}"


@pytest.fixture
def parses(monkeypatch) -> list:
    """The documents the real parser was asked to parse (cache misses)."""
    seen = []
    import warcouncil.world.yamlread as R

    real = R.parse

    def counting(text, file):
        seen.append(file)
        return real(text, file)

    monkeypatch.setattr(R, "parse", counting)
    return seen


def deep(v):
    """The value with every place (the container's, each key's, value's, item's)."""
    if isinstance(v, ydoc.YDict):
        return ("map", v.where, [(deep(k), deep(x), v.key_where[k], v.value_where[k]) for k, x in v.items()])
    if isinstance(v, ydoc.YList):
        return ("seq", v.where, [deep(x) for x in v], list(v.item_where))
    return (type(v).__name__, v)


DOC = """\
name: t
n: 3
x: 2.5
yes_: true
none: ~
1: int key
list: [a, 1, {b: [c]}]
nested:
  - {piece: s1, to: [1, 3]}
  - -1
"""


def test_a_cached_document_is_the_parsed_one(cache, parses, tmp_path):
    for text, name in ((DOC, "d.yaml"), (AKRAGAS.read_text(encoding="utf-8"), "a.yaml"), ("", "e.yaml")):
        f = str(tmp_path / name)
        first = parse_yaml(text, f)  # a miss: parsed and written
        second = parse_yaml(text, f)  # a hit
        assert parses.count(f) == 1
        assert deep(second) == deep(first) == deep(really_parse(text, f))
    assert len(list(cache.glob("*.json"))) == 3


def test_places_name_the_file_read(cache, parses):
    a = parse_yaml(DOC, "a.yaml")
    b = parse_yaml(DOC, "b.yaml")  # the same text: the same entry, read for b
    assert parses == ["a.yaml"]
    assert b.where.file == "b.yaml" and b.value_where["list"].file == "b.yaml"
    assert deep(b) == deep(really_parse(DOC, "b.yaml")) != deep(a)


def test_what_the_entry_cannot_hold_is_parsed_every_time(cache, parses):
    shared = "a: &x [1, 2]\nb: *x\n"  # one list under two keys: kept as one object
    dated = "when: 2026-11-24\n"
    nan = "x: .nan\n"
    for text in (shared, dated, nan):
        parse_yaml(text, "f.yaml")
        parse_yaml(text, "f.yaml")
    assert parses == ["f.yaml"] * 6
    assert list(cache.glob("*.json")) == []
    v = parse_yaml(shared, "f.yaml")
    assert v["a"] is v["b"]


def test_errors_are_never_cached(cache, parses):
    for _ in range(2):
        with pytest.raises(WarcouncilError, match="malformed YAML"):
            parse_yaml("a: [1, 2\n", "bad.yaml")
        with pytest.raises(WarcouncilError, match="nested too deeply"):
            parse_yaml("[" * 100 + "]" * 100, "deep.yaml")
    assert len(parses) == 4
    assert list(cache.glob("*.json")) == []


def test_a_corrupt_entry_is_ignored_and_written_again(cache, parses):
    parse_yaml(DOC, "d.yaml")
    (entry,) = cache.glob("*.json")
    raw = entry.read_bytes()
    digest, body = raw.split(b"\n", 1)
    head, tree = body.split(b"\n", 1)
    assert hashlib.sha256(body).hexdigest().encode() == digest and json.loads(head) == {"key": entry.stem}

    def forge(tree: bytes):
        b = head + b"\n" + tree
        entry.write_bytes(hashlib.sha256(b).hexdigest().encode() + b"\n" + b)

    data = json.loads(tree)
    wrong_shape = dict(data, doc={"d": [["k", {"q": 1}, [1, 1], [1, 4]]], "w": [1, 1]})
    bad_place = dict(data, doc={"d": [["k", 1, ["1", 1], [1, 4]]], "w": [1, 1]})
    bad_key = dict(data, doc={"d": [[[1], 1, [1, 1], [1, 4]]], "w": [1, 1]})
    short = dict(data, doc={"s": [1, 2], "w": [1, 1], "i": [[1, 1]]})
    for damage in (lambda: entry.write_bytes(raw[: len(raw) // 2]),
                   lambda: entry.write_bytes(raw[:-5] + bytes([raw[-5] ^ 1]) + raw[-4:]),
                   lambda: forge(b"not json"),
                   lambda: forge(json.dumps(dict(data, format=99)).encode()),
                   lambda: forge(json.dumps(wrong_shape).encode()),
                   lambda: forge(json.dumps(bad_place).encode()),
                   lambda: forge(json.dumps(bad_key).encode()),
                   lambda: forge(json.dumps(short).encode())):
        damage()
        n = len(parses)
        assert deep(parse_yaml(DOC, "d.yaml")) == deep(really_parse(DOC, "d.yaml"))
        assert len(parses) == n + 1  # parsed again ...
        assert entry.read_bytes() == raw  # ... and written again


def test_a_document_larger_than_its_text_allows_is_not_cached(cache, parses):
    # issue 26: aliases made a 75 KB file a 306 MB entry; an entry is at most
    # entry_limit(text) bytes (16 times the text and 4 KiB), else not written
    text = "a: &s " + "x" * 40_000 + "\nb: [" + ", ".join(["*s"] * 50) + "]\n"
    assert entry_limit(text) == 16 * len(text) + 4096 < 50 * 40_000
    for _ in range(2):
        v = parse_yaml(text, "f.yaml")
        assert v["b"] == ["x" * 40_000] * 50
    assert parses == ["f.yaml"] * 2
    assert list(cache.glob("*.json")) == []


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_anything_odd_in_an_entry_s_place_is_a_miss(cache, parses):
    # issue 26: an entry is read as an input file is (regular, bounded)
    parse_yaml(DOC, "d.yaml")
    (entry,) = cache.glob("*.json")
    sound = entry.read_bytes()
    head, tree = sound.split(b"\n", 2)[1:]

    def forge(t: bytes):
        b = head + b"\n" + t
        entry.write_bytes(hashlib.sha256(b).hexdigest().encode() + b"\n" + b)

    for what, odd in odd_entries(entry, tree, forge):
        odd()
        n = len(parses)
        with within(10):
            assert deep(parse_yaml(DOC, "d.yaml")) == deep(really_parse(DOC, "d.yaml")), what
        assert len(parses) == n + 1, what  # a miss: parsed again ...
        assert entry.is_file() and not entry.is_symlink() and entry.read_bytes() == sound, what  # ... and written


def test_the_cache_off(cache, parses, monkeypatch):
    monkeypatch.setenv("WARCOUNCIL_CACHE", "off")
    parse_yaml(DOC, "d.yaml")
    parse_yaml(DOC, "d.yaml")
    assert parses == ["d.yaml", "d.yaml"]
    assert not cache.exists()


def test_a_scenario_from_the_cache_needs_no_pyyaml(tmp_path):
    env = dict(os.environ, WARCOUNCIL_CACHE_DIR=str(tmp_path / "c"))
    env.pop("WARCOUNCIL_CACHE", None)
    code = ("import sys; from warcouncil.kernel.scenario import load_scenario; "
            f"s = load_scenario({str(AKRAGAS)!r}); print(len(s.all_pieces), 'yaml' in sys.modules)")
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    n = len(load_scenario(str(AKRAGAS)).all_pieces)
    assert first.stdout.split() == [str(n), "True"]
    assert second.stdout.split() == [str(n), "False"]
