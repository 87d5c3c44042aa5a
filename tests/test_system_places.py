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
