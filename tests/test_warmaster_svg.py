"""The SVG picture of a Warmaster table (systems/warmaster/svg.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from warcouncil.solver.engine import Engine
from warcouncil.systems.warmaster.svg import table_svg
from warmaster_util import RIDGEWAY, char, scenario, unit

NS = "{http://www.w3.org/2000/svg}"


def test_ridgeway_is_drawn():
    eng = Engine.load(str(RIDGEWAY))
    root = ET.fromstring(table_svg(eng))
    ids = {p.get("data-id") for p in root.iter(NS + "path") if p.get("data-id")}
    assert ids == {p.id for p in eng.scenario.pieces}
    titles = [t.text for t in root.iter(NS + "title")]
    assert "hero: command range 60 cm" in titles and "wiz: command range 20 cm" in titles
    assert [t for t in titles if t.endswith("cm from gen")] == ["20 cm from gen", "40 cm from gen", "60 cm from gen"]
    assert "wood" in titles and "lake" in titles


def test_ids_are_escaped(tmp_path):
    sc = scenario(tmp_path, [unit("<u&\"x>", "red", (50, 50))], [char("g", "red", "general", 9, (50, 30))])
    text = table_svg(Engine.load(str(sc)))
    root = ET.fromstring(text)
    assert {p.get("data-id") for p in root.iter(NS + "path") if p.get("data-id")} == {"<u&\"x>", "g"}


def test_orders_draws_the_table_on_the_command_line(tmp_path):
    from conftest import run_cli

    out = tmp_path / "t.svg"
    code, _, _ = run_cli("orders", "ridgeway", "--svg", out)
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert code == 0 and root.tag.endswith("svg")
    assert out.read_text(encoding="utf-8") == table_svg(Engine.load("ridgeway"))
    code, _, err = run_cli("orders", "akragas", "--card", "Order Three Units Center", "--svg", tmp_path / "x.svg")
    assert code == 2 and "moves --svg" in err and not (tmp_path / "x.svg").exists()
