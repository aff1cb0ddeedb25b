"""Private numbers, the Keeper's screen (COMMANDS.md "Private numbers"), end to end in both
languages: a private NPC and a shown investigator hurt by one blow, a private investigator's
Consciousness and Stability rolls pressed by its player, First Aid and a hospital stay, a
death, ``/scene status`` and the tracker with both, ``/history`` and ``/undo``, and the
``Numbers`` button pressed by a GM, the player and a stranger. The table reads what happens
in words; the numbers go to those who may see them, privately. Every public payload of the
suite is also read by the screen's scan (``tests/e2e/kit/screen.py``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply, message_text
from devkit.harness import BotProcess
from tests.e2e.kit import stored
from tests.e2e.kit import undo as confirmed_undo
from tests.e2e.kit.db import read_only
from tests.e2e.kit.screen import (
    PrivateCharacter,
    ScreenScan,
    Shown,
    leaks_of,
    private_characters,
)

#: The words each language reads (the contract's, and the catalogs').
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "locale": "en-US",
        "numbers": "Numbers",
        "damage": "Damage",
        "roll_of": "{name}: Roll",
        "roll_pending": "Consciousness roll pending: Profundo and Jack",
        "call": "must make a Consciousness roll",
        "profundo_hurt": "Profundo",
        "stays": "Jack Malone stays conscious.",
        "followup": "Only you see this",
        # Two players' characters: "the players of", each verb as a native agrees it.
        "refused": "Only the players of **Profundo** and **Jack Malone** or a GM of the table"
        " may see their numbers.",
        "health": "Health",
        "hospital": "Jack Malone goes into hospital.",
        "died": "Profundo has died",
        "stability_roll": "Jack: Roll",
        "main": "Main table",
        "profundo_line": "**Profundo** · **Hurt**",
        "called_line": "**Jack Malone** · Steady",
    },
    "es": {
        "locale": "es-ES",
        "numbers": "Ver números",
        "damage": "Daño",
        "roll_of": "{name}: Tirar",
        "roll_pending": "Tirada de Consciencia pendiente: Profundo y Jack",
        "call": "debe hacer una Tirada de Consciencia",
        "profundo_hurt": "Profundo",
        "stays": "Jack Malone sigue consciente.",
        "followup": "Solo tú ves esto",
        "refused": "Solo los jugadores de **Profundo** y **Jack Malone** o un DJ de la mesa"
        " pueden ver sus números.",
        "health": "Salud",
        "hospital": "Jack Malone ingresa en el hospital.",
        "died": "Profundo ha muerto",
        "stability_roll": "Jack: Tirar",
        "main": "Mesa principal",
        "profundo_line": "**Profundo** · **Dañado**",
        "called_line": "**Jack Malone** · Sereno",
    },
}


def numbers_button(message: dict[str, Any] | None, label: str) -> str:
    """The custom id of the message's ``Numbers`` button."""
    for row in (message or {}).get("components") or []:
        for item in row.get("components") or []:
            if item.get("label") == label:
                return str(item["custom_id"])
    raise AssertionError(f"no {label!r} button on {message!r:.400}")


def button_of(message: dict[str, Any] | None, label: str) -> str:
    return numbers_button(message, label)


def labels(message: dict[str, Any] | None) -> list[str]:
    return [
        str(item.get("label"))
        for row in (message or {}).get("components") or []
        for item in row.get("components") or []
    ]


async def private_followup(reply: Reply) -> dict[str, Any]:
    """The ephemeral follow-up that gives the member who acted the numbers."""
    await reply.wait_followups(1)
    hidden = [m for m in reply.followups if int(m.get("flags") or 0) & 64]
    assert hidden, f"no private follow-up: {reply!r}"
    return hidden[-1]


