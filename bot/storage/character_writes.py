"""A transaction's writes of characters, abilities, settings and meta (never history)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from typing import Any

from bot.storage.errors import (
    DuplicateName,
)
from bot.storage.models import (
    GuildSettings,
    StoredCharacter,
)
from bot.storage.names import look_key, name_key
from bot.storage.rows import (
    DELETE_ABILITY,
    UNSET,
    UPDATE_HEALTH,
    UPSERT_ABILITY,
    StoredRow,
    Unset,
    abilities_by_key,
    character_columns,
    is_unique_violation,
    settings_of_row,
)
from bot.storage.snapshot import (
    ability_to_row,
    health_to_row,
)
from bot.storage.transaction import FirstState, TransactionCore
from rules.abilities import Ability
from rules.character import CharacterHealth, Gender

__all__ = ["CharacterWrites"]


class CharacterWrites(TransactionCore):
    """Writes of characters, abilities, settings and meta; each keeps what it wrote."""

    async def get_settings(self, guild_id: int) -> GuildSettings:
        if guild_id in self.settings_written:  # not committed yet: never into the cache
            self.check_open()
            return await self._read_settings(guild_id)
        return await super().get_settings(guild_id)

    async def update_settings(
        self,
        guild_id: int,
        *,
        gm_role_id: int | Unset | None = UNSET,
        channel_id: int | Unset | None = UNSET,
        language: str | Unset | None = UNSET,
    ) -> GuildSettings:
        """Set the given fields (``None`` clears one); others keep their value."""
        given: dict[str, Any] = {
            key: value
            for key, value in (
                ("gm_role_id", gm_role_id),
                ("channel_id", channel_id),
                ("language", language),
            )
            if value is not UNSET
        }
        self.check_open()
        self.settings_written.add(guild_id)
        now = self.now()
        if not given:
            self._pipe.queue(
                "INSERT INTO guild_settings (guild_id, updated_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO NOTHING",
                (guild_id, now),
            )
            return await self.get_settings(guild_id)
        columns = ", ".join(given)
        marks = ", ".join("?" * len(given))
        assignments = ", ".join(f"{key} = excluded.{key}" for key in given)
        row = await self.fetch_one(
            f"INSERT INTO guild_settings (guild_id, updated_at, {columns})"
            f" VALUES (?, ?, {marks}) ON CONFLICT (guild_id) DO UPDATE SET {assignments},"
            " updated_at = excluded.updated_at RETURNING gm_role_id, channel_id, language",
            (guild_id, now, *given.values()),
        )
        return settings_of_row(guild_id, row)

    async def set_meta(self, key: str, value: str) -> None:
        self.check_open()
        self._pipe.queue(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- characters --------------------------------------------------------------------------

    async def _insert_character(
        self,
        *,
        character_id: int | None,
        guild_id: int,
        name: str,
        owner_id: int,
        created_at: str,
        health: Mapping[str, Any],
        gender: str | None = None,
    ) -> int:
        named, named_values = character_columns(
            name=name, owner_id=owner_id, created_at=created_at, gender=gender, health=health
        )
        columns = ["guild_id", *named]
        values: list[Any] = [guild_id, *named_values]
        if character_id is not None:
            columns.insert(0, "id")
            values.insert(0, character_id)
        marks = ", ".join("?" * len(values))
        try:
            return await self._insert(
                f"INSERT INTO characters ({', '.join(columns)}) VALUES ({marks})", values
            )
        except sqlite3.IntegrityError as error:
            if is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(guild_id, name) from error
            raise

    async def _store_abilities(
        self, current: StoredRow, abilities: Mapping[str, dict[str, Any]]
    ) -> StoredRow:
        """Make the character's stored abilities exactly ``abilities`` (rows by name_key),
        writing only the rows that differ; returns (and keeps) the new state."""
        character_id = current.id
        old = current.abilities()
        gone = [(character_id, key) for key in old if key not in abilities]
        changed = [
            (character_id, row["name"], key, row["kind"], row["rating"], row["pool"])
            for key, row in abilities.items()
            if old.get(key) != row
        ]
        self._pipe.queue_many(DELETE_ABILITY, gone)
        self._pipe.queue_many(UPSERT_ABILITY, changed)
        stored = current.with_abilities(abilities)
        self._known[character_id] = stored
        return stored

    async def create_character(
        self,
        guild_id: int,
        name: str,
        owner_id: int,
        health: CharacterHealth,
        abilities: Iterable[Ability] = (),
        gender: Gender | None = None,
    ) -> StoredCharacter:
        """A new character (name stored trimmed). Raises ``DuplicateName``, and
        ``ValueError`` for two abilities whose names are equal ignoring case."""
        self._check_writable()
        self._claim_guild(guild_id)
        self.names_written.add(guild_id)
        rows = abilities_by_key(abilities)
        clean = name.strip()
        created_at = self.now()
        health_row = health_to_row(health)
        new_id = await self._insert_character(
            character_id=None,
            guild_id=guild_id,
            name=clean,
            owner_id=owner_id,
            created_at=created_at,
            health=health_row,
            gender=None if gender is None else gender.value,
        )
        self._touched.setdefault(new_id, FirstState(guild_id, None))
        fields = {
            "id": new_id,
            "guild_id": guild_id,
            "name": clean,
            "owner_id": owner_id,
            "gender": None if gender is None else gender.value,
        }
        created = StoredRow.new({**fields, "created_at": created_at, **health_row})
        self._known[new_id] = created  # a new id: no ability row can exist for it yet
        return (await self._store_abilities(created, rows)).character()

    async def save_healths(
        self, changes: Iterable[tuple[StoredCharacter, CharacterHealth]]
    ) -> list[StoredCharacter]:
        """``save_health`` for many characters in one statement (``/scene new``, ``/time``).

        The same as saving each in turn, except that a character missing from its guild
        raises ``CharacterNotFound`` before anything is written. Returns the saved characters
        in the order given.
        """
        pairs = list(changes)
        self._check_writable()
        for guild_id in sorted({character.guild_id for character, _ in pairs}):
            await self._load(guild_id, (c.id for c, _ in pairs if c.guild_id == guild_id))
        states: dict[int, StoredRow] = {}
        params: list[tuple[Any, ...]] = []
        saved: list[StoredCharacter] = []
        for character, health in pairs:
            current = await self._require(character.guild_id, character.id)
            current = states.get(character.id, current)
            row: dict[str, Any] = health_to_row(health)
            if row != current.snapshot["health"]:
                params.append((*row.values(), character.id, character.guild_id))
            stored = current.with_health(row)
            states[character.id] = stored
            saved.append(stored.character())
        self._pipe.queue_many(UPDATE_HEALTH, params)
        self._known.update(states)
        return saved

    async def save_health(
        self, character: StoredCharacter, health: CharacterHealth
    ) -> StoredCharacter:
        """Write every ``CharacterHealth`` field. Raises ``CharacterNotFound``."""
        (saved,) = await self.save_healths([(character, health)])
        return saved

    async def set_gender(
        self, character: StoredCharacter, gender: Gender | None
    ) -> StoredCharacter:
        """Give the character a grammatical gender (None: none). Raises ``CharacterNotFound``."""
        current = await self._require(character.guild_id, character.id)
        self.names_written.add(character.guild_id)
        value = None if gender is None else gender.value
        if current.snapshot.get("gender") != value:
            self._pipe.queue(
                "UPDATE characters SET gender = ? WHERE id = ? AND guild_id = ?",
                (value, character.id, character.guild_id),
            )
        stored = StoredRow({**current.snapshot, "gender": value}, current.keys)
        self._known[character.id] = stored
        return stored.character()

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        """Add the ability, or replace the one with the same name ignoring case (its stored
        name becomes ``ability.name``). Raises ``CharacterNotFound``."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows[name_key(ability.name)] = ability_to_row(ability)
        return (await self._store_abilities(current, rows)).character()

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Remove the ability called ``name`` (ignoring case); absent: nothing changes."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows.pop(name_key(name), None)
        return (await self._store_abilities(current, rows)).character()

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        """Replace the whole set of abilities (e.g. ``/refresh``). Names must differ
        ignoring case (``ValueError``)."""
        current = await self._require(character.guild_id, character.id)
        rows = abilities_by_key(abilities)
        return (await self._store_abilities(current, rows)).character()

    async def rename_character(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Give the character a new name (stored as given: clean it first). Raises
        ``CharacterNotFound``, and ``DuplicateName`` when the exact name is taken."""
        current = await self._require(character.guild_id, character.id)
        self.names_written.add(character.guild_id)
        try:
            await self._execute(
                "UPDATE characters SET name = ?, name_key = ?, look_key = ?"
                " WHERE id = ? AND guild_id = ?",
                (name, name_key(name), look_key(name), character.id, character.guild_id),
            )
        except sqlite3.IntegrityError as error:
            if is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(character.guild_id, name) from error
            raise
        renamed = StoredRow({**current.snapshot, "name": name}, current.keys)
        self._known[character.id] = renamed
        return renamed.character()

    async def delete_character(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        """Delete it with its abilities; returns what was deleted, None if not in this guild."""
        current = await self._touch(guild_id, character_id)
        if current is None:
            return None
        self.names_written.add(guild_id)
        self._pipe.queue(
            "DELETE FROM characters WHERE id = ? AND guild_id = ?", (character_id, guild_id)
        )
        self._known[character_id] = None
        return current.character()
