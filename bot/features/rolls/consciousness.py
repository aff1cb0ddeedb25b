"""The Consciousness roll, shared by ``/conscious`` and the buttons that a reply carries.

A reply in which a roll falls due (``/hurt``, ``/time`` bleeding) carries a "Roll
Consciousness" button, and "Spend 1/2/3 Health" buttons where C4 allows that spend (all
three for a character whose numbers are private). Their
custom ids describe themselves (``salud:cons:<character_id>:<spend>:<roll>``, ``roll`` being
the number of the roll they were posted for, ``bot.features.rolls.keeper``), so they keep
working after a restart (``bot.interaction.buttons.SaludButton``, registered when the bot starts:
``bot.features.registry``).

A press rolls only while the roll is still pending: the check and the roll happen in one
transaction, so an old button (the roll was made, the character was healed, knocked out or
killed, or a later roll fell due) gets an ephemeral refusal and never rolls twice.

A press goes as every roll button's does (``bot.features.rolls.base``): the owner or a GM
only, checked once before the storage lock; the roll made here (``perform``); its response
disables the pressed message's buttons of that roll, the roll's public reply follows
(``CONSCIOUSNESS.reply``: ``bot.render.change.change_embeds`` with the roll's field), and the
keeper disables only the other messages that carried that roll
(``bot.features.rolls.keeper``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self

import discord

from bot.features.numbers import send_screened
from bot.features.rolls.base import DueRoll, RollButton, roll_view
from bot.i18n import Language
from bot.interaction.buttons import CustomId, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.change import change_embeds, should_announce
from bot.render.common import safe
from bot.render.rolls import consciousness_roll_field
from bot.storage.details import ConsciousDetails, RollNumbers
from bot.storage.models import RollKind, RollMessage, StoredCharacter
from bot.storage.roll_messages import forget_roll_messages, roll_number
from rules.consciousness import ConsciousnessRoll, legal_spends, roll_consciousness

__all__ = [
    "CONSCIOUSNESS",
    "CONSCIOUSNESS_ID",
    "ConsciousnessButton",
    "consciousness_view",
    "perform_consciousness_roll",
]

#: ``salud:cons:<character_id>:<spend>:<roll>``: ``roll`` is the number of the roll the
#: button was posted for (``bot.features.rolls.keeper``, which reads these ids back to
#: disable old buttons); ids from before it have no ``:<roll>``.
CONSCIOUSNESS_ID = CustomId(
    "cons", number("character_id"), number("spend", 2), number("roll", optional=True)
)


async def perform_consciousness_roll(
    here: Here,
    character_id: int,
    spend: int,
    *,
    require_pending: bool,
    roll: int | None = None,
    pressed: RollMessage | None = None,
) -> tuple[StoredCharacter, ConsciousnessRoll]:
    """Roll for the character with the bot's dice, in one transaction recorded in the history
    (under this interaction's id: a repeated interaction applies once).

    Only the owner or a GM may roll: the caller checks it, once, before the storage lock
    (the character an option named, or ``require_roller``). ``require_pending`` (a button)
    refuses when no roll is pending any more, before any die is rolled, and, given ``roll``
    (the button's roll number), when the pending roll is a later one. The rules refuse the
    rest (C4, C6, H5). A roll that changes nothing (success, no spend, none pending) stores
    nothing. ``pressed``: the message whose button was pressed, no longer kept among those
    the keeper disables (the press's response does it).
    """
    async with here.change() as tx:
        current = await here.character_in(tx, character_id)
        if require_pending:
            _require_pending(current)
            if roll is not None and await roll_number(tx, here.table_id, character_id) != roll:
                raise UserFacingError("health.error.button_old_roll", name=safe(current.name))
        made = roll_consciousness(current.health, spend, here.dice, stability=current.stability)
        saved = current
        if made.outcome.changed:
            saved = await tx.save_health(current, made.outcome.after)
            if pressed is not None:
                await forget_roll_messages(tx, [pressed])
            numbers = RollNumbers(made.die, made.spend, made.total, made.difficulty)
            details = ConsciousDetails(roll=numbers, success=made.success)
            await here.history(details).record(tx)
    return saved, made


def _require_pending(character: StoredCharacter) -> None:
    """A button rolls only a roll that is still pending; say why not otherwise."""
    health = character.health
    if health.roll_pending:
        return
    name = safe(character.name)
    if health.is_dead:
        raise UserFacingError("health.error.button_dead", name=name)
    if not health.conscious:
        raise UserFacingError("health.error.button_unconscious", name=name)
    raise UserFacingError("health.error.no_roll_pending", name=name)


async def _pressed_roll(
    here: Here, character_id: int, spend: int, roll: int | None, pressed: RollMessage | None
) -> tuple[StoredCharacter, ConsciousnessRoll]:
    return await perform_consciousness_roll(
        here, character_id, spend, require_pending=True, roll=roll, pressed=pressed
    )


#: The Consciousness roll as a kind of roll made with buttons.
CONSCIOUSNESS: DueRoll[ConsciousnessRoll] = DueRoll(
    kind=RollKind.CONSCIOUSNESS,
    custom_id=CONSCIOUSNESS_ID,
    number_field="roll",
    action="action.conscious",
    perform=_pressed_roll,
    change_embeds=change_embeds,
    roll_field=consciousness_roll_field,
    announce=should_announce,
    send=send_screened,
    roll_label="health.button.roll",
    spend_label="health.button.spend",
    roll_label_named="health.button.roll_of",
    spend_label_named="health.button.spend_of",
)


class ConsciousnessButton(RollButton, custom_id=CONSCIOUSNESS_ID):
    """Roll Consciousness for one character, spending ``spend`` Health (0: a plain roll), for
    its roll number ``roll`` only (None: a button posted before rolls were numbered)."""

    roll_kind = CONSCIOUSNESS

    def __init__(
        self,
        character_id: int,
        spend: int,
        label: str = "",
        *,
        row: int | None = None,
        roll: int | None = None,
    ) -> None:
        super().__init__(character_id, spend, roll, label, row=row)

    @property
    def roll(self) -> int | None:
        return self.number

    @classmethod
    def of(
        cls, character_id: int, spend: int, number: int | None, label: str, row: int | None = None
    ) -> Self:
        return cls(character_id, spend, label, row=row, roll=number)


def consciousness_view(
    characters: Sequence[StoredCharacter],
    language: Language,
    rolls: Mapping[int, int] | None = None,
    *,
    named: bool | None = None,
) -> discord.ui.View | None:
    """Buttons for every character of ``characters`` that has a roll pending, or None when none has
    (``bot.features.rolls.base.roll_view``).

    A reply about one character: "Roll Consciousness" and "Spend N Health" for each legal N of
    1–3 (each N for a character whose numbers are private: the rules refuse the others to its
    owner or a GM alone). About several (even when one of them has a roll pending): every button
    names its character (``Amelia: Roll``, ``Amelia: +1``), a row each, for up to 5 characters;
    beyond 5, only the roll buttons (up to 25; the others use ``/conscious``). ``rolls``: each
    character's current roll number (``bot.storage.roll_messages.number_due_rolls``), which its
    buttons carry. ``named``: whether the reply is about several characters, when more than
    ``characters`` (``/time`` gives buttons only to those whose roll fell due).
    """
    numbers = rolls or {}
    due = [
        (character, numbers.get(character.id), legal_spends(character.health))
        for character in characters
        if character.health.roll_pending and not character.health.is_dead
    ]
    several = len(characters) > 1 if named is None else named
    return roll_view(ConsciousnessButton, due, language, named=several)
