"""The square-grid ancients engine: ``activations``, ``odds`` and ``check``.

The Python here builds what the rules judge (an activation record, the
steps of a move square by square, the command points spent) and rolls
every die there is to roll: each distribution is an exact enumeration of
the dice, every face read through the pack's tables and modifiers
(``rules/grid-ancients``). No table, modifier or legality rule lives here.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

from ...dsl.template import render
from ...errors import Location, WarcouncilError, closest
from ...solver.check import Violation
from ...kernel.engine import Engine
from ...kernel.game import frame_steps, out_of_turn
from ...kernel.evaluate import Compiler
from ...kernel import rolls
from ...kernel.rolls import FACES
from .facing import Footprint
from ...kernel.ground import Ctx, PieceView, Record
from ...world.ydoc import YDict, YList
from ...kernel.scenario import parse_yaml
from ...kernel.system import Answer, System
from ...textfile import read_text
from .aftermath import CARDS, Aftermath, Due
from .files import AFTERMATH_FIELDS, MANOEUVRES, OPTIONS, TEST_ENTRIES, TURN_ENTRY, faces
from .world import GridSetting, World
from .words import units_words

#: the re-roll of a failed Manoeuvre Test that spends a Movement Point; the pack's other
#: re-rolls (``values reroll``) are free, once per turn each, where its ``free_reroll(k, u, step)``
#: grants them, and its ``free_reroll_rank`` says which is used first
POINT_REROLL = "movement_point"
#: the re-rolls of a failed test that an ``odds`` test file may claim, by test: the flag that claims
#: one, and the pack's hook on the unit that grants it (None: a Command Point spent, always granted)
CLAIMED_REROLLS = {
    "manoeuvre": (("movement_point", None),),
    "discipline": (("brave", "brave_reroll"), ("defence_point", None)),
    "reform": (("heroic", "heroic_reroll"),),
}
#: the tests a step of a move may need: a Manoeuvre Test, a Discipline Test to enter a feared
#: zone; the pack says which is taken first (``step_test_rank``, ga.default.step-test-order)
STEP_TESTS = ("manoeuvre", "discipline")
#: the steps of an activation's procedure (``_Sequence``'s methods of those names) and the fields
#: of its entry each reads; the pack's frame (``turn ga.activation for activate``) orders them
ACTIVATION_STEPS = {
    "movement": ("roll",),
    "manoeuvres": ("steps", "with", "shot"),
    "attack": ("dice", "choose", "reserve", "devotio"),
    "defence": ("defence",),
    "aftermath": (*AFTERMATH_FIELDS, "follow_up", "stay", "follow_oblique", "devotio", "reserve"),
    "reform": ("test", *AFTERMATH_FIELDS),
    "attachments": ("devotio", "reserve", "cohort"),
}
TEST_LIMIT = 64 * 1024
#: the keys of a test file (``odds``) that name units, in the order its answer names them in words
ODDS_UNITS = ("unit", "attacker", "defender", "shooter", "target")
#: the keys of a test file whose value is a unit's id: a roll's parameter of that name is the unit
UNIT_KEYS = (*ODDS_UNITS, "against")


def free_rerolls(pack) -> tuple:
    """The free re-rolls of a failed Manoeuvre Test the pack names (``values reroll``)."""
    return tuple(k for k in pack.values.get("reroll", ()) if k != POINT_REROLL)


def _add(dist: dict, key, p: Fraction) -> None:
    if p:
        dist[key] = dist.get(key, Fraction(0)) + p


def _defended(dist: dict, r, k: int, p: Fraction) -> None:
    """Result ``r``, of probability ``p``, against ``k`` Defence dice: any
    one showing the chosen die's face cancels it."""
    cancel = 1 - Fraction(5, 6) ** k
    _add(dist, "cancelled", cancel * p)
    _add(dist, r, (1 - cancel) * p)


def _retried(dist: dict, rerolls: int) -> dict:
    """A test (its outcomes ``dist``) whose failure is re-rolled ``rerolls`` times (``rolls.retried``)."""
    return _sorted_dist(rolls.retried(dist, rerolls))


