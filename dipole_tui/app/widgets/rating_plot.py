"""Your rating over time, drawn by plotext through textual-plotext's `PlotextPlot`: a point after
each game, the first a new player's. Under `--ascii` its frame and line are ASCII too (plotext
draws box-drawing and braille characters of its own)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import RenderResult
from textual_plotext import PlotextPlot

from ...learn.rating import Rating

# plotext's frame and ticks, as ASCII
_FRAME = str.maketrans(
    dict.fromkeys("─┬┴", "-") | dict.fromkeys("│├┤", "|") | dict.fromkeys("┌┐└┘┼", "+")
)


class RatingPlot(PlotextPlot):
    """The rating after each game, the games counted along the bottom."""

    def __init__(self, ascii_glyphs: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_glyphs = ascii_glyphs
        self.points: list[float] = []  # the ratings drawn, the start's first

    def show(self, ratings: Sequence[Rating]) -> None:
        plot = self.plt
        plot.clear_data()
        plot.title("Rating over time")
        plot.xlabel("games")
        games = [float(game) for game in range(len(ratings))]
        values = self.points = [float(round(rating.rating)) for rating in ratings]
        plot.plot(games, values, marker="*" if self.ascii_glyphs else "braille")
        plot.xticks(games[:: _step(len(games) - 1, (1, 2, 5, 10, 20, 25, 50, 100, 200, 500))])
        low, high = min(values), max(values)
        step = _step(high - low, (10, 20, 25, 50, 100, 200, 250, 500, 1000))
        ticks = [float(r) for r in range(-int(-low // step) * step, int(high) + 1, step)]
        ticks = ticks if len(ticks) > 1 else sorted({low, high})  # a span under one step
        plot.yticks(ticks, [str(int(tick)) for tick in ticks])
        self.refresh()

    def render(self) -> RenderResult:
        drawn = super().render()
        if not self.ascii_glyphs or not isinstance(drawn, Text):
            return drawn
        return Text(drawn.plain.translate(_FRAME), drawn.style, spans=drawn.spans, end="")


def _step(span: float, steps: Sequence[int]) -> int:
    """The smallest of `steps` that marks `span` in at most five steps: whole games and whole
    ratings at round numbers (plotext's own ticks would say 0.5 games and 1456.2)."""
    return next((step for step in steps if span / step <= 5), steps[-1])
