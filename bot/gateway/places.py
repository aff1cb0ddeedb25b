"""Where the channels are: what the gateway says of categories, channels, forums and threads,
kept in the storage's ``TableDirectory`` so that a command's table is found without a trip
to Discord or to the database (``Here.of``).

An interaction carries its channel and that channel's parent (a thread's channel, a
channel's category); a thread in a channel in a category needs one step more, which the
GUILDS intent's events give: ``GUILD_CREATE`` lists the channels and threads, and
``CHANNEL_CREATE|UPDATE|DELETE`` and ``THREAD_CREATE|UPDATE|DELETE`` follow them (a channel
moved to another category is followed). A bound place deleted in Discord unbinds itself.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bot.storage.interface import StorageEngine

__all__ = ["PlaceFollower"]

log = logging.getLogger(__name__)


def _snowflake(value: Any) -> int | None:
    return int(value) if isinstance(value, str | int) and str(value).isdigit() else None


class PlaceFollower:
    """Follows the channels' parents, and unbinds a bound place that Discord deleted."""

    def __init__(self, storage: StorageEngine) -> None:
        self._storage = storage
        self._tasks: set[asyncio.Task[None]] = set()

    def guild(self, data: Any) -> None:
        """A ``GUILD_CREATE``: every channel and thread with a parent."""
        if not isinstance(data, dict):
            return
        for key in ("channels", "threads"):
            for channel in data.get(key) or []:
                self.channel(channel)

    def channel(self, data: Any) -> None:
        """A channel or thread created or updated: its parent, as it is now."""
        if not isinstance(data, dict):
            return
        place = _snowflake(data.get("id"))
        if place is not None:
            self._storage.tables.learn_parent(place, _snowflake(data.get("parent_id")))

    def deleted(self, data: Any) -> None:
        """A channel or thread deleted: forgotten, and unbound if it was bound."""
        if not isinstance(data, dict):
            return
        place = _snowflake(data.get("id"))
        if place is None:
            return
        tables = self._storage.tables
        tables.forget_place(place)
        if tables.bound_table_id(place) is None:
            return
        tables.unbind(place)
        task = asyncio.get_running_loop().create_task(self._unbind(place))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _unbind(self, place: int) -> None:
        try:
            async with self._storage.transaction(require_record=False) as tx:
                tx.tables.unbind(place)
        except Exception:
            log.exception("could not unbind the deleted place %s", place)
