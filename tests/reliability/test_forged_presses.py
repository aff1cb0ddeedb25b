"""Every press is answered (issue 24, point 2): a button whose custom id does not match its
kind's template — a part empty, not a number, a number too long for Discord or SQLite (20 or 31
digits), a word that is not one of its choices, a part added or left out, a kind that does not
exist — gets the ephemeral sentence of a stale button, in the presser's language, and nothing
is logged as an error.

Discord itself sends only the ids the bot posted; a forged client (or a Discord bug) sends any
text. discord.py drops a press that no button kind's template matches without a word, and a
template of "1 to 20 digits" let ``99999999999999999999`` through to SQLite
(``OverflowError``). The shapes are made from each kind's own declaration
(``SaludButton.id_format``), so a kind added later is forged too.
"""

from __future__ import annotations

import contextlib
import copy
import re
from typing import Any

from bot.features.registry import PERSISTENT_BUTTONS
from bot.interaction.buttons import CustomId
from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply
from devkit.harness import BotProcess
from tests.e2e.kit import create

#: The stale button's sentence (``error.stale_button``), in each presser's language.
STALE = {
    "en-US": "This button no longer works",
    "es-ES": "Este botón ya no sirve",
}
#: Levels that must not appear in the log for a forged press.
LOUD = re.compile(r"\b(ERROR|WARNING|CRITICAL)\b")


def valid_parts(custom_id: CustomId) -> list[str]:
    """A well-formed id's parts, after ``salud:<kind>``: a number 7, a choice's first word."""
    parts = []
    for field in custom_id.fields:
        choice = re.fullmatch(r"((?:[a-z]|\\.)+)(?:\|.*)?", field.pattern)
        if "[0-9]" in field.pattern or choice is None:
            parts.append("7")
        else:
            parts.append(choice.group(1).replace("\\", ""))
    return parts


def forged_ids(custom_id: CustomId) -> list[tuple[str, str]]:
    """(shape, id) for every way an id of this kind can be malformed."""
    head = f"salud:{custom_id.kind}"
    parts = valid_parts(custom_id)
    shapes: list[tuple[str, str]] = [
        ("a part added", ":".join([head, *parts, "7"])),
        ("the kind alone", head),
        ("a trailing colon", ":".join([head, *parts]) + ":"),
    ]
    required = [field for field in custom_id.fields if not field.optional]
    if len(required) == len(custom_id.fields):
        shapes.append(("the last part left out", ":".join([head, *parts[:-1]])))
    for index, field in enumerate(custom_id.fields):
        numeric = "[0-9]" in field.pattern
        wrong = [("empty", ""), ("spaces", " 7 ")]
        if numeric:
            wrong += [
                ("not a number", "x7"),
                ("negative", "-7"),
                ("a fraction", "7.5"),
                ("20 digits", "9" * 20),
                ("31 digits", "1" * 31),
                ("past SQLite's integers", str(2**63)),
                ("full-width digits", "７"),
            ]
        else:
            wrong += [("not a choice", "maybe"), ("in capitals", parts[index].upper())]
        for shape, value in wrong:
            forged = [*parts]
            forged[index] = value
            shapes.append((f"{field.name} {shape}", ":".join([head, *forged])))
    return shapes


def every_forged_id() -> list[tuple[str, str]]:
    found = [
        (f"{kind.__name__}: {shape}", forged)
        for kind in PERSISTENT_BUTTONS
        for shape, forged in forged_ids(kind.id_format)
    ]
    found += [
        ("an unknown kind", "salud:nope:7"),
        ("not Salud's", "someone-else:7"),
        ("empty", ""),
    ]
    return found


def press(
    fake: FakeDiscord,
    guild: FakeGuild,
    member: FakeMember,
    message: dict[str, Any] | None,
    custom_id: str,
    *,
    on_message: bool = True,
) -> Reply:
    """A press of ``custom_id``, sent as Discord sends a press: the message it is on (with that
    button on it, unless ``on_message`` is False, or no message at all)."""
    payload = fake._base_interaction(3, guild, member, None, None)
    source = None
    if message is not None:
        shown = copy.deepcopy(message)
        if on_message:
            button = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
            shown["components"] = [{"type": 1, "components": [button]}]
        payload["message"] = shown
        source = str(shown["id"])
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    return fake._send_interaction(payload, f"forged press {custom_id!r}", source=source)


async def test_every_forged_custom_id_of_every_button_kind_is_answered_as_stale(
    fake: FakeDiscord, bot: BotProcess, guild: FakeGuild
) -> None:
    gm = guild.owner
    await create(fake, guild, gm, "Ana", 9)
    shown = await fake.slash(guild, gm, "character show", {"character": "Ana"})
    assert shown.message is not None
    log_start = len(bot.log_text())
    members = {locale: guild.member(f"Forja-{locale}", locale=locale) for locale in STALE}

    cases = every_forged_id()
    assert len(cases) >= 8 * 10, len(cases)
    sent: list[tuple[str, str, Reply]] = []
    for number, (shape, forged) in enumerate(cases):
        locale = list(STALE)[number % len(STALE)]
        # One in three without the button on its message, one in five without a message.
        message = None if number % 5 == 4 else shown.message
        reply = press(fake, guild, members[locale], message, forged, on_message=number % 3 != 2)
        sent.append((shape, locale, reply))

    with contextlib.suppress(AssertionError):  # those left unanswered are named below
        await fake.wait_until(lambda: all(r.is_complete() for _, _, r in sent), 10, what="answers")
    failures = []
    for shape, locale, reply in sent:
        if not reply.is_complete():
            failures.append(f"{shape}: no answer")
            continue
        if not reply.ephemeral or STALE[locale] not in reply.text:
            failures.append(f"{shape} ({locale}): {reply.type} {reply.text[:120]!r}")
    assert not failures, f"{len(failures)} of {len(sent)} forged presses:\n" + "\n".join(failures)

    await bot.settled(*[reply for _, _, reply in sent])
    loud = [line for line in bot.log_text()[log_start:].splitlines() if LOUD.search(line)]
    assert not loud, "\n".join(loud[:20])
    # At most one line of INFO for each.
    lines = bot.log_text()[log_start:].splitlines()
    assert len(lines) <= len(sent), "\n".join(lines[:20])


async def test_a_well_formed_id_of_a_real_button_still_works(
    fake: FakeDiscord, guild: FakeGuild
) -> None:
    """The stale answer is only for what no kind accepts: a 19-digit id within SQLite's
    integers is a real id (of a character that does not exist here) and is answered as such."""
    gm = guild.owner
    await create(fake, guild, gm, "Bea", 9)
    shown = await fake.slash(guild, gm, "character show", {"character": "Bea"})
    reply = press(fake, guild, gm, shown.message, f"salud:del:{2**63 - 1}:yes")
    await reply.wait_complete(10)
    assert reply.ephemeral and "no longer exists" in reply.text, reply.text
