"""The planner's view of a pack's rules.

Every rule is a constraint; the planner sorts them by the shape of their
formula so that the enumerator can exploit structure instead of searching:

* ``true``      folded to a constant: vacuous, costs nothing;
* ``once``      at most one order per piece: what enumerating *sets* means;
* ``unary``     ``forall x in ordered: φ(x)`` with φ independent of the
                decision: a domain restriction (node consistency), applied
                once per piece before enumeration;
* ``assignable``/``capacity``/``filled``/``linked``/``led``: structure a game
                system's enumerator turns into generators (for C&C: quota
                matching, cardinalities, connected groups); the system names
                the builtins that carry it (``System.structural``), so the
                planner names none;
* ``filter``    anything else: evaluated on each candidate order set (and,
                in the CSP encoding, a constraint over all order variables);
* phase ``turn``: rules about moves and battles, used only by ``check``.

The classification depends only on the pack, so it is computed once.
"""

from __future__ import annotations

import weakref

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

from ..dsl import ast as A
from ..dsl.pack import Pack, is_shipped
from ..errors import WarcouncilError
from ..kernel.engine import Engine
from ..kernel.evaluate import Compiler
from ..kernel.system import System


@dataclass
class PlannedRule:
    decl: A.RuleDecl
    source: str
    quote: str
    origin: str
    phase: str  # order | turn
    kind: str  # true | once | unary | assignable | capacity | filled | linked | led | filter
    body: A.Expr  # folded
    compiler: Compiler = field(repr=False, compare=False)
    var: str | None = None  # for forall rules: the bound variable
    charged: Callable | None = None  # assignable/capacity over {p in ordered where cond}
    skip_when: Callable | None = None  # `G or STRUCTURAL`: the rule is vacuous when G (about the card) holds
    core: A.Expr | None = None  # the structural part of a guarded rule

    # The closures are compiled when first used (issue 15: a query uses a
    # few of a pack's rules; compiling all of them was a third of a short
    # command's start-up). A pack that is not all shipped is compiled whole
    # when planned (``Plan``), so its errors show where they always did.
    def quote_for(self, piece) -> str:
        """The sentence a violation by ``piece`` (one piece, or None) quotes:
        of a rule citing several, the first that names the piece's type
        ("Auxilia infantry units may move one hex and battle, ..." for an
        auxilia moving too far: ``Pack.quote_naming``); else its first."""
        kind = getattr(piece, "type", None)
        if not kind or len(self.decl.citations) < 2:
            return self.quote
        memo = self.__dict__.setdefault("_quotes_by_type", {})
        q = memo.get(kind)
        if q is None:
            q = memo[kind] = self.compiler.pack.quote_naming(self.decl, kind.replace("_", " ")) or self.quote
        return q

    @cached_property
    def full(self) -> Callable:
        """Closure over the whole body."""
        return self.compiler.compile(self.body)

    @cached_property
    def domain(self) -> Callable | None:
        """For forall rules: the domain closure."""
        return self.compiler.compile(self.body.domain) if self.var is not None else None

    @cached_property
    def test(self) -> Callable | None:
        """For forall rules: the body closure, env {var: x}."""
        return self.compiler.compile(self.body.body) if self.var is not None else None

    @cached_property
    def premises(self) -> tuple:
        """The parts of the body the decision's fixed context decides (C&C:
        the card played, its roll): the largest closed sub-formulas in its
        logical places (``and``/``or``/``not``/``implies`` operands, a
        quantifier's body) that read nothing the decision makes, no bound
        variable, no alternative. ``vacuous`` folds them."""
        c = self.compiler
        out: list = []

        def walk(e):
            if e is None or isinstance(e, A.Const):
                return
            if c.context_static(e):
                out.append(e)
            elif isinstance(e, (A.And, A.Or)):
                for x in e.items:
                    walk(x)
            elif isinstance(e, A.Not):
                walk(e.operand)
            elif isinstance(e, A.Implies):
                walk(e.left)
                walk(e.right)
            elif isinstance(e, A.Quant):
                walk(e.body)

        walk(self.body)
        return tuple(out)

    @cached_property
    def _premise_closures(self) -> tuple:
        """The premises compiled (once: ``vacuous`` is asked at every grounding)."""
        return tuple(self.compiler.compile(e) for e in self.premises)

    def vacuous(self, ctx) -> bool:
        """Does the rule hold whatever is decided, in ``ctx``'s fixed context
        (the grounded card)? Its premises are evaluated there, put in as
        constants and the body folded (``Compiler.fold``): true is vacuous.
        (``ccm.leaders-card-units`` on any card but "Leaders": its premise
        ``leaders_with_units in card.effects`` is false, so the rule is
        ``forall l in ordered: true``.) Folded once per set of values."""
        premises = self.premises
        if not premises:
            return False
        c = self.compiler
        try:
            values = tuple(f(ctx, {}) for f in self._premise_closures)
        except WarcouncilError:  # judged out of its place: not folded
            return False
        if any(v is not True and v is not False for v in values):
            return False
        memo = self.__dict__.setdefault("_vacuous", {})
        hit = memo.get(values)
        if hit is None:
            known = {id(e): v for e, v in zip(premises, values)}
            folded = c.fold(A.transform(self.body, lambda n: A.Const(known[id(n)], n.loc) if id(n) in known else n))
            hit = memo[values] = isinstance(folded, A.Const) and folded.value is True
        return hit

    def compile_all(self) -> None:
        self.full, self.domain, self.test  # noqa: B018 - compiled now

    @property
    def id(self) -> str:
        return self.decl.id


