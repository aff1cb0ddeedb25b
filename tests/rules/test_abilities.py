"""Abilities: pools, spends and tests (RULES.md P1–P3, H3, H4) and the ability catalog."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.abilities import (
    DEFAULT_DIFFICULTY,
    DEFAULT_HIT_THRESHOLD,
    MAX_ABILITIES,
    Ability,
    AbilityKind,
    AbilityRoll,
    CannotFight,
    InvestigativeNotTested,
    InvestigativeWhileHurt,
    NotEnoughPool,
    ReservedAbility,
    TooManyAbilities,
    check_can_add,
    difficulty_penalty,
    is_reserved_ability_name,
    make_test,
    refresh_ability,
    set_ability,
    spend_ability,
)
from rules.ability_catalog import (
    _INDEX,
    KNOWN_ABILITIES,
    KnownAbility,
    _build_index,
    _gen,
    _inv,
    find_known,
    known_kind,
    normalize,
    suggest,
)
from rules.character import CharacterHealth
from rules.dice import ScriptedRoller
from rules.errors import CharacterDead, CharacterUnconscious, InvalidValue, RuleError
from rules.state import HealthState, state_of

GENERAL = AbilityKind.GENERAL
INVESTIGATIVE = AbilityKind.INVESTIGATIVE


class RecordingRoller:
    """Returns the given dice in order and records the sides asked for, unchecked."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.calls: list[int] = []

    def roll(self, sides: int) -> int:
        self.calls.append(sides)
        return self.values.pop(0)


def character(health: int = 10, *, conscious: bool = True) -> CharacterHealth:
    return replace(CharacterHealth.new(10, 2), health=health, conscious=conscious)


HEALTHY = character(10)
HURT = character(-2)
SERIOUSLY_WOUNDED = character(-7)
DEAD = character(-12)
KNOCKED_OUT = character(-3, conscious=False)

ATHLETICS = Ability("Athletics", GENERAL, rating=6, pool=4)
LIBRARY_USE = Ability("Library Use", INVESTIGATIVE, rating=3, pool=3)


def test_fixture_states_are_what_their_names_say() -> None:
    assert HEALTHY.state is HealthState.HEALTHY
    assert HURT.state is HealthState.HURT
    assert SERIOUSLY_WOUNDED.state is HealthState.SERIOUSLY_WOUNDED
    assert DEAD.state is HealthState.DEAD


def check(
    who: CharacterHealth,
    ability: Ability = ATHLETICS,
    *,
    die: int = 4,
    difficulty: int | None = None,
    spend: int = 0,
    attack: bool = False,
) -> AbilityRoll:
    return make_test(
        who,
        ability,
        difficulty=difficulty,
        spend=spend,
        attack=attack,
        roller=ScriptedRoller([die]),
    )


# --- set_ability -----------------------------------------------------------------------------


def test_P1_new_ability_starts_with_a_full_pool() -> None:
    assert set_ability(None, "Athletics", 5) == Ability("Athletics", GENERAL, 5, 5)


def test_P1_new_ability_with_an_explicit_pool() -> None:
    assert set_ability(None, "Athletics", 5, pool=2).pool == 2


def test_P1_existing_ability_keeps_its_pool_when_the_rating_rises() -> None:
    after = set_ability(ATHLETICS, "Athletics", 9)
    assert (after.rating, after.pool) == (9, 4)


def test_P1_existing_pool_is_cut_down_to_a_lowered_rating() -> None:
    after = set_ability(ATHLETICS, "Athletics", 2)
    assert (after.rating, after.pool) == (2, 2)


def test_P1_existing_pool_above_a_lowered_rating_untouched_when_below() -> None:
    after = set_ability(ATHLETICS, "Athletics", 5)
    assert (after.rating, after.pool) == (5, 4)


def test_P1_explicit_pool_overrides_the_kept_pool() -> None:
    assert set_ability(ATHLETICS, "Athletics", 6, pool=6).pool == 6
    assert set_ability(ATHLETICS, "Athletics", 6, pool=0).pool == 0


