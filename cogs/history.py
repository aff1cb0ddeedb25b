"""``/history`` and ``/undo``: what changed in a server, and taking the latest change back
(COMMANDS.md).

The storage keeps whole before/after snapshots of every character a change touched; ``/undo``
writes the ``before`` snapshots of the server's latest change that is neither an undo nor
undone back exactly (First Aid pools, abilities, scene and bleeding values, a deleted
character with its abilities) and records the undo as an entry of its own. ``/config`` is
not in the history, so it is never undone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.change import should_announce
from bot.change_reply import Touched, change_reply, clip_lines
from bot.errors import UserFacingError
from bot.here import Here
from bot.i18n import Language, text
from bot.limits import CONTENT_LIMIT, DESCRIPTION_LIMIT, INFO_COLOUR, TITLE_LIMIT
from bot.render import entry_words, history_lines, mention
from bot.sending import NO_MENTIONS, send_change, send_private, send_public
from bot.storage import HistoryEntry, StoredCharacter, UndoResult
from bot.storage.roll_messages import renumber_rolls
from bot.transformers import CharacterTransformer
from bot.tree import report_error
from bot.undo_preview import preview_embed, reversal_lines
from rules.outcome import Outcome

if TYPE_CHECKING:
    from bot.app import SaludBot

__all__ = [
    "HISTORY_LIMIT",
    "HistoryCog",
    "HistoryPageButton",
    "history_embed",
    "history_page",
    "undo_reply",
]

log = logging.getLogger(__name__)

Character = app_commands.Transform[StoredCharacter, CharacterTransformer]

#: ``/history`` shows this many entries a page, newest first (COMMANDS.md).
HISTORY_LIMIT = 10
#: Pages further back than this are not offered (a page is one query with an offset).
MAX_PAGE = 9999


def history_embed(
    entries: Sequence[HistoryEntry],
    language: Language,
    character: StoredCharacter | None,
    page: int = 1,
) -> discord.Embed:
    """A page of entries (newest first) touching ``character``, or the whole server."""
    if character is None:
        title = text(language, "history.title.server")
    else:
        title = text(language, "history.title.character", name=character.name)
    if page > 1:
        title = text(language, "history.title.page", title=title, page=page)
    lines = history_lines(entries, language)
    description = "\n".join(lines) if lines else text(language, "render.history.empty")
    embed = discord.Embed(
        title=title[:TITLE_LIMIT], description=description[:DESCRIPTION_LIMIT], colour=INFO_COLOUR
    )
    if entries:
        embed.set_footer(text=text(language, "history.footer", limit=HISTORY_LIMIT))
    return embed


async def history_page(
    here: Here, character: StoredCharacter | None, page: int
) -> tuple[discord.Embed, discord.ui.View | None]:
    """Page ``page`` (1-based) of the history with its ◀ ▶ buttons (None when one page)."""
    page = min(max(page, 1), MAX_PAGE)
    async with here.storage.read() as reader:
        entries = await reader.history(
            here.guild_id,
            None if character is None else character.id,
            limit=HISTORY_LIMIT + 1,
            offset=(page - 1) * HISTORY_LIMIT,
        )
    more = len(entries) > HISTORY_LIMIT
    language = here.public_language
    embed = history_embed(entries[:HISTORY_LIMIT], language, character, page)
    if page == 1 and not more:
        return embed, None
    subject = 0 if character is None else character.id
    view = discord.ui.View(timeout=None)
    view.add_item(
        HistoryPageButton(subject, page - 1, text(language, "history.previous"), disabled=page == 1)
    )
    view.add_item(
        HistoryPageButton(subject, page + 1, text(language, "history.next"), disabled=not more)
    )
    return embed, view


class HistoryPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"salud:page:history:(?P<character_id>[0-9]{1,20}):(?P<page>[0-9]{1,4})",
):
    """Turns a ``/history`` message to another page, read afresh; anyone may press it (anyone
    may look), and it keeps working after a restart (its id says the page and character)."""

    def __init__(
        self, character_id: int, page: int, label: str = "", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(page),
                style=discord.ButtonStyle.secondary,
                custom_id=f"salud:page:history:{character_id}:{max(page, 0)}",
                disabled=disabled,
            )
        )
        self.character_id = character_id
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HistoryPageButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["character_id"]), int(match["page"]), label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            here = await Here.of(interaction)
            character: StoredCharacter | None = None
            if self.character_id:
                async with here.storage.read() as reader:
                    character = await reader.get_character(here.guild_id, self.character_id)
                if character is None:
                    raise UserFacingError("error.character_gone")
            embed, view = await history_page(here, character, self.page)
            await interaction.response.edit_message(
                embeds=[embed], view=view, allowed_mentions=NO_MENTIONS
            )
        except Exception as error:
            await report_error(interaction, error)


def _health(character: StoredCharacter) -> str:
    return f"{character.health.health} / {character.health.max_health}"


def undo_reply(
    result: UndoResult, language: Language
) -> tuple[str, list[discord.Embed], list[list[discord.Embed]], bool]:
    """Content, embeds, further messages' embeds and whether to announce: what was reverted
    (the command, when, who) and each character's Health now → restored, with their status
    embeds."""
    reverted = result.reverted
    header = text(
        language,
        "history.undo.done",
        actor=mention(result.undo_entry.actor_id),
        command=entry_words(reverted, language),
        entry=reverted.id,
        author=mention(reverted.actor_id),
        when=discord.utils.format_dt(reverted.created_at, "R"),
    )
    restored = {character.id: character for character in result.restored}
    touched: list[Touched] = []
    for change in reverted.characters:
        now = change.after  # as the reverted change left it: what the undo starts from
        back = restored.get(change.character_id)
        # Every value that changes back, said once in the content (``bot.undo_preview``, as
        # the GM saw it before confirming); the embeds show the characters as they are now.
        if back is None:
            touched.append(Touched(now, None, None))
        elif now is None:
            outcome = Outcome(before=back.health, after=back.health, events=())
            touched.append(Touched(None, back, outcome))
        else:
            outcome = Outcome(before=now.health, after=back.health, events=())
            touched.append(Touched(now, back, outcome))
    header += "\n" + clip_lines(
        reversal_lines(reverted, language), language, CONTENT_LIMIT - len(header) - 1
    )
    content, embeds, more = change_reply(header, touched, language)
    # Announced like any change: a death undone, or a character knocked out again.
    announce = should_announce(
        item.outcome for item in touched if item.outcome is not None and item.before is not None
    )
    return content, embeds, more, announce


class HistoryCog(commands.Cog):
    """A server's changes: looking back (anyone) and taking the latest back (GM)."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(UndoButton, HistoryPageButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(UndoButton, HistoryPageButton)

    @app_commands.command(
        name="history",
        description=_("The last changes of a character or of the server", key="cmd.history"),
    )
    @app_commands.guild_only()
    @app_commands.describe(
        character=_("The character (default: the whole server)", key="cmd.history.character")
    )
    async def history(
        self, interaction: discord.Interaction[SaludBot], character: Character | None = None
    ) -> None:
        here = await Here.of(interaction)
        embed, view = await history_page(here, character, 1)
        await send_public(interaction, embeds=[embed], view=view)

    @app_commands.command(
        name="undo", description=_("GM: revert the server's latest change", key="cmd.undo")
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction[SaludBot]) -> None:
        """Shows privately what it would revert and asks to confirm (``UndoButton``)."""
        here = await Here.of(interaction)
        here.require_gm("history.action.undo")
        async with here.storage.read() as reader:
            latest = await reader.latest_undoable(here.guild_id)
        if latest is None:
            raise UserFacingError("history.undo.nothing")
        language = here.private_language
        await send_private(
            interaction,
            embeds=[preview_embed(latest, language)],
            view=undo_view(latest.id, here.user_id, language),
        )


