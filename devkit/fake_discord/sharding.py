"""How Discord's gateway splits servers between shards and filters events by intent.

The rules the fake applies, as Discord documents them (Gateway → Sharding, Intents):

- ``GET /gateway/bot`` recommends one shard per 1,000 servers (at least one);
- a server belongs to shard ``(guild_id >> 22) % shard_count``; DMs go to shard 0;
- IDENTIFY with a shard id not below the count is closed with 4010 (invalid shard), and a
  shard that would carry more than 2,500 servers with 4011 (sharding required);
- an event is sent only to a session that asked for its intent.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from typing import Any

from .ids import DISCORD_EPOCH_MS

__all__ = [
    "CLOSE_INVALID_SHARD",
    "CLOSE_SHARDING_REQUIRED",
    "EVENT_INTENTS",
    "GUILDS_PER_RECOMMENDED_SHARD",
    "INTENTS",
    "MAX_GUILDS_PER_SHARD",
    "guild_of",
    "guild_snowflake",
    "recommended_shards",
    "shard_of",
    "wanted",
]

GUILDS_PER_RECOMMENDED_SHARD = 1_000
MAX_GUILDS_PER_SHARD = 2_500
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011

#: Intent bits (Discord's Gateway Intents table).
INTENTS = {
    "GUILDS": 1 << 0,
    "GUILD_MEMBERS": 1 << 1,
    "GUILD_PRESENCES": 1 << 8,
    "GUILD_MESSAGES": 1 << 9,
    "GUILD_MESSAGE_REACTIONS": 1 << 10,
    "GUILD_MESSAGE_TYPING": 1 << 11,
}

#: The intent each event needs; events not listed (READY, INTERACTION_CREATE…) always go.
EVENT_INTENTS: Mapping[str, int] = {
    **dict.fromkeys(
        (
            "GUILD_CREATE",
            "GUILD_UPDATE",
            "GUILD_DELETE",
            "GUILD_ROLE_CREATE",
            "GUILD_ROLE_UPDATE",
            "GUILD_ROLE_DELETE",
            "CHANNEL_CREATE",
            "CHANNEL_UPDATE",
            "CHANNEL_DELETE",
        ),
        INTENTS["GUILDS"],
    ),
    **dict.fromkeys(
        ("GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"),
        INTENTS["GUILD_MEMBERS"],
    ),
    "PRESENCE_UPDATE": INTENTS["GUILD_PRESENCES"],
    **dict.fromkeys(
        ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"), INTENTS["GUILD_MESSAGES"]
    ),
    "MESSAGE_REACTION_ADD": INTENTS["GUILD_MESSAGE_REACTIONS"],
    "TYPING_START": INTENTS["GUILD_MESSAGE_TYPING"],
}

#: Events whose ``id`` (not ``guild_id``) is the server.
_GUILD_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})


def recommended_shards(guilds: int) -> int:
    """What ``/gateway/bot`` answers for a bot in ``guilds`` servers."""
    return max(1, -(-guilds // GUILDS_PER_RECOMMENDED_SHARD))


def shard_of(guild_id: int | str, shard_count: int) -> int:
    """The shard that carries a server."""
    return (int(guild_id) >> 22) % shard_count


def guild_of(event: str, data: Mapping[str, Any]) -> str | None:
    """The server an event belongs to (None: not a server's, so shard 0's)."""
    value = data.get("id") if event in _GUILD_EVENTS else data.get("guild_id")
    return None if value is None else str(value)


def wanted(event: str, intents: int) -> bool:
    """Whether a session with these intents receives the event."""
    needed = EVENT_INTENTS.get(event)
    return needed is None or bool(intents & needed)


_guild_counter = itertools.count(1)
_last_ms = 0


def guild_snowflake() -> str:
    """A server id one millisecond after the last one at least: real servers were created
    at different times, so their ids spread over the shards (ids made in the same
    millisecond would all land on one shard)."""
    global _last_ms
    _last_ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, _last_ms + 1)
    # The top increment bit set: never equal to an id of ids.snowflake() (whose counter
    # would need two million ids to get there).
    return str((_last_ms << 22) | 0x200000 | (next(_guild_counter) & 0x1FFFFF))
