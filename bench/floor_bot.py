"""The benchmark's floor: a bare discord.py bot that answers every slash command with a fixed embed.

It does nothing else (no storage, no translation), so its latency is what discord.py and the
transport cost; Salud's numbers are compared with it. Run: `DISCORD_TOKEN=... python -m
bench.floor_bot`. It syncs its few commands at every start (the fake Discord does not mind).

With ``--sqlite PATH`` (the benchmark's "floor + SQLite") every slash command first stores
itself durably, the least a command that changes something must do under the project's rules:
one transaction through one aiosqlite connection opened at start with the bot's pragmas (WAL,
``synchronous=NORMAL``, ``busy_timeout``, ``foreign_keys``; ``isolation_level=None``), under an
``asyncio.Lock``: ``BEGIN IMMEDIATE``, one counter row of the server updated, one history row
inserted (interaction id UNIQUE, a ~600-byte JSON snapshot), ``COMMIT`` — the four statements
in one trip to aiosqlite's thread (``bot.storage.sqlite.pipeline``), fewer than any changing command
of Salud makes (it must read before it writes). The reply is the same fixed embed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
from pathlib import Path

import aiosqlite
import discord
from discord import app_commands

from bot.storage.sqlite.database import connect
from bot.storage.sqlite.pipeline import Pipeline

log = logging.getLogger("floor_bot")

FIXED_EMBED = discord.Embed(title="Floor", description="A fixed answer.", colour=0x2ECC71)
FIXED_EMBED.add_field(name="Health", value="9 / 9", inline=True)


SCHEMA = """
CREATE TABLE IF NOT EXISTS counters (
    guild_id  INTEGER PRIMARY KEY,
    commands  INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER NOT NULL,
    interaction_id  INTEGER NOT NULL UNIQUE,
    details         TEXT    NOT NULL
);
"""

# A counter row per server, created on its first command: after that an UPDATE of one row.
UPDATE_COUNTER = """
INSERT INTO counters (guild_id, commands) VALUES (?, 1)
ON CONFLICT (guild_id) DO UPDATE SET commands = commands + 1
"""
INSERT_HISTORY = "INSERT INTO history (guild_id, interaction_id, details) VALUES (?, ?, ?)"


def snapshot(interaction: discord.Interaction) -> str:
    """A JSON text of about 600 bytes, shaped like one character's snapshot in Salud's history."""
    return json.dumps(
        {
            "interaction": interaction.id,
            "actor": interaction.user.id,
            "command": interaction.data.get("name") if interaction.data else None,
            "character": {
                "id": 1,
                "guild_id": interaction.guild_id,
                "name": "Floor",
                "owner_id": interaction.user.id,
                "health": 9,
                "max_health": 9,
                "first_aid_pool": 99,
                "first_aid_rating": 99,
                "scene_start_health": 9,
                "conscious": True,
                "roll_pending": False,
                "created_at": "2026-01-01T00:00:00+00:00",
                "updated_at": "2026-01-01T00:00:00+00:00",
            },
            "abilities": {
                name: {"value": 50, "max": 99}
                for name in ("First Aid", "Medicine", "Fighting", "Dodge", "Climb", "Swim")
            },
            "reason": "a fixed reason of the benchmark",
        },
        separators=(",", ":"),
    )


class Durable:
    """One aiosqlite connection and the lock that makes its transactions take turns."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path) -> Durable:
        """Opens (creating) the file with Salud's own ``connect`` (its pragmas) and the two
        tables (not Salud's schema: nothing but the statements of one stored command)."""
        conn = await connect(path)
        try:
            await conn.executescript(SCHEMA)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def store(self, interaction: discord.Interaction) -> None:
        """The command's one transaction, in one trip to aiosqlite's thread (``Pipeline``,
        as Salud sends its statements; a ROLLBACK more on failure)."""
        details = snapshot(interaction)
        async with self.lock:
            pipe = Pipeline(self.conn)
            pipe.queue("BEGIN IMMEDIATE")
            pipe.queue(UPDATE_COUNTER, (interaction.guild_id or 0,))
            pipe.queue(INSERT_HISTORY, (interaction.guild_id or 0, interaction.id, details))
            try:
                await pipe.execute("COMMIT")
            except BaseException:
                await self.conn.rollback()
                raise


