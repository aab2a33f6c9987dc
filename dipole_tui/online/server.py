"""The game server: WebSocket connections, each read strictly, answered by the rooms.

Bad input never reaches a room and never hurts the server: every frame goes through
`read_message` and a refusal is an `error` message; a frame over `Limits.most_bytes` closes the
connection (websockets' max_size), an HTTP request that is no WebSocket upgrade gets a plain 426,
a connection that says no hello, says nothing for too long, or sends too fast is closed. Rooms
are kept in memory while someone is in them (or their clock runs) and loaded from the store by
code otherwise, so a restart loses nothing; a game of days leaves memory with its clock running,
and the housekeeping loads and flags it once its deadline passed. docs/protocol.md describes the
messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import secrets
import signal
import time
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from ..games.base import GameError
from ..session import Session
from .connection import Client, WrongKey, refused
from .desk import Desk, asked_session
from .limits import Address, Bucket, Limits, address_key, is_loopback
from .protocol import (
    BAD_MESSAGE,
    HELLO_FIRST,
    NO_ROOM,
    OLDEST_CLIENT,
    ROOM_LETTERS,
    TOO_FAST,
    TOO_MANY_ROOMS,
    UPGRADE,
    VERSION,
    Accept,
    AskGames,
    AskLobby,
    AskPlayers,
    AskRooms,
    Claim,
    ClientMessage,
    Create,
    Decline,
    Draw,
    Error,
    Hello,
    Join,
    Move,
    Ping,
    Pong,
    ProtocolError,
    Rematch,
    Resign,
    RoomList,
    Say,
    SeatKey,
    Seek,
    TakeBack,
    Watch,
    Welcome,
    read_message,
    room_code,
    unanswered,
)
from .rooms import SIDES, Room, Seating
from .store import RoomStore, RoomTaken, SqliteStore, holds

log = logging.getLogger("dipole_tui.online")
STORE_NAME = "online.sqlite3"
CODE_LENGTH = 6
SERVER_NAME = "dipole-tui"
LOGGED_REFUSALS = 10  # refusals of one connection written to the log; its close line counts all
HOUR = 3600.0
MOST_FLAGGED = 100  # games of days flagged in one round of the housekeeping (the rest next round)


class _Close(Exception):
    """End this connection: said to the client first where there is something to say."""


class GameServer:
    def __init__(
        self, store: RoomStore, limits: Limits, now: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.limits = limits
        self.now = now  # the wall clock: games of days and their deadlines, expiry (tests fake it)
        self.rooms: dict[str, Room] = {}
        self.port = 0
        self.connections = 0
        self.addresses: dict[str, Address] = {}  # by address_key; none for exempt ones
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._creator: dict[str, Address] = {}  # an unfinished room -> the address it came from
        self._unreadable: set[str] = set()  # rooms of days overdue that cannot be read back
        self.desk = Desk(self)

    # -- connections ----------------------------------------------------------------------------

    def _address(self, address: str) -> Address | None:
        """The counts of `address` (None: exempt, `serve --bench` on loopback)."""
        if self.limits.loopback_exempt and is_loopback(address):
            return None
        key = address_key(address)
        counted = self.addresses.get(key)
        if counted is None:
            counted = self.addresses[key] = Address.new(self.limits)
        return counted

    def check_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Refuse before the upgrade: a full server, an address with its connections open, a
        plain HTTP request."""
        address = _remote(connection)
        counted = self._address(address)
        if self.connections >= self.limits.most_connections:
            log.warning(
                "%s refused: the server is full (%d connections)", address, self.connections
            )
            return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "The server is full.\n")
        if counted is not None and counted.connections >= self.limits.connections_per_address:
            log.info("%s refused: %d connections open from this address", address,
                     counted.connections)  # fmt: skip
            return connection.respond(
                HTTPStatus.TOO_MANY_REQUESTS, "Too many connections from this address.\n"
            )
        if request.headers.get("Upgrade", "").lower() != "websocket":
            log.info("%s refused: a plain HTTP request (426)", address)
            response = connection.respond(
                HTTPStatus.UPGRADE_REQUIRED,
                "This is a dipole-tui game server: it speaks WebSocket. Play with\n"
                "  dipole-tui play --server ws://HOST:PORT --join CODE\n",
            )
            response.headers["Upgrade"] = "websocket"
            return response
        return None

    async def handle(self, connection: ServerConnection) -> None:
        client = Client(connection, _remote(connection))
        counted = self._address(client.address)
        self.connections += 1
        if counted is not None:
            counted.connections += 1
        try:
            if counted is not None and counted.connections > self.limits.connections_per_address:
                raise _Close("too many connections from this address")  # they came at once
            log.info("%s connected (%d open)", client.address, self.connections)
            await self._hello(client)
            await self._converse(client, counted)
        except _Close as reason:
            log.info("%s closed: %s", client.address, reason)
            await connection.close(1008, str(reason))
        except (ConnectionClosed, TimeoutError):
            pass
        finally:
            self.connections -= 1
            if counted is not None:
                counted.connections -= 1
            self.desk.lobby.withdraw(client)
            room = client.room
            if room is not None and room.leave(client):
                self.forget(room)
            log.info("%s left after %d messages, %d refused", client.address, client.messages,
                     client.refusals)  # fmt: skip

    async def _hello(self, client: Client) -> None:
        try:
            async with asyncio.timeout(self.limits.hello_seconds):
                frame = await client.connection.recv()
        except TimeoutError:
            self._say(client, HELLO_FIRST, f"no hello in {self.limits.hello_seconds:g} seconds")
            raise _Close("no hello") from None
        client.messages += 1
        why = ""
        try:
            message: ClientMessage | None = read_message(frame)
        except ProtocolError as error:
            message, why = None, f" ({error})"
        if not isinstance(message, Hello):
            self._say(client, HELLO_FIRST, f"the first message must be hello {{version}}{why}")
            raise _Close("hello first")
        theirs = message.version
        if not OLDEST_CLIENT <= theirs <= VERSION:
            if theirs < VERSION:
                what = "upgrade dipole-tui (pip install -U dipole-tui)"
            else:
                what = "the server is older: its host must upgrade dipole-tui"
            text = f"this server speaks protocol {VERSION} and the client {theirs}: {what}"
            self._say(client, UPGRADE, text)
            raise _Close("upgrade")
        client.version = theirs
        client.send(Welcome(VERSION, SERVER_NAME))

    async def _converse(self, client: Client, counted: Address | None) -> None:
        bucket = Bucket(self.limits.messages_per_second, self.limits.burst)
        while True:
            try:
                async with asyncio.timeout(self.limits.idle_seconds):
                    frame = await client.connection.recv()
            except TimeoutError:
                raise _Close("idle") from None
            client.messages += 1
            if not bucket.take():
                self._say(client, TOO_FAST, "too many messages: slow down")
                if bucket.refused > self.limits.too_fast_before_close:
                    raise _Close("too many messages")
                continue
            message: ClientMessage | None = None
            try:
                message = read_message(frame)
                await self._answer(client, counted, message)
            except ProtocolError as error:
                if counted is not None and (error.code == NO_ROOM or isinstance(error, WrongKey)):
                    counted.guesses.take()
                room = getattr(message, "room", None)  # the refusal is about it, if any
                self._say(client, error.code, str(error), None if room is None else room_code(room))

    def _say(self, client: Client, code: str, text: str, room: str | None = None) -> None:
        """An error to the client, and a line in the log (the first few of a connection)."""
        client.send(Error(code, text, room))
        client.refusals += 1
        if client.refusals <= LOGGED_REFUSALS:
            more = (
                " (its later refusals are not logged)" if client.refusals == LOGGED_REFUSALS else ""
            )
            log.info("%s refused: %s: %s%s", client.address, code, text, more)

    # -- messages -------------------------------------------------------------------------------

    async def _answer(
        self, client: Client, counted: Address | None, message: ClientMessage
    ) -> None:
        match message:
            case Ping():
                client.send(Pong())
            case Hello():
                raise ProtocolError(BAD_MESSAGE, "hello is said once, first")
            case AskRooms(rooms=asked):
                await self._list(client, counted, asked)
            case Claim():
                await self.desk.claim(client, counted, message)
            case AskPlayers(game=game, speed=speed):
                await self.desk.leaderboard(client, game, speed)
            case AskLobby(game=game):
                self.desk.lobby_list(client, game)
            case AskGames():
                await self.desk.archive(client, counted, message)
            case Create() | Join() | Watch() | Seek() | Accept() if client.room is not None:
                raise refused(f"this connection is in room {client.room.code} already")
            case Seek():
                await self.desk.seek(client, counted, message)
            case Accept():
                await self.desk.accept(client, counted, message)
            case Create():
                await self._create(client, counted, message)
            case Join() | Watch():
                await self._enter(client, counted, message)
            case Move(room=code, ply=ply, move=move):
                await self._seated_in(client, code).move(client, ply, move)
            case Resign(room=code):
                await self._seated_in(client, code).resign(client)
            case Draw(room=code):
                await self._seated_in(client, code).draw(client)
            case TakeBack(room=code):
                await self._seated_in(client, code).take_back(client)
            case Decline(room=code, what=what):
                await self._seated_in(client, code).decline(client, what)
            case Rematch(room=code):
                await self.desk.rematch(client, self._seated_in(client, code))
            case Say(room=code, text=text):
                await self._in(client, code).say(client, text)
            case _:
                raise unanswered(message)

    @staticmethod
    def _seated_in(client: Client, code: str) -> Room:
        room, code = client.room, room_code(code)
        if room is None or room.code != code:
            raise refused(f"you are not seated in room {code}")
        if client.side is None:
            raise refused(f"you watch room {room.code}: only its players play")
        return room

    @staticmethod
    def _in(client: Client, code: str) -> Room:
        """The room the client sits in or watches, which its message names."""
        room, code = client.room, room_code(code)
        if room is None or room.code != code:
            raise refused(f"you are not in room {code}")
        return room

    async def _enter(self, client: Client, counted: Address | None, message: Join | Watch) -> None:
        self.guessing(counted)
        found = await self._room_or_refuse(room_code(message.room))
        try:
            if isinstance(message, Join):
                await found.join(client, message.secret, message.invite, message.since)
            else:
                found.watch(client, message.since)
        finally:
            if client.room is not found and found.idle():  # refused: not kept in memory
                self.forget(found)

    async def _create(self, client: Client, counted: Address | None, message: Create) -> None:
        if counted is not None and len(counted.created) >= self.limits.rooms_per_address:
            raise ProtocolError(
                TOO_MANY_ROOMS, f"{len(counted.created)} unfinished rooms were created from "
                "this address, the most allowed: finish some first",
            )  # fmt: skip
        session = asked_session(client, message)
        side = {"white": 0, "black": 1}.get(message.side or "", secrets.randbelow(2))
        standing = await self.desk.standing(client.name, session)
        seating = Seating.new(side, client.name, standing)
        room = await self.new_room(session, bool(message.rated), [seating])
        if counted is not None:
            counted.created.add(room.code)
            self._creator[room.code] = counted
        await room.sit(client)

    async def new_room(
        self, session: Session[Any], rated: bool, seatings: Sequence[Seating] = ()
    ) -> Room:
        """A room for `session`, under a code nobody holds, stored with the `seatings` it is
        made with before anyone hears of it (`Room.sit` then seats their players)."""
        session.tags["Date"] = datetime.now().strftime("%Y.%m.%d")
        room = Room("", session, [None, None], self.store, self._ended, rated=rated, now=self.now)
        seats = room.made_with(seatings)
        deadline = room.made_deadline()
        try:
            while room.code == "":
                room.code = self._new_code()
                self.rooms[room.code] = room  # reserved: nobody knows the code yet
                try:
                    await self.store.create_room(room.code, session.game.key,
                                                 session.state.variant, room.clock_text,
                                                 session.tags["Date"], rated, self.now(),
                                                 seats, deadline, room.made_invite())  # fmt: skip
                except RoomTaken:
                    self.forget(room)
                    room.code = ""
        except Exception as error:
            self.forget(room)
            log.warning("a room could not be stored: %s", error)
            raise refused("the server could not store a new room: try again later") from None
        return room

    def _new_code(self) -> str:
        while (code := "".join(secrets.choice(ROOM_LETTERS) for _ in range(CODE_LENGTH))) in (
            self.rooms
        ):
            pass
        return code

    async def _list(
        self, client: Client, counted: Address | None, asked: tuple[SeatKey, ...]
    ) -> None:
        """The player's own rooms among those asked after: each secret is checked against
        the seats' digests before a game is loaded, so a wrong one costs a lookup."""
        if counted is not None and not counted.asked.take(len(asked)):
            most = self.limits.asked_per_minute
            raise ProtocolError(TOO_FAST, f"too many rooms asked after from this address: "
                                f"{most:g} a minute at most")  # fmt: skip
        codes = {room_code(entry.room) for entry in asked}
        seats = {code: room.seats for code in codes if (room := self._in_memory(code))}
        missing = sorted(codes - seats.keys())
        if missing:
            seats |= await self.store.seats_of(missing)
        found, looked = [], []
        for entry in asked:
            code = room_code(entry.room)
            kept = seats.get(code, [None, None])
            side = next((side for side in SIDES if holds(entry.secret, kept[side])), None)
            room = None if side is None else await self.room(code)
            if room is not None and side is not None:
                found.append(room.summary(side))
                looked.append(room)
        for room in looked:
            if room.idle():  # only looked at: out of memory again
                self.forget(room)
        client.send(RoomList(tuple(found)))

    def guessing(self, counted: Address | None) -> None:
        """Refused while the address has made too many wrong guesses lately."""
        if counted is not None and counted.guesses.empty():
            raise ProtocolError(
                TOO_FAST, "too many wrong room codes, secrets, invitations or tokens from this "
                "address: wait a minute",
            )  # fmt: skip

    # -- rooms ----------------------------------------------------------------------------------

    def _in_memory(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        return None if room is None or room.lost else room

    async def _room_or_refuse(self, code: str) -> Room:
        room = await self.room(code)
        if room is None:
            raise ProtocolError(NO_ROOM, f"there is no room {code}")
        return room

    async def room(self, code: str) -> Room | None:
        """The room of that code: in memory, or loaded from the store (once, however many
        clients ask at the same time)."""
        room = self._in_memory(code)
        if room is not None:
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
            room = Room.stored(kept, self.store, self._ended, self.limits.resume_grace, self.now)
        except GameError as error:
            log.warning("room %s cannot be read back: %s", code, error)
            raise ProtocolError(NO_ROOM, f"room {code} cannot be read back: {error}") from None
        self.rooms[code] = room
        return room

    def forget(self, room: Room) -> None:
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]

    def _ended(self, room: Room) -> None:
        self._uncount(room.code)
        outcome = room.session.outcome
        if outcome is not None:
            players = sorted({c.address for side in SIDES for c in room.players[side]})
            log.info("room %s ended %s: %s, after %d plies (players online: %s)", room.code,
                     outcome.result(), outcome.reason, room.session.state.plies,
                     ", ".join(players) or "none")  # fmt: skip

    # -- housekeeping ---------------------------------------------------------------------------

    async def expire(self) -> list[str]:
        """Remove the rooms whose second seat was not taken in `Limits.unjoined_days` (but
        those someone is in now): their codes."""
        before = self.now() - self.limits.unjoined_days * 86_400
        busy = {code for code, room in self.rooms.items() if any(room.clients())}
        gone = await self.store.expire(before, busy)
        for code in gone:
            room = self.rooms.pop(code, None)
            if room is not None:
                room.stop()
            self._uncount(code)
        if gone:
            log.info("removed %d rooms whose second seat was never taken in %g days", len(gone),
                     self.limits.unjoined_days)  # fmt: skip
        return gone

    def _uncount(self, code: str) -> None:
        """The room is no longer counted against the address that created it."""
        counted = self._creator.pop(code, None)
        if counted is not None:
            counted.created.discard(code)

    def prune(self) -> None:
        """Forget the addresses nothing is counted against any more."""
        for key in [key for key, counted in self.addresses.items() if counted.forgettable()]:
            del self.addresses[key]

    async def flag_overdue(self) -> list[str]:
        """Flag the games of days whose side to move let its deadline pass, in memory or
        loaded from the store (nobody need be connected, the server may have been down): each
        ends as any flag does (`Room.flag`: stored, rated, told). Their codes."""
        flagged = []
        for code in await self.store.overdue(self.now(), MOST_FLAGGED):
            if code in self._unreadable:
                continue
            try:
                room = await self.room(code)
            except ProtocolError:  # logged by _load; not asked again in this run
                self._unreadable.add(code)
                continue
            if room is not None and await room.flag():
                flagged.append(code)
            if room is not None and room.idle():
                self.forget(room)
        return flagged

    async def keep_house(self) -> None:
        """Every `Limits.flag_check_seconds` (a minute) the games of days past their deadline
        are flagged and the addresses pruned; every hour the unjoined rooms expire."""
        last = -HOUR
        while True:
            if time.monotonic() - last >= HOUR:
                last = time.monotonic()
                try:
                    await self.expire()
                except Exception as error:  # the store failed: said, and tried again later
                    log.warning("unjoined rooms could not be removed: %s", error)
            try:
                await self.flag_overdue()
            except Exception as error:  # the store failed: said, and tried again later
                log.warning("games of days could not be flagged: %s", error)
            self.prune()
            await asyncio.sleep(self.limits.flag_check_seconds)


def _remote(connection: ServerConnection) -> str:
    address = connection.remote_address
    return str(address[0]) if address else "?"


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
    limits: Limits | None = None,
    now: Callable[[], float] = time.time,
) -> AsyncIterator[GameServer]:
    """A server listening until the block ends (port 0: a free one, then `server.port`);
    OSError when it cannot listen, sqlite3.Error when the store cannot be opened. `now` is
    its wall clock (a test's fake one)."""
    limits = limits or Limits()
    raise_file_limit()
    Path(folder).mkdir(parents=True, exist_ok=True)
    store = SqliteStore(Path(folder) / STORE_NAME)
    game_server = GameServer(store, limits, now)
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
            house = asyncio.create_task(game_server.keep_house())
            try:
                yield game_server
            finally:
                house.cancel()
    finally:
        for room in game_server.rooms.values():
            room.stop()
        await store.close()


async def serve_forever(
    host: str,
    port: int,
    folder: Path,
    ready: Callable[[GameServer], None],
    limits: Limits | None = None,
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
