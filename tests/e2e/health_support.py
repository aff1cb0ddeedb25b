"""Helpers for the end-to-end tests of ``cogs/health.py`` (/hurt, /conscious, /firstaid, /rest).

They drive the real bot through the fake Discord and read what it answered (embeds, fields)
or what it stored (the SQLite file, read-only), so that each test states its rule briefly.
"""

from __future__ import annotations

import copy
import re
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember
from devkit.fake_discord.replies import Reply
from devkit.harness import BotProcess

#: ``DIE + SPEND = TOTAL vs DIFFICULTY`` (COMMANDS.md, "Roll replies").
ROLL = re.compile(r"(\d+) \+ (\d+) = (\d+) vs (\d+)")
#: ``1d6+1: [4] + 1 = 5``, ``2d6: [3, 5] = 8``, ``1d6-2: [1] - 2 = -1 → 1 (…)``.
DAMAGE = re.compile(
    r"(?P<expr>\d*[dD]\d+(?:[+-]\d+)?): \[(?P<dice>[\d, ]+)\]"
    r"(?: (?P<sign>[+-]) (?P<mod>\d+))? = (?P<raw>-?\d+)(?: → (?P<dealt>\d+))?"
)
HEALTH_FIELD = {"en": "Health", "es": "Salud"}
ROLL_FIELD = {"en": "Consciousness roll", "es": "Tirada de Consciencia"}
SUCCESS = {"en": "Success", "es": "Éxito"}
FAILURE = {"en": "Failure", "es": "Fallo"}


@dataclass(frozen=True)
class RollShown:
    """A Consciousness roll as the reply shows it."""

    die: int
    spend: int
    total: int
    difficulty: int
    success: bool


@dataclass(frozen=True)
class DamageShown:
    """A damage roll as the reply shows it."""

    dice: tuple[int, ...]
    modifier: int
    raw: int
    dealt: int


# --- commands -----------------------------------------------------------------------------------
async def create(
    fake: FakeDiscord,
    guild: FakeGuild,
    member: FakeMember,
    name: str,
    health: int,
    first_aid: int = 0,
) -> Reply:
    """``/character create``; asserts it worked."""
    reply = await fake.slash(
        guild,
        member,
        "character create",
        {"name": name, "health": health, "first_aid": first_aid},
    )
    assert not reply.ephemeral, reply.text
    return reply


async def gm_set(fake: FakeDiscord, guild: FakeGuild, name: str, **values: Any) -> Reply:
    """``/character set`` by the server's owner (a GM); asserts it worked."""
    reply = await fake.slash(guild, guild.owner, "character set", {"character": name, **values})
    assert not reply.ephemeral, reply.text
    return reply


async def replay(fake: FakeDiscord, reply: Reply) -> Reply:
    """The same interaction (same id) delivered again, as Discord may after a reconnect."""
    payload = copy.deepcopy(reply.interaction)
    again = fake._send_interaction(payload, reply.record.label + " (again)")
    return await again.wait_complete(fake.reply_timeout)


# --- reading replies ----------------------------------------------------------------------------
def field(embed: Mapping[str, Any], name: str) -> str:
    """The value of the field called ``name``."""
    for item in embed.get("fields") or []:
        if item.get("name") == name:
            return str(item.get("value"))
    names = [item.get("name") for item in embed.get("fields") or []]
    raise AssertionError(f"no field {name!r} in embed {embed.get('title')!r}: {names}")


#: The first line of a Health field: ``-7 / 9`` (a status embed, or a change that left the
#: Health as it was), ``5 → -7 / 9``, or ``5 / 9 → 5 / 10`` (the maximum moved).
HEALTH_LINE = re.compile(
    r"(?:(?P<before>-?\d+)(?: / (?P<max_before>\d+))? → )?(?P<now>-?\d+) / (?P<max>\d+)$"
)


def health_shown(embed: Mapping[str, Any], lang: str = "en") -> tuple[int, int]:
    """``(current, max)`` from the ``Health`` field (``-7 / 9``, or ``5 → -7 / 9``)."""
    value = field(embed, HEALTH_FIELD[lang])
    found = HEALTH_LINE.match(value.split("\n")[0])
    assert found, value
    return int(found["now"]), int(found["max"])


def health_change_shown(embed: Mapping[str, Any], lang: str = "en") -> tuple[int, int, int]:
    """``(before, current, max)`` from a change's ``Health`` field (``5 → -7 / 9``; an
    unchanged Health gives ``before == current``)."""
    value = field(embed, HEALTH_FIELD[lang])
    found = HEALTH_LINE.match(value.split("\n")[0])
    assert found, value
    now = int(found["now"])
    before = now if found["before"] is None else int(found["before"])
    return before, now, int(found["max"])


