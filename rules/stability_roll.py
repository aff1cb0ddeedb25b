"""The Stability test (RULES.md M5–M8, M3, M4, M13): called by a GM, rolled by the player.

A test is called for each character (``call_stability_test``; ``check_stability_test_call``
refuses a whole call first), stays due on the character's Stability, and is rolled once
(``roll_stability_test``). The roll is the throw every GUMSHOE test shares (``rules/_throw``)
with a Difficulty raised as ability tests raise theirs (H3, M8).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from rules._moves import move_stability, refuse_dead
from rules._throw import throw
from rules.abilities import difficulty_penalty
from rules.errors import CharacterUnconscious, NoStability, RuleError, check_range
from rules.events import Event
from rules.stability import (
    DEFAULT_STABILITY_DIFFICULTY,
    MAX_LOSS,
    MAX_STABILITY_DIFFICULTY,
    MAX_STABILITY_SPEND,
    MIN_LOSS,
    MIN_STABILITY_DIFFICULTY,
    CharacterStability,
    DueTest,
    StabilityOutcome,
    refuse_insane,
    refuse_madness,
    shaken_penalty,
)
from rules.stability_events import (
    StabilitySpent,
    StabilityTestDue,
    StabilityTestFailed,
    StabilityTestPassed,
    StabilityTestReplaced,
)

if TYPE_CHECKING:
    from rules.character import CharacterHealth
    from rules.dice import Roller

__all__ = [
    "DuplicateTestTarget",
    "NoStabilityTestDue",
    "StabilityDifficulty",
    "StabilityTestRoll",
    "UntestableCharacter",
    "call_stability_test",
    "check_stability_test_call",
    "roll_stability_test",
    "stability_test_difficulty",
]


class NoStabilityTestDue(RuleError):
    """M5: no Stability test is due for the character: a GM calls one (no params)."""

    code: ClassVar[str] = "no_stability_test_due"


class UntestableCharacter(RuleError):
    """M5: a call names a character that cannot be tested; the whole call is refused.

    Params: ``index`` (its place in the call, from 0), ``character_id`` (as given),
    ``reason`` (the code the character alone is refused with: ``no_stability``, ``dead``,
    ``unconscious`` or ``incurably_insane``).
    """

    code: ClassVar[str] = "untestable_character"


class DuplicateTestTarget(RuleError):
    """M5: a call names the same character twice; the whole call is refused.

    Params: ``index`` (the second naming, from 0), ``character_id``, ``first_index``.
    """

    code: ClassVar[str] = "duplicate_test_target"


@dataclass(frozen=True)
class StabilityTestRoll:
    """The roll of a due test and its arithmetic: ``die + spend = total vs difficulty``.

    ``difficulty`` is ``base_difficulty`` (the GM's) ``+ wound_penalty`` (Hurt or Seriously
    wounded, H3) ``+ shaken_penalty`` (Shaken before the spend, M8), each apart for the
    breakdown. ``loss`` is the incident's potential loss; ``lost`` what a failure took once
    the scene's cap applied (M6; 0 on a success).
    """

    outcome: StabilityOutcome
    die: int
    spend: int
    total: int
    base_difficulty: int
    wound_penalty: int
    shaken_penalty: int
    difficulty: int
    success: bool
    loss: int
    lost: int

    @property
    def capped(self) -> bool:
        """M6: the scene's cap took less than the potential loss of a failed test."""
        return not self.success and self.lost < self.loss


def _testable(
    character: CharacterHealth, stability: CharacterStability | None
) -> CharacterStability:
    """M1, M13, M4: the Stability of a character that may be tested, or the refusal."""
    if stability is None:
        raise NoStability()
    refuse_dead(character)
    if not character.conscious:
        raise CharacterUnconscious()
    refuse_insane(stability, "roll")
    return stability


def _check_call(loss: int, difficulty: int) -> None:
    check_range("loss", loss, MIN_LOSS, MAX_LOSS)
    check_range("difficulty", difficulty, MIN_STABILITY_DIFFICULTY, MAX_STABILITY_DIFFICULTY)


