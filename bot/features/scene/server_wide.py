"""Work over every character of a server at once (``/time``, ``/scene new``, ``/refresh``):
how many there are, so that a big change is acknowledged before Discord's 3 seconds, and
saving every changed character in one statement (Stability too, for those that have it)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Language, text
from bot.interaction.here import Here
from bot.render.change import Field
from bot.render.change_reply import Touched
from bot.render.stability import stability_sentences
from bot.storage import StoredCharacter, Transaction
from rules.outcome import Outcome
from rules.scene import start_stability_scene

__all__ = ["count_characters", "new_stability_scene", "save_all"]


async def save_all(
    tx: Transaction, changed: Sequence[tuple[StoredCharacter, Outcome]]
) -> list[Touched]:
    """Save every changed character in one statement (one storage round trip for all)."""
    saved = await tx.save_healths([(character, outcome.after) for character, outcome in changed])
    return [
        Touched(character, after, outcome)
        for (character, outcome), after in zip(changed, saved, strict=True)
    ]


async def count_characters(here: Here, *, living_only: bool) -> int:
    """How many characters the server has (the living ones only, when asked)."""
    async with here.read() as reader:
        return await reader.count_characters(here.guild_id, living_only=living_only)


async def new_stability_scene(
    tx: Transaction,
    started: Sequence[tuple[StoredCharacter, Outcome]],
    touched: Sequence[Touched],
    language: Language,
) -> list[Touched]:
    """``/scene new`` for Stability (M6, M10): each character's scene counters back to 0 and
    its lucidity over, saved in one statement; ``touched`` (the Health part) with those
    characters added or brought up to date, lucidity's end said in words. A character
    without Stability costs nothing here."""
    minds = [
        (character, outcome, start_stability_scene(character.stability))
        for character, outcome in started
        if character.stability is not None
    ]
    minds = [item for item in minds if item[2].changed]
    if not minds:
        return list(touched)
    saved = await tx.save_stabilities([(character, mind.after) for character, _, mind in minds])
    result = list(touched)
    where = {item.after.id: index for index, item in enumerate(result) if item.after is not None}
    for (character, outcome, mind), after in zip(minds, saved, strict=True):
        said = "\n".join(stability_sentences(after, mind.events, language))
        extra: tuple[Field, ...] = ((text(language, "render.change.what"), said),) if said else ()
        index = where.get(character.id)
        if index is None:
            result.append(Touched(character, after, outcome, extra))
        else:
            item = result[index]
            result[index] = Touched(item.before, after, item.outcome, (*item.extra_fields, *extra))
    return result
