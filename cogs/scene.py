"""``/scene new|status``, ``/time`` and ``/refresh``: what happens to every character of a
server at once (COMMANDS.md; RULES.md S1, S2, T1, T2, P1).

Each command that changes characters does it in one transaction with one history entry that
touches every character whose stored values changed; one that changes nothing stores nothing
(a ``/time`` with nobody bleeding, a ``/refresh`` of full pools) and is no change for
``/undo``. Every rule decision is taken in ``rules/``; this cog reads, applies, stores and
replies.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.calling import owners_to_call
from bot.change import Field, change_embeds, died, should_announce
from bot.consciousness_buttons import ConsciousnessButton, consciousness_view
from bot.deferral import defer
from bot.errors import UserFacingError
from bot.here import Here
from bot.i18n import Language, text
from bot.render import (
    death_embed,
    duration_text,
    flags_text,
    safe,
    state_emoji,
    state_label,
)
from bot.roll_buttons import number_due_rolls, remember_roll_buttons
from bot.sending import NO_MENTIONS, send_change, send_public
from bot.storage import CharacterNotFound, StoredCharacter, Transaction
from bot.storage.trackers import TrackerMessage
from bot.tracker import LiveTracker
from bot.transformers import CharacterTransformer, check_range
from bot.tree import report_error
from rules.abilities import refresh_ability
from rules.events import RollDue
from rules.outcome import Outcome
from rules.pools import refresh
from rules.scene import start_scene
from rules.time import MAX_MINUTES, pass_time

if TYPE_CHECKING:
    from bot.app import SaludBot

__all__ = [
    "FULL_REPLY_CHARACTERS",
    "STATUS_PAGE_LIMIT",
    "SceneCog",
    "StatusPageButton",
    "TimeCog",
    "Touched",
    "acknowledge",
    "change_reply",
    "clip_lines",
    "fit_embeds",
    "status_pages",
]

log = logging.getLogger(__name__)

Character = app_commands.Transform[StoredCharacter, CharacterTransformer]

#: ``/scene status``: characters of one page packed into one embed description (under 4096).
STATUS_PAGE_LIMIT = 3800
#: The live tracker's one embed description (Discord: 4096).
TRACKER_LIMIT = 4000
#: ``/scene status``: at most this many characters a page, so that a page reads at a glance.
STATUS_PAGE_LINES = 40
STATUS_COLOUR = discord.Colour(0x5865F2)

#: Discord's limit on an embed field's value.
FIELD_VALUE_LIMIT = 1024
#: A change of up to this many characters shows the compact embed of each; more (a crowd
#: bleeding at once), one summary embed with a line each: one public message either way
#: (COMMANDS.md "One message per command"; a message holds 10 embeds).
FULL_REPLY_CHARACTERS = 10
#: The summary's description (under Discord's 4096, leaving room for the death embeds).
SUMMARY_LIMIT = 3500
#: A change of more characters than this is deferred first (see ``acknowledge``).
DEFER_ABOVE = 30
# Discord's limits on one message.
CONTENT_LIMIT = 2000
EMBEDS_PER_MESSAGE = 10
#: Discord: an embed footer holds at most 2048 characters.
FOOTER_LIMIT = 2048
EMBED_TOTAL_LIMIT = 6000


# --- replies to changes of many characters ----------------------------------------------------


@dataclass(frozen=True)
class Touched:
    """One character in the reply to a change: as it was, as it is now, and the rules'
    outcome (None for a character created or removed, which has no embed: ``note`` says it).

    ``extra_fields`` go under the status fields (``bot.change.change_embeds``); ``note`` is the
    embed's description when the events say nothing (a bleeding clock that only moved on).
    """

    before: StoredCharacter | None
    after: StoredCharacter | None
    outcome: Outcome | None
    extra_fields: tuple[Field, ...] = ()
    note: str | None = None


def plural(language: Language, key: str, count: int, /, **params: object) -> str:
    """The message ``key.one`` or ``key.other`` for ``count``, with ``count`` among its
    parameters."""
    form = "one" if count == 1 else "other"
    return text(language, f"{key}.{form}", count=count, **params)


def clip_lines(lines: Sequence[str], language: Language, limit: int) -> str:
    """Lines joined with newlines within ``limit`` characters; what does not fit is counted
    at the end ("… and 12 more"), room for which is kept while lines are added."""
    kept: list[str] = []
    size = 0
    for index, line in enumerate(lines):
        rest = len(lines) - index - 1
        more = len(text(language, "scene.more", count=rest)) + 1 if rest else 0
        if size + len(line) + more > limit:
            kept.append(text(language, "scene.more", count=len(lines) - index))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def compact_line(item: Touched, language: Language) -> str:
    """``🟠 **Ana**: -7 → -9 / 9 · Seriously wounded · Bleeding``: one character in a summary."""
    if item.note is not None and (item.after is None or item.before is None):
        return item.note
    after = item.after
    assert after is not None
    health = after.health
    start = "—" if item.before is None else str(item.before.health.health)
    parts = [
        f"{state_emoji(health.state)} **{safe(after.name)}**: "
        f"{start} → {health.health} / {health.max_health}",
        state_label(health.state, language, after.gender),
    ]
    flags = flags_text(health, language, after.gender)
    if flags:
        parts.append(flags)
    return " · ".join(parts)


def change_reply(
    header: str, touched: Sequence[Touched], language: Language
) -> tuple[str, list[discord.Embed], list[list[discord.Embed]]]:
    """Content and embeds of the public reply to a change of several characters, and the
    embeds of the further messages it needs; every message within Discord's limits (2000
    characters of content; 10 embeds and 6000 characters of embeds).

    Up to ``FULL_REPLY_CHARACTERS`` characters, an embed per character touched (COMMANDS.md):
    the status embed of each after the change with its events in words (``change_embeds``),
    death embeds included, packed into as few messages as hold them. More: one summary embed
    with a line per character (Health before → after, state, flags) and the death embeds that
    fit. Characters created or removed are said in the content.
    """
    shown = [item for item in touched if item.after is not None and item.outcome is not None]
    notes = [
        item.note for item in touched if (item.after is None or item.outcome is None) and item.note
    ]
    content = header
    if notes:
        content += "\n" + clip_lines(notes, language, CONTENT_LIMIT - len(header) - 1)
    if not shown:
        return content, [], []
    if len(shown) <= FULL_REPLY_CHARACTERS:
        messages = _pack([_character_embeds(item, language, len(shown)) for item in shown])
        return content, messages[0], messages[1:]
    summary = discord.Embed(
        title=text(language, "scene.summary.title", count=len(shown)),
        description=clip_lines(
            [compact_line(item, language) for item in shown], language, SUMMARY_LIMIT
        ),
        colour=STATUS_COLOUR,
    )
    dead = [
        death_embed(item.after, language)
        for item in shown
        if item.after is not None and item.outcome is not None and died(item.outcome)
    ]
    return content, fit_embeds([summary, *dead]), []


def _character_embeds(item: Touched, language: Language, count: int) -> list[discord.Embed]:
    """One character's status embed (and death embed), sized so that several share a
    message: all of a message's room for one or a few, a tenth of it in a crowd."""
    assert item.after is not None and item.outcome is not None
    budget = EMBED_TOTAL_LIMIT // min(max(count, 1), EMBEDS_PER_MESSAGE // 2)
    if count > EMBEDS_PER_MESSAGE // 2:
        budget = EMBED_TOTAL_LIMIT // EMBEDS_PER_MESSAGE
    part = change_embeds(
        item.after, item.outcome, language, extra_fields=item.extra_fields, budget=budget
    )
    if item.note and not part[0].description:
        part[0].description = item.note[: max(1, budget - len(part[0]) - 1)]
    return part


