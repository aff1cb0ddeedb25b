"""Option transformers and the checks of option values: the character an option names (with
its autocomplete), a text channel, and a number in its range."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any, cast

import discord
from discord import app_commands

from bot.errors import UserFacingError
from bot.here import Here, services_of
from bot.i18n import text
from bot.names import Resolution, rank_choices, resolve_name
from bot.sanitize import escape, has_invisible, visible
from bot.storage import Reader, StoredCharacter
from bot.subjects import note_options, note_subject
from rules.names import MAX_NAME_LENGTH

__all__ = [
    "Character",
    "CharacterTransformer",
    "InRange",
    "TextChannelTransformer",
    "character_choices",
    "check_range",
    "find_typed_character",
    "resolve_character",
]


def check_range(option: str, value: int, minimum: int, maximum: int) -> int:
    """Refuse an option outside its range (Discord enforces it, a client may not)."""
    if not minimum <= value <= maximum:
        raise UserFacingError("error.out_of_range", option=option, min=minimum, max=maximum)
    return value


class InRange(app_commands.Transformer):
    """A whole-number option between ``minimum`` and ``maximum`` (the rules' constants),
    declared once: Discord is given the range, and a value outside it (a client that does not
    enforce it) is refused here, before the command runs.

    Use as ``minutes: app_commands.Transform[int, InRange("minutes", 1, MAX_MINUTES)]``.
    """

    def __init__(self, option: str, minimum: int, maximum: int) -> None:
        self.option = option
        self.minimum = minimum
        self.maximum = maximum

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return self.minimum

    @property
    def max_value(self) -> int:
        return self.maximum

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        return check_range(self.option, int(value), self.minimum, self.maximum)


def _typed_name(value: str) -> str:
    return unicodedata.normalize("NFC", value).strip()


async def resolve_character(here: Here, name: str | None) -> StoredCharacter:
    """The character called ``name`` in this server, or the user's only one when omitted.

    Refuses an unknown name, and an omitted one when the user has no character or several.
    """
    if name is not None and has_invisible(_typed_name(name)):
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
        names = ", ".join(escape(c.name) for c in own[:10])
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
    shown = [f"**{escape(name)}**" for name in names]
    if len(shown) < 2:
        return "".join(shown)
    return ", ".join(shown[:-1]) + text(here.private_language, "names.or") + shown[-1]


def _shown(typed: str) -> str:
    """A typed name fit to quote in an error (trimmed, shortened, markdown escaped)."""
    return escape(visible(typed.strip())[:40] or "?")


class CharacterTransformer(app_commands.Transformer):
    """A ``character``-like option: a server's character, with autocomplete.

    Use as ``character: app_commands.Transform[StoredCharacter, CharacterTransformer]`` (or
    ``... | None = None`` with ``resolve_character`` for "your only character"). The value
    read here may be stale by the time the command writes: re-read it by id inside the
    transaction, once (``tx.character(character)``).
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
    async with services_of(interaction).storage.read() as reader:
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


#: The ``character``-like option of every command: a server's character, with autocomplete.
Character = app_commands.Transform[StoredCharacter, CharacterTransformer]
