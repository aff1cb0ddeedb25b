"""Private numbers, the Keeper's screen (COMMANDS.md "Private numbers"): the ``numbers``
option, the ``Numbers`` / ``Ver números`` button of every public message that leaves numbers
out, and the numbers sent privately to the member who used the command.

What a viewer may see is decided in one place, ``bot.render.visibility``; this module only
carries it to Discord. A button's id names the characters of its message (``salud:num:``
and up to four ids, ``-`` between them), or its table when the message is a list of the table
(``salud:numt:<table>``: every private character of the table, read afresh); it keeps working
after a restart. A GM who presses it sees every private character it names, an owner their
own, anyone else an ephemeral refusal that says who may see them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Self

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.i18n import Language, text
from bot.interaction.buttons import (
    LARGEST_NUMBER,
    CustomId,
    IdField,
    SaludButton,
    at_most,
    button_view,
    number,
)
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.mentions import PlayerCall
from bot.interaction.sending import RollButtons, keep_roll_buttons, send_change, send_private
from bot.render.common import join_words, safe
from bot.render.limits import EMBEDS_PER_MESSAGE
from bot.render.status import status_embed
from bot.render.visibility import EVERYONE, Screened, Viewer, hidden_from, shows_numbers
from bot.storage.models import Numbers, StoredCharacter

__all__ = [
    "IDS_A_BUTTON",
    "NUMBERS_CHOICES",
    "NumbersButton",
    "TableNumbersButton",
    "numbers_of",
    "numbers_view",
    "send_numbers",
    "send_screened",
    "table_numbers_view",
    "viewer_of",
]

#: ``numbers`` of ``/character create|set``, ``/table create`` and ``/table numbers``.
NUMBERS_CHOICES = [
    app_commands.Choice(name=_("shown to everyone", key="cmd.numbers.shown"), value="shown"),
    app_commands.Choice(
        name=_("private: their player and the GMs", key="cmd.numbers.private"), value="private"
    ),
]

#: The row the button goes on, under any other buttons of the message (Discord's fifth).
LAST_ROW = 4
#: Character ids a button's id holds (Discord's 100 characters: four ids of 19 digits).
IDS_A_BUTTON = 4
_ID = at_most(LARGEST_NUMBER)
NUMBERS_ID = CustomId("num", IdField("ids", f"{_ID}(?:-{_ID}){{0,{IDS_A_BUTTON - 1}}}"))
TABLE_NUMBERS_ID = CustomId("numt", number("table_id"))


def numbers_of(choice: app_commands.Choice[str] | None) -> Numbers | None:
    """The setting a ``numbers`` choice names (None: not given)."""
    if choice is None:
        return None
    try:
        return Numbers(choice.value)
    except ValueError:
        raise UserFacingError("error.bad_option", value=safe(str(choice.value))) from None


def viewer_of(here: Here) -> Viewer:
    """The member an interaction answers privately, as the policy sees them."""
    return Viewer.member(here.user_id, is_gm=here.is_gm)


def _label(here: Here) -> str:
    return text(here.public_language, "numbers.button")


def numbers_view(
    here: Here,
    characters: Sequence[StoredCharacter],
    view: discord.ui.View | None = None,
) -> discord.ui.View | None:
    """``view`` with the ``Numbers`` button when some of ``characters`` have numbers the
    table does not see (the button names the first four; a message about more names its
    table); ``view`` as it was otherwise."""
    return _screen_view(here, hidden_from(characters, EVERYONE), view)


def _screen_view(
    here: Here, hidden: Sequence[StoredCharacter], view: discord.ui.View | None
) -> discord.ui.View | None:
    """``view`` with the ``Numbers`` button for the ``hidden`` characters, if any."""
    if not hidden:
        return view
    if len(hidden) > IDS_A_BUTTON:
        button: SaludButton = TableNumbersButton(here.table_id, _label(here))
    else:
        button = NumbersButton(tuple(c.id for c in hidden), _label(here))
    return _with_last(view, button)


def _with_last(view: discord.ui.View | None, button: SaludButton) -> discord.ui.View:
    """``view`` with ``button`` on its last row (where its other buttons leave room)."""
    chosen = view if view is not None else button_view()
    for row in (LAST_ROW, None):
        try:
            chosen.add_item(button if row is None else _on_row(button, row))
        except ValueError:  # that row is full
            continue
        break
    return chosen


def _on_row(button: SaludButton, row: int) -> SaludButton:
    button.row = row
    return button


def table_numbers_view(
    here: Here,
    characters: Sequence[Screened],
    view: discord.ui.View | None = None,
) -> discord.ui.View | None:
    """``view`` with the ``Numbers`` button of the whole table (a list, the tracker), when
    some of ``characters`` have private numbers."""
    if not hidden_from(characters, EVERYONE):
        return view
    return _with_last(view, TableNumbersButton(here.table_id, _label(here)))


async def send_numbers(
    here: Here,
    characters: Sequence[StoredCharacter],
    *,
    refuse: bool = False,
) -> bool:
    """Send the member the status of every character of ``characters`` whose numbers the
    table does not see and they may (ephemeral, in full); ``refuse``: when they may see none
    of them, an ephemeral refusal that says who may (a press of the button). Returns whether
    anything was sent."""
    hidden = hidden_from(characters, EVERYONE)
    viewer = viewer_of(here)
    visible = [c for c in hidden if shows_numbers(c, viewer)]
    language = here.private_language
    if not visible:
        if refuse and hidden:
            names = join_words(language, [f"**{safe(c.name)}**" for c in hidden])
            players = len({c.owner_id for c in hidden})
            key = "numbers.refused" if players == 1 else "numbers.refused.players"
            raise UserFacingError(key, names=names)
        if refuse:
            raise UserFacingError("error.stale_button")
        return False
    embeds = [status_embed(character, language, viewer) for character in visible]
    for start in range(0, len(embeds), EMBEDS_PER_MESSAGE):
        await send_private(here.interaction, embeds=embeds[start : start + EMBEDS_PER_MESSAGE])
    return True


#: A reply rendered for a viewer (``bot.render.visibility``) in a language: the same call
#: gives the public payload (for ``EVERYONE``, in the server's language) and the one its
#: member sees privately (in theirs).
Render = Callable[[Viewer, Language], Sequence[discord.Embed]]


async def send_screened(
    here: Here,
    characters: Sequence[StoredCharacter],
    render: Render,
    *,
    announce: bool,
    view: discord.ui.View | None = None,
    call: PlayerCall | None = None,
    content: str | None = None,
    buttons: RollButtons | None = None,
) -> int | None:
    """The public reply to a change (``send_change``), rendered for everyone; when it
    leaves out some of ``characters``' numbers, it carries the ``Numbers`` button and the
    member who used the command, if they may see them, gets the reply with its numbers in
    an ephemeral follow-up. ``buttons``: what the roll buttons of ``view`` are for; the
    public message is kept for them last (``keep_roll_buttons``). Rendered first, for each
    viewer, then sent: the public message, the follow-up, the buttons kept. Returns the public
    message's id."""
    hidden = hidden_from(characters, EVERYONE)
    viewer = viewer_of(here)
    public = render(EVERYONE, here.public_language)
    private = None
    if any(shows_numbers(character, viewer) for character in hidden):
        private = render(viewer, here.private_language)
    message_id = await send_change(
        here.interaction,
        public,
        announce=announce,
        here=here,
        content=content,
        view=_screen_view(here, hidden, view),
        call=call,
        copy_view=_screen_view(here, hidden, None),  # the announcement's copy: no roll button
    )
    if private is not None:
        await send_private(
            here.interaction, text(here.private_language, "numbers.followup"), embeds=private
        )
    if buttons is not None:
        await keep_roll_buttons(here, message_id, buttons)
    return message_id


