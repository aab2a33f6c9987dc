"""Which position a move was chosen in, or an answer worked out for.

Keys of one burst, a double click or a bot's late answer can reach the app after the game has
moved on. Each carries the position it belongs to, and the app plays or shows it only while the
game is still there: a move chosen for one position is never played in another (for the other
side), and an answer about a position gone is dropped. No Textual here: the bots' controller and
the analysis mode use it too.
"""

from __future__ import annotations

from typing import Any

from ..games.base import State

# (plies played, position string): the same only at the same point of the same game, where a
# move means what it meant when it was chosen.
Position = tuple[int, str]


def position_of(state: State[Any]) -> Position:
    """The position a choice or an answer in `state` belongs to."""
    return state.plies, state.position()


__all__ = ["Position", "position_of"]
