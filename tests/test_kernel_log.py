"""The kernel's turn log (kernel/log.py), its history loops judged along it
(kernel/loops.py) and a pack's rules judged over it (kernel/logrules.py), on
a toy family of no game: entries of two kinds (``move``, ``shot``), each
made by a player (``x``, ``y``, ``z``) with a die roll, appended one by one.
Its pack declares its builtins with their read classes; two are marked
domains of history loops (``loops.prefix``), two the log's entries
(``logrules.entries_of``). The incremental judgement must equal the
kernel's plain judgement of the same rule on every log."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warcouncil.dsl import ast as A
from warcouncil.dsl.pack import load_pack
from warcouncil.kernel import loops
from warcouncil.kernel.builtins import KERNEL_MEANINGS, Meanings
from warcouncil.kernel.caches import AnswerCaches
from warcouncil.errors import Location, WarcouncilError
from warcouncil.kernel.evaluate import Compiler
from warcouncil.kernel.game import IllegalAction, refuse, refusing
from warcouncil.kernel.log import FIXED_PARTS, DefinesKey, LogCtx, TurnLog, entry_key, history_number, judgement_key
from warcouncil.kernel.logrules import EVERY, Alike, LogRules, entries_of
from warcouncil.kernel.reads import PackReads

#: the toy's rules: name -> the body judged at each entry ``o`` of the log
RULES = {
    "same-player-before": "exists p in prior(o): who(p) == who(o)",
    "low-roll-by-the-same": "exists p in prior(o): who(p) == who(o) and rolled(p) < 3",
    "shots-never-fall": "forall p in shots_before(o): rolled(p) <= rolled(o)",
    "no-shot-by-another": "not (exists p in prior(o): who(p) != who(o) and kind_of(p) == \"shot\")",
    "through-a-define": "exists p in prior(o): same(p, o) and rolled(p) >= 4",
    "not-of-the-shape": "exists p in prior(o): who(p) == who(o) or rolled(p) == 6",
    "over-every-entry": "exists p in log: place_of(p) < place_of(o) and who(p) == who(o)",
}
#: the rules whose loop is judged from the summary (the others: as written)
INCREMENTAL = {"same-player-before", "low-roll-by-the-same", "shots-never-fall", "no-shot-by-another",
               "through-a-define"}

PACK = """pack toylog "Toy log"
document t "rules.txt" title "The toy log"

builtin log -> set[any] reads turn.history "every entry so far"
builtin shots -> set[any] reads turn.history "the shots so far"
builtin prior(any) -> set[any] reads turn.history "the entries before this one"
builtin shots_before(any) -> set[any] reads turn.history "the shots before this one"
builtin who(any) -> str reads turn.fixed.by "who made the entry"
builtin kind_of(any) -> str reads turn.fixed.kind "the entry's kind"
builtin rolled(any) -> int reads turn.outcome "the entry's die"
builtin place_of(any) -> int reads turn.history "the entry's place in the log"

define t.same
    from t "An entry is made by a player."
    same(p, o) := who(p) == who(o)

define t.late
    from t "An entry is made by a player."
    late(o) := place_of(o) >= 3 and rolled(o) > 1

define t.crowded
    from t "An entry is made by a player."
    crowded(o) := count(log) > 3

define t.after-a-late-one
    from t "An entry is made by a player."
    after_a_late_one(o) := exists p in prior(o): place_of(p) >= 3
