"""Static checks of rule files, and rulebook coverage.

``lint(paths)`` parses and layers the files and reports every problem it can
find, each with file:line:column: syntax errors, layering conflicts (two
layers replacing one rule, replacing or removing what does not exist, a name
defined twice), names that resolve to nothing (with the closest known names),
calls with the wrong number of arguments, citations of undeclared documents,
quotes that do not occur in the document they cite; and (``static.py``)
recursion among defines, expressions too large to evaluate and type errors.

``warnings(pack)`` lists what is not wrong but degrades an answer: a
document without a ``title`` (answers in words then name it by its file).

``coverage(pack)`` lists every sentence of the seed documents a pack cites
and whether some rule, define, card or unit type cites it; ``unstated(pack)``
the rules whose quote (the sentence a violation shows) shares no content
word with the rule's message.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..errors import Location, WarcouncilError, closest
from . import ast as A
from .pack import LintError, Pack, line_at, card_key, load_pack, pack_files
from .static import static_problems
from .template import Field as TemplateField
from .template import problems as template_problems


def normalize(text: str) -> str:
    """Text for quote matching: unify quotes and dashes, drop Markdown
    emphasis and table bars, fold white space and case."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?m)^[ \t]*>[ \t]?", "", text)  # Markdown block quotes
    text = re.sub(r"(\w)-[ \t]*\n[ \t]*(\w)", r"\1\2", text)  # words hyphenated across lines
    for a, b in (("“", '"'), ("”", '"'), ("‘", "'"), ("’", "'"), ("—", "-"), ("–", "-"), ("→", "->")):
        text = text.replace(a, b)
    text = text.replace("**", "").replace("`", "").replace("|", " ")
    return re.sub(r"\s+", " ", text).strip().lower()


def lint(paths: list[str | Path], base: str | None = None,
         allow_documents: tuple = (), texts: dict[str, str] | None = None) -> tuple[Pack | None, list[LintError]]:
    """Lint rule files. ``paths`` are packs (folders or names) or files; with
    ``base`` they are house rules layered over that pack. A cited document
    is read inside its rule file's folder or one of ``allow_documents``.
    ``texts``: files' texts by path, read in place of the files (an
    editor's unsaved buffers)."""
    problems: list[LintError] = []
    try:
        if base is not None:
            pack = load_pack(base, list(paths), strict=False, texts=texts)
        else:
            first = Path(paths[0])
            if first.is_file():
                # files of the first file's folder are that pack; the rest are layers over it
                own = [Path(p) for p in paths if Path(p).is_file() and Path(p).parent == first.parent]
                rest = [p for p in paths if not (Path(p).is_file() and Path(p).parent == first.parent)]
                pack = load_pack(own, rest, strict=False, texts=texts)
            else:
                pack = load_pack(paths[0], list(paths[1:]), strict=False, texts=texts)
    except WarcouncilError as e:
        return None, [LintError(e.message, e.location or Location(), e.hint, e.source_line)]
    pack.document_roots = tuple(Path(d) for d in allow_documents)
    problems.extend(pack.problems)
    problems.extend(_resolved(pack))
    problems.extend(_citations(pack))
    problems.extend(hook_problems(pack))
    problems.extend(_layer_conflicts(pack))
    problems.extend(static_problems(pack))
    problems.sort(key=lambda p: (p.location.file or "", p.location.line or 0, p.location.column or 0))
    return pack, problems


_UNRESOLVED = ("there is no such", ": no such", "unknown name", "unknown function", "unknown attribute",
               "cites undeclared document")


def house_hint(paths: list, problems: list[LintError]) -> str | None:
    """For files linted on their own (no ``--over``) that replace, remove or
    use what they do not define: the hint that they are house rules, to be
    linted over their pack (the pack their ids name, when it is shipped)."""
    if not problems or not any(any(w in p.message for w in _UNRESOLVED) for p in problems):
        return None
    from .pack import PACKS_DIR

    files = [f for t in paths for f in (pack_files(t) if Path(t).exists() else [])]
    if any(f.parent.resolve() == PACKS_DIR.resolve() or PACKS_DIR.resolve() in f.resolve().parents
           for f in files):
        return None  # a shipped pack's own files
    shipped = shipped_packs()
    named: list[str] = []
    for f in files:
        try:
            text = f.read_text("utf-8", errors="replace")[:200_000]
        except OSError:
            continue
        named += [name for name in packs_named(text) if name not in named]
    pack = named[0] if named else "PACK"
    shown = " ".join(str(p) for p in paths)
    return (f"house-rule files are checked over the pack they change: warcouncil lint {shown} --over {pack}"
            + ("" if named else f" (shipped packs: {', '.join(shipped)})"))


