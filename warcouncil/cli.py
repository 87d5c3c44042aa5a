"""The ``warcouncil`` command line (click for parsing, rich for the terminal).

Exit codes: 0 answer given (legal / clean); 1 the answer is "no" (an illegal
turn, lint errors); 2 bad input (a message naming the place, never a
traceback); 3 an internal error (a bug: rerun with WARCOUNCIL_DEBUG=1); 4 the
answer could not be written (standard output closed or full).
"""

from __future__ import annotations

if __name__ == "__main__":  # `python -m warcouncil.cli`: before the imports below, a third of the start
    from warcouncil import _starting

    _starting()

import inspect  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import click  # noqa: E402

from . import _started  # noqa: E402 - the collector's start-up setting put back (warcouncil/__init__.py)
from .errors import WarcouncilError, error_document  # noqa: E402
from .kernel.progress import shown  # noqa: E402 - (a few lines, no import of its own)

# What a verb needs is imported when it runs (issue 15): rich only when
# something is printed for a person (a --json answer never loads it), the
# engine and the systems inside the commands.


class _LazyConsole:
    """A rich ``Console``, made on first use."""

    def __init__(self, **options):
        self._options = options
        self._console = None

    def __getattr__(self, name):
        if name.startswith("__") or name in ("_options", "_console"):  # copying, pickling: no console
            raise AttributeError(name)
        if self._console is None:
            from rich.console import Console

            class _Console(Console):
                def on_broken_pipe(self) -> None:
                    # rich's own exits 1, which here means "illegal": a closed
                    # pipe (`| head`) is no verdict; Cli.invoke exits 0 quietly
                    self.quiet = True
                    raise BrokenPipeError

            self._console = _Console(**self._options)
        return getattr(self._console, name)


def escape(text: str) -> str:
    """``rich.markup.escape``, imported when first needed."""
    from rich.markup import escape as rich_escape

    return rich_escape(text)


def Table(*args, **kwargs):  # noqa: N802 - stands for the class
    """A ``rich.table.Table``, imported when first needed."""
    from rich.table import Table as RichTable

    return RichTable(*args, **kwargs)


#: the verbs whose first work is loading an engine (``_engine``), which ends
#: the start of a command-line process (``warcouncil._started``); any other
#: verb ends it as it is chosen (tests/test_cli_startup.py holds the list to this)
ENGINE_VERBS = frozenset({"orders", "moves", "turns", "check", "odds", "plan", "activations", "cards", "diff"})

out = _LazyConsole(highlight=False, soft_wrap=True, emoji=False)
err = _LazyConsole(stderr=True, highlight=False, soft_wrap=True, emoji=False)


#: in a help text, where the names of the shipped scenarios go (``_shipped_names``)
SHIPPED = "{shipped}"


def _shipped_names() -> str:
    """The scenarios shipped in the package's examples
    (``warcouncil/examples/<system>/<name>.yaml``), by name, after each
    the title of their system: ``akragas, practice_field: Commands & Colors; ...``."""
    from .kernel.scenario import shipped_scenarios
    from .kernel.system import System

    by_title: dict[str, list[str]] = {}
    for key in shipped_scenarios():
        if "/" in key:
            pack, name = key.split("/", 1)
            system = System.for_pack(pack)
            by_title.setdefault(system.title or system.name, []).append(name)
    return "; ".join(f"{', '.join(names)}: {title}" for title, names in by_title.items())


class _ShippedHelp:
    """A command whose help names the shipped scenarios, found when the
    help is shown (not by every start of the command line)."""

    def format_help_text(self, ctx, formatter) -> None:
        kept = self.help
        if kept and SHIPPED in kept:
            self.help = kept.replace(SHIPPED, _shipped_names())
        try:
            super().format_help_text(ctx, formatter)
        finally:
            self.help = kept


class Verb(_ShippedHelp, click.Command):
    def parse_args(self, ctx, args):
        raw = list(args)
        rest = super().parse_args(ctx, args)
        if ctx.resilient_parsing and "scenario" in ctx.params and ctx.params["scenario"] is None:
            # completing an option's value (`--card <Tab>`): click's parse stopped at the option still
            # waiting for it, before the arguments were given out; the scenario is the first of them
            ctx.params["scenario"] = _first_argument(self, raw)
        return rest


def _first_argument(cmd: click.Command, args: list[str]) -> str | None:
    """The first of ``args`` that is neither an option nor an option's value."""
    takes_value = {o for p in cmd.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts}
    words = iter(args)
    for w in words:
        if w == "--":
            return next(words, None)
        if w.startswith("-"):
            if w in takes_value:
                next(words, None)
            continue
        return w
    return None


