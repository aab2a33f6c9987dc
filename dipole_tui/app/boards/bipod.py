"""The Bi-Pod board: the sheet's trapezium of hexagons, larger than the sheet draws it.

Each text column of the sheet becomes `u` characters and each row `h` lines, so a cell is a brick
`2u - 1` wide and the rows stay offset by half a cell, as hexagons are (every cell touches two
above, two below and one on each side). The cells cut off from both start stones are blanked, as
the sheet blanks them; the stones connected to a start stone (its chain) are highlighted. What may
be placed is asked of the rules core (`is_legal`); the board decides no rule.
"""

from __future__ import annotations

from typing import Unpack

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.strip import Strip

from ...games.bipod import (
    ADOPT,
    BLOCK,
    CELL_COUNT,
    CELLS,
    EMPTY,
    GRAY,
    INDEX,
    LABELS,
    MULTI_MOST,
    NEIGHBOURS,
    ROW_CELLS,
    ROWS,
    SIDE_NAMES,
    START_CELLS,
    WHITE,
    BipodState,
    Move,
    cell_name,
    why_illegal,
)
from ..ascii import plain
from .bipod_text import ASCII, CUT, PREVIEW, UNICODE, HexGlyphs, said_before_a_move
from .game_board import BoardOptions, GameBoard

LAST_COLUMN = len(LABELS) - 1  # text columns run 0..30
ROW_LABEL_WIDTH = 3  # the row number after each row, as on the sheet


# (characters per text column, lines per row), largest first; the board takes the largest that fits.
# At 80x24 that is (1, 1): two characters a column need 66 columns, and the side panel leaves 54.
SCALES = ((3, 3), (3, 2), (2, 2), (2, 1), (1, 1))
STATUS_LINES = 2  # at the least: the status wraps into the lines below the board


def spill(u: int) -> int:
    """Columns the cursor's bracketed preview reaches out of its brick on each side: at one
    character a column, into the gaps between the cells (and one column left of the board)."""
    return max(0, len(PREVIEW.format("x")) - (2 * u - 1)) // 2


