"""The meanings of the kernel's builtins (declared in ``warcouncil.dsl.builtins``).

A meaning is a Python function registered under the builtin's name: a
constant's is ``f(ctx, setting)``, a function's ``f(ctx, setting, args)``
(``ctx`` is the evaluation context, ``ground.Ctx``; ``setting`` is
``ctx.g.setting``; ``args`` the tuple of evaluated arguments). A game
family's meanings are a separate ``Meanings`` (``systems.cc.builtins.CC`` for
Commands & Colors).

The kernel's meanings are checked against ``KERNEL`` when this module is
imported: a declared builtin without a meaning, or a meaning without a
declaration, raises at once. A pack's own declarations are checked when a
``Compiler`` is made for it (``Meanings.check_pack``).
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..dsl.builtins import KERNEL, Vocabulary
from ..errors import WarcouncilError
from .ground import PieceView
from .state import Positions

Constant = Callable  # f(ctx, setting)
Function = Callable  # f(ctx, setting, args)


class Meanings:
    """Builtin meanings by name: ``constants`` and ``functions``."""

    def __init__(self, name: str):
        self.name = name
        self.constants: dict[str, Constant] = {}
        self.functions: dict[str, Function] = {}

    def constant(self, name: str, fn: Constant | None = None):
        """Register a constant's meaning (or, without ``fn``, a decorator that does)."""
        if fn is None:
            return lambda f: self.constant(name, f)
        self._fresh(name)
        self.constants[name] = fn
        return fn

    def function(self, name: str, fn: Function | None = None):
        """Register a function's meaning (or, without ``fn``, a decorator that does)."""
        if fn is None:
            return lambda f: self.function(name, f)
        self._fresh(name)
        self.functions[name] = fn
        return fn

    def _fresh(self, name: str) -> None:
        if name in self.constants or name in self.functions:
            raise WarcouncilError(f"builtin {name} has two meanings in {self.name}")

    def names(self) -> set[str]:
        return set(self.constants) | set(self.functions)

    def __or__(self, other: "Meanings") -> "Meanings":
        out = Meanings(f"{self.name} + {other.name}")
        for m in (self, other):
            for n, f in m.constants.items():
                out.constant(n, f)
            for n, f in m.functions.items():
                out.function(n, f)
        return out

    def missing(self, builtins: Iterable) -> list[str]:
        """The builtins (``dsl.builtins.Builtin``) with no meaning of their kind here."""
        return [b.name for b in builtins
                if (b.params is None and b.name not in self.constants)
                or (b.params is not None and b.name not in self.functions)]

    def check_exactly(self, vocabulary: Vocabulary) -> None:
        """Every builtin of ``vocabulary`` has a meaning here, and nothing else does."""
        missing = self.missing(vocabulary.values())
        extra = sorted(self.names() - set(vocabulary))
        if missing or extra:
            raise WarcouncilError(
                f"the builtins of {self.name} do not match their declarations:"
                + (f" no meaning for {', '.join(sorted(missing))}" if missing else "")
                + (f"; a meaning but no declaration for {', '.join(extra)}" if extra else ""))

    def check_pack(self, pack) -> None:
        """Every builtin a pack's vocabulary declares has a meaning here."""
        vocab = pack.vocabulary
        missing = self.missing(vocab.values())
        if missing:
            b = vocab[missing[0]]
            raise WarcouncilError(
                f"pack {pack.title or pack.name or '?'} declares builtin {', '.join(missing)}"
                f" ({b.origin}), which has no meaning in Python",
                b.loc, hint=f"register it in the game family's builtins ({self.name})")


KERNEL_MEANINGS = Meanings("the kernel")
K = KERNEL_MEANINGS

# ---------------------------------------------------------------- arithmetic
K.function("count", lambda ctx, s, a: len(a[0]))  # (the compiler inlines it as len)


def _turn_step(ctx, s, a):  # pragma: no cover - the compiler binds the pack's turn (Compiler._c_Call)
    raise WarcouncilError("turn_step is compiled with its pack's turn")


K.function("turn_step", _turn_step)


def _extreme(f, args):
    """min/max of the values that are there (a missing attribute is none)."""
    values = [v for v in args if v is not None]
    return f(values) if values else None


K.function("min", lambda ctx, s, a: _extreme(min, a))
K.function("max", lambda ctx, s, a: _extreme(max, a))
K.function("abs", lambda ctx, s, a: abs(a[0]))

# ---------------------------------------------------------------- the setting
K.constant("pieces", lambda ctx, s: s.own_pieces)
K.constant("side", lambda ctx, s: s.side_view)
K.function("adjacent", lambda ctx, s, a: s.adjacent(*a))


