"""How the flags follow a change of Health or of Stability; shared by every action (private).

One place decides what entering or leaving a state does, so that damage, bleeding, spends,
healing, rest, tests and corrections cannot drift apart.
"""

from __future__ import annotations

from dataclasses import replace

from rules.character import CharacterHealth
from rules.errors import CharacterDead
from rules.events import (
    Died,
    Event,
    HospitalEnded,
    RollCleared,
    RollDue,
    StabilizationEnded,
    StateChanged,
    Woke,
)
from rules.stability import ILLNESS_THRESHOLD, INSANITY_THRESHOLD, CharacterStability
from rules.stability_events import (
    MentalIllnessAcquired,
    StabilityStateChanged,
    StabilityTestCleared,
    WentInsane,
)
from rules.state import HealthState, state_of


def refuse_dead(character: CharacterHealth) -> None:
    """H5: damage, rolls, First Aid and rest aimed at a dead character are refused."""
    if character.is_dead:
        raise CharacterDead()


def move_health(
    character: CharacterHealth,
    new_health: int,
    events: list[Event],
    *,
    roll_due: bool,
    fresh_damage: bool = False,
) -> CharacterHealth:
    """``character`` with Health at ``new_health`` and every flag following it.

    ``roll_due``: a conscious living character ending below 0 has a Consciousness roll
    pending (C1 for a loss of Health, G2 for a correction). ``fresh_damage``: D4 ends a
    stabilization and R5's day-after-discharge recovery, and wakes nobody (C7).
    """
    before_state = character.state
    after_state = state_of(new_health)
    stabilized = character.stabilized
    hospital = character.hospital
    lowest = character.lowest_health
    bleed_minutes = character.bleed_minutes
    conscious = character.conscious
    roll_pending = character.roll_pending
    full_recovery_due = character.full_recovery_due and not fresh_damage
    stabilization_ended = False

    if before_state is not after_state:
        events.append(StateChanged(before=before_state, after=after_state))
    if fresh_damage and stabilized:
        stabilized = False
        stabilization_ended = True

    if after_state is HealthState.DEAD:
        if before_state is not HealthState.DEAD:
            events.append(Died())
        stabilized = False
        stabilization_ended = False
        hospital = None
        lowest = None
        bleed_minutes = 0
        roll_pending = False
    elif after_state is HealthState.SERIOUSLY_WOUNDED:
        lowest = new_health if lowest is None else min(lowest, new_health)
    else:
        # The spell of serious wounds is over (D5, T2).
        lowest = None
        bleed_minutes = 0
        if stabilized:
            stabilized = False
            stabilization_ended = True
        if hospital is not None:
            hospital = None
            events.append(HospitalEnded())

    if stabilization_ended:
        events.append(StabilizationEnded())
    if after_state is not HealthState.DEAD:
        if new_health >= 0:
            # C7: healing (or a correction) to 0 or more wakes; a hit that leaves a character a
            # GM knocked out (G3) at 0 or more does not.
            if not conscious and not fresh_damage:
                conscious = True
                events.append(Woke())
            if roll_pending:
                roll_pending = False
                events.append(RollCleared())
        elif roll_due and conscious:
            roll_pending = True
            events.append(RollDue(difficulty=-new_health))

    return replace(
        character,
        health=new_health,
        stabilized=stabilized,
        hospital=hospital,
        lowest_health=lowest,
        bleed_minutes=bleed_minutes,
        conscious=conscious,
        roll_pending=roll_pending,
        full_recovery_due=full_recovery_due,
    )


def move_stability(
    stability: CharacterStability,
    new_pool: int,
    events: list[Event],
    *,
    correction: bool = False,
) -> CharacterStability:
    """``stability`` with its pool at ``new_pool`` and every mark following it.

    Call it once per action, with the pool the whole action leaves (M3: a test's spend and
    loss together, a strain). A fall from -5 or above to -6…-11 gives a mental illness and
    costs a rating point, never below 1 (M3), unless it is a GM's ``correction`` (M13);
    reaching -12 or less is incurable insanity, which clears a due test (M4).
    """
    before_state = stability.state
    after = replace(stability, pool=new_pool)
    if before_state is not after.state:
        events.append(StabilityStateChanged(before=before_state, after=after.state))
    fell_ill = stability.pool > ILLNESS_THRESHOLD >= new_pool > INSANITY_THRESHOLD
    if fell_ill and not correction:
        rating = max(1, stability.rating - 1)
        events.append(MentalIllnessAcquired(rating_before=stability.rating, rating_after=rating))
        after = replace(after, rating=rating, mental_illness=True)
    if after.is_insane and not stability.is_insane:
        events.append(WentInsane())
    due = after.due_test
    if after.is_insane and due is not None:
        events.append(StabilityTestCleared(loss=due.loss, difficulty=due.difficulty))
        after = replace(after, due_test=None)
    return after
