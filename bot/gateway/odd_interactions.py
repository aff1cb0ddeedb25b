"""Interactions Discord never sends, told apart before discord.py parses them, and answered.

A forged client, an out-of-date one or a Discord bug can send an interaction whose ``data`` is
missing or ``null``, whose member has no user, whose ids are not snowflakes (or are past what
SQLite stores: ``OverflowError`` at the first query), or whose options are not a list of
options. discord.py's parser raises on some (``TypeError: 'NoneType' object is not
subscriptable``), its command tree on others, outside any handler (``Task exception was never
retrieved``), and the storage on the rest. ``odd_interaction`` looks at the shape alone, with
a few type checks (no work on the hot path that the sound interaction does not also do), and
says how to answer the odd one (``Answer``); ``bot.discord_rest.raw_answers`` answers it with one
request, by the interaction's id and token, without building anything discord.py would parse.
"""

from __future__ import annotations

from typing import Any

from bot.discord_rest.raw_answers import Answer

__all__ = ["Answer", "answerable", "odd_interaction"]

#: The largest id SQLite stores (a signed 64-bit integer); Discord's snowflakes fit in 63 bits.
LARGEST_ID = 2**63 - 1
_ANSWERS: dict[int, Answer] = {2: "command", 3: "press", 4: "autocomplete"}
_NESTING = (1, 2)


def _snowflake(value: Any) -> bool:
    return (
        isinstance(value, str)
        and 0 < len(value) <= 19
        and value.isascii()
        and value.isdigit()
        and int(value) <= LARGEST_ID
    )


def _options_sound(options: Any, depth: int = 0) -> bool:
    """A list of options, each with a name and a type (sub-commands nest, at most twice);
    left out, not ``null`` (discord.py reads a missing list as empty, ``null`` as a list)."""
    if not isinstance(options, list) or depth > 2:
        return False
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("name"), str):
            return False
        kind = option.get("type")
        if type(kind) is not int:
            return False
        if kind in _NESTING and not _options_sound(option.get("options", []), depth + 1):
            return False
    return True


def _user_sound(data: dict[str, Any]) -> bool:
    """In a server a member with a user; in a DM a user; an id SQLite can store either way."""
    if "guild_id" in data:
        member = data.get("member")
        user = member.get("user") if isinstance(member, dict) else None
    else:
        user = data.get("user")
    return isinstance(user, dict) and _snowflake(user.get("id"))


def _data_sound(kind: int, data: dict[str, Any]) -> bool:
    inner = data.get("data")
    if not isinstance(inner, dict):
        return False
    if kind == 3:
        return isinstance(inner.get("custom_id"), str) and type(inner.get("component_type")) is int
    return isinstance(inner.get("name"), str) and _options_sound(inner.get("options", []))


def odd_interaction(data: Any) -> Answer | None:
    """How to answer ``data`` (an ``INTERACTION_CREATE``) when Discord would never send it as
    it is, else None (also for what is not for Salud to answer: a type it does not take, or
    no id and token to answer by: the intake skips those)."""
    if not isinstance(data, dict):
        return None
    kind = data.get("type")
    if type(kind) is not int or kind not in _ANSWERS:
        return None
    answer = _ANSWERS[kind]
    guild_id = data.get("guild_id", "0")
    sound = (
        _snowflake(data.get("id"))
        and _snowflake(guild_id)
        and _snowflake(data.get("channel_id", "0"))
        and _user_sound(data)
        and _data_sound(kind, data)
        and (kind != 3 or isinstance(data.get("message"), dict))
    )
    return None if sound else answer


def answerable(data: Any) -> bool:
    """Whether ``data`` carries what an answer is sent by: an id and a token."""
    return (
        isinstance(data, dict)
        and isinstance(data.get("token"), str)
        and isinstance(data.get("id"), str)
        and data["id"].isascii()
        and data["id"].isdigit()
    )