def _pack(parts: Sequence[list[discord.Embed]]) -> list[list[discord.Embed]]:
    """Each character's embeds, in order and kept together, in as few messages as hold them."""
    messages: list[list[discord.Embed]] = [[]]
    total = 0
    for part in parts:
        size = sum(len(embed) for embed in part)
        current = messages[-1]
        if current and (
            len(current) + len(part) > EMBEDS_PER_MESSAGE or total + size > EMBED_TOTAL_LIMIT
        ):
            messages.append([])
            total = 0
        messages[-1].extend(fit_embeds(part))
        total += size
    return messages


def fit_embeds(embeds: Sequence[discord.Embed]) -> list[discord.Embed]:
    """As many of ``embeds`` (in order) as one message holds: 10, and 6000 characters in all."""
    kept: list[discord.Embed] = []
    total = 0
    for embed in embeds:
        size = len(embed)
        if len(kept) >= EMBEDS_PER_MESSAGE or total + size > EMBED_TOTAL_LIMIT:
            continue
        kept.append(embed)
        total += size
    return kept


async def acknowledge(interaction: discord.Interaction[Any], characters: int) -> None:
    """Defer before a change of many characters (it may take longer than Discord's 3 seconds
    on a busy machine), else only when the interaction is already late. Call it after every
    check that could refuse."""
    if characters > DEFER_ABOVE and not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    else:
        await defer(interaction)


