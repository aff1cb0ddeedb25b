"""The main database file alone is complete soon after the commands stop, and after a clean
stop (COMMANDS.md, Operating; SQLITE-NOTES.md, WAL and copies): someone who copies only the
``.sqlite3`` file must not copy an empty database."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from tests.e2e.kit import create
from tests.reliability.support import isolated_bot

#: "Within seconds of a quiet moment".
QUIET_WAIT = 3.0


def health_in_copy_of_main_file(database: Path, copy: Path, name: str) -> int | None:
    """Copy the main file only (not its -wal), as a careless backup would, and read it."""
    shutil.copyfile(database, copy)
    conn = sqlite3.connect(copy)
    try:
        row = conn.execute("SELECT health FROM characters WHERE name = ?", (name,)).fetchone()
    except sqlite3.DatabaseError:
        return None  # not even the schema
    finally:
        conn.close()
    return None if row is None else int(row[0])


async def test_the_main_file_holds_every_change_after_a_quiet_moment_and_a_stop(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, name="wal") as (fake, bot):
        guild = await fake.create_guild()
        await create(fake, guild, guild.owner, "Ana", 9)
        hurt = await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "3"})
        assert not hurt.ephemeral, hurt.text
        # Committed before its reply: the WAL checkpoint run by a timer once no commit came
        # for a while, sent after this mark, copies it into the main file.
        mark = await bot.background_mark()
        await bot.wait_background_trip("PRAGMA wal_checkpoint", after=mark, timeout=QUIET_WAIT)
        copy = tmp_path / "copy-while-running.sqlite3"
        assert health_in_copy_of_main_file(bot.database_path, copy, "Ana") == 6

        await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "2"})
        assert await bot.stop() == 0
        wal = bot.database_path.with_name(bot.database_path.name + "-wal")
        assert not wal.exists() or wal.stat().st_size == 0
        copy = tmp_path / "copy-after-stop.sqlite3"
        assert health_in_copy_of_main_file(bot.database_path, copy, "Ana") == 4
