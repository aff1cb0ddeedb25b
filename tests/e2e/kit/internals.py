"""No internals in any reply or help page (COMMANDS.md, Replies): the scan of every payload.

What a player reads names options and choices as their Discord shows them, in their language:
no rule id (``H4``), no option syntax (``hospital: True``), no stored value (``feminine``,
``yes → no``). ``InternalsScan`` watches every request the bot makes of a fake Discord
(``devkit.fake_discord.REQUEST_WATCHERS``: nothing is missed, whatever the number of fakes or
of payloads) and reads all the text a person sees in it: a message's content, its embeds
(author, title, description, fields, footer) and its components' labels, autocomplete
choices, and the commands' descriptions and choice labels as registered (what the picker
shows, in every language). ``tests/e2e/conftest.py`` fails the test during which a leak was
sent.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from devkit.fake_discord import FakeDiscord, RecordedRequest

__all__ = ["LEAKS", "Finding", "InternalsScan", "leaks_in", "shown_texts"]

#: RULES.md's ids (H1–H6, D1–D5, C1–C7, F1–F7, S1–S2, T1–T2, R1–R8, P1–P3, G1–G4, M1–M13).
_RULE_ID = r"\b(?:H[1-6]|D[1-5]|C[1-7]|F[1-7]|S[12]|T[12]|R[1-8]|P[1-3]|G[1-4]|M(?:1[0-3]|[1-9]))\b"

#: What must never reach a player, by what it is.
LEAKS: Mapping[str, re.Pattern[str]] = {
    "a rule id": re.compile(_RULE_ID),
    "a boolean as Python or JSON writes it": re.compile(r"\b(?:True|False|true|false)\b"),
    "a stored gender": re.compile(r"\b(?:feminine|masculine)\b", re.IGNORECASE),
    "a stored yes/no": re.compile(r"\b(?:sí|si|yes|no) → (?:sí|si|yes|no)\b", re.IGNORECASE),
}


@dataclass(frozen=True)
class Finding:
    """One leak: what it is, the text it was found in, and where that text was sent."""

    kind: str
    found: str
    text: str
    where: str

    def __str__(self) -> str:
        return f"{self.kind} {self.found!r} in {self.where}: {self.text!r}"


def leaks_in(text: str) -> list[tuple[str, str]]:
    """Each internal ``text`` shows, as (what it is, the words found)."""
    return [
        (kind, match.group(0))
        for kind, pattern in LEAKS.items()
        for match in pattern.finditer(text)
    ]


def _message_texts(message: Any) -> Iterator[str]:
    """Every text a person sees of a message payload (content, embeds, components)."""
    if not isinstance(message, Mapping):
        return
    if message.get("content"):
        yield str(message["content"])
    for embed in message.get("embeds") or []:
        if not isinstance(embed, Mapping):
            continue
        for part in ("author", "footer"):
            inner = embed.get(part)
            if isinstance(inner, Mapping):
                yield str(inner.get("name") or inner.get("text") or "")
        yield str(embed.get("title") or "")
        yield str(embed.get("description") or "")
        for field in embed.get("fields") or []:
            if isinstance(field, Mapping):
                yield str(field.get("name") or "")
                yield str(field.get("value") or "")
    yield from _component_texts(message.get("components"))


def _component_texts(components: Any) -> Iterator[str]:
    for component in components or []:
        if not isinstance(component, Mapping):
            continue
        for key in ("label", "placeholder", "content", "title"):
            if component.get(key):
                yield str(component[key])
        for option in component.get("options") or []:
            if isinstance(option, Mapping):
                yield str(option.get("label") or "")
                yield str(option.get("description") or "")
        yield from _component_texts(component.get("components"))


def _localized(item: Mapping[str, Any], key: str) -> Iterator[str]:
    """``item[key]`` and each of its translations (``key_localizations``)."""
    if item.get(key):
        yield str(item[key])
    for translated in (item.get(f"{key}_localizations") or {}).values():
        yield str(translated)


def _command_texts(command: Mapping[str, Any]) -> Iterator[str]:
    """A registered command's descriptions and choice labels, in every language (what the
    picker shows; command and option names are the contract's and stay English)."""
    yield from _localized(command, "description")
    for choice in command.get("choices") or []:
        if isinstance(choice, Mapping):
            yield from _localized(choice, "name")
    for option in command.get("options") or []:
        if isinstance(option, Mapping):
            yield from _command_texts(option)


def shown_texts(fake: FakeDiscord, request: RecordedRequest) -> Iterator[tuple[str, str]]:
    """(where, text) for each text a person sees of what the bot sent in ``request``: replies
    and their edits, followups, channel posts, autocomplete choices, command registrations."""
    body = request.body
    parts = request.path.removeprefix("/api/v10/").split("/")
    method = request.method
    if method == "POST" and len(parts) == 4 and parts[0] == "interactions":
        record = fake.interactions.get(parts[1])
        where = f"the answer to {record.label if record else 'an interaction'}"
        data = body.get("data") if isinstance(body, Mapping) else None
        if isinstance(data, Mapping):
            for choice in data.get("choices") or []:
                yield where, str(choice.get("name") or "")
            for text in _message_texts(data):
                yield where, text
        return
    if method in ("POST", "PATCH") and parts[:1] in (["webhooks"], ["channels"]):
        where = f"{method} {request.path}"
        for text in _message_texts(body):
            yield where, text
        return
    if method == "PUT" and parts[-1:] == ["commands"] and isinstance(body, list):
        for command in body:
            if isinstance(command, Mapping):
                where = f"the registration of /{command.get('name')}"
                for text in _command_texts(command):
                    yield where, text


class InternalsScan:
    """Reads every payload the bot sends to the fakes it watches and keeps each leak found.

    Watching: every fake that received a request while a test was running (``in_test``), for
    the rest of its life, also between tests (a tracker edited late is still read); fakes of
    other applications (the benchmark's floor bot, which echoes what tests type) are not
    Salud and are left alone. ``scanning`` is off while the reliability tests, which share
    the session's fake, feed the bot malformed values and names it must echo (a raw
    ``true``, a character called ``C1``); it stays as the last test left it, so that what
    arrives between two tests is judged as the test before it was.
    """

    def __init__(self, app_name: str = "Salud") -> None:
        self.app_name = app_name
        self.in_test = False
        self.scanning = True
        self.findings: list[Finding] = []
        self.payloads = 0
        self._watched: weakref.WeakSet[FakeDiscord] = weakref.WeakSet()

    def watch(self, fake: FakeDiscord) -> None:
        """Read everything ``fake`` receives from now on, in a test or not."""
        self._watched.add(fake)

    def __call__(self, fake: FakeDiscord, request: RecordedRequest) -> None:
        if fake.app_name != self.app_name or not self.scanning:
            return
        if self.in_test:
            self._watched.add(fake)
        elif fake not in self._watched:
            return
        self.payloads += 1
        for where, text in shown_texts(fake, request):
            for kind, found in leaks_in(text):
                self.findings.append(Finding(kind, found, text, where))
