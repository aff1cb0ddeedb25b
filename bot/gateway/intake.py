"""Where Discord's events come in: each gateway event's parser is guarded, every interaction
is built with what Salud keeps of it, and from a stop signal on interactions are answered
"restarting".

discord.py turns each gateway event into objects with one parser per event type
(``ConnectionState.parsers``); an exception there (a member object without ``roles``) would
end the whole connection, and the process with it. ``Intake`` wraps each parser: a malformed
event is logged once, with its type, and skipped.

An ``INTERACTION_CREATE`` is built as a ``SaludInteraction`` (``bot.interaction.context``)
which holds the moment Discord created it (``time.monotonic()`` when it was read, less
how long it waited unread, ``bot.gateway.discord_clock``: a frozen process must not take old
interactions for fresh ones), the role ids its
member carried, the services, and its storage ``Ticket``: its storage calls queue with its
server's, and acknowledge it (``bot.interaction.deferral.acknowledge``) when an answer
could otherwise no longer reach Discord in time. At most ``MAX_OPEN_PER_SERVER`` of a
server's interactions run at once; more are answered "busy".

Once ``stop()`` was called (SIGTERM, SIGINT) a new interaction is not handed to discord.py at
all: it is answered with the ephemeral "restarting" and changes nothing. ``drain`` waits for
the interactions in flight, including those answers, so that no change is stored without its
reply (COMMANDS.md, Stopping).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import time
import traceback
from collections import Counter, deque
from collections.abc import Callable, Coroutine, Hashable
from typing import Any

import discord

from bot.discord_rest.raw_answers import Answer, answer_raw
from bot.gateway.discord_clock import DiscordClock
from bot.gateway.odd_interactions import answerable, odd_interaction
from bot.gateway.presses import reaches_a_button
from bot.i18n import text, user_language
from bot.interaction.context import InteractionServices, SaludInteraction
from bot.interaction.deferral import DEFER_AFTER, acknowledge
from bot.storage.fair_lock import Ticket
from bot.storage.interface import StorageEngine

__all__ = ["DISCORD_DEADLINE", "Intake"]

log = logging.getLogger(__name__)

#: Seconds Discord gives an interaction's first answer (from before the bot received it).
DISCORD_DEADLINE = 3.0
#: Interactions of one server running at once, at most; more are answered "busy" at once.
#: ``make bench`` answers 200 commands in flight within 0.9 s (p99): 250 is what one server's
#: queue can serve within Discord's 3 s, and bounds what a flood puts before the others.
MAX_OPEN_PER_SERVER = 250
#: Tasks sending the refusals ("busy", "restarting"), one after another each.
REFUSAL_SENDERS = 4
#: No interaction is being handed to discord.py.
_NOBODY = object()


def _where(error: BaseException) -> str:
    """The innermost frame of an error, ``file:line in function``, for a one-line log."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    last = frames[-1]
    return f"{last.filename.rsplit('/', 1)[-1]}:{last.lineno} in {last.name}"