def shipped_packs() -> list[str]:
    """The names of the game packs shipped with warcouncil (each a folder of
    ``rules/`` with a ``00-pack.wc``), in name order."""
    from .pack import PACKS_DIR

    return sorted(d.name for d in PACKS_DIR.iterdir() if d.is_dir() and (d / "00-pack.wc").exists())


def packs_named(text: str) -> list[str]:
    """The shipped packs whose ids a rule text names (``replace define
    cca.detach-with-helmet``: cca), in name order."""
    return [name for name in shipped_packs() if re.search(r"\b" + re.escape(name) + r"\.[a-z]", text)]


def _err(msg: str, loc: Location, hint: str | None = None) -> LintError:
    return LintError(msg, loc, hint, line_at(loc))


def message_field_problem(r: A.RuleDecl, f: TemplateField, why: str, hint: str) -> LintError:
    """A message field that is no plain name (``{p.__class__}``, ``{p:>9}``),
    at the field's own file:line:column when the source line shows it."""
    loc = r.message_loc or r.loc
    raw = "{" + f.text + "}"
    line = line_at(loc)
    if line is not None and loc.column:
        at = line.find(raw, loc.column - 1)
        if at >= 0:
            loc = Location(loc.file, loc.line, at + 1)
    shown = raw if len(raw) <= 40 else raw[:39] + "…"
    return _err(f"message of {r.id}: {shown} is {why}; a message names only the rule's bound names, "
                "each as {name}", loc, hint)


