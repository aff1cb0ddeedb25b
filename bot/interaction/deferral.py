"""Acknowledging an interaction before Discord's 3 seconds run out, and what the rest of the
bot must know about it (an ephemeral deferral; a public "thinking…" nothing filled yet)."""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.storage import current_ticket

__all__ = [
    "DEFER_ABOVE",
    "DEFER_AFTER",
    "acknowledged",
    "defer",
    "defer_change_of",
    "mark_filled",
    "public_placeholder",
]

#: Seconds after which an answer risks Discord's 3-second limit: ``defer`` first.
DEFER_AFTER = 2.0

#: A change of more characters than this is acknowledged first (``defer_change_of``).
DEFER_ABOVE = 30

#: In ``interaction.extras``: the deferral was ephemeral / a followup filled the placeholder.
_EPHEMERAL_DEFERRAL = "salud.ephemeral_deferral"
_PLACEHOLDER_FILLED = "salud.placeholder_filled"


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False) -> None:
    """Acknowledge now when the answer may come late (more than 2 s after the click).

    Call it before slow work only after every check that could refuse: an error after a
    public deferral fills the public "thinking…" message.
    """
    if interaction.response.is_done():
        return
    age = time.time() - interaction.created_at.timestamp()
    if age >= DEFER_AFTER:
        acknowledged()
        interaction.extras[_EPHEMERAL_DEFERRAL] = ephemeral
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def defer_change_of(interaction: discord.Interaction[Any], characters: int) -> None:
    """Acknowledge, publicly, before a change of many characters (it may take longer than
    Discord's 3 seconds on a busy machine), else only when the interaction is already late
    (``defer``). Call it after every check that could refuse."""
    if characters > DEFER_ABOVE and not interaction.response.is_done():
        acknowledged()
        interaction.extras[_EPHEMERAL_DEFERRAL] = False
        await interaction.response.defer(thinking=True)
    else:
        await defer(interaction)


def acknowledged() -> None:
    """A deferred interaction may take its time: its storage calls no longer give up at
    Discord's 3 seconds (``bot.storage.fair_lock``)."""
    ticket = current_ticket.get()
    if ticket is not None:
        ticket.deadline = None


def public_placeholder(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is a public "thinking…" that nothing filled yet:
    an error must not fill it (COMMANDS.md, Errors)."""
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get(_EPHEMERAL_DEFERRAL, False)
        and not interaction.extras.get(_PLACEHOLDER_FILLED, False)
    )


def mark_filled(interaction: discord.Interaction[Any]) -> None:
    """A followup filled the interaction's placeholder: an error may now follow up."""
    interaction.extras[_PLACEHOLDER_FILLED] = True
