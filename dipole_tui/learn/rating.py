"""Glicko-2, as Glickman's "Example of the Glicko-2 system" (2012) gives it, and as lichess
rates: each game is a rating period of its own (so a rating never drifts while the player is
away). One implementation for every rating here: the puzzle rating (each puzzle an opponent
with a rating of its own, `learn.Progress`, `learned.json`), the player's rating against the
ladder (`results.py`) and a game server's ratings (`online/ratings.py`).

Pure arithmetic, no terminal. The bounds are those a figure read from a file must keep to
(`Rating` refuses any other), and `update` keeps to them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

SCALE = 173.7178  # Glicko-2's scale: (rating - 1500) / SCALE
TAU = 0.5  # the system constant: how far volatility may move; Glickman suggests 0.3 to 1.2
EPSILON = 0.000001  # the volatility's iteration stops within this
MOST_RATING = 4000.0
MOST_RD = 350.0  # a new player's deviation: no game says less than nothing
LEAST_VOLATILITY = 0.0001  # its square's logarithm is taken: 1e-200 would underflow to 0
MOST_VOLATILITY = 1.0
PROVISIONAL_RD = 110.0  # above it lichess marks a rating "?": too few games to trust it


class Bout(NamedTuple):
    """One game of a rating period: the opponent's rating and deviation, and the score."""

    rating: float
    rd: float
    score: float  # 1 a win, 0 a loss (0.5 a draw)


@dataclass(frozen=True)
class Rating:
    """Glicko-2's three figures, in the rating scale: a new player's are Glickman's defaults."""

    rating: float = 1500.0
    rd: float = MOST_RD  # the rating deviation: how unsure the rating is
    volatility: float = 0.06  # how erratic the player's results are

    def __post_init__(self) -> None:
        """A rating out of its bounds (or not a number: a file's `true`) is a ValueError."""
        for name, least, most in (
            ("rating", 0, MOST_RATING),
            ("rd", 0, MOST_RD),
            ("volatility", LEAST_VOLATILITY, MOST_VOLATILITY),
        ):
            value = getattr(self, name)
            if type(value) not in (int, float) or not least <= value <= most:  # NaN fails too
                raise ValueError(f"the {name} is not a number from {least:g} to {most:g}")

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def update(player: Rating, games: Sequence[Bout], tau: float = TAU) -> Rating:
    """The player's rating after one rating period of `games` (Glickman's steps 2 to 8); with
    none, only the deviation grows. Kept within the bounds `Rating` allows."""
    mu, phi, sigma = (player.rating - 1500) / SCALE, player.rd / SCALE, player.volatility
    if not games:
        return _bounded(player.rating, SCALE * math.hypot(phi, sigma), sigma)
    weighed = [(_g(game.rd / SCALE), (game.rating - 1500) / SCALE, game.score) for game in games]
    expected = [(g, 1 / (1 + math.exp(-g * (mu - mu_j))), s) for g, mu_j, s in weighed]
    v = 1 / sum(g * g * e * (1 - e) for g, e, _ in expected)
    gained = sum(g * (s - e) for g, e, s in expected)
    sigma = _volatility(phi, sigma, v, v * gained, tau)
    phi = 1 / math.sqrt(1 / (phi * phi + sigma * sigma) + 1 / v)
    # r + SCALE * change, not 1500 + SCALE * (mu + change): no round trip to lose a tiny gain
    return _bounded(player.rating + SCALE * phi * phi * gained, SCALE * phi, sigma)


def _g(phi: float) -> float:
    """How much a game against an opponent this unsure counts."""
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def _bounded(rating: float, rd: float, volatility: float) -> Rating:
    return Rating(
        min(max(rating, 0.0), MOST_RATING),
        min(rd, MOST_RD),
        min(max(volatility, LEAST_VOLATILITY), MOST_VOLATILITY),
    )
