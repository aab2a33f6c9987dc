"""The rules engines, one module per game; none of them imports Textual, Rich or does I/O."""

from .base import GameError, IllegalMoveError, NotationError, Outcome
from .dipole import DIPOLE

GAMES = {game.key: game for game in (DIPOLE,)}

__all__ = ["DIPOLE", "GAMES", "GameError", "IllegalMoveError", "NotationError", "Outcome"]
