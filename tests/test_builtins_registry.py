"""One registry of builtins: each declared once (dsl/builtins.py, the core
pack's `builtin` statements), each with exactly one meaning
(kernel/builtins.py, systems/cc/builtins.py); lint and the compiler read it;
the language package imports nothing from the kernel, the world or the
planner."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import warcouncil.dsl
from warcouncil.dsl.builtins import KERNEL, Builtin, Vocabulary, canonical_type, type_error
from warcouncil.dsl.lint import lint
from warcouncil.dsl.pack import load_pack
from warcouncil.dsl import ast as A
from warcouncil.dsl.parser import parse_expr, parse_text
from warcouncil.errors import Location, WarcouncilError

ONE_ORDER = "You may not give more than one order to each unit or leader."

# ---------------------------------------------------------------- today's sets
# The tables evaluate.py held before the registry (commit 524a747), written
# out: the views of the C&C pack's vocabulary must give them back exactly.
DYNAMIC_BUILTINS = {
    "ordered", "orders", "assignable", "linked_ok", "led_ok", "filled",
    "moves", "battles", "moved", "final", "earlier", "moved_before", "unit_on",
    "leader_on", "position", "last_move", "moved_length", "battles_of",
}
SETTING_BUILTINS = {
    "units", "leaders", "pieces", "enemy_units", "enemy_leaders", "all_units",
    "all_leaders", "side", "hand_size", "adjacent", "distance",
    "sections_of", "dotted", "count", "min", "max", "abs", "unit_at", "leader_at",
    "terrain_at", "on_board", "line", "turn_step",
}
PURE_BUILTINS = {"count", "min", "max", "abs", "turn_step"}
TURN_BUILTINS = {
    "moves", "battles", "moved", "final", "earlier", "moved_before", "unit_on",
    "leader_on", "position", "last_move", "moved_length", "battles_of",
}
CELL_LOCAL_FUNCS = {"unit_on", "leader_on", "terrain_at", "on_board"}
BUILTIN_CONSTANTS = {
    "units", "leaders", "pieces", "enemy_units", "enemy_leaders", "all_units",
    "all_leaders", "ordered", "moves", "battles", "card", "side", "hand_size",
    "capacity", "earlier",
}
BUILTIN_FUNCTIONS = {
    "adjacent": 2, "distance": 2, "sections_of": 1, "dotted": 1, "count": 1,
    "orders": 1, "admitted": 1, "assignable": 1, "linked_ok": 1, "led_ok": 1,
    "filled": 1, "rolled": 1, "moved": 1, "final": 1, "min": 2, "max": 2,
    "abs": 1, "unit_at": 1, "leader_at": 1, "terrain_at": 1, "on_board": 1, "line": 2,
    "moved_before": 1, "unit_on": 1, "leader_on": 1, "position": 1,
    "last_move": 1, "moved_length": 1, "battles_of": 1, "turn_step": 1,
}
BUILTIN_ATTRIBUTES = {
    "id", "side", "at", "role", "type", "blocks", "max_blocks",
    "name", "category", "helmet", "effects",
    "edge", "command",
    "piece", "to", "path", "target", "start", "through", "length", "index", "phase",
    "played",
}
# movement.py's own two tables (what a move condition may read of its moment;
# what only the whole turn knows)
MOMENT_BUILTINS = {"earlier", "moved_before", "unit_on", "leader_on", "position"}
WHOLE_TURN = {"moves", "battles", "moved", "final", "last_move", "moved_length", "battles_of"}

CC_DECLARED = {"hand_size", "sections_of", "dotted", "card", "rolled", "capacity", "admitted",
               "assignable", "linked_ok", "led_ok", "filled"}


@pytest.fixture(scope="module")
def cca():
    return load_pack("cca")


def test_views_equal_the_tables_they_replace(cca) -> None:
    v = cca.vocabulary
    assert set(v.dynamic) == DYNAMIC_BUILTINS
    assert set(v.setting_static) == SETTING_BUILTINS
    assert set(v.pure) == PURE_BUILTINS
    assert set(v.turn) == TURN_BUILTINS
    assert set(v.cell_local) == CELL_LOCAL_FUNCS
    assert set(v.constants) == BUILTIN_CONSTANTS
    assert dict(v.functions) == BUILTIN_FUNCTIONS
    assert set(v.attributes) == BUILTIN_ATTRIBUTES
    assert set(v.moment) == MOMENT_BUILTINS
    assert set(v.whole_turn) == WHOLE_TURN
    # the card's facts (the move analysis's "reads the card"); capacity and
    # admitted read the card's alternative, which a grounding does not fix
    assert set(v.context) == {"card", "rolled"}
    assert set(v.context_static) == SETTING_BUILTINS | {"card", "rolled"}
    assert len(v) == len(BUILTIN_CONSTANTS) + len(BUILTIN_FUNCTIONS)


def test_the_cc_family_is_declared_by_the_core_pack(cca) -> None:
    assert set(cca.builtins) == CC_DECLARED
    assert not CC_DECLARED & set(KERNEL)
    assert all(b.origin.endswith("00-core.wc") and b.loc.line for b in cca.builtins.values())
    assert set(load_pack("ccm").builtins) == CC_DECLARED
    b = cca.builtins["sections_of"]
    assert (b.params, b.returns, b.reads) == (("cell",), "set[symbol]", "setting")
    assert cca.builtins["hand_size"].params is None


def test_every_kernel_builtin_has_exactly_one_meaning() -> None:
    from warcouncil.kernel.builtins import KERNEL_MEANINGS

    consts, funcs = set(KERNEL_MEANINGS.constants), set(KERNEL_MEANINGS.functions)
    assert consts == set(KERNEL.constants)
    assert funcs == set(KERNEL.functions)
    assert not consts & funcs


def test_every_cc_builtin_has_exactly_one_meaning(cca) -> None:
    from warcouncil.kernel.builtins import KERNEL_MEANINGS
    from warcouncil.systems.cc.builtins import CC

    declared = cca.builtins.values()
    assert set(CC.constants) == {b.name for b in declared if b.params is None}
    assert set(CC.functions) == {b.name for b in declared if b.params is not None}
    assert not CC.names() & KERNEL_MEANINGS.names()


def test_a_missing_or_extra_meaning_is_caught() -> None:
    from warcouncil.kernel.builtins import KERNEL_MEANINGS, Meanings

    short = Meanings("short")
    for n, f in KERNEL_MEANINGS.constants.items():
        short.constant(n, f)
    with pytest.raises(WarcouncilError, match="no meaning for .*abs"):
        short.check_exactly(KERNEL)
    extra = KERNEL_MEANINGS | Meanings("more")
    extra.function("frobnicate", lambda ctx, s, a: 0)
    with pytest.raises(WarcouncilError, match="a meaning but no declaration for frobnicate"):
        extra.check_exactly(KERNEL)
    with pytest.raises(WarcouncilError, match="two meanings"):
        extra.function("abs", lambda ctx, s, a: 0)


def test_a_pack_builtin_without_a_meaning_fails_when_compiled(tmp_path: Path) -> None:
    from warcouncil.kernel.builtins import KERNEL_MEANINGS
    from warcouncil.kernel.evaluate import Compiler

    f = tmp_path / "g.wc"
    f.write_text('pack toy "A toy game"\nbuiltin morale(piece) -> int reads setting "a piece\'s morale"\n')
    pack = load_pack(str(f))
    with pytest.raises(WarcouncilError) as e:
        Compiler(pack)
    assert "builtin morale" in e.value.message and "A toy game" in e.value.message
    assert e.value.location == Location(str(f), 2, 1)
    # the C&C pack compiled with only the kernel's meanings
    with pytest.raises(WarcouncilError, match="declares builtin .*sections_of"):
        Compiler(load_pack("cca"), KERNEL_MEANINGS)


def test_a_kernel_only_pack_cannot_call_cc_builtins(tmp_path: Path) -> None:
    f = tmp_path / "g.wc"
    line = "rule toy.r require forall p in ordered: dotted(p) and count(ordered) <= hand_size"
    f.write_text('pack toy "A toy game"\n' + line + "\n")
    _, problems = lint([str(f)])
    assert [(p.message, p.location.line, p.location.column) for p in problems] == [
        ("unknown function 'dotted'", 2, line.index("dotted") + 1),
        ("unknown name 'hand_size'", 2, line.index("hand_size") + 1),
    ]


def test_the_builtin_statement() -> None:
    rf = parse_text('builtin sections_of(cell) -> set[symbol] reads setting "the sections" " of a cell"\n'
                    'builtin hand_size -> int reads setting "cards in hand"\n'
                    'builtin best(number?, set[piece]) -> piece? reads turn "x"\n', "t.wc")
    a, b, c = rf.statements
    assert (a.name, a.params, a.returns, a.reads, a.doc) == ("sections_of", ("cell",), "set[symbol]", "setting",
                                                           "the sections of a cell")
    assert (b.params, b.returns) == (None, "int")
    assert (c.params, c.returns) == (("number?", "set[piece]"), "piece?")
    assert a.loc == Location("t.wc", 1, 1)


def test_types_and_reads_are_checked(tmp_path: Path) -> None:
    assert type_error("set[piece]") is None and type_error("piece?") is None
    assert "unknown type 'dragon'" in type_error("dragon")
    assert all(type_error(t) is None for b in KERNEL.values() for t in (b.params or ()) + (b.returns,))
    text = ('pack toy "t"\nbuiltin a -> dragon reads setting "x"\n'
            'builtin b(cell) -> int reads tomorrow "y"\n')
    f = tmp_path / "g.wc"
    f.write_text(text)
    _, problems = lint([str(f)])
    assert [(p.location.line, p.location.column) for p in problems] == [(2, 1), (3, 1)]
    assert "unknown type 'dragon'" in problems[0].message
    assert "unknown reads 'tomorrow'" in problems[1].message


def test_old_spellings_of_the_context_read_as_before(tmp_path: Path, cca) -> None:
    """Rule files are users' data: a pack written when the decision's fixed
    context was named after the C&C card (`-> card`, `reads card`,
    `set[card]`, `card?`) declares the same builtins as one that writes
    `context`."""
    assert canonical_type("card") == "context" and canonical_type("set[card]") == "set[context]"
    assert canonical_type("card?") == "context?" and canonical_type("set[piece]") == "set[piece]"
    assert type_error("card") is None and type_error("set[card]?") is None
    f = tmp_path / "old.wc"
    f.write_text('pack old "an older C&C family file"\n'
                 'builtin card -> card reads card "the card played"\n'
                 'builtin rolled(symbol) -> int reads card "dice"\n'
                 'builtin hand(set[card]) -> card? reads card "a card of a hand"\n'
                 'rule old.r require -card == 1\n')
    old = load_pack(str(f))
    for name in ("card", "rolled"):
        o, new = old.builtins[name], cca.builtins[name]
        assert (o.params, o.returns, o.reads) == (new.params, new.returns, new.reads)
    assert (old.builtins["hand"].params, old.builtins["hand"].returns) == (("set[context]",), "context?")
    assert old.vocabulary.context == {"card", "rolled", "hand"}
    assert old.vocabulary.context_static >= {"card", "rolled", "hand"}
    # and lint types the old declaration as the new one: -card is no number
    _, problems = lint([str(f)])
    assert "cannot negate card: it is a context record, not a number" in [p.message for p in problems]


def test_vocabulary_is_immutable_and_extends() -> None:
    more = KERNEL.extend([Builtin("morale", ("piece",), "int", "setting", "x", origin="toy")])
    assert "morale" in more and "morale" not in KERNEL and more.functions["morale"] == 1
    assert "morale" in more.setting_static
    with pytest.raises(TypeError):
        more._table["x"] = None  # a read-only mapping
    with pytest.raises(WarcouncilError, match="already declared by the kernel|already declared by kernel"):
        KERNEL.extend([Builtin("count", ("any",), "int", "pure")])
    assert isinstance(KERNEL | Vocabulary(), Vocabulary)


# ---------------------------------------------------------------- lint


def _house(tmp_path: Path, text: str):
    p = tmp_path / "house.wc"
    p.write_text(text, encoding="utf-8")
    pack, problems = lint([str(p)], base="cca")
    return str(p), problems


def _rule(body: str) -> str:
    return f'rule house.r\n    from seed000 "{ONE_ORDER}"\n    require {body}\n'


def test_lint_undeclared_function(tmp_path: Path) -> None:
    path, problems = _house(tmp_path, _rule("forall p in ordered: morale(p) >= 2"))
    assert [(p.message, p.location) for p in problems] == [("unknown function 'morale'", Location(path, 3, 34))]


def test_lint_wrong_arity_of_a_pack_builtin(tmp_path: Path) -> None:
    path, problems = _house(tmp_path, _rule("forall p in ordered: dotted(p, p)"))
    assert [(p.message, p.location) for p in problems] == [("dotted takes 1 argument(s), got 2",
                                                             Location(path, 3, 34))]


def test_lint_house_file_redeclaring_a_builtin(tmp_path: Path) -> None:
    text = ('# a house file\n'
            'builtin sections_of(cell) -> set[symbol] reads setting "mine"\n'
            '  builtin count(set[any]) -> int reads pure "mine too"\n')
    path, problems = _house(tmp_path, text)
    assert [(p.message, p.location) for p in problems] == [
        ("builtin sections_of is already declared by " + str(load_pack("cca").builtins["sections_of"].origin),
         Location(path, 2, 1)),
        ("builtin count is already declared by the kernel", Location(path, 3, 3)),
    ]
    path, problems = _house(tmp_path, 'builtin morale(piece) -> int reads setting "x"\n')
    assert [(p.message, p.location) for p in problems] == [
        ("builtin morale: a house rule cannot declare a builtin (its meaning is Python code)", Location(path, 1, 1))]


# ---------------------------------------------------------------- layering


def test_the_language_imports_nothing_from_the_kernel() -> None:
    dsl = Path(warcouncil.dsl.__file__).parent
    for f in sorted(dsl.glob("*.py")):
        tree = ast.parse(f.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mod = "." * node.level + (node.module or "")
                assert not re.search(r"\b(kernel|world|solver|cli)\b", mod), f"{f.name} imports {mod}"
            elif isinstance(node, ast.Import):
                assert not any(re.match(r"warcouncil\.(kernel|world|solver)\b", a.name) for a in node.names), f.name
    code = ("import sys, warcouncil.dsl.lint, warcouncil.dsl.pack, warcouncil.dsl.builtins;"
            "warcouncil.dsl.lint.lint(['cca']);"
            "print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "(['warcouncil', 'kernel'], ['warcouncil', 'world'], ['warcouncil', 'solver'])))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", ["cca", "ccm"])
def test_the_compilers_analyses_are_todays(name) -> None:
    """The define classes the compiler derives from the vocabulary's views
    are those today's tables give (each a set of defines, nothing else)."""
    from warcouncil.kernel.evaluate import Compiler

    pack = load_pack(name)
    c = Compiler(pack)
    static = c._closed(SETTING_BUILTINS | c.symbols)
    assert c.static_defines() == static and static <= set(pack.defines) and "in_section" in static
    card = c._closed(SETTING_BUILTINS | {"card", "rolled"} | c.symbols, frozenset(static)) - static
    assert c.context_static_defines() == card and card <= set(pack.defines) and "may_detach" in card
    assert c.dynamic_defines() == c._fixpoint(DYNAMIC_BUILTINS)
    assert c.turn_defines() == c._fixpoint(TURN_BUILTINS)


