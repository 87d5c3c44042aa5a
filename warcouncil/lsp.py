"""``warcouncil lsp``: a language server for rule files (``*.wc``), over
standard input and output, on pygls (the optional extra ``lsp``).

What it answers, for a rule file an editor has open:

* **diagnostics** as the text changes: every problem ``warcouncil lint``
  finds in the file (errors, and its warnings), each at its place. The file
  is linted as what it is (``setting``): a house file over the pack it
  changes, a pack's own file inside its pack, or a file on its own;
* **hover** on a rule or define (by id, or a define by its name): the id,
  the title of the document it cites and the cited sentence; on a builtin:
  its type and what it means (``dsl/builtins.py``, a pack's ``builtin``
  statements); on a unit type or a card's name: its declaration;
* **go to definition** of a define, a rule, a unit type, a card or a
  pack's builtin, in the pack's files or the house file's;
* **completion** of builtins, defines, unit types, card names and the
  names the pack declares (after ``.``: attributes).

What it knows is the language's (``warcouncil.dsl``): lint and the pack as
layered; of the kernel, only which pack a scenario's ``system:`` names
(``kernel.scenario.pack_target``). pygls is imported only by ``serve``,
when the verb runs; the rest takes text and places (0-based lines,
columns in characters) and gives plain records.
"""

from __future__ import annotations

import asyncio
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .dsl import ast as A
from .dsl.pack import LintError, Pack
from .errors import WarcouncilError

#: a house file names the pack it is layered over in a comment line before
#: its first statement: ``# over: cca`` (a shipped pack's name, or a pack
#: folder, relative to the file)
OVER = re.compile(r"^#[ \t]*over[ \t]*:[ \t]*(\S+)[ \t]*$")
#: a pack's own file: some file of its folder declares the pack
_PACK_STATEMENT = re.compile(r"^pack[ \t]+[A-Za-z_]\w*[ \t]+\"", re.M)
#: a scenario's ``system:`` at the top level of a YAML file
_SYSTEM = re.compile(r"""^["']?system["']?[ \t]*:[ \t]*["']?([A-Za-z0-9_.\-/]+)""", re.M)

#: a word at a place: an id (``cca.no-detach-on-leadership``), a name, a
#: string, a number, an operator; anything else is one character
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_][A-Za-z0-9_-]*)*'
                    r"|\d+(?:\.\d+)?|:=|==|!=|<=|>=|->|\S")
_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_][A-Za-z0-9_-]*)*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')


# ------------------------------------------------------------------ what a file is


@dataclass(frozen=True)
class Setting:
    """How a rule file is linted: ``house`` over the pack ``target``, one
    file of the ``pack`` ``target`` (a folder), or ``alone``. ``header``:
    the 0-based line of its ``# over:`` line, if it has one."""

    kind: str
    target: str | None = None
    header: int | None = None


def setting(path: Path, text: str) -> Setting:
    """What the file ``path`` holding ``text`` is, the first that holds of:

    1. a ``# over: PACK`` line among the comments before its first
       statement: a house file over PACK (a shipped pack's name, or a pack
       folder relative to the file);
    2. a file of a pack's folder (some ``*.wc`` there says ``pack NAME
       "title"``): linted in its pack; a file of a template pack (one that a
       sibling folder's pack ``extends``, as ``cca`` extends ``core``) in the
       first pack, in name order, that extends it;
    3. a file in a folder named after a shipped pack (``rules/cca/x.wc``):
       a house file over that pack;
    4. a file beside a scenario (a ``*.yaml`` or ``*.yml`` naming its
       ``system:``; the first in name order): a house file over that
       scenario's pack;
    5. a file whose ids name a shipped pack (``replace define
       cca.detach-with-helmet``): a house file over that pack;
    6. else a file on its own.
    """
    from .dsl.lint import packs_named, shipped_packs

    folder = path.parent
    for n, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        m = OVER.match(stripped)
        if m:
            name = m.group(1)
            near = folder / name
            return Setting("house", str(near) if _exists(near) else name, n)
    if _declares_pack(folder, path, text):
        extending = _extending(folder)
        return Setting("pack", str(extending or folder))
    if folder.name in shipped_packs():
        return Setting("house", folder.name)
    for scenario in _files(folder, ("*.yaml", "*.yml")):
        m = _SYSTEM.search(_read(scenario))
        if m:
            from .kernel.scenario import pack_target

            return Setting("house", pack_target(m.group(1), str(scenario)))
    named = packs_named(text)
    if named:
        return Setting("house", named[0])
    return Setting("alone")


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def _files(folder: Path, patterns) -> list[Path]:
    try:
        return sorted(f for pattern in patterns for f in folder.glob(pattern) if f.is_file())
    except OSError:
        return []


