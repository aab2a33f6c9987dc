"""The side panel's move list: the numbered moves of the whole game, the move of the position on
the board marked, the undone moves apart after a rule of their own, and a click on a move a way to
look at the position after it.

The lines are chosen when drawn, for the height the list has then. The list's height follows the
parts above it (the turn grows when the game ends) without the panel being resized, so a height
read when the game changed can be stale in either way: too many lines cut the last moves off, too
few leave empty rows.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from ..records import move_label
from ..session import Session

UNDONE_RULE = "undone (U replays)"


class Span(NamedTuple):
    """Where a move stands on a line of the list: its columns and the ply it leads to."""

    start: int
    end: int
    ply: int


class MoveList(Static):
    """The game's moves; `shown` is the ply whose position the board shows (None: the game's
    own position)."""

    class Picked(Message):
        """A move was clicked: show the position after it (`ply` moves from the start)."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    def __init__(self) -> None:
        super().__init__(id="move-list")
        self.session: Session[Any] | None = None
        self.shown: int | None = None
        self._spans: list[list[Span]] = []  # of the lines drawn last, top to bottom

    def show(self, session: Session[Any], shown: int | None = None) -> None:
        self.session = session
        self.shown = shown
        self.refresh()

    def render(self) -> Text:
        session, height = self.session, self.size.height
        self._spans = []
        if session is None:
            return Text()
        played = session.state.moves_played
        everything = played + session.redo_moves
        if not everything:
            return Text("no moves yet", style="dim")
        lines, spans, focus = self._lines(session, everything)
        start = 0
        if height > 0 and len(lines) > height:
            start = len(lines) - height
            if self.shown is not None or session.redo_moves:
                start = max(0, min(focus - height // 2, start))
            lines, spans = lines[start : start + height], spans[start : start + height]
        self._spans = spans
        return Text("\n").join(lines)

    def _lines(
        self, session: Session[Any], everything: list[Any]
    ) -> tuple[list[Text], list[list[Span]], int]:
        """Every line, the moves' places on them, and the line of the marked move."""
        played = session.state.plies
        marked = played if self.shown is None else self.shown  # the ply on the board
        first = (session.state.to_move + played) % 2
        lines: list[Text] = []
        spans: list[list[Span]] = []
        focus = 0
        for ply, move in enumerate(everything):
            undone = ply >= played
            if ply == played and undone:
                lines.append(Text(UNDONE_RULE, style="dim"))
                spans.append([])
            if (first + ply) % 2 == 0 or not lines or (undone and ply == played):
                lines.append(Text(move_label(first, ply), style="dim italic" if undone else ""))
                spans.append([])
            line = lines[-1]
            line.append(" " if len(spans[-1]) == 0 else session.game.move_separator)
            text = session.game.format_move(move)
            style = "dim italic" if undone else ""
            if ply + 1 == marked:
                style = "reverse" if self.shown is not None else "bold underline"
                focus = len(lines) - 1
            spans[-1].append(Span(len(line), len(line) + len(text), ply + 1))
            line.append(text, style=style)
        return lines, spans, focus

    def on_click(self, event: events.Click) -> None:
        """A click on a move (on a line's number: its first move) shows the position after it."""
        if not 0 <= event.y < len(self._spans) or not self._spans[event.y]:
            return
        spans = self._spans[event.y]
        picked = next((span for span in spans if event.x < span.end), spans[-1])
        event.stop()
        self.post_message(self.Picked(picked.ply))


__all__ = ["UNDONE_RULE", "MoveList"]
