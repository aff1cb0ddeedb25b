"""An interaction answered with one request by its id and token (``answer_raw``), without
building anything discord.py would parse: for the odd interactions the gateway tells apart
before discord.py sees them (``bot.gateway.odd_interactions``)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord.webhook.async_ import async_context, interaction_response_params

__all__ = ["Answer", "answer_raw"]

#: How an odd interaction is answered: a command with ``error.malformed_interaction``, a press
#: with the stale button's sentence, an autocomplete with no choices.
Answer = Literal["command", "press", "autocomplete"]


async def answer_raw(
    client: discord.Client, data: dict[str, Any], answer: Answer, text: str
) -> None:
    """Answer an odd interaction with one request: ``text`` ephemeral (no mentions), or no
    choices for an autocomplete."""
    if answer == "autocomplete":
        params = interaction_response_params(8, {"choices": []})
    else:
        params = interaction_response_params(
            4, {"content": text, "flags": 1 << 6, "allowed_mentions": {"parse": []}}
        )
    http = client.http
    await async_context.get().create_interaction_response(
        int(data["id"]),
        str(data["token"]),
        session=http._HTTPClient__session,  # type: ignore[attr-defined]  # as discord.py does
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=params,
    )
