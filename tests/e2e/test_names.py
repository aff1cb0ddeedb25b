"""Names as people type them, end to end (COMMANDS.md Names, Finding a character by name):
the same name ignoring case, accents, width and spaces; a unique word start; "Did you mean";
autocomplete that ignores accents; lookalikes refused; older databases' colliding names kept
and marked. The real bot process against the fake Discord, in English and Spanish.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.storage.names import look_key, typed_look_key
from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import read_only, refused_at_once, try_create, writable
from tests.e2e.kit import undo as confirmed_undo

EPHEMERAL = 1 << 6


def names_in_db(bot: BotProcess, guild: FakeGuild) -> list[str]:
    with read_only(bot) as connection:
        rows = connection.execute(
            "SELECT name FROM characters WHERE guild_id = ? ORDER BY id", (int(guild.id),)
        ).fetchall()
    return [str(row[0]) for row in rows]


async def spanish_player_with(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]], *names: str
) -> tuple[FakeGuild, FakeMember]:
    """A new Spanish server where Ana's player has created the characters ``names``."""
    guild = await make_guild(locale="es-ES")
    ana = guild.member("Ana", locale="es-ES")
    for name in names:
        created = await try_create(fake, guild, ana, name)
        assert not created.ephemeral, created.text
    return guild, ana


async def shown_title(fake: FakeDiscord, guild: FakeGuild, member: FakeMember, typed: str) -> str:
    reply = await fake.slash(guild, member, "character show", {"character": typed})
    assert reply.type == 4 and not reply.ephemeral, reply.text
    return str(reply.embed["title"])


