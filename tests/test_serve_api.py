"""The referee service (`warcouncil serve`, warcouncil/serve/): every verb's
answer byte for byte the command line's ``--json``; bad input the command
line's one message with its status; requests that share nothing; no file of
the server's machine readable through a request; the game endpoint on each
shipped scenario against the game interface itself. Against a real server
on the loopback (tests/serve_util.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from serve_util import ROOT, server  # noqa: I001 - skips this module without the serve extra

import httpx  # noqa: E402

from warcouncil import cli  # noqa: E402
from warcouncil.errors import WarcouncilError  # noqa: E402

EXAMPLES = ROOT / "warcouncil" / "examples"
DATA = ROOT / "tests" / "data" / "cli"
HOUSE = EXAMPLES / "house"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One server for the module (two workers), started in a folder holding
    files a request must never reach."""
    cwd = tmp_path_factory.mktemp("server-cwd")
    (cwd / "secret.yaml").write_text("name: secret\nsystem: cca\n", encoding="utf-8")
    (cwd / "akragas").write_text("not the shipped scenario\n", encoding="utf-8")
    cache, tmp = tmp_path_factory.mktemp("cache"), tmp_path_factory.mktemp("tmp")
    with server(cwd, "--workers", "2", "--timeout", "60",
                env={"WARCOUNCIL_CACHE_DIR": str(cache), "TMPDIR": str(tmp)}) as (url, proc):
        with httpx.Client(base_url=url, timeout=120) as client:
            client.cache_dir, client.tmp_dir = cache, tmp
            yield client


def command_line(tmp_path: Path, monkeypatch, argv: list[str], files: dict[str, Path]) -> tuple[int, str]:
    """``warcouncil ARGV`` as a user runs it, in a folder holding ``files``
    (under the names the service gives a request's inline files)."""
    folder = tmp_path / "cli"
    folder.mkdir(exist_ok=True)
    for name, source in files.items():
        shutil.copyfile(source, folder / name)
    monkeypatch.chdir(folder)
    r = CliRunner().invoke(cli.main, argv, prog_name="warcouncil")
    return r.exit_code, r.stdout