def test_P1_rating_zero_for_an_untrained_test() -> None:
    assert set_ability(None, "Stealth", 0) == Ability("Stealth", GENERAL, 0, 0)


@pytest.mark.parametrize("pool", [-1, 6, 99])
def test_P1_pool_beyond_the_rating_is_refused(pool: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        set_ability(None, "Athletics", 5, pool=pool)
    assert refused.value.code == "invalid_value"
    assert refused.value.params == {"field": "pool", "min": 0, "max": 5}


@pytest.mark.parametrize("rating", [-1, 100])
def test_P1_rating_outside_0_to_99_is_refused(rating: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        set_ability(None, "Athletics", rating)
    assert refused.value.params == {"field": "rating", "min": 0, "max": 99}


def test_P1_rating_99_is_allowed() -> None:
    assert set_ability(None, "Athletics", 99).pool == 99


def test_omitted_kind_of_a_new_ability_comes_from_the_catalog() -> None:
    assert set_ability(None, "Library Use", 2).kind is INVESTIGATIVE
    assert set_ability(None, "buscar libros", 2).kind is INVESTIGATIVE
    assert set_ability(None, "Firearms", 2).kind is GENERAL


def test_omitted_kind_of_an_unknown_new_ability_is_general() -> None:
    assert set_ability(None, "Basket Weaving", 2).kind is GENERAL


def test_omitted_kind_of_an_existing_ability_is_kept() -> None:
    odd = Ability("Library Use", GENERAL, 2, 2)
    assert set_ability(odd, "Library Use", 3).kind is GENERAL


def test_explicit_kind_wins() -> None:
    assert set_ability(None, "Firearms", 2, kind=INVESTIGATIVE).kind is INVESTIGATIVE
    assert set_ability(LIBRARY_USE, "Library Use", 3, kind=GENERAL).kind is GENERAL


def test_set_ability_keeps_the_given_spelling_trimmed() -> None:
    assert set_ability(ATHLETICS, "  ATHLETICS ", 6).name == "ATHLETICS"


@pytest.mark.parametrize(
    "name",
    ["Health", "salud", " First Aid ", "PRIMEROS AUXILIOS", "Primeros auxilios", "first  aid"],
)
def test_health_and_first_aid_are_not_abilities(name: str) -> None:
    assert is_reserved_ability_name(name)
    with pytest.raises(ReservedAbility) as refused:
        set_ability(None, name, 3)
    assert refused.value.code == "reserved_ability"
    assert refused.value.params == {"name": name.strip()}


@pytest.mark.parametrize("name", ["Healthy", "Aid", "Firearms", "Stability", "Medicina", ""])
def test_other_names_are_not_reserved(name: str) -> None:
    assert not is_reserved_ability_name(name)


def test_at_most_60_abilities() -> None:
    check_can_add(0)
    check_can_add(MAX_ABILITIES - 1)
    with pytest.raises(TooManyAbilities) as refused:
        check_can_add(MAX_ABILITIES)
    assert refused.value.code == "too_many_abilities"
    assert refused.value.params == {"max": 60}


def test_ability_refuses_a_broken_invariant() -> None:
    with pytest.raises(ValueError):
        Ability("Athletics", GENERAL, rating=2, pool=3)
    with pytest.raises(ValueError):
        Ability("Athletics", GENERAL, rating=2, pool=-1)


# --- spend_ability ---------------------------------------------------------------------------


def test_P1_spend_lowers_the_pool() -> None:
    assert spend_ability(HEALTHY, ATHLETICS, 3) == replace(ATHLETICS, pool=1)


def test_P1_spend_of_the_whole_pool() -> None:
    assert spend_ability(HEALTHY, ATHLETICS, 4).pool == 0


def test_P1_spend_beyond_the_pool_is_refused() -> None:
    with pytest.raises(NotEnoughPool) as refused:
        spend_ability(HEALTHY, ATHLETICS, 5)
    assert refused.value.code == "not_enough_pool"
    assert refused.value.params == {"ability": "Athletics", "available": 4, "requested": 5}


@pytest.mark.parametrize("points", [0, -1, 100])
def test_P1_points_outside_1_to_99_are_refused(points: int) -> None:
    with pytest.raises(InvalidValue) as refused:
        spend_ability(HEALTHY, ATHLETICS, points)
    assert refused.value.code == "invalid_value"
    assert refused.value.params == {"field": "points", "min": 1, "max": 99}


def test_P2_investigative_spend_while_healthy() -> None:
    assert spend_ability(HEALTHY, LIBRARY_USE, 1).pool == 2


@pytest.mark.parametrize("who", [HURT, SERIOUSLY_WOUNDED], ids=["hurt", "seriously_wounded"])
def test_H3_no_investigative_spend_while_hurt(who: CharacterHealth) -> None:
    with pytest.raises(InvestigativeWhileHurt) as refused:
        spend_ability(who, LIBRARY_USE, 1)
    assert refused.value.code == "investigative_while_hurt"
    assert refused.value.params == {"ability": "Library Use", "state": who.state.value}


@pytest.mark.parametrize("who", [HURT, SERIOUSLY_WOUNDED], ids=["hurt", "seriously_wounded"])
def test_H3_general_spend_while_hurt_is_allowed(who: CharacterHealth) -> None:
    assert spend_ability(who, ATHLETICS, 1).pool == 3


def test_H5_dead_cannot_spend() -> None:
    with pytest.raises(CharacterDead) as refused:
        spend_ability(DEAD, ATHLETICS, 1)
    assert refused.value.code == "dead"
    assert refused.value.params == {}


def test_unconscious_cannot_spend() -> None:
    with pytest.raises(CharacterUnconscious) as refused:
        spend_ability(KNOCKED_OUT, ATHLETICS, 1)
    assert refused.value.code == "unconscious"


# --- make_test -------------------------------------------------------------------------------


def test_P3_success_when_die_plus_spend_reaches_the_difficulty() -> None:
    result = check(HEALTHY, die=2, spend=2)
    assert result == AbilityRoll(
        ability_after=replace(ATHLETICS, pool=2),
        die=2,
        spend=2,
        total=4,
        base_difficulty=DEFAULT_DIFFICULTY,
        penalty=0,
        difficulty=4,
        success=True,
        attack=False,
    )


def test_P3_failure_below_the_difficulty() -> None:
    result = check(HEALTHY, die=3, difficulty=5, spend=1)
    assert (result.total, result.difficulty, result.success) == (4, 5, False)


def test_P3_default_difficulty_is_4() -> None:
    assert check(HEALTHY).base_difficulty == 4 == DEFAULT_DIFFICULTY


def test_P3_default_hit_threshold_of_an_attack_is_3() -> None:
    result = check(HEALTHY, die=3, attack=True)
    assert (result.base_difficulty, result.difficulty, result.success, result.attack) == (
        DEFAULT_HIT_THRESHOLD,
        3,
        True,
        True,
    )


def test_P3_explicit_difficulty_and_hit_threshold() -> None:
    assert check(HEALTHY, difficulty=6).difficulty == 6
    assert check(HEALTHY, difficulty=5, attack=True).difficulty == 5
    assert check(HEALTHY, die=1, difficulty=0).success


def test_P3_spend_nothing_leaves_the_ability_unchanged() -> None:
    assert check(HEALTHY, spend=0).ability_after == ATHLETICS


def test_P3_the_die_is_a_d6() -> None:
    roller = RecordingRoller(5)
    make_test(HEALTHY, ATHLETICS, difficulty=None, spend=0, attack=False, roller=roller)
    assert roller.calls == [6]


def test_P3_roller_out_of_range_is_a_bug() -> None:
    with pytest.raises(ValueError):
        make_test(
            HEALTHY, ATHLETICS, difficulty=None, spend=0, attack=False, roller=RecordingRoller(7)
        )


def test_H3_hurt_raises_the_difficulty_by_1() -> None:
    result = check(HURT, die=4)
    assert (result.base_difficulty, result.penalty, result.difficulty) == (4, 1, 5)
    assert not result.success


def test_H3_hurt_raises_the_hit_threshold_by_1() -> None:
    result = check(HURT, die=3, spend=1, attack=True)
    assert (result.total, result.base_difficulty, result.penalty, result.difficulty) == (4, 3, 1, 4)
    assert result.success


def test_H4_seriously_wounded_raises_the_difficulty_by_1() -> None:
    result = check(SERIOUSLY_WOUNDED, die=4, spend=1)
    assert (result.penalty, result.difficulty, result.success) == (1, 5, True)


def test_H4_seriously_wounded_cannot_attack() -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(CannotFight) as refused:
        make_test(
            SERIOUSLY_WOUNDED, ATHLETICS, difficulty=None, spend=0, attack=True, roller=roller
        )
    assert refused.value.code == "cannot_fight"
    assert roller.remaining == 1


def test_H3_hurt_may_still_attack() -> None:
    assert check(HURT, attack=True).attack


def test_difficulty_penalty_by_state() -> None:
    assert [difficulty_penalty(who) for who in (HEALTHY, HURT, SERIOUSLY_WOUNDED)] == [0, 1, 1]


def test_P2_investigative_ability_is_never_tested() -> None:
    with pytest.raises(InvestigativeNotTested) as refused:
        check(HEALTHY, LIBRARY_USE)
    assert refused.value.code == "investigative_not_tested"
    assert refused.value.params == {"ability": "Library Use"}


def test_P1_test_spend_beyond_the_pool_is_refused() -> None:
    with pytest.raises(NotEnoughPool) as refused:
        check(HEALTHY, spend=5)
    assert refused.value.params == {"ability": "Athletics", "available": 4, "requested": 5}


@pytest.mark.parametrize(
    ("field", "difficulty", "spend"),
    [("difficulty", -1, 0), ("difficulty", 100, 0), ("spend", None, -1), ("spend", None, 100)],
)
def test_P3_numbers_out_of_range_are_refused(
    field: str, difficulty: int | None, spend: int
) -> None:
    with pytest.raises(InvalidValue) as refused:
        check(HEALTHY, difficulty=difficulty, spend=spend)
    assert refused.value.params["field"] == field
    assert (refused.value.params["min"], refused.value.params["max"]) == (0, 99)


def test_H5_dead_cannot_test() -> None:
    with pytest.raises(CharacterDead):
        check(DEAD)


def test_unconscious_cannot_test() -> None:
    with pytest.raises(CharacterUnconscious):
        check(KNOCKED_OUT)


@pytest.mark.parametrize(
    ("who", "ability", "spend", "attack"),
    [
        (DEAD, ATHLETICS, 0, False),
        (KNOCKED_OUT, ATHLETICS, 0, False),
        (HEALTHY, LIBRARY_USE, 0, False),
        (SERIOUSLY_WOUNDED, ATHLETICS, 0, True),
        (HEALTHY, ATHLETICS, 5, False),
        (HEALTHY, ATHLETICS, 100, False),
    ],
)
def test_P3_refusals_roll_no_die(
    who: CharacterHealth, ability: Ability, spend: int, attack: bool
) -> None:
    roller = ScriptedRoller([6])
    with pytest.raises(RuleError):
        make_test(who, ability, difficulty=None, spend=spend, attack=attack, roller=roller)
    assert roller.remaining == 1


def test_P1_first_aid_may_be_tested_as_a_general_ability() -> None:
    first_aid = Ability("First Aid", GENERAL, rating=3, pool=2)
    result = check(HURT, first_aid, die=4, spend=1)
    assert (result.ability_after.pool, result.difficulty, result.success) == (1, 5, True)


# --- refresh_ability -------------------------------------------------------------------------


def test_P1_refresh_brings_the_pool_back_to_the_rating() -> None:
    assert refresh_ability(ATHLETICS) == replace(ATHLETICS, pool=6)
    assert refresh_ability(LIBRARY_USE) == LIBRARY_USE


def test_every_refusal_is_a_rule_error_with_its_own_code() -> None:
    classes = [
        InvalidValue,
        NotEnoughPool,
        CharacterDead,
        CharacterUnconscious,
        InvestigativeWhileHurt,
        InvestigativeNotTested,
        CannotFight,
        ReservedAbility,
        TooManyAbilities,
    ]
    assert all(issubclass(cls, RuleError) for cls in classes)
    assert len({cls.code for cls in classes}) == len(classes)


# --- catalog ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Library Use", INVESTIGATIVE),
        ("Buscar Libros", INVESTIGATIVE),
        ("  cthulhu   MYTHOS ", INVESTIGATIVE),
        ("mitos de cthulhu", INVESTIGATIVE),
        ("Evaluar Sinceridad", INVESTIGATIVE),
        ("Detectar Mentiras", INVESTIGATIVE),
        ("Jerga Policial", INVESTIGATIVE),
        ("Fisica", INVESTIGATIVE),
        ("Medicina Forense", INVESTIGATIVE),
        ("Firearms", GENERAL),
        ("armas de fuego", GENERAL),
        ("Escaramuza", GENERAL),
        ("Pelea", GENERAL),
        ("Sentir el Peligro", GENERAL),
        ("Flying", GENERAL),
        ("Huida", GENERAL),
        ("Psicoanálisis", GENERAL),
    ],
)
def test_known_kind_in_either_language(name: str, kind: AbilityKind) -> None:
    assert known_kind(name) is kind