class Cli(_ShippedHelp, click.Group):
    """Turns bad input into exit 2 with one clear message."""

    command_class = Verb

    def main(self, *args, **kwargs):
        if os.environ.get(COMPLETE_VAR):  # asked by the shell for completions (README: "Shell completion")
            _bash_completes_names_with_spaces()
        return super().main(*args, **kwargs)

    def get_command(self, ctx, cmd_name):
        cmd = super().get_command(ctx, cmd_name)
        return _family_options(cmd) if cmd is not None else None

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if name not in ENGINE_VERBS:  # the start is over: see warcouncil/__init__.py
            _started()
        return name, cmd, rest

    def make_context(self, info_name, args, parent=None, **extra):
        # the raw arguments say whether the answer is JSON: a usage error is
        # found before any verb's --json is parsed
        as_json = _json_asked(args)
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except click.UsageError as e:
            if as_json:
                _json_usage_error(e)
            raise
        ctx.meta[JSON_ASKED] = as_json
        return ctx

    def invoke(self, ctx):
        as_json = ctx.meta.get(JSON_ASKED, False)
        if sys.stdout is None:  # started with standard output closed (`>&-`): no answer can be given
            err.print("cannot write the answer: standard output is closed", style="red")
            ctx.exit(EXIT_OUTPUT)
        _checked_stdout()
        try:
            try:
                with shown(not as_json):  # a long query's progress bar: on a terminal, never with --json
                    return super().invoke(ctx)
            finally:
                # a closed pipe (`| head`) shows here, where it exits 0 below,
                # not in click's own exit handling (which would say 1: "illegal")
                sys.stdout.flush()
        except WarcouncilError as e:
            if as_json:
                _json_error(error_document(e.message, e.location, e.hint))
            err.print(escape(str(e)), style="red")
            ctx.exit(2)
        except click.UsageError as e:  # a verb's options and arguments (parsed here, by click.Group.invoke)
            if as_json:
                _json_usage_error(e)
            raise
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            ctx.exit(130)
        except RecursionError:  # the static bounds (dsl/bounds.py, dsl/static.py) should make this unreachable
            message = ("the rules are nested too deeply to evaluate (defines calling defines, expressions "
                       "inside expressions): simplify them")
            if as_json:
                _json_error(error_document(message))
            err.print(message, style="red")
            ctx.exit(2)
        except BrokenPipeError:
            _quiet_stdout()
            ctx.exit(0)
        except OutputError as e:  # the environment's, not the input's nor a bug
            _quiet_stdout()
            err.print(f"cannot write the answer to standard output: {escape(e.strerror or str(e))}", style="red")
            ctx.exit(EXIT_OUTPUT)
        except Exception as e:  # a bug, not bad input
            if os.environ.get("WARCOUNCIL_DEBUG"):
                raise
            err.print(f"internal error (a bug in warcouncil): {escape(repr(e))}\n"
                      "rerun with WARCOUNCIL_DEBUG=1 to see where", style="red")
            ctx.exit(3)


#: ``ctx.meta`` key: the command line asked for JSON (``--json``)
JSON_ASKED = "warcouncil.json"


def _json_asked(args) -> bool:
    """``--json`` among the raw arguments (before a ``--``, after which
    every argument is a name)."""
    for a in args or ():
        if a == "--":
            return False
        if a == "--json":
            return True
    return False


def _json_error(document: dict) -> None:
    """Bad input under ``--json``: its JSON document on stdout (the one
    message stays on stderr, as the contract has it); the caller exits 2."""
    try:
        _json(document)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()


def _json_usage_error(e: click.UsageError):
    """A usage error (an unknown verb or option, a bad value) under
    ``--json``: its JSON document on stdout; click then says it on stderr
    and exits 2 (its code for usage errors)."""
    ctx = e.ctx
    hint = None
    if ctx is not None:
        usage = " ".join([ctx.command_path] + ctx.command.collect_usage_pieces(ctx))
        hint = f"usage: {usage} (more: {ctx.command_path} --help)"
    _json_error(error_document(e.format_message(), hint=hint))


#: the exit code when the answer cannot be written (standard output closed,
#: full, an I/O error); a closed pipe (`| head`) is no error: exit 0
EXIT_OUTPUT = 4


class OutputError(OSError):
    """A write to standard output failed (not a closed pipe)."""


class _StdoutFile(io.FileIO):
    """Standard output's file, whose failed writes say they are its own
    (``OutputError``), so that they are told from a bug's OSError."""

    def write(self, data):
        try:
            return super().write(data)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise OutputError(e.errno, e.strerror) from None


