"""The real PostgreSQL server the tests of the PostgreSQL engine run against (issue 26,
``devkit/postgres.py``): started from the project's own files in a temporary folder, on
127.0.0.1 and a free port, as an unprivileged user when the tests run as root (CI), able to
restart under a client, and gone without a trace once stopped."""

from __future__ import annotations

import os
import socket

import psycopg

from devkit.postgres import PostgresServer, postgres_bin, running_postgres


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) == 0


async def _answer(server: PostgresServer, sql: str) -> object:
    async with await psycopg.AsyncConnection.connect(
        server.url, connect_timeout=10, autocommit=True
    ) as conn:
        cursor = await conn.execute(sql)
        row = await cursor.fetchone() if cursor.description else None
        return None if row is None else row[0]


def test_the_servers_programs_are_found() -> None:
    assert (postgres_bin() / "postgres").exists()


async def test_a_server_starts_answers_restarts_and_leaves_nothing_behind() -> None:
    with running_postgres() as server:
        assert await _answer(server, "SELECT current_database()") == "salud"
        assert await _answer(server, "SHOW listen_addresses") == "127.0.0.1"
        postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
        assert os.stat(f"/proc/{postmaster}").st_uid != 0, "PostgreSQL must not run as root"
        await _answer(server, "CREATE TABLE kept (x INTEGER)")
        server.restart()
        assert await _answer(server, "SELECT count(*) FROM kept") == 0  # same data, new server
        folder, port = server.folder, server.port
    assert not folder.exists()
    assert not _listening(port)
