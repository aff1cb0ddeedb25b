"""What Salud keeps of one interaction beside discord.py's object, typed, in one place.

The gateway (``bot.gateway.intake``) builds every interaction as a ``SaludInteraction`` whose
``salud`` context says when Discord created it (on the monotonic clock: when the bot read it,
less how long it waited unread by the snowflake's time beyond the least lag seen lately, so
that neither a skewed wall clock nor a frozen process misleads it), the role ids its member
carried, its storage ``Ticket``, the services commands and buttons use, and what the frame of
the interaction learns on the way (the server's settings, read once; how it was acknowledged; which
characters its options named). Nothing is kept in the extras of the interaction or in context
variables, and nobody casts ``interaction.client``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import discord

from bot.storage.fair_lock import Ticket
from bot.storage.interface import StorageEngine
from bot.storage.models import CharacterRef, GuildSettings, RollKind
from rules.dice import Roller

__all__ = [
    "AnnouncementChannel",
    "Frame",
    "InteractionContext",
    "RollMessageKeeper",
    "SaludInteraction",
    "context_of",
]

ClientT = TypeVar("ClientT", bound=discord.Client, covariant=True)


class RollMessageKeeper(Protocol):
    """What a reply or a roll needs of the keeper of roll-button messages
    (``bot.features.rolls.keeper.RollButtonKeeper``): a reply posted with fresh roll buttons
    (``bot.interaction.sending.keep_roll_buttons``; an ``/undo`` that makes a test due
    again) kept, with the components it was sent with, to be disabled in time; a test
    rolled, said on its call's line when the call's buttons are disabled."""

    async def remember_message(
        self,
        guild_id: int,
        channel_id: int | None,
        message_id: int | None,
        rolls: Mapping[int, int],
        kind: RollKind,
        *,
        components: Any = None,
        interaction_id: int | None = None,
    ) -> None: ...

    def note_rolled(
        self, guild_id: int, character_id: int, test: int, name: str, line: str
    ) -> None:
        """A Stability test rolled (by ``/stability roll``): the call's line that says so,
        for the sweep that disables the call's buttons to edit in with them."""


class AnnouncementChannel(Protocol):
    """What the reply of a change needs of the announcement channels
    (``bot.discord_rest.announcements.Announcements``): its copies posted there."""

    async def post(
        self,
        client: discord.Client,
        guild_id: int,
        channel_id: int,
        copies: Sequence[tuple[str | None, Sequence[discord.Embed]]],
        *,
        view: discord.ui.View | None = None,
    ) -> None: ...


class Frame(Protocol):
    """What the frame of an interaction needs of the bot (``bot.services.Services`` has it)."""

    @property
    def roll_buttons(self) -> RollMessageKeeper: ...

    @property
    def storage(self) -> StorageEngine: ...

    @property
    def dice(self) -> Roller: ...

    @property
    def announcements(self) -> AnnouncementChannel: ...


@dataclass
class InteractionContext:
    """One interaction as Salud sees it; see the module's docstring."""

    services: Frame
    #: ``time.monotonic()`` when Discord created the interaction: when the gateway read it,
    #: less how long it waited unread (``bot.gateway.discord_clock``).
    received_at: float
    #: The role ids the member carried (``Member.get_role`` knows only cached servers).
    role_ids: frozenset[int]
    ticket: Ticket
    #: The server's ``/config``, read once per interaction (``Here.of``).
    settings: GuildSettings | None = None
    #: It was deferred ephemerally (an error may then follow up privately).
    deferred_privately: bool = False
    #: A followup filled a public "thinking…" placeholder.
    placeholder_filled: bool = False
    #: The characters its options named, by option (``character``, ``medic``, ``patient``).
    subjects: dict[str, CharacterRef] = field(default_factory=dict)
    #: Held while the interaction is being acknowledged: never twice at once.
    acknowledging: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The components of the public messages it sent with buttons, by message id: the
    #: roll-button keeper keeps them, so that it never reads a message back to edit it.
    sent_components: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    def age(self) -> float:
        """Seconds since Discord created the interaction (as the gateway estimated it)."""
        return time.monotonic() - self.received_at


class SaludInteraction(discord.Interaction[ClientT], Generic[ClientT]):
    """A discord.py interaction with Salud's context (``salud``; discord.py's own
    ``context`` says where the command was used)."""

    __slots__ = ("salud",)

    def __init__(self, *, data: Any, state: Any, salud: InteractionContext) -> None:
        super().__init__(data=data, state=state)
        self.salud = salud


def context_of(interaction: discord.Interaction[Any]) -> InteractionContext:
    """The context the gateway gave this interaction."""
    if not isinstance(interaction, SaludInteraction):
        raise TypeError(f"interaction {interaction.id} did not come through Salud's gateway")
    return interaction.salud
