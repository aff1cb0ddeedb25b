"""The rendering layer: status embed, event sentences, rolls and history, in both languages."""

from __future__ import annotations

import dataclasses
import logging
import typing

import discord
import pytest

from bot import render
from bot.i18n import Language
from bot.render import rolls
from bot.storage.models import StoredCharacter
from rules import events, stability_events
from rules.abilities import Ability, AbilityKind, AbilityRoll
from rules.character import CharacterHealth, Gender, Hospital
from rules.consciousness import ConsciousnessRoll
from rules.dice import DamageRoll, DiceExpression, FixedAmount
from rules.outcome import Outcome
from rules.stability import StabilityState
from rules.state import HealthState

EN, ES = Language.EN, Language.ES


def health(value: int, maximum: int = 9, **flags: typing.Any) -> CharacterHealth:
    """A consistent CharacterHealth at ``value`` (lowest Health set when Seriously wounded)."""
    if -12 < value <= -6:
        flags.setdefault("lowest_health", value)
    return CharacterHealth(
        health=value,
        max_health=maximum,
        first_aid_pool=2,
        first_aid_rating=4,
        scene_start_health=maximum,
        **flags,
    )


def character(
    value: int = 9, *, name: str = "Ana", abilities: tuple[Ability, ...] = (), **flags: typing.Any
) -> StoredCharacter:
    return StoredCharacter(
        id=1,
        guild_id=10,
        name=name,
        owner_id=99,
        health=health(value, **flags),
        abilities=abilities,
    )


def field(embed: discord.Embed, name: str) -> str:
    matches = [f.value for f in embed.fields if f.name == name]
    assert len(matches) == 1, (name, [f.name for f in embed.fields])
    return str(matches[0])


# --- status embed ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "colour"),
    [(5, 0x2ECC71), (0, 0xF1C40F), (-5, 0xF1C40F), (-7, 0xE67E22), (-12, 0x23272A)],
)
def test_colour_follows_the_state(value: int, colour: int) -> None:
    for language in Language:
        embed = render.status_embed(character(value), language)
        assert embed.colour is not None and embed.colour.value == colour


def test_title_is_the_name_and_nobody_is_mentioned() -> None:
    embed = render.status_embed(character(name="@everyone *Bob*"), EN)
    assert embed.title == "@everyone *Bob*"
    assert "<@99>" not in str(embed.to_dict())


@pytest.mark.parametrize(("language", "name"), [(EN, "Health"), (ES, "Salud")])
def test_health_field_begins_with_current_over_max(language: Language, name: str) -> None:
    embed = render.status_embed(character(-7, roll_pending=True), language)
    assert field(embed, name).startswith("-7 / 9")


def test_first_aid_field_shows_pool_over_rating() -> None:
    assert field(render.status_embed(character(), EN), "First Aid").startswith("2 / 4")
    assert field(render.status_embed(character(), ES), "Primeros Auxilios").startswith("2 / 4")


def test_state_field_in_english() -> None:
    value = field(render.status_embed(character(-3, roll_pending=True), EN), "State")
    assert "Hurt" in value
    assert "Consciousness roll pending (Difficulty 3)" in value
    lines = value.split("\n")
    assert len(lines) == 2
    assert "No investigative spends; +1 Difficulty" in lines[1]
    assert "cannot fight" not in value


def test_state_field_in_spanish() -> None:
    value = field(render.status_embed(character(-8, conscious=False), ES), "Estado")
    assert "Gravemente herido" in value
    assert "Inconsciente" in value
    assert "no puede combatir" in value.split("\n")[1]
    assert "+1 a la Dificultad" in value


