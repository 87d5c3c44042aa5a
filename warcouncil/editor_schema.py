"""The JSON Schemas of a pack's files for editors (``warcouncil schema
SYSTEM KIND``): the shapes of ``scenario.json_schema`` and
``turn.json_schema`` (and a system's own ``records``), with the names the
pack declares where the loader checks a name against it: unit types, the
terrain of a system that checks it, a unit's characteristics and
attachments, card names. Facings, formations, manoeuvres and roles are
already the tables' own enums."""

from __future__ import annotations

import json
import re

from .errors import WarcouncilError, closest

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: the kinds of file every system reads (its own ``records`` may add more)
KINDS = ("scenario", "turn")


def kinds(system) -> tuple[str, ...]:
    """The kinds of file ``system`` reads: a scenario, a turn, and the
    other files its verbs read (``System.records``: Warmaster's plan and
    wants, square-grid ancients' test)."""
    return KINDS + tuple(k for k in system.records if k not in KINDS)


def schema(name: str, kind: str, rules=()) -> dict:
    """The JSON Schema (draft 2020-12) of a ``kind`` file of the pack
    ``name`` (with house rules ``rules`` layered over it: their names too)."""
    from .dsl.pack import load_pack
    from .kernel import scenario, turn
    from .world.schema import file_schema
    from .kernel.system import System

    system = System.for_pack(name)
    known = kinds(system)
    if kind not in known:
        near = closest(kind, known)
        raise WarcouncilError(f"{system.title or system.name} has no {kind!r} file",
                              hint=(f"did you mean {near[0]!r}? " if near else "") + "kinds: " + ", ".join(known))
    if kind == "scenario":
        out = scenario.json_schema(system)
    elif kind == "turn":
        out = turn.json_schema(system)
    else:
        out = file_schema(system.records[kind], f"warcouncil {kind} file ({system.title or system.name})")
    pack = load_pack(name, list(rules))
    # a copy of its own (no part shared with the tables, nor between two fields of one table)
    out = {**json.loads(json.dumps(out)), "$schema": DRAFT}
    checked = system.pack_names
    cards = card_schema(list(pack.cards)) if pack.cards and "card" in checked else None
    props = out.get("properties", {})
    if kind == "scenario":
        units = {"enum": list(pack.units)} if pack.units and "unit" in checked else None
        for key in system.piece_lists:  # every piece list whose pieces have a unit type
            _name_at(props, (key, "items", "properties", "type"), units)
        _name_at(props, ("sides", "additionalProperties", "properties", "hand", "items"), cards)
        terrains = {"enum": list(pack.terrains)} if pack.terrains and "terrain" in checked else None
        _name_at(props, ("terrain", "items", "properties", "type"), terrains)
        for value in checked - {"unit", "card", "terrain"}:  # a unit's `characteristics`: the pack's values
            names = pack.values.get(value)
            _name_at(props, ("units", "items", "properties", value + "s", "items"),
                     {"enum": list(names)} if names else None)
    elif kind == "turn" and system.context == "card":
        for key in (system.context, "copies"):
            _name_at(props, (key,), cards)
    return out


def _name_at(props: dict, path: tuple[str, ...], names: dict | None) -> None:
    """The schema at ``path`` under ``props`` (when there is one) narrowed
    to ``names``, its description kept."""
    if names is None:
        return
    parent, node = None, props
    for key in path:
        if not isinstance(node, dict) or key not in node:
            return
        parent, node = node, node[key]
    parent[path[-1]] = {**names, **({"description": node["description"]} if "description" in node else {})}


#: what a card's name may hold beside its letters (``dsl.pack.card_key``:
#: case, spaces, hyphens, underscores and apostrophes are ignored)
_CARD_GAP = "[ \\-_'’]*"


def card_schema(names: list[str]) -> dict:
    """A card's name as the loader matches it: the names themselves (what an
    editor offers), or any spelling with the same ``card_key``."""
    from .dsl.pack import card_key

    def letters(name: str) -> str:
        return _CARD_GAP.join(f"[{c}{c.upper()}]" if c.upper() != c and len(c.upper()) == 1 else re.escape(c)
                              for c in card_key(name))

    pattern = f"^{_CARD_GAP}(?:{'|'.join(letters(n) for n in names)}){_CARD_GAP}$"
    return {"anyOf": [{"enum": list(names)}, {"type": "string", "pattern": pattern}]}

