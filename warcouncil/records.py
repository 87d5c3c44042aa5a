"""``record``: a dataclass that costs almost nothing to define.

``@dataclass`` writes the source of ``__init__`` (and, frozen, of
``__setattr__``/``__delattr__``; with ``eq``, of ``__eq__``) for every class
and compiles it: about half a millisecond a class, and the command line
defines some sixty classes in every process (issue 15, start-up). A
``record`` is a real dataclass (``dataclasses.fields``, ``replace`` and
``asdict`` work on it), but ``dataclass`` is asked only for its fields; the
methods are the shared functions below, which behave as the generated ones
do:

* ``__init__`` takes the fields marked ``init`` positionally or by name,
  fills in defaults and default factories (also of ``init=False`` fields
  that have one), raises the same ``TypeError``s, then calls
  ``__post_init__`` if the class has one;
* frozen: assigning or deleting an attribute raises ``FrozenInstanceError``
  (``object.__setattr__`` still works, as ``__post_init__`` uses it);
* ``eq``: equal when of the same class with equal compared fields; frozen
  records hash as the generated ``__hash__`` does (the tuple of compared
  fields), mutable ones are unhashable, as with ``dataclass``;
* ``repr``: ``Class(field=value, ...)`` over the fields marked ``repr``;
* a method the class defines itself is kept, as ``dataclass`` keeps it.

The bottom layer of the package: it imports nothing of warcouncil.
"""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, fields
from operator import attrgetter

__all__ = ["record"]


def record(cls=None, *, frozen: bool = True, eq: bool = True, doc: str | None = None):
    """Make ``cls`` a dataclass as described in the module's docstring
    (``@record``, ``@record(frozen=False)``, ``@record(eq=False)``). A class
    with no docstring gets ``doc`` (formatted with ``name``), or one naming
    the class (``dataclass`` would work one out of the signature)."""

    def wrap(cls):
        if cls.__doc__ is None:
            cls.__doc__ = (doc or "``{name}``.").format(name=cls.__name__)
        cls = dataclass(init=False, eq=False, repr=False)(cls)
        fs = fields(cls)
        cls._shown = tuple(f.name for f in fs if f.repr)
        cls._init = (
            tuple(f.name for f in fs if f.init),
            frozenset(f.name for f in fs if f.init),
            {f.name: f.default for f in fs if f.default is not MISSING},
            {f.name: f.default_factory for f in fs if f.default_factory is not MISSING},
            tuple(f.name for f in fs if not f.init and (f.default is not MISSING or f.default_factory is not MISSING)),
            getattr(cls, "__post_init__", None),
        )
        own = dict(cls.__dict__)
        explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)

        def put(name, value):  # as dataclass does: never over a method the class defines
            if name not in own:
                setattr(cls, name, value)

        put("__init__", _init)
        if frozen:
            put("__setattr__", _frozen)
            put("__delattr__", _frozen)
        if eq:
            keys = tuple(f.name for f in fs if f.compare)
            if len(keys) > 1:
                cls._key = staticmethod(attrgetter(*keys))
            elif keys:
                cls._key = staticmethod(lambda o, k=keys[0]: (getattr(o, k),))
            else:
                cls._key = staticmethod(lambda o: ())
            put("__eq__", _eq)
            if not explicit_hash:
                cls.__hash__ = _hash if frozen else None
        put("__repr__", _repr)
        return cls

    return wrap if cls is None else wrap(cls)


def _init(self, *args, **kw):
    names, nameset, defaults, factories, later, post = self._init
    d = self.__dict__
    if not kw and len(args) == len(names):  # every field given in order, or
        d.update(zip(names, args))
    elif not args and len(kw) == len(names) and kw.keys() == nameset:  # by name (dataclasses.replace)
        d.update(kw)
    else:
        _fill(self, d, names, defaults, factories, args, kw)
    for name in later:
        d[name] = defaults[name] if name in defaults else factories[name]()
    if post is not None:
        post(self)


def _fill(self, d, names, defaults, factories, args, kw):
    if len(args) > len(names):
        raise TypeError(f"{type(self).__name__}() takes {len(names)} arguments but {len(args)} were given")
    for name, value in zip(names, args):
        if name in kw:
            raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
        d[name] = value
    for name in names[len(args):]:
        if name in kw:
            d[name] = kw.pop(name)
        elif name in defaults:
            d[name] = defaults[name]
        elif name in factories:
            d[name] = factories[name]()
        else:
            raise TypeError(f"{type(self).__name__}() missing required argument: {name!r}")
    if kw:
        raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {next(iter(kw))!r}")


def _frozen(self, name, *value):
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _eq(self, other):
    if other.__class__ is self.__class__:
        key = self._key
        return key(self) == key(other)
    return NotImplemented


def _hash(self):
    return hash(self._key(self))


def _repr(self):
    return f"{self.__class__.__qualname__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self._shown)})"
