"""Perft: count the positions reached after exactly `depth` plies, the engine's correctness check.

A finished game reached earlier contributes nothing, and a forced pass is a ply (rulings.md).
"""

from __future__ import annotations

from .games.base import State


def perft(state: State, depth: int) -> int:
    """Leaves at `depth`, counting the last ply in bulk when the state can count its moves."""
    if depth == 0:
        return 1
    count_moves = getattr(state, "count_moves", None)
    if depth == 1:
        return count_moves() if count_moves else len(state.legal_moves())
    nodes = 0
    for move in state.legal_moves():
        state.play(move)
        nodes += perft(state, depth - 1)
        state.undo()
    return nodes
