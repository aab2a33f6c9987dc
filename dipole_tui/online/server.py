"""The game server: WebSocket connections, each read strictly, answered by the rooms.

Bad input never reaches a room and never hurts the server: every frame goes through
`read_message` and a refusal is an `error` message; a frame over `Limits.most_bytes` closes the
connection (websockets' max_size), an HTTP request that is no WebSocket upgrade gets a plain 426,
a connection that says no hello, says nothing for too long, or sends too fast is closed. Rooms
are kept in memory while someone is in them (or their clock runs) and loaded from the store by
code otherwise, so a restart loses nothing. docs/protocol.md describes the messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import resource
import secrets
import signal
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..games.base import GameError
from .protocol import (
    BAD_MESSAGE,
    HELLO_FIRST,
    MOST_BYTES,
    NO_ROOM,
    ROOM_LETTERS,
    TOO_FAST,
    TOO_MANY_ROOMS,
    UPGRADE,
    VERSION,
    ProtocolError,
    read_message,
    room_code,
    write_message,
)
from .rooms import Client, Room, new_session, refused
from .store import RoomStore, RoomTaken, SqliteStore

log = logging.getLogger("dipole_tui.online")
STORE_NAME = "online.sqlite3"
CODE_LENGTH = 6
SERVER_NAME = "dipole-tui"


@dataclass(frozen=True)
class Limits:
    """What one connection, one address and the whole server may ask for."""

    messages_per_second: float = 20.0  # a token bucket: this rate, bursts of `burst`
    burst: int = 40
    too_fast_before_close: int = 20  # too-fast answers before the connection is closed
    rooms_per_address: int = 50  # unfinished rooms created from one address (this run)
    loopback_exempt: bool = True  # ...but this machine's own (a bench, a local club)
    hello_seconds: float = 10.0
    idle_seconds: float = 600.0  # the client pings every 60 s
    most_connections: int = 20_000
    most_bytes: int = MOST_BYTES


class _Bucket:
    def __init__(self, limits: Limits) -> None:
        self.rate, self.burst = limits.messages_per_second, float(limits.burst)
        self.tokens, self.at = self.burst, time.monotonic()
        self.refused = 0

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            self.refused += 1
            return False
        self.tokens -= 1
        return True


class _Close(Exception):
    """End this connection: said to the client first where there is something to say."""


class GameServer:
    def __init__(self, store: RoomStore, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self.port = 0
        self.connections = 0
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._created: dict[str, set[str]] = {}  # address -> its unfinished rooms
        self._creator: dict[str, str] = {}  # room -> the address that created it

    # -- connections ----------------------------------------------------------------------------

    def check_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse before the upgrade: a full server, a plain HTTP request."""
        if self.connections >= self.limits.most_connections:
            log.warning("refused a connection: %d are open, the most allowed", self.connections)
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "The server is full.\n")
        if request.headers.get("Upgrade", "").lower() != "websocket":
            response = connection.respond(
                HTTPStatus.UPGRADE_REQUIRED,
                "This is a dipole-tui game server: it speaks WebSocket. Play with\n"
                "  dipole-tui play --server ws://HOST:PORT --join CODE\n",
            )
            response.headers["Upgrade"] = "websocket"
            return response
        return None

    async def handle(self, connection: ServerConnection) -> None:
        address = connection.remote_address[0] if connection.remote_address else "?"
        client = Client(connection, str(address))
        self.connections += 1
        try:
            await self._hello(client)
            await self._converse(client)
        except _Close as reason:
            await connection.close(1008, str(reason))
        except (ConnectionClosed, TimeoutError):
            pass
        finally:
            self.connections -= 1
            room = client.room
            if room is not None and room.leave(client):
                self._forget(room)

    async def _hello(self, client: Client) -> None:
        try:
            async with asyncio.timeout(self.limits.hello_seconds):
                frame = await client.connection.recv()
        except TimeoutError:
            self._say(client, HELLO_FIRST, f"no hello in {self.limits.hello_seconds:g} seconds")
            raise _Close("no hello") from None
        try:
            message = read_message(frame)
        except ProtocolError as error:
            message = {"type": "?", "why": str(error)}
        if message["type"] != "hello":
            why = f" ({message['why']})" if "why" in message else ""
            self._say(client, HELLO_FIRST, f"the first message must be hello {{version}}{why}")
            raise _Close("hello first")
        theirs = message["version"]
        if theirs != VERSION:
            if theirs < VERSION:
                what = "upgrade dipole-tui (pip install -U dipole-tui)"
            else:
                what = "the server is older: its host must upgrade dipole-tui"
            text = f"this server speaks protocol {VERSION} and the client {theirs}: {what}"
            self._say(client, UPGRADE, text)
            raise _Close("upgrade")
        client.send(write_message("welcome", version=VERSION, server=SERVER_NAME))

    async def _converse(self, client: Client) -> None:
        bucket = _Bucket(self.limits)
        while True:
            try:
                async with asyncio.timeout(self.limits.idle_seconds):
                    frame = await client.connection.recv()
            except TimeoutError:
                raise _Close("idle") from None
            if not bucket.take():
                self._say(client, TOO_FAST, "too many messages: slow down")
                if bucket.refused > self.limits.too_fast_before_close:
                    log.info("closed %s: too many messages", client.address)
                    raise _Close("too many messages")
                continue
            message: dict[str, Any] = {}
            try:
                message = read_message(frame)
                await self._answer(client, message)
            except ProtocolError as error:
                room = message.get("room")
                self._say(client, error.code, str(error), None if room is None else room_code(room))

    def _say(self, client: Client, code: str, text: str, room: str | None = None) -> None:
        fields = {} if room is None else {"room": room}
        client.send(write_message("error", code=code, text=text, **fields))

    # -- messages -------------------------------------------------------------------------------

    async def _answer(self, client: Client, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "ping":
            client.send(write_message("pong"))
        elif kind == "hello":
            raise ProtocolError(BAD_MESSAGE, "hello is said once, first")
        elif kind == "rooms":
            await self._list(client, message["rooms"])
        elif kind in ("create", "join", "watch"):
            if client.room is not None:
                raise refused(f"this connection is in room {client.room.code} already")
            if kind == "create":
                await self._create(client, message)
                return
            found = await self._room_or_refuse(room_code(message["room"]))
            if kind == "join":
                await found.join(client, message.get("secret"))
            else:
                found.watch(client)
        else:
            code = room_code(message["room"])
            room = client.room
            if room is None or room.code != code:
                raise refused(f"you are not seated in room {code}")
            if kind == "move":
                await room.move(client, message["ply"], message["move"])
            elif kind == "resign":
                await room.resign(client)
            else:
                await room.draw(client)

    async def _create(self, client: Client, message: dict[str, Any]) -> None:
        mine = self._created.setdefault(client.address, set())
        if len(mine) >= self.limits.rooms_per_address and not self._exempt(client.address):
            raise ProtocolError(
                TOO_MANY_ROOMS, f"{len(mine)} unfinished rooms were created from this address, "
                "the most allowed: finish some first",
            )  # fmt: skip
        try:
            session = new_session(message["game"], message.get("variant"), message.get("clock"))
        except GameError as error:
            raise ProtocolError(BAD_MESSAGE, str(error)) from None
        session.tags["Date"] = datetime.now().strftime("%Y.%m.%d")
        room = Room("", session, [None, None], self.store, self._ended)
        try:
            while room.code == "":
                room.code = self._new_code()
                self.rooms[room.code] = room  # reserved: nobody knows the code yet
                mine.add(room.code)
                try:
                    await self.store.create_room(room.code, session.game.key,
                                                 session.state.variant, room.clock_text,
                                                 session.tags["Date"])  # fmt: skip
                except RoomTaken:
                    self._forget(room)
                    mine.discard(room.code)
                    room.code = ""
        except Exception as error:
            self._forget(room)
            mine.discard(room.code)
            log.warning("a room could not be stored: %s", error)
            raise refused("the server could not store a new room: try again later") from None
        self._creator[room.code] = client.address
        side = {"white": 0, "black": 1}.get(message.get("side") or "", secrets.randbelow(2))
        await room.join(client, None, side)

    def _exempt(self, address: str) -> bool:
        try:
            return self.limits.loopback_exempt and ipaddress.ip_address(address).is_loopback
        except ValueError:
            return False

    def _new_code(self) -> str:
        while (code := "".join(secrets.choice(ROOM_LETTERS) for _ in range(CODE_LENGTH))) in (
            self.rooms
        ):
            pass
        return code

    async def _list(self, client: Client, asked: list[dict[str, str]]) -> None:
        found = []
        for entry in asked:
            room = await self.room(room_code(entry["room"]))
            if room is None:
                continue
            side = room.side_of(entry["secret"])
            if side is not None:
                found.append(room.summary(side))
            if room.idle():  # only looked at: out of memory again
                self._forget(room)
        client.send(write_message("rooms", rooms=found))

    # -- rooms ----------------------------------------------------------------------------------

    async def _room_or_refuse(self, code: str) -> Room:
        room = await self.room(code)
        if room is None:
            raise ProtocolError(NO_ROOM, f"there is no room {code}")
        return room

    async def room(self, code: str) -> Room | None:
        """The room of that code: in memory, or loaded from the store (once, however many
        clients ask at the same time)."""
        room = self.rooms.get(code)
        if room is not None and not room.lost:
            return room
        loading = self._loading.get(code)
        if loading is None:
            loading = asyncio.ensure_future(self._load(code))
            self._loading[code] = loading
            loading.add_done_callback(lambda _: self._loading.pop(code, None))
        return await asyncio.shield(loading)

    async def _load(self, code: str) -> Room | None:
        kept = await self.store.load_room(code)
        if kept is None:
            return None
        try:
            room = Room.stored(kept, self.store, self._ended)
        except GameError as error:
            log.warning("room %s cannot be read back: %s", code, error)
            raise ProtocolError(NO_ROOM, f"room {code} cannot be read back: {error}") from None
        self.rooms[code] = room
        return room

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    def _ended(self, room: Room) -> None:
        address = self._creator.pop(room.code, None)
        if address is not None:
            self._created.get(address, set()).discard(room.code)


def raise_file_limit() -> None:
    """Each connection is a file: let the process have as many as the system allows it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = 1 << 20
    if soft != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@contextlib.asynccontextmanager
async def running_server(
    host: str = "127.0.0.1",
    port: int = 0,
    folder: Path | str = ".",
    limits: Limits = Limits(),
) -> AsyncIterator[GameServer]:
    """A server listening until the block ends (port 0: a free one, then `server.port`);
    OSError when it cannot listen, sqlite3.Error when the store cannot be opened."""
    raise_file_limit()
    Path(folder).mkdir(parents=True, exist_ok=True)
    store = SqliteStore(Path(folder) / STORE_NAME)
    game_server = GameServer(store, limits)
    try:
        async with serve(
            game_server.handle,
            host,
            port,
            max_size=limits.most_bytes,
            process_request=game_server.check_request,
            compression=None,  # small messages, many connections: deflate costs more than it saves
            ping_interval=30,
            ping_timeout=30,
            logger=logging.getLogger("dipole_tui.online.websockets"),
        ) as listening:
            game_server.port = listening.sockets[0].getsockname()[1]
            yield game_server
    finally:
        for room in game_server.rooms.values():
            room.stop()
        await store.close()


async def serve_forever(
    host: str,
    port: int,
    folder: Path,
    ready: Callable[[GameServer], None],
    limits: Limits = Limits(),
) -> None:
    """Serve until SIGINT or SIGTERM; `ready` is called once the server listens."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signal_number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signal_number, stop.set)
    async with running_server(host, port, folder, limits) as server:
        ready(server)
        await stop.wait()


__all__ = ["STORE_NAME", "GameServer", "Limits", "running_server", "serve_forever"]
