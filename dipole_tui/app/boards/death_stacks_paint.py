"""How the Death Stacks board is drawn, line by line, in Rich segments: the wall ring, each
square's block of lines (a header over its pieces, from `death_stacks_text`, styled by what marks
it: cursor, selection, the part that moves, its path, last move, hint, threats), rank numbers,
file letters and the status under it. A part the board owns; it redraws only the squares whose
look changes, and keeps each square's block until then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip

from ...games.death_stacks import RED, SIZE, TOO_TALL, DeathStacksState, Move, square_name
from .death_stacks_text import header, piece_levels, text_class
from .game_board import render_too_small
from .square_layout import CHIP_ROOM, LABEL_WIDTH, Placement

if TYPE_CHECKING:
    from .death_stacks import DeathStacksBoard

# A square's drawing: its style, and its lines of (text, style) parts.
Block = tuple[Style, list[list[tuple[str, Style]]]]

WALL_WIDTH = 2  # the wall ring is drawn thinner than a square: it is never played on
STATUS_LINES = 2  # at the least: the board's status line wraps into the lines below it


class StackPainter:
    """The board's lines, from what the board shows."""

    def __init__(self, board: DeathStacksBoard) -> None:
        self.board = board
        # Each square's style and lines, drawn once and kept until its look changes;
        # `_blocks_for` says for which size, focus and seat they hold.
        self.blocks: dict[int, Block] = {}
        self._blocks_for: object = None
        self._cells: list[tuple[int, ...]] = []  # the stacks of the position drawn

    def changes(self, state: DeathStacksState, last_move: Move | None) -> set[int] | None:
        """The squares drawn differently once `state` is shown after `last_move`, the board
        still showing the one before: the old marks, the last moves', the stacks that differ
        and every tall stack, whose "!" depends on whose turn it is (None: all, as another
        game or the first drawing is shown)."""
        board, drawn = self.board, self._cells
        self._cells = list(state.cells)
        if state is not board.state or not drawn:
            return None
        before = board.marked()
        for move in (board.last_move, last_move):
            if move is not None:
                before.update((move.origin, move.target))
        cells = enumerate(zip(drawn, state.cells, strict=True))
        changed = {sq for sq, (was, now) in cells if was != now}
        tall = {sq for sq, stack in enumerate(state.cells) if len(stack) > TOO_TALL}
        return before | changed | tall

    def picked(self, before: set[int], refused: str | None) -> None:
        """Show what a pick that chose no move changed (`StackSelection`): why it was refused,
        with a bell; a cancel (None) drops the hint too, as Escape does."""
        if refused is None:
            self.board.hint = None
        self.redraw(before, refused or "")
        if refused:
            self.board.app.bell()

    def redraw(self, before: set[int] | None, notice: str = "") -> None:
        """Redraw the squares marked before (None: all squares) or after a change, and the
        status line, which says `notice` (or the status)."""
        board = self.board
        board.notice = notice
        if before is None:
            self.blocks.clear()
            board.refresh()
            return
        squares = before | board.marked()
        for square in squares:
            self.blocks.pop(square, None)
        placement = board.placement()
        if placement is None:
            board.refresh()
            return
        status_top = placement.top + placement.total.height - STATUS_LINES
        regions = [Region(0, status_top, board.size.width, board.size.height - status_top)]
        regions += [board.square_region(square, placement) for square in squares]
        board.refresh(*regions)

    def render_line(self, y: int) -> Strip:
        board = self.board
        placement = board.placement()
        if placement is None:
            return render_too_small(board, y)
        base = board.looks.base()  # every segment gets a style: NO_COLOR's filter needs one
        if y < placement.top:
            return Strip.blank(board.size.width, base)
        segments = self.line(y - placement.top, placement)
        pad = Segment(" " * placement.left, base)
        return Strip([pad, *segments]).adjust_cell_length(board.size.width, base)

    def line(self, row: int, placement: Placement) -> list[Segment]:
        """Line `row` of the drawing (0: its top), after the margin on its left."""
        board = self.board
        cell_w, cell_h, left, top, total = placement
        status_top = total.height - STATUS_LINES
        label = board.style_of("board--label")
        wall = board.style_of("board--wall")
        glyphs = board.glyphs
        if row >= status_top:  # the status, wrapped into the lines down to the widget's end
            lines = board.status_lines(
                board.size.width - left, board.size.height - top - status_top
            )
            text = lines[row - status_top] if row - status_top < len(lines) else ""
            return [Segment(text, self.status_style())]
        if row in (0, status_top - 2):
            return [
                Segment(" " * LABEL_WIDTH, label),
                Segment(glyphs.wall * (total.width - LABEL_WIDTH), wall),
            ]
        if row == status_top - 1:
            return [Segment(board.grid.file_line(cell_w), label)]
        board_row, line = divmod(row - 1, cell_h)
        segments = [Segment(board.grid.rank_label(board_row, line, cell_h), label)]
        segments.append(Segment(glyphs.wall * WALL_WIDTH, wall))
        drawn_for = (cell_w, cell_h, board.flipped, board.has_focus, board.interactive)
        if drawn_for != self._blocks_for:
            self.blocks.clear()
            self._blocks_for = drawn_for
        for column in range(SIZE):
            square = board.grid.square_at(column, board_row)
            segments += self.cell_line(square, line, cell_w, cell_h)
        segments.append(Segment(glyphs.wall * WALL_WIDTH, wall))
        return segments

    def status_style(self) -> Style:
        board = self.board
        if board.notice or (
            board.selected is None and board.state.too_tall() and board.interactive
        ):
            return board.style_of("board--tall")
        return board.style_of("board--status")

    def square_style(self, square: int, on_path: set[int]) -> Style:
        board = self.board
        file, rank = square % SIZE, square // SIZE
        style = board.style_of("board--zone" if (file + rank) % 2 else "board--zone-alt")
        last = board.last_move
        if last is not None and square in (last.origin, last.target):
            style += board.style_of("board--last")
        if square in on_path:
            style += board.style_of("board--path")
        hint = board.hint
        if hint is not None and square in (hint.origin, hint.target):
            style += board.style_of("board--hint")
        for kind in board.selection.highlights(square):
            style += board.style_of(kind)
        return style

    def cell_line(self, square: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """One text line of a square: its block of lines (a header over the pieces, or the
        empty mark) centred in the cell."""
        board = self.board
        block = self.blocks.get(square)
        if block is None:
            paths = board.path_to_cursor()
            steps = {sq: i + 1 for i, sq in enumerate(paths[0])} if len(paths) == 1 else {}
            on_path = {sq for way in paths for sq in way}
            style = self.square_style(square, on_path) + board.square_meta[square]
            if cell_w < CHIP_ROOM and board.threat_by(square_name(square)) is not None:
                style += board.style_of("board--threat")  # no room for a chip: its colour
            lines = self.cell_block(square, cell_w, cell_h, steps)
            if square == board.cursor and board.has_focus:
                # Over the glyphs too: without colour it is one reversed block, glyphs included.
                cursor = board.style_of("board--cursor", partial=True)
                style += cursor
                lines = [[(text, part + cursor) for text, part in line] for line in lines]
            block = self.blocks[square] = (style, lines)
        style, lines = block
        index = line - (cell_h - len(lines)) // 2
        parts = lines[index] if 0 <= index < len(lines) else []
        used = sum(len(text) for text, _ in parts)
        left = (cell_w - used) // 2
        taker = board.threat_by(square_name(square))
        if line == 0 and left and taker is not None and cell_w >= CHIP_ROOM:
            # The threat overlay's chip in the top left corner: the glyph of the side that can
            # take the stack (the pieces keep a column clear on each side, so it fits).
            colour = "board--red" if taker == RED else "board--black"
            chip = style + board.style_of("board--threat") + board.style_of(colour, partial=True)
            if square == board.cursor and board.has_focus:
                chip += board.style_of("board--cursor", partial=True)
            segments = [Segment(board.glyphs.pieces[taker], chip)]
            segments.append(Segment(" " * (left - 1), style))
        else:
            segments = [Segment(" " * left, style)]
        segments += [Segment(text, style + part_style) for text, part_style in parts]
        segments.append(Segment(" " * (cell_w - used - left), style))
        return segments

    def cell_block(
        self, square: int, cell_w: int, cell_h: int, steps: dict[int, int]
    ) -> list[list[tuple[str, Style]]]:
        board = self.board
        stack = board.state.cells[square]
        mark = board.selection.mark(square, board.hint, board.glyphs)
        levels = piece_levels(len(stack), cell_w, cell_h - 1) if cell_h > 1 else []
        counted = any(None in line for line in levels)  # cut short: the pieces say the height
        top = header(stack, mark, steps.get(square), board.state.to_move, counted)
        kind = text_class(stack, bool(mark), board.state.to_move, board.interactive)
        text_style = board.style_of(kind, partial=True)
        if not stack:
            return [[(top or board.glyphs.empty, text_style)]]
        if cell_h == 1:
            badge = top if mark else board.glyphs.pieces[stack[-1]] + top
            return [[(badge[:cell_w], text_style)]]
        return [[(top, text_style)], *self.piece_lines(square, stack, levels)]

    def piece_lines(
        self, square: int, stack: tuple[int, ...], levels: list[list[int | None]]
    ) -> list[list[tuple[str, Style]]]:
        """A stack's pieces as `piece_levels` placed them, the part that moves highlighted
        (the height too when it reaches the pieces the height stands for). Each piece carries
        its level, so a click on it picks it and those above."""
        board = self.board
        moving_from = len(stack) - board.count if square == board.selected else len(stack)

        def piece(level: int) -> tuple[str, Style]:
            colour = "board--red" if stack[level] == RED else "board--black"
            style = board.style_of(colour, partial=True)
            if level >= moving_from:
                style += board.style_of("board--moving", partial=True)
            meta = Style.from_meta({"square": square, "level": level})
            return board.glyphs.pieces[stack[level]], style + meta

        kind = text_class(stack, False, board.state.to_move, board.interactive)
        height_style = board.style_of(kind, partial=True)
        lowest_drawn = min(level for line in levels for level in line if level is not None)
        if moving_from < lowest_drawn:
            height_style += board.style_of("board--moving", partial=True)
        height = (str(len(stack)), height_style)
        return [[height if level is None else piece(level) for level in line] for line in levels]
