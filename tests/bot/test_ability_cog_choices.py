"""The pure helpers of bot/features/abilities.py: autocomplete choices and naming (no Discord)."""

from __future__ import annotations

import pytest

from bot.features.abilities import (
    ability_choices,
    ability_name,
    find_ability,
    first_aid_ability,
    is_first_aid,
)
from bot.i18n import Language
from bot.interaction.errors import UserFacingError
from bot.render.abilities import check_embed
from bot.storage import StoredCharacter
from rules.abilities import Ability, AbilityKind, ReservedAbility, make_test
from rules.character import CharacterHealth
from rules.dice import ScriptedRoller

GENERAL, INVESTIGATIVE = AbilityKind.GENERAL, AbilityKind.INVESTIGATIVE


def character(*abilities: Ability) -> StoredCharacter:
    return StoredCharacter(
        id=1,
        guild_id=1,
        name="Ana",
        owner_id=1,
        health=CharacterHealth.new(9, 3),
        abilities=abilities,
    )


def test_choices_never_exceed_25_and_own_abilities_come_first() -> None:
    many = character(*(Ability(f"Lore {i:02d}", GENERAL, 2, 1) for i in range(30)))
    choices = ability_choices(many, "", Language.EN)
    assert len(choices) == 25
    assert choices[0].name == "Lore 00 · 1/2 · general" and choices[0].value == "Lore 00"
    few = character(Ability("Stealth", GENERAL, 2, 2))
    choices = ability_choices(few, "", Language.EN)
    assert len(choices) == 25
    assert choices[0].value == "Stealth"
    assert [c.value for c in choices].count("Stealth") == 1


def test_check_choices_are_general_and_include_first_aid() -> None:
    ana = character(Ability("Library Use", INVESTIGATIVE, 2, 2), Ability("Weapons", GENERAL, 1, 1))
    choices = ability_choices(ana, "", Language.ES, testable_only=True)
    values = [c.value for c in choices]
    assert values[:2] == ["Primeros Auxilios", "Weapons"]
    assert "Library Use" not in values and "Buscar Libros" not in values
    assert all("investigación" not in c.name for c in choices)
    alone = ability_choices(None, "primeros", Language.ES, testable_only=True)
    assert [c.value for c in alone] == ["Primeros Auxilios"]


def test_remove_choices_are_only_the_characters_own() -> None:
    ana = character(Ability("Stealth", GENERAL, 2, 2))
    assert [c.value for c in ability_choices(ana, "", Language.EN, own_only=True)] == ["Stealth"]
    assert ability_choices(None, "", Language.EN, own_only=True) == []


def test_names_first_aid_and_lookups() -> None:
    assert ability_name("  Athletics ") == "Athletics"
    with pytest.raises(UserFacingError) as refused:
        ability_name("x" * 41)
    assert refused.value.key == "abilities.error.name.too_long"
    assert is_first_aid("primeros  auxilios") and is_first_aid("FIRST AID")
    assert not is_first_aid("Health") and not is_first_aid("Athletics")
    ana = character(Ability("Athletics", GENERAL, 3, 1))
    assert first_aid_ability(ana, Language.EN) == Ability("First Aid", GENERAL, 3, 3)
    assert find_ability(ana, "ATHLETICS").name == "Athletics"
    with pytest.raises(ReservedAbility):
        find_ability(ana, "Salud")
    with pytest.raises(UserFacingError) as missing:
        find_ability(ana, "Swimming")
    assert missing.value.key == "abilities.error.missing"


def test_every_refusal_of_the_ability_rules_has_a_message() -> None:
    from bot.i18n import catalog
    from rules import abilities as rules_abilities
    from rules.errors import CharacterDead, CharacterUnconscious, InvalidValue, RuleError

    codes = {
        value.code
        for value in vars(rules_abilities).values()
        if isinstance(value, type) and issubclass(value, RuleError) and value is not RuleError
    }
    codes |= {InvalidValue.code, CharacterDead.code, CharacterUnconscious.code}
    assert {"not_enough_pool", "cannot_fight", "reserved_ability"} <= codes
    for language in Language:
        missing = {code for code in codes if f"error.{code}" not in catalog(language)}
        assert missing == set(), language
        for reason in ("empty", "too_long", "control", "invisible"):
            assert f"abilities.error.name.{reason}" in catalog(language)


@pytest.mark.parametrize("language", list(Language))
def test_the_check_reply_with_sixty_long_abilities_fits_one_message(language: Language) -> None:
    abilities = [
        Ability(f"{'Ü' * 30}{index:010d}", GENERAL if index % 2 else INVESTIGATIVE, 99, 99)
        for index in range(60)
    ]
    tested = abilities[1]
    hurt = character(*abilities)
    roll = make_test(
        hurt.health, tested, difficulty=99, spend=99, attack=True, roller=ScriptedRoller([6])
    )
    embed = check_embed(hurt, roll, tested.name, language)
    assert len(embed) <= 6000
    assert len(embed.fields) <= 25
    assert all(len(field.value or "") <= 1024 for field in embed.fields)
    assert "6 + 99 = 105 vs 99" in (embed.fields[-1].value or "")
