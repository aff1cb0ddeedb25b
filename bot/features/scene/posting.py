"""``/scene tracker``: the table's live tracker posted in this channel, its ``Numbers``
button kept by its edits; a tracker posted before is edited to say where it moved
(``bot.features.scene.tracker``)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.features.numbers import table_numbers_view
from bot.features.scene.status import tracker_embeds
from bot.features.scene.tracker import LiveTracker
from bot.i18n import text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_public
from bot.storage.models import TrackerMessage

__all__ = ["post_tracker"]


async def post_tracker(here: Here, live: LiveTracker) -> None:
    """Post the table's tracker here, and have ``live`` keep it (the one posted before says
    where it moved)."""
    if here.interaction.channel_id is None:  # pragma: no cover - commands come from a channel
        raise UserFacingError("tracker.error.no_channel")
    language = here.public_language
    heard = live.heard()  # before the read: a change after it is shown by an edit
    async with here.read() as reader:
        embeds = await tracker_embeds(reader, here.table_id, language, datetime.now(UTC))
    if embeds:
        here.titled(embeds[0])
    names = await here.names()
    view = table_numbers_view(here, names.characters)  # its edits keep the button
    message_id = await send_public(here.interaction, embeds=embeds, view=view)
    if message_id is None:  # pragma: no cover - Discord always says
        return
    link = (
        f"https://discord.com/channels/{here.server_id}/{here.interaction.channel_id}/{message_id}"
    )
    await live.replace(
        TrackerMessage(here.table_id, here.interaction.channel_id, message_id),
        text(language, "tracker.moved", channel=f"<#{here.interaction.channel_id}>", link=link),
        heard=heard,
    )
