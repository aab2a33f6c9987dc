"""The list of the games kept in the data folder, as the Open dialog (`open_dialog.py`) shows
it: listed at once however many there are, a file's header read only when its row is shown."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.worker import get_current_worker

from ...saves import SavedGame


class Columns(NamedTuple):
    """How the list of games is laid out at one width."""

    labels: list[str]  # the columns' names, cut to their widths
    widths: list[int]
    right: list[bool]  # the columns whose cells stand at the right
    cells: Callable[[SavedGame], list[str]]  # a game's cells, cut to the widths


class GameList(ScrollView, can_focus=True):
    """The kept games, a line each under the columns' names. Drawn with the line API: only the
    rows on screen are drawn, and only their headers are read (in a thread, a page ahead), so
    ten thousand games list as fast as ten; a row not read yet shows its pile and date until it
    is. (A DataTable measures every cell of every row first: 0.7 s for 10,000 rows.)"""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
        # The Open dialog's own (its hint line shows d and r): only while the list has the focus.
        Binding("d,delete", "screen.delete", "Delete", show=False),
        Binding("r,f2", "screen.rename", "Rename", show=False),
        Binding("u", "screen.undelete", "Undo delete", show=False),
        Binding("slash", "screen.filter", "Filter", show=False),
    ]
    COMPONENT_CLASSES = {
        "game-list--header",
        "game-list--even-row",
        "game-list--cursor",
        "game-list--damaged",
        "game-list--unread",
    }
    DEFAULT_CSS = """
    GameList {
        background: $surface;
        color: $foreground;
        & > .game-list--header { text-style: bold; background: $panel; color: $foreground; }
        & > .game-list--even-row { background: $surface-lighten-1 50%; }
        & > .game-list--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus > .game-list--cursor {
            background: $block-cursor-background;
            color: $block-cursor-foreground;
            text-style: $block-cursor-text-style;
        }
        & > .game-list--damaged { color: $text-error; text-style: bold; }
        & > .game-list--unread { color: $text-muted; }
    }
    """
    AHEAD = 50  # rows read from the first unread one drawn: paging on seldom meets an unread row
    PADDING = 1  # columns of space either side of a cell

    cursor_row: reactive[int] = reactive(0)

    class Highlighted(Message):
        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    class Selected(Message):
        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    class HeadersRead(Message):
        """Some headers were read: their rows are drawn again."""

    def __init__(
        self, games: list[SavedGame], lay_out: Callable[[int], Columns], *, id: str | None = None
    ) -> None:
        """`lay_out` gives the columns for a width: asked when the list is first drawn and
        whenever its width has changed since, so the first frame has them."""
        super().__init__(id=id)
        self.games = games
        self.lay_out = lay_out
        self._columns: Columns | None = None
        self._laid_out_for = 0  # the width the columns are for
        # The games, not their rows, as a delete or a rename moves the rows under the reader.
        self._asked: set[SavedGame] = set()  # given to the reader (the UI thread's own)
        self._wanted: deque[SavedGame] = deque()  # the reader has still to read them
        self._reading = False  # whether a reader is at work on `_wanted`
        self._lock = threading.Lock()  # over `_wanted` and `_reading`, shared with the reader

    @property
    def row_count(self) -> int:
        return len(self.games)

    @property
    def columns(self) -> Columns:
        """The columns for the list's width now."""
        room = self.size.width - self.styles.scrollbar_size_vertical
        if self._columns is None or room != self._laid_out_for:
            self._columns, self._laid_out_for = self.lay_out(room), room
            line = sum(self._columns.widths) + 2 * self.PADDING * len(self._columns.widths)
            self.virtual_size = Size(line, len(self.games) + 1)
        return self._columns

    def row_text(self, row: int) -> list[str]:
        """The cells of a row as drawn."""
        return self.columns.cells(self.games[row])

    def shown_rows(self) -> range:
        """The rows on screen now."""
        top = self.scroll_offset.y
        return range(top, min(len(self.games), top + max(self.size.height - 1, 0)))

    # -- drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if width <= 0:
            return Strip.blank(width, self.rich_style)
        if y == 0:  # the columns' names stay at the top
            text = self._line(self.columns.labels)
            style = self.rich_style + self.get_component_rich_style("game-list--header")
            return Strip([Segment(text, style)]).crop_extend(
                self.scroll_offset.x, self.scroll_offset.x + width, style
            )
        row = self.scroll_offset.y + y - 1
        if row >= len(self.games):
            return Strip.blank(width, self.rich_style)
        game = self.games[row]
        style = self.rich_style
        if row % 2:
            style += self.get_component_rich_style("game-list--even-row")
        if row == self.cursor_row:
            style += self.get_component_rich_style("game-list--cursor")
        if not game.is_read:
            self._ask(row)
            style += self.get_component_rich_style("game-list--unread", partial=True)
        elif game.header is None:
            style += self.get_component_rich_style("game-list--damaged", partial=True)
        style += Style.from_meta({"row": row})
        return Strip([Segment(self._line(self.row_text(row)), style)]).crop_extend(
            self.scroll_offset.x, self.scroll_offset.x + width, style
        )

    def _line(self, cells: list[str]) -> str:
        pad = " " * self.PADDING
        columns = self.columns
        return "".join(
            pad + (cell.rjust(width) if right else cell.ljust(width))[:width] + pad
            for cell, width, right in zip(cells, columns.widths, columns.right, strict=True)
        )

    # -- reading the headers -----------------------------------------------------------------

    def _ask(self, row: int) -> None:
        """Have the reader read `row` and the rows after it, up to AHEAD, not read yet."""
        if self.games[row] in self._asked:
            return
        ahead = self.games[row : row + self.AHEAD]
        games = [game for game in ahead if game not in self._asked and not game.is_read]
        self._asked.update(games)
        with self._lock:
            self._wanted.extend(games)
            if self._reading:
                return
            self._reading = True
        self._read_headers()

    @work(thread=True, group="headers")
    def _read_headers(self) -> None:
        """Read the wanted rows' headers, in the order asked, off the UI thread (a slow disk
        never holds up a key); the rows are drawn again every 50 ms and at the end."""
        worker = get_current_worker()
        told = time.monotonic()
        while not worker.is_cancelled:
            with self._lock:
                if not self._wanted:
                    self._reading = False
                    break
                game = self._wanted.popleft()
            game.read()
            if time.monotonic() - told > 0.05:
                self.post_message(self.HeadersRead())
                told = time.monotonic()
        self.post_message(self.HeadersRead())

    def on_game_list_headers_read(self) -> None:
        self.refresh()

    # -- the cursor ----------------------------------------------------------------------------

    def watch_cursor_row(self, row: int) -> None:
        page = max(self.size.height - 1, 1)
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False)
        elif row >= top + page:
            self.scroll_to(y=row - page + 1, animate=False)
        self.refresh()
        self.post_message(self.Highlighted(row))

    def action_cursor(self, step: int) -> None:
        if self.games:
            self.cursor_row = max(0, min(len(self.games) - 1, self.cursor_row + step))

    def action_first(self) -> None:
        self.action_cursor(-len(self.games))

    def action_last(self) -> None:
        self.action_cursor(len(self.games))

    def action_page(self, pages: int) -> None:
        self.action_cursor(pages * max(self.size.height - 2, 1))

    def changed(self, row: int) -> None:
        """The games were changed from `row` on (one deleted, put back or renamed): the rows
        are drawn again, the cursor on `row` or the last."""
        self._columns = None  # laid out again, for the new count of rows
        self.cursor_row = max(0, min(row, len(self.games) - 1))
        self.refresh()

    def action_select(self) -> None:
        if self.games:
            self.post_message(self.Selected(self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on a row; a click on the row under the cursor opens it."""
        row = event.style.meta.get("row")
        if isinstance(row, int):
            if row == self.cursor_row:
                self.post_message(self.Selected(row))
            else:
                self.cursor_row = row


__all__ = ["Columns", "GameList"]
