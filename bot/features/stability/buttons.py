"""The Stability test's roll, shared by ``/stability roll`` and the buttons a call carries.

A ``/stability test`` reply carries, for each character called, a button to roll and
buttons to roll spending 1, 2 or 3 Stability where M7 allows that spend; every label names
its character (``Amelia: Tirar``, ``Amelia: +1``). Their custom ids describe themselves
(``salud:stab:<character_id>:<spend>:<test>``, ``test`` the number of the test they were
posted for: ``bot.storage.roll_messages``, ``RollKind.STABILITY_TEST``), so they keep working
after a restart (``bot.interaction.buttons.SaludButton``, registered once:
``bot.features.registry``).

A press rolls only the test it was posted for, while it is still due: the check and the roll
happen in one transaction, so a button of a test rolled, replaced by a later call, cleared
(insanity) or brought back by an undo gets an ephemeral refusal and never rolls twice. As
the Consciousness button does (``bot.features.consciousness.buttons``), the press's response
edits the pressed message so that that character's buttons show disabled, the roll's public
reply follows, and the keeper disables the other messages that carried the test.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.features.consciousness.buttons import disable_pressed, safe_label, short_names
from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_change
from bot.interaction.subjects import note_subject
from bot.render import safe
from bot.render.limits import BUTTON_LABEL_LIMIT
from bot.render.stability import stability_announce, stability_change_embeds, stability_roll_field
from bot.storage import CharacterNotFound, StoredCharacter
from bot.storage.details import StabilityRollDetails
from bot.storage.roll_messages import RollKind, RollMessage, forget_roll_messages, roll_number
from rules.errors import IncurablyInsane
from rules.stability import legal_stability_spends
from rules.stability_test import StabilityTestRoll, roll_stability_test

__all__ = [
    "BUTTON_SPENDS",
    "STABILITY_TEST_ID",
    "StabilityTestButton",
    "perform_stability_roll",
    "send_stability_roll",
    "stability_test_view",
]

#: The spends offered as buttons beside the plain roll (when M7 allows them).
BUTTON_SPENDS = (1, 2, 3)

#: ``salud:stab:<character_id>:<spend>:<test>``: ``test`` is the number of the Stability test
#: the button was posted for (the keeper reads these ids back to disable old ones).
STABILITY_TEST_ID = CustomId("stab", number("character_id"), number("spend", 2), number("test"))


def is_test_button_of(custom_id: str, character_id: int, test: int) -> bool:
    """Whether ``custom_id`` is a button of that character's Stability test number ``test``."""
    found = STABILITY_TEST_ID.read(custom_id)
    return (
        found is not None
        and int(str(found["character_id"])) == character_id
        and int(str(found["test"])) == test
    )


async def perform_stability_roll(
    here: Here,
    character_id: int,
    spend: int,
    *,
    test: int | None = None,
    pressed: RollMessage | None = None,
) -> tuple[StoredCharacter, StabilityTestRoll]:
    """Roll the character's due Stability test with the bot's dice, in one transaction
    recorded in the history (under this interaction's id: a repeated interaction applies
    once). Who may roll is the caller's check, once, before the storage lock.

    ``test`` (a button): refused unless the test due is that one, before any die is rolled;
    the rules refuse the rest (no test due, M7, dead, unconscious, insane). ``pressed``: the
    message whose button was pressed, no longer kept among those the keeper disables.
    """
    async with here.change() as tx:
        current = await tx.get_character(here.table_id, character_id)
        if current is None:
            raise CharacterNotFound(here.table_id, character_id)
        note_subject(here.interaction, "character", current)
        if test is not None:
            _require_due(current)
            number_now = await roll_number(
                tx, here.table_id, character_id, kind=RollKind.STABILITY_TEST
            )
            if number_now != test:
                raise UserFacingError("stability.error.button_old_test", name=safe(current.name))
        made = roll_stability_test(current.health, current.stability, spend, here.dice)
        saved = await tx.save_stability(current, made.outcome.after)
        if pressed is not None:
            await forget_roll_messages(tx, [pressed])
        details = StabilityRollDetails(
            roll=f"{made.die} + {made.spend} = {made.total} vs {made.difficulty}",
            success=made.success,
            loss=made.loss,
            lost=made.lost,
        )
        await tx.record(**here.history(details))
    return saved, made


