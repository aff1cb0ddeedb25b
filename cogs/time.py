"""``/time`` and ``/refresh``: game time and pools for every character of a server at once
(COMMANDS.md; RULES.md T1, T2, P1).

Each is one transaction with one history entry that touches every character whose stored
values changed; one that changes nothing stores nothing (a ``/time`` with nobody bleeding, a
``/refresh`` of full pools) and is no change for ``/undo``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.characters.option import Character
from bot.features.numbers import send_screened
from bot.features.rolls.consciousness import consciousness_view
from bot.features.scene.server_wide import batches, count_among, save_all
from bot.i18n import Language, plural, text
from bot.interaction.deferral import defer_change_of
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons, send_public
from bot.interaction.transformers import InRange
from bot.render import duration_text, safe
from bot.render.change_reply import Touched, announce_touched
from bot.render.several import Line, several_embeds
from bot.render.visibility import Viewer
from bot.storage import TURN_EVERY, Among, StorageChange, StoredCharacter
from bot.storage.details import RefreshDetails, TimeDetails
from bot.storage.roll_messages import number_due_rolls
from rules.abilities import Ability, refresh_ability
from rules.outcome import Outcome
from rules.pools import refresh, refresh_stability
from rules.stability import StabilityOutcome
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
        # Only those who bleed are read (T1): the dead do not bleed (T2), nor the rest.
        await defer_change_of(interaction, await count_among(here, Among.BLEEDING))
        async with here.change() as tx:
            touched: list[Touched] = []
            async for batch in batches(tx, here.table_id, Among.BLEEDING):
                changed = [(c, pass_time(c.health, minutes)) for c in batch]
                touched += await save_all(tx, [(c, o) for c, o in changed if o.changed])
            rolls = await number_due_rolls(
                tx, here.table_id, [(item.after, item.outcome) for item in touched]
            )
            await here.history(TimeDetails(minutes=minutes)).record(tx)
        language = here.public_language
        duration = duration_text(language, minutes)
        if not touched:
            header = plural(language, "scene.time.passed", minutes, duration=duration)
            await send_public(
                interaction, header + "\n" + text(language, "scene.time.nobody_bleeding")
            )
            return
        lines = [_bleeding_line(item, language) for item in touched]
        due = [line.character for line in lines if line.outcome.roll_fell_due]

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            """In the reader's language: the public one, or the GM's own (their numbers)."""
            title = text(language, "scene.time.title", duration=duration_text(language, minutes))
            lines = [_bleeding_line(item, language) for item in touched]
            return several_embeds(title, lines, language, viewer=viewer)

        shown = {character.id: rolls[character.id] for character in due if character.id in rolls}
        await send_screened(
            interaction,
            here,
            [line.character for line in lines],
            render,
            announce=announce_touched(touched),
            view=consciousness_view(due, language, rolls, named=len(lines) > 1),
            call=call_players(
                [(line.character, line.outcome) for line in lines],
                caller=here.user_id,
                language=language,
            ),
            buttons=RollButtons(shown),
        )

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
            interaction, 1 if character else await count_among(here, Among.LIVING)
        )
        language = here.public_language

        async def refresh_all(tx: StorageChange) -> list[Refreshed]:
            # Every character that can still use a pool: not the dead.
            lines = []
            async for batch in batches(tx, here.table_id, Among.LIVING, TURN_EVERY):
                lines += await _refresh(tx, batch)
            await here.history(RefreshDetails(character=None)).record(tx)
            return lines

        lines: list[Refreshed] = []
        if character is None:  # prepared before the write lock: no other server is held
            lines = await here.whole_server_change(refresh_all)
        else:
            async with here.change() as tx:
                lines = await _refresh(tx, [await tx.character(character)])
                await here.history(RefreshDetails(character=character.name)).record(tx)
        if not lines:
            if character is None:
                reply = text(language, "scene.refresh.unchanged_all")
            else:
                reply = text(language, "scene.refresh.unchanged", name=safe(character.name))
            await send_public(interaction, reply)
            return

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            """In the reader's language: the public one, or the GM's own (their numbers)."""
            title = plural(language, "scene.refresh.title", len(lines))
            said = [line.said(language) for line in lines]
            return several_embeds(title, said, language, viewer=viewer)

        await send_screened(
            interaction, here, [line.saved for line in lines], render, announce=False
        )


@dataclass(frozen=True)
class Refreshed:
    """One character of a ``/refresh``: as it was, as saved, and what moved (P1, M11)."""

    before: StoredCharacter
    saved: StoredCharacter
    outcome: Outcome
    abilities: tuple[Ability, ...]
    mind: StabilityOutcome

    def said(self, language: Language) -> Line:
        """Its line, in ``language`` (the public one, or the GM's own)."""
        return _refresh_line(
            self.before, self.saved, self.outcome, self.abilities, self.mind, language
        )


async def _refresh(tx: StorageChange, characters: Sequence[StoredCharacter]) -> list[Refreshed]:
    """P1 for these characters: First Aid and every ability pool back to its rating, and
    Stability (M11), each part saved for all of them in one statement; each one whose pools
    moved, with what moved (its line is said in each reader's language)."""
    plans = [
        (
            character,
            refresh(character.health),
            tuple(refresh_ability(ability) for ability in character.abilities),
            refresh_stability(character.stability),  # M11: not the incurably insane
        )
        for character in characters
    ]
    saved: dict[int, StoredCharacter] = {}
    healths = [(plan[0], plan[1].after) for plan in plans if plan[1].changed]
    saved |= {after.id: after for after in await tx.save_healths(healths)}
    for character, _outcome, abilities, _mind in plans:
        if abilities != character.abilities:
            saved[character.id] = await tx.save_abilities(character, abilities)
    minds = [(plan[0], plan[3].after) for plan in plans if plan[3].changed]
    saved |= {after.id: after for after in await tx.save_stabilities(minds)}
    return [
        Refreshed(character, saved[character.id], outcome, abilities, mind)
        for character, outcome, abilities, mind in plans
        if character.id in saved
    ]


def _refresh_line(
    character: StoredCharacter,
    saved: StoredCharacter,
    outcome: Outcome,
    abilities: tuple[Ability, ...],
    mind: StabilityOutcome,
    language: Language,
) -> Line:
    """A refreshed character's line: which pools moved (``character`` before, ``saved``
    after)."""
    refreshed = []
    if outcome.changed:
        health = saved.health
        refreshed.append(
            f"{text(language, 'render.status.first_aid')} {character.health.first_aid_pool}"
            f" → {health.first_aid_pool} / {health.first_aid_rating}"
        )
    refreshed += [
        f"{safe(after.name)} {before.pool} → {after.pool} / {after.rating}"
        for before, after in zip(character.abilities, abilities, strict=True)
        if before.pool != after.pool
    ]
    if mind.before is not None and mind.after is not None and mind.changed:
        stability = text(language, "render.stability.name")
        refreshed.append(
            f"{stability} {mind.before.pool} → {mind.after.pool} / {mind.after.rating}"
        )
    # Only the pools moved: the Health, state and pending roll it kept are not said again.
    return Line(saved, outcome, detail=" · ".join(refreshed), detail_only=True)


def _bleeding_line(item: Touched, language: Language) -> Line:
    """A character of a ``/time``: its Health before → after says what bleeding took; a
    clock that moved on without taking a point says how far it got (T1)."""
    assert item.after is not None and item.outcome is not None
    detail = None
    if not item.outcome.events:
        detail = text(language, "scene.time.clock_line", minutes=item.after.health.bleed_minutes)
    return Line(item.after, item.outcome, detail=detail)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(TimeCog(bot))
