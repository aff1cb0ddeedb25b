"""The call of a Stability test (COMMANDS.md "Stability"): its public reply, a line for each
character called, and each line once that character rolled (edited into the call with its
disabled buttons). A character whose numbers are private is called and marked in words
(``bot.render.visibility``)."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, text
from bot.render.common import FLAG_SEPARATOR, safe, state_colour
from bot.render.cut import cut
from bot.render.limits import DESCRIPTION_LIMIT
from bot.render.rolls import breakdown
from bot.render.stability import stability_brief
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import mind_words
from bot.storage.models import StoredCharacter as CharacterLike
from rules.stability import StabilityOutcome
from rules.stability_events import StabilityTestReplaced
from rules.stability_roll import StabilityTestRoll, stability_test_difficulty
from rules.state import HealthState

__all__ = [
    "mark_rolled",
    "replace_call_line",
    "rolled_line",
    "said_rolled",
    "stability_call_embed",
]


def _called_line(
    character: CharacterLike,
    outcome: StabilityOutcome,
    difficulty: int,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> str:
    """``**Amelia Ríos** · Estabilidad 8 / 8 · Serena``: one character called, with the
    Difficulty it would roll against now when wounds or being Shaken raise it (judged again
    when it rolls, M5), and the test this call replaced (at the Difficulty it would have
    rolled it against)."""
    after = outcome.after
    assert after is not None  # a character called has Stability
    if not shows_numbers(character, viewer):  # its Stability in words, as shown ones' state
        return f"**{safe(character.name)}**{FLAG_SEPARATOR}{mind_words(character, language)}"
    parts = [f"**{safe(character.name)}**", stability_brief(after, language, character.gender)]
    raised = stability_test_difficulty(character.health, after, difficulty)
    if raised.total != difficulty:
        parts.append(
            text(
                language,
                "render.stability.call.raised",
                difficulty=raised.total,
                breakdown=breakdown(difficulty, raised.wound, raised.shaken).strip(),
            )
        )
    replaced = [event for event in outcome.events if isinstance(event, StabilityTestReplaced)]
    for event in replaced:
        was = stability_test_difficulty(character.health, after, event.difficulty)
        parts.append(
            text(
                language,
                "render.stability.call.replaced",
                loss=event.loss,
                difficulty=was.total,
            )
        )
    return FLAG_SEPARATOR.join(parts)


def stability_call_embed(
    called: Sequence[tuple[CharacterLike, StabilityOutcome]],
    loss: int,
    difficulty: int,
    reason: str | None,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> discord.Embed:
    """The reply of ``/stability test`` (COMMANDS.md "Stability"): the incident (its potential
    loss, the Difficulty, the GM's reason) said once in the title's line, then who must roll,
    a line each, then how the buttons roll. The colour is the worst Health among them. A
    call of a character whose numbers ``viewer`` may not see says no loss or Difficulty."""
    hidden = any(not shows_numbers(character, viewer) for character, _ in called)
    incident = (
        text(language, "numbers.stability.incident")
        if hidden
        else text(language, "render.stability.call.incident", loss=loss, difficulty=difficulty)
    )
    if reason:
        incident = f"{incident}{FLAG_SEPARATOR}{safe(reason)}"
    lines = [incident]
    lines += [
        _called_line(character, outcome, difficulty, language, viewer)
        for character, outcome in called
    ]
    # For one character, "each player" would make no sense: only what the +1 to +3 do.
    lines.append(
        text(
            language,
            "render.stability.call.how_one" if len(called) == 1 else "render.stability.call.how",
        )
    )
    states = [character.health.state for character, _ in called]
    worst = max(states, key=lambda state: list(HealthState).index(state))
    return discord.Embed(
        title=text(language, "render.stability.call.title"),
        description=cut("\n".join(lines), DESCRIPTION_LIMIT),
        colour=state_colour(worst),
    )


def rolled_line(
    name: str, roll: StabilityTestRoll, language: Language, *, shown: bool = True
) -> str:
    """A call's line for a character once it rolled (COMMANDS.md "Stability"): ``**Amelia
    Ríos** · ✓ 2 + 0 = 2 vs 4: fallo, 8 → 4`` (the pool left out when it did not move);
    ``shown`` False (its numbers are private): ``**Amelia Ríos** · ✓ fallo``."""
    before, after = roll.outcome.before, roll.outcome.after
    assert before is not None and after is not None  # a test rolled needs Stability
    if not shown:
        key = "passed" if roll.success else "failed"
        return f"**{safe(name)}**{FLAG_SEPARATOR}{text(language, f'numbers.stability.{key}')}"
    said = f"{roll.die} + {roll.spend} = {roll.total} vs {roll.difficulty}"
    key = "passed" if roll.success else "failed"
    rolled = text(language, f"render.stability.call.rolled.{key}", roll=said)
    if before.pool != after.pool:
        rolled = f"{rolled}, {before.pool} → {after.pool}"
    return f"**{safe(name)}**{FLAG_SEPARATOR}{rolled}"


def mark_rolled(
    description: str,
    name: str,
    roll: StabilityTestRoll,
    language: Language,
    *,
    shown: bool = True,
) -> str:
    """A call's description with ``name``'s line saying that it rolled, and how; the others
    as they were (who still must roll). Unchanged when no line is that character's (renamed
    since the call)."""
    return replace_call_line(description, name, rolled_line(name, roll, language, shown=shown))


def said_rolled(
    embeds: Sequence[discord.Embed],
    character: CharacterLike,
    roll: StabilityTestRoll,
    language: Language,
) -> list[discord.Embed] | None:
    """A pressed call's ``embeds`` with the line of the character who rolled saying so (``✓ 2
    + 0 = 2 vs 4: fallo, 8 → 4``), to be edited in with its disabled buttons; None to leave
    them (no embeds, or no call's line of that name: an undo's reply, a character renamed
    since)."""
    if not embeds:
        return None
    edited = [discord.Embed.from_dict(embed.to_dict()) for embed in embeds]
    description = edited[0].description or ""
    shown = shows_numbers(character, EVERYONE)  # the call is public
    marked = mark_rolled(description, character.name, roll, language, shown=shown)
    if marked == description:
        return None
    edited[0].description = marked
    return edited


def replace_call_line(description: str, name: str, line: str) -> str:
    """A call's description with the line of the character ``name`` (any line but the
    incident's, the first) replaced by ``line``; unchanged when none is that character's."""
    start = f"**{safe(name)}**{FLAG_SEPARATOR}"
    lines = description.split("\n")
    for index, old in enumerate(lines):
        if index and old.startswith(start):
            lines[index] = line
            return cut("\n".join(lines), DESCRIPTION_LIMIT)
    return description
