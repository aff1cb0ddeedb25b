"""The ability commands' replies in words (``/ability set|remove``, ``/check``, ``/spend``):
what a correction changed, a sentence about one ability, the test's embed and the spend's;
an ability's kind and First Aid's name as the status embed says them. Which ability a typed
name means is ``bot.features.abilities``'."""

from __future__ import annotations

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.brief import brief_embed
from bot.render.common import safe
from bot.render.rolls import ability_roll_field
from bot.render.stability import composure_field, stability_sentences
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage.models import StoredCharacter
from rules.abilities import Ability, AbilityKind, AbilityRoll
from rules.composure import AbilitySpend

__all__ = [
    "ability_sentence",
    "check_embed",
    "first_aid_name",
    "kind_label",
    "set_sentence",
    "spend_embed",
]


def kind_label(kind: AbilityKind, language: Language) -> str:
    """ "general" / "investigative" ("general" / "de investigación")."""
    return text(language, f"abilities.kind.{kind.value}")


def first_aid_name(language: Language) -> str:
    """First Aid as the status embed names it ("First Aid" / "Primeros Auxilios")."""
    return text(language, "render.status.first_aid")


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
