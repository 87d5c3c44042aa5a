#!/usr/bin/env python
"""Benchmark: warcouncil's order-set enumeration against two baselines.

    python bench/bench_orders.py            # full run (a few minutes)
    python bench/bench_orders.py --quick    # short run (well under a minute)

For every card of the CCA deck, on Akragas (both sides) and on a synthetic
16-unit side with Command 6 (built below), this prints a Markdown table of
microseconds per order set for

  (a) warcouncil: ``eng.ground(card, side=...)`` then ``list(eng.order_sets(g))``;
  (b) a hand-written Python enumerator of the same semantics (this file,
      ``baseline_sets``), written without any warcouncil code: it reads the
      scenario's raw pieces and knows the cards from the rules reference;
  (c) a naive python-constraint encoding (one 0/1 variable per own piece,
      ``FunctionConstraint`` closures checked on complete assignments).

Every row asserts that (b) and (c) give exactly warcouncil's set of order sets
(as ``(unit ids, leader ids)`` pairs), so the baseline is honest. (c) is left
out ('n/a') where one run would take more than ``--csp-timeout`` seconds.

Timing: ``time.perf_counter``; each function is called in batches (batch
size doubled until a batch lasts >= 1/10 of the budget); the functions of a
row then take turns, one batch each -- baseline first, warcouncil second --
until each has spent the budget (>= 0.2 s, or 0.05 s with ``--quick``; at
least 3 batches), and the best batch counts. The garbage collector is off
inside a batch, as in ``timeit``. Everything runs in one process.

Other options: ``--only TEXT`` (cards whose name contains TEXT),
``--no-csp``, ``--csp-timeout S``, ``--json PATH`` (the rows as JSON),
``--profile CARD`` (cProfile warcouncil on that card instead of benchmarking).
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from itertools import combinations, product

from warcouncil.kernel.engine import Engine

# ============================================================================
# The boards
# ============================================================================

ROLL = "light=1,helmet=1"  # for I Am Spartacus and Rally
COPIES = "Order Three Units Left"  # for Counter Attack

# A 16-unit side (south edge, Command 6) of mixed types over all three
# sections, two hexes on dotted lines, 3 attached leaders and 1 lone leader,
# some damaged units (for Rally) and enemy units next to some of them (for
# Clash of Shields). Sections below are the south side's own (= map's).
SYNTH_OWN_UNITS = [
    # id, type, [col, row], blocks (None = full)
    ("u01", "light_infantry", [1, 6], None),        # left
    ("u02", "auxilia", [2, 6], 3),                  # left, damaged
    ("u03", "heavy_infantry", [2, 7], None),        # left (leader l1)
    ("u04", "light_bow_infantry", [3, 6], None),    # left
    ("u05", "light_cavalry", [0, 7], None),         # left
    ("u06", "medium_infantry", [4, 6], None),       # left + center (dotted)
    ("u07", "heavy_infantry", [5, 7], None),        # center (leader l2)
    ("u08", "heavy_infantry", [6, 7], 2),           # center, damaged
    ("u09", "medium_infantry", [5, 6], 3),          # center, damaged
    ("u10", "warrior", [6, 6], None),               # center
    ("u11", "light_sling_infantry", [6, 8], None),  # center
    ("u12", "elephant", [8, 6], 1),                 # center + right (dotted); not rallyable
    ("u13", "medium_cavalry", [9, 7], 2),           # right (leader l3), damaged
    ("u14", "heavy_cavalry", [10, 7], None),        # right
    ("u15", "auxilia", [10, 6], None),              # right
    ("u16", "heavy_chariot", [11, 6], None),        # right
]
SYNTH_OWN_LEADERS = [
    ("l1", [2, 7]),  # attached to u03 (left)
    ("l2", [5, 7]),  # attached to u07 (center)
    ("l3", [9, 7]),  # attached to u13 (right)
    ("l4", [7, 7]),  # lone (center), next to u08 and u12
]
SYNTH_ENEMY_UNITS = [
    ("e1", "heavy_infantry", [1, 5]),    # next to u01, u02
    ("e2", "medium_infantry", [6, 5]),   # next to u10
    ("e3", "light_cavalry", [10, 5]),    # next to u15, u16
    ("e4", "auxilia", [4, 2]),           # far away
]


def synth_yaml() -> str:
    lines = [
        "name: Synthetic 16-unit side (benchmark)",
        "system: cca",
        "board: cca",
        "sides:",
        "  blue: {edge: south, command: 6}",
        "  red: {edge: north, command: 5}",
        "to_move: blue",
        "units:",
    ]
    for pid, typ, at, blocks in SYNTH_OWN_UNITS:
        extra = f", blocks: {blocks}" if blocks else ""
        lines.append(f"  - {{id: {pid}, side: blue, type: {typ}, at: [{at[0]}, {at[1]}]{extra}}}")
    for pid, typ, at in SYNTH_ENEMY_UNITS:
        lines.append(f"  - {{id: {pid}, side: red, type: {typ}, at: [{at[0]}, {at[1]}]}}")
    lines.append("leaders:")
    for pid, at in SYNTH_OWN_LEADERS:
        lines.append(f"  - {{id: {pid}, side: blue, at: [{at[0]}, {at[1]}]}}")
    lines.append("  - {id: e_leader, side: red, at: [6, 5]}")
    return "\n".join(lines) + "\n"


# ============================================================================
# (b) The hand-written baseline. Knows nothing of warcouncil: it reads the
# scenario's raw pieces (id, side, type, at, blocks) and implements the cards
# of shared/reference/cca.md section 3 directly.
# ============================================================================

# type: (kind, class, ranged, full blocks, chariot, elephant)
UNIT_TYPES = {
    "light_infantry": ("foot", "light", True, 4, False, False),
    "light_bow_infantry": ("foot", "light", True, 4, False, False),
    "light_sling_infantry": ("foot", "light", True, 4, False, False),
    "auxilia": ("foot", "light", True, 4, False, False),
    "light_war_machine": ("foot", "light", True, 2, False, False),
    "medium_infantry": ("foot", "medium", False, 4, False, False),
    "warrior": ("foot", "medium", False, 4, False, False),
    "heavy_infantry": ("foot", "heavy", False, 4, False, False),
    "heavy_war_machine": ("foot", "heavy", True, 2, False, False),
    "light_cavalry": ("mounted", "light", True, 3, False, False),
    "light_bow_cavalry": ("mounted", "light", True, 3, False, False),
    "light_chariot": ("mounted", "light", False, 3, True, False),
    "medium_cavalry": ("mounted", "medium", False, 3, False, False),
    "camel": ("mounted", "medium", False, 3, False, False),
    "heavy_cavalry": ("mounted", "heavy", False, 3, False, False),
    "elephant": ("mounted", "heavy", False, 2, False, True),
    "heavy_chariot": ("mounted", "heavy", False, 2, True, False),
}


def hex_neighbours(c, r):
    """Odd-r offset neighbours on the 13x9 CCA board (reference §1.1)."""
    if r % 2 == 0:
        cand = ((c - 1, r), (c + 1, r), (c - 1, r - 1), (c, r - 1), (c - 1, r + 1), (c, r + 1))
    else:
        cand = ((c - 1, r), (c + 1, r), (c, r - 1), (c + 1, r - 1), (c, r + 1), (c + 1, r + 1))
    return [(x, y) for x, y in cand if 0 <= y <= 8 and 0 <= x <= (12 if y % 2 == 0 else 11)]


def own_sections(c, r, edge):
    """The side's own sections of a hex (reference §1.2, closed form)."""
    x2 = 2 * c + (r % 2)
    west, centre, east = x2 <= 8, 8 <= x2 <= 16, x2 >= 16
    left, right = (west, east) if edge == "south" else (east, west)
    out = set()
    if left:
        out.add("left")
    if centre:
        out.add("center")
    if right:
        out.add("right")
    return frozenset(out)


