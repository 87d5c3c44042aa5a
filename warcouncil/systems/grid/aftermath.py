"""What the dice move along a checked sequence: after a combat or shooting
result, the push backs (square by square, with what a pushed unit does on
meeting a unit, impassable terrain or the table's edge), the Discipline
Tests the result forces and their Failed Discipline Outcome (routs remove
the unit, retiring turns it about), the follow up, and the Setback and
Disaster Cards each event gives to its side.

Every decision is a define of the pack (``rules/grid-ancients/55-aftermath.wc``
and the tables of ``50-tests.wc``); here only the squares are counted. The
dice come from the activation's entry in the turn file (``push_back``,
``stubborn``, ``stand_fast``, ``discipline``, ``outcome``, ``rout``,
``follow_up``, ``stay``); an event whose die is not given is reported as
unresolved and moves nothing.
"""

from __future__ import annotations

from ...errors import WarcouncilError
from ...records import record
from .facing import AHEAD, FACINGS, Footprint, about_face
from .files import LINES
from .scenario import POOLS

CARDS = ("setback", "disaster")
#: the steps of the aftermath of a combat or shooting result (``Aftermath._<step>``), as the
#: pack names them; it orders them (``aftermath_step``, rules/grid-ancients/55-aftermath.wc)
AFTERMATH_STEPS = ("push_backs", "scythed_disorder", "discipline_tests", "follow_up", "risk_to_generals")
#: what an outcome may change (``Aftermath.take``), in this order; the pack says which
#: effects each outcome takes (``outcome_effect``, rules/grid-ancients/55-aftermath.wc)
EFFECTS = ("at_risk", "flees", "loses_lines", "setback", "lost_eagles", "disorder", "face_about", "retire", "removed")


@record
class Due:
    """A roll an entry still needs, as the procedure asks for it: ``n`` more
    D6 for the entry's value at ``path`` (keys into the entry, e.g.
    ``("discipline", "g1")`` or ``("steps", 0, "test")``); ``single``: the
    value is one face, not a list (a list is extended: a re-roll adds a
    face); ``words``: the roll named for a player. With ``options``, a
    decision instead, asked only of a sequence played with ``choices``:
    ``side`` takes one of the actions ``options`` (the game interface's),
    which gives the value at ``path`` (the chooser's pick among the attack
    dice, a unit standing fast instead of its Push Back)."""

    path: tuple
    n: int
    single: bool
    words: str
    side: str = ""
    options: tuple = ()