def _checked_stdout() -> None:
    """The process's standard output made again over ``_StdoutFile`` (the
    same file descriptor, encoding and buffering); left as it is when it is
    not the process's own (a test's, a caller's redirection)."""
    s = sys.stdout
    if s is not sys.__stdout__ or not isinstance(s, io.TextIOWrapper):
        return
    try:
        fd = s.fileno()
        s.flush()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return
    raw = _StdoutFile(fd, "w", closefd=False)
    buffered = not isinstance(s.buffer, io.RawIOBase)  # (unbuffered: PYTHONUNBUFFERED, python -u)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw) if buffered else raw, encoding=s.encoding,
                                  errors=s.errors, line_buffering=s.line_buffering, write_through=s.write_through)


def _quiet_stdout() -> None:
    """After a closed pipe or a failed write: what is still buffered goes
    nowhere, quietly (Python flushes stdout once more when it exits)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def _json(obj) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False))


rules_option = click.option(
    "--rules", "rules", multiple=True, metavar="PATH",
    help="House-rule file or folder layered over the scenario's pack (repeatable, in order).",
)
scenario_argument = click.argument("scenario", shell_complete=lambda *a: _complete_scenario(*a))
json_option = click.option("--json", "as_json", is_flag=True, help="Machine output (JSON) on stdout.")


def _side_given(ctx, param, value):
    """--side names a side: an empty or blank name is refused, not ignored."""
    if value is not None and not value.strip():
        raise click.BadParameter("give a side's name (the scenario's `sides`), or leave --side out for its to_move")
    return value


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="warcouncil")
def main():
    """warcouncil: what may I legally order, move or activate now, how likely
    is it to work, and was that turn legal?

    SCENARIO is a scenario shipped with warcouncil, by name ({shipped}),
    or the path of a scenario file (YAML; its `system:` key says which
    game). Exit codes: 0 an answer, 1
    "illegal" (check, moves) or lint errors, 2 bad input (one message
    naming file:line:column; under --json also one JSON document on stdout,
    {"error": {"message", "file", "line", "column", "hint"}}), 4 the answer
    could not be written (standard output closed or full).
    """


def _engine(scenario: str, rules, verb: str, family: dict | None = None):
    """The engine of SCENARIO's system, once the system says it answers
    ``verb`` and reads the game families' options given to it (``family``:
    their values, by name; ``_family_options``): otherwise bad input, exit 2."""
    from .kernel.engine import Engine

    eng = Engine.load(scenario, list(rules))
    _started()
    eng.system.require_verb(verb)
    if family is not None:
        _family_read(eng.system, verb, scenario, family)
    return eng


def _family_options(cmd: click.Command) -> click.Command:
    """Add to the verb ``cmd`` (once) the options the game families declare
    for it (``systems/<family>/options.py``, found through the entry points
    without importing a system: ``kernel.system.family_options``), before
    the options every verb shares (``--rules``, ``--json``)."""
    if getattr(cmd, "families", None) is not None or not any(p.name == "scenario" for p in cmd.params):
        return cmd
    from .kernel.system import family_options

    cmd.families = {}  # option name -> (the Option, the families declaring it)
    for family, o in family_options():
        if cmd.name in o.verbs:
            cmd.families.setdefault(o.name, (o, []))[1].append(family)
    at = next((i for i, p in enumerate(cmd.params) if p.name in ("rules", "as_json")), len(cmd.params))
    cmd.params[at:at] = [_click_option(o) for o, _ in cmd.families.values()]
    return cmd


def _click_option(o) -> click.Option:
    """A family's option (``kernel.system.Option``) as click's."""
    kw = {}
    callback = None
    if o.is_flag:
        kw["is_flag"] = True
    elif o.choices:
        kw["type"] = click.Choice(o.choices)
    elif o.bounds is not None:
        kw["type"] = int

        def callback(ctx, param, value, bounds=o.bounds):  # the range read when the option is given
            return value if value is None else click.IntRange(*bounds()).convert(value, param, ctx)
    if o.path:
        callback = _path_checked(callback)
    if o.complete is not None:
        kw["shell_complete"] = _completer(o.complete)
    return click.Option([o.flag, o.name], default=bool(o.default) if o.is_flag else o.default, help=o.help,
                        metavar=o.metavar, callback=callback,
                        show_default=False, **kw)


# ------------------------------------------------------------------ shell completion
#
# click's: `eval "$(_WARCOUNCIL_COMPLETE=bash_source warcouncil)"` (zsh_source,
# fish_source) completes verbs and options; below, what a value may be.


#: the environment variable by which a shell asks for completions (click's,
#: after the program's name)
COMPLETE_VAR = "_WARCOUNCIL_COMPLETE"


def _bash_completes_names_with_spaces() -> None:
    """A card's name has spaces: bash's completion (click's script) reads
    each candidate with ``read``, which drops one backslash, and puts it in
    the command line as it is. Each space is therefore sent after two
    backslashes, and arrives after one: the name stays one word."""
    from click.shell_completion import BashComplete, add_completion_class

    class Bash(BashComplete):
        def format_completion(self, item) -> str:
            value = item.value.replace(" ", "\\\\ ") if item.type == "plain" else item.value
            return f"{item.type},{value}"

    add_completion_class(Bash, "bash")


def _complete_scenario(ctx, param, incomplete: str):
    """SCENARIO: the files the shell completes (``type="file"``; first:
    bash's script offers them only when no name matches), and the shipped
    scenarios by name."""
    from click.shell_completion import CompletionItem

    from .kernel.scenario import shipped_scenarios

    names = [n for n in shipped_scenarios() if "/" not in n and n.startswith(incomplete)]
    return [CompletionItem(incomplete, type="file")] + [CompletionItem(n) for n in names]


def _complete_card(ctx, param, incomplete: str):
    """A card's name: the cards of the scenario already on the command line
    (and its --rules), else those of every shipped pack; matched as --card
    matches a name (case, spaces and hyphens ignored)."""
    from click.shell_completion import CompletionItem

    from .dsl.pack import card_key

    key = card_key(incomplete)
    return [CompletionItem(n) for n in _card_names(ctx.params.get("scenario"), ctx.params.get("rules") or ())
            if card_key(n).startswith(key)]


def _card_names(scenario, rules) -> list[str]:
    from .dsl.pack import PACKS_DIR, load_pack

    if scenario:
        try:
            from .kernel.engine import Engine

            return list(Engine.load(scenario, list(rules)).pack.cards)
        except WarcouncilError:  # (no such scenario yet): every shipped pack's
            pass
    names: dict[str, None] = {}
    for d in sorted(PACKS_DIR.iterdir()):
        if d.is_dir() and any(d.glob("*.wc")):
            try:
                names.update(dict.fromkeys(load_pack(d.name).cards))
            except WarcouncilError:  # (a pack that reads only over another: none of its own)
                pass
    return list(names)


_COMPLETERS = {"card": _complete_card}


def _completer(kind: str):
    """The shell completion of a family's option's value (``Option.complete``)."""
    return _COMPLETERS[kind]


def _family_read(system, verb: str, scenario: str, family: dict) -> None:
    """Bad input: a family's option given on the command line (not left at
    its default) that ``system`` does not read for ``verb`` (its family's
    ``refused`` message), or one it reads and ``verb`` needs left out."""
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    declared = getattr(ctx.command, "families", None) if ctx is not None else None
    title = system.title or system.name
    for name, (o, families) in (declared or {}).items():
        reads = any(system.reads(o, f, verb) for f in families)
        if not reads and ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT):
            raise WarcouncilError(o.refused.format(option=o.flag, system=title))
    for name, (o, families) in (declared or {}).items():
        if verb in o.needed_by and family.get(name) is None and any(system.reads(o, f, verb) for f in families):
            raise WarcouncilError(f"`{verb}` on a {title} scenario needs {o.needs}: give it with {o.flag} "
                                  f"{o.metavar or o.name.upper()}",
                                  hint=o.needs_hint.format(scenario=scenario) if o.needs_hint else None)


# ------------------------------------------------------------------ orders


@main.command()
@scenario_argument
@click.option("--count", "count_only", is_flag=True, help="Only the number of legal order sets.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N order sets.")
@click.option("--side", default=None, callback=_side_given,
              help="The side playing (default: the scenario's to_move).")
@click.option("--svg", "svg_path", default=None, metavar="FILE",
              help="Also draw the board (systems that draw their own, e.g. Warmaster: the table after --after).")
@rules_option
@json_option
def orders(scenario, count_only, limit, side, svg_path, rules, as_json, **family):
    """Every legal order set for CARD on the board of SCENARIO (for a system
    without cards: every order that may be given next)."""
    eng = _engine(scenario, rules, "orders", family)
    _print_answer(eng.answer("orders", side=side, limit=limit, count_only=count_only, svg_path=svg_path,
                             as_json=as_json, **family),
                  as_json, _drawing(eng, svg_path, side=side, **family))


# ------------------------------------------------------------------ moves


@main.command()
@scenario_argument
@click.option("--order", "orders", multiple=True, metavar="ID",
              help="A piece given an order (repeatable): units, and leaders with an order of their own.")
@click.option("--side", default=None, callback=_side_given,
              help="The side playing (default: the scenario's to_move).")
@click.option("--svg", "svg_path", default=None, metavar="FILE", help="Also draw the board with the destinations.")
@rules_option
@json_option
def moves(scenario, orders, side, svg_path, rules, as_json, **family):
    """Every legal destination of each ordered piece (as if it moved first)."""
    eng = _engine(scenario, rules, "moves", family)
    _print_answer(eng.answer("moves", orders=orders, side=side, svg_path=svg_path, as_json=as_json, **family),
                  as_json)


# ------------------------------------------------------------------ turns


@main.command()
@scenario_argument
@click.option("--count", "count_only", is_flag=True, help="Only the number of distinct end positions.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N end positions.")
@click.option("--side", default=None, callback=_side_given,
              help="The side playing (default: the scenario's to_move).")
@rules_option
@json_option
def turns(scenario, count_only, limit, side, rules, as_json, **family):
    """Every distinct end position the card's legal orders and moves can reach."""
    eng = _engine(scenario, rules, "turns", family)
    _print_answer(eng.answer("turns", side=side, count_only=count_only, limit=limit, as_json=as_json, **family),
                  as_json)


# ------------------------------------------------------------------ diff


@main.command()
@scenario_argument
@click.option("--order", "orders", multiple=True, metavar="ID",
              help="Compare the moves of this order set (default: each piece the card can order alone).")
@click.option("--side", default=None, callback=_side_given,
              help="The side playing (default: the scenario's to_move).")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most N changes of each kind.")
@rules_option
@json_option
def diff(scenario, orders, side, limit, rules, as_json, **family):
    """What the house rules (--rules) change for CARD on SCENARIO: order sets
    and moves that become legal or illegal, with the rule responsible."""
    eng = _engine(scenario, (), "diff", family)  # the scenario without the house rules: the engine compares
    _print_answer(eng.answer("diff", rules=list(rules), orders=orders, side=side, limit=limit, as_json=as_json,
                             **family), as_json)


# ------------------------------------------------------------------ check


@main.command()
@scenario_argument
@click.argument("turn")
@click.option("--write-next", "write_next", default=None, metavar="NEXT.yaml",
              help="For a legal turn: write the scenario after it (the next turn's start) to NEXT.yaml.")
@rules_option
@json_option
def check(scenario, turn, write_next, rules, as_json):
    """Is the proposed TURN legal on SCENARIO? Every violated rule, with its text.

    TURN is a YAML file (for Commands & Colors):

    \b
        card: Order Three Units Center     # the card played
        orders: [s4, s5, daphnaeus]        # every piece given an order
        moves:                             # in the order they are made
          - {piece: daphnaeus, to: [6, 5]} # to: some legal path leads there
          - {piece: s4, path: [[5, 6]]}    # path: exactly these hexes
        battles:                           # optional
          - {piece: s4, target: c5}

    Optional keys: roll (dice rolled, for cards that roll), copies (the card
    a Counter Attack copies), side, command, second_moves (moves after
    Move-Fire-Move's fire). Exit 0 legal, 1 illegal, 2 bad input.

    For Warmaster, TURN is a Command phase log (initiative, home_back,
    orders with their rolls and moves, characters); for square-grid
    ancients, a sequence of activations with their dice and command points.
    The shipped examples show both (examples/warmaster/logs/turn.yaml,
    examples/grid-ancients/alesia/turn.yaml in the package) and the README
    describes every key.
    """
    eng = _engine(scenario, rules, "check")
    if write_next is not None and eng.system.game is None:
        raise WarcouncilError(f"--write-next: the {eng.system.title or eng.system.name} system has no game interface")
    answer = eng.answer("check", path=turn, as_json=as_json)
    if write_next is not None and answer.exit_code == 0:
        _write_next(eng, turn, write_next)
    _print_answer(answer, as_json)


def _write_next(eng, turn_path: str, target: str) -> None:
    """``check --write-next``: the scenario after the legal turn in
    ``turn_path`` (the game interface's ``Turn.next_scenario``), as YAML."""
    import yaml

    from .kernel.scenario import parse_yaml, plain
    from .textfile import YAML_LIMIT, read_text

    data = plain(parse_yaml(read_text(turn_path, YAML_LIMIT, "turn file"), turn_path))
    scenario = eng.system.game(eng).next_scenario(data)
    text = yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, default_flow_style=None)
    try:
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise WarcouncilError(f"cannot write the next scenario: {e.strerror or e}", hint=target) from None


