"""The board pictures' toolkit (SVG), the same for every family: the
document, the elements that carry a piece's or a mark's data attributes,
text with a white halo, a label layout in which no label covers another,
and the legend under the board.

Everything here is in pixels and knows no board, piece or rule: a family's
``svg.py`` keeps its geometry (where a hex, a square or a table position
lies, how a unit's footprint is drawn) and its words, and builds its
picture with these:

* ``document(width, height, title, body, origin, defs)``: the SVG document,
  a white background under ``body``;
* ``colours(names, palette)``: a colour for each name (each side), in order;
* ``attrs(data)``, ``group(cls, data, title, body)``: a ``<g>`` with a class,
  quoted data attributes and a ``<title>`` (a piece, a destination, a
  target, an order); every value and title is escaped;
* ``marks(dests, targets)``: a selected piece's legal destinations
  (``data-legal-to``) and the pieces it may act against
  (``data-legal-target``), the actions' words in their titles;
* ``halo(at, text, fill, width)``: a text over a white copy of itself;
  ``label((x, y, anchor), text, size, fill, width)``: one at a place
  (``Layout.place``'s answer);
* ``front(a, b, facing, ...)``: a unit's front edge and the arrowhead of its facing;
* ``text_box``, ``Layout``, ``along``, ``outwards``: where labels go, the
  first free place of each label's candidates, so that no two labels overlap;
* ``Legend``: keys (a swatch and its words) laid left to right in rows,
  wrapped at the picture's width; its ``height`` sizes the document.

The colours every family means the same by: ``SELECTED`` (the ring of the
selected piece), ``DESTINATION``, ``TARGET`` (a piece a selected one may act
against), ``HALO``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from xml.sax.saxutils import escape, quoteattr

SELECTED = "#ffd700"
DESTINATION = "#e6550d"
TARGET = "#d62728"
HALO = "#ffffff"

#: a text's width per character, in ems (an estimate for the sans-serif
#: fonts browsers and cairosvg use: DejaVu Sans runs ~0.52 em, bold ~0.58)
EM_WIDTH, BOLD_EM_WIDTH = 0.56, 0.62


def num(v: float) -> str:
    """A coordinate as the pictures write it: at most one decimal, no ``.0``."""
    return f"{round(float(v), 1):g}"


def document(width: float, height: float, title: str, body: Iterable[str], origin: tuple = (0, 0),
             defs: str = "") -> str:
    """An SVG document ``width`` x ``height`` pixels whose top left corner
    is ``origin`` (user units), titled ``title``: a white background, then
    ``defs`` (patterns and the like, if any), then the lines of ``body``."""
    x, y = origin
    box = f'x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" height="{height:.0f}"'
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="{x:.0f} {y:.0f} {width:.0f} {height:.0f}" font-family="sans-serif">',
            f"<title>{escape(title)}</title>",
            f'<rect {box} fill="#ffffff"/>']
    return "\n".join(head + ([defs] if defs else []) + list(body) + ["</svg>"]) + "\n"


def colours(names: Iterable[str], palette: tuple) -> dict:
    """{name: colour}: the palette's colours in the names' order, again from
    the first when there are more names than colours."""
    return {name: palette[i % len(palette)] for i, name in enumerate(names)}


def attrs(data: dict) -> str:
    """``data`` as attributes, each value quoted and escaped (a value of
    None left out), each with a space before it."""
    return "".join(f" {k}={quoteattr(str(v))}" for k, v in data.items() if v is not None)


def group(cls: str, data: dict, title: str | None, body: str) -> str:
    """A ``<g class="cls" ...data>`` holding a ``<title>`` (unless None) and
    ``body``: how a piece, a destination, a target or an order is drawn, so
    that tools (and tests) read the picture back by its attributes."""
    said = "" if title is None else f"<title>{escape(title)}</title>"
    return f'<g class="{cls}"{attrs(data)}>{said}{body}</g>'


def marks(dests: Iterable[tuple], targets: Iterable[tuple] = ()) -> list[str]:
    """The marks of a selected piece's legal actions, as the board page
    reads them, in a ``<g class="destinations">``: each destination
    ``(data, words, shape)`` a ``<g class="dest">`` with the attributes
    ``data`` (its ``data-legal-to`` among them), each target ``(id, words,
    shape)`` (a piece the actions act against) a ``<g class="target"
    data-legal-target="id">``; the actions' ``words`` in the title, joined
    by "; " (where the page splits them)."""
    return ['<g class="destinations">',
            *(group("dest", data, "; ".join(words), shape) for data, words, shape in dests),
            *(group("target", {"data-legal-target": pid}, "; ".join(words), shape) for pid, words, shape in targets),
            "</g>"]


def halo(at: str, text: str, fill: str, width: float, opacity: float | None = None) -> str:
    """``text`` in ``fill`` over a white copy of itself stroked ``width``
    wide, readable over whatever lies under it; ``at`` the attributes the
    two share (x, y, font size, anchor, weight)."""
    under = f'fill="{HALO}" stroke="{HALO}" stroke-width="{width:g}"' + (
        f' stroke-opacity="{opacity:g}"' if opacity is not None else "")
    return (f'<text {at} {under}>{escape(text)}</text>'
            f'<text {at} fill="{fill}">{escape(text)}</text>')


def label(at: tuple, text: str, size: float, fill: str, width: float, bold: bool = False,
          opacity: float | None = None) -> str:
    """A one-line label at ``at`` (x, y, anchor: where ``Layout.place``
    put it), ``size`` pixels high, bold if ``bold``, over its white
    ``halo`` ``width`` wide."""
    x, y, anchor = at
    style = f'x="{x:.1f}" y="{y:.1f}" font-size="{size:g}"' + (' font-weight="bold"' if bold else "") + (
        f' text-anchor="{anchor}"' if anchor != "start" else "")
    return halo(style, text, fill, width, opacity)


def front(a: tuple, b: tuple, facing: tuple, width: float, gap: float, length: float, half: float) -> str:
    """A unit's front edge, the line from ``a`` to ``b`` ``width`` thick, and
    the arrowhead of its ``facing`` (a unit vector, in pixels, y down):
    its base ``gap`` beyond the edge's middle, ``half`` each side, its tip
    ``length`` further."""
    fx, fy = facing
    mx, my = (a[0] + b[0]) / 2 + fx * gap, (a[1] + b[1]) / 2 + fy * gap
    pts = [(mx + fx * length, my + fy * length), (mx - fy * half, my + fx * half), (mx + fy * half, my - fx * half)]
    return (f'<line class="front" x1="{num(a[0])}" y1="{num(a[1])}" x2="{num(b[0])}" y2="{num(b[1])}" '
            f'stroke="#111" stroke-width="{width:g}"/>'
            f'<polygon class="facing" points="{" ".join(f"{num(x)},{num(y)}" for x, y in pts)}" fill="#111"/>')


# ------------------------------------------------------------------ labels: none over another

def text_box(x: float, y: float, text: str, size: float, anchor: str = "start", bold: bool = False) -> tuple:
    """The box (left, top, right, bottom), in pixels, a one-line text at
    ``x, y`` (its baseline) takes: estimated from its length and size."""
    w = len(text) * size * (BOLD_EM_WIDTH if bold else EM_WIDTH)
    left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (left, y - 0.8 * size, left + w, y + 0.25 * size)


def meet(a: tuple, b: tuple) -> bool:
    """Whether two boxes (left, top, right, bottom) overlap (touching is not overlapping)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class Layout:
    """The boxes taken on the picture so far (markers, footprints, labels
    placed): each label is put at the first of its candidate places whose
    box meets none of them, so that no two labels overlap (nor a label a
    box taken before it)."""

    def __init__(self) -> None:
        self.boxes: list[tuple] = []

    def take(self, box: tuple) -> None:
        self.boxes.append(box)

    def free(self, box: tuple) -> bool:
        return not any(meet(box, b) for b in self.boxes)

    def place(self, text: str, size: float, candidates: Iterable[tuple], bold: bool = False) -> tuple:
        """The first of ``candidates`` ((x, y, anchor), best first) where
        ``text`` meets nothing placed (the first one if none is free),
        taken."""
        first = None
        for x, y, anchor in candidates:
            box = text_box(x, y, text, size, anchor, bold)
            if first is None:
                first = (x, y, anchor), box
            if self.free(box):
                self.take(box)
                return x, y, anchor
        self.take(first[1])
        return first[0]


