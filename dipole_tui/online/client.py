"""The client's end of a room: one connection that comes back by itself.

`Link.run` connects, says hello, asks for its room (create, join or watch) and hands every
message the server sends to `on_message`; when the connection drops (the server restarted, the
network went away) it waits (0.5 s, doubling to 10 s, with jitter) and connects again, joining
with its seat's secret and the last version of the room the client applied, so the server's
events since (or its whole game) bring the client up to date. How it stands is said through
`on_status` in words a player reads. No Textual: the app runs `run` as a task of its own event
loop, tests and the bench run it in theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .. import __version__
from .protocol import (
    BAD_MESSAGE,
    MOST_ROOMS_ASKED,
    TOO_FAST,
    UPGRADE,
    VERSION,
    Accept,
    Archive,
    AskGames,
    AskLobby,
    AskPlayers,
    AskRooms,
    Claim,
    ClientMessage,
    Create,
    Error,
    Hello,
    Join,
    Lobby,
    Named,
    Ping,
    PlayerList,
    ProtocolError,
    Ranked,
    RoomList,
    RoomSummary,
    SeatKey,
    Seek,
    ServerMessage,
    Watch,
    read_reply,
    write_message,
)

FIRST_WAIT = 0.5  # seconds before the first reconnection; doubled each time, up to LONGEST_WAIT
LONGEST_WAIT = 10.0
PING_EVERY = 60.0  # the server closes a connection that says nothing for long
OPEN_TIMEOUT = 5.0
PAGE_TIMEOUT = 30.0  # a page of the archive: up to 50 records the server reads back
PAGE_BYTES = 2**23  # the most a page's frame may be: its records (each at most a megabyte)
SLOWED = 5.0  # seconds waited when the server says `too-fast`, up to SLOWED_TIMES in a row
SLOWED_TIMES = 12
Ask = Create | Join | Watch | Seek | Accept  # what a link asks for its room


class Link:
    """A room's connection, kept open until `close`: messages in through `on_message`, the
    connection's state through `on_status`."""

    def __init__(
        self,
        url: str,
        ask: Ask,
        on_message: Callable[[ServerMessage], None],
        on_status: Callable[[str], None] = lambda said: None,
        claim: Claim | None = None,
    ) -> None:
        self.url = url
        self.ask = ask
        self.claim = claim  # the name to play under, said on every connection before `ask`
        self.on_message = on_message
        self.on_status = on_status
        self.connected = False
        self.fatal = ""  # why the link gave up for good (an old client, a bad address)
        self.again: Callable[[], Ask] | None = None  # once seated: what a reconnection asks
        self._socket: ClientConnection | None = None
        self._closing = False

    def seated(self, again: Callable[[], Ask]) -> None:
        """The server gave a seat (or a place to watch): each reconnection asks `again()` for
        it, as things stand then (the events missed since, `OnlineGame.rejoin`)."""
        self.again = again

    async def run(self) -> None:
        """Connect, and again after every drop, until `close` or a refusal for good."""
        wait = FIRST_WAIT
        while not self._closing:
            why = "the connection closed"
            try:
                async with connect(
                    self.url, open_timeout=OPEN_TIMEOUT, max_size=2**20, ping_interval=20
                ) as socket:
                    self._socket = socket
                    await self._talk(socket)
                    wait = FIRST_WAIT
            except ProtocolError as error:
                if error.code == UPGRADE or isinstance(error, _Unnamed):
                    self._give_up(str(error))
                    return
                why = f"the server answered oddly: {error}"
            except (InvalidURI, ValueError) as error:
                self._give_up(f"'{self.url}' is not a server address: {error}")
                return
            except (OSError, InvalidHandshake, ConnectionClosed, TimeoutError) as error:
                why = _why(error)
            finally:
                self._socket = None
                self.connected = False
            if self._closing:
                return
            self.on_status(f"not connected ({why}); trying again")
            await asyncio.sleep(wait * random.uniform(0.8, 1.2))
            wait = min(wait * 2, LONGEST_WAIT)

    async def _talk(self, socket: ClientConnection) -> None:
        await _hello(socket)
        if self.claim is not None:
            await self._claim(socket, self.claim)
        await socket.send(write_message(self.ask if self.again is None else self.again()))
        self.connected = True
        self.on_status("")
        pinger = asyncio.create_task(self._ping(socket))
        try:
            async for frame in socket:
                self.on_message(read_reply(frame))
        finally:
            pinger.cancel()

    async def _claim(self, socket: ClientConnection, claim: Claim) -> None:
        """Play under the claimed name: a new name's token is kept for the reconnections, and
        `Named` goes on to `on_message` (to keep it for good); a refusal ends the link."""
        named = await _claimed(socket, claim)
        self.claim = Claim(named.name, named.token or claim.token)
        self.on_message(named)

    async def _ping(self, socket: ClientConnection) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.sleep(PING_EVERY)
                await socket.send(write_message(Ping()))

    def send(self, message: ClientMessage) -> bool:
        """Send a message now; False when not connected (the caller says so, and nothing is
        queued: a move made offline would be made on an old position)."""
        socket = self._socket
        if socket is None or not self.connected:
            return False
        task = asyncio.get_running_loop().create_task(_send(socket, write_message(message)))
        _PENDING.add(task)
        task.add_done_callback(_PENDING.discard)
        return True

    def resync(self) -> None:
        """The client's game and the server's differ: drop the connection, and the rejoin
        brings the server's game."""
        if self._socket is not None:
            task = asyncio.get_running_loop().create_task(self._socket.close())
            _PENDING.add(task)
            task.add_done_callback(_PENDING.discard)

    async def close(self) -> None:
        self._closing = True
        if self._socket is not None:
            await self._socket.close()

    def _give_up(self, why: str) -> None:
        self.fatal = why
        self.on_status(why)


