"""The Warmaster engine: the Command phase judged by the pack's rules.

The engine walks the phase one entry at a time (initiative moves, home backs,
order attempts, character moves), each on the table as it stands at that
moment, and asks the pack:

* the target of an order attempt: ``command_value(o)`` minus the command
  penalties — every define named ``penalty_*`` taking ``(o, u)``, the worst
  over the units for which ``supplies(o, u)`` holds, added up;
* which 2D6 totals give the order: ``succeeds(o)`` on each of the eleven
  totals, weighed 1, 2, …, 6, …, 1 ways in 36 (exact ``Fraction``s);
* whether the log breaks a rule: every ``rule`` of the pack, judged over
  the whole log (``forall x in D: φ`` element by element, so a violation
  names the entry that breaks it and what was measured for it).

Python adds the penalties up, weighs the dice and walks the branches of an
order plan; what counts, how much, and what is legal is the pack's.

``orders``  every order that may legally be attempted next: an attempt is
            offered when the log with it appended breaks no rule.
``odds``    a plan's exact distribution of successful orders: a walk over
            the branches the dice open (success, failure), each step judged
            on the board as it would stand; a step the rules forbid after
            earlier failures is not attempted (the stop rules). A plan that
            breaks a rule even when every roll succeeds is illegal (exit 1).
            On the other branches an attempt is judged before its roll,
            without its move: a step's success counts as its roll's even
            where an earlier failure would block its written move.
``check``   a whole Command phase log: legal, or every violation.
``plan``    the legal sequencing and choice of characters of the wanted
            orders that maximises P(all) or the expected successes, by
            exhaustive search (at most ``PLAN_LIMIT`` sequencings), each
            sequencing's odds as ``odds`` works them out.

What one answer keeps between its judgements is one ``AnswerCaches``
(kernel/caches.py: its named fields), made when it begins and dropped when
it is given (none of it changes a value, tests/test_warmaster_memo.py):
footprints and distances by piece and pose; one table per set of poses
(table.py); the memo of the defines that read the table only through their
arguments (``Ctx``, the kernel's ``LogCtx``). The log is the kernel's
(kernel/log.py), and so is how a judgement on it is kept: by what it reads,
as the read classes the pack declares say (kernel/reads.py, ``PackReads``),
an entry as far as it is read (``entry_key``: ``Entry.what``, ``outcome``,
``tables`` are Warmaster's), a history as one number (``history_number``);
one that measures and reads no history by the places of the pieces it read,
or for two pieces asked only whether they touch by their contact
(``AnswerCaches.by_places``). In ``odds`` and ``plan`` so are kept: the
verdict of a group of rules that read the same (``breaks``, the kernel's
``LogRules``), an attempt's target (worked out when first read: a step the
stop rules forbid reads none) and its dice, each by what its defines read
(the kernel's ``DefinesKey``: of the history, the values of the history
builtins they call on their parameters, ``PackReads.history_calls``).
A loop through the history of the stop rules' shape (``exists p in
before(o): ...``, recognised by its shape, never by a rule's id) is judged
from a summary carried along the log (kernel/loops.py; ``before`` and
``entries_before`` are marked its domains, builtins.py); any other as
written. ``odds`` and ``plan`` walk the branches once (the kernel's
chance walk, kernel/chance.py), a branch reaching a step in a state alike
to one walked before (the kernel's ``Alike``) adding in that walk's sums
(``distribution``, ``_Attempts``).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from ...errors import Location, WarcouncilError, closest
from ...kernel.caches import AnswerCaches
from ...kernel import chance
from ...kernel.listing import count_json
from ...kernel.log import DefinesKey, LogCtx as Ctx
from ...kernel.logrules import Alike, LogRules
from ...kernel.loops import HistoryLoops
from ...kernel.reads import PackReads
from ...kernel.engine import Engine
from ...kernel.game import TWO_D6
from ...kernel.graph import connected_subsets
from ...kernel.evaluate import Compiler
from ...world.ydoc import YDict
from ...kernel.ground import Record
from ...kernel.system import Answer
from .builtins import touching_quiet
from .files import Step, piece_id, read_plan, read_step, read_wants, turn_entries
from .scenario import Pose, pose_of
from .table import At, Entry, Log, Table
from .words import order_words, pieces_words

#: ways of rolling each 2D6 total, out of 36 (the kernel's, as the game's chance nodes weigh them)
WAYS = TWO_D6
PENALTY_PREFIX = "penalty_"
#: the most sequencings `plan` tries (characters per wanted order, times the orderings)
PLAN_LIMIT = 20000
#: attributes: a piece's position is the table's; an entry's index its history's
#: (what the builtins read is the pack's: ``reads turn.history`` ..., kernel/reads.py)
ATTR_READS = {"at": "table", "index": "history"}
#: attributes that never change in one answer (a piece's own, an entry's
#: sub-phase; its unit type's, e.g. ``pace``, are the pack's: ``unit_attrs``);
#: any other attribute a judgement reads (e.g. a Python field of an entry)
#: makes it unshared
FIXED_ATTRS = frozenset({"id", "side", "role", "type", "command", "phase"})


class _Pending:
    """The target of a lazy attempt (``WarmasterEngine.attempt``), worked
    out when first asked (``Entry.worked`` calls it); ``key()``: what it is
    a function of, for judgements that share it unworked (``Entry.outcome``): the
    same key, the same target (a step the stop rules forbid asks none).
    It holds the entry's fields, not the entry, which holds it: no
    reference cycle, freed without the collector."""

    __slots__ = ("engine", "log", "fields", "alike", "keyed", "done")

    def __init__(self, engine: "WarmasterEngine", log: Log, fields: tuple, alike: tuple | None):
        self.engine, self.log, self.fields, self.alike = engine, log, fields, alike
        self.keyed = self.done = None

    def _keyed(self) -> tuple:
        """(the target's key, the key judgements share, the entry as ``target`` sees it)"""
        keyed = self.keyed
        if keyed is None:
            first = Entry(*self.fields)  # (the entry as it was made: no `after`, no target yet)
            if self.alike is not None:
                first._alike, first._what, first._parts = self.alike
            k = self.engine.target_key.key(self.log, first, self.engine.cache)
            keyed = self.keyed = (k, ("unshared", first) if k is None else k, first)
        return keyed

    def key(self) -> Any:
        return self._keyed()[1]

    def __call__(self) -> tuple[int, dict[str, int]]:
        if self.done is None:
            k, _, first = self._keyed()
            self.done = self.engine.target(self.log, first, k)
        return self.done


class _SideView:
    """The kernel's setting as ``WarmasterEngine.side_value`` gives it: the
    pieces on the table by role, the side's own, the other sides', all."""

    def __init__(self, side: str, pieces: list, memo: dict) -> None:
        self.memo = memo
        self.side_view = Record(name=side)
        self.own_pieces = frozenset(a for a in pieces if a.piece.side == side)
        roles = {a.piece.role for a in pieces}
        self.own_of = {r: frozenset(a for a in self.own_pieces if a.piece.role == r) for r in roles}
        self.all_of = {r: frozenset(a for a in pieces if a.piece.role == r) for r in roles}
        self.enemy_of = {r: self.all_of[r] - self.own_of[r] for r in roles}


class WarmasterEngine(Engine):
    """Answers ``orders``, ``odds``, ``check`` and ``plan`` for a Warmaster scenario."""

    #: the verbs whose judgements are shared between branches (``judgement_key``)
    _share_verbs = ("odds", "plan")

    def __init__(self, scenario, pack):
        super().__init__(scenario, pack)  # (the scenario's units and characters checked: ``_validate``)
        #: what one answer keeps between its judgements (tables, footprints,
        #: distances, the static defines' memo, verdicts, values...): made
        #: afresh for each answer (``afresh``), dropped after it
        self.cache = AnswerCaches()
        #: share them (``odds`` and ``plan``: the branches of a plan agree
        #: on much; the options of ``orders`` are each judged once)
        self._sharing = False
        self.compiler = Compiler(pack, self.system.builtin_meanings())
        #: what expressions and defines read, from the pack's read classes (the kernel's)
        self.reads = PackReads(pack, self._attr_reads, self.compiler.symbols)
        #: the history loops judged from a summary carried along the log (the kernel's)
        self.loops = HistoryLoops(self.compiler, self.reads)
        self.unit_attrs = {name: {k: getattr(v, "value", v) for k, v in u.attrs}  # (a literal's value)
                           for name, u in pack.units.items()}
        self.penalties = pack.hooked(PENALTY_PREFIX)
        #: the pack's rules over the log (the kernel's), the stop rules' loops judged from their summary
        self.judged = LogRules(pack, self.compiler, self.reads, self.loops)
        self.rules = self.judged.rules
        #: which branches of a plan's walk are alike (the kernel's)
        self.alike = Alike(self.judged, ("command_value", "supplies", "succeeds", "blunder", *self.penalties),
                           "orders")
        #: what an attempt's target and its dice are functions of (the kernel's keys)
        self.target_key = DefinesKey("target", ("command_value", "supplies", *self.penalties), pack, self.reads,
                                     self.compiler, "target", frozenset({"fixed"}), lambda e: e.units)
        self.dice_key = DefinesKey("dice", ("succeeds", "blunder"), pack, self.reads, self.compiler, "roll")

    # ------------------------------------------------------------ set-up
    def _attr_reads(self, name: str) -> str | None:
        """What reading attribute ``name`` of a value reads (``PackReads``)."""
        if name in ATTR_READS:
            return ATTR_READS[name]
        if name in FIXED_ATTRS or any(name in a for a in self.unit_attrs.values()):
            return ""
        return None

    def _validate(self) -> None:
        for u in self.scenario.units:
            if u.type not in self.pack.units:
                hint = closest(u.type, self.pack.units)
                raise WarcouncilError(
                    f"unknown unit type {u.type!r} for {self.pack.title or self.pack.name}",
                    u.places.get("type", u.where),
                    hint=f"did you mean {hint[0]!r}?" if hint else "known types: " + ", ".join(self.pack.units))
        for c in self.scenario.characters:
            if c.role not in self.pack.roles:
                raise WarcouncilError(f"the pack declares no character role {c.role!r}", c.places.get("role", c.where))

    def side_value(self, name: str, side: str):
        """The kernel's ``Engine.side_value``: on the table as it stands,
        ``side``'s Command phase not begun (an empty log), the kernel's
        piece lists (``units``, ``enemy_heroes``, ``all_generals``, ...)
        seen from ``side``; the side is a record with its ``name``."""
        log = self.start(side)
        ctx = Ctx(log)
        ctx.g.setting = _SideView(side, [log.table.at(p.id) for p in self.scenario.pieces], ctx.g.memo)
        return self.value(ctx, self.side_define(name), (ctx.g.setting.side_view,))

    def start(self, side: str | None = None) -> Log:
        """The phase before its first entry, for ``side`` (default: the
        scenario's side to move)."""
        table = Table(self.scenario, self.unit_attrs, cache=self.cache).moved({})  # (the one of this answer)
        return Log([], table, side or self.scenario.to_move)

    # ------------------------------------------------------------ orders: targets and odds
    def target(self, log: Log, e: Entry, key: Any = False) -> tuple[int, dict[str, int]]:
        """Command value minus the penalties, and each penalty, of attempt
        ``e`` on the table of ``e`` (``log``: the attempts before it);
        shared within one answer by ``target_key`` (``key``, when the
        caller worked it out), and by the places it read where it may be."""
        if key is False:
            key = self.target_key.key(log, e, self.cache)
        if key is None:
            return self._target(log, e)
        values = self.cache.values
        hit = values.get(key)
        if hit is None:
            if self.target_key.placeable and self._sharing:
                at = self.target_key.key(log, e, self.cache, placed=True)
                hit = self.cache.by_places(at, log.table, lambda: self._target(log, e), touching_quiet)
            else:
                hit = self._target(log, e)
            values[key] = hit
        return hit[0], dict(hit[1])

    def _target(self, log: Log, e: Entry) -> tuple[int, dict[str, int]]:
        # (judged afresh while it is kept by the places it reads: every place read is recorded)
        ctx = Ctx(log, None, self.cache.defines, fresh=bool(self.cache.reading))
        ask = self.ask
        command = ask(ctx, "command_value", e)
        pens: dict[str, int] = {}
        supply = [u for u in e.units if ask(ctx, "supplies", e, u)]  # (the same for every penalty)
        for name in self.penalties:
            vals = [ask(ctx, name, e, u) for u in supply]
            pens[name[len(PENALTY_PREFIX):]] = max(vals) if vals else 0
        return command - sum(pens.values()), pens

    def explain(self, log: Log, e: Entry) -> dict:
        """Attempt ``e`` of ``log`` for people: its roll, target, each
        penalty with what was measured for it, and whether it was given."""
        why = self.measured(log, e)
        out = {"order": e.index + 1, "by": e.by.id, "units": [u.id for u in e.units], "roll": e.roll,
               "target": e.target, "penalties": dict(e.penalties),
               "given": bool(self.ask(Ctx(log), "succeeds", e)), "blunder": self.is_blunder(Ctx(log), e)}
        if why:
            out["measured"] = why
        return out

    def measured(self, log: Log, e: Entry) -> dict[str, list[str]]:
        """What was measured for each penalty attempt ``e`` takes ({penalty:
        ["gen is 23 cm from r3", ...]}, the penalties it does not take left
        out)."""
        why: dict[str, list[str]] = {}
        for name in self.penalties:
            key = name[len(PENALTY_PREFIX):]
            if not e.penalties.get(key):
                continue
            trace: list[str] = []
            ctx = Ctx(log, trace)
            for u in e.units:
                if self.ask(ctx, "supplies", e, u):
                    self.ask(ctx, name, e, u)
            if trace:
                why[key] = trace
        return why

    def measured_option(self, log: Log, by: str, units) -> dict[str, list[str]]:
        """``measured`` for the order ``by`` may attempt next after ``log``
        of ``units`` (one of ``options``)."""
        e, _ = self.attempt(log, Step(by, tuple(units), None, None, None), None, False, lazy=True)
        return self.measured(log, e.worked())

    def dice(self, log: Log, e: Entry) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The 2D6 totals that give attempt ``e`` its order, and the
        failing ones that are blunders (the pack's ``blunder(o)``,
        reference §5.3; none without the define). Shared within one answer
        by what ``succeeds`` and ``blunder`` read (``dice_key``: e.g. who
        gives the order and its target)."""
        key = self.dice_key.key(log, e, self.cache)
        hit = None if key is None else self.cache.values.get(key)
        if hit is None:
            ctx = Ctx(log, None, self.cache.defines)
            ok = tuple(t for t in WAYS if self.ask(ctx, "succeeds", e.with_roll(t)))
            hit = ok, tuple(t for t in WAYS if t not in ok and self.is_blunder(ctx, e.with_roll(t)))
            if key is not None:
                self.cache.values[key] = hit
        return hit

    def is_blunder(self, ctx: Ctx, e: Entry) -> bool:
        """Is attempt ``e``, with its roll, a blunder (the pack's ``blunder(o)``)?"""
        return bool(self.ask(ctx, "blunder", e))  # (an optional hook: none where the pack has no define)

    def attempt(self, log: Log, step: Step, roll: int | None, moves: bool,
                lazy: bool = False) -> tuple[Entry, Table]:
        """The attempt of ``step`` appended to ``log`` (its target worked
        out; when ``lazy``, worked out the first time it is read: the same
        value, see ``Entry.worked``), and the table after it (moved when
        ``moves``)."""
        t = log.table
        units = t.listed(("step units", step.units), lambda: tuple([t.at(u) for u in step.units]))
        fields = ("orders", len(log.entries), step.where, len(log.attempts), t.at(step.by), units, (), roll, moves)
        e = Entry(*fields)
        alike = None
        if self._sharing:
            # (an attempt is what its step says: kind, character, units. What a
            # history loop reads of it that is only that, plain data, is the same
            # for every attempt of this order: kept once for them all (kernel/loops.py),
            # as is what judgements are keyed by of it (``kernel.log.entry_key``))
            of_step = (("alike",), log.side, (step.by, step.units))
            alike = self.cache.orders.get(of_step)
            if alike is None:
                alike = self.cache.orders[of_step] = ({}, ("orders", step.by, step.units, None, None), {})
            e._alike, e._what, e._parts = alike
        if lazy:
            e.pending = _Pending(self, log, fields, alike)
        else:
            e.target, e.penalties = self.target(log, e)
        e.after = e.units
        return self.rolled(log, e, step, roll, moves) if moves else (e, t)

    def rolled(self, log: Log, e: Entry, step: Step, roll: int | None, moves: bool) -> tuple[Entry, Table]:
        """Attempt ``e`` with its ``roll`` (the same target), moving its
        units as ``step`` says when ``moves``; and the table after it."""
        t = log.table
        after = t.moved({u: p for u, p in zip(step.units, step.to) if p is not None}) if moves and step.to else t
        out = e.but(roll=roll, moves=moves, after=tuple(after.at(u) for u in step.units))
        return out, after

    # ------------------------------------------------------------ judging
    def breaks(self, log: Log, at: Entry) -> bool:
        """Does ``at``, just appended to ``log``, break a rule? (the
        kernel's ``LogRules.breaks``: where judgements are shared, ``odds``
        and ``plan``, a group of rules' verdict is kept once for all the
        branches that read alike; contact is ``touching``'s.)"""
        return self.judged.breaks(log, at, self.cache, self._sharing, touching_quiet)

    def violations(self, log: Log, at: Entry | None = None) -> list[dict]:
        """Every violation of the log; with ``at`` (its last entry, just
        appended to a log judged before), the violations at that entry: a
        causal rule is judged at ``at`` alone, any other over the whole log."""
        return self.judged.violations(log, at, self.cache.defines)

    # ------------------------------------------------------------ answers
    def answer(self, verb: str, **options) -> Answer:
        try:
            return self._answer(verb, **options)
        finally:
            self.afresh()  # (dropped: nothing kept for the next answer)

    def _answer(self, verb: str, **options) -> Answer:
        self.afresh(verb in self._share_verbs)
        if verb == "orders":
            return self.orders(options.get("side"), options.get("after"), options.get("limit"),
                               bool(options.get("count_only")))
        if verb == "odds":
            return self.odds(options["path"])
        if verb == "check":
            return self.check(options["path"])
        if verb == "plan":
            return self.best_plan(options["path"])
        return super().answer(verb, **options)

    def afresh(self, sharing: bool = False) -> None:
        """Begin an answer (or one node of the game interface, game.py):
        its own caches, nothing kept from before."""
        self.cache.close()
        self.cache = AnswerCaches()
        self._sharing = sharing

    def draw(self, side: str | None = None, after: str | None = None, **_) -> str:
        """The table (footprints, terrain, command ranges, the General's
        bands) as it stands after the partial log ``after`` (default: the start)."""
        from .svg import table_svg

        return table_svg(self, self.read_log(after, side) if after is not None else None)

    # ---- check
    def check(self, path: str) -> Answer:
        log = self.read_log(path)
        vs = self.violations(log)
        orders = [self.explain(log, e) for e in log.attempts]
        by_id = self.scenario.by_id
        lines = []
        for o in orders:
            pens = ", ".join(f"{k} -{v}" + (f" ({'; '.join(o['measured'][k])})" if k in o.get("measured", {}) else "")
                             for k, v in o["penalties"].items() if v)
            lines.append(f"  order {o['order']} ({order_words(by_id, o['by'], o['units'])}): roll {o['roll']}, "
                         f"target {o['target']}{' [' + pens + ']' if pens else ''}: "
                         f"{'given' if o['given'] else 'not given'}{' (a blunder)' if o['blunder'] else ''}")
        text = _verdict_text(vs, self.pack.document_name, by_id) + ("\norders:\n" + "\n".join(lines) if lines else "")
        return Answer({"legal": not vs, "violations": vs, "orders": orders}, text, 0 if not vs else 1)

    # ---- orders
    def options(self, log: Log, side: str, limit: int | None = None) -> tuple[list[dict], bool]:
        """The orders that may legally be attempted after ``log`` (with
        ``limit``: the first ``limit`` of them), and whether there are more
        than those: one past ``limit`` is judged, to tell, and no more."""
        t = log.table
        chars = [c for c in self.scenario.characters if c.side == side]
        groups = brigades(t, [u.id for u in self.scenario.units if u.side == side])
        out: list[dict] = []
        for c in chars:
            for g in groups:
                step = Step(c.id, g, None, None, None)
                e, _ = self.attempt(log, step, None, False, lazy=True)
                if self.breaks(log.plus(e), e):
                    continue
                if limit is not None and len(out) == limit:
                    return out, True
                ok, blunders = self.dice(log, e.worked())
                out.append({"character": c.id, "units": list(g), "target": e.target, "penalties": dict(e.penalties),
                            "p": chance_of(ok), "blunder": chance_of(blunders)})
        return out, False

    def orders(self, side: str | None, after: str | None, limit: int | None, count_only: bool) -> Answer:
        side = self._side(side)
        log = self.start(side) if after is None else self.read_log(after, side)
        if after is not None:  # (a log breaking a rule: bad input, at its first violation's entry)
            self.judged.reject(log, "the log given with --after", Location(after, 1, 1), "`check` judges a whole log",
                               self.cache.defines)
        if count_only:
            n = len(self.options(log, side)[0])
            return Answer({"side": side, "count": n}, str(n))
        # --limit N bounds the work: N + 1 orders are judged (the one past N
        # says there are more) and the count is then unknown (README, "--limit")
        opts, more = self.options(log, side, limit)
        data: dict = {"side": side, **count_json(None if more else len(opts), more, limit)}
        s = "s" if len(opts) != 1 else ""
        lines = [f"the first {len(opts)} order{s} that may be attempted next ({side}):" if more
                 else f"{len(opts)} order{s} may be attempted next ({side}):"]
        for o in opts:
            pens = ", ".join(f"{k} -{v}" for k, v in o["penalties"].items() if v)
            lines.append(f"  {order_words(self.scenario.by_id, o['character'], o['units'])}: target {o['target']}"
                         f"{' (' + pens + ')' if pens else ''}, p = {o['p']}")
        if more:
            lines.append(f"more than {len(opts)} orders (showing the first {len(opts)}; --count gives the number)")
        data["options"] = opts
        return Answer(data, "\n".join(lines))

    def _side(self, side: str | None) -> str:
        if side is None:
            return self.scenario.to_move
        if side not in self.scenario.sides:
            near = closest(side, self.scenario.sides)
            raise WarcouncilError(f"unknown side {side!r}", hint=f"did you mean {near[0]!r}?" if near else None)
        return side

    # ---- odds
    def odds(self, path: str) -> Answer:
        steps = self.read_plan(path)
        illegal = self.plan_violations(steps)
        if illegal:
            return Answer({"legal": False, "violations": illegal},
                          _verdict_text(illegal, self.pack.document_name, self.scenario.by_id), 1)
        each: list = []
        dist, units = self.distribution(steps, each)
        n = len(steps)
        p_all, expected = _all_and_expected(steps, dist)
        data = {"legal": True,
                "successes": {str(k): str(dist.get(k, Fraction(0))) for k in range(n + 1)},
                "expected": str(expected), "all": str(p_all),
                "units": {u: {str(k): str(d.get(k, Fraction(0))) for k in range(max_k + 1)}
                          for u, (d, max_k) in units.items()},
                # (beyond the contract's keys) each step's chances, and the blunders (reference §5.3)
                "steps": [{"by": st.by, "units": list(st.units), "attempted": str(a), "given": str(g),
                           "blunder": str(b)} for st, (a, g, b) in zip(steps, each)],
                "blunders": str(sum((b for _, _, b in each), Fraction(0)))}
        lines = [f"P(all {n} orders) = {data['all']}; expected {data['expected']}; "
                 f"expected blunders {data['blunders']}"]
        lines += [f"  {k} successful: {v}" for k, v in data["successes"].items()]
        by_id = self.scenario.by_id
        lines += [f"  {pieces_words(by_id, [u])}: " + ", ".join(f"{k}: {v}" for k, v in d.items())
                  for u, d in data["units"].items()]
        lines += [f"  step {i + 1} ({order_words(by_id, s['by'], s['units'])}): attempted {s['attempted']}, "
                  f"given {s['given']}, blunder {s['blunder']}" for i, s in enumerate(data["steps"])]
        return Answer(data, "\n".join(lines))

    def plan_violations(self, steps: list[Step]) -> list[dict]:
        """The plan's violations when every roll that can succeed does (a
        step after one that cannot succeed is judged by the stop rules: not
        attempted)."""
        log, forced = self.start(), False
        for i, st in enumerate(steps):
            vs, log, forced = self._assumed(log, forced, st)
            if vs:
                for v in vs:
                    v["message"] = f"plan step {i + 1}: {v['message']}"
                return vs
        return []

    def _assumed(self, log: Log, forced: bool, st: Step) -> tuple[list[dict], Log, bool]:
        """Step ``st`` of a plan after ``log``, its roll succeeding if one
        can (``forced``: an earlier step's could not): its violations, and
        the log and ``forced`` after it. After a forced failure a step that
        breaks a rule is judged by the stop rules: not attempted, no
        violation, left out of the log."""
        e, _ = self.attempt(log, st, None, False)
        ok, _ = self.dice(log, e)
        if ok:
            e, after = self.rolled(log, e, st, ok[0], True)
        else:
            e, after = e.with_roll(last_failing(ok)), log.table
        now = log.plus(e, after)
        vs = self.violations(now, e) if self.breaks(now, e) else []
        if vs and forced:
            return [], log, forced
        return vs, now, forced or not ok

    def distribution(self, steps: list[Step], each: list | None = None):
        """The exact distribution of successful orders, and per unit; in
        ``each`` (when given), per step: P(attempted), P(given), P(a
        blunder). The kernel's chance walk (kernel/chance.py) over the
        branches the dice open, each step an order attempt (``_Attempts``).
        Where no branch can meet another (every step moves its units: a
        success and a failure leave different tables), nothing is merged,
        and what is kept of the tables of the branches left for good is
        dropped when the walk leaves them (``_left_for_good``, ``_forget``)."""
        alike = None if all(st.to is not None and None not in st.to for st in steps) else self.alike
        names = list(dict.fromkeys(u for st in steps for u in st.units))
        left = self._left_for_good(steps) if alike is None or alike.history is None else None
        [got] = chance.Tree([steps]).walk(_Attempts(self, alike, names, left), self.start(), 36,
                                          (0,) * (1 + len(names)))
        if each is not None:
            each.extend(got.notes)
        tops = {u: sum(1 for st in steps if u in st.units) for u in names}
        return got.counters[0], {u: (d, tops[u]) for u, d in zip(names, got.counters[1:])}

    def _left_for_good(self, steps: list[Step]) -> list[bool]:
        """Per step of a plan: is no table of the branches where it succeeds
        met on any other branch? So when it moves a unit to a place the unit
        stands in on no other branch: no later step moves the unit (where a
        success puts it, it stays), and neither its start nor an earlier
        step's destination for it is that place. ``distribution`` drops
        what it kept of those tables when it leaves those branches."""
        start = self.start().table.poses
        out = []
        for i, st in enumerate(steps):
            fresh = False
            for u, p in zip(st.units, st.to or ()):
                if p is None or p == start[u]:
                    continue
                others = [(j, q) for j, other in enumerate(steps) if j != i and other.to
                          for v, q in zip(other.units, other.to) if v == u and q is not None]
                if all(j < i and q != p for j, q in others):
                    fresh = True
                    break
            out.append(fresh)
        return out

    def _forget(self, mark: tuple) -> None:
        """Drop what the answer kept since ``mark`` of the tables made since
        (``_left_for_good``: met on no branch still to walk) and of their
        pieces and the entries standing on them."""
        cache = self.cache
        gone = set(cache.since(mark, "tables"))
        if not gone:
            return

        def dead(x: Any) -> bool:
            t = type(x)
            if t is Table:
                return x in gone
            if t is At:
                return x.table in gone
            if t is Entry:
                return (x.by is not None and x.by.table in gone) or any(a.table in gone for a in x.after) \
                    or any(a.table in gone for a in x.units)
            return False
        cache.forget(mark, dead)

    # ---- plan: the best sequencing of wanted orders
    def best_plan(self, path: str) -> Answer:
        """The legal sequencing and choice of characters for the wanted
        orders that maximises P(all) (``objective: all``) or the expected
        number of successful orders (``objective: expected``), found by
        exhaustive search; with the runner-up beside it."""
        wants, objective, where = self.read_wants(path)
        side = self.scenario.to_move
        own = [c.id for c in self.scenario.characters if c.side == side]
        choices = [w[2] or own for w in wants]
        candidates = 1
        for c in choices:
            candidates *= len(c)
        if candidates * math.factorial(len(wants)) > PLAN_LIMIT:
            raise WarcouncilError(f"{len(wants)} wanted orders with these characters make more than {PLAN_LIMIT} "
                                  "sequencings to try", where, hint="name the character (`by`) of some of them")
        return self._plan_answer(self._sequencings(wants, objective, choices, where), objective)

    def _sequencings(self, wants, objective, choices, where) -> list:
        """Every legal sequencing of the wanted orders, scored, best first.
        They are walked together, as the kernel's trie of their common
        beginnings (``Tree``): a beginning they share is judged once, for
        its legality (``_assumed``) and on each branch of its dice."""
        from ...kernel.progress import progress

        tree = chance.Tree([Step(assign[i], wants[i][0], None, None, where)
                            for i in order for _ in range(wants[i][1])]
                           for assign in itertools.product(*choices)
                           for order in itertools.permutations(range(len(wants)))
                           # W6: a character's orders are contiguous (else the sequencing is illegal)
                           if _contiguous([assign[i] for i in order]))

        def passes(at: tuple, node) -> tuple | None:  # (every roll that can succeed succeeding)
            vs, log, forced = self._assumed(*at, node.step)
            return None if vs else (log, forced)
        tree.prune((self.start(), False), passes)
        legal = len(tree.remaining())

        def score(steps: tuple, walked) -> tuple:
            p_all, expected = _all_and_expected(steps, walked.counters[0])
            return (p_all, expected) if objective == "all" else (expected, p_all)
        done = 0
        with progress("plan: sequencings tried", legal) as step:
            def told(n: int) -> None:
                nonlocal done
                done += n
                self.cache.defines = {}  # (its keys hold the entries walked: not kept for the next sequencings)
                step(done, None, f"plan: {done} sequencings tried, {legal} legal")
            return chance.best(tree, _Attempts(self, self.alike, [], None), self.start(), 36, (0,),
                               score, told)

    def _plan_answer(self, scored, objective) -> Answer:
        if not scored:
            return Answer({"legal": False, "plans": []}, "no legal sequencing of these orders", 1)

        def show(entry):
            _, steps, walked = entry
            p_all, expected = _all_and_expected(steps, walked.counters[0])
            return {"plan": [{"by": st.by, "units": list(st.units)} for st in steps],
                    "all": str(p_all), "expected": str(expected)}
        best = show(scored[0])
        runner = next((show(e) for e in scored[1:] if e[0] != scored[0][0]), None)
        data = {"legal": True, "objective": objective, "best": best, "runner_up": runner,
                "sequencings": len(scored)}
        lines = [f"best ({objective}): P(all) = {best['all']}, expected {best['expected']}"]
        lines += [f"  {i + 1}. {order_words(self.scenario.by_id, st['by'], st['units'])}"
                  for i, st in enumerate(best["plan"])]
        if runner:
            lines.append(f"runner-up: P(all) = {runner['all']}, expected {runner['expected']}")
        return Answer(data, "\n".join(lines))

    # ------------------------------------------------------------ files (files.py)
    def read_wants(self, path: str) -> tuple[list, str, Location]:
        return read_wants(self.scenario.by_id, path)

    def read_plan(self, path: str) -> list[Step]:
        return read_plan(self.scenario.by_id, path, self.start().table.poses)

    def read_log(self, path: str, side: str | None = None) -> Log:
        """A Command phase log (a turn file): its entries played on the table."""
        return self.log_of(turn_entries(path), side)

    def log_of(self, entries, side: str | None = None, log: Log | None = None) -> Log:
        """``log`` (default: the start, for ``side``) extended by
        ``entries``, in order: (turn-file key, the entry as a checked
        mapping, its place), as ``read_log`` reads them or the game
        interface (game.py) makes them."""
        log = self.start(side) if log is None else log
        for key, m, where in entries:
            log = self._entry(key, m, where, log)
        return log

    def _entry(self, key: str, m: YDict, where: Location, log: Log) -> Log:
        t = log.table
        by_id = self.scenario.by_id
        if key == "orders":
            st = read_step(by_id, m, where, True, t.poses)
            e, after = self.attempt(log, st, st.roll, st.to is not None)
            e.blunder_d6 = st.blunder
            return log.plus(e, after)
        who = {"initiative": "unit", "home_back": "unit", "characters": "piece"}[key]
        pid = piece_id(by_id, m[who], m.value_where.get(who, where), "character" if key == "characters" else None)
        after = t.moved({pid: pose_of(m["to"], t.poses[pid])}) if "to" in m else t
        e = Entry(key, len(log.entries), where, units=(t.at(pid),), after=(after.at(pid),), moves="to" in m)
        if key == "initiative":
            e.action = m["action"]
        if key == "home_back":
            e.toward = t.at(piece_id(by_id, m["toward"], m.value_where.get("toward", where), "character"))
            e.roll = m["roll"]
        return log.plus(e, after)


class _Attempts:
    """The steps of a plan for the kernel's chance walk (kernel/chance.py):
    each an order attempt, judged before its roll. Stopped (the stop rules:
    not attempted) it has one outcome, the log as it was; else a success
    (its roll the first that gives the order, its units moved as the step
    says: a successful order and one given to each of its units, of
    ``names``) and a failure (its last failing total); its notes: attempted,
    given, a blunder, in ways out of 36. Alike branches are merged (the
    kernel's ``Alike``: ``alike``, None for none; a branch's table beside)
    from the second step on with three steps or more to come (with fewer,
    merging would save fewer judgements than finding a match costs);
    ``left``: per step, are the tables of its successes left for good
    (``_left_for_good``; None: none is)."""

    def __init__(self, engine: WarmasterEngine, alike: Alike | None, names: list[str], left: list[bool] | None):
        self.engine, self.alike, self.names, self.left = engine, alike, names, left
        self.plain: dict = {}  # (``Alike.meets``)

    def judge(self, log: Log, node) -> tuple:
        eng, st = self.engine, node.step
        e, _ = eng.attempt(log, st, None, False, lazy=True)
        if eng.breaks(log.plus(e), e):
            return ((36, log, None, None),), (0, 0, 0)
        ok, blunders = eng.dice(log, e.worked())
        w_ok, out = ways(ok), []
        if ok:
            leave = None
            if self.left is not None and self.left[node.index]:
                mark = eng.cache.mark()  # (what is kept of the tables of these branches, dropped after them)
                leave = lambda: eng._forget(mark)  # noqa: E731
            es, after = eng.rolled(log, e, st, ok[0], True)
            gives = (1, *(int(u in st.units) for u in self.names))
            out.append((w_ok, log.plus(es, after), gives, leave))
        if w_ok < 36:  # (its last failing total)
            out.append((36 - w_ok, log.plus(e.with_roll(last_failing(ok))), None, None))
        return out, (36, w_ok, ways(blunders))

    def near(self, log: Log, node):
        if self.alike is None or self.alike.history is None or node.height < 3:
            return None  # (not merged)
        return log.table, self.alike.near(log, self.engine.cache)

    def keys(self, log: Log, node):
        eng = self.engine

        def appended():  # (each order still to come, attempted now)
            for order in dict.fromkeys((st.by, st.units) for st in node.ahead):
                o, _ = eng.attempt(log, Step(*order, None, None, None), None, False, lazy=True)
                yield order, o, log.plus(o)
        return self.alike.keys(log, appended(), eng.cache, self.plain)


def ways(totals: tuple[int, ...]) -> int:
    """The ways of rolling one of the 2D6 ``totals``, out of 36."""
    return sum(WAYS[t] for t in totals)


def chance_of(totals: tuple[int, ...]) -> str:
    """P(one of the 2D6 ``totals``), as the contract writes it ("7/12",
    "1", "0": a ``Fraction``'s own text, as every chance of ``odds``)."""
    return str(Fraction(ways(totals), 36))


def last_failing(ok: tuple[int, ...]) -> int:
    """The highest 2D6 total not in ``ok`` (one that fails the order)."""
    return max(t for t in WAYS if t not in ok)


def _all_and_expected(steps, dist: dict) -> tuple[Fraction, Fraction]:
    """P(every order of ``steps`` given) and the expected number given, of
    ``dist``, the distribution of successful orders."""
    return dist.get(len(steps), Fraction(0)), sum((k * p for k, p in dist.items()), Fraction(0))


def _contiguous(chars: list[str]) -> bool:
    """Are each character's orders together (W6)?"""
    runs = [c for k, c in enumerate(chars) if k == 0 or chars[k - 1] != c]
    return len(runs) == len(set(runs))


def brigades(t: Table, ids: list[str], most: int = 4) -> list[tuple[str, ...]]:
    """Every single unit, then every group of 2..``most`` units each
    touching another (connected by contact; the kernel's
    ``connected_subsets``), ids in scenario order."""
    from . import measure as T

    fps = [t.footprint(u) for u in ids]
    near = [sum(1 << j for j, g in enumerate(fps) if j != i and T.touching(f, g)) for i, f in enumerate(fps)]
    every = (1 << len(ids)) - 1
    groups = [tuple(u for i, u in enumerate(ids) if m >> i & 1) for m in connected_subsets(every, every, near, most)]
    rank = {u: i for i, u in enumerate(ids)}
    return sorted((g for g in groups if g), key=lambda g: (len(g), [rank[u] for u in g]))


def _verdict_text(vs: list[dict], name, by_id: dict) -> str:
    """A verdict in words; ``name``: how a source is named (the pack's
    ``document_name``: its document's title); ``by_id``: the scenario's
    pieces, which each violation names in words."""
    if not vs:
        return "legal"
    lines = [f"illegal: {len(vs)} violation{'s' if len(vs) != 1 else ''}"]
    for v in vs:
        lines.append(f"  {v['rule']} [{pieces_words(by_id, v['pieces']) or '-'}] {v['message']}")
        source = name(v["source"])
        lines.append(f"    {source}: “{v['quote']}”" if v["quote"] else f"    {source}")
        for m in v.get("measurements", ()):
            lines.append(f"    measured: {m}")
    return "\n".join(lines)


__all__ = ["WarmasterEngine", "WAYS", "ways", "brigades", "Ctx", "Step", "At", "Pose"]
