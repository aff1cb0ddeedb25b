"""Stability outside the test (RULES.md M1, M8–M13; COMMANDS.md "Stability"), end to end:
Psychoanalysis and lucidity, a Shaken investigative spend and its composure test, the Shaken
+1 of ``/check``, a GM's corrections, ``/refresh`` and ``/scene new``, ``/undo`` of each, and
Stability shown where a character has it and nowhere else; the ``loss`` option's example
incidents; ``/ability`` refusing Stability's names.

Every die the bot rolls is scripted and checked against what the reply shows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    abilities,
    assert_refused,
    check_roll,
    create,
    gm_of,
    gm_set,
    stored,
    what_happened,
    writable,
)
from tests.e2e.kit import undo as confirmed_undo
from tests.e2e.kit.replies import field
from tests.e2e.kit.stability import (
    COMPOSURE_FIELD,
    STABILITY_FIELD,
    create_stable,
    stability_shown,
)

MakeGuild = Callable[..., Awaitable[FakeGuild]]


async def ability(fake: FakeDiscord, guild: FakeGuild, name: str, which: str, rating: int) -> None:
    reply = await fake.slash(
        guild, guild.owner, "ability set", {"character": name, "ability": which, "rating": rating}
    )
    assert not reply.ephemeral, reply.text


async def test_M9_psychoanalysis_restores_stability_never_above_the_rating(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Dr. Freud", 9)
    await ability(fake, guild, "Dr. Freud", "Psicoanálisis", 6)
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, gender="feminine")
    await create(fake, guild, gm, "Jack Malone", 9)
    await gm_set(fake, guild, "Amelia Ríos", stability=-2)

    treat = {"medic": "Dr. Freud", "patient": "Amelia Ríos", "points": 2}
    first = await fake.slash(guild, gm, "stability treat", treat)
    assert not first.ephemeral, first.text
    shown = stability_shown(first.embed, "es")
    assert (shown.before, shown.now, shown.state) == (-2, 2, "Alterada → **Serena**")
    assert field(first.embed, "Psicoanálisis") == (
        "**Dr. Freud** gasta 2 de Psicoanálisis (6 → 4 / 6): +4 de Estabilidad."
    )
    assert abilities(bot, guild, "Dr. Freud")["Psicoanálisis"] == ("general", 6, 4)

    treat["points"] = 2  # room for 6: 2 points give 4
    second = await fake.slash(guild, gm, "stability treat", treat)
    assert stability_shown(second.embed, "es").now == 6
    treat["points"] = 2  # room for 2: 1 point spent, and the rating said
    third = await fake.slash(guild, gm, "stability treat", treat)
    assert field(third.embed, "Psicoanálisis") == (
        "**Dr. Freud** gasta 1 de Psicoanálisis (2 → 1 / 6): +2 de Estabilidad;"
        " no pasa de la Estabilidad máxima (8)."
    )
    full = await fake.slash(guild, gm, "stability treat", treat)
    assert_refused(full, "**Amelia Ríos**", "ya tiene toda su Estabilidad (8 / 8)")

    undone = await confirmed_undo(fake, guild, gm)
    back = next(e for e in undone.embeds if e.get("title") == "Amelia Ríos")
    shown = stability_shown(back, "es")  # the pool the treatment moved, in its field
    assert (shown.before, shown.now, shown.rating) == (8, 6, 8)
    assert stored(bot, guild, "Amelia Ríos")["stability_pool"] == 6

    self_treat = await fake.slash(
        guild, gm, "stability treat", {"medic": "Dr. Freud", "patient": "Dr. Freud", "points": 1}
    )
    assert_refused(self_treat, "Nadie puede aplicarse Psicoanálisis", "**Dr. Freud**")
    without = await fake.slash(
        guild,
        gm,
        "stability treat",
        {"medic": "Jack Malone", "patient": "Amelia Ríos", "points": 1},
    )
    assert_refused(without, "**Jack Malone** no tiene Psicoanálisis", "/ability set")
    no_mind = await fake.slash(
        guild, gm, "stability treat", {"medic": "Dr. Freud", "patient": "Jack Malone", "points": 1}
    )
    assert_refused(no_mind, "**Jack Malone** no tiene Estabilidad")


async def test_M10_a_lucid_scene_for_a_mentally_ill_patient_ends_with_the_scene(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await create(fake, guild, gm, "Dr. Shaw", 9)
    await ability(fake, guild, "Dr. Shaw", "Shrink", 3)
    await create_stable(fake, guild, gm, "Ann", 6, gender="feminine")
    await create_stable(fake, guild, gm, "Bob", 6)
    await gm_set(fake, guild, "Ann", stability=-7, mental_illness=True)
    lucid = {"medic": "Dr. Shaw", "patient": "Ann", "points": 1, "lucidity": True}
    assert_refused(
        await fake.slash(guild, gm, "stability treat", lucid),
        "A lucid scene for **Ann** costs 2 Psychoanalysis points, and you offer 1",
    )
    lucid["points"] = 3  # exactly 2 are spent
    made = await fake.slash(guild, gm, "stability treat", lucid)
    assert field(made.embed, "Psychoanalysis") == (
        "**Dr. Shaw** spends 2 Psychoanalysis (3 → 1 / 3): **Ann** is lucid for the rest of the"
        " scene."
    )
    assert stability_shown(made.embed).state == "**Shaken** · Mental illness"
    show = await fake.slash(guild, gm, "character show", {"character": "Ann"})
    assert "Lucid this scene" in field(show.embed, STABILITY_FIELD["en"])
    assert_refused(
        await fake.slash(guild, gm, "stability treat", lucid),
        "**Ann** is already lucid for the rest of the scene",
    )
    assert_refused(
        await fake.slash(
            guild,
            gm,
            "stability treat",
            {"medic": "Dr. Shaw", "patient": "Bob", "points": 2, "lucidity": True},
        ),
        "**Bob** suffers no mental illness",
    )
    new = await fake.slash(guild, gm, "scene new")
    assert "Ann's lucidity ends." in new.text
    assert stored(bot, guild, "Ann")["lucid"] == 0
    undone = await confirmed_undo(fake, guild, gm)
    assert "is lucid this scene again" in undone.content
    assert stored(bot, guild, "Ann")["lucid"] == 1


async def test_M8_a_shaken_investigative_spend_rolls_composure_and_spends_either_way(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    channel = await fake.slash(guild, gm, "config channel", {"channel": guild.announcements})
    assert channel.ephemeral and guild.announcements.mention in channel.text
    await create_stable(fake, guild, gm, "Olga", 6)
    await create_stable(fake, guild, gm, "Rosa", 6, gender="feminine")
    await ability(fake, guild, "Olga", "Ocultismo", 3)
    await ability(fake, guild, "Olga", "Atletismo", 3)
    await ability(fake, guild, "Rosa", "Ocultismo", 3)
    await gm_set(fake, guild, "Olga", stability=-3)

    spend = {"character": "Olga", "ability": "Ocultismo", "points": 1, "strain": 1}
    await bot.script_dice(1)  # 1 + 1 = 2 vs 3: falters; the point is spent all the same
    faltered = await fake.slash(guild, gm, "spend", spend)
    assert not faltered.ephemeral, faltered.text
    value = field(faltered.embed, COMPOSURE_FIELD["es"])
    assert value.split("\n") == [
        "1 + 1 = 2 vs 3",
        "**Fallo — flaquea, pero gasta igualmente**",
        "Estabilidad -3 → -4 / 6",
    ]
    assert abilities(bot, guild, "Olga")["Ocultismo"][2] == 2
    assert stored(bot, guild, "Olga")["stability_pool"] == -4

    del spend["strain"]
    await bot.script_dice(4)  # 4 + 0 = 4 vs 4: keeps composure; nothing but the point spent
    kept = await fake.slash(guild, gm, "spend", spend)
    assert field(kept.embed, COMPOSURE_FIELD["es"]).split("\n") == [
        "4 + 0 = 4 vs 4",
        "**Éxito — mantiene la compostura**",
    ]
    assert stored(bot, guild, "Olga")["stability_pool"] == -4

    assert_refused(
        await fake.slash(guild, gm, "spend", {**spend, "strain": 8}),
        "Gastar 8 de Estabilidad dejaría a **Olga** en −12 o menos",
        "7",
    )
    assert_refused(
        await fake.slash(
            guild,
            gm,
            "spend",
            {"character": "Olga", "ability": "Atletismo", "points": 1, "strain": 1},
        ),
        "solo acompaña al gasto de una habilidad de investigación",
    )
    assert_refused(
        await fake.slash(guild, gm, "spend", {**spend, "character": "Rosa", "strain": 1}),
        "**Rosa** está serena",
    )
    assert abilities(bot, guild, "Olga")["Ocultismo"][2] == 1  # nothing spent by a refusal

    # A strain that takes -5 to -6 brings on a mental illness (M3), said once and announced.
    await gm_set(fake, guild, "Olga", stability=-5)
    await bot.script_dice(6)  # 6 + 1 = 7 vs 5: keeps composure
    ill = await fake.slash(guild, gm, "spend", {**spend, "strain": 1})
    assert "Olga sufre un trastorno mental · Estabilidad máxima 6 → 5" in ill.text
    # Announced: the first correction (Steady → Shaken), then the illness.
    posted = await fake.wait_channel_messages(guild.announcements.id, 2)
    assert "Olga sufre un trastorno mental" in str(posted[-1])
    undone = await confirmed_undo(fake, guild, gm)
    shown = stability_shown(undone.embed, "es")
    assert (shown.before, shown.rating_before, shown.now, shown.rating) == (-6, 5, -5, 6)
    assert "ya no sufre ningún trastorno mental" in undone.content
    assert abilities(bot, guild, "Olga")["Ocultismo"][2] == 1

    # H3 first: a Hurt character spends no investigative points at all.
    await fake.slash(guild, gm, "hurt", {"character": "Olga", "amount": "9"})
    assert_refused(await fake.slash(guild, gm, "spend", {**spend, "strain": 1}), "Olga")


async def test_M8_a_hurt_and_shaken_characters_check_shows_both_penalties(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await create_stable(fake, guild, gm, "Nell", 6, gender="feminine")
    await ability(fake, guild, "Nell", "Athletics", 4)
    await gm_set(fake, guild, "Nell", stability=0, health=0)  # Shaken and Hurt
    await bot.script_dice(3)
    failed = await fake.slash(guild, gm, "check", {"character": "Nell", "ability": "Athletics"})
    check_roll(
        failed,
        die=3,
        success=False,
        spend=0,
        difficulty=4,
        pool_after=4,
        rating=4,
        penalty=1,
        shaken=1,
    )
    assert "3 + 0 = 3 vs 6 (4 + 1 for wounds + 1 for being Shaken)" in failed.text
    await bot.script_dice(5)
    spent = await fake.slash(
        guild, gm, "check", {"character": "Nell", "ability": "Athletics", "spend": 1}
    )
    check_roll(
        spent,
        die=5,
        success=True,
        spend=1,
        difficulty=4,
        pool_after=3,
        rating=4,
        penalty=1,
        shaken=1,
    )
    await gm_set(fake, guild, "Nell", stability=5)  # Steady again: the wounds' +1 only
    await bot.script_dice(2)
    steady = await fake.slash(guild, gm, "check", {"character": "Nell", "ability": "Athletics"})
    check_roll(
        steady, die=2, success=False, spend=0, difficulty=4, pool_after=3, rating=4, penalty=1
    )


async def test_M1_stability_is_shown_where_a_character_has_it_and_nowhere_else(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    created = await create_stable(fake, guild, gm, "Amelia Ríos", 7, gender="feminine")
    assert field(created.embed, "Estabilidad") == "7 / 7"
    plain = await create(fake, guild, gm, "Jack Malone", 9)
    assert "Estabilidad" not in plain.text
    await gm_set(fake, guild, "Amelia Ríos", stability=0)

    show = await fake.slash(guild, gm, "character show", {"character": "Amelia Ríos"})
    assert field(show.embed, "Estabilidad").split("\n") == [
        "0 / 7",
        "**Alterada**",
        "*+1 a la Dificultad de las habilidades generales; prueba de compostura para gastar"
        " investigación*",
    ]
    jack = await fake.slash(guild, gm, "character show", {"character": "Jack Malone"})
    assert "Estabilidad" not in jack.text and "Sereno" not in jack.text

    listed = await fake.slash(guild, gm, "character list")
    lines = str(listed.embed["description"]).split("\n")
    assert lines[0].endswith("— Estabilidad 0 / 7 · Alterada")
    assert "Estabilidad" not in lines[1]
    status = await fake.slash(guild, gm, "scene status")
    lines = str(status.embed["description"]).split("\n")
    assert lines[0].endswith("— Estabilidad 0 / 7 · Alterada") and "Estabilidad" not in lines[1]
    tracker = await fake.slash(guild, gm, "scene tracker")
    assert "Estabilidad 0 / 7 · Alterada" in tracker.text
    assert tracker.text.count("Estabilidad") == 1


async def test_M13_a_gms_corrections_give_change_and_take_stability_and_undo_them(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Amelia Ríos", 9)
    assert_refused(
        await fake.slash(guild, gm, "character set", {"character": "Amelia Ríos", "stability": 3}),
        "**Amelia Ríos** no tiene Estabilidad",
    )
    given = await gm_set(fake, guild, "Amelia Ríos", max_stability=6)
    assert "Amelia Ríos tiene ahora Estabilidad." in what_happened(given.embed, "es")
    assert stability_shown(given.embed, "es").now == 6
    lowered = await gm_set(fake, guild, "Amelia Ríos", max_stability=4)
    shown = stability_shown(lowered.embed, "es")
    assert (shown.before, shown.now, shown.rating_before, shown.rating) == (6, 4, 6, 4)
    ill = await gm_set(fake, guild, "Amelia Ríos", mental_illness=True)
    assert "Amelia Ríos sufre un trastorno mental." in ill.text
    assert_refused(
        await fake.slash(
            guild,
            gm,
            "character set",
            {"character": "Amelia Ríos", "max_stability": 0, "stability": 2},
        ),
        "Una Estabilidad máxima de 0 quita la Estabilidad",
        "Estabilidad",
    )
    cured = await gm_set(fake, guild, "Amelia Ríos", mental_illness=False)
    assert "Amelia Ríos ya no sufre ningún trastorno mental." in cured.text

    undone = await confirmed_undo(fake, guild, gm)
    assert "vuelve a sufrir un trastorno mental" in undone.content
    await confirmed_undo(fake, guild, gm)  # the illness given
    await confirmed_undo(fake, guild, gm)  # the rating lowered
    row = stored(bot, guild, "Amelia Ríos")
    assert (row["stability_pool"], row["stability_rating"], row["mental_illness"]) == (6, 6, 0)
    taken = await confirmed_undo(fake, guild, gm)  # Stability given
    assert "deja de tener Estabilidad" in taken.content
    assert stored(bot, guild, "Amelia Ríos")["stability_rating"] is None


async def test_M11_refresh_restores_stability_but_not_the_incurably_insane(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create_stable(fake, guild, gm, "Rosa", 8, gender="feminine")
    await create_stable(fake, guild, gm, "Iris", 8, gender="feminine")
    await gm_set(fake, guild, "Rosa", stability=2)
    await gm_set(fake, guild, "Iris", stability=-13)
    refreshed = await fake.slash(guild, gm, "refresh")
    assert not refreshed.ephemeral, refreshed.text
    assert "Estabilidad 2 → 8 / 8" in refreshed.text
    assert "Iris" not in refreshed.text
    assert stored(bot, guild, "Rosa")["stability_pool"] == 8
    assert stored(bot, guild, "Iris")["stability_pool"] == -13
    await confirmed_undo(fake, guild, gm)
    assert stored(bot, guild, "Rosa")["stability_pool"] == 2


async def test_M5_loss_suggests_the_example_incidents_in_the_users_language(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await create_stable(fake, guild, gm, "Ana Lee", 6)
    await create(fake, guild, gm, "Anabel", 9)
    english = await fake.autocomplete(guild, gm, "stability test", {"loss": ""}, focused="loss")
    assert len(english) == 11
    assert english[0] == {
        "name": "A human attacks you, meaning to do serious harm (2)",
        "value": 2,
    }
    assert english[-1]["name"] == "You see a friend or loved one killed gruesomely (8)"
    spanish = gm_of(guild, "Gm-es", locale="es-ES")
    fours = await fake.autocomplete(guild, spanish, "stability test", {"loss": "4"}, focused="loss")
    assert [choice["name"] for choice in fours] == [
        "Ves a una criatura sobrenatural de cerca (4)",
        "Ves la escena de un crimen o accidente atroz (4)",
        "Te enteras de que un ser querido ha muerto de forma violenta (4)",
    ]
    own = await fake.autocomplete(guild, spanish, "stability test", {"loss": "12"}, focused="loss")
    assert own == [{"name": "Pérdida posible 12", "value": 12}]
    # The character options of the Stability commands suggest only those with Stability.
    names = await fake.autocomplete(
        guild, gm, "stability test", {"loss": 2, "character": "an"}, focused="character"
    )
    assert [choice["value"] for choice in names] == ["Ana Lee"]
    everyone = await fake.autocomplete(guild, gm, "hurt", {"character": "an"}, focused="character")
    assert sorted(choice["value"] for choice in everyone) == ["Ana Lee", "Anabel"]


async def test_ability_refuses_stabilitys_names_but_removes_an_old_one(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    """COMMANDS.md: Stability is not an ability. A server that kept one before Stability was
    a pool keeps it (the migration gives nobody Stability) until a GM removes it."""
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Jack Malone", 9)
    for name in ("Estabilidad", "stability"):
        refused = await fake.slash(
            guild, gm, "ability set", {"character": "Jack Malone", "ability": name, "rating": 6}
        )
        assert_refused(refused, "La Estabilidad no es una habilidad aquí", "/character set")
    jack = stored(bot, guild, "Jack Malone")["id"]
    with writable(bot) as conn:  # as an older Salud stored it
        conn.execute(
            "INSERT INTO abilities VALUES (?, 'Stability', 'stability', 'general', 6, 4)", (jack,)
        )
    spent = await fake.slash(
        guild, gm, "spend", {"character": "Jack Malone", "ability": "Stability", "points": 1}
    )
    assert_refused(spent, "La Estabilidad no es una habilidad aquí", "/ability remove")
    removed = await fake.slash(
        guild, gm, "ability remove", {"character": "Jack Malone", "ability": "Stability"}
    )
    assert not removed.ephemeral, removed.text
    assert abilities(bot, guild, "Jack Malone") == {}
    suggested = await fake.autocomplete(
        guild, gm, "ability set", {"character": "Jack Malone", "ability": "esta"}, focused="ability"
    )
    assert all("Estabilidad" not in choice["name"] for choice in suggested), suggested


async def test_M9_F1_the_patient_autocomplete_leaves_out_the_medic_chosen(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """Nobody treats themselves (F1, M9): once the medic is chosen, ``patient`` suggests
    everyone else (with Stability, for ``/stability treat``), not the medic."""
    gm = gm_of(guild)
    for name in ("Dr. Freud", "Amelia Ríos", "Jack Malone"):
        await create_stable(fake, guild, gm, name, 6)
    await create(fake, guild, gm, "Olga", 9)  # no Stability
    for command, expected in (
        ("stability treat", ["Amelia Ríos", "Jack Malone"]),
        ("firstaid", ["Amelia Ríos", "Jack Malone", "Olga"]),
    ):
        choices = await fake.autocomplete(
            guild, gm, command, {"medic": "Dr. Freud", "patient": ""}, focused="patient"
        )
        assert [choice["name"] for choice in choices] == expected, command
        # Typed as it matches (case and accents ignored), the medic is left out too.
        choices = await fake.autocomplete(
            guild, gm, command, {"medic": "dr. freud", "patient": "dr"}, focused="patient"
        )
        assert choices == [], command
        # With no medic yet, everyone it may be is offered.
        choices = await fake.autocomplete(guild, gm, command, {"patient": "dr"}, focused="patient")
        assert [choice["name"] for choice in choices] == ["Dr. Freud"], command
