"""A background stream of the events a busy Discord sends: what every joined server costs a bot.

People chat, type, react, come online and change roles in the servers the bot is in, whether
or not anyone uses it. Discord sends each of these events only to a session that asked for
its intent (``sharding.EVENT_INTENTS``), so a bot with the ``GUILDS`` intent alone never sees
them; one with ``Intents.default()`` parses, caches and dispatches the messages, typing and
reactions. ``EventStream`` sends them at a set rate, round-robin over the kinds and the servers,
through the fake's ordinary dispatch (shard routing and intent filter included).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .ids import iso_now, snowflake
from .models import member_fields, user_payload

if TYPE_CHECKING:
    from .models import FakeChannel, FakeGuild
    from .server import FakeDiscord

__all__ = ["STREAM_EVENTS", "EventStream"]

#: The kinds sent, in turn.
STREAM_EVENTS = (
    "MESSAGE_CREATE",
    "TYPING_START",
    "MESSAGE_REACTION_ADD",
    "PRESENCE_UPDATE",
    "GUILD_MEMBER_UPDATE",
)
#: How often the stream wakes up to send what is due.
TICK_SECONDS = 0.01
#: People who chat in every server (their ids are shared, as people are in many servers).
USERS = 50


class EventStream:
    """``rate`` events per second across ``guilds`` (default: every server of the fake)."""

    def __init__(
        self, fake: FakeDiscord, rate: float, guilds: Sequence[FakeGuild] | None = None
    ) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.fake = fake
        self.rate = rate
        self._guilds = list(guilds) if guilds is not None else None
        self._users = [user_payload(snowflake(), f"Chatter {n}") for n in range(USERS)]
        self._joined = iso_now()
        self.sent = 0  # events handed to the dispatch (delivered or filtered out by intent)
        self._sending = asyncio.Event()  # set, then cleared, after each tick that sent some
        self._task: asyncio.Task[None] | None = None
        self._builders: dict[str, Callable[[FakeGuild, FakeChannel, dict[str, Any]], Any]] = {
            "MESSAGE_CREATE": self._message,
            "TYPING_START": self._typing,
            "MESSAGE_REACTION_ADD": self._reaction,
            "PRESENCE_UPDATE": self._presence,
            "GUILD_MEMBER_UPDATE": self._member_update,
        }

    # --- running ----------------------------------------------------------------------------
    def start(self) -> None:
        """Starts sending in the background (on the running loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="fake-stream")

    async def stop(self) -> None:
        """Stops sending."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def wait_sent(self, count: int, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Waits until ``count`` events were sent (AssertionError after ``timeout`` s)."""
        try:
            async with asyncio.timeout(timeout):
                while self.sent < count:
                    await self._sending.wait()
        except TimeoutError:
            raise AssertionError(f"{self.sent} of {count} events sent in {timeout} s") from None

    async def __aenter__(self) -> EventStream:
        self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def _run(self) -> None:
        kinds = itertools.cycle(STREAM_EVENTS)
        users = itertools.cycle(self._users)
        guilds = self._guilds if self._guilds is not None else list(self.fake.guilds.values())
        if not guilds:
            return
        places = itertools.cycle(guilds)
        started = time.monotonic()
        while True:
            due = int((time.monotonic() - started) * self.rate) - self.sent
            for _ in range(max(0, due)):
                guild = next(places)
                channel = next(iter(guild.channels.values()))
                event = next(kinds)
                self.fake._dispatch(event, self._builders[event](guild, channel, next(users)))
                self.sent += 1
            if due > 0:
                self._sending.set()
                self._sending.clear()
            await asyncio.sleep(TICK_SECONDS)  # the stream's own pace

    # --- payloads (as Discord sends them to a bot without the message content intent) -------
    def _member(self, user: dict[str, Any], *, with_user: bool = True) -> dict[str, Any]:
        member = member_fields([], self._joined)
        if with_user:
            member["user"] = user
        return member

    def _message(
        self, guild: FakeGuild, channel: FakeChannel, user: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "id": snowflake(),
            "channel_id": channel.id,
            "guild_id": guild.id,
            "author": user,
            "member": self._member(user, with_user=False),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
        }

    def _typing(
        self, guild: FakeGuild, channel: FakeChannel, user: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "channel_id": channel.id,
            "guild_id": guild.id,
            "user_id": user["id"],
            "timestamp": int(time.time()),
            "member": self._member(user),
        }

    def _reaction(
        self, guild: FakeGuild, channel: FakeChannel, user: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "user_id": user["id"],
            "channel_id": channel.id,
            "message_id": snowflake(),
            "guild_id": guild.id,
            "member": self._member(user),
            "emoji": {"id": None, "name": "\N{THUMBS UP SIGN}"},
            "burst": False,
            "burst_colors": [],
            "type": 0,
        }

    def _presence(
        self, guild: FakeGuild, channel: FakeChannel, user: dict[str, Any]
    ) -> dict[str, Any]:
        return {
            "user": {"id": user["id"]},
            "guild_id": guild.id,
            "status": "online",
            "activities": [],
            "client_status": {"desktop": "online"},
        }

    def _member_update(
        self, guild: FakeGuild, channel: FakeChannel, user: dict[str, Any]
    ) -> dict[str, Any]:
        return {**self._member(user), "guild_id": guild.id}
