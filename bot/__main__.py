"""``python -m bot`` and the ``salud`` script: check settings, open storage, run the bot.

``salud backup PATH`` and ``salud check`` are the database tools of ``bot/config/operate.py``.

Exit codes (COMMANDS.md, Running it), each failure one line on stderr saying what to do:
0 after a clean stop (SIGINT, SIGTERM, SIGHUP); 2 when a setting is wrong (also when Discord refuses
the shards of SHARD_COUNT/SHARD_IDS) or the database cannot be used (the file is left as it
was), also once a newer Salud upgraded the database under this process; 3 when Discord
refuses the token; 4 when Discord cannot be reached.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

import aiohttp
import discord
from dotenv import load_dotenv

from bot.config import operate
from bot.config.settings import Settings, SettingsError, load_settings

__all__ = ["main", "run"]

log = logging.getLogger("bot")

EXIT_OK = 0
EXIT_BAD_SETTINGS = 2
EXIT_LOGIN_FAILED = 3
EXIT_UNREACHABLE = 4
#: Gateway close codes that mean SHARD_COUNT / SHARD_IDS do not fit the bot's servers.
CLOSE_INVALID_SHARD = 4010
CLOSE_SHARDING_REQUIRED = 4011


def say(message: str) -> None:
    """One line on stderr, for a problem the person starting the bot must fix."""
    print(f"salud: {message}", file=sys.stderr, flush=True)


async def run(settings: Settings) -> int:
    """Run until Discord closes the connection or a stop signal arrives."""
    # Imported here so that a settings error is reported before the heavier imports run.
    from bot.app import SaludBot
    from bot.storage import (
        DatabaseOpenFailed,
        DatabaseUnusable,
        MigrationError,
        SchemaMovedOn,
        open_storage,
    )
    from bot.storage.errors import DatabaseUnreachable
    from rules.dice import SystemRoller

    try:
        storage = await open_storage(settings.database_path, settings.database_url)
    except DatabaseUnusable as error:
        say(f"the database {error}.")
        return EXIT_BAD_SETTINGS
    except DatabaseUnreachable as error:
        say(f"{error}. Check DATABASE_URL and that the server runs; try again later.")
        return EXIT_UNREACHABLE
    except (OSError, DatabaseOpenFailed, MigrationError) as error:
        if settings.database_url is not None:
            say(f"cannot use the database: {error}. Check DATABASE_URL.")
            return EXIT_BAD_SETTINGS
        say(
            f"cannot use the database {settings.database_path} ({error}). "
            "Check DATABASE_PATH and the permissions of its folder."
        )
        return EXIT_BAD_SETTINGS
    async with storage:
        bot = SaludBot(storage=storage, settings=settings, roller=SystemRoller())
        stop = asyncio.Event()
        moved_on: list[SchemaMovedOn] = []

        def on_schema_moved_on(error: SchemaMovedOn) -> None:
            # A newer Salud migrated the file: stop as for SIGTERM, and exit 2 so that a
            # supervisor does not start this old code again and again.
            moved_on.append(error)
            bot.stop_taking_commands()
            stop.set()

        storage.on_schema_moved_on(on_schema_moved_on)

        loop = asyncio.get_running_loop()
        stop_signals = _STOP_SIGNALS

        def on_signal() -> None:
            bot.stop_taking_commands()  # at once: what arrives from now on is refused
            stop.set()
            _ignore_further(loop, stop_signals)

        for signum in stop_signals:
            with contextlib.suppress(NotImplementedError):  # Windows has no add_signal_handler
                loop.add_signal_handler(signum, on_signal)
        async with bot:
            runner = asyncio.create_task(bot.start(settings.token), name="salud-bot")
            stopper = asyncio.create_task(stop.wait(), name="salud-stop")
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done and not moved_on:
                log.info("Stop signal received, closing")
            else:
                stopper.cancel()
            await bot.close()
            try:
                await runner
            except discord.LoginFailure:
                say(
                    "Discord refused the token. Check DISCORD_TOKEN in .env "
                    "(Developer Portal -> your app -> Bot -> Reset Token)."
                )
                return EXIT_LOGIN_FAILED
            except discord.ConnectionClosed as error:
                if error.code == CLOSE_SHARDING_REQUIRED:
                    say(
                        "Discord refused the connection: a shard would carry more than 2,500 "
                        "servers. Remove SHARD_COUNT and SHARD_IDS from .env (Discord then "
                        "picks the count) or raise SHARD_COUNT."
                    )
                    return EXIT_BAD_SETTINGS
                if error.code == CLOSE_INVALID_SHARD:
                    say(
                        "Discord refused the shard numbers. Check SHARD_COUNT and SHARD_IDS "
                        "in .env (each SHARD_IDS number below SHARD_COUNT)."
                    )
                    return EXIT_BAD_SETTINGS
                say(f"Discord closed the connection (code {error.code}). Try again later.")
                return EXIT_UNREACHABLE
            except (aiohttp.ClientError, OSError, discord.DiscordServerError) as error:
                say(
                    f"Discord cannot be reached ({type(error).__name__}: {error}). "
                    "Check the network connection and try again."
                )
                return EXIT_UNREACHABLE
            except asyncio.CancelledError:
                pass
    log.info("Stopped")
    if moved_on:
        say(
            f"a newer Salud upgraded the database {settings.database_path} to schema "
            f"{moved_on[0].found} (this version knows {moved_on[0].known}), so this one "
            "stopped. Run the newer version here too."
        )
        return EXIT_BAD_SETTINGS
    return EXIT_OK


#: SIGHUP too: closing the terminal of ``make run`` must not kill commands in flight.
_STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def _ignore_further(loop: asyncio.AbstractEventLoop, signals: tuple[signal.Signals, ...]) -> None:
    """The stop has begun and ends by itself; a second signal must not cut it short.

    Closing the loop would hand SIGTERM back to its default action, so a supervisor that
    signals twice (systemd, docker, a test harness) would kill the process in the middle of
    its last writes, or after them with a non-zero exit code.
    """
    for signum in signals:
        with contextlib.suppress(NotImplementedError, ValueError):
            loop.remove_signal_handler(signum)
            signal.signal(signum, signal.SIG_IGN)


def main() -> int:
    """Entry point: returns the process exit code."""
    if sys.argv[1:2] and sys.argv[1] in operate.COMMANDS:
        return operate.main(sys.argv[1:])
    load_dotenv(Path.cwd() / ".env", override=False)
    try:
        settings = load_settings(os.environ)
    except SettingsError as error:
        say(str(error))
        return EXIT_BAD_SETTINGS
    discord.utils.setup_logging(level=settings.log_level, root=True)
    logging.getLogger("discord.http").setLevel(logging.WARNING)
    if settings.log_level > logging.DEBUG:
        # Their INFO lines speak of static tokens, shard ids and session ids; the bot's own
        # lines say the same in plain words ("Ready as Salud#1234 in 3 servers...").
        for name in ("discord.client", "discord.gateway"):
            logging.getLogger(name).setLevel(logging.WARNING)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
