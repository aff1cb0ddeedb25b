"""M1–M4, M11–M13 and the scene (M6, M10): Stability's value, states, marks, refresh and
corrections. The test itself is in test_stability_test.py, composure in test_composure.py,
Psychoanalysis in test_psychoanalysis.py."""

from __future__ import annotations

import pytest

from rules import (
    INCIDENTS,
    MAX_LOSS,
    MAX_STABILITY_RATING,
    CharacterStability,
    Corrected,
    Incident,
    IncurablyInsane,
    InvalidValue,
    LucidityEnded,
    MentalIllnessAcquired,
    NoStability,
    StabilityAdded,
    StabilityOutcome,
    StabilityRefreshed,
    StabilityRemovalConflict,
    StabilityRemoved,
    StabilityState,
    StabilityStateChanged,
    StabilityTestCleared,
    WentInsane,
    correct_stability,
    find_incident,
    refresh_stability,
    stability_inconsistencies,
    stability_state_of,
    start_stability_scene,
)
from rules._moves import move_stability
from rules.events import Event
from rules.stability import refuse_insane, shaken_penalty
from tests.rules.factories import stability

STEADY = StabilityState.STEADY
SHAKEN = StabilityState.SHAKEN
INSANE = StabilityState.INCURABLY_INSANE


# --- M1: Stability is a rating and a pool, given at creation or by a GM ----------------------


def test_M1_new_stability_has_a_full_pool_and_no_marks() -> None:
    assert CharacterStability.new(8) == CharacterStability(
        pool=8,
        rating=8,
        mental_illness=False,
        lucid=False,
        scene_worst_loss=0,
        scene_lost=0,
        due_test=None,
    )
    assert CharacterStability.new(1).pool == 1
    assert CharacterStability.new(MAX_STABILITY_RATING).rating == 99


