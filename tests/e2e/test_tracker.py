"""The live tracker (COMMANDS.md, ``/scene tracker``), end to end: one message per server
that the bot edits after every change within 5 s, at most once every 2 s (a burst of 100
changes folded into a few edits, the last showing the last state); it survives a restart,
stops quietly for good when its message is gone, and a new one replaces the old, which says
it moved. Real bot, fake Discord, both languages.

The bot edits the tracker after the reply of a change, in work the change started: the tests
wait for it with ``bot.settled(reply)`` (every task the interaction started is done, the
tracker's edit included, up to its 2-s spacing) and then check exactly what was edited.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply, message_text
from devkit.harness import BotProcess
from tests.e2e.kit import create, gm_of, gm_with, read_only, stored


def tracker_row(bot: BotProcess, guild: FakeGuild) -> tuple[int, int] | None:
    with read_only(bot) as connection:
        row = connection.execute(
            "SELECT channel_id, message_id FROM trackers WHERE guild_id = ?", (int(guild.id),)
        ).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


def edits_of(fake: FakeDiscord, message_id: str) -> list[Any]:
    """The bot's PATCH requests to one message (the fake's request log)."""
    return [
        request
        for request in fake.requests
        if request.method == "PATCH" and request.path.endswith(f"/messages/{message_id}")
    ]


async def shows(fake: FakeDiscord, message_id: str, needle: str) -> None:
    """Waits (5 s at most: the contract's bound) until the message's text contains ``needle``."""
    await fake.wait_until(
        lambda: needle in message_text(fake.message(message_id)),
        5.0,
        what=f"{needle!r} on message {message_id}",
    )


async def post_tracker(fake: FakeDiscord, guild: FakeGuild, gm: Any, **more: Any) -> Reply:
    reply = await fake.slash(guild, gm, "scene tracker", **more)
    assert reply.type == 4 and not reply.ephemeral, reply.text
    assert reply.message_id is not None
    return reply


async def tracked(fake: FakeDiscord, guild: FakeGuild, name: str) -> tuple[FakeMember, str]:
    """A GM who has created ``name`` (9 Health) and posted a tracker; the GM and the id of the
    tracker's message."""
    gm = await gm_with(fake, guild, name, 9)
    tracker = await post_tracker(fake, guild, gm)
    return gm, str(tracker.message_id)


async def test_the_tracker_follows_every_change_within_five_seconds(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, "Dj", "es-ES")
    await create(fake, guild, gm, "Amelia Ríos", 9)
    await create(fake, guild, gm, "Bruno", 3)
    tracker = await post_tracker(fake, guild, gm)
    assert tracker.embed["title"] == "Seguimiento en vivo — 2 personajes en juego"
    assert "**Amelia Ríos** — Salud 9 / 9" in tracker.text
    assert "Actualizado a las <t:" in tracker.text
    message_id = str(tracker.message_id)
    await bot.settled(tracker)
    assert tracker_row(bot, guild) == (int(guild.channel.id), int(message_id))

    hurt = await fake.slash(guild, gm, "hurt", {"character": "Amelia", "amount": "4"})
    assert not hurt.ephemeral
    started = time.monotonic()
    await shows(fake, message_id, "**Amelia Ríos** — Salud 5 / 9")
    assert time.monotonic() - started < 5.0
    await fake.slash(guild, gm, "hurt", {"character": "Bruno", "amount": "20"})
    await shows(fake, message_id, "💀 Han muerto: Bruno")
    assert "1 personaje en juego" in message_text(fake.message(message_id))
    edited = fake.message(message_id)
    assert edited is not None and edited["mentions"] == [] and edited["content"] == ""
    assert fake.violations == []


async def test_only_a_gm_posts_it(fake: FakeDiscord, bot: BotProcess, guild: FakeGuild) -> None:
    player = guild.member("Player")
    refused = await fake.slash(guild, player, "scene tracker")
    assert refused.ephemeral and "Only a GM" in refused.text and "/scene tracker" in refused.text
    assert tracker_row(bot, guild) is None


async def test_a_burst_of_100_changes_is_folded_into_edits_two_seconds_apart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 60)
    await create(fake, guild, gm, "Bea", 60)
    tracker = await post_tracker(fake, guild, gm)
    message_id = str(tracker.message_id)
    replies = []
    for n in range(100):  # about 6 s of changes: several edits must fall due
        replies.append(
            await fake.slash(
                guild,
                gm,
                "hurt",
                {"character": "Ana" if n % 2 else "Bea", "amount": "1"},
                wait="none",
            )
        )
        # Not a wait: the changes are spread over about 6 s, the load the spacing is about.
        await asyncio.sleep(0.06)
    for reply in replies:
        await reply.wait_complete(30.0)
        assert not reply.ephemeral, reply.text
    last_change = max(reply.record.callback_at or 0.0 for reply in replies)
    assert stored(bot, guild, "Ana")["health"] == 10 == stored(bot, guild, "Bea")["health"]
    await bot.settled(*replies, timeout=10.0)  # the tracker's last edit included
    assert "**Bea** — Health 10 / 60" in message_text(fake.message(message_id))
    assert "**Ana** — Health 10 / 60" in message_text(fake.message(message_id))
    edits = edits_of(fake, message_id)
    times = [request.at for request in edits]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert all(gap >= 2.0 for gap in gaps), gaps
    assert 3 <= len(edits) <= 1 + (times[-1] - times[0]) / 2.0
    # Every change is on the tracker within 5 s: an edit follows each within that time.
    for reply in replies:
        changed_at = reply.record.callback_at or 0.0
        assert any(0 <= at - changed_at < 5.0 for at in times), (changed_at, times)
    assert times[-1] - last_change < 5.0
    final = edits[-1].body["embeds"][0]["description"]
    assert "**Ana** — Health 10 / 60" in final and "**Bea** — Health 10 / 60" in final