class _Resolver:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.symbols = pack.symbols()
        self.vocabulary = pack.vocabulary  # the kernel's builtins and the pack's `builtin` declarations
        self.constants = self.vocabulary.constants
        self.functions = self.vocabulary.functions
        self.attrs = set(self.vocabulary.attributes) | pack.unit_attributes()
        self.out: list[LintError] = []

    def run(self) -> list[LintError]:
        p = self.pack
        for d in p.defines.values():
            self.expr(d.body, set(d.params))
        for roll in p.rolls.values():
            self.expr(roll.body, set(roll.params + roll.dice))
        for r in p.rules.values():
            self.expr(r.body, set())
            if r.message:
                self.message(r)
        for card in p.cards.values():
            for f in card.fields:  # expressions the engine evaluates (`roll = havoc_dice`)
                if isinstance(f.value, A.Expr):
                    self.expr(f.value, set())
            if card.get("roll") is not None:
                if not p.dice:
                    self.out.append(_err(f"card {card.name!r} rolls dice, but the pack declares no `dice`", card.loc))
            for alt in card.alternatives:
                if alt.when is not None:
                    self.expr(alt.when, set())
                for q in alt.quotas:
                    if isinstance(q.amount, A.Expr):
                        self.expr(q.amount, set())
                        self.rolled(q.amount, card)
                    if q.where is not None:
                        self.expr(q.where, {"it"})
                if alt.group is not None and alt.group.anchor is not None:
                    self.expr(alt.group.anchor, {"it"})
                if alt.group is not None and alt.group.role is not None and alt.group.role not in p.roles:
                    hint = closest(alt.group.role, p.roles)
                    self.out.append(_err(f"card {card.name!r} is led by {alt.group.role!r}, which is no role of the "
                                         f"pack's ({', '.join(p.roles) or 'none'})", alt.group.loc,
                                         f"did you mean {hint[0]!r}?" if hint else None))
            for f in card.fields:  # card names given as a card's values (`excluded = "First Strike"`)
                if p.card_fields.get(f.name, ("",))[0].rstrip("?") not in ("set[str]", "list[str]"):
                    continue
                for name in f.value or ():
                    if name not in p.cards:
                        hint = closest(name, p.cards)
                        self.out.append(_err(f"card {card.name!r} excludes unknown card {name!r}", f.loc,
                                             f"did you mean {hint[0]!r}?" if hint else None))
        return self.out

    def message(self, r: A.RuleDecl) -> None:
        body = r.body
        var = body.var if isinstance(body, A.Quant) else None
        use = f"use {{{var}}} or {{pieces}}" if var else "use {pieces}"
        for f, why in template_problems(r.message, {n for n in (var, "pieces") if n}):
            if f.is_name:
                self.out.append(_err(
                    f"message of {r.id} names {{{f.text}}}, which is not the rule's variable", r.loc, use))
            else:
                self.out.append(message_field_problem(r, f, why, use))

    def rolled(self, e: A.Expr, card: A.CardDecl) -> None:
        for n in A.walk(e):
            if isinstance(n, A.Call) and n.func == "rolled":
                if card.get("roll") is None:
                    self.out.append(_err(f"card {card.name!r} uses rolled(...) but rolls no dice (`roll = N`)", n.loc))
                for a in n.args:
                    if isinstance(a, A.Name) and a.id not in self.pack.dice:
                        hint = closest(a.id, self.pack.dice)
                        self.out.append(_err(f"unknown die face {a.id!r}", a.loc, f"did you mean {hint[0]!r}?" if hint else None))

    def expr(self, e: A.Expr, bound: set[str]) -> None:
        if e is None:
            return
        if isinstance(e, A.Name):
            self.name(e, bound)
        elif isinstance(e, A.Call):
            self.call(e)
            for a in e.args:
                if e.func == "rolled" and isinstance(a, A.Name):
                    continue  # a die face: checked by rolled()
                self.expr(a, bound)
        elif isinstance(e, A.Attr):
            if e.name not in self.attrs:
                hint = closest(e.name, self.attrs)
                self.out.append(_err(f"unknown attribute {e.name!r}", e.loc, f"did you mean {hint[0]!r}?" if hint else None))
            self.expr(e.obj, bound)
        elif isinstance(e, (A.BinOp, A.Compare, A.Implies)):
            self.expr(e.left, bound)
            self.expr(e.right, bound)
        elif isinstance(e, (A.Neg, A.Not)):
            self.expr(e.operand, bound)
        elif isinstance(e, (A.And, A.Or)):
            for i in e.items:
                self.expr(i, bound)
        elif isinstance(e, A.IfElse):
            self.expr(e.cond, bound)
            self.expr(e.then, bound)
            self.expr(e.other, bound)
        elif isinstance(e, (A.Quant, A.SetComp, A.The)):
            self.expr(e.domain, bound)
            inner = bound | {e.var}
            self.expr(e.body if isinstance(e, A.Quant) else e.cond, inner)

    def name(self, e: A.Name, bound: set[str]) -> None:
        n = e.id
        if n in bound or n in self.constants or n in self.symbols or n in self.pack.removed_defines:
            return  # (a removed define is reported once, at its `remove`)
        d = self.pack.defines.get(n)
        if d is not None:
            if d.params:
                self.out.append(_err(f"{n} takes {len(d.params)} argument(s): write {n}({', '.join(d.params)})", e.loc))
            return
        known = set(bound) | self.constants | self.symbols | {k for k, v in self.pack.defines.items() if not v.params}
        hint = closest(n, known)
        self.out.append(_err(f"unknown name {n!r}", e.loc, f"did you mean {hint[0]!r}?" if hint else None))

    def call(self, e: A.Call) -> None:
        if e.func in self.pack.removed_defines:
            return  # reported once, at its `remove`
        d = self.pack.defines.get(e.func)
        if d is not None:
            if len(d.params) != len(e.args):
                self.out.append(_err(f"{e.func} takes {len(d.params)} argument(s), got {len(e.args)}", e.loc))
            return
        arity = self.functions.get(e.func)
        if arity is None:
            known = set(self.functions) | set(self.pack.defines)
            hint = closest(e.func, known)
            self.out.append(_err(f"unknown function {e.func!r}", e.loc, f"did you mean {hint[0]!r}?" if hint else None))
        elif arity != len(e.args):
            self.out.append(_err(f"{e.func} takes {arity} argument(s), got {len(e.args)}", e.loc))


def check_layers(pack: Pack) -> list[LintError]:
    """What must hold before a layered pack is used: its layering conflicts
    first (they explain the rest), then names that resolve to nothing."""
    first = sorted(hook_problems(pack) + _layer_conflicts(pack), key=_where)
    resolved = sorted(_resolved(pack), key=_where)
    # recursion, size and types: only once every name resolves (an unknown
    # name is the better message)
    return first + resolved + ([] if resolved else sorted(static_problems(pack), key=_where))


