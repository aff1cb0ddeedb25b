"""The ability catalog: its builders, its index, and the ranking of ``suggest``.

``_inv``, ``_gen`` and ``_build_index`` run once, at import; mutmut switches mutants on only
while a test runs, so these tests call them again to check what they build.
"""

from __future__ import annotations

from rules.ability_catalog import (
    _INDEX,
    KNOWN_ABILITIES,
    AbilityKind,
    KnownAbility,
    _build_index,
    _gen,
    _inv,
    normalize,
    suggest,
)


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
