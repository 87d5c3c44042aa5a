"""Warmaster: `orders` and `odds` against a direct hand-written baseline.

    python bench/bench_warmaster.py            # about 30 s
    python bench/bench_warmaster.py --quick
    python bench/bench_warmaster.py --cpu --repeat 20   # CPU time, best of 20
    python bench/bench_warmaster.py --cpu --repeat 10 --compare /tmp/before --rounds 3 --only odds
        # this tree against another (a `git archive` of the commit before),
        # alternating: one process of each per round, the same baseline

A synthetic table (20 units: 12 red, 8 blue; 4 red characters; a wood):

* `orders`: every order that may be attempted at the start of the phase;
* `odds`: the whole answer for a 10-order plan (4 characters, units
  moving as they succeed): the distribution of successful orders, the
  expected number, P(all), each unit's distribution, each step's
  P(attempted), P(given) and P(blunder), the expected blunders; the
  baseline (``Hand.answer``) judges every order on every branch that
  attempts it (own units, three orders, one character per unit, finish a
  unit's and a character's orders, command range, not in combat, a
  brigade of up to four touching units, one move at full pace, terrain,
  no unit ending on another)
  and keeps each measured judgement by the positions it reads, as the
  engine does. A second row times the baseline of sessions 1-7
  (``Hand.odds``: the distribution of successes alone, no order judged),
  kept to compare with the earlier numbers;
* `plan`: the best sequencing of 6 wanted orders (4 wants, a choice of
  characters for three of them), by exhaustive search.

The baseline is the same semantics written out in Python (the stop rules,
ranges, engagement and penalties as code, geometry by ``systems.warmaster.measure``);
both must agree exactly (AssertionError otherwise). Prints a Markdown table:
seconds per query (the best; the two timed one query each in turn) and the
ratio warcouncil / baseline, of the bests and the median of the pairs'.
"""

from __future__ import annotations

import argparse
import atexit
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import shapely
import yaml


def _tree_first(argv: list[str]) -> None:
    """``--tree DIR``: import warcouncil from DIR (before it is imported)."""
    if "--tree" in argv[:-1]:
        sys.path.insert(0, str(Path(argv[argv.index("--tree") + 1]).resolve()))


_tree_first(sys.argv)

from warcouncil.systems.warmaster import measure as T
from warcouncil.kernel.engine import Engine

WAYS = {t: 6 - abs(t - 7) for t in range(2, 13)}
PACE = {"infantry": 20, "cavalry": 30, "flying": 100}


def build(tmp: Path):
    units = []
    for i in range(12):
        row, col = divmod(i, 6)
        units.append({"id": f"r{i}", "side": "red", "type": "cavalry" if col == 5 else "infantry",
                      "at": [30 + 12 * col if row == 0 else 30 + 14 * col, 30 + 10 * row], "lost": i % 3 == 2 and 1 or 0})
    units.append({"id": "rf", "side": "red", "type": "flying", "at": [80, 12], "stands": 2})
    for i in range(7):
        units.append({"id": f"b{i}", "side": "blue", "type": "infantry", "at": [25 + 16 * i, 70], "facing": 180})
    chars = [{"id": "gen", "side": "red", "role": "general", "command": 9, "at": [60, 10]},
             {"id": "h1", "side": "red", "role": "hero", "command": 8, "at": [35, 20]},
             {"id": "h2", "side": "red", "role": "hero", "command": 8, "at": [95, 20]},
             {"id": "wiz", "side": "red", "role": "wizard", "command": 7, "at": [70, 24]}]
    wood = {"type": "wood", "polygon": [[85, 35], [115, 35], [115, 55], [85, 55]], "dense": True}
    sc = tmp / "bench.yaml"
    sc.write_text(yaml.safe_dump({"system": "warmaster", "board": {"grid": "table", "width": 160, "depth": 100},
                                  "to_move": "red", "units": units, "characters": chars, "terrain": [wood]}))
    steps = [("wiz", ["r3"], [70, 36]), ("wiz", ["r3"], [70, 37]),  # (not [70, 40]: onto r9, wm.no-overlap)
             ("h1", ["r0", "r1"], None), ("h1", ["r6"], [30, 44]), ("h1", ["r6"], [30, 50]),
             ("h2", ["r10"], [100, 44]), ("h2", ["r11"], None),
             ("gen", ["r2"], [54, 38]), ("gen", ["r4"], None), ("gen", ["r8"], [58, 48])]
    wants = tmp / "wants.yaml"
    wanted = [(["r3"], 2, ["wiz", "gen"]), (["r0", "r1"], 1, ["h1", "gen"]), (["r10"], 2, ["h2", "gen"]),
              (["r8"], 1, ["gen"])]
    wants.write_text(yaml.safe_dump({"want": [{"units": u, "times": t, "by": c} for u, t, c in wanted]}))
    plan = tmp / "plan.yaml"
    plan.write_text(yaml.safe_dump({"plan": [{"by": c, "units": u, **({"to": [t]} if t else {})}
                                             for c, u, t in steps]}))
    return sc, plan, units, chars, [wood], steps, wants, wanted


