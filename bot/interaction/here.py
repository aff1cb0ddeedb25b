"""Where a command runs: ``Here.of(interaction)`` reads the server's settings once and derives
the languages to answer in and who may do what; ``services_of`` gives the bot's storage and
dice without importing the bot itself.

A command reads like this (see ``cogs/character.py``)::

    here = await Here.of(interaction)                 # guild, settings, languages, GM-ness
    here.require_owner_or_gm(character, "action.hurt")
    async with here.change() as tx:                   # one change, one history entry
        ...
        await tx.record(**here.history("hurt", details={...}))
    await send_change(interaction, [embed], announce=announce_worthy(before, after), here=here)

Errors are raised, never sent: ``UserFacingError(key, **params)``, a ``RuleError`` or a
storage error; ``bot.interaction.tree`` turns them into an ephemeral localised reply.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol, cast

import discord
from discord import app_commands

from bot.config.dice import Roller
from bot.i18n import Language, public_language, text, user_language
from bot.interaction import permissions
from bot.interaction.deferral import DEFER_AFTER, acknowledged
from bot.interaction.errors import UserFacingError
from bot.render.sanitize import escape
from bot.storage import CharacterRef, GuildSettings, Storage, Transaction

__all__ = ["Here", "Services", "guild_id_of", "private_language", "services_of"]

#: Where ``Here.of`` keeps the interaction's ``Here`` in ``interaction.extras``.
_HERE_KEY = "salud.here"


class Services(Protocol):
    """What the bot gives its commands and buttons (``bot.app.SaludBot`` has both)."""

    @property
    def storage(self) -> Storage: ...

    @property
    def roller(self) -> Roller: ...


def services_of(interaction: discord.Interaction[Any]) -> Services:
    """The running bot's storage and dice, typed."""
    return cast("Services", interaction.client)


def guild_id_of(interaction: discord.Interaction[Any]) -> int:
    """The server's id; refuses a DM (every command is guild-only)."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


@dataclass(frozen=True)
class Here:
    """One interaction in one server: settings read once, languages and permissions derived."""

    interaction: discord.Interaction[Any]
    guild_id: int
    settings: GuildSettings

    @classmethod
    async def of(cls, interaction: discord.Interaction[Any]) -> Here:
        """Read the server's settings for this interaction (refuses DMs).

        Read once per interaction and kept in ``interaction.extras``: the option transformers
        and the command itself all ask, and each read is a storage round trip (issue 6).
        """
        cached = interaction.extras.get(_HERE_KEY)
        if isinstance(cached, Here) and cached.interaction is interaction:
            return cached
        guild_id = guild_id_of(interaction)
        settings = await services_of(interaction).storage.settings(guild_id)
        here = cls(interaction, guild_id, settings)
        interaction.extras[_HERE_KEY] = here
        return here

    @property
    def storage(self) -> Storage:
        return services_of(self.interaction).storage

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
    def is_gm(self) -> bool:
        return permissions.is_gm(self.interaction, self.settings.gm_role_id)

    def require_gm(self, action_key: str) -> None:
        """Refuse unless a GM: "Only a GM (Manage Server or the GM role) can <action>."."""
        if not self.is_gm:
            raise UserFacingError("error.not_gm", action=text(self.private_language, action_key))

    def is_owner_or_gm(self, character: CharacterRef) -> bool:
        return permissions.is_owner_or_gm(
            self.interaction, character.owner_id, self.settings.gm_role_id
        )

    def require_owner_or_gm(self, character: CharacterRef, action_key: str) -> None:
        """Refuse unless owner or GM: "Only <name>'s owner or a GM can <action>."."""
        if not self.is_owner_or_gm(character):
            raise UserFacingError(
                "error.not_owner",
                name=escape(character.name),
                action=text(self.private_language, action_key),
            )

    @asynccontextmanager
    async def change(self) -> AsyncIterator[Transaction]:
        """The frame of every change: one transaction (committed when the block ends, rolled
        back when it raises) that refuses an interaction already applied and commits only if
        the reply can still reach Discord.

        A repeat is refused in memory (``Storage.applied_recently``: Discord repeats an
        interaction only within a resumed session); one it misses is refused when its change
        is recorded (the history's unique index, ``AlreadyApplied``), which rolls it back.
        """
        async with self.storage.transaction() as tx:
            if self.storage.applied_recently(self.interaction.id):
                raise UserFacingError("error.already_applied")
            tx.guard_commit(self._answerable)
            yield tx

    async def _answerable(self) -> None:
        """Just before a change is committed: if the interaction has not been answered and is
        old enough to risk Discord's 3-second limit, acknowledge it now (the reply then fills
        it). If Discord refuses (too late: 404), the exception rolls the change back.

        Without this, a command that waited long for the database (many commands at once)
        stored its change and then had its reply refused: the player saw "did not respond"
        and would try again, applying it twice (found by issue 6's overload probe). The rules
        have run by now, so a refusal can no longer follow the public acknowledgement.
        """
        interaction = self.interaction
        if interaction.response.is_done():
            return
        if time.time() - interaction.created_at.timestamp() < DEFER_AFTER:
            return
        acknowledged()
        if interaction.type is discord.InteractionType.application_command:
            await interaction.response.defer(thinking=True)
        else:
            # A button: acknowledge without a message; its reply then follows up or edits the
            # button's message (``update_message``).
            await interaction.response.defer()

    def history(self, command: str, details: dict[str, Any] | None = None) -> dict[str, Any]:
        """Keyword arguments for ``tx.record``: this guild, interaction and actor."""
        return {
            "guild_id": self.guild_id,
            "interaction_id": self.interaction.id,
            "actor_id": self.user_id,
            "command": command,
            "details": details or {},
        }


async def private_language(interaction: discord.Interaction[Any]) -> Language:
    """The language of an ephemeral reply, also outside a command (errors, DMs)."""
    configured: str | None = None
    if interaction.guild_id is not None:
        configured = (
            await services_of(interaction).storage.settings(interaction.guild_id)
        ).language
    return user_language(interaction.locale, configured, interaction.guild_locale)
