"""What the bot asks of Discord's gateway: GUILDS only, no caches it does not read, shards from
SHARD_COUNT / SHARD_IDS (validated like every other setting: exit 2 and one line saying what
to put in .env)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import pytest_asyncio

from bot.app import SaludBot, gateway_intents
from bot.config.settings import MAX_SHARD_COUNT, Settings, SettingsError, load_settings
from bot.storage import Storage
from rules.dice import SystemRoller

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def environ(tmp_path: Path) -> dict[str, str]:
    return {"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path / "db.sqlite3")}


@pytest_asyncio.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    async with await Storage.open(tmp_path / "bot.sqlite3") as opened:
        yield opened


def make_bot(storage: Storage, settings: Settings) -> SaludBot:
    return SaludBot(storage=storage, settings=settings, roller=SystemRoller())


# --- intents and caches ---------------------------------------------------------------------
def test_intents_are_guilds_only() -> None:
    intents = gateway_intents()
    assert intents.value == 1 << 0  # GUILDS; no messages, typing, reactions, voice, members…
    assert intents.guilds
    assert not (intents.members or intents.presences or intents.message_content)


async def test_bot_caches_no_messages_no_members_and_chunks_nothing(
    storage: Storage, environ: dict[str, str]
) -> None:
    bot = make_bot(storage, load_settings(environ))  # never started: nothing to close
    assert bot.intents.value == gateway_intents().value
    state = bot._connection
    assert state.max_messages is None
    assert state._messages is None
    assert state._chunk_guilds is False
    assert state.member_cache_flags.value == discord.MemberCacheFlags.none().value
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count is None and bot.shard_ids is None  # Discord's recommendation


async def test_shard_settings_reach_the_client(storage: Storage, environ: dict[str, str]) -> None:
    bot = make_bot(storage, load_settings({**environ, "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"}))
    assert bot.shard_count == 4
    assert bot.shard_ids == [1, 3]


# --- the settings -------------------------------------------------------------------------
def test_shard_settings_default_to_discords_recommendation(environ: dict[str, str]) -> None:
    settings = load_settings(environ)
    assert (settings.shard_count, settings.shard_ids) == (None, None)


def test_shard_count_alone_runs_every_shard_here(environ: dict[str, str]) -> None:
    settings = load_settings({**environ, "SHARD_COUNT": " 3 ", "SHARD_IDS": ""})
    assert (settings.shard_count, settings.shard_ids) == (3, None)


def test_shard_ids_are_sorted(environ: dict[str, str]) -> None:
    settings = load_settings({**environ, "SHARD_COUNT": "8", "SHARD_IDS": "7,0,3"})
    assert settings.shard_ids == (0, 3, 7)


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        ("0", "", "SHARD_COUNT='0' is out of range"),
        (str(MAX_SHARD_COUNT + 1), "", "is out of range"),
        ("two", "", "SHARD_COUNT='two' is not a whole number"),
        ("-1", "", "is not a whole number"),
        ("1.5", "", "is not a whole number"),
        ("٣", "", "is not a whole number"),  # an Arabic-Indic digit: isdigit() alone says yes
        ("", "0", "SHARD_IDS='0' needs SHARD_COUNT"),
        ("2", "2", "shard 2 does not exist with SHARD_COUNT=2"),
        ("2", "0,,1", "'' is not a shard number"),
        ("2", "0;1", "'0;1' is not a shard number"),
        ("2", "1,1", "shard 1 is listed twice"),
        ("4", "-1", "'-1' is not a shard number"),
    ],
)
def test_bad_shard_settings_say_what_to_write(
    environ: dict[str, str], count: str, ids: str, message: str
) -> None:
    with pytest.raises(SettingsError, match="SHARD_") as raised:
        load_settings({**environ, "SHARD_COUNT": count, "SHARD_IDS": ids})
    text = str(raised.value)
    assert message in text
    assert "in .env" in text and "\n" not in text


def test_a_bad_shard_setting_exits_2_with_one_line(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "abc",
        "DATABASE_PATH": str(tmp_path / "db.sqlite3"),
        "SHARD_COUNT": "2",
        "SHARD_IDS": "5",
    }
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("salud: SHARD_IDS='5': shard 5 does not exist")
    assert "Traceback" not in result.stderr


# --- what is kept of each server (bot.gateway.lean_state) -----------------------------------------
def guild_payload(guild_id: int) -> dict[str, object]:
    """A GUILD_CREATE as Discord sends it to a bot with the GUILDS intent (trimmed)."""
    return {
        "id": str(guild_id),
        "name": "A server",
        "owner_id": "1",
        "unavailable": False,
        "preferred_locale": "es-ES",
        "roles": [
            {"id": str(guild_id), "name": "@everyone", "permissions": "1024", "position": 0},
            {"id": "77", "name": "GM", "permissions": "32", "position": 1},
        ],
        "channels": [
            {"id": str(guild_id + n), "type": 0, "name": f"c{n}", "position": n}
            for n in range(1, 21)
        ],
        "threads": [],
        "emojis": [{"id": "5", "name": "dado", "roles": [], "require_colons": True}],
        "stickers": [],
        "members": [],
        "member_count": 2,
    }


async def test_servers_online_at_start_keep_no_channels_or_emojis(
    storage: Storage, environ: dict[str, str]
) -> None:
    from bot.gateway.lean_state import LeanConnectionState

    bot = make_bot(storage, load_settings(environ))
    state = bot._connection
    assert isinstance(state, LeanConnectionState)
    # In READY's list (unavailable), then its GUILD_CREATE: channels and emojis not kept.
    state._add_guild_from_data({"id": "1000", "unavailable": True})  # type: ignore[typeddict-item]
    state.parse_guild_create(guild_payload(1000))
    at_start = bot.get_guild(1000)
    assert at_start is not None and not at_start.unavailable
    assert list(at_start.channels) == [] and list(at_start.emojis) == []
    assert [role.name for role in at_start.roles] == ["@everyone", "GM"]
    assert at_start.preferred_locale is discord.Locale.spain_spanish
    # Joined while running: its channels are kept (for whatever greets a new server).
    state.parse_guild_create(guild_payload(5000))
    joined = bot.get_guild(5000)
    assert joined is not None and len(joined.channels) == 20 and list(joined.emojis) == []


class HeardPlaces:
    """Stands in the state's ``places``: what it was told, in order."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str]] = []

    def channel(self, data: dict[str, object]) -> None:
        self.heard.append(("channel", str(data["id"])))

    def deleted(self, data: dict[str, object]) -> None:
        self.heard.append(("deleted", str(data["id"])))


