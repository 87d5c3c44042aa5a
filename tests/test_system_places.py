"""The shipped systems' places (``warcouncil.systems.BUILT_IN``, read before
any entry point so that start-up need not scan every installed
distribution's metadata) are exactly the entry points of pyproject.toml,
and a system found through them is the entry point's class."""

from __future__ import annotations

import tomllib
from pathlib import Path

from warcouncil import systems
from warcouncil.solver import system as S

ROOT = Path(__file__).resolve().parent.parent


def test_built_in_places_are_the_entry_points():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert systems.BUILT_IN == project["project"]["entry-points"]["warcouncil.systems"]


def test_a_place_gives_the_entry_points_class():
    for name, place in systems.BUILT_IN.items():
        (ep,) = S.entry_points(group="warcouncil.systems", name=name)
        assert ep.value == place
        assert S.System.for_pack(name) is ep.load()
