"""Two graph facts the order rules need, each written once.

* **Connectivity** (``linked``/``led`` groups): a flood fill from one node.
  ``connected`` runs it over a set of nodes with a neighbour table (hexes);
  ``connected_mask`` runs the same fill over a bit mask of pieces with
  each piece's neighbours as a mask (``Setting.adj_masks``), the enumerator's
  form. ``connected_subsets`` grows every connected set once.
* **Hall's condition** (``assignable``: can the ordered pieces be charged to
  the card's quotas without overspending one?): by Hall's theorem, for
  every set T of quotas with finite caps, the pieces only T's quotas admit
  may not outnumber T's orders. ``hall_table`` lists those conditions once
  per alternative; ``hall_excess`` checks a set of pieces against them;
  ``hall_conditions`` gives the same sets T to the enumerator's count
  vectors.

Sets of own pieces are bit masks (bit i: the setting's piece of rank i).
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping, Sequence


# ------------------------------------------------------------------ connectivity


def connected(nodes: Iterable[Hashable], neighbours: Mapping) -> bool:
    """Are ``nodes`` one group under ``neighbours`` (node -> its neighbours)?"""
    nodes = set(nodes)
    if len(nodes) <= 1:
        return True
    start = next(iter(nodes))
    seen, stack = {start}, [start]
    while stack:
        c = stack.pop()
        for n in neighbours[c]:
            if n in nodes and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(nodes)


def connected_mask(m: int, adj: Sequence[int]) -> bool:
    """``connected`` on a bit mask: ``adj[i]`` is node i's neighbours as a mask."""
    if not m:
        return True
    seen = frontier = m & -m
    while frontier:
        b = frontier & -frontier
        frontier ^= b
        new = adj[b.bit_length() - 1] & m & ~seen
        seen |= new
        frontier |= new
    return seen == m


def connected_subsets(items: int, roots: int, adj: Sequence[int], limit: int) -> list[int]:
    """Every connected set of the nodes of ``items`` with at most ``limit``
    nodes that holds one of ``roots``, as masks, the empty set first; each
    set is grown once, from its first root (extension-set growth: a
    frontier node joins, or is banned from the rest of the branch)."""
    out = [0]
    if limit < 1:
        return out
    append = out.append

    def rec(cur, frontier, banned, size):
        append(cur)
        if size >= limit:
            return
        while frontier:
            w = frontier & -frontier
            frontier ^= w
            banned |= w
            rec(cur | w, (frontier | adj[w.bit_length() - 1]) & ~banned, banned, size + 1)

    roots &= items
    excluded = ~items  # nodes outside ``items`` never join
    while roots:
        b = roots & -roots
        roots ^= b
        rec(b, adj[b.bit_length() - 1] & ~excluded & ~b, excluded | b, 1)
        excluded |= b
    return out


# ------------------------------------------------------------------ Hall's condition


def hall_conditions(caps: Sequence[int | None]) -> list[tuple[int, int]]:
    """(T, T's orders) for every non-empty set T of quotas (a mask: bit i,
    quota i, of caps ``caps``; None: unbounded) whose caps are all finite,
    in increasing T. T's orders by subset recursion (T less its lowest quota)."""
    full = (1 << len(caps)) - 1
    sums: list = [0] * (full + 1)
    out = []
    for t in range(1, full + 1):
        low = t & -t
        c, cap = sums[t ^ low], caps[low.bit_length() - 1]
        c = sums[t] = None if c is None or cap is None else c + cap
        if c is not None:
            out.append((t, c))
    return out


def hall_table(quota_masks: Sequence[int], caps: Sequence[int | None], admitted: int) -> tuple:
    """The conditions of Hall's theorem for charging pieces to quotas
    (``quota_masks[i]``: the pieces quota i admits; ``admitted``: the
    pieces charged at all, among them those no quota admits, which any
    quota may pay for): ((outside, orders), ...) in increasing T, where the
    pieces only T's quotas admit are those of a set not in ``outside``."""
    union = 0
    for qm in quota_masks:
        union |= qm
    anywhere = admitted & ~union  # admitted by no quota: only for T = every quota
    full = (1 << len(caps)) - 1
    out = []
    for t, orders in hall_conditions(caps):
        outside = 0
        if t != full:
            outside = anywhere
            for i, qm in enumerate(quota_masks):
                if not t >> i & 1:
                    outside |= qm
        out.append((outside, orders))
    return tuple(out)


def hall_excess(table: tuple, admitted: int, charged: int) -> int:
    """0 if the pieces of ``charged`` (a mask) can be charged to the quotas
    of ``table`` (``hall_table``) without overspending one; otherwise the
    pieces only the first overspent set of quotas admits."""
    charged &= admitted
    if not charged:
        return 0
    for outside, orders in table:
        only = charged & ~outside
        if only.bit_count() > orders:
            return only
    return 0
