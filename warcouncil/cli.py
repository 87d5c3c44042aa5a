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
import itertools  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from fractions import Fraction  # noqa: E402
from pathlib import Path  # noqa: E402

import click  # noqa: E402

from . import _started  # noqa: E402 - the collector's start-up setting put back (warcouncil/__init__.py)
from .errors import WarcouncilError  # noqa: E402

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
ENGINE_VERBS = frozenset({"orders", "moves", "turns", "check", "odds", "plan", "activations", "cards"})

out = _LazyConsole(highlight=False, soft_wrap=True, emoji=False)
err = _LazyConsole(stderr=True, highlight=False, soft_wrap=True, emoji=False)


class Cli(click.Group):
    """Turns bad input into exit 2 with one clear message."""

    def resolve_command(self, ctx, args):
        name, cmd, rest = super().resolve_command(ctx, args)
        if name not in ENGINE_VERBS:  # the start is over: see warcouncil/__init__.py
            _started()
        return name, cmd, rest

    def invoke(self, ctx):
        if sys.stdout is None:  # started with standard output closed (`>&-`): no answer can be given
            err.print("cannot write the answer: standard output is closed", style="red")
            ctx.exit(EXIT_OUTPUT)
        _checked_stdout()
        try:
            try:
                return super().invoke(ctx)
            finally:
                # a closed pipe (`| head`) shows here, where it exits 0 below,
                # not in click's own exit handling (which would say 1: "illegal")
                sys.stdout.flush()
        except WarcouncilError as e:
            err.print(escape(str(e)), style="red")
            ctx.exit(2)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            ctx.exit(130)
        except RecursionError:  # the static bounds (dsl/bounds.py, dsl/static.py) should make this unreachable
            err.print("the rules are nested too deeply to evaluate (defines calling defines, expressions "
                      "inside expressions): simplify them", style="red")
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
json_option = click.option("--json", "as_json", is_flag=True, help="Machine output (JSON) on stdout.")


def _side_given(ctx, param, value):
    """--side names a side: an empty or blank name is refused, not ignored."""
    if value is not None and not value.strip():
        raise click.BadParameter("give a side's name (the scenario's `sides`), or leave --side out for its to_move")
    return value


def _command_given(ctx, param, value):
    """--command is a side's command, in the range of a scenario's `command`
    (``solver.scenario.SIDE_FIELDS``; read when given, so that the module
    is not imported for every verb). A card rolling more dice than its
    every-roll table allows asks for --roll (``ROLL_TABLE_DICE``)."""
    if value is None:
        return value
    from .solver.scenario import SIDE_FIELDS

    bounds = SIDE_FIELDS["command"].schema
    return click.IntRange(min=bounds["minimum"], max=bounds["maximum"]).convert(value, param, ctx)


def card_options(f):
    """--side, --roll, --copies and --command: how the card is played."""
    for opt in reversed([
        click.option("--side", default=None, callback=_side_given,
                     help="The side playing the card (default: the scenario's to_move)."),
        click.option("--roll", default=None,
                     help="Dice rolled, for cards that roll: 'light,helmet,flag' or 'light=2,helmet=1'."),
        click.option("--copies", default=None, metavar="CARD", help="The card a Counter Attack copies."),
        click.option("--command", "command", type=int, default=None, callback=_command_given,
                     help="The side's Command (hand size, in the range of a scenario's `command`) when the card "
                          "is played, if it differs from the scenario."),
    ]):
        f = opt(f)
    return f


@click.group(cls=Cli, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="warcouncil")
def main():
    """warcouncil: what may I legally order, move or activate now, how likely
    is it to work, and was that turn legal?

    SCENARIO is a scenario shipped with warcouncil, by name (akragas,
    practice_field: Commands & Colors; ridgeway: Warmaster; alesia:
    square-grid ancients), or the path of a scenario file (YAML; its
    `system:` key says which game). Exit codes: 0 an answer, 1
    "illegal" (check, moves) or lint errors, 2 bad input (one message
    naming file:line:column), 4 the answer could not be written (standard
    output closed or full).
    """


def _engine(scenario: str, rules, verb: str, card: str | None = None, card_given: bool = False):
    """The engine of SCENARIO's system, once the system says it answers
    ``verb`` (and, for a verb with --card, that its decision starts from a card,
    ``System.context == "card"``, and the card
    was given): otherwise bad input, exit 2."""
    from . import systems  # noqa: F401 - the shipped systems' places: no scan of every distribution's metadata
    from .solver.engine import Engine

    eng = Engine.load(scenario, list(rules))
    _started()
    system = eng.system
    system.require_verb(verb)
    if card_given:
        unread = (["--card"] if system.context != "card" and card is not None else []) + _unread_options(system, verb)
        if unread:
            raise WarcouncilError(f"{unread[0]} is for card-driven systems; {system.title or system.name} has no cards")
        if system.context == "card" and card is None:
            raise WarcouncilError(f"`{verb}` on a {system.title or system.name} scenario needs the card played: "
                                  "give it with --card CARD", hint="list the deck with: warcouncil cards " + scenario)
    return eng


#: the options of a verb with --card that a system without cards does not
#: read (by parameter name): all four when it answers the verb itself
#: (Warmaster); the side's --command is read by the engine of a system
#: whose decision has no context (``_orders_free``)
_CARD_ONLY = {"roll": "--roll", "copies": "--copies", "command": "--command", "engine_kind": "--engine"}


def _unread_options(system, verb: str) -> list[str]:
    """The card-only options given on the command line (not left at their
    default) that ``system`` does not read when it answers ``verb``."""
    from click.core import ParameterSource

    ctx = click.get_current_context(silent=True)
    if ctx is None or system.context == "card":
        return []
    return [opt for name, opt in _CARD_ONLY.items()
            if ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)
            and (name != "command" or verb in system.answers_itself)]


card_option = click.option("--card", default=None,
                           help="The card played, for card-driven systems (printed name; case, spaces and "
                                "hyphens ignored).")


# ------------------------------------------------------------------ orders


@main.command()
@click.argument("scenario")
@card_option
@click.option("--count", "count_only", is_flag=True, help="Only the number of legal order sets.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N order sets.")
@card_options
@click.option("--engine", "engine_kind", type=click.Choice(["fast", "csp"]), default="fast",
              help="fast: the structural enumerator; csp: plain python-constraint search (reference, slow).")
@click.option("--after", default=None, metavar="TURN",
              help="For systems whose orders follow a log (Warmaster): the orders next after this partial turn.")
@click.option("--svg", "svg_path", default=None, metavar="FILE",
              help="Also draw the board (systems that draw their own, e.g. Warmaster: the table after --after).")
