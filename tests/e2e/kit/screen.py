"""The Keeper's screen, checked on everything the bot shows in public (COMMANDS.md "Private
numbers"): no public payload of the whole e2e suite gives a private character's numbers.

``ScreenScan`` watches every request the bot makes of a fake Discord
(``devkit.fake_discord.REQUEST_WATCHERS``) and keeps what a public message shows: replies and
their edits, deferred follow-ups, channel posts (announcements, the tracker's edits), button
labels and autocomplete choices. Ephemeral messages (the numbers sent to an owner or a GM) are
left out. After each test (``tests/e2e/conftest.py``) it learns the private characters from the
bot's database (``numbers = 'private'``, the server each plays in, and the interaction that made
it private: what was shown before that is not judged) and reads what was kept:

- a line that names a private character shows no number after its name (a digit, ``→``,
  ``vs``: a pool, a rating, a Difficulty, a die, a dice expression ``1d6`` all have digits);
- an embed whose title (or author) names one shows none anywhere (its fields are about it);
- a roll's spend buttons (``salud:cons:``/``salud:stab:<character_id>:<spend>:…``) offer a
  private character none or every one of +1, +2, +3: the legal ones alone would tell its pool
  (their labels' ``+N`` is the spend offered, not a number of its);
- mentions and Discord timestamps (``<@123>``, ``<t:170…:R>``) are not numbers of anyone.

The databases are the bots' own, SQLite files and PostgreSQL servers alike
(``tests/e2e/kit/processes.py``); a character is judged only while it was private: from the
interaction that made it so (or created it so) to the one that showed its numbers again (a
``/character set numbers``, an ``/undo``) or deleted it, under every name it had meanwhile.
"""

from __future__ import annotations

import math
import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from bot.storage.snapshot import load_after, load_snapshot
from devkit.fake_discord import FakeDiscord, RecordedRequest

__all__ = [
    "NUMBER",
    "Database",
    "PrivateCharacter",
    "ScreenFinding",
    "ScreenScan",
    "leaks_of",
    "private_characters",
]

EPHEMERAL = 1 << 6
#: A number of a character in the text that follows its name (COMMANDS.md: its name, then
#: ``/``, ``→``, ``vs``, a digit, a dice expression).
NUMBER = re.compile(r"[0-9]|→|\bvs\b|\s/\s")
#: What has digits but is no one's number: mentions, channels, roles, timestamps, emojis.
_NOT_NUMBERS = re.compile(r"<(?:@[!&]?|#|t:|a?:\w+:)[0-9]+(?::[A-Za-z])?>")
#: A roll's button: whose roll, and the spend it makes (0: the plain roll).
_ROLL_BUTTON = re.compile(r"^salud:(?:cons|stab):(?P<character>[0-9]+):(?P<spend>[0-9]+)(?::|$)")
#: The spends a private character's roll may offer: none, or every one (never the legal ones).
_EVERY_SPEND = frozenset({1, 2, 3})
#: Where a bot keeps its characters: an SQLite file, or a PostgreSQL server's URL.
Database = Path | str


@dataclass(frozen=True)
class PrivateCharacter:
    """A character whose numbers were private from ``since`` until ``until`` (the fake's
    clock), called ``name``; ``character_id`` its id in its bot's database, when known."""

    guild_id: str
    name: str
    since: float
    until: float = math.inf
    character_id: int | None = None


@dataclass(frozen=True)
class ScreenFinding:
    """A private character's number in a public payload."""

    name: str
    text: str
    where: str

    def __str__(self) -> str:
        return f"{self.name}'s numbers in {self.where}: {self.text!r}"


@dataclass
class Shown:
    """One public payload as it was sent: its server, when, and its message (or choices)."""

    guild_id: str | None
    at: float
    where: str
    message: Mapping[str, Any] = field(default_factory=dict)
    choices: Sequence[str] = ()


def _clean(text: str) -> str:
    return _NOT_NUMBERS.sub("", text)


def _after_name(line: str, name: str) -> str | None:
    """What follows ``name`` on ``line`` (None when the line does not name it)."""
    index = line.find(name)
    return None if index < 0 else line[index + len(name) :]


def _embed_parts(embed: Mapping[str, Any]) -> Iterator[str]:
    yield str(embed.get("description") or "")
    for item in embed.get("fields") or []:
        if isinstance(item, Mapping):
            yield str(item.get("name") or "")
            yield str(item.get("value") or "")
    footer = embed.get("footer")
    if isinstance(footer, Mapping):
        yield str(footer.get("text") or "")


def _buttons(components: Any) -> Iterator[tuple[str, str]]:
    """Every component's label and custom id, rows walked through."""
    for component in components or []:
        if not isinstance(component, Mapping):
            continue
        if component.get("label"):
            yield str(component["label"]), str(component.get("custom_id") or "")
        yield from _buttons(component.get("components"))


