"""The rule language: parsing into the exact AST, precedence, round trips, syntax errors."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warcouncil.dsl import unparse
from warcouncil.dsl.ast import (
    Alternative,
    And,
    Attr,
    BinOp,
    Call,
    CardDecl,
    Citation,
    Compare,
    Const,
    CardField,
    DefineDecl,
    DiceDecl,
    DocumentDecl,
    Extends,
    Group,
    IfElse,
    Implies,
    Name,
    Neg,
    Not,
    Num,
    Or,
    PackDecl,
    Quant,
    Quota,
    RemoveDecl,
    RuleDecl,
    RuleFile,
    SectionsDecl,
    SetComp,
    Str,
    The,
    UnitDecl,
    ValuesDecl,
)
from warcouncil.dsl.pack import load_pack
from warcouncil.dsl.parser import parse_expr, parse_text
from warcouncil.errors import Location, WarcouncilError


def N(x: str) -> Name:
    return Name(x)


def one(text: str):
    """The single statement of ``text``."""
    rf = parse_text(text, "t.wc")
    assert isinstance(rf, RuleFile) and rf.path == "t.wc"
    assert len(rf.statements) == 1, rf.statements
    return rf.statements[0]


def syntax_error(text: str, path: str = "f.wc") -> WarcouncilError:
    with pytest.raises(WarcouncilError) as info:
        parse_text(text, path)
    return info.value


# ------------------------------------------------------------------ statements


def test_empty_text_and_comments_only() -> None:
    assert parse_text("").statements == ()
    assert parse_text("# only a comment\n\n   # another\n").statements == ()


def test_pack_extends_document() -> None:
    assert one('pack cca "Commands & Colors: Ancients"') == PackDecl("cca", "Commands & Colors: Ancients")
    assert one("extends cca") == Extends("cca")
    assert one('document seed000 "000_21ed775e0976da39.txt"') == DocumentDecl("seed000", "000_21ed775e0976da39.txt")


def test_sections_dice_values() -> None:
    assert one("sections left, center, right") == SectionsDecl(("left", "center", "right"))
    assert one("sections middle") == SectionsDecl(("middle",))
    assert one("dice light, medium, heavy, helmet, flag, swords") == DiceDecl(
        ("light", "medium", "heavy", "helmet", "flag", "swords"))
    assert one("values kind: foot, mounted") == ValuesDecl("kind", ("foot", "mounted"))


def test_unit_decl_all_literal_kinds() -> None:
    st_ = one(
        'unit elephant { kind = mounted; move = 2; speed = -1.5; ranged = false; elephant = true\n'
        '                label = "Big" "Beast" }\n'
        '    from seed002 "Elephant units are classed"\n'
        '    from ref "x"\n'
    )
    assert st_ == UnitDecl(
        "elephant",
        (("kind", "mounted"), ("move", 2), ("speed", -1.5), ("ranged", False), ("elephant", True),
         ("label", "BigBeast")),
        (Citation("seed002", "Elephant units are classed"), Citation("ref", "x")),
    )
    assert st_.attr("move") == 2 and st_.attr("missing", 7) == 7
    # the attribute values are plain Python values, not expression nodes
    assert type(st_.attr("move")) is int and st_.attr("ranged") is False
    assert one("unit x { }") == UnitDecl("x", (), ())


def test_card_every_item() -> None:
    text = '''
card "Big Card" {
    copies = 3  category = section  helmet = true
    roll = command
    orders: up to 2 pieces where in_section(it, left); all units where engaged(it); any leaders
    instead: up to 1 units, linked
    otherwise when count(leaders) == 0: up to 1 + 4 pieces, led by leader where in_section(it, left)
    otherwise when true: nothing
    from ref "up to 2" " in Left"
}
'''
    card = one(text)
    assert card == CardDecl(
        name="Big Card",
        fields=(CardField("copies", Num(3)), CardField("category", N("section")),
                CardField("helmet", Const(True)), CardField("roll", N("command"))),
        alternatives=(
            Alternative("orders", None, (
                Quota(Num(2), "pieces", Call("in_section", (N("it"), N("left")))),
                Quota("all", "units", Call("engaged", (N("it"),))),
                Quota("any", "leaders", None),
            ), None),
            Alternative("instead", None, (Quota(Num(1), "units", None),), Group("linked")),
            Alternative(
                "otherwise",
                Compare("==", Call("count", (N("leaders"),)), Num(0)),
                (Quota(BinOp("+", Num(1), Num(4)), "pieces", None),),
                Group("led", Call("in_section", (N("it"), N("left"))), role="leader"),
            ),
            Alternative("otherwise", Const(True), (), None),
        ),
        citations=(Citation("ref", "up to 2 in Left"),),
        replace=False,
    )


def test_card_defaults_copy_and_replace() -> None:
    # as parsed, a card's fields are the expressions written; its pack gives
    # them their values and the defaults (test_card_fields_from_the_pack)
    assert one('card "Nothing" { }') == CardDecl("Nothing", (), (), (), False)
    assert one('card "C" { copy = opponent }').get("copy") == N("opponent")
    assert one('card "Counter Attack" { copies = 2 copy = opponent mirrored = true excluded = "First Strike", '
               '"Rally" }') == CardDecl("Counter Attack", (
                   CardField("copies", Num(2)), CardField("copy", N("opponent")), CardField("mirrored", Const(True)),
                   CardField("excluded", (Str("First Strike"), Str("Rally")))), (), ())
    assert one('replace card "X" { orders: nothing }') == CardDecl(
        "X", (), (Alternative("orders", None, (), None),), (), replace=True)
    assert one('card "L" { orders: up to 4 pieces, led by leader }').alternatives[0].group == Group("led", None,
                                                                                                      role="leader")
    assert one('card "L" { orders: up to 4 pieces, led by chief }').alternatives[0].group.role == "chief"


def test_card_fields_from_the_pack() -> None:
    """The C&C packs say what a card has (`card fields` in the core pack):
    each card's values are checked against their types, and a card that
    gives no value takes the field's default."""
    from warcouncil.dsl.pack import load_pack

    pack = load_pack("cca")
    assert {k: (t, d) for k, (t, d, _) in pack.card_fields.items()} == {
        "copies": ("int", 1), "category": ("symbol?", None), "helmet": ("bool", False),
        "roll": ("expr[int]?", None), "copy": ("symbol?", None), "mirrored": ("bool", False),
        "excluded": ("set[str]", None)}
    spartacus = pack.cards["I Am Spartacus"]
    assert (spartacus.get("copies"), spartacus.get("category"), spartacus.get("helmet")) == (1, "tactic", True)
    assert unparse.expr(spartacus.get("roll")) == "command"
    counter = pack.cards["Counter Attack"]
    assert (counter.get("copy"), counter.get("mirrored"), counter.get("excluded")) == ("opponent", True,
                                                                                      ("First Strike",))
    center = pack.cards["Order Three Units Center"]
    assert (center.get("copies"), center.get("category"), center.get("helmet"), center.get("excluded")) == \
        (4, "section", True, ())


