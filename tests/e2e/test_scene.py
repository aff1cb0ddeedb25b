"""/scene new and /scene status end to end (RULES.md S1, S2; COMMANDS.md)."""

from __future__ import annotations

import re
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    correct,
    create,
    fits_discord,
    gm_of,
    gm_with,
    history_count,
    insert_characters,
    rows,
    several_lines,
)
from tests.e2e.kit import undo as confirmed_undo

# --- the commands ---------------------------------------------------------------------------


async def test_commands_are_guild_only_english_named_with_spanish_descriptions(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    defined = {command["name"]: command for command in fake.commands}
    for name in ("scene", "time", "refresh", "history", "undo"):
        command = defined[name]
        assert command["dm_permission"] is False, name
        assert command["default_member_permissions"] is None, "GM checks are the bot's own"
        assert command["description_localizations"]["es-ES"], name
    assert [option["name"] for option in defined["scene"]["options"]] == [
        "new",
        "status",
        "tracker",
    ]
    minutes = defined["time"]["options"][0]
    assert (minutes["name"], minutes["min_value"], minutes["max_value"]) == ("minutes", 1, 1440)
    assert defined["refresh"]["options"][0]["autocomplete"] is True
    assert defined["history"]["options"][0]["required"] is False
    assert defined["undo"].get("options", []) == []


# --- S1 ---------------------------------------------------------------------------------------


async def test_S1_new_scene_takes_health_now_as_start_for_every_character(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    ana, bea = guild.member("Ana"), guild.member("Bea")
    await create(fake, guild, ana, "Ana", 9)
    await create(fake, guild, bea, "Bea", 8)
    await create(fake, guild, bea, "Carl", 6)
    await correct(fake, guild, gm, "Ana", health=3)
    await correct(fake, guild, gm, "Bea", health=-7)
    # G4: a correction never moves the start of the scene.
    assert rows(bot, guild)["Ana"]["scene_start_health"] == 9
    before = history_count(bot, guild)

    reply = await fake.slash(guild, gm, "scene new")

    assert not reply.ephemeral
    assert reply.embed["title"] == "🎬 New scene"
    lead = "Each character starts it with their current Health and no First Aid received."
    assert reply.embed["description"].splitlines()[0] == lead  # said once, above the lines
    lines = several_lines(reply.embed)
    assert lines["Ana"] == "**Ana** · Health 3 / 9 · **Healthy**"
    assert "Carl" not in lines, "a line for each character whose values changed"
    state = rows(bot, guild)
    assert state["Ana"]["scene_start_health"] == 3
    assert state["Bea"]["scene_start_health"] == -7
    assert state["Carl"]["scene_start_health"] == 6
    assert state["Ana"]["first_aid_received"] == 0
    assert history_count(bot, guild) == before + 1
    # One entry touching the two characters whose values changed (Carl's did not).
    history = await fake.slash(guild, ana, "history")
    first = history.embed["description"].splitlines()[0]
    assert first.endswith(" · New scene"), "no Health moved: none is listed"
    assert "Carl" not in first
    # One embed, a line per character touched: the Health each starts the scene with.
    assert len(reply.embeds) == 1
    assert [name for name in lines if name] == ["Ana", "Bea"]
    assert lines["Bea"].startswith("**Bea** · Health -7 / 8 · **Seriously wounded**")
    fits_discord(reply)
    assert fake.violations == []


async def test_S1_new_scene_when_nothing_changes_stores_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    before = history_count(bot, guild)
    reply = await fake.slash(guild, gm, "scene new")
    assert not reply.ephemeral and "Nothing to reset" in reply.content
    assert history_count(bot, guild) == before


async def test_S1_new_scene_without_characters(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    reply = await fake.slash(guild, gm_of(guild), "scene new")
    assert not reply.ephemeral and "no living characters" in reply.content
    assert history_count(bot, guild) == 0


async def test_S1_first_aid_received_is_reset_by_a_new_scene(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Medic", 6, first_aid=4)
    await create(fake, guild, gm, "Ana", 9)
    await fake.slash(guild, gm, "scene new")
    await correct(fake, guild, gm, "Ana", health=2)  # lost during the scene (started at 9)
    aid = await fake.slash(guild, gm, "firstaid", {"medic": "Medic", "patient": "Ana", "points": 1})
    assert not aid.ephemeral, aid.content
    assert rows(bot, guild)["Ana"]["first_aid_received"] == 2
    await fake.slash(guild, gm, "scene new")
    state = rows(bot, guild)["Ana"]
    assert state["first_aid_received"] == 0 and state["scene_start_health"] == 4


async def test_S2_character_created_during_a_scene_starts_it_at_full_health(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=4)
    await fake.slash(guild, gm, "scene new")
    await create(fake, guild, gm, "Late", 7)
    state = rows(bot, guild)
    assert state["Late"]["scene_start_health"] == 7
    assert state["Late"]["first_aid_received"] == 0
    assert state["Ana"]["scene_start_health"] == 4


async def test_scene_new_is_refused_to_a_player_and_allowed_to_gm_role(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    owner = guild.member("Ana")
    await create(fake, guild, owner, "Ana", 9)
    gm = gm_of(guild)
    await correct(fake, guild, gm, "Ana", health=2)
    before = rows(bot, guild)
    refused = await fake.slash(guild, owner, "scene new")
    assert_refused(refused, "Only a GM", "/scene new")
    assert rows(bot, guild) == before
    # A member of the configured GM role may.
    role = guild.role("Keeper")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    keeper = guild.member("Keeper", roles=[role])
    accepted = await fake.slash(guild, keeper, "scene new")
    assert not accepted.ephemeral
    assert rows(bot, guild)["Ana"]["scene_start_health"] == 2


async def test_scene_new_in_spanish(fake: FakeDiscord, bot: BotProcess, make_guild: Any) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=5)
    reply = await fake.slash(guild, gm, "scene new")
    assert reply.embed["title"] == "🎬 Escena nueva"
    assert reply.embed["description"].splitlines()[0] == (
        "Cada personaje la empieza con su Salud actual y sin Primeros Auxilios recibidos."
    )
    assert several_lines(reply.embed)["Ana"] == "**Ana** · Salud 5 / 9 · **Ileso**"
    player = guild.member("Bea", locale="es-ES")
    refused = await fake.slash(guild, player, "scene new")
    assert_refused(refused, "Solo un DJ")


async def test_scene_new_and_status_see_only_their_own_server(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: Any
) -> None:
    other = await make_guild()
    for server, name in ((guild, "Ana"), (other, "Otto")):
        gm = gm_of(server)
        await create(fake, server, gm, name, 9)
        await correct(fake, server, gm, name, health=4)
    untouched = rows(bot, other)
    await fake.slash(guild, gm_of(guild, "Gm2"), "scene new")
    assert rows(bot, guild)["Ana"]["scene_start_health"] == 4
    assert rows(bot, other) == untouched
    status = await fake.slash(guild, guild.member("Player"), "scene status")
    assert "Ana" in status.text and "Otto" not in status.text


# --- /scene status ----------------------------------------------------------------------------


async def test_status_shows_living_characters_with_health_state_and_flags(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    for name, health in (("Ana", 9), ("Bea", 8), ("Carl", 6), ("Dead", 5)):
        await create(fake, guild, gm, name, health)
    await correct(fake, guild, gm, "Bea", health=-7)
    await correct(fake, guild, gm, "Carl", health=-2, conscious=False)
    await correct(fake, guild, gm, "Dead", health=-12)
    player = guild.member("Player")
    reply = await fake.slash(guild, player, "scene status")
    assert not reply.ephemeral
    lines = reply.embed["description"].splitlines()
    assert len(lines) == 3, lines
    assert "**Ana** — Health 9 / 9 — Healthy" in lines[0]
    assert "**Bea** — Health -7 / 8 — Seriously wounded" in lines[1]
    assert "Consciousness roll pending" in lines[1] and "Bleeding" in lines[1]
    assert "**Carl** — Health -2 / 6 — Hurt" in lines[2] and "Unconscious" in lines[2]
    assert "Dead" not in reply.embed["description"]
    assert reply.embed["footer"]["text"] == "💀 Fallen: Dead", "the dead: one closing line"
    assert "3 characters in play" in reply.embed["title"]
    assert reply.buttons == []


async def test_status_in_spanish_and_empty(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    guild = await make_guild(locale="es-419")
    member = guild.member("Ana", locale="es-ES")
    empty = await fake.slash(guild, member, "scene status")
    assert not empty.ephemeral and "No hay personajes en juego" in empty.text
    await create(fake, guild, member, "Ana", 9)
    gm = gm_of(guild)
    await correct(fake, guild, gm, "Ana", health=-3)
    reply = await fake.slash(guild, member, "scene status")
    assert "**Ana** — Salud -3 / 9 — Dañado" in reply.embed["description"]
    assert "Tirada de Consciencia" in reply.embed["description"]


async def test_status_of_200_characters_pages_within_discord_limits(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    names = [f"{index:03d}" + "x" * 37 for index in range(200)]
    insert_characters(bot, guild, gm, names)
    reply = await fake.slash(guild, guild.member("Player"), "scene status")
    fits_discord(reply)
    title = reply.embed["title"]
    assert "200 characters in play" in title and "page 1/" in title
    pages = int(title.split("page 1/")[1].split(")")[0])
    assert pages >= 2
    seen = reply.embed["description"].count("\n") + 1
    next_id = next(b["custom_id"] for b in reply.buttons if "Next" in b["label"])
    assert next_id == "salud:page:status:2"
    page = reply
    for number in range(2, pages + 1):
        page = await fake.click(guild, guild.member(f"Looker{number}"), page, next_id)
        assert page.type == 7
        assert f"page {number}/{pages}" in page.message["embeds"][0]["title"]
        seen += page.message["embeds"][0]["description"].count("\n") + 1
        buttons = {b["label"]: b for b in page.buttons}
        assert not buttons["◀ Previous"]["disabled"]
        next_id = buttons["Next ▶"]["custom_id"]
        assert len(page.message["embeds"][0]["description"]) <= 4096
    assert seen == 200
    assert {b["label"]: b for b in page.buttons}["Next ▶"]["disabled"]
    assert fake.violations == []


async def test_S1_new_scene_for_40_characters_is_one_change_summarized_within_limits(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    names = [f"{index:02d}" + "z" * 38 for index in range(40)]
    insert_characters(bot, guild, gm, names)
    scene = await fake.slash(guild, gm, "scene new")
    fits_discord(scene)
    assert not scene.ephemeral
    assert len(scene.embeds) == 1
    shown = [name for name in several_lines(scene.embed) if name]
    more = re.search(r"^… and (\d+) more$", scene.embed["description"], re.MULTILINE)
    assert more is not None and len(shown) + int(more[1]) == 40
    assert history_count(bot, guild) == 1
    assert all(row["scene_start_health"] == -7 for row in rows(bot, guild).values())
    undo = await confirmed_undo(fake, guild, gm)
    fits_discord(undo)
    assert all(row["scene_start_health"] == 99 for row in rows(bot, guild).values())


async def test_status_page_buttons_keep_working_after_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    insert_characters(bot, guild, gm, [f"{index:02d}" + "w" * 38 for index in range(60)])
    reply = await fake.slash(guild, gm, "scene status")
    assert "page 1/3" in reply.embed["title"]
    await bot.restart()
    page = await fake.click(guild, guild.member("Player"), reply, "salud:page:status:2")
    assert page.type == 7
    assert "page 2/3" in page.message["embeds"][0]["title"]
