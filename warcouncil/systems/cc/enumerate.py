"""Enumerate and count legal order sets, exploiting the rules' structure.

For each alternative of the card (its main text, "one unit of your choice"
fallbacks, ...) the planner's rule classes decide the generator:

* unary rules prune the pieces first (node consistency);
* with ``assignable`` (orders are charged to the card's quotas, none
  overspent) the pieces are grouped by *signature* — the set of quotas that
  admit them — and the enumerator walks count vectors per signature that
  satisfy Hall's condition, then takes products of combinations. Independent
  quotas (Out Flanked) become independent factors; a single quota is plain
  ``itertools.combinations``; counting needs no enumeration at all;
* with ``linked``/``led`` it grows connected groups over the precomputed
  adjacency of the eligible pieces (each group generated exactly once);
* every rule the generator does not guarantee is a filter.

Sets are produced by size, then in canonical piece order (own units by id,
then own leaders by id), so the stream is already sorted as the JSON
contract wants and ``--limit`` can stop early.
"""

from __future__ import annotations

import itertools
from math import comb
from typing import Iterator

from ...kernel.graph import connected_mask, connected_subsets, hall_conditions, hall_excess
from ...kernel.ground import Ctx
from ...solver.plan import Plan, PlannedRule
from .grounding import GroundAlt, Grounding

FREE = "free"  # the group of the pieces charged to no quota
POOL = "pool"  # every charged piece, when no rule charges them to quotas


