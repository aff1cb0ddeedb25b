"""The public reply of a change, as a feature makes it and a cog sends it: a cog parses its
options, checks who may act, calls one feature function and sends the ``ChangeReply`` it
returns (``send_reply``: ``bot.features.numbers.send_screened``, which keeps a reply that
carries roll buttons for the keeper)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.features.numbers import Render, send_screened
from bot.interaction.here import Here
from bot.interaction.mentions import PlayerCall
from bot.interaction.sending import RollButtons, send_public
from bot.storage.models import StoredCharacter

__all__ = ["ChangeReply", "send_reply"]


@dataclass(frozen=True)
class ChangeReply:
    """What a change's public reply says and carries: the characters whose numbers it may
    leave out, its embeds for a viewer in a language, whether the announcement channel gets
    a copy, its buttons, the players it calls, the roll buttons it carries (kept once sent)."""

    characters: Sequence[StoredCharacter]
    render: Render
    announce: bool
    view: discord.ui.View | None = None
    call: PlayerCall | None = None
    buttons: RollButtons | None = None


async def send_reply(
    interaction: discord.Interaction[Any], here: Here, reply: ChangeReply | str
) -> None:
    """Send ``reply`` publicly (``send_screened``); a change that moved nothing replies with
    one sentence (``send_public``)."""
    if isinstance(reply, str):
        await send_public(interaction, reply)
        return
    await send_screened(
        interaction,
        here,
        reply.characters,
        reply.render,
        announce=reply.announce,
        view=reply.view,
        call=reply.call,
        buttons=reply.buttons,
    )
