"""A card-free decision: a set of the side's own pieces, chosen (activated,
ordered) with no card, judged by the pack's rules alone.

``Decision``   the grounding of such a decision: a ``Setting`` (the board
               and the pieces seen from the side to move), the pack's
               compiler and the per-decision memo — everything ``Ctx`` and
               the compiled closures read of a grounding. Nothing fixes
               the decision beforehand (no context, as a card would be:
               ``fixed_key`` names none) and there is no alternative
               (``alts`` is empty): the pieces chosen are ``ctx.ordered``.
``enumerate``  every legal set by the python-constraint reference: one 0/1
               variable per own piece, one ``Constraint`` object per planned
               rule calling the rule's compiled closure (never a string
               constraint), streamed as the search finds them.
``check``      a proposed set (and, with a turn, its moves and battles,
               judged by the kernel's move rules): the kernel's ``Verdict``,
               every ``Violation`` with its rule id, source and quote.
``SetEngine``  the engine of a game system whose decision is such a set
               (``System.engine = SetEngine``).

Nothing here names a card, a section, a leader or a phase.
"""

from __future__ import annotations

from collections.abc import Iterator

from constraint import Constraint, Problem, Unassigned

from .check import Verdict, check as check_decision
from ..kernel.engine import orders_alone
from ..kernel.ground import Ctx, PieceView, Record, Setting
from .plan import Plan, PlannedEngine, PlannedRule


class Decision:
    """A pack + scenario + side, ready to enumerate or check a set of own
    pieces chosen with no card (the grounding-like context closures see)."""

    def __init__(self, plan: Plan, setting: Setting):
        self.plan = plan
        self.pack = plan.pack
        self.compiler = plan.compiler
        self.setting = setting
        self.alts: list = []  # no alternatives: every rule applies to every set
        self.memo: dict = {}  # decision-level define calls (Compiler.context_static_defines)
        self.enumerator = None
        self._base: Ctx | None = None

    def fixed_key(self) -> tuple:
        """Nothing is fixed before the decision (``Compiler.fixed_key``)."""
        return (None, None, None), None

    def base(self) -> Ctx:
        """The context of expressions that read no decision."""
        ctx = self._base
        if ctx is None:
            ctx = self._base = Ctx(self, None)
        return ctx

    def ctx(self, chosen) -> Ctx:
        """The context of one chosen set."""
        return Ctx(self, None, frozenset(chosen))

    @property
    def items(self) -> tuple[PieceView, ...]:
        """The own pieces that may be chosen, in rank order."""
        return self.setting.items


# ------------------------------------------------------------------ the reference search


class RuledConstraint(Constraint):
    """A python-constraint constraint that is one planned rule: it carries
    the rule's id, source and quote, for explanations (never a string
    constraint: it calls the rule's compiled closure)."""

    rule: PlannedRule

    @property
    def rule_id(self) -> str:
        return self.rule.id

    @property
    def source(self) -> tuple[str, str]:
        return (self.rule.source, self.rule.quote)


class SetRuleConstraint(RuledConstraint):
    """A planned rule over every piece variable: the rule's closure on the
    chosen set, once every variable is assigned."""

    def __init__(self, d: Decision, rule: PlannedRule, names: list[str]):
        self.d, self.rule, self.names = d, rule, names
        self.by_name = {p.id: p for p in d.items}

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=Unassigned):
        values = [assignments.get(n, _unassigned) for n in self.names]
        if any(v is _unassigned for v in values):
            return True
        chosen = frozenset(self.by_name[n] for n, v in zip(self.names, values) if v == 1)
        ctx = self.d.ctx(chosen)
        if self.rule.skip_when is not None and self.rule.skip_when(ctx, {}):
            return True
        return bool(self.rule.full(ctx, {}))


class PieceRuleConstraint(RuledConstraint):
    """``forall x in ordered: φ(x)`` (φ reading no decision) on one piece:
    φ must hold if the piece is chosen."""

    def __init__(self, d: Decision, rule: PlannedRule, piece: PieceView):
        self.d, self.rule, self.piece = d, rule, piece

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=Unassigned):
        v = assignments.get(self.piece.id, _unassigned)
        if v is _unassigned or v == 0:
            return True
        return bool(self.rule.test(self.d.ctx((self.piece,)), {self.rule.var: self.piece}))


def build_problem(d: Decision) -> Problem:
    """The decision as a python-constraint problem (one 0/1 variable per own
    piece, one constraint object per planned rule or, for a unary rule, per
    piece)."""
    problem = Problem()
    items = list(d.items)
    names = [p.id for p in items]
    for n in names:
        problem.addVariable(n, [0, 1])
    for r in d.plan.order_rules:
        if r.kind == "true":
            continue
        if r.kind == "unary" and r.skip_when is None:
            for p in items:
                problem.addConstraint(PieceRuleConstraint(d, r, p), [p.id])
        else:
            problem.addConstraint(SetRuleConstraint(d, r, names), names)
    return problem


