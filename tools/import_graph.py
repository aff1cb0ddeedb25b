"""The import graph of ``bot/``, counted: ``python -m tools.import_graph``.

Two views of one graph, read from the code's own imports (``TYPE_CHECKING`` imports
included; a package's ``__init__`` that re-exports names counts as the package):

- **entries**: the top of ``bot/`` — each module or package directly under it is one node,
  an arrow joins two nodes when a module of one imports a module of the other. This is the
  architecture ``docs/DESIGN.md`` draws and ``tests/architecture/test_layout.py`` bounds.
- **modules**: every module of ``bot/`` a node of its own.

For each: nodes, arrows, and levels (the longest chain of arrows, in nodes; a node that
imports nothing of ``bot/`` is on level 1).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path

__all__ = ["Graph", "arrows", "entry_graph", "level_of", "levels", "module_graph", "modules"]

ROOT = Path(__file__).resolve().parents[1]

#: node -> the nodes it imports
Graph = dict[str, set[str]]


def modules(root: Path = ROOT, package: str = "bot") -> dict[str, Path]:
    """Every module of ``package`` by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imported_names(path: Path) -> Iterable[str]:
    """What a module imports: ``a.b`` for ``import a.b`` and for ``from a.b import c`` (also
    ``a.b.c``, which is a module when ``c`` is one)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def module_graph(root: Path = ROOT, package: str = "bot") -> Graph:
    """Which modules of ``package`` each of its modules imports."""
    found = modules(root, package)
    return {
        name: {target for target in imported_names(path) if target in found and target != name}
        for name, path in found.items()
    }


def entry_of(module: str) -> str:
    """The top entry of ``bot/`` a module belongs to: ``bot.storage.names`` → ``storage``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def entry_graph(graph: Mapping[str, set[str]]) -> Graph:
    """The module graph seen from the top of ``bot/`` (``bot/__init__.py`` left out)."""
    entries: Graph = {}
    for module, targets in graph.items():
        source = entry_of(module)
        if source == "__init__":
            continue
        entries.setdefault(source, set()).update(
            entry_of(target) for target in targets if entry_of(target) not in {source, "__init__"}
        )
    return entries


def level_of(graph: Mapping[str, set[str]]) -> Callable[[str], int]:
    """The longest chain of arrows from a node, in nodes (the graph must have no circle)."""

    @cache
    def level(node: str) -> int:
        return 1 + max((level(target) for target in graph[node]), default=0)

    return level


def levels(graph: Mapping[str, set[str]]) -> int:
    """The longest chain of arrows, in nodes (the graph must have no circle)."""
    level = level_of(graph)
    return max((level(node) for node in graph), default=0)


def arrows(graph: Mapping[str, set[str]]) -> int:
    return sum(len(targets) for targets in graph.values())


def main() -> int:
    graph = module_graph()
    entries = entry_graph(graph)
    print(f"entries: {len(entries)} nodes, {arrows(entries)} arrows, {levels(entries)} levels")
    print(f"modules: {len(graph)} nodes, {arrows(graph)} arrows, {levels(graph)} levels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
