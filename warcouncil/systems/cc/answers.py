"""The Commands & Colors answers to the command line's verbs: ``orders``,
``moves``, ``turns`` and ``diff`` (``CardEngine.answer``).

Each gives a whole ``system.Answer``: with ``as_json``, its JSON object;
otherwise its text for a person as lines in the console's markup, made as
they are printed (a long listing streams), or a bare number (``--count``).
The options are the command line's, by name.
"""

from __future__ import annotations

from fractions import Fraction

from ...errors import WarcouncilError, closest
from ...kernel.engine import orders_alone
from ...kernel.progress import progress
from ...kernel.listing import count_json, cut, footer
from ...kernel.system import Answer
from .words import hex_words, move_words, pieces_words


def _escape(text: str) -> str:
    """``rich.markup.escape``, imported when a text answer is made."""
    from rich.markup import escape

    return escape(text)


def _count(obj: dict, n: int) -> Answer:
    """A ``--count`` answer: the JSON object, or the bare number."""
    return Answer(obj, str(n), plain=True)


def _text(lines, exit_code: int = 0) -> Answer:
    return Answer(None, "", exit_code, lines=lines)


# ------------------------------------------------------------------ orders


def orders(eng, card=None, side=None, roll=None, copies=None, command=None, count_only=False, limit=None,
           engine_kind="fast", after=None, svg_path=None, as_json=False, **_) -> Answer:
    """Every legal order set for the card played (every roll of a card that
    rolls, without ``roll``)."""
    orders_alone({"svg_path": svg_path, "after": after})
    decl, _ = eng.resolve_card(card, copies)
    side = side or eng.scenario.to_move
    if side not in eng.scenario.sides:
        hint = closest(side, eng.scenario.sides)
        raise WarcouncilError(f"unknown side {side!r}", hint=f"did you mean {hint[0]!r}?" if hint else
                              "sides: " + ", ".join(eng.scenario.sides))
    if decl.get("roll") is not None and roll is None:
        return _orders_every_roll(eng, decl, card, side, copies, command, count_only, limit, engine_kind, as_json)
    g = eng.ground(card, side=side, roll=roll, copies=copies, command=command)
    return _orders_one(eng, g, side, count_only, limit, engine_kind, as_json)


def _sets(eng, g, limit, engine_kind):
    if engine_kind == "csp":
        from .csp import csp_order_sets

        return csp_order_sets(g, eng.plan, limit)  # stops at the limit-th set found
    return eng.order_sets(g, limit)


def _orders_one(eng, g, side, count_only, limit, engine_kind, as_json) -> Answer:
    name = g.played
    if count_only:
        with progress(f"{name}: counting order sets") as step:
            n = len(_sets(eng, g, None, engine_kind)) if engine_kind == "csp" else eng.count(g, step)
        return _count({"card": name, "side": side, "count": n}, n)
    cheap = (lambda: eng.count_cheap(g)) if engine_kind == "fast" and hasattr(eng, "count_cheap") else None
    if as_json:
        got = list(_sets(eng, g, None if limit is None else limit + 1, engine_kind))
        sets, total, more = cut(got, limit, cheap)
        return Answer({"card": name, "side": side, **count_json(total, more, limit),
                       "order_sets": [eng.order_set_json(g, s) for s in sets]}, "")
    return _text(_orders_one_lines(eng, g, side, limit, engine_kind, cheap))


def _orders_one_lines(eng, g, side, limit, engine_kind, cheap):
    yield _header(g, side)
    n, more = 0, False
    for s in _sets(eng, g, None if limit is None else limit + 1, engine_kind):
        if limit is not None and n >= limit:
            more = True  # the one past the limit: there are more
            break
        n += 1
        yield _format_set(eng, g, s)
    total = n if not more else (cheap() if cheap is not None else None)
    yield footer(n, total, more, "legal order set", "legal order sets")


def _header(g, side) -> str:
    s = g.setting
    return f"[bold]{_escape(g.played)}[/] — {_escape(side)} (Command {s.hand_size}, {s.edge} edge)"


def _format_set(eng, g, s) -> str:
    """An order set on one line, its pieces in words: its units, then the
    leaders given an order of their own."""
    j = eng.order_set_json(g, s)
    if not j["units"] and not j["leaders"]:
        return "  [dim](no orders)[/]"
    return "  " + _escape(pieces_words(g.setting.by_id, j["units"] + j["leaders"]))


