"""The Consciousness roll, shared by ``/conscious`` and the buttons that a reply carries.

A reply in which a roll falls due (``/hurt``, ``/time`` bleeding) carries a "Roll
Consciousness" button, and "Spend 1/2/3 Health" buttons where C4 allows that spend. Their
custom ids describe themselves (``salud:cons:<character_id>:<spend>:<roll>``, ``roll`` being
the number of the roll they were posted for, ``bot.features.rolls.keeper``), so they keep
working after a restart (``bot.interaction.buttons.SaludButton``, registered when the bot starts:
``bot.features.registry``).

A press rolls only while the roll is still pending: the check and the roll happen in one
transaction, so an old button (the roll was made, the character was healed, knocked out or
killed, or a later roll fell due) gets an ephemeral refusal and never rolls twice.

A press is checked against the owner once, before the storage lock (the server's name
index knows each character's owner); its transaction rolls and forgets the pressed message
among those carrying the roll's buttons; its response edits the pressed message so that
the roll's buttons show disabled (computed from the message the interaction carries); the
roll's public reply follows as a new message. The keeper then disables only the other
messages that carried that roll (``bot.features.rolls.keeper``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord

from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_change
from bot.interaction.subjects import note_subject
from bot.render import consciousness_roll_field, safe
from bot.render.calls import short_names as short_call_names
from bot.render.change import change_embeds, should_announce
from bot.render.limits import BUTTON_LABEL_LIMIT, BUTTONS_PER_ROW, ROWS_PER_MESSAGE
from bot.storage import CharacterNotFound, LightCharacter, StoredCharacter
from bot.storage.details import ConsciousDetails
from bot.storage.roll_messages import RollMessage, forget_roll_messages, roll_number
from rules.consciousness import ConsciousnessRoll, legal_spends, roll_consciousness

__all__ = [
    "BUTTON_SPENDS",
    "CONSCIOUSNESS_ID",
    "ConsciousnessButton",
    "consciousness_custom_id",
    "consciousness_view",
    "disable_pressed",
    "is_button_of",
    "perform_consciousness_roll",
    "require_roller",
    "roll_reply_embeds",
    "safe_label",
    "send_roll_reply",
    "short_names",
]


#: The spends offered as buttons beside the plain roll (when C4 allows them).
BUTTON_SPENDS = (1, 2, 3)

#: ``salud:cons:<character_id>:<spend>:<roll>``: ``roll`` is the number of the roll the
#: button was posted for (``bot.features.rolls.keeper``, which reads these ids back
#: to disable old buttons); ids from before it have no ``:<roll>``.
CONSCIOUSNESS_ID = CustomId(
    "cons", number("character_id"), number("spend", 2), number("roll", optional=True)
)
#: A name in a label leaves room for ": Roll" / ": +3".
_NAME_IN_LABEL = 60


def is_button_of(custom_id: str, character_id: int, roll: int | None) -> bool:
    """Whether ``custom_id`` is a button of that character's roll number ``roll`` (or one of
    its buttons posted before rolls were numbered)."""
    found = CONSCIOUSNESS_ID.read(custom_id)
    if found is None or int(str(found["character_id"])) != character_id:
        return False
    return found["roll"] is None or roll is None or int(found["roll"]) == roll


def consciousness_custom_id(character_id: int, spend: int, roll: int | None = None) -> str:
    """The id of one Consciousness button (``CONSCIOUSNESS_ID``)."""
    return CONSCIOUSNESS_ID.build(character_id=character_id, spend=spend, roll=roll)


async def require_roller(here: Here, character_id: int) -> LightCharacter:
    """The character a button rolls for, from the server's name index (in memory when the
    server named a character lately: no wait for the storage), if the one who pressed is its
    owner or a GM; refused when it is gone (deleted since the button was posted)."""
    names = await here.names()
    found = next((c for c in names.characters if c.id == character_id), None)
    if found is None:
        raise UserFacingError("error.character_gone")
    here.require_owner_or_gm(found, "action.conscious")
    return found


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
        current = await tx.get_character(here.table_id, character_id)
        if current is None:
            raise CharacterNotFound(here.table_id, character_id)
        note_subject(here.interaction, "character", current)
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
            arithmetic = f"{made.die} + {made.spend} = {made.total} vs {made.difficulty}"
            details = ConsciousDetails(roll=arithmetic, success=made.success)
            await tx.record(**here.history(details))
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


def roll_reply_embeds(
    character: StoredCharacter, roll: ConsciousnessRoll, language: Language
) -> list[discord.Embed]:
    """The status embed after the roll, with the roll's field (``DIE + SPEND = TOTAL vs
    DIFFICULTY`` and the outcome in words) and the events."""
    return change_embeds(
        character,
        roll.outcome,
        language,
        extra_fields=[consciousness_roll_field(roll, language)],
    )


async def send_roll_reply(
    interaction: discord.Interaction[Any],
    here: Here,
    character: StoredCharacter,
    roll: ConsciousnessRoll,
) -> None:
    """The public reply to a roll (announced too when the character was knocked out or
    changed state)."""
    await send_change(
        interaction,
        roll_reply_embeds(character, roll, here.public_language),
        announce=should_announce([roll.outcome]),
        here=here,
    )


class ConsciousnessButton(SaludButton, custom_id=CONSCIOUSNESS_ID):
    """Roll Consciousness for one character, spending ``spend`` Health (0: a plain roll), for
    its roll number ``roll`` only (None: a button posted before rolls were numbered)."""

    def __init__(
        self,
        character_id: int,
        spend: int,
        label: str = "",
        *,
        row: int | None = None,
        roll: int | None = None,
    ) -> None:
        style = discord.ButtonStyle.primary if spend == 0 else discord.ButtonStyle.secondary
        super().__init__(
            consciousness_custom_id(character_id, spend, roll),
            label or str(spend),
            style=style,
            row=row,
        )
        self.character_id = character_id
        self.spend = spend
        self.roll = roll

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> ConsciousnessButton:
        roll = None if match["roll"] is None else int(match["roll"])
        return cls(int(match["character_id"]), int(match["spend"]), label, roll=roll)

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        here = await here.of_character(self.character_id)
        await require_roller(here, self.character_id)
        message, channel_id = interaction.message, interaction.channel_id
        kept = None
        if message is not None and channel_id is not None:
            kept = RollMessage(
                here.table_id, self.character_id, self.roll or 0, channel_id, message.id
            )
        saved, roll = await perform_consciousness_roll(
            here, self.character_id, self.spend, require_pending=True, roll=self.roll, pressed=kept
        )
        await _disable_pressed(interaction, self.character_id, self.roll)
        await send_roll_reply(interaction, here, saved, roll)


async def _disable_pressed(
    interaction: discord.Interaction[Any], character_id: int, roll: int | None
) -> None:
    """The press's response: the pressed message, its buttons of that roll disabled."""
    await disable_pressed(
        interaction, lambda custom_id: is_button_of(custom_id, character_id, roll)
    )


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