class AltPlan:
    """How to enumerate the order sets of one alternative.

    Sets of own pieces are bit masks here (bit i: the setting's ``items[i]``,
    the piece of rank i): pruning, grouping and connected-set growth are
    integer operations; pieces are looked up only for the sets produced."""

    # what __init__ works out beyond its arguments: facts of the plan, the
    # setting, the card and the alternative
    _ARGS = frozenset(("g", "plan", "alt", "setting"))

    def __init__(self, g: Grounding, plan: Plan, alt: GroundAlt):
        self.g, self.plan, self.alt = g, plan, alt
        s = self.setting = g.setting
        # an alternative grounded once per side (``Grounding._ground_alt``: it
        # reads only the board) has its pruned pieces, free pieces, generator
        # and forced pieces worked out once per card too: they read only the
        # plan, the setting, the card and the alternative, never the order
        # set. (The groups of an enumeration are built per grounding: _groups.)
        shared = alt.shared
        if shared:
            key = ("alt-plan", plan.compiler.fixed_key(g), id(alt))
            hit = s.memo.get(key)
            if hit is not None and hit[0] is alt and hit[1] is plan:
                self.__dict__.update(hit[2])
                return
        self._work_out(g, plan, alt)
        if shared:
            s.memo[key] = (alt, plan, {k: v for k, v in self.__dict__.items() if k not in self._ARGS})

    def _work_out(self, g: Grounding, plan: Plan, alt: GroundAlt) -> None:
        s = self.setting
        rs = summary(plan)
        if rs.guarded or rs.decided:
            # the rules the card makes vacuous: a guard `G or ...` it makes
            # true, or premises it decides that fold the body to true
            ctx = Ctx(g, alt)
            skipped = [r.id for r in rs.guarded if r.skip_when(ctx, {})]
            if rs.decided:  # decided by the card alone: once per card and setting
                key = ("vacuous", plan.compiler.fixed_key(g))
                hit = s.memo.get(key)
                if hit is None or hit[0] is not plan:
                    hit = s.memo[key] = (plan, [r.id for r in rs.decided if r.vacuous(ctx)])
                skipped += hit[1]
            skipped = frozenset(skipped)
            if skipped:
                rs = summary(plan, skipped)
        # 1. node consistency: prune pieces by the unary rules
        items = s.own_mask
        for step in rs.unary_steps(g):
            if not items:
                break
            items &= step(g, alt, items)
        self.items_mask = items
        self.use_assign = rs.use_assign
        self.use_filled = rs.use_filled
        # 2. which pieces are charged to the card's quotas (the others are free)
        if rs.charged is None:
            free = 0
        elif rs.charged_static:
            fm = s.caches.free.get(rs.free_key)
            if fm is None:
                ctx = Ctx(g, alt)
                fm = s.caches.free[rs.free_key] = s.mask_of(p for p in s.items if not rs.charged(ctx, p))
            free = fm & items
        else:
            ctx = Ctx(g, alt)
            free = s.mask_of(p for p in s.pieces_of(items) if not rs.charged(ctx, p))
        self.free_mask = free
        # the quotas that give orders: under "assignable" a quota of 0 orders
        # pays for nothing, and a charged piece only such quotas admit is out
        # (one quota of 0 orders needs no pruning: its group gets no pieces)
        self.quotas = alt.quotas
        if self.use_assign and len(alt.quotas) > 1 and any(q.cap == 0 for q in alt.quotas):
            self.quotas = [q for q in alt.quotas if q.cap != 0]
            some = paid = 0
            for q in alt.quotas:
                some |= q.mask
            for q in self.quotas:
                paid |= q.mask
            if self.quotas:  # the pieces no quota admits (on a commanding leader's hex) go to any
                paid |= alt.admitted_mask & ~some
            items &= ~(alt.admitted_mask & ~paid & ~free)
            self.items_mask = items
        # 3. the generator; with one quota admitting every piece left, "assignable"
        # and "capacity" both mean: at most the quota's orders
        single = len(alt.quotas) == 1 and not free and not items & ~alt.admitted_mask
        self.mode, self.filters, self.use_capacity = rs.generators[single][alt.group]
        # for legal(): the structural rules checked directly, the rest by closure
        self.structural = st = rs.structural
        self.closure_rules = rs.closure_rules
        forced = 0
        self._pending = None
        self.impossible = False
        if self.use_filled:
            for q in alt.quotas:
                if q.all:
                    forced |= q.mask
            self.impossible = bool(forced & ~items)  # an 'all' piece was pruned away
            forced &= items
        self.forced_mask = forced
        if self.mode == "quota":
            cap = alt.capacity
            self.cap_limit = cap if (self.use_capacity and cap is not None) else None
            if items & ~forced:
                self.only = None
                self._pending = single  # the groups, built when first enumerated (``_groups``)
            else:
                # no choice left (every piece is forced, or none is left): the
                # one candidate set, if the quotas can pay for it
                self.only = [forced] if self._fits(forced) else []
        # for legal(): what it reads, and which structural checks apply
        self._checks = (len(s.items), self.items_mask, self.free_mask, alt.admitted_mask,
                        alt.hall if "assignable" in st else None, alt.capacity if "capacity" in st else None,
                        "filled" in st, "linked" in st and alt.group == "linked", "led" in st and alt.group == "led")

    def _groups(self) -> None:
        """Build the signature groups and Hall conditions, once: enumerating
        needs them, checking one set (``legal``) does not."""
        if self._pending is not None:
            single, self._pending = self._pending, None
            self._build_groups(single)

    # ---------------------------------------------------------------- quotas
    def _fits(self, m: int) -> bool:
        """Can the quotas pay for the set m (capacity, and Hall's condition)?"""
        charged = m & ~self.free_mask
        if not charged:
            return True
        if self.cap_limit is not None and charged.bit_count() > self.cap_limit:
            return False
        return not self.use_assign or _assign_ok(self.alt, charged)

    def _build_groups(self, single: bool) -> None:
        items, free, alt = self.items_mask, self.free_mask, self.alt
        self._parts: dict = {}  # see _part
        self._by_k: dict | None = None  # see _vectors
        if single and not self.forced_mask:
            # one quota admitting every piece left, none forced or free (an
            # "order N units" card): one group, whose only Hall condition is
            # the quota's cap
            cap = alt.quotas[0].cap
            assign = self.use_assign
            self._rank_groups = [(1 if assign else POOL, (), _ranks_of(items))]
            self.hall = [((0,), cap)] if assign and cap is not None else []
            self.cap_groups = [0]
            return
        rest = items & ~free
        raw = []  # (key, mask)
        if free:
            raw.append((FREE, free))
        if rest:
            if not self.use_assign:
                raw.append((POOL, rest))
            else:
                raw.extend(_signature_groups(self.quotas, alt.admitted_mask, rest))
        if len(raw) > 1:
            raw.sort(key=lambda km: km[1] & -km[1])  # by first piece
        forced = self.forced_mask
        if forced:
            groups = [(key, _ranks_of(m & forced), _ranks_of(m & ~forced)) for key, m in raw]
        else:
            groups = [(key, (), _ranks_of(m)) for key, m in raw]
        self._rank_groups = groups  # (key, forced ranks, optional ranks)
        # Hall's condition: for every set T of quotas with finite caps, the
        # pieces only T's quotas admit may not outnumber T's orders.
        self.hall = []
        if self.use_assign:
            quotas = self.quotas
            charged = [(1 << gi, key) for gi, (key, _, _) in enumerate(groups) if key != FREE and key]
            conds = []
            for t, c in hall_conditions([q.cap for q in quotas]):
                gm = 0  # the groups only T's quotas admit, as a mask
                for bit, key in charged:
                    if not key & ~t:
                        gm |= bit
                if gm:
                    conds.append((gm, c))
            # a condition implied by another (more groups, no more orders)
            # goes: sorted so, every condition comes after those implying it
            conds.sort(key=lambda c: (c[1], -c[0].bit_count()))
            kept: list = []
            for gm, cap in conds:
                for g2, _ in kept:
                    if not gm & ~g2:
                        break
                else:
                    kept.append((gm, cap))
            self.hall = [(_ranks_of(gm), cap) for gm, cap in kept]
        self.cap_groups = [gi for gi, (key, _, _) in enumerate(groups) if key != FREE]

    def _vectors(self, k: int):
        """Count vectors (one count per group) of total k that are legal."""
        by_k = self._by_k
        if by_k is None:
            by_k = self._by_k = {}
            ranges = []
            for gi, (key, f, o) in enumerate(self._rank_groups):
                top = len(f) + len(o)
                for members, cap in self.hall:  # a group alone may not exceed its quotas
                    if members == (gi,):
                        top = min(top, cap)
                ranges.append(range(len(f), max(top, len(f) - 1) + 1))
            limit = self.max_size()
            n = len(ranges)
            vec = [0] * n
            ok = self._vector_ok

            def rec(i, total):
                if i == n:
                    if ok(vec):
                        by_k.setdefault(total, []).append(tuple(vec))
                    return
                for c in ranges[i]:
                    if total + c > limit:
                        break
                    vec[i] = c
                    rec(i + 1, total + c)
                vec[i] = 0

            rec(0, 0)
        return by_k.get(k, ())

    def _vector_ok(self, vec) -> bool:
        limit = self.cap_limit
        if limit is not None:
            for g in self.cap_groups:
                limit -= vec[g]
            if limit < 0:
                return False
        for members, cap in self.hall:
            for g in members:
                cap -= vec[g]
            if cap < 0:
                return False
        return True

    def _quota_layer(self, k: int):
        self._groups()
        groups = self._rank_groups
        if len(groups) == 1 and not groups[0][1]:
            o = groups[0][2]
            if k > len(o) or not self._vector_ok([k]):
                return []
            views = self.setting.views
            return itertools.combinations([views[r] for r in o], k)  # already canonical
        # several groups: a set is its order key (Setting.key_bits), the sum of
        # its groups' parts; sorting int keys is done in C
        out: list = []
        extend = out.extend
        for vec in self._vectors(k):
            fixed = 0  # the groups taken in one way only
            parts = []
            for gi, c in enumerate(vec):
                keys = self._part(gi, c)
                if len(keys) == 1:
                    fixed += keys[0]
                else:
                    parts.append(keys)
            if not parts:
                out.append(fixed)
            elif len(parts) == 1:
                extend([fixed + a for a in parts[0]])
            elif len(parts) == 2:
                p1 = parts[1]
                extend([fixed + a + b for a in parts[0] for b in p1])
            else:
                extend([fixed + sum(t) for t in itertools.product(*parts)])
        out.sort(reverse=True)  # descending keys: piece order
        return list(map(self.setting.key_reader(), out))

    def _part(self, gi: int, c: int) -> list[int]:
        """The order keys of the ways to take c pieces of group gi (its
        forced pieces included), made once per group and count."""
        keys = self._parts.get((gi, c))
        if keys is None:
            _, f, o = self._rank_groups[gi]
            bits = self.setting.key_bits
            get = bits.__getitem__
            fk = sum(map(get, f))
            ko = list(map(get, o))
            keys = list(map(sum, itertools.combinations(ko, c - len(f))))
            if fk:
                keys = [fk + x for x in keys]
            self._parts[(gi, c)] = keys
        return keys

    def _quota_count(self) -> int:
        if self.only is not None:
            return len(self.only)
        self._groups()
        total = 0
        for k in range(self.max_size() + 1):
            for vec in self._vectors(k):
                n = 1
                for (_, f, o), c in zip(self._rank_groups, vec):
                    n *= comb(len(o), c - len(f))
                total += n
        return total

    # ---------------------------------------------------------------- groups
    def _connected_masks(self) -> list[int]:
        """Every connected set (of the pruned pieces) the group allows, as
        masks, the empty set first (``graph.connected_subsets``)."""
        items = self.items_mask
        roots = items & self.alt.anchor_mask if self.mode == "led" else items
        return connected_subsets(items, roots, self.setting.adj_masks(), self._size_bound())

    def _size_bound(self) -> int:
        bound = self.items_mask.bit_count()
        cap = self.alt.capacity
        if cap is not None and (self.use_capacity or self.use_assign) and not self.free_mask:
            bound = min(bound, cap)
        return bound

    def max_size(self) -> int:
        if self.mode == "quota":
            bound = self.items_mask.bit_count()
            if self.cap_limit is not None:
                bound = min(bound, self.cap_limit + self.free_mask.bit_count())
            return bound
        return self._size_bound()

    # ---------------------------------------------------------------- checks
    def passes_filters(self, pieces) -> bool:
        if not self.filters:
            return True
        ctx = Ctx(self.g, self.alt, frozenset(pieces))
        return all(r.full(ctx, {}) for r in self.filters)

    def legal(self, pieces) -> bool:
        """Is this set legal under this alternative (every order rule)?

        The rules' structural kinds are checked directly on masks (the same
        facts their builtins compute); only general rules are evaluated as
        closures."""
        n, items, free, admitted, hall, cap, filled, linked, led = self._checks
        m = 0
        for p in pieces:
            r = p.rank
            if r >= n:  # not an own piece
                return False
            m |= 1 << r
        if m & ~items:  # a unary rule rejects a piece
            return False
        charged = m & ~free
        if hall is not None:  # assignable (_assign_ok, written out)
            c = charged & admitted
            if c:
                for outside, orders in hall:
                    if (c & ~outside).bit_count() > orders:
                        return False
        if cap is not None and charged.bit_count() > cap:
            return False
        if filled and (self.impossible or self.forced_mask & ~m):
            return False
        if linked and not self._connected(m):
            return False
        if led and m and not (m & self.alt.anchor_mask and self._connected(m)):
            return False
        if self.closure_rules:
            ctx = Ctx(self.g, self.alt, frozenset(pieces))
            return all(r.full(ctx, {}) for r in self.closure_rules)
        return True

    def _connected(self, m: int) -> bool:
        """Are the pieces of mask m one group of adjacent (or shared) hexes?"""
        return connected_mask(m, self.setting.adj_masks())

    # ---------------------------------------------------------------- layers
    def layers(self, stream: bool = False):
        """{size: sorted list or iterator of sets}, lazily per size. With
        ``stream`` (a listing that may stop early: ``--limit``), a linked or
        led group's sets are made one size at a time, so the first sets of a
        board with millions of groups come without making the rest."""
        if self.impossible:
            return
        if stream and self.mode in ("linked", "led"):
            yield from self._connected_layers()
            return
        if self.mode == "quota":
            if self.only is not None:
                for m in self.only:
                    s = self.setting.pieces_of(m)
                    if self.passes_filters(s):
                        yield len(s), [s]
                return
            for k in range(self.forced_mask.bit_count(), self.max_size() + 1):
                layer = self._quota_layer(k)
                if self.filters:
                    layer = [s for s in layer if self.passes_filters(s)]
                yield k, layer
            return
        forced = self.forced_mask if self.use_filled else 0
        pieces_of = self.setting.pieces_of
        by_size: dict[int, list] = {}
        for m in self._connected_masks():
            if forced & ~m:
                continue
            s = pieces_of(m)
            if self.filters and not self.passes_filters(s):
                continue
            by_size.setdefault(len(s), []).append(s)
        for k in sorted(by_size):
            yield k, sorted(by_size[k], key=_ranks)

    def _connected_layers(self):
        """The layers of a linked (led) group, size by size: the connected
        sets of exactly k pieces are grown (those of fewer pieces again with
        them: cheap while k is small), until a size has none (then no larger
        connected set holds a root either)."""
        items = self.items_mask
        roots = items & self.alt.anchor_mask if self.mode == "led" else items
        adj = self.setting.adj_masks()
        forced = self.forced_mask if self.use_filled else 0
        pieces_of = self.setting.pieces_of
        for k in range(self._size_bound() + 1):
            masks = [m for m in connected_subsets(items, roots, adj, k) if m.bit_count() == k]
            if not masks:
                return
            layer = []
            for m in masks:
                if forced & ~m:
                    continue
                s = pieces_of(m)
                if self.filters and not self.passes_filters(s):
                    continue
                layer.append(s)
            if layer:
                yield k, sorted(layer, key=_ranks)

    def sets(self) -> Iterator[tuple]:
        """Every set of this alternative, sorted (by size, then piece order).
        The common shapes need no generator: the one set every piece is
        forced into, or the combinations layer by layer."""
        if self.impossible:
            return iter(())
        if self.mode == "quota" and not self.filters:
            if self.only is not None:
                return iter(list(map(self.setting.pieces_of, self.only)))
            sizes = range(self.forced_mask.bit_count(), self.max_size() + 1)
            return itertools.chain.from_iterable(map(self._quota_layer, sizes))
        return itertools.chain.from_iterable(layer for _, layer in self.layers())

    def count_fast(self) -> int | None:
        """The number of sets without enumerating them, where possible: the
        quota generator's count vectors, or for a linked or led group the
        dynamic programme over connected sets (``count_connected``)."""
        if self.impossible:
            return 0
        if self.mode == "quota" and not self.filters:
            return self._quota_count()
        if self.mode in ("linked", "led") and not self.filters:
            return self._connected_count()
        return None

    def _connected_count(self) -> int | None:
        """As many sets as ``layers`` gives for a linked (led) group: the
        empty set (unless a piece is forced) and every connected set of the
        pruned pieces of at most ``_size_bound`` pieces that holds the forced
        pieces (and, led, one of the anchors). None when the pieces' graph is
        too wide for the programme (then the sets are counted one by one)."""
        items = self.items_mask
        forced = self.forced_mask if self.use_filled else 0
        adj = self.setting.adj_masks()
        bound = self._size_bound()
        n = count_connected(items, adj, bound, forced)
        if n is None:
            return None
        if self.mode == "led":  # less the connected sets that hold no anchor
            rest = count_connected(items & ~self.alt.anchor_mask, adj, bound, forced)
            if rest is None:
                return None
            n -= rest
        return n + (0 if forced else 1)


