"""``gender`` (COMMANDS.md "Grammar"): without it no reply assumes one; with it Spanish agrees
and English says she/he. Stored, shown by ``/character show``, corrected by ``/character
set`` and undone like any correction; both languages, through the real bot."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import field, state_shown, stored
from tests.e2e.kit import undo as confirmed_undo

#: A Spanish sentence in which a state or flag agrees with the character as an adjective:
#: "está dañado", "queda estabilizada", "ahora está Gravemente herido".
AGREEING = re.compile(
    r"\b(?:está|queda|sigue|ahora está)\s+(?:ahora\s+)?(?:gravemente\s+)?"
    r"(?:ilesa|ileso|dañada|dañado|herida|herido|muerta|muerto|estabilizada|estabilizado|"
    r"hospitalizada|hospitalizado)\b",
    re.IGNORECASE,
)
#: Spanish adjectives in their feminine form.
FEMININE = re.compile(r"\b(?:Ilesa|Dañada|herida|Muerta|estabilizada|Estabilizada)\b")


async def _fight(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember, name: str) -> list[Reply]:
    """A fight: hurt to Seriously wounded, stabilized by a medic, hurt again, then killed."""
    replies = [
        await fake.slash(guild, gm, "hurt", {"character": name, "amount": "16"}),
        await fake.slash(guild, gm, "firstaid", {"medic": "Medic", "patient": name, "points": 2}),
        await fake.slash(guild, gm, "hurt", {"character": name, "amount": "1"}),
        await fake.slash(guild, gm, "rest", {"character": name, "days": 1, "hospital": True}),
        await fake.slash(guild, gm, "character show", {"character": name}),
        await fake.slash(guild, gm, "hurt", {"character": name, "amount": "30"}),
    ]
    for reply in replies:
        assert not reply.ephemeral, reply.text
    return replies


async def _table(
    fake: FakeDiscord, make_guild: Callable[..., Awaitable[FakeGuild]], locale: str, **gender: str
) -> tuple[FakeGuild, FakeMember]:
    guild = await make_guild(locale=locale)
    gm = guild.owner
    created = await fake.slash(
        guild, gm, "character create", {"name": "Amelia Ríos", "health": 9, **gender}
    )
    assert not created.ephemeral, created.text
    medic = await fake.slash(
        guild, gm, "character create", {"name": "Medic", "health": 9, "first_aid": 6}
    )
    assert not medic.ephemeral, medic.text
    return guild, gm


async def test_without_gender_no_spanish_reply_agrees_with_the_character(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, gm = await _table(fake, make_guild, "es-ES")
    replies = await _fight(fake, guild, gm, "Amelia Ríos")
    for reply in replies:
        assert not AGREEING.search(reply.text), reply.text
        assert not FEMININE.search(reply.text), reply.text
    # States and flags stand as labels.
    assert state_shown(replies[0].embed, "es").startswith("Ileso → **Gravemente herido**")
    assert "Amelia Ríos deja de desangrarse." in field(replies[1].embeds[0], "Primeros Auxilios")
    assert replies[5].embed["title"] == "Amelia Ríos ha muerto"
    assert stored(bot, guild, "Amelia Ríos")["gender"] is None


async def test_feminine_spanish_sentences_and_labels_agree(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, gm = await _table(fake, make_guild, "es-ES", gender="feminine")
    replies = await _fight(fake, guild, gm, "Amelia Ríos")
    assert state_shown(replies[0].embed, "es").startswith("Ilesa → **Gravemente herida**")
    assert "Amelia Ríos queda estabilizada y deja de desangrarse." in field(
        replies[1].embeds[0], "Primeros Auxilios"
    )
    assert "Amelia Ríos ya no está estabilizada" in replies[2].text
    shown = replies[4].embed
    state = state_shown(shown, "es")
    assert state.startswith("**Gravemente herida** · ") and " · Estabilizada · " in state
    assert shown["footer"]["text"].startswith("Femenino · ")
    assert "devolverla a la partida" in replies[5].embed["description"]
    for reply in replies:
        assert not re.search(r"\b(?:herido|Dañado|estabilizado|Estabilizado)\b", reply.text), (
            reply.text
        )
    assert stored(bot, guild, "Amelia Ríos")["gender"] == "feminine"


async def test_english_uses_she_her_with_gender_and_never_it(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, gm = await _table(fake, make_guild, "en-US", gender="feminine")
    replies = await _fight(fake, guild, gm, "Amelia Ríos")
    assert "her fresh wounds undo the stabilization" in replies[2].text
    assert replies[4].embed["footer"]["text"].startswith("She/her · ")
    assert replies[5].embed["description"].startswith("She takes no further action")
    assert "bring her back" in replies[5].embed["description"]

    plain, gm = await _table(fake, make_guild, "en-US")
    for reply in await _fight(fake, plain, gm, "Amelia Ríos"):
        words = set(re.findall(r"[A-Za-z']+", reply.text))
        assert not words & {"it", "its", "itself", "she", "her", "he", "his", "him"}, reply.text


async def test_gender_is_corrected_and_undone_like_any_correction(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild, gm = await _table(fake, make_guild, "es-ES", gender="feminine")
    none = await fake.slash(
        guild, gm, "character set", {"character": "Amelia Ríos", "gender": "none"}
    )
    assert not none.ephemeral, none.text
    assert field(none.embed, "Qué ha pasado") == "Género de Amelia Ríos: sin indicar."
    assert stored(bot, guild, "Amelia Ríos")["gender"] is None
    shown = await fake.slash(guild, gm, "character show", {"character": "Amelia Ríos"})
    assert "Femenino" not in shown.text

    same = await fake.slash(
        guild, gm, "character set", {"character": "Amelia Ríos", "gender": "none"}
    )
    assert "Nada que corregir" in same.text

    undo = await confirmed_undo(fake, guild, gm)
    assert not undo.ephemeral, undo.text
    assert "**Amelia Ríos**: género: de nuevo femenino" in undo.text
    assert stored(bot, guild, "Amelia Ríos")["gender"] == "feminine"
    back = await fake.slash(guild, gm, "character show", {"character": "Amelia Ríos"})
    assert back.embed["footer"]["text"].startswith("Femenino · ")

    player = guild.member("Pepa", locale="es-ES")
    refused = await fake.slash(
        guild, player, "character set", {"character": "Amelia Ríos", "gender": "masculine"}
    )
    assert refused.ephemeral and "Solo un DJ" in refused.text
    assert stored(bot, guild, "Amelia Ríos")["gender"] == "feminine"
