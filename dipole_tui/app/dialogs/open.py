"""The Open dialog: the games kept in the data folder (`game_list.py` lists them), each to open,
delete (to the data folder's trash, `u` puts it back) or rename, filtered by words their rows
hold (a game, a player, a result, a date: `/`), and a file name to type instead."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, Label, Static
from textual.worker import get_current_worker

from ...control.choice import OnlineChoice
from ...games.base import displayable, title
from ...online.seat import RoomSeat
from ...registry import REGISTRY
from ...saves import SavedGame, refused
from ...session import HUMAN
from ..closing import Dialog
from ..widgets.game_list import Columns, GameList
from .file import path_from
from .online_games import OnlineGames


class OpenScreen(Dialog[Path | OnlineChoice | None]):
    """Open a game: the player's online games, the games kept in the data folder, newest
    first (each also to delete or rename), or any file by its name."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    KEYS = "Enter: open  d: delete  r: rename  /: filter  Tab: list or name  Esc: cancel"
    FILTER = "Show the games whose row holds every word (a game, a player, won, a date):"
    PLAYERS = 16  # the players' column's least width ("human v adaptive") before others are cut

    def __init__(
        self,
        games: list[SavedGame],
        folder: Path,
        default: str,
        ascii_glyphs: bool,
        online: list[RoomSeat] | None = None,
    ) -> None:
        super().__init__()
        self.games = games  # those shown (the list's own): all, or those the filter keeps
        self.every_game = list(games)
        self.words: list[str] = []  # the filter's, lowercase: a row shown holds each
        self.filtering = False  # the entry takes the filter's words
        self.online = online or []
        self.folder = folder
        self.default = default
        self.ellipsis = "~" if ascii_glyphs else "\N{HORIZONTAL ELLIPSIS}"
        self.renaming: SavedGame | None = None  # the game whose new name the entry takes
        # row, game, where, its place among every game: u puts back
        self.trashed: list[tuple[int, SavedGame, Path, int]] = []
        self.said: tuple[SavedGame | None, Text] | None = None  # under the list, till it moves

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="open listing" if self.games else "open"):
            yield Label("Open a game", classes="dialog-title")
            if self.online:
                yield Label("Your online games:", classes="dialog-hint")
                yield OnlineGames(self.online, id="online")
            if self.games:
                yield Label(Text(f"Kept in {self.folder}:"), id="kept", classes="dialog-hint")
                yield GameList(self.games, self._lay_out, id="games")
            else:
                yield Label(Text(f"No games kept in {self.folder} yet."), classes="dialog-text")
            about = Static(id="about")
            about.display = bool(self.games)  # described at once when there are games
            yield about
            yield Label("Or type the file name:", id="entry-hint", classes="dialog-hint")
            yield Input(value=self.default, id="path")
            yield Label(self._keys(), id="keys", classes="dialog-hint")

    def _keys(self) -> str:
        """The keys of the hint line: the list's own while there is one (filtered to none too)."""
        if self.every_game:
            return self.KEYS
        tab = "   Tab: list or name" if self.online else ""
        return f"Enter: open{tab}   Escape: cancel"

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
        its header is read: never read here, on the UI thread); what a key just did."""
        game = self.games[row] if 0 <= row < len(self.games) else None
        if self.said is not None and self.said[0] is not game:
            self.said = None  # said of another row: the cursor moved on
        about = Text()
        if game is not None:
            about.append(displayable(self._named(game.path)))
            if game.is_read and game.header is None:
                about.append(f"\ndamaged: {game.problem}", style="bold red")
        if self.said is not None:
            about.append("\n" if about else "").append_text(self.said[1])
        shown = self.query_one("#about", Static)
        shown.update(about)
        shown.display = bool(about)  # no empty line under "No games kept"

    def _say(self, text: str, error: bool = False) -> None:
        """A line under the list on what a key did (file names in it shown escaped), said till
        the cursor moves on."""
        row = self.query_one(GameList).cursor_row if self.games else -1
        game = self.games[row] if 0 <= row < len(self.games) else None
        self.said = (game, Text(displayable(text), style="bold red" if error else ""))
        self._describe(row)

    def _named(self, path: Path) -> str:
        return str(path.relative_to(self.folder))

    def action_delete(self) -> None:
        """The highlighted game to the data folder's trash: out of the list at once, and back
        with `u` (a key this near Enter should lose nothing: no question asked, none lost)."""
        games = self.query_one(GameList)
        row = games.cursor_row
        if not 0 <= row < len(self.games):
            return
        game = self.games[row]
        try:
            trashed = game.discard(self.folder)
        except OSError as error:
            self._say(f"Not deleted: {error.strerror or error}", error=True)
            return
        self.trashed.append((row, game, trashed, self.every_game.index(game)))
        del self.games[row]
        self.every_game.remove(game)
        games.changed(row)
        self._say(f"Deleted: moved to {self._named(trashed)} (u puts it back)")

    def action_undelete(self) -> None:
        """The game deleted last back in its place."""
        if not self.trashed:
            return
        row, game, trashed, place = self.trashed.pop()
        try:
            game.restore(trashed)
        except OSError as error:
            where = self._named(trashed)
            self._say(f"Not put back: {error.strerror or error}; it is in {where}", error=True)
            return
        self.games.insert(min(row, len(self.games)), game)
        self.every_game.insert(min(place, len(self.every_game)), game)
        self.query_one(GameList).changed(row)
        self._say(f"Put back: {self._named(game.path)}")

    def action_rename(self) -> None:
        """The entry takes the highlighted game's new name: Enter renames, Escape does not.
        The name is offered escaped, as listed: an entry shows its text raw to the terminal."""
        row = self.query_one(GameList).cursor_row
        if not 0 <= row < len(self.games):
            return
        self.renaming = game = self.games[row]
        hint = f"New name for {self._named(game.path)}:"
        keys = "Enter: rename   Escape: keep the name"
        self._entry(hint, displayable(game.name), keys).focus()

    def _entry(self, hint: str, value: str, keys: str) -> Input:
        """The entry for a name to open, or for a game's new name, with its hint and keys."""
        self.query_one("#entry-hint", Label).update(Text(displayable(hint)))
        self.query_one("#keys", Label).update(keys)
        entry = self.query_one("#path", Input)
        entry.value = value
        return entry

    def _stop_renaming(self, focus: bool = True) -> None:
        """Back to the entry of a name to open; a refusal said is not left standing."""
        self.renaming = self.said = None
        self._describe(self.query_one(GameList).cursor_row)
        self._entry("Or type the file name:", self.default, self._keys())
        if focus:
            self.query_one(GameList).focus()

    def _rename(self, game: SavedGame, name: str) -> None:
        if name.strip() == displayable(game.name):
            name = game.name  # as offered: unchanged, though escaped
        try:
            renamed = game.renamed(name)
        except (ValueError, OSError) as error:
            said = (error.strerror if isinstance(error, OSError) else None) or str(error)
            self._say(f"Not renamed: {said}", error=True)
            return
        row = self.games.index(game)
        self.games[row] = self.every_game[self.every_game.index(game)] = renamed
        self._stop_renaming()
        self.query_one(GameList).changed(row)
        if renamed is not game:
            self._say(f"Renamed from {game.name}")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Tab or a click away from the entry ends a rename, not renamed, or the filter's
        words (the filter stays)."""
        away = event.widget is not self.query_one("#path")
        if away and (self.renaming is not None or self.filtering):
            self.filtering = False
            self._stop_renaming(focus=False)

    # -- the filter ----------------------------------------------------------------------------

    class AllRead(Message):
        """Every kept game's header is read: the filter knows each row now."""

    def action_filter(self) -> None:
        """The entry takes the words every row shown must hold; the headers not read yet are
        read meanwhile, off the UI thread, and the rows filtered again once they are."""
        self.renaming = None
        self.filtering = True
        keys = "Enter: filter   Escape: every game"
        self._entry(self.FILTER, " ".join(self.words), keys).focus()
        if not all(game.is_read for game in self.every_game):
            self._read_all()

    @work(thread=True, group="filter", exclusive=True)
    def _read_all(self) -> None:
        worker = get_current_worker()  # cancelled when the dialog closes
        for game in list(self.every_game):
            if worker.is_cancelled:
                return
            game.read()
        self.post_message(self.AllRead())

    @on(AllRead)
    def all_read(self) -> None:
        self._filter(" ".join(self.words))

    @on(Input.Changed, "#path")
    def words_typed(self, event: Input.Changed) -> None:
        if self.filtering:
            self._filter(event.value)

    def _filter(self, words: str) -> None:
        """The rows that hold every word (a row not read yet stays until it is read)."""
        self.words = words.lower().split()
        when = "%Y-%m-%d %H:%M"
        shown = [
            game
            for game in self.every_game
            if not game.is_read
            or all(
                word in " ".join([game.name, *self._cells(game, True, when)]).lower()
                for word in self.words
            )
        ]
        counted = f" ({len(shown)} of {len(self.every_game)}: / filters)" if self.words else ""
        self.query_one("#kept", Label).update(Text(f"Kept in {self.folder}{counted}:"))
        if shown != self.games:  # (a header read that changes nothing moves no cursor)
            self.games[:] = shown
            self.query_one(GameList).changed(0)
            self._describe(0)

    def _stop_filtering(self, keep: bool) -> None:
        """Enter keeps the filter, Escape shows every game again; back to the list."""
        if not keep:
            self._filter("")
        self.filtering = False
        self._stop_renaming()

    @on(GameList.Selected)
    def chosen(self, event: GameList.Selected) -> None:
        self.dismiss(self.games[event.row].path)

    @on(OnlineGames.Chosen)
    def online_chosen(self, event: OnlineGames.Chosen) -> None:
        self.dismiss(OnlineChoice(event.seat.server, "join", room=event.seat.room))

    @on(Input.Submitted)
    def submitted(self, event: Input.Submitted) -> None:
        if self.filtering:
            self._filter(event.value)
            self._stop_filtering(keep=True)
            return
        if self.renaming is not None:
            self._rename(self.renaming, event.value)
            return
        path = path_from(event.value)
        if path is not None and (refusal := refused(path)):
            self._say(refusal, error=True)  # said here, to be corrected, not in a passing toast
        else:
            self.dismiss(path)

    def action_cancel(self) -> None:
        if self.filtering:
            self._stop_filtering(keep=False)
        elif self.renaming is not None:
            self._stop_renaming()
        else:
            self.dismiss(None)


__all__ = ["GameList", "OpenScreen"]
