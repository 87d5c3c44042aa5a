"""`warcouncil moves ... --svg FILE`: the picture can be read back, and it
shows exactly the legal destinations.

Akragas (reference §9), Syracusans (south) to move, Order Three Units Center,
ordering s4, s11 and daphnaeus (attached to s5 on [6,7]: he detaches).
Worked out by hand (odd-r neighbours, reference §1.1):

* s4, heavy infantry on [5,7], moves one hex: its neighbours [4,7] [6,7]
  [5,6] [6,6] [5,8] [6,8] but s5 [6,7] and s11 [6,6] -> 4 hexes, may battle.
* s11, light bow infantry on [6,6], moves two: one step [5,6] [7,6] [5,5]
  [6,5] (not s4 [5,7], s5 [6,7]); two steps [4,6] [4,5] [4,7] (by [5,6]),
  [5,4] [6,4] (by [5,5]), [7,4] [7,5] (by [6,5]), [8,6] (by [7,6]); [5,8]
  [6,8] [7,8] lie behind s4/s5 and [7,7] is s6 -> 12 hexes, may battle.
* daphnaeus, leader on [6,7], moves alone one to three hexes, through
  friendly units; no enemy and no other leader within three ->
  every hex within three of [6,7], no battle flag.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

from click.testing import CliRunner

from warcouncil.cli import main
from conftest import dist, on_board

NS = "{http://www.w3.org/2000/svg}"
ORDERS = ["s4", "s11", "daphnaeus"]


EXPECTED = {
    "s4": {h: True for h in [(4, 7), (5, 6), (5, 8), (6, 8)]},
    "s11": {h: True for h in [(5, 6), (7, 6), (5, 5), (6, 5), (4, 6), (4, 5), (4, 7), (5, 4), (6, 4), (7, 4),
                              (7, 5), (8, 6)]},
    "daphnaeus": {(c, r): None for r in range(9) for c in range(13)
                  if on_board((c, r)) and 1 <= dist((6, 7), (c, r)) <= 3},
}


def classes(el) -> set:
    return set((el.get("class") or "").split())


def draw(tmp_path):
    out = tmp_path / "moves.svg"
    args = ["moves", "akragas", "--card", "Order Three Units Center"]
    for o in ORDERS:
        args += ["--order", o]
    result = CliRunner().invoke(main, args + ["--svg", str(out)])
    assert result.exit_code == 0, result.output
    return ET.parse(out).getroot()


def test_expected_by_hand_matches_engine(akragas):
    g = akragas.ground("Order Three Units Center")
    legal, dests = akragas.destinations(g, ORDERS)
    assert legal
    assert dests == EXPECTED
    # 36 hexes within three of [6,7], less the 5 + 4 of them in rows 9 and 10 (off the south edge)
    assert len(EXPECTED["daphnaeus"]) == 27


def test_svg_board_and_pieces(tmp_path):
    root = draw(tmp_path)
    assert root.tag == NS + "svg"
    hexes = [e for e in root.iter(NS + "polygon") if "hex" in classes(e)]
    assert len(hexes) == 113
    assert len({e.get("data-hex") for e in hexes}) == 113
    dotted = {e.get("data-hex") for e in hexes if "dotted" in classes(e)}
    # the dotted line runs through even-row columns 4 and 8 (reference §1.2)
    assert dotted == {f"{c},{r}" for r in (0, 2, 4, 6, 8) for c in (4, 8)}
    groups = list(root.iter(NS + "g"))
    units = [e for e in groups if "unit" in classes(e)]
    leaders = [e for e in groups if "leader" in classes(e)]
    assert len(units) == 24 and len({e.get("data-id") for e in units}) == 24
    assert {e.get("data-id") for e in leaders} == {"hannibal_mago", "himilco", "daphnaeus", "dionysius"}
    assert len(leaders) == 4


def test_svg_destinations(tmp_path, akragas):
    root = draw(tmp_path)
    marks = [e for e in root.iter(NS + "g") if "dest" in classes(e)]
    g = akragas.ground("Order Three Units Center")
    _, dests = akragas.destinations(g, ORDERS)
    for pid in ORDERS:
        mine = [e for e in marks if e.get("data-piece") == pid]
        hexes = [tuple(int(x) for x in e.get("data-hex").split(",")) for e in mine]
        assert len(hexes) == len(set(hexes)), pid  # one marker per hex and piece
        assert set(hexes) == set(dests[pid]) == set(EXPECTED[pid]), pid
        for e in mine:
            h = tuple(int(x) for x in e.get("data-hex").split(","))
            want = EXPECTED[pid][h]
            assert e.get("data-battle") == (None if want is None else str(want).lower()), (pid, h)
    assert {e.get("data-piece") for e in marks} == set(ORDERS)
    # one marker in a hex for each piece that can reach it
    per_hex = Counter(e.get("data-hex") for e in marks)
    reach = Counter(f"{c},{r}" for pid in ORDERS for (c, r) in EXPECTED[pid])
    assert per_hex == reach
    assert per_hex["5,6"] == 3 and per_hex["7,4"] == 2 and per_hex["9,7"] == 1


# ------------------------------------------------------------------ drawn as a wargamer reads it


def _groups(root, cls):
    return [e for e in root.iter(NS + "g") if cls in classes(e)]


def test_svg_coordinates_sections_and_legend(tmp_path):
    root = draw(tmp_path)
    coords = {e.text for e in root.iter(NS + "text") if "coord" in classes(e)}
    hexes = {e.get("data-hex") for e in root.iter(NS + "polygon") if "hex" in classes(e)}
    assert coords == hexes and len(coords) == 113  # every hex its "col,row"
    sections = {e.text for e in root.iter(NS + "text") if "section-name" in classes(e)}
    assert sections == {"left section (syracusan)", "center section (syracusan)", "right section (syracusan)"}
    legend = " ".join(t.text or "" for g in _groups(root, "legend") for t in g.iter(NS + "text"))
    for words in ("AX auxilia", "HI heavy infantry", "LB light bow infantry", "LC light cavalry",
                  "LI light infantry", "MC medium cavalry", "MI medium infantry", "HCh heavy chariot",
                  "carthaginian (north edge)", "syracusan (south edge, to move)", "leader", "mounted"):
        assert words in legend, words


def test_svg_units_show_type_side_and_blocks(board):
    from warcouncil.systems.cc.svg import board_svg

    eng = board(units=[("s1", "red", "heavy_infantry", (5, 7), 2), ("c1", "blue", "light_cavalry", (5, 2))],
                leaders=[("l1", "red", (5, 7))], terrain={(6, 5): "forest", (4, 4): "hill"})
    root = ET.fromstring(board_svg(eng.setting()))
    units = {e.get("data-piece"): e for e in _groups(root, "unit")}
    assert {k: (e.get("data-side"), e.get("data-type"), e.get("data-blocks")) for k, e in units.items()} == {
        "s1": ("red", "heavy_infantry", "2"), "c1": ("blue", "light_cavalry", "3")}
    pips = {k: [r.get("fill") for r in e.iter(NS + "rect")][1:] for k, e in units.items()}
    assert pips == {"s1": ["#ffffff", "#ffffff", "none", "none"], "c1": ["#ffffff"] * 3}
    labels = {k: [t.text for t in e.iter(NS + "text")] for k, e in units.items()}
    assert labels == {"s1": ["HI", "s1"], "c1": ["LC", "c1"]}
    assert "2 of 4 blocks" in units["s1"].find(NS + "title").text
    names = {e.get("data-hex"): e.get("data-terrain") for e in root.iter(NS + "polygon") if e.get("data-terrain")}
    assert names == {"6,5": "forest", "4,4": "hill"}
    assert sorted(e.text for e in root.iter(NS + "text") if "terrain-name" in classes(e)) == ["forest", "hill"]
    legend = " ".join(t.text or "" for g in _groups(root, "legend") for t in g.iter(NS + "text"))
    assert "forest" in legend and "hill" in legend


def test_svg_leader_names_do_not_overlap_units(tmp_path):
    """Each leader with a unit: his star right of the unit's block, his name below it."""
    root = draw(tmp_path)
    blocks = {e.get("data-at"): e.find(NS + "rect") for e in _groups(root, "unit")}
    seen = 0
    for e in _groups(root, "leader"):
        rect = blocks.get(e.get("data-at"))
        if rect is None:
            continue
        seen += 1
        x, y, w, h = (float(rect.get(k)) for k in ("x", "y", "width", "height"))
        star = [tuple(float(v) for v in p.split(",")) for p in e.find(NS + "polygon").get("points").split()]
        assert min(px for px, _ in star) > x + w, e.get("data-piece")
        for t in e.iter(NS + "text"):
            top = float(t.get("y")) - 0.75 * float(t.get("font-size"))
            assert t.text == e.get("data-piece") and top > y + h, e.get("data-piece")
    assert seen == 4  # every leader of Akragas stands with a unit


def test_no_label_overlaps_another(tmp_path):
    """A C&C label has its fixed place in its hex (the coordinates at the
    top, the terrain's name at the bottom, a leader's name under the block,
    the section names under the board): by the toolkit's estimate of a
    text's box (``kernel.picture.text_box``), none meets another, with
    three pieces' destinations marked."""
    from warcouncil.kernel.picture import meet, text_box

    root = draw(tmp_path)
    legend = {id(t) for g in _groups(root, "legend") for t in g.iter(NS + "text")}
    boxes = []
    for t in root.iter(NS + "text"):
        if id(t) in legend or "stroke" in t.attrib:  # (a halo: the same box as its text)
            continue
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        boxes.append((t.text, text_box(x, y, t.text, size, t.get("text-anchor") or "start",
                                       t.get("font-weight") == "bold")))
    assert len(boxes) == 113 + 3 + 2 * 24 + 4 + sum(1 for e in root.iter(NS + "polygon") if e.get("data-terrain"))
    assert [(a, b) for i, (a, p) in enumerate(boxes) for b, q in boxes[i + 1:] if meet(p, q)] == []
