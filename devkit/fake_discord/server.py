# ruff: noqa: ASYNC109  (waits take an explicit timeout so tests can say how long is too long)
"""The fake Discord: REST under /api/v10 and a gateway WebSocket, on 127.0.0.1 only.

One FakeDiscord serves one bot application. Tests create servers, members and interactions
through its async API; the real bot process logs in to it over HTTP and WebSocket.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import math
import random
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from aiohttp import WSMsgType, web

from . import sharding, validation
from .ids import iso_now, snowflake
from .mentions import Pings, pings_of
from .models import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    PermissionSpec,
    permission_value,
    user_payload,
)
from .replies import EPHEMERAL, LOADING, InteractionRecord, Reply, flatten_components

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
HEARTBEAT_INTERVAL_MS = 41250
#: Discord's global rate limit: requests a second a bot may make, interactions aside.
GLOBAL_LIMIT = 50
#: Discord bans a bot from the API (every server at once) after this many invalid requests
#: (401, 403, 429) in ``INVALID_WINDOW`` seconds.
INVALID_LIMIT = 10_000
INVALID_WINDOW = 600.0
#: The statuses Discord counts as invalid requests.
INVALID_STATUSES = frozenset({401, 403, 429})
INTENT_GUILDS = sharding.INTENTS["GUILDS"]
INTENT_GUILD_MEMBERS = sharding.INTENTS["GUILD_MEMBERS"]
OPTION_TYPES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


@dataclass
class RecordedRequest:
    """One HTTP request the bot made (body parsed when JSON)."""

    method: str
    path: str
    query: dict[str, str]
    body: Any
    status: int = 0
    at: float = field(default_factory=time.monotonic)  # when it arrived


RECORD_KEY = web.RequestKey("fake_discord_record", RecordedRequest)

#: Called with every request any FakeDiscord of this process receives from its bot, its
#: body read, before it is answered: for checks that must see every payload of a session,
#: however many fakes it starts (tests/e2e/conftest.py scans each reply for internals).
#: ``requests`` keeps only the latest 5,000; a watcher sees them all.
RequestWatcher = Callable[["FakeDiscord", RecordedRequest], None]
REQUEST_WATCHERS: list[RequestWatcher] = []


@dataclass
class CommandPut:
    """One bulk overwrite of commands (`guild_id` None = global)."""

    guild_id: str | None
    body: list[dict[str, Any]]
    errors: list[str]


@dataclass
class Injection:
    """A queued failure: the next `count` requests of `route` answer `status`."""

    route: str
    status: int
    count: int
    retry_after: float
    #: When set, each 429's ``retry_after`` is drawn between ``retry_after`` and this.
    retry_after_max: float | None = None
    #: A 429 of Discord's global limit (``global: true``), not of the route.
    is_global: bool = False


@dataclass
class _Connection:
    ws: web.WebSocketResponse
    path: str
    queue: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    def send(self, payload: dict[str, Any] | None) -> None:
        self.queue.put_nowait(payload)


@dataclass
class _Session:
    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    conn: _Connection | None = None
    buffer: list[dict[str, Any]] = field(default_factory=list)
    delivered: Counter[str] = field(default_factory=Counter)  # events sent, by name

    @property
    def shard_id(self) -> int:
        return int(self.shard[0]) if self.shard else 0

    @property
    def shard_count(self) -> int:
        return int(self.shard[1]) if self.shard else 1

    def carries(self, guild_id: str | None) -> bool:
        """Whether this session's shard is the one of that server (None: DMs, shard 0)."""
        if guild_id is None:
            return self.shard_id == 0
        return sharding.shard_of(guild_id, self.shard_count) == self.shard_id


@dataclass(frozen=True)
class Raw:
    """An option value sent exactly as given, whatever the option's type: a payload Discord
    should never send (``Raw(True)`` for an integer, ``Raw("notanid")`` for a user)."""

    value: Any


class FakeError(Exception):
    """Raised by a handler: a Discord-style JSON error answer."""

    def __init__(self, status: int, code: int, message: str, **extra: Any) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = {"message": message, "code": code, **extra}


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """A JSON answer whose Content-Type is exactly application/json (discord.py requires it)."""
    response = web.Response(
        body=json.dumps(data).encode(), status=status, headers=dict(headers or {})
    )
    response.headers["Content-Type"] = "application/json"
    return response


