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


class _Piece:
    """A toy piece as it stands on a toy table: reading its place records it."""

    def __init__(self, pid: str, table: "_Table"):
        self.id, self.table = pid, table

    @property
    def place(self) -> int:
        reading = self.table.cache.reading
        if reading:
            reading[-1].add(self)
        return self.table.poses[self.id]


class _Table:
    """A toy table: pieces on a line (id -> place), one object per set of places."""

    def __init__(self, cache: AnswerCaches, poses: dict):
        self.cache, self.poses, self._at = cache, dict(poses), {}

    def at(self, pid: str) -> _Piece:
        return self._at.setdefault(pid, _Piece(pid, self))


def _touch(x: _Piece, y: _Piece) -> bool:
    return abs(x.table.poses[x.id] - y.table.poses[y.id]) <= 1


def _touching(x: _Piece, y: _Piece) -> bool:
    """The contact builtin: recorded as a contact, not as two places."""
    v = _touch(x, y)
    if x.table.cache.touches:
        x.table.cache.touches[-1].append((x, y, v))
    return v


def test_a_value_is_kept_by_the_places_it_read_and_the_contacts_it_asked():
    c = AnswerCaches()
    runs = []

    def work(t):
        def judge():
            runs.append(t)
            return (t.at("a").place + 10 * _touching(t.at("b"), t.at("c")))
        return judge

    def table(**poses):
        return _Table(c, {"a": 0, "b": 5, "c": 6, "d": 9, **poses})
    t = table()
    assert c.by_places("k", t, work(t), _touch) == 10 and len(runs) == 1
    assert c.by_places("k", t, work(t), _touch) == 10 and len(runs) == 1  # (the same table)
    moved_d = table(d=3)  # (a piece it never read)
    assert c.by_places("k", moved_d, work(moved_d), _touch) == 10 and len(runs) == 1
    still_touching = table(b=7)  # (b moved, still touching c)
    assert c.by_places("k", still_touching, work(still_touching), _touch) == 10 and len(runs) == 1
    apart = table(b=2)  # (b no longer touches c: worked out again)
    assert c.by_places("k", apart, work(apart), _touch) == 0 and runs[-1] is apart and len(runs) == 2
    moved_a = table(a=4)  # (a place it read)
    assert c.by_places("k", moved_a, work(moved_a), _touch) == 14 and len(runs) == 3
    assert c.by_places("other key", t, work(t), _touch) == 10 and len(runs) == 4
    # a recording around it reads what the kept value read, given again or not
    v, got, met = c.recorded(lambda: c.by_places("k", moved_d, work(moved_d), _touch))
    assert v == 10 and {p.id for p in got} == {"a"} and [(x.id, y.id, t_) for x, y, t_ in met] == [("b", "c", True)]
    assert c.reading == [] and c.touches == []
