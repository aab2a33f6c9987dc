"""The Dipole board: one widget drawn with Textual's line API.

The board shows what the rules core says: its selection (`dipole_selection`) filters
`legal_moves()` by the selected stack to find destinations and removals, and never decides a rule
itself; its painter (`dipole_paint`) draws it. Squares carry their identity in the style's meta
data, so a click is resolved by what was drawn there, not by arithmetic on coordinates.
"""

from __future__ import annotations

from typing import Unpack

from textual import events
from textual.strip import Strip

from ...games.dipole import FILES, PASS, STRIDE, DipoleState, Move, dark_squares, is_dark
from .cursor_walk import UpDownWalk
from .dipole_paint import DipolePainter
from .dipole_selection import DipoleSelection
from .dipole_stacks import ASCII, UNICODE, Glyphs
from .game_board import BoardOptions
from .parts import Part
from .square_grid import SquareBoard
from .square_layout import LABEL_WIDTH, square_clicked


def home_square(state: DipoleState) -> int:
    """Where the cursor starts: the side to move's biggest stack."""
    sign = 1 if state.to_move == 0 else -1
    own = [sq for sq in dark_squares(state.size) if state.cells[sq] * sign > 0]
    if not own:
        return dark_squares(state.size)[0]
    return max(own, key=lambda sq: state.cells[sq] * sign)


class DipoleBoard(SquareBoard[DipoleState, Move]):
    """The board of a Dipole game: stacks, cursor, selection, destinations and removals."""

    GLYPH_TABLES = (UNICODE, ASCII)
    glyphs: Glyphs
    CELL_SIZES = ((11, 5), (9, 4), (7, 3), (5, 2), (3, 1))
    FILES = FILES
    STRIDE = STRIDE
    # The rank numbers and a column after the squares; the removal strips and the file letters.
    MARGINS = (LABEL_WIDTH + 1, 3)
    GRID_LEFT = LABEL_WIDTH

    # On `GameBoard`'s dark wood, white and black glyphs stand out from every square and
    # highlight, dark squares look dark. Without colour (NO_COLOR) the selection is underlined.
    DEFAULT_CSS = """
    DipoleBoard > .board--light { background: #e8d0a8; }
    DipoleBoard > .board--dark { background: #a07850; }
    DipoleBoard > .board--black { color: #000000; text-style: bold; }
    DipoleBoard > .board--mark { color: #ffffff; text-style: bold; }
    DipoleBoard > .board--selected { background: #8a6aa8; }
    DipoleBoard > .board--target { background: #4a8a3a; }
    DipoleBoard > .board--capture { background: #c84848; }
    DipoleBoard > .board--removal { color: #ffffff; background: #4a8a3a; text-style: bold; }
    DipoleBoard > .board--threat { background: #d06010; }
    App:nocolor DipoleBoard > .board--selected { text-style: bold underline; }
    """

    # What is selected, read as the board's own (by the tests and the latency bench too).
    selected = Part[int | None]("selection")
    targets = Part[dict[int, Move]]("selection")
    removals = Part[list[Move]]("selection")
    removal_cursor = Part[int | None]("selection")

    def __init__(self, state: DipoleState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self.selection = DipoleSelection([])
        self.painter = DipolePainter(self)
        self.walk = UpDownWalk()
        self.show_state(state, None)
        self.cursor = home_square(state)

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: DipoleState, last_move: Move | None) -> None:
        """Only the rows whose squares changed are redrawn (`DipolePainter.changes`)."""
        changed = self.painter.changes(state, last_move)
        moved = self._take_position(state, last_move if last_move != PASS else None)
        self.selection = DipoleSelection(self._legal)
        if self.cursor not in dark_squares(self.state.size):
            self.cursor = home_square(self.state)
        followed = self._follow_turn(moved)
        if changed is None:
            self.painter.forget()
            self.refresh()
        else:
            self.painter.redraw(*changed, *([self.cursor] if followed else []))

    def show_hint(self, move: Move | None) -> None:
        changed = {self.cursor}
        for hinted in (self.hint, move):
            if hinted is not None:
                changed.update((hinted.origin, hinted.target))
        self.hint = move
        self.painter.redraw(*changed)

    def side_glyph(self, side: int) -> str:
        return self.glyphs.white_checker if side == 0 else self.glyphs.black_checker

    def threat_chip(self, side: int) -> str:
        return self.painter.threat_chip(side)

    def threat_words(self) -> str:
        return self.painter.threat_words()

    def forget_drawn(self) -> None:
        self.painter.forget()

    def grid_size(self) -> int:
        return self.state.size

    def strip_on_top(self) -> bool:
        """Removals are offered beside the far edge of the side to move."""
        return (self.state.to_move == 0) != self.flipped

    def render_line(self, y: int) -> Strip:
        return self.painter.render_line(y)

    # -- input -----------------------------------------------------------------------------

    def action_cursor(self, dx: int, dy: int) -> None:
        before, (column, row) = self.cursor, self.screen_cell(self.cursor)
        n = self.state.size
        if not self.selection.step_cursor(dx, dy, self.strip_on_top(), not 0 <= row + dy < n):
            square = self.walk.diagonal(before, (column, row), (dx, dy), n, self.grid.square_at)
            self.cursor = square if is_dark(square) else before
        self.painter.redraw(before, self.cursor)

    def action_choose(self) -> None:
        if self.removal_cursor is not None:
            self._choose_removal(self.removal_cursor)
        else:
            self._choose_square(self.cursor)

    def action_cancel(self) -> None:
        """Escape: forget the selection and the hint's marks."""
        if self.hint is not None:
            self.show_hint(None)
        if self.selected is None and self.removal_cursor is None:
            return
        self.painter.redraw(self.cursor, *self.selection.select(None))

    def _choose_square(self, square: int) -> None:
        if not self.takes_choices:
            return
        move, changed = self.selection.pick(square)
        if move is not None:
            self.choose(move)
        else:
            self.painter.redraw(self.cursor, *changed)

    def _choose_removal(self, count: int) -> None:
        move = self.selection.removal(count)
        if move is not None and self.takes_choices:
            self.choose(move)

    def drop_selection(self) -> None:
        self.painter.redraw(self.cursor, *self.selection.select(None))

    def on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        square = square_clicked(event.style.meta)
        if square is not None:
            if is_dark(square):
                before, self.cursor = self.cursor, square
                self.removal_cursor = None
                self.painter.redraw(before, square)
                self._choose_square(square)
        elif "removal" in meta and self.selection.removal(int(meta["removal"])) is not None:
            self.removal_cursor = int(meta["removal"])  # (a hint's own chip is only a mark)
            self._choose_removal(self.removal_cursor)