def _resolved(pack: Pack) -> list[LintError]:
    """Names that resolve to nothing (``_Resolver``), and references to a
    role, card effect or card the pack does not declare (``_references``).
    Where both speak of one place, the more precise second one is kept."""
    refs = _references(pack)
    at = {_where(p) for p in refs}
    return [p for p in _Resolver(pack).run() if not (p.message.startswith("unknown name") and _where(p) in at)] + refs


# ------------------------------------------- roles, card effects, card names


def _hint(name: str, known) -> str | None:
    c = closest(name, known)
    return f"did you mean {c[0]!r}?" if c else None


def _card_hint(name: str, pack: Pack) -> str:
    c = closest(name, pack.cards) or [pack.cards_by_key()[k] for k in closest(card_key(name), pack.cards_by_key())]
    return f"did you mean {c[0]!r}?" if c else "run `warcouncil cards` to list them"


def _is_card_attr(e, names: tuple[str, ...], bound, cards: frozenset) -> bool:
    """``e`` is ``C.NAME`` for a builtin constant ``C`` that is the decision's
    context record (``-> context``: the C&C pack's ``card``), not a variable."""
    return (isinstance(e, A.Attr) and e.name in names and isinstance(e.obj, A.Name)
            and e.obj.id in cards and e.obj.id not in bound)


def _references(pack: Pack) -> list[LintError]:
    """A role, card effect or card that does not exist:

    * ``p.role == NAME`` (or ``!=``) with NAME not a role the pack declares
      (``roles unit, leader``);
    * ``NAME in card.effects`` (or ``not in``) with NAME not a declared effect,
      and a card's ``effect NAME`` likewise;
    * ``card.name == "…"`` / ``card.played == "…"`` naming no card of the pack.
    """
    out: list[LintError] = []
    roles, effects = set(pack.roles), pack.effects
    # the constants that are the card played (`builtin card -> context`)
    cards = frozenset(n for n, b in pack.vocabulary.items() if b.params is None and b.returns == "context")
    for card in pack.cards.values():
        for name, loc in zip(card.effects, card.effect_locs or (card.loc,) * len(card.effects)):
            if name not in effects:
                out.append(_err(f"card {card.name!r} has effect {name!r}, which the pack does not declare", loc,
                                _hint(name, effects) or "declare it with `effects NAME from DOC \"quote\"`"))

    def is_card(s: str) -> bool:
        return s in pack.cards or card_key(s) in pack.cards_by_key()

    def visit(e, bound) -> None:
        if e is None:
            return
        if isinstance(e, A.Compare):
            pairs = ((e.left, e.right), (e.right, e.left))
            if e.op in ("==", "!="):
                for attr, other in pairs:
                    if (isinstance(attr, A.Attr) and attr.name == "role" and isinstance(other, A.Name)
                            and other.id not in bound and other.id not in roles):
                        declared = ", ".join(pack.roles) or "none"
                        out.append(_err(f"{other.id!r} is not a role the pack declares (roles: {declared})",
                                        other.loc, _hint(other.id, roles)))
                    if (_is_card_attr(attr, ("name", "played"), bound, cards) and isinstance(other, A.Str)
                            and not is_card(other.value)):
                        out.append(_err(f"card.{attr.name} is compared with {other.value!r}, which is not a card "
                                        f"of {pack.title or pack.name}", other.loc, _card_hint(other.value, pack)))
            elif e.op in ("in", "notin") and _is_card_attr(e.right, ("effects",), bound, cards):
                left = e.left
                if isinstance(left, A.Name) and left.id not in bound and left.id not in effects:
                    out.append(_err(f"{left.id!r} is not a card effect the pack declares", left.loc,
                                    _hint(left.id, effects) or "declare it with `effects NAME from DOC \"quote\"`"))
                elif isinstance(left, A.Str):
                    out.append(_err("an effect is a name, not a string", left.loc,
                                    f"write {left.value.replace(' ', '_')} in card.effects"))
        for child, inner in A.scoped(e, frozenset(bound)):
            visit(child, inner)

    for _, e, params in pack.expressions():
        visit(e, frozenset(params))
    return out


def _where(p: LintError):
    return (p.location.file or "", p.location.line or 0, p.location.column or 0)


