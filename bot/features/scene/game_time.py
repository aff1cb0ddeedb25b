"""``/time`` and ``/refresh``: game time and pools for every character of a server at once
(COMMANDS.md; RULES.md T1, T2, P1).

Each is one transaction with one history entry that touches every character whose stored
values changed; one that changes nothing stores nothing (a ``/time`` with nobody bleeding, a
``/refresh`` of full pools) and is no change for ``/undo``: its reply is one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.reply import ChangeReply
from bot.features.rolls.consciousness import consciousness_view
from bot.features.scene.server_wide import batches, count_among, save_all
from bot.interaction.deferral import defer_change_of
from bot.interaction.here import Here
from bot.interaction.mentions import call_players
from bot.interaction.sending import RollButtons
from bot.render.change_reply import Touched, announce_touched
from bot.render.game_time import (
    Refreshed,
    bleeding_line,
    nobody_bleeding,
    refresh_embeds,
    refresh_unchanged,
    time_embeds,
)
from bot.storage.details import RefreshDetails, TimeDetails
from bot.storage.interface import StorageChange
from bot.storage.models import TURN_EVERY, Among, LightCharacter, StoredCharacter
from bot.storage.roll_messages import number_due_rolls
from rules.abilities import refresh_ability
from rules.pools import refresh, refresh_stability
from rules.time import pass_time

__all__ = ["pass_minutes", "refresh_pools_of"]


async def pass_minutes(here: Here, minutes: int) -> ChangeReply | str:
    """``minutes`` of game time for the table: whoever bleeds loses Health (T1); the reply
    calls the players whose Consciousness roll fell due, with its buttons."""
    # Only those who bleed are read (T1): the dead do not bleed (T2), nor the rest.
    await defer_change_of(here.interaction, await count_among(here, Among.BLEEDING))
    async with here.change() as tx:
        touched: list[Touched] = []
        async for batch in batches(tx, here.table_id, Among.BLEEDING):
            changed = [(c, pass_time(c.health, minutes)) for c in batch]
            touched += await save_all(tx, [(c, o) for c, o in changed if o.changed])
        rolls = await number_due_rolls(
            tx, here.table_id, [(item.after, item.outcome) for item in touched]
        )
        await here.history(TimeDetails(minutes=minutes)).record(tx)
    language = here.public_language
    if not touched:
        return nobody_bleeding(minutes, language)
    lines = [bleeding_line(item, language) for item in touched]
    due = [line.character for line in lines if line.outcome.roll_fell_due]
    shown = {character.id: rolls[character.id] for character in due if character.id in rolls}
    return ChangeReply(
        [line.character for line in lines],
        lambda viewer, language: time_embeds(touched, minutes, language, viewer),
        announce=announce_touched(touched),
        view=consciousness_view(due, language, rolls, named=len(lines) > 1),
        call=call_players(
            [(line.character, line.outcome) for line in lines],
            caller=here.user_id,
            language=language,
        ),
        buttons=RollButtons(shown),
    )


async def refresh_pools_of(here: Here, character: LightCharacter | None) -> ChangeReply | str:
    """P1 for ``character``, or for every living character of the table when None."""
    await defer_change_of(
        here.interaction, 1 if character else await count_among(here, Among.LIVING)
    )
    language = here.public_language

    async def refresh_all(tx: StorageChange) -> list[Refreshed]:
        # Every character that can still use a pool: not the dead.
        lines = []
        async for batch in batches(tx, here.table_id, Among.LIVING, TURN_EVERY):
            lines += await _refresh(tx, batch)
        await here.history(RefreshDetails(character=None)).record(tx)
        return lines

    lines: list[Refreshed] = []
    if character is None:  # prepared before the write lock: no other server is held
        lines = await here.whole_server_change(refresh_all)
    else:
        async with here.change() as tx:
            lines = await _refresh(tx, [await tx.character(character)])
            await here.history(RefreshDetails(character=character.name)).record(tx)
    if not lines:
        return refresh_unchanged(None if character is None else character.name, language)
    return ChangeReply(
        [line.saved for line in lines],
        lambda viewer, language: refresh_embeds(lines, language, viewer),
        announce=False,
    )


async def _refresh(tx: StorageChange, characters: Sequence[StoredCharacter]) -> list[Refreshed]:
    """P1 for these characters: First Aid and every ability pool back to its rating, and
    Stability (M11), each part saved for all of them in one statement; each one whose pools
    moved, with what moved (its line is said in each reader's language)."""
    plans = [
        (
            character,
            refresh(character.health),
            tuple(refresh_ability(ability) for ability in character.abilities),
            refresh_stability(character.stability),  # M11: not the incurably insane
        )
        for character in characters
    ]
    saved: dict[int, StoredCharacter] = {}
    healths = [(plan[0], plan[1].after) for plan in plans if plan[1].changed]
    saved |= {after.id: after for after in await tx.save_healths(healths)}
    for character, _outcome, abilities, _mind in plans:
        if abilities != character.abilities:
            saved[character.id] = await tx.save_abilities(character, abilities)
    minds = [(plan[0], plan[3].after) for plan in plans if plan[3].changed]
    saved |= {after.id: after for after in await tx.save_stabilities(minds)}
    return [
        Refreshed(character, saved[character.id], outcome, abilities, mind)
        for character, outcome, abilities, mind in plans
        if character.id in saved
    ]
