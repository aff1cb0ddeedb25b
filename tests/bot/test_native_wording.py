"""Wording a native speaker at the table would fix (issue 24, point 8), kept out of every
message of its language: each phrase below was found in a play session, and each has the
sentence that replaced it."""

from __future__ import annotations

import pytest

from bot.i18n import Language, catalog, text

#: Phrases no message of the language may hold, with why.
REFUSED = {
    Language.ES: {
        "el gasto se hace": "a calque of 'the spend is made': 'gasta igualmente'",
        "personaje Alterado": "a state's label capitalised mid-sentence",
        "Shrink": "the SRD's English word for Psicoanálisis",
    },
    Language.EN: {
        "for the pain": "'is in too much pain to spend'",
        "keeps composure": "'stays composed'",
        "never above maximum Stability": "'up to the maximum'",
        "knocks it out": "a character is never 'it'",
        "the spend is made": "'spends all the same'",
    },
}


@pytest.mark.parametrize("language", list(Language))
def test_no_message_holds_a_phrase_a_native_would_fix(language: Language) -> None:
    found = [
        (key, phrase)
        for key, message in catalog(language).items()
        for phrase in REFUSED[language]
        if phrase in message
    ]
    assert found == []


def test_a_lucid_scene_is_said_as_a_label_without_a_gender() -> None:
    """Without ``gender`` a flag stands as a label (COMMANDS.md "Grammar"), never agreeing
    with the character in the masculine."""
    assert text(Language.ES, "render.stability.flag.lucid") == "Lucidez en esta escena"
    assert text(Language.ES, "render.stability.flag.lucid.feminine") == "Lúcida esta escena"
    assert text(Language.ES, "render.stability.flag.lucid.masculine") == "Lúcido esta escena"


def test_the_wording_that_replaced_them() -> None:
    assert text(Language.ES, "render.stability.composure.faltered") == (
        "Fallo — flaquea, pero gasta igualmente"
    )
    assert text(Language.EN, "render.stability.composure.kept") == "Success — stays composed"
    assert "is in too much pain to spend investigative points" in text(
        Language.EN, "error.investigative_while_hurt", name="Ana", ability="Occult"
    )
    restored = text(
        Language.EN,
        "stability.treat.restored_limited",
        medic="Dr",
        points=1,
        pool="3 → 2",
        restored=1,
        rating=6,
    )
    assert restored.endswith("+1 Stability, up to the maximum (6).")
    assert "on a failure they fall unconscious" in text(Language.EN, "help.rules.value")
