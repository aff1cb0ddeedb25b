"""``/character create|show|list|set|delete``: a server's characters (COMMANDS.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.features.characters.delete import delete_view
from bot.features.characters.listing import list_message
from bot.features.characters.names import refuse_taken_name
from bot.features.characters.option import Character, resolve_character
from bot.features.numbers import (
    NUMBERS_CHOICES,
    numbers_of,
    numbers_view,
    send_numbers,
    send_screened,
    viewer_of,
)
from bot.features.rolls.consciousness import consciousness_view
from bot.features.tables import TableArg, table_name
from bot.i18n import Language, text
from bot.i18n.grammar import gendered
from bot.interaction.deferral import private_reply
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons, send_brief, send_private, send_public
from bot.interaction.transformers import InRange
from bot.render import (
    mention,
    safe,
    status_embed,
)
from bot.render.brief import brief_embed, created_embed
from bot.render.change import Field, announce_worthy, change_embeds, correction_note
from bot.render.stability import stability_announce
from bot.render.visibility import EVERYONE, Viewer, shows_numbers
from bot.storage import Numbers
from bot.storage.details import (
    CharacterCreateDetails,
    CharacterMoveDetails,
    CharacterRenameDetails,
    CharacterSetDetails,
    GenderChoice,
)
from bot.storage.roll_messages import number_due_rolls
from rules.character import MAX_HEALTH_RATING, MAX_POOL_RATING, CharacterHealth, Gender
from rules.correction import (
    MAX_CORRECTED_STABILITY,
    MIN_CORRECTED_STABILITY,
    correct,
    correct_stability,
)
from rules.names import MAX_NAME_LENGTH, clean_name
from rules.stability import MAX_STABILITY_RATING, CharacterStability, StabilityOutcome

if TYPE_CHECKING:
    from bot.app import SaludBot


#: ``/character set health`` range (a correction may set any Health a character can have).
MIN_SET_HEALTH, MAX_SET_HEALTH = -99, 99

# The number options, each range declared once (``InRange``).
HealthRating = app_commands.Transform[int, InRange("health", 1, MAX_HEALTH_RATING)]
SetHealth = app_commands.Transform[int, InRange("health", MIN_SET_HEALTH, MAX_SET_HEALTH)]
MaxHealth = app_commands.Transform[int, InRange("max_health", 1, MAX_HEALTH_RATING)]
FirstAid = app_commands.Transform[int, InRange("first_aid", 0, MAX_POOL_RATING)]
MaxFirstAid = app_commands.Transform[int, InRange("max_first_aid", 0, MAX_POOL_RATING)]
StabilityRating = app_commands.Transform[int, InRange("stability", 1, MAX_STABILITY_RATING)]
SetStability = app_commands.Transform[
    int, InRange("stability", MIN_CORRECTED_STABILITY, MAX_CORRECTED_STABILITY)
]
MaxStability = app_commands.Transform[int, InRange("max_stability", 0, MAX_STABILITY_RATING)]

#: ``gender`` of /character create: how replies speak of the character (COMMANDS.md Grammar).
GENDER_CHOICES = [
    app_commands.Choice(name=_("she/her", key="cmd.gender.feminine"), value="feminine"),
    app_commands.Choice(name=_("he/him", key="cmd.gender.masculine"), value="masculine"),
]
#: ``gender`` of /character set: also ``none``, to take it back.
SET_GENDER_CHOICES = [
    *GENDER_CHOICES,
    app_commands.Choice(name=_("none (they/their)", key="cmd.gender.none"), value="none"),
]


def gender_of(choice: app_commands.Choice[str] | None) -> Gender | None:
    """The stored gender of a ``gender`` choice (``none`` and no choice: None)."""
    if choice is None or choice.value == "none":
        return None
    try:
        return Gender(choice.value)
    except ValueError:
        raise UserFacingError("error.bad_option", value=safe(str(choice.value))) from None


def _gender_choice(gender: Gender | None) -> GenderChoice:
    """The history's record of a ``gender`` given to ``/character set`` (``none``: taken back)."""
    return "none" if gender is None else gender.value