# (request, the command line's arguments, the files the command line reads: name -> source)
# a request sends each file's text inline, under the key the contract gives it
VERBS = [
    ("orders", {"scenario": "akragas", "card": "Line Command", "count": True},
     ["orders", "akragas", "--card", "Line Command", "--count", "--json"], {}),
    ("orders", {"scenario": "akragas", "card": "Order Three Units Center", "limit": 5, "side": "carthaginian"},
     ["orders", "akragas", "--card", "Order Three Units Center", "--limit", "5", "--side", "carthaginian",
      "--json"], {}),
    ("orders", {"scenario": "practice_field", "card": "Order Two Units Left"},
     ["orders", "practice_field", "--card", "Order Two Units Left", "--json"], {}),
    ("orders", {"scenario": "ridgeway", "limit": 12},
     ["orders", "ridgeway", "--limit", "12", "--json"], {}),
    ("orders", {"scenario": "ridgeway", "after": "@partial_turn.yaml", "limit": 6},
     ["orders", "ridgeway", "--after", "after.yaml", "--limit", "6", "--json"],
     {"after.yaml": ROOT / "tests" / "data" / "serve" / "partial_turn.yaml"}),
    ("orders", {"scenario": "akragas", "card": "Order Three Units Center", "rules": ["@center_one.wc"]},
     ["orders", "akragas", "--card", "Order Three Units Center", "--rules", "rules-1.wc", "--json"],
     {"rules-1.wc": DATA / "center_one.wc"}),
    ("moves", {"scenario": "akragas", "card": "Order Three Units Center", "order": ["s4", "s5"]},
     ["moves", "akragas", "--card", "Order Three Units Center", "--order", "s4", "--order", "s5", "--json"], {}),
    ("moves", {"scenario": "akragas", "card": "Order Three Units Center", "order": "s1"},
     ["moves", "akragas", "--card", "Order Three Units Center", "--order", "s1", "--json"], {}),
    ("turns", {"scenario": "akragas", "card": "Order Two Units Left", "count": True},
     ["turns", "akragas", "--card", "Order Two Units Left", "--count", "--json"], {}),
    ("diff", {"scenario": "akragas", "card": "Order Three Units Center", "rules": ["@center_one.wc"], "limit": 3},
     ["diff", "akragas", "--card", "Order Three Units Center", "--rules", "rules-1.wc", "--limit", "3", "--json"],
     {"rules-1.wc": DATA / "center_one.wc"}),
    ("check", {"scenario": "akragas", "turn": "@legal_turn.yaml"},
     ["check", "akragas", "turn.yaml", "--json"], {"turn.yaml": DATA / "legal_turn.yaml"}),
    ("check", {"scenario": "akragas", "turn": "@illegal_turn.yaml"},
     ["check", "akragas", "turn.yaml", "--json"], {"turn.yaml": DATA / "illegal_turn.yaml"}),
    ("check", {"scenario": "ridgeway", "turn": "@turn.yaml"},
     ["check", "ridgeway", "turn.yaml", "--json"], {"turn.yaml": EXAMPLES / "warmaster" / "logs" / "turn.yaml"}),
    ("check", {"scenario": "alesia", "turn": "@turn.yaml"},
     ["check", "alesia", "turn.yaml", "--json"], {"turn.yaml": EXAMPLES / "grid-ancients" / "alesia" / "turn.yaml"}),
    ("check", {"scenario": "alesia", "turn": "@illegal-turn.yaml"},
     ["check", "alesia", "turn.yaml", "--json"],
     {"turn.yaml": EXAMPLES / "grid-ancients" / "alesia" / "illegal-turn.yaml"}),
    ("check", {"scenario_text": "@akragas.yaml", "turn": "@legal_turn.yaml"},
     ["check", "scenario.yaml", "turn.yaml", "--json"],
     {"scenario.yaml": EXAMPLES / "cca" / "akragas.yaml", "turn.yaml": DATA / "legal_turn.yaml"}),
    ("odds", {"scenario": "ridgeway", "plan": "@plan.yaml"},
     ["odds", "ridgeway", "question.yaml", "--json"], {"question.yaml": EXAMPLES / "warmaster" / "logs" / "plan.yaml"}),
    ("odds", {"scenario": "alesia", "test": "@combat.yaml"},
     ["odds", "alesia", "question.yaml", "--json"],
     {"question.yaml": EXAMPLES / "grid-ancients" / "alesia" / "combat.yaml"}),
    ("plan", {"scenario": "ridgeway", "wants": "@wants.yaml"},
     ["plan", "ridgeway", "wants.yaml", "--json"], {"wants.yaml": EXAMPLES / "warmaster" / "logs" / "wants.yaml"}),
    ("activations", {"scenario": "alesia"}, ["activations", "alesia", "--json"], {}),
    ("activations", {"scenario": "alesia", "side": "gauls"}, ["activations", "alesia", "--side", "gauls", "--json"],
     {}),
    ("lint", {"rules": ["@light-cavalry-5.wc"], "over": "cca"},
     ["lint", "rules-1.wc", "--over", "cca", "--json"], {"rules-1.wc": HOUSE / "light-cavalry-5.wc"}),
    ("lint", {"rules": ["@bad_syntax.wc", "@two_errors.wc"]},
     ["lint", "rules-1.wc", "rules-2.wc", "--json"],
     {"rules-1.wc": DATA / "bad_syntax.wc", "rules-2.wc": DATA / "two_errors.wc"}),
    ("cards", {"scenario": "akragas"}, ["cards", "akragas", "--json"], {}),
    ("cards", {"scenario": "practice_field", "rules-text": True},
     ["cards", "practice_field", "--rules-text", "--json"], {}),
    ("schema", {"system": "cca", "kind": "scenario"}, ["schema", "cca", "scenario", "--json"], {}),
    ("schema", {"system": "warmaster", "kind": "turn"}, ["schema", "warmaster", "turn"], {}),
    ("schema", {"system": "grid-ancients", "kind": "test", "rules": []}, ["schema", "grid-ancients", "test"], {}),
]


def _inline(body: dict, files: dict[str, Path]) -> dict:
    """``@NAME`` in a request replaced by the text of the file of that name."""
    by_name = {p.name: p for p in files.values()}

    def text(v):
        if isinstance(v, str) and v.startswith("@"):
            return by_name[v[1:]].read_text(encoding="utf-8")
        if isinstance(v, list):
            return [text(x) for x in v]
        return v

    return {k: text(v) for k, v in body.items()}


#: the verbs the service answers: every one whose answer is JSON (--json)
SERVED = {name for name, cmd in cli.main.commands.items() if any(p.name == "as_json" for p in cmd.params)}


def test_every_verb_is_served() -> None:
    """The cases below reach every verb the service answers; the verbs it does not answer are those that
    run something else (a batch of verbs, this service, a language server over standard input)."""
    assert {v for v, *_ in VERBS} == SERVED
    assert {"batch", "serve"} <= set(cli.main.commands) - SERVED <= {"batch", "serve", "lsp"}