async def test_the_same_name_ignoring_case_accents_width_and_spaces(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    await try_create(fake, guild, gm, "Amelia Ríos")
    await try_create(fake, guild, gm, "Ana Bel")
    for typed in ("Amelia Rios", "AMELIA RÍOS", "Ａｍｅｌｉａ Ríos", "amelia   rios"):
        assert await shown_title(fake, guild, gm, typed) == "Amelia Ríos", typed
    for typed in ("Ana\u00a0Bel", "ana  bel", "ＡＮＡ ＢＥＬ"):
        assert await shown_title(fake, guild, gm, typed) == "Ana Bel", typed
    hurt = await fake.slash(guild, gm, "hurt", {"character": "amelia rios", "amount": "2"})
    assert not hurt.ephemeral and hurt.embed["title"] == "Amelia Ríos"


async def test_a_unique_word_start_resolves_and_several_are_named(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    for name in ("Amelia Ríos", "Jack O'Malley", "Ana Bel", "Ana Cruz"):
        await try_create(fake, guild, gm, name)
    assert await shown_title(fake, guild, gm, "amelia") == "Amelia Ríos"
    assert await shown_title(fake, guild, gm, "rios") == "Amelia Ríos"
    assert await shown_title(fake, guild, gm, "jack") == "Jack O'Malley"
    assert await shown_title(fake, guild, gm, "malley") == "Jack O'Malley"
    assert await shown_title(fake, guild, gm, "ana c") == "Ana Cruz"
    both = await fake.slash(guild, gm, "character show", {"character": "ana"})
    refused_at_once(both, "“ana” could be **Ana Bel** or **Ana Cruz**", "whole name")
    # Not a word start: "elia" is inside a word only.
    refused_at_once(await fake.slash(guild, gm, "character show", {"character": "elia"}), "“elia”")


async def test_a_miss_suggests_close_names_in_both_languages(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    for name in ("Amelia Ríos", "Padre Tomás", "Renée Pennington", "Sgt. O'Malley"):
        await try_create(fake, guild, gm, name)
    before = len(await _listed(fake, guild, gm))
    spanish = await fake.slash(guild, gm, "hurt", {"character": "Amelai Rois", "amount": "3"})
    refused_at_once(
        spanish, "No hay ningún personaje llamado «Amelai Rois»", "¿Querías decir", "Amelia Ríos"
    )
    english = await fake.slash(
        guild, gm, "hurt", {"character": "Tomas Padre", "amount": "3"}, locale="en-US"
    )
    refused_at_once(
        english, "There is no character called “Tomas Padre”", "Did you mean", "Padre Tomás"
    )
    suggested = english.text.split("Did you mean", 1)[1]
    assert suggested.count("**") // 2 <= 3
    # Nothing close at all: the plain refusal, without "Did you mean".
    far = await fake.slash(guild, gm, "character show", {"character": "Zzyzx"}, locale="en-US")
    refused_at_once(far, "“Zzyzx”")
    assert "Did you mean" not in far.text
    assert len(await _listed(fake, guild, gm)) == before


async def _listed(fake: FakeDiscord, guild: FakeGuild, member: FakeMember) -> list[str]:
    listed = await fake.slash(guild, member, "character list")
    return [line for embed in listed.embeds for line in embed["description"].splitlines()]


async def test_autocomplete_ignores_accents_with_the_users_own_first(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    bea = guild.member("Bea")
    await try_create(fake, guild, gm, "Padre Tomás")
    await try_create(fake, guild, gm, "Renée Pennington")
    await try_create(fake, guild, gm, "Tomasa Vidal")
    await try_create(fake, guild, bea, "Tomás Bea")

    async def choices(member: FakeMember, typed: str) -> list[str]:
        found = await fake.autocomplete(
            guild, member, "hurt", {"character": typed, "amount": "1"}, focused="character"
        )
        return [choice["value"] for choice in found]

    assert await choices(gm, "renee") == ["Renée Pennington"]
    assert await choices(gm, "tomas") == ["Padre Tomás", "Tomasa Vidal", "Tomás Bea"]
    assert await choices(bea, "tomas") == ["Tomás Bea", "Padre Tomás", "Tomasa Vidal"]
    # A typo still offers the close name.
    assert await choices(gm, "Penington") == ["Renée Pennington"]


async def test_the_same_or_a_lookalike_name_is_refused_at_create(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await try_create(fake, guild, ana, "Ana")
    await try_create(fake, guild, ana, "Ana Bel")
    refused_at_once(
        await try_create(fake, guild, ana, "ＡＮＡ"), "already a character called **Ana**"
    )
    refused_at_once(await try_create(fake, guild, ana, "ÁNA"), "already a character called **Ana**")
    refused_at_once(await try_create(fake, guild, ana, "\u0410na"), "looks too much like **Ana**")
    refused_at_once(await try_create(fake, guild, ana, "Ana\u00a0Bel"), "already", "**Ana Bel**")
    refused_at_once(await try_create(fake, guild, ana, "Ana  Bel"), "already", "**Ana Bel**")
    assert names_in_db(bot, guild) == ["Ana", "Ana Bel"]


async def test_a_lookalike_is_refused_in_spanish_too(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, ana = await spanish_player_with(fake, make_guild, "Olga")
    refused_at_once(
        await try_create(fake, guild, ana, "\u041elga"), "se parece demasiado a **Olga**"
    )
    refused_at_once(
        await try_create(fake, guild, ana, "OLGA"), "Ya hay un personaje llamado **Olga**"
    )
    assert names_in_db(bot, guild) == ["Olga"]


def _insert_legacy(bot: BotProcess, guild: FakeGuild, owner: FakeMember, names: list[str]) -> None:
    """Rows as an older database holds them after the migration: names that collide under
    the new rule, each with its own exact key (what migration 0002 keeps)."""
    with writable(bot) as connection:
        connection.executemany(
            "INSERT INTO characters (guild_id, name, name_key, look_key, typed_look_key,"
            " owner_id, created_at, health, max_health, first_aid_pool, first_aid_rating,"
            " scene_start_health, conscious, roll_pending, stabilized,"
            " hospital_length_days, hospital_days_served, lowest_health,"
            " first_aid_received, bleed_minutes, full_recovery_due)"
            " VALUES (?, ?, ?, ?, ?, ?, '2024-01-01T00:00:00.000000+00:00', 9, 9, 0, 0, 9,"
            " 1, 0, 0, NULL, NULL, NULL, 0, 0, 0)",
            [
                (
                    int(guild.id),
                    name,
                    name.casefold(),
                    look_key(name),
                    typed_look_key(name),
                    int(owner.id),
                )
                for name in names
            ],
        )


async def test_colliding_names_of_an_older_database_are_kept_reachable_and_marked(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = guild.member("Dj", permissions=["manage_guild"], locale="es-ES")
    _insert_legacy(bot, guild, gm, ["Ana", "ＡＮＡ", "\u0410na", "Bruno"])
    assert await shown_title(fake, guild, gm, "Ana") == "Ana"
    assert await shown_title(fake, guild, gm, "ＡＮＡ") == "ＡＮＡ"
    assert await shown_title(fake, guild, gm, "\u0410na") == "\u0410na"
    lines = await _listed(fake, guild, gm)
    marked = [line for line in lines if line.endswith("⚠️")]
    assert len(marked) == 3 and not any("Bruno" in line for line in marked)
    assert "/character rename" in lines[-1] and "se confunden" in lines[-1]
    # "ana" typed in another way is one of three: the refusal names them.
    refused_at_once(
        await fake.slash(guild, gm, "character show", {"character": "ána"}),
        "puede ser",
        "**Ana**",
    )
    # A GM renames one away: the mark goes from the two left only if they still collide.
    renamed = await fake.slash(
        guild, gm, "character rename", {"character": "ＡＮＡ", "name": "Anabel"}
    )
    assert not renamed.ephemeral, renamed.text
    assert renamed.embed["title"] == "Anabel"
    assert renamed.embed["description"] == "**ＡＮＡ** pasa a llamarse **Anabel**."
    lines = await _listed(fake, guild, gm)
    assert sum(line.endswith("⚠️") for line in lines) == 2
    assert not any("Anabel" in line and line.endswith("⚠️") for line in lines)


async def test_rename_is_a_change_with_history_and_undo(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea = guild.member("Ana"), guild.member("Bea")
    gm = guild.member("Gm", permissions=["manage_guild"])
    await try_create(fake, guild, ana, "Amelia Rios")
    await try_create(fake, guild, bea, "Bruno")
    refused_at_once(
        await fake.slash(guild, bea, "character rename", {"character": "Amelia", "name": "X"}),
        "Only **Amelia Rios**'s player or a GM can rename this character.",
    )
    reply = await fake.slash(
        guild, ana, "character rename", {"character": "Amelia", "name": "  Amelia   Ríos "}
    )
    assert not reply.ephemeral, reply.text
    assert reply.embed["description"] == "**Amelia Rios** is renamed **Amelia Ríos**."
    assert reply.embed["title"] == "Amelia Ríos"
    assert names_in_db(bot, guild) == ["Amelia Ríos", "Bruno"]
    history = await fake.slash(guild, ana, "history", {"character": "Amelia Ríos"})
    assert "Amelia Rios is renamed Amelia Ríos" in history.text
    assert "/character rename" not in history.text and "from:" not in history.text
    undone = await confirmed_undo(fake, guild, gm)
    assert not undone.ephemeral
    assert "**Amelia Ríos**: named Amelia Rios again\n" in undone.text, "in words, only that"
    assert names_in_db(bot, guild) == ["Amelia Rios", "Bruno"]
    # The GM may rename anyone's character.
    by_gm = await fake.slash(guild, gm, "character rename", {"character": "bruno", "name": "Bruna"})
    assert not by_gm.ephemeral
    assert by_gm.embed["description"] == "**Bruno** is renamed **Bruna**."
    assert names_in_db(bot, guild) == ["Amelia Rios", "Bruna"]


async def test_rename_refuses_bad_taken_and_lookalike_names_changing_nothing(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, ana = await spanish_player_with(fake, make_guild, "Olga", "Pablo")

    async def rename(character: str, name: str, **more: Any) -> Reply:
        return await fake.slash(
            guild, ana, "character rename", {"character": character, "name": name}, **more
        )

    refused_at_once(await rename("Pablo", "OLGA"), "Ya hay un personaje llamado **Olga**")
    refused_at_once(await rename("Pablo", "\u041elga"), "se parece demasiado a **Olga**")
    refused_at_once(await rename("Pablo", "Pab\u200blo"), "control")
    refused_at_once(await rename("Pablo", "x" * 41), "40")
    refused_at_once(await rename("Pablo", "Pablo"), "**Pablo** ya se llama así")
    refused_at_once(await rename("Nadie", "Otro"), "«Nadie»")
    refused_at_once(
        await rename("Pablo", "OLGA", locale="en-US"), "already a character called **Olga**"
    )
    assert names_in_db(bot, guild) == ["Olga", "Pablo"]
    # Its own name in another case is a rename, not a clash with itself.
    fixed = await rename("Pablo", "PABLO")
    assert not fixed.ephemeral
    assert fixed.embed["description"] == "**Pablo** pasa a llamarse **PABLO**."
    assert names_in_db(bot, guild) == ["Olga", "PABLO"]


async def test_the_ability_autocomplete_finds_the_character_as_typed(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    await try_create(fake, guild, gm, "Padre Tomás")
    added = await fake.slash(
        guild, gm, "ability set", {"character": "tomas", "ability": "Theology", "rating": 3}
    )
    assert not added.ephemeral, added.text
    choices = await fake.autocomplete(
        guild, gm, "spend", {"character": "tomas", "ability": "the"}, focused="ability"
    )
    assert choices and choices[0]["value"] == "Theology"
    assert "3/3" in choices[0]["name"]


# --- Issue 19.7 and 20.11: lookalikes as typed, invisible fillers, a phone's apostrophe ------

#: A Cyrillic or Greek capital for a Latin one: the name as typed looks like the other.
CAPITALS = [
    ("\u0412ob", "Bob"),
    ("\u041dans", "Hans"),
    ("\u0422om", "Tom"),
    ("\u041aim", "Kim"),
    ("\u041cax", "Max"),
    ("\u039dora", "Nora"),
    ("\u03a7ena", "Xena"),
    ("\u0396oe", "Zoe"),
]
ORIGINALS = [original for _, original in CAPITALS]
#: A filler after the name: the same name to see.
FILLED = [("Pia\u3164", "Pia"), ("Ugo\u2800", "Ugo"), ("Lea\u115f", "Lea")]


async def test_a_capital_of_another_script_is_refused_at_create_naming_the_other(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    for original in ORIGINALS:
        created = await try_create(fake, guild, ana, original)
        assert not created.ephemeral, created.text
    for lookalike, original in CAPITALS:
        refused_at_once(
            await try_create(fake, guild, ana, lookalike),
            f"**{lookalike}** looks too much like **{original}**",
            "Choose another name",
        )
    assert names_in_db(bot, guild) == ORIGINALS


async def test_a_capital_of_another_script_is_refused_at_create_in_spanish(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, ana = await spanish_player_with(fake, make_guild, *ORIGINALS)
    for lookalike, original in CAPITALS:
        refused_at_once(
            await try_create(fake, guild, ana, lookalike),
            f"**{lookalike}** se parece demasiado a **{original}**",
            "Elige otro nombre",
        )
    assert names_in_db(bot, guild) == ORIGINALS


async def test_a_capital_of_another_script_is_refused_at_rename_in_both_languages(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, ana = await spanish_player_with(fake, make_guild, *ORIGINALS, "Otro")
    for lookalike, original in CAPITALS:
        spanish = await fake.slash(
            guild, ana, "character rename", {"character": "Otro", "name": lookalike}
        )
        refused_at_once(spanish, f"**{lookalike}** se parece demasiado a **{original}**")
        english = await fake.slash(
            guild,
            ana,
            "character rename",
            {"character": "Otro", "name": lookalike},
            locale="en-US",
        )
        refused_at_once(english, f"**{lookalike}** looks too much like **{original}**")
    assert names_in_db(bot, guild) == [*ORIGINALS, "Otro"]
    # The renamed character itself is no clash: Bob may become BOB.
    fixed = await fake.slash(guild, ana, "character rename", {"character": "Bob", "name": "BOB"})
    assert not fixed.ephemeral, fixed.text


async def test_a_name_with_a_filler_or_a_pile_of_marks_is_refused_in_both_languages(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, ana = await spanish_player_with(fake, make_guild, "Pia", "Ugo", "Lea")
    piled = "a" + "\u0301" * 39
    for filled, original in FILLED:
        refused_at_once(await try_create(fake, guild, ana, filled), "invisibles")
        renamed = await fake.slash(
            guild,
            ana,
            "character rename",
            {"character": original, "name": filled},
            locale="en-US",
        )
        refused_at_once(renamed, "invisible characters", "blank fillers")
    refused_at_once(await try_create(fake, guild, ana, piled), "más de 2 tildes o signos")
    renamed = await fake.slash(
        guild, ana, "character rename", {"character": "Pia", "name": piled}, locale="en-US"
    )
    refused_at_once(renamed, "more than 2 accents or marks")
    assert names_in_db(bot, guild) == ["Pia", "Ugo", "Lea"]


async def test_a_phones_apostrophe_and_dash_find_the_character_in_both_languages(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    """Issue 20.11: "There is no character called “Patrick O’Malley” … Did you mean **Sgt.
    Patrick O'Malley**?"."""
    english = await make_guild(locale="en-US")
    gm = english.member("Gm", permissions=["manage_guild"])
    for name in ("Sgt. Patrick O'Malley", "Ana-María Vidal", "Bruno"):
        created = await try_create(fake, english, gm, name)
        assert not created.ephemeral, created.text
    for typed in ("Patrick O\u2019Malley", "Sgt. Patrick O\u2019Malley", "o\u2019malley"):
        assert await shown_title(fake, english, gm, typed) == "Sgt. Patrick O'Malley", typed
    assert await shown_title(fake, english, gm, "Ana\u2013María") == "Ana-María Vidal"
    hurt = await fake.slash(
        english, gm, "hurt", {"character": "Patrick O\u2019Malley", "amount": "2"}
    )
    assert not hurt.ephemeral and hurt.embed["title"] == "Sgt. Patrick O'Malley", hurt.text
    refused_at_once(
        await try_create(fake, english, gm, "Sgt. Patrick O\u2019Malley"),
        "already a character called **Sgt. Patrick O'Malley**",
    )

    guild, ana = await spanish_player_with(fake, make_guild, "Sgt. Patrick O'Malley")
    hurt = await fake.slash(
        guild, ana, "hurt", {"character": "Patrick O\u2019Malley", "amount": "2"}
    )
    assert not hurt.ephemeral and hurt.embed["title"] == "Sgt. Patrick O'Malley", hurt.text
    refused_at_once(
        await try_create(fake, guild, ana, "Sgt. Patrick O\u2019Malley"),
        "Ya hay un personaje llamado **Sgt. Patrick O'Malley**",
    )
    assert names_in_db(bot, guild) == ["Sgt. Patrick O'Malley"]
