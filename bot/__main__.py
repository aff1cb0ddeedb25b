"""``python -m bot`` and the ``salud`` script: check settings, open storage, run the bot.

Exit codes: 0 after a clean stop (SIGINT/SIGTERM), 2 when a setting is wrong (the message
says what to put in ``.env``; also when Discord refuses the shards of SHARD_COUNT/SHARD_IDS),
1 when Discord refuses the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

import discord
from dotenv import load_dotenv

from bot.settings import Settings, SettingsError, load_settings

__all__ = ["main", "run"]

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_LOGIN_FAILED = 1
EXIT_BAD_SETTINGS = 2
#: Gateway close codes that mean SHARD_COUNT / SHARD_IDS do not fit the bot's servers.
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011


async def run(settings: Settings) -> int:
    """Run until Discord closes the connection or a stop signal arrives."""
    # Imported here so that a settings error is reported before the heavier imports run.
    from bot.app import SaludBot
    from bot.rng import production_roller
    from bot.storage import Storage

    async with await Storage.open(settings.database_path) as storage:
        bot = SaludBot(storage=storage, settings=settings, roller=production_roller())
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError):  # Windows has no add_signal_handler
                loop.add_signal_handler(signum, stop.set)
        async with bot:
            runner = asyncio.create_task(bot.start(settings.token), name="salud-bot")
            stopper = asyncio.create_task(stop.wait(), name="salud-stop")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                log.info("Stop signal received, closing")
            else:
                stopper.cancel()
            await bot.close()
            try:
                await runner
            except discord.LoginFailure:
                log.error(
                    "Discord refused the token. Check DISCORD_TOKEN in .env "
                    "(Developer Portal -> your app -> Bot -> Reset Token)."
                )
                return EXIT_LOGIN_FAILED
            except discord.ConnectionClosed as error:
                if error.code == CLOSE_SHARDING_REQUIRED:
                    log.error(
                        "Discord refused the connection: a shard would carry more than 2,500 "
                        "servers. Remove SHARD_COUNT and SHARD_IDS from .env (Discord then "
                        "picks the count) or raise SHARD_COUNT."
                    )
                    return EXIT_BAD_SETTINGS
                if error.code == CLOSE_INVALID_SHARD:
                    log.error(
                        "Discord refused the shard numbers. Check SHARD_COUNT and SHARD_IDS "
                        "in .env (each SHARD_IDS number below SHARD_COUNT)."
                    )
                    return EXIT_BAD_SETTINGS
                raise
            except asyncio.CancelledError:
                pass
    log.info("Stopped")
    return EXIT_OK


def main() -> int:
    """Entry point: returns the process exit code."""
    load_dotenv(Path.cwd() / ".env", override=False)
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        print(f"salud: {error}", file=sys.stderr)
        return EXIT_BAD_SETTINGS
    discord.utils.setup_logging(level=settings.log_level, root=True)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
