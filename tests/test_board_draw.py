"""The board drawn through the game interface (``State.svg(select)``, each
family's ``Turn.draw``): every piece of the position an element with
``data-piece``, where the actions so far left it; with a selected piece,
each destination of its legal actions an element with ``data-legal-to``
(and the pieces its actions act against ``data-legal-target``), the
actions' words in a ``<title>``.

The shipped scenarios: akragas (cca), practice_field (ccm), ridgeway
(Warmaster), alesia (grid-ancients).
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

import warcouncil
from conftest import run_cli

NS = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(warcouncil.__file__).parent / "examples"
SCENARIOS = {"akragas": "cca/akragas.yaml", "practice_field": "ccm/practice_field.yaml",
             "ridgeway": "warmaster/ridgeway.yaml", "alesia": "grid-ancients/alesia.yaml"}
CARD = {"akragas": "Order Three Units Center", "practice_field": None}


def ids_in_file(name: str) -> set:
    data = yaml.safe_load((EXAMPLES / SCENARIOS[name]).read_text(encoding="utf-8"))
    return {str(m["id"]) for key in ("units", "leaders", "characters", "generals") for m in data.get(key) or ()}


def pieces(root) -> dict:
    """data-piece -> the piece's element (the marks of destinations, which
    name their piece too in ``moves --svg``, are not pieces)."""
    out: dict = {}
    for e in root.iter():
        if e.get("data-piece") is not None and "piece" in (e.get("class") or "").split():
            assert e.get("data-piece") not in out, e.get("data-piece")  # one element per piece
            out[e.get("data-piece")] = e
    return out


def legal_to(root) -> set:
    return {e.get("data-legal-to") for e in root.iter() if e.get("data-legal-to") is not None}


def legal_targets(root) -> set:
    return {e.get("data-legal-target") for e in root.iter(NS + "g") if e.get("data-legal-target") is not None} | \
        {e.get("data-legal-target") for e in root.iter(NS + "rect") if e.get("data-legal-target") is not None}


def titles_of(root, attr: str) -> dict:
    return {e.get(attr): e.find(NS + "title").text for e in root.iter() if e.get(attr) is not None
            and "piece" not in (e.get("class") or "").split()}


def new_state(name: str):
    game = warcouncil.load_game(name)
    return game.new_state(card=CARD[name]) if name in CARD and CARD[name] else game.new_state()


# ------------------------------------------------------------------ every piece, on every shipped scenario


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_piece_of_the_scenario_is_drawn(name):
    state = new_state(name)
    root = ET.fromstring(state.svg())
    assert root.tag == NS + "svg"
    assert set(pieces(root)) == ids_in_file(name)
    assert legal_to(root) == set()


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_piece_is_drawn_with_a_selection_too(name):
    state = new_state(name)
    first = sorted(ids_in_file(name))[0]
    root = ET.fromstring(state.svg(first))
    assert set(pieces(root)) == ids_in_file(name)


# ------------------------------------------------------------------ Commands & Colors


def _hex_points(root, cell: str) -> list:
    poly = next(e for e in root.iter(NS + "polygon") if e.get("data-hex") == cell)
    return [tuple(float(v) for v in p.split(",")) for p in poly.get("points").split()]


def _inside(pt, poly) -> bool:
    """``pt`` strictly inside the convex polygon ``poly``."""
    sign = None
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
        cross = (x2 - x1) * (pt[1] - y1) - (y2 - y1) * (pt[0] - x1)
        if cross == 0:
            return False
        if sign is None:
            sign = cross > 0
        elif (cross > 0) != sign:
            return False
    return True


def _centre_of(poly) -> tuple:
    return (sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly))


def cc_ordered(units):
    state = new_state("akragas")
    order = next(a for a in state.legal_actions() if a["units"] == units and a["leaders"] == [])
    state.apply(order)
    return state


def test_cc_selected_unit_marks_equal_its_legal_moves_and_moves_answer():
    state = cc_ordered(["s4", "s11"])
    for pid in ("s4", "s11"):
        root = ET.fromstring(state.svg(pid))
        want = {f"{a['to'][0]},{a['to'][1]}" for a in state.legal_actions()
                if a["kind"] == "move" and a["piece"] == pid}
        assert want and legal_to(root) == want, pid
        code, out, _ = run_cli("moves", "akragas", "--card", "Order Three Units Center", "--order", "s4",
                               "--order", "s11", "--json")
        assert code == 0
        assert legal_to(root) == {f"{m['to'][0]},{m['to'][1]}" for m in json.loads(out)["moves"][pid]}
        said = titles_of(root, "data-legal-to")
        a = next(a for a in state.legal_actions() if a["kind"] == "move" and a["piece"] == pid)
        assert said[f"{a['to'][0]},{a['to'][1]}"] == a["text"]
    # s11 (light bow infantry on 6,6): the twelve hexes worked out by hand in test_svg.py
    root = ET.fromstring(state.svg("s11"))
    assert legal_to(root) == {"5,6", "7,6", "5,5", "6,5", "4,6", "4,5", "4,7", "5,4", "6,4", "7,4", "7,5", "8,6"}


def test_cc_marks_are_centred_in_their_own_hex():
    state = cc_ordered(["s4", "s11"])
    root = ET.fromstring(state.svg("s11"))
    marks = [e for e in root.iter(NS + "g") if e.get("data-legal-to")]
    assert len(marks) == 12
    for m in marks:
        c = m.find(NS + "circle")
        pt = (float(c.get("cx")), float(c.get("cy")))
        poly = _hex_points(root, m.get("data-legal-to"))
        assert _inside(pt, poly), m.get("data-legal-to")
        cx, cy = _centre_of(poly)
        assert math.hypot(pt[0] - cx, pt[1] - cy) < 0.5  # one piece's mark: at the hex's centre


def test_cc_moves_svg_marks_lie_inside_their_hex(tmp_path):
    """``moves --svg`` with three pieces: the marks of one hex side by side, each inside it (the old
    fault: a row along the hex's bottom edge, reading as the hex below)."""
    out = tmp_path / "m.svg"
    code, _, _ = run_cli("moves", "akragas", "--card", "Order Three Units Center", "--order", "s4", "--order", "s11",
                         "--order", "daphnaeus", "--svg", out)
    assert code == 0
    root = ET.parse(out).getroot()
    marks = [e for e in root.iter(NS + "g") if "dest" in (e.get("class") or "").split()]
    assert len(marks) == 4 + 12 + 27
    outlines = set()
    for m in marks:
        poly = _hex_points(root, m.get("data-hex"))
        c = m.find(NS + "circle")
        if c is None:  # a hex a piece stands in: an outline inside its edge, centred on it
            pts = [tuple(float(v) for v in p.split(",")) for p in m.find(NS + "polygon").get("points").split()]
            assert all(_inside(p, poly) for p in pts), m.get("data-hex")
            cx, cy = _centre_of(pts)
            assert math.hypot(cx - _centre_of(poly)[0], cy - _centre_of(poly)[1]) < 0.5
            outlines.add(m.get("data-hex"))
            continue
        r = float(c.get("r"))
        pt = (float(c.get("cx")), float(c.get("cy")))
        for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r)):  # the whole dot
            assert _inside((pt[0] + dx, pt[1] + dy), poly), m.get("data-hex")
    assert all(m.get("data-legal-to") == m.get("data-hex") for m in marks)
    # daphnaeus may move through and into his side's units' hexes: those are outlined
    assert outlines == {"6,6", "3,7", "5,7", "7,7", "8,7", "9,7"}


