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
* with ``new_state(choices=True)``, once the attack dice of a Combat,
  Charge or Shooting Activation are rolled and they give more than one
  result: the chooser (the shooter; for a combat, the side the pack's
  ``attacker_chooses`` names) decides ``{"kind": "choose", "face": N}``,
  one per result (the entry's ``choose``; the engine's attack step asks for
  it, a ``Due`` with options); by default the pack's preference picks, as
  ``check`` does;
* with ``new_state(choices=True)``, before a unit's Push Back (its
  Stubborn or Push Back die), its side decides ``{"kind": "stand_fast",
  "unit"}`` (a Defence Point spent: the entry's ``stand_fast``) or
  ``{"kind": "give_ground", "unit"}``, when the engine accepts the spend;
* with ``new_state(choices=True)``, a movement roll the pack lets a
  Movement Point re-roll (``reroll_movement_when``: a failed one): ``{"kind":
  "reroll", "pool": "movement"}`` (or ``"pool": "generalship", "as":
  "movement"``), the new die then rolled (the entry's ``roll: [first,
  second]`` and its ``spend``), or ``{"kind": "keep"}``;
* during a Movement or Charge Activation (while the frame has its
  ``manoeuvres`` step), once its movement die is rolled:
  ``{"kind": "step", "do": MANOEUVRE}`` (one square or turn, its tests
  rolled next) or ``{"kind": "halt"}``; a failed test or a failed movement
  roll ends the move.