class Plan:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.compiler = Compiler(pack)
        #: builtin name -> planner class, from the system that plays the pack
        self.structural: dict[str, str] = System.structural_for(pack)
        self.rules: list[PlannedRule] = [self._plan(r) for r in pack.rules.values()]
        if not all(is_shipped(f) for f in pack.files):  # a pack of the user's (or house rules): compiled now
            for r in self.rules:
                r.compile_all()
        self.order_rules = [r for r in self.rules if r.phase == "order"]
        self.turn_rules = [r for r in self.rules if r.phase == "turn"]

    def _plan(self, r: A.RuleDecl) -> PlannedRule:
        c = self.compiler
        body = c.fold(r.body)
        source, quote = self.pack.source_of(r)
        origin = self.pack.origin.get(r.id, "")
        phase = "turn" if c.is_turn(body) else "order"
        pr = PlannedRule(r, source, quote, origin, phase, "filter", body, c)
        if isinstance(body, A.Quant) and body.kind == "forall":
            pr.var = body.var
        if isinstance(body, A.Const):
            pr.kind = "true" if body.value else "filter"
            return pr
        if phase == "turn":
            return pr
        if isinstance(body, A.Or) and len(body.items) == 2:
            # `G or S` with G about the card only (not the decision): S's
            # structure, applying only to the cards where G is false
            for g, core in (body.items, body.items[::-1]):
                if not c.is_dynamic(g):
                    probe = self._plan_core(core, pr)
                    if probe in ("assignable", "capacity", "filled", "linked", "led"):
                        pr.kind, pr.skip_when, pr.core = probe, c.compile(g), core
                        return pr
            return pr
        kind = self._plan_core(body, pr)
        pr.kind = kind
        return pr

    def _plan_core(self, body: A.Expr, pr: PlannedRule) -> str:
        """The planner class of an (unguarded) order-phase formula."""
        c = self.compiler
        if (
            isinstance(body, A.Quant)
            and body.kind == "forall"
            and _is_ordered(body.domain)
            and not c.is_dynamic(body.body)
        ):
            return "unary"
        if (
            isinstance(body, A.Quant)
            and body.kind == "forall"
            and isinstance(body.body, A.Compare)
            and isinstance(body.body.left, A.Call)
            and body.body.left.func == "orders"
            and body.body.left.args == (A.Name(body.var),)
            and ((body.body.op == "<=" and body.body.right == A.Num(1)) or (body.body.op == "<" and body.body.right == A.Num(2)))
        ):
            # at most one order per piece: every enumerated order *set* has it
            return "once"
        if isinstance(body, A.Call) and len(body.args) == 1:
            arg = body.args[0]
            kind = self.structural.get(body.func)
            if kind == "assignable" and self._charged_set(arg, pr):
                return "assignable"
            if kind in ("filled", "linked", "led") and _is_ordered(arg):
                return kind
            return "filter"
        if (
            isinstance(body, A.Compare)
            and body.op == "<="
            and isinstance(body.left, A.Call)
            and body.left.func == "count"
            and len(body.left.args) == 1
            and isinstance(body.right, A.Name)
            and self.structural.get(body.right.id) == "capacity"
            and self._charged_set(body.left.args[0], pr)
        ):
            return "capacity"
        return "filter"

    def _charged_set(self, e: A.Expr, pr: PlannedRule) -> bool:
        """``ordered``, or ``{p in ordered where cond}`` with a static cond."""
        if _is_ordered(e):
            return True
        if isinstance(e, A.SetComp) and _is_ordered(e.domain):
            if e.cond is None:
                return True
            if not self.compiler.is_dynamic(e.cond):
                cond, var = self.compiler.compile(e.cond), e.var
                prev = pr.charged
                if prev is not None and prev is not cond:
                    return False
                pr.charged = lambda ctx, p, cond=cond, var=var: bool(cond(ctx, {var: p}))
                return True
        return False


def _is_ordered(e: A.Expr) -> bool:
    return isinstance(e, A.Name) and e.id == "ordered"


#: the plan of each pack object, for as long as something else (an engine)
#: holds the plan: a long-running process (a batch worker) that loads pack
#: after pack keeps only the plans in use, not one per pack ever loaded
_PLANS: "weakref.WeakValueDictionary[int, Plan]" = weakref.WeakValueDictionary()


def plan_for(pack: Pack) -> Plan:
    """The (cached) plan of a pack object."""
    p = _PLANS.get(id(pack))
    if p is None or p.pack is not pack:
        p = Plan(pack)
        _PLANS[id(pack)] = p
    return p


class PlannedEngine(Engine):
    """The engine of a system whose decision is a set of orders the planner
    enumerates and checks (Commands & Colors' cards, ``decide.SetEngine``):
    the pack's rules planned (``plan``) when the engine is made, before the
    scenario is checked against the pack."""

    def __init__(self, scenario, pack):
        System.for_pack(pack)  # a pack no system plays: the first error, as for every engine
        self.plan: Plan = plan_for(pack)
        self.compiler = self.plan.compiler
        super().__init__(scenario, pack)
