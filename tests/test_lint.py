"""Lint: every kind of problem with its exact file:line:col and hint; coverage."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli
from warcouncil.dsl.lint import coverage, lint, normalize, sentences
from warcouncil.dsl.pack import PACKS_DIR, SOURCES_DIR, load_pack
from warcouncil.errors import Location, WarcouncilError

SEED000 = "000_21ed775e0976da39.txt"
ONE_ORDER = "You may not give more than one order to each unit or leader."
ATTACHED = "A leader in the same hex as a friendly unit is considered to be “attached” to the unit."


def write(tmp_path: Path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def pos(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of ``needle`` in ``text``."""
    start = -1
    for _ in range(nth):
        start = text.index(needle, start + 1)
    line = text.count("\n", 0, start) + 1
    col = start - (text.rfind("\n", 0, start) + 1) + 1
    return line, col


def lint_house(tmp_path: Path, text: str, name: str = "house.wc"):
    path = write(tmp_path, name, text)
    pack, problems = lint([path], base="cca")
    return path, pack, problems


def only(problems):
    assert len(problems) == 1, [str(p) for p in problems]
    return problems[0]


def assert_problem(p, path: str, line: int, col: int, message: str, hint: str | None) -> None:
    assert p.location == Location(path, line, col), str(p)
    assert p.message == message
    assert p.hint == hint
    text = str(p)
    assert text.startswith(f"{path}:{line}:{col}: {message}")
    if hint:
        assert text.endswith(f"hint: {hint}")


def rule(body: str, rid: str = "house.r", quote: str = ONE_ORDER, doc: str = "seed000", extra: str = "") -> str:
    return f'rule {rid}\n    from {doc} "{quote}"\n    require {body}\n{extra}'


# ------------------------------------------------------------- the shipped pack


def test_shipped_pack_lints_clean() -> None:
    pack, problems = lint(["cca"])
    assert problems == []
    assert pack is not None and pack.name == "cca"
    assert len(pack.files) == len(list((PACKS_DIR / "cca").glob("*.wc"))) + len(list((PACKS_DIR / "core").glob("*.wc")))
    assert len(pack.rules) == _declared("rule") >= 14
    assert len(pack.define_ids) == _declared("define") >= 16
    assert len(pack.cards) == 29


def test_shipped_pack_lints_clean_by_folder_and_by_files() -> None:
    folder = PACKS_DIR / "cca"
    assert lint([str(folder)])[1] == []
    files = sorted(str(p) for p in folder.glob("*.wc"))
    assert len(files) >= 4
    assert lint(files)[1] == []


# -------------------------------------------------------------- name resolution


def test_unknown_name_did_you_mean(tmp_path: Path) -> None:
    text = rule("forall p in ordred: orders(p) <= 1")
    path, _, problems = lint_house(tmp_path, text)
    assert pos(text, "ordred") == (3, 25)
    assert_problem(only(problems), path, 3, 25, "unknown name 'ordred'", "did you mean 'ordered'?")
    # the caret sits under the name
    lines = str(problems[0]).split("\n")
    assert lines[1] == "        require forall p in ordred: orders(p) <= 1"
    assert lines[2] == "    " + " " * 24 + "^"


def test_unknown_name_hint_offers_bound_variables(tmp_path: Path) -> None:
    text = rule("forall piece in ordered: orders(peice) <= 1")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "peice"), "unknown name 'peice'", "did you mean 'piece'?")


def test_unknown_name_without_any_close_match(tmp_path: Path) -> None:
    text = rule("zzqqxx")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "zzqqxx"), "unknown name 'zzqqxx'", None)


def test_unknown_function(tmp_path: Path) -> None:
    text = rule("forall p in ordered: ordrs(p) <= 1")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 3, 34, "unknown function 'ordrs'", "did you mean 'orders'?")


def test_wrong_arity_of_a_define_call(tmp_path: Path) -> None:
    text = rule("forall p in ordered: in_section(p)")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "in_section"), "in_section takes 2 argument(s), got 1", None)


