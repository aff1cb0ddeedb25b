"""``/firstaid`` end to end (RULES.md F1–F7, H5): healing, stabilization and their limits.

Each test builds its characters with ``/character create`` and ``/hurt`` (fixed amounts) or a
GM's ``/character set``, then reads both the reply and the stored rows.
"""

from __future__ import annotations

from tests.e2e.harness import BotProcess
from tests.e2e.health_support import (
    assert_refused,
    create,
    field,
    gm_set,
    health_shown,
    history_commands,
    history_count,
    replay,
    stored,
)
from tests.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply


async def team(
    fake: FakeDiscord,
    guild: FakeGuild,
    *,
    patient_health: int | None = None,
    first_aid: int = 4,
    max_health: int = 9,
    locale: str = "en-US",
) -> tuple[FakeMember, FakeMember]:
    """Bob (medic, First Aid ``first_aid``) and Ana (patient, hurt down to ``patient_health``)."""
    ana, bob = guild.member("Ana", locale=locale), guild.member("Bob", locale=locale)
    await create(fake, guild, ana, "Ana", max_health)
    await create(fake, guild, bob, "Bob", 9, first_aid=first_aid)
    if patient_health is not None:
        await fake.slash(
            guild, ana, "hurt", {"character": "Ana", "amount": str(max_health - patient_health)}
        )
    return ana, bob


async def aid(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, points: int, **names: str
) -> Reply:
    """``/firstaid`` (Bob on Ana unless named otherwise)."""
    options = {"medic": names.get("medic", "Bob"), "patient": names.get("patient", "Ana")}
    return await fake.slash(guild, member, "firstaid", {**options, "points": points})


async def test_F1_two_health_per_point_shown_for_both_characters(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=5)
    reply = await aid(fake, guild, bob, 1)
    assert not reply.ephemeral
    assert reply.content == (
        "**Bob** gives First Aid to **Ana**: 1 First Aid spent, 2 Health restored."
    )
    patient, medic = reply.embeds
    assert patient["title"] == "Ana" and medic["title"] == "Bob"
    assert health_shown(patient) == (7, 9)
    assert "Ana recovers 2 Health." in patient["description"]
    assert field(medic, "First Aid").startswith("3 / 4")
    assert "Bob spends 1 point of First Aid." in medic["description"]
    assert (stored(bot, guild, "Ana")["health"], stored(bot, guild, "Bob")["first_aid_pool"]) == (
        7,
        3,
    )
    assert stored(bot, guild, "Ana")["first_aid_received"] == 2
    assert history_commands(bot, guild)[-1] == ("firstaid", int(reply.record.id))


async def test_F4_only_the_points_needed_are_spent(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=6)  # lost 3; F3 cap 3
    reply = await aid(fake, guild, bob, 5)
    assert "2 First Aid spent, 3 Health restored" in reply.content
    assert (stored(bot, guild, "Ana")["health"], stored(bot, guild, "Bob")["first_aid_pool"]) == (
        9,
        2,
    )


async def test_F3_a_third_of_the_maximum_per_scene_then_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=2)  # lost 7; cap 9 // 3 = 3
    reply = await aid(fake, guild, bob, 9)
    assert "2 First Aid spent, 3 Health restored" in reply.content
    entries = history_count(bot, guild)
    again = await aid(fake, guild, bob, 1)
    assert_refused(again, "already restored 3 Health", "(3, a third")
    assert stored(bot, guild, "Ana")["health"] == 5
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 2
    assert history_count(bot, guild) == entries


async def test_F2_nothing_lost_this_scene_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild)
    reply = await aid(fake, guild, bob, 2)
    assert_refused(reply, "only restores Health lost in this scene")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 4


async def test_F2_only_health_lost_in_the_current_scene_is_restored(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = await team(fake, guild, patient_health=6, max_health=30)
    await fake.slash(guild, guild.owner, "scene new")
    assert stored(bot, guild, "Ana")["scene_start_health"] == 6
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "2"})
    reply = await aid(fake, guild, bob, 5)
    assert "1 First Aid spent, 2 Health restored" in reply.content
    assert health_shown(reply.embeds[0]) == (6, 30)
    assert_refused(await aid(fake, guild, bob, 1), "only restores Health lost in this scene")


