"""Frozen values the storage layer hands out; cogs never see rows or JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import Final, Protocol

from rules.abilities import Ability
from rules.character import CharacterHealth, Gender
from rules.names import name_key
from rules.stability import CharacterStability

__all__ = [
    "BATCH_SIZE",
    "EVERY_CHARACTER",
    "TURN_EVERY",
    "UNSET",
    "Among",
    "CharacterQuery",
    "CharacterRef",
    "Clock",
    "GuildSettings",
    "LightCharacter",
    "LostChannel",
    "NewCharacter",
    "Numbers",
    "RollKind",
    "RollMessage",
    "StoredCharacter",
    "TrackerMessage",
    "UnkeptReply",
    "Unset",
    "utc_now",
]


#: What a storage reads the time from (tests give their own).
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class Unset(Enum):
    """Marks a keyword argument that was not given (``None`` means "clear it")."""

    UNSET = "unset"


UNSET: Final = Unset.UNSET

#: Characters read at a time when work goes over a whole server (``Reader.batch_of_characters``).
BATCH_SIZE = 500
#: Characters worked out between two turns of the event loop in a whole server's change (its
#: snapshots, its rows; the batches of a prepared change): at most a few milliseconds each.
TURN_EVERY = 100


class Among(Enum):
    """Which of a server's characters a whole-server change concerns; each engine says it in
    its own words, with the index that finds those only (``tests/storage/test_whole_server.py``
    holds each against the rules)."""

    #: The living (Health above the death threshold, H5).
    LIVING = "living"
    #: The bleeding (T1, ``CharacterHealth.is_bleeding``): living, Seriously wounded, neither
    #: stabilized nor in hospital.
    BLEEDING = "bleeding"


@dataclass(frozen=True)
class CharacterQuery:
    """Which of a server's characters ``list_characters`` reads, and which page of them; by
    name, in the order a reader of ``language`` expects (``rules.names.reading_key``: case
    and accents ignored), so that a page reads only its own rows."""

    #: Only those with Health above the death threshold.
    living_only: bool = False
    #: Only those at or below it.
    dead_only: bool = False
    #: True for only the living incurably insane (M4), False for all but them (a NULL pool,
    #: no Stability, is in play); None: either.
    out_of_play: bool | None = None
    #: At most ``limit`` rows (None: all), after the first ``offset``.
    limit: int | None = None
    offset: int = 0
    language: str = "en"


#: Every character of the server, in English order.
EVERY_CHARACTER: Final = CharacterQuery()


class Numbers(Enum):
    """Whether the table sees a character's numbers (``shown``, the default) or only its
    owner and the table's GMs do (``private``: the table hears it in words; issue 28)."""

    SHOWN = "shown"
    PRIVATE = "private"


def numbers_from_value(value: object) -> Numbers:
    """The stored setting (a column or a snapshot's ``numbers``): NULL or absent is shown."""
    return Numbers.SHOWN if value is None else Numbers(str(value))


def numbers_to_value(numbers: Numbers) -> str | None:
    """What the column holds: NULL for shown (every row from before issue 28)."""
    return None if numbers is Numbers.SHOWN else numbers.value


@dataclass(frozen=True)
class NewCharacter:
    """A character to create (``create_character``) in the server ``guild_id``: its name
    (stored trimmed), its member, its Health, and what it may start with."""

    guild_id: int
    name: str
    owner_id: int
    health: CharacterHealth
    abilities: Iterable[Ability] = ()
    gender: Gender | None = None
    stability: CharacterStability | None = None
    numbers: Numbers = Numbers.SHOWN


@dataclass(frozen=True)
class GuildSettings:
    """A guild's ``/config``; every field ``None`` when never set."""

    guild_id: int
    gm_role_id: int | None = None
    channel_id: int | None = None
    language: str | None = None


class CharacterRef(Protocol):
    """Which character an option or a button names: enough to check who may act and to read
    the whole character, once, inside the change's transaction (``Reader.character``)."""

    @property
    def id(self) -> int: ...

    @property
    def guild_id(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def owner_id(self) -> int: ...

    @property
    def gender(self) -> Gender | None: ...


@dataclass(frozen=True)
class LightCharacter:
    """A character as the options resolve it (from the server's name index, ``NameIndex``):
    who it is, whose, and how replies speak of it. Enough to check who may act and to name it
    in a refusal; a change reads the whole character inside its transaction
    (``tx.character(ref)``), a display reads what it shows."""

    id: int
    guild_id: int
    name: str
    owner_id: int
    gender: Gender | None = None
    #: Whether the character has Stability (RULES.md M1): the ``character`` option of
    #: ``/stability test|roll`` and ``patient`` of ``/stability treat`` suggest only those.
    has_stability: bool = False
    #: Whether its numbers are the table's or only its owner's and the GMs' (issue 28).
    numbers: Numbers = Numbers.SHOWN


@dataclass(frozen=True)
class StoredCharacter:
    """A character as stored: its identity, owner, Health values and abilities.

    ``abilities`` is ordered by ``name_key`` of the ability name; ``gender`` is None when
    never given; ``stability`` is None for a character without Stability (RULES.md M1).
    """

    id: int
    guild_id: int
    name: str
    owner_id: int
    health: CharacterHealth
    abilities: tuple[Ability, ...] = ()
    gender: Gender | None = None
    stability: CharacterStability | None = None
    #: Private numbers are told to the table in words (``bot.render.visibility``).
    numbers: Numbers = Numbers.SHOWN

    @property
    def name_key(self) -> str:
        return name_key(self.name)

    def ability(self, name: str) -> Ability | None:
        """The ability called ``name`` (compared ignoring case), if the character has it."""
        key = name_key(name)
        for ability in self.abilities:
            if name_key(ability.name) == key:
                return ability
        return None


class RollKind(Enum):
    """What a character's buttons roll: its Consciousness roll (C) or its Stability test (M5).

    Each kind numbers its rolls apart (the buttons carry the number of the roll they were
    posted for); the messages of both are kept in one table, told apart by kind."""

    CONSCIOUSNESS = "consciousness"
    STABILITY_TEST = "stability"


@dataclass(frozen=True)
class RollMessage:
    """A public message carrying the buttons of one character's roll number ``roll_seq``
    (of ``kind``)."""

    guild_id: int
    character_id: int
    roll_seq: int
    channel_id: int
    message_id: int
    kind: RollKind = RollKind.CONSCIOUSNESS
    #: The message's components as the bot sent them (JSON), when known: its old buttons
    #: are disabled with one PATCH, without reading it first.
    components: str | None = None


@dataclass(frozen=True)
class UnkeptReply:
    """A change that numbered rolls, whose reply's message was not kept (yet): a process
    stopped in between looks for that reply at its next start."""

    interaction_id: int
    guild_id: int
    channel_id: int


@dataclass(frozen=True)
class TrackerMessage:
    """Where a server's live tracker is."""

    guild_id: int
    channel_id: int
    message_id: int


@dataclass(frozen=True)
class LostChannel:
    """A server's announcement channel where Discord refused the bot's posts (``status``
    403: no permission; 404: the channel is gone)."""

    guild_id: int
    channel_id: int
    status: int
