"""``/rest`` end to end (RULES.md R1–R8, H5, H6, D5): natural rest and hospital convalescence."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import (
    assert_refused,
    create,
    field,
    gm_set,
    health_shown,
    history_commands,
    history_count,
    permission_cast,
    replay,
    state_shown,
    stored,
    what_happened,
)


async def hurt_to(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, health: int, *, max_health: int = 9
) -> None:
    """Ana, of ``member``, hurt down to ``health``."""
    await create(fake, guild, member, "Ana", max_health)
    await fake.slash(
        guild, member, "hurt", {"character": "Ana", "amount": str(max_health - health)}
    )


async def rest(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, days: int, hospital: bool | None = None
) -> Reply:
    options: dict[str, object] = {"character": "Ana", "days": days}
    if hospital is not None:
        options["hospital"] = hospital
    return await fake.slash(guild, member, "rest", options)


async def test_R1_H6_two_health_a_day_up_to_the_maximum(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, 2)
    reply = await rest(fake, guild, ana, 1)
    assert not reply.ephemeral
    assert health_shown(reply.embed) == (4, 9)
    assert what_happened(reply.embed) == "Ana rests 1 day and recovers 2 Health."
    assert history_commands(bot, guild)[-1] == ("rest", int(reply.record.id))
    more = await rest(fake, guild, ana, 10)
    assert health_shown(more.embed) == (9, 9)
    assert "Ana rests 10 days and recovers 5 Health." in what_happened(more.embed)
    assert stored(bot, guild, "Ana")["health"] == 9


async def test_R7_C7_rest_back_to_zero_wakes_and_clears_the_roll(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -3)
    await gm_set(fake, guild, "Ana", conscious=False)
    reply = await rest(fake, guild, ana, 2)
    assert health_shown(reply.embed) == (1, 9)
    assert what_happened(reply.embed) == "Ana rests 2 days, recovers 4 Health and wakes up."
    row = stored(bot, guild, "Ana")
    assert (row["conscious"], row["roll_pending"]) == (1, 0)


async def test_resting_at_full_health_changes_nothing_and_stores_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await create(fake, guild, ana, "Ana", 9)
    entries = history_count(bot, guild)
    reply = await rest(fake, guild, ana, 3)
    assert not reply.ephemeral
    assert what_happened(reply.embed) == "Ana rests 3 days; Health was already full."
    assert history_count(bot, guild) == entries


async def test_R2_seriously_wounded_needs_a_hospital_and_others_do_not(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -6)
    entries = history_count(bot, guild)
    assert_refused(await rest(fake, guild, ana, 3), "Seriously wounded", "hospital")
    assert_refused(await rest(fake, guild, ana, 3, hospital=False), "hospital")
    assert stored(bot, guild, "Ana")["health"] == -6
    assert history_count(bot, guild) == entries

    await gm_set(fake, guild, "Ana", health=3)
    reply = await rest(fake, guild, ana, 1, hospital=True)
    assert what_happened(reply.embed) == (
        "Ana needs no hospital, rests 1 day and recovers 2 Health."
    )
    assert stored(bot, guild, "Ana")["hospital_length_days"] is None


async def test_R3_R4_D5_admission_stabilizes_for_the_lowest_health_reached(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -8)
    await gm_set(fake, guild, "Ana", health=-6)  # the spell's lowest stays -8 (D5, G2)
    reply = await rest(fake, guild, ana, 1, hospital=True)
    assert (
        what_happened(reply.embed) == "Ana is admitted to hospital for 8 days and stops bleeding."
    )
    state = state_shown(reply.embed)
    assert "In hospital (7 days left)" in state and "Bleeding" not in state
    assert health_shown(reply.embed) == (-6, 9), "R5: Health stays until discharge"
    row = stored(bot, guild, "Ana")
    assert (row["hospital_length_days"], row["hospital_days_served"]) == (8, 1)
    assert row["roll_pending"] == 1, "admission does not settle a pending roll"


async def test_R5_R6_discharge_at_half_then_full_the_day_after(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -7)
    await rest(fake, guild, ana, 3, hospital=True)
    # R6: a character in hospital convalesces whatever `hospital` says.
    reply = await rest(fake, guild, ana, 4, hospital=False)
    assert what_happened(reply.embed) == (
        "Ana is discharged after 7 days in hospital and no longer needs a Consciousness roll."
    )
    assert state_shown(reply.embed).startswith("Seriously wounded → **Healthy**")
    assert health_shown(reply.embed) == (4, 9)
    row = stored(bot, guild, "Ana")
    assert (row["hospital_length_days"], row["full_recovery_due"], row["roll_pending"]) == (
        None,
        1,
        0,
    )
    full = await rest(fake, guild, ana, 1)
    assert what_happened(full.embed) == "Ana rests 1 day and is back to full Health."
    assert health_shown(full.embed) == (9, 9)


async def test_R6_days_beyond_discharge_go_on_as_rest_in_one_request(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -6, max_health=10)
    await gm_set(fake, guild, "Ana", conscious=False)
    reply = await rest(fake, guild, ana, 8, hospital=True)
    assert what_happened(reply.embed) == (  # R7: discharged awake
        "Ana spends 6 days in hospital, is discharged, wakes up, rests 2 days and is back to"
        " full Health."
    )
    assert health_shown(reply.embed) == (10, 10)
    row = stored(bot, guild, "Ana")
    assert (row["conscious"], row["hospital_length_days"], row["full_recovery_due"]) == (1, None, 0)


async def test_R8_fresh_damage_in_hospital_keeps_the_stay(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -6)
    await rest(fake, guild, ana, 1, hospital=True)
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "3"})
    row = stored(bot, guild, "Ana")
    assert (row["health"], row["hospital_length_days"], row["hospital_days_served"]) == (-9, 6, 1)
    reply = await rest(fake, guild, ana, 5)
    assert what_happened(reply.embed) == (
        "Ana is discharged after 6 days in hospital and no longer needs a Consciousness roll."
    )


async def test_R8_H5_the_dead_cannot_rest(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, -12)
    entries = history_count(bot, guild)
    assert_refused(await rest(fake, guild, ana, 5, hospital=True), "**Ana** has died")
    assert stored(bot, guild, "Ana")["health"] == -12
    assert history_count(bot, guild) == entries


async def test_days_out_of_range_are_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, 2)
    for days in (0, 366):
        assert_refused(await rest(fake, guild, ana, days), "days", "1", "365")
    assert stored(bot, guild, "Ana")["health"] == 2


async def test_permissions_owner_other_player_gm_by_manage_server_and_by_role(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bea, manager, keeper = await permission_cast(fake, guild)
    await hurt_to(fake, guild, ana, 0, max_health=30)
    assert_refused(
        await rest(fake, guild, bea, 1), "Only **Ana**'s player or a GM can decide their rest"
    )
    health = 0
    for member in (ana, manager, keeper):
        reply = await rest(fake, guild, member, 1)
        health += 2
        assert not reply.ephemeral, reply.text
        assert health_shown(reply.embed) == (health, 30)


async def test_a_repeated_interaction_applies_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana = guild.member("Ana")
    await hurt_to(fake, guild, ana, 1)
    first = await rest(fake, guild, ana, 1)
    assert_refused(await replay(fake, first), "already applied")
    assert stored(bot, guild, "Ana")["health"] == 3


async def test_spanish_hospital(fake: FakeDiscord, bot: BotProcess, make_guild: object) -> None:
    guild: FakeGuild = await make_guild(locale="es-ES")  # type: ignore[operator]
    ana = guild.member("Ana", locale="es-ES")
    await hurt_to(fake, guild, ana, -7)
    assert_refused(
        await rest(fake, guild, ana, 1),
        "**Ana** solo se cura en el hospital",
        "usa /rest con la opción hospital",
    )
    reply = await rest(fake, guild, ana, 1, hospital=True)
    assert what_happened(reply.embed, "es") == (
        "Ana ingresa en el hospital durante 7 días y deja de desangrarse."
    )
    assert "En el hospital (quedan 6 días)" in state_shown(reply.embed, "es")


REST_WORDS = {
    "es-ES": {
        "what": "Qué ha pasado",
        "admitted": "Amelia Ríos ingresa en el hospital durante 7 días y deja de desangrarse.",
        "flag": "En el hospital (quedan 6 días)",
        "more": "Amelia Ríos pasa 2 días más en el hospital.",
        "discharged": "Amelia Ríos recibe el alta tras 7 días en el hospital y ya no tiene que"
        " hacer la Tirada de Consciencia.",
        "full": "Padre Tomás descansa 2 días; ya tenía toda la Salud.",
    },
    "en-US": {
        "what": "What happened",
        "admitted": "Amelia Ríos is admitted to hospital for 7 days and stops bleeding.",
        "flag": "In hospital (6 days left)",
        "more": "Amelia Ríos spends 2 more days in hospital.",
        "discharged": "Amelia Ríos is discharged after 7 days in hospital and no longer needs a"
        " Consciousness roll.",
        "full": "Padre Tomás rests 2 days; Health was already full.",
    },
}


@pytest.mark.parametrize("locale", list(REST_WORDS))
async def test_a_rest_says_each_fact_once_and_nothing_about_zero(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]], locale: str
) -> None:
    """Issue 20: a discharge was five sentences each starting 'Amelia Ríos', 'le quedan 0
    días' among them; 'Padre Tomás descansa 2 días y recupera 0 de Salud.'; the stay was said
    in a sentence and again in the state line's 'En el hospital (quedan 7 días)'."""
    words = REST_WORDS[locale]
    guild = await make_guild(locale=locale)
    gm = guild.owner
    amelia = {"name": "Amelia Ríos", "health": 9, "gender": "feminine"}
    assert not (await fake.slash(guild, gm, "character create", amelia)).ephemeral
    await create(fake, guild, gm, "Padre Tomás", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Amelia Ríos", "amount": "16"})  # -7

    admitted = await fake.slash(
        guild, gm, "rest", {"character": "Amelia Ríos", "days": 1, "hospital": True}
    )
    assert field(admitted.embed, words["what"]) == words["admitted"]
    assert admitted.text.count(words["flag"]) == 1
    more = await fake.slash(guild, gm, "rest", {"character": "Amelia Ríos", "days": 2})
    assert field(more.embed, words["what"]) == words["more"]
    discharged = await fake.slash(guild, gm, "rest", {"character": "Amelia Ríos", "days": 4})
    assert field(discharged.embed, words["what"]) == words["discharged"]
    assert " 0 " not in discharged.text
    full = await fake.slash(guild, gm, "rest", {"character": "Padre Tomás", "days": 2})
    assert field(full.embed, words["what"]) == words["full"]
