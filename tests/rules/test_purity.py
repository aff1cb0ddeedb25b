"""rules/ is pure: standard library only, no clock, no global randomness (DESIGN.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
SOURCES = sorted(RULES.glob("*.py"))

#: Standard-library modules that would bring a clock, I/O, processes or the network.
FORBIDDEN = frozenset(
    {
        "asyncio",
        "calendar",
        "datetime",
        "http",
        "os",
        "secrets",
        "select",
        "selectors",
        "shutil",
        "socket",
        "sqlite3",
        "subprocess",
        "threading",
        "time",
        "urllib",
        "uuid",
        "zoneinfo",
    }
)


def _imports(tree: ast.AST) -> list[tuple[str, list[str], int]]:
    found: list[tuple[str, list[str], int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, [], node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(("rules", [], node.lineno))
            else:
                names = [alias.name for alias in node.names]
                found.append((node.module or "", names, node.lineno))
    return found


def test_rules_sources_are_found() -> None:
    names = {path.name for path in SOURCES}
    assert {"dice.py", "damage.py", "character.py", "__init__.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_rules_import_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for module, names, line in _imports(tree):
        top = module.split(".")[0]
        where = f"{path.name}:{line} imports {module}"
        if top in {"rules", "__future__"}:
            continue
        assert top in sys.stdlib_module_names, where
        assert top not in FORBIDDEN, where
        if top == "random":
            # Only the production roller may use randomness, and only the OS's.
            assert path.name == "dice.py", where
            assert names == ["SystemRandom"], f"{where}: only SystemRandom is allowed"


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.name)
def test_rules_use_no_io_builtins(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"print", "open", "input", "eval", "exec"}, (
                f"{path.name}:{node.lineno} calls {node.func.id}"
            )


def test_purity_check_catches_a_forbidden_import() -> None:
    tree = ast.parse("import discord\nfrom random import randint\nimport time\n")
    modules = [module for module, _names, _line in _imports(tree)]
    assert modules == ["discord", "random", "time"]
    assert "discord" not in sys.stdlib_module_names


#: What a test of the rules may import: the mutants copy of the tree has rules/ and tests/ only.
RULES_TESTS_MAY_IMPORT = frozenset({"rules", "tests", "pytest", "hypothesis", "__future__"})


@pytest.mark.parametrize(
    "path", sorted(Path(__file__).parent.glob("*.py")), ids=lambda path: path.name
)
def test_rules_tests_import_only_the_rules(path: Path) -> None:
    """tests/rules/ is the mutation run's judge: a bot import there would break `make mutation`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for module, _names, line in _imports(tree):
        top = module.split(".")[0]
        where = f"{path.name}:{line} imports {module} (bot tests go in tests/bot/)"
        assert top in RULES_TESTS_MAY_IMPORT or top in sys.stdlib_module_names, where
        if top == "tests":
            assert module.startswith("tests.rules"), where
