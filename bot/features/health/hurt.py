"""``/hurt``: the damage each target of one blow rolls, the wounds saved with their history
entry and the reply that calls the players whose Consciousness roll fell due (with its
buttons). Its cog parses the targets (``cogs/health.py``) and checks who may hurt them."""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.reply import ChangeReply
from bot.features.rolls.consciousness import consciousness_view
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons
from bot.interaction.transformers import clean_reason
from bot.render.change import should_announce
from bot.render.common import safe
from bot.render.hurt import hurt_embeds
from bot.storage.details import HurtDetails, HurtTarget
from bot.storage.models import LightCharacter, StoredCharacter
from bot.storage.roll_messages import number_due_rolls
from rules.damage import apply_damage
from rules.dice import (
    DamageRoll,
    DiceExpression,
    DiceOutOfRange,
    FixedAmount,
    parse_amount,
    roll_amount,
)
from rules.errors import CharacterDead
from rules.outcome import Outcome

__all__ = ["MAX_AMOUNT_LENGTH", "hurt_details", "wound"]

#: ``amount`` as typed: longer texts are refused by the dice parser anyway.
MAX_AMOUNT_LENGTH = 100


def _parse_amount(typed: str) -> DiceExpression | FixedAmount:
    """``rules.dice.parse_amount``, with an out-of-range limit named in the user's words."""
    try:
        return parse_amount(typed)
    except DiceOutOfRange as error:
        which = error.params.get("which")
        if which in {"count", "sides", "modifier", "amount"}:
            raise UserFacingError(
                f"error.dice_out_of_range.{which}",
                min=error.params.get("min"),
                max=error.params.get("max"),
            ) from error
        raise


def hurt_details(
    amount: str,
    reason: str | None,
    hits: Sequence[tuple[StoredCharacter, Outcome, DamageRoll]],
) -> HurtDetails:
    """The history details of a ``/hurt``: the amount and, per target, the damage rolled."""
    targets = tuple(
        HurtTarget(dealt=roll.dealt, dice=tuple(roll.dice), name=saved.name)
        for saved, _outcome, roll in hits
    )
    return HurtDetails(amount=amount.strip(), targets=targets, reason=reason or None)


async def wound(
    here: Here, targets: Sequence[LightCharacter], amount: str, reason: str | None
) -> ChangeReply:
    """One blow of ``amount`` (a number or dice, each target rolling its own) on ``targets``
    (whom the user may hurt), for ``reason``: saved, recorded, and its reply."""
    expression = _parse_amount(amount)
    shown_reason = clean_reason(reason)
    rolls = [roll_amount(expression, here.dice) for _ in targets]
    async with here.change() as tx:
        hits = []
        for target, roll in zip(targets, rolls, strict=True):
            current = await tx.character(target)
            try:
                outcome = apply_damage(current.health, roll.dealt)
            except CharacterDead as dead:
                if len(targets) == 1:
                    raise
                # Several targets: say which one stops the blow.
                name = safe(current.name)
                raise UserFacingError("health.error.target_dead", name=name) from dead
            hits.append((await tx.save_health(current, outcome.after), outcome, roll))
        numbers = await number_due_rolls(tx, here.table_id, [(c, o) for c, o, _ in hits])
        await here.history(hurt_details(amount, shown_reason, hits)).record(tx)
    language = here.public_language
    return ChangeReply(
        [saved for saved, _, _ in hits],
        lambda viewer, language: hurt_embeds(hits, expression, shown_reason, language, viewer),
        announce=should_announce([outcome for _, outcome, _ in hits]),
        view=consciousness_view([saved for saved, _, _ in hits], language, numbers),
        call=call_players(
            [(saved, outcome) for saved, outcome, _ in hits],
            caller=here.user_id,
            language=language,
        ),
        buttons=RollButtons(numbers),
    )
