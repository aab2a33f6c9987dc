"""Where a square board's squares go on screen, without a widget: squares numbered
`rank * stride + file`, drawn in the largest cell size that fits, centred, rank numbers on the
left and file letters below, turned round when flipped; and where the cursor goes when the turn
passes. The square boards (Dipole, Death Stacks) each own one.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

CHIP_ROOM = 5  # the least cell width with a column to spare for a threat's chip
LABEL_WIDTH = 3  # the rank numbers


class Extent(NamedTuple):
    width: int
    height: int


class Placement(NamedTuple):
    """Where the drawing goes: its cell size, its top left corner and its whole size."""

    cell_w: int
    cell_h: int
    left: int
    top: int
    total: Extent


class Laid(Protocol):
    """What the layout reads of its board: its area, whether it is turned round, and the squares
    along a side of the position shown."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def flipped(self) -> bool: ...

    def grid_size(self) -> int: ...


def nearest(square: int, squares: set[int], columns: int) -> int:
    """Of `squares`, the one nearest `square` in king steps (then in rook steps), on a board
    numbered `rank * columns + file`: where the cursor goes when the turn passes."""
    file, rank = square % columns, square // columns

    def distance(other: int) -> tuple[int, int, int]:
        files, ranks = abs(other % columns - file), abs(other // columns - rank)
        return max(files, ranks), files + ranks, other

    return min(squares, key=distance)


def turn_passed(cursor: int, origins: set[int], columns: int) -> int | None:
    """Where the cursor goes when the turn passes to a person whose stacks that can move stand
    on `origins`: their one nearest it (None: it is on one, or there is none)."""
    return nearest(cursor, origins, columns) if origins and cursor not in origins else None


def square_clicked(meta: dict[str, object]) -> int | None:
    """The square drawn where a click landed (its style's `meta`), if any."""
    square = meta.get("square")
    return None if square is None else int(str(square))


class SquareLayout:
    """A square board's geometry: `cell_sizes` (width, height) from largest to smallest, the
    `files`' letters, `margins` (columns, lines) of the drawing besides its squares, of which
    `grid_left` columns are left of the first square and one line above the first row."""

    def __init__(
        self,
        board: Laid,
        files: str,
        stride: int,
        cell_sizes: tuple[tuple[int, int], ...],
        margins: tuple[int, int],
        grid_left: int,
    ) -> None:
        self.board, self.files, self.stride = board, files, stride
        self.cell_sizes, self.margins, self.grid_left = cell_sizes, margins, grid_left

    def drawing_size(self, cell: tuple[int, int]) -> Extent:
        """Terminal cells the whole drawing needs with `cell`-sized squares."""
        n = self.board.grid_size()
        return Extent(self.margins[0] + n * cell[0], self.margins[1] + n * cell[1])

    def cell_size(self) -> tuple[int, int] | None:
        """The largest cell that fits the board's area, or None when even the smallest does not."""
        width, height = self.board.size
        for cell in self.cell_sizes:
            need = self.drawing_size(cell)
            if need.width <= width and need.height <= height:
                return cell
        return None

    def placement(self) -> Placement | None:
        """Where the drawing goes, centred in the area; None when it does not fit."""
        cell = self.cell_size()
        if cell is None:
            return None
        total, (width, height) = self.drawing_size(cell), self.board.size
        left = max(0, (width - total.width) // 2)
        top = max(0, (height - total.height) // 2)
        return Placement(cell[0], cell[1], left, top, total)

    def screen_cell(self, square: int) -> tuple[int, int]:
        """(column, row) of a square on screen, from the top left."""
        n = self.board.grid_size()
        file, rank = square % self.stride, square // self.stride
        if self.board.flipped:
            return n - 1 - file, rank
        return file, n - 1 - rank

    def square_at(self, column: int, row: int) -> int:
        n = self.board.grid_size()
        if self.board.flipped:
            return row * self.stride + (n - 1 - column)
        return (n - 1 - row) * self.stride + column

    def stepped(self, square: int, dx: int, dy: int) -> int:
        """The square `dx` columns and `dy` rows (down) from `square` on screen, kept on the
        board."""
        n, (column, row) = self.board.grid_size(), self.screen_cell(square)
        return self.square_at(min(max(column + dx, 0), n - 1), min(max(row + dy, 0), n - 1))

    def square_box(self, square: int, placement: Placement) -> tuple[int, int, int, int]:
        """The part of the area a square is drawn in: x, y, width, height."""
        column, row = self.screen_cell(square)
        cell_w, cell_h, left, top, _ = placement
        return left + self.grid_left + column * cell_w, top + 1 + row * cell_h, cell_w, cell_h

    def file_line(self, cell_w: int) -> str:
        """The line under the squares: each file's letter centred under its column."""
        n = self.board.grid_size()
        columns = range(n - 1, -1, -1) if self.board.flipped else range(n)
        return " " * self.grid_left + "".join(self.files[file].center(cell_w) for file in columns)

    def rank_label(self, board_row: int, line: int, cell_h: int) -> str:
        """The rank number on the middle line of a row of squares, right-aligned."""
        number = board_row + 1 if self.board.flipped else self.board.grid_size() - board_row
        text = str(number) if line == (cell_h - 1) // 2 else ""
        return text.rjust(LABEL_WIDTH - 1) + " "
