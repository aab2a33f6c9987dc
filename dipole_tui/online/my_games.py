"""The player's games on every server they play: each server asked once (`rooms`, on a short
connection of its own, a few servers at a time), and each game told from the player's side:
their turn, the opponent's, over, or gone. The Open dialog lists them in that order and the
app's watcher (`control/game_news.py`) says when one becomes the player's turn. No Textual.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from websockets.exceptions import ConnectionClosed, WebSocketException

from ..clock import shown_time
from ..games.base import shown
from ..registry import REGISTRY
from .client import ask_rooms
from .protocol import ProtocolError, RoomSummary
from .seat import RoomSeat, normalised

AT_ONCE = 3  # servers asked at the same time: a player of many servers opens no more
# What asking a server may raise: it is down, slow, closed the connection, refused, or the
# address is no server's.
ASK_ERRORS = (OSError, TimeoutError, WebSocketException, ProtocolError, ValueError)


class Turn(IntEnum):
    """How a game stands for the player, in the order they are listed."""

    YOURS = 0
    THEIRS = 1
    OVER = 2
    GONE = 3  # the server knows no such room (any more), or not with that secret


@dataclass(frozen=True)
class MyGame:
    """A seat of the player's and its room as its server says it (None: it knows none)."""

    seat: RoomSeat
    summary: RoomSummary | None

    @property
    def key(self) -> tuple[str, str]:
        """The room, whatever the server is called in the book."""
        return seat_key(self.seat)

    @property
    def name(self) -> str:
        """The game's name (its key, for a game this program does not have)."""
        entry = REGISTRY.get(self.seat.game)
        return entry.game.name if entry is not None else shown(self.seat.game)

    @property
    def turn(self) -> Turn:
        summary = self.summary
        if summary is None:
            return Turn.GONE
        if summary.result:
            return Turn.OVER
        if summary.waiting:  # nobody to play yet: nothing waits for the player
            return Turn.THEIRS
        return Turn.YOURS if summary.to_move == self.seat.side else Turn.THEIRS

    def state(self) -> str:
        """The game in a few words, from the player's side: whose turn, or how it ended; with
        the time left to the side to move (or the clock, minutes+seconds a move)."""
        summary = self.summary
        if summary is None:
            return "gone from the server"
        if summary.result:
            won = {"1-0": 0, "0-1": 1}.get(summary.result)
            return "drawn" if won is None else ("you won" if won == self.seat.side else "you lost")
        if summary.waiting:
            return "waiting for an opponent"
        turn = "your turn" if self.turn is Turn.YOURS else "their turn"
        clock = f", clock {summary.clock}" if summary.clock else ""
        if summary.left is not None:
            clock = f", {shown_time(max(summary.left, 0.0))} left"
        return f"{turn}, ply {summary.plies}{clock}"


@dataclass(frozen=True)
class ServerGames:
    """What one server said of the player's games there; `problem` why it could not ("")."""

    server: str  # as the book's first seat there writes it
    games: tuple[MyGame, ...]
    problem: str = ""

    def line(self) -> str:
        """A server that did not answer, in one line."""
        count = len(self.games)
        return f"{shown(self.server, 60)} {self.problem} ({count} game{'s' * (count != 1)})"


def seat_key(seat: RoomSeat) -> tuple[str, str]:
    return normalised(seat.server), seat.room


async def ask_servers(seats: Sequence[RoomSeat], at_once: int = AT_ONCE) -> list[ServerGames]:
    """Each server of `seats` asked how its rooms stand (one `rooms` question per server,
    `at_once` servers at a time): one answer a server, in the order of its first seat."""
    by_server: dict[str, list[RoomSeat]] = {}
    for seat in seats:
        by_server.setdefault(normalised(seat.server), []).append(seat)
    gate = asyncio.Semaphore(at_once)

    async def ask(there: list[RoomSeat]) -> ServerGames:
        async with gate:
            return await _ask(there)

    return list(await asyncio.gather(*(ask(there) for there in by_server.values())))


async def _ask(seats: list[RoomSeat]) -> ServerGames:
    server = seats[0].server
    try:
        answer = await ask_rooms(server, [(seat.room, seat.secret) for seat in seats])
    except ASK_ERRORS as error:
        return ServerGames(server, tuple(MyGame(seat, None) for seat in seats), why_not(error))
    known = {summary.room: summary for summary in answer}
    return ServerGames(server, tuple(MyGame(seat, known.get(seat.room)) for seat in seats))


def why_not(error: Exception) -> str:
    """Why a server could not say, in a few words after its address."""
    if isinstance(error, OSError | TimeoutError):
        return "is not answering"
    if isinstance(error, ConnectionClosed):
        return "closed the connection"
    if isinstance(error, ProtocolError):
        return f"refused: {shown(str(error), 80)}"
    return "answered oddly"


def in_order(seats: Sequence[RoomSeat], answers: Sequence[ServerGames]) -> list[MyGame]:
    """The games of the servers that answered: the player's turn first, then the opponent's,
    then those over and those gone; newest first within each (the book keeps the newest
    last)."""
    games = {game.key: game for answer in answers if not answer.problem for game in answer.games}
    newest = [games[key] for key in map(seat_key, reversed(seats)) if key in games]
    return sorted(newest, key=lambda game: game.turn)


__all__ = [
    "ASK_ERRORS",
    "AT_ONCE",
    "MyGame",
    "ServerGames",
    "Turn",
    "ask_servers",
    "in_order",
    "seat_key",
    "why_not",
]
