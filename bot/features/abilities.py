"""What the ability commands share (``cogs/abilities.py``, ``cogs/ability_use.py``): the
ability a typed name means, First Aid as an ability, autocomplete; the replies' words are
``bot.render.abilities``'.

First Aid is kept on the character (``CharacterHealth``), not as an ability: ``/check`` tests
it through an ``Ability`` built from the character's First Aid pool and rating, and writes the
pool back.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.features.characters.names import find_character
from bot.i18n import Language, user_language
from bot.interaction.context import salud_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import table_of
from bot.render.abilities import first_aid_name, kind_label
from bot.render.common import safe
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from bot.render.visibility import EVERYONE, shows_numbers
from bot.storage.models import StoredCharacter
from rules.abilities import (
    Ability,
    AbilityKind,
    ReservedAbility,
    is_reserved_ability_name,
)
from rules.ability_catalog import KNOWN_ABILITIES, KnownAbility, find_known, normalize, suggest
from rules.names import MAX_NAME_LENGTH, InvalidName, clean_name, reading_key, starts_a_word

#: Discord's limit on autocomplete choices, and on a choice's name and value.
MAX_CHOICES = CHOICES_LIMIT
CHOICE_LENGTH = CHOICE_LENGTH_LIMIT

KIND_CHOICES = [
    app_commands.Choice(name=_("General", key="cmd.ability.kind.general"), value="general"),
    app_commands.Choice(
        name=_("Investigative", key="cmd.ability.kind.investigative"), value="investigative"
    ),
]

_FIRST_AID: KnownAbility | None = find_known("First Aid")
#: Stability is a pool of its own (RULES.md M1), never suggested nor set as an ability.
_STABILITY: KnownAbility | None = find_known("Stability")


# --- names ---------------------------------------------------------------------------------


def ability_name(typed: str) -> str:
    """The ability's name cleaned like a character's (COMMANDS.md Names), or a refusal that
    speaks of the ability."""
    try:
        return clean_name(typed, MAX_NAME_LENGTH)
    except InvalidName as error:
        reason = error.params.get("reason", "empty")
        raise UserFacingError(
            f"abilities.error.name.{reason}", max_length=MAX_NAME_LENGTH
        ) from error


def is_first_aid(name: str) -> bool:
    """Whether ``name`` means First Aid (either language, loosely): ``/check`` tests its pool."""
    return _FIRST_AID is not None and find_known(name) is _FIRST_AID


def first_aid_ability(character: StoredCharacter, language: Language) -> Ability:
    """The character's First Aid as a general ability, for a test (P1: a general ability)."""
    health = character.health
    return Ability(
        name=first_aid_name(language),
        kind=AbilityKind.GENERAL,
        rating=health.first_aid_rating,
        pool=health.first_aid_pool,
    )


def is_stability(name: str) -> bool:
    """Whether ``name`` means Stability (``Stability`` / ``Estabilidad``, loosely)."""
    return _STABILITY is not None and find_known(name) is _STABILITY


def refuse_reserved(name: str) -> None:
    """Health, First Aid and Stability are the character's own values, not abilities: say
    where they are handled. (A server may still hold an ability named Stability from before
    Stability was a pool: it stays until a GM removes it with ``/ability remove``, which
    does not call this.)"""
    if is_reserved_ability_name(name):
        raise ReservedAbility(name=name)  # escaped with every refusal value (bot.interaction.tree)
    if is_stability(name):
        raise UserFacingError("abilities.error.stability", name=safe(name))


def unreserved_ability_name(typed: str) -> str:
    """The name of an ability a pool is set or spent from: cleaned (``ability_name``), and
    neither Health, First Aid nor Stability (``refuse_reserved``), refused before anything is
    read."""
    name = ability_name(typed)
    refuse_reserved(name)
    return name


def find_ability(character: StoredCharacter, name: str) -> Ability:
    """The character's ability called ``name`` (ignoring case), else a refusal that says what
    to do: Health and First Aid are no abilities; a missing one a GM may add (rating 0 for an
    untrained test)."""
    found = character.ability(name)
    if found is not None:
        return found
    refuse_reserved(name)
    raise UserFacingError(
        "abilities.error.missing", ability=safe(name), character=safe(character.name)
    )