@dataclass
class BUnit:
    id: str
    at: tuple
    kind: str
    cls: str
    ranged: bool
    blocks: int
    full: int
    chariot: bool
    elephant: bool


@dataclass
class BLeader:
    id: str
    at: tuple
    attached: bool


class BSide:
    """One side's raw pieces, prepared once (sections, hex adjacency)."""

    def __init__(self, scenario, side: str):
        self.side = side
        sd = scenario.sides[side]
        self.edge, self.command = sd.edge, sd.command
        self.units = []
        for p in sorted((u for u in scenario.units if u.side == side), key=lambda p: p.id):
            kind, cls, ranged, full, chariot, eleph = UNIT_TYPES[p.type]
            self.units.append(BUnit(p.id, tuple(p.at), kind, cls, ranged, p.blocks or full, full, chariot, eleph))
        unit_cells = {u.at for u in self.units}
        self.leaders = [
            BLeader(l.id, tuple(l.at), tuple(l.at) in unit_cells)
            for l in sorted((l for l in scenario.leaders if l.side == side), key=lambda p: p.id)
        ]
        self.enemy_cells = frozenset(tuple(u.at) for u in scenario.units if u.side != side)
        self.at = {p.id: p.at for p in self.units + self.leaders}
        self.sec = {pid: own_sections(*at, self.edge) for pid, at in self.at.items()}
        self.nb = {}
        for at in set(self.at.values()):
            self.nb[at] = set(hex_neighbours(*at))
        self.role = {u.id: "unit" for u in self.units}
        self.role.update({l.id: "leader" for l in self.leaders})
        self.all_ids = [u.id for u in self.units] + [l.id for l in self.leaders]


