"""The Open dialog: the games kept in the data folder, listed at once however many there are
(a file's header is read only when its row is shown), and a file name to type instead."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Label, Static
from textual.worker import get_current_worker

from ..games.base import displayable, title
from ..online.seat import Seat
from ..registry import REGISTRY
from ..saves import SavedGame
from ..session import HUMAN
from .choice import OnlineChoice
from .closing import Dialog
from .online_games import OnlineGames
from .screens import path_from


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
        self._asked: set[int] = set()  # rows given to the reader (the UI thread's own)
        self._wanted: deque[int] = deque()  # rows the reader has still to read
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
        if row in self._asked:
            return
        end = min(row + self.AHEAD, len(self.games))
        rows = [r for r in range(row, end) if r not in self._asked and not self.games[r].is_read]
        self._asked.update(rows)
        with self._lock:
            self._wanted.extend(rows)
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
                row = self._wanted.popleft()
            self.games[row].read()
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


class OpenScreen(Dialog[Path | OnlineChoice | None]):
    """Open a game: the player's online games, the games kept in the data folder, newest
    first, or any file by its name."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    PLAYERS = 16  # the players' column's least width ("human v adaptive") before others are cut

    def __init__(
        self,
        games: list[SavedGame],
        folder: Path,
        default: str,
        ascii_glyphs: bool,
        online: list[Seat] | None = None,
    ) -> None:
        super().__init__()
        self.games = games
        self.online = online or []
        self.folder = folder
        self.default = default
        self.ellipsis = "~" if ascii_glyphs else "\N{HORIZONTAL ELLIPSIS}"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="open listing" if self.games else "open"):
            yield Label("Open a game", classes="dialog-title")
            if self.online:
                yield Label("Your online games:", classes="dialog-hint")
                yield OnlineGames(self.online, id="online")
            if self.games:
                yield Label(Text(f"Kept in {self.folder}:"), classes="dialog-hint")
                yield GameList(self.games, self._lay_out, id="games")
                yield Static(id="about")
            else:
                yield Label(Text(f"No games kept in {self.folder} yet."), classes="dialog-text")
            yield Label("Or type the file name:", classes="dialog-hint")
            yield Input(value=self.default, id="path")
            hint = "Enter: open   Tab: list or name   Escape: cancel"
            lists = self.games or self.online
            yield Label(hint if lists else "Enter: open   Escape: cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        if self.online:
            self.query_one(OnlineGames).focus()
            if self.games:
                self._describe(0)
        elif self.games:
            self.query_one(GameList).focus()
            self._describe(0)
        else:
            self.query_one(Input).focus()

    def _lay_out(self, room: int) -> Columns:
        """The columns that fit the list's width: game and variant apart when there is room,
        else the game's title in one column and shorter dates, then the widest cut. Every
        column but the players' is as wide as its widest possible cell (the registry's names,
        known before any file is read: the columns never change as rows are read); the
        players' takes the rest, and at least PLAYERS."""
        padding = 2 * GameList.PADDING
        for split, when in (
            (True, "%Y-%m-%d %H:%M"),
            (False, "%Y-%m-%d %H:%M"),
            (False, "%Y-%m-%d"),
        ):
            labels = self._labels(split)
            widths = self._widths(labels, when)
            players = room - sum(widths) - padding * len(widths)
            if players >= self.PLAYERS:
                break
        widths[labels.index("players")] = max(players, self.PLAYERS)
        while sum(widths) + padding * len(widths) > room and max(widths) > 5:
            widths[widths.index(max(widths))] -= 1
        cut = [self._cut(label, width) for label, width in zip(labels, widths, strict=True)]

        def cells(game: SavedGame) -> list[str]:
            texts = self._cells(game, split, when, self.ellipsis)
            return [self._cut(text, width) for text, width in zip(texts, widths, strict=True)]

        return Columns(cut, widths, [label == "plies" for label in labels], cells)

    def _widths(self, labels: list[str], when: str) -> list[int]:
        """Each column's width, the players' left at 0."""
        entries = [entry.game for entry in REGISTRY.values()]
        known = {
            "kept": [game.kept for game in self.games],
            "game": [game.name for game in entries] + ["damaged"],
            "variant": [variant or "default" for game in entries for variant in game.variants],
            "title": [title(game, variant) for game in entries for variant in game.variants],
            "saved": [datetime(2000, 12, 31, 23, 59).strftime(when)],
            "plies": ["99999"],
            "result": ["drawn"] + [f"{side} won" for game in entries for side in game.side_names],
        }
        known["title"].append("damaged")
        widths = []
        for label in labels:
            cells = known.get("title" if label == "game" and "variant" not in labels else label)
            widths.append(0 if cells is None else max(map(len, [label, *cells])))
        return widths

    @staticmethod
    def _labels(split: bool) -> list[str]:
        if split:
            return ["kept", "game", "variant", "players", "saved", "plies", "result"]
        return ["kept", "game", "players", "saved", "plies", "result"]

    @staticmethod
    def _cells(game: SavedGame, split: bool, when: str, unread: str = "") -> list[str]:
        """One row: with the game and its variant apart or as one title; `when` the date's
        format; `unread` in the game's column until the header is read."""
        saved = game.modified.strftime(when)
        if not game.is_read:
            names = [unread, ""] if split else [unread]
            return [game.kept, *names, "", saved, "", ""]
        header = game.header
        if header is None:
            names = ["damaged", ""] if split else ["damaged"]
            return [game.kept, *names, "", saved, "", ""]
        seats = (header.tags.get("White", "?"), header.tags.get("Black", "?"))
        players = "hot-seat" if seats == (HUMAN, HUMAN) else " v ".join(seats)
        sides = header.game.side_names
        result = {"1-0": f"{sides[0]} won", "0-1": f"{sides[1]} won", "1/2-1/2": "drawn"}
        end = result.get(header.result, "-")
        if split:
            names = [header.game.name, header.variant or "default"]
        else:
            names = [title(header.game, header.variant)]
        return [game.kept, *names, players, saved, str(header.plies), end]

    def _cut(self, text: str, width: int) -> str:
        return text if len(text) <= width else text[: width - 1] + self.ellipsis

    @on(GameList.Highlighted)
    def highlighted(self, event: GameList.Highlighted) -> None:
        self._describe(event.row)

    @on(GameList.HeadersRead)
    def headers_read(self) -> None:
        self._describe(self.query_one(GameList).cursor_row)

    def _describe(self, row: int) -> None:
        """Under the list: the highlighted game's file, and why it is damaged when it is (once
        its header is read: never read here, on the UI thread)."""
        if not 0 <= row < len(self.games):
            return
        game = self.games[row]
        about = Text(displayable(str(game.path.relative_to(self.folder))))
        if game.is_read and game.header is None:
            about.append(f"\ndamaged: {game.problem}", style="bold red")
        self.query_one("#about", Static).update(about)

    @on(GameList.Selected)
    def chosen(self, event: GameList.Selected) -> None:
        self.dismiss(self.games[event.row].path)

    @on(OnlineGames.Chosen)
    def online_chosen(self, event: OnlineGames.Chosen) -> None:
        self.dismiss(OnlineChoice(event.seat.server, "join", room=event.seat.room))

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(path_from(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)


__all__ = ["GameList", "OpenScreen"]