async def ask_rooms(url: str, rooms: list[tuple[str, str]]) -> list[RoomSummary]:
    """How the player's own games stand on a server (each `(room, secret)`): the `RoomList`s'
    entries (asked MOST_ROOMS_ASKED at a time). OSError, TimeoutError, ConnectionClosed or
    ProtocolError when the server cannot say."""
    asked = [SeatKey(room, secret) for room, secret in rooms]
    found: list[RoomSummary] = []
    async with asyncio.timeout(OPEN_TIMEOUT), connect(url, open_timeout=OPEN_TIMEOUT) as socket:
        await _hello(socket)
        for start in range(0, len(asked), MOST_ROOMS_ASKED):
            part = asked[start : start + MOST_ROOMS_ASKED]
            await socket.send(write_message(AskRooms(tuple(part))))
            found += await _rooms_answer(socket)
    return found


async def ask_players(url: str, game: str, speed: str | None = None) -> tuple[Ranked, ...]:
    """A game's leaderboard on a server (at one speed, or all), best first."""
    listed = await _ask(url, AskPlayers(game, speed), PlayerList)
    return listed.players


async def ask_lobby(url: str, game: str | None = None, claim: Claim | None = None) -> Lobby:
    """The seeks a server's lobby shows this client (as the player of `claim`, a name kept
    with its token: a seek inviting them is shown to them alone), and the games going on
    there."""
    return await _ask(url, AskLobby(game), Lobby, claim)


async def ask_games(
    url: str, name: str, game: str | None, on_page: Callable[[Archive], None]
) -> None:
    """A player's finished games on a server, newest first: each page handed to `on_page` as
    it comes, to the last. A `too-fast` answer is waited out (SLOWED seconds at a time, a
    minute at most). OSError, TimeoutError, ConnectionClosed or ProtocolError when the server
    cannot say, or sends a game twice (it would page on forever)."""
    async with connect(url, open_timeout=OPEN_TIMEOUT, max_size=PAGE_BYTES) as socket:
        async with asyncio.timeout(OPEN_TIMEOUT):
            await _hello(socket)
        before: str | None = None
        seen: set[str] = set()
        slowed = 0
        while True:
            await socket.send(write_message(AskGames(name, game, before)))
            try:
                async with asyncio.timeout(PAGE_TIMEOUT):
                    page = await _answer(socket, Archive)
            except ProtocolError as error:
                if error.code != TOO_FAST or slowed == SLOWED_TIMES:
                    raise
                slowed += 1
                await asyncio.sleep(SLOWED)
                continue
            slowed = 0
            rooms = [listed.room for listed in page.games]
            if seen.intersection(rooms) or len(set(rooms)) < len(rooms):
                raise ProtocolError(BAD_MESSAGE, "the server sent a game twice")
            seen.update(rooms)
            on_page(page)
            if not page.more or not rooms:
                return
            before = rooms[-1]


Answer = TypeVar("Answer", bound=ServerMessage)


async def _ask(
    url: str, message: ClientMessage, answer: type[Answer], claim: Claim | None = None
) -> Answer:
    """One question to a server and its answer, on a connection of its own (under the name
    of `claim`, when given). OSError, TimeoutError, ConnectionClosed or ProtocolError when the
    server cannot say."""
    async with asyncio.timeout(OPEN_TIMEOUT), connect(url, open_timeout=OPEN_TIMEOUT) as socket:
        await _hello(socket)
        if claim is not None:
            await _claimed(socket, claim)
        await socket.send(write_message(message))
        return await _answer(socket, answer)


async def _answer(socket: ClientConnection, answer: type[Answer]) -> Answer:
    """The server's next message of that type (others passed over); an `Error` raised."""
    while True:
        reply = read_reply(await socket.recv())
        if isinstance(reply, answer):
            return reply
        if isinstance(reply, Error):
            raise ProtocolError(reply.code, reply.text)


async def _rooms_answer(socket: ClientConnection) -> tuple[RoomSummary, ...]:
    while True:
        match read_reply(await socket.recv()):
            case RoomList(rooms=rooms):
                return rooms
            case Error(code=code, text=text):
                raise ProtocolError(code, text)


async def _hello(socket: ClientConnection) -> None:
    """The first words: this client's protocol version; an old one is told to upgrade."""
    client = f"dipole-tui {__version__}"
    await socket.send(write_message(Hello(VERSION, client)))
    welcome = read_reply(await socket.recv())
    if isinstance(welcome, Error):
        raise ProtocolError(welcome.code, welcome.text)


async def _claimed(socket: ClientConnection, claim: Claim) -> Named:
    """The server's `Named` for the claim; _Unnamed when it refuses the name."""
    await socket.send(write_message(claim))
    while True:
        match read_reply(await socket.recv()):
            case Named() as named:
                return named
            case Error(code=code, text=text):
                raise _Unnamed(code, text)


class _Unnamed(ProtocolError):
    """The server refused the name (taken, or the token not its key): no reconnection would
    change that."""


_PENDING: set[asyncio.Task[None]] = set()  # sends under way: kept so they are not collected


async def _send(socket: ClientConnection, text: str) -> None:
    with contextlib.suppress(ConnectionClosed):
        await socket.send(text)


def _why(error: BaseException) -> str:
    """A dropped or refused connection in a few words."""
    if isinstance(error, ConnectionRefusedError):
        return "the server is not answering"
    if isinstance(error, ConnectionClosed):
        return "the connection closed"
    if isinstance(error, TimeoutError):
        return "the server took too long"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return str(error) or type(error).__name__


__all__ = ["Ask", "Link", "ask_games", "ask_lobby", "ask_players", "ask_rooms"]