# An alternative of a card, as data both (b) and (c) consume.
@dataclass
class Alt:
    kind: str  # quota | all | linked | led
    caps: list = field(default_factory=list)  # quota: cap per quota
    cands: list = field(default_factory=list)  # quota: [(id, sig bitmask)]; linked/led: [id]
    forced: list = field(default_factory=list)  # all: every one of these
    limit: int | None = None  # linked/led: most pieces (None: any)
    roots: list = field(default_factory=list)  # led: ids on a commanding leader's hex


SWAP = {"left": "right", "right": "left", "center": "center"}


def quota_alt(side: BSide, quotas):
    """quotas: [(cap, predicate(piece) -> bool, pool 'units'|'pieces')]."""
    caps = []
    keep = []
    for cap, pred, pool in quotas:
        if cap > 0:  # a quota of 0 orders admits nobody
            keep.append((pred, pool))
            caps.append(cap)
    cands = []
    for p in side.units + side.leaders:
        is_unit = isinstance(p, BUnit)
        sig = 0
        for i, (pred, pool) in enumerate(keep):
            if (pool == "pieces" or is_unit) and pred(p):
                sig |= 1 << i
        if sig:
            cands.append((p.id, sig))
    return Alt("quota", caps=caps, cands=cands)


def one_unit_alt(side: BSide):
    return Alt("quota", caps=[1], cands=[(u.id, 1) for u in side.units])


