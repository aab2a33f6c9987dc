"""The app's word of the player's other online games (`control/game_news.py` looks at them): a
move by the opponent there is said in a notice and by the terminal's bell, and the window's
title counts the games waiting for the player, "(2) dipole-tui", until each is opened."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..control.game_news import GameNews, Left, News, Room, room_of

if TYPE_CHECKING:
    from .app import GameApp

PUSH_TITLE, POP_TITLE = "\x1b[22;0t", "\x1b[23;0t"  # xterm's title stack: the old one back at exit


class OnlineNews:
    """The app's part that runs the watcher and says what it finds."""

    def __init__(self, app: GameApp) -> None:
        self.app = app
        self.news = GameNews(app.keeper.seat_book, self._on_screen)
        self.title_set = False  # the terminal's title was changed (put back at exit)

    def _on_screen(self) -> Room | None:
        room = self.app.keeper.online
        return None if room is None or not room.code else room_of(room.server, room.code)

    def start(self) -> None:
        self.app.run_worker(self.news.run(self._told), group="game-news", exit_on_error=False)

    def _told(self, news: News) -> None:
        if news.moved:
            rooms = ", ".join(f"{game.name} {game.seat.room}" for game in news.moved)
            said = f"Your turn in {rooms}: the opponent has moved (o lists your games)."
            self.app.notify(said, title="Online", timeout=20)
            self.app.bell()
        elif news.first and news.waiting:
            count = news.waiting
            said = f"{count} of your online games {'waits' if count == 1 else 'wait'} for your "
            said += "move (o lists them)."
            self.app.notify(said, title="Online", timeout=12)
        self.show_count()

    def shown(self, left: Left | None) -> None:
        """Another room (or none) on screen; `left` the one the player left, as it stood."""
        if left is not None:
            self.news.left(*left)
        self.news.seen()
        self.show_count()

    def show_count(self) -> None:
        """The title: how many games wait for the player ("(1) dipole-tui"), in the app and
        in the terminal's window."""
        count = len(self.news.waiting())
        title = f"({count}) {self.app.TITLE}" if count else self.app.TITLE
        if title == self.app.title:
            return
        self.app.title = title
        push = "" if self.title_set else PUSH_TITLE
        self.title_set = True
        self._write(f"{push}\x1b]2;{title}\x07")

    def close(self) -> None:
        """The terminal's own title back, when the app changed it."""
        if self.title_set:
            self._write(f"\x1b]2;{self.app.TITLE}\x07{POP_TITLE}")

    def _write(self, sequence: str) -> None:
        # Textual has no call for the window's title: written to its driver as its bell is.
        driver = self.app._driver
        if not self.app.is_headless and driver is not None:
            driver.write(sequence)


__all__ = ["OnlineNews"]
