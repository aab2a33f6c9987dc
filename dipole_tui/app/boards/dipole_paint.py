"""How the Dipole board is drawn, line by line, in Rich segments: its squares (each stack's text
from `dipole_stacks`, styled by what marks it: cursor, selection, destinations, last move, hint,
threats), rank numbers and file letters, and the removal strips. A part the board owns; only the
rows whose squares changed are redrawn, and rows that look the same as last time are reused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from ...games.dipole import MAX_HEIGHT, OFF, STRIDE, DipoleState, Move, square_name
from .dipole_stacks import ASCII, square_text
from .dipole_strip import strip_chips
from .game_board import render_too_small
from .square_layout import CHIP_ROOM, LABEL_WIDTH, Placement

if TYPE_CHECKING:
    from .dipole import DipoleBoard

THREAT_CHIP = "!"  # the threat overlay's chip in ASCII


class DipolePainter:
    """The board's lines, from what the board shows."""

    def __init__(self, board: DipoleBoard) -> None:
        self.board = board
        self._rows: dict[tuple[int, int], tuple[object, list[Segment]]] = {}
        self._cells: list[int] = []  # the stacks of the position drawn
        self._chip_meta = {k: Style.from_meta({"removal": k}) for k in range(1, 2 * MAX_HEIGHT)}

    def forget(self) -> None:
        """Drop the rows kept (another game, or the theme changed)."""
        self._rows.clear()

    def changes(self, state: DipoleState, last_move: Move | None) -> set[int] | None:
        """The squares drawn differently once `state` is shown after `last_move`, the board
        still showing the one before: their marks and the stacks that differ (None: all, as
        another game is shown)."""
        board, drawn = self.board, self._cells
        self._cells = list(state.cells)
        if state is not board.state or len(drawn) != len(state.cells):
            return None
        changed = {board.cursor, *board.targets}
        for move in (board.last_move, last_move, board.hint):
            if move is not None:
                changed.update((move.origin, move.target))
        if board.selected is not None:
            changed.add(board.selected)
        cells = enumerate(zip(drawn, state.cells, strict=True))
        return changed | {sq for sq, (was, now) in cells if was != now}

    def redraw(self, *squares: int) -> None:
        """Redraw just the rows of these squares (a pass's -1 is none) and the removal strips:
        a cursor step is cheap."""
        board = self.board
        placement = board.placement()
        if placement is None:
            board.refresh()
            return
        width, top, height = board.size.width, placement.top, placement.total.height
        regions = [Region(0, top, width, 1), Region(0, top + height - 1, width, 1)]
        for square in squares:
            if square >= 0:
                cell = board.square_region(square, placement)
                regions.append(Region(0, cell.y, width, cell.height))
        board.refresh(*regions)

    def render_line(self, y: int) -> Strip:
        board = self.board
        placement = board.placement()
        if placement is None:
            return render_too_small(board, y)
        base = board.rich_style  # every segment gets a style: NO_COLOR's filter needs one
        segments = self.line(y - placement.top, placement)
        if segments is None:
            return Strip.blank(board.size.width, base)
        pad = Segment(" " * placement.left, base)
        return Strip([pad, *segments]).adjust_cell_length(board.size.width, base)

    def threat_chip(self, side: int) -> str:
        """The threat overlay's chip: the glyph of the side that can take the stack; in ASCII
        `!` (the taker is the stack owner's opponent), as `x 1` would read as a capture's `x1`."""
        board = self.board
        return THREAT_CHIP if board.glyphs is ASCII else board.side_glyph(side)

    def threat_words(self) -> str:
        board = self.board
        if board.glyphs is ASCII:
            return f"{THREAT_CHIP} the opponent can take this stack"
        return f"{board.side_glyph(0)} White can take, {board.side_glyph(1)} Black can take"

    def line(self, row: int, placement: Placement) -> list[Segment] | None:
        """Line `row` of the drawing (0: its top); None past its end."""
        board = self.board
        cell_w, cell_h, left, _, total = placement
        total_height = total.height
        if row == total_height and board.threats is not None:  # the overlay's legend, if room
            text = board.threat_legend()[: board.size.width - left]
            return [Segment(text, board.style_of("board--label"))]
        if row < 0 or row >= total_height:
            return None
        if row == 0:
            return self.removal_strip(board.strip_on_top())
        if row == total_height - 1:
            return self.removal_strip(not board.strip_on_top())
        if row == total_height - 2:
            return [Segment(board.grid.file_line(cell_w), board.style_of("board--label"))]
        board_row, line = divmod(row - 1, cell_h)
        return self.board_line(board_row, line, cell_w, cell_h)

    def removal_strip(self, active: bool) -> list[Segment]:
        """One chip per removable count, as roomy as the board's width allows."""
        board = self.board
        removals = board.removals if active else []
        hint = board.hint
        if active and not removals and hint is not None and hint.target == OFF:
            removals = [hint]  # a hinted removal shows its chip before its stack is picked
        if not removals:
            return []
        layout = board.grid
        room = layout.drawing_size(layout.cell_size() or layout.cell_sizes[-1]).width
        label = board.style_of("board--label")
        counts = [move.count for move in removals]
        title, gap, chips = strip_chips(counts, room, LABEL_WIDTH)
        segments = [Segment(title, label)]
        for index, (count, chip) in enumerate(zip(counts, chips, strict=True)):
            if index:
                segments.append(Segment(gap, label))
            segments.append(Segment(chip, self.chip_style(count)))
        return segments

    def chip_style(self, count: int) -> Style:
        board = self.board
        meta = self._chip_meta[count]
        if board.removal_cursor != count:
            style = board.style_of("board--removal")
            hint = board.hint
            if (
                hint is not None
                and hint.target == OFF
                and hint.count == count
                and board.selected in (None, hint.origin)
            ):
                style += board.style_of("board--hint", partial=True)  # the chip's own text
            return style + meta
        return board.style_of("board--cursor") + meta

    def board_line(self, board_row: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """One text line of a board row; rows whose squares look the same as last time are
        reused, so a move redraws little more than the squares it touched."""
        board = self.board
        n = board.state.size
        squares = [board.grid.square_at(column, board_row) for column in range(n)]
        last = board.last_move
        touched = (last.origin, last.target) if last is not None else ()
        hint = board.hint
        hinted = (hint.origin, hint.target) if hint is not None else ()
        cursor = board.cursor if board.removal_cursor is None and board.has_focus else None
        looks = tuple(
            (
                board.state.cells[square],
                board.targets.get(square),
                square in touched,
                hint if square in hinted else None,
                square == board.selected,
                square == cursor,
                board.threat_by(square_name(square)),
            )
            for square in squares
        )
        key = (board_row, line, cell_w, cell_h, board.flipped, looks)
        cached = self._rows.get((board_row, line))
        if cached is not None and cached[0] == key:
            return cached[1]
        label = board.grid.rank_label(board_row, line, cell_h)
        segments = [Segment(label, board.style_of("board--label"))]
        for square in squares:
            segments += self.cell_segments(square, line, cell_w, cell_h)
        self._rows[(board_row, line)] = (key, segments)
        return segments

    def cell_segments(self, square: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """A square's line; a stack the threat overlay marks has a chip in its top left corner,
        the glyph of the side that can take it, and its drawing keeps to the columns beside
        the chip (in the smallest cells, with no column to spare, its text sits on the chip's
        colour instead)."""
        board = self.board
        file, rank = square % STRIDE, square // STRIDE
        meta = board.square_meta[square]
        if (file + rank) % 2:
            return [Segment(" " * cell_w, board.style_of("board--light") + meta)]
        taker = board.threat_by(square_name(square))
        chip = taker is not None and cell_w >= CHIP_ROOM
        width = cell_w - 1 if chip else cell_w
        text, text_style = self.cell_text(square, line, width, cell_h)
        style = self.square_style(square)
        if taker is not None and not chip:
            style += board.style_of("board--threat")
        cursor = Style()
        if square == board.cursor and board.removal_cursor is None and board.has_focus:
            # Over the glyphs too: without colour it is one reversed block, glyphs included.
            cursor = board.style_of("board--cursor", partial=True)
        body = Segment(text.center(width)[:width], style + text_style + cursor + meta)
        if not chip:
            return [body]
        if line:
            return [Segment(" ", style + cursor + meta), body]
        side = "board--white" if taker == 0 else "board--black"
        chip_style = board.style_of("board--threat") + board.style_of(side, partial=True)
        return [Segment(self.threat_chip(taker or 0), chip_style + cursor + meta), body]

    def square_style(self, square: int) -> Style:
        board = self.board
        style = board.style_of("board--dark")
        last = board.last_move
        if last is not None and square in (last.origin, last.target):
            style += board.style_of("board--last")
        hint = board.hint
        if hint is not None and square in (hint.origin, hint.target):
            style += board.style_of("board--hint")
        target = board.targets.get(square)
        if target is not None:
            kind = "board--capture" if target.capture else "board--target"
            style += board.style_of(kind)
        if square == board.selected:
            style += board.style_of("board--selected")
        return style

    def cell_text(self, square: int, line: int, cell_w: int, cell_h: int) -> tuple[str, Style]:
        board = self.board
        target = board.targets.get(square)
        if target is None and board.hint is not None and board.hint.target == square:
            target = board.hint  # the hinted destination says how many go, as a target does
        height = board.state.cells[square]
        text, kind = square_text(height, target, line, (cell_w, cell_h), board.glyphs)
        return text, board.style_of(kind, partial=True) if kind else Style()
