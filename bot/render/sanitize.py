"""Text typed by users, made fit to show: the characters nobody sees taken out (one set, the
one names are refused for: ``rules.names.CONTROL_CATEGORIES``) and markdown escaped."""

from __future__ import annotations

import unicodedata

import discord

from rules.names import CONTROL_CATEGORIES

__all__ = ["escape", "has_invisible", "visible"]


def visible(text: str, *, control: str = "") -> str:
    """``text`` without control, format and surrogate characters; a control character
    (a tab, a newline) becomes ``control`` (a space keeps the words apart)."""
    return "".join(
        (control if category == "Cc" else "")
        if (category := unicodedata.category(c)) in CONTROL_CATEGORIES
        else c
        for c in text
    )


def has_invisible(text: str) -> bool:
    """Whether ``text`` holds a character that ``visible`` takes out."""
    return any(unicodedata.category(c) in CONTROL_CATEGORIES for c in text)


def escape(text: str) -> str:
    """Markdown escaped, so ``*Bob*`` shows as typed. Mentions need no escaping: every
    message is sent with ``AllowedMentions.none()``."""
    return discord.utils.escape_markdown(text)
