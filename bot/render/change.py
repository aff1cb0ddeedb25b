"""The public reply to a change: one compact embed per character touched, made for a phone.

Every health command (``/hurt``, ``/conscious``, ``/firstaid``, ``/rest``, ``/time`` …) answers
the same way (COMMANDS.md "Changes"), so players learn one shape:

- the title is the character's name, the colour its state;
- the ``Health`` / ``Salud`` field comes first: ``before → CURRENT / MAX`` on its first line,
  the state with its flags on the second (``Hurt → **Seriously wounded** · Bleeding``), full
  width;
- then what happened, with its arithmetic: the fields the command gives (the damage, the
  roll, the First Aid), and the events in words that no field already shows.

The ability list, the scene counters and the effects of the state are for ``/character
show``. Each fact is said once: a change of state is the ``before → after`` of the state
line; a death replaces the embed by the death embed ("… has died"), which carries the
Health and what happened. ``should_announce`` says whether the reply also goes to the
announcement channel (``bot.interaction.sending.send_change``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.common import (
    FLAG_SEPARATOR,
    Field,
    end_embed,
    flag_list,
    safe,
    state_colour,
    state_label,
)
from bot.render.cut import cut
from bot.render.events import describe_events
from bot.render.limits import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    TITLE_LIMIT,
)
from bot.render.stability import (
    insanity_embed,
    stability_field,
    stability_sentences,
    went_insane,
)
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.render.words import happened_words, words_embeds
from bot.storage.models import StoredCharacter
from rules.character import CharacterHealth
from rules.events import (
    Corrected,
    Damaged,
    Died,
    Event,
    FellUnconscious,
    FirstAidSpent,
    HealthRestored,
    HealthSpent,
    PoolRefreshed,
    RollDue,
    StateChanged,
    StayedConscious,
)
from rules.outcome import Outcome
from rules.stability import StabilityOutcome
from rules.state import HealthState

__all__ = [
    "SHOWN_BY_FIELDS",
    "change_embeds",
    "correction_note",
    "death_embed",
    "died",
    "health_value",
    "should_announce",
    "state_value",
]

#: Events whose fact the embed already shows, so that it is not said twice: the Health
#: before → after (damage, Health spent, First Aid's points), the state line (a new state, a
#: roll falling due), the roll's field (stayed conscious, fell unconscious), the death embed,
#: the pools /refresh shows.
SHOWN_BY_FIELDS: frozenset[type[Event]] = frozenset(
    {
        Damaged,
        StateChanged,
        RollDue,
        Died,
        HealthSpent,
        StayedConscious,
        FellUnconscious,
        FirstAidSpent,
        HealthRestored,
        PoolRefreshed,
    }
)


def death_embed(character: StoredCharacter, language: Language) -> discord.Embed:
    """The death announcement: "<name> has died" / "<name> ha muerto", in the Dead colour."""
    health = character.health
    return end_embed(
        "render.death",
        character.name,
        character.gender,
        language,
        state_colour(HealthState.DEAD),
        health=health.health,
        max_health=health.max_health,
    )


def died(outcome: Outcome) -> bool:
    """Whether the change killed the character (it was alive before and is dead after)."""
    return outcome.after.state is HealthState.DEAD and outcome.before.state is not HealthState.DEAD


def should_announce(outcomes: Iterable[Outcome]) -> bool:
    """Whether a reply also goes to the announcement channel: some character touched changed
    state, was knocked out, or died (COMMANDS.md ``/config channel``)."""
    return any(
        outcome.changed and announce_worthy(outcome.before, outcome.after) for outcome in outcomes
    )


def health_value(before: CharacterHealth, after: CharacterHealth) -> str:
    """``9 → 4 / 9`` (``4 / 9`` when unchanged; ``5 / 9 → 5 / 10`` when the maximum moved)."""
    now = f"{after.health} / {after.max_health}"
    if before.max_health != after.max_health:
        return f"{before.health} / {before.max_health} → {now}"
    if before.health != after.health:
        return f"{before.health} → {now}"
    return now


def state_value(character: StoredCharacter, before: CharacterHealth, language: Language) -> str:
    """``Healthy → **Hurt** · Consciousness roll pending (Difficulty 2)``: the state (the one
    before it when it changed) and the flags, as labels unless the gender is known."""
    health, gender = character.health, character.gender
    label = f"**{state_label(health.state, language, gender)}**"
    if before.state is not health.state:
        label = f"{state_label(before.state, language, gender)} → {label}"
    return FLAG_SEPARATOR.join([label, *flag_list(health, language, gender)])


#: A GM's correction of these is said by the Health field's before → after.
_HEALTH_FIELDS = frozenset({"health", "max_health"})


def _told(event: Event) -> bool:
    """Whether the event is said in words (no field of the embed shows it already)."""
    if isinstance(event, Corrected):
        return event.field not in _HEALTH_FIELDS
    return type(event) not in SHOWN_BY_FIELDS


def _sentences(character: StoredCharacter, events: Sequence[Event], language: Language) -> str:
    """The events no field shows, in words, one a line."""
    told = [event for event in events if _told(event)]
    return "\n".join(describe_events(character.name, told, language, character.gender))


def _what_happened(
    character: StoredCharacter,
    outcome: Outcome,
    language: Language,
    extra_fields: Sequence[Field],
    told: str | None = None,
    stability: StabilityOutcome | None = None,
) -> list[Field]:
    """The command's fields, with the events in words under the last one (or in a field of
    their own when the command gave none); Stability's after Health's."""
    fields = [(name, value) for name, value in extra_fields]
    sentences = told if told is not None else _sentences(character, outcome.events, language)
    if stability is not None:
        said = "\n".join(stability_sentences(character, stability.events, language))
        sentences = "\n".join(part for part in (sentences, said) if part)
    if sentences and fields:
        name, value = fields[-1]
        fields[-1] = (name, f"{value}\n{sentences}")
    elif sentences:
        fields.append((text(language, "render.change.what"), sentences))
    return fields


def correction_note(character: StoredCharacter, outcome: Outcome, language: Language) -> str:
    """What kind of change a GM's correction is, said above its values (COMMANDS.md "A GM's
    correction"): ``Corrección del DJ``, or a revival's ``… vuelve a la partida``."""
    revived = outcome.before.state is HealthState.DEAD and not character.health.is_dead
    if revived:
        return gendered(
            language, "render.correction.revival", character.gender, name=safe(character.name)
        )
    return text(language, "render.correction.title")