def test_flags_in_both_languages() -> None:
    stabilized = health(-7, stabilized=True)
    hospital = health(-7, stabilized=True, hospital=Hospital(length_days=8, days_served=3))
    one_day = health(-7, stabilized=True, hospital=Hospital(length_days=8, days_served=7))
    assert render.flags_text(stabilized, EN) == "Stabilized"
    assert render.flags_text(stabilized, ES) == "Estabilizado"
    assert "In hospital (5 days left)" in render.flags_text(hospital, EN)
    assert "En el hospital (quedan 5 días)" in render.flags_text(hospital, ES)
    assert "En el hospital (queda 1 día)" in render.flags_text(one_day, ES)
    assert "Bleeding" not in render.flags_text(stabilized, EN)
    assert "Bleeding" in render.flags_text(health(-7), EN)
    assert render.flags_text(health(5), EN) == ""
    pending = health(-2, roll_pending=True)
    assert render.flags_text(pending, ES) == "Tirada de Consciencia pendiente (Dificultad 2)"
    assert render.flags_text(health(-4, conscious=False), EN) == "Unconscious"


def test_state_words_and_emoji() -> None:
    expected = {
        HealthState.HEALTHY: ("Healthy", "Ileso"),
        HealthState.HURT: ("Hurt", "Dañado"),
        HealthState.SERIOUSLY_WOUNDED: ("Seriously wounded", "Gravemente herido"),
        HealthState.DEAD: ("Dead", "Muerto"),
    }
    for state, (english, spanish) in expected.items():
        assert render.state_label(state, EN) == english
        assert render.state_label(state, ES) == spanish
        assert render.state_emoji(state)


def test_abilities_listed_investigative_first() -> None:
    abilities = (
        Ability("Athletics", AbilityKind.GENERAL, 8, 5),
        Ability("Library Use", AbilityKind.INVESTIGATIVE, 2, 2),
    )
    embed = render.status_embed(character(abilities=abilities), EN)
    names = [f.name for f in embed.fields]
    assert names.index("Investigative abilities") < names.index("General abilities")
    assert field(embed, "Investigative abilities") == "Library Use 2/2"
    assert field(embed, "General abilities") == "Athletics 5/8"


def _within_limits(embed: discord.Embed) -> None:
    assert len(embed) <= 6000
    assert len(embed.fields) <= 25
    for item in embed.fields:
        assert 0 < len(item.value or "") <= 1024
        assert len(item.name or "") <= 256
    assert len(embed.title or "") <= 256


@pytest.mark.parametrize("language", list(Language))
def test_sixty_long_abilities_fit_discord_limits(language: Language) -> None:
    abilities = tuple(
        Ability(
            f"{'Ability name of forty characters':<35}{index:05d}",
            AbilityKind.INVESTIGATIVE if index % 2 else AbilityKind.GENERAL,
            99,
            99,
        )
        for index in range(60)
    )
    assert all(len(ability.name) == 40 for ability in abilities)
    embed = render.status_embed(character(-7, name="N" * 40, abilities=abilities), language)
    _within_limits(embed)
    shown = " ".join(str(item.value) for item in embed.fields)
    assert all(f"{ability.name} 99/99" in shown for ability in abilities)


def _escapable_abilities(length: int) -> tuple[Ability, ...]:
    """60 distinct names made only of characters that markdown escaping doubles."""
    names = [
        "".join("*" if index >> bit % 8 & 1 else "_" for bit in range(length - 3)) + "x" * 3
        for index in range(60)
    ]
    return tuple(Ability(name, AbilityKind.GENERAL, 99, 99) for name in names)


@pytest.mark.parametrize("language", list(Language))
def test_markdown_heavy_forty_character_names_all_fit(language: Language) -> None:
    embed = render.status_embed(character(-3, abilities=_escapable_abilities(40)), language)
    _within_limits(embed)
    assert sum(str(item.value).count("99/99") for item in embed.fields) == 60


@pytest.mark.parametrize("language", list(Language))
def test_what_does_not_fit_is_counted(language: Language) -> None:
    # Longer than /ability set allows: the embed still keeps to the limits and says so.
    embed = render.status_embed(character(-3, abilities=_escapable_abilities(80)), language)
    _within_limits(embed)
    shown = sum(str(item.value).count("99/99") for item in embed.fields)
    assert 0 < shown < 60
    more = {EN: f"… and {60 - shown} more", ES: f"… y {60 - shown} más"}[language]
    assert str(embed.fields[-1].value).endswith(more)