# ---------------------------------------------------------------- counting connected sets
#
# Line Command, Double Time and the leadership chains order one connected
# group: on a dense board there are millions of them (two solid rows of 32
# foot: 14.9 M), too many to list for a count. ``count_connected`` counts them
# without making them, by a dynamic programme over the pieces in an order of
# small "frontier" (the pieces already decided that still have an undecided
# neighbour): a state is how the frontier's chosen pieces fall into
# components, and how many pieces are chosen; a component that leaves the
# frontier is either the whole set (counted) or cut off from the rest (the
# state dies). The states are few when the frontier is narrow (a few rows of
# a board); memory is the states of one step, whatever the count.

MAX_FRONTIER = 14  # wider: the programme could need too many states; count one by one


def count_connected(items: int, adj, limit: int, forced: int = 0) -> int | None:
    """The number of non-empty connected sets of the nodes of ``items``
    (bit masks; ``adj[i]``: the neighbours of node i) with at most ``limit``
    nodes that hold every node of ``forced``; None if the graph is too wide
    for the programme (frontier over ``MAX_FRONTIER``)."""
    if forced & ~items:
        return 0
    if not items or limit < 1:
        return 0
    order = _frontier_order(items, adj)
    pos = {v: i for i, v in enumerate(order)}
    last = []  # the step after which node order[i] has no undecided neighbour
    for v in order:
        later = [pos[w] for w in _ranks_of(adj[v] & items)]
        last.append(max([pos[v], *later]))
    width = 0
    for i in range(len(order)):
        width = max(width, sum(1 for j in range(i + 1) if last[j] > i))
    if width > MAX_FRONTIER:
        return None
    forced_after = [0] * (len(order) + 1)  # forced nodes not yet decided after step i
    for i in range(len(order) - 1, -1, -1):
        forced_after[i] = forced_after[i + 1] + (1 if forced >> order[i] & 1 else 0)
    cap = min(limit, len(order))
    total = 0
    frontier: tuple = ()  # the positions on the frontier, in order
    states = {((), 0): 1}  # (component label per frontier node, 0: not chosen; chosen so far) -> ways
    for i, v in enumerate(order):
        nbs = adj[v]
        near = [k for k, u in enumerate(frontier) if nbs >> order[u] & 1]
        keep = [k for k, u in enumerate(frontier) if last[u] > i]
        stays = last[i] > i
        must = forced >> v & 1
        done_forced = forced_after[i + 1] == 0
        new: dict = {}
        for (labels, size), ways in states.items():
            for take in ((True,) if must else (False, True)):
                if take:
                    if size >= cap:
                        continue
                    joined = {labels[k] for k in near if labels[k]}
                    mine = min(joined) if joined else max(labels, default=0) + 1
                    lab = [mine if x in joined else x for x in labels]
                    lab.append(mine)
                    chosen = size + 1
                else:
                    lab = list(labels)
                    lab.append(0)
                    chosen = size
                kept = [lab[k] for k in keep]
                if stays:
                    kept.append(lab[-1])
                alive = set(kept)
                alive.discard(0)
                gone = {x for x in lab if x and x not in alive}
                if gone:
                    if alive or len(gone) > 1:
                        continue  # a component cut off from the others: not connected
                    if done_forced:
                        total += ways  # the whole set: nothing more may be chosen
                    continue
                relabel: dict = {}
                key = tuple(relabel.setdefault(x, len(relabel) + 1) if x else 0 for x in kept)
                new[(key, chosen)] = new.get((key, chosen), 0) + ways
        states = new
        frontier = tuple([frontier[k] for k in keep] + ([i] if stays else []))
    return total


