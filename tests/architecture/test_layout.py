"""The layout of bot/ and cogs/ (docs/DESIGN.md): packages by layer and feature, each importing
only those below it, storage a leaf, discord.py's internals in one package, one way to defer;
no import circle (even under ``TYPE_CHECKING``), cogs never importing each other, no module
over 500 lines, every persistent button registered once.

``python -m tools.import_graph`` prints the counts these tests bound."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import bot
from bot.features.registry import PERSISTENT_BUTTONS
from bot.interaction.buttons import PageButton, SaludButton
from tools.import_graph import entry_graph, levels, module_graph, modules

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500
MAX_TOP_ENTRIES = 12
MAX_LEVELS = 7

#: The top of bot/, lowest first: each may import only those before it (DESIGN.md).
LAYERS = (
    "storage",
    "i18n",
    "render",
    "config",
    "discord_rest",
    "interaction",
    "gateway",
    "features",
    "services",
    "app",
    "__main__",
)

#: discord.py's private names: only bot/gateway/ may use them.
PRIVATE_DISCORD = re.compile(
    r"\b_get_state\b|(?:bot|client)\._connection\b|\._handlers\b|\._hooks\b|\.parsers\b"
    r"|\b_get_create_guild\b|\._command_tree\b|\._view_store\b|\._get_guild\b"
)
#: discord.py's HTTP client and routes: only bot/discord_rest/ talks to Discord's REST itself.
DISCORD_HTTP = re.compile(
    # (not followed by a quote: the name of discord.py's logger, ``getLogger("discord.http")``)
    r"\bdiscord\.http\b(?!\x22)|\bHTTPClient\b|_HTTPClient__|\bRoute\b|\bdiscord\.webhook\b"
    r"|\b_?http\.(?:token|user_agent|proxy|proxy_auth)\b"
)


def _sources(folder: str) -> dict[Path, str]:
    return {
        path: path.read_text(encoding="utf-8") for path in sorted((ROOT / folder).rglob("*.py"))
    }


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


def test_the_top_of_bot_has_at_most_twelve_entries() -> None:
    entries = sorted(
        path.name
        for path in (ROOT / "bot").iterdir()
        if path.name not in {"__init__.py", "py.typed", "__pycache__"}
    )
    assert len(entries) <= MAX_TOP_ENTRIES, entries
    assert {entry.removesuffix(".py") for entry in entries} == set(LAYERS)


def test_the_packages_stand_on_at_most_seven_levels() -> None:
    assert levels(entry_graph(module_graph())) <= MAX_LEVELS


def test_no_package_imports_one_above_it_even_under_type_checking() -> None:
    upward = sorted(
        f"{source} imports {target}"
        for source, targets in entry_graph(module_graph()).items()
        for target in targets
        if LAYERS.index(target) > LAYERS.index(source)
    )
    assert upward == []


def test_the_layer_check_finds_an_upward_import() -> None:
    graph = {"bot.storage.x": {"bot.render.y"}, "bot.render.y": set()}
    entries = entry_graph(graph)
    assert entries == {"storage": {"render"}, "render": set()}
    assert LAYERS.index("render") > LAYERS.index("storage")


def test_storage_imports_nothing_of_bot_outside_itself() -> None:
    leaks = sorted(
        f"{name} imports {target}"
        for name, targets in module_graph().items()
        if name.startswith("bot.storage")
        for target in targets
        if not target.startswith("bot.storage")
    )
    assert leaks == []


def test_discord_privates_are_used_only_under_gateway() -> None:
    found = sorted(
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for folder in ("bot", "cogs")
        for path, source in _sources(folder).items()
        if "gateway" not in path.parts
        for match in PRIVATE_DISCORD.finditer(source)
    )
    assert found == []
    gateway = "".join(_sources("bot/gateway").values())
    assert PRIVATE_DISCORD.search(gateway), "the pattern finds what the gateway uses"


def test_discord_http_is_touched_only_under_discord_rest() -> None:
    found = sorted(
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for folder in ("bot", "cogs")
        for path, source in _sources(folder).items()
        if "discord_rest" not in path.parts
        for match in DISCORD_HTTP.finditer(source)
    )
    assert found == []
    rest = "".join(_sources("bot/discord_rest").values())
    for seen in ("discord.http.Route.BASE", "self._http.user_agent", "_HTTPClient__session"):
        assert DISCORD_HTTP.search(seen), seen
        assert seen in rest, f"the pattern is checked against what bot/discord_rest/ uses: {seen}"


def test_one_way_in_and_one_way_to_defer() -> None:
    """No string keys in ``interaction.extras``, no cast of ``interaction.client``, and every
    deferral made by bot/interaction/deferral.py (which alone clears the storage deadline)."""
    problems = []
    for folder in ("bot", "cogs"):
        for path, source in _sources(folder).items():
            where = path.relative_to(ROOT).as_posix()
            if "interaction.extras" in source:
                problems.append(f"{where}: interaction.extras")
            if re.search(r"cast\([^)]*interaction\.client", source):
                problems.append(f"{where}: cast of interaction.client")
            if ".response.defer(" in source and where != "bot/interaction/deferral.py":
                problems.append(f"{where}: a deferral of its own")
    assert problems == []


def test_no_import_circle_even_under_type_checking() -> None:
    graph = module_graph()
    graph.update(module_graph(package="cogs"))
    assert _cycle(graph) is None


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_cogs_import_no_other_cog_and_nothing_in_bot_imports_a_cog() -> None:
    crossing = sorted(
        f"{name} imports {target}"
        for graph in (module_graph(), module_graph(package="cogs"))
        for name, targets in graph.items()
        for target in targets
        if target.startswith("cogs.") and name != "cogs"
    )
    assert crossing == []


def test_no_module_of_bot_or_cogs_is_over_500_lines() -> None:
    long = {
        name: count
        for name, path in {**modules(), **modules(package="cogs")}.items()
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