def along(x: float, y: float, anchor: str, dx: float, dy: float, n: int = 60) -> Iterator[tuple]:
    """Candidates along (dx, dy) from ``x, y``: n of them, then as many the other way."""
    for k in range(n):
        yield x + k * dx, y + k * dy, anchor
    for k in range(1, n):
        yield x - k * dx, y - k * dy, anchor


def outwards(x: float, y: float, anchor: str, dx: float, dy: float, n: int = 60) -> Iterator[tuple]:
    """Candidates from ``x, y`` outwards, the nearest first: ``x, y``, then
    one step (dx, dy) either way, then two, ... up to n - 1 steps."""
    yield x, y, anchor
    for k in range(1, n):
        yield x + k * dx, y + k * dy, anchor
        yield x - k * dx, y - k * dy, anchor


# ------------------------------------------------------------------ the legend

#: a swatch: (x, y) -> (its SVG, its width), drawn left of a key's words,
#: ``y`` the words' baseline
Swatch = Callable[[float, float], tuple]


def _paint(paint: dict) -> str:
    """A swatch's more attributes (``attrs``; ``_`` in a name for ``-``)."""
    return attrs({k.replace("_", "-"): v for k, v in paint.items()})


def box(fill: str, width: float = 14, height: float = 10, **paint) -> Swatch:
    """A rectangle swatch (``paint``: more attributes, ``_`` for ``-``: ``rx=2``, ``stroke_dasharray="3,2"``)."""
    more = _paint(paint)
    return lambda x, y: (f'<rect x="{num(x)}" y="{num(y - height + 1)}" width="{num(width)}" '
                         f'height="{num(height)}" fill="{fill}"{more}/>', width)


