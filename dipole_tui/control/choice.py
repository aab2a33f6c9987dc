"""What the new-game dialog settles, apart from the dialogs: the command line and the app make
one too, and this module loads no Textual."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..clock import TimeControl
from ..session import Seat


@dataclass(frozen=True)
class GameChoice:
    """Which game, which board, who plays each side, and the clocks (None: none)."""

    game_key: str
    variant: str
    players: tuple[Seat, Seat]
    time_control: TimeControl | None = None

    def rematch(self) -> GameChoice:
        """The same game with the colours swapped: the same board, clock and bot (or person),
        as lichess's rematch."""
        return replace(self, players=(self.players[1], self.players[0]))


@dataclass(frozen=True)
class OnlineChoice:
    """A room of a game server: a new one for `game` (`kind` create), a seek for it in the
    lobby (`seek`), or `room` to join or watch, or the lobby's seek of that code to accept
    (`accept`); `side` the seat asked for when creating or seeking (white, black or random)."""

    server: str
    kind: str  # create, seek, join, watch or accept
    room: str = ""
    game: GameChoice | None = None
    side: str = "random"
    name: str | None = None  # the name to play under (None: the one kept for the server, if any)
    rated: bool = False  # a new room's game is rated (it needs a name and a clock)
    range: int | None = None  # a seek: the most the other's rating may differ
    invite: str | None = None  # a seek: the one player who sees it


@dataclass(frozen=True)
class LearnChoice:
    """The new-game dialog's Learn: the lessons of a game instead of a game."""

    game_key: str


__all__ = ["GameChoice", "LearnChoice", "OnlineChoice"]