def _frontier_order(items: int, adj) -> list[int]:
    """The nodes of ``items`` in an order of narrow frontier: breadth first
    (Cuthill-McKee) from a node of least degree, component by component."""
    left = items
    order: list[int] = []
    while left:
        start = min(_ranks_of(left), key=lambda v: ((adj[v] & items).bit_count(), v))
        left &= ~(1 << start)
        queue = [start]
        for v in queue:
            order.append(v)
            nbs = [w for w in _ranks_of(adj[v] & left)]
            nbs.sort(key=lambda w: ((adj[w] & items).bit_count(), w))
            for w in nbs:
                left &= ~(1 << w)
                queue.append(w)
    return order


def _ranks_of(m: int) -> tuple[int, ...]:
    out = []
    while m:
        b = m & -m
        out.append(b.bit_length() - 1)
        m ^= b
    return tuple(out)


def _signature_groups(quotas: list, admitted: int, rest: int) -> list[tuple[int, int]]:
    """The pieces of ``rest`` grouped by signature, as (signature, mask): the
    signature is the mask of the quotas admitting them (bit i: quotas[i]),
    0 for the pieces the alternative does not admit (``admitted``: those it
    does)."""
    if len(quotas) == 1:
        parts = {1: rest & admitted}
    else:
        parts = {0: rest & admitted}
        for i, q in enumerate(quotas):  # partition refinement, quota by quota
            bit, qm = 1 << i, q.mask
            new = {}
            for key, m in parts.items():
                a = m & qm
                if a:
                    new[key | bit] = a
                b = m & ~qm
                if b:
                    new[key] = b
            parts = new
        # admitted by no quota: the pieces on a commanding leader's hex, for any quota
        anchors = parts.pop(0, 0)
        if anchors:
            full = (1 << len(quotas)) - 1
            parts[full] = parts.get(full, 0) | anchors
    out = [(key, m) for key, m in parts.items() if m]
    none = rest & ~admitted
    if none:
        out.append((0, none))
    return out


