"""/history and /undo end to end (COMMANDS.md): every kind of change is reverted exactly."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import (
    announcing_gm,
    assert_refused,
    correct,
    create,
    delete,
    fits_discord,
    gm_of,
    gm_with,
    history_count,
    rows,
    shown_back,
)
from tests.e2e.kit import undo as confirmed_undo

Step = Callable[[FakeDiscord, FakeGuild, FakeMember], Awaitable[Any]]


async def _party(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember) -> None:
    """Ana (9 Health, First Aid 2, two abilities) hurt to 2 during the scene; Bea, a medic."""
    await create(fake, guild, gm, "Ana", 9, first_aid=2)
    await create(fake, guild, gm, "Bea", 8, first_aid=4)
    await _ok(fake.slash(guild, gm, "scene new"))
    for ability, rating, kind in (("Athletics", 6, "general"), ("Library Use", 3, "investigative")):
        reply = await fake.slash(
            guild,
            gm,
            "ability set",
            {"character": "Ana", "ability": ability, "rating": rating, "kind": kind},
        )
        assert not reply.ephemeral, reply.content
    await correct(fake, guild, gm, "Ana", health=2)


async def _ok(reply: Awaitable[Reply]) -> Reply:
    done = await reply
    assert not done.ephemeral, done.text
    return done


def _set(**values: Any) -> Step:
    async def step(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember) -> None:
        await correct(fake, guild, gm, "Ana", **values)

    return step


def _slash(command: str, **options: Any) -> Step:
    async def step(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember) -> Reply:
        return await _ok(fake.slash(guild, gm, command, options))

    return step


async def _delete(fake: FakeDiscord, guild: FakeGuild, gm: FakeMember) -> None:
    await delete(fake, guild, gm, "Ana")


def health_move(now: tuple[int, int], back: tuple[int, int]) -> str:
    """How a change's Health field says ``now`` → ``back`` (Health, maximum)."""
    if now[1] != back[1]:
        return f"{now[0]} / {now[1]} → {back[0]} / {back[1]}"
    if now[0] != back[0]:
        return f"{now[0]} → {back[0]} / {back[1]}"
    return f"{back[0]} / {back[1]}"


#: (what /history says of the change, in words; preparation (not undone); the change)
CASES: dict[str, tuple[str, Step | None, Step]] = {
    "create": (
        "Carl joins the game (Health 5)",
        None,
        _slash("character create", name="Carl", health=5),
    ),
    "set": (
        "GM's correction of Ana (First Aid 0): 2/9 → -7/10",
        None,
        _set(health=-7, first_aid=0, max_health=10),
    ),
    "delete": ("Ana's sheet is deleted", None, _delete),
    "hurt": ("Ana takes 5 damage: 2 → -3", None, _slash("hurt", character="Ana", amount="5")),
    "conscious": (
        "Ana's Consciousness roll, 2 + 1 = 3 vs 3: passed; Health -3 → -4",
        _set(health=-3),
        _slash("conscious", character="Ana", spend=1),
    ),
    "firstaid": (
        "Bea gives Ana First Aid (1 point): 2 → 4",
        None,
        _slash("firstaid", medic="Bea", patient="Ana", points=1),
    ),
    "stabilize": (
        "Bea stabilizes Ana's wounds (2 points)",
        _set(health=-7),
        _slash("firstaid", medic="Bea", patient="Ana", points=2),
    ),
    "rest": ("Ana rests (1 day)", None, _slash("rest", character="Ana", days=1)),
    "hospital": (
        "Ana in hospital (2 days)",
        _set(health=-8),
        _slash("rest", character="Ana", days=2, hospital=True),
    ),
    "scene": ("New scene", None, _slash("scene new")),
    "time": ("Game time moves on 45 min: Ana -7 → -8", _set(health=-7), _slash("time", minutes=45)),
    "time clock only": ("Game time moves on 20 min", _set(health=-7), _slash("time", minutes=20)),
    "refresh": ("Pools refreshed", _set(first_aid=0), _slash("refresh")),
    "ability set": (
        "Ana's Athletics: rating 8",
        None,
        _slash("ability set", character="Ana", ability="Athletics", rating=8, pool=1),
    ),
    "ability remove": (
        "Library Use removed from Ana",
        None,
        _slash("ability remove", character="Ana", ability="Library Use"),
    ),
    "spend": (
        "Ana spends 2 points of Athletics",
        None,
        _slash("spend", character="Ana", ability="Athletics", points=2),
    ),
    "check": (
        "Ana's Athletics test, 5 + 1 = 6 vs 4: passed",
        None,
        _slash("check", character="Ana", ability="Athletics", spend=1),
    ),
}