def card_alts(side: BSide, card: str, roll: dict | None = None, copies: str | None = None, swap=None):
    """The alternatives of a card for this side (reference §3)."""
    sec = side.sec
    cmd = side.command
    units = side.units

    def S(name):
        return swap[name] if swap else name

    def troop(pred):
        alts = [quota_alt(side, [(cmd, pred, "units")])]
        if not any(pred(u) for u in units):
            alts.append(one_unit_alt(side))
        return alts

    if card == "Counter Attack":
        return card_alts(side, copies, roll, swap=SWAP)
    words = card.split()
    if card.startswith("Order ") and words[-1] in ("Left", "Center", "Right") and "Units" in words:
        n = {"Two": 2, "Three": 3, "Four": 4}[words[1]]
        s = S(words[-1].lower())
        return [quota_alt(side, [(n, lambda p, s=s: s in sec[p.id], "pieces")])]
    if card == "Out Flanked":
        return [quota_alt(side, [(2, lambda p: S("left") in sec[p.id], "pieces"),
                                 (2, lambda p: S("right") in sec[p.id], "pieces")])]
    if card == "Coordinated Attack":
        return [quota_alt(side, [(1, lambda p, s=s: S(s) in sec[p.id], "pieces") for s in ("left", "center", "right")])]
    if card in ("Order Light Troops", "Move-Fire-Move"):
        return troop(lambda u: u.cls == "light")
    if card == "Order Medium Troops":
        return troop(lambda u: u.cls == "medium")
    if card == "Order Heavy Troops":
        return troop(lambda u: u.cls == "heavy")
    if card == "Mounted Charge":
        return troop(lambda u: u.kind == "mounted")
    if card == "Order Mounted Troops":
        # mounted units and/or leaders (helmet: attached leaders may detach)
        alts = [quota_alt(side, [(cmd, lambda p: isinstance(p, BLeader) or p.kind == "mounted", "pieces")])]
        if not any(u.kind == "mounted" for u in units):
            alts.append(one_unit_alt(side))
        return alts
    if card.endswith("Leadership") or card == "Leadership Any Section":
        if card == "Leadership Any Section":
            anchor_sec, limit = None, 1 + 3
        else:
            anchor_sec, limit = S(words[1].lower()), 1 + 4
        anchors = {l.at for l in side.leaders if anchor_sec is None or anchor_sec in sec[l.id]}
        # links: units and lone leaders (a leader may not detach on a
        # Leadership card, so an attached one only goes with his unit)
        nodes = [u.id for u in units] + [l.id for l in side.leaders if not l.attached]
        roots = [pid for pid in nodes if side.at[pid] in anchors]
        return [Alt("led", cands=nodes, roots=roots, limit=limit), one_unit_alt(side)]
    if card == "Clash of Shields":
        engaged = [u.id for u in units if side.nb[u.at] & side.enemy_cells]
        return [Alt("all", forced=engaged)]
    if card == "Darken the Sky":
        alts = [Alt("all", forced=[u.id for u in units if u.ranged])]
        if not any(u.ranged for u in units):
            alts.append(one_unit_alt(side))
        return alts
    if card in ("Double Time", "Line Command"):
        foot = [u.id for u in units if u.kind == "foot"]
        alts = [Alt("linked", cands=foot, limit=4 if card == "Double Time" else None)]
        if not foot:
            alts.append(one_unit_alt(side))
        return alts
    if card == "First Strike":
        return [Alt("quota", caps=[], cands=[])]
    if card == "I Am Spartacus":
        r = roll or {}
        return [quota_alt(side, [
            (r.get("light", 0), lambda u: u.cls == "light", "units"),
            (r.get("medium", 0), lambda u: u.cls == "medium", "units"),
            (r.get("heavy", 0), lambda u: u.cls == "heavy", "units"),
            (r.get("helmet", 0), lambda p: True, "pieces"),
        ])]
    if card == "Rally":
        r = roll or {}
        leader_cells = {l.at for l in side.leaders}

        def rallyable(u):
            return (u.blocks < u.full and not u.elephant and not u.chariot
                    and (u.at in leader_cells or bool(side.nb[u.at] & leader_cells)))

        alts = [quota_alt(side, [
            (r.get("light", 0), lambda u: rallyable(u) and u.cls == "light", "units"),
            (r.get("medium", 0), lambda u: rallyable(u) and u.cls == "medium", "units"),
            (r.get("heavy", 0), lambda u: rallyable(u) and u.cls == "heavy", "units"),
            (r.get("helmet", 0), rallyable, "units"),
        ])]
        if not side.leaders:
            alts.append(one_unit_alt(side))
        return alts
    raise KeyError(f"baseline does not know card {card!r}")


def quota_sets(caps, cands):
    """Every set of candidates that can be charged to the quotas without
    overspending one: group by signature (the quotas admitting a piece), walk
    the count vectors that satisfy Hall's condition, take products of
    combinations."""
    if not cands:
        return [()]
    if len(caps) == 1:
        ids = [pid for pid, _ in cands]
        out = []
        for k in range(min(caps[0], len(ids)) + 1):
            out.extend(combinations(ids, k))
        return out
    groups: dict[int, list] = {}
    for pid, sig in cands:
        groups.setdefault(sig, []).append(pid)
    sigs = list(groups)
    members = [groups[s] for s in sigs]
    nq = len(caps)
    # Hall: for every set T of quotas, the pieces only T admits <= T's orders
    halls = []
    for mask in range(1, 1 << nq):
        gs = [i for i, s in enumerate(sigs) if s & ~mask == 0]
        if gs:
            halls.append((gs, sum(caps[i] for i in range(nq) if mask >> i & 1)))
    bound = [min(len(members[i]), sum(caps[q] for q in range(nq) if sigs[i] >> q & 1)) for i in range(len(sigs))]
    total = sum(caps)
    out = []
    vec = [0] * len(sigs)
    combos = [[list(combinations(m, k)) for k in range(b + 1)] for m, b in zip(members, bound)]

    def rec(i, used):
        if i == len(sigs):
            for gs, cap in halls:
                if sum(vec[g] for g in gs) > cap:
                    return
            for prod in product(*[combos[g][vec[g]] for g in range(len(sigs))]):
                out.append(sum(prod, ()))
            return
        for c in range(min(bound[i], total - used) + 1):
            vec[i] = c
            rec(i + 1, used + c)
        vec[i] = 0

    rec(0, 0)
    return out


