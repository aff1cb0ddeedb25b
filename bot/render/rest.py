"""What a ``/rest`` did, in one sentence (COMMANDS.md "Changes": each fact once, nothing said
about zero, a discharge from hospital in one sentence).

The rules tell a rest as a row of events (admitted, stabilized, days served, discharged,
rested, back to full Health, woke, no roll pending); said one by one they made five
sentences each starting with the name, ``le quedan 0 días`` among them. Here they become one
subject with its verbs: ``Amelia Ríos recibe el alta tras 7 días en el hospital y ya no tiene
que hacer la Tirada de Consciencia.`` What the embed shows already is not repeated: the
Health before → after, the new state, the days left in hospital (the state line's flag).
"""

from __future__ import annotations

from typing import TypeVar

from bot.i18n.catalogs import Language, plural, text
from bot.render.common import count_text, join_words, safe
from bot.render.events import describe_events
from bot.storage.models import StoredCharacter
from rules.events import (
    Admitted,
    ConvalescenceProgressed,
    Discharged,
    Event,
    HospitalNotNeeded,
    RecoveredFully,
    Rested,
    RollCleared,
    Stabilized,
    StateChanged,
    Woke,
)
from rules.outcome import Outcome

__all__ = ["rest_words"]

#: Events that no verb of their own says but that are not said again after the sentence: a
#: stabilization or a day in hospital the stay's verb tells, full Health (said with the
#: rest), the new state (the embed shows it).
_TOLD_ELSEWHERE = (Stabilized, ConvalescenceProgressed, RecoveredFully, StateChanged)

E = TypeVar("E", bound=Event)


def _first(events: tuple[Event, ...], kind: type[E]) -> E | None:
    return next((event for event in events if isinstance(event, kind)), None)


def _days(language: Language, count: int) -> str:
    return count_text(language, "day", count)


def _verbs(outcome: Outcome, language: Language) -> tuple[list[str], bool, list[Event]]:
    """The verbs of the sentence, in the order things happened; whether a rest found Health
    already full (said after them: nothing is said about zero); and the events the sentence
    does not say, each said on its own line after it."""
    events = outcome.events
    admitted = _first(events, Admitted)
    discharged = _first(events, Discharged) is not None
    full = _first(events, RecoveredFully) is not None
    verbs: list[str] = []
    already_full = False
    unsaid: list[Event] = []
    for event in events:
        if isinstance(event, HospitalNotNeeded):
            verbs.append(text(language, "render.rest.no_hospital"))
        elif isinstance(event, Admitted):
            days = _days(language, event.length_days)
            key = "render.rest.stay" if discharged else "render.rest.admitted"
            verbs.append(text(language, key, days=days))
        elif isinstance(event, Stabilized) and not discharged:
            verbs.append(text(language, "render.rest.stops_bleeding"))
        elif isinstance(event, ConvalescenceProgressed) and not (admitted or discharged):
            before, after = outcome.before.hospital, outcome.after.hospital
            served = (after.days_served if after else 0) - (before.days_served if before else 0)
            verbs.append(plural(language, "render.rest.more_days", served))
        elif isinstance(event, Discharged):
            if admitted is not None:
                verbs.append(text(language, "render.rest.discharged"))
            else:
                stay = outcome.before.hospital
                days = _days(language, stay.length_days if stay is not None else 0)
                verbs.append(text(language, "render.rest.discharged_after", days=days))
        elif isinstance(event, Woke):
            verbs.append(text(language, "render.rest.woke"))
        elif isinstance(event, RollCleared):
            verbs.append(text(language, "render.rest.roll_cleared"))
        elif isinstance(event, Rested):
            verbs.append(text(language, "render.rest.rests", days=_days(language, event.days)))
            if full:
                verbs.append(text(language, "render.rest.full"))
            elif event.restored:
                verbs.append(text(language, "render.rest.restored", points=event.restored))
            else:
                already_full = True
        elif not isinstance(event, _TOLD_ELSEWHERE):
            unsaid.append(event)
    return verbs, already_full, unsaid


def rest_words(character: StoredCharacter, outcome: Outcome, language: Language) -> str:
    """The sentence that says what a ``/rest`` did to ``character`` (see the module)."""
    verbs, already_full, unsaid = _verbs(outcome, language)
    sentence = f"{safe(character.name)} {join_words(language, verbs)}"
    if already_full:
        sentence += text(language, "render.rest.already_full")
    sentences = [f"{sentence}."]
    sentences += describe_events(character.name, unsaid, language, character.gender)
    return "\n".join(sentences)
