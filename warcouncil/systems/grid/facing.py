"""Facing on a square grid: a unit's footprint and the squares around it,
as the unit sees them. Game-independent primitives: a pack builds its own
rules (a zone of control, "enemy to the front", support from behind) from
them; nothing here names a game's rule.

Coordinates are the square board's ``(col, row)``: cols grow to the east,
row 0 is the north edge and rows grow to the south (as on hex boards). A
unit faces ``north``, ``east``, ``south`` or ``west``.

A :class:`Footprint` is a block of squares ``width`` files wide and
``depth`` ranks deep (2 x 1 by default: the square-grid ancients' units are
two squares wide, ``shared/reference/grid-ancients.md`` §2.1). Its ``at`` is
its **left front square as the unit sees it** (``shared/spec/interface.md``,
"Square-grid ancients"). So a unit at ``(c, r)`` with width 2, depth 1
occupies::

    facing north: (c, r) (c+1, r)      its left is west,  it looks to row r-1
    facing east:  (c, r) (c, r+1)      its left is north, it looks to col c+1
    facing south: (c, r) (c-1, r)      its left is east,  it looks to row r+1
    facing west:  (c, r) (c, r-1)      its left is south, it looks to col c-1

Around a footprint every square falls in one region (:meth:`Footprint.region`),
judged in the unit's own frame: *files* are the columns of its frontage
(extended ahead and behind), *ranks* the rows of its depth (extended left
and right):

* ``occupied``: one of its own squares;
* ``front``: in its files, ahead of its front rank (any distance);
* ``rear``: in its files, behind its last rank;
* ``left`` / ``right`` (the flanks): in its ranks, beyond its left / right end;
* ``front_left``, ``front_right``, ``rear_left``, ``rear_right``: the
  diagonal corners, in no file and no rank of the unit: neither front, nor
  flank, nor rear. A pack that counts corners as flank says so itself.

All answers are exact (whole-number squares, no tolerance) and in a fixed
order: nearest rank (or file) first, then left to right as the unit sees it.
Squares may lie off the board; methods taking ``board`` keep only the
squares on it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Union

from warcouncil.errors import Location, WarcouncilError, closest

from ...world.board import Board

Square = tuple[int, int]

#: The four facings, clockwise from north.
FACINGS = ("north", "east", "south", "west")

#: One square ahead, for each facing (rows grow to the south): a one-square
#: step on the board towards that facing.
AHEAD: dict[str, Square] = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
#: One square to the unit's right, for each facing.
_RIGHT: dict[str, Square] = {"north": (1, 0), "east": (0, 1), "south": (-1, 0), "west": (0, -1)}

#: The steps that move a unit without turning it, in its own frame:
#: (files to its right, ranks ahead) (:meth:`Footprint.stepped`).
STEPS: dict[str, tuple[int, int]] = {"forward": (0, 1), "oblique_left": (-1, 1), "oblique_right": (1, 1),
                                     "drift_left": (-1, 0), "drift_right": (1, 0)}

#: Every region a square can be in, relative to a footprint.
REGIONS = (
    "occupied", "front", "rear", "left", "right",
    "front_left", "front_right", "rear_left", "rear_right",
)


def check_facing(facing: Any, where: Location | None = None) -> str:
    """``facing`` if it is one of :data:`FACINGS`, else a ``WarcouncilError``
    naming the four facings (with a did-you-mean hint)."""
    if isinstance(facing, str) and facing in AHEAD:
        return facing
    near = closest(str(facing), FACINGS)
    raise WarcouncilError(
        f"unknown facing {facing!r}; a unit faces {', '.join(FACINGS)}",
        where,
        hint=f"did you mean {' or '.join(near)}?" if near else None,
    )


def turned(facing: str, quarter_turns: int) -> str:
    """The facing after ``quarter_turns`` 90° turns clockwise (negative:
    anticlockwise)."""
    return FACINGS[(FACINGS.index(check_facing(facing)) + quarter_turns) % 4]


def turn_right(facing: str) -> str:
    """The facing after a 90° turn to the unit's right (clockwise)."""
    return turned(facing, 1)


def turn_left(facing: str) -> str:
    """The facing after a 90° turn to the unit's left (anticlockwise)."""
    return turned(facing, -1)


def about_face(facing: str) -> str:
    """The facing after an about face (180°)."""
    return turned(facing, 2)


def _squares_of(x: Union["Footprint", Square, Iterable[Square]]) -> tuple[Square, ...]:
    if isinstance(x, Footprint):
        return x.squares
    items = tuple(x)  # type: ignore[arg-type]
    if len(items) == 2 and all(isinstance(v, int) for v in items):
        return ((items[0], items[1]),)  # one square
    return tuple((s[0], s[1]) for s in items)