def undo_view(entry_id: int, gm_id: int, language: Language) -> discord.ui.View:
    """Confirm / Cancel for one previewed entry, for the GM who asked only."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(entry_id, gm_id, "yes", text(language, "undo.button.confirm")))
    view.add_item(UndoButton(entry_id, gm_id, "no", text(language, "undo.button.cancel")))
    return view


class _Superseded(Exception):
    """Another change came in after the preview: ``latest`` is what an undo reverts now."""

    def __init__(self, latest: HistoryEntry | None) -> None:
        super().__init__("superseded")
        self.latest = latest


async def _replace_question(
    interaction: discord.Interaction[Any],
    content: str | None,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
) -> None:
    """Edit the private question whose button was pressed (also after a deferral)."""
    kwargs: dict[str, Any] = {
        "content": content,
        "embeds": list(embeds),
        "view": view,
        "allowed_mentions": NO_MENTIONS,
    }
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"salud:undo:(?P<entry_id>[0-9]{1,20}):(?P<gm_id>[0-9]{1,20}):(?P<answer>yes|no)",
):
    """Confirm or cancel the ``/undo`` of one previewed entry; for the GM who asked only.

    Confirming reverts that entry only: if another change came in since, the question is
    replaced by the new preview (to confirm again), and nothing is reverted.
    """

    def __init__(self, entry_id: int, gm_id: int, answer: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if answer == "yes" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=(label or answer)[:80],
                style=style,
                custom_id=f"salud:undo:{entry_id}:{gm_id}:{answer}",
            )
        )
        self.entry_id = entry_id
        self.gm_id = gm_id
        self.answer = answer

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> UndoButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["entry_id"]), int(match["gm_id"]), match["answer"], label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self._answer(interaction)
        except Exception as error:
            await report_error(interaction, error)

    async def _answer(self, interaction: discord.Interaction[Any]) -> None:
        here = await Here.of(interaction)
        if here.user_id != self.gm_id:
            raise UserFacingError("undo.error.not_yours", gm=mention(self.gm_id))
        here.require_gm("history.action.undo")
        language = here.private_language
        if self.answer != "yes":
            await _replace_question(interaction, text(language, "undo.cancelled"))
            return
        # Acknowledged without a message: the public reply follows up, then the question
        # says it is done (so the GM's screen ends with the answer in place).
        await interaction.response.defer()
        try:
            async with here.storage.transaction() as tx:
                await here.refuse_repeated(tx)
                latest = await tx.latest_undoable(here.guild_id)
                if latest is None or latest.id != self.entry_id:
                    previewed = await tx.get_history_entry(here.guild_id, self.entry_id)
                    if previewed is not None and previewed.undone:  # pressed twice
                        raise UserFacingError("undo.error.already", entry=self.entry_id)
                    raise _Superseded(latest)
                result = await tx.undo_latest(here.guild_id, here.interaction.id, here.user_id)
                if result is None:  # pragma: no cover - the entry was just read in this tx
                    raise _Superseded(None)
                pending = [c.id for c in result.restored if c.health.roll_pending]
                await renumber_rolls(tx, here.guild_id, pending)
        except _Superseded as moved:
            if moved.latest is None:
                await _replace_question(interaction, text(language, "history.undo.nothing"))
                return
            await _replace_question(
                interaction,
                None,
                [preview_embed(moved.latest, language, changed=True)],
                undo_view(moved.latest.id, self.gm_id, language),
            )
            return
        content, embeds, more, announce = undo_reply(result, here.public_language)
        await send_change(
            interaction, embeds, announce=announce, here=here, content=content, more=more
        )
        await _replace_question(interaction, text(language, "undo.confirmed", entry=self.entry_id))


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(HistoryCog(bot))
