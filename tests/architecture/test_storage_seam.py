"""The storage seam (issue 26): above ``bot/storage/`` nothing imports a database driver or an
engine's package, names an engine's classes, or holds SQL; the engine's classes satisfy the
interface (``bot/storage/interface.py``) that the cogs and features are typed with."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import bot.storage
from bot.storage import Reader, Storage, StorageChange, StorageEngine, StorageReads, Transaction

ROOT = Path(__file__).resolve().parents[2]
STORAGE = Path(bot.storage.__file__).resolve().parent
#: The database drivers an engine may use, and only an engine.
DRIVERS = {"sqlite3", "aiosqlite", "asyncpg", "psycopg", "psycopg_pool"}
#: Each engine's package (``bot/storage/<engine>/``).
ENGINES = {path.parent.name for path in STORAGE.glob("*/__init__.py")}
#: The engine's classes, which only the storage and the tests may name.
ENGINE_CLASSES = {"Storage", "Transaction", "Reader"}
#: What SQL looks like in a string (keywords in capitals, as every statement here is written).
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX)"
    r"|PRAGMA\s|BEGIN\s+IMMEDIATE|ON\s+CONFLICT)\b"
)


def _above_storage() -> dict[str, ast.Module]:
    paths = [*sorted((ROOT / "bot").rglob("*.py")), *sorted((ROOT / "cogs").rglob("*.py"))]
    return {
        path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in paths
        if STORAGE not in path.resolve().parents
    }


def _imports(tree: ast.Module) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, [alias.name for alias in node.names]))
        elif isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
    return found


def test_the_storage_has_an_engine_package() -> None:
    assert "sqlite" in ENGINES


def test_nothing_above_the_storage_imports_a_driver_or_an_engine() -> None:
    foreign = [
        f"{name}: {module}"
        for name, tree in _above_storage().items()
        for module, _ in _imports(tree)
        if module.split(".")[0] in DRIVERS
        or any(module.startswith(f"bot.storage.{engine}") for engine in ENGINES)
    ]
    assert foreign == []


def test_nothing_above_the_storage_names_an_engines_classes() -> None:
    named = [
        f"{name}: {', '.join(sorted(ENGINE_CLASSES & set(names)))}"
        for name, tree in _above_storage().items()
        for module, names in _imports(tree)
        if module.startswith("bot.storage") and ENGINE_CLASSES & set(names)
    ]
    assert named == []


def test_nothing_above_the_storage_holds_sql() -> None:
    sql = [
        f"{name}:{node.lineno} {node.value[:60]!r}"
        for name, tree in _above_storage().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value)
    ]
    assert sql == []


def test_the_sql_pattern_sees_sql() -> None:
    """The check above would pass on anything if the pattern matched nothing."""
    for statement in (
        "SELECT id FROM characters WHERE guild_id = ?",
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        "UPDATE characters SET health = ?",
        "DELETE FROM trackers WHERE guild_id = ?",
        "PRAGMA user_version",
    ):
        assert SQL.search(statement), statement
    assert not SQL.search("Select a character from the list")


def test_the_engines_classes_have_every_method_of_the_interface() -> None:
    """mypy checks the signatures (the bot is given a ``Storage`` as a ``StorageEngine``);
    this says that nothing of the interface is missing, whoever types what."""

    def members(protocol: type) -> set[str]:
        return {
            name
            for klass in protocol.__mro__
            if klass.__module__ == "bot.storage.interface"
            for name in vars(klass)
            if not name.startswith("_")
        }

    assert members(StorageReads) - set(dir(Reader)) == set()
    assert members(StorageChange) - set(dir(Transaction)) == set()
    assert members(StorageEngine) - set(dir(Storage)) == set()
    # The seam carries no statements: the engine's helpers for its own SQL stay inside it.
    assert {"queue", "queue_many", "fetch_one", "fetch_all"} & members(StorageChange) == set()
    assert {"queue", "queue_many", "fetch_one", "fetch_all"} & set(dir(Transaction)) == set()
