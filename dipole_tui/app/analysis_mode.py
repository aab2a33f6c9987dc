"""The analysis mode's side of the app: whether it is on, which analysis is still wanted, and the
latest word on the position shown. No Textual here: the app hands updates to its own thread and
shows them.

The analysis runs in its own process (`bots.analyst.Analyst`), never in the app's: every change
of the position (a move, undo, redo, a load) asks for the new one, which stops the old one in the
process, and updates to any request but the latest are dropped, as are the latest's once the game
is no longer in the position it asked about (a score is the side to move's: shown for another
position, it could be the wrong side's).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from ..bots.analyst import Analysis, Analyst
from ..session import Session
from .position import Position, position_of

UpdateHandler = Callable[[int, Analysis | None], None]


class AnalystLike(Protocol):
    """What the mode asks of the analysis process (tests give it a stand-in)."""

    def analyse(self, game_key: str, record: str) -> int: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class AnalysisMode:
    """Analysis on or off, and what it has found for the position shown.

    `hand_over(callback)` is called on the process's reading thread: the app runs `callback` on
    its own thread. `on_change()` is then called, on the app's thread, for each update still
    wanted, and when the analysis of the position ends."""

    def __init__(
        self,
        on_change: Callable[[], None],
        hand_over: Callable[[Callable[[], None]], None],
        analyst: Callable[[UpdateHandler], AnalystLike] = Analyst,
    ) -> None:
        self.on = False
        self.latest: Analysis | None = None  # the deepest word on the position shown so far
        self._on_change = on_change
        self._hand_over = hand_over
        self._new_analyst = analyst
        self._analyst: AnalystLike | None = None  # the process, started when first needed
        self._request: int | None = None  # the request whose updates are wanted
        # The game and the position the wanted request is about.
        self._asked: tuple[Session[Any], Position] | None = None
        self._unfinished = 0

    @property
    def searching(self) -> bool:
        """The position shown is being analysed."""
        return self._request is not None

    @property
    def unfinished(self) -> int:
        """Requests whose analysis has not ended in the process yet, stopped ones included: at
        0 the process is searching nothing."""
        return self._unfinished

    def toggle(self, session: Session[Any]) -> None:
        """On: analyse the position shown. Off: the search stops."""
        self.on = not self.on
        if self.on:
            self.follow(session)
        else:
            self.stop()

    def follow(self, session: Session[Any]) -> None:
        """The position changed: when on, analyse the new one (a finished game: nothing). What
        was found is about the old one, on or off: it goes."""
        self.latest = None
        if not self.on:
            return
        if session.outcome is not None:
            self.stop()
            return
        if self._analyst is None:
            self._analyst = self._new_analyst(self._arrived)
        self._unfinished += 1
        self._request = self._analyst.analyse(session.game.key, session.record_text())
        self._asked = (session, position_of(session.state))

    def stop(self) -> None:
        """The search under way stops, and its updates still on their way are dropped."""
        if self._analyst is not None and self._request is not None:
            self._analyst.cancel()
        self._request = None

    def close(self) -> None:
        """The app is ending: the process ends."""
        self._request = None
        if self._analyst is not None:
            self._analyst.close()

    def _arrived(self, number: int, analysis: Analysis | None) -> None:
        """On the process's reading thread: the app's thread decides."""
        self._hand_over(partial(self._taken, number, analysis))

    def _moved_on(self) -> bool:
        """The game is no longer in the position the wanted request is about."""
        if self._asked is None:
            return False
        session, position = self._asked
        return position_of(session.state) != position

    def _taken(self, number: int, analysis: Analysis | None) -> None:
        if analysis is None:
            self._unfinished = max(0, self._unfinished - 1)
        if number != self._request or self._moved_on():
            return
        if analysis is None:
            self._request = None
        else:
            self.latest = analysis
        self._on_change()


__all__ = ["AnalysisMode", "AnalystLike", "UpdateHandler"]
