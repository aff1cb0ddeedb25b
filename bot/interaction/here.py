"""Where a command runs: ``Here.of(interaction)`` reads the server's settings once and derives
the languages to answer in and who may do what; it reaches the bot's storage and dice through
the interaction as Salud received it (``bot.interaction.context``), with its ``Ticket``.

A command reads like this (``cogs/health.py``, ``bot/features/health/hurt.py``)::

    here = await Here.of(interaction)                 # guild, settings, languages, GM-ness
    here.require_owner_or_gm(character, "action.hurt")
    await send_reply(here, await wound(here, targets, amount, reason))

and the feature it calls, ``wound``, makes one change with its history entry::

    async with here.change() as tx:
        ...
        await here.history(hurt_details(amount, reason, hits)).record(tx)
    return ChangeReply(...)                           # what the cog sends

Errors are raised, never sent: ``UserFacingError(key, **params)``, a ``RuleError`` or a
storage error; ``bot.interaction.tree`` turns them into an ephemeral localised reply.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import discord
from discord import app_commands

import bot.interaction.permissions as permissions
from bot.i18n import Language, public_language, text, user_language
from bot.i18n.grammar import gendered
from bot.interaction.context import SaludInteraction, salud_of
from bot.interaction.errors import UserFacingError
from bot.render.limits import TITLE_LIMIT
from bot.render.sanitize import escape
from bot.storage.details import Details
from bot.storage.errors import CharacterNotFound
from bot.storage.interface import HistoryEntry, StorageChange, StorageEngine, StorageReads
from bot.storage.memory import ServerNames
from bot.storage.models import CharacterRef, GuildSettings, StoredCharacter
from bot.storage.tables import GameTable, TableDirectory
from rules.dice import Roller

__all__ = ["Here", "guild_id_of", "private_language", "table_of"]

T = TypeVar("T")


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    """The server's id; refuses a DM (every command is guild-only)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def places_of(interaction: discord.Interaction[Any]) -> tuple[int | None, int | None]:
    """The channel an interaction was used in and that channel's parent as the interaction
    says it (a thread's channel or forum, a channel's category)."""
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None) or getattr(channel, "category_id", None)
    return interaction.channel_id, parent if isinstance(parent, int) else None


def table_of(interaction: discord.Interaction[Any], storage: StorageEngine) -> GameTable:
    """The table where the interaction plays: the innermost bound place (thread, channel or
    forum, category), else the main table; from memory alone (``TableDirectory``)."""
    guild_id = guild_id_of(interaction)
    channel_id, parent_id = places_of(interaction)
    tables: TableDirectory = storage.tables
    return tables.table_for(guild_id, tables.places_from(channel_id, parent_id))


