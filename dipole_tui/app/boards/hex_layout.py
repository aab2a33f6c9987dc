"""Where the Bi-Pod board's cells go on screen, without a widget: the sheet's trapezium of
hexagons at the largest scale that fits, turned round when flipped, and where an arrow key takes
the cursor. The Bi-Pod board owns one.

Each text column of the sheet becomes `u` characters and each row `h` lines, so a cell is a brick
`2u - 1` wide and the rows stay offset by half a cell, as hexagons are (every cell touches two
above, two below and one on each side).
"""

from __future__ import annotations

from typing import Protocol

from ...games.bipod import CELLS, INDEX, LABELS, ROWS
from .bipod_text import PREVIEW
from .cursor_walk import UpDownWalk

LAST_COLUMN = len(LABELS) - 1  # text columns run 0..30
ROW_LABEL_WIDTH = 3  # the row number after each row, as on the sheet
# (characters per text column, lines per row), largest first; the board takes the largest that fits.
# At 80x24 that is (1, 1): two characters a column need 66 columns, and the side panel leaves 54.
SCALES = ((3, 3), (3, 2), (2, 2), (2, 1), (1, 1))
STATUS_LINES = 2  # at the least: the status wraps into the lines below the board


def spill(u: int) -> int:
    """Columns the cursor's bracketed preview reaches out of its brick on each side: at one
    character a column, into the gaps between the cells (and one column left of the board)."""
    return max(0, len(PREVIEW.format("x")) - (2 * u - 1)) // 2


def board_size(scale: tuple[int, int]) -> tuple[int, int]:
    """(width, height) in the terminal of a board at `scale`: the rows, a label line above and
    below, and the status."""
    u, h = scale
    width = spill(u) + LAST_COLUMN * u + (2 * u - 1) + ROW_LABEL_WIDTH
    return width, ROWS * h + 2 + STATUS_LINES


class HexArea(Protocol):
    """What the layout reads of its board: its area and whether it is turned round."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def flipped(self) -> bool: ...


class HexLayout:
    """The cells of the board `area` on screen, and the up-and-down walk between them."""

    def __init__(self, area: HexArea) -> None:
        self.area = area
        self.walk = UpDownWalk()

    def scale(self) -> tuple[int, int] | None:
        """The largest scale whose board fits the area (None: none does)."""
        width, height = self.area.size
        for scale in SCALES:
            need = board_size(scale)
            if need[0] <= width and need[1] <= height:
                return scale
        return None

    def screen_cell(self, cell: int) -> tuple[int, int]:
        """(text column, row from the top) of a cell on screen; flipped turns the board round."""
        row, column = CELLS[cell]
        if self.area.flipped:
            return LAST_COLUMN - column, ROWS - row
        return column, row - 1

    def cell_at(self, column: int, screen_row: int) -> int | None:
        if self.area.flipped:
            return INDEX.get((ROWS - screen_row, LAST_COLUMN - column))
        return INDEX.get((screen_row + 1, column))

    def stepped(self, cursor: int, dx: int, dy: int) -> int | None:
        """The cell an arrow key takes the cursor to (None: it stays): two text columns
        sideways, or up or down to one of the two cells beside, the walk's column first (then
        the left one). Cell 0 (the sheet's corner) is never reached up or down, as the board
        has always walked (a cell's number is tested for truth); sideways it is."""
        column, row = self.screen_cell(cursor)
        if dx:
            return self.cell_at(column + 2 * dx, row)
        options = [c for c in (column - 1, column + 1) if self.cell_at(c, row + dy)]
        if not options:
            return None
        best = self.walk.step(cursor, column, options, float)
        cell = self.cell_at(best, row + dy)
        self.walk.at = cell if cell is not None else -1
        return cell
