"""Stability tests end to end (RULES.md M1–M7, M13; COMMANDS.md "Stability"): a GM calls a
test, each player rolls their own with the buttons of the call or ``/stability roll``, the
scene's cap, a fall into mental illness, incurable insanity, ``/undo`` of each, and buttons
that keep working across a restart.

Each test scripts the die the bot rolls (``bot.script_dice``): every roll shown is parsed,
its die must be the one scripted, its sum, Difficulty (with the breakdown of what raised it)
and outcome are checked, and the Stability shown and stored must follow from them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import (
    announcing_gm,
    assert_refused,
    create,
    gm_of,
    gm_set,
    history_count,
    stored,
    what_happened,
)
from tests.e2e.kit import undo as confirmed_undo
from tests.e2e.kit.stability import (
    STABILITY_FIELD,
    button_id,
    buttons_of,
    call_test,
    called,
    create_stable,
    press,
    stability_buttons,
    stability_roll_shown,
    stability_shown,
    wait_test_buttons_disabled,
)

MakeGuild = Callable[..., Awaitable[FakeGuild]]


def call_description(fake: FakeDiscord, call: Reply) -> str:
    message = fake.message(str(call.message_id))
    assert message is not None
    return str(message["embeds"][0]["description"])


def due_test(bot: BotProcess, guild: FakeGuild, name: str) -> tuple[int, int] | None:
    row = stored(bot, guild, name)
    if row["due_loss"] is None:
        return None
    return int(row["due_loss"]), int(row["due_difficulty"])


async def test_M5_a_party_of_four_is_tested_for_one_incident_and_rolls_with_its_buttons(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    """One call for four characters of four players, in Spanish: each owner called with
    words, one line each (the Hurt one with its raised Difficulty), a row of buttons each
    naming its character; each player rolls their own with a press, every roll checked."""
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    lucia, marcos = guild.member("Lucía", locale="es-ES"), guild.member("Marcos", locale="es-ES")
    sofia, diego = guild.member("Sofía", locale="es-ES"), guild.member("Diego", locale="es-ES")
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, player=lucia, gender="feminine")
    await create_stable(fake, guild, gm, "Jack Malone", 6, player=marcos, gender="masculine")
    await create_stable(fake, guild, gm, "Olga", 5, player=sofia)
    await create_stable(fake, guild, gm, "Padre Tomás", 7, player=diego, gender="masculine")
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Padre Tomás", "amount": "9"})
    assert not hurt.ephemeral  # Health 0: Hurt, +1 to every test (H3)

    call = await call_test(
        fake,
        guild,
        gm,
        4,
        "Amelia Ríos",
        "Jack Malone",
        "Olga",
        "Padre Tomás",
        reason="El shoggoth del sótano",
    )
    called(call, lucia, marcos, sofia, diego)
    assert call.content == (
        f"Prueba de Estabilidad: {lucia.mention} (Amelia), {marcos.mention} (Jack),"
        f" {sofia.mention} (Olga) y {diego.mention} (Padre Tomás)"
    )
    lines = str(call.embed["description"]).split("\n")
    assert call.embed["title"] == "Prueba de Estabilidad"
    assert lines[0] == "Pérdida posible 4 · Dificultad 4 · El shoggoth del sótano"
    assert lines[1:5] == [
        "**Amelia Ríos** · Estabilidad 8 / 8 · Serena",
        "**Jack Malone** · Estabilidad 6 / 6 · Sereno",
        "**Olga** · Estabilidad 5 / 5 · Sereno",
        "**Padre Tomás** · Estabilidad 7 / 7 · Sereno · Dificultad 5 (4 + 1)",
    ]
    ids = {name: stored(bot, guild, name) for name in ("Amelia Ríos", "Jack Malone", "Olga")}
    ids["Padre Tomás"] = stored(bot, guild, "Padre Tomás")
    for name, first in (("Amelia Ríos", "Amelia"), ("Jack Malone", "Jack"), ("Olga", "Olga")):
        row = ids[name]
        labels = [b["label"] for b in buttons_of(call, row["id"])]
        assert labels == [f"{first}: Tirar", f"{first}: +1", f"{first}: +2", f"{first}: +3"]
        assert buttons_of(call, row["id"])[0]["custom_id"] == (
            f"salud:stab:{row['id']}:0:{row['stability_seq']}"
        )
        assert due_test(bot, guild, name) == (4, 4)
    entries = history_count(bot, guild)

    # Somebody else's button is refused, and changes nothing.
    other = await fake.click(guild, marcos, call, button_id(call, "Olga: +1"))
    assert_refused(
        other, "Solo el jugador de **Olga** o un DJ puede tirar su Prueba de Estabilidad"
    )
    assert history_count(bot, guild) == entries

    await bot.script_dice(3)  # 3 + 2 = 5 vs 4: passed; the 2 spent are lost anyway
    amelia = await press(fake, guild, lucia, call, button_id(call, "Amelia: +2"))
    roll = stability_roll_shown(amelia.embed, "es", die=3, base=4)
    assert (roll.spend, roll.success) == (2, True)
    shown = stability_shown(amelia.embed, "es")
    assert (shown.before, shown.now, shown.rating, shown.state) == (8, 6, 8, "**Serena**")
    assert all(
        b.get("disabled")
        for b in buttons_of(fake.message(str(call.message_id)), ids["Amelia Ríos"]["id"])
    )
    assert not any(
        b.get("disabled") for b in buttons_of(fake.message(str(call.message_id)), ids["Olga"]["id"])
    )
    lines = str(call_description(fake, call)).split("\n")
    assert lines[1] == "**Amelia Ríos** · ✓ 3 + 2 = 5 vs 4: éxito, 8 → 6"
    assert lines[3] == "**Olga** · Estabilidad 5 / 5 · Sereno"  # still to roll

    await bot.script_dice(1)  # 1 + 0 = 1 vs 4: fails, loses 4
    jack = await press(fake, guild, marcos, call, button_id(call, "Jack: Tirar"))
    roll = stability_roll_shown(jack.embed, "es", die=1, base=4)
    assert not roll.success
    assert roll.value.split("\n")[1] == "**Fallo**"  # what it cost: the pool 6 → 2
    assert stability_shown(jack.embed, "es").now == 2

    await bot.script_dice(2)  # 2 + 1 = 3 vs 4: fails; 5 - 1 - 4 = 0: Shaken
    olga = await press(fake, guild, sofia, call, button_id(call, "Olga: +1"))
    stability_roll_shown(olga.embed, "es", die=2, base=4)
    shown = stability_shown(olga.embed, "es")
    assert (shown.before, shown.now, shown.state) == (5, 0, "Sereno → **Alterado**")
    assert "Estado de Estabilidad" not in olga.text  # the state change said once

    await bot.script_dice(5)  # 5 + 0 = 5 vs 5 (4 + 1, Hurt): passed
    tomas = await press(fake, guild, diego, call, button_id(call, "Padre Tomás: Tirar"))
    roll = stability_roll_shown(tomas.embed, "es", die=5, base=4, penalties=[1])
    assert roll.success and "+1 por las heridas" in roll.value
    assert tomas.embed["color"] == 0xF1C40F  # the colour follows Health: Hurt

    for name, pool, lost in (("Amelia Ríos", 6, 0), ("Jack Malone", 2, 4), ("Olga", 0, 4)):
        row = stored(bot, guild, name)
        assert (row["stability_pool"], row["due_loss"], row["scene_lost"]) == (pool, None, lost)
        assert row["scene_worst_loss"] == 4  # passed tests count toward the cap (M6)
    for row in ids.values():
        await wait_test_buttons_disabled(fake, call, row["id"])
    # The call's message says, on each line, who rolled and how (edited with the buttons).
    message = fake.message(str(call.message_id))
    assert message is not None
    assert str(message["embeds"][0]["description"]).split("\n")[1:5] == [
        "**Amelia Ríos** · ✓ 3 + 2 = 5 vs 4: éxito, 8 → 6",
        "**Jack Malone** · ✓ 1 + 0 = 1 vs 4: fallo, 6 → 2",
        "**Olga** · ✓ 2 + 1 = 3 vs 4: fallo, 5 → 0",
        "**Padre Tomás** · ✓ 5 + 0 = 5 vs 5: éxito",
    ]
    again = await fake.click(guild, lucia, call, button_id(call, "Amelia: Tirar"))
    # Issue 24: what became of that test, with its result, not "rolled, replaced or undone".
    assert_refused(
        again,
        "**Amelia Ríos** ya tiró esta Prueba de Estabilidad",
        "3 + 2 = 5 vs 4, éxito; Estabilidad 8 → 6",
    )
    assert history_count(bot, guild) == entries + 4


async def test_M5_a_test_called_and_rolled_in_english_and_the_player_rolls_with_the_command(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    ana = guild.member("Ana")
    await create_stable(fake, guild, gm, "Bea Moss", 7, player=ana, gender="feminine")
    call = await call_test(fake, guild, gm, 3, "Bea Moss", difficulty=5)
    called(call, ana)
    assert call.content == f"{ana.mention}: Bea Moss must make a Stability test (Difficulty 5)"
    assert str(call.embed["description"]).split("\n")[:2] == [
        "Potential loss 3 · Difficulty 5",
        "**Bea Moss** · Stability 7 / 7 · Steady",
    ]
    assert [b["label"] for b in buttons_of(call, stored(bot, guild, "Bea Moss")["id"])] == [
        "Bea: Roll",
        "Bea: +1",
        "Bea: +2",
        "Bea: +3",
    ]
    await bot.script_dice(4)  # 4 + 0 = 4 vs 5: fails, loses 3
    rolled = await fake.slash(guild, ana, "stability roll", {})  # her only character
    assert not rolled.ephemeral, rolled.text
    roll = stability_roll_shown(rolled.embed, die=4, base=5)
    assert not roll.success and roll.value.split("\n")[1] == "**Failure**"
    shown = stability_shown(rolled.embed)
    assert (shown.before, shown.now, shown.rating) == (7, 4, 7)
    await wait_test_buttons_disabled(fake, call, stored(bot, guild, "Bea Moss")["id"])
    # Rolled by the command: the sweep that disabled the call's buttons said so on its line.
    assert call_description(fake, call).split("\n")[1] == (
        "**Bea Moss** · ✓ 4 + 0 = 4 vs 5: failed, 7 → 4"
    )

    none = await fake.slash(guild, ana, "stability roll", {"character": "Bea Moss"})
    assert_refused(none, "**Bea Moss** has no Stability test due", "/stability test")
    player_call = await fake.slash(
        guild, ana, "stability test", {"loss": 2, "character": "Bea Moss"}
    )
    assert_refused(player_call, "Only a GM")


async def test_M7_a_spend_that_would_madden_is_refused_and_the_buttons_offer_only_legal_ones(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await create_stable(fake, guild, gm, "Cid", 8)
    await gm_set(fake, guild, "Cid", stability=-10)  # M7: at most 1 more (-11)
    call = await call_test(fake, guild, gm, 2, "Cid")
    cid = stored(bot, guild, "Cid")["id"]
    assert [b["label"] for b in buttons_of(call, cid)] == ["Cid: Roll", "Cid: +1"]
    refused = await fake.slash(guild, gm, "stability roll", {"character": "Cid", "spend": 2})
    assert_refused(refused, "Spending 2 Stability would leave **Cid** at −12 or less", "1")
    assert due_test(bot, guild, "Cid") == (2, 4)  # nothing changed: still due


async def test_M6_the_failures_of_a_scene_lose_no_more_than_its_worst_incident(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create_stable(fake, guild, gm, "Rosa", 20, gender="feminine")

    async def fail(loss: int, die: int = 1) -> str:
        await call_test(fake, guild, gm, loss, "Rosa")
        await bot.script_dice(die)
        rolled = await fake.slash(guild, gm, "stability roll", {"character": "Rosa"})
        roll = stability_roll_shown(rolled.embed, "es", die=die, base=4)
        assert not roll.success
        return roll.value

    assert await fail(4) == "1 + 0 = 1 vs 4\n**Fallo**"  # worst 4, lost 4: 20 → 16
    # A smaller incident: the scene already lost its worst; nothing more is lost.
    said = await fail(2)
    # Issue 24: what the scene took and the worst incident's cap, not this test's 2.
    assert "**Fallo**, sin pérdida: ya ha perdido 4 en esta escena, el tope del peor" in said
    assert stored(bot, guild, "Rosa")["stability_pool"] == 16
    # A worse one: the cap is 6 now, 4 were lost: 2 more, not 6.
    said = await fail(6)
    assert "pierde 2, no 6: ya son 6 en esta escena, el tope del peor incidente" in said, said
    row = stored(bot, guild, "Rosa")
    assert (row["stability_pool"], row["scene_worst_loss"], row["scene_lost"]) == (14, 6, 6)
    show = await fake.slash(guild, gm, "character show", {"character": "Rosa"})
    assert "Estabilidad perdida en pruebas esta escena: 6 (tope 6)" in show.embed["footer"]["text"]

    new = await fake.slash(guild, gm, "scene new")  # M6: a new scene starts the cap again
    assert not new.ephemeral, new.text
    row = stored(bot, guild, "Rosa")
    assert (row["scene_worst_loss"], row["scene_lost"]) == (0, 0)
    assert await fail(2) == "1 + 0 = 1 vs 4\n**Fallo**"
    assert stored(bot, guild, "Rosa")["stability_pool"] == 12
    show = await fake.slash(guild, gm, "character show", {"character": "Rosa"})
    assert "(tope 2)" in show.embed["footer"]["text"]


async def test_M3_a_fall_into_mental_illness_costs_a_rating_point_once_and_is_announced(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = await announcing_gm(fake, guild)
    lucia = guild.member("Lucía", locale="es-ES")
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, player=lucia, gender="feminine")
    corrected = await gm_set(fake, guild, "Amelia Ríos", stability=-3)
    assert "Trastorno mental" not in corrected.text  # M13: a correction gives no illness
    await call_test(fake, guild, gm, 4, "Amelia Ríos")
    await bot.script_dice(2)  # 2 + 0 = 2 vs 5 (4 + 1, Shaken): -3 → -7
    rolled = await fake.slash(guild, lucia, "stability roll", {})
    roll = stability_roll_shown(rolled.embed, "es", die=2, base=4, penalties=[1])
    assert "+1 por el estado Alterado" in roll.value
    shown = stability_shown(rolled.embed, "es")
    assert (shown.before, shown.now, shown.rating_before, shown.rating) == (-3, -7, 8, 7)
    # Issue 24: the illness on the state line, the rating it cost said once (8 → 7 above).
    assert shown.state == "**Alterada** · Trastorno mental"
    illness = "-3 / 8 → -7 / 7 · **Alterada** · Trastorno mental"
    assert rolled.text.lower().count("trastorno mental") == 1
    assert rolled.text.count("8 → 7") == 0 and rolled.text.count("/ 8 →") == 1
    row = stored(bot, guild, "Amelia Ríos")
    assert (row["stability_rating"], row["mental_illness"]) == (7, 1)
    # Announced: the correction (Steady → Shaken), then the illness.
    posted = await fake.wait_channel_messages(guild.announcements.id, 2)
    assert illness in str(posted[-1]["embeds"][0])

    # Deeper within -6…-11 is no new fall: the rating stays 7 (a worse incident: 6 - 4 = 2
    # more under the scene's cap).
    await call_test(fake, guild, gm, 6, "Amelia Ríos")
    await bot.script_dice(1)
    deeper = await fake.slash(guild, lucia, "stability roll", {"character": "Amelia Ríos"})
    stability_roll_shown(deeper.embed, "es", die=1, base=4, penalties=[1])
    assert "/ 7 → " not in deeper.text  # no new rating point lost
    assert "Trastorno mental" in stability_shown(deeper.embed, "es").state  # the mark
    assert stored(bot, guild, "Amelia Ríos")["stability_rating"] == 7
    assert stability_shown(deeper.embed, "es").now == -9


async def test_M4_insanity_takes_the_character_out_of_play_until_a_gm_corrects_it(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await announcing_gm(fake, guild)
    ana = guild.member("Ana")
    await create_stable(fake, guild, gm, "Iris", 9, player=ana, gender="feminine")
    await gm_set(fake, guild, "Iris", stability=-9, mental_illness=True)
    await fake.slash(
        guild, gm, "ability set", {"character": "Iris", "ability": "Occult", "rating": 2}
    )
    await fake.slash(
        guild, gm, "ability set", {"character": "Iris", "ability": "Athletics", "rating": 2}
    )
    await call_test(fake, guild, gm, 6, "Iris")
    await bot.script_dice(1)  # 1 + 0 = 1 vs 5: -9 - 6 = -15
    rolled = await fake.slash(guild, ana, "stability roll", {})
    assert rolled.embed["title"] == "Iris is incurably insane"
    assert (
        "out of play" in rolled.embed["description"]
        and "her Stability" in rolled.embed["description"]
    )
    assert stability_shown(rolled.embed).state == "Shaken → **Incurably insane** · Mental illness"
    stability_roll_shown(rolled.embed, die=1, base=4, penalties=[1])
    # Announced: the correction (Steady → Shaken), then insanity in its own embed.
    posted = await fake.wait_channel_messages(guild.announcements.id, 2)
    assert posted[-1]["embeds"][0]["title"] == "Iris is incurably insane"

    out = "**Iris** is incurably insane and out of play"
    assert_refused(await fake.slash(guild, ana, "stability roll", {}), out)
    assert_refused(
        await fake.slash(guild, gm, "stability test", {"loss": 2, "character": "Iris"}),
        "**Iris** is incurably insane and makes no more tests",
    )
    assert_refused(
        await fake.slash(
            guild, ana, "spend", {"character": "Iris", "ability": "Occult", "points": 1}
        ),
        out,
    )
    assert_refused(
        await fake.slash(guild, ana, "check", {"character": "Iris", "ability": "Athletics"}), out
    )
    await fake.slash(guild, gm, "hurt", {"character": "Iris", "amount": "11"})  # damage applies
    assert stored(bot, guild, "Iris")["health"] == -2
    assert_refused(await fake.slash(guild, ana, "conscious", {}), out)
    refreshed = await fake.slash(guild, gm, "refresh", {"character": "Iris"})
    assert stored(bot, guild, "Iris")["stability_pool"] == -15, refreshed.text  # M11: not her

    back = await gm_set(fake, guild, "Iris", stability=4)
    shown = stability_shown(back.embed)
    assert (shown.before, shown.now, shown.state) == (
        -15,
        4,
        "Incurably insane → **Steady** · Mental illness",
    )
    assert "GM's correction" in back.text


async def test_M13_undo_of_a_roll_makes_its_test_due_again_and_its_buttons_stay_refused(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    lucia = guild.member("Lucía", locale="es-ES")
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, player=lucia, gender="feminine")
    call = await call_test(fake, guild, gm, 4, "Amelia Ríos")
    amelia = stored(bot, guild, "Amelia Ríos")["id"]
    await bot.script_dice(1)
    rolled = await press(fake, guild, lucia, call, button_id(call, "Amelia: +1"))
    assert stability_shown(rolled.embed, "es").now == 3

    undone = await confirmed_undo(fake, guild, gm)
    # Due again as a call makes it: the owner called, the pool the roll moved, fresh buttons.
    assert undone.content.split("\n")[0] == (
        f"{lucia.mention}: Amelia Ríos debe hacer una Prueba de Estabilidad (Dificultad 4)"
    )
    assert undone.message is not None
    assert [str(user["id"]) for user in undone.message["mentions"]] == [str(lucia.id)]
    shown = stability_shown(undone.embed, "es")
    assert (shown.before, shown.now, shown.rating) == (3, 8, 8)
    assert "Prueba de Estabilidad pendiente (pérdida posible 4, Dificultad 4)" in shown.state
    assert "Salud" not in [f["name"] for f in undone.embed["fields"]]  # Health did not move
    assert "Estabilidad 3 / 8 → 8 / 8" not in undone.content  # said once, in the field
    row = stored(bot, guild, "Amelia Ríos")
    assert (row["stability_pool"], row["due_loss"], row["scene_lost"]) == (8, 4, 0)
    await wait_test_buttons_disabled(fake, call, amelia)  # still disabled
    old = await fake.click(guild, lucia, call, button_id(call, "Amelia: Tirar"))
    assert_refused(
        old, "La tirada de esta Prueba de Estabilidad de **Amelia Ríos** se deshizo", "pendiente"
    )
    fresh = [b["custom_id"] for b in stability_buttons(undone.message)]
    assert fresh == [f"salud:stab:{amelia}:{spend}:{row['stability_seq']}" for spend in range(4)]
    await bot.script_dice(6)
    pressed = await fake.click(guild, lucia, undone.message, fresh[0])
    assert pressed.type == 7  # the undo's buttons, disabled by the press
    assert all(b.get("disabled") for b in buttons_of(pressed.message, amelia))
    again = await pressed.answer()
    assert stability_roll_shown(again.embed, "es", die=6, base=4).success

    # The call itself undone (after its roll undone): nothing is due.
    await confirmed_undo(fake, guild, gm)
    await confirmed_undo(fake, guild, gm)
    assert due_test(bot, guild, "Amelia Ríos") is None
    assert stored(bot, guild, "Amelia Ríos")["stability_pool"] == 8


async def test_M5_a_new_call_replaces_the_test_due_and_the_buttons_survive_a_restart(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    ana, bob = guild.member("Ana"), guild.member("Bob")
    await create_stable(fake, guild, gm, "Ana Lee", 6, player=ana)
    await create_stable(fake, guild, gm, "Bob Ray", 6, player=bob)
    first = await call_test(fake, guild, gm, 2, "Ana Lee", "Bob Ray")
    await bot.restart()
    await bot.script_dice(6)
    ana_roll = await press(fake, guild, ana, first, button_id(first, "Ana: Roll"))
    assert stability_roll_shown(ana_roll.embed, die=6, base=4).success
    bob_id = stored(bot, guild, "Bob Ray")["id"]

    second = await call_test(fake, guild, gm, 7, "Bob Ray", difficulty=3)
    assert "replaces the test due (potential loss 2, Difficulty 4)" in second.text
    await wait_test_buttons_disabled(fake, first, bob_id)  # the replaced test's buttons
    await bot.restart()
    old = await fake.click(guild, bob, first, button_id(first, "Bob: +1"))
    # Issue 24: replaced, and where the new one is (the message carrying its buttons).
    link = f"https://discord.com/channels/{guild.id}/{second.interaction['channel_id']}/"
    assert_refused(
        old,
        "This Stability test of **Bob Ray** was replaced by a newer one before it was rolled",
        f"{link}{second.message_id}",
    )
    await bot.script_dice(2)  # 2 + 1 = 3 vs 3
    made = await press(fake, guild, bob, second, button_id(second, "Bob: +1"))
    roll = stability_roll_shown(made.embed, die=2, base=3)
    assert roll.success and roll.spend == 1
    assert stability_shown(made.embed).now == 5
    await wait_test_buttons_disabled(fake, second, bob_id)


async def test_M5_a_call_naming_someone_twice_or_untestable_is_refused_whole_naming_them(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, gender="feminine")
    await create_stable(fake, guild, gm, "Jack Malone", 8, gender="masculine")
    await create(fake, guild, gm, "Sin Estabilidad", 9)
    entries = history_count(bot, guild)

    twice = await fake.slash(
        guild,
        gm,
        "stability test",
        {"loss": 3, "character": "Amelia Ríos", "character2": "Jack Malone", "character3": "Jack"},
    )
    assert_refused(twice, "**Jack Malone** aparece dos veces", "no se ha pedido a nadie")
    none = await fake.slash(
        guild,
        gm,
        "stability test",
        {"loss": 3, "character": "Amelia Ríos", "character2": "Sin Estabilidad"},
    )
    assert_refused(none, "**Sin Estabilidad** no tiene Estabilidad", "/character set")
    await gm_set(fake, guild, "Jack Malone", conscious=False)
    out = await fake.slash(
        guild, gm, "stability test", {"loss": 3, "character": "Amelia Ríos", "character2": "Jack"}
    )
    assert_refused(out, "**Jack Malone** está inconsciente y no hace pruebas")
    assert due_test(bot, guild, "Amelia Ríos") is None
    assert history_count(bot, guild) == entries + 1  # only the knock-out

    plain = await fake.slash(guild, gm, "stability roll", {"character": "Sin Estabilidad"})
    assert_refused(plain, "**Sin Estabilidad** no tiene Estabilidad")
    what = await gm_set(fake, guild, "Amelia Ríos", max_stability=0)
    assert "Amelia Ríos ya no tiene Estabilidad (tenía 8 / 8)" in what_happened(what.embed, "es")
    assert STABILITY_FIELD["es"] not in [f["name"] for f in what.embed["fields"]]


async def test_M4_M13_a_test_due_waits_for_the_unconscious_and_insanity_clears_it(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild
) -> None:
    """A character knocked out after the call cannot roll until awake (the test stays due,
    its buttons live); a GM's correction to −12 is insanity (M13), which clears the test
    due and refuses its buttons (M4); an insane medic gives no First Aid or treatment."""
    guild = await make_guild(locale="es-ES")
    gm = gm_of(guild, locale="es-ES")
    sofia = guild.member("Sofía", locale="es-ES")
    await create_stable(fake, guild, gm, "Olga", 6, player=sofia)
    await create_stable(fake, guild, gm, "Iris", 6, gender="feminine")
    await create(fake, guild, gm, "Bob", 9)
    call = await call_test(fake, guild, gm, 3, "Olga", "Iris")
    olga, iris = stored(bot, guild, "Olga")["id"], stored(bot, guild, "Iris")["id"]

    await gm_set(fake, guild, "Olga", conscious=False)
    out = await fake.click(guild, sofia, call, button_id(call, "Olga: Tirar"))
    assert_refused(out, "**Olga** está inconsciente")
    assert due_test(bot, guild, "Olga") == (3, 4)
    await gm_set(fake, guild, "Olga", conscious=True)
    await bot.script_dice(4)
    awake = await press(fake, guild, sofia, call, button_id(call, "Olga: Tirar"))
    assert stability_roll_shown(awake.embed, "es", die=4, base=4).success
    await wait_test_buttons_disabled(fake, call, olga)

    mad = await gm_set(fake, guild, "Iris", stability=-12)
    assert mad.embeds[-1]["title"] == "Iris ha perdido la razón para siempre"
    assert "Iris ya no tiene que hacer la Prueba de Estabilidad" in mad.text
    assert due_test(bot, guild, "Iris") is None
    await wait_test_buttons_disabled(fake, call, iris)
    refused = await fake.click(guild, gm, call, button_id(call, "Iris: Tirar"))
    assert_refused(refused, "**Iris** ha perdido la razón para siempre")

    await fake.slash(guild, gm, "hurt", {"character": "Bob", "amount": "3"})
    aid = await fake.slash(guild, gm, "firstaid", {"medic": "Iris", "patient": "Bob", "points": 1})
    assert_refused(aid, "**Iris** ha perdido la razón para siempre y ya no puede dar Primeros")
    await fake.slash(
        guild, gm, "ability set", {"character": "Iris", "ability": "Psicoanálisis", "rating": 2}
    )
    treat = await fake.slash(
        guild, gm, "stability treat", {"medic": "Iris", "patient": "Olga", "points": 1}
    )
    assert_refused(treat, "**Iris** ha perdido la razón para siempre y ya no puede tratar")


CALL_WORDS = {
    "es-ES": {
        "call": "{lucia}: Amelia Ríos debe hacer una Prueba de Estabilidad (Dificultad 6)",
        "line": "**Amelia Ríos** · Estabilidad 0 / 8 · Alterada · Dificultad 6 (4 + 1 + 1)",
        "replaced": " · sustituye a la prueba pendiente (pérdida posible 3, Dificultad 6)",
        "roll": "Amelia: Tirar",
        "rolled": "**Amelia Ríos** · ✓ 1 + 0 = 1 vs 6: fallo, 0 → -4",
        "due": "Prueba de Estabilidad pendiente (pérdida posible 4, Dificultad 6)",
        "again": "vuelve a tener pendiente la Prueba de Estabilidad (pérdida posible 4,"
        " Dificultad 6)",
    },
    "en-US": {
        "call": "{lucia}: Amelia Ríos must make a Stability test (Difficulty 6)",
        "line": "**Amelia Ríos** · Stability 0 / 8 · Shaken · Difficulty 6 (4 + 1 + 1)",
        "replaced": " · replaces the test due (potential loss 3, Difficulty 6)",
        "roll": "Amelia: Roll",
        "rolled": "**Amelia Ríos** · ✓ 1 + 0 = 1 vs 6: failed, 0 → -4",
        "due": "Stability test due (potential loss 4, Difficulty 6)",
        "again": "has the Stability test due again (potential loss 4, Difficulty 6)",
    },
}


@pytest.mark.parametrize("locale", ["es-ES", "en-US"])
async def test_M5_M13_a_hurt_and_shaken_players_call_and_undo_give_the_difficulty_they_roll(
    fake: FakeDiscord, bot: BotProcess, make_guild: MakeGuild, locale: str
) -> None:
    """The call's notification line says the Difficulty the player will roll against (the
    GM's 4, +1 for wounds, +1 for being Shaken), as its embed does; once rolled, the call's
    line says how; the roll undone calls the player again, at that Difficulty, with fresh
    buttons."""
    words = CALL_WORDS[locale]
    lang = locale[:2]
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    lucia = guild.member("Lucía", locale=locale)
    await create_stable(fake, guild, gm, "Amelia Ríos", 8, player=lucia, gender="feminine")
    assert not (
        await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "9"})
    ).ephemeral
    await gm_set(fake, guild, "Amelia Ríos", stability=0)  # Hurt and Shaken

    first = await call_test(fake, guild, gm, 3, "Amelia Ríos")
    call = await call_test(fake, guild, gm, 4, "Amelia Ríos")  # replaces the first
    called(call, lucia)
    assert call.content == words["call"].format(lucia=lucia.mention)
    assert str(call.embed["description"]).split("\n")[1] == words["line"] + words["replaced"]
    assert first.message_id != call.message_id

    await bot.script_dice(1)  # 1 + 0 = 1 vs 6: fails, loses 4
    rolled = await press(fake, guild, lucia, call, button_id(call, words["roll"]))
    stability_roll_shown(rolled.embed, lang, die=1, base=4, penalties=[1, 1])
    message = fake.message(str(call.message_id))
    assert message is not None
    assert str(message["embeds"][0]["description"]).split("\n")[1] == words["rolled"]

    preview = await fake.slash(guild, gm, "undo")  # the GM's preview gives that number too
    assert words["again"] in preview.text
    undone = await confirmed_undo(fake, guild, gm)
    assert undone.content.split("\n")[0] == words["call"].format(lucia=lucia.mention)
    shown = stability_shown(undone.embed, lang)
    assert (shown.before, shown.now, shown.rating) == (-4, 0, 8)
    assert words["due"] in shown.state
    amelia = stored(bot, guild, "Amelia Ríos")
    assert stability_buttons(undone.message)[0]["custom_id"] == (
        f"salud:stab:{amelia['id']}:0:{amelia['stability_seq']}"
    )
