"""The meanings of the Warmaster family's builtins.

They are declared by the pack (``rules/warmaster/00-pack.wc``, ``builtin``
statements). Measuring is ``systems.warmaster.measure``'s (shapely): distances rounded to
1e-6 cm before any threshold, contact as a distance of at most 0.01 cm.

A meaning is ``f(ctx, setting, args)``; ``ctx`` is the engine's ``Ctx``
(``ctx.log``: the Command phase log being judged; ``ctx.trace``: where
measurements are written down, for the explanations of ``check``).
"""

from __future__ import annotations

import shapely

from . import measure as T
from ...kernel.builtins import Meanings
from ...kernel.logrules import entries_of
from ...kernel.loops import prefix
from .scenario import _Board
from .table import At, Entry

WM = Meanings("the Warmaster family (systems/warmaster/builtins.py)")


def cm(d: float) -> str:
    """A rounded distance for people: 47.3, 20, 19.999999."""
    return f"{d:.6f}".rstrip("0").rstrip(".")


def _note(ctx, text: str) -> None:
    trace = getattr(ctx, "trace", None)
    if trace is not None and text not in trace:
        trace.append(text)


# ---------------------------------------------------------------- the log
# (the log, and the entries of one sub-phase alone: a rule over one of them
# judges no entry of another kind, kernel/logrules.py)
WM.constant("log", entries_of(None)(lambda ctx, s: ctx.log.whole))
WM.constant("moving_side", lambda ctx, s: ctx.log.side)
WM.constant("attempts", entries_of("orders")(lambda ctx, s: ctx.log.attempts))
WM.constant("initiatives", entries_of("initiative")(lambda ctx, s: ctx.log.of("initiative")))
WM.constant("home_backs", entries_of("home_back")(lambda ctx, s: ctx.log.of("home_back")))
WM.constant("character_moves", entries_of("characters")(lambda ctx, s: ctx.log.of("characters")))
WM.function("subphase_of", lambda ctx, s, a: a[0].kind)
WM.function("place_in_log", lambda ctx, s, a: a[0].place)


# (``before`` and ``entries_before`` hold the entries before ``o``: the domains
# of history loops the kernel judges along the log, ``kernel/loops.py``)
WM.function("entries_before", prefix(None)(lambda ctx, s, a: tuple(ctx.log.entries[:a[0].place])))


@WM.function("before")
@prefix("orders")
def _before(ctx, s, a):
    return tuple(p for p in ctx.log.attempts if p.index < a[0].index)


@WM.function("previous")
def _previous(ctx, s, a):
    o = a[0]
    return None if o is None else next((p for p in ctx.log.attempts if p.index == o.index - 1), None)


WM.function("issuer", lambda ctx, s, a: a[0].by if a[0] is not None else None)
WM.function("given_to", lambda ctx, s, a: a[0].units if a[0] is not None else ())
WM.function("given_ids", lambda ctx, s, a: a[0].ids if a[0] is not None else frozenset())
WM.function("rolled_2d6", lambda ctx, s, a: a[0].roll)
WM.function("target_number", lambda ctx, s, a: a[0].worked().target)
WM.function("moves_units", lambda ctx, s, a: a[0].moves)
WM.function("afterwards", lambda ctx, s, a: a[0].after)
WM.function("mover", lambda ctx, s, a: a[0].units[0])
WM.function("landed", lambda ctx, s, a: a[0].after[0])
WM.function("action_of", lambda ctx, s, a: a[0].action)
WM.function("toward", lambda ctx, s, a: a[0].toward)
WM.function("d6", lambda ctx, s, a: a[0].roll)
WM.function("blunder_d6", lambda ctx, s, a: getattr(a[0], "blunder_d6", None))


@WM.function("after_of")
def _after_of(ctx, s, a):
    """Piece ``u`` where entry ``e`` leaves it (where it stood, if the
    entry does not move it)."""
    e, u = a
    for b, c in zip(e.units, e.after):
        if b.id == u.id:
            return c
    return u


@WM.function("at_start")
def _at_start(ctx, s, a):
    """The piece on the table as it stood before the log's first entry
    (reference §11.5: the snapshot at the start of the Command phase)."""
    log = ctx.log
    start = log.entries[0].units[0].table if log.entries and log.entries[0].units else log.table
    return start.at(a[0].id)


@WM.function("nth")
def _nth(ctx, s, a):
    """Which order to the unit the attempt is: 1 + the attempts before it
    that gave the unit an order."""
    o, u = a
    return 1 + sum(1 for p in ctx.log.attempts if p.index < o.index and u.id in p.ids)


