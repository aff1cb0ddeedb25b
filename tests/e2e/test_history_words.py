"""``/history`` and ``/undo`` as a table reads them (issue 20, points 6 and 7; COMMANDS.md
History, /undo): each server numbers its own changes and ``/undo`` shows the same numbers;
one line per entry with a Discord timestamp, a name said once, no value that did not move, a
test with its outcome; ``/undo`` lists only what changes back, once, in words, and undoing a
deletion says that the character returns. Real bot, fake Discord, both languages."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply, message_text
from devkit.harness import BotProcess
from devkit.phone import embed_lines, wrapped_lines
from tests.e2e.kit import (
    confirm_id,
    correct,
    create,
    delete,
    gm_of,
    rows,
    shown_back,
    writable,
)
from tests.e2e.kit import undo as confirmed_undo

MakeGuild = Callable[..., Awaitable[FakeGuild]]

#: A line of /history: the server's number, a Discord timestamp, who, what happened.
LINE = re.compile(r"^(?:~~)?#(\d+) · <t:\d+:R> · <@\d+> · (.+?)(?:~~ \*\(.+\)\*)?$")


async def ok(
    fake: FakeDiscord, guild: FakeGuild, gm: FakeMember, command: str, **options: Any
) -> Reply:
    reply = await fake.slash(guild, gm, command, options)
    assert not reply.ephemeral, (command, reply.text)
    return reply


def said(history: Reply) -> list[tuple[int, str]]:
    """(number, what happened) of each line of a /history page, top first."""
    found = []
    for line in history.embed["description"].splitlines():
        match = LINE.match(line)
        assert match is not None, f"not one line of the contract: {line!r}"
        found.append((int(match.group(1)), match.group(2)))
    return found


# --- point 6: numbers per server, one line each ----------------------------------------------


async def test_each_server_numbers_its_changes_from_one_and_undo_shows_the_same_numbers(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    busy, new = await make_guild(), await make_guild()
    gm_busy, gm_new = gm_of(busy), gm_of(new)
    await create(fake, busy, gm_busy, "Jack Malone", 9)
    for health in (8, 7, 6):
        await correct(fake, busy, gm_busy, "Jack Malone", health=health)
    await create(fake, new, gm_new, "Amelia Ríos", 9)  # the new server's first change
    await correct(fake, busy, gm_busy, "Jack Malone", health=5)
    await ok(fake, new, gm_new, "rest", character="Amelia Ríos", days=1)  # moves nothing: no change
    await ok(fake, new, gm_new, "hurt", character="Amelia Ríos", amount="3")

    history = await ok(fake, new, gm_new, "history")
    assert [number for number, _ in said(history)] == [2, 1]
    assert said(history)[0][1] == "Amelia Ríos takes 3 damage: 9 → 6"
    assert [n for n, _ in said(await ok(fake, busy, gm_busy, "history"))] == [5, 4, 3, 2, 1]

    preview = await fake.slash(new, gm_new, "undo")
    assert preview.embed["title"] == "Undo /hurt (#2)?", "the server's number, not a global one"
    undo = await confirmed_undo(fake, new, gm_new)
    assert undo.content.startswith(f"↩️ {gm_new.mention} undid change #2, made by ")
    assert undo.click is not None and "change #2 is undone" in message_text(undo.click.message)
    lines = said(await ok(fake, new, gm_new, "history"))
    assert lines[0] == (3, "Undoes #2: Amelia Ríos 6 → 9")
    assert lines[1] == (2, "Amelia Ríos takes 3 damage: 9 → 6")


def as_version_10(bot: BotProcess) -> None:
    """The database as Salud left it before migration 0011: no number on the history (the
    bot is stopped), the messages carrying roll buttons in their two tables of 0010 again
    (0012 made them one), no index of 0013, no tables of 0014 and nothing of 0015 or 0016. A
    database of today's main has none already."""
    with writable(bot) as conn:
        conn.execute("DROP TABLE IF EXISTS unkept_roll_replies")  # migration 0015's
        kept = {str(row[1]) for row in conn.execute("PRAGMA table_info(roll_messages)")}
        if "kind" in kept:
            for table, kind in (
                ("old_roll_messages", "consciousness"),
                ("stability_messages", "stability"),
            ):
                conn.execute(
                    f"CREATE TABLE {table} (character_id INTEGER NOT NULL, message_id INTEGER"
                    " NOT NULL, guild_id INTEGER NOT NULL, roll_seq INTEGER NOT NULL,"
                    " channel_id INTEGER NOT NULL, PRIMARY KEY (character_id, message_id))"
                    " WITHOUT ROWID"
                )
                conn.execute(
                    f"INSERT INTO {table} SELECT character_id, message_id, guild_id, roll_seq,"
                    " channel_id FROM roll_messages WHERE kind = ?",
                    (kind,),
                )
            conn.execute("DROP TABLE roll_messages")
            conn.execute("ALTER TABLE old_roll_messages RENAME TO roll_messages")
        columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(history)")}
        if "number" in columns:
            conn.execute("DROP INDEX history_number")
            conn.execute("ALTER TABLE history DROP COLUMN number")
        characters = {str(row[1]) for row in conn.execute("PRAGMA table_info(characters)")}
        if "numbers" in characters:  # migration 0016's (issue 28)
            conn.execute("ALTER TABLE characters DROP COLUMN numbers")
        conn.execute("DROP INDEX IF EXISTS characters_out_of_play")  # migration 0013's
        conn.execute("DROP TABLE IF EXISTS table_places")  # 0014's tables (issue 27)
        conn.execute("DROP TABLE IF EXISTS game_tables")
        conn.execute("PRAGMA user_version = 10")


