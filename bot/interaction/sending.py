"""Sending replies: ephemeral or public, as an answer or a followup, a button's message
edited, the public reply of a change with its copy in the announcement channel, and the
reply that carries roll buttons kept for the keeper to disable them in time."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.interaction.context import KeptMessage, SaludInteraction
from bot.interaction.deferral import mark_filled, public_placeholder
from bot.interaction.here import Here
from bot.interaction.mentions import PlayerCall
from bot.storage.models import RollKind

__all__ = [
    "NO_MENTIONS",
    "RollButtons",
    "keep_roll_buttons",
    "send_brief",
    "send_change",
    "send_private",
    "send_public",
    "update_message",
]

log = logging.getLogger(__name__)

#: Every message is sent with this: text typed by users (``@everyone`` as a name) pings nobody.
NO_MENTIONS = discord.AllowedMentions.none()


#: Discord's answer to a second response to one interaction.
ALREADY_ACKNOWLEDGED = 40060


async def _placeholder_waits(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is a deferral's "thinking…" nobody filled yet."""
    try:
        original = await interaction.original_response()
    except discord.HTTPException:
        return False
    return original.flags.loading


async def _send(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View | None,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> int | None:
    """Answer the interaction, or follow up when it was already answered or deferred;
    returns the id of the message sent (None when Discord did not say)."""
    kwargs: dict[str, Any] = {
        "content": content,
        "embeds": list(embeds),
        "ephemeral": ephemeral,
        "allowed_mentions": allowed_mentions,
    }
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        sent = await interaction.followup.send(wait=True, **kwargs)
        mark_filled(interaction)
        message_id: int | None = sent.id
    else:
        try:
            response = await interaction.response.send_message(**kwargs)
            message_id = response.message_id
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED or not await _placeholder_waits(interaction):
                raise
            # Another process has it too (two sessions of one shard) and deferred it while
            # this one applied the change: this reply fills that process's "thinking…".
            sent = await interaction.followup.send(wait=True, **kwargs)
            message_id = sent.id
    if view is not None and not ephemeral and message_id is not None:
        _note_components(interaction, message_id, view)
    return message_id


def _note_components(
    interaction: discord.Interaction[Any], message_id: int, view: discord.ui.View
) -> None:
    """Keep what a public message with buttons carried, for its later edits."""
    if isinstance(interaction, SaludInteraction):
        interaction.sent_components[message_id] = view.to_components()


async def send_private(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
) -> None:
    """An ephemeral reply (a followup when the response was already sent or deferred).

    After a public deferral nothing filled yet (a busy machine acknowledged the command
    before its reply was known), the first followup would fill that public "thinking…" for
    the whole channel to read: it is deleted first, and the reply is said privately."""
    if public_placeholder(interaction):
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.warning(
                "could not delete the placeholder of interaction %s: %s", interaction.id, error
            )
    await _send(interaction, content, embeds=embeds, view=view, ephemeral=True)


async def send_public(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> int | None:
    """A public reply in the channel (a followup when the response was already sent);
    mentions nobody unless ``allowed_mentions`` says whom (``bot.interaction.mentions``). Returns
    the message's id."""
    return await _send(
        interaction,
        content,
        embeds=embeds,
        view=view,
        ephemeral=False,
        allowed_mentions=allowed_mentions,
    )


async def update_message(interaction: discord.Interaction[Any], content: str) -> None:
    """Replace the text of the message whose button was pressed and remove its buttons
    (also after the press was acknowledged: ``bot.interaction.deferral``)."""
    if not interaction.response.is_done():
        try:
            await interaction.response.edit_message(
                content=content, view=None, allowed_mentions=NO_MENTIONS
            )
            return
        except discord.HTTPException as error:
            if error.code != ALREADY_ACKNOWLEDGED:
                raise
            # Another process acknowledged the press (two sessions of one shard): edited
            # through the interaction's webhook instead.
    await interaction.edit_original_response(
        content=content, view=None, allowed_mentions=NO_MENTIONS
    )


async def send_change(
    interaction: discord.Interaction[Any],
    embeds: Sequence[discord.Embed],
    *,
    announce: bool,
    here: Here | None = None,
    content: str | None = None,
    view: discord.ui.View | None = None,
    more: Sequence[Sequence[discord.Embed]] = (),
    call: PlayerCall | None = None,
    copy_view: discord.ui.View | None = None,
) -> int | None:
    """The public reply to a change, also posted in the announcement channel when
    ``announce`` (state changed, knocked out, died) and the command was used elsewhere.

    ``call``: the players whose character's Consciousness roll fell due, called with words on
    the reply's first line; the reply (not its copy in the announcement channel) mentions
    them, and only them (``bot.interaction.mentions``).
    Returns the id of the reply's (first) message, for the roll buttons it may carry.

    ``more``: the embeds of further messages, when one message cannot hold an embed per
    character touched; they follow the reply (and its announcement). A failure to post the
    announcement never affects the reply; a channel deleted or forbidden to the bot is not
    posted in again until a GM sets one (``bot.discord_rest.announcements``).
    ``copy_view``: the buttons of the copy there (the ``Numbers`` button; never a roll's).
    """
    message_id = await send_public(
        interaction,
        call.before(content) if call else content,
        embeds=embeds,
        view=view,
        allowed_mentions=call.allowed_mentions if call else NO_MENTIONS,
    )
    for extra in more:
        await send_public(interaction, embeds=extra)
    if not announce:
        return message_id
    if here is None:
        here = await Here.of(interaction)
    channel_id = here.settings.channel_id
    if channel_id is None or channel_id == interaction.channel_id:
        return message_id
    copies = [(content, embeds), *((None, extra) for extra in more)]
    await here.interaction.services.announcements.post(
        interaction.client, here.server_id, channel_id, copies, view=copy_view
    )
    return message_id


async def send_brief(
    here: Here,
    embed: discord.Embed,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """The public reply to a change that moves no state (a character created or renamed, an
    ability set or spent, a test that spent from a pool): its one compact embed
    (``bot.render.brief``); nothing to announce."""
    await send_change(here.interaction, [embed], announce=False, here=here, view=view)


@dataclass(frozen=True)
class RollButtons:
    """What the roll buttons of a public reply are for: each character's roll number
    (character id → number), of one kind. The reply that carries them is kept once sent
    (``keep_roll_buttons``), so that the keeper disables them when the roll is made or no
    longer due (``bot.features.rolls.keeper``)."""

    rolls: Mapping[int, int]
    kind: RollKind = RollKind.CONSCIOUSNESS


async def keep_roll_buttons(here: Here, message_id: int | None, buttons: RollButtons) -> None:
    """Keep the reply ``message_id`` that carries ``buttons`` (after it was sent), with the
    components it was sent with; not in a channel that refused the bot."""
    sent = None if message_id is None else here.interaction.sent_components.get(message_id)
    kept = KeptMessage(
        here.table_id,
        here.interaction.channel_id,
        message_id,
        buttons.rolls,
        buttons.kind,
        components=sent,
        interaction_id=here.interaction.id,
    )
    await here.interaction.services.roll_buttons.remember_message(kept)