def test_cc_a_moved_unit_is_drawn_where_it_went():
    state = cc_ordered(["s4", "s11"])
    move = next(a for a in state.legal_actions() if a["kind"] == "move" and a["piece"] == "s11" and a["to"] == [5, 4])
    state.apply(move)
    root = ET.fromstring(state.svg())
    s11 = pieces(root)["s11"]
    assert s11.get("data-at") == "5,4"
    rect = s11.find(NS + "rect")
    centre = (float(rect.get("x")) + float(rect.get("width")) / 2, float(rect.get("y")) + float(rect.get("height")) / 2)
    assert _inside(centre, _hex_points(root, "5,4"))
    assert pieces(root)["s4"].get("data-at") == "5,7"  # (the others where they stood)
    from warcouncil.systems.cc.svg import ORDERED

    ringed = {k for k, e in pieces(root).items() if e.find(NS + "rect") is not None
              and e.find(NS + "rect").get("stroke") == ORDERED}
    assert ringed == {"s4", "s11"}  # the pieces given an order
    # the moved unit has no legal move left; s4 its four and 6,6, which s11 left (s5 holds 6,7)
    assert legal_to(ET.fromstring(state.svg("s11"))) == set()
    assert legal_to(ET.fromstring(state.svg("s4"))) == {"4,7", "5,6", "5,8", "6,8", "6,6"}


