"""The package's layout: no import circles among warcouncil's modules.

Every import counts, those inside functions (lazy) and under
``TYPE_CHECKING`` included: a circle hidden by a lazy import is still a
circle in the design."""

import ast
from pathlib import Path

import warcouncil

ROOT = Path(warcouncil.__file__).parent


def _import_graph() -> dict[str, set[str]]:
    mods = {}
    for f in ROOT.rglob("*.py"):
        parts = f.relative_to(ROOT.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        pkg = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                # ``from pkg import module`` imports the module (its
                # package is imported first, as for ``from pkg.module
                # import x``); ``from pkg import name`` imports pkg
                subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in mods]
                targets = subs + ([mod] if len(subs) < len(node.names) else [])
            else:
                continue
            graph[m].update(t for t in targets if t in mods and t != m)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module: lint's
    own search for circles among defines (Tarjan, iterative)."""
    from warcouncil.dsl.static import _cycles

    return [sorted(c) for c in _cycles({k: sorted(v) for k, v in graph.items()}) if len(c) > 1]


def test_no_import_circles():
    graph = _import_graph()
    assert "warcouncil.kernel.state" in graph and "warcouncil.kernel.ground" in graph
    assert _circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    # the check itself: a lazy import back from state to the search would be found
    graph = _import_graph()
    graph["warcouncil.kernel.state"].add("warcouncil.solver.search")
    assert any("warcouncil.kernel.state" in c and "warcouncil.solver.search" in c for c in _circles(graph))


def test_turn_state_does_not_import_the_search():
    graph = _import_graph()
    seen, todo = set(), ["warcouncil.kernel.state"]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    assert not seen & {"warcouncil.solver.search", "warcouncil.kernel.ground", "warcouncil.solver.profile"}
