"""Reading and editing a message the bot posted earlier, without a message cache (the roll
buttons and the live tracker): one GET or PATCH of Discord's REST API, paced with the bot's
other background requests (``bot.discord_rest.pacer``), and whether a failure means the
message is gone for good."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_rest.pacer import RestPacer

__all__ = ["GONE_CODES", "edit_message", "is_gone", "message_payload"]

#: Discord's codes for "this message can never be edited by the bot again": unknown channel
#: or message, missing access, another author's message, missing permissions.
GONE_CODES = frozenset({10003, 10008, 50001, 50005, 50013})


def is_gone(error: discord.HTTPException) -> bool:
    """Whether ``error`` means the message (or its channel, or the bot's access) is gone."""
    return error.status in (403, 404) or error.code in GONE_CODES


async def edit_message(
    pacer: RestPacer, channel_id: int, message_id: int, body: dict[str, Any]
) -> None:
    """``PATCH /channels/{channel}/messages/{message}`` with ``body``, pinging nobody."""
    await pacer.request(
        "PATCH",
        f"/channels/{channel_id}/messages/{message_id}",
        channel_id=channel_id,
        body={**body, "allowed_mentions": {"parse": []}},
    )


async def message_payload(pacer: RestPacer, channel_id: int, message_id: int) -> dict[str, Any]:
    """``GET /channels/{channel}/messages/{message}``: the message as Discord sends it."""
    found = await pacer.request(
        "GET", f"/channels/{channel_id}/messages/{message_id}", channel_id=channel_id
    )
    return dict(found) if isinstance(found, dict) else {}