@pytest.mark.parametrize("rating", [0, -3, 100])
def test_M1_a_rating_outside_1_to_99_is_refused(rating: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        CharacterStability.new(rating)
    assert refused.value.params == {"field": "max_stability", "min": 1, "max": 99}


def test_M1_an_outcome_is_a_change_only_when_a_value_changed() -> None:
    same = StabilityOutcome(before=stability(3), after=stability(3), events=())
    moved = StabilityOutcome(before=stability(3), after=stability(2), events=())
    gone = StabilityOutcome(before=stability(3), after=None, events=())
    assert not same.changed
    assert moved.changed
    assert gone.changed
    assert not StabilityOutcome(before=None, after=None, events=()).changed


# --- M2: the state follows the pool ------------------------------------------------------------


@pytest.mark.parametrize(
    ("pool", "state"),
    [
        (99, STEADY),
        (1, STEADY),
        (0, SHAKEN),
        (-5, SHAKEN),
        (-6, SHAKEN),
        (-11, SHAKEN),
        (-12, INSANE),
        (-40, INSANE),
    ],
)
def test_M2_the_state_follows_the_pool(pool: int, state: StabilityState) -> None:
    assert stability_state_of(pool) is state
    assert stability(pool).state is state
    assert stability(pool).is_insane is (state is INSANE)


def test_M2_state_values_are_stable_codes() -> None:
    assert [state.value for state in StabilityState] == ["steady", "shaken", "incurably_insane"]


def test_M8_shaken_adds_one_to_a_difficulty_steady_and_no_stability_nothing() -> None:
    assert shaken_penalty(None) == 0
    assert shaken_penalty(stability(1)) == 0
    assert shaken_penalty(stability(0)) == 1
    assert shaken_penalty(stability(-11)) == 1


def test_M4_refuse_insane_refuses_only_the_incurably_insane_saying_what_was_asked() -> None:
    refuse_insane(None, "roll")
    refuse_insane(stability(-11), "roll")
    with pytest.raises(IncurablyInsane) as refused:
        refuse_insane(stability(-12), "treatment")
    assert refused.value.code == "incurably_insane"
    assert refused.value.params == {"reason": "treatment"}


# --- M3, M4: what a fall does (the one place: _moves.move_stability) ----------------------------


def _move(before: CharacterStability, pool: int, *, correction: bool = False) -> StabilityOutcome:
    events: list[Event] = []
    after = move_stability(before, pool, events, correction=correction)
    return StabilityOutcome(before=before, after=after, events=tuple(events))


def test_M3_a_fall_from_minus_5_to_minus_6_gives_a_mental_illness_and_costs_a_rating_point() -> (
    None
):
    moved = _move(stability(-5), -6)
    assert moved.after == stability(-6, rating=7, mental_illness=True)
    assert moved.events == (MentalIllnessAcquired(rating_before=8, rating_after=7),)


def test_M3_a_fall_from_steady_into_the_band_also_reports_the_state() -> None:
    moved = _move(stability(3), -11)
    assert moved.after == stability(-11, rating=7, mental_illness=True)
    assert moved.events == (
        StabilityStateChanged(before=STEADY, after=SHAKEN),
        MentalIllnessAcquired(rating_before=8, rating_after=7),
    )


def test_M3_a_fall_inside_the_band_gives_nothing_new() -> None:
    moved = _move(stability(-6, mental_illness=True, rating=7), -11)
    assert moved.after == stability(-11, mental_illness=True, rating=7)
    assert moved.events == ()


def test_M3_a_fall_that_stops_at_minus_5_gives_nothing() -> None:
    moved = _move(stability(2), -5)
    assert moved.after == stability(-5)
    assert moved.events == (StabilityStateChanged(before=STEADY, after=SHAKEN),)


def test_M3_each_fall_into_the_band_is_an_acquisition_again() -> None:
    ill_once = stability(-5, rating=6, mental_illness=True)
    moved = _move(ill_once, -7)
    assert moved.after == stability(-7, rating=5, mental_illness=True)
    assert moved.events == (MentalIllnessAcquired(rating_before=6, rating_after=5),)


def test_M3_at_rating_1_the_illness_is_acquired_and_the_rating_stays_1() -> None:
    moved = _move(stability(0, rating=1), -8)
    assert moved.after == stability(-8, rating=1, mental_illness=True)
    assert moved.events == (MentalIllnessAcquired(rating_before=1, rating_after=1),)


def test_M3_at_rating_2_the_rating_drops_to_1() -> None:
    assert _move(stability(0, rating=2), -6).after.rating == 1


def test_M4_a_fall_straight_to_minus_12_is_insanity_only() -> None:
    moved = _move(stability(-5), -12)
    assert moved.after == stability(-12)
    assert moved.events == (StabilityStateChanged(before=SHAKEN, after=INSANE), WentInsane())


def test_M4_a_fall_from_the_band_to_insanity_clears_a_due_test() -> None:
    moved = _move(stability(-8, due=(4, 5)), -20)
    assert moved.after == stability(-20)
    assert moved.events == (
        StabilityStateChanged(before=SHAKEN, after=INSANE),
        WentInsane(),
        StabilityTestCleared(loss=4, difficulty=5),
    )


def test_M4_falling_further_while_insane_says_nothing_again() -> None:
    moved = _move(stability(-12), -15)
    assert moved.after == stability(-15)
    assert moved.events == ()


def test_M13_a_correction_into_the_band_gives_no_illness() -> None:
    moved = _move(stability(-5), -9, correction=True)
    assert moved.after == stability(-9)
    assert moved.events == ()


def test_M2_a_rise_reports_the_state_and_leaves_the_marks() -> None:
    moved = _move(stability(-9, rating=7, mental_illness=True), 4)
    assert moved.after == stability(4, rating=7, mental_illness=True)
    assert moved.events == (StabilityStateChanged(before=SHAKEN, after=STEADY),)


# --- M11: refresh ------------------------------------------------------------------------------


def test_M11_refresh_restores_the_pool_to_its_rating() -> None:
    before = stability(-3, rating=6, mental_illness=True, scene_worst_loss=4, scene_lost=4)
    outcome = refresh_stability(before)
    assert outcome == StabilityOutcome(
        before=before,
        after=stability(6, rating=6, mental_illness=True, scene_worst_loss=4, scene_lost=4),
        events=(
            StabilityRefreshed(before=-3, after=6),
            StabilityStateChanged(before=SHAKEN, after=STEADY),
        ),
    )


def test_M11_refresh_of_a_steady_pool_says_only_the_refresh() -> None:
    assert refresh_stability(stability(2)).events == (StabilityRefreshed(before=2, after=8),)


@pytest.mark.parametrize(
    "before",
    [None, stability(8), stability(-12), stability(-30, rating=3)],
    ids=["no_stability", "full", "insane", "deeply_insane"],
)
def test_M11_refresh_of_a_full_pool_the_insane_or_no_stability_is_no_change(
    before: CharacterStability | None,
) -> None:
    assert refresh_stability(before) == StabilityOutcome(before=before, after=before, events=())


# --- M6, M10, S1: a new scene ------------------------------------------------------------------


def test_M6_a_new_scene_resets_the_cap_and_keeps_a_due_test() -> None:
    before = stability(2, scene_worst_loss=6, scene_lost=5, due=(3, 4))
    outcome = start_stability_scene(before)
    assert outcome == StabilityOutcome(before=before, after=stability(2, due=(3, 4)), events=())


def test_M10_a_new_scene_ends_lucidity() -> None:
    before = stability(-7, rating=7, mental_illness=True, lucid=True)
    outcome = start_stability_scene(before)
    assert outcome.after == stability(-7, rating=7, mental_illness=True)
    assert outcome.events == (LucidityEnded(),)


def test_M6_a_new_scene_for_a_character_without_stability_is_no_change() -> None:
    assert start_stability_scene(None) == StabilityOutcome(before=None, after=None, events=())


# --- M13: a GM's corrections ---------------------------------------------------------------------


def test_M13_a_corrected_pool_moves_the_state_and_gives_no_illness() -> None:
    before = stability(3)
    outcome = correct_stability(before, pool=-8)
    assert outcome == StabilityOutcome(
        before=before,
        after=stability(-8),
        events=(
            Corrected(field="stability", before=3, after=-8),
            StabilityStateChanged(before=STEADY, after=SHAKEN),
        ),
    )


def test_M13_a_correction_to_minus_12_is_insanity_and_clears_the_due_test() -> None:
    before = stability(-2, due=(5, 4))
    outcome = correct_stability(before, pool=-12)
    assert outcome.after == stability(-12)
    assert outcome.events == (
        Corrected(field="stability", before=-2, after=-12),
        StabilityStateChanged(before=SHAKEN, after=INSANE),
        WentInsane(),
        StabilityTestCleared(loss=5, difficulty=4),
    )


def test_M13_a_correction_works_on_the_incurably_insane() -> None:
    outcome = correct_stability(stability(-14, mental_illness=True), pool=5)
    assert outcome.after == stability(5, mental_illness=True)
    assert outcome.events == (
        Corrected(field="stability", before=-14, after=5),
        StabilityStateChanged(before=INSANE, after=STEADY),
    )


def test_M13_a_pool_above_the_rating_is_cut_to_it() -> None:
    outcome = correct_stability(stability(2), pool=20)
    assert outcome.after == stability(8)
    assert outcome.events == (Corrected(field="stability", before=2, after=8),)


def test_M13_lowering_the_rating_lowers_the_pool() -> None:
    outcome = correct_stability(stability(8), rating=5)
    assert outcome.after == stability(5, rating=5)
    assert outcome.events == (
        Corrected(field="max_stability", before=8, after=5),
        Corrected(field="stability", before=8, after=5),
    )


def test_M13_raising_the_rating_keeps_the_pool() -> None:
    outcome = correct_stability(stability(-4), rating=12)
    assert outcome.after == stability(-4, rating=12)
    assert outcome.events == (Corrected(field="max_stability", before=8, after=12),)


def test_M13_rating_and_pool_together_take_the_new_rating_first() -> None:
    outcome = correct_stability(stability(3), rating=10, pool=10)
    assert outcome.after == stability(10, rating=10)


def test_M13_the_mental_illness_mark_is_set_and_cleared_exactly() -> None:
    marked = correct_stability(stability(4), mental_illness=True)
    assert marked.after == stability(4, mental_illness=True)
    assert marked.events == (Corrected(field="mental_illness", before=False, after=True),)
    cleared = correct_stability(stability(-7, mental_illness=True), mental_illness=False)
    assert cleared.after == stability(-7)
    assert cleared.events == (Corrected(field="mental_illness", before=True, after=False),)


def test_M10_clearing_the_illness_ends_lucidity() -> None:
    outcome = correct_stability(
        stability(-7, mental_illness=True, lucid=True), mental_illness=False
    )
    assert outcome.after == stability(-7)
    assert outcome.events == (
        Corrected(field="mental_illness", before=True, after=False),
        LucidityEnded(),
    )


def test_M13_a_correction_to_what_is_already_there_is_no_change() -> None:
    before = stability(-7, mental_illness=True, lucid=True, due=(3, 4))
    outcome = correct_stability(before, pool=-7, rating=8, mental_illness=True)
    assert outcome == StabilityOutcome(before=before, after=before, events=())
    assert correct_stability(before) == StabilityOutcome(before=before, after=before, events=())


def test_M13_a_correction_keeps_the_scene_counters_and_the_due_test() -> None:
    before = stability(5, scene_worst_loss=6, scene_lost=2, due=(3, 4))
    after = correct_stability(before, pool=1, rating=9).after
    assert after == stability(1, rating=9, scene_worst_loss=6, scene_lost=2, due=(3, 4))


def test_M13_a_rating_of_0_removes_stability_with_everything() -> None:
    before = stability(-7, mental_illness=True, lucid=True, scene_worst_loss=4, due=(3, 4))
    outcome = correct_stability(before, rating=0)
    assert outcome == StabilityOutcome(
        before=before, after=None, events=(StabilityRemoved(rating=8, pool=-7),)
    )


def test_M13_a_rating_of_0_for_a_character_without_stability_is_no_change() -> None:
    assert correct_stability(None, rating=0) == StabilityOutcome(before=None, after=None, events=())


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"pool": 3}, "stability"),
        ({"mental_illness": False}, "mental_illness"),
        ({"pool": 3, "mental_illness": True}, "stability"),
    ],
)
def test_M13_a_rating_of_0_with_another_stability_value_is_refused(
    values: dict[str, int | bool], field: str
) -> None:
    for before in (stability(3), None):
        with pytest.raises(StabilityRemovalConflict) as refused:
            correct_stability(before, rating=0, **values)  # type: ignore[arg-type]
        assert refused.value.code == "stability_removal_conflict"
        assert refused.value.params == {"field": field}


