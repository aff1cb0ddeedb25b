"""``/undo`` as a GM uses it: the private preview, then a press of its Confirm button; what
the tests read is the public reply that follows (COMMANDS.md ``/undo``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from devkit.fake_discord import FakeDiscord, FakeGuild, FakeMember, Reply, message_text


@dataclass
class Undone:
    """The public reply of a confirmed ``/undo`` (the same reading API as a ``Reply``), or,
    when ``/undo`` refused, that refusal (``public`` empty)."""

    preview: Reply
    click: Reply | None = None
    public: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return not self.public

    @property
    def message(self) -> dict[str, Any] | None:
        return self.public[0] if self.public else self.preview.message

    @property
    def followups(self) -> list[dict[str, Any]]:
        return self.public[1:]

    @property
    def content(self) -> str:
        return str((self.message or {}).get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list((self.message or {}).get("embeds") or [])

    @property
    def embed(self) -> dict[str, Any]:
        return self.embeds[0]

    @property
    def text(self) -> str:
        return "\n".join(message_text(message) for message in [self.message, *self.followups])


def confirm_id(reply: Reply) -> str | None:
    return next(
        (c for c in reply.custom_ids if c.startswith("salud:undo:") and c.endswith(":yes")), None
    )


async def undo(
    fake: FakeDiscord, guild: FakeGuild, gm: FakeMember, *, locale: str | None = None
) -> Undone:
    """``/undo`` and, when it previews a change, its confirmation."""
    preview = await fake.slash(guild, gm, "undo", locale=locale)
    confirm = confirm_id(preview)
    if confirm is None:
        return Undone(preview)
    assert preview.ephemeral, "the preview is private"
    click = await fake.click(guild, gm, preview, confirm, locale=locale)
    if click.type == 6:
        await click.wait_edit(1)
    return Undone(preview, click, list(click.followups))


def shown_back(reply: Undone, name: str, lang: str = "en") -> str:
    """The first line of ``name``'s Health field in an /undo reply (``now → restored``)."""
    embed = next(e for e in reply.embeds if e.get("title") == name)
    field_name = {"en": "Health", "es": "Salud"}[lang]
    value = next(f["value"] for f in embed["fields"] if f["name"] == field_name)
    return str(value).split("\n")[0]
