"""A transaction's writes of characters and their abilities (``CharacterWriter``, a part of
``Transaction``): each keeps the character's first state and what it wrote
(``KnownCharacters``), and queues its statements when nothing waits for their result."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from bot.storage.errors import (
    CharacterNotFound,
    DuplicateName,
    StorageError,
    TooManyCharacters,
    TransactionStateError,
)
from bot.storage.models import NewCharacter, Numbers, StoredCharacter, numbers_to_value
from bot.storage.snapshot import (
    HEALTH_COLUMNS,
    STABILITY_COLUMNS,
    Snapshot,
    ability_from_row,
    ability_to_row,
    health_to_row,
    stability_of_snapshot,
    stability_to_row,
)
from bot.storage.sqlite.known import KnownCharacters
from bot.storage.sqlite.pipeline import Pipeline
from bot.storage.sqlite.reader import Reader
from bot.storage.sqlite.rows import (
    DELETE_ABILITY,
    NAME_KEY_COLUMNS,
    UPDATE_HEALTH,
    UPDATE_STABILITY,
    UPSERT_ABILITY,
    StoredRow,
    abilities_by_key,
    character_columns,
    is_unique_violation,
    name_keys,
)
from rules.abilities import Ability
from rules.character import CharacterHealth, Gender
from rules.names import name_key
from rules.stability import CharacterStability

#: What ``_save_each`` writes of each character (its Health, its Stability).
_Value = TypeVar("_Value")

__all__ = ["CharacterWriter"]

_DELETE = "DELETE FROM characters WHERE id = ? AND guild_id = ?"
#: Characters a server may have at most (COMMANDS.md ``/character create``): what a table
#: plays with is a few dozen; the limit keeps one server from weighing on all the others.
MAX_CHARACTERS = 1000

#: The characters of the server of the table given twice (every table's: the limit is per server).
#: The main table's id is its server's; another table's row names its server.
COUNT_IN_SERVER = (
    "SELECT count(*) FROM characters WHERE guild_id IN ("
    " SELECT s.id FROM game_tables AS s WHERE s.guild_id ="
    " (SELECT t.guild_id FROM game_tables AS t WHERE t.id = ?) UNION SELECT ?)"
)


class CharacterWriter:
    """Creates, changes, renames, deletes and restores characters; reads a character it does
    not know yet through the transaction's ``reads`` (which keeps it as known)."""

    def __init__(self, pipe: Pipeline, known: KnownCharacters, reads: Reader) -> None:
        self._pipe = pipe
        self._known = known
        self._reads = reads
        self._sealed = False
        #: Guilds whose name index ends with this transaction (names, owners, genders, which
        #: characters exist).
        self.names_written: set[int] = set()

    def seal(self) -> None:
        """The history entry is written: no character write may follow it."""
        self._sealed = True

    def check_writable(self) -> None:
        self._reads.check_open()
        if self._sealed:
            raise TransactionStateError("character written after record() in one transaction")

    # --- what is stored now ------------------------------------------------------------------

    async def current(self, guild_id: int, character_id: int) -> StoredRow | None:
        """The character as stored now (read when not known yet), or None when it is not in
        this guild."""
        if not self._known.knows(character_id):
            await self._reads.get_character(guild_id, character_id)  # kept when found
            if not self._known.knows(character_id):
                return None
        return self._known.state(guild_id, character_id)

    async def load(self, guild_id: int, character_ids: Iterable[int]) -> None:
        """Read the characters not known yet, many per query (those found are kept)."""
        unknown = self._known.unknown(character_ids)
        if unknown:
            await self._reads.get_characters(guild_id, unknown)

    async def _touch(
        self, guild_id: int, character_id: int, *, will_create: bool = False
    ) -> StoredRow | None:
        """Keep the character's state before its first write here; return its current state.

        A character missing from this guild is only remembered (as "did not exist") when the
        caller is about to create it.
        """
        self.check_writable()
        current = await self.current(guild_id, character_id)
        if current is not None or will_create:
            self._known.first_write(guild_id, character_id, current)
        return current

    async def _require(self, guild_id: int, character_id: int) -> StoredRow:
        current = await self._touch(guild_id, character_id)
        if current is None:
            raise CharacterNotFound(guild_id, character_id)
        return current

    def _stored(self, stored: StoredRow) -> StoredRow:
        self._known.keep(stored)
        return stored

    # --- writes ------------------------------------------------------------------------------

    async def _insert(
        self,
        *,
        character_id: int | None,
        guild_id: int,
        fields: Mapping[str, Any],
        health: Mapping[str, Any],
        stability: Mapping[str, Any],
    ) -> int:
        """The character's row, sent now: its id is needed, and a taken name is the caller's
        ``DuplicateName``. A new character (no ``character_id``: not one an undo brings back)
        is refused with ``TooManyCharacters`` when its guild has ``MAX_CHARACTERS`` already:
        the same statement counts, so two creations at once cannot both pass the limit."""
        named, named_values = character_columns(fields, health, stability)
        columns = ["guild_id", *named]
        values: list[Any] = [guild_id, *named_values]
        if character_id is not None:
            columns.insert(0, "id")
            values.insert(0, character_id)
        marks = ", ".join("?" * len(values))
        try:
            if character_id is None:
                inserted = await self._pipe.insert_one(
                    f"INSERT INTO characters ({', '.join(columns)}) SELECT {marks}"
                    f" WHERE ({COUNT_IN_SERVER}) < ?",
                    [*values, guild_id, guild_id, MAX_CHARACTERS],
                )
                if inserted is None:
                    raise TooManyCharacters(guild_id, MAX_CHARACTERS)
            else:
                inserted = await self._pipe.insert(
                    f"INSERT INTO characters ({', '.join(columns)}) VALUES ({marks})", values
                )
        except sqlite3.IntegrityError as error:
            if is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(guild_id, str(fields["name"])) from error
            raise
        if inserted is None:  # pragma: no cover - sqlite always gives one for a rowid table
            raise StorageError("INSERT gave no row id")
        return inserted

    def _store_abilities(
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
        return self._stored(current.with_abilities(abilities))

    async def create(self, new: NewCharacter) -> StoredCharacter:
        """The character ``new``, with Stability when given. Raises ``DuplicateName``, and
        ``ValueError`` for two abilities whose names are equal ignoring case."""
        guild_id = new.guild_id
        self.check_writable()
        self._known.claim_guild(guild_id)
        self.names_written.add(guild_id)
        rows = abilities_by_key(new.abilities)
        health_row = health_to_row(new.health)
        stability_row = stability_to_row(new.stability)
        fields = {
            "name": new.name.strip(),
            "owner_id": new.owner_id,
            "gender": None if new.gender is None else new.gender.value,
            "numbers": numbers_to_value(new.numbers),
            "created_at": self._reads.now(),
        }
        new_id = await self._insert(
            character_id=None,
            guild_id=guild_id,
            fields=fields,
            health=health_row,
            stability=stability_row,
        )
        self._known.first_write(guild_id, new_id, None)
        created = StoredRow.new(
            {"id": new_id, "guild_id": guild_id, **fields, **health_row, **stability_row}
        )
        # A new id: no ability row can exist for it yet.
        return self._store_abilities(self._stored(created), rows).character()

    async def save_healths(
        self, changes: Iterable[tuple[StoredCharacter, CharacterHealth]]
    ) -> list[StoredCharacter]:
        """``save_health`` for many characters in one statement (``/scene new``, ``/time``).

        The same as saving each in turn, except that a character missing from its guild
        raises ``CharacterNotFound`` before anything is written. Returns the saved characters
        in the order given.
        """

        def apply(
            character: StoredCharacter, current: StoredRow, health: CharacterHealth
        ) -> tuple[StoredRow, tuple[Any, ...] | None]:
            row: dict[str, Any] = health_to_row(health)
            changed = tuple(row.values()) if row != current.snapshot["health"] else None
            return current.with_health(row), changed

        return await self._save_each(list(changes), UPDATE_HEALTH, apply)

    async def save_stabilities(
        self, changes: Iterable[tuple[StoredCharacter, CharacterStability | None]]
    ) -> list[StoredCharacter]:
        """Write every Stability value of these characters (None: without Stability), in one
        statement, as ``save_healths`` writes Health (a character missing from its guild
        raises ``CharacterNotFound`` before anything is written). Stability given or taken
        away ends the server's name index (it knows who has Stability). Returns the saved
        characters in the order given."""

        def apply(
            character: StoredCharacter, current: StoredRow, stability: CharacterStability | None
        ) -> tuple[StoredRow, tuple[Any, ...] | None]:
            row = stability_to_row(stability)
            if (current.snapshot.get("stability") is None) != (stability is None):
                self.names_written.add(character.guild_id)
            changed = (
                tuple(row.values()) if row != stability_of_snapshot(current.snapshot) else None
            )
            return current.with_stability(row), changed

        return await self._save_each(list(changes), UPDATE_STABILITY, apply)

    async def _save_each(
        self,
        pairs: list[tuple[StoredCharacter, _Value]],
        statement: str,
        apply: Callable[
            [StoredCharacter, StoredRow, _Value], tuple[StoredRow, tuple[Any, ...] | None]
        ],
    ) -> list[StoredCharacter]:
        """The frame of a write of one part of many characters: all of them loaded first (one
        missing from its guild raises before anything is written), then ``apply`` gives each
        its new row and the values of ``statement`` when they changed (None: nothing to
        write), all sent as one statement. A character given twice is written as the last."""
        self.check_writable()
        for guild_id in sorted({character.guild_id for character, _ in pairs}):
            await self.load(guild_id, (c.id for c, _ in pairs if c.guild_id == guild_id))
        states: dict[int, StoredRow] = {}
        params: list[tuple[Any, ...]] = []
        saved: list[StoredCharacter] = []
        for character, value in pairs:
            current = await self._require(character.guild_id, character.id)
            current = states.get(character.id, current)
            stored, changed = apply(character, current, value)
            if changed is not None:
                params.append((*changed, character.id, character.guild_id))
            states[character.id] = stored
            saved.append(stored.character())
        self._pipe.queue_many(statement, params)
        for stored in states.values():
            self._known.keep(stored)
        return saved

    async def set_gender(
        self, character: StoredCharacter, gender: Gender | None
    ) -> StoredCharacter:
        """Give the character a grammatical gender (None: none). Raises ``CharacterNotFound``."""
        return await self._set_column(character, "gender", None if gender is None else gender.value)

    async def set_numbers(self, character: StoredCharacter, numbers: Numbers) -> StoredCharacter:
        """Whether the table sees the character's numbers. Raises ``CharacterNotFound``."""
        return await self._set_column(character, "numbers", numbers_to_value(numbers))

    async def _set_column(
        self, character: StoredCharacter, column: str, value: str | None
    ) -> StoredCharacter:
        """One column the name index also reads (``gender``, ``numbers``; NULL: not given,
        and not kept in the snapshot for ``numbers``: a shown one's is as before)."""
        current = await self._require(character.guild_id, character.id)
        self.names_written.add(character.guild_id)
        if current.snapshot.get(column) != value:
            self._pipe.queue(
                f"UPDATE characters SET {column} = ? WHERE id = ? AND guild_id = ?",
                (value, character.id, character.guild_id),
            )
        snapshot = {key: item for key, item in current.snapshot.items() if key != column}
        if value is not None or column == "gender":
            snapshot[column] = value
        return self._stored(StoredRow(snapshot, current.keys)).character()

    async def set_ability(self, character: StoredCharacter, ability: Ability) -> StoredCharacter:
        """Add the ability, or replace the one with the same name ignoring case (its stored
        name becomes ``ability.name``). Raises ``CharacterNotFound``."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows[name_key(ability.name)] = ability_to_row(ability)
        return self._store_abilities(current, rows).character()

    async def remove_ability(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Remove the ability called ``name`` (ignoring case); absent: nothing changes."""
        current = await self._require(character.guild_id, character.id)
        rows = current.abilities()
        rows.pop(name_key(name), None)
        return self._store_abilities(current, rows).character()

    async def save_abilities(
        self, character: StoredCharacter, abilities: Iterable[Ability]
    ) -> StoredCharacter:
        """Replace the whole set of abilities (e.g. ``/refresh``). Names must differ
        ignoring case (``ValueError``)."""
        current = await self._require(character.guild_id, character.id)
        return self._store_abilities(current, abilities_by_key(abilities)).character()

    async def rename(self, character: StoredCharacter, name: str) -> StoredCharacter:
        """Give the character a new name (stored as given: clean it first). Raises
        ``CharacterNotFound``, and ``DuplicateName`` when the exact name is taken."""
        current = await self._require(character.guild_id, character.id)
        self.names_written.add(character.guild_id)
        try:
            await self._pipe.execute(
                "UPDATE characters SET name = ?, "
                + ", ".join(f"{column} = ?" for column in NAME_KEY_COLUMNS)
                + " WHERE id = ? AND guild_id = ?",
                (name, *name_keys(name), character.id, character.guild_id),
            )
        except sqlite3.IntegrityError as error:
            if is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(character.guild_id, name) from error
            raise
        return self._stored(StoredRow({**current.snapshot, "name": name}, current.keys)).character()

    async def move(self, character: StoredCharacter, to_table: int) -> StoredCharacter:
        """The character plays at table ``to_table`` from now on (issue 27), with its whole
        state and its roll messages: written at the table it leaves, whose history records
        it (the snapshots differ by their ``guild_id``). Raises ``DuplicateName`` when its
        exact name is taken there."""
        current = await self._require(character.guild_id, character.id)
        self.names_written.update({character.guild_id, to_table})
        try:
            await self._pipe.execute(
                "UPDATE characters SET guild_id = ? WHERE id = ? AND guild_id = ?",
                (to_table, character.id, character.guild_id),
            )
        except sqlite3.IntegrityError as error:
            if is_unique_violation(error, "characters.name_key"):
                raise DuplicateName(to_table, character.name) from error
            raise
        self._pipe.queue(
            "UPDATE roll_messages SET guild_id = ? WHERE character_id = ?",
            (to_table, character.id),
        )
        moved = StoredRow({**current.snapshot, "guild_id": to_table}, current.keys)
        return self._stored(moved).character()

    async def delete(self, guild_id: int, character_id: int) -> StoredCharacter | None:
        """Delete it with its abilities; returns what was deleted, None if not in this guild."""
        current = await self._touch(guild_id, character_id)
        if current is None:
            return None
        self.names_written.add(guild_id)
        self._pipe.queue(_DELETE, (character_id, guild_id))
        self._known.deleted(character_id)
        return current.character()

    async def _bring_back(self, guild_id: int, character_id: int) -> StoredRow | None:
        """A character restored at a table it has moved away from (an undone
        ``/character move``) comes back to it: its row, wherever it plays now, is this
        table's again; None when there is no such row (a deleted character)."""
        row = await self._pipe.fetchall(
            "SELECT guild_id FROM characters WHERE id = ?", (character_id,)
        )
        if not row or int(row[0][0]) == guild_id:
            return None
        elsewhere = int(row[0][0])
        self.names_written.add(elsewhere)
        await self._pipe.execute(
            "UPDATE characters SET guild_id = ? WHERE id = ?", (guild_id, character_id)
        )
        self._pipe.queue(
            "UPDATE roll_messages SET guild_id = ? WHERE character_id = ?",
            (guild_id, character_id),
        )
        await self._reads.get_character(guild_id, character_id)  # known as stored now
        return self._known.state(guild_id, character_id)

    async def restore(self, guild_id: int, snapshot: Snapshot) -> StoredRow:
        """Write ``snapshot`` back exactly: row (same id), every field and the abilities.
        Raises ``DuplicateName`` when its name was taken meanwhile."""
        if int(snapshot["guild_id"]) != guild_id:
            raise StorageError("snapshot of another guild")  # pragma: no cover - corrupt data
        character_id = int(snapshot["id"])
        abilities = abilities_by_key(ability_from_row(item) for item in snapshot["abilities"])
        current = await self._touch(guild_id, character_id, will_create=True)
        self.names_written.add(guild_id)  # the name, owner or gender may come back
        if current is None:
            current = await self._bring_back(guild_id, character_id)
        health = snapshot["health"]
        stability = stability_of_snapshot(snapshot)
        fields = {
            "id": character_id,
            "guild_id": guild_id,
            "name": str(snapshot["name"]),
            "owner_id": int(snapshot["owner_id"]),
            "created_at": str(snapshot["created_at"]),
            "gender": snapshot.get("gender"),
            "numbers": snapshot.get("numbers"),
            **{column: health[column] for column in HEALTH_COLUMNS},
            **{column: stability[column] for column in STABILITY_COLUMNS},
        }
        if current is None:
            await self._insert(
                character_id=character_id,
                guild_id=guild_id,
                fields=fields,
                health=health,
                stability=stability,
            )
        else:
            columns, values = character_columns(fields, health, stability)
            try:
                await self._pipe.execute(
                    f"UPDATE characters SET {', '.join(f'{c} = ?' for c in columns)}"
                    " WHERE id = ? AND guild_id = ?",
                    (*values, character_id, guild_id),
                )
            except sqlite3.IntegrityError as error:
                if is_unique_violation(error, "characters.name_key"):
                    raise DuplicateName(guild_id, fields["name"]) from error
                raise
        row = StoredRow.new(fields)
        if current is not None:  # its ability rows are still there: only changes are written
            row = StoredRow(
                {**row.snapshot, "abilities": current.snapshot["abilities"]}, current.keys
            )
        return self._store_abilities(self._stored(row), abilities)
