"""An SVG picture of a Warmaster table: terrain, every footprint, each
character's command range and the 20 cm bands around the General.

``table_svg(engine, log=None)`` gives the text of one SVG document (y grows
to the north on the table, to the south in SVG: the picture is flipped).
Every id and name is escaped; nothing of a file reaches the SVG unescaped.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from shapely.geometry.base import BaseGeometry

SCALE = 5.0  # pixels per cm
SIDE_COLOURS = ("#c0392b", "#2c6fbb", "#2e8b57", "#8e44ad")
REACH = {"hero": 60.0, "wizard": 20.0}  # the pack's defaults, drawn (reference §5.2 W12)


def _path(g: BaseGeometry, depth: float) -> str:
    polys = getattr(g, "geoms", [g])
    out = []
    for p in polys:
        for ring in [p.exterior, *p.interiors]:
            pts = " L ".join(f"{x * SCALE:.2f} {(depth - y) * SCALE:.2f}" for x, y in ring.coords)
            out.append(f"M {pts} Z")
    return " ".join(out)


def table_svg(eng, log=None) -> str:
    """The table of ``eng`` (a ``WarmasterEngine``) as it stands after
    ``log`` (a ``table.Log``; default: the start)."""
    sc = eng.scenario
    t = (log or eng.start()).table
    w, d = sc.width, sc.depth
    colour = {s: SIDE_COLOURS[i % len(SIDE_COLOURS)] for i, s in enumerate(sc.sides)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * SCALE:.0f}" height="{d * SCALE:.0f}" '
             f'viewBox="0 0 {w * SCALE:.0f} {d * SCALE:.0f}">',
             f'<rect x="0" y="0" width="{w * SCALE:.0f}" height="{d * SCALE:.0f}" fill="#f3efe2"/>']
    for a in sc.terrain:
        fill = "#6b8e4e" if a.dense else "#4a6fa5" if a.impassable else "#c8d6a0"
        parts.append(f'<path d="{_path(a.polygon, d)}" fill="{fill}" fill-opacity="0.6">'
                     f'<title>{escape(a.type)}</title></path>')
    for c in t.characters():
        fp = c.fp.shape
        if c.piece.role == "general" and c.piece.side == sc.to_move:
            for k in (1, 2, 3):  # the 20 cm bands: -1, -2, -3 for distance
                parts.append(f'<path d="{_path(fp.buffer(20.0 * k, 64), d)}" fill="none" stroke="#999" '
                             f'stroke-dasharray="4 4"><title>{20 * k} cm from {escape(c.id)}</title></path>')
        reach = REACH.get(c.piece.role)
        if reach is not None:
            parts.append(f'<path d="{_path(fp.buffer(reach, 64), d)}" fill="{colour[c.piece.side]}" '
                         f'fill-opacity="0.08" stroke="{colour[c.piece.side]}">'
                         f'<title>{escape(c.id)}: command range {reach:g} cm</title></path>')
    for u in t.units():
        parts.append(f'<path d="{_path(u.fp.shape, d)}" fill="{colour[u.piece.side]}" stroke="#222" '
                     f'data-id={quoteattr(u.id)}><title>{escape(u.id)} ({escape(u.piece.type)})</title></path>')
    for c in t.characters():
        parts.append(f'<path d="{_path(c.fp.shape, d)}" fill="#f1c40f" stroke="{colour[c.piece.side]}" '
                     f'stroke-width="2" data-id={quoteattr(c.id)}><title>{escape(c.id)} '
                     f'({escape(c.piece.role)}, Command {c.piece.command})</title></path>')
    for p in [*t.units(), *t.characters()]:
        x, y = p.pose.at
        parts.append(f'<text x="{x * SCALE:.1f}" y="{(d - y) * SCALE - 8:.1f}" font-size="11" '
                     f'text-anchor="middle">{escape(p.id)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