async def test_a_new_tracker_replaces_the_old_which_says_it_moved(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Carla", 9)
    old = await post_tracker(fake, guild, gm)
    new = await post_tracker(fake, guild, gm, channel=guild.announcements)
    old_id, new_id = str(old.message_id), str(new.message_id)
    await shows(fake, old_id, f"moved to <#{guild.announcements.id}>")
    moved = fake.message(old_id)
    assert moved is not None and moved["embeds"] == []
    assert f"/channels/{guild.id}/{guild.announcements.id}/{new_id}" in moved["content"]
    await bot.settled(new)
    assert tracker_row(bot, guild) == (int(guild.announcements.id), int(new_id))
    await fake.slash(guild, gm, "hurt", {"character": "Carla", "amount": "2"})
    await shows(fake, new_id, "**Carla** — Health 7 / 9")
    assert "Carla" not in message_text(fake.message(old_id))


async def test_the_tracker_survives_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, message_id = await tracked(fake, guild, "Dario")
    await bot.restart()
    await fake.slash(guild, gm, "hurt", {"character": "Dario", "amount": "3"})
    await shows(fake, message_id, "**Dario** — Health 6 / 9")


async def test_a_deleted_tracker_stops_quietly_for_good(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, message_id = await tracked(fake, guild, "Elena")
    fake.delete_message(message_id)
    first = await fake.slash(guild, gm, "hurt", {"character": "Elena", "amount": "1"})
    await bot.settled(first)  # the tracker's edit, refused (404), and the tracker forgotten
    assert tracker_row(bot, guild) is None
    assert f"the live tracker of guild {guild.id} can no longer be edited" in bot.log_text()
    assert len(edits_of(fake, message_id)) == 1
    second = await fake.slash(guild, gm, "hurt", {"character": "Elena", "amount": "1"})
    await bot.settled(second)  # all it does: no edit tried again
    assert len(edits_of(fake, message_id)) == 1
    assert re.search(r"Traceback", bot.log_tail(30)) is None


async def test_a_tracker_the_bot_may_no_longer_edit_stops_for_good(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, message_id = await tracked(fake, guild, "Fabia")
    fake.inject_failure("channel_message", status=403)  # permissions taken away
    first = await fake.slash(guild, gm, "hurt", {"character": "Fabia", "amount": "1"})
    await bot.settled(first)  # the tracker's edit, 2 s after it was posted: refused (403)
    assert tracker_row(bot, guild) is None
    second = await fake.slash(guild, gm, "hurt", {"character": "Fabia", "amount": "1"})
    await bot.settled(second)  # all it does: no edit tried again
    assert "Fabia** — Health 9 / 9" in message_text(fake.message(message_id))  # never edited
    assert len(edits_of(fake, message_id)) == 1  # the refused one only