async def test_an_undo_button_sent_before_the_upgrade_works_after_it_with_the_new_numbers(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    """The buttons carry the entry's id, which the migration does not touch; what they
    show is the number the migration gave the entry in its server."""
    first, second = await make_guild(), await make_guild()
    gm_first, gm_second = gm_of(first), gm_of(second)
    for round_ in range(3):  # the two servers' changes interleaved
        await create(fake, first, gm_first, f"Uno {round_}", 9)
        await create(fake, second, gm_second, f"Dos {round_}", 9)
    await correct(fake, second, gm_second, "Dos 1", health=4)
    preview = await fake.slash(second, gm_second, "undo")  # sent by the older version
    confirm = confirm_id(preview)
    assert confirm is not None
    entry_id = int(confirm.split(":")[2])
    await bot.stop()
    as_version_10(bot)
    await bot.start()

    assert [n for n, _ in said(await ok(fake, second, gm_second, "history"))] == [4, 3, 2, 1]
    click = await fake.click(second, gm_second, preview, confirm)
    await click.wait_edit(1)
    assert click.followups[0]["content"].startswith(f"↩️ {gm_second.mention} undid change #4,")
    assert "change #4 is undone" in message_text(click.message)
    assert rows(bot, second)["Dos 1"]["health"] == 9
    with writable(bot) as conn:
        numbered = conn.execute(
            "SELECT guild_id, number FROM history WHERE guild_id IN (?, ?) AND undo_of IS NULL"
            " ORDER BY id",
            (int(first.id), int(second.id)),
        ).fetchall()
        (latest,) = conn.execute(
            "SELECT max(id) FROM history WHERE guild_id = ? AND undo_of IS NULL",
            (int(second.id),),
        ).fetchone()
    assert [(str(guild), number) for guild, number in numbered] == [
        (first.id, 1),
        (second.id, 1),
        (first.id, 2),
        (second.id, 2),
        (first.id, 3),
        (second.id, 3),
        (second.id, 4),
    ]
    assert entry_id == latest and entry_id > 4, "the button carries the id, not the number"
    lines = said(await ok(fake, second, gm_second, "history"))
    assert lines[0] == (5, "Undoes #4: Dos 1 4 → 9")
    await create(fake, first, gm_first, "Uno 3", 9)
    assert said(await ok(fake, first, gm_first, "history"))[0][0] == 4


async def _ten(fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, gm: FakeMember) -> None:
    """Thirteen changes of every kind; the first page shows the last ten."""
    await create(fake, guild, gm, "Jack Malone", 9)
    await create(fake, guild, gm, "Hermana Clara", 6)
    await create(fake, guild, gm, "Padre Tomás", 8, first_aid=5)
    await create(fake, guild, gm, "Amelia Ríos", 9)  # 4
    await ok(fake, guild, gm, "hurt", character="Jack Malone", amount="3", reason="mordisco")
    await ok(fake, guild, gm, "hurt", character="Hermana Clara", amount="9")
    await ok(fake, guild, gm, "firstaid", medic="Padre Tomás", patient="Hermana Clara", points=2)
    await ok(fake, guild, gm, "ability set", character="Padre Tomás", ability="Scuffling", rating=3)
    await bot.script_dice(2)
    await ok(fake, guild, gm, "check", character="Padre Tomás", ability="Scuffling", spend=1)
    await bot.script_dice(4, 3, 6, 2)
    await ok(
        fake,
        guild,
        gm,
        "hurt",
        character="Jack Malone",
        character2="Hermana Clara",
        character3="Padre Tomás",
        character4="Amelia Ríos",
        amount="1d6",
        reason="explosion",
    )  # 10
    await correct(fake, guild, gm, "Jack Malone", health=-3)
    await bot.script_dice(2)
    await ok(fake, guild, gm, "conscious", character="Jack Malone", spend=1)
    await ok(fake, guild, gm, "character rename", character="Amelia Ríos", name="Amelia Rivas")


#: What the ten lines say (newest first), in each language.
TEN = {
    "en-US": [
        "Amelia Ríos is renamed Amelia Rivas",
        "Jack Malone's Consciousness roll, 2 + 1 = 3 vs 3: passed; Health -3 → -4",
        "GM's correction of Jack Malone: 2 → -3",
        "One blow (1d6, explosion): Jack Malone takes 4 (6 → 2), Hermana Clara takes 3 (-1 → -4),"
        " Padre Tomás takes 6 (8 → 2) and Amelia Ríos takes 2 (9 → 7)",
        "Padre Tomás's Scuffling test, 2 + 1 = 3 vs 4: failed",
        "Padre Tomás's Scuffling: rating 3",
        "Padre Tomás gives Hermana Clara First Aid (1 point): -3 → -1",
        "Hermana Clara takes 9 damage: 6 → -3",
        "Jack Malone takes 3 damage (mordisco): 9 → 6",
        "Amelia Ríos joins the game (Health 9)",
    ],
    "es-ES": [
        "Amelia Ríos pasa a llamarse Amelia Rivas",
        "Tirada de Consciencia de Jack Malone, 2 + 1 = 3 vs 3: éxito; Salud -3 → -4",
        "Corrección del DJ a Jack Malone: 2 → -3",
        "Un mismo golpe (1d6, explosion): Jack Malone recibe 4 (6 → 2), Hermana Clara recibe 3"
        " (-1 → -4), Padre Tomás recibe 6 (8 → 2) y Amelia Ríos recibe 2 (9 → 7)",
        "Prueba de Scuffling de Padre Tomás, 2 + 1 = 3 vs 4: fallo",
        "Scuffling de Padre Tomás: índice 3",
        "Padre Tomás da Primeros Auxilios a Hermana Clara (1 punto): -3 → -1",
        "Hermana Clara recibe 9 de daño: 6 → -3",
        "Jack Malone recibe 3 de daño (mordisco): 9 → 6",
        "Amelia Ríos entra en juego (Salud 9)",
    ],
}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_a_page_of_ten_is_one_line_each_naming_once_and_only_what_moved(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    await _ten(fake, bot, guild, gm)
    history = await ok(fake, guild, guild.member("Mirona", locale=locale), "history")
    lines = said(history)
    assert [number for number, _ in lines] == list(range(13, 3, -1))
    assert [what for _, what in lines] == TEN[locale]
    text = history.embed["description"]
    assert "+1" not in text and "8 → 8" not in text and "5 → 4" not in text  # the medic's pool
    # On a phone: two lines an entry in the usual cases (a rename, a correction, a blow to
    # one character, a creation, an ability), three for a test or a First Aid with two
    # names, five for a blow that hits four characters; the page within about a screen.
    phone = [wrapped_lines(line) for line in text.splitlines()]
    shown = list(zip(phone, text.splitlines(), strict=True))
    assert max(phone[index] for index in (0, 2, 5, 7, 9)) <= 2, shown
    assert max(phone[:3] + phone[4:]) <= 3 and phone[3] <= 5, shown
    assert embed_lines(history.embed) <= 32, shown


# --- point 7: /undo in words, only what changes ----------------------------------------------


async def test_undo_of_a_first_aid_names_only_what_changes_back_in_words(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    for locale, health, patient_line, medic_line in (
        (
            "es-ES",
            "Salud 0 → -2 / 6 · ",
            "**Hermana Clara**: vuelve a tener pendiente la Tirada de Consciencia"
            " · sin Primeros Auxilios recibidos en la escena",
            "**Padre Tomás**: Primeros Auxilios 4 → 5 / 5",
        ),
        (
            "en-US",
            "Health 0 → -2 / 6 · ",
            "**Hermana Clara**: the Consciousness roll is due again"
            " · no First Aid received this scene",
            "**Padre Tomás**: First Aid 4 → 5 / 5",
        ),
    ):
        guild = await make_guild(locale=locale)
        gm = gm_of(guild, locale=locale)
        await create(fake, guild, gm, "Hermana Clara", 6)
        await create(fake, guild, gm, "Padre Tomás", 8, first_aid=5)
        await ok(fake, guild, gm, "hurt", character="Hermana Clara", amount="8")
        await ok(
            fake, guild, gm, "firstaid", medic="Padre Tomás", patient="Hermana Clara", points=1
        )
        preview = await fake.slash(guild, gm, "undo")
        lines = preview.embed["description"].splitlines()
        with_health = patient_line.replace(": ", f": {health}", 1)
        assert lines[1:] == [with_health, medic_line], lines
        assert "8 / 8" not in preview.text, "the medic's Health stays: not listed"
        undo = await confirmed_undo(fake, guild, gm)
        assert undo.content.splitlines()[1:] == [patient_line, medic_line], (
            "each Health change once: in the embed, not again in the content"
        )
        assert shown_back(undo, "Hermana Clara", locale[:2]) == "0 → -2 / 6"


async def test_undo_of_a_deletion_says_the_character_returns(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    for locale, returns, deleted in (
        ("es-ES", "**Amelia Ríos** vuelve a la partida", "borra"),
        ("en-US", "**Amelia Ríos** returns to play", "delete"),
    ):
        guild = await make_guild(locale=locale)
        lucia = guild.member("Lucía", locale=locale)
        gm = gm_of(guild, locale=locale)
        await create(fake, guild, lucia, "Amelia Ríos", 9)
        await ok(fake, guild, gm, "hurt", character="Amelia Ríos", amount="7")
        await delete(fake, guild, lucia, "Amelia Ríos")
        preview = await fake.slash(guild, gm, "undo")
        assert f"{returns}: " in preview.embed["description"]
        undo = await confirmed_undo(fake, guild, gm)
        assert undo.content.splitlines() == [
            undo.content.splitlines()[0],
            returns,
        ]
        assert "#3, " in undo.content and lucia.mention in undo.content
        assert deleted not in undo.content.lower(), undo.content
        assert (
            undo.embed["title"] == "Amelia Ríos"
            and shown_back(undo, "Amelia Ríos", locale[:2]) == "2 / 9"
        )


async def test_undo_says_flags_hospital_names_and_players_in_words_never_stored_values(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    lucia = guild.member("Lucía", locale="es-ES")
    await create(fake, guild, gm, "Dmitri Volkov", 9)
    await ok(fake, guild, gm, "character rename", character="Dmitri Volkov", name="Дмитрий Волков")
    preview = await fake.slash(guild, gm, "undo")
    assert (
        preview.embed["description"].splitlines()[1]
        == "**Дмитрий Волков**: vuelve a llamarse Dmitri Volkov"
    )
    await confirmed_undo(fake, guild, gm)

    await correct(fake, guild, gm, "Dmitri Volkov", health=-8)
    await ok(fake, guild, gm, "rest", character="Dmitri Volkov", days=1, hospital=True)
    preview = await fake.slash(guild, gm, "undo")
    line = preview.embed["description"].splitlines()[1]
    assert line.startswith("**Dmitri Volkov**: ") and "sale del hospital" in line, line
    for stored in (" → no", "sí →", "True", "False", "d left", " 0 min"):
        assert stored not in preview.text, (stored, preview.text)
    await confirmed_undo(fake, guild, gm)

    await create(fake, guild, gm, "Ana", 9)
    given = await fake.slash(
        guild, gm, "character set", {"character": "Ana", "gender": "feminine", "conscious": False}
    )
    assert not given.ephemeral, given.text
    preview = await fake.slash(guild, gm, "undo")
    assert preview.embed["description"].splitlines()[1] == (
        "**Ana**: vuelve a estar consciente · género: sin indicar"
    )
    assert lucia.mention not in preview.text
    english = await fake.slash(guild, gm, "undo", locale="en-US")
    assert (
        english.embed["description"].splitlines()[1]
        == "**Ana**: conscious again · gender: not given"
    )


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_the_undo_preview_of_a_health_change_fits_a_phone_screen(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    await create(fake, guild, gm, "Jack Malone", 9)
    await ok(fake, guild, gm, "hurt", character="Jack Malone", amount="12")
    preview = await fake.slash(guild, gm, "undo", locale=locale)
    (line,) = preview.embed["description"].splitlines()[1:]
    health = {"en-US": "Health", "es-ES": "Salud"}[locale]
    assert (
        line
        == f"**Jack Malone**: {health} -3 → 9 / 9 · "
        + {
            "en-US": "the Consciousness roll is no longer due",
            "es-ES": "ya no tiene pendiente la Tirada de Consciencia",
        }[locale]
    )
    assert embed_lines(preview.embed) <= 8, embed_lines(preview.embed)
