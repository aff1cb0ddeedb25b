"""What ``salud check``, ``salud backup`` and ``salud copy`` say of a database, on either
engine: the report of a sound one, or the one line that says why it is not and what to do.
Neither engine's, so that the command line (``bot/config/operate.py``) reaches them without
standing on an engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["DatabaseReport", "OperateError"]


class OperateError(Exception):
    """The database cannot be checked or copied; the message says why and what to do."""


@dataclass(frozen=True)
class DatabaseReport:
    """What a sound Salud database holds."""

    path: Path
    size_bytes: int
    schema_version: int
    expected_version: int
    characters: int
    servers: int
