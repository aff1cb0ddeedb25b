"""``/scene new``: a new scene for every living character of the table (RULES.md S1, S2; M6,
M10 for Stability), in one transaction with one history entry that touches every character
whose stored values changed, prepared before the write lock."""

from __future__ import annotations

from bot.features.reply import ChangeReply, Reply
from bot.features.scene.server_wide import batches, count_among, new_stability_scene, save_all
from bot.interaction.deferral import defer_change_of
from bot.interaction.here import Here
from bot.render.change_reply import Touched
from bot.render.scene_new import new_scene_embeds, new_scene_unchanged
from bot.storage.details import SceneNewDetails
from bot.storage.interface import StorageChange
from bot.storage.models import TURN_EVERY, Among
from rules.scene import start_scene

__all__ = ["new_scene"]


async def new_scene(here: Here) -> Reply:
    """The new scene, and its reply (one sentence when it changed nobody)."""
    await defer_change_of(here.interaction, await count_among(here, Among.LIVING))

    async def start(tx: StorageChange) -> tuple[list[Touched], int]:
        # The dead are left out: a scene no longer concerns them (COMMANDS.md "The dead").
        living = 0
        touched: list[Touched] = []
        async for batch in batches(tx, here.table_id, Among.LIVING, TURN_EVERY):
            living += len(batch)
            changed = [(c, start_scene(c.health)) for c in batch]
            saved = await save_all(tx, [(c, o) for c, o in changed if o.changed])
            # M6, M10: the scene's Stability cap starts again and lucidity ends.
            touched += await new_stability_scene(tx, changed, saved)
        await here.history(SceneNewDetails()).record(tx)
        return touched, living

    # Prepared before the write lock: another server is not held meanwhile (issue 24).
    touched, living = await here.whole_server_change(start)
    language = here.public_language
    if not touched:
        return new_scene_unchanged(living, language)
    # What a new scene resets, said once; Stability's only where a character has it.
    minds = any(item.after is not None and item.after.stability for item in touched)
    return ChangeReply(
        [item.after for item in touched if item.after and item.outcome],
        lambda viewer, language: new_scene_embeds(touched, minds, language, viewer),
        announce=False,
    )