def test_rule_decl() -> None:
    text = '''
rule cca.one-order-per-piece
    from seed000 "You may not give more than one order to each unit or leader."
    from ref "again"
    require forall p in pieces: orders(p) <= 1
    message "{p} is ordered more than once"
'''
    assert one(text) == RuleDecl(
        "cca.one-order-per-piece",
        (Citation("seed000", "You may not give more than one order to each unit or leader."), Citation("ref", "again")),
        Quant("forall", "p", N("pieces"), Compare("<=", Call("orders", (N("p"),)), Num(1))),
        "{p} is ordered more than once",
        False,
    )
    assert one("replace rule house.x_1.y-z require true") == RuleDecl("house.x_1.y-z", (), Const(True), None, True)


def test_define_decl() -> None:
    assert one('define cca.host from seed000 "q" host(l) := the u in all_units where u.at == l.at') == DefineDecl(
        "cca.host", (Citation("seed000", "q"),), "host", ("l",),
        The("u", N("all_units"), Compare("==", Attr(N("u"), "at"), Attr(N("l"), "at"))),
    )
    assert one("define cca.command command := hand_size") == DefineDecl("cca.command", (), "command", (), N("hand_size"))
    assert one("replace define a.b f(x, y) := x + y") == DefineDecl(
        "a.b", (), "f", ("x", "y"), BinOp("+", N("x"), N("y")), replace=True)


