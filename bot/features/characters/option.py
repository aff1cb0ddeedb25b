"""The ``character``-like options (``character``, ``medic``, ``patient``): the server's
character a typed name names (COMMANDS.md Finding a character by name), "your only
character" when omitted, and the autocomplete that ranks the server's names as people type."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.features.characters.names import entries_of, find_character, rank_choices
from bot.i18n import text
from bot.interaction.context import salud_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here, private_language, table_of
from bot.interaction.subjects import note_options, note_subject
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from bot.render.sanitize import escape, has_invisible, visible
from bot.storage.memory import ServerNames
from bot.storage.models import LightCharacter
from rules.names import MAX_NAME_LENGTH, fold_name, name_key

__all__ = [
    "Character",
    "CharacterTransformer",
    "Patient",
    "PatientTransformer",
    "StableCharacter",
    "StableCharacterTransformer",
    "StablePatient",
    "StablePatientTransformer",
    "character_choices",
    "resolve_character",
    "resolve_stable",
]


def _typed_name(value: str) -> str:
    return unicodedata.normalize("NFC", value).strip()


async def resolve_character(here: Here, name: str | None) -> LightCharacter:
    """The character called ``name`` in this server, or the user's only one when omitted,
    from the server's name index (``Storage.names``: no trip to the database when it is in
    memory). A change reads the whole character inside its transaction (``tx.character``).

    Refuses an unknown name, and an omitted one when the user has no character or several.
    """
    if name is not None and has_invisible(_typed_name(name)):
        # No stored name has them (names are cleaned when created), so say what is wrong
        # rather than "no character called Ana" with the invisible character dropped.
        raise UserFacingError("error.invalid_name.control", max_length=MAX_NAME_LENGTH)
    names = await here.names()
    if name is not None:
        try:
            return _find_by_name(here, names, name)
        except UserFacingError:
            await _refuse_if_elsewhere(here, name)
            raise
    own = names.owned_by(here.user_id)
    if not own:
        raise UserFacingError("error.no_character")
    if len(own) > 1:
        shown = ", ".join(escape(c.name) for c in own[:10])
        if len(own) > 10:
            shown += ", …"
        raise UserFacingError("error.several_characters", names=shown)
    note_subject(here.interaction, "character", own[0])
    return own[0]


async def resolve_stable(here: Here) -> LightCharacter:
    """An omitted ``character`` of a Stability command: the user's only character with
    Stability, else their only character (whose refusal then says it has no Stability),
    else the usual refusal."""
    own = [c for c in (await here.names()).owned_by(here.user_id) if c.has_stability]
    if len(own) == 1:
        note_subject(here.interaction, "character", own[0])
        return own[0]
    return await resolve_character(here, None)


async def _refuse_if_elsewhere(here: Here, name: str) -> None:
    """A name that is exactly one of another table's characters is refused saying where it
    plays (COMMANDS.md "Tables"); read only on the way to a refusal, never otherwise."""
    if not here.several_tables:
        return
    key = name_key(_typed_name(name))
    for table in here.storage.tables.tables(here.server_id):
        if table.id == here.table_id:
            continue
        other = await here.storage.names(table.id, here.interaction.ticket)
        found = other.with_key(key)
        if found is not None:
            shown = table.name or text(here.private_language, "table.main_name")
            raise UserFacingError(
                "error.character_elsewhere", name=escape(found.name), table=escape(shown)
            )


def _find_by_name(here: Here, names: ServerNames, name: str) -> LightCharacter:
    """The character a typed name names, or a refusal that says what was close."""
    found, resolution = find_character(names, _typed_name(name))
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

    Use as ``character: app_commands.Transform[LightCharacter, CharacterTransformer]`` (or
    ``... | None = None`` with ``resolve_character`` for "your only character"). The value is
    light (id, name, owner, gender: enough to check who may act and to name it in a
    refusal), resolved from the server's name index; a change reads the whole character
    inside its transaction, once (``tx.character(character)``).
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.string

    @property
    def min_value(self) -> int:
        return 1  # for a string option: its minimum length

    @property
    def max_value(self) -> int:
        return CHOICE_LENGTH_LIMIT  # a name picked from the suggestions fits

    async def transform(
        self, interaction: discord.Interaction[Any], value: Any, /
    ) -> LightCharacter:
        here = await Here.of(interaction)
        found = await resolve_character(here, str(value))
        note_options(interaction, value, found)
        return found

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, str(value))


async def character_choices(
    interaction: discord.Interaction[Any],
    typed: str,
    *,
    stable_only: bool = False,
    besides: str | None = None,
) -> list[app_commands.Choice[str]]:
    """Up to 25 of the server's characters matching ``typed`` as a typed name is matched
    (accents ignored: ``bot.features.characters.names.rank_choices``), the user's own first,
    in the order a reader of the user's language expects; ``stable_only``: only those with
    Stability (COMMANDS.md "Stability"); ``besides``: a name typed in another option (the
    medic), whose character is not suggested."""
    if interaction.guild_id is None:
        return []
    received = salud_of(interaction)
    table = table_of(interaction, received.services.storage)
    names = await received.services.storage.names(table.id, received.ticket)
    language = await private_language(interaction)
    entries = entries_of(names)
    if stable_only:
        entries = tuple(entry for entry in entries if entry.character.has_stability)
    if besides and besides.strip():
        left_out = fold_name(besides)
        entries = tuple(e for e in entries if fold_name(e.character.name) != left_out)
    ranked = rank_choices(
        _typed_name(typed)[:CHOICE_LENGTH_LIMIT],
        entries,
        interaction.user.id,
        language.value,
    )
    return [
        app_commands.Choice(
            name=item.name[:CHOICE_LENGTH_LIMIT], value=item.name[:CHOICE_LENGTH_LIMIT]
        )
        for item in ranked[:CHOICES_LIMIT]
    ]


#: The ``character``-like option of every command: a server's character, with autocomplete.
Character = app_commands.Transform[LightCharacter, CharacterTransformer]
#: A name option, of a character or of an ability: 1 to ``MAX_NAME_LENGTH`` characters.
NameOption = app_commands.Range[str, 1, MAX_NAME_LENGTH]
#: The descriptions of a ``character`` option that several commands share, written once: the
#: character acted on, and one that may be omitted for the member's only character.
CHARACTER_OPTION = app_commands.locale_str("The character", key="cmd.ability.option.character")
DEFAULT_CHARACTER_OPTION = app_commands.locale_str(
    "The character (default: your only one)", key="cmd.option.character_default"
)


class StableCharacterTransformer(CharacterTransformer):
    """A ``character``-like option of the Stability commands: any of the server's characters
    is resolved (a character without Stability is then refused by the rules, by name), but
    autocomplete suggests only those with Stability (COMMANDS.md "Stability")."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, str(value), stable_only=True)


