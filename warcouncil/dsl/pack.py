"""A rule pack: the statements of one or more rule files, layered in order.

A pack is a folder of ``*.wc`` files read in name order (``rules/cca``), or a
single file. House rules are further files layered on top: they may add
statements, ``replace`` a rule, define, card or unit type by id, ``remove``
one, or ``change`` one thing: some attributes of a unit type
(``change unit``), the body of a define (``change define``). The pack
remembers, for every rule, the file that last set it, so a message about
a rule always names the file it came from.
"""

from __future__ import annotations

import dataclasses
import os
import re
from dataclasses import field
from functools import lru_cache
from pathlib import Path

from ..errors import Location, WarcouncilError, closest
from ..records import record
from ..textfile import DOCUMENT_LIMIT, RULES_LIMIT, read_text
from . import ast as A
from .bounds import MAX_ROLL_DICE
from .builtins import KERNEL, Builtin, Vocabulary, canonical_type, role_builtins, type_error
from .packcache import parse_file  # the parser through the cache of parsed rule files

PACKS_DIR = Path(__file__).parent.parent / "rules"  # the package warcouncil.rules (importlib.resources costs ~5 ms)
SOURCES_DIR = PACKS_DIR / "sources"


@record(frozen=False)
class LintError:
    message: str
    location: Location
    hint: str | None = None
    source_line: str | None = None

    def as_error(self) -> WarcouncilError:
        return WarcouncilError(self.message, self.location, source_line=self.source_line, hint=self.hint)

    def __str__(self) -> str:
        return str(self.as_error())


class UndeclaredHook(RuntimeError):
    """An engine called a define the pack does not declare as a hook (a
    programming error, not bad input)."""


