"""A Commands & Colors turn as the game interface plays it (``kernel/game.py``).

    game = load_game("akragas")
    state = game.new_state(card="Order Three Units Center")   # card= optional

The nodes, in order:

1. **card** (skipped when ``card=`` names a card that copies none): the side
   to move plays a card of its ``hand`` (the scenario's, if given), else of
   the deck: ``{"kind": "card", "card": NAME}`` (Counter Attack with
   ``"copies": NAME``, once per card it may copy);
2. **dice** (a card that rolls: I Am Spartacus, Rally, ...): a chance node,
   the roll's outcomes as ``orders`` gives them (``roll_table``: the counts of
   the faces the card reads, exact probabilities): ``{"kind": "dice",
   "roll": {FACE: COUNT, ...}}``;
3. **order set**: the legal order sets ``orders`` lists, in its order:
   ``{"kind": "order_set", "units": [...], "leaders": [...]}``;
4. **moves and battles**: one decision node offering every move of an
   ordered piece that has not moved (``{"kind": "move", "piece": ID, "to":
   [c, r]}``, optionally ``"path"``; a piece that stays needs none; an
   attached leader without an order of his own goes along with his unit, as
   ``check`` carries him), then every battle (``{"kind": "battle",
   "piece": ID, "target": ID}``), then ``{"kind": "end"}``. The first battle
   ends the moving; after it the node offers battles, Move-Fire-Move's
   second moves (``{"kind": "second_move", ...}``, as a move) and end; after
   a second move, second moves and end. ``end`` ends the turn.

The destinations offered are the ends of the kernel's move search (``reach``)
on the board as the moves made so far left it — as ``check`` judges a later
move — in reading order. Every action, listed or not, is judged by ``check``
on the turn so far extended by it (``CardEngine.check_turn``): the one source
of truth. A move after which the unit must battle (the pack's
``must_battle``: a warrior's two-hex charge) is legal when some battle of
that unit makes the turn legal; that battle is then owed (``Position.owed``),
judged with every later action and ``end`` is refused until it (or another
battle of that unit) is declared.
"""

from __future__ import annotations

from collections import Counter

from ...errors import WarcouncilError
from ...records import record
from ...solver.check import play_turn
from ...kernel.game import IllegalAction, StepTurn, refusing, scenario_data
from ...kernel.ground import Ctx
from ...solver.search import reach
from ...kernel.state import Positions
from ...kernel.turn import turn_from_data
from .engine import _legal_alt
from .words import move_words, orders_words, roll_words


@record
class Position:
    """A C&C turn so far (never changed once made). ``stage``: the step of
    the pack's ``turn`` it is at (``card``, ``dice``, ``orders``, ``moves``,
    ``battles``, ``second``), or ``over``; moves and battles as ((id, (col, row)), ...)
    and ((id, target id), ...); ``owed``: the battles a move made
    necessary, not yet declared (``must_battle``)."""

    stage: str
    card: str | None = None
    copies: str | None = None
    roll: tuple | None = None  # ((face, count), ...) once rolled
    units: tuple = ()
    leaders: tuple = ()
    moves: tuple = ()  # ((id, (col, row), path or None), ...)
    battles: tuple = ()
    second: tuple = ()
    owed: tuple = ()


