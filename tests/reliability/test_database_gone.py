"""The database file deleted or moved under the running bot (issue 24 point 14).

SQLite keeps the file open, so every commit went on succeeding into a file the next start
would not find: 5 ``/hurt`` answered publicly, every character gone after the restart, no
line in the log. Now the bot notices that the path no longer names the file it opened,
refuses every change with one sentence, logs it once as an error saying how to put the file
back, and stores again once the file is back where it was.
"""

from __future__ import annotations

import os
from pathlib import Path

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import create
from tests.reliability.support import interaction_ids, isolated_bot, said

#: ``error.database_gone`` in English.
GONE = "Salud can no longer find the database file, so this change was not stored"
#: The log's line, once.
LOGGED = "was deleted, moved or replaced while the bot ran"
COMPANIONS = ("", "-wal", "-shm")


async def _hurt(fake: FakeDiscord, guild: FakeGuild) -> Reply:
    return await fake.slash(guild, guild.owner, "hurt", {"character": "Ana", "amount": "1"})


def _refused(reply: Reply) -> bool:
    return reply.is_complete() and reply.ephemeral and GONE in said(reply) and not reply.embeds


def _delete(database: Path) -> None:
    for suffix in COMPANIONS:
        Path(f"{database}{suffix}").unlink(missing_ok=True)


def _move(database: Path, folder: Path) -> None:
    folder.mkdir()
    for suffix in COMPANIONS:
        source = Path(f"{database}{suffix}")
        if source.exists():
            os.rename(source, folder / f"db{suffix}")


def _move_back(folder: Path, database: Path) -> None:
    for suffix in COMPANIONS:
        moved = folder / f"db{suffix}"
        if moved.exists():
            os.rename(moved, f"{database}{suffix}")


def _stored_hurts(bot: BotProcess) -> set[int]:
    return set(interaction_ids(bot.database_path))


async def test_a_deleted_database_file_refuses_every_change(tmp_path: Path) -> None:
    async with isolated_bot(tmp_path, name="deleted") as (fake, bot):
        guild = await fake.create_guild()
        await create(fake, guild, guild.owner, "Ana", 20)
        assert not (await _hurt(fake, guild)).ephemeral
        _delete(bot.database_path)

        replies = [await _hurt(fake, guild) for _ in range(5)]

        assert all(_refused(reply) for reply in replies), [said(r) for r in replies]
        assert bot.log_text().count(LOGGED) == 1, bot.log_tail()
        assert "restore" in bot.log_text() and f"cp /proc/{bot.pid}/fd/" in bot.log_text()
        assert not bot.database_path.exists(), "a new empty file was made at the path"
        assert bot.new_tracebacks() == [], bot.log_tail()


async def test_a_moved_database_file_refuses_changes_until_it_is_back(tmp_path: Path) -> None:
    async with isolated_bot(tmp_path, name="moved") as (fake, bot):
        guild = await fake.create_guild()
        await create(fake, guild, guild.owner, "Ana", 20)
        before = await _hurt(fake, guild)
        assert not before.ephemeral, said(before)
        aside = tmp_path / "aside"
        _move(bot.database_path, aside)

        refused = [await _hurt(fake, guild) for _ in range(3)]
        assert all(_refused(reply) for reply in refused), [said(r) for r in refused]
        assert bot.log_text().count(LOGGED) == 1, bot.log_tail()
        assert "move it back to" in bot.log_text()

        _move_back(aside, bot.database_path)
        after = await _hurt(fake, guild)
        assert not after.ephemeral and after.embeds, said(after)

        await bot.restart()
        stored = _stored_hurts(bot)
        answered = {int(before.record.id), int(after.record.id)}
        assert answered <= stored, "an answered change is missing after the restart"
        assert not stored & {int(reply.record.id) for reply in refused}
        assert bot.new_tracebacks() == [], bot.log_tail()
