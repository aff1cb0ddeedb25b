"""What an /undo reverts, in words (bot/render/undo.py): every value that changes
back."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.i18n import Language, text
from bot.render.undo import preview_embed, reversal_line, reversal_lines
from bot.storage import HistoryCharacter, HistoryEntry, StoredCharacter
from bot.storage.details import TimeDetails
from rules import Ability, AbilityKind, Hospital
from rules.character import Gender
from rules.stability import CharacterStability
from tests.rules.factories import character


def stored(name: str = "Padre Tomás", owner: int = 7, **health: object) -> StoredCharacter:
    abilities = health.pop("abilities", ())
    gender = health.pop("gender", None)
    return StoredCharacter(
        id=1,
        guild_id=10,
        name=name,
        owner_id=owner,
        health=character(**health),  # type: ignore[arg-type]
        abilities=abilities,  # type: ignore[arg-type]
        gender=gender,  # type: ignore[arg-type]
    )


def theology(pool: int, rating: int = 3, kind: AbilityKind = AbilityKind.INVESTIGATIVE) -> Ability:
    return Ability("Theology", kind, rating, pool)


def test_only_what_changes_back_is_listed_an_unchanged_health_is_not() -> None:
    now = stored(health=8, max_health=8, abilities=(theology(2),))
    back = stored(health=8, max_health=8, abilities=(theology(3),))
    line = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.EN)
    assert line == "**Padre Tomás**: Theology 2/3 → 3/3"
    assert reversal_line(HistoryCharacter(1, "Padre Tomás", back, back), Language.EN) is None


def test_every_kind_of_value_is_said_in_words_in_both_languages() -> None:
    now = stored(
        "Дмитрий Волков",
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
        gender=Gender.FEMININE,
    )
    back = stored("Dmitri Volkov", health=3, first_aid=4, pool=4, abilities=(theology(3),))
    change = HistoryCharacter(1, "Дмитрий Волков", back, now)
    english = reversal_line(change, Language.EN)
    assert english is not None and english.startswith("**Дмитрий Волков**: ")
    for part in (
        "Health -7 → 3 / 10",
        "First Aid 1 → 4 / 4",
        "conscious again",
        "the wounds are no longer stabilized",
        "out of hospital",
        "no First Aid received this scene",
        "the time bleeding starts over",
        "Athletics removed",
        "Theology back (3/3)",
        "named Dmitri Volkov again",
        "player: <@7> again",
        "gender: not given",
    ):
        assert part in english, (part, english)
    spanish = reversal_line(change, Language.ES)
    assert spanish is not None
    for part in (
        "Salud -7 → 3 / 10",
        "Primeros Auxilios 1 → 4 / 4",
        "vuelve a estar consciente",
        "sus heridas dejan de estar estabilizadas",
        "sale del hospital",
        "sin Primeros Auxilios recibidos en la escena",
        "el tiempo desangrándose vuelve a empezar",
        "se quita Athletics",
        "vuelve a tener Teología (3/3)".replace("Teología", "Theology"),
        "vuelve a llamarse Dmitri Volkov",
        "jugador: de nuevo <@7>",
        "género: sin indicar",
    ):
        assert part in spanish, (part, spanish)
    for line in (english, spanish):
        assert "→ 0" not in line and " 0 min" not in line, "nothing is said about zero"
        assert "Дмитрий Волков →" not in line and "<@8> →" not in line, "no stored values"
    wider = reversal_line(
        HistoryCharacter(
            1,
            "Ana",
            stored(health=5, max_health=9, scene_start_health=9),
            stored(health=5, scene_start_health=9),
        ),
        Language.EN,
    )
    assert wider == "**Padre Tomás**: Health 5 / 10 → 5 / 9"


def test_the_scene_counters_go_back_to_what_they_were() -> None:
    now = stored(health=2, first_aid_received=0, bleed_minutes=0, scene_start_health=2)
    back = stored(
        health=2,
        first_aid_received=2,
        bleed_minutes=20,
        scene_start_health=5,
        gender=Gender.MASCULINE,
    )
    english = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.EN)
    assert english == (
        "**Padre Tomás**: First Aid received this scene: 2 again · time bleeding: 20 min again"
        " · Health at the start of the scene: 5 again · gender: he/him again"
    )
    spanish = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.ES)
    assert spanish == (
        "**Padre Tomás**: Primeros Auxilios recibidos en la escena: de nuevo 2"
        " · tiempo desangrándose: de nuevo 20 min · Salud al empezar la escena: de nuevo 5"
        " · género: de nuevo masculino"
    )


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
    assert line is not None and "vuelven a quedarle 6 días en el hospital" in line
    assert reversal_line(HistoryCharacter(1, "Padre Tomás", back, longer), Language.EN) == (
        "**Padre Tomás**: 1 day left in hospital again"
    )


def test_a_creation_and_a_deletion_undone() -> None:
    ana = stored("Ana", health=2, max_health=9)
    assert reversal_line(HistoryCharacter(1, "Ana", None, ana), Language.EN) == text(
        Language.EN, "undo.line.removed", name="Ana"
    )
    assert (
        reversal_line(HistoryCharacter(1, "Ana", ana, None), Language.ES)
        == "**Ana** vuelve a la partida: Salud 2 / 9"
    )
    returns = reversal_line(HistoryCharacter(1, "Ana", ana, None), Language.EN, health=False)
    assert returns == "**Ana** returns to play", "its embed shows its Health"
    assert (
        reversal_line(
            moved := HistoryCharacter(1, "Ana", ana, stored("Ana", health=5, max_health=9)),
            Language.EN,
            health=False,
        )
        is None
    )
    assert reversal_line(moved, Language.EN) == "**Ana**: Health 5 → 2 / 9"


def test_the_preview_embed_says_which_change_and_stays_within_discord() -> None:
    changes = tuple(
        HistoryCharacter(i, "N" * 40, stored("N" * 40, health=1), stored("N" * 40, health=9))
        for i in range(200)
    )
    entry = HistoryEntry(
        id=5,
        guild_id=10,
        number=2,
        interaction_id=1005,
        created_at=datetime(2024, 1, 2, tzinfo=UTC),
        actor_id=42,
        command="time",
        details=TimeDetails(minutes=10),
        undo_of=None,
        undone_by=None,
        characters=changes,
    )
    assert len(reversal_lines(entry, Language.EN)) == 200
    embed = preview_embed(entry, Language.EN, changed=True)
    assert embed.title == "Undo /time (#2)?", "the entry's number in its server"
    assert embed.description is not None and len(embed.description) <= 4096
    assert embed.description.startswith("⚠️ Another change came in meanwhile")
    assert "<@42>" in embed.description


def test_the_scene_stability_counters_go_back_in_words_like_health_s() -> None:
    """An undone /scene new brings back what failed tests took and the worst incident, said as
    the scene's Health counters are ("de nuevo 3", a zero in words), not as ``0 → 3``."""
    mind = CharacterStability(pool=4, rating=7)
    now = replace(stored(health=2), stability=mind)
    back = replace(stored(health=2), stability=replace(mind, scene_lost=3, scene_worst_loss=4))
    spanish = reversal_line(HistoryCharacter(1, "Padre Tomás", back, now), Language.ES)
    assert spanish == (
        "**Padre Tomás**: Estabilidad perdida en pruebas esta escena: de nuevo 3"
        " · pérdida del peor incidente de la escena: de nuevo 4"
    )
    english = reversal_line(HistoryCharacter(1, "Padre Tomás", now, back), Language.EN)
    assert english == (
        "**Padre Tomás**: no Stability lost to tests this scene · no incident this scene"
    )
