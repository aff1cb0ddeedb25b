"""Lines on a phone of the replies issue 20 names, in both languages: ``python -m
tools.phone_lines`` (counted by ``devkit/phone.py``, the way the tests count them).

Runs a short session with the real bot (``python -m bot``) against the fake Discord on
127.0.0.1 — a 4-target ``/hurt`` with a reason, ``/firstaid``, ``/check spend:1``, a GM's
correction, a discharge from hospital, a ``/history`` page of 10 entries, ``/undo``'s
preview and ``/help`` — in a Spanish server and an English one, and prints a table. The
dice are the bot's own (the counts do not depend on them). Not part of ``make test``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from devkit.phone import message_lines

LOCALES = ("es-ES", "en-US")
ITEMS = (
    "4-target /hurt",
    "/firstaid",
    "/check spend:1",
    "a correction",
    "a discharge",
    "/history (10 entries)",
    "/undo's preview",
    "/help",
)


def lines_of(reply: Any) -> int:
    """A reply's lines: its message, or the followups that carry it."""
    message = reply.message
    if message is None and reply.followups:
        return sum(message_lines(followup) for followup in reply.followups)
    return message_lines(message)


async def session(fake: FakeDiscord, guild: FakeGuild, locale: str) -> dict[str, int]:
    gm = guild.member("Dani", permissions=["manage_guild"], locale=locale)
    players = [guild.member(name, locale=locale) for name in ("Lucía", "Marcos", "Pilar")]
    names = ["Amelia Ríos", "Jack Malone", "Renée Pennington", "Sgt. O'Malley"]
    owners = [*players, gm]
    for name, owner in zip(names, owners, strict=True):
        await fake.slash(
            guild, gm, "character create", {"name": name, "health": 8, "player": owner}
        )
    await fake.slash(
        guild, gm, "character create", {"name": "Padre Tomás", "health": 9, "first_aid": 8}
    )
    await fake.slash(
        guild,
        gm,
        "ability set",
        {"character": "Jack Malone", "ability": "Scuffling", "rating": 4},
    )
    counts: dict[str, int] = {}
    await fake.slash(guild, gm, "scene new")
    hurt = await fake.slash(
        guild,
        gm,
        "hurt",
        {
            "character": names[0],
            "character2": names[1],
            "character3": names[2],
            "character4": names[3],
            "amount": "11",
            "reason": "explosión de dinamita" if locale == "es-ES" else "dynamite blast",
        },
    )
    counts["4-target /hurt"] = lines_of(hurt)
    await fake.slash(guild, gm, "character set", {"character": names[1], "health": 2})
    aid = await fake.slash(
        guild, gm, "firstaid", {"medic": "Padre Tomás", "patient": names[1], "points": 2}
    )
    counts["/firstaid"] = lines_of(aid)
    await fake.slash(guild, gm, "character set", {"character": names[1], "health": 0})
    check = await fake.slash(
        guild, gm, "check", {"character": names[1], "ability": "Scuffling", "spend": 1}
    )
    counts["/check spend:1"] = lines_of(check)
    correction = await fake.slash(guild, gm, "character set", {"character": names[1], "health": 1})
    counts["a correction"] = lines_of(correction)
    await fake.slash(guild, gm, "character set", {"character": names[2], "health": -7})
    await fake.slash(guild, gm, "rest", {"character": names[2], "days": 1, "hospital": True})
    discharge = await fake.slash(
        guild, gm, "rest", {"character": names[2], "days": 6, "hospital": True}
    )
    counts["a discharge"] = lines_of(discharge)
    history = await fake.slash(guild, gm, "history")
    counts["/history (10 entries)"] = lines_of(history)
    preview = await fake.slash(guild, gm, "undo")
    counts["/undo's preview"] = lines_of(preview)
    counts["/help"] = lines_of(await fake.slash(guild, gm, "help"))
    return counts


async def main() -> int:
    fake = FakeDiscord(app_name="Salud")
    await fake.start()
    work = Path(tempfile.mkdtemp(prefix="salud-phone-"))
    bot = BotProcess(fake, database_path=work / "bot.sqlite3", log_path=work / "bot.log")
    try:
        await bot.start()
        results = {}
        for locale in LOCALES:
            guild = await fake.create_guild(locale=locale)
            results[locale] = await session(fake, guild, locale)
    finally:
        await bot.stop()
        await fake.stop()
    print("| reply | " + " | ".join(LOCALES) + " |")
    print("| --- | " + " | ".join("---:" for _ in LOCALES) + " |")
    for item in ITEMS:
        print(f"| {item} | " + " | ".join(str(results[lo].get(item, "?")) for lo in LOCALES) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
