"""The rule language's abstract syntax: small immutable dataclasses.

Every node carries ``loc`` (file, line, column) for diagnostics; ``loc`` is
left out of equality so that two texts that mean the same compare equal.

The annotations are evaluated as the classes are made (no ``from __future__
import annotations``): ``dataclass`` then sees types, not strings it would
match against ``ClassVar`` with a regular expression, field by field (~1 ms
of every process's start, issue 15).
"""

from dataclasses import field, fields

from ..errors import Location
from ..records import record

_NOLOC = Location()


def _node(cls=None, *, eq: bool = True):
    """A frozen ``record`` (``eq=False``: equal only to itself): a dataclass
    whose methods are shared, not generated for each class (the classes of
    this module are made in every process; issue 15). Nodes read back from
    the cache of parsed rule files are made without ``__init__``
    (``packcache.decode``)."""
    return record(cls, eq=eq, doc="The rule language's ``{name}``.")


def _loc() -> Location:
    return field(default=_NOLOC, compare=False, repr=False)


# ---------------------------------------------------------------- expressions


class Expr:
    """Base class of expression nodes."""

    loc: Location


@_node
class Num(Expr):
    value: int | float
    loc: Location = _loc()


@_node
class Str(Expr):
    value: str
    loc: Location = _loc()


@_node
class Const(Expr):
    """``true``, ``false`` or ``none``."""

    value: bool | None
    loc: Location = _loc()


@_node(eq=False)
class Value(Expr):
    """A value the solver has already worked out (partial evaluation of a
    rule for one piece: ``solver.partial``). Never parsed nor printed as
    rule text; equal only to itself."""

    value: object
    loc: Location = _loc()


@_node
class Name(Expr):
    """A bare name: a bound variable, a builtin, a definition or a symbol."""

    id: str
    loc: Location = _loc()


@_node
class Attr(Expr):
    obj: Expr
    name: str
    loc: Location = _loc()


@_node
class Call(Expr):
    func: str
    args: tuple[Expr, ...]
    loc: Location = _loc()


@_node
class BinOp(Expr):
    op: str  # + - * /
    left: Expr
    right: Expr
    loc: Location = _loc()


@_node
class Neg(Expr):
    operand: Expr
    loc: Location = _loc()


@_node
class Compare(Expr):
    op: str  # == != < <= > >= in notin
    left: Expr
    right: Expr
    loc: Location = _loc()


@_node
class Not(Expr):
    operand: Expr
    loc: Location = _loc()


@_node
class And(Expr):
    items: tuple[Expr, ...]
    loc: Location = _loc()


@_node
class Or(Expr):
    items: tuple[Expr, ...]
    loc: Location = _loc()


@_node
class Implies(Expr):
    left: Expr
    right: Expr
    loc: Location = _loc()


@_node
class IfElse(Expr):
    cond: Expr
    then: Expr
    other: Expr
    loc: Location = _loc()


@_node
class Quant(Expr):
    kind: str  # forall | exists
    var: str
    domain: Expr
    body: Expr
    loc: Location = _loc()


@_node
class SetComp(Expr):
    var: str
    domain: Expr
    cond: Expr | None
    loc: Location = _loc()


@_node
class The(Expr):
    """``the x in S where cond``: the first such element, or none."""

    var: str
    domain: Expr
    cond: Expr
    loc: Location = _loc()


# ----------------------------------------------------------------- statements


@_node
class Citation:
    document: str  # alias declared with `document`
    quote: str
    loc: Location = _loc()


@_node
class PackDecl:
    name: str
    title: str
    loc: Location = _loc()


@_node
class Extends:
    pack: str
    alias: str | None = None  # `extends core as cca`: core.* ids become cca.*
    loc: Location = _loc()


@_node
class DocumentDecl:
    alias: str
    path: str
    loc: Location = _loc()
    title: str | None = None  # `document ALIAS "file" title "…"`: what players read instead of the file name


@_node
class SectionsDecl:
    names: tuple[str, ...]
    loc: Location = _loc()


@_node
class DiceDecl:
    faces: tuple[str, ...]
    loc: Location = _loc()


@_node
class FieldsDecl:
    """``fields a, b: T``: attributes of the records a pack's builtins give,
    each with its type (``types``, parallel to ``names``; None where the
    file gives none)."""

    names: tuple[str, ...]
    types: tuple[str | None, ...] = ()
    loc: Location = _loc()


@_node
class ValuesDecl:
    attribute: str
    members: tuple[str, ...]
    loc: Location = _loc()


@_node
class RolesDecl:
    """``roles unit, leader``: the roles of the pack's pieces (also symbols)."""

    names: tuple[str, ...]
    citations: tuple[Citation, ...] = ()
    loc: Location = _loc()