def test_define_with_parameters_used_without_arguments(tmp_path: Path) -> None:
    text = rule("forall l in ordered: attached")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "attached"),
                   "attached takes 1 argument(s): write attached(l)", None)


def test_wrong_arity_of_a_builtin(tmp_path: Path) -> None:
    text = rule("forall p in ordered: adjacent(p) and count(p, p) == 1")
    path, _, problems = lint_house(tmp_path, text)
    assert len(problems) == 2
    assert_problem(problems[0], path, *pos(text, "adjacent"), "adjacent takes 2 argument(s), got 1", None)
    assert_problem(problems[1], path, *pos(text, "count"), "count takes 1 argument(s), got 2", None)


def test_unknown_attribute(tmp_path: Path) -> None:
    text = rule("forall p in ordered: p.clas == light")
    path, _, problems = lint_house(tmp_path, text)
    # the Attr node starts at its object
    assert_problem(only(problems), path, *pos(text, "p.clas"), "unknown attribute 'clas'", "did you mean 'class'?")


def test_names_bound_by_quantifier_and_params_resolve(tmp_path: Path) -> None:
    text = (
        'define house.d\n    from seed000 "' + ONE_ORDER + '"\n'
        "    twice(a, b) := {u in units where u.class == a and b} \n"
        + rule("forall p in ordered: exists q in twice(light, true): q.at == p.at and p.move >= 1")
    )
    _, _, problems = lint_house(tmp_path, text)
    assert problems == []


def test_quota_where_binds_it_and_unknown_die_face(tmp_path: Path) -> None:
    text = '''card "House Roll" {
    copies = 1  category = tactic
    roll = 2
    orders: up to rolled(lite) units where it.class == light
    from ref "up to 3 in Center"
}
'''
    path, _, problems = lint_house(tmp_path, text)
    assert problems, "a misspelt die face must be reported"
    # (it is currently reported twice at the same place: as an unknown name
    # and as an unknown die face)
    assert {(p.location, p.hint) for p in problems} == {(Location(path, *pos(text, "lite")), "did you mean 'light'?")}
    assert "unknown die face 'lite'" in [p.message for p in problems]


def test_rolled_on_a_card_with_no_roll(tmp_path: Path) -> None:
    text = '''card "Bad Roll" {
    copies = 1  category = tactic
    orders: up to rolled(light) units
    from ref "up to 3 in Center"
}
'''
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 3, 19,
                   "card 'Bad Roll' uses rolled(...) but rolls no dice (`roll = N`)", None)


def test_copy_excluding_an_unknown_card(tmp_path: Path) -> None:
    text = ('card "Echo" {\n    copy = opponent  mirrored = true  excluded = "First Strik"\n'
            '    from ref "up to 3 in Center"\n}\n')
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "excluded"),
                   "card 'Echo' excludes unknown card 'First Strik'", "did you mean 'First Strike'?")


def test_message_naming_an_unknown_variable(tmp_path: Path) -> None:
    text = rule("forall p in ordered: orders(p) <= 1", extra='    message "{q} is ordered twice"\n')
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 1, 1,
                   "message of house.r names {q}, which is not the rule's variable", "use {p} or {pieces}")


def test_message_fields_that_are_fine(tmp_path: Path) -> None:
    text = rule("forall p in ordered: orders(p) <= 1", extra='    message "{p} and {pieces}"\n')
    assert lint_house(tmp_path, text)[2] == []
    text = rule("count(ordered) <= 2", extra='    message "{x}"\n')
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 1, 1,
                   "message of house.r names {x}, which is not the rule's variable", "use {pieces}")


# -------------------------------------------------------------------- citations


def test_undeclared_document(tmp_path: Path) -> None:
    text = rule("true", doc="seed999")
    path, _, problems = lint_house(tmp_path, text)
    p = only(problems)
    assert p.location == Location(path, 2, 5)
    assert p.message == "house.r cites undeclared document 'seed999'"
    assert p.hint in ("did you mean 'seed000'?", "did you mean 'seed002'?")
    assert str(p).startswith(f"{path}:2:5: house.r cites undeclared document 'seed999'")


