"""The SQL both engines run: written once, in SQLite's dialect, and translated for PostgreSQL
by ``bot/storage/postgres/dialect.py`` (which finds these texts by identity), so that neither
engine imports the other's modules for them."""

from __future__ import annotations

from typing import Final

from rules.stability import INSANITY_THRESHOLD

__all__ = [
    "ABILITIES_JSON",
    "INSERT_ENTRY_NEW_ID",
    "NEXT_HISTORY_ID",
    "OUT_OF_PLAY",
    "SELECT_NEXT_HISTORY_ID",
]

#: The id the next history entry gets (AUTOINCREMENT: above every id ever given) and the
#: number it gets in its server (migration 0011: one more than the server's last), asked with
#: ``BEGIN IMMEDIATE``, after which no other connection can write until the COMMIT. The
#: parameter is the server of the transaction (NULL when it did not say: number 1, unused).
NEXT_HISTORY_ID: Final = "next_history_id"
SELECT_NEXT_HISTORY_ID = (
    "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'history'), 0),"
    " coalesce((SELECT max(id) FROM history), 0)) + 1,"
    " coalesce((SELECT max(number) FROM history WHERE guild_id = ?), 0) + 1"
)

#: Sent at once when the probe did not give the entry's id and number: its server's next
#: number taken under the write lock, both read back.
INSERT_ENTRY_NEW_ID = (
    "INSERT INTO history (number, guild_id, interaction_id, actor_id, command, details,"
    " created_at, undo_of) VALUES ((SELECT coalesce(max(number), 0) + 1 FROM history"
    " WHERE guild_id = ?), ?, ?, ?, ?, ?, ?, ?) RETURNING id, number"
)

#: A character's abilities as one JSON column of its row, so that a character is read in one
#: query (each query is a round trip to aiosqlite's thread; issue 6 measured them as the main
#: cost of a command). Sorted by name_key in Python (``abilities_of``): json_group_array
#: promises no order.
ABILITIES_JSON = (
    "(SELECT json_group_array(json_object('key', a.name_key, 'name', a.name, 'kind', a.kind,"
    " 'rating', a.rating, 'pool', a.pool)) FROM abilities AS a WHERE a.character_id = c.id)"
    " AS abilities_json"
)

#: The living who are incurably insane (M4): out of play, listed apart from the others
#: (``characters`` as ``c``; its parameter the death threshold). The insanity threshold is
#: written out, as the partial index ``characters_out_of_play`` (migration 0013) says it.
OUT_OF_PLAY = f"(c.stability_pool <= {int(INSANITY_THRESHOLD)} AND c.health > ?)"