def connected_sets(side: BSide, nodes, roots, limit):
    """Every connected set of ``nodes`` (by hex adjacency) with at most
    ``limit`` pieces that contains a root, each once (extension-set growth
    over bitmasks: pick a frontier vertex, either take it or ban it)."""
    n = len(nodes)
    at = [side.at[p] for p in nodes]
    index = {c: i for i, c in enumerate(at)}
    adj = [0] * n
    for i, c in enumerate(at):
        m = 0
        for d in side.nb[c]:
            j = index.get(d)
            if j is not None:
                m |= 1 << j
        adj[i] = m
    limit = n if limit is None else limit
    masks = [0]  # the empty set

    def rec(cur, frontier, banned, size):
        masks.append(cur)
        if size >= limit:
            return
        while frontier:
            w = frontier & -frontier
            frontier ^= w
            banned |= w
            rec(cur | w, (frontier | adj[w.bit_length() - 1]) & ~banned, banned, size + 1)

    excluded = 0
    root_idx = [nodes.index(r) for r in roots]
    if limit >= 1:
        for r in root_idx:
            b = 1 << r
            rec(b, adj[r] & ~excluded & ~b, excluded | b, 1)
            excluded |= b
    return [tuple(nodes[i] for i in range(n) if m >> i & 1) for m in masks]


def baseline_sets(side: BSide, card: str, roll=None, copies=None):
    """(b): every legal order set, as tuples (or frozensets) of piece ids."""
    alts = card_alts(side, card, roll, copies)
    results = []
    for alt in alts:
        if alt.kind == "quota":
            results.append(quota_sets(alt.caps, alt.cands))
        elif alt.kind == "all":
            results.append([tuple(alt.forced)])
        elif alt.kind == "linked":
            results.append(connected_sets(side, alt.cands, alt.cands, alt.limit))
        elif alt.kind == "led":
            results.append(connected_sets(side, alt.cands, alt.roots, alt.limit))
    if len(results) == 1:
        return results[0]
    seen = set()
    for r in results:
        seen.update(map(frozenset, r))
    return seen


def parse_roll(text):
    out = {}
    for part in text.split(","):
        face, _, n = part.partition("=")
        out[face.strip()] = out.get(face.strip(), 0) + int(n or 1)
    return out


# ============================================================================
# (c) Naive python-constraint: one 0/1 variable per own piece, one problem per
# alternative, unary FunctionConstraints for eligibility (python-constraint
# applies those to the domains before search) and one FunctionConstraint over
# every variable for the card's structure, checked on complete assignments.
# ============================================================================


def csp_sets(side: BSide, card: str, roll=None, copies=None):
    from constraint import FunctionConstraint, Problem

    names = side.all_ids
    at = side.at
    nb = side.nb

    def connected(chosen):
        if len(chosen) <= 1:
            return True
        cells = {at[p] for p in chosen}
        start = next(iter(cells))
        seen, stack = {start}, [start]
        while stack:
            c = stack.pop()
            for d in nb[c]:
                if d in cells and d not in seen:
                    seen.add(d)
                    stack.append(d)
        return len(seen) == len(cells)

    out = set()
    for alt in card_alts(side, card, roll, copies):
        prob = Problem()
        prob.addVariables(names, [0, 1])
        if alt.kind == "quota":
            sig = dict(alt.cands)
            caps = alt.caps

            def assignable(chosen, left=None):
                # try to charge each chosen piece to a quota with room left
                if left is None:
                    left = list(caps)
                if not chosen:
                    return True
                s = sig[chosen[0]]
                for q in range(len(left)):
                    if s >> q & 1 and left[q] > 0:
                        left[q] -= 1
                        ok = assignable(chosen[1:], left)
                        left[q] += 1
                        if ok:
                            return True
                return False

            def check(*vals, assignable=assignable):
                return assignable([n for n, v in zip(names, vals) if v])

            eligible = set(sig)
        elif alt.kind == "all":
            forced = set(alt.forced)
            for n in forced:
                prob.addConstraint(FunctionConstraint(lambda x: x == 1), [n])
            check, eligible = None, forced
        else:
            limit, roots = alt.limit, set(alt.roots)
            led = alt.kind == "led"

            def check(*vals, limit=limit, roots=roots, led=led):
                chosen = [n for n, v in zip(names, vals) if v]
                if not chosen:
                    return True
                if limit is not None and len(chosen) > limit:
                    return False
                if led and not any(p in roots for p in chosen):
                    return False
                return connected(chosen)

            eligible = set(alt.cands)
        for n in names:
            if n not in eligible:
                prob.addConstraint(FunctionConstraint(lambda x: x == 0), [n])
        if check is not None:
            prob.addConstraint(FunctionConstraint(check), names)
        for sol in prob.getSolutions():
            out.add(frozenset(n for n in names if sol[n]))
    return out


