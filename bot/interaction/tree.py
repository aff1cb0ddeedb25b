"""Errors in one place: every refusal becomes an ephemeral, localised, specific reply.

Cogs raise; they never format an error themselves. ``SaludTree.on_error`` (slash commands)
and ``report_error`` (buttons, which do not pass through the tree) answer:

- ``UserFacingError(key, **params)``  → the catalog message ``key``;
- ``rules.errors.RuleError``          → ``error.<code>`` (or ``error.<code>.<reason>``);
- ``bot.storage.errors``              → duplicate name, character gone, already applied,
                                        a full disk, a disk refusing writes, the database
                                        file gone;
- failed checks / bad option values   → guild only, not allowed, invalid value;
- anything else                       → logged with command and server, ``error.unexpected``.

An interaction is never left unanswered: the reply is a followup when the response was
already sent or deferred.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import Language, catalog, text
from bot.i18n.grammar import gendered
from bot.interaction.errors import UserFacingError
from bot.interaction.here import private_language
from bot.interaction.option_types import check_option_types
from bot.interaction.sending import send_private
from bot.interaction.subjects import subject_of
from bot.render.sanitize import escape, visible
from bot.storage.errors import (
    AlreadyApplied,
    CharacterNotFound,
    DatabaseGone,
    DuplicateName,
    StorageClosed,
    StorageFull,
    StorageUnreachable,
    StorageUnwritable,
    TooManyCharacters,
)
from bot.storage.fair_lock import LockDeadline
from bot.storage.models import CharacterRef
from rules.errors import Party, RuleError

__all__ = ["SaludTree", "error_message", "report_error"]

log = logging.getLogger(__name__)


def _rule_key(error: RuleError) -> str:
    """``error.<code>.<reason>`` when the catalog has that finer message, else ``error.<code>``."""
    reason = error.params.get("reason")
    english = catalog(Language.EN)
    if reason is not None and f"error.{error.code}.{reason}" in english:
        return f"error.{error.code}.{reason}"
    if f"error.{error.code}" in english:
        return f"error.{error.code}"
    log.error("no message for rule error %r", error)
    return "error.rule"


def _quoted(value: int | str) -> int | str:
    """A value a refusal quotes back (often text the user typed): no control or invisible
    characters, markdown escaped, so ``**5**`` reads as typed and nothing pings."""
    if not isinstance(value, str):
        return value
    return escape(visible(value))


def _rule_params(language: Language, error: RuleError) -> dict[str, int | str]:
    """The refusal's values, with a field code (``max_health``) said in words."""
    params = {key: _quoted(value) for key, value in error.params.items()}
    field = params.get("field")
    if isinstance(field, str) and f"render.field.{field}" in catalog(language):
        params["field"] = text(language, f"render.field.{field}")
    return params


def _rule_message(language: Language, error: RuleError, about: CharacterRef | None) -> str:
    """A refusal of the rules, naming the character it is about (COMMANDS.md "Refusals")."""
    params: dict[str, object] = dict(_rule_params(language, error))
    # A refusal's own ``name`` (a reserved ability's name, as typed) wins.
    if about is not None:
        params.setdefault("name", escape(about.name))
    else:
        params.setdefault("name", text(language, "error.subject.unknown"))
    return gendered(language, _rule_key(error), about.gender if about else None, **params)