def _orders_every_roll(eng, decl, card, side, copies, command, count_only, limit, engine_kind, as_json) -> Answer:
    table = eng.roll_table(decl, side, command)
    rows = []
    with progress(f"{decl.name}: grounding each roll", len(table)) as step:
        for i, (counts, p) in enumerate(table):
            step(i, None, f"{decl.name}: grounding roll {i + 1}/{len(table)}")
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
                sets, total, more = cut(got, limit, lambda g=g: eng.count_cheap(g))
                item.update(count_json(total, more, limit))
                item["order_sets"] = [eng.order_set_json(g, s) for s in sets]
            result.append(item)
        return Answer({"card": rows[0][2].played if rows else decl.name, "side": side,
                       "dice": eng.dice_count(decl, side, command), "rolls": result}, "")
    return _text(_every_roll_lines(eng, decl, side, command, rows, count_only, limit, engine_kind))


def _every_roll_lines(eng, decl, side, command, rows, count_only, limit, engine_kind):
    n_dice = eng.dice_count(decl, side, command)
    yield (f"[bold]{_escape(decl.name)}[/] — {_escape(side)} rolls {n_dice} dice; "
           f"{len(rows)} outcomes that differ for this card (other faces order nothing)")
    total_p = Fraction(0)
    with progress(f"{decl.name}: order sets of each roll", len(rows), streams=True) as step:
        yield from _every_roll_rows(eng, rows, count_only, limit, engine_kind, step)
    for _, p, _ in rows:
        total_p += p
    yield f"[dim]probabilities sum to {total_p}[/]"


def _every_roll_rows(eng, rows, count_only, limit, engine_kind, step):
    for i, (counts, p, g) in enumerate(rows):
        step(i, None, f"order sets of roll {i + 1}/{len(rows)}")
        label = ", ".join(f"{f}×{c}" for f, c in counts.items() if c) or "no ordering symbol"
        if count_only or limit is None:
            n = eng.count(g)
            shown, more = None, False
        else:
            got = list(_sets(eng, g, limit + 1, engine_kind))
            shown, n, more = cut(got, limit, lambda g=g: eng.count_cheap(g))
        many = f"more than {limit}" if n is None else str(n)
        yield (f"[bold]roll {_escape(label)}[/]  p = {p} ({float(p):.2%}): {many} order set"
               f"{'s' if n != 1 else ''}" + (f" (showing {limit})" if more else ""))
        if not count_only:
            for s in (shown if shown is not None else _sets(eng, g, None, engine_kind)):
                yield _format_set(eng, g, s)


# ------------------------------------------------------------------ moves


def _ground_one_roll(eng, card, side, roll, copies, command):
    """The grounding of a card for a verb that needs one roll (moves, turns:
    there is no listing of every roll for them)."""
    decl, _ = eng.resolve_card(card, copies)
    if decl.get("roll") is not None and roll is None:
        raise WarcouncilError(f"{decl.name} orders by a dice roll: give the roll with --roll")
    return eng.ground(card, side=side, roll=roll, copies=copies, command=command)


def moves(eng, card=None, orders=(), side=None, roll=None, copies=None, command=None, svg_path=None,
          as_json=False, **_) -> Answer:
    """Every legal destination of each ordered piece (as if it moved first);
    exit 1 when the order set itself is illegal. ``svg_path``: the board
    with the destinations, drawn there."""
    g = _ground_one_roll(eng, card, side, roll, copies, command)
    if not orders:
        raise WarcouncilError("`moves` needs the pieces given an order: --order ID (repeatable)")
    if svg_path:
        from .svg import render_board, require_drawable

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
    code = 0 if legal else 1
    if as_json:
        obj = {"card": g.played, "side": g.setting.side, "legal": legal, "moves": eng.destinations_json(dests, must)}
        if verdict is not None:
            obj["violations"] = [v.as_json() for v in verdict.violations]
        return Answer(obj, "", code)
    return _text(_moves_lines(g, verdict, dests, must), code)


def _moves_lines(g, verdict, dests, must):
    yield _header(g, g.setting.side)
    if verdict is not None:
        yield "[red bold]the order set itself is illegal[/]"
        for v in verdict.violations:
            yield (f"  [bold]{_escape(v.rule)}[/] {_escape('[' + pieces_words(g.setting.by_id, v.pieces) + ']')} "
                   f"{_escape(v.message)}")
    for pid, ds in dests.items():
        who = _escape(pieces_words(g.setting.by_id, [pid]))
        if not ds:
            yield f"  [bold]{who}[/]: no legal destination"
            continue
        cells = " ".join(f"{c},{r}" + ("" if battle is not False else "[dim](no battle)[/]")
                         + ("[dim](must battle)[/]" if (c, r) in must.get(pid, ()) else "")
                         for (c, r), battle in ds.items())
        yield f"  [bold]{who}[/] ({len(ds)}): {cells}"


# ------------------------------------------------------------------ turns


