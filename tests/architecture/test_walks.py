"""The walk of a ``/hurt`` in docs/DESIGN.md ("The path of a command and of a press") enters
each module once: where that is the code's shape and not only the page's, it is checked here.
The cog of ``/hurt`` calls one function of its feature, ``wound`` (it parses its targets
itself), so that the walk never goes back into ``bot/features/health/hurt.py``; a roll
button's press entering its kind once is checked with the kinds
(``tests/bot/test_roll_kinds.py``)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _feature_calls(cog: Path, feature: str, command: str) -> list[str]:
    """The names imported from ``feature`` that the cog's ``command`` method calls, in order."""
    tree = ast.parse(cog.read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.module == feature
        for alias in node.names
    }
    method = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.AsyncFunctionDef) and node.name == command
    )
    return [
        node.func.id
        for node in ast.walk(method)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in imported
    ]


def test_the_hurt_cog_enters_its_feature_once() -> None:
    calls = _feature_calls(ROOT / "cogs" / "health.py", "bot.features.health.hurt", "hurt")
    assert calls == ["wound"]
