"""``warcouncil lsp`` through the protocol: a real client (pygls's
``LanguageClient``) starts ``python -m warcouncil lsp`` as a process of its
own and talks to it over standard input and output, as an editor does:
initialize, didOpen, didChange, publishDiagnostics, hover, definition,
completion. One server for the module."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from click.testing import CliRunner

from warcouncil import cli

try:
    from lsprotocol import types as T
    from pygls.lsp.client import LanguageClient
except ImportError:  # pragma: no cover - without the optional extra
    T = LanguageClient = None

NO_PYGLS = "the language server needs pygls: pip install 'warcouncil[lsp]'"

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "warcouncil" / "rules"
TIMEOUT = 60

BROKEN = "rule house.one\n    require count(pieces) <= 3 and coutn(ordered) > 0\n"
# over cca, `camels` is a misspelt unit type; alone, `units` is no name at all
CAMELS = "rule house.no-camels\n    require forall u in units: u.type != camels and in_section(u, center)\n"
OVER = "# House rule: no camels.\n# over: cca\n" + CAMELS + "remove rule cca.no-detach-on-leadership\n"
CAMEL_PROBLEM = ("unknown name 'camels'\nhint: did you mean 'camel'?", 1, 41, 47)


class Session:
    """A client and the server it started, on one event loop."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.loop = asyncio.new_event_loop()
        self.client = LanguageClient("warcouncil-tests", "1")
        self.published: dict[str, asyncio.Queue] = {}
        self.versions: dict[str, int] = {}

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls, params: T.PublishDiagnosticsParams):
            self.queue(params.uri).put_nowait(params)

    def queue(self, uri: str) -> asyncio.Queue:
        return self.published.setdefault(uri, asyncio.Queue())

    def run(self, awaitable):
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, TIMEOUT))

    def start(self) -> T.InitializeResult:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.run(self.client.start_io(sys.executable, "-m", "warcouncil", "lsp", env=env, cwd=str(self.tmp)))
        result = self.run(self.client.initialize_async(T.InitializeParams(
            capabilities=T.ClientCapabilities(), process_id=os.getpid(), root_uri=self.tmp.as_uri())))
        self.client.initialized(T.InitializedParams())
        return result

    def stop(self) -> None:
        self.run(self.client.shutdown_async(None))
        self.client.exit(None)
        self.run(self.client.stop())
        self.loop.close()

    def diagnostics(self, uri: str) -> list[tuple]:
        """The next diagnostics published for ``uri``: (message, line,
        start, end, severity) each, ranges 0-based."""
        got = self.run(self.queue(uri).get())
        return [(d.message, d.range.start.line, d.range.start.character, d.range.end.character,
                 d.severity, d.source) for d in got.diagnostics
                if d.range.start.line == d.range.end.line]

    def open(self, path: Path, text: str | None = None) -> list[tuple]:
        if text is None:
            text = path.read_text(encoding="utf-8")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        self.versions[uri] = 1
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            text_document=T.TextDocumentItem(uri=uri, language_id="warcouncil", version=1, text=text)))
        return self.diagnostics(uri)

    def change(self, path: Path, changes: list) -> list[tuple]:
        uri = path.as_uri()
        self.versions[uri] += 1
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=changes))
        return self.diagnostics(uri)

    def hover(self, path: Path, line: int, character: int) -> str | None:
        got = self.run(self.client.text_document_hover_async(T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri=path.as_uri()), position=T.Position(line, character))))
        return None if got is None else got.contents.value

    def definition(self, path: Path, line: int, character: int) -> list[tuple]:
        got = self.run(self.client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=path.as_uri()), position=T.Position(line, character))))
        return [(loc.uri, loc.range.start.line, loc.range.start.character, loc.range.end.line,
                 loc.range.end.character) for loc in got or ()]

    def completion(self, path: Path, line: int, character: int) -> dict[str, T.CompletionItem]:
        got = self.run(self.client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=path.as_uri()), position=T.Position(line, character))))
        return {item.label: item for item in got.items}


@pytest.fixture(scope="module")
def lsp(tmp_path_factory):
    if LanguageClient is None:  # pragma: no cover
        pytest.skip(NO_PYGLS)
    tmp = tmp_path_factory.mktemp("lsp")
    session = Session(tmp)
    session.initialized = session.start()
    yield session
    session.stop()


ERROR = 1  # DiagnosticSeverity.Error


def test_without_pygls_the_verb_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # (as if not installed)
    r = CliRunner().invoke(cli.main, ["lsp"])
    assert (r.exit_code, r.output) == (2, NO_PYGLS + "\n")


def test_initialize_says_what_the_server_answers(lsp) -> None:
    caps = lsp.initialized.capabilities
    assert lsp.initialized.server_info.name == "warcouncil"
    assert caps.hover_provider is True and caps.definition_provider is True
    assert list(caps.completion_provider.trigger_characters) == ["."]
    assert caps.text_document_sync.open_close is True
    assert caps.text_document_sync.change == T.TextDocumentSyncKind.Incremental