def _position(end) -> dict:
    return {p.id: list(c) for p, c in sorted(end.items(), key=lambda kv: kv[0].rank)}


def turns(eng, card=None, side=None, roll=None, copies=None, command=None, count_only=False, limit=None,
          as_json=False, **_) -> Answer:
    """Every distinct end position the card's legal orders and moves can reach."""
    from .turns import count_end_positions, end_positions

    g = _ground_one_roll(eng, card, side, roll, copies, command)
    g.setting.board.require("cells", "turns")  # before any header: a table has no cells
    if count_only:
        # bounded memory (issue 15): positions are counted as keys, spilled to disk past a bound
        # a progress bar on a terminal's stderr, never with --json (solver/progress.py)
        n = count_end_positions(eng, g) if limit is None \
            else sum(1 for _ in end_positions(eng, g, limit))
        return _count({"card": g.played, "side": g.setting.side, "count": n}, n)
    # --limit N: N + 1 positions are made (the one past N says there are more); no total is counted
    bound = None if limit is None else limit + 1
    if as_json:
        got = list(end_positions(eng, g, bound))
        ends, total, more = cut(got, limit, None)
        obj = {"card": g.played, "side": g.setting.side, "positions": [_position(e) for e in ends]}
        if limit is not None:
            obj["limited"] = more
        return Answer(obj, "")
    return _text(_turns_lines(eng, g, limit, bound, end_positions))


def _turns_lines(eng, g, limit, bound, end_positions):
    yield _header(g, g.setting.side)
    n, more = 0, False
    for end in end_positions(eng, g, bound):
        if limit is not None and n >= limit:
            more = True
            break
        n += 1
        moved = ", ".join(move_words("move", p, p.at, c) for p, c in sorted(end.items(), key=lambda kv: kv[0].rank)) \
            or "(nothing moves)"
        yield f"  {_escape(moved)}"
    yield footer(n, None if more else n, more, "end position", "end positions")


# ------------------------------------------------------------------ diff


def diff(eng, rules=(), card=None, orders=(), side=None, roll=None, copies=None, command=None, limit=None,
         as_json=False, **_) -> Answer:
    """What the house rules ``rules`` change for the card on this engine's
    scenario (the engine without them): order sets and moves that become
    legal or illegal, with the rule responsible."""
    from .diff import diff as run_diff

    if card is None:
        raise WarcouncilError("`diff` needs the card played: give it with --card CARD",
                              hint="list the deck with: warcouncil cards " + eng.scenario.path)
    if not rules:
        raise WarcouncilError("diff needs house rules: give them with --rules FILE")
    d = run_diff(eng, list(rules), card, side=side, roll=roll, copies=copies, command=command,
                 orders=list(orders) or None, limit=limit)
    if as_json:
        return Answer(d.as_json(), "")
    return _text(_diff_lines(d, eng.setting(d.side).by_id))


def _diff_lines(d, by_id):
    """The changes in words (``by_id``: the pieces, by id, as the scenario
    places them)."""
    yield f"[bold]{_escape(d.card)}[/] — {_escape(d.side)}, with {_escape(', '.join(d.layers))}"
    yield f"order sets: {d.before} before, {d.after} with the house rules"

    def because(ch):
        if not ch.because:
            return ""
        parts = sorted({f"{b['rule']} ({b['file'] or b['source']})" for b in ch.because})
        return "  [dim]" + _escape("; ".join(parts)) + "[/]"

    def fmt_set(j):
        return pieces_words(by_id, j["units"] + j["leaders"]) or "(no orders)"

    for label, items, word in (("now legal", d.legal_now, "was illegal by"), ("now illegal", d.illegal_now, "illegal by")):
        if items:
            yield f"[bold]{label}[/] ({len(items)}):"
            for ch in items:
                yield ((f"  + {_escape(fmt_set(ch.what))}" if label == "now legal" else f"  - {_escape(fmt_set(ch.what))}")
                       + (f"  [dim]{word}[/]{because(ch)}" if ch.because else ""))
    for pid, entry in d.moves.items():
        who = _escape(pieces_words(by_id, [pid]))
        for key, sign in (("legal_now", "+"), ("illegal_now", "-")):
            for ch in entry[key]:
                yield f"  {who} {sign}{hex_words(ch.what['to'])}{because(ch)}"
        for ch in entry["battle_changed"]:
            yield (f"  {who} {hex_words(ch.what['to'])}: battle {ch.what['battle_before']} → "
                   f"{ch.what['battle_after']}")
    if not d.legal_now and not d.illegal_now and not d.moves:
        yield "no change for this card"


#: the answer to each verb (``CardEngine.answer``; ``engine.ANSWERED``)
BY_VERB = {"orders": orders, "moves": moves, "turns": turns, "diff": diff}