def _labels(components: Any, character_id: int | None) -> tuple[list[str], list[str]]:
    """The labels to read as lines (a spend button's without the spend it offers), and
    what the spend buttons of ``character_id``'s rolls give away (a part of the row)."""
    lines: list[str] = []
    spends: set[int] = set()
    for label, custom_id in _buttons(components):
        roll = _ROLL_BUTTON.match(custom_id)
        if roll is None:
            lines.append(label)
            continue
        spend = int(roll["spend"])
        lines.append(label.replace(f"+{spend}", "", 1) if spend else label)
        if spend and int(roll["character"]) == character_id:
            spends.add(spend)
    partial = spends and spends != _EVERY_SPEND
    return lines, [f"spend buttons {sorted(spends)} of a roll"] if partial else []


def leaks_of(
    message: Mapping[str, Any],
    choices: Sequence[str],
    name: str,
    character_id: int | None = None,
) -> list[str]:
    """The texts of a public payload that give the numbers of ``name`` (``character_id``
    in its bot's database: its rolls' spend buttons)."""
    lines: list[str] = [*str(message.get("content") or "").split("\n"), *choices]
    labels, found = _labels(message.get("components"), character_id)
    lines += labels
    for embed in message.get("embeds") or []:
        if not isinstance(embed, Mapping):
            continue
        author = embed.get("author")
        heads = [str(embed.get("title") or "")]
        if isinstance(author, Mapping):
            heads.append(str(author.get("name") or ""))
        parts = list(_embed_parts(embed))
        if any(name in head for head in heads):
            found += [part for part in parts if NUMBER.search(_clean(part))]
            found += [
                head for head in heads if NUMBER.search(_clean(_after_name(head, name) or ""))
            ]
        for part in parts:
            lines += part.split("\n")
        lines += heads
    for line in lines:
        after = _after_name(line, name)
        if after is not None and NUMBER.search(_clean(after)):
            found.append(line)
    return list(dict.fromkeys(found))


class ScreenScan:
    """Keeps every public payload the bot sends to the fakes of ``app_name`` and, asked with
    the private characters, says which give their numbers."""

    def __init__(self, app_name: str = "Salud") -> None:
        self.app_name = app_name
        self.scanning = True
        self.shown: list[Shown] = []
        self.payloads = 0
        self._fakes: list[FakeDiscord] = []

    def __call__(self, fake: FakeDiscord, request: RecordedRequest) -> None:
        if fake.app_name != self.app_name or not self.scanning:
            return
        if fake not in self._fakes:
            self._fakes.append(fake)
        shown = self._public(fake, request)
        if shown is not None:
            self.payloads += 1
            self.shown.append(shown)

    def _public(self, fake: FakeDiscord, request: RecordedRequest) -> Shown | None:
        """``request`` as a public payload, or None (ephemeral, or no message)."""
        body = request.body if isinstance(request.body, Mapping) else {}
        parts = request.path.removeprefix("/api/v10/").split("/")
        where = f"{request.method} {request.path}"
        if request.method == "POST" and len(parts) == 4 and parts[0] == "interactions":
            record = fake.interactions.get(parts[1])
            guild = None if record is None else record.payload.get("guild_id")
            data = body.get("data") if isinstance(body.get("data"), Mapping) else {}
            label = record.label if record is not None else "an interaction"
            where = f"the answer to {label}"
            kind = body.get("type")
            if kind == 8:
                names = [str(choice.get("name") or "") for choice in data.get("choices") or []]
                return Shown(guild, request.at, where, choices=names)
            if kind in (4, 5) and int(data.get("flags") or 0) & EPHEMERAL:
                return None
            if kind == 7 and record is not None and self._ephemeral_source(fake, record):
                return None
            return Shown(guild, request.at, where, message=data)
        if parts[:1] == ["webhooks"] and request.method in ("POST", "PATCH") and len(parts) >= 3:
            record = fake._by_token.get(parts[2])  # a dictionary: floods of thousands stay fast
            guild = None if record is None else record.payload.get("guild_id")
            if record is not None:
                where = f"{request.method} of {record.label}"
            if self._ephemeral_webhook(fake, record, parts, body, request.method):
                return None
            return Shown(guild, request.at, where, message=body)
        if parts[:1] == ["channels"] and request.method in ("POST", "PATCH") and len(parts) >= 3:
            channel = fake._channel(parts[1])
            guild = None if channel is None else channel.guild_id
            return Shown(guild, request.at, where, message=body)
        return None

    @staticmethod
    def _ephemeral_source(fake: FakeDiscord, record: Any) -> bool:
        """Whether the message a pressed button was on is ephemeral."""
        message = record.payload.get("message") or {}
        return bool(int(message.get("flags") or 0) & EPHEMERAL)

    def _ephemeral_webhook(
        self,
        fake: FakeDiscord,
        record: Any,
        parts: list[str],
        body: Mapping[str, Any],
        method: str,
    ) -> bool:
        original_ephemeral = False
        if record is not None:
            callback = record.callback_body or {}
            data = callback.get("data") if isinstance(callback.get("data"), Mapping) else {}
            if callback.get("type") in (4, 5):
                original_ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
            elif callback.get("type") in (6, 7):
                original_ephemeral = self._ephemeral_source(fake, record)
        if method == "POST":  # a follow-up (the first after a deferral fills it)
            filling = record is not None and record.callback_type == 5 and not record.followup_ids
            return bool(int(body.get("flags") or 0) & EPHEMERAL) or (filling and original_ephemeral)
        target = parts[-1] if len(parts) >= 5 else "@original"
        if target == "@original":
            return original_ephemeral
        message = fake.messages.get(target)
        return message is not None and bool(int(message.get("flags") or 0) & EPHEMERAL)

    def findings(self, private: Sequence[PrivateCharacter]) -> list[ScreenFinding]:
        """Every public payload kept that gives the numbers of one of ``private``."""
        found: list[ScreenFinding] = []
        for character in private:
            for shown in self.shown:
                if shown.guild_id != character.guild_id:
                    continue
                if not character.since <= shown.at < character.until:
                    continue
                leaks = leaks_of(
                    shown.message, shown.choices, character.name, character.character_id
                )
                for leaked in leaks:
                    found.append(ScreenFinding(character.name, leaked, shown.where))
        return found

    @property
    def fakes(self) -> list[FakeDiscord]:
        """The fakes whose payloads were kept."""
        return list(self._fakes)

    def forget(self) -> None:
        self.shown.clear()