def test_undeclared_document_without_close_name(tmp_path: Path) -> None:
    text = rule("true", doc="rulebook")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 2, 5, "house.r cites undeclared document 'rulebook'",
                   'declare it with `document NAME "file"`')


def test_quote_not_in_document(tmp_path: Path) -> None:
    text = rule("true", quote="You may give two orders to each unit.")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 2, 5, f"house.r: the quote is not in {SEED000}",
                   "quote the document's sentence exactly (quotes, dashes and spacing may differ)")


def test_quote_matching_forgives_quotes_dashes_spacing_and_case(tmp_path: Path) -> None:
    loose = 'a leader in the same   hex as a friendly unit is considered to be \\"attached\\" to the unit.'
    text = rule("true", quote=loose)
    assert lint_house(tmp_path, text)[2] == []
    assert normalize(ATTACHED) == normalize('A leader in the same hex as a friendly unit is considered to be "attached" to the unit.')


def test_quote_in_a_house_document_of_its_own(tmp_path: Path) -> None:
    write(tmp_path, "house.txt", "Leaders may not be ordered on Tuesdays.\n")
    text = 'document house "house.txt"\n' + rule("true", doc="house", quote="Leaders may not be ordered on Tuesdays.")
    assert lint_house(tmp_path, text)[2] == []
    text = 'document house "house.txt"\n' + rule("true", doc="house", quote="Leaders may be ordered on Mondays.")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 3, 5, "house.r: the quote is not in house.txt",
                   "quote the document's sentence exactly (quotes, dashes and spacing may differ)")


def test_a_document_is_read_only_inside_its_rule_file_s_folder(tmp_path: Path) -> None:
    # issue 26: else lint is an oracle on any file's content (does this quote occur in it?)
    secret = tmp_path / "secret.txt"
    secret.write_text("The password is swordfish.\n", encoding="utf-8")
    house = tmp_path / "house"
    (house / "notes").mkdir(parents=True)
    (house / "notes" / "ok.txt").write_text("The password is swordfish.\n", encoding="utf-8")
    (house / "link.txt").symlink_to(secret)
    docs = {"up": "../secret.txt", "abs": str(secret), "link": "link.txt", "gone": str(tmp_path / "gone.txt"),
            "sub": "notes/ok.txt"}
    text = "".join(f'document {a} "{d}"\n' for a, d in docs.items()) + "".join(
        rule("true", rid=f"house.{a}", doc=a, quote="The password is swordfish.") for a in docs)
    path = write(house, "house.wc", text)
    why = f"it is outside {house}, the folder of the rule file that declares it; " \
          "`lint --allow-documents DIR` allows another folder"

    def said(allow=()):
        _, problems = lint([path], base="cca", allow_documents=allow)
        return [(p.location.line, p.message) for p in problems]

    # the same answer for a file that exists and one that does not: nothing is learnt of either
    assert said() == [(pos(text, f"from {a} ")[0], f"cannot read document {docs[a]!r} cited by house.{a} ({why})")
                      for a in ("up", "abs", "link", "gone")]
    assert said((str(tmp_path),)) == [(pos(text, "from gone ")[0], f"cannot read document {docs['gone']!r} "
                                       f"cited by house.gone (no such file)")]
    code, out, err = run_cli("lint", path, "--over", "cca", "--allow-documents", tmp_path, "--json")
    assert code == 1 and [e["message"] for e in json.loads(out)["errors"]] == [
        f"cannot read document {docs['gone']!r} cited by house.gone (no such file)"]


# -------------------------------------------------------------------- layering


def test_replace_rule_that_does_not_exist(tmp_path: Path) -> None:
    text = "replace " + rule("true", rid="cca.one-order-per-peice")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 1, 1,
                   "replace rule cca.one-order-per-peice: there is no such rule to replace",
                   "did you mean cca.one-order-per-piece?")


