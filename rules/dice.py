"""Damage amounts: a plain number or a small dice expression, and rolling it (D1, D2).

Randomness comes in as a ``Roller``: ``SystemRoller`` in production, ``ScriptedRoller`` in
tests. The parser bounds its input before any work, like d20's ``TooManyRolls``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from random import SystemRandom
from typing import ClassVar, Protocol

from rules.errors import RuleError

__all__ = [
    "DICE_EXPECTED",
    "MAX_COUNT",
    "MAX_FIXED_AMOUNT",
    "MAX_MODIFIER",
    "MAX_SIDES",
    "MAX_TEXT_LENGTH",
    "MIN_SIDES",
    "DamageRoll",
    "DiceExpression",
    "DiceOutOfRange",
    "DiceSyntaxError",
    "FixedAmount",
    "Roller",
    "ScriptedRoller",
    "SystemRoller",
    "parse_amount",
    "roll_amount",
]

#: Plain amounts: 1..MAX_FIXED_AMOUNT.
MAX_FIXED_AMOUNT = 999
#: Dice per expression: 1..MAX_COUNT.
MAX_COUNT = 20
#: Sides of a die: MIN_SIDES..MAX_SIDES.
MIN_SIDES = 2
MAX_SIDES = 100
#: Modifier: -MAX_MODIFIER..MAX_MODIFIER.
MAX_MODIFIER = 100
#: Longer texts are refused before any parsing (no legal amount comes near it).
MAX_TEXT_LENGTH = 40
#: What a syntax error reports as expected (the same in every language: it is notation).
DICE_EXPECTED = "N, dS, NdS, NdS+K, NdS-K"
#: How many characters of the offending text a syntax error quotes.
_EXCERPT_LENGTH = 20

_AMOUNT = re.compile(
    r"[ \t]*(?:"
    r"(?P<number>[0-9]+)"
    r"|(?P<count>[0-9]*)[dD](?P<sides>[0-9]+)(?:[ \t]*(?P<sign>[+-])[ \t]*(?P<modifier>[0-9]+))?"
    r")[ \t]*",
    re.ASCII,
)


class DiceSyntaxError(RuleError):
    """The text is not an amount (params: text — an excerpt —, expected)."""

    code: ClassVar[str] = "dice_syntax"


class DiceOutOfRange(RuleError):
    """A number of the expression breaks its limit (params: which, min, max).

    ``which`` is "count", "sides", "modifier" or "amount" (a plain number).
    """

    code: ClassVar[str] = "dice_out_of_range"


class Roller(Protocol):
    """Rolls one die: an integer from 1 to ``sides``."""

    def roll(self, sides: int) -> int: ...


class SystemRoller:
    """The production roller, backed by the operating system's randomness."""

    def __init__(self) -> None:
        self._random = SystemRandom()

    def roll(self, sides: int) -> int:
        """1..sides, uniformly."""
        return self._random.randint(1, sides)


class ScriptedRoller:
    """Returns the given values in order (tests); refuses to invent or bend one."""

    def __init__(self, values: Iterable[int]) -> None:
        self._values = list(values)
        self._next = 0

    @property
    def remaining(self) -> int:
        """Values not yet used."""
        return len(self._values) - self._next

    def roll(self, sides: int) -> int:
        """The next scripted value; an error when exhausted or outside 1..sides."""
        if self._next >= len(self._values):
            raise LookupError("ScriptedRoller has no values left")
        value = self._values[self._next]
        if not 1 <= value <= sides:
            raise ValueError(f"scripted value {value} is not a roll of a d{sides}")
        self._next += 1
        return value


@dataclass(frozen=True)
class DiceExpression:
    """``count``d``sides`` + ``modifier`` (modifier may be negative or 0)."""

    count: int
    sides: int
    modifier: int = 0


@dataclass(frozen=True)
class FixedAmount:
    """A plain number of points."""

    value: int


@dataclass(frozen=True)
class DamageRoll:
    """D2: the dice, the modifier, their sum, and what is dealt (at least 1)."""

    dice: tuple[int, ...]
    modifier: int
    raw_total: int
    dealt: int


def _syntax_error(text: str) -> DiceSyntaxError:
    excerpt = text.strip()
    if len(excerpt) > _EXCERPT_LENGTH:
        excerpt = excerpt[: _EXCERPT_LENGTH - 1] + "…"
    return DiceSyntaxError(text=excerpt, expected=DICE_EXPECTED)


def _bounded(which: str, digits: str, minimum: int, maximum: int) -> int:
    # The text is at most MAX_TEXT_LENGTH long, so int() is cheap here.
    value = int(digits)
    if not minimum <= value <= maximum:
        raise DiceOutOfRange(which=which, min=minimum, max=maximum)
    return value


def parse_amount(text: str) -> DiceExpression | FixedAmount:
    """Read ``N`` (1–999), ``dS``, ``NdS``, ``NdS+K`` or ``NdS-K`` in ASCII digits.

    1 ≤ N ≤ 20 dice, 2 ≤ S ≤ 100 sides, |K| ≤ 100; spaces may surround the sign and the
    whole. Anything else raises ``DiceSyntaxError`` or ``DiceOutOfRange``.
    """
    if len(text) > MAX_TEXT_LENGTH:
        raise _syntax_error(text)
    match = _AMOUNT.fullmatch(text)
    if match is None:
        raise _syntax_error(text)
    number = match["number"]
    if number is not None:
        return FixedAmount(_bounded("amount", number, 1, MAX_FIXED_AMOUNT))
    count_text = match["count"]
    count = _bounded("count", count_text, 1, MAX_COUNT) if count_text else 1
    sides = _bounded("sides", match["sides"], MIN_SIDES, MAX_SIDES)
    modifier = 0
    if match["modifier"] is not None:
        signed = match["sign"] + match["modifier"]
        modifier = _bounded("modifier", signed, -MAX_MODIFIER, MAX_MODIFIER)
    return DiceExpression(count=count, sides=sides, modifier=modifier)


def roll_amount(expression: DiceExpression | FixedAmount, roller: Roller) -> DamageRoll:
    """Roll the dice (D1); a total below 1 still deals 1 (D2)."""
    if isinstance(expression, FixedAmount):
        return DamageRoll(dice=(), modifier=0, raw_total=expression.value, dealt=expression.value)
    dice = tuple(roller.roll(expression.sides) for _ in range(expression.count))
    raw_total = sum(dice) + expression.modifier
    return DamageRoll(
        dice=dice, modifier=expression.modifier, raw_total=raw_total, dealt=max(1, raw_total)
    )