def _assign_ok(alt: GroundAlt, charged: int) -> bool:
    """Can the charged pieces (a mask) be charged to the quotas without
    overspending one? (Hall's theorem: ``graph.hall_excess``.)"""
    return not hall_excess(alt.hall, alt.admitted_mask, charged)


def _ranks(s):
    return tuple(p.rank for p in s)


#: the C&C builtin that is the card itself (not its roll): a guard that reads
#: only it is decided once per card declaration and the name it is played as
_THE_CARD = frozenset({"card"})


def _unary_shape(plan: Plan, r: PlannedRule) -> tuple:
    """How a unary rule ``forall x in ordered: φ(x)`` prunes, from φ's shape:
    ``admitted(x)`` is set membership; a φ about the board only is one
    per-setting table; ``A(x) implies B`` with A about the board only and B
    free of x evaluates B and reads A from a per-setting table (the same
    facts a hand-written engine would precompute per side); anything else
    is evaluated per piece."""
    from ...dsl import ast as A
    from ...kernel.evaluate import referenced_names

    c = plan.compiler
    body = r.body.body
    if isinstance(body, A.Call) and body.func == "admitted" and body.args == (A.Name(r.var),):
        return ("admitted",)
    if c.board_static(body, (r.var,)):
        return ("board",)
    if isinstance(body, A.Implies) and c.board_static(body.left, (r.var,)) \
            and r.var not in referenced_names(body.right) and not c.is_dynamic(body.right):
        return ("guarded", c.compile(body.left), c.compile(body.right), c.only_reads(body.right, _THE_CARD))
    return ("general",)


