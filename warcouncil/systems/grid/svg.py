"""An SVG picture of a square-grid ancients board: terrain, units (two
squares wide, an arrow for their facing) and the zones of control the pack
defines (``zoc``, a replaceable default).

    python -m warcouncil.systems.grid.svg SCENARIO [--rules HOUSE.wc ...] > board.svg
"""

from __future__ import annotations

import sys
from xml.sax.saxutils import escape

CELL = 48
TERRAIN_FILL = {"rough": "#d8c69a", "forest": "#7fb77e", "river": "#8fb8de", "hill": "#e5d3b3",
                "linear_obstacle": "#9e9e9e", "agricultural": "#e9e4b0", "open": "#ffffff"}
SIDE_FILL = ("#c0392b", "#2c5aa0", "#7d3c98", "#1e8449")
ARROW = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def grid_svg(eng) -> str:
    """The board of ``eng`` (a ``GridEngine``) as an SVG document."""
    sc = eng.scenario
    s = eng.setting()
    w, h = sc.board.width, sc.board.depth
    colour = {side: SIDE_FILL[i % len(SIDE_FILL)] for i, side in enumerate(sc.sides)}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w * CELL + 2}" height="{h * CELL + 2}" '
           f'viewBox="-1 -1 {w * CELL + 2} {h * CELL + 2}" font-family="sans-serif">',
           f"<title>{escape(sc.name)}</title>"]
    for r in range(h):
        for c in range(w):
            t = s.terrain.get((c, r))
            fill = TERRAIN_FILL.get(t, "#ffffff")
            out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="{fill}" '
                       f'stroke="#bbbbbb"><title>{c},{r}{" " + escape(t) if t else ""}</title></rect>')
    for v in sorted(s.all_units, key=lambda v: v.id):  # zones of control, under the units
        for c, r in sorted(eng.hook(s, "zoc", v)):
            if (c, r) in sc.board.cells:
                out.append(f'<rect class="zoc" x="{c * CELL + 3}" y="{r * CELL + 3}" width="{CELL - 6}" '
                           f'height="{CELL - 6}" fill="{colour[v.side]}" fill-opacity="0.15" '
                           f'stroke="{colour[v.side]}" stroke-dasharray="4 3"><title>ZOC of {escape(v.id)}</title></rect>')
    for v in sorted(s.all_units, key=lambda v: v.id):
        sq = sorted(s.squares(v))
        x0, y0 = min(c for c, _ in sq) * CELL, min(r for _, r in sq) * CELL
        x1, y1 = (max(c for c, _ in sq) + 1) * CELL, (max(r for _, r in sq) + 1) * CELL
        st = s.state(v)
        dash = ' stroke-dasharray="6 3"' if st.disordered else ""
        out.append(f'<g class="unit" id="{escape(v.id)}"><rect x="{x0 + 4}" y="{y0 + 4}" width="{x1 - x0 - 8}" '
                   f'height="{y1 - y0 - 8}" rx="4" fill="{colour[v.side]}" fill-opacity="0.85" stroke="#222"{dash}/>')
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = ARROW[st.facing]
        tip = (cx + dx * (abs(x1 - x0) / 2 - 6) if dx else cx, cy + dy * (abs(y1 - y0) / 2 - 6) if dy else cy)
        out.append(f'<line x1="{cx}" y1="{cy}" x2="{tip[0]}" y2="{tip[1]}" stroke="#fff" stroke-width="3"/>')
        out.append(f'<circle cx="{tip[0]}" cy="{tip[1]}" r="4" fill="#fff"/>')
        out.append(f'<text x="{cx}" y="{cy - 6 if dy == 0 else cy + (12 if dy < 0 else -4)}" font-size="12" '
                   f'text-anchor="middle" fill="#fff">{escape(v.id)}</text>')
        out.append(f"<title>{escape(v.id)}: {escape(v.type)} facing {st.facing}</title></g>")
    out.append("</svg>")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from ...errors import WarcouncilError
    from ...solver.engine import Engine

    args = list(sys.argv[1:] if argv is None else argv)
    rules = []
    while "--rules" in args:
        i = args.index("--rules")
        rules.append(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    try:
        eng = Engine.load(args[0], rules)
    except WarcouncilError as e:
        print(e, file=sys.stderr)
        return 2
    if not hasattr(eng, "legal_activations"):
        print("not a square-grid ancients scenario", file=sys.stderr)
        return 2
    sys.stdout.write(grid_svg(eng) + "\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