def error_message(
    language: Language,
    error: BaseException,
    about: Callable[[Party], CharacterRef | None] = (lambda party: None),
) -> str | None:
    """The user's message for a known refusal, or None for an unexpected error.

    ``about`` gives the character that plays the party a rule's refusal concerns
    (``RuleError.party``), for its name and gender."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        cause = error.__cause__ if isinstance(error, app_commands.TransformerError) else None
        inner = error.original if isinstance(error, app_commands.CommandInvokeError) else cause
        if inner is not None:
            message = error_message(language, inner, about)
            if message is not None:
                return message
        if isinstance(error, app_commands.TransformerError):
            # A value the option cannot take (a choice that is not in the list, a member who
            # left): "error.invalid_value" is the rules' range message ({field}, {min}, {max}).
            shown = escape(str(error.value)[:100])
            return text(language, "error.bad_option", value=shown)
        return None
    if isinstance(error, UserFacingError):
        return text(language, error.key, **error.params)
    if isinstance(error, RuleError):
        return _rule_message(language, error, about(error.party))
    if isinstance(error, DuplicateName):
        return text(language, "error.duplicate_name", name=_quoted(error.name))
    if isinstance(error, CharacterNotFound):
        return text(language, "error.character_gone")
    if isinstance(error, AlreadyApplied):
        return text(language, "error.already_applied")
    if isinstance(error, LockDeadline):
        return text(language, "lifecycle.busy")
    if isinstance(error, StorageClosed):
        return text(language, "lifecycle.restarting")
    if isinstance(error, StorageFull):  # the storage logs it, once a minute
        return text(language, "error.storage_full")
    if isinstance(error, StorageUnreachable):  # nothing stored; the engine reconnects
        return text(language, "error.storage_unreachable")
    if isinstance(error, StorageUnwritable):  # the storage logs it, once a minute
        return text(language, "error.storage_unwritable")
    if isinstance(error, DatabaseGone):  # the storage logs it, once
        return text(language, "error.database_gone")
    if isinstance(error, TooManyCharacters):
        return text(language, "error.too_many_characters", max=error.limit)
    if isinstance(error, app_commands.NoPrivateMessage):
        return text(language, "error.guild_only")
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return text(language, "error.outdated_command")
    if isinstance(error, app_commands.CheckFailure):
        return text(language, "error.not_allowed")
    return None


def _caused_by(error: BaseException | None, kind: type[BaseException], code: int = 0) -> bool:
    """Whether ``error`` is, or was caused by, a ``kind`` (of Discord's error ``code``)."""
    seen = 0
    while error is not None and seen < 5:
        if isinstance(error, kind) and (not code or getattr(error, "code", None) == code):
            return True
        error = getattr(error, "original", None) or error.__cause__
        seen += 1
    return False


def _expired(error: BaseException | None) -> bool:
    """Whether Discord refused an answer because the interaction expired (404, code 10062)."""
    return _caused_by(error, discord.NotFound, 10062)


def _answered_elsewhere(error: BaseException) -> bool:
    """Whether another process has this interaction (Discord delivered it to two sessions
    of one shard): it applied the change (the history's unique interaction id), or its
    answer reached Discord first (400, code 40060). That process answers; this one must not."""
    return _caused_by(error, AlreadyApplied) or _caused_by(error, discord.HTTPException, 40060)


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` with the message for ``error``; log it when unexpected."""
    if _answered_elsewhere(error):
        log.info("interaction %s is another process's: not answered here", interaction.id)
        return
    if _expired(error) and not interaction.response.is_done():
        # Past Discord's 3 s without an answer: no reply can reach the player any more (the
        # bot was overloaded, or Discord slow). Here._answerable keeps such a change unstored.
        log.warning(
            "interaction %s in guild %s expired before it could be answered",
            interaction.id,
            interaction.guild_id,
        )
        return
    try:
        language = await private_language(interaction)
    except Exception:
        log.exception("could not read the language for an error reply")
        language = Language.EN
    message = error_message(language, error, lambda party: subject_of(interaction, party))
    if message is None:
        try:
            command = interaction.command.qualified_name if interaction.command else None
        except Exception:  # a payload discord.py cannot read a command from
            command = None
        custom_id = (interaction.data or {}).get("custom_id") if interaction.data else None
        original = getattr(error, "original", error)
        log.error(
            "Unexpected error in %s (guild %s, interaction %s)",
            f"/{command}" if command else f"component {custom_id!r}",
            interaction.guild_id,
            interaction.id,
            exc_info=original,
        )
        message = text(language, "error.unexpected")
    else:
        log.debug("refused %s: %r", interaction.id, error)
    try:
        await send_private(interaction, message)
    except discord.HTTPException as failure:
        if _expired(failure):
            log.warning(
                "interaction %s in guild %s expired before its error reply was sent",
                interaction.id,
                interaction.guild_id,
            )
            return
        log.exception("could not send the error reply for interaction %s", interaction.id)


#: The bot the tree belongs to (``bot.app.SaludBot``), never imported here.
ClientT = TypeVar("ClientT", bound=discord.Client)


class SaludTree(app_commands.CommandTree[ClientT]):
    """The command tree of Salud: refuses DMs and answers every error."""

    async def interaction_check(self, interaction: discord.Interaction[ClientT]) -> bool:
        if interaction.guild_id is not None:
            if interaction.type is discord.InteractionType.application_command:
                check_option_types(self, interaction.data)
            return True
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            await send_private(
                interaction, text(await private_language(interaction), "error.guild_only")
            )
        return False

    async def on_error(
        self,
        interaction: discord.Interaction[discord.Client],
        error: app_commands.AppCommandError,
        /,
    ) -> None:
        await report_error(interaction, error)
