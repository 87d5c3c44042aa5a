"""Parse rule text into the AST (Lark LALR + a Transformer).

The LALR tables are built once, when the grammar changes, not in every
process: ``_standalone.py`` is Lark's stand-alone parser generated from
``warcouncil.lark`` (``python -m warcouncil.dsl.make_parser``; kept in step
by ``tests/test_grammar_sync.py``). It needs no Lark at run time and loads
no pickle.
"""

from __future__ import annotations

import ast as _pyast
from functools import lru_cache
from pathlib import Path

from ._standalone import (Lark, Lark_StandAlone, Token, Transformer, UnexpectedCharacters, UnexpectedInput,
                          UnexpectedToken, VisitError, v_args)

from ..errors import Location, WarcouncilError
from ..textfile import RULES_LIMIT, read_text
from . import ast as A
from .bounds import STATEMENT_STARTS, check_nesting, prescan

# Human names for the grammar's terminals, for "expected ..." hints.
_TERMINAL_NAMES = {
    "NAME": "a name",
    "RULE_ID": "a rule id like cca.some-rule",
    "STRING": "a quoted string",
    "NUMBER": "a number",
    "SIGNED_NUMBER": "a number",
    "INT": "a whole number",
    "COLON": "':'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "COMMA": "','",
    "SEMICOLON": "';'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*' or '/'",
    "QUANT": "forall/exists",
    "WHAT": "units, leaders or pieces",
    "KIND": "rule, define or card",
    "$END": "end of file",
}


@lru_cache(maxsize=1)
def _parser() -> Lark:
    # LALR, contextual lexer, propagate_positions and maybe_placeholders:
    # the options are the generator's (make_parser.OPTIONS)
    return Lark_StandAlone()


class _BadString(Exception):
    def __init__(self, tok, reason):
        self.tok, self.reason = tok, reason


def _unquote(tok: Token | str) -> str:
    # ESCAPED_STRING is a Python-compatible literal; literal_eval never runs code.
    try:
        return _pyast.literal_eval(str(tok))
    except (SyntaxError, ValueError) as e:
        raise _BadString(tok, getattr(e, "msg", None) or str(e)) from None


def _replace_flag(items) -> tuple[bool, list]:
    """(is this a `replace …` statement, the items after the keyword)."""
    if items and isinstance(items[0], Token) and items[0].type == "REPLACE":
        return True, list(items[1:])
    return False, list(items)


def _split_citations(items) -> tuple[tuple, list]:
    """(the citations among items, the other items, in order)."""
    return (tuple(i for i in items if isinstance(i, A.Citation)),
            [i for i in items if not isinstance(i, A.Citation)])


_NO_DEFAULT = object()  # (a roll's parameter given no default)


def _constant(value):
    """A literal's value: a number, true/false, a name (a symbol's text) or a text."""
    if isinstance(value, (A.Num, A.Const)):
        return value.value
    if isinstance(value, A.Name):
        return value.id
    if isinstance(value, A.Str):
        return value.value
    return value


class _Effects:
    """A card's `effect NAME, ...` item, while its card is being built."""

    def __init__(self, names: tuple[str, ...], locs: tuple[Location, ...]):
        self.names, self.locs = names, locs