"""


class ToyEntry:
    """An entry of the toy: ``kind``, who made it, its roll; ``place`` in
    the log and ``index`` among the entries of its kind."""

    def __init__(self, kind: str, by: str, roll: int, place: int, index: int) -> None:
        self.kind, self.by, self.roll, self.place, self.index = kind, by, roll, place, index

    def what(self) -> tuple:
        return (self.kind, self.by, (), None, None)

    def outcome(self, own: str = "") -> tuple:
        return (None if own == "roll" else self.roll,)

    def tables(self) -> tuple:
        return (None, None)

    def pieces(self) -> list[str]:
        return [self.by]

    def unrolled(self) -> bool:
        return self.roll is None

    def stands_on(self, table) -> bool:
        return True

    def __repr__(self) -> str:
        return f"{self.kind}:{self.by}:{self.roll}"


class ToyLog(TurnLog):
    table = None  # (no table: nothing is measured)

    def plus(self, kind: str, by: str, roll: int) -> "ToyLog":
        e = ToyEntry(kind, by, roll, len(self.entries), len(self.of(kind)))
        return ToyLog(self.entries + [e], self.side, self)

    def but(self, entries: list) -> "ToyLog":
        return ToyLog(entries, self.side)


def _meanings() -> Meanings:
    m = Meanings("the toy log")
    m.constant("log", entries_of(None)(lambda ctx, s: ctx.log.whole))
    m.constant("shots", entries_of("shot")(lambda ctx, s: ctx.log.of("shot")))
    m.function("prior", loops.prefix(None)(lambda ctx, s, a: tuple(ctx.log.entries[:a[0].place])))
    m.function("shots_before", loops.prefix("shot")(
        lambda ctx, s, a: tuple(p for p in ctx.log.of("shot") if p.index < a[0].index)))
    m.function("who", lambda ctx, s, a: a[0].by)
    m.function("kind_of", lambda ctx, s, a: a[0].kind)
    m.function("rolled", lambda ctx, s, a: a[0].roll)
    m.function("place_of", lambda ctx, s, a: a[0].place)
    return KERNEL_MEANINGS | m


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """(the closures of the rules judged as written, and judged with the
    loops installed, the ``HistoryLoops``), each by rule name."""
    d: Path = tmp_path_factory.mktemp("toylog")
    (d / "rules.txt").write_text("An entry is made by a player.\n")
    text = PACK + "".join(f"\nrule toy.{name}\n    from t \"An entry is made by a player.\"\n"
                          f"    require forall o in log: {body}\n" for name, body in RULES.items())
    (d / "00-pack.wc").write_text(text)
    pack = load_pack([d / "00-pack.wc"])
    plain, judged = Compiler(pack, _meanings()), Compiler(pack, _meanings())
    hl = loops.HistoryLoops(judged, PackReads(pack, lambda name: None, judged.symbols))
    out_plain, out_judged = {}, {}
    for name in RULES:
        body = pack.rules[f"toy.{name}"].body
        assert isinstance(body, A.Quant) and body.kind == "forall"
        hl.install(body.body)
        out_plain[name] = plain.compile(body.body)
        out_judged[name] = judged.compile(body.body)
    return out_plain, out_judged, hl, pack


def _log(entries) -> ToyLog:
    log = ToyLog([], "x")
    for kind, by, roll in entries:
        log = log.plus(kind, by, roll)
    return log


def _verdicts(rules, log: ToyLog) -> dict:
    """Each rule's verdict at each entry of ``log``, each judged on the log
    up to it (as a family judges an entry just appended)."""
    chain = []
    while log is not None and log.entries:
        chain.append(log)
        log = log.parent
    out = {}
    for name, f in rules.items():
        out[name] = [f(LogCtx(lg), {"o": lg.entries[-1]}) for lg in reversed(chain)]
    return out


LOG = [("move", "x", 2), ("shot", "y", 5), ("move", "y", 1), ("shot", "x", 3), ("shot", "x", 6), ("move", "z", 4)]


def test_the_loops_of_the_shape_are_taken_and_no_other(toy):
    _, _, hl, pack = toy
    taken = {name for name in RULES if hl.judge_of(pack.rules[f"toy.{name}"].body.body, "o") is not None
             or any(id(n) in hl.taken for n in A.walk(pack.rules[f"toy.{name}"].body.body))}
    assert taken == INCREMENTAL
    assert len(hl.taken) == len(INCREMENTAL)


def test_a_known_log_is_judged_exactly(toy):
    plain, judged, _, _ = toy
    want = {
        "same-player-before": [False, False, True, True, True, False],
        "low-roll-by-the-same": [False, False, False, True, True, False],
        # (a move's index counts the moves: the shots before move 2 are those of index < 2)
        "shots-never-fall": [True, True, False, False, True, False],
        "no-shot-by-another": [True, True, True, False, False, False],
        "through-a-define": [False, False, True, False, False, False],
        "not-of-the-shape": [False, False, True, True, True, True],
        "over-every-entry": [False, False, True, True, True, False],
    }
    log = _log(LOG)
    assert _verdicts(judged, log) == want
    assert _verdicts(plain, log) == want
    # the summaries were made along the chain, one per log and loop
    assert sum(1 for k in log.parent.sigs if isinstance(k, tuple) and k[0] == "incremental") == len(INCREMENTAL) - 1


def test_the_judge_asks_the_summary_directly(toy):
    """``judge_of``: the loop's verdict from its summary, as the body's."""
    plain, _, hl, pack = toy
    log = _log(LOG)
    judge, negated = hl.judge_of(pack.rules["toy.no-shot-by-another"].body.body, "o")
    assert negated
    got = judge(LogCtx(log), log.entries[-1], log, log.parent)
    assert got is True and plain["no-shot-by-another"](LogCtx(log), {"o": log.entries[-1]}) is False


def test_a_log_given_whole_or_traced_is_judged_as_written(toy):
    plain, judged, _, _ = toy
    chained = _log(LOG)
    whole = ToyLog(list(chained.entries), "x")
    for name in RULES:
        o = whole.entries[-1]
        assert judged[name](LogCtx(whole), {"o": o}) == plain[name](LogCtx(whole), {"o": o}), name
        assert judged[name](LogCtx(chained, []), {"o": o}) == plain[name](LogCtx(chained), {"o": o}), name
    assert not any(isinstance(k, tuple) and k[0] == "incremental" for k in whole.sigs)


entries = st.lists(st.tuples(st.sampled_from(["move", "shot"]), st.sampled_from("xyz"), st.integers(1, 6)),
                   max_size=9)


@settings(max_examples=200, deadline=None)
@given(entries)
def test_the_incremental_judgement_is_the_kernels_plain_judgement(toy, log_entries):
    plain, judged, _, _ = toy
    log = _log(log_entries)
    assert _verdicts(judged, log) == _verdicts(plain, log)


def test_an_entry_is_keyed_by_what_is_read_of_it():
    a = ToyEntry("shot", "x", 5, 0, 0)
    b = ToyEntry("shot", "x", 2, 1, 1)
    c = ToyEntry("shot", "y", 5, 2, 2)
    assert FIXED_PARTS == ("fixed.kind", "fixed.by", "fixed.units", "fixed.action", "fixed.toward")
    fixed, by, rolled = frozenset({"fixed"}), frozenset({"fixed.by"}), frozenset({"outcome"})
    assert entry_key(a, fixed) == entry_key(b, fixed) == ("shot", "x", (), None, None)
    assert entry_key(a, by) == ("parts", None, "x", None, None, None) != entry_key(c, by)
    assert entry_key(a, rolled) == ("shot", "x", (), None, None, 5) != entry_key(b, rolled)
    assert entry_key(a, rolled, "roll") == entry_key(b, rolled, "roll")  # (the roll being worked out: left out)
    assert a.__dict__["_what"] == ("shot", "x", (), None, None)  # (kept on the entry)


def test_a_history_is_one_number_for_logs_alike_by_what_is_read():
    known: dict = {}
    by = frozenset({"history", "fixed.by"})
    one = _log([("move", "x", 2), ("shot", "y", 5)])
    same = _log([("shot", "x", 6), ("move", "y", 1)])  # (other kinds and rolls: not read)
    other = _log([("move", "y", 2), ("shot", "x", 5)])
    assert history_number(one, by, known) == history_number(same, by, known) == 2
    assert history_number(other, by, known) == 4
    assert history_number(one.parent, by, known) == 1 and history_number(ToyLog([], "x"), by, known) == 0
    assert history_number(ToyLog(list(one.entries), "x"), by, known) == 2  # (given whole: the same number)
    rolled = frozenset({"history", "outcome"})
    assert history_number(one, rolled, known) != history_number(same, rolled, known)
    e = ToyEntry("move", "z", 3, 2, 1)
    assert judgement_key("r", by, e, one, known) == judgement_key("r", by, e, same, known) \
        == ("r", "x", ("parts", None, "z", None, None, None), 2)
    assert judgement_key("r", frozenset({"fixed.by"}), e, other, known)[3] is None  # (no history read)


#: rules judged by ``LogRules``: over shots alone (causal), and one reading the
#: whole log (not causal: judged over the whole log at every entry)
MORE = """
rule toy.shots-rise
    from t "An entry is made by a player."
    require forall o in shots: not (exists p in shots_before(o): who(p) == who(o) and rolled(p) <= rolled(o))
    message "{o}: {pieces} shot lower before"

