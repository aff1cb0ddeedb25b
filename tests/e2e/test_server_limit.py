"""At most 1,000 characters a server (COMMANDS.md ``/character create``; issue 19 point 8:
anyone could create characters without limit). The 1,001st is refused, saying so and what
to do, in the asker's language; it stores nothing; deleting one makes room."""

from __future__ import annotations

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import assert_refused, create, gm_of, history_count, insert_characters, rows

LIMIT = 1000

REFUSAL = {
    "en-US": "This server has 1000 characters, the most Salud keeps for one server",
    "es-ES": "Este servidor ya tiene 1000 personajes, el máximo que Salud guarda por servidor",
}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_thousand_and_first_character_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, locale: str
) -> None:
    gm = gm_of(guild, locale=locale)
    player = guild.member("Player", locale=locale)
    insert_characters(bot, guild, gm, [f"Extra {number:04d}" for number in range(LIMIT - 1)])
    await create(fake, guild, player, "The Last One", 9)
    entries, before = history_count(bot, guild), rows(bot, guild)
    refused = await fake.slash(guild, player, "character create", {"name": "One More", "health": 9})
    assert_refused(refused, REFUSAL[locale], "/character delete")
    assert history_count(bot, guild) == entries and rows(bot, guild) == before
    deleted = await fake.slash(guild, gm, "character delete", {"character": "Extra 0000"})
    yes = next(b["custom_id"] for b in deleted.buttons if b["custom_id"].endswith(":yes"))
    await fake.click(guild, gm, deleted, yes)
    await create(fake, guild, player, "One More", 9)
