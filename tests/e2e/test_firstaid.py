"""``/firstaid`` end to end (RULES.md F1–F7, H5): healing, stabilization and their limits.

Each test builds its characters with ``/character create`` and ``/hurt`` (fixed amounts) or a
GM's ``/character set``, then reads both the reply and the stored rows.
"""

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
    gms_by_permission_and_role,
    health_change_shown,
    health_shown,
    history_commands,
    history_count,
    replay,
    state_shown,
    stored,
)


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


async def test_F1_two_health_per_point_in_the_patients_embed_with_the_medics_spend(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=5)
    reply = await aid(fake, guild, bob, 1)
    assert not reply.ephemeral
    assert reply.content == "", "one embed, the patient's, says it all"
    (patient,) = reply.embeds
    assert patient["title"] == "Ana"
    assert health_change_shown(patient) == (5, 7, 9)
    assert field(patient, "First Aid") == "**Bob** spends 1 First Aid (4 → 3 / 4): +2 Health."
    assert "description" not in patient
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
    assert field(reply.embed, "First Aid") == (
        "**Bob** spends 2 First Aid (4 → 2 / 4): +3 Health, capped at the maximum Health (9)."
    )
    assert (stored(bot, guild, "Ana")["health"], stored(bot, guild, "Bob")["first_aid_pool"]) == (
        9,
        2,
    )


async def test_F3_a_third_of_the_maximum_per_scene_then_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=2)  # lost 7; cap 9 // 3 = 3
    reply = await aid(fake, guild, bob, 9)
    assert field(reply.embed, "First Aid") == (
        "**Bob** spends 2 First Aid (4 → 2 / 4): +3 Health, capped at a third of the maximum"
        " Health per scene (3)."
    )
    entries = history_count(bot, guild)
    again = await aid(fake, guild, bob, 1)
    assert_refused(again, "already given **Ana** 3 Health back", "(3, a third")
    assert stored(bot, guild, "Ana")["health"] == 5
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 2
    assert history_count(bot, guild) == entries


async def test_F2_nothing_lost_this_scene_is_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild)
    reply = await aid(fake, guild, bob, 2)
    assert_refused(reply, "**Ana** has lost no Health in this scene", "only heals this scene's")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 4


async def test_F2_only_health_lost_in_the_current_scene_is_restored(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = await team(fake, guild, patient_health=6, max_health=30)
    await fake.slash(guild, guild.owner, "scene new")
    assert stored(bot, guild, "Ana")["scene_start_health"] == 6
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "2"})
    reply = await aid(fake, guild, bob, 5)
    assert field(reply.embed, "First Aid") == (
        "**Bob** spends 1 First Aid (4 → 3 / 4): +2 Health, capped at the Health at the start"
        " of the scene (6)."
    )
    assert health_shown(reply.embeds[0]) == (6, 30)
    assert_refused(await aid(fake, guild, bob, 1), "only heals this scene's wounds")


async def test_F5_F6_a_seriously_wounded_patient_is_stabilized_for_two_points(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-7)
    few = await aid(fake, guild, bob, 1)
    assert_refused(few, "Stabilizing **Ana** takes 2 First Aid points", "you offer only 1")
    reply = await aid(fake, guild, bob, 5)
    (patient,) = reply.embeds
    assert health_shown(patient) == (-7, 9), "F5: no Health restored"
    assert field(patient, "First Aid") == (
        "**Bob** spends 2 First Aid (4 → 2 / 4).\nAna is stabilized and stops bleeding."
    )
    assert "Stabilized" in state_shown(patient)
    assert "Consciousness roll pending (Difficulty 7)" in state_shown(patient), "F6 ruling"
    row = stored(bot, guild, "Ana")
    assert (row["stabilized"], row["roll_pending"], row["health"]) == (1, 1, -7)

    entries = history_count(bot, guild)
    again = await aid(fake, guild, bob, 2)
    assert_refused(again, "**Ana**'s wounds are already stabilized")
    assert stored(bot, guild, "Bob")["first_aid_pool"] == 2
    assert history_count(bot, guild) == entries


async def test_F6_a_medic_with_fewer_than_two_points_cannot_stabilize(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-6, first_aid=1)
    reply = await aid(fake, guild, bob, 2)
    assert_refused(reply, "**Bob** has 1 First Aid left and this takes 2")
    assert stored(bot, guild, "Ana")["stabilized"] == 0


