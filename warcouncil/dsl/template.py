"""Rule message templates: ``{name}`` of a bound name, rendered by warcouncil.

A rule's ``message "..."`` is rule text, i.e. data from a user's file. It never
goes through ``str.format`` (whose attribute walks, ``{p.__class__.__mro__}``,
read a program's internals, and whose format specs, ``{p:>100000000}``,
write hundreds of megabytes). The template language is:

- ``{name}`` -- an identifier: the value bound to ``name`` (the rule's
  variable, or ``pieces``), as the checker renders it;
- ``{{`` and ``}}`` -- a literal brace (as in ``str.format``, which earlier
  messages were written for);
- anything else between braces (attribute walks, indexes, format specs,
  conversions, an empty or numbered field) and stray braces -- kept as
  written, literally. ``lint`` reports such fields, and fields naming
  nothing the rule binds, with file:line:column.

A rendered message is at most ``MESSAGE_LIMIT`` characters.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..records import record

MESSAGE_LIMIT = 500
VALUE_LIMIT = 200  # one interpolated value

_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@record
class Field:
    """One ``{...}`` of a template: its text between the braces, its offset
    (of the ``{``) in the template, and whether it is a plain name."""

    text: str
    offset: int

    @property
    def is_name(self) -> bool:
        return bool(_NAME.match(self.text))


def parse(template: str) -> list[str | Field]:
    """The template as literal strings and fields, in order."""
    parts: list[str | Field] = []
    lit: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(template):
        lit.append(template[pos:m.start()])
        tok = m.group(0)
        if tok == "{{":
            lit.append("{")
        elif tok == "}}":
            lit.append("}")
        else:
            if lit:
                parts.append("".join(lit))
                lit = []
            parts.append(Field(m.group(1), m.start()))
        pos = m.end()
    lit.append(template[pos:])
    text = "".join(lit)
    if text:
        parts.append(text)
    return parts


def fields(template: str) -> list[Field]:
    return [p for p in parse(template) if isinstance(p, Field)]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render(template: str, values: Mapping[str, str], limit: int = MESSAGE_LIMIT) -> str:
    """The template with each ``{name}`` of ``values`` replaced by its value;
    every other field is left as written. At most ``limit`` characters."""
    out: list[str] = []
    size = 0
    for part in _compiled(template):
        if part.__class__ is str:
            piece = part
        else:
            name, written = part
            piece = _cut(str(values[name]), VALUE_LIMIT) if name is not None and name in values else written
        out.append(piece)
        size += len(piece)
        if size > limit:
            break
    return _cut("".join(out), limit)


_COMPILED: dict[str, tuple] = {}
_COMPILED_SIZE = 1024  # templates kept (a pack has one a rule)


def _compiled(template: str) -> tuple:
    """``parse(template)`` as ``render`` reads it, made once per template:
    literal strings, and for each field (its name or None when it is no
    plain name, the field as written)."""
    hit = _COMPILED.get(template)
    if hit is None:
        hit = tuple(p if isinstance(p, str) else (p.text if p.is_name else None, "{" + p.text + "}")
                    for p in parse(template))
        if len(_COMPILED) >= _COMPILED_SIZE:
            _COMPILED.pop(next(iter(_COMPILED)))
        _COMPILED[template] = hit
    return hit


def problems(template: str, bound: set[str]) -> list[tuple[Field, str]]:
    """Fields that do not name a bound name plainly: (field, what is wrong).
    Plain names outside ``bound`` are reported too."""
    out: list[tuple[Field, str]] = []
    for f in fields(template):
        t = f.text
        if f.is_name:
            if t not in bound:
                out.append((f, "not a name the rule binds"))
            continue
        if not t.strip():
            why = "an empty field"
        elif re.match(r"[A-Za-z_]\w*\s*[.\[]", t):
            why = "an attribute or index walk"
        elif re.match(r"[A-Za-z_]\w*\s*[!:]", t):
            why = "a conversion or format spec"
        else:
            why = "not a name"
        out.append((f, why))
    return out