# --- autocomplete --------------------------------------------------------------------------


def _own_choice(
    ability: Ability, language: Language, *, shown: bool = True
) -> app_commands.Choice[str]:
    """``Escaramuza · 3/5 · general``; without the pool for a character whose numbers are
    private (a label is seen by whoever types, ``bot.render.visibility``)."""
    pool = f"{ability.pool}/{ability.rating} · " if shown else ""
    label = f"{ability.name} · {pool}{kind_label(ability.kind, language)}"
    return app_commands.Choice(name=label[:CHOICE_LENGTH], value=ability.name[:CHOICE_LENGTH])


def ability_choices(
    character: StoredCharacter | None,
    typed: str,
    language: Language,
    *,
    testable_only: bool = False,
    own_only: bool = False,
) -> list[app_commands.Choice[str]]:
    """The character's own abilities with a word starting with ``typed`` first (those whose
    name starts with it before), then the usual Trail of Cthulhu abilities in ``language``
    with their kind (``rules.ability_catalog.suggest``); each group in the order a reader of
    ``language`` expects.

    ``testable_only`` (``/check``): general abilities only, First Aid among the character's
    own. ``own_only`` (``/ability remove``): no catalog. At most 25.
    """
    needle = normalize(typed)
    own: list[Ability] = []
    if character is not None:
        own = list(character.abilities)
        if testable_only:
            own = [ability for ability in own if ability.kind is AbilityKind.GENERAL]
            own.append(first_aid_ability(character, language))
    matching = [
        ability for ability in own if not needle or starts_a_word(normalize(ability.name), needle)
    ]
    matching.sort(
        key=lambda a: (
            not normalize(a.name).startswith(needle),
            reading_key(a.name, language.value),
        )
    )
    shown = character is None or shows_numbers(character, EVERYONE)
    choices = [_own_choice(ability, language, shown=shown) for ability in matching]
    if own_only:
        return choices[:MAX_CHOICES]
    held = {find_known(ability.name) for ability in own} - {None}
    taken = {choice.value.casefold() for choice in choices}
    for known in suggest(typed, language.value, limit=len(KNOWN_ABILITIES)):
        if len(choices) >= MAX_CHOICES:
            break
        if known in held or (testable_only and known.kind is not AbilityKind.GENERAL):
            continue
        if known is _STABILITY:  # a pool of its own: /character set, /stability
            continue
        name = known.name(language.value)
        if name.casefold() in taken:
            continue
        label = f"{name} · {kind_label(known.kind, language)}"
        choices.append(app_commands.Choice(name=label[:CHOICE_LENGTH], value=name))
    if testable_only and character is None and _FIRST_AID is not None:
        name = _FIRST_AID.name(language.value)
        matches = not needle or starts_a_word(normalize(name), needle)
        if matches and len(choices) < MAX_CHOICES:
            label = f"{name} · {kind_label(AbilityKind.GENERAL, language)}"
            choices.append(app_commands.Choice(name=label, value=name))
    return choices[:MAX_CHOICES]


async def complete_ability(
    interaction: discord.Interaction[Any],
    typed: str,
    *,
    testable_only: bool = False,
    own_only: bool = False,
) -> list[app_commands.Choice[str]]:
    """Autocomplete of ``ability``, for the ``character`` already typed in the command."""
    if interaction.guild_id is None:
        return []
    typed_character = getattr(interaction.namespace, "character", None)
    received = salud_of(interaction)
    storage = received.services.storage
    named = None
    table = table_of(interaction, storage)
    if isinstance(typed_character, str) and typed_character.strip():
        # In memory after the first time.
        index = await storage.names(table.id, received.ticket)
        named, _ = find_character(index, typed_character.strip()[:CHOICE_LENGTH])
    async with storage.read(received.ticket) as reader:
        settings = await reader.get_settings(interaction.guild_id)
        character = None
        if named is not None:  # its abilities: the whole character
            character = await reader.get_character(table.id, named.id)
    language = user_language(interaction.locale, settings.language, interaction.guild_locale)
    return ability_choices(
        character, typed[:CHOICE_LENGTH], language, testable_only=testable_only, own_only=own_only
    )
