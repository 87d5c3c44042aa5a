"""YAML read with PyYAML, keeping every value's place, under bounds on
depth and size (``scenario.parse_yaml``; through the cache of ``ydoc``,
which imports this module only when a document is not cached)."""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.resolver import Resolver
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..errors import Location, WarcouncilError
from .ydoc import MAX_YAML_DEPTH, MAX_YAML_NODES, MAX_YAML_TEXT, YDict, YList

from yaml.parser import Parser
from yaml.reader import Reader
from yaml.scanner import Scanner


class _PyEvents(Reader, Scanner, Parser):
    """PyYAML's own parser, in Python: no limit of its own on nesting."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)


try:  # libyaml's parser for the events when available (much faster)
    from yaml.cyaml import CParser

    class _Events(CParser):
        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)

except ImportError:  # pragma: no cover - PyYAML without libyaml
    _Events = _PyEvents  # type: ignore[misc]

#: libyaml's own bound on nesting (1000 levels, since the libyaml of PyYAML
#: 6.0.4), met while its scanner looks ahead -- before the composer below has
#: counted to MAX_YAML_DEPTH; such a text is read again by ``_PyEvents``, so
#: that it is refused by the same bound, at the same place, whatever libyaml
#: is installed
_LIBYAML_NESTING = "maximum nesting depth"


class _TooBig(Exception):
    def __init__(self, message: str, mark: Any) -> None:
        super().__init__(message)
        self.message, self.mark = message, mark


class _Bounded(Composer, Resolver):
    """Events from a parser (a subclass's other base), composed into nodes
    by PyYAML's Python composer (never libyaml's, which recurses on the C
    stack and crashes on 25,000 nested brackets) under bounds on depth and on
    expanded size: values, and bytes of text."""

    def _bounds(self) -> None:
        Composer.__init__(self)
        Resolver.__init__(self)
        self.depth = 0
        self.expanded = 0  # values so far, aliases expanded
        self.text = 0  # bytes of keys and values so far, aliases expanded
        self.sizes: dict[int, tuple[int, int]] = {}  # a node's (values, bytes)

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(AliasEvent):
            event = self.peek_event()
            node = self.anchors.get(event.anchor)
            if node is not None:
                size = self.sizes.get(id(node))
                if size is None:
                    raise _TooBig("recursive YAML alias", event.start_mark)
                self._count(*size, event.start_mark)
            return Composer.compose_node(self, parent, index)
        self.depth += 1
        if self.depth > MAX_YAML_DEPTH:
            raise _TooBig(f"YAML nested too deeply (more than {MAX_YAML_DEPTH} levels)",
                          self.peek_event().start_mark)
        try:
            before, text_before = self.expanded, self.text
            node = Composer.compose_node(self, parent, index)
            own = len(node.value.encode("utf-8", "surrogatepass")) if isinstance(node, ScalarNode) else 0
            self._count(1, own, node.start_mark)
            self.sizes[id(node)] = (self.expanded - before, self.text - text_before)
            return node
        finally:
            self.depth -= 1

    def _count(self, n: int, text: int, mark: Any) -> None:
        self.expanded += n
        self.text += text
        if self.expanded > MAX_YAML_NODES:
            raise _TooBig(
                f"YAML too large: more than {MAX_YAML_NODES:,} values (counting each alias "
                "as a copy of what it names)", mark)
        if self.text > MAX_YAML_TEXT:
            raise _TooBig(
                f"YAML too large: more than {MAX_YAML_TEXT // (1024 * 1024)} MiB of text in its keys and "
                "values (counting each alias as a copy of what it names)", mark)


class _BoundedLoader(_Bounded, _Events):
    """The bounded composer on libyaml's parser where there is one."""

    def __init__(self, text: str) -> None:
        _Events.__init__(self, text)
        self._bounds()


class _BoundedPyLoader(_Bounded, _PyEvents):
    """The bounded composer on PyYAML's Python parser (``_LIBYAML_NESTING``)."""

    def __init__(self, text: str) -> None:
        _PyEvents.__init__(self, text)
        self._bounds()


class _LibyamlNesting(Exception):
    """libyaml refused a text for its own bound on nesting (``_LIBYAML_NESTING``)."""


_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_MERGE_TAG = "tag:yaml.org,2002:merge"


def _mark_loc(file: str, mark: Any) -> Location:
    if mark is None:
        return Location(file)
    return Location(file, mark.line + 1, mark.column + 1)


