"""The bot's first words: the start-up line a self-hoster looks for, and the welcome message
in a server that has just added the bot (its system channel, its language, only when the bot
may post there, and once: not again when the bot reconnects)."""

from __future__ import annotations

from pathlib import Path

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.reliability.support import isolated_bot

INVITE = (
    "https://discord.com/oauth2/authorize?client_id={app}"
    "&scope=bot+applications.commands&permissions=84992"
)


async def welcome_of(fake: FakeDiscord, guild: FakeGuild) -> str:
    """The one message the bot posted in the server's system channel."""
    messages = await fake.wait_channel_messages(guild.channel.id)
    assert len(messages) == 1, messages
    message = messages[0]
    assert not message.get("embeds") and not message.get("flags")
    content: str = message["content"]
    return content


async def test_a_spanish_server_is_welcomed_in_spanish(fake: FakeDiscord, bot: BotProcess) -> None:
    guild = await fake.create_guild(locale="es-ES", system_channel=True)
    text = await welcome_of(fake, guild)
    assert text.startswith("¡Hola! Soy **Salud**: llevo la Salud de vuestros investigadores")
    for part in ("`/help`", "`/character create name health`", "*Gestionar servidor*"):
        assert part in text
    assert "`/config gm-role`" in text and "`/config channel`" in text
    assert "GM" not in text.replace("GUMSHOE", ""), "Spanish says DJ"
    assert fake.channel_messages(guild.announcements.id) == []
    assert fake.violations == []
    await bot.wait_for_log(f"Joined the server {guild.name!r} (id {guild.id}); welcome message")


async def test_an_english_server_is_welcomed_in_english(fake: FakeDiscord, bot: BotProcess) -> None:
    guild = await fake.create_guild(locale="en-GB", system_channel=True)
    text = await welcome_of(fake, guild)
    assert text.startswith("Hello! I am **Salud**: I keep the Health of your investigators")
    for part in ("`/help`", "`/character create name health`", "*Manage Server*"):
        assert part in text
    assert "`/config gm-role`" in text
    assert "DJ" not in text and "Gestionar" not in text
    assert fake.violations == []


async def test_no_welcome_where_the_bot_may_not_post(fake: FakeDiscord, bot: BotProcess) -> None:
    closed = await fake.create_guild(system_channel=True, system_channel_denies=["send_messages"])
    hidden = await fake.create_guild(system_channel=True, system_channel_denies=["view_channel"])
    without = await fake.create_guild(system_channel=False)
    # A server joined after them is greeted: by then the three joins have been handled.
    later = await fake.create_guild(system_channel=True)
    await welcome_of(fake, later)
    for guild in (closed, hidden, without):
        await bot.wait_for_log(f"Joined the server {guild.name!r} (id {guild.id}); it has no")
        for channel in guild.channels.values():
            assert fake.channel_messages(channel.id) == [], guild.name
    assert fake.violations == []


async def test_start_up_line_and_no_second_welcome_after_a_reconnection(tmp_path: Path) -> None:
    async with isolated_bot(tmp_path, name="welcome") as (fake, bot):
        first = await fake.create_guild(system_channel=True)
        await welcome_of(fake, first)
        second = await fake.create_guild(system_channel=True)
        await welcome_of(fake, second)
        await bot.restart()
        await bot.wait_for_log(
            "Ready as salud in 2 servers. Invite it to a server: "
            + INVITE.format(app=fake.application_id)
        )
        handshakes = fake.handshakes
        await fake.drop_gateway("invalidate")  # a new session: READY and every GUILD_CREATE
        await fake.wait_for_handshake(handshakes, timeout=15)
        await bot.wait_for_log("Ready as salud in 2 servers.", 10.0, count=2)  # all are back
        # The servers came back (on_guild_available), they were not joined again.
        reply = await fake.slash(first, first.owner, "character list", {})
        assert reply.is_complete()
        assert len(fake.channel_messages(first.channel.id)) == 1
        assert len(fake.channel_messages(second.channel.id)) == 1
        log = bot.log_text()
        assert "static token" not in log and "Session ID" not in log, "discord.py's jargon"
