#!/usr/bin/env python
"""Benchmark: warcouncil's movement (destinations, turn checks, end positions).

    python bench/bench_moves.py            # full run (Out Flanked alone takes minutes)
    python bench/bench_moves.py --quick    # short run (well under a minute)

On Akragas, both sides, every section card (Order Two/Three/Four Units
Left/Center/Right), this prints Markdown tables of

  (1) legal destinations of every ordered piece of the card's largest legal
      order set (the last set of ``eng.order_sets(g)``), per piece:
      (a) warcouncil ``eng.destinations(eng.ground(card), ids)`` (a fresh grounding, battle flags included);
      (b) a hand-written Python move generator of the same semantics (this
          file, ``base_destinations``): a breadth-first search over the
          odd-r board with per-side data prepared once. Every row asserts
          that (b) gives exactly warcouncil's destinations and battle flags;
  (2) ``eng.check_turn`` of six-order turns, a legal and an illegal one
      (the turn file is loaded once, outside the timing), per check;
  (3) ``sum(1 for _ in end_positions(eng, g))`` (``warcouncil turns
      --count``): the count and the seconds of one run, for every section
      card and Out Flanked (with ``--quick``: the Two Units cards only).

Timing for (1) and (2): ``time.perf_counter``; each function is called in
batches (batch size doubled until a batch lasts >= 1/10 of the budget); the
functions of a row then take turns, one batch each -- baseline first,
warcouncil second -- until each has spent the budget (0.2 s, or 0.05 s with
``--quick``; at least 3 batches), and the best batch counts. The garbage
collector is off inside a batch, as in ``timeit``. Everything runs in one
process.

Other options: ``--only TEXT`` (cards whose name contains TEXT), ``--no-count``
(skip (3)), ``--count-only``, ``--json PATH`` (the rows as JSON),
``--profile WHAT`` (cProfile warcouncil instead of benchmarking: ``dest``,
``check`` or ``count``), ``--checks-run N --turn I`` (only N checks of turn I
of (2), after 20 unmeasured ones, and nothing printed: for counting
instructions, which the load of a shared machine does not move, e.g.
``valgrind --tool=callgrind`` of N and of 0 checks; see bench/README.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import asdict, dataclass

from warcouncil.kernel.engine import Engine
from warcouncil.kernel.turn import load_turn
from warcouncil.systems.cc.turns import end_positions

SIDES = ("carthaginian", "syracusan")
SECTION_CARDS = [f"Order {n} Units {s}" for n in ("Two", "Three", "Four") for s in ("Left", "Center", "Right")]

# ============================================================================
# (b) The hand-written baseline. Knows nothing of warcouncil: it reads the
# scenario's raw pieces (id, side, type, at) and implements seed 002's unit
# and leader movement and shared/reference/cca.md sections 1, 4, 5 and 7
# directly, for an open board (Akragas has no terrain; the baseline refuses
# a scenario with terrain) and a section card (no Double Time, Mounted
# Charge, Line Command or light-foot pass-through).
# ============================================================================

# type: (most hexes, most hexes moved and still battle)
UNIT_MOVES = {
    "light_infantry": (2, 2),
    "light_bow_infantry": (2, 2),
    "light_sling_infantry": (2, 2),
    "auxilia": (2, 1),  # moving 2 = no battle
    "light_war_machine": (1, 0),  # may not battle after moving
    "medium_infantry": (1, 1),
    "warrior": (2, 2),  # 2 only to end next to an enemy, then it battles (see base_destinations)
    "heavy_infantry": (1, 1),
    "heavy_war_machine": (1, 0),
    "light_cavalry": (4, 4),
    "light_bow_cavalry": (4, 4),
    "light_chariot": (3, 3),
    "medium_cavalry": (3, 3),
    "camel": (3, 3),
    "heavy_cavalry": (2, 2),
    "elephant": (2, 2),
    "heavy_chariot": (2, 2),
}
LEADER_MOVE = 3  # a leader moving alone: 1, 2 or 3 hexes


def board_neighbours(width=13, depth=9):
    """{cell: on-board odd-r neighbours} (reference §1.1)."""

    def on(c, r):
        return 0 <= r < depth and 0 <= c < (width if r % 2 == 0 else width - 1)

    nb = {}
    for r in range(depth):
        for c in range(width if r % 2 == 0 else width - 1):
            if r % 2 == 0:
                cand = ((c - 1, r), (c + 1, r), (c - 1, r - 1), (c, r - 1), (c - 1, r + 1), (c, r + 1))
            else:
                cand = ((c - 1, r), (c + 1, r), (c, r - 1), (c + 1, r - 1), (c, r + 1), (c + 1, r + 1))
            nb[(c, r)] = tuple(x for x in cand if on(*x))
    return nb


class MSide:
    """One side's view of the board, prepared once (as the engine caches its
    Setting): neighbours, which hexes block, stop or may not be ended on."""

    def __init__(self, scenario, side: str):
        if scenario.terrain:
            raise ValueError("the baseline knows an open board only")
        self.nb = board_neighbours()
        own_u = [u for u in scenario.units if u.side == side]
        own_l = [l for l in scenario.leaders if l.side == side]
        enemy = [p for p in list(scenario.units) + list(scenario.leaders) if p.side != side]
        # enemy units and leaders: never entered
        self.enemy = frozenset(tuple(p.at) for p in enemy)
        # friendly units: never ended on, never passed (section cards)
        self.own_units = frozenset(tuple(u.at) for u in own_u)
        # a unit stops on a friendly leader's hex (and never passes a friendly unit)
        self.unit_stop = self.own_units | frozenset(tuple(l.at) for l in own_l)
        # a leader never ends on another leader (enemy leaders are not entered anyway)
        self.leaders = frozenset(tuple(l.at) for l in scenario.leaders)
        # a warrior's 2-hex charge must end next to an enemy unit or leader
        self.near_enemy = frozenset(n for c in self.enemy for n in self.nb[c])
        self.units = {}
        for u in own_u:
            move, bmove = UNIT_MOVES[u.type]
            self.units[u.id] = (tuple(u.at), move, bmove, u.type == "warrior")
        self.leader_at = {l.id: tuple(l.at) for l in own_l}


def base_destinations(ms: MSide, ids):
    """{id: {cell: may battle (units) or None (leaders)}} for the ordered
    pieces, each as if it moved first. A breadth-first search: a hex's
    distance is the fewest hexes entered to reach it, only hexes a piece
    may pass through are expanded, so every hex is seen once."""
    nb, enemy = ms.nb, ms.enemy
    out = {}
    for pid in ids:
        u = ms.units.get(pid)
        if u is not None:
            start, move, bmove, warrior = u
            stop, units, near = ms.unit_stop, ms.own_units, ms.near_enemy
            seen = {start}
            frontier = [start]
            res = {}
            for d in range(1, move + 1):
                nxt = []
                for c in frontier:
                    if d > 1 and c in stop:
                        continue  # entered a friendly unit's or leader's hex: no further
                    for n in nb[c]:
                        if n in seen or n in enemy:
                            continue
                        seen.add(n)
                        nxt.append(n)
                        if n not in units and (not warrior or d < 2 or n in near):
                            res[n] = d <= bmove
                frontier = nxt
            out[pid] = res
        else:
            start = ms.leader_at[pid]
            leaders = ms.leaders
            seen = {start}
            frontier = [start]
            res = {}
            for _ in range(LEADER_MOVE):
                nxt = []
                for c in frontier:
                    for n in nb[c]:  # a lone leader passes friendly units and leaders
                        if n in seen or n in enemy:
                            continue
                        seen.add(n)
                        nxt.append(n)
                        if n not in leaders:
                            res[n] = None
                frontier = nxt
            out[pid] = res
    return out


# ============================================================================
# Timing (as in bench_orders.py)
# ============================================================================


# the same harness and formatting as bench_orders.py, shared
from bench_orders import fmt, geomean, measure_many  # noqa: E402


# ============================================================================
# (1) destinations
# ============================================================================


@dataclass
class DestRow:
    side: str
    card: str
    ids: list
    pieces: int
    dests: int  # destinations over all pieces
    base: float  # s per query (all pieces)
    wc: float  # s per query: eng.destinations
    reach: float  # s per query: search.reach alone, once per piece

    def per_piece(self, t):
        return t / self.pieces * 1e6

    @property
    def ratio(self):
        return self.wc / self.base


def largest_set(eng, g):
    sets = list(eng.order_sets(g))
    big = sets[-1]
    assert len(big) == max(len(s) for s in sets), "the last order set is not a largest one"
    return big


def reach_fn(eng, card, side, ids):
    """eng.ground and search.reach for every piece, as eng.destinations
    calls it (no battle flags, no legality check of the order set, no
    sorting)."""
    from warcouncil.kernel.ground import Ctx
    from warcouncil.solver.search import reach

    plan = eng.plan

    def run():
        g = eng.ground(card, side=side)
        pieces = eng.pieces(g, ids)
        ctx = Ctx(g, g.alts[0], frozenset(pieces))
        return [reach(ctx, plan, p) for p in pieces]

    return run


def bench_dest_row(eng, side, card, ms, args) -> DestRow:
    g = eng.ground(card, side=side)
    ids = [p.id for p in largest_set(eng, g)]
    legal, dests = eng.destinations(g, ids)
    assert legal, f"{side}/{card}: the largest order set is not legal"
    want = dests
    got = base_destinations(ms, ids)
    if got != want:
        lines = []
        for pid in ids:
            w, b = want.get(pid, {}), got.get(pid, {})
            if w != b:
                lines.append(f"  {pid}: only warcouncil {sorted(set(w.items()) - set(b.items()))}; "
                             f"only baseline {sorted(set(b.items()) - set(w.items()))}")
        raise AssertionError(f"{side}/{card}: baseline destinations differ from warcouncil\n" + "\n".join(lines))
    # a fresh grounding for every query: a grounding caches what it has
    # worked out (see ``Compiler.move_use``), and a repeated query on the
    # same one would measure those caches
    t_base, t_wc, t_reach = measure_many([
        lambda: base_destinations(ms, ids),
        lambda: eng.destinations(eng.ground(card, side=side), ids),
        reach_fn(eng, card, side, ids),
    ], args.budget)
    return DestRow(side, card, ids, len(ids), sum(len(d) for d in want.values()), t_base, t_wc, t_reach)


def print_dest_table(rows, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    p("| side | card | largest order set | pieces | dests | (b) base µs/piece | (a) wc µs/piece | a/b "
      "| reach µs/piece | rest µs/piece |")
    p("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        p(f"| {r.side} | {r.card} | {', '.join(r.ids)} | {r.pieces} | {r.dests} | {fmt(r.per_piece(r.base))} "
          f"| {fmt(r.per_piece(r.wc))} | {r.ratio:.1f} | {fmt(r.per_piece(r.reach))} "
          f"| {fmt(r.per_piece(max(r.wc - r.reach, 0.0)))} |")
    p()
    ratios = [r.ratio for r in rows]
    p(f"**Geometric mean of a/b over {len(rows)} rows: {geomean(ratios):.1f}** "
      f"(min {min(ratios):.1f}, max {max(ratios):.1f})")
    for side in dict.fromkeys(r.side for r in rows):
        sub = [r.ratio for r in rows if r.side == side]
        p(f"- {side}: geometric mean a/b {geomean(sub):.1f} over {len(sub)} rows")
    worst = sorted(rows, key=lambda r: -r.ratio)[:4]
    p()
    p("Worst a/b: " + "; ".join(f"{r.side}/{r.card} {r.ratio:.1f}" for r in worst))


# ============================================================================
# (2) checking a six-order turn
# ============================================================================

# Syracusan (south edge). Order Light Troops: six light units (Command 6);
# the moves are given by their end hex (the engine finds a witness path),
# but s10's, given as a path. s1 (light cavalry) rides 4 hexes next to c9 and
# attacks it; s10 (light bow) moves 2 and fires at c10 (2 hexes away, range
# 3, no enemy next to it); the auxilia move 1 or 2 (s7: 2, so it does not
# battle).
LIGHT_LEGAL = """\
card: Order Light Troops
side: syracusan
orders: [s1, s2, s7, s8, s10, s11]
moves:
  - {piece: s1, to: [1, 3]}
  - {piece: s10, path: [[3, 5], [3, 4]]}
  - {piece: s11, to: [6, 4]}
  - {piece: s2, to: [2, 6]}
  - {piece: s7, to: [8, 5]}
  - {piece: s8, to: [9, 6]}
