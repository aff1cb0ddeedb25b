"""The benchmark's floor answers each command in the shape of Salud's reply to the same
request (issue 19 point 10: a floor answering a bare embed made the ratios compare different
work). Both bots get the requests ``make bench`` sends, in its starting state; their replies'
shapes — embeds, fields with their names and inline flags, footers, buttons, and the length
of their texts within a tenth — must be the same."""

from __future__ import annotations

from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import create, gm_set

#: Text lengths may differ by this share (names and numbers vary with the request).
LENGTH_SLACK = 0.1


def shape(reply: Reply) -> list[tuple[Any, ...]]:
    """What building and sending the reply costs, without the exact words."""
    message = reply.message or {}
    shapes: list[tuple[Any, ...]] = [("buttons", len(reply.buttons))]
    for embed in message.get("embeds") or []:
        fields = [(f["name"], bool(f.get("inline"))) for f in embed.get("fields") or []]
        shapes.append(("embed", bool(embed.get("footer")), bool(embed.get("description")), fields))
    return shapes


def size(reply: Reply) -> int:
    return len(reply.text)


async def test_the_floor_answers_in_the_shape_of_salud(
    fake: FakeDiscord,
    bot: BotProcess,
    guild: FakeGuild,
    floor_fake: FakeDiscord,
    floor_guild: FakeGuild,
) -> None:
    gm = guild.owner
    await create(fake, guild, gm, "Ana", 99, 99)
    await create(fake, guild, gm, "Bea", 99, 99)
    await bot.script_dice(4, 3)
    requests = [
        ("hurt", {"character": "Ana", "amount": "1d6"}, None),
        ("conscious", {"character": "Ana"}, -1),  # bench: roll pending, Difficulty 1
        ("firstaid", {"medic": "Bea", "patient": "Ana", "points": 1}, 50),  # bench: 49 lost
        ("character show", {"character": "Ana"}, None),
    ]
    for command, options, health in requests:
        if health is not None:
            await gm_set(fake, guild, "Ana", health=health)
        salud = await fake.slash(guild, gm, command, options)
        floor = await floor_fake.slash(floor_guild, floor_guild.owner, command, options)
        assert shape(floor) == shape(salud), command
        assert abs(size(floor) - size(salud)) <= LENGTH_SLACK * size(salud), (
            command,
            floor.text,
            salud.text,
        )
