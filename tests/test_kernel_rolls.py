"""The kernel's declared rolls (kernel/rolls.py) on their own, with a toy
pack written here (no game family): a `roll` statement's exact law against
a brute-force enumeration written apart from the kernel and against
icepool, a hypothesis property over random rolls, the outcome of given
faces, whether the first faces decide a roll, re-rolls, and the language's
checks of the statement (its bound on dice, `replace roll`), each at its
file:line:column."""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from types import SimpleNamespace

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import load_pack
from warcouncil.errors import WarcouncilError
from warcouncil.kernel import rolls
from warcouncil.kernel.evaluate import Compiler

RULES = ("A shot hits on a 5 or 6. A hit is saved on a 6. Three dice are added for the total. "
         "A unit rolls for its morale.\n")
TOY = '''pack toy "Toy dice"
document rules "rules.txt"
values outcome: hit, miss, saved

define toy.hits
    from rules "A shot hits on a 5 or 6."
    hits(r, need) := r >= need

roll toy.roll.shot
    from rules "A shot hits on a 5 or 6."
    from rules "A hit is saved on a 6."
    shot(need = 5) dice a, save := if hits(a, need) then (if save == 6 then saved else hit) else miss

roll toy.roll.total
    from rules "Three dice are added for the total."
    total dice a, b, c := a + b + c

roll toy.roll.morale
    from rules "A unit rolls for its morale."
    morale(hit, bonus) dice d := d + bonus >= hit
'''


def _pack(tmp_path, text=TOY, house: str | None = None):
    d = tmp_path / "toy"
    d.mkdir(exist_ok=True)
    (d / "00-toy.wc").write_text(text, encoding="utf-8")
    (d / "rules.txt").write_text(RULES, encoding="utf-8")
    layers = []
    if house is not None:
        h = tmp_path / "house.wc"
        h.write_text(house, encoding="utf-8")
        layers = [str(h)]
    return load_pack(str(d), layers)


def _ctx():
    """What the bodies here read of an evaluation context: the memos."""
    return SimpleNamespace(g=SimpleNamespace(memo={}, setting=SimpleNamespace(memo={})))


def _roll(pack, name):
    return rolls.compiled(Compiler(pack), name)


def _brute(n: int, outcome) -> dict:
    out: dict = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        out[outcome(*faces)] = out.get(outcome(*faces), 0) + F(1, 6 ** n)
    return out


def _ice(die) -> dict:
    return {o: die.probability(o) for o in die.outcomes() if die.probability(o)}


@pytest.mark.parametrize("need", range(1, 8))
def test_a_law_is_every_face_summed_exactly(tmp_path, need):
    r = _roll(_pack(tmp_path), "shot")
    law = r.law(_ctx(), r.bind({"need": need}))
    assert law == {k: v for k, v in {
        "hit": F(7 - need, 6) * F(5, 6) if need > 1 else F(5, 6),
        "saved": F(7 - need, 6) * F(1, 6) if need > 1 else F(1, 6),
        "miss": F(need - 1, 6),
    }.items() if v}
    assert law == {k: v for k, v in _brute(2, lambda a, s: "miss" if a < need else "saved" if s == 6 else "hit").items()}
    assert sum(law.values()) == 1


def test_laws_agree_with_icepool(tmp_path):
    pack = _pack(tmp_path)
    total = _roll(pack, "total")
    assert total.law(_ctx(), total.bind({})) == _ice(3 @ icepool.d6)
    shot = _roll(pack, "shot")
    assert shot.law(_ctx(), shot.bind({})) == _ice(icepool.map(
        lambda a, s: "miss" if a < 5 else "saved" if s == 6 else "hit", icepool.d6, icepool.d6))


def test_defaults_and_arguments(tmp_path):
    shot = _roll(_pack(tmp_path), "shot")
    assert shot.n == 2
    assert shot.bind({}) == {"need": 5}
    assert shot.bind({"need": 3, "other": 1}) == {"need": 3}  # (a value it has no parameter for is not read)
    morale = _roll(_pack(tmp_path), "morale")
    assert morale.bind({"bonus": 1}) == {"hit": None, "bonus": 1}  # (no default: none)


