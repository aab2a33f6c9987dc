"""The bots' side of a game in the app: when a bot is asked, which answer is still wanted, pause,
and stopping a search. No Textual here: the app hands answers to its own thread and shows them.

Every question to the bots' process has a number (`workers.tracker.Tracker`). The controller
remembers the number whose answer will be the bot's move, the one whose answer will be the hint,
and the one whose answer will be a bot's to a draw offer; any other answer is one nobody waits for
any more (the game moved on, or was undone), and is dropped.
Each also remembers the position it was asked about: an answer that arrives when the game is no
longer there is dropped too (a move is asked for again), whatever stopped or did not stop it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..registry import rating
from ..session import Seat, Session
from ..workers.protocol import DrawRequest, DrawWeighed, MoveFound, MoveRequest, Reply
from ..workers.tracker import Tracker
from .position import Position, position_of

HINT_BOT = "hard"  # the level a hint asks
HINT_SEAT = 2  # a seat of its own: the bots at the board keep what they learned to themselves
HINT_TIME = 1.0  # seconds at most, whatever a bot's think time
MIN_THINK = 0.05  # seconds: a bot short of time still searches this long


@dataclass(frozen=True)
class Request:
    """A question sent: its number, and the game and position it is about."""

    number: int
    session: Session[Any]
    position: Position

    def stale(self) -> bool:
        """The game has moved on from the position asked about."""
        return position_of(self.session.state) != self.position


@dataclass(frozen=True)
class Answer:
    """An answer still wanted: the bot's move or the hint, in notation; None when none was
    found (the search failed). `line`: what the bot expects to follow, the move first."""

    hint: bool
    text: str | None
    line: tuple[str, ...] = ()


@dataclass(frozen=True)
class DrawAnswer:
    """A bot's answer to a draw offer, still wanted: the bot's side, and whether it accepts;
    None when it could not weigh the offer (the search failed)."""

    side: int
    accepts: bool | None


class BotController:
    """Asks the bots for moves and hints, and tells the app the answers it still wants.

    The app hands each reply of `tracker` to `take` on its own thread; `on_answer` then gets each
    answer still wanted."""

    def __init__(
        self,
        think_time: float,
        on_answer: Callable[[Answer | DrawAnswer], None],
        tracker: Tracker,
        level_of: Callable[[Seat, str], str] | None = None,
    ) -> None:
        """`level_of(seat, game_key)`: the level a bot seat plays at (the adaptive seat's
        follows the player); a seat's own level when none is given."""
        self.level_of = level_of or (lambda seat, game_key: seat.level or str(seat))
        self.think_time = think_time  # seconds for a bot that thinks to a time budget (hard)
        self.paused = False  # bot against bot: watching stops between moves
        self._on_answer = on_answer
        self.tracker = tracker  # the bots' process, started with the first request
        self._move: Request | None = None  # the request whose answer will be the bot's move
        self._hint: Request | None = None  # the request whose answer will be the hint
        self._draw: tuple[Request, int] | None = None  # a draw offer weighed, by the bot of a side

    @property
    def thinking(self) -> bool:
        """A bot is thinking of its move."""
        return self._move is not None

    @property
    def unanswered(self) -> int:
        """Requests sent whose answers have not come back yet: a cancelled one is answered too
        (and its answer dropped), so at 0 no late answer is still on its way."""
        return self.tracker.pending

    @property
    def worker_alive(self) -> bool:
        """The bots' process is running (it starts with the first request)."""
        return self.tracker.alive

    def take_turn(self, session: Session[Any], step: bool = False) -> None:
        """If a bot is to move, ask it, unless watching is paused or a game is being reviewed
        (`step`: one move all the same)."""
        side = session.state.to_move
        seat = session.players[side]
        if not seat.is_bot or session.outcome is not None or self.thinking:
            return
        if (self.paused or session.redo_moves) and not step:
            return
        bot = self.level_of(seat, session.game.key)
        self._move = self._ask(session, bot, side, self._budget(session, side))

    def _budget(self, session: Session[Any], side: int) -> float:
        """The bot's time for this move: its think time, less on a clock running low (a
        thirtieth of what is left, and half the increment)."""
        clock = session.clock
        if clock is None:
            return self.think_time
        share = clock.remaining(side) / 30 + clock.control.increment / 2
        return max(MIN_THINK, min(self.think_time, share))

    def seat_name(self, seat: Seat, game_key: str) -> str:
        """A seat as the panel says it, a bot's with its rating: `hard (+850)`, and
        `adaptive (medium, +387)` with the level the adaptive one plays at."""
        if not seat.is_bot:
            return str(seat)
        level = self.level_of(seat, game_key)
        rated = f"{rating(game_key, level):+d}"
        return f"{seat} ({rated})" if level == seat else f"{seat} ({level}, {rated})"

    def hint(self, session: Session[Any]) -> bool:
        """Ask what `HINT_BOT` would play here; only on a person's turn in a game going on."""
        if session.outcome is not None or not session.players[session.state.to_move].is_person:
            return False
        self._hint = self._ask(session, HINT_BOT, HINT_SEAT, min(self.think_time, HINT_TIME))
        return True

    def weigh_draw(self, session: Session[Any], side: int, seconds: float) -> None:
        """Ask the bot playing `side` whether it accepts a draw here, after `seconds` of
        thought; asked again, only the last question's answer is wanted."""
        level = self.level_of(session.players[side], session.game.key)
        request = DrawRequest(session.game.key, session.record_text(), side, seconds, level)
        asked = Request(self.tracker.ask(request), session, position_of(session.state))
        self._draw = asked, side

    @property
    def weighing(self) -> bool:
        """A bot is weighing a draw offer."""
        return self._draw is not None

    def drop_questions(self) -> None:
        """A move was played: a hint or a draw offer for the position before it is no use now,
        and stopping it keeps a bot's reply from waiting behind it in the process."""
        if self._hint is not None or self._draw is not None:
            self.tracker.cancel()
        self._hint = self._draw = None

    def cancel(self) -> None:
        """Undo, redo, a new game, a load or a pause: any search under way stops at once, and
        an answer still on its way is dropped."""
        self.tracker.cancel()
        self._move = self._hint = self._draw = None

    def pause(self) -> None:
        """Stop watching bots play: the search under way stops too."""
        self.paused = True
        self.cancel()

    def close(self) -> None:
        """The app is ending: answers still on their way are dropped, the process ends."""
        self._move = self._hint = self._draw = None
        self.tracker.close()

    def _ask(self, session: Session[Any], bot: str, seat: int, movetime: float) -> Request:
        """Send the game so far, as a record, to the bots' process."""
        request = MoveRequest(session.game.key, session.record_text(), bot, seat, movetime)
        return Request(self.tracker.ask(request), session, position_of(session.state))

    def take(self, tracker: Tracker, reply: Reply) -> None:
        """On the app's thread: a reply of the bots' process (of another tracker: not ours). A
        request's end with no answer before it is a search that failed."""
        if tracker is not self.tracker or not tracker.take(reply):
            return
        found = reply.answer
        if self._draw is not None and reply.number == self._draw[0].number:
            draw, side = self._draw
            self._draw = None
            if not draw.stale():  # a move played meanwhile: the offer lapsed
                accepts = found.accepts if isinstance(found, DrawWeighed) else None
                self._on_answer(DrawAnswer(side, accepts))
            return
        if found is not None and not isinstance(found, MoveFound):
            return
        move, hint = self._move, self._hint
        text, line = (found.move, found.line) if found is not None else (None, ())
        if move is not None and reply.number == move.number:
            self._move = None
            if move.stale():  # the game moved on and nobody stopped the search: ask anew
                self.take_turn(move.session)
            else:
                self._on_answer(Answer(hint=False, text=text, line=line))
        elif hint is not None and reply.number == hint.number:
            self._hint = None
            if not hint.stale():
                self._on_answer(Answer(hint=True, text=text, line=line))


__all__ = ["HINT_BOT", "Answer", "BotController", "DrawAnswer", "Request"]
