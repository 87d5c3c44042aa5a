"""Draw a hex board as SVG: terrain, sections, units, leaders, and the ordered
pieces' legal destinations, readable at a glance.

Every drawn thing carries a class and data attributes, so tools (and tests)
can read the picture back: ``<g class="dest" data-piece="s3" data-hex="3,5"
data-battle="true">``, ``<g class="unit" data-id="s3" ...>``.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape, quoteattr

from ...solver.board import BoardCannotAnswer

SIZE = 30.0  # hex radius in px
MARGIN = 24.0
PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#e377c2", "#8c564b"]
TERRAIN_FILL = {
    "forest": "#7fb069", "hill": "#d8c08a", "broken_ground": "#b9a48a", "marsh": "#9cc5c0",
    "river": "#6fa8dc", "ford": "#a9cce3",
}
SECTION_FILL = {"left": "#f6f1e3", "center": "#fbf8ef", "right": "#f6f1e3"}
SIDE_COLOURS = ("#3b5ba5", "#a53b3b")  # side to move, other side

_ABBREV = {
    "light_infantry": "LI", "light_bow_infantry": "LB", "light_sling_infantry": "LS", "auxilia": "AX",
    "light_war_machine": "LWM", "medium_infantry": "MI", "warrior": "WA", "heavy_infantry": "HI",
    "heavy_war_machine": "HWM", "light_cavalry": "LC", "light_bow_cavalry": "LBC", "light_chariot": "LCh",
    "medium_cavalry": "MC", "camel": "CA", "heavy_cavalry": "HC", "elephant": "EL", "heavy_chariot": "HCh",
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
    """SVG of the grounding's board; ``dests`` as returned by
    ``Engine.destinations`` ({piece id: {(col, row): battle}})."""
    s = g.setting
    board = s.board
    require_drawable(board)
    dests = dests or {}
    cells = sorted(board.cells, key=lambda c: (c[1], c[0]))
    width = MARGIN * 2 + math.sqrt(3) * SIZE * (board.width + 0.5)
    height = MARGIN * 2 + SIZE * 2 + 1.5 * SIZE * (board.depth - 1) + 84
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
        f"<title>{escape(title)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        '<g class="hexes">',
    ]
    for c in cells:
        cx, cy = _centre(*c)
        secs = s.sections_of(c)
        terrain = s.terrain.get(c)
        fill = TERRAIN_FILL.get(terrain) or SECTION_FILL.get(sorted(secs)[0] if secs else "", "#fbf8ef")
        dotted = len(secs) > 1
        stroke = ' stroke-dasharray="4,3" stroke="#7a6a4a" stroke-width="1.6"' if dotted else ' stroke="#b5a98c" stroke-width="1"'
        out.append(
            f'<polygon class="hex{" dotted" if dotted else ""}" data-hex="{c[0]},{c[1]}" '
            f'data-sections={quoteattr(",".join(sorted(secs)))}'
            + (f' data-terrain="{terrain}"' if terrain else "")
            + f' points="{_corners(cx, cy)}" fill="{fill}"{stroke}/>'
        )
        if terrain:
            out.append(f'<text x="{cx:.1f}" y="{cy + SIZE * 0.62:.1f}" font-size="7" text-anchor="middle" '
                       f'fill="#3d3d3d">{escape(terrain.replace("_", " "))}</text>')
        out.append(f'<text x="{cx:.1f}" y="{cy - SIZE * 0.6:.1f}" font-size="6" text-anchor="middle" '
                   f'fill="#9a917c">{c[0]},{c[1]}</text>')
    out.append("</g>")
    # destinations: a row of markers along the bottom of each hex, above the pieces
    order = list(dests)
    colour = {pid: PALETTE[i % len(PALETTE)] for i, pid in enumerate(order)}
    marks: list[str] = ['<g class="destinations">']
    n = len(order)
    for i, pid in enumerate(order):
        for (col, row), battle in dests[pid].items():
            cx, cy = _centre(col, row)
            step = SIZE * 0.4
            x = cx + (i - (n - 1) / 2) * step
            y = cy + SIZE * 0.66
            fill = colour[pid] if battle is not False else "#ffffff"
            marks.append(
                f'<g class="dest" data-piece={quoteattr(pid)} data-hex="{col},{row}"'
                + (f' data-battle="{str(battle).lower()}"' if battle is not None else "")
                + f'><circle cx="{x:.1f}" cy="{y:.1f}" r="{SIZE * 0.17:.1f}" fill="{fill}" '
                f'stroke="{colour[pid]}" stroke-width="2"/></g>'
            )
    marks.append("</g>")
    # units and leaders
    out.append('<g class="pieces">')
    for v in s.views:
        if v.role != "unit":
            continue
        cx, cy = _centre(*v.at)
        col = SIDE_COLOURS[0] if v.side == s.side else SIDE_COLOURS[1]
        ring = f' stroke="{colour[v.id]}" stroke-width="4"' if v.id in colour else ' stroke="#222" stroke-width="1"'
        mounted = v.attrs.get("kind") == "mounted"
        shape = (f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{SIZE * 0.5:.1f}" fill="{col}"{ring}/>' if mounted else
                 f'<rect x="{cx - SIZE * 0.5:.1f}" y="{cy - SIZE * 0.4:.1f}" width="{SIZE:.1f}" height="{SIZE * 0.8:.1f}" '
                 f'rx="3" fill="{col}"{ring}/>')
        out.append(
            f'<g class="unit" data-id={quoteattr(v.id)} data-side={quoteattr(v.side)} data-type={quoteattr(v.type or "")}>'
            f'{shape}<text x="{cx:.1f}" y="{cy - 1:.1f}" font-size="9" font-weight="bold" text-anchor="middle" '
            f'fill="#fff">{escape(_abbrev(v.type))}</text><text x="{cx:.1f}" y="{cy + 9:.1f}" font-size="7" '
            f'text-anchor="middle" fill="#fff">{escape(v.id)}</text></g>'
        )
    for v in s.views:
        if v.role != "leader":
            continue
        cx, cy = _centre(*v.at)
        col = SIDE_COLOURS[0] if v.side == s.side else SIDE_COLOURS[1]
        ring = f' stroke="{colour[v.id]}" stroke-width="3"' if v.id in colour else ' stroke="#fff" stroke-width="1.5"'
        lx, ly = cx + SIZE * 0.45, cy - SIZE * 0.45
        out.append(
            f'<g class="leader" data-id={quoteattr(v.id)} data-side={quoteattr(v.side)}>'
            f'<polygon points="{_star(lx, ly, SIZE * 0.3)}" fill="{col}"{ring}/>'
            f'<text x="{lx:.1f}" y="{ly - SIZE * 0.35:.1f}" font-size="7" text-anchor="middle" fill="#222">'
            f'{escape(v.id)}</text></g>'
        )
    out.append("</g>")
    out.extend(marks)
    # section names along the side's own edge
    names = {}
    for c in cells:
        secs = s.sections_of(c)
        if len(secs) == 1:
            names.setdefault(next(iter(secs)), []).append(_centre(*c)[0])
    yl = MARGIN + SIZE * 2 + 1.5 * SIZE * (board.depth - 1) + 4
    for name, xs in names.items():
        out.append(f'<text class="section-name" x="{sum(xs) / len(xs):.1f}" y="{yl:.1f}" font-size="10" '
                   f'text-anchor="middle" fill="#7a6a4a">{escape(name)} ({escape(s.side)})</text>')
    # legend
    y0 = height - 58
    out.append(f'<g class="legend" font-size="10"><text x="{MARGIN}" y="{y0}" font-weight="bold">'
               f'{escape(title)}</text>')
    x = MARGIN
    y = y0 + 16
    out.append(f'<rect x="{x}" y="{y - 9}" width="12" height="10" fill="{SIDE_COLOURS[0]}"/>'
               f'<text x="{x + 16}" y="{y}">{escape(s.side)} (foot ▭, mounted ◯, leader ★)</text>')
    out.append(f'<rect x="{x + 260}" y="{y - 9}" width="12" height="10" fill="{SIDE_COLOURS[1]}"/>'
               f'<text x="{x + 276}" y="{y}">opponent</text>')
    out.append(f'<text x="{x + 360}" y="{y}">dashed hex: on a dotted line (two sections)</text>')
    y += 16
    for pid in order:
        out.append(f'<circle cx="{x + 6}" cy="{y - 4}" r="5" fill="{colour[pid]}" fill-opacity="0.55" '
                   f'stroke="{colour[pid]}" stroke-width="2"/><text x="{x + 16}" y="{y}">{escape(pid)}</text>')
        x += 20 + 7 * len(pid) + 12
    out.append(f'<text x="{x + 4}" y="{y}">filled: may battle there · white: may not battle</text>')
    out.append("</g></svg>")
    return "\n".join(out) + "\n"


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy + rr * math.sin(a):.1f}")
    return " ".join(pts)
