"""``/character create|show|list|set|rename|move|delete``: a server's characters
(COMMANDS.md).

Thin adapters: parse the options, check who may act, call one feature function
(``bot.features.characters``) and send the reply it returns.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.app import SaludBot, SaludGroupCog, SlashInteraction
from bot.features.characters.correction import correct_character
from bot.features.characters.delete import ask_to_delete
from bot.features.characters.edits import (
    create_character,
    move_character,
    rename_character,
    require_mover,
    show_character,
)
from bot.features.characters.listing import list_message
from bot.features.characters.option import (
    DEFAULT_CHARACTER_OPTION,
    Character,
    NameOption,
    resolve_character,
)
from bot.features.characters.values import (
    GENDER_CHOICES,
    SET_GENDER_CHOICES,
    FirstAid,
    HealthRating,
    MaxFirstAid,
    MaxHealth,
    MaxStability,
    SetHealth,
    SetStability,
    StabilityRating,
    gender_of,
)
from bot.features.numbers import NUMBERS_CHOICES, numbers_of
from bot.features.reply import send_reply
from bot.features.tables.option import TableArg
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_public
from rules.names import clean_name


class CharacterCog(
    SaludGroupCog,
    group_name="character",
    group_description=_("Create, show, list, correct and delete characters", key="cmd.character"),
):
    """The characters of a server."""

    @app_commands.command(
        name="create",
        description=_("Create a character with full pools", key="cmd.character.create"),
    )
    @app_commands.describe(
        name=_("The character's name (1–40 characters)", key="cmd.character.create.name"),
        health=_("Health rating, the maximum (1–99)", key="cmd.character.create.health"),
        first_aid=_("First Aid rating (0–99, default 0)", key="cmd.character.create.first_aid"),
        stability=_(
            "Stability rating (1–99; default: none, the table does not track it)",
            key="cmd.character.create.stability",
        ),
        player=_(
            "The player the character belongs to (a GM's choice; default: you)",
            key="cmd.character.create.player",
        ),
        gender=_("How replies speak of the character", key="cmd.character.create.gender"),
        numbers=_(
            "Who sees the character's numbers (GM only; default: the table's)",
            key="cmd.character.create.numbers",
        ),
    )
    @app_commands.choices(gender=GENDER_CHOICES, numbers=NUMBERS_CHOICES)
    async def create(
        self,
        interaction: SlashInteraction,
        name: NameOption,
        health: HealthRating,
        first_aid: FirstAid = 0,
        stability: StabilityRating | None = None,
        player: discord.Member | discord.User | None = None,
        gender: app_commands.Choice[str] | None = None,
        numbers: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        chosen_gender = gender_of(gender)
        chosen_numbers = numbers_of(numbers)
        if chosen_numbers is not None:
            here.require_gm("numbers.action.set")
        else:
            chosen_numbers = here.table.numbers
        clean = clean_name(name)
        owner_id = here.user_id
        if player is not None and player.id != here.user_id:
            here.require_gm("action.create_for_player")
            if player.bot:
                raise UserFacingError("error.player_is_bot")
            owner_id = player.id
        reply = await create_character(
            here, clean, owner_id, health, first_aid, stability, chosen_gender, chosen_numbers
        )
        await send_reply(here, reply)

    @app_commands.command(
        name="show", description=_("Show a character's status", key="cmd.character.show")
    )
    @app_commands.describe(character=DEFAULT_CHARACTER_OPTION)
    async def show(self, interaction: SlashInteraction, character: Character | None = None) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_character(here, None)
        await show_character(here, target)

    @app_commands.command(
        name="list", description=_("Every character of this server", key="cmd.character.list")
    )
    async def list_all(self, interaction: SlashInteraction) -> None:
        here = await Here.of(interaction)
        embed, view = await list_message(here, 1)
        await send_public(interaction, embeds=[embed], view=view)

    @app_commands.command(
        name="set", description=_("GM: correct a character's values", key="cmd.character.set")
    )
    @app_commands.describe(
        character=_("The character to correct", key="cmd.character.set.character"),
        health=_("Current Health (−99–99)", key="cmd.character.set.health"),
        max_health=_("Health rating, the maximum (1–99)", key="cmd.character.set.max_health"),
        first_aid=_("Current First Aid pool (0–99)", key="cmd.character.set.first_aid"),
        max_first_aid=_("First Aid rating (0–99)", key="cmd.character.set.max_first_aid"),
        conscious=_("Is the character awake? (no: knocked out)", key="cmd.character.set.conscious"),
        gender=_(
            "How replies speak of the character (none: take it back)",
            key="cmd.character.set.gender",
        ),
        stability=_("Current Stability (−99–99)", key="cmd.character.set.stability"),
        max_stability=_(
            "Stability rating (0–99; 0 removes Stability)", key="cmd.character.set.max_stability"
        ),
        mental_illness=_(
            "Does the character suffer a mental illness? (no: cured)",
            key="cmd.character.set.mental_illness",
        ),
        numbers=_(
            "Who sees the character's numbers: everyone, or only their player and the GMs",
            key="cmd.character.set.numbers",
        ),
    )
    @app_commands.choices(gender=SET_GENDER_CHOICES, numbers=NUMBERS_CHOICES)
    async def set_values(
        self,
        interaction: SlashInteraction,
        character: Character,
        health: SetHealth | None = None,
        max_health: MaxHealth | None = None,
        first_aid: FirstAid | None = None,
        max_first_aid: MaxFirstAid | None = None,
        conscious: bool | None = None,
        gender: app_commands.Choice[str] | None = None,
        stability: SetStability | None = None,
        max_stability: MaxStability | None = None,
        mental_illness: bool | None = None,
        numbers: app_commands.Choice[str] | None = None,
    ) -> None:
        here = await Here.of(interaction)
        here.require_gm("action.character_set")
        reply = await correct_character(
            here,
            character,
            health=health,
            max_health=max_health,
            first_aid=first_aid,
            max_first_aid=max_first_aid,
            conscious=conscious,
            gender=gender,
            stability=stability,
            max_stability=max_stability,
            mental_illness=mental_illness,
            numbers=numbers,
        )
        await send_reply(here, reply)

    @app_commands.command(
        name="rename", description=_("Give a character a new name", key="cmd.character.rename")
    )
    @app_commands.describe(
        character=_("The character to rename", key="cmd.character.rename.character"),
        name=_("The new name (1–40 characters)", key="cmd.character.rename.name"),
    )
    async def rename(
        self, interaction: SlashInteraction, character: Character, name: NameOption
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.rename")
        await send_reply(here, await rename_character(here, character, name))

    @app_commands.command(
        name="move",
        description=_(
            "GM: the character plays at another table from now on", key="cmd.character.move"
        ),
    )
    @app_commands.describe(
        character=_("The character", key="cmd.character.move.character"),
        table=_("The table it plays at from now on", key="cmd.character.move.table"),
    )
    async def move(
        self, interaction: SlashInteraction, character: Character, table: TableArg
    ) -> None:
        here = await Here.of(interaction)
        require_mover(here, table)
        await send_reply(here, await move_character(here, character, table))

    @private_reply
    @app_commands.command(
        name="delete",
        description=_("Delete a character (asks to confirm)", key="cmd.character.delete"),
    )
    @app_commands.describe(
        character=_("The character to delete", key="cmd.character.delete.character")
    )
    async def delete(self, interaction: SlashInteraction, character: Character) -> None:
        """Asks privately, in the user's language; the press that confirms deletes and says
        so publicly (``DeleteButton``)."""
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.delete")
        await ask_to_delete(here, character.id, character.name)


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(CharacterCog(bot))
