"""The depth of bot/ where it lives, module by module (issue 25 point 1), as
``test_layout.py`` bounds the packages: the longest chain of module imports is bounded, no
module imports its own package's facade (``bot/render/change.py`` importing ``bot.render``
stacked the whole facade under it), and inside bot/ a name is imported from the module that
defines it: not through a facade (``bot.storage``, ``bot.render`` are bot/'s face to cogs/
and the tests), nor, from another entry of bot/, through a module that only imports it
itself. Only ``bot/__main__.py`` and ``bot/config/``, which open and operate the database,
import ``bot.storage``: the engines' names (``open_storage``, the backup) are reached there.

``python -m tools.import_graph`` prints the figures these tests bound."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path

from tools.import_graph import (
    arrows,
    entry_graph,
    entry_of,
    level_of,
    levels,
    module_graph,
    modules,
)

#: The longest chain of module imports of bot/, in modules (issue 25 asks for 12). Two cuts
#: made it 12: the command line (``bot/config/operate.py``) reaches the database tools
#: through ``bot.storage.engines``, not the facade above it, and the storage's interface
#: stands on three levels (a history entry is the interface's own value,
#: ``bot.storage.interface.HistoryEntry``; a name's key is the rules',
#: ``rules.names.name_key``), so that the interaction under every feature starts a level
#: lower.
MAX_MODULE_LEVELS = 12
#: The facades that re-export their package's names for cogs/ and the tests.
FACADES = ("bot.storage", "bot.render")
#: Who may import ``bot.storage`` inside bot/: whoever opens or operates the database.
OPENS_THE_STORAGE = ("bot.__main__", "bot.config.")


def _packages() -> set[str]:
    """The packages whose ``__init__`` re-exports (imports) something: their facades.
    ``from bot.storage.postgres import schema`` names a submodule of a package that holds
    only its docstring."""
    return {
        name
        for name, path in modules().items()
        if path.name == "__init__.py"
        and any(
            isinstance(node, ast.Import)
            or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
            for node in ast.parse(path.read_text(encoding="utf-8")).body
        )
    }


def own_facade_imports(graph: Mapping[str, set[str]], packages: set[str]) -> list[str]:
    """Every module that imports the facade of a package it is inside of."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if target in packages and module.startswith(f"{target}.")
    )


def facade_imports(graph: Mapping[str, set[str]]) -> list[str]:
    """Every module of bot/ that imports a facade, but those that open the storage."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if target in FACADES
        and not module.startswith(f"{target}.")
        and not (target == "bot.storage" and module.startswith(OPENS_THE_STORAGE))
    )


def passed_on(sources: Mapping[str, Path]) -> list[str]:
    """Every name a module takes from another entry of bot/ (``bot.storage`` from
    ``bot.features``) out of a module that only imports it itself (``RollKind`` out of
    ``bot.storage.roll_messages``, which has it from ``bot.storage.models``); a package's
    facade is the other tests' business (``bot.i18n``'s, two small modules, is used)."""
    imported: dict[str, dict[str, str]] = {}
    for name, path in sources.items():
        imported[name] = {
            alias.asname or alias.name: node.module
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
    found = []
    for name, path in sources.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.ImportFrom) and node.module in sources):
                continue
            facade = sources[node.module].name == "__init__.py"
            if facade or entry_of(node.module) == entry_of(name):
                continue
            found += [
                f"{name}: {alias.name} from {node.module}, not {imported[node.module][alias.name]}"
                for alias in node.names
                if alias.name in imported[node.module]
                and f"{node.module}.{alias.name}" not in sources
            ]
    return sorted(found)


def test_the_modules_of_bot_stand_on_at_most_12_levels() -> None:
    assert levels(module_graph()) <= MAX_MODULE_LEVELS


def test_no_module_imports_its_own_packages_facade() -> None:
    assert own_facade_imports(module_graph(), _packages()) == []


def test_inside_bot_names_come_from_the_modules_that_define_them() -> None:
    assert facade_imports(module_graph()) == []


def test_a_name_of_another_entry_comes_from_its_own_module() -> None:
    assert passed_on(modules()) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text("class RollKind: ...\n")
    (tmp_path / "roll_messages.py").write_text("from bot.storage.models import RollKind\n")
    (tmp_path / "context.py").write_text("from bot.storage.roll_messages import RollKind\n")
    (tmp_path / "reader.py").write_text("from bot.storage.roll_messages import RollKind\n")
    sources = {
        "bot.storage.models": tmp_path / "models.py",
        "bot.storage.roll_messages": tmp_path / "roll_messages.py",
        "bot.interaction.context": tmp_path / "context.py",
        "bot.storage.sqlite.reader": tmp_path / "reader.py",  # inside its own entry: free
    }
    assert passed_on(sources) == [
        "bot.interaction.context: RollKind from bot.storage.roll_messages, not bot.storage.models"
    ]
    graph = {
        "bot.render": {"bot.render.change"},
        "bot.render.change": {"bot.render"},
        "bot.features.x": {"bot.render", "bot.storage"},
        "bot.config.settings": {"bot.storage"},
        "bot.storage": set(),
    }
    packages = {"bot.render", "bot.storage"}
    assert own_facade_imports(graph, packages) == ["bot.render.change imports bot.render"]
    assert facade_imports(graph) == [
        "bot.features.x imports bot.render",
        "bot.features.x imports bot.storage",
    ]
    chain = {"a": {"b"}, "b": {"c"}, "c": set(), "d": {"c"}}
    assert levels(chain) == 3


def test_the_settings_and_the_dialect_do_not_stand_on_an_engine() -> None:
    """The settings read the default path, not the storage that opens the engines; the
    PostgreSQL dialect translates the shared SQL (``bot/storage/shared_sql.py``), not
    SQLite's modules (before: 14 and 9 levels, the storage's longest chain under both)."""
    graph = module_graph()
    assert "bot.storage" not in graph["bot.config.settings"]
    assert [t for t in graph["bot.storage.postgres.dialect"] if ".sqlite" in t] == []
    assert level_of(graph)("bot.config.settings") <= 3


def test_the_readme_quotes_the_figures_the_tool_prints() -> None:
    """The README's architecture paragraph quotes both views' figures (issue 25): they are
    what ``python -m tools.import_graph`` prints today, so they cannot drift."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    quoted = re.search(
        r"(\d+)\s+entries on (\d+) levels with (\d+) arrows, (\d+) modules on (\d+) levels"
        r" with (\d+) arrows",
        " ".join(readme.split()),
    )
    assert quoted is not None, "the README's architecture paragraph quotes no figures"
    graph = module_graph()
    entries = entry_graph(graph)
    assert tuple(int(figure) for figure in quoted.groups()) == (
        len(entries),
        levels(entries),
        arrows(entries),
        len(graph),
        levels(graph),
        arrows(graph),
    )


def test_the_command_line_and_the_storage_interface_stand_low() -> None:
    """The two cuts that keep bot/ on 12 levels: ``salud check`` / ``backup`` / ``copy`` reach
    the engines' tools, not the facade that re-exports everything above them, and the
    interface every feature types its storage with stands on three levels (before: 4, with a
    history entry in a module of its own and a name's key the storage's own)."""
    graph = module_graph()
    assert "bot.storage" not in graph["bot.config.operate"]
    assert level_of(graph)("bot.storage.interface") <= 3
