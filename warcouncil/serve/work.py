"""What a worker of the referee service does with a request (pool.py forks
the workers; app.py makes the requests' tasks).

A task is JSON: ``{"cwd": <the request's own folder>, "argv": [...]}`` (a
verb, run as the command line runs it, its standard output the answer) or
``{"cwd": ..., "game": {...}}`` (the game endpoint). The folder holds the
request's inline texts (scenario, turn, house rules) and nothing else: the
worker works there, so a name resolves to a shipped scenario or pack, or to
the request's own files, never to another file of the machine. The answer
is ``{"status": HTTP status, "body": JSON text, "exit": the command line's
exit code or null}`` (and ``"end": true`` when the worker should be
replaced)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re

from ..errors import Location, WarcouncilError, error_document

#: what a verb prints, caught: the same two buffers every time, emptied after
#: each request (see batch._BATCH_STREAMS: click keeps the stream it wrote to)
_STREAMS = (io.StringIO(), io.StringIO())

#: a name that is no path: a shipped scenario's or pack's (a request's own
#: files all have a suffix, so such a name never finds one of them)
PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*(/[A-Za-z0-9][A-Za-z0-9_-]*)?")

#: the file an inline scenario is written to, in the request's folder
SCENARIO_FILE = "scenario.yaml"


def prepare() -> None:
    """Before the workers are forked: the modules every request needs and
    the shipped scenarios' packs read and planned (``batch._BatchSharedPacks``'s
    memo, which each worker then shares, copy on write, as the batch's
    workers share theirs), then frozen out of the collector's walks (which
    would touch, and so copy, the shared pages in every worker)."""
    import gc

    from .. import batch
    from ..kernel.engine import Engine
    from ..kernel.scenario import shipped_scenarios

    with batch._BatchSharedPacks():
        for key, file in shipped_scenarios().items():
            if "/" in key:
                Engine.load(str(file))
    gc.freeze()


#: the command line's verbs (click's group), as the worker was given them
_GROUP: list = [None]


def serve(task_fd: int, result_fd: int, group, memory: int) -> None:
    """A worker's life: its address space bounded, then requests answered
    one at a time, by the verbs of ``group``, until its task pipe ends."""
    import gc

    from .. import batch

    _GROUP[0] = group
    # what the server's process held (its sockets, its event loop) is
    # frozen out of the collector: nothing of it is ever finalised here
    gc.freeze()
    _close_sockets(task_fd, result_fd)
    _bound_memory(memory)
    # a request writes nothing outside its folder: not the parsed rule files and
    # YAML documents of the user's cache (dsl/packcache.py, world/ydoc.py), which
    # every distinct request would grow (the shipped packs were read before the fork)
    os.environ["WARCOUNCIL_CACHE"] = "off"
    # a bug's exception reaches ``_verb`` (which says it as the command line does) instead of being
    # printed by the command line: a MemoryError is then told from a bug
    os.environ["WARCOUNCIL_DEBUG"] = "1"
    with os.fdopen(task_fd, "rb") as tasks:
        while (message := batch._read_message(tasks)) is not None:
            answer = json.dumps(handle(json.loads(message)), ensure_ascii=False).encode()
            batch._write_all(result_fd, len(answer).to_bytes(8, "little") + answer)


def _close_sockets(*keep: int) -> None:
    """The server's sockets this worker was forked with, closed: its listening
    socket and its clients' connections (a connection the server closes must
    end, not stay open in a worker), the event loop's own."""
    import stat

    try:
        fds = [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:  # pragma: no cover - no /proc: every descriptor a process may have
        import resource

        fds = list(range(3, min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1 << 16)))
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.close(fd)
            except OSError:
                pass


def _bound_memory(memory: int) -> None:
    """RLIMIT_AS: ``memory`` bytes of address space more than this process has now."""
    import resource

    with open("/proc/self/statm") as f:
        have = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    want = have + memory
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    resource.setrlimit(resource.RLIMIT_AS, (want, hard))


def handle(task: dict) -> dict:
    from .. import batch

    try:
        os.chdir(task["cwd"])
        if "argv" in task:
            return _verb(task)
        return _game(task)
    except MemoryError:  # (the worker is then replaced: what is left of its address space is unknown)
        return {"status": 503, "exit": None, "end": True,
                "body": _doc("the request needs more memory than the service gives one request",
                             hint="ask for less (e.g. --limit, --count), or run it at the command line")}
    finally:
        batch.forget(task["cwd"])  # the request's files and folder are never asked for again


def _doc(message: str, location: Location | None = None, hint: str | None = None) -> str:
    return json.dumps(error_document(message, location, hint), ensure_ascii=False)