class FakeDiscord:
    """A fake Discord for one bot application (one bot user, one set of commands)."""

    def __init__(
        self,
        *,
        port: int = 0,
        app_name: str = "Salud",
        strict: bool = True,
        interaction_deadline: float = 3.0,
        reply_timeout: float = 5.0,
        global_rate_limit: int | None = None,
        rest_latency: float = 0.0,
    ) -> None:
        self.port = port
        self.strict = strict  # reject invalid payloads with 400 as Discord would
        self.interaction_deadline = interaction_deadline
        self.reply_timeout = reply_timeout
        self.application_id = snowflake()
        self.bot_id = self.application_id
        self.owner_id = snowflake()
        self.bot_user = user_payload(self.bot_id, app_name, bot=True)
        self.bot_user.update(
            {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
        )
        self.app_name = app_name

        self.requests: list[RecordedRequest] = []
        self.unmatched: list[RecordedRequest] = []
        self.violations: list[validation.Violation] = []
        self.command_puts: list[CommandPut] = []
        self._commands: dict[str | None, list[dict[str, Any]]] = {}
        self.guilds: dict[str, FakeGuild] = {}
        self.messages: dict[str, dict[str, Any]] = {}
        self._deleted: set[str] = set()
        self._message_source: dict[str, str] = {}  # message id -> "channel" | "interaction"
        self._message_edits: dict[str, int] = {}
        self.interactions: dict[str, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}

        self.gateway_log: list[str] = []  # "IDENTIFY", "RESUME", "RESUMED", "INVALID_SESSION"…
        self.identifies = 0
        self.resumes = 0
        self.handshakes = 0  # successful IDENTIFY (READY sent) or RESUME (RESUMED sent)
        self._sessions: dict[int, _Session] = {}  # by shard id
        #: When set, a second IDENTIFY of a shard leaves the first session connected: both
        #: are sent the shard's events, interactions included, as Discord does for two
        #: processes started with the same shard (a takeover begun before the old one died).
        self.twin_sessions = False
        self._twins: list[_Session] = []  # the sessions an IDENTIFY of their shard kept
        self._invalidate_next_resume = False
        self._injections: list[Injection] = []
        #: Channels where the bot lost its permissions: posting, reading or editing a message
        #: there is answered 403 (Missing Access / Missing Permissions).
        self.forbidden_channels: set[str] = set()
        self.refuse_token = False  # answer 401 to every REST call, as Discord to a bad token
        #: Discord's global rate limit (requests a second outside interactions), when enforced:
        #: a request past it is answered 429 with ``global: true``.
        self.global_rate_limit = global_rate_limit
        #: Seconds each REST request outside interactions takes to be answered (Discord's own
        #: latency is 0.05–0.15 s): what the bot's background requests wait for.
        self.rest_latency = rest_latency
        self._global_window: deque[float] = (
            deque()
        )  # when the counted requests of the last second came
        self.global_429s = 0
        #: The most requests counted by the global limit that came in any one second.
        self.busiest_second = 0
        #: Channels whose message routes answered an injected 429, until when (monotonic);
        #: a request there before that is counted in ``early_requests``, as Discord would
        #: answer it with one more 429.
        self._route_limited: dict[str, float] = {}
        self.early_requests: list[tuple[float, str]] = []
        self._random = random.Random(24)
        #: Every invalid request (401, 403, 429) the bot made: (when, status, "METHOD path").
        self.invalid_requests: list[tuple[float, int, str]] = []
        self.diagnostics: list[Callable[[], str]] = []  # extra text for timeout errors

        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    # --- lifecycle ----------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT — what SALUD_FAKE_DISCORD_URL is set to."""
        return f"http://{HOST}:{self.port}"

    @property
    def api_url(self) -> str:
        """The REST base (discord.http.Route.BASE)."""
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """The gateway address (DiscordWebSocket.DEFAULT_GATEWAY)."""
        return f"ws://{HOST}:{self.port}/gateway"

    async def start(self) -> None:
        """Starts listening on 127.0.0.1 (a free port unless one was given)."""
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024**2)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/resume", self._gateway)
        app.router.add_post("/_fake/guilds", self._control_guild)
        app.router.add_post("/_fake/guilds/{guild_id}/members", self._control_member)
        app.router.add_post("/_fake/slash", self._control_slash)
        app.router.add_get("/_fake/state", self._control_state)
        app.router.add_route("*", "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, HOST, self.port)
        await site.start()
        server: Any = site._server  # asyncio.Server
        self.port = int(server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Closes the gateway and the HTTP server."""
        for session in list(self._sessions.values()):
            if session.conn is not None:
                session.conn.send(None)
                await session.conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # --- waiting ------------------------------------------------------------------------------
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float | None = None,
        *,
        what: str = "a condition",
        record: InteractionRecord | None = None,
    ) -> None:
        """Waits until `predicate()` holds; on timeout, an AssertionError saying what arrived."""
        timeout = self.reply_timeout if timeout is None else timeout
        try:
            async with self._changed:
                await asyncio.wait_for(self._changed.wait_for(predicate), timeout)
        except TimeoutError:
            raise AssertionError(self.describe_timeout(what, timeout, record)) from None

    def describe_timeout(self, what: str, timeout: float, record: InteractionRecord | None) -> str:
        """A report of what the fake received, for a failed wait."""
        lines = [f"Timed out after {timeout:.1f} s waiting for {what}."]
        if record is not None:
            lines.append(f"Interaction: {record.summary()}")
            if record.original_id:
                lines.append(
                    f"Original message now: {self.messages.get(record.original_id)!r:.600}"
                )
        connected = self.connected
        lines.append(
            f"Gateway: connected={connected} identifies={self.identifies} resumes={self.resumes} "
            f"log tail={self.gateway_log[-6:]}"
        )
        lines.append(f"Command syncs: {len(self.command_puts)}")
        if self.violations:
            lines.append(f"Violations: {[f'{v.where}: {v.message}' for v in self.violations[-5:]]}")
        if self.unmatched:
            lines.append(
                f"Unhandled requests: {[f'{r.method} {r.path}' for r in self.unmatched[-5:]]}"
            )
        tail = [f"{r.method} {r.path} -> {r.status}" for r in self.requests[-8:]]
        lines.append(f"Last requests: {tail}")
        for extra in self.diagnostics:
            try:
                lines.append(extra())
            except Exception as exc:  # diagnostics must never hide the real failure
                lines.append(f"(diagnostic failed: {exc!r})")
        return "\n".join(lines)

    async def wait_for_commands(self, timeout: float = 10.0, *, puts: int = 1) -> None:
        """Waits until at least `puts` bulk overwrites of commands arrived."""
        await self.wait_until(
            lambda: len(self.command_puts) >= puts, timeout, what=f"{puts} command sync(s)"
        )

    async def wait_for_handshake(self, after: int, timeout: float = 10.0) -> None:
        """Waits until `handshakes` exceeds `after` (a new READY or RESUMED was sent)."""
        await self.wait_until(
            lambda: self.handshakes > after, timeout, what="the bot to (re)connect"
        )

    @property
    def connected(self) -> bool:
        """Whether a gateway session is live right now."""
        sessions = list(self._sessions.values())
        return bool(sessions) and all(session.conn is not None for session in sessions)

    @property
    def shards(self) -> dict[int, int]:
        """Shard id -> shard count of every session IDENTIFYed (live or not)."""
        return {shard: session.shard_count for shard, session in self._sessions.items()}

    def delivered(self, event: str) -> dict[int, int]:
        """Shard id -> how many ``event`` dispatches each session was sent."""
        return {shard: session.delivered[event] for shard, session in self._sessions.items()}

    def delivered_to_twins(self, event: str) -> list[int]:
        """How many ``event`` dispatches each session kept by ``twin_sessions`` was sent."""
        return [twin.delivered[event] for twin in self._twins]

    def session_intents(self) -> dict[int, int]:
        """Shard id -> the intents its IDENTIFY asked for."""
        return {shard: session.intents for shard, session in self._sessions.items()}

    def guilds_of_shard(self, shard_id: int, shard_count: int) -> list[FakeGuild]:
        """The servers that shard carries."""
        return [g for g in self.guilds.values() if sharding.shard_of(g.id, shard_count) == shard_id]

    # --- failure injection --------------------------------------------------------------------
    def inject_failure(
        self,
        route: str = "callback",
        *,
        status: int = 500,
        count: int = 1,
        retry_after: float = 0.05,
        retry_after_max: float | None = None,
        is_global: bool = False,
    ) -> None:
        """The next `count` requests of `route` answer `status` (500, 429 with retry_after, …;
        with `retry_after_max`, each 429's retry_after drawn between the two, seeded; with
        `is_global`, a 429 of Discord's global limit).

        Routes: "callback" (POST interaction callbacks), "webhook" (followups and edits under
        /webhooks), "channel_message" (POST/PATCH /channels/{id}/messages), "commands" (command
        syncs), or "any".
        """
        self._injections.append(
            Injection(route, status, count, retry_after, retry_after_max, is_global)
        )

    def clear_injections(self) -> None:
        """Every injected failure not answered yet is dropped (a storm ends)."""
        self._injections.clear()

    @property
    def injected_left(self) -> int:
        """Injected failures not answered yet."""
        return sum(injection.count for injection in self._injections)

    def _take_injection(self, route: str) -> Injection | None:
        for injection in self._injections:
            if injection.route in (route, "any") and injection.count > 0:
                injection.count -= 1
                if injection.count == 0:
                    self._injections.remove(injection)
                return injection
        return None

    def _injected_response(
        self, injection: Injection, channel_id: str | None = None
    ) -> web.Response:
        if injection.status == 429:
            after = injection.retry_after
            if injection.retry_after_max is not None:
                after = round(self._random.uniform(after, injection.retry_after_max), 3)
            if injection.is_global:
                return _json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": after,
                        "global": True,
                    },
                    status=429,
                    headers={
                        "Retry-After": str(math.ceil(after)),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                        "Via": "1.1 google",
                    },
                )
            if channel_id is not None:  # the route's bucket: asked again before, it is early
                self._route_limited[channel_id] = time.monotonic() + after
            return _json(
                {"message": "You are being rate limited.", "retry_after": after, "global": False},
                status=429,
                headers={
                    "Retry-After": str(max(1, round(after))),
                    "X-RateLimit-Limit": "5",
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{after:.3f}",
                    "X-RateLimit-Bucket": "fakebucket",
                    "X-RateLimit-Scope": "user",
                    "Via": "1.1 google",
                },
            )
        return _json(
            {"message": f"{injection.status}: injected failure", "code": 0}, status=injection.status
        )

    async def drop_gateway(
        self, mode: Literal["resume", "invalidate", "reconnect"] = "resume", *, shard: int = 0
    ) -> None:
        """Ends the bot's gateway connection so that it must come back.

        "resume": close with code 4000; the bot RESUMEs and gets the missed events + RESUMED.
        "invalidate": same close, but the RESUME is answered INVALID_SESSION(false): the bot
        IDENTIFYs again and gets a new READY and every GUILD_CREATE.
        "reconnect": send op 7 RECONNECT (the bot closes and resumes).
        `shard`: which shard's connection (0, the only one of an unsharded bot, by default).
        """
        session = self._sessions.get(shard)
        if session is None or session.conn is None:
            raise AssertionError("drop_gateway: the bot is not connected")
        self._invalidate_next_resume = mode == "invalidate"
        conn = session.conn
        if mode == "reconnect":
            conn.send({"op": 7, "d": None})
            self.gateway_log.append("RECONNECT sent")
            return
        session.conn = None
        conn.send(None)
        self.gateway_log.append(f"closed 4000 ({mode})")
        await asyncio.wait_for(conn.ws.close(code=4000, message=b"fake drop"), 5)

    # --- gateway ------------------------------------------------------------------------------
    def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Sends a DISPATCH to the session of the server's shard (DMs: shard 0), if it asked
        for the event's intent; buffered while that session is disconnected."""
        guild_id = sharding.guild_of(event, data)
        for session in [*self._sessions.values(), *self._twins]:
            if session.carries(guild_id):
                self._send_event(session, event, data)

    def _send_event(self, session: _Session, event: str, data: dict[str, Any]) -> None:
        if not sharding.wanted(event, session.intents):
            return
        session.delivered[event] += 1
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        del session.buffer[:-2000]
        if session.conn is not None:
            session.conn.send(payload)

    async def _writer(self, conn: _Connection) -> None:
        while True:
            payload = await conn.queue.get()
            if payload is None or conn.ws.closed:
                return
            try:
                await conn.ws.send_str(json.dumps(payload))
            except (ConnectionError, RuntimeError):
                return

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Connection(ws, request.path)
        writer = asyncio.create_task(self._writer(conn))
        conn.send(
            {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fake"]}}
        )
        try:
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_gateway_message(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            for session in self._sessions.values():
                if session.conn is conn:
                    session.conn = None
                    self.gateway_log.append(f"disconnected {ws.close_code}")
            self._twins = [twin for twin in self._twins if twin.conn is not conn]
            conn.send(None)
            await asyncio.wait([writer], timeout=1)
            await self._notify()
        return ws

    async def _on_gateway_message(self, conn: _Connection, message: dict[str, Any]) -> None:
        op, data = message.get("op"), message.get("d")
        if op == 1:
            conn.send({"op": 11})
        elif op == 2:
            self._identify(conn, data or {})
        elif op == 6:
            self._resume(conn, data or {})
        elif op == 8:
            self._request_members(data or {})
        elif op in (3, 4):
            pass
        else:
            self.gateway_log.append(f"unknown op {op}")
        await self._notify()

    def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        self.identifies += 1
        session = _Session(secrets.token_hex(16), int(data.get("intents") or 0), data.get("shard"))
        self.gateway_log.append(
            "IDENTIFY" if session.shard is None else f"IDENTIFY shard {session.shard}"
        )
        refusal = self._shard_refusal(session)
        if refusal is not None:
            code, reason = refusal
            self.gateway_log.append(f"closed {code} ({reason})")
            conn.send(None)
            closing = conn.ws.close(code=code, message=reason.encode())
            asyncio.get_running_loop().create_task(closing)
            return
        old = self._sessions.get(session.shard_id)
        if old is not None and old.conn is not None and old.conn is not conn:
            if self.twin_sessions:
                self._twins.append(old)
            else:
                old.conn.send(None)
                asyncio.get_running_loop().create_task(old.conn.ws.close(code=4000))
        self._sessions[session.shard_id] = session
        session.conn = conn
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.bot_user,
            "user_settings": {},
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": f"ws://{HOST}:{self.port}/resume",
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["fake"],
            "auth": {},
            "application": {"id": self.application_id, "flags": 0},
            "_trace": ["fake-gateway"],
        }
        carried = self.guilds_of_shard(session.shard_id, session.shard_count)
        ready["guilds"] = [{"id": guild.id, "unavailable": True} for guild in carried]
        if session.shard is not None:
            ready["shard"] = session.shard
        self._send_event(session, "READY", ready)
        members = bool(session.intents & INTENT_GUILD_MEMBERS)
        for guild in carried:
            self._send_event(session, "GUILD_CREATE", guild.payload(members=members))
        self.handshakes += 1

    def _shard_refusal(self, session: _Session) -> tuple[int, str] | None:
        """Discord's close code and reason for an IDENTIFY it refuses, if it does."""
        if not 0 <= session.shard_id < session.shard_count:
            return sharding.CLOSE_INVALID_SHARD, "Invalid shard."
        carried = len(self.guilds_of_shard(session.shard_id, session.shard_count))
        if carried > sharding.MAX_GUILDS_PER_SHARD:
            return sharding.CLOSE_SHARDING_REQUIRED, "Sharding required."
        return None

    def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        self.resumes += 1
        self.gateway_log.append("RESUME")
        session = next(
            (s for s in [*self._sessions.values(), *self._twins] if s.id == data.get("session_id")),
            None,
        )
        if self._invalidate_next_resume or session is None:
            self._invalidate_next_resume = False
            self.gateway_log.append("INVALID_SESSION")
            conn.send({"op": 9, "d": False})
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.send(None)
        seq = int(data.get("seq") or 0)
        for payload in session.buffer:
            if payload["s"] > seq:
                conn.send(payload)
        session.conn = conn
        self._send_event(session, "RESUMED", {"_trace": ["fake-gateway"]})
        self.gateway_log.append("RESUMED")
        self.handshakes += 1

    def _request_members(self, data: dict[str, Any]) -> None:
        guild_ids = data.get("guild_id")
        for guild_id in guild_ids if isinstance(guild_ids, list) else [guild_ids]:
            guild = self.guilds.get(str(guild_id))
            if guild is None:
                continue
            wanted = {str(u) for u in data.get("user_ids") or []}
            query = str(data.get("query") or "").lower()
            members = [
                m.payload()
                for m in guild.members.values()
                if (not wanted or m.id in wanted) and m.name.lower().startswith(query)
            ]
            chunk: dict[str, Any] = {
                "guild_id": guild.id,
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce") is not None:
                chunk["nonce"] = data["nonce"]
            self._dispatch("GUILD_MEMBERS_CHUNK", chunk)

    @property
    def _members_intent(self) -> bool:
        return any(s.intents & INTENT_GUILD_MEMBERS for s in self._sessions.values())

    def _member_added(self, member: FakeMember) -> None:
        if self._members_intent:
            self._dispatch("GUILD_MEMBER_ADD", {**member.payload(), "guild_id": member.guild.id})

    def _member_changed(self, member: FakeMember) -> None:
        if self._members_intent:
            self._dispatch("GUILD_MEMBER_UPDATE", {**member.payload(), "guild_id": member.guild.id})

    # --- servers ------------------------------------------------------------------------------
    async def create_guild(
        self,
        *,
        name: str | None = None,
        locale: str = "en-US",
        system_channel: bool = False,
        system_channel_denies: PermissionSpec = 0,
    ) -> FakeGuild:
        """A new server the bot joins now (GUILD_CREATE), with #general and #announcements.

        Members: the owner (`guild.owner`, every permission) and the bot. The @everyone role has
        Discord's usual default permissions; the bot has a managed role of its own.
        `system_channel`: #general is the server's system channel, where the bot's role is
        denied `system_channel_denies` (flag names, as for members).
        """
        guild_id = sharding.guild_snowflake()
        owner = snowflake()
        guild = FakeGuild(self, guild_id, name or f"Test server {guild_id[-5:]}", locale, owner)
        guild.roles[guild_id] = FakeRole(
            guild_id, "@everyone", permissions=EVERYONE_PERMISSIONS, position=0
        )
        bot_role = FakeRole(
            snowflake(),
            self.app_name,
            BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_id,
        )
        guild.roles[bot_role.id] = bot_role
        for position, channel_name in enumerate(("general", "announcements")):
            channel = FakeChannel(snowflake(), guild_id, channel_name, position=position)
            guild.channels[channel.id] = channel
        if system_channel:
            guild.system_channel_id = guild.channel.id
            denied = permission_value(system_channel_denies)
            if denied:
                guild.channel.overwrites.append(
                    {"id": bot_role.id, "type": 0, "allow": "0", "deny": str(denied)}
                )
        guild.members[owner] = FakeMember(owner, "Owner", guild)
        guild.members[self.bot_id] = FakeMember(
            self.bot_id, self.app_name, guild, [bot_role.id], bot=True
        )
        self.guilds[guild_id] = guild
        self._dispatch("GUILD_CREATE", guild.payload(members=self._members_intent, joined=True))
        await self._notify()
        return guild

    async def remove_guild(self, guild: FakeGuild) -> None:
        """The bot is removed from the server (GUILD_DELETE)."""
        self.guilds.pop(guild.id, None)
        self._dispatch("GUILD_DELETE", {"id": guild.id})
        await self._notify()

    def _channel(self, channel_id: str) -> FakeChannel | None:
        for guild in self.guilds.values():
            if channel_id in guild.channels:
                return guild.channels[channel_id]
        return None

    # --- commands -----------------------------------------------------------------------------
    @property
    def commands(self) -> list[dict[str, Any]]:
        """The global commands as last synced (with ids), [] before any sync."""
        return self._commands.get(None, [])

    def guild_commands(self, guild_id: str) -> list[dict[str, Any]]:
        """A server's guild commands as last synced."""
        return self._commands.get(guild_id, [])

    @property
    def command_errors(self) -> list[str]:
        """Validation problems of every command sync so far."""
        return [e for put in self.command_puts for e in put.errors]

    def find_command(self, guild_id: str | None, name: str) -> dict[str, Any]:
        """The synced chat-input command `name` (guild commands first)."""
        candidates = (
            [*self._commands.get(guild_id, []), *self.commands] if guild_id else self.commands
        )
        for command in candidates:
            if command.get("name") == name and command.get("type", 1) == 1:
                return command
        known = sorted(c.get("name", "?") for c in candidates)
        raise AssertionError(
            f"/{name} is not among the synced commands {known} (syncs: {len(self.command_puts)})"
        )

    def _store_commands(
        self, guild_id: str | None, body: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        old = {(c.get("type", 1), c.get("name")): c for c in self._commands.get(guild_id, [])}
        stored = []
        for command in body:
            command = copy.deepcopy(command)
            previous = old.get((command.get("type", 1), command.get("name")))
            command["id"] = previous["id"] if previous else snowflake()
            command["application_id"] = self.application_id
            command["version"] = snowflake()
            command.setdefault("type", 1)
            command.setdefault("description", "")
            command.setdefault("options", [])
            command.setdefault("default_member_permissions", None)
            command.setdefault("nsfw", False)
            if guild_id:
                command["guild_id"] = guild_id
            else:
                command.setdefault("contexts", None)
                command.setdefault("integration_types", [0])
                command.setdefault("dm_permission", True)
            stored.append(command)
        self._commands[guild_id] = stored
        return stored

    # --- messages -----------------------------------------------------------------------------
    def message(self, message_id: str) -> dict[str, Any] | None:
        """A message as stored now (None if unknown or deleted)."""
        if message_id in self._deleted:
            return None
        return self.messages.get(message_id)

    def delete_message(self, message_id: str) -> None:
        """Someone deleted the message in Discord (the bot's later GET/PATCH get 404)."""
        self._deleted.add(message_id)

    def channel_messages(
        self, channel_id: str, *, include_interactions: bool = False
    ) -> list[dict[str, Any]]:
        """Messages in a channel, oldest first.

        Those the bot posted with POST /channels/{id}/messages, plus non-ephemeral interaction
        responses and followups when `include_interactions`.
        """
        found = []
        for mid, message in self.messages.items():
            if message.get("channel_id") != channel_id or mid in self._deleted:
                continue
            if self._message_source.get(mid) == "channel" or (
                include_interactions and not message.get("flags", 0) & EPHEMERAL
            ):
                found.append(message)
        return found

    async def wait_channel_messages(
        self, channel_id: str, count: int = 1, timeout: float = 5.0
    ) -> list[dict[str, Any]]:
        """Waits until the bot posted at least `count` messages in the channel."""
        await self.wait_until(
            lambda: len(self.channel_messages(channel_id)) >= count,
            timeout,
            what=f"{count} message(s) posted in channel {channel_id}",
        )
        return self.channel_messages(channel_id)

    def _new_message(
        self,
        payload: dict[str, Any],
        *,
        channel_id: str,
        source: str,
        record: InteractionRecord | None = None,
        message_type: int = 0,
        flags: int | None = None,
    ) -> dict[str, Any]:
        channel = self._channel(channel_id)
        message: dict[str, Any] = {
            "id": snowflake(),
            "channel_id": channel_id,
            "author": self.bot_user,
            "content": payload.get("content") or "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(payload.get("tts")),
            **_mention_fields(self._guild_member_users(channel_id), pings_of(payload)),
            "attachments": [],
            "embeds": [_stored_embed(e) for e in payload.get("embeds") or []],
            "components": payload.get("components") or [],
            "pinned": False,
            "type": message_type,
            "flags": (payload.get("flags") or 0) if flags is None else flags,
        }
        if channel is not None:
            message["guild_id"] = channel.guild_id
        if "poll" in payload:
            message["poll"] = payload["poll"]
        if record is not None:
            member = record.payload.get("member") or {}
            message["webhook_id"] = self.application_id
            message["application_id"] = self.application_id
            message["interaction_metadata"] = {
                "id": record.id,
                "type": record.payload["type"],
                # In a DM Discord sends a user, not a member.
                "user": member.get("user") or record.payload.get("user"),
                "authorizing_integration_owners": record.payload.get(
                    "authorizing_integration_owners", {}
                ),
                **({"name": record.label.lstrip("/")} if record.payload["type"] == 2 else {}),
                **(
                    {"interacted_message_id": record.source_message_id}
                    if record.source_message_id
                    else {}
                ),
            }
        self.messages[message["id"]] = message
        self._message_source[message["id"]] = source
        self._message_edits[message["id"]] = 0
        return message

    def _guild_member_users(self, channel_id: str) -> dict[str, dict[str, Any]]:
        """The user objects of the members of the channel's server, by id."""
        channel = self._channel(channel_id)
        guild = self.guilds.get(channel.guild_id) if channel is not None else None
        if guild is None:
            return {}
        return {uid: member.user_payload() for uid, member in guild.members.items()}

    def _edit_message(self, message_id: str, payload: dict[str, Any]) -> dict[str, Any]:
        message = self.messages[message_id]
        if "content" in payload:
            message["content"] = payload["content"] or ""
            users = self._guild_member_users(str(message["channel_id"]))
            message.update(_mention_fields(users, pings_of(payload)))
        if "embeds" in payload:
            message["embeds"] = [_stored_embed(e) for e in payload["embeds"] or []]
        if "components" in payload:
            message["components"] = payload["components"] or []
        if "attachments" in payload:
            message["attachments"] = []
        message["flags"] = message.get("flags", 0) & ~LOADING
        message["edited_timestamp"] = iso_now()
        self._message_edits[message_id] = self._message_edits.get(message_id, 0) + 1
        for record in self.interactions.values():
            if record.original_id == message_id and record.callback_type is not None:
                record.original_edits += 1
                if record.filled_at is None:
                    record.filled_at = asyncio.get_running_loop().time()
        return message

    # --- validation helpers -------------------------------------------------------------------
    def _violate(self, where: str, problems: Iterable[str], *, rejected: bool) -> list[str]:
        problems = list(problems)
        for problem in problems:
            self.violations.append(validation.Violation(where, problem, rejected and self.strict))
            log.warning("fake discord: %s: %s", where, problem)
        return problems

    def _check_message(
        self, where: str, payload: dict[str, Any], schema: str, *, creating: bool
    ) -> None:
        problems = self._violate(
            where, validation.message_errors(payload, schema, creating=creating), rejected=True
        )
        self._violate(where, validation.policy_errors(payload), rejected=False)
        if problems and self.strict:
            raise FakeError(400, 50035, "Invalid Form Body", errors={"_errors": problems})

    # --- HTTP ---------------------------------------------------------------------------------
    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        if request.path in ("/gateway", "/resume") or request.path.startswith("/_fake/"):
            response: web.StreamResponse = await handler(request)
            return response
        record = RecordedRequest(request.method, request.path, dict(request.query), None)
        self.requests.append(record)
        del self.requests[:-5000]
        request[RECORD_KEY] = record
        try:
            record.body = await _read_body(request)
            for watcher in tuple(REQUEST_WATCHERS):
                watcher(self, record)
            limited = self._over_global_limit(request.path)
            if limited is None and self.rest_latency and not self._interaction_path(request.path):
                await asyncio.sleep(self.rest_latency)
            response = limited if limited is not None else await handler(request)
        except FakeError as exc:
            response = _json(exc.body, status=exc.status)
        except Exception as exc:  # a bug in the fake: answer 500 JSON, keep the trace in the log
            log.exception("fake discord handler failed")
            self.violations.append(
                validation.Violation(
                    f"{request.method} {request.path}", f"fake error {exc!r}", False
                )
            )
            response = _json({"message": f"fake error {exc!r}", "code": 0}, status=500)
        record.status = response.status
        if response.status in INVALID_STATUSES:
            self.invalid_requests.append(
                (record.at, response.status, f"{record.method} {record.path}")
            )
        await self._notify()
        return response

    # --- Discord's global rate limit and its ban ----------------------------------------------
    def _over_global_limit(self, path: str) -> web.Response | None:
        """The 429 of Discord's global rate limit for a request past ``global_rate_limit`` in
        the last second; None when the request may go on (and counts). Interaction callbacks
        and the interaction webhooks (followups, the original response) are not bound by it,
        as in Discord."""
        limit = self.global_rate_limit
        if self._interaction_path(path):
            return None
        now = time.monotonic()
        window = self._global_window
        while window and window[0] <= now - 1.0:
            window.popleft()
        if limit is None or len(window) < limit:
            window.append(now)
            self.busiest_second = max(self.busiest_second, len(window))
            return None
        self.global_429s += 1
        after = round(window[0] + 1.0 - now, 3) or 0.001
        return _json(
            {"message": "You are being rate limited.", "retry_after": after, "global": True},
            status=429,
            headers={
                "Retry-After": str(math.ceil(after)),
                "X-RateLimit-Global": "true",
                "X-RateLimit-Scope": "global",
                "Via": "1.1 google",
            },
        )

    def busiest_second_since(
        self, since: float, where: Callable[[RecordedRequest], bool] = lambda _: True
    ) -> int:
        """The most requests that Discord's global limit counts (refused ones included) that
        arrived in any one second since ``since`` (``time.monotonic()``), whichever process
        of the bot sent them; ``where``: only those it accepts."""
        times = [
            r.at
            for r in self.requests
            if r.at >= since and not self._interaction_path(r.path) and where(r)
        ]
        most = start = 0
        for end, at in enumerate(times):
            while times[start] <= at - 1.0:
                start += 1
            most = max(most, end - start + 1)
        return most

    def _interaction_path(self, path: str) -> bool:
        """Whether ``path`` answers an interaction (its callback, its webhook), or is no REST
        route at all: what Discord's global limit does not count."""
        return not path.startswith("/api/v10/") or path.startswith(
            ("/api/v10/interactions/", f"/api/v10/webhooks/{self.application_id}/")
        )

    def invalid_in_window(self, window: float = INVALID_WINDOW) -> int:
        """The most invalid requests (401, 403, 429) the bot made in any ``window`` seconds
        so far: what Discord compares with ``INVALID_LIMIT`` before banning it."""
        times = [at for at, _, _ in self.invalid_requests]
        most = 0
        start = 0
        for end, at in enumerate(times):
            while times[start] <= at - window:
                start += 1
            most = max(most, end - start + 1)
        return most

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if not path.startswith("/api/v10/"):
            return self._unmatched(request)
        parts = path[len("/api/v10/") :].split("/")
        method = request.method
        if self.refuse_token:
            raise FakeError(401, 0, "401: Unauthorized")
        body = request[RECORD_KEY].body
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return _json(self.bot_user)
            case ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]):
                return _json(self._application())
            case ("GET", ["gateway"]):
                return _json({"url": f"ws://{HOST}:{self.port}/gateway"})
            case ("GET", ["gateway", "bot"]):
                return _json(
                    {
                        "url": f"ws://{HOST}:{self.port}/gateway",
                        "shards": sharding.recommended_shards(len(self.guilds)),
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 999,
                            "reset_after": 14400000,
                            "max_concurrency": 1,
                        },
                    }
                )
            case ("PUT", ["applications", app, "commands"]):
                return self._put_commands(request, app, None, body)
            case ("PUT", ["applications", app, "guilds", gid, "commands"]):
                return self._put_commands(request, app, gid, body)
            case ("GET", ["applications", app, "commands"]) if app == self.application_id:
                return _json(self.commands)
            case ("GET", ["applications", app, "guilds", gid, "commands"]) if (
                app == self.application_id
            ):
                return _json(self.guild_commands(gid))
            case ("POST", ["interactions", iid, token, "callback"]):
                return self._callback(request, iid, token, body)
            case (_, ["webhooks", app, token, *rest]) if app == self.application_id:
                return self._webhook(request, token, rest, body)
            case ("POST", ["channels", cid, "messages"]):
                return self._post_channel_message(cid, body)
            case ("GET", ["channels", cid, "messages"]):
                return self._list_channel_messages(request, cid)
            case ("GET" | "PATCH" | "DELETE", ["channels", cid, "messages", mid]):
                return self._channel_message(request, cid, mid, body)
            case ("GET", ["channels", cid]):
                channel = self._channel(cid)
                if channel is None:
                    raise FakeError(404, 10003, "Unknown Channel")
                return _json(channel.payload())
            case ("GET", ["guilds", gid]):
                guild = self.guilds.get(gid)
                if guild is None:
                    raise FakeError(404, 10004, "Unknown Guild")
                payload = guild.payload(members=False)
                for key in ("members", "channels", "threads", "presences", "voice_states"):
                    payload.pop(key, None)
                return _json(payload)
            case ("GET", ["guilds", gid, "members", uid]):
                guild = self.guilds.get(gid)
                if guild is None or uid not in guild.members:
                    raise FakeError(404, 10007, "Unknown Member")
                return _json(guild.members[uid].payload())
            case ("GET", ["guilds", gid, "channels"]):
                guild = self.guilds.get(gid)
                if guild is None:
                    raise FakeError(404, 10004, "Unknown Guild")
                return _json([c.payload() for c in guild.channels.values()])
            case ("GET", ["guilds", gid, "roles"]):
                guild = self.guilds.get(gid)
                if guild is None:
                    raise FakeError(404, 10004, "Unknown Guild")
                return _json([r.payload() for r in guild.roles.values()])
            case ("GET", ["users", uid]):
                for guild in self.guilds.values():
                    if uid in guild.members:
                        return _json(guild.members[uid].user_payload())
                raise FakeError(404, 10013, "Unknown User")
        return self._unmatched(request)

    def _unmatched(self, request: web.Request) -> web.Response:
        self.unmatched.append(request[RECORD_KEY])
        log.warning("fake discord: unhandled %s %s", request.method, request.path)
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def _application(self) -> dict[str, Any]:
        owner = user_payload(self.owner_id, "App Owner")
        return {
            "id": self.application_id,
            "name": self.app_name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": owner,
            "team": None,
            "flags": 0,
            "rpc_origins": [],
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "bot": self.bot_user,
            "integration_types_config": {"0": {}},
        }

    def _put_commands(
        self, request: web.Request, app: str, guild_id: str | None, body: Any
    ) -> web.Response:
        if app != self.application_id:
            raise FakeError(403, 50001, "Missing Access")
        injection = self._take_injection("commands")
        if injection is not None:
            return self._injected_response(injection)
        where = f"PUT {request.path}"
        errors = validation.check_commands(body)
        self._violate(where, errors, rejected=True)
        self.command_puts.append(
            CommandPut(guild_id, copy.deepcopy(body) if isinstance(body, list) else [], errors)
        )
        if errors and self.strict:
            raise FakeError(400, 50035, "Invalid Form Body", errors={"_errors": errors})
        return _json(self._store_commands(guild_id, body))

    # --- interaction callbacks ----------------------------------------------------------------
    def _callback(
        self, request: web.Request, iid: str, token: str, body: Any
    ) -> web.StreamResponse:
        injection = self._take_injection("callback")
        if injection is not None:
            return self._injected_response(injection)
        record = self.interactions.get(iid)
        if record is None or record.token != token:
            raise FakeError(404, 10062, "Unknown interaction")
        if record.callback_type is not None:
            record.errors.append("40060 already acknowledged")
            raise FakeError(400, 40060, "Interaction has already been acknowledged.")
        now = asyncio.get_running_loop().time()
        if now - record.created > self.interaction_deadline:
            record.errors.append(f"10062 first response after {now - record.created:.2f} s")
            raise FakeError(404, 10062, "Unknown interaction")
        where = f"callback {record.label}"
        problems = self._violate(where, validation.callback_errors(body), rejected=True)
        data = body.get("data") if isinstance(body, dict) else None
        if isinstance(data, dict) and body.get("type") in (4, 7):
            self._violate(where, validation.policy_errors(data), rejected=False)
        if problems and self.strict:
            record.errors.append("50035 invalid callback")
            raise FakeError(400, 50035, "Invalid Form Body", errors={"_errors": problems})

        kind = int(body["type"])
        data = data if isinstance(data, dict) else {}
        record.callback_type, record.callback_body, record.callback_at = kind, body, now
        channel_id = str(record.payload["channel_id"])
        message: dict[str, Any] | None = None
        if kind == 4:
            message = self._new_message(
                data,
                channel_id=channel_id,
                source="interaction",
                record=record,
                message_type=20 if record.payload["type"] == 2 else 0,
            )
        elif kind == 5:
            flags = (int(data.get("flags") or 0) & EPHEMERAL) | LOADING
            message = self._new_message(
                {},
                channel_id=channel_id,
                source="interaction",
                record=record,
                message_type=20 if record.payload["type"] == 2 else 0,
                flags=flags,
            )
        elif kind in (6, 7) and record.source_message_id:
            message = self.message(record.source_message_id)
            if kind == 7 and message is not None:
                message = self._edit_message(record.source_message_id, data)
        if message is not None:
            record.original_id = message["id"]
        if "with_response" not in request.query:
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": record.id,
                "type": record.payload["type"],
                **(
                    {
                        "response_message_id": message["id"],
                        "response_message_loading": kind == 5,
                        "response_message_ephemeral": bool(message.get("flags", 0) & EPHEMERAL),
                    }
                    if message is not None
                    else {}
                ),
            }
        }
        if message is not None:
            answer["resource"] = {"type": kind, "message": message}
        return _json(answer)

    # --- webhooks (followups, original response) ----------------------------------------------
    def _webhook(
        self, request: web.Request, token: str, rest: list[str], body: Any
    ) -> web.StreamResponse:
        injection = self._take_injection("webhook")
        if injection is not None:
            return self._injected_response(injection)
        record = self._by_token.get(token)
        if record is None or record.callback_type is None:
            raise FakeError(404, 10015, "Unknown Webhook")
        method = request.method
        where = f"{method} webhook {record.label}"
        if not rest and method == "POST":
            return self._followup(request, record, body, where)
        if len(rest) != 2 or rest[0] != "messages":
            return self._unmatched(request)
        mid = record.original_id if rest[1] == "@original" else rest[1]
        own = {record.original_id, *record.followup_ids}
        message = self.message(mid) if mid in own and mid is not None else None
        if message is None:
            raise FakeError(404, 10008, "Unknown Message")
        if method == "GET":
            return _json(message)
        if method == "DELETE":
            self._deleted.add(message["id"])
            return web.Response(status=204)
        if method == "PATCH":
            self._check_message(where, body, "IncomingWebhookUpdateRequestPartial", creating=False)
            return _json(self._edit_message(message["id"], body))
        return self._unmatched(request)

    def _followup(
        self, request: web.Request, record: InteractionRecord, body: Any, where: str
    ) -> web.StreamResponse:
        self._check_message(where, body, "IncomingWebhookRequestPartial", creating=True)
        original = self.message(record.original_id) if record.original_id else None
        if original is not None and original.get("flags", 0) & LOADING:
            # The first followup after a deferral fills the "thinking…" message, keeping its flags.
            message = self._edit_message(original["id"], body)
        else:
            flags = int(body.get("flags") or 0) & EPHEMERAL
            message = self._new_message(
                body,
                channel_id=str(record.payload["channel_id"]),
                source="interaction",
                record=record,
                flags=flags,
            )
            record.followup_ids.append(message["id"])
            if record.filled_at is None:
                record.filled_at = asyncio.get_running_loop().time()
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(message)
        return web.Response(status=204)

    # --- channel messages (announcements) -----------------------------------------------------
    def _note_early(self, channel_id: str, what: str) -> None:
        """A request to a channel's message routes before the retry_after of its last 429."""
        until = self._route_limited.get(channel_id)
        if until is not None and time.monotonic() < until - 0.001:
            self.early_requests.append((time.monotonic(), what))

    def _post_channel_message(self, channel_id: str, body: Any) -> web.Response:
        self._note_early(channel_id, f"POST /channels/{channel_id}/messages")
        injection = self._take_injection("channel_message")
        if injection is not None:
            return self._injected_response(injection, channel_id)
        if self._channel(channel_id) is None:
            raise FakeError(404, 10003, "Unknown Channel")
        if channel_id in self.forbidden_channels:
            raise FakeError(403, 50013, "Missing Permissions")
        self._check_message(
            f"POST /channels/{channel_id}/messages", body, "MessageCreateRequest", creating=True
        )
        flags = int(body.get("flags") or 0) & ~EPHEMERAL
        return _json(self._new_message(body, channel_id=channel_id, source="channel", flags=flags))

    def _list_channel_messages(self, request: web.Request, channel_id: str) -> web.Response:
        """``GET /channels/{id}/messages?after=&limit=``: the channel's messages after a
        snowflake, oldest first as Discord sends them for ``after`` (ephemeral ones never)."""
        if self._channel(channel_id) is None:
            raise FakeError(404, 10003, "Unknown Channel")
        if channel_id in self.forbidden_channels:
            raise FakeError(403, 50001, "Missing Access")
        after = int(request.query.get("after") or 0)
        limit = max(1, min(100, int(request.query.get("limit") or 50)))
        found = [
            message
            for mid, message in self.messages.items()
            if message.get("channel_id") == channel_id
            and int(mid) > after
            and mid not in self._deleted
            and not message.get("flags", 0) & EPHEMERAL
        ]
        found.sort(key=lambda message: int(message["id"]))
        return _json(found[:limit])

    def _channel_message(
        self, request: web.Request, channel_id: str, mid: str, body: Any
    ) -> web.StreamResponse:
        self._note_early(channel_id, f"{request.method} /channels/{channel_id}/messages/{mid}")
        if request.method == "PATCH":
            injection = self._take_injection("channel_message")
            if injection is not None:
                return self._injected_response(injection, channel_id)
        if channel_id in self.forbidden_channels:
            raise FakeError(403, 50001, "Missing Access")
        message = self.message(mid)
        if (
            message is None
            or message.get("channel_id") != channel_id
            or message.get("flags", 0) & EPHEMERAL
        ):
            raise FakeError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return _json(message)
        if request.method == "DELETE":
            self._deleted.add(mid)
            return web.Response(status=204)
        self._check_message(
            f"PATCH /channels/{channel_id}/messages/{mid}",
            body,
            "MessageEditRequestPartial",
            creating=False,
        )
        return _json(self._edit_message(mid, body))

    # --- interactions (test API) --------------------------------------------------------------
    def _base_interaction(
        self,
        kind: int,
        guild: FakeGuild,
        member: FakeMember,
        channel: FakeChannel | None,
        locale: str | None,
    ) -> dict[str, Any]:
        channel = channel or guild.channel
        bot = guild.bot_member
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": kind,
            "guild_id": guild.id,
            "guild": {"id": guild.id, "locale": guild.locale, "features": []},
            "channel_id": channel.id,
            "channel": {**channel.payload(), "permissions": str(member.permissions)},
            "member": member.payload(with_permissions=True),
            "token": "",
            "version": 1,
            "app_permissions": str(bot.permissions),
            "locale": locale or member.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": guild.id},
            "context": 0,
            "attachment_size_limit": 10485760,
        }

    def _send_interaction(
        self, payload: dict[str, Any], label: str, source: str | None = None
    ) -> Reply:
        guild_id = payload.get("guild_id")
        if not any(s.carries(guild_id) for s in self._sessions.values()):
            raise AssertionError(
                f"cannot send {label}: no gateway session carries server {guild_id}"
            )
        record = InteractionRecord(
            id=payload["id"],
            token=f"{payload['id']}.{secrets.token_urlsafe(24)}",
            label=label,
            payload=payload,
            created=asyncio.get_running_loop().time(),
            source_message_id=source,
        )
        payload["token"] = record.token
        self.interactions[record.id] = record
        self._by_token[record.token] = record
        self._dispatch("INTERACTION_CREATE", payload)
        return Reply(self, record)

    def build_command_data(
        self,
        guild: FakeGuild,
        command: str,
        options: Mapping[str, Any] | None,
        *,
        focused: str | None = None,
    ) -> dict[str, Any]:
        """The `data` of an application command interaction, typed from the synced definition."""
        names = command.strip().lstrip("/").split()
        definition = self.find_command(guild.id, names[0])
        resolved: dict[str, dict[str, Any]] = {}
        level = definition
        chain: list[dict[str, Any]] = []
        for name in names[1:]:
            sub = next(
                (
                    o
                    for o in level.get("options") or []
                    if o.get("name") == name and o.get("type") in (1, 2)
                ),
                None,
            )
            if sub is None:
                subs = [
                    o.get("name") for o in level.get("options") or [] if o.get("type") in (1, 2)
                ]
                raise AssertionError(
                    f"/{command}: {name!r} is not a subcommand of {level['name']!r} ({subs})"
                )
            chain.append(sub)
            level = sub
        defined = {o["name"]: o for o in level.get("options") or [] if o.get("type") not in (1, 2)}
        leaf_options = []
        for name, value in (options or {}).items():
            if name not in defined:
                raise AssertionError(
                    f"/{command} has no option {name!r}; options: {sorted(defined)}"
                )
            option_type = int(defined[name]["type"])
            entry: dict[str, Any] = {"name": name, "type": option_type}
            if name == focused:
                entry["value"] = str(value)
                entry["focused"] = True
            else:
                entry["value"] = _option_value(option_type, value, guild, resolved)
            leaf_options.append(entry)
        if focused is not None and focused not in (options or {}):
            raise AssertionError(f"focused option {focused!r} must be given a (partial) value")
        nested: list[dict[str, Any]] = leaf_options
        for sub in reversed(chain):
            nested = [{"name": sub["name"], "type": sub["type"], "options": nested}]
        data: dict[str, Any] = {
            "id": definition["id"],
            "name": definition["name"],
            "type": 1,
            "options": nested,
        }
        if definition.get("guild_id"):
            data["guild_id"] = definition["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(
        self,
        guild: FakeGuild,
        member: FakeMember,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
        channel: FakeChannel | None = None,
        wait: Literal["final", "callback", "none"] = "final",
        timeout: float | None = None,
    ) -> Reply:
        """Uses a slash command ("character create") with option values only; returns the Reply."""
        payload = self._base_interaction(2, guild, member, channel, locale)
        payload["data"] = self.build_command_data(guild, command, options)
        reply = self._send_interaction(payload, "/" + command.strip().lstrip("/"))
        return await self._wait_reply(reply, wait, timeout)

    async def autocomplete(
        self,
        guild: FakeGuild,
        member: FakeMember,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        locale: str | None = None,
        channel: FakeChannel | None = None,
        timeout: float | None = None,
    ) -> list[dict[str, Any]]:
        """Types in an autocomplete option; returns the choices ({name, value, …})."""
        payload = self._base_interaction(4, guild, member, channel, locale)
        payload["data"] = self.build_command_data(guild, command, options, focused=focused)
        reply = self._send_interaction(
            payload, f"autocomplete /{command.strip().lstrip('/')} {focused}"
        )
        await reply.wait_complete(self.reply_timeout if timeout is None else timeout)
        if reply.type != 8:
            raise AssertionError(
                f"autocomplete answered with callback type {reply.type}: {reply.body}"
            )
        return reply.choices

    async def click(
        self,
        guild: FakeGuild,
        member: FakeMember,
        message: Reply | dict[str, Any],
        custom_id: str,
        *,
        locale: str | None = None,
        wait: Literal["final", "callback", "none"] = "final",
        timeout: float | None = None,
    ) -> Reply:
        """Presses the button `custom_id` on a message (a dict, or a Reply whose original or
        followups carry it); returns the Reply (type 7 → `reply.message` is the updated message)."""
        target = self._message_with_component(message, custom_id)
        component = next(
            c
            for c in flatten_components(target.get("components"))
            if c.get("custom_id") == custom_id
        )
        channel = self._channel(str(target["channel_id"]))
        payload = self._base_interaction(3, guild, member, channel, locale)
        payload["message"] = copy.deepcopy(target)
        payload["data"] = {"custom_id": custom_id, "component_type": component.get("type", 2)}
        if component.get("id") is not None:
            payload["data"]["id"] = component["id"]
        if component.get("type") in (3, 5, 6, 7, 8):
            payload["data"]["values"] = []
        reply = self._send_interaction(payload, f"click {custom_id}", source=target["id"])
        return await self._wait_reply(reply, wait, timeout)

    def _message_with_component(
        self, message: Reply | dict[str, Any], custom_id: str
    ) -> dict[str, Any]:
        candidates: list[dict[str, Any]]
        if isinstance(message, Reply):
            candidates = [m for m in [message.message, *message.followups] if m is not None]
        else:
            current = self.message(str(message.get("id")))
            candidates = [current or message]
        for candidate in candidates:
            if any(
                c.get("custom_id") == custom_id
                for c in flatten_components(candidate.get("components"))
            ):
                return candidate
        found = [
            c.get("custom_id") for m in candidates for c in flatten_components(m.get("components"))
        ]
        raise AssertionError(f"no component {custom_id!r} on the message(s); custom_ids: {found}")

    async def _wait_reply(self, reply: Reply, wait: str, timeout: float | None) -> Reply:
        timeout = self.reply_timeout if timeout is None else timeout
        if wait == "final":
            await reply.wait_complete(timeout)
        elif wait == "callback":
            await self.wait_until(
                lambda: reply.type is not None,
                timeout,
                what=f"a callback for {reply.record.label}",
                record=reply.record,
            )
        return reply

    # --- control API for a fake run in another process (python -m devkit.fake_discord) ------------
    async def _control_guild(self, request: web.Request) -> web.Response:
        body = await request.json() if request.can_read_body else {}
        guild = await self.create_guild(name=body.get("name"), locale=body.get("locale", "en-US"))
        return _json(
            {
                "id": guild.id,
                "channel_id": guild.channel.id,
                "announcements_id": guild.announcements.id,
                "owner_id": guild.owner_id,
            }
        )

    async def _control_member(self, request: web.Request) -> web.Response:
        guild = self.guilds[request.match_info["guild_id"]]
        body = await request.json()
        member = guild.member(
            body["name"], permissions=body.get("permissions", 0), locale=body.get("locale", "en-US")
        )
        return _json({"id": member.id})

    async def _control_slash(self, request: web.Request) -> web.Response:
        body = await request.json()
        guild = self.guilds[body["guild_id"]]
        member = guild.members[body["member_id"]]
        reply = await self.slash(
            guild, member, body["command"], body.get("options") or {}, locale=body.get("locale")
        )
        return _json(
            {
                "type": reply.type,
                "latency": reply.latency,
                "ephemeral": reply.ephemeral,
                "content": reply.content,
                "embeds": reply.embeds,
                "custom_ids": reply.custom_ids,
                "followups": reply.followups,
            }
        )

    async def _control_state(self, request: web.Request) -> web.Response:
        return _json(
            {
                "connected": self.connected,
                "identifies": self.identifies,
                "resumes": self.resumes,
                "command_syncs": len(self.command_puts),
                "commands": [c["name"] for c in self.commands],
                "interactions": len(self.interactions),
                "violations": [f"{v.where}: {v.message}" for v in self.violations],
                "unmatched": [f"{r.method} {r.path}" for r in self.unmatched],
            }
        )


