"""The channels the bot's background requests must not ask for now (issue 24.10): a
route's bucket that answered 429, or that Discord said is empty, until it resets; and a
channel that answered 403, for ``REFUSAL_MEMORY`` seconds. Each request to one of them
would be one more invalid request, which Discord counts toward its ban
(``bot.discord_rest.invalid_requests``). The pacer (``bot.discord_rest.pacer``) checks
``check`` before every request; the keepers ask ``refused`` before keeping a message."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import discord

__all__ = ["REFUSAL_MEMORY", "ChannelHolds", "RateLimited"]

#: How long a channel that answered 403 gets no background request.
REFUSAL_MEMORY = 3600.0
#: Channels held or refused, at most each (the oldest are forgotten first).
_HOLDS = 1024
_REFUSALS = 4096


class RateLimited(Exception):
    """Discord answered 429 (or said the channel's bucket is empty): try again after
    ``retry_after`` seconds."""

    def __init__(self, retry_after: float, *, is_global: bool = False) -> None:
        super().__init__(f"rate limited for {retry_after:.2f} s{' (global)' if is_global else ''}")
        self.retry_after = retry_after
        self.is_global = is_global


@dataclass(frozen=True)
class _Remembered:
    """What ``discord.Forbidden`` reads of a response, for a refusal remembered."""

    status: int = 403
    reason: str = "Forbidden (remembered)"


_REMEMBERED_REFUSAL: Any = _Remembered()


class ChannelHolds:
    """Channels held (their bucket) and refused (403), each until when."""

    def __init__(self) -> None:
        self._holds: dict[int, float] = {}
        self._refused: dict[int, float] = {}

    def check(self, channel_id: int) -> None:
        """Raise, without asking Discord, for a channel held (``RateLimited``) or refused
        (``discord.Forbidden``)."""
        held = self._holds.get(channel_id)
        if held is not None:
            if held > time.monotonic():
                raise RateLimited(held - time.monotonic())
            del self._holds[channel_id]
        if self.refused(channel_id):
            raise discord.Forbidden(_REMEMBERED_REFUSAL, {"code": 50001, "message": "refused"})

    def hold(self, channel_id: int, seconds: float) -> None:
        """No request to the channel for ``seconds`` (the longest hold wins)."""
        if seconds <= 0:
            return
        if len(self._holds) >= _HOLDS:
            now = time.monotonic()
            self._holds = {key: at for key, at in self._holds.items() if at > now}
            if len(self._holds) >= _HOLDS:
                self._holds.pop(next(iter(self._holds)))
        until = time.monotonic() + seconds
        self._holds[channel_id] = max(until, self._holds.get(channel_id, 0.0))

    def refuse(self, channel_id: int) -> None:
        """The channel answered 403: no request there for ``REFUSAL_MEMORY`` seconds."""
        if len(self._refused) >= _REFUSALS:
            self._refused.pop(next(iter(self._refused)))
        self._refused.pop(channel_id, None)
        self._refused[channel_id] = time.monotonic() + REFUSAL_MEMORY

    def refused(self, channel_id: int) -> bool:
        """Whether the channel answered 403 lately."""
        until = self._refused.get(channel_id)
        if until is None:
            return False
        if until > time.monotonic():
            return True
        del self._refused[channel_id]
        return False