@pytest.mark.parametrize("verb,body,argv,files", VERBS, ids=[f"{v}-{i}" for i, (v, *_) in enumerate(VERBS)])
def test_a_verb_answers_as_the_command_line(served, tmp_path, monkeypatch, verb, body, argv, files) -> None:
    code, out = command_line(tmp_path, monkeypatch, argv, files)
    r = served.post(f"/api/{verb}", json=_inline(body, files))
    assert r.content.decode("utf-8") == out  # byte for byte
    assert r.status_code == (400 if code == 2 else 200)
    assert r.headers["content-type"] == "application/json"
    assert r.headers["x-warcouncil-exit"] == str(code)
    assert code in (0, 1) and json.loads(out)  # each case is an answer, not an error


def test_the_answers_that_say_no_are_answers(served) -> None:
    """Exit 1 (an illegal turn, lint errors) is an answer: 200, its exit in the header."""
    r = served.post("/api/check", json={"scenario": "akragas",
                                        "turn": (DATA / "illegal_turn.yaml").read_text(encoding="utf-8")})
    assert (r.status_code, r.headers["x-warcouncil-exit"], r.json()["legal"]) == (200, "1", False)
    r = served.post("/api/check", json={"scenario": "akragas",
                                        "turn": (DATA / "legal_turn.yaml").read_text(encoding="utf-8")})
    assert (r.status_code, r.headers["x-warcouncil-exit"], r.json()["legal"]) == (200, "0", True)


# ------------------------------------------------------------------ bad input

def _doc(message: str, hint: str | None = None, file: str | None = None, line: int | None = None,
         column: int | None = None) -> dict:
    return {"error": {"message": message, "file": file, "line": line, "column": column, "hint": hint}}


NOT_A_PATH = "send the file's content in the request"

# (what is wrong, verb, request: JSON or raw bytes, status, the one error document)
BAD = [
    ("not JSON", "orders", b"{not json", 400,
     _doc("the request is not JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)")),
    ("not an object", "orders", b"[1, 2]", 422, _doc("the request is a JSON object: {\"scenario\": ..., ...}")),
    ("not UTF-8", "orders", b"\xff\xfe{}", 400,
     _doc("the request is not UTF-8 text: byte 0xff at offset 0 cannot be decoded")),
    ("nested too deeply", "orders", b"[" * 100_000 + b"]" * 100_000, 400,
     _doc("the request is not JSON: nested too deeply")),
    ("larger than a file may be", "orders", {"scenario": "akragas", "card": "x" * (1 << 20)}, 413,
     _doc("the request is too large: 1,048,608 bytes, the limit is 1 MiB")),
    ("unknown verb", "ordres", {}, 404, _doc("unknown verb 'ordres'", "did you mean 'orders'?")),
    ("a verb that is not served", "batch", {}, 404, _doc(
        "`batch` is not served: it runs something else, and its answer is not JSON",
        "the service answers: " + ", ".join(sorted(SERVED)))),
    ("unknown option", "orders", {"scenario": "akragas", "cardd": "Line Command"}, 422,
     _doc("`orders` takes no \"cardd\"", "did you mean 'card'? it takes: after, card, command, copies, count, "
          "engine, limit, roll, rules, scenario, scenario_text, side")),
    ("a flag that is no boolean", "orders", {"scenario": "akragas", "card": "Line Command", "count": "yes"}, 422,
     _doc("\"count\" is true or false")),
    ("a list for one value", "orders", {"scenario": "akragas", "card": "Line Command", "limit": [1]}, 422,
     _doc("\"limit\" takes one value (a string or a number)")),
    ("no scenario", "orders", {"card": "Line Command"}, 422,
     _doc("the scenario is missing: \"scenario\" (a shipped name or a scenario object) or \"scenario_text\" "
          "(its YAML text)")),
    ("a scenario that is a number", "orders", {"scenario": 7}, 422,
     _doc("\"scenario\" is a shipped scenario's name or a scenario object; \"scenario_text\" a scenario file's "
          "YAML text")),
    ("two scenarios", "orders", {"scenario": "akragas", "scenario_text": "x: 1"}, 422,
     _doc("give the scenario once: \"scenario\" (a shipped name or a scenario object) or \"scenario_text\" "
          "(its YAML text)")),
    ("no turn", "check", {"scenario": "akragas"}, 422,
     _doc("`check` needs \"turn\" (a JSON object, or the file's YAML text)")),
    ("an option that writes a file", "orders", {"scenario": "akragas", "card": "Line Command", "svg": "x.svg"}, 400,
     _doc("the service writes and reads no file of its machine: --svg is for the command line",
          "the board is drawn by POST /api/game (its \"svg\")")),
    ("an unknown game key", "game", {"scenario": "akragas", "optoins": {}}, 422,
     _doc("the game takes no \"optoins\"",
          "did you mean 'options'? it takes: scenario, scenario_text, rules, options, actions, apply, select")),
    ("malformed actions", "game", {"scenario": "akragas", "actions": "nope"}, 422,
     _doc("\"actions\" is a list of actions, each an object with a \"kind\"")),
    ("an action list with an illegal action", "game",
     {"scenario": "akragas", "options": {"card": "Line Command"},
      "actions": [{"kind": "order_set", "units": ["s1", "s9"], "leaders": []}]}, 400,
     _doc("action 1 of \"actions\" is refused: cca.order-eligible: s1 cannot be ordered by this card (and 2 more)",
          "the actions are those played so far, each legal where it was played")),
    ("an unknown turn option", "game", {"scenario": "akragas", "options": {"cardd": "Line Command"}}, 400,
     _doc("new_state() takes no option 'cardd' for Commands & Colors", "it takes: card")),
    ("a house rule that does not parse (game)", "game", {"scenario": "akragas", "rules": ["rule x"]}, 400,
     _doc("unexpected 'x'", "expected a rule id like cca.some-rule", "rules-1.wc", 1, 6)),
    ("a method the endpoint has not", "GET orders", None, 405, _doc("Method Not Allowed")),
]


