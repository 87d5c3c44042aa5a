"""Whole turns: the distinct end positions a card can produce.

For every legal order set, each ordered piece ends somewhere (its own hex if
it does not move); an attached leader whose unit is ordered goes with it.
An assignment of ends is reachable if the moves can be made *in some order*,
each judged on the board as it stands at that moment.

The constraint model (python-constraint) per order set:

* one variable per ordered piece, its domain the hexes it could reach if
  every other ordered piece were lifted off the board (a superset: moving
  pieces away only opens paths), plus "stay";
* all-different on the end hexes of units, and of leaders;
* ``SequenceConstraint``: some order of the moves is legal. It is decided by
  dynamic programming over the *set* of pieces already moved (2^k states,
  not k! orders), each step asking the move generator whether the piece can
  reach its end given where the others stand; those answers are memoized on
  only the pieces near the mover, so most are shared across assignments.

Pieces whose reachable regions cannot touch are independent: the model is
solved per group and the groups' answers are combined as a product.
End positions are deduplicated across order sets (ordering a piece that
stays put changes nothing on the board).
"""

from __future__ import annotations

import itertools
from typing import Iterator

from constraint import Constraint, Problem, Unassigned

from ...solver.ground import Ctx
from ...solver.search import reach
from ...solver.state import MoveView, Positions

STAY = "stay"


class SequenceConstraint(Constraint):
    """The chosen ends can be reached by moving the pieces in some order."""

    def __init__(self, solver: "_Turns", pieces: list):
        self.solver = solver
        self.pieces = pieces

    def __call__(self, variables, domains, assignments, forwardcheck=False, _u=Unassigned):
        values = [assignments.get(p.id, _u) for p in self.pieces]
        if any(v is _u for v in values):
            return True
        ends = {p: v for p, v in zip(self.pieces, values) if v != STAY}
        return self.solver.feasible(ends)


class _Turns:
    def __init__(self, eng, g, ordered, alt):
        self.eng, self.g, self.alt = eng, g, alt
        self.ordered = frozenset(ordered)
        self.plan = eng.plan
        self.setting = g.setting
        self.base = Positions.initial(self.setting)
        self.memo: dict = {}
        # the system's hooks: does a piece go along with the one it is
        # attached to (``accompanies``), and which one (``host``)?
        defines = self.eng.pack.defines
        accompany, host_name = eng.system.hook("accompanies"), eng.system.hook("host")
        self.followers = {}  # unit -> leaders going with it
        if accompany in defines:
            c = self.plan.compiler
            fn = c.call_of(accompany, "l")[1]  # (once per pack: Compiler.call_of)
            host = c.call_of(host_name, "l")[1] if host_name in defines else None
            ctx = Ctx(g, alt, self.ordered)
            for l in self.setting.own_of.get("leader", ()):
                if fn(ctx, {"l": l}) and host is not None:
                    u = host(ctx, {"l": l})
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
        # the answer depends only on the moves that start or end near p (or move its host)
        if done:
            region, near = self.region[p], self.near[p]
            key = (p, frozenset([(q, c) for q, c in done.items() if q in near or c in region]))
        else:
            key = (p, _NOTHING)
        index = self.index
        hit = self.memo.get(key)
        if hit is not None:
            return bool(hit >> index[end] & 1)
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
        return bool(ends >> index[end] & 1)

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
    def positions(self) -> Iterator[dict]:
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
        per_group = []
        for grp in groups:
            per_group.append(list(self._solve(grp, domains)))
        for combo in itertools.product(*per_group):
            end = {}
            for part in combo:
                end.update(part)
            yield end

    def _solve(self, grp, domains):
        if len(grp) == 1:
            p = grp[0]
            yield {}
            for c in sorted(domains[p]):
                if c != p.at and self.move_ok(p, c, {}):
                    yield self._with_followers({p: c})
            return
        problem = Problem()
        for p in grp:
            problem.addVariable(p.id, [STAY] + sorted(c for c in domains[p] if c != p.at))
        units = [p.id for p in grp if p.role == "unit"]
        leaders = [p.id for p in grp if p.role == "leader"]
        if len(units) > 1:
            problem.addConstraint(_EndsDiffer(), units)
        if len(leaders) > 1:
            problem.addConstraint(_EndsDiffer(), leaders)
        problem.addConstraint(SequenceConstraint(self, grp), [p.id for p in grp])
        by_id = {p.id: p for p in grp}
        for sol in problem.getSolutionIter():
            yield self._with_followers({by_id[k]: v for k, v in sol.items() if v != STAY})

    def _with_followers(self, ends: dict) -> dict:
        out = dict(ends)
        for u, c in ends.items():
            for l in self.followers.get(u, ()):
                out[l] = c
        return out


class _EndsDiffer(Constraint):
    """Pieces that move may not end on the same hex (staying is not a hex)."""

    def __call__(self, variables, domains, assignments, forwardcheck=False, _u=Unassigned):
        seen = set()
        for v in variables:
            x = assignments.get(v, _u)
            if x is _u or x == STAY:
                continue
            if x in seen:
                return False
            seen.add(x)
        return True


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
    g.setting.board.require("cells", "turns")  # a table has none: exit 2 before any answer
    enum = eng.enumerator(g)
    seen: set = set()
    n = 0
    if limit == 0:
        return
    for s in enum.order_sets():
        alts = [a for a in enum.alts if a.legal(s)]
        alt = alts[0].alt if alts else None
        solver = _Turns(eng, g, s, alt)
        for end in solver.positions():
            key = frozenset((p.id, c) for p, c in end.items())
            if key in seen:
                continue
            seen.add(key)
            yield end
            n += 1
            if limit is not None and n >= limit:
                return


def count_end_positions(eng, g, progress: bool | None = None, max_in_memory: int | None = None) -> int:
    """The number of distinct end positions, in bounded memory: positions
    are counted as short keys by ``distinct.DistinctCounter`` (sorted runs
    on disk past ``max_in_memory`` keys), never kept as dicts. ``progress``
    (default: when stderr is a terminal) writes how far it got to stderr
    every two seconds."""
    import sys
    import time

    from .distinct import MAX_IN_MEMORY, DistinctCounter, position_key, stderr_is_terminal

    g.setting.board.require("cells", "turns")
    enum = eng.enumerator(g)
    if progress is None:
        progress = stderr_is_terminal()
    total = enum.count() if progress else 0
    shown = time.monotonic()
    i = 0
    with DistinctCounter(MAX_IN_MEMORY if max_in_memory is None else max_in_memory) as counter:
        for i, s in enumerate(enum.order_sets(), 1):
            alts = [a for a in enum.alts if a.legal(s)]
            solver = _Turns(eng, g, s, alts[0].alt if alts else None)
            for end in solver.positions():
                counter.add(position_key(end))
            if progress and time.monotonic() - shown >= 2:
                shown = time.monotonic()
                sys.stderr.write(f"\r{i}/{total} order sets, {counter.added} positions found "
                                 f"({len(counter.runs)} runs on disk)\x1b[K")
                sys.stderr.flush()
        if progress and i:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()
        return counter.count()
