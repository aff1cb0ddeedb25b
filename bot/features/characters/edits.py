"""``/character create|show|rename|move``: a character made, shown, renamed or moved to
another table; each change in one transaction with its history entry, and its brief reply
(``bot.render.character_edits``)."""

from __future__ import annotations

from bot.features.characters.names import refuse_taken_name
from bot.features.numbers import numbers_view, viewer_of
from bot.features.reply import BriefReply
from bot.i18n import text
from bot.interaction.errors import UserFacingError
from bot.interaction.here import Here
from bot.interaction.sending import send_private, send_public
from bot.render.character_edits import created_reply_embed, moved_embed, renamed_embed
from bot.render.common import safe
from bot.render.status import status_embed
from bot.render.tables import table_name
from bot.render.visibility import EVERYONE, shows_numbers
from bot.storage.details import CharacterCreateDetails, CharacterMoveDetails, CharacterRenameDetails
from bot.storage.models import LightCharacter, NewCharacter, Numbers
from bot.storage.tables import GameTable
from rules.character import CharacterHealth, Gender
from rules.names import clean_name
from rules.stability import CharacterStability

__all__ = [
    "create_character",
    "move_character",
    "rename_character",
    "require_mover",
    "show_character",
]


async def create_character(
    here: Here,
    name: str,
    owner_id: int,
    health: int,
    first_aid: int,
    stability: int | None,
    gender: Gender | None,
    numbers: Numbers,
) -> BriefReply:
    """A new character called ``name`` (cleaned) with full pools, played by ``owner_id``;
    its numbers then sent to its member when the table does not see them."""
    mind = None if stability is None else CharacterStability.new(stability)
    details = CharacterCreateDetails(
        name=name,
        health=health,
        first_aid=first_aid,
        player_id=None if owner_id == here.user_id else owner_id,
        gender=None if gender is None else gender.value,
        stability=stability,
        numbers=None if numbers is Numbers.SHOWN else numbers.value,
    )
    async with here.change() as tx:
        await refuse_taken_name(tx, here.table_id, name)
        created = await tx.create_character(
            NewCharacter(
                here.table_id,
                name,
                owner_id,
                CharacterHealth.new(health, first_aid),
                gender=gender,
                stability=mind,
                numbers=numbers,
            )
        )
        await here.history(details).record(tx)
    embed = created_reply_embed(created, owner_id, here.public_language)
    return BriefReply(embed, numbers_view(here, [created]), numbers=[created])


async def show_character(here: Here, target: LightCharacter) -> None:
    """``target``'s status, as stored now: to its owner or a GM privately and in full when
    the table does not see its numbers, else publicly."""
    async with here.read() as reader:  # what is shown, as stored now
        current = await reader.character(target)
    viewer = viewer_of(here)
    if not shows_numbers(current, EVERYONE) and shows_numbers(current, viewer):
        # Its owner or a GM: in full, for their eyes only.
        await send_private(
            here.interaction, embeds=[status_embed(current, here.private_language, viewer)]
        )
        return
    await send_public(
        here.interaction,
        embeds=[status_embed(current, here.public_language)],
        view=numbers_view(here, [current]),
    )


async def rename_character(here: Here, character: LightCharacter, name: str) -> BriefReply:
    """``character`` called ``name`` from now on (cleaned; not its own name again, nor one
    another character has or looks like)."""
    clean = clean_name(name)
    async with here.change() as tx:
        current = await tx.character(character)
        if current.name == clean:
            raise UserFacingError("error.rename_same", name=safe(current.name))
        await refuse_taken_name(tx, here.table_id, clean, renaming=current.id)
        renamed = await tx.rename_character(current, clean)
        await here.history(CharacterRenameDetails(old=current.name, new=clean)).record(tx)
    return BriefReply(renamed_embed(current.name, renamed, here.public_language))


def require_mover(here: Here, table: GameTable) -> None:
    """Who may move a character: a GM of the server, or a GM of this table and of ``table``."""
    if not (here.is_server_gm or (here.is_gm and here.is_gm_at(table))):
        raise UserFacingError(
            "error.not_gm", action=text(here.private_language, "table.action.move")
        )


async def move_character(here: Here, character: LightCharacter, table: GameTable) -> BriefReply:
    """``character`` plays at ``table`` from now on (not the table it is at; its name not
    taken there)."""
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
    shown, old = table_name(language, table), table_name(language, here.table)
    return BriefReply(moved_embed(moved, shown, old, language))