def _post(client, verb: str, request):
    if verb.startswith("GET "):
        return client.get(f"/api/{verb[4:]}")
    if isinstance(request, bytes):
        return client.post(f"/api/{verb}", content=request, headers={"content-type": "application/json"})
    return client.post(f"/api/{verb}", json=request)


@pytest.mark.parametrize("what,verb,request_,status,doc", BAD, ids=[b[0] for b in BAD])
def test_bad_input_found_by_the_service(served, what, verb, request_, status, doc) -> None:
    r = _post(served, verb, request_)
    assert (r.status_code, r.json()) == (status, doc)
    assert r.headers["content-type"] == "application/json"


# (what is wrong, request, the command line's arguments, its files): the command line's own message, byte for byte
BAD_AS_THE_COMMAND_LINE = [
    ("unknown scenario", "orders", {"scenario": "akragass", "card": "Line Command"},
     ["orders", "akragass", "--card", "Line Command", "--json"], {}, "unknown scenario 'akragass': no such file, "
     "and no shipped scenario of that name (shipped: akragas, alesia, practice_field, ridgeway)"),
    ("unknown card", "orders", {"scenario": "akragas", "card": "Line Comand"},
     ["orders", "akragas", "--card", "Line Comand", "--json"], {},
     "unknown card 'Line Comand' for Commands & Colors: Ancients"),
    ("an option's value out of range", "orders", {"scenario": "akragas", "card": "Line Command", "limit": -1},
     ["orders", "akragas", "--card", "Line Command", "--limit", "-1", "--json"], {},
     "Invalid value for '--limit': -1 is not in the range x>=0."),
    ("a turn with an unknown key", "check", {"scenario": "akragas", "turn": "card: Line Command\nordres: [s1]\n"},
     ["check", "akragas", "turn.yaml", "--json"], {"turn.yaml": "card: Line Command\nordres: [s1]\n"},
     "unknown key 'ordres' in turn file"),
    ("malformed YAML", "check", {"scenario_text": "name: x\nsystem: cca\nsides: [\n", "turn": {"card": "x"}},
     ["check", "scenario.yaml", "turn.yaml", "--json"],
     {"scenario.yaml": "name: x\nsystem: cca\nsides: [\n", "turn.yaml": '{"card": "x"}'},
     "malformed YAML: did not find expected node content (while parsing a flow node)"),
    ("a house rule that does not parse", "orders",
     {"scenario": "akragas", "card": "Line Command", "rules": [(DATA / "bad_syntax.wc").read_text()]},
     ["orders", "akragas", "--card", "Line Command", "--rules", "rules-1.wc", "--json"],
     {"rules-1.wc": (DATA / "bad_syntax.wc").read_text()}, "unexpected 'orders'"),
    ("a verb the system does not answer", "cards", {"scenario": "ridgeway"}, ["cards", "ridgeway", "--json"], {},
     "`cards` makes no sense for Warmaster scenarios"),
    ("a scenario with an unknown unit type", "orders",
     {"scenario_text": (DATA / "bad_unit_type.yaml").read_text(), "card": "Line Command"},
     ["orders", "scenario.yaml", "--card", "Line Command", "--json"],
     {"scenario.yaml": (DATA / "bad_unit_type.yaml").read_text()}, None),
]


@pytest.mark.parametrize("what,verb,request_,argv,files,message", BAD_AS_THE_COMMAND_LINE,
                         ids=[b[0] for b in BAD_AS_THE_COMMAND_LINE])
def test_bad_input_found_by_the_command_line(served, tmp_path, monkeypatch, what, verb, request_, argv, files,
                                             message) -> None:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    code, out = command_line(tmp_path, monkeypatch, argv, {n: tmp_path / n for n in files})
    r = _post(served, verb, request_)
    assert (code, r.status_code, r.headers["x-warcouncil-exit"]) == (2, 400, "2")
    assert r.content.decode("utf-8") == out
    if message is not None:
        assert r.json()["error"]["message"] == message
    assert "Traceback" not in r.text


