"""An SVG picture of a Warmaster table: terrain with its names, every unit
with its stands, type and facing, the characters, each character's command
range and the bands around the General (clipped to the table), the
orders that may be attempted (each character's target at the units it may
order), a legend and a scale bar. One drawing for both outputs: ``orders
--svg FILE`` (``table_svg(engine, log)``) and the game interface's
``State.svg(select)`` (``WarmasterTurn.draw``: the same, with the selected
piece's legal destinations marked ``data-legal-to="x,y"``).

y grows to the north on the table, to the south in SVG: the picture is
flipped. Every id and name is escaped; nothing of a file reaches the SVG
unescaped. Each piece is a ``<g class="piece ..." data-piece="<id>">``
holding its footprint (a ``<path data-id="<id>">``).
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from shapely.geometry import box
from shapely.geometry.base import BaseGeometry

from ...kernel.picture import (DESTINATION, SELECTED, Layout, Legend, along, attrs, colours, document, dot, front,
                               group, label, marks, num, outwards, stroke)
from ...kernel.picture import box as swatch
from ...kernel.log import LogCtx
from .words import num as written, xy_words

SCALE = 8.0  # pixels per cm
SIDE_COLOURS = ("#c0392b", "#2c6fbb", "#2e8b57", "#8e44ad")
LINE = 11.0  # pixels between two lines of order tags
ROLE_MARK = {"general": "G", "hero": "H", "wizard": "W"}
TYPE_MARK = {"infantry": "Inf", "cavalry": "Cav", "flying": "Fly", "artillery": "Art", "chariots": "Cht",
             "monster": "Mon", "machine": "Mac"}
TERRAIN_FILL = ("#c8d6a0", "#6b8e4e", "#4a6fa5")  # open, dense, impassable


def _path(g: BaseGeometry, depth: float) -> str:
    polys = getattr(g, "geoms", [g])
    out = []
    for p in polys:
        if p.is_empty or not hasattr(p, "exterior"):
            continue
        for ring in [p.exterior, *p.interiors]:
            pts = " L ".join(f"{x * SCALE:.2f} {(depth - y) * SCALE:.2f}" for x, y in ring.coords)
            out.append(f"M {pts} Z")
    return " ".join(out)



def table_svg(eng, log=None, select: str | None = None, legal: dict | None = None, orders: bool = True) -> str:
    """The table of ``eng`` (a ``WarmasterEngine``) as it stands after
    ``log`` (a ``table.Log``; default: the start). ``orders``: draw the
    orders that may be attempted next (``engine.options``); ``legal``:
    {(x, y) key: [action words, ...]}, the destinations of ``select``."""
    sc = eng.scenario
    log = log or eng.start()
    t = log.table
    w, d = sc.width, sc.depth
    table = box(0, 0, w, d)
    W, H = w * SCALE, d * SCALE
    colour = colours(sc.sides, SIDE_COLOURS)
    parts = [f'<rect class="table" x="0" y="0" width="{W:.0f}" height="{H:.0f}" fill="#f3efe2" stroke="#8a8170"/>']
    # a 10 cm grid, faint, for reading distances by eye
    for x in range(10, int(w), 10):
        parts.append(f'<line x1="{x * SCALE:.0f}" y1="0" x2="{x * SCALE:.0f}" y2="{H:.0f}" stroke="#e4ddc8" '
                     f'stroke-width="0.6"/>')
    for y in range(10, int(d), 10):
        parts.append(f'<line x1="0" y1="{H - y * SCALE:.0f}" x2="{W:.0f}" y2="{H - y * SCALE:.0f}" '
                     f'stroke="#e4ddc8" stroke-width="0.6"/>')
    # the labels' places, the most needed first: the character markers, the
    # units' and the characters' labels, the terrain's names, the orders'
    # tags, the General's bands (``Layout``: no two overlap)
    lay = Layout()
    for c in t.characters():
        cx, cy = c.pose.at[0] * SCALE, (d - c.pose.at[1]) * SCALE
        lay.take((cx - 10.5, cy - 10.5, cx + 10.5, cy + 10.5))  # (its circle: r 9, its stroke 2.5)
    for u in t.units():  # (no label on a unit)
        minx, miny, maxx, maxy = u.fp.shape.bounds
        lay.take((minx * SCALE, (d - maxy) * SCALE, maxx * SCALE, (d - miny) * SCALE))
    unit_at = {u.id: _unit_label(u, d, lay) for u in t.units()}
    char_at = {}
    for c in t.characters():
        cx, cy = c.pose.at[0] * SCALE, (d - c.pose.at[1]) * SCALE + 4
        char_at[c.id] = lay.place(f"{c.id} {c.piece.command}", 11, [
            (cx + 12, cy, "start"), (cx - 12, cy, "end"), *along(cx + 12, cy + LINE, "start", 0, LINE)])
    bands = []
    # what the pack says the picture draws (a house rule's is drawn): the
    # bands around the General a full step of the distance penalty apart
    # (distance_step), three of them, and each character's command range
    ctx = LogCtx(log)
    ranges: dict = {}  # role -> the command ranges drawn (the legend's words)
    step = float(eng.ask(ctx, "distance_step"))
    for a in sc.terrain:
        fill = TERRAIN_FILL[2] if a.impassable else TERRAIN_FILL[1] if a.dense else TERRAIN_FILL[0]
        what = "impassable" if a.impassable else "dense" if a.dense else "open"
        parts.append(f'<path class="terrain" d="{_path(a.polygon, d)}" fill="{fill}" fill-opacity="0.6" '
                     f'stroke="{fill}"><title>{escape(a.type)}</title></path>')
        minx, _, maxx, maxy = a.polygon.bounds
        x, y, _ = lay.place(f"{a.type} ({what})", 12,
                            along((minx + maxx) / 2 * SCALE, (d - maxy) * SCALE + 14, "middle", 0, 14))
        parts.append(f'<text class="terrain-name" x="{x:.1f}" y="{y:.1f}" font-size="12" '
                     f'font-style="italic" text-anchor="middle" fill="#2d3b1f">{escape(a.type)} ({what})</text>')
    for c in t.characters():
        fp = c.fp.shape
        if c.piece.role == "general" and c.piece.side == sc.to_move:
            for k in (1, 2, 3):  # -1, -2, -3 for distance
                ring = fp.buffer(step * k, 64).intersection(table)
                parts.append(f'<path class="band" d="{_path(ring, d)}" fill="none" stroke="#888" '
                             f'stroke-dasharray="5 4"><title>{step * k:g} cm from {escape(c.id)}</title></path>')
                top = fp.bounds[3] + step * k
                if top < d:
                    bands.append((c.pose.at[0] * SCALE, (d - top) * SCALE + 12, f"{step * k:g} cm (-{k})"))
        reach = eng.ask(ctx, "command_reach", c)
        if reach is not None:
            reach = float(reach)
            ranges.setdefault(c.piece.role, set()).add(reach)
            area = fp.buffer(reach, 64).intersection(table)
            parts.append(f'<path class="range" d="{_path(area, d)}" fill="{colour[c.piece.side]}" '
                         f'fill-opacity="0.04" stroke="{colour[c.piece.side]}" stroke-dasharray="2 3">'
                         f'<title>{escape(c.id)}: command range {reach:g} cm</title></path>')
    if orders:
        parts.extend(_orders(eng, log, t, d, colour, lay))
    for bx, by, words in bands:  # (along the band's top, left or right, where the labels leave room)
        x, y, _ = lay.place(words, 10, outwards(bx, by, "middle", 6, 0))
        parts.append(f'<text class="band-label" x="{x:.1f}" y="{y:.1f}" font-size="10" text-anchor="middle" '
                     f'fill="#777">{escape(words)}</text>')
    for u in t.units():
        parts.append(_unit(u, d, colour[u.piece.side], u.id == select, unit_at[u.id]))
    for c in t.characters():
        parts.append(_character(c, d, colour[c.piece.side], c.id == select, char_at[c.id]))
    if select is not None and select in t.poses:
        parts.extend(_marks(t, select, legal or {}, d))
    legend = _legend(sc, colour, H, W, bool(orders), select, step, ranges)
    return document(W, H + legend.height, f"{sc.name}: {sc.to_move} to move", parts + legend.lines())


def _label_of(u) -> str:
    p = u.piece
    return f"{TYPE_MARK.get(p.type, p.type[:3].title())} {u.id}" + (f" ({p.lost} lost)" if p.lost else "")


def _unit_label(u, d: float, lay: Layout) -> tuple:
    """Where a unit's label goes: behind it, further back if it must."""
    fp = u.fp
    (x, y), f = u.pose.at, math.radians(u.pose.facing)
    fx, fy = math.sin(f), math.cos(f)
    half = _reach(fp, fx, fy)
    back = (x - fx * (half + 3.2), y - fy * (half + 3.2))
    return lay.place(_label_of(u), 11, along(back[0] * SCALE, (d - back[1]) * SCALE + 4, "middle",
                                                 -fx * LINE, fy * LINE), bold=True)


