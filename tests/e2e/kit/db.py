"""Reading what the bot stored: its SQLite file, opened read-only while it runs.

The one database reader of the end-to-end tests; a test with a query of its own opens the file
with ``read_only`` too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from bot.storage.sqlite.rows import NAME_KEY_COLUMNS, name_keys
from devkit.fake_discord import FakeGuild, FakeMember
from devkit.harness import BotProcess


@contextmanager
def read_only(source: BotProcess | Path, *, timeout: float = 5.0) -> Iterator[sqlite3.Connection]:
    """A read-only connection to the bot's database (or any file of it: a copy, a backup), rows
    by column name; in WAL mode it sees every committed change. Closed after the block."""
    path = source.database_path if isinstance(source, BotProcess) else source
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)
    conn.row_factory = sqlite3.Row
    try:
        yield conn
    finally:
        conn.close()


@contextmanager
def writable(bot: BotProcess) -> Iterator[sqlite3.Connection]:
    """A connection that writes behind the bot's back (rows a past version would have left);
    committed when the block ends without an error."""
    conn = sqlite3.connect(bot.database_path, timeout=10)
    try:
        with conn:
            yield conn
    finally:
        conn.close()


def stored(source: BotProcess | Path, guild: FakeGuild, name: str) -> dict[str, Any]:
    """The character's stored row, as a dict."""
    with read_only(source, timeout=10) as conn:
        row = conn.execute(
            "SELECT * FROM characters WHERE guild_id = ? AND name_key = ?",
            (int(guild.id), name.strip().casefold()),
        ).fetchone()
    assert row is not None, f"{name} is not stored in guild {guild.id}"
    return dict(row)


def abilities(bot: BotProcess, guild: FakeGuild, character: str) -> dict[str, tuple[str, int, int]]:
    """``{name: (kind, rating, pool)}`` of one character, as stored."""
    with read_only(bot) as conn:
        rows = conn.execute(
            "SELECT a.name, a.kind, a.rating, a.pool FROM abilities AS a"
            " JOIN characters AS c ON c.id = a.character_id"
            " WHERE c.guild_id = ? AND c.name_key = ?",
            (int(guild.id), character.casefold()),
        ).fetchall()
    return {row["name"]: (row["kind"], row["rating"], row["pool"]) for row in rows}


def history_commands(bot: BotProcess, guild: FakeGuild) -> list[tuple[str, int]]:
    """``(command, interaction_id)`` of the server's history entries, oldest first."""
    with read_only(bot) as conn:
        rows = conn.execute(
            "SELECT command, interaction_id FROM history WHERE guild_id = ? ORDER BY id",
            (int(guild.id),),
        ).fetchall()
    return [(str(row[0]), int(row[1])) for row in rows]


def history(bot: BotProcess, guild: FakeGuild) -> list[str]:
    """The server's history commands, oldest first."""
    return [command for command, _ in history_commands(bot, guild)]


def history_count(bot: BotProcess, guild: FakeGuild) -> int:
    """Entries of the server's history."""
    with read_only(bot) as conn:
        row = conn.execute(
            "SELECT count(*) FROM history WHERE guild_id = ?", (int(guild.id),)
        ).fetchone()
    return int(row[0])


def last_details(bot: BotProcess, guild: FakeGuild) -> str:
    """The JSON details of the server's latest history entry."""
    with read_only(bot) as conn:
        row = conn.execute(
            "SELECT details FROM history WHERE guild_id = ? ORDER BY id DESC LIMIT 1",
            (int(guild.id),),
        ).fetchone()
    return str(row[0])


def guild_state(bot: BotProcess, guild: FakeGuild) -> tuple[Any, ...]:
    """Everything stored for the server's characters, and its history length."""
    with read_only(bot) as conn:
        characters = conn.execute(
            "SELECT * FROM characters WHERE guild_id = ? ORDER BY id", (int(guild.id),)
        ).fetchall()
        ids = [row["id"] for row in characters]
        marks = ", ".join("?" * len(ids)) or "NULL"
        rows = conn.execute(
            f"SELECT * FROM abilities WHERE character_id IN ({marks})"
            " ORDER BY character_id, name_key",
            ids,
        ).fetchall()
        entries = conn.execute(
            "SELECT count(*) FROM history WHERE guild_id = ?", (int(guild.id),)
        ).fetchone()[0]
    return (
        [tuple(row) for row in characters],
        [tuple(row) for row in rows],
        entries,
    )


def rows(bot: BotProcess, guild: FakeGuild) -> dict[str, dict[str, Any]]:
    """Every character row of ``guild`` straight from the database, by name (with abilities)."""
    with read_only(bot) as connection:
        found: dict[str, dict[str, Any]] = {}
        for row in connection.execute(
            "SELECT * FROM characters WHERE guild_id = ?", (int(guild.id),)
        ):
            values = dict(row)
            # Not a value of the character: the number of its latest Consciousness roll, which
            # only goes up so that an old button never matches a new roll
            # (bot/features/rolls/keeper.py).
            values.pop("roll_seq", None)
            values["abilities"] = [
                tuple(item)
                for item in connection.execute(
                    "SELECT name, kind, rating, pool FROM abilities WHERE character_id = ?"
                    " ORDER BY name_key",
                    (row["id"],),
                )
            ]
            found[str(row["name"])] = values
        return found


def insert_characters(
    bot: BotProcess, guild: FakeGuild, owner: FakeMember, names: list[str]
) -> None:
    """Many characters at once, written the way the storage would (seriously wounded, with
    flags, so that the lines are long; every key of the name, as ``bot.storage.sqlite.rows``)."""
    keys = ", ".join(NAME_KEY_COLUMNS)
    marks = ", ".join("?" * len(NAME_KEY_COLUMNS))
    with writable(bot) as connection:
        connection.executemany(
            f"INSERT INTO characters (guild_id, name, {keys}, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, hospital_length_days, hospital_days_served,"
            " lowest_health, first_aid_received, bleed_minutes, full_recovery_due)"
            f" VALUES (?, ?, {marks}, ?, '2024-01-01T00:00:00.000000+00:00', -7, 99, 0, 0, 99,"
            " 1, 1, 0, NULL, NULL, -7, 0, 0, 0)",
            [(int(guild.id), name, *name_keys(name), int(owner.id)) for name in names],
        )
