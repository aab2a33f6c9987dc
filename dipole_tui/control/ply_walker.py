"""Walking through a game's plies: which one is shown, kept within the game. One walker for every
screen that steps through a game (the game screen's `[ ] Home End`, the review's arrows), each
with its own keys and its own way of showing the ply.
"""

from __future__ import annotations


class PlyWalker:
    """The ply shown among `plies` (0: the start, `plies`: after the last move). Each step
    answers whether the ply shown changed: at an end it stays, and the screen may ring."""

    def __init__(self, plies: int, ply: int | None = None) -> None:
        self.plies = plies
        self.ply = plies if ply is None else ply

    def to(self, ply: int) -> bool:
        """Show `ply` (one past an end: the end)."""
        ply = max(0, min(ply, self.plies))
        moved, self.ply = ply != self.ply, ply
        return moved

    def first(self) -> bool:
        return self.to(0)

    def back(self) -> bool:
        return self.to(self.ply - 1)

    def forward(self) -> bool:
        return self.to(self.ply + 1)

    def last(self) -> bool:
        return self.to(self.plies)


__all__ = ["PlyWalker"]
