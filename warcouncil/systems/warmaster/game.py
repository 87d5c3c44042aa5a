"""Warmaster's Command phase as decisions and chance events (the game
interface, ``kernel/game.py``).

The side to move decides, in the sub-phase order the pack's rules keep
(initiative moves, home backs, orders, character moves):

``initiative``      ``{unit, action: charge|evade, to: [x, y]}``
``home_back``       ``{unit, toward}``; then the D6 (a chance node), then
                    the destination (``move``)
``attempt``         ``{by, units}``; then the 2D6 total (a chance node,
                    ``{"kind": "dice", "roll": t}``, t ways in 36); when the
                    order is given, the units' destinations (``move``); when
                    it is a blunder, the blunder table's D6, then ``move``
``move``            ``{to: [dest per unit] | null}`` (null: they stay); a
                    destination is ``[x, y]`` (facing and formation kept) or
                    ``{at, facing, formation}``
``character_move``  ``{piece, to}``
``end``             the Command phase is over (the state is terminal)

An action is legal exactly when ``check`` finds no violation at it in the
log it extends (the engine's rules; nothing is judged here). Destinations
listed come from a finite move generator: for a piece moving up to R cm
(the pace of its type, a character's too: the pack's ``unit character``;
a home back's: the pack's ``home_back_reach(D6)``, D6 × 10), every point
of a square grid of ``resolution`` cm (an option of ``new_state``, default
10) centred on it within R, nearest first, its facing and formation kept;
and for each enemy unit (a home back: its character) the point along the
straight line toward it where the piece first touches it, or R along it,
and the point R straight away from it; each wholly on the table (the
scenario's bounds). A home back with D6 d lists those of the reach of
every roll 1, 2, ..., d (10, 20, ..., 10·d cm: what a shorter roll allows,
a longer one allows too).
A brigade moves by common offsets (the grid's, and each unit's contact
offsets). ``apply`` takes any other destination too and judges it.

A position is the entries made so far (a turn file's entries, in play
order) and the step under way; ``log()`` is the entries, the step under way
left out until it is whole (a home back enters the log with its roll and
destination, a blunder's table roll with its move).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ...errors import Location, WarcouncilError
from . import measure as T
from ...kernel.game import CHANCE, IllegalAction, StepTurn, decision, refuse, refusing, roll, scenario_data
from ...kernel.log import LogCtx
from ...kernel.turn import located
from .files import Step
from .scenario import CHARACTER_MOVE, HOME_BACK, INITIATIVE, ORDER, Pose, _Board, footprint, pose_of
from .words import action_words, move_words, num, roll_words, xy_words

#: the turn file's key of each kind of entry, and its record
KEYS = {"initiative": "initiative", "home_back": "home_back", "attempt": "orders", "character_move": "characters"}
KINDS = {key: kind for kind, key in KEYS.items()}
RECORDS = {"initiative": INITIATIVE, "home_back": HOME_BACK, "orders": ORDER, "characters": CHARACTER_MOVE}
#: the default grid of destinations, in cm
RESOLUTION = 10
_HERE = Location("<game>")


@dataclass(frozen=True)
class Position:
    """The entries made (turn-file key, the entry as JSON text), in play
    order; the step under way (``pending``: ``("roll", by, units)``,
    ``("to",)``, ``("blunder",)``, ``("blunder_to", d6)``, ``("home",
    unit, toward)``, ``("home_to", unit, toward, d6)``, or ``()``); and
    whether the phase is over."""

    done: tuple = ()
    pending: tuple = ()
    over: bool = False


class WarmasterTurn(StepTurn):
    """One side's Command phase (see the module's docstring): the sub-phases
    are the steps of the pack's ``turn`` (``wm.turn``)."""

    options = ("resolution",)
    kinds = frozenset(KEYS)
    end_words = "end the Command phase"

    def __init__(self, engine, **options: Any) -> None:
        super().__init__(engine, **options)
        r = self.chosen.get("resolution", RESOLUTION)
        if isinstance(r, bool) or not isinstance(r, (int, float)) or not r > 0:
            raise WarcouncilError(f"resolution must be a positive number of cm, not {r!r}")
        self.resolution = r
        self.side = engine.scenario.to_move

    # ------------------------------------------------------------ the log
    def start(self):
        return Position()

    @staticmethod
    def _entries(done) -> list:
        return [(key, json.loads(text)) for key, text in done]

    def under_way_pieces(self, position) -> list[str]:
        """The pieces the step under way moves (its dice and destinations
        concern them): a home back's unit, the units of the order attempted
        (the last entry made, once rolled); none when no step is."""
        p = position.pending
        if not p:
            return []
        if p[0] in ("home", "home_to"):
            return [p[1]]
        return list(p[2]) if p[0] == "roll" else _listed(self._last(position)[1]["units"])

    def _last(self, position) -> tuple[str, dict]:
        """The last entry made: (turn-file key, the entry)."""
        return self._entries(position.done[-1:])[0]

    def log(self, position) -> dict:
        out: dict = {}
        for key, m in self._entries(position.done):
            out.setdefault(key, []).append(m)
        return out

    def _judge(self, entries, prefix=None):
        """The engine's log of ``entries`` (plain (key, entry) pairs), each
        checked by its record and its ids by the engine (bad shape or an
        unknown id: ``IllegalAction``); extending ``prefix`` when given,
        else from the start, a new answer of the engine's (``afresh``)."""
        if prefix is None:
            self.engine.afresh()
        with refusing():
            items = [(key, located(m, _HERE), _HERE) for key, m in entries]
            for key, ym, _ in items:
                RECORDS[key].check(ym, _HERE, "", key)
            return self.engine.log_of(items, self.side, prefix)

    def _prefix(self, position, upto: int | None = None):
        """The log of the entries made (``upto``: up to that one)."""
        return self._judge(self._entries(position.done[:upto]))

    def _legal(self, prefix, key: str, m: dict) -> bool:
        try:
            log = self._judge([(key, m)], prefix)
            return not self.engine.breaks(log, log.entries[-1])
        except (IllegalAction, WarcouncilError):  # (a rule that cannot judge it: refused)
            return False

    def _refuse(self, prefix, key: str, m: dict, what: str):
        """``IllegalAction`` with the violations at entry ``m``, if any."""
        log = self._judge([(key, m)], prefix)
        refuse(what, lambda: self.engine.violations(log, log.entries[-1]))

    # ------------------------------------------------------------ the move generator
    def destinations(self, table, pids: tuple, reach: float, targets) -> list:
        """The generator's destinations for pieces ``pids`` moving together
        up to ``reach`` cm: a list of ``to`` lists (one ``[x, y]`` per
        piece), nearest first, then the contacts with ``targets`` (ids)."""
        res = self.resolution
        n = int(reach // res)
        offsets = sorted(((i * res, j * res) for i in range(-n, n + 1) for j in range(-n, n + 1)
                          if (i or j) and math.hypot(i * res, j * res) <= reach + 1e-9),
                         key=lambda o: (math.hypot(*o), o[1], o[0]))
        for pid in pids:  # (where it first touches each target, then straight away from each, as far as it goes)
            piece, pose = table.by_id[pid], table.poses[pid]
            for away in (False, True):
                for t in targets:
                    o = T.first_contact(lambda x, y: footprint(piece, Pose((x, y), pose.facing, pose.formation)),
                                        pose.at, table.poses[t].at, table.footprint(t), reach, away)
                    if o is not None:
                        offsets.append(o)
        out, seen = [], set()
        board = _Board(table.scenario.width, table.scenario.depth)
        for dx, dy in offsets:
            to = [[num(table.poses[p].at[0] + dx), num(table.poses[p].at[1] + dy)] for p in pids]
            key = json.dumps(to)
            if key not in seen and all(T.on_table(table.moved({p: pose_of(xy, table.poses[p])}).footprint(p), board)
                                       for p, xy in zip(pids, to)):
                seen.add(key)
                out.append(to)
        return out

    def _enemies(self) -> list:
        return [u.id for u in self.engine.scenario.units if u.side != self.side]

    def _pace(self, table, pid: str) -> float:
        return float(table.at(pid).get_attr("pace"))

    # ------------------------------------------------------------ the step under way (StepTurn)
    def under_way(self, position) -> str | None:
        step = position.pending[:1]
        return None if not step else CHANCE if step in (("roll",), ("blunder",), ("home",)) else self.side

    def under_way_node(self, position):
        step = position.pending[:1]
        if step == ("roll",):
            ok, blunders = self._dice(position)
            return roll("roll", lambda t: roll_words(t, t in ok, t in blunders), dice=2)
        if step in (("blunder",), ("home",)):
            what = "blunder table" if step == ("blunder",) else "home back"
            return roll("roll", lambda d: f"{what} D6: {d}")
        return decision(self.side, self._moves(position)) if step else None

    # ------------------------------------------------------------ the sub-phases (StepTurn)
    def at(self, position) -> int | None:
        """The sub-phase of the last entry made (the first, before any)."""
        if position.over:
            return None
        if not position.done:
            return 0
        return self.steps.decl.step_of(KINDS[position.done[-1][0]])

    def _dice(self, position) -> tuple:
        """The 2D6 totals that give the order attempt under way, and the
        failing ones that are blunders (``WarmasterEngine.dice``)."""
        prefix = self._prefix(position)
        p = position.pending
        e, _ = self.engine.attempt(prefix, Step(p[1], tuple(p[2]), None, None, _HERE), None, False)
        return self.engine.dice(prefix, e)

    def step_actions(self, position, kinds: tuple) -> list:
        """The legal actions of the open sub-phases: initiative moves, home
        backs, attempts, character moves (``end`` is the kernel's)."""
        prefix = self._prefix(position)
        t = prefix.table
        sc = self.engine.scenario
        units = [u.id for u in sc.units if u.side == self.side]
        chars = [c.id for c in sc.characters if c.side == self.side]
        out = []
        for u in units if "initiative" in kinds else ():
            tos = self.destinations(t, (u,), self._pace(t, u), self._enemies())
            for action in ("charge", "evade"):
                out += self._placed(prefix, "initiative", tos, {"unit": u, "action": action})
        for u in units if "home_back" in kinds else ():
            for c in chars:
                if self._homes(prefix, u, c, 1, first=True):
                    out.append({"kind": "home_back", "unit": u, "toward": c,
                                "text": action_words("home_back", {"unit": u, "toward": c})})
        opts, _ = self.engine.options(prefix, self.side) if "attempt" in kinds else ((), None)
        for o in opts:
            a = {"kind": "attempt", "by": o["character"], "units": list(o["units"])}
            out.append({**a, "text": f"{action_words('attempt', a)} (target {o['target']}, p {o['p']})"})
        for c in chars if "character_move" in kinds else ():
            tos = self.destinations(t, (c,), self._pace(t, c), ())
            out += self._placed(prefix, "character_move", tos, {"piece": c})
        return out

    def _placed(self, prefix, kind: str, tos: list, fields: dict) -> list:
        """The legal actions of ``kind`` (``fields`` and a destination) to
        each of the generator's destinations ``tos``."""
        ms = [{**fields, "to": to[0]} for to in tos]
        return [{"kind": kind, **m, "text": action_words(kind, m)} for m in ms if self._legal(prefix, KEYS[kind], m)]

    def _homes(self, prefix, unit: str, toward: str, d6: int, first: bool = False) -> list:
        """The generator's legal destinations of a home back of ``unit``
        toward ``toward`` with D6 ``d6`` (``first``: the first, if any)."""
        t = prefix.table
        out, tos = [], []
        ctx = LogCtx(prefix)
        for k in range(1, d6 + 1):  # (what a shorter roll allows, this one allows too)
            reach = float(self.engine.ask(ctx, "home_back_reach", k))  # (the pack's: D6 × 10 cm)
            tos += [to for to in self.destinations(t, (unit,), reach, (toward,)) if to not in tos]
        for to in tos:
            m = {"unit": unit, "toward": toward, "roll": d6, "to": to[0]}
            if self._legal(prefix, "home_back", m):
                out.append(to)
                if first:
                    break
        return out

    def _moves(self, position) -> list:
        """The destinations of the step under way (``move`` actions)."""
        p = position.pending
        if p[0] == "home_to":
            return [self._move(to) for to in self._homes(self._prefix(position), p[1], p[2], p[3])]
        prefix = self._prefix(position, -1)
        key, m = self._last(position)
        units = self.under_way_pieces(position)
        t = prefix.table
        reach = min(self._pace(t, u) for u in units)
        return [self._move(to, units) for to in [None] + self.destinations(t, tuple(units), reach, self._enemies())
                if self._legal(prefix, key, self._moved(m, p, to))]

    @staticmethod
    def _moved(m: dict, pending: tuple, to) -> dict:
        m = dict(m)
        if pending[0] == "blunder_to":
            m["blunder"] = pending[1]
        if to is not None:
            m["to"] = to
        return m

    @staticmethod
    def _move(to, units=None) -> dict:
        return {"kind": "move", "to": to, "text": move_words(to, units)}

    # ------------------------------------------------------------ playing
    def play(self, position, action: dict):
        if position.over:
            raise IllegalAction("the Command phase is over")
        kind = action.get("kind")
        p = position.pending
        if self.under_way(position) == CHANCE:
            return self._rolled(position, action)
        if p:
            if kind != "move":
                raise IllegalAction(f"a {kind} action is not taken here: the step under way asks for its destinations "
                                    "(a 'move' action)")
            return self._play_move(position, action)
        if kind == "end":
            return Position(position.done, (), True)
        if kind not in KEYS:
            raise IllegalAction(f"unknown action kind {kind!r} for Warmaster: expected one of "
                                + ", ".join([*KEYS, "end"]))
        fields = {k: v for k, v in action.items() if k not in ("kind", "text")}
        prefix = self._prefix(position)
        if kind == "attempt":
            after = self._play_attempt(position, prefix, fields)
        elif kind == "home_back":
            after = self._play_home_back(position, prefix, fields)
        else:
            key = KEYS[kind]
            self._refuse(prefix, key, fields, action_words(kind, fields))
            after = Position(position.done + ((key, json.dumps(fields)),))
        # (the pack's turn: the rules above judge the sub-phases' order too)
        self.enter(self.at(position), kind, position)
        return after

    def _play_attempt(self, position, prefix, fields: dict):
        if set(fields) != {"by", "units"}:
            raise IllegalAction("an attempt gives 'by' (a character) and 'units' (the units ordered), nothing else")
        self._judge([("orders", {**fields, "roll": 2})], prefix)  # (its shape and ids)
        units = _listed(fields["units"])
        e, _ = self.engine.attempt(prefix, Step(fields["by"], tuple(units), None, None, _HERE), None, False, lazy=True)
        refuse(action_words("attempt", fields), lambda: self.engine.violations(prefix.plus(e), e))
        return Position(position.done, ("roll", fields["by"], tuple(units)))

    def _play_home_back(self, position, prefix, fields: dict):
        if set(fields) != {"unit", "toward"}:
            raise IllegalAction("a home back gives 'unit' and 'toward' (a character); its roll and destination follow")
        self._judge([("home_back", {**fields, "roll": 1})], prefix)  # (its shape and ids)
        if not self._homes(prefix, fields["unit"], fields["toward"], 1):
            # (no destination of the generator is legal even for the shortest roll: the rules' reasons)
            self._refuse(prefix, "home_back", {**fields, "roll": 1}, action_words("home_back", fields))
            raise IllegalAction(f"{action_words('home_back', fields)}: no destination toward the character")
        return Position(position.done, ("home", fields["unit"], fields["toward"]))

    def _rolled(self, position, action: dict):
        p, roll = position.pending, action["roll"]
        if p[0] == "home":
            return Position(position.done, ("home_to", p[1], p[2], roll))
        if p[0] == "blunder":
            return Position(position.done, ("blunder_to", roll))
        ok, blunders = self._dice(position)
        m = {"by": p[1], "units": list(p[2]), "roll": roll}
        done = position.done + (("orders", json.dumps(m)),)
        return Position(done, ("to",) if roll in ok else ("blunder",) if roll in blunders else ())

    def _play_move(self, position, action: dict):
        if set(action) - {"kind", "text", "to"}:
            raise IllegalAction("a move gives 'to': one destination per piece, or null (they stay)")
        to, p = action.get("to"), position.pending
        if p[0] == "home_to":
            to = _one(to)
            m = {"unit": p[1], "toward": p[2], "roll": p[3], **({"to": to} if to is not None else {})}
            self._refuse(self._prefix(position), "home_back", m, action_words("home_back", m))
            return Position(position.done + (("home_back", json.dumps(m)),))
        key, m = self._last(position)
        m = self._moved(m, p, to)
        self._refuse(self._prefix(position, -1), key, m, f"the move of {'+'.join(m['units'])}")
        return Position(position.done[:-1] + ((key, json.dumps(m)),))

    def worded(self, position, action: dict) -> dict:
        kind = action.get("kind")
        if kind == "move":
            units = None if position.pending[0] == "home_to" else self.under_way_pieces(position)
            to = action.get("to")
            if units is None and isinstance(to, list) and to and not isinstance(to[0], (list, dict)):
                to = [to]
            return {**action, "text": move_words(to, units) if to is not None or units else "stays"}
        return {**action, "text": self.end_words if kind == "end" else action_words(kind, action)}

    # ------------------------------------------------------------ the picture
    def draw(self, position, select: str | None = None, node=None) -> str:
        """The table after the entries made so far (``svg.table_svg``), the
        orders that may be attempted when none is under way, and with
        ``select`` the destinations its legal actions give it
        (``data-legal-to="x,y"``, the actions' words in the title)."""
        from .svg import table_svg

        legal = self.legal_marks(position, select, node)[0]
        return table_svg(self.engine, self._prefix(position), select, legal,
                         orders=not position.pending and not position.over)

    def moved_to(self, position, action: dict) -> list:
        """Where ``action``, taken at ``position``, puts pieces: [(id,
        destination as ``data-legal-to`` writes it), ...] (an initiative
        move, a character's move, the destinations of the step under way;
        none for the others)."""
        kind, to, p = action.get("kind"), action.get("to"), position.pending
        if to is None:
            return []
        if kind in ("initiative", "character_move"):
            return [(action.get("unit" if kind == "initiative" else "piece"), xy_words(to))]
        if kind != "move" or not p:
            return []
        if p[0] == "home_to":
            return [(p[1], xy_words(_one(to)))]
        return [(pid, xy_words(xy)) for pid, xy in zip(self.under_way_pieces(position), to)]

    # ------------------------------------------------------------ the next turn
    def next_scenario(self, turn: dict) -> dict:
        sc = self.engine.scenario
        entries = [(key, m) for key in ("initiative", "home_back", "orders", "characters")
                   for m in (turn or {}).get(key) or ()]
        poses = self._judge(entries).table.poses
        data = scenario_data(sc, sc.to_move)
        for m in data.get("units") or ():
            pose = poses[m["id"]]
            m.update({"at": [num(c) for c in pose.at], "facing": num(pose.facing), "formation": pose.formation})
        for m in data.get("characters") or ():
            pose = poses[m["id"]]
            m["at"] = [num(c) for c in pose.at]
            if "facing" in m or pose.facing:
                m["facing"] = num(pose.facing)
        return data


def _listed(units) -> list:
    """An entry's ``units``: one id, or a list of them."""
    return [units] if isinstance(units, str) else list(units)


def _one(to):
    """A home back's destination, given alone or as a list of one."""
    return to[0] if isinstance(to, list) and len(to) == 1 and isinstance(to[0], (list, dict)) else to


__all__ = ["WarmasterTurn", "Position", "RESOLUTION"]
