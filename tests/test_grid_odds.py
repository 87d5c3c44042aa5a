"""Square-grid ancients: exact odds for the rolls on the sheet, against the
reference's tables (shared/reference/grid-ancients.md) and against icepool
computing the same rolls independently; and removal tests (a house layer
drops a modifier or substitution, the distribution changes)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction as F

import icepool
import pytest

from conftest import run_cli
from gridkit import ALESIA, assert_replacing_gives, engine, house, scenario, unit, write

D6 = icepool.d6


def ice(die) -> dict:
    return {o: die.probability(o) for o in die.outcomes() if die.probability(o)}


def odds(eng, **test):
    dist, _ = eng.odds(test)
    return dist


def fr(table: dict) -> dict:
    return {k: F(v) for k, v in table.items() if F(v)}


TYPES = ("formed_infantry", "light_infantry", "infantry_skirmishers", "cavalry", "light_cavalry")
BONUS = {"formed_infantry": 0, "light_infantry": 1, "infantry_skirmishers": 1, "cavalry": 2, "light_cavalry": 3}


def _types_board(tmp_path, fatigued=False, **kw):
    units = [unit(f"u{i}", "red", (0, i), "north", type=t) for i, t in enumerate(TYPES)]
    units.append(unit("e", "blue", (6, 0), "south"))
    red = {"command_points": {"attack": 3}, "fatigued": fatigued, "break_point": 10}
    return engine(scenario(tmp_path, units, red=red, **kw))


# the reference's §4.2 table: F, 1, 2, 3, 4 MP (in sixths)
MOVEMENT = {
    ("formed_infantry", False): (1, 2, 2, 1, 0), ("formed_infantry", True): (2, 1, 2, 1, 0),
    ("light_infantry", False): (1, 1, 2, 2, 0), ("light_infantry", True): (2, 0, 2, 2, 0),
    ("infantry_skirmishers", False): (1, 1, 2, 2, 0), ("infantry_skirmishers", True): (2, 0, 2, 2, 0),
    ("cavalry", False): (1, 0, 2, 2, 1), ("cavalry", True): (2, 0, 1, 2, 1),
    ("light_cavalry", False): (1, 0, 1, 2, 2), ("light_cavalry", True): (2, 0, 0, 2, 2),
}


def _movement_ice(bonus, fatigued, ap=0):
    def f(n):
        if n == 1 or (fatigued and n <= 2):
            return "failed"
        r = n + bonus + ap
        return str(0 if r <= 1 else 1 if r <= 3 else 2 if r <= 5 else 3 if r <= 7 else 4)
    return ice(D6.map(f))


@pytest.mark.parametrize("fatigued", [False, True])
def test_movement_rolls_match_the_reference_and_icepool(tmp_path, fatigued):
    eng = _types_board(tmp_path, fatigued)
    for i, t in enumerate(TYPES):
        got = odds(eng, test="movement", unit=f"u{i}")
        want = {k: F(n, 6) for k, n in zip(("failed", "1", "2", "3", "4"), MOVEMENT[(t, fatigued)]) if n}
        assert got == want, t
        assert got == _movement_ice(BONUS[t], fatigued)


@pytest.mark.parametrize("t, ap, row", [
    ("formed_infantry", 1, (1, 1, 2, 2, 0)), ("formed_infantry", 2, (1, 0, 2, 2, 1)),
    ("formed_infantry", 3, (1, 0, 1, 2, 2)), ("cavalry", 1, (1, 0, 1, 2, 2)),
    ("cavalry", 2, (1, 0, 0, 2, 3)), ("cavalry", 3, (1, 0, 0, 1, 4)),
])
def test_a_charge_with_attack_points(tmp_path, t, ap, row):
    eng = _types_board(tmp_path)
    got = odds(eng, test="movement", unit=f"u{TYPES.index(t)}", attack_points=ap)
    assert got == {k: F(n, 6) for k, n in zip(("failed", "1", "2", "3", "4"), row) if n}
    assert got == _movement_ice(BONUS[t], False, ap)


def test_a_movement_point_rerolls_a_failed_roll(tmp_path):
    eng = _types_board(tmp_path)
    got = odds(eng, test="movement", unit="u0", reroll=True)
    first = _movement_ice(0, False)
    want = {k: p * F(1, 6) + (p if k != "failed" else 0) for k, p in first.items()}
    assert got == want and got["failed"] == F(1, 36)


def test_removing_the_natural_one_rule_changes_the_movement_roll(tmp_path):
    sc = scenario(tmp_path, [unit("a", "red", (0, 0), "north"), unit("e", "blue", (5, 0), "south")])
    h = house(tmp_path, 'replace define ga.natural-one\n    from house "A house rule for the tests."\n'
                        '    natural_fails(n) := false\n')
    assert odds(engine(sc), test="movement", unit="a")["failed"] == F(1, 6)
    assert odds(engine(sc, [h]), test="movement", unit="a") == {"0": F(1, 6), "1": F(1, 3), "2": F(1, 3), "3": F(1, 6)}


def test_removing_the_fatigue_rule_changes_the_movement_roll(tmp_path):
    eng = _types_board(tmp_path, fatigued=True)
    h = house(tmp_path, 'replace define ga.fatigued-roll\n    from house "A house rule for the tests."\n'
                        '    fatigue_fails(u, n) := false\n')
    eng2 = engine(eng.scenario.path, [h])
    assert odds(eng, test="movement", unit="u0")["failed"] == F(1, 3)
    assert odds(eng2, test="movement", unit="u0")["failed"] == F(1, 6)


# ---------------------------------------------------------------- manoeuvre tests

# the reference's §5.3 (no re-roll): P(pass) by MR and net modifier 0, -1, -2, -3
MANOEUVRE = {1: (5, 5, 4, 3), 2: (5, 4, 3, 2), 3: (4, 3, 2, 1), 4: (3, 2, 1, 1), 5: (2, 1, 1, 1), 6: (1, 1, 1, 1)}


@pytest.mark.parametrize("mr", sorted(MANOEUVRE))
def test_manoeuvre_tests_match_the_reference(tmp_path, mr):
    # formed infantry, not drilled: about face (-1); rough (-1 infantry, -2 cavalry)
    units = [unit("i", "red", (0, 0), "north", manoeuvre=mr), unit("c", "red", (0, 2), "north", type="cavalry",
                                                                  manoeuvre=mr)]
    eng = engine(scenario(tmp_path, units))
    cases = [("i", "forward", False, 0), ("i", "about_face", False, 1), ("i", "forward", True, 1),
             ("i", "about_face", True, 2), ("c", "forward", True, 2), ("c", "about_face", True, 3)]
    for uid, kind, rough, m in cases:
        got = odds(eng, test="manoeuvre", unit=uid, manoeuvre=kind, rough=rough)
        p = F(MANOEUVRE[mr][m], 6)
        assert got == {k: v for k, v in (("pass", p), ("fail", 1 - p)) if v}, (uid, kind, rough)
        want = ice(D6.map(lambda n: "fail" if n == 1 else "pass" if n == 6 else
                          ("pass" if n - m >= mr else "fail")))
        assert got == want


def test_rerolls_drilled_skirmishers_and_a_movement_point(tmp_path):
    units = [unit("d", "red", (0, 0), "north", characteristics=["drilled"]),
             unit("s", "red", (0, 2), "north", type="infantry_skirmishers", manoeuvre=4),
             unit("p", "red", (0, 4), "north")]
    eng = engine(scenario(tmp_path, units, terrain=[((0, 2), "rough")]))
    p = F(3, 6)
    once = 1 - (1 - p) ** 2
    assert odds(eng, test="manoeuvre", unit="d")["pass"] == once
    assert odds(eng, test="manoeuvre", unit="d", rough=True)["pass"] == F(2, 6)  # drilled only in the open
    # a skirmisher in rough re-rolls once; with a Movement Point, twice
    q = F(2, 6)
    assert odds(eng, test="manoeuvre", unit="s")["pass"] == 1 - (1 - q) ** 2
    assert odds(eng, test="manoeuvre", unit="s", movement_point=True)["pass"] == 1 - (1 - q) ** 3
    assert odds(eng, test="manoeuvre", unit="p", movement_point=True)["pass"] == once


def test_removing_the_drilled_reroll(tmp_path):
    sc = scenario(tmp_path, [unit("d", "red", (0, 0), "north", characteristics=["drilled"])])
    h = house(tmp_path, 'replace define ga.drilled-reroll\n    from house "A house rule for the tests."\n'
                        '    drilled_reroll(u, rough) := false\n')
    assert odds(engine(sc), test="manoeuvre", unit="d")["pass"] == F(3, 4)
    assert odds(engine(sc, [h]), test="manoeuvre", unit="d")["pass"] == F(1, 2)


def test_nomadic_cavalry_about_face_is_free(tmp_path):
    sc = scenario(tmp_path, [unit("n", "red", (0, 0), "north", type="light_cavalry", characteristics=["nomadic_cavalry"])])
    assert odds(engine(sc), test="manoeuvre", unit="n", manoeuvre="about_face") == {"pass": 1}
    assert odds(engine(sc), test="manoeuvre", unit="n", manoeuvre="turn_left")["fail"] > 0


def test_the_sheets_manoeuvre_names(tmp_path):
    """The sheet's names in snake case (`oblique_advance`, `forward_turn`,
    `drifting`, `about_face`) are tests of their own. Formed infantry, MR 3:
    a manoeuvre passes on 3-6 (4/6), an About Face (-1) on 4-6 (3/6); in
    rough ground (infantry -1) on 4-6 and 5-6 (2/6). A cavalry unit in rough
    (-2): 5-6 and, with the About Face, a natural 6 only (1/6)."""
    sc = scenario(tmp_path, [unit("i", "red", (0, 0), "north", manoeuvre=3),
                             unit("c", "red", (0, 2), "north", type="cavalry", manoeuvre=3)])
    eng = engine(sc)
    want = {("i", False): {"oblique_advance": F(4, 6), "forward_turn": F(4, 6), "drifting": F(4, 6),
                           "about_face": F(3, 6)},
            ("i", True): {"oblique_advance": F(3, 6), "forward_turn": F(3, 6), "drifting": F(3, 6),
                          "about_face": F(2, 6)},
            ("c", True): {"oblique_advance": F(2, 6), "forward_turn": F(2, 6), "drifting": F(2, 6),
                          "about_face": F(1, 6)}}
    for (uid, rough), table in want.items():
        for name, p in table.items():
            assert (uid, rough, name, odds(eng, test="manoeuvre", unit=uid, manoeuvre=name, rough=rough)) == (
                uid, rough, name, {"pass": p, "fail": 1 - p})
    # the directional forms give the same odds
    precise = {"oblique_advance": ("oblique_left", "oblique_right"), "forward_turn": ("turn_left", "turn_right"),
               "drifting": ("drift_left", "drift_right")}
    for name, forms in precise.items():
        for form in forms:
            assert odds(eng, test="manoeuvre", unit="i", manoeuvre=form) == {"pass": F(4, 6), "fail": F(2, 6)}
    # from a test file, on the command line
    code, out, err = run_cli("odds", sc, write(tmp_path, "t.yaml", {"test": "manoeuvre", "unit": "i",
                                                                      "manoeuvre": "forward_turn"}), "--json")
    assert (code, err, json.loads(out)["outcomes"]) == (0, "", {"pass": "2/3", "fail": "1/3"})


# ---------------------------------------------------------------- discipline and reform

# the reference's §8.1: pass, plain fail, critical (in 36ths) by DR
DISCIPLINE = {3: (35, 0, 1), 4: (33, 2, 1), 5: (30, 4, 2), 6: (26, 8, 2), 7: (21, 12, 3), 8: (15, 18, 3),
              9: (10, 22, 4), 10: (6, 26, 4), 11: (3, 28, 5), 12: (1, 30, 5)}


def _disc_ice(dr, bonus=0):
    return ice(icepool.map(lambda a, b: "pass" if a + b + bonus >= dr else "critical" if a == b else "fail", D6, D6))


@pytest.mark.parametrize("dr", sorted(DISCIPLINE))
def test_discipline_tests_match_the_reference(tmp_path, dr):
    eng = engine(scenario(tmp_path, [unit("a", "red", (0, 0), "north", discipline=dr),
                                     unit("lc", "red", (0, 2), "north", discipline=dr + 1,
                                          attachments=["light_chariot_line"])]))
    want = {k: F(n, 36) for k, n in zip(("pass", "fail", "critical"), DISCIPLINE[dr]) if n}
    assert odds(eng, test="discipline", unit="a") == want == _disc_ice(dr)
    assert odds(eng, test="discipline", unit="lc") == want  # +1: the row for DR - 1


def test_reform_counts_enemy_zocs_and_the_general(tmp_path):
    units = [unit("a", "red", (2, 2), "north", discipline=7, disordered=True),
             unit("b", "blue", (3, 1), "south"),          # its front squares are a's
             unit("c", "blue", (1, 2), "east")]           # (1,2),(1,3): its front (2,2),(2,3)
    gens = [{"id": "gen", "side": "red", "attached_to": "a", "generalship": 1}]
    eng = engine(scenario(tmp_path, units, generals=gens))
    dist, extra = eng.odds({"test": "reform", "unit": "a"})
    assert extra["modifier"] == 1 - 2
    assert dist == {k: F(n, 36) for k, n in zip(("pass", "fail", "critical"), DISCIPLINE[8])}
    h = house(tmp_path, 'replace define ga.reform-zoc\n    from house "A house rule for the tests."\n'
                        '    reform_zoc(u) := 0\n')
    eng2 = engine(eng.scenario.path, [h])
    assert eng2.odds({"test": "reform", "unit": "a"})[0] == {k: F(n, 36) for k, n in
                                                            zip(("pass", "fail", "critical"), DISCIPLINE[6])}


def test_brave_and_a_defence_point_reroll_a_failed_discipline_test(tmp_path):
    eng = engine(scenario(tmp_path, [unit("a", "red", (0, 0), "north", discipline=8, characteristics=["brave"])]))
    p = F(15, 36)
    assert odds(eng, test="discipline", unit="a", brave=True)["pass"] == 1 - (1 - p) ** 2
    assert odds(eng, test="discipline", unit="a", brave=True, defence_point=True)["pass"] == 1 - (1 - p) ** 3


# ---------------------------------------------------------------- failed outcomes

# the reference's §8.2: rout, retiring, disordered by total modifier (in 36ths)
FAILED = {0: (6, 9, 21), -1: (10, 11, 15), -2: (15, 11, 10), -3: (21, 9, 6), -4: (26, 7, 3), -5: (30, 5, 1),
          -6: (33, 3, 0), -7: (35, 1, 0), -8: (36, 0, 0)}


@pytest.mark.parametrize("by", range(0, 9))
def test_failed_reform_outcome_by_critical_margin(tmp_path, by):
    eng = engine(scenario(tmp_path, [unit("a", "red", (0, 0), "north", disordered=True)]))
    want = {k: F(n, 36) for k, n in zip(("rout", "retiring", "disordered"), FAILED[-by]) if n}
    assert odds(eng, test="failed_reform", unit="a", critical_by=by) == want
    assert want == ice(icepool.map(lambda a, b: "rout" if a + b - by <= 4 else "retiring" if a + b - by <= 6
                                   else "disordered", D6, D6))


def test_failed_discipline_modifiers_each_count(tmp_path):
    units = [unit("a", "red", (0, 0), "north"), unit("s", "red", (0, 2), "north", type="infantry_skirmishers"),
             unit("lc", "red", (0, 4), "north", type="light_chariots")]
    eng = engine(scenario(tmp_path, units, red={"fatigued": True}))
    row = lambda m: {k: F(n, 36) for k, n in zip(("rout", "retiring", "disordered"), FAILED[m]) if n}
    assert odds(eng, test="failed_discipline", unit="a") == row(-2)                        # fatigued
    assert odds(eng, test="failed_discipline", unit="a", cause="cause_fear") == row(-4)
    assert odds(eng, test="failed_discipline", unit="a", cause="cause_fear_line") == row(-3)
    assert odds(eng, test="failed_discipline", unit="s", cause="combat") == row(-4)       # skirmisher in combat
    assert odds(eng, test="failed_discipline", unit="lc", cause="combat") == row(-2)      # not light chariots
    assert odds(eng, test="failed_discipline", unit="a", reserve=True) == row(-4)
    assert odds(eng, test="failed_discipline", unit="a", critical_by=2) == row(-4)


def test_already_disordered_immobile_and_elephants(tmp_path):
    units = [unit("d", "red", (0, 0), "north", disordered=True), unit("i", "red", (0, 2), "north",
                                                                     characteristics=["immobile"]),
             unit("el", "red", (0, 4), "north", type="elephants")]
    eng = engine(scenario(tmp_path, units))
    assert odds(eng, test="failed_discipline", unit="d") == {"rout": 1}
    assert odds(eng, test="failed_discipline", unit="i") == {"destroyed": F(15, 36), "disordered": F(21, 36)}
    assert odds(eng, test="failed_discipline", unit="el", critical_by=1) == {"stampede": 1}
    h = house(tmp_path, 'replace define ga.already-disordered\n    from house "A house rule for the tests."\n'
                        '    discipline_outcome(u, r) := r\n')
    assert odds(engine(eng.scenario.path, [h]), test="failed_discipline", unit="d")["disordered"] == F(21, 36)


# ---------------------------------------------------------------- combat

def _face_dist(n, highest=True):
    if n == 1:
        return ice(D6)
    return ice((icepool.highest if highest else icepool.lowest)(*[D6] * n))


NAMES = {1: "repulsed", 2: "grind", 3: "stand", 4: "push_back", 5: "advance", 6: "crunch"}


@pytest.mark.parametrize("acr, dcr, n, highest", [(3, 3, 1, True), (4, 3, 2, True), (6, 3, 3, True),
                                                  (3, 4, 2, False), (3, 6, 3, False), (2, 5, 3, False)])
def test_combat_dice_and_the_chooser(tmp_path, acr, dcr, n, highest):
    units = [unit("a", "red", (2, 3), "north", combat=acr), unit("d", "blue", (3, 2), "south", combat=dcr)]
    eng = engine(scenario(tmp_path, units))
    dist, extra = eng.odds({"test": "combat", "attacker": "a", "defender": "d"})
    assert (extra["attacker_rating"], extra["defender_rating"], extra["dice"]) == (acr, dcr, n)
    faces = _face_dist(n, highest)
    want = {NAMES[f]: p * F(5, 6) for f, p in faces.items()}
    want["cancelled"] = F(1, 6)
    assert dist == want


def test_the_reference_chosen_face_table():
    # §7.2: face chosen from n dice, highest wanted (in 36ths / 216ths)
    assert [_face_dist(2)[f] * 36 for f in range(1, 7)] == [1, 3, 5, 7, 9, 11]
    assert [_face_dist(3)[f] * 216 for f in range(1, 7)] == [1, 7, 19, 37, 61, 91]


def test_combat_modifiers_rough_support_flank_disorder(tmp_path):
    # a attacks d; f supports a from its side; d is disordered and attacked... in its front
    units = [unit("a", "red", (2, 3), "north", combat=4), unit("f", "red", (4, 3), "north", combat=1),
             unit("d", "blue", (3, 2), "south", combat=4, disordered=True),
             unit("r", "red", (2, 5), "north", combat=5)]
    eng = engine(scenario(tmp_path, units, terrain=[((2, 5), "rough")], depth=7))
    s = eng.setting()
    v = s.by_id
    assert eng.combat_ratings(s, v["a"], v["d"], False) == (5, 2)
    assert eng.call(s, "base_cr", v["r"]) == 2          # infantry in rough: always 2
    h = house(tmp_path, 'replace define ga.cr-support\n    from house "A house rule for the tests."\n'
                        '    support_bonus(u) := 0\n'
                        'replace define ga.cr-disordered\n    from house "A house rule for the tests."\n'
                        '    disorder_half(u, foe, attacking) := false\n')
    eng2 = engine(eng.scenario.path, [h])
    s2 = eng2.setting()
    assert eng2.combat_ratings(s2, s2.by_id["a"], s2.by_id["d"], False) == (4, 4)


def test_flank_attack_halves_and_a_phalanx_disorders(tmp_path):
    units = [unit("a", "red", (1, 2), "east", combat=4),                      # (1,2),(1,3) facing east
             unit("d", "blue", (2, 2), "north", combat=5),                    # its left flank square is (1,2)
             unit("p", "blue", (2, 4), "north", combat=5, characteristics=["phalanx"]),
             unit("a2", "red", (1, 4), "east", combat=4)]                     # (1,4),(1,5): p's left flank
    eng = engine(scenario(tmp_path, units))
    s = eng.setting()
    from warcouncil.systems.grid.builtins import GRID
    assert GRID.functions["seen_from"](None, s, (s.by_id["d"], s.by_id["a"])) == "flank"
    assert eng.combat_ratings(s, s.by_id["a"], s.by_id["d"], False)[1] == 2     # 5 halved, rounded down
    assert eng.call(s, "combat_rating", s.by_id["p"], s.by_id["a2"], False, False) == 1  # halved twice


def test_substitutions_battle_trained_skirmishers_phalanx_cataphracts(tmp_path):
    units = [unit("a", "red", (2, 3), "north", combat=3), unit("bt", "blue", (3, 2), "south", combat=3,
                                                                characteristics=["battle_trained"]),
             unit("sk", "red", (6, 3), "north", combat=3, characteristics=["battle_trained", "phalanx"]),
             unit("s", "blue", (7, 2), "south", type="infantry_skirmishers", combat=3),
             unit("ph", "red", (2, 6), "north", combat=3, characteristics=["phalanx"]),
             unit("c", "blue", (3, 5), "south", combat=3, characteristics=["cataphracts"])]
    eng = engine(scenario(tmp_path, units, width=10, depth=8))
    one = F(1, 6) * F(5, 6)
    # grind against battle trained becomes repulsed
    assert odds(eng, test="combat", attacker="a", defender="bt") == {
        "cancelled": F(1, 6), "repulsed": 2 * one, "stand": one, "push_back": one, "advance": one, "crunch": one}
    # advance against skirmishers becomes stand; phalanx grind against non battle trained: push back
    assert odds(eng, test="combat", attacker="sk", defender="s") == {
        "cancelled": F(1, 6), "repulsed": one, "push_back": 2 * one, "stand": 2 * one, "crunch": one}
    # cataphracts: two defence dice (11/36) except on repulsed (1/6)
    keep = F(25, 36) / 6
    got = odds(eng, test="combat", attacker="ph", defender="c")
    assert got["repulsed"] == one and got["push_back"] == 2 * keep and got["crunch"] == keep
    assert got["cancelled"] == F(1, 36) + 5 * F(11, 36) / 6
    h = house(tmp_path, 'replace define ga.battle-trained-grind\n    from house "A house rule for the tests."\n'
                        '    battle_trained_grind(att, def) := grind\n'
                        'replace define ga.skirmisher-advance\n    from house "A house rule for the tests."\n'
                        '    advance_result(def) := advance\n'
                        'replace define ga.cataphracts\n    from house "A house rule for the tests."\n'
                        '    cataphract_dice(def, r) := 0\n')
    eng2 = engine(eng.scenario.path, [h])
    assert odds(eng2, test="combat", attacker="a", defender="bt")["grind"] == one
    assert odds(eng2, test="combat", attacker="sk", defender="s")["advance"] == one
    assert odds(eng2, test="combat", attacker="ph", defender="c")["cancelled"] == F(1, 6)


# ---------------------------------------------------------------- shooting

def test_shooting_dice_penalty_and_substitutions(tmp_path):
    units = [unit("s", "red", (2, 4), "north", combat=2, ranged=2, characteristics=["ranged_attack"]),
             unit("t", "blue", (3, 2), "south", combat=3),
             unit("p", "red", (6, 4), "north", combat=2, ranged=6, characteristics=["ranged_attack", "plentiful_missiles"]),
             unit("k", "blue", (7, 2), "south", type="infantry_skirmishers", combat=3)]
    eng = engine(scenario(tmp_path, units, terrain=[((7, 2), "forest")], width=10))
    dist, extra = eng.odds({"test": "shooting", "shooter": "s", "target": "t"})
    assert (extra["dice"], extra["penalty"]) == (1, 1)
    # faces 1..6 - 1: 0 no effect (below one), 1 short (cancelled on a defence 1), 2 no effect, 3 no effect, 4, 5
    assert dist == {"cancelled": F(1, 6), "no_effect": 3 * F(5, 36), "short_of_ammunition": F(5, 36),
                    "push_back": F(5, 36), "telling_shots": F(5, 36)}
    dist, extra = eng.odds({"test": "shooting", "shooter": "p", "target": "k"})
    assert extra["dice"] == 3 and extra["defence_dice"] == 2          # in cover: two defence dice
    assert "short_of_ammunition" not in dist and "telling_shots" not in dist
    faces = _face_dist(3)
    assert dist["withering_shooting"] == faces[6] * F(25, 36)



def test_a_target_shot_in_its_rear_or_flank_from_afar_is_halved(tmp_path):
    """"Target unit shot in Flank or Rear 1/2": judged by where the shooter
    stands as the target faces, at any distance (not only touching). t
    faces north on (3,2),(4,2), Combat Rating 4; each shooter has Ranged 4,
    two squares away. From its rear or flank t's rating is 2: 4 against 2 is
    double, three dice, the highest face chosen (faces 1..6: 1, 7, 19, 37,
    61, 91 in 216), one Defence die cancelling 1/6. From its front, or from
    a corner (a Parthian shooter on its rear left, (1,3),(2,3)), 4 against 4: one die."""
    shooter = {"ranged": 4, "combat": 3, "characteristics": ["ranged_attack"]}
    units = [unit("t", "blue", (3, 2), "north", combat=4),
             unit("rear", "red", (3, 4), "north", **shooter),        # (3,4),(4,4): t's files, behind it
             unit("flank", "red", (6, 2), "west", **shooter),        # (6,2),(6,1): beside t's right end
             unit("front", "red", (4, 0), "south", **shooter),       # (4,0),(3,0): t's files, ahead of it
             unit("corner", "red", (1, 3), "north", **{**shooter, "characteristics": ["ranged_attack",
                                                                                       "parthian_shot"]})]
    eng = engine(scenario(tmp_path, units, width=8, depth=6))
    keep = F(5, 6)
    three = {"cancelled": F(1, 6), "short_of_ammunition": F(1, 216) * keep, "no_effect": F(26, 216) * keep,
             "push_back": F(37, 216) * keep, "telling_shots": F(61, 216) * keep,
             "withering_shooting": F(91, 216) * keep}
    one = {"cancelled": F(1, 6), "short_of_ammunition": F(5, 36), "no_effect": F(10, 36), "push_back": F(5, 36),
           "telling_shots": F(5, 36), "withering_shooting": F(5, 36)}
    for shooter_id, rating, dist in (("rear", 2, three), ("flank", 2, three), ("front", 4, one), ("corner", 4, one)):
        got, extra = eng.odds({"test": "shooting", "shooter": shooter_id, "target": "t"})
        assert (shooter_id, extra["target_rating"], extra["dice"], got) == (shooter_id, rating, 3 if rating == 2 else 1,
                                                                            dist)


def _attack_ice(n, result, wants, cancel, defence):
    """An attack's outcomes by icepool: of ``n`` D6 the chooser keeps the
    one whose result it ``wants`` most (then the highest face), its
    ``result`` cancelled when one of its ``defence`` (result -> count)
    Defence dice shows ``cancel`` (face -> face; off the die: never)."""
    chosen = icepool.highest(*[D6.map(lambda f: (wants(result[f]), f))] * n).map(lambda kf: kf[1])

    def defended(f):
        r, k = result[f], defence(result[f])
        if not (1 <= cancel[f] <= 6) or k == 0:
            return r
        return icepool.map(lambda *ds: "cancelled" if cancel[f] in ds else r, *[D6] * k)
    return ice(chosen.map(defended))


def test_combat_and_shooting_odds_match_icepool(tmp_path):
    """Two Defence dice for cataphracts (one against repulsed) and a
    Defence Point's extra die, three attack dice, a phalanx's grind read as
    a push back; three shooting dice at a target in cover, a shot's result
    read after its penalty, its cancelling face."""
    units = [unit("ph", "red", (2, 6), "north", combat=6, characteristics=["phalanx"]),
             unit("c", "blue", (3, 5), "south", combat=3, characteristics=["cataphracts"]),
             unit("p", "red", (6, 4), "north", combat=2, ranged=6, characteristics=["ranged_attack"]),
             unit("k", "blue", (7, 2), "south", type="infantry_skirmishers", combat=3)]
    eng = engine(scenario(tmp_path, units, terrain=[((7, 2), "forest")], width=10, depth=8))
    s = eng.setting()
    v = s.by_id
    result = {f: eng.call(s, "combat_result", f, v["ph"], v["c"]) for f in range(1, 7)}
    assert result[2] == "push_back"
    want = _attack_ice(3, result, lambda r: eng.call(s, "preference", r), {f: f for f in range(1, 7)},
                       lambda r: eng.call(s, "defence_dice", v["c"], r) + 1)
    assert odds(eng, test="combat", attacker="ph", defender="c", defence_points=1) == want
    dist, extra = eng.odds({"test": "shooting", "shooter": "p", "target": "k"})
    pen = extra["penalty"]
    result = {f: eng.call(s, "shooting_result", f - pen, v["p"], v["k"]) for f in range(1, 7)}
    cancel = {f: eng.call(s, "cancelling_face", result[f], f) for f in range(1, 7)}
    assert (extra["dice"], extra["defence_dice"]) == (3, 2)
    assert dist == _attack_ice(3, result, lambda r: eng.call(s, "shooting_preference", r), cancel, lambda r: 2)


def _checked(eng, option, uid, target, dice, defence):
    """What ``check`` makes of one attack with those dice: its result, or ``cancelled``."""
    _, log = eng.check({"activations": [{"unit": uid, "option": option, "target": target, "dice": list(dice),
                                         "defence": list(defence)}]})
    return log[0]["result"]


def test_check_judges_the_dice_by_the_law_odds_counts(tmp_path):
    """Every throw of a combat's two attack dice and one Defence die, and of
    a shot's one die (its result read after a penalty of 1, a short of
    ammunition cancelled by a 1) and one Defence die, judged by ``check``:
    each result as often as ``odds`` gives it."""
    units = [unit("a", "red", (2, 3), "north", combat=4), unit("d", "blue", (3, 2), "south", combat=3),
             unit("s", "red", (6, 4), "north", combat=2, ranged=2, characteristics=["ranged_attack"]),
             unit("t", "blue", (7, 2), "south", combat=3)]
    eng = engine(scenario(tmp_path, units, width=10))
    for option, test, keys, n in (("combat", "combat", ("attacker", "defender"), 2),
                                  ("shoot", "shooting", ("shooter", "target"), 1)):
        uid, target = ("a", "d") if option == "combat" else ("s", "t")
        counted: dict = {}
        for throw in itertools.product(range(1, 7), repeat=n + 1):
            r = _checked(eng, option, uid, target, throw[:n], throw[n:])
            counted[r] = counted.get(r, 0) + F(1, 6 ** (n + 1))
        assert counted == odds(eng, test=test, **dict(zip(keys, (uid, target)))), option
    # the 2, less the penalty: short of ammunition, which a Defence die's 1 cancels, not its 2
    assert [_checked(eng, "shoot", "s", "t", [2], [d]) for d in (1, 2)] == ["cancelled", "short_of_ammunition"]


# ---------------------------------------------------------------- the other tables

def test_push_back_follow_up_stubborn(tmp_path):
    units = [unit("i", "red", (0, 0), "north"), unit("c", "red", (0, 2), "north", type="cavalry"),
             unit("e", "red", (0, 4), "north", type="elephants"),
             unit("st", "red", (4, 0), "north", characteristics=["stubborn"]),
             unit("w", "red", (4, 2), "north", characteristics=["warband"]),
             unit("rg", "blue", (4, 4), "north", characteristics=["rear_guard"])]
    eng = engine(scenario(tmp_path, units))
    assert odds(eng, test="push_back", unit="i") == {"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}
    assert odds(eng, test="push_back", unit="c") == {"1": F(1, 6), "2": F(1, 2), "3": F(1, 3)}
    assert odds(eng, test="follow_up", unit="e") == {"1": F(1, 6), "2": F(1, 2), "3": F(1, 3)}
    assert odds(eng, test="push_back", unit="st") == {"stays": F(1, 3), "0": F(1, 6) * F(2, 3),
                                                      "1": F(1, 2) * F(2, 3), "2": F(1, 3) * F(2, 3)}
    assert odds(eng, test="follow_up_decline", unit="i") == {"stays": F(21, 36), "follows": F(15, 36)}
    assert odds(eng, test="follow_up_decline", unit="w") == {"follows": 1}
    assert odds(eng, test="follow_up_decline", unit="w", against="rg") == {"stays": 1}
    h = house(tmp_path, 'replace define ga.elephants-as-cavalry\n    from house "A house rule for the tests."\n'
                        '    as_cavalry(u) := mounted(u)\n')
    assert odds(engine(eng.scenario.path, [h]), test="follow_up", unit="e")["0"] == F(1, 6)


def test_lines_cohort_eagles_generals_homunculus():
    eng = engine(ALESIA)
    assert odds(eng, test="lines", line="skirmish_line") == {"removed": F(2, 3), "stays": F(1, 3)}
    assert odds(eng, test="lines", line="light_chariot_line") == {"removed": F(1, 2), "stays": F(1, 2)}
    assert odds(eng, test="lines", line="elephant_line") == {"removed": F(1, 3), "stays": F(2, 3)}
    assert odds(eng, test="praetorian_cohort") == {"removed": F(1, 2), "stays": F(1, 2)}
    assert odds(eng, test="cover_retreat") == {"stopped": F(5, 6), "follows": F(1, 6)}
    eagles = {"routed_from_combat": (15, 11, 10), "routed_not_from_combat": (10, 11, 15),
              "retiring_from_combat": (1, 5, 30), "retiring_not_from_combat": (1, 2, 33)}
    for event, row in eagles.items():
        want = {k: F(n, 36) for k, n in zip(("eagle_lost", "centurion_casualties", "no_effect"), row)}
        assert odds(eng, test="lost_eagles", event=event) == want
    for event, hit in (("push_back", 1), ("disordered", 3), ("retiring", 6), ("rout", 10)):
        got = odds(eng, test="risk_to_general", event=event)
        assert got["unharmed"] == 1 - F(hit, 36)
        assert got["killed"] == got["seriously_wounded"] == got["lightly_wounded"] == F(hit, 108)
    # the Gauls' break point is 14
    assert odds(eng, test="homunculus_est", side="gauls", points=14) == {"broken": 1}
    assert odds(eng, test="homunculus_est", side="gauls", points=7) == {"fatigued": 1}
    assert odds(eng, test="homunculus_est", side="gauls", points=6) == {"not_broken": 1}


def test_the_cli_prints_fractions(tmp_path):
    t = write(tmp_path, "t.yaml", {"test": "movement", "unit": "r4", "attack_points": 1})
    code, out, _ = run_cli("odds", ALESIA, t, "--json")
    assert code == 0
    assert json.loads(out)["outcomes"] == {"failed": "1/6", "2": "1/6", "3": "1/3", "4": "1/3"}


@pytest.mark.parametrize("test, message", [
    ({"test": "movment", "unit": "r1"}, "unknown test 'movment'"),
    ({"test": "movement", "unit": "zz"}, "unknown unit 'zz'"),
    ({"test": "movement", "unit": "r1", "attack_points": "two"}, "the movement test: attack_points must be a whole number from 0 to 100, not 'two'"),
    ({"test": "manoeuvre", "unit": "r1", "manoeuvre": "cartwheel"}, "the manoeuvre test: manoeuvre must be one of forward, oblique_left"),
    ({"test": "movement", "unit": "r1", "colour": "red"}, "unknown key 'colour' in the movement test"),
])
def test_bad_tests_exit_2_with_their_place(tmp_path, test, message):
    t = write(tmp_path, "t.yaml", test)
    code, _, err = run_cli("odds", ALESIA, t)
    assert code == 2 and message in err and f"{t}:" in err, err


def test_scythed_chariots_reserves_and_devotio(tmp_path):
    units = [unit("sc", "red", (2, 3), "north", type="scythed_chariots", combat=9, manoeuvre=4),
             unit("d", "blue", (3, 2), "south", combat=2, manoeuvre=4),
             unit("l", "red", (6, 3), "north", combat=3, attachments=["praetorian_cohort", "devotio"],
                  characteristics=["legion"]),
             unit("e", "blue", (7, 2), "south", combat=2, manoeuvre=3)]
    eng = engine(scenario(tmp_path, units, width=10))
    s = eng.setting()
    v = s.by_id
    assert [eng.combat_ratings(s, v["sc"], v["d"], n)[0] for n in (0, 1, 2, 3, 4)] == [2, 2, 3, 4, 5]
    assert eng.combat_ratings(s, v["sc"], v["e"], 3)[0] == 2            # e is more agile: halved, rounded down
    assert eng.combat_ratings(s, v["l"], v["e"], 1) == (3, 2)
    assert eng.combat_ratings(s, v["l"], v["e"], 1, reserve=True, devotio=True) == (6, 2)
    assert eng.combat_ratings(s, v["l"], v["e"], 0, devotio=True)[0] == 3   # only on a charge
    _, extra = eng.odds({"test": "combat", "attacker": "sc", "defender": "d", "squares": 4})
    assert (extra["attacker_rating"], extra["dice"]) == (5, 3)
    h = house(tmp_path, 'replace define ga.scythed-halved\n    from house "A house rule for the tests."\n'
                        '    scythed_halved(u, foe) := false\n')
    e2 = engine(eng.scenario.path, [h])
    s2 = e2.setting()
    assert e2.combat_ratings(s2, s2.by_id["sc"], s2.by_id["e"], 3)[0] == 4


@pytest.mark.parametrize("fate, per", [("killed", F(1, 2)), ("seriously_wounded", F(1, 3)), ("lightly_wounded", F(1, 6))])
def test_command_points_lost_when_the_general_is_hit(fate, per):
    eng = engine(ALESIA)
    dist, extra = eng.odds({"test": "command_point_losses", "fate": fate, "points": 4})
    assert extra["per_point"] == (str(per.numerator) + "/" + str(per.denominator))
    lost = icepool.d6.map(lambda r: 1 if r <= per * 6 else 0)
    assert dist == {str(k): p for k, p in ice(4 @ lost).items()}


def test_a_natural_twelve_and_an_immobile_unit():
    eng = engine(ALESIA)
    _, extra = eng.odds({"test": "discipline", "unit": "r1"})
    assert extra["removes_setback"] == "1/36"
    assert odds(eng, test="push_back", unit="r6") == {"0": 1}          # Immobile: never pushed back
    assert odds(eng, test="push_back", unit="r1") == {"0": F(1, 6), "1": F(1, 2), "2": F(1, 3)}


def test_the_natural_twelve_odds_counts_is_the_packs_as_check_applies_it(tmp_path):
    """``odds`` counts the Setback Card a Discipline Test removes by the
    pack's ``twelve_removes`` (ga.discipline-natural-twelve), the define
    ``check`` applies: a house rule letting a natural 12 remove one on a
    failed test too changes it for a unit a 12 does not pass (Discipline 13)."""
    def removes(tmp_path, rules):
        return engine(scenario(tmp_path, [unit("u", "red", (0, 0), "north", discipline=13)]),
                      rules).odds({"test": "discipline", "unit": "u"})[1]["removes_setback"]
    assert_replacing_gives(tmp_path, "ga.discipline-natural-twelve", "twelve_removes(d1, d2, result) := "
                           "removes_setback(d1, d2)", removes, "0", "1/36")


def test_bringing_an_off_table_unit_back(tmp_path):
    eng = engine(scenario(tmp_path, [unit("o", "red", (0, 0), "north", discipline=8, off_table=True)]))
    assert odds(eng, test="off_table_return", unit="o") == {"remains": F(21, 36), "returns": F(15, 36)}