def test_replace_define_that_does_not_exist(tmp_path: Path) -> None:
    text = 'replace define cca.atached\n    from seed000 "' + ATTACHED + '"\n    attached(l) := false\n'
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 1, 1,
                   "replace define cca.atached: there is no such define to replace", "did you mean cca.attached?")


def test_replace_card_that_does_not_exist(tmp_path: Path) -> None:
    text = 'replace card "Order Two Unit Left" {\n    orders: nothing\n    from ref "up to 3 in Center"\n}\n'
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 1, 1,
                   "replace card Order Two Unit Left: there is no such card to replace",
                   "did you mean Order Two Units Left?")


def test_remove_define_of_an_unknown_id(tmp_path: Path) -> None:
    text = "# house rule\nremove define cca.atached\n"
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 2, 1, "remove define cca.atached: no such define", "did you mean cca.attached?")


def test_remove_rule_and_card_of_unknown_ids(tmp_path: Path) -> None:
    text = 'remove rule zz.qq\nremove card "Order Two Units Lft"\n'
    path, _, problems = lint_house(tmp_path, text)
    assert len(problems) == 2
    assert_problem(problems[0], path, 1, 1, "remove rule zz.qq: no such rule", None)
    assert_problem(problems[1], path, 2, 1, "remove card Order Two Units Lft: no such card",
                   "did you mean Order Two Units Left?")


def test_two_house_files_replacing_the_same_rule(tmp_path: Path) -> None:
    a = write(tmp_path, "a.wc", "# house rule A\n" + "replace " + rule("true", rid="cca.one-order-per-piece"))
    b = write(tmp_path, "b.wc", "# house rule B\n\n" + "replace " + rule(
        "forall p in pieces: orders(p) <= 2", rid="cca.one-order-per-piece"))
    pack, problems = lint([a, b], base="cca")
    assert_problem(only(problems), b, 3, 1,
                   f"cca.one-order-per-piece is replaced by two layers: {a} and {b}",
                   "keep one replacement, or merge the two house-rule files")
    # the same when the pack is named first instead of with base=
    assert [str(p) for p in lint(["cca", a, b])[1]] == [str(problems[0])]
    # one of them alone is fine
    assert lint([a], base="cca")[1] == []
    assert lint([b], base="cca")[1] == []


def test_one_file_replacing_a_rule_twice_is_not_a_two_layer_conflict(tmp_path: Path) -> None:
    text = ("replace " + rule("true", rid="cca.one-order-per-piece")
            + "replace " + rule("false", rid="cca.one-order-per-piece"))
    assert lint_house(tmp_path, text)[2] == []


def test_rule_id_defined_twice(tmp_path: Path) -> None:
    text = rule("true", rid="house.a") + rule("false", rid="house.a")
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 4, 1, f"rule house.a is already defined in {path}",
                   "write `replace rule` to change it in a house rule")


def test_define_id_defined_twice(tmp_path: Path) -> None:
    d = 'define house.b\n    from seed000 "' + ONE_ORDER + '"\n'
    text = d + "    f(x) := x\n" + d + "    g(x) := x\n"
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, 4, 1, f"define house.b is already defined in {path}",
                   "write `replace define` to change it in a house rule")


def test_redefining_a_shipped_rule_without_replace(tmp_path: Path) -> None:
    text = rule("true", rid="cca.one-order-per-piece")
    path, _, problems = lint_house(tmp_path, text)
    shipped = str(PACKS_DIR / "core" / "10-ordering.wc")  # the C&C core, taken as cca.*
    p = only(problems)
    assert p.location == Location(path, 1, 1)
    assert p.message.startswith("rule cca.one-order-per-piece is already defined in ")
    assert Path(p.message.rsplit(" in ", 1)[1]).resolve() == Path(shipped).resolve()
    assert p.hint == "write `replace rule` to change it in a house rule"


