"""How the Bi-Pod board is drawn: its rows of hexagon bricks from the layout (`hex_layout`), each
cell's stone and highlights from what is marked (`hex_marks`), the column letters, the row
numbers, and the status under it. A part the board owns; a cursor step redraws only the rows it
left and reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from ...games.bipod import (
    BLOCK,
    CELL_COUNT,
    GRAY,
    LABELS,
    ROW_CELLS,
    ROWS,
    START_CELLS,
    WHITE,
    cell_name,
)
from ..ascii import plain
from .bipod_text import ASCII, CUT, PREVIEW
from .game_board import render_too_small
from .hex_layout import LAST_COLUMN, ROW_LABEL_WIDTH, STATUS_LINES, board_size, spill

if TYPE_CHECKING:
    from .bipod import BipodBoard


class HexPainter:
    """Draws `board` line by line (the line API)."""

    def __init__(self, board: BipodBoard) -> None:
        self.board = board
        self._meta = [Style.from_meta({"cell": cell}) for cell in range(CELL_COUNT)]

    def render_line(self, y: int) -> Strip:
        board = self.board
        width = board.size.width
        scale = board.grid.scale()
        if scale is None:
            return render_too_small(board, y)
        u, h = scale
        total_width, total_height = board_size(scale)
        left = max(0, (width - total_width) // 2)
        top = max(0, (board.size.height - total_height) // 2)
        line = y - top
        status_top = total_height - STATUS_LINES
        base = board.looks.base()  # every segment gets a style: NO_COLOR's filter needs one
        if line < 0:
            return Strip.blank(width, base)
        if line >= status_top:  # under the cells, not the column the preview spills into
            left += spill(u)
        segments = [Segment(" " * left, base)]
        if line >= status_top:  # the status, wrapped into the lines down to the widget's end
            lines = board.status_lines(width - left, board.size.height - top - status_top)
            said = lines[line - status_top] if line - status_top < len(lines) else ""
            said = plain(said) if board.glyphs is ASCII else said
            kind = "board--notice" if board.notice and said else "board--status"
            segments.append(Segment(said, board.style_of(kind)))
        elif line in (0, status_top - 1):
            labels = LABELS[::-1] if board.flipped else LABELS
            text = [" "] * (total_width - ROW_LABEL_WIDTH)
            for column, letter in enumerate(labels):
                text[spill(u) + column * u + u - 1] = letter  # over the middle of its cells
            segments.append(Segment("".join(text), board.style_of("board--label")))
        else:
            screen_row, sub = divmod(line - 1, h)
            segments += self._row_line(screen_row, sub, u, h, base)
        return Strip(segments).adjust_cell_length(width, base)

    def _row_line(self, screen_row: int, sub: int, u: int, h: int, base: Style) -> list[Segment]:
        """One text line of a row of cells: each a brick, the row's number after them."""
        board = self.board
        segments: list[Segment] = []
        x, brick = 0, 2 * u - 1
        for cell in (
            ROW_CELLS[ROWS - 1 - screen_row][::-1] if board.flipped else ROW_CELLS[screen_row]
        ):
            text, style = self._cell_text(cell, sub == (h - 1) // 2)
            text = text.center(brick)  # a preview wider than its brick spills into the gaps
            start = spill(u) + board.grid.screen_cell(cell)[0] * u - (len(text) - brick) // 2
            segments.append(Segment(" " * (start - x), base))
            segments.append(Segment(text, style + self._meta[cell]))
            x = start + len(text)
        row = ROWS - screen_row if board.flipped else screen_row + 1
        label = f"{row:>{ROW_LABEL_WIDTH}}" if sub == (h - 1) // 2 else ""
        end = spill(u) + LAST_COLUMN * u + brick
        tail = " " * (end - x) + label if x <= end else label[x - end :]  # spilt into its pad
        segments.append(Segment(tail, board.style_of("board--label")))
        return segments

    def _cell_text(self, cell: int, middle: bool) -> tuple[str, Style]:
        """A cell's glyph (on its middle line) and style: the stone, its chain, the last move,
        the hint, the marks and the cursor, in that order, so the cursor always shows."""
        board, marks = self.board, self.board.marks
        stone = board.state.stone(cell)
        dead = cell in marks.dead
        style = board.style_of("board--dead" if dead else "board--cell")
        cursor = cell == board.cursor and board.has_focus
        glyphs, hint = board.glyphs, board.hint
        if stone in (WHITE, GRAY):
            shapes = glyphs.starts if cell == START_CELLS[stone] else glyphs.stones
            text, kind = shapes[stone], "board--white" if stone == WHITE else "board--gray"
            if cell in marks.chains[stone]:
                style += board.style_of("board--chain")
        elif stone == BLOCK or cell in marks.marked:
            text, kind = glyphs.block, "board--block"
        elif cursor and board.interactive:  # what Enter would place here, not yet a stone
            text, kind = self._stone_look(marks.placing())
            text = PREVIEW.format(text)
        elif hint is not None and cell in hint.cells:  # what the hint would place
            text, kind = self._stone_look(hint.kind)
        elif board.threat_by(cell_name(cell)) is not None:  # a Blocker's stone here cuts
            text, kind = CUT, "board--block"
            style += board.style_of("board--threat")
        else:
            text, kind = ("" if dead else glyphs.empty), "board--empty"
        last = board.last_move
        if last is not None and cell in last.cells:
            style += board.style_of("board--last")
        if hint is not None and cell in hint.cells:
            style += board.style_of("board--hint")
        if cell in marks.marked:
            style += board.style_of("board--marked")
        style += board.style_of(kind, partial=True)
        if cursor:  # over the glyph: without colour it is one reversed block, glyph included
            style += board.style_of("board--cursor", partial=True)
        return (text if middle else ""), style

    def _stone_look(self, stone: str) -> tuple[str, str]:
        """The glyph and component class of a stone ("x", "o" or "O") about to be placed."""
        glyphs = self.board.glyphs
        if stone == BLOCK:
            return glyphs.block, "board--block"
        return glyphs.stones[stone], "board--white" if stone == WHITE else "board--gray"

    def redraw_cells(self, *cells: int) -> None:
        """A cursor step redraws the rows of the cells it left and reached, and the status
        line (which a notice may have filled): not the whole board."""
        board = self.board
        board.notice = ""
        scale = board.grid.scale()
        if scale is None:
            board.refresh()
            return
        h = scale[1]
        top = max(0, (board.size.height - board_size(scale)[1]) // 2)
        width = board.size.width
        status_top = top + board_size(scale)[1] - STATUS_LINES
        regions = [Region(0, status_top, width, board.size.height - status_top)]
        for cell in cells:
            row = board.grid.screen_cell(cell)[1]
            regions.append(Region(0, top + 1 + row * h, width, h))
        board.refresh(*regions)