@record(frozen=False)
class Pack:
    name: str = ""
    title: str = ""
    lineage: list[str] = field(default_factory=list)  # the packs it extends, in the order they were loaded
    files: list[str] = field(default_factory=list)
    documents: dict[str, A.DocumentDecl] = field(default_factory=dict)
    own_documents: set[str] = field(default_factory=set)  # declared by the pack itself, not a base it extends
    document_dirs: dict[str, Path] = field(default_factory=dict)
    document_roots: tuple[Path, ...] = ()  # folders a document may be read from besides its rule file's (lint)
    sections: tuple[str, ...] = ()
    dice: tuple[str, ...] = ()
    values: dict[str, tuple[str, ...]] = field(default_factory=dict)
    fields: tuple[str, ...] = ()  # `fields ...`: attributes of the records its builtins give
    field_types: dict[str, str] = field(default_factory=dict)  # `fields helmet: bool`: those given a type
    roles: tuple[str, ...] = ()  # `roles unit, leader`: the roles pieces take (symbols)
    roles_decls: list[A.RolesDecl] = field(default_factory=list)  # (for their citations)
    effects: dict[str, A.EffectDecl] = field(default_factory=dict)  # `effects ...`: what cards may do (symbols)
    units: dict[str, A.UnitDecl] = field(default_factory=dict)
    terrains: dict[str, A.TerrainDecl] = field(default_factory=dict)
    cards: dict[str, A.CardDecl] = field(default_factory=dict)
    card_fields: dict[str, tuple[str, object, str | None]] = field(default_factory=dict)  # `card fields`: name -> (type, default, words)
    rules: dict[str, A.RuleDecl] = field(default_factory=dict)
    defines: dict[str, A.DefineDecl] = field(default_factory=dict)  # by function name
    define_ids: dict[str, str] = field(default_factory=dict)  # define id -> function name
    origin: dict[str, str] = field(default_factory=dict)  # rule/define id or card name -> file
    problems: list[LintError] = field(default_factory=list)  # layering errors found while loading
    replaced_by: dict[str, str] = field(default_factory=dict)  # id -> the layer file that replaced it
    removed_defines: dict[str, tuple] = field(default_factory=dict)  # function name -> (define id, RemoveDecl)
    define_layer: dict[str, int] = field(default_factory=dict)  # function name -> layer (0: the pack itself)
    layered: list = field(default_factory=list)  # (layer, statement) of house layers, for lint
    layer_files: set = field(default_factory=set)  # the files of house layers (layer 1 on)
    builtins: dict[str, Builtin] = field(default_factory=dict)  # the game family's builtins (`builtin` statements)
    texts: dict[str, str] = field(default_factory=dict, repr=False)  # real path -> an editor's unsaved text
    hooks: dict[str, A.HookDecl] = field(default_factory=dict)  # the defines its engine calls (`hook` statements)
    turn: A.TurnDecl | None = None  # the turn's steps, in order (`turn` statement; a house rule replaces it whole)
    frames: dict[str, A.TurnDecl] = field(default_factory=dict)  # an action kind -> its frame (`turn ID for KIND`)
    rolls: dict[str, A.RollDecl] = field(default_factory=dict)  # by id: the dice of the engine's tests (`roll`)
    _card_keys: dict | None = field(default=None, repr=False)
    _vocabulary: Vocabulary | None = field(default=None, repr=False)

    # ------------------------------------------------------------ look-ups
    def hook(self, name: str, arity: int) -> A.DefineDecl | None:
        """The define an engine calls as hook ``name`` with ``arity``
        arguments; None for an optional hook the pack does not define.

        An engine calls a define by name only through here, and only one the
        pack declares with ``hook`` (an undeclared one is a programming error:
        ``tests/test_hooks.py`` walks the engines for them). A declared hook
        not defined is bad input (lint and loading report it first, at the
        house rule that removed it: ``lint.hook_problems``)."""
        h = self.hooks.get(name) or next((h for h in self.hooks.values() if h.every and name.startswith(h.name)), None)
        if h is None or len(h.params) != arity:
            raise UndeclaredHook(f"the engine calls {name} with {arity} argument(s), but the {self.name} pack "
                                 f"declares {'no such hook' if h is None else 'hook ' + h.signature()}")
        d = self.defines.get(name)
        if d is None:
            if h.optional:
                return None
            raise WarcouncilError(f"the rule pack has no define {name}, a hook the engine calls: {h.doc}", h.loc,
                                  hint=f"define {h.signature()} := ...")
        if len(d.params) != arity:
            raise WarcouncilError(f"{name} takes {len(d.params)} argument(s), but the engine calls it with {arity}: "
                                  f"{h.doc}", d.loc)
        return d

    def roll(self, name: str) -> A.RollDecl | None:
        """The roll the engine asks for by ``name`` (``roll ID NAME(...)
        dice ... := ...``; ``kernel/rolls.py`` works out its law), or None."""
        return next((r for r in self.rolls.values() if r.name == name), None)

    def hooked(self, prefix: str) -> list[str]:
        """The defines an ``every`` hook stands for: each whose name begins
        with ``prefix`` (``hook every penalty_(o, u)``), in the pack's order."""
        h = self.hooks.get(prefix)
        if h is None or not h.every:
            raise UndeclaredHook(f"the engine calls every {prefix}* define, but the {self.name} pack declares "
                                 "no such hook")
        return [n for n in self.defines if n.startswith(prefix)]

    @property
    def vocabulary(self) -> Vocabulary:
        """The kernel's builtins, the pools of the pack's roles
        (``builtins.role_builtins``) and the pack's own declarations."""
        v = self._vocabulary
        if v is None or len(v) != len(KERNEL) + 5 * len(self.roles) + len(self.builtins) \
                or len(v.attributes) != len(KERNEL.attributes) + len(set(self.field_types) - set(KERNEL.attributes)):
            pools = [b for r in self.roles for b in role_builtins(r)]
            v = self._vocabulary = KERNEL.extend(pools + list(self.builtins.values()), self.field_types)
        return v

    def symbols(self) -> set[str]:
        """Every bare name the pack declares as a value."""
        out = set(self.sections) | set(self.dice) | set(self.units) | set(self.terrains)
        out |= set(self.roles) | set(self.effects)
        for members in self.values.values():
            out |= set(members)
        for card in self.cards.values():  # the values of the cards' symbol fields
            out |= {f.value for f in card.fields
                    if self.card_fields.get(f.name, ("",))[0].startswith("symbol") and isinstance(f.value, str)}
        return out

    def variables(self) -> set[str]:
        """Every name the pack binds as a variable somewhere: a define's or
        a roll's parameter, a roll's die, a quota's ``it``, the variable of a
        quantifier, a set or ``the``. A piece of a body compiled on its own cannot tell
        such a name from the symbol, define or builtin it may also name
        (``Compiler.board_static``)."""
        out: set[str] = set()
        for _, e, bound in self.expressions():
            out |= set(bound) | {n.var for n in A.walk(e) if isinstance(n, (A.Quant, A.SetComp, A.The))}
        return out

    def expressions(self):
        """Each expression of the pack's rules, defines, cards and rolls, in
        that order: (its statement, the expression, the names the statement
        binds there and their types: ``ast.statement_exprs``)."""
        for st in (*self.rules.values(), *self.defines.values(), *self.cards.values(), *self.rolls.values()):
            for e, bound in A.statement_exprs(st):
                yield st, e, bound

    def card_field_words(self, name: str) -> str:
        """What a message calls a card's field (``card fields roll: ... "the dice rolled"``)."""
        words = self.card_fields.get(name, (None, None, None))[2]
        return words or f"value of {name}"

    def unit_attributes(self) -> set[str]:
        out: set[str] = set(self.fields)
        for u in self.units.values():
            out |= {k for k, _ in u.attrs}
        for t in self.terrains.values():
            out |= {k for k, _ in t.attrs}
        return out

    def statement_at(self, loc: Location) -> str:
        """The rule, define, card or roll written at ``loc``, named for a
        message (``ast.statement_name``)."""
        best, where = None, (-1, -1)
        for st in (*self.rules.values(), *self.defines.values(), *self.cards.values(), *self.rolls.values()):
            sl = st.loc
            if sl.file == loc.file and sl.line is not None and loc.line is not None:
                key = (sl.line, sl.column or 0)
                if key <= (loc.line, loc.column or 0) and key > where:
                    best, where = st, key
        return "a rule" if best is None else A.statement_name(best)

    def cards_by_key(self) -> dict[str, str]:
        """Printed card names by ``card_key`` (case, spaces and hyphens ignored)."""
        if self._card_keys is None or set(self._card_keys.values()) != set(self.cards):
            self._card_keys = {card_key(c): c for c in self.cards}
        return self._card_keys

    def card(self, name: str) -> A.CardDecl:
        """Find a card by printed name, ignoring case, spaces and hyphens."""
        key = card_key(name)
        cname = (self._card_keys or {}).get(key)
        if cname is None or cname not in self.cards:
            self._card_keys = {card_key(c): c for c in self.cards}
            cname = self._card_keys.get(key)
        if cname is not None:
            return self.cards[cname]
        hint = closest(name, self.cards) or closest(key, {card_key(c): c for c in self.cards})
        raise WarcouncilError(
            f"unknown card {name!r} for {self.title or self.name}",
            hint=("did you mean " + " or ".join(repr(h) for h in hint) + "?") if hint else "run `warcouncil cards` to list them",
        )

    def source_of(self, stmt) -> tuple[str, str]:
        """(source, quote) for a rule or define. The source is the document
        its first citation names; for a rule a house-rule file added or
        changed, it is that file (the quote, if any, is still its citation's).
        A pack's own files (not house layers) cite their documents wherever
        the pack lives (a test's or a user's pack folder too)."""
        cites = getattr(stmt, "citations", ())
        sid = getattr(stmt, "id", None) or getattr(stmt, "name", "")
        origin = self.origin.get(sid, "")
        # a rule shared by several games cites each one's book: prefer this pack's own
        own = [c for c in cites if c.document in self.own_documents]
        cites = own + [c for c in cites if c not in own]
        quote = cites[0].quote if cites else ""
        if origin and not is_shipped(origin) and (origin in self.layer_files or not cites):
            return (origin, quote)
        if cites:
            doc = self.documents.get(cites[0].document)
            return (doc.path if doc else cites[0].document, quote)
        return (origin or "house rule", quote)

    def quote_naming(self, stmt, words: str) -> str | None:
        """Of the sentences ``stmt`` cites in the document its quote comes
        from (``source_of``: its first citation's, this pack's own first),
        the first that names ``words`` (a piece's type in words, "light
        cavalry") as a whole phrase, case ignored; None when none does."""
        cites = getattr(stmt, "citations", ())
        own = [c for c in cites if c.document in self.own_documents]
        cites = own + [c for c in cites if c not in own]
        if not cites:
            return None
        phrase = re.compile(r"\b" + re.escape(words.lower()) + r"\b")
        return next((c.quote for c in cites if c.document == cites[0].document and phrase.search(c.quote.lower())),
                    None)

    def document_title(self, source: str) -> str | None:
        """The title a pack gives the document a source names (its alias or
        its file, as ``source_of`` gives it), or None."""
        for doc in self.documents.values():
            if source in (doc.alias, doc.path, Path(doc.path).name) and doc.title:
                return doc.title
        return None

    def document_name(self, source: str) -> str:
        """How an answer in words names a source: its document's title, else
        the source as given (``--json`` keeps the source itself)."""
        return self.document_title(source) or source

    def document_text(self, alias: str) -> str | None:
        return self.document_read(alias)[0]

    def document_read(self, alias: str) -> tuple[str | None, str | None]:
        """(text, None) for a declared document, or (None, why it cannot be
        read). A document is read inside the folder of the rule file that
        declares it (or the shipped ``rules/sources``), its links resolved,
        or inside one of ``document_roots``: a rule file cannot make lint
        read any file on the machine. Only regular files of at most
        ``DOCUMENT_LIMIT`` bytes are read (a `document` naming /dev/zero is
        a problem, not a hang)."""
        doc = self.documents.get(alias)
        if doc is None:
            return None, "undeclared document"
        home = self.document_dirs.get(alias, Path("."))
        candidates = [(home / doc.path, home), (SOURCES_DIR / Path(doc.path).name, SOURCES_DIR)]
        why = "no such file"
        for c, folder in candidates:
            if not _inside(c, (folder, *self.document_roots)):  # (before looking: no answer about files outside)
                why = (f"it is outside {home}, the folder of the rule file that declares it; "
                       "`lint --allow-documents DIR` allows another folder")
                continue
            if not os.path.lexists(c):
                continue
            try:
                return read_text(c, DOCUMENT_LIMIT, "document"), None
            except WarcouncilError as e:
                why = e.message
        return None, why