def _unit(u, d: float, fill: str, selected: bool, label_at: tuple) -> str:
    p, fp = u.piece, u.fp
    ring = f' stroke="{SELECTED}" stroke-width="3"' if selected else ' stroke="#222" stroke-width="1"'
    out = [f'<path d="{_path(fp.shape, d)}" fill="{fill}"{ring}{attrs({"data-id": u.id})}>'
           f'<title>{escape(u.id)} ({escape(p.type)})</title></path>']
    for i, st in enumerate(fp.stands):  # each stand, the lost ones hollow
        gone = i >= len(fp.stands) - p.lost
        out.append(f'<path class="stand" d="{_path(st, d)}" fill="{"#ffffff" if gone else "none"}" '
                   f'fill-opacity="{0.6 if gone else 0}" stroke="#ffffff" stroke-width="0.8"/>')
    # the front edge: the footprint's side the facing points at
    (x, y), f = u.pose.at, math.radians(u.pose.facing)
    fx, fy = math.sin(f), math.cos(f)  # clockwise from north
    half = _reach(fp, fx, fy)
    lx, ly = -fy, fx  # along the front
    wide = _reach(fp, lx, ly)
    ax, ay = x + fx * half, y + fy * half
    # (and the arrowhead: its base 0.6 cm beyond the edge, 1 cm each side, its tip 1.6 cm further)
    out.append(front(((ax - lx * wide) * SCALE, (d - (ay - ly * wide)) * SCALE),
                     ((ax + lx * wide) * SCALE, (d - (ay + ly * wide)) * SCALE), (fx, -fy), 3,
                     0.6 * SCALE, 1.6 * SCALE, 1.0 * SCALE))
    out.append(label(label_at, _label_of(u), 11, fill, 3, bold=True))
    return group("piece unit", {"data-piece": u.id, "data-at": xy_words(u.pose.at), "data-facing": written(u.pose.facing),
                                "data-side": p.side, "data-type": p.type}, None, "".join(out))


