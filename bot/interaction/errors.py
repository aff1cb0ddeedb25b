"""The refusal a user reads: raised anywhere in a command, a transformer or a button, turned
into an ephemeral localised reply by the one error path (``bot.interaction.tree``)."""

from __future__ import annotations

from discord import app_commands

__all__ = ["UserFacingError"]


class UserFacingError(app_commands.AppCommandError):
    """A refusal the user should read: catalog ``key`` filled with ``params``.

    Raise it anywhere in a command, a transformer or a button callback; nothing is changed
    (raise before writing, or inside the transaction so that it rolls back).
    """

    def __init__(self, key: str, /, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(f"{key} {params!r}")
