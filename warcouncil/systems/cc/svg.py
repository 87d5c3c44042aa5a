"""Draw a Commands & Colors hex board as SVG: hexes with their coordinates,
the three sections, terrain with its name, units (type, side, blocks),
leaders, a legend, and marked destinations. One drawing for both outputs:
``moves --svg FILE`` (``render_board``) and the game interface's
``State.svg(select)`` (``CardTurn.draw``).

Every drawn thing carries a class and data attributes, so tools (and tests)
can read the picture back: ``<g class="piece unit" data-piece="s3" ...>``
for each piece (``data-id`` too), ``<g class="dest" data-piece="s3"
data-hex="3,5" data-legal-to="3,5" data-battle="true">`` for each marked
destination (centred in its hex), ``data-legal-target`` on a piece a
selected unit may battle.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from ...kernel.picture import SELECTED, TARGET, Legend, attrs, box, colours, document, dot, group, label, marks
from ...world.board import BoardCannotAnswer

SIZE = 34.0  # hex radius in px
MARGIN = 30.0
PALETTE = ["#e6550d", "#31a354", "#756bb1", "#d6616b", "#3182bd", "#17becf", "#e377c2", "#8c564b"]
TERRAIN_FILL = {
    "forest": "#7fb069", "hill": "#d8c08a", "broken_ground": "#b9a48a", "marsh": "#9cc5c0",
    "river": "#6fa8dc", "ford": "#a9cce3", "town": "#c9b8a8", "camp": "#e0cfa0",
}
SECTION_FILL = {"left": "#f2ecd9", "center": "#fbf8ef", "right": "#f2ecd9"}
SIDE_COLOURS = ("#2f5597", "#a52a2a", "#2e7d32", "#6a1b9a")  # by the scenario's order of sides
ORDERED = "#1b9e3e"  # the ring of a piece given an order (the game interface)

_ABBREV = {
    "light_infantry": "LI", "light_bow_infantry": "LB", "light_sling_infantry": "LS", "auxilia": "AX",
    "light_war_machine": "LWM", "medium_infantry": "MI", "warrior": "WA", "heavy_infantry": "HI",
    "heavy_war_machine": "HWM", "light_cavalry": "LC", "light_bow_cavalry": "LBC", "light_chariot": "LCh",
    "medium_cavalry": "MC", "camel": "CA", "heavy_cavalry": "HC", "elephant": "EL", "heavy_chariot": "HCh",
    "super_heavy_cavalry": "SHC",
}


def _centre(col: int, row: int) -> tuple[float, float]:
    w = math.sqrt(3) * SIZE
    x = MARGIN + w / 2 + w * (col + 0.5 * (row & 1))
    y = MARGIN + SIZE + 1.5 * SIZE * row
    return x, y


def _corners(cx: float, cy: float, r: float = SIZE) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + r * math.cos(a):.1f},{cy + r * math.sin(a):.1f}")
    return " ".join(pts)


def _abbrev(t: str | None) -> str:
    if not t:
        return "?"
    return _ABBREV.get(t, "".join(w[0] for w in t.split("_")).upper())


def require_drawable(board) -> None:
    """Raise ``BoardCannotAnswer`` (bad input, exit 2) unless ``render_board``
    can draw ``board``: hex boards only, for now."""
    if board.grid != "hex":
        kind = {"square": "a square grid", "table": "a measured table"}.get(board.grid, f"a {board.grid} board")
        raise BoardCannotAnswer(f"--svg draws hex boards only, and this scenario's board is {kind}: "
                                "leave out --svg")


def render_board(g, dests: dict | None = None, title: str = "") -> str:
    """``moves --svg``: the board of the grounding ``g`` with ``dests`` as
    ``Engine.destinations`` returns them ({piece id: {(col, row): battle}})."""
    return board_svg(g.setting, dests=dests, title=title)


def board_svg(s, where: dict | None = None, dests: dict | None = None, title: str = "",
              words: dict | None = None, targets: dict | None = None, select: str | None = None,
              ordered: tuple = ()) -> str:
    """SVG of the setting ``s``'s board with its pieces at ``where`` ({id:
    (col, row) or None (off the board)}; default: where the scenario puts
    them); ``dests``: {piece id: {(col, row): battle or None}}, each a mark
    centred in its hex, its ``<title>`` the ``words`` given for it
    ({(id, (col, row)): [text, ...]}) or else the piece and the hex;
    ``targets``: {piece id: [text, ...]} the pieces ``select`` may battle;
    ``ordered``: the pieces given an order (ringed green)."""
    board = s.board
    require_drawable(board)
    dests = dests or {}
    words = words or {}
    targets = targets or {}
    at = {v.id: v.at for v in s.views}
    at.update(where or {})
    sides = list(s.scenario.sides)
    side_colour = colours(sides, SIDE_COLOURS)
    cells = sorted(board.cells, key=lambda c: (c[1], c[0]))
    width = MARGIN * 2 + math.sqrt(3) * SIZE * (board.width + 0.5)
    board_h = MARGIN * 2 + SIZE * 2 + 1.5 * SIZE * (board.depth - 1)
    out = ['<g class="hexes">']
    labels = []  # (drawn over every hex: a name never hidden by the next hex)
    for c in cells:
        cx, cy = _centre(*c)
        secs = s.sections_of(c)
        terrain = s.terrain.get(c)
        fill = TERRAIN_FILL.get(terrain) or SECTION_FILL.get(sorted(secs)[0] if secs else "", "#fbf8ef")
        dotted = len(secs) > 1
        stroke = (' stroke-dasharray="4,3" stroke="#7a6a4a" stroke-width="1.6"' if dotted
                  else ' stroke="#b5a98c" stroke-width="1"')
        tip = f"{c[0]},{c[1]}: " + " and ".join(sorted(secs)) + (f", {terrain.replace('_', ' ')}" if terrain else "")
        out.append(
            f'<polygon class="hex{" dotted" if dotted else ""}" data-hex="{c[0]},{c[1]}"'
            + attrs({"data-sections": ",".join(sorted(secs)), "data-terrain": terrain or None})
            + f' points="{_corners(cx, cy)}" fill="{fill}"{stroke}><title>{escape(tip)}</title></polygon>'
        )
        if terrain:
            labels.append(f'<text class="terrain-name" x="{cx:.1f}" y="{cy + SIZE * 0.74:.1f}" font-size="6.5" '
                          f'text-anchor="middle" fill="#3d3d3d">{escape(terrain.replace("_", " "))}</text>')
        labels.append(f'<text class="coord" x="{cx:.1f}" y="{cy - SIZE * 0.62:.1f}" font-size="7" '
                      f'text-anchor="middle" fill="#8a8170">{c[0]},{c[1]}</text>')
    out.extend(labels)
    out.append("</g>")
    # section names along the bottom edge, as the side to move sees them
    names: dict = {}
    for c in cells:
        secs = s.sections_of(c)
        if len(secs) == 1 and c[1] == board.depth - 1:
            names.setdefault(next(iter(secs)), []).append(_centre(*c)[0])
    yl = board_h - MARGIN * 0.35
    for name, xs in names.items():
        out.append(f'<text class="section-name" x="{sum(xs) / len(xs):.1f}" y="{yl:.1f}" font-size="10" '
                   f'font-style="italic" text-anchor="middle" fill="#7a6a4a">{escape(name)} section '
                   f'({escape(s.side)})</text>')
    # units, then leaders (a leader with a unit: a star beside the block, his name below it); a
    # piece with destinations ringed in its marks' colour
    order = list(dests)
    colour = colours(order, PALETTE)
    out.append('<g class="pieces">')
    units_at = {at[v.id]: v for v in s.views if v.role == "unit" and at.get(v.id) is not None}
    leaders_at = {at[v.id] for v in s.views if v.role == "leader" and at.get(v.id) is not None}
    for v in s.views:
        if v.role != "unit" or at.get(v.id) is None:
            continue
        cx, cy = _centre(*at[v.id])
        col = side_colour.get(v.side, "#555")
        ring = (f' stroke="{SELECTED}" stroke-width="3"' if v.id == select else
                f' stroke="{colour[v.id]}" stroke-width="3"' if v.id in colour else
                f' stroke="{ORDERED}" stroke-width="3"' if v.id in ordered else ' stroke="#222" stroke-width="1"')
        mounted = v.attrs.get("kind") == "mounted"
        bw, bh = SIZE * 1.2, SIZE * 0.74  # (with a leader: shifted left, his star at its right)
        x0, y0 = cx - bw / 2 - (SIZE * 0.24 if at[v.id] in leaders_at else 0), cy - SIZE * 0.42
        shape = (f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{bw:.1f}" height="{bh:.1f}" '
                 f'rx="{bh / 2 if mounted else 3:.1f}" fill="{col}"{ring}/>')
        blocks = v.attrs.get("blocks")
        if v.piece.blocks is not None:
            blocks = v.piece.blocks
        top = v.attrs.get("max_blocks") or blocks or 0
        pips = []
        if isinstance(blocks, int) and isinstance(top, int):
            pw = 5.0
            px0 = x0 + (bw - (top * (pw + 2) - 2)) / 2
            for i in range(top):
                fill = "#ffffff" if i < blocks else "none"
                pips.append(f'<rect x="{px0 + i * (pw + 2):.1f}" y="{y0 + bh - pw - 3:.1f}" width="{pw}" '
                            f'height="{pw}" fill="{fill}" stroke="#ffffff" stroke-width="0.8"/>')
        tip = (f"{v.id}: {(v.type or '').replace('_', ' ')} ({v.side}), "
               f"{blocks} of {top} blocks" if isinstance(blocks, int) else f"{v.id} ({v.side})")
        data = {"data-piece": v.id, "data-id": v.id, "data-at": f"{at[v.id][0]},{at[v.id][1]}", "data-side": v.side,
                "data-type": v.type or "", "data-blocks": blocks if isinstance(blocks, int) else None,
                "data-legal-target": v.id if v.id in targets else None}
        out.append(group("piece unit", data, tip, (
            f'{shape}<text x="{x0 + 4:.1f}" y="{y0 + 11:.1f}" font-size="10" font-weight="bold" fill="#fff">'
            f'{escape(_abbrev(v.type))}</text>'
            f'<text x="{x0 + bw - 4:.1f}" y="{y0 + 10:.1f}" font-size="7.5" text-anchor="end" fill="#fff">'
            f'{escape(v.id)}</text>{"".join(pips)}')))
    for v in s.views:
        if v.role != "leader" or at.get(v.id) is None:
            continue
        cx, cy = _centre(*at[v.id])
        col = side_colour.get(v.side, "#555")
        ring = (f' stroke="{SELECTED}" stroke-width="3"' if v.id == select else
                f' stroke="{colour[v.id]}" stroke-width="2.5"' if v.id in colour else
                f' stroke="{ORDERED}" stroke-width="2.5"' if v.id in ordered else ' stroke="#fff" stroke-width="1.2"')
        with_unit = at[v.id] in units_at
        lx, ly = (cx + SIZE * 0.62, cy - SIZE * 0.08) if with_unit else (cx, cy - SIZE * 0.05)
        ny = cy + SIZE * 0.52 if with_unit else cy + SIZE * 0.42
        data = {"data-piece": v.id, "data-id": v.id, "data-at": f"{at[v.id][0]},{at[v.id][1]}", "data-side": v.side}
        out.append(group("piece leader", data, f"leader {v.id} ({v.side})", (
            f'<polygon points="{_star(lx, ly, SIZE * (0.24 if with_unit else 0.38))}" fill="{col}"{ring}/>'
            + label((cx, ny, "middle"), v.id, 7.5, col, 2.5, bold=True))))
    out.append("</g>")
    # destinations: centred in their hexes; several pieces' in one hex side by side
    per_hex: dict = {}
    for pid in order:
        for cell in dests[pid]:
            per_hex.setdefault(tuple(cell), []).append(pid)
    occupied = {c for pid, c in at.items() if c is not None}
    marked, hit = [], []
    for pid in order:
        for (col, row), battle in dests[pid].items():
            cx, cy = _centre(col, row)
            here = per_hex[(col, row)]
            n, i = len(here), here.index(pid)
            fill = colour[pid] if battle is not False else "#ffffff"
            said = words.get((pid, (col, row))) or [
                f"{pid} to {col},{row}" + {True: " (may battle)", False: " (may not battle)"}.get(battle, "")]
            if (col, row) in occupied:  # a hex a piece stands in: an outline inside its edge, the piece seen
                shape = (f'<polygon points="{_corners(cx, cy, SIZE * (0.9 - 0.12 * i))}" fill="none" '
                         f'stroke="{colour[pid]}" stroke-width="{3 if battle is not False else 1.5}"'
                         + ('' if battle is not False else ' stroke-dasharray="3,2"') + '/>')
            else:  # an empty hex: a dot at its centre (several pieces': side by side)
                r = SIZE * (0.3 if n == 1 else 0.2)
                x = cx + (i - (n - 1) / 2) * r * 2.2
                shape = (f'<circle cx="{x:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" fill-opacity="0.75" '
                         f'stroke="{colour[pid]}" stroke-width="2.5"/>')
            data = {"data-piece": pid, "data-hex": f"{col},{row}", "data-legal-to": f"{col},{row}",
                    "data-battle": str(battle).lower() if battle is not None else None}
            marked.append((data, said, shape))
    for tid, said in targets.items():
        if at.get(tid) is None:
            continue
        cx, cy = _centre(*at[tid])
        hit.append((tid, said, f'<polygon points="{_corners(cx, cy, SIZE * 0.9)}" fill="none" stroke="{TARGET}" '
                               f'stroke-width="3" stroke-dasharray="6,3"/>'))
    out.extend(marks(marked, hit))
    legend = _legend(s, sides, side_colour, order, colour, dests, board_h, width, title, bool(targets), ordered)
    return document(width, board_h + legend.height, title, out + legend.lines())


def _legend(s, sides, side_colour, order, colour, dests, y0, width, title, targets, ordered) -> Legend:
    leg = Legend(MARGIN, y0, width - MARGIN, size=10, line=16)
    if title:
        leg.heading(title)
    for name in sides:
        leg.key(box(side_colour[name]), f"{name} ({s.scenario.sides[name].edge} edge"
                + (", to move" if name == s.side else "") + ")")
    leg.key(box("#777", 20, 11, rx=2), "foot")
    leg.key(box("#777", 20, 11, rx=5.5), "mounted")
    leg.key(lambda x, y: (f'<polygon points="{_star(x + 7, y - 4, 7)}" fill="#777"/>', 14), "leader")
    leg.key(box("#777", 5, 5), "a block left")
    kinds = sorted({v.type for v in s.views if v.role == "unit" and v.type})
    leg.words(f"{_abbrev(t)} {t.replace('_', ' ')}" for t in kinds)
    leg.key(box(SECTION_FILL["left"], stroke="#b5a98c"), "flank section")
    leg.key(box(SECTION_FILL["center"], stroke="#b5a98c"), "center")
    leg.key(box("none", stroke="#7a6a4a", stroke_dasharray="3,2"), "on a dotted line (two sections)")
    for t in sorted(set(s.terrain.values())):
        leg.key(box(TERRAIN_FILL.get(t, "#ddd")), t.replace("_", " "))
    leg.row()
    for pid in order:
        leg.key(dot(colour[pid], 5, fill_opacity=0.75, stroke=colour[pid], stroke_width=2), pid)
    if order:
        flags = any(b is not None for d in dests.values() for b in d.values())
        leg.key(None, "destinations" + (" (filled: may battle there · white: may not battle)" if flags else "")
                + "; in a piece's hex: an outline")
    if ordered:
        leg.key(box("#777", rx=2, stroke=ORDERED, stroke_width=2.5), "ordered")
        leg.key(box("#777", rx=2, stroke=SELECTED, stroke_width=2.5), "selected")
    if targets:
        leg.key(box("none", 12, stroke=TARGET, stroke_width=2, stroke_dasharray="3,2"), "may battle it")
    leg.row(start=True)
    return leg


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return " ".join(pts)
