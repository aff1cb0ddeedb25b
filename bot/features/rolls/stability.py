"""The Stability test's roll, shared by ``/stability roll`` and the buttons a call carries.

A ``/stability test`` reply carries, for each character called, a button to roll and
buttons to roll spending 1, 2 or 3 Stability where M7 allows that spend (all three for a
character whose numbers are private); every label names its character (``Amelia: Tirar``,
``Amelia: +1``). Their custom ids describe themselves
(``salud:stab:<character_id>:<spend>:<test>``, ``test`` the number of the test they were
posted for: ``bot.storage.roll_messages``, ``RollKind.STABILITY_TEST``), so they keep working
after a restart (``bot.interaction.buttons.SaludButton``, registered once:
``bot.features.registry``).

A press rolls only the test it was posted for, while it is still due: the check and the roll
happen in one transaction, so a button of a test rolled, replaced by a later call, cleared
(insanity) or brought back by an undo gets an ephemeral refusal and never rolls twice; the
refusal says which (a test rolled with its result, a test replaced with a link to the
buttons of the new one). As
every roll button does (``bot.features.rolls.base``), the press's response edits the pressed
message so that that character's buttons show disabled (and its call's line says how it
rolled), the roll's public reply follows, and the keeper disables the other messages that
carried the test.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.features.numbers import send_screened
from bot.features.rolls.base import DueRoll, RollButton, roll_view
from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, number
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.render.common import safe
from bot.render.rolls import roll_text
from bot.render.stability import (
    stability_announce,
    stability_change_embeds,
    stability_move,
    stability_roll_field,
)
from bot.render.stability_call import rolled_line, said_rolled
from bot.render.visibility import EVERYONE, shows_numbers
from bot.storage.details import RollNumbers, StabilityRollDetails, StabilityTestDetails
from bot.storage.interface import HistoryEntry, HistoryQuery, StorageChange
from bot.storage.models import RollKind, RollMessage, StoredCharacter
from bot.storage.roll_messages import forget_roll_messages, roll_number
from rules.errors import IncurablyInsane
from rules.stability import legal_stability_spends
from rules.stability_roll import StabilityTestRoll, roll_stability_test

__all__ = [
    "STABILITY_TEST",
    "STABILITY_TEST_ID",
    "StabilityTestButton",
    "perform_stability_roll",
    "stability_test_view",
]

#: ``salud:stab:<character_id>:<spend>:<test>``: ``test`` is the number of the Stability test
#: the button was posted for (the keeper reads these ids back to disable old ones).
STABILITY_TEST_ID = CustomId("stab", number("character_id"), number("spend", 2), number("test"))


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
        current = await here.character_in(tx, character_id)
        number_now = None
        if test is not None:
            await _require_this_test(tx, here, current, test)
            number_now = test  # the test due, as the button's (refused otherwise)
        elif current.stability is not None and current.stability.due_test is not None:
            # Its call's line will say how it rolled (the keeper's sweep of its buttons).
            number_now = await roll_number(
                tx, here.table_id, character_id, kind=RollKind.STABILITY_TEST
            )
        made = roll_stability_test(current.health, current.stability, spend, here.dice)
        saved = await tx.save_stability(current, made.outcome.after)
        if pressed is not None:
            await forget_roll_messages(tx, [pressed])
        details = StabilityRollDetails(
            roll=RollNumbers(made.die, made.spend, made.total, made.difficulty),
            success=made.success,
            loss=made.loss,
            lost=made.lost,
        )
        await here.history(details).record(tx)
    # Committed, and no await since: noted before the sweep the commit started can run.
    if number_now is not None:
        shown = shows_numbers(saved, EVERYONE)  # the call's line is public
        line = rolled_line(saved.name, made, here.public_language, shown=shown)
        here.interaction.services.roll_buttons.note_rolled(
            here.table_id, character_id, number_now, saved.name, line
        )
    return saved, made


async def _require_this_test(
    tx: StorageChange, here: Here, character: StoredCharacter, test: int
) -> None:
    """A button rolls only the test it was posted for, while it is due; otherwise the
    refusal says what became of that test: rolled (with its result), its roll undone, or
    replaced (each with where the test due now is rolled), read only on this refusal's
    path."""
    stability = character.stability
    number_now = await roll_number(tx, here.table_id, character.id, kind=RollKind.STABILITY_TEST)
    due = stability is not None and stability.due_test is not None
    if due and number_now == test:
        return
    if stability is not None and stability.is_insane:
        raise IncurablyInsane(reason="roll")  # M4: its test was cleared
    name = safe(character.name)
    if stability is None:  # a GM's correction took its Stability away
        raise UserFacingError("stability.error.button_no_test", name=name)
    language = here.private_language
    if number_now == test:
        rolled = await _roll_entry(tx, here.table_id, character.id)
        if rolled is None:
            raise UserFacingError("stability.error.button_no_test", name=name)
        entry, details = rolled
        outcome = "passed" if details.success else "failed"
        moved = stability_move(entry.characters[0], language) if entry.characters else None
        raise UserFacingError(
            "stability.error.button_rolled",
            name=name,
            entry=entry.number,
            roll=roll_text(details.roll),
            outcome=text(language, f"render.history.outcome.{outcome}"),
            moved=f"; {text(language, 'render.history.stability', value=moved)}" if moved else "",
        )
    latest = await _latest_entry(tx, here.table_id, character.id)
    if latest is not None and latest.undone and isinstance(latest.details, StabilityRollDetails):
        # Its roll was undone: the test is due again, numbered anew (new buttons).
        raise UserFacingError(
            "stability.error.button_undone",
            name=name,
            entry=latest.number,
            where=await _where(tx, here, character.id, number_now, language),
        )
    if not due:
        raise UserFacingError("stability.error.button_replaced_rolled", name=name)
    raise UserFacingError(
        "stability.error.button_replaced",
        name=name,
        where=await _where(tx, here, character.id, number_now, language),
    )


async def _where(
    tx: StorageChange, here: Here, character_id: int, test: int | None, language: Language
) -> str:
    """Where the test due now is rolled: a link to the newest message carrying its buttons,
    else ``/stability roll``."""
    found = None
    if test is not None:
        found = await tx.newest_roll_message(
            here.table_id, character_id, RollKind.STABILITY_TEST, test
        )
    if found is None:
        return text(language, "stability.error.where_command")
    link = f"https://discord.com/channels/{here.server_id}/{found.channel_id}/{found.message_id}"
    return text(language, "stability.error.where_buttons", link=link)


async def _latest_entry(tx: StorageChange, guild_id: int, character_id: int) -> HistoryEntry | None:
    """The character's latest Stability call or roll in the history (undos and other changes
    passed over), undone or not."""
    for entry in await tx.history(guild_id, HistoryQuery(character_id, limit=10)):
        if isinstance(entry.details, StabilityRollDetails | StabilityTestDetails):
            return entry
    return None


async def _roll_entry(
    tx: StorageChange, guild_id: int, character_id: int
) -> tuple[HistoryEntry, StabilityRollDetails] | None:
    """The latest roll of the character's Stability test still standing (not undone), from
    the history: the one a button of its test, pressed late, is refused with."""
    for entry in await tx.history(guild_id, HistoryQuery(character_id, limit=10)):
        if isinstance(entry.details, StabilityRollDetails) and not entry.undone:
            return entry, entry.details
    return None


async def _pressed_roll(
    here: Here, character_id: int, spend: int, test: int | None, pressed: RollMessage | None
) -> tuple[StoredCharacter, StabilityTestRoll]:
    return await perform_stability_roll(here, character_id, spend, test=test, pressed=pressed)


#: The Stability test as a kind of roll made with buttons.
STABILITY_TEST: DueRoll[StabilityTestRoll] = DueRoll(
    kind=RollKind.STABILITY_TEST,
    custom_id=STABILITY_TEST_ID,
    number_field="test",
    action="stability.action.roll",
    perform=_pressed_roll,
    change_embeds=stability_change_embeds,
    roll_field=stability_roll_field,
    announce=stability_announce,
    send=send_screened,
    roll_label="",  # its buttons always name their character
    spend_label="",
    roll_label_named="stability.button.roll",
    spend_label_named="stability.button.spend",
    pressed_embeds=said_rolled,
)


class StabilityTestButton(RollButton, custom_id=STABILITY_TEST_ID):
    """Roll one character's Stability test number ``test``, spending ``spend`` Stability."""

    roll_kind = STABILITY_TEST

    @property
    def test(self) -> int | None:
        return self.number


def stability_test_view(
    characters: Sequence[StoredCharacter], language: Language, tests: Mapping[int, int]
) -> discord.ui.View | None:
    """For each character called (at most 4, a row each): a button to roll and one to roll
    spending each of 1–3 Stability that M7 allows, every label naming its character
    (``Amelia: Tirar``, ``Amelia: +1``; ``bot.features.rolls.base.roll_view``); ``tests``:
    each character's test number. None when nobody has a test due."""
    due = [
        (character, tests[character.id], legal_stability_spends(character.stability))
        for character in characters
        if character.stability is not None
        and character.stability.due_test is not None
        and character.id in tests
    ]
    return roll_view(StabilityTestButton, due, language, named=True)
