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
- mentions and Discord timestamps (``<@123>``, ``<t:170…:R>``) are not numbers of anyone.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, RecordedRequest

__all__ = ["NUMBER", "PrivateCharacter", "ScreenFinding", "ScreenScan", "leaks_of"]

EPHEMERAL = 1 << 6
#: A number of a character in the text that follows its name (COMMANDS.md: its name, then
#: ``/``, ``→``, ``vs``, a digit, a dice expression).
NUMBER = re.compile(r"[0-9]|→|\bvs\b|\s/\s")
#: What has digits but is no one's number: mentions, channels, roles, timestamps, emojis.
_NOT_NUMBERS = re.compile(r"<(?:@[!&]?|#|t:|a?:\w+:)[0-9]+(?::[A-Za-z])?>")


@dataclass(frozen=True)
class PrivateCharacter:
    """A character whose numbers were private from ``since`` on (the fake's clock)."""

    guild_id: str
    name: str
    since: float


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


def _labels(components: Any) -> Iterator[str]:
    for component in components or []:
        if not isinstance(component, Mapping):
            continue
        if component.get("label"):
            yield str(component["label"])
        yield from _labels(component.get("components"))


def leaks_of(message: Mapping[str, Any], choices: Sequence[str], name: str) -> list[str]:
    """The texts of a public payload that give ``name``'s numbers."""
    found: list[str] = []
    lines: list[str] = [*str(message.get("content") or "").split("\n"), *choices]
    lines += list(_labels(message.get("components")))
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
                if shown.guild_id != character.guild_id or shown.at < character.since:
                    continue
                for leaked in leaks_of(shown.message, shown.choices, character.name):
                    found.append(ScreenFinding(character.name, leaked, shown.where))
        return found

    @property
    def fakes(self) -> list[FakeDiscord]:
        """The fakes whose payloads were kept."""
        return list(self._fakes)

    def forget(self) -> None:
        self.shown.clear()


def private_characters(
    database: Path, fakes: Sequence[FakeDiscord], *, seen: float = 0.0
) -> list[PrivateCharacter]:
    """The characters of ``database`` whose numbers are private, with their server and when
    they became so (the interaction that created them private or made them so, on the fake's
    clock; ``seen`` when the fake no longer knows it)."""
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        tables = {str(row[0]) for row in conn.execute("SELECT name FROM sqlite_master")}
        columns = {str(row[1]) for row in conn.execute("PRAGMA table_info(characters)")}
        if "numbers" not in columns or "game_tables" not in tables:
            return []  # a file of an older Salud (an upgrade test): nobody is private there
        rows = conn.execute(
            "SELECT c.id, c.name, coalesce(t.guild_id, c.guild_id),"
            " (SELECT max(h.interaction_id) FROM history AS h"
            "  JOIN history_characters AS hc ON hc.history_id = h.id"
            '  WHERE hc.character_id = c.id AND hc.after LIKE \'%"numbers":"private"%\''
            '  AND (hc.before IS NULL OR hc.before NOT LIKE \'%"numbers":"private"%\'))'
            " FROM characters AS c LEFT JOIN game_tables AS t ON t.id = c.guild_id"
            " WHERE c.numbers = 'private'"
        ).fetchall()
    finally:
        conn.close()
    found: list[PrivateCharacter] = []
    for _id, name, guild_id, interaction_id in rows:
        since = seen
        for fake in fakes:
            record = fake.interactions.get(str(interaction_id))
            if record is not None:
                since = record.created
        found.append(PrivateCharacter(str(guild_id), str(name), since))
    return found
