"""``/spend`` and ``/check``: spending an ability's pool, and a test against a difficulty with
the Hurt and Seriously wounded penalties (RULES.md P2, P3, H3, H4; COMMANDS.md "Abilities"),
and being Shaken's (M8): the +1 of a test, the composure test of an investigative spend.

The ability is named as ``/ability`` names it (``bot.features.abilities``); First Aid is spent and
tested from the character's own pool. A spend or a test that changes a pool is one change
with its history entry; a test that spends nothing stores nothing.
"""

from __future__ import annotations

from dataclasses import replace

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludCog, SlashInteraction
from bot.features.abilities import (
    ability_name,
    complete_ability,
    find_ability,
    first_aid_ability,
    is_first_aid,
    refuse_reserved,
    unreserved_ability_name,
)
from bot.features.characters.option import CHARACTER_OPTION, Character, NameOption
from bot.features.numbers import numbers_view, send_numbers, send_screened
from bot.i18n import Language
from bot.interaction.here import Here
from bot.interaction.sending import send_public
from bot.interaction.transformers import InRange
from bot.render import count_text
from bot.render.abilities import ability_sentence, check_embed, first_aid_name, spend_embed
from bot.render.stability import stability_announce
from bot.render.visibility import Viewer
from bot.storage import StoredCharacter
from bot.storage.details import CheckDetails, RollNumbers, SpendDetails
from rules.abilities import (
    MAX_DIFFICULTY,
    MAX_POINTS,
    Ability,
    AbilityRoll,
    make_test,
)
from rules.composure import spend_with_composure
from rules.stability import MAX_STABILITY_SPEND


class AbilityUseCog(SaludCog):
    """Spending from a pool and GUMSHOE tests, by the character's owner or a GM."""

    @app_commands.guild_only()
    @app_commands.command(
        name="spend", description=_("Spend points from an ability's pool", key="cmd.spend")
    )
    @app_commands.describe(
        character=CHARACTER_OPTION,
        ability=_("The ability to spend from", key="cmd.spend.ability"),
        points=_("Points to spend (1–99)", key="cmd.spend.points"),
        strain=_(
            "Shaken, investigative ability: Stability spent on the composure test (0–99)",
            key="cmd.spend.strain",
        ),
    )
    async def spend(
        self,
        interaction: SlashInteraction,
        character: Character,
        ability: NameOption,
        points: app_commands.Transform[int, InRange("points", 1, MAX_POINTS)],
        strain: app_commands.Transform[int, InRange("strain", 0, MAX_STABILITY_SPEND)] = 0,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "abilities.action.spend")
        name = unreserved_ability_name(ability)
        async with here.change() as tx:
            current = await tx.character(character)
            before = find_ability(current, name)
            # M8: a Shaken character's investigative spend first rolls its composure test.
            spent = spend_with_composure(
                current.health,
                before,
                points,
                stability=current.stability,
                strain=strain,
                roller=here.dice,
            )
            after = spent.ability_after
            saved = await tx.set_ability(current, after)
            composure = spent.composure
            if composure is not None:
                saved = await tx.save_stability(saved, spent.stability.after)
            details = SpendDetails(
                ability=after.name,
                points=points,
                composure=None
                if composure is None
                else RollNumbers(
                    composure.die, composure.strain, composure.total, composure.difficulty
                ),
                kept=None if composure is None else composure.kept,
            )
            await here.history(details).record(tx)

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            """In the reader's language: the public one, or the member's own (their numbers)."""
            said = ability_sentence(
                language,
                f"abilities.spend.{after.kind.value}",
                saved,
                after,
                points=count_text(language, "point", points),
                before=before.pool,
            )
            return [spend_embed(saved, said, spent, language, viewer)]

        await send_screened(
            here,
            [saved],
            render,
            announce=stability_announce([spent.stability]),
        )

    @spend.autocomplete("ability")
    async def _spend_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current)

    @app_commands.guild_only()
    @app_commands.command(
        name="check",
        description=_("Test a general ability: 1d6 + spend vs the Difficulty", key="cmd.check"),
    )
    @app_commands.describe(
        character=CHARACTER_OPTION,
        ability=_("The general ability to test", key="cmd.check.ability"),
        difficulty=_(
            "Difficulty, or the Hit Threshold for an attack (0–99; default 4, attack 3)",
            key="cmd.check.difficulty",
        ),
        spend=_("Points of the ability's pool to add to the die (0–99)", key="cmd.check.spend"),
        attack=_("An attack: against the opponent's Hit Threshold", key="cmd.check.attack"),
    )
    async def check(
        self,
        interaction: SlashInteraction,
        character: Character,
        ability: NameOption,
        difficulty: app_commands.Transform[int, InRange("difficulty", 0, MAX_DIFFICULTY)]
        | None = None,
        spend: app_commands.Transform[int, InRange("spend", 0, MAX_POINTS)] = 0,
        attack: bool = False,
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "abilities.action.check")
        name = ability_name(ability)
        first_aid = is_first_aid(name)
        if not first_aid:
            refuse_reserved(name)
        language = here.public_language
        roller = here.dice

        def tested_roll(current: StoredCharacter) -> tuple[Ability, AbilityRoll]:
            """The ability tested (First Aid from the character's own pool) and its test."""
            tested = (
                first_aid_ability(current, language) if first_aid else find_ability(current, name)
            )
            roll = make_test(
                current.health,
                tested,
                difficulty=difficulty,
                spend=spend,
                attack=attack,
                roller=roller,
                stability=current.stability,
            )
            return tested, roll

        if spend == 0:
            # Nothing is spent: nothing is stored, and it is no change (COMMANDS.md).
            async with here.read() as reader:
                current = await reader.character(character)
            tested, roll = tested_roll(current)
            await send_public(
                interaction,
                embeds=[check_embed(current, roll, tested.name, language)],
                view=numbers_view(here, [current]),
            )
            await send_numbers(here, [current])
            return
        async with here.change() as tx:
            current = await tx.character(character)
            tested, roll = tested_roll(current)
            if first_aid:
                health = replace(current.health, first_aid_pool=roll.ability_after.pool)
                saved = await tx.save_health(current, health)
            else:
                saved = await tx.set_ability(current, roll.ability_after)
            details = CheckDetails(
                ability=tested.name,
                roll=RollNumbers(roll.die, roll.spend, roll.total, roll.difficulty),
                success=roll.success,
                attack=attack,
            )
            await here.history(details).record(tx)

        def tested_name(language: Language) -> str:
            """The ability tested, as the reader calls it (First Aid in their language)."""
            return first_aid_name(language) if first_aid else tested.name

        await send_screened(
            here,
            [saved],
            lambda viewer, language: [
                check_embed(saved, roll, tested_name(language), language, viewer)
            ],
            announce=False,
        )

    @check.autocomplete("ability")
    async def _check_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current, testable_only=True)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(AbilityUseCog(bot))
