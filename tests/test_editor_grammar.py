"""The TextMate grammar editors highlight rule files with
(``editors/warcouncil.tmLanguage.json``) knows the language's keywords: its
keyword lists hold exactly the keywords of ``dsl/warcouncil.lark`` (read by
Lark itself, as tests/test_grammar_sync.py reads the grammar), so a keyword
added to the language is one to add to the highlighting."""

from __future__ import annotations

import json
import re
from pathlib import Path

import lark
from lark.lexer import PatternStr

from warcouncil.dsl import make_parser as M

ROOT = Path(__file__).resolve().parent.parent
TEXTMATE = ROOT / "editors" / "warcouncil.tmLanguage.json"
#: the scopes of the grammar's word lists (``\b(a|b|c)\b``)
WORD_SCOPES = ("keyword.other.", "keyword.operator.logical.", "constant.language.")


def lark_keywords() -> set[str]:
    parser = lark.Lark(M.GRAMMAR.read_text(encoding="utf-8"), parser="lalr")
    return {t.pattern.value for t in parser.terminals
            if isinstance(t.pattern, PatternStr) and re.fullmatch(r"[a-z]+", t.pattern.value)}


def textmate_words(grammar: dict) -> list[str]:
    words = []
    for entry in grammar["repository"].values():
        if entry.get("name", "").startswith(WORD_SCOPES):
            m = re.fullmatch(r"\\b\((.*)\)\\b", entry["match"])
            assert m, entry
            words += m.group(1).split("|")
    return words


def test_the_textmate_keywords_are_the_grammars() -> None:
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    words = textmate_words(grammar)
    assert len(words) == len(set(words))  # each in one list
    assert set(words) == lark_keywords()
    assert {"forall", "require", "replace", "change", "remove", "none", "led"} <= set(words)


def test_the_textmate_grammar_is_whole() -> None:
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    assert grammar["scopeName"] == "source.warcouncil" and grammar["fileTypes"] == ["wc"]
    included = {p["include"].lstrip("#") for p in grammar["patterns"]}
    assert included == set(grammar["repository"])
    for entry in grammar["repository"].values():
        for key in ("match", "begin", "end"):
            if key in entry:
                re.compile(entry[key])  # (Oniguruma's syntax, here within Python's)
    rule_id = re.compile(grammar["repository"]["rule-id"]["match"])
    assert rule_id.search("replace rule cca.no-detach-on-leadership").group(2) == "cca.no-detach-on-leadership"
    assert rule_id.search("require u.type != camel") is None


def test_a_keyword_missing_from_the_textmate_grammar_is_seen() -> None:
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    entry = grammar["repository"]["logic-keyword"]
    entry["match"] = entry["match"].replace("|implies", "")
    assert lark_keywords() - set(textmate_words(grammar)) == {"implies"}
