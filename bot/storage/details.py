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
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import (
    Any,
    ClassVar,
    Literal,
    Self,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

__all__ = [
    "AbilityRemoveDetails",
    "AbilitySetDetails",
    "CharacterCreateDetails",
    "CharacterDeleteDetails",
    "CharacterRenameDetails",
    "CharacterSetDetails",
    "CheckDetails",
    "ConsciousDetails",
    "Details",
    "FirstAidDetails",
    "GenderChoice",
    "HurtDetails",
    "HurtTarget",
    "RefreshDetails",
    "RestDetails",
    "SceneNewDetails",
    "SpendDetails",
    "TimeDetails",
    "UndoDetails",
    "UnknownDetails",
    "check_fields",
    "details_class",
    "details_classes",
    "details_of",
]

GenderChoice = Literal["feminine", "masculine", "none"]
T = TypeVar("T")


class Unreadable(ValueError):
    """Stored details that do not read as their class (a required field missing or of
    another type)."""


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
        return _dump_fields(self)

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        """These details from what was stored; ``Unreadable`` when they do not read."""
        return _read_fields(cls, stored)


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


# --- reading and writing fields by their types -----------------------------------------------


def _key(item: dataclasses.Field[Any]) -> str:
    return str(item.metadata.get("key", item.name))


def _dump(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _dump_fields(value)
    if isinstance(value, tuple):
        return [_dump(item) for item in value]
    return value


def _dump_fields(value: Any) -> dict[str, Any]:
    return {
        _key(item): _dump(getattr(value, item.name))
        for item in dataclasses.fields(value)
        if getattr(value, item.name) is not None
    }


def _read_value(kind: Any, value: Any) -> Any:
    """``value`` (parsed JSON) as ``kind``; ``Unreadable`` when it is not one."""
    origin = get_origin(kind)
    if origin is Union or origin is types.UnionType:
        options = get_args(kind)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _read_value(option, value)
            except Unreadable:
                continue
        raise Unreadable(f"{value!r} is none of {kind}")
    if origin is Literal:
        if value in get_args(kind) and not isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not one of {get_args(kind)}")
    if origin is tuple:
        item_kind = get_args(kind)[0]
        if not isinstance(value, list | tuple):
            raise Unreadable(f"{value!r} is not a list")
        return tuple(_read_value(item_kind, item) for item in value)
    if kind is bool:
        if isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not true or false")
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise Unreadable(f"{value!r} is not a whole number")
    if kind is str:
        if isinstance(value, str):
            return value
        raise Unreadable(f"{value!r} is not text")
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, Mapping):
            raise Unreadable(f"{value!r} is not an object")
        return _read_fields(kind, value)
    raise TypeError(f"details cannot hold a field of type {kind!r}")


def check_fields(cls: type[Any]) -> None:
    """Raise ``TypeError`` unless every field of ``cls`` has a type ``read`` knows (a test
    asks it of every registered class, so that a new one cannot fail at its first read)."""
    hints = get_type_hints(cls)
    for item in dataclasses.fields(cls):
        _check_kind(hints[item.name])


def _check_kind(kind: Any) -> None:
    origin = get_origin(kind)
    if origin is Union or origin is types.UnionType:
        for option in get_args(kind):
            if option is not type(None):
                _check_kind(option)
    elif origin is tuple:
        if len(get_args(kind)) != 2 or get_args(kind)[1] is not Ellipsis:
            raise TypeError(f"details hold tuples as tuple[X, ...], not {kind!r}")
        _check_kind(get_args(kind)[0])
    elif isinstance(kind, type) and dataclasses.is_dataclass(kind):
        check_fields(kind)
    elif origin is not Literal and kind not in (bool, int, str):
        raise TypeError(f"details cannot hold a field of type {kind!r}")


def _read_fields(cls: type[T], stored: Mapping[str, Any]) -> T:
    hints = get_type_hints(cls)
    values: dict[str, Any] = {}
    for item in dataclasses.fields(cls):  # type: ignore[arg-type]
        has_default = (
            item.default is not dataclasses.MISSING
            or item.default_factory is not dataclasses.MISSING
        )
        key = _key(item)
        if key in stored:
            try:
                values[item.name] = _read_value(hints[item.name], stored[key])
                continue
            except Unreadable:
                if not has_default:
                    raise
        elif not has_default:
            raise Unreadable(f"{cls.__name__} needs {key!r}")
    return cls(**values)


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
            targets = _read_value(tuple[HurtTarget, ...], stored["targets"])
            if not targets:
                raise Unreadable("a /hurt with no target")
        else:  # one target, flat
            targets = (_read_fields(HurtTarget, stored),)
        return cls(
            amount=shown, targets=targets, reason=reason if isinstance(reason, str) else None
        )


@dataclass(frozen=True)
class ConsciousDetails(Details, command="conscious"):
    """A Consciousness roll: ``DIE + SPEND = TOTAL vs DIFFICULTY`` and whether it succeeded."""

    roll: str
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

    @classmethod
    def read(cls, stored: Mapping[str, Any]) -> Self:
        read = _read_fields(cls, stored)
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
        return _read_fields(cls, stored)


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
class SpendDetails(Details, command="spend"):
    """``/spend``: the ability and the points spent."""

    ability: str
    points: int


@dataclass(frozen=True)
class CheckDetails(Details, command="check"):
    """``/check`` with a spend: ``DIE + SPEND = TOTAL vs DIFFICULTY``, the outcome, whether it
    was an attack."""

    ability: str
    roll: str
    success: bool
    attack: bool = False


@dataclass(frozen=True)
class UndoDetails(Details, command="undo"):
    """An ``/undo``: the id of the entry it reverted and that entry's command."""

    undo_of: int
    reverted_command: str = field(default="", metadata={"key": "command"})
