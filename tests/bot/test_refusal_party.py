"""A refusal names the character it is about (COMMANDS.md "Refusals name who they are
about"): the rules declare the party a refusal concerns (``RuleError.party``), the error path
asks the interaction which character plays it; no table of codes in between."""

from __future__ import annotations

from bot.i18n import Language
from bot.interaction.subjects import PARTY_OPTIONS
from bot.interaction.tree import error_message
from bot.storage import LightCharacter
from rules.errors import CharacterDead, MedicRefusal, Party, RuleError
from rules.first_aid import (
    MedicDead,
    MedicUnconscious,
    NotEnoughFirstAid,
    NothingToHeal,
    StabilizeNeedsTwo,
)

MEDIC = LightCharacter(id=1, guild_id=10, name="Padre Tomás", owner_id=7, gender=None)
PATIENT = LightCharacter(id=2, guild_id=10, name="Amelia Ríos", owner_id=8, gender=None)


def played_by(party: Party) -> LightCharacter:
    return MEDIC if party is Party.MEDIC else PATIENT


def test_the_medic_refusals_declare_the_medic_and_the_others_the_subject() -> None:
    for refusal in (MedicDead, MedicUnconscious, NotEnoughFirstAid):
        assert issubclass(refusal, MedicRefusal) and refusal.party is Party.MEDIC
    for refusal in (NothingToHeal, StabilizeNeedsTwo, CharacterDead):
        assert refusal.party is Party.SUBJECT
    assert RuleError.party is Party.SUBJECT


def test_each_party_is_looked_up_in_the_options_that_name_it() -> None:
    assert set(PARTY_OPTIONS) == set(Party)
    assert PARTY_OPTIONS[Party.MEDIC] == ("medic",)
    assert PARTY_OPTIONS[Party.SUBJECT][0] == "character"


def test_a_first_aid_refusal_names_the_medic_or_the_patient_by_its_party() -> None:
    unconscious = error_message(Language.EN, MedicUnconscious(), played_by)
    assert unconscious is not None and unconscious.startswith("**Padre Tomás** is unconscious")
    dead = error_message(Language.ES, CharacterDead(), played_by)
    assert dead is not None and dead.startswith("**Amelia Ríos** ha muerto")