async def test_every_channel_and_thread_event_is_told_to_places_then_applied(
    storage: Storage, environ: dict[str, str]
) -> None:
    bot = make_bot(storage, load_settings(environ))
    state = bot._connection
    state.parse_guild_create(guild_payload(5000))  # type: ignore[arg-type]
    heard = HeardPlaces()
    state.places = heard  # type: ignore[assignment,attr-defined]
    guild = bot.get_guild(5000)
    assert guild is not None
    channel = {"id": "5100", "guild_id": "5000", "type": 0, "name": "new", "position": 30}
    moved = {**channel, "name": "moved"}
    thread = {
        "id": "5200",
        "guild_id": "5000",
        "parent_id": "5001",
        "owner_id": "1",
        "type": 11,
        "name": "clues",
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": "2024-01-01T00:00:00+00:00",
            "locked": False,
        },
    }
    renamed = {**thread, "name": "more clues"}
    state.parsers["CHANNEL_CREATE"](channel)
    assert guild.get_channel(5100) is not None  # discord.py applied it after places heard it
    state.parsers["CHANNEL_UPDATE"](moved)
    assert getattr(guild.get_channel(5100), "name", None) == "moved"
    state.parsers["THREAD_CREATE"](thread)
    assert guild.get_thread(5200) is not None
    state.parsers["THREAD_UPDATE"](renamed)
    assert getattr(guild.get_thread(5200), "name", None) == "more clues"
    state.parsers["THREAD_DELETE"]({**thread, "parent_id": "5001"})
    assert guild.get_thread(5200) is None
    state.parsers["CHANNEL_DELETE"](moved)
    assert guild.get_channel(5100) is None
    assert heard.heard == [
        ("channel", "5100"),
        ("channel", "5100"),
        ("channel", "5200"),
        ("channel", "5200"),
        ("deleted", "5200"),
        ("deleted", "5100"),
    ]


# --- discord.py's internals, touched in bot/gateway only ---------------------------------------
#: ``ConnectionState.parse_interaction_create`` as read when ``Intake._dispatch`` was written
#: (discord.py 2.7): the first 16 hex digits of the SHA-256 of its source.
PARSER_READ = "acb40a14fd0182c9"


def test_the_interaction_parser_salud_copies_is_the_one_it_was_read_from() -> None:
    """``bot.gateway.intake`` builds interactions as discord.py's parser does, with Salud's
    context: when discord.py changes that parser, this fails (read it again, then update
    ``Intake._dispatch`` and the hash); pyproject.toml bounds the versions."""
    import hashlib
    import inspect

    from discord.state import ConnectionState

    source = inspect.getsource(ConnectionState.parse_interaction_create)
    assert hashlib.sha256(source.encode()).hexdigest()[:16] == PARSER_READ
    major, minor = (int(part) for part in discord.__version__.split(".")[:2])
    assert (major, minor) == (2, 7)
