"""The generators agree with ``check`` (issue 11).

On small random CCA and CCM boards, every destination ``Engine.destinations``
lists for an ordered piece, and every end position
``warcouncil.systems.cc.turns`` yields for an order set, is legal under
``Engine.check_turn``: the turn is built from it (the ordered pieces, one
move per piece that moved, attached leaders going along implicitly) and
checked. Moves are tried in every order (``check`` judges each move on the
board as the earlier ones left it); a warrior that moved may add the close
combat its charge makes compulsory.

A destination ``CardEngine.must_battle`` flags (``moves --json``'s
``"must_battle": true``) is legal with a close combat declared from it and
illegal, breaking exactly the rule that makes the battle compulsory,
without one; every other destination is legal with no battle declared.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from warcouncil.dsl.pack import load_pack
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.scenario import load_scenario
from warcouncil.kernel.turn import load_turn
from warcouncil.systems.cc.turns import _Turns

from conftest import scenario_dict, scratch_dir

TMP = scratch_dir("warcouncil-agree-")
PACKS = {"cca": load_pack("cca"), "ccm": load_pack("ccm")}
CARDS = {"cca": ["Order Three Units Center", "Order Light Troops", "Order Mounted Troops"],
         "ccm": ["Order Three Units Center", "Order Light Troops"]}
TERRAIN = {"cca": ["forest", "hill", "broken_ground", "marsh", "river", "ford"], "ccm": ["river"]}
# a small patch of the centre section: pieces crowd each other
PATCH = [(c, r) for r in range(4, 8) for c in range(5, 8)]
ENEMY_ROW = [(c, 3) for c in range(4, 9)]
MAX_ORDER_SETS = 8
MAX_ENDS = 30
N = iter(itertools.count())


@st.composite
def boards(draw):
    system = draw(st.sampled_from(sorted(PACKS)))
    pack = PACKS[system]
    types = sorted(pack.units)
    cells = draw(st.lists(st.sampled_from(PATCH), min_size=1, max_size=3, unique=True))
    units = [(f"u{i}", "red", draw(st.sampled_from(types)), list(c)) for i, c in enumerate(cells)]
    # leaders: attached (on a unit's hex) or alone, at most one per hex
    spots = draw(st.lists(st.sampled_from(PATCH), max_size=2, unique=True))
    leaders = [(f"l{i}", "red", list(c)) for i, c in enumerate(spots)]
    foes = draw(st.lists(st.sampled_from(ENEMY_ROW + [(4, 5), (8, 5)]), min_size=1, max_size=2, unique=True))
    units += [(f"e{i}", "blue", draw(st.sampled_from(types)), list(c)) for i, c in enumerate(foes)]
    free = [c for c in PATCH + ENEMY_ROW if c not in cells and c not in spots and c not in foes]
    terrain = draw(st.dictionaries(st.sampled_from(free), st.sampled_from(TERRAIN[system]), max_size=3))
    card = draw(st.sampled_from(CARDS[system]))
    return system, units, leaders, terrain, card


def _engine(system, units, leaders, terrain) -> Engine:
    data = scenario_dict(units, leaders, system=system)
    if terrain:
        data["terrain"] = [{"at": list(c), "type": t} for c, t in terrain.items()]
    p = TMP / f"s{next(N)}.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return Engine(load_scenario(str(p)), PACKS[system])


def _legal(eng, card, orders, moves, followers, battles=None) -> tuple[bool, list]:
    """Is some order of ``moves`` ([(piece, hex)]), with or without a
    warrior's close combat, a legal turn? It must be so both with the
    attached leaders going along implicitly and with their moves listed,
    to their unit's hex, right after its move. (False, violations) if not.
    ``battles``: "none", no battle declared; "close", each moving unit
    closes combat with a foe next to its end; None, either for a warrior."""
    for listed in (False, True):
        ok, why = _some_order(eng, card, orders, moves, followers if listed else {}, battles)
        if not ok:
            return False, ("listed" if listed else "implicit", why)
    return True, []


def _some_order(eng, card, orders, moves, followers, battles_wanted=None):
    best = None
    if battles_wanted is None:
        fighters = [p for p, _ in moves if p.type == "warrior"]
    else:
        fighters = [p for p, _ in moves if p.role == "unit"] if battles_wanted == "close" else []
    for order in itertools.permutations(moves):
        choices = []  # per fighter: no battle (a warrior, unless wanted), or one with each foe next to its end
        for w in fighters:
            to = dict(moves)[w]
            foes = [e for e in eng.scenario.units if e.side != w.side
                    and eng.scenario.board.distance(tuple(e.at), tuple(to)) == 1]
            choices.append([None] * (battles_wanted is None) + [{"piece": w.id, "target": e.id} for e in foes])
        battle_sets = [[b for b in combo if b is not None] for combo in itertools.product(*choices)]
        listed = []
        for p, c in order:
            listed.append({"piece": p.id, "to": list(c)})
            listed += [{"piece": ldr.id, "to": list(c)} for ldr in followers.get(p, ())]
        for battles in battle_sets:
            data = {"card": card, "orders": sorted(p.id for p in orders), "moves": listed, "battles": battles}
            p = TMP / f"t{next(N)}.yaml"
            p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
            v = eng.check_turn(load_turn(str(p), eng.scenario.board))
            if v.legal:
                return True, []
            if best is None:
                best = [(x.rule, x.pieces) for x in v.violations]
    return False, best


# a unit carrying its leader next to a lone friendly leader (issue 11), in
# both packs; and a light foot unit next to a friendly unit with its leader
CARRIER = ([("u0", "red", "heavy_infantry", [6, 6]), ("e0", "blue", "heavy_infantry", [6, 3])],
           [("l0", "red", [6, 6]), ("l1", "red", [6, 5])], {})
# a warrior two hexes from a foe, with his leader: [6,4] and [7,4] are a charge
CHARGE = ([("u0", "red", "warrior", [6, 6]), ("e0", "blue", "heavy_infantry", [6, 3])], [("l0", "red", [6, 6])], {})
PASSING = ([("u0", "red", "light_bow_infantry", [6, 6]), ("u1", "red", "heavy_infantry", [6, 5]),
            ("e0", "blue", "heavy_infantry", [4, 3])], [("l0", "red", [6, 5])], {(5, 5): "river"})


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(boards())
@example(("cca", *CARRIER, "Order Three Units Center"))
@example(("ccm", *CARRIER, "Order Three Units Center"))
@example(("cca", *PASSING, "Order Light Troops"))
@example(("cca", *CHARGE, "Order Three Units Center"))
@example(("ccm", *CHARGE, "Order Three Units Center"))
def test_destinations_and_end_positions_are_legal(board):
    system, units, leaders, terrain, card = board
    eng = _engine(system, units, leaders, terrain)
    g = eng.ground(card)
    enum = eng.enumerator(g)
    for s in itertools.islice(enum.order_sets(), MAX_ORDER_SETS):
        ordered = sorted(s, key=lambda p: p.rank)
        alt = next(a.alt for a in enum.alts if a.legal(s))
        solver = _Turns(eng, g, s, alt)
        followers = solver.followers  # {unit: [attached leaders going with it]}
        legal, dests = eng.destinations(g, [p.id for p in ordered])
        must = eng.must_battle(g, [p.id for p in ordered], dests)
        assert legal
        for p in ordered:
            for cell in dests[p.id]:
                where = (system, card, [q.id for q in ordered], p.id, cell)
                if cell in must.get(p.id, ()):
                    ok, why = _legal(eng, card, ordered, [(p, cell)], followers, "close")
                    assert ok, (*where, why)
                    ok, why = _legal(eng, card, ordered, [(p, cell)], followers, "none")
                    assert not ok and why[1] == [(f"{system}.battle.warrior-compulsory", [p.id])], (*where, why)
                else:
                    ok, why = _legal(eng, card, ordered, [(p, cell)], followers, "none")
                    assert ok, (*where, why)
        carried = {ldr for ls in followers.values() for ldr in ls}
        for end in itertools.islice(solver.positions(), MAX_ENDS):
            moves = [(q, c) for q, c in end.items() if q not in carried and c != q.at]
            ok, why = _legal(eng, card, ordered, sorted(moves, key=lambda m: m[0].rank), followers)
            assert ok, (system, card, [q.id for q in ordered], {q.id: c for q, c in end.items()}, why)