def hook_problems(pack: Pack) -> list[LintError]:
    """Every hook the pack declares (``hook NAME(a, b) "..."``: a define its
    engine calls by name) is defined, with as many parameters: a house rule
    that removes one is told so at its `remove`, naming what the engine
    needs it for. (A `replace define` that changes a define's parameters is
    refused while the pack loads, the hook named.)"""
    out = []
    for name, h in pack.hooks.items():
        if h.every:  # each define whose name begins so, with the hook's parameters
            out += [_err(f"{n} takes {len(d.params)} argument(s), but the engine calls every {name}* define as hook "
                         f"{h.signature()}: {h.doc}", d.loc, f"write {n}({', '.join(h.params)}) := ...")
                    for n, d in pack.defines.items() if n.startswith(name) and len(d.params) != len(h.params)]
            continue
        d = pack.defines.get(name)
        if d is None:
            if h.optional:
                continue
            if name in pack.removed_defines:
                did, rm = pack.removed_defines[name]
                out.append(_err(f"remove define {did}: {h.signature()} is a hook the engine calls: {h.doc}", rm.loc,
                                f"replace it instead (`replace define {did} {h.signature()} := ...`)"))
            else:
                out.append(_err(f"hook {h.signature()}: the pack defines no {name}", h.loc,
                                f"the engine calls it: define {h.signature()} := ..."))
        elif len(d.params) != len(h.params):
            out.append(_err(f"{name} takes {len(d.params)} argument(s), but the engine calls it as hook "
                            f"{h.signature()}: {h.doc}", d.loc, f"write {h.signature()} := ..."))
    return out


def _layer_conflicts(pack: Pack) -> list[LintError]:
    """Removing a definition that is still used; a house layer using a name
    that only a later layer defines."""
    out = []
    users: dict[str, list] = {}
    for st, e, params in pack.expressions():
        for name in A.referenced(e) - set(params):
            users.setdefault(name, []).append(st)
    for name, (did, rm) in pack.removed_defines.items():
        if name in users:
            who = sorted({getattr(u, "id", None) or getattr(u, "name", "?") for u in users[name]})
            out.append(_err(f"remove define {did}: {name} is still used by {', '.join(who)}", rm.loc,
                            f"replace it instead (`replace define {did} {name}(...) := ...`), or change those too"))
    for layer, st in pack.layered:
        for e, params in A.statement_exprs(st):
            for n in A.walk(e):
                name = n.id if isinstance(n, A.Name) else n.func if isinstance(n, A.Call) else None
                if name is None or name in params:
                    continue
                later = pack.define_layer.get(name, 0)
                if later > layer:
                    d = pack.defines[name]
                    out.append(_err(f"{name} is used here but defined only in a later layer ({d.loc.file})", n.loc,
                                    "give the house-rule files in an order where each uses only what comes before"))
    return out


def _cited(pack: Pack):
    """Every citation in the pack with the statement that makes it."""
    for d in pack.defines.values():
        for c in d.citations:
            yield d.id, c
    for r in [*pack.rules.values(), *pack.rolls.values()]:
        for c in r.citations:
            yield r.id, c
    for card in pack.cards.values():
        for c in card.citations:
            yield card.name, c
    for u in pack.units.values():
        for c in u.citations:
            yield u.name, c
    for t in pack.terrains.values():
        for c in t.citations:
            yield t.name, c
    for r in pack.roles_decls:
        for c in r.citations:
            yield "roles", c
    for e in pack.effects.values():
        for c in e.citations:
            yield f"effect {e.name}", c
    for turn in ([pack.turn] if pack.turn is not None else []) + list(pack.frames.values()):
        for c in turn.citations:
            yield f"turn {turn.id}", c


def _citations(pack: Pack) -> list[LintError]:
    out = []
    texts: dict[str, str | None] = {}
    whys: dict[str, str | None] = {}
    for who, c in _cited(pack):
        if c.document not in pack.documents:
            hint = closest(c.document, pack.documents)
            out.append(_err(f"{who} cites undeclared document {c.document!r}", c.loc,
                            f"did you mean {hint[0]!r}?" if hint else "declare it with `document NAME \"file\"`"))
            continue
        if c.document not in texts:
            t, why = pack.document_read(c.document)
            texts[c.document] = normalize(t) if t is not None else None
            whys[c.document] = why
        text = texts[c.document]
        if text is None:
            out.append(_err(f"cannot read document {pack.documents[c.document].path!r} cited by {who}"
                            f" ({whys[c.document]})", c.loc))
        elif normalize(c.quote) not in text:
            out.append(_err(f"{who}: the quote is not in {pack.documents[c.document].path}", c.loc,
                            "quote the document's sentence exactly (quotes, dashes and spacing may differ)"))
    return out


