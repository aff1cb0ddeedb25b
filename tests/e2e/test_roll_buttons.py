"""Buttons that know their roll (COMMANDS.md, The Consciousness button), end to end.

A button carries the number of the roll it was posted for: once that roll is made (by a
button or ``/conscious``), healed away, or replaced by a later roll, a press is refused, and
the bot edits the message that carried it so that its buttons show disabled; after a
restart too. A message that can no longer be edited is forgotten.

The bot does that after the reply of the change (``RollButtonKeeper``, through the bot-wide
pacer of background requests): the tests wait until the messages show it (the fake Discord's
``wait_until``); the dice of every roll are scripted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord.replies import flatten_components
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    create,
    history_count,
    read_only,
    roll_shown,
    stored,
    uno_and_dos_hurt,
)
from tests.e2e.kit import undo as confirmed_undo


def roll_ids(reply: Reply | dict[str, Any], character_id: int) -> list[str]:
    """The roll buttons' custom ids of one character on a reply or stored message."""
    message = (reply.message or {}) if isinstance(reply, Reply) else reply
    return [
        str(item["custom_id"])
        for item in flatten_components(message.get("components"))
        if str(item.get("custom_id") or "").startswith(f"salud:cons:{character_id}:")
    ]


def disabled(message: dict[str, Any] | None, character_id: int) -> list[bool]:
    """Whether each roll button of the character on the message shows disabled."""
    assert message is not None
    return [
        bool(item.get("disabled"))
        for item in flatten_components(message.get("components"))
        if str(item.get("custom_id") or "").startswith(f"salud:cons:{character_id}:")
    ]


async def wait_disabled(fake: FakeDiscord, reply: Reply, character_id: int) -> dict[str, Any]:
    """Waits until every roll button of the character on the reply's message is disabled."""
    message_id = reply.message_id
    assert message_id is not None

    def done() -> bool:
        flags = disabled(fake.message(message_id), character_id)
        return bool(flags) and all(flags)

    await fake.wait_until(done, 5.0, what=f"the roll buttons of {message_id} disabled")
    message = fake.message(message_id)
    assert message is not None
    return message


async def kept_after(bot: BotProcess, guild: FakeGuild, *replies: Reply) -> int:
    """How many roll-button messages the bot keeps for the server once everything these
    replies' interactions started is done (it stores a message just after sending it, and
    forgets it once its buttons are edited, through the bot's pacer of background work)."""
    await bot.settled(*replies)
    return len(kept_messages(bot, guild))


def kept_messages(bot: BotProcess, guild: FakeGuild) -> list[tuple[int, int, int]]:
    with read_only(bot) as connection:
        rows = connection.execute(
            "SELECT character_id, roll_seq, message_id FROM roll_messages WHERE guild_id = ?"
            " ORDER BY message_id",
            (int(guild.id),),
        ).fetchall()
    return [(int(a), int(b), int(c)) for a, b, c in rows]


async def hurt(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, name: str, amount: int
) -> Reply:
    reply = await fake.slash(guild, member, "hurt", {"character": name, "amount": str(amount)})
    assert not reply.ephemeral, reply.text
    return reply