def test_remove_decl() -> None:
    assert one("remove rule cca.one-order-per-piece") == RemoveDecl("rule", "cca.one-order-per-piece")
    assert one("remove define cca.attached") == RemoveDecl("define", "cca.attached")
    assert one('remove card "Order Two Units Left"') == RemoveDecl("card", "Order Two Units Left")


def test_several_statements_in_order_with_locations() -> None:
    text = 'pack p "P"\n\n# comment\nsections a, b\n  rule p.r require true\n'
    rf = parse_text(text, "x.wc")
    assert [type(s) for s in rf.statements] == [PackDecl, SectionsDecl, RuleDecl]
    assert [s.loc for s in rf.statements] == [Location("x.wc", 1, 1), Location("x.wc", 4, 1), Location("x.wc", 5, 3)]
    # loc is left out of equality
    assert rf.statements[2] == RuleDecl("p.r", (), Const(True), None)


def test_string_escapes() -> None:
    assert parse_expr(r'"say \"hi\" \\ there"') == Str('say "hi" \\ there')
    assert parse_expr('"a" "b"  "c"') == Str("abc")
    assert parse_expr('"“attached” ‘x’"') == Str("“attached” ‘x’")


# ----------------------------------------------------------------- expressions


@pytest.mark.parametrize(
    "text, tree",
    [
        ("3", Num(3)),
        ("2.5", Num(2.5)),
        ("1e3", Num(1000.0)),
        ('"x"', Str("x")),
        ("true", Const(True)),
        ("false", Const(False)),
        ("none", Const(None)),
        ("ordered", N("ordered")),
        ("leader", N("leader")),  # a keyword elsewhere, a name in an expression
        ("units", N("units")),
        ("p.at", Attr(N("p"), "at")),
        ("p.host.at", Attr(Attr(N("p"), "host"), "at")),
        ("f()", Call("f", ())),
        ("f(x)", Call("f", (N("x"),))),
        ("f(x, 1, g(y))", Call("f", (N("x"), Num(1), Call("g", (N("y"),))))),
        ("f(x).at", Attr(Call("f", (N("x"),)), "at")),
        ("a + b", BinOp("+", N("a"), N("b"))),
        ("a - b", BinOp("-", N("a"), N("b"))),
        ("a * b", BinOp("*", N("a"), N("b"))),
        ("a / b", BinOp("/", N("a"), N("b"))),
        ("-a", Neg(N("a"))),
        ("--a", Neg(Neg(N("a")))),
        ("a == b", Compare("==", N("a"), N("b"))),
        ("a != b", Compare("!=", N("a"), N("b"))),
        ("a < b", Compare("<", N("a"), N("b"))),
        ("a <= b", Compare("<=", N("a"), N("b"))),
        ("a > b", Compare(">", N("a"), N("b"))),
        ("a >= b", Compare(">=", N("a"), N("b"))),
        ("a in b", Compare("in", N("a"), N("b"))),
        ("a not in b", Compare("notin", N("a"), N("b"))),
        ("not a", Not(N("a"))),
        ("not not a", Not(Not(N("a")))),
        ("a and b", And((N("a"), N("b")))),
        ("a and b and c", And((N("a"), N("b"), N("c")))),
        ("a or b or c", Or((N("a"), N("b"), N("c")))),
        ("a implies b", Implies(N("a"), N("b"))),
        ("if a then b else c", IfElse(N("a"), N("b"), N("c"))),
        ("forall x in s: p(x)", Quant("forall", "x", N("s"), Call("p", (N("x"),)))),
        ("exists x in s: x.ranged", Quant("exists", "x", N("s"), Attr(N("x"), "ranged"))),
        ("{u in units}", SetComp("u", N("units"), None)),
        ("{u in units where u.class == light}",
         SetComp("u", N("units"), Compare("==", Attr(N("u"), "class"), N("light")))),
        ("the u in all_units where u.at == l.at",
         The("u", N("all_units"), Compare("==", Attr(N("u"), "at"), Attr(N("l"), "at")))),
        ("(a)", N("a")),
        ("((a))", N("a")),
    ],
)
def test_expression_forms(text: str, tree) -> None:
    assert parse_expr(text) == tree


