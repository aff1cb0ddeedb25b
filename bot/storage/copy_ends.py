"""What ``salud copy`` (``bot/storage/copy.py``) needs of each end of a copy: a source read in
one snapshot, a target written in one transaction. Each engine has its own
(``bot/storage/sqlite/copy_end.py``, ``bot/storage/postgres/copy_end.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.storage.reports import OperateError

__all__ = ["CopySource", "CopyTarget", "Reference", "Row", "older"]

Row = tuple[Any, ...]


@dataclass(frozen=True)
class Reference:
    """A column that points at a row of ``parent`` (by its ``parent_column``)."""

    column: str
    parent: str
    parent_column: str


class CopySource(Protocol):
    """A database read in one snapshot."""

    engine: str

    async def version(self) -> int: ...
    async def tables(self) -> set[str]: ...
    async def columns(self, table: str) -> list[str]: ...
    def rows(self, table: str, columns: Sequence[str]) -> AsyncIterator[Row]: ...
    async def count(self, table: str) -> int: ...
    async def servers(self) -> int: ...
    async def high_water(self) -> dict[str, int]: ...


class CopyTarget(CopySource, Protocol):
    """A database written in one transaction: ``begin`` creates or migrates its schema."""

    async def begin(self) -> None: ...
    async def references(self, table: str) -> list[Reference]: ...
    async def write(self, table: str, columns: Sequence[str], rows: AsyncIterator[Row]) -> None: ...
    async def point(self, table: str, reference: Reference, pairs: list[Row]) -> None: ...
    async def continue_ids(self, high_water: Mapping[str, int]) -> None: ...
    async def commit(self) -> None: ...
    async def abandon(self) -> None: ...


def older(shown: str, version: int, latest: int) -> OperateError:
    return OperateError(
        f"{shown} has schema version {version}, older than this Salud's {latest}: "
        "start the bot on it once (it updates the schema), stop it, then copy."
    )
