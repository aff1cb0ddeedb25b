"""docs/DESIGN.md cannot drift from the code: every path it names exists, every module of
bot/ (and every cog) has its row in its tables, and no row names a module that is gone.

A path is an inline code span holding a ``/`` (``bot/storage/sqlite/reader.py``, ``tests/e2e/``),
read from the top of the repository; a bare file name (``reader.py``) is refused, because it
could name a file in any package, unless the file is at the top (``pyproject.toml``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "DESIGN.md"

#: Files of the shared specification, which lives outside the repository.
SPECIFICATION = {"COMMANDS.md", "RULES.md", "STYLE.md"}
#: A code span that looks like a path: no spaces, no colon (``salud:cons:…`` is a custom id).
_PATHLIKE = re.compile(r"^[A-Za-z0-9_.\-/*]+$")
_FILE_SUFFIXES = (".py", ".md", ".sql", ".po", ".toml", ".txt", ".json", ".yaml", ".yml")
_ROW = re.compile(r"^\|\s*`([^`]+)`")


def _prose() -> str:
    """The page without its fenced blocks (code samples and the tree drawn in text)."""
    return re.sub(r"^```.*?^```", "", DESIGN.read_text(encoding="utf-8"), flags=re.M | re.S)


def _spans() -> list[str]:
    return re.findall(r"`([^`\n]+)`", _prose())


def _paths() -> set[str]:
    """Spans holding a ``/`` that are not slash commands (``/hurt``, ``/stability test``)."""
    return {
        span
        for span in _spans()
        if "/" in span and not span.startswith("/") and _PATHLIKE.match(span)
    }


def _modules_of(folder: str) -> set[str]:
    """Every module with code: an empty ``__init__.py`` has nothing to describe."""
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / folder).rglob("*.py")
        if path.read_text(encoding="utf-8").strip()
    }


def _rows() -> set[str]:
    """The first cell of every table row, when it is a code span."""
    return {
        found.group(1)
        for line in DESIGN.read_text(encoding="utf-8").splitlines()
        if (found := _ROW.match(line))
    }


def test_every_path_the_page_names_exists() -> None:
    missing = sorted(path for path in _paths() if not list(ROOT.glob(path.rstrip("/"))))
    assert not missing, f"docs/DESIGN.md names paths that do not exist: {missing}"


def test_file_names_are_whole_paths() -> None:
    bare = sorted(
        span
        for span in _spans()
        if "/" not in span
        and " " not in span
        and span.endswith(_FILE_SUFFIXES)
        and span not in SPECIFICATION
        and not (ROOT / span).is_file()  # a file at the top, such as pyproject.toml
    )
    assert not bare, f"docs/DESIGN.md names files without their folder: {bare}"


def test_every_module_of_bot_and_every_cog_has_its_row() -> None:
    missing = sorted((_modules_of("bot") | _modules_of("cogs")) - _rows())
    assert not missing, f"modules without a row in docs/DESIGN.md: {missing}"


def test_every_row_names_a_module_that_exists() -> None:
    gone = sorted(row for row in _rows() if "/" in row and not (ROOT / row).exists())
    assert not gone, f"docs/DESIGN.md has rows for modules that are gone: {gone}"


def test_the_checks_see_the_page() -> None:
    """The checks above would pass on an empty page: they must find what they look for."""
    assert len(_rows()) >= len(_modules_of("bot")), "the module tables were not found"
    assert "bot/storage/sqlite/transaction.py" in _paths()
