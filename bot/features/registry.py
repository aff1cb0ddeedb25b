"""Every persistent button, registered in one place when the bot starts
(``SaludBot.setup_hook``): a button answers whichever cog posted it, also on a message sent
before a restart, and unloading a cog never silences another's buttons."""

from __future__ import annotations

import discord

from bot.features.characters.delete import DeleteButton
from bot.features.characters.listing import ListPageButton
from bot.features.help import HelpButton
from bot.features.history.pages import HistoryPageButton
from bot.features.history.undo_confirm import UndoButton
from bot.features.numbers import NumbersButton, TableNumbersButton
from bot.features.rolls.kinds import ROLL_BUTTONS
from bot.features.scene.status import StatusPageButton
from bot.interaction.buttons import SaludButton

__all__ = ["PERSISTENT_BUTTONS", "register_buttons"]

#: Every kind of button Salud posts.
PERSISTENT_BUTTONS: tuple[type[SaludButton], ...] = (
    *ROLL_BUTTONS,
    DeleteButton,
    ListPageButton,
    HistoryPageButton,
    UndoButton,
    StatusPageButton,
    HelpButton,
    NumbersButton,
    TableNumbersButton,
)


def register_buttons(client: discord.Client) -> None:
    """Make every kind of button answer its presses."""
    client.add_dynamic_items(*PERSISTENT_BUTTONS)
