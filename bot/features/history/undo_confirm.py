"""The Confirm / Cancel buttons of ``/undo`` and the public reply of an undo: what was
reverted, each character as it is now."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.features.numbers import numbers_view, send_numbers
from bot.features.rolls.stability import stability_test_view
from bot.i18n import Language, text
from bot.interaction.buttons import CustomId, SaludButton, button_view, choice, number
from bot.interaction.context import KeptMessage
from bot.interaction.deferral import acknowledge
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.mentions import call_testers
from bot.interaction.sending import NO_MENTIONS, send_change
from bot.render.common import mention
from bot.render.undo import preview_embed, undo_reply
from bot.storage.interface import HistoryEntry, UndoResult
from bot.storage.models import RollKind
from bot.storage.roll_messages import renumber_rolls

__all__ = ["UNDO_ID", "UndoButton", "undo_view"]

#: ``salud:undo:<entry_id>:<gm_id>:<yes|no>``: the entry previewed, for the GM who asked. It
#: carries the entry's id, which never changes (not its number in the server, which players
#: read): the buttons sent before the numbers existed (migration 0011) work as they did.
UNDO_ID = CustomId("undo", number("entry_id"), number("gm_id"), choice("answer", "yes", "no"))


def due_again(result: UndoResult) -> list[int]:
    """The characters whose Stability test the undo makes due again (an undone roll, a
    call undone back to the one it replaced): due now, and not that one before the undo."""
    left = {change.character_id: change.after for change in result.reverted.characters}
    again = []
    for character in result.restored:
        due = None if character.stability is None else character.stability.due_test
        before = left.get(character.id)
        was = None if before is None or before.stability is None else before.stability.due_test
        if due is not None and due != was:
            again.append(character.id)
    return again


def undo_view(entry_id: int, gm_id: int, language: Language) -> discord.ui.View:
    """Confirm / Cancel for one previewed entry, for the GM who asked only."""
    view = button_view()
    view.add_item(UndoButton(entry_id, gm_id, "yes", text(language, "undo.button.confirm")))
    view.add_item(UndoButton(entry_id, gm_id, "no", text(language, "undo.button.cancel")))
    return view


class _Superseded(Exception):
    """Another change came in after the preview: ``latest`` is what an undo reverts now."""

    def __init__(self, latest: HistoryEntry | None) -> None:
        super().__init__("superseded")
        self.latest = latest


async def _replace_question(
    interaction: discord.Interaction[Any],
    content: str | None,
    embeds: Sequence[discord.Embed] = (),
    view: discord.ui.View | None = None,
) -> None:
    """Edit the private question whose button was pressed (also after a deferral)."""
    kwargs: dict[str, Any] = {
        "content": content,
        "embeds": list(embeds),
        "view": view,
        "allowed_mentions": NO_MENTIONS,
    }
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)


class UndoButton(SaludButton, custom_id=UNDO_ID):
    """Confirm or cancel the ``/undo`` of one previewed entry; for the GM who asked only.

    Confirming reverts that entry only: if another change came in since, the question is
    replaced by the new preview (to confirm again), and nothing is reverted.
    """

    def __init__(self, entry_id: int, gm_id: int, answer: str, label: str = "") -> None:
        style = discord.ButtonStyle.danger if answer == "yes" else discord.ButtonStyle.secondary
        custom_id = UNDO_ID.build(entry_id=entry_id, gm_id=gm_id, answer=answer)
        super().__init__(custom_id, label or answer, style=style)
        self.entry_id = entry_id
        self.gm_id = gm_id
        self.answer = answer

    @classmethod
    def parse(cls, match: re.Match[str], label: str) -> UndoButton:
        return cls(int(match["entry_id"]), int(match["gm_id"]), match["answer"], label)

    async def pressed(self, here: Here) -> None:
        if here.user_id != self.gm_id:
            raise UserFacingError("undo.error.not_yours", gm=mention(self.gm_id))
        here.require_gm("history.action.undo")
        language = here.private_language
        if self.answer != "yes":
            await _replace_question(here.interaction, text(language, "undo.cancelled"))
            return
        # Acknowledged without a message: the public reply follows up, then the question
        # says it is done (so the GM's screen ends with the answer in place).
        await acknowledge(here.interaction)
        try:
            async with here.change() as tx:
                latest = await tx.latest_undoable(here.table_id)
                if latest is None or latest.id != self.entry_id:
                    previewed = await tx.get_history_entry(here.table_id, self.entry_id)
                    if previewed is not None and previewed.undone:  # pressed twice
                        raise UserFacingError("undo.error.already", entry=previewed.number)
                    raise _Superseded(latest)
                result = await tx.undo_latest(here.table_id, here.interaction.id, here.user_id)
                if result is None:  # pragma: no cover - the entry was just read in this tx
                    raise _Superseded(None)
                pending = [c.id for c in result.restored if c.health.roll_pending]
                await renumber_rolls(tx, here.table_id, pending)
                # A Stability test an undo makes due again (an undone roll) gets a new
                # number too: the buttons of its call stay refused and disabled (M13).
                tests = await renumber_rolls(
                    tx, here.table_id, due_again(result), kind=RollKind.STABILITY_TEST
                )
        except _Superseded as moved:
            if moved.latest is None:
                await _replace_question(here.interaction, text(language, "history.undo.nothing"))
                return
            await _replace_question(
                here.interaction,
                None,
                [preview_embed(moved.latest, language, changed=True)],
                undo_view(moved.latest.id, self.gm_id, language),
            )
            return
        public = here.public_language
        content, embeds, more, announce = undo_reply(result, public)
        # A test due again is due as a call makes it (M13): its owner called, fresh buttons.
        due = [c for c in result.restored if c.id in tests]
        message_id = await send_change(
            here.interaction,
            embeds,
            announce=announce,
            here=here,
            content=content,
            more=more,
            view=numbers_view(here, result.restored, stability_test_view(due, public, tests)),
            call=call_testers(due, caller=here.user_id, language=public),
        )
        await send_numbers(here, result.restored)
        kept = KeptMessage(
            here.table_id, here.interaction.channel_id, message_id, tests, RollKind.STABILITY_TEST
        )
        await here.interaction.services.roll_buttons.remember_message(kept)
        number = result.reverted.number
        await _replace_question(here.interaction, text(language, "undo.confirmed", entry=number))