@rules_option
@json_option
def orders(scenario, card, count_only, limit, side, roll, copies, command, engine_kind, after, svg_path, rules,
           as_json):
    """Every legal order set for CARD on the board of SCENARIO (for a system
    without cards: every order that may be given next)."""
    eng = _engine(scenario, rules, "orders", card, True)
    if "orders" in eng.system.answers_itself:
        _print_answer(eng.answer("orders", side=side, after=after, limit=limit, count_only=count_only), as_json,
                      _drawing(eng, svg_path, side=side, after=after))
        return
    if svg_path is not None:
        raise WarcouncilError("orders --svg is for systems that draw their own board (e.g. Warmaster); "
                              "for Commands & Colors use: moves --svg FILE")
    if after is not None:
        raise WarcouncilError("--after is for systems whose orders follow a turn log (e.g. Warmaster)")
    if eng.system.context != "card":  # no card: the system's engine lists its decisions
        _orders_free(eng, side, count_only, limit, command, as_json)
        return
    decl, _ = eng.resolve_card(card, copies)
    side = side or eng.scenario.to_move
    if side not in eng.scenario.sides:
        from .errors import closest

        hint = closest(side, eng.scenario.sides)
        raise WarcouncilError(f"unknown side {side!r}", hint=f"did you mean {hint[0]!r}?" if hint else
                              "sides: " + ", ".join(eng.scenario.sides))
    if decl.roll is not None and roll is None:
        _orders_every_roll(eng, decl, card, side, copies, command, count_only, limit, engine_kind, as_json)
        return
    g = eng.ground(card, side=side, roll=roll, copies=copies, command=command)
    _orders_one(eng, g, side, count_only, limit, engine_kind, as_json)


def _orders_free(eng, side, count_only, limit, command, as_json):
    """A system with no cards (``solver.decide.SetEngine``): every legal set
    of pieces the side may choose, by the python-constraint reference."""
    from .solver.decide import canonical

    side = side or eng.scenario.to_move
    if count_only:
        n = eng.count(side, command)
        if as_json:
            _json({"side": side, "count": n})
        else:
            click.echo(n)
        return
    got = canonical(eng.decisions(None if limit is None else limit + 1, side, command))
    sets, total, more = _cut(got, limit, None)
    rows = [{"pieces": [p.id for p in s]} for s in sets]
    if as_json:
        _json({"side": side, **_count_json(total, more, limit), "order_sets": rows})
        return
    out.print(f"[bold]{escape(eng.system.decision or 'decisions')}[/] — {escape(side)}")
    for r in rows:
        out.print("  " + (" ".join(r["pieces"]) if r["pieces"] else "[dim](none)[/]"))
    out.print(_footer(len(sets), total, more, "legal set", "legal sets"))


# `--limit N` bounds the work, not only the printing: N + 1 sets are made (the
# one past N says whether there are more) and the total is printed only when
# it comes cheap (the structural enumerator's closed-form count) or is asked
# for with --count; otherwise the footer says "more than N" and the JSON's
# `count` is null with `count_at_least` (see README, "Using it").


def _cut(got: list, limit: int | None, cheap) -> tuple[list, int | None, bool]:
    """(the sets to show, their total or None when unknown, whether there are
    more than shown) from at most ``limit + 1`` sets; ``cheap()`` gives the
    total when it needs no enumeration (or None)."""
    if limit is None or len(got) <= limit:
        return got, len(got), False
    return got[:limit], (cheap() if cheap is not None else None), True


def _count_json(total: int | None, more: bool, limit: int | None) -> dict:
    obj: dict = {"count": total}
    if limit is not None:
        obj["limited"] = more
        if total is None:
            obj["count_at_least"] = limit + 1
    return obj


def _footer(shown: int, total: int | None, more: bool, one: str, many: str) -> str:
    if total is None:
        return (f"more than [bold]{shown}[/] {many} (showing the first {shown}; "
                "--count gives the number)")
    more_text = f" (showing {shown})" if more else ""
    return f"[bold]{total}[/] {one if total == 1 else many}{more_text}"


def _sets(eng, g, limit, engine_kind):
    if engine_kind == "csp":
        from .systems.cc.csp import csp_order_sets

        return csp_order_sets(g, eng.plan, limit)  # stops at the limit-th set found
    return eng.order_sets(g, limit)


def _orders_one(eng, g, side, count_only, limit, engine_kind, as_json):
    name = g.played
    if count_only:
        n = len(_sets(eng, g, None, engine_kind)) if engine_kind == "csp" else eng.count(g)
        if as_json:
            _json({"card": name, "side": side, "count": n})
        else:
            click.echo(n)
        return
    cheap = (lambda: eng.count_cheap(g)) if engine_kind == "fast" and hasattr(eng, "count_cheap") else None
    if as_json:
        got = list(_sets(eng, g, None if limit is None else limit + 1, engine_kind))
        sets, total, more = _cut(got, limit, cheap)
        _json({"card": name, "side": side, **_count_json(total, more, limit),
               "order_sets": [eng.order_set_json(g, s) for s in sets]})
        return
    _print_header(eng, g, side)
    n, more = 0, False
    for s in _sets(eng, g, None if limit is None else limit + 1, engine_kind):
        if limit is not None and n >= limit:
            more = True  # the one past the limit: there are more
            break
        n += 1
        out.print(_format_set(eng, g, s))
    total = n if not more else (cheap() if cheap is not None else None)
    out.print(_footer(n, total, more, "legal order set", "legal order sets"))


def _print_header(eng, g, side):
    s = g.setting
    out.print(f"[bold]{escape(g.played)}[/] — {escape(side)} (Command {s.hand_size}, {s.edge} edge)")


def _format_set(eng, g, s) -> str:
    j = eng.order_set_json(g, s)
    if not j["units"] and not j["leaders"]:
        return "  [dim](no orders)[/]"
    parts = []
    if j["units"]:
        parts.append(" ".join(j["units"]))
    if j["leaders"]:
        parts.append("[cyan]leaders:[/] " + " ".join(j["leaders"]))
    return "  " + "  ".join(parts)


def _orders_every_roll(eng, decl, card, side, copies, command, count_only, limit, engine_kind, as_json):
    table = eng.roll_table(decl, side, command)
    rows = []
    for counts, p in table:
        g = eng.ground(card, side=side, roll=counts, copies=copies, command=command)
        rows.append((counts, p, g))
    if as_json:
        result = []
        for counts, p, g in rows:
            item = {"roll": counts, "probability": str(p), "p": float(p)}
            if count_only:
                item["count"] = eng.count(g)
            else:
                got = list(_sets(eng, g, None if limit is None else limit + 1, engine_kind))
                sets, total, more = _cut(got, limit, lambda g=g: eng.count_cheap(g))
                item.update(_count_json(total, more, limit))
                item["order_sets"] = [eng.order_set_json(g, s) for s in sets]
            result.append(item)
        _json({"card": rows[0][2].played if rows else decl.name, "side": side,
               "dice": eng.dice_count(decl, side, command), "rolls": result})
        return
    n_dice = eng.dice_count(decl, side, command)
    out.print(f"[bold]{escape(decl.name)}[/] — {escape(side)} rolls {n_dice} dice; "
              f"{len(rows)} outcomes that differ for this card (other faces order nothing)")
    total_p = Fraction(0)
    for counts, p, g in rows:
        total_p += p
        label = ", ".join(f"{f}×{c}" for f, c in counts.items() if c) or "no ordering symbol"
        if count_only or limit is None:
            n = eng.count(g)
            shown, more = None, False
        else:
            got = list(_sets(eng, g, limit + 1, engine_kind))
            shown, n, more = _cut(got, limit, lambda g=g: eng.count_cheap(g))
        many = f"more than {limit}" if n is None else str(n)
        out.print(f"[bold]roll {escape(label)}[/]  p = {p} ({float(p):.2%}): {many} order set"
                  f"{'s' if n != 1 else ''}" + (f" (showing {limit})" if more else ""))
        if not count_only:
            for s in (shown if shown is not None else _sets(eng, g, None, engine_kind)):
                out.print(_format_set(eng, g, s))
    out.print(f"[dim]probabilities sum to {total_p}[/]")