# ============================================================================
# Comparison and timing
# ============================================================================


def as_pairs(sets, role):
    """{(unit ids, leader ids)} from any iterable of id collections."""
    out = set()
    for s in sets:
        ids = sorted(s)
        out.add((tuple(i for i in ids if role[i] == "unit"), tuple(i for i in ids if role[i] == "leader")))
    return out


def wc_pairs(g, sets):
    out = set()
    for s in sets:
        u, l = g.ids(s)
        out.add((tuple(sorted(u)), tuple(sorted(l))))
    return out


def _batch(fn, number):
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        return time.perf_counter() - t0
    finally:
        gc.enable()


def measure_many(fns, budget):
    """Best time per call (s) of each function.

    Each function runs in batches (the batch size doubled until one batch
    lasts >= budget/10); then the functions take turns, one batch each in the
    order given, until every one has spent >= budget (and had >= 3 batches,
    unless one batch alone exceeds the budget). The best batch counts.
    Interleaving keeps the ratios fair when the machine's load changes.
    """
    numbers, best, spent, reps = [], [], [], []
    for fn in fns:
        number = 1
        while True:
            t = _batch(fn, number)
            if t >= budget / 10 or number >= 1 << 20:
                break
            number *= 2
        numbers.append(number)
        best.append(t / number)
        spent.append(t)
        reps.append(1)
    while True:
        todo = [i for i in range(len(fns))
                if (spent[i] < budget or reps[i] < 3) and not (reps[i] >= 1 and spent[i] / reps[i] > budget)]
        if not todo:
            break
        for i in todo:
            t = _batch(fns[i], numbers[i])
            spent[i] += t
            reps[i] += 1
            best[i] = min(best[i], t / numbers[i])
    return best


def measure(fn, budget):
    return measure_many([fn], budget)[0]


class Timeout(Exception):
    pass


def run_with_timeout(fn, seconds):
    def handler(signum, frame):
        raise Timeout()

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def card_kwargs(eng, name):
    card = eng.pack.cards[name]
    kw = {}
    if card.get("copy") is not None:
        kw["copies"] = COPIES
    if card.get("roll") is not None:
        kw["roll"] = ROLL
    return kw


@dataclass
class Row:
    board: str
    side: str
    card: str
    sets: int
    base: float  # s per query
    wc: float  # s per query, ground + enumerate
    ground: float  # s per query
    enum: float  # s per query: wc - ground
    count: float  # s per query: ground + count
    csp: float | None  # s per query, None: skipped

    def us_per_set(self, t):
        return t / max(self.sets, 1) * 1e6

    @property
    def ratio(self):
        return self.wc / self.base


