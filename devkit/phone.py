"""How many lines of text a message takes on a phone (issue 11: "a typical /hurt ≤ 6 lines").

The count, for a captured message payload: the content's lines; per embed its title,
description, each field's name and value, and its footer; a line longer than
``PHONE_COLUMNS`` characters wraps (word by word, as Discord does) onto more lines, a bold
character (names, field names) and a title's taking more room than a plain one, as the
README's pictures show them. Inline
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
#: How much wider than a plain character a bold one is, and a title's (bold, a size up):
#: measured on the README's pictures (``make screenshots``), where ``**Padre Tomás** ·
#: Estabilidad 7 / 7 · Sereno`` (40 characters) takes two lines and the title ``Daño 1d6 ·
#: la explosión del laboratorio`` (39) two as well. Counting every character as one
#: undercounted both: a bound on lines must not be met by lines a phone does not show.
BOLD_WIDTH = 1.05
TITLE_WIDTH = 1.2

_MARKUP = re.compile(r"\*\*|\*|~~|__|`")
_MENTION = re.compile(r"<@!?\d+>")
_TIMESTAMP = re.compile(r"<t:\d+(?::[a-zA-Z])?>")


def _visible(text: str) -> str:
    text = _MENTION.sub("@Nombre", text)
    text = _TIMESTAMP.sub("hace 3 minutos", text)
    return _MARKUP.sub("", text)


def _word_widths(line: str, weight: float) -> list[float]:
    """The width of each word of ``line`` (split at spaces), a plain character counting 1, a
    bold one (between ``**``) ``BOLD_WIDTH``, every character times ``weight``."""
    line = _TIMESTAMP.sub("hace 3 minutos", _MENTION.sub("@Nombre", line))
    widths: list[float] = []
    current: float | None = None
    for index, part in enumerate(line.split("**")):
        bold = index % 2 == 1
        each = weight * (BOLD_WIDTH if bold else 1.0)
        for char in _MARKUP.sub("", part):
            if char == " ":
                if current is not None:
                    widths.append(current)
                current = None
                continue
            current = (current or 0.0) + each
    if current is not None:
        widths.append(current)
    return widths


def wrapped_lines(text: str, columns: int = PHONE_COLUMNS, *, weight: float = 1.0) -> int:
    """Lines ``text`` takes when wrapped word by word at ``columns`` characters (a bold
    character wider, see ``BOLD_WIDTH``; ``weight``: a title's larger font)."""
    if not text:
        return 0
    total = 0
    for line in text.split("\n"):
        lines, width = 1, 0.0
        for word in _word_widths(line, weight):
            needed = word if width == 0 else width + weight + word
            if needed > columns and width > 0:
                lines += 1
                needed = word
            width = needed
            while width > columns:  # a word longer than the line breaks anywhere
                lines += 1
                width -= columns
        total += lines
    return total


def _field_lines(field: Mapping[str, Any], columns: int) -> int:
    name = str(field.get("name") or "")
    return wrapped_lines(f"**{name}**" if name else "", columns) + wrapped_lines(
        str(field.get("value") or ""), columns
    )


def embed_lines(embed: Mapping[str, Any]) -> int:
    """Lines of one embed on a phone (see the module's docstring)."""
    total = wrapped_lines(str(embed.get("title") or ""), weight=TITLE_WIDTH)
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
