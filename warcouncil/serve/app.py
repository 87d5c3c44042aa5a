"""The referee service's HTTP side (FastAPI): requests read and bounded,
their inline texts written to a folder of their own, their work handed to
the pool (pool.py) and its answer sent back.

- ``GET /`` the board page (``static/index.html``), ``GET /static/...`` its files;
- ``GET /api/scenarios`` the shipped scenarios;
- ``POST /api/game`` a turn in play, replayed from its actions (the game interface);
- ``POST /api/<verb>`` every verb of the command line, its ``--json`` answer byte for byte;
- ``GET /openapi.json`` all of them described.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import tempfile
from pathlib import Path

import click
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import Location, closest, error_document
from ..textfile import YAML_LIMIT, _size
from .pool import Busy, Died, Pool, TimedOut
from .work import PLAIN_NAME, SCENARIO_FILE

STATIC = Path(__file__).parent / "static"

#: the largest request body: the limit of a scenario or turn file (textfile.py);
#: every inline text a request carries is then within its file's limit too
BODY_LIMIT = YAML_LIMIT


class ApiError(Exception):
    """Bad input found here, before any work: its status and its one message."""

    def __init__(self, status: int, message: str, hint: str | None = None, location: Location | None = None):
        super().__init__(message)
        self.status, self.message, self.hint, self.location = status, message, hint, location


def _error(status: int, message: str, hint: str | None = None, location: Location | None = None) -> Response:
    """Bad input as the command line's ``--json`` gives it (the same JSON, written the same way)."""
    return Response(json.dumps(error_document(message, location, hint), ensure_ascii=False), status_code=status,
                    media_type="application/json")


def refuse_path(what: str, value) -> ApiError:
    shown = value if len(value) <= 60 else value[:59] + "…"
    return ApiError(400, f"the service reads no file of its machine: {what} is sent as its text, not a path "
                         f"({shown!r})", hint="send the file's content in the request")


# ------------------------------------------------------------------ the verbs

def verbs(group: click.Group) -> dict[str, click.Command]:
    """The command line's verbs the service answers: every one whose answer
    is JSON (``--json``); not those that run something else (``batch``,
    ``serve``). Each as the command line gets it (``get_command``: with all
    of its options)."""
    ctx = click.Context(group)
    found = (group.get_command(ctx, name) for name in group.list_commands(ctx))
    return {cmd.name: cmd for cmd in found if cmd is not None and any(p.name == "as_json" for p in cmd.params)}


#: a verb's file arguments and the request keys that carry them inline,
#: with the name each is written under in the request's folder
FILE_ARGUMENTS = {
    "turn": (("turn",), "turn.yaml"),
    "question": (("plan", "test", "question"), "question.yaml"),
    "wants": (("wants",), "wants.yaml"),
}
#: options naming files the service never reads or writes
NO_FILE_OPTIONS = {
    "svg_path": "the board is drawn by POST /api/game (its \"svg\")",
    "write_next": "the next scenario is POST /api/game's \"scenario_after_yaml\"",
    "allow_documents": "house rules cite the shipped documents, or documents sent with them",
}
#: options whose value is a file, sent inline (its name in the request's folder)
FILE_OPTIONS = {"after": "after.yaml"}
#: options whose value is a shipped rule pack's name
PACK_OPTIONS = ("base",)


def _option_keys(cmd: click.Command) -> dict[str, click.Option]:
    keys = {}
    for p in cmd.params:
        if isinstance(p, click.Option) and p.name != "as_json":
            for o in p.opts:
                if o.startswith("--"):
                    keys[o[2:]] = p
                    keys[o[2:].replace("-", "_")] = p
            keys[p.name] = p
    return keys


def _request_keys(cmd: click.Command) -> list[str]:
    """The keys a verb's request may have, in alphabetical order."""
    keys: list[str] = []
    for p in cmd.params:
        if isinstance(p, click.Argument):
            if p.name == "scenario":
                keys += ["scenario", "scenario_text"]
            elif p.name in FILE_ARGUMENTS:
                keys += list(FILE_ARGUMENTS[p.name][0])
            elif p.name == "paths":
                keys.append("rules")
            else:
                keys.append(p.name.removesuffix("_name"))
        elif p.name != "as_json" and p.name not in NO_FILE_OPTIONS:
            keys.append(p.opts[0].lstrip("-"))
    return sorted(keys)


