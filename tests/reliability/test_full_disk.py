"""The real bot on a disk that refuses to grow its files (issue 19.9: 77 tracebacks "database
or disk is full", users told "something went wrong"): each refused command is answered with
one sentence saying what happened and what to do, the log says it once a minute and holds
no traceback, and once there is room again the bot goes on by itself.

The database is made before the bot starts, larger than the limit; once the bot runs, the
operating system refuses to let the bot process grow any file past that limit
(``RLIMIT_FSIZE``, as ``ulimit -f`` does; SQLite gets the refused writes of a full disk)."""

from __future__ import annotations

import resource
from pathlib import Path

from bot.storage import Storage
from tests.reliability.support import (
    UNEXPECTED,
    burst,
    hurts_in_turn,
    is_refusal,
    isolated_bot,
    players_with_characters,
    said,
    wait_all,
)

NAMES = ("Ana", "Bea", "Cid")
#: Files of the bot may not grow past this many bytes (its log stays far below it).
LIMIT = 256 * 1024
FULL_EN = "out of disk space, so this change was not stored"


async def a_database_larger_than_the_limit(path: Path) -> None:
    async with await Storage.open(path) as storage, storage.transaction() as tx:
        for number in range(300):
            await tx.set_meta(f"filler-{number}", "x" * 3000)


def limit_files(pid: int, size: int | None) -> None:
    """The process's soft limit on the size of its files (None: back to its hard limit)."""
    _soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard if size is None else size, hard))


def sizes(path: Path) -> tuple[int, int]:
    wal = Path(f"{path}-wal")
    return path.stat().st_size, wal.stat().st_size if wal.exists() else 0


async def test_a_full_disk_is_one_sentence_to_players_and_one_log_line(tmp_path: Path) -> None:
    await a_database_larger_than_the_limit(tmp_path / "salud.sqlite3")
    async with isolated_bot(tmp_path, interaction_deadline=30.0) as (fake, bot):
        assert sizes(bot.database_path)[0] > LIMIT
        guild = await fake.create_guild()
        owners = await players_with_characters(fake, guild, NAMES)
        assert bot.pid is not None
        limit_files(bot.pid, LIMIT)
        try:
            replies = []
            for _wave in range(4):  # ~25 KB of WAL a wave: past the limit by the last
                calls = hurts_in_turn(owners, NAMES, 30)
                replies += await burst(fake, guild, calls)
                await wait_all(fake, replies, 60)
            # A refusal is ephemeral: the reply itself, or (a /hurt deferred publicly on a
            # loaded machine) the followup that replaced its deleted "thinking…".
            refused = [reply for reply in replies if is_refusal(reply)]
            done = [reply for reply in replies if not is_refusal(reply)]
            assert refused, f"the disk never filled up: {sizes(bot.database_path)}"
            for reply in refused:
                assert FULL_EN in said(reply) and "tell whoever runs the bot" in said(reply)
                assert UNEXPECTED not in said(reply)
            log = bot.log_path.read_text(encoding="utf-8", errors="replace")
            assert log.count("is full (") == 1, "once a minute, not once per command"
            assert "Traceback" not in log
            # Whether one more change fits depends on the room the refused ones left in the
            # log (CI once stored the next one), so go on until the disk refuses one again.
            for _try in range(20):
                spanish = await fake.slash(
                    guild,
                    owners["Ana"],
                    "hurt",
                    {"character": "Ana", "amount": "1"},
                    locale="es-ES",
                )
                if is_refusal(spanish):
                    break
                done.append(spanish)
            assert is_refusal(spanish) and "sin espacio en disco" in said(spanish), said(spanish)
        finally:
            limit_files(bot.pid, None)
        # prlimit acts at once: the bot's next write has room, with no wait.
        soft, hard = resource.prlimit(bot.pid, resource.RLIMIT_FSIZE)
        assert soft == hard
        again = await fake.slash(guild, owners["Ana"], "hurt", {"character": "Ana", "amount": "1"})
        assert not is_refusal(again), said(again)
        shown = await fake.slash(guild, owners["Ana"], "character show", {"character": "Ana"})
        # Every /hurt answered as a change was stored, and only those: 99 minus them.
        hurts = 1 + sum(1 for reply in done if "Ana" in str(reply.embed.get("title", "")))
        assert shown.embed["fields"][0]["value"].startswith(f"{99 - hurts} / 99"), shown.embed