class FloorTree(app_commands.CommandTree["FloorBot"]):
    """The command tree; with ``durable``, every slash command stores itself before it runs."""

    durable: Durable | None = None

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The tree's global check, run before every command: its one transaction."""
        if (
            self.durable is None
            or interaction.type is not discord.InteractionType.application_command
        ):
            return True
        try:
            await self.durable.store(interaction)
        except Exception:
            log.exception("could not store interaction %s", interaction.id)
            await interaction.response.send_message("Not stored.", ephemeral=True)
            return False
        return True


class FloorBot(discord.Client):
    """A client with a command tree; commands answer at once (after storing themselves, with
    ``sqlite``). It keeps discord.py's defaults, as a typical bot does: ``Intents.default()``
    (messages, typing, reactions… without the privileged ones), the message cache, one
    shard (``ShardedFloorBot`` when Discord requires more)."""

    def __init__(self, sqlite: Path | None = None) -> None:
        super().__init__(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
        )
        self.tree = FloorTree(self)
        self.sqlite = sqlite

    async def setup_hook(self) -> None:
        """Opens the database (with ``sqlite``), registers and syncs the commands before
        connecting to the gateway."""
        if self.sqlite is not None:
            self.tree.durable = await Durable.open(self.sqlite)
            log.info("floor bot stores every slash command in %s", self.sqlite)
        add_commands(self.tree)
        await self.tree.sync()
        log.info("floor bot synced its commands")

    async def on_ready(self) -> None:
        """Says so in the log (the test harness reads it)."""
        log.info("floor bot ready in %d guild(s)", len(self.guilds))

    async def close(self) -> None:
        """Closes the database after the gateway."""
        await super().close()
        durable, self.tree.durable = self.tree.durable, None
        if durable is not None:
            await durable.conn.close()


class ShardedFloorBot(FloorBot, discord.AutoShardedClient):
    """The floor with as many shards as Discord recommends (``--sharded``): what a typical
    bot switches to once Discord refuses one connection for all its servers."""


