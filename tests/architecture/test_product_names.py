"""No product name reads as pytest's (issue 25 point 7): no module of rules/, bot/ or cogs/
named as a test file (``test_*.py``, ``*_test.py``), no class ``Test…`` and no function
``test…`` at a module's top (what pytest collects where a test module imports it), and so no
``__test__ = False`` to keep pytest from collecting one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("rules", "bot", "cogs")
#: What pytest collects by default (``python_files``, ``python_classes``, ``python_functions``).
PYTEST_FILE = re.compile(r"^test_.*\.py$|^.*_test\.py$")


def pytest_like(path: Path, source: str) -> list[str]:
    where = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    found = [f"{where}: a test file's name"] if PYTEST_FILE.match(path.name) else []
    tree = ast.parse(source)
    for node in tree.body:  # pytest collects functions and classes at a module's top
        if isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            found.append(f"{where}:{node.lineno} class {node.name}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            found.append(f"{where}:{node.lineno} def {node.name}")
    found += [
        f"{where}:{line} __test__"
        for line in sorted(
            node.lineno
            for node in ast.walk(tree)
            if isinstance(node, ast.Name | ast.Attribute)
            and (node.id if isinstance(node, ast.Name) else node.attr) == "__test__"
        )
    ]
    return found


def test_no_product_name_reads_as_pytests() -> None:
    found = [
        problem
        for folder in PRODUCT
        for path in sorted((ROOT / folder).rglob("*.py"))
        for problem in pytest_like(path, path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_sees_each_kind_of_name() -> None:
    source = (
        "class TestRoll:\n    __test__ = False\n"
        "def test_call_embed(): ...\n"
        "test_call_embed.__test__ = False\n"
        "class AbilityRoll: ...\ndef ability_roll_field(): ...\n"
    )
    assert pytest_like(Path("stability_test.py"), source) == [
        "stability_test.py: a test file's name",
        "stability_test.py:1 class TestRoll",
        "stability_test.py:3 def test_call_embed",
        "stability_test.py:2 __test__",
        "stability_test.py:4 __test__",
    ]
    assert pytest_like(Path("stability_roll.py"), "def roll_stability_test(): ...\n") == []
    # A method is collected only in a class named Test…: ``StabilityCog.test`` is not.
    assert pytest_like(Path("cog.py"), "class Cog:\n    def test(self): ...\n") == []
