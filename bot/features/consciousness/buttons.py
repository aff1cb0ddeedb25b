"""The Consciousness roll, shared by ``/conscious`` and the buttons that a reply carries.

A reply in which a roll falls due (``/hurt``, ``/time`` bleeding) carries a "Roll
Consciousness" button, and "Spend 1/2/3 Health" buttons where C4 allows that spend. Their
custom ids describe themselves (``salud:cons:<character_id>:<spend>:<roll>``, ``roll`` being
the number of the roll they were posted for, ``bot.features.consciousness.keeper``), so they keep
working after a restart (``bot.interaction.buttons.SaludButton``, registered when the bot starts:
``bot.features.registry``).

A press rolls only while the roll is still pending: the check and the roll happen in one
transaction, so an old button (the roll was made, the character was healed, knocked out or
killed, or a later roll fell due) gets an ephemeral refusal and never rolls twice.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import Language, text
from bot.interaction.buttons import SaludButton, button_view
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_change
from bot.interaction.subjects import note_subject
from bot.render import consciousness_roll_field, safe
from bot.render.change import change_embeds, should_announce
from bot.storage import CharacterNotFound, StoredCharacter
from bot.storage.roll_messages import roll_number
from rules.consciousness import ConsciousnessRoll, legal_spends, roll_consciousness

if TYPE_CHECKING:
    pass

__all__ = [
    "BUTTON_SPENDS",
    "ConsciousnessButton",
    "consciousness_custom_id",
    "consciousness_view",
    "perform_consciousness_roll",
    "roll_reply_embeds",
    "send_roll_reply",
]

log = logging.getLogger(__name__)

#: The spends offered as buttons beside the plain roll (when C4 allows them).
BUTTON_SPENDS = (1, 2, 3)
#: Discord: 5 rows of 5 buttons in a message.
_ROWS = 5
_PER_ROW = 5
_LABEL_LIMIT = 80


def consciousness_custom_id(character_id: int, spend: int, roll: int | None = None) -> str:
    """``salud:cons:<character_id>:<spend>:<roll>``: ``roll`` is the number of the roll the
    button was posted for (``bot.features.consciousness.keeper``); ids from before it have no
    ``:<roll>``."""
    base = f"salud:cons:{character_id}:{spend}"
    return base if roll is None else f"{base}:{roll}"


async def perform_consciousness_roll(
    here: Here, character_id: int, spend: int, *, require_pending: bool, roll: int | None = None
) -> tuple[StoredCharacter, ConsciousnessRoll]:
    """Roll for the character with the bot's dice, in one transaction recorded in the history
    (under this interaction's id: a repeated interaction applies once).

    Only the owner or a GM may roll. ``require_pending`` (a button) refuses when no roll is
    pending any more, before any die is rolled, and, given ``roll`` (the button's roll
    number), when the pending roll is a later one. The rules refuse the rest (C4, C6, H5). A
    roll that changes nothing (success, no spend, none pending) stores nothing.
    """
    async with here.change() as tx:
        current = await tx.get_character(here.guild_id, character_id)
        if current is None:
            raise CharacterNotFound(here.guild_id, character_id)
        note_subject(here.interaction, "character", current)
        here.require_owner_or_gm(current, "action.conscious")
        if require_pending:
            _require_pending(current)
            if roll is not None and await roll_number(tx, here.guild_id, character_id) != roll:
                raise UserFacingError("health.error.button_old_roll", name=safe(current.name))
        made = roll_consciousness(current.health, spend, here.dice)
        saved = current
        if made.outcome.changed:
            saved = await tx.save_health(current, made.outcome.after)
            details = {
                "roll": f"{made.die} + {made.spend} = {made.total} vs {made.difficulty}",
                "success": made.success,
            }
            await tx.record(**here.history("conscious", details))
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


class ConsciousnessButton(
    SaludButton,
    template=r"salud:cons:(?P<character_id>[0-9]{1,20}):(?P<spend>[0-9]{1,2})(?::(?P<roll>[0-9]{1,20}))?",
):
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
        saved, roll = await perform_consciousness_roll(
            here, self.character_id, self.spend, require_pending=True, roll=self.roll
        )
        await send_roll_reply(interaction, here, saved, roll)


def _label(language: Language, key: str, name: str | None, **params: object) -> str:
    label = text(language, key, **params)
    if name is not None:
        label = text(language, "health.button.named", name=name, label=label)
    return label[:_LABEL_LIMIT]


def consciousness_view(
    characters: Sequence[StoredCharacter],
    language: Language,
    rolls: Mapping[int, int] | None = None,
) -> discord.ui.View | None:
    """Buttons for every character of ``characters`` that has a roll pending, or None when
    none has.

    One character: "Roll Consciousness" and "Spend N Health" for each legal N of 1–3. Several:
    the same with the name in the roll button's label, a row each, for up to 5 characters;
    beyond 5, only the roll buttons (up to 25; the others use ``/conscious``). ``rolls``: each
    character's current roll number (``bot.features.consciousness.keeper.number_due_rolls``), which
    its buttons carry.
    """
    numbers = rolls or {}
    pending = [c for c in characters if c.health.roll_pending and not c.health.is_dead]
    if not pending:
        return None
    several = len(pending) > 1
    with_spends = len(pending) <= _ROWS
    view = button_view()
    for index, character in enumerate(pending[: _ROWS * _PER_ROW]):
        row = index if with_spends else index // _PER_ROW
        name = character.name if several else None
        roll = numbers.get(character.id)
        view.add_item(
            ConsciousnessButton(
                character.id, 0, _label(language, "health.button.roll", name), row=row, roll=roll
            )
        )
        if not with_spends:
            continue
        allowed = legal_spends(character.health)
        for spend in BUTTON_SPENDS:
            if spend in allowed:
                label = _label(language, "health.button.spend", None, points=spend)
                view.add_item(ConsciousnessButton(character.id, spend, label, row=row, roll=roll))
    return view