async def test_F5_F6_a_seriously_wounded_patient_is_stabilized_for_two_points(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-7)
    few = await aid(fake, guild, bob, 1)
    assert_refused(few, "takes 2 First Aid points; 1 offered")
    reply = await aid(fake, guild, bob, 5)
    assert reply.content == "**Bob** stabilizes **Ana** (2 First Aid spent): no more bleeding."
    patient, medic = reply.embeds
    assert health_shown(patient) == (-7, 9), "F5: no Health restored"
    assert "Ana is stabilized and no longer bleeds." in patient["description"]
    assert "Stabilized" in field(patient, "State")
    assert "Consciousness roll pending (Difficulty 7)" in field(patient, "State"), "F6 ruling"
    assert field(medic, "First Aid").startswith("2 / 4")
    row = stored(bot, guild, "Ana")
    assert (row["stabilized"], row["roll_pending"], row["health"]) == (1, 1, -7)

    entries = history_count(bot, guild)
    again = await aid(fake, guild, bob, 2)
    assert_refused(again, "already stabilized")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 2
    assert history_count(bot, guild) == entries


async def test_F6_a_medic_with_fewer_than_two_points_cannot_stabilize(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-6, first_aid=1)
    reply = await aid(fake, guild, bob, 2)
    assert_refused(reply, "has 1 First Aid points and this needs 2")
    assert stored(bot, guild, "Ana")["stabilized"] == 0


async def test_F6_a_patient_in_hospital_needs_no_stabilization(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = await team(fake, guild, patient_health=-8)
    await fake.slash(guild, ana, "rest", {"character": "Ana", "days": 1, "hospital": True})
    assert_refused(await aid(fake, guild, bob, 2), "in hospital")


async def test_F7_C7_healed_back_to_zero_wakes_and_clears_the_roll(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-2)
    await gm_set(fake, guild, "Ana", conscious=False)
    reply = await aid(fake, guild, bob, 1)
    patient = reply.embeds[0]
    assert health_shown(patient) == (0, 9)
    assert "Ana regains consciousness." in patient["description"]
    assert "Ana is now Hurt." not in patient["description"]
    row = stored(bot, guild, "Ana")
    assert (row["conscious"], row["roll_pending"]) == (1, 0)


async def test_F1_self_dead_or_unconscious_medics_and_dead_patients_are_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=4)
    assert_refused(await aid(fake, guild, bob, 1, medic="Bob", patient="Bob"), "itself")
    await gm_set(fake, guild, "Bob", health=-3, conscious=False)
    assert_refused(await aid(fake, guild, bob, 1), "medic is unconscious")
    await gm_set(fake, guild, "Bob", health=-12)
    assert_refused(await aid(fake, guild, bob, 1), "medic is dead")
    await gm_set(fake, guild, "Bob", health=9)
    await gm_set(fake, guild, "Ana", health=-12)
    assert_refused(await aid(fake, guild, bob, 1), "dead")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 4


async def test_points_out_of_range_are_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=4)
    for points in (0, 100):
        assert_refused(await aid(fake, guild, bob, points), "points", "1", "99")
    assert stored(bot, guild, "Ana")["health"] == 4


async def test_permissions_medics_owner_or_a_gm_not_the_patients_owner(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = await team(fake, guild, patient_health=0, first_aid=9, max_health=30)
    manager = guild.member("Manager", permissions=["manage_guild"])
    role = guild.role("Keeper")
    keeper = guild.member("Keeper", roles=[role])
    await fake.slash(guild, guild.owner, "config gm-role", {"role": role})
    refused = await aid(fake, guild, ana, 1)
    assert_refused(refused, "Only **Bob**'s owner or a GM can give First Aid with it")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 9
    health = 0
    for member in (bob, manager, keeper):
        reply = await aid(fake, guild, member, 1)
        health += 2
        assert not reply.ephemeral, reply.text
        assert health_shown(reply.embeds[0]) == (health, 30)
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 6


async def test_a_repeated_interaction_applies_once(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=3)
    first = await aid(fake, guild, bob, 1)
    assert_refused(await replay(fake, first), "already applied")
    assert (stored(bot, guild, "Ana")["health"], stored(bot, guild, "Bob")["first_aid_pool"]) == (
        5,
        3,
    )


async def test_spanish_first_aid(fake: FakeDiscord, bot: BotProcess, make_guild: object) -> None:
    guild: FakeGuild = await make_guild(locale="es-ES")  # type: ignore[operator]
    _, bob = await team(fake, guild, patient_health=5, locale="es-ES")
    reply = await aid(fake, guild, bob, 1)
    assert reply.content == (
        "**Bob** da Primeros Auxilios a **Ana**: gasta 1 de Primeros Auxilios y le devuelve "
        "2 de Salud."
    )
    assert "Ana recupera 2 de Salud." in reply.embeds[0]["description"]
    assert field(reply.embeds[1], "Primeros Auxilios").startswith("3 / 4")
    refused = await aid(fake, guild, bob, 1, medic="Bob", patient="Bob")
    assert_refused(refused, "sí mismo")