def test_death_embed() -> None:
    dead = character(-12)
    english, spanish = render.death_embed(dead, EN), render.death_embed(dead, ES)
    assert english.title == "Ana has died"
    assert spanish.title == "Ana ha muerto"
    for embed in (english, spanish):
        assert embed.colour is not None and embed.colour.value == 0x23272A
        assert embed.description


# --- events ---------------------------------------------------------------------------------


#: The modules of the rules' events: Health's and Stability's (each rendered by type).
EVENT_MODULES = (events.__name__, stability_events.__name__)


def _event_classes() -> list[type[events.Event]]:
    found: list[type[events.Event]] = []
    pending = list(events.Event.__subclasses__())
    while pending:
        cls = pending.pop()
        if cls.__module__ in EVENT_MODULES:  # not the stand-ins other tests define
            found.append(cls)
        pending.extend(cls.__subclasses__())
    return found


def _dummy(cls: type[events.Event]) -> events.Event:
    hints = typing.get_type_hints(cls)
    values: dict[str, object] = {}
    for item in dataclasses.fields(cls):
        hint = hints[item.name]
        if hint is HealthState:
            values[item.name] = HealthState.SERIOUSLY_WOUNDED
        elif hint is StabilityState:
            values[item.name] = StabilityState.SHAKEN
        elif hint is str:
            values[item.name] = "health"
        elif hint is bool:
            values[item.name] = True
        else:
            values[item.name] = 3
    return cls(**values)


def test_every_event_class_has_a_sentence_in_both_languages() -> None:
    classes = _event_classes()
    assert len(classes) >= 20
    assert {cls.__module__ for cls in classes} == set(EVENT_MODULES)
    for cls in classes:
        event = _dummy(cls)
        english = render.describe_events("Ana", [event], EN)
        spanish = render.describe_events("Ana", [event], ES)
        assert len(english) == 1 and len(spanish) == 1, cls.__name__
        for sentence in (english[0], spanish[0]):
            assert "Ana" in sentence, cls.__name__
            assert "{" not in sentence and "render." not in sentence, cls.__name__
        assert english != spanish, cls.__name__


def test_event_sentences_say_the_rules_words() -> None:
    sequence = [
        events.Damaged(amount=8),
        events.StateChanged(before=HealthState.HURT, after=HealthState.SERIOUSLY_WOUNDED),
        events.RollDue(difficulty=7),
        events.FirstAidSpent(points=1),
        events.Admitted(length_days=1),
        events.ConvalescenceProgressed(days_served=1, days_left=1),
        events.Corrected(field="conscious", before=False, after=True),
    ]
    english = render.describe_events("Ana", sequence, EN)
    spanish = render.describe_events("Ana", sequence, ES)
    assert english[0] == "Ana takes 8 damage."
    assert english[1] == "Ana's state: Seriously wounded."
    assert spanish[1] == "Estado de Ana: Gravemente herido."
    assert "Difficulty 7" in english[2] and "Dificultad 7" in spanish[2]
    assert "1 point " in english[3] and "1 punto " in spanish[3]
    assert "1 day." in english[4] and "1 día." in spanish[4]
    assert "1 day left" in english[5] and "queda 1 día" in spanish[5]
    assert english[6] == "Ana regains consciousness."
    assert spanish[6] == "Ana recupera la consciencia."


