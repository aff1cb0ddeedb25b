"""A character with private numbers, told to the table in words (COMMANDS.md "Private
numbers"): its state and flags as words (``Gravemente herida · Inconsciente · Tirada de
Consciencia pendiente``), never a pool, a rating, a die or a Difficulty, and what happened
as sentences that agree with its gender (``Amelia Ríos está herida``, ``el profundo cae
inconsciente``, ``Amelia keeps her nerve``).

Only the renderers ask for these, and only when ``bot.render.visibility.shows_numbers`` says
the viewer may not see the numbers (catalog domain ``numbers``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.common import (
    FLAG_SEPARATOR,
    flag_list,
    safe,
    state_colour,
    state_emoji,
    state_label,
)
from bot.render.cut import cut
from bot.render.limits import DESCRIPTION_LIMIT, TITLE_LIMIT
from bot.storage.interface import HistoryEntry
from bot.storage.models import StoredCharacter
from rules.character import CharacterHealth, Gender
from rules.stability import CharacterStability, StabilityState, stability_state_of


class CharacterLike(Protocol):
    """What the words read of a character (``StoredCharacter`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def health(self) -> CharacterHealth: ...

    @property
    def gender(self) -> Gender | None: ...

    @property
    def stability(self) -> CharacterStability | None: ...


__all__ = [
    "CharacterLike",
    "happened_words",
    "mind_words",
    "state_words",
    "undo_of_words",
    "words_embeds",
    "words_entry_text",
    "words_line",
]


def _mind_words(
    stability: CharacterStability | None, language: Language, gender: Gender | None
) -> list[str]:
    """Stability in words: Shaken or lost to insanity, a mental illness, a test due."""
    if stability is None:
        return []
    words: list[str] = []
    state = stability_state_of(stability.pool)
    if state is not StabilityState.STEADY:
        words.append(gendered(language, f"render.stability.state.{state.value}", gender))
    if stability.mental_illness:
        words.append(text(language, "render.stability.flag.mental_illness"))
    if stability.due_test is not None and state is not StabilityState.INCURABLY_INSANE:
        words.append(text(language, "numbers.flag.test_due"))
    return words


def state_words(
    character: CharacterLike, language: Language, *, bold: bool = True, roll: bool = True
) -> str:
    """``**Gravemente herida** · Inconsciente · Alterada``: the state and every flag in words
    (``roll``: the pending Consciousness roll too, unless a closing line names it)."""
    health, gender = character.health, character.gender
    label = state_label(health.state, language, gender)
    return FLAG_SEPARATOR.join(
        [
            f"**{label}**" if bold else label,
            *flag_list(health, language, gender, roll=roll, numbers=False),
            *_mind_words(character.stability, language, gender),
        ]
    )


def mind_words(character: CharacterLike, language: Language) -> str:
    """``Serena`` / ``Alterada · Trastorno mental``: its Stability in words (a call's line:
    the test it is called to is the call itself)."""
    stability, gender = character.stability, character.gender
    if stability is None:
        return state_words(character, language, bold=False)
    state = stability_state_of(stability.pool)
    words = [gendered(language, f"render.stability.state.{state.value}", gender)]
    if stability.mental_illness:
        words.append(text(language, "render.stability.flag.mental_illness"))
    return FLAG_SEPARATOR.join(words)


def words_line(character: CharacterLike, language: Language) -> str:
    """``🟠 **Profundo** · Gravemente herido · Inconsciente``: one line of a list."""
    return (
        f"{state_emoji(character.health.state)} **{safe(character.name)}**{FLAG_SEPARATOR}"
        f"{state_words(character, language, bold=False)}"
    )


def _say(key: str, character: StoredCharacter, language: Language) -> str:
    return gendered(language, f"numbers.said.{key}", character.gender, name=safe(character.name))


def _moved(was: int, now: int, lost: str, gained: str) -> str | None:
    """Which way a pool moved, as the key of its sentence (None: it did not)."""
    if now == was:
        return None
    return lost if now < was else gained


def _health_words(
    before: CharacterHealth, character: StoredCharacter, language: Language, *, due: bool
) -> list[str]:
    after = character.health
    said: list[str] = []
    if after.state is not before.state:
        said.append(_say(f"state.{after.state.value}", character, language))
        if after.is_dead:
            return said  # its death says it all: no roll, no consciousness, no hospital
    elif moved := _moved(before.health, after.health, "hurt", "healed"):
        said.append(_say(moved, character, language))
    if before.conscious and not after.conscious:
        said.append(_say("unconscious", character, language))
    elif not before.conscious and after.conscious and not after.is_dead:
        said.append(_say("woke", character, language))
    elif after.roll_pending and not before.roll_pending and after.conscious:
        if due:
            said.append(_say("roll_due", character, language))
    elif before.roll_pending and not after.roll_pending and after.conscious:
        said.append(_say("stayed_conscious", character, language))
    if after.stabilized and not before.stabilized:
        said.append(_say("stabilized", character, language))
    if after.hospital is not None and before.hospital is None:
        said.append(_say("hospital", character, language))
    elif after.hospital is None and before.hospital is not None:
        said.append(_say("discharged", character, language))
    return said


def _mind_said(
    before: CharacterStability | None, character: StoredCharacter, language: Language, *, due: bool
) -> list[str]:
    after = character.stability
    if before is None or after is None:
        return []
    said: list[str] = []
    was, now = stability_state_of(before.pool), stability_state_of(after.pool)
    if now is not was and now is not StabilityState.INCURABLY_INSANE:
        said.append(_say(f"mind.{now.value}", character, language))
    elif moved := _moved(before.pool, after.pool, "mind_lost", "mind_restored"):
        said.append(_say(moved, character, language))
    if after.mental_illness and not before.mental_illness:
        said.append(_say("mental_illness", character, language))
    if due and after.due_test is not None and before.due_test is None:
        said.append(_say("test_due", character, language))
    return said


def happened_words(
    before: StoredCharacter | None,
    character: StoredCharacter,
    language: Language,
    *,
    before_health: CharacterHealth | None = None,
    before_stability: CharacterStability | None = None,
    due: bool = True,
) -> list[str]:
    """What happened to the character, a sentence each, said from its state before and
    after (never from the events, whose sentences carry numbers). ``due=False`` leaves out
    a roll or test falling due: a state line that names it says it (``words_embeds``)."""
    health = before_health or (None if before is None else before.health)
    mind = before_stability or (None if before is None else before.stability)
    said = [] if health is None else _health_words(health, character, language, due=due)
    said += _mind_said(mind, character, language, due=due)
    return said


def words_embeds(
    character: StoredCharacter,
    language: Language,
    *,
    said: Sequence[str] = (),
    note: str | None = None,
) -> list[discord.Embed]:
    """The public embed of a change of a character with private numbers: its name, its
    state and flags in words, what happened in words (``said``: ``happened_words(…,
    due=False)``, since the state line names a roll due). A death's or insanity's own embed,
    which carry no number, are the caller's: ``death_embed``, ``insanity_embed``."""
    lines = [line for line in (note, state_words(character, language), *said) if line]
    embed = discord.Embed(
        title=character.name[:TITLE_LIMIT],
        description="\n".join(lines)[:DESCRIPTION_LIMIT],
        colour=state_colour(character.health.state),
    )
    return [embed]


def undo_of_words(entry: HistoryEntry, language: Language) -> str:
    """``Deshace #12``: the entry an undo reverted, by its number in the server ("?" when
    the entry no longer says it)."""
    number = "?" if entry.undo_of_number is None else entry.undo_of_number
    return text(language, "render.history.undo_of", entry=number)


def words_entry_text(entry: HistoryEntry, language: Language, room: int) -> str:
    """A history entry that touches a private character, in words: the command, then what
    happened to each character touched (``/hurt: El profundo sufre una herida grave. …``),
    never a value, a die, a damage or an amount (COMMANDS.md "Private numbers")."""
    said: list[str] = []
    for change in entry.characters:
        name = safe(change.name)
        if change.after is None:
            said.append(text(language, "numbers.history.gone", name=name))
        elif change.before is None:
            said.append(text(language, "numbers.history.created", name=name))
        else:
            moved = happened_words(change.before, change.after, language)
            said += moved or [text(language, "numbers.history.unchanged", name=name)]
    command = f"/{entry.command}"
    if entry.is_undo:
        command = undo_of_words(entry, language)
    words = f"{command}: {' '.join(said)}" if said else command
    return cut(words, max(room, 2))  # at least one character before the ellipsis
