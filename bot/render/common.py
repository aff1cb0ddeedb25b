"""Words and small pieces shared by every reply: state names, flags, effects, counts.

The rules say *what* a character is (``HealthState``, flags on ``CharacterHealth``); these
helpers say it in the vocabulary of RULES.md, in Spanish or English, so that a status embed,
a ``/character list`` line and ``/scene status`` use the very same words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.limits import STATE_COLOURS, TITLE_LIMIT
from bot.render.sanitize import escape
from rules.state import HealthState

if TYPE_CHECKING:
    from bot.storage.models import StoredCharacter
    from rules.character import CharacterHealth, Gender

__all__ = [
    "FLAG_SEPARATOR",
    "Field",
    "count_text",
    "duration_text",
    "effects_text",
    "end_embed",
    "flag_list",
    "flags_text",
    "join_words",
    "line_params",
    "mention",
    "safe",
    "state_colour",
    "state_emoji",
    "state_label",
]

_EMOJI: dict[HealthState, str] = {
    HealthState.HEALTHY: "🟢",
    HealthState.HURT: "🟡",
    HealthState.SERIOUSLY_WOUNDED: "🟠",
    HealthState.DEAD: "💀",
}

#: Between flags on one line.
FLAG_SEPARATOR = " · "

#: A field of what happened, ``(name, value)``: shown full width under the Health field of
#: a change's embed (``bot.render.change``) or its Stability's (``bot.render.stability``).
Field = tuple[str, str]


#: A user-typed name for embed text (``bot.render.sanitize.escape``).
safe = escape


def mention(user_id: int) -> str:
    """``<@id>``: shown as the member's name; it pings nobody inside an embed (nor in a
    message sent with mentions disabled)."""
    return f"<@{user_id}>"


def state_colour(state: HealthState) -> discord.Colour:
    """The embed colour of ``state``."""
    return discord.Colour(STATE_COLOURS[state])


def end_embed(
    key: str,
    name: str,
    gender: Gender | None,
    language: Language,
    colour: discord.Colour,
    **params: object,
) -> discord.Embed:
    """The embed of a character's end, death or incurable insanity, said once: its title
    ``<key>.title`` and description ``<key>.description`` (agreeing with ``gender``) name the
    character, in ``colour``."""
    return discord.Embed(
        title=text(language, f"{key}.title", name=name)[:TITLE_LIMIT],
        description=gendered(language, f"{key}.description", gender, name=safe(name), **params),
        colour=colour,
    )


def state_label(state: HealthState, language: Language, gender: Gender | None = None) -> str:
    """The state in RULES.md's words: Healthy/Ileso, Hurt/Dañado, Seriously wounded/Gravemente
    herido, Dead/Muerto; a label, or agreeing with ``gender`` when it is known (Dañada)."""
    return gendered(language, f"render.state.{state.value}", gender)


def state_emoji(state: HealthState) -> str:
    """A coloured marker for list lines (🟢 🟡 🟠 💀), matching the embed colours."""
    return _EMOJI[state]


def count_text(language: Language, unit: str, count: int) -> str:
    """``count`` with its unit in singular or plural ("1 day", "3 días"); ``unit`` is
    ``"day"`` or ``"point"``."""
    form = "one" if count == 1 else "other"
    return text(language, f"render.unit.{unit}.{form}", count=count)


#: Spanish says "e" for "and" before a word that starts with the sound /i/ (i-, hi-, but
#: not hie- or hia-): "Pablo e Inés".
_SPANISH_I = re.compile(r"^(?:i|í|hi|hí)(?![aeiouáéíóú])", re.IGNORECASE)


def join_words(language: Language, items: Sequence[str]) -> str:
    """``A, B y C`` / ``A, B and C``: a list as a sentence says it (``e`` before an /i/)."""
    if len(items) < 2:
        return "".join(items)
    last = items[-1]
    key = "render.list.and"
    if language is Language.ES and _SPANISH_I.match(last.lstrip("*_\\")):
        key = "render.list.and_i"
    return ", ".join(items[:-1]) + text(language, key) + last


def duration_text(language: Language, minutes: int) -> str:
    """Game time as a table says it: ``45 min``, ``2 h``, ``1 h 30 min``."""
    hours, rest = divmod(max(0, minutes), 60)
    if not hours:
        return text(language, "render.duration.minutes", minutes=rest)
    if not rest:
        return text(language, "render.duration.hours", hours=hours)
    return text(language, "render.duration.hours_minutes", hours=hours, minutes=rest)


def flag_list(
    health: CharacterHealth,
    language: Language,
    gender: Gender | None = None,
    *,
    roll: bool = True,
    brief: bool = False,
    numbers: bool = True,
) -> list[str]:
    """The flags a character carries besides its state, in the order a GM needs them.

    Unconscious; Consciousness roll pending (Difficulty = |Health|, C2); Stabilized; In
    hospital with the days left (R4); bleeding (Seriously wounded, neither stabilized nor in
    hospital: T1); full recovery on the next day of rest (R5). A dead character has none.
    ``roll=False`` leaves out the pending roll (a reply that says it on a line of its own);
    ``brief`` says bleeding without its rate (a line among others); ``numbers=False`` says
    them for a character whose numbers are private: the roll without its Difficulty, the
    hospital without the days left, bleeding briefly, no full recovery due.
    """
    if health.state is HealthState.DEAD:
        return []
    flags: list[str] = []
    if not health.conscious:
        flags.append(text(language, "render.flag.unconscious"))
    elif health.roll_pending and roll:
        if numbers:
            difficulty = health.consciousness_difficulty
            flags.append(text(language, "render.flag.roll_pending", difficulty=difficulty))
        else:
            flags.append(text(language, "numbers.flag.roll_pending"))
    if health.stabilized:
        flags.append(gendered(language, "render.flag.stabilized", gender))
    if health.hospital is not None:
        if numbers:
            days_left = max(0, health.hospital.days_left)
            form = "one" if days_left == 1 else "other"
            flags.append(text(language, f"render.flag.hospital.{form}", days=days_left))
        else:
            flags.append(text(language, "numbers.flag.hospital"))
    elif health.is_bleeding:
        brief = brief or not numbers
        flags.append(
            text(language, "render.flag.bleeding.brief" if brief else "render.flag.bleeding")
        )
    if health.full_recovery_due and numbers:
        flags.append(text(language, "render.flag.full_recovery_due"))
    return flags


def flags_text(health: CharacterHealth, language: Language, gender: Gender | None = None) -> str:
    """The flags joined on one line (``"Unconscious · Stabilized"``), or ``""`` when none."""
    return FLAG_SEPARATOR.join(flag_list(health, language, gender))


def effects_text(state: HealthState, language: Language) -> str:
    """What the state means at the table, in one line (H3, H4, H5)."""
    return text(language, f"render.effects.{state.value}")


def line_params(character: StoredCharacter, language: Language) -> dict[str, object]:
    """What a one-line view of a character (``/character list``, ``/scene status``) fills
    in: ``emoji``, ``name`` (escaped), ``health``, ``max_health`` and ``state``."""
    health = character.health
    return {
        "emoji": state_emoji(health.state),
        "name": safe(character.name),
        "health": health.health,
        "max_health": health.max_health,
        "state": state_label(health.state, language, character.gender),
    }