# ------------------------------------------------------------------ the baseline


class Hand:
    def __init__(self, units, chars, terrain):
        self.units = {u["id"]: u for u in units}
        self.chars = {c["id"]: c for c in chars}
        self.areas = [T.area(a["type"], a["polygon"], a.get("dense", False)) for a in terrain]
        self.base = {u["id"]: tuple(u["at"]) for u in units}
        self._fp: dict = {}
        self._cfp = {c: T.character_footprint(self.chars[c]["at"]) for c in self.chars}
        self.red = [u for u in self.units if self.units[u]["side"] == "red"]
        self.blue = [u for u in self.units if self.units[u]["side"] != "red"]

    def fp(self, uid, pos):
        key = (uid, pos[uid])
        f = self._fp.get(key)
        if f is None:
            u = self.units[uid]
            f = self._fp[key] = T.unit_footprint(pos[uid], u.get("facing", 0), u.get("stands", 3), "line")
        return f

    def cfp(self, cid):
        return self._cfp[cid]

    def engaged(self, uid, pos):
        side = self.units[uid]["side"]

        def contact(v):
            return any(T.touching(self.fp(v, pos), self.fp(e, pos)) for e in self.units
                       if self.units[e]["side"] != self.units[v]["side"])
        return contact(uid) or any(T.touching(self.fp(uid, pos), self.fp(f, pos)) and contact(f) for f in self.units
                                   if f != uid and self.units[f]["side"] == side)

    def in_range(self, cid, uid, pos):
        c, d = self.chars[cid], T.raw_distance(self.cfp(cid), self.fp(uid, pos))
        reach = {"general": None, "hero": 60, "wizard": 20}[c["role"]]
        if reach is not None and not T.at_most(d, reach):
            return False
        return self.units[uid]["type"] != "flying" or T.at_most(d, 20)

    def target(self, cid, group, pos, nth):
        pens = {"distance": 0, "successive": 0, "enemy": 0, "dense": 0, "casualties": 0}
        for uid in group:
            fp = self.fp(uid, pos)
            side = self.units[uid]["side"]
            pens["distance"] = max(pens["distance"], T.full_steps(T.raw_distance(self.cfp(cid), fp), 20))
            pens["successive"] = max(pens["successive"], nth.get(uid, 0))
            enemy = any(T.within(fp, self.fp(e, pos), 20) for e in self.units if self.units[e]["side"] != side)
            pens["enemy"] = max(pens["enemy"], int(enemy))
            pens["dense"] = max(pens["dense"], int(T.in_dense_terrain(fp, self.areas)))
            pens["casualties"] = max(pens["casualties"], self.units[uid].get("lost", 0))
        return self.chars[cid]["command"] - sum(pens.values()), pens

    def p(self, cid, target):
        top = min(target, 11 if self.chars[cid]["role"] != "general" else 12)
        return Fraction(sum(WAYS[t] for t in WAYS if t <= top), 36)

    def groups(self, pos):
        own = [u for u in self.units if self.units[u]["side"] == "red"]
        fps = {u: self.fp(u, pos) for u in own}
        found = {frozenset([u]) for u in own}
        frontier = list(found)
        for _ in range(3):
            nxt = []
            for g in frontier:
                for u in g:
                    for v in own:
                        if v not in g and T.touching(fps[u], fps[v]) and g | {v} not in found:
                            found.add(g | {v})
                            nxt.append(g | {v})
            frontier = nxt
        rank = {u: i for i, u in enumerate(own)}
        return sorted((tuple(sorted(g, key=rank.get)) for g in found), key=lambda g: (len(g), [rank[u] for u in g]))

    def options(self):
        pos = dict(self.base)
        out = []
        engaged = {u: self.engaged(u, pos) for u in self.units if self.units[u]["side"] == "red"}
        for cid in self.chars:
            if self.chars[cid]["side"] != "red":
                continue
            for g in self.groups(pos):
                if any(engaged[u] or not self.in_range(cid, u, pos) for u in g):
                    continue
                t, pens = self.target(cid, g, pos, {})
                out.append((cid, g, t, self.p(cid, t)))
        return out

    def odds(self, steps):
        """The distribution of successful orders alone (``hand_plan``'s
        score): the stop rules and the penalties, no other judgement."""
        dist: dict[int, Fraction] = {}
        self._fp.clear()

        def go(i, pos, prob, succ, failed_c, failed_u, gen_failed, nth):
            if i == len(steps):
                dist[succ] = dist.get(succ, Fraction(0)) + prob
                return
            cid, group, to = steps[i]
            if cid in failed_c or gen_failed or any(u in failed_u for u in group):
                go(i + 1, pos, prob, succ, failed_c, failed_u, gen_failed, nth)
                return
            t, _ = self.target(cid, group, pos, nth)
            p = self.p(cid, t)
            if p:
                moved = dict(pos, **({group[0]: tuple(to)} if to else {}))
                go(i + 1, moved, prob * p, succ + 1, failed_c, failed_u, gen_failed,
                   {**nth, **{u: nth.get(u, 0) + 1 for u in group}})
            if p < 1:
                go(i + 1, pos, prob * (1 - p), succ, failed_c | {cid}, failed_u | set(group),
                   gen_failed or self.chars[cid]["role"] == "general", nth)

        go(0, dict(self.base), Fraction(1), 0, frozenset(), frozenset(), False, {})
        return dist

    def legal_step(self, cid, group, to, pos, st, memo) -> bool:
        """Is the order ``(cid, group, to)`` legal where a branch stands
        (``pos``; ``st`` = (units given orders by whom, orders each unit
        was given, characters and units attempted, the last attempt's
        character and units))? The pack's rules for an order, written out:
        own units, three orders, one character per unit, finish a unit's
        and a character's orders, command range, not in combat, a brigade
        of up to four touching units, one move at full pace, terrain its
        troop type may enter, a brigade ending together, no unit ending on
        another. The measured ones
        kept by the positions they read (``memo``, one query's)."""
        by, nth, seen_c, seen_u, last_c, last_u = st
        side = self.chars[cid]["side"]
        for u in group:
            if self.units[u]["side"] != side or nth.get(u, 0) >= 3 or by.get(u, cid) != cid:
                return False
        if seen_u & set(group) and not (last_u & set(group)):
            return False
        if cid in seen_c and last_c != cid:
            return False
        for u in group:
            key = ("range", cid, u, pos[u])
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = self.in_range(cid, u, pos)
            if not ok:
                return False
            if self.engaged_at(u, pos, memo):
                return False
        if len(group) > 4 or not self.connected(group, pos, memo):
            return False
        if to:
            u = group[0]
            key = ("move", u, pos[u], tuple(to))
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = self.move_ok(u, pos[u], tuple(to))
            end = dict(pos, **{u: tuple(to)})
            if not ok or (len(group) > 1 and not self.connected(group, end, memo)):
                return False
            if any(v != u and self.onto(u, v, end, memo) for v in self.units):
                return False
        return True

    def onto(self, u, v, pos, memo) -> bool:
        """Does ``u`` overlap ``v`` where they stand (``wm.no-overlap``)?"""
        key = ("onto", u, pos[u], v, pos[v])
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = T.overlapping(self.fp(u, pos), self.fp(v, pos))
        return hit

    def target_at(self, cid, group, pos, nth, memo) -> int:
        """``target``'s number, each unit's measured penalties kept by its
        position (``answer``)."""
        pens = {"distance": 0, "successive": 0, "enemy": 0, "dense": 0, "casualties": 0}
        for uid in group:
            key = ("pens", cid, uid, pos[uid])
            m = memo.get(key)
            if m is None:
                fp = self.fp(uid, pos)
                m = memo[key] = (T.full_steps(T.raw_distance(self.cfp(cid), fp), 20),
                                 int(any(T.within(fp, self.fp(e, pos), 20) for e in self.blue)),
                                 int(T.in_dense_terrain(fp, self.areas)))
            pens["distance"] = max(pens["distance"], m[0])
            pens["successive"] = max(pens["successive"], nth.get(uid, 0))
            pens["enemy"] = max(pens["enemy"], m[1])
            pens["dense"] = max(pens["dense"], m[2])
            pens["casualties"] = max(pens["casualties"], self.units[uid].get("lost", 0))
        return self.chars[cid]["command"] - sum(pens.values())

    def touch(self, u, v, pos, memo) -> bool:
        key = ("touch", u, pos[u], v, pos[v])
        t = memo.get(key)
        if t is None:
            t = memo[key] = T.touching(self.fp(u, pos), self.fp(v, pos))
        return t

    def engaged_at(self, u, pos, memo) -> bool:
        """``engaged``, its parts kept by the positions they read (the
        enemy does not move in the Command phase)."""
        def charged(v):
            key = ("charged", v, pos[v])
            c = memo.get(key)
            if c is None:
                c = memo[key] = any(T.touching(self.fp(v, pos), self.fp(e, pos)) for e in self.blue)
            return c
        return charged(u) or any(f != u and self.touch(u, f, pos, memo) and charged(f) for f in self.red)

    def connected(self, group, pos, memo) -> bool:
        if len(group) == 1:
            return True
        key = ("group", tuple(group), tuple(pos[u] for u in group))
        ok = memo.get(key)
        if ok is None:
            reached, todo = {group[0]}, [group[0]]
            while todo:
                u = todo.pop()
                for v in group:
                    if v not in reached and self.touch(u, v, pos, memo):
                        reached.add(v)
                        todo.append(v)
            ok = memo[key] = len(reached) == len(group)
        return ok

    def move_ok(self, u, frm, to) -> bool:
        """One move at full pace (the centre's distance), and no terrain
        entered that the unit's type may not enter (the hull it sweeps):
        nothing impassable, whatever its type (``wm.unit-terrain``: ``not
        enters(x, u, impassable)``, which the engine judges for infantry
        too: this baseline skipped it until session 8), and for cavalry
        only hills, bridges, fords and low obstacles."""
        kind = self.units[u]["type"]
        if T.measured(((to[0] - frm[0]) ** 2 + (to[1] - frm[1]) ** 2) ** 0.5) > PACE[kind]:
            return False
        a, b = self.fp(u, {u: frm}).shape, self.fp(u, {u: to}).shape
        swept = shapely.union_all([a, b]).convex_hull
        entered = [ar for ar in self.areas if T.in_area(swept, ar, "any") and not T.in_area(a, ar, "any")]
        if any(ar.impassable for ar in entered):
            return False
        if kind in ("infantry", "flying"):
            return True
        return all(ar.type in ("hill", "bridge", "ford", "low_obstacle") for ar in entered)

    def answer(self, steps):
        """The whole of ``odds``'s answer, as the engine gives it: the
        distribution of successful orders, the expected number, P(all),
        each unit's distribution, each step's P(attempted), P(given) and
        P(blunder), the expected blunders; every order judged legal on
        every branch that attempts it (an illegal one: AssertionError, this
        baseline does not model what the engine does then)."""
        self._fp.clear()
        memo: dict = {}
        n = len(steps)
        units = list(dict.fromkeys(u for _, g, _ in steps for u in g))
        dist: dict[int, Fraction] = {}
        per_unit = {u: {} for u in units}
        attempted = [Fraction(0)] * n
        given = [Fraction(0)] * n
        blunder = [Fraction(0)] * n
        twelve = Fraction(1, 36)

        def go(i, pos, prob, succ, failed_c, failed_u, gen_failed, st):
            if i == n:
                dist[succ] = dist.get(succ, 0) + prob
                nth = st[1]
                for u in units:
                    k = nth.get(u, 0)
                    per_unit[u][k] = per_unit[u].get(k, 0) + prob
                return
            cid, group, to = steps[i]
            if cid in failed_c or gen_failed or any(u in failed_u for u in group):
                go(i + 1, pos, prob, succ, failed_c, failed_u, gen_failed, st)
                return
            if not self.legal_step(cid, group, to, pos, st, memo):
                raise AssertionError(f"baseline: step {i + 1} is illegal on a branch")
            by, nth, seen_c, seen_u, _, _ = st
            p = self.p(cid, self.target_at(cid, group, pos, nth, memo))
            attempted[i] += prob
            given[i] += prob * p
            general = self.chars[cid]["role"] == "general"
            if not general:
                blunder[i] += prob * twelve
            seen = (seen_c | {cid}, seen_u | set(group), cid, frozenset(group))
            if p:
                moved = dict(pos, **({group[0]: tuple(to)} if to else {}))
                go(i + 1, moved, prob * p, succ + 1, failed_c, failed_u, gen_failed,
                   ({**by, **{u: cid for u in group}}, {**nth, **{u: nth.get(u, 0) + 1 for u in group}}, *seen))
            if p < 1:
                go(i + 1, pos, prob * (1 - p), succ, failed_c | {cid}, failed_u | set(group),
                   gen_failed or general, (by, nth, *seen))

        go(0, dict(self.base), Fraction(1), 0, frozenset(), frozenset(), False,
           ({}, {}, frozenset(), frozenset(), None, frozenset()))
        return {"successes": dist, "expected": sum((k * p for k, p in dist.items()), Fraction(0)),
                "all": dist.get(n, Fraction(0)), "units": per_unit,
                "steps": [(attempted[i], given[i], blunder[i]) for i in range(n)], "blunders": sum(blunder)}


