"""The committed parser (``dsl/_standalone.py``, Lark's stand-alone parser)
is the one ``dsl/warcouncil.lark`` gives: same grammar text, same LALR
tables up to the numbering of states, same trees and same syntax errors as a
parser built from the .lark file by Lark itself. If a test here fails after
a grammar change, run ``python -m warcouncil.dsl.make_parser``."""

from __future__ import annotations

from pathlib import Path

import lark
import pytest

from warcouncil.dsl import _standalone as S
from warcouncil.dsl import make_parser as M

ROOT = Path(M.__file__).resolve().parent.parent
RULE_FILES = sorted(ROOT.glob("rules/*/*.wc")) + sorted(ROOT.glob("examples/*/*.wc"))
REGENERATE = "out of date: run python -m warcouncil.dsl.make_parser"


@pytest.fixture(scope="module")
def lark_parser():
    return lark.Lark(M.GRAMMAR.read_text(encoding="utf-8"), parser="lalr",
                     propagate_positions=True, maybe_placeholders=True)


def test_generated_from_this_grammar_text():
    assert S.GRAMMAR_SHA256 == M.grammar_sha256(), REGENERATE


def test_tables_are_the_grammars():
    assert M.canonical(S.DATA, S.MEMO) == M.canonical(*M.fresh_tables()), REGENERATE


def test_tables_check_sees_a_grammar_change(tmp_path):
    """The comparison above can fail: one more keyword gives other tables."""
    g = tmp_path / "changed.lark"
    g.write_text(M.GRAMMAR.read_text(encoding="utf-8").replace(
        '?statement: pack_decl', '?statement: "frobnicate" NAME -> pack_decl\n          | pack_decl'),
        encoding="utf-8")
    assert M.canonical(*M.fresh_tables(g)) != M.canonical(S.DATA, S.MEMO)


def test_options_are_the_parsers():
    opts = S.DATA["options"]
    assert opts["parser"] == "lalr" and opts["lexer"] == "contextual"
    assert opts["propagate_positions"] is True and opts["maybe_placeholders"] is True


def test_no_pickle_in_the_generated_module():
    text = Path(S.__file__).read_text(encoding="utf-8")
    assert "import pickle" not in text
    assert not hasattr(S, "pickle")


def _tree(t):
    if isinstance(t, (S.Token, lark.Token)):
        return ("tok", t.type, str(t), t.line, t.column, t.end_line, t.end_column)
    if t is None:
        return None
    m = t.meta
    pos = None if getattr(m, "empty", True) else (m.line, m.column, m.end_line, m.end_column)
    return (t.data if isinstance(t.data, str) else ("tok", t.data.type, str(t.data)), pos,
            tuple(_tree(c) for c in t.children))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_same_trees_as_lark(path, lark_parser):
    text = path.read_text(encoding="utf-8")
    assert _tree(S.Lark_StandAlone().parse(text)) == _tree(lark_parser.parse(text))


BROKEN = [
    "rule x.y require",
    "rule x.y require a ==",
    "define x.f from doc \"q\" f(a) := a +",
    "card \"X\" { copies = 2 orders up to 2 units where",
    "rule x.y require a @ b",
    "unit foo { move 2 ",
    "pack cca \"t\"\nrule",
]


@pytest.mark.parametrize("text", BROKEN)
def test_same_errors_as_lark(text, lark_parser):
    def error(parse):
        try:
            parse(text)
        except (S.UnexpectedInput, lark.exceptions.UnexpectedInput) as e:
            expected = getattr(e, "expected", None) or getattr(e, "allowed", None)
            return type(e).__name__, e.line, e.column, frozenset(expected or ())
        return None

    mine = error(S.Lark_StandAlone().parse)
    assert mine is not None
    assert mine == error(lark_parser.parse)
