"""The analysis mode's side of the app: whether it is on, which analysis is still wanted, and the
latest word on the position shown. No Textual here: the app hands updates to its own thread and
shows them.

The analysis runs in its own process (a `workers.tracker.Tracker`), never in the app's: every change
of the position (a move, undo, redo, a load) asks for the new one, which stops the old one in the
process, and updates to any request but the latest are dropped, as are the latest's once the game
is no longer in the position it asked about (a score is the side to move's: shown for another
position, it could be the wrong side's).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..analysis import BEST_LINES, Analysis
from ..session import Session
from ..workers.protocol import AnalysisRequest, Reply
from ..workers.tracker import Tracker
from .position import Position, position_of


class AnalysisMode:
    """Analysis on or off, and what it has found for the position shown.

    The app hands each reply of `tracker` (one that wants the latest request only) to `take` on
    its own thread. `on_change()` is then called for each update still wanted, and when the
    analysis of the position ends."""

    def __init__(self, on_change: Callable[[], None], tracker: Tracker) -> None:
        self.on = False
        self.lines = 1  # the best lines asked for: 1, or up to BEST_LINES (m)
        self.latest: Analysis | None = None  # the deepest word on the position shown so far
        self._on_change = on_change
        self.tracker = tracker  # the analysis process, started with the first request
        self._request: int | None = None  # the request whose updates are wanted
        # The game and the position the wanted request is about.
        self._asked: tuple[Session[Any], Position] | None = None

    @property
    def searching(self) -> bool:
        """The position shown is being analysed."""
        return self._request is not None

    @property
    def unfinished(self) -> int:
        """Requests whose analysis has not ended in the process yet, stopped ones included: at
        0 the process is searching nothing."""
        return self.tracker.pending

    def toggle(self, session: Session[Any]) -> None:
        """On: analyse the position shown. Off: the search stops."""
        self.on = not self.on
        if self.on:
            self.follow(session)
        else:
            self.stop()

    def toggle_lines(self, session: Session[Any]) -> None:
        """One best line, or up to `BEST_LINES`: the position is asked again, and what was found
        stays shown (`on_change`) until the new answers come."""
        self.lines = BEST_LINES if self.lines == 1 else 1
        self._ask(session)
        self._on_change()

    def follow(self, session: Session[Any]) -> None:
        """The position changed: when on, analyse the new one (a finished game: nothing). What
        was found is about the old one, on or off: it goes."""
        self.latest = None
        self._ask(session)

    def _ask(self, session: Session[Any]) -> None:
        if not self.on:
            return
        if session.outcome is not None:
            self.stop()
            return
        request = AnalysisRequest(session.game.key, session.record_text(), lines=self.lines)
        self._request = self.tracker.ask(request)
        self._asked = (session, position_of(session.state))

    def stop(self) -> None:
        """The search under way stops, and its updates still on their way are dropped."""
        if self._request is not None:
            self.tracker.cancel()
        self._request = None

    def close(self) -> None:
        """The app is ending: the process ends."""
        self._request = None
        self.tracker.close()

    def _moved_on(self) -> bool:
        """The game is no longer in the position the wanted request is about."""
        if self._asked is None:
            return False
        session, position = self._asked
        return position_of(session.state) != position

    def take(self, tracker: Tracker, reply: Reply) -> None:
        """On the app's thread: a reply of the analysis process (of another tracker: not ours)."""
        if tracker is not self.tracker or not tracker.take(reply):
            return
        analysis = reply.answer
        if reply.number != self._request or self._moved_on():
            return
        if analysis is not None and not isinstance(analysis, Analysis):
            return
        if analysis is None:
            self._request = None
        else:
            self.latest = analysis
        self._on_change()


__all__ = ["AnalysisMode"]
