"""The end-to-end fixture itself, exercised with the bare floor bot (bench/floor_bot.py)."""

from __future__ import annotations

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.fake_discord.validation import check_commands, message_errors
from devkit.harness import BotProcess

pytestmark = pytest.mark.e2e


async def test_login_and_command_sync_is_recorded_and_valid(
    floor_fake: FakeDiscord, floor_bot: BotProcess
) -> None:
    assert floor_bot.running
    assert floor_fake.identifies >= 1
    assert floor_fake.command_puts, "the floor bot syncs at start"
    assert floor_fake.command_errors == []
    assert {c["name"] for c in floor_fake.commands} >= {"ping", "echo", "slow", "button"}
    assert all(
        c["id"] and c["application_id"] == floor_fake.application_id for c in floor_fake.commands
    )
    assert not floor_fake.unmatched, floor_fake.unmatched


async def test_slash_command_answered_with_an_embed(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    member = floor_guild.member("Ana")
    reply = await floor_fake.slash(floor_guild, member, "ping")
    assert reply.type == 4
    assert not reply.ephemeral
    assert reply.embed["title"] == "Floor"
    assert "9 / 9" in reply.text
    assert reply.latency is not None and reply.latency < 1
    assert (
        reply.message is not None
        and reply.message["interaction_metadata"]["user"]["id"] == member.id
    )
    assert floor_fake.violations == []


async def test_typed_options_ephemeral_reply_and_autocomplete(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    member = floor_guild.member("Bea", locale="es-ES")
    reply = await floor_fake.slash(floor_guild, member, "echo", {"text": "hola", "times": 2})
    assert reply.ephemeral
    assert reply.content == "hola hola"
    option_types = {o["name"]: o["type"] for o in reply.interaction["data"]["options"]}
    assert option_types == {"text": 3, "times": 4}
    choices = await floor_fake.autocomplete(
        floor_guild, member, "echo", {"text": "an"}, focused="text"
    )
    assert [c["name"] for c in choices] == ["Ana", "Andrés"]
    with pytest.raises(AssertionError, match="no option 'txt'"):
        await floor_fake.slash(floor_guild, member, "echo", {"txt": "x"})


async def test_deferral_filled_by_followup_and_subcommand_with_member_option(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    ana, gm = floor_guild.member("Ana"), floor_guild.member("Gm", permissions=["manage_guild"])
    reply = await floor_fake.slash(floor_guild, gm, "slow defer", {"member": ana})
    assert reply.type == 5 and reply.deferred
    assert reply.ephemeral, "a followup after a deferral keeps the deferral's ephemeral flag"
    assert reply.content == "done for Ana"
    assert reply.embed["title"] == "Floor"
    followups = await reply.wait_followups(1)
    assert followups[0]["content"] == "second"
    data = reply.interaction["data"]
    assert data["options"][0]["name"] == "defer" and data["options"][0]["type"] == 1
    assert ana.id in data["resolved"]["members"]
    assert int(reply.interaction["member"]["permissions"]) & (1 << 5)


async def test_click_updates_the_message(floor_fake: FakeDiscord, floor_guild: FakeGuild) -> None:
    member = floor_guild.member("Ana")
    reply = await floor_fake.slash(floor_guild, member, "button")
    assert reply.custom_ids == ["floor:again"]
    assert reply.button("Again")["disabled"] is False
    clicked = await floor_fake.click(floor_guild, member, reply, "floor:again")
    assert clicked.type == 7
    assert clicked.message_id == reply.message_id
    assert clicked.content == "pressed"
    assert clicked.components == []
    assert reply.content == "pressed", "Reply reads the live message"


async def test_channel_post_through_rest(floor_fake: FakeDiscord, floor_guild: FakeGuild) -> None:
    member = floor_guild.member("Ana")
    await floor_fake.slash(floor_guild, member, "announce")
    posts = await floor_fake.wait_channel_messages(floor_guild.channel.id, 1)
    assert posts[0]["embeds"][0]["title"] == "Floor"
    assert floor_fake.channel_messages(floor_guild.announcements.id) == []


async def test_a_second_guild_added_after_ready(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    other = await floor_fake.create_guild(locale="es-ES")
    reply = await floor_fake.slash(other, other.member("Carla"), "ping")
    assert reply.embed["title"] == "Floor"
    assert reply.message is not None and reply.message["guild_id"] == other.id


async def test_gateway_drop_then_resume(floor_fake: FakeDiscord, floor_guild: FakeGuild) -> None:
    member = floor_guild.member("Ana")
    before = floor_fake.handshakes
    await floor_fake.drop_gateway("resume")
    # Sent while the bot is away: buffered and replayed after RESUME, as Discord does.
    reply = await floor_fake.slash(floor_guild, member, "ping")
    assert reply.embed["title"] == "Floor"
    assert floor_fake.handshakes > before
    assert "RESUMED" in floor_fake.gateway_log


async def test_gateway_drop_with_invalid_session_reidentifies(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    member = floor_guild.member("Ana")
    identifies = floor_fake.identifies
    await floor_fake.drop_gateway("invalidate")
    await floor_fake.wait_until(
        lambda: floor_fake.identifies > identifies, 5, what="a new IDENTIFY"
    )
    reply = await floor_fake.slash(floor_guild, member, "ping")
    assert reply.embed["title"] == "Floor"


async def test_server_error_on_callback_is_retried(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    floor_fake.inject_failure("callback", status=500)
    reply = await floor_fake.slash(floor_guild, floor_guild.member("Ana"), "ping")
    assert reply.embed["title"] == "Floor"
    assert any(r.status == 500 for r in floor_fake.requests)


async def test_rate_limit_on_followup_is_waited_out(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    floor_fake.inject_failure("webhook", status=429, retry_after=0.05)
    reply = await floor_fake.slash(floor_guild, floor_guild.member("Ana"), "slow defer")
    assert reply.content == "done for nobody"
    assert any(r.status == 429 for r in floor_fake.requests)


async def test_second_response_and_late_response_are_refused(
    floor_fake: FakeDiscord, floor_guild: FakeGuild
) -> None:
    import aiohttp

    reply = await floor_fake.slash(floor_guild, floor_guild.member("Ana"), "ping")
    url = f"{floor_fake.api_url}/interactions/{reply.record.id}/{reply.record.token}/callback"
    body = {"type": 4, "data": {"content": "x"}}
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        assert response.status == 400
        assert (await response.json())["code"] == 40060
    assert reply.record.errors == ["40060 already acknowledged"]


def test_validators_catch_what_discord_refuses() -> None:
    bad = [{"name": "Bad Name", "description": "", "type": 1, "options": []}]
    problems = check_commands(bad)
    assert any("invalid name" in p for p in problems)
    assert any("description" in p for p in problems)
    good = [
        {
            "name": "hurt",
            "description": "Damage",
            "type": 1,
            "default_member_permissions": "32",
            "name_localizations": {"es-ES": "herir"},
            "options": [{"name": "amount", "description": "x", "type": 3, "required": True}],
        }
    ]
    assert check_commands(good) == []
    embed = {"title": "t" * 257, "fields": [{"name": "a", "value": ""}]}
    problems = message_errors({"embeds": [embed]}, "MessageCreateRequest", creating=True)
    assert any("title" in p for p in problems) and any("empty" in p for p in problems)
    assert message_errors({"content": "x" * 2001}, "MessageCreateRequest", creating=True)


async def test_a_first_response_after_the_deadline_is_unknown_interaction(
    floor_fake: FakeDiscord, floor_guild: FakeGuild, floor_bot: BotProcess
) -> None:
    floor_fake.interaction_deadline = 0.0
    try:
        reply = await floor_fake.slash(floor_guild, floor_guild.member("Ana"), "ping", wait="none")
        await floor_fake.wait_until(lambda: bool(reply.record.errors), 5, what="a refused callback")
    finally:
        floor_fake.interaction_deadline = 3.0
    assert reply.type is None
    assert reply.record.errors[0].startswith("10062")
    await floor_bot.wait_for_log("error code: 10062")
    floor_bot.forget_log()  # the floor bot's NotFound traceback is expected here


async def test_standalone_fake_prints_its_port() -> None:
    import asyncio
    import sys

    import aiohttp

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "devkit.fake_discord", stdout=asyncio.subprocess.PIPE
    )
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 10)).decode()
        assert line.startswith("FAKE_DISCORD_PORT=")
        port = int(line.split("=")[1])
        url = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as session:
            async with session.post(f"{url}/_fake/guilds", json={"locale": "es-ES"}) as response:
                assert "channel_id" in await response.json()
            async with session.get(f"{url}/_fake/state") as response:
                assert (await response.json())["connected"] is False
    finally:
        process.terminate()
        await process.wait()
