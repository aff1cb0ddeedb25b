"""The layout of bot/ and cogs/ (docs/DESIGN.md): each job one module, no import circle (at
run time or under ``TYPE_CHECKING``), cogs never importing each other, no module over 500
lines, and every persistent button registered in the one place."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import bot
from bot.features.registry import PERSISTENT_BUTTONS
from bot.interaction.buttons import PageButton, SaludButton

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in [*ROOT.glob("bot/**/*.py"), *ROOT.glob("cogs/*.py")]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports() -> dict[str, set[str]]:
    """Which of our modules each module imports, ``TYPE_CHECKING`` imports included."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            elif isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_no_import_circle_even_under_type_checking() -> None:
    assert _cycle(_imports()) is None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_cogs_import_no_other_cog_and_nothing_in_bot_imports_a_cog() -> None:
    crossing = sorted(
        f"{name} imports {target}"
        for name, targets in _imports().items()
        for target in targets
        if target.startswith("cogs.") and not name.startswith("cogs.__init__")
    )
    assert crossing == []


def test_no_module_of_bot_or_cogs_is_over_500_lines() -> None:
    long = {
        name: count
        for name, path in _modules().items()
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def test_every_button_kind_is_registered_once() -> None:
    kinds: set[type[SaludButton]] = set()
    for info in pkgutil.walk_packages(bot.__path__, "bot."):
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            # The bases match no custom id (``(?!)``); every other kind must be registered.
            if (
                issubclass(value, SaludButton)
                and value.__discord_ui_compiled_template__.pattern != "(?!)"
            ):
                kinds.add(value)
    assert len(PERSISTENT_BUTTONS) == len(set(PERSISTENT_BUTTONS))
    assert kinds == set(PERSISTENT_BUTTONS)
    assert not {SaludButton, PageButton} & set(PERSISTENT_BUTTONS)
