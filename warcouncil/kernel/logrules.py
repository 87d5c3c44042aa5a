"""A pack's rules judged over a turn log (``kernel/log.py``).

A rule ``forall x in D: φ`` over the entries of a log is judged element by
element, so that a violation names the entry that breaks it; any other rule
is judged over the whole log. A rule is **causal** when its body reads no
builtin constant of the history (``reads turn.history``) but through its
variable: it judges each entry by the entries before it alone, so an entry
just appended is judged alone. Its domain is known without asking it when
it is a builtin constant whose meaning the family marks with
``entries_of(kind)``: the log's entries of one kind (``None``: every entry).

``LogRules`` compiles a pack's rules so (its history loops installed,
``kernel/loops.py``) and judges them: ``breaks`` whether an entry just
appended breaks one, asking the rules that may judge an entry of its kind
by groups that read the same (``groups``) and keeping a group's verdict in
the answer's caches by what it reads (``kernel/log.py``, ``judgement_key``,
or ``AnswerCaches.by_places``); ``none_broken`` and ``broke`` a group's or
a rule's verdict; ``broken`` every (rule, element) broken, ``first_broken``
the one at the earliest entry (``reject``: a log given as input breaking
one is bad input there), ``violation`` one of them for people (its
message, its citation, what was measured), ``violations`` all of them so.
``Alike`` says which branches of a walk over logs the rules (and some
defines) judge alike from then on, for the kernel's chance walk to merge.

Besides ``kernel/log.py``'s, ``breaks`` asks two things of an entry:
``unrolled()``, is its outcome not rolled yet (its rules about the outcome
then mostly read that it has none: judged at once, cheaper than a key that
reads the outcome), and ``stands_on(table)``, do its pieces stand, before
and after it, on the log's ``table`` (a verdict is then kept by the places
it read there).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..dsl import ast as A
from ..dsl.template import render as render_template
from ..errors import Location, WarcouncilError
from .log import LogCtx, TurnLog, entry_key, history_number, judgement_key
from .loops import UNSUMMARISED, o_plain

#: ``LogRule.kind`` of a rule over every entry of the log
EVERY = "*"
_TABLE_ONLY, _FIXED_ONLY = frozenset({"table"}), frozenset({"fixed"})


def entries_of(kind: str | None) -> Callable:
    """Mark a builtin constant's meaning as the log's entries of ``kind``
    (None: every entry), in order: a rule over it judges no entry of another
    kind. A family's builtins use it: ``WM.constant("attempts",
    entries_of("orders")(...))``."""
    def mark(fn: Callable) -> Callable:
        fn.entries_kind = EVERY if kind is None else kind
        return fn
    return mark


@dataclass(frozen=True)
class LogRule:
    id: str
    decl: A.RuleDecl
    source: str
    quote: str
    var: str | None
    domain: Any
    body: Any
    causal: bool = False  # judges each entry by the entries before it alone
    reads: frozenset | None = None  # what its body reads (``PackReads.of``); None: unknown reach
    #: the entries its domain holds: a kind (``entries_of``), ``EVERY``, None: ask the domain
    kind: str | None = None
    #: a causal rule of a kind, reading the history's outcomes (judged alone),
    #: whose body is a history loop judged incrementally (``not exists p in
    #: before(o): ...``, ``forall p in before(o): ...``): (the loop's ``judge``,
    #: is the loop negated), which ``broke`` asks directly
    quick: Any = None


class LogRules:
    """The rules of ``pack`` over a turn log, compiled by ``compiler``, with
    what they read (``reads``, ``PackReads``) and their history loops
    (``loops``, ``HistoryLoops``)."""

    def __init__(self, pack, compiler, reads, loops) -> None:
        self.pack, self.compiler, self.reads, self.loops = pack, compiler, reads, loops
        #: the constants that read the whole log (a rule whose body reads none of
        #: them, its variable aside, judges each entry by what came before it)
        self.log_wide = frozenset(n for n in pack.vocabulary.constants if reads.builtin(n) == "history")
        self.rules = [self._rule(rid, r) for rid, r in pack.rules.items()]
        #: the rules as ``groups`` gives them: those that measure nothing
        #: first, so an entry a history loop forbids is found before the
        #: setting is measured
        self.quick_first = sorted(self.rules, key=lambda r: r.reads is None or "table" in r.reads)

    def _rule(self, rid: str, r: A.RuleDecl) -> LogRule:
        source, quote = self.pack.source_of(r)
        body = self.compiler.fold(r.body)
        c = self.compiler.compile
        self.loops.install(body)
        if isinstance(body, A.Quant) and body.kind == "forall":
            causal = not (self._names(body.body) - {body.var}) & self.log_wide
            dom = body.domain
            kind = None
            if isinstance(dom, A.Name) and dom.id not in self.pack.defines:
                kind = getattr(self.compiler.meanings.constants.get(dom.id), "entries_kind", None)
            reads = self.reads.of([body.body]) if causal else None
            direct = causal and kind is not None and (reads is None or {"history", "outcome"} <= reads)
            return LogRule(rid, r, source, quote, body.var, c(body.domain), c(body.body), causal, reads, kind,
                           self.loops.judge_of(body.body, body.var) if direct else None)
        return LogRule(rid, r, source, quote, None, None, c(body))

    def _names(self, e: A.Expr, seen: set | None = None) -> set[str]:
        """The names an expression reads, through the defines it calls."""
        seen = set() if seen is None else seen
        out = set(A.referenced(e))
        for name in list(out):
            d = self.pack.defines.get(name)
            if d is not None and name not in seen:
                seen.add(name)
                out |= self._names(d.body, seen) - set(d.params)
        return out

    def breaks(self, log: TurnLog, at: Any, cache, sharing: bool, contact: Callable) -> bool:
        """Does ``at``, just appended to ``log``, break a rule? (what
        ``broken(ctx, at)`` finds, without explaining it.) The rules are
        asked by group (``groups``): a rule alone, or the causal rules of
        one kind of entry that read the same, judged together; when
        ``sharing`` (the branches of a plan), a group's verdict is kept in
        ``cache`` (``AnswerCaches``) once for them all, by the places they
        read when they read the table alone (``by_places``, ``contact``: do
        two pieces touch), else by what they read (``judgement_key``), so
        that an entry judged again on another branch costs one look-up per
        group. The group that last broke is asked first next time (the entry
        after one a history loop stops is stopped by the same rule)."""
        ctx = LogCtx(log, None, cache.defines)
        before = log.parent if log.parent is not None else log.but(log.entries[:-1])
        items = cache.groups.get(at.kind)
        if items is None:
            items = cache.groups[at.kind] = self.groups(at.kind)
        for i, (rules, reads) in enumerate(items):
            if reads is None:
                broke = self.broke(ctx, rules[0], at, before)
            elif not sharing or ("outcome" in reads and "history" not in reads and at.unrolled()):
                broke = not self.none_broken(rules, at, log, ctx)
            elif reads == _TABLE_ONLY and at.stands_on(log.table):
                # (rules that measure alone: kept by the places they read, so that
                # the branches where those pieces stand alike share it; an entry
                # that moves its pieces from another table is keyed by both tables,
                # below: what it read of the other is not recorded, and the same
                # entry unmoved on this table may be judged otherwise)
                key = (("rules@", id(rules)), log.side, entry_key(at, _FIXED_ONLY))
                broke = not cache.by_places(key, log.table, lambda: self.none_broken(rules, at, log), contact)
            else:
                key = (id(rules), judgement_key("rule", reads, at, before, cache.histories))
                ok = cache.verdicts.get(key)
                if ok is None:
                    ok = cache.verdicts[key] = self.none_broken(rules, at, log, ctx)
                broke = not ok
            if broke:
                if i:
                    items.insert(0, items.pop(i))
                return True
        return False

    def groups(self, kind: str) -> list:
        """The rules that may judge an entry of ``kind``: ``(rules,
        reads)``, ``reads`` None for a rule judged alone (``broke``). Kept
        together: causal rules of one kind of entry reading the same (a
        verdict a family may keep by ``judgement_key``: no outcome of the
        history, nothing of unknown reach), those that read no setting first."""
        alone, groups = [], {}
        for r in self.quick_first:
            if r.causal and r.kind not in (None, EVERY, kind):
                continue
            if not r.causal or r.reads is None or r.kind is None or {"history", "outcome"} <= r.reads:
                alone.append(([r], None))
            else:
                groups.setdefault(r.reads, []).append(r)
        shared = sorted(((rs, reads) for reads, rs in groups.items()), key=lambda g: "table" in g[1])
        return alone + shared

    @staticmethod
    def none_broken(rules: list, at: Any, log: TurnLog, ctx: LogCtx | None = None) -> bool:
        """Does ``at``, the last entry of ``log``, break none of ``rules``
        (causal rules of its kind), judged on ``ctx`` or a fresh context
        (one that records what it reads: ``AnswerCaches.by_places``)?"""
        ctx = LogCtx(log, fresh=True) if ctx is None else ctx
        for r in rules:
            try:
                if not r.body(ctx, {r.var: at}):
                    return False
            except (AttributeError, TypeError) as exc:
                raise cannot_judge(r, exc) from None
        return True

    @staticmethod
    def broke(ctx: LogCtx, r: LogRule, at: Any, before: TurnLog) -> bool:
        """Does rule ``r``, judged alone, break at ``at``, the last entry of
        ``ctx.log``, appended to ``before``?"""
        try:
            if r.var is None:
                return not r.body(ctx, {})
            if not r.causal:
                return not all(r.body(ctx, {r.var: el}) for el in r.domain(ctx, {}))
            if r.kind is None and at not in r.domain(ctx, {}):
                return False
            quick = r.quick
            # (a history loop: its summary asked directly, ``at`` being the last
            # entry of ``ctx.log``, untraced; the body when it cannot tell)
            v = quick[0](ctx, at, ctx.log, before) if quick is not None and ctx.log.parent is before else None
            if v is not None:
                return v if quick[1] else not v
            return not r.body(ctx, {r.var: at})
        except (AttributeError, TypeError) as exc:
            raise cannot_judge(r, exc) from None

    def broken(self, ctx: LogCtx, at: Any = None) -> list[tuple[LogRule, Any]]:
        """Every (rule, element) broken on ``ctx.log``, in the pack's rule
        order; with ``at`` (its last entry, just appended to a log judged
        before), a causal rule is judged at ``at`` alone, any other over the
        whole log."""
        out = []
        for r in self.rules:
            try:
                if r.var is None:
                    if not r.body(ctx, {}):
                        out.append((r, None))
                    continue
                for el in r.domain(ctx, {}):
                    if at is not None and r.causal and el is not at:
                        continue
                    if not r.body(ctx, {r.var: el}):
                        out.append((r, el))
            except (AttributeError, TypeError) as exc:  # a house rule asking what an entry does not have
                raise cannot_judge(r, exc) from None
        return out

    def violations(self, log: TurnLog, at: Any = None, static: dict | None = None) -> list[dict]:
        """Every violation of ``log`` for people (each (rule, element)
        ``broken`` finds, as ``violation`` gives it); with ``at``, the
        violations at that entry, as ``broken`` judges them. ``static``:
        the answer's memo of the defines (``LogCtx``)."""
        return [self.violation(r, el, log) for r, el in self.broken(LogCtx(log, None, static), at)]

    def first_broken(self, log: TurnLog, static: dict | None = None) -> tuple[LogRule, Any] | None:
        """The (rule, element) broken at the earliest entry of ``log`` (the
        first in log order, the pack's rule order at one entry; a rule broken
        over the whole log or at an element with no ``place`` after them
        all), or None when the log breaks no rule."""
        broken = self.broken(LogCtx(log, None, static))
        end = len(log.entries)

        def place(b: tuple) -> int:
            p = getattr(b[1], "place", None)
            return p if isinstance(p, int) else end
        return min(broken, key=place, default=None)

    def reject(self, log: TurnLog, what: str, top: Location, hint: str = "", static: dict | None = None) -> None:
        """Bad input (``WarcouncilError``) when ``log``, given as input
        (``what``: "the log given with --after"), breaks a rule: its first
        violation (``first_broken``), placed at the element's ``where``
        (an entry read from a file) or else at ``top``, citing the rule's
        document and sentence, then ``hint``."""
        broken = self.first_broken(log, static)
        if broken is None:
            return
        r, el = broken
        v = self.violation(r, el, log)
        quote = f": “{v['quote']}”" if v["quote"] else ""
        raise WarcouncilError(f"{what} is illegal: {v['message']} ({r.id})", getattr(el, "where", None) or top,
                              hint=f"{self.pack.document_name(v['source'])}{quote}" + (f"; {hint}" if hint else ""))

    @staticmethod
    def violation(r: LogRule, el: Any, log: TurnLog) -> dict:
        """Rule ``r`` broken at ``el`` (None: over the whole log), as
        ``check --json`` gives it: the pieces (an entry's ``pieces()``), the
        message, the citation, what was measured (``trace``)."""
        trace: list[str] = []
        ctx = LogCtx(log, trace)
        if r.var is None:
            r.body(ctx, {})
            pieces: list[str] = []
        else:
            r.body(ctx, {r.var: el})
            named = getattr(el, "pieces", None)
            pieces = sorted(set(named())) if callable(named) else [str(el)]
        values = {"pieces": ", ".join(pieces)}
        if r.var is not None:
            values[r.var] = str(el)
        msg = render_template(r.decl.message, values) if r.decl.message else \
            f"{', '.join(pieces) or 'the log'}: breaks {r.id}"
        v = {"rule": r.id, "pieces": pieces, "message": msg, "source": r.source, "quote": r.quote}
        if trace:
            v["measurements"] = trace
        return v