class GridEngine(Engine):
    """Answers ``activations``, ``odds`` and ``check`` for a grid-ancients
    scenario (``scenario.GridScenario``)."""

    #: the frames its procedure walks (``kernel.game.frame_steps``; lint checks the pack's against them)
    frames = {"activate": ACTIVATION_STEPS}

    def __init__(self, scenario, pack):  # (no kernel plan: the decision is judged through `activation`)
        self.compiler = Compiler(pack, System.for_pack(pack).builtin_meanings())  # (what _validate's hooks run)
        self._rules = None
        super().__init__(scenario, pack)
        self.frame = frame_steps(pack, "activate", ACTIVATION_STEPS, self.system.title)

    # ------------------------------------------------------------ validation
    def _validate(self) -> None:
        p = self.pack
        chars = set(p.values.get("characteristic", ()))
        attach = set(p.values.get("attachment", ()))
        for u in self.scenario.units:
            if u.type not in p.units:
                raise _unknown(f"unknown unit type {u.type!r} for {p.title or p.name}", u.type, p.units,
                               u.places.get("type", u.where), "known types: " + ", ".join(p.units))
            for key, names, known in (("characteristics", u.characteristics, chars), ("attachments", u.attachments, attach)):
                for n in names:
                    if n not in known:
                        raise _unknown(f"unit {u.id}: unknown {key[:-1]} {n!r}", n, known, u.places.get(key, u.where),
                                       "known: " + ", ".join(sorted(known)))
        for t in self.scenario.terrain:
            if t.type not in p.terrains:
                raise _unknown(f"unknown terrain {t.type!r}", t.type, p.terrains, t.where,
                               "known: " + ", ".join(p.terrains))
        for u in self.scenario.units:  # an attachment on a unit it may be attached to
            s = self.setting(u.side)
            for n in u.attachments:
                if not self.hook(s, "may_attach", s.by_id[u.id], n):
                    why = self.hook(s, "attach_refusal", s.by_id[u.id], n)  # (the pack's words, or none)
                    raise WarcouncilError(f"unit {u.id}: a {n} cannot be attached to it (a {u.type}"
                                          + (f", {why})" if why else ")"), u.places.get("attachments", u.where))

    # ------------------------------------------------------------ evaluation
    def setting(self, side: str | None = None, command=None) -> GridSetting:
        side = side or self.scenario.to_move
        if not isinstance(side, str) or side not in self.scenario.sides:
            raise _unknown(f"unknown side {side!r}", side, self.scenario.sides, None,
                           "sides: " + ", ".join(self.scenario.sides))
        s = self._settings.get(side)
        if s is None:
            s = self._settings[side] = GridSetting(self.pack, self.scenario, side)
        return s

    def context(self, setting: GridSetting) -> Ctx:
        """The kernel's ``Engine.context``: a ``Ctx`` over the grid's world
        (``World``) in ``setting``, no activation being judged (how the
        engine asks its pack: ``hook``, ``ordered``, ``roll``, ...)."""
        return Ctx(World(setting, self.compiler))

    def rules(self):
        if self._rules is None:
            self._rules = [(r, self.compiler.compile(self.compiler.fold(r.body)), *self.pack.source_of(r))
                           for r in self.pack.rules.values()]
        return self._rules

    def violations(self, setting: GridSetting, activation: Record) -> list[Violation]:
        ctx = Ctx(World(setting, self.compiler, activation))
        out = []
        unit = activation.unit
        pieces = [unit.id] if unit is not None else []
        for r, f, source, quote in self.rules():
            if f(ctx, {}):
                continue
            who = ", ".join(pieces) if pieces else (activation.what or "the sequence")
            msg = render(r.message, {"pieces": who}) if r.message else f"{who}: breaks {r.id}"
            out.append(Violation(r.id, list(pieces), msg, source, quote, self.pack.origin.get(r.id, "")))
        return out

    # ------------------------------------------------------------ records
    @staticmethod
    def record(unit=None, option=None, **kw) -> Record:
        base = dict(unit=unit, option=option, rolled=False, natural=None, attack_points=0, steps=(), target=None,
                    spends=(), cost=0, stopped=False, start=frozenset(), end=frozenset(), failed=False,
                    failed_before=False, front_after=False, result=None, test_result=None, after_reversal=False,
                    movement_rerolls=0, movement_points_spent=0, manoeuvre_points=0, given=0,
                    given_pools=frozenset(), get=None, largest_after=0, total_before=0, total_after=0,
                    cancelled_before=False, called_before=False, cancelled=False, verdict=None, what="",
                    follower=None, follower_fits=False, after_broken=False, returnable=False, returned=False,
                    shot_mid_move=False, shot_before=False, devotio=None, first_charge=False,
                    devotio_used_before=False, reserve=None)
        base.update(kw)
        return Record(**base)

    def step_record(self, s, u, cur, nxt, kind, tests=(), fear=None, index=0, count=1) -> Record:
        """One step of a move, from footprint ``cur`` to ``nxt``, as the rules
        see it: its Manoeuvre Test (the faces ``tests``, each a try) and its
        Discipline Test to enter a feared zone (``fear``, two faces) read
        through the pack's rolls ``manoeuvre`` and ``discipline``
        (``passed``, ``fear.passed``), as ``odds`` reads them."""
        before, after = frozenset(cur.squares), frozenset(nxt.squares)

        def rough_of(sqs):
            return any(self.hook(s, "rough_ground", s.terrain.get(q)) for q in sqs)

        occupied = frozenset(s.occupant[q] for q in after if q in s.occupant and s.occupant[q].id != u.id)
        was_rough = rough_of(before)
        rough = rough_of(after) or was_rough
        test = tests[-1] if tests else None  # (the last try: a re-roll is another try of the roll)
        return Record(free_unused=frozenset(), points_left=0,
                      kind=kind, squares=after, before=before, rough=rough,
                      was_rough=was_rough, occupied_by=occupied,
                      on_board=all(q in s.board.cells for q in after),
                      test=test, rerolls=max(0, len(tests) - 1),
                      passed=test is not None and self.roll(s, "manoeuvre", {"unit": u, "kind": kind, "rough": rough},
                                                            (test,)) == "pass",
                      fear=Record(first=fear[0], second=fear[1],
                                  passed=self.roll(s, "discipline", {"unit": u}, fear) == "pass") if fear else None,
                      last=index == count - 1, index=index)

    def first_steps(self, s, u) -> dict:
        """For a unit about to move: each manoeuvre as a single step from
        where it stands, legal or its violations, and the tests it needs."""
        out = {}
        f = s.footprint(u)
        if f is None:
            return out
        for kind in MANOEUVRES:
            nxt = f.stepped(kind)
            step = self.step_record(s, u, f, nxt, kind)
            cost = self.hook(s, "step_cost", u, kind)
            rec = self.record(u, "move", steps=(step,), cost=cost, start=frozenset(f.squares), end=frozenset(nxt.squares))
            vs = self.violations(s, rec)
            if vs:
                out[kind] = {"legal": False, "violations": [v.as_json() for v in vs]}
                continue
            needed = {"manoeuvre": lambda: self.hook(s, "needs_test", u, step),
                      "discipline": lambda: self.hook(s, "enters_fear", u, step) or self.hook(s, "enters_elephants", u, step)}
            tests = [k for k in self.ordered(s, "step_test_rank", STEP_TESTS) if needed[k]()]
            out[kind] = {"legal": True, "cost": cost, "tests": tests}
        return out

    # ------------------------------------------------------------ verbs
    def draw(self, side: str | None = None, **_) -> str:
        """The board (squares, terrain, units with their facings, zones of
        control, the legal activations of ``side``'s units) as SVG."""
        from .svg import grid_svg

        return grid_svg(self, side)

    def answer(self, verb: str, **options) -> Answer:
        if verb == "activations":
            return self.activations(options.get("side"))
        if verb == "odds":
            return self.odds_file(options["path"])
        if verb == "check":
            return self.check_file(options["path"])
        return super().answer(verb, **options)

    # ------------------------------------------------------------ activations
    def legal_activations(self, side: str | None = None, setting: GridSetting | None = None) -> dict:
        """For each unit of ``side`` on the table: each option's violations
        (an empty list: legal), judged before any dice are rolled (on
        ``setting``: the board as a sequence has left it; the scenario's)."""
        s = setting or self.setting(side)
        out = {}
        for v in sorted((v for v in s.views if v.side == s.side), key=lambda v: v.id):
            out[v.id] = {o: self.violations(s, self.record(v, o, start=s.squares(v), end=s.squares(v)))
                         for o in OPTIONS}
        return out

    def activations(self, side: str | None = None) -> Answer:
        s = self.setting(side)
        table = self.legal_activations(side)
        units = {}
        lines = [f"{s.side}: legal activations"]
        for uid, opts in table.items():
            units[uid] = {o: ({"legal": True} if not vs else {"legal": False, "violations": [v.as_json() for v in vs]})
                          for o, vs in opts.items()}
            legal = [o for o, vs in opts.items() if not vs]
            lines.append(f"  {units_words(s.by_id, [uid])}: {', '.join(legal) or 'none'}")
            if not opts["move"]:
                steps = self.first_steps(s, s.by_id[uid])
                units[uid]["move"]["steps"] = steps
                lines.append("      first steps: " + ", ".join(
                    k + (f" ({', '.join(v['tests'])} test)" if v["tests"] else "")
                    for k, v in steps.items() if v["legal"]))
            lines.extend(f"      not {o}: {self.cited(v)}" for o, vs in opts.items() for v in vs)
        return Answer({"side": s.side, "units": units}, "\n".join(lines))

    def cited(self, v: Violation) -> str:
        """A violation in a text answer's words: its message, its rule, and
        the document's sentence it breaks."""
        return f"{v.message} [{v.rule}] — {self.pack.document_name(v.source)}: \"{v.quote}\""

    # ------------------------------------------------------------ odds
    def odds_file(self, path: str) -> Answer:
        data = _read_yaml(path, "test file")
        dist, extra = self.odds(data, path)
        # (a Fraction's str is as the contract writes a probability: "n/d" in lowest terms, "0", "1")
        out = {"test": data.get("test"), "outcomes": {k: str(p) for k, p in dist.items()}}
        out.update(extra)
        text = "\n".join(f"  {k}: {p}" for k, p in dist.items())
        s = self.setting(data.get("side"))
        who = ", ".join(f"{key} {units_words(s.by_id, [data[key]])}" if key != "unit" else units_words(s.by_id, [data[key]])
                        for key in ODDS_UNITS if isinstance(data.get(key), str) and data[key] in s.by_id)
        return Answer(out, f"{data.get('test')}{' of ' + who if who else ''}:\n{text}")

    def odds(self, data, path: str = "") -> tuple[dict, dict]:
        """The exact distribution of the roll ``data`` names (``test:``):
        the pack's roll of that name (``declared``), or the engine's answer
        where a test is more than one roll (``_TESTS``)."""
        if not isinstance(data, dict):
            raise WarcouncilError("a test file is a mapping with `test:`", _where(data, None, path))
        test = data.get("test")
        if not isinstance(test, str) or test not in TEST_ENTRIES:
            hint = closest(str(test), TEST_ENTRIES)
            raise WarcouncilError(f"unknown test {test!r}", _where(data, "test", path),
                                  hint=(f"did you mean {hint[0]!r}? " if hint else "") + "tests: "
                                  + ", ".join(TEST_ENTRIES))
        TEST_ENTRIES[test].read(data, _where(data, None, path), f"the {test} test")
        side = data.get("side")
        if side is None:  # the side of the unit it names first
            sides = {u.id: u.side for u in self.scenario.units}
            side = next((sides[data[k]] for k in ("unit", "attacker", "shooter")
                         if isinstance(data.get(k), str) and data[k] in sides), None)
        s = self.setting(side)
        if test in _TESTS:
            return _TESTS[test](self, s, data, path)
        law, args = self.declared(s, data, path)
        return law, _EXTRAS[test](self, s, args) if test in _EXTRAS else {}

    def declared(self, s, data, path) -> tuple[dict, dict]:
        """A test whose law is the pack's roll of its name (``roll``), its
        parameters the test file's values of their names (a unit's id: the
        unit); the law and the roll's arguments."""
        given = {k: _named(s.by_id, data, k, path) if k in UNIT_KEYS else v for k, v in data.items()}
        r, ctx, args = self.roll_of(s, data["test"], given)
        return _sorted_dist(r.law(ctx, args)), args

    def movement_points(self, s, u, option, n, ap=0, reroll=False):
        """What unit ``u``'s movement die ``n`` gives a Movement or Charge
        Activation (``option``; ``ap``: Attack Points spent on a charge, a
        Movement Activation's buy it nothing): ``failed``, or its Movement
        Points, as the pack's roll ``movement`` gives them on one try; with
        ``reroll``: None when a Movement Point may re-roll it (the roll with
        a re-roll is not decided by that die)."""
        given = {"unit": u, "charge": option == "charge", "attack_points": ap if option == "charge" else 0}
        if reroll:
            return self.decided(s, "movement", {**given, "reroll": True}, (n,))[1]
        return self.roll(s, "movement", given, (n,))

    def _manoeuvre(self, s, data, path):
        u = _named(s.by_id, data, "unit", path)
        kind = data.get("manoeuvre", "forward")  # (a sheet's name read as is)
        rough = data.get("rough")
        if rough is None:
            rough = bool(self.hook(s, "in_rough", u))
        if self.hook(s, "free_manoeuvre", u, kind):
            return {"pass": Fraction(1)}, {"free": True}
        m = self.hook(s, "manoeuvre_modifier", u, kind, rough)
        rerolls = (sum(1 for k in free_rerolls(self.pack) if self.hook(s, "free_reroll", k, u, Record(rough=rough)))
                   + self._rerolls(s, u, data))
        law = self.roll(s, "manoeuvre", {"unit": u, "kind": kind, "rough": rough})
        return _retried(law, rerolls), {"modifier": m, "rerolls": rerolls}

    def discipline_test(self, s, u, reform=False, modifier=0, dr_plus=0) -> Record:
        """Unit ``u``'s Discipline Test (``reform``: its Reform Test), which
        ``odds`` and ``check`` both read: the pack's roll ``discipline`` (or
        ``reform``) with ``modifier`` (and ``dr_plus``, an enemy's Devotio's
        on the Discipline Rating): its ``law``, the ``result`` of two dice,
        its ``bonus`` (the pack's, and ``modifier``) and how far two dice
        fall short (``short``: what a Critical Failure fails by)."""
        name, given = ("reform" if reform else "discipline"), {"unit": u, "modifier": modifier, "dr_plus": dr_plus}
        bonus = self.hook(s, "reform_bonus" if reform else "discipline_bonus", u) + modifier
        dr = u.get_attr("discipline") + dr_plus
        return Record(bonus=bonus, law=lambda: self.roll(s, name, given),
                      result=lambda d1, d2: self.roll(s, name, given, (d1, d2)),
                      short=lambda d1, d2: dr - (d1 + d2 + bonus))

    def _discipline(self, s, data, path):
        """A Discipline Test (``test: reform``: a Reform Test), its failure
        re-rolled as the file claims (``_rerolls``); a Discipline Test's
        chance that its first roll removes a Setback Card too."""
        u = _named(s.by_id, data, "unit", path)
        reform = data["test"] == "reform"
        test = self.discipline_test(s, u, reform, data.get("modifier", 0))
        extra = {"modifier": test.bonus}
        if not reform:
            extra["removes_setback"] = str(sum(Fraction(1, 36) for d1, d2 in itertools.product(FACES, repeat=2)
                                               if self.hook(s, "twelve_removes", d1, d2, test.result(d1, d2))))
        return _retried(test.law(), self._rerolls(s, u, data)), extra

    def _rerolls(self, s, u, data) -> int:
        """The re-rolls of a failed test that a test file claims
        (``CLAIMED_REROLLS``), each granted when the pack's hook says the
        unit has it (or always: a point spent)."""
        return sum(1 for flag, hook in CLAIMED_REROLLS[data["test"]]
                   if data.get(flag, False) and (hook is None or self.hook(s, hook, u)))

    def combat_ratings(self, s, att, dfn, charge, reserve=False, devotio=False):
        """The attacker's and the defender's modified Combat Ratings;
        ``charge`` is the number of squares charged (0: a Combat
        Activation), ``reserve``/``devotio`` whether the attacker uses its
        reserve's or its Devotio's bonus."""
        charge = int(charge)
        a = (self.hook(s, "combat_rating", att, dfn, True, charge) + self.hook(s, "reserve_bonus", att, reserve)
             + self.hook(s, "devotio_bonus", att, devotio, charge))
        return a, self.hook(s, "combat_rating", dfn, att, False, 0)

    def rank(self, s, result, face, attacker_chooses, prefer="preference") -> tuple:
        """How the chooser ranks a die showing ``face`` for ``result``: the
        best result for it first (attacker: the pack's ``prefer`` highest;
        defender: lowest), then the highest face."""
        pref = self.hook(s, prefer, result)
        return (pref if attacker_chooses else -pref, face)

    def attack_law(self, s, option, uv, tv, charged=0, reserve=False, devotio=False) -> Record:
        """The law of ``uv``'s combat or shot (``option`` shoot) at ``tv`` on
        ``s``, which ``odds`` and ``check`` both read: the two ratings (a
        combat's ``combat_ratings``) and the attack dice they give (``a``,
        ``d``, ``n``); each face's ``result`` (a shot's after its
        ``penalty``) and the face a Defence die must show to ``cancel`` it (the pack's
        ``cancelling_face``: off the die, none can); who chooses among the
        dice (``chooser``: the attacker, or the shooter) and by which
        preference (``prefer``); the Defence dice against a result
        (``defence``)."""
        hook = self.hook
        if option == "shoot":
            a, d = hook(s, "shooter_cr", uv), hook(s, "target_cr", tv, uv)
            n = hook(s, "shooting_dice", a, d)
            pen = hook(s, "shooting_penalty", a, d)
            result = {f: hook(s, "shooting_result", f - pen, uv, tv) for f in FACES}
            k = hook(s, "shooting_defence_dice", tv)
            return Record(a=a, d=d, n=n, penalty=pen, result=result, chooser=True, prefer="shooting_preference",
                          cancel={f: hook(s, "cancelling_face", result[f], f) for f in FACES}, defence=lambda r: k)
        a, d = self.combat_ratings(s, uv, tv, charged, reserve, devotio)
        return Record(a=a, d=d, n=hook(s, "combat_dice", a, d), penalty=0,
                      result={f: hook(s, "combat_result", f, uv, tv) for f in FACES},
                      chooser=bool(hook(s, "attacker_chooses", a, d)), prefer="preference",
                      cancel={f: f for f in FACES}, defence=lambda r: hook(s, "defence_dice", tv, r))

    def choose(self, s, law, dice):
        """The die the chooser picks among ``dice`` (``rank``): its result and its face."""
        return max(((law.result[f], f) for f in dice), key=lambda rf: self.rank(s, *rf, law.chooser, law.prefer))

    def _attack(self, s, data, path, option):
        """A combat's or a shot's result, the chooser's pick among its dice
        (a face is picked with the chance that it is the best shown: every
        die shows it or a face ranked lower, not all lower), then the
        Defence dice against it (``_defended``)."""
        uv, tv = (_named(s.by_id, data, k, path)
                  for k in (("shooter", "target") if option == "shoot" else ("attacker", "defender")))
        law = self.attack_law(s, option, uv, tv, data.get("squares", 1 if data.get("charge", False) else 0),
                              data.get("reserve", False), data.get("devotio", False))
        extra = data.get("defence_points", 0)
        order = sorted(FACES, key=lambda f: self.rank(s, law.result[f], f, law.chooser, law.prefer))
        dist: dict = {}
        for i, f in enumerate(order):
            r = law.result[f]
            _defended(dist, r, law.defence(r) + extra if 1 <= law.cancel[f] <= 6 else 0,
                      Fraction((i + 1) ** law.n - i ** law.n, 6 ** law.n))
        if option == "shoot":
            return _sorted_dist(dist), {"shooter_rating": law.a, "target_rating": law.d, "dice": law.n,
                                        "penalty": law.penalty,  # (a shot's Defence dice are as many whatever its result)
                                        "defence_dice": law.defence(None) + extra}
        return _sorted_dist(dist), {"attacker_rating": law.a, "defender_rating": law.d, "dice": law.n,
                                    "chooser": "attacker" if law.chooser or law.n == 1 else "defender"}

    def failed_modifier(self, s, given, reform: bool) -> int:
        """The modifier of a Failed Discipline (``reform``: Reform) Outcome
        roll, ``given`` the arguments of the pack's roll (``failed_discipline``,
        ``failed_reform``; its defaults for the others): the pack's
        ``failed_modifier`` or ``reform_failed_modifier``, which the roll adds too."""
        args = self.roll_of(s, "failed_reform" if reform else "failed_discipline", given)[2]
        if reform:
            return self.hook(s, "reform_failed_modifier", args["unit"], args["critical_by"])
        return self.hook(s, "failed_modifier", args["unit"], args["critical_by"], args["cause"], args["reserve"])

    def _command_point_losses(self, s, data, path):
        """One die per Command Point (``points``), each lost as the pack's
        roll ``command_point_losses`` says (true): how many are lost."""
        p = self.roll(s, "command_point_losses", data).get(True, Fraction(0))
        n = data.get("points")
        dist = {str(k): comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}
        return _sorted_dist(dist), {"per_point": str(p)}

    def _push_back(self, s, data, path):
        """The pack's roll ``push_back``; a pushable Stubborn unit
        (``stubborn_unit``) first rolls its Stubborn die, the roll
        ``stubborn``, as ``check`` does (unless the test file says
        ``stubborn: false``): what it holds on ``stays``; a unit the pack's
        ``pushable`` refuses is said so (``pushable: false``)."""
        law, args = self.declared(s, {**data, "stubborn": False}, path)
        u = args["unit"]
        pushable = self.hook(s, "pushable", u)
        if data.get("stubborn", True) and pushable and self.hook(s, "stubborn_unit", u):
            hold = self.roll(s, "stubborn", {}).get("stays", Fraction(0))
            law = {k: p * (1 - hold) for k, p in law.items()}
            _add(law, "stays", hold)
        return _sorted_dist(law), {} if pushable else {"pushable": False}

    def _homunculus(self, s, data, path):
        side = self.setting(data.get("side")).side
        verdict, bp = self.homunculus_verdict(s, side, data.get("points"))
        return {verdict: Fraction(1)}, {"side": side, "break_point": bp}

    def homunculus_verdict(self, s, side: str, points: int) -> tuple:
        """A “Homunculus Est!” on ``side``'s army, its revealed cards worth
        ``points``: the pack's verdict against its Break Point, and that."""
        info = self.scenario.sides[side]
        if info.break_point is None:
            raise WarcouncilError(f"side {side!r} has no break_point in the scenario", info.where)
        return self.hook(s, "homunculus_verdict", points, info.break_point), info.break_point

    # ------------------------------------------------------------ check
    def check_file(self, path: str) -> Answer:
        data = _read_yaml(path, "turn file")
        verdict, log = self.check(data, path)
        vs = [v.as_json() for v in verdict]
        out = {"legal": not verdict, "violations": vs, "activations": log}
        by_id = self.setting(data.get("side")).by_id  # (the units named in words where the scenario puts them)
        if verdict:
            text = "illegal:\n" + "\n".join(
                f"  {units_words(by_id, v.pieces) + ': ' if v.pieces else ''}{self.cited(v)}" for v in verdict)
        else:
            text = f"legal: {len(log)} entries"
        for e in log:  # what the dice moved, and what is left for want of a die
            who = units_words(by_id, [e["unit"]]) if "unit" in e else e["entry"]
            head = f"  {who} {e['entry']}" + (f": {e['result']}" if "result" in e else "")
            for line in e.get("events", ()):
                text += f"\n{head}: {line}"
            for line in e.get("unresolved", ()):
                text += f"\n{head}: unresolved: {line}"
        return Answer(out, text, 1 if verdict else 0)

    def check(self, data, path: str = "") -> tuple[list[Violation], list[dict]]:
        """Every violation of a sequence of activations (a turn file's data),
        and what each entry came to."""
        seq = self.sequence(data, path, partial=False)
        return seq.out, seq.log

    def sequence(self, data, path: str = "", partial: bool = True, choices: bool = False):
        """A turn file's data checked as ``check`` does, the ``_Sequence``
        after it: its violations (``out``), the board it leaves (``s``), the
        pools, and ``due``, the rolls its last entry still needs in the
        procedure's order (``Due``), and ``stopped_at``, the step at which
        its move stopped. ``partial``: a sequence still being played (the
        game interface), where a Movement or Charge Activation whose
        movement die is not rolled yet is judged as ``activations`` judges
        it, before any dice, its first ``Due`` that die. ``choices``: the
        chooser's pick among attack dice that give more than one result is
        due too (a decision), before the Defence dice."""
        TURN_ENTRY.read(data, _where(data, None, path))
        seq = _Sequence(self, data.get("side"), path, partial, choices)
        seq.run(data["activations"])
        return seq