def same_odds(data: dict, base: dict) -> bool:
    """Is the engine's ``odds`` JSON the baseline's answer (every field)?"""
    def nonzero(d):
        return {int(k): Fraction(v) for k, v in d.items() if Fraction(v)}

    return (data["legal"] and nonzero(data["successes"]) == nonzero(base["successes"])
            and Fraction(data["expected"]) == base["expected"] and Fraction(data["all"]) == base["all"]
            and {u: nonzero(d) for u, d in data["units"].items()} == {u: nonzero(d) for u, d in base["units"].items()}
            and [(Fraction(s["attempted"]), Fraction(s["given"]), Fraction(s["blunder"])) for s in data["steps"]]
            == base["steps"]
            and Fraction(data["blunders"]) == base["blunders"])


def hand_plan(hand, wanted):
    """The baseline's `plan`: every choice of characters and order of the
    wanted orders (a character's orders together), each legal one's odds by
    ``hand.odds``; the best P(all), then expected number."""
    import itertools

    pos = dict(hand.base)
    scores = set()
    for assign in itertools.product(*[c for _, _, c in wanted]):
        for order in itertools.permutations(range(len(wanted))):
            chars = [assign[i] for i in order]
            runs = [c for k, c in enumerate(chars) if k == 0 or chars[k - 1] != c]
            if len(runs) != len(set(runs)):
                continue
            if any(hand.engaged(u, pos) or not hand.in_range(assign[i], u, pos) for i in order for u in wanted[i][0]):
                continue
            steps = [(assign[i], tuple(wanted[i][0]), None) for i in order for _ in range(wanted[i][1])]
            dist = hand.odds(steps)
            n = len(steps)
            scores.add((dist.get(n, Fraction(0)), sum((k * p for k, p in dist.items()), Fraction(0)), tuple(steps)))
    best = max(scores)
    return best[0], best[1], len(scores)