async def cast(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, lang: str
) -> tuple[FakeMember, FakeMember, FakeMember]:
    """A GM, the player Lucía and a stranger; the GM's private NPC Profundo (6 Health), Lucía's
    shown Amelia Ríos (9 Health, 4 First Aid) and her private Jack Malone (6 Health,
    Stability 8), made private by the table's default."""
    words = WORDS[lang]
    gm = guild.member("Gm", permissions=["manage_guild"], locale=words["locale"])
    lucia = guild.member("Lucía", locale=words["locale"])
    stranger = guild.member("Otro", locale=words["locale"])
    made = await fake.slash(
        guild,
        gm,
        "character create",
        {"name": "Profundo", "health": 6, "gender": "masculine", "numbers": "private"},
    )
    assert not made.ephemeral and "6 / 6" not in made.text, made.text
    made = await fake.slash(
        guild,
        lucia,
        "character create",
        {"name": "Amelia Ríos", "health": 9, "first_aid": 4, "gender": "feminine"},
    )
    assert "9 / 9" in made.text, "a shown character's reply is as before"
    refused = await fake.slash(
        guild, lucia, "character create", {"name": "Zoe", "health": 5, "numbers": "private"}
    )
    assert refused.ephemeral and "GM" in refused.text.replace("DJ", "GM"), refused.text
    table = await fake.slash(
        guild, gm, "table numbers", {"table": words["main"], "numbers": "private"}
    )
    assert table.ephemeral, table.text
    made = await fake.slash(
        guild,
        gm,
        "character create",
        {
            "name": "Jack Malone",
            "health": 6,
            "stability": 8,
            "player": lucia,
            "gender": "masculine",
        },
    )
    assert not made.ephemeral, made.text
    assert stored(bot, guild, "Jack Malone")["numbers"] == "private"
    assert stored(bot, guild, "Amelia Ríos")["numbers"] is None
    return gm, lucia, stranger


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_the_keepers_screen_end_to_end(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any, lang: str
) -> None:
    words = WORDS[lang]
    guild = await make_guild(locale=words["locale"])
    gm, lucia, stranger = await cast(fake, bot, guild, lang)

    # One blow to three: the private ones in words, the shown one with its numbers.
    await bot.script_dice(6, 4, 1, 2, 6, 6)
    hurt = await fake.slash(
        guild,
        gm,
        "hurt",
        {
            "character": "Profundo",
            "amount": "2d6",
            "character2": "Amelia Ríos",
            "character3": "Jack Malone",
        },
    )
    assert not hurt.ephemeral, hurt.text
    (embed,) = hurt.embeds
    assert embed["title"] == words["damage"], "the dice rolled against a private one are its"
    assert f"{words['health']} 9 → 6 / 9" in embed["description"], embed["description"]
    assert words["roll_pending"] in embed["description"], embed["description"]
    lines = embed["description"].split("\n")
    assert words["profundo_line"] in lines, "the pending roll is said once, on the closing line"
    assert "2d6" not in hurt.text and "-4" not in hurt.text and "-6" not in hurt.text
    assert hurt.content.startswith(lucia.mention) and words["call"] in hurt.content
    assert "(" not in hurt.content, "the call gives no Difficulty"
    every_spend = ["{name}: +1", "{name}: +2", "{name}: +3"]
    assert labels(hurt.message) == [
        words["roll_of"].format(name="Profundo"),
        *(spend.format(name="Profundo") for spend in every_spend),
        words["roll_of"].format(name="Jack"),
        *(spend.format(name="Jack") for spend in every_spend),
        words["numbers"],
    ], "every spend for a private pool: the legal ones would tell it"
    shown = await private_followup(hurt)
    assert "-4" in message_text(shown) and "-6" in message_text(shown), message_text(shown)
    assert stored(bot, guild, "Profundo")["health"] == -4

    # The Numbers button: a GM sees both, the player her own, a stranger nobody's.
    custom_id = numbers_button(hurt.message, words["numbers"])
    by_gm = await fake.click(guild, gm, hurt, custom_id)
    assert by_gm.ephemeral and [e["title"] for e in by_gm.embeds] == ["Profundo", "Jack Malone"]
    by_player = await fake.click(guild, lucia, hurt, custom_id)
    assert by_player.ephemeral and [e["title"] for e in by_player.embeds] == ["Jack Malone"]
    assert "-6 / 6" in by_player.text, by_player.text
    by_stranger = await fake.click(guild, stranger, hurt, custom_id)
    assert by_stranger.ephemeral and words["refused"] in by_stranger.text, by_stranger.text
    assert "-" not in by_stranger.text.replace("Profundo", ""), by_stranger.text

    # Jack's Consciousness roll, pressed by Lucía: the table hears that he stays conscious.
    await bot.script_dice(6)
    pressed = await fake.click(
        guild, lucia, hurt, button_of(hurt.message, words["roll_of"].format(name="Jack"))
    )
    rolled = await pressed.answer()
    assert not rolled.ephemeral and words["stays"] in rolled.text, rolled.text
    assert "vs" not in rolled.text and "6" not in rolled.text, rolled.text
    await pressed.wait_followups(2)
    arithmetic = [m for m in pressed.followups if int(m.get("flags") or 0) & 64]
    assert arithmetic and "6 + 0 = 6 vs 6" in message_text(arithmetic[-1])

    # A Stability test of Jack's, rolled by Lucía: no Difficulty on the call, no die after.
    call = await fake.slash(guild, gm, "stability test", {"loss": 4, "character": "Jack Malone"})
    assert not call.ephemeral and "4" not in call.embed["description"], call.text
    assert words["called_line"] in call.embed["description"].split("\n"), "its Stability, in words"
    await bot.script_dice(2)
    clicked = await fake.click(guild, lucia, call, button_of(call.message, words["stability_roll"]))
    made = await clicked.answer()
    assert not made.ephemeral and "vs" not in made.text, made.text
    assert not re.search(r"[0-9]", made.text.replace("Jack Malone", "")), made.text
    await clicked.wait_followups(2)
    assert any(int(m.get("flags") or 0) & 64 for m in clicked.followups)

    # First Aid and a hospital stay: what happened, not how much.
    aid = await fake.slash(
        guild,
        lucia,
        "firstaid",
        {"medic": "Amelia Ríos", "patient": "Jack Malone", "points": 2},
    )
    assert not aid.ephemeral and "Jack Malone" in aid.text, aid.text
    rest = await fake.slash(
        guild, gm, "rest", {"character": "Jack Malone", "days": 2, "hospital": True}
    )
    assert not rest.ephemeral and words["hospital"] in rest.text, rest.text

    # A death is announced as for anyone.
    await bot.script_dice(6, 6)
    death = await fake.slash(guild, gm, "hurt", {"character": "Profundo", "amount": "2d6"})
    assert death.embed["title"] == words["died"], death.text

    # The lists: the shown one with numbers, the private in words, each with the button.
    status = await fake.slash(guild, stranger, "scene status")
    assert "6 / 9" in status.text and "Jack Malone" in status.text, status.text
    assert words["numbers"] in labels(status.message)
    tracker = await fake.slash(guild, gm, "scene tracker")
    assert "Jack Malone" in tracker.text and words["numbers"] in labels(tracker.message)
    listed = await fake.slash(guild, stranger, "character list")
    assert "Jack Malone" in listed.text and "9" in listed.text, listed.text
    history = await fake.slash(guild, stranger, "history")
    assert "/hurt" in history.text, history.text
    death = rf"/hurt: {words['died']}\.$"
    assert re.search(death, history.embed["description"], re.M), "a death says it all"
    assert words["numbers"] in labels(history.message)

    # /character show: in full and privately to the player, in words to anyone else.
    own = await fake.slash(guild, lucia, "character show", {"character": "Jack Malone"})
    assert own.ephemeral and "/ 8" in own.text, own.text
    other = await fake.slash(guild, stranger, "character show", {"character": "Jack Malone"})
    assert not other.ephemeral and "/ 8" not in other.text, other.text

    # /undo: what comes back, in words.
    undone = await confirmed_undo(fake, guild, gm)
    assert undone.public and "Profundo" in undone.text, undone.text
    # Each fact once: what comes back is said in Profundo's embed, not again in the content.
    public = message_text(undone.message).splitlines()
    assert len(public) == len(set(public)), public
    assert "Profundo" not in undone.content, undone.content
    assert stored(bot, guild, "Profundo")["health"] == -4


