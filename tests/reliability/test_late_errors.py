"""An error after a public deferral stays private (COMMANDS.md, Errors): the public
"thinking…" placeholder is deleted and the error sent as an ephemeral followup.

The commit is made to fail for real, in the real bot process: its commits take 2.1 s (the
devkit's slow disk), so the bot defers a change publicly just before committing it, and the
process's file-size
limit (``RLIMIT_FSIZE``, set from outside with ``prlimit``) is lowered below the first frame
of SQLite's write-ahead log, so that the commit's write fails as on a full disk. CPython
ignores SIGXFSZ, so the write returns EFBIG and SQLite answers "disk I/O error", which the
storage reports as a full disk (``StorageFull``: one sentence to the player).
"""

from __future__ import annotations

import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from devkit.harness import BotProcess
from tests.e2e.kit import create, slow_disk
from tests.e2e.kit.db import stored as character_row
from tests.reliability.support import UNEXPECTED, integrity, isolated_bot

#: ``error.storage_full`` in English.
FULL = "out of disk space, so this change was not stored"

#: Below a WAL frame (24 + 4096 bytes after a 32-byte header): the commit's first write fails.
FILE_SIZE_LIMIT = 4096


@contextmanager
def writes_fail(bot: BotProcess) -> Iterator[None]:
    assert bot.pid is not None
    soft, hard = resource.prlimit(bot.pid, resource.RLIMIT_FSIZE)
    resource.prlimit(bot.pid, resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, hard))
    try:
        yield
    finally:
        resource.prlimit(bot.pid, resource.RLIMIT_FSIZE, (soft, hard))


async def test_a_commit_failing_after_a_public_deferral_is_answered_privately(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, name="late-error", env=slow_disk()) as (fake, bot):
        guild = await fake.create_guild()
        gm = guild.owner
        await create(fake, guild, gm, "Ana", 9)
        with writes_fail(bot):
            reply = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "4"})
            followups = await reply.wait_followups(1, timeout=10)
        assert "Traceback" not in bot.log_path.read_text(encoding="utf-8", errors="replace")

        assert reply.deferred, "the late command was not deferred: the test proves nothing"
        assert not reply.record.callback_body or not (
            reply.record.callback_body.get("data") or {}
        ).get("flags"), "the deferral was public"
        assert reply.message is None, "the public placeholder is still there"
        assert len(followups) == 1
        error = followups[0]
        assert error.get("flags", 0) & 64, "the error was sent publicly"
        assert FULL in (error.get("content") or "")
        assert UNEXPECTED not in (error.get("content") or "")
        public = fake.channel_messages(guild.channel.id, include_interactions=True)
        assert not [m for m in public if FULL in (m.get("content") or "")]
        assert character_row(bot.database_path, guild, "Ana")["health"] == 9

        # Writes work again: the bot goes on.
        again = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "4"})
        assert not again.ephemeral, again.text
        assert character_row(bot.database_path, guild, "Ana")["health"] == 5
        assert integrity(bot.database_path) == ["ok"]
