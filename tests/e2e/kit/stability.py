"""Stability as players and GMs drive it (RULES.md M; COMMANDS.md "Stability"), and what its
replies show, read the way a player reads them: the ``Stability`` field (``5 → 1 / 8`` and
the state line), the test's roll (``DIE + SPEND = TOTAL vs DIFFICULTY (4 + 1 + 1)``, checked
against the scripted die), the buttons of a call."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import Language, text
from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.fake_discord.replies import flatten_components
from tests.e2e.kit.replies import field

STABILITY_FIELD = {"en": "Stability", "es": "Estabilidad"}
TEST_FIELD = {"en": "Stability test", "es": "Prueba de Estabilidad"}
COMPOSURE_FIELD = {"en": "Composure test", "es": "Prueba de compostura"}

#: The first line of a Stability field: ``8 / 8``, ``5 → 1 / 8`` or ``-5 / 8 → -7 / 7``, then
#: `` · `` and the state line where the field says both on one line (a change's reply).
STABILITY_LINE = re.compile(
    r"(?:(?P<before>-?\d+)(?: / (?P<rating_before>\d+))? → )?(?P<now>-?\d+) / (?P<rating>\d+)"
    r"(?: · (?P<state>.+))?$"
)
#: A Stability test's roll: ``3 + 1 = 4 vs 6 (4 + 1 + 1)``, the breakdown when raised.
TEST_ROLL = re.compile(
    r"^(\d+) \+ (\d+) = (\d+) vs (\d+)(?: \((\d+)((?: \+ \d+)+)\))?$", re.MULTILINE
)


async def create_stable(
    fake: FakeDiscord,
    guild: FakeGuild,
    member: FakeMember,
    name: str,
    stability: int,
    *,
    health: int = 9,
    player: FakeMember | None = None,
    gender: str | None = None,
) -> Reply:
    """``/character create`` with a Stability rating; asserts it worked."""
    options: dict[str, Any] = {"name": name, "health": health, "stability": stability}
    if player is not None:
        options["player"] = player
    if gender is not None:
        options["gender"] = gender
    reply = await fake.slash(guild, member, "character create", options)
    assert not reply.ephemeral, reply.text
    return reply


async def call_test(
    fake: FakeDiscord,
    guild: FakeGuild,
    gm: FakeMember,
    loss: int,
    *names: str,
    difficulty: int | None = None,
    reason: str | None = None,
) -> Reply:
    """``/stability test`` for ``names``; asserts it was called (public)."""
    options: dict[str, Any] = {"loss": loss, "character": names[0]}
    for index, name in enumerate(names[1:], start=2):
        options[f"character{index}"] = name
    if difficulty is not None:
        options["difficulty"] = difficulty
    if reason is not None:
        options["reason"] = reason
    reply = await fake.slash(guild, gm, "stability test", options)
    assert not reply.ephemeral, reply.text
    return reply


@dataclass(frozen=True)
class StabilityShown:
    """The ``Stability`` field of a reply: before → now / rating, and the state line."""

    before: int
    now: int
    rating: int
    rating_before: int
    state: str


def stability_shown(embed: Mapping[str, Any], lang: str = "en") -> StabilityShown:
    value = field(embed, STABILITY_FIELD[lang])
    first, _, state = value.partition("\n")
    found = STABILITY_LINE.match(first)
    assert found, value
    if found["state"] is not None:
        state = found["state"]
    now, rating = int(found["now"]), int(found["rating"])
    before = now if found["before"] is None else int(found["before"])
    rating_before = rating if found["rating_before"] is None else int(found["rating_before"])
    return StabilityShown(before, now, rating, rating_before, state)


@dataclass(frozen=True)
class StabilityRollShown:
    """A Stability test's roll as the reply shows it."""

    die: int
    spend: int
    total: int
    difficulty: int
    breakdown: tuple[int, ...]
    success: bool
    value: str


