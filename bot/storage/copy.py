"""``salud copy FROM TO``: a whole Salud database from one engine to the other (each an SQLite
path or a PostgreSQL URL; also SQLite to SQLite and PostgreSQL to PostgreSQL), and the copy
that ``salud backup`` makes of a PostgreSQL database (``bot.storage.postgres.operate``).

- What is copied is derived from the schema, never listed: every table of the target's
  schema but each engine's own bookkeeping (``_OWN_TABLES``), with every column. The source
  must hold exactly those tables and columns, so a table added to one engine's migrations
  and not the other's makes the copy refuse, not forget it.
- The source is read in one snapshot: SQLite's one read transaction (read-only, leaving
  nothing beside the file), PostgreSQL's ``REPEATABLE READ READ ONLY`` transaction. Its schema
  must be the current one: an older database is refused with the advice to start the bot on
  it once (the bot migrates it in one transaction; a copy that migrated would have to write
  to the source, or migrate a whole temporary copy of it).
- The target is written in one transaction: its schema created or migrated, the rows, the
  self-references (``history.undone_by`` points at a later row: written once every row is
  in), the identity values (the next id continues after the source's highest, also one of a
  deleted row), then every table's count compared with the source's; any failure rolls it
  all back, and an SQLite file the copy created is removed. A target that holds Salud's
  data, another program's tables, or a newer schema is refused before anything is written.

Each failure is one ``OperateError`` line; nothing here prints.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from bot.storage.copy_ends import CopySource, CopyTarget, Reference, Row
from bot.storage.errors import DatabaseUnreachable, DatabaseUnusable
from bot.storage.postgres import schema as pg_schema
from bot.storage.postgres.copy_end import PG_ERRORS, PgTarget, pg_connect, pg_source
from bot.storage.reports import OperateError
from bot.storage.sqlite.copy_end import sqlite_source, sqlite_target
from bot.storage.sqlite.file_check import one_line

__all__ = ["CopyReport", "copy_database", "is_url", "named"]

#: Each engine's own tables, not Salud's data: the target keeps its own (SQLite's AUTOINCREMENT
#: counters, PostgreSQL's schema version and the rows that lock a server, made on demand).
_OWN_TABLES = {
    "sqlite": frozenset({"sqlite_sequence"}),
    "postgres": frozenset({"schema_version", "servers"}),
}
#: The tables the one line names, in its words (the rest are counted in its total).
_SAID = (
    ("characters", "character", "characters"),
    ("history", "history entry", "history entries"),
    ("roll_messages", "roll message", "roll messages"),
    ("trackers", "tracker", "trackers"),
    ("game_tables", "table", "tables"),
)


#: What a copy that failed in the middle raises: either driver, the disk, the network.
_FAILURES: tuple[type[Exception], ...] = (*PG_ERRORS, sqlite3.Error, OSError, DatabaseUnreachable)


def is_url(where: str) -> bool:
    """A PostgreSQL URL rather than an SQLite path."""
    return where.startswith(("postgresql://", "postgres://"))


def named(where: str) -> str:
    """How a line names a database: a URL without its password."""
    return pg_schema.hidden(where) if is_url(where) else where


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


@dataclass(frozen=True)
class CopyReport:
    """What was copied: every table's rows, and the servers they belong to."""

    source: str
    target: str
    counts: Mapping[str, int]
    servers: int
    schema_version: int

    def line(self) -> str:
        """``copied 2 servers, 5 characters, … from X to Y``."""
        parts = [_plural(self.servers, "server", "servers")]
        parts += [_plural(self.counts.get(table, 0), one, many) for table, one, many in _SAID]
        total = sum(self.counts.values())
        parts.append(f"{_plural(total, 'row', 'rows')} in {len(self.counts)} tables")
        return f"copied {', '.join(parts)} from {self.source} to {self.target}"


# --- the copy ----------------------------------------------------------------------------------


def _open_source(where: str) -> contextlib.AbstractAsyncContextManager[CopySource]:
    return pg_source(where) if is_url(where) else sqlite_source(Path(where))


async def _open_target(where: str) -> CopyTarget:
    if is_url(where):
        return PgTarget(await pg_connect(where))
    return sqlite_target(Path(where))


def _same(source: str, target: str) -> bool:
    if is_url(source) or is_url(target):
        return source == target
    with contextlib.suppress(OSError):
        return Path(source).resolve() == Path(target).resolve() or (
            Path(target).exists() and Path(source).samefile(target)
        )
    return False