@_node
class EffectDecl:
    """One name of ``effects NAME from DOC "quote", ...``: something a card
    may do, citing the card text it stands for. Rules test
    ``NAME in card.effects``, never a card's printed name."""

    name: str
    citations: tuple[Citation, ...] = ()
    loc: Location = _loc()


@_node
class EffectsDecl:
    effects: tuple[EffectDecl, ...]
    loc: Location = _loc()


class _Attrs:
    """A declaration with ``attrs``: (key, value) pairs."""

    def attr(self, key: str, default=None):
        for k, v in self.attrs:
            if k == key:
                return v
        return default


@_node
class UnitDecl(_Attrs):
    name: str
    attrs: tuple[tuple[str, object], ...]
    citations: tuple[Citation, ...]
    loc: Location = _loc()
    replace: bool = False


@_node
class TerrainDecl(_Attrs):
    name: str
    attrs: tuple[tuple[str, object], ...]
    citations: tuple[Citation, ...]
    loc: Location = _loc()


@_node
class Quota:
    amount: Expr | str  # an expression (``up to N``), "all" or "any"
    what: str  # units | leaders | pieces
    where: Expr | None
    loc: Location = _loc()


@_node
class Group:
    kind: str  # linked | led
    anchor: Expr | None = None  # for `led by ROLE where ...`
    loc: Location = _loc()
    role: str | None = None  # for `led by ROLE`: the role of the piece leading the group


@_node
class Alternative:
    """One way of using a card: a list of quotas, maybe one linked group.

    ``kind`` is ``orders`` (the card's main text), ``instead`` (an
    unconditional alternative, e.g. "or one unit of your choice") or
    ``otherwise`` (allowed only ``when`` its condition holds).
    """

    kind: str
    when: Expr | None
    quotas: tuple[Quota, ...]
    group: Group | None
    loc: Location = _loc()


@_node
class CardField:
    """``NAME = value`` in a card: a field its pack declares (``card
    fields``). As parsed, ``value`` is an expression (a tuple of them for
    ``a, b``); the pack makes it the field's value (``CardDecl.get``)."""

    name: str
    value: object
    loc: Location = _loc()


@_node
class CardFieldsDecl:
    """``card fields NAME: TYPE [= DEFAULT], ...``: what a pack's cards have.
    A type ``expr[T]`` keeps the card's expression for the engine to
    evaluate; other types take a constant."""

    names: tuple[str, ...]
    types: tuple[str, ...]
    defaults: tuple[object, ...]  # a literal's value, or None
    words: tuple[str | None, ...]  # what a message calls each ("the dice rolled"), or None
    loc: Location = _loc()


@_node
class CardDecl:
    name: str
    fields: tuple[CardField, ...]
    alternatives: tuple[Alternative, ...]
    citations: tuple[Citation, ...]
    replace: bool = False
    loc: Location = _loc()
    effects: tuple[str, ...] = ()  # `effect NAME, ...`: what rules test (``card.effects``)
    effect_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)  # each name's place

    def get(self, name: str, default: object = None) -> object:
        """The value of field ``name`` (as its pack made it), else ``default``."""
        for f in self.fields:
            if f.name == name:
                return f.value
        return default


@_node
class RuleDecl:
    id: str
    citations: tuple[Citation, ...]
    body: Expr
    message: str | None
    replace: bool = False
    loc: Location = _loc()
    message_loc: Location | None = field(default=None, compare=False, repr=False)  # the message string's place


@_node
class DefineDecl:
    id: str
    citations: tuple[Citation, ...]
    name: str
    params: tuple[str, ...]
    body: Expr
    replace: bool = False
    loc: Location = _loc()


@_node
class RollDecl:
    """``roll ID from DOC "quote" NAME(p, q = v) dice d1, d2 := EXPR``: the
    dice of a test and how their faces combine: ``body`` gives the outcome
    of the faces ``dice`` (each 1-6) for the arguments ``params`` the
    engine binds; ``defaults`` gives a value to those that have one (a
    literal's value; a parameter not given and without one is none). The
    kernel works out its exact law (``kernel/rolls.py``)."""

    id: str
    citations: tuple[Citation, ...]
    name: str
    params: tuple[str, ...]
    defaults: tuple[tuple[str, object], ...]
    dice: tuple[str, ...]
    body: Expr
    replace: bool = False
    loc: Location = _loc()

    def signature(self) -> str:
        return f"{self.name}({', '.join(self.params)}) dice {', '.join(self.dice)}"


@_node
class BuiltinDecl:
    """``builtin NAME(T, ...) -> T reads LEVEL "doc"``: a builtin of the pack's
    game family (its meaning is registered in Python under the same name;
    see ``dsl.builtins``). ``params`` is None for a constant."""

    name: str
    params: tuple[str, ...] | None
    returns: str
    reads: str
    doc: str
    loc: Location = _loc()


