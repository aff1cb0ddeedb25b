"""A deferred interaction may take its time (Discord gives it 15 minutes): however long it then
waits for the storage, it is served, never answered "busy" (issue 18: a deferral made outside
``bot.interaction.deferral`` left the 2.4-s storage deadline in place, so a confirmed
``/undo`` queued behind slow commits was answered "busy" although it had time)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.kit import create, refused_at_once, slow_disk
from tests.e2e.kit.db import stored
from tests.e2e.kit.undo import confirm_id
from tests.reliability.support import BUSY, isolated_bot

#: Each commit of this test's bot; five queued ahead of the confirmation: 3 s of waiting.
COMMIT_SECONDS = 0.6
QUEUED = 5


async def test_a_confirmed_undo_behind_slow_commits_is_served(tmp_path: Path) -> None:
    env = slow_disk(COMMIT_SECONDS)
    async with isolated_bot(tmp_path, name="deferred-wait", env=env) as (fake, bot):
        guild = await fake.create_guild()
        gm = guild.owner
        await create(fake, guild, gm, "Ana", 9)
        await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "4"})
        preview = await fake.slash(guild, gm, "undo")
        confirm = confirm_id(preview)
        assert confirm is not None, preview.text
        # Full pools: each /refresh commits (slowly) and records nothing, so the change the
        # GM previewed stays the latest.
        queued = [
            await fake.slash(guild, gm, "refresh", {"character": "Ana"}, wait="none")
            for _ in range(QUEUED)
        ]
        pressed = await fake.click(guild, gm, preview, confirm, wait="none")
        await fake.wait_until(
            lambda: pressed.is_complete() and all(r.is_complete() for r in queued),
            30,
            what="the queued commands and the confirmation",
        )
        texts = [pressed.text, *(message.get("content") or "" for message in pressed.followups)]
        assert not any(BUSY in text for text in texts), texts
        assert pressed.record.errors == [], pressed.record.summary()
        assert stored(bot.database_path, guild, "Ana")["health"] == 9, "the undo was not made"


async def test_a_press_by_someone_else_is_refused_without_waiting_for_the_storage(
    tmp_path: Path,
) -> None:
    """Issue 18, the button's walk: who may press a Consciousness button is checked once,
    before the storage lock (the server's name index knows the owner), so a stranger's press
    is refused at once, in its own response, even behind slow commits."""
    env = slow_disk(COMMIT_SECONDS)
    async with isolated_bot(tmp_path, name="owner-check", env=env) as (fake, bot):
        guild = await fake.create_guild()
        ana = guild.member("Ana")
        await create(fake, guild, ana, "Ana", 9)
        hurt = await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "10"})
        roll_id = hurt.custom_ids[0]
        queued = [
            await fake.slash(guild, guild.owner, "refresh", {"character": "Ana"}, wait="none")
            for _ in range(3)
        ]
        stranger = await fake.click(guild, guild.member("Bea"), hurt, roll_id)
        refused_at_once(stranger, "Only **Ana**'s player or a GM")
        assert stranger.latency is not None and stranger.latency < 1.0, stranger.latency
        assert not all(reply.is_complete() for reply in queued)  # the storage was busy
        await fake.wait_until(lambda: all(r.is_complete() for r in queued), 30, what="refreshes")
        assert stored(bot.database_path, guild, "Ana")["roll_pending"] == 1
