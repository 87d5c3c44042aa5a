"""A pack's declared rolls: the dice of a test and how their faces combine.

A pack says which dice a test rolls and what each face gives with a
``roll`` statement (``dsl/warcouncil.lark``)::

    roll ga.roll.risk-to-general from sheet "Roll 2D6 and compare result to event."
        risk_to_general(event) dice d1, d2, d3 := if general_hit(event, d1 + d2) then general_fate(d3) else unharmed

Its body is an ordinary expression of the language, compiled by the
kernel's ``Compiler`` like a define's, with the roll's parameters (bound by
the family's engine) and its dice (each a face 1-6) as its names. Here the
kernel

* works out its exact **law**: every face of every die (6**k ways for k
  dice, k at most ``MAX_ROLL_DICE``, refused where the pack declares more),
  the body evaluated on each, the chance of each outcome summed as a
  ``Fraction``;
* gives the **outcome** of faces a player rolled (a turn file's dice);
* says whether the first faces of a roll already **decide** it: the same
  outcome whatever the later dice show (a General not hit needs no wound
  die), so that a procedure asks for a die only when it matters.

A family asks for a roll by its name (``Pack.roll``); a house rule gives a
roll anew with ``replace roll ID``, and its law and its outcomes change
alike, wherever the family reads it. Nothing here knows a family.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from fractions import Fraction

from ..dsl import ast as A
from ..dsl.bounds import MAX_ROLL_DICE
from ..errors import WarcouncilError

FACES = range(1, 7)
__all__ = ["FACES", "MAX_ROLL_DICE", "Roll", "compiled", "retried"]


class Roll:
    """A roll of a pack, compiled once (``compiled``). Every method takes
    the evaluation context the family's compiler evaluates in (``ctx``)
    and the roll's arguments (``bind``)."""

    def __init__(self, decl: A.RollDecl, body: Callable):
        self.decl = decl
        self.body = body
        self.defaults = dict(decl.defaults)

    @property
    def n(self) -> int:
        """How many dice it rolls."""
        return len(self.decl.dice)

    def bind(self, given: Mapping) -> dict:
        """The roll's arguments from ``given`` (a family's values by name,
        e.g. a test file's fields): each parameter its value there, else its
        default, else none. Values it has no parameter for are not read."""
        return {p: given[p] if p in given else self.defaults.get(p) for p in self.decl.params}

    def outcome(self, ctx, args: dict, faces) -> object:
        """What the faces ``faces`` (one per die, in the order the roll names
        its dice) give; as many faces as dice, or bad input at the roll (a
        house rule that gives a test more dice than a family's file gives)."""
        self._fits(faces, len(faces) != self.n)
        env = dict(args)
        env.update(zip(self.decl.dice, faces))
        return self.body(ctx, env)

    def law(self, ctx, args: dict) -> dict:
        """Each outcome and its exact chance (``Fraction``s summing to 1), in
        the order the outcomes first appear, faces counted up from all 1s."""
        out: dict = {}
        p = Fraction(1, 6 ** self.n)
        for faces in itertools.product(FACES, repeat=self.n):
            o = self.outcome(ctx, args, faces)
            out[o] = out.get(o, 0) + p
        return out

    def decided(self, ctx, args: dict, faces) -> tuple[bool, object]:
        """Whether the first dice, showing ``faces``, decide the roll (one
        outcome whatever the others show), and that outcome (None if not)."""
        self._fits(faces, len(faces) > self.n)
        rest = self.n - len(faces)
        seen = {self.outcome(ctx, args, (*faces, *more)) for more in itertools.product(FACES, repeat=rest)}
        return (True, seen.pop()) if len(seen) == 1 else (False, None)

    def _fits(self, faces, wrong: bool) -> None:
        if wrong:
            d = self.decl
            raise WarcouncilError(f"roll {d.id} rolls {self.n} {'die' if self.n == 1 else 'dice'} "
                                  f"({', '.join(d.dice)}), given the faces {list(faces)}", d.loc)


def compiled(compiler, name: str) -> Roll | None:
    """The roll ``name`` of the compiler's pack, compiled once per pack (in
    the compiler's ``pack_memo``), or None if the pack declares none."""
    key = ("roll", name)
    hit = compiler.pack_memo.get(key)
    if hit is None:
        decl = compiler.pack.roll(name)
        if decl is None:
            return None
        hit = compiler.pack_memo[key] = Roll(decl, compiler.compile(compiler.fold(decl.body)))
    return hit


def retried(law: dict, rerolls: int, success="pass") -> dict:
    """A test of law ``law`` whose failure is rolled again ``rerolls`` times:
    it succeeds (``success``) unless every try fails; a failure is what its
    last try gives, every earlier one failed. (The tries are alike and
    independent, so this is the law of ``rerolls + 1`` copies of the roll,
    taken in turn.)"""
    fail = 1 - law.get(success, 0)
    out = {o: p * fail ** rerolls for o, p in law.items() if o != success}
    out[success] = 1 - fail ** (1 + rerolls)
    return out
