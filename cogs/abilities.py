"""``/ability set|remove``: the pools other than Health, so that the Hurt and Seriously
wounded penalties bite (RULES.md P1–P3; COMMANDS.md "Abilities").

Every rule decision is taken in ``rules.abilities``; this cog names the ability, checks who may
act, stores the result in one transaction with its history entry, and says it in words.
"""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.abilities import (
    KIND_CHOICES,
    ability_name,
    complete_ability,
    find_ability,
    unreserved_ability_name,
)
from bot.features.characters.option import CHARACTER_OPTION, Character, NameOption
from bot.features.numbers import numbers_view, send_numbers
from bot.interaction.here import Here
from bot.interaction.sending import send_brief
from bot.interaction.transformers import InRange, check_range
from bot.render.abilities import ability_sentence, set_sentence
from bot.render.brief import brief_embed
from bot.storage import StoredCharacter
from bot.storage.details import AbilityRemoveDetails, AbilitySetDetails
from rules.abilities import (
    MAX_POINTS,
    MAX_RATING,
    AbilityKind,
    check_can_add,
    set_ability,
)


class AbilityCog(
    SaludGroupCog,
    group_name="ability",
    group_description=_("GM: add, correct or remove a character's abilities", key="cmd.ability"),
):
    """A character's abilities, as the GM writes them on its sheet."""

    @app_commands.command(
        name="set", description=_("GM: add or correct an ability", key="cmd.ability.set")
    )
    @app_commands.describe(
        character=CHARACTER_OPTION,
        ability=_("The ability's name (1–40 characters)", key="cmd.ability.set.ability"),
        rating=_("Rating, the most the pool holds (0–99)", key="cmd.ability.set.rating"),
        pool=_(
            "Points left in the pool (0–rating; default: full, or kept)",
            key="cmd.ability.set.pool",
        ),
        kind=_("General or investigative (default: as known)", key="cmd.ability.set.kind"),
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def set_ability_command(
        self,
        interaction: SlashInteraction,
        character: Character,
        ability: NameOption,
        rating: app_commands.Transform[int, InRange("rating", 0, MAX_RATING)],
        pool: app_commands.Transform[int, InRange("pool", 0, MAX_POINTS)] | None = None,
        kind: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("abilities.action.set")
        if pool is not None:
            check_range("pool", pool, 0, rating)
        chosen_kind = None if kind is None else AbilityKind(kind.value)
        name = unreserved_ability_name(ability)
        async with here.change() as tx:
            current = await tx.character(character)
            existing = current.ability(name)
            if existing is None:
                check_can_add(len(current.abilities))
            after = set_ability(existing, name, rating, pool, chosen_kind)
            saved = await tx.set_ability(current, after)
            details = AbilitySetDetails(
                ability=after.name, rating=after.rating, pool=after.pool, kind=after.kind.value
            )
            entry = await here.history(details).record(tx)
        said = set_sentence(saved, existing, after, entry is not None, here.public_language)
        await _send_changed(here, saved, said)

    @set_ability_command.autocomplete("ability")
    async def _set_ability_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current)

    @app_commands.command(
        name="remove", description=_("GM: remove an ability", key="cmd.ability.remove")
    )
    @app_commands.describe(
        character=CHARACTER_OPTION,
        ability=_("The ability to remove", key="cmd.ability.remove.ability"),
    )
    async def remove_ability_command(
        self, interaction: SlashInteraction, character: Character, ability: NameOption
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("abilities.action.remove")
        name = ability_name(ability)
        async with here.change() as tx:
            current = await tx.character(character)
            removed = find_ability(current, name)
            saved = await tx.remove_ability(current, removed.name)
            await here.history(AbilityRemoveDetails(ability=removed.name)).record(tx)
        said = ability_sentence(here.public_language, "abilities.remove.done", saved, removed)
        await _send_changed(here, saved, said)

    @remove_ability_command.autocomplete("ability")
    async def _remove_ability_autocomplete(
        self, interaction: SlashInteraction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await complete_ability(interaction, current, own_only=True)


async def _send_changed(here: Here, saved: StoredCharacter, said: str) -> None:
    """The public reply of a changed ability: the character's brief with the sentence that
    says what changed, then the private numbers of a character whose numbers are screened."""
    embed = brief_embed(saved, description=said, language=here.public_language)
    await send_brief(here, embed, view=numbers_view(here, [saved]))
    await send_numbers(here, [saved])


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(AbilityCog(bot))
