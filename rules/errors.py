"""Refusals: typed exceptions with a stable ``code`` and the values a message needs.

The bot turns ``code`` into a localised sentence and formats ``params`` into it; the rules
never produce text for users. Refusals shared by several actions live here; the others are
defined next to the rule that raises them.
"""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

__all__ = [
    "CharacterDead",
    "CharacterUnconscious",
    "IncurablyInsane",
    "InvalidValue",
    "MedicRefusal",
    "NoStability",
    "Party",
    "RuleError",
    "check_range",
]


class Party(Enum):
    """Which of the characters an action involves a refusal is about, so that the bot can
    name that one (and agree with its gender) without knowing the rule."""

    #: The character acted upon, or acting alone (a ``/hurt``'s target, the roller, the
    #: First Aid's patient).
    SUBJECT = "subject"
    #: The character who acts on another (the First Aid's medic).
    MEDIC = "medic"


class RuleError(Exception):
    """A rule forbids the action; nothing changed.

    ``code`` is stable (it names a message in the bot's catalogs); ``params`` holds the
    values that message needs, as plain ints and strings.
    """

    code: ClassVar[str] = "rule"
    #: Whom the refusal is about (see ``Party``).
    party: ClassVar[Party] = Party.SUBJECT

    def __init__(self, **params: int | str) -> None:
        self.params: dict[str, int | str] = dict(params)
        detail = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        super().__init__(f"{self.code}({detail})" if detail else self.code)


class InvalidValue(RuleError):
    """An argument is outside the range the rules accept (params: field, min, max)."""

    code: ClassVar[str] = "invalid_value"


class CharacterDead(RuleError):
    """H5: nothing but a GM's correction acts on a dead character (no params)."""

    code: ClassVar[str] = "dead"


class CharacterUnconscious(RuleError):
    """An unconscious character cannot act (no params)."""

    code: ClassVar[str] = "unconscious"


class MedicRefusal(RuleError):
    """A refusal about the medic, not the patient (``Party.MEDIC``)."""

    party: ClassVar[Party] = Party.MEDIC


class IncurablyInsane(RuleError):
    """M4: an incurably insane character makes no tests, rolls or spends, gives no First Aid
    or treatment and receives no treatment; only a GM's correction changes its Stability.

    Params: ``reason``, the action refused (``roll``, ``spend``, ``check``, ``treatment``).
    """

    code: ClassVar[str] = "incurably_insane"


class NoStability(RuleError):
    """M1: the character has no Stability rating, so nothing about Stability applies to it
    (no params)."""

    code: ClassVar[str] = "no_stability"


def check_range(field: str, value: int, minimum: int, maximum: int) -> None:
    """Refuse ``value`` outside ``minimum..maximum`` before anything is computed."""
    if not minimum <= value <= maximum:
        raise InvalidValue(field=field, min=minimum, max=maximum)
