"""The app's dialogs: new game, resume, game over, file name, open a game, help."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Button, Input, Label, Select, Static
from textual.worker import get_current_worker

from ..adaptive import ADAPTIVE
from ..games.base import title
from ..registry import REGISTRY, describe_level, nearest_level
from ..saves import SavedGame
from ..session import HUMAN
from ..session import players as players_of
from .ascii import BULLETS, plain
from .boards import playable
from .choice import GameChoice, LearnChoice
from .wrapping import wrap

HELP = Path(__file__).with_name("help")  # the game's page (its registry entry), then keys.md


def seat_label(game_key: str, seat: str) -> str:
    """A seat as the dialog offers it: a level with its number and rating, "3 easy (+640)"."""
    if seat in (HUMAN, ADAPTIVE):
        return seat.capitalize()
    return describe_level(game_key, seat)


class NewGameScreen(ModalScreen[GameChoice | LearnChoice | None]):
    """Choose the game, the board and who plays each side."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: GameChoice) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        game = REGISTRY[self.current.game_key].game
        key = self.current.game_key
        players = [(seat_label(key, name), name) for name in players_of(key)]
        with Vertical(id="dialog", classes="new-game"):
            yield Label("New game", classes="dialog-title")
            with Grid(id="form"):
                yield Label("Game")
                yield Select(
                    [(REGISTRY[key].game.name, key) for key in playable()],
                    value=self.current.game_key,
                    allow_blank=False,
                    id="game",
                )
                yield Label("Variant")
                yield Select(
                    [(variant or "default", variant) for variant in game.variants],
                    value=self.current.variant,
                    allow_blank=False,
                    id="variant",
                )
                for side, name in enumerate(game.side_names):
                    yield Label(name)
                    yield Select(
                        players,
                        value=self.current.players[side],
                        allow_blank=False,
                        id=f"player-{side}",
                    )
            with Horizontal(classes="buttons"):
                yield Button("Start", variant="primary", id="start")
                yield Button("Learn", id="learn")
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()

    @on(Select.Changed, "#game")
    def game_changed(self, event: Select.Changed) -> None:
        """Another game has its own boards and side names: the form is built again for it."""
        key = str(event.value)
        if key != self.current.game_key:
            seats = tuple(nearest_level(key, seat) for seat in self._seats())
            self.current = GameChoice(key, REGISTRY[key].game.variants[0], (seats[0], seats[1]))
            self.refresh(recompose=True)
            self.call_after_refresh(self.query_one("#game", Select).focus)

    def _seats(self) -> tuple[str, str]:
        return (
            str(self.query_one("#player-0", Select).value),
            str(self.query_one("#player-1", Select).value),
        )

    @on(Button.Pressed, "#start")
    def start(self) -> None:
        game_key = str(self.query_one("#game", Select).value)
        variants = REGISTRY[game_key].game.variants
        chosen = self.query_one("#variant", Select).value
        variant = chosen if chosen in variants else variants[0]
        self.dismiss(GameChoice(game_key, variant, self._seats()))

    @on(Button.Pressed, "#learn")
    def learn(self) -> None:
        self.dismiss(LearnChoice(str(self.query_one("#game", Select).value)))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceScreen(ModalScreen[str]):
    """A question with a few answers, one button each; Escape gives the harmless answer."""

    BINDINGS = [Binding("escape", "escape", "Close")]

    def __init__(self, title: str, text: str, answers: list[tuple[str, str]], escape: str) -> None:
        super().__init__()
        self.title_text = title
        self.text = text
        self.answers = answers
        self.escape_answer = escape

    def compose(self) -> ComposeResult:
        # The dialog is 56 columns, at most 95% of the screen, less its border and padding: the
        # text is wrapped here so that a file path breaks after a `/`, not mid-word.
        width = min(56, self.app.size.width * 95 // 100) - 6
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label("\n".join(wrap(self.text, width)), classes="dialog-text")
            with Horizontal(classes="buttons"):
                for index, (label, key) in enumerate(self.answers):
                    yield Button(label, id=key, variant="primary" if index == 0 else "default")

    def on_mount(self) -> None:
        self.query(Button).first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "")

    def action_escape(self) -> None:
        self.dismiss(self.escape_answer)