@pytest.mark.parametrize("name", ["Basket Weaving", "", "Arm", "Cthulhu"])
def test_unknown_names_have_no_kind(name: str) -> None:
    assert known_kind(name) is None


def test_catalog_names_are_unique_in_each_language() -> None:
    english = [known.english.casefold() for known in KNOWN_ABILITIES]
    spanish = [known.spanish.casefold() for known in KNOWN_ABILITIES]
    assert len(set(english)) == len(english)
    assert len(set(spanish)) == len(spanish)


def test_every_alias_finds_its_own_ability() -> None:
    for known in KNOWN_ABILITIES:
        for name in (known.english, known.spanish, *known.aliases):
            assert find_known(name) is known, name


def test_catalog_counts_and_reserved_entries() -> None:
    investigative = [k for k in KNOWN_ABILITIES if k.kind is INVESTIGATIVE]
    general = [k for k in KNOWN_ABILITIES if k.kind is GENERAL]
    assert len(investigative) == 38
    assert len(general) == 24
    reserved = {k.english for k in KNOWN_ABILITIES if k.reserved}
    assert reserved == {"Health", "First Aid"}


def test_suggest_in_spanish_matches_spanish_names_first() -> None:
    names = [known.spanish for known in suggest("arq", "es")]
    assert names[:2] == ["Arqueología", "Arquitectura"]