# ------------------------------------------------------------------ a sequence being checked

class _Activation:
    """One activation as the steps of its frame make it: the entry, the
    unit, and what each step leaves the next (the board as they have left
    it, the move, the result, what the log shows)."""

    def __init__(self, item, where, unit, board) -> None:
        self.item, self.where, self.u, self.option = item, where, unit, item["option"]
        self.board = self.base = board  # the board now; the one the move's steps were made on
        f = board.footprint(unit)
        self.start = self.end = frozenset(f.squares) if f is not None else frozenset()
        self.spends, self.rolls, self.natural, self.target, self.aftermath = (), (), None, None, None
        self.points = None  # what the movement roll gives (``GridEngine.movement_points``)
        self.failed = self.stopped = self.front_after = False
        self.steps, self.cost, self.charged, self.follower, self.follower_fits = [], 0, 0, None, True
        self.shot_info = self.shot_result = self.shot_aftermath = None
        self.shot_at = 0
        self.result = self.face = self.test_result = self.law = None  # (``law``: its attack's, ``attack_law``)
        self.more: dict = {}

    @property
    def ap(self) -> int:
        return sum(p.points for p in self.spends if p.use == "charge_bonus")


def entry_kind(entry) -> str:
    """The kind of action (the game interface's, the pack's ``turn``'s) of
    a turn file's entry."""
    return next((k for k in ("bring_back", "exchange", "reallocate", "homunculus_est") if k in entry), "activate")


