"""Game systems: what the kernel needs to know about one game family.

The kernel (this package, with the planner ``warcouncil.solver`` above it
and the world ``warcouncil.world`` below) compiles a pack's rules, grounds
them on a board, searches and checks, and names no card, leader or phase in
its code
(``tests/test_kernel_names.py``; what it still knows of Commands & Colors,
sections as a board capability among it, is listed in docs/design.md §2.2).
Everything
a game family adds — how a player decides (a card's order set, a sequence of
dice-rolled orders, activations), its turn phases, its board kinds, the
verbs it answers, the hooks by which the kernel asks its rules a question
(which define says whether a unit may still battle after a move) — is
declared by one small subclass of :class:`System`, as sqlglot keeps a
dialect to a subclass of ``Dialect``.

A system is found by the name of the rule pack a scenario plays
(``system: cca`` in the scenario file): :meth:`System.for_pack` looks in the
subclasses already imported, then in the ``warcouncil.systems`` entry points
(``pyproject.toml``), so the kernel never imports a system and a system
shipped elsewhere (a test's tiny game, a user's plugin) plugs in the same
way.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from ..errors import Location, WarcouncilError, closest
from ..records import record

if TYPE_CHECKING:  # pragma: no cover
    from ..dsl.pack import Pack

#: Every verb of the command line that reads a scenario; a system answers some.
VERBS = ("orders", "moves", "turns", "check", "cards", "diff", "odds", "plan", "activations")

_BY_PACK: dict[str, type["System"]] = {}


@record
class Point:
    """An entry point (``name = "module:Attr"``), as ``importlib.metadata``
    gives it, kept in the user's cache (``_points``)."""

    name: str
    value: str

    @property
    def module(self) -> str:
        return self.value.partition(":")[0]

    def load(self):
        from importlib import import_module

        module, _, attr = self.value.partition(":")
        obj = import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        return obj


def entry_points(**select) -> list[Point]:
    """The entry points of every installed distribution (``group=``,
    ``name=``: ``importlib.metadata.entry_points``'s selection)."""

    def scan():
        from importlib.metadata import entry_points as every

        return every(**select)

    return _points("every", select, scan)


def shipped_entry_points(**select) -> list[Point]:
    """The entry points of warcouncil's own distribution (``pyproject.toml``:
    the systems shipped with it), read from its one metadata folder rather
    than every installed distribution's; none where it is not installed."""

    def scan():
        from importlib.metadata import PackageNotFoundError, distribution

        try:
            return distribution("warcouncil").entry_points.select(**select)
        except PackageNotFoundError:  # pragma: no cover - run from a source tree never installed
            return ()

    return _points("warcouncil", select, scan)


def _points(which: str, select: dict, scan) -> list[Point]:
    """``scan()``'s entry points, kept in the user's cache (``dsl.packcache``;
    none with ``WARCOUNCIL_CACHE=off``): importing ``importlib.metadata`` and
    reading the distributions' metadata is ~40 ms, a third of a short
    command's start-up. An entry is keyed by the query, the Python, and each
    ``sys.path`` folder with its modification time: installing, upgrading or
    removing a distribution adds or removes a folder there, which changes
    its parent's time, so a changed installation is never answered from an
    old entry. (A distribution's metadata edited in place is not seen:
    reinstall it.)"""
    import json
    import os
    import sys

    from ..dsl.packcache import cache_dir, load_entry, sha256, store_entry

    where = cache_dir("entry-points", 1)
    if where is None:
        return [Point(ep.name, ep.value) for ep in scan()]
    stamp = []
    for folder in sys.path:
        try:
            stamp.append([folder, os.stat(folder or ".").st_mtime_ns])
        except OSError:
            stamp.append([folder, None])
    key = sha256(json.dumps([which, sorted(select.items()), sys.version, sys.prefix, stamp]).encode()).hexdigest()
    entry = where / f"{key}.json"
    found = load_entry(entry, key, "", decode=lambda text, _: [Point(*p) for p in json.loads(text)])
    if found is None:
        found = [Point(ep.name, ep.value) for ep in scan()]
        store_entry(entry, key, found, encode=lambda points: [[p.name, p.value] for p in points])
    return found


