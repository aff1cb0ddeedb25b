"""One sentence per rules event ("Ana is now Seriously wounded.").

Events are matched by class name and their fields read by name (DESIGN.md). An event this
module does not know (a newer rule) is logged and skipped: it never breaks a reply.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import Language, text
from bot.i18n.grammar import gendered
from bot.render.common import count_text, safe, state_label
from rules.events import Event
from rules.state import HealthState

if TYPE_CHECKING:
    from rules.character import Gender

__all__ = ["EVENT_KEYS", "describe_event", "describe_events"]

log = logging.getLogger(__name__)

_Params = Callable[[Event, Language], dict[str, object]]


def _attr(event: Event, field: str) -> Any:
    """A field of an event, read by its DESIGN.md name (events are matched by class name)."""
    return getattr(event, field)


def _none(event: Event, language: Language) -> dict[str, object]:
    return {}


def _fields(*names: str) -> _Params:
    """Pass the event's fields through unchanged (numbers)."""

    def params(event: Event, language: Language) -> dict[str, object]:
        return {name: _attr(event, name) for name in names}

    return params


def _points(field: str) -> _Params:
    """A count of points in words ("2 points" / "2 puntos")."""

    def params(event: Event, language: Language) -> dict[str, object]:
        return {"points": count_text(language, "point", int(_attr(event, field)))}

    return params


def _state_changed(event: Event, language: Language) -> dict[str, object]:
    after = _attr(event, "after")
    return {"state": state_label(HealthState(after), language)}


def _admitted(event: Event, language: Language) -> dict[str, object]:
    return {"days": count_text(language, "day", int(_attr(event, "length_days")))}


def _convalescence(event: Event, language: Language) -> dict[str, object]:
    return {
        "served": count_text(language, "day", int(_attr(event, "days_served"))),
        "days_left": int(_attr(event, "days_left")),
    }


def _rested(event: Event, language: Language) -> dict[str, object]:
    return {
        "days": count_text(language, "day", int(_attr(event, "days"))),
        "restored": _attr(event, "restored"),
    }


def _corrected(event: Event, language: Language) -> dict[str, object]:
    field = str(_attr(event, "field"))
    known = field in {"health", "max_health", "first_aid_pool", "first_aid_rating"}
    return {
        "field": text(language, f"render.field.{field}") if known else field,
        "before": _attr(event, "before"),
        "after": _attr(event, "after"),
    }


def _health(field: str) -> _Params:
    def params(event: Event, language: Language) -> dict[str, object]:
        return {"health": _attr(event, field)}

    return params


#: Event class name → (catalog key, its parameters besides ``name``).
EVENT_KEYS: Mapping[str, tuple[str, _Params]] = {
    "Damaged": ("render.event.damaged", _fields("amount")),
    "StateChanged": ("render.event.state_changed", _state_changed),
    "RollDue": ("render.event.roll_due", _fields("difficulty")),
    "RollCleared": ("render.event.roll_cleared", _none),
    "FellUnconscious": ("render.event.fell_unconscious", _none),
    "Woke": ("render.event.woke", _none),
    "StayedConscious": ("render.event.stayed_conscious", _none),
    "Stabilized": ("render.event.stabilized", _none),
    "StabilizationEnded": ("render.event.stabilization_ended", _none),
    "Bled": ("render.event.bled", _fields("points")),
    "Died": ("render.event.died", _none),
    "Admitted": ("render.event.admitted", _admitted),
    "ConvalescenceProgressed": ("render.event.convalescence_progressed", _convalescence),
    "Discharged": ("render.event.discharged", _health("health")),
    "HospitalEnded": ("render.event.hospital_ended", _none),
    "Rested": ("render.event.rested", _rested),
    "HospitalNotNeeded": ("render.event.hospital_not_needed", _none),
    "RecoveredFully": ("render.event.recovered_fully", _health("health")),
    "FirstAidSpent": ("render.event.first_aid_spent", _points("points")),
    "HealthRestored": ("render.event.health_restored", _fields("points")),
    "HealthSpent": ("render.event.health_spent", _fields("points")),
    "SceneStarted": ("render.event.scene_started", _health("scene_start_health")),
    "PoolRefreshed": ("render.event.pool_refreshed", _fields("before", "after")),
    "Corrected": ("render.event.corrected", _corrected),
}


def describe_event(
    name: str, event: Event, language: Language, gender: Gender | None = None
) -> str | None:
    """The sentence for one event about the character ``name`` (agreeing with ``gender``
    when known), or None for an event this module does not know (logged) or cannot read
    (logged)."""
    kind = type(event).__name__
    entry = EVENT_KEYS.get(kind)
    if entry is None:
        log.warning("no sentence for event %r; skipped", event)
        return None
    key, params = entry
    try:
        values = params(event, language)
    except (AttributeError, TypeError, ValueError):
        log.exception("cannot render event %r; skipped", event)
        return None
    if kind == "ConvalescenceProgressed":
        key += ".one" if values.get("days_left") == 1 else ".other"
    elif kind == "Corrected" and _attr(event, "field") == "conscious":
        # Woken or knocked out by a GM: said as what happened, not "conscious: yes → no".
        key += ".conscious" if _attr(event, "after") else ".unconscious"
        values = {}
    return gendered(language, key, gender, name=safe(name), **values)


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