# ---------------------------------------------------------------- typed fields


def test_cc_attributes_are_typed_by_the_core_pack_not_the_kernel(tmp_path: Path, cca) -> None:
    """`blocks`, `helmet`, `played` ... are C&C's: the core pack types them
    (`fields helmet: bool, ...`) and lint catches the same type errors it
    caught when the kernel declared them."""
    from warcouncil.dsl.builtins import KERNEL_ATTRIBUTES

    cc = {"blocks": "int", "max_blocks": "int", "category": "symbol?", "helmet": "bool",
          "effects": "set[symbol]", "played": "str"}
    assert not set(cc) & set(KERNEL_ATTRIBUTES)
    assert cca.field_types == cc and {k: cca.vocabulary.attributes[k] for k in cc} == cc
    f = tmp_path / "house.wc"
    f.write_text('rule house.a\n    require -card.played == 1\n'
                 'rule house.b\n    require count(card.category) > 0\n'
                 'rule house.c\n    require forall p in ordered: p.blocks < "x"\n'
                 'rule house.d\n    require not card.helmet\n')
    _, problems = lint(["cca", str(f)])
    assert [(p.location.line, p.message) for p in problems] == [
        (2, "cannot negate card.played: it is a string, not a number"),
        (4, "count takes a collection as its first argument, but card.category is a name (or none)"),
        (6, 'cannot compare p.blocks < "x": a whole number with a string'),
    ]


