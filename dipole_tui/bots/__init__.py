"""Bots: functions of a game state and a budget that return a legal move.

Bots are made by `registry.create_bot`. A bot never changes the state it is given (it searches a
copy), never imports the app, and with a fixed seed and a depth budget is deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..games.base import M, State
from .search import Stop

# Every level any game offers, weakest first. Each game's ladder has the ones its steps need
# (`registry.levels`): a game with a narrow range of strength skips some. `easy`, `medium` and
# `hard` keep the styles they had before the ladder grew, where they still fit.
LEVELS = (
    "random",
    "beginner",
    "novice",
    "learner",
    "casual",
    "improver",
    "easy",
    "steady",
    "club",
    "skilled",
    "seasoned",
    "medium",
    "advanced",
    "sharp",
    "strong",
    "expert",
    "hard",
)
BASELINES = ("ab4", "hard-v1", "hard-fit")  # fixed opponents for measuring
BOT_NAMES = LEVELS + BASELINES


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: seconds of wall time and/or plies of search (None: no limit)."""

    movetime: float | None = 1.0
    depth: int | None = None


class Bot(Protocol):
    name: str

    def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
        """A legal move for the side to move; `stop` being set ends the thinking at once."""
        ...


class RandomBot:
    """Any legal move, uniformly: the bottom of the ladder."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State[M], budget: Budget, stop: Stop | None = None) -> M:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        return self.rng.choice(moves)