@_node
class HookDecl:
    """``hook [optional|every] NAME(a, b) "doc"``: a define the pack's game
    family's engine calls by name, with as many arguments as ``params``
    names, and what the engine expects of it. ``optional``: the engine asks
    only when the pack defines it; ``every``: ``name`` is a prefix, and the
    engine calls every define whose name begins with it (none or many)."""

    name: str
    params: tuple[str, ...]
    doc: str
    optional: bool = False
    loc: Location = _loc()
    every: bool = False

    def signature(self) -> str:
        return f"{self.name}{'*' if self.every else ''}({', '.join(self.params)})"


@_node
class TurnStep:
    """``step NAME: MODE KIND, ... "doc"`` of a ``turn``: ``mode`` is
    ``decide`` (one action of its kinds), ``chance`` (one outcome of the
    dice) or ``repeat`` (any number of actions, closed by a later step's)."""

    name: str
    mode: str
    kinds: tuple[str, ...]
    doc: str = ""
    loc: Location = _loc()


@_node
class TurnDecl:
    """``turn ID from DOC "quote" step ...``: a family's turn as the game
    interface plays it, its steps in order (``kernel/game.py`` walks them);
    with ``frame`` (``turn ID for KIND``), the frame of one action of that
    kind instead: the steps its procedure walks (``kernel.game.Frame``)."""

    id: str
    citations: tuple[Citation, ...]
    steps: tuple[TurnStep, ...]
    replace: bool = False
    loc: Location = _loc()
    frame: str | None = None

    def step_of(self, kind: str) -> int | None:
        """The index of the step whose actions are of ``kind``, or None."""
        return next((i for i, s in enumerate(self.steps) if kind in s.kinds), None)


@_node
class RemoveDecl:
    kind: str  # rule | define | card
    target: str
    loc: Location = _loc()


@_node
class ChangeUnit:
    """``change unit NAME { k = v; ... }``: a house rule setting only the
    attributes given; the unit type keeps the others."""

    name: str
    attrs: tuple[tuple[str, object], ...]
    loc: Location = _loc()
    attr_locs: tuple[Location, ...] = field(default=(), compare=False, repr=False)  # each attribute's place


@_node
class ChangeDefine:
    """``change define ID [from ...] [when COND] := EXPR``: a house rule giving
    a define a new body, its name and parameters kept. With ``when`` (a
    Catala-style exception) the new body holds only where ``COND`` does,
    the old one elsewhere."""

    id: str
    citations: tuple[Citation, ...]
    when: Expr | None
    body: Expr
    loc: Location = _loc()


Statement = (
    PackDecl
    | Extends
    | DocumentDecl
    | SectionsDecl
    | DiceDecl
    | ValuesDecl
    | FieldsDecl
    | UnitDecl
    | TerrainDecl
    | CardDecl
    | CardFieldsDecl
    | RuleDecl
    | DefineDecl
    | RemoveDecl
    | ChangeUnit
    | ChangeDefine
    | RolesDecl
    | EffectsDecl
    | BuiltinDecl
    | HookDecl
    | TurnDecl
    | RollDecl
)


@_node
class RuleFile:
    path: str
    statements: tuple[Statement, ...]


# ------------------------------------------------------------------ utilities


def children(n) -> tuple:
    """The expressions directly below ``n`` (a binder's domain first, then
    the parts that see its variable; ``None`` for a missing condition)."""
    if isinstance(n, Attr):
        return (n.obj,)
    if isinstance(n, Call):
        return n.args
    if isinstance(n, (BinOp, Compare, Implies)):
        return (n.left, n.right)
    if isinstance(n, (Neg, Not)):
        return (n.operand,)
    if isinstance(n, (And, Or)):
        return n.items
    if isinstance(n, IfElse):
        return (n.cond, n.then, n.other)
    if isinstance(n, Quant):
        return (n.domain, n.body)
    if isinstance(n, (SetComp, The)):
        return (n.domain, n.cond)
    return ()


def with_children(n, kids) -> "Expr":
    """``n`` with the expressions directly below it replaced (in the order
    of ``children``)."""
    import dataclasses

    kids = tuple(kids)
    if isinstance(n, Attr):
        return dataclasses.replace(n, obj=kids[0])
    if isinstance(n, Call):
        return dataclasses.replace(n, args=kids)
    if isinstance(n, (BinOp, Compare, Implies)):
        return dataclasses.replace(n, left=kids[0], right=kids[1])
    if isinstance(n, (Neg, Not)):
        return dataclasses.replace(n, operand=kids[0])
    if isinstance(n, (And, Or)):
        return dataclasses.replace(n, items=kids)
    if isinstance(n, IfElse):
        return dataclasses.replace(n, cond=kids[0], then=kids[1], other=kids[2])
    if isinstance(n, Quant):
        return dataclasses.replace(n, domain=kids[0], body=kids[1])
    if isinstance(n, (SetComp, The)):
        return dataclasses.replace(n, domain=kids[0], cond=kids[1])
    return n