class Intake:
    """The guarded parsers of one bot, and its stopping state."""

    def __init__(self, bot: discord.Client, storage: StorageEngine) -> None:
        self._bot = bot
        self._storage = storage
        self._discord_clock = DiscordClock()
        #: What interactions reach (storage, dice), given once the bot has built its services.
        self.services: InteractionServices | None = None
        self.stopping = False
        self._open: Counter[Hashable] = Counter()
        self._opening: Hashable = _NOBODY
        self._counted = False
        #: Interactions to answer without running them: (payload, message key, received at).
        self._refusals: deque[tuple[Any, str, float, Answer | None]] = deque()
        self._senders: set[asyncio.Task[None]] = set()
        #: Every task created while an interaction was handed to discord.py (the command or
        #: button callback it runs), so that ``drain`` knows them without reading task names.
        self._in_flight: set[asyncio.Task[Any]] = set()
        parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
        for event, parser in list(parsers.items()):
            parsers[event] = self._guarded(event, parser)
        parsers["INTERACTION_CREATE"] = self._guarded("INTERACTION_CREATE", self._interaction)

    def stop(self) -> None:
        """From now on, interactions are answered "restarting" (safe to call twice)."""
        if not self.stopping:
            self.stopping = True
            if self._bot.is_ready():  # before that there were no commands to stop taking
                log.info("Taking no more commands: each new one is answered 'restarting'")

    def _guarded(self, event: str, parser: Callable[[Any], None]) -> Callable[[Any], None]:
        def guarded(data: Any) -> None:
            try:
                parser(data)
            except Exception as error:
                log.error(
                    "Skipped a malformed %s event from Discord: %s: %s (%s)",
                    event,
                    type(error).__name__,
                    error,
                    _where(error),
                )

        return guarded

    def _interaction(self, data: Any) -> None:
        read_at = time.monotonic()
        services = self.services
        odd = odd_interaction(data)
        if odd is not None:  # one Discord never sends: answered before discord.py parses it
            self._answer_odd(data, odd, read_at)  # its id teaches the clock nothing
            return
        # When Discord created it, on the monotonic clock: less what it waited unread.
        received_at = read_at - self._discord_clock.waited(_id_of(data))
        if self.stopping or services is None:
            self._refuse(data, "lifecycle.restarting", received_at)
            return
        key = _guild_key(data)
        if self._open[key] >= MAX_OPEN_PER_SERVER:
            self._refuse(data, "lifecycle.busy", received_at)
            return
        ticket = Ticket(key=key, deadline=received_at + DEFER_AFTER)
        loop = asyncio.get_running_loop()
        previous = loop.get_task_factory()
        self._opening = key
        self._counted = False
        # typeshed leaves out the context keyword that 3.11 passes; the factory takes it.
        loop.set_task_factory(self._task_factory)  # type: ignore[arg-type]
        try:
            self._dispatch(data, services, received_at, ticket)
        finally:
            loop.set_task_factory(previous)
            self._opening = _NOBODY

    def _dispatch(
        self, data: Any, services: InteractionServices, received_at: float, ticket: Ticket
    ) -> None:
        """discord.py's ``ConnectionState.parse_interaction_create`` (2.5–2.7), building a
        ``SaludInteraction``; ``tests/bot/test_gateway.py`` pins the versions it was read
        from and fails if discord.py's own parser changes."""
        state = self._bot._connection
        interaction: SaludInteraction[Any] = SaludInteraction(
            data=data,
            state=state,
            services=services,
            received_at=received_at,
            role_ids=_role_ids(data),
            ticket=ticket,
        )
        kind = data["type"]
        if kind in (2, 3):  # a command or a button: may be acknowledged late
            ticket.on_late = functools.partial(acknowledge, interaction)
        if kind in (2, 4) and state._command_tree:  # application command and autocomplete
            state._command_tree._from_interaction(interaction)
        elif kind == 3 and not reaches_a_button(state, data):  # discord.py would drop it
            self._answer_stale(data, received_at)
        elif kind == 3:  # a component
            inner = data["data"]
            state._view_store.dispatch_view(
                inner["component_type"], inner["custom_id"], interaction
            )
        elif kind == 5:  # a modal
            inner = data["data"]
            state._view_store.dispatch_modal(
                inner["custom_id"], interaction, inner["components"], inner.get("resolved", {})
            )
        state.dispatch("interaction", interaction)

    # --- how many interactions of each server are open ----------------------------------------

    def _task_factory(
        self,
        loop: asyncio.AbstractEventLoop,
        coro: Coroutine[Any, Any, Any],
        *,
        context: contextvars.Context | None = None,
    ) -> asyncio.Task[Any]:
        """Count the tasks discord.py creates for an interaction (the factory is set only
        while one is handed to discord.py: no other task of the bot goes through it)."""
        task: asyncio.Task[Any] = asyncio.Task(coro, loop=loop, context=context)
        key = self._opening
        if key is _NOBODY:
            return task
        self._in_flight.add(task)
        if self._counted:
            task.add_done_callback(self._in_flight.discard)
        else:
            self._counted = True
            self._open[key] += 1
            task.add_done_callback(functools.partial(self._closed, key))
        return task

    def _closed(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        self._in_flight.discard(task)
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]

    # --- refusals that never reach the commands ------------------------------------------------

    def _answer_odd(self, data: Any, odd: Answer, received_at: float) -> None:
        """An interaction Discord never sends as it is (``bot.gateway.odd_interactions``): its
        one-sentence answer, sent by its id and token alone, and one line of INFO."""
        if not answerable(data):
            log.info("Skipped an interaction with no id or token to answer it by")
            return
        log.info(
            "Answered an interaction Discord would not send as it is (type %s, guild %.30r,"
            " interaction %.30s) with the sentence for a malformed one",
            data.get("type"),
            data.get("guild_id"),
            data.get("id"),
        )
        key = "error.stale_button" if odd == "press" else "error.malformed_interaction"
        self._refuse(data, key, received_at, odd)

    def _answer_stale(self, data: Any, received_at: float) -> None:
        """A press no button of Salud's takes (forged, or of an id Salud never posts): the
        stale button's sentence, and one line of INFO."""
        inner = data.get("data")
        custom_id = inner.get("custom_id") if isinstance(inner, dict) else None
        log.info(
            "Answered a press of a button Salud does not post (custom id %.100r, guild %s)"
            " as a stale button",
            custom_id,
            data.get("guild_id"),
        )
        self._refuse(data, "error.stale_button", received_at)

    def _refuse(
        self, data: Any, message_key: str, received_at: float, odd: Answer | None = None
    ) -> None:
        """Answer an interaction that is not run, by a few senders in turn (a flood's
        refusals must not crowd out the commands that do run); past Discord's deadline an
        answer could not arrive, and is dropped. An ``odd`` one is answered by its id and
        token alone (discord.py could not parse it)."""
        self._refusals.append((data, message_key, received_at, odd))
        while len(self._senders) < REFUSAL_SENDERS and len(self._senders) < len(self._refusals):
            task = asyncio.get_running_loop().create_task(
                self._send_refusals(), name=f"salud-refusals-{len(self._senders)}"
            )
            self._senders.add(task)
            task.add_done_callback(self._senders.discard)

    async def _send_refusals(self) -> None:
        while self._refusals:
            data, message_key, received_at, odd = self._refusals.popleft()
            if time.monotonic() > received_at + DISCORD_DEADLINE:
                continue
            bot = self._bot
            if odd is not None:
                await self._answer_raw(data, message_key, odd)
                continue
            interaction: discord.Interaction[discord.Client] = discord.Interaction(
                data=data, state=bot._connection
            )
            try:
                if interaction.type is discord.InteractionType.autocomplete:
                    await interaction.response.autocomplete([])
                    continue
                settings = self._storage.settings_in_memory(interaction.guild_id)
                language = user_language(
                    interaction.locale,
                    settings.language if settings is not None else None,
                    interaction.guild_locale,
                )
                await interaction.response.send_message(
                    text(language, message_key),
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as error:
                log.warning("could not refuse interaction %s: %s", interaction.id, error)
            except Exception as error:  # a malformed event: logged, the senders go on
                log.error(
                    "Skipped a malformed INTERACTION_CREATE event from Discord: %s: %s (%s)",
                    type(error).__name__,
                    error,
                    _where(error),
                )

    async def _answer_raw(self, data: dict[str, Any], message_key: str, odd: Answer) -> None:
        locale, guild_locale = data.get("locale"), data.get("guild_locale")
        guild_id = data.get("guild_id")
        settings = (
            self._storage.settings_in_memory(int(guild_id))
            if isinstance(guild_id, str) and guild_id.isdigit()
            else None
        )
        language = user_language(
            locale if isinstance(locale, str) else None,
            settings.language if settings is not None else None,
            guild_locale if isinstance(guild_locale, str) else None,
        )
        try:
            await answer_raw(self._bot, data, odd, text(language, message_key))
        except discord.HTTPException as error:
            log.info("could not answer the odd interaction %.30s: %s", data.get("id"), error)

    async def drain(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the interactions in flight, also those that arrive
        meanwhile (their "restarting" answers); returns whether all finished."""
        deadline = time.monotonic() + seconds
        current = asyncio.current_task()
        told = False
        while True:
            running = [
                task
                for task in (*self._in_flight, *self._senders)
                if task is not current and not task.done()
            ]
            if not running:
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("%d interaction(s) still running after %.0f s", len(running), seconds)
                return False
            if not told:
                log.info("Waiting for %d interaction(s) in flight before closing", len(running))
                told = True
            await asyncio.wait(running, timeout=left)


def _id_of(data: Any) -> object:
    return data.get("id") if isinstance(data, dict) else None


def _guild_key(data: Any) -> int | None:
    guild_id = data.get("guild_id") if isinstance(data, dict) else None
    return int(guild_id) if isinstance(guild_id, str | int) and str(guild_id).isdigit() else None


def _role_ids(data: Any) -> frozenset[int]:
    """The role ids the interaction's member carries (none for a malformed member)."""
    member = data.get("member") if isinstance(data, dict) else None
    raw = member.get("roles") if isinstance(member, dict) else None
    return frozenset(
        int(role_id)
        for role_id in (raw if isinstance(raw, list) else ())
        if isinstance(role_id, str | int) and str(role_id).isdigit()
    )
