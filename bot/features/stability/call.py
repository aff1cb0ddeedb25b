"""``/stability test``: a GM calls a Stability test for up to four characters at once
(RULES.md M5; COMMANDS.md "Stability"). The whole call is refused, naming the character,
when it names one twice or one that cannot be tested; otherwise each character has the test
due (replacing the one it had), numbered for its buttons, in one change with its history
entry. The reply calls each owner with words, lists who must roll against what, and carries
each character's buttons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.features.numbers import send_screened
from bot.features.rolls.stability import stability_test_view
from bot.interaction.here import Here
from bot.interaction.mentions import call_testers
from bot.interaction.sending import RollButtons
from bot.interaction.subjects import note_subject
from bot.render.stability_call import stability_call_embed
from bot.storage.details import StabilityTestDetails
from bot.storage.models import LightCharacter, RollKind, StoredCharacter
from bot.storage.roll_messages import number_rolls
from rules.errors import RuleError
from rules.stability import StabilityOutcome
from rules.stability_roll import (
    DuplicateTestTarget,
    UntestableCharacter,
    call_stability_test,
    check_stability_test_call,
)

__all__ = ["CalledTests", "call_tests", "send_call"]


@dataclass(frozen=True)
class CalledTests:
    """What a call did: each character as saved with its outcome, in the call's order, and
    the number of each one's test (its buttons carry it)."""

    called: tuple[tuple[StoredCharacter, StabilityOutcome], ...]
    tests: dict[int, int]
    loss: int
    difficulty: int
    reason: str | None


async def call_tests(
    here: Here,
    targets: Sequence[LightCharacter],
    loss: int,
    difficulty: int,
    reason: str | None,
) -> CalledTests:
    """The call, in one transaction: every character read together, the whole call checked
    (``check_stability_test_call``; its refusal names the culprit), each test made due and
    numbered, one history entry."""
    async with here.change() as tx:
        currents = await tx.characters(*targets)
        try:
            check_stability_test_call(
                [(c.id, c.health, c.stability) for c in currents], loss, difficulty
            )
        except (UntestableCharacter, DuplicateTestTarget) as refusal:
            _name_culprit(here, currents, refusal)
            raise
        outcomes = [call_stability_test(c.health, c.stability, loss, difficulty) for c in currents]
        saved = await tx.save_stabilities(
            [(c, outcome.after) for c, outcome in zip(currents, outcomes, strict=True)]
        )
        tests = await number_rolls(
            tx, here.table_id, [c.id for c in saved], [], kind=RollKind.STABILITY_TEST
        )
        details = StabilityTestDetails(
            loss=loss,
            difficulty=difficulty,
            characters=tuple(c.name for c in saved),
            reason=reason or None,
        )
        await here.history(details).record(tx)
    return CalledTests(tuple(zip(saved, outcomes, strict=True)), tests, loss, difficulty, reason)


def _name_culprit(here: Here, characters: Sequence[StoredCharacter], refusal: RuleError) -> None:
    """The refusal is about the character at its ``index`` in the call: the one its message
    names (``bot.interaction.subjects``), agreeing with its gender."""
    index = refusal.params.get("index")
    if isinstance(index, int) and 0 <= index < len(characters):
        note_subject(here.interaction, "character", characters[index])


async def send_call(here: Here, called: CalledTests) -> None:
    """The public reply of the call (nothing to announce: nobody's state moved), kept among
    the messages whose buttons the keeper disables."""
    language = here.public_language
    characters = [character for character, _ in called.called]
    await send_screened(
        here,
        characters,
        lambda viewer, language: [
            stability_call_embed(
                called.called, called.loss, called.difficulty, called.reason, language, viewer
            )
        ],
        announce=False,
        view=stability_test_view(characters, language, called.tests),
        call=call_testers(characters, caller=here.user_id, language=language),
        buttons=RollButtons(called.tests, RollKind.STABILITY_TEST),
    )
