"""The Commands & Colors engine: a card's order sets, destinations and turns.

    eng = Engine.load("akragas")                  # a CardEngine for a C&C scenario
    g = eng.ground("Order Three Units Center")
    for s in eng.order_sets(g): ...
    eng.count(g)
    eng.check_turn(load_turn("turn.yaml", eng))

A decision here is the set of pieces a card orders; a card is resolved
(Counter Attack's copy, mirrored), rolled (its dice) and grounded on the
setting, then enumerated or checked by the kernel.
"""

from __future__ import annotations

from fractions import Fraction
from operator import attrgetter

from ...dsl import ast as A
from ...errors import WarcouncilError, closest
from ...solver.check import Verdict, Violation, check
from ...kernel.ground import Ctx, Record
from ...solver.cells import end_flags
from ...solver.search import plain_fast_before, reach
from ...solver.plan import PlannedEngine
from .cards import dice_outcomes, mirror_card
from .enumerate import Enumerator
from .grounding import Grounding

_rank = attrgetter("rank")
_fromkeys = dict.fromkeys
_LANE = "destinations"  # a grounding's memo: see CardEngine.destinations
_KEPT = "grounded"  # a setting's memo: _KEPT -> {card name: Grounding.kept's arguments} (CardEngine.ground)
_NONE: dict = {}  # (never written)



def _legal_alt(alts, pieces, g) -> tuple:
    """(is the order set ``pieces`` legal, the alternative its moves are
    judged under: the first that admits it, else the card's first) for the
    plans ``alts`` (``enumerate.AltPlan``) of grounding ``g``."""
    if len(alts) == 1:
        a = alts[0]
        return a.legal(pieces), a.alt
    for a in alts:
        if a.legal(pieces):
            return True, a.alt
    return False, (g.alts[0] if g.alts else None)


def _checks_one(alts) -> tuple:
    """What ``AltPlan.legal`` reads of each plan of ``alts`` (no rule judged
    as a closure), for ``destinations``' quick path: ``(n, items, ~free,
    admitted, hall, cap, filled, led, impossible, forced_mask, anchor_mask)``,
    from its ``_checks`` (``hall``: (~outside, orders) ...), its
    ``impossible`` and ``forced_mask`` and its alternative's ``anchor_mask``:
    read once (an AltPlan's attributes, set through its ``__dict__``, are
    slow to read; a complement taken once is not made per query)."""
    out = []
    for a in alts:
        n, items, free, admitted, hall, cap, filled, linked, led = a._checks
        if hall is not None:
            hall = tuple((~outside, orders) for outside, orders in hall)
        out.append((n, items, ~free, admitted, hall, cap, filled, led, a.impossible, a.forced_mask,
                    a.alt.anchor_mask))
    return tuple(out)


# the most dice for which every roll is answered (orders without --roll): the
# outcomes grow as n^5 and each is a whole enumeration (12 dice: a few seconds)
ROLL_TABLE_DICE = 12

#: the verbs whose whole answer the engine gives (``CardEngine.answer``)
ANSWERED = frozenset({"orders", "moves", "turns", "diff"})