@pytest.mark.parametrize(
    "text, tree",
    [
        # logic: not > and > or > implies
        ("not a and b", And((Not(N("a")), N("b")))),
        ("not (a and b)", Not(And((N("a"), N("b"))))),
        ("a or b and c", Or((N("a"), And((N("b"), N("c")))))),
        ("a and b or c", Or((And((N("a"), N("b"))), N("c")))),
        ("(a or b) and c", And((Or((N("a"), N("b"))), N("c")))),
        ("a and (b and c)", And((N("a"), And((N("b"), N("c")))))),
        ("a and b implies c or d", Implies(And((N("a"), N("b"))), Or((N("c"), N("d"))))),
        ("not a implies b", Implies(Not(N("a")), N("b"))),
        ("(a implies b) implies c", Implies(Implies(N("a"), N("b")), N("c"))),
        # comparisons bind tighter than not/and, looser than arithmetic
        ("not a == b", Not(Compare("==", N("a"), N("b")))),
        ("not a in b", Not(Compare("in", N("a"), N("b")))),
        ("a in b and c not in d",
         And((Compare("in", N("a"), N("b")), Compare("notin", N("c"), N("d"))))),
        ("a + 1 < b * 2", Compare("<", BinOp("+", N("a"), Num(1)), BinOp("*", N("b"), Num(2)))),
        ("a + b in s", Compare("in", BinOp("+", N("a"), N("b")), N("s"))),
        ("(a == b) == c", Compare("==", Compare("==", N("a"), N("b")), N("c"))),
        # arithmetic: * / over + -, left associative, unary minus tightest
        ("a + b * c", BinOp("+", N("a"), BinOp("*", N("b"), N("c")))),
        ("a * b + c", BinOp("+", BinOp("*", N("a"), N("b")), N("c"))),
        ("a - b - c", BinOp("-", BinOp("-", N("a"), N("b")), N("c"))),
        ("a - (b - c)", BinOp("-", N("a"), BinOp("-", N("b"), N("c")))),
        ("a / b * c", BinOp("*", BinOp("/", N("a"), N("b")), N("c"))),
        ("-a * b", BinOp("*", Neg(N("a")), N("b"))),
        ("-(a * b)", Neg(BinOp("*", N("a"), N("b")))),
        ("1 - -2", BinOp("-", Num(1), Neg(Num(2)))),
        ("-a.b", Neg(Attr(N("a"), "b"))),
        ("1 + 4", BinOp("+", Num(1), Num(4))),
        # quantifier bodies (and if/the bodies) extend as far right as possible
        ("forall x in s: a and b", Quant("forall", "x", N("s"), And((N("a"), N("b"))))),
        ("forall x in s: a implies b", Quant("forall", "x", N("s"), Implies(N("a"), N("b")))),
        ("forall x in s: a or b", Quant("forall", "x", N("s"), Or((N("a"), N("b"))))),
        ("exists x in s: forall y in t: x == y",
         Quant("exists", "x", N("s"), Quant("forall", "y", N("t"), Compare("==", N("x"), N("y"))))),
        ("forall x in s: if a then b else c and d",
         Quant("forall", "x", N("s"), IfElse(N("a"), N("b"), And((N("c"), N("d")))))),
        ("(forall x in s: a) and b", And((Quant("forall", "x", N("s"), N("a")), N("b")))),
        ("a and (exists x in s: b)", And((N("a"), Quant("exists", "x", N("s"), N("b"))))),
        ("forall x in a or b: c", Quant("forall", "x", Or((N("a"), N("b"))), N("c"))),
        ("forall x in {y in s where y.ranged}: x.at == y",
         Quant("forall", "x", SetComp("y", N("s"), Attr(N("y"), "ranged")), Compare("==", Attr(N("x"), "at"), N("y")))),
        ("if a then b else c or d", IfElse(N("a"), N("b"), Or((N("c"), N("d"))))),
        ("the x in s where a and b", The("x", N("s"), And((N("a"), N("b"))))),
        ("(the x in s where a) == y", Compare("==", The("x", N("s"), N("a")), N("y"))),
        ("count({u in units where u.kind == mounted}) == 0",
         Compare("==", Call("count", (SetComp("u", N("units"), Compare("==", Attr(N("u"), "kind"), N("mounted"))),)),
                 Num(0))),
    ],
)
def test_precedence(text: str, tree) -> None:
    assert parse_expr(text) == tree


