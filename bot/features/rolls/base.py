"""One base for a roll that falls due and is made with buttons: the kind of roll as one object
(``DueRoll``), its button (``RollButton``), the owner/GM check of a press, the press's edit of
its own message, the roll's public reply and the view of every character's buttons.

A kind of roll (``bot.features.rolls.consciousness``, ``bot.features.rolls.stability``) is one
``DueRoll``: its custom id (``salud:<prefix>:<character_id>:<spend>:<number>``, ``number`` the
roll the button was posted for), the storage's ``RollKind`` its messages are kept under, how the
roll is made (``perform``, one transaction), what its reply shows (the change's embeds and the
roll's field, renderers of ``bot.render``) and whether it is announced, the words of its
buttons; and one ``RollButton`` subclass naming that id. A press, for every kind, enters its
kind once: the character from the server's name index (no wait for the storage lock), refused
unless the one who pressed is its owner or a GM; the kind's roll made in one transaction that
forgets the pressed message among those the keeper disables (``bot.features.rolls.keeper``);
then, here, the press's response edits the pressed message so that the roll's buttons show
disabled, and the roll's public reply follows as a new message (``DueRoll.reply``, which
``/conscious`` and ``/stability roll`` send too).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

import discord

from bot.i18n import Language
from bot.interaction.buttons import CustomId, SaludButton, button_view
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.limits import BUTTONS_PER_ROW, ROWS_PER_MESSAGE
from bot.render.roll_buttons import roll_label, short_names
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage.models import LightCharacter, RollKind, RollMessage, StoredCharacter

__all__ = [
    "BUTTON_SPENDS",
    "ChangeEmbeds",
    "DueRoll",
    "RollButton",
    "Rolled",
    "SendReply",
    "disable_pressed",
    "require_roller",
    "roll_view",
]

#: The spends offered as buttons beside the plain roll (where the rules allow them: C4, M7).
BUTTON_SPENDS = (1, 2, 3)


class Rolled(Protocol):
    """What a kind's roll returns beside the character saved (``ConsciousnessRoll``, ...):
    the rules' roll, with its outcome."""

    @property
    def outcome(self) -> Any: ...


Made = TypeVar("Made", bound=Rolled)


class ChangeEmbeds(Protocol):
    """The embeds of one character's change with a command's fields, for a viewer: a roll's
    reply (``bot.render.change.change_embeds``,
    ``bot.render.stability.stability_change_embeds``)."""

    def __call__(
        self,
        character: StoredCharacter,
        outcome: Any,
        language: Language,
        *,
        extra_fields: Sequence[tuple[str, str]],
        viewer: Viewer,
    ) -> list[discord.Embed]: ...


class SendReply(Protocol):
    """How a roll's public reply is sent: ``bot.features.numbers.send_screened`` (the
    ``Numbers`` button, the presser's numbers in a follow-up), which stands a level above this
    base (its buttons); each kind, above both, names it."""

    def __call__(
        self,
        here: Here,
        characters: Sequence[StoredCharacter],
        render: Callable[[Viewer, Language], Sequence[discord.Embed]],
        *,
        announce: bool,
    ) -> Awaitable[int | None]: ...


