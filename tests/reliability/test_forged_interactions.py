"""Forged and odd interactions (issue 24, point 11): what Discord never sends but a forged
client, an out-of-date client or a Discord bug may — options of the wrong JSON type, ``data``
missing or ``null``, ids and integers past SQLite's integers, a command from a DM with no
server, an option the command does not have — each gets the one-sentence ephemeral answer of
its case, changes nothing, and leaves at most one INFO line in the log: no traceback, no
ERROR.

One forging run found 14 tracebacks: ``TypeError: 'NoneType' object is not subscriptable``,
``OverflowError: Python int too large to convert to SQLite INTEGER``, ``NoPrivateMessage``
escaping ``report_error``, ``Task exception was never retrieved`` in the command tree's
invoker, ``Unexpected error in component 'salud:del:N:yes'``; and an unknown option was
applied (the command ran as if it were not there).
"""

from __future__ import annotations

import contextlib
import copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from tests.e2e.kit import create
from tests.reliability.support import dump, isolated_bot

#: Levels that must not appear in the log for a forged interaction.
LOUD = re.compile(r"\b(ERROR|WARNING|CRITICAL)\b")
HUGE = 10**30
PAST_SQLITE = 2**63
EPHEMERAL = 1 << 6

Payload = dict[str, Any]


@dataclass(frozen=True)
class Forgery:
    """One forged interaction: how it is made from a sound one, and what must answer it
    (``said``: a piece of the English answer; autocomplete answers with no choices)."""

    label: str
    kind: str  # "command", "autocomplete" or "press"
    forge: Callable[[Payload], None]
    #: A piece of the ephemeral answer; "" any ephemeral answer; None any answer at all (the
    #: command runs as a sound one would).
    said: str | None = ""


def _set(path: str, value: Any) -> Callable[[Payload], None]:
    """Sets ``path`` (``data.options``, ``member.user.id``) to ``value`` (deleted for ...)."""

    def forge(payload: Payload) -> None:
        *parents, last = path.split(".")
        target = payload
        for part in parents:
            target = target[part]
        if value is ...:
            target.pop(last, None)
        else:
            target[last] = value

    return forge


def _option(name: str, value: Any) -> Callable[[Payload], None]:
    """The first leaf option called ``name`` gets the raw JSON ``value``."""

    def forge(payload: Payload) -> None:
        options = payload["data"]["options"]
        while options and options[0].get("type") in (1, 2):
            options = options[0]["options"]
        for option in options:
            if option["name"] == name:
                option["value"] = value

    return forge


def _add_option(name: str, option_type: int, value: Any) -> Callable[[Payload], None]:
    def forge(payload: Payload) -> None:
        options = payload["data"]["options"]
        while options and options[0].get("type") in (1, 2):
            options = options[0]["options"]
        options.append({"name": name, "type": option_type, "value": value})

    return forge


def _set_first_option(key: str, value: Any) -> Callable[[Payload], None]:
    def forge(payload: Payload) -> None:
        payload["data"]["options"][0][key] = value

    return forge


def _dm(payload: Payload) -> None:
    """As Discord sends an interaction from a DM: no server, a user instead of a member."""
    user = payload["member"]["user"]
    for key in ("guild_id", "guild", "member", "guild_locale"):
        payload.pop(key, None)
    payload["user"] = user
    payload["context"] = 1
    payload["channel"] = {"id": payload["channel_id"], "type": 1, "recipients": [user]}


OUTDATED = "out of date"
MALFORMED = "incomplete or damaged"
BAD_TYPE = "is not a valid value"
GUILD_ONLY = "only works inside a server"
STALE = "This button no longer works"