@pytest.mark.parametrize(
    "text",
    [
        "a implies b implies c",  # implies does not chain
        "a < b < c",  # comparisons do not chain
        "a and forall x in s: b",  # a quantifier needs parentheses inside and/or
        "a == forall x in s: b",
        "a not b",
        "f(x,)",
        "{x in s where}",
        "the x in s",
    ],
)
def test_expression_syntax_errors(text: str) -> None:
    with pytest.raises(WarcouncilError):
        parse_expr(text)


# ------------------------------------------------------------------ round trip


def _pack_expressions():
    pack = load_pack("cca")
    out = []
    for d in pack.defines.values():
        out.append((d.id, d.body))
    for r in pack.rules.values():
        out.append((r.id, r.body))
    for card in pack.cards.values():
        if card.get("roll") is not None:
            out.append((f"{card.name} roll", card.get("roll")))
        for i, alt in enumerate(card.alternatives):
            if alt.when is not None:
                out.append((f"{card.name} alt {i} when", alt.when))
            if alt.group is not None and alt.group.anchor is not None:
                out.append((f"{card.name} alt {i} anchor", alt.group.anchor))
            for j, q in enumerate(alt.quotas):
                if not isinstance(q.amount, str):
                    out.append((f"{card.name} alt {i} quota {j} amount", q.amount))
                if q.where is not None:
                    out.append((f"{card.name} alt {i} quota {j} where", q.where))
    return out


PACK_EXPRS = _pack_expressions()

def _declared(kind: str) -> int:
    """How many `kind` statements the cca pack's files (its own and the core
    it extends) declare, by their text."""
    import re as _re
    from pathlib import Path as _Path
    from warcouncil.dsl.pack import load_pack as _load
    return sum(len(_re.findall(rf"(?m)^{kind} ", _Path(f).read_text("utf-8"))) for f in _load("cca").files)



def test_pack_has_many_expressions() -> None:
    pack = load_pack("cca")
    assert len(pack.rules) == _declared("rule") >= 14
    assert len(pack.define_ids) == _declared("define") >= 16
    assert len(pack.cards) == 29
    assert len(PACK_EXPRS) > 100


@pytest.mark.parametrize("who, body", PACK_EXPRS, ids=[w for w, _ in PACK_EXPRS])
def test_round_trip_pack_expressions(who: str, body) -> None:
    text = unparse.expr(body)
    assert parse_expr(text) == body, text
    # and generating again gives the same text (a fixed point)
    assert unparse.expr(parse_expr(text)) == text


def test_round_trip_pack_card_alternatives() -> None:
    pack = load_pack("cca")
    n = 0
    for card in pack.cards.values():
        for alt in card.alternatives:
            text = f'card "{card.name}" {{ {unparse.alternative(alt)} }}'
            again = one(text)
            assert again.alternatives == (alt,), text
            n += 1
    assert n >= 30


@pytest.mark.parametrize(
    "text",
    [
        "(forall x in s: a) and b",
        "not (a and b)",
        "a - (b - c)",
        "a / (b * c)",
        "(a implies b) implies c",
        "(if a then b else c) + 1",
        "-(-a)",
        "(a == b) == c",
        "{x in (a implies b)}",
        "f(-x, (a or b), {y in s})",
        "(a + b).x",
        '"quote \\" and \\\\ backslash"',
        # these need parentheses that the generator must keep
        "-(a * b)",
        "(the x in s where a) == y",
        "(the x in s where a).at",
        "(1).x",
    ],
)
def test_round_trip_tricky_expressions(text: str) -> None:
    e = parse_expr(text)
    generated = unparse.expr(e)
    try:
        again = parse_expr(generated)
    except WarcouncilError as err:  # pragma: no cover - a failure report
        pytest.fail(f"{text!r} generates {generated!r}, which does not parse:\n{err}")
    assert again == e, f"{text!r} generates {generated!r}"


# ---------------------------------------------------------------- syntax errors


def _caret_col(err: WarcouncilError) -> int:
    lines = str(err).split("\n")
    caret = lines[2]
    assert caret.strip() == "^" and caret.startswith("    ")
    return len(caret) - len("    ")  # 1-based column of the caret


def _check_error(err: WarcouncilError, path: str, line: int, col: int, source: str, message: str) -> None:
    assert err.location == Location(path, line, col)
    assert err.source_line == source
    assert err.message == message
    assert err.hint is not None and err.hint.startswith("expected ")
    lines = str(err).split("\n")
    assert lines[0] == f"{path}:{line}:{col}: {message}"
    assert lines[1] == "    " + source
    assert _caret_col(err) == col
    assert lines[-1] == f"hint: {err.hint}"


