"""``/character`` end to end: the real bot process (``python -m bot``) against the fake Discord.

Covers every ``/character`` subcommand, the permission matrix (owner, other player, GM by
Manage Server, GM by role), two servers' isolation, both languages, mentions, names, ranges,
a restart on the same database, a repeated interaction id and 200 characters in one list.
"""

from __future__ import annotations

import asyncio
import copy
import re
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import message_bodies, roll_shown, writable

EPHEMERAL = 1 << 6


# --- helpers ---
async def create(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, name: str, health: int = 9, **more: Any
) -> Reply:
    return await fake.slash(
        guild, member, "character create", {"name": name, "health": health, **more}
    )


def refused(reply: Reply, *fragments: str) -> None:
    """An ephemeral refusal containing every fragment."""
    assert reply.type == 4, reply
    assert reply.ephemeral, f"a refusal must be ephemeral: {reply.text!r}"
    for fragment in fragments:
        assert fragment in reply.text, f"{fragment!r} not in {reply.text!r}"


def public(reply: Reply) -> None:
    assert reply.type == 4, reply
    assert not reply.ephemeral, reply.text


def delete_ids(reply: Reply) -> tuple[str, str]:
    yes = next(c for c in reply.custom_ids if c.endswith(":yes"))
    no = next(c for c in reply.custom_ids if c.endswith(":no"))
    return yes, no


def assert_no_pings(fake: FakeDiscord, start: int) -> None:
    bodies = message_bodies(fake, start)
    assert bodies
    for body in bodies:
        assert body.get("allowed_mentions", {}).get("parse") == [], body


async def send_twice(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, command: str, options: dict[str, Any]
) -> tuple[Reply, Reply]:
    """The same interaction (same id) delivered twice, as a retried delivery would."""
    payload = fake._base_interaction(2, guild, member, None, None)
    payload["data"] = fake.build_command_data(guild, command, options)
    first = fake._send_interaction(copy.deepcopy(payload), f"/{command}")
    await first.wait_complete(5)
    second = fake._send_interaction(copy.deepcopy(payload), f"/{command} (again)")
    await second.wait_complete(5)
    return first, second