def _unary_step(r: PlannedRule, how: tuple, g: Grounding):
    """The pruning step of a unary rule for the card of ``g``: a function
    (g, alt, items) -> the mask of the pieces the rule lets through (bits
    outside ``items`` do not matter); None when the rule is vacuous for the
    card (a guard's B about the card alone and true)."""
    kind, var = how[0], r.var
    if kind == "admitted":
        return _admitted
    if kind == "board":
        return _table(("unary", r.id), r.test, var, False)
    if kind == "guarded":
        _, guard, then, card_only = how
        table = _table(("unary-guard", r.id), guard, var, True)
        if card_only:  # decided once per card
            return None if then(Ctx(g, None), {}) else table
        return lambda g, alt, items: items if then(Ctx(g, alt), {}) else table(g, alt, items)
    test = r.test

    def general(g, alt, items):
        s, ctx = g.setting, Ctx(g, alt)
        return s.mask_of(p for p in s.pieces_of(items) if test(ctx, {var: p}))
    return general


def _admitted(g, alt, items):
    return alt.admitted_mask


def _table(key, test, var, negate: bool):
    """A step reading a per-setting table (``setting.caches.unary[key]``, made on
    first use): the own pieces passing ``test``, or with ``negate`` the
    others."""

    def step(g, alt, items):
        s = g.setting
        m = s.caches.unary.get(key)
        if m is None:
            ctx = Ctx(g, alt)
            m = s.caches.unary[key] = s.mask_of(p for p in s.items if test(ctx, {var: p}))
        return ~m if negate else m
    return step


