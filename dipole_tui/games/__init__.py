"""The rules engines, one module per game; none of them imports Textual, Rich or does I/O."""

from .base import Game, GameError, IllegalMoveError, NotationError, Outcome, shown
from .bipod import BIPOD
from .death_stacks import DEATH_STACKS
from .dipole import DIPOLE

# Typed as the protocol: with several games mypy would otherwise infer their union, whose moves
# no caller could pass back.
GAMES: dict[str, Game] = {game.key: game for game in (DIPOLE, DEATH_STACKS, BIPOD)}

__all__ = [
    "BIPOD",
    "DEATH_STACKS",
    "DIPOLE",
    "GAMES",
    "GameError",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "shown",
]