def _inside(path: Path, folders) -> bool:
    """Is ``path``, its links resolved, inside one of ``folders``?"""
    try:
        real = os.path.realpath(path)
        return any(os.path.commonpath([real, os.path.realpath(f)]) == os.path.realpath(f) for f in folders)
    except (OSError, ValueError):  # another drive, a NUL byte: not inside
        return False


def is_shipped(path: str) -> bool:
    """Is this rule file part of a pack shipped with warcouncil?"""
    path = str(path)
    return _is_shipped(path, None if os.path.isabs(path) else os.getcwd())


@lru_cache(maxsize=1024)
def _is_shipped(path: str, cwd: str | None) -> bool:
    try:
        Path(path).resolve().relative_to(_packs_dir())
        return True
    except ValueError:
        return False


@lru_cache(maxsize=1)
def _packs_dir() -> Path:
    return PACKS_DIR.resolve()


@lru_cache(maxsize=1024)
def card_key(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch not in " -_'’")


def _probe(test) -> bool:
    """``test()`` of a path, false where the name cannot be looked up at all
    (too long, a NUL byte): then it names no file."""
    try:
        return test()
    except (OSError, ValueError):
        return False


def pack_files(target: str | Path) -> list[Path]:
    """The rule files of a pack name, a folder or a single file."""
    p = Path(target)
    if not _probe(p.exists) and isinstance(target, str) and _probe((PACKS_DIR / target).is_dir):
        p = PACKS_DIR / target
    if _probe(p.is_dir):
        files = sorted(p.glob("*.wc"))
        if not files:
            raise WarcouncilError(f"no rule files (*.wc) in {p}", Location(str(p)))
        return files
    if _probe(p.is_file):
        return [p]
    known = sorted(d.name for d in PACKS_DIR.iterdir() if d.is_dir() and d.name != "sources" and not d.name.startswith("_"))
    hint = closest(str(target), known)
    raise WarcouncilError(
        f"no rule pack or rule file {str(target)!r}",
        Location(str(target)),
        hint=f"did you mean {hint[0]!r}?" if hint else f"shipped packs: {', '.join(known)}",
    )