@app_commands.guild_only()
class CharacterCog(
    commands.GroupCog,
    group_name="character",
    group_description=_("Create, show, list, correct and delete characters", key="cmd.character"),
):
    """The characters of a server."""

    def __init__(self, bot: SaludBot) -> None:
        self.bot = bot
        super().__init__()

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
        interaction: discord.Interaction[SaludBot],
        name: app_commands.Range[str, 1, MAX_NAME_LENGTH],
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
        mind = None if stability is None else CharacterStability.new(stability)
        details = CharacterCreateDetails(
            name=clean,
            health=health,
            first_aid=first_aid,
            player_id=None if owner_id == here.user_id else owner_id,
            gender=None if chosen_gender is None else chosen_gender.value,
            stability=stability,
            numbers=None if chosen_numbers is Numbers.SHOWN else chosen_numbers.value,
        )
        async with here.change() as tx:
            await refuse_taken_name(tx, here.table_id, clean)
            created = await tx.create_character(
                here.table_id,
                clean,
                owner_id,
                CharacterHealth.new(health, first_aid),
                gender=chosen_gender,
                stability=mind,
                numbers=chosen_numbers,
            )
            await here.history(details).record(tx)
        language = here.public_language
        said = text(language, "character.created", owner=mention(owner_id))
        await send_brief(
            interaction,
            here,
            created_embed(created, said, language),
            view=numbers_view(here, [created]),
        )
        await send_numbers(interaction, here, [created])

    @app_commands.command(
        name="show", description=_("Show a character's status", key="cmd.character.show")
    )
    @app_commands.describe(
        character=_("The character (default: your only one)", key="cmd.option.character_default")
    )
    async def show(
        self, interaction: discord.Interaction[SaludBot], character: Character | None = None
    ) -> None:
        here = await Here.of(interaction)
        target = character or await resolve_character(here, None)
        async with here.read() as reader:  # what is shown, as stored now
            current = await reader.character(target)
        viewer = viewer_of(here)
        if not shows_numbers(current, EVERYONE) and shows_numbers(current, viewer):
            # Its owner or a GM: in full, for their eyes only.
            await send_private(
                interaction, embeds=[status_embed(current, here.private_language, viewer)]
            )
            return
        await send_public(
            interaction,
            embeds=[status_embed(current, here.public_language)],
            view=numbers_view(here, [current]),
        )

    @app_commands.command(
        name="list", description=_("Every character of this server", key="cmd.character.list")
    )
    async def list_all(self, interaction: discord.Interaction[SaludBot]) -> None:
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
        interaction: discord.Interaction[SaludBot],
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
        new_gender = gender_of(gender)
        new_numbers = numbers_of(numbers)
        given: dict[str, int | bool | str | None] = {
            "health": health,
            "max_health": max_health,
            "first_aid": first_aid,
            "max_first_aid": max_first_aid,
            "conscious": conscious,
            "gender": None if gender is None else gender.value,
            "stability": stability,
            "max_stability": max_stability,
            "mental_illness": mental_illness,
            "numbers": None if new_numbers is None else new_numbers.value,
        }
        stability_given = not (
            stability is None and max_stability is None and mental_illness is None
        )
        if all(value is None for value in given.values()):
            raise UserFacingError("error.set_nothing")
        async with here.change() as tx:
            current = await tx.character(character)
            outcome = correct(
                current.health,
                health=health,
                max_health=max_health,
                first_aid_pool=first_aid,
                first_aid_rating=max_first_aid,
                conscious=conscious,
            )
            mind: StabilityOutcome | None = None
            if stability_given:  # M13: only when a Stability value is given
                mind = correct_stability(
                    current.stability,
                    pool=stability,
                    rating=max_stability,
                    mental_illness=mental_illness,
                )
            mind_changed = mind is not None and mind.changed
            saved = current
            rolls: dict[int, int] = {}
            gender_changed = gender is not None and new_gender != current.gender
            numbers_changed = new_numbers is not None and new_numbers is not current.numbers
            if outcome.changed:
                saved = await tx.save_health(current, outcome.after)
                if outcome.roll_fell_due:
                    rolls = await number_due_rolls(tx, here.table_id, [(saved, outcome)])
            if mind is not None and mind_changed:
                saved = await tx.save_stability(saved, mind.after)
            if gender_changed:
                saved = await tx.set_gender(saved, new_gender)
            if new_numbers is not None and numbers_changed:
                saved = await tx.set_numbers(saved, new_numbers)
            changed = outcome.changed or gender_changed or mind_changed or numbers_changed
            if changed:
                details = CharacterSetDetails(
                    health=health,
                    max_health=max_health,
                    first_aid=first_aid,
                    max_first_aid=max_first_aid,
                    conscious=conscious,
                    gender=None if gender is None else _gender_choice(new_gender),
                    stability=stability,
                    max_stability=max_stability,
                    mental_illness=mental_illness,
                    numbers=None if new_numbers is None else new_numbers.value,
                )
                await here.history(details).record(tx)
        language = here.public_language
        if not changed:
            await send_public(
                interaction, text(language, "character.set.unchanged", name=safe(saved.name))
            )
            return

        def render(viewer: Viewer, language: Language) -> list[discord.Embed]:
            extra: list[Field] = []
            what = text(language, "render.change.what")
            if gender_changed:
                said = text(language, f"render.value.gender.{new_gender or 'none'}")
                extra.append(
                    (
                        what,
                        text(language, "character.set.gender", name=safe(saved.name), gender=said),
                    )
                )
            words: list[str] = []
            if numbers_changed:
                key = f"numbers.set.{saved.numbers.value}"
                words.append(gendered(language, key, saved.gender, name=safe(saved.name)))
                extra.append((what, words[-1]))
            return change_embeds(
                saved,
                outcome,
                language,
                extra_fields=extra,
                note=correction_note(saved, outcome, language),
                stability=mind,
                viewer=viewer,
                words=words,
            )

        await send_screened(
            interaction,
            here,
            [saved],
            render,
            announce=(outcome.changed and announce_worthy(outcome.before, outcome.after))
            or (mind is not None and stability_announce([mind])),
            # G2 may make a Consciousness roll fall due: the reply carries its buttons.
            view=consciousness_view([saved], language, rolls) if outcome.roll_fell_due else None,
            call=call_players([(saved, outcome)], caller=here.user_id, language=language),
            buttons=RollButtons(rolls),
        )

    @app_commands.command(
        name="rename", description=_("Give a character a new name", key="cmd.character.rename")
    )
    @app_commands.describe(
        character=_("The character to rename", key="cmd.character.rename.character"),
        name=_("The new name (1–40 characters)", key="cmd.character.rename.name"),
    )
    async def rename(
        self,
        interaction: discord.Interaction[SaludBot],
        character: Character,
        name: app_commands.Range[str, 1, MAX_NAME_LENGTH],
    ) -> None:
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.rename")
        clean = clean_name(name)
        async with here.change() as tx:
            current = await tx.character(character)
            if current.name == clean:
                raise UserFacingError("error.rename_same", name=safe(current.name))
            await refuse_taken_name(tx, here.table_id, clean, renaming=current.id)
            renamed = await tx.rename_character(current, clean)
            await here.history(CharacterRenameDetails(old=current.name, new=clean)).record(tx)
        language = here.public_language
        said = text(language, "character.renamed", old=safe(current.name), name=safe(renamed.name))
        await send_brief(interaction, here, brief_embed(renamed, description=said, words=said))

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
        self, interaction: discord.Interaction[SaludBot], character: Character, table: TableArg
    ) -> None:
        here = await Here.of(interaction)
        if not (here.is_server_gm or (here.is_gm and here.is_gm_at(table))):
            raise UserFacingError(
                "error.not_gm", action=text(here.private_language, "table.action.move")
            )
        language = here.public_language
        if table.id == here.table_id:
            raise UserFacingError(
                "error.table.same",
                name=safe(character.name),
                table=table_name(here.private_language, table),
            )
        async with here.change() as tx:
            current = await tx.character(character)
            await refuse_taken_name(tx, table.id, current.name, renaming=current.id)
            moved = await tx.tables.move_character(current, table.id)
            await here.history(
                CharacterMoveDetails(
                    name=current.name,
                    from_table=here.table_id,
                    to_table=table.id,
                    from_name=here.table.name,
                    to_name=table.name,
                )
            ).record(tx)
        said = text(
            language,
            "table.moved",
            name=safe(moved.name),
            table=table_name(language, table),
            old=table_name(language, here.table),
        )
        await send_brief(interaction, here, brief_embed(moved, description=said, words=said))

    @private_reply
    @app_commands.command(
        name="delete",
        description=_("Delete a character (asks to confirm)", key="cmd.character.delete"),
    )
    @app_commands.describe(
        character=_("The character to delete", key="cmd.character.delete.character")
    )
    async def delete(
        self, interaction: discord.Interaction[SaludBot], character: Character
    ) -> None:
        """Asks privately, in the user's language; the press that confirms deletes and says
        so publicly (``DeleteButton``)."""
        here = await Here.of(interaction)
        here.require_owner_or_gm(character, "action.delete")
        language = here.private_language
        await send_private(
            interaction,
            text(language, "character.delete.question", name=safe(character.name)),
            view=delete_view(character.id, language),
        )


async def setup(bot: SaludBot) -> None:
    await bot.add_cog(CharacterCog(bot))
