"""Dice on show: the damage roll, the Consciousness roll and ability tests.

Every roll prints its arithmetic in digits, ``DIE + SPEND = TOTAL vs DIFFICULTY`` (``vs`` in
Spanish too), and the outcome in words (COMMANDS.md, "Roll replies").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.i18n.catalogs import Language, text
from bot.render.common import safe
from bot.render.limits import FIELD_NAME_LIMIT
from bot.storage.details import RollNumbers, StoredRoll
from rules.dice import DamageRoll, DiceExpression, FixedAmount

if TYPE_CHECKING:
    from rules.abilities import AbilityRoll
    from rules.consciousness import ConsciousnessRoll

__all__ = [
    "ability_roll_field",
    "arithmetic",
    "breakdown",
    "consciousness_roll_field",
    "damage_roll_text",
    "expression_text",
    "roll_text",
]


def arithmetic(die: int, spend: int, total: int, difficulty: int) -> str:
    """``4 + 1 = 5 vs 3``: the fixed format players and tests rely on."""
    return f"{die} + {spend} = {total} vs {difficulty}"


def roll_text(roll: StoredRoll) -> str:
    """A roll a history entry stored, as every roll is said: ``4 + 0 = 4 vs 3``; the text an
    older entry stored that did not read as numbers, as it was."""
    if isinstance(roll, RollNumbers):
        return arithmetic(roll.die, roll.added, roll.total, roll.difficulty)
    return roll


def breakdown(base: int, *penalties: int) -> str:
    """`` (4 + 1 + 1)`` after a raised Difficulty: the GM's and each penalty that raised it
    (wounds, H3; Shaken, M8); ``""`` when nothing did."""
    raised = [penalty for penalty in penalties if penalty]
    if not raised:
        return ""
    return " (" + " + ".join(str(value) for value in (base, *raised)) + ")"


def said_breakdown(base: int, wound: int, shaken: int, language: Language) -> str:
    """`` (4 + 1 por las heridas)`` after a raised Difficulty: the breakdown with what each
    penalty is for, said once (``(4 + 1 for wounds + 1 for being Shaken)``); ``""`` when
    nothing raised it."""
    terms = [str(base)]
    if wound:
        terms.append(text(language, "render.roll.breakdown.wounds", penalty=wound))
    if shaken:
        terms.append(text(language, "render.roll.breakdown.shaken", penalty=shaken))
    return "" if len(terms) == 1 else " (" + " + ".join(terms) + ")"


def _signed(modifier: int) -> str:
    return f"+{modifier}" if modifier > 0 else (str(modifier) if modifier < 0 else "")


def expression_text(expression: DiceExpression | FixedAmount) -> str:
    """The expression as players write it: ``1d6+2``, ``2d6``, ``1d6-1``, or ``5``."""
    if isinstance(expression, FixedAmount):
        return str(expression.value)
    return f"{expression.count}d{expression.sides}{_signed(expression.modifier)}"


def damage_roll_text(
    roll: DamageRoll,
    language: Language,
    expression: DiceExpression | FixedAmount | str | None = None,
) -> str:
    """The damage and how it came about.

    ``1d6+2: [4] + 2 = 6``; ``2d6: [3, 5] = 8``; a clamped total (D2) ends with
    ``→ 1 (a hit always deals at least 1)``; a fixed amount is just the number (``5``).
    ``expression`` (parsed or as text) prefixes the dice; without it the line starts at ``[``.
    """
    if not roll.dice:
        return str(roll.dealt)
    dice = f"[{', '.join(str(die) for die in roll.dice)}]"
    if roll.modifier > 0:
        dice += f" + {roll.modifier}"
    elif roll.modifier < 0:
        dice += f" - {-roll.modifier}"
    line = f"{dice} = {roll.raw_total}"
    if expression is not None:
        written = expression if isinstance(expression, str) else expression_text(expression)
        if written:
            line = f"{written}: {line}"
    if roll.dealt != roll.raw_total:
        line += f" → {roll.dealt} ({text(language, 'render.roll.damage.minimum')})"
    return line


def consciousness_roll_field(roll: ConsciousnessRoll, language: Language) -> tuple[str, str]:
    """(name, value) of the field for a Consciousness roll (C2–C5).

    Value: ``4 + 1 = 5 vs 3`` on the first line, then the outcome in bold: "Success — stays
    conscious" / "Failure — falls unconscious" (Éxito — sigue consciente / Fallo — cae
    inconsciente).
    """
    outcome = "success" if roll.success else "failure"
    value = (
        f"{arithmetic(roll.die, roll.spend, roll.total, roll.difficulty)}\n"
        f"**{text(language, f'render.roll.consciousness.{outcome}')}**"
    )
    return text(language, "render.roll.consciousness.name"), value


def ability_roll_field(roll: AbilityRoll, ability_name: str, language: Language) -> tuple[str, str]:
    """(name, value) of the field for an ability test or attack (P3).

    Name: "Athletics test" / "Prueba de Atletismo"; "Scuffling attack" / "Ataque (Pelea)".
    Value lines, each fact once: ``4 + 1 = 5 vs 4 (3 + 1 for wounds)`` (the breakdown, with
    what each penalty is for, only when wounds or being Shaken add one: ``(4 + 1 for wounds
    + 1 for being Shaken)``); the outcome in bold; the pool, ``BEFORE → POOL / RATING`` when
    the test spent from it.
    """
    line = arithmetic(roll.die, roll.spend, roll.total, roll.difficulty)
    line += said_breakdown(roll.base_difficulty, roll.penalty, roll.shaken_penalty, language)
    outcome_key = ("attack_" if roll.attack else "") + ("success" if roll.success else "failure")
    outcome = f"**{text(language, f'render.roll.test.{outcome_key}')}**"
    after = roll.ability_after
    if roll.spend:
        pool = text(
            language,
            "render.roll.test.pool_spent",
            before=after.pool + roll.spend,
            pool=after.pool,
            rating=after.rating,
        )
    else:
        pool = text(language, "render.roll.test.pool", pool=after.pool, rating=after.rating)
    name_key = "render.roll.test.attack_name" if roll.attack else "render.roll.test.name"
    return text(language, name_key, ability=safe(ability_name))[
        :FIELD_NAME_LIMIT
    ], f"{line}\n{outcome}\n{pool}"