def test_several_problems_are_all_reported_in_file_order(tmp_path: Path) -> None:
    text = (rule("forall p in ordred: p.clas == light", rid="house.a")
            + "remove define cca.nope\n"
            + rule("ordrs(1)", rid="house.b", doc="sed000"))
    path, _, problems = lint_house(tmp_path, text)
    where = [(p.location.line, p.location.column) for p in problems]
    assert where == sorted(where)
    assert [p.message for p in problems] == [
        "unknown name 'ordred'",
        "unknown attribute 'clas'",
        "remove define cca.nope: no such define",
        "house.b cites undeclared document 'sed000'",
        "unknown function 'ordrs'",
    ]
    assert all(p.location.file == path for p in problems)


def test_syntax_error_is_a_lint_problem_not_an_exception(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.wc", "rule a.b\n    require forall p in ordered p\n")
    pack, problems = lint([path], base="cca")
    assert pack is None
    p = only(problems)
    assert p.location == Location(path, 2, 33)
    assert p.message == "unexpected 'p'"
    assert p.hint.startswith("expected ")


def test_missing_file_is_a_lint_problem(tmp_path: Path) -> None:
    pack, problems = lint([str(tmp_path / "nope.wc")], base="cca")
    assert pack is None
    assert only(problems).location.file == str(tmp_path / "nope.wc")


def test_strict_load_raises_on_the_first_layering_problem(tmp_path: Path) -> None:
    path = write(tmp_path, "h.wc", "remove define cca.atached\n")
    with pytest.raises(WarcouncilError) as info:
        load_pack("cca", [path])
    assert info.value.location == Location(path, 1, 1)
    assert "no such define" in info.value.message


# --------------------------------------------------------------------- coverage


SEED000_SENTENCE_LINES = [3, 5, 7, 7, 7, 7, 9, 11, 11, 13, 13, 13, 13, 15, 15, 15]


def seed000(cov):
    return [s for s in cov if s.document == SEED000]


def test_every_seed000_sentence_is_cited() -> None:
    pack = load_pack("cca")
    cov = seed000(coverage(pack))
    assert len(cov) == 16
    assert [s.line for s in cov] == SEED000_SENTENCE_LINES
    uncited = [s.text for s in cov if not s.cited_by]
    assert uncited == []
    one = [s for s in cov if s.text == ONE_ORDER]
    assert len(one) == 1 and one[0].cited_by == ["cca.one-order-per-piece"]
    attached = [s for s in cov if s.text == ATTACHED]
    assert attached[0].cited_by == ["cca.attached", "cca.host"]


def test_seed000_sentence_split() -> None:
    text = (SOURCES_DIR / SEED000).read_text("utf-8")
    ss = sentences(text)
    assert len(ss) == 16
    assert ss[0] == (3, "After playing a Command card, announce which eligible units or leaders you choose to order.")
    assert ss[-1][1].startswith("When the number of Command cards changes in a scenario")
    # the heading is not a sentence
    assert all(s != "Order Units and Leaders" for _, s in ss)


def test_removing_a_rule_uncites_its_sentence(tmp_path: Path) -> None:
    path, pack, problems = lint_house(tmp_path, "remove rule cca.one-order-per-piece\n")
    assert problems == []
    assert "cca.one-order-per-piece" not in pack.rules
    cov = seed000(coverage(pack))
    assert len(cov) == 16
    uncited = [(s.line, s.text) for s in cov if not s.cited_by]
    assert uncited == [(11, ONE_ORDER)]


def test_replacing_a_rule_keeps_coverage_with_the_new_citation(tmp_path: Path) -> None:
    text = "replace " + rule("true", rid="cca.one-order-per-piece",
                             quote="Units or leaders on a hex with a dotted line running through it may be "
                                   "ordered from either section.")
    path, pack, problems = lint_house(tmp_path, text)
    assert problems == []
    cov = seed000(coverage(pack))
    assert [(s.line, s.text) for s in cov if not s.cited_by] == [(11, ONE_ORDER)]
    dotted = [s for s in cov if s.line == 9][0]
    assert dotted.cited_by == ["cca.dotted-line", "cca.one-order-per-piece"]


def _declared(kind: str) -> int:
    """How many `kind` statements the cca pack's files (its own and the core
    it extends) declare, by their text."""
    import re as _re
    from pathlib import Path as _Path
    from warcouncil.dsl.pack import load_pack as _load
    return sum(len(_re.findall(rf"(?m)^{kind} ", _Path(f).read_text("utf-8"))) for f in _load("cca").files)


# ------------------------------------------------------------ warnings (issue 28)


_UNTITLED = '''pack toy "Toy"

document toy "rules.txt"
document titled "rules.txt" title "Toy — the rules"

rule toy.one
    from toy "A unit moves one square."
    require true
    message "never"
'''


def test_a_document_without_a_title_is_a_warning_at_its_declaration(tmp_path: Path) -> None:
    """A shipped pack must title every document (test_newcomer); lint says
    so at the declaration, and still exits 0: answers in words fall back to
    the file name."""
    from warcouncil.dsl.lint import warnings

    folder = tmp_path / "toy"
    folder.mkdir()
    (folder / "rules.txt").write_text("A unit moves one square.\n", encoding="utf-8")
    path = write(folder, "00-pack.wc", _UNTITLED)
    pack, problems = lint([str(folder)])
    assert problems == []
    (w,) = warnings(pack)
    assert (w.location.file, w.location.line, w.location.column) == (path, 3, 1)
    assert w.message == "document toy has no title: answers in words name it by its file, rules.txt"
    assert w.hint == 'give it the title players read: document toy "rules.txt" title "…"'
    code, out, err = run_cli("lint", folder)
    assert code == 0 and out.startswith("clean: 1 file, 1 rules")
    assert err.splitlines() == [
        f"{path}:3:1: warning: document toy has no title: answers in words name it by its file, rules.txt",
        '    document toy "rules.txt"', "    ^",
        'hint: give it the title players read: document toy "rules.txt" title "…"']
    code, out, _ = run_cli("lint", folder, "--json")
    assert code == 0 and json.loads(out) == {"errors": [], "warnings": [
        {"file": path, "line": 3, "column": 1, "message": w.message, "hint": w.hint}]}


def test_every_shipped_pack_lints_without_a_warning() -> None:
    from warcouncil.dsl.lint import warnings

    for folder in sorted(p for p in PACKS_DIR.iterdir() if p.is_dir() and any(p.glob("*.wc"))):
        pack, _ = lint([str(folder)])  # (core alone leaves names to the packs that extend it)
        assert warnings(pack) == [], folder.name


# ------------------------------------------------- cards: the pack's fields (issue 28)


def test_a_card_field_the_pack_does_not_declare(tmp_path: Path) -> None:
    text = 'card "Odd" {\n    copies = 1  helmut = true\n    orders: up to 1 units\n    from ref "up to 3 in Center"\n}\n'
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, "helmut"),
                   "card 'Odd' has a field 'helmut' its pack does not declare", "did you mean helmet?")