class FileScreen(ModalScreen[Path | None]):
    """Ask for a file name, to save a record."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, default: str) -> None:
        super().__init__()
        self.title_text = title
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Input(value=self.default, id="path")
            yield Label("Enter to confirm, Escape to cancel", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(_path_from(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _path_from(text: str) -> Path | None:
    """A typed file name, with `~` expanded; None when nothing was typed."""
    text = text.strip()
    if not text:
        return None
    try:
        return Path(text).expanduser()
    except RuntimeError:  # ~someone who does not exist: take the name as written
        return Path(text)


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


class OpenScreen(ModalScreen[Path | None]):
    """Open a game: the games kept in the data folder, newest first, or any file by its name."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    PLAYERS = 16  # the players' column's least width ("human v adaptive") before others are cut

    def __init__(
        self, games: list[SavedGame], folder: Path, default: str, ascii_glyphs: bool
    ) -> None:
        super().__init__()
        self.games = games
        self.folder = folder
        self.default = default
        self.ellipsis = "~" if ascii_glyphs else "\N{HORIZONTAL ELLIPSIS}"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="open listing" if self.games else "open"):
            yield Label("Open a game", classes="dialog-title")
            if self.games:
                yield Label(Text(f"Kept in {self.folder}:"), classes="dialog-hint")
                yield GameList(self.games, self._lay_out, id="games")
                yield Static(id="about")
            else:
                yield Label(Text(f"No games kept in {self.folder} yet."), classes="dialog-text")
            yield Label("Or type the file name:", classes="dialog-hint")
            yield Input(value=self.default, id="path")
            hint = "Enter: open   Tab: list or name   Escape: cancel"
            yield Label(
                hint if self.games else "Enter: open   Escape: cancel", classes="dialog-hint"
            )

    def on_mount(self) -> None:
        if self.games:
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
        return [game.kept, *names, _printable(players), saved, str(header.plies), end]

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
        about = Text(_printable(str(game.path.relative_to(self.folder))))
        if game.is_read and game.header is None:
            about.append(f"\ndamaged: {game.problem}", style="bold red")
        self.query_one("#about", Static).update(about)

    @on(GameList.Selected)
    def chosen(self, event: GameList.Selected) -> None:
        self.dismiss(self.games[event.row].path)

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        self.dismiss(_path_from(event.value))

    def action_cancel(self) -> None:
        self.dismiss(None)


def _printable(text: str) -> str:
    """Text from a file (a player's name, a file name) with its control characters escaped, so
    that none reaches the terminal raw."""
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class HelpScreen(ModalScreen[None]):
    """The rules in the project's own words, with the sheet's examples, and the keys."""

    BINDINGS = [
        Binding("escape,q,question_mark", "close", "Close"),
    ]

    def __init__(self, game_key: str, ascii_glyphs: Mapping[str, str] | None = None) -> None:
        """`ascii_glyphs`: under --ascii, the board's ASCII glyph for each Unicode one."""
        super().__init__()
        self.game_key = game_key
        self.ascii_glyphs = ascii_glyphs

    def compose(self) -> ComposeResult:
        from textual.widgets import Markdown  # imported when first needed: it is slow to load

        with VerticalScroll(id="help"):
            pages = (HELP / REGISTRY[self.game_key].help_page, HELP / "keys.md")
            text = "\n".join(page.read_text(encoding="utf-8") for page in pages)
            if self.ascii_glyphs is not None:
                text = plain(text, self.ascii_glyphs)
            markdown = Markdown(text)
            if self.ascii_glyphs is not None:
                markdown.BULLETS = BULLETS
            yield markdown

    def on_mount(self) -> None:
        self.query_one("#help").focus()

    def action_close(self) -> None:
        self.dismiss(None)


__all__ = [
    "ChoiceScreen",
    "FileScreen",
    "GameList",
    "HelpScreen",
    "NewGameScreen",
    "OpenScreen",
]
