"""The game interface: a turn as decisions and chance events, held as a state.

    game = load_game("akragas")              # a scenario name or path, house rules
    state = game.new_state(card="Line Command")
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = pick(state.chance_outcomes())      # [(action, Fraction), ...]
        else:
            action = pick(state.legal_actions())
        state.apply(action)
    state.log()                              # the turn file `check` judges legal
    state.scenario_after()                   # the next turn's scenario

This module is the game-independent half, after OpenSpiel's ``State``: the
history of actions, undo, clone, serialising, and the three kinds of node (a
side decides, the dice decide, the turn is over). What a turn of a family
*is* — which decisions and which dice come in which order, what an action
changes, when the turn ends — is a :class:`Turn`, one small subclass per
family, named by its ``System`` (``System.game``).

A state is a stack of **positions**, one per action applied, each made by
``Turn.play`` from the one before and never changed afterwards; undo pops
one, a clone copies the stack (the positions are shared), and ``to_json`` is
the options and the actions, which ``Game.state_from_json`` plays again.
An action is a JSON-able dict with a ``"kind"``, its fields, and a
``"text"`` in words; ``apply`` takes any action of a kind the turn knows,
listed or not, and the turn judges it by the rules (``IllegalAction``,
carrying the violations, when they refuse it; the state is then unchanged:
``refuse`` and ``refusing`` say so of the violations found and of bad input).
"""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction
from typing import Any, Callable

from ..errors import WarcouncilError
from ..records import record

#: ``current_player()`` at a chance node: the dice decide
CHANCE = "chance"
#: ``current_player()`` when the turn (or phase) is over
TERMINAL = "terminal"


class IllegalAction(ValueError):
    """An action the rules refuse, or one the node does not take: ``violations``
    are the refused rules as ``check --json`` gives them (rule, pieces,
    message, source, quote), empty where the action's shape is wrong."""

    def __init__(self, message: str, violations: list[dict] | tuple = ()) -> None:
        super().__init__(message)
        self.message = message
        self.violations = list(violations)


@contextmanager
def refusing(what: str = ""):
    """Bad input met while an action is judged (``WarcouncilError``: a
    wrong shape, an unknown id, a house rule asking what the action does
    not have) refuses the action: ``IllegalAction`` with its message,
    after ``what: `` when given."""
    try:
        yield
    except WarcouncilError as e:
        raise IllegalAction(f"{what}: {e.message}" if what else e.message) from None


def refuse(what: str, violations: Callable[[], list[dict]]) -> None:
    """Refuse an action, ``what`` in words, when ``violations()`` finds
    any (as ``check --json`` gives them, e.g. ``LogRules.violations`` at
    the entry it appends to a log): ``IllegalAction`` with their messages
    (after ``what: `` when given), carrying them; judged under
    ``refusing(what)``."""
    with refusing(what):
        vs = violations()
    if vs:
        raise IllegalAction((f"{what}: " if what else "") + "; ".join(v["message"] for v in vs), vs)


@record
class Node:
    """What a position asks next: ``player`` (a side, ``CHANCE`` or
    ``TERMINAL``), and the legal actions of a decision or the outcomes of
    a chance event with their exact probabilities."""

    player: str
    actions: tuple = ()
    outcomes: tuple = ()  # ((action, Fraction), ...)


def decision(player: str, actions) -> Node:
    return Node(player, actions=tuple(actions))


def chance(outcomes) -> Node:
    outcomes = tuple((a, Fraction(p)) for a, p in outcomes)
    if sum(p for _, p in outcomes) != 1:  # pragma: no cover - a turn's own fault
        raise AssertionError(f"chance outcomes sum to {sum(p for _, p in outcomes)}, not 1")
    return Node(CHANCE, outcomes=outcomes)


TERMINAL_NODE = Node(TERMINAL)

#: the ways, out of 36, of each total of two dice (2D6)
TWO_D6 = {t: 6 - abs(t - 7) for t in range(2, 13)}