def test_cc_battle_targets_are_marked():
    state = cc_ordered(["s4", "s11"])
    state.apply(next(a for a in state.legal_actions() if a["kind"] == "move" and a["piece"] == "s11"
                     and a["to"] == [5, 4]))
    battles = {a["target"]: a["text"] for a in state.legal_actions() if a["kind"] == "battle" and a["piece"] == "s11"}
    assert battles
    root = ET.fromstring(state.svg("s11"))
    assert legal_targets(root) == set(battles)
    said = {e.get("data-legal-target"): e.find(NS + "title").text for e in root.iter(NS + "g")
            if e.get("data-legal-target") and "target" in (e.get("class") or "").split()}
    assert said == battles


def test_cc_before_the_card_the_board_is_drawn():
    """No card played yet: the board as the scenario has it (``State.svg()`` raised before)."""
    state = warcouncil.load_game("akragas").new_state()
    root = ET.fromstring(state.svg("s4"))
    assert set(pieces(root)) == ids_in_file("akragas") and legal_to(root) == set()


# ------------------------------------------------------------------ Warmaster


def _xy(key: str) -> tuple:
    return tuple(float(v) for v in key.split(","))


def test_warmaster_selected_marks_equal_the_legal_destinations():
    state = new_state("ridgeway")
    acts = state.legal_actions()
    for pid, kind, key in (("r1", "initiative", "unit"), ("hero", "character_move", "piece")):
        want = {_xy(f"{a['to'][0]},{a['to'][1]}") for a in acts if a["kind"] == kind and a[key] == pid}
        assert want, pid
        root = ET.fromstring(state.svg(pid))
        assert {_xy(k) for k in legal_to(root)} == want, pid
    # r1's charge onto b1 and its evade: two actions' words at the marks they share, if any
    root = ET.fromstring(state.svg("r1"))
    said = titles_of(root, "data-legal-to")
    for a in acts:
        if a["kind"] == "initiative" and a["unit"] == "r1":
            assert a["text"] in said[f"{a['to'][0]},{a['to'][1]}"].split("; ")


def test_warmaster_the_destinations_of_an_order_given():
    state = new_state("ridgeway")
    state.apply(next(a for a in state.legal_actions() if a["kind"] == "attempt" and a["by"] == "gen"
                     and a["units"] == ["r1"]))
    state.apply({"kind": "dice", "roll": 2})
    moves = state.legal_actions()
    assert moves and all(a["kind"] == "move" for a in moves)
    want = {_xy(f"{a['to'][0][0]},{a['to'][0][1]}") for a in moves if a["to"] is not None}
    root = ET.fromstring(state.svg("r1"))
    assert {_xy(k) for k in legal_to(root)} == want and len(want) == len(moves) - 1  # (less "stays")
    assert legal_to(ET.fromstring(state.svg("r2"))) == set()


