"""The schema framework: the tables by which a YAML file of the package is
checked (a scenario, a turn, a system's own files), each field its type and
its range. A field is checked by its ``Field``; the messages name the field,
what it must be and the value found, at the value's place. The same tables
give the JSON Schema the contract publishes for editors (``file_schema``;
the scenario's own: ``kernel.scenario.json_schema``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from warcouncil.errors import Location, WarcouncilError, bounded, closest
from warcouncil.records import record
from warcouncil.world.ydoc import YDict, YList

#: Bounds on what a scenario may say: far above any real battle, far below
#: what would hurt.
MAX_ID_LENGTH = 64
MAX_NAME_LENGTH = 200  # a scenario's or a board's name: a title ("Akragas (406 BC) – the Carthaginian attack, ...")
MAX_COMMAND = 100  # a side's command (C&C: cards held; 6 at most in the games)
MAX_BLOCKS = 10  # a piece's blocks (C&C: at most 4; the pack's unit type bounds it further)
MAX_PIECES = 1000


@record
class Field:
    """One field of an entry: what it must be, in words (for messages), a
    test of a value, and its JSON Schema. A list field may check ``each``
    item (a ``Field``, ``Record`` or ``AnyOf``) at the item's own place;
    ``default``: its value when a ``Record`` entry does not give it."""

    what: str
    ok: Any  # value -> bool
    schema: dict
    each: Any = None
    default: Any = None

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        """``value`` (of ``whose`` field ``key``, at ``where``), or bad input there."""
        if not self.ok(value):
            choices = self.schema.get("enum")
            raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {describe(value)}", where,
                                  hint=did_you_mean(value, choices) if choices and isinstance(value, str) else None)
        if self.each is not None and isinstance(value, list):
            for i, item in enumerate(value):
                self.each.check(item, _item_at(value, i, where), whose, f"{key}[{i + 1}]")
        elif self.each is not None and isinstance(value, dict):  # a mapping of names to one kind of value
            for k, item in value.items():
                self.each.check(item, getattr(value, "value_where", {}).get(k, where), whose, f"{key}: {k}")
        return value


@record
class AnyOf:
    """A field that may take one of several forms (``Field``/``Record``):
    a value is checked by the first form whose ``ok`` takes it."""

    forms: tuple
    default: Any = None

    @property
    def what(self) -> str:
        return " or ".join(f.what for f in self.forms)

    def ok(self, value: Any) -> bool:
        return any(f.ok(value) for f in self.forms)

    @property
    def schema(self) -> dict:
        return {"anyOf": [f.schema for f in self.forms]}

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        for f in self.forms:
            if f.ok(value):
                return f.check(value, where, whose, key)
        raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {describe(value)}", where)


class _Inner(str):
    """The name of an entry that is not the whole file (``Record.name_of``)."""


@record
class ByKey:
    """A mapping that may be one of several ``Record``s, told apart by the
    key it has (a turn file's activation has ``unit``, an exchange has
    ``exchange``): checked by the first whose key it has."""

    what: str
    forms: dict  # key -> Record
    default: Any = None

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict) and any(k in value for k in self.forms)

    def form(self, value: Any) -> "Record":
        """The record of ``value`` (one ``ok`` takes)."""
        return next(r for k, r in self.forms.items() if k in value)

    @property
    def schema(self) -> dict:
        return {"anyOf": [r.schema for r in self.forms.values()]}

    def check(self, value: Any, where: Location, whose: str, key: str) -> Any:
        if not self.ok(value):
            raise WarcouncilError(f"{whose}: {key} must be {self.what}, not {describe(value)}", where)
        return self.form(value).check(value, where, whose, key)


@record
class Record:
    """One kind of entry of a file (a mapping): its fields, by key, in one
    declared place; which must be given; ``noun`` names an entry in
    messages, with the value of its ``label`` field (``unit r1``).
    ``check`` reads an entry, every field by its ``Field`` at its place;
    ``schema`` is its JSON Schema. A system reading files of its own shape
    declares one ``Record`` per kind of entry (``System.records``)."""

    what: str  # in words, "a unit"
    fields: dict
    required: tuple[str, ...] = ()
    noun: str = ""
    label: str | None = None
    default: Any = None
    #: keys refused with a word on why (e.g. the rolls of a plan)
    refused: dict = dataclasses.field(default_factory=dict)

    def ok(self, value: Any) -> bool:
        return isinstance(value, dict)

    @property
    def schema(self) -> dict:
        return {"type": "object", "additionalProperties": False, "required": list(self.required),
                "properties": {k: f.schema for k, f in self.fields.items()}}

    def name_of(self, m: Any, key: str | None = None, whose: str = "") -> str:
        """How messages name entry ``m`` (``key``: where it is, e.g. ``units[3]``;
        ``whose``: the entry it is in, named when that is not the file itself:
        ``side 'romans': command_points``)."""
        v = m.get(self.label) if self.label and isinstance(m, dict) else None
        if isinstance(v, (str, int)) and not isinstance(v, bool) and str(v).strip():
            return bounded(f"{self.noun or self.what} {v}", 60)
        if key and self.noun and key.endswith("]") and "[" in key:  # the n-th of its list
            key = f"{self.noun} {key[key.rindex('[') + 1:-1]}"
        if key and isinstance(whose, _Inner):
            return f"{whose}: {key}"
        return key or self.noun or self.what

    def check(self, value: Any, where: Location, whose: str = "", key: str | None = None) -> YDict:
        if not isinstance(value, dict):
            if key:
                raise WarcouncilError(f"{whose + ': ' if whose else ''}{key} must be {self.what} (a mapping), "
                                      f"not {describe(value)}", where)
            raise WarcouncilError(f"{self.what} must be a mapping, not {describe(value)}", where)
        me = self.name_of(value, key, whose)
        if key is not None:  # an entry inside the file: what is inside it names it
            me = _Inner(me)
        allowed = tuple(self.fields)
        here = getattr(value, "where", None) or where
        keys_at, values_at = getattr(value, "key_where", {}), getattr(value, "value_where", {})
        for k in value:
            if k in self.refused:
                raise WarcouncilError(f"{me}: {self.refused[k]}", keys_at.get(k, here))
            if k not in self.fields:
                raise WarcouncilError(f"unknown key {describe(k)} in {me}; expected {', '.join(allowed)}",
                                      keys_at.get(k, here), hint=did_you_mean(k, allowed))
        for k in self.required:
            if k not in value:
                raise WarcouncilError(f"{me} is missing {k!r}", here)
        for k, v in value.items():
            self.fields[k].check(v, values_at.get(k, here), me, k)
        return value

    def read(self, value: Any, where: Location, label: str | None = None) -> YDict:
        """A whole mapping of a file (``label``: how messages name it, else
        the record's own words), checked as ``check`` does."""
        return self.check(value, where, "", label)

    def get(self, m: YDict, key: str) -> Any:
        """``m[key]``, or the field's default when ``m`` does not give it."""
        return m[key] if key in m else self.fields[key].default

    def where(self, m: YDict, key: str) -> Location:
        """The place of ``m``'s ``key`` (its value's; the entry's when absent)."""
        return m.value_where.get(key, m.where)


def _item_at(seq: Any, i: int, default: Location) -> Location:
    items = getattr(seq, "item_where", None)
    return items[i] if items is not None and i < len(items) else default


def file_schema(record: Record, title: str) -> dict:
    """The JSON Schema of a whole file whose top is ``record``."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title, **record.schema}


def number_field(lo: float, hi: float, what: str = "a number", above: bool = False,
                 default: Any = None) -> Field:
    """A finite number from ``lo`` (or above it, ``above``) to ``hi``."""
    import math

    def ok(v: Any) -> bool:
        return (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and (v > lo if above else v >= lo) and v <= hi)
    words = f"{what} above {lo:g}, at most {hi:g}" if above else f"{what} from {lo:g} to {hi:g}"
    low = {"exclusiveMinimum": lo} if above else {"minimum": lo}
    return Field(words, ok, {"type": "number", **low, "maximum": hi}, default=default)


def int_field(lo: int, hi: int, what: str = "a whole number", default: Any = None) -> Field:
    """A whole number from ``lo`` to ``hi`` (no booleans, no floats)."""
    return Field(f"{what} from {lo} to {hi}", lambda v: is_int(v) and lo <= v <= hi,
                 {"type": "integer", "minimum": lo, "maximum": hi}, default=default)


def choice_field(choices: tuple[str, ...], default: Any = None) -> Field:
    """One of ``choices``."""
    return Field(f"one of {', '.join(choices)}", lambda v: isinstance(v, str) and v in choices,
                 {"enum": list(choices)}, default=default)


def flag_field(default: bool = False) -> Field:
    """``true`` or ``false``."""
    return Field("true or false", lambda v: isinstance(v, bool), {"type": "boolean"}, default=default)


def list_field(each: Any, lo: int = 0, hi: int = MAX_PIECES, what: str | None = None,
               default: Any = None, nullable: bool = False) -> Field:
    """A list of ``lo`` to ``hi`` items, each checked by ``each`` at its
    place (``nullable``: or nothing, read as the empty list)."""
    def ok(v: Any) -> bool:
        return (nullable and v is None) or (isinstance(v, list) and lo <= len(v) <= hi)
    words = what or f"a list of {lo} to {hi} items ({each.what} each)"
    schema: dict = {"type": ["array", "null"] if nullable else "array", "items": each.schema,
                    "minItems": lo, "maxItems": hi}
    return Field(words, ok, schema, each=each, default=default)


NULL = Field("nothing", lambda v: v is None, {"type": "null"})


def is_int(v: Any) -> bool:
    """A whole number (a bool is not one)."""
    return isinstance(v, int) and not isinstance(v, bool)


def id_problem(v: Any, longest: int = MAX_ID_LENGTH) -> str | None:
    """Why ``v`` is not a good id or name (None: it is one): a non-empty
    string of at most ``MAX_ID_LENGTH`` characters, without spaces at its
    ends and without control characters (newlines, tabs, ...)."""
    if not isinstance(v, str):
        return "a string"
    if not v.strip():
        return "a non-empty string"
    if v != v.strip():
        return "a string without spaces at its ends"
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in v):
        return "a string without control characters (newlines, tabs)"
    if len(v) > longest:
        return f"a string of at most {longest} characters"
    return None


ID_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_ID_LENGTH, "pattern": r"^\S(.*\S)?$"}
NAME = Field("a non-empty string without spaces at its ends or control characters",
             lambda v: id_problem(v) is None, ID_SCHEMA)
#: a title (a scenario's or a board's name): as an id, but up to MAX_NAME_LENGTH characters
TITLE = Field(f"a non-empty string of at most {MAX_NAME_LENGTH} characters without spaces at its ends or "
              "control characters", lambda v: id_problem(v, MAX_NAME_LENGTH) is None,
              dict(ID_SCHEMA, maxLength=MAX_NAME_LENGTH))
CELL_SCHEMA = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}


def did_you_mean(name: Any, known: Iterable[str]) -> str | None:
    """A hint naming the known names closest to ``name`` (None: none is close)."""
    near = closest(str(name), list(known))
    return f"did you mean {' or '.join(near)}?" if near else None


def describe(value: Any) -> str:
    """A value as a message names it: its kind, or its text cut to 40 characters."""
    if isinstance(value, YDict):
        return "a mapping"
    if isinstance(value, YList):
        return "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
