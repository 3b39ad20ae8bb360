"""The fake gateway: one websocket endpoint speaking Discord's gateway protocol v10 (JSON).

Connection flow as on Discord: HELLO (op 10, ``heartbeat_interval``) -> the client's
IDENTIFY (op 2) -> READY (guilds listed as unavailable, ``session_id``,
``resume_gateway_url``, ``application {id, flags}``) -> one GUILD_CREATE per guild.
HEARTBEAT (op 1) is answered with HEARTBEAT_ACK (op 11); RESUME (op 6) replays the
dispatches after the given sequence and sends RESUMED, or INVALID_SESSION (op 9, false)
for an unknown or closed session; REQUEST_GUILD_MEMBERS (op 8) gets one
GUILD_MEMBERS_CHUNK. Every dispatch carries the session's next sequence number ``s``.

Sharding: a session that IDENTIFYed with ``shard: [shard_id, shard_count]`` hears only of
the guilds of its shard, ``(guild_id >> 22) % shard_count == shard_id`` (READY's guild
list, GUILD_CREATE, and every event whose data names a ``guild_id``: interactions,
messages, members), as Discord routes them; sessions without ``shard`` hear of every
guild. DMs and events of no guild go to every session.

Transport compression: with ``?compress=zlib-stream`` (what discord.py asks for unless
the zstandard module is installed) every payload goes out as a binary frame of one
shared zlib stream, each ending with the Z_SYNC_FLUSH suffix ``00 00 ff ff``; without it
(or for ``zstd-stream``, which the fake cannot produce) payloads are plain text frames,
which discord.py also accepts.

Close codes used: 4001 unknown opcode, 4002 decode error, 4003 not authenticated,
4004 authentication failed, 4005 already authenticated, 4013 invalid intents,
4014 disallowed (privileged) intents.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .entities import Json
from .intents import ALL_INTENTS, GUILD_MEMBERS, GUILD_PRESENCES, GUILDS, PRIVILEGED_INTENTS

if TYPE_CHECKING:
    from .server import FakeDiscord

# Opcodes.
DISPATCH = 0
HEARTBEAT = 1
IDENTIFY = 2
PRESENCE_UPDATE = 3
VOICE_STATE_UPDATE = 4
RESUME = 6
RECONNECT = 7
REQUEST_GUILD_MEMBERS = 8
INVALID_SESSION = 9
HELLO = 10
HEARTBEAT_ACK = 11


@dataclass(eq=False)
class GatewaySession:
    """An identified gateway session: its id, intents, sequence and dispatch log."""

    id: str
    intents: int
    shard: list[int] | None
    seq: int = 0
    log: list[Json] = field(default_factory=list)
    connection: GatewayConnection | None = None
    resumable: bool = True

    def serves(self, guild_id: int) -> bool:
        """Whether events of guild ``guild_id`` go to this session: every guild without
        shard info, else the guilds of its shard (``(guild_id >> 22) % shard_count``)."""
        if not self.shard or len(self.shard) != 2 or not self.shard[1]:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    def next_dispatch(self, event: str, data: Json) -> Json:
        """Number and log the dispatch of ``event``; return the payload to send."""
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.log.append(payload)
        return payload


class GatewayConnection:
    """One websocket: sends payloads in order (compressed when asked), one at a time."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self.session: GatewaySession | None = None
        self._compressor = zlib.compressobj() if zlib_stream else None
        self._queue: asyncio.Queue[Json] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop())
        self.received: list[Json] = []
        self.client_close_code: int | None = None

    def send(self, payload: Json) -> None:
        """Queue ``payload``; it is written after everything queued before it."""
        self._queue.put_nowait(payload)

    async def drain(self) -> None:
        """Wait until every queued payload was written (or the socket closed)."""
        await self._queue.join()

    async def _write_loop(self) -> None:
        while True:
            payload = await self._queue.get()
            try:
                if not self.ws.closed:
                    text = json.dumps(payload, separators=(",", ":"))
                    if self._compressor is None:
                        await self.ws.send_str(text)
                    else:
                        chunk = self._compressor.compress(text.encode())
                        chunk += self._compressor.flush(zlib.Z_SYNC_FLUSH)
                        await self.ws.send_bytes(chunk)
            except (ConnectionError, RuntimeError):
                pass
            finally:
                self._queue.task_done()

    async def close(self, code: int, message: str = "") -> None:
        """Flush what is queued, then close the websocket with ``code``."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await asyncio.wait_for(self.drain(), 2.0)
        await self.ws.close(code=code, message=message.encode())

    async def stop(self) -> None:
        """Stop the writer task."""
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer


class Gateway:
    """All gateway sessions and connections of one fake Discord."""

    def __init__(
        self, server: FakeDiscord, *, heartbeat_interval_ms: int, privileged_intents: int
    ) -> None:
        self.server = server
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.privileged_intents = privileged_intents
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeats = 0
        self.presence_updates: list[Json] = []
        self._ready = asyncio.Event()

    @property
    def active_sessions(self) -> list[GatewaySession]:
        """Sessions with a live connection."""
        return [s for s in self.sessions.values() if s.connection is not None]

    async def wait_connected(self, timeout: float = 5.0) -> GatewaySession:
        """Wait until a session is identified or resumed and connected."""
        async with asyncio.timeout(timeout):
            while not self.active_sessions:
                self._ready.clear()
                await self._ready.wait()
        return self.active_sessions[0]

    def announce(self, event: str, data: Json, intent: int | None = GUILDS) -> None:
        """Dispatch ``event`` to every session whose intents include ``intent``; an event
        of a guild (``guild_id`` in ``data``) only to the sessions of the guild's shard
        (:meth:`GatewaySession.serves`: sessions that IDENTIFYed without ``shard`` get
        every guild's events), as Discord routes them.

        Disconnected but resumable sessions log it for replay on RESUME.
        """
        guild_id = _guild_of(event, data)
        for session in self.sessions.values():
            if not session.resumable:
                continue
            if intent is not None and not session.intents & intent:
                continue
            if guild_id is not None and not session.serves(guild_id):
                continue
            payload = session.next_dispatch(event, data)
            if session.connection is not None:
                session.connection.send(payload)

    async def dispatch(self, event: str, data: Json, *, intent: int | None = None) -> None:
        """Announce ``event`` and wait until it was written to every live connection."""
        if not self.active_sessions:
            raise RuntimeError("no bot is connected to the fake gateway")
        self.announce(event, data, intent=intent)
        await self.flush()

    async def flush(self) -> None:
        """Wait until all queued payloads were written."""
        for connection in list(self.connections):
            await connection.drain()

    def request_reconnect(self) -> None:
        """Send RECONNECT (op 7): the client should reconnect and RESUME."""
        for connection in self.connections:
            connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    def invalidate_sessions(self) -> None:
        """Send INVALID_SESSION (op 9, not resumable) to every connection."""
        for session in self.sessions.values():
            session.resumable = False
        for connection in self.connections:
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})

    async def drop_connections(self, code: int = 4000) -> None:
        """Close every websocket with ``code`` (sessions stay resumable unless 1000/1001)."""
        for connection in list(self.connections):
            await connection.close(code)

    async def close(self) -> None:
        """Close every connection (code 1001, going away) at server shutdown."""
        for connection in list(self.connections):
            await connection.close(1001, "fake Discord shutting down")
            await connection.stop()

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The aiohttp handler for ``GET /gateway`` (websocket upgrade)."""
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.server.record_gateway_connect(dict(request.query))
        connection = GatewayConnection(
            ws, zlib_stream=request.query.get("compress") == "zlib-stream"
        )
        self.connections.append(connection)
        try:
            if request.query.get("encoding", "json") != "json":
                await connection.close(4002, "only encoding=json is supported")
                return ws
            connection.send(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": self.heartbeat_interval_ms},
                    "s": None,
                    "t": None,
                }
            )
            while True:
                message = await ws.receive()
                if message.type is WSMsgType.CLOSE:
                    connection.client_close_code = message.data
                    break
                if message.type in (WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR):
                    break
                if message.type is not WSMsgType.TEXT:
                    await connection.close(4002, "expected a JSON text frame")
                    break
                try:
                    payload = json.loads(message.data)
                except ValueError:
                    await connection.close(4002, "invalid JSON")
                    break
                connection.received.append(payload)
                await self._on_payload(connection, payload)
        finally:
            await self._on_closed(connection)
        return ws

    async def _on_closed(self, connection: GatewayConnection) -> None:
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            # A client closing with 1000/1001 ends its session (it cannot be resumed).
            if connection.client_close_code in (1000, 1001):
                session.resumable = False
        if connection in self.connections:
            self.connections.remove(connection)
        await connection.stop()
        self.server.changed()

    async def _on_payload(self, connection: GatewayConnection, payload: Any) -> None:
        op = payload.get("op") if isinstance(payload, dict) else None
        data = payload.get("d") if isinstance(payload, dict) else None
        if op == HEARTBEAT:
            self.heartbeats += 1
            connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:
            await self._resume(connection, data or {})
        elif connection.session is None:
            await connection.close(4003, "Not authenticated.")
        elif op == PRESENCE_UPDATE:
            self.presence_updates.append(data or {})
        elif op == REQUEST_GUILD_MEMBERS:
            self._members_chunk(connection, data or {})
        elif op == VOICE_STATE_UPDATE:
            pass
        else:
            await connection.close(4001, "Unknown opcode.")

    async def _identify(self, connection: GatewayConnection, data: Json) -> None:
        if connection.session is not None:
            await connection.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.server.token:
            await connection.close(4004, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents & ~ALL_INTENTS:
            await connection.close(4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await connection.close(4014, "Disallowed intent(s).")
            return
        self.identify_count += 1
        session = GatewaySession(secrets.token_hex(16), intents, data.get("shard"))
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        world = self.server.world
        ready: Json = {
            "v": 10,
            "user": {**world.bot.to_json(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in world.guilds if session.serves(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.server.gateway_url,
            "application": {"id": str(world.application_id), "flags": world.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fake-discord"],
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        connection.send(session.next_dispatch("READY", ready))
        full_members = bool(intents & (GUILD_MEMBERS | GUILD_PRESENCES))
        for guild in world.guilds.values():
            if not session.serves(guild.id):
                continue
            members = None if full_members else [guild.members[world.bot.id]]
            connection.send(session.next_dispatch("GUILD_CREATE", guild.to_json(members=members)))
        self._ready.set()
        self.server.changed()

    async def _resume(self, connection: GatewayConnection, data: Json) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.server.token:
            await connection.close(4004, "Authentication failed.")
            return
        if session is None or not session.resumable or session.connection is not None:
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        self.resume_count += 1
        session.connection = connection
        connection.session = session
        after = data.get("seq") or 0
        for payload in session.log:
            if payload["s"] > after:
                connection.send(payload)
        connection.send(session.next_dispatch("RESUMED", {"_trace": ["fake-discord"]}))
        self._ready.set()
        self.server.changed()

    def _members_chunk(self, connection: GatewayConnection, data: Json) -> None:
        session = connection.session
        assert session is not None
        guild = self.server.world.guilds.get(int(data.get("guild_id") or 0))
        members = list(guild.members.values()) if guild else []
        wanted = data.get("user_ids")
        if wanted:
            ids = {int(x) for x in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m.user.id in ids]
        chunk: Json = {
            "guild_id": str(data.get("guild_id")),
            "members": [m.to_json() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        connection.send(session.next_dispatch("GUILD_MEMBERS_CHUNK", chunk))


def _guild_of(event: str, data: Json) -> int | None:
    """The guild an event belongs to (its ``guild_id``; a GUILD_CREATE's own ``id``), or
    None (DMs, events of no guild)."""
    raw = data.get("id") if event == "GUILD_CREATE" else data.get("guild_id")
    try:
        return None if raw is None else int(raw)
    except (TypeError, ValueError):
        return None
