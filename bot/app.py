"""``SaludBot``: the discord.py client, given its storage, settings and dice at construction;
its ``Services`` are built in ``setup_hook`` and closed in ``close``."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, TypeAlias

import discord
from discord import app_commands
from discord.ext import commands

from bot.config.settings import Settings
from bot.discord_rest.invalid_requests import InvalidRequests
from bot.features.registry import register_buttons
from bot.gateway.intake import Intake
from bot.gateway.lean_state import LeanClient
from bot.gateway.places import PlaceFollower
from bot.gateway.sync import SYNC_HASH_KEY, SYNC_TURN_KEY, command_hash
from bot.i18n import SaludTranslator
from bot.interaction.here import Here
from bot.interaction.tree import SaludTree
from bot.services import Services
from bot.storage.interface import StorageEngine
from rules.dice import Roller

__all__ = [
    "EXTENSIONS",
    "INVITE_PERMISSIONS",
    "SaludBot",
    "gateway_intents",
    "invite_url",
    "ready_line",
]

log = logging.getLogger(__name__)

#: Cogs loaded at start, in this order; a missing one is an error.
EXTENSIONS: tuple[str, ...] = (
    "cogs.character",
    "cogs.config",
    "cogs.tables",
    "cogs.help",
    "cogs.health",
    "cogs.scene",
    "cogs.time",
    "cogs.history",
    "cogs.abilities",
    "cogs.ability_use",
    "cogs.stability",
    "cogs.welcome",
)

#: Longest wait at shutdown for answers still in flight.
DRAIN_SECONDS = 5.0
#: Then, once the storage is closed, for the replies of what committed last.
LAST_REPLIES_SECONDS = 1.0

#: What the bot needs in a channel: read it, answer, show embeds.
INVITE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    read_message_history=True,
)


def gateway_intents() -> discord.Intents:
    """``GUILDS`` only: slash commands and buttons arrive as interactions whatever the
    intents, and the guilds intent gives the servers, channels and roles. Every other intent
    would make Discord send events (messages, typing, reactions, voice) the bot never reads,
    each one costing CPU and memory in every server the bot is in."""
    return discord.Intents(guilds=True)


def invite_url(application_id: int) -> str:
    """The link a server owner opens to add the bot, with the minimal permissions."""
    return discord.utils.oauth_url(
        application_id,
        permissions=INVITE_PERMISSIONS,
        scopes=("bot", "applications.commands"),
    )


class SaludBot(LeanClient, commands.AutoShardedBot):
    """The bot. Cogs reach their dependencies as ``self.bot.services`` (built in
    ``setup_hook``); nothing is global, so tests build it with a temporary database and
    scripted dice.

    Sharded from the start: as many shards as Discord recommends (about one per 1,000
    servers; Discord refuses a connection with more than 2,500), or ``SHARD_COUNT`` with
    ``SHARD_IDS`` to split them between processes on one database. Nothing is cached that a
    slash command does not need: no messages, no members beyond the bot itself, no chunking,
    no channels, emojis or stickers of the servers it is in (``bot.gateway.lean_state``).
    """

    tree: SaludTree[SaludBot]

    def __init__(
        self,
        *,
        storage: StorageEngine,
        settings: Settings,
        roller: Roller,
        extensions: Sequence[str] = EXTENSIONS,
    ) -> None:
        # A text-only bot: silence the start-up warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        shards: dict[str, Any] = {"shard_count": settings.shard_count}
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        # Every invalid request the bot makes, counted before Discord does (issue 24.10).
        self._invalid = InvalidRequests()
        self._share = (
            1.0
            if settings.shard_ids is None or not settings.shard_count
            else len(settings.shard_ids) / settings.shard_count
        )
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=gateway_intents(),
            **shards,
            max_messages=None,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            tree_cls=SaludTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            http_trace=self._invalid.trace_config(),
        )
        self.storage = storage
        self._dice = roller
        self._services: Services | None = None
        self._extensions = tuple(extensions)
        self.intake = Intake(self, storage)
        self.follow_places(PlaceFollower(storage))

    @property
    def services(self) -> Services:
        """The storage, dice and keepers, once ``setup_hook`` has built them."""
        if self._services is None:
            raise RuntimeError("the bot's services are built in setup_hook")
        return self._services

    def _guild_locale(self, guild_id: int) -> str | None:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale.value

    async def setup_hook(self) -> None:
        self._services = Services.start(
            self.storage,
            self._dice,
            self,
            self._guild_locale,
            invalid=self._invalid,
            share=self._share,
        )
        await self._services.announcements.load()
        self.intake.services = self._services
        register_buttons(self)
        for name in self._extensions:
            await self.load_extension(name)
        await self.tree.set_translator(SaludTranslator())
        await self.sync_commands_if_changed()

    async def sync_commands_if_changed(self) -> bool:
        """Sync the global commands only when their translated payloads changed since the
        last sync recorded in the database; return whether it synced."""
        fingerprint = await command_hash(self.tree, self.application_id)
        async with self.storage.read() as reader:
            stored = await reader.get_meta(SYNC_HASH_KEY)
        if stored == fingerprint:
            log.info("Commands unchanged since the last sync; not syncing")
            return False
        # Several processes starting together: the first to write the turn's row syncs;
        # the others wait for its commit (the row's lock), then read the hash it stored.
        async with self.storage.transaction(require_record=False) as tx:
            await tx.set_meta(SYNC_TURN_KEY, fingerprint)
            if await tx.get_meta(SYNC_HASH_KEY) == fingerprint:  # sent after the write
                log.info("Commands unchanged since the last sync; not syncing")
                return False
            synced = await self.tree.sync()
            await tx.set_meta(SYNC_HASH_KEY, fingerprint)
        log.info("Synced %d commands with Discord", len(synced))
        return True

    def stop_taking_commands(self) -> None:
        """From now on every new interaction is answered "restarting" and changes nothing."""
        self.intake.stop()

    async def close(self) -> None:
        """Take no more commands, let those in flight finish (each is one committed
        transaction whose user deserves the reply), then disconnect.

        Past ``DRAIN_SECONDS`` the storage is closed first, so that nothing still running
        can commit a change whose reply could no longer be sent."""
        self.stop_taking_commands()
        if not await self.intake.drain(DRAIN_SECONDS):
            await self.storage.close()
            await self.intake.drain(LAST_REPLIES_SECONDS)
        if self._services is not None:
            await self._services.close()
        await super().close()

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """discord.py's events, but a command's completion is an event (a task of its own)
        only in a server with a GM still to tell about its lost announcement channel: for
        every other command the check is this one lookup in memory, not a task per reply."""
        if event_name == "app_command_completion" and not self._must_tell(args[0]):
            return
        super().dispatch(event_name, *args, **kwargs)

    def _must_tell(self, interaction: discord.Interaction[Any]) -> bool:
        services = self._services
        return services is not None and services.announcements.untold(interaction.guild_id)

    async def on_app_command_completion(
        self, interaction: discord.Interaction[Any], command: object
    ) -> None:
        """After a command's reply: a GM of a server whose announcement channel the bot lost
        is told so, once, privately (``bot.discord_rest.announcements``)."""
        services = self._services
        if services is None or not services.announcements.untold(interaction.guild_id):
            return
        try:
            here = await Here.of(interaction)  # the settings the command read: no trip
        except Exception as error:  # the storage busy or closing: the next command tells
            log.warning("could not tell a GM about the announcement channel: %r", error)
            return
        if here.is_gm:
            await services.announcements.tell(interaction, here.private_language)

    async def on_ready(self) -> None:
        shards = sorted(self.shards) if (self.shard_count or 1) > 1 else []
        log.info(
            "%s",
            ready_line(self.user, len(self.guilds), self.application_id, shards, self.shard_count),
        )

    async def on_resumed(self) -> None:
        log.info("Reconnected to Discord")


def ready_line(
    user: object,
    servers: int,
    application_id: int | None,
    shards: Sequence[int] = (),
    shard_count: int | None = None,
) -> str:
    """``Ready as Salud#1234 in 3 servers. Invite it to a server: <URL>``: the one line a
    self-hoster looks for after starting the bot (with the shards run here, when several)."""
    count = "1 server" if servers == 1 else f"{servers} servers"
    line = f"Ready as {user} in {count}"
    if shards:
        line += f", shards {','.join(str(shard) for shard in shards)} of {shard_count}"
    line += "."
    if application_id is not None:
        line += f" Invite it to a server: {invite_url(application_id)}"
    return line


SlashInteraction: TypeAlias = discord.Interaction[SaludBot]
"""The interaction every slash command, autocomplete and button callback of Salud receives:
one name, so that a cog's signature reads as its options."""


class SaludCog(commands.Cog):
    """The one base of every cog of ``EXTENSIONS``: it keeps the bot it was added to, whose
    tree and services the thin adapters reach through ``self.bot``. A slash-command group is
    ``SaludCog, commands.GroupCog``."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()


@app_commands.guild_only()
class SaludGroupCog(SaludCog, commands.GroupCog):
    """The base of a cog that is one slash-command group (``/character …``), used only in a
    server like every command of Salud; its subclass names the group
    (``group_name=…, group_description=…``)."""
