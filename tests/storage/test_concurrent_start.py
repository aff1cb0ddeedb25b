"""Several processes opening one fresh file at the same moment (a restart overlapping the old
process, two shards): every one comes up, the schema is created once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage.sqlite.database import latest_version

PROJECT_ROOT = Path(__file__).resolve().parents[2]

#: Says "ready" once imported, opens the file when told "go": all open it together.
OPENER = """
import asyncio, sys
from bot.storage import Storage

async def main(path):
    async with await Storage.open(path) as storage, storage.read() as reader:
        await reader.get_meta("sync_hash")

print("ready", flush=True)
sys.stdin.readline()
asyncio.run(main(sys.argv[1]))
"""


def open_together(path: Path, processes: int) -> list[tuple[int, str]]:
    children = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, str(path)],
            cwd=PROJECT_ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(processes)
    ]
    for child in children:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    results = []
    for child in children:
        output, _ = child.communicate(timeout=60)  # stdin is closed first: fine, "go" was read
        results.append((child.returncode, output))
    return results


def run_rounds(tmp_path: Path, rounds: int, processes: int) -> None:
    for number in range(rounds):
        path = tmp_path / f"fresh-{processes}-{number}.sqlite3"
        results = open_together(path, processes)
        failed = [output for code, output in results if code != 0]
        assert not failed, f"round {number}: {len(failed)} of {processes} failed:\n{failed[0]}"
        conn = sqlite3.connect(path)
        try:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == latest_version()
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            conn.close()


@pytest.mark.parametrize("processes", [2, 3])
def test_processes_started_together_on_a_fresh_file_all_come_up(
    tmp_path: Path, processes: int
) -> None:
    run_rounds(tmp_path, rounds=2, processes=processes)


@pytest.mark.stress
@pytest.mark.parametrize("processes", [2, 3])
def test_stress_twenty_starts_together(tmp_path: Path, processes: int) -> None:
    run_rounds(tmp_path, rounds=20, processes=processes)