def test_M13_a_rating_gives_stability_with_a_full_pool() -> None:
    outcome = correct_stability(None, rating=6)
    assert outcome == StabilityOutcome(
        before=None,
        after=stability(6, rating=6),
        events=(StabilityAdded(rating=6, pool=6, mental_illness=False),),
    )


def test_M13_a_rating_with_a_pool_and_a_mark_gives_exactly_those() -> None:
    outcome = correct_stability(None, rating=6, pool=-3, mental_illness=True)
    assert outcome.after == stability(-3, rating=6, mental_illness=True)
    assert outcome.events == (StabilityAdded(rating=6, pool=-3, mental_illness=True),)


def test_M13_a_given_pool_above_the_new_rating_is_cut_to_it() -> None:
    outcome = correct_stability(None, rating=6, pool=9)
    assert outcome.after == stability(6, rating=6)
    assert outcome.events == (StabilityAdded(rating=6, pool=6, mental_illness=False),)


def test_M13_stability_given_at_minus_12_is_insanity() -> None:
    outcome = correct_stability(None, rating=6, pool=-12)
    assert outcome.after == stability(-12, rating=6)
    assert outcome.events == (
        StabilityAdded(rating=6, pool=-12, mental_illness=False),
        WentInsane(),
    )


@pytest.mark.parametrize(
    "values", [{"pool": 4}, {"mental_illness": True}, {"mental_illness": False}]
)
def test_M13_a_pool_or_a_mark_alone_for_a_character_without_stability_is_refused(
    values: dict[str, int | bool],
) -> None:
    with pytest.raises(NoStability) as refused:
        correct_stability(None, **values)  # type: ignore[arg-type]
    assert refused.value.code == "no_stability"
    assert refused.value.params == {}


