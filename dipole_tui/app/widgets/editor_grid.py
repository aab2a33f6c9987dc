"""The position editor's board: every square the game names, what stands on it as the player
types it, and a cursor free to go anywhere, whatever the position (an unfinished edit may be one
no rule accepts yet).

One widget for every game: the squares come from `Game.edit_squares` (a row and a column in half
squares, so Bi-Pod's rows sit half a cell apart), the tokens from `Game.square_contents`, drawn
with the game board's glyphs (`ascii.typed_as_drawn`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ...games.base import EditSquare

LABEL_WIDTH = 3  # the rows' numbers left of the board
WIDTHS = (9, 8, 7, 6, 5, 4, 3, 2)  # a square's width in columns, the widest that fits


class Layout:
    """Where the squares go in an area: a square's width and height in cells, and the board's
    top left corner."""

    def __init__(self, squares: tuple[EditSquare, ...], width: int, height: int) -> None:
        rows = max(square.row for square in squares) + 1
        halves = max(square.column for square in squares) + 2
        hex_rows = any(square.column % 2 for square in squares)
        fitting = [w for w in WIDTHS if LABEL_WIDTH + halves * w // 2 <= width]
        fitting = [w for w in fitting if w % 2 == 0] if hex_rows else fitting
        self.width = fitting[0] if fitting else 2
        self.height = max(1, min(self.width // 2, (height - 1) // rows))
        board_width = LABEL_WIDTH + halves * self.width // 2
        self.left = max(0, (width - board_width) // 2)
        self.top = max(0, (height - 1 - rows * self.height) // 2)
        self.rows = rows
        self.board_width = board_width

    def x(self, square: EditSquare) -> int:
        """The first column of a square."""
        return self.left + LABEL_WIDTH + square.column * self.width // 2


class EditGrid(Widget, can_focus=True):
    """The squares and the cursor; arrows (or hjkl) and clicks move it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "editor--square",
        "editor--light",
        "editor--hole",
        "editor--cursor",
        "editor--label",
    }
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "step(0, -1)", "Up", show=False),
        Binding("down,j", "step(0, 1)", "Down", show=False),
        Binding("left,h", "step(-1, 0)", "Left", show=False),
        Binding("right,l", "step(1, 0)", "Right", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Moved(Message):
        """The cursor went to another square."""

    def __init__(
        self,
        squares: tuple[EditSquare, ...],
        contents: dict[str, str],
        glyphs: Mapping[str, str],
        ascii_glyphs: bool,
    ) -> None:
        super().__init__(id="editor-grid")
        self.squares = squares
        self.contents = contents  # the screen's own dict, changed there
        self.glyphs = glyphs  # a typed character -> the game board's glyph for it
        self.empty = glyphs.get(".", ".")
        self.cut = ".." if ascii_glyphs else "…"
        self._goal = squares[0].column  # the column up and down aim for
        self.hex_rows = any(square.column % 2 for square in squares)
        self._meta = [Style.from_meta({"square": i}) for i in range(len(squares))]

    @property
    def square(self) -> EditSquare:
        return self.squares[self.cursor]

    def watch_cursor(self) -> None:
        self.refresh()
        self.post_message(self.Moved())

    def action_step(self, dx: int, dy: int) -> None:
        here = self.square
        if dx:
            ahead = [s for s in self.squares if s.row == here.row]
            ahead = [s for s in ahead if (s.column - here.column) * dx > 0]
            if ahead:
                self._goal = min(ahead, key=lambda s: abs(s.column - here.column)).column
                self.cursor = self.squares.index(self._nearest(here.row, self._goal))
            return
        rows = sorted({s.row for s in self.squares if (s.row - here.row) * dy > 0})
        if rows:
            row = rows[0] if dy > 0 else rows[-1]
            self.cursor = self.squares.index(self._nearest(row, self._goal))

    def _nearest(self, row: int, column: int) -> EditSquare:
        """The square of `row` nearest `column`, the left one of two as near."""
        on_row = [s for s in self.squares if s.row == row]
        return min(on_row, key=lambda s: (abs(s.column - column), s.column))

    def on_click(self, event: events.Click) -> None:
        square = event.style.meta.get("square")
        if square is not None:
            self._goal = self.squares[int(square)].column
            self.cursor = int(square)
            self.focus()

    def text_of(self, token: str) -> str:
        """A token drawn as the board draws it, as it fits a square: a tall stack keeps its top
        (the end of its letters)."""
        room = self._layout().width - 1
        if not token:
            return self.empty
        token = "".join(self.glyphs.get(char, char) for char in token)
        if len(token) <= room:
            return token
        return self.cut + token[len(token) - room + len(self.cut) :]

    def _layout(self) -> Layout:
        return Layout(self.squares, self.size.width, self.size.height)

    def render_line(self, y: int) -> Strip:
        layout = self._layout()
        label = self.get_component_rich_style("editor--label")
        hole = self.get_component_rich_style("editor--hole")
        base = self.rich_style  # every segment styled: NO_COLOR's filter reads each one's
        line = y - layout.top
        if line < 0 or line > layout.rows * layout.height:
            return Strip.blank(self.size.width, base)
        segments = [Segment(" " * layout.left, base)]
        if line == 0:
            segments += self._letters(layout, label)
            return Strip(segments).adjust_cell_length(self.size.width, base)
        row, sub = divmod(line - 1, layout.height)
        middle = sub == layout.height // 2
        on_row = sorted((s for s in self.squares if s.row == row), key=lambda s: s.column)
        number = re.sub(r"^\D*", "", on_row[0].name) if on_row and middle else ""
        segments.append(Segment(f"{number:>2} ", label))
        x = layout.left + LABEL_WIDTH
        for square in on_row:
            start = layout.x(square)
            if start > x:
                segments.append(Segment(" " * (start - x), hole))
            index = self.squares.index(square)
            kind = "editor--cursor" if index == self.cursor else self._shade(square)
            style = self.get_component_rich_style(kind) + self._meta[index]
            text = self.text_of(self.contents.get(square.name, "")) if middle else ""
            segments.append(Segment(text.center(layout.width)[: layout.width], style))
            x = start + layout.width
        end = layout.left + layout.board_width
        if end > x:
            segments.append(Segment(" " * (end - x), hole))
        return Strip(segments).adjust_cell_length(self.size.width, base)

    def _shade(self, square: EditSquare) -> str:
        """Squares side by side in two shades, so that each is seen (Dipole's are all dark); a
        hex board's cells in one, its rows' offsets telling them apart."""
        light = not self.hex_rows and (square.row + square.column // 2) % 2 == 0
        return "editor--light" if light else "editor--square"

    def _letters(self, layout: Layout, style: Style) -> list[Segment]:
        """The columns' letters over the board, each over the middle of its squares."""
        line = [" "] * (layout.board_width + layout.width)
        for square in self.squares:
            letters = re.sub(r"\d+$", "", square.name)
            x = layout.x(square) - layout.left + (layout.width - len(letters)) // 2
            line[x : x + len(letters)] = letters
        return [Segment("".join(line).rstrip(), style)]