class CardEngine(PlannedEngine):
    """An engine whose decision is a card's order set."""

    def __init__(self, scenario, pack):
        super().__init__(scenario, pack)
        self._copies: dict = {}  # (copying card, copied card) -> resolved card
        self._may_battle: tuple | None = None  # see _battle_fn
        self._must_battle: tuple | None = None  # see _battle_fn
        self._by_side: dict = {}  # side -> its setting with no command given (self._settings[(side, None)])

    # ------------------------------------------------------------ verbs
    def answer(self, verb: str, **options):
        """``orders``, ``moves``, ``turns`` and ``diff`` (``answers.py``)."""
        if verb in ANSWERED:
            from .answers import BY_VERB

            return BY_VERB[verb](self, **options)
        return super().answer(verb, **options)

    # ------------------------------------------------------------ cards
    def resolve_card(self, card: str, copies: str | None = None) -> tuple[A.CardDecl, str]:
        """The card to ground and the name it is played as (Counter Attack)."""
        decl = self.pack.cards.get(card)  # its printed name
        if decl is None:
            decl = self.pack.card(card)  # case, spaces and hyphens ignored
        if decl.get("copy") is None:
            if copies:
                raise WarcouncilError(f"--copies only goes with a card that copies another ({decl.name} does not)")
            return decl, decl.name
        if not copies:
            raise WarcouncilError(
                f"{decl.name} copies the card the opponent just played: name it with --copies CARD"
            )
        target = self.pack.card(copies)
        if target.get("copy") is not None:
            raise WarcouncilError(
                f"{decl.name} cannot resolve a copy of {target.name}: give the card that {target.name} copied"
            )
        if target.name in decl.get("excluded"):
            raise WarcouncilError(f"{decl.name} cannot copy {target.name}")
        key = (decl.name, target.name)
        hit = self._copies.get(key)
        if hit is None:
            # the mirrored card is built once: its AST nodes are compiled once
            if decl.get("mirrored") and {"left", "right"} <= set(self.pack.sections):
                target = mirror_card(target, {"left": "right", "right": "left"})
            hit = self._copies[key] = target
        return hit, decl.name

    def dice_count(self, card: A.CardDecl, side: str | None = None, command: int | None = None) -> int | None:
        if card.get("roll") is None:
            return None
        bare = Grounding(self.pack, self.plan.compiler, self.setting(side, command), card,
                         ground_alternatives=False)
        n = self.plan.compiler.compile(card.get("roll"))(bare.base(), {})
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n != int(n) or n < 0:
            raise WarcouncilError(f"{card.name} rolls {n!r} dice: the roll must be a whole number, 0 or more",
                                  card.get("roll").loc)
        return int(n)

    def relevant_faces(self, card: A.CardDecl) -> list[str]:
        faces = []
        for alt in card.alternatives:
            for q in alt.quotas:
                if isinstance(q.amount, A.Expr):
                    for n in A.walk(q.amount):
                        if isinstance(n, A.Call) and n.func == "rolled":
                            for a in n.args:
                                if isinstance(a, A.Name) and a.id not in faces:
                                    faces.append(a.id)
        return [f for f in self.pack.dice if f in faces]

    def roll_table(self, card: A.CardDecl, side=None, command=None) -> list[tuple[dict, Fraction]]:
        n = self.dice_count(card, side, command) or 0
        if n > ROLL_TABLE_DICE:
            raise WarcouncilError(f"{card.name} rolls {n} dice here: every roll is answered for at most "
                                  f"{ROLL_TABLE_DICE} dice", hint="give the roll with --roll")
        return list(dice_outcomes(self.pack.dice, n, self.relevant_faces(card)))

    def parse_roll(self, card: A.CardDecl, text: str, side=None, command=None) -> dict:
        """``light,light,helmet`` (the faces rolled) or ``light=2,helmet=1``."""
        n = self.dice_count(card, side, command)
        if n is None:
            raise WarcouncilError(f"{card.name} does not roll dice: drop --roll")
        counts: dict[str, int] = {}
        parts = [p.strip() for p in text.replace(" ", "").split(",") if p.strip()]
        for part in parts:
            face, _, num = part.partition("=")
            if face not in self.pack.dice:
                hint = closest(face, self.pack.dice)
                raise WarcouncilError(
                    f"unknown die face {face!r} in --roll",
                    hint=(f"did you mean {hint[0]!r}? " if hint else "") + "faces: " + ", ".join(self.pack.dice),
                )
            try:
                k = int(num) if num else 1
            except ValueError:
                raise WarcouncilError(f"--roll: {part!r} is not FACE or FACE=COUNT") from None
            if k < 0:
                raise WarcouncilError(f"--roll: a negative count in {part!r}")
            counts[face] = counts.get(face, 0) + k
        total = sum(counts.values())
        if total > n or (all("=" not in p for p in parts) and total != n):
            raise WarcouncilError(f"--roll gives {total} dice, but {card.name} rolls {n} (Command)")
        return counts

    def ground(self, card: str | A.CardDecl, *, side: str | None = None, roll: dict | str | None = None,
               copies: str | None = None, command: int | None = None) -> Grounding:
        if roll is None and copies is None and card.__class__ is str:
            setting = self._by_side.get(side) if command is None else self._settings.get((side, command))
            if setting is not None:
                kept = setting.memo.get(_KEPT)
                if kept is not None:
                    kept = kept.get(card)
                    if kept is not None:  # a card by its printed name whose facts the setting keeps
                        return Grounding.kept(*kept)
        decl = self.pack.cards.get(card) if card.__class__ is str and copies is None else None
        by_name = decl is not None and decl.get("copy") is None  # a card by its printed name (resolve_card, in short)
        if by_name:
            played = decl.name
        elif isinstance(card, A.CardDecl):
            decl, played = card, card.name
        else:
            decl, played = self.resolve_card(card, copies)
        if decl.get("roll") is not None:
            if roll is None:
                raise WarcouncilError(
                    f"{decl.name} orders by a dice roll: give it with --roll, or omit --roll to list every roll"
                )
            if isinstance(roll, str):
                roll = self.parse_roll(decl, roll, side, command)
        elif roll:
            raise WarcouncilError(f"{decl.name} does not roll dice: drop --roll")
        setting = self._settings.get((side, command)) or self.setting(side, command)
        if command is None:
            self._by_side[side] = setting
        g = Grounding(self.pack, self.plan.compiler, setting, decl, played_as=played, roll=roll)
        if by_name:
            facts = g.facts()
            if facts is not None:
                # kept in the setting's memo (emptied with it), with the
                # grounding's first memo, where destinations adds its lane
                kept = setting.memo.get(_KEPT)
                if kept is None:
                    kept = setting.memo[_KEPT] = {}
                kept[card] = (self.pack, self.plan.compiler, setting, decl, played, *facts)
        return g

    # ------------------------------------------------------------ answers
    def enumerator(self, g: Grounding) -> Enumerator:
        """The enumerator of a grounding (built once: a grounding never changes)."""
        e = g.enumerator
        if e is None or e.plan is not self.plan:
            e = g.enumerator = Enumerator(g, self.plan)
        return e

    def order_sets(self, g: Grounding, limit: int | None = None):
        return self.enumerator(g).order_sets(limit)

    def count(self, g: Grounding, step=None) -> int:
        return self.enumerator(g).count(step)

    def count_cheap(self, g: Grounding) -> int | None:
        """``count(g)`` when it needs no enumeration, else None."""
        return self.enumerator(g).count_cheap()

    def check_orders(self, g: Grounding, ids: list[str]) -> Verdict:
        return check(g, self.plan, self.pieces(g, ids))

    def check_turn(self, turn) -> Verdict:
        parts = self.turn_parts(turn)
        verdict = check(*parts)
        beyond = self.beyond_turn(parts[3])
        return Verdict(False, verdict.violations + beyond) if beyond else verdict

    #: a turn file's lists, and the kind of action (the pack's ``turn``) each holds
    SECTIONS = (("moves", "move"), ("battles", "battle"), ("second_moves", "second_move"))

    def beyond_turn(self, record) -> list:
        """Violations of the pack's ``turn`` (its steps): a list of the turn
        file holding actions of a kind no step of the turn takes (a house
        rule's turn without second moves, and a turn file with some)."""
        decl = self.pack.turn
        out = []
        for key, kind in self.SECTIONS:
            entries = getattr(record, key)
            i = None if decl is None else decl.step_of(kind)
            if decl is None or not entries or (i is not None and (decl.steps[i].mode == "repeat" or len(entries) == 1)):
                continue
            ids = ", ".join(e.piece.id for e in entries)
            why = (f"the turn has no step of {kind.replace('_', ' ')}s" if i is None else
                   f"the {decl.steps[i].name} step takes one action" + (f": {decl.steps[i].doc}" if decl.steps[i].doc else ""))
            source, quote = self.pack.source_of(decl)
            out.append(Violation(decl.id, [e.piece.id for e in entries], f"{why} ({key}: {ids})", source, quote,
                                 self.pack.origin.get(decl.id, "")))
        return out

    def turn_parts(self, turn) -> tuple:
        """What ``check`` judges of a turn file: (the grounding of its card,
        the plan, the ordered pieces, its moves and battles as a ``Record``)."""
        with turn.at("side"):  # an unknown side: at its place in the file
            self.setting(turn.side, turn.command)
        with turn.at("card"):  # an unknown card, a roll it does not take ...
            g = self.ground(turn.card, roll=turn.roll, copies=turn.copies, command=turn.command, side=turn.side)
        orders = self.pieces(g, turn.orders, turn.orders_where)
        def records(raw):
            out = []
            for m in raw:
                p = self.pieces(g, [m.piece], [m.where])[0]
                out.append(Record(piece=p, to=m.to, path=m.path))
            return tuple(out)

        moves = records(turn.moves or ())
        second = records(turn.second_moves or ())
        battles = []
        for b in turn.battles or ():
            p = self.pieces(g, [b.piece], [b.where])[0]
            t = self.pieces(g, [b.target], [b.where])[0]
            battles.append(Record(piece=p, target=t))
        return g, self.plan, orders, Record(moves=moves, battles=tuple(battles), second_moves=second)

    def destinations(self, g: Grounding, ids: list[str]):
        """For each ordered piece: every legal destination, judged on the
        board as it stands before any move of the turn, with whether the
        piece may still battle from there:
        ``(legal, {id: {(col, row): battle}})``, the hexes in reading order
        (row by row); ``battle`` is a bool for a unit (None for a leader, or
        when the pack has no ``may_battle``). ``destinations_json`` gives the
        contract's JSON shape."""
        lane = g.memo.get(_LANE)
        if lane is not None and len(ids) == 1:
            # one piece the lane has answered before (its search plain, its
            # one test `v in ordered` or none, its flags kept or none): the
            # steps of _destinations in one small frame, with what they look
            # up found at once (_quick_entry)
            quick = lane[3].get(ids[0])
            if quick is not None:
                p, rank, m, not_m, fast, ef, setting, moves, before, nb, depth, not_bit, fixed, flags, board, keyed, \
                    dilated = quick
                en = g.enumerator
                shared = lane[2]
                legal = None
                if moves and before[0] is not setting.caches.positions:
                    pass  # (a new position: its masks worked out by ends_before, _destinations)
                elif shared is not None and shared[0] == g.alts and (en is None or en.plan is self.plan):
                    # the order set judged (_legal_alt: the first alternative
                    # that admits it; which one is not read here) with the
                    # lane's plans (enumerate.AltPlan): AltPlan.legal's
                    # checks of one piece (``m``, its bit) written out, on
                    # the plans' facts read once (_checks_one); a piece alone
                    # is connected
                    legal = False
                    for n, items, not_free, admitted, hall, cap, filled, led, impossible, forced, anchor in shared[2]:
                        if rank >= n or not m & items or filled and (impossible or forced & not_m) \
                                or led and not m & anchor:
                            continue
                        charged = m & not_free
                        if cap is not None and (charged != 0) > cap:
                            continue
                        if hall is not None:
                            charged &= admitted
                            if charged:
                                for not_outside, orders in hall:
                                    if (charged & not_outside != 0) > orders:
                                        break
                                else:
                                    legal = True
                                    break
                                continue
                        legal = True
                        break
                elif en is not None and en.plan is self.plan:
                    pieces = (p,)
                    legal = any(a.legal(pieces) for a in en.alts)
                if legal is not None:
                    if not moves:  # its one test, `v in ordered`, fails: no move
                        return legal, {ids[0]: {}}
                    # PlainFast.ends_before in the position before the turn
                    # (``before``: its masks there), the flags of each length
                    # (EndFlag.mask_ends) taken with the ends
                    if depth == 1:  # its neighbours it may enter and end on
                        ends = nb & before[4]
                        if not ends:
                            return legal, {ids[0]: {}}
                        if ef is not None:
                            flag = ends & (fixed if fixed is not None else flags[0])
                    else:
                        _, enter, passing, ending, _ = before
                        frontier = nb & enter
                        ends = frontier & ending
                        if flags is not None:
                            flag = ends & flags[0]
                        k = 1
                        while k < depth:
                            frontier &= passing
                            if not frontier:
                                break
                            # Board.dilate_of, its memo read in place
                            e = dilated.get(frontier)
                            frontier = (e if e is not None else board.dilate_of(frontier)) & enter
                            if not frontier:
                                break
                            e = frontier & ending
                            ends |= e
                            if flags is not None:
                                flag |= e & flags[k]
                            k += 1
                        ends &= not_bit  # (its own hex is no destination)
                        if not ends:
                            return legal, {ids[0]: {}}
                        if ef is not None:
                            flag = ends & (fixed if fixed is not None else flag)
                    # the hexes in reading order: the keys of the board's dict
                    # of the mask (Board.cells_keyed, its memo read in place:
                    # each True; a dict made from it takes their hashes)
                    cells = keyed.get(ends)
                    if cells is None:
                        cells = board.cells_keyed(ends)
                    if ef is None:  # no battle flag (a leader, or no may_battle)
                        return legal, {ids[0]: _fromkeys(cells)}
                    if flag == ends:
                        return legal, {ids[0]: cells.copy()}
                    d = _fromkeys(cells, False)
                    if flag:
                        d.update(keyed.get(flag) or board.cells_keyed(flag))
                    return legal, {ids[0]: d}
        return self._destinations(g, ids, lane)

    def _destinations(self, g: Grounding, ids: list[str], lane):
        """``destinations`` but its quick path (``lane``: the grounding's, or None)."""
        setting = g.setting
        board = setting.board
        # per card, in the setting (found once per grounding): the plain
        # searches by piece (search.PlainFast, kept as reach makes them), the
        # battle flags when they never read the order set, and the plans
        # (enumerate.AltPlan) whose legality reads only the card and the
        # setting, with the alternatives they are of
        if lane is None:
            board.require("cells", "moves")  # a table has none: exit 2, never {}
            key = ("dest-lane", self.plan.compiler.fixed_key(g))
            lane = setting.memo.get(key)
            if lane is None:
                lane = setting.memo[key] = [{}, None, None, {}]
            g.memo[_LANE] = lane
            kept = setting.memo.get(_KEPT, _NONE).get(g.played) if g.roll is None else None
            if kept is not None and kept[3] is g.card:  # the next groundings of the card start with it
                kept[6][_LANE] = lane
        by_id = setting.by_id
        try:
            pieces = [by_id[ids[0]]] if len(ids) == 1 else [by_id[pid] for pid in ids]
        except KeyError:  # an unknown id: reported at its place
            pieces = self.pieces(g, ids)
        en = g.enumerator
        if en is not None and en.plan is self.plan:
            alts = en.alts
        else:
            shared = lane[2]
            if shared is not None and shared[0] == g.alts:
                alts = shared[1]
            else:
                alts = self.enumerator(g).alts
                if all(a.alt.shared and not a.closure_rules for a in alts):
                    # (a shared alternative's plan is worked out once per card:
                    # AltPlan.__init__; with no rule judged as a closure its
                    # legal() reads nothing of the grounding)
                    lane[2] = (list(g.alts), alts, _checks_one(alts))
        legal, alt = _legal_alt(alts, pieces, g)
        ctx = None  # Ctx(g, alt, frozenset(pieces)), made when something reads it
        fasts, flag_of = lane[0], lane[1]
        if flag_of is None:
            battle_fn, battle_use = self._battle_fn()
            if battle_fn is not None:
                ctx = Ctx(g, alt, frozenset(pieces))
                flag_of = self._battle_flags(ctx, battle_fn, battle_use)
                if battle_use.clean:  # one per card and setting, whatever the order set (cells.end_flags)
                    lane[1] = flag_of
        out = {}
        cells_in = board.cells_in
        fromkeys = dict.fromkeys
        for p in (sorted(set(pieces), key=_rank) if len(pieces) > 1 else pieces):
            fast = fasts.get(p)
            hit = fast.ends_before(setting, p, pieces, g, alt) if fast is not None else None
            if hit is None:  # the general search
                if ctx is None:
                    ctx = Ctx(g, alt, frozenset(pieces))
                r = reach(ctx, self.plan, p)
                anywhere = ends = r.anywhere
                if r.levels:
                    ends &= ~r.levels[0]  # the piece's own hex is not a destination
                end_masks = r.end_masks
                if fast is None:
                    fast = plain_fast_before(setting, self.plan.compiler.fixed_key(g), p)
                    if fast is not None:
                        fasts[p] = fast
            else:
                ends, end_masks = hit  # (its own hex left out)
                anywhere = ends
            if not ends:
                out[p.id] = {}
                continue
            cells = cells_in(ends)  # in reading order
            if flag_of is not None and p.role == "unit":
                ef = flag_of(p)
                fixed = ef.fixed
                flag = (anywhere & fixed if fixed is not None else ef.mask_ends(anywhere, end_masks)) & ends
                if flag == ends:
                    out[p.id] = fromkeys(cells, True)
                else:
                    d = out[p.id] = fromkeys(cells, False)
                    if flag:
                        d.update(fromkeys(cells_in(flag), True))
            else:
                out[p.id] = fromkeys(cells)
        if len(pieces) == 1 and hit is not None:
            self._quick_entry(lane, setting, pieces[0], fast, flag_of)
        return legal, out

    def _quick_entry(self, lane, setting, p, fast, flag_of) -> None:
        """Keep in the lane, by id, what a query of ``p`` alone reads after
        its search (``fast``, a ``search.PlainFast``) in ``destinations``'
        quick path: ``(p, rank, m, ~m, fast, flag, setting, moves, before,
        nb, depth, ~bit, fixed, flags, board, keyed, dilated)``: ``p``,
        its rank and bit (``m``, over the setting's own pieces); ``flag``
        its battle flags (a ``cells.EndFlag`` of the flags kept per card),
        None when the answer has no battle flags; ``moves``, may it move
        (its search's one test ``v in ordered`` answered for the order set
        of ``p`` alone, or no test); ``fast``'s masks in the position
        before the turn and the hexes both entered and ended on
        (``before``: (the position, enter, pass, end, enter & end), taken
        while that position is the setting's); its start's neighbours, its
        depth and start bit (``bit``); the flags' hexes whatever the length
        (``fixed``) or per length 1, 2, ... (``flags``); the board and its
        memos of ``cells_keyed`` and ``dilate_of`` (``keyed``, ``dilated``:
        read in place). Nothing when the flags are worked out per query
        (they read the order set) or the search's test is of another shape
        (judged per query by ``fast.ends_before``)."""
        if p.role == "unit" and self._battle_fn()[0] is not None:
            if flag_of is None or lane[1] is not flag_of:
                return
            flag = flag_of(p)
            if flag.judge is not None:  # (a clean flag never has one: cells.end_flags)
                return
        else:
            flag = None
        member = fast.member
        if fast.test is None:
            moves = True
        elif member is not None:
            moves = member[0] in (p,)
        else:
            return
        before = fast.before
        if before is None:  # (worked out by ends_before when the piece may move)
            if moves:
                return
            before = (None, 0, 0, 0)
        depth, bit = fast.depth, fast.bit
        fixed = flags = None
        if flag is not None:
            if flag.reads_length:  # (kept in the flag as mask_ends keeps them)
                by_k = flag.by_k
                flags = tuple(by_k[k] if k in by_k else by_k.setdefault(k, flag.cells_of(k))
                              for k in range(1, depth + 1))
            else:
                fixed = flag.fixed
                if fixed is None:
                    flag.mask_ends(0, ())
                    fixed = flag.fixed
        board = setting.board
        base, enter, passing, ending = before
        m = 1 << p.rank
        lane[3][p.id] = (p, p.rank, m, ~m, fast, flag, setting, moves, (base, enter, passing, ending, enter & ending),
                         board.nb_masks[bit.bit_length() - 1], depth, ~bit, fixed, flags, board, board._keyed_memo,
                         board._dilate_memo)

    def must_battle(self, g: Grounding, ids: list[str], dests: dict) -> dict:
        """Of ``destinations``' answer ``dests`` for the order set ``ids``:
        each unit's destinations it reaches only by moves after which it
        must battle (``{id: {(col, row), ...}}``, units with none left
        out): every legal move there is one the pack's ``must_battle(m)``
        (the system's ``must_battle`` hook) holds for, so the turn is legal
        only if the unit battles (a warrior's two-hex charge). Nothing when
        the pack has no such define."""
        fn, use = self._battle_fn("must_battle")
        if fn is None:
            return {}
        pieces = list(dict.fromkeys(self.pieces(g, ids)))
        _, alt = _legal_alt(self.enumerator(g).alts, pieces, g)
        ctx = Ctx(g, alt, frozenset(pieces))
        flag_of = end_flags(ctx, self.plan.compiler, ("must-battle",), fn, use)
        board = g.setting.board
        index = board.index
        out = {}
        for p in pieces:
            d = dests.get(p.id)
            if p.role != "unit" or not d:
                continue
            ends = 0
            for c in d:
                ends |= 1 << index[c]
            flag = flag_of(p)
            if flag.judge is None and not flag.reads_length:  # the same hexes whatever the length
                must = flag.mask_ends(ends, ())
            else:
                # a hex is such a destination when no legal move there, of
                # any length, avoids the battle
                free = 0
                for k, m in enumerate(reach(ctx, self.plan, p).end_masks):
                    m &= ends
                    if m:
                        free |= m & ~flag.mask_ends(m, (0,) * k + (m,))
                must = ends & ~free
            if must:
                out[p.id] = set(board.cells_in(must))
        return out

    @staticmethod
    def destinations_json(dests: dict, must: dict | None = None) -> dict:
        """``destinations``' answer in the contract's shape:
        ``{id: [{"to": [col, row], "battle": bool}, ...]}`` (no ``battle``
        where it is None), with ``"must_battle": true`` on the destinations
        ``must`` (``must_battle``'s answer) gives."""
        out = {pid: [{"to": list(c)} if b is None else {"to": list(c), "battle": b} for c, b in d.items()]
               for pid, d in dests.items()}
        for pid, cells in (must or {}).items():
            for e in out.get(pid, ()):
                if tuple(e["to"]) in cells:
                    e["must_battle"] = True
        return out

    @staticmethod
    def _battle_flags(ctx, battle_fn, use):
        """piece -> may_battle of a move of the piece to a hex
        (``cells.EndFlag``), on the board before any move: a per-position
        set of hexes for every piece alike (``cells.end_flags``), when the
        rule reads the hex only through what stands there and its terrain."""
        return end_flags(ctx, ctx.g.compiler, ("may-battle",), battle_fn, use)

    def _battle_fn(self, role: str = "may_battle"):
        """The pack's define that says whether a unit may battle after a move
        (the system's ``may_battle`` hook; ``must_battle``: whether it must),
        compiled once, and how it uses the move (``Compiler.move_use``)."""
        attr = "_" + role
        hit = getattr(self, attr)
        if hit is None:
            name = self.system.hook(role)
            if name is None or self.pack.hook(name, 1) is None:
                hit = (None, None)
            else:
                # one call per pack (``Compiler.call_of``): an engine of its own per scenario (a
                # batch's every job) compiles no call of its own into a plan it shares
                c = self.plan.compiler
                call, fn = c.call_of(name, "m")
                hit = (fn, c.move_use(call, "m"))
            setattr(self, attr, hit)
        return hit

    def pieces_words(self, ids) -> str:
        """Pieces by id in words, where the scenario puts them ("heavy
        infantry s4 at 5,7, ..."): ``check``'s violations (``words.py``)."""
        from .words import pieces_words

        return pieces_words(self.setting().by_id, ids)

    def order_set_json(self, g: Grounding, s) -> dict:
        units, leaders = g.ids(s)
        return {"units": units, "leaders": leaders}
