"""The geometry the two square boards (Dipole, Death Stacks) share: squares numbered
`rank * STRIDE + file`, drawn in the largest cell size that fits, centred, rank numbers on the
left and file letters below, turned round when flipped; a square drawn carries its number in
the style's meta data, so a click is resolved by what was drawn there.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar, NamedTuple, Protocol, TypeVar, Unpack

from rich.style import Style
from textual import events
from textual.geometry import Region, Size

from ...games.base import S
from .game_board import BoardOptions, GameBoard, nearest

CHIP_ROOM = 5  # the least cell width with a column to spare for a threat's chip


class SquareMove(Protocol):
    """What a square board reads of a move: the square it leaves and the one it reaches."""

    @property
    def origin(self) -> int: ...

    @property
    def target(self) -> int: ...


SM = TypeVar("SM", bound=SquareMove)


class Placement(NamedTuple):
    """Where the drawing goes: its cell size, its top left corner and its whole size."""

    cell_w: int
    cell_h: int
    left: int
    top: int
    total: Size


class SquareBoard(GameBoard[S, SM]):
    """A board of squares: cell size, placement, flipping and hit-testing, and the legal moves
    of the position shown, by the square they leave."""

    # Cell sizes (width, height) from largest to smallest; the board takes the largest that fits.
    CELL_SIZES: ClassVar[tuple[tuple[int, int], ...]]
    FILES: ClassVar[str]  # the file letters, from the first
    STRIDE: ClassVar[int]  # square = rank * STRIDE + file
    LABEL_WIDTH: ClassVar[int] = 3  # the rank numbers
    GRID_LEFT: ClassVar[int]  # columns of the drawing left of the first square
    GRID_TOP: ClassVar[int] = 1  # lines of the drawing above the first row

    def __init__(self, state: S, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self._legal: list[SM] = []
        squares = range(self.STRIDE * self.STRIDE)
        self._meta = {square: Style.from_meta({"square": square}) for square in squares}

    @abstractmethod
    def grid_size(self) -> int:
        """The squares along a side."""

    @abstractmethod
    def drawing_size(self, cell: tuple[int, int]) -> Size:
        """Terminal cells the whole drawing needs with `cell`-sized squares."""

    def minimum_size(self) -> Size:
        return self.drawing_size(self.CELL_SIZES[-1])

    def _take_position(self, state: S, last_move: SM | None) -> bool:
        moved = super()._take_position(state, last_move)
        self._legal = state.legal_moves()
        return moved

    def moves_from(self, origin: int) -> list[SM]:
        return [move for move in self._legal if move.origin == origin]

    def _follow_turn(self, moved: bool) -> bool:
        """The turn passed to a person: the cursor goes to their stack nearest to it. True
        when it went."""
        origins = {move.origin for move in self._legal if move.origin >= 0}  # (not a pass)
        if moved and self.interactive and origins and self.cursor not in origins:
            self.cursor = nearest(self.cursor, origins, self.STRIDE)
            return True
        return False

    # -- geometry --------------------------------------------------------------------------

    def cell_size(self) -> tuple[int, int] | None:
        """The largest cell that fits the widget, or None when even the smallest does not."""
        for cell in self.CELL_SIZES:
            need = self.drawing_size(cell)
            if need.width <= self.size.width and need.height <= self.size.height:
                return cell
        return None

    def placement(self) -> Placement | None:
        """Where the drawing goes, centred in the widget; None when it does not fit."""
        cell = self.cell_size()
        if cell is None:
            return None
        total = self.drawing_size(cell)
        left = max(0, (self.size.width - total.width) // 2)
        top = max(0, (self.size.height - total.height) // 2)
        return Placement(cell[0], cell[1], left, top, total)

    def screen_cell(self, square: int) -> tuple[int, int]:
        """(column, row) of a square on screen, from the top left: where the arrow keys walk
        (and the tests' and scenes' cursor)."""
        n = self.grid_size()
        file, rank = square % self.STRIDE, square // self.STRIDE
        if self.flipped:
            return n - 1 - file, rank
        return file, n - 1 - rank

    def _square_at(self, column: int, row: int) -> int:
        n = self.grid_size()
        if self.flipped:
            return row * self.STRIDE + (n - 1 - column)
        return (n - 1 - row) * self.STRIDE + column

    def square_region(self, square: int, placement: Placement) -> Region:
        """The part of the widget a square is drawn in."""
        column, row = self.screen_cell(square)
        cell_w, cell_h, left, top, _ = placement
        x = left + self.GRID_LEFT + column * cell_w
        return Region(x, top + self.GRID_TOP + row * cell_h, cell_w, cell_h)

    def file_line(self, cell_w: int) -> str:
        """The line under the squares: each file's letter centred under its column."""
        n = self.grid_size()
        columns = range(n - 1, -1, -1) if self.flipped else range(n)
        return " " * self.GRID_LEFT + "".join(self.FILES[file].center(cell_w) for file in columns)

    def rank_label(self, board_row: int, line: int, cell_h: int) -> str:
        """The rank number on the middle line of a row of squares, right-aligned."""
        number = board_row + 1 if self.flipped else self.grid_size() - board_row
        text = str(number) if line == (cell_h - 1) // 2 else ""
        return text.rjust(self.LABEL_WIDTH - 1) + " "

    @staticmethod
    def square_clicked(event: events.Click) -> int | None:
        """The square drawn where the click landed, if any."""
        square = event.style.meta.get("square")
        return None if square is None else int(square)
