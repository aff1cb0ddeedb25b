"""Start-up settings from the environment (and ``.env``), checked before anything connects.

A server owner who runs the bot for the first time meets these messages first, so each one
says exactly which line to put in ``.env``.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from bot.storage.default_path import DEFAULT_DATABASE_PATH

__all__ = [
    "DEFAULT_DATABASE_PATH",
    "DEFAULT_LOG_LEVEL",
    "MAX_SHARD_COUNT",
    "Settings",
    "SettingsError",
    "load_settings",
]

DEFAULT_LOG_LEVEL = "INFO"
_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: Unicode categories of control and invisible format characters (ESC, DEL, zero-width …).
_CONTROL = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
#: What a Discord bot token is made of: base64url segments separated by dots.
_TOKEN = re.compile(r"[A-Za-z0-9._-]+")
#: A sanity bound on SHARD_COUNT: one shard per 1,000 servers is already ten million servers.
MAX_SHARD_COUNT = 10_000


class SettingsError(Exception):
    """A setting is missing or unusable; the message says what to write in ``.env``."""


@dataclass(frozen=True)
class Settings:
    """What the bot needs to start. ``repr`` hides the token so it never reaches a log."""

    token: str
    database_path: Path
    log_level: int
    #: Shards of the whole bot (None: as many as Discord recommends).
    shard_count: int | None = None
    #: Shards this process runs (None: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: The PostgreSQL database (``DATABASE_URL``); None: the SQLite file ``database_path``.
    database_url: str | None = None

    def __repr__(self) -> str:
        return (
            f"Settings(token='***', database_path={str(self.database_path)!r}, "
            f"log_level={logging.getLevelName(self.log_level)!r}, "
            f"shard_count={self.shard_count!r}, shard_ids={self.shard_ids!r}, "
            f"database_url={'***' if self.database_url else None!r})"
        )


def load_settings(environ: Mapping[str, str]) -> Settings:
    """Read and check the settings; raise SettingsError with the fix when one is wrong."""
    token = environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError(
            "DISCORD_TOKEN is not set. Copy .env.example to .env and set "
            "DISCORD_TOKEN=<your bot token from https://discord.com/developers/applications "
            "-> your app -> Bot -> Reset Token>"
        )
    if any(character.isspace() for character in token):
        raise SettingsError(
            "DISCORD_TOKEN contains spaces. Put the bot token alone on its line in .env: "
            "DISCORD_TOKEN=<your bot token>"
        )
    if any(unicodedata.category(character) in _CONTROL for character in token):
        # Never the token itself in the message, not even a broken one.
        raise SettingsError(
            "DISCORD_TOKEN contains a control character (a terminal's paste markers such as "
            "ESC[200~ come with some pastes). Type or paste the bot token again, alone on its "
            "line in .env: DISCORD_TOKEN=<your bot token>"
        )
    if not _TOKEN.fullmatch(token):
        raise SettingsError(
            "DISCORD_TOKEN contains characters a bot token never has (a token is letters, "
            "digits, '.', '_' and '-'). Copy it again from https://discord.com/developers/"
            "applications -> your app -> Bot -> Reset Token, alone on its line in .env: "
            "DISCORD_TOKEN=<your bot token>"
        )
    shard_count = _shard_count(environ.get("SHARD_COUNT", "").strip())
    url = database_url(environ)
    return Settings(
        token=token,
        database_url=url,
        database_path=(
            Path(DEFAULT_DATABASE_PATH)
            if url is not None
            else _database_path(environ.get("DATABASE_PATH", "").strip())
        ),
        log_level=_log_level(environ.get("LOG_LEVEL", "").strip()),
        shard_count=shard_count,
        shard_ids=_shard_ids(environ.get("SHARD_IDS", "").strip(), shard_count),
    )


def _shard_count(raw: str) -> int | None:
    """SHARD_COUNT: empty for Discord's recommendation, else a whole number of shards."""
    if not raw:
        return None
    fix = (
        f"Set SHARD_COUNT in .env to a whole number from 1 to {MAX_SHARD_COUNT:,} (the shards "
        "of the whole bot), or remove the line to use as many as Discord recommends."
    )
    if not raw.isascii() or not raw.isdigit():
        raise SettingsError(f"SHARD_COUNT={raw!r} is not a whole number. {fix}")
    count = int(raw)
    if not 1 <= count <= MAX_SHARD_COUNT:
        raise SettingsError(f"SHARD_COUNT={raw!r} is out of range. {fix}")
    return count