def bench_row(eng, board, side, bside, name, args) -> Row:
    kw = card_kwargs(eng, name)
    roll = parse_roll(kw["roll"]) if "roll" in kw else None
    copies = kw.get("copies")

    def wc():
        g = eng.ground(name, side=side, **kw)
        return list(eng.order_sets(g))

    def base():
        return baseline_sets(bside, name, roll, copies)

    # correctness first: (b) == (a)
    g = eng.ground(name, side=side, **kw)
    wsets = list(eng.order_sets(g))
    want = wc_pairs(g, wsets)
    assert len(want) == len(wsets), f"{board}/{side}/{name}: warcouncil repeats an order set"
    got = as_pairs(base(), bside.role)
    if got != want:
        raise AssertionError(
            f"{board}/{side}/{name}: baseline differs from warcouncil\n"
            f"  only baseline: {sorted(got - want)[:8]}\n  only warcouncil: {sorted(want - got)[:8]}"
        )
    assert eng.count(g) == len(wsets), f"{board}/{side}/{name}: count() != len(order_sets)"

    # baseline first, warcouncil second, interleaved batch by batch. The
    # engine may cache work on a Grounding, so enumeration alone is (a) minus
    # grounding, and count is timed on a fresh grounding too.
    t_base, t_wc, t_ground, t_count = measure_many([
        base,
        wc,
        lambda: eng.ground(name, side=side, **kw),
        lambda: eng.count(eng.ground(name, side=side, **kw)),
    ], args.budget)
    t_enum = max(t_wc - t_ground, 0.0)
    budget = args.budget

    t_csp = None
    if not args.no_csp:
        try:
            t0 = time.perf_counter()
            csets = run_with_timeout(lambda: csp_sets(bside, name, roll, copies), args.csp_timeout)
            first = time.perf_counter() - t0
        except Timeout:
            csets = None
        if csets is not None:
            got = as_pairs(csets, bside.role)
            if got != want:
                raise AssertionError(
                    f"{board}/{side}/{name}: python-constraint differs from warcouncil\n"
                    f"  only csp: {sorted(got - want)[:8]}\n  only warcouncil: {sorted(want - got)[:8]}"
                )
            if first > budget:
                t_csp = first
            else:
                t_csp = measure(lambda: csp_sets(bside, name, roll, copies), budget)
    return Row(board, side, name, len(wsets), t_base, t_wc, t_ground, t_enum, t_count, t_csp)