class _Sequence:
    def __init__(self, eng: GridEngine, side, path, partial: bool, choices: bool):
        self.eng = eng
        self.path = path
        self.partial = partial  # a sequence still being played: an entry's first die may be still to roll
        self.choices = choices  # the chooser's pick among the attack dice is asked for (``sequence``)
        self.due: list[Due] = []  # the rolls the last entry still needs (in the procedure's order)
        self.stopped_at = None  # the step at which the last entry's move stopped (a failed test)
        self.s = eng.setting(side)
        self.side = self.s.side
        self.pools = {k: dict(v.command_points) for k, v in eng.scenario.sides.items()}
        self.reversal = False
        self.last_failed: dict[str, bool] = {}
        self.free_used: dict[str, set] = {}  # a unit's once-per-turn re-rolls already used
        self.called = False
        self.broken = False  # an army broke: the battle is lost
        self.cancelled = {k: v.homunculus_cancelled for k, v in eng.scenario.sides.items()}
        self.cards = {k: {c: 0 for c in CARDS} for k in eng.scenario.sides}  # collected along the sequence
        self.shot_mid_move: set[str] = set()  # units that shot during a move this turn
        self.charged: set[str] = set()  # units that have charged
        self.devotio_used: set[str] = set()  # sides that have used their Devotio
        self.eagles: dict = {}  # Lost Eagles results already suffered, by result: the Legions
        self.procedures = {name: getattr(self, name) for name in ACTIVATION_STEPS}
        self.out: list[Violation] = []
        self.log: list[dict] = []

    def run(self, seq):
        entries = {"activate": self.activation, "exchange": self.exchange, "reallocate": self.reallocate,
                   "bring_back": self.bring_back, "homunculus_est": self.homunculus}
        for i, item in enumerate(seq):
            where = seq.item_where[i] if isinstance(seq, YList) else Location(self.path)
            self.due, self.stopped_at = [], None
            entries[entry_kind(item)](item, where)
        self.in_turn(seq)

    def in_turn(self, seq) -> None:
        """The entries in the order of the pack's ``turn`` (``ga.turn``): the
        first the turn does not take where it comes breaks it."""
        pack = self.eng.pack
        bad = None if pack.turn is None else out_of_turn(pack.turn, [entry_kind(item) for item in seq])
        if bad is None:
            return
        n, why = bad
        who = seq[n].get("unit", seq[n].get("bring_back"))
        source, quote = pack.source_of(pack.turn)
        self.out.append(Violation(pack.turn.id, [who] if isinstance(who, str) else [],
                                  f"entry {n + 1}, {entry_kind(seq[n]).replace('_', ' ')}: {why}", source, quote,
                                  pack.origin.get(pack.turn.id, "")))

    # -- spending
    def spends(self, item, where, side):
        raw = item.get("spend", [])
        out = []
        for j, sp in enumerate(raw):
            loc = raw.item_where[j] if isinstance(raw, YList) else where
            use = _pick(sp, "use", self.eng.pack.values.get("use", ()), loc)  # (the pack's words)
            out.append(self.pay(side, sp["pool"], use, sp.get("points", 1), sp.get("as")))
        return tuple(out)

    def pay(self, side, pool, use, pts, conv=None):
        available = self.pools[side][pool]
        self.pools[side][pool] = max(0, available - pts)
        return Record(pool=pool, use=use, points=pts, available=available, **{"as": conv})

    def judge(self, setting, rec, parts=None):
        """The violations of entry ``rec`` on ``setting``; with ``parts``
        (``(setting, steps)`` pairs: a move split by a shot during it) the
        entry is judged once per part, with only that part's steps, on that
        part's board: a rule is broken when it is broken on any part (a rule
        over every step holds when it holds for each part's steps)."""
        rec.__dict__["after_broken"] = self.broken
        rec.__dict__.setdefault("finished", True)  # (judged whole: see ``movement`` for one that is not)
        if parts is None:
            vs = self.eng.violations(setting, rec)
        else:
            found: dict = {}
            for board, steps in parts:
                for v in self.eng.violations(board, Record(**{**rec.__dict__, "steps": tuple(steps)})):
                    found.setdefault(v.rule, v)
            order = {r.id: i for i, (r, *_) in enumerate(self.eng.rules())}
            vs = sorted(found.values(), key=lambda v: order[v.rule])
        self.out.extend(vs)
        return vs

    def entry_log(self, rec, vs, **more) -> None:
        """Entry ``rec`` logged, with its violations ``vs`` and ``more``; a
        Reversal of Fortune (the pack's ``reversal``) marks the sequence."""
        d = {"index": len(self.log), "entry": rec.option, "legal": not vs}
        if rec.unit is not None:
            d["unit"] = rec.unit.id
        d.update({k: v for k, v in more.items() if v is not None})
        d["reversal"] = bool(self.eng.hook(self.s, "reversal", rec))
        self.reversal = self.reversal or d["reversal"]
        self.log.append(d)

    # -- a unit's activation: the steps of the pack's frame (``turn ga.activation for activate``)
    def activation(self, item, where):
        """A unit's activation: its unit, option, spending and target read,
        then the steps of the pack's frame of an activation in its order
        (``ACTIVATION_STEPS``, each a method below reading and leaving
        ``_Activation``), then the activation judged and logged."""
        eng, s, path = self.eng, self.s, self.path
        uid = item["unit"]
        u = _named(s.by_id, item, "unit", path)
        if u.side != self.side:
            raise WarcouncilError(f"unit {uid} is not of the side activating ({self.side})", _where(item, "unit", path))
        eng.frame.check_read(item, ACTIVATION_STEPS, lambda k: _where(item, k, path), "activation")
        a = _Activation(item, where, u, s)
        a.spends = self.spends(item, where, self.side)
        a.rolls = faces(item["roll"]) if "roll" in item else ()
        a.natural = a.rolls[-1] if a.rolls else None
        if "target" in item:
            a.target = s.by_id.get(item["target"])
            if a.target is None:
                raise WarcouncilError(f"unknown unit {item['target']!r}", _where(item, "target", path))
        a.aftermath = Aftermath(self, item)
        # (what the record reads of the sequence so far, before this activation changes it)
        a.failed_before = a.option in ("move", "charge") and self.last_failed.get(u.id, False)
        a.shot_before, a.first_charge = u.id in self.shot_mid_move, u.id not in self.charged
        a.devotio_used_before = self.side in self.devotio_used
        if eng.frame.walk(self.procedures, a) is not None:
            return
        rec = self.activation_record(a)
        more = a.more
        if a.shot_info is not None:  # each step on the board it was made on: before the shot, and after it
            vs = self.judge(s, rec, parts=((s, a.steps[:a.shot_at]), (a.base, a.steps[a.shot_at:])))
        else:
            vs = self.judge(a.base, rec)
        self.aftermath_log(more, a.aftermath, a.board, s)
        if eng.hook(s, "fights_again", rec):
            more["fights_again"] = True
        if a.option in ("move", "charge") and a.natural is not None:
            self.last_failed[u.id] = a.failed
            more["movement_points"] = a.points
        if "shot" in item:
            self.shot_mid_move.add(u.id)
        if a.option == "charge":
            self.charged.add(u.id)
        self.entry_log(rec, vs, **more)
        self.s = a.board

    def activation_record(self, a) -> Record:
        """The activation as the rules judge it, as far as its steps have made it."""
        spends = a.spends
        return self.eng.record(
            a.u, a.option, rolled=True, natural=a.natural, attack_points=a.ap, steps=tuple(a.steps), target=a.target,
            spends=spends, cost=a.cost, stopped=a.stopped, start=a.start, end=a.end, failed=a.failed,
            failed_before=a.failed_before, front_after=a.front_after, result=a.result, test_result=a.test_result,
            after_reversal=self.reversal, movement_rerolls=max(0, len(a.rolls) - 1),
            movement_points_spent=sum(1 for p in spends if p.use == "reroll_movement"),
            manoeuvre_points=sum(1 for p in spends if p.use == "reroll_manoeuvre"), what=a.u.id,
            follower=a.follower, follower_fits=a.follower_fits, shot_mid_move="shot" in a.item,
            shot_before=a.shot_before, devotio=a.item.get("devotio"), first_charge=a.first_charge,
            devotio_used_before=a.devotio_used_before, reserve=a.item.get("reserve"))

    def movement(self, a) -> bool:
        """The movement die of a Movement or Charge Activation (``roll``): a
        failed roll fails the activation. Still to roll in a sequence being
        played: the activation is judged as ``activations`` judges it, before
        any dice, and goes no further. The die (the last rolled: a re-roll
        is another try) is read through the pack's roll ``movement``; with
        ``choices``, one that roll lets a Movement Point re-roll (its
        ``reroll`` not decided by the die) asks whether it is; a re-roll paid
        for asks for its die."""
        if a.option not in ("move", "charge"):
            return False
        eng, s, u = self.eng, self.s, a.u
        if a.natural is None and self.partial:
            self.due.append(Due(("roll",), 1, True, f"{u.id}'s Movement die"))
            rec = eng.record(u, a.option, target=a.target, spends=a.spends, start=s.squares(u), end=s.squares(u),
                             after_reversal=self.reversal, what=u.id, finished=False)
            self.judge(s, rec)  # before any dice, as `activations` judges it
            return True
        if a.natural is None:
            raise WarcouncilError(f"a {a.option} activation needs its movement die: `roll: N`", a.where)
        a.points = eng.movement_points(s, u, a.option, a.natural, a.ap)
        a.failed = a.points == "failed"
        if len(a.rolls) == 1 and self.partial and isinstance(a.item["roll"], list) \
                and any(p.use == "reroll_movement" for p in a.spends):  # (a re-roll paid for, its die to roll)
            self.due.append(Due(("roll",), 1, False, f"{u.id}'s Movement die, re-rolled"))
        elif len(a.rolls) == 1 and self.choices and not a.item.get("steps") and eng.movement_points(
                s, u, a.option, a.natural, a.ap, reroll=True) is None:
            self.due.append(Due(("roll",), 0, False, f"{u.id}'s movement roll", self.side, (
                {"kind": "reroll", "pool": "movement", "text": f"{u.id} re-rolls its movement die, spending a "
                                                               "movement point"},
                {"kind": "reroll", "pool": "generalship", "as": "movement",
                 "text": f"{u.id} re-rolls its movement die, spending a generalship point as a movement point"},
                {"kind": "keep", "text": f"{u.id} keeps its movement roll"})))
        return False

    def manoeuvres(self, a) -> bool:
        """The move, square by square (``steps``), each step with its
        Manoeuvre Test or Discipline Test (taken in the pack's order,
        re-rolled while a re-roll is left), a shot during it (``shot``), the
        unit moving ``with`` it; a failed test stops the move."""
        eng, s, path, u, item = self.eng, self.s, self.path, a.u, a.item
        uid = u.id
        if "with" in item:
            a.follower = s.by_id.get(item["with"])
            if a.follower is None or a.follower.side != self.side:
                raise WarcouncilError(f"`with` names no unit of {self.side}: {item['with']!r}", _where(item, "with", path))
        follower = a.follower
        f = a.board.footprint(u)
        steps, made, cost, stopped = a.steps, [], 0, False
        points_left = sum(1 for p in a.spends if p.use == "reroll_manoeuvre")
        raw_steps = item.get("steps", []) if f is not None else []  # (off the table: no steps)
        if raw_steps and a.option not in ("move", "charge"):
            raise WarcouncilError(f"a {a.option} activation has no steps", _where(item, "steps", path))
        cur = f
        base = a.board  # the board the steps are made on (a shot during the move may change it)
        shot = item.get("shot")
        for j in range(len(raw_steps) + 1):
            if shot is not None and j == shot["after"] and cur is not None and a.shot_info is None:
                base, a.shot_info, a.shot_result, a.shot_aftermath = self.mid_move_shot(base, u, cur, shot)
                a.shot_at = len(steps)
                if a.shot_result is not None and eng.hook(base, "shot_stops_move", a.shot_result):
                    stopped = True
                    break
            if j == len(raw_steps):
                break
            st = raw_steps[j]
            if isinstance(st, str):
                st = {"do": st}
            kind = st["do"]
            tests = faces(st["test"]) if "test" in st else ()
            fear = faces(st["fear"]) if "fear" in st else None
            nxt = cur.stepped(kind)
            rec = eng.step_record(base, u, cur, nxt, kind, tests, fear, j, len(raw_steps))
            # the free re-rolls this unit has left this turn, then the Movement Points spent for them
            used, free = self.free_used.setdefault(u.id, set()), free_rerolls(eng.pack)
            rec.__dict__.update(free_unused=frozenset(free) - used, points_left=points_left)
            need = rec.rerolls
            # the re-rolls of a failed test in the pack's order (ga.default.reroll-order: Drilled, Skirmisher, a point)
            for k in eng.ordered(s, "free_reroll_rank", (*free, POINT_REROLL)):
                if k == POINT_REROLL:
                    spent = min(need, points_left)
                    points_left, need = points_left - spent, need - spent
                elif need and k not in used and eng.hook(s, "free_reroll", k, u, rec):
                    used.add(k)
                    need -= 1
            steps.append(rec)
            cost += eng.hook(s, "step_cost", u, kind)
            flunked = {"manoeuvre": rec.test is not None and not eng.hook(s, "step_passed", u, rec),
                       "discipline": rec.fear is not None and not eng.hook(s, "fear_passed", u, rec)}
            ok = not any(flunked.values())
            if not stopped:  # the test this step still needs: the first due in the pack's order, none after a failed one
                due = len(self.due)
                for k in eng.ordered(s, "step_test_rank", STEP_TESTS):
                    if k == "manoeuvre" and eng.hook(s, "needs_test", u, rec) and (rec.test is None or (
                            flunked[k] and self.reroll_left(s, u, rec, used, points_left))):
                        self.due.append(Due(("steps", j, "test"), 1, False, f"{uid}'s Manoeuvre Test ({kind})"))
                    elif (k == "discipline" and rec.fear is None
                          and (eng.hook(s, "enters_fear", u, rec) or eng.hook(s, "enters_elephants", u, rec))):
                        self.due.append(Due(("steps", j, "fear"), 2, False,
                                            f"{uid}'s Discipline Test to enter a feared zone"))
                    if len(self.due) > due or flunked[k]:
                        break
                if not ok and len(self.due) == due:
                    self.stopped_at = j
            if ok:
                cur = nxt
                made.append(rec)
            else:
                stopped = True
        a.cost, a.stopped, a.base = cost, stopped, base
        board = base.moved(u.id, at=cur.at, facing=cur.facing) if cur is not f else base
        a.end = frozenset(cur.squares) if cur is not None else frozenset()
        if any(eng.hook(s, "phalanx_disorders", u, st) for st in made):
            board = board.moved(u.id, disordered=True)
        a.follower_fits = cur is f  # (no step made: it stays where it is)
        if follower is not None and cur is not None and cur is not f:
            behind = cur.moved(0, -cur.depth)
            others = {q for q, v in s.occupant.items() if v is not u and v is not follower}
            a.follower_fits = all(q in s.board.cells and q not in others for q in behind.squares)
            if a.follower_fits:
                board = board.moved(follower.id, at=behind.at, facing=behind.facing)
        a.front_after = bool(eng.hook(board, "enemy_in_front", board.by_id[u.id]))
        a.charged = max(1, len(made)) if a.option == "charge" else 0
        a.board = board
        return False

    def attack(self, a) -> bool:
        """A Combat, Charge or Shooting Activation's attack dice (``dice``)
        and the result they give, the chooser's pick (``choose``) or the
        pack's; a failed Charge, or one that did not reach its target, rolls
        none."""
        option, target, board = a.option, a.target, a.board
        if option not in ("combat", "charge", "shoot"):
            return False
        u_after = board.by_id[a.u.id]
        if "dice" in a.item:
            if target is None:
                raise WarcouncilError(f"a {option} with dice needs its `target`", a.where)
            t_after = board.by_id[target.id]
            a.law = self._law(board, option, u_after, t_after, a.item, a.charged)
            a.result, a.face = self._rolled(option, a.law, u_after, t_after, a.item)
            a.more.update(ratings=[a.law.a, a.law.d], result=a.result)
            if self.choices and "choose" not in a.item:
                self.pick(a)
        elif (target is not None and target.id in board.foot
              and (option != "charge" or (not a.failed and self.reached(board, u_after, target)))):
            n = self._law(board, option, u_after, board.by_id[target.id], a.item, a.charged).n
            self.due.append(Due(("dice",), n, False, f"{a.u.id}'s {'Shooting' if option == 'shoot' else 'Combat'} dice"))
        return False

    def pick(self, a) -> None:
        """The chooser's pick among the attack dice, due when they give more
        than one result: the shooter picks a shot's, the side the pack's
        ``attacker_chooses`` names a combat's (``attack_law``); each result
        once, by its highest face."""
        results: dict = {}
        for f in sorted(set(faces(a.item["dice"])), reverse=True):
            results.setdefault(a.law.result[f], f)
        if len(results) < 2:
            return
        side = self.side if a.law.chooser else a.target.side
        options = tuple({"kind": "choose", "face": f, "text": f"{side} picks the {f}: {r.replace('_', ' ')}"}
                        for r, f in results.items())  # (by their faces, highest first)
        self.due.append(Due(("choose",), 0, True, f"{side}'s pick among the dice", side, options))

    def defence(self, a) -> bool:
        """The Defence dice against the chosen result (``defence``): one
        showing the chosen die's face cancels it."""
        if a.face is None:
            return False
        item, target = a.item, a.target
        if "defence" in item:
            if a.face in faces(item["defence"]):
                a.result = None
                a.more["result"] = "cancelled"
            return False
        k = a.law.defence(a.result) + sum(p.points for p in a.spends if p.use == "extra_defence")
        if k:
            self.due.append(Due(("defence",), k, False, f"{target.id}'s Defence dice"))
        return False

    def aftermath(self, a) -> bool:
        """What the result sets off (``Aftermath.after_result``, in the
        pack's ``aftermath_step`` order), a Devotio's or a Small Cavalry
        Reserve's part in it, and a shot during the move's."""
        eng, s, item, target, aftermath = self.eng, self.s, a.item, a.target, a.aftermath
        choice = item.get("devotio")
        if choice is not None and target is not None:
            aftermath.dr_plus[target.id] = eng.hook(s, "devotio_dr", choice)
            if eng.hook(s, "devotio_setback", choice):
                aftermath.card(target.side, "setback", f"{a.u.id}'s Devotio")
        if item.get("reserve") == "discipline":
            aftermath.reserve = True
        if a.shot_info is not None:  # the shot during the move: its result, and what it moved
            a.more["shot"] = a.shot_info
            a.result = a.shot_result
            aftermath.absorb(a.shot_aftermath)
        if (a.result is not None and a.option != "move" and a.u.id in a.board.foot
                and target.id in a.board.foot):
            a.board = aftermath.after_result(a.board, a.option, a.u.id, target.id, a.result)
            a.spends = a.spends + tuple(aftermath.spends)
        return False

    def reform(self, a) -> bool:
        """A Reform Activation's test (``test``): passed, the unit is no
        longer Disordered; failed, its Failed Reform Outcome."""
        if a.option != "reform":
            return False
        eng, s, u, aftermath = self.eng, self.s, a.u, a.aftermath
        if "test" not in a.item:
            self.due.append(Due(("test",), 2, False, f"{u.id}'s Reform Test"))
            return False
        d1, d2 = faces(a.item["test"])
        test = eng.discipline_test(s, u, reform=True)
        a.test_result = a.more["test"] = test.result(d1, d2)
        if a.test_result == "pass":
            a.board = a.board.moved(u.id, disordered=False)
            aftermath.twelve(a.board, u.id, d1, d2, a.test_result)
        elif u.id in a.board.foot:
            a.board = aftermath.failed_reform(a.board, u.id, test.short(d1, d2), a.test_result)
        return False

    def attachments(self, a) -> bool:
        """A Devotio used (or lost by a Charge that made no contact) and the
        attachment a used reserve is (the pack's ``reserve_attachment``):
        each leaves play as the pack's ``used_up`` says (``used``)."""
        eng, setting, u, aftermath, item = self.eng, a.board, a.u, a.aftermath, a.item
        v = setting.by_id[u.id]
        lost = set()
        if setting.has(v, "devotio"):
            if item.get("devotio") is not None:
                self.devotio_used.add(self.side)
                self.used(a, "devotio", f" ({item['devotio']})", lost)
            elif eng.hook(setting, "devotio_lost", self.activation_record(a)):
                lost.add("devotio")
                aftermath.events.append(f"{u.id}'s Charge made no contact: its Devotio is lost")
        if item.get("reserve") is not None and (x := eng.hook(setting, "reserve_attachment", v)) is not None:
            self.used(a, x, "", lost)
        if lost:
            aftermath.changed.add(u.id)
            a.board = setting.moved(u.id, lost=setting.states[u.id].lost | frozenset(lost))
        return False

    def used(self, a, x: str, how: str, lost: set) -> None:
        """Attachment ``x`` of ``a``'s unit used (``how``: its choice, in
        words): ``removed`` from play at once, ``rolled`` (the pack's roll
        named ``x`` on the turn file's ``cohort`` die: removed or stays), or
        it stays, as the pack's ``used_up(x)`` says; ``lost`` gets it if it
        goes. The words name it by its symbol (``praetorian_cohort``:
        "Praetorian Cohort")."""
        uid, aftermath, fate = a.u.id, a.aftermath, self.eng.hook(a.board, "used_up", x)
        name = x.replace("_", " ").title()
        if fate == "removed":
            lost.add(x)
            aftermath.events.append(f"{uid} uses its {name}{how}: removed from play")
        elif fate == "rolled":
            die = a.item.get("cohort")
            if die is None:
                aftermath.need(("cohort",), 1, f"{uid}'s {name} die",
                               f"{uid}'s {name} was used: give its 1D6 as `cohort: N`")
            elif self.eng.roll(a.board, x, {}, (die,)) == "removed":
                lost.add(x)
                aftermath.events.append(f"{uid}'s {name} is removed ({die})")
            else:
                aftermath.events.append(f"{uid}'s {name} stays ({die})")

    @staticmethod
    def reached(s, u, target) -> bool:
        """A Charge fights its target once the target is to its front (as
        ``seen_from`` sees it); a failed Charge, or one that did not reach
        its target, rolls no combat dice."""
        f = s.footprint(u)
        return f is not None and bool(frozenset(f.front(1)) & s.squares(s.by_id[target.id]))

    def reroll_left(self, s, u, step, used, points_left) -> bool:
        """A failed Manoeuvre Test is re-rolled while a re-roll is left: a
        free one the pack grants (``free_reroll``: Drilled, Skirmisher) not
        used this turn, or a Movement Point spent for it (``reroll_manoeuvre``)."""
        return (any(k not in used and self.eng.hook(s, "free_reroll", k, u, step) for k in free_rerolls(self.eng.pack))
                or points_left > 0)

    def aftermath_log(self, more, aftermath, setting, before):
        """What the entry did, for the log: the events, the units changed
        (where each now stands, or ``removed``): every unit whose state
        differs from ``before`` (moved, turned, Disordered or Reformed,
        removed, ...) and every unit the aftermath touched, anything left
        unresolved for want of its die, and the cards each side holds."""
        aftermath.changed |= {uid for uid, st in setting.states.items() if st != before.states[uid]}
        if aftermath.events:
            more["events"] = list(aftermath.events)
        if aftermath.unresolved:
            more["unresolved"] = list(aftermath.unresolved)
        if aftermath.pools_after:
            more["pools"] = {k: dict(v) for k, v in aftermath.pools_after.items()}
        if aftermath.changed:
            pos = {}
            for uid in sorted(aftermath.changed):
                st = setting.states[uid]
                pos[uid] = "removed" if st.gone else {"at": list(st.at), "facing": st.facing,
                                                      "disordered": st.disordered}
                if not st.gone and st.dr_plus:
                    pos[uid]["discipline"] = setting.by_id[uid].get_attr("discipline")
            more["positions"] = pos
        more["cards"] = {k: dict(v) for k, v in self.cards.items()}

    def mid_move_shot(self, base, u, cur, spec):
        """A Shooting Activation during a move (Nomadic Cavalry), from where
        the unit has got to: judged as a shoot by the rules, its result
        applied (``spec``: the shot's dice and what its result moves)."""
        eng = self.eng
        start = base.footprint(u)
        mid = base.moved(u.id, at=cur.at, facing=cur.facing)
        tid = spec["target"]
        tv = _named(mid.by_id, spec, "target", self.path)
        uv = mid.by_id[u.id]
        law = self._law(mid, "shoot", uv, tv, spec)
        r, face = self._rolled("shoot", law, uv, tv, spec)
        result = None if "defence" in spec and face in faces(spec["defence"]) else r
        rec = eng.record(uv, "shoot", rolled=True, target=tv, result=result, what=u.id,
                         start=mid.squares(uv), end=mid.squares(uv), after_reversal=self.reversal)
        self.judge(mid, rec)
        aftermath = Aftermath(self, spec)
        if result is not None and tid in mid.foot:
            mid = aftermath.after_result(mid, "shoot", u.id, tid, result)
        info = {"target": tid, "after": spec["after"], "ratings": [law.a, law.d],
                "result": r if result is not None else "cancelled"}
        # the move goes on on the board as the shot left it (its later steps judged there), the unit back where it began
        return mid.moved(u.id, at=start.at, facing=start.facing), info, result, aftermath

    def _law(self, s, option, uv, tv, item, charged=0):
        """``GridEngine.attack_law`` with the bonuses the entry ``item`` uses."""
        return self.eng.attack_law(s, option, uv, tv, charged, item.get("reserve") == "combat",
                                   item.get("devotio") == "combat")

    def _rolled(self, option, law, uv, tv, item):
        """A combat or shot's result by its ``law`` (``item``: its dice and
        choice): the result chosen, and the face a Defence die must show to
        cancel it. The attack dice ``item`` gives are as many as the ratings
        give: the count is set by them, as a side's losses are by its points
        at risk (``Aftermath.point_losses``), so another count is bad input
        at the `dice` value's place, not a move the rules judge."""
        dice = faces(item["dice"])
        if len(dice) != law.n:
            ratings = (f"{uv.id}'s Ranged Combat Rating {law.a} against {tv.id}'s Combat Rating {law.d}"
                       if option == "shoot" else f"{uv.id}'s Combat Rating {law.a} against {tv.id}'s {law.d}")
            n, due = len(dice), law.n
            raise WarcouncilError(f"`dice` gives {n} {'die' if n == 1 else 'dice'}, but {ratings} rolls {due}",
                                  _where(item, "dice", self.path),
                                  hint=f"give {due} {'die' if due == 1 else 'dice'} (`odds` names the number: dice)")
        c = item.get("choose")
        if c is None:
            c = self.eng.choose(self.s, law, dice)[1]
        elif c not in dice:
            raise WarcouncilError(f"`choose: {c}` is not one of the dice rolled {list(dice)}",
                                  _where(item, "choose", self.path))
        return law.result[c], law.cancel[c]

    # -- other entries
    def exchange(self, item, where):
        raw = item["exchange"]
        get = item["get"]
        spends = [self.pay(self.side, pool, "exchange", n) for pool, n in raw.items()]
        self.pools[self.side][get] += 1
        rec = self.eng.record(None, "exchange", spends=tuple(spends), given=sum(raw.values()),
                              given_pools=frozenset(raw), get=get, what="an exchange")
        self.entry_log(rec, self.judge(self.s, rec), pools=dict(self.pools[self.side]))

    def reallocate(self, item, where):
        raw = item["reallocate"]
        before = sum(self.pools[self.side].values())
        spends = (self.pay(self.side, "strategy", "reallocate", 1),)
        new = dict(self.pools[self.side])
        new.update(raw)
        rec = self.eng.record(None, "reallocate", spends=spends, largest_after=max(new.values()),
                              total_before=before, total_after=sum(new.values()), what="a re-allocation")
        self.pools[self.side] = new
        self.entry_log(rec, self.judge(self.s, rec), pools=dict(new))

    def bring_back(self, item, where):
        """An attempt to bring an off-table unit back: a Discipline Test, its
        dice read through the pack's roll ``off_table_return`` as ``odds``
        reads them; unless it ``remains`` off the table, the unit returns to
        the two squares where it left the table (if they are free)."""
        eng, s = self.eng, self.s
        uid = item["bring_back"]
        v = s.by_id.get(uid)
        if v is None or v.side != self.side:
            raise _unknown(f"`bring_back` names no unit of {self.side}: {uid!r}", uid,
                           [k for k, w in s.by_id.items() if w.side == self.side], _where(item, "bring_back", self.path))
        st = s.state(v)
        dice = faces(item["test"])
        res = eng.discipline_test(s, v).result(*dice)
        back = eng.roll(s, "off_table_return", {"unit": v}, dice) != "remains"
        rec = eng.record(v, "bring_back", test_result=res, returned=back, returnable=st.off_table and not st.gone,
                         what=uid, after_reversal=self.reversal)
        vs = self.judge(s, rec)
        more = {"test": res}
        if not vs and back:
            f = Footprint(st.at, st.facing)
            if all(q in s.board.cells and q not in s.occupant for q in f.squares):
                self.s = s.moved(uid, off_table=False)
                more["positions"] = {uid: {"at": list(st.at), "facing": st.facing, "disordered": st.disordered}}
            else:
                more["unresolved"] = [f"{uid} passed, but the squares where it left the table are taken"]
        more["cards"] = {k: dict(c) for k, c in self.cards.items()}
        self.entry_log(rec, vs, **more)

    def homunculus(self, item, where):
        raw = item["homunculus_est"]
        other = next((k for k in self.eng.scenario.sides if k != self.side), self.side)
        verdict, _ = self.eng.homunculus_verdict(self.s, other, raw["points"])
        cancelled = "cancel" in raw
        spends = (self.pay(other, raw["cancel"], "cancel_homunculus", 1),) if cancelled else ()
        rec = self.eng.record(None, "homunculus_est", spends=spends, verdict=verdict, cancelled=cancelled,
                              cancelled_before=self.cancelled[other] if cancelled else False,
                              called_before=self.called, after_reversal=self.reversal,
                              what="“Homunculus Est!”")
        vs = self.judge(self.s, rec)
        self.called = True
        if cancelled:
            self.cancelled[other] = True
        elif verdict == "fatigued":
            self.s = self.s.fatigue(other)
        elif verdict == "broken":
            self.broken = True
        self.entry_log(rec, vs, verdict=verdict, cancelled=cancelled)


