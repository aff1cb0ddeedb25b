"""Calling the player (COMMANDS.md): the public reply in which a Consciousness roll falls due
mentions the character's owner once, with ``allowed_mentions`` naming only that user; no
other message pings anyone, and a character named ``@everyone`` or ``<@&123>`` pings nobody.
The fake Discord works out who each message would ping (``devkit/fake_discord/mentions.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord.mentions import pings_of
from devkit.harness import BotProcess
from tests.e2e.kit import create, message_bodies


def called(reply: Reply, *members: FakeMember) -> None:
    """The reply pings exactly these members, each mentioned once, and nobody else."""
    body = (reply.body or {}).get("data") or {}
    allowed = body["allowed_mentions"]
    assert allowed.get("parse") == [], allowed
    assert sorted(str(user) for user in allowed.get("users", [])) == sorted(m.id for m in members)
    assert not allowed.get("roles")
    pings = pings_of(body)
    assert sorted(pings.users) == sorted(m.id for m in members)
    assert not pings.roles and not pings.everyone
    for member in members:
        assert reply.content.count(member.mention) == 1, reply.content
    assert reply.message is not None
    assert sorted(u["id"] for u in reply.message["mentions"]) == sorted(m.id for m in members)
    assert reply.message["mention_roles"] == [] and reply.message["mention_everyone"] is False


def mark(fake: FakeDiscord) -> int:
    """A place in the fake's request log (which keeps the latest 5000) to read on from."""
    return id(fake.requests[-1])


def bodies_since(fake: FakeDiscord, marker: int) -> list[dict[str, Any]]:
    """Every message payload the bot sent after ``marker`` (``mark``)."""
    ids = [id(request) for request in fake.requests]
    assert marker in ids, "the request log moved past the mark"
    return message_bodies(fake, ids.index(marker) + 1)


def pinging(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [body for body in bodies if pings_of(body).anyone]


async def test_the_owner_is_called_when_a_roll_falls_due_and_only_then(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    ana = guild.member("Ana")
    since = mark(fake)
    await create(fake, guild, gm, "Amelia Ríos", 9, 2)
    await fake.slash(guild, gm, "character create", {"name": "Ana", "health": 9, "player": ana})
    await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "3"})  # 6: no roll due
    due = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "8"})  # -2
    called(due, ana)
    assert due.content.startswith(ana.mention)
    assert any(c.startswith("salud:cons:") for c in due.custom_ids)
    # Everything else the table does pings nobody: looks, rolls, First Aid, lists, undo.
    plain = next(c for c in due.custom_ids if c.split(":")[3] == "0")
    roll = await fake.click(guild, ana, due, plain)
    assert roll.type == 7  # the pressed message's buttons disabled; the roll follows up
    assert not (await roll.answer()).ephemeral
    await fake.slash(guild, gm, "firstaid", {"medic": "Amelia", "patient": "Ana", "points": 1})
    for command in ("character list", "scene status", "history", "help"):
        await fake.slash(guild, gm, command)
    await fake.slash(guild, ana, "character show", {"character": "Ana"})
    bodies = bodies_since(fake, since)
    assert len(bodies) >= 9
    assert pinging(bodies) == [(due.body or {})["data"]]


async def test_a_name_that_looks_like_a_mention_pings_nobody_but_the_owner(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    bea = guild.member("Bea")
    for name in ("@everyone", "<@&123>", f"<@{gm.id}>"):
        reply = await fake.slash(
            guild, gm, "character create", {"name": name, "health": 2, "player": bea}
        )
        assert not reply.ephemeral, reply.text
        assert not pings_of((reply.body or {})["data"]).anyone
    since = mark(fake)
    hurt = await fake.slash(
        guild,
        gm,
        "hurt",
        {
            "character": "@everyone",
            "amount": "4",
            "character2": "<@&123>",
            "character3": f"<@{gm.id}>",
        },
    )
    called(hurt, bea)  # one owner of three falling characters: called once
    assert hurt.content.strip() == bea.mention
    listed = await fake.slash(guild, gm, "character list")
    assert not pings_of((listed.body or {})["data"]).anyone
    assert pinging(bodies_since(fake, since)) == [(hurt.body or {})["data"]]


async def test_several_owners_are_each_called_once_and_the_announcement_calls_nobody(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    ana, bea = guild.member("Ana", locale="es-ES"), guild.member("Bea", locale="es-ES")
    await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    for name, owner in (("Olga", ana), ("Pablo", bea), ("Quique", bea)):
        await fake.slash(
            guild, gm, "character create", {"name": name, "health": 2, "player": owner}
        )
    hurt = await fake.slash(
        guild,
        gm,
        "hurt",
        {"character": "Olga", "amount": "5", "character2": "Pablo", "character3": "Quique"},
    )
    called(hurt, ana, bea)
    assert hurt.embeds[0]["title"] == "Olga"
    posted = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert posted[-1]["mentions"] == [] and ana.mention not in posted[-1]["content"]
    # A correction below 0 (G2) makes a roll due too: its reply calls the owner.
    await fake.slash(guild, gm, "character create", {"name": "Rita", "health": 9, "player": ana})
    corrected = await fake.slash(guild, gm, "character set", {"character": "Rita", "health": -3})
    called(corrected, ana)
