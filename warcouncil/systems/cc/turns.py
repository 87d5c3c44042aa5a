"""Whole turns: the distinct end positions a card can produce.

For every legal order set, each ordered piece ends somewhere (its own hex if
it does not move); an attached leader whose unit is ordered goes with it.
An assignment of ends is reachable if the moves can be made *in some order*,
each judged on the board as it stands at that moment.

The model per order set, searched by backtracking (``_Turns._solve``):

* one variable per ordered piece, its domain the hexes it could reach if
  every other ordered piece were lifted off the board (a superset: moving
  pieces away only opens paths), plus "stay";
* all-different on the end hexes of units, and of leaders;
* some order of the moves is legal. The search judges the moves chosen so
  far once per node as it goes down: a piece moving after those above it
  (the hexes it may reach then, one mask), when those can be made in some
  order; else by dynamic programming over the *set* of pieces already
  moved (2^k states, not k! orders, ``feasible``), each step asking the
  move generator whether the piece can reach its end given where the
  others stand; those answers are memoized on only the pieces near the
  mover, so most are shared across assignments.

Pieces whose reachable regions cannot touch are independent: the model is
solved per group and the groups' answers are combined as a product (the
largest group streamed, so memory does not grow with its answers).
End positions are deduplicated across order sets (ordering a piece that
stays put changes nothing on the board).
"""

from __future__ import annotations

import itertools
from typing import Iterator

from ...kernel.ground import Ctx
from ...solver.search import reach
from ...kernel.state import MoveView, Positions

STAY = "stay"


