"""The pictures' toolkit (``warcouncil/kernel/picture.py``) on its own: the
exact SVG of tiny hand-built pictures, and the label layout's promise (no
label over another, nor over a box taken before it) on random label sets."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given, settings, strategies as st

from warcouncil.kernel.picture import (Layout, Legend, along, box, colours, document, dot, front, group, halo,
                                       label, marks, meet, outwards, stroke, text_box)

NS = "{http://www.w3.org/2000/svg}"


def test_a_tiny_picture_exactly():
    """A piece (its id needing quotes), a haloed label, a title to escape,
    the board's corner above and left of the origin."""
    piece = group("piece unit", {"data-piece": 'u"1', "data-at": "0,0", "data-blocks": None}, "u1 & co",
                  '<rect x="2" y="2" width="10" height="10" fill="#c0392b"/>')
    svg = document(40, 30, "a<b", [piece, halo('x="20" y="12" font-size="10"', "u1", "#222", 3)], origin=(-5, -5))
    assert svg == (
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="-5 -5 40 30" '
        'font-family="sans-serif">\n'
        "<title>a&lt;b</title>\n"
        '<rect x="-5" y="-5" width="40" height="30" fill="#ffffff"/>\n'
        """<g class="piece unit" data-piece='u"1' data-at="0,0"><title>u1 &amp; co</title>"""
        '<rect x="2" y="2" width="10" height="10" fill="#c0392b"/></g>\n'
        '<text x="20" y="12" font-size="10" fill="#ffffff" stroke="#ffffff" stroke-width="3">u1</text>'
        '<text x="20" y="12" font-size="10" fill="#222">u1</text>\n'
        "</svg>\n")
    root = ET.fromstring(svg)
    assert root.find(NS + "g").get("data-piece") == 'u"1'


def test_defs_come_after_the_background():
    svg = document(10, 10, "", [], defs="<defs/>")
    assert svg.splitlines()[2:] == ['<rect x="0" y="0" width="10" height="10" fill="#ffffff"/>', "<defs/>", "</svg>"]


def test_a_legend_exactly():
    """Worked by hand (10 px text: 5.6 px a character): the row's baseline
    at 100 + 16; "red" after its 14 px box and a 4 px gap (x 18), then 14 px
    on: the dot at 48.8 (its centre 53.8), "blue" at 62.8; the third key
    (117.6 px of words) does not fit before 200: the next row; then a line
    of words, and the height to half a row under the last baseline."""
    leg = Legend(0, 100, 200, size=10, line=16)
    leg.key(box("#123"), "red")
    leg.key(dot("#456"), "blue")
    leg.key(None, "a very long key words")
    leg.words(["one", "two"])
    assert leg.lines() == [
        '<g class="legend">',
        '<rect x="0" y="107" width="14" height="10" fill="#123"/>',
        '<text x="18" y="116" font-size="10">red</text>',
        '<circle cx="53.8" cy="112" r="5" fill="#456"/>',
        '<text x="62.8" y="116" font-size="10">blue</text>',
        '<text x="0" y="132" font-size="10">a very long key words</text>',
        '<text x="0" y="148" font-size="10">one · two</text>',
        "</g>"]
    assert leg.height == 148 - 100 + 8
    assert leg.lines(None) == leg.lines()[1:-1]


def test_swatches_take_their_paint():
    leg = Legend(0, 0, 500)
    leg.key(box("none", 12, stroke="#d62728", stroke_dasharray="3,2", rx=2), "a")
    leg.key(stroke("#111", 3, 20, dash="5 4"), "b")
    assert leg.out[0] == '<rect x="0" y="9" width="12" height="10" fill="none" stroke="#d62728" ' \
                         'stroke-dasharray="3,2" rx="2"/>'
    assert leg.out[2] == '<path d="M 35.6 14 h 20" stroke="#111" stroke-width="3" stroke-dasharray="5 4"/>'


def test_a_front_edge_and_its_arrowhead():
    """Facing up the picture: the tip 7 px above the edge's middle (10, 10),
    the base on the edge 6 px each side; facing right with a 2 px gap: the
    base at (12, 10), 6 px above and below, the tip at (19, 10)."""
    assert front((0, 10), (20, 10), (0, -1), 4, 0, 7, 6) == (
        '<line class="front" x1="0" y1="10" x2="20" y2="10" stroke="#111" stroke-width="4"/>'
        '<polygon class="facing" points="10,3 16,10 4,10" fill="#111"/>')
    assert front((10, 0), (10, 20), (1, 0), 3, 2, 7, 6).endswith('points="19,10 12,16 12,4" fill="#111"/>')


def test_the_marks_of_a_selected_piece():
    """Two destinations (one with more attributes, one reached by two
    actions: their words joined by "; ") and a target, each shape inside
    its mark, in one group; nothing to mark: the group empty."""
    dot = '<circle cx="5" cy="5" r="2"/>'
    assert marks([({"data-piece": "u1", "data-legal-to": "1,2", "data-battle": "true"}, ["u1 to 1,2"], dot),
                  ({"data-legal-to": "3,4"}, ["u1 turns", "u1 & u2 wheel"], "")],
                 [("e<1", ["u1 shoots e1"], dot)]) == [
        '<g class="destinations">',
        '<g class="dest" data-piece="u1" data-legal-to="1,2" data-battle="true"><title>u1 to 1,2</title>'
        '<circle cx="5" cy="5" r="2"/></g>',
        '<g class="dest" data-legal-to="3,4"><title>u1 turns; u1 &amp; u2 wheel</title></g>',
        '<g class="target" data-legal-target="e&lt;1"><title>u1 shoots e1</title><circle cx="5" cy="5" r="2"/></g>',
        "</g>"]
    assert marks([]) == ['<g class="destinations">', "</g>"]