# ------------------------------------------------------------------ no file of the server's machine

PATHS = [
    ("an absolute scenario path", "orders", {"scenario": "/etc/passwd"},
     _doc("the service reads no file of its machine: a scenario is sent as its text, not a path ('/etc/passwd')",
          NOT_A_PATH)),
    ("a file in the server's folder", "orders", {"scenario": "secret.yaml", "card": "Line Command"},
     _doc("the service reads no file of its machine: a scenario is sent as its text, not a path ('secret.yaml')",
          NOT_A_PATH)),
    ("a relative path", "game", {"scenario": "../secret"},
     _doc("the service reads no file of its machine: a scenario is sent as its text, not a path ('../secret')",
          NOT_A_PATH)),
    ("a rule file's path", "orders", {"scenario": "akragas", "card": "Line Command", "rules": ["/etc/passwd"]},
     _doc("the service reads no file of its machine: a house rule is sent as its text, not a path ('/etc/passwd')",
          NOT_A_PATH)),
    ("a rule file's name", "game", {"scenario": "akragas", "rules": ["house.wc"]},
     _doc("the service reads no file of its machine: a house rule is sent as its text, not a path ('house.wc')",
          NOT_A_PATH)),
    ("a turn file's name", "check", {"scenario": "akragas", "turn": "turn.yaml"},
     _doc("the service reads no file of its machine: \"turn\" is sent as its text, not a path ('turn.yaml')",
          NOT_A_PATH)),
    ("a Warmaster log's path", "orders", {"scenario": "ridgeway", "after": "/work/logs/turn.yaml"},
     _doc("the service reads no file of its machine: \"after\" is sent as its text, not a path "
          "('/work/logs/turn.yaml')", NOT_A_PATH)),
    ("a pack's folder", "lint", {"rules": ["change unit light_cavalry { move = 5 }"], "over": "../rules"},
     _doc("the service reads no file of its machine: \"over\" is sent as its text, not a path ('../rules')",
          NOT_A_PATH)),
    ("a system's folder", "schema", {"system": "/etc", "kind": "scenario"},
     _doc("the service reads no file of its machine: \"system\" is sent as its text, not a path ('/etc')",
          NOT_A_PATH)),
    ("documents read from a folder", "lint",
     {"rules": ["change unit light_cavalry { move = 5 }"], "allow-documents": ["/etc"]},
     _doc("the service writes and reads no file of its machine: --allow-documents is for the command line",
          "house rules cite the shipped documents, or documents sent with them")),
    ("a file written", "check", {"scenario": "akragas", "turn": {"card": "Line Command"}, "write-next": "n.yaml"},
     _doc("the service writes and reads no file of its machine: --write-next is for the command line",
          "the next scenario is POST /api/game's \"scenario_after_yaml\"")),
    ("rule files named by an inline scenario", "orders",
     {"scenario": {"name": "x", "system": "cca", "rules": ["../../secret.wc"]}, "card": "Line Command"},
     _doc("a scenario sent to the service names no rule files: send the house rules' text in the request's "
          "\"rules\"", file="scenario.yaml", line=1, column=41)),
    ("rule files named by an inline scenario's text", "game",
     {"scenario_text": "name: x\nsystem: cca\nrules: /etc/passwd\n"},
     _doc("a scenario sent to the service names no rule files: send the house rules' text in the request's "
          "\"rules\"", file="scenario.yaml", line=3, column=8)),
    ("a pack folder named by an inline scenario", "orders",
     {"scenario": {"name": "x", "system": "../../../etc"}, "card": "Line Command"},
     _doc("the service reads no file of its machine: `system:` names a shipped rule pack, not '../../../etc'",
          file="scenario.yaml", line=1, column=25)),
]


@pytest.mark.parametrize("what,verb,request_,doc", PATHS, ids=[p[0] for p in PATHS])
def test_no_file_of_the_server_is_read(served, what, verb, request_, doc) -> None:
    r = served.post(f"/api/{verb}", json=request_)
    assert (r.status_code, r.json()) == (400, doc)


def test_a_document_outside_the_request_is_not_read(served) -> None:
    """A house rule citing a file of the machine as its document: lint says it cannot read it (its own
    guard: only the rule file's folder, here the request's own), and nothing of the file comes back."""
    rule = 'document leak "../../../../../../../../etc/passwd"\n\nrule house.leak\n    from leak "root"\n' \
           '    require true\n'
    r = served.post("/api/lint", json={"rules": [rule], "over": "cca"})
    assert r.status_code == 200 and r.headers["x-warcouncil-exit"] == "1"
    assert r.json()["errors"] == [{
        "file": "rules-1.wc", "line": 4, "column": 5, "hint": None,
        "message": "cannot read document '../../../../../../../../etc/passwd' cited by house.leak (it is outside ., "
                   "the folder of the rule file that declares it; `lint --allow-documents DIR` allows another folder)"}]
    assert "root:" not in r.text