def _in_order(tables: set[str], parents: Mapping[str, set[str]]) -> list[str]:
    """The tables, each after those its rows point at (by name among equals)."""
    ordered: list[str] = []
    waiting = sorted(tables)
    while waiting:
        ready = [t for t in waiting if not (parents[t] - {t}) - set(ordered)]
        if not ready:  # a cycle between tables: not in Salud's schema; keep going by name
            ready = waiting[:1]
        ordered += ready
        waiting = [t for t in waiting if t not in ready]
    return ordered


async def _salud_tables(end: CopySource) -> set[str]:
    return await end.tables() - _OWN_TABLES[end.engine]


async def _same_schema(source: CopySource, target: CopyTarget, where: tuple[str, str]) -> list[str]:
    """The tables to copy: the target's; the source must hold them, column for column."""
    tables, found = await _salud_tables(target), await _salud_tables(source)
    if tables != found:
        odd = sorted(tables ^ found)
        raise OperateError(
            f"{where[0]} and {where[1]} differ in their tables "
            f"({', '.join(odd[:3])}) at the same schema version: nothing was copied."
        )
    for table in sorted(tables):
        if set(await target.columns(table)) != set(await source.columns(table)):
            raise OperateError(
                f"{where[0]} and {where[1]} differ in the columns of {table}: nothing was copied."
            )
    return sorted(tables)


async def _refuse_data(target: CopyTarget, tables: Sequence[str], where: str) -> None:
    held = {table: await target.count(table) for table in tables}
    if any(held.values()):
        said = ", ".join(f"{count} in {table}" for table, count in held.items() if count)
        raise OperateError(
            f"{where} already holds Salud's data ({said}): give an empty database "
            "(nothing was copied)."
        )


async def _deferring(
    rows: AsyncIterator[Row],
    columns: Sequence[str],
    later: Sequence[Reference],
    pending: list[list[Row]],
) -> AsyncIterator[Row]:
    """``rows`` with their self-references blanked, kept in ``pending`` as (value, key) pairs
    (one list per reference) to be written once every row is in."""
    held = [(columns.index(r.column), columns.index(r.parent_column)) for r in later]
    async for row in rows:
        if held:
            values = list(row)
            for index, (column, key) in enumerate(held):
                if values[column] is not None:
                    pending[index].append((values[column], values[key]))
                    values[column] = None
            row = tuple(values)
        yield row


async def _copy_rows(
    source: CopySource, target: CopyTarget, tables: Sequence[str]
) -> dict[str, int]:
    """Every row of ``tables``; the self-references once all rows are in. Source counts."""
    references = {table: await target.references(table) for table in tables}
    parents = {table: {r.parent for r in found} for table, found in references.items()}
    counts: dict[str, int] = {}
    for table in _in_order(set(tables), parents):
        columns = await target.columns(table)
        later = [r for r in references[table] if r.parent == table]
        pending: list[list[Row]] = [[] for _ in later]
        rows = _deferring(source.rows(table, columns), columns, later, pending)
        await target.write(table, columns, rows)
        for index, reference in enumerate(later):
            if pending[index]:
                await target.point(table, reference, pending[index])
        counts[table] = await source.count(table)
    return counts


async def _check_counts(target: CopyTarget, counts: Mapping[str, int], where: str) -> None:
    for table, expected in counts.items():
        got = await target.count(table)
        if got != expected:
            raise OperateError(
                f"the copy in {where} holds {got} rows of {table}, the source "
                f"{expected}: nothing was written."
            )


async def copy_database(source: str, target: str, *, target_name: str | None = None) -> CopyReport:
    """Copy the Salud database at ``source`` into the empty ``target`` (see the module);
    ``target_name``: how the lines name the target (``salud backup``'s file, not the partial
    copy it writes first)."""
    shown_source, shown_target = named(source), target_name or named(target)
    if _same(source, target):
        raise OperateError("FROM and TO are the same database: give another TO.")
    async with _open_source(source) as reader:
        writer = await _open_target(target)
        try:
            try:
                await writer.begin()
            except DatabaseUnusable as error:
                raise OperateError(f"{shown_target} {error} (nothing was copied).") from None
            tables = await _same_schema(reader, writer, (shown_source, shown_target))
            await _refuse_data(writer, tables, shown_target)
            counts = await _copy_rows(reader, writer, tables)
            await writer.continue_ids(await reader.high_water())
            await _check_counts(writer, counts, shown_target)
            servers, version = await reader.servers(), await reader.version()
            report = CopyReport(shown_source, shown_target, counts, servers, version)
            await writer.commit()
        except OperateError:
            await writer.abandon()
            raise
        except _FAILURES as error:
            await writer.abandon()
            said = one_line(
                str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
            )
            raise OperateError(
                f"the copy into {shown_target} failed ({said}): it was left as it was."
            ) from None
        except BaseException:
            await writer.abandon()
            raise
    return report