battles:
  - {piece: s1, target: c9}
  - {piece: s10, target: c10}
"""
# The same, but s2 (auxilia, 2 hexes at most) goes 3 hexes and s7 fires
# after moving 2 (an auxilia may not).
LIGHT_ILLEGAL = LIGHT_LEGAL.replace("{piece: s2, to: [2, 6]}", "{piece: s2, to: [2, 4]}").replace(
    "  - {piece: s10, target: c10}\n", "  - {piece: s10, target: c10}\n  - {piece: s7, target: c11}\n")

# Line Command: six linked foot units of the centre and right, one hex each;
# s11 makes room first, daphnaeus (attached to s5) goes with s5.
LINE_LEGAL = """\
card: Line Command
side: syracusan
orders: [s4, s5, s6, s7, s8, s11]
moves:
  - {piece: s11, to: [6, 5]}
  - {piece: s4, to: [5, 6]}
  - {piece: s5, to: [6, 6]}
  - {piece: daphnaeus, to: [6, 6]}
  - {piece: s6, to: [7, 6]}
  - {piece: s7, to: [8, 6]}
  - {piece: s8, to: [9, 6]}
"""
# The same, but s4 moves 2 hexes (Line Command: at most 1) and daphnaeus
# stays behind (he must go with his unit).
LINE_ILLEGAL = LINE_LEGAL.replace("{piece: s4, to: [5, 6]}", "{piece: s4, to: [5, 5]}").replace(
    "  - {piece: daphnaeus, to: [6, 6]}\n", "")

TURNS = [
    ("Order Light Troops, 6 units, 2 battles", LIGHT_LEGAL, True),
    ("Order Light Troops, 6 units, 3 battles", LIGHT_ILLEGAL, False),
    ("Line Command, 6 units + attached leader", LINE_LEGAL, True),
    ("Line Command, 6 units + attached leader", LINE_ILLEGAL, False),
]


@dataclass
class CheckRow:
    turn: str
    legal: bool
    moves: int
    battles: int
    violations: list
    wc: float  # s per check


def bench_checks(eng, args, tmpdir):
    rows = []
    for i, (label, text, legal) in enumerate(TURNS):
        path = os.path.join(tmpdir, f"turn{i}.yaml")
        with open(path, "w") as f:
            f.write(text)
        turn = load_turn(path, eng.scenario.board)
        v = eng.check_turn(turn)
        assert v.legal == legal, (label, [x.message for x in v.violations])
        (t,) = measure_many([lambda: eng.check_turn(turn)], args.budget)
        rows.append(CheckRow(label, legal, len(turn.moves), len(turn.battles),
                             sorted({x.rule for x in v.violations}), t))
    return rows


def bench_checks_cpu(eng, rounds, tmpdir, out=sys.stdout):
    """(2) in CPU time as well as wall time: ``rounds`` rounds of 10 checks
    per turn, the least and the median of the rounds (per check). On a
    shared machine the CPU seconds move less with the others' load; run
    two checkouts alternately (``PYTHONPATH=OTHER python bench/bench_moves.py
    --checks-cpu 40`` from a directory holding neither)."""
    import gc
    import statistics
    import warcouncil

    p = lambda s="": print(s, file=out)  # noqa: E731
    p(f"warcouncil from {os.path.dirname(warcouncil.__file__)}; {rounds} rounds of 10 checks per turn.\n")
    p("| turn (Akragas, syracusan) | legal | CPU µs, least | CPU µs, median | wall µs, least | wall µs, median |")
    p("|---|---|---:|---:|---:|---:|")
    for i, (label, text, legal) in enumerate(TURNS):
        path = os.path.join(tmpdir, f"turn{i}.yaml")
        with open(path, "w") as f:
            f.write(text)
        turn = load_turn(path, eng.scenario.board)
        assert eng.check_turn(turn).legal == legal
        for _ in range(5):
            eng.check_turn(turn)
        walls, cpus = [], []
        for _ in range(rounds):
            gc.disable()
            w0, c0 = time.perf_counter(), time.process_time()
            for _ in range(10):
                eng.check_turn(turn)
            c1, w1 = time.process_time(), time.perf_counter()
            gc.enable()
            walls.append((w1 - w0) / 10)
            cpus.append((c1 - c0) / 10)
        p(f"| {label} | {'yes' if legal else 'no'} | {min(cpus) * 1e6:.0f} | {statistics.median(cpus) * 1e6:.0f} "
          f"| {min(walls) * 1e6:.0f} | {statistics.median(walls) * 1e6:.0f} |")


def run_checks(eng, which: int, n: int, tmpdir) -> None:
    """``n`` checks of turn ``which`` of (2), after 20 unmeasured ones: the
    instructions of a run of ``n`` less those of a run of 0, divided by
    ``n``, are one check's (bench/HISTORY.md, "Seventh session — check")."""
    import gc

    _, text, legal = TURNS[which]
    path = os.path.join(tmpdir, f"turn{which}.yaml")
    with open(path, "w") as f:
        f.write(text)
    turn = load_turn(path, eng.scenario.board)
    for _ in range(20):
        assert eng.check_turn(turn).legal == legal
    gc.collect()
    gc.disable()
    for _ in range(n):
        eng.check_turn(turn)