# ------------------------------------------------------------------ moves


def _ground_one_roll(verb, scenario, rules, card, side, roll, copies, command):
    """The engine and the grounding of a card for a verb that needs one roll
    (moves, turns: there is no listing of every roll for them)."""
    eng = _engine(scenario, rules, verb, card, True)
    decl, _ = eng.resolve_card(card, copies)
    if decl.roll is not None and roll is None:
        raise WarcouncilError(f"{decl.name} orders by a dice roll: give the roll with --roll")
    return eng, eng.ground(card, side=side, roll=roll, copies=copies, command=command)


@main.command()
@click.argument("scenario")
@card_option
@click.option("--order", "orders", multiple=True, metavar="ID",
              help="A piece given an order (repeatable): units, and leaders with an order of their own.")
@card_options
@click.option("--svg", "svg_path", default=None, metavar="FILE", help="Also draw the board with the destinations.")
@rules_option
@json_option
def moves(scenario, card, orders, side, roll, copies, command, svg_path, rules, as_json):
    """Every legal destination of each ordered piece (as if it moved first)."""
    eng, g = _ground_one_roll("moves", scenario, rules, card, side, roll, copies, command)
    if not orders:
        raise WarcouncilError("`moves` needs the pieces given an order: --order ID (repeatable)")
    if svg_path:
        from .systems.cc.svg import render_board, require_drawable

        require_drawable(g.setting.board)  # before the answer is computed
    legal, dests = eng.destinations(g, list(orders))
    must = eng.must_battle(g, list(orders), dests)  # {id: hexes legal only if it then battles}
    verdict = None if legal else eng.check_orders(g, list(orders))
    if svg_path:
        try:
            with open(svg_path, "w", encoding="utf-8") as f:
                f.write(render_board(g, dests, title=f"{g.played}: {', '.join(orders)}"))
        except OSError as e:
            raise WarcouncilError(f"cannot write {svg_path}: {e.strerror or e}") from None
    if as_json:
        obj = {"card": g.played, "side": g.setting.side, "legal": legal, "moves": eng.destinations_json(dests, must)}
        if verdict is not None:
            obj["violations"] = [v.as_json() for v in verdict.violations]
        _json(obj)
    else:
        _print_header(eng, g, g.setting.side)
        if verdict is not None:
            out.print("[red bold]the order set itself is illegal[/]")
            for v in verdict.violations:
                out.print(f"  [bold]{escape(v.rule)}[/] {escape('[' + ', '.join(v.pieces) + ']')} {escape(v.message)}")
        for pid, ds in dests.items():
            if not ds:
                out.print(f"  [bold]{escape(pid)}[/]: no legal destination")
                continue
            cells = " ".join(f"{c},{r}" + ("" if battle is not False else "[dim](no battle)[/]")
                             + ("[dim](must battle)[/]" if (c, r) in must.get(pid, ()) else "")
                             for (c, r), battle in ds.items())
            out.print(f"  [bold]{escape(pid)}[/] ({len(ds)}): {cells}")
    sys.exit(0 if legal else 1)


# ------------------------------------------------------------------ turns


@main.command()
@click.argument("scenario")
@card_option
@click.option("--count", "count_only", is_flag=True, help="Only the number of distinct end positions.")
@click.option("--limit", type=click.IntRange(min=0), default=None, help="Stop after N end positions.")
@card_options
@rules_option
@json_option
def turns(scenario, card, count_only, limit, side, roll, copies, command, rules, as_json):
    """Every distinct end position the card's legal orders and moves can reach."""
    from .systems.cc.turns import count_end_positions, end_positions

    eng, g = _ground_one_roll("turns", scenario, rules, card, side, roll, copies, command)
    g.setting.board.require("cells", "turns")  # before any header: a table has no cells

    def as_obj(end):
        return {p.id: list(c) for p, c in sorted(end.items(), key=lambda kv: kv[0].rank)}

    if count_only:
        # bounded memory (issue 15): positions are counted as keys, spilled to disk past a bound
        # a progress bar on a terminal's stderr, never with --json
        n = count_end_positions(eng, g, progress=False if as_json else None) if limit is None \
            else sum(1 for _ in end_positions(eng, g, limit))
        if as_json:
            _json({"card": g.played, "side": g.setting.side, "count": n})
        else:
            click.echo(n)
        return
    # --limit N: N + 1 positions are made (the one past N says there are more); no total is counted
    bound = None if limit is None else limit + 1
    if as_json:
        got = list(end_positions(eng, g, bound))
        ends, total, more = _cut(got, limit, None)
        obj = {"card": g.played, "side": g.setting.side, "positions": [as_obj(e) for e in ends]}
        if limit is not None:
            obj["limited"] = more
        _json(obj)
        return
    _print_header(eng, g, g.setting.side)
    n, more = 0, False
    for end in end_positions(eng, g, bound):
        if limit is not None and n >= limit:
            more = True
            break
        n += 1
        moved = ", ".join(f"{pid}→{c[0]},{c[1]}" for pid, c in as_obj(end).items()) or "(nothing moves)"
        out.print(f"  {escape(moved)}")
    out.print(_footer(n, None if more else n, more, "end position", "end positions"))


# ------------------------------------------------------------------ diff


@main.command()
@click.argument("scenario")
@card_option
@click.option("--order", "orders", multiple=True, metavar="ID",
              help="Compare the moves of this order set (default: each piece the card can order alone).")
@card_options
@click.option("--limit", type=click.IntRange(min=0), default=None, help="At most N changes of each kind.")
@rules_option
@json_option
def diff(scenario, card, orders, side, roll, copies, command, limit, rules, as_json):
    """What the house rules (--rules) change for CARD on SCENARIO: order sets
    and moves that become legal or illegal, with the rule responsible."""
    from .systems.cc.diff import diff as run_diff

    if card is None:
        raise WarcouncilError("`diff` needs the card played: give it with --card CARD",
                              hint="list the deck with: warcouncil cards " + scenario)
    d = run_diff(scenario, list(rules), card, side=side, roll=roll, copies=copies, command=command,
                 orders=list(orders) or None, limit=limit)
    if as_json:
        _json(d.as_json())
        return
    out.print(f"[bold]{escape(d.card)}[/] — {escape(d.side)}, with {escape(', '.join(d.layers))}")
    out.print(f"order sets: {d.before} before, {d.after} with the house rules")

    def because(ch):
        if not ch.because:
            return ""
        parts = sorted({f"{b['rule']} ({b['file'] or b['source']})" for b in ch.because})
        return "  [dim]" + escape("; ".join(parts)) + "[/]"

    def fmt_set(j):
        s = " ".join(j["units"]) or ""
        if j["leaders"]:
            s += (" " if s else "") + "leaders: " + " ".join(j["leaders"])
        return s or "(no orders)"

    for label, items, word in (("now legal", d.legal_now, "was illegal by"), ("now illegal", d.illegal_now, "illegal by")):
        if items:
            out.print(f"[bold]{label}[/] ({len(items)}):")
            for ch in items:
                out.print(f"  + {escape(fmt_set(ch.what))}" if label == "now legal" else f"  - {escape(fmt_set(ch.what))}",
                          end="")
                out.print(f"  [dim]{word}[/]{because(ch)}" if ch.because else "")
    for pid, entry in d.moves.items():
        for key, sign in (("legal_now", "+"), ("illegal_now", "-")):
            for ch in entry[key]:
                to = ch.what["to"]
                out.print(f"  {escape(pid)} {sign}{to[0]},{to[1]}{because(ch)}")
        for ch in entry["battle_changed"]:
            to = ch.what["to"]
            out.print(f"  {escape(pid)} {to[0]},{to[1]}: battle {ch.what['battle_before']} → {ch.what['battle_after']}")
    if not d.legal_now and not d.illegal_now and not d.moves:
        out.print("no change for this card")