@record
class PieceList:
    """One list of pieces in a scenario file (``units:``, ``leaders:``, ...):
    the role its pieces take (a role the pack declares: ``roles``), the keys
    each entry must and may have (each checked by the scenario schema,
    ``scenario.PIECE_FIELDS``), and whether the scenario must give the list."""

    role: str
    required: tuple[str, ...] = ("id", "side", "type", "at")
    optional: tuple[str, ...] = ("facing",)
    needed: bool = False


@record
class Answer:
    """A verb's whole answer, made by a system's engine: the JSON object, the
    text for a person (plain, one string), and the exit code (0, or 1 for
    "no": an illegal turn or plan)."""

    data: dict
    text: str
    exit_code: int = 0
    #: the text as lines in the console's markup (rich: ``[bold]``...),
    #: printed one by one as they are made (a long listing streams); None:
    #: ``text`` is the text
    lines: object = None
    #: ``text`` is written as it is, without the console (a bare number)
    plain: bool = False
_ENTRY_POINTS = "warcouncil.systems"


@record
class Option:
    """A command-line option a game family adds to verbs (``--card``,
    ``--after``): declared in the family's ``options`` module
    (``systems/<family>/options.py``, a tuple ``OPTIONS``), which imports
    nothing heavy, so that the command line reads every family's options
    without importing a system (``family_options``). A scenario of another
    family given the option is refused with ``refused``."""

    #: the option as typed, e.g. ``--card``
    flag: str
    #: the verbs it is an option of
    verbs: tuple[str, ...]
    #: its help text
    help: str
    #: the keyword the engine's ``answer`` reads it as (default: the flag's name)
    dest: str | None = None
    metavar: str | None = None
    #: its value is one of these
    choices: tuple[str, ...] | None = None
    default: object = None
    #: its value is a whole number between the two bounds (a function
    #: returning them: read when the option is given)
    bounds: object = None
    #: its value names a file
    path: bool = False
    #: it takes no value: given, it is True
    is_flag: bool = False
    #: what shell completion offers for it: ``"card"`` (the pack's cards),
    #: or None
    complete: str | None = None
    #: the message refusing it on a scenario of a system that does not read
    #: it (``{option}``, ``{system}``: the scenario's system's title)
    refused: str = "{option} is not an option of {system} scenarios"
    #: the verbs that need it given (when the scenario's system reads it),
    #: and what it gives, in words, for the message saying so
    needed_by: tuple[str, ...] = ()
    needs: str = ""
    #: the hint when it is needed (``{scenario}``: the SCENARIO given)
    needs_hint: str | None = None
    #: the kernel's own engines read it too (a side's ``command``): read by
    #: any system for a verb it does not answer itself (``answers_itself``)
    kernel: bool = False

    @property
    def name(self) -> str:
        return self.dest or self.flag.lstrip("-").replace("-", "_")


@lru_cache(maxsize=1)
def family_options() -> tuple[tuple[str, Option], ...]:
    """Every shipped or plugged-in family's command-line options, in the
    order of the ``warcouncil.systems`` entry points: (the family's
    package, the option). Read from each family's ``options`` module,
    found beside the module the entry point names without importing that
    module (a family's ``__init__`` imports nothing heavy)."""
    from importlib import import_module
    from importlib.util import find_spec

    found: list[tuple[str, Option]] = []
    seen: set[str] = set()
    for ep in entry_points(group=_ENTRY_POINTS):  # (warcouncil's own and any plug-in's)
        try:
            spec = find_spec(ep.module)  # (imports the packages above it, not it)
        except (ImportError, ValueError):  # a plug-in's package gone: its System says so when it is asked for
            continue
        if spec is None:
            continue
        package = ep.module if spec.submodule_search_locations is not None else ep.module.rpartition(".")[0]
        if package in seen:
            continue
        seen.add(package)
        if find_spec(package + ".options") is not None:
            found += [(package, o) for o in import_module(package + ".options").OPTIONS]
    return tuple(found)


