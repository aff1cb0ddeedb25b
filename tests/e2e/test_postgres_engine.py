"""Every command on both engines: the same session of a table played against the real bot on
an SQLite file and against the real bot on a real PostgreSQL server (``DATABASE_URL``,
``devkit/postgres.py``) gets the same replies, word for word, and the same history.

One session covers every command of the contract (and a button), the /table commands and
/character move among them, and a private NPC (the Keeper's screen: the table's words, the
numbers its GM gets privately, the ``Numbers`` button's answer), so that the PostgreSQL
engine's dialect is exercised by each statement the commands send and both engines are seen
to say the same words of a private character; the two bots run one after the other on fakes
of their own."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from devkit.fake_discord import FakeDiscord, Reply, message_text
from devkit.harness import BotProcess
from devkit.postgres import PostgresServer, running_postgres
from tests.e2e.kit.commands import gm_of
from tests.e2e.kit.processes import fake_with_bot
from tests.e2e.kit.screen import private_characters

#: The history entries the session leaves: 24 changes, the undo, the deletion and the move
#: at the main table (numbered up to 27), then a /hurt at the other table (its #1).
STORED_CHANGES = 28
MAIN_TABLE_NUMBERS = 27


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


_MENTION = re.compile(r"<(#|@&|@!?|t:)\d+")


def said(reply: Reply) -> dict[str, Any]:
    """What a player sees of a reply (mentions without their ids, each fake has its own; times
    without their seconds)."""
    seen = {
        "ephemeral": reply.ephemeral,
        "content": reply.content,
        "embeds": [
            {key: embed.get(key) for key in ("title", "description", "fields", "footer")}
            for embed in reply.embeds
        ],
        "buttons": [button.get("label") for button in reply.buttons],
    }
    return dict(json.loads(_MENTION.sub(r"<\1id>", json.dumps(seen))))


async def session(fake: FakeDiscord, bot: BotProcess) -> list[dict[str, Any]]:
    """A table's evening through every command; what each reply said."""
    guild = await fake.create_guild(locale="en-US")
    gm = gm_of(guild)
    seen: list[dict[str, Any]] = []

    async def run(
        command: str, options: dict[str, Any] | None = None, channel: Any = None
    ) -> Reply:
        reply = await fake.slash(guild, gm, command, options or {}, channel=channel)
        seen.append({"command": command, **said(reply)})
        return reply

    async def press(reply: Reply, label: str) -> Reply:
        pressed = await fake.click(guild, gm, reply, reply.button(label)["custom_id"])
        seen.append({"pressed": label, **said(pressed)})
        return pressed

    async def run_private(command: str, options: dict[str, Any]) -> Reply:
        """A command about the private NPC: its public reply, and the GM's numbers."""
        reply = await run(command, options)
        await reply.wait_followups(1)
        seen.append({"followups": [message_text(m) for m in reply.followups]})
        return reply

    await run("config channel", {"channel": guild.announcements})
    await run("config gm-role")
    await run("character create", {"name": "Ana", "health": 8, "first_aid": 3, "stability": 6})
    await run("character create", {"name": "Bea", "health": 6, "first_aid": 2, "stability": 5})
    await run("character create", {"name": "Zoe", "health": 4})
    # The Keeper's screen: a private NPC, hurt to a Consciousness roll (every spend offered).
    await run_private(
        "character create", {"name": "Nyx", "health": 5, "gender": "feminine", "numbers": "private"}
    )
    screened = await run_private("hurt", {"character": "Nyx", "amount": "7"})
    await press(screened, "Numbers")
    await run("character show", {"character": "Ana"})
    await run("character list")
    await run("character set", {"character": "Bea", "max_health": 7})
    await run("character rename", {"character": "Zoe", "name": "Zoé"})
    await run("ability set", {"character": "Ana", "ability": "Athletics", "rating": 4})
    await run("ability set", {"character": "Ana", "ability": "Occult", "rating": 2})
    await run("ability remove", {"character": "Ana", "ability": "occult"})
    await run("spend", {"character": "Ana", "ability": "athletics", "points": 1})
    await bot.script_dice(5)
    await run("check", {"character": "Ana", "ability": "athletics", "difficulty": 4})
    await run("hurt", {"character": "Ana", "amount": "3", "character2": "Bea"})
    await run("hurt", {"character": "Bea", "amount": "8"})
    await bot.script_dice(6)
    await run("conscious", {"character": "Bea"})
    await run("firstaid", {"medic": "Ana", "patient": "Bea", "points": 1})
    await run("stability test", {"loss": 3, "character": "Ana"})
    await bot.script_dice(1)
    await run("stability roll", {"character": "Ana"})
    knocked = await run("hurt", {"character": "Zoe", "amount": "6"})
    await bot.script_dice(2)
    await press(knocked, "Roll Consciousness")
    await run("ability set", {"character": "Bea", "ability": "Psychoanalysis", "rating": 2})
    await run("stability treat", {"medic": "Bea", "patient": "Ana", "points": 1})
    await run("scene status")
    await run("scene tracker")
    await run("time", {"minutes": 30})
    await run("rest", {"character": "Ana", "days": 2})
    await run("scene new")
    await run("refresh", {"character": "Ana"})
    await run("history")
    await run("history", {"character": "Ana"})
    await press(await run("undo"), "Undo it")
    await press(await run("character delete", {"character": "Zoé"}), "Delete")
    # Tables: one in a category, a thread of it bound, a character moved there and back.
    monday = guild.category("Monday")
    chat = guild.channel_in(monday, "monday-game")
    clues = guild.thread(chat, "clues")
    await run("table create", {"name": "Miskatonic", "place": monday})
    await run("table bind", {"table": "Miskatonic", "place": clues})
    await run("table rename", {"table": "Miskatonic", "name": "Arkham"})
    await run("table gm-role", {"table": "Arkham", "role": guild.role("Keepers")})
    await run("table channel", {"table": "Arkham", "channel": chat})
    await run("character move", {"character": "Bea", "table": "Arkham"})
    await run("character list", channel=clues)
    await run("hurt", {"character": "Bea", "amount": "1"}, channel=chat)
    await run("history", channel=chat)
    await run("table unbind", {"place": clues})
    await run("table create", {"name": "Spare", "place": guild.category("Spare")})
    await run("table delete", {"table": "Spare"})
    await run("table list")
    await run("config language", {"language": "es"})
    await run("table list")
    await run("character list")
    await run("help", {"command": "hurt"})
    await run("character show", {"character": "Bea"}, channel=chat)
    return seen


