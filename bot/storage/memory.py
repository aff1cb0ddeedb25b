"""What the storage keeps in memory to spare a round trip to the database thread (issue 6),
bounded so that it holds what is in use, never every server stored.

- The ``/config`` of the servers in use: every command needs its server's settings first.
  Only this process writes them, through ``Transaction.update_settings``, and the transaction
  forgets the server's entry when it ends (committed or not), so an entry is always what is
  committed.
- The names of the characters of the servers in use (``NameIndex``): every command with a
  character option resolves the typed name against them, and autocomplete ranks them on
  every keystroke. Read with one query per server, and forgotten for a server by every
  transaction that creates, deletes, renames a character, changes its gender, or restores
  snapshots (``/undo``: names, owners, genders come back) there, when it ends (committed or
  not). A server lives on one shard, hence in one process, so no other process writes them.
- The interactions this process applied lately, to refuse a repeated one. Discord may deliver
  an interaction again when the gateway resumes a session (never to a new session, so never
  across a restart). The history's UNIQUE index on ``interaction_id`` stays the guarantee: a
  repeat this memory misses is refused by ``record`` (``AlreadyApplied``) and rolled back.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from bot.storage.models import GuildSettings, LightCharacter

__all__ = [
    "NAME_INDEX_SIZE",
    "RECENT_INTERACTIONS",
    "SETTINGS_CACHE_SIZE",
    "Lru",
    "NameIndex",
    "RecentInteractions",
    "ServerNames",
    "SettingsCache",
]

#: Servers whose settings are kept (a few hundred bytes each).
SETTINGS_CACHE_SIZE = 4096
#: Servers whose character names are kept (about a hundred bytes per character).
NAME_INDEX_SIZE = 1024
#: Interaction ids remembered (tens of bytes each); far more than a resumed session replays.
RECENT_INTERACTIONS = 20_000

K = TypeVar("K")
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A mapping of at most ``size`` items; the least recently used goes first."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: K) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        found = self._items.get(key)
        if found is not None:
            self._items.move_to_end(key)
        return found

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def forget(self, key: K) -> None:
        self._items.pop(key, None)


class SettingsCache(Lru[int, GuildSettings]):
    """``GuildSettings`` by guild id."""

    def __init__(self, size: int = SETTINGS_CACHE_SIZE) -> None:
        super().__init__(size)


class RecentInteractions(Lru[int, bool]):
    """The ids of the interactions whose change this process committed lately."""

    def __init__(self, size: int = RECENT_INTERACTIONS) -> None:
        super().__init__(size)

    def add(self, interaction_id: int) -> None:
        self.put(interaction_id, True)


@dataclass(frozen=True)
class ServerNames:
    """A server's characters as name matching needs them, by stored name key then id."""

    guild_id: int
    characters: tuple[LightCharacter, ...]
    #: The stored ``name_key`` of each character, in ``characters`` order.
    keys: tuple[str, ...]
    _by_key: dict[str, LightCharacter] = field(init=False)

    def __post_init__(self) -> None:
        by_key: dict[str, LightCharacter] = {}
        for key, character in zip(self.keys, self.characters, strict=True):
            by_key.setdefault(key, character)
        object.__setattr__(self, "_by_key", by_key)

    @classmethod
    def of(cls, guild_id: int, rows: Sequence[tuple[LightCharacter, str]]) -> ServerNames:
        return cls(guild_id, tuple(c for c, _ in rows), tuple(key for _, key in rows))

    def with_key(self, key: str) -> LightCharacter | None:
        """The character whose stored name key is ``key``."""
        return self._by_key.get(key)

    def owned_by(self, owner_id: int) -> list[LightCharacter]:
        """The owner's characters, by name."""
        return [c for c in self.characters if c.owner_id == owner_id]


class NameIndex(Lru[int, ServerNames]):
    """``ServerNames`` by guild id."""

    def __init__(self, size: int = NAME_INDEX_SIZE) -> None:
        super().__init__(size)
