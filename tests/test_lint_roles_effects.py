"""Piece roles and card effects declared by the pack (`roles`, `effects`, a
card's `effect`), and lint rejecting a reference to a role, effect or card
that does not exist, each at its exact file:line:column with the closest
names as the hint."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from conftest import scenario_dict
from warcouncil.cli import main
from warcouncil.dsl import ast as A
from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import load_pack
from warcouncil.dsl.parser import parse_text
from warcouncil.errors import Location, WarcouncilError
from warcouncil.kernel.engine import Engine
from warcouncil.kernel.system import System
from warcouncil.systems.cc.engine import CardEngine
from warcouncil.systems.cc.system import CommandsAndColors


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def pos(text: str, needle: str) -> tuple[int, int]:
    """1-based (line, column) of ``needle`` in ``text``."""
    start = text.index(needle)
    return text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1


def lint_over(tmp_path: Path, text: str, base: str = "cca"):
    path = write(tmp_path, "house.wc", text)
    pack, problems = lint([path], base=base)
    return path, pack, problems


def one(problems):
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


# ------------------------------------------------------------------ syntax


def test_roles_effects_and_card_effect_parse():
    text = ('roles unit, leader\n'
            'effects double_time from ref "two hexes", no_fire,\n'
            '    fire_twice from ref "a" from ref "b"\n'
            'card "X" {\n    copies = 2\n    effect double_time, no_fire\n    orders: up to 1 units\n}\n')
    roles, effects, card = parse_text(text).statements
    assert roles == A.RolesDecl(("unit", "leader"))
    assert [e.name for e in effects.effects] == ["double_time", "no_fire", "fire_twice"]
    assert effects.effects[0].citations == (A.Citation("ref", "two hexes"),)
    assert len(effects.effects[2].citations) == 2 and effects.effects[1].citations == ()
    assert card.effects == ("double_time", "no_fire")
    assert [(loc.line, loc.column) for loc in card.effect_locs] == [(6, 12), (6, 25)]


def test_the_words_stay_usable_as_names():
    e = parse_text("rule a.b require double_time in card.effects and p.role == unit").statements[0].body
    assert e == A.And((A.Compare("in", A.Name("double_time"), A.Attr(A.Name("card"), "effects")),
                       A.Compare("==", A.Attr(A.Name("p"), "role"), A.Name("unit"))))


def test_the_pack_declares_roles_and_effects():
    cca = load_pack("cca")
    assert cca.roles == ("unit", "leader")
    assert {"unit", "leader", "double_time", "no_ranged_fire"} <= cca.symbols()
    assert cca.cards["Double Time"].effects == ("double_time", "no_ranged_fire")
    assert cca.cards["Order Two Units Left"].effects == ()
    ccm = load_pack("ccm")
    assert ccm.roles == ("unit", "leader")
    assert ccm.cards["Leaders"].effects == ("leaders_detach", "leaders_with_units")
    assert "leaders_detach" not in cca.effects


def test_no_rule_tests_a_card_name():
    root = Path(__file__).resolve().parents[1] / "warcouncil" / "rules"
    for f in root.glob("*/*.wc"):
        for e in _all_exprs(f):
            assert not (isinstance(e, A.Attr) and e.name in ("name", "played")
                        and isinstance(e.obj, A.Name) and e.obj.id == "card"), f"{f}: {e.loc}"


def _all_exprs(path):
    rf = parse_text(Path(path).read_text("utf-8"), str(path))
    for st in rf.statements:
        roots = []
        if isinstance(st, (A.RuleDecl, A.DefineDecl)):
            roots.append(st.body)
        elif isinstance(st, A.CardDecl):
            roots += [f.value for f in st.fields if isinstance(f.value, A.Expr)] + [a.when for a in st.alternatives]
            roots += [q.where for a in st.alternatives for q in a.quotas]
        for r in roots:
            yield from A.walk(r)


# --------------------------------------------------------------------- lint


def test_effect_test_in_a_house_rule_lints_clean(tmp_path):
    text = ("replace define cca.default.mfm-second-move\n"
            "    second_move(m) := double_time in card.effects and m.phase == 2\n")
    _, _, problems = lint_over(tmp_path, text)
    assert problems == []


def test_misspelled_card_name(tmp_path):
    text = ("replace define cca.default.mfm-second-move\n"
            '    second_move(m) := card.name == "Doubel Time" and m.phase == 2\n')
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, *pos(text, '"Doubel'))
    assert p.message == ("card.name is compared with 'Doubel Time', which is not a card of "
                         "Commands & Colors: Ancients")
    assert p.hint == "did you mean 'Double Time'?"


def test_card_played_and_not_equal(tmp_path):
    text = 'rule house.r\n    require "Counter Atack" != card.played\n'
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, 2, 13)
    assert p.hint == "did you mean 'Counter Attack'?"


def test_a_card_name_in_another_spelling_is_a_card(tmp_path):
    # card names match as `--card` does: case, spaces and hyphens aside
    _, _, problems = lint_over(tmp_path, 'rule house.r\n    require card.name != "move fire move"\n')
    assert problems == []


def test_undeclared_effect(tmp_path):
    text = "rule house.r\n    require forall m in moves: dobule_time in card.effects implies m.length <= 1\n"
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)  # one error, not also "unknown name"
    assert p.location == Location(path, *pos(text, "dobule_time"))
    assert p.message == "'dobule_time' is not a card effect the pack declares"
    assert p.hint == "did you mean 'double_time'?"


def test_undeclared_effect_with_not_in(tmp_path):
    text = "rule house.r\n    require fire_twise not in card.effects\n"
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, 2, 13)
    assert p.hint == "did you mean 'fire_twice'?"


def test_effect_of_another_game(tmp_path):
    # leaders_detach is CCM's: over CCA it is not an effect
    text = "rule house.r\n    require leaders_detach in card.effects\n"
    path, _, problems = lint_over(tmp_path, text)
    assert one(problems).location == Location(path, 2, 13)
    _, _, problems = lint_over(tmp_path, text, base="ccm")
    assert problems == []


def test_a_bound_variable_is_not_checked(tmp_path):
    text = "define house.has has(e) := e in card.effects\n"
    _, _, problems = lint_over(tmp_path, text)
    assert problems == []


def test_card_with_undeclared_effect(tmp_path):
    text = ('replace card "Line Command" {\n    copies = 4  category = tactic\n    effect one_hex_move, two_hex_move\n'
            "    orders: any units where it.kind == foot, linked\n}\n")
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, *pos(text, "two_hex_move"))
    assert p.message == "card 'Line Command' has effect 'two_hex_move', which the pack does not declare"
    assert p.hint == "did you mean 'one_hex_move'?"


def test_undeclared_role(tmp_path):
    text = "rule house.r\n    require forall p in ordered: p.role == leadr\n"
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)  # one error, not also "unknown name"
    assert p.location == Location(path, *pos(text, "leadr"))
    assert p.message == "'leadr' is not a role the pack declares (roles: unit, leader)"
    assert p.hint == "did you mean 'leader'?"


def test_a_symbol_that_is_not_a_role(tmp_path):
    text = "rule house.r\n    require forall p in ordered: left != p.role\n"
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, 2, 34)
    assert p.message == "'left' is not a role the pack declares (roles: unit, leader)"


def test_role_tests_that_exist_and_a_near_miss_card(tmp_path):
    text = ("rule house.a\n    require p_ok\n"
            "define house.ok p_ok := forall p in ordered: p.role == unit or p.role == leader\n"
            'rule house.b\n    require card.name == "Order Two Units Centre" implies unit == unit\n')
    path, _, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, *pos(text, '"Order Two'))
    assert p.hint == "did you mean 'Order Two Units Center'?"


def test_remove_or_copy_an_unknown_card(tmp_path):
    path, _, problems = lint_over(tmp_path, 'remove card "Doubel Time"\n')
    p = one(problems)
    assert p.location == Location(path, 1, 1) and "Double Time" in p.hint


def test_a_role_or_effect_check_in_the_engine(build, house):
    # house rules are checked before they are used: the first problem is bad input
    bad = house('replace define cca.default.mfm-second-move\n'
                '    second_move(m) := card.name == "Doubel Time" and m.phase == 2\n')
    with pytest.raises(WarcouncilError) as e:
        build([("s", "red", "heavy_infantry", [6, 6])], rules=[bad])
    assert "Doubel Time" in e.value.message and e.value.location.line == 2


def test_role_declarations_are_cited(tmp_path):
    text = 'roles character\n    from seed002 "no such sentence in the seed"\n'
    path, pack, problems = lint_over(tmp_path, text)
    assert pack.roles == ("unit", "leader", "character")
    p = one(problems)
    assert p.location == Location(path, 2, 5)
    assert p.message == f"roles: the quote is not in {pack.documents['seed002'].path}"


def test_effect_declarations_are_cited(tmp_path):
    text = 'effects sprint from ref "no such sentence"\n'
    path, pack, problems = lint_over(tmp_path, text)
    p = one(problems)
    assert p.location == Location(path, 1, 16)
    assert p.message.startswith("effect sprint: the quote is not in")


# ------------------------------------------------------------------ scenario


class _Tiny(System):
    """A card system for a one-file pack that extends no shipped pack."""

    name = "tiny"
    packs = ("tiny",)
    verbs = frozenset({"orders", "check"})
    context = "card"
    engine = CardEngine
    piece_lists = CommandsAndColors.piece_lists  # units and leaders, as C&C's scenarios


def test_a_scenario_list_for_an_undeclared_role(tmp_path):
    pack = tmp_path / "tiny"
    pack.mkdir()
    write(pack, "00.wc", 'pack tiny "Tiny"\nsections left, center, right\nroles unit\n'
                         'unit inf { move = 1 }\ncard "Go" {\n    orders: up to 2 units\n}\n')
    data = scenario_dict([("a", "red", "inf", [3, 3])], [("L", "red", [5, 5])])
    data["system"] = str(pack)
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    with pytest.raises(WarcouncilError) as e:
        Engine.load(p)
    assert e.value.message == "the scenario lists pieces under `leaders:`, but Tiny declares no role 'leader' (roles: unit)"
    assert e.value.location.file == str(p) and e.value.location.line is not None
    assert e.value.hint == "declare it in the pack: `roles unit, leader`"
    # without leaders the scenario is fine
    data["leaders"] = []
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    eng = Engine.load(p)
    assert [v.role for v in eng.setting().views] == ["unit"]


# ----------------------------------------------------------------------- cli


def test_cards_json_lists_effects():
    akragas = Path(__file__).resolve().parents[1] / "warcouncil" / "examples" / "cca" / "akragas.yaml"
    r = CliRunner().invoke(main, ["cards", str(akragas), "--json"])
    assert r.exit_code == 0
    doc = json.loads(r.stdout)
    effects = doc["effects"]  # card name -> its effects, every card of the deck
    assert set(effects) == {c["name"] for c in doc["cards"]}
    assert effects["Double Time"] == ["double_time", "no_ranged_fire"]
    assert effects["Move-Fire-Move"] == ["light_foot_through", "move_after_fire", "ranged_only"]
    assert effects["Order Two Units Left"] == []