def load_pack(target: str | Path, layers: list[str | Path] = (), *, strict: bool = True,
              texts: dict[str, str] | None = None) -> Pack:
    """Read a pack and layer house-rule files over it.

    With ``strict`` the first layering problem raises ``WarcouncilError``;
    otherwise problems are collected in ``pack.problems`` (for lint).
    ``texts``: rule files' texts by path, read in place of what the files
    hold (an editor's unsaved buffers: ``warcouncil lsp``).
    """
    pack = Pack(texts={os.path.realpath(f): t for f, t in (texts or {}).items()})
    files = [Path(f) for f in target] if isinstance(target, list) else pack_files(target)
    _load_files(pack, files, strict, seen=set())
    for i, layer in enumerate(layers, 1):
        _load_files(pack, pack_files(layer), strict, seen=set(), house=True, layer=i)
    return pack


def _load_files(pack: Pack, files: list[Path], strict: bool, seen: set, house: bool = False,
                rename: tuple[str, str] | None = None, base: bool = False, layer: int = 0) -> None:
    for f in files:
        rf = parse_file(f, pack.texts.get(os.path.realpath(f)) if pack.texts else None)
        if rename is not None:
            rf = _renamed(rf, *rename)
        _apply(pack, rf, f, strict, seen, house, base, layer)


def _renamed(rf: A.RuleFile, old: str, new: str) -> A.RuleFile:
    """A template pack's statements with ids `old.*` renamed `new.*`."""
    def rid(x: str) -> str:
        return new + x[len(old):] if x.startswith(old + ".") else x

    out = []
    for st in rf.statements:
        if isinstance(st, (A.RuleDecl, A.DefineDecl, A.TurnDecl, A.RollDecl)):
            st = dataclasses.replace(st, id=rid(st.id))
        elif isinstance(st, A.RemoveDecl):
            st = dataclasses.replace(st, target=rid(st.target))
        out.append(st)
    return A.RuleFile(rf.path, tuple(out))


def _type_fields(pack: Pack, strict: bool, st: A.FieldsDecl) -> None:
    """The types a `fields` statement gives (``name: T``): each a type of
    the vocabulary, and one type per attribute, the kernel's included."""
    for name, t in zip(st.names, st.types):
        if t is None:
            continue
        t = canonical_type(t)
        why = type_error(t)
        if why:
            _problem(pack, strict, f"field {name}: {why}", st.loc)
            continue
        old = pack.field_types.get(name) or KERNEL.attributes.get(name)
        if old is not None and old != t:
            _problem(pack, strict, f"field {name} is already of type {old}, not {t}", st.loc,
                     "an attribute has one type wherever it is read")
            continue
        pack.field_types[name] = t


def _problem(pack: Pack, strict: bool, msg: str, loc: Location, hint: str | None = None) -> None:
    err = LintError(msg, loc, hint, line_at(loc))
    if strict:
        raise err.as_error()
    pack.problems.append(err)


def line_at(loc: Location) -> str | None:
    """The line of a rule file at ``loc`` (for a message's excerpt), or None."""
    if not loc or not loc.file or not loc.line:
        return None
    try:
        return read_text(loc.file, RULES_LIMIT, "rule file").splitlines()[loc.line - 1]
    except (WarcouncilError, IndexError):
        return None