def print_check_table(rows, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    p("| turn (Akragas, syracusan) | moves | battles | legal | rules broken | check_turn µs |")
    p("|---|---:|---:|---|---|---:|")
    for r in rows:
        p(f"| {r.turn} | {r.moves} | {r.battles} | {'yes' if r.legal else 'no'} "
          f"| {', '.join(r.violations) or '-'} | {fmt(r.wc * 1e6)} |")
    p()
    over = [r.turn for r in rows if r.wc >= 2e-3]
    p("Target (one check under 2 ms): " + ("met for every turn." if not over else "MISSED for " + "; ".join(over)))


# ============================================================================
# (3) end positions (turns --count)
# ============================================================================


@dataclass
class CountRow:
    side: str
    card: str
    sets: int
    positions: int
    seconds: float


def count_cards(quick: bool):
    if quick:
        return [c for c in SECTION_CARDS if "Two" in c]
    return SECTION_CARDS + ["Out Flanked"]


def bench_counts(eng, args):
    rows = []
    for side in SIDES:
        for card in count_cards(args.quick):
            if args.only and args.only.lower() not in card.lower():
                continue
            g = eng.ground(card, side=side)
            sets = eng.count(g)
            t0 = time.perf_counter()
            n = sum(1 for _ in end_positions(eng, g))
            dt = time.perf_counter() - t0
            rows.append(CountRow(side, card, sets, n, dt))
            print(f"count  {side:13} {card:26} sets={sets:4} positions={n:8} {dt:7.2f} s", file=sys.stderr)
    return rows


def print_count_table(rows, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    p("| side | card | order sets | end positions | seconds | µs/position |")
    p("|---|---|---:|---:|---:|---:|")
    for r in rows:
        p(f"| {r.side} | {r.card} | {r.sets} | {r.positions} | {fmt(r.seconds)} "
          f"| {fmt(r.seconds / max(r.positions, 1) * 1e6)} |")
    p()
    p(f"Total: {sum(r.seconds for r in rows):.1f} s for {len(rows)} cards.")


# ============================================================================
# (4) one unit's destinations against auto-cca's validDestinations under Node
# ============================================================================

# Every unit of Akragas, each ordered alone by a section card of its side
# that admits it, against auto-cca (a checkout at 05b2304) in Node: its
# unit.validDestinations is the breadth-first search of the unit's movement
# allowance through empty hexes (auto-cca places no leaders and gives no
# battle flags). Hexes: auto-cca's axial (q, r) is the odd-r (col, row) with
# q = col - (row - row % 2) / 2.
NODE_DESTINATIONS = """
import makeGame from "{src}/model/game.js";
import {{ AkragasScenario }} from "{src}/model/scenarios.js";
import {{ hexOf }} from "{src}/lib/hexlib.js";
const game = makeGame(new AkragasScenario());
const out = [];
for (const [q, r] of {hexes}) {{
    const hex = hexOf(q, r);
    const unit = game.unitAt(hex);
    if (!unit) {{ out.push(null); continue; }}
    const dests = unit.validDestinations(hex, game).map(h => [h.q, h.r]);
    // steady state: batches doubled until one lasts 10 ms, then the best of {batches} batches
    const batch = (k) => {{ const t0 = process.hrtime.bigint(); for (let i = 0; i < k; i++) unit.validDestinations(hex, game);
                            return Number(process.hrtime.bigint() - t0) / 1e9; }};
    let n = 1;
    while (batch(n) < 0.01) n *= 2;
    let best = Infinity;
    for (let i = 0; i < {batches}; i++) best = Math.min(best, batch(n) / n);
    out.push({{ seconds: best, dests }});
}}
console.log(JSON.stringify(out));
"""


@dataclass
class NodeRow:
    piece: str
    type: str
    card: str
    dests: int
    same: bool  # the same destinations as auto-cca
    node: float  # s per query, median over the rounds
    warm: float
    cold: float


def _axial(c):
    col, row = c
    return col - (row - (row & 1)) // 2, row


def bench_node(eng, args, tmpdir):
    import json
    import shutil
    import statistics
    import subprocess
    from pathlib import Path

    node = shutil.which("node")
    if node is None:
        raise SystemExit("--auto-cca: no node on the PATH")
    jobs = []  # (piece, card, side, grounding)
    for side in SIDES:
        g0 = eng.ground(SECTION_CARDS[0], side=side)
        for p in g0.setting.views:
            if p.side != side or p.role != "unit" or (args.only and args.only not in p.id):
                continue
            for card in SECTION_CARDS:
                g = eng.ground(card, side=side)
                if eng.destinations(g, [p.id])[0]:
                    jobs.append((p, card, side, g))
                    break
    script = Path(tmpdir) / "dests.mjs"
    hexes = json.dumps([list(_axial(p.at)) for p, *_ in jobs])
    script.write_text(NODE_DESTINATIONS.format(src=(Path(args.auto_cca).resolve() / "src").as_uri(), hexes=hexes,
                                               batches=5), encoding="utf-8")
    node_s = [[] for _ in jobs]
    warm_s = [[] for _ in jobs]
    cold_s = [[] for _ in jobs]
    theirs = [None] * len(jobs)
    for rnd in range(args.node_rounds):
        # alternate: Node's process (every unit, its own steady state), then warcouncil
        out = json.loads(subprocess.run([node, str(script)], capture_output=True, text=True, check=True).stdout)
        for i, ((p, card, side, g), o) in enumerate(zip(jobs, out)):
            if o is None:
                continue
            theirs[i] = {(q + (r - (r & 1)) // 2, r) for q, r in o["dests"]}
            node_s[i].append(o["seconds"])
            warm, cold = measure_many([
                lambda: eng.destinations(g, [p.id]),  # grounded once
                lambda: eng.destinations(eng.ground(card, side=side), [p.id]),  # a fresh grounding per query
            ], args.budget / 2)
            warm_s[i].append(warm)
            cold_s[i].append(cold)
        print(f"node   round {rnd + 1}/{args.node_rounds}", file=sys.stderr)
    rows = []
    for i, (p, card, side, g) in enumerate(jobs):
        if not node_s[i]:
            continue
        ours = set(eng.destinations(g, [p.id])[1][p.id])
        rows.append(NodeRow(p.id, p.type, card, len(ours), ours == theirs[i], statistics.median(node_s[i]),
                            statistics.median(warm_s[i]), statistics.median(cold_s[i])))
    return rows


def print_node_table(rows, out=sys.stdout):
    p = lambda s="": print(s, file=out)  # noqa: E731
    p("| piece | type | card | dests | same as auto-cca | auto-cca µs | wc warm µs | wc cold µs | warm / Node | cold / Node |")
    p("|---|---|---|---:|---|---:|---:|---:|---:|---:|")
    for r in rows:
        p(f"| {r.piece} | {r.type} | {r.card} | {r.dests} | {'yes' if r.same else 'no'} | {fmt(r.node * 1e6)} "
          f"| {fmt(r.warm * 1e6)} | {fmt(r.cold * 1e6)} | {r.warm / r.node:.2f} | {r.cold / r.node:.2f} |")
    same = [r for r in rows if r.same]
    p()
    for label, rs in (("every unit", rows), ("the units whose destinations auto-cca gives alike", same)):
        if rs:
            p(f"Geometric mean over {label} ({len(rs)}): warm {geomean([r.warm / r.node for r in rs]):.2f}x, "
              f"cold {geomean([r.cold / r.node for r in rs]):.2f}x auto-cca; "
              f"totals: auto-cca {sum(r.node for r in rs) * 1e6:.0f} µs, warm {sum(r.warm for r in rs) * 1e6:.0f} µs, "
              f"cold {sum(r.cold for r in rs) * 1e6:.0f} µs (targets: <= 1.0x warm, <= 1.5x cold).")


# ============================================================================
# Profiling
# ============================================================================


def profile(what, eng, tmpdir, only):
    import cProfile
    import pstats

    pr = cProfile.Profile()
    if what == "dest":
        jobs = []
        for side in SIDES:
            for card in SECTION_CARDS:
                if only and only.lower() not in card.lower():
                    continue
                g = eng.ground(card, side=side)
                jobs.append((g, [p.id for p in largest_set(eng, g)]))
        pr.enable()
        for _ in range(50):
            for g, ids in jobs:
                eng.destinations(g, ids)
        pr.disable()
    elif what == "check":
        turns = []
        for i, (_, text, _) in enumerate(TURNS):
            path = os.path.join(tmpdir, f"turn{i}.yaml")
            with open(path, "w") as f:
                f.write(text)
            turns.append(load_turn(path, eng.scenario.board))
        pr.enable()
        for _ in range(100):
            for t in turns:
                eng.check_turn(t)
        pr.disable()
    elif what == "count":
        card = only or "Order Three Units Center"
        g = eng.ground(card, side="carthaginian")
        pr.enable()
        sum(1 for _ in end_positions(eng, g))
        pr.disable()
    else:
        raise SystemExit(f"--profile: dest, check or count, not {what!r}")
    pstats.Stats(pr).sort_stats("tottime").print_stats(22)
    pstats.Stats(pr).sort_stats("cumtime").print_stats(12)


# ============================================================================


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="short run (0.05 s per measurement, Two Units counts only)")
    ap.add_argument("--only", default=None, help="only cards whose name contains this text")
    ap.add_argument("--no-count", action="store_true", help="skip (3) end positions")
    ap.add_argument("--count-only", action="store_true", help="only (3) end positions")
    ap.add_argument("--profile", default=None, metavar="WHAT", help="cProfile warcouncil: dest, check or count")
    ap.add_argument("--json", default=None, metavar="PATH", help="also write the rows as JSON")
    ap.add_argument("--auto-cca", default=None, metavar="DIR",
                    help="only (4): one unit's destinations against auto-cca (a checkout at 05b2304) under Node")
    ap.add_argument("--node-rounds", type=int, default=3, help="rounds of (4), alternating Node and warcouncil")
    ap.add_argument("--checks-cpu", type=int, default=0, metavar="ROUNDS",
                    help="only (2), in CPU and wall time: ROUNDS rounds of 10 checks per turn")
    ap.add_argument("--checks-run", type=int, default=None, metavar="N",
                    help="only N checks of the turn --turn of (2) (after 20 warm-up checks), printing nothing")
    ap.add_argument("--turn", type=int, default=1, help="with --checks-run: the turn of (2), 0-3 (default 1)")
    args = ap.parse_args(argv)
    args.budget = 0.05 if args.quick else 0.2
    eng = Engine.load("akragas")
    with tempfile.TemporaryDirectory() as tmp:
        if args.profile:
            profile(args.profile, eng, tmp, args.only)
            return
        if args.checks_cpu:
            bench_checks_cpu(eng, args.checks_cpu, tmp)
            return
        if args.checks_run is not None:
            run_checks(eng, args.turn, args.checks_run, tmp)
            return
        if args.auto_cca:
            print("## (4) One unit's destinations against auto-cca's validDestinations (Node)\n")
            print(f"Medians of {args.node_rounds} rounds; Node's steady state (the best of 5 batches per round).\n")
            print_node_table(bench_node(eng, args, tmp))
            return
        t0 = time.perf_counter()
        drows, crows, nrows = [], [], []
        if not args.count_only:
            for side in SIDES:
                ms = MSide(eng.scenario, side)
                for card in SECTION_CARDS:
                    if args.only and args.only.lower() not in card.lower():
                        continue
                    r = bench_dest_row(eng, side, card, ms, args)
                    drows.append(r)
                    print(f"dests  {side:13} {card:26} pieces={r.pieces} a/b={r.ratio:5.1f}", file=sys.stderr)
            crows = bench_checks(eng, args, tmp)
        if not args.no_count:
            nrows = bench_counts(eng, args)
        print(f"# Movement benchmark{' (--quick)' if args.quick else ''}\n")
        print(f"Python {sys.version.split()[0]}; Akragas; budget {args.budget} s per measurement.\n")
        if drows:
            print("## (1) Legal destinations of the largest order set\n")
            print_dest_table(drows)
            print("\n## (2) Checking a six-order turn\n")
            print_check_table(crows)
        if nrows:
            print("\n## (3) End positions (`turns --count`), one run each\n")
            print_count_table(nrows)
        if args.json:
            import json

            with open(args.json, "w") as f:
                json.dump({"destinations": [asdict(r) for r in drows], "checks": [asdict(r) for r in crows],
                           "counts": [asdict(r) for r in nrows]}, f, indent=1)
        print(f"\n_total run time {time.perf_counter() - t0:.0f} s_", file=sys.stderr)


if __name__ == "__main__":
    main()
