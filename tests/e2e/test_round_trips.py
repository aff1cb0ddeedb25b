"""Round trips to aiosqlite's thread per command, counted on the real commands, end to end.

Each aiosqlite call is a round trip to its thread (a queue put, a thread switch, a wake-up of
the loop), and a transaction holds the storage lock across its trips (docs/DESIGN.md, Storage).
The devkit's probe (``devkit/probe.py``) counts them inside the bot process: every call that
reaches ``aiosqlite.Connection._execute`` is given to the interaction whose work made it — the
command's own task and every task that started, also after the reply (keeping the message
that carries roll buttons, the sweep that disables old ones, the live tracker).
``bot.settled(reply)`` returns them once all that work is done, so a trip that a command
causes anywhere in the bot is counted, whatever module of ``bot/`` makes it.

Pinned today, in a server in play (its settings, character names, and what the live tracker
and the roll buttons remember of it already read; the first command of a server pays those):

=========================================================  =====
command                                                    trips
=========================================================  =====
``/hurt``                                                      2
``/hurt`` whose damage makes a Consciousness roll fall due     4
``/conscious`` (the roll's buttons kept on a message)          5
a press of a Consciousness button (its buttons kept)           4
``/stability test`` (its buttons kept on a message)            4
a press of a Stability test button                             4
``/firstaid``                                                  2
``/character show``                                            1
autocomplete of a character option                             0
``/character create``                                          3
``/undo``: the preview, then its Confirm                     2, 8
the first command of a new server (``/character create``)      6
=========================================================  =====

A test that fails with more trips is a regression: the failure lists every trip (the first
words of its SQL, or the statements sent together in one trip), so the new one is found. With
fewer, lower the pin. A bot of this module's own serves these tests: the WAL checkpoint that
the bot starts every 100 commits would be counted for whichever command is the hundredth
(this module commits about 60 times); the checkpoint it starts once the commands stop is
nobody's.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
import pytest_asyncio

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import confirm_id, create, gm_of, roll_shown
from tests.e2e.kit.processes import fake_with_bot

Pair = tuple[FakeDiscord, BotProcess]


@pytest_asyncio.fixture(scope="module")
async def own(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    """A fake Discord and a bot for this module only (see the module's docstring)."""
    tmp = tmp_path_factory.mktemp("trips")
    async with fake_with_bot(tmp, name="trips", token="trips-token") as pair:
        yield pair


@dataclass
class InPlay:
    """A server in play: a GM, Ana's player, Ana (hurt to 7 of 9) and a medic."""

    fake: FakeDiscord
    bot: BotProcess
    guild: FakeGuild
    gm: FakeMember
    player: FakeMember

    async def slash(self, member: FakeMember, command: str, **options: object) -> Reply:
        reply = await self.fake.slash(self.guild, member, command, options)
        assert not reply.ephemeral, reply.text
        return reply


@pytest_asyncio.fixture
async def table(own: Pair) -> InPlay:
    fake, bot = own
    guild = await fake.create_guild()
    gm, player = gm_of(guild), guild.member("Ana")
    table = InPlay(fake, bot, guild, gm, player)
    await table.slash(gm, "character create", name="Ana", health=9, player=player)
    await create(fake, guild, gm, "Medic", 9, first_aid=4)
    # The server's character names read once, by the first command that names one.
    await bot.settled(await table.slash(gm, "hurt", character="Ana", amount="2"))
    return table


async def trips_of(bot: BotProcess, interaction: Reply | str, pinned: int, what: str) -> None:
    """The interaction made exactly ``pinned`` round trips, its work after the reply included."""
    trips = (await bot.settled(interaction)).all_trips
    assert len(trips) == pinned, f"{what}: {len(trips)} trips, pinned {pinned}:\n" + "\n".join(
        f"  {trip}" for trip in trips
    )


async def roll_due(table: InPlay) -> Reply:
    """Ana hurt from 7 to -2: a roll falls due; its buttons are kept (all done)."""
    reply = await table.slash(table.gm, "hurt", character="Ana", amount="9")
    assert reply.buttons, reply.text
    await table.bot.settled(reply)
    return reply


async def test_hurt(table: InPlay) -> None:
    reply = await table.slash(table.gm, "hurt", character="Ana", amount="1")
    await trips_of(table.bot, reply, 2, "/hurt")


async def test_hurt_with_a_roll_falling_due(table: InPlay) -> None:
    """Numbering the roll and keeping the message that carries its buttons cost 2 more."""
    reply = await table.slash(table.gm, "hurt", character="Ana", amount="9")
    assert reply.buttons, reply.text
    await trips_of(table.bot, reply, 4, "/hurt making a roll due")


async def test_conscious(table: InPlay) -> None:
    """The roll made, then the message with its buttons swept (read, edited, forgotten)."""
    await roll_due(table)
    await table.bot.script_dice(4)
    reply = await table.slash(table.player, "conscious", character="Ana")
    assert roll_shown(reply.embed, die=4).success
    await trips_of(table.bot, reply, 5, "/conscious")


async def test_a_consciousness_button(table: InPlay) -> None:
    """The roll's transaction (which forgets the pressed message: the press edits it in its
    response), the button's roll number read, and the sweep's look at the server's other
    messages. It was 6: a sweep fetched and edited the pressed message itself."""
    due = await roll_due(table)
    await table.bot.script_dice(4)
    pressed = await table.fake.click(table.guild, table.player, due, due.buttons[0]["custom_id"])
    assert roll_shown((await pressed.answer()).embed, die=4).success
    await trips_of(table.bot, pressed, 4, "a Consciousness button")


async def test_firstaid(table: InPlay) -> None:
    reply = await table.slash(table.gm, "firstaid", medic="Medic", patient="Ana", points=1)
    await trips_of(table.bot, reply, 2, "/firstaid")


async def test_character_show(table: InPlay) -> None:
    reply = await table.slash(table.player, "character show", character="Ana")
    await trips_of(table.bot, reply, 1, "/character show")


async def test_autocomplete(table: InPlay) -> None:
    fake = table.fake
    choices = await fake.autocomplete(
        table.guild, table.gm, "hurt", {"character": "an"}, focused="character"
    )
    assert [choice["value"] for choice in choices][:1] == ["Ana"], choices
    interaction = list(fake.interactions)[-1]
    assert fake.interactions[interaction].label == "autocomplete /hurt character"
    await trips_of(table.bot, interaction, 0, "autocomplete")


async def test_character_create(table: InPlay) -> None:
    reply = await table.slash(table.gm, "character create", name="Bea", health=8)
    await trips_of(table.bot, reply, 3, "/character create")


async def test_undo(table: InPlay) -> None:
    preview = await table.fake.slash(table.guild, table.gm, "undo")
    await trips_of(table.bot, preview, 2, "/undo (the preview)")
    confirm = confirm_id(preview)
    assert confirm is not None, preview.text
    confirmed = await table.fake.click(table.guild, table.gm, preview, confirm)
    # The entry and its characters are read twice: once in the transaction to check it is
    # still the one previewed, once by the undo itself (6 trips in tests/storage).
    await trips_of(table.bot, confirmed, 8, "/undo (Confirm)")


async def test_the_first_command_of_a_new_server(own: Pair) -> None:
    """The server's settings read, and the live tracker and the roll buttons each look once
    whether the server has anything of theirs (nothing: remembered, so later changes skip)."""
    fake, bot = own
    guild = await fake.create_guild()
    reply = await create(fake, guild, gm_of(guild), "Ana", 9)
    await trips_of(bot, reply, 6, "the first /character create of a server")


async def stability_call(table: InPlay) -> Reply:
    """A Stability test called for Ana's second character (the server in play), its buttons
    kept (all done)."""
    await table.slash(
        table.gm, "character create", name="Olga", health=9, stability=6, player=table.player
    )
    await table.bot.settled(await table.slash(table.gm, "hurt", character="Olga", amount="1"))
    reply = await table.slash(table.gm, "stability test", loss=3, character="Olga")
    assert reply.buttons, reply.text
    return reply


async def test_stability_test(table: InPlay) -> None:
    """As a /hurt that makes a roll fall due: the characters read with BEGIN, the tests
    numbered (read back), the COMMIT, then the message carrying the buttons kept."""
    await table.slash(table.gm, "character create", name="Olga", health=9, stability=6)
    await table.bot.settled(await table.slash(table.gm, "hurt", character="Olga", amount="1"))
    reply = await table.slash(table.gm, "stability test", loss=3, character="Olga")
    assert reply.buttons, reply.text
    await trips_of(table.bot, reply, 4, "/stability test")


async def test_a_stability_test_button(table: InPlay) -> None:
    """As a Consciousness button: the roll's transaction with the test's number read, and
    the sweep's look at the server's other messages."""
    due = await stability_call(table)
    await table.bot.settled(due)
    await table.bot.script_dice(4)
    pressed = await table.fake.click(table.guild, table.player, due, due.buttons[0]["custom_id"])
    assert not (await pressed.answer()).ephemeral
    await trips_of(table.bot, pressed, 4, "a Stability test button")
