"""The SVG picture of a Warmaster table (systems/warmaster/svg.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from warcouncil.kernel.engine import Engine
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


# ------------------------------------------------------------------ drawn as a wargamer reads it

SCALE = 8.0


def _pieces(root) -> dict:
    return {g.get("data-piece"): g for g in root.iter(NS + "g") if "piece" in (g.get("class") or "").split()}


def _points(d: str) -> list:
    import re

    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[0::2], nums[1::2]))


def test_units_have_their_stands_type_and_facing():
    eng = Engine.load(str(RIDGEWAY))
    root = ET.fromstring(table_svg(eng))
    pieces = _pieces(root)
    assert set(pieces) == {p.id for p in eng.scenario.pieces}
    for u in eng.scenario.units:
        g = pieces[u.id]
        stands = [p for p in g.iter(NS + "path") if p.get("class") == "stand"]
        hollow = [p for p in stands if p.get("fill") == "#ffffff"]
        assert (len(stands), len(hollow)) == (u.stands, u.lost), u.id
        label = [t.text for t in g.iter(NS + "text")]
        assert label[-1] == {"infantry": "Inf", "cavalry": "Cav", "flying": "Fly", "artillery": "Art"}[u.type] \
            + f" {u.id}" + (f" ({u.lost} lost)" if u.lost else ""), u.id
        # the facing arrow beyond the front edge: up the picture for red (facing 0), down for blue (180)
        tip = _points(g.find(NS + "polygon").get("points").replace(",", " "))[0]
        x, y = u.pose.at
        assert (tip[1] < (80 - y) * SCALE) == (u.pose.facing == 0), u.id
        assert g.get("data-facing") == ("0" if u.pose.facing == 0 else "180")
    assert [len([p for p in pieces[i].iter(NS + "path") if p.get("class") == "stand"]) for i in ("r5", "r6", "r1")] \
        == [3, 2, 3]


def test_characters_are_marked_with_role_and_command():
    eng = Engine.load(str(RIDGEWAY))
    pieces = _pieces(ET.fromstring(table_svg(eng)))
    got = {c.id: (pieces[c.id].get("data-role"), [t.text for t in pieces[c.id].iter(NS + "text")][:2])
           for c in eng.scenario.characters}
    assert got == {"gen": ("general", ["G", "gen 9"]), "hero": ("hero", ["H", "hero 8"]),
                   "wiz": ("wizard", ["W", "wiz 7"]), "bgen": ("general", ["G", "bgen 9"])}


def test_the_orders_that_may_be_attempted_are_drawn():
    """Each order `orders --json` lists, drawn at its units: who, the score needed, p."""
    import json

    from conftest import run_cli

    code, out, _ = run_cli("orders", "ridgeway", "--json")
    assert code == 0
    listed = {(o["character"], tuple(o["units"]), str(o["target"]), o["p"]) for o in json.loads(out)["options"]}
    root = ET.fromstring(table_svg(Engine.load("ridgeway")))
    drawn = set()
    for g in root.iter(NS + "g"):
        if g.get("class") == "order":
            units = tuple(g.get("data-units").split(","))
            by, targets = g.get("data-by").split(","), g.get("data-target").split(",")
            text = g.find(NS + "text").text
            for b, t in zip(by, targets):
                p = text.split(f"{b} ≤{t} (")[1].split(")")[0]
                drawn.add((b, units, t, p))
    assert drawn == listed and len(listed) == 19
    r4 = [g.find(NS + "text").text for g in root.iter(NS + "g") if g.get("data-units") == "r4"]
    assert r4 == ["gen ≤6 (5/12)", "hero ≤5 (5/18)", "wiz ≤5 (5/18)"]


def test_ranges_are_clipped_to_the_table_and_a_scale_bar_is_drawn():
    root = ET.fromstring(table_svg(Engine.load(str(RIDGEWAY))))
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    ranges = [p for p in root.iter(NS + "path") if p.get("class") in ("range", "band")]
    assert len(ranges) == 5
    for p in ranges:
        for x, y in _points(p.get("d")):
            assert 0 <= x <= 120 * SCALE + 1e-6 and 0 <= y <= 80 * SCALE + 1e-6
            assert x0 <= x <= x0 + w and y0 <= y <= y0 + h
    scale = next(g for g in root.iter(NS + "g") if g.get("class") == "scale")
    bars = scale.findall(NS + "rect")
    assert sum(float(r.get("width")) for r in bars) == 20 * SCALE and scale.find(NS + "text").text.startswith("20 cm")
    legend = " ".join(t.text or "" for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text"))
    for words in ("red (to move)", "blue", "Inf infantry", "Cav cavalry", "G general", "20, 40, 60 cm from the General"):
        assert words in legend, words


def test_each_order_says_its_penalties_with_their_measurements():
    """The title of an order drawn: its target, each penalty with what was measured (as `check` words
    them), p and the chance of a blunder."""
    root = ET.fromstring(table_svg(Engine.load("ridgeway")))
    said = {(g.get("data-by"), g.get("data-units")): g.find(NS + "title").text
            for g in root.iter(NS + "g") if g.get("class") == "order"}
    assert said["gen", "r3"] == ("gen orders r3: 7 or less on 2D6 (distance -1 (gen is 23 cm from r3), enemy -1 "
                                 "(b1 is 19.209373 cm from r3)), p 7/12, blunder 0")
    assert said["wiz", "r3"] == "wiz orders r3: 6 or less on 2D6 (enemy -1 (b1 is 19.209373 cm from r3)), p 5/12, " \
        "blunder 1/36"


# ------------------------------------------------------------------ no label over another (issue 27)

def _label_boxes(svg: str) -> tuple[list, list]:
    """Each label of the table (a text outside the legend; its white halo,
    drawn at the same place, counted once; a character's role letter is
    part of its marker) with its box estimated from x, y, font size and
    length (~0.55 em a character, 0.6 bold), and each character's marker
    (its circle) as a box."""
    root = ET.fromstring(svg)
    legend = {id(t) for g in root.iter(NS + "g") if g.get("class") == "legend" for t in g.iter(NS + "text")}
    marks = {id(t) for g in root.iter(NS + "g") if "character" in (g.get("class") or "").split()
             for t in g.iter(NS + "text") if t.get("font-weight") == "bold"}
    labels = {}
    for t in root.iter(NS + "text"):
        if id(t) in legend or id(t) in marks:
            continue
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        w = len(t.text) * size * (0.6 if t.get("font-weight") == "bold" else 0.55)
        anchor = t.get("text-anchor") or "start"
        left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        labels[(x, y, t.text)] = (left, y - 0.75 * size, left + w, y + 0.2 * size)
    circles = [(float(c.get("cx")) - 9, float(c.get("cy")) - 9, float(c.get("cx")) + 9, float(c.get("cy")) + 9)
               for g in root.iter(NS + "g") if "character" in (g.get("class") or "").split()
               for c in g.iter(NS + "circle")]
    return labels, circles


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _overlaps(svg: str) -> list:
    labels, circles = _label_boxes(svg)
    items = sorted(labels.items())
    out = [(k1[2], k2[2]) for i, (k1, b1) in enumerate(items) for k2, b2 in items[i + 1:] if _meet(b1, b2)]
    return out + [(k[2], "a character's marker") for k, b in items for c in circles if _meet(b, c)]


def _expected_labels(eng) -> list:
    """The labels a table must show: each unit's, each character's, each
    terrain's name, the General's bands on the table, each order's tag."""
    from warcouncil.systems.warmaster.svg import TYPE_MARK

    sc = eng.scenario
    out = [f"{TYPE_MARK[u.type]} {u.id}" + (f" ({u.lost} lost)" if u.lost else "") for u in sc.units]
    out += [f"{c.id} {c.command}" for c in sc.characters]
    out += [f"{a.type} ({'impassable' if a.impassable else 'dense' if a.dense else 'open'})" for a in sc.terrain]
    opts, _ = eng.options(eng.start(), sc.to_move)
    singles = [o for o in opts if len(o["units"]) == 1]
    out += [f"{o['character']} ≤{o['target']} ({o['p']})" for o in singles]
    brigades: dict = {}
    for o in opts:
        if len(o["units"]) > 1:
            brigades.setdefault("+".join(o["units"]), []).append(f"{o['character']} ≤{o['target']} ({o['p']})")
    out += [f"{k}: " + " · ".join(v) for k, v in brigades.items()]
    return out