@dataclass(frozen=True)
class Here:
    """One interaction in one server, at one of its tables: settings read once, languages
    and permissions derived.

    ``server_id`` is the server's; ``table_id`` is the table's (the main table's is the
    server's id), under which the table's characters, history and tracker are stored.
    ``settings`` are the server's, with the table's announcement channel."""

    interaction: SaludInteraction[Any]
    server_id: int
    settings: GuildSettings
    table: GameTable

    @classmethod
    async def of(cls, interaction: discord.Interaction[Any]) -> Here:
        """The server's settings for this interaction (refuses DMs), read once per
        interaction (kept on it): the option transformers and the command itself
        all ask, and a read may be a storage round trip. The table costs none."""
        guild_id = guild_id_of(interaction)
        received = salud_of(interaction)
        if received.settings is None or received.settings.guild_id != guild_id:
            received.settings = await received.services.storage.settings(guild_id, received.ticket)
        table = table_of(received, received.services.storage)
        settings = received.settings
        if not table.is_main:
            settings = replace(settings, channel_id=table.channel_id)
        return cls(received, guild_id, settings, table)

    @property
    def table_id(self) -> int:
        return self.table.id

    @property
    def several_tables(self) -> bool:
        """Whether the server has more than its main table (only then do replies name it)."""
        return self.storage.tables.several(self.server_id)

    async def of_character(self, character_id: int) -> Here:
        """This interaction at the table where ``character_id`` plays now, when that is one
        of this server's tables (a roll button rolls its character's roll wherever it has
        moved); else as it is. One read: buttons only, never a command's hot path."""
        if not self.several_tables:
            return self
        async with self.read() as reader:
            for table in self.storage.tables.tables(self.server_id):
                if await reader.get_character(table.id, character_id) is not None:
                    return self if table.id == self.table_id else self.at_table(table)
        return self

    def titled(self, embed: discord.Embed) -> discord.Embed:
        """With more than one table, the title names this one (``Personajes · Miskatonic``);
        a server with only its main table sees its titles as they were."""
        if self.several_tables and embed.title:
            name = self.table.name or text(self.public_language, "table.main_name")
            embed.title = f"{embed.title} · {escape(name)}"[:TITLE_LIMIT]
        return embed

    def at_table(self, table: GameTable) -> Here:
        """The same interaction at another table of its server (a button whose character
        plays elsewhere now)."""
        settings = self.interaction.settings or self.settings
        if not table.is_main:
            settings = replace(settings, channel_id=table.channel_id)
        return replace(self, table=table, settings=settings)

    @property
    def storage(self) -> StorageEngine:
        return self.interaction.services.storage

    @property
    def dice(self) -> Roller:
        return self.interaction.services.dice

    def read(self) -> AbstractAsyncContextManager[StorageReads]:
        """Reads under the storage's lock, waiting as this interaction may
        (``Storage.read`` with its ticket)."""
        return self.storage.read(self.interaction.ticket)

    def settings_change(self) -> AbstractAsyncContextManager[StorageChange]:
        """A transaction that changes the server's ``/config`` (no character, no history)."""
        return self.storage.transaction(require_record=False, ticket=self.interaction.ticket)

    async def names(self) -> ServerNames:
        """The server's characters as the options resolve them (``Storage.names``)."""
        return await self.storage.names(self.table_id, self.interaction.ticket)

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def private_language(self) -> Language:
        """For ephemeral replies: the user's Discord language if es/en, else the server's."""
        return user_language(
            self.interaction.locale, self.settings.language, self.interaction.guild_locale
        )

    @property
    def public_language(self) -> Language:
        """For public replies: ``/config language``, else Spanish if the server is, else English."""
        return public_language(self.settings.language, self.interaction.guild_locale)

    @property
    def is_server_gm(self) -> bool:
        """A GM of the server (Manage Server or ``/config gm-role``): a GM at every table."""
        return permissions.is_gm(
            self.interaction, self.settings.gm_role_id, self.interaction.role_ids
        )

    def is_gm_at(self, table: GameTable) -> bool:
        """A GM at ``table``: of the server, or of the table's own GM role."""
        if self.is_server_gm:
            return True
        return table.gm_role_id is not None and permissions.has_role(
            self.interaction, table.gm_role_id, self.interaction.role_ids
        )

    @property
    def is_gm(self) -> bool:
        """A GM at the table where the command plays."""
        return self.is_gm_at(self.table)

    def require_server_gm(self, action_key: str) -> None:
        """Refuse unless a GM of the server (a table's GM role is not enough)."""
        if not self.is_server_gm:
            raise UserFacingError("error.not_gm", action=text(self.private_language, action_key))

    def require_gm(self, action_key: str) -> None:
        """Refuse unless a GM: "Only a GM (Manage Server or the GM role) can <action>."."""
        self.require_gm_at(self.table, action_key)

    def require_gm_at(self, table: GameTable, action_key: str) -> None:
        """Refuse unless a GM at ``table`` (of the server, or of the table's own GM role)."""
        if not self.is_gm_at(table):
            raise UserFacingError("error.not_gm", action=text(self.private_language, action_key))

    def is_owner_or_gm(self, character: CharacterRef) -> bool:
        return self.interaction.user.id == character.owner_id or self.is_gm

    def require_owner_or_gm(self, character: CharacterRef, action_key: str) -> None:
        """Refuse unless owner or GM: "Only <name>'s owner or a GM can <action>."."""
        if not self.is_owner_or_gm(character):
            raise UserFacingError(
                "error.not_owner",
                name=escape(character.name),
                action=gendered(self.private_language, action_key, character.gender),
            )

    @asynccontextmanager
    async def change(self) -> AsyncIterator[StorageChange]:
        """The frame of every change: one transaction (committed when the block ends, rolled
        back when it raises) that refuses an interaction already applied and commits only
        when the reply can still reach Discord (the interaction's ticket acknowledges it
        first when the wait or the ``COMMIT`` would end too late: ``bot.interaction.deferral``).

        A repeat is refused in memory (``Storage.applied_recently``: Discord repeats an
        interaction only within a resumed session); one it misses is refused when its change
        is recorded (the history's unique index, ``AlreadyApplied``), which rolls it back.
        """
        async with self.storage.transaction(
            ticket=self.interaction.ticket, guild_id=self.table_id
        ) as tx:
            if self.storage.applied_recently(self.interaction.id):
                raise UserFacingError("error.already_applied")
            channel_id = self.interaction.channel_id
            if channel_id is not None:
                tx.reply_to = (self.interaction.id, channel_id)
            yield tx

    async def character_in(self, tx: StorageChange, character_id: int) -> StoredCharacter:
        """The character ``character_id`` of this table, read inside the change ``tx`` (a
        roll's: refused when it is gone since the press), and noted as the subject of the
        ``character`` option, which a refusal names (``bot.interaction.subjects``)."""
        current = await tx.get_character(self.table_id, character_id)
        if current is None:
            raise CharacterNotFound(self.table_id, character_id)
        self.interaction.subjects["character"] = current
        return current

    async def whole_server_change(self, body: Callable[[StorageChange], Awaitable[T]]) -> T:
        """``change``'s frame for a change of every character of the table (``/scene new``,
        ``/refresh``): ``body(tx)`` is prepared before the write lock, so that another
        server's command is not held while thousands of characters are read and worked out
        (``Storage.prepared_change``); it may run twice, and must leave nothing behind but
        what it returns."""

        async def framed(tx: StorageChange) -> T:
            if self.storage.applied_recently(self.interaction.id):
                raise UserFacingError("error.already_applied")
            channel_id = self.interaction.channel_id
            if channel_id is not None:
                tx.reply_to = (self.interaction.id, channel_id)
            return await body(tx)

        return await self.storage.prepared_change(
            framed, guild_id=self.table_id, ticket=self.interaction.ticket
        )

    def history(self, details: Details) -> HistoryRecord:
        """The history entry of this change: this table, interaction and actor, and the
        command's details (``bot.storage.details``: one class per command, which names it);
        ``await here.history(details).record(tx)``."""
        return HistoryRecord(self.table_id, self.interaction.id, self.user_id, details)


@dataclass(frozen=True)
class HistoryRecord:
    """One change's history entry, as the interaction that makes it knows it."""

    #: The table's id (the server's for its main table): what every table-scoped write takes.
    guild_id: int
    interaction_id: int
    actor_id: int
    details: Details

    @property
    def command(self) -> str:
        return self.details.command

    async def record(self, tx: StorageChange) -> HistoryEntry | None:
        """Record it in the change ``tx`` (None when no stored value changed)."""
        return await tx.record(
            guild_id=self.guild_id,
            interaction_id=self.interaction_id,
            actor_id=self.actor_id,
            command=self.command,
            details=self.details,
        )


async def private_language(interaction: discord.Interaction[Any]) -> Language:
    """The language of an ephemeral reply, also outside a command (errors, DMs)."""
    configured: str | None = None
    if interaction.guild_id is not None:
        received = salud_of(interaction)
        settings = received.settings
        if settings is None:
            settings = await received.services.storage.settings(
                interaction.guild_id, received.ticket
            )
        configured = settings.language
    return user_language(interaction.locale, configured, interaction.guild_locale)
