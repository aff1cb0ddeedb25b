"""What every cog needs from Discord, in one place: where a command runs, who used it, in
which language to answer, which character it names, and how to send the reply.

A command reads like this (see ``cogs/character.py``)::

    here = await Here.of(interaction)                 # guild, settings, languages, GM-ness
    here.require_owner_or_gm(character, "action.hurt")
    async with here.storage.transaction() as tx:      # one change, one history entry
        await here.refuse_repeated(tx)
        ...
        await tx.record(**here.history("hurt", details={...}))
    await send_change(interaction, [embed], announce=announce_worthy(before, after), here=here)

Errors are raised, never sent: ``UserFacingError(key, **params)``, a ``RuleError`` or a
storage error; ``bot.tree`` turns them into an ephemeral localised reply.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from bot import permissions
from bot.calling import call_content, call_mentions
from bot.i18n import Language, public_language, text, user_language
from bot.names import Resolution, rank_choices, resolve_name
from bot.storage import GuildSettings, StoredCharacter, Transaction, current_ticket
from bot.subjects import note_options, note_subject
from rules.character import CharacterHealth
from rules.names import MAX_NAME_LENGTH
from rules.state import HealthState

if TYPE_CHECKING:
    from bot.app import SaludBot
    from bot.storage import Reader, Storage

__all__ = [
    "NO_MENTIONS",
    "CharacterTransformer",
    "Here",
    "TextChannelTransformer",
    "UserFacingError",
    "announce_worthy",
    "bot_of",
    "check_range",
    "defer",
    "find_typed_character",
    "private_language",
    "public_placeholder",
    "resolve_character",
    "send_change",
    "send_private",
    "send_public",
    "update_message",
]

log = logging.getLogger(__name__)

#: Every message is sent with this: text typed by users (``@everyone`` as a name) pings nobody.
NO_MENTIONS = discord.AllowedMentions.none()

#: Seconds after which an answer risks Discord's 3-second limit: ``defer`` first.
_DEFER_AFTER = 2.0

#: Where ``Here.of`` keeps the interaction's ``Here`` in ``interaction.extras``.
_HERE_KEY = "salud.here"
#: In ``interaction.extras``: the deferral was ephemeral / a followup filled the placeholder.
_EPHEMERAL_DEFERRAL = "salud.ephemeral_deferral"
_PLACEHOLDER_FILLED = "salud.placeholder_filled"


class UserFacingError(app_commands.AppCommandError):
    """A refusal the user should read: catalog ``key`` filled with ``params``.

    Raise it anywhere in a command, a transformer or a button callback; nothing is changed
    (raise before writing, or inside the transaction so that it rolls back).
    """

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(f"{key} {params!r}")


def bot_of(interaction: discord.Interaction[Any]) -> SaludBot:
    """The running bot, typed."""
    return cast("SaludBot", interaction.client)


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
        settings = await bot_of(interaction).storage.settings(guild_id)
        here = cls(interaction, guild_id, settings)
        interaction.extras[_HERE_KEY] = here
        return here

    @property
    def storage(self) -> Storage:
        return bot_of(self.interaction).storage

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

    def is_owner_or_gm(self, character: StoredCharacter) -> bool:
        return permissions.is_owner_or_gm(
            self.interaction, character.owner_id, self.settings.gm_role_id
        )

    def require_owner_or_gm(self, character: StoredCharacter, action_key: str) -> None:
        """Refuse unless owner or GM: "Only <name>'s owner or a GM can <action>."."""
        if not self.is_owner_or_gm(character):
            raise UserFacingError(
                "error.not_owner",
                name=discord.utils.escape_markdown(character.name),
                action=text(self.private_language, action_key),
            )

    async def refuse_repeated(self, reader: Reader) -> None:
        """Refuse an interaction that already produced a change (applied once).

        Asked in memory (``Storage.applied_recently``: Discord repeats an interaction only
        within a resumed session); a repeat it misses is refused when its change is recorded
        (the history's unique index, ``AlreadyApplied``), which rolls the change back.

        In a transaction (every changing command calls this first), it also makes sure that
        the change is committed only if its reply can still reach Discord (``_answerable``).
        """
        if self.storage.applied_recently(self.interaction.id):
            raise UserFacingError("error.already_applied")
        if isinstance(reader, Transaction):
            reader.guard_commit(self._answerable)

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
        if time.time() - interaction.created_at.timestamp() < _DEFER_AFTER:
            return
        _acknowledged()
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
        configured = (await bot_of(interaction).storage.settings(interaction.guild_id)).language
    return user_language(interaction.locale, configured, interaction.guild_locale)


def check_range(option: str, value: int, minimum: int, maximum: int) -> int:
    """Refuse an option outside its range (Discord enforces it, a client may not)."""
    if not minimum <= value <= maximum:
        raise UserFacingError("error.out_of_range", option=option, min=minimum, max=maximum)
    return value


# --- characters ---------------------------------------------------------------------------


def _typed_name(value: str) -> str:
    return unicodedata.normalize("NFC", value).strip()


async def resolve_character(here: Here, name: str | None) -> StoredCharacter:
    """The character called ``name`` in this server, or the user's only one when omitted.

    Refuses an unknown name, and an omitted one when the user has no character or several.
    """
    if name is not None and any(unicodedata.category(c) in _INVISIBLE for c in _typed_name(name)):
        # No stored name has them (names are cleaned when created), so say what is wrong
        # rather than "no character called Ana" with the invisible character dropped.
        raise UserFacingError("error.invalid_name.control", max_length=MAX_NAME_LENGTH)
    async with here.storage.read() as reader:
        if name is not None:
            return await _find_by_name(here, reader, name)
        own = await reader.characters_of_owner(here.guild_id, here.user_id)
    if not own:
        raise UserFacingError("error.no_character")
    if len(own) > 1:
        names = ", ".join(discord.utils.escape_markdown(c.name) for c in own[:10])
        if len(own) > 10:
            names += ", …"
        raise UserFacingError("error.several_characters", names=names)
    note_subject(here.interaction, "character", own[0])
    return own[0]


async def find_typed_character(
    reader: Reader, guild_id: int, typed: str
) -> tuple[StoredCharacter | None, Resolution]:
    """COMMANDS.md Finding a character by name: the stored name wins (one query); else the
    same name ignoring case, accents and width, or a unique word start (``bot.names``). The
    resolution says, on a miss, which names were alike or close."""
    found = await reader.find_character(guild_id, typed)
    if found is not None:
        return found, Resolution()
    resolution = resolve_name(typed, await reader.name_entries(guild_id))
    if resolution.found is not None:
        return await reader.get_character(guild_id, resolution.found.id), resolution
    return None, resolution


async def _find_by_name(here: Here, reader: Reader, name: str) -> StoredCharacter:
    """The character a typed name names, or a refusal that says what was close."""
    found, resolution = await find_typed_character(reader, here.guild_id, _typed_name(name))
    if found is not None:
        return found
    if resolution.ambiguous:
        raise UserFacingError(
            "error.character_ambiguous",
            name=_shown(name),
            names=_quoted(here, [entry.name for entry in resolution.ambiguous]),
        )
    if resolution.suggestions:
        raise UserFacingError(
            "error.character_not_found_suggest",
            name=_shown(name),
            names=_quoted(here, resolution.suggestions),
        )
    raise UserFacingError("error.character_not_found", name=_shown(name))


def _quoted(here: Here, names: Sequence[str]) -> str:
    """``**Ana**, **Ana Bel** or **Anabel**``: names for a refusal, markdown escaped."""
    shown = [f"**{discord.utils.escape_markdown(name)}**" for name in names]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + text(here.private_language, "names.or") + shown[-1]


#: Unicode categories no name may contain: control and invisible format characters.
_INVISIBLE = frozenset({"Cc", "Cf"})


def _shown(typed: str) -> str:
    """A typed name fit to quote in an error (trimmed, shortened, markdown escaped)."""
    clean = "".join(c for c in typed.strip() if unicodedata.category(c) not in _INVISIBLE)
    return discord.utils.escape_markdown(clean[:40] or "?")


class CharacterTransformer(app_commands.Transformer):
    """A ``character``-like option: a server's character, with autocomplete.

    Use as ``character: app_commands.Transform[StoredCharacter, CharacterTransformer]`` (or
    ``... | None = None`` with ``resolve_character`` for "your only character"). The value
    read here may be stale by the time the command writes: re-read it by id inside the
    transaction (``tx.get_character(guild_id, character.id)``).
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1  # for a string option: its minimum length

    @property
    def max_value(self) -> int:
        return 100

    async def transform(
        self, interaction: discord.Interaction[Any], value: Any, /
    ) -> StoredCharacter:
        here = await Here.of(interaction)
        found = await resolve_character(here, str(value))
        note_options(interaction, value, found)
        return found

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, str(value))


