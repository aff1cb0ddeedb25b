"""One sentence per rules event ("Ana is now Seriously wounded.").

Events are rendered by their type, as d20's stringifiers render a roll's nodes: each event
class registers the function that says it (``functools.singledispatch``), which reads the
event's fields as typed attributes. An event this module does not know (a newer rule) is
logged and skipped: it never breaks a reply.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import singledispatch
from typing import TYPE_CHECKING

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.common import count_text, safe, state_label
from rules.events import (
    Admitted,
    Bled,
    ConvalescenceProgressed,
    Corrected,
    Damaged,
    Died,
    Discharged,
    Event,
    FellUnconscious,
    FirstAidSpent,
    HealthRestored,
    HealthSpent,
    HospitalEnded,
    HospitalNotNeeded,
    PoolRefreshed,
    RecoveredFully,
    Rested,
    RollCleared,
    RollDue,
    SceneStarted,
    StabilizationEnded,
    Stabilized,
    StateChanged,
    StayedConscious,
    Woke,
)
from rules.stability import StabilityState
from rules.stability_events import (
    Faltered,
    KeptComposure,
    LucidityEnded,
    MadeLucid,
    MentalIllnessAcquired,
    StabilityAdded,
    StabilityRefreshed,
    StabilityRemoved,
    StabilityRestored,
    StabilitySpent,
    StabilityStateChanged,
    StabilityTestCleared,
    StabilityTestDue,
    StabilityTestFailed,
    StabilityTestPassed,
    StabilityTestReplaced,
    Strained,
    WentInsane,
)

if TYPE_CHECKING:
    from rules.character import Gender

__all__ = ["Said", "describe_event", "describe_events", "sentence_of"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Said:
    """What a sentence says of an event: its catalog key and parameters besides ``name``
    (the key may have gendered forms, ``bot.i18n.grammar``)."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)


@singledispatch
def sentence_of(event: Event, language: Language) -> Said | None:
    """What to say of ``event``; None for an event class no function is registered for."""
    return None


def _plain(key: str) -> Said:
    return Said(f"render.event.{key}")


#: Events whose sentence fills in some of their fields as they are, each under its own
#: name (none: nothing to fill in but the name): their key after ``render.event.`` and those
#: fields.
_FIELDS: dict[type[Event], tuple[str, tuple[str, ...]]] = {
    RollCleared: ("roll_cleared", ()),
    FellUnconscious: ("fell_unconscious", ()),
    Woke: ("woke", ()),
    StayedConscious: ("stayed_conscious", ()),
    Stabilized: ("stabilized", ()),
    StabilizationEnded: ("stabilization_ended", ()),
    Died: ("died", ()),
    HospitalEnded: ("hospital_ended", ()),
    HospitalNotNeeded: ("hospital_not_needed", ()),
    StabilityTestPassed: ("stability_test_passed", ()),
    WentInsane: ("went_insane", ()),
    KeptComposure: ("kept_composure", ()),
    Faltered: ("faltered", ()),
    MadeLucid: ("made_lucid", ()),
    LucidityEnded: ("lucidity_ended", ()),
    Damaged: ("damaged", ("amount",)),
    RollDue: ("roll_due", ("difficulty",)),
    Bled: ("bled", ("points",)),
    Discharged: ("discharged", ("health",)),
    RecoveredFully: ("recovered_fully", ("health",)),
    HealthRestored: ("health_restored", ("points",)),
    HealthSpent: ("health_spent", ("points",)),
    StabilitySpent: ("stability_spent", ("points",)),
    StabilityTestFailed: ("stability_test_failed", ("lost",)),
    Strained: ("strained", ("points",)),
    StabilityRestored: ("stability_restored", ("points",)),
    PoolRefreshed: ("pool_refreshed", ("before", "after")),
    StabilityTestDue: ("stability_test_due", ("loss", "difficulty")),
    StabilityTestReplaced: ("stability_test_replaced", ("loss", "difficulty")),
    StabilityTestCleared: ("stability_test_cleared", ("loss", "difficulty")),
    StabilityRefreshed: ("stability_refreshed", ("before", "after")),
    StabilityRemoved: ("stability_removed", ("pool", "rating")),
}


def _fields_sentence(key: str, names: tuple[str, ...]) -> Callable[[Event, Language], Said]:
    def say(event: Event, language: Language) -> Said:
        return Said(f"render.event.{key}", {name: getattr(event, name) for name in names})

    return say


