"""What a Consciousness button calls its character when one message carries several
characters' buttons (COMMANDS.md "The Consciousness button": ``Amelia: Roll``)."""

from __future__ import annotations

from bot.render.roll_buttons import short_names
from bot.storage.models import StoredCharacter
from rules.character import CharacterHealth


def named(*names: str) -> list[StoredCharacter]:
    health = CharacterHealth.new(8, 0)
    return [
        StoredCharacter(id=index, guild_id=1, name=name, owner_id=1, health=health)
        for index, name in enumerate(names)
    ]


def test_the_first_word_when_it_is_nobody_elses_and_no_abbreviation() -> None:
    found = short_names(named("Amelia Ríos", "Sgt. O'Malley", "Jack Malone", "Jack Smith", "Al"))
    assert found == {0: "Amelia", 1: "Sgt. O'Malley", 2: "Jack Malone", 3: "Jack Smith", 4: "Al"}


def test_a_title_is_not_a_name() -> None:
    """``Padre: Tirar`` would not say who rolls: a character whose name starts with a title,
    in either language, is called by the whole name."""
    found = short_names(named("Padre Tomás", "Hermana Clara", "Father Brown", "Olga Petrova"))
    assert found == {0: "Padre Tomás", 1: "Hermana Clara", 2: "Father Brown", 3: "Olga"}
