"""``/scene new|status|tracker``: what happens to every character of a server at once
(COMMANDS.md; RULES.md S1, S2).

A new scene is one transaction with one history entry that touches every character whose
stored values changed. Every rule decision is taken in ``rules/``; this cog reads, applies,
stores and replies.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.numbers import send_screened, table_numbers_view
from bot.features.scene.server_wide import (
    batches,
    count_among,
    new_stability_scene,
    save_all,
)
from bot.features.scene.status import status_message, tracker_embeds
from bot.i18n import Language, plural, text
from bot.interaction.deferral import defer_change_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_public
from bot.render.change_reply import Touched
from bot.render.scene import stability_scene_said
from bot.render.several import Line, several_embeds
from bot.render.visibility import Viewer
from bot.storage import TURN_EVERY, Among, StorageChange
from bot.storage.details import SceneNewDetails
from bot.storage.trackers import TrackerMessage
from rules.scene import start_scene

if TYPE_CHECKING:
    from bot.app import SaludBot

__all__ = ["SceneCog"]


@app_commands.guild_only()
class SceneCog(
    commands.GroupCog,
    group_name="scene",
    group_description=_("Scenes: start a new one, or see everyone's Health", key="cmd.scene"),
):
    """A server's scenes (S1, S2) and the table's overview."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        name="new", description=_("GM: start a new scene for every character", key="cmd.scene.new")
    )
    async def new(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.new")
        await defer_change_of(interaction, await count_among(here, Among.LIVING))

        async def new_scene(tx: StorageChange) -> tuple[list[Touched], int]:
            # The dead are left out: a scene no longer concerns them (COMMANDS.md "The dead").
            living = 0
            touched: list[Touched] = []
            async for batch in batches(tx, here.table_id, Among.LIVING, TURN_EVERY):
                living += len(batch)
                changed = [(c, start_scene(c.health)) for c in batch]
                saved = await save_all(tx, [(c, o) for c, o in changed if o.changed])
                # M6, M10: the scene's Stability cap starts again and lucidity ends.
                touched += await new_stability_scene(tx, changed, saved)
            await here.history(SceneNewDetails()).record(tx)
            return touched, living

        # Prepared before the write lock: another server is not held meanwhile (issue 24).
        touched, living = await here.whole_server_change(new_scene)
        language = here.public_language
        if not touched:
            if not living:
                header = text(language, "scene.new.no_characters")
            else:
                header = plural(language, "scene.new.unchanged", living)
            await send_public(interaction, header)
            return
        # What a new scene resets, said once; Stability's only where a character has it.
        minds = any(item.after is not None and item.after.stability for item in touched)

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            lines = [
                Line(item.after, item.outcome, detail=stability_scene_said(item, language))
                for item in touched
                if item.after and item.outcome
            ]
            lead = text(language, "scene.new.resets_stability" if minds else "scene.new.resets")
            title = text(language, "scene.new.title")
            return several_embeds(title, lines, language, lead=lead, viewer=viewer)

        await send_screened(
            interaction,
            here,
            [item.after for item in touched if item.after and item.outcome],
            render,
            announce=False,
        )

    @app_commands.command(
        name="status",
        description=_("Every living character's Health, state and flags", key="cmd.scene.status"),
    )
    async def status(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        embed, view = await status_message(here, 1)
        await send_public(interaction, embeds=[embed], view=view)

    @app_commands.command(
        name="tracker",
        description=_("GM: post the live tracker here (kept up to date)", key="cmd.scene.tracker"),
    )
    async def tracker(self, interaction: discord.Interaction[SaludBot]) -> None:
        """Posts the server's live tracker in this channel; a tracker posted before is
        edited to say that it moved (``bot.features.scene.tracker``)."""
        here = await Here.of(interaction)
        here.require_gm("tracker.action")
        if interaction.channel_id is None:  # pragma: no cover - commands come from a channel
            raise UserFacingError("tracker.error.no_channel")
        language = here.public_language
        live = self.bot.services.tracker
        heard = live.heard()  # before the read: a change after it is shown by an edit
        async with here.read() as reader:
            embeds = await tracker_embeds(reader, here.table_id, language, datetime.now(UTC))
        if embeds:
            here.titled(embeds[0])
        names = await here.names()
        view = table_numbers_view(here, names.characters)  # its edits keep the button
        message_id = await send_public(interaction, embeds=embeds, view=view)
        if message_id is None:  # pragma: no cover - Discord always says
            return
        link = (
            f"https://discord.com/channels/{here.server_id}/{interaction.channel_id}/{message_id}"
        )
        await live.replace(
            TrackerMessage(here.table_id, interaction.channel_id, message_id),
            text(language, "tracker.moved", channel=f"<#{interaction.channel_id}>", link=link),
            heard=heard,
        )


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(SceneCog(bot))
