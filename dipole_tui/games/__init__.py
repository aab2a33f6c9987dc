"""The rules engines, one module per game; none of them imports Textual, Rich or does I/O.

The games the program offers are registered in `dipole_tui.registry`, with their bots and boards.
"""

from . import base
from .base import Game, GameError, IllegalMoveError, NotationError, Outcome, Termination, shown
from .bipod import BIPOD
from .death_stacks import DEATH_STACKS
from .dipole import DIPOLE

# Which build runs: a wheel built with a C compiler holds the rules compiled by mypyc
# (hatch_build.py), an extension module where the source would be.
BUILD = "pure Python" if base.__file__.endswith(".py") else "compiled (mypyc)"

__all__ = [
    "BIPOD",
    "BUILD",
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