def _read(path: Path) -> str:
    """The first 200,000 characters of a file, for a look at its header."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read(200_000)
    except OSError:
        return ""


def _declares_pack(folder: Path, path: Path, text: str) -> bool:
    if _PACK_STATEMENT.search(text):
        return True
    return any(_PACK_STATEMENT.search(_read(f)) for f in _files(folder, ("*.wc",)) if f != path)


def _extending(folder: Path) -> Path | None:
    """The first sibling pack folder (in name order) whose files say
    ``extends FOLDER_NAME``: where a template pack's file is linted."""
    says = re.compile(r"^extends[ \t]+" + re.escape(folder.name) + r"\b", re.M)
    try:
        siblings = sorted(d for d in folder.parent.iterdir() if d.is_dir() and d != folder)
    except OSError:
        return None
    for d in siblings:
        if any(says.search(_read(f)) for f in _files(d, ("*.wc",))):
            return d
    return None


# ------------------------------------------------------------------ one analysis


@dataclass
class Analysis:
    """A file linted as its ``setting`` says: the ``pack`` as lint layered
    it (None when the text does not parse), lint's ``problems`` and
    ``warnings``; ``under`` is the pack a house file is over, as saved
    (what the file replaces or removes is still there)."""

    path: Path
    setting: Setting
    pack: Pack | None
    problems: list[LintError] = field(default_factory=list)
    warnings: list[LintError] = field(default_factory=list)
    under: Pack | None = None

    def packs(self) -> list[Pack]:
        return [p for p in (self.pack, self.under) if p is not None]


#: pack target -> (its files' stamps, the pack alone)
_UNDER: dict[str, tuple[tuple, Pack | None]] = {}


def _pack_alone(target: str) -> Pack | None:
    """The pack ``target`` without layers, kept while its files are unchanged."""
    from .dsl.pack import load_pack, pack_files

    try:
        stamps = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in pack_files(target))
    except (WarcouncilError, OSError):
        return None
    kept = _UNDER.get(target)
    if kept is None or kept[0] != stamps:
        try:
            kept = _UNDER[target] = (stamps, load_pack(target, strict=False))
        except WarcouncilError:
            kept = _UNDER[target] = (stamps, None)
    return kept[1]


def analyse(path: str | Path, text: str, texts: dict[str, str] | None = None) -> Analysis:
    """Lint the file ``path`` holding ``text`` (and the other open files'
    ``texts``, by path, in place of what is saved) as its setting says."""
    from .dsl.lint import lint, warnings

    path = Path(path)
    where = setting(path, text)
    texts = {**(texts or {}), str(path): text}
    if not path.is_file():  # not saved yet: its text alone
        return Analysis(path, where, None, _syntax(path, text))
    if where.kind == "house":
        pack, problems = lint([path], where.target, texts=texts)
    elif where.kind == "pack":
        pack, problems = lint([where.target], texts=texts)
    else:
        pack, problems = lint([path], texts=texts)
    under = _pack_alone(where.target) if where.kind == "house" else None
    return Analysis(path, where, pack, problems, warnings(pack), under)


def _syntax(path: Path, text: str) -> list[LintError]:
    from .dsl.packcache import parse_file

    try:
        parse_file(path, text)
    except WarcouncilError as e:
        return [LintError(e.message, e.location, e.hint)]
    return []