class Folder:
    """A request's own folder, holding its inline texts."""

    def __init__(self, root: str) -> None:
        self.path = tempfile.mkdtemp(prefix="request-", dir=root)
        self.scenario_file: str | None = None

    def write(self, name: str, text: str) -> str:
        with open(os.path.join(self.path, name), "w", encoding="utf-8") as f:
            f.write(text)
        return name

    def remove(self) -> None:
        shutil.rmtree(self.path, ignore_errors=True)

    # -------------------------------------------------------------- what a request sends
    def scenario(self, body: dict) -> str:
        """The scenario argument: a shipped name, or the inline scenario's file."""
        given = [k for k in ("scenario", "scenario_text") if body.get(k) is not None]
        if len(given) > 1:
            raise ApiError(422, "give the scenario once: \"scenario\" (a shipped name or a scenario object) "
                                "or \"scenario_text\" (its YAML text)")
        if not given:
            raise ApiError(422, "the scenario is missing: \"scenario\" (a shipped name or a scenario object) or "
                                "\"scenario_text\" (its YAML text)")
        value = body[given[0]]
        if given[0] == "scenario" and isinstance(value, str):
            if not PLAIN_NAME.fullmatch(value):
                raise refuse_path("a scenario", value)
            return value
        if given[0] == "scenario" and isinstance(value, dict):
            text = json.dumps(value, ensure_ascii=False)
        elif given[0] == "scenario_text" and isinstance(value, str):
            text = value
        else:
            raise ApiError(422, "\"scenario\" is a shipped scenario's name or a scenario object; \"scenario_text\" "
                                "a scenario file's YAML text")
        self.scenario_file = self.write(SCENARIO_FILE, text)
        return self.scenario_file

    def rules(self, value, key: str = "rules") -> list[str]:
        """House-rule texts, each written to a file of its own."""
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ApiError(422, f"\"{key}\" is a list of rule texts (each the content of a .wc file)")
        names = []
        for i, text in enumerate(value, 1):
            stripped = text.strip()
            if "\n" not in stripped and (not any(c.isspace() for c in stripped)
                                         or stripped.endswith((".wc", ".yaml", ".yml"))
                                         or stripped.startswith(("/", "./", "../", "~"))):
                raise refuse_path("a house rule", text)
            names.append(self.write(f"rules-{i}.wc", text))
        return names

    def yaml_file(self, key: str, value, name: str) -> str:
        """A file sent inline: a JSON object (or list), or its YAML text."""
        if isinstance(value, (dict, list)):
            text = json.dumps(value, ensure_ascii=False)
        elif isinstance(value, str):
            stripped = value.strip()
            if stripped and "\n" not in stripped and not any(c in stripped for c in ":{["):
                raise refuse_path(f"\"{key}\"", value)
            text = value
        else:
            raise ApiError(422, f"\"{key}\" is a JSON object or its YAML text")
        return self.write(name, text)