def test_a_card_field_of_the_wrong_type(tmp_path: Path) -> None:
    text = ('card "Odd" {\n    copies = "two"  category = 3\n    orders: up to 1 units\n'
            '    from ref "up to 3 in Center"\n}\n')
    path, _, problems = lint_house(tmp_path, text)
    assert [(p.location, p.message) for p in problems] == [
        (Location(path, *pos(text, "copies")), "card 'Odd': the number of copies takes a whole number"),
        (Location(path, *pos(text, "category")), "card 'Odd': the value of category takes a name")]


def test_a_card_takes_the_defaults_its_pack_declares(tmp_path: Path) -> None:
    text = 'card "Plain" {\n    orders: up to 1 units\n    from ref "up to 3 in Center"\n}\n'
    _, pack, problems = lint_house(tmp_path, text)
    assert problems == []
    card = pack.cards["Plain"]
    assert [(f.name, f.value) for f in card.fields] == [
        ("copies", 1), ("category", None), ("helmet", False), ("roll", None), ("copy", None),
        ("mirrored", False), ("excluded", ())]


def test_a_group_led_by_a_role_the_pack_lacks(tmp_path: Path) -> None:
    text = ('card "Chief" {\n    orders: up to 1 + 4 pieces where chain_link(it), led by chief\n'
            '    from ref "up to 3 in Center"\n}\n')
    path, _, problems = lint_house(tmp_path, text)
    assert_problem(only(problems), path, *pos(text, ", led by"),
                   "card 'Chief' is led by 'chief', which is no role of the pack's (unit, leader)", None)