def test_no_label_overlaps_another_on_ridgeway():
    """Before: the Hero's label and marker lay under r1's and r2's options,
    the General's under r6's, and r1+r2's line ran into r2+r3's."""
    from warmaster_util import EXAMPLES

    for path in sorted(EXAMPLES.glob("*.yaml")):
        eng = Engine.load(str(path))
        svg = table_svg(eng)
        assert _overlaps(svg) == [], path.name
        labels, _ = _label_boxes(svg)
        bands = [f"{20 * k} cm (-{k})" for k in (1, 2, 3)]
        assert sorted(t for _, _, t in labels) == sorted(_expected_labels(eng) + bands)


def test_no_label_overlaps_another_on_a_crowded_table(tmp_path):
    """Four characters among a brigade's order tags and under a unit's label."""
    units = [unit(u, "red", (40 + 12 * i, 50)) for i, u in enumerate("abcd")] + [
        unit("x", "blue", (60, 100), facing=180)]
    chars = [char("gen", "red", "general", 9, (46, 45)), char("h1", "red", "hero", 8, (58, 44)),
             char("h2", "red", "hero", 8, (70, 46)), char("w", "red", "wizard", 7, (82, 44))]
    eng = Engine.load(str(scenario(tmp_path, units, chars, width=140, depth=120)))
    svg = table_svg(eng)
    assert _overlaps(svg) == []
    labels, _ = _label_boxes(svg)
    bands = ["20 cm (-1)", "40 cm (-2)", "60 cm (-3)"]
    assert sorted(t for _, _, t in labels) == sorted(_expected_labels(eng) + bands)


def test_no_label_overlaps_another_during_a_playout():
    """The board page's pictures (``State.svg``) at each decision of two
    seeded random Command phases on ridgeway: pieces moved, orders given."""
    import random

    import warcouncil

    game = warcouncil.load_game("ridgeway")
    drawn = 0
    for seed in (0, 1):
        rnd = random.Random(seed)
        state = game.new_state(resolution=40)
        while not state.is_terminal():
            if state.current_player() == warcouncil.CHANCE:
                outs = state.chance_outcomes()
                action = rnd.choices([a for a, _ in outs], [p for _, p in outs])[0]
            else:
                assert _overlaps(state.svg()) == [], state.history()
                drawn += 1
                acts = state.legal_actions()
                kind = rnd.choice(sorted({a["kind"] for a in acts}))
                action = rnd.choice([a for a in acts if a["kind"] == kind])
            state.apply(action)
    assert drawn == 8