def _apply(pack: Pack, rf: A.RuleFile, path: Path, strict: bool, seen: set, house: bool, base: bool = False,
           layer: int = 0) -> None:
    fname = str(path)
    pack.files.append(fname)
    if layer:
        pack.layer_files.add(fname)
    replaced_here = pack.replaced_by
    for st in rf.statements:
        if layer and isinstance(st, (A.RuleDecl, A.DefineDecl, A.CardDecl, A.RollDecl)):
            pack.layered.append((layer, st))
        if isinstance(st, A.PackDecl):
            if not pack.name:
                pack.name, pack.title = st.name, st.title
        elif isinstance(st, A.Extends):
            if st.pack in seen:
                _problem(pack, strict, f"pack {st.pack!r} is extended twice (or extends itself)", st.loc)
                continue
            seen.add(st.pack)
            pack.lineage.append(st.pack)
            try:
                base_files = pack_files(st.pack)
            except WarcouncilError as e:
                _problem(pack, strict, e.message, st.loc, e.hint)
                continue
            rename = (st.pack, st.alias) if st.alias else None
            _load_files(pack, base_files, strict, seen, rename=rename, base=True)
        elif isinstance(st, A.DocumentDecl):
            pack.documents[st.alias] = st
            pack.document_dirs[st.alias] = path.parent
            if not base:
                pack.own_documents.add(st.alias)
        elif isinstance(st, A.SectionsDecl):
            pack.sections = st.names
        elif isinstance(st, A.DiceDecl):
            pack.dice = st.faces
        elif isinstance(st, A.ValuesDecl):
            pack.values[st.attribute] = st.members
        elif isinstance(st, A.FieldsDecl):
            pack.fields = tuple(dict.fromkeys(pack.fields + st.names))
            _type_fields(pack, strict, st)
        elif isinstance(st, A.RolesDecl):
            pack.roles = tuple(dict.fromkeys(pack.roles + st.names))
            pack.roles_decls.append(st)
        elif isinstance(st, A.EffectsDecl):
            for e in st.effects:
                if e.name in pack.effects:
                    _problem(pack, strict, f"effect {e.name} is already declared in {pack.effects[e.name].loc.file}",
                             e.loc)
                    continue
                pack.effects[e.name] = e
        elif isinstance(st, A.UnitDecl):
            _put(pack, strict, pack.units, st.name, st, st.replace, "unit", fname, replaced_here, layer)
        elif isinstance(st, A.TerrainDecl):
            pack.terrains[st.name] = st
            pack.origin[st.name] = fname
        elif isinstance(st, A.CardFieldsDecl):
            for name, t, default, words in zip(st.names, st.types, st.defaults, st.words):
                pack.card_fields[name] = (t, default, words)
        elif isinstance(st, A.CardDecl):
            st = _card_values(pack, strict, st)
            _put(pack, strict, pack.cards, st.name, st, st.replace, "card", fname, replaced_here, layer)
        elif isinstance(st, A.RuleDecl):
            _put(pack, strict, pack.rules, st.id, st, st.replace, "rule", fname, replaced_here, layer)
        elif isinstance(st, A.DefineDecl):
            if st.replace and st.id not in pack.define_ids:
                _problem(pack, strict, f"replace define {st.id}: there is no such define to replace", st.loc,
                         _did_you_mean(st.id, pack.define_ids))
                continue
            if not st.replace and st.id in pack.define_ids:
                _problem(pack, strict, f"define {st.id} is already defined in {pack.origin.get(st.id)}", st.loc,
                         "write `replace define` to change it in a house rule")
                continue
            if st.replace:
                _check_double_replace(pack, strict, st.id, fname, st.loc, replaced_here, layer)
                old = pack.define_ids[st.id]
                if old != st.name:
                    _problem(pack, strict, f"replace define {st.id} renames {old} to {st.name}", st.loc,
                             f"a replacement keeps the name: write {old}(...) := ...")
                    continue
                before = pack.defines[old].params
                if len(before) != len(st.params):
                    hook = pack.hooks.get(old)
                    _problem(pack, strict,
                             f"replace define {st.id}: {old} takes {len(before)} argument(s), not {len(st.params)}"
                             + (f"; the engine calls it as hook {hook.signature()}: {hook.doc}" if hook else ""),
                             st.loc, f"keep the parameters: {old}({', '.join(before)}) := ...")
                    continue
                pack.defines.pop(old, None)
            elif st.name in pack.defines:
                _problem(pack, strict, f"{st.name} is already defined by {pack.defines[st.name].id}", st.loc)
                continue
            pack.defines[st.name] = st
            pack.define_ids[st.id] = st.name
            pack.origin[st.id] = fname
            pack.removed_defines.pop(st.name, None)
            if not st.replace:
                pack.define_layer[st.name] = layer
        elif isinstance(st, A.ChangeUnit):
            _change_unit(pack, strict, st, fname, layer)
        elif isinstance(st, A.ChangeDefine):
            changed = _change_define(pack, strict, st, fname, layer)
            if layer and changed is not None:
                pack.layered.append((layer, changed))
        elif isinstance(st, A.BuiltinDecl):
            _declare_builtin(pack, strict, st, fname, layer)
        elif isinstance(st, A.HookDecl):
            if layer:
                _problem(pack, strict, f"hook {st.name}: a house rule cannot declare a hook (the engine's Python "
                         "calls it)", st.loc, "write a `define` instead")
            elif st.name in pack.hooks:
                _problem(pack, strict, f"hook {st.name} is already declared in {pack.hooks[st.name].loc.file}", st.loc)
            else:
                pack.hooks[st.name] = st
        elif isinstance(st, A.TurnDecl):
            _declare_turn(pack, strict, st, fname, replaced_here, layer)
        elif isinstance(st, A.RollDecl):
            _declare_roll(pack, strict, st, fname, replaced_here, layer)
        elif isinstance(st, A.RemoveDecl):
            table = {"rule": pack.rules, "card": pack.cards}.get(st.kind)
            if st.kind == "define":
                if st.target not in pack.define_ids:
                    _problem(pack, strict, f"remove define {st.target}: no such define", st.loc,
                             _did_you_mean(st.target, pack.define_ids))
                    continue
                name = pack.define_ids.pop(st.target)
                pack.defines.pop(name, None)
                pack.removed_defines[name] = (st.target, st)
            elif st.target not in table:
                _problem(pack, strict, f"remove {st.kind} {st.target}: no such {st.kind}", st.loc,
                         _did_you_mean(st.target, table))
                continue
            else:
                del table[st.target]
            pack.origin[st.target] = fname


