"""The reply to a ``/hurt`` (COMMANDS.md "Changes"): for one character, its compact embed with
a damage field (the dice, then the reason); for a blow to several, one embed whose title says
once what they share (the amount, the reason) and a line each with its own dice."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.i18n.catalogs import Language, text
from bot.render.change import change_embeds
from bot.render.common import safe
from bot.render.rolls import damage_roll_text, expression_text
from bot.render.several import Line, several_embeds
from bot.render.visibility import EVERYONE, Viewer, hidden_from
from bot.storage.models import StoredCharacter
from rules.dice import DamageRoll, DiceExpression, FixedAmount
from rules.outcome import Outcome

__all__ = ["Hit", "hurt_embeds"]

#: One target of the blow: as saved, the rules' outcome, its damage roll.
Hit = tuple[StoredCharacter, Outcome, DamageRoll]


def hurt_embeds(
    hits: Sequence[Hit],
    expression: DiceExpression | FixedAmount,
    reason: str | None,
    language: Language,
    viewer: Viewer = EVERYONE,
) -> list[discord.Embed]:
    """The embeds of the reply (``reason`` as cleaned, shown as typed, sanitised here), for
    ``viewer``: a target whose numbers they may not see is said in words, and a blow that
    hits one says its amount to nobody (the dice rolled against it are its numbers)."""
    if len(hits) == 1:
        saved, outcome, roll = hits[0]
        damage = damage_roll_text(roll, language, expression)
        if reason:
            damage += "\n" + text(language, "health.hurt.reason", reason=safe(reason))
        field = (text(language, "health.hurt.damage_field"), damage)
        said = [text(language, "health.hurt.reason", reason=safe(reason))] if reason else []
        return change_embeds(
            saved, outcome, language, extra_fields=[field], viewer=viewer, words=said
        )
    lines = [_hit_line(saved, outcome, roll, language) for saved, outcome, roll in hits]
    amount = None if hidden_from([saved for saved, _, _ in hits], viewer) else expression
    return several_embeds(_several_title(amount, reason, language), lines, language, viewer=viewer)


def _several_title(
    expression: DiceExpression | FixedAmount | None, reason: str | None, language: Language
) -> str:
    """What the targets of one blow share, said once: ``Daño 2d6+1 · explosión`` (``Daño ·
    explosión`` when the amount is not to be said)."""
    if expression is None:
        title = text(language, "numbers.hurt.several_title")
    else:
        title = text(language, "health.hurt.several_title", amount=expression_text(expression))
    return f"{title} · {safe(reason)}" if reason else title


def _hit_line(
    saved: StoredCharacter, outcome: Outcome, roll: DamageRoll, language: Language
) -> Line:
    """One target's line: its own dice, when the amount was rolled (a fixed amount is said
    once, in the title). A fresh wound leaves no Seriously wounded character stabilized
    (D4): its state says that it bleeds."""
    detail = damage_roll_text(roll, language) if roll.dice else None
    return Line(
        saved, outcome, detail, text(language, "health.hurt.damage_field"), bleeding_implied=True
    )
