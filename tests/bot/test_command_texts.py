"""The English texts of the slash commands are written in the code (``locale_str("…",
key=…)``, what Discord shows by default) and again in ``en/*.po`` (what the help pages and the
catalog checks read): they must say the same, and every text must have its key."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from bot.app import EXTENSIONS, SaludBot
from bot.config.settings import load_settings
from bot.gateway.sync import translated_payloads
from bot.i18n import NAME_LOCATIONS, Language, catalog
from bot.storage import Storage
from rules.dice import SystemRoller


class Recorder(app_commands.Translator):
    """Asked for every text of every command, as ``tree.sync()`` asks: keeps what it saw."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str | None, str]] = []

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location not in NAME_LOCATIONS:
            key = string.extras.get("key")
            self.seen.append((string.message, key if isinstance(key, str) else None, locale.value))
        return None


@pytest_asyncio.fixture
async def recorded(tmp_path: Path) -> AsyncIterator[Recorder]:
    async with await Storage.open(tmp_path / "bot.sqlite3") as storage:
        settings = load_settings(
            {"DISCORD_TOKEN": "abc", "DATABASE_PATH": str(tmp_path / "db.sqlite3")}
        )
        bot = SaludBot(storage=storage, settings=settings, roller=SystemRoller())
        for extension in EXTENSIONS:
            await bot.load_extension(extension)
        recorder = Recorder()
        await bot.tree.set_translator(recorder)
        await translated_payloads(bot.tree)
        yield recorder


@pytest.mark.asyncio
async def test_every_command_text_has_a_key_and_english_says_what_the_code_says(
    recorded: Recorder,
) -> None:
    english = catalog(Language.EN)
    texts = {(message, key) for message, key, _ in recorded.seen}
    assert len(texts) > 50, "the commands' descriptions, options and choices were all asked"
    missing = sorted(message for message, key in texts if key is None)
    assert missing == [], f"texts without a catalog key: {missing}"
    differ = sorted(
        f"{key}: code {message!r} / en.po {english.get(key)!r}"
        for message, key in texts
        if key is not None and english.get(key) != message
    )
    assert differ == [], "\n".join(differ)


@pytest.mark.asyncio
async def test_every_command_key_in_the_catalog_is_used(recorded: Recorder) -> None:
    """A ``cmd.*`` entry of ``en/*.po`` that no command declares would never be shown."""
    used = {key for _, key, _ in recorded.seen if key is not None}
    declared = {key for key in catalog(Language.EN) if key.startswith("cmd.")}
    assert sorted(declared - used) == []