def test_a_name_is_a_shipped_scenario_whatever_the_server_folder_holds(served, tmp_path, monkeypatch) -> None:
    """The server runs in a folder holding a file named `akragas`: a request's `akragas` is still the
    shipped scenario (each request runs in a folder of its own)."""
    code, out = command_line(tmp_path, monkeypatch, ["cards", "akragas", "--json"], {})
    r = served.post("/api/cards", json={"scenario": "akragas"})
    assert (code, r.status_code, r.text) == (0, 200, out)


# ------------------------------------------------------------------ nothing of one request in another

def test_house_rules_of_one_request_change_no_other(served, tmp_path, monkeypatch) -> None:
    """Requests with and without a house rule, many at once and in turn on the same two workers: each
    answer is the command line's for its own request."""
    from concurrent.futures import ThreadPoolExecutor

    house = (DATA / "center_one.wc").read_text(encoding="utf-8")
    argv = ["orders", "akragas", "--card", "Order Three Units Center", "--json"]
    _, plain = command_line(tmp_path, monkeypatch, argv, {})
    _, ruled = command_line(tmp_path, monkeypatch, argv[:-1] + ["--rules", "rules-1.wc", "--json"],
                            {"rules-1.wc": DATA / "center_one.wc"})
    assert json.loads(plain)["count"] == 26 and json.loads(ruled)["count"] == 6  # the rule does change the answer
    body = {"scenario": "akragas", "card": "Order Three Units Center"}

    def ask(i: int) -> tuple[int, str]:
        r = served.post("/api/orders", json={**body, "rules": [house]} if i % 2 else body)
        return i, r.text

    with ThreadPoolExecutor(8) as ex:
        answers = list(ex.map(ask, range(40)))
    assert [text for _, text in answers] == [ruled if i % 2 else plain for i, _ in answers]


def test_an_inline_scenario_is_its_own_request_s_only(served) -> None:
    """A scenario sent inline is written in its request's folder; the next request naming the file it
    was written to finds no such thing."""
    text = (EXAMPLES / "cca" / "akragas.yaml").read_text(encoding="utf-8").replace("name: Akragas 406 BC",
                                                                                    "name: Elsewhere")
    r = served.post("/api/orders", json={"scenario_text": text, "card": "Line Command", "count": True})
    assert (r.status_code, r.json()["count"]) == (200, 41)
    r = served.post("/api/orders", json={"scenario": "scenario", "card": "Line Command", "count": True})
    assert r.status_code == 400
    assert r.json()["error"]["message"].startswith("unknown scenario 'scenario': no such file")


# ------------------------------------------------------------------ the game endpoint

# (scenario, the turn's options, actions played first, an illegal action with the rule that refuses it)
GAMES = [
    ("akragas", {"card": "Line Command"}, [],
     {"kind": "order_set", "units": ["s1", "s9"], "leaders": []}, "cca.order-eligible"),
    ("practice_field", {}, [{"kind": "card", "card": "Order Two Units Left"}],
     {"kind": "order_set", "units": ["c1", "c2", "c3"], "leaders": []}, "ccm.order-eligible"),
    ("ridgeway", {}, [], {"kind": "initiative", "unit": "r1", "action": "charge", "to": [100, 70]},
     "wm.initiative-closest"),
    ("alesia", {}, [], {"kind": "activate", "unit": "r1", "option": "combat", "target": "g4"},
     "ga.combat-needs-enemy-in-front"),
]


def _described(state) -> dict:
    """What the game endpoint says of ``state``, made here with the game interface itself."""
    import yaml

    from warcouncil import TERMINAL

    def dump(data):
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)

    try:
        svg = state.svg(None)
    except WarcouncilError:  # a system that draws no board: null
        svg = None
    player = state.current_player()
    return {"player": player, "actions": state.history(),
            "legal_actions": [{**a, "pieces": state.pieces_of(a)} for a in state.legal_actions()],
            "chance_outcomes": [{"action": a, "p": str(p)} for a, p in state.chance_outcomes()],
            "log": state.log(), "log_yaml": dump(state.log()),
            "scenario_after_yaml": dump(state.scenario_after()) if player == TERMINAL else None, "svg": svg}


