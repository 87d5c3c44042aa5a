"""The grid game's turn for the game interface (``kernel.game``): one phase
of the side to move, a sequence of activations, each rolled die by die.

Nodes, in the procedure's order: the activation's frame, the pack's
``turn ga.activation for activate``, walked by ``engine._Sequence`` for
``check`` and for the game alike (``kernel.game.TurnSteps.walk``):

* the side decides: ``{"kind": "activate", "unit", "option", "target"?,
  "with"?, "spend"?, "devotio"?, "reserve"?}`` (a unit's Move, Combat,
  Charge, Shoot or Reform Activation, its fields as a turn file's entry
  gives them), ``{"kind": "exchange", "exchange", "get"}``, ``{"kind":
  "reallocate", "reallocate"}``, ``{"kind": "homunculus_est", "points",
  "cancel"?}`` (entries without dice, never listed), ``{"kind":
  "bring_back", "unit"}`` (a unit off the table; its Discipline Test, two
  dice, follows: the turn file's ``{bring_back, test}``), or ``{"kind":
  "end"}``;
* the dice: each die the activation still needs, one chance node per die
  (``{"kind": "dice", "face": N}``, each face 1/6). Which die comes next is
  the engine's answer (``GridEngine.sequence``: ``Due``, the rolls an entry
  still needs, in the frame's order): the movement die, each step's
  Manoeuvre Test (re-rolled while a re-roll is left) or feared-zone
  Discipline Test, the attack dice, the Defence dice, then what the result
  sets off (Push Back, Discipline Tests, outcomes, a routing unit's Rout die,
  Risk to Generals, ...), the attachments used (a Praetorian Cohort's die);
* with ``new_state(choices=True)``, the decisions the procedure asks for
  (a ``Due`` with options; by default the pack decides, as for ``check``),
  a paid one offered only when the rules accept its spend: once the attack
  dice of a Combat, Charge or Shooting Activation give more than one
  result, the chooser (the shooter; for a combat, the side the pack's
  ``attacker_chooses`` names) picks ``{"kind": "choose", "face": N}`` (the
  entry's ``choose``); before a unit's Push Back (its Stubborn or Push
  Back die), its side decides ``{"kind": "stand_fast", "unit"}`` (a
  Defence Point spent: the entry's ``stand_fast``) or ``{"kind":
  "give_ground", "unit"}``; a movement roll the pack lets a Movement Point
  re-roll (``reroll_movement_when``: a failed one) is re-rolled,
  ``{"kind": "reroll", "pool": "movement"}`` (or ``"pool": "generalship",
  "as": "movement"``; the new die then rolled: the entry's ``roll:
  [first, second]`` and its ``spend``), or kept, ``{"kind": "keep"}``;
* during a Movement or Charge Activation (while the frame has its
  ``manoeuvres`` step), once its movement die is rolled:
  ``{"kind": "step", "do": MANOEUVRE}`` (one square or turn, its tests
  rolled next) or ``{"kind": "halt"}``; a failed test or a failed movement
  roll ends the move.

An action is legal exactly when ``check`` accepts the turn file with it
(the engine judges it); while the activation is open (a die it rolls still
due, its move going on), the rules that judge it finished wait: those that
read ``activation.finished`` (``waiting_rules``: e.g. a step's test taken
and passed, a Warband's full distance). ``log()`` is the finished
activations.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ...dsl import ast as A
from ...errors import WarcouncilError
from ...records import record
from ...kernel.game import CHANCE, IllegalAction, StepTurn, decision, refuse, refusing, roll, same_action, \
    scenario_data
from ...kernel.rolls import FACES
from .aftermath import Due
from .engine import entry_kind
from .files import MANOEUVRES, OPTIONS
from .words import unit_words

ACTIVATE_FIELDS = ("unit", "option", "target", "with", "spend", "devotio", "reserve")
#: the decisions of an activation under way, by the head of the path of the ``Due`` that asks for
#: them (``DECLINE``: those that decline what the others offer: a unit gives ground, a roll is
#: kept), and the words when none is due or when the action is none of those it offers
DECISIONS = {"choose": "choose", "stand_fast": "stand_fast", "give_ground": "stand_fast", "reroll": "roll",
             "keep": "roll"}
DECLINE = ("give_ground", "keep")
NOT_DUE = {"choose": "no pick among the dice is due here", "stand_fast": "no unit may stand fast here",
           "roll": "no movement roll may be re-rolled here"}
NOT_OFFERED = {"choose": "pick one of the dice's results: face {faces}",
               "stand_fast": "{unit} is the unit that may stand fast here",
               "roll": "a reroll gives the 'pool' it spends (movement, or generalship 'as' movement): {rerolls}"}
#: how many steps ahead the game looks to judge whether a move can still be finished legally
#: whatever its test dice show (``GridTurn._alive``: a Warband must move the full distance)
LOOKAHEAD = 4
VERBS = {"move": "moves", "combat": "attacks", "charge": "charges", "shoot": "shoots at", "reform": "reforms"}


def waiting_rules(pack) -> frozenset:
    """The ids of ``pack``'s rules that read ``activation.finished`` (any
    record's ``finished``, in their own text or a define they call): each
    judges an activation once it is finished, and waits while the game is
    still playing it. The pack says so in the rule; a house rule's new rule
    reading it waits too."""
    def reads(body, seen: set) -> bool:
        if any(isinstance(n, A.Attr) and n.name == "finished" for n in A.walk(body)):
            return True
        called = (A.referenced(body) & pack.defines.keys()) - seen
        seen |= called
        return any(reads(pack.defines[name].body, seen) for name in called)

    return frozenset(r.id for r in pack.rules.values() if reads(r.body, set()))


@record
class Position:
    """The phase so far: the finished entries and the open activation, as
    JSON text (never changed); ``faces``: the dice rolled so far of the roll
    being made; ``moving``: the open Movement or Charge may take more steps."""

    entries: tuple = ()
    open: str | None = None
    faces: tuple = ()
    moving: bool = False
    over: bool = False
    declined: tuple = ()  # the decisions declined (their paths): a movement roll kept, a unit giving ground


def _text(entry: dict, board) -> str:
    """An activation in words: "formed infantry r1 at 4,5 attacks g1 at 5,4"."""
    def who(uid):
        v = board.by_id.get(uid)
        if v is None:
            return str(uid)
        return unit_words(uid, v.piece.type, board.states[uid].at)

    t = f"{who(entry['unit'])} {VERBS.get(entry['option'], entry['option'])}"
    if "target" in entry:
        t += f" {who(entry['target'])}" if entry["option"] != "move" else f" (target {entry['target']})"
    if "with" in entry:
        t += f" with {entry['with']}"
    for k in ("devotio", "reserve"):
        if k in entry:
            t += f", using its {k} ({entry[k]})"
    for sp in entry.get("spend", ()):
        t += f", spending {sp.get('points', 1)} {sp.get('pool')} for {sp.get('use')}"
    return t


class GridTurn(StepTurn):
    """One phase of the side to move (``side``: the scenario's ``to_move``
    unless given) of a grid-ancients scenario: the steps of the pack's
    ``turn`` (``ga.turn``: activations until the side ends the phase), each
    action's dice and choices as the engine has them due."""

    options = ("side", "choices")
    kinds = frozenset({"activate", "bring_back", "exchange", "reallocate", "homunculus_est"})
    end_words = "end the phase"

    def __init__(self, engine, **options) -> None:
        super().__init__(engine, **options)
        self.side = engine.setting(self.chosen.get("side")).side
        # the activation's frame (ga.activation): a Movement or Charge Activation is a move under way
        # while the frame has its manoeuvres, and the dice due meanwhile are those its steps up to
        # the manoeuvres read (the movement die, the steps' tests; by default a Charge's combat after)
        steps = [st.name for st in engine.frame.steps]
        upto = steps[:steps.index("manoeuvres") + 1] if "manoeuvres" in steps else []
        self.move_fields = frozenset(k for st in engine.frame.steps if st.name in upto for k in st.kinds)
        self.moves = bool(upto)
        self.waiting = waiting_rules(engine.pack)
        self.choices = self.chosen.get("choices", False)
        if not isinstance(self.choices, bool):
            raise WarcouncilError(f"choices must be true or false, not {self.choices!r}")

    # ------------------------------------------------------------ the engine's judgement
    def _seq(self, entries, open_=None):
        acts = [json.loads(e) for e in entries] + ([json.loads(open_)] if open_ is not None else [])
        with refusing():
            return self.engine.sequence({"side": self.side, "activations": acts}, choices=self.choices)

    def start(self) -> Position:
        return Position()

    def _due(self, p: Position):
        """The sequence with ``p``'s open activation, and what its procedure
        asks next (``Due``: a roll, or a decision): while its move goes on,
        only what the frame's steps up to the move read (the movement die
        and its re-roll, the steps' tests); a Charge's combat comes after
        it. A bring back's Discipline Test (its entry cannot be read
        without it) is due before the entry joins the sequence."""
        if p.open is not None:
            entry = json.loads(p.open)
            if "bring_back" in entry and "test" not in entry:
                return self._seq(p.entries), Due(("test",), 2, False,
                                                  f"{entry['bring_back']}'s Discipline Test to return")
        seq = self._seq(p.entries, p.open)
        due = (self._put(p, d) for d in seq.due if not p.moving or d.path[0] in self.move_fields)
        return seq, next((d for d in due if d is not None), None)

    def _put(self, p: Position, due):
        """A request of the procedure as it is put to the players, or None:
        a unit may stand fast (``Aftermath.may_stand``), a movement roll be
        re-rolled while the move has not begun, unless declined (the unit
        gave ground, the roll was kept), each only by the ways to pay for it
        that the rules accept."""
        if not due.options or due.path == ("choose",):
            return due
        if due.path in p.declined or (due.path == ("roll",) and not p.moving):
            return None
        entry = json.loads(p.open)
        paid = tuple(a for a in due.options if a["kind"] not in DECLINE
                     and self._accepts(p, _taken(entry, a, trial=True)))
        free = tuple(a for a in due.options if a["kind"] in DECLINE)
        return replace(due, options=paid + free) if paid else None

    def _accepts(self, p: Position, entry: dict) -> bool:
        """Whether the rules accept the open activation as ``entry`` (the
        rules that wait for it to be finished aside)."""
        try:
            return not [v for v in self._seq(p.entries, json.dumps(entry)).out if v.rule not in self.waiting]
        except IllegalAction:  # (e.g. more units standing fast than an entry names)
            return False

    # ------------------------------------------------------------ the activation under way (StepTurn)
    def under_way(self, p: Position) -> str | None:
        if p.open is None:
            return None
        due = self._due(p)[1]
        return self.side if due is None else due.side if due.options else CHANCE

    def under_way_node(self, p: Position):
        if p.open is None:
            return None
        due = self._due(p)[1]
        if due is not None and due.options:  # (a pick among the attack dice, a stand, a re-roll)
            return decision(due.side, [dict(a) for a in due.options])
        if due is not None:
            k = len(p.faces) + 1
            what = due.words + (f" ({k} of {due.n})" if due.n > 1 else "")
            return roll("face", lambda f: f"{what}: {f}")
        return decision(self.side, list(self._steps(p, LOOKAHEAD)) + self._halt(p))

    # ------------------------------------------------------------ the steps (StepTurn)
    def at(self, p: Position) -> int | None:
        """The step of the last entry made (the first, before any)."""
        if p.over:
            return None
        if not p.entries:
            return 0
        return self.steps.decl.step_of(entry_kind(json.loads(p.entries[-1])))

    def step_actions(self, p: Position, kinds: tuple) -> list:
        """The open steps' listed actions: activations and bring backs
        (exchanges, re-allocations and a Homunculus Est! call are taken,
        never listed: their points are the player's to say)."""
        return [a for a in self._activations(p) if a["kind"] in kinds]

    def _steps(self, p: Position, depth: int):
        """The steps of the open move of ``p`` (a generator) after which it
        can still be finished legally whatever its test dice show
        (``_alive``, looking ``depth`` steps ahead: a Warband must move the
        full distance, and a failed test may leave it short)."""
        for kind in MANOEUVRES:
            a = self.worded(p, {"kind": "step", "do": kind})
            q = self.tried(p, a)
            if q is not None and self._alive(q, depth - 1):
                yield a

    def _halt(self, p: Position) -> list:
        """The halt of the open move of ``p``, when it may halt there: [] or [it]."""
        halt = self.worded(p, {"kind": "halt"})
        return [halt] if self.tried(p, halt) is not None else []

    def _alive(self, p: Position, depth: int) -> bool:
        """Whether the open move of ``p`` can be finished legally whatever
        its dice show (looking ``depth`` steps ahead)."""
        if p.open is None or not p.moving:
            return True
        due = self._due(p)[1]
        if due is not None and due.options:  # (a decision: alive when one of its actions is, the free one first)
            free = sorted(due.options, key=lambda a: a["kind"] not in DECLINE)
            return any(self._alive(self.play(p, dict(a)), depth) for a in free)
        if due is not None:
            after = (self.tried(p, {"kind": "dice", "face": f}) for f in FACES)
            return all(q is not None and self._alive(q, depth) for q in after)
        return bool(self._halt(p)) or (depth > 0 and next(self._steps(p, depth), None) is not None)

    def _activations(self, p: Position) -> list:
        """Each unit's legal activations (units by id, options in the
        pack's order, targets by id): what ``activations`` says is legal on
        the board the phase has left, each then judged in the sequence."""
        board = self._seq(p.entries).s
        enemies = sorted(v.id for v in board.views if v.side != self.side and v.id in board.foot)
        out = []
        alive: dict = {}  # a move's or a charge's: the same whatever the target
        for uid, opts in self.engine.legal_activations(setting=board).items():
            if uid not in board.foot:
                continue
            for option in OPTIONS:
                if opts[option]:
                    continue
                for t in enemies if option in ("combat", "charge", "shoot") else [None]:
                    entry = {"unit": uid, "option": option} | ({"target": t} if t is not None else {})
                    q = self.tried(p, {"kind": "activate", **entry})
                    if q is None:
                        continue
                    if q.moving and (uid, option) not in alive:
                        alive[uid, option] = self._alive(q, LOOKAHEAD)
                    if q.moving and not alive[uid, option]:
                        continue  # (a Warband that cannot move the full distance it may roll)
                    out.append({"kind": "activate", **entry, "text": _text(entry, board)})
        for v in board.views:  # the units off the table that may be brought back (the engine judges it)
            back = {"kind": "bring_back", "unit": v.id}
            if v.side == self.side and board.states[v.id].off_table and self.tried(p, back) is not None:
                out.append(self.worded(p, back))
        return out

    def under_way_pieces(self, p: Position) -> list[str]:
        """The open activation's unit (a bring back's): a step or a halt of
        its move, a die of it or a pick among its dice concerns it."""
        if p.open is None:
            return []
        entry = json.loads(p.open)
        unit = entry.get("unit", entry.get("bring_back"))
        return [unit] if isinstance(unit, str) else []

    # ------------------------------------------------------------ playing
    def play(self, p: Position, action: dict) -> Position:
        after = self._play(p, action)
        if action.get("kind") in self.kinds:
            self.enter(self.at(p), action["kind"], p)  # (the pack's turn: the step of the entry opened)
        return after

    def _play(self, p: Position, action: dict) -> Position:
        kind = action.get("kind")
        if p.over:
            raise IllegalAction("the phase is over")
        if kind == "dice":
            return self._rolled(p, action)
        if kind in DECISIONS:
            return self._decided(p, action)
        if kind in ("step", "halt"):
            return self._stepped(p, action)
        if kind == "end":
            if p.open is not None:
                raise IllegalAction("an activation is under way: end it first (halt a move)")
            return Position(p.entries, over=True)
        if kind not in self.kinds:
            raise IllegalAction(f"the grid game has no action {kind!r} (activate, step, halt, reroll, keep, choose, "
                                "stand_fast, give_ground, exchange, reallocate, homunculus_est, bring_back, end; "
                                "dice at a chance node)")
        if p.open is not None:
            raise IllegalAction("an activation is under way: its dice or its move come first")
        if kind == "bring_back":  # (refused when the rules refuse it whatever its test shows)
            if set(action) - {"kind", "text", "unit"} or not isinstance(action.get("unit"), str):
                raise IllegalAction("a bring_back action gives 'unit': the unit off the table; its test follows")
            seq = self._seq(p.entries, json.dumps({"bring_back": action["unit"], "test": [1, 1]}))
            refuse("", lambda: [v.as_json() for v in seq.out])
            return Position(p.entries, json.dumps({"bring_back": action["unit"]}))
        entry = _entry(action)
        return self._settled(Position(p.entries, json.dumps(entry),
                                      moving=self.moves and entry.get("option") in ("move", "charge")))

    def _rolled(self, p: Position, action: dict) -> Position:
        seq, due = self._due(p)
        face = action.get("face")
        if due is None or due.options:
            raise IllegalAction("no die is due here")
        if face not in FACES:
            raise IllegalAction(f"a die shows 1-6, not {face!r}")
        faces = p.faces + (face,)
        if len(faces) < due.n:
            return replace(p, faces=faces)
        return self._settled(replace(p, open=json.dumps(_given(json.loads(p.open), due, faces)), faces=()))

    def _decided(self, p: Position, action: dict) -> Position:
        """A decision of the activation under way (``DECISIONS``): one of
        the actions its ``Due`` offers, taken into its entry, or declined."""
        kind, head = action["kind"], DECISIONS[action["kind"]]
        due = self._due(p)[1] if p.open is not None else None
        if due is None or not due.options or due.path[0] != head:
            raise IllegalAction(NOT_DUE[head])
        if not any(same_action(o, action) for o in due.options):
            raise IllegalAction(NOT_OFFERED[head].format(
                faces=", ".join(str(a.get("face")) for a in due.options), unit=due.path[-1],
                rerolls=", ".join(a["text"] for a in due.options if a["kind"] == "reroll")))
        if kind in DECLINE:
            return self._settled(replace(p, declined=p.declined + (due.path,)))
        return self._settled(replace(p, open=json.dumps(_taken(json.loads(p.open), action))))

    def _stepped(self, p: Position, action: dict) -> Position:
        """A step or the halt of the move under way."""
        kind = action["kind"]
        if p.open is None or not p.moving or self._due(p)[1] is not None:
            raise IllegalAction(f"no move is under way to {kind}" if not p.moving else "roll the dice due first")
        if kind == "halt":
            return self._settled(replace(p, moving=False))
        if action.get("do") not in MANOEUVRES:
            raise IllegalAction(f"a step does one of {', '.join(MANOEUVRES)}, not {action.get('do')!r}")
        entry = json.loads(p.open)
        entry["steps"] = [*entry.get("steps", ()), action["do"]]
        return self._settled(replace(p, open=json.dumps(entry)))

    def _settled(self, p: Position) -> Position:
        """``p`` judged: refused when the engine refuses it (the rules that
        judge a finished activation wait while dice are due or the move goes
        on); a roll of no dice given at once; a move that cannot go on (a
        failed movement roll or test) ended; a finished activation closed
        into the entries."""
        while True:
            seq, due = self._due(p)
            if due is not None and due.n == 0 and not due.options:
                p = replace(p, open=json.dumps(_given(json.loads(p.open), due, ())))
                continue
            if p.moving and due is None and (seq.stopped_at is not None
                                             or seq.log[-1].get("movement_points") in ("failed", 0)):
                p = replace(p, moving=False)
                if seq.stopped_at is not None and any(v.rule in self.waiting for v in seq.out):
                    # a failed test that forbids the step (leaving an enemy zone of control, entering
                    # a feared one): the unit stops before it, and the step is not made
                    entry = json.loads(p.open)
                    p = replace(p, open=json.dumps({**entry, "steps": entry["steps"][:seq.stopped_at]}))
                continue
            break
        done = due is None and not p.moving
        refuse("", lambda: [v.as_json() for v in seq.out if done or v.rule not in self.waiting])
        return Position(p.entries + (p.open,)) if done else p

    def worded(self, p: Position, action: dict) -> dict:
        kind = action.get("kind")
        unit = json.loads(p.open)["unit"] if kind in ("step", "halt") else None
        if kind == "activate":
            text = _text(action, self._seq(p.entries).s)
        elif kind == "step":
            text = f"{unit} {action['do'].replace('_', ' ')}"
        elif kind == "halt":
            text = f"{unit} halts"
        elif kind == "end":
            text = self.end_words
        elif kind == "bring_back":
            text = f"bring {action.get('unit')} back to the table (a Discipline Test)"
        elif kind == "exchange":
            text = ("exchange " + ", ".join(f"{n} {k}" for k, n in action["exchange"].items())
                    + f" for one {action.get('get')}")
        elif kind == "homunculus_est":
            text = (f"“Homunculus Est!” with {action.get('points')} points"
                    + (f", cancelled with a {action['cancel']} point" if "cancel" in action else ""))
        elif kind == "reallocate":
            text = "re-allocate the pools: " + ", ".join(f"{k} {n}" for k, n in action["reallocate"].items())
        else:
            return action
        return {**action, "text": text}

    # ------------------------------------------------------------ the picture
    def draw(self, p: Position, select: str | None = None, node=None) -> str:
        """The board as the phase has left it (the open activation's steps
        made), each unit's legal activations marked when the side chooses
        one; with ``select``, the units its activations act against
        (``data-legal-target``) and, during its move, the square each legal
        step takes it to (``data-legal-to``: its new ``at``)."""
        from .svg import grid_svg

        board = self._seq(p.entries, p.open).s
        node = node or self.node(p)
        activations: dict = {}
        for a in node.actions:
            if a["kind"] == "activate":
                opts = activations.setdefault(a["unit"], [])
                if a["option"] not in opts:
                    opts.append(a["option"])
        steps, targets = self.legal_marks(p, select, node)
        return grid_svg(self.engine, setting=board, activations=activations, select=select, steps=steps,
                        targets=targets)

    def moved_to(self, p: Position, action: dict) -> list:
        """A step of the move under way puts its unit on the square it
        takes it to (its new ``at``, once the step is played)."""
        if action.get("kind") != "step" or p.open is None:
            return []
        unit = json.loads(p.open)["unit"]
        q = self.play(p, action)
        return [(unit, tuple(self._seq(q.entries, q.open).s.states[unit].at))]

    # ------------------------------------------------------------ the files
    def log(self, p: Position) -> dict:
        return {"side": self.side, "activations": [json.loads(e) for e in p.entries]}

    def next_scenario(self, turn: dict) -> dict:
        """The scenario after the legal ``turn``: each unit where ``check``'s
        ``positions`` put it (moved, turned, Disordered or Reformed, removed),
        its attachments used up removed, the Command Points left, a side made
        Fatigued or its cancel spent, and the other side to move."""
        eng = self.engine
        sc = eng.scenario
        seq = eng.sequence(turn, partial=False)
        data = scenario_data(sc, seq.side)
        where: dict = {}
        for e in seq.log:
            where.update(e.get("positions", {}))
        units = []
        for u in data.get("units") or ():
            pos = where.get(u["id"])
            if pos == "removed":
                continue
            u.update(pos or {})  # (at, facing, disordered; a Discipline Rating raised for good)
            st = seq.s.states[u["id"]]
            if st.off_table:
                u["off_table"] = True
            else:
                u.pop("off_table", None)
            if st.lost:
                u["attachments"] = [a for a in u.get("attachments", ()) if a not in st.lost]
            units.append(u)
        data["units"] = units
        here = {u["id"] for u in units}
        data["generals"] = [g for g in data.get("generals") or ()
                            if g.get("attached_to") is None or (g["attached_to"] in here
                                                                and not seq.s.states[g["attached_to"]].general_lost)]
        if not data["generals"]:
            data.pop("generals")
        for name, side in data["sides"].items():
            side["command_points"] = dict(seq.pools[name])
            if name in seq.s.tired:
                side["fatigued"] = True
            if seq.cancelled.get(name):
                side["homunculus_cancelled"] = True
        return data