async def test_F6_a_patient_in_hospital_needs_no_stabilization(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    ana, bob = await team(fake, guild, patient_health=-8)
    await fake.slash(guild, ana, "rest", {"character": "Ana", "days": 1, "hospital": True})
    assert_refused(await aid(fake, guild, bob, 2), "**Ana** is in hospital")


async def test_F7_C7_healed_back_to_zero_wakes_and_clears_the_roll(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=-2)
    await gm_set(fake, guild, "Ana", conscious=False)
    reply = await aid(fake, guild, bob, 1)
    patient = reply.embeds[0]
    assert health_shown(patient) == (0, 9)
    assert "Ana regains consciousness." in field(patient, "First Aid")
    assert state_shown(patient) == "**Hurt**", "no change of state, no flag left"
    row = stored(bot, guild, "Ana")
    assert (row["conscious"], row["roll_pending"]) == (1, 0)


async def test_F1_self_dead_or_unconscious_medics_and_dead_patients_are_refused(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    _, bob = await team(fake, guild, patient_health=4)
    assert_refused(
        await aid(fake, guild, bob, 1, medic="Bob", patient="Bob"), "themselves", "**Bob**"
    )
    await gm_set(fake, guild, "Bob", health=-3, conscious=False)
    assert_refused(await aid(fake, guild, bob, 1), "**Bob** is unconscious", "another medic")
    await gm_set(fake, guild, "Bob", health=-12)
    assert_refused(await aid(fake, guild, bob, 1), "**Bob** has died", "another medic")
    await gm_set(fake, guild, "Bob", health=9)
    await gm_set(fake, guild, "Ana", health=-12)
    assert_refused(await aid(fake, guild, bob, 1), "**Ana** has died")
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
    manager, keeper = await gms_by_permission_and_role(fake, guild)
    refused = await aid(fake, guild, ana, 1)
    assert_refused(refused, "Only **Bob**'s player or a GM can use their First Aid")
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
    assert reply.content == ""
    (patient,) = reply.embeds
    assert field(patient, "Primeros Auxilios") == (
        "**Bob** gasta 1 de Primeros Auxilios (4 → 3 / 4): +2 de Salud."
    )
    assert health_change_shown(patient, "es") == (5, 7, 9)
    refused = await aid(fake, guild, bob, 1, medic="Bob", patient="Bob")
    assert_refused(refused, "Nadie puede darse Primeros Auxilios", "**Bob**")


FIRST_AID_WORDS = {
    "es-ES": {
        "field": "Primeros Auxilios",
        "third": "**Bob** gasta 2 de Primeros Auxilios (4 → 2 / 4): +3 de Salud; el tope por"
        " escena es un tercio de la Salud máxima (3).",
        "start": "**Bob** gasta 1 de Primeros Auxilios (2 → 1 / 4): +2 de Salud; no pasa de la"
        " Salud con la que empezó la escena (5).",
        "maximum": "**Bob** gasta 1 de Primeros Auxilios (1 → 0 / 4): +1 de Salud; no pasa de la"
        " Salud máxima (9).",
        "left": "**Bob** tiene 0 de Primeros Auxilios y esto cuesta 1.",
    },
    "en-US": {
        "field": "First Aid",
        "third": "**Bob** spends 2 First Aid (4 → 2 / 4): +3 Health, capped at a third of the"
        " maximum Health per scene (3).",
        "start": "**Bob** spends 1 First Aid (2 → 1 / 4): +2 Health, capped at the Health at the"
        " start of the scene (5).",
        "maximum": "**Bob** spends 1 First Aid (1 → 0 / 4): +1 Health, capped at the maximum"
        " Health (9).",
        "left": "**Bob** has 0 First Aid left and this takes 1.",
    },
}


@pytest.mark.parametrize("locale", list(FIRST_AID_WORDS))
async def test_one_line_says_the_medics_spend_and_which_limit_capped_the_healing(
    fake: FakeDiscord, bot: BotProcess, make_guild: Callable[..., Awaitable[FakeGuild]], locale: str
) -> None:
    """Issue 20: 'spends 2 points of First Aid: +3 Health' with no word of the cap, a second
    embed for the medic, and 'has 1 First Aid points left'."""
    words = FIRST_AID_WORDS[locale]
    guild = await make_guild(locale=locale)
    ana, bob = await team(fake, guild, patient_health=2, locale=locale)  # lost 7 of 9
    third = await aid(fake, guild, bob, 3)  # F3: at most 9 // 3 = 3 this scene
    assert [embed["title"] for embed in third.embeds] == ["Ana"], "the patient's embed only"
    assert field(third.embed, words["field"]) == words["third"]

    await fake.slash(guild, guild.owner, "scene new")  # Ana starts it at 5
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "2"})  # 3
    start = await aid(fake, guild, bob, 3)  # F2: back to 5, no higher
    assert field(start.embed, words["field"]) == words["start"]

    await gm_set(fake, guild, "Ana", health=9)
    await fake.slash(guild, guild.owner, "scene new")  # Ana starts it at her maximum
    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1"})  # 8
    maximum = await aid(fake, guild, bob, 1)  # H6: one point gives 2, the maximum allows 1
    assert field(maximum.embed, words["field"]) == words["maximum"]

    await fake.slash(guild, ana, "hurt", {"character": "Ana", "amount": "1"})
    assert_refused(await aid(fake, guild, bob, 1), words["left"])