#: Every change of a character whose snapshot before it or after it says private numbers
#: (an ``after`` is stored as its changes from ``before``: ``bot.storage.snapshot``), oldest
#: first: its id, its name then, its server, the interaction that made it, both sides.
_CHANGES = (
    "SELECT hc.character_id, hc.name, coalesce(t.guild_id, h.guild_id), h.interaction_id,"
    " hc.before, hc.after"
    " FROM history_characters AS hc JOIN history AS h ON h.id = hc.history_id"
    " LEFT JOIN game_tables AS t ON t.id = h.guild_id"
    ' WHERE hc.before LIKE \'%"numbers":"private"%\''
    ' OR hc.after LIKE \'%"numbers":"private"%\''
    " ORDER BY h.id"
)
#: The characters private now: their id, name and server.
_PRIVATE_NOW = (
    "SELECT c.id, c.name, coalesce(t.guild_id, c.guild_id)"
    " FROM characters AS c LEFT JOIN game_tables AS t ON t.id = c.guild_id"
    " WHERE c.numbers = 'private'"
)


def _rows(database: Database) -> tuple[list[Sequence[Any]], list[Sequence[Any]]]:
    """The changes and the characters private now, from an SQLite file or a PostgreSQL
    server (nothing from a database of a Salud older than private numbers)."""
    if isinstance(database, str):
        with psycopg.connect(database, connect_timeout=10) as conn:
            columns = conn.execute(
                "SELECT 1 FROM information_schema.columns"
                " WHERE table_name = 'characters' AND column_name = 'numbers'"
            ).fetchall()
            if not columns:
                return [], []
            changes = conn.execute(_CHANGES).fetchall()
            return list(changes), list(conn.execute(_PRIVATE_NOW).fetchall())
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master")}
        columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(characters)")}
        if "numbers" not in columns or "game_tables" not in tables:
            return [], []  # a file of an older Salud (an upgrade test): nobody is private there
        changes = conn.execute(_CHANGES).fetchall()
        return changes, conn.execute(_PRIVATE_NOW).fetchall()
    finally:
        conn.close()


def private_characters(
    database: Database, fakes: Sequence[FakeDiscord], *, seen: float = 0.0
) -> list[PrivateCharacter]:
    """The characters of ``database`` whose numbers are or were private, each with its
    server, every name it had meanwhile and when: from the interaction that created it
    private or made it so to the one that showed its numbers again or deleted it, on the
    fake's clock (``seen`` for a start, and never for an end, that the fakes no longer
    know: the scan judges more, never less)."""
    changes, now = _rows(database)

    def when(interaction_id: Any, unknown: float) -> float:
        for fake in fakes:
            record = fake.interactions.get(str(interaction_id))
            if record is not None:
                return float(record.created)
        return unknown

    found: list[PrivateCharacter] = []
    opened: dict[int, tuple[str, set[str], float]] = {}
    for character_id, name, guild_id, interaction_id, before_text, after_text in changes:
        key = int(character_id)
        old = load_snapshot(before_text)
        new = load_after(old, after_text)
        before = old is not None and old.get("numbers") == "private"
        after = new is not None and new.get("numbers") == "private"
        if after and not before:
            opened[key] = (str(guild_id), {str(name)}, when(interaction_id, seen))
        elif after or before:
            guild, names, since = opened.pop(key, (str(guild_id), set(), seen))
            names.add(str(name))
            if after:
                opened[key] = (guild, names, since)
            else:
                until = when(interaction_id, math.inf)
                found += [PrivateCharacter(guild, n, since, until, key) for n in sorted(names)]
    for character_id, name, guild_id in now:
        guild, names, since = opened.pop(int(character_id), (str(guild_id), set(), seen))
        names.add(str(name))
        found += [
            PrivateCharacter(guild, n, since, math.inf, int(character_id)) for n in sorted(names)
        ]
    return found
