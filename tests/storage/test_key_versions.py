"""Frozen key versions (``bot.storage.key_versions``): each version computes forever what it
computed when its migration shipped, the migrations call only them, and the keys the bot
computes today are the latest versions (a new key needs a new version and a migration)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import names
from bot.storage.database import apply_migrations, connect, latest_version, load_migrations
from bot.storage.key_versions import LATEST, SQL_FUNCTIONS, look_key_v1

from .conftest import ALICE, GUILD_A

#: The data files the versions read, by digest: never edited in place (a new version of the
#: data is a new file, read by a new key version).
DATA_FILES = {
    "confusables-13.0.0.txt": "96f2500ec78fd96f11561d4b40237435dfece70303b1db3c0974138a333aa206",
}

#: ``look_key_v1`` as the code of migration 0003 computed it (bot/storage/names.py and
#: rules/names.py at commit 2287070, run on these names).
LOOK_KEY_V1 = [
    ("Ana", "ana"),
    ("ＡＮＡ", "ana"),
    ("\u0410na", "ana"),
    ("Ana  Bel", "ana bel"),
    ("AMELIA RÍOS", "arnelia rios"),
    ("Straße", "strasse"),
    ("O\u2019Malley", "o'rnalley"),
    ("Ana\u2013María", "ana-rnaria"),
    ("\u0412ob", "\u0299ob"),
    ("Pia\u3164", "pia\u1160"),
    ("Lea\u115f", "lea\u115f"),
    ("Ian", "ian"),
    ("Agent 007", "agent OO7"),
    ("Nguyễn", "nguyen"),
    ("\u2764\ufe0f Rosa", "\u2764 rosa"),
    ("D\u00b4Artagnan", "d artagnan"),
]


@pytest.mark.parametrize(("data_file", "digest"), sorted(DATA_FILES.items()))
def test_the_data_a_version_reads_never_changes(data_file: str, digest: str) -> None:
    data = resources.files("bot.storage").joinpath("unicode", data_file).read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest


@pytest.mark.parametrize(("name", "key"), LOOK_KEY_V1)
def test_look_key_v1_is_what_migration_0003_computed(name: str, key: str) -> None:
    assert look_key_v1(name) == key


CORPUS = sorted({name for name, _ in LOOK_KEY_V1} | {"Bob", "Amelia Ríos", "Ana Bel"})


@pytest.mark.parametrize("name", CORPUS)
def test_the_keys_computed_today_are_the_latest_versions(name: str) -> None:
    """A change to the key code (rules/names.py's folding, bot/storage/names.py) fails
    here: add a version to key_versions.py and a migration that recomputes the keys."""
    assert names.name_key(name) == LATEST["name_key"](name)
    assert names.look_key(name) == LATEST["look_key"](name)


@given(st.text(max_size=40))
def test_the_keys_computed_today_are_the_latest_versions_for_any_text(text: str) -> None:
    assert names.name_key(text) == LATEST["name_key"](text)
    assert names.look_key(text) == LATEST["look_key"](text)


def test_the_migrations_call_only_frozen_versioned_functions() -> None:
    called = set()
    for migration in load_migrations():
        called |= set(re.findall(r"\b(salud_\w+)\s*\(", migration.sql))
    assert called == {"salud_look_key_v1"}
    assert called <= SQL_FUNCTIONS.keys()
    for sql_name, function in SQL_FUNCTIONS.items():
        assert sql_name == f"salud_{function.__name__}" and re.search(r"_v\d+$", sql_name)


async def test_a_migration_computes_the_same_keys_whatever_todays_key_code_says(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Migration 0003 called a function built on today's key code: what it stored depended on
    the code of the day it ran. Today's key code changed beyond recognition changes nothing
    of what the migrations store."""
    monkeypatch.setattr(names, "look_key", lambda name: "changed")
    monkeypatch.setattr(names, "skeleton", lambda text: "changed")
    db_path.parent.mkdir(parents=True)
    conn = await connect(db_path)
    try:
        assert await apply_migrations(conn, load_migrations()[:2]) == 2
        await conn.execute(
            "INSERT INTO characters (guild_id, name, name_key, owner_id, created_at, health,"
            " max_health, first_aid_pool, first_aid_rating, scene_start_health, conscious,"
            " roll_pending, stabilized, lowest_health, first_aid_received, bleed_minutes,"
            " full_recovery_due) VALUES (?, ?, ?, ?, '2024-01-01T00:00:00+00:00', 9, 9, 0, 0,"
            " 9, 1, 0, 0, NULL, 0, 0, 0)",
            (GUILD_A, "Amelia Ríos", "amelia ríos", ALICE),
        )
        assert await apply_migrations(conn) == latest_version()
    finally:
        await conn.close()
    with sqlite3.connect(db_path) as raw:
        row = raw.execute("SELECT name, look_key FROM characters").fetchone()
    raw.close()
    assert row == ("Amelia Ríos", "arnelia rios")
