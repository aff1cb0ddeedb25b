"""How many lines of text a message takes on a phone (issue 11: "a typical /hurt ≤ 6 lines").

The count, for a captured message payload: the content's lines; per embed its title,
description, each field's name and value, and its footer; a line longer than
``PHONE_COLUMNS`` characters wraps (word by word, as Discord does) onto more lines. Inline
fields share a row (up to three): the row takes as many lines as its tallest field, each
field of it wrapping at its share of the width. Markdown markers (``**``, ``*``, ``~~``)
take no room; a ``<@id>`` or ``<t:…:R>`` counts as a short name or "3 minutes ago" does.
Buttons are not text and are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

#: Characters per line of an embed on a phone 390 px wide (Discord's 15 px body font,
#: minus the embed's margins and colour bar): measured as ~40 on the screenshots.
PHONE_COLUMNS = 40

_MARKUP = re.compile(r"\*\*|\*|~~|__|`")
_MENTION = re.compile(r"<@!?\d+>")
_TIMESTAMP = re.compile(r"<t:\d+(?::[a-zA-Z])?>")


def _visible(text: str) -> str:
    text = _MENTION.sub("@Nombre", text)
    text = _TIMESTAMP.sub("hace 3 minutos", text)
    return _MARKUP.sub("", text)


def wrapped_lines(text: str, columns: int = PHONE_COLUMNS) -> int:
    """Lines ``text`` takes when wrapped word by word at ``columns`` characters."""
    if not text:
        return 0
    total = 0
    for line in _visible(text).split("\n"):
        words = line.split(" ")
        lines, width = 1, 0
        for word in words:
            needed = len(word) if width == 0 else width + 1 + len(word)
            if needed <= columns or width == 0:
                width = needed
                while width > columns:  # a word longer than the line breaks anywhere
                    lines += 1
                    width -= columns
            else:
                lines += 1
                width = len(word)
        total += lines
    return total


def _field_lines(field: Mapping[str, Any], columns: int) -> int:
    return wrapped_lines(str(field.get("name") or ""), columns) + wrapped_lines(
        str(field.get("value") or ""), columns
    )


def embed_lines(embed: Mapping[str, Any]) -> int:
    """Lines of one embed on a phone (see the module's docstring)."""
    total = wrapped_lines(str(embed.get("title") or ""))
    total += wrapped_lines(str(embed.get("description") or ""))
    fields: Sequence[Mapping[str, Any]] = embed.get("fields") or []
    row: list[Mapping[str, Any]] = []

    def close_row() -> int:
        if not row:
            return 0
        columns = PHONE_COLUMNS // len(row)
        tallest = max(_field_lines(item, columns) for item in row)
        row.clear()
        return tallest

    for field in fields:
        if field.get("inline"):
            row.append(field)
            if len(row) == 3:
                total += close_row()
            continue
        total += close_row()
        total += _field_lines(field, PHONE_COLUMNS)
    total += close_row()
    total += wrapped_lines(str((embed.get("footer") or {}).get("text") or ""))
    return total


def message_lines(message: Mapping[str, Any] | None) -> int:
    """Lines of a whole message (content and every embed) on a phone."""
    if message is None:
        return 0
    total = wrapped_lines(str(message.get("content") or ""))
    return total + sum(embed_lines(embed) for embed in message.get("embeds") or [])