#: The dice the bot rolls in a case's change (scripted; the others roll none).
DICE: dict[str, tuple[int, ...]] = {"conscious": (2,), "check": (5,)}


@pytest.mark.parametrize("case", list(CASES))
async def test_undo_reverts_each_kind_of_change_exactly(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, case: str
) -> None:
    command, prepare, change = CASES[case]
    gm = gm_of(guild)
    await _party(fake, guild, gm)
    if prepare is not None:
        await prepare(fake, guild, gm)
    before = rows(bot, guild)
    entries = history_count(bot, guild)

    if case in DICE:
        await bot.script_dice(*DICE[case])
    await change(fake, guild, gm)
    changed = rows(bot, guild)
    assert changed != before, f"{case}: the change changed nothing"
    assert history_count(bot, guild) == entries + 1, f"{case}: one history entry"

    undo = await confirmed_undo(fake, guild, gm)

    assert not undo.ephemeral, undo.text
    assert rows(bot, guild) == before, f"{case}: not restored exactly"
    number = entries + 1  # the server's own numbers: its entries so far, and this one
    assert undo.content.startswith(f"↩️ {gm.mention} undid change #{number}, made by"), undo.content
    assert "`" not in undo.content, "no command or option names: words"
    fits_discord(undo)
    touched = [name for name in set(before) | set(changed) if before.get(name) != changed.get(name)]
    for name in touched:
        assert name in undo.text, f"{case}: {name} not mentioned"
    for name in touched:
        if name in before and name in changed:
            now, restored = changed[name], before[name]
            expected = health_move(
                (now["health"], now["max_health"]), (restored["health"], restored["max_health"])
            )
            assert shown_back(undo, name) == expected, undo.text
            # Each Health change once: in the embed, not again in the content.
            assert not re.search(rf"\*\*{name}\*\*: Health -?\d", undo.content), undo.content
    # The undo is an entry too, with the next number, and the reverted one is marked.
    history = await fake.slash(guild, gm, "history")
    lines = history.embed["description"].splitlines()
    assert lines[0].startswith(f"#{number + 1} · ") and f"· Undoes #{number}" in lines[0]
    assert lines[1].startswith(f"~~#{number} · ") and lines[1].endswith("~~ *(undone)*")
    assert f" · {command}" in lines[1], lines[1]


