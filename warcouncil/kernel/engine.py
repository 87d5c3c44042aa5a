"""The engine: a scenario with its rule pack (and house rules), ready to answer.

    eng = Engine.load("akragas")          # the engine of the scenario's system
    eng.system                            # its System (kernel/system.py)
    eng.setting(side)                     # the board and pieces seen from a side
    eng.hook(s, name, *args)              # the value of the pack's hook name in setting s

``Engine`` is the game-independent part: loading the scenario and the pack
(with house rules checked as lint checks them), settings and piece
look-ups, and how an engine asks its pack (its hooks, its rolls, the order
of a procedure's steps: ``ask``, ``hook``, ``ordered``, ``roll``, in the
context a family gives, ``context``). The planned rules of a system whose
decision is a set of orders are the planner's: ``solver.plan.PlannedEngine``.
What a decision is and how it is answered belongs to the
system: ``Engine(...)`` and ``Engine.load(...)`` give the engine class of the
scenario's system (for Commands & Colors, ``systems.cc.CardEngine``: cards,
order sets, destinations, whole turns).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..dsl.pack import Pack, line_at, is_shipped, load_pack
from ..errors import Location, WarcouncilError, closest
from . import rolls
from .ground import Ctx, PieceView, Setting
from .scenario import Scenario, load_scenario, pack_target, scenario_from_text
from .system import System


def orders_alone(options: dict) -> None:
    """Bad input: ``orders``' options ``svg_path`` (``--svg``) and ``after``
    (``--after``) given to an engine that draws no board for it and follows
    no turn log."""
    if options.get("svg_path") is not None:
        raise WarcouncilError("orders --svg is for systems that draw their own board (e.g. Warmaster); "
                              "for Commands & Colors use: moves --svg FILE")
    if options.get("after") is not None:
        raise WarcouncilError("--after is for systems whose orders follow a turn log (e.g. Warmaster)")


class Engine:
    #: the frames of actions its procedure walks (``kernel.game.frame_steps``): an action's kind ->
    #: {a step's name: the entry fields it reads}; lint checks a pack's frames against them
    frames: dict = {}

    def __new__(cls, scenario: Scenario, pack: Pack, *args, **kw):
        if cls is Engine:  # the system of the pack decides which engine answers
            system = System.for_pack(pack)
            if system.engine is None:
                raise WarcouncilError(f"the {system.title or system.name} system has no engine")
            cls = system.engine
        return super().__new__(cls)

    def __init__(self, scenario: Scenario, pack: Pack):
        self.scenario = scenario
        self.pack = pack
        #: the game system this engine answers for
        self.system: type[System] = System.for_pack(pack)
        self._settings: dict = {}
        self._asked: dict = {}  # (hook, arity) -> (its closure, its parameters): ``ask``
        self._validate()

    @classmethod
    def load(cls, scenario: str | Path | Scenario, rules: list[str | Path] = ()) -> "Engine":
        sc = scenario if not isinstance(scenario, (str, Path)) else load_scenario(str(scenario), _own_reader)
        layers = list(sc.rules) + [str(r) for r in rules]
        pack = load_pack(_pack_target(sc), layers)
        if layers or not all(is_shipped(f) for f in pack.files):
            # house rules (and a pack of the user's own) are checked as lint
            # checks them before they are used: the first problem is the
            # answer (exit 2), at its own place
            from ..dsl.lint import check_layers

            problems = check_layers(pack)
            if problems:
                raise problems[0].as_error()
        return cls(sc, pack)

    @classmethod
    def load_data(cls, data: dict, file: str, rules: list[str | Path] = ()) -> "Engine":
        """The engine of a scenario given as data (what a scenario file
        holds, e.g. ``State.scenario_after()``), read as if it were the file
        ``file`` (its relative paths taken from that file's folder)."""
        import yaml

        return cls.load(scenario_from_text(yaml.safe_dump(data, sort_keys=False), file, _own_reader), rules)

    # ------------------------------------------------------------ asking the pack
    # How an engine asks its pack a question: a hook (a define the pack
    # declares with ``hook``, ``Pack.hook``), a roll (``roll``,
    # ``kernel/rolls.py``), the order of a procedure's steps (a hook that
    # ranks them). The family gives only the context its defines are
    # evaluated in (``context``: a ``Ctx`` over its world).
    def context(self, setting: Setting) -> Ctx:
        """The context the pack's defines are evaluated in, in ``setting``
        (what ``setting(side)`` gives): a family's engine gives its own (a
        ``Ctx`` over its world); here the setting as it stands, nothing being
        decided."""
        return Ctx(_AsItStands(setting, self.compiler))

    def ask(self, ctx: Ctx, name: str, *args):
        """The value of the pack's hook ``name`` on ``args``, in ``ctx``;
        an optional hook the pack does not define answers none. The hook is
        looked up (and its arity checked, ``Pack.hook``) once per name and
        arity: an engine's hot path asks here with a context it made."""
        hit = self._asked.get((name, len(args)))
        if hit is None:
            d = self.pack.hook(name, len(args))
            hit = (_NONE, ()) if d is None else (self.compiler.define_closure(name), tuple(d.params))
            self._asked[(name, len(args))] = hit
        body, params = hit
        return body(ctx, dict(zip(params, args)))

    def hook(self, setting: Setting, name: str, *args):
        """The value of the pack's hook ``name`` on ``args`` in ``setting``
        (``ask`` in the family's ``context``)."""
        return self.ask(self.context(setting), name, *args)

    def ordered(self, setting: Setting, rank: str, steps, droppable: bool = False) -> list:
        """``steps`` in the order the pack's hook ``rank`` gives them (a
        number, lower first; a tie: as listed), and with ``droppable`` each
        it ranks ``none`` left out: how the engine walks a procedure the
        pack declares."""
        ranked = [(self.hook(setting, rank, k), i, k) for i, k in enumerate(steps)]
        for r, _, k in ranked:
            number = isinstance(r, (int, Fraction)) and not isinstance(r, bool)
            if not number and (r is not None or not droppable):
                raise WarcouncilError(f"{rank}({k}) is {'none' if r is None else r}: a rank is a number (lower first)"
                                      + (" or none" if droppable else ""),
                                      (self.pack.defines.get(rank) or self.pack.hooks[rank]).loc)
        return [k for _, _, k in sorted(x for x in ranked if x[0] is not None)]

    def call(self, setting: Setting, name: str, *args):
        """The value of any define ``name`` of the pack on ``args`` (for a
        caller outside the engine, e.g. a test reading one define; the
        engine itself asks only its hooks)."""
        d = self._define(name)
        if len(d.params) != len(args):
            raise WarcouncilError(f"{name} takes {len(d.params)} argument(s) in this rule pack, not {len(args)}",
                                  d.loc)
        return self.value(self.context(setting), d, args)

    def value(self, ctx: Ctx, d, args):
        """The value of the pack's define ``d`` on ``args`` in ``ctx``."""
        return self.compiler.define_closure(d.name)(ctx, dict(zip(d.params, args)))

    def roll(self, setting: Setting, name: str, given, faces=None):
        """The pack's roll ``name`` (``roll ID NAME(...) dice ... := ...``,
        ``kernel/rolls.py``), its parameters the values of their names in
        ``given``: its exact law, or with ``faces`` what they give. A turn
        file gives the dice of one try (a re-roll is another try), and where
        they are fewer than the roll's they must decide it (``decided``): a
        house rule's roll that reads a die the file does not give is bad
        input at the roll."""
        r, ctx, args = self.roll_of(setting, name, given)
        if faces is None:
            return r.law(ctx, args)
        known, out = r.decided(ctx, args, faces)  # (all its dice given: decided by them)
        if not known:
            raise WarcouncilError(f"roll {r.decl.id} rolls {r.n} dice ({', '.join(r.decl.dice)}), but a turn file "
                                  f"gives {len(faces)} for a try of it", r.decl.loc)
        return out

    def decided(self, setting: Setting, name: str, given, faces) -> tuple[bool, object]:
        """Whether the first dice of roll ``name``, showing ``faces``, decide
        it, and what they give (``Roll.decided``): a later die is asked for
        only when it matters."""
        r, ctx, args = self.roll_of(setting, name, given)
        return r.decided(ctx, args, faces)

    def roll_of(self, setting: Setting, name: str, given) -> tuple[rolls.Roll, Ctx, dict]:
        """The pack's roll ``name`` (compiled once), the context it is
        evaluated in, in ``setting``, and its arguments from ``given``
        (``Roll.bind``); a roll the pack does not declare is an error that
        says how to declare it."""
        r = rolls.compiled(self.compiler, name)
        if r is None:
            raise WarcouncilError(f"the rule pack declares no roll {name}, which the engine rolls",
                                  hint=f"declare it: roll ID {name}(...) dice d1, ... := ...")
        return r, self.context(setting), r.bind(given)

    def side_value(self, name: str, side: str):
        """The value of the pack's one-parameter define ``name`` in the
        setting of ``side`` (``context``), called with that side (as the
        ``side`` builtin gives it there); no card, roll or move is being
        judged. ``warcouncil.openspiel`` asks a user's ``objective`` this
        way."""
        s = self.setting(side)
        return self.value(self.context(s), self.side_define(name), (s.side_view,))

    def side_define(self, name: str):
        """The pack's one-parameter define ``name`` that ``side_value`` calls
        (a user's define, not a hook of the engine's)."""
        d = self._define(name)
        if len(d.params) != 1:
            raise WarcouncilError(f"{name} must take 1 argument (a side), not {len(d.params)}", d.loc)
        return d

    def _define(self, name: str):
        d = self.pack.defines.get(name)
        if d is None:
            raise WarcouncilError(f"the rule pack has no define {name!r}")
        return d

    def _validate(self) -> None:
        self._validate_roles()
        for u in self.scenario.all_pieces:
            if u.type is not None and u.type not in self.pack.units:
                hint = closest(u.type or "", self.pack.units)
                raise WarcouncilError(
                    f"unknown unit type {u.type!r} for {self.pack.title or self.pack.name}",
                    u.where,
                    hint=f"did you mean {hint[0]!r}?" if hint else "known types: " + ", ".join(self.pack.units),
                )
        self.system.check_setup(self.scenario, self.pack)

    def _validate_roles(self) -> None:
        """Each piece list of the scenario gives its pieces a role the pack
        declares (``roles ...``)."""
        roles = self.pack.roles
        for key, role in self.scenario.lists.items():
            pieces = self.scenario.pieces.get(role, ())
            if pieces and role not in roles:
                declared = ", ".join(roles) if roles else "none"
                raise WarcouncilError(
                    f"the scenario lists pieces under `{key}:`, but {self.pack.title or self.pack.name} "
                    f"declares no role {role!r} (roles: {declared})",
                    pieces[0].where,
                    hint=f"declare it in the pack: `roles {', '.join(roles + (role,))}`",
                )

    def answer(self, verb: str, **options):
        """The whole answer to ``verb`` (a ``system.Answer``); the options
        are the command line's, by name (e.g. ``side``, ``after``, ``limit``,
        ``path``, ``as_json``: only the JSON object is wanted). ``check`` is
        the kernel's for an engine that checks a turn file (``check_turn``);
        the system's engine answers the verbs it lists in ``answers_itself``."""
        if verb == "check" and hasattr(self, "check_turn"):
            return self._checked(options["path"])
        raise WarcouncilError(f"`{verb}` is not answered by the {self.system.title or self.system.name} engine")

    def _checked(self, path: str):
        """``check``: the verdict on the turn file ``path`` (exit 1: illegal),
        every violated rule with its document's title and sentence."""
        from .system import Answer
        from .turn import load_turn

        t = load_turn(path, self.scenario.board, contextual=self.system.context is not None)
        verdict = self.check_turn(t)
        return Answer(verdict.as_json(), "", 0 if verdict.legal else 1, lines=self._verdict_lines(verdict))

    def _verdict_lines(self, verdict):
        from rich.markup import escape

        if verdict.legal:
            yield "[green]legal[/]"
            return
        yield f"[red bold]illegal[/]: {len(verdict.violations)} violation{'s' if len(verdict.violations) != 1 else ''}"
        for v in verdict.violations:
            pieces = self.pieces_words(v.pieces) if v.pieces else "-"
            yield f"  [bold]{escape(v.rule)}[/] {escape('[' + pieces + ']')} {escape(v.message)}"
            # the document's title for players (the file stays in --json)
            source = self.pack.document_name(v.source)
            yield f"    {escape(source)}: [italic]“{escape(v.quote)}”[/]" if v.quote else f"    {escape(source)}"

    def pieces_words(self, ids) -> str:
        """Pieces by id as text answers name them (``check``'s violations):
        here their ids; a family's engine words them as its players do."""
        return ", ".join(ids)

    def draw(self, **options) -> str:
        """The board as an SVG document, for the verbs the system answers
        itself (``--svg FILE``); the options are the verb's."""
        raise WarcouncilError(f"the {self.system.title or self.system.name} engine draws no board (--svg)")

    # ------------------------------------------------------------ settings
    def setting(self, side: str | None = None, command: int | None = None) -> Setting:
        key = (side, command)
        s = self._settings.get(key)
        if s is None:
            s = self._settings[key] = Setting(self.pack, self.scenario, side, command, self.system)
        return s

    def pieces(self, g, ids: list[str], where: list[Location] | None = None) -> list[PieceView]:
        """The pieces named by ``ids`` in the setting of ``g`` (a grounding,
        or anything with a ``setting``); an unknown id is bad input, at its
        place in the file when ``where`` gives one."""
        s = g.setting
        try:
            return [s.by_id[pid] for pid in ids]
        except KeyError:
            pass  # an unknown id: found and reported below
        out = []
        for i, pid in enumerate(ids):
            v = s.by_id.get(pid)
            if v is None:
                hint = closest(str(pid), s.by_id)
                loc = where[i] if where else None
                raise WarcouncilError(
                    f"unknown piece id {pid!r}",
                    loc,
                    source_line=line_at(loc) if loc else None,
                    hint=f"did you mean {hint[0]!r}?" if hint else None,
                )
            out.append(v)
        return out



class _AsItStands:
    """What a define evaluated on a scenario as it stands reads (``ctx.g``):
    the setting; nothing is being decided, so every field of a decision a
    family's builtins read (what fixes it, its dice) is none."""

    def __init__(self, setting, compiler) -> None:
        self.setting = setting
        self.compiler = compiler
        self.memo: dict = {}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return None


def _NONE(ctx, env) -> None:
    """What an optional hook the pack does not define answers (``ask``)."""
    return None


def _own_reader(data):
    """The scenario reader of the game system named by the file's
    ``system:`` key, when that system reads its own shape
    (``System.read_scenario``); ``None``: the kernel's reader."""
    from ..world.ydoc import YDict

    if not isinstance(data, YDict) or not isinstance(data.get("system"), str):
        return None
    try:
        system = System.for_pack(data["system"])
    except WarcouncilError:  # a pack folder of the scenario's own: the kernel's reader
        return None
    return system.read_scenario


def _pack_target(sc: Scenario) -> str:
    """The rule pack a scenario plays (``scenario.pack_target``)."""
    return pack_target(sc.system, sc.path)