def short_names(characters: Sequence[StoredCharacter]) -> dict[int, str]:
    """What a button calls each character when one message carries several characters'
    buttons (COMMANDS.md: ``Amelia: Roll``): ``bot.render.calls.short_names``, by id."""
    shown = short_call_names([character.name for character in characters])
    return {character.id: name for character, name in zip(characters, shown, strict=True)}


def _label(text_: str) -> str:
    return text_[:BUTTON_LABEL_LIMIT]


def consciousness_view(
    characters: Sequence[StoredCharacter],
    language: Language,
    rolls: Mapping[int, int] | None = None,
    *,
    named: bool | None = None,
) -> discord.ui.View | None:
    """Buttons for every character of ``characters`` that has a roll pending, or None when
    none has.

    A reply about one character: "Roll Consciousness" and "Spend N Health" for each legal N
    of 1–3. About several (even when one of them has a roll pending): every button names its
    character (``Amelia: Roll``, ``Amelia: +1``, ``bot.features.
    consciousness.buttons.short_names``), a row each, for up to 5 characters; beyond 5, only
    the roll buttons (up to 25; the others use ``/conscious``). ``rolls``: each character's
    current roll number (``bot.storage.roll_messages.number_due_rolls``), which its
    buttons carry. ``named``: whether the reply is about several characters, when more than
    ``characters`` (``/time`` gives buttons only to those whose roll fell due).
    """
    numbers = rolls or {}
    pending = [c for c in characters if c.health.roll_pending and not c.health.is_dead]
    if not pending:
        return None
    several = len(characters) > 1 if named is None else named
    names = short_names(pending)
    with_spends = len(pending) <= ROWS_PER_MESSAGE
    view = button_view()
    for index, character in enumerate(pending[: ROWS_PER_MESSAGE * BUTTONS_PER_ROW]):
        row = index if with_spends else index // BUTTONS_PER_ROW
        name = safe_label(names[character.id])
        roll = numbers.get(character.id)
        label = (
            text(language, "health.button.roll_of", name=name)
            if several
            else text(language, "health.button.roll")
        )
        view.add_item(ConsciousnessButton(character.id, 0, _label(label), row=row, roll=roll))
        if not with_spends:
            continue
        allowed = legal_spends(character.health)
        for spend in BUTTON_SPENDS:
            if spend in allowed:
                label = (
                    text(language, "health.button.spend_of", name=name, points=spend)
                    if several
                    else text(language, "health.button.spend", points=spend)
                )
                view.add_item(
                    ConsciousnessButton(character.id, spend, _label(label), row=row, roll=roll)
                )
    return view


def safe_label(name: str) -> str:
    """A name in a button's label: labels show no markdown, so it is shown as typed; a name
    longer than the label allows is cut so that the action still shows."""
    return name if len(name) <= _NAME_IN_LABEL else name[: _NAME_IN_LABEL - 1] + "…"
