"""Who may see a character's numbers (COMMANDS.md "Private numbers"): the one place that
decides it. Every renderer that shows a number of a character asks ``shows_numbers`` with the
``Viewer`` it renders for; a public payload renders for ``EVERYONE``, an ephemeral one for
the member it answers (an owner, a GM). No reply builds its own exception.

A character's numbers are ``shown`` (the default: everyone sees them, and its replies are
what they were before private numbers existed) or ``private``: only its owner and the
table's GMs see them; the table hears what happens in words (``bot.render.words``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Protocol, TypeVar

from bot.storage.models import Numbers

__all__ = [
    "EVERYONE",
    "Screened",
    "Sight",
    "Viewer",
    "hidden_from",
    "shows_numbers",
]


class Sight(Enum):
    """How far a viewer sees behind the Keeper's screen."""

    #: A public message: anyone in the channel reads it.
    EVERYONE = "everyone"
    #: A member answered privately: they see the numbers of their own characters.
    MEMBER = "member"
    #: A GM at the table: every number.
    GM = "gm"


@dataclass(frozen=True)
class Viewer:
    """Whom a payload is rendered for: everyone (public), one member, or a GM."""

    sight: Sight
    user_id: int | None = None

    @classmethod
    def member(cls, user_id: int, *, is_gm: bool) -> Viewer:
        """The member an ephemeral reply answers: a GM sees everything, anyone else what
        they own."""
        return cls(Sight.GM if is_gm else Sight.MEMBER, user_id)


#: A public payload's viewer.
EVERYONE = Viewer(Sight.EVERYONE)


class Screened(Protocol):
    """What the policy reads of a character: whose it is and whether its numbers are
    private (``StoredCharacter`` and ``LightCharacter`` both are)."""

    @property
    def id(self) -> int: ...

    @property
    def owner_id(self) -> int: ...

    @property
    def numbers(self) -> Numbers: ...


def shows_numbers(character: Screened, viewer: Viewer = EVERYONE) -> bool:
    """Whether ``viewer`` may see the character's numbers: everyone when they are shown;
    its owner and the table's GMs when they are private."""
    if character.numbers is Numbers.SHOWN:
        return True
    if viewer.sight is Sight.GM:
        return True
    return viewer.sight is Sight.MEMBER and viewer.user_id == character.owner_id


_C = TypeVar("_C", bound=Screened)


def hidden_from(characters: Iterable[_C], viewer: Viewer = EVERYONE) -> list[_C]:
    """The characters (each once, in order) whose numbers ``viewer`` may not see."""
    seen: set[int] = set()
    hidden: list[_C] = []
    for character in characters:
        if character.id in seen or shows_numbers(character, viewer):
            continue
        seen.add(character.id)
        hidden.append(character)
    return hidden
