"""docs/DESIGN.md and README.md cannot drift from the code in what they name (issue 25 point
7): every slash command they write (`/stability test`, `/table create|bind`, and the options
after it) is in the bot's command tree, and every code span that names a module of the
repository (`bot.storage`, `rules.names.reading_key`, `key_versions.LATEST` for the one
module of that name) or one of its classes (`Storage.read`, `RollButton.pressed`) resolves:
imported, its names found.

Spans that name something else are left alone: a catalog key (`error.storage_full`), a table's
column (`history.details`), a file (`bot.sqlite3`), a path on a server (`/var/lib/salud`,
`/data`). A name that could be either is written in full (`Here.change()`, not
`here.change()`)."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from discord import app_commands

from bot.app import EXTENSIONS, SaludBot
from bot.config.settings import load_settings
from bot.storage import Storage
from rules.dice import SystemRoller

ROOT = Path(__file__).resolve().parents[2]
PAGES = (ROOT / "docs" / "DESIGN.md", ROOT / "README.md")
#: The repository's own top-level packages, and the libraries a page may name by module.
TOP = {"bot", "rules", "cogs", "devkit", "tools", "bench", "tests", "discord", "asyncio"}
#: Where a server keeps things: a span starting so is a path, not a command.
FILESYSTEM = re.compile(r"^/(?:$|data\b|var/|proc/|etc/|tmp/|usr/|home/|srv/)")
#: Where a module or class named short (`rows.LOOKALIKE_WHERE`, `Here.of`) is looked for.
SOURCES = ("bot", "rules", "devkit")
#: The database's tables: `history.details` is a column, not a name in `bot/render/history.py`.
TABLES = set(
    re.findall(
        r"CREATE TABLE(?: IF NOT EXISTS)? (\w+)",
        "".join(
            path.read_text(encoding="utf-8")
            for path in sorted((ROOT / "bot" / "storage").rglob("*.sql"))
        ),
    )
)
#: A file's name (`bot.sqlite3`) is no module's.
FILE_SUFFIXES = (".sqlite3", ".py", ".md", ".toml", ".yaml", ".txt", ".json")


def _spans(page: Path) -> set[str]:
    """The page's inline code spans, outside its fenced blocks."""
    prose = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return set(re.findall(r"`([^`\n]+)`", prose))


# --- commands -----------------------------------------------------------------------------