def verb_argv(verb: str, cmd: click.Command, body: dict, folder: Folder) -> list[str]:
    """The command line's arguments for ``verb`` asked by ``body``, its
    inline texts written to ``folder``; bad input raises ``ApiError``."""
    keys = _option_keys(cmd)
    left = dict(body)
    positional: list[str] = []
    options: list[str] = []
    for p in cmd.params:
        if not isinstance(p, click.Argument):
            continue
        if p.name == "scenario":
            positional.append(folder.scenario(left))
            left.pop("scenario", None)
            left.pop("scenario_text", None)
        elif p.name in FILE_ARGUMENTS:
            names, file = FILE_ARGUMENTS[p.name]
            given = [k for k in names if left.get(k) is not None]
            if len(given) != 1:
                raise ApiError(422, f"`{verb}` needs " + " or ".join(f"\"{k}\"" for k in names)
                               + " (a JSON object, or the file's YAML text)" + (", once" if given else ""))
            positional.append(folder.yaml_file(given[0], left.pop(given[0]), file))
            for k in names:
                left.pop(k, None)
        elif p.name == "paths":  # lint: the rule files, inline
            names = folder.rules(left.pop("rules", None))
            if not names:
                raise ApiError(422, "`lint` needs \"rules\": the rule texts to check")
            positional += names
        else:  # schema's SYSTEM and KIND: names
            key = p.name.removesuffix("_name")
            value = left.pop(key, None)
            if not isinstance(value, str):
                raise ApiError(422, f"`{verb}` needs \"{key}\" (a string)")
            if not PLAIN_NAME.fullmatch(value) or "/" in value:
                raise refuse_path(f"\"{key}\"", value)
            positional.append(value)
    for key, value in left.items():
        p = keys.get(key)
        if p is None:
            near = closest(key, _request_keys(cmd))
            raise ApiError(422, f"`{verb}` takes no \"{key}\"",
                           hint=(f"did you mean {near[0]!r}? " if near else "") + "it takes: "
                           + ", ".join(_request_keys(cmd)))
        opt = p.opts[0] if p.opts[0].startswith("--") else next(o for o in p.opts if o.startswith("--"))
        if p.name in NO_FILE_OPTIONS:
            raise ApiError(400, f"the service writes and reads no file of its machine: {opt} is for the command "
                                f"line", hint=NO_FILE_OPTIONS[p.name])
        if value is None:
            continue
        if p.name == "rules":
            options += [f"{opt}={name}" for name in folder.rules(value)]
        elif p.name in FILE_OPTIONS:
            options.append(f"{opt}={folder.yaml_file(key, value, FILE_OPTIONS[p.name])}")
        elif p.is_flag:
            if not isinstance(value, bool):
                raise ApiError(422, f"\"{key}\" is true or false")
            if value:
                options.append(opt)
        else:
            values = value if p.multiple and isinstance(value, list) else [value]
            for v in values:
                if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                    raise ApiError(422, f"\"{key}\" takes " + ("strings" if p.multiple else "one value (a string or "
                                                                                          "a number)"))
                if p.name in PACK_OPTIONS and not (isinstance(v, str) and PLAIN_NAME.fullmatch(v) and "/" not in v):
                    raise refuse_path(f"\"{key}\"", str(v))
                options.append(f"{opt}={v}")
    if any(p.name == "as_json" for p in cmd.params):
        options.append("--json")
    return [verb, *options, "--", *positional]


# ------------------------------------------------------------------ the game

GAME_KEYS = ("scenario", "scenario_text", "rules", "options", "actions", "apply", "select")


def game_task(body: dict, folder: Folder) -> dict:
    unknown = sorted(set(body) - set(GAME_KEYS))
    if unknown:
        near = closest(unknown[0], GAME_KEYS)
        raise ApiError(422, f"the game takes no \"{unknown[0]}\"",
                       hint=(f"did you mean {near[0]!r}? " if near else "") + "it takes: " + ", ".join(GAME_KEYS))
    scenario = folder.scenario(body)
    rules = folder.rules(body.get("rules"))
    options = body.get("options") or {}
    if not isinstance(options, dict) or not all(
            isinstance(v, (str, int)) or v is None for v in options.values()):
        raise ApiError(422, "\"options\" is an object of the turn's options, e.g. {\"card\": \"Line Command\"}")
    actions = body.get("actions") or []
    if not isinstance(actions, list) or not all(isinstance(a, dict) and isinstance(a.get("kind"), str)
                                                for a in actions):
        raise ApiError(422, "\"actions\" is a list of actions, each an object with a \"kind\"")
    apply = body.get("apply")
    if apply is not None and not (isinstance(apply, dict) and isinstance(apply.get("kind"), str)):
        raise ApiError(422, "\"apply\" is an action (an object with a \"kind\") or null")
    select = body.get("select")
    if select is not None and not isinstance(select, str):
        raise ApiError(422, "\"select\" is a piece's id or null")
    return {"cwd": folder.path, "scenario": scenario, "rules": rules, "scenario_file": folder.scenario_file,
            "game": {"options": options, "actions": actions, "apply": apply, "select": select}}


# ------------------------------------------------------------------ the app