def test_the_scan_fails_when_a_renderer_leaks() -> None:
    """The scan is honest: a private character's numbers injected into a public payload
    (a line, an embed about it, a button's label) are found; the same payload about a
    shown character, or the private one in words, is not."""
    clean = {
        "content": "<@123>: Profundo must make a Consciousness roll",
        "embeds": [
            {
                "title": "Damage · <t:1700000000:R>",
                "description": "**Amelia Ríos** · Health 9 → 6 / 9\n**Profundo** · **Hurt**",
            },
            {"title": "Profundo", "description": "Profundo falls unconscious."},
        ],
        "components": [{"type": 1, "components": [{"type": 2, "label": "Profundo: Roll"}]}],
    }
    assert leaks_of(clean, [], "Profundo") == []
    line = {"embeds": [{"description": "**Profundo** · Health 6 → -4 / 6 · **Hurt**"}]}
    assert leaks_of(line, [], "Profundo")
    about = {"embeds": [{"title": "Profundo", "fields": [{"name": "Health", "value": "-4"}]}]}
    assert leaks_of(about, [], "Profundo")
    label = {"components": [{"type": 1, "components": [{"type": 2, "label": "Profundo: +1"}]}]}
    assert leaks_of(label, [], "Profundo")
    call = {"content": "<@1>: Profundo must make a Consciousness roll (Difficulty 4)"}
    assert leaks_of(call, [], "Profundo")
    dice = {"embeds": [{"title": "Profundo", "description": "takes 1d6+1"}]}
    assert leaks_of(dice, [], "Profundo")
    assert leaks_of({}, ["Profundo · 3/5 · general"], "Profundo")

    # A roll's spend buttons: every one of +1, +2, +3 tells nothing; the legal ones alone do.
    def row(*spends: int) -> dict[str, Any]:
        buttons = [
            {
                "type": 2,
                "label": f"Jack: +{spend}" if spend else "Jack: Roll",
                "custom_id": f"salud:cons:5:{spend}:1",
            }
            for spend in spends
        ]
        return {"components": [{"type": 1, "components": buttons}]}

    assert leaks_of(row(0, 1, 2, 3), [], "Jack Malone", 5) == []
    assert leaks_of(row(0), [], "Jack Malone", 5) == [], "no spend at all tells nothing"
    assert leaks_of(row(0, 1), [], "Jack Malone", 5), "only the legal spend"
    assert leaks_of(row(0, 1), [], "Jack Malone", 6) == [], "another character's buttons"
    scan = ScreenScan()
    scan.shown.append(Shown("7", 10.0, "a reply", message=line))
    private = [PrivateCharacter("7", "Profundo", 5.0)]
    assert [finding.name for finding in scan.findings(private)] == ["Profundo"]
    assert scan.findings([PrivateCharacter("8", "Profundo", 5.0)]) == [], "another server's"
    assert scan.findings([PrivateCharacter("7", "Profundo", 11.0)]) == [], "before it was private"
    assert scan.findings([PrivateCharacter("7", "Profundo", 5.0, 10.0)]) == [], "shown again"
    assert scan.findings([PrivateCharacter("7", "Profundo", 5.0, 10.5)]), "shown only after"


