"""What the ability commands share (``cogs/abilities.py``, ``cogs/ability_use.py``): the
ability a typed name means, First Aid as an ability, autocomplete, and the replies in words.

First Aid is kept on the character (``CharacterHealth``), not as an ability: ``/check`` tests
it through an ``Ability`` built from the character's First Aid pool and rating, and writes the
pool back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.features.characters.names import find_character
from bot.i18n import Language, text, user_language
from bot.i18n.grammar import gendered
from bot.interaction.context import context_of
from bot.interaction.errors import UserFacingError
from bot.interaction.here import table_of
from bot.render.brief import brief_embed
from bot.render.common import safe
from bot.render.limits import CHOICE_LENGTH_LIMIT, CHOICES_LIMIT
from bot.render.rolls import ability_roll_field
from bot.render.stability import composure_field, stability_sentences
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage.models import StoredCharacter
from rules.abilities import (
    Ability,
    AbilityKind,
    AbilityRoll,
    ReservedAbility,
    is_reserved_ability_name,
)
from rules.ability_catalog import KNOWN_ABILITIES, KnownAbility, find_known, normalize, suggest
from rules.composure import AbilitySpend
from rules.names import MAX_NAME_LENGTH, InvalidName, clean_name, reading_key, starts_a_word

if TYPE_CHECKING:
    pass

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


def kind_label(kind: AbilityKind, language: Language) -> str:
    """ "general" / "investigative" ("general" / "de investigación")."""
    return text(language, f"abilities.kind.{kind.value}")


def is_first_aid(name: str) -> bool:
    """Whether ``name`` means First Aid (either language, loosely): ``/check`` tests its pool."""
    return _FIRST_AID is not None and find_known(name) is _FIRST_AID


def first_aid_name(language: Language) -> str:
    """First Aid as the status embed names it ("First Aid" / "Primeros Auxilios")."""
    return text(language, "render.status.first_aid")


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


def ability_sentence(
    language: Language,
    key: str,
    character: StoredCharacter,
    ability: Ability,
    **params: object,
) -> str:
    """The sentence ``key`` about one ability of a character: its ``character``, ``ability``,
    ``pool`` and ``rating`` filled in (names escaped), with ``params``."""
    return text(
        language,
        key,
        character=safe(character.name),
        ability=safe(ability.name),
        pool=ability.pool,
        rating=ability.rating,
        **params,
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
    context = context_of(interaction)
    storage = context.services.storage
    named = None
    table = table_of(interaction, storage)
    if isinstance(typed_character, str) and typed_character.strip():
        # In memory after the first time.
        index = await storage.names(table.id, context.ticket)
        named, _ = find_character(index, typed_character.strip()[:CHOICE_LENGTH])
    async with storage.read(context.ticket) as reader:
        settings = await reader.get_settings(interaction.guild_id)
        character = None
        if named is not None:  # its abilities: the whole character
            character = await reader.get_character(table.id, named.id)
    language = user_language(interaction.locale, settings.language, interaction.guild_locale)
    return ability_choices(
        character, typed[:CHOICE_LENGTH], language, testable_only=testable_only, own_only=own_only
    )


# --- replies -------------------------------------------------------------------------------


def _changes(before: Ability, after: Ability, language: Language) -> str:
    """What a correction of an ability changed, each value once: ``índice 4 → 6 · reserva
    4 / 6`` (the pool always, as it is now)."""
    said: list[str] = []
    if before.rating != after.rating:
        said.append(
            text(language, "abilities.set.rating", before=before.rating, after=after.rating)
        )
    if before.kind is not after.kind:
        said.append(
            text(
                language,
                "abilities.set.kind",
                before=kind_label(before.kind, language),
                after=kind_label(after.kind, language),
            )
        )
    if before.pool != after.pool:
        said.append(
            text(
                language,
                "abilities.set.pool_changed",
                before=before.pool,
                pool=after.pool,
                rating=after.rating,
            )
        )
    else:
        said.append(text(language, "abilities.set.pool", pool=after.pool, rating=after.rating))
    return " · ".join(said)


def set_sentence(
    character: StoredCharacter,
    before: Ability | None,
    after: Ability,
    changed: bool,
    language: Language,
) -> str:
    """What ``/ability set`` did, in one sentence (under the character's name)."""
    params = {
        "character": safe(character.name),
        "ability": safe(after.name),
        "kind": kind_label(after.kind, language),
        "pool": after.pool,
        "rating": after.rating,
    }
    if not changed:
        return text(language, "abilities.set.unchanged", **params)
    if before is None:
        return text(language, "abilities.set.added", **params)
    return text(
        language, "abilities.set.corrected", changes=_changes(before, after, language), **params
    )


def check_embed(
    character: StoredCharacter,
    roll: AbilityRoll,
    ability_name: str,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> discord.Embed:
    """The reply to ``/check`` (COMMANDS.md "Replies that move no state"): the character's
    name and the test's field, ``DIE + SPEND = TOTAL vs DIFFICULTY`` with its breakdown (the
    wounds' and the Shaken +1, M8), the outcome and the pool, each said once; for a viewer
    who may not see the character's numbers, the outcome in words."""
    kind = "attack" if roll.attack else "check"
    outcome = "passed" if roll.success else "failed"
    words = text(
        language,
        f"numbers.said.{kind}.{outcome}",
        name=safe(character.name),
        ability=safe(ability_name),
    )
    return brief_embed(
        character,
        fields=[ability_roll_field(roll, ability_name, language)],
        words=words,
        viewer=viewer,
    )


def spend_embed(
    character: StoredCharacter,
    said: str,
    spent: AbilitySpend,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> discord.Embed:
    """The reply to ``/spend``: what was spent, in a sentence; a Shaken character's
    investigative spend adds its composure test (M8) with what the strain cost, and a mental
    illness it brought on in words. For a viewer who may not see the character's numbers:
    that it spent, and whether it kept its nerve, in words."""
    composure = spent.composure
    outcome = spent.stability
    name = safe(character.name)
    ability = safe(spent.ability_after.name)
    words = [text(language, "numbers.said.spend", name=name, ability=ability)]
    if composure is not None:
        key = "kept" if composure.kept else "faltered"
        words.append(gendered(language, f"numbers.said.nerve.{key}", character.gender, name=name))
    if not shows_numbers(character, viewer):
        return brief_embed(character, words=" ".join(words), viewer=viewer)
    if composure is None or outcome.before is None or outcome.after is None:
        return brief_embed(character, description=said)
    name, value = composure_field(composure, outcome.before, outcome.after, language)
    sentences = stability_sentences(character, outcome.events, language)
    if sentences:
        value = "\n".join([value, *sentences])
    return brief_embed(character, description=said, fields=[(name, value)])