@pytest.mark.parametrize("name,options,first,illegal,rule", GAMES, ids=[g[0] for g in GAMES])
def test_the_game_endpoint_is_the_game_interface(served, name, options, first, illegal, rule) -> None:
    import warcouncil

    state = warcouncil.load_game(name).new_state(**options)
    for action in first:
        state.apply(action)
    body = {"scenario": name, "options": options, "actions": first}
    r = served.post("/api/game", json=body)
    assert r.status_code == 200
    got = r.json()
    assert got.pop("refused") is None
    assert got == _described(state)
    assert got["legal_actions"] and any(a["pieces"] for a in got["legal_actions"])
    assert {json.dumps(a, sort_keys=True) for a in state.legal_actions()} == {
        json.dumps({k: v for k, v in a.items() if k != "pieces"}, sort_keys=True) for a in got["legal_actions"]}

    # a piece selected: the board with its destinations marked, as State.svg draws it
    piece = next(p for a in got["legal_actions"] for p in a["pieces"])
    r = served.post("/api/game", json={**body, "select": piece})
    try:
        drawn = state.svg(piece)
    except WarcouncilError:  # a system that draws no board: null
        drawn = None
    assert (r.status_code, r.json()["svg"]) == (200, drawn)

    # an illegal action: refused with the rule and its sentence, the state as it was
    r = served.post("/api/game", json={**body, "apply": illegal})
    assert r.status_code == 200
    refused = r.json()
    why = refused.pop("refused")
    assert refused == got
    assert rule in {v["rule"] for v in why["violations"]}
    with pytest.raises(warcouncil.IllegalAction) as e:
        state.apply(illegal)
    assert why["message"] == e.value.message
    pack = state.game.engine.pack
    assert why["violations"] == [{**v, "document": pack.document_name(v["source"])} for v in e.value.violations]
    assert all(v["quote"] and v["document"] for v in why["violations"])

    # a legal one: played, the next state described
    legal = state.legal_actions()[-1]
    r = served.post("/api/game", json={**body, "apply": legal})
    state.apply(legal)
    after = r.json()
    assert after.pop("refused") is None
    assert after == _described(state)
    assert after["actions"][-1] == state.history()[-1] and len(after["actions"]) == len(first) + 1


def test_a_turn_played_to_its_end_gives_the_turn_file_and_the_next_scenario(served) -> None:
    """Alesia's turn played action by action through the endpoint (the page's way: the list of actions
    grows, every request replays it) until it is over; at chance nodes the first outcome is taken. The
    log it gives is legal for `check`, and the next scenario is the game interface's."""
    import warcouncil

    state = warcouncil.load_game("alesia").new_state()
    actions: list = []
    for _ in range(40):
        got = served.post("/api/game", json={"scenario": "alesia", "actions": actions}).json()
        if got["player"] == "terminal":
            break
        if got["player"] == "chance":
            assert sum(__import__("fractions").Fraction(o["p"]) for o in got["chance_outcomes"]) == 1
            action = got["chance_outcomes"][0]["action"]
        else:
            action = {k: v for k, v in got["legal_actions"][0].items() if k != "pieces"}
        actions.append(action)
        state.apply(action)
    assert got["player"] == "terminal" and got["scenario_after_yaml"]
    assert got == {**_described(state), "refused": None}
    r = served.post("/api/check", json={"scenario": "alesia", "turn": got["log_yaml"]})
    assert (r.status_code, r.headers["x-warcouncil-exit"], r.json()["legal"]) == (200, "0", True)
    # the next turn, from the scenario it gave (sent as a scenario file's text)
    nxt = served.post("/api/game", json={"scenario_text": got["scenario_after_yaml"]}).json()
    import yaml

    from warcouncil.kernel.engine import Engine

    engine = Engine.load_data(yaml.safe_load(got["scenario_after_yaml"]), "scenario.yaml")
    assert nxt == {**_described(warcouncil.Game(engine, "scenario.yaml").new_state()), "refused": None}
    assert nxt["player"] == "gauls"


