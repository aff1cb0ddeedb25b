"""Whether the database is still at the schema this code knows, asked in every transaction.

Several processes may share one file (DESIGN.md, "How Salud grows"). During a rolling upgrade
a newer Salud migrates the file while an older process still serves: that older process then
wrote rows the new schema misreads (issue 24 point 12: five UNIQUE failures in six commands,
and a history number 0). Each transaction asks ``user_version`` in the probe it sends with
``BEGIN IMMEDIATE`` (no trip of its own; the write lock is held from then on, so the answer
holds until its ``COMMIT``), and a version it does not know stops the trip before anything is
written, with ``SchemaMovedOn``.

Kept apart so that another engine can ask its own way (a table instead of ``user_version``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.storage.errors import SchemaMovedOn

__all__ = ["SchemaCheck", "schema_check", "with_schema_version"]

#: What a probe's row must pass (``Pipeline.probe``'s ``check``).
SchemaCheck = Callable[[tuple[Any, ...] | None], None]

#: The schema version, as one more column of a query.
_VERSION_COLUMN = "(SELECT user_version FROM pragma_user_version)"


def with_schema_version(query: str) -> str:
    """``query`` (a ``SELECT`` of one row) with the schema version as its last column."""
    return f"{query}, {_VERSION_COLUMN}"


def schema_check(known: int) -> SchemaCheck:
    """The check of a row of ``with_schema_version``: ``SchemaMovedOn`` unless its last
    column is ``known``."""

    def check(row: tuple[Any, ...] | None) -> None:
        found = None if not row else row[-1]
        if found != known:
            raise SchemaMovedOn(found if isinstance(found, int) else None, known)

    return check