async def read_body(request: Request) -> dict:
    """The request's JSON object, at most ``BODY_LIMIT`` bytes of it."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > BODY_LIMIT:
        raise ApiError(413, f"the request is too large: {int(length):,} bytes, the limit is {_size(BODY_LIMIT)}")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > BODY_LIMIT:
            raise ApiError(413, f"the request is too large: more than {_size(BODY_LIMIT)}, the limit")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ApiError(400, f"the request is not UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start} "
                            "cannot be decoded") from None
    try:
        body = json.loads(text) if text.strip() else {}
    except RecursionError:
        raise ApiError(400, "the request is not JSON: nested too deeply") from None
    except ValueError as e:
        raise ApiError(400, f"the request is not JSON: {e}") from None
    if not isinstance(body, dict):
        raise ApiError(422, "the request is a JSON object: {\"scenario\": ..., ...}")
    return body


@functools.lru_cache(maxsize=1)
def scenarios() -> list[dict]:
    """The shipped scenarios: name, system (its pack) and title (the scenario's name)."""
    from ..kernel.scenario import parse_yaml, shipped_scenarios
    from ..kernel.system import System

    out = []
    for key, file in shipped_scenarios().items():
        if "/" not in key:
            continue
        pack, name = key.split("/", 1)
        if shipped_scenarios().get(name) != file:
            continue
        data = parse_yaml(file.read_text(encoding="utf-8"), str(file))
        system = System.for_pack(pack)
        out.append({"name": name, "system": pack, "title": str(data.get("name") or name),
                    "system_title": system.title or system.name})
    return out


def make_app(group: click.Group, size: int | None = None, queue: int = 64, timeout: float = 30.0,
             memory: int = 1 << 30) -> FastAPI:
    """The service of the verbs of ``group`` (the command line's, given by
    the ``serve`` verb, as the batch runner is given them), its pool of
    ``size`` workers started with the app."""
    import contextlib

    pool = Pool(group, size or os.cpu_count() or 1, queue, timeout, memory)
    root: list[str] = []

    @contextlib.asynccontextmanager
    async def lifespan(app):
        root.append(tempfile.mkdtemp(prefix="warcouncil-serve-"))
        pool.start()
        try:
            yield
        finally:
            pool.close()
            shutil.rmtree(root[0], ignore_errors=True)

    app = FastAPI(title="warcouncil referee service", version=_version(), lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Every verb of the warcouncil command line, and a turn in play for the board page.")
    app.state.pool = pool

    @app.exception_handler(ApiError)
    async def api_error(request, e: ApiError):
        return _error(e.status, e.message, e.hint, e.location)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, e: StarletteHTTPException):
        return _error(e.status_code, str(e.detail))

    async def run(task: dict) -> Response:
        try:
            answer = await pool.run(task)
        except Busy:
            return _error(503, "the service is busy: every worker is working and the queue is full",
                          hint="try again in a moment")
        except TimedOut:
            return _error(504, f"the request took longer than the service gives one request ({timeout:g} s)",
                          hint="ask for less (e.g. --limit, --count), or run it at the command line")
        except Died as e:
            return _error(503, f"the worker running the request stopped: {e}")
        headers = {"X-Warcouncil-Exit": str(answer["exit"])} if answer["exit"] is not None else {}
        return Response(answer["body"], status_code=answer["status"], media_type="application/json",
                        headers=headers)

    @app.get("/", include_in_schema=False)
    async def page():
        index = STATIC / "index.html"
        if not index.is_file():
            return _error(404, "the board page is not installed (warcouncil/serve/static/index.html)")
        return FileResponse(index)

    app.mount("/static", _Static(directory=STATIC, check_dir=False), name="static")

    @app.get("/api/scenarios", summary="The shipped scenarios")
    async def shipped():
        return {"scenarios": scenarios()}

    @app.post("/api/game", summary="A turn in play: the actions replayed, one applied", openapi_extra=_game_doc())
    async def game(request: Request):
        body = await read_body(request)
        folder = Folder(root[0])
        try:
            return await run(game_task(body, folder))
        finally:
            folder.remove()

    served = verbs(group)
    for name, cmd in served.items():
        _add_verb(app, name, cmd, run, root)

    @app.post("/api/{verb}", include_in_schema=False)
    async def unknown(verb: str):
        if verb in group.commands:
            raise ApiError(404, f"`{verb}` is not served: it runs something else, and its answer is not JSON",
                           hint="the service answers: " + ", ".join(served))
        near = closest(verb, list(served))
        raise ApiError(404, f"unknown verb {verb!r}",
                       hint=f"did you mean {near[0]!r}?" if near else "verbs: " + ", ".join(served))

    return app


class _Static(StaticFiles):
    """The page's folder, served; while it is not installed, every name in it is not found (404), not
    the server's fault (Starlette's one-off check would make it 500)."""

    async def check_config(self) -> None:
        if STATIC.is_dir():
            await super().check_config()


def _add_verb(app: FastAPI, name: str, cmd: click.Command, run, root: list) -> None:
    async def answer(request: Request):
        body = await read_body(request)
        folder = Folder(root[0])
        try:
            argv = verb_argv(name, cmd, body, folder)
            return await run({"cwd": folder.path, "argv": argv, "scenario_file": folder.scenario_file})
        finally:
            folder.remove()

    doc = (cmd.help or "").split("\n\n")[0].replace("\n", " ")
    app.add_api_route(f"/api/{name}", answer, methods=["POST"], summary=f"warcouncil {name}",
                      description=doc + "\n\nThe answer is the command line's `--json` answer, byte for byte.",
                      openapi_extra=_verb_doc(cmd), name=name)


def _version() -> str:
    from .. import __version__

    return __version__


# ------------------------------------------------------------------ the description (openapi.json)

ERROR_SCHEMA = {"type": "object", "properties": {"error": {"type": "object", "properties": {
    "message": {"type": "string"}, "file": {"type": ["string", "null"]}, "line": {"type": ["integer", "null"]},
    "column": {"type": ["integer", "null"]}, "hint": {"type": ["string", "null"]}}}}}
FILE_SCHEMA = {"oneOf": [{"type": "object"}, {"type": "string", "description": "the file's YAML text"}]}
RULES_SCHEMA = {"type": "array", "items": {"type": "string"}, "description": "house-rule texts (each a .wc file's)"}


def _responses(answer: str) -> dict:
    err = {"content": {"application/json": {"schema": ERROR_SCHEMA}}}
    return {"200": {"description": answer, "content": {"application/json": {"schema": {"type": "object"}}}},
            "400": {"description": "bad input: the command line's one message", **err},
            "413": {"description": "the request is larger than 1 MiB", **err},
            "422": {"description": "the request's shape is wrong", **err},
            "503": {"description": "busy (the queue is full), or the request needs too much memory", **err},
            "504": {"description": "the request took too long", **err}}


def _scenario_schema() -> dict:
    from ..kernel.scenario import shipped_scenarios

    return {"oneOf": [{"type": "string", "enum": sorted(shipped_scenarios())}, {"type": "object"}],
            "description": "a shipped scenario's name, or a scenario (what a scenario file holds)"}


def _verb_doc(cmd: click.Command) -> dict:
    props: dict = {}
    required: list[str] = []
    for p in cmd.params:
        if isinstance(p, click.Argument):
            if p.name == "scenario":
                props["scenario"] = _scenario_schema()
                props["scenario_text"] = {"type": "string", "description": "a scenario file's YAML text"}
            elif p.name in FILE_ARGUMENTS:
                for k in FILE_ARGUMENTS[p.name][0]:
                    props[k] = dict(FILE_SCHEMA)
            elif p.name == "paths":
                props["rules"] = RULES_SCHEMA
                required.append("rules")
            else:
                key = p.name.removesuffix("_name")
                props[key] = {"type": "string"}
                required.append(key)
            continue
        if p.name == "as_json" or p.name in NO_FILE_OPTIONS:
            continue
        key = p.opts[0].lstrip("-")
        if p.name == "rules":
            props[key] = RULES_SCHEMA
            continue
        if p.name in FILE_OPTIONS:
            schema = dict(FILE_SCHEMA)
        elif p.is_flag:
            schema = {"type": "boolean"}
        elif isinstance(p.type, click.Choice):
            schema = {"type": "string", "enum": list(p.type.choices)}
        elif isinstance(p.type, (click.types.IntParamType, click.IntRange)):
            schema = {"type": "integer"}
        else:
            schema = {"type": "string"}
        if p.multiple:
            schema = {"type": "array", "items": schema}
        if p.help:
            schema["description"] = p.help
        props[key] = schema
    body = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        body["required"] = required
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
            "responses": _responses("the verb's --json answer (the header X-Warcouncil-Exit: its exit code, "
                                    "0 or 1)")}


def _game_doc() -> dict:
    action = {"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}}}
    body = {"type": "object", "additionalProperties": False, "properties": {
        "scenario": _scenario_schema(),
        "scenario_text": {"type": "string", "description": "a scenario file's YAML text"},
        "rules": RULES_SCHEMA,
        "options": {"type": "object", "description": "the turn's options, e.g. {\"card\": \"Line Command\"}"},
        "actions": {"type": "array", "items": action, "description": "the actions played so far"},
        "apply": {"oneOf": [action, {"type": "null"}], "description": "an action to judge and play"},
        "select": {"type": ["string", "null"], "description": "a piece whose legal destinations are marked"}}}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
            "responses": _responses("player, actions, legal_actions, chance_outcomes, refused, log, log_yaml, "
                                    "scenario_after_yaml, svg")}
