"""The side panel's move list: the numbered moves of the whole game, the move of the position on
the board marked, the undone moves apart after a rule of their own, and a click on a move a way to
look at the position after it.

The lines are chosen when drawn, for the height the list has then. The list's height follows the
parts above it (the turn grows when the game ends) without the panel being resized, so a height
read when the game changed can be stale in either way: too many lines cut the last moves off, too
few leave empty rows.

In a game with clocks each move's time (what its mover thought over it, `clock.time_used`) stands
dim after it, the moves and times in columns, when every line of the list fits its width so: from
100 columns the wide panel's list (31 columns, more from 160) holds a usual game's, at 80 the
narrow one's (23) does not, and the moves stand as they do without clocks. A move whose time is
not known (`time_used`) shows none.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from ...clock import Clock, time_used
from ...records import move_label
from ...session import Session

UNDONE_RULE = "undone (U replays)"
UNDONE = "dim italic"
LAST, LOOKED_AT = "bold underline", "reverse"  # the game's last move; the one looked back at


class Span(NamedTuple):
    """Where a move stands on a line of the list: its columns and the ply it leads to."""

    start: int
    end: int
    ply: int


class Played(NamedTuple):
    """A move as the list writes it: its text, its style, the ply it leads to and its time."""

    text: str
    style: str
    ply: int
    took: str


class Row(NamedTuple):
    """A numbered line of the list: its number and the moves after it (one or two)."""

    label: str
    undone: bool
    moves: list[Played]


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
        """Every line, the moves' places on them, and the line of the marked move: with the
        moves' times in columns where every line fits so, else the moves alone."""
        rows = self._rows(session, everything)
        if any(move.took for row in rows if isinstance(row, Row) for move in row.moves):
            drawn = _drawn(rows, _columns(rows), " ")
            if max(line.cell_len for line in drawn[0]) <= self.size.width:
                return drawn
        return _drawn(rows, None, session.game.move_separator)

    def _rows(self, session: Session[Any], everything: list[Any]) -> list[Row | str]:
        """The list's rows: a numbered line of moves, or the rule before the undone ones."""
        played = session.state.plies
        marked = played if self.shown is None else self.shown  # the ply on the board
        first = (session.state.to_move + played) % 2
        rows: list[Row | str] = []
        for ply, move in enumerate(everything):
            undone = ply >= played
            if ply == played and undone:
                rows.append(UNDONE_RULE)
            row = rows[-1] if rows else UNDONE_RULE
            if (first + ply) % 2 == 0 or isinstance(row, str):
                row = Row(move_label(first, ply), undone, [])
                rows.append(row)
            style = UNDONE if undone else ""
            if ply + 1 == marked:
                style = LOOKED_AT if self.shown is not None else LAST
            text = session.game.format_move(move)
            row.moves.append(Played(text, style, ply + 1, _took(session.clock, ply + 1)))
        return rows

    def on_click(self, event: events.Click) -> None:
        """A click on a move (on a line's number: its first move) shows the position after it."""
        if not 0 <= event.y < len(self._spans) or not self._spans[event.y]:
            return
        spans = self._spans[event.y]
        picked = next((span for span in spans if event.x < span.end), spans[-1])
        event.stop()
        self.post_message(self.Picked(picked.ply))


def _columns(rows: list[Row | str]) -> list[int]:
    """The widths of the numbers, then of each move and its time, first move and second."""
    numbered = [row for row in rows if isinstance(row, Row)]
    widths = [max(len(row.label) for row in numbered)]
    for at in (0, 1):
        moves = [row.moves[at] for row in numbered if len(row.moves) > at]
        widths += [max((len(move.text) for move in moves), default=0)]
        widths += [max((len(move.took) for move in moves), default=0)]
    return widths


def _drawn(
    rows: list[Row | str], columns: list[int] | None, separator: str
) -> tuple[list[Text], list[list[Span]], int]:
    """The rows as lines: the moves after their numbers, apart by `separator`; with `columns`,
    each move's time after it (dim) and the numbers, moves and times lined up."""
    lines: list[Text] = []
    spans: list[list[Span]] = []
    focus = 0
    for row in rows:
        spans.append([])
        if isinstance(row, str):
            lines.append(Text(row, style="dim"))
            continue
        label = row.label if columns is None else row.label.rjust(columns[0])
        line = Text(label, style=UNDONE if row.undone else "")
        for at, move in enumerate(row.moves):
            line.append(" " if at == 0 else separator)
            start = len(line)
            line.append(move.text, style=move.style)
            if move.style in (LOOKED_AT, LAST):
                focus = len(lines)
            if columns is not None:
                moved, took = columns[1 + 2 * at], columns[2 + 2 * at]
                cell = " " * (moved - len(move.text)) + (f" {move.took:>{took}}" if took else "")
                line.append(cell, style="dim")
            spans[-1].append(Span(start, len(line), move.ply))
        line.rstrip()
        lines.append(line)
    return lines, spans, focus


def _took(clock: Clock | None, ply: int) -> str:
    """The time ply `ply`'s mover took over it, as shown; "" when there is none to show."""
    took = None if clock is None else time_used(clock.marks, clock.control.increment, ply)
    return "" if took is None else shown_took(took)


def shown_took(seconds: float) -> str:
    """A move's time as lichess shows it: `0.4s` (tenths under ten seconds), `12s`, `1:05`,
    `1:02:03` from an hour."""
    tenths = math.floor(seconds * 10 + 0.5)
    if tenths < 100:
        return f"{tenths / 10:.1f}s"
    whole = math.floor(seconds + 0.5)
    if whole < 60:
        return f"{whole}s"
    hours, rest = divmod(whole, 3600)
    minutes = f"{hours}:{rest // 60:02d}" if hours else f"{rest // 60}"
    return f"{minutes}:{rest % 60:02d}"


__all__ = ["UNDONE_RULE", "MoveList", "shown_took"]