def _error(e: WarcouncilError, status: int = 400) -> dict:
    return {"status": status, "exit": 2, "body": _doc(e.message, e.location, e.hint)}


def inline_references(file: str) -> None:
    """An inline scenario names no file of the server's machine: no
    ``rules:`` (house rules are sent as text, in the request's ``rules``),
    and its ``system:`` is a pack's name, not a folder. A scenario that
    cannot be read is left for the command line to say so."""
    from ..kernel.scenario import parse_yaml, value_loc
    from ..world.ydoc import YDict
    from ..textfile import YAML_LIMIT, read_text

    try:
        data = parse_yaml(read_text(file, YAML_LIMIT, "scenario file"), file)
    except WarcouncilError:
        return
    if not isinstance(data, YDict):
        return
    if data.get("rules"):
        raise WarcouncilError("a scenario sent to the service names no rule files: send the house rules' text "
                              "in the request's \"rules\"", value_loc(data, "rules"))
    system = data.get("system")
    if isinstance(system, str) and not PLAIN_NAME.fullmatch(system):
        raise WarcouncilError(f"the service reads no file of its machine: `system:` names a shipped rule pack, "
                              f"not {system!r}", value_loc(data, "system"))


def _verb(task: dict) -> dict:
    """The verb of ``task["argv"]`` as the command line runs it: its
    standard output is the answer, its exit code says the status (0 and 1:
    an answer, 200; 2: bad input, 400; 3: a bug, 500)."""
    from .. import batch

    main = _GROUP[0]
    if task.get("scenario_file"):
        try:
            inline_references(task["scenario_file"])
        except WarcouncilError as e:
            return _error(e)
    out, err = _STREAMS
    code = 0
    try:
        with batch._BatchSharedPacks(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main.main(args=task["argv"], prog_name="warcouncil", standalone_mode=True)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except MemoryError:
        raise
    except Exception as e:  # noqa: BLE001 - a bug, not bad input: said as the command line says it
        code = 3
        text = _doc(f"internal error (a bug in warcouncil): {e!r}")
    else:
        text = None
    finally:
        printed, said = out.getvalue(), err.getvalue()
        for stream in _STREAMS:
            stream.seek(0)
            stream.truncate()
    if code == 3:
        return {"status": 500, "exit": 3, "body": text or _doc(said.strip() or "internal error")}
    if code == 2 and not printed.strip():  # (every --json verb prints its error document; this is a safeguard)
        return {"status": 400, "exit": 2, "body": _doc(said.strip())}
    return {"status": 400 if code == 2 else 200, "exit": code, "body": printed}


def _game(task: dict) -> dict:
    """``POST /api/game``: the actions replayed on a new state, ``apply``
    judged, the state described (GAMEAPI.md)."""
    from .. import batch

    body = task["game"]
    try:
        if task.get("scenario_file"):
            inline_references(task["scenario_file"])
        with batch._BatchSharedPacks():
            return {"status": 200, "exit": None, "body": json.dumps(_play(task, body), ensure_ascii=False)}
    except WarcouncilError as e:
        return _error(e)
    except RecursionError:
        return {"status": 400, "exit": 2, "body": _doc("input nested too deeply")}


def _play(task: dict, body: dict) -> dict:
    import yaml

    from ..kernel.game import TERMINAL, IllegalAction, load_game

    game = load_game(task["scenario"], task["rules"])
    state = game.new_state(**dict(body.get("options") or {}))
    for i, action in enumerate(body.get("actions") or (), 1):
        try:
            state.apply(action)
        except IllegalAction as e:
            raise WarcouncilError(f"action {i} of \"actions\" is refused: {e.message}",
                                  hint="the actions are those played so far, each legal where it was played") from None
    refused = None
    if body.get("apply") is not None:
        try:
            state.apply(body["apply"])
        except IllegalAction as e:
            # each violation as `check --json` gives it, with its document's title beside its source
            pack = game.engine.pack
            refused = {"message": e.message, "violations": [
                {**v, "document": pack.document_name(v["source"])} if v.get("source") else v for v in e.violations]}

    def dump(data) -> str:
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)

    player = state.current_player()
    log = state.log()
    return {
        "player": player,
        "actions": state.history(),
        "legal_actions": [{**a, "pieces": state.pieces_of(a)} for a in state.legal_actions()],
        "chance_outcomes": [{"action": a, "p": str(p)} for a, p in state.chance_outcomes()],
        "refused": refused,
        "log": log,
        "log_yaml": dump(log),
        "scenario_after_yaml": dump(state.scenario_after()) if player == TERMINAL else None,
        "svg": _svg(state, body.get("select")),
    }


def _svg(state, select):
    """The board drawn (``State.svg``), or None for a system that draws none."""
    try:
        return state.svg(select)
    except WarcouncilError:
        return None