@WM.function("moved_cm")
def _moved_cm(ctx, s, a):
    """How far the entry moved the piece's centre (cm, rounded)."""
    e, u = a
    for b, c in zip(e.units, e.after):
        if b.id == u.id:
            (x0, y0), (x1, y1) = b.pose.at, c.pose.at
            d = T.measured(((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
            _note(ctx, f"{u.id} moves {cm(d)} cm")
            return d
    return 0.0


@WM.function("crosses")
def _crosses(ctx, s, a):
    """Does the ground the move sweeps (the hull of the footprint at its
    start and its end) overlap terrain that is ``dense`` or ``impassable``?"""
    e, kind = a
    swept = shapely.union_all([e.units[0].fp.shape, e.after[0].fp.shape]).convex_hull
    areas = e.units[0].table.scenario.terrain
    return any(getattr(ar, kind) and T.in_area(swept, ar, "any") for ar in areas)


def _entered(e, u) -> list:
    """The terrain areas piece ``u``'s move in entry ``e`` sweeps (the hull
    of its footprint where it stood and where it ends) and it did not stand
    in before (a unit already in a wood may move within it or out)."""
    for b, c in zip(e.units, e.after):
        if b.id == u.id:
            if b is c or b.pose == c.pose:  # (it did not move)
                return []
            f, g = b.fp, c.fp
            memo = b.table.cache.swept
            key = (id(f), id(g))  # (once per pair of footprints, as ``_raw``)
            hit = memo.get(key) if b.table.cache is c.table.cache else None
            if hit is None:
                start, end = f.shape, g.shape
                if start.equals(end):
                    hit = []
                else:
                    swept = shapely.union_all([start, end]).convex_hull
                    hit = [ar for ar in b.table.scenario.terrain
                           if T.in_area(swept, ar, "any") and not T.in_area(start, ar, "any")]
                if b.table.cache is c.table.cache:
                    memo[key] = hit
            return hit
    return []


WM.function("entered_terrain", lambda ctx, s, a: frozenset(ar.type for ar in _entered(a[0], a[1])))
WM.function("enters", lambda ctx, s, a: any(getattr(ar, a[2], False) for ar in _entered(a[0], a[1])))


# ---------------------------------------------------------------- pieces
WM.function("casualties", lambda ctx, s, a: a[0].piece.lost)
WM.function("mounted", lambda ctx, s, a: a[0].piece.mounted)
WM.function("confused", lambda ctx, s, a: a[0].piece.confused)


# ---------------------------------------------------------------- measuring
def _raw(x: At, y: At) -> float:
    """The unrounded edge-to-edge distance, once per pair of pieces in
    their poses (any table, any moment: the footprints are the same, one
    object per piece and pose, table.py: their identities are the key)."""
    reading = x.table.cache.reading
    if reading:  # (``At.fp`` without its cost)
        r = reading[-1]
        r.add(x)
        r.add(y)
    return raw_quiet(x, y)


def raw_quiet(x: At, y: At) -> float:
    """``_raw`` without recording the places read (``AnswerCaches.reading``)."""
    tx, ty = x.table, y.table
    f = tx._fp.get(x.id)
    if f is None:
        f = tx.footprint(x.id)
    g = ty._fp.get(y.id)
    if g is None:
        g = ty.footprint(y.id)
    cache = tx.cache
    if cache is not ty.cache:  # (tables of two answers: not kept together)
        return T.raw_distance(f, g)
    memo = cache.distances
    i, j = id(f), id(g)  # (both kept alive by the answer's footprints)
    key = (i, j) if i <= j else (j, i)
    d = memo.get(key)
    if d is None:
        d = memo[key] = T.raw_distance(f, g)
    return d


@WM.function("gap")
def _gap(ctx, s, a):
    x, y = a
    d = T.measured(_raw(x, y))
    _note(ctx, f"{x.id} is {cm(d)} cm from {y.id}")
    return d


WM.function("per_full", lambda ctx, s, a: T.full_steps(a[0], a[1]))
def touching_quiet(x: At, y: At) -> bool:
    """Do the two pieces touch (edge to edge within ``T.EPSILON``)? Unrecorded."""
    return raw_quiet(x, y) <= T.EPSILON


def touching_of(x: At, y: At) -> bool:
    """``touching_quiet``; while a judgement is recorded
    (``AnswerCaches.recorded``), the answer is recorded (``touches``), not
    the two places: the judgement is given again where the pieces touch or
    not alike, wherever they stand (``AnswerCaches.by_places``)."""
    v = raw_quiet(x, y) <= T.EPSILON
    touches = x.table.cache.touches
    if touches:
        touches[-1].append((x, y, v))
    return v


WM.function("touching", lambda ctx, s, a: touching_of(a[0], a[1]))


def overlapping_of(x: At, y: At) -> bool:
    """Do the two pieces' footprints overlap (share more than
    ``T.AREA_EPSILON`` cm²; pieces placed flush only touch)? Pieces apart
    are told by their distance (``_raw``); the area is worked out once per
    pair of footprints, as ``raw_quiet`` keeps distances (flush units meet
    at every step judged)."""
    if _raw(x, y) > 0:
        return False
    f, g = x.fp, y.fp
    if x.table.cache is not y.table.cache:  # (tables of two answers: not kept together)
        return T.overlapping(f, g)
    memo = x.table.cache.overlaps
    i, j = id(f), id(g)
    key = (i, j) if i <= j else (j, i)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = T.overlapping(f, g)
    return hit


@WM.function("overlapped_units")
def _overlapped_units(ctx, s, a):
    """The units other than the piece itself that its footprint overlaps."""
    p = a[0]
    hit = tuple(u for u in p.table.units() if u.id != p.id and overlapping_of(p, u))
    for u in hit:
        _note(ctx, f"{p.id} overlaps {u.id}")
    return hit


def _enemies(u: At) -> tuple[At, ...]:
    """The units of the other sides, on ``u``'s table (once per table and side)."""
    side = u.piece.side
    return u.table.listed(("enemies", side), lambda: tuple(v for v in u.table.units() if v.piece.side != side))


@WM.function("friendly_units_of")
def _friends(ctx, s, a):
    u = a[0]
    return u.table.listed(("friends", u.id), lambda: tuple(v for v in u.table.units()
                                                           if v.piece.side == u.piece.side and v.id != u.id))


WM.function("enemy_units_of", lambda ctx, s, a: _enemies(a[0]))
WM.function("friendly_characters_of",
            lambda ctx, s, a: tuple(c for c in a[0].table.characters() if c.piece.side == a[0].piece.side))


def visible(u: At, e: At, dense_cm: float | None = None) -> bool:
    """No other unit lies across the shortest line between the two
    footprints (characters never block: reference §8), and — with
    ``dense_cm`` — no more than that many cm of the line run through
    dense terrain."""
    line = shapely.shortest_line(u.fp.shape, e.fp.shape)
    if line is None or line.length <= T.EPSILON:
        return True
    for v in u.table.units():
        if v.id in (u.id, e.id):
            continue
        if line.intersection(v.fp.shape).length > T.EPSILON:
            return False
    if dense_cm is not None:
        for ar in u.table.scenario.terrain:
            if ar.dense and T.measured(line.intersection(ar.polygon).length) > dense_cm:
                return False
    return True


@WM.function("closest_visible_enemy")
def _closest_visible_enemy(ctx, s, a):
    u, dense_cm = a
    seen = [e for e in _enemies(u) if visible(u, e, dense_cm)]
    if not seen:
        return None
    _, ids = T.nearest(u.fp, [(e.id, e.fp) for e in seen])
    hit = next(e for e in seen if e.id == ids[0])
    _note(ctx, f"the closest visible enemy of {u.id} is {hit.id}, {cm(T.distance(u.fp, hit.fp))} cm away")
    return hit


_MODES = {"some_part": "any", "whole": "all"}


@WM.function("in_dense")
def _in_dense(ctx, s, a):
    u, mode = a
    return T.in_dense_terrain(u.fp, u.table.scenario.terrain, _MODES.get(mode, "any"))


@WM.function("on_table")
def _on_table(ctx, s, a):
    """Does the piece's footprint lie wholly on the scenario's table
    (``measure.on_table``: to within ``T.AREA_EPSILON`` cm² of area)?"""
    p = a[0]
    sc = p.table.scenario
    inside = T.on_table(p.fp, _Board(sc.width, sc.depth))
    if not inside:
        _note(ctx, f"{p.id} is not wholly on the {sc.width:g} x {sc.depth:g} cm table")
    return inside


@WM.function("touching_group")
def _touching_group(ctx, s, a):
    """One group: every piece reaches every other through pieces in contact."""
    items = list(a[0])
    if len(items) <= 1:
        return True
    reached, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in range(len(items)):
            if j not in reached and touching_of(items[i], items[j]):
                reached.add(j)
                todo.append(j)
    return len(reached) == len(items)


__all__ = ["WM", "visible", "Entry"]
