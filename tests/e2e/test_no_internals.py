"""No internals in any reply or help page (COMMANDS.md, Replies), end to end, both languages.

Every payload of the e2e suite is scanned after each test (``tests/e2e/conftest.py``,
``tests/e2e/kit/internals.py``); this file makes sure the replies that leaked in issue 20 —
``(H4)``, ``(el dolor, H3)``, ``usa /rest con `hospital: True```, ``yes → no`` — and every
help page are among them, and checks each directly, so that a failure names its reply.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import correct, create, gm_of, make_table
from tests.e2e.kit.internals import leaks_in


def clean(reply: Reply, *fragments: str) -> None:
    """The reply shows each fragment and no internal."""
    shown = "\n".join(
        [reply.text, *(str(label) for label in (b.get("label") for b in reply.buttons))]
    )
    for fragment in fragments:
        assert fragment in shown, (fragment, shown)
    assert leaks_in(shown) == [], shown


WORDS = {
    "en-US": {
        "attack": "can no longer fight: no attacks",
        "spend": "too much pain to spend investigative points",
        "rest": "use /rest with the hospital option",
        "stabilized": "hospital is next (/rest with the hospital option)",
        "due again": "the Consciousness roll is due again",
    },
    "es-ES": {
        "attack": "no puede atacar",
        "spend": "no deja gastar habilidades de investigación",
        "rest": "usa /rest con la opción hospital",
        "stabilized": "toca el hospital (/rest con la opción hospital)",
        "due again": "vuelve a tener pendiente la Tirada de Consciencia",
    },
}


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_refusals_and_undo_say_rules_options_and_flags_in_words(
    fake: FakeDiscord,
    bot: BotProcess,
    make_guild: Callable[..., Awaitable[FakeGuild]],
    locale: str,
) -> None:
    words = WORDS[locale]
    guild = await make_guild(locale=locale)
    table = await make_table(fake, bot, guild, locale=locale, first_aid=4)
    gm, ana = table.gm, table.ana
    await table.set_abilities("Ana", ("Firearms", 4), ("Library Use", 2))
    await create(fake, guild, gm, "Doc", 9, first_aid=6)

    await correct(fake, guild, gm, "Ana", health=-1)  # Hurt
    library = "Library Use"
    spend = await table.slash(ana, "spend", {"character": "Ana", "ability": library, "points": 1})
    clean(spend, words["spend"])
    await correct(fake, guild, gm, "Ana", health=-7)  # Seriously wounded
    attack = await table.slash(
        ana, "check", {"character": "Ana", "ability": "Firearms", "attack": True}
    )
    clean(attack, words["attack"])
    clean(await table.slash(ana, "rest", {"character": "Ana", "days": 1}), words["rest"])
    aid = {"medic": "Doc", "patient": "Ana", "points": 2}
    assert not (await table.slash(gm, "firstaid", aid)).ephemeral  # stabilized
    clean(await table.slash(gm, "firstaid", aid), words["stabilized"])

    await correct(fake, guild, gm, "Ana", health=5)  # the roll no longer due
    clean(await table.slash(gm, "undo"), words["due again"])


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_every_help_page_is_free_of_internals(
    fake: FakeDiscord, guild: FakeGuild, locale: str
) -> None:
    reader = guild.member(f"Reader-{locale}", locale=locale)
    overview = await fake.slash(guild, reader, "help")
    clean(overview)
    rules = await fake.click(guild, reader, overview, overview.buttons[0]["custom_id"])
    clean(rules)
    everything = await fake.autocomplete(guild, reader, "help", {"command": ""}, focused="command")
    assert len(everything) >= 20
    for choice in everything:
        assert leaks_in(choice["name"]) == [], choice
        clean(await fake.slash(guild, reader, "help", {"command": choice["value"]}))


async def test_gender_is_named_as_the_picker_shows_it(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    for locale, shown, back in (
        ("en-US", "she/her", "gender: not given"),
        ("es-ES", "femenino", "género: sin indicar"),
    ):
        guild = await make_guild(locale=locale)
        gm = gm_of(guild, locale=locale)
        await create(fake, guild, gm, "Amelia Ríos", 9)
        corrected = await fake.slash(
            guild, gm, "character set", {"character": "Amelia", "gender": "feminine"}
        )
        clean(corrected, shown)
        clean(await fake.slash(guild, gm, "history"), shown)
        clean(await fake.slash(guild, gm, "undo"), back)
