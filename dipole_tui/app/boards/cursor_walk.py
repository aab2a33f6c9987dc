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

    def diagonal(
        self,
        cursor: int,
        cell: tuple[int, int],
        step: tuple[int, int],
        size: int,
        square_at: Callable[[int, int], int],
    ) -> int:
        """An arrow key on a board walked by its dark squares, from `cursor` at screen `cell`
        (column, row): two columns sideways (not off the board), or a row up or down to one of
        the two columns beside, the walk's, then the nearer the middle. The square reached;
        the caller keeps the cursor where it is if that square is light."""
        (column, row), (dx, dy) = cell, step
        if dx and 0 <= column + 2 * dx < size:
            column += 2 * dx
        if dy:
            row += dy
            options = [c for c in (column - 1, column + 1) if 0 <= c < size]
            column = self.step(cursor, column, options, lambda c: abs(c - (size - 1) / 2))
            self.at = square_at(column, row)
        return square_at(column, row)