# ------------------------------------------------------------------ answers made by a system


def _drawing(eng, svg_path, **options):
    """The SVG of the board for ``--svg FILE`` (made before the answer is
    printed, so a drawing problem is bad input, not half an answer)."""
    if svg_path is None:
        return None
    return svg_path, eng.draw(**options)


def _print_answer(ans, as_json, drawing=None) -> None:
    """Print a system's whole answer (``system.Answer``), write the drawing
    asked for, and exit with the answer's code."""
    if drawing is not None:
        path, svg = drawing
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(svg)
        except OSError as e:
            raise WarcouncilError(f"cannot write the drawing: {e.strerror or e}", hint=path) from None
    if as_json:
        _json(ans.data)
    elif ans.lines is not None:  # in the console's markup, as they are made
        for line in ans.lines:
            out.print(line)
    elif ans.plain:
        click.echo(ans.text)
    elif ans.text:
        out.print(escape(ans.text))
    sys.exit(ans.exit_code)


@main.command()
@scenario_argument
@click.argument("question", metavar="FILE")
@rules_option
@json_option
def odds(scenario, question, rules, as_json):
    """The exact odds of FILE on SCENARIO: a plan of orders (Warmaster) or a
    roll and its situation (square-grid ancients). Fractions in lowest terms."""
    eng = _engine(scenario, rules, "odds")
    _print_answer(eng.answer("odds", path=question), as_json)


