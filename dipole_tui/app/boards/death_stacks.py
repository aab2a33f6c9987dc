"""The Death Stacks board: the 6x6 zone inside its wall ring, each stack drawn piece by piece.

A stack's pieces are drawn bottom to top from the cell's bottom line up, its height above them;
a stack too tall for its cell has its height written in place of its most buried pieces.
After a stack is picked, how many pieces move is chosen with the number keys, `+`/`-`, or by
clicking the lowest piece to take; the top part that moves is highlighted, its landing squares are
marked, and the path to the square under the cursor (reflections included) is drawn step by step.
It is drawn by its painter (`death_stacks_paint`) from its selection (`stack_selection`).
Everything shown comes from the rules core: `legal_moves()` for what may move where, `too_tall()`
for the stacks that must move, `move_ways()` for the way a move goes (and when several directions
land on the same square, the words under the board say which and how the walls turn them back).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Unpack

from textual import events
from textual.binding import Binding
from textual.strip import Strip

from ...games.death_stacks import FILES, SIZE, DeathStacksState, Move
from .death_stacks_paint import STATUS_LINES, WALL_WIDTH, StackPainter
from .death_stacks_text import ASCII, UNICODE, StackGlyphs
from .game_board import BoardOptions
from .parts import Part
from .square_grid import SquareBoard
from .square_layout import LABEL_WIDTH, square_clicked
from .stack_selection import StackSelection, home_square


class DeathStacksBoard(SquareBoard[DeathStacksState, Move]):
    """The board of a Death Stacks game: stacks, cursor, the part that moves, where it lands."""

    BREVITIES = 4  # how the status is said: 0 in full words ... 3 the shortest

    GLYPH_TABLES = (UNICODE, ASCII)
    glyphs: StackGlyphs
    CELL_SIZES = ((11, 5), (9, 4), (7, 3), (5, 2), (4, 1))
    FILES = FILES
    STRIDE = SIZE
    # The rank numbers and the wall each side; the wall above and below, the letters, the status.
    MARGINS = (LABEL_WIDTH + 2 * WALL_WIDTH, 3 + STATUS_LINES)
    GRID_LEFT = LABEL_WIDTH + WALL_WIDTH

    # Light wood: lighter squares and highlights than `GameBoard`'s, under red and black
    # pieces. Without colour (NO_COLOR) the pieces that move and the path are underlined.
    DEFAULT_CSS = """
    DeathStacksBoard > .board--zone { background: #e8d0a8; }
    DeathStacksBoard > .board--zone-alt { background: #d0b48a; }
    DeathStacksBoard > .board--wall { color: #6b5a48; background: #3a3129; }
    DeathStacksBoard > .board--red { color: #a00000; text-style: bold; }
    DeathStacksBoard > .board--black { color: #101010; text-style: bold; }
    DeathStacksBoard > .board--empty { color: #5a4028; }
    DeathStacksBoard > .board--mark { color: #101010; text-style: bold; }
    DeathStacksBoard > .board--cursor { background: #8cc0ec; }
    DeathStacksBoard > .board--selected { background: #c8b0e0; }
    DeathStacksBoard > .board--moving { background: #f0e060; }
    DeathStacksBoard > .board--target { background: #a8d890; }
    DeathStacksBoard > .board--capture { background: #f4a8a0; }
    DeathStacksBoard > .board--path { background: #b0e0e0; }
    DeathStacksBoard > .board--last { background: #f4b870; }
    DeathStacksBoard > .board--tall { color: #a00000; text-style: bold reverse; }
    DeathStacksBoard > .board--hint { background: #f0b0e0; }
    DeathStacksBoard > .board--threat { background: #f09030; }
    App:nocolor DeathStacksBoard > .board--cursor { color: #101010; }
    App:nocolor DeathStacksBoard > .board--moving { text-style: underline; }
    App:nocolor DeathStacksBoard > .board--path { text-style: underline; }
    """

    # The number keys are bindings too, not a key handler: a handler runs as the key reaches the
    # board, a binding once it has gone up to the app, so in a burst (Enter 1) a handler would
    # run before the bindings of the keys typed ahead of it.
    BINDINGS = [
        Binding("plus,equals_sign", "count(1)", "More", show=False),
        Binding("minus,underscore", "count(-1)", "Fewer", show=False),
        *(Binding(str(count), f"pieces({count})", show=False) for count in range(1, 10)),
    ]

    # What is selected, read as the board's own (by the tests and the latency bench too).
    selected = Part[int | None]("selection")
    count = Part[int]("selection")
    targets = Part[dict[int, Move]]("selection")

    def __init__(self, state: DeathStacksState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self.selection = StackSelection(state, [])
        self.painter = StackPainter(self)
        self._blocks = self.painter.blocks  # (cleared, never replaced)
        self.show_state(state, None)
        self.cursor = home_square(state, self.cursor)

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: DeathStacksState, last_move: Move | None) -> None:
        """After a move, undo or redo of the same game only the squares that change are
        redrawn (`StackPainter.changes`)."""
        changed = self.painter.changes(state, last_move)
        moved = self._take_position(state, last_move)
        self.selection = StackSelection(state, self._legal)
        self._follow_turn(moved)
        self.painter.redraw(changed)

    def show_hint(self, move: Move | None) -> None:
        before = self.marked()
        self.hint = move
        self.painter.redraw(before, self.notice)

    def side_glyph(self, side: int) -> str:
        return self.glyphs.pieces[side]

    def threat_words(self) -> str:
        return f"{self.side_glyph(0)} Red can take, {self.side_glyph(1)} Black can take"

    def forget_drawn(self) -> None:
        self._blocks.clear()

    def path_to_cursor(self) -> list[tuple[int, ...]]:
        return self.selection.paths_to(self.cursor)

    def marked(self) -> set[int]:
        """The squares drawn differently because of the cursor, the selection and the hint."""
        return self.selection.marked(self.cursor, self.hint)

    def said(self, brevity: int) -> list[str]:
        return self.selection.said(self.cursor, brevity, self.interactive)

    def render_line(self, y: int) -> Strip:
        return self.painter.render_line(y)

    # -- input -----------------------------------------------------------------------------

    def _pick(self, pick: Callable[[], tuple[Move | None, str | None]]) -> None:
        """A key's or a click's pick (`StackSelection`), if a person may choose now: its move
        is reported, else the painter shows what it changed (`StackPainter.picked`)."""
        if not self.takes_choices:
            return
        before = self.marked()
        move, refused = pick()
        if move is not None:
            self.choose(move)
        else:
            self.painter.picked(before, refused)

    def action_cursor(self, dx: int, dy: int) -> None:
        self._move_cursor(self.grid.stepped(self.cursor, dx, dy))

    def _move_cursor(self, square: int) -> None:
        before, self.cursor = self.marked(), square
        self.painter.redraw(before)

    def action_choose(self) -> None:
        self._pick(lambda: self.selection.choose(self.cursor))

    def drop_selection(self) -> None:
        if self.selected is not None:
            self._unselect(self.hint)

    def action_cancel(self) -> None:
        """Escape: forget the selection and the hint's marks."""
        if self.selected is not None or self.hint is not None:
            self._unselect(None)

    def _unselect(self, hint: Move | None) -> None:
        before, self.selection.selected, self.hint = self.marked(), None, hint
        self.painter.redraw(before)

    def action_count(self, step: int) -> None:
        """+ and -: more or fewer pieces, among the counts that can move."""
        if self.selected is None:
            self._pick(lambda: (None, self.selection.select(self.cursor, None)))
            return
        before = self.marked()
        if self.selection.step(step):
            self.painter.redraw(before)
        else:
            self.app.bell()

    def action_pieces(self, count: int) -> None:
        """A number key: that many pieces of the selected stack, else of the one under the
        cursor."""
        square = self.selected if self.selected is not None else self.cursor
        self._pick(lambda: (None, self.selection.select(square, count)))

    def on_click(self, event: events.Click) -> None:
        square = square_clicked(event.style.meta)
        if square is None:
            return
        self._move_cursor(square)
        level = event.style.meta.get("level")
        self._pick(lambda: self.selection.click(square, None if level is None else int(level)))