def board_size(scale: tuple[int, int]) -> Size:
    """Cells in the terminal a board at `scale` needs: the rows, a label line above and below,
    and the status."""
    u, h = scale
    width = spill(u) + LAST_COLUMN * u + (2 * u - 1) + ROW_LABEL_WIDTH
    return Size(width, ROWS * h + 2 + STATUS_LINES)


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

    def __init__(self, state: BipodState, **options: Unpack[BoardOptions]) -> None:
        super().__init__(state, **options)
        self.cursor = START_CELLS[WHITE]
        self.colour = WHITE  # the runner colour Enter places
        self.marked: list[int] = []  # multi: the blocking stones gathered for one turn
        self._walk: tuple[int, int] = (-1, 0)  # (where an up/down walk is, the column it keeps)
        self._meta = [Style.from_meta({"cell": cell}) for cell in range(CELL_COUNT)]
        self._chains: dict[str, frozenset[int]] = {}
        self._dead: frozenset[int] = frozenset()
        self.show_state(state, None)  # the cursor beside the start stone: Enter places at once

    # -- what is shown ---------------------------------------------------------------------

    def show_state(self, state: BipodState, last_move: Move | None) -> None:
        """When the turn passes to a person, the cursor goes to a free cell beside the stone
        just placed: in a placement game the answer is usually near it, and Enter on a taken
        cell would only be refused."""
        moved = self._take_position(state, last_move)
        placed = last_move.cells if last_move is not None else ()
        self.marked = []
        self.notice = ""
        self._chains = state.chains()
        self._dead = state.dead_cells()
        if moved and self.interactive and (placed or state.stone(self.cursor) != EMPTY):
            self.cursor = self._free_near(placed[0] if placed else self.cursor)
        self.refresh()

    def _free_near(self, cell: int) -> int:
        """The free cell nearest to `cell` (itself if free), one a chain can still use first;
        the cell itself when the board is full."""
        seen, ring, free = {cell}, [cell], list[int]()
        while ring and not free:
            free = [c for c in ring if self.state.stone(c) == EMPTY]
            ring = [n for c in ring for n in NEIGHBOURS[c] if n not in seen]
            seen.update(ring)
        live = [c for c in free if c not in self._dead]
        return (live or free or [cell])[0]

    def show_hint(self, move: Move | None) -> None:
        self.hint = move
        self.refresh()

    def minimum_size(self) -> Size:
        return board_size(SCALES[-1])

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

    def _runner_to_move(self) -> bool:
        return self.state.runner is not None and self.state.to_move == self.state.runner

    def placing(self) -> str:
        """What Enter places now: a blocking stone, or the Runner's chosen colour."""
        return self.colour if self._runner_to_move() else BLOCK

    def move_at(self, cell: int, colour: str | None = None) -> Move:
        """The move that places on `cell` now (the marked stones too, in the multi variant)."""
        if self._runner_to_move():
            return Move(colour or self.colour, (cell,))
        cells = set(self.marked)
        if cell not in cells and len(cells) < MULTI_MOST:
            cells.add(cell)
        return Move(BLOCK, tuple(sorted(cells)))

    def said(self, brevity: int) -> list[str]:
        state = self.state
        if state.outcome() is not None or not self.interactive:
            return []
        runner = self._runner_to_move()
        return said_before_a_move(state, self.hint, self.marked, self.colour, runner, self.glyphs)

    # -- geometry --------------------------------------------------------------------------

    def scale(self) -> tuple[int, int] | None:
        for scale in SCALES:
            need = board_size(scale)
            if need.width <= self.size.width and need.height <= self.size.height:
                return scale
        return None

    def screen_cell(self, cell: int) -> tuple[int, int]:
        """(text column, row from the top) of a cell on screen; flipped turns the board round."""
        row, column = CELLS[cell]
        if self.flipped:
            return LAST_COLUMN - column, ROWS - row
        return column, row - 1

    def _cell_at(self, column: int, screen_row: int) -> int | None:
        if self.flipped:
            return INDEX.get((ROWS - screen_row, LAST_COLUMN - column))
        return INDEX.get((screen_row + 1, column))

    # -- drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scale = self.scale()
        if scale is None:
            return self.render_too_small(y)
        u, h = scale
        total = board_size(scale)
        left = max(0, (width - total.width) // 2)
        top = max(0, (self.size.height - total.height) // 2)
        line = y - top
        status_top = total.height - STATUS_LINES
        base = self.looks.base()  # every segment gets a style: NO_COLOR's filter needs one
        if line < 0:
            return Strip.blank(width, base)
        if line >= status_top:  # under the cells, not the column the preview spills into
            left += spill(u)
        segments = [Segment(" " * left, base)]
        if line >= status_top:  # the status, wrapped into the lines down to the widget's end
            lines = self.status_lines(width - left, self.size.height - top - status_top)
            said = lines[line - status_top] if line - status_top < len(lines) else ""
            said = plain(said) if self.glyphs is ASCII else said
            kind = "board--notice" if self.notice and said else "board--status"
            segments.append(Segment(said, self.style_of(kind)))
        elif line in (0, status_top - 1):
            labels = LABELS[::-1] if self.flipped else LABELS
            text = [" "] * (total.width - ROW_LABEL_WIDTH)
            for column, letter in enumerate(labels):
                text[spill(u) + column * u + u - 1] = letter  # over the middle of its cells
            segments.append(Segment("".join(text), self.style_of("board--label")))
        else:
            screen_row, sub = divmod(line - 1, h)
            segments += self._row_line(screen_row, sub, u, h, base)
        return Strip(segments).adjust_cell_length(width, base)

    def _row_line(self, screen_row: int, sub: int, u: int, h: int, base: Style) -> list[Segment]:
        """One text line of a row of cells: each a brick, the row's number after them."""
        segments: list[Segment] = []
        x, brick = 0, 2 * u - 1
        for cell in (
            ROW_CELLS[ROWS - 1 - screen_row][::-1] if self.flipped else ROW_CELLS[screen_row]
        ):
            text, style = self._cell_text(cell, sub == (h - 1) // 2)
            text = text.center(brick)  # a preview wider than its brick spills into the gaps
            start = spill(u) + self.screen_cell(cell)[0] * u - (len(text) - brick) // 2
            segments.append(Segment(" " * (start - x), base))
            segments.append(Segment(text, style + self._meta[cell]))
            x = start + len(text)
        row = ROWS - screen_row if self.flipped else screen_row + 1
        label = f"{row:>{ROW_LABEL_WIDTH}}" if sub == (h - 1) // 2 else ""
        end = spill(u) + LAST_COLUMN * u + brick
        tail = " " * (end - x) + label if x <= end else label[x - end :]  # spilt into its pad
        segments.append(Segment(tail, self.style_of("board--label")))
        return segments

    def _cell_text(self, cell: int, middle: bool) -> tuple[str, Style]:
        """A cell's glyph (on its middle line) and style: the stone, its chain, the last move,
        the hint, the marks and the cursor, in that order, so the cursor always shows."""
        state = self.state
        stone = state.stone(cell)
        dead = cell in self._dead
        style = self.style_of("board--dead" if dead else "board--cell")
        cursor = cell == self.cursor and self.has_focus
        if stone in (WHITE, GRAY):
            shapes = self.glyphs.starts if cell == START_CELLS[stone] else self.glyphs.stones
            text, kind = shapes[stone], "board--white" if stone == WHITE else "board--gray"
            if cell in self._chains[stone]:
                style += self.style_of("board--chain")
        elif stone == BLOCK or cell in self.marked:
            text, kind = self.glyphs.block, "board--block"
        elif cursor and self.interactive:  # what Enter would place here, not yet a stone
            text, kind = self._stone_look(self.placing())
            text = PREVIEW.format(text)
        elif self.hint is not None and cell in self.hint.cells:  # what the hint would place
            text, kind = self._stone_look(self.hint.kind)
        elif self.threat_by(cell_name(cell)) is not None:  # a Blocker's stone here cuts
            text, kind = CUT, "board--block"
            style += self.style_of("board--threat")
        else:
            text, kind = ("" if dead else self.glyphs.empty), "board--empty"
        last = self.last_move
        if last is not None and cell in last.cells:
            style += self.style_of("board--last")
        if self.hint is not None and cell in self.hint.cells:
            style += self.style_of("board--hint")
        if cell in self.marked:
            style += self.style_of("board--marked")
        style += self.style_of(kind, partial=True)
        if cursor:  # over the glyph: without colour it is one reversed block, glyph included
            style += self.style_of("board--cursor", partial=True)
        return (text if middle else ""), style

    def _stone_look(self, stone: str) -> tuple[str, str]:
        """The glyph and component class of a stone ("x", "o" or "O") about to be placed."""
        if stone == BLOCK:
            return self.glyphs.block, "board--block"
        return self.glyphs.stones[stone], "board--white" if stone == WHITE else "board--gray"

    # -- input -----------------------------------------------------------------------------

    def _changed(self, notice: str = "") -> None:
        self.notice = notice
        self.refresh()

    def action_cursor(self, dx: int, dy: int) -> None:
        column, row = self.screen_cell(self.cursor)
        if dx:
            cell = self._cell_at(column + 2 * dx, row)
        else:
            # Up and down alternate between two columns; keep to the one the walk began in.
            anchor, preferred = self._walk
            if anchor != self.cursor:
                preferred = column
            options = [c for c in (column - 1, column + 1) if self._cell_at(c, row + dy)]
            if not options:
                return
            best = min(options, key=lambda c: (abs(c - preferred), c))
            cell = self._cell_at(best, row + dy)
            self._walk = (cell if cell is not None else -1, preferred)
        if cell is not None:
            before, self.cursor = self.cursor, cell
            self._redraw_cells(before, cell)

    def _redraw_cells(self, *cells: int) -> None:
        """A cursor step redraws the rows of the cells it left and reached, and the status
        line (which a notice may have filled): not the whole board."""
        self.notice = ""
        scale = self.scale()
        if scale is None:
            self.refresh()
            return
        h = scale[1]
        total = board_size(scale)
        top = max(0, (self.size.height - total.height) // 2)
        width = self.size.width
        status_top = top + total.height - STATUS_LINES
        regions = [Region(0, status_top, width, self.size.height - status_top)]
        for cell in cells:
            row = self.screen_cell(cell)[1]
            regions.append(Region(0, top + 1 + row * h, width, h))
        self.refresh(*regions)

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
            return
        if not self.takes_choices:
            return
        cell = self.cursor
        if cell in self.marked:
            self.marked.remove(cell)
            self._changed()
        elif not self.state.is_legal(Move(BLOCK, (cell,))):
            self._refuse(why_illegal(self.state, Move(BLOCK, (cell,))))
        elif len(self.marked) == MULTI_MOST:
            self._refuse(f"at most {MULTI_MOST} stones a turn: Enter places them")
        else:
            self.marked.append(cell)
            self._changed()

    def action_colour(self) -> None:
        self.colour = GRAY if self.colour == WHITE else WHITE
        self._changed()

    def action_adopt(self) -> None:
        if not self.takes_choices:
            return
        if self.state.is_legal(ADOPT):
            self.choose(ADOPT)
        else:
            self._refuse(why_illegal(self.state, ADOPT))

    def _refuse(self, text: str) -> None:
        self._changed(text)
        self.app.bell()

    def _place(self, cell: int, colour: str | None = None) -> None:
        if not self.takes_choices:
            return
        move = self.move_at(cell, colour)
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
