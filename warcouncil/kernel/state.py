"""Turn state: where the pieces stand at one moment of a turn, and the
records rules read of a turn (a move, a battle, the whole turn).

``Positions`` is one moment (never changed once made; a position made
from another keeps its parent and the hexes whose occupants changed);
``MoveView``, ``BattleView`` and ``TurnView`` are what ``m``, ``b`` and
``turn`` are to a rule. (What reads the moment: the vocabulary's
``moment`` builtins.) (docs/design.md §5.3)
"""

from __future__ import annotations


class Positions:
    """Where each piece stands at one moment of a turn (never changed once made).

    ``on``: cell -> its occupants, a tuple with one place per role (a
    piece's ``slot``: ``Setting.slot``; None where no piece of that role
    stands), for the occupied cells only. Two cells with equal occupants
    and terrain are judged alike by a rule that reads a cell only through
    what stands there (``cells.CleanCells``): ``on.get(c)`` is that class.

    A position made from another (``without``, ``moved``, ``derive``) keeps
    it as ``parent`` with the hexes whose occupants differ (``changed``):
    the move generator's per-position hex sets (``CleanCells``) are then
    worked out from the parent's by judging those hexes again."""

    __slots__ = ("where", "on", "roles", "parent", "changed", "memo", "crowded")

    def __init__(self, where: dict, on: dict | None = None, parent: "Positions | None" = None,
                 changed: tuple = (), roles: int | None = None):
        self.where = where
        self.parent, self.changed = parent, changed
        self.memo = None
        if roles is None:
            roles = parent.roles if parent is not None else 1 + max((p.slot for p in where), default=0)
        self.roles = roles
        if on is not None:
            self.on = on
            self.crowded = parent is not None and parent.crowded
            return
        self.on = on = {}
        # crowded: two pieces of one role on one cell (the later one in
        # ``where`` shows in ``on``), as in a turn that breaks the rules
        self.crowded = False
        blank = (None,) * roles
        for p, c in where.items():
            if c is None:
                continue
            k = p.slot
            occ = on.get(c, blank)
            if occ[k] is not None:
                self.crowded = True
            on[c] = occ[:k] + (p,) + occ[k + 1:]

    @classmethod
    def initial(cls, setting) -> "Positions":
        """Where the pieces stand before the turn (one object per setting)."""
        caches = setting.caches
        hit = caches.positions
        if hit is None:
            hit = caches.positions = cls({p: p.at for p in setting.views}, roles=max(1, len(setting.roles)))
        return hit

    @property
    def occupied(self):
        """The hexes with a piece on them."""
        return self.on.keys()

    def without(self, piece) -> "Positions":
        """The board with ``piece`` lifted off (while it moves)."""
        w = dict(self.where)
        at = w.get(piece)
        w[piece] = None
        on = self.on
        if at is not None:
            occ = on.get(at)
            k = piece.slot
            if occ is None or occ[k] is not piece:
                return Positions(w, parent=self, changed=(at,))
            on = dict(on)
            rest = occ[:k] + (None,) + occ[k + 1:]
            if rest.count(None) == len(rest):
                del on[at]
            else:
                on[at] = rest
            return Positions(w, on, self, (at,))
        return Positions(w, on, self, ())

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
        if not self.crowded:
            # the occupants from this position's: only the pieces that moved
            # change (as made afresh from ``where``, unless two pieces of one
            # role meet on a cell: then afresh)
            on = dict(self.on)
            blank = (None,) * self.roles
            for p in changes:
                k = p.slot
                old = self.where.get(p)
                if old is not None:
                    occ = on.get(old)
                    if occ is None or occ[k] is not p:
                        break
                    rest = occ[:k] + (None,) + occ[k + 1:]
                    if rest.count(None) == len(rest):
                        del on[old]
                    else:
                        on[old] = rest
            else:
                for p, c in changes.items():
                    if c is None:
                        continue
                    k = p.slot
                    occ = on.get(c, blank)
                    if occ[k] is not None:
                        break
                    on[c] = occ[:k] + (p,) + occ[k + 1:]
                else:
                    return Positions(w, on, self, tuple(changed))
        return Positions(w, parent=self, changed=tuple(changed))


class MoveView:
    """One move of one piece (a ``ground.PieceView``), as rules see it."""

    memoizable = False  # made afresh for every candidate: not worth caching on
    rank = 0  # (sorting values by rank: a move has none of its own; never a rule attribute)
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
        if name in self._RULE_ATTRS:
            return getattr(self, name)
        if name == "through":
            return self.through
        return None

    def __repr__(self):
        return self.piece.id


class BattleView:
    memoizable = False
    rank = 0  # (as MoveView.rank)
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
