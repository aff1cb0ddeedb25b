"""Frozen key versions (``bot.storage.key_versions``): each version computes forever what it
computed when its migration shipped, the migrations call only them, and the keys the bot
computes today are the latest versions (a new key needs a new version and a migration)."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import unicodedata
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.storage import Storage, names
from bot.storage.key_versions import (
    LATEST,
    SQL_FUNCTIONS,
    look_key_v1,
    look_key_v2,
    name_key_v1,
    reading_key_en_v1,
    reading_key_es_v1,
    typed_look_key_v1,
)
from bot.storage.shared_sql import ABILITIES_JSON
from bot.storage.sqlite.database import apply_migrations, connect, latest_version, load_migrations
from bot.storage.sqlite.rows import LOOKALIKE_WHERE, SELECT_CHARACTER
from rules.names import name_key

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

#: Version 2 of the look key, version 1 of the typed look key and of the name key (0008).
KEYS_V2 = [
    ("Ana", "ana", "ana", "Ana"),
    ("ＡＮＡ", "ａｎａ", "ana", "ANA"),
    ("\u0410na", "\u0430na", "ana", "Ana"),
    ("Straße", "strasse", "strasse", "Stra\u00dfe"),
    ("O\u2019Malley", "o\u2019malley", "o'rnalley", "O'Malley"),
    ("Ana\u2013María", "ana\u2013maría", "ana-rnaria", "Ana-Mari\u0301a"),
    ("\u0412ob", "\u0432ob", "\u0299ob", "Bob"),
    ("Bob", "bob", "bob", "Bob"),
    ("\u039dora", "\u03bdora", "vora", "Nora"),
    ("Pia\u3164", "pia\u3164", "pia", "Pia"),
    ("Ian", "ian", "ian", "lan"),
    ("Agent 007", "agent 007", "agent OO7", "Agent OO7"),
    ("\u2764\ufe0f Rosa", "\u2764\ufe0f rosa", "\u2764 rosa", "\u2764 Rosa"),
    ("D\u00b4Artagnan", "d\u00b4artagnan", "d'artagnan", "D'Artagnan"),
    ("\u201cDoc\u201d", "\u201cdoc\u201d", "''doc''", "''Doc''"),
]

#: Issue 19.7 and 20.11's lookalikes, and names that are the same name.
PAIRS = [
    ("\u0412ob", "Bob"),
    ("\u041dans", "Hans"),
    ("\u0422om", "Tom"),
    ("\u041aim", "Kim"),
    ("\u041cax", "Max"),
    ("\u039dora", "Nora"),
    ("\u03a7ena", "Xena"),
    ("\u0396oe", "Zoe"),
    ("\u0410na", "Ana"),
    ("\u0410na", "ana"),
    ("ANA", "ana"),
    ("Patrick O\u2019Malley", "Patrick O'Malley"),
    ("Ana\u2013María", "Ana-Maria"),
]


@pytest.mark.parametrize(("data_file", "digest"), sorted(DATA_FILES.items()))
def test_the_data_a_version_reads_never_changes(data_file: str, digest: str) -> None:
    data = resources.files("bot.storage").joinpath("unicode", data_file).read_bytes()
    assert hashlib.sha256(data).hexdigest() == digest


@pytest.mark.parametrize(("name", "key"), LOOK_KEY_V1)
def test_look_key_v1_is_what_migration_0003_computed(name: str, key: str) -> None:
    assert look_key_v1(name) == key


@pytest.mark.parametrize(("name", "exact", "folded", "typed"), KEYS_V2)
def test_the_keys_of_migration_0008_never_change(
    name: str, exact: str, folded: str, typed: str
) -> None:
    assert (name_key_v1(name), look_key_v2(name), typed_look_key_v1(name)) == (
        exact,
        folded,
        unicodedata.normalize("NFD", typed),
    )


#: Version 1 of the reading keys (0009): (name, Spanish key, English key).
READING_V1 = [
    ("Cónsul Britton", "consul britton", "consul britton"),
    ("Criada  Úrsula", "criada ursula", "criada ursula"),
    ("Ñaque", "n\x7faque", "naque"),
    ("NUÑO", "nun\x7fo", "nuno"),
    ("Ａｎａ Ríos", "ana rios", "ana rios"),
]


@pytest.mark.parametrize(("name", "spanish", "english"), READING_V1)
def test_the_reading_keys_of_migration_0009_never_change(
    name: str, spanish: str, english: str
) -> None:
    assert (reading_key_es_v1(name), reading_key_en_v1(name)) == (spanish, english)


CORPUS = sorted(
    {name for name, *_ in (*LOOK_KEY_V1, *KEYS_V2)} | {name for pair in PAIRS for name in pair}
)


@pytest.mark.parametrize("name", CORPUS)
def test_the_keys_computed_today_are_the_latest_versions(name: str) -> None:
    """A change to the key code (rules/names.py's folding, bot/storage/names.py) fails
    here: add a version to key_versions.py and a migration that recomputes the keys."""
    assert name_key(name) == LATEST["name_key"](name)
    assert names.look_key(name) == LATEST["look_key"](name)
    assert names.typed_look_key(name) == LATEST["typed_look_key"](name)
    assert names.reading_key_es(name) == LATEST["reading_key_es"](name)
    assert names.reading_key_en(name) == LATEST["reading_key_en"](name)


@given(st.text(max_size=40))
def test_the_keys_computed_today_are_the_latest_versions_for_any_text(text: str) -> None:
    assert name_key(text) == LATEST["name_key"](text)
    assert names.look_key(text) == LATEST["look_key"](text)
    assert names.typed_look_key(text) == LATEST["typed_look_key"](text)
    assert names.reading_key_es(text) == LATEST["reading_key_es"](text)
    assert names.reading_key_en(text) == LATEST["reading_key_en"](text)


@pytest.mark.parametrize(("typed", "other"), PAIRS)
def test_every_listed_pair_shares_a_key(typed: str, other: str) -> None:
    assert names.look_key(typed) == names.look_key(other) or names.typed_look_key(
        typed
    ) == names.typed_look_key(other), (typed, other)


def test_names_that_only_a_chain_of_rules_would_join_do_not_collide() -> None:
    """``Ian`` looks like ``lan`` (capital i, small L), which is the same name as ``Lan``:
    but ``Ian`` and ``Lan`` look nothing alike."""
    assert names.typed_look_key("Ian") == names.typed_look_key("lan")
    assert names.look_key("Ian") != names.look_key("Lan")
    assert names.typed_look_key("Ian") != names.typed_look_key("Lan")


def test_the_migrations_call_only_frozen_versioned_functions() -> None:
    called = set()
    for migration in load_migrations():
        called |= set(re.findall(r"\b(salud_\w+)\s*\(", migration.sql))
    assert called == {
        "salud_look_key_v1",
        "salud_look_key_v2",
        "salud_typed_look_key_v1",
        "salud_reading_key_es_v1",
        "salud_reading_key_en_v1",
    }
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
    monkeypatch.setattr(names, "typed_look_key", lambda name: "changed")
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
            (GUILD_A, "Patrick O\u2019Malley", "patrick o\u2019malley", ALICE),
        )
        assert await apply_migrations(conn) == latest_version()
    finally:
        await conn.close()
    with sqlite3.connect(db_path) as raw:
        row = raw.execute("SELECT name, look_key, typed_look_key FROM characters").fetchone()
    raw.close()
    name = "Patrick O\u2019Malley"
    assert row == (name, look_key_v2(name), typed_look_key_v1(name))
    assert row[1] == "patrick o'rnalley"


async def test_finding_a_lookalike_is_one_query_on_the_two_keys_indexes(
    storage: Storage,
) -> None:
    async with storage.read() as reader:
        plan = await reader.fetch_all(
            f"EXPLAIN QUERY PLAN {SELECT_CHARACTER}, {ABILITIES_JSON} FROM characters AS c"
            f" WHERE {LOOKALIKE_WHERE} ORDER BY c.id LIMIT 1",
            (GUILD_A, "x", GUILD_A, "x", -1),
        )
    details = [str(row["detail"]) for row in plan]
    assert "MULTI-INDEX OR" in details, details
    assert any("USING INDEX characters_look (guild_id=? AND look_key=?)" in d for d in details)
    assert any(
        "USING INDEX characters_typed_look (guild_id=? AND typed_look_key=?)" in d for d in details
    )
    assert not any(d.startswith("SCAN c") for d in details), details


@pytest.fixture
def engine() -> str:
    """SQLite's own behaviour (its file, connection or trips): SQLite only."""
    return "sqlite"