async def character_choices(
    interaction: discord.Interaction[Any], typed: str
) -> list[app_commands.Choice[str]]:
    """Up to 25 of the server's characters matching ``typed`` as a typed name is matched
    (accents ignored: ``bot.names.rank_choices``), the user's own first."""
    if interaction.guild_id is None:
        return []
    async with bot_of(interaction).storage.read() as reader:
        entries = await reader.name_entries(interaction.guild_id)
    ranked = rank_choices(_typed_name(typed)[:100], entries, interaction.user.id)
    return [
        app_commands.Choice(name=item.name[:100], value=item.name[:100]) for item in ranked[:25]
    ]


class TextChannelTransformer(app_commands.Transformer):
    """A text (or announcement) channel of this server, cached or not; any other refused."""

    _ALLOWED = (discord.ChannelType.text, discord.ChannelType.news)

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return list(self._ALLOWED)

    async def transform(
        self, interaction: discord.Interaction[Any], value: Any, /
    ) -> app_commands.AppCommandChannel | discord.abc.GuildChannel:
        if getattr(value, "type", None) not in self._ALLOWED:
            raise UserFacingError("error.not_text_channel")
        return cast("app_commands.AppCommandChannel | discord.abc.GuildChannel", value)


# --- replies ------------------------------------------------------------------------------


