"""Bytes of one ``/time`` and one ``/refresh`` history entry over many characters.

``python -m bench.history_size [--characters 5000]``: a fresh database with that many
characters in one server, each seriously wounded and bleeding (Health -7 of 9), with its First
Aid and two ability pools spent; then the storage calls ``/time 30`` and ``/refresh`` make
(the same rules and storage methods as ``cogs/scene.py``), and the bytes each entry stored:
its ``history`` row plus its ``history_characters`` rows.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
from dataclasses import replace
from pathlib import Path

from bot.storage import Storage
from rules import pass_time, refresh
from rules.abilities import Ability, AbilityKind, refresh_ability
from rules.character import CharacterHealth

GUILD = 1_000_000_000_000_000_001
GM = 2_000_000_000_000_000_002


async def entries(path: Path, characters: int) -> dict[str, int]:
    """The history entry ids of the two commands."""
    ids: dict[str, int] = {}
    async with await Storage.open(path) as storage:
        async with storage.transaction() as tx:
            wounded = replace(CharacterHealth.new(9, 3), health=-7, first_aid_pool=0)
            spent = [
                Ability("Athletics", AbilityKind.GENERAL, 4, 0),
                Ability("Scuffling", AbilityKind.GENERAL, 3, 1),
            ]
            for number in range(characters):
                await tx.create_character(GUILD, f"Investigator {number}", GM, wounded, spent)
            await tx.record(guild_id=GUILD, interaction_id=1, actor_id=GM, command="setup")
        async with storage.transaction() as tx:  # /time 30
            living = await tx.list_characters(GUILD, living_only=True)
            changed = [(c, pass_time(c.health, 30)) for c in living]
            await tx.save_healths([(c, o.after) for c, o in changed if o.changed])
            entry = await tx.record(
                guild_id=GUILD,
                interaction_id=2,
                actor_id=GM,
                command="time",
                details={"minutes": 30},
            )
            assert entry is not None
            ids["/time 30"] = entry.id
        async with storage.transaction() as tx:  # /refresh
            for character in await tx.list_characters(GUILD):
                saved = await tx.save_health(character, refresh(character.health).after)
                await tx.save_abilities(saved, [refresh_ability(a) for a in character.abilities])
            entry = await tx.record(
                guild_id=GUILD, interaction_id=3, actor_id=GM, command="refresh"
            )
            assert entry is not None
            ids["/refresh"] = entry.id
    return ids


def entry_bytes(path: Path, entry_id: int) -> tuple[int, int]:
    """(bytes, characters) of one history entry."""
    conn = sqlite3.connect(path)
    try:
        head = conn.execute(
            "SELECT length(command) + length(details) + length(created_at) FROM history"
            " WHERE id = ?",
            (entry_id,),
        ).fetchone()[0]
        rows, body = conn.execute(
            "SELECT count(*), sum(length(name) + length(before) + coalesce(length(after), 0))"
            " FROM history_characters WHERE history_id = ?",
            (entry_id,),
        ).fetchone()
    finally:
        conn.close()
    return int(head) + int(body), int(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "history.sqlite3"
        for command, entry_id in asyncio.run(entries(path, args.characters)).items():
            size, rows = entry_bytes(path, entry_id)
            print(
                f"{command}: {size:,} bytes for {rows:,} characters"
                f" ({size / max(rows, 1):.0f} bytes per character)"
            )


if __name__ == "__main__":
    main()
