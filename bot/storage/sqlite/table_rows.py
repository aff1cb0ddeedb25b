"""The rows of tables and their places (issue 27, migration 0014): read once at start-up
into the ``TableDirectory``, written by ``Transaction``'s table methods."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import aiosqlite

from bot.storage.models import StoredCharacter, numbers_from_value, numbers_to_value
from bot.storage.sqlite.pipeline import Pipeline
from bot.storage.tables import GameTable, TableDirectory
from rules.names import name_key

__all__ = ["CharacterMove", "TableWriter", "load_directory"]


class CharacterMove(Protocol):
    """What ``TableWriter`` needs of the transaction's character writes
    (``CharacterWriter``, ``character_writes.py``): a character's move between tables. Its
    shape alone, so that the tables' writes do not stand on every character write."""

    async def move(self, character: StoredCharacter, to_table: int) -> StoredCharacter: ...


async def load_directory(conn: aiosqlite.Connection) -> TableDirectory:
    """Every table and place of the file, read once at start-up."""
    directory = TableDirectory()
    async with conn.execute(
        "SELECT id, guild_id, name, gm_role_id, channel_id, numbers FROM game_tables"
    ) as cursor:
        for row in await cursor.fetchall():
            directory.put(
                GameTable(row[0], row[1], row[2], row[3], row[4], numbers_from_value(row[5]))
            )
    async with conn.execute("SELECT place_id, guild_id, table_id FROM table_places") as cursor:
        for row in await cursor.fetchall():
            directory.bind(row[1], row[0], row[2])
    return directory


def _key(table: GameTable) -> str | None:
    return None if table.name is None else name_key(table.name)


class TableWriter:
    """A transaction's writes of tables, places and a character's move between tables."""

    def __init__(
        self,
        pipe: Pipeline,
        characters: CharacterMove,
        check_open: Callable[[], None],
        now: Callable[[], str],
    ) -> None:
        self._pipe = pipe
        self._characters = characters
        self._check_open = check_open
        self._now = now

    async def move_character(self, character: StoredCharacter, to_table: int) -> StoredCharacter:
        """``character`` plays at ``to_table`` from now on, with its state and due rolls;
        recorded at the table it leaves (``CharacterWriter.move``)."""
        return await self._characters.move(character, to_table)

    def _main_row(self, guild_id: int, now: str) -> None:
        self._check_open()
        self._pipe.queue(
            "INSERT INTO game_tables (id, guild_id, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT (id) DO NOTHING",
            (guild_id, guild_id, now),
        )

    def insert(self, table: GameTable) -> None:
        """A new table (and its server's main row, if the server had none yet)."""
        self._main_row(table.guild_id, self._now())
        self._pipe.queue(
            "INSERT INTO game_tables (id, guild_id, name, name_key, gm_role_id, channel_id,"
            " numbers, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table.id,
                table.guild_id,
                table.name,
                _key(table),
                table.gm_role_id,
                table.channel_id,
                numbers_to_value(table.numbers),
                self._now(),
            ),
        )

    def update(self, table: GameTable) -> None:
        """The table's name, GM role and channel as given (the main row made if needed)."""
        if table.is_main:
            self._main_row(table.guild_id, self._now())
        self._pipe.queue(
            "UPDATE game_tables SET name = ?, name_key = ?, gm_role_id = ?, channel_id = ?,"
            " numbers = ? WHERE id = ?",
            (
                table.name,
                _key(table),
                table.gm_role_id,
                table.channel_id,
                numbers_to_value(table.numbers),
                table.id,
            ),
        )

    def bind(self, table: GameTable, place_id: int) -> None:
        """``place_id`` plays at ``table`` from now on (moved from any table it was bound to)."""
        if table.is_main:
            self._main_row(table.guild_id, self._now())
        self._pipe.queue(
            "INSERT INTO table_places (place_id, guild_id, table_id) VALUES (?, ?, ?)"
            " ON CONFLICT (place_id) DO UPDATE SET table_id = excluded.table_id",
            (place_id, table.guild_id, table.id),
        )

    def unbind(self, place_id: int) -> None:
        self._check_open()
        self._pipe.queue("DELETE FROM table_places WHERE place_id = ?", (place_id,))

    def delete(self, table: GameTable) -> None:
        """An empty table goes, with its places and tracker (it has no characters)."""
        self._check_open()
        self._pipe.queue("DELETE FROM table_places WHERE table_id = ?", (table.id,))
        self._pipe.queue("DELETE FROM trackers WHERE guild_id = ?", (table.id,))
        self._pipe.queue("DELETE FROM game_tables WHERE id = ?", (table.id,))