class Lazy:
    """A class attribute naming a class by ``"module:Name"`` (``".game:CardTurn"``:
    beside the module of the class that holds it), imported the first time
    it is read (``System.game``: the verbs that play no turn never import
    the game interface)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __set_name__(self, owner, name: str) -> None:
        self.name = name
        self.package = owner.__module__.rpartition(".")[0]

    def __get__(self, obj, owner=None):
        from importlib import import_module

        module, _, attr = self.path.partition(":")
        value = getattr(import_module(module, self.package), attr)
        setattr(owner, self.name, value)  # (read once: the class holds it now)
        return value


class System:
    """One game family. Subclasses set the class attributes; most need no
    method of their own."""

    #: short id, e.g. ``cc``
    name: ClassVar[str] = ""
    #: for people, e.g. "Commands & Colors"
    title: ClassVar[str] = ""
    #: the rule packs it plays (the scenario's ``system:`` key)
    packs: ClassVar[tuple[str, ...]] = ()
    #: board kinds its rules are written for (``hex``, ``square``, ``table``);
    #: a query a board kind cannot answer is refused by the board itself
    #: (``Board.require``)
    boards: ClassVar[frozenset[str]] = frozenset()
    #: what one decision of a player is, in words
    decision: ClassVar[str] = ""
    #: the phases of a turn, in order
    phases: ClassVar[tuple[str, ...]] = ()
    #: the scenario's piece lists, by key, in the order pieces are ranked
    #: (the kernel's default: one list of units)
    piece_lists: ClassVar[dict[str, PieceList]] = {"units": PieceList("unit", needed=True)}
    #: the optional keys a side may have beside ``edge`` and ``command``, by
    #: key (each a ``schema.Field``; the scenario's ``Side.more``)
    side_fields: ClassVar[dict[str, object]] = {}
    #: the edges a side may own (the scenario's ``edge:``)
    edges: ClassVar[tuple[str, ...]] = ("north", "south", "east", "west")
    #: how a side at each edge names a board's sections (``Board.views``;
    #: None: as the board stores them, from every edge)
    section_views: ClassVar[object | None] = None
    #: the boards a scenario may name (``board: NAME``): name -> a function
    #: making it
    named_boards: ClassVar[dict[str, object]] = {}
    #: the keys of a turn file (``check``): key -> (kind, what it is in
    #: words); kinds: ``turn.KINDS``
    turn_keys: ClassVar[dict[str, tuple[str, str]]] = {
        "orders": ("ids", "a list of piece ids"),
        "moves": ("moves", "a list of moves"),
        "battles": ("battles", "a list of battles"),
        "command": ("count", "a whole number"),
        "side": ("name", "a side's name"),
    }
    #: the keys a turn file must give
    turn_required: ClassVar[tuple[str, ...]] = ()
    #: how ``check`` plays a turn: its move and battle lists (keys of
    #: ``turn_keys``) in the order they happen; battles are judged on the
    #: board as the moves before them left it
    turn_phases: ClassVar[tuple[str, ...]] = ("moves", "battles")
    #: the verbs it answers (a subset of ``VERBS``)
    verbs: ClassVar[frozenset[str]] = frozenset()
    #: what fixes a decision before it is made, if anything: the name of
    #: the command-line option that gives it and of its turn-file key
    #: (Commands & Colors: ``"card"``, ``--card CARD`` and ``card:``); None:
    #: a decision starts from the position alone
    context: ClassVar[str | None] = None
    #: hooks: the pack's defines through which the kernel asks a question,
    #: by role (e.g. ``{"may_battle": "may_battle"}``); each is declared by
    #: the pack (`hook may_battle(m) "..."`) and called through ``Pack.hook``
    #: (an optional one the pack leaves undefined: the question is not asked)
    hooks: ClassVar[dict[str, str]] = {}
    #: the engine class that answers for it
    engine: ClassVar[type | None] = None  # a subclass of engine.Engine
    #: its turn as decisions and chance events, for the game interface
    #: (``kernel/game.py``): a subclass of ``game.Turn`` (or ``Lazy(".game:Class")``,
    #: imported when first asked for: start-up needs none); None: no game interface
    game: ClassVar[type | None] = None
    #: builtins that carry the structure of a decision, by planner class
    #: (``assignable``, ``capacity``, ``filled``, ``linked``, ``led``: see
    #: plan.py), for the system's enumerator to turn into generators
    structural: ClassVar[dict[str, str]] = {}
    #: the meanings of the builtins its packs declare (``builtin`` statements),
    #: beside the kernel's
    meanings: ClassVar[object | None] = None  # a builtins.Meanings

    #: the verbs whose whole answer the system's own engine gives, through
    #: ``Engine.answer(verb, **options) -> Answer`` (the CLI only prints it);
    #: the others it answers are the kernel's (``check`` of a turn file by
    #: ``check_turn``, ``orders`` of a set engine, ``cards`` from the pack)
    answers_itself: ClassVar[frozenset[str]] = frozenset()
    #: reads the scenario file's data (``YDict``, with places) and its path
    #: into the system's own scenario object, for a system whose scenario has
    #: a shape of its own; ``None``: the kernel's reader (``scenario.py``)
    read_scenario: ClassVar[object | None] = None
    #: the shapes of the files a system reads itself, by kind (``scenario``,
    #: ``turn``, and any other its verbs read): kind -> ``schema.Record``,
    #: every field's type and range in one declared place;
    #: ``scenario.json_schema`` and ``turn.json_schema`` publish them
    records: ClassVar[dict[str, object]] = {}
    #: the names in its files that its loader looks up in the pack, which
    #: ``warcouncil schema`` gives as enums (``editor_schema.py``): ``unit``
    #: (a piece's ``type``), a system's context (C&C's cards: a hand's, a
    #: turn's card), ``terrain`` (a terrain's ``type``) and a pack's
    #: ``values`` list by its name (``characteristic``: the items of a
    #: unit's ``characteristics``)
    pack_names: ClassVar[frozenset[str]] = frozenset({"unit"})

    def __init_subclass__(cls, **kw) -> None:
        super().__init_subclass__(**kw)
        for p in cls.packs:
            _BY_PACK[p] = cls

    # ------------------------------------------------------------ lookup
    @staticmethod
    def for_pack(pack: "str | Pack", where: Location | None = None) -> type["System"]:
        """The system that plays ``pack`` (a pack's name, or a loaded pack:
        then its own name, else the first pack it extends that a system
        plays): one already imported, else the entry point of that name."""
        names = [pack] if isinstance(pack, str) else [pack.name, *pack.lineage]
        for name in names:
            hit = _BY_PACK.get(name) or _from_entry_point(name)
            if hit is not None:
                return hit
        known = sorted(set(_BY_PACK) | {ep.name for ep in entry_points(group=_ENTRY_POINTS)})
        hint = closest(names[0], known)
        raise WarcouncilError(
            f"no game system plays the rule pack {names[0]!r}"
            + ("" if isinstance(pack, str) else " (nor a pack it extends)"), where,
            hint=(f"did you mean {hint[0]!r}? " if hint else "") + "known: " + ", ".join(known))

    @classmethod
    def family(cls) -> str:
        """The package of the family the system belongs to (whose
        ``options`` module declares its command-line options)."""
        import sys

        module = sys.modules[cls.__module__]
        return cls.__module__ if hasattr(module, "__path__") else module.__package__ or ""

    @classmethod
    def reads(cls, option: Option, family: str, verb: str) -> bool:
        """Does the system read ``option`` (declared by the family
        ``family``) when it answers ``verb``?"""
        return verb in option.verbs and (family == cls.family()
                                         or (option.kernel and verb not in cls.answers_itself))

    @staticmethod
    def known() -> list[type["System"]]:
        """The systems imported so far (each once)."""
        return list(dict.fromkeys(_BY_PACK.values()))

    # ------------------------------------------------------------ questions
    @classmethod
    def answers(cls, verb: str) -> bool:
        return verb in cls.verbs

    @classmethod
    def require_verb(cls, verb: str) -> None:
        """Bad input, exit 2, when the system does not answer ``verb``."""
        if verb not in cls.verbs:
            raise WarcouncilError(
                f"`{verb}` makes no sense for {cls.title or cls.name} scenarios",
                hint="it answers: " + ", ".join(v for v in VERBS if v in cls.verbs))

    @staticmethod
    def meanings_for(pack: "Pack"):
        """The builtin meanings a pack is compiled with: those of the system
        that plays it, or the kernel's alone when none does."""
        try:
            return System.for_pack(pack).builtin_meanings()
        except WarcouncilError:
            from .builtins import KERNEL_MEANINGS

            return KERNEL_MEANINGS

    @staticmethod
    def structural_for(pack: "Pack") -> dict[str, str]:
        """The structural builtins of the system that plays ``pack`` (none
        when no system does)."""
        try:
            return dict(System.for_pack(pack).structural)
        except WarcouncilError:
            return {}

    @classmethod
    def builtin_meanings(cls):
        """The kernel's builtin meanings and the family's (made once)."""
        made = cls.__dict__.get("_all_meanings")
        if made is None:
            from .builtins import KERNEL_MEANINGS

            made = KERNEL_MEANINGS | cls.meanings if cls.meanings is not None else KERNEL_MEANINGS
            cls._all_meanings = made
        return made

    @classmethod
    def piece_attributes(cls, piece, role: str, attrs: dict) -> None:
        """Add to ``attrs`` (a piece's attributes, its unit type's already
        there) what the system reads from the scenario's piece itself."""

    @classmethod
    def check_scenario(cls, scenario) -> None:
        """Bad input (a located ``WarcouncilError``) in a scenario the
        kernel's schema accepts but the game does not (checked at load)."""

    @classmethod
    def check_setup(cls, scenario, pack) -> None:
        """Bad input in a scenario given the pack it plays (its unit types):
        checked when an engine is made."""

    @staticmethod
    def for_scenario(name: object, target: str | None = None) -> type["System"]:
        """The system that plays the pack a scenario names (``system:``): by
        its name, else (``target``: the pack's folder or file, for a pack of
        the scenario's own) by the packs it extends; the kernel's defaults
        (``System``) when none does."""
        if isinstance(name, str):
            try:
                return System.for_pack(name)
            except WarcouncilError:
                pass
        if target is not None:
            from ..dsl.pack import load_pack

            try:
                return System.for_pack(load_pack(target, strict=False))
            except WarcouncilError:
                pass
        return System

    @classmethod
    def carried(cls, state, piece, start, listed) -> list:
        """The pieces that go along when ``piece`` moves from ``start`` (on
        the positions ``state``), not being ``listed`` with moves of their
        own in the turn. None, unless the system says so."""
        return []

    @classmethod
    def may_repeat(cls, state, piece, at) -> bool:
        """May a turn list ``piece`` again, in the same phase, to the hex
        ``at`` it stands on (on the positions ``state``) without that being
        a move (check's "moves twice")? No, unless the system says so."""
        return False

    @classmethod
    def hook(cls, role: str) -> str | None:
        """The name of the pack define that answers the kernel's question
        ``role``, if the system asks it."""
        return cls.hooks.get(role)