def _reach(fp, vx: float, vy: float) -> float:
    """How far the footprint ``fp`` reaches from its place along the unit
    vector (vx, vy): along the facing, half its depth; across, half its width."""
    (x, y) = fp.at
    return max((px - x) * vx + (py - y) * vy for px, py in fp.shape.exterior.coords)


def _character(c, d: float, side: str, selected: bool, label_at: tuple) -> str:
    p = c.piece
    ring = SELECTED if selected else side
    x, y = c.pose.at
    mark = ROLE_MARK.get(p.role, p.role[:1].upper())
    return group("piece character", {"data-piece": c.id, "data-at": xy_words(c.pose.at), "data-side": p.side,
                                     "data-role": p.role}, None,
                 f'<path d="{_path(c.fp.shape, d)}" fill="#f1c40f" stroke="{ring}" stroke-width="2"'
                 f'{attrs({"data-id": c.id})}><title>{escape(c.id)} ({escape(p.role)}, Command {p.command})</title>'
                 f'</path><circle cx="{x * SCALE:.1f}" cy="{(d - y) * SCALE:.1f}" r="9" fill="#f1c40f" '
                 f'stroke="{ring}" stroke-width="2.5"/><text x="{x * SCALE:.1f}" y="{(d - y) * SCALE + 4:.1f}" '
                 f'font-size="11" font-weight="bold" text-anchor="middle" fill="#222">{mark}</text>'
                 + label(label_at, f"{c.id} {p.command}", 11, "#222", 3))


def _orders(eng, log, t, d: float, colour: dict, lay: Layout) -> list:
    """The orders that may be attempted next, each at its unit (a brigade:
    between its units): who may give it, the score needed on 2D6 (or
    less) and the chance, ``hero ≤7 (7/12)``; the penalties and their
    measurements in its title."""
    out = ['<g class="orders">']
    opts, _ = eng.options(log, eng.scenario.to_move)
    by_units: dict = {}
    for o in opts:
        by_units.setdefault(tuple(o["units"]), []).append(o)
    for units in sorted(by_units, key=len):  # a unit's own orders first, then its brigades'
        os_ = by_units[units]
        if len(units) == 1:
            tags = [(f"{o['character']} ≤{o['target']} ({o['p']})", [o]) for o in os_]
        else:
            tags = ["+".join(units) + ": " + " · ".join(f"{o['character']} ≤{o['target']} ({o['p']})" for o in os_)]
            tags = [(tags[0], os_)]
        xs = [t.poses[u].at[0] for u in units]
        ux, uy = sum(xs) / len(xs), sum(t.poses[u].at[1] for u in units) / len(units)
        f = math.radians(t.poses[units[0]].facing)
        down = math.cos(f) >= 0  # the unit faces up the picture: its back, and the tags, below it
        half = max(_reach(t.footprint(u), math.sin(f), math.cos(f)) for u in units)
        for tag, said in tags:  # (each on the first line under the unit, or further, that is free)
            y = (d - uy) * SCALE + (1 if down else -1) * ((half + 3.2) * SCALE + 16)
            at = lay.place(tag, 9.5, along(ux * SCALE, y, "middle", 0, LINE if down else -LINE))
            words = "; ".join(_order_words(eng, log, o) for o in said)
            data = {"data-by": ",".join(o["character"] for o in said), "data-units": ",".join(units),
                    "data-target": ",".join(str(o["target"]) for o in said)}
            out.append(group("order", data, words, label(at, tag, 9.5, "#333", 2.5, opacity=0.8)))
    out.append("</g>")
    return out