def test_diagnostics_as_you_type(lsp) -> None:
    path = lsp.tmp / "alone" / "broken.wc"
    assert lsp.open(path, BROKEN) == [
        ("unknown function 'coutn'\nhint: did you mean 'count'?", 1, 35, 40, ERROR, "warcouncil lint")]
    # an edit of the word (incremental): clean
    fix = T.TextDocumentContentChangePartial(range=T.Range(T.Position(1, 35), T.Position(1, 40)), text="count")
    assert lsp.change(path, [fix]) == []
    # the whole text again, broken at the end: a syntax error where it stops
    whole = T.TextDocumentContentChangeWholeDocument(text="rule house.one\n    require count(pieces) <=\n")
    problems = lsp.change(path, [whole])
    assert [p[1:4] for p in problems] == [(1, 28, 28)]
    assert problems[0][0].startswith("unexpected end of file\nhint: expected ")


def test_a_burst_of_changes_is_linted_once_it_pauses(lsp) -> None:
    path = lsp.tmp / "alone" / "burst.wc"
    uri = path.as_uri()
    assert len(lsp.open(path, BROKEN)) == 1
    for end, text in ((40, "cou"), (38, "coun"), (39, "count")):
        lsp.versions[uri] += 1
        lsp.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=lsp.versions[uri]),
            content_changes=[T.TextDocumentContentChangePartial(
                range=T.Range(T.Position(1, 35), T.Position(1, end)), text=text)]))
    got = lsp.run(lsp.queue(uri).get())
    assert (got.version, list(got.diagnostics)) == (4, [])  # the last text's, alone
    lsp.hover(path, 1, 36)  # a round trip: what was published before its answer has arrived
    assert lsp.queue(uri).empty()


def test_a_house_rule_over_its_pack_by_its_header_line(lsp) -> None:
    alone = lsp.open(lsp.tmp / "alone" / "camels.wc", CAMELS)
    assert [p[0] for p in alone] == ["unknown name 'units'", "unknown name 'camels'\nhint: did you mean 'moves'?",
                                     "unknown function 'in_section'\nhint: did you mean 'position'?",
                                     "unknown name 'center'"]
    message, line, start, end = CAMEL_PROBLEM
    assert lsp.open(lsp.tmp / "over" / "camels.wc", OVER) == [
        (message, line + 2, start, end, ERROR, "warcouncil lint")]


def test_a_house_rule_over_its_pack_by_its_folder(lsp) -> None:
    """In a folder named after a shipped pack, or beside a scenario naming
    its ``system:``, a file is a house file over that pack."""
    expected = [(*CAMEL_PROBLEM, ERROR, "warcouncil lint")]
    assert lsp.open(lsp.tmp / "rules" / "cca" / "camels.wc", CAMELS) == expected
    table = lsp.tmp / "table"
    table.mkdir()
    (table / "akragas.yaml").write_text("name: Our Akragas\nsystem: cca\nboard: cca\n", encoding="utf-8")
    assert lsp.open(table / "camels.wc", CAMELS) == expected


def test_a_file_not_saved_yet_is_read_for_its_syntax(lsp) -> None:
    path = lsp.tmp / "new" / "unsaved.wc"  # no such file on disk
    uri = path.as_uri()
    lsp.versions[uri] = 1
    lsp.client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
        uri=uri, language_id="warcouncil", version=1, text="rule house.a require (true\n")))
    [(message, *place)] = lsp.diagnostics(uri)
    assert place == [0, 26, 26, ERROR, "warcouncil lint"] and message.startswith("unexpected end of file")
    assert not path.exists()


def test_a_lint_warning_is_a_warning(lsp) -> None:
    assert lsp.open(lsp.tmp / "over" / "doc.wc", '# over: cca\ndocument mine "notes.txt"\n') == [
        ("document mine has no title: answers in words name it by its file, notes.txt\n"
         'hint: give it the title players read: document mine "notes.txt" title "…"', 1, 0, 8, 2, "warcouncil lint")]


def test_an_unknown_pack_is_said_at_the_header_line(lsp) -> None:
    assert lsp.open(lsp.tmp / "nosuch" / "x.wc", "# over: ccx\nrule house.a require true\n") == [
        ("no rule pack or rule file 'ccx'\nhint: did you mean 'ccm'?", 0, 0, 11, ERROR, "warcouncil lint")]


def test_a_template_packs_file_is_linted_in_the_pack_that_extends_it(lsp) -> None:
    """core/10-ordering.wc reads `may_detach`, which each game defines: in
    cca, which extends core, it is clean."""
    assert lsp.open(RULES / "core" / "10-ordering.wc") == []