# ------------------------------------------------------------------ places


def token_end(line: str, column: int) -> int:
    """Where the word starting at ``column`` (0-based) of ``line`` ends."""
    m = _TOKEN.match(line, column)
    return m.end() if m else column


def _same_file(a: str | None, b: Path) -> bool:
    return a is not None and os.path.realpath(a) == os.path.realpath(b)


def _is_rule_file(name: str | None) -> bool:
    return bool(name) and name.endswith(".wc") and _exists(Path(name))


@dataclass(frozen=True)
class Problem:
    """A diagnostic, in code points: 0-based line, start and end columns."""

    line: int
    start: int
    end: int
    message: str
    warning: bool = False


def problems(an: Analysis, text: str) -> list[Problem]:
    """Lint's errors and warnings of the file, each at the word its place
    names. A problem of no rule file (``# over: nosuchpack``) is shown at
    the ``# over:`` line, else at the start; another rule file's are that
    file's own."""
    lines = text.split("\n")
    out = []
    for warning, found in ((False, an.problems), (True, an.warnings)):
        for p in found:
            loc = p.location
            if loc is not None and _same_file(loc.file, an.path) and loc.line:
                n = min(loc.line, len(lines)) - 1
                start = min(max((loc.column or 1) - 1, 0), len(lines[n]))
                end = max(token_end(lines[n], start), start)
            elif loc is not None and _is_rule_file(loc.file):
                continue
            else:
                n = an.setting.header or 0
                start, end = 0, len(lines[n]) if n < len(lines) else 0
            message = p.message + (f"\nhint: {p.hint}" if p.hint else "")
            out.append(Problem(n, start, end, message, warning))
    return out


def _words(line: str, column: int) -> list[str]:
    """The words under ``column``: an id with its dots, then the name part
    (``u.move`` at ``move``: ``u.move``, ``move``), or a string's text."""
    out = []
    for pattern in (_STRING, _ID, _NAME):
        for m in pattern.finditer(line):
            if m.start() <= column <= m.end() and m.end() > m.start():
                word = m.group()
                out.append(word[1:-1] if pattern is _STRING else word)
                break
        if out and pattern is _STRING:
            return out
    return list(dict.fromkeys(out))


def _statements(an: Analysis, word: str) -> list:
    """The statements (rule, define, unit type, card) or builtins a word
    names, in the file's pack as layered, then in the pack it is over (what
    a house file replaces or removes); each once (by its place)."""
    found, seen = [], set()
    for pack in an.packs():
        for st in (pack.rules.get(word), pack.defines.get(pack.define_ids.get(word, "")),
                   pack.defines.get(word), pack.units.get(word), pack.cards.get(word),
                   pack.vocabulary.get(word)):
            if st is None:
                continue
            loc = getattr(st, "loc", None)
            key = (type(st).__name__, getattr(st, "id", None) or getattr(st, "name", None),
                   loc.file if loc else None, loc.line if loc else None)
            if key not in seen:
                seen.add(key)
                found.append((pack, st))
    return found