class RuleSummary:
    """What the enumerator needs to know about a plan's order rules, less the
    guarded rules that are vacuous for the card at hand (computed once per
    plan and set of such rules)."""

    def __init__(self, plan: Plan, skipped: frozenset = frozenset()):
        from ...dsl import ast as A

        rules = [r for r in plan.order_rules if r.id not in skipped]
        self.rules = rules
        self.guarded = [r for r in plan.order_rules if r.skip_when is not None]
        self.decided = [r for r in plan.order_rules if r.kind != "true" and r.premises]  # see PlannedRule.vacuous
        # one rule of each structural kind drives the generator; a second
        # one (another charged set, say) is checked like any other rule
        self.extra: list[PlannedRule] = []
        primary: dict[str, PlannedRule] = {}
        for r in rules:
            if r.kind in ("assignable", "capacity", "filled", "linked", "led"):
                if r.kind in primary:
                    self.extra.append(r)
                else:
                    primary[r.kind] = r
        self.kinds = {r.kind for r in rules}
        self.unary = [r for r in rules if r.kind == "unary"]
        self._unary_shapes = [(r, _unary_shape(plan, r)) for r in self.unary]
        self._unary_by_card: dict = {}
        self.nonunary = [r for r in rules if r.kind not in ("unary", "true", "once") and r not in self.extra]
        self.use_assign = "assignable" in self.kinds
        self.use_capacity = "capacity" in self.kinds
        self.use_filled = "filled" in self.kinds
        self.charged = None
        self.charged_static = False
        self.free_key = id(self)  # setting.caches.free: the pieces a static charged() leaves free
        for r in rules:
            if r.kind in ("assignable", "capacity") and r.charged is not None and r not in self.extra:
                self.charged = r.charged
                cond = _structural_arg(r)
                if isinstance(cond, A.SetComp) and cond.cond is not None:
                    self.charged_static = plan.compiler.board_static(cond.cond, (cond.var,))
                break
        self.caps_differ = caps_differ(rules)
        # generators[single][group kind]: see _generator
        self.generators = {single: {group: self._generator(group, single) for group in (None, "linked", "led")}
                           for single in (False, True)}
        self.structural = self.kinds & {"assignable", "capacity", "filled", "linked", "led"}
        self.closure_rules = [r for r in rules if r.kind == "filter"] + self.extra
        if self.caps_differ:
            self.structural = self.structural - {"capacity"}
            self.closure_rules = self.closure_rules + [r for r in rules if r.kind == "capacity"]


    def unary_steps(self, g: Grounding) -> list:
        """The pruning steps of the unary rules for the card of ``g`` (see
        ``_unary_step``), made once per card: a guard about the card alone
        is a fact of its declaration (and the name it is played as)."""
        card = g.card
        key = (id(card), g.played)
        hit = self._unary_by_card.get(key)
        if hit is not None and hit[0] is card:
            return hit[1]
        steps = [st for r, how in self._unary_shapes if (st := _unary_step(r, how, g)) is not None]
        self._unary_by_card[key] = (card, steps)  # keeps the card alive, so its id stays unique
        return steps

    def _generator(self, group: str | None, single: bool) -> tuple[str, list, bool]:
        """(mode, filters, use_capacity) for an alternative: which generator
        builds its sets and which rules it does not guarantee."""
        kinds = self.kinds
        use_capacity = self.use_capacity
        quota_rules = {"assignable", "capacity"} if single else set()
        if group == "led" and "led" in kinds:
            mode, guaranteed = "led", {"led", "linked", "filled"} | quota_rules
        elif group == "linked" and "linked" in kinds:
            mode, guaranteed = "linked", {"linked", "led", "filled"} | quota_rules
        else:
            mode = "quota"
            guaranteed = {"assignable", "capacity", "filled", "linked" if group != "linked" else "",
                          "led" if group != "led" else ""}
            # a capacity rule over a different charged set than assignable's
            # is not guaranteed by the quota generator
            if self.caps_differ:
                guaranteed.discard("capacity")
                use_capacity = False
        filters = [r for r in self.nonunary if r.kind not in guaranteed] + self.extra
        return mode, filters, use_capacity


