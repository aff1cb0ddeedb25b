"""Reading the rolls a reply shows, with their arithmetic checked against the die shown.

The one roll parser of the end-to-end tests: ``DIE + SPEND = TOTAL vs DIFFICULTY`` (a
Consciousness roll, an ability test, with the test's ``(BASE + PENALTY)`` breakdown) and the
damage line of ``/hurt`` (COMMANDS.md, "Roll replies"). The bot rolls the dice the test
scripted (``BotProcess.script_dice``), so each reader also takes the die (or dice) the test
gave and checks that the reply shows that one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import Language, text
from devkit.fake_discord import Reply
from tests.e2e.kit.replies import FAILURE, ROLL_FIELD, SUCCESS, field

#: ``DIE + SPEND = TOTAL vs DIFFICULTY``, with a test's ``(BASE + PENALTY for wounds)`` after
#: it, or ``(BASE + PENALTY for wounds + PENALTY for being Shaken)`` when both raise it (M8).
ROLL = re.compile(
    r"(\d+) \+ (\d+) = (\d+) vs (\d+)"
    r"(?: \((\d+) \+ (\d+)[^+)\d]*(?: \+ (\d+)[^+)\d]*)?\))?"
)
#: A line that is a roll and nothing else (an ability test's field).
ROLL_LINE = re.compile(rf"^{ROLL.pattern}$", re.MULTILINE)
#: ``1d6+1: [4] + 1 = 5``, ``2d6: [3, 5] = 8``, ``1d6-2: [1] - 2 = -1 → 1 (…)``; the
#: expression is said once, in the title, when several targets share it (``[4] + 1 = 5``).
DAMAGE = re.compile(
    r"(?:(?P<expr>\d*[dD]\d+(?:[+-]\d+)?): )?\[(?P<dice>[\d, ]+)\]"
    r"(?: (?P<sign>[+-]) (?P<mod>\d+))? = (?P<raw>-?\d+)(?: → (?P<dealt>\d+))?"
)
#: The outcome line of an ability test, by (attack, success), as the bot words it.
OUTCOME_KEYS = {
    (False, True): "render.roll.test.success",
    (False, False): "render.roll.test.failure",
    (True, True): "render.roll.test.attack_success",
    (True, False): "render.roll.test.attack_failure",
}


@dataclass(frozen=True)
class RollShown:
    """A Consciousness roll as the reply shows it."""

    die: int
    spend: int
    total: int
    difficulty: int
    success: bool


@dataclass(frozen=True)
class DamageShown:
    """A damage roll as the reply shows it."""

    dice: tuple[int, ...]
    modifier: int
    raw: int
    dealt: int


@dataclass
class Roll:
    """An ability test as the reply shows it (``penalty`` the first of the breakdown's
    penalties, ``shaken`` the second when there are two)."""

    die: int
    spend: int
    total: int
    difficulty: int
    base: int | None
    penalty: int | None
    value: str
    shaken: int | None = None


def roll_shown(embed: Mapping[str, Any], lang: str = "en", *, die: int) -> RollShown:
    """The Consciousness roll field, parsed; the die shown is ``die`` (the one scripted), its
    arithmetic and words checked."""
    value = field(embed, ROLL_FIELD[lang])
    found = ROLL.search(value)
    assert found, value
    shown, spend, total, difficulty = (int(group) for group in found.groups()[:4])
    assert found[5] is None, f"a Consciousness roll has no breakdown: {value}"
    assert shown == die, f"the bot rolled {die} but shows {shown}: {value}"
    assert die + spend == total, f"arithmetic shown is wrong: {value}"
    success = total >= difficulty
    assert (SUCCESS[lang] in value) is success, value
    assert (FAILURE[lang] in value) is not success, value
    return RollShown(die, spend, total, difficulty, success)


def damage_shown(text: str, *, dice: Sequence[int]) -> DamageShown:
    """The damage line of a /hurt reply, parsed; the dice shown are ``dice`` (the ones
    scripted), the arithmetic checked (D2: at least 1)."""
    found = DAMAGE.search(text)
    assert found, text
    shown = tuple(int(d) for d in found["dice"].split(","))
    assert shown == tuple(dice), f"the bot rolled {list(dice)} but shows {found[0]}"
    modifier = int(found["mod"] or 0) * (-1 if found["sign"] == "-" else 1)
    raw = int(found["raw"])
    assert sum(shown) + modifier == raw, f"damage arithmetic is wrong: {found[0]}"
    dealt = int(found["dealt"]) if found["dealt"] else raw
    assert dealt == max(1, raw), found[0]
    return DamageShown(shown, modifier, raw, dealt)


def parse_roll(reply: Reply) -> Roll:
    """The test's field: ``DIE + SPEND = TOTAL vs DIFFICULTY`` (with its breakdown)."""
    fields = [
        f for e in reply.embeds for f in e.get("fields") or [] if ROLL_LINE.search(f["value"])
    ]
    assert len(fields) == 1, reply.text
    value = fields[0]["value"]
    match = ROLL_LINE.search(value)
    assert match is not None
    die, spend, total, difficulty = (int(match[i]) for i in range(1, 5))
    base = int(match[5]) if match[5] else None
    penalty = int(match[6]) if match[6] else None
    shaken = int(match[7]) if match[7] else None
    return Roll(die, spend, total, difficulty, base, penalty, value, shaken)


def check_roll(
    reply: Reply,
    *,
    die: int,
    success: bool,
    spend: int,
    difficulty: int,
    pool_after: int,
    rating: int,
    attack: bool = False,
    penalty: int = 0,
    shaken: int = 0,
    language: str = "en",
) -> Roll:
    """The die shown is ``die`` (the one scripted), the arithmetic agrees with it, the outcome
    is ``success`` and its words agree with the arithmetic (P3); ``penalty`` (wounds) and
    ``shaken`` (M8) raise the Difficulty, each shown in the breakdown and in words."""
    assert not reply.ephemeral, reply.content
    roll = parse_roll(reply)
    assert roll.die == die, f"the bot rolled {die} but shows {roll.value}"
    assert roll.spend == spend
    assert roll.total == roll.die + roll.spend
    assert roll.difficulty == difficulty + penalty + shaken
    raised = [value for value in (penalty, shaken) if value]
    if raised:
        shown = [value for value in (roll.penalty, roll.shaken) if value is not None]
        assert roll.base == difficulty and shown == raised, roll.value
    else:
        assert roll.base is None, roll.value
    assert (roll.total >= roll.difficulty) is success, roll.value
    lines = roll.value.split("\n")
    said = Language(language)
    outcome = f"**{text(said, OUTCOME_KEYS[(attack, success)])}**"
    # Each penalty said once, with what it is for, in the breakdown (not again in words).
    if penalty:
        wounds = text(said, "render.roll.breakdown.wounds", penalty=penalty)
        assert wounds in lines[0] and roll.value.count(wounds) == 1, roll.value
    if shaken:
        being = text(said, "render.roll.breakdown.shaken", penalty=shaken)
        assert being in lines[0] and roll.value.count(being) == 1, roll.value
    assert outcome in lines, roll.value
    if spend:
        pool = text(
            said,
            "render.roll.test.pool_spent",
            before=pool_after + spend,
            pool=pool_after,
            rating=rating,
        )
    else:
        pool = text(said, "render.roll.test.pool", pool=pool_after, rating=rating)
    assert lines == [lines[0], outcome, pool], roll.value
    return roll