def timed(fn, repeat, clock=time.perf_counter):
    best = None
    for _ in range(repeat):
        t = clock()
        out = fn()
        dt = clock() - t
        best = dt if best is None else min(best, dt)
    return best, out


def paired(fa, fb, repeat, clock=time.perf_counter):
    """``timed`` of both, one query of each in turn, so that on a shared
    machine whose speed drifts both are timed under the same conditions
    (timing all of one, then all of the other, moved the ratio by half):
    the best time of each, their answers, and the median of the ratios of
    the pairs."""
    ta, tb, out_a, out_b = [], [], None, None
    for _ in range(repeat):
        t, out_a = timed(fa, 1, clock)
        ta.append(t)
        t, out_b = timed(fb, 1, clock)
        tb.append(t)
    ratios = sorted(a / b for a, b in zip(ta, tb))
    return min(ta), out_a, min(tb), out_b, ratios[len(ratios) // 2]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cpu", action="store_true",
                    help="time by this process's CPU time (time.process_time), not wall time: "
                         "steadier on a shared machine")
    ap.add_argument("--repeat", type=int, default=None, help="queries timed per row (the best is kept)")
    ap.add_argument("--only", action="append", choices=("orders", "odds", "plan"),
                    help="time only these rows (repeatable)")
    ap.add_argument("--tree", metavar="DIR", help="import warcouncil from DIR (a source tree)")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument("--compare", metavar="DIR",
                    help="time this tree and DIR alternately, one process each per round (--rounds)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --compare")
    args = ap.parse_args(argv)
    if args.compare:
        return compare(args, sys.argv[1:] if argv is None else list(argv))
    repeat = args.repeat or (2 if args.quick else 5)
    clock = time.process_time if args.cpu else time.perf_counter
    tmp = Path(tempfile.mkdtemp(prefix="wc-warmaster-"))
    atexit.register(shutil.rmtree, tmp, True)  # the files live as long as the run
    sc, plan, units, chars, terrain, steps, wants, wanted = build(tmp)
    eng = Engine.load(str(sc))
    hand = Hand(units, chars, terrain)
    rows = []

    only = set(args.only or ("orders", "odds", "plan"))
    if "orders" in only:
        t_a, ans, t_b, base, med = paired(
            lambda: eng.answer("orders", side=None, after=None, limit=None, count_only=False),
            lambda: (hand._fp.clear(), hand.options())[1], repeat, clock)
        got = [(o["character"], tuple(o["units"]), o["target"], Fraction(o["p"])) for o in ans.data["options"]]
        assert got == base, (set(got) ^ set(base))
        rows.append(("orders (20 units, 4 characters)", len(got), t_a, t_b, med))

    if "odds" in only:
        t_a, ans, t_b, base, med = paired(lambda: eng.answer("odds", path=str(plan)), lambda: hand.answer(steps),
                                          repeat, clock)
        assert ans.exit_code == 0, ans.text
        assert same_odds(ans.data, base), (ans.data, base)
        got = base["successes"]
        rows.append(("odds (10-order plan)", len(got), t_a, t_b, med))
        # the baseline of sessions 1-7: the distribution of successes alone, no order judged legal
        t_a, ans, t_b, base, med = paired(lambda: eng.answer("odds", path=str(plan)), lambda: hand.odds(steps),
                                          repeat, clock)
        assert {int(k): Fraction(v) for k, v in ans.data["successes"].items() if Fraction(v)} == base
        rows.append(("odds, against the distribution alone (the earlier baseline)", len(base), t_a, t_b, med))

    if "plan" in only:
        t_a, ans, t_b, base, med = paired(lambda: eng.answer("plan", path=str(wants)),
                                          lambda: hand_plan(hand, wanted), max(1, repeat // 2), clock)
        assert ans.exit_code == 0, ans.text
        best = ans.data["best"]
        assert (Fraction(best["all"]), Fraction(best["expected"]), ans.data["sequencings"]) == base, (best, base)
        rows.append(("plan (6 wanted orders, 4 wants)", ans.data["sequencings"], t_a, t_b, med))

    if args.json:
        print(json.dumps([{"query": name, "answers": n, "warcouncil": a, "baseline": b, "median": med}
                          for name, n, a, b, med in rows]))
        return 0
    print("| query | answers | warcouncil s | hand-written s | ratio | median of paired ratios |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, n, a, b, med in rows:
        print(f"| {name} | {n} | {a:.4f} | {b:.4f} | {a / b:.1f}× | {med:.1f}× |")
    return 0


def compare(args, argv: list[str]) -> int:
    """``--compare DIR``: this script run ``--rounds`` times on each tree,
    alternating (DIR first), each run a process of its own with the same
    options; DIR's own copy of the script where it has one (an older tree's
    modules and baseline: each ratio to its own script's baseline), else
    this one; per row, each run's median of paired ratios and warcouncil's
    best time, and the median of the runs'."""
    here = Path(__file__).resolve().parents[1]
    rest, skip = [], False
    for a in argv:  # (the options of the runs: all but --compare, --rounds, --tree, --json)
        if skip:
            skip = False
        elif a in ("--compare", "--rounds", "--tree"):
            skip = True
        elif a != "--json" and not a.startswith(("--compare=", "--rounds=", "--tree=")):
            rest.append(a)
    trees = {"before": Path(args.compare).resolve(), "after": here}
    runs: dict = {"before": [], "after": []}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            own = tree / "bench" / Path(__file__).name
            script = own if own.exists() else Path(__file__).resolve()
            out = subprocess.run([sys.executable, str(script), *rest, "--json", "--tree", str(tree)],
                                 check=True, capture_output=True, text=True).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    print(f"before: {trees['before']}; after: {trees['after']}; {args.rounds} rounds, alternating")
    print("| query | before: ratio (runs) | after: ratio (runs) | before / after: warcouncil s, medians |")
    print("|---|---|---|---|")
    med = statistics.median
    for i, row in enumerate(runs["after"][0]):
        cells = []
        for name in ("before", "after"):
            ratios = [r[i]["median"] for r in runs[name]]
            cells.append(", ".join(f"{x:.2f}" for x in ratios) + f" (median **{med(ratios):.2f}×**)")
        secs = [med([r[i]["warcouncil"] for r in runs[name]]) for name in ("before", "after")]
        print(f"| {row['query']} | {cells[0]} | {cells[1]} | {secs[0]:.4f} / {secs[1]:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