async def test_undo_of_firstaid_restores_both_medic_and_patient(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await _party(fake, guild, gm)
    before = rows(bot, guild)
    await _ok(fake.slash(guild, gm, "firstaid", {"medic": "Bea", "patient": "Ana", "points": 2}))
    changed = rows(bot, guild)
    assert changed["Bea"]["first_aid_pool"] < before["Bea"]["first_aid_pool"]
    assert changed["Ana"]["health"] > before["Ana"]["health"]
    undo = await confirmed_undo(fake, guild, gm)
    assert rows(bot, guild) == before
    assert {embed["title"] for embed in undo.embeds} == {"Ana", "Bea"}


async def test_undo_of_delete_brings_back_the_character_with_its_abilities_and_id(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    await _party(fake, guild, gm)
    before = rows(bot, guild)["Ana"]
    await _delete(fake, guild, gm)
    assert "Ana" not in rows(bot, guild)
    undo = await confirmed_undo(fake, guild, gm)
    assert rows(bot, guild)["Ana"] == before
    assert len(before["abilities"]) == 2
    # It says that Ana returns, not that she is deleted (COMMANDS.md /undo).
    assert undo.content.endswith("\n**Ana** returns to play"), undo.content
    assert "delete" not in undo.content.lower()
    assert undo.embed["title"] == "Ana" and shown_back(undo, "Ana") == "2 / 9"
    shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
    assert "Athletics 6/6" in shown.text


async def test_undo_of_create_removes_the_character(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    undo = await confirmed_undo(fake, guild, gm)
    assert rows(bot, guild) == {}
    assert "**Ana**'s creation is undone" in undo.content
    assert undo.embeds == []


async def test_undo_twice_reverts_two_changes_then_nothing_is_left(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    start = rows(bot, guild)
    await _ok(fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "5"}))
    after_hurt = rows(bot, guild)
    await correct(fake, guild, gm, "Ana", health=-9)

    first = await confirmed_undo(fake, guild, gm)
    assert "undid change #3, made by" in first.content
    assert shown_back(first, "Ana") == "-9 → 4 / 9"
    assert first.text.count("-9") == 1, "each Health change once"
    assert rows(bot, guild) == after_hurt
    second = await confirmed_undo(fake, guild, gm)
    assert "undid change #2, made by" in second.content
    assert rows(bot, guild) == start
    third = await confirmed_undo(fake, guild, gm)
    assert "undid change #1, made by" in third.content
    assert "**Ana**'s creation is undone" in third.content
    assert rows(bot, guild) == {}
    entries = history_count(bot, guild)
    # An undo is not itself undone: nothing is left.
    nothing = await confirmed_undo(fake, guild, gm)
    assert_refused(nothing, "nothing to undo")
    assert history_count(bot, guild) == entries


async def test_undo_with_no_history_and_config_is_never_undone(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    role = guild.role("Keeper")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    assert_refused(await confirmed_undo(fake, guild, gm), "nothing to undo", "/config")
    keeper = guild.member("Keeper", roles=[role])
    await create(fake, guild, keeper, "Ana", 9)
    # The GM role still works (the config was not undone), and may undo.
    undone = await confirmed_undo(fake, guild, keeper)
    assert not undone.ephemeral and rows(bot, guild) == {}


async def test_undo_is_gm_only_and_history_is_for_anyone(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = gm_of(guild)
    owner = guild.member("Ana")
    other = guild.member("Other")
    await create(fake, guild, owner, "Ana", 9)
    await _ok(fake.slash(guild, owner, "hurt", {"character": "Ana", "amount": "3"}))
    before, entries = rows(bot, guild), history_count(bot, guild)
    for member in (owner, other):
        assert_refused(await confirmed_undo(fake, guild, member), "Only a GM", "/undo")
    assert rows(bot, guild) == before and history_count(bot, guild) == entries
    for member in (owner, other, gm):
        for options in ({}, {"character": "Ana"}):
            looked = await fake.slash(guild, member, "history", options)
            assert not looked.ephemeral and "Ana takes 3 damage" in looked.text
    role = guild.role("Keeper")
    await fake.slash(guild, gm, "config gm-role", {"role": role})
    keeper = guild.member("Keeper", roles=[role])
    assert not (await confirmed_undo(fake, guild, keeper)).ephemeral
    assert rows(bot, guild)["Ana"]["health"] == 9


async def test_history_of_the_server_and_of_a_character_shows_10_a_page_newest_first(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await gm_with(fake, guild, "Ana", 9)
    await create(fake, guild, gm, "Bea", 9)
    for health in range(8, -9, -1):  # 17 corrections of Ana
        await correct(fake, guild, gm, "Ana", health=health)
    await correct(fake, guild, gm, "Bea", health=3)
    await confirmed_undo(fake, guild, gm)  # undoes Bea's correction

    server = await fake.slash(guild, guild.member("Player"), "history")
    assert not server.ephemeral
    assert server.embed["title"] == "History of this server"
    lines = server.embed["description"].splitlines()
    assert len(lines) == 10
    numbers = [int(re.match(r"(?:~~)?#(\d+)", line).group(1)) for line in lines]  # type: ignore[union-attr]
    assert numbers == list(range(21, 11, -1)), "the server's own numbers, newest first"
    assert lines[0].endswith(" · Undoes #20: Bea 3 → 9")
    assert lines[1].startswith("~~#20 · ") and lines[1].endswith(
        " · GM's correction of Bea: 9 → 3~~ *(undone)*"
    )
    assert lines[2].endswith(" · GM's correction of Ana: -7 → -8")
    assert [b["label"] for b in server.buttons] == ["◀ Newer", "Older ▶"]
    assert server.buttons[0].get("disabled") and not server.buttons[1].get("disabled")

    ana = await fake.slash(guild, gm, "history", {"character": "Ana"})
    assert ana.embed["title"] == "History of Ana"
    ana_lines = ana.embed["description"].splitlines()
    assert len(ana_lines) == 10 and all("Ana" in line for line in ana_lines)
    assert not any("Bea" in line for line in ana_lines)
    bea = await fake.slash(guild, gm, "history", {"character": "Bea"})
    bea_lines = bea.embed["description"].splitlines()
    assert len(bea_lines) == 3
    assert bea_lines[2].endswith(" · Bea joins the game (Health 9)")
    assert bea.buttons == [], "one page: no buttons"
    fits_discord(server)


async def test_history_empty_unknown_character_and_spanish(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    guild = await make_guild(locale="es-ES")
    member = guild.member("Ana", locale="es-ES")
    empty = await fake.slash(guild, member, "history")
    assert not empty.ephemeral and "Todavía no hay historial" in empty.text
    assert_refused(await fake.slash(guild, member, "history", {"character": "Nadie"}), "Nadie")
    gm = gm_of(guild, locale="es-ES")
    await create(fake, guild, member, "Ana", 9)
    await correct(fake, guild, gm, "Ana", health=1)
    looked = await fake.slash(guild, member, "history", {"character": "Ana"})
    assert looked.embed["title"] == "Historial de Ana"
    undo = await confirmed_undo(fake, guild, gm)
    assert undo.content.startswith(f"↩️ {gm.mention} deshace el cambio #2, que hizo {gm.mention}")
    assert shown_back(undo, "Ana", "es") == "1 → 9 / 9"
    assert undo.text.count("1 → 9") == 1, "each Health change once"
    looked = await fake.slash(guild, member, "history")
    assert "(deshecho)" in looked.text
    assert_refused(await confirmed_undo(fake, guild, member), "Solo un DJ")
    await confirmed_undo(fake, guild, gm)
    assert_refused(await confirmed_undo(fake, guild, gm), "No hay nada que deshacer")


async def test_undo_in_one_server_never_touches_another(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: Any
) -> None:
    other = await make_guild()
    gm_a, gm_b = gm_of(guild), gm_of(other)
    await create(fake, guild, gm_a, "Ana", 9)
    await create(fake, other, gm_b, "Ana", 9)
    await correct(fake, guild, gm_a, "Ana", health=2)
    await correct(fake, other, gm_b, "Ana", health=5)
    await correct(fake, other, gm_b, "Ana", health=4)  # B's latest change, after A's
    b_before = rows(bot, other)
    await confirmed_undo(fake, guild, gm_a)
    assert rows(bot, guild)["Ana"]["health"] == 9
    assert rows(bot, other) == b_before
    history = await fake.slash(other, gm_b, "history")
    assert "(undone)" not in history.embed["description"]
    await confirmed_undo(fake, other, gm_b)
    assert rows(bot, other)["Ana"]["health"] == 5
    assert rows(bot, guild)["Ana"]["health"] == 9


async def test_undo_of_a_death_is_announced(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = await announcing_gm(fake, guild)
    await create(fake, guild, gm, "Ana", 9)
    await _ok(fake.slash(guild, gm, "hurt", {"character": "Ana", "amount": "30"}))
    posted = len(await fake.wait_channel_messages(guild.announcements.id, 1))
    undo = await confirmed_undo(fake, guild, gm)
    assert shown_back(undo, "Ana") == "-21 → 9 / 9"
    assert undo.text.count("-21") == 1, "each Health change once"
    messages = await fake.wait_channel_messages(guild.announcements.id, posted + 1)
    assert "undid" in (messages[-1].get("content") or "")


async def test_history_pages_turn_for_anyone_and_after_a_restart(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    for locale, older, newer in (("es-ES", "Anteriores ▶", "◀ Más recientes"),):
        guild = await make_guild(locale=locale)
        gm = gm_of(guild, locale=locale)
        await create(fake, guild, gm, "Ana", 30)
        for health in range(29, 5, -1):  # 24 corrections: 25 entries, 3 pages
            await correct(fake, guild, gm, "Ana", health=health)
        first = await fake.slash(guild, guild.member("Pepa"), "history")
        assert len(first.embed["description"].splitlines()) == 10
        stranger = guild.member("Otro")
        second = await fake.click(guild, stranger, first, first.button(older)["custom_id"])
        assert second.type == 7, "the same message turns its page"
        page = second.message["embeds"][0]
        lines = page["description"].splitlines()
        assert len(lines) == 10 and "página 2" in page["title"]
        assert lines[0].startswith("#15 · ") and lines[0].endswith(
            " · Corrección del DJ a Ana: 17 → 16"
        )
        for line in lines:
            for internal in ("health:", "amount:", "dealt:", "medic:", "`"):
                assert internal not in line, line
        assert await bot.stop() == 0
        await bot.start()
        last = await fake.click(guild, stranger, second, second.button(older)["custom_id"])
        assert last.type == 7, last.text
        lines = last.message["embeds"][0]["description"].splitlines()
        assert len(lines) == 5 and "Ana entra en juego" in lines[-1]
        assert [b.get("disabled", False) for b in last.buttons] == [False, True]
        assert [b["label"] for b in last.buttons] == [newer, older]
        back = await fake.click(guild, stranger, last, last.button(newer)["custom_id"])
        assert "página 2" in back.message["embeds"][0]["title"]


#: ``option: value`` as the old history showed it (``amount: 1d6+1``, ``medic: Padre Tomás``).
OPTION_SHOWN = re.compile(
    r"\b(?:character|amount|dealt|dice|reason|spend|medic|patient|points|spent|restored|"
    r"stabilized|days|hospital|minutes|roll|success|name|health|first_aid|player|gender)\s*:"
)


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        (
            "en-US",
            [
                "Pools refreshed",
                "Amelia rests (2 days)",
                "Game time moves on 1 h: Padre Tomás -7 → -9",
                "Padre Tomás's Consciousness roll, 5 + 1 = 6 vs 6: passed; Health -6 → -7",
                "Padre Tomás takes 15 damage: 9 → -6",
                "Padre Tomás gives Amelia First Aid (1 point): 0 → 2",
                "Amelia takes 9 damage (1d4+6, garra): 9 → 0",
                "Padre Tomás joins the game (Health 9, First Aid 4)",
                "Amelia joins the game (Health 9)",
            ],
        ),
        (
            "es-ES",
            [
                "Reservas renovadas",
                "Amelia descansa (2 días)",
                "El tiempo de juego avanza 1 h: Padre Tomás -7 → -9",
                "Tirada de Consciencia de Padre Tomás, 5 + 1 = 6 vs 6: éxito; Salud -6 → -7",
                "Padre Tomás recibe 15 de daño: 9 → -6",
                "Padre Tomás da Primeros Auxilios a Amelia (1 punto): 0 → 2",
                "Amelia recibe 9 de daño (1d4+6, garra): 9 → 0",
                "Padre Tomás entra en juego (Salud 9, Primeros Auxilios 4)",
                "Amelia entra en juego (Salud 9)",
            ],
        ),
    ],
)
async def test_history_is_in_words_naming_medic_and_patient(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any, locale: str, said: list[str]
) -> None:
    guild = await make_guild(locale=locale)
    gm = gm_of(guild, locale=locale)
    await create(fake, guild, gm, "Amelia", 9)
    await create(fake, guild, gm, "Padre Tomás", 9, first_aid=4)
    steps: list[tuple[str, dict[str, Any]]] = [
        ("hurt", {"character": "Amelia", "amount": "1d4+6", "reason": "garra"}),
        ("firstaid", {"medic": "Padre Tomás", "patient": "Amelia", "points": 1}),
        ("hurt", {"character": "Padre Tomás", "amount": "15"}),
        ("conscious", {"character": "Padre Tomás", "spend": 1}),
        ("time", {"minutes": 60}),
        ("rest", {"character": "Amelia", "days": 2}),
        ("refresh", {}),
    ]
    await bot.script_dice(3, 5)  # the claw's d4: 9 damage; Padre Tomás's roll: 5 + 1 vs 6
    for command, options in steps:
        done = await fake.slash(guild, gm, command, options)
        assert not done.ephemeral, (command, done.text)
    history = await fake.slash(guild, guild.member("Mirona"), "history")
    lines = history.embed["description"].splitlines()
    assert len(lines) == 9
    for line in lines:
        assert not OPTION_SHOWN.search(line), line
        assert "`" not in line and "/" not in line.replace(" / ", ""), line
        assert "✓" not in line and "✗" not in line, line
    # One line each, numbered by the server; the medic's Health did not move: not listed.
    assert [line.split(" · ", 3)[0] for line in lines] == [f"#{n}" for n in range(9, 0, -1)]
    assert [line.split(" · ", 3)[3] for line in lines[:1] + lines[2:]] == said[:1] + said[2:]
    assert lines[1].split(" · ", 3)[3].startswith(said[1])  # the Health rest gave back