def test_suggest_is_case_and_accent_insensitive() -> None:
    assert [k.spanish for k in suggest("BIOLOGIA", "es")] == ["Biología"]
    assert [k.english for k in suggest("biología", "en")] == ["Biology"]


def test_suggest_prefers_a_prefix_to_a_substring() -> None:
    names = [known.english for known in suggest("hist", "en")]
    assert names == ["History", "Art History", "Oral History"]


def test_suggest_falls_back_to_the_other_language() -> None:
    assert [k.english for k in suggest("Firearms", "es")] == ["Firearms"]
    assert [k.spanish for k in suggest("Contabilidad", "en")] == ["Contabilidad"]


def test_suggest_in_the_requested_language_before_the_other() -> None:
    # "fi" starts Física, and Firearms and Filch in English (Armas de Fuego, Birlar in
    # Spanish, in that order); it is only inside Criptografía and Fotografía: not offered.
    assert [k.spanish for k in suggest("fi", "es")] == ["Física", "Armas de Fuego", "Birlar"]
    assert [k.english for k in suggest("fi", "en")][:2] == ["Filch", "Firearms"]


def test_suggest_matches_the_start_of_a_word_only() -> None:
    """Issue 20: ``tir`` suggested Evaluar Sinceridad (its hidden alias Detectar Mentiras
    holds those letters) and Sentir el Peligro; no ability has a word starting with it."""
    assert suggest("tir", "es") == []
    assert suggest("tir", "en") == []
    assert [k.spanish for k in suggest("pelig", "es")] == ["Sentir el Peligro"]
    assert [k.spanish for k in suggest("mentir", "es")] == ["Evaluar Sinceridad"]


