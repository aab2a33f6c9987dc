"""What the game screen shows instead of the game when the terminal is too small for its board."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widgets import Static


class TooSmall(Static):
    """A plain request to enlarge the terminal: the game waits untouched behind it, and comes
    back on the next resize that makes room."""

    def check(self, screen: Screen[Any], need: tuple[int, int]) -> None:
        """The screen's `too-small` class (which hides the game) set or cleared for `need`,
        the columns and rows its board, bar, panel and footer take."""
        terminal = self.app.size
        width, height = need
        small = terminal.width < width or terminal.height < height
        screen.set_class(small, "too-small")
        if small:
            self.update(
                f"The terminal is too small for this board.\n"
                f"Enlarge it to at least {width}x{height} (it is "
                f"{terminal.width}x{terminal.height}).\nThe game waits where it is."
            )


__all__ = ["TooSmall"]