def scoped(n, bound: frozenset):
    """``(child, names bound there)`` for each expression directly below ``n``:
    a binder's variable is bound in its body or condition, not its domain."""
    if isinstance(n, (Quant, SetComp, The)):
        domain, body = children(n)
        return ((domain, bound), (body, bound | {n.var}))
    return tuple((c, bound) for c in children(n))


def statement_name(st) -> str:
    """A rule, define, roll or card statement named for a message (``rule
    cca.x``, ``define core.y``, ``roll ga.roll.lines``, ``card 'Line Command'``)."""
    if isinstance(st, CardDecl):
        return f"card {st.name!r}"
    kind = "rule" if isinstance(st, RuleDecl) else "roll" if isinstance(st, RollDecl) else "define"
    return f"{kind} {st.id}"


def statement_exprs(st):
    """Each expression of a rule, define, roll or card statement, with the
    names it binds there and their types: a define's or roll's parameters
    (``any``), a roll's dice (``int``), a quota's ``it`` (``piece``)."""
    if isinstance(st, RuleDecl):
        yield st.body, {}
    elif isinstance(st, DefineDecl):
        yield st.body, {p: "any" for p in st.params}
    elif isinstance(st, RollDecl):  # (its dice are faces)
        yield st.body, {**{p: "any" for p in st.params}, **{d: "int" for d in st.dice}}
    elif isinstance(st, CardDecl):
        for f in st.fields:
            if isinstance(f.value, Expr):
                yield f.value, {}
        for alt in st.alternatives:
            if alt.when is not None:
                yield alt.when, {}
            for q in alt.quotas:
                if isinstance(q.amount, Expr):
                    yield q.amount, {}
                if q.where is not None:
                    yield q.where, {"it": "piece"}
            if alt.group is not None and alt.group.anchor is not None:
                yield alt.group.anchor, {"it": "piece"}


def walk(node):
    """Yield ``node`` and every expression node below it (pre-order)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        yield n
        stack.extend(children(n))


def referenced(e) -> set[str]:
    """Free names and called functions of an expression (bound variables removed)."""
    if e is None:
        return set()
    names, funcs = _free(e)
    return set(names | funcs)


def free_names(e) -> set[str]:
    """The names free in an expression (a binder's variable is bound in its body)."""
    return set() if e is None else set(_free(e)[0])


def _free(n) -> tuple[frozenset, frozenset]:
    """(the names free in ``n``, the functions called in it), worked out
    once per node and kept on it (a node never changes; the key is no
    field: equality, hashing, ``fields`` and the cache's codec ignore it).
    A binder's variable is bound in its body or condition, not its domain;
    a called function's name is never a variable."""
    d = getattr(n, "__dict__", None)
    if d is None:  # not a node (a quota's "all"): nothing free
        return frozenset(), frozenset()
    hit = d.get("_free")
    if hit is not None:
        return hit
    if isinstance(n, Name):
        out = (frozenset((n.id,)), frozenset())
    else:
        names: set = set()
        funcs: set = {n.func} if isinstance(n, Call) else set()
        binder = isinstance(n, (Quant, SetComp, The))
        for i, c in enumerate(children(n)):
            if c is None:
                continue
            cn, cf = _free(c)
            names |= cn - {n.var} if binder and i == 1 else cn
            funcs |= cf
        out = (frozenset(names), frozenset(funcs))
    d["_free"] = out
    return out


def transform(node, fn):
    """Rebuild an expression bottom-up, replacing each node by ``fn(node)``.

    ``fn`` returns a replacement node or the node itself (sqlglot-style).
    """
    if node is None or not isinstance(node, Expr):
        return node
    changes = None
    d = node.__dict__
    names = _field_names(node.__class__)
    for name in names:
        v = d[name]
        if isinstance(v, Expr):
            nv = transform(v, fn)
            if nv is not v:
                changes = changes or {}
                changes[name] = nv
        elif isinstance(v, tuple) and v and isinstance(v[0], Expr):
            nv = tuple([transform(x, fn) for x in v])
            if any(a is not b for a, b in zip(nv, v)):
                changes = changes or {}
                changes[name] = nv
    if changes is not None:  # as dataclasses.replace(node, **changes) makes it (all are init fields;
        new = object.__new__(node.__class__)  # memos such as ``_free`` are not carried over)
        new.__dict__.update({name: changes.get(name, d[name]) for name in names})
        node = new
    return fn(node)


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names
