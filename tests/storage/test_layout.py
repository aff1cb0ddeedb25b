"""The shape of bot/storage (docs/DESIGN.md, Storage): a leaf that imports only the rules,
the standard library and aiosqlite; a ``Transaction`` composed of parts that use each other
only through their methods (nobody reaches into another object's private attributes);
aiosqlite's private API in one module."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import bot.storage
from bot.storage import Reader, StorageChange, StorageReads, Transaction

STORAGE = Path(bot.storage.__file__).resolve().parent
#: The one module allowed to use aiosqlite's private API.
ADAPTER = "sqlite/one_trip.py"


def _sources() -> dict[str, ast.Module]:
    return {
        path.relative_to(STORAGE).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(STORAGE.rglob("*.py"))
    }


def _imported(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_storage_imports_only_the_rules_the_standard_library_and_aiosqlite() -> None:
    foreign = {}
    for name, tree in _sources().items():
        for module in _imported(tree):
            top = module.split(".")[0]
            allowed = (
                module == "bot.storage"
                or module.startswith("bot.storage.")
                or top in {"rules", "aiosqlite", "__future__"}
                or (top == "psycopg" and name.startswith("postgres/"))  # its engine's driver
                or top in sys.stdlib_module_names
            )
            if not allowed:
                foreign.setdefault(name, []).append(module)
    assert foreign == {}


def test_no_object_reaches_into_another_ones_private_attributes() -> None:
    """``self._x`` (or ``super()._x``) only: a part of the transaction uses the others
    through their methods."""
    reaching = []
    for name, tree in _sources().items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or not node.attr.startswith("_"):
                continue
            if node.attr.startswith("__") or name == ADAPTER:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}:
                continue
            if ast.unparse(node.value) == "super()":  # its own base's: an engine's subclass
                continue
            reaching.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert reaching == []


def test_the_transaction_holds_its_parts_instead_of_inheriting_them() -> None:
    assert Transaction.__mro__ == (Transaction, object)
    assert Reader.__mro__ == (Reader, object)
    # Everything a cog may read (the interface), it can read in storage.read() and in a
    # transaction alike; everything a change may do, the transaction does.
    readable = {n for n in vars(StorageReads) if not n.startswith("_")}
    changes = {n for n in vars(StorageChange) if not n.startswith("_")}
    assert readable - set(dir(Reader)) == set()
    assert (readable | changes) - set(dir(Transaction)) == set()
