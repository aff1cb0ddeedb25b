"""Driving the bot the way players do, for steps that are not what a test is about."""

from __future__ import annotations

import copy
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply


async def create(
    fake: FakeDiscord,
    guild: FakeGuild,
    member: FakeMember,
    name: str,
    health: int,
    first_aid: int = 0,
) -> Reply:
    """``/character create``; asserts it worked."""
    reply = await fake.slash(
        guild,
        member,
        "character create",
        {"name": name, "health": health, "first_aid": first_aid},
    )
    assert not reply.ephemeral, reply.text
    return reply


async def gm_with(
    fake: FakeDiscord, guild: FakeGuild, name: str, health: int, first_aid: int = 0
) -> FakeMember:
    """A GM (``gm_of``) who has just created the character ``name``: how most GM tests start."""
    gm = gm_of(guild)
    await create(fake, guild, gm, name, health, first_aid)
    return gm


async def announcing_gm(fake: FakeDiscord, guild: FakeGuild) -> FakeMember:
    """A GM (``gm_of``) who has made ``guild.announcements`` the announcement channel."""
    gm = gm_of(guild)
    reply = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    assert reply.ephemeral and guild.announcements.mention in reply.text, reply.text
    return gm


async def uno_and_dos_hurt(
    fake: FakeDiscord, guild: FakeGuild, amount: str
) -> tuple[FakeMember, Reply]:
    """A GM creates Uno and Dos (2 Health each) and hurts both in one ``/hurt``; the GM and
    that reply."""
    gm = await gm_with(fake, guild, "Uno", 2)
    await create(fake, guild, gm, "Dos", 2)
    reply = await fake.slash(
        guild, gm, "hurt", {"character": "Uno", "amount": amount, "character2": "Dos"}
    )
    return gm, reply


async def try_create(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, name: str, health: int = 9
) -> Reply:
    """``/character create`` whatever its answer, for the tests of names and refusals."""
    return await fake.slash(guild, member, "character create", {"name": name, "health": health})


async def delete(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, name: str
) -> tuple[Reply, Reply]:
    """``/character delete`` confirmed: the private question and the press of its Delete
    button, once the public reply was sent and the question says it is done."""
    question = await fake.slash(guild, member, "character delete", {"character": name})
    assert question.ephemeral, question.text
    yes = next(c for c in question.custom_ids if c.endswith(":yes"))
    pressed = await fake.click(guild, member, question, yes)
    if pressed.type == 6:
        await pressed.wait_edit(1)
    return question, pressed


async def gm_set(fake: FakeDiscord, guild: FakeGuild, name: str, **values: Any) -> Reply:
    """``/character set`` by the server's owner (a GM); asserts it worked."""
    reply = await fake.slash(guild, guild.owner, "character set", {"character": name, **values})
    assert not reply.ephemeral, reply.text
    return reply


async def replay(fake: FakeDiscord, reply: Reply) -> Reply:
    """The same interaction (same id) delivered again, as Discord may after a reconnect."""
    payload = copy.deepcopy(reply.interaction)
    again = fake._send_interaction(payload, reply.record.label + " (again)")
    return await again.wait_complete(fake.reply_timeout)


def gm_of(guild: FakeGuild, name: str = "Gm", locale: str = "en-US") -> FakeMember:
    """A GM by the Manage Server permission."""
    return guild.member(name, permissions=["manage_guild"], locale=locale)


async def correct(
    fake: FakeDiscord, guild: FakeGuild, gm: FakeMember, name: str, **values: Any
) -> Reply:
    """``/character set`` (a GM's correction) to put a character where a test needs it."""
    reply = await fake.slash(guild, gm, "character set", {"character": name, **values})
    assert not reply.ephemeral, reply.content
    return reply


async def gms_by_permission_and_role(
    fake: FakeDiscord, guild: FakeGuild
) -> tuple[FakeMember, FakeMember]:
    """A GM by Manage Server and a GM by the GM role, which the server's owner configures."""
    manager = guild.member("Manager", permissions=["manage_guild"])
    role = guild.role("Keeper")
    keeper = guild.member("Keeper", roles=[role])
    configured = await fake.slash(guild, guild.owner, "config gm-role", {"role": role})
    assert configured.ephemeral and "GM role set" in configured.content, configured.content
    return manager, keeper


async def permission_cast(
    fake: FakeDiscord, guild: FakeGuild
) -> tuple[FakeMember, FakeMember, FakeMember, FakeMember]:
    """The people of a permission test: Ana (owns the character), Bea (another player) and the
    two kinds of GM besides the owner (``gms_by_permission_and_role``)."""
    ana, bea = guild.member("Ana"), guild.member("Bea")
    manager, keeper = await gms_by_permission_and_role(fake, guild)
    return ana, bea, manager, keeper
