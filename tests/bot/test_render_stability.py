"""Stability in words (bot/render/stability.py), in both languages: its field and state, the
test's roll with its breakdown, the mental illness and insanity said once, and nothing of it
for a character without Stability."""

from __future__ import annotations

import dataclasses

import discord

from bot.i18n import Language
from bot.render import status_embed
from bot.render.change import change_embeds
from bot.render.stability import (
    stability_brief,
    stability_change_embeds,
    stability_roll_field,
    stability_value,
)
from bot.render.stability_call import stability_call_embed
from bot.storage.models import StoredCharacter
from rules.character import CharacterHealth, Gender
from rules.dice import ScriptedRoller
from rules.outcome import Outcome
from rules.stability import CharacterStability, DueTest, StabilityOutcome
from rules.stability_roll import call_stability_test, roll_stability_test

EN, ES = Language.EN, Language.ES


def character(
    stability: CharacterStability | None,
    *,
    health: int = 9,
    gender: Gender | None = None,
    name: str = "Amelia Ríos",
) -> StoredCharacter:
    return StoredCharacter(
        id=1,
        guild_id=10,
        name=name,
        owner_id=99,
        health=dataclasses.replace(CharacterHealth.new(9, 2), health=health),
        gender=gender,
        stability=stability,
    )


