"""A database that cannot grow (issue 19.9: 77 tracebacks "database or disk is full", users
told "something went wrong"): every change is refused with ``StorageFull`` and changes
nothing, the log says so once a minute, and the bot goes on by itself once there is room.

SQLite's ``PRAGMA max_page_count`` makes a real "database or disk is full" (SQLITE_FULL) on
a real file: the database may not grow past that many pages, as a full disk would refuse."""

from __future__ import annotations

import logging
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from bot.i18n import Language, text
from bot.interaction.tree import error_message
from bot.storage import Storage, StorageError, StorageFull, StorageUnwritable, StoredCharacter
from bot.storage.interface import HistoryQuery
from bot.storage.models import NewCharacter
from bot.storage.sqlite.full_disk import NOTICE_SECONDS, FullDisk, is_full

from .conftest import ALICE, GM, GUILD_A, Interactions, general, health

FULL_LOG = "bot.storage.sqlite.full_disk"


async def pages(storage: Storage) -> int:
    async with storage.read() as reader:
        (row,) = await reader.fetch_all("PRAGMA page_count")
    return int(row[0])


async def limit_pages(storage: Storage, count: int) -> None:
    """The database may grow to ``count`` pages (on the storage's own connection)."""
    async with storage.read() as reader:
        await reader.fetch_all(f"PRAGMA max_page_count = {count}")


async def entries(storage: Storage) -> int:
    async with storage.read() as reader:
        return len(await reader.history(GUILD_A, HistoryQuery(limit=10_000)))


async def create_with_notes(
    storage: Storage, next_id: Interactions, number: int
) -> StoredCharacter:
    """A change that needs new pages: a character with 40 abilities of long names."""
    async with storage.transaction() as tx:
        made = await tx.create_character(
            NewCharacter(
                GUILD_A,
                f"Investigator {number}",
                ALICE,
                health(),
                [general(f"Ability {number}-{k} " + "x" * 30, 3) for k in range(40)],
            )
        )
        await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="c")
    return made


async def test_a_full_database_refuses_changes_with_storage_full_logged_once(
    db_path: Path, next_id: Interactions, caplog: pytest.LogCaptureFixture
) -> None:
    async with await Storage.open(db_path) as storage:
        await storage.checkpointer.close()  # the pages stay in the WAL: every commit grows it
        ann = await create_with_notes(storage, next_id, 0)
        await limit_pages(storage, await pages(storage) + 2)
        refused: list[StorageFull] = []
        stored = await entries(storage)
        with caplog.at_level(logging.ERROR):
            for number in range(1, 30):
                try:
                    await create_with_notes(storage, next_id, number)
                    stored += 1
                except StorageFull as error:
                    refused.append(error)
        assert len(refused) >= 20, "the database never filled up"
        assert all(isinstance(error, StorageError) for error in refused)
        cause = refused[0].__cause__
        assert isinstance(cause, sqlite3.OperationalError) and is_full(cause)
        assert "database or disk is full" in str(cause)
        said = [record for record in caplog.records if record.name == FULL_LOG]
        assert len(said) == 1, "once a minute, not once per refused change"
        assert said[0].exc_info is None and "free" in said[0].getMessage()
        assert not [record for record in caplog.records if record.exc_info]
        assert await entries(storage) == stored, "a refused change stored nothing"
        async with storage.read() as reader:  # what is stored can still be read
            assert (await reader.character(ann)).name == "Investigator 0"
        # Space freed: the next change is stored, without a restart.
        await limit_pages(storage, 1_000_000)
        async with storage.transaction() as tx:
            now = await tx.character(ann)
            await tx.save_health(now, replace(now.health, health=4))
            await tx.record(guild_id=GUILD_A, interaction_id=next_id(), actor_id=GM, command="h")
        await create_with_notes(storage, next_id, 99)
        assert await entries(storage) == stored + 2
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_the_notice_is_said_at_most_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    moments = iter([0.0, 1.0, NOTICE_SECONDS - 1, NOTICE_SECONDS + 0.5, NOTICE_SECONDS + 2])
    full = FullDisk(Path("/srv/salud/bot.sqlite3"), clock=lambda: next(moments))
    error = sqlite3.OperationalError("database or disk is full")
    with caplog.at_level(logging.ERROR, logger=FULL_LOG):
        for _ in range(5):
            full.notice(error)
    assert [record.getMessage().split(" (")[0] for record in caplog.records] == [
        "The disk of /srv/salud/bot.sqlite3 is full"
    ] * 2