def test_hover(lsp) -> None:
    path = lsp.tmp / "over" / "camels.wc"  # opened above: OVER
    # a rule the file removes: the pack's
    assert lsp.hover(path, 4, 20) == (
        "`rule cca.no-detach-on-leadership`\n\nCCA rulebook — Unit Movement: “Note that a leader may not detach "
        "from a unit when a ‘Leadership’ Command card is played.”")
    # a define, by its name
    assert lsp.hover(path, 3, 60) == (
        "`define cca.dotted-line: in_section(p, s)`\n\nCCA rulebook — Order Units and Leaders: “Units or leaders "
        "on a hex with a dotted line running through it may be ordered from either section.”")
    # a builtin: its type and its meaning; a role's pool too
    assert lsp.hover(path, 3, 50) is None  # `and`
    assert lsp.hover(path, 3, 26) == "`units -> set[piece]`\n\nthe side's own units"
    alone = lsp.tmp / "alone" / "broken.wc"
    lsp.change(alone, [T.TextDocumentContentChangeWholeDocument(text=BROKEN.replace("coutn", "count"))])
    assert lsp.hover(alone, 1, 14) == "`count(set[any]) -> int`\n\nthe number of elements of a collection"
    # the rule the file adds: its id and its file (no citation)
    assert lsp.hover(path, 2, 8) == f"`rule house.no-camels`\n\n`{path}`"


def test_definition_of_a_define_used_in_a_house_file(lsp) -> None:
    path = lsp.tmp / "over" / "camels.wc"
    core = RULES / "core" / "10-ordering.wc"
    line = core.read_text(encoding="utf-8").split("\n")[10]
    assert line == "define core.dotted-line"
    assert lsp.definition(path, 3, 60) == [(core.as_uri(), 10, 0, 10, len(line))]
    # a unit type, in the pack's header
    lines = (RULES / "cca" / "00-pack.wc").read_text(encoding="utf-8").split("\n")
    at = next(i for i, t in enumerate(lines) if t.startswith("unit camel "))
    lsp.change(path, [T.TextDocumentContentChangePartial(range=T.Range(T.Position(3, 41), T.Position(3, 47)),
                                                         text="camel")])
    assert lsp.definition(path, 3, 43) == [((RULES / "cca" / "00-pack.wc").as_uri(), at, 0, at, len(lines[at]))]


def test_completion(lsp) -> None:
    path = lsp.tmp / "over" / "camels.wc"
    items = lsp.completion(path, 3, 12)
    assert {"count", "units", "sections_of", "in_section", "may_detach", "light_cavalry", "camel",
            "Line Command", "Order Three Units Center", "double_time", "center"} <= set(items)
    assert "camels" not in items and "move" not in items
    assert items["in_section"].detail == "define cca.dotted-line: in_section(p, s)"
    assert items["count"].detail == "count(set[any]) -> int"
    assert items["Line Command"].insert_text == '"Line Command"'
    # after a dot: the attributes
    attrs = lsp.completion(path, 3, 33)
    assert {"type", "move", "battle_move", "class", "kind", "effects"} <= set(attrs)
    assert "count" not in attrs


def test_hover_and_definition_of_a_card_a_unit_type_and_a_packs_builtin(lsp) -> None:
    path = lsp.tmp / "over" / "cards.wc"
    text = ('# over: cca\nrule house.x require card.name != "Line Command" and '
            "(forall u in units: u.type != camel and count(sections_of(u)) > 0)\n")
    assert lsp.open(path, text) == []
    line = text.split("\n")[1]
    assert lsp.hover(path, 1, line.index("Line Command") + 3) == (
        '`card "Line Command"`\n\n`orders: any units where it.kind == foot, linked | otherwise when '
        "may_fall_back(count({u in units where u.kind == foot})): up to 1 pieces where fallback_piece(it)`\n\n"
        "Commands & Colors: Ancients — reference facts: “any number of foot units forming one linked group; "
        "fallback rule”")
    assert lsp.hover(path, 1, line.index("camel") + 2) == (
        "`unit camel { kind = mounted; class = medium; move = 3; battle_move = 3; ranged = false; blocks = 3 }`"
        "\n\nCCA rulebook — Unit Movement: “Camel units are classed as Medium mounted units for the purposes of "
        "being ordered to move and taking hits.”")
    core = RULES / "core" / "00-core.wc"
    at = next(i for i, t in enumerate(core.read_text(encoding="utf-8").split("\n"))
              if t.startswith("builtin sections_of("))
    assert lsp.definition(path, 1, line.index("sections_of") + 4) == [
        (core.as_uri(), at, 0, at, len("builtin sections_of(cell) -> set[symbol] reads setting"))]
    assert lsp.definition(path, 1, line.index("count") + 1) == []  # the kernel's: no file
