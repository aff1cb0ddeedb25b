"""The dead (COMMANDS.md "The dead"): left out of what no longer concerns them — ``/scene
new``'s reply, ``/refresh``, ``/time`` — and listed on one closing line of ``/scene status``.
Both languages, through the real bot."""

from __future__ import annotations

from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord
from devkit.harness import BotProcess
from tests.e2e.kit import correct, create, gm_of, rows


@pytest.mark.parametrize(
    ("locale", "fallen"),
    [
        ("en-US", "💀 Fallen: Jack Malone, Renée Pennington"),
        ("es-ES", "💀 Han muerto: Jack Malone, Renée Pennington"),
    ],
)
async def test_the_dead_are_left_out_and_close_the_scene_status(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any, locale: str, fallen: str
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    for name in ("Amelia Ríos", "Jack Malone", "Renée Pennington"):
        await create(fake, guild, gm, name, 9, first_aid=4)
        await correct(fake, guild, gm, name, health=-7, first_aid=1)
    for name in ("Jack Malone", "Renée Pennington"):
        await correct(fake, guild, gm, name, health=-12)
    dead_before = {name: rows(bot, guild)[name] for name in ("Jack Malone", "Renée Pennington")}

    for command, options in (("scene new", {}), ("time", {"minutes": 30}), ("refresh", {})):
        reply = await fake.slash(guild, gm, command, options)
        assert not reply.ephemeral, reply.text
        assert "Amelia Ríos" in reply.text, (command, reply.text)
        for name in ("Jack Malone", "Renée Pennington"):
            assert name not in reply.text, (command, reply.text)
    assert {name: rows(bot, guild)[name] for name in dead_before} == dead_before
    assert rows(bot, guild)["Amelia Ríos"]["first_aid_pool"] == 4

    status = await fake.slash(guild, guild.member("Mirona"), "scene status")
    assert not status.ephemeral
    assert "Amelia Ríos" in status.embed["description"]
    assert "Jack" not in status.embed["description"]
    assert status.embed["footer"]["text"] == fallen
