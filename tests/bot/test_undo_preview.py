"""What an /undo reverts, in words (bot/features/history/undo_preview.py): every value that changes
back."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.features.history.undo_preview import preview_embed, reversal_line, reversal_lines
from bot.i18n import Language, text
from bot.storage import HistoryCharacter, HistoryEntry, StoredCharacter
from rules import Ability, AbilityKind, Hospital
from tests.rules.factories import character


def stored(name: str = "Padre Tomás", owner: int = 7, **health: object) -> StoredCharacter:
    abilities = health.pop("abilities", ())
    return StoredCharacter(
        id=1,
        guild_id=10,
        name=name,
        owner_id=owner,
        health=character(**health),  # type: ignore[arg-type]
        abilities=abilities,  # type: ignore[arg-type]
    )


def theology(pool: int, rating: int = 3, kind: AbilityKind = AbilityKind.INVESTIGATIVE) -> Ability:
    return Ability("Theology", kind, rating, pool)


def test_an_ability_pool_is_named_beside_an_unchanged_health() -> None:
    now = stored(health=8, max_health=8, abilities=(theology(2),))
    back = stored(health=8, max_health=8, abilities=(theology(3),))
    line = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.EN)
    assert line == "**Padre Tomás**: Health 8 / 8 → 8 / 8 · Theology 2/3 → 3/3"


def test_every_kind_of_value_is_listed_in_both_languages() -> None:
    now = stored(
        "Bruna",
        owner=8,
        health=-7,
        first_aid=4,
        pool=1,
        conscious=False,
        stabilized=True,
        hospital=Hospital(5, 1),
        first_aid_received=2,
        bleed_minutes=20,
        abilities=(Ability("Athletics", AbilityKind.GENERAL, 2, 2),),
    )
    back = stored(health=3, first_aid=4, pool=4, abilities=(theology(3),))
    change = HistoryCharacter(1, "Bruna", back, now)
    english = reversal_line(change, Language.EN)
    for part in (
        "**Padre Tomás**: Health -7 / 10 → 3 / 10",
        "First Aid 1 / 4 → 4 / 4",
        "conscious again",
        "the wounds are no longer stabilized",
        "out of hospital",
        "First Aid received this scene 2 → 0",
        "time bleeding 20 min → 0 min",
        "Athletics removed",
        "Theology back, 3/3",
        "name Bruna → Padre Tomás",
        "player <@8> → <@7>",
    ):
        assert part in english, (part, english)
    spanish = reversal_line(change, Language.ES)
    assert "Salud -7 / 10 → 3 / 10" in spanish and "vuelve a estar consciente" in spanish
    assert "sus heridas dejan de estar estabilizadas" in spanish
    assert "sale del hospital" in spanish and "jugador <@8> → <@7>" in spanish


def test_flags_and_the_hospital_are_said_in_words_with_their_plurals() -> None:
    """COMMANDS.md: no stored values (``yes → no``); flags in words."""
    now = stored(health=-7, roll_pending=False)
    back = stored(health=-7, roll_pending=True, hospital=Hospital(2, 1))
    line = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.EN)
    assert "the Consciousness roll is due again" in line
    assert "back in hospital, 1 day left" in line
    spanish = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.ES)
    assert "vuelve a tener pendiente la Tirada de Consciencia" in spanish
    assert "vuelve al hospital, donde le queda 1 día" in spanish
    longer = stored(health=-7, roll_pending=True, hospital=Hospital(8, 2))
    line = reversal_line(HistoryCharacter(1, "Padre Tomás", longer, back), Language.ES)
    assert "días que le quedan en el hospital 1 → 6" in line


def test_a_creation_and_a_deletion_undone() -> None:
    ana = stored("Ana", health=2, max_health=9)
    assert reversal_line(HistoryCharacter(1, "Ana", None, ana), Language.EN) == text(
        Language.EN, "undo.line.removed", name="Ana"
    )
    assert (
        reversal_line(HistoryCharacter(1, "Ana", ana, None), Language.ES)
        == "**Ana** vuelve a la partida: Salud 2 / 9"
    )


def test_the_preview_embed_says_which_change_and_stays_within_discord() -> None:
    changes = tuple(
        HistoryCharacter(i, "N" * 40, stored("N" * 40, health=1), stored("N" * 40, health=9))
        for i in range(200)
    )
    entry = HistoryEntry(
        id=5,
        guild_id=10,
        interaction_id=1005,
        created_at=datetime(2024, 1, 2, tzinfo=UTC),
        actor_id=42,
        command="time",
        details={},
        undo_of=None,
        undone_by=None,
        characters=changes,
    )
    assert len(reversal_lines(entry, Language.EN)) == 200
    embed = preview_embed(entry, Language.EN, changed=True)
    assert embed.title == "Undo /time (#5)?"
    assert embed.description is not None and len(embed.description) <= 4096
    assert embed.description.startswith("⚠️ Another change came in meanwhile")
    assert "<@42>" in embed.description
