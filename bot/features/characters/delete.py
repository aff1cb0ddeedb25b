"""The Delete / Cancel buttons of ``/character delete``: the question is private (only the
one who asked sees it, in their language); a deletion is said publicly, in the server's."""

from __future__ import annotations

import re

import discord

from bot.i18n import Language, text
from bot.interaction.buttons import (
    CustomId,
    SaludButton,
    button_view,
    choice,
    number,
    owned_character,
)
from bot.interaction.deferral import acknowledge
from bot.interaction.here import Here
from bot.interaction.sending import send_private, send_public, update_message
from bot.render.common import mention, safe
from bot.storage.details import CharacterDeleteDetails
from bot.storage.errors import CharacterNotFound

__all__ = ["DELETE_ID", "DeleteButton", "ask_to_delete", "delete_view"]

#: ``salud:del:<character_id>:<yes|no>``.
DELETE_ID = CustomId("del", number("character_id"), choice("answer", "yes", "no"))


class DeleteButton(SaludButton, custom_id=DELETE_ID):
    """Confirm or cancel a ``/character delete``; works after a restart (self-describing id).

    Only the character's owner or a GM may press it; the press that confirms deletes in one
    transaction recorded in the history, so ``/undo`` brings the character back.
    """

    def __init__(self, character_id: int, answer: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if answer == "yes" else discord.ButtonStyle.secondary
        custom_id = DELETE_ID.build(character_id=character_id, answer=answer)
        super().__init__(custom_id, label or answer, style=style)
        self.character_id = character_id
        self.answer = answer

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> DeleteButton:
        return cls(int(match["character_id"]), match["answer"], label)

    async def pressed(self, here: Here) -> None:
        current = await owned_character(here, self.character_id, "action.delete")
        language = here.private_language
        if self.answer != "yes":
            await update_message(
                here.interaction,
                text(language, "character.delete.cancelled", name=safe(current.name)),
            )
            return
        # Acknowledged without a message: the public reply follows up, then the private
        # question says it is done.
        await acknowledge(here.interaction)
        async with here.change() as tx:
            deleted = await tx.delete_character(here.table_id, self.character_id)
            if deleted is None:
                raise CharacterNotFound(here.table_id, self.character_id)
            await here.history(CharacterDeleteDetails(name=deleted.name)).record(tx)
        await send_public(
            here.interaction,
            text(
                here.public_language,
                "character.delete.done",
                name=safe(deleted.name),
                actor=mention(here.user_id),
            ),
        )
        await update_message(
            here.interaction, text(language, "character.delete.confirmed", name=safe(deleted.name))
        )


def delete_view(character_id: int, language: Language) -> discord.ui.View:
    """Delete / Cancel for one character, under the private question."""
    view = button_view()
    view.add_item(
        DeleteButton(character_id, "yes", text(language, "character.delete.confirm_button"))
    )
    view.add_item(
        DeleteButton(character_id, "no", text(language, "character.delete.cancel_button"))
    )
    return view


async def ask_to_delete(here: Here, character_id: int, name: str) -> None:
    """The private question of ``/character delete``, in the user's language, with its
    Delete / Cancel buttons; the press that confirms deletes and says so publicly."""
    language = here.private_language
    await send_private(
        here.interaction,
        text(language, "character.delete.question", name=safe(name)),
        view=delete_view(character_id, language),
    )