def fields(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


def test_a_character_without_stability_shows_nothing_of_it() -> None:
    for language, word in ((EN, "Stability"), (ES, "Estabilidad")):
        embed = status_embed(character(None), language)
        assert word not in str(embed.to_dict())
        hurt = Outcome(before=CharacterHealth.new(9, 2), after=character(None).health, events=())
        assert word not in str(change_embeds(character(None), hurt, language)[0].to_dict())


def test_the_status_embed_shows_pool_rating_state_and_marks() -> None:
    stability = CharacterStability(
        pool=-7, rating=7, mental_illness=True, lucid=True, due_test=DueTest(4, 3)
    )
    spanish = fields(status_embed(character(stability, gender=Gender.FEMININE), ES))["Estabilidad"]
    # The GM's Difficulty 3, +1 for being Shaken: the number the player will roll against.
    assert spanish.split("\n")[:2] == [
        "-7 / 7",
        "**Alterada** · Trastorno mental · Lúcida esta escena · Prueba de Estabilidad pendiente"
        " (pérdida posible 4, Dificultad 4)",
    ]
    english = fields(status_embed(character(stability), EN))["Stability"]
    assert english.split("\n")[1].startswith("**Shaken** · Mental illness · Lucid this scene")


def test_values_and_briefs() -> None:
    before = CharacterStability(pool=5, rating=8)
    assert stability_value(before, CharacterStability(pool=1, rating=8)) == "5 → 1 / 8"
    assert stability_value(before, before) == "5 / 8"
    assert stability_value(before, CharacterStability(pool=-7, rating=7)) == "5 / 8 → -7 / 7"
    assert stability_value(None, before) == "5 / 8"
    assert stability_brief(before, ES) == "Estabilidad 5 / 8 · Sereno"
    assert stability_brief(CharacterStability(0, 8), ES, Gender.FEMININE) == (
        "Estabilidad 0 / 8 · Alterada"
    )
    assert stability_brief(CharacterStability(-12, 8), EN) == "Stability -12 / 8 · Incurably insane"


def test_a_roll_that_brings_on_a_mental_illness_says_it_once_with_the_rating_lost() -> None:
    due = CharacterStability(pool=-3, rating=8, due_test=DueTest(loss=4, difficulty=4))
    hurt = dataclasses.replace(CharacterHealth.new(9, 2), health=0)
    made = roll_stability_test(hurt, due, 0, ScriptedRoller([2]))
    saved = character(made.outcome.after, health=0, gender=Gender.FEMININE)
    (embed,) = stability_change_embeds(
        saved, made.outcome, ES, extra_fields=[stability_roll_field(made, ES)]
    )
    shown = fields(embed)
    # The rating lost said once (its value's ``/ 8 → / 7``), the illness on the state line.
    assert shown["Estabilidad"] == "-3 / 8 → -7 / 7 · **Alterada** · Trastorno mental"
    # The penalties on the outcome line, both in one phrase (each is in the breakdown), so
    # that the line fits a phone; the loss is the value's.
    assert shown["Prueba de Estabilidad"].split("\n") == [
        "2 + 0 = 2 vs 6 (4 + 1 + 1)",
        "**Fallo** · +2 por heridas y alteración",
    ]
    assert str(embed.to_dict()).lower().count("trastorno mental") == 1
    assert embed.colour is not None and embed.colour.value == 0xF1C40F  # Health's: Hurt


def test_insanity_has_an_embed_of_its_own_in_both_languages() -> None:
    due = CharacterStability(pool=-9, rating=7, due_test=DueTest(loss=6, difficulty=4))
    made = roll_stability_test(CharacterHealth.new(9, 2), due, 0, ScriptedRoller([1]))
    for language, title in (
        (EN, "Amelia Ríos is incurably insane"),
        (ES, "Amelia Ríos ha perdido la razón para siempre"),
    ):
        saved = character(made.outcome.after, gender=Gender.FEMININE)
        (embed,) = stability_change_embeds(
            saved, made.outcome, language, extra_fields=[stability_roll_field(made, language)]
        )
        assert embed.title == title
        assert "/character set" in str(embed.description)
    english = stability_change_embeds(
        character(made.outcome.after, gender=Gender.FEMININE), made.outcome, EN
    )[0]
    assert "her Stability" in str(english.description)
    assert fields(english)["Stability"] == "-9 → -15 / 7 · Shaken → **Incurably insane**"
    assert english.colour is not None and english.colour.value == 0x6C3483  # a mind lost


def test_a_call_lists_who_rolls_with_the_difficulty_raised_for_them() -> None:
    steady = CharacterStability.new(8)
    shaken = CharacterStability(pool=0, rating=6)
    amelia = character(steady, gender=Gender.FEMININE)
    tomas = character(shaken, health=0, name="Padre Tomás", gender=Gender.MASCULINE)
    called = [
        (amelia, call_stability_test(amelia.health, steady, 4, 4)),
        (tomas, call_stability_test(tomas.health, shaken, 4, 4)),
    ]
    saved = [(dataclasses.replace(c, stability=o.after), o) for c, o in called]
    embed = stability_call_embed(saved, 4, 4, "El shoggoth", ES)
    assert embed.title == "Prueba de Estabilidad"
    assert str(embed.description).split("\n")[:3] == [
        "Pérdida posible 4 · Dificultad 4 · El shoggoth",
        "**Amelia Ríos** · Estabilidad 8 / 8 · Serena",
        "**Padre Tomás** · Estabilidad 0 / 6 · Alterado · Dificultad 6 (4 + 1 + 1)",
    ]
    replaced = call_stability_test(amelia.health, saved[0][1].after, 2, 5)
    again = stability_call_embed(
        [(dataclasses.replace(amelia, stability=replaced.after), replaced)], 2, 5, None, EN
    )
    assert "replaces the test due (potential loss 4, Difficulty 4)" in str(again.description)


def test_a_capped_failure_says_what_the_scene_took_and_its_cap() -> None:
    """M6: the cap is the worst incident's, not the current test's loss (issue 24)."""
    rolled_before = CharacterStability(
        pool=10, rating=10, scene_worst_loss=4, scene_lost=4, due_test=DueTest(6, 4)
    )
    made = roll_stability_test(CharacterHealth.new(9, 2), rolled_before, 0, ScriptedRoller([1]))
    assert stability_roll_field(made, EN)[1].split("\n")[1] == (
        "**Failure** · loses 2, not 6: that makes 6 this scene, the worst incident's cap"
    )
    assert stability_roll_field(made, ES)[1].split("\n")[1] == (
        "**Fallo** · pierde 2, no 6: ya son 6 en esta escena, el tope del peor incidente"
    )
    out = CharacterStability(
        pool=10, rating=10, scene_worst_loss=4, scene_lost=4, due_test=DueTest(2, 4)
    )
    nothing = roll_stability_test(CharacterHealth.new(9, 2), out, 0, ScriptedRoller([1]))
    assert stability_roll_field(nothing, ES)[1].split("\n")[1] == (
        "**Fallo**, sin pérdida: ya ha perdido 4 en esta escena, el tope del peor incidente"
    )
    assert stability_roll_field(nothing, EN)[1].split("\n")[1] == (
        "**Failure**, no loss: already lost 4 this scene, the worst incident's cap"
    )
    outcome = StabilityOutcome(before=out, after=nothing.outcome.after, events=())
    assert outcome.changed
