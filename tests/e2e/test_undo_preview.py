"""A safe ``/undo`` (COMMANDS.md ``/undo``): a private preview of the change it would revert,
with every value that changes back, Confirm / Cancel for that GM only; confirming reverts
exactly the previewed change (another change in between: it says so and shows the new
preview); the public reply has the same detail. Real bot, fake Discord, both languages.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply, message_text
from devkit.harness import BotProcess
from tests.e2e.kit import confirm_id, create, delete, gm_of, gm_with, history_count, rows, stored
from tests.e2e.kit import undo as confirmed_undo


def cancel_id(reply: Reply) -> str:
    return next(c for c in reply.custom_ids if c.startswith("salud:undo:") and c.endswith(":no"))


async def tomas(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember, player: FakeMember) -> None:
    """Padre Tomás (8 Health) with Theology 3, owned by ``player``."""
    await fake.slash(
        guild, gm, "character create", {"name": "Padre Tomás", "health": 8, "player": player}
    )
    reply = await fake.slash(
        guild,
        gm,
        "ability set",
        {"character": "Padre Tomás", "ability": "Theology", "rating": 3, "kind": "investigative"},
    )
    assert not reply.ephemeral, reply.text


async def test_the_preview_names_every_value_and_confirming_reverts_it_with_the_same_detail(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, player = gm_of(guild), guild.member("Player")
    await tomas(fake, guild, gm, player)
    spent = await fake.slash(
        guild, player, "spend", {"character": "tomas", "ability": "Theology", "points": 1}
    )
    assert not spent.ephemeral, spent.text
    before = rows(bot, guild)
    entries = history_count(bot, guild)

    preview = await fake.slash(guild, gm, "undo")
    assert preview.ephemeral
    detail = "**Padre Tomás**: Theology 2/3 → 3/3"  # its Health did not move: not listed
    assert detail in preview.text and "Health" not in preview.text
    assert preview.embed["title"] == "Undo /spend (#3)?" and player.mention in preview.text
    assert [b["label"] for b in preview.buttons] == ["Undo it", "Cancel"]
    assert rows(bot, guild) == before and history_count(bot, guild) == entries  # asked only

    done = await confirmed_undo(fake, guild, gm)
    assert not done.ephemeral
    assert detail in done.content
    assert stored(bot, guild, "Padre Tomás")["health"] == 8
    assert history_count(bot, guild) == entries + 1
    assert done.click is not None and "change #3 " in message_text(done.click.message)
    assert done.click.message is not None and done.click.message["components"] == []


async def test_another_change_in_between_is_said_and_previewed_instead(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, player = gm_of(guild), guild.member("Player")
    await tomas(fake, guild, gm, player)
    await fake.slash(
        guild, player, "spend", {"character": "tomas", "ability": "Theology", "points": 1}
    )
    preview = await fake.slash(guild, gm, "undo")
    assert "Undo /spend" in preview.text
    hurt = await fake.slash(guild, player, "hurt", {"character": "Padre Tomás", "amount": "3"})
    assert not hurt.ephemeral
    after_hurt = rows(bot, guild)
    entries = history_count(bot, guild)

    click = await fake.click(guild, gm, preview, str(confirm_id(preview)))
    assert click.type in (6, 7)
    if click.type == 6:
        await click.wait_edit(1)
    question = click.message
    assert question is not None
    shown = message_text(question)
    assert "Another change came in meanwhile" in shown and "Nothing was undone yet" in shown
    assert "Undo /hurt (#4)" in shown and "**Padre Tomás**: Health 5 → 8 / 8" in shown
    assert rows(bot, guild) == after_hurt and history_count(bot, guild) == entries
    assert click.followups == []  # nothing public

    again = await fake.click(guild, gm, question, str(confirm_id_of(question)))
    if again.type == 6:
        await again.wait_edit(1)
    assert stored(bot, guild, "Padre Tomás")["health"] == 8
    assert stored(bot, guild, "Padre Tomás")["health"] == 8
    public = again.followups
    assert len(public) == 1 and "undid change #4, made by" in public[0]["content"]
    assert not public[0].get("flags", 0) & (1 << 6)
    # The spend is still there: only the previewed change was reverted.
    theology = [a for a in rows(bot, guild)["Padre Tomás"]["abilities"] if a[0] == "Theology"]
    assert theology == [("Theology", "investigative", 3, 2)]


def confirm_id_of(message: dict[str, object]) -> str:
    for row in message.get("components") or []:  # type: ignore[attr-defined]
        for item in row.get("components") or []:
            if str(item.get("custom_id", "")).endswith(":yes"):
                return str(item["custom_id"])
    raise AssertionError(f"no confirm button on {message}")


async def test_cancel_and_other_members_change_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm, other_gm = gm_of(guild), gm_of(guild, "Other")
    await create(fake, guild, gm, "Ana", 9)
    before, entries = rows(bot, guild), history_count(bot, guild)
    preview = await fake.slash(guild, gm, "undo")
    assert "**Ana**'s creation is undone: the sheet no longer exists." in preview.text
    stranger = await fake.click(guild, other_gm, preview, str(confirm_id(preview)))
    assert stranger.ephemeral and "belongs to" in stranger.text and gm.mention in stranger.text
    player = await fake.click(guild, guild.member("Player"), preview, str(confirm_id(preview)))
    assert player.ephemeral
    cancelled = await fake.click(guild, gm, preview, cancel_id(preview))
    assert cancelled.type == 7 and cancelled.message is not None
    assert cancelled.message["content"] == "Cancelled: nothing was undone."
    assert cancelled.message["components"] == [] and cancelled.message["embeds"] == []
    assert rows(bot, guild) == before and history_count(bot, guild) == entries


async def test_first_aid_flags_hospital_and_a_deletion_are_all_in_the_detail(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]]
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, "Dj", "es-ES")
    await create(fake, guild, gm, "Ana", 9, first_aid=4)
    await create(fake, guild, gm, "Bea", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Bea", "amount": "11"})  # -2: roll due
    await fake.slash(guild, gm, "firstaid", {"medic": "Ana", "patient": "Bea", "points": 1})
    preview = await fake.slash(guild, gm, "undo")
    shown = preview.text
    assert "¿Deshacer /firstaid" in shown
    assert "**Ana**: Primeros Auxilios 3 → 4 / 4\n" in shown, "the medic's Health stays: unsaid"
    assert "**Bea**: Salud 0 → -2 / 9 · vuelve a tener pendiente la Tirada de Consciencia" in shown
    done = await confirmed_undo(fake, guild, gm)
    assert "**Ana**: Primeros Auxilios 3 → 4 / 4" in done.content
    assert stored(bot, guild, "Bea")["health"] == -2

    await fake.slash(guild, gm, "character set", {"character": "Bea", "health": -7})
    rest = await fake.slash(guild, gm, "rest", {"character": "Bea", "days": 1, "hospital": True})
    assert not rest.ephemeral, rest.text
    preview = await fake.slash(guild, gm, "undo")
    assert "sale del hospital" in preview.text and "sus heridas dejan de estar" in preview.text

    await delete(fake, guild, gm, "Ana")
    preview = await fake.slash(guild, gm, "undo")
    assert "**Ana** vuelve a la partida: Salud 9 / 9" in preview.text
    english = await fake.slash(guild, gm, "undo", locale="en-US")
    assert "**Ana** returns to play: Health 9 / 9" in english.text
    done = await confirmed_undo(fake, guild, gm)
    assert done.content.endswith("\n**Ana** vuelve a la partida"), done.content
    assert "borra" not in done.content
    assert stored(bot, guild, "Ana")["first_aid_pool"] == 4


async def test_the_confirmation_works_after_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Carla", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Carla", "amount": "4"})
    preview = await fake.slash(guild, gm, "undo")
    await bot.restart()
    click = await fake.click(guild, gm, preview, str(confirm_id(preview)))
    assert click.type == 6
    await click.wait_edit(1)
    assert stored(bot, guild, "Carla")["health"] == 9
    assert "undid change #2, made by" in click.followups[0]["content"]
    assert click.followups[0]["embeds"][0]["fields"][0]["value"].startswith("5 → 9 / 9")


async def test_confirming_twice_reverts_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Gala", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Gala", "amount": "4"})
    await fake.slash(guild, gm, "hurt", {"character": "Gala", "amount": "1"})
    preview = await fake.slash(guild, gm, "undo")
    confirm = str(confirm_id(preview))
    as_shown = copy.deepcopy(preview.message)  # the GM's screen before the first press lands
    first = await fake.click(guild, gm, preview, confirm)
    await first.wait_edit(1)
    assert stored(bot, guild, "Gala")["health"] == 5
    entries = history_count(bot, guild)
    # The second press of a double click, from the screen as it was (a private fake API,
    # as tests/e2e/test_character.py's send_twice uses).
    payload = fake._base_interaction(3, guild, gm, None, None)
    payload["message"] = as_shown
    payload["data"] = {"custom_id": confirm, "component_type": 2}
    second = fake._send_interaction(payload, "click again", source=str(preview.message_id))
    await second.wait_complete(5)
    (refusal,) = second.followups  # acknowledged first, then refused privately
    assert refusal["flags"] & (1 << 6) and "Change #3 " in refusal["content"]
    assert "is already undone" in refusal["content"]
    assert stored(bot, guild, "Gala")["health"] == 5 and history_count(bot, guild) == entries