# --- create / show / list ---
async def test_create_is_public_with_full_pools_and_show_defaults_to_the_only_character(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    reply = await create(fake, guild, ana, "  Ana Díaz  ", 9, first_aid=4)
    public(reply)
    assert reply.embed["title"] == "Ana Díaz"
    fields = {f["name"]: f["value"] for f in reply.embed["fields"]}
    assert fields["Health"].startswith("9 / 9")
    assert fields["First Aid"].startswith("4 / 4")
    assert reply.embed["description"] == f"Joins the game (player: {ana.mention})."
    assert reply.content == "" and len(reply.embed["fields"]) == 2  # no sheet

    shown = await fake.slash(guild, ana, "character show")
    public(shown)
    assert shown.embed["title"] == "Ana Díaz"
    named = await fake.slash(
        guild, guild.member("Bea"), "character show", {"character": "ana díaz"}
    )
    assert named.embed["title"] == "Ana Díaz"
    assert fake.violations == []


async def test_show_without_character_refuses_when_none_or_several(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    bea = guild.member("Bea")
    refused(await fake.slash(guild, bea, "character show"), "no character", "/character create")
    await create(fake, guild, bea, "Uno")
    await create(fake, guild, bea, "Dos")
    refused(await fake.slash(guild, bea, "character show"), "several", "Uno", "Dos")
    refused(await fake.slash(guild, bea, "character show", {"character": "Tres"}), "Tres")


async def test_list_lines_name_health_state_owner(fake: FakeDiscord, guild: FakeGuild) -> None:
    empty = await fake.slash(guild, guild.member("Nadie"), "character list")
    public(empty)
    assert "No characters" in empty.text
    ana, gm = guild.member("Ana"), guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, ana, "Ana", 9)
    await create(fake, guild, gm, "Zoe", 8)
    await fake.slash(guild, gm, "character set", {"character": "Zoe", "health": -3})
    reply = await fake.slash(guild, ana, "character list")
    public(reply)
    lines = reply.embed["description"].splitlines()
    assert len(lines) == 2
    assert "**Ana** — Health 9 / 9 — Healthy — " + ana.mention in lines[0]
    assert "**Zoe** — Health -3 / 8 — Hurt — " + gm.mention in lines[1]


async def test_list_of_200_characters_stays_within_discord_limits(
    fake: FakeDiscord, make_guild: Any
) -> None:
    guild = await make_guild(locale="en-US")
    gm = guild.member("Gm", permissions=["manage_guild"])
    # 40 characters, half of them markdown that is escaped (so about 76 in the line).
    names = [f"{i:03d}" + "*_" * 18 + "x" for i in range(200)]
    for start in range(0, 200, 20):
        replies = await asyncio.gather(
            *(create(fake, guild, gm, name, 9) for name in names[start : start + 20])
        )
        assert all(not r.ephemeral for r in replies), [r.text for r in replies if r.ephemeral]
    mark = len(fake.requests)
    reply = await fake.slash(guild, gm, "character list")
    public(reply)
    assert reply.embed["title"] == "Characters (200) — page 1/10"
    assert reply.followups == [], "one public message, paged with buttons"
    lines = reply.embed["description"].splitlines()
    page = reply
    for number in range(2, 11):
        assert len(page.embeds) == 1 and len(page.embeds[0]["description"]) <= 4096
        page = await fake.click(
            guild, guild.member(f"Looker{number}"), page, page.button("Next ▶")["custom_id"]
        )
        assert page.type == 7, page.text
        assert page.message is not None
        assert page.message["embeds"][0]["title"] == f"Characters (200) — page {number}/10"
        lines += page.message["embeds"][0]["description"].splitlines()
    assert len(lines) == 200 and len(set(lines)) == 200
    assert [b.get("disabled", False) for b in page.buttons] == [False, True]
    assert fake.violations == []
    assert_no_pings(fake, mark)


async def test_list_of_5000_characters_is_one_message(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = guild.member("Gm", permissions=["manage_guild"])
    stored_directly(bot, guild, [f"Investigador {number:04d}" for number in range(5000)], gm)
    mark = len(fake.requests)
    reply = await fake.slash(guild, gm, "character list")
    public(reply)
    assert reply.followups == [], "5,000 characters: still one public message"
    assert reply.embed["title"] == "Personajes (5000) — página 1/250"
    assert len(reply.embed["description"].splitlines()) == 20
    assert [b["label"] for b in reply.buttons] == ["◀ Anterior", "Siguiente ▶"]
    page, seen = reply, len(reply.embed["description"].splitlines())
    reader = guild.member("Otra")
    for number in range(2, 251):  # every page, turned by someone else: each within limits
        page = await fake.click(guild, reader, page, page.button("Siguiente ▶")["custom_id"])
        assert page.type == 7, page.text
        assert page.message is not None
        assert page.message["embeds"][0]["title"] == f"Personajes (5000) — página {number}/250"
        assert page.message is not None and len(page.message["embeds"]) == 1
        assert len(page.message["embeds"][0]["description"]) <= 4096
        seen += len(page.message["embeds"][0]["description"].splitlines())
    assert seen == 5000
    assert page.message is not None
    embed = page.message["embeds"][0]
    assert embed["title"] == "Personajes (5000) — página 250/250"
    assert (
        embed["description"].splitlines()[-1].startswith("🟢 **Investigador 4999** — Salud 9 / 9")
    )
    assert fake.violations == []
    sent = [r for r in fake.requests[mark:] if r.method == "POST" and "/messages" in r.path]
    assert sent == [], "no further message was posted"


def stored_directly(bot: BotProcess, guild: FakeGuild, names: list[str], owner: Any) -> None:
    """Characters written straight into the bot's SQLite file (5,000 /character create
    would take minutes): the rows the storage itself writes, in one transaction."""
    from bot.storage.names import look_key
    from bot.storage.snapshot import HEALTH_COLUMNS, health_to_row
    from rules.character import CharacterHealth
    from rules.names import name_key

    health = health_to_row(CharacterHealth.new(9, 0))
    values = [health[column] for column in HEALTH_COLUMNS]
    columns = ["guild_id", "name", "name_key", "look_key", "owner_id", "created_at"]
    columns += HEALTH_COLUMNS
    created = "2026-01-01T00:00:00+00:00"
    rows = [
        (int(guild.id), name, name_key(name), look_key(name), int(owner.id), created, *values)
        for name in names
    ]
    with writable(bot) as conn:
        conn.executemany(
            f"INSERT INTO characters ({', '.join(columns)})"
            f" VALUES ({', '.join('?' * len(columns))})",
            rows,
        )


# --- names, ranges, duplicates ---
async def test_bad_names_are_refused_with_the_reason(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana = guild.member("Ana")
    refused(await create(fake, guild, ana, "Ana\u0007"), "control")
    refused(await create(fake, guild, ana, "Ana\u200bDíaz"), "control")
    refused(await create(fake, guild, ana, "\u200b\u200b"), "control")
    refused(await create(fake, guild, ana, "\u3164\u3164"), "nothing visible")
    refused(await create(fake, guild, ana, "x" * 41), "too long", "40")
    accepted = await create(fake, guild, ana, "x" * 40)
    public(accepted)
    listed = await fake.slash(guild, ana, "character list")
    assert len(listed.embed["description"].splitlines()) == 1


async def test_names_are_unique_per_server_ignoring_case(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    public(await create(fake, guild, ana, "Marlowe"))
    refused(await create(fake, guild, bea, "MARLOWE"), "already", "Marlowe")


async def test_out_of_range_values_are_refused_even_if_discord_let_them_through(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    refused(await create(fake, guild, ana, "Ana", 0), "`health`", "1", "99")
    refused(await create(fake, guild, ana, "Ana", 100), "`health`")
    refused(await create(fake, guild, ana, "Ana", 9, first_aid=-1), "`first_aid`", "0", "99")
    gm = guild.member("Gm", permissions=["manage_guild"])
    public(await create(fake, guild, ana, "Ana", 9))
    refused(
        await fake.slash(guild, gm, "character set", {"character": "Ana", "health": 100}),
        "`health`",
        "-99",
    )
    refused(
        await fake.slash(guild, gm, "character set", {"character": "Ana", "max_health": 0}),
        "`max_health`",
    )


# --- permissions ---
async def test_creating_for_another_player_needs_a_gm(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    gm = guild.member("Gm", permissions=["manage_guild"])
    refused(await create(fake, guild, ana, "Para Bea", player=bea), "Only a GM")
    reply = await create(fake, guild, gm, "Para Bea", player=bea)
    public(reply)
    assert reply.embed["description"] == f"Joins the game (player: {bea.mention})."
    # Bea owns it: her only character is the default.
    assert (await fake.slash(guild, bea, "character show")).embed["title"] == "Para Bea"
    # Naming yourself as player is allowed to anyone.
    public(await create(fake, guild, ana, "Mía", player=ana))


async def test_set_is_for_gms_by_manage_server_or_by_role(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    """G1: only GMs correct; a GM by role counts once /config gm-role names the role."""
    ana = guild.member("Ana")
    manager = guild.member("Manager", permissions=["manage_guild"])
    role = guild.role("Guardianes")
    keeper = guild.member("Keeper", roles=[role])
    await create(fake, guild, ana, "Ana", 9)

    refused(
        await fake.slash(guild, ana, "character set", {"character": "Ana", "health": 3}),
        "Only a GM",
        "Manage Server",
    )
    refused(
        await fake.slash(guild, keeper, "character set", {"character": "Ana", "health": 3}),
        "Only a GM",
    )
    refused(await fake.slash(guild, manager, "character set", {"character": "Ana"}), "at least one")

    reply = await fake.slash(guild, manager, "character set", {"character": "Ana", "health": 3})
    public(reply)
    assert reply.embed["fields"][0]["value"].startswith("9 → 3 / 9")

    await fake.slash(guild, manager, "config gm-role", {"role": role})
    reply = await fake.slash(
        guild, keeper, "character set", {"character": "Ana", "max_health": 12, "first_aid": 0}
    )
    public(reply)
    assert reply.embed["fields"][0]["value"].startswith("3 / 9 → 3 / 12")


async def test_set_to_death_and_revival_by_correction(fake: FakeDiscord, guild: FakeGuild) -> None:
    """H5 and G1: a correction may kill and revive; a death has its own embed."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Carter", 10)
    died = await fake.slash(guild, gm, "character set", {"character": "Carter", "health": -12})
    public(died)
    assert any(e.get("title") == "Carter has died" for e in died.embeds)
    revived = await fake.slash(guild, gm, "character set", {"character": "Carter", "health": 2})
    public(revived)
    assert revived.embed["fields"][0]["value"] == "-12 → 2 / 10\nDead → **Healthy**"
    same = await fake.slash(guild, gm, "character set", {"character": "Carter", "health": 2})
    assert "Nothing to correct" in same.text


async def test_G2_a_correction_below_0_makes_a_roll_due_with_its_buttons(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    reply = await fake.slash(guild, gm, "character set", {"character": "Ana", "health": -2})
    public(reply)
    assert "Difficulty 2" in reply.text
    assert [b["label"] for b in reply.buttons] == [
        "Roll Consciousness",
        "Spend 1 Health",
        "Spend 2 Health",
        "Spend 3 Health",
    ]
    await bot.script_dice(2)
    pressed = await fake.click(guild, ana, reply, reply.buttons[0]["custom_id"])
    assert pressed.type == 7  # the pressed message's buttons disabled; the roll follows up
    rolled = await pressed.answer()
    assert not rolled.ephemeral, rolled.text
    roll = roll_shown(rolled.embed, die=2)
    assert (roll.spend, roll.difficulty, roll.success) == (0, 2, True)


async def test_G3_a_gm_knocks_out_a_character_at_any_health(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    """G3: a given ``conscious`` wins, also at 0 or more; C7: healing wakes it."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Dormido", 8)
    await create(fake, guild, gm, "Medica", 8, first_aid=4)
    knocked = await fake.slash(
        guild, gm, "character set", {"character": "Dormido", "conscious": False}
    )
    public(knocked)
    assert knocked.embed["fields"][0]["value"].startswith("8 / 8")
    assert "Unconscious" in knocked.text
    assert knocked.buttons == [], "no roll falls due"
    hit = await fake.slash(guild, gm, "hurt", {"character": "Dormido", "amount": "3"})
    assert "Unconscious" in hit.text, "a hit does not wake it"
    healed = await fake.slash(
        guild, gm, "firstaid", {"medic": "Medica", "patient": "Dormido", "points": 1}
    )
    assert "Unconscious" not in healed.text
    below = await fake.slash(
        guild, gm, "character set", {"character": "Dormido", "health": -2, "conscious": False}
    )
    public(below)
    assert "Unconscious" in below.text


async def test_delete_asks_privately_and_says_publicly_that_it_is_done(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    """COMMANDS.md: ``/character delete`` asks privately to confirm with a button, then
    removes the character and says so publicly."""
    ana, bea = guild.member("Ana"), guild.member("Bea")
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, ana, "Ana")
    refused(
        await fake.slash(guild, bea, "character delete", {"character": "Ana"}), "player or a GM"
    )

    prompt = await fake.slash(guild, ana, "character delete", {"character": "Ana"})
    assert prompt.type == 4 and prompt.ephemeral, "only the one who asked sees the question"
    assert prompt.content.startswith("Delete **Ana**?"), prompt.content
    yes, no = delete_ids(prompt)
    assert re.fullmatch(r"salud:del:\d+:yes", yes) and re.fullmatch(r"salud:del:\d+:no", no)

    stranger = await fake.click(guild, bea, prompt, yes)
    refused(stranger, "player or a GM")
    assert prompt.custom_ids == [yes, no], "a refused press changes nothing"

    cancelled = await fake.click(guild, ana, prompt, no)
    assert cancelled.type == 7 and cancelled.ephemeral
    assert "Nothing was deleted" in cancelled.content and cancelled.components == []
    assert cancelled.followups == [], "a cancel tells nobody"
    assert (await fake.slash(guild, ana, "character show")).embed["title"] == "Ana"

    prompt = await fake.slash(guild, gm, "character delete", {"character": "Ana"})
    yes, _ = delete_ids(prompt)
    done = await fake.click(guild, gm, prompt, yes)
    await done.wait_edit(1)
    (said,) = done.followups
    assert not said["flags"] & EPHEMERAL, "the deletion is said publicly"
    assert f"<@{gm.id}> deleted **Ana**" in said["content"] and "/undo" in said["content"]
    assert done.ephemeral and "Ana" in done.content and done.components == []
    refused(await fake.slash(guild, ana, "character show"), "no character")
    # The old button is gone; a replayed press of it would find nothing to delete.
    assert prompt.custom_ids == []


async def test_delete_asks_in_the_users_language_and_says_it_in_the_servers(
    fake: FakeDiscord, make_guild: Any
) -> None:
    spanish = await make_guild(locale="es-ES")
    pepa = spanish.member("Pepa", locale="es-ES")
    john = spanish.member("John", locale="en-US")
    await create(fake, spanish, pepa, "Amelia Ríos")
    await create(fake, spanish, john, "Jack Malone")
    asked = await fake.slash(spanish, pepa, "character delete", {"character": "Amelia"})
    assert asked.ephemeral and asked.content.startswith("¿Borrar a **Amelia Ríos**?")
    assert [b["label"] for b in asked.buttons] == ["Borrar", "Cancelar"]
    done = await fake.click(spanish, pepa, asked, delete_ids(asked)[0])
    await done.wait_edit(1)
    assert done.followups[0]["content"].startswith(f"<@{pepa.id}> ha borrado a **Amelia Ríos**")
    assert done.content.startswith("Hecho: se ha borrado la ficha de **Amelia Ríos**")

    english = await fake.slash(spanish, john, "character delete", {"character": "Jack"})
    assert english.ephemeral and english.content.startswith("Delete **Jack Malone**?")
    done = await fake.click(spanish, john, english, delete_ids(english)[0])
    await done.wait_edit(1)
    assert "ha borrado a **Jack Malone**" in done.followups[0]["content"], "public: Spanish"
    assert done.content.startswith("Done: **Jack Malone**'s sheet is deleted")


async def test_delete_button_still_works_after_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Persistente")
    prompt = await fake.slash(guild, ana, "character delete", {"character": "Persistente"})
    yes, _ = delete_ids(prompt)
    await bot.restart()
    done = await fake.click(guild, ana, prompt, yes)
    await done.wait_edit(1)
    assert "deleted **Persistente**" in done.followups[0]["content"]


# --- servers, languages, mentions ---
async def test_two_servers_are_isolated(fake: FakeDiscord, make_guild: Any) -> None:
    one, two = await make_guild(), await make_guild()
    ana, other = one.member("Ana"), two.member("Ana")
    public(await create(fake, one, ana, "Gemela"))
    public(await create(fake, two, other, "Gemela"))  # same name, other server: fine
    public(await create(fake, one, ana, "Solo Aquí"))
    refused(
        await fake.slash(
            guild=two, member=other, command="character show", options={"character": "Solo Aquí"}
        ),
        "no character called",
    )
    choices = await fake.autocomplete(
        two, other, "character show", {"character": ""}, focused="character"
    )
    assert [c["name"] for c in choices] == ["Gemela"]
    listed = await fake.slash(two, other, "character list")
    assert "Solo Aquí" not in listed.text


async def test_autocomplete_lists_the_users_own_characters_first(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    await create(fake, guild, ana, "Alfa")
    await create(fake, guild, bea, "Beta")
    await create(fake, guild, bea, "Gamma")
    choices = await fake.autocomplete(
        guild, bea, "character show", {"character": ""}, focused="character"
    )
    assert [c["name"] for c in choices] == ["Beta", "Gamma", "Alfa"]
    choices = await fake.autocomplete(
        guild, ana, "character delete", {"character": "amm"}, focused="character"
    )
    assert [c["value"] for c in choices] == ["Gamma"]


async def test_spanish_user_gets_spanish_errors_and_spanish_server_gets_spanish_replies(
    fake: FakeDiscord, guild: FakeGuild, make_guild: Any
) -> None:
    pepa = guild.member("Pepa", locale="es-ES")
    refused(await fake.slash(guild, pepa, "character show"), "No tienes ningún personaje")
    english_public = await create(fake, guild, pepa, "Pepa")
    assert english_public.embed["fields"][0]["name"] == "Health"  # en-US server

    spanish = await make_guild(locale="es-ES")
    john = spanish.member("John", locale="en-US")
    reply = await create(fake, spanish, john, "John")
    assert reply.embed["fields"][0]["name"] == "Salud"
    assert reply.embed["description"] == f"Entra en juego (jugador: {john.mention})."
    refused(await create(fake, spanish, john, "JOHN"), "There is already")
    refused(await create(fake, spanish, spanish.member("Ana", locale="es-419"), "JOHN"), "Ya hay")


async def test_a_character_named_everyone_pings_nobody(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana = guild.member("Ana")
    gm = guild.member("Gm", permissions=["manage_guild"])
    mark = len(fake.requests)
    reply = await create(fake, guild, ana, "@everyone")
    public(reply)
    assert reply.body is not None
    assert reply.body["data"]["allowed_mentions"]["parse"] == []
    await create(fake, guild, ana, "<@&123> @here")
    await fake.slash(guild, ana, "character list")
    await fake.slash(guild, gm, "character set", {"character": "@everyone", "health": -12})
    prompt = await fake.slash(guild, ana, "character delete", {"character": "@everyone"})
    await fake.click(guild, ana, prompt, delete_ids(prompt)[0])
    assert_no_pings(fake, mark)


# --- once, and across restarts ---
async def test_a_repeated_interaction_id_applies_once(fake: FakeDiscord, guild: FakeGuild) -> None:
    ana = guild.member("Ana")
    gm = guild.member("Gm", permissions=["manage_guild"])
    first, second = await send_twice(
        fake, guild, ana, "character create", {"name": "Una Vez", "health": 7}
    )
    public(first)
    refused(second, "already applied")
    listed = await fake.slash(guild, ana, "character list")
    assert listed.embed["description"].count("Una Vez") == 1

    first, second = await send_twice(
        fake, guild, gm, "character set", {"character": "Una Vez", "health": 2}
    )
    public(first)
    refused(second, "already applied")


async def test_characters_survive_a_restart_without_a_second_command_sync(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Duradera", 11, first_aid=2)
    syncs = len(fake.command_puts)
    assert await bot.stop() == 0, "SIGTERM stops the bot cleanly"
    await bot.start()
    shown = await fake.slash(guild, ana, "character show")
    assert shown.embed["title"] == "Duradera"
    assert shown.embed["fields"][0]["value"].startswith("11 / 11")
    assert len(fake.command_puts) == syncs, "commands unchanged: no sync after a restart"
    assert "Commands unchanged since the last sync" in bot.log_text()


async def test_commands_match_the_contract(fake: FakeDiscord, bot: BotProcess) -> None:
    character = fake.find_command(None, "character")
    options = {o["name"]: o for o in character["options"]}
    assert set(options) >= {"create", "show", "list", "set", "delete"}
    create_options = [o["name"] for o in options["create"]["options"]]
    assert create_options == [
        "name",
        "health",
        "first_aid",
        "stability",
        "player",
        "gender",
        "numbers",
    ]
    set_options = [o["name"] for o in options["set"]["options"]]
    assert set_options == [
        "character",
        "health",
        "max_health",
        "first_aid",
        "max_first_aid",
        "conscious",
        "gender",
        "stability",
        "max_stability",
        "mental_illness",
        "numbers",
    ]
    assert character["default_member_permissions"] is None
    assert character["contexts"] == [0]
    assert options["create"]["description_localizations"]["es-ES"]
    assert fake.command_errors == []
