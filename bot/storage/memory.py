"""What the storage keeps in memory to spare a round trip to the database thread (issue 6),
bounded so that it holds what is in use, never every server stored.

- The ``/config`` of the servers in use: every command needs its server's settings first.
  Only this process writes them, through ``Transaction.update_settings``, and the transaction
  forgets the server's entry when it ends (committed or not), so an entry is always what is
  committed.
- The interactions this process applied lately, to refuse a repeated one. Discord may deliver
  an interaction again when the gateway resumes a session (never to a new session, so never
  across a restart). The history's UNIQUE index on ``interaction_id`` stays the guarantee: a
  repeat this memory misses is refused by ``record`` (``AlreadyApplied``) and rolled back.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from bot.storage.models import GuildSettings

__all__ = [
    "RECENT_INTERACTIONS",
    "SETTINGS_CACHE_SIZE",
    "Lru",
    "RecentInteractions",
    "SettingsCache",
]

#: Servers whose settings are kept (a few hundred bytes each).
SETTINGS_CACHE_SIZE = 4096
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
