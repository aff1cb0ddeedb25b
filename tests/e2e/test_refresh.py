"""/refresh end to end: pools back to their ratings (RULES.md P1, P2; COMMANDS.md)."""

from __future__ import annotations

from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    correct,
    create,
    fits_discord,
    gm_of,
    gm_with,
    history_count,
    rows,
    several_lines,
)


async def _ability(
    fake: FakeDiscord,
    guild: FakeGuild,
    gm: FakeMember,
    character: str,
    ability: str,
    rating: int,
    pool: int,
    kind: str | None = None,
) -> None:
    options: dict[str, Any] = {
        "character": character,
        "ability": ability,
        "rating": rating,
        "pool": pool,
    }
    if kind is not None:
        options["kind"] = kind
    reply = await fake.slash(guild, gm, "ability set", options)
    assert not reply.ephemeral, reply.content


async def _spent_party(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember) -> None:
    """Ana and Bea with First Aid and ability pools partly spent; Carl with full pools."""
    await create(fake, guild, gm, "Ana", 9, first_aid=3)
    await create(fake, guild, gm, "Bea", 8, first_aid=2)
    await create(fake, guild, gm, "Carl", 7, first_aid=1)
    await correct(fake, guild, gm, "Ana", first_aid=1)
    await correct(fake, guild, gm, "Bea", first_aid=0)
    await _ability(fake, guild, gm, "Ana", "Library Use", 3, 0, "investigative")
    await _ability(fake, guild, gm, "Ana", "Athletics", 6, 2, "general")
    await _ability(fake, guild, gm, "Ana", "Firearms", 4, 4, "general")
    await _ability(fake, guild, gm, "Bea", "Stealth", 5, 1, "general")
    await _ability(fake, guild, gm, "Carl", "Credit Rating", 2, 2, "investigative")


async def test_P1_refresh_one_character_fills_first_aid_and_every_ability(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await _spent_party(fake, guild, gm)
    before = rows(bot, guild)
    entries = history_count(bot, guild)

    reply = await fake.slash(guild, gm, "refresh", {"character": "Ana"})

    assert not reply.ephemeral
    after = rows(bot, guild)
    assert after["Ana"]["first_aid_pool"] == 3
    assert after["Ana"]["abilities"] == [
        ("Athletics", "general", 6, 6),
        ("Firearms", "general", 4, 4),
        ("Library Use", "investigative", 3, 3),
    ]
    # Nothing else of Ana moved, and nobody else was touched.
    assert {k: v for k, v in after["Ana"].items() if k not in ("first_aid_pool", "abilities")} == {
        k: v for k, v in before["Ana"].items() if k not in ("first_aid_pool", "abilities")
    }
    assert after["Bea"] == before["Bea"] and after["Carl"] == before["Carl"]
    assert history_count(bot, guild) == entries + 1
    assert reply.embed["title"] == "🔄 Pools refreshed to their ratings (1 character)"
    line = several_lines(reply.embed)["Ana"]
    # Only the pools that moved: the Health it kept is not said again.
    assert line == "**Ana** · First Aid 1 → 3 / 3 · Athletics 2 → 6 / 6 · Library Use 0 → 3 / 3"
    fits_discord(reply)


async def test_P1_refresh_all_characters_in_one_change(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await _spent_party(fake, guild, gm)
    before = rows(bot, guild)
    entries = history_count(bot, guild)

    reply = await fake.slash(guild, gm, "refresh")

    after = rows(bot, guild)
    assert after["Ana"]["first_aid_pool"] == 3 and after["Bea"]["first_aid_pool"] == 2
    assert after["Bea"]["abilities"] == [("Stealth", "general", 5, 5)]
    assert after["Carl"] == before["Carl"], "full pools: untouched"
    assert history_count(bot, guild) == entries + 1
    assert len(reply.embeds) == 1
    assert [name for name in several_lines(reply.embed) if name] == ["Ana", "Bea"]
    history = await fake.slash(guild, gm, "history")
    first = history.embed["description"].splitlines()[0]
    assert first.endswith(" · Pools refreshed"), "no Health moved: none is listed"


async def test_P1_refresh_of_full_pools_is_no_change(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9, first_aid=3)
    await _ability(fake, guild, gm, "Ana", "Athletics", 6, 6, "general")
    entries, before = history_count(bot, guild), rows(bot, guild)
    one = await fake.slash(guild, gm, "refresh", {"character": "Ana"})
    assert not one.ephemeral and "already full" in one.content
    every = await fake.slash(guild, gm, "refresh")
    assert not every.ephemeral and "already full" in every.content
    assert history_count(bot, guild) == entries and rows(bot, guild) == before


async def test_P1_refresh_reaches_dead_and_wounded_characters_without_touching_health(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9, first_aid=3)
    await correct(fake, guild, gm, "Ana", health=-8, first_aid=0)
    before = rows(bot, guild)["Ana"]
    await fake.slash(guild, gm, "refresh", {"character": "Ana"})
    after = rows(bot, guild)["Ana"]
    assert after["first_aid_pool"] == 3
    assert after["health"] == -8 and after["roll_pending"] == before["roll_pending"]


async def test_refresh_permissions_and_bad_character(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    owner = guild.member("Ana")
    await create(fake, guild, owner, "Ana", 9, first_aid=3)
    await correct(fake, guild, gm, "Ana", first_aid=0)
    before = rows(bot, guild)
    assert_refused(
        await fake.slash(guild, owner, "refresh", {"character": "Ana"}), "Only a GM", "/refresh"
    )
    assert_refused(await fake.slash(guild, owner, "refresh"), "Only a GM")
    assert_refused(
        await fake.slash(guild, gm, "refresh", {"character": "Nobody"}), "no character called"
    )
    assert rows(bot, guild) == before
    role = guild.role("Keeper")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    keeper = guild.member("Keeper", roles=[role])
    await fake.slash(guild, keeper, "refresh", {"character": "Ana"})
    assert rows(bot, guild)["Ana"]["first_aid_pool"] == 3
    # Autocomplete offers the server's characters.
    choices = await fake.autocomplete(guild, gm, "refresh", {"character": "a"}, focused="character")
    assert [choice["name"] for choice in choices] == ["Ana"]


async def test_refresh_in_spanish(fake: FakeDiscord, bot: BotProcess, make_guild: Any) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Ana", 9, first_aid=3)
    await correct(fake, guild, gm, "Ana", first_aid=1)
    reply = await fake.slash(guild, gm, "refresh")
    assert reply.embed["title"] == "🔄 Reservas renovadas hasta su índice (1 personaje)"
    assert several_lines(reply.embed)["Ana"] == ("**Ana** · Primeros Auxilios 1 → 3 / 3")
    again = await fake.slash(guild, gm, "refresh", {"character": "Ana"})
    assert "ya están llenas" in again.content
    player = guild.member("Bea", locale="es-ES")
    assert_refused(await fake.slash(guild, player, "refresh"), "Solo un DJ")


async def test_refresh_all_touches_only_this_server(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: Any
) -> None:
    other = await make_guild()
    for server in (guild, other):
        gm = gm_of(server)
        await create(fake, server, gm, "Ana", 9, first_aid=3)
        await correct(fake, server, gm, "Ana", first_aid=0)
    untouched = rows(bot, other)
    await fake.slash(guild, gm_of(guild, "Gm2"), "refresh")
    assert rows(bot, guild)["Ana"]["first_aid_pool"] == 3
    assert rows(bot, other) == untouched