def forgeries() -> list[Forgery]:
    return [
        # --- commands: /character show of Ana, spoilt --------------------------------------
        Forgery("command: data null", "command", _set("data", None), MALFORMED),
        Forgery("command: data missing", "command", _set("data", ...), MALFORMED),
        Forgery("command: data a list", "command", _set("data", [1, 2]), MALFORMED),
        Forgery("command: no name", "command", _set("data.name", ...), MALFORMED),
        Forgery("command: name null", "command", _set("data.name", None), MALFORMED),
        Forgery("command: options a string", "command", _set("data.options", "x"), MALFORMED),
        Forgery("command: options of null", "command", _set("data.options", [None]), MALFORMED),
        Forgery(
            "command: sub-command options null",
            "command",
            _set_first_option("options", None),
            MALFORMED,
        ),
        Forgery("command: option type null", "command", _set_first_option("type", None), MALFORMED),
        Forgery("command: an unknown option", "command", _add_option("bogus", 3, "x"), OUTDATED),
        Forgery("command: an unknown number", "command", _add_option("extra", 4, 5), OUTDATED),
        Forgery("command: character null", "command", _option("character", None), BAD_TYPE),
        Forgery("command: character a dict", "command", _option("character", {"a": 1}), BAD_TYPE),
        Forgery("command: character a list", "command", _option("character", [1]), BAD_TYPE),
        Forgery("command: character huge", "command", _option("character", HUGE), BAD_TYPE),
        Forgery(
            "command: guild id past SQLite",
            "command",
            _set("guild_id", str(PAST_SQLITE)),
            MALFORMED,
        ),
        Forgery("command: guild id null", "command", _set("guild_id", None), MALFORMED),
        Forgery("command: channel id huge", "command", _set("channel_id", str(HUGE)), MALFORMED),
        Forgery("command: member null", "command", _set("member", None), MALFORMED),
        Forgery("command: member without user", "command", _set("member.user", ...), MALFORMED),
        Forgery(
            "command: user id past SQLite",
            "command",
            _set("member.user.id", str(HUGE)),
            MALFORMED,
        ),
        Forgery("command: interaction id huge", "command", _set("id", str(HUGE)), MALFORMED),
        Forgery("command: id a word", "command", _set("data.id", "abc"), None),
        Forgery("command: locale null", "command", _set("locale", None), None),
        Forgery("command: locale a number", "command", _set("locale", 5), None),
        Forgery("command: from a DM", "command", _dm, GUILD_ONLY),
        # --- autocomplete of /hurt's character, spoilt: no choices ---------------------------
        Forgery("autocomplete: data null", "autocomplete", _set("data", None)),
        Forgery("autocomplete: options a string", "autocomplete", _set("data.options", "x")),
        Forgery("autocomplete: nothing focused", "autocomplete", _option("character", "A")),
        Forgery("autocomplete: value a number", "autocomplete", _option("character", HUGE)),
        Forgery("autocomplete: from a DM", "autocomplete", _dm),
        Forgery("autocomplete: guild id huge", "autocomplete", _set("guild_id", str(HUGE))),
        # --- presses of the delete prompt's "no", spoilt -------------------------------------
        Forgery("press: data null", "press", _set("data", None), STALE),
        Forgery("press: data missing", "press", _set("data", ...), STALE),
        Forgery("press: custom id null", "press", _set("data.custom_id", None), STALE),
        Forgery("press: custom id a number", "press", _set("data.custom_id", 5), STALE),
        Forgery("press: component type a word", "press", _set("data.component_type", "2"), STALE),
        Forgery("press: message null", "press", _set("message", None), STALE),
        Forgery("press: message missing", "press", _set("message", ...), STALE),
        Forgery("press: from a DM", "press", _dm, GUILD_ONLY),
        Forgery("press: guild id huge", "press", _set("guild_id", str(HUGE)), STALE),
        Forgery("press: user id huge", "press", _set("member.user.id", str(HUGE)), STALE),
    ]


def sound(fake: FakeDiscord, guild: FakeGuild, kind: str, message: Payload) -> Payload:
    """A sound interaction of ``kind`` for ``forge`` to spoil: ``/character show`` of Ana, the
    autocomplete of ``/hurt``'s character, a press of the delete prompt's "no"."""
    gm = guild.owner
    if kind == "command":
        payload = fake._base_interaction(2, guild, gm, None, None)
        payload["data"] = fake.build_command_data(guild, "character show", {"character": "Ana"})
    elif kind == "autocomplete":
        payload = fake._base_interaction(4, guild, gm, None, None)
        payload["data"] = fake.build_command_data(
            guild, "hurt", {"character": "An"}, focused="character"
        )
    else:
        payload = fake._base_interaction(3, guild, gm, None, None)
        payload["message"] = copy.deepcopy(message)
        button = message["components"][0]["components"][-1]
        payload["data"] = {"custom_id": button["custom_id"], "component_type": 2}
    return payload