def _escape(text: str) -> str:
    """Text for Markdown, shown as written."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)


def describe(pack: Pack, st) -> str:
    """What hover shows of a statement or a builtin (Markdown)."""
    from .dsl.builtins import Builtin

    if isinstance(st, Builtin):
        return f"`{st.signature()}`\n\n{_escape(st.doc)}"
    if isinstance(st, A.RuleDecl):
        head = f"`rule {st.id}`"
    elif isinstance(st, A.DefineDecl):
        head = f"`define {st.id}: {st.name}({', '.join(st.params)})`" if st.params \
            else f"`define {st.id}: {st.name}`"
    elif isinstance(st, A.UnitDecl):
        attrs = "; ".join(f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in st.attrs)
        head = f"`unit {st.name} {{ {attrs} }}`"
    else:
        from .dsl.unparse import card_orders

        head = f"`card \"{st.name}\"`\n\n`{card_orders(st)}`"
    if isinstance(st, (A.RuleDecl, A.DefineDecl)):
        source, quote = pack.source_of(st)
    else:
        cite = st.citations[0] if st.citations else None
        doc = pack.documents.get(cite.document) if cite else None
        source, quote = (doc.path if doc else cite.document, cite.quote) if cite else (pack.origin.get(st.name, ""), "")
    name = pack.document_name(source) if source else ""
    # a cited sentence, with its document's title; else the house file the statement comes from
    said = f"{_escape(name)}: “{_escape(quote)}”" if quote else f"`{name}`" if name else ""
    return head + (f"\n\n{said}" if said else "")


def hover(an: Analysis, text: str, line: int, column: int) -> str | None:
    """The Markdown hover shows at a place (0-based line, code points)."""
    lines = text.split("\n")
    if line >= len(lines):
        return None
    for word in _words(lines[line], column):
        found = _statements(an, word)
        if found:
            return "\n\n---\n\n".join(describe(pack, st) for pack, st in found)
    return None


@dataclass(frozen=True)
class Place:
    """Where a statement is written: a file, its 0-based line and column."""

    file: str
    line: int
    column: int


def definition(an: Analysis, text: str, line: int, column: int) -> list[Place]:
    """Where the define, rule, unit type, card or pack's builtin at a place
    is declared: in the pack as layered, and where a house file replaces
    it, in the pack it is over too."""
    lines = text.split("\n")
    if line >= len(lines):
        return []
    for word in _words(lines[line], column):
        places = []
        for _, st in _statements(an, word):
            loc = st.loc  # (a builtin declared by the kernel has none)
            if loc is not None and loc.file and loc.line:
                place = Place(os.path.realpath(loc.file), loc.line - 1, (loc.column or 1) - 1)
                if place not in places:
                    places.append(place)
        if places:
            return places
    return []


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # builtin, define, unit, card, name, attribute
    detail: str
    doc: str = ""
    insert: str | None = None


def completions(an: Analysis, text: str, line: int, column: int) -> list[Completion]:
    """What may be written at a place: after ``.``, an attribute; else the
    builtins, defines, unit types, card names (quoted, outside a string)
    and declared names of the file's pack."""
    lines = text.split("\n")
    before = lines[line][:column] if line < len(lines) else ""
    pack = next(iter(an.packs()), None)
    if pack is None:
        return []
    word = re.search(r"[A-Za-z0-9_]*$", before)
    if before[: word.start()].endswith("."):
        types = dict(pack.vocabulary.attributes)
        return [Completion(a, "attribute", types.get(a, "an attribute of the pack's unit types or terrain"))
                for a in sorted(set(types) | pack.unit_attributes())]
    in_string = before.count('"') % 2 == 1
    out = [Completion(b.name, "builtin", b.signature(), b.doc) for b in pack.vocabulary.values()]
    out += [Completion(d.name, "define", f"define {d.id}: {d.name}" + (f"({', '.join(d.params)})" if d.params else ""))
            for d in pack.defines.values()]
    out += [Completion(u, "unit", "unit type") for u in pack.units]
    out += [Completion(c, "card", "card", insert=None if in_string else f'"{c}"') for c in pack.cards]
    taken = {c.label for c in out}
    out += [Completion(s, "name", "a name the pack declares") for s in sorted(pack.symbols()) if s not in taken]
    return out


# ------------------------------------------------------------------ the server


#: seconds without a change before an edited file is linted again (a request
#: about the file lints it at once)
PAUSE = 0.15


