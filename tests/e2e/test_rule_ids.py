"""The rule ids whose end-to-end checks are not already the subject of a command's own file.

Every Health shown is read from the status embed (`Health` field, `CURRENT / MAX`) and from the
database, so the two cannot disagree.
"""

from __future__ import annotations

from devkit.fake_discord import FakeDiscord, FakeGuild, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import correct, create, gm_of, gm_with, rows, state_shown


def health_field(reply: Reply, title: str) -> str:
    """The Health as it is now (``CURRENT / MAX`` …): a change's ``before → `` left out."""
    embed = next(embed for embed in reply.embeds if embed.get("title") == title)
    value = next(field["value"] for field in embed["fields"] if field["name"] == "Health")
    first, _, rest = str(value).partition("\n")
    now = first.rsplit(" → ", 1)[-1]
    return f"{now}\n{rest}" if rest else now


def state_field(reply: Reply, title: str) -> str:
    embed = next(embed for embed in reply.embeds if embed.get("title") == title)
    return state_shown(embed)


async def test_H1_health_of_1_and_a_pool_below_zero(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    created = await create(fake, guild, gm, "Uno", 1)
    assert health_field(created, "Uno").startswith("1 / 1")
    hurt = await fake.slash(guild, gm, "hurt", {"character": "Uno", "amount": "4"})
    assert health_field(hurt, "Uno").startswith("-3 / 1")
    assert rows(bot, guild)["Uno"]["health"] == -3


async def test_H2_the_state_follows_health_alone(fake: FakeDiscord, guild: FakeGuild) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    for health, state, colour in [
        (1, "Healthy", 0x2ECC71),
        (0, "Hurt", 0xF1C40F),
        (-5, "Hurt", 0xF1C40F),
        (-6, "Seriously wounded", 0xE67E22),
        (-11, "Seriously wounded", 0xE67E22),
        (-12, "Dead", 0x23272A),
    ]:
        reply = await correct(fake, guild, gm, "Ana", health=health)
        assert reply.embeds[0]["color"] == colour, health
        shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
        assert shown.embed["color"] == colour, health
        assert state_field(shown, "Ana").startswith(f"**{state}**"), health


async def test_H6_rest_never_heals_above_the_maximum(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=-1)
    rested = await fake.slash(guild, gm, "rest", {"character": "Ana", "days": 30})
    assert health_field(rested, "Ana").startswith("9 / 9")
    assert rows(bot, guild)["Ana"]["health"] == 9


async def test_D5_R4_the_stay_lasts_the_lowest_health_of_the_spell(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "16"})  # -7
    await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "2"})  # -9
    await correct(fake, guild, gm, "Ana", health=-7)  # the spell's lowest stays -9
    assert rows(bot, guild)["Ana"]["lowest_health"] == -9
    admitted = await fake.slash(
        guild, gm, "rest", {"character": "Ana", "days": 1, "hospital": True}
    )
    assert "admitted to hospital for 9 days" in admitted.text
    assert "In hospital (8 days left)" in state_field(admitted, "Ana")
    assert health_field(admitted, "Ana").startswith("-7 / 9"), "R5: Health stays until discharge"


async def test_C7_an_unconscious_character_healed_to_zero_wakes(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await create(fake, guild, gm, "Doc", 9, first_aid=4)
    await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "12"})  # -3
    await correct(fake, guild, gm, "Ana", conscious=False)
    healed = await fake.slash(
        guild, gm, "firstaid", {"medic": "Doc", "patient": "Ana", "points": 2}
    )
    assert health_field(healed, "Ana").startswith("0 / 9")
    assert "Unconscious" not in state_field(healed, "Ana")
    assert "regains consciousness" in healed.text
    row = rows(bot, guild)["Ana"]
    assert (row["conscious"], row["roll_pending"]) == (1, 0)


async def test_G1_a_lower_maximum_lowers_health_and_the_pool_stays_within_its_rating(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9, first_aid=4)
    lowered = await correct(fake, guild, gm, "Ana", max_health=5, first_aid=9)
    assert health_field(lowered, "Ana").startswith("5 / 5")
    row = rows(bot, guild)["Ana"]
    assert (row["health"], row["max_health"]) == (5, 5)
    assert (row["first_aid_pool"], row["first_aid_rating"]) == (4, 4)


async def test_G4_correcting_only_ratings_leaves_the_flags_alone(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9, first_aid=2)
    await fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "16"})  # -7, roll due
    before = rows(bot, guild)["Ana"]
    await correct(fake, guild, gm, "Ana", max_first_aid=5, max_health=12)
    after = rows(bot, guild)["Ana"]
    for flag in ("conscious", "roll_pending", "stabilized", "lowest_health", "scene_start_health"):
        assert after[flag] == before[flag], flag
    assert (after["first_aid_rating"], after["max_health"]) == (5, 12)