def test_only_a_refused_write_counts_as_a_full_disk() -> None:
    def error(code: int) -> sqlite3.OperationalError:
        made = sqlite3.OperationalError("x")
        made.sqlite_errorcode = code
        return made

    assert is_full(error(13))  # SQLITE_FULL
    assert is_full(error(778))  # SQLITE_IOERR_WRITE: a quota, a file size limit
    assert is_full(error(4874))  # SQLITE_IOERR_SHMSIZE
    assert not is_full(error(5))  # SQLITE_BUSY
    assert not is_full(error(10))  # SQLITE_IOERR: a read, the hardware
    assert not is_full(error(11))  # SQLITE_CORRUPT
    assert not is_full(RuntimeError("database or disk is full"))


def test_the_player_is_told_in_one_sentence_in_their_language() -> None:
    refused = StorageFull("/srv/salud/bot.sqlite3")
    english = error_message(Language.EN, refused)
    spanish = error_message(Language.ES, refused)
    assert english == text(Language.EN, "error.storage_full")
    assert spanish == text(Language.ES, "error.storage_full")
    assert english is not None and "out of disk space" in english and "not stored" in english
    assert "tell whoever runs the bot" in english
    assert spanish is not None and "sin espacio en disco" in spanish
    assert "no se ha guardado" in spanish and "Avisa a quien administra el bot" in spanish
    assert "/srv" not in english + spanish, "no internals in a reply"


def _sqlite_error(code: int) -> sqlite3.OperationalError:
    made = sqlite3.OperationalError("disk I/O error")
    made.sqlite_errorcode = code
    return made


@pytest.mark.parametrize(
    ("code", "read_only", "limited", "expected"),
    [
        (13, False, False, StorageFull),  # SQLITE_FULL: ENOSPC
        (778, False, True, StorageFull),  # SQLITE_IOERR_WRITE under ulimit -f: EFBIG
        (778, True, False, StorageUnwritable),  # a read-only mount: EROFS
        (778, False, False, StorageUnwritable),  # a failing disk: EIO
        (1034, False, True, StorageUnwritable),  # SQLITE_IOERR_FSYNC: EIO on a sync
        (8, False, False, StorageUnwritable),  # SQLITE_READONLY
        (1032, False, False, StorageUnwritable),  # SQLITE_READONLY_DBMOVED
    ],
)
def test_a_disk_refusing_writes_is_not_said_to_be_full(
    code: int, read_only: bool, limited: bool, expected: type[StorageError]
) -> None:
    """Issue 24 point 15: EROFS and EIO were told to players as "out of disk space"."""
    disk = FullDisk(
        Path("/srv/salud/bot.sqlite3"), read_only=lambda _: read_only, limited=lambda: limited
    )
    error = _sqlite_error(code)
    assert is_full(error)
    assert type(disk.refused(error)) is expected


@pytest.mark.parametrize("language", list(Language))
def test_the_player_is_told_that_the_bot_cannot_write_its_database(language: Language) -> None:
    message = error_message(language, StorageUnwritable("/srv/salud/bot.sqlite3"))
    assert message == text(language, "error.storage_unwritable")
    assert message is not None and "/srv" not in message
    assert ("disk space" if language is Language.EN else "espacio") not in message


def test_the_log_says_the_disk_refuses_writes(caplog: pytest.LogCaptureFixture) -> None:
    disk = FullDisk(Path("/srv/salud/bot.sqlite3"), read_only=lambda _: True, limited=lambda: False)
    with caplog.at_level(logging.ERROR, logger=FULL_LOG):
        disk.refused(_sqlite_error(778))
    (record,) = caplog.records
    assert "refuses to write" in record.getMessage() and "full" not in record.getMessage()