def roll(key: str, words: Callable[[int], str], dice: int = 1) -> Node:
    """The chance node of one die (each face 1/6) or, with ``dice=2``,
    of the total of two (each total its ways in 36, ``TWO_D6``): the
    outcome ``{"kind": "dice", key: value, "text": words(value)}``."""
    if dice not in (1, 2):  # pragma: no cover - a turn's own fault
        raise ValueError(f"roll() rolls one die or two, not {dice}")
    ways = TWO_D6 if dice == 2 else dict.fromkeys(range(1, 7), 1)
    return chance([({"kind": "dice", key: v, "text": words(v)}, Fraction(w, sum(ways.values())))
                   for v, w in ways.items()])


def same_action(a: dict, b: dict) -> bool:
    """Two actions are the same when every field but their words is."""
    return {k: v for k, v in a.items() if k != "text"} == {k: v for k, v in b.items() if k != "text"}


class Turn:
    """One family's turn (subclass per family): its positions and how an
    action makes the next. Positions are the subclass's own immutable
    objects; the kernel only stacks them."""

    #: the options ``new_state`` takes (e.g. C&C's ``card``), by name
    options: tuple[str, ...] = ()

    def __init__(self, engine, **options: Any) -> None:
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise WarcouncilError(
                f"new_state() takes no option {unknown[0]!r} for {engine.system.title or engine.system.name}",
                hint="it takes: " + (", ".join(self.options) or "none"))
        self.engine = engine
        self.chosen = {k: v for k, v in options.items() if v is not None}

    def start(self):
        """The position at the start of the turn."""
        raise NotImplementedError

    def node(self, position) -> Node:
        """What ``position`` asks next."""
        raise NotImplementedError

    def player(self, position) -> str:
        """``node(position).player``, where a turn can tell it without
        listing the node's actions (``State.apply`` asks only this)."""
        return self.node(position).player

    def play(self, position, action: dict):
        """The position after ``action`` (a new object), or ``IllegalAction``."""
        raise NotImplementedError

    def worded(self, position, action: dict) -> dict:
        """``action``, given without words (no ``"text"``, or an empty
        one), as the history keeps it, played at ``position``: with its
        ``"text"`` (``apply`` keeps an action given with words as it is)."""
        return action

    def log(self, position) -> dict:
        """The turn so far as a turn file (a dict ``check`` reads)."""
        raise NotImplementedError

    def pieces_of(self, action: dict) -> list[str]:
        """The ids of the pieces ``action`` concerns (what a board page
        lists under a clicked piece): by default its ``piece``, ``unit``,
        ``units`` and ``pieces`` fields, then the character giving an
        order or moving (``by``, ``character``) when not named already; a
        family names its others."""
        ids: list[str] = []
        for key in ("piece", "unit"):
            if isinstance(action.get(key), str):
                ids.append(action[key])
        for key in ("units", "pieces"):
            ids.extend(i for i in action.get(key) or () if isinstance(i, str))
        for key in ("by", "character"):
            if isinstance(action.get(key), str) and action[key] not in ids:
                ids.append(action[key])
        return ids

    def pieces_at(self, position, action: dict) -> list[str]:
        """The ids of the pieces ``action``, taken at ``position``,
        concerns: ``pieces_of(action)`` by default; a family whose actions
        leave their pieces to the step under way (a destination, a step of
        a move, a die) names them here (a ``StepTurn``: its
        ``under_way_pieces``)."""
        return self.pieces_of(action)

    def tried(self, position, action: dict):
        """The position after ``action`` at ``position``, or None when the
        turn refuses it (``IllegalAction``): for a family that judges an
        action it lists by playing it."""
        try:
            return self.play(position, action)
        except IllegalAction:
            return None

    def moved_to(self, position, action: dict) -> list:
        """Where ``action``, taken at ``position``, puts pieces: [(id,
        destination), ...], each destination as the family's picture marks
        it (hashable: a cell, an ``"x,y"`` key). By default none."""
        return []

    def legal_marks(self, position, select: str | None, node: Node | None = None) -> tuple[dict, dict]:
        """What the legal actions of ``node`` (``position``'s, when not
        given) do with the piece ``select``, as a picture marks them: the
        destinations they put it at (``moved_to``) and the pieces they act
        against (their ``target``), each {destination or target id: [the
        actions' words, in the node's order]}; none when no piece is
        selected. An action counts for the pieces it concerns (``pieces_at``)."""
        to: dict = {}
        targets: dict = {}
        if select is None:
            return to, targets
        for a in (node or self.node(position)).actions:
            if select not in self.pieces_at(position, a):
                continue
            words = a.get("text") or a["kind"]
            for pid, where in self.moved_to(position, a):
                if pid == select:
                    to.setdefault(where, []).append(words)
            if isinstance(a.get("target"), str):
                targets.setdefault(a["target"], []).append(words)
        return to, targets

    def draw(self, position, select: str | None = None, node: Node | None = None) -> str:
        """The board at ``position`` as an SVG document: each piece an
        element with ``data-piece="<id>"`` and, when ``select`` names a
        piece, the destinations of its legal actions marked with
        ``data-legal-to`` and the pieces they act against with
        ``data-legal-target`` (``legal_marks`` gives both; ``node``:
        ``position``'s node, when the caller has it already). By default
        the scenario's board as its engine draws it for ``--svg``; a
        family draws the position itself."""
        return self.engine.draw()

    def scenario_after(self, position) -> dict:
        """The scenario, as a dict, after the turn so far: the next turn's
        start once the turn is over."""
        return self.next_scenario(self.log(position))

    def next_scenario(self, turn: dict) -> dict:
        """The scenario, as a dict (what a scenario file holds), after the
        legal ``turn`` (a turn file's data, as ``log`` gives it): the pieces
        where the turn left them, the other side to move. ``check
        --write-next`` writes it."""
        raise NotImplementedError


