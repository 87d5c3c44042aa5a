"""A variable named like something else of the pack is that variable.

A house-rule author may name a define's parameter, a quantifier's
variable or a roll's parameter after a symbol of the pack (``unit``,
``cavalry``, ``rough``) or a define (``ten``). The compiler works out once
per board a call whose names are all facts of the board, and inlines a
define that is a constant: neither may take such a variable for the symbol
or the define (``Pack.variables``, ``Compiler.board_static``). Each case
here, on a toy pack, gave one argument's value for every argument before.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace

from warcouncil.dsl.pack import load_pack
from warcouncil.kernel import rolls
from warcouncil.kernel.evaluate import Compiler

TOY = '''pack toy "Toy shadows"
document rules "rules.txt"
values outcome: hit, miss

define toy.double
    from rules "A number doubled."
    double(x) := x + x

define toy.ten
    from rules "Ten is ten."
    ten := 10

define toy.twice
    from rules "A number doubled."
    twice(hit) := double(hit)

define toy.any-big
    from rules "A number doubled."
    any_big(s) := exists hit in s: double(hit) > 5

define toy.bigs
    from rules "A number doubled."
    bigs(s) := {hit in s where double(hit) > 5}

define toy.plus
    from rules "Ten is ten."
    plus(ten) := ten + 1

roll toy.roll.doubled
    from rules "A number doubled."
    doubled(hit) dice d := double(hit) + d

define toy.always
    from rules "Ten is ten."
    always := true

roll toy.roll.tens
    from rules "Ten is ten."
    tens(always) dice d := if always then d else 0
'''


def _compiler(tmp_path) -> Compiler:
    d = tmp_path / "toy"
    d.mkdir()
    (d / "00-toy.wc").write_text(TOY, encoding="utf-8")
    (d / "rules.txt").write_text("A number doubled. Ten is ten.\n", encoding="utf-8")
    return Compiler(load_pack(str(d)))


def _call(c: Compiler, ctx, name: str, *args):
    d = c.pack.defines[name]
    return c.define_closure(name)(ctx, dict(zip(d.params, args)))


def _ctx():
    """One board for every call: what is worked out once per board is shared."""
    return SimpleNamespace(g=SimpleNamespace(memo={}, setting=SimpleNamespace(memo={})))


def test_the_pack_knows_its_variables(tmp_path):
    c = _compiler(tmp_path)
    assert c.pack.variables() == {"x", "hit", "s", "ten", "always", "d"}
    assert {"hit"} <= c.pack.symbols()


def test_a_parameter_named_like_a_symbol(tmp_path):
    c, ctx = _compiler(tmp_path), _ctx()
    assert [_call(c, ctx, "twice", n) for n in (1, 2, 3)] == [2, 4, 6]


def test_a_quantifier_variable_named_like_a_symbol(tmp_path):
    c, ctx = _compiler(tmp_path), _ctx()
    assert [_call(c, ctx, "any_big", s) for s in ({1, 3}, {1, 2}, {4})] == [True, False, True]
    assert _call(c, ctx, "bigs", {1, 3, 4}) == {3, 4}


def test_a_parameter_named_like_a_constant_define(tmp_path):
    c, ctx = _compiler(tmp_path), _ctx()
    assert [_call(c, ctx, "plus", n) for n in (1, 2)] == [2, 3]
    assert _call(c, ctx, "ten") == 10


def test_a_roll_parameter_named_like_a_symbol(tmp_path):
    c, ctx = _compiler(tmp_path), _ctx()
    roll = rolls.compiled(c, "doubled")
    assert [roll.outcome(ctx, {"hit": n}, (1,)) for n in (1, 2, 3)] == [3, 5, 7]


def test_a_roll_parameter_named_like_a_constant_define(tmp_path):
    """A roll's body is folded (constant defines inlined) before it is compiled."""
    c, ctx = _compiler(tmp_path), _ctx()
    assert rolls.compiled(c, "tens").law(ctx, {"always": True}) == {n: Fraction(1, 6) for n in range(1, 7)}
    assert rolls.compiled(c, "tens").law(ctx, {"always": False}) == {0: 1}