class CardTurn(StepTurn):
    """A Commands & Colors turn: the steps of the pack's ``turn`` (the
    core's: card, roll, order set, moves, battles, second moves)."""

    options = ("card",)
    kinds = frozenset({"card", "dice", "order_set", "move", "battle", "second_move"})

    def __init__(self, engine, **options) -> None:
        super().__init__(engine, **options)
        for kind in ("card", "order_set"):
            if self.steps.decl.step_of(kind) is None:
                raise WarcouncilError(f"turn {self.steps.decl.id} has no step of kind {kind}: a Commands & Colors "
                                      "turn plays a card and gives its order set", self.steps.decl.loc)
        sc = engine.scenario
        self.side = sc.to_move
        hand = sc.sides[self.side].get("hand")
        pack = engine.pack
        self.hand = None if hand is None else tuple(dict.fromkeys(pack.card(c).name for c in hand))
        if self.hand == ():
            raise WarcouncilError(f"{self.side} holds no card: add the card it drew to its hand")
        self.fixed = None
        if "card" in self.chosen:
            self.fixed = pack.card(str(self.chosen["card"])).name
            if self.hand is not None and self.fixed not in self.hand:
                raise WarcouncilError(f"{self.fixed} is not in the hand of {self.side} "
                                      f"({', '.join(self.hand) or 'no cards'})")

    # ------------------------------------------------------------ positions
    def start(self):
        if self.fixed is not None and self.engine.pack.cards[self.fixed].get("copy") is None:
            return self._played(Position(self._name(0)), self.fixed, None)
        return self._moved(Position(self._name(0)), 0)

    # ------------------------------------------------------------ the steps (kernel/game.py's StepTurn)
    def _name(self, at: int | None) -> str:
        return "over" if at is None else self.steps.steps[at].name

    def at(self, pos: Position) -> int | None:
        return None if pos.stage == "over" else next(i for i, s in enumerate(self.steps.steps) if s.name == pos.stage)

    def _moved(self, pos: Position, at: int) -> Position:
        """``pos`` at step ``at``, or the first step after it that applies."""
        return _replace(pos, stage=self._name(self.settle(pos, at)))

    def _enter(self, pos: Position, kind: str, **changes) -> Position:
        """``pos`` after an action of ``kind`` with ``changes`` (the turn's
        order refuses an action of a step over or not begun)."""
        after = _replace(pos, **changes)
        return self._moved(after, self.enter(self.at(pos), kind, pos))

    def applies(self, pos: Position, step) -> bool:
        """A dice step applies when the card played rolls dice."""
        if "dice" in step.kinds and pos.card is not None:
            decl, _ = self.engine.resolve_card(pos.card, pos.copies)
            return decl.get("roll") is not None
        return True

    def may_end(self, pos: Position) -> bool:
        return not pos.owed and self._judge(pos).legal

    def step_outcomes(self, pos: Position, kind: str) -> list:
        decl, _ = self.engine.resolve_card(pos.card, pos.copies)
        return [({"kind": "dice", "roll": counts, "text": roll_words(counts)}, p)
                for counts, p in self.engine.roll_table(decl, self.side)]

    def step_actions(self, pos: Position, kinds: tuple) -> list:
        return [a for kind in kinds for a in self._actions(pos, kind)]

    def _actions(self, pos: Position, kind: str) -> list:
        if kind == "card":
            return self._card_actions()
        if kind == "order_set":
            eng = self.engine
            g = self._ground(pos)
            actions = []
            for s in eng.order_sets(g):
                j = eng.order_set_json(g, s)
                actions.append({"kind": "order_set", "units": j["units"], "leaders": j["leaders"],
                                "text": orders_words(j["units"], j["leaders"])})
            return actions
        if kind == "battle":
            return self._battles(pos)
        return self._moves(pos, 1 if kind == "move" else 2)

    def _ordered(self, pos: Position) -> bool:
        """Whether the order set is given (the turn is past its step)."""
        at = self.at(pos)
        return at is None or at > self.steps.decl.step_of("order_set")

    def _played(self, pos: Position, card: str, copies: str | None) -> Position:
        self.engine.resolve_card(card, copies)  # (a card it may not copy: refused here)
        return self._enter(pos, "card", card=card, copies=copies)

    def _card_actions(self) -> list:
        pack = self.engine.pack
        names = [self.fixed] if self.fixed is not None else (self.hand if self.hand is not None else pack.cards)
        out = []
        for name in names:
            decl = pack.cards[name]
            if decl.get("copy") is None:
                out.append({"kind": "card", "card": name, "text": f"card: {name}"})
                continue
            for other, d in pack.cards.items():  # Counter Attack: once per card it may copy
                if d.get("copy") is None and other not in decl.get("excluded"):
                    out.append({"kind": "card", "card": name, "copies": other,
                                "text": f"card: {name}, copying {other}"})
        return out

    def _ground(self, pos: Position):
        return self.engine.ground(pos.card, side=self.side, roll=dict(pos.roll) if pos.roll is not None else None,
                                  copies=pos.copies)

    # ------------------------------------------------------------ the turn as check reads it
    def pieces_of(self, action: dict) -> list[str]:
        """An order set's units and leaders; a move's or a battle's piece."""
        return super().pieces_of(action) + [i for i in action.get("leaders") or () if isinstance(i, str)]

    def log(self, pos: Position) -> dict:
        if pos.card is None:
            return {}
        out: dict = {"card": pos.card}
        if pos.copies is not None:
            out["copies"] = pos.copies
        if pos.roll is not None:
            out["roll"] = dict(pos.roll)
        if not self._ordered(pos):
            return out
        out["orders"] = [*pos.units, *pos.leaders]
        out["moves"] = [_move_dict(m) for m in pos.moves]
        out["battles"] = [{"piece": p, "target": t} for p, t in pos.battles]
        out["second_moves"] = [_move_dict(m) for m in pos.second]
        return out

    def _judge(self, pos: Position, owed: tuple = ()):
        """``check``'s verdict on the turn ``pos`` with the battles ``owed`` declared too."""
        data = self.log(pos)
        data["battles"] = data["battles"] + [{"piece": p, "target": t} for p, t in owed]
        eng = self.engine
        with refusing():
            return eng.check_turn(turn_from_data(data, eng.scenario.board, eng.system))

    def _accept(self, pos: Position) -> Position:
        """``pos`` if ``check`` takes it with its owed battles, else ``IllegalAction``."""
        verdict = self._judge(pos, pos.owed)
        if not verdict.legal:
            raise _refused(verdict)
        return pos

    def _replay(self, pos: Position):
        """The turn ``pos`` played as ``check`` plays it (``_played_turn``)."""
        eng = self.engine
        return self._played_turn(turn_from_data(self.log(pos), eng.scenario.board, eng.system))

    def _played_turn(self, turn):
        """The turn file ``turn`` played as ``check`` plays it: (the
        grounding, the alternative, the ordered pieces counted, the moves
        made (with the leaders carried), the positions after them)."""
        eng = self.engine
        g, plan, orders, rec = eng.turn_parts(turn)
        counts = Counter(orders)
        _, alt = _legal_alt(eng.enumerator(g).alts, list(counts), g)
        tv = play_turn(g, plan, Ctx(g, alt, frozenset(counts), counts), rec)[0]
        state = Positions.initial(g.setting)
        for m in tv.moves:
            state = state.moved(m.piece, m.to)
        return g, alt, counts, tv.moves, state

    # ------------------------------------------------------------ moves and battles
    def _moves(self, pos: Position, phase: int) -> list:
        g, alt, counts, done, state = self._replay(pos)
        plan = self.engine.plan
        board = g.setting.board
        moved = {m.piece for m in done if m.phase == phase}
        index = len(pos.moves) + len(pos.second)
        kind = "move" if phase == 1 else "second_move"
        out = []
        for p in sorted(counts, key=lambda v: v.rank):
            start = state.where.get(p)
            if p in moved or start not in board.index:
                continue
            ctx = Ctx(g, alt, frozenset(counts), counts, None, state, tuple(done))  # (as check's _witness)
            ends = reach(ctx, plan, p, index, phase, first_only=True).anywhere & ~(1 << board.index[start])
            for cell in board.cells_in(ends):
                action = {"kind": kind, "piece": p.id, "to": list(cell)}
                if self.tried(pos, action) is not None:
                    out.append({**action, "text": move_words(kind, p, start, cell)})
        return out

    def _battles(self, pos: Position) -> list:
        setting = self._ground(pos).setting
        mine = [setting.by_id[i] for i in pos.units]
        theirs = sorted((v for v in setting.views if v.side != self.side and v.role == "unit"), key=lambda v: v.rank)
        out = []
        for u in sorted(mine, key=lambda v: v.rank):
            for t in theirs:
                action = {"kind": "battle", "piece": u.id, "target": t.id}
                if self.tried(pos, action) is not None:
                    out.append(self.worded(pos, action))
        return out

    # ------------------------------------------------------------ playing
    def play(self, pos: Position, action: dict) -> Position:
        kind = action.get("kind")
        if kind == "card":
            return self._play_card(pos, action)
        if kind == "dice":  # (at the chance node the kernel takes only the listed outcomes)
            if pos.roll is not None or self.at(pos) is None or "dice" not in self.steps.steps[self.at(pos)].kinds:
                raise IllegalAction("no dice are rolled now")
            return self._enter(pos, "dice", roll=tuple(action["roll"].items()))
        if pos.stage == "over":
            raise IllegalAction("the turn is over")
        if kind == "order_set":
            rolling = pos.stage != "over" and self.steps.steps[self.at(pos)].mode == "chance"
            if self._ordered(pos) or rolling:
                raise IllegalAction("the order set is given once, after the card" + (" and its roll" if rolling else ""))
            units, leaders = _ids(action, "units"), _ids(action, "leaders")
            return self._accept(self._enter(pos, "order_set", units=units, leaders=leaders))
        if kind not in self.kinds and kind != "end":
            raise IllegalAction(f"a Commands & Colors turn has no action of kind {kind!r}")
        if kind == "end":
            if not self.ends_at(self.at(pos)):
                raise IllegalAction(f"{self.steps.decl.id}: the turn does not end before its "
                                    f"{self.steps.steps[self.at(pos)].name} step", [self.steps.violation(
                                        f"the turn does not end before its {self.steps.steps[self.at(pos)].name} step")])
            verdict = self._judge(pos)
            if not verdict.legal:
                raise _refused(verdict)
            return _replace(pos, stage="over")
        if not self._ordered(pos):
            self.enter(self.at(pos), kind, pos)  # (refuses: the order set is given first)
        if kind == "battle":
            piece, target = _id(action, "piece"), _id(action, "target")
            owed = tuple(b for b in pos.owed if b[0] != piece)
            return self._accept(self._enter(pos, kind, battles=pos.battles + ((piece, target),), owed=owed))
        move = (_id(action, "piece"), _cell(action.get("to", (action.get("path") or [None])[-1])), _path(action))
        if kind == "second_move":
            at = self.enter(self.at(pos), kind, pos)
            if pos.owed:  # the owed battle is declared before the second moves, or never
                raise _refused(self._judge(pos))
            return self._accept(self._moved(_replace(pos, second=pos.second + (move,)), at))
        after = self._enter(pos, kind, moves=pos.moves + (move,))
        verdict = self._judge(after, after.owed)
        if verdict.legal:
            return after
        # a move after which the unit must battle (must_battle): legal when a
        # battle of it (the first that works) makes the turn legal; that battle is owed
        if not any(p == move[0] for p, _ in pos.battles + pos.owed):
            setting = self._ground(pos).setting
            me = setting.by_id.get(move[0])
            if me is not None and me.role == "unit":
                for t in sorted(setting.views, key=lambda v: v.rank):
                    if t.side != me.side and t.role == "unit":
                        owed = after.owed + ((me.id, t.id),)
                        if self._judge(after, owed).legal:
                            return _replace(after, owed=owed)
        raise _refused(verdict)

    def _play_card(self, pos: Position, action: dict) -> Position:
        if pos.card is not None:
            raise IllegalAction("the card is already played")
        name = action.get("card")
        if not isinstance(name, str):
            raise IllegalAction("a card action names its card: {kind: card, card: NAME}")
        copies = action.get("copies")
        with refusing():
            decl = self.engine.pack.card(name)
            if copies is not None and not isinstance(copies, str):
                raise IllegalAction("`copies` names a card")
            played = self._played(pos, decl.name, copies)
        if self.fixed is not None and decl.name != self.fixed:
            raise IllegalAction(f"the card played is {self.fixed} (new_state(card=...)), not {decl.name}")
        if self.hand is not None and decl.name not in self.hand:
            raise IllegalAction(f"{decl.name} is not in the hand of {self.side} ({', '.join(self.hand) or 'no cards'})")
        return played

    def worded(self, pos: Position, action: dict) -> dict:
        kind = action["kind"]
        if kind == "card":
            decl = self.engine.pack.card(action["card"])
            text = f"card: {decl.name}" + (f", copying {action['copies']}" if action.get("copies") else "")
        elif kind == "order_set":
            text = orders_words(action.get("units") or [], action.get("leaders") or [])
        elif kind in ("move", "second_move"):
            g, _, _, _, state = self._replay(pos)
            p = g.setting.by_id[action["piece"]]
            at = state.where.get(p)
            to = action.get("to") or action["path"][-1]
            text = move_words(kind, p, at, to)
        elif kind == "battle":
            text = f"{action['piece']} battles {action['target']}"
        elif kind == "dice":
            text = roll_words(action["roll"])
        else:
            text = "end the turn"
        return {**action, "text": text}

    # ------------------------------------------------------------ the picture
    def draw(self, pos: Position, select: str | None = None, node=None) -> str:
        """The board with the pieces where the moves so far left them
        (``svg.board_svg``); with ``select``, its legal moves' hexes marked
        (``data-legal-to``, the actions' words in their ``<title>``) and the
        units it may battle (``data-legal-target``); the ordered pieces ringed."""
        from .svg import board_svg

        eng = self.engine
        if not self._ordered(pos):
            setting, where = eng.setting(self.side), {}
        else:
            g, _, _, _, state = self._replay(pos)
            setting, where = g.setting, {p.id: c for p, c in state.where.items()}
        legal, targets = self.legal_marks(pos, select, node)
        dests = {select: dict.fromkeys(legal)} if legal else {}
        words = {(select, to): texts for to, texts in legal.items()}
        title = " · ".join(x for x in (pos.card, f"{self.side} to move", f"{select} selected" if select else "") if x)
        return board_svg(setting, where, dests, title, words, targets, select, pos.units + pos.leaders)

    def moved_to(self, pos: Position, action: dict) -> list:
        """A move or a second move puts its piece at its ``to`` hex."""
        if action.get("kind") not in ("move", "second_move"):
            return []
        return [(action.get("piece"), tuple(action["to"]))]

    # ------------------------------------------------------------ the next scenario
    def next_scenario(self, turn: dict) -> dict:
        """The scenario after the legal ``turn`` (a turn file's data): the
        pieces where its moves left them (attached leaders with their
        units), the other side to move, the card played gone from the
        side's ``hand`` when it has one."""
        eng = self.engine
        sc = eng.scenario
        t = turn_from_data(turn, sc.board, eng.system)
        at = {m.piece.id: list(m.to) for m in self._played_turn(t)[3]}
        side = t.side or sc.to_move
        data = scenario_data(sc, side)
        for key in sc.lists:
            for entry in data.get(key) or ():
                if str(entry.get("id")) in at:
                    entry["at"] = at[str(entry["id"])]
        hand = data["sides"][side].get("hand")
        if hand:
            played = eng.pack.card(t.card).name
            for i, c in enumerate(hand):
                if eng.pack.card(c).name == played:
                    del hand[i]
                    break
        return data


