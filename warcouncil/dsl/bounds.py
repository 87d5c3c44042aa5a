"""Bounds on rule text, checked before and right after parsing.

A rule file is data from anyone: its size is bounded when it is read
(``textfile.RULES_LIMIT``), and here, before Lark builds anything, the number
of tokens of one statement and of the whole file, and the size of number
literals (a 4,301-digit integer is refused at its line and column, not by
Python's own limit). Right after parsing, before the tree is turned into the
AST (a recursive walk), the nesting depth of every statement is bounded, so
no later walk — folding, compiling, evaluating — can run out of Python's
stack: 1,000 nested ``not`` is "nested too deeply" at its place.

The bounds are far above anything a rulebook needs (the shipped packs stay
under a tenth of each) and low enough that parsing and checking a file that
meets them takes a second or two.
"""

from __future__ import annotations

import re

from ..errors import Location, WarcouncilError

#: tokens in one statement (a rule, define, card, ...) and in one file
STATEMENT_TOKENS = 10_000
FILE_TOKENS = 100_000
#: digits in a number literal (before any exponent) and the largest magnitude
NUMBER_DIGITS = 15
NUMBER_MAGNITUDE = 10 ** 15
#: nesting of one statement's parse tree (an expression inside another)
MAX_NESTING = 64

# The tokens of the language, as Lark's lexer cuts them, closely enough to
# count them and find number literals: strings and comments first (a `#` or a
# digit inside quotes is text), then numbers, names and single characters.
_TOKEN = re.compile(
    r'(?P<str>"(?:[^"\\\n]|\\.)*"?)'
    r"|(?P<comment>#[^\n]*)"
    r"|(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:\.[a-z0-9_][a-z0-9_-]*)*)"
    r"|(?P<space>\s+)"
    r"|(?P<other>.)",
    re.S,
)
#: the dice of one `roll` at most: the kernel works out its law face by
#: face (6**4 = 1,296 evaluations of its body; kernel/rolls.py)
MAX_ROLL_DICE = 4
# words that begin a statement (`remove rule X` is one statement: `rule`
# after `remove`, `replace` or `change` does not begin another)
STATEMENT_STARTS = frozenset({"pack", "extends", "document", "sections", "dice", "values", "unit", "terrain", "card",
                     "rule", "define", "remove", "roles", "effects", "builtin", "hook", "replace", "change"})
_AFTER = frozenset({"remove", "replace", "change"})
# statements named in a message by their first words (`rule ID`, `change unit NAME`): how many
_NAMED = {"rule": 2, "define": 2, "card": 2, "unit": 2, "terrain": 2, "change": 3}


def _place(text: str, pos: int, path: str) -> tuple[Location, str]:
    line = text.count("\n", 0, pos) + 1
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return Location(path, line, pos - start + 1), text[start: end if end >= 0 else len(text)]


def prescan(text: str, path: str) -> None:
    """Refuse, before parsing, a statement or file with too many tokens and
    a number literal that is too large (``WarcouncilError`` at its place)."""
    total = in_statement = 0
    statement, statement_at, prev = "", 0, ""
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind in ("space", "comment"):
            continue
        tok = m.group()
        if kind == "name" and tok in STATEMENT_STARTS and prev not in _AFTER and prev != ".":
            in_statement, statement, statement_at = 0, tok, m.start()
        elif kind in ("name", "str") and in_statement == statement.count(" ") + 1 \
                and in_statement < _NAMED.get(statement.split(" ", 1)[0], 0):
            statement = f"{statement} {tok}"  # its id or name (`change`: its kind, then its id or name)
        total += 1
        in_statement += 1
        prev = tok
        if kind == "num":
            _number(tok, text, m.start(), path)
        if in_statement > STATEMENT_TOKENS:
            loc, line = _place(text, statement_at, path)
            name = statement if len(statement) <= 80 else statement[:79] + "…"
            raise WarcouncilError(f"{name or 'this statement'} is too long: more than {STATEMENT_TOKENS:,} "
                                  "words and symbols in one statement", loc, source_line=line,
                                  hint="split it into defines, each a part of the whole")
        if total > FILE_TOKENS:
            loc, line = _place(text, m.start(), path)
            raise WarcouncilError(f"rule file is too long: more than {FILE_TOKENS:,} words and symbols",
                                  loc, source_line=line, hint="split the rules over several files")


def _number(tok: str, text: str, pos: int, path: str) -> None:
    mantissa = re.split(r"[eE]", tok, maxsplit=1)[0]
    digits = sum(c.isdigit() for c in mantissa.lstrip("0.") or "0")
    too_big = digits > NUMBER_DIGITS
    if not too_big:
        try:
            too_big = not abs(float(tok)) < NUMBER_MAGNITUDE
        except (ValueError, OverflowError):
            too_big = True
    if too_big:
        loc, line = _place(text, pos, path)
        shown = tok if len(tok) <= 20 else tok[:19] + "…"
        raise WarcouncilError(f"number {shown} is too large: at most {NUMBER_DIGITS} digits "
                              f"and less than {NUMBER_MAGNITUDE:.0e} in size", loc, source_line=line)


def check_nesting(tree, path: str, line_of) -> None:
    """Refuse a parse tree nested more than ``MAX_NESTING`` deep, at the
    place of its deepest statement part (an iterative walk: no recursion)."""
    from ._standalone import Tree  # the parser's own tree class (not lark.Tree: the parser is stand-alone)

    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", None) if not getattr(meta, "empty", True) else None
            col = getattr(meta, "column", None) if line else None
            raise WarcouncilError(f"nested too deeply: more than {MAX_NESTING} levels of expressions "
                                  "inside one another", Location(path, line, col), source_line=line_of(line),
                                  hint="name inner parts with defines (a chain of + or - counts a level per operator)")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