def test_sentences_agree_with_a_known_gender_and_never_assume_one() -> None:
    said = [events.Stabilized(), events.StabilizationEnded()]
    neutral = render.describe_events("Amelia", said, ES)
    feminine = render.describe_events("Amelia", said, ES, Gender.FEMININE)
    masculine = render.describe_events("Jack", said, ES, Gender.MASCULINE)
    assert feminine[0] == "Amelia queda estabilizada y deja de desangrarse."
    assert masculine[0] == "Jack queda estabilizado y deja de desangrarse."
    assert "estabilizada" in feminine[1] and "estabilizado" in masculine[1]
    for sentence in neutral:
        assert "estabilizad" not in sentence, sentence
    english = render.describe_events("Amelia", [events.StabilizationEnded()], EN)
    assert (
        "her"
        in render.describe_events("Amelia", [events.StabilizationEnded()], EN, Gender.FEMININE)[
            0
        ].split()
    )
    assert not {"her", "his", "its", "it"} & set(english[0].rstrip(".").replace(":", "").split())
    assert (
        render.state_label(HealthState.SERIOUSLY_WOUNDED, ES, Gender.FEMININE)
        == "Gravemente herida"
    )
    assert render.state_label(HealthState.SERIOUSLY_WOUNDED, ES) == "Gravemente herido"


def test_unknown_event_is_skipped_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    @dataclasses.dataclass(frozen=True)
    class Unheard(events.Event):
        value: int

    with caplog.at_level(logging.WARNING):
        sentences = render.describe_events("Ana", [Unheard(1), events.Died()], EN)
    assert sentences == ["Ana dies."]
    assert "Unheard" in caplog.text


def test_events_are_told_by_their_type_not_by_their_class_name() -> None:
    @dataclasses.dataclass(frozen=True)
    class Damaged(events.Event):  # a stand-in that only shares the name of a rules event
        amount: int

    assert render.describe_events("Ana", [Damaged(4)], EN) == []
    assert render.describe_events("Ana", [events.Damaged(4)], EN) == ["Ana takes 4 damage."]


def test_names_in_sentences_are_markdown_escaped() -> None:
    assert render.describe_events("*Bo_b*", [events.Died()], EN) == [r"\*Bo\_b\* dies."]


# --- rolls ----------------------------------------------------------------------------------


def _consciousness(die: int, spend: int, difficulty: int) -> ConsciousnessRoll:
    before = health(-difficulty)
    total = die + spend
    return ConsciousnessRoll(
        outcome=Outcome(before=before, after=before, events=()),
        die=die,
        spend=spend,
        total=total,
        difficulty=difficulty,
        success=total >= difficulty,
    )


def test_consciousness_roll_field() -> None:
    name, value = render.consciousness_roll_field(_consciousness(4, 1, 3), EN)
    assert name == "Consciousness roll"
    assert value.split("\n")[0] == "4 + 1 = 5 vs 3"
    assert "Success — stays conscious" in value
    name, value = render.consciousness_roll_field(_consciousness(3, 0, 2), ES)
    assert name == "Tirada de Consciencia"
    assert "3 + 0 = 3 vs 2" in value
    assert "Éxito — sigue consciente" in value
    _, value = render.consciousness_roll_field(_consciousness(1, 0, 4), ES)
    assert "1 + 0 = 1 vs 4" in value and "Fallo — cae inconsciente" in value
    _, value = render.consciousness_roll_field(_consciousness(1, 0, 4), EN)
    assert "Failure — falls unconscious" in value


def _test_roll(
    die: int, spend: int, base: int, penalty: int, *, attack: bool = False
) -> AbilityRoll:
    return AbilityRoll(
        ability_after=Ability("Athletics", AbilityKind.GENERAL, 6, 3),
        die=die,
        spend=spend,
        total=die + spend,
        base_difficulty=base,
        penalty=penalty,
        difficulty=base + penalty,
        success=die + spend >= base + penalty,
        attack=attack,
    )


def test_test_roll_field_with_penalty_breakdown() -> None:
    name, value = rolls.ability_roll_field(_test_roll(4, 1, 3, 1, attack=True), "Scuffling", EN)
    assert name == "Scuffling attack"
    assert value.split("\n") == [
        "4 + 1 = 5 vs 4 (3 + 1 for wounds)",
        "**Success — hit**",
        "Pool 4 → 3 / 6",
    ]
    name, value = rolls.ability_roll_field(_test_roll(4, 1, 3, 1, attack=True), "Pelea", ES)
    assert name == "Ataque (Pelea)"
    assert value.split("\n") == [
        "4 + 1 = 5 vs 4 (3 + 1 por las heridas)",
        "**Éxito — impacta**",
        "Reserva 4 → 3 / 6",
    ]