def fmt(x, digits=2):
    if x is None:
        return "n/a"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.{digits}f}"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def print_table(rows, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    p("| board | side | card | sets | (b) base µs/set | (a) wc µs/set | a/b | ground µs/query | enum µs/set | count µs/query | (c) csp µs/set | c/a |")
    p("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        c = r.us_per_set(r.csp) if r.csp is not None else None
        p(
            f"| {r.board} | {r.side} | {r.card} | {r.sets} | {fmt(r.us_per_set(r.base))} | {fmt(r.us_per_set(r.wc))} "
            f"| {r.ratio:.2f} | {fmt(r.ground * 1e6)} | {fmt(r.us_per_set(r.enum))} | {fmt(r.count * 1e6)} "
            f"| {fmt(c)} | {fmt(r.csp / r.wc) if r.csp is not None else 'n/a'} |"
        )
    p()
    ratios = [r.ratio for r in rows]
    p(f"**Geometric mean of a/b over {len(rows)} rows: {geomean(ratios):.2f}** "
      f"(min {min(ratios):.2f}, max {max(ratios):.2f}; "
      f"{sum(1 for x in ratios if x <= 3)}/{len(ratios)} rows within the 3x target)")
    for b in dict.fromkeys(r.board for r in rows):
        sub = [r.ratio for r in rows if r.board == b]
        p(f"- {b}: geometric mean a/b {geomean(sub):.2f} over {len(sub)} rows")
    cs = [r.csp / r.wc for r in rows if r.csp is not None]
    if cs:
        p(f"- python-constraint (c) finished on {len(cs)}/{len(rows)} rows; geometric mean c/a {geomean(cs):.1f}")
    worst = sorted(rows, key=lambda r: -r.ratio)[:5]
    p()
    p("Worst a/b: " + "; ".join(f"{r.board}/{r.side}/{r.card} {r.ratio:.2f}" for r in worst))


def bench_checks(eng, args, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    cases = [
        ("syracusan", "Order Three Units Center", ["s4", "s5", "s6"], True),
        ("syracusan", "Order Three Units Center", ["s1", "s4", "s5"], False),
        ("carthaginian", "Line Command", ["c3", "c4", "c10"], True),
        ("carthaginian", "Line Command", ["c1", "c5", "c7"], False),
        ("carthaginian", "Inspired Left Leadership", ["c8", "c12"], True),
        ("carthaginian", "Inspired Left Leadership", ["c7", "c11", "hannibal_mago"], False),
    ]
    p("| board | side | card | order set | legal | check_orders µs | ground + check_orders µs | ground + count µs | sets |")
    p("|---|---|---|---|---|---:|---:|---:|---:|")
    over = []
    for side, card, ids, legal in cases:
        g = eng.ground(card, side=side)
        v = eng.check_orders(g, ids)
        assert v.legal == legal, (card, ids, v)
        t, tg, tc = measure_many([
            lambda: eng.check_orders(g, ids),
            lambda: eng.check_orders(eng.ground(card, side=side), ids),
            lambda: eng.count(eng.ground(card, side=side)),
        ], args.budget)
        p(f"| akragas | {side} | {card} | {', '.join(ids)} | {'yes' if legal else 'no'} "
          f"| {fmt(t * 1e6)} | {fmt(tg * 1e6)} | {fmt(tc * 1e6)} | {eng.count(g)} |")
        if tg >= 1e-3:
            over.append(f"{card} {ids}")
    p()
    p("Target (one check under 1 ms): " + ("met for every case." if not over else "MISSED for " + "; ".join(over)))


def boards(tmpdir):
    ak = Engine.load("akragas")
    path = os.path.join(tmpdir, "synth16.yaml")
    with open(path, "w") as f:
        f.write(synth_yaml())
    sy = Engine.load(path)
    return [
        ("akragas", ak, "carthaginian"),
        ("akragas", ak, "syracusan"),
        ("synth16", sy, "blue"),
    ], ak


def profile(card_sub, tmpdir):
    import cProfile
    import pstats

    todo, _ = boards(tmpdir)
    for board, eng, side in todo:
        for name in eng.pack.cards:
            if card_sub.lower() not in name.lower():
                continue
            kw = card_kwargs(eng, name)
            print(f"\n### {board} / {side} / {name}")
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(200):
                g = eng.ground(name, side=side, **kw)
                list(eng.order_sets(g))
            pr.disable()
            pstats.Stats(pr).sort_stats("tottime").print_stats(14)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="short run (0.05 s per measurement)")
    ap.add_argument("--only", default=None, help="only cards whose name contains this text")
    ap.add_argument("--no-csp", action="store_true", help="skip (c) python-constraint")
    ap.add_argument("--csp-timeout", type=float, default=None, help="seconds before (c) is 'n/a' (5; 1 with --quick)")
    ap.add_argument("--profile", default=None, metavar="CARD", help="cProfile warcouncil on this card instead")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the rows (seconds per query) as JSON")
    args = ap.parse_args(argv)
    args.budget = 0.05 if args.quick else 0.2
    if args.csp_timeout is None:
        args.csp_timeout = 1.0 if args.quick else 5.0
    with tempfile.TemporaryDirectory() as tmp:
        if args.profile:
            profile(args.profile, tmp)
            return
        todo, ak = boards(tmp)
        rows = []
        t0 = time.perf_counter()
        for board, eng, side in todo:
            bside = BSide(eng.scenario, side)
            for name in eng.pack.cards:
                if args.only and args.only.lower() not in name.lower():
                    continue
                rows.append(bench_row(eng, board, side, bside, name, args))
                r = rows[-1]
                print(f"{board:8} {side:13} {name:28} sets={r.sets:5} a/b={r.ratio:5.2f}", file=sys.stderr)
        print(f"# Order-set enumeration benchmark{' (--quick)' if args.quick else ''}\n")
        print(f"Python {sys.version.split()[0]}; {len(rows)} rows; budget {args.budget} s per measurement; "
              f"(c) cut off at {args.csp_timeout} s.\n")
        warm = [b for b, eng, side in todo
                if eng.ground("Order Two Units Center", side=side) is eng.ground("Order Two Units Center", side=side)]
        if warm:
            print("**Note: the engine returns a cached Grounding for a repeated query, so (a) measures the warm "
                  "path (a cache hit), not a first query.**\n")
        print_table(rows)
        if args.json:
            import dataclasses
            import json

            with open(args.json, "w") as f:
                json.dump([dataclasses.asdict(r) for r in rows], f, indent=1)
        print("\n## Checking one proposed order set, and counting (Akragas)\n")
        bench_checks(ak, args)
        print(f"\n_total run time {time.perf_counter() - t0:.0f} s_", file=sys.stderr)


if __name__ == "__main__":
    main()