def _require_due(character: StoredCharacter) -> None:
    """A button rolls only a test that is still due; say why not otherwise."""
    stability = character.stability
    if stability is not None and stability.due_test is not None:
        return
    if stability is not None and stability.is_insane:
        raise IncurablyInsane()  # M4: its test was cleared
    raise UserFacingError("stability.error.button_no_test", name=safe(character.name))


def roll_embeds(
    character: StoredCharacter, roll: StabilityTestRoll, language: Language
) -> list[discord.Embed]:
    """The reply to a roll: Stability before → after with the state, the roll's field
    (``DIE + SPEND = TOTAL vs DIFFICULTY`` with its breakdown, the outcome), a mental illness
    in words; incurable insanity in its own embed."""
    return stability_change_embeds(
        character, roll.outcome, language, extra_fields=[stability_roll_field(roll, language)]
    )


async def send_stability_roll(
    interaction: discord.Interaction[Any],
    here: Here,
    character: StoredCharacter,
    roll: StabilityTestRoll,
) -> None:
    """The public reply to a roll (announced too when its state changed, it acquired a
    mental illness or went insane)."""
    await send_change(
        interaction,
        roll_embeds(character, roll, here.public_language),
        announce=stability_announce([roll.outcome]),
        here=here,
    )


class StabilityTestButton(SaludButton, custom_id=STABILITY_TEST_ID):
    """Roll one character's Stability test number ``test``, spending ``spend`` Stability."""

    def __init__(
        self, character_id: int, spend: int, test: int, label: str = "", *, row: int | None = None
    ) -> None:
        style = discord.ButtonStyle.primary if spend == 0 else discord.ButtonStyle.secondary
        custom_id = STABILITY_TEST_ID.build(character_id=character_id, spend=spend, test=test)
        super().__init__(custom_id, label or str(spend), style=style, row=row)
        self.character_id = character_id
        self.spend = spend
        self.test = test

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> StabilityTestButton:
        return cls(int(match["character_id"]), int(match["spend"]), int(match["test"]), label)

    async def pressed(self, interaction: discord.Interaction[Any], here: Here) -> None:
        here = await here.of_character(self.character_id)
        names = await here.names()  # the owner from the name index: no wait for the storage
        found = next((c for c in names.characters if c.id == self.character_id), None)
        if found is None:
            raise UserFacingError("error.character_gone")
        here.require_owner_or_gm(found, "stability.action.roll")
        message, channel_id = interaction.message, interaction.channel_id
        kept = None
        if message is not None and channel_id is not None:
            kept = RollMessage(
                here.table_id,
                self.character_id,
                self.test,
                channel_id,
                message.id,
                RollKind.STABILITY_TEST,
            )
        saved, roll = await perform_stability_roll(
            here, self.character_id, self.spend, test=self.test, pressed=kept
        )
        character_id, test = self.character_id, self.test
        await disable_pressed(
            interaction, lambda custom_id: is_test_button_of(custom_id, character_id, test)
        )
        await send_stability_roll(interaction, here, saved, roll)


def stability_test_view(
    characters: Sequence[StoredCharacter], language: Language, tests: Mapping[int, int]
) -> discord.ui.View | None:
    """For each character called (at most 4, a row each): a button to roll and one to roll
    spending each of 1–3 Stability that M7 allows, every label naming its character
    (``Amelia: Tirar``, ``Amelia: +1``); ``tests``: each character's test number. None when
    nobody has a test due."""
    due = [
        c
        for c in characters
        if c.stability is not None and c.stability.due_test is not None and c.id in tests
    ]
    if not due:
        return None
    names = short_names(due)
    view = button_view()
    for row, character in enumerate(due):
        assert character.stability is not None
        name = safe_label(names[character.id])
        test = tests[character.id]
        label = text(language, "stability.button.roll", name=name)[:BUTTON_LABEL_LIMIT]
        view.add_item(StabilityTestButton(character.id, 0, test, label, row=row))
        allowed = legal_stability_spends(character.stability)
        for spend in BUTTON_SPENDS:
            if spend in allowed:
                label = text(language, "stability.button.spend", name=name, points=spend)
                view.add_item(
                    StabilityTestButton(
                        character.id, spend, test, label[:BUTTON_LABEL_LIMIT], row=row
                    )
                )
    return view
