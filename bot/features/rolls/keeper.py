"""Buttons that know their roll (COMMANDS.md, The Consciousness button; "Stability": the
Stability test's buttons are kept and swept the same way, in the same read, as another
``RollKind``).

Each time a character's Consciousness roll falls due it gets a new number (``roll_seq``);
the buttons posted for it carry that number, and a press is refused once that roll was made
or is no longer due, even when a later roll is pending. The public messages that carry the
buttons are kept (a few per character, ``bot.storage.roll_messages``): once their roll is
made or no longer due, ``RollButtonKeeper`` edits them so that those buttons show disabled.
It follows every committed change (``Storage.on_change``), so a roll made by a button, by
``/conscious``, a healing, a knock-out, a later roll or a deletion all count, after a restart
too. A message that can no longer be edited (deleted, no access) is forgotten.

The sweeps go through the bot's pacer (``bot.discord_rest.pacer``): at most one sweep waits
per server (keyed by the server), gathering the characters of every change made meanwhile,
and its requests share the bot's budget of background requests, after the trackers; a sweep
refused with a 429 waits again and runs after ``retry_after``. The message whose button was
pressed is not swept: the press edits it in its own response
(``bot.features.rolls.base``).

One PATCH a message, no GET (issue 24.10): the keeper keeps the components the bot sent
with each message, and a sweep sends them back with every roll button disabled but those of
rolls the message still holds live. In a channel that refused the bot (403), no message is
kept and none is edited (the pacer remembers the refusal): each would cost an invalid
request. A reply that the process had no time to keep (stopped, killed) is found at the next
start (``recover``): the change noted its interaction in its own transaction, and the reply
is the bot's message after that interaction in its channel.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import discord

from bot.discord_rest.channel_holds import RateLimited
from bot.discord_rest.message_edits import edit_message, is_gone, message_payload
from bot.discord_rest.pacer import RestPacer
from bot.features.rolls.base import DueRoll
from bot.features.rolls.consciousness import CONSCIOUSNESS_ID
from bot.interaction.buttons import CustomId
from bot.interaction.context import KeptMessage
from bot.render.stability_call import replace_call_line
from bot.storage.errors import StorageUnreachable
from bot.storage.fair_lock import Ticket
from bot.storage.interface import StorageEngine
from bot.storage.memory import Lru
from bot.storage.models import RollKind, RollMessage, UnkeptReply
from bot.storage.roll_messages import (
    forget_roll_messages,
    forget_unkept_reply,
    has_roll_messages,
    messages_to_sweep,
    remember_roll_messages,
    unkept_replies,
)

__all__ = ["RollButtonKeeper"]

log = logging.getLogger(__name__)

#: How many servers without roll-button messages are remembered.
_NO_MESSAGES_MEMORY = 4096
#: How many characters' latest changes are remembered (for ``remember_message``'s second look).
_CHANGES_MEMORY = 4096
#: How many rolled Stability tests' lines wait for their call's sweep.
_ROLLED_MEMORY = 4096
#: Messages read after an unkept reply's interaction, looking for it (at start-up).
_RECOVERY_LOOK = 50


def _disabled_components(
    components: list[dict[str, Any]],
    stale: set[tuple[int, int | None]],
    custom_id: CustomId = CONSCIOUSNESS_ID,
) -> tuple[list[dict[str, Any]], bool]:
    """The message's components with the buttons (of the kind ``custom_id`` declares) of the
    ``stale`` rolls disabled (also the unnumbered buttons of those characters); whether
    anything changed."""
    changed = False
    stale_characters = {character_id for character_id, _ in stale}
    number_field = custom_id.fields[-1].name  # the roll's number: each kind's last field
    rows = []
    for row in components:
        items = []
        for item in row.get("components") or []:
            found = custom_id.read(str(item.get("custom_id") or ""))
            if found is not None and not item.get("disabled"):
                character_id = found.number("character_id")
                roll = found.optional_number(number_field)
                if (character_id, roll) in stale or (
                    roll is None and character_id in stale_characters
                ):
                    item = {**item, "disabled": True}
                    changed = True
            items.append(item)
        rows.append({**row, "components": items})
    return rows, changed


def _live_components(
    components: list[dict[str, Any]],
    live: set[tuple[RollKind, int, int]],
    ids: Mapping[RollKind, CustomId],
) -> tuple[list[dict[str, Any]], bool]:
    """The components the bot sent (``components``) with every roll button disabled but
    those of the ``live`` rolls (kind, character, number) the message still holds (an
    unnumbered button stays live with any live roll of its character); whether any is."""
    changed = False
    live_characters = {(kind, character_id) for kind, character_id, _ in live}
    rows = []
    for row in components:
        items = []
        for item in row.get("components") or []:
            for kind, custom_id in ids.items():
                found = custom_id.read(str(item.get("custom_id") or ""))
                if found is None:
                    continue
                character_id = found.number("character_id")
                number = found.optional_number(custom_id.fields[-1].name)
                alive = (
                    (kind, character_id) in live_characters
                    if number is None
                    else (kind, character_id, number) in live
                )
                if not alive and not item.get("disabled"):
                    item = {**item, "disabled": True}
                    changed = True
                break
            items.append(item)
        rows.append({**row, "components": items})
    return rows, changed


def _kept_from(
    message: dict[str, Any], reply: UnkeptReply, ids: Mapping[RollKind, CustomId]
) -> list[RollMessage]:
    """The roll buttons of the bot's reply ``message`` to ``reply``'s interaction, as the
    messages the keeper keeps (none when it is another message)."""
    metadata = message.get("interaction_metadata") or message.get("interaction") or {}
    if str(metadata.get("id")) != str(reply.interaction_id):
        return []
    components = list(message.get("components") or [])
    stored = json.dumps(components, separators=(",", ":"))
    kept: dict[tuple[RollKind, int], RollMessage] = {}
    for row in components:
        for item in row.get("components") or []:
            for kind, custom_id in ids.items():
                found = custom_id.read(str(item.get("custom_id") or ""))
                number = None if found is None else found.optional_number(custom_id.fields[-1].name)
                if found is None or number is None:
                    continue
                character_id = found.number("character_id")
                kept[(kind, character_id)] = RollMessage(
                    reply.guild_id,
                    character_id,
                    number,
                    reply.channel_id,
                    int(message["id"]),
                    kind,
                    stored,
                )
    return list(kept.values())


class RollButtonKeeper:
    """Disables the buttons of rolls that are no longer due, after every change: of each
    kind of roll in ``kinds`` (``bot.features.rolls.kinds``), the Consciousness roll's and
    the Stability test's, read and swept together (one read per sweep, whatever the kinds)."""

    def __init__(
        self,
        storage: StorageEngine,
        pacer: RestPacer,
        kinds: Sequence[DueRoll[Any]],
    ) -> None:
        self._storage = storage
        self._pacer = pacer
        self._ids: dict[RollKind, CustomId] = {kind.kind: kind.custom_id for kind in kinds}
        self._closed = False
        # The characters each server's waiting sweep is for (one sweep per server at most).
        self._due: dict[int, set[int]] = {}
        # Servers known to keep no roll-button message: their changes cost no read.
        self._without: Lru[int, bool] = Lru(_NO_MESSAGES_MEMORY)
        # The task whose commit last changed each character (server, character): a message
        # kept by that same task needs no second look (``remember_message``).
        self._changed_by: Lru[tuple[int, int], asyncio.Task[Any] | None] = Lru(_CHANGES_MEMORY)
        # The call's line of each Stability test rolled by command (server, character, test):
        # the character's name and the line saying how it rolled.
        self._rolled: Lru[tuple[int, int, int], tuple[str, str]] = Lru(_ROLLED_MEMORY)

    def start(self) -> None:
        """Follow every committed change from now on, and look for the replies a stopped
        process had no time to keep."""
        self._storage.on_change(self._changed)
        self._pacer.submit(("recover",), self.recover)

    async def recover(self) -> None:
        """Keep the replies with roll buttons that the last process sent but did not keep
        (it stopped in between): each is the bot's message after its interaction in its
        channel; their characters are swept, as after any change."""
        async with self._storage.read() as reader:
            replies = await unkept_replies(reader)
        for reply in replies:
            found: list[RollMessage] = []
            if not self._pacer.refused(reply.channel_id):
                try:
                    messages = await self._pacer.request(
                        "GET",
                        f"/channels/{reply.channel_id}/messages"
                        f"?after={reply.interaction_id}&limit={_RECOVERY_LOOK}",
                        channel_id=reply.channel_id,
                    )
                except RateLimited:
                    raise  # the pacer runs the rest again after retry_after
                except discord.HTTPException as error:
                    log.info(
                        "the reply of interaction %s was not found: %s", reply.interaction_id, error
                    )
                    messages = []
                for message in messages if isinstance(messages, list) else []:
                    if isinstance(message, dict):
                        found += _kept_from(message, reply, self._ids)
            async with self._storage.transaction(require_record=False) as tx:
                if found:
                    await remember_roll_messages(tx, found)
                await forget_unkept_reply(tx, reply.interaction_id)
            if found:
                log.info(
                    "kept the roll buttons of interaction %s, unkept when the bot stopped",
                    reply.interaction_id,
                )
                self._without.forget(reply.guild_id)
                self._changed(reply.guild_id, tuple(sorted({m.character_id for m in found})))

    async def remember_message(self, kept: KeptMessage) -> None:
        """Keep the message ``kept`` names that carries these characters' roll buttons (after
        it was sent), sent with its components; not in a channel that refused the bot. The
        reply noted as unkept for its interaction is kept now
        (``bot.interaction.sending.keep_roll_buttons``)."""
        guild_id, channel_id, message_id = kept.table_id, kept.channel_id, kept.message_id
        if channel_id is None or not kept.rolls:
            return
        sent = kept.components
        stored = None if sent is None else json.dumps(sent, separators=(",", ":"))
        messages = [
            RollMessage(guild_id, character_id, roll, channel_id, message_id, kept.kind, stored)
            for character_id, roll in kept.rolls.items()
            if message_id is not None and not self._pacer.refused(channel_id)
        ]
        try:
            async with self._storage.transaction(require_record=False) as tx:
                if kept.interaction_id is not None:
                    await forget_unkept_reply(tx, kept.interaction_id)
                if messages:
                    await remember_roll_messages(tx, messages)
        except Exception:
            # The reply was sent; only the later disabling of its buttons is lost.
            log.exception(
                "could not keep the roll-button message %s of guild %s", message_id, guild_id
            )
            return
        if not messages:
            return
        self._without.forget(guild_id)  # its changes must be swept again
        # A roll made (or healed away) by another change between this one's commit and now
        # was swept before its message was kept: one more look at those characters (merged
        # with any sweep still waiting). Characters no other change touched need none.
        this = asyncio.current_task()
        moved = tuple(
            character_id
            for character_id in kept.rolls
            if self._changed_by.get((guild_id, character_id)) is not this
        )
        if moved:
            self._changed(guild_id, moved)

    def note_rolled(
        self, guild_id: int, character_id: int, test: int, name: str, line: str
    ) -> None:
        """A Stability test rolled: the call's line that says so (``✓ 2 + 0 = 2 vs 4: fallo,
        8 → 4``), edited into the messages of that test with their disabled buttons. Noted
        after its commit and before the sweep that commit started can run."""
        self._rolled.put((guild_id, character_id, test), (name, line))

    def _said_rolled(
        self, guild_id: int, embeds: list[dict[str, Any]], items: list[RollMessage]
    ) -> list[dict[str, Any]] | None:
        """The message's embeds with the call's line of each test rolled said so; None when
        none of them changes."""
        if not embeds:
            return None
        description = str(embeds[0].get("description") or "")
        said = description
        for item in items:
            if item.kind is not RollKind.STABILITY_TEST or item.roll_seq is None:
                continue
            noted = self._rolled.get((guild_id, item.character_id, item.roll_seq))
            if noted is not None:
                said = replace_call_line(said, *noted)
        if said == description:
            return None
        return [{**embeds[0], "description": said}, *embeds[1:]]

    def _changed(self, guild_id: int, character_ids: tuple[int, ...]) -> None:
        task = asyncio.current_task()
        for character_id in character_ids:
            self._changed_by.put((guild_id, character_id), task)
        if self._closed or not character_ids or guild_id in self._without:
            return
        self._due.setdefault(guild_id, set()).update(character_ids)
        self._pacer.submit(("sweep", guild_id), partial(self._sweep, guild_id))

    async def close(self) -> None:
        """Stop following changes (the sweeps under way are the pacer's to finish, at most
        1 s): a message left undone is swept with its character's next change."""
        self._closed = True

    async def _sweep(self, guild_id: int) -> None:
        """The server's sweep, run by the pacer, for the characters of every change since
        the last one."""
        character_ids = sorted(self._due.pop(guild_id, ()))
        if not character_ids:
            return
        try:
            await self._disable_stale(guild_id, character_ids)
        except (RateLimited, StorageUnreachable):
            # Swept again after retry_after (or once the database is back: the pacer's
            # retry): what was done is forgotten already.
            self._due.setdefault(guild_id, set()).update(character_ids)
            raise
        except Exception:
            log.exception("could not disable old roll buttons in guild %s", guild_id)

    async def _disable_stale(self, guild_id: int, character_ids: list[int]) -> None:
        storage = self._storage
        async with storage.read(Ticket(("sweep", guild_id), None)) as reader:
            if not await has_roll_messages(reader, guild_id):
                self._without.put(guild_id, True)
                return
            rows = await messages_to_sweep(reader, guild_id, character_ids)
        by_message: dict[tuple[int, int], list[tuple[RollMessage, bool]]] = {}
        for item, stale in rows:
            by_message.setdefault((item.channel_id, item.message_id), []).append((item, stale))
        done: list[RollMessage] = []
        try:
            for (channel_id, message_id), items in by_message.items():
                stale_items = [item for item, stale in items if stale]
                if stale_items and await self._disable(channel_id, message_id, items):
                    done += stale_items
        finally:
            if done:
                async with storage.transaction(require_record=False) as tx:
                    await forget_roll_messages(tx, done)

    async def _disable(
        self, channel_id: int, message_id: int, items: list[tuple[RollMessage, bool]]
    ) -> bool:
        """Edit one message (``items``: its kept rolls, each with whether it is stale); True
        when it is done with (edited, or gone for good)."""
        pacer = self._pacer
        if pacer.refused(channel_id):
            return True  # the bot may not edit there: forgotten without asking again
        sent = next((item.components for item, _ in items if item.components), None)
        kept = [item for item, _ in items]
        guild_id = kept[0].guild_id
        # A Stability call whose line must say how a test was rolled needs its embeds: only
        # then (and for a message kept before the bot kept what it sent) is it read first.
        noted = self._has_rolled_note(guild_id, kept)
        try:
            embeds: list[dict[str, Any]] = []
            if sent is not None and not noted:
                components, changed = self._live(sent, items)
            else:
                message = await message_payload(pacer, channel_id, message_id)
                embeds = list(message.get("embeds") or [])
                if sent is not None:
                    components, changed = self._live(sent, items)
                else:
                    stale = [item for item, is_stale in items if is_stale]
                    components, changed = self._disabled_in(message, stale)
            said = self._said_rolled(guild_id, embeds, kept) if noted else None
            if changed or said is not None:
                edits: dict[str, Any] = {"components": components}
                if said is not None:
                    edits["embeds"] = said
                await edit_message(pacer, channel_id, message_id, edits)
        except discord.HTTPException as error:
            if is_gone(error):
                log.info(
                    "roll buttons of message %s can no longer be edited: forgotten", message_id
                )
                return True
            log.warning("could not disable the roll buttons of message %s: %s", message_id, error)
            return False
        return True

    def _live(
        self, sent: str, items: list[tuple[RollMessage, bool]]
    ) -> tuple[list[dict[str, Any]], bool]:
        """The components the bot sent, every roll button disabled but the live ones."""
        live = {(i.kind, i.character_id, i.roll_seq) for i, stale in items if not stale}
        return _live_components(json.loads(sent), live, self._ids)

    def _disabled_in(
        self, message: Mapping[str, Any], stale_items: list[RollMessage]
    ) -> tuple[list[dict[str, Any]], bool]:
        """The components of a message read from Discord, the ``stale_items``' buttons
        disabled."""
        components = list(message.get("components") or [])
        changed = False
        for kind, custom_id in self._ids.items():
            stale: set[tuple[int, int | None]] = {
                (i.character_id, i.roll_seq) for i in stale_items if i.kind is kind
            }
            if stale:
                components, edited = _disabled_components(components, stale, custom_id)
                changed = changed or edited
        return components, changed

    def _has_rolled_note(self, guild_id: int, items: list[RollMessage]) -> bool:
        """Whether a call's line of one of these tests waits to say how it was rolled."""
        return any(
            item.kind is RollKind.STABILITY_TEST
            and item.roll_seq is not None
            and self._rolled.get((guild_id, item.character_id, item.roll_seq)) is not None
            for item in items
        )
