"""What the two square boards (Dipole, Death Stacks) share: a `SquareLayout` of their squares
(a square drawn carries its number in the style's meta data, so a click is resolved by what was
drawn there), and the legal moves of the position shown, by the square they leave.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, TypeVar, Unpack

from rich.style import Style
from textual.geometry import Region, Size

from ...games.base import S
from .game_board import BoardOptions, GameBoard
from .square_layout import Placement, SquareLayout, turn_passed


class SquareMove(Protocol):
    """What a square board reads of a move: the square it leaves and the one it reaches."""

    @property
    def origin(self) -> int: ...

    @property
    def target(self) -> int: ...


SM = TypeVar("SM", bound=SquareMove)


class SquareBoard(GameBoard[S, SM]):
    """A board of squares, laid out by its `SquareLayout`."""

    # Cell sizes (width, height) from largest to smallest; the board takes the largest that fits.
    CELL_SIZES: ClassVar[tuple[tuple[int, int], ...]]
    FILES: ClassVar[str]  # the file letters, from the first
    STRIDE: ClassVar[int]  # square = rank * STRIDE + file
    MARGINS: ClassVar[tuple[int, int]]  # columns and lines of the drawing besides the squares
    GRID_LEFT: ClassVar[int]  # columns of the drawing left of the first square

    def __init__(self, state: S, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self._legal: list[SM] = []
        squares = range(self.STRIDE * self.STRIDE)
        self.square_meta = {square: Style.from_meta({"square": square}) for square in squares}
        cells, margins, left = self.CELL_SIZES, self.MARGINS, self.GRID_LEFT
        self.grid = SquareLayout(self, self.FILES, self.STRIDE, cells, margins, left)

    def grid_size(self) -> int:  # the squares along a side
        return self.STRIDE

    def minimum_size(self) -> Size:
        return Size(*self.grid.drawing_size(self.CELL_SIZES[-1]))

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
        goes = (
            turn_passed(self.cursor, origins, self.STRIDE) if moved and self.interactive else None
        )
        self.cursor = self.cursor if goes is None else goes
        return goes is not None

    # The layout's answers the app, the tests and the scenes ask the board for.
    def cell_size(self) -> tuple[int, int] | None:
        return self.grid.cell_size()

    def placement(self) -> Placement | None:
        return self.grid.placement()

    def screen_cell(self, square: int) -> tuple[int, int]:
        """Where the arrow keys walk (and the tests' and scenes' cursor)."""
        return self.grid.screen_cell(square)

    def square_region(self, square: int, placement: Placement) -> Region:
        return Region(*self.grid.square_box(square, placement))
