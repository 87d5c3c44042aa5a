"""An SVG picture of a square-grid ancients board: squares with their
coordinates, terrain with its name, units (two squares wide, the front edge
and an arrow for their facing, type and ratings, Disordered dashed), the
Generals with their units, the zones of control the pack defines (``zoc``,
a replaceable default), the legal activations of each unit of the side to
move, and a legend. One drawing for both outputs: ``activations --svg
FILE`` (``grid_svg(engine, side=...)``) and the game interface's
``State.svg(select)`` (``GridTurn.draw``: the board as the phase has left
it, the selected unit's steps marked ``data-legal-to="c,r"`` and the units
it may attack, charge or shoot ``data-legal-target``).

Each unit is a ``<g class="unit" id="<id>" data-piece="<id>">``; a General
is an element ``data-piece="<id>"`` on his unit (or beside the board).
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from ...kernel.picture import (DESTINATION, SELECTED, TARGET, Layout, Legend, attrs, box, colours, document, dot,
                               front, group, label, marks, num, outwards, stroke, text_box)

CELL = 56
PAD = 22  # room for the coordinates along the top and the left
TERRAIN_FILL = {"rough": "#d8c69a", "forest": "#7fb77e", "river": "#8fb8de", "hill": "#e5d3b3",
                "linear_obstacle": "#9e9e9e", "agricultural": "#e9e4b0", "open": "#ffffff"}
SIDE_FILL = ("#c0392b", "#2c5aa0", "#7d3c98", "#1e8449")
ARROW = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
SHORT = {"move": "Mv", "combat": "Cb", "charge": "Ch", "shoot": "Sh", "reform": "Rf"}
DISORDERED = ('<defs><pattern id="disordered" width="8" height="8" patternUnits="userSpaceOnUse" '
              'patternTransform="rotate(45)"><rect width="3" height="8" fill="#ffffff" fill-opacity="0.45"/></pattern>'
              '</defs>')
ABBREV = {"formed_infantry": "FI", "infantry_skirmishers": "Sk", "cavalry": "Cav", "elephants": "El",
          "chariots": "Cht", "light_horse": "LH", "artillery": "Art"}


def grid_svg(eng, side: str | None = None, setting=None, activations: dict | None = None,
             select: str | None = None, steps: dict | None = None, targets: dict | None = None) -> str:
    """The board of ``eng`` (a ``GridEngine``) as an SVG document, as
    ``setting`` has it (a ``GridSetting``; default: the scenario's, seen by
    ``side``). ``activations``: {unit: [option, ...]} the legal ones to
    mark (default: ``legal_activations``' for the side); ``select``: a
    unit, with ``steps`` {(c, r): [words]} where its legal steps take it
    and ``targets`` {unit: [words]} the units it may act against."""
    sc = eng.scenario
    s = setting or eng.setting(side)
    if activations is None:
        activations = {uid: [o for o, vs in opts.items() if not vs]
                       for uid, opts in eng.legal_activations(setting=s).items()}
    steps, targets = steps or {}, targets or {}
    w, h = sc.board.width, sc.board.depth
    colour = colours(sc.sides, SIDE_FILL)
    out = []
    for c in range(w):
        out.append(f'<text class="coord" x="{c * CELL + CELL / 2}" y="-7" font-size="11" text-anchor="middle" '
                   f'fill="#777">{c}</text>')
    for r in range(h):
        out.append(f'<text class="coord" x="-7" y="{r * CELL + CELL / 2 + 4}" font-size="11" text-anchor="end" '
                   f'fill="#777">{r}</text>')
    for r in range(h):
        for c in range(w):
            t = s.terrain.get((c, r))
            fill = TERRAIN_FILL.get(t, "#ffffff")
            out.append(f'<rect x="{c * CELL}" y="{r * CELL}" width="{CELL}" height="{CELL}" fill="{fill}" '
                       f'stroke="#bbbbbb"><title>{c},{r}{" " + escape(t) if t else ""}</title></rect>')
            out.append(f'<text x="{c * CELL + 3}" y="{r * CELL + 10}" font-size="8" fill="#aaa">{c},{r}</text>')
            if t:
                out.append(f'<text class="terrain-name" x="{c * CELL + CELL / 2}" y="{r * CELL + CELL - 5}" '
                           f'font-size="8.5" font-style="italic" text-anchor="middle" fill="#444">'
                           f'{escape(t.replace("_", " "))}</text>')
    for v in sorted(s.all_units, key=lambda v: v.id):  # zones of control, under the units
        for c, r in sorted(eng.hook(s, "zoc", v)):
            if (c, r) in sc.board.cells:
                out.append(f'<rect class="zoc" x="{c * CELL + 3}" y="{r * CELL + 3}" width="{CELL - 6}" '
                           f'height="{CELL - 6}" fill="{colour[v.side]}" fill-opacity="0.12" '
                           f'stroke="{colour[v.side]}" stroke-dasharray="4 3"><title>ZOC of {escape(v.id)}</title></rect>')
    generals = {}
    for gen in sc.generals:
        generals.setdefault(gen.attached_to, []).append(gen)
    lay = Layout()  # (the units' words and Generals taken: the steps' words placed clear of them)
    for v in sorted(s.all_units, key=lambda v: v.id):
        out.append(_unit(s, v, colour[v.side], activations.get(v.id), generals.get(v.id, ()), v.id == select, lay))
    squares, hits, tags = [], [], []
    for (c, r), words in sorted(steps.items()):
        squares.append(({"data-legal-to": f"{c},{r}"}, words,
                        f'<rect x="{c * CELL + 6}" y="{r * CELL + 6}" width="{CELL - 12}" height="{CELL - 12}" rx="6" '
                        f'fill="{DESTINATION}" fill-opacity="0.35" stroke="{DESTINATION}" stroke-width="2.5"/>'))
        # each manoeuvre, without the unit's id, drawn over every mark: on its own line in the square,
        # or the nearest one up or down (up to 30 px) that meets no unit's words and no other step's
        for i, said in enumerate(words):
            step = said.split(" ", 1)[-1]
            y = r * CELL + CELL / 2 - 5 * (len(words) - 1) + 10 * i + 3
            at = lay.place(step, 9, outwards(c * CELL + CELL / 2, y, "middle", 0, 10, n=4), bold=True)
            tags.append(label(at, step, 9, "#8a3000", 3, bold=True))
    for uid, words in sorted(targets.items()):
        v = s.by_id.get(uid)
        if v is None or v.id not in s.foot:
            continue
        x0, y0, x1, y1 = _box(s, v)
        hits.append((uid, words, f'<rect x="{x0 + 1}" y="{y0 + 1}" width="{x1 - x0 - 2}" height="{y1 - y0 - 2}" '
                                 f'fill="none" stroke="{TARGET}" stroke-width="3" stroke-dasharray="7 3"/>'))
    if select is not None:
        out.extend(marks(squares, hits) + tags)
    legend = _legend(sc, s, colour, generals, h * CELL, w * CELL, select)
    # (the legend's elements as they are: every <g> of the picture is a unit or a mark)
    return document(w * CELL + PAD + 2, h * CELL + PAD + legend.height, f"{sc.name}: {s.side} to move",
                    out + legend.lines(None), origin=(-PAD, -PAD), defs=DISORDERED)


def _box(s, v) -> tuple:
    sq = sorted(s.squares(v))
    x0, y0 = min(c for c, _ in sq) * CELL, min(r for _, r in sq) * CELL
    x1, y1 = (max(c for c, _ in sq) + 1) * CELL, (max(r for _, r in sq) + 1) * CELL
    return x0, y0, x1, y1


def _unit(s, v, fill: str, options, generals, selected: bool, lay: Layout) -> str:
    """A unit's group: its rectangle, front edge, words and Generals (those
    words and Generals taken in ``lay``)."""
    x0, y0, x1, y1 = _box(s, v)
    st = s.state(v)
    dash = ' stroke-dasharray="6 3"' if st.disordered else ""
    ring = f' stroke="{SELECTED}" stroke-width="4"' if selected else ' stroke="#222" stroke-width="1.2"'
    u = v.piece
    stats = f"C{u.combat}" + (f" R{u.ranged}" if u.ranged else "") + f" M{u.manoeuvre} D{v.attrs['discipline']}"
    tip = (f"{v.id}: {v.type.replace('_', ' ')} ({v.side}) facing {st.facing}"
           + (", Disordered" if st.disordered else "") + f"; combat {u.combat}, manoeuvre {u.manoeuvre}, "
           f"discipline {v.attrs['discipline']}" + (f", ranged {u.ranged}" if u.ranged else ""))
    out = [f'<rect x="{x0 + 4}" y="{y0 + 4}" width="{x1 - x0 - 8}" height="{y1 - y0 - 8}" rx="4" fill="{fill}" '
           f'fill-opacity="0.9"{ring}{dash}/>']
    if st.disordered:
        out.append(f'<rect class="disordered" x="{x0 + 4}" y="{y0 + 4}" width="{x1 - x0 - 8}" height="{y1 - y0 - 8}" '
                   f'rx="4" fill="url(#disordered)"/>')
    dx, dy = ARROW[st.facing]
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    # the front edge, thick, and a small arrowhead beyond it
    if dy:
        ey = y0 + 4 if dy < 0 else y1 - 4
        out.append(front((x0 + 6, ey), (x1 - 6, ey), (dx, dy), 4, 0, 7, 6))
    else:
        ex = x0 + 4 if dx < 0 else x1 - 4
        out.append(front((ex, y0 + 6), (ex, y1 - 6), (dx, dy), 4, 0, 7, 6))
    name = f"{ABBREV.get(v.type, v.type[:3].title())} {v.id}"
    lay.take(text_box(cx, cy - 4, name, 12, "middle", bold=True))
    lay.take(text_box(cx, cy + 9, stats, 9.5, "middle"))
    out.append(f'<text x="{cx}" y="{cy - 4}" font-size="12" font-weight="bold" text-anchor="middle" '
               f'fill="#fff">{escape(name)}</text>')
    out.append(f'<text x="{cx}" y="{cy + 9}" font-size="9.5" text-anchor="middle" fill="#fff">{escape(stats)}</text>')
    if options:
        text = " ".join(SHORT.get(o, o) for o in options)
        out.append(f'<rect class="activations" x="{cx - 3.2 * len(text) - 4}" y="{cy + 12}" width="{6.4 * len(text) + 8}" '
                   f'height="12" rx="3" fill="#2e7d32"><title>legal: {escape(", ".join(options))}</title></rect>'
                   f'<text x="{cx}" y="{cy + 21.5}" font-size="9" text-anchor="middle" fill="#fff">{escape(text)}</text>')
    for i, gen in enumerate(generals):
        gx, gy = x1 - 12 - 18 * i, y0 + 14
        lay.take((gx - 8, gy - 8, gx + 8, gy + 8))
        lost = st.general_lost
        out.append(f'<circle class="piece general"{attrs({"data-piece": gen.id})} cx="{gx}" cy="{gy}" r="8" '
                   f'fill="{"#999" if lost else "#f1c40f"}" stroke="#222"><title>General {escape(gen.id)} '
                   f'(generalship {gen.generalship}){" — lost" if lost else ""}</title></circle>'
                   f'<text x="{gx}" y="{gy + 4}" font-size="10" font-weight="bold" text-anchor="middle" '
                   f'fill="#222">G</text>')
    data = {"id": v.id, "data-piece": v.id, "data-side": v.side, "data-at": f"{st.at[0]},{st.at[1]}",
            "data-facing": st.facing}
    return group("piece unit", data, tip, "".join(out))


def _legend(sc, s, colour: dict, generals: dict, y0: float, width: float, select) -> Legend:
    leg = Legend(0, y0 + 2, width, size=10, line=18)
    for name in sc.sides:
        leg.key(box(colour[name], 16, 11), name + (" (to move)" if name == s.side else ""))
    leg.key(stroke("#111", 4), "front edge (facing)")
    leg.key(dot("#f1c40f", 7, stroke="#222"), "General")
    leg.key(lambda x, y: (f'<rect x="{num(x)}" y="{num(y - 10)}" width="18" height="11" fill="#777" stroke="#222" '
                          f'stroke-dasharray="4 2"/><rect x="{num(x)}" y="{num(y - 10)}" width="18" height="11" '
                          f'fill="url(#disordered)"/>', 18), "Disordered")
    types = sorted({u.type for u in sc.units})
    leg.words([f"{ABBREV.get(t, t[:3].title())} {t.replace('_', ' ')}" for t in types]
              + ["C combat, R ranged, M manoeuvre, D discipline"])
    leg.key(box("#2e7d32", 22, 12, rx=3), "legal activations: " + ", ".join(f"{v} {k}" for k, v in SHORT.items()))
    leg.key(box("#c0392b", 14, 11, fill_opacity=0.15, stroke="#c0392b", stroke_dasharray="4 3"), "zone of control")
    leg.row()
    for t in sorted(set(s.terrain.values())):
        leg.key(box(TERRAIN_FILL.get(t, "#fff"), 14, 11, stroke="#bbb"), t.replace("_", " "))
    if select is not None:
        leg.key(box(DESTINATION, 14, 11, fill_opacity=0.45), f"where a step takes {select} (its left front square)")
        leg.key(box("none", 14, 11, stroke=TARGET, stroke_width=2, stroke_dasharray="4 2"),
                "it may attack, charge or shoot it")
    leg.row(start=True)
    # Generals with no unit (or whose unit is off the table): beside the board
    here = {v.id for v in s.all_units}
    alone = [gen for host, gens in generals.items() if host is None or host not in here for gen in gens]
    if alone:
        leg.key(None, "Generals with no unit on the table:")
    for gen in alone:
        leg.key(_general_alone(gen, colour), gen.id)
    leg.row(start=True)
    return leg


def _general_alone(gen, colour: dict):
    """A General with no unit on the table, drawn in the legend: a swatch that is the piece."""
    return lambda x, y: (
        f'<circle class="piece general"{attrs({"data-piece": gen.id})} cx="{num(x + 7)}" cy="{num(y - 4)}" r="7" '
        f'fill="#f1c40f" stroke="{colour.get(gen.side, "#222")}" stroke-width="2"><title>General '
        f'{escape(gen.id)} ({escape(gen.side)}, generalship {gen.generalship}), not with a unit on '
        f'the table</title></circle>', 14)
