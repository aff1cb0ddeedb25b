"""The benchmark's floor: a bare discord.py bot that answers every slash command with a fixed embed.

It does nothing else (no storage, no translation), so its latency is what discord.py and the
transport cost; Salud's numbers are compared with it. Run: `DISCORD_TOKEN=... python -m
bench.floor_bot`. It syncs its few commands at every start (the fake Discord does not mind).
"""

from __future__ import annotations

import logging
import os

import discord
from discord import app_commands

log = logging.getLogger("floor_bot")

FIXED_EMBED = discord.Embed(title="Floor", description="A fixed answer.", colour=0x2ECC71)
FIXED_EMBED.add_field(name="Health", value="9 / 9", inline=True)


class FloorBot(discord.Client):
    """A client with a command tree; commands answer at once."""

    def __init__(self) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the usual minimum of a slash-command bot
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none())
        self.tree = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        """Registers and syncs the commands before connecting to the gateway."""
        add_commands(self.tree)
        await self.tree.sync()
        log.info("floor bot synced its commands")

    async def on_ready(self) -> None:
        """Says so in the log (the test harness reads it)."""
        log.info("floor bot ready in %d guild(s)", len(self.guilds))


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


def add_salud_shaped_commands(tree: app_commands.CommandTree[FloorBot]) -> None:
    """/hurt, /conscious, /firstaid and /character show with Salud's names and options.

    The benchmark sends both bots the same interactions; these answer at once with the
    fixed embed, so the difference is what Salud's storage, rules and rendering cost.
    """

    @tree.command(name="hurt", description="Answers with a fixed embed")
    async def hurt(
        interaction: discord.Interaction, character: str, amount: str, reason: str | None = None
    ) -> None:
        await interaction.response.send_message(embed=FIXED_EMBED)

    @tree.command(name="conscious", description="Answers with a fixed embed")
    async def conscious(
        interaction: discord.Interaction, character: str | None = None, spend: int = 0
    ) -> None:
        await interaction.response.send_message(embed=FIXED_EMBED)

    @tree.command(name="firstaid", description="Answers with a fixed embed")
    async def firstaid(
        interaction: discord.Interaction, medic: str, patient: str, points: int
    ) -> None:
        await interaction.response.send_message(embed=FIXED_EMBED)

    character = app_commands.Group(name="character", description="Characters")

    @character.command(name="show", description="Answers with a fixed embed")
    async def character_show(
        interaction: discord.Interaction, character: str | None = None
    ) -> None:
        await interaction.response.send_message(embed=FIXED_EMBED)

    tree.add_command(character)


def main() -> None:
    """Runs the floor bot with DISCORD_TOKEN."""
    logging.basicConfig(
        level=os.environ.get("LOG_LEVEL", "INFO"),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    FloorBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