def check_stability_test_call(
    targets: Sequence[tuple[int, CharacterHealth, CharacterStability | None]],
    loss: int,
    difficulty: int = DEFAULT_STABILITY_DIFFICULTY,
) -> None:
    """M5: refuse a whole call, before anything is changed, that names a character twice or
    one that cannot be tested; ``targets`` are ``(character_id, health, stability)`` in the
    order of the call. Then ``call_stability_test`` for each of them cannot refuse."""
    _check_call(loss, difficulty)
    first_index: dict[int, int] = {}
    for index, (character_id, character, stability) in enumerate(targets):
        if character_id in first_index:
            raise DuplicateTestTarget(
                index=index, character_id=character_id, first_index=first_index[character_id]
            )
        first_index[character_id] = index
        try:
            _testable(character, stability)
        except RuleError as refusal:
            raise UntestableCharacter(
                index=index, character_id=character_id, reason=refusal.code
            ) from refusal


@dataclass(frozen=True)
class StabilityDifficulty:
    """The Difficulty a character rolls a Stability test against (M5): the GM's ``base``,
    ``+ wound`` when Hurt or Seriously wounded (H3), ``+ shaken`` when Shaken (M8)."""

    base: int
    wound: int
    shaken: int

    @property
    def total(self) -> int:
        return self.base + self.wound + self.shaken


def stability_test_difficulty(
    character: CharacterHealth, stability: CharacterStability | None, base: int
) -> StabilityDifficulty:
    """M5: the Difficulty of a test at the GM's ``base``, as the character would roll it now
    (Hurt and Shaken judged on the pools before any spend); the roll, the call's line and
    the call of the player all take it from here, so that no reply gives another number."""
    return StabilityDifficulty(base, difficulty_penalty(character), shaken_penalty(stability))


def call_stability_test(
    character: CharacterHealth,
    stability: CharacterStability | None,
    loss: int,
    difficulty: int = DEFAULT_STABILITY_DIFFICULTY,
) -> StabilityOutcome:
    """M5: the character has a test due against an incident of potential ``loss`` at the GM's
    ``difficulty``; a test already due is replaced (and counts for nothing, M6).

    Refused without Stability (M1), for the dead and the unconscious (M13) and for the
    incurably insane (M4).
    """
    _check_call(loss, difficulty)
    current = _testable(character, stability)
    events: list[Event] = []
    old = current.due_test
    if old is not None:
        events.append(StabilityTestReplaced(loss=old.loss, difficulty=old.difficulty))
    events.append(StabilityTestDue(loss=loss, difficulty=difficulty))
    after = replace(current, due_test=DueTest(loss=loss, difficulty=difficulty))
    return StabilityOutcome(before=current, after=after, events=tuple(events))


def roll_stability_test(
    character: CharacterHealth,
    stability: CharacterStability | None,
    spend: int,
    roller: Roller,
) -> StabilityTestRoll:
    """M5–M7: roll the due test, 1d6 + ``spend`` against the GM's Difficulty + 1 when Hurt or
    Seriously wounded + 1 when Shaken (both judged before the spend).

    The spend is lost whatever the outcome; a failure loses ``max(0, min(loss, worst -
    lost))`` (M6); the pool before and after the whole roll decides a mental illness (M3) or
    insanity (M4). Refused, before the die is rolled: no Stability, dead, unconscious,
    incurably insane, no test due, a spend that would leave the pool at -12 or less (M7).
    """
    check_range("spend", spend, 0, MAX_STABILITY_SPEND)
    current = _testable(character, stability)
    due = current.due_test
    if due is None:
        raise NoStabilityTestDue()
    refuse_madness(current, spend)

    raised = stability_test_difficulty(character, current, due.difficulty)
    wound, shaken = raised.wound, raised.shaken
    roll = throw(roller, spend, raised.total)
    worst = max(current.scene_worst_loss, due.loss)
    lost = 0 if roll.success else max(0, min(due.loss, worst - current.scene_lost))

    events: list[Event] = []
    if spend:
        events.append(StabilitySpent(points=spend))
    if roll.success:
        events.append(StabilityTestPassed())
    else:
        events.append(StabilityTestFailed(loss=due.loss, lost=lost))
    rolled = replace(
        current, due_test=None, scene_worst_loss=worst, scene_lost=current.scene_lost + lost
    )
    after = move_stability(rolled, current.pool - spend - lost, events)
    return StabilityTestRoll(
        outcome=StabilityOutcome(before=current, after=after, events=tuple(events)),
        die=roll.die,
        spend=spend,
        total=roll.total,
        base_difficulty=due.difficulty,
        wound_penalty=wound,
        shaken_penalty=shaken,
        difficulty=roll.difficulty,
        success=roll.success,
        loss=due.loss,
        lost=lost,
    )