def test_a_field_may_give_its_type(tmp_path: Path) -> None:
    rf = parse_text("fields step, morale: int, tags: set[symbol], leader: piece?\n", "t.wc")
    (st,) = rf.statements
    assert st.names == ("step", "morale", "tags", "leader")
    assert st.types == (None, "int", "set[symbol]", "piece?")
    f = tmp_path / "g.wc"
    f.write_text('pack toy "t"\nroles unit\nfields step, morale: int, old: card\n'
                 'rule toy.r require forall p in units: p.morale < "high" and p.step < "x"\n')
    pack = load_pack(str(f))
    assert pack.fields == ("step", "morale", "old") and pack.field_types == {"morale": "int", "old": "context"}
    _, problems = lint([str(f)])
    # typed: checked; untyped (`step`): never an error
    assert [p.message for p in problems if "compare" in p.message] == [
        'cannot compare p.morale < "high": a whole number with a string']


def test_a_field_has_one_type(tmp_path: Path) -> None:
    f = tmp_path / "g.wc"
    f.write_text('pack toy "t"\nfields id: int\nfields morale: int\nfields morale: str, x: dragon\n')
    _, problems = lint([str(f)])
    assert [(p.location.line, p.message) for p in problems] == [
        (2, "field id is already of type str, not int"),
        (4, "field morale is already of type int, not str"),
        (4, "field x: unknown type 'dragon' (types: any, battle, bool, cell, context, int, move, number, piece, "
            "side, str, symbol)"),
    ]


