"""The exact solver as the engine tools use it (`solve`, the analysis, the puzzles): the proof
search of `bots/proof.py`, which explains it, with the move ordering of the game's `hard` bot.
`hard` itself calls the proof search with its own knowledge."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from .bots import proof
from .bots.proof import MEMORY_MB, Solution, Verdict
from .bots.search import Knowledge, Stop
from .games.base import AnyGame, Game, GameError, M, State
from .registry import REGISTRY, games

__all__ = ["MEMORY_MB", "Solution", "Verdict", "solvable", "solve", "within"]


def solvable(game: AnyGame) -> Knowledge[Any, Any]:
    """The `hard` bot's knowledge of a game the solver can solve (`Game.solvable`), for its
    move ordering; GameError in one line for a game it cannot."""
    if not game.solvable:
        names = ", ".join(known.name for known in games() if known.solvable)
        raise GameError(f"the solver solves {names} only: games whose every game ends")
    knowledge: Knowledge[Any, Any] = REGISTRY[game.key].ladder["hard"].knowledge()
    return knowledge


def solve(
    game: Game[Any, M],
    state: State[M],
    max_nodes: int | None = None,
    stop: Stop | None = None,
    progress: Callable[[int], None] | None = None,
    memory: int = MEMORY_MB << 20,
) -> Solution[M]:
    """`proof.solve` with `hard`'s knowledge; GameError for a game the solver cannot solve."""
    return proof.solve(game, state, solvable(game), max_nodes, stop, progress, memory)


def within(
    game: Game[Any, M],
    state: State[M],
    result: Literal["win", "loss"],
    plies: int,
    max_nodes: int | None = None,
    stop: Stop | None = None,
    memory: int = MEMORY_MB << 20,
) -> Verdict:
    """`proof.within` with `hard`'s knowledge; GameError for a game the solver cannot solve."""
    return proof.within(game, state, solvable(game), result, plies, max_nodes, stop, memory)
