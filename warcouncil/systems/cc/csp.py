"""The order phase as a python-constraint problem, built from the AST.

Variables: one 0/1 variable per own piece ("does it receive an order?"),
plus ``_alt`` choosing the card's alternative. Constraints: one constraint
object per grounded rule, each carrying its rule id, source and quote, and
evaluating the rule's compiled closure (never a string: python-constraint's
string constraints are parsed and evaluated, which rule files must never
reach). A unary rule (``forall x in ordered: φ(x)``) is one small
constraint per piece over (alternative, piece), checked as soon as both are
assigned; count rules forward-check partial assignments.

This encoding is the reference semantics. The enumerator (``enumerate.py``)
gives the same sets far faster by exploiting structure; tests compare the two
on random boards.
"""

from __future__ import annotations

from constraint import Problem, Unassigned

from ...solver.decide import RuledConstraint
from ...kernel.ground import Ctx
from ...solver.plan import Plan, PlannedRule
from .grounding import Grounding

ALT = "_alt"


class RuleConstraint(RuledConstraint):
    """A grounded rule over the order variables (and the alternative)."""

    def __init__(self, g: Grounding, rule: PlannedRule, names: list[str]):
        self.g = g
        self.rule = rule
        self.names = names
        self.by_name = {p.id: p for p in g.setting.items}

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=Unassigned):
        alt_index = assignments.get(ALT, _unassigned)
        if alt_index is _unassigned:
            return True
        values = [assignments.get(n, _unassigned) for n in self.names]
        alt = self.g.alts[alt_index]
        vacuous = self.rule.skip_when is not None and self.rule.skip_when(Ctx(self.g, alt), {})
        if vacuous:
            return True  # `G or ...` with G true for this card
        if self.rule.kind in ("capacity", "assignable") and alt.capacity is not None:
            # forward check: the orders already given may not exceed the card's
            chosen = [self.by_name[n] for n, v in zip(self.names, values) if v == 1]
            ctx = Ctx(self.g, alt, frozenset(chosen))
            if self.rule.charged is not None:
                chosen = [p for p in chosen if self.rule.charged(ctx, p)]
            if self.rule.kind == "capacity" and len(chosen) > alt.capacity:
                return False
            if self.rule.kind == "assignable" and alt.assign_problem(chosen):
                return False
        if any(v is _unassigned for v in values):
            return True
        ordered = frozenset(self.by_name[n] for n, v in zip(self.names, values) if v == 1)
        return bool(self.rule.full(Ctx(self.g, alt, ordered), {}))


class UnaryRuleConstraint(RuledConstraint):
    """``forall x in ordered: φ(x)`` on one piece: φ must hold if it is ordered."""

    def __init__(self, g: Grounding, rule: PlannedRule, piece):
        self.g, self.rule, self.piece = g, rule, piece

    def __call__(self, variables, domains, assignments, forwardcheck=False, _unassigned=Unassigned):
        alt_index = assignments.get(ALT, _unassigned)
        v = assignments.get(self.piece.id, _unassigned)
        if alt_index is _unassigned or v is _unassigned or v == 0:
            return True
        ctx = Ctx(self.g, self.g.alts[alt_index], frozenset([self.piece]))
        return bool(self.rule.test(ctx, {self.rule.var: self.piece}))


def build_problem(g: Grounding, plan: Plan) -> Problem:
    problem = Problem()
    items = list(g.setting.items)
    names = [p.id for p in items]
    problem.addVariable(ALT, list(range(len(g.alts))))
    for n in names:
        problem.addVariable(n, [0, 1])
    for r in plan.order_rules:
        if r.kind == "true":
            continue
        if r.kind == "unary":
            for p in items:
                problem.addConstraint(UnaryRuleConstraint(g, r, p), [ALT, p.id])
        else:
            problem.addConstraint(RuleConstraint(g, r, names), [ALT] + names)
    return problem


def csp_order_sets(g: Grounding, plan: Plan, limit: int | None = None) -> list[tuple]:
    """Every legal order set by python-constraint search (sorted, deduplicated).
    With ``limit``, the search stops at the ``limit``-th distinct set found
    (``getSolutionIter`` makes one solution at a time): those sets, sorted;
    not the first ``limit`` of the whole sorted list, which only the whole
    search gives."""
    if not g.alts or limit == 0:
        return []
    problem = build_problem(g, plan)
    by_name = {p.id: p for p in g.setting.items}
    seen = set()
    for sol in problem.getSolutionIter():
        seen.add(frozenset(n for n, v in sol.items() if n != ALT and v == 1))
        if limit is not None and len(seen) >= limit:
            break
    sets = [tuple(sorted((by_name[n] for n in s), key=lambda p: p.rank)) for s in seen]
    sets.sort(key=lambda s: (len(s), tuple(p.rank for p in s)))
    return sets