def test_a_finer_read_class_is_one_the_language_knows(tmp_path: Path) -> None:
    """`reads LEVEL.CLASS` (issue 27 item 4): the level as before, the class
    beside it; lint names an unknown class at its statement."""
    text = ('pack toy "t"\nbuiltin a(piece) -> bool reads setting.table "x"\n'
            'builtin b -> int reads turn.tomorrow "y"\n')
    f = tmp_path / "g.wc"
    f.write_text(text)
    _, problems = lint([str(f)])
    assert [(p.location.line, p.location.column) for p in problems] == [(3, 1)]
    assert problems[0].message.startswith("builtin b: unknown read class 'turn.tomorrow' (one of setting.table, ")
    rf = parse_text(text.splitlines(keepends=True)[0] + text.splitlines(keepends=True)[1], "t.wc")
    decl = next(st for st in rf.statements if isinstance(st, A.BuiltinDecl))
    assert decl.reads == "setting.table"
    b = Builtin(decl.name, decl.params, decl.returns, decl.reads, decl.doc)
    assert (b.reads, b.detail) == ("setting", "table")


def test_the_kernel_derives_what_each_define_reads_from_the_pack() -> None:
    """kernel/reads.py: a define reads the union of the classes of the
    builtins its body calls, through the defines it calls (Warmaster's
    pack declares them); a builtin declared with a level alone (the
    kernel's `moves`, `reads turn`) reads something of unknown reach."""
    from warcouncil.dsl.pack import load_pack
    from warcouncil.kernel.reads import PackReads

    pack = load_pack("warmaster")
    reads = PackReads(pack, lambda name: {"at": "table", "index": "history"}.get(name, ""))
    assert reads.builtin("before") == "history" and reads.builtin("gap") == "table"
    assert reads.builtin("issuer") == "fixed.by" and reads.builtin("per_full") == ""
    assert reads.builtin("moves") is None
    assert reads.define("succeeds") == {"outcome"}  # (rolled_2d6, target_number; issuer is fixed)
    assert reads.define("penalty_enemy") == {"table"}
    assert reads.define("penalty_distance") == {"table"}
    assert reads.of([parse_expr("moves")]) is None
