"""Bots: functions of a game state and a budget that return a legal move.

A bot never changes the state it is given (it searches a copy), never imports the app, and with a
fixed seed and a depth budget is deterministic.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Protocol

from ..games.base import Move, State
from .search import Stop

LEVELS = ("random", "easy", "medium", "hard")  # offered to players
BASELINES = ("ab4",)  # fixed opponents for measuring
BOT_NAMES = LEVELS + BASELINES


@dataclass(frozen=True)
class Budget:
    """How long a bot may think: seconds of wall time and/or plies of search (None: no limit)."""

    movetime: float | None = 1.0
    depth: int | None = None


class Bot(Protocol):
    name: str

    def choose(self, state: State, budget: Budget, stop: Stop | None = None) -> Move:
        """A legal move for the side to move; `stop` being set ends the thinking at once."""
        ...


class RandomBot:
    """Any legal move, uniformly: the bottom of the ladder."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, budget: Budget, stop: Stop | None = None) -> Move:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        return self.rng.choice(moves)


def create_bot(name: str, game_key: str = "dipole", seed: int | None = None) -> Bot:
    """A bot by name (one of BOT_NAMES) for a game; ValueError for an unknown name."""
    if name == "random":
        return RandomBot(seed)
    from .levels import create_search_bot

    return create_search_bot(name, game_key, seed)