def _entry(action: dict) -> dict:
    """The turn file's entry that ``action`` opens (an activation, an
    exchange, a re-allocation, a “Homunculus Est!” call), its shape checked."""
    kind = action["kind"]
    if kind == "activate":
        unknown = sorted(set(action) - set(ACTIVATE_FIELDS) - {"kind", "text"})
        if unknown:
            raise IllegalAction(f"an activate action has no field {unknown[0]!r} "
                                f"(it takes: {', '.join(ACTIVATE_FIELDS)})")
        if action.get("option") not in OPTIONS:
            raise IllegalAction(f"option must be one of {', '.join(OPTIONS)}, not {action.get('option')!r}")
        return {k: action[k] for k in ACTIVATE_FIELDS if k in action}
    if kind == "homunculus_est":  # the points on the revealed cards, and the other side's cancel if it spends one
        return {kind: {k: action[k] for k in ("points", "cancel") if k in action}}
    entry = {k: action[k] for k in (kind, "get") if k in action}
    if not isinstance(entry.get(kind), dict):
        raise IllegalAction(f"an {kind} action gives `{kind}`: a mapping of pools to points")
    return entry


def _given(entry: dict, due, faces: tuple) -> dict:
    """``entry`` (a fresh copy, changed) with the ``faces`` of roll ``due``
    at its place (``due.path``, keys into the entry; a step given as its
    manoeuvre alone becomes ``{do: ...}``): one face, or a list after the
    faces there (a re-roll: the Manoeuvre Test's, the movement die's)."""
    *keys, key = due.path
    at = entry
    for k in keys:
        if isinstance(at, list) and isinstance(at[k], str):
            at[k] = {"do": at[k]}
        at = at[k] if isinstance(at, list) else at.setdefault(k, {})
    old = at.get(key)
    before = [] if old is None else old if isinstance(old, list) else [old]
    at[key] = faces[0] if due.single else before + list(faces)
    return entry


def _taken(entry: dict, action: dict, trial: bool = False) -> dict:
    """``entry`` with the decision ``action`` taken: the chooser's pick
    among the attack dice, a unit standing fast (a Defence Point), or a
    movement die re-rolled (the point it spends; its die to roll, or with
    ``trial`` a die rolled, to judge the entry whole)."""
    if action["kind"] == "choose":
        return {**entry, "choose": action["face"]}
    if action["kind"] == "stand_fast":
        return {**entry, "stand_fast": list(entry.get("stand_fast", ())) + [action["unit"]]}
    pay = {k: action[k] for k in ("pool", "as") if k in action}
    return {**entry, "roll": [entry["roll"]] + ([6] if trial else []),
            "spend": list(entry.get("spend", ())) + [{**pay, "use": "reroll_movement"}]}
