"""Your turn elsewhere: while the app runs, the servers of the player's other online games are
asked now and then how those games stand (one `rooms` question per server covers all its rooms,
a few servers at a time: `online/my_games.py`), and a game that has become the player's turn
since the last look is news. The app says it (a notice, the bell, the window title); no Textual
here.

The game on screen is not watched (its own link shows every move), nor a game that is over. A
game first seen is taken as it stands, without news (the player's turn there is counted as
waiting, but only a move made while the app looks is told); a game the player leaves is taken
as it stood on screen, so the opponent's answer after it is news. A server that does not answer
keeps what was known of its games until it does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from ..online.my_games import MyGame, Turn, ask_servers, seat_key
from ..online.seat import SeatBook, normalised

EVERY = 30.0  # seconds between two looks
Room = tuple[str, str]  # a server's normalised address and a room's code
Left = tuple[Room, "Turn", int]  # a room the player left: whose turn, after how many plies


class Seen(NamedTuple):
    """A game as last seen: whose turn, after how many plies."""

    turn: Turn
    plies: int


@dataclass(frozen=True)
class News:
    """What one look found."""

    moved: tuple[MyGame, ...]  # games that became the player's turn since the last look
    waiting: int  # the games (but the one on screen) waiting for the player's move
    first: bool  # the first look since the app started


class GameNews:
    """The player's other games, looked at every EVERY seconds while `run` runs."""

    def __init__(self, book: SeatBook, on_screen: Callable[[], Room | None]) -> None:
        self.book = book
        self.on_screen = on_screen  # the room on screen, by `room_of` (None: a game here)
        self.known: dict[Room, Seen] = {}  # each game as last seen
        self.over: set[Room] = set()  # ended or gone: not asked after again
        self.looked = False

    async def run(self, told: Callable[[News], None]) -> None:
        """Look, tell, wait; until cancelled (the app closing)."""
        while True:
            told(await self.look())
            await asyncio.sleep(EVERY)

    async def look(self) -> News:
        """Ask the servers of the games not on screen, and not over, how they stand."""
        here = self.on_screen()
        self.seen()
        asked = [
            seat
            for seat in self.book.seats()
            if not seat.filed and seat_key(seat) != here and seat_key(seat) not in self.over
        ]
        moved = []
        for answer in await ask_servers(asked) if asked else []:
            if answer.problem:
                continue  # what was known stands until the server answers again
            for game in answer.games:
                before = self.known.pop(game.key, None)
                if game.summary is None or game.turn is Turn.OVER:
                    self.over.add(game.key)
                    continue
                now = Seen(game.turn, game.summary.plies)
                self.known[game.key] = now
                if _moved(before, now) and game.key != self.on_screen():
                    moved.append(game)
        first, self.looked = not self.looked, True
        return News(tuple(moved), len(self.waiting()), first)

    def waiting(self) -> list[Room]:
        """The games waiting for the player's move, the one on screen left out."""
        here = self.on_screen()
        return [
            room for room, seen in self.known.items() if seen.turn is Turn.YOURS and room != here
        ]

    def seen(self) -> None:
        """The room now on screen is the player's to follow: what was known of it is
        forgotten until it is `left`."""
        here = self.on_screen()
        if here is not None:
            self.known.pop(here, None)

    def left(self, room: Room, turn: Turn, plies: int) -> None:
        """The player left that room as it stood on screen: a move there since is news."""
        if turn in (Turn.OVER, Turn.GONE):
            self.over.add(room)
        else:
            self.known[room] = Seen(turn, plies)


def room_of(server: str, code: str) -> Room:
    return normalised(server), code


def _moved(before: Seen | None, now: Seen) -> bool:
    """The opponent moved since the game was last seen, and it is the player's turn now. A
    game seen for the first time is taken as it stands."""
    if before is None or now.turn is not Turn.YOURS:
        return False
    return before.turn is Turn.THEIRS or now.plies > before.plies


__all__ = ["EVERY", "GameNews", "Left", "News", "Room", "Seen", "room_of"]
