"""``Services``: what the bot's commands and buttons use, built once when the bot starts
(``SaludBot.setup_hook``) and closed when it stops (``SaludBot.close``). Cogs reach them as
``self.bot.services``; commands and buttons reach storage and dice through their
interaction as the gateway built it (``bot.interaction.context.SaludInteraction``). There is
no other way in: no module-level registry, no cast of ``interaction.client``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_rest.announcements import Announcements
from bot.discord_rest.invalid_requests import InvalidRequests
from bot.discord_rest.pacer import RATE, RestPacer
from bot.features.rolls.keeper import RollButtonKeeper
from bot.features.rolls.kinds import ROLL_KINDS
from bot.features.scene.status import tracker_embeds
from bot.features.scene.tracker import LiveTracker
from bot.interaction.tree import report_error
from bot.storage.interface import StorageEngine
from rules.dice import Roller

__all__ = ["Services"]


@dataclass(frozen=True)
class Services:
    """The storage, the dice, the announcement channels (``Announcements``), and the two
    background keepers that follow every change: the roll buttons (``RollButtonKeeper``:
    the Consciousness roll's and the Stability test's)
    and the live trackers (``LiveTracker``), whose requests to Discord share one pace
    (``RestPacer``)."""

    storage: StorageEngine
    dice: Roller
    pacer: RestPacer
    announcements: Announcements
    roll_buttons: RollButtonKeeper
    tracker: LiveTracker

    @classmethod
    def start(
        cls,
        storage: StorageEngine,
        dice: Roller,
        client: discord.Client,
        guild_locale: Callable[[int], str | None],
        *,
        invalid: InvalidRequests | None = None,
        share: float = 1.0,
    ) -> Services:
        """Build the services and let the keepers follow the storage's changes. ``invalid``:
        the count of the bot's invalid requests (discord.py's included); ``share``: the part
        of the bot's shards this process runs, hence of Discord's global limit it may use."""
        pacer = RestPacer(client.http, rate=RATE * min(1.0, max(share, 0.05)), invalid=invalid)
        services = cls(
            storage=storage,
            dice=dice,
            pacer=pacer,
            announcements=Announcements(storage, pacer),
            roll_buttons=RollButtonKeeper(storage, pacer, ROLL_KINDS),
            tracker=LiveTracker(storage, pacer, guild_locale, tracker_embeds),
        )
        pacer.start()
        services.roll_buttons.start()
        services.tracker.start()
        return services

    async def report_error(
        self, interaction: discord.Interaction[Any], error: BaseException
    ) -> None:
        """A button's refusal or failure, answered as a command's is (``report_error``)."""
        await report_error(interaction, error)

    async def close(self) -> None:
        """Stop the keepers and their pacer (the storage is closed by whoever opened it:
        ``bot.__main__``)."""
        await self.roll_buttons.close()
        await self.tracker.close()
        await self.pacer.close()