def test_a_parameter_named_like_a_symbol_is_the_argument(tmp_path):
    """`hit` is a symbol of the pack, and the morale roll's parameter: in
    its body it is the argument, on every board the same roll is asked."""
    morale = _roll(_pack(tmp_path), "morale")
    ctx = _ctx()
    assert morale.law(ctx, {"hit": 4, "bonus": 0}) == {False: F(1, 2), True: F(1, 2)}
    assert morale.law(ctx, {"hit": 6, "bonus": 1}) == {False: F(2, 3), True: F(1, 3)}
    assert morale.outcome(ctx, {"hit": 3, "bonus": 0}, (2,)) is False


def test_outcome_and_decided(tmp_path):
    shot = _roll(_pack(tmp_path), "shot")
    ctx, args = _ctx(), shot.bind({})
    assert [shot.outcome(ctx, args, f) for f in ((1, 6), (5, 6), (6, 1))] == ["miss", "saved", "hit"]
    assert shot.decided(ctx, args, (4,)) == (True, "miss")  # (a miss needs no save die)
    assert shot.decided(ctx, args, (5,)) == (False, None)
    assert shot.decided(ctx, args, (5, 6)) == (True, "saved")
    assert shot.decided(ctx, shot.bind({"need": 7}), ()) == (True, "miss")


def test_faces_that_do_not_fit_the_roll(tmp_path):
    """A family's file gives as many faces as its shipped roll has dice; a
    house rule's roll of more is bad input, named at the roll."""
    shot = _roll(_pack(tmp_path), "shot")
    for faces, call in (((1, 2, 3), shot.outcome), ((4,), shot.outcome), ((1, 2, 3), shot.decided)):
        with pytest.raises(WarcouncilError) as e:
            call(_ctx(), shot.bind({}), faces)
        assert (e.value.message, e.value.location.line) == (
            f"roll toy.roll.shot rolls 2 dice (a, save), given the faces {list(faces)}", 9)


def test_a_roll_is_compiled_once_per_pack(tmp_path):
    c = Compiler(_pack(tmp_path))
    assert rolls.compiled(c, "shot") is rolls.compiled(c, "shot")
    assert rolls.compiled(c, "nothing") is None


def test_retried():
    law = {"pass": F(1, 3), "fail": F(1, 2), "critical": F(1, 6)}
    assert rolls.retried(law, 0) == law
    assert rolls.retried(law, 2) == {"pass": 1 - F(2, 3) ** 3, "fail": F(1, 2) * F(4, 9),
                                     "critical": F(1, 6) * F(4, 9)}
    # against the law of three tries taken in turn, by brute force
    faces = {1: "pass", 2: "pass", 3: "fail", 4: "fail", 5: "fail", 6: "critical"}
    assert rolls.retried(law, 2) == _brute(3, lambda a, b, c: next(
        (faces[x] for x in (a, b) if faces[x] == "pass"), faces[c]))


@settings(max_examples=25, deadline=None)
@given(k=st.integers(1, 3), need=st.integers(1, 7), weights=st.lists(st.integers(-2, 2), min_size=3, max_size=3))
def test_any_roll_law_is_the_brute_force_law(tmp_path_factory, k, need, weights):
    """A random roll of k dice, a weighted sum of faces against a need:
    its law is the enumeration's, sums to 1, and every face's outcome is
    one of its outcomes."""
    dice = [f"d{i}" for i in range(k)]
    body = " + ".join(f"{w} * {d}" for w, d in zip(weights, dice))
    text = f'pack p "P"\nroll p.roll.r\n    r(need) dice {", ".join(dice)} := if {body} >= need then 1 else 0\n'
    d = tmp_path_factory.mktemp("p")
    (d / "00.wc").write_text(text, encoding="utf-8")
    r = rolls.compiled(Compiler(load_pack(str(d))), "r")
    law = r.law(_ctx(), {"need": need})
    assert law == _brute(k, lambda *f: 1 if sum(w * x for w, x in zip(weights, f)) >= need else 0)
    assert sum(law.values()) == 1
    assert all(r.outcome(_ctx(), {"need": need}, f) in law for f in itertools.product(range(1, 7), repeat=k))