def test_suggest_prefix_in_the_language() -> None:
    assert [k.spanish for k in suggest("armas", "es")] == ["Armas", "Armas de Fuego"]


def test_suggest_never_offers_health_or_first_aid() -> None:
    for text in ("Salud", "Health", "Primeros", "First", "aid", ""):
        for language in ("es", "en"):
            offered = {known.english for known in suggest(text, language)}
            assert not offered & {"Health", "First Aid"}, (text, language)


def test_suggest_respects_the_limit() -> None:
    assert len(suggest("", "en")) == 25
    assert len(suggest("", "es", limit=100)) == len(KNOWN_ABILITIES) - 2
    assert suggest("a", "en", limit=3) == suggest("a", "en")[:3]
    assert suggest("a", "en", limit=0) == []


def test_suggest_empty_text_is_alphabetical_in_the_language() -> None:
    names = [known.spanish for known in suggest("", "es", limit=5)]
    assert names == ["Adulación", "Antropología", "Armas", "Armas de Fuego", "Arqueología"]


def test_suggest_finds_aliases_last() -> None:
    assert [k.spanish for k in suggest("Documentaci", "es")] == ["Buscar Libros"]


def test_suggest_unknown_text_gives_nothing() -> None:
    assert suggest("zzz", "en") == []


