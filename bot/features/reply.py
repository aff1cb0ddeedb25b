"""The public reply of a change, as a feature makes it and a cog sends it: a cog parses its
options, checks who may act, calls one feature function and sends the ``Reply`` it returns
(``send_reply``). A ``ChangeReply`` goes through ``bot.features.numbers.send_screened``,
which keeps a reply that carries roll buttons for the keeper; a ``BriefReply`` (a change
that moves no state) through ``send_brief``; a change that moved nothing says one sentence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.features.numbers import Render, send_numbers, send_screened
from bot.interaction.here import Here
from bot.interaction.mentions import PlayerCall
from bot.interaction.sending import RollButtons, send_brief, send_public
from bot.storage.models import StoredCharacter

__all__ = ["BriefReply", "ChangeReply", "Reply", "send_reply"]


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


@dataclass(frozen=True)
class BriefReply:
    """The public reply of a change that moves no state (``bot.render.brief``): its one
    embed and buttons; ``numbers``: the characters whose numbers its member is then sent
    privately, if they may see them (``send_numbers``)."""

    embed: discord.Embed
    view: discord.ui.View | None = None
    numbers: Sequence[StoredCharacter] = ()


#: What a feature function returns for its cog to send: one sentence when nothing moved.
Reply = ChangeReply | BriefReply | str


async def send_reply(here: Here, reply: Reply) -> None:
    """Send ``reply`` publicly: a change's (``send_screened``), a brief one (``send_brief``,
    then the numbers it names), or one sentence (``send_public``)."""
    if isinstance(reply, str):
        await send_public(here.interaction, reply)
        return
    if isinstance(reply, BriefReply):
        await send_brief(here, reply.embed, view=reply.view)
        if reply.numbers:
            await send_numbers(here, reply.numbers)
        return
    await send_screened(
        here,
        reply.characters,
        reply.render,
        announce=reply.announce,
        view=reply.view,
        call=reply.call,
        buttons=reply.buttons,
    )