def problems(forgery: Forgery, reply: Reply) -> list[str]:
    if not reply.is_complete():
        return ["no answer"]
    if forgery.kind == "autocomplete":
        return [] if reply.type == 8 else [f"answered with type {reply.type}"]
    text = reply.text or "\n".join(str(m.get("content")) for m in reply.followups)
    if forgery.said is None:
        return [f"answered as an unexpected error: {text[:100]!r}"] if "went wrong" in text else []
    body = reply.body or {}
    found = []
    flags = int((body.get("data") or {}).get("flags") or 0)
    followups = reply.followups
    private = bool(flags & EPHEMERAL) or (
        reply.deferred and all(m.get("flags", 0) & EPHEMERAL for m in followups)
    )
    if not private:
        found.append(f"not ephemeral: type {reply.type} {reply.text[:100]!r}")
    if "something went wrong" in text:
        found.append(f"answered as an unexpected error: {text[:100]!r}")
    if forgery.said and forgery.said not in text:
        found.append(f"said {text[:140]!r}, not {forgery.said!r}")
    return found


async def test_forged_interactions_are_each_answered_in_one_sentence_without_a_traceback(
    tmp_path: Path,
) -> None:
    async with isolated_bot(tmp_path, name="forged") as (fake, bot):
        guild = await fake.create_guild()
        gm = guild.owner
        await create(fake, guild, gm, "Ana", 9)
        asked = await fake.slash(guild, gm, "character delete", {"character": "Ana"})
        assert asked.message is not None and asked.buttons, asked.text
        before = dump(bot.database_path)
        log_start = len(bot.log_text())

        sent: list[tuple[Forgery, Reply]] = []
        for forgery in forgeries():
            payload = sound(fake, guild, forgery.kind, asked.message)
            forgery.forge(payload)
            source = asked.message["id"] if forgery.kind == "press" else None
            reply = fake._send_interaction(payload, forgery.label, source=source)
            sent.append((forgery, reply))
        with contextlib.suppress(AssertionError):  # those left unanswered are named below
            await fake.wait_until(
                lambda: all(reply.is_complete() for _, reply in sent), 10, what="answers"
            )
        await bot.settled(*[reply for _, reply in sent], timeout=10)

        failures = [
            f"{forgery.label}: {problem}"
            for forgery, reply in sent
            for problem in problems(forgery, reply)
        ]
        log = bot.log_text()[log_start:]
        loud = [line for line in log.splitlines() if LOUD.search(line) or "Traceback" in line]
        assert not failures and not loud, (
            f"{len(failures)} of {len(sent)} forged interactions:\n"
            + "\n".join(failures)
            + "\nlogged:\n"
            + "\n".join(loud[:30])
        )
        assert len(log.splitlines()) <= len(sent), log

        # An out-of-date client's option on a change is refused, not ignored: /hurt with an
        # option it does not have hurts nobody.
        payload = fake._base_interaction(2, guild, gm, None, None)
        payload["data"] = fake.build_command_data(
            guild, "hurt", {"character": "Ana", "amount": "3"}
        )
        _add_option("armour", 4, 2)(payload)
        hurt = await fake._send_interaction(payload, "/hurt with armour").wait_complete(10)
        assert hurt.ephemeral and OUTDATED in hurt.text, hurt.text
        # Integers past SQLite's, as JSON numbers, for integer options: refused by their range.
        for huge in (HUGE, -HUGE, PAST_SQLITE):
            payload = fake._base_interaction(2, guild, gm, None, None)
            payload["data"] = fake.build_command_data(
                guild, "character create", {"name": "Zoe", "health": 5}
            )
            _option("health", huge)(payload)
            made = await fake._send_interaction(payload, f"create {huge}").wait_complete(10)
            assert made.ephemeral and "went wrong" not in made.text, made.text
        assert dump(bot.database_path) == before, "a forged interaction changed the database"
        # The bot goes on serving.
        shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
        assert shown.embed["title"] == "Ana"