# --- properties ------------------------------------------------------------------------------

healths = st.integers(min_value=-11, max_value=10)
ratings = st.integers(min_value=0, max_value=99)


@st.composite
def abilities(draw: st.DrawFn) -> Ability:
    rating = draw(ratings)
    pool = draw(st.integers(min_value=0, max_value=rating))
    return Ability("Weapons", draw(st.sampled_from(AbilityKind)), rating, pool)


def _pool_ok(ability: Ability) -> bool:
    return 0 <= ability.pool <= ability.rating


@given(
    ability=abilities(),
    actions=st.lists(
        st.tuples(
            st.sampled_from(["set", "spend", "test", "refresh"]),
            st.integers(min_value=-5, max_value=105),
            st.integers(min_value=-5, max_value=105),
            st.integers(min_value=1, max_value=6),
        ),
        max_size=12,
    ),
    health=healths,
)
def test_P1_pool_always_within_0_and_the_rating(
    ability: Ability, actions: list[tuple[str, int, int, int]], health: int
) -> None:
    who = character(health)
    for action, first, second, die in actions:
        try:
            if action == "set":
                ability = set_ability(
                    ability, ability.name, first, pool=None if second < 0 else second
                )
            elif action == "spend":
                ability = spend_ability(who, ability, first)
            elif action == "test":
                ability = make_test(
                    who,
                    ability,
                    difficulty=None,
                    spend=first,
                    attack=second % 2 == 0,
                    roller=ScriptedRoller([die]),
                ).ability_after
            else:
                ability = refresh_ability(ability)
        except RuleError:
            pass
        assert _pool_ok(ability)