def announce_worthy(before: CharacterHealth | None, after: CharacterHealth | None) -> bool:
    """Whether a change goes to the announcement channel too: its state changed, it was
    knocked out, or it died (COMMANDS.md ``/config channel``)."""
    if before is None or after is None:
        return False
    if before.state is not after.state:
        return True
    if before.conscious and not after.conscious:
        return True
    return after.state is HealthState.DEAD and before.state is not HealthState.DEAD


async def defer(interaction: discord.Interaction[Any], *, ephemeral: bool = False) -> None:
    """Acknowledge now when the answer may come late (more than 2 s after the click).

    Call it before slow work only after every check that could refuse: an error after a
    public deferral fills the public "thinking…" message.
    """
    if interaction.response.is_done():
        return
    age = time.time() - interaction.created_at.timestamp()
    if age >= _DEFER_AFTER:
        _acknowledged()
        interaction.extras[_EPHEMERAL_DEFERRAL] = ephemeral
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def _acknowledged() -> None:
    """A deferred interaction may take its time: its storage calls no longer give up at
    Discord's 3 seconds (``bot.storage.fair_lock``)."""
    ticket = current_ticket.get()
    if ticket is not None:
        ticket.deadline = None


def public_placeholder(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's response is a public "thinking…" that nothing filled yet:
    an error must not fill it (COMMANDS.md, Errors)."""
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and not interaction.extras.get(_EPHEMERAL_DEFERRAL, False)
        and not interaction.extras.get(_PLACEHOLDER_FILLED, False)
    )


async def _send(
    interaction: discord.Interaction[Any],
    content: str | None,
    *,
    embeds: Sequence[discord.Embed],
    view: discord.ui.View | None,
    ephemeral: bool,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> int | None:
    """Answer the interaction, or follow up when it was already answered or deferred;
    returns the id of the message sent (None when Discord did not say)."""
    kwargs: dict[str, Any] = {
        "content": content,
        "embeds": list(embeds),
        "ephemeral": ephemeral,
        "allowed_mentions": allowed_mentions,
    }
    if view is not None:
        kwargs["view"] = view
    if interaction.response.is_done():
        sent = await interaction.followup.send(wait=True, **kwargs)
        interaction.extras[_PLACEHOLDER_FILLED] = True
        return sent.id
    response = await interaction.response.send_message(**kwargs)
    return response.message_id


async def send_private(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
) -> None:
    """An ephemeral reply (a followup when the response was already sent or deferred)."""
    await _send(interaction, content, embeds=embeds, view=view, ephemeral=True)


async def send_public(
    interaction: discord.Interaction[Any],
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
    allowed_mentions: discord.AllowedMentions = NO_MENTIONS,
) -> int | None:
    """A public reply in the channel (a followup when the response was already sent);
    mentions nobody unless ``allowed_mentions`` says whom (``bot.calling``). Returns the
    message's id."""
    return await _send(
        interaction,
        content,
        embeds=embeds,
        view=view,
        ephemeral=False,
        allowed_mentions=allowed_mentions,
    )


async def update_message(interaction: discord.Interaction[Any], content: str) -> None:
    """Replace the text of the message whose button was pressed and remove its buttons
    (also after ``_answerable`` acknowledged the press)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(
            content=content, view=None, allowed_mentions=NO_MENTIONS
        )
    else:
        await interaction.response.edit_message(
            content=content, view=None, allowed_mentions=NO_MENTIONS
        )


async def send_change(
    interaction: discord.Interaction[Any],
    embeds: Sequence[discord.Embed],
    *,
    announce: bool,
    here: Here | None = None,
    content: str | None = None,
    view: discord.ui.View | None = None,
    more: Sequence[Sequence[discord.Embed]] = (),
    call: Sequence[int] = (),
) -> int | None:
    """The public reply to a change, also posted in the announcement channel when
    ``announce`` (state changed, knocked out, died) and the command was used elsewhere.

    ``call``: the owners whose character's Consciousness roll fell due; the reply (not its
    copy in the announcement channel) mentions them, and only them (``bot.calling``).
    Returns the id of the reply's (first) message, for the roll buttons it may carry.

    ``more``: the embeds of further messages, when one message cannot hold an embed per
    character touched; they follow the reply (and its announcement). A failure to post the
    announcement (channel deleted, no permission) is logged and does not affect the reply.
    """
    message_id = await send_public(
        interaction,
        call_content(call, content),
        embeds=embeds,
        view=view,
        allowed_mentions=call_mentions(call) if call else NO_MENTIONS,
    )
    for extra in more:
        await send_public(interaction, embeds=extra)
    if not announce:
        return message_id
    if here is None:
        here = await Here.of(interaction)
    channel_id = here.settings.channel_id
    if channel_id is None or channel_id == interaction.channel_id:
        return message_id
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(channel_id, guild_id=here.guild_id)
    try:
        await channel.send(content=content, embeds=list(embeds), allowed_mentions=NO_MENTIONS)
        for extra in more:
            await channel.send(embeds=list(extra), allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as error:
        log.warning(
            "could not announce in channel %s of guild %s: %s", channel_id, here.guild_id, error
        )
    return message_id
