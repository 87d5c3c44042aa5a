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

import heapq
import itertools
from math import comb
from typing import Iterator

from .ground import Ctx, GroundAlt, Grounding, led_ok
from .plan import Plan, PlannedRule

FREE = "free"


class AltPlan:
    """How to enumerate the order sets of one alternative."""

    def __init__(self, g: Grounding, plan: Plan, alt: GroundAlt):
        self.g, self.plan, self.alt = g, plan, alt
        s = g.setting
        ctx = Ctx(g, alt)
        skipped = frozenset(r.id for r in summary(plan).guarded if r.skip_when(ctx, {}))
        rs = summary(plan, skipped)
        kinds = rs.kinds
        # 1. node consistency: prune pieces by the unary rules
        items = list(s.items)
        for r in rs.unary:
            items = unary_prune(plan, r, ctx, items)
        self.items = items
        self.use_assign = rs.use_assign
        self.use_capacity = rs.use_capacity
        self.use_filled = rs.use_filled
        # 2. which pieces are charged to the card's quotas
        self.charged_fn = rs.charged
        if rs.charged is None:
            self.free = []
        elif rs.charged_static:
            key = ("free", id(rs))
            free = s.memo.get(key)
            if free is None:
                free = s.memo[key] = frozenset(p for p in s.items if not rs.charged(ctx, p))
            self.free = [p for p in items if p in free] if free else []
        else:
            self.free = [p for p in items if not rs.charged(ctx, p)]
        free_set = set(self.free)
        # 3. the generator
        single = (
            len(alt.quotas) == 1 and not self.free and all(p in alt.sig for p in items)
        )  # then "assignable" and "capacity" both mean: at most the quota's orders
        if alt.group == "led" and "led" in kinds:
            self.mode = "led"
            guaranteed = {"led", "linked", "filled"} | ({"assignable", "capacity"} if single else set())
        elif alt.group == "linked" and "linked" in kinds:
            self.mode = "linked"
            guaranteed = {"linked", "led", "filled"} | ({"assignable", "capacity"} if single else set())
        else:
            self.mode = "quota"
            guaranteed = {"assignable", "capacity", "filled", "linked" if alt.group != "linked" else "",
                          "led" if alt.group != "led" else ""}
            # a capacity rule over a different charged set than assignable's
            # is not guaranteed by the quota generator
            if rs.caps_differ:
                guaranteed.discard("capacity")
                self.use_capacity = False
        self.filters: list[PlannedRule] = [r for r in rs.nonunary if r.kind not in guaranteed] + rs.extra
        # for legal(): the structural rules checked directly, the rest by closure
        self.items_set = frozenset(items)
        self.free_set = frozenset(self.free)
        self.structural = rs.structural
        self.closure_rules = rs.closure_rules
        self.forced = frozenset()
        if self.use_filled:
            forced = set()
            for q in alt.quotas:
                if q.all:
                    forced |= q.admitted
            self.forced = frozenset(p for p in items if p in forced)
            self.impossible = bool(forced - set(items))  # an 'all' piece was pruned away
        else:
            self.impossible = False
        if self.mode == "quota":
            self._build_groups(free_set)

    # ---------------------------------------------------------------- quotas
    def _build_groups(self, free_set: set) -> None:
        groups: dict = {}
        for p in self.items:
            if p in free_set:
                key = FREE
            elif self.use_assign:
                key = self.alt.sig.get(p, ())
            else:
                key = ("pool",)
            groups.setdefault(key, []).append(p)
        self.groups = []
        for key, members in groups.items():
            forced = [p for p in members if p in self.forced]
            optional = [p for p in members if p not in self.forced]
            self.groups.append((key, forced, optional))
        self.groups.sort(key=lambda g: min(p.rank for p in g[1] + g[2]))
        self._all_forced = all(not o for _, _, o in self.groups)
        self._rank_groups = [(tuple(p.rank for p in f), tuple(p.rank for p in o)) for _, f, o in self.groups]
        n = len(self.alt.quotas)
        # Hall's condition: for every set T of quotas with finite caps, the
        # pieces only T's quotas admit may not outnumber T's orders.
        self.hall = []
        if self.use_assign:
            for mask in range(1, 1 << n):
                caps = [self.alt.quotas[i].cap for i in range(n) if mask >> i & 1]
                if any(c is None for c in caps):
                    continue
                members = [
                    gi
                    for gi, (key, _, _) in enumerate(self.groups)
                    if key not in (FREE, ()) and all(mask >> i & 1 for i in key)
                ]
                if members:
                    self.hall.append((members, sum(caps)))
        self.cap_groups = [gi for gi, (key, _, _) in enumerate(self.groups) if key != FREE]
        cap = self.alt.capacity
        self.cap_limit = cap if (self.use_capacity and cap is not None) else None
        if not self.use_assign and self.use_capacity is False:
            self.cap_limit = None

    def _vectors(self, k: int):
        """Count vectors (one count per group) of total k that are legal."""
        by_k = getattr(self, "_by_k", None)
        if by_k is None:
            by_k = self._by_k = {}
            groups = self.groups
            ranges = []
            for gi, (key, f, o) in enumerate(groups):
                top = len(f) + len(o)
                for members, cap in self.hall:  # a group alone may not exceed its quotas
                    if members == [gi] or (gi in members and len(members) == 1):
                        top = min(top, cap)
                ranges.append(range(len(f), max(top, len(f) - 1) + 1))
            for vec in itertools.product(*ranges):
                if self._vector_ok(vec):
                    by_k.setdefault(sum(vec), []).append(vec)
        return by_k.get(k, ())

    def _vectors_rec(self, k: int):
        """Count vectors (one count per group) of total k that are legal."""
        groups = self.groups
        lo = [len(f) for _, f, _ in groups]
        hi = [len(f) + len(o) for _, f, o in groups]
        n = len(groups)
        suffix_hi = [0] * (n + 1)
        suffix_lo = [0] * (n + 1)
        for i in range(n - 1, -1, -1):
            suffix_hi[i] = suffix_hi[i + 1] + hi[i]
            suffix_lo[i] = suffix_lo[i + 1] + lo[i]
        vec = [0] * n

        def rec(i, remaining):
            if i == n:
                if remaining == 0 and self._vector_ok(vec):
                    yield tuple(vec)
                return
            a = max(lo[i], remaining - suffix_hi[i + 1])
            b = min(hi[i], remaining - suffix_lo[i + 1])
            for c in range(a, b + 1):
                vec[i] = c
                yield from rec(i + 1, remaining - c)
            vec[i] = 0

        yield from rec(0, k)

    def _vector_ok(self, vec) -> bool:
        if self.cap_limit is not None and sum(vec[g] for g in self.cap_groups) > self.cap_limit:
            return False
        for members, cap in self.hall:
            if sum(vec[g] for g in members) > cap:
                return False
        return True

    def _quota_layer(self, k: int):
        groups = self.groups
        if self._all_forced:
            n = sum(len(f) for _, f, _ in groups)
            if k != n or not self._vector_ok([len(f) for _, f, _ in groups]):
                return []
            return [tuple(sorted(itertools.chain.from_iterable(f for _, f, _ in groups), key=_rank))]
        if not groups:
            return [()] if k == 0 else []
        if len(groups) == 1 and not groups[0][1]:
            if not self._vector_ok([k]) or k > len(groups[0][2]):
                return []
            return itertools.combinations(groups[0][2], k)  # already canonical
        # work on ranks (ints): sorting int tuples is done in C
        by_rank = self.g.setting.views
        chain, combos = itertools.chain.from_iterable, itertools.combinations
        out = []
        for vec in self._vectors(k):
            parts = [
                [f + c for c in combos(o, n - len(f))]
                for (f, o), n in zip(self._rank_groups, vec)
            ]
            for prod in itertools.product(*parts):
                out.append(tuple(sorted(chain(prod))))
        out.sort()
        return [tuple([by_rank[r] for r in t]) for t in out]

    def _quota_count(self) -> int:
        total = 0
        for k in range(self.max_size() + 1):
            for vec in self._vectors(k):
                n = 1
                for (key, f, o), c in zip(self.groups, vec):
                    n *= comb(len(o), c - len(f))
                total += n
        return total

    # ---------------------------------------------------------------- groups
    def _adjacency(self):
        key = ("adjacency", tuple(self.items))
        memo = self.g.setting.memo
        nb = memo.get(key)
        if nb is None:
            nb = memo[key] = self._adjacency_of()
        return nb

    def _adjacency_of(self):
        board = self.g.setting.board
        items = self.items
        cells = {}
        for p in items:
            cells.setdefault(p.at, []).append(p)
        nb = {}
        for p in items:
            near = [q for q in cells.get(p.at, ()) if q is not p]
            for c in board.neighbours[p.at]:
                near.extend(cells.get(c, ()))
            nb[p] = near
        return nb

    def _connected_sets(self):
        """Every connected set (of the pruned pieces) the group allows."""
        nb = self._adjacency()
        limit = self._size_bound()
        if self.mode == "led":
            roots = [p for p in self.items if p.at in self.alt.anchor_cells]
        else:
            roots = list(self.items)
        yield ()
        excluded: set = set()
        for root in roots:
            yield from _grow(root, nb, limit, frozenset(excluded))
            excluded.add(root)

    def _size_bound(self) -> int:
        bound = len(self.items)
        cap = self.alt.capacity
        if cap is not None and (self.use_capacity or self.use_assign) and not self.free:
            bound = min(bound, cap)
        return bound

    def max_size(self) -> int:
        if self.mode == "quota":
            bound = len(self.items)
            if self.cap_limit is not None:
                free = sum(len(f) + len(o) for key, f, o in self.groups if key == FREE)
                bound = min(bound, self.cap_limit + free)
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

        The rules' structural kinds are checked directly (the same builtins
        their formulas call); only general rules are evaluated as closures."""
        ps = frozenset(pieces)
        if not ps <= self.items_set:  # a unary rule rejects a piece
            return False
        alt, st = self.alt, self.structural
        if self.impossible and "filled" in st:
            return False
        charged = [p for p in ps if p not in self.free_set]
        if "assignable" in st and alt.assign_problem(charged):
            return False
        if "capacity" in st and alt.capacity is not None and len(charged) > alt.capacity:
            return False
        if "filled" in st and not self.forced <= ps:
            return False
        setting = self.g.setting
        if "linked" in st and alt.group == "linked" and not setting.connected(ps):
            return False
        if "led" in st and not led_ok(alt, setting, ps):
            return False
        if self.closure_rules:
            ctx = Ctx(self.g, alt, ps)
            return all(r.full(ctx, {}) for r in self.closure_rules)
        return True

    # ---------------------------------------------------------------- layers
    def layers(self):
        """{size: sorted list or iterator of sets}, lazily per size."""
        if self.impossible:
            return
        if self.mode == "quota":
            if self._all_forced:  # one set: every piece the card orders
                sizes = [sum(len(f) for _, f, _ in self.groups)]
            else:
                sizes = range(len(self.forced), self.max_size() + 1)
            for k in sizes:
                layer = self._quota_layer(k)
                if self.filters:
                    layer = [s for s in layer if self.passes_filters(s)]
                yield k, layer
            return
        by_size: dict[int, list] = {}
        for s in self._connected_sets():
            s = tuple(sorted(s, key=_rank))
            if self.use_filled and not self.forced <= set(s):
                continue
            if self.passes_filters(s):
                by_size.setdefault(len(s), []).append(s)
        for k in sorted(by_size):
            yield k, sorted(by_size[k], key=_ranks)

    def count_fast(self) -> int | None:
        """The number of sets without enumerating them, where possible."""
        if self.impossible:
            return 0
        if self.mode == "quota" and not self.filters:
            return self._quota_count()
        return None


def _grow(root, nb, limit, excluded):
    """Connected sets containing ``root`` and none of ``excluded``: each once.

    Classic extension-set enumeration: at each step pick a vertex from the
    frontier; either it joins the set, or it is excluded from this branch.
    """
    if limit < 1:
        return

    def rec(current, frontier, banned):
        yield current
        if len(current) >= limit:
            return
        frontier = list(frontier)
        banned = set(banned)
        while frontier:
            w = frontier.pop()
            banned.add(w)
            new = frontier + [u for u in nb[w] if u not in banned and u not in current and u not in frontier]
            yield from rec(current + (w,), new, banned)

    start_frontier = []
    for u in nb[root]:
        if u not in excluded and u is not root and u not in start_frontier:
            start_frontier.append(u)
    yield from rec((root,), start_frontier, set(excluded) | {root})


def _rank(p):
    return p.rank


def _ranks(s):
    return tuple(p.rank for p in s)


def unary_prune(plan: Plan, r: PlannedRule, ctx: Ctx, items: list) -> list:
    """The pieces a unary rule ``forall x in ordered: φ(x)`` lets through.

    The compiler specialises φ's common shapes: ``admitted(x)`` is set
    membership; ``A(x) implies B`` with A about the board only and B free of
    x evaluates B once and A from a per-setting table (the same facts a
    hand-written engine would precompute per side); a φ about the board
    only is one per-setting table; anything else is evaluated per piece."""
    how = _unary_shape(plan, r)
    kind = how[0]
    if kind == "admitted":
        adm = ctx.alt.admitted
        return [p for p in items if p in adm]
    s = ctx.g.setting
    if kind == "board":
        key = ("unary", r.id)
        ok = s.memo.get(key)
        if ok is None:
            ok = s.memo[key] = frozenset(p for p in s.items if r.test(ctx, {r.var: p}))
        return [p for p in items if p in ok]
    if kind == "guarded":
        _, guard, then = how
        if then(ctx, {}):
            return items
        key = ("unary-guard", r.id)
        hit = s.memo.get(key)
        if hit is None:
            hit = s.memo[key] = frozenset(p for p in s.items if guard(ctx, {r.var: p}))
        return [p for p in items if p not in hit]
    return [p for p in items if r.test(ctx, {r.var: p})]


_SHAPES: dict = {}


def _unary_shape(plan: Plan, r: PlannedRule):
    hit = _SHAPES.get(id(r))
    if hit is not None and hit[0] is r:
        return hit[1]
    from ..dsl import ast as A
    from .evaluate import referenced_names

    c = plan.compiler
    body = r.body.body
    how: tuple = ("general",)
    if isinstance(body, A.Call) and body.func == "admitted" and body.args == (A.Name(r.var),):
        how = ("admitted",)
    elif c.board_static(body, (r.var,)):
        how = ("board",)
    elif isinstance(body, A.Implies) and c.board_static(body.left, (r.var,)) \
            and r.var not in referenced_names(body.right) and not c.is_dynamic(body.right):
        how = ("guarded", c.compile(body.left), c.compile(body.right))
    _SHAPES[id(r)] = (r, how)
    return how


class RuleSummary:
    """What the enumerator needs to know about a plan's order rules, less the
    guarded rules that are vacuous for the card at hand (computed once per
    plan and set of such rules)."""

    def __init__(self, plan: Plan, skipped: frozenset = frozenset()):
        from ..dsl import ast as A

        rules = [r for r in plan.order_rules if r.id not in skipped]
        self.rules = rules
        self.guarded = [r for r in plan.order_rules if r.skip_when is not None]
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
        self.nonunary = [r for r in rules if r.kind not in ("unary", "true", "once") and r not in self.extra]
        self.use_assign = "assignable" in self.kinds
        self.use_capacity = "capacity" in self.kinds
        self.use_filled = "filled" in self.kinds
        self.charged = None
        self.charged_static = False
        for r in rules:
            if r.kind in ("assignable", "capacity") and r.charged is not None and r not in self.extra:
                self.charged = r.charged
                cond = _structural_arg(r)
                if isinstance(cond, A.SetComp) and cond.cond is not None:
                    self.charged_static = plan.compiler.board_static(cond.cond, (cond.var,))
                break
        self.caps_differ = caps_differ(rules)
        self.structural = self.kinds & {"assignable", "capacity", "filled", "linked", "led"}
        self.closure_rules = [r for r in rules if r.kind == "filter"] + self.extra
        if self.caps_differ:
            self.structural = self.structural - {"capacity"}
            self.closure_rules = self.closure_rules + [r for r in rules if r.kind == "capacity"]


def summary(plan: Plan, skipped: frozenset = frozenset()) -> RuleSummary:
    cache = getattr(plan, "_rule_summaries", None)
    if cache is None:
        cache = plan._rule_summaries = {}
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
        if not self.alts or limit == 0:
            return
        if len(self.alts) == 1 and limit is None:
            for _, layer in self.alts[0].layers():
                yield from layer
            return
        produced = 0
        iters = [a.layers() for a in self.alts]
        pending = [next(it, None) for it in iters]
        while any(p is not None for p in pending):
            k = min(p[0] for p in pending if p is not None)
            streams = []
            for j, p in enumerate(pending):
                if p is None or p[0] != k:
                    continue
                layer = p[1]
                if j > 0:
                    earlier = self.alts[:j]
                    layer = (s for s in layer if not any(a.legal(s) for a in earlier))
                streams.append(layer)
                pending[j] = next(iters[j], None)
            merged = streams[0] if len(streams) == 1 else heapq.merge(*streams, key=_ranks)
            for s in merged:
                yield s
                produced += 1
                if limit is not None and produced >= limit:
                    return

    def count(self) -> int:
        if not self.alts:
            return 0
        total = 0
        for j, a in enumerate(self.alts):
            fast = a.count_fast() if j == 0 else None
            if fast is not None:
                total += fast
                continue
            earlier = self.alts[:j]
            for _, layer in a.layers():
                for s in layer:
                    if not any(e.legal(s) for e in earlier):
                        total += 1
        return total

    def legal(self, pieces) -> bool:
        return any(a.legal(pieces) for a in self.alts)
