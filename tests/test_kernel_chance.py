"""The kernel's chance walk (kernel/chance.py) on its own, with a toy
process: a counter climbing by steps, each a die roll out of ``DEN`` ways
that succeeds with ``ways`` of them and then adds ``gain`` (the counter
stops at ``TOP``); a step is not attempted once the counter has reached
its ``cap``. Every answer is checked against a brute-force enumeration of
the steps' outcomes, in fractions, written here apart from the kernel."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from warcouncil.kernel.chance import Tree, best

DEN = 6
TOP = 3


class Toy:
    """Steps ``(ways, gain, cap)``; a state is the counter (0..TOP). The
    future of a state is the state alone, so states are alike when equal:
    ``near`` their parity (a coarse key), ``keys`` the state itself.
    Counters: successes, and the counter's gain; notes: attempted, and
    succeeded, in ways out of DEN. ``merge=False``: nothing merged."""

    def __init__(self, merge: bool = True):
        self.merge = merge
        self.asked: list = []  # (the states whose keys were asked)
        self.judged = 0

    def judge(self, state, node):
        ways, gain, cap = node.step
        self.judged += 1
        if state >= cap:
            return ((DEN, state, None, None),), (0, 0)
        return ((ways, min(state + gain, TOP), (1, gain), None),
                (DEN - ways, state, None, None)), (DEN, ways)

    def near(self, state, node):
        return state % 2 if self.merge else None

    def keys(self, state, node):
        self.asked.append(state)
        yield state


def brute(steps) -> tuple[dict, dict, list]:
    """The distributions of successes and of the gains, and each step's
    P(attempted) and P(success), by enumerating every path of outcomes."""
    succ, gains, notes = defaultdict(F), defaultdict(F), [[F(0), F(0)] for _ in steps]
    for path in itertools.product((True, False), repeat=len(steps)):
        p, state, n, g = F(1), 0, 0, 0
        for i, ((ways, gain, cap), ok) in enumerate(zip(steps, path)):
            if state >= cap:  # (not attempted: one outcome, counted on the path through "success")
                if not ok:
                    p = F(0)
                continue
            if all(path[i:]):  # (a step's notes counted once per beginning of the paths)
                notes[i][0] += p
                notes[i][1] += p * F(ways, DEN)
            p *= F(ways if ok else DEN - ways, DEN)
            if ok:
                state, n, g = min(state + gain, TOP), n + 1, g + gain
        if p:
            succ[n] += p
            gains[g] += p
    return dict(succ), dict(gains), [tuple(x) for x in notes]


def answer(walked):
    return walked.counters[0], walked.counters[1], walked.notes


def test_two_even_rolls_by_hand():
    """Two steps of 3 ways in 6, the second not attempted once the counter
    has reached 1: P(0) = 1/2 * 1/2, P(1) = 1/2 + 1/2 * 1/2; the second is
    attempted only after the first failed (1/2)."""
    [w] = Tree([[(3, 1, TOP), (3, 1, 1)]]).walk(Toy(), 0, DEN, (0, 0))
    assert w.counters[0] == {0: F(1, 4), 1: F(3, 4)}
    assert w.notes == [(F(1), F(1, 2)), (F(1, 2), F(1, 4))]


def test_merged_states_are_walked_once():
    """Four steps that always add nothing: every branch stands in state 0,
    so from the second step on each step is judged once, not 2^i times;
    ``keys`` is asked only where a ``near`` key was met before."""
    steps = [(2, 0, TOP)] * 4
    toy, plain = Toy(), Toy(merge=False)
    [merged] = Tree([steps]).walk(toy, 0, DEN, (0, 0))
    [walked] = Tree([steps]).walk(plain, 0, DEN, (0, 0))
    assert answer(merged) == answer(walked) == brute(steps)
    assert merged.counters[0] == {k: F(math.comb(4, k) * 2 ** k * 4 ** (4 - k), 6 ** 4) for k in range(5)}
    assert (toy.judged, plain.judged) == (1 + 1 + 1 + 1, 1 + 2 + 4 + 8)
    assert toy.asked == [0, 0, 0, 0, 0, 0]  # (the second state at each of nodes 1-3, then the first's)


def test_the_trie_judges_a_shared_beginning_once_and_prunes():
    """Three sequences, two beginning alike: the common first step is judged
    once; a sequence pruned (its second step refused) is not walked."""
    a, b, c = (3, 1, TOP), (2, 1, TOP), (1, 2, TOP)
    seqs = [[a, b], [a, c], [c, a], [a, b]]  # (the last given twice: walked once)
    toy = Toy(merge=False)
    tree = Tree(seqs)
    assert tree.sequences == [(a, b), (a, c), (c, a)]
    tree.prune(0, lambda depth, node: None if node.step == c and depth == 1 else depth + 1)
    assert tree.remaining() == [0, 2]
    told = []
    out = tree.walk(toy, 0, DEN, (0, 0), told.append)
    assert out[1] is None and told == [1, 1]
    assert toy.judged == 1 + 2 + 1 + 2  # (a, then b on its two branches; c, then a on its two)
    for w, seq in zip(out, tree.sequences):
        if w is not None:
            assert answer(w) == brute(list(seq))
    # (ranked by P(two successes): 1/2 * 2/6 against 1/6 * 1/2; a tie keeps the order given)
    ranked = best(tree, Toy(merge=False), 0, DEN, (0, 0), lambda seq, w: w.counters[0].get(2, F(0)))
    assert [(p, seq) for p, seq, _ in ranked] == [(F(1, 6), (a, b)), (F(1, 12), (c, a))]
    tied = best(tree, Toy(merge=False), 0, DEN, (0, 0), lambda seq, w: 0)
    assert [seq for _, seq, _ in tied] == [(a, b), (c, a)]


def test_leave_is_called_after_the_outcome_is_walked():
    seen = []

    class Leaving(Toy):
        def judge(self, state, node):
            outcomes, notes = super().judge(state, node)
            return [(w, after, more, lambda i=node.index, k=k: seen.append(("left", i, k)))
                    for k, (w, after, more, _) in enumerate(outcomes)], notes

        def near(self, state, node):
            seen.append(("at", node.index))
            return None
    Tree([[(3, 1, TOP), (3, 1, TOP)]]).walk(Leaving(), 0, DEN, (0, 0))
    # (``near`` is asked of a state with steps to come: at the first step's node, after each outcome)
    assert seen == [("at", 0), ("left", 1, 0), ("left", 1, 1), ("left", 0, 0),
                    ("at", 0), ("left", 1, 0), ("left", 1, 1), ("left", 0, 1)]


STEP = st.tuples(st.integers(0, DEN), st.integers(0, 2), st.integers(0, TOP + 1))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(STEP, min_size=0, max_size=6), min_size=1, max_size=4))
def test_merging_and_the_trie_change_no_distribution(seqs):
    """On random toy processes: each sequence's sums, walked merged in one
    trie, are those of the walk of it alone with nothing merged, and the
    brute force's."""
    together = Tree(seqs)
    out = together.walk(Toy(), 0, DEN, (0, 0))
    for seq, w in zip(together.sequences, out):
        [alone] = Tree([seq]).walk(Toy(merge=False), 0, DEN, (0, 0))
        assert answer(w) == answer(alone) == brute(list(seq))
        assert sum(w.counters[0].values()) == 1