def test_M13_nothing_to_correct_for_a_character_without_stability_is_no_change() -> None:
    assert correct_stability(None) == StabilityOutcome(before=None, after=None, events=())


@pytest.mark.parametrize(
    ("values", "field", "low", "high"),
    [
        ({"pool": -100}, "stability", -99, 99),
        ({"pool": 100}, "stability", -99, 99),
        ({"rating": -1}, "max_stability", 0, 99),
        ({"rating": 100}, "max_stability", 0, 99),
    ],
)
def test_M13_values_out_of_range_are_refused(
    values: dict[str, int], field: str, low: int, high: int
) -> None:
    for before in (stability(3), None):
        with pytest.raises(InvalidValue) as refused:
            correct_stability(before, **values)  # type: ignore[arg-type]
        assert refused.value.params == {"field": field, "min": low, "max": high}


@pytest.mark.parametrize(("pool", "rating"), [(-99, 1), (99, 99)])
def test_M13_values_at_the_ends_of_their_ranges_are_accepted(pool: int, rating: int) -> None:
    assert correct_stability(stability(0, rating=99), pool=pool, rating=rating).after == (
        stability(min(pool, rating), rating=rating)
    )


# --- Invariants ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "problems"),
    [
        (stability(8), ()),
        (stability(-7, rating=1, mental_illness=True, lucid=True), ()),
        (stability(99, rating=99, scene_worst_loss=30, scene_lost=30, due=(30, 10)), ()),
        (stability(0, due=(1, 1)), ()),
        (stability(-11, due=(4, 4)), ()),
        (stability(0, rating=0), ("rating outside 1..99",)),
        (stability(0, rating=100), ("rating outside 1..99",)),
        (stability(9), ("pool above rating",)),
        (stability(3, lucid=True), ("lucid without a mental illness",)),
        (
            stability(3, scene_worst_loss=-1, scene_lost=-1),
            ("scene_worst_loss outside 0..30", "scene_lost outside 0..scene_worst_loss"),
        ),
        (stability(3, scene_worst_loss=31), ("scene_worst_loss outside 0..30",)),
        (
            stability(3, scene_worst_loss=4, scene_lost=5),
            ("scene_lost outside 0..scene_worst_loss",),
        ),
        (
            stability(3, scene_worst_loss=4, scene_lost=-1),
            ("scene_lost outside 0..scene_worst_loss",),
        ),
        (stability(-12, due=(4, 4)), ("test due while incurably insane",)),
        (stability(3, due=(0, 4)), ("due test loss outside 1..30",)),
        (stability(3, due=(31, 4)), ("due test loss outside 1..30",)),
        (stability(3, due=(4, 0)), ("due test difficulty outside 1..10",)),
        (stability(3, due=(4, 11)), ("due test difficulty outside 1..10",)),
    ],
)
def test_M1_inconsistencies_name_each_broken_invariant(
    value: CharacterStability, problems: tuple[str, ...]
) -> None:
    assert stability_inconsistencies(value) == problems