def scenario_data(scenario, side: str) -> dict:
    """The data of ``scenario``'s file (plain) as a turn of ``side``
    hands it to the next (``Turn.next_scenario``): the side after ``side``
    to move, in the scenario's order, and its house rules resolved (the
    next scenario may be written elsewhere). The family then puts its
    pieces where the turn left them."""
    from .scenario import plain, read_yaml_file

    data = plain(read_yaml_file(scenario.path))
    sides = list(scenario.sides)
    if side in sides and len(sides) > 1:
        data["to_move"] = sides[(sides.index(side) + 1) % len(sides)]
    if scenario.rules:
        data["rules"] = list(scenario.rules)
    return data


def open_steps(steps, at: int, applies=None) -> list[int]:
    """The steps (of a ``turn`` declaration) whose actions may be taken at
    step ``at``: it and, while the steps repeat, the next, up to and
    including the first ``decide`` (or ``chance``) one; a later step for
    which ``applies(step)`` is false is passed over."""
    out = []
    for i in range(at, len(steps)):
        if i > at and applies is not None and not applies(steps[i]):
            continue
        out.append(i)
        if steps[i].mode != "repeat":
            break
    return out


def step_after(decl, at: int, kind: str, applies=None) -> tuple[int | None, str]:
    """Where an action of ``kind`` taken at step ``at`` leaves a turn
    declared by ``decl`` (a ``repeat`` step stays, a ``decide`` or ``chance``
    one is done), and why not: (the step, "") or (None, the reason)."""
    steps = decl.steps
    i = decl.step_of(kind)
    if i is None:
        return None, f"the turn has no step of {kind.replace('_', ' ')} actions"
    open_ = open_steps(steps, at, applies)
    if i not in open_:
        first = steps[open_[-1]]
        return None, (f"the {steps[i].name} step is over" if i < at else
                      f"the {steps[i].name} step does not apply" if i < open_[-1] else
                      f"the {first.name} step comes first: {first.doc or ', '.join(first.kinds)}")
    return (i if steps[i].mode == "repeat" else i + 1), ""


