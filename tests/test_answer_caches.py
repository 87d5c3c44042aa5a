"""``AnswerCaches.mark`` / ``forget`` (kernel/caches.py): a walk drops what
it kept since a mark that holds a dead object, and keeps the rest in order."""

from __future__ import annotations

from warcouncil.kernel.caches import AnswerCaches


class _Thing:
    """A stand-in for a table: closed when dropped."""

    def __init__(self, name: str):
        self.name, self.closed = name, False

    def close(self) -> None:
        self.closed = True


def test_forget_drops_since_the_mark_what_holds_a_dead_object_and_keeps_the_rest_in_order():
    c = AnswerCaches()
    old, new, other = _Thing("old"), _Thing("new"), _Thing("other")
    c.tables["k0"] = old
    c.values[("a", old)] = 1
    mark = c.mark()
    c.tables["k1"] = new
    c.tables["k2"] = other
    c.values[("b", (1, frozenset({new})))] = 2  # (dead deep inside the key)
    c.values[("c", 3)] = 3
    c.values[("d", other)] = 4
    c.placed[("p", 1)] = [new]  # (a value holding it in a list: kept)
    c.verdicts["v"] = new  # (a dead value)
    c.histories[("h", new)] = 1  # (never looked through)
    assert c.since(mark, "tables") == [other, new]
    dropped = c.forget(mark, lambda x: x is new)
    assert dropped == 3
    assert list(c.tables.items()) == [("k0", old), ("k2", other)]
    assert list(c.values.items()) == [(("a", old), 1), (("c", 3), 3), (("d", other), 4)]
    assert c.placed == {("p", 1): [new]} and c.verdicts == {} and c.histories == {("h", new): 1}
    assert new.closed and not other.closed and not old.closed
    assert c.forget(c.mark(), lambda x: True) == 0  # (nothing since the mark: nothing dropped)