@dataclass(frozen=True)
class Footprint:
    """A unit on a square grid: ``at`` its left front square as it sees it,
    ``facing`` one of :data:`FACINGS`, ``width`` files by ``depth`` ranks.

    Local coordinates ``(right, ahead)``: ``right`` counts files to the
    unit's right from ``at`` (its own files are ``0 .. width-1``); ``ahead``
    counts ranks ahead of its front rank (its own ranks are ``0`` down to
    ``-(depth-1)``).
    """

    at: Square
    facing: str
    width: int = 2
    depth: int = 1

    def __post_init__(self) -> None:
        check_facing(self.facing)
        for name in ("width", "depth"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 1:
                raise WarcouncilError(f"a footprint's {name} must be a whole number of squares ≥ 1, not {v!r}")
        try:
            c, r = self.at
            ok = isinstance(c, int) and isinstance(r, int) and not isinstance(c, bool) and not isinstance(r, bool)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise WarcouncilError(f"a footprint's at must be a square [col, row], not {self.at!r}")
        object.__setattr__(self, "at", (c, r))

    # -- the unit's frame -------------------------------------------------

    def square(self, right: int, ahead: int) -> Square:
        """The square ``right`` files to the unit's right of ``at`` and
        ``ahead`` ranks ahead of it (negative: to its left, behind it)."""
        (c, r), (ac, ar), (rc, rr) = self.at, AHEAD[self.facing], _RIGHT[self.facing]
        return (c + right * rc + ahead * ac, r + right * rr + ahead * ar)

    def local(self, square: Square) -> tuple[int, int]:
        """``(right, ahead)`` of ``square`` in the unit's frame (the inverse
        of :meth:`square`)."""
        dc, dr = square[0] - self.at[0], square[1] - self.at[1]
        (ac, ar), (rc, rr) = AHEAD[self.facing], _RIGHT[self.facing]
        return (dc * rc + dr * rr, dc * ac + dr * ar)

    def _block(self, rights: range, aheads: Iterable[int], board: Board | None) -> tuple[Square, ...]:
        out = tuple(self.square(x, y) for y in aheads for x in rights)
        if board is None:
            return out
        return tuple(s for s in out if self._on(board, s))

    # -- squares ----------------------------------------------------------

    @property
    def squares(self) -> tuple[Square, ...]:
        """The squares it occupies: front rank first, each left to right."""
        return self._block(range(self.width), range(0, -self.depth, -1), None)

    def front(self, reach: int = 1, board: Board | None = None) -> tuple[Square, ...]:
        """The squares directly ahead of its frontage, ``reach`` ranks deep
        (nearest rank first, left to right)."""
        return self._block(range(self.width), range(1, reach + 1), board)

    def rear(self, reach: int = 1, board: Board | None = None) -> tuple[Square, ...]:
        """The squares directly behind its last rank, ``reach`` ranks deep
        (nearest first, left to right as the unit sees it)."""
        return self._block(range(self.width), range(-self.depth, -self.depth - reach, -1), board)

    def behind(self, board: Board | None = None) -> tuple[Square, ...]:
        """"Directly behind": the squares immediately behind it, one per file
        (``rear(1)``)."""
        return self.rear(1, board)

    def left_flank(self, reach: int = 1, board: Board | None = None) -> tuple[Square, ...]:
        """The squares beside its left end along its depth, ``reach`` files
        out (nearest file first, front rank first)."""
        return tuple(self.square(-x, y) for x in range(1, reach + 1) for y in range(0, -self.depth, -1)
                     if board is None or self._on(board, self.square(-x, y)))

    def right_flank(self, reach: int = 1, board: Board | None = None) -> tuple[Square, ...]:
        """The squares beside its right end along its depth, ``reach`` files
        out (nearest file first, front rank first)."""
        w = self.width - 1
        return tuple(self.square(w + x, y) for x in range(1, reach + 1) for y in range(0, -self.depth, -1)
                     if board is None or self._on(board, self.square(w + x, y)))

    def flanks(self, reach: int = 1, board: Board | None = None) -> tuple[Square, ...]:
        """Left flank squares, then right flank squares."""
        return self.left_flank(reach, board) + self.right_flank(reach, board)

    @staticmethod
    def _on(board: Board, square: Square) -> bool:
        board.require("facing", "square facing")
        return square in board.cells

    # -- where something is ----------------------------------------------

    def region(self, square: Square) -> str:
        """Which of :data:`REGIONS` ``square`` is in, seen by this unit."""
        right, ahead = self.local(square)
        in_files = 0 <= right < self.width
        side = "" if in_files else ("left" if right < 0 else "right")
        if ahead > 0:
            return "front" if in_files else f"front_{side}"
        if ahead <= -self.depth:
            return "rear" if in_files else f"rear_{side}"
        return "occupied" if in_files else side

    def relation(self, other: Union["Footprint", Square, Iterable[Square]]) -> frozenset[str]:
        """The regions the squares of ``other`` (a footprint, a square or
        some squares) fall in."""
        return frozenset(self.region(s) for s in _squares_of(other))

    def gap(self, square: Square) -> int:
        """How far out ``square`` lies from the unit, in ranks (front, rear)
        or files (flanks): 1 is next to it; 0 for its own squares and the
        corners, which are at no such distance."""
        right, ahead = self.local(square)
        region = self.region(square)
        if region == "front":
            return ahead
        if region == "rear":
            return 1 - self.depth - ahead
        if region == "left":
            return -right
        if region == "right":
            return right - self.width + 1
        return 0

    def _within(self, other, regions: tuple[str, ...], reach: int | None) -> bool:
        return any(self.region(s) in regions and (reach is None or self.gap(s) <= reach)
                   for s in _squares_of(other))

    def to_front(self, other, reach: int | None = None) -> bool:
        """Is some square of ``other`` in front of it (within ``reach``
        ranks when given: ``reach=1`` is "immediately to its front")?"""
        return self._within(other, ("front",), reach)

    def to_rear(self, other, reach: int | None = None) -> bool:
        """Is some square of ``other`` to its rear (within ``reach`` ranks)?"""
        return self._within(other, ("rear",), reach)

    def to_flank(self, other, reach: int | None = None) -> bool:
        """Is some square of ``other`` on its left or right flank (within
        ``reach`` files)?"""
        return self._within(other, ("left", "right"), reach)

    def ways_away(self, other: Footprint) -> list[str]:
        """The facings whose step (:data:`AHEAD`) takes it directly away
        from ``other``: along the axis on which their centres are further
        apart; both axes' facings when they are as far apart on each (all
        four where the centres meet)."""
        (a, b), (c, d) = other._centre(), self._centre()
        dc, dr = c - a, d - b
        cols = ["east" if dc > 0 else "west"] if dc else []
        rows = ["south" if dr > 0 else "north"] if dr else []
        if abs(dc) > abs(dr):
            return cols
        if abs(dr) > abs(dc):
            return rows
        return cols + rows or list(FACINGS)

    def _centre(self) -> tuple[float, float]:
        sq = self.squares
        return sum(c for c, _ in sq) / len(sq), sum(r for _, r in sq) / len(sq)

    # -- moving and turning ---------------------------------------------------

    def shifted(self, step: Square, n: int = 1) -> Footprint:
        """The same footprint moved ``n`` squares by ``step``, a one-square
        step on the board (e.g. ``AHEAD[facing]``)."""
        return Footprint((self.at[0] + step[0] * n, self.at[1] + step[1] * n), self.facing, self.width, self.depth)

    def moved(self, right: int, ahead: int) -> Footprint:
        """The same footprint moved ``right`` files to its right and
        ``ahead`` ranks ahead, in its own frame (negative: left, back)."""
        return Footprint(self.square(right, ahead), self.facing, self.width, self.depth)

    def stepped(self, kind: str) -> Footprint:
        """Where it stands after one step ``kind``: forward one rank;
        oblique one rank ahead and one file aside; drift one file aside
        (:data:`STEPS`); a turn (``turn_left``, ``turn_right``) pivots on the
        end it turns towards, onto the square ahead of that end; about face
        turns on the spot."""
        if kind in STEPS:
            return self.moved(*STEPS[kind])
        if kind == "turn_right":  # the right end stays; the unit then faces right, its left end ahead of it
            return Footprint(self.square(self.width - 1, self.width - 1), turn_right(self.facing),
                             self.width, self.depth)
        if kind == "turn_left":
            return Footprint(self.at, turn_left(self.facing), self.width, self.depth)
        if kind == "about_face":
            return self.about_faced()
        raise ValueError(kind)

    def about_faced(self) -> Footprint:
        """The same squares facing the other way: its back right square (as
        it saw it) becomes its left front square."""
        return Footprint(self.square(self.width - 1, 1 - self.depth), about_face(self.facing),
                         self.width, self.depth)

    def fits(self, board: Board) -> bool:
        """Are all its squares on ``board`` (a square grid)?"""
        board.require("facing", "a footprint on a square grid")
        return all(s in board.cells for s in self.squares)

    def place(self, board: Board, where: Location | None = None, what: str = "unit") -> Footprint:
        """Itself, if every square is on ``board``; else a ``WarcouncilError``
        naming the squares off the board."""
        board.require("facing", "a footprint on a square grid")
        off = [list(s) for s in self.squares if s not in board.cells]
        if off:
            raise WarcouncilError(
                f"{what} at {list(self.at)} facing {self.facing} is {self.width} squares wide: "
                f"{', '.join(map(str, off))} off the board {board.name!r} ({board.extent()})",
                where,
            )
        return self
