"""The lobby: the seeks of players waiting for a game, as lichess's lobby holds them.

A seek is a named player's wish (a game, its variant and clock, rated or not, a side, how far
the other's rating may be, and who may take it: anyone, or one invited name). It stays while its
connection is open and not in a room, at most one a connection (a new one replaces it). Two
seeks that fit each other pair at once; any player it is shown to may accept it. No sockets
here: the server seats the pair.
"""

from __future__ import annotations

import secrets
from collections.abc import Container, Iterator
from dataclasses import dataclass

from .connection import Client
from .protocol import ROOM_LETTERS, OpenSeek, Seek
from .ratings import Standing
from .store import name_key

SEEK_CODE_LENGTH = 6


@dataclass(frozen=True)
class Waiting:
    """A seek in the lobby: its code, its player, the game as the server read it (the
    variant named, the clock as it writes it) and the seeker's standing at its speed."""

    code: str
    client: Client
    seek: Seek
    variant: str
    clock: str | None
    standing: Standing | None

    @property
    def name(self) -> str:
        assert self.client.name is not None  # only named players seek
        return self.client.name

    def shown_to(self, name: str | None) -> bool:
        """Whether the player of that name sees it: its seeker, and anyone unless invited."""
        invited = self.seek.invite
        if name is not None and name_key(name) == name_key(self.name):
            return True
        return invited is None or (name is not None and name_key(invited) == name_key(name))

    def fits(self, other: Waiting) -> bool:
        """Whether two seeks make one game: the same game, variant, clock and kind, sides that
        do not clash, each shown to the other's player, each rating within the other's range."""
        mine, theirs = self.seek, other.seek
        return (
            name_key(self.name) != name_key(other.name)
            and (mine.game, self.variant, self.clock, bool(mine.rated))
            == (theirs.game, other.variant, other.clock, bool(theirs.rated))
            and not (mine.side in ("white", "black") and mine.side == theirs.side)
            and self.shown_to(other.name)
            and other.shown_to(self.name)
            and self.admits(other.standing)
            and other.admits(self.standing)
        )

    def admits(self, rating: Standing | None) -> bool:
        """Whether `rating` is within the seek's range of its seeker's rating."""
        most, own = self.seek.range, self.standing
        if most is None or own is None or rating is None:
            return True
        return abs(rating.points - own.points) <= most

    def listed(self) -> OpenSeek:
        standing = self.standing
        return OpenSeek(
            self.code,
            self.name,
            None if standing is None else standing.points,
            None if standing is None else standing.provisional,
            self.seek.game,
            self.variant,
            self.clock,
            bool(self.seek.rated),
            self.seek.side,
        )


class Lobby:
    """The open seeks, by code and by connection."""

    def __init__(self) -> None:
        self.seeks: dict[str, Waiting] = {}
        self._of: dict[Client, str] = {}

    def __len__(self) -> int:
        return len(self.seeks)

    def add(self, waiting: Waiting) -> Waiting | None:
        """Post `waiting` (its connection's earlier seek withdrawn), or, when an open seek fits
        it, take that one out and return it: the two make a game."""
        self.withdraw(waiting.client)
        match = next((seek for seek in self.seeks.values() if seek.fits(waiting)), None)
        if match is not None:
            self.withdraw(match.client)
            return match
        self.seeks[waiting.code] = waiting
        self._of[waiting.client] = waiting.code
        return None

    def take(self, code: str) -> Waiting | None:
        """The seek of that code, out of the lobby (None: gone, or never there)."""
        waiting = self.seeks.get(code)
        if waiting is not None:
            self.withdraw(waiting.client)
        return waiting

    def withdraw(self, client: Client) -> None:
        """The connection's seek leaves (it closed, sat down, or seeks anew)."""
        code = self._of.pop(client, None)
        if code is not None:
            del self.seeks[code]

    def shown_to(self, name: str | None, game: str | None) -> Iterator[Waiting]:
        for waiting in self.seeks.values():
            if (game is None or waiting.seek.game == game) and waiting.shown_to(name):
                yield waiting

    def new_code(self, taken: Container[str]) -> str:
        """A code no seek and no room holds (`taken`: the rooms in memory)."""
        while True:
            code = "".join(secrets.choice(ROOM_LETTERS) for _ in range(SEEK_CODE_LENGTH))
            if code not in self.seeks and code not in taken:
                return code


__all__ = ["Lobby", "Waiting"]
