"""The replies of ``/character create|set|rename|move`` (COMMANDS.md "Changes"): a new
character with who plays it, a correction's change with what else it set (a gender, who sees
the numbers), a new name, a move to another table; a correction that changed nothing in one
sentence."""

from __future__ import annotations

import discord

from bot.i18n.catalogs import Language, text
from bot.i18n.grammar import gendered
from bot.render.brief import brief_embed, created_embed
from bot.render.change import change_embeds, correction_note
from bot.render.common import Field, mention, safe
from bot.render.visibility import Viewer
from bot.storage.models import StoredCharacter
from rules.character import Gender
from rules.outcome import Outcome
from rules.stability import StabilityOutcome

__all__ = [
    "created_reply_embed",
    "moved_embed",
    "renamed_embed",
    "set_embeds",
    "set_unchanged",
]


def created_reply_embed(
    created: StoredCharacter, owner_id: int, language: Language
) -> discord.Embed:
    """A ``/character create``: the new character, and who plays it."""
    said = text(language, "character.created", owner=mention(owner_id))
    return created_embed(created, said, language)


def renamed_embed(old: str, renamed: StoredCharacter, language: Language) -> discord.Embed:
    """A ``/character rename``: the name it had, the name it has."""
    said = text(language, "character.renamed", old=safe(old), name=safe(renamed.name))
    return brief_embed(renamed, description=said, words=said)


def moved_embed(moved: StoredCharacter, table: str, old: str, language: Language) -> discord.Embed:
    """A ``/character move``: the table it plays at now, and the one it left (as shown)."""
    said = text(language, "table.moved", name=safe(moved.name), table=table, old=old)
    return brief_embed(moved, description=said, words=said)


def set_unchanged(name: str, language: Language) -> str:
    """A ``/character set`` that changed nothing."""
    return text(language, "character.set.unchanged", name=safe(name))


def set_embeds(
    saved: StoredCharacter,
    outcome: Outcome,
    mind: StabilityOutcome | None,
    *,
    new_gender: Gender | None,
    gender_changed: bool,
    numbers_changed: bool,
    language: Language,
    viewer: Viewer,
) -> list[discord.Embed]:
    """A ``/character set``: the correction's change (a GM's correction says so), with the
    gender and the numbers' setting it gave, said agreeing with the character's gender."""
    extra: list[Field] = []
    what = text(language, "render.change.what")
    if gender_changed:
        said = text(language, f"render.value.gender.{new_gender or 'none'}")
        extra.append(
            (
                what,
                text(language, "character.set.gender", name=safe(saved.name), gender=said),
            )
        )
    words: list[str] = []
    if numbers_changed:
        key = f"numbers.set.{saved.numbers.value}"
        words.append(gendered(language, key, saved.gender, name=safe(saved.name)))
        extra.append((what, words[-1]))
    return change_embeds(
        saved,
        outcome,
        language,
        extra_fields=extra,
        note=correction_note(saved, outcome, language),
        stability=mind,
        viewer=viewer,
        words=words,
    )