def test_loading_refuses_a_card_field_of_the_wrong_type(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = write(tmp_path, "house.wc", 'replace card "Order Two Units Left" {\n    copies = two\n'
                                       '    orders: up to 2 pieces where in_section(it, left)\n}\n')
    r = subprocess.run([sys.executable, "-m", "warcouncil", "orders", "akragas", "--card", "Order Two Units Left",
                        "--rules", path, "--count"], capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr.startswith(f"{path}:2:5: card 'Order Two Units Left': the number of copies takes a whole number")


# ------------------------------------------------- quotes that state the rule (issue 30)


def test_content_words_ignore_stop_words_case_and_fields() -> None:
    from warcouncil.dsl.lint import content_words

    assert content_words("{m} Moves farther than it may") == {"mov", "farther"}
    assert content_words("The example above shows the movement rates of foot units.") == {
        "exampl", "abov", "show", "movement", "rat", "foot", "unit"}
    assert content_words("A **Hero** orders units") == {"hero", "order", "unit"}


@pytest.mark.parametrize("name", ["core", "cca", "ccm", "warmaster", "grid-ancients"])
def test_every_shipped_rule_quotes_a_sentence_sharing_a_word_with_its_message(name: str) -> None:
    from warcouncil.dsl.lint import unstated

    assert unstated(load_pack(name)) == []


def test_the_issue_examples_now_cite_the_sentence_that_states_them() -> None:
    cca, wm = load_pack("cca"), load_pack("warmaster")
    assert cca.source_of(cca.rules["cca.move.unit-allowance"]) == (
        "002_15dc29c0405a71dd.txt", "Some terrain features affect movement and may prevent a unit from moving "
        "its full allowance or battling during that turn (see Terrain).")
    assert wm.source_of(wm.rules["wm.command-range"]) == (
        "warmaster.md", "A Hero orders units within 60 cm, a Wizard units within 20 cm.")


PLANTED = '''rule house.no-two-hexes
    from seed002 "The example above shows the movement rates of foot units."
    require forall m in moves: m.length <= 2
    message "{m} goes beyond two hexes"

rule house.stated
    from seed002 "A unit that is ordered does not have to move."
    require forall m in moves: m.length <= 3
    message "{m} may move three hexes at most"
'''


def test_lint_coverage_lists_a_planted_rule_whose_quote_states_nothing_of_it(tmp_path: Path) -> None:
    path = write(tmp_path, "house.wc", PLANTED)
    code, out, err = run_cli("lint", "--over", "cca", path, "--coverage")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[-3:] == [
        f"✗ {path}:1 house.no-two-hexes: the quote “The example above shows the movement rates of foot units.” "
        "shares no word with its message “{m} goes beyond two hexes”",
        "1 rule whose quote shares no word with its message",
        "clean: 11 files, 51 rules, 53 defines, 29 cards",
    ]
    code, out, _ = run_cli("lint", "--over", "cca", path, "--coverage", "--json")
    assert json.loads(out)["unstated"] == [
        {"rule": "house.no-two-hexes", "file": path, "line": 1,
         "quote": "The example above shows the movement rates of foot units.",
         "message": "{m} goes beyond two hexes"}]
    code, out, _ = run_cli("lint", "cca", "--coverage")
    assert out.splitlines()[-2:] == ["0 rules whose quote shares no word with its message",
                                     "clean: 10 files, 49 rules, 53 defines, 29 cards"]
    assert "unstated" not in json.loads(run_cli("lint", "cca", "--json")[1])
