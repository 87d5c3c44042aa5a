"""A card grounded on a setting: the C&C family's decision made concrete.

``Grounding``  a Setting plus the card played (resolved: copied, mirrored,
               with its roll), its alternatives grounded into quotas with the
               exact pieces each admits.
``GroundAlt``  one alternative of the card: its quotas, its group (linked,
               led by a leader), its capacity.
``GroundQuota`` one quota: how many orders, of which pool, admitting which
               pieces.

The kernel evaluates rules in a ``Ctx`` whose ``g`` is a grounding and whose
``alt`` is one of its alternatives; it reads them only through what every
decision has (``setting``, ``compiler``, ``memo``, ``alts``).
"""

from __future__ import annotations

from typing import Any

from ...dsl import ast as A
from ...dsl.pack import Pack
from ...errors import WarcouncilError
from ...kernel.graph import hall_excess, hall_table
from ...kernel.ground import Ctx, Record, Setting

INF = None  # an unbounded quota
_new = object.__new__


class GroundQuota:
    """One quota of a grounded alternative: its cap and the pieces it admits."""

    __slots__ = ("cap", "all", "what", "admitted", "loc", "mask")

    def __init__(self, cap: int | None, all: bool, what: str, admitted: frozenset, loc: Any = None, mask: int = 0):
        self.cap = cap  # None: unbounded
        self.all = all
        self.what = what
        self.admitted = admitted
        self.loc = loc
        self.mask = mask  # `admitted` as a mask over the setting's own pieces

    def __repr__(self) -> str:
        return f"GroundQuota(cap={self.cap}, all={self.all}, what={self.what!r}, admitted={sorted(self.admitted)})"


class GroundAlt:
    """One alternative of the played card, grounded on a setting."""

    __slots__ = ("setting", "index", "decl", "quotas", "group", "anchor_cells", "capacity", "admitted_mask",
                 "anchor_mask", "_admitted", "shared", "_hall")

    def __init__(self, setting: Setting, index: int, decl: A.Alternative, quotas: list[GroundQuota],
                 group: str | None, capacity: int | None, admitted_mask: int,
                 anchor_cells: frozenset = frozenset(), anchor_mask: int = 0):
        self.setting = setting
        self.index = index
        self.decl = decl
        self.quotas = quotas
        self.group = group  # None | linked | led
        self.anchor_cells = anchor_cells  # for led: the commanding leaders' hexes
        self.capacity = capacity
        self.admitted_mask = admitted_mask  # `admitted` as a mask over the setting's own pieces
        self.anchor_mask = anchor_mask  # the own pieces on the anchor cells
        self._admitted: frozenset | None = None
        self._hall: tuple | None = None  # see hall
        self.shared = False  # grounded once per side (``Grounding._ground_alt``)

    @property
    def admitted(self) -> frozenset:
        """The pieces some quota admits, and those on a commanding leader's
        hex (built on demand: the enumerator works on ``admitted_mask``)."""
        a = self._admitted
        if a is None:
            quotas = self.quotas
            if len(quotas) == 1 and quotas[0].mask == self.admitted_mask:
                a = quotas[0].admitted
            else:
                a = frozenset(self.setting.pieces_of(self.admitted_mask))
            self._admitted = a
        return a

    @property
    def hall(self) -> tuple:
        """The conditions of Hall's theorem over the quotas (``graph.hall_table``), made once."""
        h = self._hall
        if h is None:
            quotas = self.quotas
            h = self._hall = hall_table([q.mask for q in quotas], [q.cap for q in quotas], self.admitted_mask)
        return h

    def assign_problem(self, pieces) -> list:
        """Pieces (admitted by some quota) that cannot all be charged to the
        quotas without overspending one: [] if they can. Hall's theorem over
        the (few) quotas (``graph.hall_excess``)."""
        s = self.setting
        bad = hall_excess(self.hall, self.admitted_mask, s.mask_of(pieces))
        if not bad:
            return []
        n = len(s.items)
        return [p for p in pieces if p.rank < n and bad >> p.rank & 1]