class _Turns:
    def __init__(self, eng, g, ordered, alt):
        self.eng, self.g, self.alt = eng, g, alt
        self.ordered = frozenset(ordered)
        self.plan = eng.plan
        self.setting = g.setting
        self.base = Positions.initial(self.setting)
        self.memo: dict = {}
        # the system's hooks, asked of the pack (``Engine.ask``): does a
        # leader go along with the unit he is attached to (``accompanies``),
        # and which one (``host``)?
        accompany, host = eng.system.hook("accompanies"), eng.system.hook("host")
        self.followers = {}  # unit -> leaders going with it
        if accompany is not None and host is not None:
            ctx = Ctx(g, alt, self.ordered)
            for l in self.setting.own_of.get("leader", ()):
                u = eng.ask(ctx, host, l) if eng.ask(ctx, accompany, l) else None
                if u is not None:
                    self.followers.setdefault(u, []).append(l)

    # -------------------------------------------------------------- domains
    def superset(self, p) -> dict:
        """Ends reachable with every other ordered piece lifted off."""
        lifted = {}
        for q in self.ordered:
            if q is not p:
                lifted[q] = None
                for l in self.followers.get(q, ()):
                    lifted[l] = None
        ctx = Ctx(self.g, self.alt, self.ordered, None, None, self.base.derive(lifted), ())
        return reach(ctx, self.plan, p, first_only=True).ends

    # -------------------------------------------------------------- legality
    def move_ok(self, p, end, done: dict) -> bool:
        """May p move to `end` after the moves in `done` ({piece: end})?"""
        return bool(self.ends_mask(p, done) >> self.index[end] & 1)

    def ends_mask(self, p, done: dict) -> int:
        """The hexes p may move to after the moves in `done`, a mask (``Board.mask``)."""
        # the answer depends only on the moves that start or end near p (or move its host)
        if done:
            region, near = self.region[p], self.near[p]
            key = (p, frozenset([(q, c) for q, c in done.items() if q in near or c in region]))
        else:
            key = (p, _NOTHING)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        changes = {}
        earlier = []
        for i, (q, c) in enumerate(done.items()):
            changes[q] = c
            earlier.append(MoveView(q, self.start[q], None, i, to=c, length=1))
            for l in self.followers.get(q, ()):
                changes[l] = c
        ctx = Ctx(self.g, self.alt, self.ordered, None, None, self.base.derive(changes), tuple(earlier))
        ends = reach(ctx, self.plan, p, len(earlier), first_only=True).anywhere  # a mask (``Board.mask``)
        self.memo[key] = ends
        return ends

    def feasible(self, ends: dict) -> bool:
        pieces = list(ends)
        n = len(pieces)
        if n <= 1:
            return all(self.move_ok(p, e, {}) for p, e in ends.items())
        # fast path: the moves in the order given (most assignments pass)
        done = {}
        for p in pieces:
            if not self.move_ok(p, ends[p], done):
                break
            done[p] = ends[p]
        else:
            return True
        full = (1 << n) - 1
        good = {0}
        for mask in range(full + 1):
            if mask not in good:
                continue
            done = {pieces[i]: ends[pieces[i]] for i in range(n) if mask >> i & 1}
            for i in range(n):
                if mask >> i & 1 or (mask | 1 << i) in good:
                    continue
                if self.move_ok(pieces[i], ends[pieces[i]], done):
                    nm = mask | 1 << i
                    if nm == full:
                        return True
                    good.add(nm)
        return full in good

    # -------------------------------------------------------------- solve
    def positions(self, tick=None) -> Iterator[dict]:
        """The end positions of this order set, streamed. ``tick(f)``, if
        given, is told the fraction f of the set's search done, as it goes."""
        movers = sorted(self.ordered, key=lambda p: p.rank)
        self.start = {p: p.at for p in self.setting.views}
        self.host_of = {}
        for u, ls in self.followers.items():
            for l in ls:
                self.host_of[l] = u
        domains = {p: self.superset(p) for p in movers}
        self.region = {}
        for p in movers:
            cells = set(domains[p]) | {p.at}
            ring = set(cells)
            for c in cells:
                ring.update(self.setting.board.neighbours[c])
            self.region[p] = ring
        # the movers that start in p's region, and p's host
        self.near = {p: frozenset(q for q in movers if self.start[q] in self.region[p] or q is self.host_of.get(p))
                     for p in movers}
        self.index = self.setting.board.index
        groups = _groups(movers, self.region, self.start)
        if not groups:
            yield {}
            if tick is not None:
                tick(1.0)
            return
        # the group with the most pieces (the most positions) is streamed;
        # the others are made once and multiplied in (nothing grows with
        # the positions of the streamed group)
        big = max(range(len(groups)), key=lambda i: len(groups[i]))
        others = [list(self._solve(grp, domains)) for j, grp in enumerate(groups) if j != big]
        stream = self._solve(groups[big], domains, tick)
        if not others:
            yield from stream
        else:
            for part in stream:
                for combo in itertools.product(*others):
                    end = dict(part)
                    for o in combo:
                        end.update(o)
                    yield end
        if tick is not None:
            tick(1.0)

    def _solve(self, grp, domains, tick=None):
        """The end positions of a group of pieces whose regions touch: a
        backtracking search over the model above (each piece in rank order
        stays or takes an end of its domain; units end on different hexes,
        and leaders). The moves are judged in the order given as the search
        goes down: a piece moving after the moves above it, when those can
        be made in some order (one ``ends_mask`` per node, memoized); else
        the moves so far are decided whole by ``feasible``, once per node,
        so that a leaf below a node whose moves need another order than
        the rank's is decided by one mask too."""
        doms = [[STAY] + sorted(c for c in domains[p] if c != p.at) for p in grp]
        n = len(grp)
        index = self.index
        # units end on different hexes, and leaders (a leader may end with a unit)
        used_by_role = {"unit": set(), "leader": set()}
        used = [used_by_role.get(p.role, set()) for p in grp]
        ends: dict = {}
        out = self._with_followers if any(p in self.followers for p in grp) else dict

        def down(i, ok_above, base, span):
            # ok_above: the moves chosen above can be made in some order (the
            # pieces below still where they stand)
            p, dom, u = grp[i], doms[i], used[i]
            mask = self.ends_mask(p, ends) if ok_above else 0  # p moving after them
            last = i == n - 1
            step = span / len(dom)
            for k, e in enumerate(dom):
                if e is STAY:
                    ok = ok_above
                elif e in u:
                    continue
                else:
                    ends[p] = e
                    ok = ok_above and mask >> index[e] & 1 or self.feasible(ends)
                if last:  # (the leaves here, not a level further down: one generator less per answer)
                    if ok:
                        yield out(ends)
                elif e is STAY:
                    yield from down(i + 1, ok, base + k * step, step)
                else:
                    u.add(e)
                    yield from down(i + 1, ok, base + k * step, step)
                    u.discard(e)
                if e is not STAY:
                    del ends[p]
                if i < 2 and tick is not None:
                    tick(base + (k + 1) * step)

        return down(0, True, 0.0, 1.0)

    def _with_followers(self, ends: dict) -> dict:
        out = dict(ends)
        for u, c in ends.items():
            for l in self.followers.get(u, ()):
                out[l] = c
        return out


