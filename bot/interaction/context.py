"""One interaction as Salud received it: discord.py's object with what Salud keeps of it, typed,
in one place.

The gateway (``bot.gateway.intake``) builds every interaction as a ``SaludInteraction``, which
says when Discord created it (on the monotonic clock: when the bot read it,
less how long it waited unread by the snowflake's time beyond the least lag seen lately, so
that neither a skewed wall clock nor a frozen process misleads it), the role ids its member
carried, its storage ``Ticket``, the services commands and buttons use, and what is learnt on the
way (the server's settings, read once; how it was acknowledged; which
characters its options named). Nothing is kept in the extras of the interaction or in context
variables, and nobody casts ``interaction.client``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import discord

from bot.storage.fair_lock import Ticket
from bot.storage.interface import StorageEngine
from bot.storage.models import CharacterRef, GuildSettings, RollKind
from rules.dice import Roller

__all__ = [
    "AnnouncementChannel",
    "InteractionServices",
    "KeptMessage",
    "RollMessageKeeper",
    "SaludInteraction",
    "salud_of",
]

ClientT = TypeVar("ClientT", bound=discord.Client, covariant=True)


@dataclass(frozen=True)
class KeptMessage:
    """A reply that carries roll buttons, kept after it was sent so that its buttons are
    disabled in time: where it is (``table_id``: the table's id), which characters' rolls
    (their numbers) of which ``kind``, the ``components`` it was sent with, and the
    interaction whose reply was noted as unkept until now."""

    table_id: int
    channel_id: int | None
    message_id: int | None
    rolls: Mapping[int, int]
    kind: RollKind = RollKind.CONSCIOUSNESS
    components: Any = None
    interaction_id: int | None = None


class RollMessageKeeper(Protocol):
    """What a reply or a roll needs of the keeper of roll-button messages
    (``bot.features.rolls.keeper.RollButtonKeeper``): a reply posted with fresh roll buttons
    (``bot.interaction.sending.keep_roll_buttons``; an ``/undo`` that makes a test due
    again) kept, with the components it was sent with, to be disabled in time; a test
    rolled, said on its call's line when the call's buttons are disabled."""

    async def remember_message(self, kept: KeptMessage) -> None: ...

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


class InteractionServices(Protocol):
    """What an interaction needs of the bot (``bot.services.Services`` has it)."""

    async def report_error(
        self, interaction: discord.Interaction[Any], error: BaseException
    ) -> None:
        """A refusal or a failure answered as a command's are (``bot.interaction.tree``):
        a button's press, which does not pass through the command tree."""

    @property
    def roll_buttons(self) -> RollMessageKeeper: ...

    @property
    def storage(self) -> StorageEngine: ...

    @property
    def dice(self) -> Roller: ...

    @property
    def announcements(self) -> AnnouncementChannel: ...


class SaludInteraction(discord.Interaction[ClientT], Generic[ClientT]):
    """One interaction as Salud received it: discord.py's object, and what Salud keeps of it
    beside discord.py's own attributes (see the module's docstring). discord.py's ``context``
    says where the command was used."""

    __slots__ = (
        "acknowledging",
        "deferred_privately",
        "placeholder_filled",
        "received_at",
        "role_ids",
        "sent_components",
        "services",
        "settings",
        "subjects",
        "ticket",
    )

    services: InteractionServices
    #: ``time.monotonic()`` when Discord created the interaction: when the gateway read it,
    #: less how long it waited unread (``bot.gateway.discord_clock``).
    received_at: float
    #: The role ids the member carried (``Member.get_role`` knows only cached servers).
    role_ids: frozenset[int]
    ticket: Ticket
    #: The server's ``/config``, read once per interaction (``Here.of``).
    settings: GuildSettings | None
    #: It was deferred ephemerally (an error may then follow up privately).
    deferred_privately: bool
    #: A followup filled a public "thinking…" placeholder.
    placeholder_filled: bool
    #: The characters its options named, by option (``character``, ``medic``, ``patient``).
    subjects: dict[str, CharacterRef]
    #: Held while the interaction is being acknowledged: never twice at once.
    acknowledging: asyncio.Lock
    #: The components of the public messages it sent with buttons, by message id: the
    #: roll-button keeper keeps them, so that it never reads a message back to edit it.
    sent_components: dict[int, list[dict[str, Any]]]

    def __init__(
        self,
        *,
        data: Any,
        state: Any,
        services: InteractionServices,
        received_at: float,
        role_ids: frozenset[int],
        ticket: Ticket,
    ) -> None:
        super().__init__(data=data, state=state)
        self.services = services
        self.received_at = received_at
        self.role_ids = role_ids
        self.ticket = ticket
        self.settings = None
        self.deferred_privately = False
        self.placeholder_filled = False
        self.subjects = {}
        self.acknowledging = asyncio.Lock()
        self.sent_components = {}

    def age(self) -> float:
        """Seconds since Discord created the interaction (as the gateway estimated it)."""
        return time.monotonic() - self.received_at


def salud_of(interaction: discord.Interaction[Any]) -> SaludInteraction[Any]:
    """The interaction as Salud's gateway built it (any interaction of a command or a
    button is; an error before it, never)."""
    if not isinstance(interaction, SaludInteraction):
        raise TypeError(f"interaction {interaction.id} did not come through Salud's gateway")
    return interaction