def test_the_description_names_every_endpoint_and_its_options(served) -> None:
    doc = served.get("/openapi.json").json()
    paths = doc["paths"]
    assert set(paths) == {"/api/scenarios", "/api/game"} | {f"/api/{v}" for v in SERVED}
    orders = paths["/api/orders"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(orders["properties"]) == {"scenario", "scenario_text", "card", "count", "limit", "side", "roll",
                                         "copies", "command", "engine", "after", "rules"}
    assert orders["properties"]["engine"] == {"type": "string", "enum": ["fast", "csp"], "description":
                                              "fast: the structural enumerator; csp: plain python-constraint "
                                              "search (reference, slow)."}
    assert orders["properties"]["count"]["type"] == "boolean" and orders["properties"]["limit"]["type"] == "integer"
    check = paths["/api/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert set(check["properties"]) == {"scenario", "scenario_text", "turn", "rules"}
    assert set(paths["/api/game"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]) \
        == {"scenario", "scenario_text", "rules", "options", "actions", "apply", "select"}


def test_the_shipped_scenarios(served) -> None:
    assert served.get("/api/scenarios").json() == {"scenarios": [
        {"name": "akragas", "system": "cca", "title": "Akragas 406 BC", "system_title": "Commands & Colors"},
        {"name": "practice_field", "system": "ccm",
         "title": "Practice field (illustrative, not a published scenario)", "system_title": "Commands & Colors"},
        {"name": "alesia", "system": "grid-ancients", "title": "alesia", "system_title": "Square-grid ancients"},
        {"name": "ridgeway", "system": "warmaster", "title": "ridgeway", "system_title": "Warmaster"}]}


def test_without_the_extra_the_verb_says_what_to_install(monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if it were not installed
    r = CliRunner().invoke(cli.main, ["serve"], prog_name="warcouncil")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == "serve needs uvicorn, of the optional extra serve\nhint: pip install 'warcouncil[serve]'\n"


def test_the_page_and_its_files_are_served_and_nothing_beside_them(served) -> None:
    """`GET /` is warcouncil/serve/static/index.html (the page's own folder; a 404 with one message
    while it is not installed), `GET /static/NAME` a file of that folder, and no name reaches out of it."""
    static = ROOT / "warcouncil" / "serve" / "static"
    r = served.get("/")
    if (static / "index.html").is_file():
        assert (r.status_code, r.content) == (200, (static / "index.html").read_bytes())
    else:
        assert (r.status_code, r.json()) == (404, _doc(
            "the board page is not installed (warcouncil/serve/static/index.html)"))
    for f in sorted(static.glob("*"))[:3] if static.is_dir() else []:
        if f.is_file():
            assert served.get(f"/static/{f.name}").content == f.read_bytes()
    for sneaky in ("/static/%2e%2e/app.py", "/static/..%2fapp.py", "/static/%2e%2e/%2e%2e/__init__.py",
                   "/static//etc/passwd"):
        r = served.get(sneaky)
        assert r.status_code == 404 and "import" not in r.text and "root:" not in r.text, sneaky


def test_a_request_near_the_limit(served, tmp_path, monkeypatch) -> None:
    """A scenario of 1000 KiB (under the 1 MiB limit: a long comment) fills the worker's pipe many times
    over on its way: answered as the command line answers it."""
    text = (EXAMPLES / "cca" / "akragas.yaml").read_text(encoding="utf-8") + "# " + "x" * (1000 * 1024 - 2000) + "\n"
    (tmp_path / "big.yaml").write_text(text, encoding="utf-8")
    code, out = command_line(tmp_path, monkeypatch, ["cards", "scenario.yaml", "--json"],
                             {"scenario.yaml": tmp_path / "big.yaml"})
    r = served.post("/api/cards", json={"scenario_text": text})
    assert (code, r.status_code, r.text) == (0, 200, out)


def test_a_request_sent_in_chunks_is_bounded_as_it_comes(served) -> None:
    """Without a Content-Length (chunked), the body is read only up to the limit."""
    def chunks():
        yield b'{"scenario": "akragas", "card": "'
        for _ in range(20):
            yield b"x" * 65536
        yield b'"}'

    r = served.post("/api/cards", content=chunks(), headers={"content-type": "application/json"})
    assert (r.status_code, r.json()) == (413, _doc("the request is too large: more than 1 MiB, the limit"))


def test_a_request_writes_nothing_outside_its_folder(served) -> None:
    """Rule files and scenarios never seen before leave nothing in the cache folder (each distinct
    request would otherwise add its parsed texts to it), nor does their folder outlive them."""
    import uuid

    def files():
        return sorted(str(p.relative_to(served.cache_dir)) for p in served.cache_dir.rglob("*"))

    before = files()
    mark = uuid.uuid4().hex
    house = f"# {mark}\n" + (DATA / "center_one.wc").read_text(encoding="utf-8")
    scenario = f"# {mark}\n" + (EXAMPLES / "cca" / "akragas.yaml").read_text(encoding="utf-8")
    r = served.post("/api/orders", json={"scenario_text": scenario, "card": "Order Three Units Center",
                                         "rules": [house], "count": True})
    assert (r.status_code, r.json()["count"]) == (200, 6)
    r = served.post("/api/check", json={"scenario": "akragas", "turn": f"# {mark}\n" + (DATA / "legal_turn.yaml")
                                        .read_text(encoding="utf-8")})
    assert r.status_code == 200 and r.json()["legal"] is True
    assert files() == before
    # the service's one folder, holding no request's
    assert [str(p.relative_to(served.tmp_dir)) for p in served.tmp_dir.rglob("*")] == [
        next(served.tmp_dir.glob("warcouncil-serve-*")).name]