def out_of_turn(decl, kinds) -> tuple[int, str] | None:
    """The first of ``kinds`` (actions in the order a turn file gives
    them) that the turn ``decl`` does not take where it comes: (its index,
    why), or None. ``check`` judges a turn file's order with it, as the
    game does an action's."""
    at = 0
    for n, kind in enumerate(kinds):
        at, why = step_after(decl, at, kind) if at < len(decl.steps) else (None, "the turn's steps are over")
        if at is None:
            return n, why
    return None


class StepTurn(Turn):
    """A turn that walks its pack's ``turn`` declaration: the steps, in
    order, each a ``decide`` (one action), ``chance`` (one outcome) or
    ``repeat`` (any number of actions) step over some kinds of action.

    A position is at one step (``at(position)``, an index, or None once the
    turn is over). At a ``chance`` step the node is the family's outcomes of
    the step's kinds; otherwise it offers the actions of the steps *open*
    there — the step itself and, while the steps are ``repeat`` ones, the
    next, up to and including the first ``decide`` step — and ``end`` when
    every step left is a ``repeat`` one. Taking an action of a later open
    step closes the steps before it (the first battle ends the moving);
    ``enter`` says where an action takes the turn, or refuses it, citing the
    declaration. A step the family says does not apply to a position
    (``applies``: a card that rolls no dice) is passed over (``settle``).

    A **step under way** is an action taken whose dice and then choices
    (its destinations, a pick among its dice) are still owed before it
    enters the log (a Warmaster order attempt: its 2D6, then where the
    units go; a grid activation: each die its frame asks for, its steps).
    While one is, its node is the turn's, not the steps': the family says
    who acts in it (``under_way``: ``CHANCE`` for its dice, a side for its
    choices, None when no step is under way) and what it asks
    (``under_way_node``: e.g. ``roll`` for a die).

    The family gives ``step_actions(position, kinds)`` and
    ``step_outcomes(position, kind)``, its positions' step (``at``) and
    the side that decides (``side``, or ``mover``). ``end_words``: the
    words of its ``end`` action."""

    end_words = "end the turn"
    #: the side whose turn it is (the family sets it, e.g. the scenario's ``to_move``)
    side: str | None = None
    #: every kind of action the family's turn can play (the pack's turn
    #: names some of them; the kernel checks it names no other)
    kinds: frozenset = frozenset()

    def __init__(self, engine, **options: Any) -> None:
        super().__init__(engine, **options)
        self.steps = turn_steps(engine)

    # ------------------------------------------------------------ what the family gives
    def at(self, position) -> int | None:
        raise NotImplementedError

    def mover(self, position) -> str:
        """The side that decides at ``position``: by default ``side``."""
        return self.side

    def applies(self, position, step) -> bool:
        return True

    def may_end(self, position) -> bool:
        """Whether ``end`` may be offered (the family's own conditions)."""
        return True

    def step_actions(self, position, kinds: tuple[str, ...]) -> list:
        """The legal actions of ``kinds`` (the open steps' kinds, in the
        turn's order) at ``position``."""
        raise NotImplementedError

    def step_outcomes(self, position, kind: str) -> list:
        raise NotImplementedError

    def under_way(self, position) -> str | None:
        """Who acts in the step under way at ``position`` (``CHANCE``: its
        dice; a side: its choices), or None when no step is under way.
        Asked where the node's actions are not (``player``): keep it cheap."""
        return None

    def under_way_node(self, position) -> Node | None:
        """The node of the step under way at ``position`` (its die, its
        destinations), or None when no step is under way."""
        return None

    def under_way_pieces(self, position) -> list[str]:
        """The pieces the step under way at ``position`` moves (an order's
        units, an activation's unit), or [] when none is under way. Asked
        of each action a board page lists: keep it cheap."""
        return []

    def pieces_at(self, position, action: dict) -> list[str]:
        """``pieces_of(action)``; an action that names no piece (a die, a
        destination, a step of a move) concerns the pieces the step under
        way moves (``under_way_pieces``)."""
        return self.pieces_of(action) or self.under_way_pieces(position)

    # ------------------------------------------------------------ the walk
    def open_steps(self, at: int, position=None) -> list[int]:
        """The steps whose actions may be taken at step ``at`` (of
        ``position``: the later ones that do not apply to it passed over)."""
        return open_steps(self.steps.steps, at, self._applies(position))

    def ends_at(self, at: int) -> bool:
        """Whether the turn may end at step ``at``: every step left repeats."""
        return all(s.mode == "repeat" for s in self.steps.steps[at:])

    def settle(self, position, at: int) -> int | None:
        """The first step from ``at`` on that applies to ``position`` (None:
        the steps are over)."""
        steps = self.steps.steps
        while at < len(steps) and not self.applies(position, steps[at]):
            at += 1
        return at if at < len(steps) else None

    def enter(self, at: int | None, kind: str, position=None) -> int:
        """The step an action of ``kind`` taken at step ``at`` leaves the
        turn at (a repeat step stays; a decide or chance step is done), or
        ``IllegalAction`` citing the turn when that step is not open (at
        ``position``, when given: a step that does not apply to it is not)."""
        steps = self.steps
        if steps.decl.step_of(kind) is None:
            raise IllegalAction(f"{self.engine.system.title or self.engine.system.name} turn has no action of "
                                f"kind {kind!r}" + (f" ({steps.decl.id} takes none)" if kind in self.kinds else ""))
        if at is None:
            raise IllegalAction("the turn is over")
        after, why = step_after(steps.decl, at, kind, self._applies(position))
        if after is None:
            raise IllegalAction(f"{steps.decl.id}: no {kind.replace('_', ' ')} now: {why}", [steps.violation(why)])
        return after

    def _applies(self, position):
        """``applies`` at ``position``, as the walk asks it of a step (None: every step)."""
        return None if position is None else lambda step: self.applies(position, step)

    def player(self, position) -> str:
        at = self.at(position)
        if at is None:
            return TERMINAL
        who = self.under_way(position)
        if who is not None:
            return who
        return CHANCE if self.steps.steps[at].mode == "chance" else self.mover(position)

    def node(self, position) -> Node:
        at = self.at(position)
        if at is None:
            return TERMINAL_NODE
        pending = self.under_way_node(position)
        if pending is not None:
            return pending
        step = self.steps.steps[at]
        if step.mode == "chance":
            return chance([o for k in step.kinds for o in self.step_outcomes(position, k)])
        actions = self.step_actions(position, tuple(k for i in self.open_steps(at, position)
                                                    for k in self.steps.steps[i].kinds))
        if self.ends_at(at) and self.may_end(position):
            actions.append({"kind": "end", "text": self.end_words})
        return decision(self.mover(position), actions)