def _pool(s, what: str) -> frozenset:
    """A quota's pool (``units``, ``leaders``, ``pieces``): the own pieces
    of a piece list's role, or all of them."""
    if what == "pieces":
        return s.own_pieces
    return s.own_of.get(s.scenario.lists.get(what), frozenset())


class Grounding:
    """A pack + scenario + side + card, ready to enumerate or check."""

    def __init__(
        self,
        pack: Pack,
        compiler,
        setting: Setting,
        card: A.CardDecl,
        *,
        played_as: str | None = None,
        roll: dict | None = None,
        ground_alternatives: bool = True,
    ):
        self.pack = pack
        self.compiler = compiler
        self.setting = setting
        self.card = card
        self.roll = roll
        self.enumerator = None  # built on demand by Engine.enumerator
        self.played = played = played_as or card.name
        self._card_view: Record | None = None
        self._base: Ctx | None = None
        # a card with no roll whose alternatives all read only the board (no
        # `when`, each grounded once per side: _ground_alt) is, with its
        # memo key (Compiler.fixed_key), a fact of the setting: kept there
        facts_key = ("card-facts", id(card), played) if roll is None and ground_alternatives else None
        if facts_key is not None:
            facts = setting.memo.get(facts_key)
            if facts is not None and facts[0] is card:
                self.alts: list[GroundAlt] = list(facts[1])
                self.memo: dict = {"fixed-key": facts[2]}  # card-level define calls (Compiler.context_static_defines)
                return
        self.memo = {}
        self.alts = []
        if not ground_alternatives:  # only the card's own facts (its dice, say) are wanted
            return
        shared = True
        for i, alt in enumerate(card.alternatives):
            if alt.when is not None:
                shared = False
                if not self.compiler.compile(alt.when)(self.base(), {}):
                    continue
            ga = self._ground_alt(i, alt)
            shared = shared and ga.shared
            self.alts.append(ga)
        if facts_key is not None and shared:
            setting.memo[facts_key] = (card, tuple(self.alts), compiler.fixed_key(self))

    @classmethod
    def kept(cls, pack: Pack, compiler, setting: Setting, card: A.CardDecl, played: str, alts: tuple,
             memo: dict) -> "Grounding":
        """What ``__init__`` makes of a card with no roll whose facts the
        setting keeps (``alts``, its grounded alternatives; ``memo``, the
        grounding's first memo, copied), without looking them up: the
        caller (``CardEngine.ground``) keeps them with the setting's memo."""
        g = _new(cls)
        g.pack = pack
        g.compiler = compiler
        g.setting = setting
        g.card = card
        g.roll = None
        g.enumerator = None
        g.played = played
        g._card_view = None
        g._base = None
        g.alts = [*alts]
        g.memo = memo.copy()
        return g

    def facts(self) -> "tuple | None":
        """``(alts, memo)`` for ``kept`` when the setting keeps this card's
        facts (no roll, every alternative shared), else None."""
        if self.roll is not None:
            return None
        facts = self.setting.memo.get(("card-facts", id(self.card), self.played))
        if facts is None or facts[0] is not self.card:
            return None
        return facts[1], {"fixed-key": facts[2]}

    def fixed_key(self) -> tuple:
        """What this grounding fixes before the decision, as a memo key (see
        ``Compiler.fixed_key``), and the object the key names by identity:
        the card (by identity: a mirrored copy is another card), the name it
        is played as, its roll."""
        card = self.card
        return (id(card), self.played, tuple(sorted(self.roll.items())) if self.roll else None), card

    @property
    def card_view(self) -> Record:
        """The card as the rules see it (``card.helmet``), made when first read."""
        v = self._card_view
        if v is None:
            c = self.card
            # the card's declared effects (Counter Attack: those of the card it copies, as ``name``)
            v = self._card_view = Record(name=c.name, played=self.played, category=c.get("category"),
                                         helmet=c.get("helmet"),
                                         effects=frozenset(c.effects))
        return v

    def base(self) -> Ctx:
        """The context of the card's own expressions (no alternative, no
        decision), made when one is first evaluated."""
        ctx = self._base
        if ctx is None:
            ctx = self._base = Ctx(self, None)
        return ctx

    def _ground_alt(self, index: int, alt: A.Alternative) -> GroundAlt:
        """One alternative on the setting. When it reads only the board (its
        quotas' conditions and anchor about the board alone, literal
        numbers of orders) it is a fact of the setting, like the admitted
        sets of ``_filter``, grounded once per side."""
        s = self.setting
        key = (id(alt), index)
        hit = s.caches.ground_alts.get(key)
        if hit is not None and hit.decl is alt:
            return hit
        out = self._ground_alt_now(index, alt)
        c = self.compiler
        quotas_static = all((q.where is None or c.board_static(q.where, ("it",)))
                            and (isinstance(q.amount, str) or q.amount.__class__ is A.Num) for q in alt.quotas)
        anchor = alt.group.anchor if out.group == "led" else None
        if quotas_static and (anchor is None or c.board_static(anchor, ("it",))):
            out.shared = True
            s.caches.ground_alts[key] = out
        return out

    def _ground_alt_now(self, index: int, alt: A.Alternative) -> GroundAlt:
        s = self.setting
        c = self.compiler
        quotas = []
        mask = 0  # what some quota admits
        capacity: int | None = 0  # the quotas' orders; None: unbounded
        for q in alt.quotas:
            if q.where is not None:
                admitted, qmask = self._filter(q.where, q.what)
            else:
                admitted, qmask = _pool(s, q.what), s.pool_masks.get(q.what, 0)
            amount = q.amount
            is_all = False
            if isinstance(amount, str):  # "all" | "any"
                cap, is_all = None, amount == "all"
            else:
                v = amount.value if amount.__class__ is A.Num else c.compile(amount)(self.base(), {})
                if v.__class__ is not int:
                    raise WarcouncilError(f"the number of orders must be a whole number, got {v!r}", q.loc)
                cap = max(v, 0)
            quotas.append(GroundQuota(cap, is_all, q.what, admitted, q.loc, qmask))
            mask |= qmask
            if capacity is not None:
                capacity = None if cap is None else capacity + cap
        group = alt.group.kind if alt.group else None
        if group == "led":
            anchor_cells, anchor_mask = self._anchors(alt.group.anchor, alt.group.role or "leader")
            mask |= anchor_mask  # the commanding leader's own hex is always part of his command
            return GroundAlt(s, index, alt, quotas, group, capacity, mask, anchor_cells, anchor_mask)
        return GroundAlt(s, index, alt, quotas, group, capacity, mask)

    def _filter(self, where: A.Expr, what: str) -> tuple[frozenset, int]:
        """The pieces of the pool a quota's condition admits, and their mask.
        A condition about the board alone (``in_section(it, left)``) is a
        fact of the setting, worked out once per side; any other is
        evaluated now."""
        s = self.setting
        key = (id(where), what)
        memo = s.caches.admitted
        hit = memo.get(key)
        if hit is not None:
            return hit
        c = self.compiler
        f = c.compile(where)
        base = self.base()
        admitted = frozenset(p for p in _pool(s, what) if f(base, {"it": p}))
        out = (admitted, s.mask_of(admitted))
        if c.board_static(where, ("it",)):
            memo[key] = out
        return out

    def _anchors(self, anchor: A.Expr | None, role: str) -> tuple[frozenset, int]:
        """The hexes of the pieces who may command a led group (``led by
        ROLE``: every own piece of that role's, or those ``anchor`` admits)
        and the own pieces on them, as a mask. An anchor about the board
        alone is worked out once per side."""
        s = self.setting
        key = (role, id(anchor))
        hit = s.caches.anchors.get(key)
        if hit is not None:
            return hit
        c = self.compiler
        f = c.compile(anchor) if anchor is not None else None
        base = self.base()
        cells = frozenset(l.at for l in s.own_of.get(role, ()) if f is None or f(base, {"it": l}))
        out = (cells, s.mask_of(p for p in s.items if p.at in cells))
        if anchor is None or c.board_static(anchor, ("it",)):
            s.caches.anchors[key] = out
        return out

    # convenience
    def ids(self, pieces) -> tuple[list[str], list[str]]:
        ps = sorted(pieces, key=lambda p: p.rank)
        return [p.id for p in ps if p.role == "unit"], [p.id for p in ps if p.role == "leader"]