# ------------------------------------------------------------------ helpers

#: the tests whose answer is more than the pack's roll of their name (``GridEngine.declared``):
#: (engine, setting, data, path) -> (dist, extra); data's options checked by TEST_ENTRIES
_TESTS = {
    "manoeuvre": GridEngine._manoeuvre,
    "discipline": GridEngine._discipline,
    "reform": GridEngine._discipline,
    "combat": lambda self, s, d, p: self._attack(s, d, p, "combat"),
    "shooting": lambda self, s, d, p: self._attack(s, d, p, "shoot"),
    "homunculus_est": GridEngine._homunculus,
    "command_point_losses": GridEngine._command_point_losses,
    "push_back": GridEngine._push_back,
}
#: what else the answer of a test that is its roll gives: ``(engine, setting, args)`` -> a dict, read
#: off the roll's arguments ``args``
_EXTRAS = {
    # (a stampede is no Failed Discipline Outcome roll: no modifier)
    "failed_discipline": lambda self, s, a: ({} if a["critical_by"] > 0 and self.hook(s, "stampedes", a["unit"])
                                             else {"modifier": self.failed_modifier(s, a, False)}),
    "failed_reform": lambda self, s, a: {"modifier": self.failed_modifier(s, a, True)},
}

_ORDER = ("failed", "0", "1", "2", "3", "4", "pass", "fail", "critical", "cancelled")


