"""The review's graph: the first side's winning chances across the game, the moves' marks under
it, and the ply shown; a click jumps to a ply."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from ...analysis import MARKS

BARS = " ▁▂▃▄▅▆▇█"
MARK_CLASS = {mark: f"graph--{word}" for _, mark, word in MARKS}


class EvalGraph(Widget):
    """The first side's winning chances in each position (`Score.chances`), as a filled area:
    the first side's colour below the curve, the second's above, even in the middle. Under it,
    the marks of the moves and the ply shown (▲). A click jumps to the ply under it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "graph--area",
        "graph--cursor",
        "graph--pending",
        "graph--inaccuracy",
        "graph--mistake",
        "graph--blunder",
    }
    DEFAULT_CSS = """
    EvalGraph { height: 5; }
    EvalGraph > .graph--area { color: #f0f0f0; background: #303030; }
    EvalGraph > .graph--cursor { color: #60a0e0; background: #203850; }
    EvalGraph > .graph--pending { color: $text-muted; background: $surface; }
    EvalGraph > .graph--inaccuracy { color: #d0c040; text-style: bold; }
    EvalGraph > .graph--mistake { color: #e08030; text-style: bold; }
    EvalGraph > .graph--blunder { color: #e04040; text-style: bold; }
    App:nocolor EvalGraph > .graph--cursor { text-style: reverse; }
    """
    ROWS = 4  # of the area; a fifth row holds the marks and the cursor

    class Jump(Message):
        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self, positions: int, ascii_glyphs: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        # The first side's winning chances, from -1 to 1 (None: not evaluated yet)
        self.values: list[float | None] = [None] * positions
        self.marks = [""] * positions  # of the move that led to each position
        self.cursor = 0
        self.ascii_glyphs = ascii_glyphs

    def set_value(self, ply: int, value: float, mark: str) -> None:
        self.values[ply] = value
        self.marks[ply] = mark
        self.refresh()

    def set_cursor(self, ply: int) -> None:
        self.cursor = ply
        self.refresh()

    def position_at(self, x: int) -> int:
        """The position a column shows: columns are shared out evenly over the positions."""
        return min(len(self.values) - 1, max(0, x) * len(self.values) // max(1, self.size.width))

    def column_of(self, ply: int) -> int:
        """The last column showing `ply`, or the one standing for it where columns are few."""
        width = max(1, self.size.width)
        return min(width - 1, ((ply + 1) * width - 1) // len(self.values))

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if width == 0:
            return Strip.blank(0)
        shown = [self.position_at(x) for x in range(width)]
        cursor = self.column_of(self.cursor)
        if y == self.ROWS:
            return Strip(self._marks_row(shown, cursor))
        segments = []
        for x, ply in enumerate(shown):
            value = self.values[ply]
            if value is None:
                char = "." if y == self.ROWS // 2 else " "
                segments.append(Segment(char, self._style("graph--pending")))
                continue
            eighths = round((value + 1) / 2 * self.ROWS * 8)
            filled = max(0, min(8, eighths - 8 * (self.ROWS - 1 - y)))
            char = BARS[filled] if not self.ascii_glyphs else " .:|#"[(filled + 1) // 2]
            name = "graph--cursor" if x == cursor else "graph--area"
            segments.append(Segment(char, self._style(name)))
        return Strip(segments)

    def _marks_row(self, shown: list[int], cursor: int) -> list[Segment]:
        """Each column's worst mark among the moves it stands for; the cursor over all."""
        segments = []
        base = self.rich_style
        for x, ply in enumerate(shown):
            if x == cursor:
                segments.append(
                    Segment("^" if self.ascii_glyphs else "▲", self._style("graph--cursor"))
                )
                continue
            last = shown[x + 1] if x + 1 < len(shown) else len(self.values)
            marks = [self.marks[p] for p in range(ply, max(ply + 1, last))]
            worst = next((mark for _, mark, _ in MARKS if mark in marks), "")
            if worst:
                segments.append(Segment(worst[0], self._style(MARK_CLASS[worst])))
            else:
                segments.append(Segment(" ", base))
        return segments

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(name)

    def on_click(self, event: events.Click) -> None:
        self.post_message(self.Jump(self.position_at(event.x)))
