"""The refusal of a name that another character of the server has, or seems to have
(COMMANDS.md Names), shared by ``/character create`` and ``/character rename``."""

from __future__ import annotations

from bot.errors import UserFacingError
from bot.sanitize import escape
from bot.storage import Transaction
from rules.names import fold_name

__all__ = ["refuse_taken_name"]


async def refuse_taken_name(
    tx: Transaction, guild_id: int, name: str, *, renaming: int | None = None
) -> None:
    """Refuse ``name`` when another character of the guild (other than ``renaming``) has the
    same name ignoring case, accents and width, or one that looks like it (UTS #39).

    Asked inside the change's transaction, so that two creations at once cannot both pass.
    """
    other = await tx.find_lookalike(guild_id, name, other_than=renaming)
    if other is None:
        return
    shown = escape(other.name)
    if fold_name(other.name) == fold_name(name):
        raise UserFacingError("error.duplicate_name", name=shown)
    raise UserFacingError("error.lookalike_name", name=escape(name), other=shown)
