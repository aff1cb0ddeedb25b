"""Reading what a reply shows: embed fields, Health and state lines, refusals, Discord's limits,
and every message payload the bot sent."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from devkit.fake_discord import FakeDiscord, Reply

HEALTH_FIELD = {"en": "Health", "es": "Salud"}
ROLL_FIELD = {"en": "Consciousness roll", "es": "Tirada de Consciencia"}
SUCCESS = {"en": "Success", "es": "Éxito"}
FAILURE = {"en": "Failure", "es": "Fallo"}
WHAT_FIELD = {"en": "What happened", "es": "Qué ha pasado"}


def field(embed: Mapping[str, Any], name: str) -> str:
    """The value of the field called ``name``."""
    for item in embed.get("fields") or []:
        if item.get("name") == name:
            return str(item.get("value"))
    names = [item.get("name") for item in embed.get("fields") or []]
    raise AssertionError(f"no field {name!r} in embed {embed.get('title')!r}: {names}")


#: The first line of a Health field: ``-7 / 9`` (a status embed, or a change that left the
#: Health as it was), ``5 → -7 / 9``, or ``5 / 9 → 5 / 10`` (the maximum moved).
HEALTH_LINE = re.compile(
    r"(?:(?P<before>-?\d+)(?: / (?P<max_before>\d+))? → )?(?P<now>-?\d+) / (?P<max>\d+)$"
)


def health_shown(embed: Mapping[str, Any], lang: str = "en") -> tuple[int, int]:
    """``(current, max)`` from the ``Health`` field (``-7 / 9``, or ``5 → -7 / 9``)."""
    value = field(embed, HEALTH_FIELD[lang])
    found = HEALTH_LINE.match(value.split("\n")[0])
    assert found, value
    return int(found["now"]), int(found["max"])


def health_change_shown(embed: Mapping[str, Any], lang: str = "en") -> tuple[int, int, int]:
    """``(before, current, max)`` from a change's ``Health`` field (``5 → -7 / 9``; an
    unchanged Health gives ``before == current``)."""
    value = field(embed, HEALTH_FIELD[lang])
    found = HEALTH_LINE.match(value.split("\n")[0])
    assert found, value
    now = int(found["now"])
    before = now if found["before"] is None else int(found["before"])
    return before, now, int(found["max"])


def several_lines(embed: Mapping[str, Any]) -> dict[str, str]:
    """The lines of a change of several characters (``**Name** · Health … · …``), by name;
    the closing line of the rolls pending under ``""``."""
    lines: dict[str, str] = {}
    for line in str(embed.get("description") or "").split("\n"):
        found = re.match(r"\*\*(?P<name>.+?)\*\* · ", line)
        lines[found["name"] if found else ""] = line
    return lines


def what_happened(embed: Mapping[str, Any], lang: str = "en") -> str:
    """The events in words of a change (its ``What happened`` field)."""
    return field(embed, WHAT_FIELD[lang])


def state_shown(embed: Mapping[str, Any], lang: str = "en") -> str:
    """The state with its flags: the ``State`` field of a status embed (``/character show``),
    or the second line of a change's ``Health`` field (``Hurt → **Seriously wounded** · …``)."""
    names = [item.get("name") for item in embed.get("fields") or []]
    state_name = {"en": "State", "es": "Estado"}[lang]
    if state_name in names:
        return field(embed, state_name)
    lines = field(embed, HEALTH_FIELD[lang]).split("\n")
    assert len(lines) >= 2, f"no state line in {embed.get('title')!r}: {lines}"
    return "\n".join(lines[1:])


def assert_refused(reply: Reply, *needles: str) -> None:
    """An ephemeral error reply that contains every ``needle``."""
    assert reply.ephemeral, f"expected an ephemeral refusal, got: {reply.text!r}"
    for needle in needles:
        assert needle in reply.text, f"{needle!r} not in {reply.text!r}"


def refused_at_once(reply: Reply, *needles: str) -> None:
    """A refusal answered in the interaction's own response (type 4, not after a deferral)."""
    assert reply.type == 4, reply
    assert_refused(reply, *needles)


def fits_discord(reply: Reply) -> None:
    """Every message of the reply within Discord's limits."""
    for message in [reply.message, *reply.followups]:
        assert message is not None
        embeds = message.get("embeds") or []
        assert len(embeds) <= 10
        assert len(message.get("content") or "") <= 2000
        total = 0
        for embed in embeds:
            assert len(embed.get("description") or "") <= 4096
            assert len(embed.get("title") or "") <= 256
            total += len(embed.get("title") or "") + len(embed.get("description") or "")
            total += len((embed.get("footer") or {}).get("text") or "")
            for item in embed.get("fields") or []:
                total += len(item["name"]) + len(item["value"])
        assert total <= 6000


def message_bodies(fake: FakeDiscord, start: int) -> list[dict[str, Any]]:
    """Every message payload the bot sent since request number ``start``."""
    bodies = []
    for request in fake.requests[start:]:
        body = request.body
        if request.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        if request.path.endswith("/callback"):
            if body.get("type") in (4, 7):
                bodies.append(body.get("data") or {})
        elif "/webhooks/" in request.path or "/messages" in request.path:
            bodies.append(body)
    return bodies