def _mention_fields(users: dict[str, dict[str, Any]], pings: Pings) -> dict[str, Any]:
    """A message's ``mentions``, ``mention_roles`` and ``mention_everyone``: who it pinged."""
    return {
        "mentions": [users.get(uid) or {"id": uid} for uid in pings.users],
        "mention_roles": list(pings.roles),
        "mention_everyone": pings.everyone,
    }


def _stored_embed(embed: dict[str, Any]) -> dict[str, Any]:
    stored = copy.deepcopy(embed)
    stored.setdefault("type", "rich")
    for item in stored.get("fields") or []:
        item.setdefault("inline", False)
    return stored


def _option_value(
    option_type: int, value: Any, guild: FakeGuild, resolved: dict[str, dict[str, Any]]
) -> Any:
    """An option value as Discord sends it, adding users/members/roles/channels to `resolved`."""
    if isinstance(value, Raw):
        return value.value
    if option_type == 3:
        return str(value)
    if option_type == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise AssertionError(f"integer option given {value!r}")
        return value
    if option_type == 5:
        return bool(value)
    if option_type == 10:
        return float(value) if not isinstance(value, int) else value
    if option_type in (6, 7, 8, 9):
        if isinstance(value, FakeMember) and option_type in (6, 9):
            member_data = value.payload(with_user=False, with_permissions=True)
            resolved.setdefault("users", {})[value.id] = value.user_payload()
            resolved.setdefault("members", {})[value.id] = member_data
            return value.id
        if isinstance(value, FakeRole) and option_type in (8, 9):
            resolved.setdefault("roles", {})[value.id] = value.payload()
            return value.id
        if isinstance(value, FakeChannel) and option_type == 7:
            resolved.setdefault("channels", {})[value.id] = {
                "id": value.id,
                "name": value.name,
                "type": value.type,
                "permissions": str(guild.bot_member.permissions),
                "parent_id": value.parent_id,
                "guild_id": guild.id,
            }
            if value.type in (10, 11, 12):  # a thread: as Discord resolves one
                resolved["channels"][value.id].update(
                    owner_id=guild.owner_id,
                    member_count=1,
                    message_count=0,
                    thread_metadata={
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": "2026-01-01T00:00:00+00:00",
                        "locked": False,
                    },
                )
            return value.id
        raise AssertionError(f"{OPTION_TYPES[option_type]} option given {value!r}")
    raise AssertionError(f"option type {option_type} is not supported by the fake")


async def _read_body(request: web.Request) -> Any:
    if not request.can_read_body:
        return None
    content_type = request.content_type
    if content_type == "application/json":
        return await request.json()
    if content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(str(raw)) if raw is not None else {}
    return await request.text()