def _sorted_dist(dist: dict) -> dict:
    """Outcomes with keys as strings, in a stable order (the contract's
    keys first, then by name); zero outcomes dropped."""
    out = {str(k): p for k, p in dist.items() if p}
    return dict(sorted(out.items(), key=lambda kv: (_ORDER.index(kv[0]) if kv[0] in _ORDER else len(_ORDER), kv[0])))


def _read_yaml(path: str, what: str):
    text = read_text(path, TEST_LIMIT, what)
    return parse_yaml(text, path)


def _where(d, key, path):
    if isinstance(d, YDict):
        return d.value_where.get(key, d.where) if key is not None else d.where
    return Location(path)


def _named(by_id, d, key, path) -> PieceView:
    """The unit ``d[key]`` names, or bad input at that value naming the closest ids."""
    uid = d.get(key)
    v = by_id.get(uid) if isinstance(uid, str) else None
    if v is None:
        raise _unknown(f"unknown unit {uid!r}", uid, by_id, _where(d, key, path))
    return v


def _unknown(message: str, name, known, where, otherwise: str | None = None) -> WarcouncilError:
    """Bad input at ``where``: ``name`` is none of ``known``; the hint names
    the closest known name, or else says ``otherwise``."""
    near = closest(str(name), known)
    return WarcouncilError(message, where, hint=f"did you mean {near[0]!r}?" if near else otherwise)


def _pick(d, key, choices, where):
    v = d.get(key)
    if v not in choices:
        near = closest(str(v), choices)
        raise WarcouncilError(f"`{key}` must be one of {', '.join(choices)}, not {v!r}",
                              d.value_where.get(key, d.where) if isinstance(d, YDict) else where,
                              hint=f"did you mean {' or '.join(near)}?" if near else None)
    return v