def test_a_label_where_the_layout_put_it():
    """At one decimal, the anchor written unless it is the default
    ("start"), bold and the halo's opacity only when asked; the text escaped.
    The layout first: at y 15 and 26 the 9.5 px text's top (0.8 of its
    size above the baseline: 7.6 px) is inside the box taken (down to 20),
    at 37 it is free."""
    lay = Layout()
    lay.take((0, 0, 100, 20))
    at = lay.place("a<b", 9.5, along(50, 15, "middle", 0, 11))
    assert at == (50, 37, "middle")
    assert label(at, "a<b", 9.5, "#333", 2.5, opacity=0.8) == (
        '<text x="50.0" y="37.0" font-size="9.5" text-anchor="middle" fill="#ffffff" stroke="#ffffff" '
        'stroke-width="2.5" stroke-opacity="0.8">a&lt;b</text>'
        '<text x="50.0" y="37.0" font-size="9.5" text-anchor="middle" fill="#333">a&lt;b</text>')
    assert label((1 / 3, 7, "start"), "u1", 11, "#222", 3, bold=True) == (
        '<text x="0.3" y="7.0" font-size="11" font-weight="bold" fill="#ffffff" stroke="#ffffff" '
        'stroke-width="3">u1</text><text x="0.3" y="7.0" font-size="11" font-weight="bold" fill="#222">u1</text>')


def test_colours_follow_the_names_and_come_round_again():
    assert colours(["a", "b", "c"], ("#1", "#2")) == {"a": "#1", "b": "#2", "c": "#1"}


def test_a_text_box():
    """4 characters of 10 px: 22.4 px wide (24.8 bold), 8 px above the baseline, 2.5 below."""
    assert text_box(10, 20, "abcd", 10) == pytest.approx((10, 12, 32.4, 22.5))
    assert text_box(10, 20, "abcd", 10, "middle") == pytest.approx((-1.2, 12, 21.2, 22.5))
    assert text_box(10, 20, "abcd", 10, "end", bold=True) == pytest.approx((-14.8, 12, 10, 22.5))


def test_candidates_along_a_line_and_outwards():
    assert list(along(0, 0, "end", 1, 2, n=3)) == [(0, 0, "end"), (1, 2, "end"), (2, 4, "end"),
                                                   (-1, -2, "end"), (-2, -4, "end")]
    assert list(outwards(0, 0, "end", 1, 2, n=3)) == [(0, 0, "end"), (1, 2, "end"), (-1, -2, "end"),
                                                      (2, 4, "end"), (-2, -4, "end")]


def test_a_label_with_no_free_place_takes_its_first():
    lay = Layout()
    lay.take((0, 0, 100, 100))
    assert lay.place("x", 10, [(10, 50, "start"), (20, 50, "start")]) == (10, 50, "start")
    assert lay.boxes[-1] == text_box(10, 50, "x", 10)
    assert lay.place("x", 10, [(10, 50, "start"), (120, 50, "start")]) == (120, 50, "start")


# ------------------------------------------------------------------ labels never overlap (hypothesis)

_label = st.tuples(st.text("abcdefgh ≤()", min_size=1, max_size=24), st.sampled_from([7.5, 9.5, 11.0, 12.0]),
                   st.floats(0, 600), st.floats(0, 400), st.sampled_from(["start", "middle", "end"]),
                   st.sampled_from([(0, 15), (0, -15), (15, 15)]), st.booleans())
_marker = st.tuples(st.floats(0, 600), st.floats(0, 400), st.floats(2, 30), st.floats(2, 30))


@settings(max_examples=200, deadline=None)
@given(st.lists(_marker, max_size=5), st.lists(_label, max_size=20))
def test_no_label_overlaps_another_nor_a_marker(markers, labels):
    """Markers taken first, then each label placed along a line of
    candidates 15 px apart (more than a label is high: each box taken
    blocks at most a few of its 119 places, so a free one is always left):
    no two labels overlap, none meets a marker, and each is at its first
    candidate that met nothing placed before it."""
    lay = Layout()
    boxes = [(x, y, x + w, y + h) for x, y, w, h in markers]
    for b in boxes:
        lay.take(b)
    placed = []
    for text, size, x, y, anchor, (dx, dy), bold in labels:
        candidates = list(along(x, y, anchor, dx, dy))
        before = list(lay.boxes)
        got = lay.place(text, size, candidates, bold)
        mine = text_box(*got[:2], text, size, got[2], bold)
        first_free = next(c for c in candidates
                          if not any(meet(text_box(c[0], c[1], text, size, c[2], bold), b) for b in before))
        assert got == first_free
        assert not any(meet(mine, b) for b in boxes + placed)
        placed.append(mine)
    assert lay.boxes == boxes + placed


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text("abcdefghij ", min_size=1, max_size=30), max_size=12), st.floats(250, 800))
def test_a_legend_keeps_within_its_width(words, right):
    """Each key (a 14 px box, a 4 px gap and at most 30 characters: 168 px)
    fits the width; the keys are laid left to right and wrapped: none runs
    past ``right``, none overlaps the one before it."""
    leg = Legend(0, 0, right)
    for w in words:
        leg.key(box("#777"), w)
    texts = [t for t in leg.out if t.startswith("<text")]
    assert len(texts) == len(words)
    spans = []
    for t, w in zip(texts, words):
        x, y = (float(v) for v in re.search(r'x="([^"]+)" y="([^"]+)"', t).groups())
        spans.append((y, x - 18, text_box(x, y, w, 10)[2]))
        assert spans[-1][2] <= right + 1e-9
    for (y0, _, r0), (y1, l1, _) in zip(spans, spans[1:]):
        assert y1 > y0 or l1 >= r0
