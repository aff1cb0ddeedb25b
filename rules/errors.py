"""Refusals: typed exceptions with a stable ``code`` and the values a message needs.

The bot turns ``code`` into a localised sentence and formats ``params`` into it; the rules
never produce text for users.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["RuleError"]


class RuleError(Exception):
    """A rule forbids the action; nothing changed.

    ``code`` is stable (it names a message in the bot's catalogs); ``params`` holds the
    values that message needs, as plain ints and strings.
    """

    code: ClassVar[str] = "rule"

    def __init__(self, **params: int | str) -> None:
        self.params: dict[str, int | str] = dict(params)
        detail = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        super().__init__(f"{self.code}({detail})" if detail else self.code)
