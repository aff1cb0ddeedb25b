"""``salud copy FROM TO`` and ``salud backup`` / ``salud check`` with ``DATABASE_URL`` on real
engines (an SQLite file, a real PostgreSQL server): what a copy refuses in one line, that a
failure in the middle leaves the target empty, that ids continue after the copied ones, that
``check`` finds a broken row. (A database played by the real bot, copied SQLite → PostgreSQL
→ SQLite row for row, and a bot started on a backup: ``tests/e2e/test_copy_engines.py``.)"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import psycopg
import pytest

from bot.config.operate import main
from bot.storage import OperateError, Storage, check_url, copy_database
from bot.storage.models import NewCharacter
from bot.storage.postgres.storage import PgStorage
from bot.storage.sqlite.database import latest_version
from devkit.postgres import PostgresServer

from .conftest import ALICE, GUILD_A, Interactions, create, fresh_postgres_database, health
from .test_operate import filled

#: Nothing listens there (the fixture's server is on another port of 127.0.0.1).
UNREACHABLE = "postgresql://salud@127.0.0.1:9/salud"


@pytest.fixture
async def pg_url(postgres_server: PostgresServer) -> str:
    return await fresh_postgres_database(postgres_server)


async def pg_tables(url: str) -> set[str]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
        return {str(row[0]) for row in await cursor.fetchall()}


async def pg_run(url: str, statement: str) -> None:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(statement.encode())


async def run(
    capsys: pytest.CaptureFixture[str], *argv: str, **environ: str
) -> tuple[int, str, str]:
    """``salud ARGV`` as the command line runs it (its own event loop: in a thread)."""
    code = await asyncio.to_thread(main, list(argv), environ)
    out, err = capsys.readouterr()
    return code, out, err


def names_in(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir())


def one_line(text: str) -> str:
    assert text.endswith("\n") and text.count("\n") == 1, repr(text)
    assert "Traceback" not in text
    return text.strip()


async def test_a_copy_into_postgresql_says_what_it_copied_and_ids_continue(
    tmp_path: Path, next_id: Interactions, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    async with await Storage.open(source) as storage:
        gone = await create(storage, next_id, "Gone Soon")
        async with storage.transaction() as tx:
            await tx.delete_character(GUILD_A, gone.id)
            await tx.record(
                guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="delete"
            )
    code, out, err = await run(capsys, "copy", str(source), pg_url)
    assert (code, err) == (0, "")
    line = one_line(out)
    assert line.startswith(
        "salud copy: copied 2 servers, 6 characters, 8 history entries, 0 roll messages, "
        "0 trackers, 0 tables, 22 rows in 12 tables"
    ), line
    assert line.endswith(f" from {source} to {pg_url}"), line
    # The next character's id is after the deleted one's: an id is never given twice.
    async with await PgStorage.open_url(pg_url) as storage, storage.transaction() as tx:
        newcomer = await tx.create_character(NewCharacter(GUILD_A, "Newcomer", ALICE, health()))
        await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="create"
        )
    assert newcomer.id == gone.id + 1
    # ... and so it is in an SQLite copy of that database.
    back = tmp_path / "back.sqlite3"
    assert (await asyncio.to_thread(copy_database, pg_url, str(back))).counts["characters"] == 7
    async with await Storage.open(back) as storage, storage.transaction() as tx:
        later = await tx.create_character(NewCharacter(GUILD_A, "Later", ALICE, health()))
        await tx.record(
            guild_id=GUILD_A, interaction_id=next_id(), actor_id=ALICE, command="create"
        )
    assert later.id == newcomer.id + 1


async def test_a_target_holding_salud_data_is_refused_and_left_as_it_was(
    tmp_path: Path, next_id: Interactions, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    other = await filled(tmp_path / "other.sqlite3", next_id, per_guild=1)
    before = other.read_bytes()
    code, out, err = await run(capsys, "copy", str(source), str(other))
    assert (code, out) == (1, "")
    assert one_line(err) == (
        f"salud copy: {other} already holds Salud's data (2 in characters, 2 in history,"
        " 2 in history_characters): give an empty database (nothing was copied)."
    )
    assert other.read_bytes() == before
    assert (await run(capsys, "copy", str(source), pg_url))[0] == 0
    code, out, err = await run(capsys, "copy", str(other), pg_url)
    assert code == 1 and "already holds Salud's data (6 in characters" in one_line(err), err
    async with await psycopg.AsyncConnection.connect(pg_url) as conn:
        cursor = await conn.execute("SELECT count(*) FROM characters")
        assert await cursor.fetchone() == (6,)


async def test_another_programs_tables_unreachable_servers_and_bad_paths_are_one_line(
    tmp_path: Path, next_id: Interactions, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    await pg_run(pg_url, "CREATE TABLE invoices (id BIGINT PRIMARY KEY)")
    refusals = {
        (str(source), pg_url): "holds tables of another program (invoices)",
        (str(source), UNREACHABLE): "cannot reach postgresql://salud@127.0.0.1:9/salud",
        (UNREACHABLE, str(tmp_path / "new.sqlite3")): "cannot reach postgresql://salud@",
        (str(tmp_path / "none.sqlite3"), pg_url): "none.sqlite3: no such file.",
        (str(source), str(tmp_path / "no" / "such.sqlite3")): "no such folder",
        (str(source), str(tmp_path)): "is a folder",
        (str(source), str(source)): "FROM and TO are the same database",
    }
    for (start, end), words in refusals.items():
        code, out, err = await run(capsys, "copy", start, end)
        assert (code, out) == (1, ""), (start, end)
        assert words in one_line(err), (start, end, err)
    assert await pg_tables(pg_url) == {"invoices"}
    assert names_in(tmp_path) == ["bot.sqlite3"]


async def test_an_older_source_is_refused_saying_to_start_the_bot_on_it_first(
    tmp_path: Path, next_id: Interactions, pg_url: str
) -> None:
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    with sqlite3.connect(source) as raw:
        raw.execute("PRAGMA user_version = 14")
    latest = latest_version()  # the schema's version this Salud writes
    with pytest.raises(
        OperateError, match=f"older than this Salud's {latest}: start the bot on it"
    ):
        await asyncio.to_thread(copy_database, str(source), pg_url)
    assert await pg_tables(pg_url) == set()


async def test_a_copy_failing_in_the_middle_leaves_the_target_empty(
    tmp_path: Path, next_id: Interactions, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite keeps a NUL in a text, PostgreSQL refuses it: the copy fails after its first
    tables are written (history comes after characters and abilities), and nothing stays."""
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    with sqlite3.connect(source) as raw:
        raw.execute("UPDATE history SET details = '{}' || char(0) WHERE id = 3")
    code, out, err = await run(capsys, "copy", str(source), pg_url)
    assert (code, out) == (1, "")
    assert one_line(err).startswith(f"salud copy: the copy into {pg_url} failed ("), err
    assert err.strip().endswith("): it was left as it was."), err
    assert await pg_tables(pg_url) == set()
    # From a PostgreSQL database whose rows point at nothing (its constraint dropped) into a
    # new SQLite file: refused by SQLite's foreign keys after the first tables, no file left.
    fixed = await filled(tmp_path / "fixed.sqlite3", next_id)
    assert (await run(capsys, "copy", str(fixed), pg_url))[0] == 0
    await pg_run(
        pg_url,
        "ALTER TABLE history_characters DROP CONSTRAINT history_characters_history_id_fkey",
    )
    await pg_run(
        pg_url,
        "INSERT INTO history_characters (history_id, character_id, name) VALUES (999, 1, 'x')",
    )
    code, _, err = await run(capsys, "copy", pg_url, str(tmp_path / "copy.sqlite3"))
    assert code == 1 and "FOREIGN KEY constraint failed" in one_line(err), err
    assert not (tmp_path / "copy.sqlite3").exists()