An action is legal exactly when ``check`` accepts the turn file with it
(the engine judges it); while a move is still being made or a step's test
is still to roll, the rules that judge those dice or the move's full
length (``PENDING``) wait for them. ``log()`` is the finished activations.
"""

from __future__ import annotations

import json
from dataclasses import replace

from ...errors import WarcouncilError
from ...records import record
from ...kernel.game import CHANCE, IllegalAction, StepTurn, decision, roll, scenario_data
from .aftermath import Due
from .engine import entry_kind
from .files import MANOEUVRES, OPTIONS
from .words import unit_words

#: the rules that judge dice still to roll or a move still being made: they
#: wait while an activation is open (its test dice due, its move not ended)
PENDING = frozenset({"ga.manoeuvre-test-taken", "ga.leave-zoc-needs-pass", "ga.cause-fear-test",
                     "ga.warband-full-distance"})
ACTIVATE_FIELDS = ("unit", "option", "target", "with", "spend", "devotio", "reserve")
D6 = range(1, 7)


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

    words = {"move": "moves", "combat": "attacks", "charge": "charges", "shoot": "shoots at", "reform": "reforms"}
    t = f"{who(entry['unit'])} {words.get(entry['option'], entry['option'])}"
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
        self.choices = self.chosen.get("choices", False)
        if not isinstance(self.choices, bool):
            raise WarcouncilError(f"choices must be true or false, not {self.choices!r}")

    # ------------------------------------------------------------ the engine's judgement
    def _seq(self, entries, open_=None):
        acts = [json.loads(e) for e in entries] + ([json.loads(open_)] if open_ is not None else [])
        try:
            return self.engine.sequence({"side": self.side, "activations": acts}, choices=self.choices)
        except WarcouncilError as e:
            raise IllegalAction(e.message) from None

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
        paid = tuple(a for a in due.options if a["kind"] in ("stand_fast", "reroll")
                     and self._accepts(p, _paid(entry, a, trial=True)))
        free = tuple(a for a in due.options if a["kind"] in ("give_ground", "keep"))
        return replace(due, options=paid + free) if paid else None

    def _accepts(self, p: Position, entry: dict) -> bool:
        """Whether the rules accept the open activation as ``entry`` (the
        rules that wait for dice or the move's end aside)."""
        try:
            return not [v for v in self._seq(p.entries, json.dumps(entry)).out if v.rule not in PENDING]
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
        return decision(self.side, self._moves(p))

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

    def _moves(self, p: Position, depth: int = 4) -> list:
        """The steps and the halt legal in an open move, a step listed only
        when the move can be finished legally whatever its test dice show
        (``_alive``: a Warband must move the full distance, and a failed
        test may leave it short)."""
        unit = json.loads(p.open)["unit"]
        halt = {"kind": "halt", "text": f"{unit} halts"}
        out = []
        for kind in MANOEUVRES:
            a = {"kind": "step", "do": kind, "text": f"{unit} {kind.replace('_', ' ')}"}
            try:
                q = self.play(p, a)
            except IllegalAction:
                continue
            if self._alive(q, depth - 1):
                out.append(a)
        return out + ([halt] if self._halts(p) else [])

    def _halts(self, p: Position) -> bool:
        try:
            self.play(p, {"kind": "halt"})
            return True
        except IllegalAction:
            return False

    def _alive(self, p: Position, depth: int) -> bool:
        """Whether the open move of ``p`` can be finished legally whatever
        its dice show (looking ``depth`` steps ahead)."""
        if p.open is None or not p.moving:
            return True
        due = self._due(p)[1]
        if due is not None and due.options:  # (a decision: alive when one of its actions is, the free one first)
            free = sorted(due.options, key=lambda a: a["kind"] not in ("keep", "give_ground"))
            return any(self._alive(self.play(p, dict(a)), depth) for a in free)
        if due is not None:
            for f in D6:
                try:
                    q = self.play(p, {"kind": "dice", "face": f})
                except IllegalAction:
                    return False
                if not self._alive(q, depth):
                    return False
            return True
        if self._halts(p):
            return True
        if depth <= 0:
            return False
        for kind in MANOEUVRES:
            try:
                q = self.play(p, {"kind": "step", "do": kind})
            except IllegalAction:
                continue
            if self._alive(q, depth - 1):
                return True
        return False

    def _activations(self, p: Position) -> list:
        """Each unit's legal activations (units by id, options in the
        pack's order, targets by id): what ``activations`` says is legal on
        the board the phase has left, each then judged in the sequence."""
        seq = self._seq(p.entries)
        board = seq.s
        enemies = sorted(v.id for v in board.views if v.side != self.side and v.id in board.foot)
        out = []
        alive: dict = {}  # a move's or a charge's: the same whatever the target
        for uid, opts in self.engine.legal_activations(setting=board).items():
            if uid not in board.foot:
                continue
            for option in OPTIONS:
                if opts[option]:
                    continue
                targets = enemies if option in ("combat", "charge", "shoot") else [None]
                for t in targets:
                    entry = {"unit": uid, "option": option} | ({"target": t} if t is not None else {})
                    try:
                        q = self._opened(p, entry)
                    except IllegalAction:
                        continue
                    if q.moving and (uid, option) not in alive:
                        alive[uid, option] = self._alive(q, 4)
                    if q.moving and not alive[uid, option]:
                        continue  # (a Warband that cannot move the full distance it may roll)
                    out.append({"kind": "activate", **entry, "text": _text(entry, board)})
        for v in board.views:  # the units off the table that may be brought back (the engine judges it)
            if v.side == self.side and board.states[v.id].off_table:
                try:
                    self._bring_back(p, v.id)
                except IllegalAction:
                    continue
                out.append(self._bring_back_action(v.id))
        return out

    @staticmethod
    def _bring_back_action(uid: str) -> dict:
        return {"kind": "bring_back", "unit": uid, "text": f"bring {uid} back to the table (a Discipline Test)"}

    def _bring_back(self, p: Position, uid) -> Position:
        """The bring back of ``uid`` opened, its test to roll; refused when
        the rules refuse it whatever the test shows (judged with one)."""
        seq = self._seq(p.entries, json.dumps({"bring_back": uid, "test": [1, 1]}))
        vs = seq.out
        if vs:
            raise IllegalAction("; ".join(v.message for v in vs), [v.as_json() for v in vs])
        return Position(p.entries, json.dumps({"bring_back": uid}))

    def pieces_at(self, p: Position, action: dict) -> list[str]:
        """A step or a halt of the move under way, and a die of the open
        activation, concern its unit."""
        if p.open is not None and action.get("kind") in ("step", "halt", "dice", "choose", "reroll", "keep"):
            entry = json.loads(p.open)
            unit = entry.get("unit", entry.get("bring_back"))
            return [unit] if isinstance(unit, str) else []
        return self.pieces_of(action)

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
        if kind == "end":
            if p.open is not None:
                raise IllegalAction("an activation is under way: end it first (halt a move)")
            return Position(p.entries, over=True)
        if kind in self.kinds and p.open is not None:
            raise IllegalAction("an activation is under way: its dice or its move come first")
        if kind == "activate":
            unknown = sorted(set(action) - set(ACTIVATE_FIELDS) - {"kind", "text"})
            if unknown:
                raise IllegalAction(f"an activate action has no field {unknown[0]!r} "
                                    f"(it takes: {', '.join(ACTIVATE_FIELDS)})")
            if action.get("option") not in OPTIONS:
                raise IllegalAction(f"option must be one of {', '.join(OPTIONS)}, not {action.get('option')!r}")
            return self._opened(p, {k: action[k] for k in ACTIVATE_FIELDS if k in action})
        if kind in ("exchange", "reallocate"):
            entry = {k: action[k] for k in (kind, "get") if k in action}
            if not isinstance(entry.get(kind), dict):
                raise IllegalAction(f"an {kind} action gives `{kind}`: a mapping of pools to points")
            return self._opened(p, entry)
        if kind == "homunculus_est":  # the points on the revealed cards, and the other side's cancel if it spends one
            return self._opened(p, {kind: {k: action[k] for k in ("points", "cancel") if k in action}})
        if kind in ("reroll", "keep"):
            due = self._due(p)[1] if p.open is not None else None
            offers = [o for o in due.options if o["kind"] == "reroll"] if due is not None and due.path == ("roll",) \
                and due.options else []
            if not offers:
                raise IllegalAction("no movement roll may be re-rolled here")
            if kind == "keep":
                return self._settled(Position(p.entries, p.open, moving=True, declined=(due.path,)))
            pay = {k: action[k] for k in ("pool", "as") if k in action}
            if set(action) - {"kind", "text", "pool", "as"} or {**pay} not in [
                    {k: o[k] for k in ("pool", "as") if k in o} for o in offers]:
                raise IllegalAction("a reroll gives the 'pool' it spends (movement, or generalship 'as' movement): "
                                    + ", ".join(o["text"] for o in offers))
            entry = _paid(json.loads(p.open), {"kind": kind, **pay})
            return self._settled(Position(p.entries, json.dumps(entry), moving=True))
        if kind in ("stand_fast", "give_ground"):
            due = self._due(p)[1] if p.open is not None else None
            stand = due.path[1] if due is not None and due.path[0] == "stand_fast" else None
            if stand is None or action.get("unit") != stand:
                raise IllegalAction("no unit may stand fast here" if stand is None else
                                    f"{stand} is the unit that may stand fast here")
            if kind == "give_ground":
                return Position(p.entries, p.open, (), p.moving, declined=p.declined + (due.path,))
            entry = _paid(json.loads(p.open), action)
            return self._settled(Position(p.entries, json.dumps(entry), (), p.moving))
        if kind == "choose":
            due = self._due(p)[1] if p.open is not None else None
            if due is None or due.path != ("choose",):
                raise IllegalAction("no pick among the dice is due here")
            if action.get("face") not in {a["face"] for a in due.options}:
                faces = ", ".join(str(a["face"]) for a in due.options)
                raise IllegalAction(f"pick one of the dice's results: face {faces}")
            return self._settled(Position(p.entries, json.dumps({**json.loads(p.open), "choose": action["face"]}),
                                          (), p.moving))
        if kind == "bring_back":
            if set(action) - {"kind", "text", "unit"} or not isinstance(action.get("unit"), str):
                raise IllegalAction("a bring_back action gives 'unit': the unit off the table; its test follows")
            return self._bring_back(p, action["unit"])
        if kind in ("step", "halt"):
            if p.open is None or not p.moving or self._due(p)[1] is not None:
                raise IllegalAction(f"no move is under way to {kind}" if not p.moving else "roll the dice due first")
            entry = json.loads(p.open)
            if kind == "halt":
                return self._settled(Position(p.entries, p.open, moving=False))
            if action.get("do") not in MANOEUVRES:
                raise IllegalAction(f"a step does one of {', '.join(MANOEUVRES)}, not {action.get('do')!r}")
            entry["steps"] = list(entry.get("steps", ())) + [action["do"]]
            return self._settled(Position(p.entries, json.dumps(entry), moving=True))
        raise IllegalAction(f"the grid game has no action {kind!r} (activate, step, halt, reroll, keep, choose, "
                            "stand_fast, give_ground, exchange, reallocate, homunculus_est, bring_back, end; "
                            "dice at a chance node)")

    def _opened(self, p: Position, entry: dict) -> Position:
        return self._settled(Position(p.entries, json.dumps(entry),
                                      moving=self.moves and entry.get("option") in ("move", "charge")))

    def _rolled(self, p: Position, action: dict) -> Position:
        seq, due = self._due(p)
        face = action.get("face")
        if due is None or due.options or face not in D6:
            raise IllegalAction("no die is due here" if due is None or due.options else f"a die shows 1-6, not {face!r}")
        faces = p.faces + (face,)
        if len(faces) < due.n:
            return Position(p.entries, p.open, faces, p.moving)
        return self._settled(Position(p.entries, json.dumps(_given(json.loads(p.open), due, faces)), (), p.moving))

    def _settled(self, p: Position) -> Position:
        """``p`` judged: refused when the engine refuses it (``PENDING``
        rules wait while dice are due or the move goes on); a roll of no
        dice given at once; a move that cannot go on (a failed movement
        roll or test) ended; a finished activation closed into the entries."""
        while True:
            seq, due = self._due(p)
            if due is not None and due.n == 0 and not due.options:
                p = Position(p.entries, json.dumps(_given(json.loads(p.open), due, ())), (), p.moving)
                continue
            if p.moving and due is None and (seq.stopped_at is not None
                                             or seq.log[-1].get("movement_points") in ("failed", 0)):
                stop = seq.stopped_at
                p = Position(p.entries, p.open, moving=False)
                if stop is not None and any(v.rule in PENDING for v in seq.out):
                    # a failed test that forbids the step (leaving an enemy zone of control, entering
                    # a feared one): the unit stops before it, and the step is not made
                    entry = json.loads(p.open)
                    p = Position(p.entries, json.dumps({**entry, "steps": entry["steps"][:stop]}))
                continue
            break
        done = due is None and not p.moving
        vs = [v for v in seq.out if done or v.rule not in PENDING]
        if vs:
            raise IllegalAction("; ".join(v.message for v in vs), [v.as_json() for v in vs])
        if done:
            return Position(p.entries + (p.open,))
        return p

    def worded(self, p: Position, action: dict) -> dict:
        kind = action.get("kind")
        if kind == "activate":
            return {**action, "text": _text(action, self._seq(p.entries).s)}
        if kind == "step":
            return {**action, "text": f"{json.loads(p.open)['unit']} {action['do'].replace('_', ' ')}"}
        if kind == "halt":
            return {**action, "text": f"{json.loads(p.open)['unit']} halts"}
        if kind == "end":
            return {**action, "text": "end the phase"}
        if kind == "bring_back":
            return {**action, "text": self._bring_back_action(action.get("unit"))["text"]}
        if kind == "exchange":
            return {**action, "text": "exchange " + ", ".join(f"{n} {k}" for k, n in action["exchange"].items())
                    + f" for one {action.get('get')}"}
        if kind == "homunculus_est":
            return {**action, "text": f"“Homunculus Est!” with {action.get('points')} points"
                    + (f", cancelled with a {action['cancel']} point" if "cancel" in action else "")}
        if kind == "reallocate":
            return {**action, "text": "re-allocate the pools: " + ", ".join(
                f"{k} {n}" for k, n in action["reallocate"].items())}
        return action

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
        steps: dict = {}
        targets: dict = {}
        for a in node.actions:
            if a["kind"] == "activate":
                opts = activations.setdefault(a["unit"], [])
                if a["option"] not in opts:
                    opts.append(a["option"])
                if a["unit"] == select and "target" in a:
                    targets.setdefault(a["target"], []).append(a["text"])
            elif a["kind"] == "step" and select is not None:
                for unit, at in self.moved_to(p, a):
                    if unit == select:
                        steps.setdefault(at, []).append(a["text"])
        return grid_svg(self.engine, setting=board, activations=activations, select=select, steps=steps,
                        targets=targets)

    def moved_to(self, p: Position, action: dict) -> list:
        """Where ``action`` at ``p`` puts a unit: a step of the open move,
        [(unit, its new ``at``)]; [] for any other action."""
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
            if pos is not None:
                u.update(at=list(pos["at"]), facing=pos["facing"], disordered=pos["disordered"])
                if "discipline" in pos:  # (a Discipline Rating raised for good: Centurion Casualties)
                    u["discipline"] = pos["discipline"]
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


def _given(entry: dict, due, faces: tuple) -> dict:
    """``entry`` with the ``faces`` of roll ``due`` at its place."""
    path = due.path
    value = faces[0] if due.single else list(faces)
    if path[0] == "steps":
        j, key = path[1], path[2]
        steps = list(entry["steps"])
        st = steps[j] if isinstance(steps[j], dict) else {"do": steps[j]}
        old = st.get(key)
        st = {**st, key: (list(old) if isinstance(old, list) else [old] if old is not None else []) + list(faces)
              if key == "test" else value}
        steps[j] = st
        return {**entry, "steps": steps}
    if path == ("roll",) and not due.single:  # (a re-rolled movement die: its face after the first)
        return {**entry, "roll": [_first(entry["roll"]), *faces]}
    if len(path) == 1:
        return {**entry, path[0]: value}
    return {**entry, path[0]: {**entry.get(path[0], {}), path[1]: value}}


def _first(roll):
    """The first movement die of a ``roll`` (a face, or a list of faces)."""
    return roll[0] if isinstance(roll, list) else roll


def _paid(entry: dict, action: dict, trial: bool = False) -> dict:
    """``entry`` with ``action`` taken: a unit standing fast (a Defence
    Point), or a movement die re-rolled (the point it spends; its die to
    roll, or with ``trial`` a die rolled, to judge the entry whole)."""
    if action["kind"] == "stand_fast":
        return {**entry, "stand_fast": list(entry.get("stand_fast", ())) + [action["unit"]]}
    pay = {k: action[k] for k in ("pool", "as") if k in action}
    return {**entry, "roll": [_first(entry["roll"])] + ([6] if trial else []),
            "spend": list(entry.get("spend", ())) + [{**pay, "use": "reroll_movement"}]}