def test_the_shipped_toy_pack_lints_clean(tmp_path):
    _pack(tmp_path)
    assert lint([str(tmp_path / "toy")])[1] == []


# ---- what a rule author is told, at the place ------------------------------

def _refused(tmp_path, text: str, house: str | None = None):
    with pytest.raises(WarcouncilError) as e:
        _pack(tmp_path, text, house)
    loc = e.value.location
    return e.value.message, loc.line, loc.column, e.value.hint


def test_more_dice_than_the_bound_is_refused_at_the_roll(tmp_path):
    text = TOY + '\nroll toy.roll.big\n    big dice a, b, c, d, e := a\n'
    assert rolls.MAX_ROLL_DICE == 4
    assert _refused(tmp_path, text) == (
        "roll toy.roll.big rolls 5 dice: a roll rolls 1 to 4 (its law is worked out over every face of every die)",
        22, 1, None)
    problems = lint([str(tmp_path / "toy")])[1]
    assert [(p.message, p.location.line) for p in problems] == [(
        "roll toy.roll.big rolls 5 dice: a roll rolls 1 to 4 (its law is worked out over every face of every die)",
        22)]


def test_a_name_given_twice_is_refused(tmp_path):
    text = TOY + '\nroll toy.roll.twice\n    twice(a) dice a := a\n'
    assert _refused(tmp_path, text)[:3] == (
        "roll toy.roll.twice: a is named twice (each parameter and die has a name of its own)", 22, 1)


def test_a_roll_declared_twice_is_refused(tmp_path):
    text = TOY + '\nroll toy.roll.total\n    total dice a := a\n'
    message, line, column, hint = _refused(tmp_path, text)
    assert (message.split(" is already")[0], line, column, hint) == (
        "roll toy.roll.total", 22, 1, "write `replace roll` to change it in a house rule")
    text = TOY + '\nroll toy.roll.other\n    total dice a := a\n'
    assert _refused(tmp_path, text)[:3] == ("roll total is already declared by toy.roll.total", 22, 1)


def test_replace_roll_in_a_house_rule(tmp_path):
    pack = _pack(tmp_path, house="# two dice, the higher\nreplace roll toy.roll.total\n"
                                 "    total dice a, b := if a > b then a else b\n")
    total = _roll(pack, "total")
    assert total.law(_ctx(), {}) == _ice(icepool.highest(icepool.d6, icepool.d6))
    assert pack.roll("total").replace is True


def test_replace_roll_that_does_not_exist(tmp_path):
    house = "# a house rule\nreplace roll toy.roll.totl\n    total dice a := a\n"
    assert _refused(tmp_path, TOY, house) == (
        "replace roll toy.roll.totl: there is no such roll to replace", 2, 1, "did you mean toy.roll.total?")
    _, problems = lint([str(tmp_path / "house.wc")], base=str(tmp_path / "toy"))
    assert [(p.message, p.location.line, p.location.column) for p in problems] == [
        ("replace roll toy.roll.totl: there is no such roll to replace", 2, 1)]


def test_replace_roll_keeps_its_name_and_parameters(tmp_path):
    house = "replace roll toy.roll.shot\n    shot(need, bonus) dice a := a + bonus >= need\n"
    assert _refused(tmp_path, TOY, house) == (
        "replace roll toy.roll.shot: the engine asks it as shot(need), not shot(need, bonus)", 1, 1,
        "keep the name and parameters: shot(need) dice ... := ...")


def test_a_roll_body_is_checked_like_a_define(tmp_path):
    house = "replace roll toy.roll.total\n    total dice a := a + misses(a)\n"
    _pack(tmp_path)
    (tmp_path / "house.wc").write_text(house, encoding="utf-8")
    _, problems = lint([str(tmp_path / "house.wc")], base=str(tmp_path / "toy"))
    assert [(p.message, p.location.line, p.location.column) for p in problems] == [
        ("unknown function 'misses'", 2, 25)]