def _announce(touched: Sequence[Touched]) -> bool:
    """Also post in the announcement channel: someone changed state, was knocked out or died."""
    return should_announce(item.outcome for item in touched if item.outcome is not None)


# --- /scene status ----------------------------------------------------------------------------


def status_line(character: StoredCharacter, language: Language) -> str:
    """``🟠 **Ana** — -7 / 9 — Seriously wounded · Unconscious · Bleeding``."""
    health = character.health
    line = text(
        language,
        "scene.status.line",
        emoji=state_emoji(health.state),
        name=safe(character.name),
        health=health.health,
        max_health=health.max_health,
        state=state_label(health.state, language, character.gender),
    )
    flags = flags_text(health, language, character.gender)
    return f"{line} · {flags}" if flags else line


def status_pages(characters: Sequence[StoredCharacter], language: Language) -> list[str]:
    """The description of each page of ``/scene status`` (one embed each, under 4096)."""
    pages: list[str] = []
    current: list[str] = []
    size = 0
    for character in characters:
        line = status_line(character, language)
        if current and (
            size + len(line) + 1 > STATUS_PAGE_LIMIT or len(current) >= STATUS_PAGE_LINES
        ):
            pages.append("\n".join(current))
            current, size = [], 0
        current.append(line)
        size += len(line) + 1
    if current:
        pages.append("\n".join(current))
    return pages


def fallen_line(fallen: Sequence[StoredCharacter], language: Language) -> str | None:
    """``💀 Fallen: Jack Malone, Renée Pennington``: the dead, on one closing line (COMMANDS.md
    "The dead"), within a footer's 2048 characters; None when nobody has died."""
    if not fallen:
        return None
    names = [character.name for character in fallen]
    shown: list[str] = []
    for index, name in enumerate(names):
        rest = len(names) - index
        candidate = ", ".join([*shown, name])
        more = text(language, "scene.more", count=rest - 1) if rest > 1 else ""
        if len(candidate) + len(more) + 40 > FOOTER_LIMIT:
            shown.append(text(language, "scene.more", count=rest))
            break
        shown.append(name)
    return text(language, "scene.status.fallen", names=", ".join(shown))


def split_fallen(
    characters: Sequence[StoredCharacter],
) -> tuple[list[StoredCharacter], list[StoredCharacter]]:
    """The living and the dead of ``characters``, each in the order given."""
    living = [c for c in characters if not c.health.is_dead]
    return living, [c for c in characters if c.health.is_dead]