def test_warmaster_the_destinations_of_a_home_back():
    state = new_state("ridgeway")
    state.apply({"kind": "home_back", "unit": "r5", "toward": "gen"})
    state.apply({"kind": "dice", "roll": 2})
    moves = state.legal_actions()
    want = {f"{a['to'][0][0]},{a['to'][0][1]}" for a in moves}
    assert len(want) == len(moves) == 7
    root = ET.fromstring(state.svg("r5"))
    assert legal_to(root) == want
    assert titles_of(root, "data-legal-to") == {f"{a['to'][0][0]},{a['to'][0][1]}": a["text"] for a in moves}


def test_warmaster_a_moved_piece_is_drawn_where_it_went():
    state = new_state("ridgeway")
    move = next(a for a in state.legal_actions() if a["kind"] == "character_move" and a["piece"] == "hero")
    state.apply(move)
    root = ET.fromstring(state.svg())
    hero = pieces(root)["hero"]
    assert _xy(hero.get("data-at")) == tuple(float(v) for v in move["to"])
    path = next(p for p in hero.iter(NS + "path") if p.get("data-id") == "hero")
    nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", path.get("d"))]
    xs, ys = nums[0::2], nums[1::2]
    scale, depth = 8.0, 80.0
    assert (min(xs) + max(xs)) / 2 == pytest.approx(move["to"][0] * scale)
    assert (min(ys) + max(ys)) / 2 == pytest.approx((depth - move["to"][1]) * scale)


def test_warmaster_ranges_stay_inside_the_picture():
    root = ET.fromstring(new_state("ridgeway").svg())
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    drawn = [p for p in root.iter(NS + "path") if (p.get("class") or "") in ("range", "band")]
    assert len(drawn) == 2 + 3  # the Hero's and the Wizard's ranges, the General's three bands
    for p in drawn:
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", p.get("d"))]
        assert all(x0 <= x <= x0 + w for x in nums[0::2]) and all(y0 <= y <= y0 + h for y in nums[1::2])
        # on the table itself (120 x 80 cm at 8 px a cm)
        assert all(0 <= x <= 960.01 for x in nums[0::2]) and all(0 <= y <= 640.01 for y in nums[1::2])


# ------------------------------------------------------------------ the grid game


def test_grid_activations_and_targets_of_a_selected_unit():
    state = new_state("alesia")
    acts = state.legal_actions()
    root = ET.fromstring(state.svg("r1"))
    want = {a["target"]: a["text"] for a in acts if a["kind"] == "activate" and a["unit"] == "r1" and "target" in a}
    assert legal_targets(root) == {"g1", "g2", "g3", "g4", "g5"} == set(want)
    assert legal_to(root) == set()
    # each unit's legal options marked on it (the page's activations, as listed)
    marked = {e.get("id"): e.find(NS + "rect[@class='activations']/" + NS + "title").text
              for e in root.iter(NS + "g") if e.find(NS + "rect[@class='activations']") is not None}
    listed: dict = {}
    for a in acts:
        if a["kind"] == "activate":
            listed.setdefault(a["unit"], [])
            if a["option"] not in listed[a["unit"]]:
                listed[a["unit"]].append(a["option"])
    assert marked == {u: "legal: " + ", ".join(o) for u, o in listed.items()}


def test_grid_the_steps_of_a_move_are_marked_where_they_take_the_unit():
    state = new_state("alesia")
    state.apply(next(a for a in state.legal_actions() if a.get("unit") == "r4" and a["option"] == "move"))
    state.apply({"kind": "dice", "face": 4})
    steps = [a["do"] for a in state.legal_actions() if a["kind"] == "step"]
    assert steps == ["drift_left", "drift_right", "about_face"]
    root = ET.fromstring(state.svg("r4"))
    # r4, cavalry facing north, its left front square 8,6: a drift left to 7,6, a drift right to
    # 9,6, an about face to 9,6 (facing south, its left front square is the east one)
    assert legal_to(root) == {"7,6", "9,6"}
    assert titles_of(root, "data-legal-to") == {"7,6": "r4 drift left", "9,6": "r4 drift right; r4 about face"}
    assert legal_to(ET.fromstring(state.svg("r1"))) == set()
    state.apply(next(a for a in state.legal_actions() if a.get("do") == "drift_left"))
    failed = state.clone()
    state.apply({"kind": "dice", "face": 6})  # its Manoeuvre Test passed
    failed.apply({"kind": "dice", "face": 1})  # failed (a reversal): the step is not made
    assert pieces(ET.fromstring(failed.svg()))["r4"].get("data-at") == "8,6"
    root = ET.fromstring(state.svg())
    assert pieces(root)["r4"].get("data-at") == "7,6"
    rect = pieces(root)["r4"].find(NS + "rect")
    assert (float(rect.get("x")), float(rect.get("y"))) == (7 * 56 + 4, 6 * 56 + 4)


