"""Turn state: where the pieces stand at one moment of a turn, and the
records rules read of a turn (a move, a battle, the whole turn).

``Positions`` is one moment (never changed once made; a position made
from another keeps its parent and the hexes whose occupants changed);
``MoveView``, ``BattleView`` and ``TurnView`` are what ``m``, ``b`` and
``turn`` are to a rule. ``MOMENT_BUILTINS`` are the builtins that read
the moment. (docs/design.md §5.3)
"""

from __future__ import annotations

# what a condition known before a move may read of the moment it is made
MOMENT_BUILTINS = frozenset({"earlier", "moved_before", "unit_on", "leader_on", "position"})


class Positions:
    """Where each piece stands at one moment of a turn (never changed once made).

    A position made from another (``without``, ``moved``, ``derive``) keeps
    it as ``parent`` with the hexes whose occupants differ (``changed``):
    the move generator's per-position hex sets (``CleanCells``) are then
    worked out from the parent's by judging those hexes again."""

    __slots__ = ("where", "unit_on", "leader_on", "_occupied", "parent", "changed", "memo")

    def __init__(self, where: dict, unit_on: dict | None = None, leader_on: dict | None = None,
                 parent: "Positions | None" = None, changed: tuple = ()):
        self.where = where
        self._occupied = None
        self.parent, self.changed = parent, changed
        self.memo = None
        if unit_on is not None and leader_on is not None:
            self.unit_on, self.leader_on = unit_on, leader_on
            return
        self.unit_on = {}
        self.leader_on = {}
        for p, c in where.items():
            if c is None:
                continue
            (self.unit_on if p.role == "unit" else self.leader_on)[c] = p

    @classmethod
    def initial(cls, setting) -> "Positions":
        """Where the pieces stand before the turn (one object per setting)."""
        caches = setting.caches
        hit = caches.positions
        if hit is None:
            hit = caches.positions = cls({p: p.at for p in setting.views})
        return hit

    @property
    def occupied(self) -> frozenset:
        """The hexes with a unit or a leader on them."""
        o = self._occupied
        if o is None:
            o = self._occupied = frozenset(self.unit_on).union(self.leader_on)
        return o

    def without(self, piece) -> "Positions":
        """The board with ``piece`` lifted off (while it moves)."""
        w = dict(self.where)
        at = w.get(piece)
        w[piece] = None
        unit_on, leader_on = self.unit_on, self.leader_on
        if at is not None:
            if piece.role == "unit" and unit_on.get(at) is piece:
                unit_on = dict(unit_on)
                del unit_on[at]
            elif piece.role != "unit" and leader_on.get(at) is piece:
                leader_on = dict(leader_on)
                del leader_on[at]
            else:
                return Positions(w, parent=self, changed=(at,))
            return Positions(w, unit_on, leader_on, self, (at,))
        return Positions(w, unit_on, leader_on, self, ())

    def moved(self, piece, to) -> "Positions":
        return self.derive({piece: tuple(to)})

    def derive(self, changes: dict) -> "Positions":
        """This position with the pieces of ``changes`` at new hexes (None: off the board)."""
        w = dict(self.where)
        changed = set()
        for p, c in changes.items():
            old = w.get(p)
            if old != c:
                changed.update(x for x in (old, c) if x is not None)
            w[p] = c
        return Positions(w, parent=self, changed=tuple(changed))


class MoveView:
    """One move of one piece (a ``ground.PieceView``), as rules see it."""

    memoizable = False  # made afresh for every candidate: not worth caching on
    __slots__ = ("piece", "start", "path", "to", "length", "index", "given_path", "phase", "fact_key")
    _RULE_ATTRS = frozenset(__slots__) - {"fact_key"}

    def __init__(self, piece, start, path, index: int = 0, to=None, length=None, given_path=True,
                 phase: int = 1):
        self.phase = phase
        self.piece = piece
        self.start = tuple(start)
        self.path = tuple(tuple(c) for c in path) if path is not None else None
        self.to = tuple(to) if to is not None else (self.path[-1] if self.path else self.start)
        self.length = length if length is not None else (len(self.path) if self.path is not None else None)
        self.index = index
        self.given_path = given_path
        self.fact_key = None  # see _fact_key

    @property
    def through(self):
        return self.path[:-1] if self.path else ()

    def get_attr(self, name):
        if name == "through":
            return self.through
        return getattr(self, name, None) if name in self._RULE_ATTRS else None

    def __repr__(self):
        return self.piece.id


class BattleView:
    memoizable = False
    __slots__ = ("piece", "target", "index")

    def __init__(self, piece, target, index=0):
        self.piece, self.target, self.index = piece, target, index

    def get_attr(self, name):
        return getattr(self, name, None) if name in self.__slots__ else None

    def __repr__(self):
        return self.piece.id


class TurnView:
    """The moves and battles of a turn, for rules."""

    def __init__(self, moves=(), battles=()):
        self.moves = tuple(moves)
        self.battles = tuple(battles)

    def get_attr(self, name):
        return getattr(self, name, None)


def attrs(obj, names: tuple) -> tuple:
    """The values of the attributes ``names`` of a piece or a move (``get_attr``)."""
    return tuple([obj.get_attr(n) for n in names])
