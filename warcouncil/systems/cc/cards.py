"""Commands & Colors cards in Python: only what the rule language cannot say.

``mirror_card``  Counter Attack copies the opponent's card with its left and
                 right swapped (the card is rebuilt with the section names
                 exchanged, so its AST compiles like any other card's).
``dice_outcomes`` the battle dice's faces counted, with exact probabilities
                 (cards that order by a roll: I Am Spartacus, Rally).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from fractions import Fraction
from math import factorial
from typing import Iterable

from ...dsl import ast as A


def mirror_card(card: A.CardDecl, swap: dict[str, str]) -> A.CardDecl:
    """The same card with section names swapped (Counter Attack)."""
    def fn(n):
        if isinstance(n, A.Name) and n.id in swap:
            return A.Name(swap[n.id], n.loc)
        return n

    def tx(e):
        return A.transform(e, fn) if isinstance(e, A.Expr) else e

    alts = []
    for alt in card.alternatives:
        quotas = tuple(dataclasses.replace(q, amount=tx(q.amount), where=tx(q.where)) for q in alt.quotas)
        group = dataclasses.replace(alt.group, anchor=tx(alt.group.anchor)) if alt.group else None
        alts.append(dataclasses.replace(alt, when=tx(alt.when), quotas=quotas, group=group))
    return dataclasses.replace(card, alternatives=tuple(alts))


def dice_outcomes(faces: tuple[str, ...], n: int, relevant: Iterable[str] | None = None):
    """Every outcome of rolling ``n`` dice with the given (equally likely)
    faces, grouped by the counts of the ``relevant`` faces, with exact
    probabilities. Yields (counts: dict face->count, Fraction)."""
    relevant = tuple(f for f in faces if relevant is None or f in relevant)
    k = len(faces)
    other = k - len(relevant)
    total = Fraction(1, k**n)
    results: dict[tuple, Fraction] = {}
    for combo in itertools.combinations_with_replacement(range(len(relevant) + 1), n):
        counts = Counter(combo)
        key = tuple(counts.get(i, 0) for i in range(len(relevant)))
        rest = counts.get(len(relevant), 0)
        ways = factorial(n)
        for c in key:
            ways //= factorial(c)
        ways //= factorial(rest)
        ways *= other**rest
        results[key] = results.get(key, 0) + ways * total
    for key in sorted(results, key=lambda t: tuple(-c for c in t)):
        yield dict(zip(relevant, key)), results[key]
