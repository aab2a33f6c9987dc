"""The rules engines, one module per game; none of them imports Textual, Rich or does I/O.

The games the program offers are registered in `dipole_tui.registry`, with their bots and boards.
"""

from .base import Game, GameError, IllegalMoveError, NotationError, Outcome, Termination, shown
from .bipod import BIPOD
from .death_stacks import DEATH_STACKS
from .dipole import DIPOLE

__all__ = [
    "BIPOD",
    "DEATH_STACKS",
    "DIPOLE",
    "Game",
    "GameError",
    "IllegalMoveError",
    "NotationError",
    "Outcome",
    "Termination",
    "shown",
]
