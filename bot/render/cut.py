"""Cutting a text to a length, once for every reply: what does not fit ends in an ellipsis
(an embed's description or field, a line of ``/history``, a name in a button's label)."""

from __future__ import annotations

__all__ = ["ELLIPSIS", "cut"]

#: What stands for the text cut off.
ELLIPSIS = "…"


def cut(text: str, limit: int) -> str:
    """``text`` as it is when it fits in ``limit`` characters (``limit`` at least 1), else its
    first ``limit - 1`` characters and ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS
