"""Every persistent button, registered in one place when the bot starts
(``SaludBot.setup_hook``): a button answers whichever cog posted it, also on a message sent
before a restart, and unloading a cog never silences another's buttons."""

from __future__ import annotations

import discord

from bot.buttons import SaludButton
from bot.character_list import ListPageButton
from bot.consciousness_buttons import ConsciousnessButton
from bot.delete_confirm import DeleteButton
from bot.history_pages import HistoryPageButton
from bot.scene_status import StatusPageButton
from bot.undo_confirm import UndoButton

__all__ = ["PERSISTENT_BUTTONS", "register_buttons"]

#: Every kind of button Salud posts.
PERSISTENT_BUTTONS: tuple[type[SaludButton], ...] = (
    ConsciousnessButton,
    DeleteButton,
    ListPageButton,
    HistoryPageButton,
    UndoButton,
    StatusPageButton,
)


def register_buttons(client: discord.Client) -> None:
    """Make every kind of button answer its presses."""
    client.add_dynamic_items(*PERSISTENT_BUTTONS)
