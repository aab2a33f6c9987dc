"""Ratings on a game server, as lichess keeps them: Glicko-2 (`learn/rating.py`) per player, game
and speed, changed at the end of each rated game (each game a rating period of its own, so a
rating never drifts while its player is away), provisional until its tenth game.

The speed is lichess's: a time control's estimated duration, its minutes plus forty moves'
increments, under 3 minutes is bullet, under 8 blitz, under 25 rapid, else classical; any game of
days a move is correspondence. A game without a clock is never rated: nothing bounds how long it
takes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..clock import TimeControl
from ..learn.rating import Bout, Rating, update

SPEEDS: Final = ("bullet", "blitz", "rapid", "classical", "correspondence")
# The estimated duration (seconds) each speed stays under, fastest first; classical beyond.
BOUNDS: Final = ((180, "bullet"), (480, "blitz"), (1500, "rapid"))
PROVISIONAL_GAMES: Final = 10  # games before a rating is trusted (shown with "?" until then)
SCORES: Final = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}  # white's score by the result


def speed(clock: str | None) -> str | None:
    """The speed of a time control as `create` carries it (`5+3`, `3d`); None without a
    clock."""
    if clock is None:
        return None
    control = TimeControl.parse(clock)
    if control.days is not None:
        return "correspondence"
    estimate = control.minutes * 60 + 40 * control.increment
    return next((name for most, name in BOUNDS if estimate < most), "classical")


@dataclass(frozen=True)
class Standing:
    """A player's rating in one game at one speed, and the rated games it has counted."""

    rating: Rating = field(default_factory=Rating)  # a new player's: Glickman's defaults
    games: int = 0

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def points(self) -> int:
        """The rating as players read it: a whole number."""
        return round(self.rating.rating)

    def shown(self) -> str:
        return f"{self.points}{'?' if self.provisional else ''}"


def rate(white: Standing, black: Standing, result: str) -> tuple[Standing, Standing]:
    """Both players' standings after a rated game between them ended with `result`: each
    rated against the other's rating before the game."""
    score = SCORES[result]
    return (
        _after(white, black, score),
        _after(black, white, 1 - score),
    )


def _after(player: Standing, opponent: Standing, score: float) -> Standing:
    bout = Bout(opponent.rating.rating, opponent.rating.rd, score)
    return Standing(update(player.rating, [bout]), player.games + 1)


__all__ = ["PROVISIONAL_GAMES", "SPEEDS", "Standing", "rate", "speed"]
