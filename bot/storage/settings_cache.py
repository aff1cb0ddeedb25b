"""The ``/config`` of the servers in use, kept in memory.

Every command needs its server's settings (languages, GM role, announcement channel) before
anything else, and reading them was one more round trip to the database thread per command
(issue 6). Only this process writes them, through ``Transaction.update_settings``, and the
transaction forgets the server's entry when it ends (committed or not), so an entry is always
what is committed. The cache is bounded: it holds the servers used most recently, not all the
servers stored.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.storage.models import GuildSettings

__all__ = ["SETTINGS_CACHE_SIZE", "SettingsCache"]

#: Servers kept (a few hundred bytes each).
SETTINGS_CACHE_SIZE = 4096


class SettingsCache:
    """Least-recently-used ``GuildSettings`` by guild id."""

    def __init__(self, size: int = SETTINGS_CACHE_SIZE) -> None:
        self._size = size
        self._items: OrderedDict[int, GuildSettings] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, guild_id: int) -> GuildSettings | None:
        found = self._items.get(guild_id)
        if found is not None:
            self._items.move_to_end(guild_id)
        return found

    def put(self, settings: GuildSettings) -> None:
        self._items[settings.guild_id] = settings
        self._items.move_to_end(settings.guild_id)
        while len(self._items) > self._size:
            self._items.popitem(last=False)

    def forget(self, guild_id: int) -> None:
        self._items.pop(guild_id, None)