class _Builder:
    """Builds plain values (YDict / YList / scalars) from a composed node tree."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.scalars = SafeConstructor()
        self.memo: dict[int, Any] = {}
        self.active: set[int] = set()

    def build(self, node: Node) -> Any:
        key = id(node)
        if key in self.memo:
            return self.memo[key]
        loc = _mark_loc(self.file, node.start_mark)
        if key in self.active:
            raise WarcouncilError("recursive YAML alias", loc)
        if isinstance(node, ScalarNode):
            if node.tag == _MERGE_TAG:
                raise WarcouncilError("YAML merge keys (<<) are not supported", loc)
            try:
                value = self.scalars.construct_object(node)
            except Exception as e:  # any constructor failure is bad input
                raise WarcouncilError(f"bad YAML value {node.value!r}: {_yaml_problem(e)}", loc) from None
            self.memo[key] = value
            return value
        self.active.add(key)
        try:
            if isinstance(node, SequenceNode):
                if node.tag != _SEQ_TAG:
                    raise WarcouncilError(f"unsupported YAML tag {node.tag!r}", loc)
                seq = YList(self.build(child) for child in node.value)
                seq.where = loc
                seq.item_where = [_mark_loc(self.file, c.start_mark) for c in node.value]
                result: Any = seq
            elif isinstance(node, MappingNode):
                if node.tag != _MAP_TAG:
                    raise WarcouncilError(f"unsupported YAML tag {node.tag!r}", loc)
                m = YDict()
                m.where, m.key_where, m.value_where = loc, {}, {}
                for knode, vnode in node.value:
                    kloc = _mark_loc(self.file, knode.start_mark)
                    if not isinstance(knode, ScalarNode):
                        raise WarcouncilError("a mapping key must be a plain value", kloc)
                    k = self.build(knode)
                    if k in m:
                        raise WarcouncilError(
                            f"duplicate key {k!r} (first at line {m.key_where[k].line})", kloc
                        )
                    m[k] = self.build(vnode)
                    m.key_where[k] = kloc
                    m.value_where[k] = _mark_loc(self.file, vnode.start_mark)
                result = m
            else:  # pragma: no cover - the composer makes no other nodes
                raise WarcouncilError("unexpected YAML node", loc)
        finally:
            self.active.discard(key)
        self.memo[key] = result
        return result


def _yaml_problem(e: BaseException) -> str:
    problem = getattr(e, "problem", None)
    if problem:
        context = getattr(e, "context", None)
        return f"{problem} ({context})" if context else str(problem)
    return str(e) or type(e).__name__


def parse(text: str, file: str) -> Any:
    """Parse one YAML document into YDict / YList / scalars carrying locations.

    ``None`` for an empty document. Malformed YAML is a ``WarcouncilError``
    at the line and column PyYAML reports; so is a document nested deeper
    than ``MAX_YAML_DEPTH`` or holding more than ``MAX_YAML_NODES`` values
    or ``MAX_YAML_TEXT`` bytes of text with its aliases expanded, refused
    while it is composed (at the alias that passes the bound).
    """
    try:
        node = _compose(_BoundedLoader, text, file)
    except _LibyamlNesting:
        node = _compose(_BoundedPyLoader, text, file)
    if node is None:
        return None
    try:
        return _Builder(file).build(node)
    except RecursionError:
        raise WarcouncilError("YAML nested too deeply", Location(file)) from None


def _compose(loader_class: type, text: str, file: str) -> Any:
    """The document's node tree; a ``WarcouncilError`` for what ``parse``
    refuses, but ``_LibyamlNesting`` for the nesting libyaml's own bound
    refuses (the caller reads the text again with PyYAML's parser)."""
    loader = loader_class(text)
    try:
        return loader.get_single_node()
    except _TooBig as e:
        raise WarcouncilError(e.message, _mark_loc(file, e.mark)) from None
    except yaml.MarkedYAMLError as e:
        if loader_class is not _BoundedPyLoader and _LIBYAML_NESTING in str(e.problem or ""):
            raise _LibyamlNesting from None
        mark = e.problem_mark or e.context_mark
        problem = _yaml_problem(e)
        cm = e.context_mark
        if cm is not None and e.problem_mark is not None and cm.line != e.problem_mark.line:
            problem += f", started at line {cm.line + 1}"
        raise WarcouncilError(f"malformed YAML: {problem}", _mark_loc(file, mark)) from None
    except yaml.reader.ReaderError as e:
        before = text[: e.position]
        loc = Location(file, before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1)
        raise WarcouncilError(
            f"malformed YAML: unacceptable character #x{e.character:04x}: {e.reason}", loc
        ) from None
    except yaml.YAMLError as e:
        raise WarcouncilError(f"malformed YAML: {_yaml_problem(e)}", Location(file)) from None
    except RecursionError:
        raise WarcouncilError("malformed YAML: nested too deeply", Location(file)) from None
    finally:
        loader.dispose()