class _ToAst(Transformer):
    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def _loc(self, meta) -> Location:
        if getattr(meta, "empty", True):
            return Location(self.path)
        return Location(self.path, meta.line, meta.column)

    def _tloc(self, tok: Token) -> Location:
        return Location(self.path, tok.line, tok.column)

    # -- file
    def start(self, items):
        return tuple(items)

    @v_args(meta=True)
    def pack_decl(self, meta, items):
        return A.PackDecl(str(items[0]), _unquote(items[1]), self._loc(meta))

    @v_args(meta=True)
    def extends_decl(self, meta, items):
        alias = str(items[1]) if len(items) > 1 and items[1] is not None else None
        return A.Extends(str(items[0]), alias, self._loc(meta))

    @v_args(meta=True)
    def document_decl(self, meta, items):
        title = _unquote(items[2]) if len(items) > 2 and items[2] is not None else None
        return A.DocumentDecl(str(items[0]), _unquote(items[1]), self._loc(meta), title)

    @v_args(meta=True)
    def sections_decl(self, meta, items):
        return A.SectionsDecl(items[0], self._loc(meta))

    @v_args(meta=True)
    def dice_decl(self, meta, items):
        return A.DiceDecl(items[0], self._loc(meta))

    @v_args(meta=True)
    def values_decl(self, meta, items):
        return A.ValuesDecl(str(items[0]), items[1], self._loc(meta))

    @v_args(meta=True)
    def fields_decl(self, meta, items):
        return A.FieldsDecl(tuple(n for n, _ in items), tuple(t for _, t in items), self._loc(meta))

    def field_entry(self, items):
        return str(items[0]), (items[1] if len(items) > 1 else None)

    @v_args(meta=True)
    def roles_decl(self, meta, items):
        return A.RolesDecl(items[0], tuple(items[1:]), self._loc(meta))

    @v_args(meta=True)
    def effects_decl(self, meta, items):
        return A.EffectsDecl(tuple(items), self._loc(meta))

    @v_args(meta=True)
    def effect_entry(self, meta, items):
        return A.EffectDecl(str(items[0]), tuple(items[1:]), self._loc(meta))

    def name_list(self, items):
        return tuple(str(t) for t in items)

    # -- unit types
    @v_args(meta=True)
    def unit_decl(self, meta, items):
        replace, items = _replace_flag(items)
        name, attrs, cites = self._attr_decl(items)
        return A.UnitDecl(name, attrs, cites, self._loc(meta), replace)

    @staticmethod
    def _attr_decl(items):
        """NAME { attrs } citations -> (name, attrs, citations)."""
        cites, rest = _split_citations(items[1:])
        return str(items[0]), tuple(i for i in rest if isinstance(i, tuple)), cites

    @v_args(meta=True)
    def terrain_decl(self, meta, items):
        name, attrs, cites = self._attr_decl(items)
        return A.TerrainDecl(name, attrs, cites, self._loc(meta))

    def unit_attr(self, items):
        return (str(items[0]), _constant(items[1]))

    @v_args(meta=True)
    def symbol(self, meta, items):
        return A.Name(str(items[0]), self._loc(meta))

    # -- citations
    @v_args(meta=True)
    def citation(self, meta, items):
        return A.Citation(str(items[0]), items[1].value, self._loc(meta))

    @v_args(meta=True)
    def string(self, meta, items):
        return A.Str("".join(_unquote(t) for t in items), self._loc(meta))

    # -- cards
    @v_args(meta=True)
    def card_fields_decl(self, meta, items):
        return A.CardFieldsDecl(tuple(e[0] for e in items), tuple(e[1] for e in items),
                                tuple(e[2] for e in items), tuple(e[3] for e in items), self._loc(meta))

    def card_field_entry(self, items):
        words = _unquote(items[-1]) if isinstance(items[-1], Token) and items[-1].type == "STRING" else None
        rest = items[2:-1] if words is not None else items[2:]
        return str(items[0]), items[1], (_constant(rest[0]) if rest else None), words

    @v_args(meta=True)
    def card_decl(self, meta, items):
        replace, items = _replace_flag(items)
        name = _unquote(items[0])
        fields, alts, cites, effects, effect_locs = [], [], [], [], []
        for it in items[1:]:
            if isinstance(it, _Effects):
                for n, loc in zip(it.names, it.locs):
                    if n not in effects:
                        effects.append(n)
                        effect_locs.append(loc)
            elif isinstance(it, A.Alternative):
                alts.append(it)
            elif isinstance(it, A.Citation):
                cites.append(it)
            else:
                fields.append(it)
        return A.CardDecl(name, tuple(fields), tuple(alts), tuple(cites), replace, self._loc(meta),
                          tuple(effects), tuple(effect_locs))

    def effect(self, items):
        return _Effects(tuple(str(t) for t in items), tuple(self._tloc(t) for t in items))

    @v_args(meta=True)
    def card_field(self, meta, items):
        value = items[1] if len(items) == 2 else tuple(items[1:])
        return A.CardField(str(items[0]), value, self._loc(meta))

    @v_args(meta=True)
    def alternative(self, meta, items):
        (kind, when), body = items
        quotas, group = body
        return A.Alternative(kind, when, quotas, group, self._loc(meta))

    def alt_first(self, items):
        return ("orders", None)

    def alt_instead(self, items):
        return ("instead", None)

    def alt_otherwise(self, items):
        return ("otherwise", items[0])

    def alt_nothing(self, items):
        return ((), None)

    def alt_quotas(self, items):
        group = items[-1] if items and isinstance(items[-1], A.Group) else None
        quotas = tuple(i for i in items if isinstance(i, A.Quota))
        return (quotas, group)

    @v_args(meta=True)
    def quota(self, meta, items):
        amount, what = items[0], str(items[1])
        where = items[2] if len(items) > 2 else None
        return A.Quota(amount, what, where, self._loc(meta))

    def amount_up_to(self, items):
        return items[0]

    def amount_all(self, items):
        return "all"

    def amount_any(self, items):
        return "any"

    @v_args(meta=True)
    def group_linked(self, meta, items):
        return A.Group("linked", None, self._loc(meta))

    @v_args(meta=True)
    def group_led(self, meta, items):
        return A.Group("led", items[1] if len(items) > 1 else None, self._loc(meta), str(items[0]))

    # -- rules
    @v_args(meta=True)
    def rule_decl(self, meta, items):
        replace, items = _replace_flag(items)
        rid = str(items[0])
        cites, rest = _split_citations(items[1:])
        body = rest[0]
        tok = rest[1] if len(rest) > 1 else None
        message = _unquote(tok) if tok is not None else None
        message_loc = self._tloc(tok) if tok is not None else None
        return A.RuleDecl(rid, cites, body, message, replace, self._loc(meta), message_loc)

    def message(self, items):
        return items[0]  # the STRING token: rule_decl unquotes it and keeps its place

    @v_args(meta=True)
    def define_decl(self, meta, items):
        replace, items = _replace_flag(items)
        rid = str(items[0])
        cites, rest = _split_citations(items[1:])
        name = str(rest[0])
        params = rest[1] if len(rest) == 3 else ()
        body = rest[-1]
        return A.DefineDecl(rid, cites, name, params, body, replace, self._loc(meta))

    def params(self, items):
        return tuple(str(t) for t in items)

    @v_args(meta=True)
    def roll_decl(self, meta, items):
        replace, items = _replace_flag(items)
        cites, rest = _split_citations(items[2:])  # (after the keyword)
        params = rest[1] if len(rest) == 4 else ()
        return A.RollDecl(str(items[1]), cites, str(rest[0]), tuple(p for p, _ in params),
                          tuple((p, v) for p, v in params if v is not _NO_DEFAULT), rest[-2], rest[-1], replace,
                          self._loc(meta))

    def roll_params(self, items):
        return tuple(items)

    def roll_param(self, items):
        return str(items[0]), (_constant(items[1]) if len(items) > 1 and items[1] is not None else _NO_DEFAULT)

    @v_args(meta=True)
    def remove_decl(self, meta, items):
        target = items[1]
        target = _unquote(target) if target.type == "STRING" else str(target)
        return A.RemoveDecl(str(items[0]), target, self._loc(meta))

    # -- house rules that change one thing
    @v_args(meta=True)
    def change_unit(self, meta, items):
        attrs = tuple(i for i in items[1:] if isinstance(i, tuple))
        return A.ChangeUnit(str(items[0]), tuple(a[:2] for a in attrs), self._loc(meta),
                            tuple(a[2] for a in attrs))

    @v_args(meta=True)
    def change_attr(self, meta, items):
        return self.unit_attr(items) + (self._loc(meta),)

    @v_args(meta=True)
    def change_define(self, meta, items):
        cites, rest = _split_citations(items[1:])
        when = rest[0][1] if len(rest) == 2 else None  # ("when", COND)
        return A.ChangeDefine(str(items[0]), cites, when, rest[-1], self._loc(meta))

    def change_when(self, items):
        return ("when", items[0])

    # -- builtins
    @v_args(meta=True)
    def builtin_decl(self, meta, items):
        name = str(items[0])
        params = items[1] if isinstance(items[1], list) else None
        returns, reads, doc = items[-3], str(items[-2]), items[-1].value
        return A.BuiltinDecl(name, None if params is None else tuple(params), returns, reads, doc, self._loc(meta))

    # -- the turn
    @v_args(meta=True)
    def turn_decl(self, meta, items):
        replace, items = _replace_flag(items)
        frame = items[1] if len(items) > 1 and isinstance(items[1], str) else None
        cites, steps = _split_citations(items[2 if frame is not None else 1:])
        return A.TurnDecl(str(items[0]), cites, tuple(steps), replace, self._loc(meta), frame)

    def turn_frame(self, items):
        return str(items[0])

    @v_args(meta=True)
    def turn_step(self, meta, items):
        doc = _unquote(items[-1]) if items[-1].type == "STRING" else ""
        kinds = tuple(str(t) for t in items[2:] if t.type == "NAME")
        return A.TurnStep(str(items[0]), str(items[1]), kinds, doc, self._loc(meta))

    # -- hooks
    @v_args(meta=True)
    def hook_decl(self, meta, items):
        kind = items[0].type if isinstance(items[0], Token) and items[0].type in ("OPTIONAL", "EVERY") else None
        name = str(items[1 if kind else 0])
        params = next((i for i in items if isinstance(i, tuple)), ())
        return A.HookDecl(name, params, items[-1].value, kind == "OPTIONAL", self._loc(meta), kind == "EVERY")

    def hook_params(self, items):
        return tuple(str(t) for t in items)

    def read_class(self, items):
        return ".".join(str(i) for i in items)

    def builtin_params(self, items):
        return list(items)

    def builtin_type(self, items):
        base = str(items[0])
        elem = items[1] if len(items) > 1 and items[1] is not None and items[1].type == "NAME" else None
        maybe = any(isinstance(i, Token) and i.type == "MAYBE" for i in items)
        return (f"{base}[{elem}]" if elem is not None else base) + ("?" if maybe else "")

    # -- expressions
    def quant(self, items):
        return str(items[0])

    def what(self, items):
        return str(items[0])

    def kind(self, items):
        return str(items[0])

    @v_args(meta=True)
    def quantifier(self, meta, items):
        return A.Quant(str(items[0]), str(items[1]), items[2], items[3], self._loc(meta))

    @v_args(meta=True)
    def ifelse(self, meta, items):
        return A.IfElse(items[0], items[1], items[2], self._loc(meta))

    @v_args(meta=True)
    def implies(self, meta, items):
        return A.Implies(items[0], items[1], self._loc(meta))

    @v_args(meta=True)
    def or_(self, meta, items):
        return A.Or(tuple(items), self._loc(meta))

    @v_args(meta=True)
    def and_(self, meta, items):
        return A.And(tuple(items), self._loc(meta))

    @v_args(meta=True)
    def not_(self, meta, items):
        return A.Not(items[0], self._loc(meta))

    @v_args(meta=True)
    def compare(self, meta, items):
        return A.Compare(str(items[1]), items[0], items[2], self._loc(meta))

    @v_args(meta=True)
    def member(self, meta, items):
        return A.Compare("in", items[0], items[1], self._loc(meta))

    @v_args(meta=True)
    def not_member(self, meta, items):
        return A.Compare("notin", items[0], items[1], self._loc(meta))

    @v_args(meta=True)
    def binop(self, meta, items):
        return A.BinOp(str(items[1]), items[0], items[2], self._loc(meta))

    @v_args(meta=True)
    def neg(self, meta, items):
        return A.Neg(items[0], self._loc(meta))

    @v_args(meta=True)
    def attr(self, meta, items):
        return A.Attr(items[0], str(items[1]), self._loc(meta))

    @v_args(meta=True)
    def number(self, meta, items):
        text = str(items[0])
        value = float(text) if any(c in text for c in ".eE") else int(text)
        return A.Num(value, self._loc(meta))

    @v_args(meta=True)
    def true(self, meta, items):
        return A.Const(True, self._loc(meta))

    @v_args(meta=True)
    def false(self, meta, items):
        return A.Const(False, self._loc(meta))

    @v_args(meta=True)
    def none(self, meta, items):
        return A.Const(None, self._loc(meta))

    @v_args(meta=True)
    def name(self, meta, items):
        return A.Name(str(items[0]), self._loc(meta))

    @v_args(meta=True)
    def call(self, meta, items):
        args = tuple(a for a in items[1:] if a is not None)
        return A.Call(str(items[0]), args, self._loc(meta))

    @v_args(meta=True)
    def setcomp(self, meta, items):
        cond = items[2] if len(items) > 2 else None
        return A.SetComp(str(items[0]), items[1], cond, self._loc(meta))

    @v_args(meta=True)
    def the(self, meta, items):
        return A.The(str(items[0]), items[1], items[2], self._loc(meta))


