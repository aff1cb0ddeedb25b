"""An announcement channel the bot lost (issue 19.6; COMMANDS.md ``/config channel``): after
a 403 or 404 there the bot stops posting there, for good (also after a restart), says so
once, privately, to the next GM who uses a command in that server, and posts there again
once a GM sets a channel. Discord bans a bot after 10,000 invalid requests in 10 minutes:
a refused channel must not be posted in after every change.
"""

from __future__ import annotations

from typing import Any

from devkit.fake_discord import FakeChannel, FakeDiscord, FakeGuild, Reply
from devkit.fake_discord.ids import snowflake
from devkit.harness import BotProcess
from tests.e2e.kit import announcing_gm, create, gm_of, read_only


def posts_in(fake: FakeDiscord, channel_id: str) -> list[Any]:
    """The bot's POSTs to a channel (refused ones included)."""
    return [
        request
        for request in fake.requests
        if request.method == "POST" and request.path.endswith(f"/channels/{channel_id}/messages")
    ]


def stored_channel(bot: BotProcess, guild: FakeGuild) -> int | None:
    with read_only(bot) as connection:
        row = connection.execute(
            "SELECT channel_id FROM guild_settings WHERE guild_id = ?", (int(guild.id),)
        ).fetchone()
    return None if row is None or row[0] is None else int(row[0])


async def hurt(fake: FakeDiscord, guild: FakeGuild, member: Any, name: str, amount: int) -> Reply:
    reply = await fake.slash(guild, member, "hurt", {"character": name, "amount": str(amount)})
    assert reply.type == 4 and not reply.ephemeral, reply.text
    return reply


async def test_a_forbidden_channel_is_posted_in_once_told_to_a_gm_once_and_set_again(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await announcing_gm(fake, guild)
    player = guild.member("Player")
    await create(fake, guild, player, "Ana", 9)
    await create(fake, guild, player, "Bea", 9)
    channel = guild.announcements
    fake.forbidden_channels.add(channel.id)  # the bot's permission there is taken away

    first = await hurt(fake, guild, player, "Ana", 9)  # 9 → 0: Hurt, announced
    await bot.wait_for_log(f"could not announce in channel {channel.id}")
    await hurt(fake, guild, player, "Bea", 9)  # announced too, but not there any more
    await bot.restart()  # what was under way is done: the posts tried are all made
    assert [request.status for request in posts_in(fake, channel.id)] == [403]
    assert stored_channel(bot, guild) is None  # for good: stored
    assert first.record.followup_ids == []  # a player is not told
    await hurt(fake, guild, player, "Ana", 6)  # 0 → -6: Seriously wounded, announced

    told = await fake.slash(guild, gm, "scene status")
    assert not told.ephemeral
    [notice] = await told.wait_followups(1)
    assert notice["flags"] & 64, notice  # privately
    assert channel.mention in notice["content"] and "/config channel" in notice["content"]
    assert "permission" in notice["content"]
    again = await fake.slash(guild, gm, "scene status")
    await fake.slash(guild, gm, "scene status")
    assert again.record.followup_ids == []  # once
    assert len(posts_in(fake, channel.id)) == 1

    fake.forbidden_channels.discard(channel.id)
    await announcing_gm(fake, guild)
    await hurt(fake, guild, player, "Bea", 6)  # 0 → -6: announced there again
    posted = await fake.wait_channel_messages(channel.id, 1)
    assert posted[-1]["embeds"][0]["title"] == "Bea"
    assert [request.status for request in posts_in(fake, channel.id)] == [403, 200]


async def test_a_deleted_channel_is_said_in_spanish_and_forgotten_once_a_gm_sets_another(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, "Dj", "es-ES")
    reply = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    assert reply.ephemeral
    await create(fake, guild, gm, "Olga", 9)
    lost = guild.announcements.id
    del guild.channels[lost]  # the channel is deleted: 404 Unknown Channel
    hurt_reply = await hurt(fake, guild, gm, "Olga", 9)
    [notice] = await hurt_reply.wait_followups(1)  # the GM who used the command is told
    assert notice["flags"] & 64
    assert notice["content"].startswith(f"Salud ya no encuentra <#{lost}> (el canal se borró)")
    assert "Vuelve a elegir el canal de avisos con /config channel." in notice["content"]

    # Lost again, and a GM sets a channel before any GM is told: nothing to tell then.
    avisos = FakeChannel(snowflake(), guild.id, "avisos", position=2)
    guild.channels[avisos.id] = avisos
    await fake.slash(guild, gm, "config channel", {"channel": avisos})
    fake.forbidden_channels.add(avisos.id)
    player = guild.member("Jugadora", locale="es-ES")
    await create(fake, guild, player, "Pilar", 9)
    await hurt(fake, guild, player, "Pilar", 9)
    await bot.wait_for_log(f"could not announce in channel {avisos.id}")
    fake.forbidden_channels.discard(avisos.id)
    set_again = await fake.slash(guild, gm, "config channel", {"channel": avisos})
    assert set_again.ephemeral
    await hurt(fake, guild, player, "Pilar", 6)
    await fake.wait_channel_messages(avisos.id, 1)
    assert set_again.record.followup_ids == []
    assert stored_channel(bot, guild) == int(avisos.id)
