"""Tables: several games in one server (issue 27), kept in memory so that finding the table of
an interaction costs no trip to the database.

Every server has its main table, whose id is the server's id (migration 0014): whatever a
server stored before tables existed is its main table's. Another table's id is the
snowflake of the ``/table create`` that made it. The characters, history, trackers and roll
messages of a table are stored under its id where they were stored under the server's.

``TableDirectory`` holds every table and bound place of the file (a few rows a server),
read once when the storage opens (the engine's ``load_directory``) and kept current by
the ``/table`` commands after they commit; ``table_for`` walks a command's places, innermost first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.storage.models import Numbers
from rules.names import name_key

if TYPE_CHECKING:
    from bot.storage.models import StoredCharacter

__all__ = [
    "MAX_TABLES",
    "GameTable",
    "TableDirectory",
    "TableWrites",
]

#: At most this many tables a server, the main one included.
MAX_TABLES = 25


@dataclass(frozen=True)
class GameTable:
    """One game of a server: its name (``None``: the main table, unnamed), its GM role and
    its announcement channel (the main table's is ``/config channel``, in its settings)."""

    id: int
    guild_id: int
    name: str | None = None
    gm_role_id: int | None = None
    channel_id: int | None = None
    #: The ``numbers`` of the characters created at it from then on (issue 28).
    numbers: Numbers = Numbers.SHOWN

    @property
    def is_main(self) -> bool:
        return self.id == self.guild_id


class TableDirectory:
    """Every table and bound place, by server; the main table is there even without a row."""

    def __init__(self) -> None:
        self._tables: dict[int, dict[int, GameTable]] = {}
        self._places: dict[int, int] = {}  # place id -> table id
        self._guild_of_place: dict[int, int] = {}
        self._server_of: dict[int, int] = {}
        #: A channel's category, a thread's channel or forum: what the gateway told of the
        #: places that have a parent (``bot.gateway.places``).
        self._parents: dict[int, int] = {}

    def learn_parent(self, place_id: int, parent_id: int | None) -> None:
        if parent_id is None:
            self._parents.pop(place_id, None)
        else:
            self._parents[place_id] = parent_id

    def forget_place(self, place_id: int) -> None:
        self._parents.pop(place_id, None)

    def bound_table_id(self, place_id: int) -> int | None:
        return self._places.get(place_id)

    def parent_of(self, place_id: int) -> int | None:
        return self._parents.get(place_id)

    def places_from(self, channel_id: int | None, parent_id: int | None) -> list[int | None]:
        """The places a command used in ``channel_id`` is in, innermost first: itself, its
        parent (as the interaction says), and up to two more parents the gateway told."""
        chain: list[int | None] = [channel_id, parent_id]
        current = parent_id if parent_id is not None else channel_id
        for _ in range(2):
            current = None if current is None else self._parents.get(current)
            if current is None or current in chain:
                break
            chain.append(current)
        return chain

    def put(self, table: GameTable) -> None:
        self._tables.setdefault(table.guild_id, {})[table.id] = table
        self._server_of[table.id] = table.guild_id

    def server_of(self, table_id: int) -> int:
        """The server of a table (a main table's id is its server's)."""
        return self._server_of.get(table_id, table_id)

    def title_of(self, table_id: int) -> str | None:
        """The name a title gives the table when its server has several (``None`` when
        it has only its main table, or for the main table unnamed: the caller's words)."""
        server = self.server_of(table_id)
        if not self.several(server):
            return None
        table = self.get(server, table_id)
        return "" if table is None or table.name is None else table.name

    def remove(self, table: GameTable) -> None:
        self._tables.get(table.guild_id, {}).pop(table.id, None)
        for place in self.places_of(table):
            self._places.pop(place, None)
            self._guild_of_place.pop(place, None)

    def bind(self, guild_id: int, place_id: int, table_id: int) -> None:
        self._places[place_id] = table_id
        self._guild_of_place[place_id] = guild_id

    def unbind(self, place_id: int) -> None:
        self._places.pop(place_id, None)
        self._guild_of_place.pop(place_id, None)

    def main(self, guild_id: int) -> GameTable:
        return self._tables.get(guild_id, {}).get(guild_id) or GameTable(guild_id, guild_id)

    def tables(self, guild_id: int) -> list[GameTable]:
        """The server's tables: the main one first, then the others in the order made."""
        others = [t for t in self._tables.get(guild_id, {}).values() if not t.is_main]
        return [self.main(guild_id), *sorted(others, key=lambda table: table.id)]

    def several(self, guild_id: int) -> bool:
        """Whether the server has a table besides its main one (only then do replies name
        tables)."""
        return any(not t.is_main for t in self._tables.get(guild_id, {}).values())

    def get(self, guild_id: int, table_id: int) -> GameTable | None:
        if table_id == guild_id:
            return self.main(guild_id)
        return self._tables.get(guild_id, {}).get(table_id)

    def table_of_place(self, guild_id: int, place_id: int) -> GameTable | None:
        """The table bound to exactly this place, if any."""
        table_id = self._places.get(place_id)
        if table_id is None or self._guild_of_place.get(place_id) != guild_id:
            return None
        return self.get(guild_id, table_id)

    def table_for(self, guild_id: int, places: Iterable[int | None]) -> GameTable:
        """The table bound to the innermost of ``places`` (thread, channel, category), else
        the main table. Dictionary lookups only: this is on every command's path."""
        if guild_id in self._tables:
            for place in places:
                if place is None:
                    continue
                table = self.table_of_place(guild_id, place)
                if table is not None:
                    return table
        return self.main(guild_id)

    def places_of(self, table: GameTable) -> list[int]:
        return sorted(p for p, t in self._places.items() if t == table.id)

    def find(self, guild_id: int, typed: str) -> GameTable | None:
        """The server's table with that name (compared as character names are), or by id."""
        key = name_key(typed)
        for table in self.tables(guild_id):
            if table.name is not None and name_key(table.name) == key:
                return table
            if typed.strip() == str(table.id):
                return table
        return None


class TableWrites(Protocol):
    """A change's writes of tables and places (``tx.tables``): no history of their own, but
    a character's move is a change its caller records."""

    def insert(self, table: GameTable) -> None:
        """A new table, with its server's main row if it had none."""

    def update(self, table: GameTable) -> None:
        """Store a table's name, GM role, announcement channel and numbers as given."""

    def bind(self, table: GameTable, place_id: int) -> None:
        """The place plays at ``table`` from now on (moved from any other)."""

    def unbind(self, place_id: int) -> None: ...

    def delete(self, table: GameTable) -> None:
        """An empty table, with its places and tracker."""

    async def move_character(self, character: StoredCharacter, to_table: int) -> StoredCharacter:
        """The character plays at ``to_table`` from now on; recorded at the table it left."""