@main.command("plan")
@scenario_argument
@click.argument("wants", metavar="FILE")
@rules_option
@json_option
def plan_(scenario, wants, rules, as_json):
    """The best way to attempt the wanted orders of FILE (Warmaster: `want:
    [{units: [..], by: CHARACTER?}, ..]`, `objective: all|expected`): which
    character orders which, in which sequence, with its exact odds and the
    runner-up."""
    eng = _engine(scenario, rules, "plan")
    _print_answer(eng.answer("plan", path=wants), as_json)


@main.command()
@scenario_argument
@click.option("--side", default=None, callback=_side_given,
              help="The side activating (default: the scenario's to_move).")
@click.option("--svg", "svg_path", default=None, metavar="FILE",
              help="Also draw the board (squares, facings, zones of control).")
@rules_option
@json_option
def activations(scenario, side, svg_path, rules, as_json):
    """For each unit of the side to move, each activation: legal, or why not."""
    eng = _engine(scenario, rules, "activations")
    _print_answer(eng.answer("activations", side=side), as_json, _drawing(eng, svg_path, side=side))


# ------------------------------------------------------------------ lint


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--over", "base", default=None, metavar="PACK",
              help="Lint PATHS as house rules layered over this pack (e.g. cca).")
@click.option("--coverage", "show_coverage", is_flag=True,
              help="List each sentence of the seed documents the pack cites, and which rules cite it; then the "
                   "rules whose quote shares no content word with their message (likely not the sentence that "
                   "states them).")
