"""The one base of Salud's persistent buttons.

A button's custom id says everything its press needs (``salud:<kind>:<field>:…``), so it
keeps working after a restart: discord.py matches the id against the class's ``template``
(``discord.ui.DynamicItem``) and ``from_custom_id`` rebuilds the button, its label read back
from the message. ``SaludButton`` does that once for every kind: a subclass says how its
fields become the button (``parse``) and what a press does (``pressed``); refusals and
failures go through the one error path (``bot.interaction.tree.report_error``). Every kind is
registered once, when the bot starts (``bot.features.registry``).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Self

import discord

from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.tree import report_error
from bot.render.limits import BUTTON_LABEL_LIMIT
from bot.storage import StoredCharacter

__all__ = ["PageButton", "SaludButton", "button_view", "owned_character"]


def button_view() -> discord.ui.View:
    """An empty view to put Salud's buttons in, that discord.py keeps nowhere.

    Every kind of button answers its presses as a ``DynamicItem`` registered once
    (``bot.features.registry``), so no view needs to wait for presses. A view sent while
    still listening is put in discord.py's view store, and an ephemeral message's view gets
    a 15-minute timeout task: one task per confirmation asked (issue 19.4). This one is
    stopped before it is sent, which discord.py reads as "keep nothing"."""
    view = discord.ui.View(timeout=None)
    view.stop()
    return view


class SaludButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"(?!)",  # the base matches no id: only its subclasses are registered
):
    """A persistent button: built from its custom id, pressed through ``pressed``."""

    def __init__(
        self,
        custom_id: str,
        label: str,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:BUTTON_LABEL_LIMIT],
                style=style,
                custom_id=custom_id,
                disabled=disabled,
            ),
            row=row,
        )

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        """The button a matched custom id describes, with the label it was shown with."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls.parse(match, label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            await self.pressed(interaction, await Here.of(interaction))
        except Exception as error:
            await report_error(interaction, error)

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        """What a press does; raise to refuse (nothing changed)."""
        raise NotImplementedError


class PageButton(SaludButton, template=r"(?!)"):
    """◀ or ▶ of a paged reply (``<prefix>:<page>``); anyone may press it (anyone may look)
    and the page is read afresh."""

    #: The custom id before the page number, e.g. ``salud:page:list``.
    prefix: ClassVar[str]

    def __init__(self, page: int, label: str = "", *, disabled: bool = False) -> None:
        super().__init__(f"{self.prefix}:{max(page, 0)}", label or str(page), disabled=disabled)
        self.page = page

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        return cls(int(match["page"]), label)


async def owned_character(here: Here, character_id: int, action_key: str) -> StoredCharacter:
    """The character a button is about, if the one who pressed is its owner or a GM; refuses
    when it is gone (deleted since the button was posted) or someone else's."""
    async with here.read() as reader:
        current = await reader.get_character(here.guild_id, character_id)
    if current is None:
        raise UserFacingError("error.character_gone")
    here.require_owner_or_gm(current, action_key)
    return current
