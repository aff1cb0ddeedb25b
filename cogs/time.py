"""``/time`` and ``/refresh``: game time and pools for every character of a server at once
(COMMANDS.md; RULES.md T1, T2, P1).

Each is one transaction with one history entry that touches every character whose stored
values changed; one that changes nothing stores nothing (a ``/time`` with nobody bleeding, a
``/refresh`` of full pools) and is no change for ``/undo``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.characters.option import Character
from bot.features.consciousness.buttons import consciousness_view
from bot.features.consciousness.keeper import number_due_rolls
from bot.features.scene.server_wide import count_characters, save_all
from bot.i18n import Language, plural, text
from bot.interaction.deferral import defer_change_of
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import send_change, send_public
from bot.interaction.transformers import InRange
from bot.render import duration_text, safe
from bot.render.change import Field
from bot.render.change_reply import Touched, announce_touched, change_reply
from bot.render.limits import FIELD_VALUE_LIMIT
from bot.storage import StoredCharacter, Transaction
from rules.abilities import refresh_ability
from rules.pools import refresh, refresh_stability
from rules.time import MAX_MINUTES, pass_time

if TYPE_CHECKING:
    from bot.app import SaludBot

__all__ = ["TimeCog"]


class TimeCog(commands.Cog):
    """Game time (T1, T2) and pools (P1) for every character of a server."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="time",
        description=_("GM: game time passes (whoever bleeds loses Health)", key="cmd.time"),
    )
    @app_commands.guild_only()
    @app_commands.describe(minutes=_("Minutes of game time (1–1440)", key="cmd.time.minutes"))
    async def time(
        self,
        interaction: discord.Interaction[SaludBot],
        minutes: app_commands.Transform[int, InRange("minutes", 1, MAX_MINUTES)],
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.time")
        await defer_change_of(interaction, await count_characters(here, living_only=True))
        async with here.change() as tx:
            # Only this server's living characters are read: the dead do not bleed (T2).
            living = await tx.list_characters(here.guild_id, living_only=True)
            changed = [(c, pass_time(c.health, minutes)) for c in living]
            touched = await save_all(tx, [(c, o) for c, o in changed if o.changed])
            rolls = await number_due_rolls(
                tx, here.guild_id, [(item.after, item.outcome) for item in touched]
            )
            await tx.record(**here.history("time", {"minutes": minutes}))
        language = here.public_language
        header = plural(
            language, "scene.time.passed", minutes, duration=duration_text(language, minutes)
        )
        if not touched:
            await send_public(
                interaction, header + "\n" + text(language, "scene.time.nobody_bleeding")
            )
            return
        described = [_with_clock_note(item, language) for item in touched]
        content, embeds, more = change_reply(header, described, language)
        due = [
            item.after
            for item in touched
            if item.after is not None and item.outcome is not None and item.outcome.roll_fell_due
        ]
        message_id = await send_change(
            interaction,
            embeds,
            announce=announce_touched(touched),
            here=here,
            content=content,
            view=consciousness_view(due, language, rolls),
            more=more,
            call=call_players(
                [(item.after, item.outcome) for item in touched],
                caller=here.user_id,
                language=language,
            ),
        )
        shown = {item.id: rolls[item.id] for item in due if item.id in rolls}
        await self.bot.services.roll_buttons.remember(here, message_id, shown)

    @app_commands.command(
        name="refresh", description=_("GM: refresh the pools to their ratings", key="cmd.refresh")
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=_(
            "The character (default: every character of the server)", key="cmd.refresh.character"
        ),
    )
    async def refresh_pools(
        self, interaction: discord.Interaction[SaludBot], character: Character | None = None
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.refresh")
        await defer_change_of(
            interaction, 1 if character else await count_characters(here, living_only=True)
        )
        language = here.public_language
        touched: list[Touched] = []
        async with here.change() as tx:
            if character is None:  # every character that can still use a pool: not the dead
                targets = await tx.list_characters(here.guild_id, living_only=True)
            else:
                current = await tx.character(character)
                targets = [current]
            for target in targets:
                item = await _refresh_one(tx, target, language)
                if item is not None:
                    touched.append(item)
            details = {} if character is None else {"character": character.name}
            await tx.record(**here.history("refresh", details))
        if not touched:
            if character is None:
                reply = text(language, "scene.refresh.unchanged_all")
            else:
                reply = text(language, "scene.refresh.unchanged", name=safe(character.name))
            await send_public(interaction, reply)
            return
        header = plural(language, "scene.refresh.done", len(touched))
        content, embeds, more = change_reply(header, touched, language)
        await send_change(
            interaction, embeds, announce=False, here=here, content=content, more=more
        )


async def _refresh_one(
    tx: Transaction, character: StoredCharacter, language: Language
) -> Touched | None:
    """P1 for one character: First Aid and every ability pool back to its rating, and
    Stability (M11); None when every pool was full."""
    outcome = refresh(character.health)
    abilities = tuple(refresh_ability(ability) for ability in character.abilities)
    mind = refresh_stability(character.stability)  # M11: not the incurably insane
    saved = character
    if outcome.changed:
        saved = await tx.save_health(saved, outcome.after)
    if abilities != character.abilities:
        saved = await tx.save_abilities(saved, abilities)
    if mind.changed:
        saved = await tx.save_stability(saved, mind.after)
    if saved is character:
        return None
    lines = []
    if outcome.changed:
        health = saved.health
        first_aid = text(language, "render.status.first_aid")
        lines.append(
            f"{first_aid} {character.health.first_aid_pool} → {health.first_aid_pool}"
            f" / {health.first_aid_rating}"
        )
    refreshed = [
        f"{safe(after.name)} {before.pool} → {after.pool}"
        for before, after in zip(character.abilities, abilities, strict=True)
        if before.pool != after.pool
    ]
    if refreshed:
        lines.append(" · ".join(refreshed))
    if mind.before is not None and mind.after is not None and mind.changed:
        stability = text(language, "render.stability.name")
        lines.append(f"{stability} {mind.before.pool} → {mind.after.pool} / {mind.after.rating}")
    value = "\n".join(lines)
    if len(value) > FIELD_VALUE_LIMIT:
        value = value[: FIELD_VALUE_LIMIT - 1] + "…"
    extra: tuple[Field, ...] = ((text(language, "scene.refresh.abilities"), value),)
    return Touched(character, saved, outcome, extra)


def _with_clock_note(item: Touched, language: Language) -> Touched:
    """A bleeding clock that moved on without a lost point says how far it got (T1)."""
    if item.outcome is None or item.outcome.events or item.after is None:
        return item
    note = text(
        language,
        "scene.time.clock",
        name=safe(item.after.name),
        minutes=item.after.health.bleed_minutes,
    )
    what = (text(language, "render.change.what"), note)
    return Touched(item.before, item.after, item.outcome, (*item.extra_fields, what))


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(TimeCog(bot))
