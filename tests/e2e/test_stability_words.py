"""Stability's big moments read as a GM would write them (issue 24, points 1a, 4, 5, 7), from
the real payloads, in Spanish and English: the scene's cap says what the scene took and the
cap, a roll's reply fits 7 phone lines, the history says a mind breaking in words, insanity
has a colour of its own and the insane are out of play on a closing line, ``/scene new`` says
what it resets, a stale button says what became of its test, and the insane get one refusal
per action.

``SALUD_PRINT_PAYLOADS=1 pytest tests/e2e/test_stability_words.py -s`` prints the payloads.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.fake_discord.replies import message_text
from devkit.harness import BotProcess
from devkit.phone import message_lines
from tests.e2e.kit import assert_refused, create, gm_of, gm_set, several_lines, stored
from tests.e2e.kit.stability import (
    TEST_FIELD,
    button_id,
    call_test,
    create_stable,
    field,
    press,
    stability_roll_shown,
    stability_shown,
)
from tests.e2e.test_phone_fit import embed_lines as exact_lines

MakeGuild = Callable[..., Awaitable[FakeGuild]]
LOCALES = ["es-ES", "en-US"]
#: COMMANDS.md "Changes": at most 7 lines for a roll (and for a one-character call).
ROLL_LINES = 7
ROLL = {"es": "Tirar", "en": "Roll"}


def show(tag: str, reply: Reply | dict[str, Any] | None) -> None:
    """Prints a payload as a table reads it, when asked (for the issue's note)."""
    if not os.environ.get("SALUD_PRINT_PAYLOADS"):
        return
    message = reply.message if isinstance(reply, Reply) else reply
    text = message_text(message) if message is not None else getattr(reply, "text", "")
    print(f"\n--- {tag} ({message_lines(message)} phone lines)\n{text}")


async def fail(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, loss: int, name: str, die: int = 1
) -> Reply:
    """A GM calls a test of ``loss`` for ``name`` and it is rolled, failing."""
    await call_test(fake, guild, guild.owner, loss, name)
    await bot.script_dice(die)
    rolled = await fake.slash(guild, guild.owner, "stability roll", {"character": name})
    assert not rolled.ephemeral, rolled.text
    return rolled


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_scene_cap_says_what_the_scene_took_and_the_worst_incidents_cap(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 1(a): the worst incident was 4 and 4 were lost; a test of 2 fails. The
    sentence said "como mucho 2" (this test's loss as the cap); it says 4 and the cap."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    await create_stable(fake, guild, guild.owner, "Rosa", 20, gender="feminine")
    await fail(fake, bot, guild, 4, "Rosa")  # worst 4, lost 4: 20 → 16
    held = await fail(fake, bot, guild, 2, "Rosa")
    roll = stability_roll_shown(held.embed, lang, die=1, base=4)
    show(f"cap, nothing lost ({locale})", held)
    expected = {
        "es": "**Fallo**, sin pérdida: ya ha perdido 4 en esta escena, el tope del peor incidente",
        "en": "**Failure**, no loss: already lost 4 this scene, the worst incident's cap",
    }
    assert roll.value.split("\n")[1] == expected[lang]
    assert "2" not in roll.value.split("\n")[1]  # never this test's loss as the cap
    assert stability_shown(held.embed, lang).now == 16
    assert message_lines(held.message) <= ROLL_LINES, message_lines(held.message)
    part = await fail(fake, bot, guild, 6, "Rosa")  # the cap is 6 now: 2 more, not 6
    show(f"cap, part lost ({locale})", part)
    partly = {
        "es": "**Fallo** · pierde 2, no 6: ya son 6 en esta escena, el tope del peor incidente",
        "en": "**Failure** · loses 2, not 6: that makes 6 this scene, the worst incident's cap",
    }
    assert field(part.embed, TEST_FIELD[lang]).split("\n")[1] == partly[lang]
    assert stability_shown(part.embed, lang).now == 14
    assert message_lines(part.message) <= ROLL_LINES, message_lines(part.message)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_mind_breaking_reads_in_words_in_its_replies_and_its_history(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 4: a Shaken investigator falls into a mental illness (the roll's reply
    within 7 lines: the illness on the state line, the rating drop once, the penalty on the
    outcome line), then into incurable insanity (an embed in a colour of its own); the
    history says both in words, not ``-3/8 → -7/7``."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    player = guild.member("Lucía", locale=locale)
    await create_stable(fake, guild, guild.owner, "Amelia Ríos", 8, player=player)
    await gm_set(fake, guild, "Amelia Ríos", stability=-3)
    await call_test(fake, guild, guild.owner, 4, "Amelia Ríos")
    await bot.script_dice(2)  # 2 + 0 = 2 vs 5 (4 + 1, Shaken): -3 → -7, a mental illness
    ill = await fake.slash(guild, player, "stability roll", {})
    show(f"mental illness ({locale})", ill)
    roll = stability_roll_shown(ill.embed, lang, die=2, base=4, penalties=[1])
    shown = stability_shown(ill.embed, lang)
    assert (shown.before, shown.now, shown.rating_before, shown.rating) == (-3, -7, 8, 7)
    illness = {"es": "Trastorno mental", "en": "Mental illness"}[lang]
    assert shown.state == f"**{ {'es': 'Alterado', 'en': 'Shaken'}[lang] }** · {illness}"
    assert ill.text.lower().count(illness.lower()) == 1  # said once
    assert ill.text.count("8 → 7") == 0  # the rating drop once: the value's "/ 8 → / 7"
    shaken = {"es": "+1 por el estado Alterado", "en": "+1 for being Shaken"}[lang]
    assert roll.value.split("\n")[1].endswith(f" · {shaken}")  # on the outcome line
    assert message_lines(ill.message) <= ROLL_LINES, message_lines(ill.message)

    await fake.slash(guild, guild.owner, "scene new")  # a new cap: the whole loss counts
    await call_test(fake, guild, guild.owner, 6, "Amelia Ríos")
    await bot.script_dice(1)  # 1 + 0 = 1 vs 5: -7 - 6 = -13, incurable insanity
    mad = await fake.slash(guild, player, "stability roll", {})
    show(f"insanity ({locale})", mad)
    assert (
        mad.embed["title"]
        == {
            "es": "Amelia Ríos ha perdido la razón para siempre",
            "en": "Amelia Ríos is incurably insane",
        }[lang]
    )
    assert mad.embed["color"] == 0x6C3483  # a colour of its own, not Health's

    history = await fake.slash(guild, guild.owner, "history", {"character": "Amelia Ríos"})
    show(f"history of a broken mind ({locale})", history)
    lines = str(history.embed["description"]).split("\n")
    said = {
        "es": (
            "Prueba de Estabilidad de Amelia Ríos, 1 + 0 = 1 vs 5: fallo; Estabilidad -7 → -13,"
            " pierde la razón para siempre",
            "Prueba de Estabilidad de Amelia Ríos, 2 + 0 = 2 vs 5: fallo; Estabilidad -3 → -7,"
            " trastorno mental (máxima 8 → 7)",
        ),
        "en": (
            "Amelia Ríos's Stability test, 1 + 0 = 1 vs 5: failed; Stability -7 → -13, goes"
            " incurably insane",
            "Amelia Ríos's Stability test, 2 + 0 = 2 vs 5: failed; Stability -3 → -7, mental"
            " illness (maximum 8 → 7)",
        ),
    }[lang]
    assert lines[0].endswith(said[0]), lines[0]
    rolls = [line for line in lines if "2 + 0 = 2 vs 5" in line]
    assert len(rolls) == 1 and rolls[0].endswith(said[1]), rolls
    assert "/8" not in history.text and "/7" not in history.text


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_insane_are_out_of_play_on_a_closing_line_and_counted_with_one_word(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 points 4 and 7: ``/scene status``, the tracker and ``/character list`` list
    the incurably insane on a closing line (beside the dead), never among the others; the
    status and the tracker count those in play with the same words."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    gm = guild.owner
    await create_stable(fake, guild, gm, "Amelia Ríos", 8)
    await create_stable(fake, guild, gm, "Iris", 8)
    await create(fake, guild, gm, "Jack Malone", 6)
    await gm_set(fake, guild, "Jack Malone", health=-12)  # dead
    await gm_set(fake, guild, "Iris", stability=-12)  # incurably insane
    out = {"es": "🌀 Fuera de la partida: Iris", "en": "🌀 Out of play: Iris"}[lang]
    dead = {"es": "💀 Han muerto: Jack Malone", "en": "💀 Fallen: Jack Malone"}[lang]
    counted = {"es": "1 personaje en juego", "en": "1 character in play"}[lang]

    status = await fake.slash(guild, gm, "scene status")
    show(f"/scene status ({locale})", status)
    assert counted in status.embed["title"]
    assert "Iris" not in status.embed["description"]
    assert status.embed["footer"]["text"] == f"{dead} · {out}"

    tracker = await fake.slash(guild, gm, "scene tracker")
    show(f"tracker ({locale})", tracker)
    words = {"es": "Seguimiento en vivo — ", "en": "Live tracker — "}[lang]
    assert tracker.embed["title"] == words + counted
    listed, _, closing = str(tracker.embed["description"]).partition("\n\n")
    assert "Iris" not in listed and closing.startswith(f"{dead} · {out}")

    listing = await fake.slash(guild, gm, "character list")
    show(f"/character list ({locale})", listing)
    assert "Iris" not in listing.embed["description"]
    assert "Jack Malone" in listing.embed["description"]  # the dead stay on the list
    assert listing.embed["footer"]["text"] == out
    assert listing.embed["title"].endswith("(3)")


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_new_scene_says_what_it_resets_and_for_whom(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 4: ``/scene new`` says once what it resets in Stability, and each line
    says what changed for that character; a character nothing changed for has no line."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    await create_stable(fake, guild, guild.owner, "Rosa", 20)
    await create_stable(fake, guild, guild.owner, "Olga", 6)
    await fail(fake, bot, guild, 4, "Rosa")  # Rosa's tests lost 4 this scene
    new = await fake.slash(guild, guild.owner, "scene new")
    show(f"/scene new ({locale})", new)
    lead = {
        "es": "Cada personaje la empieza con su Salud actual, sin Primeros Auxilios recibidos ni"
        " Estabilidad perdida en pruebas; la lucidez termina.",
        "en": "Each character starts it with their current Health, no First Aid received and"
        " no Stability lost to tests; lucidity ends.",
    }[lang]
    assert new.embed["description"].split("\n")[0] == lead
    lines = several_lines(new.embed)
    assert "Olga" not in lines  # nothing changed for her
    reset = {"es": "Estabilidad perdida en pruebas 4 → 0", "en": "Stability lost to tests 4 → 0"}
    assert lines["Rosa"].endswith(f" · {reset[lang]}"), lines["Rosa"]
    assert (
        stored(bot, guild, "Rosa")["scene_lost"],
        stored(bot, guild, "Rosa")["scene_worst_loss"],
    ) == (0, 0)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_stale_button_says_whether_its_test_was_rolled_or_replaced(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 5: never "rolled, replaced or undone": a test rolled is said with its
    result, a test replaced with where the new one is (the message with its buttons)."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    player = guild.member("Lucía", locale=locale)
    await create_stable(fake, guild, guild.owner, "Amelia Ríos", 8, player=player)
    first = await call_test(fake, guild, guild.owner, 4, "Amelia Ríos")
    await bot.script_dice(1)
    await press(fake, guild, player, first, button_id(first, f"Amelia: {ROLL[lang]}"))
    rolled = await fake.click(guild, player, first, button_id(first, f"Amelia: {ROLL[lang]}"))
    show(f"stale button, rolled ({locale})", rolled)
    said = {
        "es": (
            "**Amelia Ríos** ya tiró esta Prueba de Estabilidad",
            "1 + 0 = 1 vs 4, fallo; Estabilidad 8 → 4",
        ),
        "en": (
            "**Amelia Ríos** has already rolled this Stability test",
            "1 + 0 = 1 vs 4, failed; Stability 8 → 4",
        ),
    }[lang]
    assert_refused(rolled, *said)

    second = await call_test(fake, guild, guild.owner, 2, "Amelia Ríos")
    third = await call_test(fake, guild, guild.owner, 3, "Amelia Ríos")
    replaced = await fake.click(guild, player, second, button_id(second, "Amelia: +1"))
    show(f"stale button, replaced ({locale})", replaced)
    channel = third.interaction["channel_id"]
    link = f"https://discord.com/channels/{guild.id}/{channel}/{third.message_id}"
    words = {
        "es": "Esta Prueba de Estabilidad de **Amelia Ríos** se sustituyó por otra más reciente"
        " antes de tirarse",
        "en": "This Stability test of **Amelia Ríos** was replaced by a newer one before it was"
        " rolled",
    }[lang]
    assert_refused(replaced, words, link)
    for reply in (rolled, replaced):
        assert "undone" not in reply.text and "anuló" not in reply.text
    assert stored(bot, guild, "Amelia Ríos")["due_loss"] == 3  # nothing changed


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_insane_get_one_refusal_per_action(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 5: each action refused in its own words, not "only a GM can change
    their Stability" for every one."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    gm, player = gm_of(guild, locale=locale), guild.member("Ana", locale=locale)
    await create_stable(fake, guild, gm, "Iris", 9, player=player)
    await create_stable(fake, guild, gm, "Dr. Shaw", 9)
    for character, ability in (("Iris", "Occult"), ("Iris", "Athletics")):
        await fake.slash(
            guild, gm, "ability set", {"character": character, "ability": ability, "rating": 2}
        )
    await fake.slash(
        guild,
        gm,
        "ability set",
        {"character": "Dr. Shaw", "ability": "Psychoanalysis", "rating": 4},
    )
    await gm_set(fake, guild, "Iris", stability=-12)
    await gm_set(fake, guild, "Iris", health=-3)  # a Consciousness roll would be due
    asks = {
        "roll": ("stability roll", {"character": "Iris"}),
        "conscious": ("conscious", {"character": "Iris"}),
        "spend": ("spend", {"character": "Iris", "ability": "Occult", "points": 1}),
        "check": ("check", {"character": "Iris", "ability": "Athletics"}),
        "treat": ("stability treat", {"medic": "Dr. Shaw", "patient": "Iris", "points": 1}),
    }
    words = {
        "es": {
            "roll": "ha perdido la razón para siempre y no hace tiradas",
            "conscious": "ha perdido la razón para siempre y no hace tiradas",
            "spend": "ha perdido la razón para siempre y no gasta puntos de sus habilidades",
            "check": "ha perdido la razón para siempre y no hace pruebas",
            "treat": "ha perdido la razón para siempre y ya no puede recibir tratamiento",
        },
        "en": {
            "roll": "is incurably insane and out of play, making no more rolls",
            "conscious": "is incurably insane and out of play, making no more rolls",
            "spend": "is incurably insane and out of play, spending no more ability points",
            "check": "is incurably insane and out of play, making no more tests",
            "treat": "is incurably insane and can no longer be treated",
        },
    }[lang]
    for action, (command, options) in asks.items():
        who = gm if action == "treat" else player
        refused = await fake.slash(guild, who, command, options)
        show(f"insane refused: {action} ({locale})", refused)
        assert_refused(refused, f"**Iris** {words[action]}")
        assert "/character set" not in refused.text, refused.text


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_one_character_call_fits_seven_phone_lines(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 7: a call for one Hurt and Shaken character took 8 lines, saying "each
    player rolls with their buttons" to one player."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    player = guild.member("Lucía", locale=locale)
    await create_stable(fake, guild, guild.owner, "Amelia Ríos", 8, player=player)
    await gm_set(fake, guild, "Amelia Ríos", stability=-3, health=0)  # Shaken and Hurt
    call = await call_test(fake, guild, guild.owner, 4, "Amelia Ríos")
    show(f"one-character call ({locale})", call)
    assert message_lines(call.message) <= ROLL_LINES, message_lines(call.message)
    each = {"es": "Cada jugador", "en": "Each player"}[lang]
    assert each not in call.text
    how = {
        "es": "Los botones +1 a +3 gastan Estabilidad.",
        "en": "The +1 to +3 buttons spend Stability.",
    }[lang]
    assert str(call.embed["description"]).split("\n")[-1] == how


async def test_a_hurt_and_shaken_failure_fits_seven_phone_lines(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    """Issue 24 point 4, the usual case: both penalties said on the outcome line."""
    for locale in LOCALES:
        guild = await make_guild(locale=locale)
        lang = locale[:2]
        await create_stable(fake, guild, guild.owner, "Amelia Ríos", 8)
        await gm_set(fake, guild, "Amelia Ríos", stability=-1, health=0)
        await call_test(fake, guild, guild.owner, 2, "Amelia Ríos")
        await bot.script_dice(1)
        rolled = await fake.slash(
            guild, guild.owner, "stability roll", {"character": "Amelia Ríos"}
        )
        show(f"Hurt and Shaken failure ({locale})", rolled)
        stability_roll_shown(rolled.embed, lang, die=1, base=4, penalties=[1, 1])
        assert message_lines(rolled.message) <= ROLL_LINES, message_lines(rolled.message)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hurt_and_shaken_failure_into_a_mental_illness_fits_seven_phone_lines(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """Issue 24 point 4, the biggest roll: Hurt and Shaken, and the failure brings on a mental
    illness. It took 8 lines: both penalties on the outcome line, the illness on the state
    line, the rating drop said once, within 7 (as a phone of 40 columns wraps them)."""
    guild = await make_guild(locale=locale)
    lang = locale[:2]
    player = guild.member("Lucía", locale=locale)
    await create_stable(fake, guild, guild.owner, "Amelia Ríos", 8, player=player)
    await gm_set(fake, guild, "Amelia Ríos", stability=-3, health=0)  # Shaken and Hurt
    await call_test(fake, guild, guild.owner, 4, "Amelia Ríos")
    await bot.script_dice(1)  # 1 + 0 = 1 vs 6 (4 + 1 + 1): -3 → -7, a mental illness
    ill = await fake.slash(guild, player, "stability roll", {})
    show(f"Hurt and Shaken, into a mental illness ({locale})", ill)
    roll = stability_roll_shown(ill.embed, lang, die=1, base=4, penalties=[1, 1])
    shown = stability_shown(ill.embed, lang)
    assert (shown.before, shown.now, shown.rating_before, shown.rating) == (-3, -7, 8, 7)
    illness = {"es": "Trastorno mental", "en": "Mental illness"}[lang]
    assert ill.text.lower().count(illness.lower()) == 1  # on the state line, once
    assert ill.text.count("8 → 7") == 0  # the rating drop once: the value's "/ 8 → / 7"
    outcome = {
        "es": "**Fallo** · +2 por heridas y alteración",
        "en": "**Failure** · +2 for being hurt and Shaken",
    }
    assert roll.value.split("\n")[1] == outcome[lang]  # both penalties in one phrase
    assert message_lines(ill.message) <= ROLL_LINES, message_lines(ill.message)
    assert exact_lines(ill.embed) <= ROLL_LINES, exact_lines(ill.embed)
