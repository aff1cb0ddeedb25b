"""What discord.py keeps of each server: only what slash commands and buttons use.

A bot in 10,000 servers holds every one in memory. With the ``GUILDS`` intent discord.py builds,
for each server, its channels (about 5 KiB for 20 text channels, more than half of what a
server costs it), roles, emojis and stickers. Salud reads none of the channels, emojis or
stickers from that cache: an interaction carries its channel, the member with its role ids and
permissions; announcements go through ``get_partial_messageable``. So ``LeanConnectionState``
drops them from ``GUILD_CREATE`` before discord.py builds the server:

- emojis, stickers and soundboard sounds always;
- channels and threads of the servers that come online at start-up (the READY list): a server
  joined while running keeps them (whatever greets it may look for a channel to post in).

Roles stay: ``Member.guild_permissions`` needs the @everyone role. ``bench/scale.py`` measures
the memory this saves; ``tests/bot/test_gateway.py`` fails if discord.py stops calling the
hook.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.state import AutoShardedConnectionState

from bot.gateway.places import PlaceFollower

__all__ = ["LeanClient", "LeanConnectionState"]

#: Lists of a GUILD_CREATE that Salud never reads, emptied for every server.
ALWAYS_DROPPED = ("emojis", "stickers", "soundboard_sounds")
#: Emptied for the servers that come online at start-up.
DROPPED_AT_START = ("channels", "threads")


class LeanConnectionState(AutoShardedConnectionState[Any]):
    """discord.py's sharded state, building each server from a slimmer ``GUILD_CREATE``.

    The channels' parents it drops are told first to ``places`` (``bot.gateway.places``),
    which also hears every channel and thread event, whether discord.py knows the channel
    or not."""

    places: PlaceFollower | None = None

    def _get_create_guild(self, data: Any) -> discord.Guild:
        if self.places is not None:
            self.places.guild(data)
        slim = dict(data)
        for key in ALWAYS_DROPPED:
            if key in slim:
                slim[key] = []
        # Known already: listed (unavailable) in READY, so coming online, not a new server.
        if self._get_guild(int(data["id"])) is not None:
            for key in DROPPED_AT_START:
                if key in slim:
                    slim[key] = []
        return super()._get_create_guild(slim)

    def parse_channel_create(self, data: Any) -> None:
        if self.places is not None:
            self.places.channel(data)
        super().parse_channel_create(data)

    def parse_channel_update(self, data: Any) -> None:
        if self.places is not None:
            self.places.channel(data)
        super().parse_channel_update(data)

    def parse_channel_delete(self, data: Any) -> None:
        if self.places is not None:
            self.places.deleted(data)
        super().parse_channel_delete(data)

    def parse_thread_create(self, data: Any) -> None:
        if self.places is not None:
            self.places.channel(data)
        super().parse_thread_create(data)

    def parse_thread_update(self, data: Any) -> None:
        if self.places is not None:
            self.places.channel(data)
        super().parse_thread_update(data)

    def parse_thread_delete(self, data: Any) -> None:
        if self.places is not None:
            self.places.deleted(data)
        super().parse_thread_delete(data)


class LeanClient(discord.Client):
    """A client whose state is a ``LeanConnectionState`` (``SaludBot`` inherits it first)."""

    def follow_places(self, follower: PlaceFollower) -> None:
        """Tell ``follower`` every channel's parent (``bot.gateway.places``)."""
        state = self._connection
        if isinstance(state, LeanConnectionState):
            state.places = follower

    def _get_state(self, **options: Any) -> LeanConnectionState:
        """discord.py's sharded state, keeping less of each server."""
        return LeanConnectionState(
            dispatch=self.dispatch,
            handlers=self._handlers,
            hooks=self._hooks,
            http=self.http,
            **options,
        )