def enumerate_sets(d: Decision, limit: int | None = None) -> Iterator[tuple[PieceView, ...]]:
    """Every legal set (each a tuple of pieces in rank order), streamed in
    the search's order; at most ``limit`` of them."""
    if limit is not None and limit <= 0:
        return
    by_name = {p.id: p for p in d.items}
    if not by_name:  # no piece to choose: the empty set, if the rules allow it
        if not check_decision(d, d.plan, []).violations:
            yield ()
        return
    n = 0
    for sol in build_problem(d).getSolutionIter():
        yield tuple(sorted((by_name[k] for k, v in sol.items() if v == 1), key=lambda p: p.rank))
        n += 1
        if limit is not None and n >= limit:
            return


def canonical(sets) -> list[tuple[PieceView, ...]]:
    """Sets sorted smallest first, then by piece order."""
    return sorted(sets, key=lambda s: (len(s), tuple(p.rank for p in s)))


# ------------------------------------------------------------------ the engine


class SetEngine(PlannedEngine):
    """The engine of a system whose decision is a set of own pieces chosen
    with no card (activations): every legal set, their number, and the
    verdict on a proposed set (or turn)."""

    def decision(self, side: str | None = None, command: int | None = None) -> Decision:
        key = ("decision", side, command)
        d = self._settings.get(key)
        if d is None:
            d = self._settings[key] = Decision(self.plan, self.setting(side, command))
        return d

    def decisions(self, limit: int | None = None, side: str | None = None,
                  command: int | None = None) -> Iterator[tuple[PieceView, ...]]:
        """The legal sets, streamed (at most ``limit``)."""
        return enumerate_sets(self.decision(side, command), limit)

    def all_decisions(self, side: str | None = None, command: int | None = None) -> list[tuple[PieceView, ...]]:
        """Every legal set, smallest first, then in piece order."""
        return canonical(self.decisions(None, side, command))

    def count(self, side: str | None = None, command: int | None = None) -> int:
        return sum(1 for _ in self.decisions(None, side, command))

    def answer(self, verb: str, **options):
        """``orders``: every legal set of pieces the side may choose, by the
        python-constraint reference (the options: ``side``, ``command``,
        ``count_only``, ``limit``, ``as_json``)."""
        if verb != "orders":
            return super().answer(verb, **options)
        from ..kernel.listing import count_json, cut
        from ..kernel.system import Answer

        orders_alone(options)
        side, command, limit = options.get("side") or self.scenario.to_move, options.get("command"), options.get("limit")
        if options.get("count_only"):
            n = self.count(side, command)
            return Answer({"side": side, "count": n}, str(n), plain=True)
        got = canonical(self.decisions(None if limit is None else limit + 1, side, command))
        sets, total, more = cut(got, limit, None)
        rows = [{"pieces": [p.id for p in s]} for s in sets]
        if options.get("as_json"):
            return Answer({"side": side, **count_json(total, more, limit), "order_sets": rows}, "")
        return Answer(None, "", lines=self._lines(side, rows, sets, total, more))

    def _lines(self, side, rows, sets, total, more):
        from rich.markup import escape

        from ..kernel.listing import footer

        yield f"[bold]{escape(self.system.decision or 'decisions')}[/] — {escape(side)}"
        for r in rows:
            yield "  " + (" ".join(r["pieces"]) if r["pieces"] else "[dim](none)[/]")
        yield footer(len(sets), total, more, "legal set", "legal sets")

    def check(self, ids: list[str], side: str | None = None, command: int | None = None, *,
              moves=(), battles=(), where=None) -> Verdict:
        """The verdict on choosing the pieces ``ids``; with ``moves``
        (``(id, to)`` or ``(id, to, path)``) and ``battles`` (``(id, target
        id)``), on the whole turn, each move judged by the pack's move rules
        at its moment."""
        d = self.decision(side, command)
        chosen = self.pieces(d, list(ids), where)
        turn = None
        if moves or battles:
            turn = Record(moves=tuple(self._move(d, m) for m in moves),
                          battles=tuple(Record(piece=self.pieces(d, [a])[0], target=self.pieces(d, [b])[0])
                                        for a, b in battles))
        return check_decision(d, self.plan, chosen, turn)

    def check_turn(self, turn) -> Verdict:
        """A turn file (``kernel.turn.Turn``): its orders are the set chosen."""
        d = self.decision(turn.side, turn.command)
        chosen = self.pieces(d, turn.orders, turn.orders_where)
        moves = tuple(Record(piece=self.pieces(d, [m.piece], [m.where])[0], to=m.to, path=m.path)
                      for m in turn.moves or ())
        battles = tuple(Record(piece=self.pieces(d, [b.piece], [b.where])[0],
                               target=self.pieces(d, [b.target], [b.where])[0]) for b in turn.battles or ())
        t = Record(moves=moves, battles=battles) if moves or battles else None
        return check_decision(d, self.plan, chosen, t)

    def _move(self, d: Decision, m) -> Record:
        pid, to, *rest = m
        return Record(piece=self.pieces(d, [pid])[0], to=tuple(to), path=tuple(map(tuple, rest[0])) if rest else ())