async def test_check_on_postgresql_finds_a_broken_row_and_backup_writes_a_sound_file(
    tmp_path: Path, next_id: Interactions, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = await filled(tmp_path / "bot.sqlite3", next_id)
    assert (await run(capsys, "copy", str(source), pg_url))[0] == 0
    code, out, err = await run(capsys, "check", DATABASE_URL=pg_url)
    assert (code, err) == (0, "")
    assert one_line(out) == (
        f"salud check: {pg_url} is sound: rows sound, schema version {latest_version()} (current), "
        "6 characters in 2 servers"
    )
    missing = str(tmp_path / "no" / "b.sqlite3")
    code, out, err = await run(capsys, "backup", missing, DATABASE_URL=pg_url)
    assert code == 1 and "no such folder" in one_line(err), err
    backup = tmp_path / "backup.sqlite3"
    code, out, err = await run(capsys, "backup", str(backup), DATABASE_URL=pg_url)
    assert (code, err) == (0, "")
    assert one_line(out).startswith(f"salud backup: wrote {backup} (") and out.strip().endswith(
        ", 6 characters in 2 servers, integrity ok)"
    ), out
    with sqlite3.connect(backup) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    assert not [name for name in names_in(tmp_path) if name.endswith((".partial", "-wal"))]
    # An ability's pool below 0, then a Health the rules cannot reach.
    await pg_run(pg_url, "INSERT INTO abilities VALUES (1, 'Occult', 'occult', 'general', 2, -1)")
    with pytest.raises(OperateError, match="holds unsound rows: 1 abilities with a rating or"):
        check_url(pg_url)
    await pg_run(pg_url, "DELETE FROM abilities")
    await pg_run(pg_url, "UPDATE characters SET health = max_health + 2 WHERE id = 2")
    code, out, err = await run(capsys, "check", DATABASE_URL=pg_url)
    assert (code, out) == (1, "")
    assert "character 2 (Investigator 1): health above max_health" in one_line(err), err
    code, _, err = await run(capsys, "check", DATABASE_URL=UNREACHABLE)
    assert code == 1 and one_line(err).startswith(f"salud check: cannot reach {UNREACHABLE}")
    code, _, err = await run(capsys, "check", DATABASE_URL=pg_url, DATABASE_PATH="x.sqlite3")
    assert code == 2 and "both set" in one_line(err)
