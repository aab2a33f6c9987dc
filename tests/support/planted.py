"""A game with one blunder planted in it, then best play by both to the end: the review and the
mistakes screen find that blunder, and nothing else."""

from __future__ import annotations

from typing import Any

from dipole_tui.analysis import solve
from dipole_tui.games.base import State
from dipole_tui.games.dipole import DIPOLE

BLUNDER_START = "8:B:Wf6=2:Be7=2"


def game_with_planted_blunder() -> State[Any]:
    """The start above, Black's blunder e7-d6, and then best play by both to the end."""
    state = DIPOLE.parse_position(BLUNDER_START)
    state.play(DIPOLE.parse_move("e7-d6", state))
    while state.outcome() is None:
        move = solve(DIPOLE, state).move
        assert move is not None
        state.play(move)
    return state