async def test_every_command_answers_the_same_on_sqlite_and_on_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    async with fake_with_bot(tmp_path / "sqlite") as (fake, bot):
        on_sqlite = await session(fake, bot)
    url_env = {"DATABASE_PATH": "", "DATABASE_URL": postgres_server.url}
    async with fake_with_bot(tmp_path / "postgres", env=url_env) as (fake, bot):
        on_postgres = await session(fake, bot)
        # The screen's scan reads this bot's private characters from its server.
        private = await asyncio.to_thread(private_characters, postgres_server.url, [fake])
        assert [character.name for character in private] == ["Nyx"], private
    assert len(on_postgres) == len(on_sqlite)
    for sqlite_said, postgres_said in zip(on_sqlite, on_postgres, strict=True):
        assert postgres_said == sqlite_said
    created = [reply for reply in on_postgres if reply.get("command") == "character create"]
    assert created and not any(reply["ephemeral"] for reply in created), created
    # It was PostgreSQL that kept them: no SQLite file, the history in the server's database.
    assert not (tmp_path / "postgres" / "bot.sqlite3").exists()
    async with await psycopg.AsyncConnection.connect(postgres_server.url) as conn:
        cursor = await conn.execute("SELECT count(*), max(number) FROM history")
        assert await cursor.fetchone() == (STORED_CHANGES, MAIN_TABLE_NUMBERS)


async def test_a_database_server_gone_is_one_ephemeral_sentence_and_the_bot_goes_on(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url_env = {"DATABASE_PATH": "", "DATABASE_URL": postgres_server.url}
    async with fake_with_bot(tmp_path, env=url_env) as (fake, _):
        english = await fake.create_guild(locale="en-US")
        spanish = await fake.create_guild(locale="es-ES")
        for guild in (english, spanish):
            gm = gm_of(guild, locale="es-ES" if guild is spanish else "en-US")
            await fake.slash(guild, gm, "character create", {"name": "Ana", "health": 8})
        await asyncio.to_thread(postgres_server.stop, "immediate")
        try:
            refused = {
                guild.locale: await fake.slash(
                    guild,
                    gm_of(guild, locale="es-ES" if guild is spanish else "en-US"),
                    "hurt",
                    {"character": "Ana", "amount": "3"},
                )
                for guild in (english, spanish)
            }
        finally:
            await asyncio.to_thread(postgres_server.start)
        assert refused["en-US"].ephemeral and refused["es-ES"].ephemeral
        assert refused["en-US"].content == (
            "Salud cannot reach the database right now, so this change was not stored: "
            "nothing changed. Try again in a minute."
        )
        assert refused["es-ES"].content == (
            "Salud no puede conectar con la base de datos ahora mismo, así que este cambio no "
            "se ha guardado: no ha cambiado nada. Vuelve a intentarlo dentro de un minuto."
        )
        # The same process, reconnected: the next /hurt is stored and answered.
        again = await fake.slash(
            english, gm_of(english), "hurt", {"character": "Ana", "amount": "3"}
        )
        assert not again.ephemeral and "8 → 5 / 8" in json.dumps(said(again), ensure_ascii=False)