# ------------------------------------------------------------------ check


@main.command()
@click.argument("scenario")
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
    from .solver.turn import load_turn

    eng = _engine(scenario, rules, "check")
    if write_next is not None and eng.system.game is None:
        raise WarcouncilError(f"--write-next: the {eng.system.title or eng.system.name} system has no game interface")
    if "check" in eng.system.answers_itself:
        answer = eng.answer("check", path=turn)
        if write_next is not None and answer.exit_code == 0:
            _write_next(eng, turn, write_next)
        _print_answer(answer, as_json)
        return
    t = load_turn(turn, eng.scenario.board, contextual=eng.system.context is not None)
    verdict = eng.check_turn(t)
    if write_next is not None and verdict.legal:
        _write_next(eng, turn, write_next)
    if as_json:
        _json(verdict.as_json())
    elif verdict.legal:
        out.print("[green]legal[/]")
    else:
        out.print(f"[red bold]illegal[/]: {len(verdict.violations)} violation{'s' if len(verdict.violations) != 1 else ''}")
        for v in verdict.violations:
            pieces = ", ".join(v.pieces) if v.pieces else "-"
            out.print(f"  [bold]{escape(v.rule)}[/] {escape('[' + pieces + ']')} {escape(v.message)}")
            # the document's title for players (the file stays in --json)
            source = eng.pack.document_name(v.source)
            out.print(f"    {escape(source)}: [italic]“{escape(v.quote)}”[/]" if v.quote else f"    {escape(source)}")
    sys.exit(0 if verdict.legal else 1)


def _write_next(eng, turn_path: str, target: str) -> None:
    """``check --write-next``: the scenario after the legal turn in
    ``turn_path`` (the game interface's ``Turn.next_scenario``), as YAML."""
    import yaml

    from .solver.scenario import parse_yaml, plain
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
    elif ans.text:
        out.print(escape(ans.text))
    sys.exit(ans.exit_code)


@main.command()
@click.argument("scenario")
@click.argument("question", metavar="FILE")
@rules_option
@json_option
def odds(scenario, question, rules, as_json):
    """The exact odds of FILE on SCENARIO: a plan of orders (Warmaster) or a
    roll and its situation (square-grid ancients). Fractions in lowest terms."""
    eng = _engine(scenario, rules, "odds")
    _print_answer(eng.answer("odds", path=question), as_json)


@main.command("plan")
@click.argument("scenario")
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
@click.argument("scenario")
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
              help="List each sentence of the seed documents the pack cites, and which rules cite it.")
@click.option("--allow-documents", "allow_documents", multiple=True, metavar="DIR",
              help="Also read cited documents inside DIR (else only inside each rule file's own folder).")
@json_option
def lint(paths, base, show_coverage, allow_documents, as_json):
    """Parse and check rule files; every error with file:line:column."""
    from .dsl.lint import coverage, house_hint, lint as run_lint
    from .dsl.pack import pack_files

    for target in list(paths) + ([base] if base is not None else []):
        pack_files(target)  # a missing file or pack is bad input (exit 2), not a lint error
    pack, problems = run_lint(list(paths), base, allow_documents)
    hint = house_hint(list(paths), problems) if base is None else None
    cov = coverage(pack) if (show_coverage and pack is not None) else None
    if as_json:
        obj = {"errors": [{"file": p.location.file, "line": p.location.line, "column": p.location.column,
                           "message": p.message, "hint": p.hint} for p in problems]}
        if cov is not None:
            obj["coverage"] = [{"document": s.document, "line": s.line, "sentence": s.text, "cited_by": s.cited_by}
                               for s in cov]
        if hint:
            obj["hint"] = hint
        _json(obj)
    else:
        for p in problems:
            err.print(escape(str(p)), style="red")
        if hint:
            err.print(escape(f"hint: {hint}"), style="yellow")
        if cov is not None:
            done = sum(1 for s in cov if s.cited_by)
            for s in cov:
                mark = "[green]✓[/]" if s.cited_by else "[red]✗[/]"
                who = f"  [dim]{escape(', '.join(s.cited_by))}[/]" if s.cited_by else ""
                out.print(f"{mark} {escape(s.document)}:{s.line} {escape(s.text)}{who}")
            out.print(f"{done}/{len(cov)} sentences cited")
        if not problems:
            files = len(pack.files) if pack else 0
            out.print(f"[green]clean[/]: {files} file{'s' if files != 1 else ''}, "
                      f"{len(pack.rules)} rules, {len(pack.define_ids)} defines, {len(pack.cards)} cards")
    sys.exit(1 if problems else 0)


# ------------------------------------------------------------------ cards


@main.command()
@click.argument("scenario")
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
            {"name": c.name, "copies": c.copies, "category": c.category, "helmet": c.helmet,
             "orders": card_orders(c)} for c in deck],
            "effects": {c.name: list(c.effects) for c in deck},
            "text": {c.name: _card_words(c) for c in deck}})
        return
    title = f"{eng.pack.title}: {sum(c.copies for c in deck)} cards, {len(deck)} kinds"
    if rules_text:  # each card, its words and its rule text, one under the other (too wide for a table)
        out.print(f"[bold]{escape(title)}[/]")
        for c in deck:
            facts = [f"{c.copies} cop{'ies' if c.copies != 1 else 'y'}"] + [c.category or ""] \
                + (["helmet"] if c.helmet else []) + ([f"effects: {', '.join(c.effects)}"] if c.effects else [])
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
        row = [escape(c.name), str(c.copies), c.category or "", "yes" if c.helmet else ""]
        row += [escape(", ".join(c.effects))] if effects else []
        row.append(escape(_card_words(c)))
        t.add_row(*row)
    out.print(t)


# ------------------------------------------------------------------ batch
#
# `warcouncil batch JOBS.jsonl`: many queries, answered in parallel, one JSON
# record per input line, in input order (issue 15). A job is run as the verb
# itself would run it (`--json` added), in a worker process; a line that
# cannot be run gets its own error record and the batch goes on.

BATCH_LINE_LIMIT = 1024 * 1024  # bytes in one line of a jobs file
BATCH_CHUNK = 8  # lines sent to a worker at a time (fewer near the end: `_batch_chunks`)
_BATCH_KEYS = {"scenario", "verb", "args", "turn", "id"}
_PACK_MEMO: dict = {}
_PACK_MEMO_SIZE = 16
# What a job's verb prints, caught: the same two buffers for every job, emptied after each. (A new
# buffer per job was kept by click, with the job's whole answer, for as long as the process ran:
# click.echo caches the stream it writes to in a WeakKeyDictionary whose value is that stream.)
_BATCH_STREAMS = (io.StringIO(), io.StringIO())
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
    lines = _batch_lines(jobs_file)
    first = next(lines, None)  # an unreadable jobs file is bad input before anything runs
    if first is None:
        return
    lines = itertools.chain([first], lines)
    for block in _batch_run(lines, workers, ray_address):
        click.echo(block)  # the records of a few lines, one a line


