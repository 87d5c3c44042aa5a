"""``warcouncil.records.record`` behaves as ``dataclasses.dataclass`` does
for what the package uses (issue 15: it exists only to be cheaper to define)."""

from __future__ import annotations

import dataclasses
from dataclasses import field

import pytest

from warcouncil.records import record


def _pair(frozen=True, eq=True):
    """The same class body as a record and as a dataclass."""

    def body():
        class C:
            a: int
            b: str = "x"
            c: list = field(default_factory=list)
            d: int = field(default=7, compare=False, repr=False)
            e: int = field(init=False, default=3)

            def __post_init__(self):
                object.__setattr__(self, "seen", self.a * 2)

        return C

    return record(body(), frozen=frozen, eq=eq), dataclasses.dataclass(frozen=frozen, eq=eq)(body())


@pytest.mark.parametrize("frozen", [True, False])
def test_same_construction_equality_hash_and_repr_as_dataclass(frozen):
    R, D = _pair(frozen=frozen)
    for args, kw in [((1,), {}), ((1, "y"), {}), ((1, "y", [2], 9), {}), ((), {"a": 4, "d": 1}), ((2,), {"c": [5]})]:
        r, d = R(*args, **kw), D(*args, **kw)
        assert dataclasses.asdict(r) == dataclasses.asdict(d)
        assert r.seen == d.seen and r.e == d.e == 3
        assert repr(r).split("(", 1)[1] == repr(d).split("(", 1)[1]
        assert (r == R(*args, **kw)) and not (r == R(99))
        assert (r == d) is False  # another class: never equal
        if frozen:
            assert hash(R(1, "y", ())) == hash(D(1, "y", ()))
    assert R(1, d=1) == R(1, d=2)  # compare=False fields are left out
    assert R(1).c is not R(1).c  # a fresh default per instance
    if not frozen:
        assert R.__hash__ is None and D.__hash__ is None
        r = R(1)
        r.a = 5
        assert r.a == 5


def test_frozen_records_refuse_assignment_and_deletion():
    R, _ = _pair()
    r = R(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.a = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        del r.a
    assert dataclasses.replace(r, a=5) == R(5) and r.a == 1


@pytest.mark.parametrize("call", [lambda C: C(), lambda C: C(1, "x", [], 1, 2), lambda C: C(1, a=2), lambda C: C(1, zz=2),
                                  lambda C: C(1, e=2)])
def test_the_same_calls_fail(call):
    R, D = _pair()
    with pytest.raises(TypeError):
        call(D)
    with pytest.raises(TypeError):
        call(R)


def test_methods_the_class_defines_are_kept_and_eq_false_means_identity():
    @record
    class K:
        a: int

        def __repr__(self):
            return "mine"

        def __eq__(self, other):
            return True

        __hash__ = object.__hash__

    assert repr(K(1)) == "mine" and K(1) == K(2)
    assert K.__hash__ is object.__hash__

    @record(eq=False)
    class N:
        a: int

    n = N(1)
    assert n == n and n != N(1)
    assert dataclasses.fields(N)[0].name == "a"
