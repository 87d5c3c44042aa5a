"""Exact chance walks: what a sequence of chance steps adds up, exactly.

A family's verb asks how likely a sequence of steps is to go well (a
Warmaster plan of rolled orders: ``odds``), or which of several
sequencings goes best (``plan``). Each step, taken in a state, has a few
outcomes, each with its weight and the state after it; the walk goes
through the branches they open, depth first, and sums what they add up.
The kernel owns the walk; the family says what one step is, in a
*process* with two methods:

``judge(state, node)``
    the step ``node.step`` (the ``node.index``-th of its sequence) taken
    in ``state``: ``(outcomes, notes)``. An outcome is ``(ways, after,
    tally, leave)``: its weight, in ways out of the walk's ``den`` (a
    step's outcomes weigh ``den`` in all); the state after it; what it
    adds to each counter (a tuple as long as the walk's ``zero``, or None
    for nothing); and None or a function called once the walk has walked
    that outcome's branches (to drop what the family kept for them
    alone). Outcomes are walked in the order given, each wholly before
    the next; one of no ways is not walked. ``notes``:
    numbers about the step, in ways out of ``den`` (e.g. ``den`` when it
    is attempted at all), whose expected values the walk gives per step.
``near(state, node)`` and ``keys(state, node)``
    which states reached at ``node`` (with its children's steps to come)
    are alike: every step to come judges them the same (the same
    outcomes, weights, tallies and notes, and alike states after). Two
    states are alike when they have the same ``near`` key (None: never
    merged) and share one of their ``keys`` (an iterable, cheapest first;
    a constant: every state of a ``near`` key alike). ``near`` is asked
    of every state, ``keys`` only of those whose ``near`` key another state
    has: a cheap key first, the dearer ones only where a match may be.
    The walk of a state alike to one walked before is not made again: the
    sums of that walk are added in, shifted by the tallies of the branch
    and scaled by its ways (a transposition table).

The sequences are walked as a trie (``Tree``): sequences that begin
alike share the walk of their common beginning, each step of it judged
once per branch for them all; ``Tree.prune`` drops the sequences a
beginning of which is refused (judged once for them all too), and
``best`` ranks the sequences walked (``plan``). Memory: a node's transposition table is
dropped once the walk has left the subtree of the root's child above it
(no branch still to walk reaches that node), and the family drops its
own through ``leave``.

Inside, a weight at depth ``i`` is a whole number of ways out of
``den ** i``; ``Fraction`` only at the end.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import add
from typing import Any, Protocol


class Process(Protocol):
    """What a family says of one step (the module's docstring)."""

    def judge(self, state: Any, node: Node) -> tuple[Sequence[tuple], tuple[int, ...]]: ...

    def near(self, state: Any, node: Node) -> Hashable | None: ...

    def keys(self, state: Any, node: Node) -> Iterable[Hashable]: ...


class Node:
    """One beginning of the sequences walked: the step that ends it (None
    at the root) and what may follow."""

    __slots__ = ("step", "index", "parent", "children", "leaf", "height", "_ahead", "kept")

    def __init__(self, step: Any, parent: Node | None):
        self.step, self.parent = step, parent
        #: the step's place in its sequences (-1 at the root)
        self.index = -1 if parent is None else parent.index + 1
        self.children: dict[Any, Node] = {}
        #: the number of the sequence that ends here, if one does
        self.leaf: int | None = None
        #: the most steps still to come after this one
        self.height = 0
        self._ahead: tuple | None = None
        #: the transposition table of the walk: ``near`` key -> (merge key -> the
        #: sums of a walk from here, [(a state whose keys are not yet asked, its sums)])
        self.kept: dict = {}

    @property
    def ahead(self) -> tuple:
        """The distinct steps still to come below this node, in the order
        of the sequences (first seen first)."""
        if self._ahead is None:
            self._ahead = tuple(dict.fromkeys(s for c in self.children.values() for s in (c.step, *c.ahead)))
        return self._ahead


@dataclass(frozen=True)
class Walked:
    """What a sequence adds up: per counter, the probability of each of
    its values; per step, the expected value of each of its notes."""

    counters: list[dict[int, Fraction]]
    notes: list[tuple[Fraction, ...]]


class Tree:
    """The trie of the sequences of steps to walk (steps: hashable values;
    a sequence given twice is walked once)."""

    def __init__(self, sequences: Iterable[Sequence]):
        self.root = Node(None, None)
        #: the distinct sequences, in the order first given; their leaves
        self.sequences: list[tuple] = []
        self._leaves: list[Node | None] = []
        for seq in sequences:
            node = self.root
            for st in seq:
                child = node.children.get(st)
                if child is None:
                    child = node.children[st] = Node(st, node)
                node = child
            if node.leaf is None:
                node.leaf = len(self.sequences)
                self.sequences.append(tuple(seq))
                self._leaves.append(node)
        self._measure()

    def remaining(self) -> list[int]:
        """The numbers of the sequences still in the tree (``prune``)."""
        return [i for i, leaf in enumerate(self._leaves) if leaf is not None]

    def prune(self, start: Any, advance: Callable[[Any, Node], Any]) -> None:
        """Drop every sequence one of whose beginnings ``advance`` refuses:
        ``advance(carry, node)`` is asked once per node, with what it gave
        for the node's parent (``start`` for the root's children), and
        gives the carry for the node's children, or None to drop every
        sequence through the node."""
        def down(node: Node, carry: Any) -> bool:  # (does a sequence still pass through node)
            for st, child in list(node.children.items()):
                after = advance(carry, child)
                if after is None or not down(child, after):
                    del node.children[st]
                    for leaf in _leaves_below(child):
                        self._leaves[leaf.leaf] = None
            return node.leaf is not None or bool(node.children)
        down(self.root, start)
        self._measure()

    def _measure(self) -> None:
        """Each node's height and steps to come, of the sequences left."""
        for node in _preorder(self.root):
            node.height, node._ahead = 0, None
        for leaf in self._leaves:
            if leaf is not None:
                for k, up in enumerate(_up(leaf)):
                    up.height = max(up.height, k)

    def walk(self, process: Process, start: Any, den: int, zero: tuple[int, ...],
             told: Callable[[int], None] | None = None) -> list[Walked | None]:
        """Each sequence's sums, walked from ``start`` (None for one
        pruned); ``told(n)``: n more sequences were walked (after each of
        the root's children)."""
        judge, near_of, keys = process.judge, process.near, process.keys
        width = len(zero)

        def go(node: Node, state: Any, ways: int, tally: tuple, out: tuple) -> None:
            if node.leaf is not None:
                per = out[0].get(node.leaf)
                if per is None:
                    per = out[0][node.leaf] = [defaultdict(int) for _ in range(width)]
                for d, k in zip(per, tally):
                    d[k] += ways
            if not node.children:
                return
            near = near_of(state, node)
            if near is None:  # (not merged)
                for child in node.children.values():
                    take(child, state, ways, tally, out)
                return
            group, sub, new = node.kept.get(near), None, []
            if group is not None:
                index, alone = group
                while alone:  # (the keys of the states met alone so far)
                    s, theirs = alone.pop()
                    for key in keys(s, node):
                        index.setdefault(key, theirs)
                for key in keys(state, node):
                    sub = index.get(key)
                    if sub is not None:
                        break
                    new.append(key)
            if sub is None:
                sub = ({}, {})
                for child in node.children.values():
                    take(child, state, 1, zero, sub)
                if group is None:
                    node.kept[near] = ({}, [(state, sub)])
                else:
                    for key in new:
                        group[0].setdefault(key, sub)
            for leaf, theirs in sub[0].items():
                per = out[0].get(leaf)
                if per is None:
                    per = out[0][leaf] = [defaultdict(int) for _ in range(width)]
                for d, t, c in zip(per, theirs, tally):
                    for k, w in t.items():
                        d[c + k] += ways * w
            notes = out[1]
            for child, theirs in sub[1].items():
                had = notes.get(child)
                if had is None:
                    had = notes[child] = [0] * len(theirs)
                for j, y in enumerate(theirs):
                    had[j] += ways * y

        def take(child: Node, state: Any, ways: int, tally: tuple, out: tuple) -> None:
            """The step of ``child`` taken in ``state``, reached with ``ways``."""
            outcomes, notes = judge(state, child)
            if notes:
                had = out[1].get(child)
                if had is None:
                    had = out[1][child] = [0] * len(notes)
                for j, y in enumerate(notes):
                    had[j] += ways * y
            for w, after, more, leave in outcomes:
                if w:
                    go(child, after, ways * w, tally if more is None else tuple(map(add, tally, more)), out)
                if leave is not None:
                    leave()

        total: tuple = ({}, {})  # (leaf -> per counter, value -> ways; node -> its step's notes, in ways)
        root = self.root
        if root.leaf is not None:  # (the empty sequence)
            total[0][root.leaf] = [{k: 1} for k in zero]
        for child in list(root.children.values()):  # (one at a time: its nodes' tables then dropped)
            take(child, start, 1, zero, total)
            for node in _preorder(child):
                node.kept = {}
            if told is not None:
                told(sum(1 for _ in _leaves_below(child)))
        out: list[Walked | None] = [None] * len(self.sequences)
        for i, leaf in enumerate(self._leaves):
            if leaf is None:
                continue
            path = list(_up(leaf))[::-1][1:]  # (its nodes from the first step on)
            whole = den ** len(path)
            out[i] = Walked([{k: Fraction(v, whole) for k, v in d.items()}
                             for d in total[0].get(i, [{}] * width)],
                            [tuple(Fraction(x, den ** (j + 1)) for x in total[1].get(node, ()))
                             for j, node in enumerate(path)])
        return out


def _up(node: Node | None):
    """``node`` and the nodes above it, to the root."""
    while node is not None:
        yield node
        node = node.parent


def _preorder(node: Node):
    yield node
    for child in node.children.values():
        yield from _preorder(child)


def _leaves_below(node: Node):
    return (n for n in _preorder(node) if n.leaf is not None)


def best(tree: Tree, process: Process, start: Any, den: int, zero: tuple[int, ...],
         score: Callable[[tuple, Walked], Any], told: Callable[[int], None] | None = None) -> list[tuple]:
    """The sequences of ``tree`` (those ``prune`` left), walked together,
    best first by ``score(sequence, walked)`` (higher is better; those
    alike in score in the order given): (score, sequence, walked)."""
    walked = tree.walk(process, start, den, zero, told)
    scored = [(score(seq, w), seq, w) for seq, w in zip(tree.sequences, walked) if w is not None]
    scored.sort(key=lambda x: x[0], reverse=True)
    return scored


__all__ = ["Node", "Process", "Tree", "Walked", "best"]
