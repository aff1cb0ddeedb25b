"""A slow PostgreSQL server (issue 26 point 3; COMMANDS.md, *Busy servers*): a command that
would answer after Discord's 3 s is acknowledged first ("Salud is thinking…") and then
answered, as on a slow disk (``test_slow_disk.py``); nothing is stored without its reply; a
server that goes away during a deferred change stores nothing and the player reads why.

The slowness is real, on loopback: another connection holding the server's row (``SELECT …
FOR UPDATE``, as another process's change would) for 4 s, or every packet between the bot
and PostgreSQL held 1.2 s each way by ``devkit/slow_proxy.py``. Before: only the ``COMMIT``
and the wait for this process's lock acknowledged a late interaction; a change whose first
trip waited 4 s for the row was stored, then refused by Discord (10062): no reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import psycopg

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.postgres import PostgresServer
from devkit.slow_proxy import SlowProxy
from tests.e2e.kit.commands import create, gm_of
from tests.reliability.support import (
    is_refusal,
    isolated_bot,
    new_postgres_database,
    on_postgres,
    said,
)


@asynccontextmanager
async def through_a_slow_link(
    tmp: Path, server: PostgresServer, name: str
) -> AsyncIterator[tuple[SlowProxy, FakeDiscord, str]]:
    """A bot on a new database of ``server`` reached through a ``SlowProxy`` (no delay yet):
    the proxy, the bot's fake Discord and the database's URL."""
    url = await new_postgres_database(server)
    async with (
        SlowProxy(server.port) as proxy,
        isolated_bot(tmp, name=name, env=on_postgres(proxy.url(url))) as (fake, _),
    ):
        yield proxy, fake, url


async def ana_of_10(fake: FakeDiscord, locale: str) -> tuple[FakeGuild, FakeMember]:
    """A new server in ``locale`` whose GM created Ana, of 10 Health; the server and GM."""
    guild = await fake.create_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    await create(fake, guild, gm, "Ana", 10)
    return guild, gm


async def stored_interactions(url: str) -> set[int]:
    async with await psycopg.AsyncConnection.connect(url) as conn:
        cursor = await conn.execute("SELECT interaction_id FROM history")
        return {int(row[0]) for row in await cursor.fetchall()}


def answered_late(reply: Reply, *shown: str) -> None:
    """Deferred, then the placeholder edited into the public reply, accepted by Discord."""
    assert reply.record.errors == [], reply.record.summary()
    assert reply.deferred, f"answered without a deferral: {reply.record.summary()}"
    assert not reply.ephemeral and reply.embeds, reply.record.summary()
    for text in shown:
        assert text in reply.text, (text, reply.text)


async def test_a_change_waiting_4_s_for_its_servers_row_is_deferred_then_answered(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await new_postgres_database(postgres_server)
    async with isolated_bot(tmp_path, name="row-held", env=on_postgres(url)) as (fake, _):
        guild, gm = await ana_of_10(fake, "en-US")
        holder = await psycopg.AsyncConnection.connect(url)
        async with holder, holder.transaction():  # another process's change, 4 s long
            await holder.execute(
                "SELECT guild_id FROM servers WHERE guild_id = %s FOR UPDATE", (int(guild.id),)
            )
            hurt = await fake.slash(
                guild, gm, "hurt", {"character": "Ana", "amount": "2"}, wait="none"
            )
            await asyncio.sleep(4.0)
            assert hurt.deferred and not hurt.is_complete(), hurt.record.summary()
        await hurt.wait_complete(15.0)
        answered_late(hurt, "10 → 8 / 10")
        assert int(hurt.record.id) in await stored_interactions(url)


async def test_every_packet_held_1_2_s_defers_a_read_and_a_change_then_answers_them(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    async with through_a_slow_link(tmp_path, postgres_server, "slow-link") as (proxy, fake, url):
        guild, gm = await ana_of_10(fake, "en-US")
        proxy.delay = 1.2  # a trip to the server: 2.4 s
        show = await fake.slash(guild, gm, "character show", {"character": "Ana"}, timeout=15)
        hurt = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "3"}, timeout=15)
        proxy.delay = 0.0
        answered_late(show, "10 / 10")
        answered_late(hurt, "10 → 7 / 10")
        assert int(hurt.record.id) in await stored_interactions(url)


async def test_a_server_gone_during_a_deferred_change_stores_nothing_and_says_so(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    async with through_a_slow_link(tmp_path, postgres_server, "gone") as (proxy, fake, url):
        guild, gm = await ana_of_10(fake, "es-ES")
        proxy.delay = 1.5  # the change's first trip is still under way at the deferral
        hurt = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "3"}, wait="none")
        await fake.wait_until(lambda: hurt.deferred, 10.0, what="the deferral")
        proxy.refusing = True  # the server goes away: every connection closed
        proxy.cut()
        await hurt.wait_complete(15.0)
        assert hurt.record.errors == [], hurt.record.summary()
        assert is_refusal(hurt), hurt.record.summary()
        assert said(hurt) == (
            "Salud no puede conectar con la base de datos ahora mismo, así que este cambio"
            " no se ha guardado: no ha cambiado nada. Vuelve a intentarlo dentro de un"
            " minuto."
        ), said(hurt)
        assert int(hurt.record.id) not in await stored_interactions(url)
        # Back: the bot reconnects by itself, and the next change is stored and answered.
        proxy.refusing, proxy.delay = False, 0.0
        again = await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "1"})
        assert not again.ephemeral and "10 → 9 / 10" in again.text, again.record.summary()
