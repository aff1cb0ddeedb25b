"""Stability in words (RULES.md M; COMMANDS.md "Stability"): its field, its state and marks,
the rolls that touch it, the embed of incurable insanity.

A character without Stability (``stability`` None) has none of this: nothing here is called
for it, and every reply that shows a character shows Stability only when it has some. The
colour of an embed follows Health (``bot.render.common.state_colour``): Stability is said in
words. Each fact is said once: a change of state by the field's ``before → after``, a mental
illness by its sentence (with the rating it cost), insanity by its own embed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.common import FLAG_SEPARATOR, Field, end_embed, state_colour
from bot.render.cut import cut
from bot.render.events import describe_events
from bot.render.limits import (
    DESCRIPTION_LIMIT,
    FIELD_VALUE_LIMIT,
    INSANITY_COLOUR,
    TITLE_LIMIT,
)
from bot.render.rolls import breakdown
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import happened_words, words_embeds
from rules.events import Corrected, Event
from rules.stability import CharacterStability, DueTest, StabilityOutcome, StabilityState
from rules.stability_events import (
    Faltered,
    KeptComposure,
    MadeLucid,
    MentalIllnessAcquired,
    StabilityRefreshed,
    StabilityRestored,
    StabilitySpent,
    StabilityStateChanged,
    StabilityTestDue,
    StabilityTestFailed,
    StabilityTestPassed,
    Strained,
    WentInsane,
)
from rules.stability_roll import stability_test_difficulty

if TYPE_CHECKING:
    from bot.storage.interface import HistoryCharacter
    from bot.storage.models import StoredCharacter as CharacterLike
    from rules.character import CharacterHealth, Gender
    from rules.composure import ComposureTest
    from rules.stability_roll import StabilityTestRoll

__all__ = [
    "SHOWN_STABILITY_EVENTS",
    "composure_field",
    "due_difficulty",
    "insanity_embed",
    "stability_announce",
    "stability_brief",
    "stability_change_embeds",
    "stability_field",
    "stability_flags",
    "stability_move",
    "stability_roll_field",
    "stability_sentences",
    "stability_state_label",
    "stability_status_value",
    "stability_value",
    "went_insane",
]

#: Stability events whose fact a field already shows (the Stability field's before → after
#: and state line, a roll's field, a treatment's line, the insanity embed, the call's list),
#: so that they are not said again in words.
SHOWN_STABILITY_EVENTS: frozenset[type[Event]] = frozenset(
    {
        StabilityStateChanged,
        StabilitySpent,
        StabilityTestPassed,
        StabilityTestFailed,
        StabilityTestDue,
        WentInsane,
        Strained,
        KeptComposure,
        Faltered,
        StabilityRestored,
        MadeLucid,
        StabilityRefreshed,
    }
)

#: A GM's correction of these is said by the Stability field's before → after.
_STABILITY_FIELDS = frozenset({"stability", "max_stability"})


def stability_state_label(
    state: StabilityState, language: Language, gender: Gender | None = None
) -> str:
    """Steady/Sereno, Shaken/Alterado, Incurably insane/Locura incurable: a label, or
    agreeing with ``gender`` when it is known (Serena, Alterada)."""
    return gendered(language, f"render.stability.state.{state.value}", gender)


def stability_flags(
    stability: CharacterStability,
    language: Language,
    gender: Gender | None = None,
    *,
    said: Iterable[Event] = (),
    health: CharacterHealth | None = None,
) -> list[str]:
    """The marks besides the state: a mental illness (also one just acquired: the state line
    is where a reply says it), lucid this scene, a test due (with its potential loss and
    Difficulty: the one the player will roll against when ``health`` is known, wounds and
    being Shaken included). ``said``: events of this reply, whose facts a sentence already
    says (a lucidity just given, a test just called)."""
    told = {type(event) for event in said}
    flags: list[str] = []
    if stability.mental_illness:
        flags.append(text(language, "render.stability.flag.mental_illness"))
    if stability.lucid and MadeLucid not in told:
        flags.append(gendered(language, "render.stability.flag.lucid", gender))
    due = stability.due_test
    if due is not None and StabilityTestDue not in told:
        difficulty = due_difficulty(due, stability, health)
        flags.append(
            text(language, "render.stability.flag.test_due", loss=due.loss, difficulty=difficulty)
        )
    return flags


def due_difficulty(
    due: DueTest, stability: CharacterStability, health: CharacterHealth | None
) -> int:
    """The Difficulty of a due test as said: the one the player will roll against when
    ``health`` is known (wounds and being Shaken included), the one called otherwise."""
    if health is None:
        return due.difficulty
    return stability_test_difficulty(health, stability, due.difficulty).total


def stability_value(before: CharacterStability | None, after: CharacterStability) -> str:
    """``5 → 1 / 8`` (``1 / 8`` when unchanged; ``-5 / 8 → -7 / 7`` when the rating moved)."""
    now = f"{after.pool} / {after.rating}"
    if before is None or before == after:
        return now
    if before.rating != after.rating:
        return f"{before.pool} / {before.rating} → {now}"
    if before.pool != after.pool:
        return f"{before.pool} → {now}"
    return now


def _state_line(
    before: CharacterStability | None,
    after: CharacterStability,
    language: Language,
    gender: Gender | None,
    said: Sequence[Event] = (),
    health: CharacterHealth | None = None,
) -> str:
    """``Sereno → **Alterado** · trastorno mental``: the state (the one before it when it
    changed) and the marks."""
    label = f"**{stability_state_label(after.state, language, gender)}**"
    if before is not None and before.state is not after.state:
        label = f"{stability_state_label(before.state, language, gender)} → {label}"
    flags = stability_flags(after, language, gender, said=said, health=health)
    return FLAG_SEPARATOR.join([label, *flags])


def stability_field(
    character: CharacterLike,
    before: CharacterStability | None,
    after: CharacterStability,
    language: Language,
    said: Sequence[Event] = (),
) -> Field:
    """The ``Estabilidad`` field of a change, on one line where a phone has room: ``5 → 1 /
    8 · **Alterada**``, then the marks (a mental illness just acquired among them: the
    rating it cost is the value's ``/ 8 → / 7``, said once)."""
    value = (
        f"{stability_value(before, after)}{FLAG_SEPARATOR}"
        f"{_state_line(before, after, language, character.gender, said, character.health)}"
    )
    return text(language, "render.stability.name"), value


def stability_status_value(
    stability: CharacterStability,
    language: Language,
    gender: Gender | None = None,
    health: CharacterHealth | None = None,
) -> str:
    """The ``Estabilidad`` field of ``/character show``: ``POOL / RATING``, then the state
    with its marks (a test due at the Difficulty ``health`` and the state make it), then
    what the state means at the table."""
    state = stability.state
    effects = text(language, f"render.stability.effects.{state.value}")
    line = _state_line(None, stability, language, gender, health=health)
    return f"{stability.pool} / {stability.rating}\n{line}\n*{effects}*"


def stability_brief(
    stability: CharacterStability, language: Language, gender: Gender | None = None
) -> str:
    """``Estabilidad 5 / 8 · Alterado``: a character's Stability on a list's line."""
    return text(
        language,
        "render.stability.brief",
        pool=stability.pool,
        rating=stability.rating,
        state=stability_state_label(stability.state, language, gender),
    )


def went_insane(outcome: StabilityOutcome) -> bool:
    """Whether the change made the character incurably insane (M4)."""
    before, after = outcome.before, outcome.after
    return after is not None and after.is_insane and (before is None or not before.is_insane)


def stability_announce(outcomes: Iterable[StabilityOutcome]) -> bool:
    """Whether a reply also goes to the announcement channel: a character's Stability state
    changed, it acquired a mental illness, or it went incurably insane (COMMANDS.md)."""
    for outcome in outcomes:
        before, after = outcome.before, outcome.after
        if before is None or after is None or not outcome.changed:
            continue
        if before.state is not after.state:
            return True
        if any(isinstance(event, MentalIllnessAcquired) for event in outcome.events):
            return True
    return False


def _told(event: Event) -> bool:
    if isinstance(event, Corrected):
        return event.field not in _STABILITY_FIELDS
    return type(event) not in SHOWN_STABILITY_EVENTS


def stability_sentences(
    character: CharacterLike, events: Sequence[Event], language: Language
) -> list[str]:
    """The Stability events no field shows, in words, in order (a mental illness with the
    rating it cost, lucidity ending, a due test cleared, Stability taken away)."""
    told = [event for event in events if _told(event)]
    return describe_events(character.name, told, language, character.gender)


def _penalties(wound: int, shaken: int, language: Language) -> list[str]:
    """``+1 por las heridas``, ``+1 por el estado Alterado``: what raised the Difficulty;
    both at once in one phrase, ``+2 por heridas y alteración``, so that the outcome line
    stays one line of a phone (the breakdown above says each: ``(4 + 1 + 1)``)."""
    if wound and shaken:
        key = "render.stability.roll.wounds_and_shaken"
        return [text(language, key, penalty=wound + shaken)]
    parts = []
    if wound:
        parts.append(text(language, "render.roll.test.wounds", penalty=wound))
    if shaken:
        parts.append(text(language, "render.stability.roll.shaken", penalty=shaken))
    return parts


def stability_roll_field(roll: StabilityTestRoll, language: Language) -> Field:
    """(name, value) of a Stability test's field: ``3 + 1 = 4 vs 6 (4 + 1 + 1)``, then the
    outcome in bold with what raised the Difficulty on the same line, as ``/check`` says it.
    What a failure took is the Stability field's ``before → after``; the scene's cap, when it
    held the loss back, is said with what the scene already took (M6: ``ya ha perdido 4 en
    esta escena, el tope del peor incidente``)."""
    line = (
        f"{roll.die} + {roll.spend} = {roll.total} vs {roll.difficulty}"
        f"{breakdown(roll.base_difficulty, roll.wound_penalty, roll.shaken_penalty)}"
    )
    if roll.success:
        outcome = f"**{text(language, 'render.stability.roll.success')}**"
    else:
        if roll.lost == 0:
            key = "render.stability.roll.failure_capped_out"
        elif roll.capped:
            key = "render.stability.roll.failure_capped"
        else:
            key = "render.stability.roll.failure"
        after = roll.outcome.after
        scene = after.scene_lost if after is not None else roll.lost
        outcome = text(language, key, lost=roll.lost, loss=roll.loss, scene=scene)
    parts = [outcome, *_penalties(roll.wound_penalty, roll.shaken_penalty, language)]
    value = f"{line}\n{FLAG_SEPARATOR.join(parts)}"
    return text(language, "render.stability.roll.name"), value


def composure_field(
    test: ComposureTest,
    before: CharacterStability,
    after: CharacterStability,
    language: Language,
) -> Field:
    """(name, value) of the composure test of a Shaken investigative spend (M8):
    ``2 + 1 = 3 vs 5``, whether the character keeps their nerve or falters (the spend is made
    either way), and Stability before → after when a strain was given."""
    line = f"{test.die} + {test.strain} = {test.total} vs {test.difficulty}"
    key = "render.stability.composure.kept" if test.kept else "render.stability.composure.faltered"
    lines = [line, f"**{text(language, key)}**"]
    if test.strain:
        value = stability_value(before, after)
        lines.append(text(language, "render.stability.composure.strain", value=value))
    return text(language, "render.stability.composure.name"), "\n".join(lines)


def insanity_embed(character: CharacterLike, language: Language) -> discord.Embed:
    """Incurable insanity, said once, in an embed of its own (M4; like a death's): ``Amelia
    Ríos ha perdido la razón para siempre``, in the colour of a mind lost."""
    return end_embed(
        "render.stability.insane", character.name, character.gender, language, INSANITY_COLOUR
    )


def stability_change_embeds(
    character: CharacterLike,
    outcome: StabilityOutcome,
    language: Language,
    *,
    extra_fields: Sequence[Field] = (),
    note: str | None = None,
    viewer: Viewer = EVERYONE,
) -> list[discord.Embed]:
    """The reply to a change of one character's Stability (a roll, a treatment): the title is
    its name, the colour its Health's; the ``Estabilidad`` field first (``5 → 1 / 8 ·`` the
    state line, a mental illness just acquired among its marks), then the command's fields
    with the events no field shows in words under the last one. Incurable insanity replaces
    the embed by its own, which carries the same fields (as a death's does). ``note``: a
    sentence under the title. In words for a viewer who may not see the character's numbers
    (``bot.render.words``)."""
    after = outcome.after
    assert after is not None  # a roll or a treatment needs Stability
    if not shows_numbers(character, viewer):
        happened = happened_words(
            None, character, language, before_stability=outcome.before, due=False
        )
        embeds = words_embeds(character, language, said=happened, note=note)
        if went_insane(outcome):
            embeds.append(insanity_embed(character, language))
        return embeds
    if went_insane(outcome):
        embed = insanity_embed(character, language)
    else:
        embed = discord.Embed(
            title=character.name[:TITLE_LIMIT], colour=state_colour(character.health.state)
        )
    if note:
        said = f"{note}\n{embed.description}" if embed.description else note
        embed.description = cut(said, DESCRIPTION_LIMIT)
    name, value = stability_field(character, outcome.before, after, language, outcome.events)
    embed.add_field(name=name, value=value, inline=False)
    fields = list(extra_fields)
    unsaid = [event for event in outcome.events if not isinstance(event, MentalIllnessAcquired)]
    sentences = "\n".join(stability_sentences(character, unsaid, language))
    if sentences and fields:
        last_name, last_value = fields[-1]
        fields[-1] = (last_name, f"{last_value}\n{sentences}")
    elif sentences:
        fields.append((text(language, "render.change.what"), sentences))
    for field_name, field_value in fields:
        embed.add_field(name=field_name, value=cut(field_value, FIELD_VALUE_LIMIT), inline=False)
    return [embed]


def stability_move(change: HistoryCharacter, language: Language) -> str | None:
    """``5 → 1``, with a mind's big moments in words (a GM reads them as such): ``-3 → -7,
    trastorno mental (máxima 8 → 7)``, ``-7 → -13, pierde la razón para siempre``, a rating
    a correction moved as ``máxima 8 → 6``; None when nothing moved, and for a character
    without Stability either side."""
    before = None if change.before is None else change.before.stability
    after = None if change.after is None else change.after.stability
    if before is None or after is None:
        return None
    parts = [f"{before.pool} → {after.pool}"] if before.pool != after.pool else []
    ratings = {"before": before.rating, "after": after.rating}
    if after.is_insane and not before.is_insane:
        parts.append(text(language, "render.history.insane"))
    elif after.mental_illness and not before.mental_illness and before.rating != after.rating:
        parts.append(text(language, "render.history.mental_illness", **ratings))
    elif before.rating != after.rating:
        parts.append(text(language, "render.history.max_stability", **ratings))
    return ", ".join(parts) if parts else None
