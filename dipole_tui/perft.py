"""Perft: count the positions reached after exactly `depth` plies, the engine's correctness check.

A finished game reached earlier contributes nothing, and a forced pass is a ply (rulings.md).
"""

from __future__ import annotations

from .games.base import M, State


def perft(state: State[M], depth: int) -> int:
    """Leaves at `depth`, the last ply counted in bulk (`count_moves` builds no moves)."""
    if depth == 0:
        return 1
    if depth == 1:
        return state.count_moves()
    nodes = 0
    for move in state.legal_moves():
        state.play(move)
        nodes += perft(state, depth - 1)
        state.undo()
    return nodes
