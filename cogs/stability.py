"""``/stability test|roll|treat``: Stability, the mind's pool (RULES.md M; COMMANDS.md
"Stability").

Thin adapters, as ``cogs/health.py``: parse the options, check who may act, call one feature
function and send what it returns. A GM calls a test (``bot.features.stability.call``); each
player rolls their own, with the buttons of the call or with ``/stability roll``
(``bot.features.rolls.stability``); a medic's Psychoanalysis restores Stability or makes a
mentally ill patient lucid for the scene (``bot.features.stability.treat``).
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.characters.option import (
    DEFAULT_CHARACTER_OPTION,
    Character,
    StableCharacter,
    StablePatient,
    resolve_stable,
)
from bot.features.reply import send_reply
from bot.features.rolls.stability import STABILITY_TEST, perform_stability_roll
from bot.features.stability.call import call_tests, send_call
from bot.features.stability.incidents import IncidentLoss
from bot.features.stability.treat import treat
from bot.interaction.here import Here
from bot.interaction.transformers import InRange, Reason, clean_reason
from rules.psychoanalysis import MAX_PSYCHOANALYSIS_POINTS
from rules.stability import (
    DEFAULT_STABILITY_DIFFICULTY,
    MAX_STABILITY_DIFFICULTY,
    MAX_STABILITY_SPEND,
    MIN_STABILITY_DIFFICULTY,
)

__all__ = ["StabilityCog"]

Loss = app_commands.Transform[int, IncidentLoss]
Difficulty = app_commands.Transform[
    int, InRange("difficulty", MIN_STABILITY_DIFFICULTY, MAX_STABILITY_DIFFICULTY)
]
#: The description of /stability test's character2–4: one more character facing the incident.
FACING_TOO = _("Another character facing the same incident", key="cmd.stability.test.more")


class StabilityCog(
    SaludGroupCog,
    group_name="stability",
    group_description=_(
        "Stability: tests the players roll, and Psychoanalysis", key="cmd.stability"
    ),
):
    """Stability tests, their rolls and Psychoanalysis."""

    # --- /stability test --------------------------------------------------------------------

    @app_commands.command(
        name="test",
        description=_(
            "GM: call a Stability test; each player rolls with the buttons",
            key="cmd.stability.test",
        ),
    )
    @app_commands.describe(
        loss=_("The incident's potential loss (1–30)", key="cmd.stability.test.loss"),
        character=_("A character who must test", key="cmd.stability.test.character"),
        character2=FACING_TOO,
        character3=FACING_TOO,
        character4=FACING_TOO,
        difficulty=_(
            "Difficulty (1–10; default 4, 3 if inured, 5 if susceptible)",
            key="cmd.stability.test.difficulty",
        ),
        reason=_("What they face (up to 100 characters)", key="cmd.stability.test.reason"),
    )
    async def test(
        self,
        interaction: SlashInteraction,
        loss: Loss,
        character: StableCharacter,
        character2: StableCharacter | None = None,
        character3: StableCharacter | None = None,
        character4: StableCharacter | None = None,
        difficulty: Difficulty = DEFAULT_STABILITY_DIFFICULTY,
        reason: Reason | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("stability.action.test")
        chosen = (character, character2, character3, character4)
        targets = [target for target in chosen if target is not None]
        shown_reason = clean_reason(reason)
        called = await call_tests(here, targets, loss, difficulty, shown_reason)
        await send_call(here, called)

    # --- /stability roll --------------------------------------------------------------------

    @app_commands.command(
        name="roll",
        description=_(
            "Roll your character's Stability test (the bot rolls)", key="cmd.stability.roll"
        ),
    )
    @app_commands.describe(
        character=DEFAULT_CHARACTER_OPTION,
        spend=_("Stability points to add to the die (default 0)", key="cmd.stability.roll.spend"),
    )
    async def roll(
        self,
        interaction: SlashInteraction,
        character: StableCharacter | None = None,
        spend: app_commands.Transform[int, InRange("spend", 0, MAX_STABILITY_SPEND)] = 0,
    ) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_stable(here)
        here.require_owner_or_gm(target, "stability.action.roll")  # before the storage lock
        saved, made = await perform_stability_roll(here, target.id, spend)
        await STABILITY_TEST.reply(here, saved, made)

    # --- /stability treat -------------------------------------------------------------------

    @app_commands.command(
        name="treat",
        description=_(
            "Psychoanalysis: restore another's Stability, or a lucid scene",
            key="cmd.stability.treat",
        ),
    )
    @app_commands.describe(
        medic=_("The character who spends Psychoanalysis", key="cmd.stability.treat.medic"),
        patient=_("The character treated", key="cmd.stability.treat.patient"),
        points=_("Psychoanalysis points the medic spends (1–99)", key="cmd.stability.treat.points"),
        lucidity=_(
            "A lucid scene for a mentally ill patient (2 points; default: no)",
            key="cmd.stability.treat.lucidity",
        ),
    )
    async def treat(
        self,
        interaction: SlashInteraction,
        medic: Character,
        patient: StablePatient,
        points: app_commands.Transform[int, InRange("points", 1, MAX_PSYCHOANALYSIS_POINTS)],
        lucidity: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(medic, "stability.action.treat")
        treated = await treat(here, medic, patient, points, lucidity=lucidity)
        await send_reply(here, treated)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(StabilityCog(bot))