WHAT_FIELD = {"en": "What happened", "es": "Qué ha pasado"}


def what_happened(embed: Mapping[str, Any], lang: str = "en") -> str:
    """The events in words of a change (its ``What happened`` field)."""
    return field(embed, WHAT_FIELD[lang])


def state_shown(embed: Mapping[str, Any], lang: str = "en") -> str:
    """The state with its flags: the ``State`` field of a status embed (``/character show``),
    or the second line of a change's ``Health`` field (``Hurt → **Seriously wounded** · …``)."""
    names = [item.get("name") for item in embed.get("fields") or []]
    state_name = {"en": "State", "es": "Estado"}[lang]
    if state_name in names:
        return field(embed, state_name)
    lines = field(embed, HEALTH_FIELD[lang]).split("\n")
    assert len(lines) >= 2, f"no state line in {embed.get('title')!r}: {lines}"
    return "\n".join(lines[1:])


def roll_shown(embed: Mapping[str, Any], lang: str = "en") -> RollShown:
    """The Consciousness roll field, parsed; its arithmetic and words checked."""
    value = field(embed, ROLL_FIELD[lang])
    found = ROLL.search(value)
    assert found, value
    die, spend, total, difficulty = (int(group) for group in found.groups())
    assert 1 <= die <= 6, value
    assert die + spend == total, f"arithmetic shown is wrong: {value}"
    success = total >= difficulty
    assert (SUCCESS[lang] in value) is success, value
    assert (FAILURE[lang] in value) is not success, value
    return RollShown(die, spend, total, difficulty, success)


def damage_shown(text: str) -> DamageShown:
    """The damage line of a /hurt reply, parsed; its arithmetic checked (D2: at least 1)."""
    found = DAMAGE.search(text)
    assert found, text
    dice = tuple(int(d) for d in found["dice"].split(","))
    modifier = int(found["mod"] or 0) * (-1 if found["sign"] == "-" else 1)
    raw = int(found["raw"])
    assert sum(dice) + modifier == raw, f"damage arithmetic is wrong: {found[0]}"
    dealt = int(found["dealt"]) if found["dealt"] else raw
    assert dealt == max(1, raw), found[0]
    return DamageShown(dice, modifier, raw, dealt)


# --- reading the database -----------------------------------------------------------------------
def _connect(bot: BotProcess) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{bot.database_path}?mode=ro", uri=True, timeout=5)
    conn.row_factory = sqlite3.Row
    return conn


def stored(bot: BotProcess, guild: FakeGuild, name: str) -> dict[str, Any]:
    """The character's stored row, as a dict."""
    conn = _connect(bot)
    try:
        row = conn.execute(
            "SELECT * FROM characters WHERE guild_id = ? AND name_key = ?",
            (int(guild.id), name.strip().casefold()),
        ).fetchone()
    finally:
        conn.close()
    assert row is not None, f"{name} is not stored in guild {guild.id}"
    return dict(row)


def history_count(bot: BotProcess, guild: FakeGuild) -> int:
    """Entries of the server's history."""
    conn = _connect(bot)
    try:
        row = conn.execute(
            "SELECT count(*) FROM history WHERE guild_id = ?", (int(guild.id),)
        ).fetchone()
    finally:
        conn.close()
    return int(row[0])


def history_commands(bot: BotProcess, guild: FakeGuild) -> list[tuple[str, int]]:
    """``(command, interaction_id)`` of the server's history entries, oldest first."""
    conn = _connect(bot)
    try:
        rows = conn.execute(
            "SELECT command, interaction_id FROM history WHERE guild_id = ? ORDER BY id",
            (int(guild.id),),
        ).fetchall()
    finally:
        conn.close()
    return [(str(row[0]), int(row[1])) for row in rows]


def last_details(bot: BotProcess, guild: FakeGuild) -> str:
    """The JSON details of the server's latest history entry."""
    conn = _connect(bot)
    try:
        row = conn.execute(
            "SELECT details FROM history WHERE guild_id = ? ORDER BY id DESC LIMIT 1",
            (int(guild.id),),
        ).fetchone()
    finally:
        conn.close()
    return str(row[0])


def assert_refused(reply: Reply, *needles: str) -> None:
    """An ephemeral error reply that contains every ``needle``."""
    assert reply.ephemeral, f"expected an ephemeral refusal, got: {reply.text!r}"
    for needle in needles:
        assert needle in reply.text, f"{needle!r} not in {reply.text!r}"
