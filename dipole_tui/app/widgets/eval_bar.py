"""The evaluation bar beside the board in analysis mode: a column filled with the first side's
share from its end of the board (the bottom, unless the board is flipped), as lichess draws it.

The two shares differ in glyph as well as colour (`█` and `░`, `#` and `.` under --ascii), so the
bar reads the same under NO_COLOR.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget

UNICODE, ASCII = ("█", "░"), ("#", ".")  # the first side's share, the second's


class EvalBar(Widget):
    DEFAULT_CSS = """
    EvalBar {
        width: 2;
        height: 1fr;
        margin: 1 1 1 0;
        display: none;
    }
    EvalBar > .eval-bar--first { color: $foreground; }
    EvalBar > .eval-bar--second { color: $foreground 25%; }
    """
    COMPONENT_CLASSES = {"eval-bar--first", "eval-bar--second"}
    WIDTH = 3  # columns it takes beside the board, its margin included

    def __init__(self, ascii_glyphs: bool = False) -> None:
        super().__init__(id="eval-bar")
        self.glyphs = ASCII if ascii_glyphs else UNICODE
        self.share = 0.5  # the first side's, 0 to 1: kept until a new score comes
        self.flipped = False

    def show(self, share: float | None, flipped: bool) -> None:
        """Fill to `share` (None: keep the last one), the first side's end at the top when
        `flipped`."""
        if share is not None:
            self.share = share
        self.flipped = flipped
        self.refresh()

    @property
    def first_rows(self) -> int:
        """How many of its rows are the first side's."""
        return round(self.share * self.size.height)

    def render_line(self, y: int) -> Strip:
        height, width = self.size.height, self.size.width
        first = self.first_rows
        row = y if self.flipped else height - 1 - y  # counted from the first side's end
        mine = row < first
        glyph = self.glyphs[0] if mine else self.glyphs[1]
        style = self.get_component_rich_style("eval-bar--first" if mine else "eval-bar--second")
        return Strip([Segment(glyph * width, style)], width)


__all__ = ["EvalBar"]