#: The ``character`` of ``/stability test|roll``.
StableCharacter = app_commands.Transform[LightCharacter, StableCharacterTransformer]


def _medic_typed(interaction: discord.Interaction[Any]) -> str | None:
    """The ``medic`` option as typed so far (autocomplete sends every option filled)."""
    medic = getattr(interaction.namespace, "medic", None)
    return medic if isinstance(medic, str) else None


class PatientTransformer(CharacterTransformer):
    """The ``patient`` of ``/firstaid``: autocomplete leaves out the medic already chosen
    (nobody treats themselves, RULES.md F1)."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(interaction, str(value), besides=_medic_typed(interaction))


class StablePatientTransformer(CharacterTransformer):
    """The ``patient`` of ``/stability treat``: only characters with Stability, and not the
    psychoanalyst already chosen (M9: not to oneself)."""

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: int | float | str, /
    ) -> list[app_commands.Choice[str]]:
        return await character_choices(
            interaction, str(value), stable_only=True, besides=_medic_typed(interaction)
        )


#: The ``patient`` of ``/firstaid``.
Patient = app_commands.Transform[LightCharacter, PatientTransformer]
#: The ``patient`` of ``/stability treat``.
StablePatient = app_commands.Transform[LightCharacter, StablePatientTransformer]