def _replace(pos: Position, **changes) -> Position:
    import dataclasses

    return dataclasses.replace(pos, **changes)


def _refused(verdict) -> IllegalAction:
    vs = [v.as_json() for v in verdict.violations]
    first = verdict.violations[0]
    more = f" (and {len(vs) - 1} more)" if len(vs) > 1 else ""
    return IllegalAction(f"{first.rule}: {first.message}{more}", vs)


def _id(action: dict, key: str) -> str:
    v = action.get(key)
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise IllegalAction(f"a {action.get('kind')} action's {key} is a piece id, not {v!r}")
    return str(v)


def _ids(action: dict, key: str) -> tuple:
    v = action.get(key) or []
    if not isinstance(v, (list, tuple)):
        raise IllegalAction(f"an order set's {key} is a list of piece ids")
    return tuple(_id({key: x, "kind": "order_set"}, key) for x in v)


def _cell(v) -> tuple:
    if not (isinstance(v, (list, tuple)) and len(v) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
        raise IllegalAction(f"a move goes to a hex [col, row], not {v!r}")
    return (v[0], v[1])


def _path(action: dict):
    path = action.get("path")
    if path is None:
        return None
    if not isinstance(path, (list, tuple)) or not path:
        raise IllegalAction("a move's path is a non-empty list of hexes")
    return tuple(_cell(c) for c in path)


def _move_dict(m) -> dict:
    piece, to, path = m
    out = {"piece": piece, "to": list(to)}
    if path is not None:
        out["path"] = [list(c) for c in path]
    return out
