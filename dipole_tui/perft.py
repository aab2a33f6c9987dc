"""Perft: count the positions reached after exactly `depth` plies, the engine's correctness check.

A finished game reached earlier contributes nothing, and a forced pass is a ply (docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Callable

from .games.base import M, State

Progress = Callable[[int, int], None]  # told (root moves counted, root moves) as each is done


def perft(state: State[M], depth: int, progress: Progress | None = None) -> int:
    """Leaves at `depth`, the last ply counted in bulk (`count_moves` builds no moves); a deep
    count, minutes long, tells `progress` of each root move counted."""
    if depth == 0:
        return 1
    if depth == 1:
        return state.count_moves()
    nodes = 0
    moves = state.legal_moves()
    if progress is not None:
        progress(0, len(moves))
    for done, move in enumerate(moves, 1):
        state.play(move)
        nodes += perft(state, depth - 1)
        state.undo()
        if progress is not None:
            progress(done, len(moves))
    return nodes
