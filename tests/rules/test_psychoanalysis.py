"""M9, M10: Psychoanalysis restores Stability (2 a point, up to the rating) or makes a mentally
ill patient lucid for the scene."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import (
    LUCIDITY_COST,
    STABILITY_PER_POINT,
    Ability,
    AbilityKind,
    AlreadyLucid,
    CharacterDead,
    CharacterHealth,
    CharacterStability,
    IncurablyInsane,
    InvalidValue,
    LucidityNeedsTwo,
    MadeLucid,
    NoStability,
    NotEnoughPsychoanalysis,
    NotMentallyIll,
    NotPsychoanalysis,
    PsychoanalystDead,
    PsychoanalystInsane,
    PsychoanalystUnconscious,
    RuleError,
    SelfPsychoanalysis,
    StabilityFull,
    StabilityOutcome,
    StabilityRestored,
    StabilityState,
    StabilityStateChanged,
    TreatmentResult,
    is_psychoanalysis,
    known_kind,
    treat_stability,
)
from tests.rules.factories import character, stability

PSYCHOANALYSIS = Ability("Psychoanalysis", AbilityKind.GENERAL, rating=5, pool=5)
MEDIC = character(10)


def treat(
    patient: CharacterStability | None,
    points: int,
    *,
    ability: Ability = PSYCHOANALYSIS,
    medic: CharacterHealth = MEDIC,
    medic_stability: CharacterStability | None = None,
    patient_health: CharacterHealth = MEDIC,
    lucidity: bool = False,
    same_character: bool = False,
) -> TreatmentResult:
    return treat_stability(
        medic,
        patient_health,
        points,
        psychoanalysis=ability,
        patient_stability=patient,
        medic_stability=medic_stability,
        lucidity=lucidity,
        same_character=same_character,
    )


# --- M9: restoring Stability ---------------------------------------------------------------------


def test_M9_each_point_restores_two_stability() -> None:
    before = stability(1)
    result = treat(before, 2)
    assert STABILITY_PER_POINT == 2
    assert result == TreatmentResult(
        psychoanalysis_after=replace(PSYCHOANALYSIS, pool=3),
        patient=StabilityOutcome(
            before=before, after=stability(5), events=(StabilityRestored(points=4),)
        ),
        spent=2,
        restored=4,
        lucid=False,
    )


def test_M9_never_above_the_rating_and_only_the_points_needed_are_spent() -> None:
    result = treat(stability(5), 9)
    assert (result.spent, result.restored) == (2, 3)
    assert result.patient.after == stability(8)
    assert result.psychoanalysis_after.pool == 3


def test_M9_one_point_short_of_the_rating_spends_one_point() -> None:
    result = treat(stability(7), 4)
    assert (result.spent, result.restored) == (1, 1)


def test_M9_no_scene_cap_the_rating_is_the_only_limit() -> None:
    before = stability(-11, rating=20, scene_worst_loss=8, scene_lost=8)
    result = treat(before, 5, ability=replace(PSYCHOANALYSIS, rating=9, pool=9))
    assert (result.spent, result.restored) == (5, 10)
    assert result.patient.after == stability(-1, rating=20, scene_worst_loss=8, scene_lost=8)


def test_M9_restoring_to_steady_reports_the_state_and_keeps_the_marks() -> None:
    before = stability(-1, rating=7, mental_illness=True, lucid=True, due=(3, 4))
    result = treat(before, 1)
    assert result.patient.after == stability(
        1, rating=7, mental_illness=True, lucid=True, due=(3, 4)
    )
    assert result.patient.events == (
        StabilityRestored(points=2),
        StabilityStateChanged(before=StabilityState.SHAKEN, after=StabilityState.STEADY),
    )


def test_M9_a_patient_at_its_rating_is_refused() -> None:
    with pytest.raises(StabilityFull) as refused:
        treat(stability(8), 1)
    assert refused.value.code == "stability_full"
    assert refused.value.params == {"stability": 8, "rating": 8}


def test_M9_the_medic_must_have_the_points_that_will_be_spent() -> None:
    short = replace(PSYCHOANALYSIS, pool=1)
    with pytest.raises(NotEnoughPsychoanalysis) as refused:
        treat(stability(2), 3, ability=short)
    assert refused.value.code == "not_enough_psychoanalysis"
    assert refused.value.params == {"available": 1, "needed": 3}
    assert treat(stability(6), 3, ability=short).spent == 1


@pytest.mark.parametrize("points", [0, 100])
def test_M9_points_outside_1_to_99_are_refused(points: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        treat(stability(2), points)
    assert refused.value.params == {"field": "points", "min": 1, "max": 99}


def test_M9_99_points_may_be_offered() -> None:
    assert treat(stability(2), 99).spent == 3


def test_M9_not_to_oneself() -> None:
    with pytest.raises(SelfPsychoanalysis) as refused:
        treat(stability(2), 1, same_character=True)
    assert refused.value.code == "self_psychoanalysis"
    assert refused.value.params == {}


@pytest.mark.parametrize("name", ["Psychoanalysis", "Psicoanálisis", "Shrink", " psicoanalisis "])
def test_M9_psychoanalysis_has_three_names(name: str) -> None:
    assert is_psychoanalysis(name)
    assert known_kind(name) is AbilityKind.GENERAL
    assert treat(stability(2), 1, ability=replace(PSYCHOANALYSIS, name=name)).restored == 2


@pytest.mark.parametrize("name", ["Medicine", "Reassurance", "Psychology", ""])
def test_M9_another_ability_is_refused(name: str) -> None:
    assert not is_psychoanalysis(name)
    with pytest.raises(NotPsychoanalysis) as refused:
        treat(stability(2), 1, ability=replace(PSYCHOANALYSIS, name=name))
    assert refused.value.code == "not_psychoanalysis"
    assert refused.value.params == {"ability": name}


@pytest.mark.parametrize(
    ("medic", "medic_stability", "refusal", "code"),
    [
        (character(-12), None, PsychoanalystDead, "psychoanalyst_dead"),
        (
            character(-3, conscious=False),
            None,
            PsychoanalystUnconscious,
            "psychoanalyst_unconscious",
        ),
        (MEDIC, stability(-12), PsychoanalystInsane, "psychoanalyst_insane"),
        (character(-12), stability(-12), PsychoanalystDead, "psychoanalyst_dead"),
        (
            character(-3, conscious=False),
            stability(-12),
            PsychoanalystUnconscious,
            "psychoanalyst_unconscious",
        ),
    ],
)
def test_M9_the_medic_must_be_alive_conscious_and_sane(
    medic: CharacterHealth,
    medic_stability: CharacterStability | None,
    refusal: type[RuleError],
    code: str,
) -> None:
    for lucidity in (False, True):
        with pytest.raises(refusal) as refused:
            treat(
                stability(-7, mental_illness=True),
                2,
                medic=medic,
                medic_stability=medic_stability,
                lucidity=lucidity,
            )
        assert refused.value.code == code
        assert refused.value.params == {}


def test_M9_a_hurt_or_shaken_medic_without_stability_may_treat() -> None:
    assert treat(stability(2), 1, medic=character(-8), medic_stability=stability(-11)).spent == 1
    assert treat(stability(2), 1, medic=character(-2), medic_stability=None).spent == 1


@pytest.mark.parametrize(
    ("health", "value", "refusal"),
    [
        (character(-12), stability(2), CharacterDead),
        (MEDIC, None, NoStability),
        (MEDIC, stability(-12), IncurablyInsane),
        (character(-12), None, CharacterDead),
        (character(-12), stability(-12), CharacterDead),
        (MEDIC, stability(-12, mental_illness=True), IncurablyInsane),
    ],
)
def test_M9_the_patient_must_be_alive_with_stability_and_not_insane(
    health: CharacterHealth, value: CharacterStability | None, refusal: type[RuleError]
) -> None:
    for lucidity in (False, True):
        with pytest.raises(refusal):
            treat(value, 2, patient_health=health, lucidity=lucidity)


def test_M9_an_unconscious_patient_may_be_treated() -> None:
    result = treat(stability(2), 1, patient_health=character(-3, conscious=False))
    assert result.patient.after == stability(4)


def test_M9_the_medic_is_checked_before_the_patient_and_oneself_first() -> None:
    with pytest.raises(SelfPsychoanalysis):
        treat(None, 0, medic=character(-12), same_character=True)
    with pytest.raises(InvalidValue):
        treat(None, 0, medic=character(-12), ability=replace(PSYCHOANALYSIS, name="Law"))
    with pytest.raises(NotPsychoanalysis):
        treat(None, 1, medic=character(-12), ability=replace(PSYCHOANALYSIS, name="Law"))
    with pytest.raises(PsychoanalystDead):
        treat(None, 1, medic=character(-12))


# --- M10: lucidity -------------------------------------------------------------------------------


def test_M10_two_points_make_a_mentally_ill_patient_lucid() -> None:
    before = stability(-8, rating=7, mental_illness=True)
    result = treat(before, 2, lucidity=True)
    assert LUCIDITY_COST == 2
    assert result == TreatmentResult(
        psychoanalysis_after=replace(PSYCHOANALYSIS, pool=3),
        patient=StabilityOutcome(
            before=before,
            after=stability(-8, rating=7, mental_illness=True, lucid=True),
            events=(MadeLucid(),),
        ),
        spent=2,
        restored=0,
        lucid=True,
    )


def test_M10_offering_more_spends_two() -> None:
    result = treat(stability(3, mental_illness=True), 5, lucidity=True)
    assert result.spent == 2
    assert result.psychoanalysis_after.pool == 3
    assert result.patient.after == stability(3, mental_illness=True, lucid=True)


def test_M10_a_patient_at_its_rating_may_be_made_lucid() -> None:
    assert treat(stability(8, mental_illness=True), 2, lucidity=True).lucid


def test_M10_fewer_than_two_offered_is_refused() -> None:
    with pytest.raises(LucidityNeedsTwo) as refused:
        treat(stability(3, mental_illness=True), 1, lucidity=True)
    assert refused.value.code == "lucidity_needs_two"
    assert refused.value.params == {"offered": 1, "needed": 2}


def test_M10_fewer_than_two_in_the_pool_is_refused() -> None:
    with pytest.raises(NotEnoughPsychoanalysis) as refused:
        treat(
            stability(3, mental_illness=True),
            2,
            ability=replace(PSYCHOANALYSIS, pool=1),
            lucidity=True,
        )
    assert refused.value.params == {"available": 1, "needed": 2}


def test_M10_only_for_a_mentally_ill_patient() -> None:
    with pytest.raises(NotMentallyIll) as refused:
        treat(stability(-3), 2, lucidity=True)
    assert refused.value.code == "not_mentally_ill"
    assert refused.value.params == {}


def test_M10_not_twice_in_a_scene() -> None:
    with pytest.raises(AlreadyLucid) as refused:
        treat(stability(-3, mental_illness=True, lucid=True), 2, lucidity=True)
    assert refused.value.code == "already_lucid"
    assert refused.value.params == {}


def test_M10_illness_and_lucidity_are_checked_before_the_points() -> None:
    with pytest.raises(NotMentallyIll):
        treat(stability(-3), 1, lucidity=True, ability=replace(PSYCHOANALYSIS, pool=0))
    with pytest.raises(AlreadyLucid):
        treat(
            stability(-3, mental_illness=True, lucid=True),
            1,
            lucidity=True,
            ability=replace(PSYCHOANALYSIS, pool=0),
        )


def test_M9_by_default_a_treatment_restores_and_the_medic_is_another_character() -> None:
    before = stability(3, mental_illness=True)
    result = treat_stability(
        MEDIC, MEDIC, 1, psychoanalysis=PSYCHOANALYSIS, patient_stability=before
    )
    assert (result.lucid, result.spent, result.restored) == (False, 1, 2)
    assert result.patient.after == stability(5, mental_illness=True)
