"""The meanings of the square-grid family's builtins, declared by the pack
(``builtin`` statements in ``rules/grid-ancients/00-pack.wc``). Each is
``f(ctx, setting, args)`` (a constant ``f(ctx, setting)``); ``setting`` is a
``world.GridSetting``. Geometry is the kernel's square facing
(``systems.grid.facing.Footprint``); what it means for the game (a zone of
control, support, enemy to the front) is the pack's.
"""

from __future__ import annotations

from ...kernel.builtins import Meanings
from .facing import Footprint

GRID = Meanings("the square-grid ancients family")


def _foot(s, v) -> Footprint | None:
    return s.footprint(v) if v is not None else None


def _sq(s, x) -> frozenset:
    """The squares of a unit, or a set of squares as given."""
    if x is None:
        return frozenset()
    if hasattr(x, "id") and hasattr(x, "side"):
        return s.squares(x)
    return frozenset(tuple(c) for c in x)


@GRID.function("footprint")
def _footprint(ctx, s, a):
    return s.squares(a[0])


@GRID.function("front_squares")
def _front(ctx, s, a):
    f = _foot(s, a[0])
    return frozenset(f.front(1)) if f else frozenset()


@GRID.function("flank_squares")
def _flank(ctx, s, a):
    f = _foot(s, a[0])
    return frozenset(f.flanks(1)) if f else frozenset()


@GRID.function("rear_squares")
def _rear(ctx, s, a):
    f = _foot(s, a[0])
    return frozenset(f.rear(1)) if f else frozenset()


@GRID.function("directly_behind")
def _directly_behind(ctx, s, a):
    back, front = _foot(s, a[0]), _foot(s, a[1])
    if back is None or front is None or a[0] is a[1]:
        return False
    return back.facing == front.facing and frozenset(back.squares) == frozenset(front.behind())


@GRID.function("seen_from")
def _seen_from(ctx, s, a):
    f = _foot(s, a[0])
    other = _sq(s, a[1])
    if f is None or not other:
        return None
    if other & frozenset(f.front(1)):
        return "front"
    if other & frozenset(f.flanks(1)):
        return "flank"
    if other & frozenset(f.rear(1)):
        return "rear"
    return None


@GRID.function("seen_afar")
def _seen_afar(ctx, s, a):
    """Where the second unit stands as the first sees it, at any distance
    (the regions of ``systems.grid.facing``): front if some square is in its files
    ahead of it, else flank if some square is in its ranks beside it, else
    rear if some square is in its files behind it; none on the corners only."""
    f = _foot(s, a[0])
    other = _sq(s, a[1])
    if f is None or not other:
        return None
    regions = {f.region(q) for q in other}
    for region, names in (("front", ("front",)), ("flank", ("left", "right")), ("rear", ("rear",))):
        if regions.intersection(names):
            return region
    return None


def _gap(a: frozenset, b: frozenset) -> int | None:
    if not a or not b:
        return None
    return min(abs(x[0] - y[0]) + abs(x[1] - y[1]) for x in a for y in b)


@GRID.function("touching")
def _touching(ctx, s, a):
    return a[0] is not a[1] and _gap(s.squares(a[0]), s.squares(a[1])) == 1


@GRID.function("gap")
def _gap_fn(ctx, s, a):
    return _gap(s.squares(a[0]), s.squares(a[1]))


@GRID.function("gap_from")
def _gap_from(ctx, s, a):
    return _gap(_sq(s, a[0]), s.squares(a[1]))


@GRID.function("ahead_of")
def _ahead_of(ctx, s, a):
    f = _foot(s, a[0])
    return bool(f) and any(f.region(q) == "front" for q in s.squares(a[1]))


@GRID.function("behind_of")
def _behind_of(ctx, s, a):
    f = _foot(s, a[0])
    return bool(f) and any(f.region(q) == "rear" for q in s.squares(a[1]))


@GRID.function("has")
def _has(ctx, s, a):
    return a[0] is not None and s.has(a[0], a[1])


@GRID.function("rating")
def _rating(ctx, s, a):
    return a[0].get_attr(a[1]) if a[0] is not None else None


@GRID.function("is_disordered")
def _is_disordered(ctx, s, a):
    return a[0] is not None and s.state(a[0]).disordered


@GRID.function("off_table")
def _off_table(ctx, s, a):
    return a[0] is not None and s.state(a[0]).off_table


@GRID.function("general_with")
def _general_with(ctx, s, a):
    return a[0] is not None and a[0].id in s.generals


@GRID.function("fatigued")
def _fatigued(ctx, s, a):
    return a[0] is not None and s.fatigued(a[0])


@GRID.function("enemies_of")
def _enemies_of(ctx, s, a):
    return s.enemies_of(a[0]) if a[0] is not None else frozenset()


@GRID.function("friends_of")
def _friends_of(ctx, s, a):
    return s.friends_of(a[0]) if a[0] is not None else frozenset()


@GRID.constant("activation")
def _activation(ctx, s):
    return ctx.g.activation
