"""Bad input, hundreds of kinds (``corpus.py``): each is answered with an ephemeral error that
says what was wrong, mentions nobody, and changes nothing — the database dump is identical
before and after, and the bot logs no traceback (checked after every test).

Entries for a command the bot does not (yet) register are skipped, with a warning naming them.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import warnings
from collections.abc import Sequence
from typing import Any

import pytest

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Raw, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import create, gm_set
from tests.reliability.corpus import Bad, corpus, wrong_types
from tests.reliability.support import UNEXPECTED, burst, dump, wait_all

BATCH = 25
#: A catalog placeholder the reply forgot to fill (``{max_length}``).
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def synced(fake: FakeDiscord, command: str) -> bool:
    """Whether ``command`` ("character show") is among the commands the bot registered."""
    names = command.split()
    for definition in fake.commands:
        if definition.get("name") != names[0]:
            continue
        level = definition
        for name in names[1:]:
            subs = [o for o in level.get("options") or [] if o.get("type") in (1, 2)]
            found = next((o for o in subs if o.get("name") == name), None)
            if found is None:
                return False
            level = found
        return True
    return False


async def set_up_table(
    fake: FakeDiscord, guild: FakeGuild, other: FakeGuild
) -> dict[str, FakeMember]:
    """The table of ``corpus.py``'s docstring."""
    members = {name: guild.member(name.capitalize()) for name in ("ana", "bea", "cid", "multi")}
    members["gm"] = guild.owner
    members["bot"] = guild.bot_member
    ana, bea, multi = members["ana"], members["bea"], members["multi"]
    await create(fake, guild, ana, "Ana", 9, first_aid=4)
    for member, name in ((bea, "Bea"), (ana, "Dead"), (bea, "Out"), (ana, "Low")):
        await create(fake, guild, member, name, 9)
    await create(fake, guild, multi, "Mia", 9)
    await create(fake, guild, multi, "Max", 9)
    await gm_set(fake, guild, "Dead", health=-12)
    await gm_set(fake, guild, "Out", health=-3, conscious=False)
    await gm_set(fake, guild, "Low", health=-10)
    if synced(fake, "ability set"):
        for options in (
            {"ability": "Library Use", "rating": 2, "kind": "investigative"},
            {"ability": "Athletics", "rating": 2, "pool": 1, "kind": "general"},
        ):
            reply = await fake.slash(
                guild, guild.owner, "ability set", {"character": "Ana", **options}
            )
            assert not reply.ephemeral, reply.text
    await create(fake, other, other.owner, "Zed", 9)
    return members


def resolve(entry: Bad, guild: FakeGuild, members: dict[str, FakeMember]) -> dict[str, Any]:
    """The entry's options with members and roles named by key made real."""
    options = dict(entry.options)
    if "player" in options and not isinstance(options["player"], Raw):
        options["player"] = members[str(options["player"])]
    if options.get("role") == "everyone":
        options["role"] = guild.everyone
    return options


def problems_of(entry: Bad, reply: Reply) -> list[str]:
    """What is wrong with the reply to a bad entry (nothing when it is a proper refusal)."""
    if not reply.is_complete():
        return ["no reply"]
    found = []
    if not reply.ephemeral:
        found.append(f"not ephemeral: {reply.text[:120]!r}")
    if not reply.text.strip():
        found.append("empty reply")
    if UNEXPECTED in reply.text:
        found.append("answered as an unexpected error (an exception nobody handled)")
    if PLACEHOLDER.search(reply.text):
        found.append(f"a placeholder left unfilled: {reply.text[:160]!r}")
    body = reply.body or {}
    if body.get("type") == 4:
        mentions = (body.get("data") or {}).get("allowed_mentions")
        if (
            not isinstance(mentions, dict)
            or mentions.get("parse") != []
            or mentions.get("users")
            or mentions.get("roles")
        ):
            found.append(f"allowed_mentions {mentions!r}")
    return found


async def play(
    fake: FakeDiscord,
    guild: FakeGuild,
    members: dict[str, FakeMember],
    entries: Sequence[Bad],
) -> list[str]:
    """Plays the entries in concurrent batches; returns a line per wrong reply."""
    failures: list[str] = []
    for start in range(0, len(entries), BATCH):
        batch = entries[start : start + BATCH]
        calls = [(members[e.actor], e.command, resolve(e, guild, members)) for e in batch]
        replies = await burst(fake, guild, calls)
        with contextlib.suppress(AssertionError):  # reported per entry below
            await wait_all(fake, replies, timeout=30)
        for entry, reply in zip(batch, replies, strict=True):
            failures += [f"{entry.label()}: {p}" for p in problems_of(entry, reply)]
            if os.environ.get("SALUD_CORPUS_SHOW"):  # to read what players would read
                print(f"{entry.label()}\n    -> {reply.text[:300]!r}")
    return failures


async def test_every_bad_input_is_refused_ephemerally_and_changes_nothing(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild, make_guild: Any
) -> None:
    other = await make_guild()
    members = await set_up_table(fake, guild, other)
    entries = corpus()
    playable = [e for e in entries if synced(fake, e.command)]
    skipped = sorted({e.command for e in entries} - {e.command for e in playable})
    if skipped:
        warnings.warn(
            f"bad-input corpus: {len(entries) - len(playable)} entries skipped, commands not"
            f" registered: {', '.join('/' + c for c in skipped)}",
            stacklevel=1,
        )
    assert len(playable) >= 300, f"only {len(playable)} playable entries"
    odd = wrong_types(fake.commands)
    assert len(odd) >= 100, f"only {len(odd)} wrong-type payloads"
    playable += odd
    violations = len(fake.violations)
    before = dump(bot.database_path)

    await bot.script_dice(*[3] * sum(entry.dice for entry in playable))
    failures = await play(fake, guild, members, playable)

    after = dump(bot.database_path)
    assert not failures, f"{len(failures)} of {len(playable)} entries:\n" + "\n".join(failures)
    assert before == after, "the database changed:\n" + "\n".join(
        list(difflib.unified_diff(before, after, lineterm="", n=0))[:40]
    )
    new = fake.violations[violations:]
    assert not new, [f"{v.where}: {v.message}" for v in new]


@pytest.mark.stress
async def test_stress_the_corpus_three_times_over_from_three_locales(
    fake: FakeDiscord, bot: BotProcess, make_guild: Any
) -> None:
    """The same, in a Spanish server with members of three languages."""
    guild = await make_guild(locale="es-ES")
    other = await make_guild()
    members = await set_up_table(fake, guild, other)
    playable = [e for e in corpus() if synced(fake, e.command)]
    before = dump(bot.database_path)
    failures: list[str] = []
    for locale in ("es-ES", "en-GB", "fr"):
        for member in members.values():
            member.locale = locale
        await bot.script_dice(*[3] * sum(entry.dice for entry in playable))
        failures += await play(fake, guild, members, playable)
    assert not failures, "\n".join(failures[:60])
    assert dump(bot.database_path) == before