async def test_an_old_button_is_refused_when_a_later_roll_is_pending_and_shows_disabled(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    first = await hurt(fake, guild, ana, "Ana", 10)  # -1: Difficulty 1
    character_id = stored(bot, guild, "Ana")["id"]
    first_roll = stored(bot, guild, "Ana")["roll_seq"]
    assert roll_ids(first, character_id)[0] == f"salud:cons:{character_id}:0:{first_roll}"
    second = await hurt(fake, guild, ana, "Ana", 2)  # -3: a later roll, Difficulty 3
    second_roll = stored(bot, guild, "Ana")["roll_seq"]
    assert second_roll == first_roll + 1
    assert stored(bot, guild, "Ana")["roll_pending"] == 1
    await wait_disabled(fake, first, character_id)
    assert not any(disabled(fake.message(str(second.message_id)), character_id))

    entries = history_count(bot, guild)
    old = await fake.click(guild, ana, first, f"salud:cons:{character_id}:0:{first_roll}")
    assert_refused(old, "earlier Consciousness roll of **Ana**", "newest message", "/conscious")
    assert history_count(bot, guild) == entries
    assert stored(bot, guild, "Ana")["roll_pending"] == 1

    await bot.script_dice(3)
    made = await (
        await fake.click(guild, ana, second, f"salud:cons:{character_id}:0:{second_roll}")
    ).answer()
    assert not made.ephemeral, made.text
    roll = roll_shown(made.embed, die=3)
    assert (roll.total, roll.difficulty, roll.success) == (3, 3, True)
    await wait_disabled(fake, second, character_id)
    assert await kept_after(bot, guild, made) == 0


async def test_a_roll_made_with_conscious_disables_the_buttons_in_spanish_too(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    ana = guild.member("Ana", locale="es-ES")
    await create(fake, guild, ana, "Olga", 9)
    posted = await hurt(fake, guild, ana, "Olga", 11)
    character_id = stored(bot, guild, "Olga")["id"]
    roll = stored(bot, guild, "Olga")["roll_seq"]
    assert await kept_after(bot, guild, posted) == 1
    assert kept_messages(bot, guild) == [(character_id, roll, int(str(posted.message_id)))]
    await bot.script_dice(2)
    rolled = await fake.slash(guild, ana, "conscious", {"character": "Olga"})
    assert not rolled.ephemeral
    assert roll_shown(rolled.embed, "es", die=2).success  # 2 against 2
    message = await wait_disabled(fake, posted, character_id)
    assert message["embeds"] == posted.embeds  # only the buttons changed
    late = await fake.click(guild, ana, posted, f"salud:cons:{character_id}:1:{roll}")
    assert late.ephemeral
    assert "Olga" in late.text


async def test_healing_the_roll_away_disables_the_buttons(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Bruno", 9)
    posted = await hurt(fake, guild, gm, "Bruno", 10)
    character_id = stored(bot, guild, "Bruno")["id"]
    healed = await fake.slash(guild, gm, "character set", {"character": "Bruno", "health": 3})
    assert not healed.ephemeral
    await wait_disabled(fake, posted, character_id)


async def test_one_characters_roll_leaves_the_others_buttons_live(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, both = await uno_and_dos_hurt(fake, guild, "3")
    uno, dos = stored(bot, guild, "Uno")["id"], stored(bot, guild, "Dos")["id"]
    await bot.script_dice(1, 6)
    rolled = await fake.slash(guild, gm, "conscious", {"character": "Uno"})
    assert roll_shown(rolled.embed, die=1).success  # 1 against 1
    message = await wait_disabled(fake, both, uno)
    live = disabled(message, dos)
    assert live and not any(live)  # Dos's roll and spends are still live
    pressed = await (await fake.click(guild, gm, message, roll_ids(message, dos)[0])).answer()
    assert not pressed.ephemeral, pressed.text
    assert roll_shown(pressed.embed, die=6).success
    await wait_disabled(fake, both, dos)


async def test_buttons_keep_their_roll_across_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Carla", 9)
    first = await hurt(fake, guild, ana, "Carla", 10)
    character_id = stored(bot, guild, "Carla")["id"]
    first_roll = stored(bot, guild, "Carla")["roll_seq"]
    await bot.restart()
    second = await hurt(fake, guild, ana, "Carla", 1)
    await wait_disabled(fake, first, character_id)
    old = await fake.click(guild, ana, first, f"salud:cons:{character_id}:0:{first_roll}")
    assert old.ephemeral and "earlier Consciousness roll" in old.text
    await bot.restart()
    current = roll_ids(second, character_id)[0]
    await bot.script_dice(1)  # to the process started last; 1 against 2: knocked out
    made = await (await fake.click(guild, ana, second, current)).answer()
    assert not made.ephemeral, made.text
    assert not roll_shown(made.embed, die=1).success
    await wait_disabled(fake, second, character_id)


async def test_a_message_that_is_gone_is_forgotten_quietly(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Dario", 9)
    posted = await hurt(fake, guild, ana, "Dario", 10)
    assert await kept_after(bot, guild, posted) == 1
    assert posted.message_id is not None
    fake.delete_message(posted.message_id)
    await bot.script_dice(4)
    rolled = await fake.slash(guild, ana, "conscious", {"character": "Dario"})
    assert roll_shown(rolled.embed, die=4).success
    assert await kept_after(bot, guild, rolled) == 0
    assert f"roll buttons of message {posted.message_id} can no longer be edited" in (
        bot.log_text()
    )


async def test_an_old_rolls_button_is_refused_in_spanish(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    ana = guild.member("Ana", locale="es-ES")
    await create(fake, guild, ana, "Pilar", 9)
    first = await hurt(fake, guild, ana, "Pilar", 10)
    character_id = stored(bot, guild, "Pilar")["id"]
    old_id = roll_ids(first, character_id)[0]
    await hurt(fake, guild, ana, "Pilar", 1)
    refused = await fake.click(guild, ana, first, old_id)
    assert_refused(
        refused,
        "Ese botón era para una Tirada de Consciencia anterior de **Pilar**",
        "/conscious",
    )
    assert stored(bot, guild, "Pilar")["roll_pending"] == 1


async def test_an_undo_that_brings_an_earlier_roll_back_retires_every_button(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Quique", 9)
    await hurt(fake, guild, gm, "Quique", 10)  # -1: the roll of Difficulty 1
    later = await hurt(fake, guild, gm, "Quique", 2)  # -3: a later roll, Difficulty 3
    character_id = stored(bot, guild, "Quique")["id"]
    later_id = roll_ids(later, character_id)[0]
    undone = await confirmed_undo(fake, guild, gm)  # Difficulty 1 is pending again
    assert not undone.ephemeral
    assert stored(bot, guild, "Quique")["roll_pending"] == 1
    assert undone.click is not None
    await wait_disabled(fake, later, character_id)
    refused = await fake.click(guild, gm, later, later_id)
    assert_refused(refused, "earlier Consciousness roll of **Quique**")
    await bot.script_dice(1)
    rolled = await fake.slash(guild, gm, "conscious", {"character": "Quique"})
    assert not rolled.ephemeral
    roll = roll_shown(rolled.embed, die=1)
    assert (roll.difficulty, roll.success) == (1, True)


async def test_a_press_disables_its_own_message_in_its_response_and_no_sweep_touches_it(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    """Issue 18, the button's walk: the press's response (type 7) disables the pressed
    message's buttons, the roll follows as a new message, and the pressed message is
    forgotten in the roll's own transaction, so that no sweep fetches or edits it."""
    gm = guild.member("Gm", permissions=["manage_guild"])
    await create(fake, guild, gm, "Ana", 9)
    await create(fake, guild, gm, "Bea", 9)
    ana_message = await hurt(fake, guild, gm, "Ana", 10)
    bea_message = await hurt(fake, guild, gm, "Bea", 10)
    ana, bea = stored(bot, guild, "Ana"), stored(bot, guild, "Bea")
    assert await kept_after(bot, guild, ana_message, bea_message) == 2

    await bot.script_dice(2)
    clicked = await fake.click(guild, gm, ana_message, roll_ids(ana_message, ana["id"])[0])
    assert clicked.type == 7 and clicked.message_id == ana_message.message_id
    shown = clicked.message
    assert shown is not None and all(disabled(shown, ana["id"]))
    assert shown["embeds"] == ana_message.embeds  # only the buttons changed
    assert kept_messages(bot, guild) == [
        (bea["id"], bea["roll_seq"], int(str(bea_message.message_id)))
    ]
    rolled = await clicked.answer()
    assert not rolled.ephemeral and " vs 1" in rolled.text, rolled.text
    assert rolled.message_id != ana_message.message_id

    # Bea's roll, made with /conscious, is swept after Ana's: her message is edited by the
    # bot; Ana's never was, through the channel's REST routes.
    await bot.script_dice(5)
    conscious = await fake.slash(guild, gm, "conscious", {"character": "Bea"})
    await wait_disabled(fake, bea_message, bea["id"])
    assert await kept_after(bot, guild, conscious) == 0
    swept = {
        request.path.rsplit("/", 1)[-1]
        for request in fake.requests
        if "/channels/" in request.path and request.method in ("GET", "PATCH")
    }
    assert str(bea_message.message_id) in swept
    assert str(ana_message.message_id) not in swept