def _order_words(eng, log, o: dict) -> str:
    """An order that may be attempted, in words: its target, each penalty
    with what was measured for it, p and the chance of a blunder."""
    measured = eng.measured_option(log, o["character"], o["units"])
    pens = [f"{k} -{v}" + (f" ({'; '.join(measured[k])})" if k in measured else "")
            for k, v in o["penalties"].items() if v]
    return (f"{o['character']} orders {'+'.join(o['units'])}: {o['target']} or less on 2D6"
            + (f" ({', '.join(pens)})" if pens else "") + f", p {o['p']}, blunder {o['blunder']}")


def _marks(t, select: str, legal: dict, d: float) -> list:
    """The selected piece's legal destinations (``marks``): a dot at each, a faint line to it from the piece."""
    x0, y0 = t.poses[select].at
    dots = []
    for key, words in legal.items():
        x, y = (float(v) for v in key.split(","))
        dots.append(({"data-legal-to": key}, words,
                     f'<line x1="{x0 * SCALE:.1f}" y1="{(d - y0) * SCALE:.1f}" x2="{x * SCALE:.1f}" '
                     f'y2="{(d - y) * SCALE:.1f}" stroke="{DESTINATION}" stroke-width="0.8" stroke-opacity="0.5"/>'
                     f'<circle cx="{x * SCALE:.1f}" cy="{(d - y) * SCALE:.1f}" r="5" fill="{DESTINATION}" '
                     f'fill-opacity="0.8" stroke="#ffffff" stroke-width="1.5"/>'))
    return marks(dots)


def _legend(sc, colour: dict, H: float, W: float, orders: bool, select, step: float, ranges: dict) -> Legend:
    leg = Legend(10, H + 2, W - 10, size=11, line=20)
    for s in sc.sides:
        leg.key(swatch(colour[s], 16), s + (" (to move)" if s == sc.to_move else ""))
    leg.key(stroke("#111", 3), "front edge and facing; white lines: stands (4 x 2 cm), hollow: lost")
    types = sorted({u.type for u in sc.units})
    leg.words([f"{TYPE_MARK.get(k, k[:3].title())} {k}" for k in types]
              + ["characters: G general, H hero, W wizard, with their Command value"])
    leg.key(stroke("#888", 1, 30, "5 4"), f"{step:g}, {2 * step:g}, {3 * step:g} cm from the General "
                                           "(-1, -2, -3 to orders)")
    if ranges:  # (as drawn: the pack's command_reach)
        leg.key(stroke("#555", 1, 30, "2 3"), "command range (" + ", ".join(
            f"{role.title()} {'/'.join(f'{r:g}' for r in sorted(rs))} cm" for role, rs in sorted(ranges.items())) + ")")
    leg.row()
    if orders:
        leg.key(None, 'under a unit: "hero ≤7 (7/12)": who may order it, the 2D6 score it needs (or less), '
                      'the chance')
    if select is not None:
        leg.key(dot(DESTINATION), f"a legal destination of {select}")
    leg.row(start=True)
    # the scale bar: 20 cm in 5 cm steps
    y = leg.y
    leg.add('<g class="scale">' + "".join(
        f'<rect x="{num(10 + i * 5 * SCALE)}" y="{num(y - 8)}" width="{num(5 * SCALE)}" height="6" '
        f'fill="{"#333" if i % 2 == 0 else "#ffffff"}" stroke="#333"/>' for i in range(4))
        + f'<text x="{num(10 + 20 * SCALE + 6)}" y="{num(y - 1)}" font-size="11">'
        f'20 cm (table {sc.width:g} x {sc.depth:g} cm)</text></g>')
    leg.row()
    return leg