@click.option("--allow-documents", "allow_documents", multiple=True, metavar="DIR",
              help="Also read cited documents inside DIR (else only inside each rule file's own folder).")
@json_option
def lint(paths, base, show_coverage, allow_documents, as_json):
    """Parse and check rule files; every error with file:line:column."""
    from .dsl.lint import coverage, house_hint, lint as run_lint, unstated, warnings
    from .dsl.pack import LintError, pack_files

    for target in list(paths) + ([base] if base is not None else []):
        pack_files(target)  # a missing file or pack is bad input (exit 2), not a lint error
    pack, problems = run_lint(list(paths), base, allow_documents)
    from .kernel.game import turn_problems

    problems = problems + turn_problems(pack)  # (the steps' kinds: the family's game's)
    hint = house_hint(list(paths), problems) if base is None else None
    cov = coverage(pack) if (show_coverage and pack is not None) else None
    loose = unstated(pack) if cov is not None else None
    warned = warnings(pack)

    def entry(p):
        return {"file": p.location.file, "line": p.location.line, "column": p.location.column,
                "message": p.message, "hint": p.hint}

    if as_json:
        obj = {"errors": [entry(p) for p in problems]}
        if warned:
            obj["warnings"] = [entry(w) for w in warned]
        if cov is not None:
            obj["coverage"] = [{"document": s.document, "line": s.line, "sentence": s.text, "cited_by": s.cited_by}
                               for s in cov]
            obj["unstated"] = [{"rule": u.rule, "file": u.file, "line": u.line, "quote": u.quote,
                                "message": u.message} for u in loose]
        if hint:
            obj["hint"] = hint
        _json(obj)
    else:
        for p in problems:
            err.print(escape(str(p)), style="red")
        for w in warned:
            err.print(escape(str(LintError(f"warning: {w.message}", w.location, w.hint, w.source_line))),
                      style="yellow")
        if hint:
            err.print(escape(f"hint: {hint}"), style="yellow")
        if cov is not None:
            done = sum(1 for s in cov if s.cited_by)
            for s in cov:
                mark = "[green]✓[/]" if s.cited_by else "[red]✗[/]"
                who = f"  [dim]{escape(', '.join(s.cited_by))}[/]" if s.cited_by else ""
                out.print(f"{mark} {escape(s.document)}:{s.line} {escape(s.text)}{who}")
            out.print(f"{done}/{len(cov)} sentences cited")
            for u in loose:
                out.print(f"[red]✗[/] {escape(u.file)}:{u.line} {escape(u.rule)}: the quote “{escape(u.quote)}” "
                          f"shares no word with its message “{escape(u.message)}”")
            out.print(f"{len(loose)} rule{'s' if len(loose) != 1 else ''} whose quote shares no word with its message")
        if not problems:
            files = len(pack.files) if pack else 0
            out.print(f"[green]clean[/]: {files} file{'s' if files != 1 else ''}, "
                      f"{len(pack.rules)} rules, {len(pack.define_ids)} defines, {len(pack.cards)} cards")
    sys.exit(1 if problems else 0)