# ------------------------------------------------------------------ Tiny Grid (tests/tinygrid), drawn by its own Turn


def test_tinygrid_draws_its_units_and_the_activated_ones():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from tinygrid.system import TinyGrid  # noqa: F401  (the system, registered)

    path = Path(__file__).resolve().parent / "tinygrid" / "skirmish.yaml"
    state = warcouncil.load_game(path).new_state()
    want = {m["id"]: f"{m['at'][0]},{m['at'][1]}" for m in yaml.safe_load(path.read_text(encoding="utf-8"))["units"]}
    root = ET.fromstring(state.svg("c1"))
    assert {k: e.get("data-at") for k, e in pieces(root).items()} == want
    assert legal_to(root) == set()  # an activation moves nothing
    state.apply(next(a for a in state.legal_actions() if a["units"] == ["c1", "i1"]))
    ringed = {k for k, e in pieces(ET.fromstring(state.svg())).items() if e.find(NS + "rect").get("stroke") != "none"}
    assert ringed == {"c1", "i1"}


def test_grid_a_general_with_no_unit_is_drawn_beside_the_board(tmp_path):
    data = yaml.safe_load((EXAMPLES / SCENARIOS["alesia"]).read_text(encoding="utf-8"))
    data["generals"].append({"id": "legatus", "side": "romans", "generalship": 1})
    path = tmp_path / "alesia.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    root = ET.fromstring(warcouncil.load_game(path).new_state().svg())
    drawn = pieces(root)
    assert set(drawn) == ids_in_file("alesia") | {"legatus"}
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    c = drawn["legatus"]
    assert float(c.get("cy")) > 8 * 56 and float(c.get("cy")) + float(c.get("r")) <= y0 + h  # below the board, shown
    assert drawn["caesar"].get("cy") is not None and float(drawn["caesar"].get("cy")) < 8 * 56  # on r1


def test_grid_the_words_of_the_steps_leave_the_units_words_clear():
    """r4 (cavalry on 8,6 and 9,6, facing north; its words "Cav r4" and
    "C3 M3 D7" centred on 504,360 and 504,373) may drift left to 7,6 and
    drift right or about face to 9,6: "drift left" stays in the middle of
    its square, (420, 367); at 9,6 the two words' own lines (362 and 372)
    and the next ones (352, 382) meet r4's words: "drift right" goes up to
    342, "about face" down to 392 (``outwards``, 10 px a line). No step's
    words meet a unit's words nor one another."""
    from warcouncil.kernel.picture import meet, text_box

    state = new_state("alesia")
    state.apply(next(a for a in state.legal_actions() if a.get("unit") == "r4" and a["option"] == "move"))
    state.apply({"kind": "dice", "face": 4})
    root = ET.fromstring(state.svg("r4"))
    texts = [(e.text, float(e.get("x")), float(e.get("y")), float(e.get("font-size")), e.get("font-weight") == "bold")
             for e in root.iter(NS + "text") if e.get("fill") in ("#8a3000", "#fff")]
    steps = [t for t in texts if t[0] in ("drift left", "drift right", "about face")]
    assert sorted(t[:3] for t in steps) == [("about face", 532, 392), ("drift left", 420, 367),
                                            ("drift right", 532, 342)]
    boxes = [text_box(x, y, words, size, "middle", bold) for words, x, y, size, bold in texts]
    assert len(boxes) == 3 + 2 * 11  # (the steps' words, each of the 11 units' name and ratings)
    assert not any(meet(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
