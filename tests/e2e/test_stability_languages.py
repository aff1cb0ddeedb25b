"""Stability's replies in the other language (COMMANDS.md "Stability", Grammar): each reply
``test_stability.py`` and ``test_stability_care.py`` check in one language is checked here in
the other, with the history's lines and the replies' size on a phone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from devkit.phone import embed_lines, message_lines, wrapped_lines
from tests.e2e.kit import (
    announcing_gm,
    check_roll,
    create,
    gm_of,
    gm_set,
    stored,
)
from tests.e2e.kit.replies import field
from tests.e2e.kit.stability import (
    COMPOSURE_FIELD,
    STABILITY_FIELD,
    button_id,
    call_test,
    create_stable,
    press,
    stability_roll_shown,
    stability_shown,
)

MakeGuild = Callable[..., Awaitable[FakeGuild]]
#: COMMANDS.md "Changes": at most 7 lines for a roll (a typical one); four characters at
#: once, as a 4-target /hurt: 12 lines of embed, and the call of the owners at most 3 more.
ROLL_LINES = 7
FOUR_LINES = 12
CALL_LINES = 3


async def test_M3_a_mental_illness_in_english_and_the_rolls_size_on_a_phone(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    jack = guild.member("Jack")
    await create_stable(fake, guild, gm, "Jack Malone", 8, player=jack, gender="masculine")
    call = await call_test(fake, guild, gm, 3, "Jack Malone")
    await bot.script_dice(5)  # a typical roll: 5 + 0 = 5 vs 4
    typical = await press(fake, guild, jack, call, button_id(call, "Jack: Roll"))
    assert stability_roll_shown(typical.embed, die=5, base=4).success
    assert message_lines(typical.message) <= ROLL_LINES, message_lines(typical.message)

    await gm_set(fake, guild, "Jack Malone", stability=-4)
    await call_test(fake, guild, gm, 4, "Jack Malone")
    await bot.script_dice(1)  # 1 + 1 = 2 vs 5: -4 - 1 - 4 = -9
    ill = await fake.slash(guild, jack, "stability roll", {"spend": 1})
    roll = stability_roll_shown(ill.embed, die=1, base=4, penalties=[1])
    assert not roll.success and "+1 for being Shaken" in roll.value
    shown = stability_shown(ill.embed)
    assert (shown.before, shown.now, shown.rating_before, shown.rating) == (-4, -9, 8, 7)
    assert shown.state == "**Shaken** · Mental illness"  # the rating lost said once, above
    assert message_lines(ill.message) <= ROLL_LINES, message_lines(ill.message)

    history = await fake.slash(guild, gm, "history", {"character": "Jack Malone"})
    lines = str(history.embed["description"]).split("\n")
    assert "Jack Malone's Stability test, 1 + 1 = 2 vs 5: failed" in lines[0]
    # Issue 24: a mind's big moment in words, not "-4/8 → -9/7".
    assert lines[0].endswith("failed; Stability -4 → -9, mental illness (maximum 8 → 7)")
    assert "Stability test for Jack Malone (potential loss 4, Difficulty 4)" in lines[1]
    assert "maximum Stability" not in lines[2] and "Stability -4" in lines[2]  # the correction


async def test_M4_insanity_in_spanish_has_its_own_embed_and_is_announced(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = await announcing_gm(fake, guild)
    diego = guild.member("Diego", locale="es-ES")
    await create_stable(fake, guild, gm, "Padre Tomás", 7, player=diego, gender="masculine")
    await gm_set(fake, guild, "Padre Tomás", stability=-8)
    await call_test(fake, guild, gm, 7, "Padre Tomás")
    await bot.script_dice(2)  # 2 + 0 = 2 vs 5: -8 - 7 = -15
    mad = await fake.slash(guild, diego, "stability roll", {})
    assert mad.embed["title"] == "Padre Tomás ha perdido la razón para siempre"
    assert "queda fuera de la partida" in mad.embed["description"]
    assert stability_shown(mad.embed, "es").state == "Alterado → **Locura incurable**"
    posted = await fake.wait_channel_messages(guild.announcements.id, 2)
    assert posted[-1]["embeds"][0]["title"] == "Padre Tomás ha perdido la razón para siempre"
    refused = await fake.slash(guild, diego, "stability roll", {})
    assert refused.ephemeral and refused.text == (
        "**Padre Tomás** ha perdido la razón para siempre y no hace tiradas: queda fuera de la"
        " partida."
    )
    assert mad.embed["color"] == 0x6C3483  # a colour of its own
    show = await fake.slash(guild, gm, "character show", {"character": "Padre Tomás"})
    assert field(show.embed, STABILITY_FIELD["es"]).split("\n")[1:] == [
        "**Locura incurable**",
        "*Fuera de la partida: solo un DJ puede cambiar esta Estabilidad*",
    ]


async def test_M9_M10_a_treatment_in_english_and_a_lucid_scene_in_spanish(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: MakeGuild
) -> None:
    gm = gm_of(guild)
    await create(fake, guild, gm, "Dr. Shaw", 9)
    await fake.slash(
        guild,
        gm,
        "ability set",
        {"character": "Dr. Shaw", "ability": "Psychoanalysis", "rating": 4},
    )
    await create_stable(fake, guild, gm, "Ann", 8, gender="feminine")
    await gm_set(fake, guild, "Ann", stability=-1)
    treated = await fake.slash(
        guild, gm, "stability treat", {"medic": "Dr. Shaw", "patient": "Ann", "points": 1}
    )
    assert field(treated.embed, "Psychoanalysis") == (
        "**Dr. Shaw** spends 1 Psychoanalysis (4 → 3 / 4): +2 Stability."
    )
    shown = stability_shown(treated.embed)
    assert (shown.before, shown.now, shown.state) == (-1, 1, "Shaken → **Steady**")
    history = await fake.slash(guild, gm, "history")
    assert "Dr. Shaw treats Ann with Psychoanalysis (1 point): Stability -1 → 1" in history.text

    spanish = await make_guild(locale="es-ES")
    dj = gm_of(spanish, locale="es-ES")
    await create(fake, spanish, dj, "Padre Tomás", 9)
    await fake.slash(
        spanish,
        dj,
        "ability set",
        {"character": "Padre Tomás", "ability": "Psicoanálisis", "rating": 3},
    )
    await create_stable(fake, spanish, dj, "Amelia Ríos", 8, gender="feminine")
    await gm_set(fake, spanish, "Amelia Ríos", mental_illness=True)
    lucid = await fake.slash(
        spanish,
        dj,
        "stability treat",
        {"medic": "Padre Tomás", "patient": "Amelia Ríos", "points": 2, "lucidity": True},
    )
    assert field(lucid.embed, "Psicoanálisis") == (
        "**Padre Tomás** gasta 2 de Psicoanálisis (3 → 1 / 3): **Amelia Ríos** recupera la"
        " lucidez durante el resto de la escena."
    )
    show = await fake.slash(spanish, dj, "character show", {"character": "Amelia Ríos"})
    assert "Trastorno mental · Lúcida esta escena" in field(show.embed, "Estabilidad")
    new = await fake.slash(spanish, dj, "scene new")
    assert "La lucidez de Amelia Ríos termina." in new.text
    history = await fake.slash(spanish, dj, "history")
    assert "Padre Tomás da a Amelia Ríos una escena de lucidez (2 puntos)" in history.text


async def test_M8_composure_in_english_and_the_shaken_check_in_spanish(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: MakeGuild
) -> None:
    gm = gm_of(guild)
    await create_stable(fake, guild, gm, "Olga", 6, gender="feminine")
    await fake.slash(
        guild, gm, "ability set", {"character": "Olga", "ability": "Occult", "rating": 2}
    )
    await gm_set(fake, guild, "Olga", stability=-2)
    await bot.script_dice(1)  # 1 + 0 = 1 vs 2: falters
    spent = await fake.slash(
        guild, gm, "spend", {"character": "Olga", "ability": "Occult", "points": 1}
    )
    assert field(spent.embed, COMPOSURE_FIELD["en"]).split("\n") == [
        "1 + 0 = 1 vs 2",
        "**Failure — falters, but spends all the same**",
    ]
    await gm_set(fake, guild, "Olga", stability=4)
    calm = await fake.slash(
        guild, gm, "spend", {"character": "Olga", "ability": "Occult", "points": 1, "strain": 1}
    )
    assert calm.ephemeral and "**Olga** is steady: only a Shaken character" in calm.text
    history = await fake.slash(guild, gm, "history")
    assert "Olga spends 1 point of Occult; composure 1 + 0 = 1 vs 2: falters" in history.text

    spanish = await make_guild(locale="es-ES")
    dj = gm_of(spanish, locale="es-ES")
    await create_stable(fake, spanish, dj, "Jack Malone", 6, gender="masculine")
    await fake.slash(
        spanish,
        dj,
        "ability set",
        {"character": "Jack Malone", "ability": "Atletismo", "rating": 3},
    )
    await gm_set(fake, spanish, "Jack Malone", stability=-1)
    await bot.script_dice(5)  # 5 + 0 = 5 vs 5 (4 + 1)
    checked = await fake.slash(
        spanish, dj, "check", {"character": "Jack Malone", "ability": "Atletismo"}
    )
    check_roll(
        checked,
        die=5,
        success=True,
        spend=0,
        difficulty=4,
        pool_after=3,
        rating=3,
        shaken=1,
        language="es",
    )


async def test_M1_english_sheets_show_stability_only_where_it_is_and_a_call_of_four_fits(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    players = [guild.member(name) for name in ("Pat", "Quinn", "Ray", "Sam")]
    names = ["Amelia Ríos", "Jack Malone", "Renée Pennington", "Sgt. O'Malley"]
    for name, player in zip(names, players, strict=True):
        await create_stable(fake, guild, gm, name, 6, player=player)
    await create(fake, guild, gm, "Plain", 9)
    show = await fake.slash(guild, gm, "character show", {"character": "Amelia Ríos"})
    assert field(show.embed, "Stability").split("\n")[:2] == ["6 / 6", "**Steady**"]
    plain = await fake.slash(guild, gm, "character show", {"character": "Plain"})
    assert "Stability" not in plain.text
    listed = await fake.slash(guild, gm, "character list")
    lines = str(listed.embed["description"]).split("\n")
    assert lines[0].endswith("— Stability 6 / 6 · Steady")
    assert next(line for line in lines if "Plain" in line).count("Stability") == 0

    call = await call_test(fake, guild, gm, 8, *names, reason="A ghoul eats Doc")
    assert embed_lines(call.embed) <= FOUR_LINES, embed_lines(call.embed)
    assert wrapped_lines(call.content) <= CALL_LINES, call.content
    assert len(call.buttons) == 16
    assert {b["label"].split(":")[0] for b in call.buttons} == {
        "Amelia",
        "Jack",
        "Renée",
        "Sgt. O'Malley",
    }
    for name in names:
        assert stored(bot, guild, name)["due_loss"] == 8
