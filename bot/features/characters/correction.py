"""``/character set``: a GM corrects a character's values (RULES.md G2, M13), its gender or
who sees its numbers, in one transaction with its history entry; a correction that makes a
Consciousness roll fall due calls its player, with the buttons."""

from __future__ import annotations

from discord import app_commands

from bot.features.characters.values import gender_choice, gender_of
from bot.features.numbers import numbers_of
from bot.features.reply import ChangeReply, Reply
from bot.features.rolls.consciousness import consciousness_view
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons
from bot.render.change import announce_worthy
from bot.render.character_edits import set_embeds, set_unchanged
from bot.render.stability import stability_announce
from bot.storage.details import CharacterSetDetails
from bot.storage.models import LightCharacter
from bot.storage.roll_messages import number_due_rolls
from rules.correction import correct, correct_stability
from rules.stability import StabilityOutcome

__all__ = ["correct_character"]


async def correct_character(
    here: Here,
    character: LightCharacter,
    *,
    health: int | None,
    max_health: int | None,
    first_aid: int | None,
    max_first_aid: int | None,
    conscious: bool | None,
    gender: app_commands.Choice[str] | None,
    stability: int | None,
    max_stability: int | None,
    mental_illness: bool | None,
    numbers: app_commands.Choice[str] | None,
) -> Reply:
    """The values given set on ``character`` (at least one: none refuses); its reply, or
    one sentence when nothing changed."""
    new_gender = gender_of(gender)
    new_numbers = numbers_of(numbers)
    given: dict[str, int | bool | str | None] = {
        "health": health,
        "max_health": max_health,
        "first_aid": first_aid,
        "max_first_aid": max_first_aid,
        "conscious": conscious,
        "gender": None if gender is None else gender.value,
        "stability": stability,
        "max_stability": max_stability,
        "mental_illness": mental_illness,
        "numbers": None if new_numbers is None else new_numbers.value,
    }
    stability_given = not (stability is None and max_stability is None and mental_illness is None)
    if all(value is None for value in given.values()):
        raise UserFacingError("error.set_nothing")
    async with here.change() as tx:
        current = await tx.character(character)
        outcome = correct(
            current.health,
            health=health,
            max_health=max_health,
            first_aid_pool=first_aid,
            first_aid_rating=max_first_aid,
            conscious=conscious,
        )
        mind: StabilityOutcome | None = None
        if stability_given:  # M13: only when a Stability value is given
            mind = correct_stability(
                current.stability,
                pool=stability,
                rating=max_stability,
                mental_illness=mental_illness,
            )
        mind_changed = mind is not None and mind.changed
        saved = current
        rolls: dict[int, int] = {}
        gender_changed = gender is not None and new_gender != current.gender
        numbers_changed = new_numbers is not None and new_numbers is not current.numbers
        if outcome.changed:
            saved = await tx.save_health(current, outcome.after)
            if outcome.roll_fell_due:
                rolls = await number_due_rolls(tx, here.table_id, [(saved, outcome)])
        if mind is not None and mind_changed:
            saved = await tx.save_stability(saved, mind.after)
        if gender_changed:
            saved = await tx.set_gender(saved, new_gender)
        if new_numbers is not None and numbers_changed:
            saved = await tx.set_numbers(saved, new_numbers)
        changed = outcome.changed or gender_changed or mind_changed or numbers_changed
        if changed:
            details = CharacterSetDetails(
                health=health,
                max_health=max_health,
                first_aid=first_aid,
                max_first_aid=max_first_aid,
                conscious=conscious,
                gender=None if gender is None else gender_choice(new_gender),
                stability=stability,
                max_stability=max_stability,
                mental_illness=mental_illness,
                numbers=None if new_numbers is None else new_numbers.value,
            )
            await here.history(details).record(tx)
    language = here.public_language
    if not changed:
        return set_unchanged(saved.name, language)
    return ChangeReply(
        [saved],
        lambda viewer, language: set_embeds(
            saved,
            outcome,
            mind,
            new_gender=new_gender,
            gender_changed=gender_changed,
            numbers_changed=numbers_changed,
            language=language,
            viewer=viewer,
        ),
        announce=(outcome.changed and announce_worthy(outcome.before, outcome.after))
        or (mind is not None and stability_announce([mind])),
        # G2 may make a Consciousness roll fall due: the reply carries its buttons.
        view=consciousness_view([saved], language, rolls) if outcome.roll_fell_due else None,
        call=call_players([(saved, outcome)], caller=here.user_id, language=language),
        buttons=RollButtons(rolls),
    )