def test_missing_require() -> None:
    text = 'rule cca.x\n    from seed000 "q"\n    forall p in ordered: p\n'
    err = syntax_error(text)
    _check_error(err, "f.wc", 3, 5, "    forall p in ordered: p", "unexpected 'forall'")
    assert "'require'" in err.hint and "'from'" in err.hint


def test_unclosed_brace_in_card() -> None:
    text = 'card "X" {\n    copies = 2\n    orders: up to 2 units\n\nrule a.b require true\n'
    err = syntax_error(text)
    _check_error(err, "f.wc", 5, 1, "rule a.b require true", "unexpected 'rule'")


def test_unclosed_brace_hint_mentions_the_brace() -> None:
    """The one thing the writer forgot is '}': the hint must name it (it is
    currently cut off by the hint's 8-name limit)."""
    text = 'card "X" {\n    copies = 2\n    orders: up to 2 units\n\nrule a.b require true\n'
    err = syntax_error(text)
    assert "'}'" in err.hint, err.hint


def test_bad_character() -> None:
    err = syntax_error("rule a.b require 1 + @ 2\n")
    _check_error(err, "f.wc", 1, 22, "rule a.b require 1 + @ 2", "unexpected character '@'")
    assert "a name" in err.hint and "a number" in err.hint


def test_bad_character_on_a_later_line_with_tabs() -> None:
    text = "sections a, b\n\trule a.b require x $ y\n"
    err = syntax_error(text)
    assert err.location == Location("f.wc", 2, 21)
    assert err.source_line == "\trule a.b require x $ y"
    # the caret line keeps the tab so it lines up under tabbed text
    assert str(err).split("\n")[2] == "    \t" + " " * 19 + "^"


def test_unterminated_string() -> None:
    text = 'pack p "P"\ndocument seed "abc\nrule a.b require true\n'
    err = syntax_error(text)
    _check_error(err, "f.wc", 2, 15, 'document seed "abc', "unexpected character '\"'")


def test_end_of_file() -> None:
    err = syntax_error("rule a.b require\n")
    _check_error(err, "f.wc", 1, 17, "rule a.b require", "unexpected end of file")
    err = syntax_error('pack p "P"\ndefine a.b f(x) := x +')
    _check_error(err, "f.wc", 2, 23, "define a.b f(x) := x +", "unexpected end of file")


def test_unexpected_token_mid_expression() -> None:
    err = syntax_error("rule x.y require forall p in ordered p\n")
    _check_error(err, "f.wc", 1, 38, "rule x.y require forall p in ordered p", "unexpected 'p'")
    assert "':'" in err.hint


def test_parse_expr_errors_are_located_too() -> None:
    with pytest.raises(WarcouncilError) as info:
        parse_expr("a +", "e.wc")
    assert info.value.location.file == "e.wc" and info.value.location.line == 1
    assert info.value.message == "unexpected end of file"


@pytest.mark.parametrize(
    "text",
    [
        "rule a.b require 1 + @ 2",  # expects the start of an operand, '-' among them
        "define a.b f(x) x",  # expects ':='
        "rule a.b require",
    ],
)
def test_hints_use_human_names_for_tokens(text: str) -> None:
    """Hints name tokens as written ('-', ':='), never by Lark's internal
    terminal names ('minus', '__anon_0')."""
    err = syntax_error(text)
    assert err.hint is not None
    assert "minus" not in err.hint and "__anon" not in err.hint, err.hint


def test_define_missing_assign_hint() -> None:
    err = syntax_error("define a.b f(x) x")
    assert err.location == Location("f.wc", 1, 17)
    assert err.hint == "expected ':='"


@pytest.mark.parametrize("escape", ["\\x", "\\N", "\\u12", "\\xZZ"])
def test_invalid_escape_in_string_is_a_located_syntax_error(escape: str) -> None:
    """A bad escape inside a string is the writer's mistake: it must be
    reported at its line and column, not as an "internal error" without a place."""
    text = f'pack p "P"\ndocument d "{escape}"\n'
    err = syntax_error(text)
    assert "internal error" not in err.message, str(err)
    assert err.location is not None and err.location.line == 2, str(err)
    assert err.location.column is not None