def _declare_roll(pack: Pack, strict: bool, st: A.RollDecl, fname: str, replaced_here, layer: int) -> None:
    """A `roll` statement: its parameters and dice named once each, 1 to
    ``MAX_ROLL_DICE`` dice (its law is worked out face by face), one roll
    per name; a house rule gives one anew with `replace roll ID`, keeping
    the name and parameters the engine asks it by (its dice and body are
    its own)."""
    names = st.params + st.dice
    twice = next((n for n in names if names.count(n) > 1), None)
    old = pack.rolls.get(st.id)
    other = pack.roll(st.name)
    if twice is not None:
        _problem(pack, strict, f"roll {st.id}: {twice} is named twice (each parameter and die has a name of its own)",
                 st.loc)
    elif not 1 <= len(st.dice) <= MAX_ROLL_DICE:
        _problem(pack, strict, f"roll {st.id} rolls {len(st.dice)} dice: a roll rolls 1 to {MAX_ROLL_DICE} (its law "
                 f"is worked out over every face of every die)", st.loc)
    elif st.replace and old is not None and (old.name, old.params) != (st.name, st.params):
        _problem(pack, strict, f"replace roll {st.id}: the engine asks it as {old.name}({', '.join(old.params)}), "
                 f"not {st.name}({', '.join(st.params)})", st.loc,
                 f"keep the name and parameters: {old.name}({', '.join(old.params)}) dice ... := ...")
    elif not st.replace and old is None and other is not None:
        _problem(pack, strict, f"roll {st.name} is already declared by {other.id}", st.loc)
    else:
        _put(pack, strict, pack.rolls, st.id, st, st.replace, "roll", fname, replaced_here, layer)


def _declare_turn(pack: Pack, strict: bool, st: A.TurnDecl, fname: str, replaced_here, layer: int) -> None:
    """A `turn` statement: one per pack, and one frame (`turn ID for KIND`)
    per kind of action; a house rule gives either anew with `replace turn
    ID`. Its steps are named once; in a turn each kind is in one step, and
    a chance step follows no `repeat` step (nobody would say when the
    repeating is over). A frame's kinds are the fields of the action's entry
    its steps read, a field perhaps read by two steps, and its procedure
    says when a repeat step is over (a move ends at a failed test)."""
    old = pack.turn if st.frame is None else pack.frames.get(st.frame)
    what = "turn" if st.frame is None else f"frame of {st.frame}"
    if st.replace and (old is None or old.id != st.id):
        _problem(pack, strict, f"replace turn {st.id}: there is no such {what} to replace", st.loc,
                 f"the pack's {what} is {old.id}" if old is not None else None)
        return
    if not st.replace and old is not None:
        _problem(pack, strict, f"turn {st.id}: the pack's {what} is already {old.id} ({pack.origin.get(old.id)})",
                 st.loc, "write `replace turn` to change it in a house rule")
        return
    names: set = set()
    kinds: dict = {}
    for i, step in enumerate(st.steps):
        if step.name in names:
            _problem(pack, strict, f"turn {st.id}: step {step.name} is named twice", step.loc)
            return
        names.add(step.name)
        if st.frame is not None:
            continue
        for k in step.kinds:
            if k in kinds or k == "end":
                _problem(pack, strict, f"turn {st.id}: actions of kind {k} are in step "
                         f"{'the end' if k == 'end' else kinds[k]} already", step.loc,
                         "each kind of action belongs to one step (`end` ends the turn)")
                return
            kinds[k] = step.name
        if step.mode == "chance" and i and st.steps[i - 1].mode == "repeat":
            _problem(pack, strict, f"turn {st.id}: chance step {step.name} follows repeat step "
                     f"{st.steps[i - 1].name}", step.loc, "put a `decide` step before the dice")
            return
    if st.replace:
        _check_double_replace(pack, strict, st.id, fname, st.loc, replaced_here, layer)
    if st.frame is None:
        pack.turn = st
    else:
        pack.frames[st.frame] = st
    pack.origin[st.id] = fname