async def test_the_numbers_button_works_after_a_restart_and_undo_gives_the_setting_back(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """The button's id says which characters it covers: a press after a restart still
    answers; ``/character set numbers`` is a change like any other, and ``/undo`` reverts
    it (the character's numbers are shown again, its reply as before)."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    made = await fake.slash(guild, gm, "character create", {"name": "Ghoul", "health": 7})
    assert "7 / 7" in made.text, "shown by default: the reply as before"
    hidden = await fake.slash(
        guild, gm, "character set", {"character": "Ghoul", "numbers": "private"}
    )
    assert not hidden.ephemeral and "7" not in hidden.text, hidden.text
    assert stored(bot, guild, "Ghoul")["numbers"] == "private"
    custom_id = numbers_button(hidden.message, "Numbers")
    await bot.restart()
    after = await fake.click(guild, gm, hidden, custom_id)
    assert after.ephemeral and "7 / 7" in after.text, after.text
    undone = await confirmed_undo(fake, guild, gm)
    assert undone.public, undone.text
    assert stored(bot, guild, "Ghoul")["numbers"] is None
    # The screen's scan judges the Ghoul's payloads only while its numbers were private.
    (ghoul,) = [c for c in private_characters(bot.database_path, [fake]) if c.guild_id == guild.id]
    assert ghoul.name == "Ghoul" and ghoul.since == hidden.record.created, ghoul
    assert undone.click is not None and ghoul.until == undone.click.record.created, ghoul
    shown = await fake.slash(guild, gm, "character show", {"character": "Ghoul"})
    assert not shown.ephemeral and "7 / 7" in shown.text, shown.text


async def test_a_table_made_private_keeps_its_new_characters_pools_out_of_labels(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """``/table create numbers`` sets the default of the characters created there, refused
    to a player at ``/character create``; an ability's autocomplete label of a private
    character says no pool (whoever types sees it)."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    table = await fake.slash(guild, gm, "table create", {"name": "Innsmouth", "numbers": "private"})
    assert table.ephemeral and "Innsmouth" in table.text, table.text
    made = await fake.slash(guild, gm, "character create", {"name": "Zadok Allen", "health": 5})
    assert not made.ephemeral and "5 / 5" not in made.text, made.text
    with read_only(bot) as conn:  # Zadok Allen plays at Innsmouth, stored under its id
        row = conn.execute("SELECT numbers FROM characters WHERE name = 'Zadok Allen'").fetchone()
    assert row is not None and row["numbers"] == "private"
    await fake.slash(
        guild, gm, "ability set", {"character": "Zadok Allen", "ability": "Athletics", "rating": 3}
    )
    choices = await fake.autocomplete(
        guild, gm, "check", {"character": "Zadok Allen", "ability": "ath"}, focused="ability"
    )
    assert choices and choices[0]["name"] == "Athletics · general", choices


async def test_the_announcement_copy_says_it_in_words_with_the_numbers_button(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """A private character knocked to Hurt is announced in the announcement channel as for
    anyone, in words, and the copy carries the ``Numbers`` button (never a roll's)."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    channel = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    assert channel.ephemeral, channel.text
    await fake.slash(
        guild, gm, "character create", {"name": "Wilbur", "health": 4, "numbers": "private"}
    )
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Wilbur", "amount": "5"})
    assert not hurt.ephemeral and "Wilbur" in hurt.text, hurt.text
    # Each fact once: the state line names the due roll, no sentence says it again.
    said = hurt.embed["description"].splitlines()
    assert said[0] == "**Hurt** · Consciousness roll pending", said
    assert not any("must make a Consciousness roll" in line for line in said), said
    await fake.wait_until(
        lambda: bool(fake.channel_messages(guild.announcements.id)),
        5.0,
        what="the announcement's copy",
    )
    (copy,) = fake.channel_messages(guild.announcements.id)
    assert "Wilbur" in message_text(copy) and not re.search(r"[0-9]", message_text(copy))
    assert labels(copy) == ["Numbers"], labels(copy)
    pressed = await fake.click(guild, gm, copy, numbers_button(copy, "Numbers"))
    assert pressed.ephemeral and "-1 / 4" in pressed.text, pressed.text


#: A press of a spend the rules refuse, as its owner reads it (the numbers are theirs).
SPEND_REFUSED: dict[str, dict[str, str]] = {
    "en": {
        "health": "Spending 3 Health would leave **Jack Malone** at −12 or less, dead. "
        "The most Jack Malone can spend now is 1.",
        "stability": "Spending 2 Stability would leave **Jack Malone** at −12 or less: "
        "incurably insane. The most he can spend now is 1.",
        "stranger": "Only **Jack Malone**'s player or a GM can",
    },
    "es": {
        "health": "Gastar 3 de Salud dejaría a **Jack Malone** en −12 o menos, y moriría. "
        "Ahora puede gastar como mucho 1.",
        "stability": "Gastar 2 de Estabilidad dejaría a **Jack Malone** en −12 o menos: "
        "perdería la razón para siempre. Ahora puede gastar como mucho 1.",
        "stranger": "Solo el jugador de **Jack Malone** o un DJ puede",
    },
}


@pytest.mark.parametrize("lang", ["en", "es"])
async def test_a_private_character_is_offered_every_spend_and_a_refused_one_is_said_privately(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any, lang: str
) -> None:
    """COMMANDS.md "Private numbers": which spends are legal would tell a private pool, so
    its rolls always carry +1, +2 and +3; a press of one the rules refuse (C4, M7) is
    answered to its owner or a GM alone, with the numbers; a stranger's press gets the
    owner-or-GM refusal, no number. A shown character at the same Health keeps the legal
    ones only, as before."""
    words, refused = WORDS[lang], SPEND_REFUSED[lang]
    guild = await make_guild(locale=words["locale"])
    gm, lucia, stranger = await cast(fake, bot, guild, lang)
    await fake.slash(
        guild,
        gm,
        "character create",
        {"name": "Olga", "health": 6, "player": lucia, "numbers": "shown"},
    )
    # Jack and Olga at -10: C4 allows a spend of 1 at most.
    hurt = await fake.slash(
        guild, gm, "hurt", {"character": "Jack Malone", "amount": "16", "character2": "Olga"}
    )
    assert not hurt.ephemeral, hurt.text
    roll, spend = words["roll_of"].format(name="{name}"), "{name}: +{points}"
    assert labels(hurt.message) == [
        roll.format(name="Jack"),
        *(spend.format(name="Jack", points=points) for points in (1, 2, 3)),
        roll.format(name="Olga"),
        spend.format(name="Olga", points=1),
        words["numbers"],
    ], labels(hurt.message)

    spend_three = button_of(hurt.message, "Jack: +3")
    by_owner = await fake.click(guild, lucia, hurt, spend_three)
    assert by_owner.ephemeral and by_owner.text == refused["health"], by_owner.text
    by_stranger = await fake.click(guild, stranger, hurt, spend_three)
    assert by_stranger.ephemeral and refused["stranger"] in by_stranger.text, by_stranger.text
    assert not re.search(r"[0-9]", by_stranger.text), by_stranger.text
    by_gm = await fake.click(guild, gm, hurt, button_of(hurt.message, "Jack: +2"))
    assert by_gm.ephemeral and "−12" in by_gm.text, by_gm.text
    jack = stored(bot, guild, "Jack Malone")
    assert jack["health"] == -10 and jack["roll_pending"], "a refused press changes nothing"

    # Stability at -10: M7 allows a spend of 1 at most; a call of one carries every spend.
    await fake.slash(guild, gm, "character set", {"character": "Jack Malone", "stability": -10})
    call = await fake.slash(guild, gm, "stability test", {"loss": 1, "character": "Jack Malone"})
    assert labels(call.message) == [
        words["stability_roll"],
        *(spend.format(name="Jack", points=points) for points in (1, 2, 3)),
        words["numbers"],
    ], labels(call.message)
    by_owner = await fake.click(guild, lucia, call, button_of(call.message, "Jack: +2"))
    assert by_owner.ephemeral and by_owner.text == refused["stability"], by_owner.text
    by_stranger = await fake.click(guild, stranger, call, button_of(call.message, "Jack: +3"))
    assert by_stranger.ephemeral and refused["stranger"] in by_stranger.text, by_stranger.text
    assert not re.search(r"[0-9]", by_stranger.text), by_stranger.text
    assert stored(bot, guild, "Jack Malone")["stability_pool"] == -10


async def ghast_kept_by(
    fake: FakeDiscord, make_guild: Any, *, server: str, member: str
) -> tuple[FakeGuild, FakeMember]:
    """A server in ``server``'s language whose GM speaks ``member``'s, and their private
    Ghast (5 Health, 3 First Aid)."""
    guild = await make_guild(locale=server)
    gm = guild.member("Gm", permissions=["manage_guild"], locale=member)
    await fake.slash(
        guild,
        gm,
        "character create",
        {"name": "Ghast", "health": 5, "first_aid": 3, "numbers": "private"},
    )
    return guild, gm


async def test_the_numbers_sent_privately_follow_the_members_language_both_ways(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    """COMMANDS.md "Language": what is said to one person follows their Discord language.
    A Spanish GM on an English server gets the numbers of a ``/time`` in Spanish, its title
    and lines too, and so are the ``Numbers`` button's answer and a refused spend; an English
    GM on a Spanish server gets a ``/refresh``'s in English. The table reads the server's."""
    english, gm = await ghast_kept_by(fake, make_guild, server="en-US", member="es-ES")
    hurt = await fake.slash(english, gm, "hurt", {"character": "Ghast", "amount": "15"})
    assert "Consciousness" in hurt.text, "the table reads the server's language"
    refused = await fake.click(english, gm, hurt, button_of(hurt.message, "Spend 3 Health"))
    assert refused.ephemeral and refused.text.startswith("Gastar 3 de Salud"), refused.text
    timed = await fake.slash(english, gm, "time", {"minutes": 10})
    assert not timed.ephemeral and timed.embed["title"] == "⏳ Game time: +10 min", timed.text
    numbers = await private_followup(timed)
    assert numbers["content"] == "Solo tú ves esto: los números que la mesa no ve."
    (embed,) = numbers["embeds"]
    assert embed["title"] == "⏳ Tiempo de juego: +10 min", embed
    assert "10 de los 30 min que le cuestan 1 de Salud" in embed["description"], embed
    answer = await fake.click(english, gm, timed, numbers_button(timed.message, "Numbers"))
    assert answer.ephemeral and "Salud" in answer.text and "Health" not in answer.text

    spanish, keeper = await ghast_kept_by(fake, make_guild, server="es-ES", member="en-US")
    await bot.script_dice(4)
    checked = await fake.slash(
        spanish,
        keeper,
        "check",
        {"character": "Ghast", "ability": "First Aid", "spend": 2, "difficulty": 1},
    )
    assert not checked.ephemeral and "Primeros Auxilios" in checked.text, checked.text
    assert "First Aid" in message_text(await private_followup(checked)), "the keeper's words"
    refreshed = await fake.slash(spanish, keeper, "refresh", {"character": "Ghast"})
    assert refreshed.embed["title"].startswith("🔄 Reservas renovadas"), refreshed.text
    assert "Ghast" in refreshed.text and "3 / 3" not in refreshed.text, refreshed.text
    numbers = await private_followup(refreshed)
    assert numbers["content"] == "Only you see this: the numbers the table does not."
    (embed,) = numbers["embeds"]
    assert embed["title"] == "🔄 Pools refreshed to their ratings (1 character)", embed
    assert "First Aid 1 → 3 / 3" in embed["description"], embed