@K.function("distance")
def _distance(ctx, s, args):
    a, b = (s.cell_of(x) for x in args)
    if a is None or b is None:
        return None
    if s.board.grid == "table":
        return s.board.measure(a, b)  # centimetres on a measured table
    return s.board.distance(a, b)


@K.function("line")
def _line(ctx, s, args):
    a, b = (s.cell_of(x) for x in args)
    if a is None or b is None:
        return ()
    if s.board.grid != "hex":
        raise WarcouncilError("line() needs a hex board")
    return s.board.line(a, b)


@K.function("terrain_at")
def _terrain_at(ctx, s, args):
    return s.terrain.get(s.cell_of(args[0]))


@K.function("on_board")
def _on_board(ctx, s, args):
    c = s.cell_of(args[0])
    return c is not None and s.board.contains(c)


# ---------------------------------------------------------------- the decision
K.constant("ordered", lambda ctx, s: ctx.ordered)


@K.function("orders")
def _orders(ctx, s, args):
    if ctx.orders is not None:
        return ctx.orders.get(args[0], 0)
    return 1 if args[0] in ctx.ordered else 0


# ---------------------------------------------------------------- a moment of the turn
def _state(ctx, s):
    """The positions at the context's moment (the start of the turn if none)."""
    if ctx.state is None:
        ctx.state = Positions.initial(s)
    return ctx.state


K.constant("earlier", lambda ctx, s: ctx.earlier)
K.function("moved_before", lambda ctx, s, a: any(m.piece is a[0] for m in ctx.earlier))
K.function("position", lambda ctx, s, a: _state(ctx, s).where.get(a[0]))

# ---------------------------------------------------------------- the whole turn
K.constant("moves", lambda ctx, s: ctx.turn.moves if ctx.turn else ())
K.constant("battles", lambda ctx, s: ctx.turn.battles if ctx.turn else ())


@K.function("moved")
def _moved(ctx, s, args):
    return bool(ctx.turn) and any(m.piece is args[0] for m in ctx.turn.moves)


@K.function("final")
def _final(ctx, s, args):
    p = args[0]
    if ctx.turn:
        for m in reversed(ctx.turn.moves):
            if m.piece is p:
                return m.to
    return p.at if isinstance(p, PieceView) else None


@K.function("last_move")
def _last_move(ctx, s, args):
    if ctx.turn:
        for m in reversed(ctx.turn.moves):
            if m.piece is args[0]:
                return m
    return None


@K.function("moved_length")
def _moved_length(ctx, s, args):
    if not ctx.turn:
        return 0
    return sum(getattr(m, "length", 0) or 0 for m in ctx.turn.moves if m.piece is args[0])


@K.function("battles_of")
def _battles_of(ctx, s, args):
    if not ctx.turn:
        return ()
    return tuple(b for b in ctx.turn.battles if b.piece is args[0])


# ---------------------------------------------------------------- the pools of a role
_ROLE_MEANINGS: dict[tuple[str, ...], Meanings] = {}


def role_meanings(roles: tuple[str, ...]) -> Meanings:
    """The meanings of the pools of the roles a pack declares
    (``dsl.builtins.role_builtins``), made once per tuple of roles."""
    hit = _ROLE_MEANINGS.get(roles)
    if hit is None:
        hit = _ROLE_MEANINGS[roles] = Meanings("the pools of roles " + ", ".join(roles))
        for role in roles:
            _pools(hit, role)
    return hit


_WITH_ROLES: dict = {}


def with_roles(meanings: Meanings, roles: tuple[str, ...]) -> Meanings:
    """``meanings`` and those of the pools of ``roles`` (a pack's), made
    once per pair: what a pack is compiled with (``Compiler``)."""
    if not roles or all(r + "s" in meanings.constants for r in roles):
        return meanings
    key = (id(meanings), roles)
    hit = _WITH_ROLES.get(key)
    if hit is None or hit[0] is not meanings:
        hit = _WITH_ROLES[key] = (meanings, meanings | role_meanings(roles))
    return hit[1]


def _pools(m: Meanings, role: str) -> None:
    many = role + "s"
    m.constant(many, lambda ctx, s: s.own_of.get(role, _NONE))
    m.constant("enemy_" + many, lambda ctx, s: s.enemy_of.get(role, _NONE))
    m.constant("all_" + many, lambda ctx, s: s.all_of.get(role, _NONE))

    def at(ctx, s, a):
        on = s.at_of.get(role)
        return on.get(s.cell_of(a[0])) if on is not None else None

    def on(ctx, s, a):
        k = s.slot.get(role)
        if k is None:
            return None
        occupants = _state(ctx, s).on.get(s.cell_of(a[0]))
        return occupants[k] if occupants is not None else None
    m.function(role + "_at", at)
    m.function(role + "_on", on)


_NONE: frozenset = frozenset()

KERNEL_MEANINGS.check_exactly(KERNEL)  # a missing or extra meaning fails here, at import
