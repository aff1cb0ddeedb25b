# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""What the bot answered to one interaction, as a test sees it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord

EPHEMERAL = 1 << 6
LOADING = 1 << 7
DEFERRED_TYPES = (5, 6)


@dataclass
class InteractionRecord:
    """Everything the fake knows about one interaction it dispatched."""

    id: str
    token: str
    label: str  # "/character create", "click salud:cons:1:0", "autocomplete /hurt character"
    payload: dict[str, Any]
    created: float  # loop time of the dispatch
    source_message_id: str | None = None  # the message a clicked component was on
    callback_type: int | None = None
    callback_body: dict[str, Any] | None = None
    callback_at: float | None = None
    original_id: str | None = None
    original_edits: int = 0  # edits of the original message after the callback
    followup_ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # error answers the fake gave for it
    filled_at: float | None = None  # loop time of the first edit or followup after the callback

    def summary(self) -> str:
        """One line for timeout messages."""
        return (
            f"{self.label} (interaction {self.id}): callback type={self.callback_type} "
            f"original={self.original_id} edits={self.original_edits} "
            f"followups={len(self.followup_ids)} errors={self.errors}"
        )


def flatten_components(components: list[Any] | None) -> list[dict[str, Any]]:
    """Every interactive component (buttons, selects) of a message, rows and containers removed."""
    found: list[dict[str, Any]] = []
    for component in components or []:
        if not isinstance(component, dict):
            continue
        if component.get("type") in (2, 3, 5, 6, 7, 8):
            found.append(component)
        found += flatten_components(component.get("components"))
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found += flatten_components([accessory])
    return found


def embed_text(embed: dict[str, Any]) -> str:
    """All the visible text of an embed, one part a line."""
    parts = [
        str((embed.get("author") or {}).get("name") or ""),
        str(embed.get("title") or ""),
        str(embed.get("description") or ""),
    ]
    for item in embed.get("fields") or []:
        parts += [str(item.get("name") or ""), str(item.get("value") or "")]
    parts.append(str((embed.get("footer") or {}).get("text") or ""))
    return "\n".join(p for p in parts if p)


def message_text(message: dict[str, Any] | None) -> str:
    """Content and embed text of a message."""
    if not message:
        return ""
    parts = [message.get("content") or ""]
    parts += [embed_text(e) for e in message.get("embeds") or []]
    return "\n".join(p for p in parts if p)