@record
class TurnSteps:
    """A pack's ``turn`` declaration with its citation, as the game walks it."""

    decl: Any
    source: str = ""
    quote: str = ""

    @property
    def steps(self) -> tuple:
        return self.decl.steps

    def violation(self, message: str) -> dict:
        """A refusal by the turn's order, as ``check --json`` gives a violation."""
        return {"rule": self.decl.id, "pieces": [], "message": message, "source": self.source, "quote": self.quote}

    def walk(self, procedures: dict, state) -> str | None:
        """A frame's procedure (``turn ID for KIND``): each declared step's
        procedure (``procedures[step.name](state)``) in the declared order,
        until one says the action stops there (returns true: e.g. a die it
        needs is still to roll, the rest waits for it): that step's name,
        or None when every step ran. One walk serves both drivers: ``check``
        feeds the steps the dice of a turn file's entry, the game interface
        the dice rolled so far, and offers the first a step still asks for
        as its chance node (so a house rule that reorders or drops a step
        changes both alike)."""
        for step in self.decl.steps:
            if procedures[step.name](state):
                return step.name
        return None

    def check_read(self, entry, procedures: dict, where, what: str = "action") -> None:
        """An ``entry`` of a frame's action giving a field that a step of the
        family's procedure reads (``procedures``: step name -> its fields)
        but no step of this frame does (a house rule dropped that step) is
        bad input at ``where(field)``, not a value silently left unread."""
        reads = {k for st in self.decl.steps for k in st.kinds}
        fields = {k for ks in procedures.values() for k in ks}
        unread = next((k for k in entry if k in fields and k not in reads), None)
        if unread is not None:
            raise WarcouncilError(f"`{unread}`: no step of the {what}'s frame {self.decl.id} reads it", where(unread),
                                  hint="its steps: " + ", ".join(f"{st.name} ({', '.join(st.kinds)})"
                                                                 for st in self.decl.steps))