class NumbersButton(SaludButton, custom_id=NUMBERS_ID):
    """``Numbers`` / ``Ver números`` under a message about up to four private characters."""

    def __init__(self, character_ids: tuple[int, ...], label: str = "") -> None:
        ids = "-".join(str(character_id) for character_id in character_ids)
        super().__init__(self.id_format.build(ids=ids), label or "#")
        self.character_ids = character_ids

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        return cls(tuple(int(part) for part in match["ids"].split("-")), label)

    async def pressed(self, here: Here) -> None:
        found: list[StoredCharacter] = []
        answering = here
        for character_id in self.character_ids:
            at = await here.of_character(character_id)
            async with at.read() as reader:
                current = await reader.get_character(at.table_id, character_id)
            if current is not None:
                found.append(current)
                answering = at
        await send_numbers(answering, found, refuse=True)


class TableNumbersButton(SaludButton, custom_id=TABLE_NUMBERS_ID):
    """``Numbers`` / ``Ver números`` under a list of a table (``/scene status``, the
    tracker, ``/character list``, ``/history``): the table's private characters, read now."""

    def __init__(self, table_id: int, label: str = "") -> None:
        super().__init__(self.id_format.build(table_id=table_id), label or "#")
        self.table_id = table_id

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        return cls(int(match["table_id"]), label)

    async def pressed(self, here: Here) -> None:
        table = here.storage.tables.get(here.server_id, self.table_id)
        if table is None:
            raise UserFacingError("error.stale_button")
        at = here if table.id == here.table_id else here.at_table(table)
        names = await at.names()
        private = [c.id for c in names.characters if c.numbers is Numbers.PRIVATE]
        async with at.read() as reader:
            found = await reader.get_characters(at.table_id, private)
        await send_numbers(at, [found[i] for i in private if i in found], refuse=True)
