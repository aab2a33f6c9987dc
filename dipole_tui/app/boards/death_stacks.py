"""The Death Stacks board: the 6x6 zone inside its wall ring, each stack drawn piece by piece.

A stack's pieces are drawn bottom to top from the cell's bottom line up, its height above them;
a stack too tall for its cell has its height written in place of its most buried pieces.
After a stack is picked, how many pieces move is chosen with the number keys, `+`/`-`, or by
clicking the lowest piece to take; the top part that moves is highlighted, its landing squares are
marked, and the path to the square under the cursor (reflections included) is drawn step by step.
Everything shown comes from the rules core: `legal_moves()` for what may move where, `too_tall()`
for the stacks that must move, `move_ways()` for the way a move goes (and when several directions
land on the same square, the words under the board say which and how the walls turn them back).
"""

from __future__ import annotations

from typing import Unpack

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.strip import Strip

from ...games.death_stacks import FILES, RED, SIZE, TOO_TALL, DeathStacksState, Move, square_name
from .death_stacks_text import ASCII, UNICODE, StackGlyphs, header, piece_levels, text_class
from .game_board import BoardOptions
from .square_grid import CHIP_ROOM, SquareBoard
from .stack_selection import StackSelection, home_square

# A square's drawing: its style, and its lines of (text, style) parts.
Block = tuple[Style, list[list[tuple[str, Style]]]]

LABEL_WIDTH = 3  # rank numbers
WALL_WIDTH = 2  # the wall ring is drawn thinner than a square: it is never played on
STATUS_LINES = 2  # at the least: the board's status line wraps into the lines below it
EXTRA_ROWS = 3 + STATUS_LINES  # the wall above and below, the file letters, the status