def _batch_lines(path: str):
    """(line number, text or an error record) for each non-blank line."""
    if path == "-":
        stream = sys.stdin.buffer
    else:
        import stat

        try:
            st = os.stat(path)
        except OSError as e:
            raise WarcouncilError(f"cannot read jobs file {path}: {e.strerror or e}") from None
        if not stat.S_ISREG(st.st_mode):
            raise WarcouncilError(f"jobs file {path} is not a regular file")
        stream = open(path, "rb")  # noqa: SIM115 - closed below
    try:
        n = 0
        while True:
            raw = stream.readline(BATCH_LINE_LIMIT + 1)
            if not raw:
                return
            n += 1
            if len(raw) > BATCH_LINE_LIMIT and not raw.endswith(b"\n"):
                while raw and not raw.endswith(b"\n"):  # skip the rest of the long line
                    raw = stream.readline(BATCH_LINE_LIMIT)
                yield n, {"line": n, "error": f"line longer than {BATCH_LINE_LIMIT} bytes", "exit": 2}
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as e:
                yield n, {"line": n, "error": f"not UTF-8: {e.reason} at byte {e.start}", "exit": 2}
                continue
            if text.strip():
                yield n, text
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _batch_chunks(lines, width: int = 1, size: int = BATCH_CHUNK):
    """The lines in chunks of ``size``, read a few chunks ahead; once the
    end of the input is read, the lines left go in smaller chunks (about an
    eighth of them each, one line at the last), so that the workers run
    out of work together rather than one waiting on another's last chunk."""
    from collections import deque

    ahead: deque = deque()
    lines = iter(lines)
    ended = False
    while True:
        while not ended and len(ahead) < 2 * width * size:
            item = next(lines, None)
            if item is None:
                ended = True
            else:
                ahead.append(item)
        if not ahead:
            return
        n = size if not ended else max(1, min(size, len(ahead) // (4 * width)))
        yield [ahead.popleft() for _ in range(min(n, len(ahead)))]


def _batch_run(lines, workers: int | None, ray_address: str | None):
    """The records of every line, in input order: in this process (one
    worker), in a pool of processes, or on a Ray cluster; at most a few
    chunks per worker in flight, so a batch of any length runs in bounded
    memory."""
    cwd = os.getcwd()
    if ray_address is not None:
        runner = _batch_ray(ray_address, cwd)
        yield from _batch_stream(_batch_chunks(lines, runner.width), runner)
        return
    width = workers or os.cpu_count() or 1
    lines = iter(lines)
    head = list(itertools.islice(lines, width))  # never more workers than lines
    width = min(width, len(head))
    lines = itertools.chain(head, lines)
    if width <= 1:
        with _BatchGC():
            for chunk in _batch_chunks(lines):
                yield _batch_pool_chunk(chunk, cwd)
        return
    chunks = _batch_chunks(lines, width)
    first = next(chunks)
    chunks = itertools.chain([first], chunks)
    with _BatchGC():
        _batch_warm(first, cwd)
        # the workers, forked, start with the collector as set here
        runner = (_BatchForks if hasattr(os, "fork") else _BatchPool)(width, cwd)
        yield from _batch_stream(chunks, runner)


def _batch_stream(chunks, runner):
    from collections import deque

    pending: deque = deque()  # (chunk, handle), in input order
    try:
        for chunk in chunks:
            pending.append((chunk, runner.submit(chunk)))
            if len(pending) >= 4 * runner.width:
                yield runner.result(pending)
        while pending:
            yield runner.result(pending)
    finally:
        runner.close()


BATCH_GC_YOUNG = 5_000  # new objects between two collections of the youngest generation (Python: 700)


class _BatchGC:
    """The collector while a batch runs here and in its workers (forked:
    they start with this setting). A job makes thousands of objects that
    live as long as it does: collected every 700 new objects, they were
    walked several times each and, moved to the oldest generation, made
    its walks longer as the batch went on. The youngest generation is now
    collected every ``BATCH_GC_YOUNG`` new objects (a job's cycles are still
    freed, ~1 MB later; 20 000 took ~5 MB more at the peak and was no
    faster on the clock: bench/HISTORY.md, "Seventh session — batch"), and
    what a process's first chunk leaves (the pack, its plan, the rules
    compiled) is frozen out of
    the walks (``_batch_pool_chunk``). The threshold is put back when the batch ends;
    what was frozen stays frozen: the process normally ends with the batch,
    and the interpreter's last collections as it exits then leave it alone
    (callgrind, 369 jobs, 2 workers: the batch process's exit took 51 M
    instructions with the heap unfrozen, 13 M frozen)."""

    def __enter__(self):
        import gc

        self.threshold = gc.get_threshold()
        gc.set_threshold(max(BATCH_GC_YOUNG, self.threshold[0]), *self.threshold[1:])
        _BATCH_FROZEN.clear()
        return self

    def __exit__(self, *exc):
        import gc

        gc.set_threshold(*self.threshold)
        _BATCH_FROZEN.clear()
        return False


_BATCH_FROZEN: list = []  # the process whose first chunk's objects are frozen


def _batch_pool_chunk(chunk, cwd: str) -> str:
    """``_batch_chunk`` in this process or a worker of the pool; after the
    first chunk a process runs, what it kept (the pack, its plan, the rules
    its jobs compiled) is left out of the collector's walks."""
    out = _batch_chunk(chunk, cwd)
    if _BATCH_FROZEN != [os.getpid()]:
        import gc

        gc.freeze()
        _BATCH_FROZEN[:] = [os.getpid()]
    return out


def _batch_warm(chunk, cwd: str) -> None:
    """Before the workers are forked: the packs of the first jobs read and
    planned here, once, so that every worker starts with them (copy on
    write) instead of each reading and planning its own; then the collector
    told to leave what is there alone (``gc.freeze``), so that it does not
    touch, and so copy, the shared pages in every worker. The rules are not
    compiled here: each worker compiles the ones its jobs ask for, in
    parallel, where compiling all of them here was serial work that the
    jobs mostly did not need (bench_batch.py: the batch process's own CPU
    0.22 -> 0.19 s; the speed-up itself moved within the benchmark's noise).
    Only a head start: whatever fails here is left for the job itself to
    report."""
    import gc

    from . import systems  # noqa: F401 - the shipped systems' places
    from .solver.engine import Engine

    if os.getcwd() != cwd:  # pragma: no cover - the batch runs where it was started
        return
    seen = set()
    with _BatchSharedPacks():
        for _, item in chunk:
            try:
                job = json.loads(item)
                rules = job.get("args", {}).get("rules", [])
                key = (job["scenario"], tuple([rules] if isinstance(rules, str) else rules))
                if key in seen or not isinstance(key[0], str) or not all(isinstance(r, str) for r in key[1]):
                    continue
                seen.add(key)
                Engine.load(*key)
            except Exception:  # noqa: BLE001 - bad input or a bug: the job's own record says which
                continue
    gc.freeze()


def _batch_died(chunk, why: str) -> str:
    return "\n".join(_batch_json({"line": n, "error": f"the worker running this line stopped: {why}", "exit": 3})
                     for n, _ in chunk)


class _BatchPool:
    """Worker processes on this machine, by multiprocessing (where there is
    no ``os.fork``; elsewhere ``_BatchForks``). A worker that dies (killed, out of
    memory, a crash below Python) takes the pool and the chunks in flight
    with it: the pool is made again, the chunk waited for is run again a
    line at a time (the line that kills its worker again gets an error
    record, exit 3) and the other chunks are sent again."""

    def __init__(self, width: int, cwd: str):
        from .solver import engine  # noqa: F401 - imported once here: forked workers start with it

        self.width, self.cwd = width, cwd
        self._new()

    def _new(self):
        from concurrent.futures import ProcessPoolExecutor

        self.pool = ProcessPoolExecutor(max_workers=self.width)

    def submit(self, chunk):
        from concurrent.futures import Future
        from concurrent.futures.process import BrokenProcessPool

        try:
            return self.pool.submit(_batch_pool_chunk, chunk, self.cwd)
        except BrokenProcessPool as e:
            # a worker died since the last chunk was sent: this chunk is sent
            # again, with the others in flight, when ``result`` reaches it
            # (or the chunk before it) and makes the pool anew
            lost: Future = Future()
            lost.set_exception(e)
            return lost

    def result(self, pending) -> str:
        from concurrent.futures.process import BrokenProcessPool

        chunk, fut = pending.popleft()
        try:
            return fut.result()
        except BrokenProcessPool:
            pass
        self.close()
        self._new()
        rest = [c for c, _ in pending]
        pending.clear()
        out = []
        for item in chunk:  # alone, one at a time: only the line that kills a worker fails
            try:
                out.append(self.submit([item]).result())
            except BrokenProcessPool as e:
                out.append(_batch_died([item], str(e) or "a worker process ended abruptly"))
                self.close()
                self._new()
        pending.extend((c, self.submit(c)) for c in rest)
        return "\n".join(out)

    def close(self):
        self.pool.shutdown(wait=True, cancel_futures=True)


class _BatchForks:
    """Worker processes forked from this one (POSIX), each given one chunk
    at a time through a pipe and answering through another: what
    ``_BatchPool`` does, without multiprocessing (its imports, ~20-30 ms,
    were in the batch process's serial start, and its threads' work and
    teardown in the batch process's CPU besides). Messages are an 8-byte
    length and JSON (a chunk) or UTF-8 (its records). A worker that dies
    (killed, out of memory, a crash below Python: its pipe ends) loses only
    its own chunk: that chunk is run again a line at a time, in new
    workers, and the line that kills its worker again gets an error record
    (exit 3); the other workers go on."""

    def __init__(self, width: int, cwd: str):
        from collections import deque

        from .solver import engine  # noqa: F401 - imported once here: forked workers start with it

        self.width, self.cwd = width, cwd
        self.workers: list = []  # [pid, task fd, result fd, the job it runs or None, bytes read]
        self.queue: deque = deque()  # jobs not yet sent: [chunk, records or None, alone]
        try:
            for _ in range(width):
                self.workers.append(self._fork())
        except OSError as e:  # out of processes, file descriptors, memory: the ones started are ended
            self.close()
            raise WarcouncilError(f"cannot start {width} worker processes: {e.strerror or e}",
                                  hint="run fewer with --jobs N") from None

    def _fork(self) -> list:
        sys.stdout.flush()
        sys.stderr.flush()
        fds: list[int] = []
        try:
            fds += os.pipe()
            fds += os.pipe()
            pid = os.fork()
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        task_r, task_w, res_r, res_w = fds
        if pid == 0:  # pragma: no cover - the worker (its lines are counted in the batch's tests' answers)
            code = 1
            try:
                os.close(task_w)
                os.close(res_r)
                for w in self.workers:  # the other workers' pipes: theirs to end
                    for fd in w[1:3]:
                        os.close(fd)
                _batch_serve(task_r, res_w, self.cwd)
                code = 0
            finally:
                os._exit(code)
        os.close(task_r)
        os.close(res_w)
        return [pid, task_w, res_r, None, bytearray()]

    def submit(self, chunk):
        job = [chunk, None, False]
        self.queue.append(job)
        self._send()
        return job

    def _send(self) -> None:
        """Idle workers given the next jobs (one each: a worker reads its
        whole chunk before it writes anything, so neither side waits on
        the other's full pipe)."""
        while self.queue:
            w = next((w for w in self.workers if w[3] is None), None)
            if w is None:
                return
            job = w[3] = self.queue.popleft()
            data = json.dumps(job[0]).encode()
            try:
                _write_all(w[1], len(data).to_bytes(8, "little") + data)
            except OSError:  # (EPIPE) it died since its last chunk
                self._died(w)

    def result(self, pending) -> str:
        import select

        chunk, job = pending.popleft()
        while job[1] is None:
            self._send()
            busy = {w[2]: w for w in self.workers if w[3] is not None}  # (the job is in one, or waits for one)
            ready, _, _ = select.select(list(busy), [], [])
            for fd in ready:
                w = busy[fd]
                data = os.read(fd, 1 << 16)
                if not data:
                    self._died(w)
                    continue
                buf = w[4]
                buf += data
                if len(buf) >= 8 and len(buf) - 8 >= int.from_bytes(buf[:8], "little"):
                    done, w[3] = w[3], None
                    done[1] = buf[8:].decode()
                    del buf[:]
                    self._finish(done)
        return job[1]

    def _finish(self, job) -> None:
        parent = job[2]
        if isinstance(parent, list):  # one line of a chunk run again alone: [chunk's job, records, lines' jobs]
            parent[1][next(i for i, x in enumerate(parent[2]) if x is job)] = job[1]
            if all(r is not None for r in parent[1]):
                parent[0][1] = "\n".join(parent[1])

    def _died(self, w) -> None:
        """A worker ended: its job run again a line at a time (a line alone
        that kills its worker: an error record), a new worker in its place."""
        import contextlib

        for fd in w[1:3]:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.waitpid(w[0], 0)
        job = w[3]
        self.workers.remove(w)  # (before the fork: its fds' numbers may be the new pipes')
        self.workers.append(self._fork())
        if job is None:
            return
        if job[2] is not False:  # already alone
            job[1] = _batch_died(job[0], "a worker process ended abruptly")
            self._finish(job)
            return
        singles = [[[item], None, None] for item in job[0]]
        group = [job, [None] * len(singles), singles]
        for one in singles:
            one[2] = group
        self.queue.extendleft(reversed(singles))

    def close(self) -> None:
        import contextlib

        for w in self.workers:
            with contextlib.suppress(OSError):
                os.close(w[1])  # the worker reads the end and exits
        for w in self.workers:
            with contextlib.suppress(OSError):
                os.close(w[2])
            if w[3] is not None:  # stopped early (an error here): not waited for
                with contextlib.suppress(OSError):
                    os.kill(w[0], 15)
            with contextlib.suppress(OSError):
                os.waitpid(w[0], 0)
        self.workers = []


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _batch_serve(task_fd: int, result_fd: int, cwd: str) -> None:
    """A forked worker: chunks read from ``task_fd`` until it ends, each
    chunk's records written to ``result_fd``."""
    with os.fdopen(task_fd, "rb") as tasks:
        while True:
            head = tasks.read(8)
            if len(head) < 8:
                return
            chunk = [tuple(item) for item in json.loads(tasks.read(int.from_bytes(head, "little")))]
            out = _batch_pool_chunk(chunk, cwd).encode()
            _write_all(result_fd, len(out).to_bytes(8, "little") + out)


def _batch_ray(address: str, cwd: str):
    """A runner (width, submit, result, close) on a Ray cluster."""
    try:
        import ray
    except ImportError:
        raise WarcouncilError("--ray needs Ray, an optional extra", hint="pip install 'warcouncil[ray]'") from None
    try:
        ray.init(address=None if address == "local" else address, ignore_reinit_error=True,
                 log_to_driver=False, logging_level="ERROR")
    except (ConnectionError, RuntimeError, ValueError) as e:
        raise WarcouncilError(f"cannot reach the Ray cluster at {address}: {e}") from None
    from . import cli  # this module by its name (not __main__): what Ray's workers import

    remote = ray.remote(cli._batch_chunk)

    class Runner:
        width = max(1, int(ray.cluster_resources().get("CPU", 1)))

        @staticmethod
        def submit(chunk):
            return remote.remote(chunk, cwd)

        @staticmethod
        def result(pending):
            chunk, ref = pending.popleft()
            try:
                return ray.get(ref)
            except ray.exceptions.RayError as e:  # a worker or node lost (Ray has retried the task)
                return _batch_died(chunk, type(e).__name__)

        @staticmethod
        def close():
            pass

    return Runner


def _batch_chunk(chunk, cwd: str) -> str:
    """Run a few lines (in a worker): their records, in order, as JSON
    lines joined into one text (made here, in parallel: the process that
    prints them only writes it)."""
    if os.getcwd() != cwd:
        os.chdir(cwd)  # paths in jobs are relative to where the batch was started
    out = []
    with _BatchSharedPacks():
        for n, item in chunk:
            out.append(_batch_json(item) if isinstance(item, dict) else _batch_one(n, item))
    return "\n".join(out)


class _BatchSharedPacks:
    """While a worker runs jobs, jobs on the same rule files share one
    loaded pack and its plan (the rules as compiled, kept with the pack):
    ``Engine.load`` reads the pack through a memo keyed by the pack, its
    house-rule layers and the bytes of their files. Every job still reads
    its scenario and grounds its query afresh."""

    def __enter__(self):
        from .solver import engine

        self._module, self._real = engine, engine.load_pack
        if getattr(self._real, "_batch_memo", False):
            self._module = None  # already shared (a nested call)
            return self

        def load(target, layers=(), *, strict=True):
            key = _batch_pack_key(target, layers, strict)
            hit = _PACK_MEMO.get(key) if key is not None else None
            if hit is not None:
                return hit[0]
            pack = self._real(target, layers, strict=strict)
            if key is not None:
                from .solver.plan import plan_for

                while len(_PACK_MEMO) >= _PACK_MEMO_SIZE:
                    _PACK_MEMO.pop(next(iter(_PACK_MEMO)))
                # the pack's plan kept with it (``plan_for`` holds a plan only while
                # something else does): its rules compiled once, not once per job
                # (what a job keeps of its own scenario is kept with its setting, not the plan's
                # compiler: the plan's memos stay as they are however many jobs read it;
                # test_batch_memo.py)
                _PACK_MEMO[key] = (pack, plan_for(pack))
            return pack

        load._batch_memo = True
        engine.load_pack = load
        return self

    def __exit__(self, *exc):
        if self._module is not None:
            self._module.load_pack = self._real
        return False


def _batch_pack_key(target, layers, strict):
    """What a loaded pack depends on: the files of the pack and of each
    layer, by content. None (no sharing) if a file cannot be read."""
    parts = []
    try:
        for t in [target, *layers]:
            files = [Path(f) for f in t] if isinstance(t, list) else _batch_pack_files(t)
            parts.append(tuple(_batch_file_key(f) for f in files))
    except (OSError, WarcouncilError):
        return None
    return (tuple(parts), strict)


_FILE_KEYS: dict = {}  # (file or pack as named, the folder it is named from) -> (stat, key or files)
_FILE_KEYS_SIZE = 1024


def _batch_stat(path) -> tuple | None:
    try:
        return _stat_key(os.stat(path))
    except (OSError, ValueError):
        return None


def _stat_key(st) -> tuple:
    """What of a file's stat says its bytes are unchanged: mode, device, inode, size, times in ns."""
    return (st.st_mode, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _batch_pack_files(target) -> list[Path]:
    """``pack_files(target)``, looked up again only when what it reads
    changes: the stat of ``target`` and of the shipped pack of that name
    (a folder's times change when a file is added, removed or renamed)."""
    from .dsl.pack import PACKS_DIR, pack_files

    name = ("pack", str(target), os.getcwd())
    seen = (_batch_stat(target), _batch_stat(PACKS_DIR / str(target)))
    hit = _FILE_KEYS.get(name)
    if hit is not None and hit[0] == seen:
        return hit[1]
    files = pack_files(target)
    _batch_keep(name, seen, files)
    return files


def _batch_keep(name, seen, value) -> None:
    if len(_FILE_KEYS) >= _FILE_KEYS_SIZE:
        _FILE_KEYS.pop(next(iter(_FILE_KEYS)))
    _FILE_KEYS[name] = (seen, value)


def _batch_file_key(f: Path) -> tuple[str, str]:
    """A rule file by content: (its path resolved, the SHA-256 of its bytes).
    Read and hashed again only when the file's stat changes (device, inode,
    size, modification and change times in ns), not for every job: a job
    took ~1 ms to resolve and hash the six files of the C&C pack."""
    import hashlib

    name = ("file", str(f), None if f.is_absolute() else os.getcwd())
    hit = _FILE_KEYS.get(name)
    if hit is not None and hit[0] == _batch_stat(f):
        return hit[1]
    with open(f, "rb") as stream:
        st = os.fstat(stream.fileno())  # the stat of the bytes read, should the file change meanwhile
        key = (str(f.resolve()), hashlib.sha256(stream.read()).hexdigest())
    _batch_keep(name, _stat_key(st), key)
    return key


def _batch_json(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False)


def _batch_one(n: int, text: str) -> str:
    """One line's record, a JSON line."""
    try:
        job = json.loads(text)
    except ValueError as e:
        return _batch_json({"line": n, "error": f"not JSON: {e}", "exit": 2})
    except RecursionError:
        return _batch_json({"line": n, "error": "not JSON: nested too deeply", "exit": 2})
    record = {"line": n}
    if isinstance(job, dict) and "id" in job:
        record["id"] = job["id"]
    try:
        verb, argv, inline = _batch_argv(job, n)
    except WarcouncilError as e:
        return _batch_json({**record, "error": str(e), "exit": 2})
    try:
        code, answer, error = _batch_invoke(verb, argv)
    finally:
        if inline is not None:
            inline.remove()
    if error is not None:
        return _batch_json({**record, "error": inline.named(error) if inline is not None else error, "exit": code})
    if isinstance(answer, _VerbJson):  # the verb's own JSON line, spliced in as it is
        return _batch_json({**record, "exit": code})[:-1] + ', "answer": ' + answer + "}"
    return _batch_json({**record, "exit": code, "answer": answer})


class _VerbJson(str):
    """A verb's answer as the one line of JSON it printed (``_json``)."""


def _batch_argv(job, n: int):
    """(verb, the verb's arguments, its inline turn or None) for a job; bad
    input raises."""
    if not isinstance(job, dict):
        raise WarcouncilError("a job is a JSON object: {\"scenario\": ..., \"verb\": ..., \"args\": {...}}")
    unknown = sorted(set(job) - _BATCH_KEYS)
    if unknown:
        raise WarcouncilError(f"unknown key {unknown[0]!r} in a job", hint="a job has: " + ", ".join(sorted(_BATCH_KEYS)))
    verb = job.get("verb", "check" if "turn" in job else None)
    if not isinstance(verb, str):
        raise WarcouncilError("a job names its verb: \"verb\": \"orders\" (or gives a \"turn\" to check)")
    cmd = main.commands.get(verb)
    if cmd is None or verb == "batch":
        from .errors import closest

        verbs = sorted(v for v in main.commands if v != "batch")
        hint = closest(verb, verbs)
        raise WarcouncilError(f"unknown verb {verb!r}", hint=f"did you mean {hint[0]!r}?" if hint else
                              "verbs: " + ", ".join(verbs))
    args = job.get("args", {})
    if not isinstance(args, dict):
        raise WarcouncilError("\"args\" is a JSON object of the verb's options, e.g. {\"card\": \"Line Command\"}")
    args = dict(args)
    if "turn" in job:
        if "turn" in args:
            raise WarcouncilError("the turn is given twice (\"turn\" and \"args\": {\"turn\"})")
        args["turn"] = job["turn"]
    written = None  # an inline turn and its place among the arguments
    options: list[str] = []
    positional: list[str] = []
    by_name = {}
    for p in cmd.params:
        if isinstance(p, click.Option):
            for o in p.opts:
                by_name[o.lstrip("-")] = p
                by_name[o.lstrip("-").replace("-", "_")] = p
            by_name[p.name] = p
    for p in cmd.params:
        if not isinstance(p, click.Argument):
            continue
        if p.name == "scenario":
            value = job.get("scenario")
            if not isinstance(value, str):
                raise WarcouncilError(f"`{verb}` needs the scenario: \"scenario\": \"FILE\"")
        else:
            names = [p.name] + ([p.metavar.lower()] if p.metavar else [])
            given = [k for k in names if k in args]
            if not given:
                if p.required:
                    raise WarcouncilError(f"`{verb}` needs \"{p.name}\" in \"args\"")
                continue
            value = args.pop(given[0])
            if p.name == "turn" and isinstance(value, dict):  # a turn written inline: its file made last,
                written, value = (value, len(positional)), ""  # once nothing else can be refused
        if p.nargs == -1:
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise WarcouncilError(f"\"{p.name}\" is a list of strings")
            positional += value
        elif isinstance(value, str):
            positional.append(value)
        else:
            raise WarcouncilError(f"\"{p.name}\" is a string (a file name)")
    if "scenario" in job and not any(isinstance(p, click.Argument) and p.name == "scenario" for p in cmd.params):
        raise WarcouncilError(f"`{verb}` takes no scenario")
    for key, value in args.items():
        p = by_name.get(key)
        if p is None:
            opts = sorted({q.opts[0].lstrip("-") for q in by_name.values() if q.name != "as_json"})
            raise WarcouncilError(f"`{verb}` has no option {key!r}", hint="its options: " + ", ".join(opts))
        if p.name == "as_json":
            continue  # always JSON
        opt = p.opts[0]
        if p.is_flag:
            if not isinstance(value, bool):
                raise WarcouncilError(f"{key!r} is true or false")
            if value:
                options.append(opt)
        elif value is None:
            continue
        elif p.multiple:
            for v in value if isinstance(value, list) else [value]:
                if not isinstance(v, (str, int)) or isinstance(v, bool):
                    raise WarcouncilError(f"{key!r} takes strings")
                options.append(f"{opt}={v}")
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            options.append(f"{opt}={value}")
        else:
            raise WarcouncilError(f"{key!r} takes one value (a string or a number)")
    if any(p.name == "as_json" for p in cmd.params):
        options.append("--json")
    inline = None
    if written is not None:
        inline = _InlineTurn(written[0], n)
        positional[written[1]] = inline.path
    return verb, options + ["--"] + positional, inline


class _InlineTurn:
    """A turn given inline, written as the file ``check`` reads (JSON is
    YAML, on one line) under a scratch name; its messages name the job's line
    instead (``<line 3: turn>:1:44: ...``), so that a batch's output is the
    same every time."""

    def __init__(self, turn: dict, n: int):
        import tempfile

        fd, self.path = tempfile.mkstemp(prefix=f"warcouncil-line{n}-", suffix=".turn.yaml")
        self.name = f"<line {n}: turn>"
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(turn, f)

    def named(self, message: str) -> str:
        return message.replace(self.path, self.name)

    def remove(self) -> None:
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _batch_invoke(verb: str, argv: list[str]):
    """Run one verb as the command line would: (exit code, the JSON answer,
    None) or (exit code, None, the message)."""
    import contextlib

    cmd = main.commands[verb]
    buf, err = _BATCH_STREAMS
    code = 0
    try:
        with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(err):
            with cmd.make_context(verb, argv) as ctx:
                cmd.invoke(ctx)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.exceptions.Exit as e:
        code = e.exit_code
    except WarcouncilError as e:
        return 2, None, str(e)
    except click.ClickException as e:
        return 2, None, e.format_message()
    except RecursionError:
        return 2, None, "input nested too deeply"
    except Exception as e:  # a bug, not bad input
        if os.environ.get("WARCOUNCIL_DEBUG"):
            raise
        return 3, None, f"internal error (a bug in warcouncil): {e!r}"
    finally:
        text = buf.getvalue().strip()
        for stream in _BATCH_STREAMS:  # emptied for the next job
            stream.seek(0)
            stream.truncate()
    if not text:
        return code, None, None
    if text[0] == "{" and "\n" not in text:  # one JSON document, as ``_json`` writes it
        return code, _VerbJson(text), None
    try:
        return code, json.loads(text), None
    except ValueError:
        return code, text, None


def _card_words(card) -> str:
    """What a card orders, in words: the card text its rule cites (Markdown
    emphasis dropped); the rule text when it cites none."""
    from .dsl.unparse import card_orders

    quotes = [c.quote.replace("**", "").replace("`", "") for c in card.citations]
    return "; ".join(q.strip() for q in quotes if q.strip()) or card_orders(card)


def _scenario_help() -> None:
    """Every verb with a SCENARIO says what it may be in its --help."""
    text = ("SCENARIO is a scenario shipped with warcouncil, by name (akragas, practice_field: Commands & "
            "Colors; ridgeway: Warmaster; alesia: square-grid ancients), or the path of a scenario file (YAML).")
    for command in main.commands.values():
        if any(p.name == "scenario" for p in command.params):
            command.help = inspect.cleandoc(command.help or "") + "\n\n" + text


_scenario_help()


# Arguments that name files: a name no file system can hold (a NUL byte, a
# part over 255 bytes, over 4096 in all) is bad input here, before any
# os.stat raises on it.
_PATH_PARAMS = frozenset({"scenario", "turn", "question", "wants", "paths", "base", "rules", "svg_path",
                          "after", "jobs_file"})


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