class PingView(discord.ui.View):
    """One button that edits the message it is on."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Again", custom_id="floor:again", style=discord.ButtonStyle.primary)
    async def again(
        self, interaction: discord.Interaction, button: discord.ui.Button[PingView]
    ) -> None:
        """Answers with an update of the message (callback type 7)."""
        await interaction.response.edit_message(content="pressed", embed=FIXED_EMBED, view=None)


def add_commands(tree: app_commands.CommandTree[FloorBot]) -> None:
    """/ping, /echo (text + autocomplete), /slow group (deferred + followup), /button, and
    the benchmark's Salud-shaped commands."""

    @tree.command(name="ping", description="Answers with a fixed embed")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=FIXED_EMBED)

    @tree.command(name="echo", description="Repeats a text, ephemerally")
    @app_commands.describe(text="What to repeat", times="How many times")
    async def echo(interaction: discord.Interaction, text: str, times: int = 1) -> None:
        await interaction.response.send_message(" ".join([text] * times), ephemeral=True)

    @echo.autocomplete("text")
    async def echo_text(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        words = ["Ana", "Andrés", "Bea"]
        return [
            app_commands.Choice(name=w, value=w)
            for w in words
            if w.lower().startswith(current.lower())
        ]

    slow = app_commands.Group(name="slow", description="Deferred answers")

    @slow.command(name="defer", description="Defers, then fills the answer with a followup")
    @app_commands.describe(member="Someone to mention by name")
    async def slow_defer(
        interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        await interaction.response.defer(ephemeral=True)
        name = member.display_name if member is not None else "nobody"
        await interaction.followup.send(f"done for {name}", embed=FIXED_EMBED)
        await interaction.followup.send("second")

    tree.add_command(slow)

    @tree.command(name="button", description="A message with a button")
    async def button(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("press it", view=PingView())

    add_salud_shaped_commands(tree)

    @tree.command(name="announce", description="Posts in the channel through the REST API")
    async def announce(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("announced", ephemeral=True)
        channel = interaction.channel
        if isinstance(channel, discord.TextChannel):
            await channel.send(embed=FIXED_EMBED)


def _embed(
    title: str,
    fields: list[tuple[str, str, bool]],
    footer: str | None = None,
    colour: int = 0x2ECC71,
) -> discord.Embed:
    embed = discord.Embed(title=title, colour=colour)
    for name, value, inline in fields:
        embed.add_field(name=name, value=value, inline=inline)
    if footer is not None:
        embed.set_footer(text=footer)
    return embed


#: The floor's answer to each of the benchmark's commands, in the shape of Salud's reply to
#: the same request (COMMANDS.md "Changes"; ``tests/tooling/with_bot/test_floor_shapes.py``
#: holds the two side by side): the same embeds, fields (names, inline or not), footer and
#: buttons, texts of about the same length. The floor then pays what Salud's reply costs to
#: build and send, and the ratios compare the same work.
SALUD_SHAPED: dict[str, discord.Embed] = {
    "hurt": _embed(
        "Ana", [("Health", "99 → 95 / 99\n**Healthy**", False), ("Damage", "1d6: [4] = 4", False)]
    ),
    "conscious": _embed(
        "Ana",
        [
            ("Health", "-1 / 99\n**Hurt**", False),
            ("Consciousness roll", "3 + 0 = 3 vs 1\n**Success — stays conscious**", False),
        ],
        colour=0xF1C40F,
    ),
    "firstaid": _embed(
        "Ana",
        [
            ("Health", "50 → 52 / 99\n**Healthy**", False),
            ("First Aid", "**Bea** spends 1 First Aid (99 → 98 / 99): +2 Health.", False),
        ],
    ),
    "character show": _embed(
        "Ana",
        [
            ("Health", "52 / 99", True),
            ("State", "**Healthy**\n*No penalties*", True),
            ("First Aid", "99 / 99", True),
        ],
        footer="Health at the start of the scene: 99 · First Aid received this scene: 2 / 33",
    ),
}


def add_salud_shaped_commands(tree: app_commands.CommandTree[FloorBot]) -> None:
    """/hurt, /conscious, /firstaid and /character show with Salud's names and options.

    The benchmark sends both bots the same interactions; these answer at once with the shape
    of Salud's reply (``SALUD_SHAPED``), so the difference is what Salud's storage, rules and
    rendering cost.
    """

    @tree.command(name="hurt", description="Answers with Salud's shape")
    async def hurt(
        interaction: discord.Interaction, character: str, amount: str, reason: str | None = None
    ) -> None:
        await interaction.response.send_message(embed=SALUD_SHAPED["hurt"])

    @tree.command(name="conscious", description="Answers with Salud's shape")
    async def conscious(
        interaction: discord.Interaction, character: str | None = None, spend: int = 0
    ) -> None:
        await interaction.response.send_message(embed=SALUD_SHAPED["conscious"])

    @tree.command(name="firstaid", description="Answers with Salud's shape")
    async def firstaid(
        interaction: discord.Interaction, medic: str, patient: str, points: int
    ) -> None:
        await interaction.response.send_message(embed=SALUD_SHAPED["firstaid"])

    character = app_commands.Group(name="character", description="Characters")

    @character.command(name="show", description="Answers with Salud's shape")
    async def character_show(
        interaction: discord.Interaction, character: str | None = None
    ) -> None:
        await interaction.response.send_message(embed=SALUD_SHAPED["character show"])

    tree.add_command(character)


def main() -> None:
    """Runs the floor bot with DISCORD_TOKEN (``--sqlite PATH``: storing every command)."""
    parser = argparse.ArgumentParser(prog="python -m bench.floor_bot", description=__doc__)
    parser.add_argument(
        "--sqlite",
        type=Path,
        default=os.environ.get("FLOOR_SQLITE") or None,
        help="store every slash command in this SQLite file first (FLOOR_SQLITE)",
    )
    parser.add_argument(
        "--sharded",
        action="store_true",
        default=bool(os.environ.get("FLOOR_SHARDED")),
        help="AutoShardedClient with Discord's recommended shard count (FLOOR_SHARDED)",
    )
    args = parser.parse_args()
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    bot_class = ShardedFloorBot if args.sharded else FloorBot
    bot_class(args.sqlite).run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
