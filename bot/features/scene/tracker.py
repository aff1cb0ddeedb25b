"""The live tracker (COMMANDS.md, The live tracker; ``/scene tracker``).

One message per server showing every character as ``/scene status`` does, with the time of
its last update. After every committed change of the server (``Storage.on_change``) the
message is edited within 5 s, at most once every 2 s: the changes in between are folded into
the next edit, which reads the state afresh, so the last edit shows the last state. Its
channel and message are stored, so it survives a restart; when the message or its channel
is gone, or the bot may no longer edit it, the tracker stops quietly, for good.

The edits go through the bot's pacer (``bot.discord_rest.pacer``), one piece of work per
server at most (keyed by the server): a burst of changes waits as one edit, the trackers of
every server share the bot's budget of background requests, and an edit Discord refused
with a 429 is made again after its ``retry_after``, showing the state of then. A tracker's
work is urgent: it goes before the sweeps of old roll buttons (issue 24.10), so that it is
current within 5 s whatever they do. No task or lock is kept per server.

A new tracker (``/scene tracker``) shows the state read before it was posted; a change
committed between that read and the moment the tracker is stored (``replace``) was meant
for no tracker, or for the old one, and the new one would miss it until the next change.
The changes are counted (``heard``): the count read before the state is read is given to
``replace``, which edits the new tracker once more when a change of its server came after
it (issue 24).

The embeds are drawn by the cog (``render``), which knows ``/scene status``'s lines.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial

import discord

from bot.discord_rest.message_edits import edit_message, is_gone
from bot.discord_rest.pacer import RestPacer
from bot.i18n import Language, public_language, text
from bot.render.limits import TITLE_LIMIT
from bot.render.sanitize import escape
from bot.storage.fair_lock import Ticket
from bot.storage.interface import StorageEngine, StorageReads
from bot.storage.memory import Lru
from bot.storage.models import TrackerMessage
from bot.storage.trackers import forget_tracker, get_tracker, set_tracker

__all__ = ["EDIT_INTERVAL", "LiveTracker", "Render"]

log = logging.getLogger(__name__)

#: At most one edit of a tracker every this many seconds (COMMANDS.md).
EDIT_INTERVAL = 2.0
#: Servers known to have no tracker, kept so that their changes cost no read.
_NO_TRACKER_MEMORY = 4096
#: Servers whose last change is remembered (its number in the count of changes heard), so
#: that a tracker being posted knows whether one came after its state was read.
_CHANGES_MEMORY = 4096
#: Past this many servers edited lately, the clocks older than ``EDIT_INTERVAL`` (which no
#: longer hold anything back) are forgotten.
_CLOCKS = 256

#: ``render(reader, guild_id, language, updated_at)``: the tracker's embeds, read and drawn
#: (what it shows only: a server's size must not matter).
Render = Callable[[StorageReads, int, Language, datetime], Awaitable[list[discord.Embed]]]
#: ``guild_locale(guild_id)``: the server's Discord locale, when known (its language).
GuildLocale = Callable[[int], str | None]


class LiveTracker:
    """Keeps every server's tracker up to date through the pacer."""

    def __init__(
        self,
        storage: StorageEngine,
        pacer: RestPacer,
        guild_locale: GuildLocale,
        render: Render,
    ) -> None:
        self._storage = storage
        self._pacer = pacer
        self._guild_locale = guild_locale
        self._render = render
        #: Servers with a change their tracker does not show yet.
        self._dirty: set[int] = set()
        #: Old trackers of a server to edit so that they say where the new one is.
        self._moved: dict[int, list[tuple[TrackerMessage, str]]] = {}
        self._last_edit: dict[int, float] = {}
        self._without: Lru[int, bool] = Lru(_NO_TRACKER_MEMORY)
        #: Trackers posted so far: a read that found none is not remembered as "no tracker"
        #: when one was posted while it read (it would hide that one for good).
        self._posted = 0
        #: Changes heard so far, and the number of each server's last one.
        self._heard = 0
        self._last_change: Lru[int, int] = Lru(_CHANGES_MEMORY)
        self._closed = False

    def start(self) -> None:
        """Follow every committed change from now on."""
        self._storage.on_change(self._changed)

    async def close(self) -> None:
        """Stop following changes at once (shutdown must not wait out the 2-s spacing): the
        tracker shows the latest state again with the next change after the restart."""
        self._closed = True

    # --- following changes ------------------------------------------------------------------

    def heard(self) -> int:
        """The count of changes heard so far: read before the state a new tracker shows is
        read, and given to ``replace``."""
        return self._heard

    def _changed(self, guild_id: int, character_ids: tuple[int, ...]) -> None:
        self._heard += 1
        self._last_change.put(guild_id, self._heard)
        if self._closed or guild_id in self._without:
            return
        self._dirty.add(guild_id)
        self._submit(guild_id)

    def _submit(self, guild_id: int) -> None:
        # Not before now: trackers due alike go in the order of their changes.
        now = time.monotonic()
        last = self._last_edit.get(guild_id)
        not_before = now if last is None else max(now, last + EDIT_INTERVAL)
        self._pacer.submit(
            ("tracker", guild_id),
            partial(self._update, guild_id),
            not_before=not_before,
            urgent=True,
        )

    def _edited(self, guild_id: int) -> None:
        """The server's tracker was just edited: the next edit waits ``EDIT_INTERVAL``."""
        now = time.monotonic()
        if len(self._last_edit) >= _CLOCKS:
            cutoff = now - EDIT_INTERVAL
            self._last_edit = {key: at for key, at in self._last_edit.items() if at > cutoff}
        self._last_edit[guild_id] = now

    async def _update(self, guild_id: int) -> None:
        """The server's work, run by the pacer: say where a new tracker is on the old ones,
        then show the state now on the server's tracker. Refused with a 429, what is left
        waits again (``RateLimited`` goes back to the pacer)."""
        moved = self._moved.pop(guild_id, [])
        while moved:
            old, moved_text = moved[0]
            try:
                await self._edit_moved(old, moved_text)
            except BaseException:
                self._moved.setdefault(guild_id, [])[:0] = moved
                raise
            moved.pop(0)
        if guild_id in self._dirty:
            last = self._last_edit.get(guild_id)
            if last is not None and time.monotonic() < last + EDIT_INTERVAL:
                self._submit(guild_id)  # edited lately: its turn comes later
                return
            self._dirty.discard(guild_id)
            try:
                await self.refresh(guild_id)
            except BaseException:
                self._dirty.add(guild_id)  # tried again, reading the state afresh
                raise

    async def refresh(self, guild_id: int) -> None:
        """Edit the server's tracker to show its state now (nothing when it has none)."""
        posted = self._posted
        # Its own turn in the storage's round of servers: under the key of no server, the
        # reads of 200 trackers would wait for one turn a round of 200 servers' commands.
        async with self._storage.read(Ticket(("tracker", guild_id), None)) as reader:
            tracker = await get_tracker(reader, guild_id)
            if tracker is None:
                if posted == self._posted:
                    self._without.put(guild_id, True)
                return
            server = self._storage.tables.server_of(guild_id)  # the tracker's table's
            settings = await reader.get_settings(server)
            language = public_language(settings.language, self._guild_locale(server))
            embeds = await self._render(reader, guild_id, language, datetime.now(UTC))
        named = self._storage.tables.title_of(guild_id)
        if named is not None and embeds and embeds[0].title:
            shown = named or text(language, "table.main_name")
            embeds[0].title = f"{embeds[0].title} · {escape(shown)}"[:TITLE_LIMIT]
        if await self._edit(tracker, {"content": None, "embeds": [e.to_dict() for e in embeds]}):
            # From the end of this edit: the next one reaches Discord 2 s later at least.
            self._edited(guild_id)

    async def _edit(self, tracker: TrackerMessage, body: dict[str, object]) -> bool:
        """PATCH the tracker's message; a tracker that can no longer be edited is forgotten.
        Returns whether the edit went through."""
        try:
            await edit_message(self._pacer, tracker.channel_id, tracker.message_id, body)
        except discord.DiscordServerError:
            raise  # the pacer tries again
        except discord.HTTPException as error:
            if not is_gone(error):
                log.warning(
                    "the live tracker of guild %s was not edited: %s", tracker.guild_id, error
                )
                return False
            log.info(
                "the live tracker of guild %s can no longer be edited (%s): stopped",
                tracker.guild_id,
                error.status,
            )
            async with self._storage.transaction(require_record=False) as tx:
                await forget_tracker(tx, tracker)
            return False
        return True

    # --- a new tracker ----------------------------------------------------------------------

    async def replace(self, tracker: TrackerMessage, moved_text: str, *, heard: int) -> None:
        """Make ``tracker`` (just posted, showing the state read after ``heard()`` was
        ``heard``) the server's; the old one is edited to say it moved (``moved_text``) and
        is no longer followed. A change of the server heard since is shown on the new one."""
        self._posted += 1
        async with self._storage.transaction(require_record=False) as tx:
            old = await set_tracker(tx, tracker)
        self._posted += 1  # a read begun during that transaction may have missed it too
        self._without.forget(tracker.guild_id)
        # Posting is no edit (the contract spaces the edits): a change may show at once.
        if not self._closed and self._changed_since(tracker.guild_id, heard):
            # Its edit went to no tracker (the server had none) or to the old one.
            self._dirty.add(tracker.guild_id)
            self._submit(tracker.guild_id)
        if old is not None and old.message_id != tracker.message_id:
            self._moved.setdefault(tracker.guild_id, []).append((old, moved_text))
            self._pacer.submit(
                ("tracker", tracker.guild_id), partial(self._update, tracker.guild_id), urgent=True
            )

    def _changed_since(self, guild_id: int, heard: int) -> bool:
        """Whether a change of the server was heard after the count was ``heard``."""
        last = self._last_change.get(guild_id)
        if last is None:  # none lately, or forgotten after as many other servers' changes
            return self._heard - heard >= _CHANGES_MEMORY
        return last > heard

    async def _edit_moved(self, old: TrackerMessage, moved_text: str) -> None:
        body = {"content": moved_text, "embeds": []}
        try:
            await edit_message(self._pacer, old.channel_id, old.message_id, body)
        except discord.HTTPException as error:  # gone already: nothing to say there
            log.info("the old tracker of guild %s was not edited: %s", old.guild_id, error)
