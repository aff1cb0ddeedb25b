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


def _told(parser: str, tell: str) -> Any:
    """discord.py's parser named ``parser``, run after the state's ``places`` (if it has
    one) has been told the event's data by its method named ``tell``. discord.py finds its
    parsers by their ``parse_…`` names when the state is built, so each is an attribute of
    the class (typed ``Any``: it overrides a method whose event type it passes on as it
    came)."""
    applied = getattr(AutoShardedConnectionState, parser)

    def parse(state: LeanConnectionState, data: Any) -> None:
        if state.places is not None:
            getattr(state.places, tell)(data)
        applied(state, data)

    parse.__name__ = parse.__qualname__ = parser
    return parse


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

    # Every channel and thread event is told to ``places`` before discord.py applies it.
    parse_channel_create = _told("parse_channel_create", "channel")
    parse_channel_update = _told("parse_channel_update", "channel")
    parse_channel_delete = _told("parse_channel_delete", "deleted")
    parse_thread_create = _told("parse_thread_create", "channel")
    parse_thread_update = _told("parse_thread_update", "channel")
    parse_thread_delete = _told("parse_thread_delete", "deleted")


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