class Reply:
    """The bot's answer to one interaction; message fields read the fake's live state.

    `message` is the interaction's original response (for a click answered with type 6/7, the
    clicked message), after any deferral was filled and any later edit.
    """

    def __init__(self, fake: FakeDiscord, record: InteractionRecord) -> None:
        self._fake = fake
        self.record = record

    def __repr__(self) -> str:
        return f"<Reply {self.record.summary()} content={self.content!r:.80}>"

    # --- the callback -------------------------------------------------------------------------
    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload the fake sent."""
        return self.record.payload

    @property
    def type(self) -> int | None:
        """Callback type: 4 message, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal."""
        return self.record.callback_type

    @property
    def body(self) -> dict[str, Any] | None:
        """The raw callback body."""
        return self.record.callback_body

    @property
    def deferred(self) -> bool:
        """Whether the first response was a deferral (5 or 6)."""
        return self.record.callback_type in DEFERRED_TYPES

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the callback."""
        if self.record.callback_at is None:
            return None
        return self.record.callback_at - self.record.created

    @property
    def answered_in(self) -> float | None:
        """Seconds from dispatch to the message the user reads: the callback's own, or after
        a deferral the first edit or followup that filled it (None before then)."""
        record = self.record
        done = record.filled_at if self.deferred else record.callback_at
        return None if done is None else done - record.created

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (type 8)."""
        body = self.record.callback_body or {}
        return list((body.get("data") or {}).get("choices") or [])

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal's data (type 9)."""
        body = self.record.callback_body or {}
        return body.get("data") if body.get("type") == 9 else None

    # --- the message --------------------------------------------------------------------------
    @property
    def message(self) -> dict[str, Any] | None:
        """The current original response message (None before it exists or after deletion)."""
        if self.record.original_id is None:
            return None
        return self._fake.message(self.record.original_id)

    @property
    def message_id(self) -> str | None:
        """The original response's message id."""
        return self.record.original_id

    @property
    def ephemeral(self) -> bool:
        """Whether the original response is ephemeral (flag 64)."""
        return bool((self.message or {}).get("flags", 0) & EPHEMERAL)

    @property
    def content(self) -> str:
        """The original response's content ('' when none)."""
        return (self.message or {}).get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The original response's embeds (dicts as Discord stores them)."""
        return list((self.message or {}).get("embeds") or [])

    @property
    def embed(self) -> dict[str, Any]:
        """The first embed; AssertionError when there is none."""
        assert self.embeds, f"reply has no embed: {self!r}"
        return self.embeds[0]

    @property
    def components(self) -> list[dict[str, Any]]:
        """Buttons and selects of the original response, flattened (custom_id, label, disabled…)."""
        return flatten_components((self.message or {}).get("components"))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Only the buttons."""
        return [c for c in self.components if c.get("type") == 2]

    @property
    def custom_ids(self) -> list[str]:
        """custom_id of every component, in order."""
        return [c["custom_id"] for c in self.components if c.get("custom_id")]

    def button(self, text: str) -> dict[str, Any]:
        """The button whose label or custom_id equals `text`."""
        for button in self.buttons:
            if text in (button.get("label"), button.get("custom_id")):
                return button
        raise AssertionError(f"no button {text!r}; buttons: {self.buttons}")

    @property
    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer, for `in` checks."""
        return message_text(self.message)

    # --- followups ----------------------------------------------------------------------------
    @property
    def followups(self) -> list[dict[str, Any]]:
        """Followup messages sent for this interaction (after the original), current state."""
        return [m for mid in self.record.followup_ids if (m := self._fake.message(mid)) is not None]

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Waits until at least `count` followups exist and returns them all."""
        await self._fake.wait_until(
            lambda: len(self.record.followup_ids) >= count,
            timeout,
            what=f"{count} followup(s) for {self.record.label}",
            record=self.record,
        )
        return self.followups

    async def answer(self, timeout: float = 5.0) -> Reply:
        """The message that answers the interaction: the response itself when it is a new
        message (type 4, an ephemeral refusal included), else the first followup, waited for
        (a button whose response updated its own message, type 6 or 7, and then posted its
        reply). The returned Reply reads that message; its record is this interaction's."""
        await self.wait_complete(timeout)
        if self.record.callback_type not in (6, 7):
            return self
        await self.wait_followups(1, timeout)
        return _FollowupReply(self._fake, self.record, self.record.followup_ids[0])

    async def wait_edit(
        self, edits: int | None = None, timeout: float = 5.0
    ) -> dict[str, Any] | None:
        """Waits for one more edit of the original (or until `edits` edits) and returns it."""
        target = self.record.original_edits + 1 if edits is None else edits
        await self._fake.wait_until(
            lambda: self.record.original_edits >= target,
            timeout,
            what=f"edit #{target} of the original response to {self.record.label}",
            record=self.record,
        )
        return self.message

    async def wait_complete(self, timeout: float) -> Reply:
        """Waits for the callback and, after a deferral, for the message that fills it."""
        await self._fake.wait_until(
            self.is_complete, timeout, what=f"a reply to {self.record.label}", record=self.record
        )
        return self

    def is_complete(self) -> bool:
        """Callback received, and any deferral filled (an edit or a followup; a deleted
        placeholder is followed by the error that replaced it)."""
        record = self.record
        if record.callback_type is None:
            return False
        if record.callback_type not in DEFERRED_TYPES:
            return True
        return record.original_edits > 0 or bool(record.followup_ids)


class _FollowupReply(Reply):
    """A Reply whose message is one followup of the interaction (``Reply.answer``)."""

    def __init__(self, fake: FakeDiscord, record: InteractionRecord, message_id: str) -> None:
        super().__init__(fake, record)
        self._message_id = message_id

    @property
    def message(self) -> dict[str, Any] | None:
        return self._fake.message(self._message_id)

    @property
    def message_id(self) -> str | None:
        return self._message_id