@dataclass(frozen=True)
class DueRoll(Generic[Made]):
    """One kind of roll that falls due and is made with buttons."""

    #: Its messages' kind in the storage (``bot.storage.roll_messages``).
    kind: RollKind
    #: ``salud:<prefix>:<character_id>:<spend>:<number>``.
    custom_id: CustomId
    #: The id's field holding the roll's number (``roll``, ``test``).
    number_field: str
    #: The action the owner/GM refusal names (``error.not_owner``).
    action: str
    #: The roll a press makes: the character saved, and the roll.
    perform: Callable[
        [Here, int, int, int | None, RollMessage | None],
        Awaitable[tuple[StoredCharacter, Made]],
    ]
    #: The embeds of the change a reply shows (``bot.render.change.change_embeds``, ...),
    #: and the roll's field it carries (``DIE + SPEND = TOTAL vs DIFFICULTY``, the outcome).
    change_embeds: ChangeEmbeds
    roll_field: Callable[[Made, Language], tuple[str, str]]
    #: Whether the announcement channel gets a copy of the reply, from the roll's outcome
    #: (``bot.render.change.should_announce``, ...).
    announce: Callable[[list[Any]], bool]
    #: How the reply is sent (``bot.features.numbers.send_screened``).
    send: SendReply
    #: The catalog keys of its buttons: the plain roll and a spend, each when the reply is
    #: about one character (``""``: its buttons always name their character) and when about
    #: several (``name``).
    roll_label: str
    spend_label: str
    roll_label_named: str
    spend_label_named: str
    #: The pressed message's embeds once rolled, from its embeds (None: left as they are).
    pressed_embeds: Callable[
        [Sequence[discord.Embed], StoredCharacter, Made, Language], list[discord.Embed] | None
    ] = lambda embeds, saved, made, language: None

    async def reply(self, here: Here, saved: StoredCharacter, made: Made) -> None:
        """The public reply to a roll: the change's embeds with the roll's field, in words for
        a viewer who may not see the character's numbers (announced too when ``announce``
        says so); the presser of a private character's roll gets its arithmetic in an
        ephemeral follow-up."""
        await self.send(
            here,
            [saved],
            lambda viewer, language: self.change_embeds(
                saved,
                made.outcome,
                language,
                extra_fields=[self.roll_field(made, language)],
                viewer=viewer,
            ),
            announce=self.announce([made.outcome]),
        )

    def button_id(self, character_id: int, spend: int, number: int | None) -> str:
        return self.custom_id.build(
            **{"character_id": character_id, "spend": spend, self.number_field: number}
        )

    def is_button_of(self, custom_id: str, character_id: int, number: int | None) -> bool:
        """Whether ``custom_id`` is a button of that character's roll number ``number`` (or
        one of its buttons posted before its rolls were numbered)."""
        found = self.custom_id.read(custom_id)
        if found is None or found.number("character_id") != character_id:
            return False
        posted = found.optional_number(self.number_field)
        return posted is None or number is None or posted == number


async def require_roller(here: Here, character_id: int, action: str) -> LightCharacter:
    """The character a button rolls for, from the server's name index (in memory when the
    server named a character lately: no wait for the storage), if the one who pressed is its
    owner or a GM; refused when it is gone (deleted since the button was posted)."""
    names = await here.names()
    found = next((c for c in names.characters if c.id == character_id), None)
    if found is None:
        raise UserFacingError("error.character_gone")
    here.require_owner_or_gm(found, action)
    return found


class RollButton(SaludButton):
    """A roll's button: roll for one character, spending ``spend`` (0: a plain roll), for its
    roll number ``number`` only (None: a button posted before rolls were numbered). A kind
    subclasses it once, naming its ``DueRoll`` and its id (``custom_id=``)."""

    roll_kind: ClassVar[DueRoll[Any]]

    def __init__(
        self,
        character_id: int,
        spend: int,
        number: int | None,
        label: str = "",
        *,
        row: int | None = None,
    ) -> None:
        style = discord.ButtonStyle.primary if spend == 0 else discord.ButtonStyle.secondary
        super().__init__(
            self.roll_kind.button_id(character_id, spend, number),
            label or str(spend),
            style=style,
            row=row,
        )
        self.character_id = character_id
        self.spend = spend
        self.number = number

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> Self:
        posted = match[cls.roll_kind.number_field]
        number = None if posted is None else int(posted)
        return cls.of(int(match["character_id"]), int(match["spend"]), number, label)

    @classmethod
    def of(
        cls, character_id: int, spend: int, number: int | None, label: str, row: int | None = None
    ) -> Self:
        """The button of that roll (a kind whose ``__init__`` takes its fields otherwise
        says how)."""
        return cls(character_id, spend, number, label, row=row)

    async def pressed(self, here: Here) -> None:
        kind = self.roll_kind
        here = await here.of_character(self.character_id)
        await require_roller(here, self.character_id, kind.action)
        message, channel_id = here.interaction.message, here.interaction.channel_id
        kept = None
        if message is not None and channel_id is not None:
            kept = RollMessage(
                here.table_id,
                self.character_id,
                self.number or 0,
                channel_id,
                message.id,
                kind.kind,
            )
        saved, made = await kind.perform(here, self.character_id, self.spend, self.number, kept)
        character_id, number = self.character_id, self.number
        embeds = message.embeds if message is not None else []
        await disable_pressed(
            here.interaction,
            lambda custom_id: kind.is_button_of(custom_id, character_id, number),
            kind.pressed_embeds(embeds, saved, made, here.public_language),
        )
        await kind.reply(here, saved, made)