def _shard_ids(raw: str, shard_count: int | None) -> tuple[int, ...] | None:
    """SHARD_IDS: the shards this process runs (e.g. ``0,1``), each below SHARD_COUNT."""
    if not raw:
        return None
    if shard_count is None:
        raise SettingsError(
            f"SHARD_IDS={raw!r} needs SHARD_COUNT: set SHARD_COUNT in .env to the shards of "
            "the whole bot (e.g. SHARD_COUNT=4 with SHARD_IDS=0,1 here and SHARD_IDS=2,3 in "
            "the other process), or remove SHARD_IDS to run every shard in this process."
        )
    fix = (
        f"Set SHARD_IDS in .env to shard numbers from 0 to {shard_count - 1}, separated by "
        f"commas (e.g. SHARD_IDS=0,1), or remove the line to run all {shard_count} shards here."
    )
    ids: list[int] = []
    for part in raw.split(","):
        text = part.strip()
        if not text.isascii() or not text.isdigit():
            raise SettingsError(f"SHARD_IDS={raw!r}: {text!r} is not a shard number. {fix}")
        shard = int(text)
        if shard >= shard_count:
            raise SettingsError(
                f"SHARD_IDS={raw!r}: shard {shard} does not exist with "
                f"SHARD_COUNT={shard_count}. {fix}"
            )
        if shard in ids:
            raise SettingsError(f"SHARD_IDS={raw!r}: shard {shard} is listed twice. {fix}")
        ids.append(shard)
    return tuple(sorted(ids))


def _log_level(raw: str) -> int:
    name = (raw or DEFAULT_LOG_LEVEL).upper()
    if name not in _LOG_LEVELS:
        raise SettingsError(
            f"LOG_LEVEL={raw!r} is not a log level. Set LOG_LEVEL to one of "
            f"{', '.join(_LOG_LEVELS)} in .env (or remove the line for {DEFAULT_LOG_LEVEL})."
        )
    level: int = getattr(logging, name)
    return level


def database_url(environ: Mapping[str, str]) -> str | None:
    """``DATABASE_URL`` as the bot reads it; ``SettingsError`` beside ``DATABASE_PATH``."""
    return _database_url(
        environ.get("DATABASE_URL", "").strip(), environ.get("DATABASE_PATH", "").strip()
    )


def _database_url(raw: str, path: str) -> str | None:
    """``DATABASE_URL``: a PostgreSQL URL, never beside ``DATABASE_PATH`` (which to use?)."""
    if not raw:
        return None
    if path:
        raise SettingsError(
            "DATABASE_URL and DATABASE_PATH are both set: keep DATABASE_URL for PostgreSQL "
            "or DATABASE_PATH for an SQLite file, not both."
        )
    if not raw.startswith(("postgresql://", "postgres://")):
        raise SettingsError(
            "DATABASE_URL must be a PostgreSQL URL: "
            "DATABASE_URL=postgresql://USER:PASSWORD@HOST:PORT/DATABASE"
        )
    return raw


def _database_path(raw: str) -> Path:
    """The database file, its folder created; refused when the bot could not write there."""
    path = Path(raw or DEFAULT_DATABASE_PATH).expanduser()
    fix = (
        f"Set DATABASE_PATH in .env to a file in a folder the bot may write to "
        f"(default: DATABASE_PATH={DEFAULT_DATABASE_PATH})."
    )
    if raw and os.path.basename(raw) in ("", ".", ".."):
        # ``data/db/`` names a folder even when none is there yet: Path drops the slash, and
        # the bot would create a file called ``db`` (issue 24 point 15).
        raise SettingsError(
            f"DATABASE_PATH={raw!r} ends in a folder, not a file name. Add the file's name "
            f"in .env, for example DATABASE_PATH={raw.rstrip('/' + os.sep)}/bot.sqlite3."
        )
    if path.is_dir():
        raise SettingsError(f"DATABASE_PATH={str(path)!r} is a folder, not a file. {fix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SettingsError(
            f"DATABASE_PATH={str(path)!r}: cannot create the folder {str(path.parent)!r} "
            f"({error.strerror or error}). {fix}"
        ) from error
    if path.exists():
        if not os.access(path, os.R_OK | os.W_OK):
            raise SettingsError(f"DATABASE_PATH={str(path)!r} is not writable. {fix}")
    else:
        # os.access can say yes to root on a read-only mount: try for real.
        try:
            with tempfile.TemporaryFile(dir=path.parent):
                pass
        except OSError as error:
            raise SettingsError(
                f"DATABASE_PATH={str(path)!r}: cannot write in {str(path.parent)!r} "
                f"({error.strerror or error}). {fix}"
            ) from error
    # SQLite also writes -wal/-shm files beside the database.
    if not os.access(path.parent, os.W_OK):
        raise SettingsError(f"DATABASE_PATH={str(path)!r}: the folder is not writable. {fix}")
    return path
