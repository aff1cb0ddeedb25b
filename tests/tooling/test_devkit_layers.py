"""Who may import whom outside the bot: bench/, tools/ and devkit/ never reach into tests/,
and devkit/ never into bot/ (its probe hooks what the bot uses — rules.dice, aiosqlite,
discord, asyncio — so that it holds whatever module of bot/ does the work)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted(
    path for folder in ("bench", "tools", "devkit") for path in (ROOT / folder).rglob("*.py")
)


def _imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.add(node.module or "")
    return names


def test_the_shared_kit_is_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in SOURCES}
    assert {"devkit/harness.py", "devkit/fake_discord/server.py", "bench/scale.py"} <= names


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_never_imports_the_test_suite(path: Path) -> None:
    reaching = sorted(name for name in _imported(path) if name.split(".")[0] == "tests")
    assert not reaching, f"{path.relative_to(ROOT)} imports {reaching}: use devkit/ instead"


DEVKIT = [path for path in SOURCES if path.relative_to(ROOT).parts[0] == "devkit"]


def test_the_probe_is_among_the_devkit_sources() -> None:
    assert ROOT / "devkit" / "probe.py" in DEVKIT


@pytest.mark.parametrize("path", DEVKIT, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_the_devkit_never_imports_the_bot(path: Path) -> None:
    reaching = sorted(name for name in _imported(path) if name.split(".")[0] in {"bot", "cogs"})
    assert not reaching, f"{path.relative_to(ROOT)} imports {reaching}: hook what bot/ uses"