for _event_type, (_key, _names) in _FIELDS.items():
    sentence_of.register(_event_type, _fields_sentence(_key, _names))


@sentence_of.register
def _state_changed(event: StateChanged, language: Language) -> Said:
    return Said("render.event.state_changed", {"state": state_label(event.after, language)})


@sentence_of.register
def _admitted(event: Admitted, language: Language) -> Said:
    return Said("render.event.admitted", {"days": count_text(language, "day", event.length_days)})


@sentence_of.register
def _convalescence(event: ConvalescenceProgressed, language: Language) -> Said:
    form = "one" if event.days_left == 1 else "other"
    return Said(
        f"render.event.convalescence_progressed.{form}",
        {
            "served": count_text(language, "day", event.days_served),
            "days_left": event.days_left,
        },
    )


@sentence_of.register
def _rested(event: Rested, language: Language) -> Said:
    return Said(
        "render.event.rested",
        {"days": count_text(language, "day", event.days), "restored": event.restored},
    )


@sentence_of.register
def _first_aid_spent(event: FirstAidSpent, language: Language) -> Said:
    return Said(
        "render.event.first_aid_spent", {"points": count_text(language, "point", event.points)}
    )


@sentence_of.register
def _scene_started(event: SceneStarted, language: Language) -> Said:
    return Said("render.event.scene_started", {"health": event.scene_start_health})


# --- Stability (RULES.md M; rules.stability_events) ------------------------------------------


def _stability_state(state: StabilityState, language: Language) -> str:
    return text(language, f"render.stability.state.{state.value}")


@sentence_of.register
def _stability_state_changed(event: StabilityStateChanged, language: Language) -> Said:
    return Said(
        "render.event.stability_state_changed", {"state": _stability_state(event.after, language)}
    )


@sentence_of.register
def _mental_illness(event: MentalIllnessAcquired, language: Language) -> Said:
    if event.rating_before == event.rating_after:
        return Said("render.event.mental_illness_at_one", {"rating": event.rating_after})
    return Said(
        "render.event.mental_illness",
        {"before": event.rating_before, "after": event.rating_after},
    )


@sentence_of.register
def _stability_added(event: StabilityAdded, language: Language) -> Said:
    key = "stability_added.ill" if event.mental_illness else "stability_added"
    return Said(f"render.event.{key}", {"pool": event.pool, "rating": event.rating})


#: The values a GM's correction may set, said in words (``render.field.<field>``).
CORRECTED_FIELDS = frozenset(
    {
        "health",
        "max_health",
        "first_aid_pool",
        "first_aid_rating",
        "stability",
        "max_stability",
    }
)


@sentence_of.register
def _corrected(event: Corrected, language: Language) -> Said:
    if event.field == "conscious":
        # Woken or knocked out by a GM: said as what happened, not "conscious: yes → no".
        return _plain("corrected.conscious" if event.after else "corrected.unconscious")
    if event.field == "mental_illness":
        # The mark given or cleared, as what happened (M12: a GM says it is cured).
        return _plain("corrected.mental_illness" if event.after else "corrected.cured")
    if event.field not in CORRECTED_FIELDS:
        log.warning("no words for the corrected field %r", event.field)
    known = event.field in CORRECTED_FIELDS
    return Said(
        "render.event.corrected",
        {
            "field": text(language, f"render.field.{event.field}") if known else event.field,
            "before": event.before,
            "after": event.after,
        },
    )


def describe_event(
    name: str, event: Event, language: Language, gender: Gender | None = None
) -> str | None:
    """The sentence for one event about the character ``name`` (agreeing with ``gender``
    when known), or None for an event this module does not know (logged)."""
    said = sentence_of(event, language)
    if said is None:
        log.warning("no sentence for event %r; skipped", event)
        return None
    return gendered(language, said.key, gender, name=safe(name), **said.params)


def describe_events(
    name: str, events: Sequence[Event], language: Language, gender: Gender | None = None
) -> list[str]:
    """One sentence per event, in order ("Ana takes 4 damage.", "Ana is now Hurt.", …).

    ``name`` is the character's name as typed; it is markdown-escaped here. Unknown events
    are skipped (and logged), never raised.
    """
    sentences: list[str] = []
    for event in events:
        sentence = describe_event(name, event, language, gender)
        if sentence is not None:
            sentences.append(sentence)
    return sentences