# --- M5: the SRD's example incidents -----------------------------------------------------------


def test_M5_the_eleven_example_incidents_with_their_losses() -> None:
    assert [(incident.key, incident.loss) for incident in INCIDENTS] == [
        ("human_attack_harm", 2),
        ("vehicle_accident", 2),
        ("human_attack_kill", 3),
        ("creature_seen_far", 3),
        ("creature_seen_near", 4),
        ("grisly_scene", 4),
        ("loved_one_died_violently", 4),
        ("loved_one_body_found", 6),
        ("creature_attack", 7),
        ("loved_one_killed", 7),
        ("loved_one_killed_gruesomely", 8),
    ]
    assert all(1 <= incident.loss <= MAX_LOSS for incident in INCIDENTS)


def test_M5_an_incident_is_found_by_its_key() -> None:
    assert find_incident("creature_seen_near") == Incident(key="creature_seen_near", loss=4)
    assert find_incident("loved_one_killed_gruesomely") == Incident(
        key="loved_one_killed_gruesomely", loss=8
    )
    assert find_incident("Creature_Seen_Near") is None
    assert find_incident("") is None


def test_M12_the_mental_illness_stays_through_recovery_until_a_gm_clears_it() -> None:
    ill = stability(-7, rating=7, mental_illness=True)
    refreshed = refresh_stability(ill).after
    assert refreshed == stability(7, rating=7, mental_illness=True)
    next_scene = start_stability_scene(refreshed).after
    assert next_scene == refreshed
    cured = correct_stability(next_scene, mental_illness=False).after
    assert cured == stability(7, rating=7)
