"""The live tracker (COMMANDS.md, The live tracker; ``/scene tracker``).

One message per server showing every character as ``/scene status`` does, with the time of
its last update. After every committed change of the server (``Storage.on_change``) the
message is edited within 5 s, at most once every 2 s: the changes in between are folded into
the next edit, which reads the state afresh, so the last edit shows the last state. Its
channel and message are stored, so it survives a restart; when the message or its channel
is gone, or the bot may no longer edit it, the tracker stops quietly, for good.

The embeds are drawn by the cog (``render``), which knows ``/scene status``'s lines.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

import discord

from bot.i18n import Language, public_language
from bot.interaction.message_edits import edit_message, is_gone
from bot.storage import Storage, StoredCharacter
from bot.storage.memory import Lru
from bot.storage.trackers import TrackerMessage, forget_tracker, get_tracker, set_tracker

__all__ = ["EDIT_INTERVAL", "LiveTracker", "Render"]

log = logging.getLogger(__name__)

#: At most one edit of a tracker every this many seconds (COMMANDS.md).
EDIT_INTERVAL = 2.0
#: Servers known to have no tracker, kept so that their changes cost no read.
_NO_TRACKER_MEMORY = 4096

#: ``render(characters, language, updated_at)``: the tracker's embeds.
Render = Callable[[Sequence[StoredCharacter], Language, datetime], list[discord.Embed]]
#: ``guild_locale(guild_id)``: the server's Discord locale, when known (its language).
GuildLocale = Callable[[int], str | None]


class LiveTracker:
    """Keeps every server's tracker up to date; one task per server with changes pending."""

    def __init__(
        self,
        storage: Storage,
        http: discord.http.HTTPClient,
        guild_locale: GuildLocale,
        render: Render,
    ) -> None:
        self._storage = storage
        self._http = http
        self._guild_locale = guild_locale
        self._render = render
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._last_edit: dict[int, float] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._without: Lru[int, bool] = Lru(_NO_TRACKER_MEMORY)
        self._closed = False

    def start(self) -> None:
        """Follow every committed change from now on."""
        self._storage.on_change(self._changed)

    async def close(self) -> None:
        """Stop following changes at once (shutdown must not wait out the 2-s spacing): the
        tracker shows the latest state again with the next change after the restart."""
        self._closed = True
        tasks = set(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)

    def lock(self, guild_id: int) -> asyncio.Lock:
        """Held while the server's tracker is edited or replaced: never both at once."""
        return self._locks.setdefault(guild_id, asyncio.Lock())

    # --- following changes ------------------------------------------------------------------

    def _changed(self, guild_id: int, character_ids: tuple[int, ...]) -> None:
        if self._closed or guild_id in self._without:
            return
        self._dirty.add(guild_id)
        running = self._tasks.get(guild_id)
        if running is None or running.done():
            task = asyncio.get_running_loop().create_task(self._follow(guild_id))
            self._tasks[guild_id] = task
            task.add_done_callback(lambda done: self._finished(guild_id, done))

    def _finished(self, guild_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(guild_id) is task:
            del self._tasks[guild_id]

    async def _follow(self, guild_id: int) -> None:
        """Edit while changes keep coming, never sooner than ``EDIT_INTERVAL`` after the last."""
        try:
            while guild_id in self._dirty and not self._closed:
                wait = self._last_edit.get(guild_id, 0.0) + EDIT_INTERVAL - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                self._dirty.discard(guild_id)
                await self.refresh(guild_id)
        except Exception:
            log.exception("the live tracker of guild %s could not be updated", guild_id)
        finally:
            if len(self._last_edit) > _NO_TRACKER_MEMORY:  # forget quiet servers' clocks
                cutoff = time.monotonic() - EDIT_INTERVAL
                for key in [k for k, at in self._last_edit.items() if at < cutoff]:
                    del self._last_edit[key]

    async def refresh(self, guild_id: int) -> None:
        """Edit the server's tracker to show its state now (nothing when it has none)."""
        async with self.lock(guild_id):
            async with self._storage.read() as reader:
                tracker = await get_tracker(reader, guild_id)
                if tracker is None:
                    self._without.put(guild_id, True)
                    return
                characters = await reader.list_characters(guild_id)
                settings = await reader.get_settings(guild_id)
            language = public_language(settings.language, self._guild_locale(guild_id))
            embeds = self._render(characters, language, datetime.now(UTC))
            try:
                await self._edit(
                    tracker, {"content": None, "embeds": [e.to_dict() for e in embeds]}
                )
            finally:
                # From the end of this edit: the next one reaches Discord 2 s later at least.
                self._last_edit[guild_id] = time.monotonic()

    async def _edit(self, tracker: TrackerMessage, body: dict[str, object]) -> bool:
        """PATCH the tracker's message; a tracker that can no longer be edited is forgotten.
        Returns whether the edit went through."""
        try:
            await edit_message(self._http, tracker.channel_id, tracker.message_id, body)
        except discord.HTTPException as error:
            if is_gone(error):
                log.info(
                    "the live tracker of guild %s can no longer be edited (%s): stopped",
                    tracker.guild_id,
                    error.status,
                )
                async with self._storage.transaction(require_record=False) as tx:
                    await forget_tracker(tx, tracker)
                return False
            log.warning("the live tracker of guild %s was not edited: %s", tracker.guild_id, error)
            return False
        return True

    # --- a new tracker ----------------------------------------------------------------------

    async def replace(self, tracker: TrackerMessage, moved_text: str) -> None:
        """Make ``tracker`` (just posted) the server's; the old one is edited to say it moved
        (``moved_text``) and is no longer followed."""
        async with self.lock(tracker.guild_id):
            async with self._storage.transaction(require_record=False) as tx:
                old = await set_tracker(tx, tracker)
            self._without.forget(tracker.guild_id)
            self._last_edit[tracker.guild_id] = time.monotonic()
            if old is not None and old.message_id != tracker.message_id:
                await self._edit_moved(old, moved_text)

    async def _edit_moved(self, old: TrackerMessage, moved_text: str) -> None:
        body = {"content": moved_text, "embeds": []}
        try:
            await edit_message(self._http, old.channel_id, old.message_id, body)
        except discord.HTTPException as error:  # gone already: nothing to say there
            log.info("the old tracker of guild %s was not edited: %s", old.guild_id, error)