def stability_roll_shown(
    embed: Mapping[str, Any],
    lang: str = "en",
    *,
    die: int,
    base: int,
    penalties: Sequence[int] = (),
) -> StabilityRollShown:
    """The Stability test's field, parsed: the die shown is ``die`` (the one scripted), the
    total is die + spend, the Difficulty is the GM's ``base`` plus the ``penalties`` shown in
    the breakdown (``4 + 1 + 1``) and said in words, the outcome agrees with the arithmetic."""
    value = field(embed, TEST_FIELD[lang])
    found = TEST_ROLL.search(value)
    assert found, value
    shown, spend, total, difficulty = (int(found[i]) for i in range(1, 5))
    assert shown == die, f"the bot rolled {die} but shows {shown}: {value}"
    assert total == die + spend, f"arithmetic shown is wrong: {value}"
    raised = [p for p in penalties if p]
    assert difficulty == base + sum(raised), value
    if raised:
        terms = tuple(int(t) for t in found[6].replace("+", " ").split())
        assert int(found[5]) == base and list(terms) == raised, value
    else:
        assert found[5] is None, value
        terms = ()
    success = total >= difficulty
    outcome = value.split("\n")[1]
    said = Language(lang)
    if success:  # then what raised the Difficulty, on the same line (as /check says it)
        assert outcome.split(" · ")[0] == f"**{text(said, 'render.stability.roll.success')}**"
    else:
        assert outcome.startswith(f"**{'Failure' if lang == 'en' else 'Fallo'}**"), value
    return StabilityRollShown(shown, spend, total, difficulty, (base, *terms), success, value)


def stability_buttons(message: Reply | Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The Stability test buttons of a reply or stored message, in order."""
    payload = (message.message or {}) if isinstance(message, Reply) else (message or {})
    return [
        item
        for item in flatten_components(payload.get("components"))
        if str(item.get("custom_id") or "").startswith("salud:stab:")
    ]


def buttons_of(
    message: Reply | Mapping[str, Any] | None, character_id: int
) -> list[dict[str, Any]]:
    """One character's Stability test buttons on a message."""
    prefix = f"salud:stab:{character_id}:"
    return [b for b in stability_buttons(message) if str(b["custom_id"]).startswith(prefix)]


async def wait_test_buttons_disabled(
    fake: FakeDiscord, reply: Reply, character_id: int
) -> dict[str, Any]:
    """Waits until every Stability test button of the character on the reply's message shows
    disabled (the press's own response, or the keeper's sweep)."""
    message_id = reply.message_id
    assert message_id is not None

    def done() -> bool:
        found = buttons_of(fake.message(message_id), character_id)
        return bool(found) and all(item.get("disabled") for item in found)

    await fake.wait_until(done, 5.0, what=f"the test buttons of {message_id} disabled")
    message = fake.message(message_id)
    assert message is not None
    return message


def called(reply: Reply, *members: FakeMember) -> None:
    """The reply's content calls exactly these members, each once, and its
    ``allowed_mentions`` lets it ping them and nobody else (COMMANDS.md "Calling the player")."""
    body = (reply.body or {}).get("data") or {}
    allowed = body["allowed_mentions"]
    assert allowed.get("parse") == [], allowed
    assert sorted(str(user) for user in allowed.get("users", [])) == sorted(m.id for m in members)
    for member in members:
        assert reply.content.count(member.mention) == 1, reply.content


async def press(
    fake: FakeDiscord, guild: FakeGuild, member: FakeMember, message: Reply, custom_id: str
) -> Reply:
    """A press of a Stability test button that rolls: its response disables that character's
    buttons on the message (type 7), and the roll's public reply follows; that reply."""
    pressed = await fake.click(guild, member, message, custom_id)
    assert pressed.type == 7, (pressed.type, pressed.text)
    made = await pressed.answer()
    assert not made.ephemeral, made.text
    return made


def button_id(message: Reply | Mapping[str, Any] | None, label: str) -> str:
    """The custom id of the Stability test button labelled ``label``."""
    for item in stability_buttons(message):
        if item.get("label") == label:
            return str(item["custom_id"])
    labels = [item.get("label") for item in stability_buttons(message)]
    raise AssertionError(f"no button {label!r}: {labels}")