def frame_steps(pack, kind: str, procedures: dict, family: str) -> TurnSteps:
    """``pack``'s frame of the actions of ``kind`` (``turn ID for KIND``),
    checked against the steps the family's procedure has (``procedures``:
    step name -> the entry fields it reads): a step the family has no
    procedure for, or naming a field its procedure does not read, is an
    error at its place."""
    decl = pack.frames.get(kind)
    if decl is None:
        raise WarcouncilError(f"the {pack.name} pack declares no frame of {kind} (`turn ID for {kind} step ...`)",
                              hint="its steps: " + ", ".join(procedures))
    problems = _frame_problems(decl, procedures, family)
    if problems:
        raise problems[0].as_error()
    source, quote = pack.source_of(decl)
    return TurnSteps(decl, source, quote)


def _frame_problems(decl, procedures: dict, family: str) -> list:
    from ..dsl.pack import LintError, line_at

    out = []
    for step in decl.steps:
        if step.name not in procedures:
            out.append(LintError(f"turn {decl.id}: the {family} game has no step {step.name} in the frame of "
                                 f"{decl.frame}", step.loc, "its steps: " + ", ".join(procedures), line_at(step.loc)))
            continue
        for k in step.kinds:
            if k not in procedures[step.name]:
                out.append(LintError(f"turn {decl.id}: step {step.name} reads no field {k}", step.loc,
                                     "it reads: " + ", ".join(procedures[step.name]), line_at(step.loc)))
    return out


def turn_steps(engine) -> TurnSteps:
    """``engine``'s pack's turn declaration, checked against the kinds its
    family's game plays (a step of another kind: an error at its place)."""
    pack = engine.pack
    decl = pack.turn
    if decl is None:
        raise WarcouncilError(f"the {pack.name} pack declares no turn (`turn ID step NAME: MODE KIND ...`)",
                              hint="the game interface walks the turn's steps")
    problems = _kind_problems(decl, engine.system)
    if problems:
        raise problems[0].as_error()
    source, quote = pack.source_of(decl)
    return TurnSteps(decl, source, quote)


def turn_problems(pack) -> list:
    """What ``lint`` says of ``pack``'s turn and frames beyond the
    language's checks: each step naming a kind of action its family's game
    does not play (the game refuses them when a turn starts), each frame's
    step the family's procedure does not have or naming a field it does
    not read (its engine refuses them when it is loaded)."""
    from .system import System

    if pack is None or (pack.turn is None and not pack.frames):
        return []
    try:
        system = System.for_pack(pack.name)
    except WarcouncilError:  # (a template pack, or a family not installed: the game says so when played)
        return []
    frames = system.engine.frames if system.engine is not None else {}
    out = _kind_problems(pack.turn, system) if system.game is not None and pack.turn is not None else []
    for kind, decl in pack.frames.items():
        out += _frame_problems(decl, frames.get(kind, {}), system.title or system.name)
    return out


def _kind_problems(decl, system) -> list:
    from ..dsl.pack import LintError, line_at

    kinds = system.game.kinds
    return [LintError(f"turn {decl.id}: step {step.name}: the {system.title or system.name} game has no action of "
                      f"kind {k}", step.loc, "its kinds: " + ", ".join(sorted(kinds)), line_at(step.loc))
            for step in decl.steps for k in step.kinds if k not in kinds]