def _terminal_name(name: str) -> str:
    if name in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[name]
    try:
        pattern = _parser().get_terminal(name).pattern
    except (KeyError, AttributeError):
        return name.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _expected_hint(expected) -> str:
    names = {_terminal_name(e) for e in expected}
    # punctuation first (a missing brace or colon is the likeliest slip), then words
    ordered = sorted(names, key=lambda n: (n[:1] != "'" or n[1:2].isalpha(), n))
    if len(ordered) > 14:
        ordered = ordered[:14] + ["..."]
    return "expected " + ", ".join(ordered)


def parse_text(text: str, path: str = "<rules>") -> A.RuleFile:
    """Parse rule text; raise ``WarcouncilError`` with file:line:col on a syntax error."""
    # Lark counts lines by "\n" only: split the same way so that the quoted
    # source line always matches the reported line and column.
    lines = text.split("\n")

    def line_of(n: int | None) -> str | None:
        if n is None or n < 1 or n > len(lines):
            return None
        return lines[n - 1]

    prescan(text, path)  # token counts and number sizes, before Lark builds anything
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as e:
        loc = Location(path, e.line, e.column)
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        raise WarcouncilError(
            f"unexpected character {ch!r}" if ch else "unexpected character",
            loc,
            source_line=line_of(e.line),
            hint=_expected_hint(e.allowed) if e.allowed else None,
        ) from None
    except UnexpectedToken as e:
        tok = e.token
        if tok.type == "$END":
            # point just after the last thing written, not at trailing blank lines
            n = len(lines)
            while n > 1 and not lines[n - 1].strip():
                n -= 1
            loc = Location(path, n, len(lines[n - 1].rstrip()) + 1)
            what = "unexpected end of file"
        else:
            loc = Location(path, tok.line, tok.column)
            what = f"unexpected {str(tok)!r}"
            word = lines[tok.line - 1][:tok.column - 1].strip()
            if word in STATEMENT_STARTS and set(e.expected) == {"EQUAL"} \
                    and lines[tok.line - 1].lstrip().startswith(word + " "):
                # a statement begins inside a card left open: its first word read as a card's field name
                line = lines[tok.line - 1]
                loc = Location(path, tok.line, len(line) - len(line.lstrip()) + 1)
                raise WarcouncilError(f"unexpected {word!r}", loc, source_line=line_of(loc.line),
                                      hint="expected '}' before it: the statement above is not closed") from None
        raise WarcouncilError(
            what, loc, source_line=line_of(loc.line), hint=_expected_hint(e.expected)
        ) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark input errors
        loc = Location(path, getattr(e, "line", None), getattr(e, "column", None))
        raise WarcouncilError("cannot parse rule text", loc, source_line=line_of(loc.line)) from None
    check_nesting(tree, path, line_of)  # before any recursive walk of the tree
    try:
        statements = _ToAst(path).transform(tree)
    except VisitError as e:
        orig = e.orig_exc
        if isinstance(orig, _BadString):
            tok = orig.tok
            loc = Location(path, getattr(tok, "line", None), getattr(tok, "column", None))
            raise WarcouncilError(f"bad string: {orig.reason}", loc, source_line=line_of(loc.line),
                                  hint="inside quotes, write \\\\ for a backslash and \\\" for a quote") from None
        if isinstance(orig, WarcouncilError):
            raise orig from None
        raise WarcouncilError(f"internal error while reading rules: {orig!r}", Location(path)) from None  # pragma: no cover
    return A.RuleFile(path, statements)


def parse_file(path: str | Path) -> A.RuleFile:
    p = Path(path)
    text = read_text(p, RULES_LIMIT, "rule file")
    return parse_text(text, str(p))


def parse_expr(text: str, path: str = "<expr>") -> A.Expr:
    """Parse a single expression (used by tests and tools)."""
    rf = parse_text(f"rule x.expr require {text}", path)
    return rf.statements[0].body