def dot(fill: str, r: float = 5, **paint) -> Swatch:
    """A circle swatch (``paint`` as ``box``'s)."""
    more = _paint(paint)
    return lambda x, y: (f'<circle cx="{num(x + r)}" cy="{num(y - 4)}" r="{num(r)}" fill="{fill}"{more}/>', 2 * r)


def stroke(colour: str, width: float, length: float = 20, dash: str | None = None) -> Swatch:
    """A line swatch: a stroke ``width`` wide (dashed by ``dash``, if any)."""
    more = f' stroke-dasharray="{dash}"' if dash else ""
    return lambda x, y: (f'<path d="M {num(x)} {num(y - 4)} h {num(length)}" stroke="{colour}" '
                         f'stroke-width="{width:g}"{more}/>', length)


class Legend:
    """The key to a picture, under it: rows of keys (a swatch and its words)
    laid left to right from ``x`` and wrapped at ``right``, lines of words,
    a row every ``line`` pixels; the text ``size`` pixels. ``height``: from
    ``top`` to under the last row. ``lines()``: the drawn elements."""

    def __init__(self, x: float, top: float, right: float, size: float = 10, line: float = 18) -> None:
        self.left, self.top, self.right = x, top, right
        self.size, self.line = size, line
        self.x, self.y = x, top + line
        self.out: list[str] = []

    def _text(self, x: float, words: str, style: str = "") -> str:
        return f'<text x="{num(x)}" y="{num(self.y)}" font-size="{self.size:g}"{style}>{escape(words)}</text>'

    def width(self, words: str) -> float:
        return text_box(0, 0, words, self.size)[2]

    def key(self, swatch: Swatch | None, words: str) -> None:
        """A swatch and its words, after the keys before it in this row (on
        the next row if they would run past ``right``)."""
        if swatch is not None:
            _, w = swatch(0, 0)
            gap = 4
        else:
            w = gap = 0
        need = w + gap + self.width(words)
        if self.x > self.left and self.x + need > self.right:
            self.row()
        if swatch is not None:
            self.out.append(swatch(self.x, self.y)[0])
        self.out.append(self._text(self.x + w + gap, words))
        self.x += need + 14

    def words(self, items: Iterable[str], sep: str = " · ") -> None:
        """``items`` joined by ``sep``, on as many rows as they need to stay within ``right``."""
        self.row(start=True)
        text = ""
        for it in items:
            if text and self.width(text + sep + it) > self.right - self.left:
                self.out.append(self._text(self.left, text))
                self.row()
                text = it
            else:
                text = text + sep + it if text else it
        if text:
            self.out.append(self._text(self.left, text))
        self.row()

    def heading(self, words: str) -> None:
        """A bold line of its own."""
        self.row(start=True)
        self.out.append(self._text(self.left, words, ' font-weight="bold"'))
        self.row()

    def add(self, svg: str) -> None:
        """An element drawn by the family itself (at ``self.y``, the row's baseline)."""
        self.out.append(svg)

    def row(self, start: bool = False) -> None:
        """The next row (``start``: only if the current one has something on it)."""
        if start and self.x == self.left:
            return
        self.x = self.left
        self.y += self.line

    @property
    def height(self) -> float:
        """From ``top`` to a little under the last row drawn."""
        last = self.y if self.x > self.left else self.y - self.line
        return last - self.top + self.line / 2

    def lines(self, cls: str | None = "legend") -> list[str]:
        """The legend's elements, in a ``<g class="cls">`` (None: as they are)."""
        return [f'<g class="{cls}">', *self.out, "</g>"] if cls else list(self.out)