def warnings(pack: Pack | None) -> list[LintError]:
    """What lint warns of (exit 0 still): each document declared without a
    ``title``, at its declaration. Answers in words name a source by its
    document's title, else by its file name; a shipped pack titles every
    document (tests/test_newcomer.py)."""
    if pack is None:
        return []
    out = []
    for alias, doc in pack.documents.items():
        if not doc.title:
            out.append(_err(f"document {alias} has no title: answers in words name it by its file, "
                            f"{doc.path}", doc.loc,
                            f'give it the title players read: document {alias} "{doc.path}" title "…"'))
    out.sort(key=lambda p: (p.location.file or "", p.location.line or 0, p.location.column or 0))
    return out


# ------------------------------------------------------------------ coverage


@dataclass
class Sentence:
    document: str
    line: int
    text: str
    cited_by: list[str]


_SPLIT = re.compile(r"(?<=[.!?”\"])\s+(?=[A-Z“‘\"(])")


def sentences(text: str) -> list[tuple[int, str]]:
    out = []
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip().lstrip("•*-").strip()
        if not line:
            continue
        for s in _SPLIT.split(line):
            s = s.strip()
            if len(s.split()) >= 4 and s[-1:] in ".!?)”\"":
                out.append((lineno, s))
    return out


def coverage(pack: Pack, only_seeds: bool = True) -> list[Sentence]:
    cites: dict[str, list[tuple[str, str]]] = {}
    for who, c in _cited(pack):
        cites.setdefault(c.document, []).append((who, normalize(c.quote)))
    out = []
    for alias, doc in pack.documents.items():
        if only_seeds and not doc.path.endswith(".txt"):
            continue
        if pack.own_documents and alias not in pack.own_documents:
            continue  # a document of a base pack's other games
        text = pack.document_text(alias)
        if text is None:
            continue
        for line, s in sentences(text):
            ns = normalize(s)
            who = sorted({w for w, q in cites.get(alias, ()) if q and (q in ns or ns in q)})
            out.append(Sentence(doc.path, line, s, who))
    return out


#: words that say nothing of what a rule is about (``content_words``)
STOP_WORDS = frozenset("""
a an the and or nor but if then else than that this these those there here of to in on at by for from with
without into onto out off over under up down as so not no any all each every either neither both some such
same other another more most less least only just also too very own once
is are was were be been being am has have had having do does did doing done
may might must can cannot could shall should will would need needs
it its it's he him his she her they them their theirs we us our you your i me my one
which who whom whose what when where while why how whatever whichever
""".split())


def _stem(word: str) -> str:
    """A word's small stem, for ``content_words``: "moves", "moved" and
    "move" meet; "movement" stays itself."""
    for suffix in ("'s", "ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def content_words(text: str) -> set[str]:
    """The stems of the words of ``text`` that are no stop words (a message
    template's ``{fields}`` left out; case and Markdown ignored)."""
    text = re.sub(r"\{[^{}]*\}", " ", normalize(text))
    return {_stem(w) for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text) if w not in STOP_WORDS}


@dataclass
class Unstated:
    """A rule whose quote shares no content word with its message."""

    rule: str
    file: str
    line: int
    quote: str
    message: str


def unstated(pack: Pack) -> list[Unstated]:
    """The rules whose quote (the one a violation shows: ``Pack.source_of``)
    shares no content word with their message (without a message: the words
    of their id), in file and line order. Such a quote likely does not state
    the rule: cite the sentence that does."""
    out = []
    for r in pack.rules.values():
        _, quote = pack.source_of(r)
        said = r.message or " ".join(re.split(r"[-._]", r.id.split(".", 1)[-1]))
        if quote and not content_words(quote) & content_words(said):
            out.append(Unstated(r.id, r.loc.file or "", r.loc.line or 0, quote, said))
    out.sort(key=lambda u: (u.file, u.line))
    return out
