"""The Dipole board: one widget drawn with Textual's line API.

The board shows what the rules core says: it filters `legal_moves()` by the selected stack to find
destinations and removals, and never decides a rule itself. Squares carry their identity in the
style's meta data, so a click is resolved by what was drawn there, not by arithmetic on
coordinates.
"""

from __future__ import annotations

from typing import Unpack

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.strip import Strip

from ...games.dipole import (
    FILES,
    MAX_HEIGHT,
    OFF,
    PASS,
    STRIDE,
    DipoleState,
    Move,
    dark_squares,
    is_dark,
    square_name,
)
from .dipole_stacks import ASCII, UNICODE, Glyphs, square_text
from .dipole_strip import chip_entered, chip_stepped, strip_chips
from .game_board import BoardOptions
from .square_grid import CHIP_ROOM, SquareBoard

RANK_LABEL_WIDTH = 3
EXTRA_ROWS = 3  # the removal strip above, file letters and the removal strip below
THREAT_CHIP = "!"  # the threat overlay's chip in ASCII


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
    GRID_LEFT = RANK_LABEL_WIDTH

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

    def __init__(self, state: DipoleState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self._selected: int | None = None
        # The selected stack's on-board destinations, each with the move that goes there, and
        # its removals: worked out once per selection, not once per drawn cell.
        self.targets: dict[int, Move] = {}
        self.removals: list[Move] = []
        self._row_cache: dict[tuple[int, int], tuple[object, list[Segment]]] = {}
        self._drawn_cells: list[int] = []
        self._chip_meta = {k: Style.from_meta({"removal": k}) for k in range(1, 2 * MAX_HEIGHT)}
        self.removal_cursor: int | None = None  # a count in the removal strip, when it has focus
        self._vertical_walk: tuple[int, float] = (-1, 0.0)  # (where a walk is, its column)
        self.show_state(state, None)
        self.cursor = home_square(state)

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: DipoleState, last_move: Move | None) -> None:
        """Only the rows whose squares changed are redrawn."""
        same_board = state is self.state and len(self._drawn_cells) == len(state.cells)
        changed = {self.cursor, *self.targets}
        for move in (self.last_move, last_move, self.hint):
            if move is not None:
                changed.update((move.origin, move.target))
        if self._selected is not None:
            changed.add(self._selected)
        if same_board:
            drawn = zip(self._drawn_cells, state.cells, strict=True)
            changed.update(sq for sq, (was, now) in enumerate(drawn) if was != now)
        moved = self._take_position(state, last_move if last_move != PASS else None)
        self.selected = None
        self.removal_cursor = None
        self._drawn_cells = list(state.cells)
        if self.cursor not in dark_squares(self.state.size):
            self.cursor = home_square(self.state)
        if self._follow_turn(moved):
            changed.add(self.cursor)
        if same_board:
            self._refresh_around(*(sq for sq in changed if sq >= 0))
        else:
            self._row_cache.clear()
            self.refresh()

    def show_hint(self, move: Move | None) -> None:
        changed = {self.cursor}
        for hinted in (self.hint, move):
            if hinted is not None:
                changed.update((hinted.origin, hinted.target))
        self.hint = move
        self._refresh_around(*(sq for sq in changed if sq >= 0))

    def side_glyph(self, side: int) -> str:
        return self.glyphs.white_checker if side == 0 else self.glyphs.black_checker

    def threat_chip(self, side: int) -> str:
        """The threat overlay's chip: the glyph of the side that can take the stack; in ASCII
        `!` (the taker is the stack owner's opponent), as `x 1` would read as a capture's `x1`."""
        return THREAT_CHIP if self.glyphs is ASCII else self.side_glyph(side)

    def threat_words(self) -> str:
        if self.glyphs is ASCII:
            return f"{THREAT_CHIP} the opponent can take this stack"
        return f"{self.side_glyph(0)} White can take, {self.side_glyph(1)} Black can take"

    def forget_drawn(self) -> None:
        self._row_cache.clear()

    @property
    def selected(self) -> int | None:
        return self._selected

    @selected.setter
    def selected(self, square: int | None) -> None:
        """Selecting a stack works out its destinations."""
        self._selected = square
        moves = self.moves_from(square) if square is not None else []
        self.targets = {m.target: m for m in moves if m.target != OFF}
        self.removals = [m for m in moves if m.target == OFF]

    # -- geometry --------------------------------------------------------------------------

    def grid_size(self) -> int:
        return self.state.size

    def drawing_size(self, cell: tuple[int, int]) -> Size:
        (width, height), n = cell, self.state.size
        return Size(RANK_LABEL_WIDTH + n * width + 1, n * height + EXTRA_ROWS)

    def _strip_on_top(self) -> bool:
        """Removals are offered beside the far edge of the side to move."""
        return (self.state.to_move == 0) != self.flipped

    # -- drawing ---------------------------------------------------------------------------

    def _refresh_around(self, *squares: int) -> None:
        """Redraw just the rows of these squares and the removal strips: a cursor step is cheap."""
        placement = self.placement()
        if placement is None:
            self.refresh()
            return
        width, top, height = self.size.width, placement.top, placement.total.height
        regions = [Region(0, top, width, 1), Region(0, top + height - 1, width, 1)]
        for square in squares:
            cell = self.square_region(square, placement)
            regions.append(Region(0, cell.y, width, cell.height))
        self.refresh(*regions)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        placement = self.placement()
        if placement is None:
            return self.render_too_small(y)
        cell_w, cell_h, left, top, total = placement
        total_height = total.height
        row = y - top
        base = self.rich_style  # every segment gets a style: NO_COLOR's filter needs one
        if row == total_height and self.threats is not None:  # the overlay's legend, if room
            legend = Segment(self.threat_legend()[: width - left], self.style_of("board--label"))
            return Strip([Segment(" " * left, base), legend]).adjust_cell_length(width, base)
        if row < 0 or row >= total_height:
            return Strip.blank(width, base)
        if row == 0:
            segments = self._removal_strip(self._strip_on_top())
        elif row == total_height - 1:
            segments = self._removal_strip(not self._strip_on_top())
        elif row == total_height - 2:
            segments = [Segment(self.file_line(cell_w), self.style_of("board--label"))]
        else:
            board_row, line = divmod(row - 1, cell_h)
            segments = self._board_line(board_row, line, cell_w, cell_h)
        return Strip([Segment(" " * left, base), *segments]).adjust_cell_length(width, base)

    def _removal_strip(self, active: bool) -> list[Segment]:
        """One chip per removable count, as roomy as the board's width allows."""
        removals = self.removals if active else []
        hint = self.hint
        if active and not removals and hint is not None and hint.target == OFF:
            removals = [hint]  # a hinted removal shows its chip before its stack is picked
        if not removals:
            return []
        room = self.drawing_size(self.cell_size() or self.CELL_SIZES[-1]).width
        label = self.style_of("board--label")
        counts = [move.count for move in removals]
        title, gap, chips = strip_chips(counts, room, RANK_LABEL_WIDTH)
        segments = [Segment(title, label)]
        for index, (count, chip) in enumerate(zip(counts, chips, strict=True)):
            if index:
                segments.append(Segment(gap, label))
            segments.append(Segment(chip, self._chip_style(count)))
        return segments

    def _chip_style(self, count: int) -> Style:
        meta = self._chip_meta[count]
        if self.removal_cursor != count:
            style = self.style_of("board--removal")
            hint = self.hint
            if (
                hint is not None
                and hint.target == OFF
                and hint.count == count
                and self.selected in (None, hint.origin)
            ):
                style += self.style_of("board--hint", partial=True)  # the chip's own text
            return style + meta
        return self.style_of("board--cursor") + meta

    def _board_line(self, board_row: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """One text line of a board row; rows whose squares look the same as last time are
        reused, so a move redraws little more than the squares it touched."""
        n = self.state.size
        squares = [self._square_at(column, board_row) for column in range(n)]
        last = self.last_move
        touched = (last.origin, last.target) if last is not None else ()
        hint = self.hint
        hinted = (hint.origin, hint.target) if hint is not None else ()
        cursor = self.cursor if self.removal_cursor is None and self.has_focus else None
        looks = tuple(
            (
                self.state.cells[square],
                self.targets.get(square),
                square in touched,
                hint if square in hinted else None,
                square == self._selected,
                square == cursor,
                self.threat_by(square_name(square)),
            )
            for square in squares
        )
        key = (board_row, line, cell_w, cell_h, self.flipped, looks)
        cached = self._row_cache.get((board_row, line))
        if cached is not None and cached[0] == key:
            return cached[1]
        label = self.rank_label(board_row, line, cell_h)
        segments = [Segment(label, self.style_of("board--label"))]
        for square in squares:
            segments += self._cell_segments(square, line, cell_w, cell_h)
        self._row_cache[(board_row, line)] = (key, segments)
        return segments

    def _cell_segments(self, square: int, line: int, cell_w: int, cell_h: int) -> list[Segment]:
        """A square's line; a stack the threat overlay marks has a chip in its top left corner,
        the glyph of the side that can take it, and its drawing keeps to the columns beside
        the chip (in the smallest cells, with no column to spare, its text sits on the chip's
        colour instead)."""
        file, rank = square % STRIDE, square // STRIDE
        meta = self._meta[square]
        if (file + rank) % 2:
            return [Segment(" " * cell_w, self.style_of("board--light") + meta)]
        taker = self.threat_by(square_name(square))
        chip = taker is not None and cell_w >= CHIP_ROOM
        width = cell_w - 1 if chip else cell_w
        text, text_style = self._cell_text(square, line, width, cell_h)
        style = self._square_style(square)
        if taker is not None and not chip:
            style += self.style_of("board--threat")
        cursor = Style()
        if square == self.cursor and self.removal_cursor is None and self.has_focus:
            # Over the glyphs too: without colour it is one reversed block, glyphs included.
            cursor = self.style_of("board--cursor", partial=True)
        body = Segment(text.center(width)[:width], style + text_style + cursor + meta)
        if not chip:
            return [body]
        if line:
            return [Segment(" ", style + cursor + meta), body]
        side = "board--white" if taker == 0 else "board--black"
        chip_style = self.style_of("board--threat") + self.style_of(side, partial=True)
        return [Segment(self.threat_chip(taker or 0), chip_style + cursor + meta), body]

    def _square_style(self, square: int) -> Style:
        style = self.style_of("board--dark")
        last = self.last_move
        if last is not None and square in (last.origin, last.target):
            style += self.style_of("board--last")
        hint = self.hint
        if hint is not None and square in (hint.origin, hint.target):
            style += self.style_of("board--hint")
        target = self.targets.get(square)
        if target is not None:
            kind = "board--capture" if target.capture else "board--target"
            style += self.style_of(kind)
        if square == self.selected:
            style += self.style_of("board--selected")
        return style

    def _cell_text(self, square: int, line: int, cell_w: int, cell_h: int) -> tuple[str, Style]:
        target = self.targets.get(square)
        if target is None and self.hint is not None and self.hint.target == square:
            target = self.hint  # the hinted destination says how many go, as a target does
        height = self.state.cells[square]
        text, kind = square_text(height, target, line, (cell_w, cell_h), self.glyphs)
        return text, self.style_of(kind, partial=True) if kind else Style()

    # -- input -----------------------------------------------------------------------------

    def action_cursor(self, dx: int, dy: int) -> None:
        counts = [move.count for move in self.removals]
        if self.removal_cursor is not None:
            at = self.removal_cursor
            self.removal_cursor = chip_stepped(counts, at, dx, dy, self._strip_on_top())
            self._refresh_around(self.cursor)
            return
        n = self.state.size
        before = self.cursor
        column, row = self.screen_cell(self.cursor)
        if dx and 0 <= column + 2 * dx < n:
            column += 2 * dx
        if dy:
            if not 0 <= row + dy < n:
                self.removal_cursor = chip_entered(counts, dy, self._strip_on_top())
                self._refresh_around(before)
                return
            # Going up or down alternates between two files; keep to the column the walk began in.
            anchor, preferred = self._vertical_walk
            if anchor != self.cursor:
                preferred = column
            row += dy
            options = [c for c in (column - 1, column + 1) if 0 <= c < n]
            centre = (n - 1) / 2
            column = min(options, key=lambda c: (abs(c - preferred), abs(c - centre)))
            self._vertical_walk = (self._square_at(column, row), preferred)
        square = self._square_at(column, row)
        if is_dark(square):
            self.cursor = square
        self._refresh_around(before, self.cursor)

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
        self._select(None)

    def _select(self, square: int | None) -> None:
        """Change the selection, redrawing only the rows whose squares change look."""
        changed = {self.cursor, *self.targets}
        if self._selected is not None:
            changed.add(self._selected)
        self.selected = square
        self.removal_cursor = None
        changed.update(self.targets)
        if square is not None:
            changed.add(square)
        self._refresh_around(*changed)

    def _choose_square(self, square: int) -> None:
        if not self.takes_choices:
            return
        move = self.targets.get(square)
        if move is not None:
            self.choose(move)
            return
        self._select(square if square != self.selected and self.moves_from(square) else None)

    def _choose_removal(self, count: int) -> None:
        if not self.takes_choices:
            return
        for move in self.removals:
            if move.count == count:
                self.choose(move)
                return

    def drop_selection(self) -> None:
        self._select(None)

    def on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        square = self.square_clicked(event)
        if square is not None:
            if is_dark(square):
                before, self.cursor = self.cursor, square
                self.removal_cursor = None
                self._refresh_around(before, square)
                self._choose_square(square)
        elif "removal" in meta and any(m.count == meta["removal"] for m in self.removals):
            self.removal_cursor = int(meta["removal"])  # (a hint's own chip is only a mark)
            self._choose_removal(self.removal_cursor)
