"""Unit-test setup for mutation runs: few reproducible Hypothesis examples, rules tests only."""

from __future__ import annotations

import ast
import os
from pathlib import Path

from hypothesis import settings

#: True in the copy of the tree that mutmut runs from (./mutants holds rules/ and tests/ only).
IN_MUTANTS = "mutants" in Path(__file__).resolve().parts

# A mutant should be judged the same way every time and quickly; the explicit max_examples of
# a test (test_properties.py) still wins over the profile.
settings.register_profile(
    "mutation", max_examples=20, deadline=None, derandomize=True, database=None
)

# SALUD_HYPOTHESIS_PROFILE picks a profile; the copy that mutmut runs from ./mutants defaults to
# "mutation" so that a bare `mutmut run` is not slowed down by the default 100 examples.
_profile = os.environ.get("SALUD_HYPOTHESIS_PROFILE", "mutation" if IN_MUTANTS else None)
if _profile:
    settings.load_profile(_profile)

#: Packages that ./mutants lacks (bot/, cogs/) or that the rules never use (discord).
_NOT_RULES = frozenset({"bot", "cogs", "discord"})


def _imports_outside_rules(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        else:
            continue
        if any(name.split(".")[0] in _NOT_RULES for name in names):
            return True
    return False


def pytest_ignore_collect(collection_path: Path) -> bool | None:
    """In ./mutants, skip test modules of the bot: they cannot import there (mutmut 3)."""
    if IN_MUTANTS and collection_path.suffix == ".py" and collection_path.name.startswith("test_"):
        return True if _imports_outside_rules(collection_path) else None
    return None