def _declare_builtin(pack: Pack, strict: bool, st: A.BuiltinDecl, fname: str, layer: int) -> None:
    """A `builtin` statement: declared once, by the kernel or a game pack's
    file (a house rule cannot: a builtin's meaning is Python code)."""
    old = KERNEL.get(st.name) or pack.builtins.get(st.name) or pack.vocabulary.get(st.name)
    if old is not None:
        where = "the kernel" if old.origin == "kernel" else old.origin
        _problem(pack, strict, f"builtin {st.name} is already declared by {where}", st.loc,
                 "a builtin is declared once; a house rule can define a new name with `define` instead")
        return
    if layer:
        _problem(pack, strict, f"builtin {st.name}: a house rule cannot declare a builtin (its meaning is Python code)",
                 st.loc, "write a `define` instead")
        return
    try:
        b = Builtin(st.name, st.params, st.returns, st.reads, st.doc, origin=fname, loc=st.loc)
    except WarcouncilError as e:
        _problem(pack, strict, e.message, st.loc)
        return
    pack.builtins[st.name] = b


def _did_you_mean(name: str, known) -> str | None:
    c = closest(name, known)
    return f"did you mean {c[0]}?" if c else None


def _check_double_replace(pack, strict, key, fname, loc, replaced_here, layer: int = 0,
                          verb: str = "replaced") -> bool:
    """Record that layer file ``fname`` sets ``key`` (an id, or a unit
    type's attribute ``unit.attr``); a problem, and True, if another layer
    already set it."""
    if not layer:
        return False  # a pack refining its base (a game over the core) is not a layer conflict
    prev = replaced_here.get(key)
    replaced_here[key] = fname
    if prev is not None and prev != fname:
        _problem(pack, strict, f"{key} is {verb} by two layers: {prev} and {fname}", loc,
                 f"keep one {'replacement' if verb == 'replaced' else 'change'}, or merge the two house-rule files")
        return True
    return False


def _value_kind(v) -> str:
    return "true or false" if isinstance(v, bool) else "a number" if isinstance(v, (int, float)) else "a name"


def _change_unit(pack: Pack, strict: bool, st: A.ChangeUnit, fname: str, layer: int) -> None:
    """``change unit NAME { k = v }``: the unit type with only these
    attributes set (an attribute some unit type of the pack has)."""
    old = pack.units.get(st.name)
    if old is None:
        _problem(pack, strict, f"change unit {st.name}: there is no such unit to change", st.loc,
                 _did_you_mean(st.name, pack.units))
        return
    if not st.attrs:
        _problem(pack, strict, f"change unit {st.name} changes nothing", st.loc,
                 f"give the attributes to change: change unit {st.name} {{ move = 5 }}")
        return
    attrs = dict(old.attrs)
    known = {k: v for u in pack.units.values() for k, v in u.attrs}
    locs = st.attr_locs or (st.loc,) * len(st.attrs)
    bad = False
    for (key, value), loc in zip(st.attrs, locs):
        if key not in known:
            _problem(pack, strict, f"change unit {st.name}: {key} is not an attribute of a unit type", loc,
                     _did_you_mean(key, attrs) or _did_you_mean(key, known)
                     or f"its attributes: {', '.join(attrs)}")
            bad = True
            continue
        was = attrs.get(key, known[key])
        if _value_kind(was) != _value_kind(value):
            _problem(pack, strict, f"change unit {st.name}: {key} is {_value_kind(was)}, not {value!r}", loc,
                     f"as in {st.name if key in attrs else 'the pack'}: {key} = "
                     f"{str(was).lower() if isinstance(was, bool) else was}")
            bad = True
            continue
        _check_double_replace(pack, strict, f"{st.name}.{key}", fname, loc, pack.replaced_by, layer, "changed")
    if bad:
        return
    attrs.update(st.attrs)
    pack.units[st.name] = dataclasses.replace(old, attrs=tuple(attrs.items()))
    pack.origin[st.name] = fname


def _change_define(pack: Pack, strict: bool, st: A.ChangeDefine, fname: str, layer: int) -> A.DefineDecl | None:
    """``change define ID [when COND] := EXPR``: the define with a new body
    (``if COND then EXPR else`` the old body, with ``when``), its name and
    parameters kept; its citations are the change's, if it gives any."""
    name = pack.define_ids.get(st.id)
    if name is None:
        _problem(pack, strict, f"change define {st.id}: there is no such define to change", st.loc,
                 _did_you_mean(st.id, pack.define_ids))
        return None
    _check_double_replace(pack, strict, st.id, fname, st.loc, pack.replaced_by, layer, "changed")
    old = pack.defines[name]
    body = st.body if st.when is None else A.IfElse(st.when, st.body, old.body, st.loc)
    new = dataclasses.replace(old, citations=st.citations or old.citations, body=body, replace=True, loc=st.loc)
    pack.defines[name] = new
    pack.origin[st.id] = fname
    return new