class Alike:
    """Which branches of a walk appending entries of ``kind`` to a log
    (the kernel's chance walk, kernel/chance.py) are alike in all that the
    judgements of the entries still to come read: the pack's rules that
    may judge such an entry (``rules``) and the defines ``names`` (e.g. an
    order's target and dice), by what they read (``PackReads``).

    ``history``: the reads by which a branch's history is keyed (``near``:
    which entries were made, in which order, and what else of them those
    judgements read), its history loops aside (kernel/loops.py), ``loops``
    ((judge, shape) each); ``history`` is None, no branch merged, when a
    judgement reads something of unknown reach, judges the whole log, or
    reads the outcomes of the history other than through a history loop
    judged from its summary (e.g. Warmaster's stop rules). ``keys``: the
    loops' summaries, then what they meet of the entries to come."""

    def __init__(self, rules: LogRules, names, kind: str) -> None:
        self.history: frozenset | None = None
        loops = []
        reads = [rules.reads.define(n) for n in names if n in rules.pack.defines]
        for r in rules.rules:
            if r.causal and r.kind not in (None, EVERY, kind):
                continue
            if r.quick is not None:
                shape = getattr(r.quick[0], "shape", None)
                loops.append((r.quick[0], shape))
                reads.append(frozenset() if shape is not None else None)
                continue
            reads.append(r.reads if r.causal and r.var is not None else None)
        self.loops = tuple(loops)
        if None not in reads:
            history = frozenset().union(*[rd for rd in reads if "history" in rd])
            if "outcome" not in history:
                self.history = history

    def near(self, log: TurnLog, cache) -> Any:
        """The history of ``log`` as the judgements read it, the loops
        aside (``cache``: the answer's ``AnswerCaches``); a family adds
        its setting as it stands (Warmaster: the table)."""
        return history_number(log, self.history, cache.histories) if self.history else None

    def keys(self, log: TurnLog, appended, cache, plain: dict):
        """What makes two branches with the same ``near`` alike (the chance
        walk's ``keys``, cheapest first): the same summaries of the history
        loops (when each has one), else the same that the loops meet of the
        entries to come (``meets``); without loops, nothing more.
        ``appended``: the entries to come, each once, as made after ``log``
        and before their roll: (a key of what it is, the entry, ``log`` with
        it appended); ``plain``: by that key, are the loops' parts about the
        entry plain data (``loops.o_plain``), kept by the walk."""
        if not self.loops:
            yield ()
            return
        ctx = LogCtx(log, None, cache.defines)
        mine = tuple(judge.summary(log, ctx) for judge, _ in self.loops)
        if not any(s is UNSUMMARISED for s in mine):
            try:  # (summaries holding a value that cannot be hashed are no key)
                hash(mine)
            except TypeError:
                mine = None
            if mine is not None:
                yield mine
        meets = self.meets(log, appended, ctx, plain)
        if meets is not None:
            yield None, meets

    def meets(self, log: TurnLog, appended, ctx: LogCtx, plain: dict) -> tuple | None:
        """For each history loop and each entry to come, whether ``log``
        holds an entry that meets it (an earlier failure of its character,
        of its unit...): an entry added later meets it alike in merged
        branches, so these and ``near`` are all that the loops' verdicts
        from here on read. None when a loop cannot be judged so (its part
        about the entry reads more than what the entry is, or is no plain
        data)."""
        found = []
        for what, o, now in appended:
            ctx.log = now
            try:
                ok = plain.get(what)
                if ok is None:
                    ok = plain[what] = all(o_plain(shape, ctx, o) for _, shape in self.loops)
                if not ok:
                    return None
                for judge, _ in self.loops:
                    v = judge(ctx, o, now, log)
                    if v is None:
                        return None
                    found.append(v)
            except Exception:  # (judged by the kernel on the branch itself)
                return None
        return tuple(found)


def cannot_judge(r: LogRule, exc: Exception) -> WarcouncilError:
    return WarcouncilError(f"rule {r.id} cannot be judged on this log: {exc}", r.decl.loc)


__all__ = ["EVERY", "Alike", "LogRule", "LogRules", "entries_of", "cannot_judge"]