rule toy.few
    from t "An entry is made by a player."
    require forall o in log: count(log) <= 5

rule toy.no-ones
    from t "An entry is made by a player."
    require forall o in log: rolled(o) != 1
"""


@pytest.fixture(scope="module")
def judged(tmp_path_factory) -> LogRules:
    d: Path = tmp_path_factory.mktemp("toyrules")
    (d / "rules.txt").write_text("An entry is made by a player.\n")
    (d / "00-pack.wc").write_text(PACK + MORE + "\nrule toy.same-player-before\n"
                                  "    from t \"An entry is made by a player.\"\n"
                                  f"    require forall o in log: {RULES['same-player-before']}\n")
    pack = load_pack([d / "00-pack.wc"])
    compiler = Compiler(pack, _meanings())
    reads = PackReads(pack, lambda name: None, compiler.symbols)
    return LogRules(pack, compiler, reads, loops.HistoryLoops(compiler, reads))


def test_a_packs_rules_over_a_log(judged):
    by_id = {r.id: r for r in judged.rules}
    assert (by_id["toy.shots-rise"].kind, by_id["toy.shots-rise"].causal) == ("shot", True)
    assert by_id["toy.shots-rise"].reads == {"history", "outcome"} and by_id["toy.shots-rise"].quick[1] is True
    assert (by_id["toy.few"].kind, by_id["toy.few"].causal) == (EVERY, False)
    assert by_id["toy.same-player-before"].quick is None  # (not negated: the body, an exists, asked as written)
    assert [([r.id for r in rules], reads) for rules, reads in judged.groups("shot")] == \
        [(["toy.shots-rise"], None), (["toy.few"], None), (["toy.no-ones"], {"outcome"}),
         (["toy.same-player-before"], {"history"})]  # (what is fixed in one answer: no class read)
    # a move is judged by no rule over shots
    assert [[r.id for r in rules] for rules, _ in judged.groups("move")] == \
        [["toy.few"], ["toy.no-ones"], ["toy.same-player-before"]]
    log = _log(LOG)
    broken = [(r.id, repr(el)) for r, el in judged.broken(LogCtx(log))]
    assert broken == [("toy.shots-rise", "shot:x:6")] + [("toy.few", repr(e)) for e in log.entries] + \
        [("toy.no-ones", "move:y:1"), ("toy.same-player-before", "move:x:2"), ("toy.same-player-before", "shot:y:5"),
         ("toy.same-player-before", "move:z:4")]
    at = log.entries[4]
    upto = log.parent
    assert [(r.id, repr(el)) for r, el in judged.broken(LogCtx(upto), at)] == [("toy.shots-rise", "shot:x:6")]
    v = judged.violation(by_id["toy.shots-rise"], at, upto)
    assert v == {"rule": "toy.shots-rise", "pieces": ["x"], "message": "shot:x:6: x shot lower before",
                 "source": "rules.txt", "quote": "An entry is made by a player."}
    assert judged.violation(by_id["toy.few"], log.entries[0], log)["message"] == "x: breaks toy.few"


def test_a_logs_violations_and_the_first_broken(judged):
    """``violations``: each (rule, element) ``broken`` finds, for people;
    ``first_broken``: the one at the earliest entry (log order first, the
    pack's rule order at one entry), ``reject`` a log given as input that
    breaks one; ``refuse``: an action refused with the
    violations at the entry it appends, ``refusing``: bad input refuses it."""
    log = _log(LOG)
    assert [(v["rule"], v["pieces"]) for v in judged.violations(log)] == \
        [("toy.shots-rise", ["x"])] + [("toy.few", [e.by]) for e in log.entries] + \
        [("toy.no-ones", ["y"]), ("toy.same-player-before", ["x"]), ("toy.same-player-before", ["y"]),
         ("toy.same-player-before", ["z"])]
    upto, at = log.parent, log.entries[4]
    shot = {"rule": "toy.shots-rise", "pieces": ["x"], "message": "shot:x:6: x shot lower before",
            "source": "rules.txt", "quote": "An entry is made by a player."}
    assert judged.violations(upto, at) == [shot]
    r, el = judged.first_broken(log)
    assert (r.id, el) == ("toy.few", log.entries[0])  # (the rule order at one entry)
    four = _log(LOG[:4])  # (breaks no-ones at its third entry, same-player-before at its first two)
    r, el = judged.first_broken(four)
    assert (r.id, el) == ("toy.same-player-before", four.entries[0])
    assert judged.first_broken(_log([])) is None
    with pytest.raises(WarcouncilError) as bad:  # (a log given as input: bad input at its first violation)
        judged.reject(four, "the toy log", Location("toy.yaml", 1, 1), "say so")
    assert (bad.value.message, bad.value.location, bad.value.hint) == (
        "the toy log is illegal: x: breaks toy.same-player-before (toy.same-player-before)",
        Location("toy.yaml", 1, 1), "The toy log: “An entry is made by a player.”; say so")
    assert judged.reject(_log([]), "the toy log", Location("toy.yaml", 1, 1)) is None
    with pytest.raises(IllegalAction) as refused:
        refuse("x shoots", lambda: judged.violations(upto, at))
    assert (refused.value.message, refused.value.violations) == ("x shoots: shot:x:6: x shot lower before", [shot])
    assert judged.violations(four, four.entries[3]) == []  # (x's shot, 3: no rule broken)
    assert refuse("x shoots", lambda: judged.violations(four, four.entries[3])) is None
    with pytest.raises(IllegalAction) as refused:
        with refusing("z moves"):
            raise WarcouncilError("unknown piece id 'w'")
    assert (refused.value.message, refused.value.violations) == ("z moves: unknown piece id 'w'", [])


@settings(max_examples=100, deadline=None)
@given(entries)
def test_an_entry_just_appended_breaks_a_group_as_the_whole_judgement_says(judged, log_entries):
    """``broke`` (a rule alone) and ``none_broken`` (a group) at the last
    entry: what ``broken`` finds at that entry, rule by rule."""
    log = _log(log_entries)
    while log.entries:
        at, before, ctx = log.entries[-1], log.parent, LogCtx(log)
        want = {r.id for r, _ in judged.broken(LogCtx(log), at)}
        got = set()
        for rules, reads in judged.groups(at.kind):
            if reads is None:
                if judged.broke(ctx, rules[0], at, before):
                    got.add(rules[0].id)
            elif not judged.none_broken(rules, at, log, ctx):
                got |= {r.id for r in rules if not judged.none_broken([r], at, log)}
        assert got == want
        log = log.parent


def test_a_define_reading_the_history_only_through_calls_on_its_parameters(toy):
    """``PackReads.history_calls``: the history builtins a define calls on
    its own parameters (a cache keys its value by theirs); () when it reads
    no history; None when it reads it otherwise."""
    *_, pack = toy
    reads = PackReads(pack, lambda name: None)
    calls = reads.history_calls("late")
    assert [(c.func, [a.id for a in c.args]) for c in calls] == [("place_of", ["o"])]
    assert reads.history_calls("same") == ()
    assert reads.history_calls("crowded") is None  # (a history constant)
    assert reads.history_calls("after_a_late_one") is None  # (a call on another value, p)


def _defines_keys(pack):
    """A ``DefinesKey`` per (define names, the part of the outcome left out)."""
    compiler = Compiler(pack, _meanings())
    reads = PackReads(pack, lambda name: None, compiler.symbols)
    return compiler, {(names, own): DefinesKey("v", names, pack, reads, compiler, own)
                      for names, own in ((("late",), ""), (("late",), "roll"), (("crowded",), ""),
                                         (("late", "crowded"), ""))}


def test_a_value_of_defines_is_keyed_by_what_they_read(toy):
    """``DefinesKey``: ``late(o)`` reads the history only through
    ``place_of(o)`` (keyed by its value) and the entry's roll; ``crowded``
    reads the whole history (keyed by its number); with ``own``, the roll
    being worked out is left out."""
    *_, pack = toy
    _, keys = _defines_keys(pack)
    cache = AnswerCaches()
    one = _log([("move", "x", 2), ("shot", "y", 5), ("move", "x", 3), ("shot", "z", 4)])
    two = _log([("shot", "z", 6), ("shot", "z", 1), ("move", "y", 2), ("shot", "z", 4)])
    late, e1, e2 = keys[(("late",), "")], one.entries[-1], two.entries[-1]
    assert late.key(one, e1, cache) == (("v", False), "x", ("shot", "z", (), None, None, 4), ("calls", (3,)))
    assert late.key(one, e1, cache) == late.key(two, e2, cache)  # (other histories, the same place and roll)
    assert late.key(one.parent, one.parent.entries[-1], cache)[3] == ("calls", (2,))
    rolled = two.parent.plus("shot", "z", 1)
    assert late.key(two, e2, cache) != late.key(rolled, rolled.entries[-1], cache)
    unrolled = keys[(("late",), "roll")]
    assert unrolled.key(two, e2, cache) == unrolled.key(rolled, rolled.entries[-1], cache)
    crowded = keys[(("crowded",), "")]
    assert crowded.calls is None and crowded.key(one, e1, cache)[3] == history_number(one, crowded.history,
                                                                                     cache.histories)
    assert crowded.key(one, e1, cache) != crowded.key(two, e2, cache)  # (other entries before)
    assert keys[(("late", "crowded"), "")].calls is None  # (one reads the history otherwise: numbered)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["move", "shot"]), st.sampled_from("xyz"), st.integers(1, 6)),
                min_size=1, max_size=6))
def test_the_same_key_the_same_value(toy, log_entries):
    """Over drawn logs, entries appended with the same ``DefinesKey`` key
    get the same values of its defines (the roll left out: the dice's
    values are worked out for each roll, not checked here)."""
    *_, pack = toy
    compiler, keys = _DRAWN.setdefault("keys", _defines_keys(pack))
    log = _log(log_entries)
    while log.entries:
        e = log.entries[-1]
        for (names, own), k in keys.items():
            if not own:
                value = tuple(compiler.define_closure(n)(LogCtx(log), {"o": e}) for n in names)
                assert _DRAWN.setdefault(k.key(log, e, _DRAWN["cache"]), value) == value
        log = log.parent


#: the keys of the test above, and the values drawn under each
_DRAWN: dict = {"cache": AnswerCaches()}


#: one answer's caches shared by every log the next test draws: a verdict kept
#: by what its group reads must hold on any log alike in that
_SHARED = AnswerCaches()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["move", "shot"]), st.sampled_from("xyz"),
                          st.one_of(st.none(), st.integers(1, 6))), min_size=1, max_size=7))
def test_breaks_is_the_whole_judgement_at_the_entry_its_verdicts_shared_or_not(judged, log_entries):
    log = _log(log_entries)
    at = log.entries[-1]
    want = bool(judged.broken(LogCtx(log), at))
    assert judged.breaks(log, at, AnswerCaches(), False, None) is want
    assert judged.breaks(log, at, _SHARED, True, None) is want
    assert judged.breaks(log, at, _SHARED, True, None) is want  # (asked again: its groups' verdicts kept)


def test_breaks_keeps_a_groups_verdict_by_what_it_reads(judged):
    """Two logs alike in what each entry is, not in their rolls: the
    verdict of the group reading the history (what each entry is) is kept
    once for both."""
    cache = AnswerCaches()
    one = _log([("move", "x", 2), ("shot", "y", 5), ("move", "x", 3)])
    two = _log([("move", "x", 6), ("shot", "y", 4), ("move", "x", 5)])
    assert judged.breaks(one, one.entries[-1], cache, True, None) is False
    kept = sorted(k[1][2][-1] if k[1][3] is None else k[1][3] for k in cache.verdicts)
    assert kept == [2, 3]  # (no-ones by the roll, 3; same-player-before by the history's number, 2)
    assert judged.breaks(two, two.entries[-1], cache, True, None) is False
    assert len(cache.verdicts) == 3  # (another roll, 5: its own verdict; the same history: given again)
    assert [[r.id for r in rules] for rules, _ in cache.groups["move"]] == \
        [["toy.few"], ["toy.no-ones"], ["toy.same-player-before"]]
    first = _log([("move", "z", 2)])  # (no earlier entry by z: the last group breaks, and is asked first after)
    assert judged.breaks(first, first.entries[-1], cache, True, None) is True
    assert [[r.id for r in rules] for rules, _ in cache.groups["move"]][0] == ["toy.same-player-before"]


#: rules judging shots by the entry's roll and a history loop whose part
#: about ``o`` is plain (``Alike`` may merge branches), and a loop judged as
#: written, reading the history
ALIKE = """
rule toy.no-ones
    from t "An entry is made by a player."
    require forall o in log: rolled(o) != 1

rule toy.no-low-twice
    from t "An entry is made by a player."
    require forall o in log: not (exists p in prior(o): who(p) == who(o) and rolled(p) < 3)

rule toy.no-shot-by-another
    from t "An entry is made by a player."
    require forall o in log: not (exists p in prior(o): who(p) != who(o) and kind_of(p) == "shot")
"""


@pytest.fixture(scope="module")
def alike_rules(tmp_path_factory) -> LogRules:
    d: Path = tmp_path_factory.mktemp("toyalike")
    (d / "rules.txt").write_text("An entry is made by a player.\n")
    (d / "00-pack.wc").write_text(PACK + ALIKE)
    pack = load_pack([d / "00-pack.wc"])
    compiler = Compiler(pack, _meanings())
    reads = PackReads(pack, lambda name: None, compiler.symbols)
    return LogRules(pack, compiler, reads, loops.HistoryLoops(compiler, reads))


def _appended(log: ToyLog, ahead):
    """The shots to come by ``ahead``'s players, each made after ``log``, unrolled."""
    for by in ahead:
        now = log.plus("shot", by, None)
        yield by, now.entries[-1], now


def test_alike_branches_by_the_rules_loops(alike_rules, judged):
    """``Alike``: the history keyed by what the rules read (the loop
    judged as written: which entries were made, in order), the loop of the
    shape aside; a rule judging the whole log merges nothing; two logs
    whose loop summaries differ may still meet the shots to come alike."""
    assert Alike(judged, (), "shot").history is None  # (toy.few: the whole log)
    alike = Alike(alike_rules, (), "shot")
    assert alike.history == {"history"} and len(alike.loops) == 1  # (no-shot-by-another: as written)
    cache, plain = AnswerCaches(), {}
    one = _log([("shot", "x", 2), ("move", "y", 5), ("shot", "x", 1)])
    two = _log([("shot", "x", 1), ("move", "y", 5), ("shot", "x", 2)])
    other = _log([("shot", "x", 1), ("shot", "y", 5), ("shot", "x", 2)])
    assert alike.near(one, cache) == alike.near(two, cache) != alike.near(other, cache)
    k1, k2 = (list(alike.keys(lg, _appended(lg, "xyz"), cache, plain)) for lg in (one, two))
    assert k1 == k2 == [((True, (("x",), ("x",))),), (None, (True, False, False))]
    shorter = _log([("shot", "x", 2), ("move", "y", 5), ("shot", "x", 4)])
    k3 = list(alike.keys(shorter, _appended(shorter, "xyz"), cache, plain))
    assert k3[0] != k1[0] and k3[1] == k1[1]  # (another summary: they meet x's next shot alike)
    assert plain == {"x": True, "y": True, "z": True}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["move", "shot"]), st.sampled_from("xyz")), max_size=4),
       *[st.lists(st.integers(1, 6), min_size=4, max_size=4)] * 2,
       st.lists(st.tuples(st.sampled_from("xyz"), st.integers(1, 6)), min_size=1, max_size=3))
def test_alike_branches_are_judged_alike_from_then_on(alike_rules, made, rolls_a, rolls_b, shots):
    """Two logs of the same entries with other rolls (the same ``near``)
    that ``Alike`` finds alike (a key in common) judge every shot appended
    after them alike."""
    alike, cache, plain = Alike(alike_rules, (), "shot"), AnswerCaches(), {}
    a, b = (_log([(kind, by, r) for (kind, by), r in zip(made, rolls)]) for rolls in (rolls_a, rolls_b))
    assert alike.near(a, cache) == alike.near(b, cache)
    keys = [set(alike.keys(lg, _appended(lg, "xyz"), cache, plain)) for lg in (a, b)]
    if not keys[0] & keys[1]:
        return
    for by, roll in shots:
        a, b = a.plus("shot", by, roll), b.plus("shot", by, roll)
        assert bool(alike_rules.broken(LogCtx(a), a.entries[-1])) == bool(alike_rules.broken(LogCtx(b), b.entries[-1]))