def _card_named(pack: Pack, strict: bool, name: str, loc: Location) -> bool:
    """A new card's name is not empty and is no other card's to ``--card``
    (``card_key``: case, spaces and hyphens ignored), else a problem:
    which card ``--card`` finds must not depend on spelling."""
    key = card_key(name)
    if not key:
        _problem(pack, strict, f"card {name!r}: a card's name must not be empty (--card ignores case, spaces and "
                 "hyphens)", loc)
        return False
    same = pack.cards_by_key().get(key)
    if same is not None:
        _problem(pack, strict, f"card {name!r} has the name of card {same!r} (defined in {pack.origin.get(same)}) "
                 "to --card, which ignores case, spaces and hyphens", loc,
                 f"write `replace card \"{same}\"` to change that card, or give this one a name of its own")
        return False
    return True


def _card_value(t: str, value):
    """A card field's value as its type ``t`` takes it, or None if it does not."""
    base = t.rstrip("?")
    if base.startswith("expr["):
        return value if isinstance(value, A.Expr) else None
    if base.startswith(("set[", "list[")):
        items = value if isinstance(value, tuple) else (value,)
        out = tuple(_card_value(base[base.index("[") + 1:-1], v) for v in items)
        return None if any(v is None for v in out) else out
    if isinstance(value, tuple):
        return None
    if base == "int" and isinstance(value, A.Num) and isinstance(value.value, int):
        return value.value
    if base == "bool" and isinstance(value, A.Const) and isinstance(value.value, bool):
        return value.value
    if base == "str" and isinstance(value, A.Str):
        return value.value
    if base == "symbol" and isinstance(value, A.Name):
        return value.id
    return None


def _card_values(pack: Pack, strict: bool, st: A.CardDecl) -> A.CardDecl:
    """The card with each field its pack declares (``card fields``): the
    card's own value, checked against the field's type, else the default."""
    given = {f.name: f for f in st.fields}
    for f in st.fields:
        if f.name not in pack.card_fields:
            _problem(pack, strict, f"card {st.name!r} has a field {f.name!r} its pack does not declare", f.loc,
                     _did_you_mean(f.name, pack.card_fields) or
                     "a pack says what its cards have with `card fields NAME: TYPE, ...`")
    out = []
    for name, (t, default, _) in pack.card_fields.items():
        f = given.get(name)
        if f is None:
            value = default if default is not None else (() if t.startswith(("set[", "list[")) else None)
            out.append(A.CardField(name, value, st.loc))
            continue
        value = _card_value(t, f.value)
        if value is None:
            _problem(pack, strict, f"card {st.name!r}: the {pack.card_field_words(name)} takes {_type_words(t)}",
                     f.loc)
        out.append(A.CardField(name, value, f.loc))
    return dataclasses.replace(st, fields=tuple(out))


def _type_words(t: str) -> str:
    base = t.rstrip("?")
    if base.startswith("expr["):
        return f"an expression of type {base[5:-1]}"
    if base.startswith(("set[", "list[")):
        return f"one or more values of type {base[base.index('[') + 1:-1]}, separated by commas"
    return {"int": "a whole number", "bool": "true or false", "str": "a quoted text",
            "symbol": "a name"}.get(base, f"a value of type {base}")


def _put(pack, strict, table, key, st, replace, kind, fname, replaced_here, layer: int = 0) -> None:
    if replace and key not in table:
        _problem(pack, strict, f"replace {kind} {key}: there is no such {kind} to replace", st.loc,
                 _did_you_mean(key, table))
        return
    if not replace and key in table:
        _problem(pack, strict, f"{kind} {key} is already defined in {pack.origin.get(key)}", st.loc,
                 f"write `replace {kind}` to change it in a house rule")
        return
    if kind == "card" and not replace and not _card_named(pack, strict, key, st.loc):
        return
    if replace:
        clash = _check_double_replace(pack, strict, key, fname, st.loc, replaced_here, layer)
        if kind == "unit":  # each attribute it sets, too: another layer may `change` one
            for k, _ in st.attrs:
                if clash and layer:
                    replaced_here[f"{key}.{k}"] = fname  # (one message for the statement)
                else:
                    clash = _check_double_replace(pack, strict, f"{key}.{k}", fname, st.loc, replaced_here, layer)
            missing = [k for k, _ in table[key].attrs if k not in dict(st.attrs)]
            if missing:
                _problem(pack, strict, f"replace unit {key} leaves out {', '.join(missing)}", st.loc,
                         "a replacement is the whole unit type: list every attribute, or write "
                         f"`change unit {key} {{ ... }}` to set only some")
                return
    table[key] = st
    pack.origin[key] = fname
