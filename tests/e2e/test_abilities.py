"""``/ability set|remove``, ``/spend`` and ``/check`` end to end (RULES.md P1–P3, H3, H4).

The real bot runs against the fake Discord and rolls the dice each test scripts
(``bot.script_dice``), so every roll shows the die the test gave and ends the way the test says:
``DIE + SPEND = TOTAL vs DIFFICULTY`` adds up, the outcome words agree with it, and the pool
left is what was spent. Stored state is read from the bot's
database (read-only) to prove that refusals change nothing.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild
from devkit.harness import BotProcess
from tests.e2e.kit import (
    Table,
    abilities,
    check_roll,
    delete,
    guild_state,
    history,
    make_table,
    read_only,
    stored,
)
from tests.e2e.kit import undo as confirmed_undo

pytestmark = pytest.mark.e2e


@pytest.fixture
async def table(fake: FakeDiscord, bot: BotProcess, guild: FakeGuild) -> Table:
    return await make_table(fake, bot, guild)


# --- /ability set -----------------------------------------------------------------------------


async def test_P1_ability_set_adds_a_full_pool_with_the_known_kind(table: Table) -> None:
    reply = await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "Athletics", "rating": 5}
    )
    assert reply.embed["title"] == "Ana"
    assert reply.embed["description"] == "New ability: **Athletics** (general), pool 5 / 5."
    assert [field["name"] for field in reply.embed.get("fields") or []] == []  # no sheet
    await table.ok(
        table.gm, "ability set", {"character": "ana", "ability": "library use", "rating": 3}
    )
    await table.ok(table.gm, "ability set", {"character": "Ana", "ability": "Cooking", "rating": 2})
    reply = await table.ok(
        table.gm,
        "ability set",
        {
            "character": "Ana",
            "ability": "Dreamlore",
            "rating": 4,
            "pool": 1,
            "kind": "investigative",
        },
    )
    assert reply.embed["description"] == "New ability: **Dreamlore** (investigative), pool 1 / 4."
    stored = abilities(table.bot, table.guild, "Ana")
    assert stored == {
        "Athletics": ("general", 5, 5),
        "library use": ("investigative", 3, 3),  # the catalog knows it, whatever the case
        "Cooking": ("general", 2, 2),  # unknown: general
        "Dreamlore": ("investigative", 4, 1),
    }
    # The sheet is /character show's: investigative first, then general, compactly.
    embed = (await table.ok(table.gm, "character show", {"character": "Ana"})).embed
    names = [field["name"] for field in embed["fields"]]
    assert names.index("Investigative abilities") < names.index("General abilities")
    assert history(table.bot, table.guild)[-4:] == ["ability set"] * 4


async def test_P1_ability_set_corrects_keeps_the_pool_and_cuts_it_to_a_lowered_rating(
    table: Table,
) -> None:
    gm, ana = table.gm, "Ana"
    await table.ok(
        gm, "ability set", {"character": ana, "ability": "Athletics", "rating": 8, "pool": 2}
    )
    assert abilities(table.bot, table.guild, ana)["Athletics"] == ("general", 8, 2)
    # A new rating keeps the pool …
    reply = await table.ok(
        gm, "ability set", {"character": ana, "ability": "Athletics", "rating": 6}
    )
    assert abilities(table.bot, table.guild, ana)["Athletics"] == ("general", 6, 2)
    assert reply.embed["description"] == "**Athletics** corrected: rating 8 → 6 · pool 2 / 6."
    # … a lowered rating cuts it (never above the rating) …
    await table.ok(gm, "ability set", {"character": ana, "ability": "ATHLETICS", "rating": 1})
    assert abilities(table.bot, table.guild, ana) == {"ATHLETICS": ("general", 1, 1)}
    # … an omitted kind keeps the existing one, a given kind changes it.
    await table.ok(
        gm,
        "ability set",
        {"character": ana, "ability": "Athletics", "rating": 3, "kind": "investigative"},
    )
    await table.ok(
        gm, "ability set", {"character": ana, "ability": "Athletics", "rating": 3, "pool": 3}
    )
    assert abilities(table.bot, table.guild, ana) == {"Athletics": ("investigative", 3, 3)}
    # The same values again: answered, but no change is stored.
    entries = len(history(table.bot, table.guild))
    reply = await table.ok(
        gm, "ability set", {"character": ana, "ability": "Athletics", "rating": 3}
    )
    assert reply.embed["description"] == (
        "**Athletics** is already investigative, pool 3 / 3: nothing changed."
    )
    assert len(history(table.bot, table.guild)) == entries
    # A pool above the rating is refused.
    await table.refused(
        gm,
        "ability set",
        {"character": ana, "ability": "Athletics", "rating": 3, "pool": 4},
        "`pool`",
        "0",
        "3",
    )


async def test_ability_set_allows_at_most_60_abilities_and_the_status_embed_fits(
    table: Table,
) -> None:
    # 60 abilities with the longest names (40 characters) and two-digit pools.
    names = [f"{i:02d} {'Lore of the Outer Gods and Dreams':.<37}"[:40] for i in range(60)]
    assert all(len(name) == 40 for name in names)
    violations = len(table.fake.violations)
    replies = await asyncio.gather(
        *(
            table.slash(
                table.gm,
                "ability set",
                {
                    "character": "Ana",
                    "ability": name,
                    "rating": 99,
                    "pool": 98,
                    "kind": "investigative" if i % 2 else "general",
                },
            )
            for i, name in enumerate(names)
        )
    )
    assert all(not reply.ephemeral for reply in replies)
    assert len(abilities(table.bot, table.guild, "Ana")) == 60
    await table.refused(
        table.gm, "ability set", {"character": "Ana", "ability": "Athletics", "rating": 1}, "60"
    )
    # Correcting one of the 60 is still allowed.
    await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": names[0], "rating": 99, "pool": 99}
    )
    show = await table.ok(table.bob, "character show", {"character": "Ana"})
    embed = show.embed
    assert len(embed["fields"]) <= 25
    assert all(len(field["value"]) <= 1024 for field in embed["fields"])
    size = sum(
        len(str(part or ""))
        for part in [
            embed.get("title"),
            embed.get("description"),
            (embed.get("footer") or {}).get("text"),
        ]
    ) + sum(len(field["name"]) + len(field["value"]) for field in embed["fields"])
    assert size <= 6000
    listed = sum(show.text.count(f"{name} ") for name in names)
    assert listed == 60, "every ability is listed"
    assert len(table.fake.violations) == violations, table.fake.violations[violations:]


# --- /ability remove ----------------------------------------------------------------------------


async def test_ability_remove_removes_it_and_refuses_one_the_character_lacks(table: Table) -> None:
    await table.set_abilities("Ana", ("Athletics", 4), ("Stealth", 2))
    reply = await table.ok(table.gm, "ability remove", {"character": "Ana", "ability": "athletics"})
    assert reply.embed["description"] == (
        "**Athletics** (pool 4 / 4) is removed. A GM can bring it back with /undo."
    )
    assert abilities(table.bot, table.guild, "Ana") == {"Stealth": ("general", 2, 2)}
    assert history(table.bot, table.guild)[-1] == "ability remove"
    await table.refused(
        table.gm,
        "ability remove",
        {"character": "Ana", "ability": "Athletics"},
        "no ability called",
        "/ability set",
    )
    await table.refused(
        table.gm, "ability remove", {"character": "Ana", "ability": "Health"}, "/character set"
    )


# --- /spend -------------------------------------------------------------------------------------


async def test_P1_spend_lowers_the_pool_never_below_zero(table: Table) -> None:
    await table.set_abilities("Ana", ("Athletics", 5), ("Library Use", 2))
    reply = await table.ok(
        table.ana, "spend", {"character": "Ana", "ability": "athletics", "points": 2}
    )
    assert reply.embed["description"] == "Spends 2 points of **Athletics**: pool 5 → 3 / 5."
    reply = await table.ok(
        table.ana, "spend", {"character": "Ana", "ability": "Library Use", "points": 1}
    )
    assert reply.embed["description"] == (
        "Spends 1 point of **Library Use** (pool 2 → 1 / 2): each point buys a benefit,"
        " which the GM describes."
    )
    assert abilities(table.bot, table.guild, "Ana") == {
        "Athletics": ("general", 5, 3),
        "Library Use": ("investigative", 2, 1),
    }
    assert history(table.bot, table.guild)[-2:] == ["spend", "spend"]
    await table.refused(
        table.ana,
        "spend",
        {"character": "Ana", "ability": "Athletics", "points": 4},
        "3 left",
        "4 asked",
    )
    await table.ok(table.ana, "spend", {"character": "Ana", "ability": "Athletics", "points": 3})
    assert abilities(table.bot, table.guild, "Ana")["Athletics"] == ("general", 5, 0)
    await table.refused(
        table.ana, "spend", {"character": "Ana", "ability": "Athletics", "points": 1}, "0 left"
    )


async def test_H3_investigative_spend_is_refused_while_hurt_or_seriously_wounded(
    table: Table,
) -> None:
    await table.set_abilities("Ana", ("Library Use", 3), ("Athletics", 3))
    for health in (0, -6):
        await table.ok(table.gm, "character set", {"character": "Ana", "health": health})
        await table.refused(
            table.ana,
            "spend",
            {"character": "Ana", "ability": "Library Use", "points": 1},
            "Hurt or Seriously wounded",
            "investigative",
        )
    # General points may still be spent.
    await table.ok(table.ana, "spend", {"character": "Ana", "ability": "Athletics", "points": 1})
    # Healthy again: investigative points can be spent.
    await table.ok(table.gm, "character set", {"character": "Ana", "health": 9})
    await table.ok(table.ana, "spend", {"character": "Ana", "ability": "Library Use", "points": 1})
    assert abilities(table.bot, table.guild, "Ana") == {
        "Library Use": ("investigative", 3, 2),
        "Athletics": ("general", 3, 2),
    }


# --- /check -----------------------------------------------------------------------------------


async def test_P3_check_arithmetic_agrees_with_the_die_the_outcome_and_the_pool(
    table: Table,
) -> None:
    await table.set_abilities("Ana", ("Athletics", 8))
    pool = 8
    # (difficulty given, spend, die, success): each boundary met or missed by one.
    cases = [
        (None, 0, 4, True),  # 4 vs 4 (the default Difficulty)
        (2, 1, 1, True),  # 2 vs 2
        (6, 2, 3, False),  # 5 vs 6
        (0, 0, 1, True),
        (99, 3, 6, False),
        (5, 0, 4, False),
    ]
    for difficulty, spend, die, success in cases:
        entries = len(history(table.bot, table.guild))
        options: dict[str, Any] = {"character": "Ana", "ability": "Athletics", "spend": spend}
        if difficulty is not None:
            options["difficulty"] = difficulty
        await table.bot.script_dice(die)
        reply = await table.ok(table.ana, "check", options)
        pool -= spend
        roll = check_roll(
            reply,
            die=die,
            success=success,
            spend=spend,
            difficulty=4 if difficulty is None else difficulty,
            pool_after=pool,
            rating=8,
        )
        assert reply.embed["title"] == "Ana"
        assert "Athletics test" in reply.text
        assert abilities(table.bot, table.guild, "Ana")["Athletics"] == ("general", 8, pool)
        # A check that spends nothing stores nothing; one that spends is one change.
        assert len(history(table.bot, table.guild)) == entries + (1 if spend else 0)
        assert roll.total == roll.die + spend
    assert history(table.bot, table.guild)[-1] == "check"
    # An attack without a Hit Threshold uses 3: a 3 hits, a 2 misses.
    for die, success in ((3, True), (2, False)):
        await table.bot.script_dice(die)
        reply = await table.ok(
            table.ana, "check", {"character": "Ana", "ability": "Athletics", "attack": True}
        )
        check_roll(
            reply,
            die=die,
            success=success,
            spend=0,
            difficulty=3,
            pool_after=pool,
            rating=8,
            attack=True,
        )
        assert "Athletics attack" in reply.text
    # Spending beyond the pool is refused before rolling.
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "Athletics", "spend": pool + 1},
        f"{pool} left",
    )


async def test_P2_hurt_and_seriously_wounded_raise_the_difficulty_with_its_breakdown(
    table: Table,
) -> None:
    await table.set_abilities("Ana", ("Athletics", 6), ("Scuffling", 6))
    await table.ok(table.gm, "character set", {"character": "Ana", "health": -1})  # Hurt
    await table.bot.script_dice(4, 3, 3)
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Athletics", "spend": 1}
    )
    check_roll(reply, die=4, success=True, spend=1, difficulty=4, pool_after=5, rating=6, penalty=1)
    assert "4 + 1 = 5 vs 5 (4 + 1 for wounds)" in reply.text
    assert reply.text.count("for wounds") == 1 and reply.text.count("(4 + 1") == 1
    # Hurt may still attack: the Hit Threshold rises too (a 3 no longer hits).
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Scuffling", "attack": True}
    )
    check_roll(
        reply,
        die=3,
        success=False,
        spend=0,
        difficulty=3,
        pool_after=6,
        rating=6,
        attack=True,
        penalty=1,
    )
    assert "3 + 0 = 3 vs 4 (3 + 1 for wounds)" in reply.text
    await table.ok(
        table.gm, "character set", {"character": "Ana", "health": -7}
    )  # Seriously wounded
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Athletics", "difficulty": 3}
    )
    check_roll(
        reply, die=3, success=False, spend=0, difficulty=3, pool_after=5, rating=6, penalty=1
    )
    assert "3 + 0 = 3 vs 4 (3 + 1 for wounds)" in reply.text


async def test_H4_a_seriously_wounded_character_cannot_attack(table: Table) -> None:
    await table.set_abilities("Ana", ("Scuffling", 4), ("Firearms", 4))
    await table.ok(table.gm, "character set", {"character": "Ana", "health": -6})
    for options in (
        {"ability": "Scuffling", "attack": True},
        {"ability": "Firearms", "attack": True, "spend": 2, "difficulty": 4},
    ):
        await table.refused(
            table.ana, "check", {"character": "Ana", **options}, "can no longer fight", "no attacks"
        )
    # Healed to Hurt: it may fight again.
    await table.ok(table.gm, "character set", {"character": "Ana", "health": -5})
    await table.bot.script_dice(3)  # the refusals rolled nothing: this is the first die
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Firearms", "attack": True, "spend": 1}
    )
    check_roll(
        reply,
        die=3,
        success=True,
        spend=1,
        difficulty=3,
        pool_after=3,
        rating=4,
        attack=True,
        penalty=1,
    )


async def test_check_of_an_investigative_ability_is_refused(table: Table) -> None:
    await table.set_abilities("Ana", ("Library Use", 3))
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "Library Use"},
        "investigative",
        "/spend",
    )
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "Library Use", "spend": 1},
        "investigative",
    )


async def test_check_and_spend_refused_for_a_dead_or_unconscious_character(table: Table) -> None:
    await table.set_abilities("Ana", ("Athletics", 3), ("Library Use", 3))
    await table.ok(
        table.gm, "character set", {"character": "Ana", "health": -3, "conscious": False}
    )
    for command, options in (
        ("check", {"ability": "Athletics"}),
        ("check", {"ability": "Athletics", "spend": 1}),
        ("spend", {"ability": "Athletics", "points": 1}),
    ):
        await table.refused(
            table.ana, command, {"character": "Ana", **options}, "**Ana** is unconscious"
        )
    await table.ok(table.gm, "character set", {"character": "Ana", "health": -12})
    for command, options in (
        ("check", {"ability": "Athletics"}),
        ("spend", {"ability": "Athletics", "points": 1}),
        ("spend", {"ability": "Library Use", "points": 1}),
    ):
        await table.refused(table.gm, command, {"character": "Ana", **options}, "**Ana** has died")
    # The GM may still correct its abilities (a correction, like /character set).
    await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "Athletics", "rating": 4}
    )


async def test_check_may_test_first_aid_spending_from_its_pool(table: Table) -> None:
    await table.bot.script_dice(2, 5)
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "First Aid", "spend": 2}
    )
    check_roll(reply, die=2, success=True, spend=2, difficulty=4, pool_after=1, rating=3)
    assert "First Aid test" in reply.text
    row = stored(table.bot, table.guild, "Ana")
    assert (row["first_aid_pool"], row["first_aid_rating"]) == (1, 3)
    assert abilities(table.bot, table.guild, "Ana") == {}
    assert history(table.bot, table.guild)[-1] == "check"
    # The Spanish name works as well; beyond the pool is refused.
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "primeros auxilios", "spend": 2},
        "1 left",
    )
    reply = await table.ok(table.ana, "check", {"character": "Ana", "ability": "primeros auxilios"})
    check_roll(reply, die=5, success=True, spend=0, difficulty=4, pool_after=1, rating=3)


# --- names, numbers and refusals ----------------------------------------------------------------


async def test_health_and_first_aid_are_not_abilities(table: Table) -> None:
    pointers = ("/character set", "/hurt", "/conscious", "/firstaid")
    for name in ("Health", "salud", "First Aid", "Primeros  Auxilios", "PRIMEROS AUXILIOS"):
        await table.refused(
            table.gm, "ability set", {"character": "Ana", "ability": name, "rating": 3}, *pointers
        )
        await table.refused(
            table.gm, "ability remove", {"character": "Ana", "ability": name}, *pointers
        )
        await table.refused(
            table.ana, "spend", {"character": "Ana", "ability": name, "points": 1}, *pointers
        )
    await table.refused(table.ana, "check", {"character": "Ana", "ability": "Health"}, *pointers)


async def test_bad_inputs_are_refused_ephemerally_and_change_nothing(table: Table) -> None:
    await table.set_abilities("Ana", ("Athletics", 3))
    gm, ana = table.gm, table.ana
    base = {"character": "Ana"}
    # Names: unknown, too long, control and invisible characters.
    await table.refused(
        ana, "spend", {**base, "ability": "Swimming", "points": 1}, "no ability called", "rating 0"
    )
    await table.refused(ana, "check", {**base, "ability": "Swimming"}, "no ability called")
    await table.refused(
        gm, "ability set", {**base, "ability": "A" * 41, "rating": 1}, "too long", "40"
    )
    await table.refused(ana, "check", {**base, "ability": "B" * 41}, "too long")
    await table.refused(
        gm, "ability set", {**base, "ability": "Ath\u200bletics", "rating": 1}, "control"
    )
    await table.refused(gm, "ability set", {**base, "ability": "Bell\x07", "rating": 1}, "control")
    await table.refused(
        gm, "ability set", {**base, "ability": "Two\nLines", "rating": 1}, "control"
    )
    await table.refused(gm, "ability set", {**base, "ability": "   ", "rating": 1}, "empty")
    await table.refused(
        gm, "ability set", {**base, "ability": "\u3164", "rating": 1}, "nothing visible"
    )
    await table.refused(
        gm, "ability set", {"character": "Nobody", "ability": "Athletics", "rating": 1}, "Nobody"
    )
    # Numbers out of range (a client may send them; Discord would not).
    for rating in (-1, 100):
        await table.refused(
            gm, "ability set", {**base, "ability": "Athletics", "rating": rating}, "`rating`"
        )
    for pool in (-1, 100):
        await table.refused(
            gm,
            "ability set",
            {**base, "ability": "Athletics", "rating": 99, "pool": pool},
            "`pool`",
        )
    for points in (0, -1, 100):
        await table.refused(
            ana, "spend", {**base, "ability": "Athletics", "points": points}, "`points`"
        )
    for difficulty in (-1, 100):
        await table.refused(
            ana, "check", {**base, "ability": "Athletics", "difficulty": difficulty}, "`difficulty`"
        )
    for spend in (-1, 100):
        await table.refused(
            ana, "check", {**base, "ability": "Athletics", "spend": spend}, "`spend`"
        )
    assert abilities(table.bot, table.guild, "Ana") == {"Athletics": ("general", 3, 3)}


async def test_names_with_markdown_and_mentions_ping_nobody(table: Table) -> None:
    violations = len(table.fake.violations)
    reply = await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "@everyone *Lore*", "rating": 2}
    )
    assert "@everyone \\*Lore\\*" in reply.embed["description"]
    assert reply.body is not None
    assert reply.body["data"]["allowed_mentions"]["parse"] == [], reply.body
    reply = await table.ok(
        table.ana, "spend", {"character": "Ana", "ability": "@EVERYONE *lore*", "points": 1}
    )
    assert abilities(table.bot, table.guild, "Ana") == {"@everyone *Lore*": ("general", 2, 1)}
    assert len(table.fake.violations) == violations, table.fake.violations[violations:]


# --- who may do what --------------------------------------------------------------------------


async def test_permission_matrix(table: Table) -> None:
    gm, keeper, ana, bob = table.gm, table.keeper, table.ana, table.bob
    # /ability set and remove: GM only (by Manage Server or by the GM role).
    set_options = {"character": "Ana", "ability": "Athletics", "rating": 5}
    for member in (ana, bob):
        await table.refused(member, "ability set", set_options, "Only a GM")
    await table.ok(gm, "ability set", set_options)
    await table.ok(keeper, "ability set", {**set_options, "rating": 6, "pool": 6})
    await table.ok(keeper, "ability set", {"character": "Ana", "ability": "Stealth", "rating": 2})
    for member in (ana, bob):
        await table.refused(
            member, "ability remove", {"character": "Ana", "ability": "Stealth"}, "Only a GM"
        )
    await table.ok(keeper, "ability remove", {"character": "Ana", "ability": "Stealth"})
    await table.set_abilities("Ana", ("Stealth", 2))
    await table.ok(gm, "ability remove", {"character": "Ana", "ability": "Stealth"})
    # /spend and /check: the owner or a GM; another player is refused.
    spend = {"character": "Ana", "ability": "Athletics", "points": 1}
    check = {"character": "Ana", "ability": "Athletics", "spend": 1}
    await table.refused(bob, "spend", spend, "Only **Ana**'s player or a GM")
    await table.refused(bob, "check", check, "Only **Ana**'s player or a GM")
    await table.refused(bob, "check", {"character": "Ana", "ability": "Athletics"}, "player")
    for pool, member in ((4, ana), (2, gm), (0, keeper)):
        await table.ok(member, "spend", spend)
        await table.bot.script_dice(3)
        reply = await table.ok(member, "check", check)
        check_roll(reply, die=3, success=True, spend=1, difficulty=4, pool_after=pool, rating=6)
    assert abilities(table.bot, table.guild, "Ana") == {"Athletics": ("general", 6, 0)}


# --- Spanish ------------------------------------------------------------------------------------


async def test_spanish_server_and_players(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    guild = await make_guild(locale="es-ES")
    table = await make_table(fake, bot, guild, locale="es-ES")
    reply = await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "Buscar Libros", "rating": 3}
    )
    assert reply.embed["description"] == (
        "Nueva habilidad: **Buscar Libros** (de investigación), reserva 3 / 3."
    )
    await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "Atletismo", "rating": 4}
    )
    reply = await table.ok(
        table.ana, "spend", {"character": "Ana", "ability": "buscar libros", "points": 1}
    )
    assert reply.embed["description"] == (
        "Gasta 1 punto de **Buscar Libros** (reserva 3 → 2 / 3): cada punto compra un"
        " beneficio, que describe el DJ."
    )
    await table.bot.script_dice(3, 2, 5)
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Atletismo", "spend": 1}
    )
    check_roll(
        reply, die=3, success=True, spend=1, difficulty=4, pool_after=3, rating=4, language="es"
    )
    assert "Prueba de Atletismo" in reply.text
    reply = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Primeros Auxilios", "spend": 1}
    )
    check_roll(
        reply, die=2, success=False, spend=1, difficulty=4, pool_after=2, rating=3, language="es"
    )
    # Wounded: the breakdown, and the refusals, in Spanish.
    await table.ok(table.gm, "character set", {"character": "Ana", "health": -7})
    reply = await table.ok(table.ana, "check", {"character": "Ana", "ability": "Atletismo"})
    check_roll(
        reply,
        die=5,
        success=True,
        spend=0,
        difficulty=4,
        pool_after=3,
        rating=4,
        penalty=1,
        language="es",
    )
    assert "5 + 0 = 5 vs 5 (4 + 1 por las heridas)" in reply.text
    await table.refused(
        table.ana,
        "spend",
        {"character": "Ana", "ability": "Buscar Libros", "points": 1},
        "**Ana** no puede gastar",
        "Dañado y Gravemente herido",
    )
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "Atletismo", "attack": True},
        "no puede atacar",
    )
    await table.refused(
        table.ana,
        "check",
        {"character": "Ana", "ability": "Buscar Libros"},
        "habilidad de investigación",
    )
    await table.refused(
        table.gm,
        "ability set",
        {"character": "Ana", "ability": "Salud", "rating": 2},
        "«Salud» no es una habilidad",
    )
    await table.refused(
        table.ana,
        "spend",
        {"character": "Ana", "ability": "Nadar", "points": 1},
        "no tiene ninguna habilidad",
    )
    await table.refused(
        table.bob,
        "spend",
        {"character": "Ana", "ability": "Atletismo", "points": 1},
        "Solo el jugador de **Ana**",
    )
    await table.refused(
        table.ana,
        "ability set",
        {"character": "Ana", "ability": "Atletismo", "rating": 1},
        "Solo un DJ",
    )
    # The commands' payloads are valid; the kind's labels are translated, names stay English.
    mine = ("ability", "spend", "check")
    assert [error for error in fake.command_errors if any(n in error for n in mine)] == []
    command = fake.find_command(guild.id, "ability")
    set_command = next(o for o in command["options"] if o["name"] == "set")
    kind = next(o for o in set_command["options"] if o["name"] == "kind")
    labels = {c["value"]: c["name_localizations"]["es-ES"] for c in kind["choices"]}
    assert labels == {"general": "General", "investigative": "De investigación"}
    # An English-speaking player on a Spanish server gets errors in English, the server Spanish.
    english = guild.member("Eve", permissions=["manage_guild"], locale="en-US")
    await table.refused(
        english, "spend", {"character": "Ana", "ability": "Nadar", "points": 1}, "no ability called"
    )
    reply = await table.ok(
        english, "ability set", {"character": "Ana", "ability": "Nadar", "rating": 1}
    )
    assert reply.embed["description"].startswith("Nueva habilidad: **Nadar**")


# --- autocomplete -------------------------------------------------------------------------------


async def test_ability_autocomplete_own_abilities_first_then_the_catalog(table: Table) -> None:
    fake, guild = table.fake, table.guild
    await table.set_abilities("Ana", ("Stealth", 2), ("Library Use", 3), ("Zoology of the Deep", 1))
    choices = await fake.autocomplete(
        guild, table.ana, "spend", {"character": "Ana", "ability": ""}, focused="ability"
    )
    assert len(choices) == 25
    own = [choice["value"] for choice in choices[:3]]
    assert own == ["Library Use", "Stealth", "Zoology of the Deep"]
    assert choices[0]["name"] == "Library Use · 3/3 · investigative"
    rest = [choice["value"] for choice in choices[3:]]
    assert "Stealth" not in rest and "Library Use" not in rest  # not twice
    assert all(" · general" in c["name"] or " · investigative" in c["name"] for c in choices)
    # Filtered by the typed text; /check offers general abilities and First Aid only.
    choices = await fake.autocomplete(
        guild, table.ana, "check", {"character": "Ana", "ability": "fir"}, focused="ability"
    )
    assert [c["value"] for c in choices] == ["First Aid", "Firearms"]
    assert choices[0]["name"] == "First Aid · 3/3 · general"
    choices = await fake.autocomplete(
        guild, table.ana, "check", {"character": "Ana", "ability": ""}, focused="ability"
    )
    assert all("investigative" not in c["name"] for c in choices)
    assert [c["value"] for c in choices[:2]] == ["First Aid", "Stealth"]
    # /ability remove offers only what the character has.
    choices = await fake.autocomplete(
        guild, table.gm, "ability remove", {"character": "ana", "ability": "s"}, focused="ability"
    )
    assert [c["value"] for c in choices] == ["Stealth"]  # a word starts so; "Use" only holds s
    choices = await fake.autocomplete(
        guild, table.gm, "ability remove", {"character": "ana", "ability": "de"}, focused="ability"
    )
    assert [c["value"] for c in choices] == ["Zoology of the Deep"]  # a later word's start
    # Without a known character: the catalog, in the user's language.
    choices = await fake.autocomplete(
        guild,
        table.gm,
        "ability set",
        {"character": "Nobody", "ability": "libr"},
        focused="ability",
        locale="es-ES",
    )
    assert choices[0] == {"name": "Buscar Libros · de investigación", "value": "Buscar Libros"}
    choices = await fake.autocomplete(
        guild,
        table.gm,
        "ability set",
        {"character": "Ana", "ability": "atle"},
        focused="ability",
        locale="es-ES",
    )
    assert choices[0] == {"name": "Atletismo · general", "value": "Atletismo"}


# --- history and undo ---------------------------------------------------------------------------


async def test_each_change_is_one_history_entry_and_undo_reverts_it(table: Table) -> None:
    await table.set_abilities("Ana", ("Athletics", 5))
    await table.ok(
        table.gm, "ability set", {"character": "Ana", "ability": "Athletics", "rating": 3}
    )
    await table.ok(table.ana, "spend", {"character": "Ana", "ability": "Athletics", "points": 1})
    await table.bot.script_dice(6, 1)
    check = await table.ok(
        table.ana, "check", {"character": "Ana", "ability": "Athletics", "spend": 1}
    )
    check_roll(check, die=6, success=True, spend=1, difficulty=4, pool_after=1, rating=3)
    check = await table.ok(table.ana, "check", {"character": "Ana", "ability": "Athletics"})
    check_roll(check, die=1, success=False, spend=0, difficulty=4, pool_after=1, rating=3)
    await table.ok(table.gm, "ability remove", {"character": "Ana", "ability": "Athletics"})
    assert history(table.bot, table.guild)[-5:] == [
        "ability set",
        "ability set",
        "spend",
        "check",
        "ability remove",
    ]
    expected = [
        {"Athletics": ("general", 3, 1)},  # undo remove
        {"Athletics": ("general", 3, 2)},  # undo check with spend
        {"Athletics": ("general", 3, 3)},  # undo spend
        {"Athletics": ("general", 5, 5)},  # undo correction
        {},  # undo add
    ]
    for state in expected:
        assert not (await confirmed_undo(table.fake, table.guild, table.gm)).ephemeral
        assert abilities(table.bot, table.guild, "Ana") == state


async def test_deleting_a_character_removes_its_abilities_and_undo_brings_them_back(
    table: Table,
) -> None:
    await table.set_abilities("Ana", ("Athletics", 5), ("Library Use", 2))
    await table.ok(table.ana, "spend", {"character": "Ana", "ability": "Athletics", "points": 2})
    before = abilities(table.bot, table.guild, "Ana")
    await delete(table.fake, table.guild, table.ana, "Ana")
    with read_only(table.bot) as conn:
        left = conn.execute(
            "SELECT count(*) FROM abilities AS a LEFT JOIN characters AS c ON c.id = a.character_id"
            " WHERE c.id IS NULL"
        ).fetchone()[0]
    assert left == 0
    assert not any(row for row in guild_state(table.bot, table.guild)[1]), (
        "no abilities left for the guild"
    )
    assert not (await confirmed_undo(table.fake, table.guild, table.gm)).ephemeral
    assert abilities(table.bot, table.guild, "Ana") == before