def change_embeds(
    character: StoredCharacter,
    outcome: Outcome,
    language: Language,
    *,
    extra_fields: Sequence[Field] = (),
    budget: int = EMBED_TOTAL_LIMIT,
    note: str | None = None,
    told: str | None = None,
    stability: StabilityOutcome | None = None,
    viewer: Viewer = EVERYONE,
    words: Sequence[str] = (),
) -> list[discord.Embed]:
    """The embed that shows one character's change (``character`` as saved, ``outcome`` the
    rules' result): see the module's docstring. ``extra_fields`` are what the command did
    (a damage roll, a Consciousness roll), with their arithmetic. ``note`` says, under the
    title, what kind of change it is (a GM's correction). ``told``, when given, is what
    happened in words, said by the caller instead of one sentence per event (``/rest``).

    ``stability``: what the command did to the character's Stability too (a GM's
    correction): its field after Health's when it changed, its events in words; incurable
    insanity adds its own embed (COMMANDS.md "Stability").

    A list (of one embed, two with insanity) so that a caller can add it to a message's
    embeds; it stays within ``budget`` characters (give each character its share when one
    message shows several): what happened is shortened when it must.

    ``viewer``: whom it is rendered for; a character whose numbers they may not see is said
    in words (``bot.render.words``), its fields left out, ``words`` (sentences without a
    number) said after what happened.
    """
    if not shows_numbers(character, viewer):
        if died(outcome):
            return [death_embed(character, language)]
        mind = stability if stability is not None and stability.changed else None
        in_words = words_embeds(
            character,
            language,
            said=happened_words(
                None,
                character,
                language,
                before_health=outcome.before,
                before_stability=None if mind is None else mind.before,
                due=False,
            )
            + list(words),
            note=note,
        )
        if mind is not None and went_insane(mind):
            in_words.append(insanity_embed(character, language))
        return in_words
    before, after = outcome.before, character.health
    if died(outcome):
        embed = death_embed(character, language)
        health = health_value(before, after)
    else:
        embed = discord.Embed(title=character.name[:TITLE_LIMIT], colour=state_colour(after.state))
        health = f"{health_value(before, after)}\n{state_value(character, before, language)}"
    if note:
        said = f"{note}\n{embed.description}" if embed.description else note
        embed.description = cut(said, DESCRIPTION_LIMIT)
    embed.add_field(name=text(language, "render.status.health"), value=health, inline=False)
    changed_mind = stability is not None and stability.changed
    if changed_mind and stability is not None and stability.after is not None:
        name, value = stability_field(
            character, stability.before, stability.after, language, stability.events
        )
        embed.add_field(name=name, value=value, inline=False)
    shown_stability = stability if changed_mind else None
    for name, value in _what_happened(
        character, outcome, language, extra_fields, told, shown_stability
    ):
        embed.add_field(
            name=cut(name, FIELD_NAME_LIMIT),
            value=cut(value, FIELD_VALUE_LIMIT),
            inline=False,
        )
    excess = len(embed) - budget
    if excess > 0 and len(embed.fields) > 1:
        last = embed.fields[-1]
        room = max(1, len(last.value or "") - excess)
        embed.set_field_at(
            len(embed.fields) - 1, name=last.name, value=cut(last.value or "", room), inline=False
        )
    if shown_stability is not None and went_insane(shown_stability):
        return [embed, insanity_embed(character, language)]
    return [embed]


def announce_worthy(before: CharacterHealth | None, after: CharacterHealth | None) -> bool:
    """Whether a change goes to the announcement channel too: its state changed, it was
    knocked out, or it died (COMMANDS.md ``/config channel``)."""
    if before is None or after is None:
        return False
    if before.state is not after.state:
        return True
    if before.conscious and not after.conscious:
        return True
    return after.state is HealthState.DEAD and before.state is not HealthState.DEAD