def summary(plan: Plan, skipped: frozenset = frozenset()) -> RuleSummary:
    cache = plan.compiler.caches.rule_summaries
    rs = cache.get(skipped)
    if rs is None:
        rs = cache[skipped] = RuleSummary(plan, skipped)
    return rs


def _structural_arg(r: PlannedRule):
    """The set a structural rule is about: X in assignable(X) / count(X) <= capacity."""
    body = r.core if r.core is not None else r.body
    return body.args[0] if r.kind == "assignable" else body.left.args[0]


def caps_differ(rules) -> bool:
    caps = [r for r in rules if r.kind == "capacity"]
    assigns = [r for r in rules if r.kind == "assignable"]
    return bool(caps and assigns and _charged_key(caps[0]) != _charged_key(assigns[0]))


def _charged_key(r: PlannedRule):
    return _structural_arg(r)


class Enumerator:
    def __init__(self, g: Grounding, plan: Plan):
        self.g = g
        self.plan = plan
        self.alts = [AltPlan(g, plan, a) for a in g.alts]

    def __iter__(self) -> Iterator[tuple]:
        return self.order_sets()

    def order_sets(self, limit: int | None = None) -> Iterator[tuple]:
        """Every legal order set (tuples of pieces), sorted, streamed."""
        if len(self.alts) == 1 and limit is None:
            return self.alts[0].sets()
        return self._merged(limit)

    def _merged(self, limit: int | None) -> Iterator[tuple]:
        """The alternatives' sets merged layer by layer (a set an earlier
        alternative allows comes from that one), up to ``limit``."""
        if not self.alts or limit == 0:
            return
        produced = 0
        iters = [a.layers(stream=limit is not None) for a in self.alts]
        pending = [next(it, None) for it in iters]
        while any(p is not None for p in pending):
            k = min(p[0] for p in pending if p is not None)
            layers = []
            for j, p in enumerate(pending):
                if p is not None and p[0] == k:
                    layers.append(p[1])
                    pending[j] = next(iters[j], None)
            if len(layers) == 1:
                merged = layers[0]
            else:
                # an alternative's layer holds exactly the sets of size k it
                # allows: a set an earlier alternative allows is in its layer
                merged = list(layers[0])
                seen = set(merged)
                for layer in layers[1:]:
                    layer = list(layer)
                    merged += [s for s in layer if s not in seen]
                    seen.update(layer)
                merged.sort(key=_ranks)
            for s in merged:
                yield s
                produced += 1
                if limit is not None and produced >= limit:
                    return

    def count_cheap(self) -> int | None:
        """The number of order sets when it comes without enumerating them
        (one alternative whose count is a closed form), else None: what
        `orders --limit` prints as its total without doing the whole work."""
        if not self.alts:
            return 0
        return self.alts[0].count_fast() if len(self.alts) == 1 else None

    def count(self, step=None) -> int:
        """The number of order sets; ``step(done, total, text)``, if given,
        is told the alternatives done (out of all) and the sets counted, as
        the count goes (``kernel.progress``)."""
        if not self.alts:
            return 0
        total = 0
        n = len(self.alts)
        for j, a in enumerate(self.alts):
            fast = a.count_fast() if j == 0 else None
            if fast is not None:
                total += fast
                if step is not None:
                    step(j + 1, n, f"alternative {j + 1}/{n}: {total} order sets counted")
                continue
            earlier = self.alts[:j]
            for k, (_, layer) in enumerate(a.layers()):
                for s in layer:
                    if not any(e.legal(s) for e in earlier):
                        total += 1
                if step is not None:  # (the layers of an alternative: how many, unknown)
                    step(j + k / (k + 1), n, f"alternative {j + 1}/{n}: {total} order sets counted")
            if step is not None:
                step(j + 1, n, f"alternative {j + 1}/{n}: {total} order sets counted")
        return total

    def legal(self, pieces) -> bool:
        return any(a.legal(pieces) for a in self.alts)
