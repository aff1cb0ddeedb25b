"""Calling the player (COMMANDS.md): the public reply in which a Consciousness roll falls due
mentions the character's owner once, with ``allowed_mentions`` naming only that user; no
other message pings anyone, and a character named ``@everyone`` or ``<@&123>`` pings nobody.
The fake Discord works out who each message would ping (``devkit/fake_discord/mentions.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord.mentions import pings_of
from devkit.harness import BotProcess
from tests.e2e.kit import create, message_bodies, roll_shown


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
    assert due.content == f"{ana.mention}: Ana must make a Consciousness roll (Difficulty 2)"
    assert any(c.startswith("salud:cons:") for c in due.custom_ids)
    # Everything else the table does pings nobody: looks, rolls, First Aid, lists, undo.
    plain = next(c for c in due.custom_ids if c.split(":")[3] == "0")
    await bot.script_dice(4)
    roll = await fake.click(guild, ana, due, plain)
    assert roll.type == 7  # the pressed message's buttons disabled; the roll follows up
    answer = await roll.answer()
    assert not answer.ephemeral and roll_shown(answer.embed, die=4).success
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
    assert hurt.content == (
        f"Consciousness roll: {bea.mention} (@\u200beveryone, <@&123> and <@\u200b{gm.id}>)"
    )
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
    assert hurt.content == (
        f"Tirada de Consciencia: {ana.mention} (Olga) y {bea.mention} (Pablo y Quique)"
    )
    assert hurt.embeds[0]["description"].startswith("**Olga** · Salud 2 → -3 / 2")
    posted = await fake.wait_channel_messages(guild.announcements.id, 1)
    assert posted[-1]["mentions"] == [] and ana.mention not in posted[-1]["content"]
    # A correction below 0 (G2) makes a roll due too: its reply calls the owner.
    await fake.slash(guild, gm, "character create", {"name": "Rita", "health": 9, "player": ana})
    corrected = await fake.slash(guild, gm, "character set", {"character": "Rita", "health": -3})
    called(corrected, ana)


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("es-ES", "{player}: Amelia Ríos debe hacer una Tirada de Consciencia (Dificultad 3)"),
        ("en-US", "{player}: Amelia Ríos must make a Consciousness roll (Difficulty 3)"),
    ],
)
async def test_the_call_says_what_is_asked_and_never_calls_who_used_the_command(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
    words: str,
) -> None:
    """Issue 20: the content was only ``<@id>``, so a phone's notification read ``@Lucía``;
    and a GM hurting their own NPC was pinged for it."""
    guild = await make_guild(locale=locale)
    gm = guild.member("Dani", permissions=["manage_guild"], locale=locale)
    lucia = guild.member("Lucía", locale=locale)
    await fake.slash(
        guild, gm, "character create", {"name": "Amelia Ríos", "health": 8, "player": lucia}
    )
    await create(fake, guild, gm, "Sgt. O'Malley", 8)
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "11"})
    called(hurt, lucia)
    assert hurt.content == words.format(player=lucia.mention)
    own = await fake.slash(guild, gm, "hurt", {"character": "Sgt. O'Malley", "amount": "11"})
    assert any(c.startswith("salud:cons:") for c in own.custom_ids), "the roll is still offered"
    assert own.content == "" and not pings_of((own.body or {})["data"]).anyone
    again = await fake.slash(guild, lucia, "hurt", {"character": "Amelia Ríos", "amount": "1"})
    assert not again.ephemeral and again.content == "", again.content
    assert not pings_of((again.body or {})["data"]).anyone