@given(
    rating=ratings,
    data=st.data(),
    health=healths,
    die=st.integers(min_value=1, max_value=6),
    difficulty=st.none() | st.integers(min_value=0, max_value=99),
    attack=st.booleans(),
)
def test_P3_success_iff_die_plus_spend_reaches_base_plus_penalty(
    rating: int,
    data: st.DataObject,
    health: int,
    die: int,
    difficulty: int | None,
    attack: bool,
) -> None:
    who = character(health)
    spend = data.draw(st.integers(min_value=0, max_value=rating))
    ability = Ability("Firearms", GENERAL, rating, rating)
    if attack and state_of(health) is HealthState.SERIOUSLY_WOUNDED:
        with pytest.raises(CannotFight):
            check(who, ability, die=die, difficulty=difficulty, spend=spend, attack=attack)
        return
    result = check(who, ability, die=die, difficulty=difficulty, spend=spend, attack=attack)
    wounded = state_of(health) in (HealthState.HURT, HealthState.SERIOUSLY_WOUNDED)
    assert result.penalty == (1 if wounded else 0)
    assert result.difficulty == result.base_difficulty + result.penalty
    assert result.total == die + spend
    assert result.success is (die + spend >= result.base_difficulty + result.penalty)
    assert result.ability_after.pool == rating - spend


# --- Abilities (P1, P3): the messages of broken invariants and a broken roller --------------------
class _BrokenRoller:
    """A roller that breaks its contract (a d6 that shows 7)."""

    def roll(self, sides: int) -> int:
        return sides + 1


def test_P1_rating_outside_its_range_says_which() -> None:
    with pytest.raises(ValueError, match=r"^rating 100 outside 0\.\.99$"):
        Ability("Athletics", AbilityKind.GENERAL, rating=100, pool=0)


def test_P1_pool_outside_its_rating_says_which() -> None:
    with pytest.raises(ValueError, match=r"^pool 5 outside 0\.\.3$"):
        Ability("Athletics", AbilityKind.GENERAL, rating=3, pool=5)


def test_P3_a_die_outside_1_to_6_is_a_bug_that_names_the_value() -> None:
    athletics = Ability("Athletics", AbilityKind.GENERAL, rating=3, pool=3)
    with pytest.raises(ValueError, match=r"^roller returned 7 for a d6$"):
        make_test(
            character(10),
            athletics,
            difficulty=None,
            spend=0,
            attack=False,
            roller=_BrokenRoller(),
        )


# --- The ability catalog: its builders, its index, and the ranking of ``suggest`` -----------------
def test_inv_builds_an_investigative_ability_with_its_aliases() -> None:
    assert _inv("Law", "Derecho", "Leyes") == KnownAbility(
        "Law", "Derecho", AbilityKind.INVESTIGATIVE, aliases=("Leyes",)
    )


def test_gen_builds_a_general_ability_with_its_aliases() -> None:
    assert _gen("Scuffling", "Escaramuza", "Pelea") == KnownAbility(
        "Scuffling", "Escaramuza", AbilityKind.GENERAL, aliases=("Pelea",)
    )


def test_index_finds_every_name_and_alias_of_every_ability() -> None:
    index = _build_index()
    names = {
        normalize(name): known
        for known in KNOWN_ABILITIES
        for name in (known.english, known.spanish, *known.aliases)
    }
    # No name of one ability is the name or alias of another, so nothing is shadowed.
    assert index == names
    assert index == _INDEX
    assert index[normalize("pelea")] is index[normalize("Scuffling")]


def test_suggest_respects_a_limit_of_one() -> None:
    assert len(suggest("", "en", limit=1)) == 1
    assert suggest("", "en", limit=0) == []


def test_suggest_ranks_a_name_in_the_other_language_above_an_alias() -> None:
    # "pel": inside the Spanish "Sentir el Peligro" (other language, substring: rank 3) and
    # at the start of the alias "Pelea" of Scuffling (alias prefix: rank 4).
    assert [known.english for known in suggest("pel", "en")] == ["Sense Trouble", "Scuffling"]
