"""`python -m devkit.fake_discord [--port N]`: the fake Discord on its own, for bench/.

Prints `FAKE_DISCORD_PORT=<port>` and `SALUD_FAKE_DISCORD_URL=<url>` (one per line, flushed),
then serves until SIGINT/SIGTERM. Start a bot with SALUD_FAKE_DISCORD_URL set and
devkit/sitecustomize on its PYTHONPATH; drive it through the control API:
POST /_fake/guilds {"locale"} -> {"id", "channel_id", "announcements_id", "owner_id"},
POST /_fake/guilds/{id}/members {"name", "permissions", "locale"} -> {"id"},
POST /_fake/slash {"guild_id", "member_id", "command", "options", "locale"} -> the reply,
GET /_fake/state -> connection, sync and violation counters.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from .server import FakeDiscord


async def serve(port: int, app_name: str) -> None:
    """Runs the fake until a stop signal."""
    fake = FakeDiscord(port=port, app_name=app_name)
    await fake.start()
    print(f"FAKE_DISCORD_PORT={fake.port}", flush=True)
    print(f"SALUD_FAKE_DISCORD_URL={fake.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    await fake.stop()


def main() -> None:
    """Parses --port/--name and serves."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 = a free port")
    parser.add_argument("--name", default="Salud", help="the bot application's name")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.name))


if __name__ == "__main__":
    main()