def test_test_roll_field_without_penalty() -> None:
    name, value = rolls.ability_roll_field(_test_roll(2, 0, 4, 0), "Athletics", EN)
    assert value.split("\n") == ["2 + 0 = 2 vs 4", "**Failure**", "Pool 3 / 6"]
    name, value = rolls.ability_roll_field(_test_roll(2, 0, 4, 0), "Atletismo", ES)
    assert name == "Prueba de Atletismo"
    assert value.split("\n") == ["2 + 0 = 2 vs 4", "**Fallo**", "Reserva 3 / 6"]


def test_damage_roll_text() -> None:
    roll = DamageRoll(dice=(4,), modifier=2, raw_total=6, dealt=6)
    assert render.damage_roll_text(roll, EN, DiceExpression(1, 6, 2)) == "1d6+2: [4] + 2 = 6"
    assert render.damage_roll_text(roll, EN, "1d6+2") == "1d6+2: [4] + 2 = 6"
    assert render.damage_roll_text(roll, EN) == "[4] + 2 = 6"
    two = DamageRoll(dice=(3, 5), modifier=0, raw_total=8, dealt=8)
    assert render.damage_roll_text(two, ES, DiceExpression(2, 6)) == "2d6: [3, 5] = 8"
    clamped = DamageRoll(dice=(1,), modifier=-2, raw_total=-1, dealt=1)
    english = render.damage_roll_text(clamped, EN, DiceExpression(1, 6, -2))
    assert english.startswith("1d6-2: [1] - 2 = -1 → 1")
    assert "at least 1" in english
    assert "al menos 1" in render.damage_roll_text(clamped, ES)
    fixed = DamageRoll(dice=(), modifier=0, raw_total=5, dealt=5)
    assert render.damage_roll_text(fixed, EN, FixedAmount(5)) == "5"


# --- calling the player --------------------------------------------------------------------


def test_lists_are_joined_as_a_sentence_says_them() -> None:
    assert render.join_words(ES, ["Pablo", "Quique", "Rita"]) == "Pablo, Quique y Rita"
    assert render.join_words(ES, ["Pablo", "Inés"]) == "Pablo e Inés"
    assert render.join_words(ES, ["Pablo", "Hipólito"]) == "Pablo e Hipólito"
    assert render.join_words(ES, ["Pablo", "Hierro"]) == "Pablo y Hierro"
    assert render.join_words(EN, ["Pablo", "Inés"]) == "Pablo and Inés"
    assert render.join_words(EN, ["Ana"]) == "Ana"


def test_the_call_names_each_player_with_their_characters() -> None:
    from bot.render.calls import RollCall, call_text

    one = [RollCall(1, "Amelia Ríos", 3)]
    assert (
        call_text(one, ES)
        == "<@1>: Amelia Ríos debe hacer una Tirada de Consciencia (Dificultad 3)"
    )
    assert call_text(one, EN) == "<@1>: Amelia Ríos must make a Consciousness roll (Difficulty 3)"
    several = [RollCall(1, "Amelia Ríos", 3), RollCall(2, "Jack", 5), RollCall(2, "Irene", 4)]
    # Several: each character as its buttons call it (four players fit three phone lines).
    assert call_text(several, ES) == "Tirada de Consciencia: <@1> (Amelia) y <@2> (Jack e Irene)"
    assert call_text(several, EN) == "Consciousness roll: <@1> (Amelia) and <@2> (Jack and Irene)"
    titled = [RollCall(1, "Padre Tomás", 3), RollCall(2, "Jack Malone", 5)]
    assert call_text(titled, ES) == "Tirada de Consciencia: <@1> (Padre Tomás) y <@2> (Jack)"
    assert call_text([], EN) is None
