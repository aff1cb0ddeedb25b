"""Acknowledging an interaction before Discord's 3 seconds run out; the one module that
touches the storage deadline (the interaction's ``Ticket``), and that every deferral goes
through.

An interaction is deferred when its answer could come late: it was received long ago
(``defer``), it must wait for the storage or a slow ``COMMIT`` (the ticket's ``on_late`` is
``acknowledge``), or it changes many characters at once (``defer_change_of``). It is
deferred publicly or privately as its reply will be (a command marked ``private_reply``
answers privately), and a button's press is acknowledged without a message (its reply
edits the button's message or follows up). Once deferred, the ticket's deadline is cleared:
the interaction has 15 minutes, and its storage calls wait as long as needed.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.interaction.context import SaludInteraction, salud_of

__all__ = [
    "DEFER_ABOVE",
    "DEFER_AFTER",
    "PRIVATE_REPLY",
    "acknowledge",
    "defer",
    "defer_change_of",
    "mark_filled",
    "private_reply",
    "public_placeholder",
]

#: Seconds after its creation (as the gateway estimates it) by which an interaction not yet
#: answered is acknowledged first: the reply needs time to arrive within Discord's 3 s.
DEFER_AFTER = 2.0
#: A change of more characters than this is acknowledged first (``defer_change_of``).
DEFER_ABOVE = 30
#: In a command's ``extras``: its reply is ephemeral, so a deferral must be too.
PRIVATE_REPLY = "salud.private_reply"

CommandT = TypeVar("CommandT", bound=app_commands.Command[Any, Any, Any])


def private_reply(command: CommandT) -> CommandT:
    """Mark a command (put it above ``@app_commands.command``) as one whose reply is
    ephemeral (``/help``, ``/config``, the confirmations): when it must be deferred, it is
    deferred privately."""
    command.extras[PRIVATE_REPLY] = True
    return command


def _replies_privately(interaction: discord.Interaction[Any]) -> bool:
    command = interaction.command
    return command is not None and bool(command.extras.get(PRIVATE_REPLY, False))


async def _acknowledge(interaction: SaludInteraction[Any], *, ephemeral: bool) -> None:
    """Defer the interaction (once, however many callers ask at the same time) and clear its
    storage deadline. Autocompletes cannot be deferred: they keep it."""
    async with interaction.acknowledging:
        if interaction.response.is_done():
            interaction.ticket.deadline = None
            return
        kind = interaction.type
        if kind is discord.InteractionType.application_command:
            interaction.deferred_privately = ephemeral
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        elif kind is discord.InteractionType.component:
            # A button: acknowledged without a message; its reply then edits the button's
            # message or follows up.
            await interaction.response.defer()
        else:
            return
        interaction.ticket.deadline = None


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge now, as the reply will be (a button's press: without a message): before
    work that may take long, or as the ticket's ``on_late`` when the interaction must wait
    past its deadline; its storage calls then wait as long as needed."""
    await _acknowledge(salud_of(interaction), ephemeral=_replies_privately(interaction))


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False) -> None:
    """Acknowledge now when the answer may come late (``DEFER_AFTER`` after its receipt).

    Call it before slow work only after every check that could refuse: an error after a
    public deferral replaces the public "thinking…" (``bot.interaction.tree``).
    """
    received = salud_of(interaction)
    if not received.response.is_done() and received.age() >= DEFER_AFTER:
        await _acknowledge(received, ephemeral=ephemeral)


async def defer_change_of(interaction: discord.Interaction[Any], characters: int) -> None:
    """Acknowledge, publicly, before a change of many characters (it may take longer than
    Discord's 3 seconds on a busy machine), else only when the interaction is already late
    (``defer``). Call it after every check that could refuse."""
    if characters > DEFER_ABOVE:
        await _acknowledge(salud_of(interaction), ephemeral=False)
    else:
        await defer(interaction)


def public_placeholder(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is a public "thinking…" that nothing filled yet:
    an error must not fill it (COMMANDS.md, Errors)."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return False
    received = salud_of(interaction)
    return not received.deferred_privately and not received.placeholder_filled


def mark_filled(interaction: discord.Interaction[Any]) -> None:
    """A followup filled the interaction's placeholder: an error may now follow up."""
    salud_of(interaction).placeholder_filled = True
