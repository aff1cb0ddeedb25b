"""The database path no longer names the file opened (issue 24 point 14): the ``COMMIT``'s
trip checks it first, so a change is refused (``DatabaseGone``) rather than stored where the
next start would not find it, logged once; moved back, the file takes changes again."""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

import pytest

from bot.i18n import Language, text
from bot.interaction.tree import error_message
from bot.storage import Storage
from bot.storage.errors import DatabaseGone

from .conftest import Interactions, create

LOGGER = "bot.storage.sqlite.file_identity"


def names_in(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return [str(row[0]) for row in conn.execute("SELECT name FROM characters ORDER BY id")]


def replace_with_a_copy(path: Path) -> None:
    """Another file at the path (a backup copied over it), with the same bytes."""
    replacement = path.with_name("other.sqlite3")
    replacement.write_bytes(path.read_bytes())
    os.replace(replacement, path)


async def test_a_moved_file_refuses_changes_until_it_is_back(
    storage: Storage, db_path: Path, next_id: Interactions, caplog: pytest.LogCaptureFixture
) -> None:
    await create(storage, next_id, "Ana")
    aside = db_path.with_name("aside.sqlite3")
    os.rename(db_path, aside)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        for name in ("Bea", "Cid"):
            with pytest.raises(DatabaseGone):
                await create(storage, next_id, name)
        errors = [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.ERROR]
        assert len(errors) == 1 and "move it back to" in errors[0].getMessage()
        os.rename(aside, db_path)
        await create(storage, next_id, "Dan")
    assert any("is back" in r.getMessage() for r in caplog.records if r.name == LOGGER)
    await storage.checkpointer.wait()
    assert names_in(db_path) == ["Ana", "Dan"]


async def test_a_file_replaced_by_another_refuses_changes(
    storage: Storage, db_path: Path, next_id: Interactions
) -> None:
    await create(storage, next_id, "Ana")
    replace_with_a_copy(db_path)
    with pytest.raises(DatabaseGone):
        await create(storage, next_id, "Bea")


@pytest.mark.parametrize("language", list(Language))
def test_the_player_reads_that_the_database_is_gone(language: Language) -> None:
    message = error_message(language, DatabaseGone("/srv/salud.sqlite3"))
    assert message == text(language, "error.database_gone")
    assert "/srv" not in (message or "")


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
