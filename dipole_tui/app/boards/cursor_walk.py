"""Up and down on a board whose rows are offset by half a cell (Dipole's dark squares, Bi-Pod's
hexagons), without a widget: a step goes to one of two columns, so a walk keeps to the column it
began in rather than drift to one side.
"""

from __future__ import annotations

from collections.abc import Callable


class UpDownWalk:
    """Where the walk is now (-1: no walk) and the column it keeps to."""

    def __init__(self) -> None:
        self.at = -1
        self.column = 0.0

    def step(
        self, cursor: int, column: int, options: list[int], tie: Callable[[int], float]
    ) -> int:
        """Of `options` (the columns reached on the next row), the one nearest the column the
        walk began in (at `column`, unless the walk is already at `cursor`), then by `tie`."""
        if self.at != cursor:
            self.column = column
        return min(options, key=lambda option: (abs(option - self.column), tie(option)))
