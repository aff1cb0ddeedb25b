"""Consistent characters for the tests, built the way the rules would leave them."""

from __future__ import annotations

from dataclasses import replace

from rules import CharacterHealth, CharacterStability, DueTest, HealthState, Hospital, state_of


def character(
    health: int = 10,
    *,
    max_health: int = 10,
    first_aid: int = 4,
    pool: int | None = None,
    scene_start_health: int | None = None,
    conscious: bool = True,
    roll_pending: bool | None = None,
    stabilized: bool = False,
    hospital: Hospital | None = None,
    lowest_health: int | None = None,
    first_aid_received: int = 0,
    bleed_minutes: int = 0,
    full_recovery_due: bool = False,
) -> CharacterHealth:
    """A character at ``health``; a conscious one below 0 has its roll pending by default."""
    seriously = state_of(health) is HealthState.SERIOUSLY_WOUNDED
    living = state_of(health) is not HealthState.DEAD
    if roll_pending is None:
        roll_pending = conscious and living and health < 0
    if lowest_health is None and seriously:
        lowest_health = health
    base = CharacterHealth.new(max_health, first_aid)
    return replace(
        base,
        health=health,
        first_aid_pool=first_aid if pool is None else pool,
        scene_start_health=max_health if scene_start_health is None else scene_start_health,
        conscious=conscious,
        roll_pending=roll_pending,
        stabilized=stabilized,
        hospital=hospital,
        lowest_health=lowest_health,
        first_aid_received=first_aid_received,
        bleed_minutes=bleed_minutes,
        full_recovery_due=full_recovery_due,
    )


def medic(first_aid: int = 6) -> CharacterHealth:
    """A healthy medic with a full First Aid pool."""
    return character(10, first_aid=first_aid)


def stability(
    pool: int = 8,
    *,
    rating: int = 8,
    mental_illness: bool = False,
    lucid: bool = False,
    scene_worst_loss: int = 0,
    scene_lost: int = 0,
    due: tuple[int, int] | None = None,
) -> CharacterStability:
    """Stability at ``pool`` of ``rating``; ``due`` is a due test's (loss, difficulty)."""
    return CharacterStability(
        pool=pool,
        rating=rating,
        mental_illness=mental_illness,
        lucid=lucid,
        scene_worst_loss=scene_worst_loss,
        scene_lost=scene_lost,
        due_test=None if due is None else DueTest(loss=due[0], difficulty=due[1]),
    )
