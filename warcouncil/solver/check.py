"""Check a proposed order set or turn: every violated rule, with its pieces.

A card may have several alternatives (its text, a fallback); a proposal is
legal if one of them admits it. When none does, the violations reported are
those of the alternative the proposal comes closest to (fewest violations).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .ground import Ctx, GroundAlt, Grounding, PieceView, Record
from .plan import Plan, PlannedRule


@dataclass
class Violation:
    rule: str
    pieces: list[str]
    message: str
    source: str
    quote: str
    origin: str = ""  # the rule file the rule came from

    def as_json(self) -> dict:
        return {
            "rule": self.rule,
            "pieces": self.pieces,
            "message": self.message,
            "source": self.source,
            "quote": self.quote,
        }


@dataclass
class Verdict:
    legal: bool
    violations: list[Violation] = field(default_factory=list)

    def as_json(self) -> dict:
        return {"legal": self.legal, "violations": [v.as_json() for v in self.violations]}


def _ids(xs) -> list[str]:
    out = []
    for x in xs:
        if isinstance(x, PieceView):
            out.append(x.id)
        elif isinstance(x, Record) and isinstance(x.get_attr("piece"), PieceView):
            out.append(x.get_attr("piece").id)
    return sorted(set(out))


def _message(r: PlannedRule, pieces: list[str], binding: dict | None) -> str:
    tmpl = r.decl.message
    if tmpl:
        values = {k: (v.id if isinstance(v, PieceView) else getattr(v, "get_attr", lambda _: v)("piece") or v)
                  for k, v in (binding or {}).items()}
        values = {k: (v.id if isinstance(v, PieceView) else str(v)) for k, v in values.items()}
        values.setdefault("pieces", ", ".join(pieces))
        try:
            return tmpl.format(**values)
        except (KeyError, IndexError, ValueError):
            return tmpl
    who = ", ".join(pieces) if pieces else "the order set"
    return f"{who}: breaks {r.id}"


def violations_of(g: Grounding, plan: Plan, alt: GroundAlt | None, ctx: Ctx, rules) -> list[Violation]:
    out: list[Violation] = []
    for r in rules:
        if r.kind == "true":
            continue
        if r.var is not None:
            # a forall rule: one violation per failing element
            failing = []
            for x in _sorted(r.domain(ctx, {})):
                if not r.test(ctx, {r.var: x}):
                    failing.append(x)
            for x in failing:
                pieces = _ids([x])
                out.append(Violation(r.id, pieces, _message(r, pieces, {r.var: x}), r.source, r.quote, r.origin))
            continue
        if r.full(ctx, {}):
            continue
        pieces = _ids(_explain(r, alt, ctx))
        out.append(Violation(r.id, pieces, _message(r, pieces, None), r.source, r.quote, r.origin))
    return out


def _explain(r: PlannedRule, alt: GroundAlt | None, ctx: Ctx):
    ordered = ctx.ordered
    if r.kind == "assignable" and alt is not None:
        charged = [p for p in ordered if r.charged is None or r.charged(ctx, p)]
        return alt.assign_problem(charged) or ordered
    if r.kind == "capacity" and r.charged is not None:
        return [p for p in ordered if r.charged(ctx, p)]
    if r.kind == "filled" and alt is not None:
        missing = set()
        for q in alt.quotas:
            if q.all:
                missing |= q.admitted - ordered
        return missing
    return ordered


def _sorted(xs):
    try:
        return sorted(xs, key=lambda v: getattr(v, "rank", 0) if not isinstance(v, Record) else 0)
    except TypeError:
        return list(xs)


def check(g: Grounding, plan: Plan, orders: list[PieceView], turn=None) -> Verdict:
    counts = Counter(orders)
    ordered = frozenset(counts)
    rules = plan.order_rules + (plan.turn_rules if turn is not None else [])
    if not g.alts:
        ctx = Ctx(g, None, ordered, counts, turn)
        vs = violations_of(g, plan, None, ctx, rules)
        return Verdict(not vs, vs)
    best: list[Violation] | None = None
    for alt in g.alts:
        ctx = Ctx(g, alt, ordered, counts, turn)
        vs = violations_of(g, plan, alt, ctx, rules)
        if not vs:
            return Verdict(True, [])
        if best is None or len(vs) < len(best):
            best = vs
    return Verdict(False, best or [])