class Game:
    """A scenario with its rules, ready to play: ``new_state`` starts a turn."""

    def __init__(self, engine, scenario: str, rules: tuple[str, ...] = ()) -> None:
        turn = engine.system.game
        if turn is None:
            raise WarcouncilError(f"the {engine.system.title or engine.system.name} system has no game interface")
        self.engine = engine
        self.scenario = scenario
        self.rules = tuple(rules)
        self.turn_class = turn

    def new_state(self, **options: Any) -> "State":
        return State(self, self.turn_class(self.engine, **options))

    def state_from_json(self, data: dict) -> "State":
        """The state ``State.to_json`` gave (its options and actions, played again)."""
        if not isinstance(data, dict) or not isinstance(data.get("actions"), list):
            raise WarcouncilError("a state's JSON is an object with a list of 'actions'")
        state = self.new_state(**dict(data.get("options") or {}))
        for action in data["actions"]:
            state.apply(action)
        return state


class State:
    """A turn in play. See the module's docstring."""

    def __init__(self, game: Game, turn: Turn) -> None:
        self.game = game
        self.turn = turn
        self._positions = [turn.start()]
        self._actions: list[dict] = []
        self._node: Node | None = None  # the top position's, once asked

    # ------------------------------------------------------------ the node
    def _top(self) -> Node:
        if self._node is None:
            self._node = self.turn.node(self._positions[-1])
        return self._node

    def current_player(self) -> str:
        return self._top().player

    def is_terminal(self) -> bool:
        return self._top().player == TERMINAL

    def is_chance_node(self) -> bool:
        return self._top().player == CHANCE

    def legal_actions(self) -> list[dict]:
        return list(self._top().actions)

    def chance_outcomes(self) -> list[tuple[dict, Fraction]]:
        return list(self._top().outcomes)

    # ------------------------------------------------------------ moving
    def apply(self, action: dict) -> None:
        player = self._node.player if self._node is not None else self.turn.player(self._positions[-1])
        if player == TERMINAL:
            raise IllegalAction("the turn is over")
        if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
            raise IllegalAction("an action is a dict with a 'kind'")
        if player == CHANCE:
            listed = next((a for a, _ in self._top().outcomes if same_action(a, action)), None)
            if listed is None:
                raise IllegalAction(f"{action.get('text') or action} is no outcome of this chance event")
            action = listed
        before = self._positions[-1]
        position = self.turn.play(before, action)
        self._positions.append(position)
        self._actions.append(action if action.get("text") else self.turn.worded(before, action))
        self._node = None

    def undo(self) -> None:
        if not self._actions:
            raise IllegalAction("nothing to undo")
        self._positions.pop()
        self._actions.pop()
        self._node = None

    def clone(self) -> "State":
        other = State.__new__(State)
        other.game, other.turn = self.game, self.turn
        other._positions = list(self._positions)
        other._actions = list(self._actions)
        other._node = self._node
        return other

    # ------------------------------------------------------------ reading
    def history(self) -> list[dict]:
        return list(self._actions)

    def log(self) -> dict:
        return self.turn.log(self._positions[-1])

    def scenario_after(self) -> dict:
        return self.turn.scenario_after(self._positions[-1])

    def pieces_of(self, action: dict) -> list[str]:
        """The ids of the pieces ``action``, taken now, concerns (an action
        of this node: one that names none, such as a destination or a
        step of the move under way, names those of the step under way)."""
        return self.turn.pieces_at(self._positions[-1], action)

    def svg(self, select: str | None = None) -> str:
        """The board now, as SVG (``select``: a piece whose legal
        destinations are marked)."""
        return self.turn.draw(self._positions[-1], select, self._top())

    def to_json(self) -> dict:
        return {"scenario": self.game.scenario, "rules": list(self.game.rules),
                "options": dict(self.turn.chosen), "actions": [dict(a) for a in self._actions]}

    def __str__(self) -> str:
        node = self._top()
        return f"{len(self._actions)} actions; {node.player} to act"


def load_game(scenario, rules=()) -> Game:
    """The game of ``scenario`` (a shipped name or a path) with house ``rules``."""
    from .engine import Engine

    rules = tuple(str(r) for r in rules)
    return Game(Engine.load(scenario, list(rules)), str(scenario), rules)
