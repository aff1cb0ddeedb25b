"""Lists (COMMANDS.md, Replies: Lists; One message per command), end to end, both languages:
``/character list``, ``/scene status``, the tracker and autocomplete in the order a reader of
the language expects — case and accents ignored (``Cónsul Britton`` before ``Criada
Úrsula``), and in Spanish ``ñ`` a letter after ``n`` — and at most 20 characters a page (the
tracker, one message that cannot page, shows the first 20 and how many more).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import create, gm_of, insert_characters

#: Created in this order, which is no reader's.
NAMES = ("Zoe", "Ñaque", "Criada Úrsula", "nadia", "Nuño", "Cónsul Britton", "Óscar")
#: How a reader of each language expects them.
EXPECTED = {
    "en-US": ["Cónsul Britton", "Criada Úrsula", "nadia", "Ñaque", "Nuño", "Óscar", "Zoe"],
    "es-ES": ["Cónsul Britton", "Criada Úrsula", "nadia", "Nuño", "Ñaque", "Óscar", "Zoe"],
}
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def bold_names(text: str) -> list[str]:
    """The names a list shows in bold, in order."""
    return [name for name in _BOLD.findall(text) if name in NAMES]


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_lists_are_in_the_order_a_reader_of_the_language_expects(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]], locale: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    for name in NAMES:
        await create(fake, guild, gm, name, 9)
    expected = EXPECTED[locale]

    listed = await fake.slash(guild, gm, "character list")
    assert bold_names(listed.embed["description"]) == expected
    status = await fake.slash(guild, gm, "scene status")
    assert bold_names(status.embed["description"]) == expected
    tracker = await fake.slash(guild, gm, "scene tracker")
    assert bold_names(tracker.embed["description"]) == expected
    choices = await fake.autocomplete(
        guild, gm, "character show", {"character": ""}, focused="character"
    )
    assert [choice["name"] for choice in choices] == expected


async def test_ability_autocomplete_is_in_reading_order_and_matches_word_starts(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, gm, "Amelia Ríos", 9)
    for ability in ("Tiro con Arco", "Ñoñería", "Conducción", "Cerrajería", "Nadar"):
        added = await fake.slash(
            guild, gm, "ability set", {"character": "Amelia", "ability": ability, "rating": 2}
        )
        assert not added.ephemeral, added.text

    async def offered(typed: str) -> list[str]:
        choices = await fake.autocomplete(
            guild, gm, "spend", {"character": "Amelia", "ability": typed}, focused="ability"
        )
        return [choice["value"] for choice in choices]

    everything = await offered("")
    assert everything[:5] == ["Cerrajería", "Conducción", "Nadar", "Ñoñería", "Tiro con Arco"]
    # Issue 20: "tir" offered Evaluar Sinceridad first (its alias "Detectar Mentiras" holds
    # the letters), then Sentir el Peligro: only a word's start matches now.
    assert await offered("tir") == ["Tiro con Arco"]
    assert await offered("arco") == ["Tiro con Arco"]


async def test_scene_status_pages_twenty_characters_and_the_tracker_shows_twenty(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    """Issue 20: ``/scene status`` with 36 characters was one page of 48 phone lines."""
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    names = [f"Investigador {index:02d}" for index in range(36)]
    insert_characters(bot, guild, gm, names)

    first = await fake.slash(guild, gm, "scene status")
    title = first.embed["title"]
    assert "36 personajes en juego" in title and "(página 1/2)" in title, title
    assert bold_names_of(first.embed["description"]) == names[:20]
    turn = next(b["custom_id"] for b in first.buttons if "Siguiente" in b["label"])
    second = await fake.click(guild, guild.member("Mirona"), first, turn)
    page = second.message["embeds"][0] if second.message else {}
    assert "(página 2/2)" in page["title"]
    assert bold_names_of(page["description"]) == names[20:]

    tracker = await fake.slash(guild, gm, "scene tracker")
    assert tracker.embed["title"] == "Seguimiento en vivo — 36 personajes en juego"
    description = tracker.embed["description"]
    assert bold_names_of(description) == names[:20]
    assert "… y 16 más" in description


def bold_names_of(text: str) -> list[str]:
    return _BOLD.findall(text)
