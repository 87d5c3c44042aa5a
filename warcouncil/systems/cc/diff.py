"""What house rules change: order sets and moves that become legal or illegal.

Two engines answer the same question — the scenario with its own rules
(*before*), and the same scenario with the house-rule layers on top
(*after*). Every difference is explained by the other engine's verdict: an
order set the house rules make legal is listed with the rules that forbade
it before; one they make illegal, with the (house) rules that now forbid it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import WarcouncilError
from ...kernel.engine import Engine
from ...kernel.turn import Turn, TurnMove


@dataclass
class Change:
    what: dict  # an order set {"units", "leaders"} or a destination {"to", "battle"}
    because: list  # [Violation.as_json() + "file"] of the engine that says no

    def as_json(self) -> dict:
        return {**self.what, "because": self.because}


@dataclass
class Diff:
    card: str
    side: str
    layers: list[str]
    before: int = 0
    after: int = 0
    legal_now: list[Change] = field(default_factory=list)  # order sets the house rules allow
    illegal_now: list[Change] = field(default_factory=list)  # order sets they forbid
    moves: dict = field(default_factory=dict)  # piece -> {"legal_now": [...], "illegal_now": [...], "battle": [...]}

    def as_json(self) -> dict:
        return {
            "card": self.card,
            "side": self.side,
            "rules": self.layers,
            "order_sets": {
                "before": self.before,
                "after": self.after,
                "legal_now": [c.as_json() for c in self.legal_now],
                "illegal_now": [c.as_json() for c in self.illegal_now],
            },
            "moves": {
                pid: {k: [c.as_json() for c in v] for k, v in d.items()} for pid, d in self.moves.items()
            },
        }


def _why(verdict) -> list[dict]:
    out = []
    for v in verdict.violations:
        j = v.as_json()
        j["file"] = v.origin
        out.append(j)
    return out


def diff(scenario: "str | Engine", layers: list[str], card: str, *, side=None, roll=None, copies=None,
         command=None, orders: list[str] | None = None, limit: int | None = None) -> Diff:
    """The changes ``layers`` make on ``scenario`` (a scenario's name or
    path, or the engine of a scenario without them) for ``card``."""
    if not layers:
        raise WarcouncilError("diff needs house rules: give them with --rules FILE")
    before = scenario if isinstance(scenario, Engine) else Engine.load(scenario)
    before.system.require_verb("diff")
    after = Engine.load(before.scenario, list(layers))
    kw = dict(side=side, roll=roll, copies=copies, command=command)
    gb, ga = before.ground(card, **kw), after.ground(card, **kw)
    key = lambda e, g, s: tuple(sorted(p.id for p in s))  # noqa: E731
    sets_b = {key(before, gb, s): s for s in before.order_sets(gb)}
    sets_a = {key(after, ga, s): s for s in after.order_sets(ga)}
    d = Diff(ga.played, ga.setting.side, [str(x) for x in layers], len(sets_b), len(sets_a))
    for k in sorted(set(sets_a) - set(sets_b), key=lambda k: (len(k), k))[:limit]:
        d.legal_now.append(Change(after.order_set_json(ga, sets_a[k]), _why(before.check_orders(gb, list(k)))))
    for k in sorted(set(sets_b) - set(sets_a), key=lambda k: (len(k), k))[:limit]:
        d.illegal_now.append(Change(before.order_set_json(gb, sets_b[k]), _why(after.check_orders(ga, list(k)))))
    # moves: of the given order set, or of each piece the card can order alone
    if orders:
        groups = [list(orders)]
    else:
        alone = sorted({k[0] for k in list(sets_a) + list(sets_b) if len(k) == 1})
        groups = [[pid] for pid in alone]
    for ids in groups:
        lb = before.destinations(gb, ids)
        la = after.destinations(ga, ids)
        for pid in ids:
            db = lb[1].get(pid, {}) if lb[0] else {}
            da = la[1].get(pid, {}) if la[0] else {}
            entry = {"legal_now": [], "illegal_now": [], "battle_changed": []}
            for cell in sorted(set(da) - set(db), key=lambda c: (c[1], c[0]))[:limit]:
                why = _why(before.check_turn(_one_move(card, ids, pid, cell, kw))) if lb[0] else []
                entry["legal_now"].append(Change(_dest(cell, da[cell]), why))
            for cell in sorted(set(db) - set(da), key=lambda c: (c[1], c[0]))[:limit]:
                why = _why(after.check_turn(_one_move(card, ids, pid, cell, kw))) if la[0] else []
                entry["illegal_now"].append(Change(_dest(cell, db[cell]), why))
            for cell in sorted(set(db) & set(da), key=lambda c: (c[1], c[0])):
                if db[cell] != da[cell]:
                    entry["battle_changed"].append(Change({"to": list(cell), "battle_before": db[cell],
                                                           "battle_after": da[cell]}, []))
            if any(entry.values()):
                d.moves[pid] = entry
    return d


def _dest(cell, battle) -> dict:
    out = {"to": list(cell)}
    if battle is not None:
        out["battle"] = battle
    return out


def _one_move(card, ids, pid, cell, kw) -> Turn:
    from ...errors import Location

    where = Location("<diff>")
    return Turn(card=card, orders=list(ids), orders_where=[where] * len(ids),
                moves=[TurnMove(pid, tuple(cell), (), where)], roll=kw.get("roll"),
                copies=kw.get("copies"), command=kw.get("command"), side=kw.get("side"))
