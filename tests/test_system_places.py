"""The systems shipped with warcouncil are listed once, as the
``warcouncil.systems`` entry points of pyproject.toml (no second table in
the package to keep equal), and found through warcouncil's own
distribution's metadata, without reading every installed distribution's."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

import pytest

import warcouncil.systems
from warcouncil.kernel import system as S

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SHIPPED = PROJECT["project"]["entry-points"]["warcouncil.systems"]


def test_the_entry_points_are_the_one_list():
    assert not hasattr(warcouncil.systems, "BUILT_IN") and not hasattr(S, "register_places")
    assert {ep.name: ep.value for ep in S.shipped_entry_points(group="warcouncil.systems")} == SHIPPED
    assert sorted(SHIPPED) == ["cca", "ccm", "grid-ancients", "grid_ancients", "warmaster"]


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_a_shipped_system_is_found_without_scanning_every_distribution(name, monkeypatch):
    def scan(**select):
        raise AssertionError(f"every distribution's metadata read for {select}")

    monkeypatch.setattr(S, "_BY_PACK", {})
    monkeypatch.setattr(S, "entry_points", scan)
    module, _, attr = SHIPPED[name].partition(":")
    cls = S.System.for_pack(name)
    assert cls is getattr(importlib.import_module(module), attr)


def test_the_entry_points_are_kept_in_the_cache_until_the_installation_changes(tmp_path, monkeypatch):
    """The scan of the distributions' metadata (~40 ms of a command's start)
    is kept in the user's cache, keyed by each sys.path folder's time:
    installing or removing a distribution (a folder changed) scans again."""
    import importlib.metadata
    import os
    import sys

    real = importlib.metadata.entry_points
    scans = []
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **s: scans.append(s) or real(**s))
    monkeypatch.setenv("WARCOUNCIL_CACHE_DIR", str(tmp_path / "cache"))
    site = tmp_path / "site"
    site.mkdir()
    os.utime(site, ns=(1_000_000_000, 1_000_000_000))
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    first = S.entry_points(group="warcouncil.systems")
    assert {p.name: p.value for p in first} == SHIPPED and len(scans) == 1
    assert S.entry_points(group="warcouncil.systems") == first and len(scans) == 1  # (from the cache)
    (site / "plugin-1.0.dist-info").mkdir()  # a distribution installed: its folder changes
    os.utime(site, ns=(2_000_000_000, 2_000_000_000))
    assert S.entry_points(group="warcouncil.systems") == first and len(scans) == 2
    entry = sorted((tmp_path / "cache" / "entry-points-v1").glob("*.json"), key=os.path.getmtime)[-1]
    entry.write_text("not an entry", encoding="utf-8")  # a corrupt entry: scanned again, and written again
    assert S.entry_points(group="warcouncil.systems") == first and len(scans) == 3
    assert S.entry_points(group="warcouncil.systems") == first and len(scans) == 3
    monkeypatch.setenv("WARCOUNCIL_CACHE", "off")  # no cache: a scan each time
    S.entry_points(group="warcouncil.systems")
    S.entry_points(group="warcouncil.systems")
    assert len(scans) == 5