def serve() -> None:
    """Answer an editor over standard input and output until it says exit."""
    try:
        from lsprotocol import types as T
        from pygls.lsp.server import LanguageServer
    except ImportError:
        raise WarcouncilError("the language server needs pygls: pip install 'warcouncil[lsp]'") from None
    from importlib.metadata import PackageNotFoundError, version

    try:
        ours = version("warcouncil")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree only
        ours = "0"
    server = LanguageServer("warcouncil", ours)
    analyses: dict[str, Analysis] = {}  # by uri: the last analysis whose text parsed, for completion

    def document(uri: str):
        return server.workspace.get_text_document(uri)

    def lines_of(doc) -> list[str]:
        return doc.source.split("\n")

    def client_range(lines, n, start, end, codec) -> T.Range:
        line = lines[n] if n < len(lines) else ""
        return T.Range(T.Position(n, codec.client_num_units(line[:start])),
                       T.Position(n, codec.client_num_units(line[:end])))

    def check(uri: str) -> None:
        doc = document(uri)
        if doc.path is None:
            return
        texts = {d.path: d.source for d in server.workspace.text_documents.values()
                 if d.path and d.path.endswith(".wc")}
        an = analyse(doc.path, doc.source, texts)
        if an.pack is not None or uri not in analyses:
            analyses[uri] = an
        elif an.pack is None:  # keep the last pack that parsed, with today's problems
            analyses[uri] = Analysis(an.path, an.setting, analyses[uri].pack, an.problems, an.warnings, an.under)
        lines, codec = lines_of(doc), doc.position_codec
        found = [T.Diagnostic(range=client_range(lines, p.line, p.start, p.end, codec), message=p.message,
                              severity=T.DiagnosticSeverity.Warning if p.warning else T.DiagnosticSeverity.Error,
                              source="warcouncil lint")
                 for p in problems(an, doc.source)]
        server.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=doc.version))

    waiting: dict[str, asyncio.TimerHandle] = {}  # by uri: a check after the typing pauses

    def check_soon(uri: str) -> None:
        if uri in waiting:
            waiting.pop(uri).cancel()
        waiting[uri] = asyncio.get_running_loop().call_later(PAUSE, lambda: (waiting.pop(uri, None), check(uri)))

    def at(params):
        """The analysis, text and place (code points) a request names."""
        uri = params.text_document.uri
        if uri in waiting:  # the text changed since: check it now
            waiting.pop(uri).cancel()
            check(uri)
        elif uri not in analyses:
            check(uri)
        doc = document(uri)
        lines = lines_of(doc)
        line = params.position.line
        if line >= len(lines):
            return analyses[uri], doc.source, line, 0
        column = doc.position_codec.position_from_client_units(lines, params.position).character
        return analyses[uri], doc.source, line, column

    @server.feature(T.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: T.DidOpenTextDocumentParams):
        check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: T.DidChangeTextDocumentParams):
        check_soon(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: T.DidSaveTextDocumentParams):
        check(params.text_document.uri)

    @server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: T.DidCloseTextDocumentParams):
        if params.text_document.uri in waiting:
            waiting.pop(params.text_document.uri).cancel()
        analyses.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(
            T.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))

    @server.feature(T.TEXT_DOCUMENT_HOVER)
    def on_hover(ls, params: T.HoverParams):
        shown = hover(*at(params))
        if shown is None:
            return None
        return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=shown))

    @server.feature(T.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls, params: T.DefinitionParams):
        an, text, line, column = at(params)
        out = []
        for place in definition(an, text, line, column):
            open_doc = next((d for d in server.workspace.text_documents.values()
                             if d.path and os.path.realpath(d.path) == place.file), None)
            lines = open_doc.source.split("\n") if open_doc else _read(Path(place.file)).split("\n")
            end = len(lines[place.line]) if place.line < len(lines) else place.column
            out.append(T.Location(uri=Path(place.file).as_uri(),
                                  range=client_range(lines, place.line, place.column, end,
                                                     server.workspace.position_codec)))
        return out or None

    kinds = {"builtin": T.CompletionItemKind.Function, "define": T.CompletionItemKind.Function,
             "unit": T.CompletionItemKind.Class, "card": T.CompletionItemKind.Value,
             "name": T.CompletionItemKind.EnumMember, "attribute": T.CompletionItemKind.Field}

    @server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
    def on_completion(ls, params: T.CompletionParams):
        items = [T.CompletionItem(label=c.label, kind=kinds[c.kind], detail=c.detail,
                                  documentation=c.doc or None, insert_text=c.insert)
                 for c in completions(*at(params))]
        return T.CompletionList(is_incomplete=False, items=items)

    server.start_io()