async def disable_pressed(
    interaction: discord.Interaction[Any],
    of_the_roll: Callable[[str], bool],
    embeds: Sequence[discord.Embed] | None = None,
) -> None:
    """The response to a roll button's press: the pressed message, the buttons whose custom
    id ``of_the_roll`` says are of the roll made disabled (read from the message the
    interaction carries), and its ``embeds`` replaced when given (a Stability call saying who
    rolled); nothing else of it changes. Not a new message: the roll's reply follows up."""
    message = interaction.message
    if message is None:
        return
    view = discord.ui.View.from_message(message, timeout=None)
    changed = False
    for item in view.children:
        if (
            isinstance(item, discord.ui.Button)
            and item.custom_id is not None
            and not item.disabled
            and of_the_roll(item.custom_id)
        ):
            item.disabled = True
            changed = True
    if not changed:
        return
    view.stop()  # nothing to listen for: the buttons answer as DynamicItems (button_view)
    edits: dict[str, Any] = {"view": view}
    if embeds is not None:
        edits["embeds"] = list(embeds)
    if interaction.response.is_done():  # acknowledged while it waited (deferral.py)
        await interaction.edit_original_response(**edits)
    else:
        await interaction.response.edit_message(**edits)


def roll_view(
    button: type[RollButton],
    due: Sequence[tuple[StoredCharacter, int | None, Sequence[int]]],
    language: Language,
    *,
    named: bool,
) -> discord.ui.View | None:
    """The buttons of every roll ``due`` (a character, its roll's number, the spends the
    rules allow it), or None when none is.

    A button to roll and one for each allowed spend of 1–3 (each of 1–3 for a character whose
    numbers are private: the legal ones would tell its pool), a row per character, for up to 5
    characters; beyond 5, only the roll buttons (up to 25). ``named``: every label names its
    character (``Amelia: Roll``, ``Amelia: +1``, ``short_names``), as a reply about several
    characters needs.
    """
    if not due:
        return None
    kind = button.roll_kind
    names = short_names([character for character, _, _ in due])
    with_spends = len(due) <= ROWS_PER_MESSAGE
    view = button_view()
    for index, (character, number, allowed) in enumerate(due[: ROWS_PER_MESSAGE * BUTTONS_PER_ROW]):
        row = index if with_spends else index // BUTTONS_PER_ROW
        name = names[character.id] if named else None
        label = roll_label(language, kind.roll_label_named if named else kind.roll_label, name)
        view.add_item(button.of(character.id, 0, number, label, row))
        if not with_spends:
            continue
        # Which spends are legal would tell a private pool (C4, M7): it gets every one, and
        # a press of one the rules refuse is answered to its owner or a GM alone.
        offered = allowed if shows_numbers(character, EVERYONE) else BUTTON_SPENDS
        for spend in BUTTON_SPENDS:
            if spend in offered:
                key = kind.spend_label_named if named else kind.spend_label
                label = roll_label(language, key, name, points=spend)
                view.add_item(button.of(character.id, spend, number, label, row))
    return view