_BOARDS_MADE: dict = {}


def named_board(name: object, where: Location | None = None, system: type[System] | None = None):
    """The board a scenario names (``board: cca``), made once: one of
    ``system``'s named boards, else of any system imported or registered as
    an entry point. An unknown name is bad input at ``where``."""
    systems = ([system] if system is not None else []) + System.known()
    for s in systems:
        if isinstance(name, str) and name in s.named_boards:
            break
    else:
        systems = _all_systems()
        s = next((s for s in systems if isinstance(name, str) and name in s.named_boards), None)
        if s is None:
            known = sorted({n for s in systems for n in s.named_boards})
            near = closest(str(name), known)
            raise WarcouncilError(
                f"unknown board {name!r}; known boards: {', '.join(known) or 'none'}", where,
                hint=f"did you mean {' or '.join(near)}?" if near else None)
    key = (s, name)
    board = _BOARDS_MADE.get(key)
    if board is None:
        board = _BOARDS_MADE[key] = s.named_boards[name]()
    return board


def _all_systems() -> list[type[System]]:
    """Every system: those imported and those registered as entry points."""
    for ep in entry_points(group=_ENTRY_POINTS):
        if ep.name not in _BY_PACK:
            _from_entry_point(ep.name)
    return System.known()


def _from_entry_point(name: str) -> type[System] | None:
    """The system of entry point ``name``: warcouncil's own, else any
    installed distribution's (a plug-in)."""
    found = list(shipped_entry_points(group=_ENTRY_POINTS, name=name))
    for ep in found or entry_points(group=_ENTRY_POINTS, name=name):
        cls = ep.load()
        if not (isinstance(cls, type) and issubclass(cls, System)):
            raise WarcouncilError(f"entry point {ep.value!r} for pack {name!r} is not a System")
        _BY_PACK.setdefault(name, cls)
        return _BY_PACK[name]
    return None
