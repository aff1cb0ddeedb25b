"""The announcement channels the bot lost (migration 0007), on real files: a loss clears the
server's channel and is kept until its GMs were told or set a channel; a loss found after a
GM set another channel changes nothing."""

from __future__ import annotations

from bot.storage import Storage
from bot.storage.lost_channels import (
    LostChannel,
    channel_lost,
    forget_lost_channel,
    lost_channels,
)
from tests.storage.conftest import GUILD_A, GUILD_B

CHANNEL = 333_333_333_333_333_333
OTHER = 444_444_444_444_444_444


async def test_a_lost_channel_is_cleared_and_kept_until_forgotten(storage: Storage) -> None:
    async with storage.transaction(require_record=False) as tx:
        await tx.update_settings(GUILD_A, channel_id=CHANNEL)
        await tx.update_settings(GUILD_B, channel_id=OTHER)
    assert (await storage.settings(GUILD_A)).channel_id == CHANNEL  # in memory now
    async with storage.transaction(require_record=False) as tx:
        assert await channel_lost(tx, LostChannel(GUILD_A, CHANNEL, 403))
    assert (await storage.settings(GUILD_A)).channel_id is None
    assert (await storage.settings(GUILD_B)).channel_id == OTHER
    async with storage.read() as reader:
        assert await lost_channels(reader) == [LostChannel(GUILD_A, CHANNEL, 403)]
    async with storage.transaction(require_record=False) as tx:
        assert await channel_lost(tx, LostChannel(GUILD_A, CHANNEL, 404)) is False  # cleared
        await forget_lost_channel(tx, GUILD_A)
    async with storage.read() as reader:
        assert await lost_channels(reader) == []


async def test_a_loss_found_after_a_gm_chose_another_channel_changes_nothing(
    storage: Storage,
) -> None:
    async with storage.transaction(require_record=False) as tx:
        await tx.update_settings(GUILD_A, channel_id=OTHER)
        assert await channel_lost(tx, LostChannel(GUILD_A, CHANNEL, 403)) is False
    assert (await storage.settings(GUILD_A)).channel_id == OTHER
    async with storage.read() as reader:
        assert await lost_channels(reader) == []


async def test_one_loss_per_server_the_latest(storage: Storage) -> None:
    for channel, status in ((CHANNEL, 403), (OTHER, 404)):
        async with storage.transaction(require_record=False) as tx:
            await tx.update_settings(GUILD_A, channel_id=channel)
            assert await channel_lost(tx, LostChannel(GUILD_A, channel, status))
    async with storage.read() as reader:
        assert await lost_channels(reader) == [LostChannel(GUILD_A, OTHER, 404)]