class Aftermath:
    """The events of one activation's result, applied to a setting."""

    def __init__(self, seq, item):
        self.seq = seq
        self.eng = seq.eng
        self.item = item
        self.events: list[str] = []
        self.unresolved: list[str] = []
        self.spends: list = []
        self.changed: set[str] = set()
        self.cause = "combat"  # what forced the test being applied: combat, shooting or reform
        self.dr_plus: dict[str, int] = {}  # a Devotio's +2 to the enemy's Discipline Rating in this activation
        self.reserve = False  # the attacker's Small Cavalry Reserve: -2 on the enemy's Failed Discipline roll
        self.risk: dict[str, str] = {}  # a unit with a General: the worst event it suffered (Risk to Generals)
        self.pools_after: dict[str, dict] = {}  # a side's pools after its Command Point losses

    def absorb(self, other: "Aftermath") -> None:
        """Take in what another aftermath of the same activation did (a shot during a move)."""
        self.events[:0] = other.events
        self.unresolved[:0] = other.unresolved
        self.spends.extend(other.spends)
        self.changed |= other.changed
        self.pools_after.update(other.pools_after)

    def at_risk(self, s, uid: str, event: str) -> None:
        """A unit with a General attached is Pushed Back, Disordered, Retiring
        or Routing: one test, on the worst event it suffers in the activation
        (the pack's ``risk_rank``, ga.default.worst-risk; a tie keeps the first)."""
        if uid in s.generals:
            old = self.risk.get(uid)
            if old is None or self.hook(s, "risk_rank", event) > self.hook(s, "risk_rank", old):
                self.risk[uid] = event

    def generals(self, s):
        """Risk to Generals: for each unit at risk, the pack's roll
        ``risk_to_general`` on its worst event: the 2D6 (``general: {UNIT:
        [A, B]}``), then, where they do not decide it, the 1D6 of the wound
        (``wound: {UNIT: N}``): the General unharmed, or removed, Generalship
        Points lost, cards collected."""
        hook = self.hook
        for uid, event in sorted(self.risk.items()):
            g = next(x for x in self.seq.eng.scenario.generals if x.attached_to == uid)
            side = g.side
            dice = self.die("general", uid)
            if dice is None:
                self.need(("general", uid), 2, f"{g.id}'s Risk to Generals test",
                          f"{g.id} is at risk ({uid}: {event}): give the 2D6 as `general: {{{uid}: [A, B]}}`")
                continue
            wound = self.die("wound", uid)
            given = dice if wound is None else (*dice, wound)
            done, fate = self.eng.decided(s, "risk_to_general", {"event": event}, given)
            if not done:
                self.need(("wound", uid), 1, f"{g.id}'s wound", f"{g.id} is injured: give the 1D6 as `wound: {{{uid}: N}}`")
                continue
            if fate == "unharmed":
                self.events.append(f"{g.id} is unharmed ({dice[0]}+{dice[1]} against {event})")
                continue
            then = "" if wound is None else f", then {wound}"
            self.events.append(f"{g.id} is {fate.replace('_', ' ')} ({dice[0]}+{dice[1]}{then})")
            pools = self.seq.pools[side]
            lost = min(pools["generalship"], hook(s, "generalship_lost", fate, pools["generalship"]))
            pools["generalship"] -= lost
            self.events.append(f"{side} loses {lost} Generalship Point{'s' if lost != 1 else ''}")
            self.card(side, hook(s, "general_card", fate), f"{g.id} {fate}")
            self.card(side, "setback", f"{g.id}'s starting Generalship", hook(s, "general_extra_setbacks", fate,
                                                                                 g.generalship))
            if hook(s, "general_removed", fate):
                self.changed.add(uid)
                s = s.moved(uid, general_lost=True)
            if hook(s, "general_calls_homunculus", fate):
                s = self.immediate_homunculus(s, side, uid)
            self.point_losses(s, side, uid, fate)
        self.risk.clear()
        return s

    def immediate_homunculus(self, s, side: str, uid: str):
        """"Immediate “Homunculus Est!” (no removal of Cards if army not
        broken)": the General's own army reveals its cards; the total of
        their points is given by the turn file (``homunculus: {UNIT: N}``)
        and read through the pack's ``homunculus_verdict`` against that
        army's Break Point, as a call would be: broken ends the sequence,
        fatigued makes the army Fatigued. No player called it, so nothing
        cancels it and it is no failed call (no Reversal of Fortune); no
        card is removed. Without the points it stays an event, unresolved."""
        head = f"an immediate “Homunculus Est!” on {side}'s army (no removal of cards if it is not broken)"
        points = self.die("homunculus", uid)
        if points is None:
            self.events.append(head)
            self.unresolved.append(f"the immediate “Homunculus Est!” on {side}'s army needs the points on its "
                                   f"revealed cards: `homunculus: {{{uid}: N}}`")
            return s
        verdict, bp = self.eng.homunculus_verdict(s, side, points)
        self.events.append(f"{head}: {points} points against its Break Point {bp}: "
                           f"{verdict.replace('_', ' ')}")
        if verdict == "fatigued":
            return s.fatigue(side)
        if verdict == "broken":
            self.seq.broken = True
        return s

    def point_losses(self, s, side: str, uid: str, fate: str) -> None:
        """"Roll 1D6 per Command Point": the side's dice (``points_lost:
        {UNIT: [faces]}``, one face per point at risk, pool by pool in the
        order attack, movement, defence, strategy, generalship), each point
        removed when the pack's roll ``command_point_losses`` says so; the pools
        at risk are ``point_at_risk(k)`` (ga.default.points-at-risk). Without
        the dice the losses stay unresolved and nothing is removed."""
        pools = self.seq.pools[side]
        at_risk = [(k, pools[k]) for k in POOLS if pools[k] > 0 and self.hook(s, "point_at_risk", k)]
        n = sum(m for _, m in at_risk)
        if n == 0:
            return
        raw = self.die("points_lost", uid)
        if raw is None:
            which = ", ".join(f"{k} {m}" for k, m in at_risk)
            self.need(("points_lost", uid), n, f"{side}'s Command Point losses",
                      f"{side} rolls 1D6 per Command Point for its losses ({n}: {which}): give them "
                      f"as `points_lost: {{{uid}: [...]}}` (`odds`: command_point_losses, fate {fate})")
            return
        dice = list(raw)
        if len(dice) != n:
            v = self.item.get("points_lost")
            where = getattr(v, "value_where", {}).get(uid, getattr(v, "where", None))
            raise WarcouncilError(f"`points_lost` of {uid} gives {len(dice)} dice, but {side} rolls one per "
                                  f"Command Point at risk: {n}", where,
                                  hint="one face per point, pool by pool: "
                                       + ", ".join(f"{k} {m}" for k, m in at_risk))
        lost = {}
        for k, m in at_risk:
            faces, dice = dice[:m], dice[m:]
            lost[k] = sum(1 for r in faces if self.eng.roll(s, "command_point_losses", {"fate": fate}, (r,)))
            pools[k] -= lost[k]
        total = sum(lost.values())
        self.events.append(f"{side} loses {total} Command Point{'s' if total != 1 else ''} ("
                           + ", ".join(f"{k} {m}" for k, m in lost.items() if m) + ")" if total else
                           f"{side} loses no Command Point")
        self.pools_after[side] = dict(pools)

    # -- helpers
    def away(self, s, v, ways: list[str]) -> tuple[int, int]:
        """Of the ways directly away, the one the pack's ``away_rank(u, d)``
        ranks highest (ga.default.away-tie); equal ranks: the first of
        north, east, south, west."""
        best = max(ways, key=lambda w: (self.hook(s, "away_rank", v, w), -FACINGS.index(w)))
        return AHEAD[best]

    def hook(self, s, name, *args):
        return self.eng.hook(s, name, *args)

    def distance(self, s, v, die: int) -> int:
        """How far unit ``v`` moves on its Follow Up or Rout die (the pack's
        roll ``follow_up``; a Push Back's: its roll ``push_back``)."""
        return self.eng.roll(s, "follow_up", {"unit": v}, (die,))

    def need(self, path: tuple, n: int, words: str, message: str) -> None:
        """A die this event needs and the entry does not give: unresolved
        (``message``), and due to the sequence (the game rolls it next:
        ``n`` D6 for the entry's value at ``path``)."""
        self.unresolved.append(message)
        self.seq.due.append(Due(path, n, n == 1 and path[0] not in ("points_lost",), words))

    def may_stand(self, uid: str, side: str) -> None:
        """Before a unit's Push Back is rolled (its Stubborn or Push Back
        die), its side may spend a Defence Point to stand fast instead (the
        entry's ``stand_fast``): a decision due in a sequence played with
        ``choices`` (the rules judge the spend)."""
        if self.seq.choices:
            self.seq.due.append(Due(("stand_fast", uid), 0, True, f"{uid}'s stand", side, (
                {"kind": "stand_fast", "unit": uid, "text": f"{uid} stands fast, spending a Defence Point"},
                {"kind": "give_ground", "unit": uid, "text": f"{uid} gives ground (its Push Back die)"})))

    def card(self, side: str, kind: str, why: str, n: int = 1) -> None:
        if n <= 0:
            return
        self.seq.cards[side][kind] += n
        self.events.append(f"{side} collects {n} {kind} card{'s' if n > 1 else ''} ({why})")

    def die(self, key: str, uid: str):
        v = self.item.get(key)
        return v.get(uid) if isinstance(v, dict) else None

    def free(self, s, squares, mine=()) -> bool:
        return all(q in s.board.cells and (q not in s.occupant or s.occupant[q].id in mine) for q in squares)

    def remove(self, s, uid: str, why: str):
        self.events.append(f"{uid} {why}: removed from play")
        self.changed.add(uid)
        return s.moved(uid, off_table=True, gone=True)

    def shift(self, s, uid: str, after: Footprint):
        """``uid`` moved to ``after`` (by a push back, a follow up, making
        way), a step as the pack's ``phalanx_disorders`` sees it (its
        ``kind`` none): a Phalanx moving into rough ground becomes
        Disordered (ga.phalanx-rough)."""
        v = s.by_id[uid]
        step = self.eng.step_record(s, v, s.foot[uid], after, None)
        s = s.moved(uid, at=after.at)
        if s.state(v).disordered or not self.hook(s, "phalanx_disorders", v, step):
            return s
        self.events.append(f"{uid} (Phalanx) moves into rough ground: Disordered")
        return s.moved(uid, disordered=True)

    # -- the whole result: the pack's steps, in its order
    def after_result(self, s, option: str, att_id: str, dfn_id: str, r):
        """The setting after result ``r`` of ``att_id``'s combat or shooting
        at ``dfn_id``: the steps of ``AFTERMATH_STEPS`` in the order the
        pack's ``aftermath_step`` ranks them (ga.aftermath-order), each it
        ranks ``none`` left out."""
        hook = self.hook
        shooting = option == "shoot"
        res = {"r": r, "shooting": shooting, "att": att_id, "dfn": dfn_id, "gave_ground": set(),
               "pushed": [u for u, yes in ((att_id, not shooting and hook(s, "attacker_pushed", r)),
                                           (dfn_id, hook(s, "defender_pushed", r))) if yes],
               "tests": [u for u, yes in ((att_id, not shooting and hook(s, "attacker_tests", r)),
                                          (dfn_id, hook(s, "defender_tests", r))) if yes]}
        for step in self.eng.ordered(s, "aftermath_step", AFTERMATH_STEPS, droppable=True):
            s = getattr(self, "_" + step)(s, res)
        return s

    def _push_backs(self, s, res):
        for uid in res["pushed"]:
            if uid not in s.foot:  # (routed already, when the pack tests first)
                continue
            was = s.foot[uid]
            s, status = self.push(s, uid, res["r"], res["shooting"], res["att"])
            if status == "held":
                res["tests"] = [t for t in res["tests"] if t != uid]
            if uid not in s.foot or s.foot[uid].at != was.at:
                res["gave_ground"].add(uid)  # (moved, perhaps before it halted, or left the table)
            if uid in s.foot and s.foot[uid].at != was.at:
                self.at_risk(s, uid, "push_back")
        return s

    def _scythed_disorder(self, s, res):
        att_id, dfn_id = res["att"], res["dfn"]
        if (not res["shooting"] and dfn_id in res["pushed"] and dfn_id in s.foot and att_id in s.foot
                and self.hook(s, "scythed_disorders", s.by_id[att_id]) and not s.state(s.by_id[dfn_id]).disordered
                and self.hook(s, "can_disorder", s.by_id[dfn_id])):
            self.events.append(f"{dfn_id} is Disordered by the Scythed Chariots before its Discipline Test")
            self.changed.add(dfn_id)
            s = s.moved(dfn_id, disordered=True)
        return s

    def _discipline_tests(self, s, res):
        cause = self.cause = "shooting" if res["shooting"] else "combat"
        for uid in res["tests"]:
            if uid in s.foot:
                s = self.discipline(s, uid, cause)
        return s

    def _follow_up(self, s, res):
        """The victorious unit follows up the one that gave ground (ga.default.victor: the attacker, or none)."""
        victor = None if res["shooting"] else self.hook(s, "victor", res["r"])
        if victor is not None:
            follower, followed = (res["att"], res["dfn"]) if victor == "attacker" else (res["dfn"], res["att"])
            if followed in res["gave_ground"] and follower in s.foot and follower not in res["pushed"]:
                s = self.follow_up(s, follower, followed)
        return s

    def _risk_to_generals(self, s, res):
        return self.generals(s)

    # -- push back
    def push(self, s, uid: str, r, shooting: bool, shooter_id: str):
        hook = self.hook
        v = s.by_id[uid]
        side = v.side
        if not hook(s, "pushable", v):  # (its Discipline Test, if any, is still taken)
            self.events.append(f"{uid} cannot be Pushed Back")
            return s, "immobile"
        stand = self.item.get("stand_fast") or ()
        if uid in stand:
            self.spends.append(self.seq.pay(side, "defence", "stand_fast", 1))
            self.events.append(f"{uid} stands (a Defence Point)")
            if hook(s, "push_setback", r, v) and hook(s, "stand_fast_setback"):
                self.card(side, "setback", f"{uid} stood after a Push Back result")
            return s, "stood"
        if hook(s, "stubborn_unit", v):  # (ga.stubborn-units; its die the roll stubborn, as odds reads them)
            hold = self.die("stubborn", uid)
            if hold is None:
                self.may_stand(uid, side)
                self.need(("stubborn", uid), 1, f"{uid}'s Stubborn die", f"{uid} is Stubborn: give its 1D6 as `stubborn: {{{uid}: N}}`")
                return s, "unresolved"
            if self.eng.roll(s, "stubborn", {}, (hold,)) == "stays":
                self.events.append(f"{uid} is Stubborn and holds ({hold})")
                return s, "held"
        if hook(s, "pushed_destroyed", v):
            self.card(side, "setback", f"{uid} Pushed Back")
            return self.remove(s, uid, "is Pushed Back and destroyed"), "gone"
        rolls = shooting and hook(s, "shot_rolls", r, v)
        if shooting and not rolls:
            n = 1
        else:
            die = self.die("push_back", uid)
            if die is None:
                if self.die("stubborn", uid) is None:
                    self.may_stand(uid, side)
                self.need(("push_back", uid), 1, f"{uid}'s Push Back die",
                          f"the push back of {uid} needs its 1D6: `push_back: {{{uid}: N}}`")
                return s, "unresolved"
            # (the pack's roll push_back, its Stubborn die already read above: decided by the distance die)
            n = self.eng.roll(s, "push_back", {"unit": v, "stubborn": False}, (die,))
        if hook(s, "push_setback", r, v):
            self.card(side, "setback", f"{uid} Pushed Back")
        f = s.footprint(v)
        d = self.away(s, v, f.ways_away(s.footprint(s.by_id[shooter_id]))) if rolls else AHEAD[about_face(f.facing)]
        if n == 0:
            self.events.append(f"{uid} does not move back (a 1)")
            return s, "stayed"
        partner = next((w for w in sorted(s.friends_of(v), key=lambda w: w.id)
                        if w.id in s.foot and hook(s, "pushed_together", v, w)), None)
        if partner is None:
            return self.move_back(s, uid, d, n)
        was = s.foot[partner.id]
        s, status = self.move_back(s, uid, d, n, partner.id)
        if (partner.id in s.foot and s.foot[partner.id].at != was.at
                and hook(s, "moved_back_at_risk")):  # (ga.default.moved-back-with)
            self.at_risk(s, partner.id, "push_back")
        return s, status

    def move_back(self, s, uid: str, d, n: int, partner: str | None = None, retiring: bool = False):
        """Move ``uid`` (and a Warband supporting it, ``partner``) ``n``
        squares in direction ``d``: ``moved``, ``halted`` or ``gone``."""
        hook = self.hook
        self.changed.add(uid)
        if partner:
            self.changed.add(partner)
            self.events.append(f"{partner} (a supporting Warband) moves back with {uid}")
        status, gone_step = "moved", False
        for step in range(n):
            v = s.by_id[uid]
            f = s.footprint(v)
            movers = [uid] + ([partner] if partner and partner in s.foot else [])
            nexts = {m: s.foot[m].shifted(d) for m in movers}
            off = [m for m in movers if any(q not in s.board.cells for q in nexts[m].squares)]
            if off:
                for m in off:
                    w = s.by_id[m]
                    self.card(w.side, "disaster", f"{m} Pushed Back off the table",
                              hook(s, "off_table_disasters", w))
                    self.card(w.side, "setback", f"{m} Pushed Back off the table", hook(s, "off_table_setbacks", w))
                    s = self.remove(s, m, "is Pushed Back off the table")
                status = "gone" if uid in off else "halted"
                gone_step = True
                break
            if any(hook(s, "push_blocked_by", v, s.terrain.get(q)) for q in nexts[uid].squares):
                self.events.append(f"{uid} is stopped by impassable terrain")
                s, status = (s if retiring else self.halted(s, uid)), "halted"
                break
            mine = set(movers)
            others = sorted({s.occupant[q] for m in movers for q in nexts[m].squares
                             if q in s.occupant and s.occupant[q].id not in mine}, key=lambda w: w.id)
            if others:  # the contact the pack ranks first (ga.default.contact-first); a tie: the first by id
                o, c = max(((w, hook(s, "push_contact", v, w)) for w in others),
                           key=lambda wc: hook(s, "contact_rank", wc[1]))
                if c == "halt" and retiring:
                    self.events.append(f"{uid} is stopped by {o.id}")
                    status = "halted"
                    break
                if c == "halt":
                    self.events.append(f"{uid} contacts {o.id}")
                    s, status = self.halted(s, uid), "halted"
                    break
                left = n - step
                if c == "pass_through":
                    end = f.shifted(d, left)
                    if self.free(s, end.squares, mine):
                        self.events.append(f"{uid} passes through {o.id}")
                        s = self.shift(s, uid, end)
                        break
                    c = "make_way"
                # the contacted friend moves one square to make way; then both halt
                onf = s.foot[o.id].shifted(d)
                if (len(movers) == 1 and others == [o] and self.free(s, onf.squares, {o.id})
                        and not set(onf.squares) & set(nexts[uid].squares)):
                    self.changed.add(o.id)
                    self.events.append(f"{o.id} moves one square to make way for {uid}")
                    s = self.shift(self.shift(s, o.id, onf), uid, nexts[uid])
                    if hook(s, "make_way_halts"):
                        status = "halted"
                        break
                    continue
                self.events.append(f"{uid} is stopped by {o.id}, which cannot make way")
                status = "halted"
                break
            for m in movers:  # the rear unit first: the squares it enters are the front one's
                s = self.shift(s, m, nexts[m])
        if not gone_step and status == "moved":
            self.events.append(f"{uid} {'moves' if retiring else 'is Pushed Back'} {n} square{'s' if n != 1 else ''}")
        return s, status

    def halted(self, s, uid: str):
        """A unit Pushed Back that halts: the outcome the pack's
        ``halted_becomes`` gives it (a unit that cannot be Disordered halts)."""
        v = s.by_id[uid]
        becomes = self.hook(s, "halted_becomes", v)
        if becomes == "rout":
            self.events.append(f"{uid} halts, already Disordered: it Routs")
        elif not self.hook(s, "can_disorder", v):
            self.events.append(f"{uid} halts")
            return s
        else:
            self.events.append(f"{uid} halts and becomes Disordered")
        return self.take(s, uid, "halted", becomes, f"{uid} becomes Disordered")

    # -- discipline tests and their outcome
    def discipline(self, s, uid: str, cause: str):
        hook = self.hook
        v = s.by_id[uid]
        dice = self.die("discipline", uid)
        if dice is None:
            self.need(("discipline", uid), 2, f"{uid}'s Discipline Test",
                      f"{uid} must make a Discipline Test: give its 2D6 as `discipline: {{{uid}: [A, B]}}`")
            return s
        d1, d2 = dice
        test = self.eng.discipline_test(s, v, dr_plus=self.dr_plus.get(uid, 0))
        res = test.result(d1, d2)
        self.events.append(f"{uid} Discipline Test {d1}+{d2}: {res}")
        self.twelve(s, uid, d1, d2, res)
        if not hook(s, "consults_outcome", res):
            return s
        by = test.short(d1, d2) if res == "critical" else 0
        if res == "critical" and hook(s, "stampedes", v):
            return self.take(s, uid, "discipline", "stampede")
        o = self.failed_roll(s, v, "discipline", {"critical_by": by, "cause": cause,
                                                  "reserve": self.reserve and uid != self.item.get("unit")})
        return s if o is None else self.take(s, uid, "discipline", o)

    def failed_roll(self, s, v, test: str, given: dict):
        """The Failed ``test`` Outcome (discipline, reform) of unit ``v``: its
        2D6 (``outcome: {UNIT: [A, B]}``) read through the pack's roll
        ``failed_discipline`` or ``failed_reform`` (its other arguments
        ``given``); None, and the dice due, when they are not given."""
        uid, name = v.id, test.capitalize()
        out = self.die("outcome", uid)
        if out is None:
            self.need(("outcome", uid), 2, f"{uid}'s Failed {name} Outcome",
                      f"{uid} failed its {name} Test: give the Failed {name} Outcome 2D6 as "
                      f"`outcome: {{{uid}: [A, B]}}`")
            return None
        roll = "failed_" + test
        o = self.eng.roll(s, roll, {"unit": v, **given}, out)
        mod = self.eng.failed_modifier(s, {"unit": v, **given}, test == "reform")
        self.events.append(f"{uid} Failed {name} Outcome {out[0]}+{out[1]}{mod:+d}: {o}")
        return o

    def twelve(self, s, uid: str, d1: int, d2: int, res) -> None:
        """A natural 12 that passes a Discipline or Reform Test removes one unseen Setback Card."""
        v = s.by_id[uid]
        if self.hook(s, "twelve_removes", d1, d2, res) and self.seq.cards[v.side]["setback"] > 0:
            self.seq.cards[v.side]["setback"] -= 1
            self.events.append(f"{v.side} removes one unseen setback card (a natural 12)")

    def failed_reform(self, s, uid: str, short: int, res):
        """The Failed Reform Outcome (the test's result ``res``, its dice
        ``short`` of passing), then Risk to Generals."""
        v = s.by_id[uid]
        self.cause = "reform"
        if not self.hook(s, "consults_outcome", res):
            return s
        by = short if res == "critical" else 0
        o = self.failed_roll(s, v, "reform", {"critical_by": by})
        return s if o is None else self.generals(self.take(s, uid, "reform", o))

    # -- what an outcome changes: the pack's effects, each applied here
    def take(self, s, uid: str, test: str, o, why: str = ""):
        """Outcome ``o`` of unit ``uid``'s ``test`` (discipline, reform or
        halted): each of ``EFFECTS``, in order, as many times as the pack's
        ``outcome_effect(test, o, effect)`` says (0: not taken; setback: the
        cards, ``why`` their reason; retire: the squares). An outcome that
        removes the unit is a rout to Risk to Generals and Lost Eagles."""
        v = s.by_id[uid]
        self.changed.add(uid)
        back = AHEAD[about_face(s.foot[uid].facing)]  # (away from the enemy, as the unit faced)
        gone = bool(self.hook(s, "outcome_effect", test, o, "removed"))
        for e in EFFECTS:
            n = self.hook(s, "outcome_effect", test, o, e)
            if not n:
                continue
            if e == "at_risk":
                self.at_risk(s, uid, "rout" if gone else o)  # (else disordered, retiring: the General's event)
            elif e == "flees":
                self.flee(s, v, o)
            elif e == "loses_lines":
                lines = sorted(a for a in LINES if s.has(v, a))
                if lines:
                    self.events.append(f"{uid} loses its attached {', '.join(lines)}")
            elif e == "setback":
                self.card(v.side, "setback", why or f"{uid} {o}", n)
            elif e == "lost_eagles":
                s = self.eagles(s, uid, o, gone)
            elif e == "disorder" and self.hook(s, "can_disorder", v):
                s = s.moved(uid, disordered=True)
            elif e == "face_about":
                f = s.foot[uid].about_faced()
                self.events.append(f"{uid} faces away from the enemy")
                s = s.moved(uid, at=f.at, facing=f.facing)
            elif e == "retire":  # (a friend in the way is pushed back one square)
                s = self.move_back(s, uid, back, n, retiring=True)[0]
            elif e == "removed":
                self.card(v.side, self.hook(s, "rout_card", v), f"{uid} {o}")
                s = self.remove(s, uid, "is destroyed" if o == "destroyed" else "stampedes" if o == "stampede"
                                else "routs")
        return s

    def eagles(self, s, uid: str, o, routed: bool):
        """A Roman Legion Routing (``routed``) or Retiring after outcome ``o``:
        the Lost Eagles Test (2D6, ``eagles: {UNIT: [A, B]}``), if the pack's
        ``eagles_test`` asks it; an Eagle lost gives a Disaster Card,
        Centurion Casualties a Setback Card and +1 Discipline Rating for
        good; each at most once per battle for a Legion."""
        hook = self.hook
        v = s.by_id[uid]
        if not hook(s, "eagles_test", v, o):
            return s
        self.events.append(f"{uid} (a Roman Legion) makes a Lost Eagles Test")
        dice = self.die("eagles", uid)
        if dice is None:
            self.need(("eagles", uid), 2, f"{uid}'s Lost Eagles Test",
                      f"{uid} makes a Lost Eagles Test: give its 2D6 as `eagles: {{{uid}: [A, B]}}`")
            return s
        event = (("routed" if routed else "retiring")
                 + ("_from_combat" if self.cause == "combat" else "_not_from_combat"))
        r = self.eng.roll(s, "lost_eagles", {"event": event}, dice)
        seen = self.seq.eagles.setdefault(r, set())
        if r != "no_effect" and not hook(s, "eagle_counts", r, uid in seen):
            self.events.append(f"{uid}: {r}, but only once per battle: no effect")
            return s
        self.events.append(f"{uid} Lost Eagles Test ({event}) {dice[0]}+{dice[1]}: {r}")
        seen.add(uid)
        card = hook(s, "eagle_card", r)
        if card is not None:
            self.card(v.side, card, f"{uid} {r}")
        plus = hook(s, "casualty_dr", r)
        if plus:
            self.changed.add(uid)
            s = s.moved(uid, dr_plus=s.state(v).dr_plus + plus)
        return s

    def flee(self, s, v, o) -> None:
        """A routing (or stampeding) unit's move away from the enemy, its
        Rout die (``rout: {UNIT: N}``) the distance: the friends whose zone
        of control it enters (a stampede: any unit's) must test."""
        uid = v.id
        die = self.die("rout", uid)
        if die is None and self.seq.partial:  # (the game interface rolls it: its distance and who it tests)
            self.seq.due.append(Due(("rout", uid), 1, True, f"{uid}'s Rout die"))
        if die is not None:
            n = self.distance(s, v, die)
            f = s.foot[uid]
            back = AHEAD[about_face(f.facing)]
            path = frozenset(q for k in range(1, n + 1) for q in f.shifted(back, k).squares)
            who = sorted(w.id for w in s.all_units if w.id != uid and
                         (w in s.friends_of(v) or o == "stampede") and self.hook(s, "rout_tests", v, w, path))
            if who:
                self.events.append(f"{uid} routs {n} square{'s' if n != 1 else ''} through the zone of "
                                   f"control of {', '.join(who)}: each must make a Discipline Test")

    # -- follow up
    def follow_up(self, s, att_id: str, dfn_id: str):
        hook = self.hook
        a = s.by_id[att_id]
        foe = s.by_id[dfn_id]
        if hook(s, "no_follow_up", foe):
            self.events.append(f"{dfn_id} is a Rear-Guard: no follow up")
            return s
        stay = self.item.get("stay")
        if not hook(s, "must_follow", a) and stay is not None:
            d1, d2 = stay  # (the table has checked two faces)
            if self.eng.roll(s, "follow_up_decline", {"unit": a, "against": foe}, (d1, d2)) == "stays":
                self.events.append(f"{att_id} does not follow up ({d1}+{d2})")
                return s
            self.events.append(f"{att_id} must follow up ({d1}+{d2})")
        die = self.item.get("follow_up")
        if die is None:
            self.need(("follow_up",), 1, f"{att_id}'s Follow Up die", f"{att_id} follows up: give its 1D6 as `follow_up: N` "
                      "(or `stay: [A, B]` to roll against following up)")
            return s
        n = self.distance(s, a, die)
        went = 0
        aside = self.item.get("follow_oblique")
        for _ in range(n):
            a = s.by_id[att_id]
            f = s.foot[att_id]
            nf = f.shifted(AHEAD[f.facing])
            if any(q not in s.board.cells for q in nf.squares) and hook(s, "pursues_off_table", a):
                self.changed.add(att_id)
                self.events.append(f"{att_id} pursues off the table: temporarily removed (no card)")
                return s.moved(att_id, off_table=True)
            if hook(s, "follow_meets", a, s.by_id[dfn_id]):  # another enemy in front (ga.default.another-enemy):
                # infantry stays; cavalry may make an Oblique Advance for one Follow Up point
                if hook(s, "follow_stops", a) or aside is None:
                    break
                nf = f.stepped(f"oblique_{aside}")
                aside = None
                self.events.append(f"{att_id} makes an Oblique Advance")
            if not self.free(s, nf.squares, {att_id}) or any(hook(s, "push_blocked_by", a, s.terrain.get(q))
                                                             for q in nf.squares):
                break
            s = self.shift(s, att_id, nf)
            went += 1
        if went:
            self.changed.add(att_id)
        self.events.append(f"{att_id} follows up {went} square{'s' if went != 1 else ''}")
        return s