_NOTHING = frozenset()


def _groups(movers, region, start):
    """Pieces whose regions touch, transitively (union-find)."""
    parent = {p: p for p in movers}

    def find(p):
        while parent[p] is not p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    for a, b in itertools.combinations(movers, 2):
        if region[a] & region[b]:
            parent[find(a)] = find(b)
    out: dict = {}
    for p in movers:
        out.setdefault(find(p), []).append(p)
    return [sorted(v, key=lambda p: p.rank) for v in out.values()]


def end_positions(eng, g, limit: int | None = None) -> Iterator[dict]:
    """Distinct end positions ({piece: hex} of the pieces that moved), over
    every legal order set of the card, streamed."""
    from ...kernel.progress import progress, wanted

    g.setting.board.require("cells", "turns")  # a table has none: exit 2 before any answer
    enum = eng.enumerator(g)
    seen: set = set()
    n = 0
    if limit == 0:
        return
    # a bar on a terminal's stderr while the positions go to a file (solver/progress.py)
    weights = _weights(eng, g, enum) if wanted(streams=True) else []
    done = 0.0
    with progress("end positions", sum(weights) or None, streams=True) as step:
        for i, s in enumerate(enum.order_sets()):
            alts = [a for a in enum.alts if a.legal(s)]
            alt = alts[0].alt if alts else None
            solver = _Turns(eng, g, s, alt)
            tick = None
            if weights:
                def tick(f, i=i, base=done, w=weights[i]):
                    step(base + f * w, None, f"{i + 1}/{len(weights)} order sets, {n} end positions")
                done += weights[i]
            for end in solver.positions(tick):
                key = frozenset((p.id, c) for p, c in end.items())
                if key in seen:
                    continue
                seen.add(key)
                yield end
                n += 1
                if limit is not None and n >= limit:
                    return


def count_end_positions(eng, g, progress: bool | None = None, max_in_memory: int | None = None,
                        on_progress=None) -> int:
    """The number of distinct end positions, in bounded memory: positions
    are counted as short keys by ``distinct.DistinctCounter`` (sorted runs
    on disk past ``max_in_memory`` keys), never kept as dicts.

    ``progress`` shows a progress bar on stderr (``kernel.progress``, with
    an estimate of the time left; default: as the command line wants it);
    ``on_progress(done, total, text)``, if given, is called instead as the
    work goes, within an order set as between them: ``done`` out of
    ``total`` is the work estimated (``_weights``), ``text`` says how many
    order sets and positions so far."""
    from ...kernel.progress import progress as bar, wanted
    from .distinct import MAX_IN_MEMORY, DistinctCounter, position_key

    g.setting.board.require("cells", "turns")
    enum = eng.enumerator(g)
    if progress is None:
        progress = wanted()
    with bar("counting", show=bool(progress) and on_progress is None) as step:
        report = on_progress or (step if progress else None)
        weights = _weights(eng, g, enum) if report is not None else []
        total = sum(weights)
        n_sets = len(weights)
        done = 0.0
        with DistinctCounter(MAX_IN_MEMORY if max_in_memory is None else max_in_memory) as counter:
            for i, s in enumerate(enum.order_sets()):
                alts = [a for a in enum.alts if a.legal(s)]
                solver = _Turns(eng, g, s, alts[0].alt if alts else None)
                tick = None
                if report is not None:
                    def tick(f, i=i, base=done, w=weights[i]):
                        report(base + f * w, total, f"{i + 1}/{n_sets} order sets, {counter.added} positions "
                                                    f"found ({len(counter.runs)} runs on disk)")
                    done += weights[i]
                add = counter.add
                for end in solver.positions(tick):
                    add(position_key(end))
            return counter.count()


def _weights(eng, g, enum) -> list[float]:
    """Each order set's work, estimated for the progress bar: the product
    over its pieces of 1 + the hexes the piece reaches alone on the board
    before the turn (the assignments the search goes through)."""
    alone: dict = {}
    out = []
    for s in enum.order_sets():
        w = 1.0
        alt = None
        for p in s:
            d = alone.get(p)
            if d is None:
                if alt is None:
                    alt = next((a.alt for a in enum.alts if a.legal(s)), None)
                d = alone[p] = 1 + len(_Turns(eng, g, (p,), alt).superset(p))
            w *= d
        out.append(w)
    return out