# ------------------------------------------------------------------ lsp


@main.command()
def lsp():
    """A language server for rule files (*.wc), over standard input and
    output, for an editor to start: lint's problems as you type (a house
    file over its pack: a `# over: PACK` line, or its folder), hover, go to
    definition and completion. Needs the optional extra: pip install
    'warcouncil[lsp]'."""
    from .lsp import serve

    serve()


# ------------------------------------------------------------------ cards


@main.command()
@scenario_argument
@click.option("--rules-text", "rules_text", is_flag=True,
              help="Also print what each card orders in the rule language (as the pack writes it).")
@rules_option
@json_option
def cards(scenario, rules_text, rules, as_json):
    """The cards of SCENARIO's game system: what each orders, in words (the
    card text its rule cites); the rule language's version with --rules-text
    and in --json."""
    from .dsl.unparse import card_orders

    eng = _engine(scenario, rules, "cards")
    deck = list(eng.pack.cards.values())
    if as_json:
        # "effects" and "text" (card name -> its declared effects, its
        # orders in words) are keys of their own: each card's object keeps
        # exactly the keys of the contract
        _json({"system": eng.pack.name, "cards": [
            {"name": c.name, "copies": c.get("copies"), "category": c.get("category"), "helmet": c.get("helmet"),
             "orders": card_orders(c)} for c in deck],
            "effects": {c.name: list(c.effects) for c in deck},
            "text": {c.name: _card_words(c) for c in deck}})
        return
    title = f"{eng.pack.title}: {sum(c.get('copies') for c in deck)} cards, {len(deck)} kinds"
    if rules_text:  # each card, its words and its rule text, one under the other (too wide for a table)
        out.print(f"[bold]{escape(title)}[/]")
        for c in deck:
            facts = [f"{c.get('copies')} cop{'ies' if c.get('copies') != 1 else 'y'}"] + [c.get("category") or ""] \
                + (["helmet"] if c.get("helmet") else []) + ([f"effects: {', '.join(c.effects)}"] if c.effects else [])
            out.print(f"\n[bold]{escape(c.name)}[/]  [dim]{escape(', '.join(f for f in facts if f))}[/]")
            out.print(f"  {escape(_card_words(c))}")
            out.print(f"  [cyan]{escape(card_orders(c))}[/]")
        return
    t = Table(title=title)
    effects = any(c.effects for c in deck)
    columns = ["card", "copies", "category", "helmet"] + (["effects"] if effects else []) + ["orders"]
    for col in columns:
        t.add_column(col, overflow="fold")
    for c in deck:
        row = [escape(c.name), str(c.get("copies")), c.get("category") or "", "yes" if c.get("helmet") else ""]
        row += [escape(", ".join(c.effects))] if effects else []
        row.append(escape(_card_words(c)))
        t.add_row(*row)
    out.print(t)


# ------------------------------------------------------------------ schema


@main.command()
@click.argument("system_name", metavar="SYSTEM")
@click.argument("kind", metavar="KIND")
@rules_option
@json_option
def schema(system_name, kind, rules, as_json):
    """The JSON Schema (draft 2020-12) of a KIND file (scenario, turn; and
    Warmaster's plan and wants, square-grid ancients' test) for the rule
    pack SYSTEM (cca, ccm, warmaster, grid-ancients), with the pack's unit
    types, card names and other names as enums: for an editor, e.g. a first
    line `# yaml-language-server: $schema=cca-scenario.json`. The answer is
    JSON with or without --json."""
    from .editor_schema import schema as editor_schema

    click.echo(json.dumps(editor_schema(system_name, kind, rules), ensure_ascii=False, indent=2))


# ------------------------------------------------------------------ batch
#
# `warcouncil batch JOBS.jsonl`: many queries, answered in parallel, one JSON
# record per input line, in input order. The runner (workers, chunks, the
# packs they share) is warcouncil/batch.py, imported only when the verb runs.

#: the most worker processes `batch --jobs N` starts: four per core (each
#: holds two pipes and a pack; more only wait for a core)
BATCH_JOBS_MAX = 4 * (os.cpu_count() or 1)