@pytest.mark.parametrize("sep", ["\r", "\f"])
def test_source_line_matches_location_with_other_line_breaks(sep: str) -> None:
    """Line numbers and the quoted source line must agree, whatever white
    space separates lines (here a lone CR or a form feed)."""
    text = f"rule a.b require true{sep}rule c.d require @\n"
    err = syntax_error(text)
    loc = err.location
    assert err.source_line is not None
    assert loc.column <= len(err.source_line) and err.source_line[loc.column - 1] == "@", (str(loc), err.source_line)


def test_read_error_of_a_missing_file(tmp_path) -> None:
    from warcouncil.dsl.parser import parse_file

    with pytest.raises(WarcouncilError) as info:
        parse_file(tmp_path / "nope.wc")
    assert info.value.location.file == str(tmp_path / "nope.wc")
    assert "cannot read" in info.value.message


# ---------------------------------------------------------------------- fuzzing


KEYWORDS = (
    "pack extends document sections dice values unit true false none from card fields copies category "
    "helmet roll copy opponent mirrored excluded orders instead otherwise when nothing up to all any units leaders "
    "pieces linked led by leader where rule require message define remove replace forall exists if then "
    "else implies or and not in the"
).split()
PUNCT = [":", ",", "{", "}", "=", ";", "(", ")", ":=", ".", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/",
         "#", '"', "@", "$"]  # no lone backslash: invalid escapes have their own test
NAMES = ["x", "p", "ordered", "it", "left", "cca.x", "cca.one-order-per-piece", "a.b.c", "f", "_q1", "Über"]
LITERALS = ["0", "3", "-2", "1.5", "1e3", '"s"', '"Order Two Units Left"', '"a \\" b"', '""']
SEPARATORS = [" ", " ", " ", "\n", "\t", "", "  \n  "]

TOKENS = KEYWORDS + PUNCT + NAMES + LITERALS


def _assert_only_located_errors(text: str) -> None:
    try:
        parse_text(text, "fuzz.wc")
    except WarcouncilError as e:
        loc = e.location
        assert loc is not None and loc.file == "fuzz.wc"
        lines = text.split("\n")
        assert loc.line is not None and 1 <= loc.line <= len(lines), (loc, text)
        assert loc.column is not None and 1 <= loc.column <= len(lines[loc.line - 1]) + 1, (loc, text)
        assert str(e).startswith(f"fuzz.wc:{loc.line}:{loc.column}: ")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_fuzz_random_text(text: str) -> None:
    _assert_only_located_errors(text)


@st.composite
def token_soup(draw) -> str:
    toks = draw(st.lists(st.sampled_from(TOKENS), max_size=40))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(toks), max_size=len(toks)))
    return "".join(t + s for t, s in zip(toks, seps))


@st.composite
def almost_valid(draw) -> str:
    """A valid statement with one token dropped, doubled or replaced."""
    base = draw(st.sampled_from([
        'rule cca.x from seed000 "q" require forall p in ordered: orders(p) <= 1 message "{p}"',
        'define cca.y f(a, b) := if a then {u in units where u.x == b} else the u in s where u.y',
        'card "C" { copies = 2 category = section helmet = true roll = command orders: up to 2 pieces where '
        'in_section(it, left); all units, led by leader where x instead: nothing from ref "q" }',
        'unit u { kind = foot; move = 2; ranged = true } from seed002 "q"',
        'card "K" { copy = opponent mirrored = true excluded = "A", "B" }',
        'card fields copies: int = 1 "number of copies", roll: expr[int]?',
        'remove card "X" replace rule a.b require not a in b and c not in d or -e * f > 2',
    ]))
    toks = base.split(" ")
    i = draw(st.integers(0, len(toks) - 1))
    op = draw(st.sampled_from(["drop", "double", "replace"]))
    if op == "drop":
        del toks[i]
    elif op == "double":
        toks.insert(i, toks[i])
    else:
        toks[i] = draw(st.sampled_from([t for t in TOKENS if "\\" not in t]))
    return " ".join(toks)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(token_soup())
def test_fuzz_token_soup(text: str) -> None:
    _assert_only_located_errors(text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(almost_valid())
def test_fuzz_almost_valid(text: str) -> None:
    _assert_only_located_errors(text)