class DeathStacksBoard(SquareBoard[DeathStacksState, Move]):
    """The board of a Death Stacks game: stacks, cursor, the part that moves, where it lands."""

    BREVITIES = 4  # how the status is said: 0 in full words ... 3 the shortest

    GLYPH_TABLES = (UNICODE, ASCII)
    glyphs: StackGlyphs
    CELL_SIZES = ((11, 5), (9, 4), (7, 3), (5, 2), (4, 1))
    FILES = FILES
    STRIDE = SIZE
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

    def __init__(self, state: DeathStacksState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self.selection = StackSelection(state, [])
        # Each square's style and lines, drawn once and kept until its look changes; `_blocks_for`
        # says for which size, focus and seat they hold.
        self._blocks: dict[int, Block] = {}
        self._blocks_for: object = None
        self._drawn_cells: list[tuple[int, ...]] = []
        self.show_state(state, None)
        self.cursor = home_square(state, self.cursor)

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: DeathStacksState, last_move: Move | None) -> None:
        """After a move, undo or redo of the same game only the squares that change are
        redrawn: those whose stacks differ, the last moves', tall stacks, and the old and new
        marks."""
        before = self._marked()
        drawn = self._drawn_cells
        for move in (self.last_move, last_move):
            if move is not None:
                before.update((move.origin, move.target))
        fresh = state is not self.state or not drawn  # another game, or the first drawing
        moved = self._take_position(state, last_move)
        self.selection = StackSelection(state, self._legal)
        self._follow_turn(moved)
        self._drawn_cells = list(state.cells)
        if fresh:
            self._blocks.clear()
            self.notice = ""
            self.refresh()
            return
        cells = enumerate(zip(drawn, state.cells, strict=True))
        changed = {sq for sq, (was, now) in cells if was != now}
        # A tall stack's "!" depends on whose turn it is, so every tall stack is drawn again.
        tall = {sq for sq, stack in enumerate(state.cells) if len(stack) > TOO_TALL}
        self._redraw(before | changed | tall)

    def show_hint(self, move: Move | None) -> None:
        before = self._marked()
        self.hint = move
        self._redraw(before, self.notice)

    def side_glyph(self, side: int) -> str:
        return self.glyphs.pieces[side]

    def threat_words(self) -> str:
        return f"{self.side_glyph(0)} Red can take, {self.side_glyph(1)} Black can take"

    def forget_drawn(self) -> None:
        self._blocks.clear()

    # What is selected, read as the board's own (by the tests and the latency bench too).
    @property
    def selected(self) -> int | None:
        return self.selection.selected

    @property
    def count(self) -> int:
        return self.selection.count

    @property
    def targets(self) -> dict[int, Move]:
        return self.selection.targets

    def path_to_cursor(self) -> list[tuple[int, ...]]:
        return self.selection.paths_to(self.cursor)

    def _marked(self) -> set[int]:
        """The squares drawn differently because of the cursor, the selection and the hint."""
        marked = self.selection.marked(self.cursor)
        if self.hint is not None:
            marked.update((self.hint.origin, self.hint.target))
        return marked

    def said(self, brevity: int) -> list[str]:
        return self.selection.said(self.cursor, brevity, self.interactive)

    # -- geometry --------------------------------------------------------------------------

    def grid_size(self) -> int:
        return SIZE

    def drawing_size(self, cell: tuple[int, int]) -> Size:
        width, height = cell
        return Size(LABEL_WIDTH + 2 * WALL_WIDTH + SIZE * width, SIZE * height + EXTRA_ROWS)

    # -- drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        placement = self.placement()
        if placement is None:
            return self.render_too_small(y)
        cell_w, cell_h, left, top, total = placement
        row = y - top
        status_top = total.height - STATUS_LINES
        base = self.base_style()  # every segment gets a style: NO_COLOR's filter needs one
        if row < 0:
            return Strip.blank(width, base)
        label = self.style_of("board--label")
        wall = self.style_of("board--wall")
        segments: list[Segment] = [Segment(" " * left, base)]
        if row >= status_top:  # the status, wrapped into the lines down to the widget's end
            lines = self.status_lines(width - left, self.size.height - top - status_top)
            text = lines[row - status_top] if row - status_top < len(lines) else ""
            segments.append(Segment(text, self._status_style()))
        elif row in (0, status_top - 2):
            segments += [
                Segment(" " * LABEL_WIDTH, label),
                Segment(self.glyphs.wall * (total.width - LABEL_WIDTH), wall),
            ]
        elif row == status_top - 1:
            segments.append(Segment(self.file_line(cell_w), label))
        else:
            board_row, line = divmod(row - 1, cell_h)
            segments.append(Segment(self.rank_label(board_row, line, cell_h), label))
            segments.append(Segment(self.glyphs.wall * WALL_WIDTH, wall))
            drawn_for = (cell_w, cell_h, self.flipped, self.has_focus, self.interactive)
            if drawn_for != self._blocks_for:
                self._blocks.clear()
                self._blocks_for = drawn_for
            for column in range(SIZE):
                square = self._square_at(column, board_row)
                segments += self._cell_line(square, line, cell_w, cell_h)
            segments.append(Segment(self.glyphs.wall * WALL_WIDTH, wall))
        return Strip(segments).adjust_cell_length(width, base)

    def _status_style(self) -> Style:
        if self.notice or (self.selected is None and self.state.too_tall() and self.interactive):
            return self.style_of("board--tall")
        return self.style_of("board--status")

    def _square_style(self, square: int, on_path: set[int]) -> Style:
        file, rank = square % SIZE, square // SIZE
        style = self.style_of("board--zone" if (file + rank) % 2 else "board--zone-alt")
        last = self.last_move
        if last is not None and square in (last.origin, last.target):
            style += self.style_of("board--last")
        if square in on_path:
            style += self.style_of("board--path")
        hint = self.hint
        if hint is not None and square in (hint.origin, hint.target):
            style += self.style_of("board--hint")
        for kind in self.selection.highlights(square):
            style += self.style_of(kind)
        return style

    def _cell_line(self, square: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """One text line of a square: its block of lines (a header over the pieces, or the
        empty mark) centred in the cell."""
        block = self._blocks.get(square)
        if block is None:
            paths = self.path_to_cursor()
            steps = {sq: i + 1 for i, sq in enumerate(paths[0])} if len(paths) == 1 else {}
            on_path = {sq for way in paths for sq in way}
            style = self._square_style(square, on_path) + self._meta[square]
            if cell_w < CHIP_ROOM and self.threat_by(square_name(square)) is not None:
                style += self.style_of("board--threat")  # no room for a chip: its colour
            lines = self._cell_block(square, cell_w, cell_h, steps)
            if square == self.cursor and self.has_focus:
                # Over the glyphs too: without colour it is one reversed block, glyphs included.
                cursor = self.style_of("board--cursor", partial=True)
                style += cursor
                lines = [[(text, part + cursor) for text, part in line] for line in lines]
            block = self._blocks[square] = (style, lines)
        style, lines = block
        index = line - (cell_h - len(lines)) // 2
        parts = lines[index] if 0 <= index < len(lines) else []
        used = sum(len(text) for text, _ in parts)
        left = (cell_w - used) // 2
        taker = self.threat_by(square_name(square))
        if line == 0 and left and taker is not None and cell_w >= CHIP_ROOM:
            # The threat overlay's chip in the top left corner: the glyph of the side that can
            # take the stack (the pieces keep a column clear on each side, so it fits).
            colour = "board--red" if taker == RED else "board--black"
            chip = style + self.style_of("board--threat") + self.style_of(colour, partial=True)
            if square == self.cursor and self.has_focus:
                chip += self.style_of("board--cursor", partial=True)
            segments = [Segment(self.glyphs.pieces[taker], chip)]
            segments.append(Segment(" " * (left - 1), style))
        else:
            segments = [Segment(" " * left, style)]
        segments += [Segment(text, style + part_style) for text, part_style in parts]
        segments.append(Segment(" " * (cell_w - used - left), style))
        return segments

    def _cell_block(
        self, square: int, cell_w: int, cell_h: int, steps: dict[int, int]
    ) -> list[list[tuple[str, Style]]]:
        stack = self.state.cells[square]
        mark = self.selection.mark(square, self.hint, self.glyphs)
        levels = piece_levels(len(stack), cell_w, cell_h - 1) if cell_h > 1 else []
        counted = any(None in line for line in levels)  # cut short: the pieces say the height
        top = header(stack, mark, steps.get(square), self.state.to_move, counted)
        kind = text_class(stack, bool(mark), self.state.to_move, self.interactive)
        text_style = self.style_of(kind, partial=True)
        if not stack:
            return [[(top or self.glyphs.empty, text_style)]]
        if cell_h == 1:
            badge = top if mark else self.glyphs.pieces[stack[-1]] + top
            return [[(badge[:cell_w], text_style)]]
        return [[(top, text_style)], *self._piece_lines(square, stack, levels)]

    def _piece_lines(
        self, square: int, stack: tuple[int, ...], levels: list[list[int | None]]
    ) -> list[list[tuple[str, Style]]]:
        """A stack's pieces as `piece_levels` placed them, the part that moves highlighted
        (the height too when it reaches the pieces the height stands for). Each piece carries
        its level, so a click on it picks it and those above."""
        moving_from = len(stack) - self.count if square == self.selected else len(stack)

        def piece(level: int) -> tuple[str, Style]:
            colour = "board--red" if stack[level] == RED else "board--black"
            style = self.style_of(colour, partial=True)
            if level >= moving_from:
                style += self.style_of("board--moving", partial=True)
            meta = Style.from_meta({"square": square, "level": level})
            return self.glyphs.pieces[stack[level]], style + meta

        kind = text_class(stack, False, self.state.to_move, self.interactive)
        height_style = self.style_of(kind, partial=True)
        lowest_drawn = min(level for line in levels for level in line if level is not None)
        if moving_from < lowest_drawn:
            height_style += self.style_of("board--moving", partial=True)
        height = (str(len(stack)), height_style)
        return [[height if level is None else piece(level) for level in line] for line in levels]

    # -- input -----------------------------------------------------------------------------

    def _redraw(self, before: set[int], notice: str = "") -> None:
        """Redraw the squares marked before or after a change, and the status line."""
        self.notice = notice
        squares = before | self._marked()
        for square in squares:
            self._blocks.pop(square, None)
        placement = self.placement()
        if placement is None:
            self.refresh()
            return
        status_top = placement.top + placement.total.height - STATUS_LINES
        regions = [Region(0, status_top, self.size.width, self.size.height - status_top)]
        regions += [self.square_region(square, placement) for square in squares]
        self.refresh(*regions)

    def action_cursor(self, dx: int, dy: int) -> None:
        before = self._marked()
        column, row = self.screen_cell(self.cursor)
        column = min(max(column + dx, 0), SIZE - 1)
        row = min(max(row + dy, 0), SIZE - 1)
        self.cursor = self._square_at(column, row)
        self._redraw(before)

    def action_choose(self) -> None:
        self._choose_square(self.cursor)

    def drop_selection(self) -> None:
        if self.selected is not None:
            before = self._marked()
            self.selection.selected = None
            self._redraw(before)

    def action_cancel(self) -> None:
        """Escape: forget the selection and the hint's marks."""
        if self.selected is not None or self.hint is not None:
            before = self._marked()
            self.selection.selected = None
            self.hint = None
            self._redraw(before)

    def action_count(self, step: int) -> None:
        """+ and -: more or fewer pieces, among the counts that can move."""
        if self.selected is None:
            self._select(self.cursor, None)
            return
        before = self._marked()
        if self.selection.step(step):
            self._redraw(before)
        else:
            self.app.bell()

    def action_pieces(self, count: int) -> None:
        """A number key: that many pieces of the selected stack, else of the one under the
        cursor."""
        square = self.selected if self.selected is not None else self.cursor
        self._select(square, count)

    def _select(self, square: int, count: int | None) -> None:
        """Pick a stack and how many of its pieces move (None: all that may)."""
        if not self.takes_choices:
            return
        before = self._marked()
        refused = self.selection.select(square, count)
        self._redraw(before, refused)
        if refused:
            self.app.bell()

    def _choose_square(self, square: int) -> None:
        if not self.takes_choices:
            return
        move = self.targets.get(square)
        if move is not None:
            self.choose(move)
        elif square == self.selected:
            self.action_cancel()
        elif self.state.owner(square) == self.state.to_move or self.selected is None:
            self._select(square, None)
        else:
            self.drop_selection()

    def on_click(self, event: events.Click) -> None:
        square = self.square_clicked(event)
        if square is None:
            return
        before = self._marked()
        self.cursor = square
        self._redraw(before)
        level = event.style.meta.get("level")
        move = self.targets.get(square)
        if level is not None and move is None and self.takes_choices:
            # A piece of a stack: it and everything above it move.
            self._select(square, len(self.state.cells[square]) - int(level))
        else:
            self._choose_square(square)