@main.command()
@click.argument("jobs_file", metavar="JOBS.jsonl")
@click.option("--jobs", "workers", type=click.IntRange(min=1, max=BATCH_JOBS_MAX), default=None,
              help=f"Worker processes on this machine (default: its cores; at most {BATCH_JOBS_MAX}, four "
                   "per core, and never more than there are lines).")
@click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
              help="Run the jobs on the Ray cluster at ADDRESS ('local': start one here); "
                   "needs the optional extra: pip install 'warcouncil[ray]'.")
def batch(jobs_file, workers, ray_address):
    """Answer the queries of JOBS.jsonl ('-': standard input), one JSON
    object per line: {"scenario": FILE, "verb": VERB, "args": {...}}, or
    {"scenario": FILE, "turn": FILE} to check a turn. Prints one JSON record
    per line, in input order: {"line": N, "exit": CODE, "answer": {...}}, or
    {"line": N, "error": MESSAGE, "exit": 2} for a line that cannot be run."""
    from .batch import run

    # (this module by its name, not __main__: what a worker not forked from this process imports)
    run(main, __spec__.name if __spec__ else __name__, jobs_file, workers, ray_address)


# ------------------------------------------------------------------ serve
#
# `warcouncil serve`: the board page and every verb over HTTP. The web stack
# (FastAPI, uvicorn: the optional extra `serve`) and warcouncil/serve/ are
# imported only when the verb runs.


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (the default: this machine only).")
@click.option("--port", type=click.IntRange(min=1, max=65535), default=8000, show_default=True,
              help="The port to listen on.")
@click.option("--workers", type=click.IntRange(min=1, max=BATCH_JOBS_MAX), default=None,
              help="Worker processes answering requests (default: the machine's cores).")
@click.option("--queue", type=click.IntRange(min=0), default=64, show_default=True,
              help="Requests that may wait for a worker; past them the service answers 503.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0, show_default=True,
              help="Seconds one request may run; past them its worker is killed and the answer is 504.")
@click.option("--memory", type=click.IntRange(min=64), default=1024, show_default=True, metavar="MIB",
              help="MiB of memory one request may use (RLIMIT_AS of its worker); past them the answer is 503.")
def serve(host, port, workers, queue, timeout, memory):
    """The board page and the referee service, over HTTP: GET / the page,
    POST /api/game a turn in play, POST /api/VERB every verb's --json answer,
    GET /openapi.json their description. Needs the optional extra:
    pip install 'warcouncil[serve]'."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise WarcouncilError(f"serve needs {e.name}, of the optional extra serve",
                              hint="pip install 'warcouncil[serve]'") from None
    from .serve import run

    click.echo(f"warcouncil serve: http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    run(main, host, port, workers, queue, timeout, memory * 1024 * 1024)


def _card_words(card) -> str:
    """What a card orders, in words: the card text its rule cites (Markdown
    emphasis dropped); the rule text when it cites none."""
    from .dsl.unparse import card_orders

    quotes = [c.quote.replace("**", "").replace("`", "") for c in card.citations]
    return "; ".join(q.strip() for q in quotes if q.strip()) or card_orders(card)


def _scenario_help() -> None:
    """Every verb with a SCENARIO says what it may be in its --help."""
    text = f"SCENARIO is a scenario shipped with warcouncil, by name ({SHIPPED}), or the path of a scenario file (YAML)."
    for command in main.commands.values():
        if any(p.name == "scenario" for p in command.params):
            command.help = inspect.cleandoc(command.help or "") + "\n\n" + text


_scenario_help()


# Arguments that name files: a name no file system can hold (a NUL byte, a
# part over 255 bytes, over 4096 in all) is bad input here, before any
# os.stat raises on it.
# (a family's option naming a file says so itself: ``Option.path``)
_PATH_PARAMS = frozenset({"scenario", "turn", "question", "wants", "paths", "base", "rules", "svg_path", "jobs_file"})


def _possible_path(value: str) -> str | None:
    """Why ``value`` cannot name a file, or None."""
    if "\x00" in value:
        return "it holds a NUL character"
    raw = value.encode("utf-8", "surrogateescape")
    if len(raw) > 4096 or any(len(part) > 255 for part in raw.split(b"/")):
        return "the name is too long for a file"
    return None


def _path_checked(callback):
    def check(ctx, param, value):
        for v in (value if isinstance(value, (tuple, list)) else [value]):
            why = _possible_path(v) if isinstance(v, str) else None
            if why:
                shown = v if len(v) <= 60 else v[:59] + "…"
                raise click.BadParameter(f"{shown!r} is no file or shipped name: {why}")
        return callback(ctx, param, value) if callback is not None else value
    return check


for _command in main.commands.values():
    for _param in _command.params:
        if _param.name in _PATH_PARAMS:
            _param.callback = _path_checked(_param.callback)


if __name__ == "__main__":  # pragma: no cover
    main()
