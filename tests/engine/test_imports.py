"""The engine's imports form a DAG and happen at module level (issue: a core without import
cycles). The layers themselves are import-linter contracts in pyproject.toml
(``lint-imports``); these tests hold the two properties the contracts do not state."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp

ENGINE = Path(__file__).resolve().parents[2] / "engine"

#: Imports allowed below module level: (file relative to engine/, imported module). Each
#: one carries a comment in the code that says why.
ALLOWED_NESTED: set[tuple[str, str]] = {
    # RuleSet.var's annotation; engine.variant is higher up and imports engine.options.
    ("options.py", "engine.variant"),
    # reuse_last's annotation; the card and meld layers below the rules import engine.memo.
    ("memo.py", "engine.options"),
}


def _cycle(graph: grimp.ImportGraph, modules: set[str]) -> list[str] | None:
    """One import cycle among ``modules`` (as a path that ends where it began), or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for nxt in sorted(graph.find_modules_directly_imported_by(module) & modules):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(modules):
        if module not in state:
            found = visit(module)
            if found:
                return found
    return None


def test_the_engine_modules_import_each_other_without_a_cycle() -> None:
    """No module of the engine reaches itself through imports that run (annotation-only
    imports under ``TYPE_CHECKING`` excluded)."""
    graph = grimp.build_graph("engine", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m for m in graph.modules if m.startswith("engine")}
    assert len(modules) > 80
    assert _cycle(graph, modules) is None


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check above can fail: a graph with a -> b -> a has a cycle."""
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    assert _cycle(graph, {"pkg.a", "pkg.b", "pkg.c"}) is None
    graph.add_import(importer="pkg.c", imported="pkg.a")
    assert _cycle(graph, {"pkg.a", "pkg.b", "pkg.c"}) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def nested_imports(source: str) -> list[str]:
    """The modules imported anywhere but at the top level of ``source``."""
    tree = ast.parse(source)
    top = set(map(id, tree.body))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
            out.extend(names)
    return out


def test_no_engine_module_imports_inside_a_function() -> None:
    """Every import of the engine is at module level, except the documented ones."""
    found = {
        (str(path.relative_to(ENGINE)), module)
        for path in ENGINE.rglob("*.py")
        for module in nested_imports(path.read_text(encoding="utf-8"))
    }
    assert found == ALLOWED_NESTED


def test_a_nested_import_is_found() -> None:
    assert nested_imports("import os\n\ndef f():\n    from a.b import c\n") == ["a.b"]
    assert nested_imports("import os\n") == []