def status_message(
    characters: Sequence[StoredCharacter],
    language: Language,
    page: int,
    fallen: Sequence[StoredCharacter] = (),
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based, clamped) of ``/scene status`` with its page buttons; the dead
    (``fallen``) on the closing line (the footer) of every page."""
    embed, view = _status_page(characters, language, page)
    closing = fallen_line(fallen, language)
    if closing is not None:
        embed.set_footer(text=closing)
    return embed, view


def _status_page(
    characters: Sequence[StoredCharacter], language: Language, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    pages = status_pages(characters, language)
    if not pages:
        embed = discord.Embed(
            title=plural(language, "scene.status.title", 0),
            description=text(language, "scene.status.empty"),
            colour=STATUS_COLOUR,
        )
        return embed, None
    page = min(max(page, 1), len(pages))
    title = plural(language, "scene.status.title", len(characters))
    if len(pages) > 1:
        title = plural(
            language, "scene.status.title_page", len(characters), page=page, pages=len(pages)
        )
    embed = discord.Embed(title=title, description=pages[page - 1], colour=STATUS_COLOUR)
    if len(pages) == 1:
        return embed, None
    view = discord.ui.View(timeout=None)
    view.add_item(
        StatusPageButton(
            max(page - 1, 1),
            text(language, "scene.status.previous"),
            disabled=page == 1,
        )
    )
    view.add_item(
        StatusPageButton(
            min(page + 1, len(pages)),
            text(language, "scene.status.next"),
            disabled=page == len(pages),
        )
    )
    return embed, view


def tracker_embeds(
    characters: Sequence[StoredCharacter], language: Language, updated_at: datetime
) -> list[discord.Embed]:
    """The live tracker: every living character as ``/scene status`` shows it, the dead on
    one closing line, and the time of this update (one embed, within Discord's limits)."""
    living = [c for c in characters if not c.health.is_dead]
    dead = [c for c in characters if c.health.is_dead]
    closing = [text(language, "tracker.updated", time=discord.utils.format_dt(updated_at, "T"))]
    if dead:
        names = ", ".join(safe(c.name) for c in dead)
        closing.insert(0, clip_lines([text(language, "tracker.dead", names=names)], language, 400))
    room = TRACKER_LIMIT - sum(len(line) + 1 for line in closing)
    lines = [status_line(c, language) for c in living] or [text(language, "scene.status.empty")]
    description = clip_lines(lines, language, room) + "\n\n" + "\n".join(closing)
    embed = discord.Embed(
        title=plural(language, "tracker.title", len(living)),
        description=description,
        colour=STATUS_COLOUR,
        timestamp=updated_at,
    )
    return [embed]


class StatusPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"salud:page:status:(?P<page>[0-9]{1,4})",
):
    """Turns ``/scene status`` to another page, read afresh; anyone may press it (anyone may
    look), and it keeps working after a restart (self-describing id)."""

    def __init__(self, page: int, label: str = "", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                style=discord.ButtonStyle.secondary,
                custom_id=f"salud:page:status:{page}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StatusPageButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["page"]), label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            here = await Here.of(interaction)
            async with here.storage.read() as reader:
                characters = await reader.list_characters(here.guild_id)
            living, fallen = split_fallen(characters)
            embed, view = status_message(living, here.public_language, self.page, fallen)
            await interaction.response.edit_message(
                embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
            )
        except Exception as error:
            await report_error(interaction, error)


# --- the cogs ---------------------------------------------------------------------------------


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

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(StatusPageButton)
        self.live = LiveTracker(self.bot, tracker_embeds)
        self.live.start()

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(StatusPageButton)
        await self.live.close()

    @app_commands.command(
        name="new", description=_("GM: start a new scene for every character", key="cmd.scene.new")
    )
    async def new(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.new")
        await acknowledge(interaction, await _count(here, living_only=True))
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            # The dead are left out: a scene no longer concerns them (COMMANDS.md "The dead").
            characters = await tx.list_characters(here.guild_id, living_only=True)
            changed = [(c, start_scene(c.health)) for c in characters]
            touched = await _save_all(tx, [(c, o) for c, o in changed if o.changed])
            await tx.record(**here.history("scene new"))
        language = here.public_language
        if not characters:
            header = text(language, "scene.new.no_characters")
        elif not touched:
            header = plural(language, "scene.new.unchanged", len(characters))
        else:
            header = plural(language, "scene.new.done", len(characters))
        content, embeds, more = change_reply(header, touched, language)
        await send_change(
            interaction, embeds, announce=False, here=here, content=content, more=more
        )

    @app_commands.command(
        name="status",
        description=_("Every living character's Health, state and flags", key="cmd.scene.status"),
    )
    async def status(self, interaction: discord.Interaction[SaludBot]) -> None:
        here = await Here.of(interaction)
        async with here.storage.read() as reader:
            characters = await reader.list_characters(here.guild_id)
        living, fallen = split_fallen(characters)
        embed, view = status_message(living, here.public_language, 1, fallen)
        await send_public(interaction, embeds=[embed], view=view)

    @app_commands.command(
        name="tracker",
        description=_("GM: post the live tracker here (kept up to date)", key="cmd.scene.tracker"),
    )
    async def tracker(self, interaction: discord.Interaction[SaludBot]) -> None:
        """Posts the server's live tracker in this channel; a tracker posted before is
        edited to say that it moved (``bot.tracker``)."""
        here = await Here.of(interaction)
        here.require_gm("tracker.action")
        if interaction.channel_id is None:  # pragma: no cover - commands come from a channel
            raise UserFacingError("tracker.error.no_channel")
        async with here.storage.read() as reader:
            characters = await reader.list_characters(here.guild_id)
        language = here.public_language
        embeds = tracker_embeds(characters, language, datetime.now(UTC))
        message_id = await send_public(interaction, embeds=embeds)
        if message_id is None:  # pragma: no cover - Discord always says
            return
        link = f"https://discord.com/channels/{here.guild_id}/{interaction.channel_id}/{message_id}"
        await self.live.replace(
            TrackerMessage(here.guild_id, interaction.channel_id, message_id),
            text(language, "tracker.moved", channel=f"<#{interaction.channel_id}>", link=link),
        )


class TimeCog(commands.Cog):
    """Game time (T1, T2) and pools (P1) for every character of a server."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        # The buttons of a /time reply must answer even without the cog that rolls
        # /conscious; registering twice is harmless. Not removed on unload: they are shared.
        self.bot.add_dynamic_items(ConsciousnessButton)

    @app_commands.command(
        name="time",
        description=_("GM: game time passes (whoever bleeds loses Health)", key="cmd.time"),
    )
    @app_commands.guild_only()
    @app_commands.describe(minutes=_("Minutes of game time (1–1440)", key="cmd.time.minutes"))
    async def time(
        self,
        interaction: discord.Interaction[SaludBot],
        minutes: app_commands.Range[int, 1, 1440],
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("scene.action.time")
        check_range("minutes", minutes, 1, MAX_MINUTES)
        await acknowledge(interaction, await _count(here, living_only=True))
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            # Only this server's living characters are read: the dead do not bleed (T2).
            living = await tx.list_characters(here.guild_id, living_only=True)
            changed = [(c, pass_time(c.health, minutes)) for c in living]
            touched = await _save_all(tx, [(c, o) for c, o in changed if o.changed])
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
            if item.after is not None
            and item.outcome is not None
            and any(isinstance(event, RollDue) for event in item.outcome.events)
        ]
        message_id = await send_change(
            interaction,
            embeds,
            announce=_announce(touched),
            here=here,
            content=content,
            view=consciousness_view(due, language, rolls),
            more=more,
            call=owners_to_call((item.after, item.outcome) for item in touched),
        )
        shown = {item.id: rolls[item.id] for item in due if item.id in rolls}
        await remember_roll_buttons(here, message_id, shown)

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
        await acknowledge(interaction, 1 if character else await _count(here, living_only=True))
        language = here.public_language
        touched: list[Touched] = []
        async with here.storage.transaction() as tx:
            await here.refuse_repeated(tx)
            if character is None:  # every character that can still use a pool: not the dead
                targets = await tx.list_characters(here.guild_id, living_only=True)
            else:
                current = await tx.get_character(here.guild_id, character.id)
                if current is None:
                    raise CharacterNotFound(here.guild_id, character.id)
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


async def _save_all(
    tx: Transaction, changed: Sequence[tuple[StoredCharacter, Outcome]]
) -> list[Touched]:
    """Save every changed character in one statement (one storage round trip for all)."""
    saved = await tx.save_healths([(character, outcome.after) for character, outcome in changed])
    return [
        Touched(character, after, outcome)
        for (character, outcome), after in zip(changed, saved, strict=True)
    ]


async def _count(here: Here, *, living_only: bool) -> int:
    async with here.storage.read() as reader:
        return await reader.count_characters(here.guild_id, living_only=living_only)


async def _refresh_one(
    tx: Transaction, character: StoredCharacter, language: Language
) -> Touched | None:
    """P1 for one character: First Aid and every ability pool back to its rating; None when
    every pool was full."""
    outcome = refresh(character.health)
    abilities = tuple(refresh_ability(ability) for ability in character.abilities)
    saved = character
    if outcome.changed:
        saved = await tx.save_health(saved, outcome.after)
    if abilities != character.abilities:
        saved = await tx.save_abilities(saved, abilities)
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
    await bot.add_cog(SceneCog(bot))
    await bot.add_cog(TimeCog(bot))
