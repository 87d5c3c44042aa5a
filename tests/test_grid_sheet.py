"""Square-grid ancients: the sheet's sentences. Every sentence of seed 004
is cited by a rule or define of the pack, except those the pack header
lists with the reason (not a rule of play, or nothing to check); the list
is exactly the uncited ones. Removal tests for the
citations added with this list live with their behaviour
(tests/test_grid_aftermath.py, tests/test_grid_check.py); a few more here."""

from __future__ import annotations

import re
from fractions import Fraction as F

from gridkit import ALESIA, engine, house, scenario, unit
from warcouncil.dsl.lint import coverage
from warcouncil.dsl.pack import PACKS_DIR, load_pack


def _listed() -> set[tuple[int, str]]:
    header = (PACKS_DIR / "grid-ancients" / "00-pack.wc").read_text(encoding="utf-8")
    return {(int(n), t) for n, t in re.findall(r'^#\s+l\.(\d+)\s+"(.*?)"', header, re.M)}


def test_the_uncited_sentences_are_exactly_the_listed_ones():
    cov = coverage(load_pack("grid-ancients"))
    assert len(cov) == 192
    uncited = {(s.line, s.text) for s in cov if not s.cited_by}
    assert uncited == _listed()
    assert len(uncited) == 10


def test_removing_a_rule_uncites_its_sentences(tmp_path):
    """A citation counts only while its rule is there."""
    h = house(tmp_path, "remove rule ga.nomadic-shoots-mid-move\n")
    pack = load_pack("grid-ancients", [str(h)])
    uncited = {s.text for s in coverage(pack) if not s.cited_by}
    assert "Movement Activation during each turn." in uncited


def test_advance_as_a_line_is_a_movement_point_use(tmp_path):
    entry = {"unit": "r1", "option": "combat", "target": "g1", "dice": [3, 3], "defence": [5],
             "spend": [{"pool": "movement", "use": "advance_as_line"}]}
    vs, _ = engine(ALESIA).check({"activations": [entry]})
    assert vs == []
    h = house(tmp_path, 'replace define ga.point-uses\n    from house "A house rule for the tests."\n'
                        '    point_use(k, x) := k == attack and x == reroll_combat\n')
    vs, _ = engine(ALESIA, [h]).check({"activations": [entry]})
    assert [v.rule for v in vs] == ["ga.point-use"]


def test_cavalry_in_rough_the_two_sentences(tmp_path):
    """The test's table says -2, the Cavalry characteristic -1: the default
    takes -2; a house rule replacing it with -1 changes the odds."""
    sc = scenario(tmp_path, [unit("c", "red", (2, 2), "north", type="cavalry", manoeuvre=3)],
                  terrain=[((2, 2), "rough")])
    test = {"test": "manoeuvre", "unit": "c", "manoeuvre": "forward", "rough": True}
    dist, _ = engine(sc).odds(test)
    assert dist["pass"] == F(1, 3)  # a face of 5 or 6 (5 - 2 >= 3)
    h = house(tmp_path, 'replace define ga.default.cavalry-rough\n    from house "A house rule for the tests."\n'
                        '    cavalry_rough_mod(u, rough) := if rough and mounted(u) then -1 else 0\n')
    assert engine(sc, [h]).odds(test)[0]["pass"] == F(1, 2)  # 4, 5 or 6
