"""The Bi-Pod board: the sheet's trapezium of hexagons, larger than the sheet draws it.

The cells cut off from both start stones are blanked, as the sheet blanks them; the stones
connected to a start stone (its chain) are highlighted. Its parts: where the cells go
(`hex_layout`), what is marked and would be placed (`hex_marks`) and how it is drawn
(`hex_paint`). What may be placed is asked of the rules core (`is_legal`); the board decides no
rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Unpack

from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.strip import Strip

from ...games.bipod import (
    ADOPT,
    EMPTY,
    GRAY,
    SIDE_NAMES,
    START_CELLS,
    WHITE,
    BipodState,
    Move,
    why_illegal,
)
from .bipod_text import ASCII, CUT, UNICODE, HexGlyphs
from .game_board import BoardOptions, GameBoard
from .hex_layout import SCALES, HexLayout, board_size
from .hex_marks import HexMarks
from .hex_paint import HexPainter
from .parts import Part


class BipodBoard(GameBoard[BipodState, Move]):
    """The board of a Bi-Pod game: stones, chains, dead cells, and the stone to be placed."""

    GLYPH_TABLES = (UNICODE, ASCII)
    glyphs: HexGlyphs

    # On `GameBoard`'s dark wood, white stones, dark stones and blocks stand out from every
    # cell and highlight. Without colour (NO_COLOR) the other highlights are underlined (the
    # marked stones bold too).
    DEFAULT_CSS = """
    BipodBoard > .board--cell { background: #a07850; }
    BipodBoard > .board--dead { background: #4a4238; }
    BipodBoard > .board--block { color: #500000; text-style: bold; }
    BipodBoard > .board--gray { color: #0c1020; text-style: bold; }
    BipodBoard > .board--chain { background: #a88a30; }
    BipodBoard > .board--marked { background: #c87820; }
    BipodBoard > .board--notice { color: $text; background: $error; text-style: bold; }
    BipodBoard > .board--threat { background: #e04040; }
    App:nocolor BipodBoard > .board--marked { text-style: bold underline; }
    App:nocolor BipodBoard > .board--chain { text-style: underline; }
    """

    BINDINGS = [
        Binding("space", "mark", "Mark", show=False),
        Binding("c", "colour", "Colour", show=False),
        Binding("a", "adopt", "Adopt", show=False),
    ]

    # What is marked and where the cells go, read as the board's own (by the tests and the bench).
    colour = Part[str]("marks")
    marked = Part[list[int]]("marks")
    placing = Part[Callable[[], str]]("marks")
    scale = Part[Callable[[], tuple[int, int] | None]]("grid")
    screen_cell = Part[Callable[[int], tuple[int, int]]]("grid")

    def __init__(self, state: BipodState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self.cursor = START_CELLS[WHITE]
        self.marks = HexMarks(state)
        self.grid = HexLayout(self)
        self.painter = HexPainter(self)
        self.show_state(state, None)  # the cursor beside the start stone: Enter places at once

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: BipodState, last_move: Move | None) -> None:
        """When the turn passes to a person, the cursor goes to a free cell beside the stone
        just placed: in a placement game the answer is usually near it, and Enter on a taken
        cell would only be refused."""
        moved = self._take_position(state, last_move)
        placed = last_move.cells if last_move is not None else ()
        self.marks.take(state)
        self.notice = ""
        if moved and self.interactive and (placed or state.stone(self.cursor) != EMPTY):
            self.cursor = self.marks.free_near(placed[0] if placed else self.cursor)
        self.refresh()

    def show_hint(self, move: Move | None) -> None:
        self.hint = move
        self.refresh()

    def minimum_size(self) -> Size:
        return Size(*board_size(SCALES[-1]))

    def side_glyph(self, side: int) -> str:
        """A side's mark in the panel: what it places, once roles are taken. Before that both
        place blocking stones, so a side is its number, as position strings write it."""
        state = self.state
        if state.runner is None:
            return str(side + 1)
        return self.glyphs.stones[WHITE] if side == state.runner else self.glyphs.block

    def threat_words(self) -> str:
        blocker = self.state.blocker
        name = SIDE_NAMES[blocker] if blocker is not None else "the Blocker"
        return f"{CUT} {name} can cut a chain here"

    def threat_legend(self) -> str:
        if self.threats == {} and self.state.runner is None:
            return "Threats: none before adoption (no chains yet)"
        return super().threat_legend()

    def said(self, brevity: int) -> list[str]:
        if self.state.outcome() is not None or not self.interactive:
            return []
        return self.marks.said(self.hint, self.glyphs)

    def render_line(self, y: int) -> Strip:
        return self.painter.render_line(y)

    # -- input -----------------------------------------------------------------------------

    def _changed(self, notice: str = "") -> None:
        self.notice = notice
        self.refresh()

    def action_cursor(self, dx: int, dy: int) -> None:
        cell = self.grid.stepped(self.cursor, dx, dy)
        if cell is not None:
            before, self.cursor = self.cursor, cell
            self.painter.redraw_cells(before, cell)

    def action_choose(self) -> None:
        self._place(self.cursor)

    def drop_selection(self) -> None:
        if self.marked:
            self.marked = []
            self._changed()

    def action_cancel(self) -> None:
        """Escape: clear the marks and the hint."""
        if self.marked or self.hint is not None:
            self.marked = []
            self.hint = None
            self._changed()

    def action_mark(self) -> None:
        """Space: in the multi variant before adoption, gather up to three stones for Enter;
        otherwise the same as Enter."""
        if not (self.state.runner is None and self.state.multi):
            self._place(self.cursor)
        elif self.takes_choices:
            self._refuse(self.marks.mark(self.cursor))

    def action_colour(self) -> None:
        self.marks.switch()
        self._changed()

    def action_adopt(self) -> None:
        if not self.takes_choices:
            return
        if self.state.is_legal(ADOPT):
            self.choose(ADOPT)
        else:
            self._refuse(why_illegal(self.state, ADOPT))

    def _refuse(self, text: str) -> None:
        """Redraw, saying why a key was refused, with a bell ("": nothing refused)."""
        self._changed(text)
        if text:
            self.app.bell()

    def _place(self, cell: int, colour: str | None = None) -> None:
        if not self.takes_choices:
            return
        move = self.marks.move_at(cell, colour)
        if self.state.is_legal(move):
            self.choose(move)
        else:
            self._refuse(why_illegal(self.state, move))

    def on_click(self, event: events.Click) -> None:
        """A click places; in the multi variant it marks, and a double click places the marked
        stones; the right button places the Runner's other colour."""
        cell = event.style.meta.get("cell")
        if cell is None or not self.takes_choices:
            return
        self.cursor = int(cell)
        if self.state.runner is None and self.state.multi:
            if event.chain < 2:
                self.action_mark()  # a double click places what is marked
            else:
                self._place(self.cursor)
            return
        other = GRAY if self.colour == WHITE else WHITE
        self._place(self.cursor, other if event.button == 3 else None)