@pytest_asyncio.fixture
async def tree(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    """The bot's command tree, as loaded at start, by qualified name."""
    async with await Storage.open(tmp_path / "bot.sqlite3") as storage:
        settings = load_settings(
            {"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path / "db.sqlite3")}
        )
        bot = SaludBot(storage=storage, settings=settings, roller=SystemRoller())
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        yield {command.qualified_name: command for command in bot.tree.walk_commands()}


def command_problems(span: str, commands: dict[str, Any]) -> list[str]:
    """What of ``/name sub|other option [option]`` is not in the tree (``[]``: all of it).
    A group's next word must be its subcommands; a command's words after it, those that are
    bare option names (``character``, ``[reason]``, ``spend:1``), its parameters."""
    words = span[1:].split()
    if not words:
        return [f"{span}: no command"]
    found = [name for name in words[0].split("|")]
    problems = [f"{span}: no /{name}" for name in found if name not in commands]
    if problems:
        return problems
    rest = words[1:]
    prefixes = found
    while prefixes and rest and isinstance(commands[prefixes[0]], app_commands.Group):
        subs = [f"{prefix} {name}" for prefix in prefixes for name in rest[0].split("|")]
        problems += [f"{span}: no /{sub}" for sub in subs if sub not in commands]
        if problems:
            return problems
        prefixes, rest = subs, rest[1:]
    for prefix in prefixes:
        command = commands[prefix]
        if isinstance(command, app_commands.Group):
            continue  # the group alone: `/stability`
        parameters = {parameter.name for parameter in command.parameters}
        for word in rest:
            name = word.strip("[]").split(":")[0]
            if re.fullmatch(r"[a-z_][a-z0-9_]*", name) and name not in parameters:
                problems.append(f"{span}: /{prefix} has no option {name}")
    return problems


def _commands_named(page: Path) -> list[str]:
    return sorted(
        span for span in _spans(page) if span.startswith("/") and not FILESYSTEM.match(span)
    )


@pytest.mark.asyncio
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
async def test_every_command_a_page_names_exists(page: Path, tree: dict[str, Any]) -> None:
    named = _commands_named(page)
    assert len(named) >= 10, "the check finds the commands the page names"
    problems = [problem for span in named for problem in command_problems(span, tree)]
    assert problems == [], f"{page.name} names commands that do not exist"


@pytest.mark.asyncio
async def test_the_command_check_refuses_what_is_not_in_the_tree(tree: dict[str, Any]) -> None:
    assert command_problems("/stability test|roll|treat", tree) == []
    assert command_problems("/hurt character amount [reason]", tree) == []
    assert command_problems("/stability test|set", tree) == [
        "/stability test|set: no /stability set"
    ]
    assert command_problems("/heal character", tree) == ["/heal character: no /heal"]
    assert command_problems("/hurt character [dice]", tree) == [
        "/hurt character [dice]: /hurt has no option dice"
    ]


# --- modules and their names -----------------------------------------------------------------


@cache
def _module_files() -> dict[str, list[str]]:
    """Each module file of ``SOURCES`` by its last name: ``rows`` → ``bot.storage.sqlite.rows``."""
    found: dict[str, list[str]] = {}
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            if path.name != "__init__.py":
                dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                found.setdefault(path.stem, []).append(dotted)
    return found


@cache
def _classes() -> dict[str, list[str]]:
    """Each class defined in ``SOURCES`` by its name, as the modules that define it."""
    found: dict[str, list[str]] = {}
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            dotted = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    found.setdefault(node.name, []).append(dotted)
    return found


def _has(owner: object, name: str) -> bool:
    if hasattr(owner, name):
        return True
    if dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}:
        return True
    return name in getattr(owner, "__annotations__", {})


def _resolved(module: str, names: list[str]) -> bool:
    """Whether ``module`` imports and holds ``names`` one inside the other (a submodule
    imported when it is one)."""
    target: object = importlib.import_module(module)
    for index, name in enumerate(names):
        if not _has(target, name):
            try:
                target = importlib.import_module(".".join([module, *names[: index + 1]]))
                continue
            except ImportError:
                return False
        target = getattr(target, name, None)
        if target is None:  # a dataclass field or an annotation: nothing inside it to name
            return index == len(names) - 1
    return True


def name_problem(span: str) -> str | None:
    """Why the module or class ``span`` names does not resolve; None when it does, or when
    the span names nothing of the repository (its first part is no module or class of it)."""
    head = span.split("(")[0]
    if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+", head):
        return None
    first, *rest = head.split(".")
    if first in TABLES or head.endswith(FILE_SUFFIXES):
        return None
    if first in TOP:
        for cut in range(len(rest), -1, -1):
            module = ".".join([first, *rest[:cut]])
            try:
                importlib.import_module(module)
            except ImportError:
                continue
            return None if _resolved(module, rest[cut:]) else f"{span}: not in {module}"
        return f"{span}: no module {first}"
    homes = _module_files().get(first) or _classes().get(first)
    if homes is None:
        return None  # a catalog key, a column, a variable
    if len(homes) > 1:
        return f"{span}: {first} is ambiguous ({', '.join(homes)}): write its whole path"
    if first in _module_files():
        return None if _resolved(homes[0], rest) else f"{span}: not in {homes[0]}"
    return None if _resolved(homes[0], [first, *rest]) else f"{span}: not in {homes[0]}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_module_and_class_a_page_names_resolves(page: Path) -> None:
    problems = sorted(filter(None, (name_problem(span) for span in _spans(page))))
    assert problems == [], f"{page.name} names what the code does not hold"


def test_the_name_check_resolves_and_refuses() -> None:
    assert name_problem("rules.names.reading_key") is None
    assert name_problem("key_versions.LATEST") is None
    assert name_problem("Storage.read(ticket)") is None
    assert name_problem("bot.storage") is None
    assert name_problem("error.storage_full") is None  # a catalog key: nothing of the code
    assert name_problem("history.details") is None  # a column of the table history
    assert name_problem("rules.names.no_such_thing") == (
        "rules.names.no_such_thing: not in rules.names"
    )
    assert name_problem("key_versions.GONE") == (
        "key_versions.GONE: not in bot.storage.key_versions"
    )
    assert name_problem("Here.no_such_method") == (
        "Here.no_such_method: not in bot.interaction.here"
    )
    assert name_problem("bot.nowhere.Thing") == "bot.nowhere.Thing: not in bot"
