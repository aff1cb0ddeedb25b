"""What a history entry says of its command: one frozen dataclass per command, stored as JSON in
``history.details`` and read back typed (issue 18.4).

A command's details are a subclass of ``Details`` that names its command::

    @dataclass(frozen=True)
    class RestDetails(Details, command="rest"):
        days: int
        hospital: bool = False

and that is all a new command adds here (its sentence is ``bot/render/history.py``'s):
``stored()`` writes the fields as JSON (a field that is None is left out), ``read`` takes them
back by name and type — ``int``, ``str``, ``bool``, a ``Literal``, ``X | None``,
``tuple[X, ...]`` and a nested frozen dataclass — a field missing, or stored with another
type, taking its default. A field stored under another key says so
(``field(metadata={"key": "from"})``). A class whose older entries stored another shape
overrides ``read``; every shape a version of Salud wrote stays readable
(``tests/storage/test_history_details.py`` keeps one of each).

``details_of(command, stored)`` reads any entry: a command no class is registered for (an
entry of a test, of a command since removed), or details that no longer read, give
``UnknownDetails`` — the history then says "a change" with its values, never an error.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self, TypeAlias

from bot.storage.typed_json import Unreadable, check_fields, dump_fields, read_fields, read_value

__all__ = [
    "AbilityRemoveDetails",
    "AbilitySetDetails",
    "CharacterCreateDetails",
    "CharacterDeleteDetails",
    "CharacterMoveDetails",
    "CharacterRenameDetails",
    "CharacterSetDetails",
    "CheckDetails",
    "ConsciousDetails",
    "Details",
    "FirstAidDetails",
    "GenderChoice",
    "HurtDetails",
    "HurtTarget",
    "NumbersChoice",
    "RefreshDetails",
    "RestDetails",
    "RollNumbers",
    "SceneNewDetails",
    "SpendDetails",
    "StabilityRollDetails",
    "StabilityTestDetails",
    "StabilityTreatDetails",
    "StoredRoll",
    "TimeDetails",
    "UndoDetails",
    "UnknownDetails",
    "check_fields",
    "details_class",
    "details_classes",
    "details_of",
]

GenderChoice = Literal["feminine", "masculine", "none"]
#: ``numbers`` of ``/character create|set`` and ``/table numbers`` (issue 28).
NumbersChoice = Literal["shown", "private"]


class Details:
    """The base of every command's details: registered by its command, written and read as
    JSON. Subclasses are frozen dataclasses (see the module)."""

    command: ClassVar[str] = ""

    def __init_subclass__(cls, *, command: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not command:
            return
        if command in _REGISTERED:
            raise ValueError(f"two details classes for /{command}")
        cls.command = command
        _REGISTERED[command] = cls

    def stored(self) -> dict[str, Any]:
        """The JSON object stored for these details (None fields left out)."""
        return dump_fields(self)

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        """These details from what was stored; ``Unreadable`` when they do not read."""
        return read_fields(cls, stored)


#: Each command's details class, by command (``Details.__init_subclass__`` fills it).
_REGISTERED: dict[str, type[Details]] = {}


def details_class(command: str) -> type[Details] | None:
    """The class registered for ``command`` (an old entry's leading ``/`` ignored)."""
    return _REGISTERED.get(command.removeprefix("/"))


def details_classes() -> dict[str, type[Details]]:
    """Every command's details class, by command."""
    return dict(_REGISTERED)


def details_of(command: str, stored: object) -> Details:
    """The typed details of an entry of ``command`` stored as ``stored`` (parsed JSON)."""
    found = details_class(command)
    raw = dict(stored) if isinstance(stored, Mapping) else {}
    if found is None or not isinstance(stored, Mapping):
        return UnknownDetails(command_name=command, raw=raw)
    try:
        return found.read(stored)
    except Unreadable:
        return UnknownDetails(command_name=command, raw=raw)


# --- the commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnknownDetails(Details):
    """An entry whose command no class reads (or whose details no longer read): kept as
    stored, said as "a change"."""

    command_name: str = ""
    raw: dict[str, Any] = field(default_factory=dict, hash=False)

    def stored(self) -> dict[str, Any]:
        return dict(self.raw)


@dataclass(frozen=True)
class HurtTarget:
    """One character a ``/hurt`` hit: the damage it took (``dice``: the dice rolled, none for
    a fixed amount). ``name`` is None in an entry of one target, which names it no more: the
    entry's one character is the target."""

    dealt: int
    dice: tuple[int, ...] = ()
    name: str | None = None


@dataclass(frozen=True)
class HurtDetails(Details, command="hurt"):
    """``/hurt``: the amount as typed (``5``, ``1d6+1``), each target's damage, the reason.

    Stored as it always was: one target flat (``{"amount", "dealt", "dice", "reason"}``),
    several as ``targets``."""

    amount: str
    targets: tuple[HurtTarget, ...]
    reason: str | None = None

    def stored(self) -> dict[str, Any]:
        stored: dict[str, Any] = {"amount": self.amount}
        if len(self.targets) == 1:
            (target,) = self.targets
            stored["dealt"] = target.dealt
            if target.dice:
                stored["dice"] = list(target.dice)
        else:
            stored["targets"] = [
                {"name": t.name, "dealt": t.dealt, **({"dice": list(t.dice)} if t.dice else {})}
                for t in self.targets
            ]
        if self.reason:
            stored["reason"] = self.reason
        return stored

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        amount, reason = stored.get("amount"), stored.get("reason")
        typed = isinstance(amount, int | str) and not isinstance(amount, bool)
        shown = str(amount) if typed else ""
        if "targets" in stored:
            targets = read_value(tuple[HurtTarget, ...], stored["targets"])
            if not targets:
                raise Unreadable("a /hurt with no target")
        else:  # one target, flat
            targets = (read_fields(HurtTarget, stored),)
        return cls(
            amount=shown, targets=targets, reason=reason if isinstance(reason, str) else None
        )


@dataclass(frozen=True)
class RollNumbers:
    """A test's roll as numbers: ``die + added = total`` against ``difficulty``. ``added`` is
    the points spent (a Consciousness roll, an ability test, a Stability test) or the strain
    (a composure test, M8); ``total`` is what the rules made of them, the die plus ``added``
    (``rules/_throw.py``). The words (``4 + 0 = 4 vs 3``) are ``bot/render``'s."""

    die: int
    added: int
    total: int
    difficulty: int


#: A roll in an entry's details: its numbers. Entries stored before them hold the roll as
#: text, ``DIE + SPEND = TOTAL vs DIFFICULTY``, read as its numbers (``_roll_read``); text of
#: any other shape is kept as it was, and shown so.
StoredRoll: TypeAlias = RollNumbers | str

_INTEGER = r"(0|-?[1-9][0-9]*)"  # as ``str(int)`` writes one: the numbers say it the same
_ROLL_TEXT = re.compile(rf"{_INTEGER} \+ {_INTEGER} = {_INTEGER} vs {_INTEGER}")


def _roll_read(roll: StoredRoll) -> StoredRoll:
    """An older entry's roll as text, ``2 + 1 = 3 vs 4``, as its numbers; numbers, and text
    of any other shape, as they are."""
    found = _ROLL_TEXT.fullmatch(roll) if isinstance(roll, str) else None
    if found is None:
        return roll
    die, added, total, difficulty = (int(number) for number in found.groups())
    return RollNumbers(die=die, added=added, total=total, difficulty=difficulty)


@dataclass(frozen=True)
class _RollDetails(Details):
    """The details of a command that stores rolls, in the fields ``ROLLS`` names: an older
    entry's roll text read as its numbers (``_roll_read``)."""

    ROLLS: ClassVar[tuple[str, ...]] = ("roll",)

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        read = read_fields(cls, stored)
        rolls = {name: getattr(read, name) for name in cls.ROLLS}
        return dataclasses.replace(
            read, **{name: _roll_read(roll) for name, roll in rolls.items() if roll is not None}
        )


@dataclass(frozen=True)
class ConsciousDetails(_RollDetails, command="conscious"):
    """A Consciousness roll: its numbers (``DIE + SPEND = TOTAL vs DIFFICULTY``) and whether it
    succeeded."""

    roll: StoredRoll
    success: bool


@dataclass(frozen=True)
class FirstAidDetails(Details, command="firstaid"):
    """``/firstaid``: the medic's name, the points offered and spent, the Health restored,
    whether it stabilized; the patient's name (older entries did not store it: the entry's
    other character is the patient)."""

    medic: str
    points: int = 0
    spent: int | None = None
    restored: int = 0
    stabilized: bool = False
    patient: str | None = None


@dataclass(frozen=True)
class RestDetails(Details, command="rest"):
    """``/rest``: days, at home or in hospital."""

    days: int
    hospital: bool = False


@dataclass(frozen=True)
class TimeDetails(Details, command="time"):
    """``/time``: the minutes of game time that passed."""

    minutes: int


@dataclass(frozen=True)
class RefreshDetails(Details, command="refresh"):
    """``/refresh``: one character's pools (its name), or everyone's (None)."""

    character: str | None = None


@dataclass(frozen=True)
class SceneNewDetails(Details, command="scene new"):
    """``/scene new``: nothing more to say."""


_MENTION = re.compile(r"^<@!?(\d+)>$")


@dataclass(frozen=True)
class CharacterCreateDetails(Details, command="character create"):
    """``/character create``: the name, the ratings, the player a GM named (their id), the
    gender given."""

    name: str
    health: int
    first_aid: int = 0
    player_id: int | None = None
    gender: GenderChoice | None = None
    stability: int | None = None
    #: Given only when private (the table's default or the GM's choice).
    numbers: NumbersChoice | None = None

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        read = read_fields(cls, stored)
        player = stored.get("player")  # older entries: the player as a mention, ``<@id>``
        if read.player_id is None and isinstance(player, str):
            found = _MENTION.match(player)
            if found:
                return dataclasses.replace(read, player_id=int(found.group(1)))
        return read


@dataclass(frozen=True)
class CharacterSetDetails(Details, command="character set"):
    """``/character set``: each value the GM gave (None: not given); ``gender`` ``none``
    took the gender back."""

    health: int | None = None
    max_health: int | None = None
    first_aid: int | None = None
    max_first_aid: int | None = None
    conscious: bool | None = None
    gender: GenderChoice | None = None
    stability: int | None = None
    max_stability: int | None = None
    mental_illness: bool | None = None
    numbers: NumbersChoice | None = None


@dataclass(frozen=True)
class CharacterRenameDetails(Details, command="character rename"):
    """``/character rename``: the name before and after (stored as ``from`` and ``to``; the
    first entries stored ``name`` and ``new_name``)."""

    old: str = field(metadata={"key": "from"})
    new: str = field(metadata={"key": "to"})

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        if "from" not in stored and "new_name" in stored:
            stored = {"from": stored.get("name"), "to": stored["new_name"]}
        return read_fields(cls, stored)


@dataclass(frozen=True)
class CharacterMoveDetails(Details, command="character move"):
    """``/character move``: the character and the tables it left and joined, by id and by
    the name each table had then (the main table's ``None`` until renamed)."""

    name: str
    from_table: int
    to_table: int
    from_name: str | None = None
    to_name: str | None = None


@dataclass(frozen=True)
class CharacterDeleteDetails(Details, command="character delete"):
    """``/character delete``: the name of the character deleted."""

    name: str


@dataclass(frozen=True)
class AbilitySetDetails(Details, command="ability set"):
    """``/ability set``: the ability as it is after (its kind, pool and rating)."""

    ability: str
    rating: int
    pool: int | None = None
    kind: Literal["general", "investigative"] | None = None


@dataclass(frozen=True)
class AbilityRemoveDetails(Details, command="ability remove"):
    """``/ability remove``: the ability removed (older entries also stored its pool as text,
    which the snapshots hold anyway)."""

    ability: str


@dataclass(frozen=True)
class SpendDetails(_RollDetails, command="spend"):
    """``/spend``: the ability and the points spent; a Shaken investigator's composure test
    (RULES.md M8: the numbers of ``DIE + STRAIN = TOTAL vs DIFFICULTY``) and whether
    composure held."""

    ROLLS: ClassVar[tuple[str, ...]] = ("composure",)

    ability: str
    points: int
    composure: StoredRoll | None = None
    kept: bool | None = None


@dataclass(frozen=True)
class CheckDetails(_RollDetails, command="check"):
    """``/check`` with a spend: the numbers of ``DIE + SPEND = TOTAL vs DIFFICULTY``, the
    outcome, whether it was an attack."""

    ability: str
    roll: StoredRoll
    success: bool
    attack: bool = False


@dataclass(frozen=True)
class StabilityTestDetails(Details, command="stability test"):
    """``/stability test``: the loss and Difficulty called, the characters called, the
    reason."""

    loss: int
    difficulty: int
    characters: tuple[str, ...] = ()
    reason: str | None = None


@dataclass(frozen=True)
class StabilityRollDetails(_RollDetails, command="stability roll"):
    """A Stability test rolled: the numbers of ``DIE + SPEND = TOTAL vs DIFFICULTY``, the
    outcome, the loss at stake and the Stability lost."""

    roll: StoredRoll
    success: bool
    loss: int = 0
    lost: int = 0


@dataclass(frozen=True)
class StabilityTreatDetails(Details, command="stability treat"):
    """``/stability treat``: the psychoanalyst's name, the points offered and spent, the
    Stability restored, whether it gave lucidity instead (M10)."""

    medic: str
    points: int = 0
    spent: int | None = None
    restored: int = 0
    lucidity: bool = False


@dataclass(frozen=True)
class UndoDetails(Details, command="undo"):
    """An ``/undo``: the id of the entry it reverted and that entry's command."""

    undo_of: int
    reverted_command: str = field(default="", metadata={"key": "command"})
