"""Start-up failures as a process sees them: exit code 2 for a database that cannot be used
(the file byte-identical afterwards), 3 when Discord refuses the token, 4 when Discord cannot
be reached; each one line on stderr saying what to do, never a traceback."""

from __future__ import annotations

import asyncio
import hashlib
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest

from bot.storage import Storage
from bot.storage.sqlite.database import latest_version
from devkit.fake_discord import FakeDiscord
from devkit.harness import PROJECT_ROOT, SALUD_COMMAND, TRACEBACK, BotProcess


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def start_bot(env: dict[str, str], timeout: float = 30.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        SALUD_COMMAND,
        cwd=PROJECT_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def environment(fake: FakeDiscord, database: Path, tmp_path: Path) -> dict[str, str]:
    """The environment the e2e harness gives the bot (pointed at ``fake``'s address)."""
    return BotProcess(fake, database_path=database, log_path=tmp_path / "unused.log").env()


def nobody_listening() -> FakeDiscord:
    """A fake Discord that is never started: its address is a closed loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    return FakeDiscord(port=port)


def assert_one_line(result: subprocess.CompletedProcess[str], code: int, *words: str) -> str:
    output = result.stderr + result.stdout
    assert result.returncode == code, (result.returncode, output)
    assert not TRACEBACK.search(output), output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    problems = [line for line in lines if line.startswith("salud: ")]
    assert len(problems) == 1, lines
    assert lines == problems, f"more than the one line on stderr: {lines}"
    for word in words:
        assert word in problems[0], problems[0]
    return problems[0]


def salud_database(path: Path) -> None:
    """A Salud file of this version (created by the storage itself), folded into one file."""

    async def create() -> None:
        async with await Storage.open(path) as storage, storage.transaction() as tx:
            for number in range(100):
                await tx.set_meta(f"filler-{number}", "x" * 300)

    asyncio.run(create())


def not_sqlite(path: Path) -> None:
    path.write_text("this is a shopping list, not a database\n" * 50)


def truncated(path: Path) -> None:
    salud_database(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def foreign(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE guild_settings (id INTEGER PRIMARY KEY, prefix TEXT)")
        conn.execute("INSERT INTO guild_settings (prefix) VALUES ('!')")
    conn.close()


def newer(path: Path) -> None:
    salud_database(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = DELETE")  # what switching to WAL would change
        conn.execute(f"PRAGMA user_version = {latest_version() + 1}")
    conn.close()


def damaged(path: Path) -> None:
    salud_database(path)
    data = bytearray(path.read_bytes())
    data[2 * 4096 : 2 * 4096 + 64] = b"\x00\x13" * 32
    path.write_bytes(bytes(data))


BAD_FILES = {
    "not SQLite": (not_sqlite, "not an SQLite database"),
    "truncated": (truncated, "damaged"),
    "foreign schema": (foreign, "another program's tables"),
    "newer schema": (newer, "newer version of Salud"),
    "damaged page": (damaged, "damaged"),
}


@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_a_database_that_cannot_be_used_exits_2_and_is_left_as_it_was(
    tmp_path: Path, kind: str
) -> None:
    make, words = BAD_FILES[kind]
    path = tmp_path / "data" / "bot.sqlite3"
    path.parent.mkdir()
    make(path)
    before = digest(path)
    # Nothing listens on the Discord address: the bot must stop before it tries to log in.
    result = start_bot(environment(nobody_listening(), path, tmp_path))
    print(assert_one_line(result, 2, words, str(path)))
    assert digest(path) == before, f"{kind}: the refused file was modified"


async def test_a_refused_token_exits_3_with_one_line(tmp_path: Path) -> None:
    fake = FakeDiscord(app_name="Salud")
    fake.refuse_token = True
    await fake.start()
    try:
        env = environment(fake, tmp_path / "bot.sqlite3", tmp_path)
        result = await asyncio.to_thread(start_bot, env)
    finally:
        await fake.stop()
    print(assert_one_line(result, 3, "refused the token", "DISCORD_TOKEN"))


async def test_discord_unreachable_exits_4_with_one_line(tmp_path: Path) -> None:
    env = environment(nobody_listening(), tmp_path / "bot.sqlite3", tmp_path)
    result = await asyncio.to_thread(start_bot, env)
    print(assert_one_line(result, 4, "cannot be reached"))


#: What a terminal's bracketed paste wraps around pasted text, and other control characters
#: a token can pick up on its way into .env or a unit file.
PASTED_TOKENS = {
    "bracketed paste": "\x1b[200~fake-token\x1b[201~",
    "escape": "fake\x1btoken",
    "bell": "fake-token\x07",
    "delete": "fake\x7ftoken",
    "zero-width space": "fake\u200btoken",
}


@pytest.mark.parametrize("kind", list(PASTED_TOKENS))
async def test_a_token_with_control_characters_exits_2_with_one_line(
    tmp_path: Path, kind: str
) -> None:
    """Issue 19.9: it exited 1 with a traceback, and systemd (which stops only on 2 and 3)
    restarted it every 10 s forever. Discord is listening: the bot must not even try."""
    fake = FakeDiscord(app_name="Salud")
    await fake.start()
    try:
        env = environment(fake, tmp_path / "bot.sqlite3", tmp_path)
        env["DISCORD_TOKEN"] = PASTED_TOKENS[kind]
        result = await asyncio.to_thread(start_bot, env)
    finally:
        await fake.stop()
    line = assert_one_line(result, 2, "DISCORD_TOKEN", "control character", ".env")
    assert "fake" not in line, "a token, even a broken one, is never printed"
    assert fake.identifies == 0
